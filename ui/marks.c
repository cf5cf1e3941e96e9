/*
 * marks — marked items and the bulk operations on them (see marks.h).
 */
#include "ui/marks.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/export.h"
#include "data/store.h"
#include "data/store_wscan.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/keyset.h"
#include "model/mem.h"
#include "ui/copy.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/prices.h"
#include "ui/staging.h"
#include "ui/term.h"
#include "ui/undo.h"

/* DynamoDB's limit of requests in one BatchWriteItem. */
#define BATCH_MAX 25
/* How often unprocessed items are sent again before giving up. */
#define BATCH_RETRIES 8
/* Items a bulk action handles between two progress lines (and two looks
 * at the keyboard for Esc). */
#define STEP 1000
/* Keys a question shows: the first ones, then the last. */
#define SAMPLE 3

/* The marks, in table then key order. */
static keyset *K;

static keyset *marks(void)
{
    if (!K)
        K = keyset_new();
    return K;
}

static size_t n_marks(void)
{
    return K ? keyset_count(K) : 0;
}

void marks_done(void)
{
    keyset_free(K);
    K = NULL;
}

/* Is the item (of table, key attributes per def) marked? */
static bool marks_has(const char *table, const table_def *def, const av *item)
{
    return n_marks() && item && keyset_has(K, table, def, item);
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
    return n_marks();
}

void marks_forget(const char *table, const av *key)
{
    if (n_marks())
        keyset_remove_key(K, table, key);
}

void marks_badge(buf *out)
{
    size_t staged = staging_count();
    size_t n = n_marks();
    if (!n && !staged)
        return;
    buf_addc(out, ' ');
    if (n)
        buf_printf(out, "%zu marked ", n);
    if (n && staged)
        buf_addc(out, ' ');
    if (staged)
        buf_printf(out, "%zu staged ", staged);
}

/* ---- what a question shows --------------------------------------------- */

static const char *s_(size_t n)
{
    return n == 1 ? "" : "s";
}

/* "PK=ACTOR#alice SK=PROFILE" for an entry of set s. */
static void entry_text(const keyset *s, const keyset_entry *e, bool with_table, buf *out)
{
    size_t t = keyset_entry_table(e);
    const char *pk, *sk;
    keyset_table_keys(s, t, &pk, &sk);
    av key;
    keyset_entry_key(s, e, &key);
    if (with_table)
        buf_printf(out, "%s: ", keyset_table_name(s, t));
    const char *names[2] = { pk, sk };
    for (int i = 0; i < 2 && names[i]; i++) {
        buf_printf(out, "%s%s=", i ? " " : "", names[i]);
        fmt_cell(out, av_map_get(&key, names[i], strlen(names[i])), 32);
    }
    av_done(&key);
}

/* The keys of a set as a question shows them, in the set's order: all of
 * them up to SAMPLE + 1, else the first SAMPLE, "…" and the last, with
 * how many are not shown. */
static void sample_text(const keyset *s, buf *out)
{
    size_t n;
    const keyset_entry **all = keyset_list(s, &n);
    bool tables = keyset_tables(s) > 1;
    for (size_t i = 0; i < n; i++) {
        if (n > SAMPLE + 1 && i == SAMPLE) {
            buf_printf(out, ", … (%zu more), ", n - SAMPLE - 1);
            i = n - 1;
        } else if (i) {
            buf_adds(out, ", ");
        }
        entry_text(s, all[i], tables, out);
    }
    free(all);
}

/* The tables of a set, "T (3), U (1)"; one table by its name alone (the
 * question says the count already). */
static void tables_text(const keyset *s, buf *out)
{
    size_t n = 0;
    for (size_t t = 0; t < keyset_tables(s); t++)
        n += keyset_table_count(s, t) != 0;
    for (size_t t = 0; t < keyset_tables(s); t++) {
        if (!keyset_table_count(s, t))
            continue;
        buf_printf(out, "%s%s", out->len ? ", " : "", keyset_table_name(s, t));
        if (n > 1)
            buf_printf(out, " (%zu)", keyset_table_count(s, t));
    }
}

/* ---- gathering what to mark ---------------------------------------------- */

