/*
 * schema — table definitions (see schema.h).
 */
#include "model/schema.h"

#include <assert.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/mem.h"
#include "model/size.h"
#include "model/vecidx.h"

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void index_def_free(index_def *ix)
{
    free(ix->name);
    free(ix->pk.name);
    free(ix->sk.name);
    for (size_t i = 0; i < ix->n_pk_rest; i++)
        free(ix->pk_rest[i].name);
    for (size_t i = 0; i < ix->n_sk_rest; i++)
        free(ix->sk_rest[i].name);
    for (size_t i = 0; i < ix->n_include; i++)
        free(ix->include[i]);
    free(ix->include);
    memset(ix, 0, sizeof *ix);
}

void table_def_free(table_def *t)
{
    free(t->name);
    free(t->pk.name);
    free(t->sk.name);
    for (size_t i = 0; i < t->n_idx; i++)
        index_def_free(&t->idx[i]);
    free(t->idx);
    for (size_t i = 0; i < t->n_vidx; i++)
        vec_index_free(&t->vidx[i]);
    free(t->vidx);
    memset(t, 0, sizeof *t);
}

static void key_attr_copy(key_attr *dst, const key_attr *src)
{
    dst->name = dup_or_null(src->name);
    dst->type = src->type;
}

void table_def_copy(table_def *dst, const table_def *src)
{
    dst->name = dup_or_null(src->name);
    key_attr_copy(&dst->pk, &src->pk);
    key_attr_copy(&dst->sk, &src->sk);
    dst->created = src->created;
    dst->n_idx = src->n_idx;
    dst->idx = src->n_idx ? xcalloc(src->n_idx, sizeof(index_def)) : NULL;
    for (size_t i = 0; i < src->n_idx; i++)
        index_def_copy(&dst->idx[i], &src->idx[i]);
    dst->n_vidx = src->n_vidx;
    dst->vidx = src->n_vidx ? xcalloc(src->n_vidx, sizeof *dst->vidx) : NULL;
    for (size_t i = 0; i < src->n_vidx; i++)
        vec_index_copy(&dst->vidx[i], &src->vidx[i]);
}

void index_def_copy(index_def *d, const index_def *s)
{
    d->name = dup_or_null(s->name);
    d->global = s->global;
    key_attr_copy(&d->pk, &s->pk);
    key_attr_copy(&d->sk, &s->sk);
    d->n_pk_rest = s->n_pk_rest;
    d->n_sk_rest = s->n_sk_rest;
    for (size_t i = 0; i < s->n_pk_rest; i++)
        key_attr_copy(&d->pk_rest[i], &s->pk_rest[i]);
    for (size_t i = 0; i < s->n_sk_rest; i++)
        key_attr_copy(&d->sk_rest[i], &s->sk_rest[i]);
    d->proj = s->proj;
    d->n_include = s->n_include;
    d->include = s->n_include ? xcalloc(s->n_include, sizeof(char *)) : NULL;
    for (size_t j = 0; j < s->n_include; j++)
        d->include[j] = xstrdup(s->include[j]);
}

const index_def *table_def_index(const table_def *t, const char *name)
{
    for (size_t i = 0; i < t->n_idx; i++)
        if (t->idx[i].name && strcmp(t->idx[i].name, name) == 0)
            return &t->idx[i];
    return NULL;
}

static bool same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

size_t index_def_n_hash(const index_def *ix)
{
    return 1 + ix->n_pk_rest;
}

size_t index_def_n_range(const index_def *ix)
{
    return ix->sk.name ? 1 + ix->n_sk_rest : 0;
}

void index_def_key_parts(const index_def *ix, index_key_parts *k)
{
    k->nh = index_def_n_hash(ix);
    k->nr = index_def_n_range(ix);
    for (size_t i = 0; i < k->nh; i++)
        k->hn[i] = index_def_hash(ix, i)->name, k->ht[i] = index_def_hash(ix, i)->type;
    for (size_t i = 0; i < k->nr; i++)
        k->rn[i] = index_def_range(ix, i)->name, k->rt[i] = index_def_range(ix, i)->type;
}

