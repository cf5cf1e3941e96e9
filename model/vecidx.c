/*
 * vecidx — vector indexes and the arithmetic of a search (see vecidx.h).
 */
#include "model/vecidx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbreq.h"
#include "model/expr.h"
#include "model/mem.h"
#include "model/num.h"

static const char *const dist_names[] = { "COSINE", "EUCLIDEAN", "DOT_PRODUCT" };

const char *vec_dist_name(vec_dist f)
{
    return (unsigned)f < 3 ? dist_names[f] : "";
}

int vec_dist_find(const char *name)
{
    for (int i = 0; name && i < 3; i++)
        if (strcmp(name, dist_names[i]) == 0)
            return i;
    return -1;
}

void vec_index_free(vec_index *v)
{
    free(v->name);
    free(v->attr);
    for (size_t i = 0; i < v->n_schema; i++)
        free(v->schema[i].name);
    free(v->schema);
    for (size_t i = 0; i < v->n_include; i++)
        free(v->include[i]);
    free(v->include);
    memset(v, 0, sizeof *v);
}

void vec_index_copy(vec_index *dst, const vec_index *src)
{
    *dst = *src;
    dst->name = xstrdup(src->name);
    dst->attr = xstrdup(src->attr);
    dst->schema = src->n_schema ? xcalloc(src->n_schema, sizeof *dst->schema) : NULL;
    for (size_t i = 0; i < src->n_schema; i++) {
        dst->schema[i] = src->schema[i];
        dst->schema[i].name = xstrdup(src->schema[i].name);
    }
    dst->include = src->n_include ? xcalloc(src->n_include, sizeof *dst->include) : NULL;
    for (size_t i = 0; i < src->n_include; i++)
        dst->include[i] = xstrdup(src->include[i]);
}

const vec_index *vec_index_find(const table_def *t, const char *name)
{
    for (size_t i = 0; name && i < t->n_vidx; i++)
        if (strcmp(t->vidx[i].name, name) == 0)
            return &t->vidx[i];
    return NULL;
}

const vec_attr *vec_index_hash(const vec_index *v)
{
    for (size_t i = 0; i < v->n_schema; i++)
        if (v->schema[i].hash)
            return &v->schema[i];
    return NULL;
}

const vec_attr *vec_index_schema_attr(const vec_index *v, const char *name, size_t len)
{
    for (size_t i = 0; i < v->n_schema; i++)
        if (strlen(v->schema[i].name) == len && memcmp(v->schema[i].name, name, len) == 0)
            return &v->schema[i];
    return NULL;
}

/* A number as the float the index keeps; false when no finite float
 * holds it (1E+100 is a DynamoDB number but no float32). */
static bool as_float(const av *e, float *out)
{
    if (e->type != AV_N)
        return false;
    char text[NUM_TEXT_MAX];
    num_format(&e->u.n, text);
    float f = strtof(text, NULL);
    if (!isfinite(f))
        return false;
    *out = f;
    return true;
}

status vec_of_item(const vec_index *v, const av *item, float *out, bool *present, diag *d)
{
    *present = false;
    const av *val = item->type == AV_M ? av_map_get(item, v->attr, strlen(v->attr)) : NULL;
    if (!val)
        return ST_OK;
    if (val->type != AV_L)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid. Invalid type for"
                        " parameter %s, Expected: 32-bit floating point number list IndexName: %s",
                        v->attr, v->name);
    for (size_t i = 0; i < val->u.l.len; i++) {
        float f;
        if (!as_float(&val->u.l.v[i], &f))
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid. Invalid type"
                            " for parameter %s[%zu], Expected: 32-bit floating point number, Actual: %s."
                            " IndexName: %s", v->attr, i, av_type_name(val->u.l.v[i].type), v->name);
        if (i < v->dims)
            out[i] = f;
    }
    if (val->u.l.len != v->dims)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid. Invalid size for"
                        " parameter %s, Expected: %u, Actual: %zu IndexName: %s", v->attr, v->dims,
                        val->u.l.len, v->name);
    *present = true;
    return ST_OK;
}

bool vec_of_list(const av *list, float *out)
{
    for (size_t i = 0; i < list->u.l.len; i++)
        if (!as_float(&list->u.l.v[i], &out[i]))
            return false;
    return true;
}

/* Eight accumulators: the loop the compiler keeps in vector registers
 * without -ffast-math (a single float sum is one long dependency chain). */
float vec_dot(const float *a, const float *b, size_t n)
{
    float s[8] = { 0 };
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++)
            s[j] += a[i + j] * b[i + j];
    float t = (s[0] + s[4]) + (s[1] + s[5]) + (s[2] + s[6]) + (s[3] + s[7]);
    for (; i < n; i++)
        t += a[i] * b[i];
    return t;
}

