/*
 * store_query — Query and Scan: key conditions (expressions and legacy
 * KeyConditions) into one range read (store_read.c), filters evaluated on
 * the encoded item bytes where they can be, Limit before the filter, the
 * 1 MB page, LastEvaluatedKey, Select and parallel Scan segments.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/bfilt.h"
#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/ddbres.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"

/* A Query or Scan page ends after 1 MB read (the API reference). */
#define PAGE_BYTES (1024 * 1024)

static const vspec query_spec[] = {
    { .name = "Select", .type = VT_STRING, .enums = sop_e_select },
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_RCC,
    { .name = "QueryFilter", .type = VT_MAP, .sub = "Condition", .elem = &sop_cond_elem },
    F_TABLE,
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = sop_e_condop },
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &sop_str_elem },
    { .name = "Limit", .type = VT_INT, .flags = VF_NO_VALUE, .ge = 1, .has_ge = true },
    { .name = "KeyConditions", .type = VT_MAP, .sub = "Condition", .elem = &sop_keycond_elem },
    { .name = "ExclusiveStartKey", .type = VT_ATTRMAP },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "ScanIndexForward", .type = VT_BOOL },
    { .name = "KeyConditionExpression", .type = VT_STRING },
    { .name = "FilterExpression", .type = VT_STRING },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    F_END,
};

static const vspec scan_spec[] = {
    { .name = "Select", .type = VT_STRING, .enums = sop_e_select },
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_RCC,
    F_TABLE,
    { .name = "ScanFilter", .type = VT_MAP, .sub = "Condition", .elem = &sop_cond_elem },
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &sop_str_elem },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = sop_e_condop },
    { .name = "Limit", .type = VT_INT, .flags = VF_NO_VALUE, .ge = 1, .has_ge = true },
    { .name = "ExclusiveStartKey", .type = VT_ATTRMAP },
    { .name = "TotalSegments", .type = VT_INT, .ge = 1, .has_ge = true, .le = 1000000, .has_le = true },
    { .name = "Segment", .type = VT_INT, .flags = VF_NO_VALUE, .ge = 0, .has_ge = true, .le = 999999, .has_le = true },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "FilterExpression", .type = VT_STRING },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    F_END,
};

typedef struct read_req {
    store_rq rq;
    long limit;
    ddb_select select;
    bool consistent;
    ddb_rcc rcc;
    const index_def *ix;
    bool full_items;       /* LSI read that fetches whole items */
    reqx *x;
    av *atg;
    av pk_val, lo_val, hi_val, start;
    buf pk_enc, lo_enc, hi_enc;   /* a multi-attribute key's (rq's pk_enc...) */
} read_req;

static void read_req_init(read_req *r)
{
    memset(r, 0, sizeof *r);
    r->pk_val.type = r->lo_val.type = r->hi_val.type = r->start.type = AV_NONE;
}

static void read_req_done(read_req *r)
{
    av_done(&r->pk_val);
    av_done(&r->lo_val);
    av_done(&r->hi_val);
    av_done(&r->start);
    buf_done(&r->pk_enc);
    buf_done(&r->lo_enc);
    buf_done(&r->hi_enc);
}

size_t store_lek_names(const table_def *def, const index_def *ix, const char *names[STORE_LEK_MAX])
{
    size_t n = 0;
    const char *cand[STORE_LEK_MAX] = { def->pk.name, def->sk.name };
    size_t nc = 2;
    for (size_t i = 0; ix && i < index_def_n_hash(ix); i++)
        cand[nc++] = index_def_hash(ix, i)->name;
    for (size_t i = 0; ix && i < index_def_n_range(ix); i++)
        cand[nc++] = index_def_range(ix, i)->name;
    for (size_t i = 0; i < nc; i++) {
        if (!cand[i])
            continue;
        bool dup = false;
        for (size_t j = 0; j < n; j++)
            if (strcmp(names[j], cand[i]) == 0)
                dup = true;
        if (!dup)
            names[n++] = cand[i];
    }
    /* sort for canonical output */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *tmp = names[j];
            names[j] = names[j - 1];
            names[j - 1] = tmp;
        }
    return n;
}

/* The LastEvaluatedKey of the last row read: its table and index keys. */
static status lek_of(const tinfo *t, const index_def *ix, const void *body, size_t len, av *out,
                     diag *d)
{
    const char *names[STORE_LEK_MAX];
    size_t n = store_lek_names(&t->def, ix, names);
    av_init_list(out, AV_M);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *vp;
        size_t vlen;
        if (!itemenc_find(body, len, names[i], strlen(names[i]), &vp, &vlen))
            return diag_set(d, ST_INTERNAL, "key attribute %s missing from a stored item", names[i]);
        av v;
        status st = itemenc_decode_value(vp, vlen, &v, d);
        if (st != ST_OK)
            return st;
        av_map_put(out, names[i], strlen(names[i]), &v);
    }
    return ST_OK;
}

/* Where a read's answer goes: DynamoDB JSON written straight from the
 * stored bytes (the codec), or typed results. */
typedef struct read_out {
    buf *json;
    ddb_res *res;
} read_out;

/* One matching row into the answer: the Items array, or res's items. */
static status emit_row(read_req *r, const store_row *row, read_out *o, diag *d)
{
    const tinfo *t = r->rq.t;
    const index_def *ix = r->ix;
    /* An entry's own body is already the projection. */
    bool index_cut = ix && ix->proj != PROJ_ALL && !r->full_items && row->whole;
    bool proj = seng_projecting(r->x, r->atg);
    if (o->json && !index_cut && !proj)
        return itemenc_write_json(o->json, row->body, row->body_len, d);
    av full;
    status st = itemenc_decode(row->body, row->body_len, &full, d);
    if (st != ST_OK)
        return st;
    if (index_cut) {
        av cut;
        store_project_index(&t->def, ix, &full, &cut);
        av_done(&full);
        av_move(&full, &cut);
    }
    seng_project(r->x, r->atg, &full);
    if (o->json) {
        ddbjson_write_item(o->json, &full);
        av_done(&full);
    } else {
        ddb_res_push_item(o->res, &full);
    }
    return ST_OK;
}

