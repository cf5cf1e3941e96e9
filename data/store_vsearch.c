/*
 * store_vsearch — SearchVectors: the typed operation (store_vec_exec) and
 * its JSON door (store_op_search_vectors).
 *
 * A search is exact: every entry of the index is scored, and the k best
 * come back. That is a correct answer to DynamoDB's approximate search
 * (an approximate search may miss a true neighbour; an exact one never
 * does), so results can differ from AWS's only where AWS's approximation
 * drops one.
 *
 * The entries (store_vector.c's vecs rows) are read once into one
 * contiguous run of floats (struct store_vcache, one index at a time,
 * shared by the process's handles on the file: store_shared.vcache), so
 * a search is a tight loop over memory; the run is read again when the
 * table's entries changed (their version, vecver, moves with every
 * change, in the change's transaction), whoever changed them. A run is
 * freed by its last holder: the shared slot holds one reference, each
 * search in progress one.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_engine.h"
#include "data/store_int.h"
#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/ddbres.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/vecidx.h"

struct store_vcache {
    int64_t tid;
    char *vname;
    int64_t ver;         /* store_vec_version when read */
    uint32_t dims;
    size_t n, cap;
    float *v;            /* n * dims */
    double *norm;        /* each vector's length (COSINE) */
    uint64_t *size;      /* each entry's size */
    buf keys, filt;      /* pk, sk and filt bytes, back to back */
    size_t *koff;        /* entry i: pk at koff[3i], sk at koff[3i+1], end koff[3i+2] */
    size_t *foff;        /* entry i: filt from foff[i] to foff[i+1] */
    int refs;            /* holders (under store_shared.vec_lock) */
};

static void cache_free(struct store_vcache *c)
{
    free(c->vname);
    free(c->v);
    free(c->norm);
    free(c->size);
    free(c->koff);
    free(c->foff);
    buf_done(&c->keys);
    buf_done(&c->filt);
    free(c);
}

/* A holder lets go of c; the last frees it. */
static void cache_release(store_shared *sh, struct store_vcache *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&sh->vec_lock);
    bool last = --c->refs == 0;
    pthread_mutex_unlock(&sh->vec_lock);
    if (last)
        cache_free(c);
}

void store_vcache_drop(store_shared *sh)
{
    struct store_vcache *c = sh->vcache;
    sh->vcache = NULL;
    cache_release(sh, c);
}

static void cache_add(struct store_vcache *c, sqlite3_stmt *q)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 256;
        c->v = xrealloc(c->v, c->cap * c->dims * sizeof *c->v);
        c->norm = xrealloc(c->norm, c->cap * sizeof *c->norm);
        c->size = xrealloc(c->size, c->cap * sizeof *c->size);
        c->koff = xrealloc(c->koff, 3 * c->cap * sizeof *c->koff);
        c->foff = xrealloc(c->foff, (c->cap + 1) * sizeof *c->foff);
    }
    size_t i = c->n;
    float *dst = c->v + i * c->dims;
    size_t vb = (size_t)sqlite3_column_bytes(q, 4);
    memset(dst, 0, c->dims * sizeof *dst);
    memcpy(dst, sqlite3_column_blob(q, 4), vb < c->dims * sizeof *dst ? vb : c->dims * sizeof *dst);
    c->norm[i] = vec_norm(dst, c->dims);
    c->size[i] = (uint64_t)sqlite3_column_int64(q, 2);
    c->koff[3 * i] = c->keys.len;
    buf_add(&c->keys, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0));
    c->koff[3 * i + 1] = c->keys.len;
    buf_add(&c->keys, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1));
    c->koff[3 * i + 2] = c->keys.len;
    c->foff[i] = c->filt.len;
    buf_add(&c->filt, sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3));
    c->foff[i + 1] = c->filt.len;
    c->n++;
}

/* The packed vectors of index v of table t as this handle's snapshot
 * has them, held (cache_release after): the shared run when it is
 * current, else a new one read from the rows (outside the lock: other
 * searches go on meanwhile), which becomes the shared one. */