static bool context(view *v, cond_arg *c)
{
    memset(c, 0, sizeof *c);
    if (v->ops->context)
        v->ops->context(v, c);
    return c->table != NULL;
}

/* Moves every entry of from (emptied) to the marks, one at a time so
 * that a million are not held twice; returns how many were new. */
static size_t merge(keyset *from, const char *table, const table_def *def)
{
    size_t n, added = 0;
    const keyset_entry **all = keyset_list(from, &n);
    for (size_t i = 0; i < n; i++) {
        av key;
        keyset_entry_key(from, all[i], &key);
        added += keyset_add(marks(), table, def, &key) == 1;
        av_done(&key);
        keyset_remove_entry(from, all[i]);
    }
    free(all);
    return added;
}

/* The items of the view's lines [from, to) into set: by its line_item op,
 * else by its context op with each line selected in turn (the selection
 * and the top row put back after). */
static void lines_items(view *v, size_t from, size_t to, const char *table, const table_def *def,
                        keyset *set)
{
    vm *m = &v->vm;
    if (to > m->n)
        to = m->n;
    if (v->ops->line_item) {
        for (size_t i = from; i < to; i++) {
            const av *it = v->ops->line_item(v, i);
            if (it)
                keyset_add(set, table, def, it);   /* an index item: its base item's key */
        }
        return;
    }
    size_t was = m->cursor, top = m->top;
    for (size_t i = from; i < to; i++) {
        cond_arg c;
        vm_select(m, i);
        if (context(v, &c) && c.item && strcmp(c.table, table) == 0)
            keyset_add(set, table, def, c.item);
    }
    vm_select(m, was);
    vm_set_top(m, top);
    if (v->ops->select)
        v->ops->select(v);
}

static void on_screen(view *v, const char *table, const table_def *def, keyset *set)
{
    lines_items(v, v->vm.top, v->vm.top + v->vm.rows, table, def, set);
}

/* The table and definition of what the view shows (its selection's, else
 * its first item line's); false when it shows no item. */
static bool view_table(view *v, char **table, table_def *def)
{
    cond_arg c;
    if (!context(v, &c))
        return false;
    *table = xstrdup(c.table);
    if (!staging_describe(*table, def)) {
        free(*table);
        *table = NULL;
        return false;
    }
    return true;
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
    buf k = BUF_INIT;
    fmt_key(&k, c.item, def.pk.name, def.sk.name);
    if (keyset_remove(marks(), c.table, &def, c.item))
        display_message("Unmarked %s (%zu marked)", k.data, n_marks());
    else if (keyset_add(marks(), c.table, &def, c.item) == 1)
        display_message("Marked %s (%zu marked)", k.data, n_marks());
    else
        display_error("%s is no item of %s (a key attribute is missing)", k.data, c.table);
    buf_done(&k);
    table_def_free(&def);
}

