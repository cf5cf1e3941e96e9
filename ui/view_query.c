/*
 * view_query — the query bar: index, partition value, sort-key condition,
 * filter (with its names and values). It says before running whether the
 * request is a Query (a partition value is given) or a Scan (none: every
 * item is read), runs it through the store's DynamoDB operations, and
 * shows Count, ScannedCount and the consumed capacity. Further pages load
 * on demand (LastEvaluatedKey), when the selection moves past the last
 * result, or with `:load N` (until N matches) and `:load-all`, which say
 * their progress and stop at Esc or ^C. The page size is shown and set
 * with `:page-size N` (DynamoDB's Limit).
 *
 * Before it runs, the bar predicts the read capacity the whole request
 * will consume, from the store's sizes: the partition's for a Query (the
 * sort-key condition may read less), the table's or index's for a Scan
 * (a filter reads as much: DynamoDB charges what it read before
 * filtering). Each page costs its items' total size rounded up to 4 KB,
 * one unit per 4 KB, half for an eventually consistent read, which the
 * bar's requests are (DynamoDB developer guide, "Read and write
 * operations": capacity unit consumption for Query and Scan;
 * model/size.h: size_predict_read_halves). After, the consumed figure is
 * DynamoDB's ConsumedCapacity of each page, summed.
 *
 * The bar holds values, not text: the partition value and the sort-key
 * condition are avs (read from a field's text as it is typed, with the
 * editor's key reader, edit_parse_key; or given as values by the table
 * view and the builder), each beside the text it shows; a field whose text
 * does not read says why, and the request is not sent. Sort-key
 * conditions as typed: `V` or `= V`, `< V`, `<= V`, `> V`, `>= V`,
 * `between A and B`, `begins_with V`; an operator without its value is
 * refused. The names and values fields read with ddbjson_parse_maps.
 *
 * The key fields' reading and the key condition they make are in
 * ui/view_query_key.c (multi-attribute keys included); what the two files
 * share, the bar's state, in ui/view_query_int.h.
 *
 * `:query PK [SKCOND] [--filter=F --names=J --values=J --index=I]` states
 * the whole query: what it does not give is cleared (the index stays the
 * bar's unless --index= says). The plan lines above the results say every
 * part of what Enter will run: Query or Scan, of what, the key condition
 * with its values, and the filter.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/store.h"
#include "data/store_wscan.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/size.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/prices.h"
#include "ui/marks.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/text.h"
#include "ui/view.h"
#include "ui/view_query_int.h"

#define PAGE_LIMIT 100

/* Items a page (Limit), for every query bar of the session. */
static uint32_t page_limit = PAGE_LIMIT;
/* :load-all on an endpoint: DynamoDB's 1 MB pages, the fewest round
 * trips for what it reads anyway (issue 42). */
static bool whole_pages;

enum { L_FIELD = 1, L_PLAN, L_REQUEST, L_SUMMARY, L_COLHEAD, L_RESULT, L_MORE, L_PAGING, L_PREDICT };

static const char *field_names[F__COUNT] = {
    "Index", "Partition value", "Sort key condition", "Filter", "Names", "Values"
};

typedef struct qline {
    int field;     /* L_FIELD: which; L_PLAN: which row of the plan */
    av item;       /* L_RESULT */
} qline;


static void query_free_line(view *v, line *l)
{
    qline *q = l->data;
    if (!q)
        return;
    av_done(&q->item);
    free(q);
}

static bool is_query(query_view *p)
{
    return p->f[F_PK][0] != '\0';
}

static void set_text(query_view *p, int f, const char *s)
{
    free(p->f[f]);
    p->f[f] = xstrdup(s ? s : "");
    free(p->bad[f]);
    p->bad[f] = NULL;
    p->predicted = false;
}

/* Reads field f's text into the values the request is built from. */
static void read_field(query_view *p, int f)
{
    diag d;
    diag_init(&d);
    av none;
    switch (f) {
    case F_INDEX:
        if (p->f[F_INDEX][0] && !query_cur_index(p))
            query_set_bad(p, F_INDEX, "no index %s", p->f[F_INDEX]);
        break;
    case F_PK:
        query_read_pk(p);
        break;
    case F_SK:
        query_read_sk(p, p->f[F_SK]);
        break;
    case F_NAMES:
        av_done(&p->names);
        if (ddbjson_parse_maps(p->f[F_NAMES], NULL, &p->names, &none, &d) != ST_OK)
            query_set_bad(p, F_NAMES, "names: %s", d.msg);
        break;
    case F_VALUES:
        av_done(&p->values);
        if (ddbjson_parse_maps(NULL, p->f[F_VALUES], &none, &p->values, &d) != ST_OK)
            query_set_bad(p, F_VALUES, "values: %s%s%s", d.path, d.path[0] ? ": " : "", d.msg);
        break;
    default:
        break;
    }
}

/* Whether value v (AV_NONE: none) is typed as key attribute k wants. */
static bool typed_as(const av *v, const key_attr *k)
{
    return v->type == AV_NONE || (k->name && v->type == k->type);
}

/* The index field (a name, "" for the base table): the key values stay
 * when they are typed as the new key schema wants, else their text is
 * read again for it. */
