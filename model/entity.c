/*
 * entity — entity types inferred from items, and matched (see entity.h).
 */
#include "model/entity.h"

#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"
#include "model/size.h"

/* ---- lifecycle ----------------------------------------------------------- */

void entity_init(ent_entity *e)
{
    memset(e, 0, sizeof *e);
    e->sample.type = AV_NONE;
}

void entity_done(ent_entity *e)
{
    free(e->name);
    free(e->type_value);
    free(e->pk_tmpl);
    free(e->sk_tmpl);
    for (size_t i = 0; i < e->n_attrs; i++)
        free(e->attrs[i].name);
    free(e->attrs);
    for (size_t i = 0; i < e->n_idx; i++) {
        free(e->idx[i].name);
        free(e->idx[i].pk_tmpl);
        free(e->idx[i].sk_tmpl);
    }
    free(e->idx);
    av_done(&e->sample);
    entity_init(e);
}

void ent_table_init(ent_table *t)
{
    memset(t, 0, sizeof *t);
}

void ent_table_done(ent_table *t)
{
    free(t->name);
    table_def_free(&t->def);
    free(t->type_attr);
    free(t->ttl_attr);
    for (size_t i = 0; i < t->n; i++)
        entity_done(&t->e[i]);
    free(t->e);
    for (size_t i = 0; i < t->n_strays_keys; i++)
        av_done(&t->strays_keys[i]);
    ent_table_init(t);
}

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

/* Deep copies into uninitialised destinations. */
static void entity_copy(ent_entity *dst, const ent_entity *src)
{
    *dst = *src;
    dst->name = dup_or_null(src->name);
    dst->type_value = dup_or_null(src->type_value);
    dst->pk_tmpl = dup_or_null(src->pk_tmpl);
    dst->sk_tmpl = dup_or_null(src->sk_tmpl);
    dst->attrs = src->n_attrs ? xmemdup(src->attrs, src->n_attrs * sizeof *src->attrs) : NULL;
    for (size_t i = 0; i < src->n_attrs; i++)
        dst->attrs[i].name = xstrdup(src->attrs[i].name);
    dst->idx = src->n_idx ? xmemdup(src->idx, src->n_idx * sizeof *src->idx) : NULL;
    for (size_t i = 0; i < src->n_idx; i++) {
        dst->idx[i].name = dup_or_null(src->idx[i].name);
        dst->idx[i].pk_tmpl = dup_or_null(src->idx[i].pk_tmpl);
        dst->idx[i].sk_tmpl = dup_or_null(src->idx[i].sk_tmpl);
    }
    av_copy(&dst->sample, &src->sample);
}

void ent_table_copy(ent_table *dst, const ent_table *src)
{
    *dst = *src;
    dst->name = dup_or_null(src->name);
    table_def_copy(&dst->def, &src->def);
    dst->type_attr = dup_or_null(src->type_attr);
    dst->ttl_attr = dup_or_null(src->ttl_attr);
    dst->e = src->n ? xcalloc(src->n, sizeof *dst->e) : NULL;
    for (size_t i = 0; i < src->n; i++)
        entity_copy(&dst->e[i], &src->e[i]);
    for (size_t i = 0; i < src->n_strays_keys; i++)
        av_copy(&dst->strays_keys[i], &src->strays_keys[i]);
}

void ent_model_init(ent_model *m)
{
    memset(m, 0, sizeof *m);
}

void ent_model_done(ent_model *m)
{
    for (size_t i = 0; i < m->n; i++)
        ent_table_done(&m->t[i]);
    free(m->t);
    ent_model_init(m);
}

void ent_model_put(ent_model *m, ent_table *t)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->t[i].name, t->name) == 0) {
            ent_table_done(&m->t[i]);
            m->t[i] = *t;
            ent_table_init(t);
            return;
        }
    m->t = xrealloc(m->t, (m->n + 1) * sizeof *m->t);
    m->t[m->n++] = *t;
    ent_table_init(t);
}

const ent_table *ent_model_table(const ent_model *m, const char *name)
{
    for (size_t i = 0; m && i < m->n; i++)
        if (strcmp(m->t[i].name, name) == 0)
            return &m->t[i];
    return NULL;
}

const ent_entity *ent_table_entity(const ent_table *t, const char *name)
{
    for (size_t i = 0; t && i < t->n; i++)
        if (strcmp(t->e[i].name, name) == 0)
            return &t->e[i];
    return NULL;
}