/* Capacity: what was read (cap_bytes), from the index when it answered
 * alone, into cr. */
static void read_caps(const read_req *r, uint64_t cap_bytes, bool stopped, ddb_res *cr)
{
    const index_def *ix = r->ix;
    double u = seng_read_units(cap_bytes, r->consistent);
    /* A Scan that reads to the end of the table (or index) costs at
     * least the minimum read of every partition (model/size.h).
     * ddbx has no physical partitions: a page that stops early, or
     * one segment of a parallel Scan, is charged by size alone. */
    double least = (double)size_scan_min_halves(r->consistent) / 2.0;
    if (!r->rq.pk && !r->rq.pk_enc && !stopped && r->rq.segments == 0 && u < least)
        u = least;
    if (r->rcc == DDB_RCC_NONE) {
        /* Not asked: only the thread's tally (store_call_units). */
        sop_units_add(u);
        return;
    }
    ddb_cap *cp = ddb_res_cap(cr, r->rq.t->name);
    cp->units += u;
    if (ix && !r->full_items) {
        cp->idx = xrealloc(cp->idx, (cp->n_idx + 1) * sizeof *cp->idx);
        ddb_cap_index *ci = &cp->idx[cp->n_idx++];
        ci->name = xstrdup(ix->name);
        ci->global = ix->global;
        ci->units = u;
    } else {
        cp->table_units += u;
    }
}

static status run_read(store *s, read_req *r, read_out *o, diag *d)
{
    store_cursor c;
    status st = store_cursor_open(s, &r->rq, &c, d);
    if (st != ST_OK)
        return st;
    const tinfo *t = r->rq.t;
    const index_def *ix = r->ix;
    uint64_t scanned = 0, count = 0, bytes = 0, cap_bytes = 0;
    bool stopped = false, count_only = r->select == DDB_SELECT_COUNT;
    const expr *filter = r->x ? r->x->filter : NULL;
    av part = { .type = AV_NONE };
    buf last = BUF_INIT;
    /* Index entries cut to a projection here (an index not ALL, read
     * through the table) are filtered as decoded items; an entry's own
     * body is the projection already. */
    bool cut_entry = ix && ix->proj != PROJ_ALL && !r->full_items;
    bfilt bf;
    bool fast = filter && bfilt_build(&bf, filter);
    buf *out = o->json;
    if (out)
        ddbres_items_open(out, count_only);
    for (;;) {
        store_row row;
        bool has;
        if ((st = store_cursor_next(&c, &row, &has, d)) != ST_OK || !has)
            break;
        scanned++;
        bytes += row.size;
        cap_bytes += ix && !r->full_items ? row.entry_size : row.size;
        bool match = true;
        bool cut = cut_entry && row.whole;
        if (fast && !cut) {
            match = bfilt_eval(&bf, row.body, row.body_len);
        } else if (filter) {
            /* Only the attributes the filter names are decoded, into one
             * item reused row after row. */
            if ((st = itemenc_decode_some_into(row.body, row.body_len, r->x->fnames, r->x->flens,
                                               r->x->n_fnames, &part, d)) != ST_OK)
                break;
            if (cut) {
                av in_index;
                store_project_index(&t->def, ix, &part, &in_index);
                match = expr_eval(filter, &in_index);
                av_done(&in_index);
            } else {
                match = expr_eval(filter, &part);
            }
        }
        if (match) {
            count++;
            if (!count_only) {
                if (out && count > 1)
                    buf_addc(out, ',');
                if ((st = emit_row(r, &row, o, d)) != ST_OK)
                    break;
            }
        }
        if ((r->limit && scanned >= (uint64_t)r->limit) || bytes >= PAGE_BYTES) {
            stopped = true;
            buf_reset(&last);
            buf_add(&last, row.body, row.body_len);
            break;
        }
    }
    store_cursor_close(&c);
    av_done(&part);
    if (fast)
        bfilt_done(&bf);
    av lek = { .type = AV_NONE };
    if (st == ST_OK && stopped)
        st = lek_of(t, ix, last.data, last.len, &lek, d);
    if (st == ST_OK) {
        ddb_res caps;
        ddb_res_init(&caps);
        ddb_res *cr = o->res ? o->res : &caps;
        read_caps(r, cap_bytes, stopped, cr);
        if (out) {
            sop_units_of(cr);
            ddbres_items_close(out, count_only, count, scanned, &lek, r->rcc, cr);
        } else {
            o->res->count = count;
            o->res->scanned = scanned;
            av_move(&o->res->last_key, &lek);
        }
        ddb_res_done(&caps);
    }
    av_done(&lek);
    buf_done(&last);
    return st;
}

static bool named(const key_attr *ka, const char *name, size_t len)
{
    return ka->name && strlen(ka->name) == len && memcmp(ka->name, name, len) == 0;
}

/* Does the index hold the top-level attribute name[0..len)? */
static bool index_projects(const table_def *def, const index_def *ix, const char *name, size_t len)
{
    if (ix->proj == PROJ_ALL || named(&def->pk, name, len) || named(&def->sk, name, len))
        return true;
    for (size_t i = 0; i < index_def_n_hash(ix); i++)
        if (named(index_def_hash(ix, i), name, len))
            return true;
    for (size_t i = 0; i < index_def_n_range(ix); i++)
        if (named(index_def_range(ix, i), name, len))
            return true;
    for (size_t i = 0; ix->proj == PROJ_INCLUDE && i < ix->n_include; i++)
        if (strlen(ix->include[i]) == len && memcmp(ix->include[i], name, len) == 0)
            return true;
    return false;
}

/* A global secondary index cannot fetch from the table ("Global secondary
 * index queries cannot fetch attributes from the parent table", developer
 * guide): asking a KEYS_ONLY or INCLUDE one for an attribute it does not
 * project, by ProjectionExpression or AttributesToGet, is refused. */
