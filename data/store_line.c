/*
 * store_line — the `ddbx api` line protocol around any call that keeps
 * store_call's contract (a remote store's transport, remote_call).
 * store_call_line for the local store parses the line the same way but
 * hands the parsed Input straight to the operation; this one re-prints
 * it as text, which is what a transport sends anyway.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

status store_send_line(store_send_fn call, void *ctx, store_error_fn error,
                       const char *line, size_t len, char **out)
{
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    status st;
    char *body = NULL, *input = NULL;
    const char *code = NULL, *msg = NULL;
    cJSON *req = NULL;
    diag pd;
    diag_init(&pd);
    ddbjson_cjson_parse(line, len, &req, &pd);
    const cJSON *opv = req ? cJSON_GetObjectItemCaseSensitive(req, "Operation") : NULL;
    const cJSON *inv = req ? cJSON_GetObjectItemCaseSensitive(req, "Input") : NULL;
    if (!req || !cJSON_IsObject(req)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: %s",
                      req ? "not a JSON object" : pd.msg);
    } else if (!cJSON_IsString(opv)) {
        st = diag_set(&d, ST_SERIALIZATION,
                      "Malformed request line: \"Operation\" must be a string");
    } else if (inv && !cJSON_IsNull(inv) && !cJSON_IsObject(inv)) {
        st = diag_set(&d, ST_SERIALIZATION,
                      "Malformed request line: \"Input\" must be an object");
    } else {
        input = inv && !cJSON_IsNull(inv) ? cJSON_PrintUnformatted(inv) : xstrdup("{}");
        st = call(ctx, opv->valuestring, input, strlen(input), &body, &d);
        if (st != ST_OK && error)
            error(ctx, &code, &msg);
    }
    if (st == ST_OK) {
        buf_adds(&b, "{\"Output\":");
        buf_adds(&b, body);
        buf_addc(&b, '}');
    } else {
        if (!code)
            code = status_name(st);
        if (!msg)
            msg = d.msg;
        buf_adds(&b, "{\"Error\":{\"Code\":");
        ddbjson_write_string(&b, code, strlen(code));
        buf_adds(&b, ",\"Message\":");
        ddbjson_write_string(&b, msg, strlen(msg));
        /* The error's own members (CancellationReasons, Item) follow. */
        if (body && *body == '{' && body[1] != '}') {
            buf_addc(&b, ',');
            buf_add(&b, body + 1, strlen(body) - 2);
        }
        buf_adds(&b, "}}");
    }
    free(body);
    free(input);
    cJSON_Delete(req);
    *out = buf_steal(&b);
    return st;
}
