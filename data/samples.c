/*
 * samples — loading the bundled sample tables (see samples.h).
 */
#include "data/samples.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "data/import.h"
#include "data/store_backup.h"
#include "data/pattern_file.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/tdiff.h"

const samples_asset *samples_find(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < samples_n_assets; i++) {
        const char *a = samples_assets[i].name;
        if (strcmp(a, name) == 0)
            return &samples_assets[i];
        if (strncmp(a, name, n) == 0 && strcmp(a + n, ".json") == 0)
            return &samples_assets[i];
    }
    return NULL;
}

status samples_load(store *s, size_t *tables, size_t *items, diag *d)
{
    size_t nt = 0, ni = 0;
    status rc = ST_OK;
    for (size_t i = 0; i < samples_n_assets && rc == ST_OK; i++) {
        const samples_asset *a = &samples_assets[i];
        import_source *src = NULL;
        rc = import_source_open_mem(a->name, a->data, a->len, IMPORT_WORKBENCH, &src, d);
        if (rc != ST_OK)
            break;
        import_store_ctx ctx;
        import_sink sink;
        import_stats st;
        import_store_sink(&ctx, s, true, &sink);
        rc = import_run(src, &sink, NULL, &st, d);
        import_source_free(src);
        nt += st.tables;
        ni += st.items;
    }
    if (tables)
        *tables = nt;
    if (items)
        *items = ni;
    return rc;
}

/* The shipped items of one sample, in key order. */
typedef struct shipped {
    table_def def;
    bool has_def;
    av *items;
    char **keys;          /* each item's key encoding, for the sort */
    size_t *klen;
    size_t n, at;
} shipped;

static shipped *sort_ctx;

static int by_key(const void *a, const void *b)
{
    size_t i = *(const size_t *)a, j = *(const size_t *)b;
    size_t li = sort_ctx->klen[i], lj = sort_ctx->klen[j];
    int c = memcmp(sort_ctx->keys[i], sort_ctx->keys[j], li < lj ? li : lj);
    return c ? c : (li > lj) - (li < lj);
}

static status shipped_read(const samples_asset *a, shipped *sh, diag *d)
{
    memset(sh, 0, sizeof *sh);
    import_source *src = NULL;
    status st = import_source_open_mem(a->name, a->data, a->len, IMPORT_WORKBENCH, &src, d);
    size_t cap = 0;
    while (st == ST_OK) {
        import_event ev;
        st = import_source_next(src, &ev, d);
        if (st != ST_OK || ev.kind == IMPORT_EV_END)
            break;
        if (ev.kind == IMPORT_EV_TABLE && !sh->has_def) {
            table_def_copy(&sh->def, &ev.def);
            sh->has_def = true;
        } else if (ev.kind == IMPORT_EV_ITEM) {
            if (sh->n == cap) {
                cap = cap ? cap * 2 : 64;
                sh->items = xrealloc(sh->items, cap * sizeof *sh->items);
            }
            av_move(&sh->items[sh->n++], &ev.item);
        }
        import_event_done(&ev);
    }
    import_source_free(src);
    if (st == ST_OK && !sh->has_def)
        st = diag_set(d, ST_VALIDATION, "%s: the sample defines no table", a->name);
    if (st != ST_OK)
        return st;
    /* In the store's key order, as tdiff merges. */
    sh->keys = xcalloc(sh->n ? sh->n : 1, sizeof *sh->keys);
    sh->klen = xcalloc(sh->n ? sh->n : 1, sizeof *sh->klen);
    size_t *order = xcalloc(sh->n ? sh->n : 1, sizeof *order);
    for (size_t i = 0; i < sh->n; i++) {
        buf k = BUF_INIT;
        const av *pk = av_map_get(&sh->items[i], sh->def.pk.name, strlen(sh->def.pk.name));
        const av *sk = sh->def.sk.name ? av_map_get(&sh->items[i], sh->def.sk.name, strlen(sh->def.sk.name)) : NULL;
        if (pk)
            keyenc_append(&k, pk);
        if (sk)
            keyenc_append(&k, sk);
        sh->klen[i] = k.len;
        sh->keys[i] = buf_steal(&k);
        order[i] = i;
    }
    sort_ctx = sh;
    qsort(order, sh->n, sizeof *order, by_key);
    av *sorted = xcalloc(sh->n ? sh->n : 1, sizeof *sorted);
    for (size_t i = 0; i < sh->n; i++)
        av_move(&sorted[i], &sh->items[order[i]]);
    free(sh->items);
    sh->items = sorted;
    free(order);
    return ST_OK;
}