float vec_dist2(const float *a, const float *b, size_t n)
{
    float s[8] = { 0 };
    size_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int j = 0; j < 8; j++) {
            float x = a[i + j] - b[i + j];
            s[j] += x * x;
        }
    float t = (s[0] + s[4]) + (s[1] + s[5]) + (s[2] + s[6]) + (s[3] + s[7]);
    for (; i < n; i++)
        t += (a[i] - b[i]) * (a[i] - b[i]);
    return t;
}

double vec_norm(const float *a, size_t n)
{
    return sqrt((double)vec_dot(a, a, n));
}

double vec_score(vec_dist f, const float *q, const float *c, size_t n, double qnorm, double cnorm)
{
    switch (f) {
    case VEC_DOT_PRODUCT:
        return vec_dot(q, c, n);
    case VEC_EUCLIDEAN:
        return sqrt((double)vec_dist2(q, c, n));
    case VEC_COSINE:
    default: {
        if (qnorm == 0 || cnorm == 0)
            return 1.0;
        double s = 1.0 - (double)vec_dot(q, c, n) / (qnorm * cnorm);
        /* Rounding may step just outside [0, 2]. */
        return s < 0 ? 0 : s > 2 ? 2 : s;
    }
    }
}

bool vec_better(vec_dist f, double a, double b)
{
    return f == VEC_DOT_PRODUCT ? a > b : a < b;
}

void vec_topk_init(vec_topk *t, vec_dist f, size_t k)
{
    t->f = f;
    t->k = k;
    t->n = 0;
    t->score = xcalloc(k ? k : 1, sizeof *t->score);
    t->id = xcalloc(k ? k : 1, sizeof *t->id);
}

void vec_topk_done(vec_topk *t)
{
    free(t->score);
    free(t->id);
    memset(t, 0, sizeof *t);
}

/* Insertion into a sorted run of at most k (k <= 100): ties keep the
 * earlier id first, so equal scores come back in key order. */
void vec_topk_push(vec_topk *t, double score, size_t id)
{
    if (!vec_topk_wants(t, score))
        return;
    size_t i = t->n < t->k ? t->n++ : t->n - 1;
    while (i > 0 && vec_better(t->f, score, t->score[i - 1])) {
        t->score[i] = t->score[i - 1];
        t->id[i] = t->id[i - 1];
        i--;
    }
    t->score[i] = score;
    t->id[i] = id;
}

/* ---- SearchConditionExpression ---- */

static status bad_comparator(diag *d)
{
    return diag_set(d, ST_VALIDATION, "Invalid SearchConditionExpression: Invalid comparator used in"
                    " SearchConditionExpression");
}

/* What the walk gathers: the equalities of the top-level AND (each a
 * condition every match meets), and whether anything else is there. */
typedef struct cond_walk {
    const vec_index *v;
    bool shape;          /* the first pass: operators and operands only */
    vec_term *terms;
    size_t n;
    bool rest;
} cond_walk;

/* A comparison (=, <>, <, <=, >, >=), BETWEEN or IN: one side a
 * top-level SearchSchema attribute, the others values. The HASH
 * attribute only in one equality of the top-level AND (the
 * troubleshooting table: a search names its partition; another comparator
 * on it was refused as "Invalid comparator", test_vector.c's [EMU2]). */
static status walk_cmp(cond_walk *w, const expr_node *n, bool top, diag *d)
{
    const expr_node *p = NULL, *val = NULL;
    for (size_t i = 0; i < n->n_kids; i++) {
        const expr_node *k = n->kids[i];
        if (k->kind == EN_PATH && !p)
            p = k;
        else if (k->kind == EN_VALUE)
            val = k;
        else
            return bad_comparator(d);
    }
    if (!p || !val || (n->kind != EN_CMP && p != n->kids[0]))
        return bad_comparator(d);
    if (w->shape)
        return ST_OK;
    /* Top-level attributes only (the reference: "A condition cannot
     * reference a nested attribute path"). */
    const expr_step *s0 = &p->path.steps[0];
    const vec_attr *a = p->path.n == 1 && !s0->is_index ? vec_index_schema_attr(w->v, s0->name, s0->len) : NULL;
    if (!a)
        return diag_set(d, ST_VALIDATION, "SearchConditionExpression must not contain any attributes that"
                        " is not in SearchSchema. Invalid attribute: %.*s", (int)s0->len,
                        s0->name ? s0->name : "");
    bool eq = n->kind == EN_CMP && n->op == CMP_EQ && top;
    if (a->hash && !eq)
        return bad_comparator(d);
    if (!eq) {
        w->rest = true;
        return ST_OK;
    }
    w->terms = xrealloc(w->terms, (w->n + 1) * sizeof *w->terms);
    w->terms[w->n++] = (vec_term){ a, val->value };
    return ST_OK;
}

