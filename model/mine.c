/*
 * mine — access patterns grouped from recorded requests (see mine.h).
 */
#include "model/mine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

typedef struct declared {
    char *table, *index;
} declared;

struct mine {
    mine_pattern *p;
    size_t n, cap;
    char **sig;            /* sig[i]: pattern i's grouping key */
    size_t *slot;          /* open addressing: pattern index + 1; 0 empty */
    size_t n_slot;
    size_t *order;         /* patterns by calls, most first */
    bool sorted;
    uint64_t calls;
    double t_min, t_max;
    declared *decl;
    size_t n_decl;
    buf scratch;           /* the grouping key being made */
};

mine *mine_new(void)
{
    mine *m = xcalloc(1, sizeof *m);
    m->t_min = INFINITY;
    m->t_max = -INFINITY;
    return m;
}

static void free_strs(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void mine_free(mine *m)
{
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++) {
        mine_pattern *p = &m->p[i];
        free(p->op), free(p->table), free(p->index), free(p->keycond), free(p->filter);
        free(p->projection), free(p->select);
        free_strs(p->names, p->n_names);
        free_strs(p->param_types, p->n_params);
        free_strs(p->param_hash, p->n_params);
        for (size_t k = 0; k < p->n_hot; k++)
            free(p->hot[k].key);
        free(m->sig[i]);
    }
    for (size_t i = 0; i < m->n_decl; i++)
        free(m->decl[i].table), free(m->decl[i].index);
    free(m->decl);
    free(m->p);
    free(m->sig);
    free(m->slot);
    free(m->order);
    buf_done(&m->scratch);
    free(m);
}

/* ---- shapes ---- */

/* Placeholders met so far in a request's expressions, in order. */
typedef struct seen {
    const char *name[64];
    size_t len[64];
    size_t n;
} seen;

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The number (from 1) of placeholder p[0..n) in s, added when new. */
static size_t seen_index(seen *s, const char *p, size_t n)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->len[i] == n && memcmp(s->name[i], p, n) == 0)
            return i + 1;
    if (s->n == 64)
        return 64;
    s->name[s->n] = p;
    s->len[s->n] = n;
    return ++s->n;
}

/* expr's shape into out: white space squeezed, :x as :pN, #x as #nN. */
static void shape(const char *expr, seen *vals, seen *names, buf *out)
{
    bool space = false;
    for (const char *p = expr; *p;) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            space = true;
            p++;
            continue;
        }
        if (space && out->len)
            buf_addc(out, ' ');
        space = false;
        if ((*p == ':' || *p == '#') && ident_char(p[1])) {
            const char *s = p + 1;
            while (ident_char(*s))
                s++;
            if (*p == ':')
                buf_printf(out, ":p%zu", seen_index(vals, p, (size_t)(s - p)));
            else
                buf_printf(out, "#n%zu", seen_index(names, p, (size_t)(s - p)));
            p = s;
            continue;
        }
        buf_addc(out, *p++);
    }
}

static const char *pair_find(const mine_pair *v, size_t n, const char *name, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(v[i].name) == len && memcmp(v[i].name, name, len) == 0)
            return v[i].value;
    return NULL;
}

/* A request's shapes, placeholders and key, made once for mine_add. */
typedef struct shaped {
    buf kc, filter, proj;
    seen vals, names;
    const mine_pair *key[16];   /* a key map's pairs, in name order */
    size_t n_key;
} shaped;

static int pair_cmp(const void *a, const void *b)
{
    return strcmp((*(const mine_pair *const *)a)->name, (*(const mine_pair *const *)b)->name);
}

static void shape_call(const mine_call *c, shaped *s)
{
    memset(s, 0, sizeof *s);
    if (c->keycond)
        shape(c->keycond, &s->vals, &s->names, &s->kc);
    if (c->filter)
        shape(c->filter, &s->vals, &s->names, &s->filter);
    if (c->projection)
        shape(c->projection, &s->vals, &s->names, &s->proj);
    if (!c->keycond && c->n_key) {
        /* A GetItem's (an item write's) key as a key condition. */
        for (size_t i = 0; i < c->n_key && s->n_key < 16; i++)
            s->key[s->n_key++] = &c->key[i];
        qsort(s->key, s->n_key, sizeof s->key[0], pair_cmp);
        for (size_t i = 0; i < s->n_key; i++)
            buf_printf(&s->kc, "%s%s = :p%zu", i ? " AND " : "", s->key[i]->name, s->vals.n + i + 1);
    }
}