const key_attr *index_def_hash(const index_def *ix, size_t i)
{
    assert(i < index_def_n_hash(ix));
    return i == 0 ? &ix->pk : &ix->pk_rest[i - 1];
}

const key_attr *index_def_range(const index_def *ix, size_t i)
{
    assert(i < index_def_n_range(ix));
    return i == 0 ? &ix->sk : &ix->sk_rest[i - 1];
}

bool index_def_multi(const index_def *ix)
{
    return ix->n_pk_rest > 0 || ix->n_sk_rest > 0;
}

/* Is name one of the index's key attributes? */
static bool index_def_is_key(const index_def *ix, const char *name)
{
    for (size_t i = 0; i < index_def_n_hash(ix); i++)
        if (same(index_def_hash(ix, i)->name, name))
            return true;
    for (size_t i = 0; i < index_def_n_range(ix); i++)
        if (same(index_def_range(ix, i)->name, name))
            return true;
    return false;
}

bool table_def_is_key(const table_def *t, const index_def *ix, const char *name)
{
    if (same(t->pk.name, name) || same(t->sk.name, name))
        return true;
    return ix && index_def_is_key(ix, name);
}

bool table_def_same_keys(const table_def *a, const table_def *b)
{
    return strcmp(a->pk.name, b->pk.name) == 0 && a->pk.type == b->pk.type &&
           (a->sk.name ? b->sk.name && strcmp(a->sk.name, b->sk.name) == 0 && a->sk.type == b->sk.type
                       : !b->sk.name);
}

bool table_def_same_item(const table_def *t, const av *a, const av *b)
{
    const char *names[2] = { t->pk.name, t->sk.name };
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        const av *x = av_map_get(a, names[i], strlen(names[i]));
        const av *y = av_map_get(b, names[i], strlen(names[i]));
        if (!x || !y || !av_equal(x, y))
            return false;
    }
    return true;
}

const char *proj_type_name(proj_type p)
{
    switch (p) {
    case PROJ_KEYS_ONLY: return "KEYS_ONLY";
    case PROJ_INCLUDE:   return "INCLUDE";
    default:             return "ALL";
    }
}

size_t index_entry_size(const table_def *t, const index_def *ix, const av *item, size_t full)
{
    if (ix->proj == PROJ_ALL)
        return full;
    size_t n = 0;
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        bool in = table_def_is_key(t, ix, m->name);
        for (size_t j = 0; !in && ix->proj == PROJ_INCLUDE && j < ix->n_include; j++)
            in = strcmp(ix->include[j], m->name) == 0;
        if (in)
            n += m->name_len + size_value(&m->val);
    }
    return n;
}

bool index_has_item(const index_def *ix, const av *item)
{
    const av *p = av_map_get(item, ix->pk.name, strlen(ix->pk.name));
    const av *q = ix->sk.name ? av_map_get(item, ix->sk.name, strlen(ix->sk.name)) : NULL;
    return p && p->type == ix->pk.type && (!ix->sk.name || (q && q->type == ix->sk.type));
}

void table_def_key_of(const table_def *t, const av *item, av *out)
{
    av_init_list(out, AV_M);
    const char *names[2] = { t->pk.name, t->sk.name };
    for (int i = 0; i < 2; i++) {
        const av *v = names[i] ? av_map_get(item, names[i], strlen(names[i])) : NULL;
        if (v) {
            av c;
            av_copy(&c, v);
            av_map_put(out, names[i], strlen(names[i]), &c);
        }
    }
}

/* A key that is a type by itself: one short word (PROFILE, A). */
static bool is_word(const char *s, size_t n)
{
    if (n == 0 || n > 32)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isalpha((unsigned char)s[i]) && s[i] != '_')
            return false;
    return true;
}

void schema_key_prefix(const av *v, buf *out)
{
    if (!v || v->type != AV_S)
        return;
    const char *h = memchr(v->u.s.ptr, '#', v->u.s.len);
    if (h && h > v->u.s.ptr)
        buf_add(out, v->u.s.ptr, (size_t)(h - v->u.s.ptr) + 1);
    else if (!h && is_word(v->u.s.ptr, v->u.s.len))
        buf_add(out, v->u.s.ptr, v->u.s.len);
}
