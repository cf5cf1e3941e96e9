#include "ui/edit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/store.h"
#include "model/base64.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/num.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/staging.h"

status edit_parse_key(const table_def *def, const index_def *ix, bool partition,
                      const char *text, av *out, diag *d)
{
    return edit_parse_key_attr(ix ? (partition ? &ix->pk : &ix->sk) : (partition ? &def->pk : &def->sk),
                               text, out, d);
}

status edit_parse_key_attr(const key_attr *k, const char *text, av *out, diag *d)
{
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
        /* Binary keys are typed as base64, decoded as strictly as
         * DynamoDB decodes a B value (and with its messages). */
        buf bytes = BUF_INIT;
        base64_result r = base64_decode(&bytes, text, len);
        if (r == BASE64_OK)
            av_init_b(out, bytes.data ? bytes.data : "", bytes.len);
        buf_done(&bytes);
        if (r == BASE64_BAD_LENGTH)
            return diag_set(d, ST_SERIALIZATION,
                            "Base64 encoded length is expected a multiple of 4 bytes but found: %zu", len);
        if (r != BASE64_OK)
            return diag_set(d, ST_SERIALIZATION, "Invalid last non-pad Base64 character dectected");
        return ST_OK;
    }
    av_init_s(out, text, len);
    return ST_OK;
}

void edit_key(const table_def *def, const av *item, av *out)
{
    const char *names[2] = { def->pk.name, def->sk.name };
    av_init_list(out, AV_M);
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        const av *v = av_map_get(item, names[i], strlen(names[i]));
        if (!v)
            continue;
        av c;
        av_copy(&c, v);
        av_map_put(out, names[i], strlen(names[i]), &c);
    }
}

/* Writes the store would refuse (a remote without --write, a database
 * opened --read-only) are refused before any editing starts, so nothing
 * typed is lost to the refusal. */
static bool can_write(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    if (info.writable)
        return true;
    if (info.remote)
        display_error("%s is read-only: start ddbx with --write to write", info.where);
    else
        display_error("The database is open read-only (--read-only): nothing can be written");
    return false;
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

/* Runs one request (and frees it); on failure shows the store's error
 * and, when why is given, puts its text there. The response goes to
 * *res when asked for (the caller's ddb_res_done). */
static bool call_why(ddb_req *req, ddb_res *res, buf *why)
{
    ddb_res own;
    ddb_err err;
    if (!res)
        res = &own;
    ddb_res_init(res);
    ddb_err_init(&err);
    status st = store_exec(display_store(), req, res, &err);
    if (st != ST_OK) {
        display_ddb_err(NULL, &err);
        if (why)
            display_ddb_err_text(why, NULL, &err);
    }
    if (res == &own || st != ST_OK)
        ddb_res_done(res);
    ddb_err_done(&err);
    ddb_req_done(req);
    return st == ST_OK;
}

static bool call(ddb_req *req, ddb_res *res)
{
    return call_why(req, res, NULL);
}

/* A request on table with the item's key; the condition, when given, on
 * the partition key attribute (#k), as every write here has one. */
static void keyed(ddb_req *r, ddb_kind kind, const char *table, const table_def *def, const av *item,
                  const char *cond)
{
    ddb_req_init(r, kind);
    ddb_req_set_str(&r->table, table);
    if (kind == DDB_PUT)
        av_copy(&r->item, item);
    else
        edit_key(def, item, &r->key);
    if (cond) {
        ddb_req_set_str(&r->cond, cond);
        av_init_list(&r->names, AV_M);
        av k;
        av_init_s(&k, def->pk.name, strlen(def->pk.name));
        av_map_put(&r->names, "#k", 2, &k);
    }
}

bool edit_read_item(const char *table, const table_def *def, const av *keys, av *out)
{
    ddb_req r;
    ddb_res res;
    out->type = AV_NONE;
    keyed(&r, DDB_GET, table, def, keys, NULL);
    r.consistent = true;
    if (!call(&r, &res))
        return false;
    if (res.found && res.item.type == AV_M)
        av_move(out, &res.item);
    ddb_res_done(&res);
    return true;
}

bool edit_get_item(const char *table, const table_def *def, const av *keys, av *out)
{
    if (!edit_read_item(table, def, keys, out))
        return false;
    if (out->type != AV_M)
        display_error("The item is gone (deleted meanwhile?)");
    return out->type == AV_M;
}

static bool edit_json(buf *text, av *out);

/* PutItem of item, conditioned on the key existing (replace) or not;
 * the refusal's text in *why when given. */
static bool put(const char *table, const table_def *def, const av *item, bool must_exist, buf *why)
{
    ddb_req r;
    keyed(&r, DDB_PUT, table, def, item, must_exist ? "attribute_exists(#k)" : "attribute_not_exists(#k)");
    return call_why(&r, NULL, why);
}

/* Creates item (its key must be free); refused, the user may edit the
 * text again (an existing key, a wrong type), so what was typed is not
 * lost. True when created; *item then holds what was written. */
static bool create_or_retry(const char *table, const table_def *def, buf *text, av *item)
{
    for (;;) {
        buf why = BUF_INIT, key = BUF_INIT;
        bool ok = put(table, def, item, false, &why);
        fmt_key(&key, item, def->pk.name, def->sk.name);
        bool exists = strstr(why.data ? why.data : "", "ConditionalCheckFailed") != NULL;
        bool again = !ok && (exists ? display_confirm("Not created: %s exists already. Edit again?", key.data)
                                    : display_confirm("Not created: %s. Edit again?", why.data));
        if (ok)
            display_message("Created %s", key.data);
        else if (!again && exists)
            display_error("Not created: %s exists already", key.data);
        else if (!again)
            display_error("Not created: %s", why.data);
        buf_done(&why);
        buf_done(&key);
        if (ok || !again)
            return ok;
        av_free(item);
        if (!edit_json(text, item))
            return false;
    }
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
            display_diag("Not written", d.code, &d);
            return false;
        }
    }
}