static void shaped_done(shaped *s)
{
    buf_done(&s->kc);
    buf_done(&s->filter);
    buf_done(&s->proj);
}

/* The type and hash of parameter i (from 0) of a shaped call. */
static const char *param_value(const mine_call *c, const shaped *s, size_t i)
{
    if (i < s->vals.n)
        return pair_find(c->values, c->n_values, s->vals.name[i], s->vals.len[i]);
    i -= s->vals.n;
    return i < s->n_key ? s->key[i]->value : NULL;
}

static size_t n_params(const shaped *s)
{
    return s->vals.n + s->n_key;
}

/* ---- grouping ---- */

static uint64_t hash_str(const char *p, size_t n)
{
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)p[i]) * 1099511628211ull;
    return h;
}

static void sig_add(buf *b, const char *s)
{
    if (s)
        buf_adds(b, s);
    buf_addc(b, '\x1f');
}

/* The grouping key of a shaped call into m->scratch. */
static void make_sig(mine *m, const mine_call *c, const shaped *s)
{
    buf *b = &m->scratch;
    buf_reset(b);
    sig_add(b, c->op);
    sig_add(b, c->table);
    sig_add(b, c->index);
    sig_add(b, s->kc.data);
    sig_add(b, s->filter.data);
    sig_add(b, s->proj.data);
    sig_add(b, c->select);
    for (size_t i = 0; i < s->names.n; i++) {
        const char *v = pair_find(c->names, c->n_names, s->names.name[i], s->names.len[i]);
        sig_add(b, v ? v : "?");
    }
    buf_printf(b, "%ld\x1f%d\x1f%d", c->limit, c->consistent, c->backward);
}

static void grow_slots(mine *m)
{
    size_t ns = m->n_slot ? m->n_slot * 2 : 64;
    size_t *slot = xcalloc(ns, sizeof *slot);
    for (size_t i = 0; i < m->n; i++) {
        size_t h = (size_t)hash_str(m->sig[i], strlen(m->sig[i])) & (ns - 1);
        while (slot[h])
            h = (h + 1) & (ns - 1);
        slot[h] = i + 1;
    }
    free(m->slot);
    m->slot = slot;
    m->n_slot = ns;
}

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

static char *dup_buf(const buf *b)
{
    return b->len ? xstrdup(b->data) : NULL;
}

/* A new pattern for a shaped call, its key in m->scratch. */
static mine_pattern *new_pattern(mine *m, const mine_call *c, const shaped *s)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 16;
        m->p = xrealloc(m->p, m->cap * sizeof *m->p);
        m->sig = xrealloc(m->sig, m->cap * sizeof *m->sig);
    }
    mine_pattern *p = &m->p[m->n];
    memset(p, 0, sizeof *p);
    m->sig[m->n++] = xstrdup(m->scratch.data);
    p->op = xstrdup(c->op ? c->op : "?");
    p->table = dup_or_null(c->table);
    p->index = dup_or_null(c->index);
    p->keycond = dup_buf(&s->kc);
    p->filter = dup_buf(&s->filter);
    p->projection = dup_buf(&s->proj);
    p->select = dup_or_null(c->select);
    p->limit = c->limit;
    p->consistent = c->consistent;
    p->backward = c->backward;
    p->n_names = s->names.n;
    p->names = xcalloc(p->n_names ? p->n_names : 1, sizeof *p->names);
    for (size_t i = 0; i < s->names.n; i++) {
        const char *v = pair_find(c->names, c->n_names, s->names.name[i], s->names.len[i]);
        p->names[i] = xstrdup(v ? v : "?");
    }
    p->n_params = n_params(s);
    p->param_types = xcalloc(p->n_params ? p->n_params : 1, sizeof *p->param_types);
    p->param_hash = xcalloc(p->n_params ? p->n_params : 1, sizeof *p->param_hash);
    for (size_t i = 0; i < p->n_params; i++) {
        const char *v = param_value(c, s, i);
        const char *colon = v ? strchr(v, ':') : NULL;
        p->param_types[i] = colon ? xstrndup(v, (size_t)(colon - v)) : xstrdup("S");
        p->param_hash[i] = xstrdup(colon ? colon + 1 : "");
    }
    if (m->n_slot < 2 * m->n)
        grow_slots(m);
    return p;
}