static status gsi_projection(const read_req *r, diag *d)
{
    if (!r->ix || !r->ix->global)
        return ST_OK;
    const table_def *def = &r->rq.t->def;
    const char *name = NULL;
    size_t len = 0;
    const expr_node *root = r->x && r->x->proj ? expr_root(r->x->proj) : NULL;
    for (size_t i = 0; root && i < root->n_kids && !name; i++) {
        const expr_step *st = &root->kids[i]->path.steps[0];
        if (!index_projects(def, r->ix, st->name, st->len))
            name = st->name, len = st->len;
    }
    for (size_t i = 0; r->atg && r->atg->type == AV_L && i < r->atg->u.l.len && !name; i++) {
        const av *a = &r->atg->u.l.v[i];
        if (a->type == AV_S && !index_projects(def, r->ix, a->u.s.ptr, a->u.s.len))
            name = a->u.s.ptr, len = a->u.s.len;
    }
    if (!name)
        return ST_OK;
    return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Global secondary index %s"
                    " does not project the attribute %.*s; a global secondary index cannot fetch attributes"
                    " from the table", r->ix->name, (int)len, name);
}

static int name_cmp(const void *a, const void *b)
{
    return av_cmp(a, b);
}

/* A Query of a secondary index whose projection is not ALL may filter
 * only on what the index holds: "One or more parameter values were
 * invalid: Secondary index X does not project one or more filter
 * attributes: [a, b]" (AWS's answer, quoted by a user whose AppSync
 * resolver met it; DynamoDB Local 3.3 the same, the names in order, an LSI
 * too). A Scan of the index filters what it holds instead (nothing
 * matches an attribute it lacks). */
static status index_filter_projection(const reqx *x, const read_req *r, diag *d)
{
    if (!r->ix || r->ix->proj == PROJ_ALL || !x->n_fnames)
        return ST_OK;
    const table_def *def = &r->rq.t->def;
    av miss;
    av_init_list(&miss, AV_L);
    for (size_t i = 0; i < x->n_fnames; i++) {
        if (!index_projects(def, r->ix, x->fnames[i], x->flens[i])) {
            av nm;
            av_init_s(&nm, x->fnames[i], x->flens[i]);
            av_list_push(&miss, &nm);
        }
    }
    status st = ST_OK;
    if (miss.u.l.len) {
        qsort(miss.u.l.v, miss.u.l.len, sizeof *miss.u.l.v, name_cmp);
        buf b = BUF_INIT;
        for (size_t i = 0; i < miss.u.l.len; i++) {
            if (i)
                buf_adds(&b, ", ");
            buf_add(&b, miss.u.l.v[i].u.s.ptr, miss.u.l.v[i].u.s.len);
        }
        st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Secondary index %s does"
                      " not project one or more filter attributes: [%.*s]", r->ix->name, (int)b.len,
                      b.data ? b.data : "");
        buf_done(&b);
    }
    av_done(&miss);
    return st;
}

/* Resolves IndexName, Select, Limit, ConsistentRead, ExclusiveStartKey. */
static status read_common(store *s, const ddb_req *q, read_req *r, tinfo **tp, const seng_defer *df,
                          diag *d)
{
    status st = store_table(s, q->table, tp, d);
    if (st != ST_OK)
        return st;
    tinfo *t = *tp;
    r->rq.t = t;
    const char *index = q->index;
    r->select = q->select;
    if (index) {
        int xid = store_index_xid(&t->def, index);
        if (xid < 0)
            return store_vec_not_readable(&t->def, index, q->kind == DDB_QUERY ? "Query" : "Scan", d);
        r->rq.xid = xid;
        r->ix = &t->def.idx[xid - 1];
        if (r->ix->global && q->consistent)
            return diag_set(d, ST_VALIDATION,
                            "Consistent reads are not supported on global secondary indexes");
        if (r->select == DDB_SELECT_ALL && r->ix->proj != PROJ_ALL) {
            if (r->ix->global)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Select type"
                                " ALL_ATTRIBUTES is not supported for global secondary index %s because"
                                " its projection type is not ALL", index);
            r->full_items = true;
        }
        /* An LSI fetches what its projection lacks from the table. */
        if (!r->ix->global && seng_projecting(r->x, r->atg))
            r->full_items = true;
        r->rq.fetch = r->full_items;

    }
    r->limit = (long)q->limit;
    r->consistent = q->consistent;
    r->rcc = q->rcc;
    r->rq.forward = !q->backward;
    if (df && df->start_bad) {
        *d = df->start;
        return d->code;
    }
    if (q->start.type == AV_M) {
        av_copy(&r->start, &q->start);
        /* The start key names exactly the table's and the index's keys. */
        const char *names[STORE_LEK_MAX];
        size_t n = store_lek_names(&t->def, r->ix, names);
        if (r->start.u.m.len != n)
            return diag_set(d, ST_VALIDATION, r->ix || r->rq.pk ? "The provided starting key is invalid"
                            : "The provided starting key is invalid: The provided key element does not"
                              " match the schema");
        for (size_t i = 0; i < n; i++) {
            const av *v = av_map_get(&r->start, names[i], strlen(names[i]));
            if (!v)
                return diag_set(d, ST_VALIDATION, "The provided starting key is invalid");
        }
        store_key k;
        store_key_init(&k);
        av tk;
        av_init_list(&tk, AV_M);
        for (int i = 0; i < 2; i++) {
            const char *nm = i ? t->def.sk.name : t->def.pk.name;
            if (!nm)
                continue;
            av v;
            av_copy(&v, av_map_get(&r->start, nm, strlen(nm)));
            av_map_put(&tk, nm, strlen(nm), &v);
        }
        st = store_check_key(&t->def, &tk, &k, d);
        av_done(&tk);
        /* A parallel Scan's start key must lie in its own segment (the
         * message is dynalite's, which copies DynamoDB's). */
        bool other_segment = st == ST_OK && q->segments > 1 &&
                             store_segment_of(k.pk.data, k.pk.len, q->segments) != q->segment;
        store_key_done(&k);
        if (st != ST_OK) {
            char msg[sizeof d->msg];
            snprintf(msg, sizeof msg, "%s", d->msg);
            return diag_set(d, ST_VALIDATION, "The provided starting key is invalid: %s", msg);
        }
        if (other_segment)
            return diag_set(d, ST_VALIDATION, "The provided starting key is invalid: Invalid"
                            " ExclusiveStartKey. Please use ExclusiveStartKey with correct Segment."
                            " TotalSegments: %d Segment: %d", q->segments, q->segment);
        if (r->ix) {
            size_t nh = index_def_n_hash(r->ix), nr = index_def_n_range(r->ix);
            for (size_t i = 0; i < nh + nr; i++) {
                const key_attr *ka = i < nh ? index_def_hash(r->ix, i) : index_def_range(r->ix, i - nh);
                const av *v = av_map_get(&r->start, ka->name, strlen(ka->name));
                if (v->type != ka->type)
                    return diag_set(d, ST_VALIDATION, "The provided starting key is invalid: The provided"
                                    " key element does not match the schema");
            }
        }
        r->rq.start = &r->start;
    }
    return ST_OK;
}