static status cache_get(store *s, const tinfo *t, const vec_index *v, struct store_vcache **out, diag *d)
{
    store_shared *sh = s->sh;
    int64_t ver = store_vec_version(s, t->id);
    pthread_mutex_lock(&sh->vec_lock);
    struct store_vcache *c = sh->vcache;
    bool hit = c && c->tid == t->id && strcmp(c->vname, v->name) == 0 && c->dims == v->dims && c->ver == ver;
    if (hit)
        c->refs++;
    pthread_mutex_unlock(&sh->vec_lock);
    if (hit) {
        *out = c;
        return ST_OK;
    }
    c = xcalloc(1, sizeof *c);
    c->refs = 1;
    c->tid = t->id;
    c->vname = xstrdup(v->name);
    c->ver = ver;
    c->dims = v->dims;
    c->foff = xcalloc(1, sizeof *c->foff);
    if (store_vec_has(s)) {
        sqlite3_stmt *q = NULL;
        /* Key order: equal scores come back in the order of the item keys. */
        if (sqlite3_prepare_v2(s->db, "SELECT pk, sk, size, filt, v FROM vecs WHERE tid = ?1 AND vname = ?2"
                               " ORDER BY pk, sk", -1, &q, NULL) != SQLITE_OK) {
            cache_free(c);
            return store_sqlerr(s, d);
        }
        sqlite3_bind_int64(q, 1, t->id);
        sqlite3_bind_text(q, 2, v->name, -1, SQLITE_STATIC);
        int rc;
        while ((rc = sqlite3_step(q)) == SQLITE_ROW)
            cache_add(c, q);
        sqlite3_finalize(q);
        if (rc != SQLITE_DONE) {
            cache_free(c);
            return store_sqlerr(s, d);
        }
    }
    pthread_mutex_lock(&sh->vec_lock);
    struct store_vcache *old = sh->vcache;
    sh->vcache = c;
    c->refs++;   /* the shared slot's */
    bool last = old && --old->refs == 0;
    pthread_mutex_unlock(&sh->vec_lock);
    if (last)
        cache_free(old);
    *out = c;
    return ST_OK;
}

/* ---- the condition: each term's value as the entries hold it ---- */

typedef struct want {
    size_t slot;         /* the term's attribute's position in the schema */
    buf enc;             /* the value's keyenc bytes */
    bool never;          /* a value of another type: matches nothing */
} want;

static bool entry_matches(const struct store_vcache *c, size_t i, const want *w, size_t nw)
{
    const unsigned char *p = (const unsigned char *)c->filt.data + c->foff[i];
    const unsigned char *end = (const unsigned char *)c->filt.data + c->foff[i + 1];
    for (size_t j = 0; j < nw; j++) {
        if (w[j].never)
            return false;
        const unsigned char *f = p;
        uint32_t len = 0;
        for (size_t slot = 0;; slot++) {
            if (f + 4 > end)
                return false;
            memcpy(&len, f, 4);
            if (slot == w[j].slot)
                break;
            f += 4 + (len == UINT32_MAX ? 0 : len);
        }
        if (len == UINT32_MAX || len != w[j].enc.len || memcmp(f + 4, w[j].enc.data, len) != 0)
            return false;
    }
    return true;
}

/* The rest of the condition (vec_cond_terms' rest), on entry i's
 * search-schema attributes as the index holds them (an attribute the
 * item lacks is missing here too). */
static bool entry_eval(const struct store_vcache *c, size_t i, const vec_index *v, const expr *e)
{
    const unsigned char *f = (const unsigned char *)c->filt.data + c->foff[i];
    const unsigned char *end = (const unsigned char *)c->filt.data + c->foff[i + 1];
    av m;
    av_init_list(&m, AV_M);
    diag d;
    diag_init(&d);
    for (size_t slot = 0; slot < v->n_schema && f + 4 <= end; slot++) {
        uint32_t len;
        memcpy(&len, f, 4);
        f += 4;
        if (len == UINT32_MAX)
            continue;
        av val;
        size_t used = 0;
        if (len > (size_t)(end - f) || keyenc_decode(f, len, v->schema[slot].type, &val, &used, &d) != ST_OK)
            break;
        av_map_put(&m, v->schema[slot].name, strlen(v->schema[slot].name), &val);
        f += len;
    }
    bool yes = expr_eval(e, &m);
    av_done(&m);
    return yes;
}

/* ---- the search ---- */

/* The k best entries: one pass over the floats. The distance function
 * is chosen once, outside the loop. */
static void scan_all(const struct store_vcache *c, vec_dist f, const float *q, double qn, const want *w,
                     size_t nw, const vec_index *v, const expr *rest, vec_topk *top)
{
    size_t dims = c->dims;
    for (size_t i = 0; i < c->n; i++) {
        if (nw && !entry_matches(c, i, w, nw))
            continue;
        if (rest && !entry_eval(c, i, v, rest))
            continue;
        const float *x = c->v + i * dims;
        double score;
        if (f == VEC_DOT_PRODUCT)
            score = vec_dot(q, x, dims);
        else if (f == VEC_EUCLIDEAN)
            score = vec_dist2(q, x, dims);   /* squared: the root only for the k kept */
        else
            score = vec_score(VEC_COSINE, q, x, dims, qn, c->norm[i]);
        if (vec_topk_wants(top, score))
            vec_topk_push(top, score, i);
    }
    if (f == VEC_EUCLIDEAN)
        for (size_t i = 0; i < top->n; i++)
            top->score[i] = sqrt(top->score[i]);
}

/* The entry as the index keeps it: the table's keys, the search schema's
 * attributes, the vector, and what the Projection adds. */
