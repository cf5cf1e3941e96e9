/*
 * store_remote_browse — the explorer's browsing calls on a remote store
 * (see store_remote.c, store_remote_int.h): statistics, the partitions a
 * Scan discovers (in arrival order, counted as it goes, a partition not
 * yet reached counted by a Query), and pages of one partition (Query).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbjson.h"
#include "model/keyenc.h"
#include "model/mem.h"

/* The key attributes of the table (ix NULL) or of an index. */
static const index_def *find_index(const rtable *t, const char *index, diag *d, status *st)
{
    *st = ST_OK;
    if (!index)
        return NULL;
    const index_def *ix = table_def_index(&t->def, index);
    if (!ix)
        *st = diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
    return ix;
}

static rscan *scan_find(store_remote *r, const char *table, const char *index)
{
    for (rscan *sc = r->scans; sc; sc = sc->next)
        if (strcmp(sc->table, table) == 0 &&
            ((!sc->index && !index) || (sc->index && index && strcmp(sc->index, index) == 0)))
            return sc;
    return NULL;
}

status store_remote_stats(store *s, const char *table, const char *index, table_stats *out,
                          diag *d)
{
    memset(out, 0, sizeof *out);
    rtable *t;
    status st = srem_table_get(s, table, &t, d);
    if (st != ST_OK)
        return st;
    const cJSON *from = t->desc;
    const char *size_name = "TableSizeBytes";
    if (index) {
        find_index(t, index, d, &st);
        if (st != ST_OK)
            return st;
        from = NULL;
        const char *lists[2] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
        for (int i = 0; i < 2 && !from; i++) {
            const cJSON *e;
            cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(t->desc, lists[i])) {
                const char *nm = store_jstr(e, "IndexName");
                if (nm && strcmp(nm, index) == 0) {
                    from = e;
                    break;
                }
            }
        }
        size_name = "IndexSizeBytes";
    }
    if (from) {
        double items = store_jnum(from, "ItemCount", NULL), bytes = store_jnum(from, size_name, NULL);
        out->items = items > 0 ? (uint64_t)items : 0;
        out->bytes = bytes > 0 ? (uint64_t)bytes : 0;
    }
    rscan *sc = scan_find(s->remote, table, index);
    out->partitions = sc ? sc->n : 0;
    out->approximate = true;
    return ST_OK;
}

/* ---- partitions, discovered by Scan ---- */

static uint64_t pk_hash(const av *pk)
{
    buf b = BUF_INIT;
    if (pk->type == AV_L)   /* a multi-attribute partition key's values */
        for (size_t i = 0; i < pk->u.l.len; i++)
            keyenc_append(&b, &pk->u.l.v[i]);
    else
        keyenc_append(&b, pk);
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < b.len; i++) {
        h ^= (unsigned char)b.data[i];
        h *= 1099511628211ULL;
    }
    buf_done(&b);
    return h;
}

static long part_find(const rscan *sc, const av *pk)
{
    if (!sc->n_slots)
        return -1;
    size_t mask = sc->n_slots - 1;
    for (size_t j = pk_hash(pk) & mask; sc->slots[j]; j = (j + 1) & mask)
        if (av_equal(&sc->parts[sc->slots[j] - 1].pk, pk))
            return (long)(sc->slots[j] - 1);
    return -1;
}

static void slot_put(rscan *sc, size_t pos)
{
    size_t mask = sc->n_slots - 1;
    size_t j = pk_hash(&sc->parts[pos].pk) & mask;
    while (sc->slots[j])
        j = (j + 1) & mask;
    sc->slots[j] = pos + 1;
}

static size_t part_append(rscan *sc, const av *pk, uint64_t items, bool exact)
{
    if (sc->n == sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 64;
        sc->parts = xrealloc(sc->parts, sc->cap * sizeof *sc->parts);
    }
    rpart *p = &sc->parts[sc->n];
    av_copy(&p->pk, pk);
    p->items = items;
    p->exact = exact;
    sc->n++;
    if (sc->n * 2 > sc->n_slots) {
        free(sc->slots);
        sc->n_slots = sc->n_slots ? sc->n_slots * 2 : 128;
        sc->slots = xcalloc(sc->n_slots, sizeof *sc->slots);
        for (size_t i = 0; i < sc->n; i++)
            slot_put(sc, i);
    } else {
        slot_put(sc, sc->n - 1);
    }
    return sc->n - 1;
}