static void set_index(query_view *p, const char *name)
{
    set_text(p, F_INDEX, name);
    read_field(p, F_INDEX);
    const index_def *ix = query_cur_index(p);
    const key_attr *pk = ix ? &ix->pk : &p->def.pk, *sk = ix ? &ix->sk : &p->def.sk;
    bool multi = query_n_hash(p) > 1 || query_n_range(p) > 1 || p->n_pk_more || p->n_sk_eq;
    if (p->bad[F_PK] || !typed_as(&p->pk, pk) || multi) {
        free(p->bad[F_PK]);
        p->bad[F_PK] = NULL;
        read_field(p, F_PK);
    }
    if (p->bad[F_SK] || !typed_as(&p->sk1, sk) || !typed_as(&p->sk2, sk) || multi) {
        free(p->bad[F_SK]);
        p->bad[F_SK] = NULL;
        read_field(p, F_SK);
    }
}

/* A field set from text, as typed. */
static void set_field(query_view *p, int f, const char *s)
{
    if (f == F_INDEX) {
        set_index(p, s);
        return;
    }
    set_text(p, f, s);
    read_field(p, f);
}

/* The partition value as a value, the field showing its text. */
static void set_pk_value(query_view *p, const av *v)
{
    buf t = BUF_INIT;
    if (v->type == AV_L) {
        /* A multi-attribute partition (the table view's): its values in
         * turn, read as typed. */
        for (size_t i = 0; i < v->u.l.len; i++) {
            buf_adds(&t, i ? " | " : "");
            av_scalar_text(&v->u.l.v[i], &t);
        }
        set_text(p, F_PK, t.data ? t.data : "");
        query_read_pk(p);
        buf_done(&t);
        return;
    }
    av_scalar_text(v, &t);
    set_text(p, F_PK, t.data);
    query_clear_pk(p);
    av_copy(&p->pk, v);
    buf_done(&t);
}

void query_sk_text(const query_sk *sk, buf *out)
{
    static const char *const words[] = {
        [KEY_SK_EQ] = "= ", [KEY_SK_LT] = "< ", [KEY_SK_LE] = "<= ", [KEY_SK_GT] = "> ",
        [KEY_SK_GE] = ">= ", [KEY_SK_BETWEEN] = "between ", [KEY_SK_BEGINS] = "begins_with ",
    };
    if (sk->op == KEY_SK_NONE)
        return;
    buf_adds(out, words[sk->op]);
    av_scalar_text(sk->a, out);
    if (sk->op == KEY_SK_BETWEEN) {
        buf_adds(out, " and ");
        av_scalar_text(sk->b, out);
    }
}

/* The sort-key condition as values, the field showing it as it would
 * be typed. */
static void set_sk_value(query_view *p, const query_sk *sk)
{
    buf t = BUF_INIT;
    query_sk_text(sk, &t);
    set_text(p, F_SK, t.data);
    query_clear_sk(p);
    p->sk_op = sk->op;
    if (sk->op != KEY_SK_NONE)
        av_copy(&p->sk1, sk->a);
    if (sk->op == KEY_SK_BETWEEN)
        av_copy(&p->sk2, sk->b);
    buf_done(&t);
}

/* A names or values map as a value, the field showing its JSON. */
static void set_map_value(query_view *p, int f, const av *m)
{
    buf t = BUF_INIT;
    if (m && m->type == AV_M) {
        if (f == F_NAMES)
            ddbjson_write_plain_item(&t, m);
        else
            ddbjson_write_item(&t, m);
    }
    set_text(p, f, t.data);
    av *keep = f == F_NAMES ? &p->names : &p->values;
    av_done(keep);
    if (m && m->type == AV_M)
        av_copy(keep, m);
    buf_done(&t);
}

static void fields(view *v)
{
    query_view *p = v->priv;
    vm_clear(&v->vm);
    for (int f = 0; f < F__COUNT; f++) {
        qline *q = xcalloc(1, sizeof *q);
        q->field = f;
        vm_append(&v->vm, L_FIELD, q);
    }
    vm_append(&v->vm, L_PLAN, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_REQUEST, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_PAGING, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_PREDICT, xcalloc(1, sizeof(qline)));
    if (p->ran || p->error)
        vm_append(&v->vm, L_SUMMARY, xcalloc(1, sizeof(qline)));
}

/* Why the fields cannot make a query_request (the first field that does not
 * read), or NULL. */
static const char *why_not(const query_view *p)
{
    for (int f = 0; f < F__COUNT; f++)
        if (p->bad[f])
            return p->bad[f];
    return NULL;
}

/* Builds the Query or Scan query_request (into an uninitialised req; the
 * caller calls ddb_req_done either way); false with *why set when the
 * fields cannot make one. */
static bool build_request(query_view *p, ddb_req *req, buf *why)
{
    const index_def *ix = query_cur_index(p);
    bool q = is_query(p);
    ddb_req_init(req, q ? DDB_QUERY : DDB_SCAN);
    const char *bad = why_not(p);
    if (bad) {
        buf_adds(why, bad);
        return false;
    }
    if (p->names.type == AV_M)
        av_copy(&req->names, &p->names);
    if (p->values.type == AV_M)
        av_copy(&req->values, &p->values);
    if (q && !query_key_cond(p, req, why))
        return false;
    ddb_req_set_str(&req->table, p->table);
    if (ix)
        ddb_req_set_str(&req->index, ix->name);
    if (p->f[F_FILTER][0])
        ddb_req_set_str(&req->filter, p->f[F_FILTER]);
    req->limit = whole_pages ? 0 : page_limit;
    req->rcc = DDB_RCC_TOTAL;
    if (p->lek.type == AV_M)
        av_copy(&req->start, &p->lek);
    return true;
}