/* Select and projections, as DynamoDB checks them. */
static status select_checks(const ddb_req *q, const av *atg, bool query, diag *d)
{
    const char *sel = ddb_select_name(q->select);
    bool proj = q->proj || atg->type == AV_L;
    if (sop_is(sel, "SPECIFIC_ATTRIBUTES") && !proj)
        return diag_set(d, ST_VALIDATION, "Must specify the AttributesToGet or ProjectionExpression"
                        " when choosing to get SPECIFIC_ATTRIBUTES");
    if (sel && !sop_is(sel, "SPECIFIC_ATTRIBUTES") && proj) {
        if (q->proj)
            return diag_set(d, ST_VALIDATION, "Cannot specify the ProjectionExpression when choosing"
                            " to get %s", sel);
        return diag_set(d, ST_VALIDATION, "Cannot specify the AttributesToGet when choosing to get %s", sel);
    }
    if (sop_is(sel, "ALL_PROJECTED_ATTRIBUTES") && !q->index)
        return diag_set(d, ST_VALIDATION, "ALL_PROJECTED_ATTRIBUTES can be used only when %s using an"
                        " IndexName", query ? "Querying" : "Scanning");
    return ST_OK;
}

/* ExclusiveStartKey inside the key condition's range (kr: the partition
 * value and the sort-key range), with DynamoDB's messages. */
static status start_in_range(const read_req *r, const key_attr *pk, const key_attr *sk,
                             const expr_key_range *kr, diag *d)
{
    if (!r->rq.start)
        return ST_OK;
    /* In dynalite's order (which follows DynamoDB's): with no sort-key
     * condition, another partition is "outside query boundaries"; with
     * one, a sort key outside it "does not match the range key
     * predicate", and another partition makes "a query that can return at
     * most one row". */
    const av *spk = av_map_get(r->rq.start, pk->name, strlen(pk->name));
    bool same_pk = spk && av_equal(spk, kr->pk);
    if (!kr->sk_name && !same_pk)
        return diag_set(d, ST_VALIDATION, "The provided starting key is outside query boundaries"
                        " based on provided conditions");
    if (kr->sk_name) {
        const av *ssk = av_map_get(r->rq.start, sk->name, strlen(sk->name));
        if (!ssk || !expr_key_match_sk(kr, ssk))
            return diag_set(d, ST_VALIDATION, "The provided starting key does not match the range"
                            " key predicate");
    }
    if (!same_pk)
        return diag_set(d, ST_VALIDATION, "The query can return at most one row and cannot be restarted");
    return ST_OK;
}

/* ExclusiveStartKey inside a multi-attribute key's range (ranged: the
 * query has RANGE conditions), with the messages start_in_range gives. */
static status start_in_tuple(const read_req *r, bool ranged, diag *d)
{
    if (!r->rq.start)
        return ST_OK;
    buf ipk = BUF_INIT, isk = BUF_INIT;
    store_index_key(r->ix, r->rq.start, &ipk, &isk);
    bool same_pk = ipk.len == r->pk_enc.len && memcmp(ipk.data, r->pk_enc.data, ipk.len) == 0;
    bool in = true;
    if (r->rq.lo_enc) {
        size_t n = isk.len < r->lo_enc.len ? isk.len : r->lo_enc.len;
        int c = memcmp(isk.data ? isk.data : "", r->lo_enc.data ? r->lo_enc.data : "", n);
        in = c > 0 || (c == 0 && isk.len >= r->lo_enc.len);
    }
    if (in && r->rq.hi_enc) {
        size_t n = isk.len < r->hi_enc.len ? isk.len : r->hi_enc.len;
        int c = memcmp(isk.data ? isk.data : "", r->hi_enc.data, n);
        in = c < 0 || (c == 0 && isk.len < r->hi_enc.len);
    }
    buf_done(&ipk);
    buf_done(&isk);
    if (!ranged && !same_pk)
        return diag_set(d, ST_VALIDATION, "The provided starting key is outside query boundaries"
                        " based on provided conditions");
    if (ranged && !in)
        return diag_set(d, ST_VALIDATION, "The provided starting key does not match the range"
                        " key predicate");
    if (!same_pk)
        return diag_set(d, ST_VALIDATION, "The query can return at most one row and cannot be restarted");
    return ST_OK;
}

/* A key condition's value may not be an empty S or B, as a key's may not
 * (AWS: "One or more parameter values are not valid. The AttributeValue
 * for a key attribute cannot contain an empty string value. Key: PK" for
 * a Query of PK = "", moto issue 7062 quoting it; DynamoDB Local 3.3 the
 * same for every operand, begins_with's included, and for an index's
 * keys in the index form the writes use). */