static mine_pattern *find_or_add(mine *m, const mine_call *c, const shaped *s)
{
    make_sig(m, c, s);
    if (m->n_slot < 2 * (m->n + 1))
        grow_slots(m);
    size_t h = (size_t)hash_str(m->scratch.data, m->scratch.len) & (m->n_slot - 1);
    while (m->slot[h]) {
        size_t i = m->slot[h] - 1;
        if (strcmp(m->sig[i], m->scratch.data) == 0)
            return &m->p[i];
        h = (h + 1) & (m->n_slot - 1);
    }
    m->slot[h] = m->n + 1;
    return new_pattern(m, c, s);
}

/* The space-saving count of one key. */
static void count_key(mine_pattern *p, const char *key)
{
    size_t min = 0;
    for (size_t i = 0; i < p->n_hot; i++) {
        if (strcmp(p->hot[i].key, key) == 0) {
            p->hot[i].count++;
            return;
        }
        if (p->hot[i].count < p->hot[min].count)
            min = i;
    }
    if (p->n_hot < MINE_HOT_SLOTS) {
        p->hot[p->n_hot++] = (mine_hot){ xstrdup(key), 1 };
        return;
    }
    free(p->hot[min].key);
    p->hot[min].key = xstrdup(key);
    p->hot[min].count++;
}

/* The key a call reads or writes, for the hot-key count: a Query's
 * partition key value (the parameter its key condition first compares
 * with `=`), a key map's values; "" for none. */
static void call_key(const mine_call *c, const shaped *s, buf *out)
{
    buf_reset(out);
    if (s->n_key) {
        for (size_t i = 0; i < s->n_key; i++)
            buf_printf(out, "%s%s=%s", i ? "," : "", s->key[i]->name, s->key[i]->value);
        return;
    }
    const char *eq = s->kc.data ? strstr(s->kc.data, "= :p") : NULL;
    if (!eq)
        return;
    size_t i = (size_t)strtoul(eq + 4, NULL, 10);
    const char *v = i >= 1 ? param_value(c, s, i - 1) : NULL;
    if (v)
        buf_adds(out, v);
}

void mine_add(mine *m, const mine_call *c)
{
    for (size_t i = 0; i < c->n_declared && c->table; i++)
        mine_declare_index(m, c->table, c->declared[i]);
    if (!c->op)
        return;
    m->calls++;
    m->sorted = false;
    if (c->t > 0) {
        if (c->t < m->t_min)
            m->t_min = c->t;
        if (c->t > m->t_max)
            m->t_max = c->t;
    }
    shaped s;
    shape_call(c, &s);
    mine_pattern *p = find_or_add(m, c, &s);
    p->calls++;
    p->errors += c->error;
    if (c->has_count) {
        p->counted++;
        p->returned += c->count;
        p->scanned += c->scanned ? c->scanned : c->count;
    }
    p->units += c->units;
    if (c->units > p->units_max)
        p->units_max = c->units;
    p->ms += c->ms;
    buf key = BUF_INIT;
    call_key(c, &s, &key);
    if (key.len)
        count_key(p, key.data);
    buf_done(&key);
    shaped_done(&s);
}

void mine_declare_index(mine *m, const char *table, const char *index)
{
    for (size_t i = 0; i < m->n_decl; i++)
        if (strcmp(m->decl[i].table, table) == 0 && strcmp(m->decl[i].index, index) == 0)
            return;
    m->decl = xrealloc(m->decl, (m->n_decl + 1) * sizeof *m->decl);
    m->decl[m->n_decl++] = (declared){ xstrdup(table), xstrdup(index) };
}