/* Runs one page; appends its items. Returns how many lines were added. */
static size_t run_page(view *v)
{
    query_view *p = v->priv;
    ddb_req req;
    ddb_res res;
    ddb_err err;
    buf why = BUF_INIT;
    size_t added = 0;
    ddb_res_init(&res);
    ddb_err_init(&err);
    free(p->error);
    p->error = NULL;
    if (!build_request(p, &req, &why)) {
        p->error = buf_steal(&why);
        goto out;
    }
    if (store_exec(display_store(), &req, &res, &err) != ST_OK) {
        buf msg = BUF_INIT;
        display_ddb_err_text(&msg, NULL, &err);
        display_ddb_err(NULL, &err);
        p->error = buf_steal(&msg);
        goto out;
    }
    p->ran = true;
    p->scan = !is_query(p);
    p->count += (long long)res.count;
    p->scanned += (long long)res.scanned;
    p->capacity += ddb_res_units(&res);
    p->pages++;
    av_done(&p->lek);
    av_move(&p->lek, &res.last_key);
    /* Drop a previous "more" line before appending. */
    if (v->vm.n && v->vm.lines[v->vm.n - 1].kind == L_MORE)
        vm_trim(&v->vm, 0, v->vm.n - 1);
    for (size_t i = 0; i < res.n_items; i++) {
        qline *q = xcalloc(1, sizeof *q);
        av_move(&q->item, &res.items[i]);
        vm_append(&v->vm, L_RESULT, q);
        added++;
    }
    if (p->lek.type == AV_M) {
        vm_append(&v->vm, L_MORE, xcalloc(1, sizeof(qline)));
        added++;
    }
out:
    buf_done(&why);
    ddb_req_done(&req);
    ddb_res_done(&res);
    ddb_err_done(&err);
    return added;
}

static void run(view *v)
{
    query_view *p = v->priv;
    p->count = p->scanned = p->pages = p->gone = 0;
    p->stale = false;
    p->capacity = 0;
    av_done(&p->lek);
    p->ran = false;
    free(p->error);
    p->error = NULL;
    fields(v);
    size_t summary_line = v->vm.n;
    vm_append(&v->vm, L_SUMMARY, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_COLHEAD, xcalloc(1, sizeof(qline)));
    run_page(v);
    vm_select(&v->vm, summary_line);
}

static bool query_open(view *v, const void *arg)
{
    const query_arg *a = arg;
    query_view *p = v->priv;
    diag d;
    diag_init(&d);
    p->table = xstrdup(a->table);
    for (int f = 0; f < F__COUNT; f++)
        set_text(p, f, "");
    status st = store_describe(display_store(), a->table, &p->def, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return false;
    }
    p->have_def = true;
    set_index(p, a->index);
    if (a->pk_text)
        set_field(p, F_PK, a->pk_text);
    else if (a->pk)
        set_pk_value(p, a->pk);
    if (a->sk_text)
        set_field(p, F_SK, a->sk_text);
    else
        set_sk_value(p, &a->sk);
    set_field(p, F_FILTER, a->filter);
    set_map_value(p, F_NAMES, a->names);
    set_map_value(p, F_VALUES, a->values);
    fields(v);
    if (a->run)
        run(v);
    else
        vm_select(&v->vm, F_PK);
    return true;
}

static void query_done(view *v)
{
    query_view *p = v->priv;
    for (int f = 0; f < F__COUNT; f++) {
        free(p->f[f]);
        free(p->bad[f]);
    }
    query_clear_pk(p);
    query_clear_sk(p);
    av_done(&p->names);
    av_done(&p->values);
    av_done(&p->lek);
    free(p->error);
    buf_done(&p->predict);
    if (p->have_def)
        table_def_free(&p->def);
    free(p->table);
}

static void summary(query_view *p, buf *out, bool parts);

static void query_title(view *v, buf *out)
{
    query_view *p = v->priv;
    buf_printf(out, "%s  query bar  ", p->table);
    if (p->ran || p->error)
        summary(p, out, true);
    else
        buf_adds(out, "(Enter: edit a field or run; q: back)");
}

/* What Enter runs, first line: a Query or a Scan, on what. */
static void plan(query_view *p, buf *out)
{
    const char *on = p->f[F_INDEX][0] ? p->f[F_INDEX] : "the base table";
    const char *what = is_query(p) ? "Query on" : "Scan of";
    if (why_not(p))
        buf_printf(out, "Will not run the %s %s: a field does not read", what, on);
    else
        buf_printf(out, "Will run: %s %s   [Enter: run]", what, on);
}

/* The lines under it: every part of the request, the key condition with
 * its values and the filter; or why a field does not read. Wrapped to the
 * screen's width (request_wrap), so no part is cut away. */
