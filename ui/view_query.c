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
 * Sort-key conditions: `V` or `= V`, `< V`, `<= V`, `> V`, `>= V`,
 * `between A and B`, `begins_with V`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/size.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/marks.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/view.h"

#define PAGE_LIMIT 100

/* Items a page (Limit), for every query bar of the session. */
static uint32_t page_limit = PAGE_LIMIT;

enum { L_FIELD = 1, L_PLAN, L_SUMMARY, L_COLHEAD, L_RESULT, L_MORE, L_PAGING, L_PREDICT };
enum { F_INDEX, F_PK, F_SK, F_FILTER, F_NAMES, F_VALUES, F__COUNT };

static const char *field_names[F__COUNT] = {
    "Index", "Partition value", "Sort key condition", "Filter", "Names", "Values"
};

typedef struct qline {
    int field;     /* L_FIELD */
    av item;       /* L_RESULT */
} qline;

typedef struct query_view {
    char *table;
    table_def def;
    bool have_def;
    char *f[F__COUNT];
    bool ran;
    bool scan;           /* what ran */
    long long count, scanned;
    double capacity;
    av lek;              /* LastEvaluatedKey of the last page; AV_NONE: none */
    long long pages;     /* pages read by this run */
    buf predict;         /* the prediction line, for the fields as they are */
    bool predicted;      /* predict is for the fields as they are */
    double predict_units;/* the prediction; < 0: not known */
    char *error;
    cols cols;           /* fitted to the results on screen (layout) */
} query_view;

static void free_line(view *v, line *l)
{
    qline *q = l->data;
    if (!q)
        return;
    av_free(&q->item);
    free(q);
}

static void set_field(query_view *p, int f, const char *s)
{
    free(p->f[f]);
    p->f[f] = xstrdup(s ? s : "");
    p->predicted = false;
}

static const index_def *cur_index(query_view *p)
{
    return p->f[F_INDEX][0] ? table_def_index(&p->def, p->f[F_INDEX]) : NULL;
}

static bool is_query(query_view *p)
{
    return p->f[F_PK][0] != '\0';
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
    vm_append(&v->vm, L_PAGING, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_PREDICT, xcalloc(1, sizeof(qline)));
    if (p->ran || p->error)
        vm_append(&v->vm, L_SUMMARY, xcalloc(1, sizeof(qline)));
}

/* A names or values field as a map (DynamoDB JSON for values, plain
 * JSON of strings for names, as the user types them); blank: none. */
static status field_map(const char *text, bool names, av *out, diag *d)
{
    out->type = AV_NONE;
    size_t n = strlen(text), i = 0;
    while (i < n && (text[i] == ' ' || text[i] == '\n' || text[i] == '\t'))
        i++;
    if (i == n)
        return ST_OK;
    status st = names ? ddbjson_parse_plain_item(text, n, out, d) : ddbjson_parse_item(text, n, out, d);
    if (st == ST_OK && names)
        for (size_t k = 0; k < out->u.m.len; k++)
            if (out->u.m.v[k].val.type != AV_S) {
                st = diag_set(d, ST_VALIDATION, "the name of %.*s must be a JSON string",
                              (int)out->u.m.v[k].name_len, out->u.m.v[k].name);
                break;
            }
    if (st != ST_OK)
        av_free(out);
    return st;
}

/* Whether the placeholder appears as a whole token in text (:pk in
 * ":pk_x" is not :pk). */
static bool uses_token(const char *text, const char *tok)
{
    size_t len = strlen(tok);
    for (const char *at = strstr(text, tok); at; at = strstr(at + 1, tok)) {
        char c = at[len];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return true;
    }
    return false;
}

/* A placeholder of our own for the key condition: base, else base_1,
 * base_2, ... the first that the user's filter, names and values do not
 * use (a filter built on attributes named pk or sk1 brings its own :pk
 * and :sk1), so the two never collide in one map. */
