/*
 * remote — a DynamoDB endpoint over HTTP(S): AWS, DynamoDB Local, dynalite,
 * ScyllaDB Alternator. The transport half of the remote backend: one
 * JSON 1.0 request in, the response body out, with the same contract as
 * store_call so callers can hold either.
 *
 * Requests go through libcurl (keep-alive on one easy handle), signed with
 * AWS Signature Version 4 (data/sigv4.h) using the standard credential
 * chain (data/creds.h). The endpoint is --endpoint-url, else the SDKs'
 * service endpoint settings for "dynamodb" (creds_endpoint:
 * AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL, the profile's services
 * section, its endpoint_url), else https://dynamodb.REGION.amazonaws.com.
 * Throttling (ProvisionedThroughputExceededException,
 * ThrottlingException, RequestLimitExceeded...), 5xx answers, a response
 * whose x-amz-crc32 does not match its body, and transport failures
 * (refused, reset, timed out) are retried as the AWS SDKs' standard mode
 * does: up to max_attempts attempts in all (default 3; AWS_MAX_ATTEMPTS,
 * else the profile's max_attempts), sleeping a random time in
 * [0, min(20 s, 1 s * 2^(attempt-1))) between them ("full jitter"). Retry
 * quotas (the token bucket) and adaptive mode's client-side rate limiter
 * are not modelled (retry_mode = adaptive retries as standard does);
 * retry_mode = legacy (AWS_RETRY_MODE or the profile's) is botocore's
 * legacy DynamoDB policy: 10 attempts, 50 ms * 2^(attempt-1) apart.
 * HTTPS certificates are checked against the system's CAs, or the file
 * AWS_CA_BUNDLE (else the profile's ca_bundle) names, as in the AWS CLI;
 * an untrusted certificate is not retried. Timeouts: 3 s to connect
 * (REMOTE_CONNECT_MS: a dead endpoint fails fast, issue 42), 60 s for a
 * whole request (DDBX_REMOTE_TIMEOUT_MS overrides the latter), and a
 * connection stalled for 30 s is dropped.
 *
 * Errors: d->code is the status whose name is DynamoDB's error type when
 * there is one (ValidationException, ResourceNotFoundException,
 * ConditionalCheckFailedException, ...), else ST_IO with the type leading
 * the message ("ThrottlingException: ...", "AccessDeniedException: ...",
 * "NetworkError: connection to HOST dropped: ..."); remote_error_code
 * gives the type name alone. Nothing here prints, and no secret (secret
 * key, session token, signature inputs) ever enters a message.
 *
 * Ownership: a remote owns its curl handle and credentials; close it with
 * remote_close. Thread-safety: one remote per thread (each pull segment
 * opens its own); remote_open may be called from any thread.
 */
#ifndef DDBX_REMOTE_H
#define DDBX_REMOTE_H

#include <signal.h>
#include <stddef.h>

#include "model/buf.h"
#include "model/status.h"

typedef struct remote remote;

#define REMOTE_CONNECT_MS 3000

typedef struct remote_opts {
    const char *endpoint_url; /* NULL: https://dynamodb.REGION.amazonaws.com */
    const char *region;       /* NULL: AWS_REGION, AWS_DEFAULT_REGION, the profile's region */
    const char *profile;      /* NULL: AWS_PROFILE, else "default" */
    int max_attempts;         /* 0: the default */
} remote_opts;

/* Resolves region, endpoint and credentials (no request is sent). With an
 * endpoint and no region configured the region is us-east-1 (local
 * endpoints ignore it); without either, ST_USAGE naming where it looked.
 * A missing credential is ST_USAGE naming every place looked. */
status remote_open(const remote_opts *o, remote **out, diag *d);
void remote_close(remote *r);

/* A second connection like src (endpoint, region, the same credentials,
 * not fetched again), e.g. one per thread. Call it on src's thread. */
status remote_dup(const remote *src, remote **out, diag *d);

/* Same contract as store_call: op "Query" etc., input the JSON body; on
 * ST_OK *out the response body (malloc'd); on an error d has DynamoDB's
 * code and message and *out is NULL or the error's JSON object
 * (CancellationReasons, Item...). Thread-safety: one remote per thread. */
status remote_call(remote *r, const char *op, const char *input, size_t len, char **out,
                   diag *d);
/* remote_call with the remote as a void *: the send function
 * store_open_remote takes (data/store.h's store_send_fn). */