static void request_line(query_view *p, buf *out)
{
    const char *bad = why_not(p);
    if (bad) {
        buf_adds(out, bad);
        return;
    }
    if (!is_query(p)) {
        buf_adds(out, "every item (no partition value)");
    } else {
        query_key_text(p, out);
    }
    if (p->f[F_FILTER][0])
        buf_printf(out, ", then filter: %s", p->f[F_FILTER]);
}

#define REQUEST_ROWS_MAX 16

/* The request text at this width: where each row starts (at most
 * REQUEST_ROWS_MAX; the last takes the rest), the first indented two
 * columns, the others four. Returns the rows. */
static size_t request_wrap(query_view *p, int width, buf *text, size_t *start)
{
    buf_reset(text);
    request_line(p, text);
    size_t k = 0, at = 0, len = text->len;
    do {
        int room = width - (k ? 4 : 2);
        room = room < 8 ? 8 : room;
        start[k++] = at;
        size_t end = at + text_fit_row(text->data + at, len - at, room, (room + 1) / 2);
        at = end < len && text->data[end] == ' ' ? end + 1 : end;
    } while (at < len && k < REQUEST_ROWS_MAX);
    start[k] = len;
    return k;
}

/* Row `row` of the request query_text (its indent included). */
static void request_row(query_view *p, int row, buf *out)
{
    buf text = BUF_INIT;
    size_t start[REQUEST_ROWS_MAX + 1];
    size_t rows = request_wrap(p, term_cols(), &text, start);
    if ((size_t)row < rows) {
        buf_adds(out, row ? "    " : "  ");
        buf_add(out, text.data + start[row], (row + 1 < (int)rows ? start[row + 1] : text.len) - start[row]);
        while (out->len && out->data[out->len - 1] == ' ')
            out->data[--out->len] = '\0';
    }
    buf_done(&text);
}

/* As many request lines under the plan line as the request needs at this
 * width (the same lines stay selected and on top). */
static void fit_request_lines(view *v)
{
    query_view *p = v->priv;
    vm *m = &v->vm;
    buf text = BUF_INIT;
    size_t start[REQUEST_ROWS_MAX + 1];
    size_t want = request_wrap(p, term_cols(), &text, start), have = 0, first = F__COUNT + 1;
    buf_done(&text);
    while (first + have < m->n && m->lines[first + have].kind == L_REQUEST)
        have++;
    if (have > want) {
        vm_cut(m, first + want, first + have);
    } else {
        for (; have < want; have++) {
            qline *q = xcalloc(1, sizeof *q);
            q->field = (int)have;
            vm_insert(m, first + have, &(line){ L_REQUEST, q }, 1);
        }
    }
    vm_select(m, m->cursor);
}

/* "Query: Count 4, ScannedCount 4, ConsumedCapacity 0.5 RCU (predicted
 * 0.5), 1 page"; with parts, as title parts (ui/text.h): on a narrow
 * screen the prediction goes first, then the pages, ScannedCount and the
 * capacity; the count stays. */
static void summary(query_view *p, buf *out, bool parts)
{
    if (p->error) {
        buf_printf(out, "Error: %s", p->error);
        return;
    }
    buf_printf(out, "%s: Count %lld", p->scan ? "Scan" : "Query", p->count);
    if (p->gone)
        buf_printf(out, " (%lld deleted since)", p->gone);
    if (p->stale)
        buf_adds(out, " (written since: Enter runs it again)");
    if (parts)
        text_title_part(out, 3);
    buf_printf(out, ", ScannedCount %lld", p->scanned);
    if (parts)
        text_title_part(out, 2);
    buf_printf(out, ", ConsumedCapacity %g RCU", p->capacity);
    if (p->predict_units >= 0) {
        if (parts)
            text_title_part(out, 5);
        buf_printf(out, " (predicted %g)", p->predict_units);
    }
    if (parts)
        text_title_part(out, 4);
    buf_printf(out, ", %lld page%s%s", p->pages, p->pages == 1 ? "" : "s",
               p->lek.type == AV_M ? "  (more pages)" : "");

}

static void paging(buf *out)
{
    buf_printf(out, "%u item%s a page (:page-size N); more: G, :load N (matches), :load-all", page_limit,
               page_limit == 1 ? "" : "s");
}

/* The items and bytes the request reads at most: the partition's for a
 * Query, the table's or index's for a Scan; false when not known. */
static bool read_size(query_view *p, uint64_t *items, uint64_t *bytes, buf *what)
{
    const index_def *ix = query_cur_index(p);
    diag d;
    diag_init(&d);
    if (p->f[F_INDEX][0] && !ix)
        return false;
    if (!is_query(p)) {
        table_stats ts;
        if (store_stats(display_store(), p->table, ix ? ix->name : NULL, &ts, &d) != ST_OK)
            return false;
        *items = ts.items;
        *bytes = ts.bytes;
        buf_printf(what, "%s%s", ix ? "the index, " : "the table, ", ts.approximate ? "approximately " : "");
        return true;
    }
    if (p->pk.type == AV_NONE)
        return false;
    /* A multi-attribute partition is named by the list of its values. */
    av list = { .type = AV_NONE };
    if (p->n_pk_more) {
        av_init_list(&list, AV_L);
        for (size_t i = 0; i < 1 + p->n_pk_more; i++) {
            av c;
            av_copy(&c, i ? &p->pk_more[i - 1] : &p->pk);
            av_list_push(&list, &c);
        }
    }
    part_info part;
    bool found = false;
    status st = store_partition(display_store(), p->table, ix ? ix->name : NULL,
                                p->n_pk_more ? &list : &p->pk, &part, &found, &d);
    av_done(&list);
    store_info info;
    store_get_info(display_store(), &info);
    if (st != ST_OK || (!found && info.remote))
        return false;
    *items = found ? part.items : 0;
    *bytes = found ? part.bytes : 0;
    if (found)
        av_done(&part.pk);
    buf_adds(what, "the partition, ");
    return true;
}