static void own_placeholder(const query_view *p, const av *names, const av *values,
                            const char *base, char *out, size_t n)
{
    for (unsigned k = 0;; k++) {
        if (k)
            snprintf(out, n, "%s_%u", base, k);
        else
            snprintf(out, n, "%s", base);
        size_t len = strlen(out);
        if (!uses_token(p->f[F_FILTER], out) && !(names->type && av_map_get(names, out, len)) &&
            !(values->type && av_map_get(values, out, len)))
            return;
    }
}

/* Adds name -> value (copied) to a map that may be absent (AV_NONE). */
static void map_add(av *m, const char *name, const av *val)
{
    if (m->type != AV_M)
        av_init_list(m, AV_M);
    av c;
    av_copy(&c, val);
    av_map_put(m, name, strlen(name), &c);
}

static void map_add_name(av *m, const char *name, const char *attr)
{
    av s;
    av_init_s(&s, attr, strlen(attr));
    map_add(m, name, &s);
    av_free(&s);
}

/* The sort-key condition field, `V`, `= V`, `< V`, `<= V`, `> V`,
 * `>= V`, `between A and B`, `begins_with V`, into the key condition
 * (after "#pk = :pk") and the values map. */
static bool sort_key_cond(const key_attr *k, const char *c, const char *hsk,
                          const char *vsk1, const char *vsk2, buf *keycond, av *values, buf *why)
{
    const char *op = "=";
    const char *arg = c;
    static const char *ops[] = { "<=", ">=", "=", "<", ">" };
    bool between = false, begins = false;
    if (strncasecmp(c, "between ", 8) == 0) {
        between = true;
        arg = c + 8;
    } else if (strncasecmp(c, "begins_with ", 12) == 0) {
        begins = true;
        arg = c + 12;
    } else {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (strncmp(c, ops[i], strlen(ops[i])) == 0) {
                op = ops[i];
                arg = c + strlen(ops[i]);
                break;
            }
    }
    while (*arg == ' ')
        arg++;
    char *first = xstrdup(arg), *second = NULL;
    if (between) {
        char *and = strstr(first, " and ");
        if (!and)
            and = strstr(first, " AND ");
        if (!and) {
            free(first);
            buf_printf(why, "between needs: between A and B");
            return false;
        }
        *and = '\0';
        second = and + 5;
        while (*second == ' ')
            second++;
    }
    av a = { 0 }, b = { 0 };
    diag d;
    diag_init(&d);
    status st = edit_parse_key_attr(k, first, &a, &d);
    if (st == ST_OK && second)
        st = edit_parse_key_attr(k, second, &b, &d);
    free(first);
    if (st != ST_OK) {
        buf_printf(why, "sort key %s: %s", k->name, d.msg);
        av_free(&a);
        return false;
    }
    map_add(values, vsk1, &a);
    if (between) {
        buf_printf(keycond, " AND %s BETWEEN %s AND %s", hsk, vsk1, vsk2);
        map_add(values, vsk2, &b);
    } else if (begins) {
        buf_printf(keycond, " AND begins_with(%s, %s)", hsk, vsk1);
    } else {
        buf_printf(keycond, " AND %s %s %s", hsk, op, vsk1);
    }
    av_free(&a);
    av_free(&b);
    return true;
}

/* The parts of a multi-attribute key's field, split at '|' and trimmed
 * (the bar asks for one value per HASH attribute, and for the RANGE
 * attributes in turn: "WINTER2024 | NA-EAST", "SEMIFINALS | begins_with
 * UP"); at most max, *n of them. */
static char **key_parts(const char *text, size_t max, size_t *n)
{
    char **out = xcalloc(max + 1, sizeof *out);
    *n = 0;
    for (const char *s = text; *n <= max;) {
        const char *bar = strchr(s, '|'), *end = bar ? bar : s + strlen(s);
        while (*s == ' ')
            s++;
        const char *e = end;
        while (e > s && e[-1] == ' ')
            e--;
        out[(*n)++] = xstrndup(s, (size_t)(e - s));
        if (!bar)
            break;
        s = bar + 1;
    }
    return out;
}