static void entry_of(const table_def *def, const vec_index *v, const av *item, av *out)
{
    av_init_list(out, AV_M);
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        bool in = v->proj == PROJ_ALL || strcmp(m->name, v->attr) == 0 || table_def_is_key(def, NULL, m->name) ||
                  vec_index_schema_attr(v, m->name, m->name_len);
        for (size_t j = 0; !in && v->proj == PROJ_INCLUDE && j < v->n_include; j++)
            in = strcmp(v->include[j], m->name) == 0;
        if (in) {
            av copy;
            av_copy(&copy, &m->val);
            av_map_put(out, m->name, m->name_len, &copy);
        }
    }
}

/* Scores as float, the precision the index computes in (the API gives a
 * Double: the float's value). */
static double narrow(double s)
{
    return (double)(float)s;
}

typedef struct vsearch {
    const ddb_req *r;
    reqx x;
    vec_term *terms;
    size_t n_terms;
    bool rest;           /* the condition says more than terms */
    want *w;
    float *q;
} vsearch;

/* The request's own checks, before any table is read: TopK's range, the
 * vector's values, then the expressions (the SearchConditionExpression
 * parsed as a condition, its messages naming it). */
static status request_checks(vsearch *vs, diag *d)
{
    const ddb_req *r = vs->r;
    /* The developer guide's troubleshooting table says "Provided TopK
     * value is out of valid range"; the rest of the sentence is the
     * emulator's capture (read 2026-12-06). */
    if (r->topk < 1 || r->topk > VEC_MAX_TOPK)
        return diag_set(d, ST_VALIDATION, "Provided TopK value '%u' is out of valid range. The value must be"
                        " between 1 and %u inclusive", (unsigned)r->topk, VEC_MAX_TOPK);
    size_t n = r->svec.type == AV_L ? r->svec.u.l.len : 0;
    vs->q = xcalloc(n ? n : 1, sizeof *vs->q);
    if (r->svec.type != AV_L || n == 0 || n > VEC_MAX_DIMS || !vec_of_list(&r->svec, vs->q))
        return diag_set(d, ST_VALIDATION, "Search vector contains invalid values. All values in the search"
                        " vector must be a 32-bit floating-point number attribute");
    ddb_req e;
    ddb_req_init(&e, DDB_SEARCH_VECTORS);
    e.filter = r->scond;
    e.proj = r->proj;
    e.names = r->names;
    e.values = r->values;
    status st = seng_exprs_typed(&vs->x, &e, NULL, d);
    if (st != ST_OK) {
        /* The expression was parsed as a filter: say what it is. */
        char *p = strstr(d->msg, "FilterExpression");
        if (p && strlen(d->msg) + 9 < sizeof d->msg) {
            memmove(p + 25, p + 16, strlen(p + 16) + 1);
            memcpy(p, "SearchConditionExpression", 25);
        }
    }
    return st;
}

static status index_checks(vsearch *vs, const tinfo *t, const vec_index **vp, diag *d)
{
    const ddb_req *r = vs->r;
    const vec_index *v = vec_index_find(&t->def, r->index);
    if (!v)
        return diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s",
                        r->index ? r->index : "");
    if (r->svec.u.l.len != v->dims)
        return diag_set(d, ST_VALIDATION, "Input search vector dimension %zu does not match vector index"
                        " dimension %u", r->svec.u.l.len, v->dims);
    status st = vec_cond_terms(v, vs->x.filter, &vs->terms, &vs->n_terms, &vs->rest, d);
    if (st != ST_OK)
        return st;
    vs->w = vs->n_terms ? xcalloc(vs->n_terms, sizeof *vs->w) : NULL;
    for (size_t i = 0; i < vs->n_terms; i++) {
        want *w = &vs->w[i];
        w->slot = (size_t)(vs->terms[i].attr - v->schema);
        w->never = !vs->terms[i].value || vs->terms[i].value->type != vs->terms[i].attr->type;
        if (!w->never)
            keyenc_append(&w->enc, vs->terms[i].value);
    }
    *vp = v;
    return ST_OK;
}

/* The k found, each loaded from the table and cut to the index's
 * projection (the vector left out unless a ProjectionExpression names
 * it: the emulator's reading of AWS's answers, 2026-12-06). */