/* Recomputes the prediction when the fields changed. */
static void predict(query_view *p)
{
    if (p->predicted)
        return;
    p->predicted = true;
    buf_reset(&p->predict);
    uint64_t items = 0, bytes = 0, pages = 0;
    buf what = BUF_INIT;
    if (!read_size(p, &items, &bytes, &what)) {
        p->predict_units = -1;
        buf_adds(&p->predict, "Predicted capacity: not known (no size for it in the store)");
    } else {
        /* A Scan read to its end costs at least the minimum read of each
         * of an on-demand table's partitions, as the store charges it. */
        uint64_t last_min = is_query(p) ? 0 : size_scan_min_halves(false);
        uint64_t halves = size_predict_read_halves(items, bytes, page_limit, false, last_min, &pages);
        p->predict_units = (double)halves / 2.0;
        /* A sort-key condition may read less than the partition. */
        buf_printf(&p->predict, "Predicted: %s%g RCU in %llu page%s (%s",
                   is_query(p) && p->sk_op != KEY_SK_NONE ? "at most " : "", p->predict_units,
                   (unsigned long long)pages, pages == 1 ? "" : "s", what.data);
        fmt_bytes(&p->predict, bytes);
        buf_adds(&p->predict, ", eventually consistent)");
    }
    buf_done(&what);
}

static void query_draw(view *v, size_t i, int row, int width)
{
    query_view *p = v->priv;
    line *l = &v->vm.lines[i];
    qline *q = l->data;
    buf b = BUF_INIT;
    switch (l->kind) {
    case L_FIELD: {
        const char *hint = "";
        buf parts = BUF_INIT;
        if (q->field == F_INDEX)
            hint = p->f[F_INDEX][0] ? "" : "(base table)";
        /* A multi-attribute key's field says its parts when empty. */
        if ((q->field == F_PK && query_n_hash(p) > 1) || (q->field == F_SK && query_n_range(p) > 1)) {
            buf_adds(&parts, "- (");
            query_parts_names(p, q->field == F_PK, &parts);
            buf_adds(&parts, q->field == F_PK ? ")" : ": equal values, the last part any condition)");
            hint = parts.data;
        }
        int x = term_puts(row, 0, 20, field_names[q->field], ROLE_COLHEAD);
        x = x < 20 ? 20 : x;
        const char *val = p->f[q->field];
        if (*val)
            term_put(row, x, width - x, val, strlen(val), ROLE_KEY, true);
        else
            term_puts(row, x, width - x, *hint ? hint : "-", ROLE_DIM);
        buf_done(&parts);
        break;
    }
    case L_PLAN:
        plan(p, &b);
        term_put(row, 0, width, b.data, b.len, why_not(p) ? ROLE_ERROR : ROLE_PROMPT, true);
        break;
    case L_REQUEST:
        request_row(p, q->field, &b);
        term_put(row, 0, width, b.data, b.len, why_not(p) ? ROLE_ERROR : ROLE_PROMPT, true);
        break;
    case L_SUMMARY:
        summary(p, &b, false);
        term_put(row, 0, width, b.data, b.len, p->error ? ROLE_ERROR : ROLE_GROUP, true);
        break;
    case L_PAGING:
        paging(&b);
        term_put(row, 0, width, b.data, b.len, ROLE_DIM, true);
        break;
    case L_PREDICT:
        predict(p);
        term_put(row, 0, width, p->predict.data, p->predict.len, ROLE_DIM, true);
        break;
    case L_COLHEAD:
        cols_draw_head(&p->cols, row, 2, width, v->vm.hscroll);
        break;
    case L_RESULT:
        if (p->have_def)
            marks_draw_gutter(p->table, &p->def, &q->item, row);
        cols_draw_item(&p->cols, &q->item, row, 2, width, v->vm.hscroll, &p->def, query_cur_index(p));
        break;
    case L_MORE:
        term_puts(row, 2, width - 2, "... more (next page loads when you move here)", ROLE_DIM);
        break;
    }
    buf_done(&b);
}

/* The request lines fitted to the width; result columns follow the items
 * on screen, keys first. */
static void query_layout(view *v)
{
    query_view *p = v->priv;
    vm *m = &v->vm;
    fit_request_lines(v);
    const index_def *ix = query_cur_index(p);
    const char *first[4] = { ix ? ix->pk.name : NULL, ix ? ix->sk.name : NULL,
                             p->def.pk.name, p->def.sk.name };
    cols_fit_lines(&p->cols, m, L_RESULT, offsetof(qline, item), first, 4, false);
}

