/*
 * marks — marked items and the bulk operations on them (see marks.h).
 */
#include "ui/marks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/export.h"
#include "data/store.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "ui/copy.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/staging.h"
#include "ui/term.h"

/* DynamoDB's limit of requests in one BatchWriteItem. */
#define BATCH_MAX 25
/* How often unprocessed items are sent again before giving up. */
#define BATCH_RETRIES 8

typedef struct mark {
    char *table;
    av key;
} mark;

static struct {
    mark *v;
    size_t n, cap;
} M;

static void mark_free(mark *m)
{
    free(m->table);
    av_free(&m->key);
}

static void unmark_all(void)
{
    for (size_t i = 0; i < M.n; i++)
        mark_free(&M.v[i]);
    M.n = 0;
}

void marks_done(void)
{
    unmark_all();
    free(M.v);
    M.v = NULL;
    M.cap = 0;
}

static long find(const char *table, const av *key)
{
    for (size_t i = 0; i < M.n; i++)
        if (strcmp(M.v[i].table, table) == 0 && av_equal(&M.v[i].key, key))
            return (long)i;
    return -1;
}

/* Adds the mark (taking key) unless it is there. */
static bool add(const char *table, av *key)
{
    if (find(table, key) >= 0) {
        av_free(key);
        return false;
    }
    if (M.n == M.cap) {
        M.cap = M.cap ? 2 * M.cap : 16;
        M.v = xrealloc(M.v, M.cap * sizeof *M.v);
    }
    M.v[M.n].table = xstrdup(table);
    av_move(&M.v[M.n].key, key);
    M.n++;
    return true;
}

static void remove_at(size_t i)
{
    mark_free(&M.v[i]);
    memmove(&M.v[i], &M.v[i + 1], (M.n - i - 1) * sizeof *M.v);
    M.n--;
}

bool marks_has(const char *table, const table_def *def, const av *item)
{
    if (!M.n || !item || item->type != AV_M)
        return false;
    av key;
    edit_key(def, item, &key);
    bool yes = find(table, &key) >= 0;
    av_free(&key);
    return yes;
}

void marks_draw_gutter(const char *table, const table_def *def, const av *item, int row)
{
    if (marks_has(table, def, item))
        term_puts(row, 0, 1, "*", ROLE_MARKED);
    int sm = staging_marker(table, def, item);
    if (sm)
        term_puts(row, 1, 1, (char[]){ (char)sm, 0 }, ROLE_STAGED);
}

size_t marks_count(void)
{
    return M.n;
}

void marks_badge(buf *out)
{
    size_t staged = staging_count();
    if (!M.n && !staged)
        return;
    buf_addc(out, ' ');
    if (M.n)
        buf_printf(out, "%zu marked ", M.n);
    if (M.n && staged)
        buf_addc(out, ' ');
    if (staged)
        buf_printf(out, "%zu staged ", staged);
}

/* ---- marking ------------------------------------------------------------ */

static bool context(view *v, cond_arg *c)
{
    memset(c, 0, sizeof *c);
    if (v->ops->context)
        v->ops->context(v, c);
    return c->table != NULL;
}

static void mark_selected(view *v)
{
    cond_arg c;
    table_def def;
    if (!context(v, &c) || !c.item) {
        display_error("Select an item to mark");
        return;
    }
    if (!staging_describe(c.table, &def))
        return;
    av key;
    edit_key(&def, c.item, &key);
    buf k = BUF_INIT;
    fmt_key(&k, c.item, def.pk.name, def.sk.name);
    long i = find(c.table, &key);
    if (i >= 0) {
        remove_at((size_t)i);
        av_free(&key);
        display_message("Unmarked %s (%zu marked)", k.data, M.n);
    } else {
        add(c.table, &key);
        display_message("Marked %s (%zu marked)", k.data, M.n);
    }
    buf_done(&k);
    table_def_free(&def);
}

/* Every item of the selected item's partition, in the view's table or
 * index; all marked already: unmarks them. */