static void parts_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* The key condition on a multi-attribute key (the developer guide's
 * "Multi-attribute key schema"): an equality on each HASH attribute, then
 * equalities on the RANGE attributes in turn and, on the last typed, any
 * sort-key condition. The store refuses what DynamoDB refuses. */
static bool multi_key_cond(query_view *p, const index_def *ix, ddb_req *req, buf *why)
{
    size_t nh = index_def_n_hash(ix), nr = index_def_n_range(ix), n, m = 0;
    char **hv = key_parts(p->f[F_PK], nh, &n), **rv = NULL;
    buf keycond = BUF_INIT;
    bool ok = n == nh;
    if (!ok)
        buf_printf(why, "partition value: give %zu values separated by |, one for each of its HASH"
                   " attributes", nh);
    for (size_t i = 0; ok && i < nh; i++) {
        const key_attr *k = index_def_hash(ix, i);
        char base[32], h[48], v[48];
        av val = { 0 };
        diag d;
        diag_init(&d);
        snprintf(base, sizeof base, "#pk%u", (unsigned)i);
        own_placeholder(p, &req->names, &req->values, base, h, sizeof h);
        snprintf(base, sizeof base, ":pk%u", (unsigned)i);
        own_placeholder(p, &req->names, &req->values, base, v, sizeof v);
        if (edit_parse_key_attr(k, hv[i], &val, &d) != ST_OK) {
            buf_printf(why, "partition value %s: %s", k->name, d.msg);
            ok = false;
            break;
        }
        buf_printf(&keycond, "%s%s = %s", i ? " AND " : "", h, v);
        map_add_name(&req->names, h, k->name);
        map_add(&req->values, v, &val);
        av_free(&val);
    }
    const char *c = p->f[F_SK];
    while (*c == ' ')
        c++;
    if (ok && *c) {
        rv = key_parts(c, nr, &m);
        if (m > nr) {
            buf_printf(why, "sort key condition: at most %zu parts separated by |, one for each of its"
                       " RANGE attributes", nr);
            ok = false;
        }
    }
    for (size_t i = 0; ok && i < m; i++) {
        const key_attr *k = index_def_range(ix, i);
        if (!rv[i][0])
            continue;   /* an empty part: no condition on it (the store says what that needs) */
        char base[32], h[48], v1[48], v2[48];
        snprintf(base, sizeof base, "#sk%u", (unsigned)i);
        own_placeholder(p, &req->names, &req->values, base, h, sizeof h);
        snprintf(base, sizeof base, ":sk%u", (unsigned)i);
        own_placeholder(p, &req->names, &req->values, base, v1, sizeof v1);
        snprintf(base, sizeof base, ":sk%ub", (unsigned)i);
        own_placeholder(p, &req->names, &req->values, base, v2, sizeof v2);
        if ((ok = sort_key_cond(k, rv[i], h, v1, v2, &keycond, &req->values, why)))
            map_add_name(&req->names, h, k->name);
    }
    if (ok)
        ddb_req_set_str(&req->keycond, keycond.data);
    parts_free(hv, n);
    if (rv)
        parts_free(rv, m);
    buf_done(&keycond);
    return ok;
}

/* The key condition of a Query: the partition value, and the sort-key
 * condition when one is typed, with their names and values added to the
 * request's maps. */