/* The view's partition key: the HASH attributes of its key schema (one,
 * or up to four for a multi-attribute GSI key, whose partitions are
 * named by the list of their values, as the local store names them),
 * #k, #k2, ... in requests. */
typedef struct rkey {
    const char *names[SCHEMA_MAX_KEY_PARTS];
    size_t n;
} rkey;

/* The partition key of an item: its value, or the list of a multi-
 * attribute key's values built into *tmp (the caller's: av_done); NULL
 * when the item lacks one. */
static const av *item_pk(const av *item, const rkey *k, av *tmp)
{
    tmp->type = AV_NONE;
    if (k->n == 1)
        return av_map_get(item, k->names[0], strlen(k->names[0]));
    av_init_list(tmp, AV_L);
    for (size_t i = 0; i < k->n; i++) {
        const av *v = av_map_get(item, k->names[i], strlen(k->names[i]));
        if (!v) {
            av_done(tmp);
            return NULL;
        }
        av c;
        av_copy(&c, v);
        av_list_push(tmp, &c);
    }
    return tmp;
}

/* The scan state of a table or index, with its definition checked. */
static status scan_get(store *s, const char *table, const char *index, rscan **out,
                       rkey *k, diag *d)
{
    rtable *t;
    status st = srem_table_get(s, table, &t, d);
    if (st != ST_OK)
        return st;
    const index_def *ix = find_index(t, index, d, &st);
    if (st != ST_OK)
        return st;
    k->n = ix ? index_def_n_hash(ix) : 1;
    for (size_t i = 0; i < k->n; i++)
        k->names[i] = ix ? index_def_hash(ix, i)->name : t->def.pk.name;
    rscan *sc = scan_find(s->remote, table, index);
    if (!sc) {
        sc = xcalloc(1, sizeof *sc);
        sc->table = xstrdup(table);
        sc->index = index ? xstrdup(index) : NULL;
        sc->cur = -1;
        sc->start.type = AV_NONE;
        sc->next = s->remote->scans;
        s->remote->scans = sc;
    }
    *out = sc;
    return ST_OK;
}

/* The answer's LastEvaluatedKey, moved into *start (AV_NONE when it has
 * none, or an empty one: the last page). */
static void next_start(ddb_res *res, av *start)
{
    av_done(start);
    if (res->last_key.type == AV_M && res->last_key.u.m.len)
        av_move(start, &res->last_key);
}

/* A read of the view's table or index, the view's partition key named
 * #k, #k2, ... (with :v, :v2, ... their values for a Query),
 * ExclusiveStartKey from start. */
static void view_req(ddb_req *q, ddb_kind kind, const rscan *sc, const rkey *k, const av *start)
{
    ddb_req_init(q, kind);
    ddb_req_set_str(&q->table, sc->table);
    ddb_req_set_str(&q->index, sc->index);
    av_init_list(&q->names, AV_M);
    for (size_t i = 0; i < k->n; i++) {
        char ph[8];
        snprintf(ph, sizeof ph, i ? "#k%u" : "#k", (unsigned)(i + 1));
        av n;
        av_init_s(&n, k->names[i], strlen(k->names[i]));
        av_map_put(&q->names, ph, strlen(ph), &n);
    }
    q->rcc = DDB_RCC_TOTAL;
    if (start->type == AV_M)
        av_copy(&q->start, start);
}

/* One more Scan page: its items' partition keys join the partitions. */
static status scan_more(store *s, rscan *sc, const rkey *k, diag *d)
{
    assert(!sc->complete);
    ddb_req q;
    view_req(&q, DDB_SCAN, sc, k, &sc->start);
    buf proj = BUF_INIT;
    for (size_t i = 0; i < k->n; i++)
        buf_printf(&proj, i ? ", #k%u" : "#k", (unsigned)(i + 1));
    ddb_req_set_str(&q.proj, proj.data);
    buf_done(&proj);
    q.limit = (uint32_t)s->remote->scan_limit;
    ddb_res res;
    ddb_res_init(&res);
    status st = srem_read(s, &q, &res, d);
    ddb_req_done(&q);
    if (st != ST_OK) {
        ddb_res_done(&res);
        return st;
    }
    for (size_t i = 0; i < res.n_items; i++) {
        av tmp;
        const av *pk = item_pk(&res.items[i], k, &tmp);
        if (!pk)
            continue;   /* not in this view (cannot happen in a key Scan) */
        long at = part_find(sc, pk);
        if (at < 0)
            at = (long)part_append(sc, pk, 1, false);
        else if (!sc->parts[at].exact)
            sc->parts[at].items++;
        sc->cur = at;
        av_done(&tmp);
    }
    next_start(&res, &sc->start);
    if (sc->start.type == AV_NONE)
        sc->complete = true;
    sc->started = true;
    ddb_res_done(&res);
    return ST_OK;
}