static void shipped_done(shipped *sh)
{
    for (size_t i = 0; i < sh->n; i++) {
        av_done(&sh->items[i]);
        free(sh->keys ? sh->keys[i] : NULL);
    }
    free(sh->items);
    free(sh->keys);
    free(sh->klen);
    if (sh->has_def)
        table_def_free(&sh->def);
}

static status shipped_next(void *ctx, av *item, bool *end, diag *d)
{
    shipped *sh = ctx;
    (void)d;
    *end = sh->at == sh->n;
    if (!*end)
        av_move(item, &sh->items[sh->at++]);
    return ST_OK;
}

static status now_next(void *ctx, av *item, bool *end, diag *d)
{
    return store_items_cursor_next(ctx, item, end, d);
}

static bool same_key_attr(const key_attr *a, const key_attr *b)
{
    if (!a->name || !b->name)
        return !a->name && !b->name;
    return strcmp(a->name, b->name) == 0 && a->type == b->type;
}

/* The table now (B) against the shipped sample (A). */
static status compare_one(store *s, shipped *sh, samples_delta *out, diag *d)
{
    table_def now;
    status st = store_describe(s, sh->def.name, &now, d);
    if (st == ST_NOT_FOUND || st == ST_TABLE_NOT_FOUND) {
        diag_init(d);
        return ST_OK;
    }
    if (st != ST_OK)
        return st;
    out->exists = true;
    out->keys_differ = !same_key_attr(&now.pk, &sh->def.pk) || !same_key_attr(&now.sk, &sh->def.sk);
    table_def_free(&now);
    if (out->keys_differ)
        return ST_OK;
    store_items_cursor *ns = xcalloc(1, sizeof *ns);   /* a page of items: not on the stack */
    st = store_items_at(s, sh->def.name, INT64_MAX, NULL, &ns->r, d);
    if (st != ST_OK) {
        free(ns);
        return st;
    }
    tdiff_side a = { shipped_next, sh, "the samples" }, b = { now_next, ns, sh->def.name };
    tdiff *t = tdiff_new(&sh->def.pk, &sh->def.sk, a, b);
    for (;;) {
        tdiff_event ev;
        bool done = false;
        st = tdiff_next(t, &ev, &done, d);
        if (st != ST_OK || done)
            break;
    }
    const tdiff_summary *sum = tdiff_get_summary(t);
    out->added = sum->total.added;
    out->removed = sum->total.removed;
    out->changed = sum->total.changed;
    out->same = sum->total.same;
    tdiff_free(t);
    store_items_cursor_done(ns);
    free(ns);
    return st;
}

status samples_compare(store *s, samples_delta **out, size_t *n, diag *d)
{
    *out = xcalloc(samples_n_assets ? samples_n_assets : 1, sizeof **out);
    *n = 0;
    status st = ST_OK;
    for (size_t i = 0; i < samples_n_assets && st == ST_OK; i++) {
        shipped sh;
        st = shipped_read(&samples_assets[i], &sh, d);
        if (st == ST_OK) {
            samples_delta *o = &(*out)[(*n)++];
            o->table = xstrdup(sh.def.name);
            st = compare_one(s, &sh, o, d);
        }
        shipped_done(&sh);
    }
    if (st != ST_OK) {
        samples_deltas_free(*out, *n);
        *out = NULL;
        *n = 0;
    }
    return st;
}

void samples_deltas_free(samples_delta *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].table);
    free(v);
}

status samples_write_patterns(const char *dir, buf *written, diag *d)
{
    if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
        snprintf(d->file, sizeof d->file, "%s", dir);
        return diag_set(d, ST_IO, "cannot create the folder: %s", strerror(errno));
    }
    for (size_t i = 0; i < samples_n_pattern_assets; i++) {
        const samples_asset *a = &samples_pattern_assets[i];
        buf path = BUF_INIT;
        buf_printf(&path, "%s/%s", dir, a->name);
        status st = pattern_file_write_text(path.data, (const char *)a->data, a->len, d);
        if (st == ST_OK)
            buf_printf(written, "%s\n", path.data);
        buf_done(&path);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}