static bool key_cond(query_view *p, const index_def *ix, ddb_req *req, buf *why)
{
    if (ix && index_def_multi(ix))
        return multi_key_cond(p, ix, req, why);
    const char *pkname = ix ? ix->pk.name : p->def.pk.name;
    const char *skname = ix ? ix->sk.name : p->def.sk.name;
    char hpk[32], hsk[32], vpk[32], vsk1[32], vsk2[32];
    own_placeholder(p, &req->names, &req->values, "#pk", hpk, sizeof hpk);
    own_placeholder(p, &req->names, &req->values, "#sk", hsk, sizeof hsk);
    own_placeholder(p, &req->names, &req->values, ":pk", vpk, sizeof vpk);
    own_placeholder(p, &req->names, &req->values, ":sk1", vsk1, sizeof vsk1);
    own_placeholder(p, &req->names, &req->values, ":sk2", vsk2, sizeof vsk2);
    av pkv = { 0 };
    diag d;
    diag_init(&d);
    if (edit_parse_key(&p->def, ix, true, p->f[F_PK], &pkv, &d) != ST_OK) {
        buf_printf(why, "partition value: %s", d.msg);
        return false;
    }
    buf keycond = BUF_INIT;
    bool ok = true;
    buf_printf(&keycond, "%s = %s", hpk, vpk);
    const char *c = p->f[F_SK];
    while (*c == ' ')
        c++;
    if (*c && !skname) {
        buf_printf(why, "this key schema has no sort key");
        ok = false;
    } else if (*c) {
        ok = sort_key_cond(ix ? &ix->sk : &p->def.sk, c, hsk, vsk1, vsk2, &keycond, &req->values, why);
        if (ok)
            map_add_name(&req->names, hsk, skname);
    }
    if (ok) {
        map_add_name(&req->names, hpk, pkname);
        map_add(&req->values, vpk, &pkv);
        ddb_req_set_str(&req->keycond, keycond.data);
    }
    av_free(&pkv);
    buf_done(&keycond);
    return ok;
}

/* Builds the Query or Scan request (into an uninitialised req; the
 * caller calls ddb_req_done either way); false with *why set when the
 * input cannot make one. */
static bool build_request(query_view *p, ddb_req *req, buf *why)
{
    const index_def *ix = cur_index(p);
    bool q = is_query(p);
    diag d;
    diag_init(&d);
    ddb_req_init(req, q ? DDB_QUERY : DDB_SCAN);
    if (p->f[F_INDEX][0] && !ix) {
        buf_printf(why, "no index %s", p->f[F_INDEX]);
        return false;
    }
    if (field_map(p->f[F_NAMES], true, &req->names, &d) != ST_OK) {
        buf_printf(why, "names: %s", d.msg);
        return false;
    }
    if (field_map(p->f[F_VALUES], false, &req->values, &d) != ST_OK) {
        buf_printf(why, "values: %s%s%s", d.path[0] ? d.path : "", d.path[0] ? ": " : "", d.msg);
        return false;
    }
    if (q && !key_cond(p, ix, req, why))
        return false;
    ddb_req_set_str(&req->table, p->table);
    if (ix)
        ddb_req_set_str(&req->index, ix->name);
    if (p->f[F_FILTER][0])
        ddb_req_set_str(&req->filter, p->f[F_FILTER]);
    req->limit = page_limit;
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
    av_free(&p->lek);
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
    p->count = p->scanned = p->pages = 0;
    p->capacity = 0;
    av_free(&p->lek);
    p->ran = false;
    free(p->error);
    p->error = NULL;
    fields(v);
    vm_append(&v->vm, L_SUMMARY, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_COLHEAD, xcalloc(1, sizeof(qline)));
    run_page(v);
    vm_select(&v->vm, F__COUNT + 3);
}

static bool open_view(view *v, const void *arg)
{
    const query_arg *a = arg;
    query_view *p = v->priv;
    diag d;
    diag_init(&d);
    p->table = xstrdup(a->table);
    status st = store_describe(display_store(), a->table, &p->def, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return false;
    }
    p->have_def = true;
    set_field(p, F_INDEX, a->index);
    set_field(p, F_PK, a->scan ? "" : a->pk);
    set_field(p, F_SK, a->sk);
    set_field(p, F_FILTER, "");
    set_field(p, F_NAMES, "");
    set_field(p, F_VALUES, "");
    fields(v);
    if (a->run)
        run(v);
    else
        vm_select(&v->vm, F_PK);
    return true;
}