static const char *query_kind_name(int kind)
{
    switch (kind) {
    case L_FIELD: return "field";
    case L_PLAN: return "plan";
    case L_REQUEST: return "request";
    case L_SUMMARY: return "summary";
    case L_COLHEAD: return "columns";
    case L_RESULT: return "result";
    case L_PAGING: return "paging";
    case L_PREDICT: return "predict";
    default: return "more";
    }
}

static void query_text(view *v, size_t i, buf *out)
{
    query_view *p = v->priv;
    line *l = &v->vm.lines[i];
    qline *q = l->data;
    switch (l->kind) {
    case L_FIELD: buf_printf(out, "%s: %s", field_names[q->field], p->f[q->field]); break;
    case L_PLAN: plan(p, out); break;
    case L_REQUEST: request_row(p, q->field, out); break;
    case L_SUMMARY: summary(p, out, false); break;
    case L_PAGING: paging(out); break;
    case L_PREDICT: predict(p); buf_add(out, p->predict.data, p->predict.len); break;
    case L_COLHEAD: cols_heads_text(&p->cols, out); break;
    case L_RESULT: cols_item_text(&q->item, out); break;
    default: buf_adds(out, "more"); break;
    }
}

static size_t query_more(view *v, int dir)
{
    query_view *p = v->priv;
    if (dir < 0 || p->lek.type != AV_M)
        return 0;
    size_t before = v->vm.n;
    run_page(v);
    return v->vm.n > before ? v->vm.n - before : 0;
}

/* The most loaded results read again, one GetItem each, after a write. */
#define GONE_CHECK_MAX 20000

/* After a write from this view (REQ_RELOAD: :marked delete, a delete):
 * the results whose item is no longer in the table leave the list, and
 * the summary counts them (Count and ScannedCount stay what the request
 * returned). Past GONE_CHECK_MAX loaded results, or on an endpoint, the
 * list stays and the summary says it was written since. */
static void drop_gone(view *v)
{
    query_view *p = v->priv;
    store_info info;
    store_get_info(display_store(), &info);
    size_t results = 0;
    for (size_t i = 0; i < v->vm.n; i++)
        results += v->vm.lines[i].kind == L_RESULT;
    if (!results || !p->have_def)
        return;
    if (info.remote || results > GONE_CHECK_MAX) {
        p->stale = true;
        return;
    }
    for (size_t i = v->vm.n; i-- > 0;) {
        if (v->vm.lines[i].kind != L_RESULT)
            continue;
        av now;
        if (!edit_read_item(p->table, &p->def, &((qline *)v->vm.lines[i].data)->item, &now))
            break;
        bool gone = now.type != AV_M;
        av_done(&now);
        if (gone) {
            vm_cut(&v->vm, i, i + 1);
            p->gone++;
        }
    }
}

static enum req query_request(view *v, enum req r)
{
    query_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_QUERY) {
        run(v);
        return REQ_NONE;
    }
    if (r == REQ_RELOAD) {
        drop_gone(v);
        return REQ_NONE;
    }
    if (r != REQ_ENTER || !l)
        return r;
    if (l->kind == L_FIELD) {
        qline *q = l->data;
        buf in = BUF_INIT, label = BUF_INIT;
        buf_printf(&label, "%s: ", field_names[q->field]);
        if (display_prompt(label.data, p->f[q->field], &in))
            set_field(p, q->field, in.data ? in.data : "");
        buf_done(&in);
        buf_done(&label);
    } else if (l->kind == L_PLAN || l->kind == L_REQUEST || l->kind == L_SUMMARY || l->kind == L_PAGING ||
               l->kind == L_PREDICT) {
        run(v);
    } else if (l->kind == L_RESULT) {
        item_arg a = { p->table, p->f[F_INDEX][0] ? p->f[F_INDEX] : NULL, &((qline *)l->data)->item };
        display_push(&view_item_ops, &a);
    } else if (l->kind == L_MORE) {
        run_page(v);
    }
    return REQ_NONE;
}

/* A whole number from min to max, or 0 with a message saying what. */
static unsigned long whole_arg(const char *cmd, const char *s, unsigned long min, unsigned long max)
{
    char *end;
    unsigned long n = s && *s >= '0' && *s <= '9' ? strtoul(s, &end, 10) : 0;
    if (!s || *s < '0' || *s > '9' || *end || n < min || n > max) {
        display_error(":%s takes a whole number from %lu to %lu, not \"%s\"", cmd, min, max, s ? s : "");
        return 0;
    }
    return n;
}

/* :page-size N: DynamoDB's Limit, at least 1; the next page reads N. */
static void page_size_command(query_view *p, int argc, char **argv)
{
    if (argc != 2) {
        display_message("%u item%s a page (:page-size N sets it)", page_limit, page_limit == 1 ? "" : "s");
        return;
    }
    unsigned long n = whole_arg("page-size", argv[1], 1, 1000000);
    if (!n)
        return;
    page_limit = (uint32_t)n;
    p->predicted = false;
    display_message("%u item%s a page from the next page read", page_limit, page_limit == 1 ? "" : "s");
}

