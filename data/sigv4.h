/*
 * sigv4 — AWS Signature Version 4 (AWS4-HMAC-SHA256), the request signing
 * every DynamoDB call carries. Pure computation over its inputs (OpenSSL's
 * libcrypto for SHA-256 and HMAC-SHA256, loaded at the first use:
 * data/dynlib.h); no clock, no I/O.
 *
 * The steps are AWS's: canonical request (method, URI, sorted query,
 * lower-cased sorted headers with trimmed values, signed header list,
 * payload hash) -> string to sign (algorithm, date, scope, hash of the
 * canonical request) -> signing key (HMAC chain "AWS4"+secret, date,
 * region, service, "aws4_request") -> signature -> Authorization header.
 * Each stage is kept in the result so tests can compare it with AWS's
 * published examples.
 *
 * Ownership: the input's strings are the caller's and only read. The
 * result's strings are malloc'd and freed by sigv4_result_free. The result
 * holds the derived signing key, never the secret; callers must still not
 * print the Authorization value's inputs (the secret stays in creds).
 */
#ifndef DDBX_SIGV4_H
#define DDBX_SIGV4_H

#include <stddef.h>

#include "model/status.h"

typedef struct sigv4_header {
    const char *name;    /* any case; signed lower-cased */
    const char *value;   /* trimmed, inner runs of spaces collapsed */
} sigv4_header;

typedef struct sigv4_input {
    const char *method;          /* "POST" */
    const char *path;            /* the URI path as sent, e.g. "/" */
    const char *query;           /* raw query without '?', or NULL/"" */
    const sigv4_header *headers; /* every header to sign (host, x-amz-date, ...) */
    size_t nheaders;
    const void *payload;         /* the body; may be NULL when payload_len is 0 */
    size_t payload_len;
    const char *amz_date;        /* "20150830T123600Z" */
    const char *region;          /* "us-east-1" */
    const char *service;         /* "dynamodb" */
    const char *access_key;
    const char *secret_key;
} sigv4_input;

typedef struct sigv4_result {
    char *canonical_request;
    char *string_to_sign;
    char *signed_headers;        /* "content-type;host;x-amz-date" */
    char *authorization;         /* the Authorization header's value */
    char payload_hash[65];       /* hex SHA-256 of the payload */
    char signing_key[65];        /* hex of the derived key (tests only) */
    char signature[65];
} sigv4_result;

/* Signs; on ST_OK fills *out (free with sigv4_result_free). A malformed
 * input (missing field, amz_date not YYYYMMDDTHHMMSSZ) is ST_USAGE. */
status sigv4_sign(const sigv4_input *in, sigv4_result *out, diag *d);
void sigv4_result_free(sigv4_result *r);

/* Lower-case hex SHA-256 of p[0..n) into out (65 bytes with the NUL). */
void sigv4_sha256_hex(const void *p, size_t n, char out[65]);
/* Lower-case hex SHA-1 of p[0..n) (not for signing: the AWS CLI names
 * its cache files so, and data/creds reads and writes them). */
void sigv4_sha1_hex(const void *p, size_t n, char out[41]);

/* HMAC-SHA256 of msg[0..n) under key[0..keylen) into out (the signing
 * chain's step; `ddbx pull --mask` hashes values with it, data/mask_file.c).
 * Thread-safe. */
void sigv4_hmac_sha256(const void *key, size_t keylen, const void *msg, size_t n,
                       unsigned char out[32]);

/* The same MAC under one key, many times (`ddbx serve --record` hashes
 * every value it records, data/record.c): the key's padded blocks are
 * absorbed once, so a MAC costs two SHA-256 of the message's size
 * instead of HMAC()'s set-up each call. One sigv4_mac is for one thread
 * at a time (its working state is reused). */
typedef struct sigv4_mac sigv4_mac;
sigv4_mac *sigv4_mac_new(const void *key, size_t keylen);
void sigv4_mac_run(sigv4_mac *m, const void *msg, size_t n, unsigned char out[32]);
void sigv4_mac_free(sigv4_mac *m);

/* "20150830T123600Z" for a time in seconds since the epoch (UTC). */
void sigv4_amz_date(long long epoch, char out[17]);

#endif
