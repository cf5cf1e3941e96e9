#include "ui/edit.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/staging.h"
#include "ui/text.h"

status edit_parse_key(const table_def *def, const index_def *ix, bool partition,
                      const char *text, av *out, diag *d)
{
    return edit_parse_key_attr(ix ? (partition ? &ix->pk : &ix->sk) : (partition ? &def->pk : &def->sk),
                               text, out, d);
}

status edit_parse_key_attr(const key_attr *k, const char *text, av *out, diag *d)
{
    out->type = AV_NONE;
    if (!k->name)
        return diag_set(d, ST_VALIDATION, "the table has no sort key");
    return av_scalar_parse(k->type, text, strlen(text), out, d);
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

/* GetItem of the item with keys' table key, strongly consistent or not. */
static bool get(const char *table, const table_def *def, const av *keys, bool strong, av *out)
{
    ddb_req r;
    ddb_res res;
    out->type = AV_NONE;
    keyed(&r, DDB_GET, table, def, keys, NULL);
    r.consistent = strong;
    if (!call(&r, &res))
        return false;
    if (res.found && res.item.type == AV_M)
        av_move(out, &res.item);
    ddb_res_done(&res);
    return true;
}

bool edit_read_item(const char *table, const table_def *def, const av *keys, av *out)
{
    return get(table, def, keys, true, out);
}

bool edit_view_item(const char *table, const table_def *def, const av *keys, bool strong, av *out)
{
    if (!get(table, def, keys, strong, out))
        return false;
    if (out->type != AV_M)
        display_error("The item is gone (deleted meanwhile?)");
    return out->type == AV_M;
}

bool edit_get_item(const char *table, const table_def *def, const av *keys, av *out)
{
    return edit_view_item(table, def, keys, true, out);
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
        av_done(item);
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

bool edit_new_item(const char *table, const table_def *def, const av *pk, av *created)
{
    buf t = BUF_INIT, key = BUF_INIT;
    av item = { 0 };
    bool ok = false;
    if (created)
        created->type = AV_NONE;
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
    if (ok && created)
        av_move(created, &item);
out:
    av_done(&item);
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
    av_done(&cur);
    av_done(&edited);
    buf_done(&t);
    buf_done(&key);
    return ok;
}

/* ---- one place of an item: an attribute, a nested value, a set element -- */

/* A value as a question shows it: its type and value as an expression's
 * operand would (S "text", N 4, others DynamoDB JSON, which names its
 * type), cut to about 60 columns. */
static void shown(buf *out, const av *v)
{
    buf lit = BUF_INIT;
    if (v->type == AV_S || v->type == AV_N)
        buf_printf(&lit, "%s ", av_type_name(v->type));
    fmt_literal(&lit, v);
    text_fit(out, lit.data ? lit.data : "", lit.len, 60, false, true);
    buf_done(&lit);
}

/* The place's path as the item view shows it (links[1].handle). */
static void place_text(buf *out, const edit_place *at)
{
    builder_path_text(at->path, out);
}

/* The UpdateItem of one place (into an uninitialised r): SET its path
 * to *val, REMOVE it, or DELETE at->elem from the set there; conditioned
 * on the item existing and the place still holding what was shown, so a
 * list that shifted or a value changed meanwhile is refused rather than
 * overwritten. */
static status place_request(const char *table, const table_def *def, const av *item,
                            const edit_place *at, bu_kind kind, const av *val, ddb_req *r, diag *d)
{
    bupdate u;
    bmaps m;
    buf upd = BUF_INIT, cond = BUF_INIT;
    builder_update_init(&u);
    builder_maps_init(&m);
    baction *a = builder_update_add(&u, kind);
    builder_path_copy(&a->path, at->path);
    if (kind == BU_SET) {
        av_copy(&a->a.value, val);
    } else if (kind == BU_DELETE) {
        av one;
        av_init_list(&a->a.value, at->val->type);
        av_copy(&one, at->elem);
        av_list_push(&a->a.value, &one);
    }
    status st = builder_update_print(&u, &m, &upd, d);
    if (st == ST_OK) {
        const char *k = builder_maps_name(&m, def->pk.name);
        buf_printf(&cond, "attribute_exists(%s) AND ", k ? k : def->pk.name);
        builder_path_expr(&m, at->path, &cond);
        buf_printf(&cond, " = %s", builder_maps_value(&m, "seen", at->val));
        ddb_req_init(r, DDB_UPDATE);
        ddb_req_set_str(&r->table, table);
        edit_key(def, item, &r->key);
        ddb_req_set_str(&r->update, upd.data);
        ddb_req_set_str(&r->cond, cond.data);
        builder_maps_names_av(&m, &r->names);
        builder_maps_values_av(&m, &r->values);
    }
    builder_maps_done(&m);
    builder_update_done(&u);
    buf_done(&upd);
    buf_done(&cond);
    return st;
}

/* Sends (or, staging on, stages) the change of one place; says how it
 * went, done saying what was done ("Set links[1].handle"). */
static bool place_write(const char *table, const table_def *def, const av *item, const edit_place *at,
                        bu_kind kind, const av *val, const char *done)
{
    ddb_req r;
    diag d;
    diag_init(&d);
    buf key = BUF_INIT, why = BUF_INIT, path = BUF_INIT;
    bool ok = false;
    fmt_key(&key, item, def->pk.name, def->sk.name);
    place_text(&path, at);
    if (place_request(table, def, item, at, kind, val, &r, &d) != ST_OK) {
        display_diag("Not written", d.code, &d);
        goto out;
    }
    if (staging_on()) {
        av staged;
        ok = staging_stage_write(table, def, &r, &staged, &why);
        if (!ok)
            display_error("Not staged: %s", why.data);
        av_done(&staged);
        ddb_req_done(&r);
        goto out;
    }
    ok = call_why(&r, NULL, &why);
    if (ok)
        display_message("%s on %s", done, key.data);
    else if (strstr(why.data ? why.data : "", "ConditionalCheckFailed"))
        display_error("Not written: %s changed since it was shown (R reads the item again)", path.data);
out:
    buf_done(&key);
    buf_done(&why);
    buf_done(&path);
    return ok;
}

/* A key attribute (only top-level attributes are): false, said. */
static bool not_key(const table_def *def, const edit_place *at, const char *what)
{
    const char *name = at->path->v[0].name;
    if (at->path->n != 1 || !table_def_is_key(def, NULL, name))
        return true;
    display_error("%s is a key attribute: %s", name, what);
    return false;
}

bool edit_remove_place(const char *table, const table_def *def, const av *item, const edit_place *at)
{
    if ((!staging_on() && !can_write()) ||
        !not_key(def, at, "it cannot be removed (d on the item's key line deletes the item)"))
        return false;
    buf key = BUF_INIT, path = BUF_INIT, v = BUF_INIT;
    fmt_key(&key, item, def->pk.name, def->sk.name);
    place_text(&path, at);
    bool ok = false;
    if (at->elem) {
        shown(&v, at->elem);
        size_t n = at->val->u.l.len;
        ok = staging_on() ||
             (n == 1 ? confirm_write("Delete %s, the only element of the set %s (a set cannot be empty: the "
                                     "attribute goes with it), from %s?", v.data, path.data, key.data)
                     : confirm_write("Delete %s from the set %s (%zu elements) of %s?", v.data, path.data, n,
                                     key.data));
        buf done = BUF_INIT;
        buf_printf(&done, "Deleted %s from the set %s", v.data, path.data);
        ok = ok && place_write(table, def, item, at, BU_DELETE, NULL, done.data);
        buf_done(&done);
    } else {
        shown(&v, at->val);
        bool in_list = at->path->n > 1 && at->path->v[at->path->n - 1].is_index;
        buf done = BUF_INIT;
        buf_printf(&done, "Removed %s", path.data);
        ok = (staging_on() || confirm_write("Remove %s (%s) from %s?%s", path.data, v.data, key.data,
                                            in_list ? " (the later elements move up)" : "")) &&
             place_write(table, def, item, at, BU_REMOVE, NULL, done.data);
        buf_done(&done);
    }
    buf_done(&key);
    buf_done(&path);
    buf_done(&v);
    return ok;
}

/* The value typed for a place whose value is like `like`: DynamoDB JSON
 * ({"N":"4"}); for an S or N, also its plain text ("4" for an N, any text
 * for an S), as the key fields read it. */
static status typed_value(const av *like, const char *text, size_t len, av *out, diag *d)
{
    size_t sp = strspn(text, " \t\n");
    bool plain = like->type == AV_S || like->type == AV_N;
    status st = ddbjson_parse_value(text, len, out, d);
    if (st == ST_OK || !plain || (like->type == AV_N && sp < len && text[sp] == '{'))
        return st;
    diag_init(d);
    return av_scalar_parse(like->type, text, len, out, d);
}

/* The prompt's text for a value like `like`: an S or N plain, the rest as
 * DynamoDB JSON. */
static void value_prompt_text(const av *v, buf *out)
{
    if (v->type == AV_S || v->type == AV_N)
        av_scalar_text(v, out);
    else
        ddbjson_write_value(out, v);
}

/* Asks for the new value of a place (what it holds now to start with)
 * until one reads; false when the prompt is left. An empty answer is
 * *out AV_NONE (remove). */
static bool ask_value(const edit_place *at, av *out)
{
    const av *now = at->elem ? at->elem : at->val;
    buf label = BUF_INIT, init = BUF_INIT, in = BUF_INIT, path = BUF_INIT;
    place_text(&path, at);
    out->type = AV_NONE;
    if (at->elem)
        buf_printf(&label, "Element of %s (%s) = ", path.data, av_type_name(now->type));
    else
        buf_printf(&label, "SET %s (%s) = ", path.data, av_type_name(now->type));
    value_prompt_text(now, &init);
    bool ok = false;
    for (;;) {
        if (!display_prompt(label.data, init.data ? init.data : "", &in))
            break;
        display_message("%s", "");
        diag d;
        diag_init(&d);
        if (in.len == 0 || typed_value(now, in.data, in.len, out, &d) == ST_OK) {
            ok = true;
            break;
        }
        if (now->type == AV_S || now->type == AV_N)
            display_diag(now->type == AV_N ? "Not a value (type a number, 4, or DynamoDB JSON such as {\"S\":\"text\"})"
                                           : "Not a value",
                         d.code, &d);
        else
            display_diag("Not a value (type DynamoDB JSON such as {\"S\":\"text\"} or {\"N\":\"5\"})", d.code, &d);
        buf_reset(&init);
        buf_add(&init, in.data, in.len);
    }
    buf_done(&label);
    buf_done(&init);
    buf_done(&in);
    buf_done(&path);
    return ok;
}

/* The set at->val with at->elem replaced by elem (a set of its type). */
static bool replaced_set(const edit_place *at, const av *elem, av *out)
{
    if (elem->type != av_set_elem(at->val->type)) {
        display_error("An element of %s must be %s, not %s", av_type_name(at->val->type),
                      av_type_name(av_set_elem(at->val->type)), av_type_name(elem->type));
        return false;
    }
    av_init_list(out, at->val->type);
    for (size_t i = 0; i < at->val->u.l.len; i++) {
        av c;
        av_copy(&c, av_equal(&at->val->u.l.v[i], at->elem) ? elem : &at->val->u.l.v[i]);
        av_list_push(out, &c);
    }
    av_set_normalize(out);
    return true;
}

bool edit_set_place(const char *table, const table_def *def, const av *item, const edit_place *at)
{
    if ((!staging_on() && !can_write()) ||
        !not_key(def, at, "edit the item (e) to copy it under a new key"))
        return false;
    av val = { 0 }, set = { 0 };
    buf key = BUF_INIT, path = BUF_INIT, from = BUF_INIT, to = BUF_INIT;
    bool ok = false;
    if (!ask_value(at, &val))
        goto out;
    if (val.type == AV_NONE) {
        ok = edit_remove_place(table, def, item, at);
        goto out;
    }
    if (at->elem && !replaced_set(at, &val, &set))
        goto out;
    const av *was = at->elem ? at->elem : at->val;
    if (av_equal(was, &val)) {
        display_message("No change");
        goto out;
    }
    fmt_key(&key, item, def->pk.name, def->sk.name);
    place_text(&path, at);
    shown(&from, was);
    shown(&to, &val);
    if (!staging_on() &&
        !(at->elem ? confirm_write("Set the element %s of the set %s to %s on %s?", from.data, path.data, to.data,
                                   key.data)
                   : confirm_write("Set %s from %s to %s on %s?", path.data, from.data, to.data, key.data)))
        goto out;
    buf done = BUF_INIT;
    buf_printf(&done, "Set %s", path.data);
    ok = place_write(table, def, item, at, BU_SET, at->elem ? &set : &val, done.data);
    buf_done(&done);
out:
    av_done(&val);
    av_done(&set);
    buf_done(&key);
    buf_done(&path);
    buf_done(&from);
    buf_done(&to);
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
            av_done(&base);
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