/* ---- reading the result ---- */

static const mine *sort_cmp_ctx;

static int nullcmp(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "");
}

static int by_calls(const void *x, const void *y)
{
    const mine_pattern *a = &sort_cmp_ctx->p[*(const size_t *)x], *b = &sort_cmp_ctx->p[*(const size_t *)y];
    if (a->calls != b->calls)
        return a->calls > b->calls ? -1 : 1;
    int c = nullcmp(a->op, b->op);
    if (!c)
        c = nullcmp(a->table, b->table);
    if (!c)
        c = nullcmp(a->index, b->index);
    if (!c)
        c = nullcmp(a->keycond, b->keycond);
    if (!c)
        c = nullcmp(a->filter, b->filter);
    return c ? c : nullcmp(sort_cmp_ctx->sig[*(const size_t *)x], sort_cmp_ctx->sig[*(const size_t *)y]);
}

static void sort_patterns(const mine *cm)
{
    mine *m = (mine *)cm;   /* the order is a cache of the counts */
    if (m->sorted)
        return;
    m->order = xrealloc(m->order, (m->n ? m->n : 1) * sizeof *m->order);
    for (size_t i = 0; i < m->n; i++)
        m->order[i] = i;
    sort_cmp_ctx = m;
    qsort(m->order, m->n, sizeof *m->order, by_calls);
    sort_cmp_ctx = NULL;
    m->sorted = true;
}

size_t mine_count(const mine *m)
{
    return m->n;
}

const mine_pattern *mine_get(const mine *m, size_t i)
{
    sort_patterns(m);
    return i < m->n ? &m->p[m->order[i]] : NULL;
}

uint64_t mine_calls(const mine *m)
{
    return m->calls;
}

double mine_seconds(const mine *m)
{
    double s = m->t_max - m->t_min;
    return isfinite(s) && s > 1 ? s : 1;
}

double mine_rate(const mine *m, const mine_pattern *p)
{
    return (double)p->calls / mine_seconds(m);
}

double mine_units_per_call(const mine_pattern *p)
{
    return p->calls ? p->units / (double)p->calls : 0;
}

double mine_units_month(const mine *m, const mine_pattern *p)
{
    return mine_units_per_call(p) * mine_rate(m, p) * MINE_MONTH_SECONDS;
}

bool mine_is_write(const mine_pattern *p)
{
    static const char *const writes[] = { "PutItem", "UpdateItem", "DeleteItem", "BatchWriteItem",
                                          "TransactWriteItems" };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++)
        if (strcmp(p->op, writes[i]) == 0)
            return true;
    return false;
}

void mine_shape_text(const mine_pattern *p, const char *shape_s, buf *out)
{
    for (const char *s = shape_s; s && *s;) {
        if (s[0] == '#' && s[1] == 'n' && s[2] >= '0' && s[2] <= '9') {
            char *end;
            size_t i = (size_t)strtoul(s + 2, &end, 10);
            if (i >= 1 && i <= p->n_names) {
                buf_adds(out, p->names[i - 1]);
                s = end;
                continue;
            }
        }
        buf_addc(out, *s++);
    }
}

const mine_hot *mine_top_key(const mine_pattern *p, double *share)
{
    const mine_hot *top = NULL;
    for (size_t i = 0; i < p->n_hot; i++)
        if (!top || p->hot[i].count > top->count)
            top = &p->hot[i];
    *share = top && p->calls ? (double)top->count / (double)p->calls : 0;
    return top;
}

bool mine_is_hot(const mine_pattern *p)
{
    double share;
    const mine_hot *top = mine_top_key(p, &share);
    return top && p->calls >= MINE_HOT_MIN && share >= MINE_HOT_SHARE;
}

void mine_each_declared(const mine *m, void (*fn)(void *, const char *, const char *), void *ctx)
{
    for (size_t i = 0; i < m->n_decl; i++)
        fn(ctx, m->decl[i].table, m->decl[i].index);
}