static void mark_partition(view *v)
{
    cond_arg c;
    table_def def;
    if (!context(v, &c) || !c.item) {
        display_error("Select an item of the partition to mark");
        return;
    }
    if (!staging_describe(c.table, &def))
        return;
    const index_def *ix = c.index ? table_def_index(&def, c.index) : NULL;
    const char *pkname = ix ? ix->pk.name : def.pk.name;
    const av *pk = av_map_get(c.item, pkname, strlen(pkname));
    av *keys = NULL;
    size_t n = 0, cap = 0;
    av page[100], after = { .type = AV_NONE };
    size_t got = 0;
    status st = ST_OK;
    diag d;
    diag_init(&d);
    do {
        st = store_page(display_store(), c.table, c.index, pk, after.type ? &after : NULL, true, 100,
                        page, &got, &d);
        if (st != ST_OK)
            break;
        for (size_t i = 0; i < got; i++) {
            if (n == cap) {
                cap = cap ? 2 * cap : 64;
                keys = xrealloc(keys, cap * sizeof *keys);
            }
            edit_key(&def, &page[i], &keys[n++]);
        }
        av_free(&after);
        if (got)
            av_move(&after, &page[got - 1]);
        for (size_t i = 0; i + 1 < got; i++)
            av_free(&page[i]);
    } while (got == 100);
    av_free(&after);
    if (st != ST_OK) {
        display_diag("Mark partition", st, &d);
    } else {
        bool all = true;
        for (size_t i = 0; i < n && all; i++)
            all = find(c.table, &keys[i]) >= 0;
        buf p = BUF_INIT;
        fmt_cell(&p, pk, 40);
        for (size_t i = 0; i < n; i++) {
            long at = all ? find(c.table, &keys[i]) : -1;
            if (at >= 0)
                remove_at((size_t)at);
            else if (!all)
                add(c.table, &keys[i]);
        }
        display_message("%s %zu item%s of partition %s (%zu marked)", all ? "Unmarked" : "Marked", n,
                        n == 1 ? "" : "s", p.data, M.n);
        buf_done(&p);
    }
    for (size_t i = 0; i < n; i++)
        av_free(&keys[i]);
    free(keys);
    table_def_free(&def);
}

/* How marking a view's results went. */
typedef struct mark_tally {
    size_t items, added, pages;
    bool stopped, failed;
} mark_tally;

static void mark_item(const char *table, const table_def *def, const av *item, mark_tally *t)
{
    av key;
    edit_key(def, item, &key);   /* an index item: its base item's key */
    t->items++;
    t->added += add(table, &key);
}

/* The pages of the view's Query or Scan past those it has loaded: its
 * typed request sent on from its LastEvaluatedKey, every item marked,
 * until the last page; Esc or Ctrl-C between pages stops. */
static void mark_rest(view *v, const char *table, const table_def *def, mark_tally *t)
{
    ddb_req req;
    buf why = BUF_INIT;
    if (!v->ops->typed_request || !v->ops->typed_request(v, &req, &why)) {
        if (v->ops->typed_request)
            ddb_req_done(&req);
        buf_done(&why);
        return;
    }
    buf_done(&why);
    while ((req.kind == DDB_QUERY || req.kind == DDB_SCAN) && req.start.type == AV_M) {
        ddb_res res;
        ddb_err err;
        ddb_res_init(&res);
        ddb_err_init(&err);
        status st = store_exec(display_store(), &req, &res, &err);
        if (st == ST_OK) {
            for (size_t i = 0; i < res.n_items; i++)
                mark_item(table, def, &res.items[i], t);
            av_free(&req.start);
            av_move(&req.start, &res.last_key);
            t->pages++;
        } else {
            display_ddb_err("Mark results", &err);
            t->failed = true;
        }
        ddb_res_done(&res);
        ddb_err_done(&err);
        if (t->failed || req.start.type != AV_M)
            break;
        display_progress("Marking the results: %zu items, %zu more page%s read"
                         " (Esc or Ctrl-C stops)", t->items, t->pages, t->pages == 1 ? "" : "s");
        if (term_interrupted()) {
            t->stopped = true;
            break;
        }
    }
    ddb_req_done(&req);
}

/* Every item the view's query or filter returned: its loaded lines (its
 * context op asked line by line, the selection put back after), then,
 * for a Query or Scan with pages left, those pages (mark_rest). */