static void done(view *v)
{
    query_view *p = v->priv;
    for (int f = 0; f < F__COUNT; f++)
        free(p->f[f]);
    av_free(&p->lek);
    free(p->error);
    buf_done(&p->predict);
    if (p->have_def)
        table_def_free(&p->def);
    free(p->table);
}

static void summary(query_view *p, buf *out);

static void title(view *v, buf *out)
{
    query_view *p = v->priv;
    buf_printf(out, "%s  query bar  ", p->table);
    if (p->ran || p->error)
        summary(p, out);
    else
        buf_adds(out, "(Enter: edit a field or run; q: back)");
}

/* A multi-attribute key's HASH (or RANGE) attribute names, "a | b", as
 * its fields take their values. */
static void key_names(const index_def *ix, bool hash, buf *out)
{
    size_t n = hash ? index_def_n_hash(ix) : index_def_n_range(ix);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%s", i ? " | " : "", (hash ? index_def_hash(ix, i) : index_def_range(ix, i))->name);
}

static void plan(query_view *p, buf *out)
{
    const index_def *ix = cur_index(p);
    const char *on = ix ? ix->name : "the base table";
    if (is_query(p) && ix && index_def_multi(ix)) {
        buf_printf(out, "Will run: Query on %s (one partition: ", on);
        key_names(ix, true, out);
        buf_printf(out, " = %s)", p->f[F_PK]);
    } else if (is_query(p))
        buf_printf(out, "Will run: Query on %s (one partition: %s = %s)", on,
                   ix ? ix->pk.name : p->def.pk.name, p->f[F_PK]);
    else
        buf_printf(out, "Will run: Scan of %s (no partition value: reads every item)", on);
    if (p->f[F_FILTER][0])
        buf_adds(out, ", then filter");
    buf_adds(out, "   [Enter: run]");
}

static void summary(query_view *p, buf *out)
{
    if (p->error) {
        buf_printf(out, "Error: %s", p->error);
        return;
    }
    buf_printf(out, "%s: Count %lld, ScannedCount %lld, ConsumedCapacity %g RCU", p->scan ? "Scan" : "Query",
               p->count, p->scanned, p->capacity);
    if (p->predict_units >= 0)
        buf_printf(out, " (predicted %g)", p->predict_units);
    buf_printf(out, ", %lld page%s%s", p->pages, p->pages == 1 ? "" : "s",
               p->lek.type == AV_M ? "  (more pages)" : "");
}

static void paging(buf *out)
{
    buf_printf(out, "%u items a page (:page-size N); more: G, :load N (matches), :load-all", page_limit);
}

/* The items and bytes the request reads at most: the partition's for a
 * Query, the table's or index's for a Scan; false when not known. */
static bool read_size(query_view *p, uint64_t *items, uint64_t *bytes, buf *what)
{
    const index_def *ix = cur_index(p);
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
    av pk = { 0 };
    if (ix && ix->n_pk_rest) {
        /* several HASH attributes: the partition is the list of their values */
        size_t n;
        char **parts = key_parts(p->f[F_PK], index_def_n_hash(ix), &n);
        bool ok = n == index_def_n_hash(ix);
        av_init_list(&pk, AV_L);
        for (size_t i = 0; ok && i < n; i++) {
            av v;
            if ((ok = edit_parse_key_attr(index_def_hash(ix, i), parts[i], &v, &d) == ST_OK))
                av_list_push(&pk, &v);
        }
        parts_free(parts, n);
        if (!ok) {
            av_free(&pk);
            return false;
        }
    } else if (edit_parse_key(&p->def, ix, true, p->f[F_PK], &pk, &d) != ST_OK) {
        return false;
    }
    part_info part;
    bool found = false;
    status st = store_partition(display_store(), p->table, ix ? ix->name : NULL, &pk, &part, &found, &d);
    av_free(&pk);
    store_info info;
    store_get_info(display_store(), &info);
    if (st != ST_OK || (!found && info.remote))
        return false;
    *items = found ? part.items : 0;
    *bytes = found ? part.bytes : 0;
    if (found)
        av_free(&part.pk);
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
                   is_query(p) && p->f[F_SK][0] ? "at most " : "", p->predict_units,
                   (unsigned long long)pages, pages == 1 ? "" : "s", what.data);
        fmt_bytes(&p->predict, bytes);
        buf_adds(&p->predict, ", eventually consistent)");
    }
    buf_done(&what);
}

