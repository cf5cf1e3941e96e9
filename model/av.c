/*
 * av — DynamoDB attribute values (see av.h for ownership and invariants).
 */
#include "model/av.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/base64.h"
#include "model/buf.h"
#include "model/mem.h"

static const char *const type_names[] = {
    [AV_NONE] = "", [AV_S] = "S", [AV_N] = "N", [AV_B] = "B",
    [AV_BOOL] = "BOOL", [AV_NULL] = "NULL", [AV_L] = "L", [AV_M] = "M",
    [AV_SS] = "SS", [AV_NS] = "NS", [AV_BS] = "BS",
};

const char *av_type_name(av_type t)
{
    if ((unsigned)t > AV_BS)
        return "";
    return type_names[t];
}

av_type av_type_from_name(const char *name, size_t len)
{
    for (int t = AV_S; t <= AV_BS; t++) {
        const char *n = type_names[t];
        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return (av_type)t;
    }
    return AV_NONE;
}

bool av_is_set(av_type t)
{
    return t == AV_SS || t == AV_NS || t == AV_BS;
}

av_type av_set_elem(av_type t)
{
    switch (t) {
    case AV_SS: return AV_S;
    case AV_NS: return AV_N;
    case AV_BS: return AV_B;
    default:    return AV_NONE;
    }
}

static bool is_listlike(av_type t)
{
    return t == AV_L || av_is_set(t);
}

/* Bytes are stored NUL-terminated, even when empty (invariant). */
static char *dup_bytes(const void *p, size_t len)
{
    char *q = xmalloc(len + 1);
    if (len)
        memcpy(q, p, len);
    q[len] = '\0';
    return q;
}

void av_init_s(av *v, const char *p, size_t len)
{
    v->type = AV_S;
    v->u.s.ptr = dup_bytes(p, len);
    v->u.s.len = len;
}

void av_init_b(av *v, const void *p, size_t len)
{
    v->type = AV_B;
    v->u.s.ptr = dup_bytes(p, len);
    v->u.s.len = len;
}

void av_init_n(av *v, const num *n)
{
    v->type = AV_N;
    v->u.n = *n;
}

void av_init_bool(av *v, bool b)
{
    v->type = AV_BOOL;
    v->u.b = b;
}

void av_init_null(av *v)
{
    v->type = AV_NULL;
}

void av_init_list(av *v, av_type t)
{
    assert(t == AV_M || is_listlike(t));
    v->type = t;
    if (t == AV_M) {
        v->u.m.v = NULL;
        v->u.m.len = v->u.m.cap = 0;
    } else {
        v->u.l.v = NULL;
        v->u.l.len = v->u.l.cap = 0;
    }
}

void av_done(av *v)
{
    switch (v->type) {
    case AV_S:
    case AV_B:
        free(v->u.s.ptr);
        break;
    case AV_L:
    case AV_SS:
    case AV_NS:
    case AV_BS:
        for (size_t i = 0; i < v->u.l.len; i++)
            av_done(&v->u.l.v[i]);
        free(v->u.l.v);
        break;
    case AV_M:
        for (size_t i = 0; i < v->u.m.len; i++) {
            free(v->u.m.v[i].name);
            av_done(&v->u.m.v[i].val);
        }
        free(v->u.m.v);
        break;
    default:
        break;
    }
    v->type = AV_NONE;
}

void av_copy(av *dst, const av *src)
{
    switch (src->type) {
    case AV_S:
    case AV_B:
        dst->type = src->type;
        dst->u.s.ptr = dup_bytes(src->u.s.ptr, src->u.s.len);
        dst->u.s.len = src->u.s.len;
        break;
    case AV_L:
    case AV_SS:
    case AV_NS:
    case AV_BS: {
        size_t n = src->u.l.len;
        dst->type = src->type;
        dst->u.l.len = dst->u.l.cap = n;
        dst->u.l.v = n ? xmalloc(n * sizeof(av)) : NULL;
        for (size_t i = 0; i < n; i++)
            av_copy(&dst->u.l.v[i], &src->u.l.v[i]);
        break;
    }
    case AV_M: {
        size_t n = src->u.m.len;
        dst->type = AV_M;
        dst->u.m.len = dst->u.m.cap = n;
        dst->u.m.v = n ? xmalloc(n * sizeof(av_member)) : NULL;
        for (size_t i = 0; i < n; i++) {
            const av_member *s = &src->u.m.v[i];
            av_member *t = &dst->u.m.v[i];
            t->name = dup_bytes(s->name, s->name_len);
            t->name_len = s->name_len;
            av_copy(&t->val, &s->val);
        }
        break;
    }
    default:
        *dst = *src;    /* N, BOOL, NULL, NONE: no heap data */
        break;
    }
}