static status empty_key_values(const read_req *r, const key_attr *pk, const key_attr *sk, diag *d)
{
    const av *vals[4] = { r->rq.pk, r->rq.prefix, r->rq.lo, r->rq.hi };
    for (int i = 0; i < 4; i++) {
        const av *v = vals[i];
        if (!v || (v->type != AV_S && v->type != AV_B) || v->u.s.len)
            continue;
        const char *kind = v->type == AV_S ? "string" : "binary";
        const char *name = i == 0 ? pk->name : sk->name;
        if (r->ix)
            return diag_set(d, ST_VALIDATION, "One or more parameter values are not valid. A value specified"
                            " for a secondary index key is not supported. The AttributeValue for a key"
                            " attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s", kind,
                            r->ix->name, name);
        return diag_set(d, ST_VALIDATION, "One or more parameter values are not valid. The AttributeValue"
                        " for a key attribute cannot contain an empty %s value. Key: %s", kind, name);
    }
    return ST_OK;
}

/* Legacy KeyConditions (checked by legacy_check_conditions): the read's
 * key range, with DynamoDB's checks against the key schema. */
static status key_conditions(const ddb_conds *kc, read_req *r, diag *d)
{
    const tinfo *t = r->rq.t;
    const key_attr *pk = r->ix ? &r->ix->pk : &t->def.pk;
    const key_attr *sk = r->ix ? &r->ix->sk : &t->def.sk;
    size_t n = kc->n;
    if (n != 1 && n != 2)
        return diag_set(d, ST_VALIDATION, "Conditions can be of length 1 or 2 only");
    /* The key schema in dynalite's order, hash first: each key's
     * condition, or why it is missing or unusable. */
    const key_attr *keys[2] = { pk, sk->name ? sk : NULL };
    const ddb_cond *conds[2] = { NULL, NULL };
    for (int k = 0; k < 2 && keys[k]; k++) {
        const key_attr *ka = keys[k];
        if (k == 0 && !sk->name && n > 1)
            return diag_set(d, ST_VALIDATION, "Query key condition not supported");
        for (size_t i = 0; i < n; i++)
            if (strcmp(kc->v[i].name, ka->name) == 0)
                conds[k] = &kc->v[i];
        const ddb_cond *e = conds[k];
        if (!e) {
            if (k == 0 || n > 1)
                return diag_set(d, ST_VALIDATION, "Query condition missed key schema element: %s", ka->name);
            continue;
        }
        ddb_cmp op = e->op;
        if (op == DDB_CMP_NULL || op == DDB_CMP_NOT_NULL || op == DDB_CMP_NE || op == DDB_CMP_CONTAINS ||
            op == DDB_CMP_NOT_CONTAINS || op == DDB_CMP_IN)
            return diag_set(d, ST_VALIDATION, "Attempted conditional constraint is not an indexable operation");
        size_t want = op == DDB_CMP_BETWEEN ? 2 : 1;
        if (e->list.type != AV_L || e->list.u.l.len != want)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Invalid number"
                            " of argument(s) for the %s ComparisonOperator", ddb_cmp_name(op));
        for (size_t j = 0; j < want; j++)
            if (e->list.u.l.v[j].type != ka->type)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Condition"
                                " parameter type does not match schema type");
        if (k == 0 && op != DDB_CMP_EQ)
            return diag_set(d, ST_VALIDATION, "Query key condition not supported");
    }
    av_copy(&r->pk_val, &conds[0]->list.u.l.v[0]);
    r->rq.pk = &r->pk_val;
    if (conds[1]) {
        ddb_cmp op = conds[1]->op;
        const av *vals = conds[1]->list.u.l.v;
        if (op == DDB_CMP_EQ) {
            av_copy(&r->hi_val, &vals[0]);
            av_copy(&r->lo_val, &vals[0]);
            r->rq.lo_op = r->rq.hi_op = RB_INCL;
        } else if (op == DDB_CMP_LT || op == DDB_CMP_LE) {
            av_copy(&r->hi_val, &vals[0]);
            r->rq.hi_op = op == DDB_CMP_LT ? RB_EXCL : RB_INCL;
        } else if (op == DDB_CMP_GT || op == DDB_CMP_GE) {
            av_copy(&r->lo_val, &vals[0]);
            r->rq.lo_op = op == DDB_CMP_GT ? RB_EXCL : RB_INCL;
        } else if (op == DDB_CMP_BETWEEN) {
            av_copy(&r->lo_val, &vals[0]);
            av_copy(&r->hi_val, &vals[1]);
            r->rq.lo_op = r->rq.hi_op = RB_INCL;
        } else if (op == DDB_CMP_BEGINS_WITH) {
            av_copy(&r->lo_val, &vals[0]);
            r->rq.prefix = &r->lo_val;
        }
        if (r->rq.lo_op)
            r->rq.lo = &r->lo_val;
        if (r->rq.hi_op)
            r->rq.hi = &r->hi_val;
    }
    /* The start key, checked as for a KeyConditionExpression. */
    expr_key_range kr = { .pk_name = pk->name, .pk = &r->pk_val, .op = KEY_SK_NONE };
    if (conds[1]) {
        kr.sk_name = sk->name;
        kr.op = KEY_SK_BETWEEN;
        kr.prefix = r->rq.prefix;
        kr.lo = r->rq.lo;
        kr.hi = r->rq.hi;
        kr.lo_incl = r->rq.lo_op == RB_INCL;
        kr.hi_incl = r->rq.hi_op == RB_INCL;
    }
    status st = empty_key_values(r, pk, sk, d);
    return st != ST_OK ? st : start_in_range(r, pk, sk, &kr, d);
}