/* Scans until partitions [from, end) are known with their final counts
 * (the Scan has moved past them: a partition's items come together) or
 * the Scan is done. from == end: until the first page is in. */
static status scan_until(store *s, rscan *sc, const rkey *k, size_t from, size_t end,
                         diag *d)
{
    status st = ST_OK;
    while (st == ST_OK && !sc->complete) {
        bool growing = sc->cur >= 0 && (size_t)sc->cur >= from && (size_t)sc->cur < end &&
                       !sc->parts[sc->cur].exact;
        if (sc->started && sc->n >= end && !growing)
            break;
        st = scan_more(s, sc, k, d);
    }
    return st;
}

/* A Query of partition pk of the view ("#k = :v", and "#k2 = :v2" ...
 * for each value of a multi-attribute key's list). */
static void key_condition(ddb_req *q, const rscan *sc, const rkey *k, const av *pk, const av *start)
{
    view_req(q, DDB_QUERY, sc, k, start);
    av_init_list(&q->values, AV_M);
    buf cond = BUF_INIT;
    for (size_t i = 0; i < k->n; i++) {
        const av *part = k->n == 1 ? pk : pk->type == AV_L && i < pk->u.l.len ? &pk->u.l.v[i] : NULL;
        if (!part)
            break;   /* a value for each part, or the Query says what lacks */
        char ph[8];
        snprintf(ph, sizeof ph, i ? ":v%u" : ":v", (unsigned)(i + 1));
        if (i)
            buf_printf(&cond, " AND #k%u = %s", (unsigned)(i + 1), ph);
        else
            buf_printf(&cond, "#k = %s", ph);
        av v;
        av_copy(&v, part);
        av_map_put(&q->values, ph, strlen(ph), &v);
    }
    ddb_req_set_str(&q->keycond, cond.data ? cond.data : "#k = :v");
    buf_done(&cond);
}

/* Where partition pk is in the discovery order; -1 when the table has no
 * such partition. One the Scan has not reached is counted by a Query and
 * appended, rather than scanning on to it. */
static status part_locate(store *s, rscan *sc, const rkey *k, const av *pk, long *pos,
                          diag *d)
{
    status st = scan_until(s, sc, k, 0, 0, d);
    if (st != ST_OK)
        return st;
    *pos = part_find(sc, pk);
    if (*pos >= 0 || sc->complete)
        return ST_OK;
    uint64_t count = 0;
    av start = { .type = AV_NONE };
    do {
        ddb_req q;
        key_condition(&q, sc, k, pk, &start);
        q.select = DDB_SELECT_COUNT;
        ddb_res res;
        ddb_res_init(&res);
        st = srem_read(s, &q, &res, d);
        ddb_req_done(&q);
        if (st == ST_OK) {
            count += res.count;
            next_start(&res, &start);
        }
        ddb_res_done(&res);
        if (st != ST_OK) {
            av_done(&start);
            return st;
        }
    } while (start.type != AV_NONE);
    if (count)
        *pos = (long)part_append(sc, pk, count, true);
    return ST_OK;
}

static void part_out(const rpart *p, part_info *out)
{
    av_copy(&out->pk, &p->pk);
    out->items = p->items;
    out->bytes = 0;
}