void av_move(av *dst, av *src)
{
    *dst = *src;
    src->type = AV_NONE;
}

/* Bytewise, shorter first on a common prefix: DynamoDB's order for S and
 * B, and the order of map member names. */
static inline int cmp_bytes(const char *a, size_t alen, const char *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return alen < blen ? -1 : alen > blen;
}

bool av_equal(const av *a, const av *b)
{
    if (a->type != b->type)
        return false;
    switch (a->type) {
    case AV_S:
    case AV_B:
        return a->u.s.len == b->u.s.len &&
               memcmp(a->u.s.ptr, b->u.s.ptr, a->u.s.len) == 0;
    case AV_N:
        return num_cmp(&a->u.n, &b->u.n) == 0;
    case AV_BOOL:
        return a->u.b == b->u.b;
    case AV_L:
    case AV_SS:
    case AV_NS:
    case AV_BS:
        /* Sets are kept sorted without duplicates, so set equality is
         * element-wise equality. */
        if (a->u.l.len != b->u.l.len)
            return false;
        for (size_t i = 0; i < a->u.l.len; i++)
            if (!av_equal(&a->u.l.v[i], &b->u.l.v[i]))
                return false;
        return true;
    case AV_M:
        if (a->u.m.len != b->u.m.len)
            return false;
        for (size_t i = 0; i < a->u.m.len; i++) {
            const av_member *x = &a->u.m.v[i], *y = &b->u.m.v[i];
            if (x->name_len != y->name_len ||
                memcmp(x->name, y->name, x->name_len) != 0 ||
                !av_equal(&x->val, &y->val))
                return false;
        }
        return true;
    default:
        return true;    /* NULL, NONE */
    }
}

int av_cmp(const av *a, const av *b)
{
    if (a->type != b->type)
        return a->type < b->type ? -1 : 1;
    switch (a->type) {
    case AV_S:
    case AV_B:
        return cmp_bytes(a->u.s.ptr, a->u.s.len, b->u.s.ptr, b->u.s.len);
    case AV_N:
        return num_cmp(&a->u.n, &b->u.n);
    case AV_BOOL:
        return (int)a->u.b - (int)b->u.b;
    case AV_L:
    case AV_SS:
    case AV_NS:
    case AV_BS: {
        size_t n = a->u.l.len < b->u.l.len ? a->u.l.len : b->u.l.len;
        for (size_t i = 0; i < n; i++) {
            int c = av_cmp(&a->u.l.v[i], &b->u.l.v[i]);
            if (c)
                return c;
        }
        return a->u.l.len < b->u.l.len ? -1 : a->u.l.len > b->u.l.len;
    }
    case AV_M: {
        size_t n = a->u.m.len < b->u.m.len ? a->u.m.len : b->u.m.len;
        for (size_t i = 0; i < n; i++) {
            const av_member *x = &a->u.m.v[i], *y = &b->u.m.v[i];
            int c = cmp_bytes(x->name, x->name_len, y->name, y->name_len);
            if (!c)
                c = av_cmp(&x->val, &y->val);
            if (c)
                return c;
        }
        return a->u.m.len < b->u.m.len ? -1 : a->u.m.len > b->u.m.len;
    }
    default:
        return 0;
    }
}

void av_list_push(av *list, av *elem)
{
    assert(is_listlike(list->type));
    assert(!av_is_set(list->type) || elem->type == av_set_elem(list->type));
    if (list->u.l.len == list->u.l.cap) {
        size_t cap = list->u.l.cap ? list->u.l.cap * 2 : 4;
        list->u.l.v = xrealloc(list->u.l.v, cap * sizeof(av));
        list->u.l.cap = cap;
    }
    av_move(&list->u.l.v[list->u.l.len++], elem);
}

