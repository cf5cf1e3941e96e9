/*
 * copy — the `Y` menu, the clipboard and :write (see copy.h).
 */
#include "ui/copy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/codegen.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/term.h"

/* The last text copied, for :write. */
static buf last = BUF_INIT;
static char last_what[160];

void copy_text(const char *text, size_t len, const char *what)
{
    buf_reset(&last);
    buf_add(&last, text, len);
    snprintf(last_what, sizeof last_what, "%s", what);
    term_clipboard(text, len);
    display_message("Copied %s (%zu byte%s) to the clipboard; :write FILE saves it", what, len,
                    len == 1 ? "" : "s");
}

/* The request to copy: the view's own, else a GetItem of the item. */
static bool request_of(view *v, const cond_arg *c, const table_def *def, ddb_req *out, buf *why)
{
    if (v->ops->typed_request) {
        if (v->ops->typed_request(v, out, why))
            return true;
        ddb_req_done(out);
        if (!c->item)
            return false;
        buf_reset(why);
    }
    ddb_req_init(out, DDB_GET);
    if (!c->item || !def) {
        buf_adds(why, "no item selected and no request in this view");
        return false;
    }
    ddb_req_set_str(&out->table, c->table);
    edit_key(def, c->item, &out->key);
    return true;
}

typedef struct choice {
    char key;
    const char *label;
    bool needs_item;
} choice;

static const choice choices[] = {
    { 'j', "j JSON", true }, { 'd', "d DynamoDB JSON", true }, { 'k', "k key", true },
    { 'a', "a aws CLI", false }, { 's', "s JavaScript", false }, { 'p', "p Python", false },
    { 'g', "g Go", false },
};

/* What one choice copies, into out; what it is into what. */
static bool render(char c, const av *item, const av *key, const ddb_req *req, buf *out, buf *what)
{
    switch (c) {
    case 'j':
        ddbjson_write_plain_item(what, item);   /* scratch: prettified below */
        ddbjson_pretty(out, what->data, what->len);
        buf_reset(what);
        buf_adds(what, "the item as JSON");
        return true;
    case 'd':
        ddbjson_write_item_pretty(out, item);
        buf_adds(what, "the item as DynamoDB JSON");
        return true;
    case 'k':
        ddbjson_write_item(out, key);
        buf_adds(what, "the key as DynamoDB JSON");
        return true;
    case 'a':
        ddb_req_cli(req, out);
        buf_printf(what, "the %s as an aws command line", ddb_op_name(ddb_kind_op(req->kind)));
        return true;
    default: {
        codegen_lang lang = c == 's' ? CODEGEN_JS : c == 'p' ? CODEGEN_PYTHON : CODEGEN_GO;
        codegen_write(lang, req, out);
        buf_printf(what, "the %s in %s", ddb_op_name(ddb_kind_op(req->kind)), codegen_lang_name(lang));
        return true;
    }
    }
}

static void copy_menu(view *v)
{
    cond_arg c = { 0 };
    if (v->ops->context)
        v->ops->context(v, &c);
    table_def def;
    bool have_def = false;
    if (c.table && c.item) {
        diag d;
        diag_init(&d);
        have_def = store_describe(display_store(), c.table, &def, &d) == ST_OK;
    }
    ddb_req req;
    buf why = BUF_INIT, q = BUF_INIT, keys = BUF_INIT, out = BUF_INIT, what = BUF_INIT;
    bool have_req = request_of(v, &c, have_def ? &def : NULL, &req, &why);
    bool have_item = c.item && c.item->type == AV_M && have_def;
    buf_adds(&q, "Copy:");
    for (size_t i = 0; i < sizeof choices / sizeof choices[0]; i++) {
        if (choices[i].needs_item ? !have_item : !have_req)
            continue;
        buf_printf(&q, " %s,", choices[i].label);
        buf_addc(&keys, choices[i].key);
    }
    if (!keys.len) {
        display_error("Nothing to copy here: %s", why.len ? why.data : "select an item");
        goto out;
    }
    q.data[q.len - 1] = ' ';
    buf_adds(&q, "(Esc: nothing)");
    int k = display_choose(q.data, keys.data);
    if (!k) {
        display_message("Nothing copied");
        goto out;
    }
    av key = { .type = AV_NONE };
    if (have_item)
        edit_key(&def, c.item, &key);
    render((char)k, c.item, &key, &req, &out, &what);
    av_done(&key);
    copy_text(out.data ? out.data : "", out.len, what.data);
out:
    ddb_req_done(&req);
    if (have_def)
        table_def_free(&def);
    buf_done(&why);
    buf_done(&q);
    buf_done(&keys);
    buf_done(&out);
    buf_done(&what);
}

bool copy_request(view *v, enum req r)
{
    if (r != REQ_COPY)
        return false;
    copy_menu(v);
    return true;
}

bool copy_command(view *v, int argc, char **argv)
{
    if (!display_is_cmd(argv[0], "write"))
        return false;
    if (argc != 2) {
        display_error("usage: :write FILE (what was copied last)");
        return true;
    }
    if (!last_what[0]) {
        display_error("Nothing copied yet (Y copies)");
        return true;
    }
    FILE *f = fopen(argv[1], "w");
    if (!f || fwrite(last.data, 1, last.len, f) != last.len) {
        display_error("%s: %s", argv[1], strerror(errno));
        if (f)
            fclose(f);
        return true;
    }
    if (fclose(f) != 0) {
        display_error("%s: %s", argv[1], strerror(errno));
        return true;
    }
    display_message("Wrote %s (%zu byte%s) to %s", last_what, last.len, last.len == 1 ? "" : "s",
                    argv[1]);
    return true;
}
