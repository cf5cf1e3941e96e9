/*
 * sigv4_check — the server's side of Signature Version 4, for `ddbx
 * serve --require-credentials` (ui/cli_serve.c) and DynamoDB Local's
 * database rule (the credential scope names the database: ui/serve_dbs.h).
 *
 * A request's Authorization header is read into its parts; the
 * signature is computed again with data/sigv4.c over the headers the
 * client signed and compared; X-Amz-Date must be within AWS's 15
 * minutes of the server's clock. What AWS answers otherwise, and where
 * that comes from:
 *   no Authorization header:  MissingAuthenticationTokenException,
 *       "Request is missing Authentication Token";
 *   a key other than the one required: UnrecognizedClientException,
 *       "The security token included in the request is invalid." (DynamoDB's
 *       answer as quoted in baopham/laravel-dynamodb issue 228, 2020, and
 *       boto/boto3 issue 509, 2016);
 *   a wrong signature: InvalidSignatureException, "The request signature we
 *       calculated does not match the signature you provided. Check your AWS
 *       Secret Access Key and signing method. Consult the service
 *       documentation for details." (ttsuruoka/php-simple-amazon-dynamodb
 *       issue 1, 2016);
 *   X-Amz-Date more than 15 minutes old: InvalidSignatureException,
 *       "Signature expired: 20140325T143453Z is now earlier than
 *       20140325T143751Z (20140325T145251Z - 15 min.)" (DynamoDB's answer,
 *       aws/aws-sdk-js issue 254, 2014; sebdah/dynamic-dynamodb issue 118);
 *       15 minutes ahead: "Signature not yet current: X is still later
 *       than Y (Z + 15 min.)", the same service's wording the other way.
 * Pure: the caller gives the clock. Strings in the input are the caller's.
 */
#ifndef DDBX_SIGV4_CHECK_H
#define DDBX_SIGV4_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "data/sigv4.h"

/* "AWS4-HMAC-SHA256 Credential=KEY/DATE/REGION/SERVICE/aws4_request,
 * SignedHeaders=a;b, Signature=HEX", in parts. */
typedef struct sigv4_auth {
    char key[129];
    char date[9];
    char region[65];
    char service[65];
    char signed_headers[1025];
    char signature[65];
} sigv4_auth;

/* false when value is not such a header (or a part is too long). */
bool sigv4_parse_authorization(const char *value, sigv4_auth *out);

typedef enum sigv4_verdict {
    SIGV4_GOOD,
    SIGV4_MISSING,        /* MissingAuthenticationTokenException */
    SIGV4_UNKNOWN_KEY,    /* UnrecognizedClientException */
    SIGV4_BAD_SIGNATURE,  /* InvalidSignatureException */
    SIGV4_EXPIRED,        /* InvalidSignatureException, "Signature expired: ..." */
} sigv4_verdict;

typedef struct sigv4_request {
    const char *method, *path, *query;
    const sigv4_header *headers;   /* every header received */
    size_t nheaders;
    const void *body;
    size_t body_len;
    const char *authorization;     /* the header's value, NULL when absent */
    const char *amz_date;          /* X-Amz-Date, NULL when absent */
} sigv4_request;

/* Checks rq against the one key and secret accepted, at time now
 * (seconds since the epoch). *type and msg get AWS's error type
 * ("InvalidSignatureException") and message unless SIGV4_GOOD. */
sigv4_verdict sigv4_check(const sigv4_request *rq, const char *key, const char *secret, long long now,
                          const char **type, char *msg, size_t n);

#endif
