/*
 * serve — the DynamoDB JSON 1.0 wire protocol around store_call, for
 * `ddbx serve`: an X-Amz-Target and a request body in, the HTTP status,
 * response body and its CRC32 out. No sockets here: ui/cli_serve.c owns
 * the HTTP server (ui/httpd.c) and calls serve_handle for each POST,
 * one call at a time per store handle (a store is not thread-safe).
 *
 * Errors keep DynamoDB's shapes: 400 with
 * {"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
 *  "message":"..."} (plus extras such as CancellationReasons or Item);
 * ValidationException, SerializationException and UnknownOperationException
 * carry Coral's prefixes as DynamoDB's do (a body that is not JSON: a
 * SerializationException with no message, before the target is looked
 * at, as DynamoDB answers it); a store failure is 500 InternalServerError. The reply's body is the caller's (free with
 * serve_reply_free).
 */
#ifndef DDBX_SERVE_H
#define DDBX_SERVE_H

#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/status.h"

/* The X-Amz-Target prefix of every DynamoDB operation. */
#define SERVE_TARGET_PREFIX "DynamoDB_20120810."
/* ... and of every DynamoDB Streams operation, on the same endpoint. */
#define SERVE_STREAMS_PREFIX "DynamoDBStreams_20120810."

typedef struct serve_reply {
    unsigned http_status;   /* 200, 400 or 500 */
    char *body;             /* JSON, malloc'd, NUL-terminated */
    size_t len;
    uint32_t crc32;         /* of body[0..len), for the x-amz-crc32 header */
} serve_reply;

/*
 * One request: target is the X-Amz-Target header's value (NULL when
 * absent), body[0..len) the request body. Fills r; returns the status the
 * store (or the protocol check) ended with.
 */
status serve_handle(store *s, const char *target, const char *body, size_t len,
                    serve_reply *r);

/* An error reply without a store (a request the server refused before
 * reading it, e.g. too large): code and message as DynamoDB writes them. */
void serve_error_reply(status code, const char *message, serve_reply *r);

/* A 400 refusal by the endpoint before any store is asked (a credential
 * refused, a database that cannot be named): {"__type":type,"message":
 * message}, type written whole ("com.amazon.coral.service#
 * UnrecognizedClientException"). */
void serve_refusal_reply(const char *type, const char *message, serve_reply *r);

void serve_reply_free(serve_reply *r);

/* The CRC-32 (IEEE 802.3, as zlib's crc32) of p[0..n). */
uint32_t serve_crc32(const void *p, size_t n);

/* HTTP status and the __type of an error code ("com.amazon.coral.validate#
 * ValidationException"). */
unsigned serve_http_status(status code);
const char *serve_error_type(status code, char *tmp, size_t tmplen);

#endif