/* "Loading: 3 pages, 300 items scanned, 2 matches, 4.5 RCU" */
static void progress(const query_view *p, const char *what, buf *out)
{
    buf_printf(out, "%s: %lld page%s, %lld item%s scanned, %lld match%s, %g RCU", what, p->pages,
               p->pages == 1 ? "" : "s", p->scanned, p->scanned == 1 ? "" : "s", p->count,
               p->count == 1 ? "" : "es", p->capacity);
}

/* Reads pages until `want` matches (0: all) or the end, saying the
 * progress after each; Esc or ^C stops it between pages. */
static void load_pages(view *v, long long want)
{
    query_view *p = v->priv;
    if (!p->ran && !p->error)
        run(v);
    bool stopped = false;
    while (!p->error && p->lek.type == AV_M && (!want || p->count < want)) {
        if (display_interrupted()) {
            stopped = true;
            break;
        }
        run_page(v);
        buf b = BUF_INIT;
        progress(p, "Loading", &b);
        display_progress("%s (Esc stops)", b.data);
        buf_done(&b);
    }
    if (p->error)
        return;
    buf b = BUF_INIT;
    progress(p, stopped ? "Stopped" : "Loaded", &b);
    display_message("%s%s", b.data, p->lek.type == AV_M ? " (more pages)" : ", the end");
    buf_done(&b);
}

/* :load-all of a Scan on an endpoint in parallel Scan segments
 * (data/store_wscan.h): the whole Scan read again from its start, its
 * results shown in segment order (segment 0's, then 1's, ...), as the
 * status line says; Esc stops every segment in flight and keeps what was
 * read. */
static void load_segments(view *v, int segs)
{
    query_view *p = v->priv;
    ddb_req req;
    buf why = BUF_INIT;
    av_done(&p->lek);
    bool built = build_request(p, &req, &why);
    buf_done(&why);
    store_wscan *w = NULL;
    diag d;
    diag_init(&d);
    store_wscan_opts o = { .scan = &req, .segments = segs };
    if (!built || store_wscan_open(display_store(), &o, &w, &d) != ST_OK) {
        ddb_req_done(&req);
        if (built)
            display_diag(":load-all", d.code, &d);
        return;
    }
    ddb_req_done(&req);
    /* The results go: the Scan is read again from its start. */
    size_t keep = 0;
    while (keep < v->vm.n && v->vm.lines[keep].kind != L_RESULT && v->vm.lines[keep].kind != L_MORE)
        keep++;
    vm_trim(&v->vm, 0, keep);
    p->count = p->scanned = p->pages = 0;
    p->capacity = 0;
    store_wscan_stats ss = { 0 };
    const char *how = "Loaded";
    for (;;) {
        av *items;
        size_t n;
        bool end;
        status st = store_wscan_next(w, &items, &n, &end, &d);
        store_wscan_get_stats(w, &ss);
        p->count = (long long)ss.count;
        p->scanned = (long long)ss.scanned;
        p->pages = (long long)ss.pages;
        p->capacity = ss.rcu;
        for (size_t i = 0; st == ST_OK && i < n; i++) {
            qline *q = xcalloc(1, sizeof *q);
            av_move(&q->item, &items[i]);
            vm_append(&v->vm, L_RESULT, q);
        }
        if (st != ST_OK) {
            display_diag(":load-all", d.code, &d);
            how = "Stopped";
            break;
        }
        if (end)
            break;
        buf b = BUF_INIT;
        progress(p, "Loading", &b);
        display_progress("%s; %d of %d Scan segments done (Esc stops)", b.data, ss.segments_done, segs);
        buf_done(&b);
        if (display_interrupted()) {
            how = "Stopped";
            break;
        }
    }
    store_wscan_free(w);
    p->ran = true;
    p->scan = true;
    buf b = BUF_INIT;
    progress(p, how, &b);
    if (*how == 'S')
        display_error("%s; %d of %d Scan segments read, the rest not (:load-all reads it again)", b.data,
                      ss.segments_done, segs);
    else
        display_message("%s, the end: %d Scan segments, in segment order", b.data, segs);
    buf_done(&b);
}

/* :load-all of a Scan on an endpoint reads the whole table or index: it
 * says what that costs (DescribeTable's size) and asks first. */
static bool may_load_all(query_view *p)
{
    store_info info;
    store_get_info(display_store(), &info);
    if (!info.remote || is_query(p))
        return true;
    const index_def *ix = query_cur_index(p);
    buf cost = BUF_INIT;
    prices_read_all_plan(p->table, ix ? ix->name : NULL, &cost);
    bool ok = display_confirm("Load every page of the Scan of %s%s%s: it reads all of it, %s?", p->table,
                              ix ? " " : "", ix ? ix->name : "", cost.data);
    buf_done(&cost);
    if (!ok)
        display_message("Not loaded: nothing more was read");
    return ok;
}