/* Every item of the selected item's partition, in the view's table or
 * index; all marked already: unmarks them. When the partition holds more
 * than the screen shows of it, asks first, naming the count and keys. */
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
    char *table = xstrdup(c.table), *index = c.index ? xstrdup(c.index) : NULL;
    keyset *found = keyset_new();
    av page[100], after = { .type = AV_NONE };
    size_t got = 0, pages = 0;
    bool stopped = false;
    buf p = BUF_INIT;
    fmt_cell(&p, pk, 40);
    status st = ST_OK;
    diag d;
    diag_init(&d);
    do {
        st = store_page(display_store(), table, index, pk, after.type ? &after : NULL, true, 100, page,
                        &got, &d);
        if (st != ST_OK)
            break;
        for (size_t i = 0; i < got; i++)
            keyset_add(found, table, &def, &page[i]);
        av_done(&after);
        if (got)
            av_move(&after, &page[got - 1]);
        for (size_t i = 0; i + 1 < got; i++)
            av_done(&page[i]);
        if (got == 100 && ++pages % (STEP / 100) == 0) {
            display_progress("Reading partition %s: %zu items (Esc or Ctrl-C stops)", p.data,
                             keyset_count(found));
            if ((stopped = display_interrupted()))
                break;
        }
    } while (got == 100);
    av_done(&after);
    size_t n = keyset_count(found);
    if (st != ST_OK) {
        display_diag("Mark partition", st, &d);
    } else if (stopped) {
        display_message("Stopped: nothing marked (%zu items of partition %s read)", n, p.data);
    } else {
        size_t listed, marked = 0;
        const keyset_entry **all = keyset_list(found, &listed);
        for (size_t i = 0; i < listed; i++) {
            av key;
            keyset_entry_key(found, all[i], &key);
            marked += keyset_has(marks(), table, &def, &key);
            av_done(&key);
        }
        if (marked == n) {
            for (size_t i = 0; i < listed; i++) {
                av key;
                keyset_entry_key(found, all[i], &key);
                keyset_remove(marks(), table, &def, &key);
                av_done(&key);
            }
            display_message("Unmarked %zu item%s of partition %s (%zu marked)", n, s_(n), p.data, n_marks());
        } else {
            /* How many of the partition's items are on screen. */
            keyset *screen = keyset_new();
            on_screen(v, table, &def, screen);
            size_t seen = 0;
            for (size_t i = 0; i < listed; i++) {
                av key;
                keyset_entry_key(found, all[i], &key);
                seen += keyset_has(screen, table, &def, &key);
                av_done(&key);
            }
            keyset_free(screen);
            buf q = BUF_INIT;
            sample_text(found, &q);
            if (seen == n || display_confirm("Mark all %zu items of partition %s? %zu of them on screen; %s", n,
                                             p.data, seen, q.data)) {
                merge(found, table, &def);
                display_message("Marked %zu item%s of partition %s (%zu marked)", n, s_(n), p.data, n_marks());
            }
            buf_done(&q);
        }
        free(all);
    }
    buf_done(&p);
    keyset_free(found);
    free(table);
    free(index);
    table_def_free(&def);
}

/* The pages of the view's Query or Scan past those it has loaded: its
 * typed request sent on from its LastEvaluatedKey, every item into set,
 * until the last page; Esc or Ctrl-C between pages stops (*stopped).
 * False when the store failed (its error shown). */
static bool read_rest(view *v, const char *table, const table_def *def, keyset *set, size_t *pages,
                      bool *stopped)
{
    ddb_req req;
    buf why = BUF_INIT;
    *pages = 0;
    *stopped = false;
    if (!v->ops->typed_request || !v->ops->typed_request(v, &req, &why)) {
        if (v->ops->typed_request)
            ddb_req_done(&req);
        buf_done(&why);
        return true;
    }
    buf_done(&why);
    bool ok = true;
    while ((req.kind == DDB_QUERY || req.kind == DDB_SCAN) && req.start.type == AV_M) {
        ddb_res res;
        ddb_err err;
        ddb_res_init(&res);
        ddb_err_init(&err);
        status st = store_exec(display_store(), &req, &res, &err);
        if (st == ST_OK) {
            for (size_t i = 0; i < res.n_items; i++)
                keyset_add(set, table, def, &res.items[i]);
            av_done(&req.start);
            av_move(&req.start, &res.last_key);
            (*pages)++;
        } else {
            display_ddb_err("Mark results", &err);
            ok = false;
        }
        ddb_res_done(&res);
        ddb_err_done(&err);
        if (!ok || req.start.type != AV_M)
            break;
        display_progress("Reading the results: %zu items, %zu more page%s read (Esc or Ctrl-C stops)",
                         keyset_count(set), *pages, s_(*pages));
        if (display_interrupted()) {
            *stopped = true;
            break;
        }
    }
    ddb_req_done(&req);
    return ok;
}

/* The rest of a Scan on an endpoint, when it has more pages: its keys
 * only, the whole Scan read again in parallel segments (data/store_wscan.h),
 * after a question with the cost and the segments (issue 42 item 4).
 * False when it is not that (read_rest reads it), with *handled; else
 * *ok false when declined, failed or stopped (said). */