const ent_attr *entity_attr(const ent_entity *e, const char *name)
{
    size_t lo = 0, hi = e->n_attrs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(e->attrs[mid].name, name);
        if (c == 0)
            return &e->attrs[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int cmp_entity(const void *a, const void *b)
{
    return strcmp(((const ent_entity *)a)->name, ((const ent_entity *)b)->name);
}

static int cmp_attr(const void *a, const void *b)
{
    return strcmp(((const ent_attr *)a)->name, ((const ent_attr *)b)->name);
}

void ent_table_sort(ent_table *t)
{
    if (t->n)
        qsort(t->e, t->n, sizeof *t->e, cmp_entity);
}

void entity_sort_attrs(ent_entity *e)
{
    if (e->n_attrs)
        qsort(e->attrs, e->n_attrs, sizeof *e->attrs, cmp_attr);
}

/* ---- template accumulation ------------------------------------------------ */

#define TSEG_MAX 8
#define SAME_MAX 8

/* Candidate attribute names (an intersection: only shrinks). */
typedef struct cands {
    bool init;
    char *name[SAME_MAX];
    size_t n;
} cands;

static void cands_done(cands *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->name[i]);
    memset(c, 0, sizeof *c);
}

/* One key attribute's values, seen so far. */
typedef struct tacc {
    uint64_t n;
    av_type type;          /* of the first value */
    bool mixed;            /* other types too */
    bool iso;              /* every value an ISO-8601 date */
    size_t nmin, nmax;     /* segments split at '#' */
    char *lit[TSEG_MAX];   /* segment i while it was the same in every value */
    bool var[TSEG_MAX];
    char *pfx[TSEG_MAX];   /* the common start of segment i's values */
    size_t minlen[TSEG_MAX];
    cands same;            /* attributes always equal to the whole value */
    cands seg[TSEG_MAX];   /* attributes always equal to segment i */
} tacc;

static void tacc_done(tacc *t)
{
    for (int i = 0; i < TSEG_MAX; i++) {
        free(t->lit[i]);
        free(t->pfx[i]);
        cands_done(&t->seg[i]);
    }
    cands_done(&t->same);
    memset(t, 0, sizeof *t);
}

static bool is_iso8601(const char *s, size_t n)
{
    static const char shape[] = "dddd-dd-dd";
    if (n < 10)
        return false;
    for (int i = 0; i < 10; i++)
        if (shape[i] == 'd' ? !isdigit((unsigned char)s[i]) : s[i] != shape[i])
            return false;
    return n == 10 || s[10] == 'T' || s[10] == ' ';
}

/* Keeps in c only the names whose value in item is text[0..n) (an S), or
 * equals whole (when whole is given); self is never a candidate. */
static void cands_update(cands *c, const av *item, const char *self, const char *text, size_t n,
                         const av *whole)
{
    if (!c->init) {
        c->init = true;
        for (size_t i = 0; i < item->u.m.len && c->n < SAME_MAX; i++) {
            const av_member *m = &item->u.m.v[i];
            if (strcmp(m->name, self) == 0)
                continue;
            bool eq = whole ? av_equal(&m->val, whole)
                            : m->val.type == AV_S && m->val.u.s.len == n &&
                                  memcmp(m->val.u.s.ptr, text, n) == 0;
            if (eq)
                c->name[c->n++] = xstrdup(m->name);
        }
        return;
    }
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++) {
        const av *v = av_map_get(item, c->name[i], strlen(c->name[i]));
        bool eq = v && (whole ? av_equal(v, whole)
                              : v->type == AV_S && v->u.s.len == n && memcmp(v->u.s.ptr, text, n) == 0);
        if (eq)
            c->name[k++] = c->name[i];
        else
            free(c->name[i]);
    }
    c->n = k;
}