static int qsort_av_cmp(const void *a, const void *b)
{
    return av_cmp(a, b);
}

bool av_set_normalize(av *set)
{
    assert(av_is_set(set->type));
    size_t n = set->u.l.len;
    if (n < 2)
        return true;
    av *v = set->u.l.v;
    qsort(v, n, sizeof *v, qsort_av_cmp);
    size_t out = 1;
    for (size_t i = 1; i < n; i++) {
        if (av_cmp(&v[out - 1], &v[i]) == 0)
            av_done(&v[i]);
        else if (out++ != i)
            av_move(&v[out - 1], &v[i]);
    }
    set->u.l.len = out;
    return out == n;
}

bool av_set_has(const av *set, const av *elem)
{
    assert(av_is_set(set->type));
    if (elem->type != av_set_elem(set->type))
        return false;
    size_t lo = 0, hi = set->u.l.len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = av_cmp(&set->u.l.v[mid], elem);
        if (c == 0)
            return true;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Index of name in m, or where it would go (with *found false). */
static size_t map_find(const av *m, const char *name, size_t len, bool *found)
{
    size_t lo = 0, hi = m->u.m.len;
    const av_member *v = m->u.m.v;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = cmp_bytes(v[mid].name, v[mid].name_len, name, len);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

const av *av_map_get(const av *m, const char *name, size_t len)
{
    assert(m->type == AV_M);
    bool found;
    size_t i = map_find(m, name, len, &found);
    return found ? &m->u.m.v[i].val : NULL;
}

av *av_map_get_mut(av *m, const char *name, size_t len)
{
    return (av *)av_map_get(m, name, len);
}

void av_map_put(av *m, const char *name, size_t len, av *val)
{
    assert(m->type == AV_M);
    bool found;
    size_t i = map_find(m, name, len, &found);
    if (found) {
        av_done(&m->u.m.v[i].val);
        av_move(&m->u.m.v[i].val, val);
        return;
    }
    if (m->u.m.len == m->u.m.cap) {
        size_t cap = m->u.m.cap ? m->u.m.cap * 2 : 4;
        m->u.m.v = xrealloc(m->u.m.v, cap * sizeof(av_member));
        m->u.m.cap = cap;
    }
    memmove(&m->u.m.v[i + 1], &m->u.m.v[i], (m->u.m.len - i) * sizeof(av_member));
    m->u.m.len++;
    av_member *mb = &m->u.m.v[i];
    mb->name = dup_bytes(name, len);
    mb->name_len = len;
    av_move(&mb->val, val);
}

bool av_map_remove(av *m, const char *name, size_t len)
{
    assert(m->type == AV_M);
    bool found;
    size_t i = map_find(m, name, len, &found);
    if (!found)
        return false;
    free(m->u.m.v[i].name);
    av_done(&m->u.m.v[i].val);
    memmove(&m->u.m.v[i], &m->u.m.v[i + 1], (m->u.m.len - i - 1) * sizeof(av_member));
    m->u.m.len--;
    return true;
}

bool av_scalar_text(const av *v, buf *out)
{
    char nb[NUM_TEXT_MAX];
    switch (v->type) {
    case AV_S:
        buf_add(out, v->u.s.ptr, v->u.s.len);
        return true;
    case AV_N:
        buf_add(out, nb, num_format(&v->u.n, nb));
        return true;
    case AV_B:
        base64_encode(out, v->u.s.ptr, v->u.s.len);
        return true;
    case AV_BOOL:
        buf_adds(out, v->u.b ? "true" : "false");
        return true;
    case AV_NULL:
        buf_adds(out, "null");
        return true;
    default:
        return false;
    }
}

status av_scalar_parse(av_type t, const char *text, size_t len, av *out, diag *d)
{
    out->type = AV_NONE;
    if (t == AV_N) {
        num n;
        status st = num_parse(text, len, &n, d);
        if (st == ST_OK)
            av_init_n(out, &n);
        return st;
    }
    if (t == AV_B) {
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
    assert(t == AV_S);
    av_init_s(out, text, len);
    return ST_OK;
}