static void mark_results(view *v)
{
    size_t was = v->vm.cursor;
    mark_tally t = { 0 };
    table_def def;
    bool have_def = false;
    char *table = NULL;
    for (size_t i = 0; i < v->vm.n; i++) {
        cond_arg c;
        vm_select(&v->vm, i);
        if (!context(v, &c) || !c.item)
            continue;
        if (!have_def) {
            if (!staging_describe(c.table, &def))
                break;
            have_def = true;
            table = xstrdup(c.table);
        }
        mark_item(table, &def, c.item, &t);
    }
    vm_select(&v->vm, was);
    if (v->ops->select)
        v->ops->select(v);
    if (have_def)
        mark_rest(v, table, &def, &t);
    if (have_def)
        table_def_free(&def);
    free(table);
    if (t.failed)
        return;   /* the store's error is on the status line */
    if (!t.items)
        display_error("No items in this view to mark");
    else if (t.stopped)
        display_message("Stopped: %zu of %zu items read marked, the rest unread (%zu marked)",
                        t.added, t.items, M.n);
    else if (t.pages)
        display_message("Marked %zu of the %zu items returned, %zu more page%s read (%zu marked)",
                        t.added, t.items, t.pages, t.pages == 1 ? "" : "s", M.n);
    else
        display_message("Marked %zu of the %zu items shown (%zu marked)", t.added, t.items, M.n);
}

bool marks_request(view *v, enum req r)
{
    switch (r) {
    case REQ_MARK: mark_selected(v); return true;
    case REQ_MARK_PART: mark_partition(v); return true;
    case REQ_MARK_RESULTS: mark_results(v); return true;
    default: return false;
    }
}

/* ---- on the marked items ------------------------------------------------ */

/* The tables of the marks, "T (3), U (1)", for questions. */
static void tables_text(buf *out)
{
    for (size_t i = 0; i < M.n; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(M.v[j].table, M.v[i].table) == 0;
        if (seen)
            continue;
        size_t n = 0;
        for (size_t j = i; j < M.n; j++)
            n += strcmp(M.v[j].table, M.v[i].table) == 0;
        buf_printf(out, "%s%s (%zu)", out->len ? ", " : "", M.v[i].table, n);
    }
}

/* Sends one BatchWriteItem of deletes, again with what was not processed
 * (DynamoDB may leave some under load); false with the error shown. */
static bool batch_delete(size_t from, size_t to)
{
    ddb_req req;
    ddb_req_init(&req, DDB_BATCH_WRITE);
    for (size_t i = from; i < to; i++) {
        ddb_req *a = ddb_req_add(&req, DDB_DELETE);
        ddb_req_set_str(&a->table, M.v[i].table);
        av_copy(&a->key, &M.v[i].key);
    }
    bool ok = false;
    for (int attempt = 0; attempt < BATCH_RETRIES; attempt++) {
        ddb_res res;
        ddb_err err;
        ddb_res_init(&res);
        ddb_err_init(&err);
        status st = store_exec(display_store(), &req, &res, &err);
        if (st != ST_OK) {
            display_ddb_err("BatchWriteItem", &err);
            ddb_res_done(&res);
            ddb_err_done(&err);
            break;
        }
        ddb_err_done(&err);
        if (!res.unprocessed.n_acts) {
            ddb_res_done(&res);
            ok = true;
            break;
        }
        ddb_req_done(&req);
        req = res.unprocessed;
        ddb_req_init(&res.unprocessed, DDB_BATCH_WRITE);
        ddb_res_done(&res);
    }
    if (!ok && req.n_acts)
        display_error("BatchWriteItem left %zu item%s unprocessed", req.n_acts, req.n_acts == 1 ? "" : "s");
    ddb_req_done(&req);
    return ok;
}

static void marked_delete(view *v)
{
    buf t = BUF_INIT;
    tables_text(&t);
    if (staging_on()) {
        /* Staged like any delete: nothing is written before :commit. */
        size_t staged = 0;
        for (size_t i = 0; i < M.n; i++) {
            table_def def;
            av base, none = { .type = AV_NONE };
            if (!staging_describe(M.v[i].table, &def))
                break;
            if (staging_base(M.v[i].table, &def, &M.v[i].key, &base)) {
                staged += staging_stage(M.v[i].table, &def, &base, &none);
                av_free(&base);
            }
            table_def_free(&def);
        }
        display_message("Staged the delete of %zu marked item%s (:commit writes them)", staged,
                        staged == 1 ? "" : "s");
    } else if (display_confirm("Delete %zu marked item%s from %s?", M.n, M.n == 1 ? "" : "s", t.data)) {
        size_t done = 0, n = M.n;
        for (size_t from = 0; from < M.n; from += BATCH_MAX) {
            size_t to = from + BATCH_MAX < M.n ? from + BATCH_MAX : M.n;
            if (!batch_delete(from, to))
                break;
            done = to;
        }
        for (size_t i = 0; i < done; i++)
            mark_free(&M.v[i]);
        memmove(M.v, M.v + done, (M.n - done) * sizeof *M.v);
        M.n -= done;
        if (done == n)
            display_message("Deleted %zu item%s from %s (BatchWriteItem)", done, done == 1 ? "" : "s", t.data);
    }
    buf_done(&t);
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
}