static void tacc_add(tacc *t, const av *item, const char *attr, const av *v)
{
    t->n++;
    if (t->n == 1) {
        t->type = v->type;
        t->iso = true;
    } else if (v->type != t->type) {
        t->mixed = true;
    }
    cands_update(&t->same, item, attr, NULL, 0, v);
    if (v->type != AV_S) {
        t->iso = false;
        return;
    }
    const char *s = v->u.s.ptr;
    size_t len = v->u.s.len;
    if (t->iso && !is_iso8601(s, len))
        t->iso = false;
    size_t nseg = 0, at = 0;
    while (nseg < TSEG_MAX) {
        const char *hash = memchr(s + at, '#', len - at);
        size_t end = nseg + 1 == TSEG_MAX || !hash ? len : (size_t)(hash - s);
        const char *seg = s + at;
        size_t sl = end - at;
        if (t->n == 1 || nseg >= t->nmax) {
            /* A segment position met for the first time. */
            t->lit[nseg] = t->n == 1 ? xstrndup(seg, sl) : NULL;
            t->var[nseg] = t->n != 1;
            t->pfx[nseg] = xstrndup(seg, sl);
            t->minlen[nseg] = sl;
        } else {
            if (t->lit[nseg] && (strlen(t->lit[nseg]) != sl || memcmp(t->lit[nseg], seg, sl) != 0)) {
                free(t->lit[nseg]);
                t->lit[nseg] = NULL;
                t->var[nseg] = true;
            }
            size_t k = 0, pl = strlen(t->pfx[nseg]);
            while (k < pl && k < sl && t->pfx[nseg][k] == seg[k])
                k++;
            t->pfx[nseg][k] = '\0';
            if (sl < t->minlen[nseg])
                t->minlen[nseg] = sl;
        }
        cands_update(&t->seg[nseg], item, attr, seg, sl, NULL);
        nseg++;
        if (end >= len)
            break;
        at = end + 1;
    }
    if (t->n == 1 || nseg < t->nmin)
        t->nmin = nseg;
    if (nseg > t->nmax)
        t->nmax = nseg;
}

/* The placeholder of a varying part: the attribute it always equals, else
 * idN. */
static void placeholder(buf *out, const cands *c, int *nvar)
{
    (*nvar)++;
    if (c && c->n) {
        /* The first by name, so the template does not depend on item order. */
        const char *best = c->name[0];
        for (size_t i = 1; i < c->n; i++)
            if (strcmp(c->name[i], best) < 0)
                best = c->name[i];
        buf_printf(out, "{%s}", best);
    } else if (*nvar == 1) {
        buf_adds(out, "{id}");
    } else {
        buf_printf(out, "{id%d}", *nvar);
    }
}

/* The kept start of a varying segment: up to its last non-alphanumeric
 * character, shorter than every value of it. */
static size_t kept_prefix(const tacc *t, int i)
{
    size_t k = strlen(t->pfx[i]);
    if (k >= t->minlen[i])
        k = t->minlen[i] ? t->minlen[i] - 1 : 0;
    while (k > 0 && isalnum((unsigned char)t->pfx[i][k - 1]))
        k--;
    return k;
}

static char *tacc_template(const tacc *t)
{
    if (!t->n)
        return NULL;
    buf b = BUF_INIT;
    int nvar = 0;
    if (t->mixed || t->type != AV_S) {
        if (t->same.n && !t->mixed)
            placeholder(&b, &t->same, &nvar);
        else
            buf_adds(&b, t->mixed ? "{id}" : t->type == AV_N ? "{n}" : "{b}");
        return buf_steal(&b);
    }
    bool one_var = t->nmin == 1 && t->nmax == 1 && t->var[0];
    if (one_var && t->same.n) {
        placeholder(&b, &t->same, &nvar);
        return buf_steal(&b);
    }
    if (one_var && t->iso) {
        buf_adds(&b, "{iso8601}");
        return buf_steal(&b);
    }
    bool last_var = false;
    for (size_t i = 0; i < t->nmin; i++) {
        if (i)
            buf_addc(&b, '#');
        if (!t->var[i]) {
            buf_adds(&b, t->lit[i]);
            last_var = false;
            continue;
        }
        size_t k = kept_prefix(t, (int)i);
        buf_add(&b, t->pfx[i], k);
        placeholder(&b, t->seg[i].n ? &t->seg[i] : NULL, &nvar);
        last_var = true;
    }
    /* Values with more segments than the shortest: the last placeholder
     * takes them; after a literal, they are one more. */
    if (t->nmax > t->nmin && !last_var) {
        buf_addc(&b, '#');
        placeholder(&b, NULL, &nvar);
    }
    return buf_steal(&b);
}

/* ---- grouping --------------------------------------------------------------- */