static void load_command(view *v, int argc, char **argv)
{
    if (strcmp(argv[0], "load") != 0) {
        store_info info;
        store_get_info(display_store(), &info);
        diag d;
        diag_init(&d);
        query_view *p = v->priv;
        const index_def *ix = query_cur_index(p);
        int segs = info.remote && !is_query(p) ? store_wscan_plan(display_store(), p->table, ix ? ix->name : NULL, &d)
                                                : 1;
        if (argc == 1 && segs > 1 && may_load_all(p)) {
            load_segments(v, segs);
        } else if (argc == 1 && segs < 2 && may_load_all(p)) {
            whole_pages = info.remote;
            load_pages(v, 0);
            whole_pages = false;
        } else if (argc == 1) {
            return;
        } else
            display_error(":load-all takes no argument (:load N loads until N matches)");
        return;
    }
    if (argc != 2) {
        display_error("usage: :load N (until N matches), :load-all");
        return;
    }
    unsigned long n = whole_arg("load", argv[1], 1, 1000000000);
    if (n)
        load_pages(v, (long long)n);
}

/* :query [PK [SKCOND]] [--index=I --pk=V --sk=C --filter=F --names=J
 * --values=J] states the whole query: a field it does not give is
 * cleared, the index stays unless given (the bar's table and index are
 * where it runs, not part of the query). The words after PK are one
 * sort-key condition (begins_with V, between A and B), not each a
 * condition replacing the last; on a multi-attribute key `|` joins words
 * into PK first (query_words). :query alone runs the fields as they are;
 * :scan states a Scan (no partition value, no sort-key condition). */
static void query_state_command(view *v, int argc, char **argv)
{
    query_view *p = v->priv;
    static const char *opts[F__COUNT] = { "index", "pk", "sk", "filter", "names", "values" };
    const char *given[F__COUNT] = { 0 };
    bool scan = strcmp(argv[0], "scan") == 0;
    char **words = xcalloc((size_t)argc, sizeof *words);
    int n = 0;
    for (int i = 1; i < argc; i++) {
        bool opt = false;
        for (int f = 0; f < F__COUNT && !opt; f++) {
            size_t len = strlen(opts[f]);
            if (strncmp(argv[i], "--", 2) == 0 && strncmp(argv[i] + 2, opts[f], len) == 0 &&
                argv[i][2 + len] == '=') {
                given[f] = argv[i] + 3 + len;
                opt = true;
            }
        }
        if (!opt)
            words[n++] = argv[i];
    }
    /* The index first: its key says how many values PK takes. */
    if (given[F_INDEX])
        set_field(p, F_INDEX, given[F_INDEX]);
    buf pk = BUF_INIT, skc = BUF_INIT;
    query_words(words, n, query_n_hash(p), &pk, &skc);
    if (n > 0)
        given[F_PK] = pk.data ? pk.data : "";
    if (skc.len)
        given[F_SK] = skc.data;
    if (argc > 1 || scan)
        for (int f = F_PK; f < F__COUNT; f++)
            set_field(p, f, scan && (f == F_PK || f == F_SK) ? "" : given[f]);
    buf_done(&pk);
    buf_done(&skc);
    free(words);
    run(v);
}

static bool query_command(view *v, int argc, char **argv)
{
    query_view *p = v->priv;
    if (strcmp(argv[0], "query") == 0 || strcmp(argv[0], "scan") == 0) {
        query_state_command(v, argc, argv);
        return true;
    }
    if (strcmp(argv[0], "page-size") == 0 || strcmp(argv[0], "page_size") == 0) {
        page_size_command(p, argc, argv);
        return true;
    }
    if (strcmp(argv[0], "load") == 0 || strcmp(argv[0], "load-all") == 0 || strcmp(argv[0], "load_all") == 0) {
        load_command(v, argc, argv);
        return true;
    }
    if ((strcmp(argv[0], "save-pattern") == 0 || strcmp(argv[0], "save_pattern") == 0) &&
        argc == 2) {
        ddb_req req;
        buf why = BUF_INIT;
        if (build_request(p, &req, &why))
            view_patterns_save(argv[1], &req);
        else
            display_error("Nothing to save: %s", why.data);
        ddb_req_done(&req);
        buf_done(&why);
        return true;
    }
    if (strcmp(argv[0], "index") == 0 && argc == 2) {
        set_field(p, F_INDEX, strcmp(argv[1], "base") == 0 ? "" : argv[1]);
        fields(v);
        return true;
    }
    return false;
}

/* The selected result: for the condition builder, `t`, marks and
 * copying. */
static void query_context(view *v, cond_arg *out)
{
    query_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    out->table = p->table;
    out->index = p->f[F_INDEX][0] ? p->f[F_INDEX] : NULL;
    out->item = l && l->kind == L_RESULT ? &((qline *)l->data)->item : NULL;
}

static bool query_typed_request(view *v, ddb_req *out, buf *why)
{
    return build_request(v->priv, out, why);
}

static const av *query_line_item(view *v, size_t i)
{
    const line *l = vm_line(&v->vm, i);
    return l && l->kind == L_RESULT ? &((qline *)l->data)->item : NULL;
}

const view_ops view_query_ops = {
    .context = query_context,
    .typed_request = query_typed_request,
    .line_item = query_line_item,
    .results = true,
    .name = "query",
    .priv_size = sizeof(query_view),
    .open = query_open,
    .title = query_title,
    .layout = query_layout,
    .draw = query_draw,
    .request = query_request,
    .done = query_done,
    .more = query_more,
    .free_line = query_free_line,
    .kind_name = query_kind_name,
    .text = query_text,
    .command = query_command,
};