/* Sets (val) or removes (val NULL) one attribute on every marked item:
 * staged when staging is on, else an UpdateItem each, conditioned on the
 * item existing (never creating one). */
static void marked_set(view *v, const char *name, const av *val)
{
    size_t done = 0;
    for (size_t i = 0; i < M.n; i++) {
        table_def def;
        if (!staging_describe(M.v[i].table, &def))
            break;
        bool ok;
        if (table_def_is_key(&def, NULL, name)) {
            display_error("%s is a key attribute of %s", name, M.v[i].table);
            table_def_free(&def);
            break;
        }
        if (staging_on()) {
            ok = staging_set_attr(M.v[i].table, &def, &M.v[i].key, name, val);
        } else {
            ddb_req r;
            ddb_req_init(&r, DDB_UPDATE);
            ddb_req_set_str(&r.table, M.v[i].table);
            av_copy(&r.key, &M.v[i].key);
            ddb_req_set_str(&r.cond, "attribute_exists(#k)");
            ddb_req_set_str(&r.update, val ? "SET #a = :v" : "REMOVE #a");
            av_init_list(&r.names, AV_M);
            av s;
            av_init_s(&s, def.pk.name, strlen(def.pk.name));
            av_map_put(&r.names, "#k", 2, &s);
            av_init_s(&s, name, strlen(name));
            av_map_put(&r.names, "#a", 2, &s);
            if (val) {
                av c;
                av_copy(&c, val);
                av_init_list(&r.values, AV_M);
                av_map_put(&r.values, ":v", 2, &c);
            }
            ddb_res res;
            ddb_err err;
            ddb_res_init(&res);
            ddb_err_init(&err);
            ok = store_exec(display_store(), &r, &res, &err) == ST_OK;
            if (!ok)
                display_ddb_err("UpdateItem", &err);
            ddb_res_done(&res);
            ddb_err_done(&err);
            ddb_req_done(&r);
        }
        table_def_free(&def);
        if (!ok)
            break;
        done++;
    }
    if (done == M.n)
        display_message("%s %s on %zu marked item%s%s", val ? "Set" : "Removed", name, done,
                        done == 1 ? "" : "s", staging_on() ? " (staged)" : "");
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
}

/* The marked items of one table as they are (BatchGetItem would do; a
 * GetItem each keeps it simple and consistent). */
static size_t marked_items(const char *table, av **out)
{
    table_def def;
    size_t n = 0;
    *out = NULL;
    if (!staging_describe(table, &def))
        return 0;
    *out = xcalloc(M.n ? M.n : 1, sizeof **out);
    for (size_t i = 0; i < M.n; i++)
        if (strcmp(M.v[i].table, table) == 0 && edit_get_item(table, &def, &M.v[i].key, &(*out)[n]))
            n++;
    table_def_free(&def);
    return n;
}

static status write_file(void *ctx, const char *p, size_t n, diag *d)
{
    if (fwrite(p, 1, n, ctx) != n)
        return diag_set(d, ST_IO, "%s", strerror(errno));
    return ST_OK;
}

static status write_buf(void *ctx, const char *p, size_t n, diag *d)
{
    buf_add(ctx, p, n);
    return ST_OK;
}