static bool read_rest_segments(view *v, const char *table, const table_def *def, keyset *set, size_t *pages,
                               bool *stopped, bool *ok)
{
    store_info info;
    store_get_info(display_store(), &info);
    ddb_req req;
    buf why = BUF_INIT;
    bool typed = info.remote && v->ops->typed_request && v->ops->typed_request(v, &req, &why);
    buf_done(&why);
    if (!typed || req.kind != DDB_SCAN || req.start.type != AV_M) {
        if (typed)
            ddb_req_done(&req);
        return false;
    }
    *ok = false;
    buf cost = BUF_INIT;
    prices_read_all_plan(req.table, req.index, &cost);
    bool yes = display_confirm("Mark every result of the Scan of %s%s%s: it reads the keys of all of it, %s?",
                               req.table, req.index ? " " : "", req.index ? req.index : "", cost.data);
    buf_done(&cost);
    store_wscan *w = NULL;
    diag d;
    diag_init(&d);
    store_wscan_opts o = { .scan = &req, .keys_only = true };
    if (!yes)
        display_message("Nothing marked: nothing more was read");
    else if (store_wscan_open(display_store(), &o, &w, &d) != ST_OK)
        display_diag("Mark results", d.code, &d);
    ddb_req_done(&req);
    store_wscan_stats ss = { 0 };
    while (w) {
        av *items;
        size_t n;
        bool end;
        if (store_wscan_next(w, &items, &n, &end, &d) != ST_OK) {
            display_diag("Mark results", d.code, &d);
            break;
        }
        for (size_t i = 0; i < n; i++)
            keyset_add(set, table, def, &items[i]);
        store_wscan_get_stats(w, &ss);
        *pages = (size_t)ss.pages;
        if (end) {
            *ok = true;
            break;
        }
        display_progress("Reading the results' keys: %zu items, %d of %d Scan segments done (Esc or Ctrl-C stops)",
                         keyset_count(set), ss.segments_done, ss.segments);
        if (display_interrupted()) {
            *stopped = true;
            *ok = true;   /* what was read is offered, named as such */
            break;
        }
    }
    store_wscan_free(w);
    return true;
}

/* V: what the screen shows; in a view of results (the query bar) every
 * result, its pages not read yet too, and when they are more than the
 * screen shows, a question that names the count: all, or the screen. */
