/*
 * serve — status codes to HTTP, error bodies in DynamoDB's shape, CRC32.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "data/serve.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* zlib's crc32 (the same CRC-32, IEEE 802.3): several bytes a step,
 * where a byte-at-a-time table cost about 70 µs for a 45 KB Query
 * answer, a fifth of the server's CPU for it. */
uint32_t serve_crc32(const void *p, size_t n)
{
    uLong crc = crc32(0L, Z_NULL, 0);
    const Bytef *b = p;
    /* crc32 takes a uInt length: feed a huge body in pieces. */
    while (n > 0) {
        uInt k = n > (1u << 30) ? (1u << 30) : (uInt)n;
        crc = crc32(crc, b, k);
        b += k;
        n -= k;
    }
    return (uint32_t)crc;
}

/* The errors that are DynamoDB's own types (400, named
 * com.amazonaws.dynamodb.v20120810#Type). */
static bool dynamodb_error(status code)
{
    switch (code) {
    case ST_CONDITION_FAILED:
    case ST_NOT_FOUND:
    case ST_IN_USE:
    case ST_TXN_CANCELED:
    case ST_TXN_CONFLICT:
    case ST_EXPIRED_ITERATOR:
    case ST_TRIMMED:
    case ST_DUPLICATE_ITEM:
    case ST_IDEMPOTENT_MISMATCH:
    case ST_LIMIT_EXCEEDED:
    case ST_BACKUP_NOT_FOUND:
    case ST_BACKUP_IN_USE:
    case ST_TABLE_EXISTS:
    case ST_TABLE_NOT_FOUND:
    case ST_PITR_UNAVAILABLE:
    case ST_INVALID_RESTORE_TIME:
    case ST_COLLECTION_LIMIT:
    case ST_POLICY_NOT_FOUND:
        return true;
    default:
        return false;
    }
}

unsigned serve_http_status(status code)
{
    if (dynamodb_error(code))
        return 400;
    switch (code) {
    case ST_OK:
        return 200;
    case ST_VALIDATION:
    case ST_PARSE:
    case ST_USAGE:
    case ST_SERIALIZATION:
    case ST_UNKNOWN_OPERATION:
    case ST_READ_ONLY:
        return 400;
    default:
        return 500;
    }
}

const char *serve_error_type(status code, char *tmp, size_t tmplen)
{
    switch (code) {
    case ST_VALIDATION:
    case ST_PARSE:
    case ST_USAGE:
        return "com.amazon.coral.validate#ValidationException";
    case ST_SERIALIZATION:
        return "com.amazon.coral.service#SerializationException";
    case ST_UNKNOWN_OPERATION:
        return "com.amazon.coral.service#UnknownOperationException";
    case ST_READ_ONLY:
        /* `ddbx serve --read-only`: DynamoDB's answer to a write the
         * caller may not make (400, not retried). */
        return "com.amazon.coral.service#AccessDeniedException";
    default:
        if (dynamodb_error(code)) {
            snprintf(tmp, tmplen, "com.amazonaws.dynamodb.v20120810#%s", status_name(code));
            return tmp;
        }
        /* The store's own failures (I/O, busy): the client
         * sees DynamoDB's 500, which the SDKs retry. */
        return "com.amazonaws.dynamodb.v20120810#InternalServerError";
    }
}

/* {"__type":type, key:message, extras} with the HTTP status http —
 * extra is NULL or a JSON object whose members go beside the message;
 * message NULL: none. */
static void typed_body(const char *type, const char *key, const char *message, const char *extra, unsigned http,
                       serve_reply *r)
{
    buf b = BUF_INIT;
    buf_adds(&b, "{\"__type\":");
    ddbjson_write_string(&b, type, strlen(type));
    if (message) {
        buf_printf(&b, ",\"%s\":", key);
        ddbjson_write_string(&b, message, strlen(message));
    }
    size_t elen = extra ? strlen(extra) : 0;
    if (elen > 2 && extra[0] == '{' && extra[elen - 1] == '}') {
        buf_addc(&b, ',');
        buf_add(&b, extra + 1, elen - 2);
    }
    buf_addc(&b, '}');
    r->http_status = http;
    r->len = b.len;
    r->body = buf_steal(&b);
    r->crc32 = serve_crc32(r->body, r->len);
}