/* One group of items: an entity in the making. */
typedef struct egroup {
    char *key;             /* what groups them: the type value, or the key shape */
    char *type_attr;       /* the type attribute it was told by; NULL: by shape */
    uint64_t count, bytes, max_bytes, whalves;
    ent_attr *attrs;
    size_t n_attrs;
    uint64_t more_attrs;
    tacc pk, sk;
    tacc *ipk, *isk;       /* per index */
    uint64_t *icount, *ihalves;
    av sample;
} egroup;

typedef struct glist {
    egroup *g;
    size_t n;
    uint64_t overflow;     /* items of further groups, beyond ENT_MAX_ENTITIES */
} glist;

struct ent_infer {
    table_def def;
    glist typed, shaped;
    uint64_t items;
    /* Items with no type attribute: how many, the first ones' keys. */
    uint64_t untyped;
    av untyped_keys[ENT_MAX_STRAYS];
    size_t n_untyped_keys;
};

static void group_done(egroup *g, size_t n_idx)
{
    free(g->key);
    free(g->type_attr);
    for (size_t i = 0; i < g->n_attrs; i++)
        free(g->attrs[i].name);
    free(g->attrs);
    tacc_done(&g->pk);
    tacc_done(&g->sk);
    for (size_t i = 0; i < n_idx; i++) {
        tacc_done(&g->ipk[i]);
        tacc_done(&g->isk[i]);
    }
    free(g->ipk);
    free(g->isk);
    free(g->icount);
    free(g->ihalves);
    av_done(&g->sample);
}

static void glist_done(glist *l, size_t n_idx)
{
    for (size_t i = 0; i < l->n; i++)
        group_done(&l->g[i], n_idx);
    free(l->g);
    memset(l, 0, sizeof *l);
}

ent_infer *ent_infer_new(const table_def *def)
{
    ent_infer *x = xcalloc(1, sizeof *x);
    table_def_copy(&x->def, def);
    return x;
}

static const char *const type_names[] = { "type", "entitytype", "entity_type", "_type",
                                          "__typename", "entity" };

/* The item's type attribute (a String named one of type_names, in any
 * case; the first of the list when it has several), or NULL. */
static const av_member *type_member(const av *item)
{
    const av_member *best = NULL;
    size_t rank = sizeof type_names / sizeof *type_names;
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        if (m->val.type != AV_S || !m->val.u.s.len)
            continue;
        for (size_t k = 0; k < rank; k++)
            if (strcasecmp(m->name, type_names[k]) == 0) {
                best = m;
                rank = k;
                break;
            }
    }
    return best;
}

/* A key value's shape: its first segment and '#', a word of capitals,
 * digits and '_' as it is, else '*'. */
static void shape(const av *v, buf *out)
{
    if (!v || v->type != AV_S) {
        buf_addc(out, '*');
        return;
    }
    const char *s = v->u.s.ptr, *hash = memchr(s, '#', v->u.s.len);
    if (hash) {
        buf_add(out, s, (size_t)(hash - s) + 1);
        return;
    }
    bool word = v->u.s.len > 0 && v->u.s.len <= 32;
    for (size_t i = 0; word && i < v->u.s.len; i++)
        word = isupper((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_';
    if (word)
        buf_add(out, s, v->u.s.len);
    else
        buf_addc(out, '*');
}

static const av *get(const av *item, const char *name)
{
    return name ? av_map_get(item, name, strlen(name)) : NULL;
}

static egroup *group_of(ent_infer *x, glist *l, const char *key, const char *type_attr)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->g[i].key, key) == 0 &&
            (!type_attr || strcmp(l->g[i].type_attr, type_attr) == 0))
            return &l->g[i];
    if (l->n >= ENT_MAX_ENTITIES)
        return NULL;
    l->g = xrealloc(l->g, (l->n + 1) * sizeof *l->g);
    egroup *g = &l->g[l->n++];
    memset(g, 0, sizeof *g);
    g->key = xstrdup(key);
    g->type_attr = type_attr ? xstrdup(type_attr) : NULL;
    size_t ni = x->def.n_idx ? x->def.n_idx : 1;
    g->ipk = xcalloc(ni, sizeof *g->ipk);
    g->isk = xcalloc(ni, sizeof *g->isk);
    g->icount = xcalloc(ni, sizeof *g->icount);
    g->ihalves = xcalloc(ni, sizeof *g->ihalves);
    g->sample.type = AV_NONE;
    return g;
}