/* top: n is a conjunct of the top-level AND. OR and NOT, IN and BETWEEN
 * (the reference's example combines them), AND and parentheses; no
 * functions (the troubleshooting table's refusal). */
static status walk(cond_walk *w, const expr_node *n, bool top, diag *d)
{
    switch (n->kind) {
    case EN_AND: {
        status st = walk(w, n->kids[0], top, d);
        return st == ST_OK ? walk(w, n->kids[1], top, d) : st;
    }
    case EN_OR:
    case EN_NOT:
        w->rest = true;
        for (size_t i = 0; i < n->n_kids; i++) {
            status st = walk(w, n->kids[i], false, d);
            if (st != ST_OK)
                return st;
        }
        return ST_OK;
    case EN_CMP:
    case EN_BETWEEN:
    case EN_IN:
        return walk_cmp(w, n, top, d);
    default:
        return bad_comparator(d);
    }
}

status vec_cond_terms(const vec_index *v, const expr *e, vec_term **terms, size_t *n_terms, bool *rest,
                      diag *d)
{
    /* Operators before attribute names, the whole expression first
     * (DynamoDB's order as a second-hand test reads it: test_vector.c's
     * [EMU3]). */
    cond_walk w = { .v = v, .shape = true };
    status st = e ? walk(&w, expr_root(e), true, d) : ST_OK;
    w.shape = false;
    w.rest = false;
    if (st == ST_OK && e)
        st = walk(&w, expr_root(e), true, d);
    /* Every search on an index with a HASH element names one partition of
     * it (the troubleshooting table's first row). */
    const vec_attr *h = vec_index_hash(v);
    bool bound = !h;
    for (size_t i = 0; st == ST_OK && h && i < w.n; i++)
        bound |= w.terms[i].attr == h;
    if (st == ST_OK && !bound)
        st = diag_set(d, ST_VALIDATION, "SearchConditionExpression must be provided when SearchSchema has a"
                      " HASH key");
    if (st != ST_OK) {
        free(w.terms);
        w.terms = NULL;
        w.n = 0;
        w.rest = false;
    }
    *terms = w.terms;
    *n_terms = w.n;
    *rest = w.rest;
    return st;
}

/* ---- "more like this" ---- */

static void fmt_value(struct buf *out, const av *v)
{
    if (v->type == AV_S || v->type == AV_B) {
        buf_add(out, v->u.s.ptr, v->u.s.len);
    } else if (v->type == AV_N) {
        char text[NUM_TEXT_MAX];
        buf_add(out, text, num_format(&v->u.n, text));
    }
}

bool vec_similar_req(const vec_index *v, const char *table, const av *item, bool filters, uint32_t topk,
                     ddb_req *out, buf *said)
{
    float *tmp = xcalloc(v->dims, sizeof *tmp);
    bool present = false;
    diag d;
    diag_init(&d);
    bool fits = vec_of_item(v, item, tmp, &present, &d) == ST_OK && present;
    free(tmp);
    const vec_attr *h = vec_index_hash(v);
    const av *hv = h ? av_map_get(item, h->name, strlen(h->name)) : NULL;
    if (!fits || (h && (!hv || hv->type != h->type)))
        return false;
    ddb_req_init(out, DDB_SEARCH_VECTORS);
    ddb_req_set_str(&out->table, table);
    ddb_req_set_str(&out->index, v->name);
    out->topk = topk;
    out->rcc = DDB_RCC_TOTAL;
    av_copy(&out->svec, av_map_get(item, v->attr, strlen(v->attr)));
    buf cond = BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; i < v->n_schema; i++) {
        const vec_attr *a = &v->schema[i];
        const av *val = av_map_get(item, a->name, strlen(a->name));
        if (!val || val->type != a->type || (!a->hash && !filters))
            continue;
        char nm[16], vl[16];
        snprintf(nm, sizeof nm, "#n%zu", n);
        snprintf(vl, sizeof vl, ":v%zu", n);
        if (!n) {
            av_init_list(&out->names, AV_M);
            av_init_list(&out->values, AV_M);
        }
        buf_printf(&cond, "%s%s = %s", n ? " AND " : "", nm, vl);
        av s, c;
        av_init_s(&s, a->name, strlen(a->name));
        av_map_put(&out->names, nm, strlen(nm), &s);
        av_copy(&c, val);
        av_map_put(&out->values, vl, strlen(vl), &c);
        buf_printf(said, "%s%s = ", n ? " AND " : "", a->name);
        fmt_value(said, val);
        n++;
    }
    if (n)
        ddb_req_set_str(&out->scond, cond.data);
    buf_done(&cond);
    return true;
}