static status answer(store *s, vsearch *vs, const tinfo *t, const vec_index *v,
                     const struct store_vcache *c, const vec_topk *top, ddb_res *res, diag *d)
{
    store_key k;
    store_key_init(&k);
    status st = ST_OK;
    uint64_t bytes = 0;
    for (size_t i = 0; st == ST_OK && i < top->n; i++) {
        size_t id = top->id[i];
        buf_reset(&k.pk);
        buf_reset(&k.sk);
        buf_add(&k.pk, c->keys.data + c->koff[3 * id], c->koff[3 * id + 1] - c->koff[3 * id]);
        buf_add(&k.sk, c->keys.data + c->koff[3 * id + 1], c->koff[3 * id + 2] - c->koff[3 * id + 1]);
        av item, entry;
        bool found = false;
        if ((st = store_load(s, t, &k, &item, &found, NULL, d)) != ST_OK)
            break;
        if (!found)
            continue;
        entry_of(&t->def, v, &item, &entry);
        av_done(&item);
        bytes += c->size[id];
        if (vs->r->proj)
            seng_project(&vs->x, NULL, &entry);
        else
            av_map_remove(&entry, v->attr, strlen(v->attr));
        ddb_res_push_scored(res, &entry, narrow(top->score[i]));
    }
    store_key_done(&k);
    /* VectorCapacity.VectorSearchRequestBytes: the query vector and the
     * entries read back, at least 1 KB (the emulator's metering, read
     * 2026-12-06; AWS's pages name the member, not its arithmetic). */
    if (st == ST_OK && vs->r->rcc != DDB_RCC_NONE) {
        double b = 4.0 * v->dims + (double)bytes;
        res->vbytes = b < 1024 ? 1024 : b;
        res->has_vbytes = true;
    }
    return st;
}

status store_vec_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    vsearch vs = { .r = r };
    seng_reqx_init(&vs.x);
    bool txn = false;
    vec_topk top = { 0 };
    status st = request_checks(&vs, d);
    if (st == ST_OK && (st = store_txn_begin(s, false, d)) == ST_OK)
        txn = true;
    tinfo *t = NULL;
    const vec_index *v = NULL;
    struct store_vcache *c = NULL;
    if (st == ST_OK)
        st = store_table(s, r->table, &t, d);
    if (st == ST_OK)
        st = index_checks(&vs, t, &v, d);
    if (st == ST_OK)
        st = cache_get(s, t, v, &c, d);
    if (st == ST_OK) {
        vec_topk_init(&top, v->dist, r->topk);
        scan_all(c, v->dist, vs.q, vec_norm(vs.q, v->dims), vs.w, vs.n_terms, v, vs.rest ? vs.x.filter : NULL,
                 &top);
        st = answer(s, &vs, t, v, c, &top, res, d);
        vec_topk_done(&top);
        cache_release(s->sh, c);
    }
    if (txn)
        st = store_txn_end(s, st, d);
    for (size_t i = 0; i < vs.n_terms; i++)
        buf_done(&vs.w[i].enc);
    free(vs.w);
    free(vs.terms);
    free(vs.q);
    seng_reqx_done(&vs.x);
    return st;
}

/* ---- the JSON door ---- */

static const vspec svec_elem = { .name = "member", .type = VT_ATTR };
/* The API reference's SearchVectors request, in its member order. */
static const vspec search_spec[] = {
    F_TABLE,
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_RCC,
    F_EAN,
    F_EAV,
    { .name = "ProjectionExpression", .type = VT_STRING },
    { .name = "SearchVector", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1, .max_len = 4096,
      .elem = &svec_elem },
    { .name = "SearchConditionExpression", .type = VT_STRING },
    { .name = "TopK", .type = VT_INT, .flags = VF_NOTNULL, .ge = 1, .has_ge = true },
    F_END,
};

status store_op_search_vectors(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, search_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    ddb_req r;
    ddb_req_init(&r, DDB_SEARCH_VECTORS);
    ddb_req_set_str(&r.table, store_jstr(in, "TableName"));
    ddb_req_set_str(&r.index, store_jstr(in, "IndexName"));
    ddb_req_set_str(&r.proj, store_jstr(in, "ProjectionExpression"));
    ddb_req_set_str(&r.scond, store_jstr(in, "SearchConditionExpression"));
    const cJSON *k = store_jget(in, "TopK");
    r.topk = cJSON_IsNumber(k) && k->valuedouble >= 1 ? k->valuedouble > 1e9 ? 1000000000u
                                                                             : (uint32_t)k->valuedouble : 0;
    r.rcc = sop_rcc_mode(in);
    av_init_list(&r.svec, AV_L);
    const cJSON *e;
    cJSON_ArrayForEach(e, store_jget(in, "SearchVector")) {
        av v;
        if ((st = ddbjson_value_from_cjson(e, "SearchVector", &v, d)) != ST_OK)
            goto out;
        av_list_push(&r.svec, &v);
    }
    if ((st = sop_maps_json(in, &r.names, &r.values, d)) != ST_OK)
        goto out;
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    st = store_vec_exec(s, &r, &res, &err);
    if (st == ST_OK)
        ddb_res_json(&r, &res, out);
    else
        *d = err.d;
    ddb_err_done(&err);
    ddb_res_done(&res);
out:
    ddb_req_done(&r);
    return st;
}
