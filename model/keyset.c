/*
 * keyset — a set of items by table and key, in a search tree (see
 * keyset.h).
 */
#include "model/keyset.h"

#include <assert.h>
#include <search.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/keyenc.h"
#include "model/mem.h"

struct keyset_entry {
    uint32_t table;
    uint32_t len;
    const unsigned char *key;   /* the entry's own bytes (below), or a probe's */
    unsigned char bytes[];
};

typedef struct ktable {
    char *name;
    key_attr pk, sk;   /* as recorded at first use */
    size_t count;
} ktable;

struct keyset {
    void *root;        /* tsearch's tree of keyset_entry pointers */
    size_t n;
    ktable *t;
    size_t n_t;
};

static uint64_t comparisons;

uint64_t keyset_comparisons(void)
{
    return comparisons;
}

static int cmp(const void *pa, const void *pb)
{
    const keyset_entry *a = pa, *b = pb;
    comparisons++;
    if (a->table != b->table)
        return a->table < b->table ? -1 : 1;
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->key, b->key, n) : 0;
    if (c)
        return c;
    return a->len < b->len ? -1 : a->len > b->len;
}

keyset *keyset_new(void)
{
    return xcalloc(1, sizeof(keyset));
}

/* Every entry, through twalk (which takes no context). */
static const keyset_entry **walk_out;
static size_t walk_n;

static void walk(const void *node, VISIT which, int depth)
{
    (void)depth;
    if (which == postorder || which == leaf)
        walk_out[walk_n++] = *(const keyset_entry *const *)node;
}

const keyset_entry **keyset_list(const keyset *s, size_t *n)
{
    const keyset_entry **out = xcalloc(s->n ? s->n : 1, sizeof *out);
    assert(!walk_out);
    walk_out = out;
    walk_n = 0;
    if (s->root)
        twalk(s->root, walk);
    walk_out = NULL;
    assert(walk_n == s->n);
    *n = walk_n;
    return out;
}

void keyset_remove_entry(keyset *s, const keyset_entry *e)
{
    void *found = tdelete(e, &s->root, cmp);
    assert(found);
    (void)found;
    s->t[e->table].count--;
    s->n--;
    free((void *)e);
}

void keyset_clear(keyset *s)
{
    size_t n;
    const keyset_entry **all = keyset_list(s, &n);
    /* Each deletion from the root's side is O(log n) like any other. */
    for (size_t i = 0; i < n; i++)
        keyset_remove_entry(s, all[i]);
    free(all);
    assert(!s->root && !s->n);
}

void keyset_free(keyset *s)
{
    if (!s)
        return;
    keyset_clear(s);
    for (size_t i = 0; i < s->n_t; i++) {
        free(s->t[i].name);
        free(s->t[i].pk.name);
        free(s->t[i].sk.name);
    }
    free(s->t);
    free(s);
}

static bool same_attr(const key_attr *a, const key_attr *b)
{
    if (!a->name || !b->name)
        return !a->name && !b->name;
    return a->type == b->type && strcmp(a->name, b->name) == 0;
}

/* The table's record (made when create is set), or -1. */
static long table_no(const keyset *s, const char *table, const table_def *def)
{
    for (size_t i = 0; i < s->n_t; i++)
        if (strcmp(s->t[i].name, table) == 0 && same_attr(&s->t[i].pk, &def->pk) &&
            same_attr(&s->t[i].sk, &def->sk))
            return (long)i;
    return -1;
}

static size_t new_table(keyset *s, const char *table, const table_def *def)
{
    s->t = xrealloc(s->t, (s->n_t + 1) * sizeof *s->t);
    ktable *t = &s->t[s->n_t];
    t->name = xstrdup(table);
    t->pk.name = xstrdup(def->pk.name);
    t->pk.type = def->pk.type;
    t->sk.name = def->sk.name ? xstrdup(def->sk.name) : NULL;
    t->sk.type = def->sk.type;
    t->count = 0;
    return s->n_t++;
}