bool edit_new_item(const char *table, const table_def *def, const av *pk)
{
    buf t = BUF_INIT, key = BUF_INIT;
    av item = { 0 };
    bool ok = false;
    if (!staging_on() && !can_write())
        goto out;
    buf_adds(&t, "{\n  ");
    ddbjson_write_string(&t, def->pk.name, strlen(def->pk.name));
    buf_adds(&t, ": ");
    if (pk)
        ddbjson_write_value(&t, pk);
    else
        buf_printf(&t, "{\"%s\": \"\"}", av_type_name(def->pk.type));
    if (def->sk.name) {
        buf_adds(&t, ",\n  ");
        ddbjson_write_string(&t, def->sk.name, strlen(def->sk.name));
        buf_printf(&t, ": {\"%s\": \"\"}", av_type_name(def->sk.type));
    }
    buf_adds(&t, "\n}\n");
    if (!edit_json(&t, &item))
        goto out;
    if (staging_on()) {
        av none = { .type = AV_NONE };
        ok = staging_stage(table, def, &none, &item);
    } else {
        ok = create_or_retry(table, def, &t, &item);
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
    buf t = BUF_INIT, key = BUF_INIT;
    bool ok = false;
    /* Always edit the item as stored now (an index shows a projection). */
    (void)projected;
    if (staging_on() ? !staging_base(table, def, item, &cur)
                     : !can_write() || !edit_get_item(table, def, item, &cur))
        goto out;
    ddbjson_write_item_pretty(&t, &cur);
    buf_addc(&t, '\n');
    if (!edit_json(&t, &edited))
        goto out;
    if (av_equal(&cur, &edited)) {
        display_message("No change");
        goto out;
    }
    fmt_key(&key, &edited, def->pk.name, def->sk.name);
    if (staging_on()) {
        /* A new key is a new item; the old one stays, as below. */
        av none = { .type = AV_NONE };
        ok = staging_stage(table, def, table_def_same_item(def, &cur, &edited) ? &cur : &none, &edited);
    } else if (table_def_same_item(def, &cur, &edited)) {
        if (confirm_write("Replace item %s?", key.data) && put(table, def, &edited, true, NULL)) {
            display_message("Replaced %s", key.data);
            ok = true;
        }
    } else if (confirm_write("The key changed: create %s (the old item stays)?", key.data)) {
        ok = create_or_retry(table, def, &t, &edited);
    }
out:
    av_free(&cur);
    av_free(&edited);
    buf_done(&t);
    buf_done(&key);
    return ok;
}

/* UpdateItem of one attribute: SET to *val (moved into the request),
 * or REMOVE when val is NULL; the item must still exist. */
static bool update_attr(const char *table, const table_def *def, const av *item, const char *name,
                        av *val)
{
    buf key = BUF_INIT;
    fmt_key(&key, item, def->pk.name, def->sk.name);
    ddb_req r;
    keyed(&r, DDB_UPDATE, table, def, item, "attribute_exists(#k)");
    av a;
    av_init_s(&a, name, strlen(name));
    av_map_put(&r.names, "#a", 2, &a);
    if (!val) {
        ddb_req_set_str(&r.update, "REMOVE #a");
    } else {
        ddb_req_set_str(&r.update, "SET #a = :v");
        av_init_list(&r.values, AV_M);
        av_map_put(&r.values, ":v", 2, val);
        val->type = AV_NONE;
    }
    bool ok = call(&r, NULL);
    if (ok)
        display_message("%s %s on %s", val ? "Set" : "Removed", name, key.data);
    buf_done(&key);
    return ok;
}

bool edit_set_attr(const char *table, const table_def *def, const av *item, const char *name)
{
    buf init = BUF_INIT, in = BUF_INIT, key = BUF_INIT, label = BUF_INIT;
    av val = { 0 };
    bool ok = false;
    if (!staging_on() && !can_write())
        goto out;
    if (table_def_is_key(def, NULL, name) ) {
        display_error("%s is a key attribute: edit the item (e) to copy it under a new key", name);
        goto out;
    }
    const av *cur = av_map_get(item, name, strlen(name));
    if (cur)
        ddbjson_write_value(&init, cur);
    buf_printf(&label, "SET %s = ", name);
    if (!init.len)
        buf_adds(&init, "{\"S\":\"\"}");
    /* A value that does not parse is asked again, as typed, the reason
     * above it; nothing is written until one does. */
    for (;;) {
        if (!display_prompt(label.data, init.data, &in))
            goto out;
        display_message("%s", "");
        if (in.len == 0)
            break;
        diag d;
        diag_init(&d);
        if (ddbjson_parse_value(in.data, in.len, &val, &d) == ST_OK)
            break;
        display_diag("Not a value (type DynamoDB JSON such as {\"S\":\"text\"} or {\"N\":\"5\"})",
                     d.code, &d);
        buf_reset(&init);
        buf_add(&init, in.data, in.len);
    }
    if (staging_on()) {
        ok = staging_set_attr(table, def, item, name, in.len ? &val : NULL);
        goto out;
    }
    fmt_key(&key, item, def->pk.name, def->sk.name);
    if (in.len == 0 && !confirm_write("Remove %s from %s?", name, key.data))
        goto out;
    ok = update_attr(table, def, item, name, in.len ? &val : NULL);
out:
    av_free(&val);
    buf_done(&init);
    buf_done(&in);
    buf_done(&key);
    buf_done(&label);
    return ok;
}

bool edit_remove_attr(const char *table, const table_def *def, const av *item, const char *name)
{
    buf key = BUF_INIT;
    bool ok = false;
    if (!staging_on() && !can_write())
        goto out;
    if (table_def_is_key(def, NULL, name)) {
        display_error("%s is a key attribute: it cannot be removed (d on the item's key line deletes the item)",
                      name);
        goto out;
    }
    if (staging_on()) {
        ok = staging_set_attr(table, def, item, name, NULL);
        goto out;
    }
    fmt_key(&key, item, def->pk.name, def->sk.name);
    if (confirm_write("Remove attribute %s from %s?", name, key.data))
        ok = update_attr(table, def, item, name, NULL);
out:
    buf_done(&key);
    return ok;
}

bool edit_delete_item(const char *table, const table_def *def, const av *item)
{
    buf key = BUF_INIT;
    bool ok = false;
    fmt_key(&key, item, def->pk.name, def->sk.name);
    if (staging_on()) {
        av base, none = { .type = AV_NONE };
        if (staging_base(table, def, item, &base)) {
            ok = staging_stage(table, def, &base, &none);
            av_free(&base);
        }
        goto out;
    }
    if (!can_write() || !confirm_write("Delete item %s?", key.data))
        goto out;
    ddb_req r;
    keyed(&r, DDB_DELETE, table, def, item, "attribute_exists(#k)");
    if (call(&r, NULL)) {
        display_message("Deleted %s", key.data);
        ok = true;
    }
out:
    buf_done(&key);
    return ok;
}