static void draw(view *v, size_t i, int row, int width)
{
    query_view *p = v->priv;
    line *l = &v->vm.lines[i];
    qline *q = l->data;
    buf b = BUF_INIT;
    switch (l->kind) {
    case L_FIELD: {
        const char *hint = "";
        const index_def *ix = cur_index(p);
        if (q->field == F_INDEX)
            hint = p->f[F_INDEX][0] ? "" : "(base table)";
        if ((q->field == F_PK || q->field == F_SK) && ix && index_def_multi(ix) &&
            (q->field == F_PK || ix->sk.name)) {
            /* one part for each key attribute */
            buf_addc(&b, '(');
            key_names(ix, q->field == F_PK, &b);
            buf_addc(&b, ')');
            hint = b.data;
        }
        int x = term_puts(row, 0, 20, field_names[q->field], ROLE_COLHEAD);
        x = x < 20 ? 20 : x;
        const char *val = p->f[q->field];
        if (*val)
            term_put(row, x, width - x, val, strlen(val), ROLE_KEY, true);
        else
            term_puts(row, x, width - x, *hint ? hint : "-", ROLE_DIM);
        break;
    }
    case L_PLAN:
        plan(p, &b);
        term_put(row, 0, width, b.data, b.len, ROLE_PROMPT, true);
        break;
    case L_SUMMARY:
        summary(p, &b);
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
        cols_draw_item(&p->cols, &q->item, row, 2, width, v->vm.hscroll, &p->def, cur_index(p));
        break;
    case L_MORE:
        term_puts(row, 2, width - 2, "... more (next page loads when you move here)", ROLE_DIM);
        break;
    }
    buf_done(&b);
}

/* Result columns follow the items on screen, keys first. */
static void layout(view *v)
{
    query_view *p = v->priv;
    vm *m = &v->vm;
    const index_def *ix = cur_index(p);
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n, n = 0;
    const av *items[512];
    for (size_t i = m->top; i < end && n < 512; i++)
        if (m->lines[i].kind == L_RESULT)
            items[n++] = &((qline *)m->lines[i].data)->item;
    const char *first[4] = { ix ? ix->pk.name : NULL, ix ? ix->sk.name : NULL,
                             p->def.pk.name, p->def.sk.name };
    cols_compute(&p->cols, items, n, first, 4, NULL);
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case L_FIELD: return "field";
    case L_PLAN: return "plan";
    case L_SUMMARY: return "summary";
    case L_COLHEAD: return "columns";
    case L_RESULT: return "result";
    case L_PAGING: return "paging";
    case L_PREDICT: return "predict";
    default: return "more";
    }
}