status remote_send(void *r, const char *op, const char *input, size_t len, char **out, diag *d);

/* A one-line description for titles/status: "http://127.0.0.1:4501
 * (us-east-1)"; never secrets. */
const char *remote_describe(const remote *r);

/* After remote_call failed: DynamoDB's error type ("ThrottlingException",
 * "NetworkError", ...), "" after a success. Valid until the next call. */
const char *remote_error_code(const remote *r);

/* After remote_call failed: the whole message without the type ("Requested
 * resource not found", "connection to HOST dropped: ..."). */
const char *remote_error_message(const remote *r);

/*
 * One line of `ddbx api` against the remote: {"Operation":"Query",
 * "Input":{...}} in, {"Output":{...}} or {"Error":{"Code":"...",
 * "Message":"...", extra members}} out (*out malloc'd, no newline), as
 * store_call_line does for the local store. Returns the status.
 */
status remote_call_line(remote *r, const char *line, size_t len, char **out);

/* Where the credentials came from ("environment (AWS_ACCESS_KEY_ID)",
 * "/home/u/.aws/credentials [dev]", ...): never the keys. */
const char *remote_creds_source(const remote *r);

/* When *flag becomes non-zero (from a signal handler or another thread),
 * the transfer in progress and any backoff sleep stop at once and
 * remote_call fails with ST_IO "interrupted" (type "Cancelled"). NULL: no
 * cancellation. */
void remote_set_cancel(remote *r, const volatile sig_atomic_t *flag);

/* The region in use. */
const char *remote_region(const remote *r);

/* The profile in effect ("default" when none was named). */
const char *remote_profile(const remote *r);

/* Who the credentials are, when their provider said (an assumed role's
 * ARN, "account A, role R" for IAM Identity Center); "" otherwise. */
const char *remote_identity(const remote *r);

/* The credentials in use (for creds_caller_identity); never print them. */
struct creds;
const struct creds *remote_creds(const remote *r);

typedef struct remote_stats {
    unsigned long calls;     /* remote_call invocations */
    unsigned long attempts;  /* HTTP attempts, retries included */
    unsigned long retries;   /* attempts after the first */
} remote_stats;

/* Counters since remote_open (for progress lines and tests). */
void remote_get_stats(const remote *r, remote_stats *st);
/* The attempt of the call under way (1 the first, 2 its first retry; 0
 * before any): may be read from another thread while remote_call runs. */
int remote_attempt(const remote *r);
/* The attempts a call makes at most (retries included). */
int remote_max_attempts(const remote *r);

/*
 * One HTTP request outside DynamoDB's protocol, for the credential
 * providers (data/creds_net.c: STS, the SSO portal, the container
 * endpoint, IMDS), so that libcurl stays in this file. ST_OK with *http
 * the status and the body in resp (also for 4xx/5xx; at most 1 MB); ST_IO
 * "cannot connect to / timed out talking to WHAT (HOST): ..." when no
 * answer came. Messages name the host only, never a header, body or query.
 */
typedef struct remote_http {
    const char *method;           /* "GET", "PUT", "POST" */
    const char *url;
    const char *const *headers;   /* "Name: value" lines, NULL-ended; may be NULL */
    const char *body;             /* NULL: none */
    size_t body_len;
    long timeout_ms;              /* the whole request, and the connect bound; 0: 10 s */
    const char *ca_bundle;        /* NULL: the system's CAs */
    const char *what;             /* "STS", "the container credentials endpoint", ... */
    int direct;                   /* never through a proxy from the environment */
} remote_http;
status remote_http_do(const remote_http *q, long *http, buf *resp, diag *d);

/* host[:port] (the port only when not the scheme's default) and path ("/"
 * when empty) of url, as curl will send them; both malloc'd. ST_USAGE
 * when it is not a URL. */
status remote_url_split(const char *url, char **hostport, char **path, diag *d);

/* 1 when an AWS error code (a response's __type or <Code>) is one of
 * codes, a NULL-ended list (the retryable ones, STS's configuration
 * errors); else 0. */
int remote_code_in(const char *code, const char *const *codes);

/* The delay before retry number `retry` (1 for the first retry) in
 * milliseconds given a uniform random u in [0, 1): the full-jitter rule
 * above. Exposed for tests. */
long remote_backoff_ms(int retry, double u);

#endif
