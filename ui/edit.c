#include "ui/edit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/num.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/jscan.h"

status edit_parse_key(const table_def *def, const index_def *ix, bool partition,
                      const char *text, av *out, diag *d)
{
    const key_attr *k = ix ? (partition ? &ix->pk : &ix->sk) : (partition ? &def->pk : &def->sk);
    size_t len = strlen(text);
    if (!k->name)
        return diag_set(d, ST_VALIDATION, "the table has no sort key");
    if (k->type == AV_N) {
        num n;
        status st = num_parse(text, len, &n, d);
        if (st != ST_OK)
            return st;
        av_init_n(out, &n);
        return ST_OK;
    }
    if (k->type == AV_B) {
        /* Binary keys are typed as DynamoDB JSON: {"B":"base64"}. */
        char *j = xmalloc(len + 16);
        snprintf(j, len + 16, "{\"B\":\"%s\"}", text);
        status st = ddbjson_parse_value(j, strlen(j), out, d);
        free(j);
        return st;
    }
    av_init_s(out, text, len);
    return ST_OK;
}

static void json_str(buf *out, const char *s)
{
    ddbjson_write_string(out, s, strlen(s));
}

void edit_json_key(buf *out, const table_def *def, const av *item)
{
    const char *names[2] = { def->pk.name, def->sk.name };
    buf_addc(out, '{');
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        const av *v = av_map_get(item, names[i], strlen(names[i]));
        if (!v)
            continue;
        if (i && out->data[out->len - 1] != '{')
            buf_addc(out, ',');
        json_str(out, names[i]);
        buf_addc(out, ':');
        ddbjson_write_value(out, v);
    }
    buf_addc(out, '}');
}

/* Writes on a remote store without --write are refused before any
 * editing starts (the store would refuse them anyway). */
static bool can_write(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    if (info.remote && !info.writable) {
        display_error("%s is read-only: start ddbx with --write to write", info.where);
        return false;
    }
    return true;
}

/* Asks before a write on a local store; a remote store asks itself (its
 * write gate names the operation, table and key), once. */
static bool confirm_write(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static bool confirm_write(const char *fmt, ...)
{
    store_info info;
    store_get_info(display_store(), &info);
    if (info.remote)
        return true;
    char q[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q, sizeof q, fmt, ap);
    va_end(ap);
    return display_confirm("%s", q);
}

/* Runs one operation; on failure shows the store's error. The response
 * (malloc'd) goes to *resp when asked for. */
static bool call(const char *op, const buf *req, char **resp)
{
    diag d;
    char *out = NULL;
    diag_init(&d);
    status st = store_call(display_store(), op, req->data, req->len, &out, &d);
    if (st != ST_OK) {
        display_error("%s: %s", status_name(st), d.msg);
        free(out);
        return false;
    }
    if (resp)
        *resp = out;
    else
        free(out);
    return true;
}

bool edit_get_item(const char *table, const table_def *def, const av *keys, av *out)
{
    buf req = BUF_INIT;
    char *resp = NULL;
    bool ok = false;
    buf_adds(&req, "{\"TableName\":");
    json_str(&req, table);
    buf_adds(&req, ",\"ConsistentRead\":true,\"Key\":");
    edit_json_key(&req, def, keys);
    buf_addc(&req, '}');
    if (call("GetItem", &req, &resp)) {
        const char *v;
        size_t vl;
        diag d;
        diag_init(&d);
        if (!jscan_member(resp, strlen(resp), "Item", &v, &vl))
            display_error("The item is gone (deleted meanwhile?)");
        else if (ddbjson_parse_item(v, vl, out, &d) != ST_OK)
            display_error("%s", d.msg);
        else
            ok = true;
    }
    free(resp);
    buf_done(&req);
    return ok;
}

/* PutItem of item, conditioned on the key existing (replace) or not. */
static bool put(const char *table, const table_def *def, const av *item, bool must_exist)
{
    buf req = BUF_INIT;
    buf_adds(&req, "{\"TableName\":");
    json_str(&req, table);
    buf_adds(&req, ",\"Item\":");
    ddbjson_write_item(&req, item);
    buf_printf(&req, ",\"ConditionExpression\":\"%s(#k)\",\"ExpressionAttributeNames\":{\"#k\":",
               must_exist ? "attribute_exists" : "attribute_not_exists");
    json_str(&req, def->pk.name);
    buf_adds(&req, "}}");
    bool ok = call("PutItem", &req, NULL);
    buf_done(&req);
    return ok;
}

static bool same_key(const table_def *def, const av *a, const av *b)
{
    const char *names[2] = { def->pk.name, def->sk.name };
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        const av *x = av_map_get(a, names[i], strlen(names[i]));
        const av *y = av_map_get(b, names[i], strlen(names[i]));
        if (!x || !y || !av_equal(x, y))
            return false;
    }
    return true;
}

/* Lets the user edit item JSON until it parses or they give up. */
static bool edit_json(buf *text, av *out)
{
    for (;;) {
        if (!display_edit(text, ".json"))
            return false;
        diag d;
        diag_init(&d);
        if (ddbjson_parse_item(text->data ? text->data : "", text->len, out, &d) == ST_OK)
            return true;
        if (!display_confirm("%s%s%s. Edit again?", d.msg, d.path[0] ? " at " : "", d.path)) {
            display_error("Not written: %s%s%s", d.msg, d.path[0] ? " at " : "", d.path);
            return false;
        }
    }
}