static void mark_results(view *v)
{
    char *table = NULL;
    table_def def;
    if (!view_table(v, &table, &def)) {
        display_error("No items in this view to mark");
        return;
    }
    keyset *screen = keyset_new(), *all = NULL;
    on_screen(v, table, &def, screen);
    size_t ns = keyset_count(screen);
    if (!v->ops->results) {
        size_t added = merge(screen, table, &def);
        if (!ns)
            display_error("No items on screen to mark");
        else
            display_message("Marked %zu of the %zu item%s on screen (%zu marked)", added, ns, s_(ns), n_marks());
        goto out;
    }
    all = keyset_new();
    lines_items(v, 0, v->vm.n, table, &def, all);
    size_t pages = 0;
    bool stopped = false, ok = true;
    if (read_rest_segments(v, table, &def, all, &pages, &stopped, &ok)) {
        if (!ok)
            goto out;   /* declined, or the store's error is on the status line */
    } else if (!read_rest(v, table, &def, all, &pages, &stopped)) {
        goto out;   /* the store's error is on the status line */
    }
    size_t na = keyset_count(all);
    if (!na) {
        display_error("No items in this view to mark");
        goto out;
    }
    keyset *pick = all;
    if (na > ns || stopped) {
        ddb_req req;
        buf why = BUF_INIT, q = BUF_INIT, s = BUF_INIT;
        const char *what = "the view shows";
        if (v->ops->typed_request && v->ops->typed_request(v, &req, &why))
            what = req.kind == DDB_QUERY ? "the Query returned" : "the Scan returned";
        if (v->ops->typed_request)
            ddb_req_done(&req);
        sample_text(all, &s);
        if (stopped)
            buf_printf(&q, "Stopped reading: %zu item%s read, the rest unread. Mark those %zu, or the %zu on screen? %s"
                           "  a: the %zu read  s: the %zu on screen  (other keys: none)",
                       na, s_(na), na, ns, s.data, na, ns);
        else
            buf_printf(&q, "Mark all %zu items %s, or the %zu on screen? %s  a: all %zu  s: the %zu on screen"
                           "  (other keys: none)", na, what, ns, s.data, na, ns);
        int k = display_choose(q.data, "as");
        buf_done(&why);
        buf_done(&q);
        buf_done(&s);
        if (k != 'a' && k != 's') {
            display_message("Nothing marked");
            goto out;
        }
        pick = k == 'a' ? all : screen;
    }
    size_t np = keyset_count(pick);
    size_t added = merge(pick, table, &def);
    if (pick == screen)
        display_message("Marked %zu of the %zu item%s on screen (%zu marked)", added, np, s_(np), n_marks());
    else if (stopped)
        display_message("Marked %zu of the %zu item%s read, the rest unread (%zu marked)", added, np, s_(np),
                        n_marks());
    else if (pages)
        display_message("Marked %zu of the %zu items returned, %zu more page%s read (%zu marked)", added, np,
                        pages, s_(pages), n_marks());
    else
        display_message("Marked %zu of the %zu item%s shown (%zu marked)", added, np, s_(np), n_marks());
out:
    keyset_free(screen);
    keyset_free(all);
    free(table);
    table_def_free(&def);
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

/* The marks listed, with each table's definition (NULL when it cannot be
 * read: said on the status line). */
typedef struct marked {
    const keyset_entry **e;
    size_t n;
    table_def *defs;
    bool *have;
    size_t n_t;
} marked;

static void marked_init(marked *m)
{
    m->e = keyset_list(marks(), &m->n);
    m->n_t = keyset_tables(K);
    m->defs = xcalloc(m->n_t ? m->n_t : 1, sizeof *m->defs);
    m->have = xcalloc(m->n_t ? m->n_t : 1, sizeof *m->have);
}

static void marked_done(marked *m)
{
    for (size_t t = 0; t < m->n_t; t++)
        if (m->have[t])
            table_def_free(&m->defs[t]);
    free(m->defs);
    free(m->have);
    free(m->e);
}

static const char *entry_table(const keyset_entry *e)
{
    return keyset_table_name(K, keyset_entry_table(e));
}

static const table_def *marked_def(marked *m, const keyset_entry *e)
{
    size_t t = keyset_entry_table(e);
    if (!m->have[t])
        m->have[t] = staging_describe(keyset_table_name(K, t), &m->defs[t]);
    return m->have[t] ? &m->defs[t] : NULL;
}

/* Every STEP items: the progress line, and whether Esc stopped it. */
static bool step(const char *what, size_t done, size_t n)
{
    if (done == 0 || done % STEP)
        return false;
    display_progress("%s: %zu of %zu marked items (Esc or Ctrl-C stops)", what, done, n);
    return display_interrupted();
}

/* Sends one BatchWriteItem of deletes, again with what was not processed
 * (DynamoDB may leave some under load); false with the error shown. */
static bool batch_delete(const marked *m, size_t from, size_t to)
{
    ddb_req req;
    ddb_req_init(&req, DDB_BATCH_WRITE);
    for (size_t i = from; i < to; i++) {
        ddb_req *a = ddb_req_add(&req, DDB_DELETE);
        ddb_req_set_str(&a->table, entry_table(m->e[i]));
        keyset_entry_key(K, m->e[i], &a->key);
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
        display_error("BatchWriteItem left %zu item%s unprocessed", req.n_acts, s_(req.n_acts));
    ddb_req_done(&req);
    return ok;
}

/* The entries [from, to) of one table in m (to: past its last). */
static size_t table_end(const marked *m, size_t from)
{
    size_t to = from;
    while (to < m->n && keyset_entry_table(m->e[to]) == keyset_entry_table(m->e[from]))
        to++;
    return to;
}

/* The marked items [from, to) of one table as staging has them
 * (staging_bases: BatchGetItem), into bases (to - from of them); false
 * when the table could not be described or a read failed or was stopped
 * (why in d): bases all AV_NONE then. Nothing is staged here. */
static bool read_bases(marked *m, size_t from, size_t to, av *bases, diag *d)
{
    const table_def *def = marked_def(m, m->e[from]);
    if (!def) {
        diag_set(d, ST_IO, "%s could not be described", entry_table(m->e[from]));
        return false;
    }
    av *keys = xcalloc(to - from, sizeof *keys);
    for (size_t i = from; i < to; i++)
        keyset_entry_key(K, m->e[i], &keys[i - from]);
    bool ok = staging_bases(entry_table(m->e[from]), def, keys, to - from, bases, d);
    for (size_t i = 0; i < to - from; i++)
        av_done(&keys[i]);
    free(keys);
    return ok;
}

/* Marked items read and staged a group at a time: the images of one group
 * are all that is held (a million marks stay within the bulk actions'
 * memory), and a group is read with as few requests as BatchGetItem
 * allows (3,000 remote items: one group, 30 requests, 8 at once). */
#define STAGE_GROUP 5000

/* Stages a change on every marked item as staging has it, each group read
 * first (read_bases: the slow part, which Esc stops; a stop stages nothing
 * more and says how many were): its delete (del), else name set to val
 * (NULL: removed). How many were staged in *staged, how many not (gone,
 * or staged to be deleted already) in *gone; false when stopped. */
static bool stage_marked(marked *m, bool del, const char *name, const av *val, size_t *staged, size_t *gone)
{
    size_t cap = m->n < STAGE_GROUP ? m->n : STAGE_GROUP;
    av *bases = xcalloc(cap ? cap : 1, sizeof *bases);
    diag d;
    diag_init(&d);
    *staged = *gone = 0;
    bool ok = true;
    for (size_t from = 0, to; ok && from < m->n; from = to) {
        to = table_end(m, from);
        if (to - from > STAGE_GROUP)
            to = from + STAGE_GROUP;
        if (from && display_interrupted()) {
            diag_set(&d, ST_IO, "stopped by Esc or Ctrl-C");
            ok = false;
            break;
        }
        if (!(ok = read_bases(m, from, to, bases, &d)))
            break;
        for (size_t i = from; i < to; i++) {
            const char *table = entry_table(m->e[i]);
            const table_def *def = marked_def(m, m->e[i]);
            av none = { .type = AV_NONE }, *base = &bases[i - from];
            if (base->type != AV_M)
                (*gone)++;
            else if (del)
                *staged += staging_stage_quiet(table, def, base, &none);
            else
                *staged += staging_set_attr_on(table, def, base, name, val);
            av_done(base);
        }
    }
    free(bases);
    if (ok)
        return true;
    if (*staged == 0)
        display_message("Stopped: nothing staged (%s); the %zu items stay marked", d.msg, m->n);
    else
        display_message("Stopped: %zu of the %zu marked items staged (%s); the marks stay, :discard takes the"
                        " staged ones back", *staged, m->n, d.msg);
    return false;
}

/* Staged (nothing written before :commit), whatever the mode's question:
 * the delete of each marked item. */
static void stage_deletes(marked *m)
{
    size_t staged, gone;
    if (!stage_marked(m, true, NULL, NULL, &staged, &gone))
        return;
    if (gone)
        display_message("Staged the delete of %zu marked item%s (:commit writes them); %zu not staged: gone"
                        " or staged to be deleted already", staged, s_(staged), gone);
    else
        display_message("Staged the delete of %zu marked item%s (:commit writes them)", staged, s_(staged));
}

/* The automatic backups of every table with marks (ui/undo.h). */
static void guard_marks(undo_guard *g)
{
    undo_guard_init(g);
    for (size_t t = 0; t < keyset_tables(K); t++)
        if (keyset_table_count(K, t))
            undo_guard_add(g, keyset_table_name(K, t));
}

static void marked_delete(view *v)
{
    marked m;
    marked_init(&m);
    buf t = BUF_INIT, s = BUF_INIT;
    tables_text(K, &t);
    sample_text(K, &s);
    size_t n = m.n;
    undo_guard g;
    guard_marks(&g);
    if (staging_on()) {
        stage_deletes(&m);
    } else if (display_confirm("Delete %zu marked item%s from %s now (staging is off)? %s. %s", n, s_(n), t.data,
                               s.data, undo_guard_says(&g)) && undo_guard_take(&g)) {
        size_t done = 0;
        bool stopped = false;
        for (size_t from = 0; from < n; from += BATCH_MAX) {
            size_t to = from + BATCH_MAX < n ? from + BATCH_MAX : n;
            if (!batch_delete(&m, from, to))
                break;
            done = to;
            if (done < n && done % (40 * BATCH_MAX) == 0) {
                display_progress("Deleting: %zu of %zu marked items (Esc or Ctrl-C stops)", done, n);
                if ((stopped = display_interrupted()))
                    break;
            }
        }
        /* What was deleted is no longer marked; the rest stays marked. */
        for (size_t i = 0; i < done; i++)
            keyset_remove_entry(K, m.e[i]);
        if (done == n)
            display_message("Deleted %zu item%s from %s (BatchWriteItem)", done, s_(done), t.data);
        else if (stopped)
            display_message("Stopped: deleted %zu of the %zu marked items (BatchWriteItem); %zu stay marked", done,
                            n, n - done);
    }
    buf_done(&t);
    buf_done(&s);
    undo_guard_done(&g);
    marked_done(&m);
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
}

/* One UpdateItem, conditioned on the item existing (never creating one). */
static bool update_one(const char *table, const table_def *def, const av *key, const char *name, const av *val)
{
    ddb_req r;
    ddb_req_init(&r, DDB_UPDATE);
    ddb_req_set_str(&r.table, table);
    av_copy(&r.key, key);
    ddb_req_set_str(&r.cond, "attribute_exists(#k)");
    ddb_req_set_str(&r.update, val ? "SET #a = :v" : "REMOVE #a");
    av_init_list(&r.names, AV_M);
    av s;
    av_init_s(&s, def->pk.name, strlen(def->pk.name));
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
    bool ok = store_exec(display_store(), &r, &res, &err) == ST_OK;
    if (!ok)
        display_ddb_err("UpdateItem", &err);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);
    return ok;
}

/* Staged: the attribute set (val) or removed (NULL) on every marked item
 * as staging has it (stage_marked). */
static void staged_set(marked *m, const char *name, const av *val)
{
    size_t staged, gone;
    if (stage_marked(m, false, name, val, &staged, &gone))
        display_message("%s %s on %zu marked item%s (staged)%s", val ? "Set" : "Removed", name, staged, s_(staged),
                        gone ? "; the others are gone or staged to be deleted: not staged" : "");
}

/* Sets (val) or removes (val NULL) one attribute on every marked item:
 * staged when staging is on, else an UpdateItem each after one question
 * that names the count and keys. */
static void marked_set(view *v, const char *name, const av *val)
{
    marked m;
    marked_init(&m);
    bool staged = staging_on();
    /* A key attribute of any table is refused before anything is asked. */
    for (size_t i = 0; i < m.n; i++) {
        const table_def *def = marked_def(&m, m.e[i]);
        if (!def || table_def_is_key(def, NULL, name)) {
            if (def)
                display_error("%s is a key attribute of %s", name, entry_table(m.e[i]));
            marked_done(&m);
            return;
        }
        /* The next table's first entry. */
        size_t t = keyset_entry_table(m.e[i]);
        while (i + 1 < m.n && keyset_entry_table(m.e[i + 1]) == t)
            i++;
    }
    buf t = BUF_INIT, s = BUF_INIT, vt = BUF_INIT;
    tables_text(K, &t);
    sample_text(K, &s);
    if (val)
        ddbjson_write_value(&vt, val);
    undo_guard g;
    guard_marks(&g);
    /* The question says staging is off: a `:stage on` that did not take
     * is seen before anything is written. */
    bool go = staged ||
              ((val ? display_confirm("Set %s = %.200s on %zu marked item%s of %s now (staging is off)? %s. %s", name,
                                      vt.data, m.n, s_(m.n), t.data, s.data, undo_guard_says(&g))
                    : display_confirm("Remove %s from %zu marked item%s of %s now (staging is off)? %s. %s", name,
                                      m.n, s_(m.n), t.data, s.data, undo_guard_says(&g))) &&
               undo_guard_take(&g));
    undo_guard_done(&g);
    size_t done = 0;
    bool stopped = false;
    if (staged) {
        staged_set(&m, name, val);
        go = false;
    }
    for (; go && done < m.n; done++) {
        if ((stopped = step(val ? "Setting" : "Removing", done, m.n)))
            break;
        av key;
        keyset_entry_key(K, m.e[done], &key);
        bool ok = update_one(entry_table(m.e[done]), marked_def(&m, m.e[done]), &key, name, val);
        av_done(&key);
        if (!ok)
            break;
    }
    if (go && done == m.n)
        display_message("%s %s on %zu marked item%s%s", val ? "Set" : "Removed", name, done, s_(done),
                        staged ? " (staged)" : "");
    else if (stopped)
        display_message("Stopped: %s %s on %zu of the %zu marked items%s", val ? "set" : "removed", name, done, m.n,
                        staged ? " (staged)" : "");
    buf_done(&t);
    buf_done(&s);
    buf_done(&vt);
    marked_done(&m);
    if ((go || staged) && v->ops->request)
        v->ops->request(v, REQ_RELOAD);
}

/* The marked items of one table, read from the store one at a time as an
 * export writes them (export_items' producer). */
typedef struct producer {
    const marked *m;
    size_t from;          /* the table's first entry in m */
    const char *table;
    const table_def *def;
} producer;

static status produce(void *ctx, size_t i, av *out, diag *d)
{
    const producer *p = ctx;
    av key;
    keyset_entry_key(K, p->m->e[p->from + i], &key);
    ddb_req r;
    ddb_req_init(&r, DDB_GET);
    ddb_req_set_str(&r.table, p->table);
    av_move(&r.key, &key);
    r.consistent = true;
    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    status st = store_exec(display_store(), &r, &res, &err);
    if (st != ST_OK)
        st = diag_set(d, st, "GetItem: %s", err.d.msg);
    else if (res.found && res.item.type == AV_M)
        av_move(out, &res.item);   /* an item deleted meanwhile is left out */
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);
    return st;
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
    marked m;
    marked_init(&m);
    if (table_end(&m, 0) != m.n) {
        display_error("The marks are in more than one table: an export is of one table");
        marked_done(&m);
        return;
    }
    const char *table = entry_table(m.e[0]);
    const table_def *def = marked_def(&m, m.e[0]);
    struct stat sb;
    buf s = BUF_INIT;
    sample_text(K, &s);
    /* A file that is there is the user's: replaced only when they say so. */
    bool go = def && (stat(file, &sb) != 0 ||
                      display_confirm("Replace %s (%lld bytes) with the %zu marked item%s of %s? %s", file,
                                      (long long)sb.st_size, m.n, s_(m.n), table, s.data));
    buf_done(&s);
    if (!go) {
        marked_done(&m);
        return;
    }
    producer p = { &m, 0, table, def };
    export_stats es;
    FILE *fp = fopen(file, "w");
    diag d;
    diag_init(&d);
    status st = fp ? export_items(display_store(), table, produce, &p, m.n, f, write_file, fp, &es, &d)
                   : diag_set(&d, ST_IO, "%s: %s", file, strerror(errno));
    if (fp && fclose(fp) != 0 && st == ST_OK)
        st = diag_set(&d, ST_IO, "%s: %s", file, strerror(errno));
    if (st != ST_OK)
        display_diag("Export", st, &d);
    else
        display_message("Exported %llu marked item%s of %s as %s to %s", (unsigned long long)es.items,
                        s_((size_t)es.items), table, export_format_name(f), file);
    marked_done(&m);
}