/* KeyConditionExpression -> the read's key range, with DynamoDB's checks. */
static status key_expression(const reqx *x, read_req *r, diag *d)
{
    const tinfo *t = r->rq.t;
    const key_attr *pk = r->ix ? &r->ix->pk : &t->def.pk;
    const key_attr *sk = r->ix ? &r->ix->sk : &t->def.sk;
    expr_key_range kr;
    status st = expr_key_range_of(x->key, pk->name, pk->type, sk->name, sk->type, &kr, d);
    if (st != ST_OK)
        return st;
    av_copy(&r->pk_val, kr.pk);
    r->rq.pk = &r->pk_val;
    if (kr.prefix) {
        av_copy(&r->lo_val, kr.prefix);
        r->rq.prefix = &r->lo_val;
    } else {
        if (kr.lo) {
            av_copy(&r->lo_val, kr.lo);
            r->rq.lo = &r->lo_val;
            r->rq.lo_op = kr.lo_incl ? RB_INCL : RB_EXCL;
        }
        if (kr.hi) {
            av_copy(&r->hi_val, kr.hi);
            r->rq.hi = &r->hi_val;
            r->rq.hi_op = kr.hi_incl ? RB_INCL : RB_EXCL;
        }
    }
    if ((st = empty_key_values(r, pk, sk, d)) != ST_OK)
        return st;
    return start_in_range(r, pk, sk, &kr, d);
}

/* Makes b the smallest byte string greater than every string that
 * begins with b; false when there is none (b empty or all 0xFF). */
static bool bytes_successor(buf *b)
{
    while (b->len > 0 && (unsigned char)b->data[b->len - 1] == 0xff)
        b->len--;
    if (b->len == 0)
        return false;
    b->data[b->len - 1] = (char)((unsigned char)b->data[b->len - 1] + 1);
    return true;
}

/* Sets the read's bound on the RANGE tuple: lo (inclusive) or hi
 * (exclusive) to the bytes of b, or to their successor (every tuple that
 * begins with b on the other side); no successor leaves hi open. */
static void tuple_bound(read_req *r, bool hi, const buf *b, bool after)
{
    buf *dst = hi ? &r->hi_enc : &r->lo_enc;
    buf_reset(dst);
    buf_add(dst, b->data ? b->data : "", b->len);
    if (after && !bytes_successor(dst)) {
        if (hi)
            return;
        dst->len = 0;   /* nothing begins after: an empty lo never matches less */
    }
    if (hi) {
        r->rq.hi_enc = dst;
        r->rq.hi_op = RB_EXCL;
    } else {
        r->rq.lo_enc = dst;
        r->rq.lo_op = RB_INCL;
    }
}

/* A KeyConditionExpression on a multi-attribute key (a GSI's): the HASH
 * tuple, and the RANGE tuple's range as byte bounds: the equalities are
 * a prefix P of the tuple, the last condition on the attribute after them
 * bounds the bytes after P (keyenc is self-delimiting, so "the attribute
 * > v" is "the tuple >= the successor of P + enc(v)"). */
static status tuple_read(const expr_key_tuple *kt, read_req *r, diag *d);

static status key_tuple(const reqx *x, read_req *r, diag *d)
{
    index_key_parts k;
    index_def_key_parts(r->ix, &k);
    expr_key_tuple kt;
    status st = expr_key_tuple_of(x->key, k.hn, k.ht, k.nh, k.rn, k.rt, k.nr, &kt, d);
    return st != ST_OK ? st : tuple_read(&kt, r, d);
}

/* Legacy KeyConditions on a multi-attribute key: each condition's shape
 * checked as key_conditions checks it, then the tuple's rules (DynamoDB
 * Local 3.3 answers them with the RANGE and HASH messages, as for an
 * expression). */
static status key_conditions_tuple(const ddb_conds *kc, read_req *r, diag *d)
{
    index_key_parts k;
    index_def_key_parts(r->ix, &k);
    expr_key_cond c[2 * SCHEMA_MAX_KEY_PARTS];
    if (kc->n > k.nh + k.nr)
        return diag_set(d, ST_VALIDATION, "Query key condition not supported");
    for (size_t i = 0; i < kc->n; i++) {
        const ddb_cond *e = &kc->v[i];
        ddb_cmp op = e->op;
        static const struct { ddb_cmp cmp; expr_key_op op; } ops[] = {
            { DDB_CMP_EQ, KEY_SK_EQ }, { DDB_CMP_LT, KEY_SK_LT }, { DDB_CMP_LE, KEY_SK_LE },
            { DDB_CMP_GT, KEY_SK_GT }, { DDB_CMP_GE, KEY_SK_GE }, { DDB_CMP_BETWEEN, KEY_SK_BETWEEN },
            { DDB_CMP_BEGINS_WITH, KEY_SK_BEGINS },
        };
        size_t j = 0;
        while (j < sizeof ops / sizeof ops[0] && ops[j].cmp != op)
            j++;
        if (j == sizeof ops / sizeof ops[0])
            return diag_set(d, ST_VALIDATION, "Attempted conditional constraint is not an indexable operation");
        size_t want = op == DDB_CMP_BETWEEN ? 2 : 1;
        if (e->list.type != AV_L || e->list.u.l.len != want)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Invalid number"
                            " of argument(s) for the %s ComparisonOperator", ddb_cmp_name(op));
        c[i] = (expr_key_cond){ .name = e->name, .len = strlen(e->name), .op = ops[j].op,
                                .v1 = &e->list.u.l.v[0], .v2 = want == 2 ? &e->list.u.l.v[1] : NULL };
    }
    expr_key_tuple kt;
    status st = expr_key_tuple_check(c, kc->n, k.hn, k.ht, k.nh, k.rn, k.rt, k.nr, &kt, d);
    return st != ST_OK ? st : tuple_read(&kt, r, d);
}