bool edit_new_item(const char *table, const table_def *def, const av *pk)
{
    buf t = BUF_INIT, key = BUF_INIT;
    av item = { 0 };
    bool ok = false;
    if (!can_write())
        goto out;
    buf_adds(&t, "{\n  ");
    json_str(&t, def->pk.name);
    buf_adds(&t, ": ");
    if (pk)
        ddbjson_write_value(&t, pk);
    else
        buf_printf(&t, "{\"%s\": \"\"}", av_type_name(def->pk.type));
    if (def->sk.name) {
        buf_adds(&t, ",\n  ");
        json_str(&t, def->sk.name);
        buf_printf(&t, ": {\"%s\": \"\"}", av_type_name(def->sk.type));
    }
    buf_adds(&t, "\n}\n");
    if (!edit_json(&t, &item))
        goto out;
    if (put(table, def, &item, false)) {
        fmt_key(&key, &item, def->pk.name, def->sk.name);
        display_message("Created %s", key.data);
        ok = true;
    }
out:
    av_free(&item);
    buf_done(&t);
    buf_done(&key);
    return ok;
}

bool edit_item(const char *table, const table_def *def, const av *item, bool projected)
{
    av cur = { 0 }, edited = { 0 };
    buf t = BUF_INIT, compact = BUF_INIT, key = BUF_INIT;
    bool ok = false;
    /* Always edit the item as stored now (an index shows a projection). */
    (void)projected;
    if (!can_write() || !edit_get_item(table, def, item, &cur))
        goto out;
    ddbjson_write_item(&compact, &cur);
    fmt_json_pretty(&t, compact.data, compact.len);
    buf_addc(&t, '\n');
    if (!edit_json(&t, &edited))
        goto out;
    if (av_equal(&cur, &edited)) {
        display_message("No change");
        goto out;
    }
    fmt_key(&key, &edited, def->pk.name, def->sk.name);
    if (same_key(def, &cur, &edited)) {
        if (confirm_write("Replace item %s?", key.data) && put(table, def, &edited, true)) {
            display_message("Replaced %s", key.data);
            ok = true;
        }
    } else if (confirm_write("The key changed: create %s (the old item stays)?", key.data) &&
               put(table, def, &edited, false)) {
        display_message("Created %s", key.data);
        ok = true;
    }
out:
    av_free(&cur);
    av_free(&edited);
    buf_done(&t);
    buf_done(&compact);
    buf_done(&key);
    return ok;
}

bool edit_set_attr(const char *table, const table_def *def, const av *item, const char *name)
{
    buf init = BUF_INIT, in = BUF_INIT, req = BUF_INIT, key = BUF_INIT, label = BUF_INIT;
    av val = { 0 };
    bool ok = false;
    if (!can_write())
        goto out;
    if (table_def_is_key(def, NULL, name) ) {
        display_error("%s is a key attribute: edit the item (e) to copy it under a new key", name);
        goto out;
    }
    const av *cur = av_map_get(item, name, strlen(name));
    if (cur)
        ddbjson_write_value(&init, cur);
    buf_printf(&label, "SET %s = ", name);
    if (!display_prompt(label.data, init.data ? init.data : "{\"S\":\"\"}", &in))
        goto out;
    fmt_key(&key, item, def->pk.name, def->sk.name);
    buf_adds(&req, "{\"TableName\":");
    json_str(&req, table);
    buf_adds(&req, ",\"Key\":");
    edit_json_key(&req, def, item);
    if (in.len == 0) {
        if (!confirm_write("Remove %s from %s?", name, key.data))
            goto out;
        buf_adds(&req, ",\"UpdateExpression\":\"REMOVE #a\"");
    } else {
        diag d;
        diag_init(&d);
        if (ddbjson_parse_value(in.data, in.len, &val, &d) != ST_OK) {
            display_error("%s (type a DynamoDB JSON value such as {\"S\":\"text\"} or {\"N\":\"5\"})", d.msg);
            goto out;
        }
        buf_adds(&req, ",\"UpdateExpression\":\"SET #a = :v\",\"ExpressionAttributeValues\":{\":v\":");
        ddbjson_write_value(&req, &val);
        buf_addc(&req, '}');
    }
    buf_adds(&req, ",\"ConditionExpression\":\"attribute_exists(#k)\",\"ExpressionAttributeNames\":{\"#a\":");
    json_str(&req, name);
    buf_adds(&req, ",\"#k\":");
    json_str(&req, def->pk.name);
    buf_adds(&req, "}}");
    if (call("UpdateItem", &req, NULL)) {
        display_message("%s %s on %s", in.len ? "Set" : "Removed", name, key.data);
        ok = true;
    }
out:
    av_free(&val);
    buf_done(&init);
    buf_done(&in);
    buf_done(&req);
    buf_done(&key);
    buf_done(&label);
    return ok;
}

bool edit_delete_item(const char *table, const table_def *def, const av *item)
{
    buf req = BUF_INIT, key = BUF_INIT;
    bool ok = false;
    fmt_key(&key, item, def->pk.name, def->sk.name);
    if (!can_write() || !confirm_write("Delete item %s?", key.data))
        goto out;
    buf_adds(&req, "{\"TableName\":");
    json_str(&req, table);
    buf_adds(&req, ",\"Key\":");
    edit_json_key(&req, def, item);
    buf_adds(&req, ",\"ConditionExpression\":\"attribute_exists(#k)\",\"ExpressionAttributeNames\":{\"#k\":");
    json_str(&req, def->pk.name);
    buf_adds(&req, "}}");
    if (call("DeleteItem", &req, NULL)) {
        display_message("Deleted %s", key.data);
        ok = true;
    }
out:
    buf_done(&req);
    buf_done(&key);
    return ok;
}
