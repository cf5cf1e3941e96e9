/*
 * store_line — the `ddbx api` line protocol, once: reading a request
 * line (store_line_parse) and writing the answer line (store_line_answer),
 * for store_call_line on the local store, which hands the parsed Input
 * straight to the operation, and for store_send_line around any call that
 * keeps store_call's contract (a remote store's transport, remote_call),
 * which re-prints it as text, what a transport sends anyway.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* Reads {"Operation":"...","Input":{...}}: *req the parsed line (the
 * caller's, cJSON_Delete, set even on failure), *op and *input borrowed
 * from it (*input NULL when absent or null). SerializationException with
 * DynamoDB-style wording for a malformed line. */
static status store_line_parse(const char *line, size_t len, cJSON **req, const char **op,
                               const cJSON **input, diag *d)
{
    diag pd;
    diag_init(&pd);
    *req = NULL;
    *op = NULL;
    *input = NULL;
    ddbjson_cjson_parse(line, len, req, &pd);
    const cJSON *opv = *req ? cJSON_GetObjectItemCaseSensitive(*req, "Operation") : NULL;
    const cJSON *inv = *req ? cJSON_GetObjectItemCaseSensitive(*req, "Input") : NULL;
    if (!*req || !cJSON_IsObject(*req))
        return diag_set(d, ST_SERIALIZATION, "Malformed request line: %s",
                        *req ? "not a JSON object" : pd.msg);
    if (!cJSON_IsString(opv))
        return diag_set(d, ST_SERIALIZATION, "Malformed request line: \"Operation\" must be a string");
    if (inv && !cJSON_IsNull(inv) && !cJSON_IsObject(inv))
        return diag_set(d, ST_SERIALIZATION, "Malformed request line: \"Input\" must be an object");
    *op = opv->valuestring;
    *input = inv && !cJSON_IsNull(inv) ? inv : NULL;
    return ST_OK;
}

void store_line_answer(buf *b, status st, const char *body, const char *code, const char *msg,
                       size_t msg_len)
{
    if (st == ST_OK) {
        buf_adds(b, "{\"Output\":");
        buf_adds(b, body ? body : "{}");
        buf_addc(b, '}');
        return;
    }
    buf_adds(b, "{\"Error\":{\"Code\":");
    ddbjson_write_string(b, code, strlen(code));
    buf_adds(b, ",\"Message\":");
    ddbjson_write_string(b, msg, msg_len);
    /* The error's own members (CancellationReasons, Item) follow. */
    if (body && *body == '{' && body[1] != '}') {
        buf_addc(b, ',');
        buf_add(b, body + 1, strlen(body) - 2);
    }
    buf_adds(b, "}}");
}

status store_line_run(store *s, const char *line, size_t len, store_line_fn run, char **out)
{
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    char *body = NULL;
    const char *op;
    cJSON *req;
    const cJSON *inv;
    buf_reset(&s->err_msg);
    status st = store_line_parse(line, len, &req, &op, &inv, &d);
    if (st == ST_OK) {
        /* The line is parsed once: its Input goes to the operation. */
        cJSON *in = inv ? cJSON_DetachItemViaPointer(req, (cJSON *)inv) : cJSON_CreateObject();
        st = run(s, op, in, &body, &d);
        cJSON_Delete(in);
    }
    bool whole = s->err_msg.len && st == ST_VALIDATION;
    store_line_answer(&b, st, body, status_name(st), whole ? s->err_msg.data : d.msg,
                      whole ? s->err_msg.len : strlen(d.msg));
    free(body);
    cJSON_Delete(req);
    *out = buf_steal(&b);
    return st;
}

status store_send_line(store_send_fn call, void *ctx, store_error_fn error,
                       const char *line, size_t len, char **out)
{
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    char *body = NULL, *input = NULL;
    const char *code = NULL, *msg = NULL, *op;
    cJSON *req;
    const cJSON *inv;
    status st = store_line_parse(line, len, &req, &op, &inv, &d);
    if (st == ST_OK) {
        input = inv ? cJSON_PrintUnformatted(inv) : xstrdup("{}");
        st = call(ctx, op, input, strlen(input), &body, &d);
        if (st != ST_OK && error)
            error(ctx, &code, &msg);
    }
    if (!code)
        code = status_name(st);
    if (!msg)
        msg = d.msg;
    store_line_answer(&b, st, body, code, msg, strlen(msg));
    free(body);
    free(input);
    cJSON_Delete(req);
    *out = buf_steal(&b);
    return st;
}