static void marked_export(const char *format, const char *file)
{
    export_format f;
    if (!export_format_parse(format, &f)) {
        display_error("Unknown format %s (jsonl, s3, aws-cli, workbench, csv, plain)", format);
        return;
    }
    const char *table = M.v[0].table;
    for (size_t i = 1; i < M.n; i++)
        if (strcmp(M.v[i].table, table) != 0) {
            display_error("The marks are in more than one table: an export is of one table");
            return;
        }
    av *items;
    size_t n = marked_items(table, &items);
    FILE *fp = fopen(file, "w");
    diag d;
    diag_init(&d);
    status st = fp ? export_items(display_store(), table, items, n, f, write_file, fp, NULL, &d)
                   : diag_set(&d, ST_IO, "%s: %s", file, strerror(errno));
    if (fp && fclose(fp) != 0 && st == ST_OK)
        st = diag_set(&d, ST_IO, "%s: %s", file, strerror(errno));
    if (st != ST_OK)
        display_diag("Export", st, &d);
    else
        display_message("Exported %zu marked item%s of %s as %s to %s", n, n == 1 ? "" : "s", table,
                        export_format_name(f), file);
    for (size_t i = 0; i < n; i++)
        av_free(&items[i]);
    free(items);
}

/* The marked items as DynamoDB JSON, one a line (`ddbx load` reads it). */
static void marked_copy(void)
{
    buf out = BUF_INIT, what = BUF_INIT;
    size_t total = 0;
    for (size_t i = 0; i < M.n; i++) {
        bool first = true;
        for (size_t j = 0; j < i && first; j++)
            first = strcmp(M.v[j].table, M.v[i].table) != 0;
        if (!first)
            continue;
        av *items;
        size_t n = marked_items(M.v[i].table, &items);
        diag d;
        diag_init(&d);
        export_items(display_store(), M.v[i].table, items, n, EXPORT_JSONL, write_buf, &out, NULL, &d);
        total += n;
        for (size_t k = 0; k < n; k++)
            av_free(&items[k]);
        free(items);
    }
    buf_printf(&what, "%zu marked item%s as DynamoDB JSON lines", total, total == 1 ? "" : "s");
    copy_text(out.data ? out.data : "", out.len, what.data);
    buf_done(&out);
    buf_done(&what);
}

bool marks_command(view *v, int argc, char **argv)
{
    if (display_is_cmd(argv[0], "mark_results") && argc == 1) {
        mark_results(v);
        return true;
    }
    if (!display_is_cmd(argv[0], "marked"))
        return false;
    const char *what = argc > 1 ? argv[1] : "";
    if (strcmp(what, "clear") == 0 && argc == 2) {
        size_t n = M.n;
        unmark_all();
        display_message("Unmarked %zu item%s", n, n == 1 ? "" : "s");
        return true;
    }
    if (!M.n) {
        display_error("No items are marked (m marks one, M a partition, :mark-results the results)");
        return true;
    }
    if (strcmp(what, "delete") == 0 && argc == 2) {
        marked_delete(v);
    } else if (strcmp(what, "set") == 0 && argc >= 4) {
        /* The value: the words left (quote it as one, '{"S":"a b"}', as the
         * prompt splits words like a shell). */
        buf j = BUF_INIT;
        for (int i = 3; i < argc; i++)
            buf_printf(&j, "%s%s", i > 3 ? " " : "", argv[i]);
        av val;
        diag d;
        diag_init(&d);
        if (ddbjson_parse_value(j.data, j.len, &val, &d) != ST_OK) {
            display_diag("Not a value (type DynamoDB JSON such as {\"S\":\"text\"})", d.code, &d);
        } else {
            marked_set(v, argv[2], &val);
            av_free(&val);
        }
        buf_done(&j);
    } else if (strcmp(what, "remove") == 0 && argc == 3) {
        marked_set(v, argv[2], NULL);
    } else if (strcmp(what, "export") == 0 && argc == 4) {
        marked_export(argv[2], argv[3]);
    } else if (strcmp(what, "copy") == 0 && argc == 2) {
        marked_copy();
    } else if (strcmp(what, "stage") == 0 && argc >= 3 && strcmp(argv[2], "stage") != 0) {
        /* :marked stage delete|set|remove ...: staged whatever the mode. */
        char *rest[32];
        int n = 0;
        rest[n++] = argv[0];
        for (int i = 2; i < argc && n < 31; i++)
            rest[n++] = argv[i];
        rest[n] = NULL;
        bool was = staging_on();
        staging_set(true);
        marks_command(v, n, rest);
        staging_set(was);
    } else {
        display_error("usage: :marked [stage] delete|set NAME JSON|remove NAME, :marked export FORMAT FILE|copy|clear");
    }
    return true;
}