static void count_attr(egroup *g, const av_member *m)
{
    size_t lo = 0, hi = g->n_attrs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(g->attrs[mid].name, m->name);
        if (c == 0) {
            g->attrs[mid].count++;
            g->attrs[mid].types[m->val.type]++;
            return;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (g->n_attrs >= ENT_MAX_ATTRS) {
        g->more_attrs++;
        return;
    }
    g->attrs = xrealloc(g->attrs, (g->n_attrs + 1) * sizeof *g->attrs);
    memmove(&g->attrs[lo + 1], &g->attrs[lo], (g->n_attrs - lo) * sizeof *g->attrs);
    g->n_attrs++;
    ent_attr *a = &g->attrs[lo];
    memset(a, 0, sizeof *a);
    a->name = xstrdup(m->name);
    a->count = 1;
    a->types[m->val.type] = 1;
}

static void group_add(ent_infer *x, egroup *g, const av *item, size_t size)
{
    const table_def *def = &x->def;
    g->count++;
    g->bytes += size;
    if (size > g->max_bytes)
        g->max_bytes = size;
    g->whalves += size_write_halves(size);
    for (size_t i = 0; i < item->u.m.len; i++)
        count_attr(g, &item->u.m.v[i]);
    const av *pk = get(item, def->pk.name), *sk = get(item, def->sk.name);
    if (pk)
        tacc_add(&g->pk, item, def->pk.name, pk);
    if (sk)
        tacc_add(&g->sk, item, def->sk.name, sk);
    for (size_t i = 0; i < def->n_idx; i++) {
        const index_def *ix = &def->idx[i];
        if (!index_has_item(ix, item))
            continue;
        g->icount[i]++;
        g->ihalves[i] += size_write_halves(index_entry_size(def, ix, item, size));
        tacc_add(&g->ipk[i], item, ix->pk.name, get(item, ix->pk.name));
        if (ix->sk.name)
            tacc_add(&g->isk[i], item, ix->sk.name, get(item, ix->sk.name));
    }
    if (g->sample.type == AV_NONE)
        av_copy(&g->sample, item);
}

void ent_infer_add(ent_infer *x, const av *item)
{
    assert(item->type == AV_M);
    x->items++;
    size_t size = size_item(item);
    const av_member *tm = type_member(item);
    if (tm) {
        egroup *g = group_of(x, &x->typed, tm->val.u.s.ptr, tm->name);
        if (g)
            group_add(x, g, item, size);
        else
            x->typed.overflow++;
    } else {
        x->untyped++;
        if (x->n_untyped_keys < ENT_MAX_STRAYS)
            table_def_key_of(&x->def, item, &x->untyped_keys[x->n_untyped_keys++]);
    }
    buf k = BUF_INIT;
    shape(get(item, x->def.pk.name), &k);
    buf_addc(&k, ' ');
    if (x->def.sk.name)
        shape(get(item, x->def.sk.name), &k);
    egroup *g = group_of(x, &x->shaped, k.data, NULL);
    if (g)
        group_add(x, g, item, size);
    else
        x->shaped.overflow++;
    buf_done(&k);
}

/* A name from a template's literal text: lower case, runs of other
 * characters one '_'. */
static void name_from(const char *tmpl, buf *out)
{
    bool in_ph = false, sep = false;
    for (const char *p = tmpl; p && *p; p++) {
        if (*p == '{' || *p == '}') {
            in_ph = *p == '{';
            sep = out->len > 0;
            continue;
        }
        if (in_ph)
            continue;
        if (isalnum((unsigned char)*p)) {
            if (sep && out->len)
                buf_addc(out, '_');
            sep = false;
            buf_addc(out, (char)tolower((unsigned char)*p));
        } else {
            sep = out->len > 0;
        }
    }
}


static void entity_from(ent_infer *x, egroup *g, const char *table, ent_entity *e)
{
    entity_init(e);
    e->count = g->count;
    e->bytes = g->bytes;
    e->max_bytes = g->max_bytes;
    e->write_halves = g->whalves;
    e->attrs = g->attrs;
    e->n_attrs = g->n_attrs;
    e->more_attrs = g->more_attrs;
    for (size_t i = 0; i < e->n_attrs; i++)
        e->attrs[i].required = e->attrs[i].count == e->count;
    g->attrs = NULL;
    g->n_attrs = 0;
    e->pk_tmpl = tacc_template(&g->pk);
    e->sk_tmpl = x->def.sk.name ? tacc_template(&g->sk) : NULL;
    e->n_idx = x->def.n_idx;
    e->idx = e->n_idx ? xcalloc(e->n_idx, sizeof *e->idx) : NULL;
    for (size_t i = 0; i < e->n_idx; i++) {
        e->idx[i].name = xstrdup(x->def.idx[i].name);
        e->idx[i].count = g->icount[i];
        e->idx[i].write_halves = g->ihalves[i];
        e->idx[i].pk_tmpl = tacc_template(&g->ipk[i]);
        e->idx[i].sk_tmpl = tacc_template(&g->isk[i]);
    }
    av_move(&e->sample, &g->sample);
    if (g->type_attr) {
        e->type_value = xstrdup(g->key);
        e->name = xstrdup(g->key);
        return;
    }
    buf n = BUF_INIT;
    name_from(e->sk_tmpl, &n);
    if (!n.len)
        name_from(e->pk_tmpl, &n);
    if (!n.len)
        name_from(table, &n);
    if (!n.len)
        buf_adds(&n, "item");
    e->name = buf_steal(&n);
}

void ent_infer_finish(ent_infer *x, uint64_t total, bool sampled, ent_table *out)
{
    out->name = xstrdup(x->def.name ? x->def.name : "");
    table_def_copy(&out->def, &x->def);
    out->items_read = x->items;
    out->items_total = total;
    out->sampled = sampled;
    /* The type attribute most items carry, when at least half do. */
    const char *best = NULL;
    uint64_t best_n = 0;
    for (size_t i = 0; i < x->typed.n; i++) {
        uint64_t n = 0;
        for (size_t j = 0; j < x->typed.n; j++)
            if (strcmp(x->typed.g[j].type_attr, x->typed.g[i].type_attr) == 0)
                n += x->typed.g[j].count;
        if (n > best_n) {
            best_n = n;
            best = x->typed.g[i].type_attr;
        }
    }
    bool typed = best && best_n * 2 >= x->items;
    glist *l = typed ? &x->typed : &x->shaped;
    out->e = l->n ? xcalloc(l->n, sizeof *out->e) : NULL;
    for (size_t i = 0; i < l->n; i++) {
        if (typed && strcmp(l->g[i].type_attr, best) != 0)
            continue;
        entity_from(x, &l->g[i], out->name, &out->e[out->n++]);
    }
    if (typed) {
        out->type_attr = xstrdup(best);
        out->strays = x->items - best_n;
        for (size_t i = 0; i < x->n_untyped_keys; i++)
            av_move(&out->strays_keys[out->n_strays_keys++], &x->untyped_keys[i]);
    } else {
        out->strays = l->overflow;
    }
    ent_table_sort(out);
    /* Names told by keys may meet: the later ones get _2, _3. */
    for (size_t i = 1; !typed && i < out->n; i++) {
        char *base = xstrdup(out->e[i].name);
        for (int k = 2;; k++) {
            bool taken = false;
            for (size_t j = 0; j < i && !taken; j++)
                taken = strcmp(out->e[j].name, out->e[i].name) == 0;
            if (!taken)
                break;
            buf b = BUF_INIT;
            buf_printf(&b, "%s_%d", base, k);
            free(out->e[i].name);
            out->e[i].name = buf_steal(&b);
        }
        free(base);
    }
    ent_table_sort(out);
    glist_done(&x->typed, x->def.n_idx ? x->def.n_idx : 1);
    glist_done(&x->shaped, x->def.n_idx ? x->def.n_idx : 1);
    for (size_t i = 0; i < x->n_untyped_keys; i++)
        av_done(&x->untyped_keys[i]);
    table_def_free(&x->def);
    free(x);
}

/* ---- templates --------------------------------------------------------------- */

bool ent_tmpl_valid(const char *tmpl, size_t *at)
{
    bool prev_ph = false;
    for (const char *p = tmpl; *p; p++) {
        if (*p == '}') {
            *at = (size_t)(p - tmpl);
            return false;
        }
        if (*p != '{') {
            prev_ph = false;
            continue;
        }
        const char *end = strchr(p, '}');
        const char *open = strchr(p + 1, '{');
        if (!end || end == p + 1 || (open && open < end) || prev_ph) {
            *at = (size_t)(p - tmpl);
            return false;
        }
        p = end;
        prev_ph = true;
    }
    return true;
}

size_t ent_tmpl_literal_len(const char *tmpl)
{
    size_t n = 0;
    bool in = false;
    for (const char *p = tmpl; p && *p; p++) {
        if (*p == '{')
            in = true;
        else if (*p == '}')
            in = false;
        else if (!in)
            n++;
    }
    return n;
}

/* Matches s[0..n) against the template from t on. */
static bool match_at(const char *t, const char *s, size_t n)
{
    while (*t && *t != '{') {
        if (!n || *s != *t)
            return false;
        s++, n--, t++;
    }
    if (!*t)
        return n == 0;
    const char *close = strchr(t, '}');
    if (!close)
        return false;
    const char *rest = close + 1;
    if (!*rest)
        return n > 0;   /* the last placeholder: the rest, at least one character */
    /* One or more characters, then the rest of the template: the first
     * place it matches (placeholders do not hold the literal after them,
     * unless the rest matches only further on). */
    for (size_t k = 1; k <= n; k++)
        if (match_at(rest, s + k, n - k))
            return true;
    return false;
}

bool ent_tmpl_match(const char *tmpl, const av *v)
{
    if (!tmpl || !v)
        return false;
    if (v->type != AV_S) {
        /* A number or binary: a template that is one placeholder. */
        return tmpl[0] == '{' && strchr(tmpl, '}') && strchr(tmpl, '}')[1] == '\0';
    }
    return match_at(tmpl, v->u.s.ptr, v->u.s.len);
}

const ent_entity *ent_table_match(const ent_table *t, const av *item)
{
    if (t->type_attr) {
        const av *tv = get(item, t->type_attr);
        if (tv && tv->type == AV_S) {
            for (size_t i = 0; i < t->n; i++) {
                const char *want = t->e[i].type_value;
                if (want && strlen(want) == tv->u.s.len && memcmp(want, tv->u.s.ptr, tv->u.s.len) == 0)
                    return &t->e[i];
            }
        }
    }
    const ent_entity *best = NULL;
    size_t best_lit = 0;
    const av *pk = get(item, t->def.pk.name), *sk = get(item, t->def.sk.name);
    for (size_t i = 0; i < t->n; i++) {
        const ent_entity *e = &t->e[i];
        if (t->type_attr && e->type_value)
            continue;   /* told by its type, which the item does not have */
        if (!e->pk_tmpl || !ent_tmpl_match(e->pk_tmpl, pk))
            continue;
        if (t->def.sk.name && (!e->sk_tmpl || !ent_tmpl_match(e->sk_tmpl, sk)))
            continue;
        size_t lit = ent_tmpl_literal_len(e->pk_tmpl) + ent_tmpl_literal_len(e->sk_tmpl);
        if (!best || lit > best_lit) {
            best = e;
            best_lit = lit;
        }
    }
    return best;
}

/* ---- attributes -------------------------------------------------------------- */

bool ent_attr_mixed(const ent_attr *a)
{
    int n = 0;
    for (int t = AV_S; t < ENT_TYPES; t++)
        if (t != AV_NULL && a->types[t])
            n++;
    return n > 1;
}

void ent_attr_types_text(const ent_attr *a, buf *out)
{
    bool used[ENT_TYPES] = { false };
    int shown = 0;
    for (;;) {
        int best = -1;
        for (int t = AV_S; t < ENT_TYPES; t++)
            if (!used[t] && a->types[t] && (best < 0 || a->types[t] > a->types[best]))
                best = t;
        if (best < 0)
            break;
        used[best] = true;
        if (shown++)
            buf_addc(out, '/');
        buf_adds(out, av_type_name((av_type)best));
        if (a->types[best] != a->count)
            buf_printf(out, " %llu", (unsigned long long)a->types[best]);
    }
}

double ent_attr_share(const ent_entity *e, const ent_attr *a)
{
    return e->count ? (double)a->count / (double)e->count : 0.0;
}

void ent_attr_share_text(const ent_entity *e, const ent_attr *a, buf *out)
{
    double pct = ent_attr_share(e, a) * 100;
    if (a->count && pct < 0.5)
        buf_adds(out, "<1%");
    else if (e->count && a->count < e->count && pct >= 99.5)
        buf_adds(out, ">99%");
    else
        buf_printf(out, "%.0f%%", pct);
}