/* The item's key bytes per def; false when it has no such key. */
static bool key_bytes(const table_def *def, const av *item, buf *out)
{
    if (!item || item->type != AV_M)
        return false;
    const key_attr *ka[2] = { &def->pk, &def->sk };
    for (int i = 0; i < 2; i++) {
        if (!ka[i]->name)
            continue;
        const av *v = av_map_get(item, ka[i]->name, strlen(ka[i]->name));
        if (!v || v->type != ka[i]->type)
            return false;
        keyenc_append(out, v);
    }
    return true;
}

/* Finds the item's entry: its node in the tree, or NULL. */
static void *find(const keyset *s, const char *table, const table_def *def, const av *item)
{
    long t = s->n ? table_no(s, table, def) : -1;
    if (t < 0)
        return NULL;
    buf k = BUF_INIT;
    void *node = NULL;
    if (key_bytes(def, item, &k)) {
        keyset_entry probe = { .table = (uint32_t)t, .len = (uint32_t)k.len,
                               .key = (const unsigned char *)k.data };
        node = tfind(&probe, &s->root, cmp);
    }
    buf_done(&k);
    return node;
}

int keyset_add(keyset *s, const char *table, const table_def *def, const av *item)
{
    buf k = BUF_INIT;
    if (!key_bytes(def, item, &k)) {
        buf_done(&k);
        return -1;
    }
    long t = table_no(s, table, def);
    if (t < 0)
        t = (long)new_table(s, table, def);
    keyset_entry *e = xmalloc(sizeof *e + k.len);
    e->table = (uint32_t)t;
    e->len = (uint32_t)k.len;
    memcpy(e->bytes, k.data, k.len);
    e->key = e->bytes;
    buf_done(&k);
    keyset_entry **node = tsearch(e, &s->root, cmp);
    if (!node)
        mem_oom(sizeof(void *) * 3);
    if (*node != e) {
        free(e);
        return 0;
    }
    s->n++;
    s->t[t].count++;
    return 1;
}

bool keyset_remove(keyset *s, const char *table, const table_def *def, const av *item)
{
    keyset_entry **node = find(s, table, def, item);
    if (!node)
        return false;
    keyset_remove_entry(s, *node);
    return true;
}

bool keyset_remove_key(keyset *s, const char *table, const av *key)
{
    bool removed = false;
    for (size_t i = 0; i < s->n_t; i++) {
        if (strcmp(s->t[i].name, table) != 0)
            continue;
        table_def def = { 0 };
        def.pk = s->t[i].pk;   /* shallow: only read */
        def.sk = s->t[i].sk;
        removed |= keyset_remove(s, table, &def, key);
    }
    return removed;
}

bool keyset_has(const keyset *s, const char *table, const table_def *def, const av *item)
{
    return find(s, table, def, item) != NULL;
}

size_t keyset_count(const keyset *s)
{
    return s->n;
}

size_t keyset_tables(const keyset *s)
{
    return s->n_t;
}

const char *keyset_table_name(const keyset *s, size_t t)
{
    assert(t < s->n_t);
    return s->t[t].name;
}

size_t keyset_table_count(const keyset *s, size_t t)
{
    assert(t < s->n_t);
    return s->t[t].count;
}

void keyset_table_keys(const keyset *s, size_t t, const char **pk, const char **sk)
{
    assert(t < s->n_t);
    *pk = s->t[t].pk.name;
    *sk = s->t[t].sk.name;
}

size_t keyset_entry_table(const keyset_entry *e)
{
    return e->table;
}

void keyset_entry_key(const keyset *s, const keyset_entry *e, av *out)
{
    const ktable *t = &s->t[e->table];
    const key_attr *ka[2] = { &t->pk, &t->sk };
    av_init_list(out, AV_M);
    size_t at = 0;
    for (int i = 0; i < 2; i++) {
        if (!ka[i]->name)
            continue;
        av v;
        size_t used = 0;
        diag d;
        diag_init(&d);
        /* The bytes were encoded here from a value of this type. */
        status st = keyenc_decode(e->bytes + at, e->len - at, ka[i]->type, &v, &used, &d);
        assert(st == ST_OK);
        (void)st;
        at += used;
        av_map_put(out, ka[i]->name, strlen(ka[i]->name), &v);
    }
}