/* The read's byte range from a checked tuple condition. */
static status tuple_read(const expr_key_tuple *kt_in, read_req *r, diag *d)
{
    const expr_key_tuple kt = *kt_in;
    size_t nh = index_def_n_hash(r->ix);
    buf_reset(&r->pk_enc);
    for (size_t i = 0; i < nh; i++)
        keyenc_append(&r->pk_enc, kt.hash[i]);
    r->rq.pk_enc = &r->pk_enc;
    buf p = BUF_INIT, q = BUF_INIT;
    for (size_t i = 0; i < kt.n_eq; i++)
        keyenc_append(&p, kt.eq[i]);
    const expr_key_range *l = &kt.last;
    if (l->op == KEY_SK_NONE && p.len) {
        tuple_bound(r, false, &p, false);
        tuple_bound(r, true, &p, true);
    } else if (l->op != KEY_SK_NONE) {
        /* q: P and the last condition's (first) value */
        buf_add(&q, p.data ? p.data : "", p.len);
        if (l->prefix)
            keyenc_append_prefix(&q, l->prefix);
        else
            keyenc_append(&q, l->sk1);
        switch (l->op) {
        case KEY_SK_EQ:
        case KEY_SK_BEGINS:
            tuple_bound(r, false, &q, false);
            tuple_bound(r, true, &q, true);
            break;
        case KEY_SK_LT:
        case KEY_SK_LE:
            if (p.len)
                tuple_bound(r, false, &p, false);
            tuple_bound(r, true, &q, l->op == KEY_SK_LE);
            break;
        case KEY_SK_GT:
        case KEY_SK_GE:
            tuple_bound(r, false, &q, l->op == KEY_SK_GT);
            if (p.len)
                tuple_bound(r, true, &p, true);
            break;
        case KEY_SK_BETWEEN:
            tuple_bound(r, false, &q, false);
            buf_reset(&q);
            buf_add(&q, p.data ? p.data : "", p.len);
            keyenc_append(&q, l->sk2);
            tuple_bound(r, true, &q, true);
            break;
        default:
            break;
        }
    }
    buf_done(&p);
    buf_done(&q);
    return start_in_tuple(r, l->op != KEY_SK_NONE || kt.n_eq > 0, d);
}

/* A Query's filter may not name the key attributes it reads by (what:
 * "QueryFilter" or "Filter Expression", as DynamoDB names it). */
static status filter_keys(const reqx *x, const read_req *r, const char *what, diag *d)
{
    const tinfo *t = r->rq.t;
    const key_attr *keys[2 * SCHEMA_MAX_KEY_PARTS] = { &t->def.pk, &t->def.sk };
    size_t nk = 2;
    if (r->ix) {
        nk = 0;
        for (size_t i = 0; i < index_def_n_hash(r->ix); i++)
            keys[nk++] = index_def_hash(r->ix, i);
        for (size_t i = 0; i < index_def_n_range(r->ix); i++)
            keys[nk++] = index_def_range(r->ix, i);
    }
    for (size_t k = 0; k < nk; k++) {
        if (!keys[k]->name)
            continue;
        for (size_t i = 0; i < x->n_fnames; i++)
            if (x->flens[i] == strlen(keys[k]->name) && memcmp(x->fnames[i], keys[k]->name, x->flens[i]) == 0)
                return diag_set(d, ST_VALIDATION, "%s can only contain non-primary key attributes: Primary"
                                " key attribute: %s", what, keys[k]->name);
    }
    return ST_OK;
}

/* The read a Query or Scan runs: r with its expressions in x (freed by
 * read_end) and the legacy AttributesToGet. */
static void read_begin(read_req *r, reqx *x, const av *atg)
{
    read_req_init(r);
    seng_reqx_init(x);
    r->x = x;
    r->atg = (av *)atg;
}

/* After the checks that need no table: a read transaction (*txn set) and
 * the table and index the request names (read_common). */
static status read_open(store *s, const ddb_req *q, read_req *r, tinfo **t, const seng_defer *df,
                        bool *txn, diag *d)
{
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    *txn = true;
    return read_common(s, q, r, t, df, d);
}

/* The end of a read whose outcome is st: its transaction ended, r and x
 * freed. */
static status read_end(store *s, status st, bool txn, read_req *r, reqx *x, diag *d)
{
    if (txn)
        st = store_txn_end(s, st, d);
    read_req_done(r);
    seng_reqx_done(x);
    return st;
}

/* Query: the typed operation. atg: the legacy AttributesToGet (AV_L of S
 * or AV_NONE); df (may be NULL): what the codec left to report, and the
 * legacy KeyConditions. */
static status query_run(store *s, const ddb_req *q, const av *atg, const seng_defer *df,
                        read_out *o, diag *d)
{
    read_req r;
    reqx x;
    read_begin(&r, &x, atg);
    bool txn = false;
    status st;
    const ddb_conds *kc = &q->legacy.keyconds;
    if (!kc->given && !q->keycond) {
        st = diag_set(d, ST_VALIDATION, "Either the KeyConditions or KeyConditionExpression parameter"
                      " must be specified in the request.");
        goto out;
    }
    if ((st = seng_exprs_typed(&x, q, df, d)) != ST_OK || (!x.key && (st = legacy_check_conditions(kc, d)) != ST_OK) ||
        (st = select_checks(q, atg, true, d)) != ST_OK)
        goto out;
    tinfo *t;
    if ((st = read_open(s, q, &r, &t, df, &txn, d)) != ST_OK)
        goto out;
    if (x.key && r.ix && index_def_multi(r.ix))
        st = key_tuple(&x, &r, d);
    else if (x.key)
        st = key_expression(&x, &r, d);
    else if (r.ix && index_def_multi(r.ix))
        st = key_conditions_tuple(kc, &r, d);
    else
        st = key_conditions(kc, &r, d);
    if (st != ST_OK || (st = seng_key_paths(&t->def, x.proj, d)) != ST_OK ||
        (st = filter_keys(&x, &r, q->legacy.filter.n ? "QueryFilter" : "Filter Expression", d)) != ST_OK ||
        (st = seng_key_paths(&t->def, x.filter, d)) != ST_OK ||
        (st = index_filter_projection(&x, &r, d)) != ST_OK ||
        (st = gsi_projection(&r, d)) != ST_OK)
        goto out;
    st = run_read(s, &r, o, d);
out:
    return read_end(s, st, txn, &r, &x, d);
}