status store_remote_partitions(store *s, const char *table, const char *index, const av *after,
                               bool backward, size_t max, part_info *out, size_t *n, diag *d)
{
    *n = 0;
    rscan *sc;
    rkey vk;
    status st = scan_get(s, table, index, &sc, &vk, d);
    if (st != ST_OK)
        return st;
    long pos = -1;
    if (after) {
        if ((st = part_locate(s, sc, &vk, after, &pos, d)) != ST_OK)
            return st;
        if (pos < 0)
            return ST_OK;
    } else if ((st = scan_until(s, sc, &vk, 0, 0, d)) != ST_OK) {
        return st;
    }
    if (backward) {
        size_t end = after ? (size_t)pos : sc->n;
        if ((st = scan_until(s, sc, &vk, end > max ? end - max : 0, end, d)) != ST_OK)
            return st;
        while (*n < max && end > 0)
            part_out(&sc->parts[--end], &out[(*n)++]);
        return ST_OK;
    }
    size_t from = after ? (size_t)pos + 1 : 0;
    if ((st = scan_until(s, sc, &vk, from, from + max, d)) != ST_OK)
        return st;
    for (size_t i = from; i < sc->n && *n < max; i++)
        part_out(&sc->parts[i], &out[(*n)++]);
    return ST_OK;
}

static const rscan *sort_scan;

static int by_items(const void *a, const void *b)
{
    const rpart *x = &sort_scan->parts[*(const size_t *)a], *y = &sort_scan->parts[*(const size_t *)b];
    if (x->items != y->items)
        return x->items > y->items ? -1 : 1;
    /* Ties in discovery order, so the ranking is stable. */
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

status store_remote_partitions_by_size(store *s, const char *table, const char *index,
                                       size_t max, part_info *out, size_t *n, diag *d)
{
    *n = 0;
    rscan *sc;
    rkey vk;
    status st = scan_get(s, table, index, &sc, &vk, d);
    if (st == ST_OK)
        st = scan_until(s, sc, &vk, 0, 0, d);
    if (st != ST_OK || !sc->n)
        return st;
    size_t *order = xmalloc(sc->n * sizeof *order);
    for (size_t i = 0; i < sc->n; i++)
        order[i] = i;
    sort_scan = sc;
    qsort(order, sc->n, sizeof *order, by_items);
    sort_scan = NULL;
    for (size_t i = 0; i < sc->n && *n < max; i++)
        part_out(&sc->parts[order[i]], &out[(*n)++]);
    free(order);
    return ST_OK;
}

status store_scan_state(store *s, const char *table, const char *index, uint64_t *known,
                        bool *complete, diag *d)
{
    *known = 0;
    *complete = false;
    if (!s->remote) {
        table_stats ts;
        status st = store_stats(s, table, index, &ts, d);
        if (st == ST_OK) {
            *known = ts.partitions;
            *complete = true;
        }
        return st;
    }
    /* What is known, without asking the endpoint (titles call this). */
    rscan *sc = scan_find(s->remote, table, index);
    if (sc) {
        *known = sc->n;
        *complete = sc->complete;
    }
    return ST_OK;
}

/* ---- pages of one partition: Query ---- */

status store_remote_page(store *s, const char *table, const char *index, const av *pk,
                         const av *after, bool forward, size_t max, av *items, size_t *n,
                         diag *d)
{
    *n = 0;
    rscan *sc;
    rkey vk;
    status st = scan_get(s, table, index, &sc, &vk, d);
    if (st != ST_OK || max == 0)
        return st;
    rtable *t;
    if ((st = srem_table_get(s, table, &t, d)) != ST_OK)
        return st;
    const index_def *ix = find_index(t, index, d, &st);
    av start = { .type = AV_NONE };
    if (after) {
        /* The position of an item: the keys a LastEvaluatedKey holds. */
        const char *names[STORE_LEK_MAX];
        size_t nn = store_lek_names(&t->def, ix, names);
        av_init_list(&start, AV_M);
        for (size_t i = 0; i < nn; i++) {
            const av *v = av_map_get(after, names[i], strlen(names[i]));
            if (!v)
                continue;
            av c;
            av_copy(&c, v);
            av_map_put(&start, names[i], strlen(names[i]), &c);
        }
    }
    do {
        ddb_req q;
        key_condition(&q, sc, &vk, pk, &start);
        q.backward = !forward;
        q.limit = (uint32_t)(max - *n);
        ddb_res res;
        ddb_res_init(&res);
        st = srem_read(s, &q, &res, d);
        ddb_req_done(&q);
        av_done(&start);
        for (size_t i = 0; st == ST_OK && i < res.n_items && *n < max; i++)
            av_move(&items[(*n)++], &res.items[i]);
        if (st == ST_OK && *n < max)
            next_start(&res, &start);
        ddb_res_done(&res);
    } while (st == ST_OK && start.type != AV_NONE);
    av_done(&start);
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            av_done(&items[i]);
        *n = 0;
    }
    return st;
}