static void text(view *v, size_t i, buf *out)
{
    query_view *p = v->priv;
    line *l = &v->vm.lines[i];
    qline *q = l->data;
    switch (l->kind) {
    case L_FIELD: buf_printf(out, "%s: %s", field_names[q->field], p->f[q->field]); break;
    case L_PLAN: plan(p, out); break;
    case L_SUMMARY: summary(p, out); break;
    case L_PAGING: paging(out); break;
    case L_PREDICT: predict(p); buf_add(out, p->predict.data, p->predict.len); break;
    case L_COLHEAD:
        for (size_t k = 0; k < p->cols.n; k++)
            buf_printf(out, "%s%s", k ? " " : "", p->cols.c[k].name);
        break;
    case L_RESULT:
        for (size_t j = 0; j < q->item.u.m.len; j++) {
            if (j)
                buf_addc(out, ' ');
            buf_add(out, q->item.u.m.v[j].name, q->item.u.m.v[j].name_len);
            buf_addc(out, '=');
            fmt_cell(out, &q->item.u.m.v[j].val, 0);
        }
        break;
    default: buf_adds(out, "more"); break;
    }
}

static size_t more(view *v, int dir)
{
    query_view *p = v->priv;
    if (dir < 0 || p->lek.type != AV_M)
        return 0;
    size_t before = v->vm.n;
    run_page(v);
    return v->vm.n > before ? v->vm.n - before : 0;
}

static enum req request(view *v, enum req r)
{
    query_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_QUERY) {
        run(v);
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
    } else if (l->kind == L_PLAN || l->kind == L_SUMMARY || l->kind == L_PAGING || l->kind == L_PREDICT) {
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
        display_message("%u items a page (:page-size N sets it)", page_limit);
        return;
    }
    unsigned long n = whole_arg("page-size", argv[1], 1, 1000000);
    if (!n)
        return;
    page_limit = (uint32_t)n;
    p->predicted = false;
    display_message("%u items a page from the next page read", page_limit);
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

static void load_command(view *v, int argc, char **argv)
{
    if (strcmp(argv[0], "load") != 0) {
        if (argc == 1)
            load_pages(v, 0);
        else
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

static bool command(view *v, int argc, char **argv)
{
    query_view *p = v->priv;
    static const char *opts[F__COUNT] = { "index", "pk", "sk", "filter", "names", "values" };
    /* :query [PK [SKCOND]] and :set-field style arguments --index=... */
    if (strcmp(argv[0], "query") == 0 || strcmp(argv[0], "scan") == 0) {
        if (strcmp(argv[0], "scan") == 0)
            set_field(p, F_PK, "");
        /* The words after PK are one sort-key condition (begins_with V,
         * between A and B), not each a condition replacing the last. */
        buf skc = BUF_INIT;
        int words = 0;   /* "" after PK clears the condition */
        for (int i = 1; i < argc; i++) {
            bool opt = false;
            for (int f = 0; f < F__COUNT; f++) {
                size_t n = strlen(opts[f]);
                if (strncmp(argv[i], "--", 2) == 0 && strncmp(argv[i] + 2, opts[f], n) == 0 &&
                    argv[i][2 + n] == '=') {
                    set_field(p, f, argv[i] + 3 + n);
                    opt = true;
                }
            }
            if (opt)
                continue;
            if (words++ == 0) {
                set_field(p, F_PK, argv[i]);
            } else {
                if (skc.len)
                    buf_addc(&skc, ' ');
                buf_adds(&skc, argv[i]);
            }
        }
        if (words > 1)
            set_field(p, F_SK, skc.data ? skc.data : "");
        buf_done(&skc);
        run(v);
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
static void context(view *v, cond_arg *out)
{
    query_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    out->table = p->table;
    out->index = p->f[F_INDEX][0] ? p->f[F_INDEX] : NULL;
    out->item = l && l->kind == L_RESULT ? &((qline *)l->data)->item : NULL;
}

static bool typed_request(view *v, ddb_req *out, buf *why)
{
    return build_request(v->priv, out, why);
}

const view_ops view_query_ops = {
    .context = context,
    .typed_request = typed_request,
    .name = "query",
    .priv_size = sizeof(query_view),
    .open = open_view,
    .title = title,
    .layout = layout,
    .draw = draw,
    .request = request,
    .done = done,
    .more = more,
    .free_line = free_line,
    .kind_name = kind_name,
    .text = text,
    .command = command,
};