/* Scan: the typed operation (arguments as query_run's). */
static status scan_run(store *s, const ddb_req *q, const av *atg, const seng_defer *df, read_out *o,
                       diag *d)
{
    read_req r;
    reqx x;
    read_begin(&r, &x, atg);
    bool txn = false;
    status st;
    if (q->segments && (q->segment < 0 || q->segment >= q->segments)) {
        /* AWS's 2026 words (tests/data/test_messages.c says whose). */
        st = diag_set(d, ST_VALIDATION, "The Segment parameter is zero-based and must be less than parameter"
                      " TotalSegments");
        goto out;
    }
    if ((st = seng_exprs_typed(&x, q, df, d)) != ST_OK || (st = select_checks(q, atg, false, d)) != ST_OK)
        goto out;
    tinfo *t;
    if ((st = read_open(s, q, &r, &t, df, &txn, d)) != ST_OK)
        goto out;
    if ((st = seng_key_paths(&t->def, x.proj, d)) != ST_OK || (st = seng_key_paths(&t->def, x.filter, d)) != ST_OK ||
        (st = gsi_projection(&r, d)) != ST_OK)
        goto out;
    r.rq.forward = true;
    if (q->segments) {
        r.rq.segment = q->segment;
        r.rq.segments = q->segments;
    }
    st = run_read(s, &r, o, d);
out:
    return read_end(s, st, txn, &r, &x, d);
}

status store_query_exec(store *s, const ddb_req *q, ddb_res *res, ddb_err *e)
{
    read_out o = { NULL, res };
    return q->kind == DDB_QUERY ? query_run(s, q, &q->legacy.atg, NULL, &o, &e->d)
                                : scan_run(s, q, &q->legacy.atg, NULL, &o, &e->d);
}

/* ---- the JSON codec of Query and Scan ------------------------------------ */

/* The members both take, into q (after the shape check, expr_params, the
 * legacy refusal and AttributesToGet). */
static void read_req_json(const cJSON *in, ddb_req *q, seng_defer *df)
{
    ddb_req_set_str(&q->table, store_jstr(in, "TableName"));
    ddb_req_set_str(&q->index, store_jstr(in, "IndexName"));
    ddb_req_set_str(&q->keycond, store_jstr(in, "KeyConditionExpression"));
    ddb_req_set_str(&q->filter, store_jstr(in, "FilterExpression"));
    ddb_req_set_str(&q->proj, store_jstr(in, "ProjectionExpression"));
    q->select = ddb_select_find(store_jstr(in, "Select"));
    q->limit = sop_limit(in);
    q->consistent = sop_jbool(in, "ConsistentRead", false);
    q->backward = !sop_jbool(in, "ScanIndexForward", true);
    q->rcc = sop_rcc_mode(in);
    const cJSON *esk = store_jget(in, "ExclusiveStartKey");
    if (esk && ddbjson_item_from_cjson(esk, NULL, &q->start, &df->start) != ST_OK) {
        df->start_bad = true;
        av_done(&q->start);
    }
    if (sop_maps_json(in, &q->names, &q->values, &df->maps) != ST_OK) {
        df->maps_bad = true;
        av_done(&q->names);
        av_done(&q->values);
    }
}

typedef status (*read_fn)(store *s, const ddb_req *q, const av *atg, const seng_defer *df, read_out *o,
                          diag *d);

static status read_codec(store *s, const cJSON *in, buf *out, diag *d, ddb_kind kind, read_fn fn)
{
    static const char *const q_exprs[] = { "ProjectionExpression", "FilterExpression",
                                           "KeyConditionExpression", NULL };
    static const char *const q_legacy[] = { "AttributesToGet", "QueryFilter", "ConditionalOperator",
                                            "KeyConditions", NULL };
    static const char *const s_exprs[] = { "ProjectionExpression", "FilterExpression", NULL };
    static const char *const s_legacy[] = { "AttributesToGet", "ScanFilter", "ConditionalOperator", NULL };
    bool query = kind == DDB_QUERY;
    status st = store_valid_check(in, query ? query_spec : scan_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    ddb_req q;
    ddb_req_init(&q, kind);
    av *atg = &q.legacy.atg;
    seng_defer df;
    seng_defer_init(&df);
    /* DynamoDB's order: the filter's values and rules, then
     * AttributesToGet (Query), the other way round (Scan). */
    if ((st = sop_expr_params(in, query ? q_exprs : s_exprs, query ? q_legacy : s_legacy, d)) != ST_OK ||
        (st = sop_legacy_json(in, kind, &q.legacy, d)) != ST_OK)
        goto out;
    if (query && (st = legacy_check_conditions(&q.legacy.filter, d)) != ST_OK)
        goto out;
    if ((st = sop_attributes_to_get(in, atg, d)) != ST_OK ||
        (st = legacy_check_conditions(&q.legacy.filter, d)) != ST_OK)
        goto out;
    if (query) {
        const cJSON *esk = store_jget(in, "ExclusiveStartKey");
        av tmp;
        if (esk && ddbjson_item_from_cjson(esk, NULL, &tmp, d) != ST_OK) {
            char msg[sizeof d->msg];
            snprintf(msg, sizeof msg, "%s", d->msg);
            st = diag_set(d, ST_VALIDATION, "The provided starting key is invalid: %s", msg);
            goto out;
        }
        if (esk)
            av_done(&tmp);
    } else {
        const cJSON *seg = store_jget(in, "Segment"), *tot = store_jget(in, "TotalSegments");
        if (seg && !tot) {
            st = diag_set(d, ST_VALIDATION, "The TotalSegments parameter is required but was not present"
                          " in the request when Segment parameter is present");
            goto out;
        }
        if (tot && !seg) {
            st = diag_set(d, ST_VALIDATION, "The Segment parameter is required but was not present in the"
                          " request when parameter TotalSegments is present");
            goto out;
        }
        if (seg && tot) {
            q.segment = (int)seg->valuedouble;
            q.segments = (int)tot->valuedouble;
        }
    }
    read_req_json(in, &q, &df);
    read_out o = { out, NULL };
    st = fn(s, &q, atg, &df, &o, d);
out:
    ddb_req_done(&q);
    return st;
}

status store_op_query(store *s, const cJSON *in, buf *out, diag *d)
{
    return read_codec(s, in, out, d, DDB_QUERY, query_run);
}

status store_op_scan(store *s, const cJSON *in, buf *out, diag *d)
{
    return read_codec(s, in, out, d, DDB_SCAN, scan_run);
}