/* The store's error code's body. DynamoDB writes "Message" for a
 * cancelled transaction, "message" elsewhere; the SDKs read either. */
static void error_body(status code, const char *message, const char *extra, serve_reply *r)
{
    char tmp[128];
    typed_body(serve_error_type(code, tmp, sizeof tmp), code == ST_TXN_CANCELED ? "Message" : "message", message,
               extra, serve_http_status(code), r);
}

void serve_error_reply(status code, const char *message, serve_reply *r)
{
    assert(code != ST_OK);
    error_body(code, message, NULL, r);
}

void serve_refusal_reply(const char *type, const char *message, serve_reply *r)
{
    typed_body(type, "message", message, NULL, 400, r);
}

/* Is body[0..len) JSON text (any value)? */
static bool is_json(const char *body, size_t len)
{
    cJSON *root = NULL;
    diag d;
    diag_init(&d);
    bool ok = ddbjson_cjson_parse(body, len, &root, &d) == ST_OK;
    cJSON_Delete(root);
    return ok;
}

/* A body that is not JSON: DynamoDB's SerializationException, which has no
 * message (its answers as dynalite's tests and SDK issues quote them:
 * tests/data/test_serve.c); where the text breaks is the store's diag's,
 * for its C callers. */
static status not_json(serve_reply *r)
{
    error_body(ST_SERIALIZATION, NULL, NULL, r);
    return ST_SERIALIZATION;
}

status serve_handle(store *s, const char *target, const char *body, size_t len,
                    serve_reply *r)
{
    memset(r, 0, sizeof *r);
    size_t plen = strlen(SERVE_TARGET_PREFIX), slen = strlen(SERVE_STREAMS_PREFIX);
    /* DynamoDB Streams answers on the same endpoint, under its own
     * protocol name: each operation under its own prefix only. */
    bool streams = target && strncmp(target, SERVE_STREAMS_PREFIX, slen) == 0;
    if (streams)
        plen = slen;
    if (!target || (!streams && strncmp(target, SERVE_TARGET_PREFIX, plen) != 0) || !target[plen] ||
        streams != store_is_streams_op(target + plen)) {
        /* DynamoDB reads a body before it looks at the target. */
        if (len && !is_json(body, len))
            return not_json(r);
        /* DynamoDB answers a missing or foreign target this way. */
        error_body(ST_UNKNOWN_OPERATION, target ? "Unknown X-Amz-Target" : "Missing X-Amz-Target",
                   NULL, r);
        return ST_UNKNOWN_OPERATION;
    }
    const char *op = target + plen;
    diag d;
    diag_init(&d);
    char *out = NULL;
    status st = store_call(s, op, body, len, &out, &d);
    if (st == ST_OK) {
        assert(out);
        r->http_status = 200;
        /* TagResource and UntagResource: "an HTTP 200 response with an
         * empty HTTP body" (API reference); `ddbx api` still answers {}. */
        if (strcmp(op, "TagResource") == 0 || strcmp(op, "UntagResource") == 0)
            out[0] = '\0';
        r->len = strlen(out);
        r->body = out;
        r->crc32 = serve_crc32(out, r->len);
        return st;
    }
    if (st == ST_SERIALIZATION && !is_json(body, len)) {
        free(out);
        return not_json(r);
    }
    error_body(st, store_error_message(s, st, &d), out, r);
    free(out);
    return st;
}

void serve_reply_free(serve_reply *r)
{
    free(r->body);
    r->body = NULL;
    r->len = 0;
}