/* The marked items as DynamoDB JSON, one a line (`ddbx load` reads it). */
static void marked_copy(void)
{
    marked m;
    marked_init(&m);
    buf out = BUF_INIT, what = BUF_INIT;
    uint64_t total = 0;
    for (size_t from = 0; from < m.n;) {
        size_t to = table_end(&m, from);
        producer p = { &m, from, entry_table(m.e[from]), NULL };
        export_stats es;
        diag d;
        diag_init(&d);
        status st = export_items(display_store(), p.table, produce, &p, to - from, EXPORT_JSONL, write_buf, &out,
                                 &es, &d);
        if (st != ST_OK) {
            display_diag("Copy", st, &d);
            buf_done(&out);
            marked_done(&m);
            return;
        }
        total += es.items;
        from = to;
    }
    buf_printf(&what, "%llu marked item%s as DynamoDB JSON lines", (unsigned long long)total,
               s_((size_t)total));
    copy_text(out.data ? out.data : "", out.len, what.data);
    buf_done(&out);
    buf_done(&what);
    marked_done(&m);
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
        size_t n = n_marks();
        if (K)
            keyset_clear(K);
        display_message("Unmarked %zu item%s", n, s_(n));
        return true;
    }
    if (!n_marks()) {
        display_error("No items are marked (m marks one, M a partition, V what is on screen)");
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
            av_done(&val);
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
