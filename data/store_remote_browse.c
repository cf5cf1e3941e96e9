/*
 * store_remote_browse — the explorer's browsing calls on a remote store
 * (see store_remote.c, store_remote_int.h): statistics, the partitions
 * discovered one at a time as the user pages (a Scan of Limit 1 after the
 * last item of the partition before, so a screen reads about a screen),
 * a count of them all only when asked (store_count_partitions), and pages
 * of one partition (Query).
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

static size_t part_append(rscan *sc, const av *pk)
{
    if (sc->n == sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 64;
        sc->parts = xrealloc(sc->parts, sc->cap * sizeof *sc->parts);
    }
    rpart *p = &sc->parts[sc->n];
    memset(p, 0, sizeof *p);
    av_copy(&p->pk, pk);
    p->last.type = AV_NONE;
    p->next = p->prev = -1;
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
    const char *lek[STORE_LEK_MAX];   /* every key attribute a position holds */
    size_t n_lek;
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
    k->n_lek = store_lek_names(&t->def, ix, k->lek);
    rscan *sc = scan_find(s->remote, table, index);
    if (!sc) {
        sc = xcalloc(1, sizeof *sc);
        sc->table = xstrdup(table);
        sc->index = index ? xstrdup(index) : NULL;
        sc->head = sc->tail = -1;
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

/* A projection of every key attribute of a position (the view's partition
 * key as #k..., the others as #p0...): what a discovery read needs, so
 * its answer is small (the capacity is the items' whole size anyway). */
static void keys_projection(ddb_req *q, const rkey *k)
{
    buf proj = BUF_INIT;
    for (size_t i = 0; i < k->n; i++)
        buf_printf(&proj, i ? ", #k%u" : "#k", (unsigned)(i + 1));
    for (size_t j = 0; j < k->n_lek; j++) {
        bool hash = false;
        for (size_t i = 0; i < k->n && !hash; i++)
            hash = strcmp(k->names[i], k->lek[j]) == 0;
        if (hash)
            continue;
        char ph[24];
        snprintf(ph, sizeof ph, "#p%zu", j);
        av n;
        av_init_s(&n, k->lek[j], strlen(k->lek[j]));
        av_map_put(&q->names, ph, strlen(ph), &n);
        buf_printf(&proj, ", %s", ph);
    }
    ddb_req_set_str(&q->proj, proj.data);
    buf_done(&proj);
}

/* The key attributes of an item's position (a LastEvaluatedKey's shape)
 * into *out (AV_NONE when the item lacks one). */
static void position_of(const av *item, const rkey *k, av *out)
{
    av_init_list(out, AV_M);
    for (size_t j = 0; j < k->n_lek; j++) {
        const av *v = av_map_get(item, k->lek[j], strlen(k->lek[j]));
        if (!v) {
            av_done(out);
            out->type = AV_NONE;
            return;
        }
        av c;
        av_copy(&c, v);
        av_map_put(out, k->lek[j], strlen(k->lek[j]), &c);
    }
}

/* The partition of the first item in Scan order after position start
 * (AV_NONE: from the table's start): one Scan of Limit 1, again from its
 * LastEvaluatedKey in the rare case a page comes back empty. *pos -1 at
 * the end of the table. */
static status scan_one(store *s, rscan *sc, const rkey *k, const av *start, long *pos, diag *d)
{
    *pos = -1;
    av from;
    from.type = AV_NONE;
    if (start->type == AV_M)
        av_copy(&from, start);
    status st;
    for (;;) {
        ddb_req q;
        view_req(&q, DDB_SCAN, sc, k, &from);
        keys_projection(&q, k);
        q.limit = 1;
        ddb_res res;
        ddb_res_init(&res);
        st = srem_read(s, &q, &res, d);
        ddb_req_done(&q);
        if (st != ST_OK || res.n_items) {
            av tmp;
            const av *pk = st == ST_OK ? item_pk(&res.items[0], k, &tmp) : NULL;
            if (pk) {
                *pos = part_find(sc, pk);
                if (*pos < 0)
                    *pos = (long)part_append(sc, pk);
                av_done(&tmp);
            }
            ddb_res_done(&res);
            break;
        }
        next_start(&res, &from);
        ddb_res_done(&res);
        if (from.type == AV_NONE)
            break;
    }
    av_done(&from);
    return st;
}

/* What the first Scan page tells: the partitions it holds, in order,
 * linked; each one it holds from start to end counted, with its last
 * item's position; the table's end when the Scan ended there. */
static void first_page_learnt(rscan *sc, const rkey *k)
{
    long prev = -1;
    size_t from = 0;
    for (size_t i = 0; i <= sc->n_first; i++) {
        av tmp;
        const av *pk = i < sc->n_first ? item_pk(&sc->first[i], k, &tmp) : NULL;
        long at = pk ? part_find(sc, pk) : -1;
        if (pk && at < 0)
            at = (long)part_append(sc, pk);
        if (pk)
            av_done(&tmp);
        if (i < sc->n_first && at == prev)
            continue;
        /* prev's items are [from, i): whole when they end in the page. */
        if (prev >= 0 && (i < sc->n_first || !sc->first_more)) {
            rpart *p = &sc->parts[prev];
            p->counted = true;
            p->items = i - from;
            av_done(&p->last);
            position_of(&sc->first[i - 1], k, &p->last);
            if (at >= 0) {
                p->next = at;
                sc->parts[at].prev = prev;
            } else {
                sc->tail = prev;
            }
        }
        if (at < 0)
            break;
        if (prev < 0) {
            sc->head = at;
            sc->parts[at].prev = -1;
        }
        prev = at;
        from = i;
    }
}

/* The page hint's Scan: the first screen of whole items (0: none). */
static size_t first_hint(const store *s)
{
    size_t hint = s->remote->page_hint;
    if (hint && s->remote->scan_limit && s->remote->scan_limit < hint)
        hint = s->remote->scan_limit;   /* tests: pages of a few items */
    return hint;
}

/* The first screen's Scan of sc, into *q. */
static void first_req(const store *s, const rscan *sc, const rkey *k, ddb_req *q)
{
    av none = { .type = AV_NONE };
    view_req(q, DDB_SCAN, sc, k, &none);
    av_done(&q->names);   /* no placeholder is used */
    q->names.type = AV_NONE;
    q->limit = (uint32_t)first_hint(s);
}

/* The first Scan page's answer (its items taken) learnt by sc. */
static void first_learn(rscan *sc, const rkey *k, ddb_res *res)
{
    if (!res->n_items || sc->head >= 0)
        return;
    sc->first = xcalloc(res->n_items, sizeof *sc->first);
    for (size_t i = 0; i < res->n_items; i++)
        av_move(&sc->first[sc->n_first++], &res->items[i]);
    sc->first_more = res->last_key.type == AV_M && res->last_key.u.m.len;
    first_page_learnt(sc, k);
}

bool srem_first_req(store *s, const char *table, const char *index, ddb_req *q)
{
    rscan *sc = scan_find(s->remote, table, index);
    if ((sc && (sc->head >= 0 || sc->empty)) || !first_hint(s))
        return false;
    /* Needs nothing of the description: the view's table (index) alone. */
    rscan tmp = { .table = (char *)table, .index = (char *)index };
    rkey none = { 0 };
    first_req(s, &tmp, &none, q);
    return true;
}

status srem_first_put(store *s, const char *table, const char *index, ddb_res *res, diag *d)
{
    rscan *sc;
    rkey k;
    status st = scan_get(s, table, index, &sc, &k, d);
    if (st == ST_OK)
        first_learn(sc, &k, res);
    return st;
}

/* The first partition in Scan order (sc->head), read once: a Scan of
 * Limit 1 of the keys, or with a page hint a Scan of a screen of whole
 * items, kept for the first pages. */
static status find_head(store *s, rscan *sc, const rkey *k, diag *d)
{
    if (sc->head >= 0 || sc->empty)
        return ST_OK;
    if (first_hint(s)) {
        ddb_req q;
        first_req(s, sc, k, &q);
        ddb_res res;
        ddb_res_init(&res);
        status st = srem_read(s, &q, &res, d);
        ddb_req_done(&q);
        if (st == ST_OK)
            first_learn(sc, k, &res);
        ddb_res_done(&res);
        if (st == ST_OK && sc->head >= 0)
            return ST_OK;
        if (st != ST_OK)
            return st;
        /* An empty first page: the Scan of Limit 1 below goes on. */
    }
    av none = { .type = AV_NONE };
    long pos;
    status st = scan_one(s, sc, k, &none, &pos, d);
    if (st != ST_OK)
        return st;
    if (pos < 0) {
        sc->empty = true;
        return ST_OK;
    }
    sc->head = pos;
    sc->parts[pos].prev = -1;
    return ST_OK;
}

/* The first max items of partition pk from the first Scan page, when it
 * holds them (that many, or the partition whole): true and *n set. */
static bool first_page_serves(const rscan *sc, const rkey *k, const av *pk, size_t max, av *items,
                              size_t *n)
{
    size_t i0 = 0;
    bool found = false;
    for (; i0 < sc->n_first && !found; i0++) {
        av tmp;
        const av *ipk = item_pk(&sc->first[i0], k, &tmp);
        found = ipk && av_equal(ipk, pk);
        av_done(&tmp);
        if (found)
            break;
    }
    if (!found)
        return false;
    size_t end = i0;
    for (; end < sc->n_first; end++) {
        av tmp;
        const av *ipk = item_pk(&sc->first[end], k, &tmp);
        bool same = ipk && av_equal(ipk, pk);
        av_done(&tmp);
        if (!same)
            break;
    }
    bool whole = end < sc->n_first || !sc->first_more;
    if (end - i0 < max && !whole)
        return false;
    *n = 0;
    for (size_t i = i0; i < end && *n < max; i++)
        av_copy(&items[(*n)++], &sc->first[i]);
    return true;
}

/* The keys of partition pk's first (or last: backward) item, a Query of
 * Limit 1, into res (the caller's: ddb_res_done). */
static status query_one(store *s, rscan *sc, const rkey *k, const av *pk, bool backward,
                        ddb_res *res, diag *d)
{
    ddb_req q;
    av none = { .type = AV_NONE };
    key_condition(&q, sc, k, pk, &none);
    keys_projection(&q, k);
    q.backward = backward;
    q.limit = 1;
    ddb_res_init(res);
    status st = srem_read(s, &q, res, d);
    ddb_req_done(&q);
    return st;
}

/* The position of partition at's last item: known from a page that
 * reached it, else a Query of Limit 1 read backward. */
static status last_of(store *s, rscan *sc, const rkey *k, long at, diag *d)
{
    if (sc->parts[at].last.type == AV_M)
        return ST_OK;
    ddb_res res;
    status st = query_one(s, sc, k, &sc->parts[at].pk, true, &res, d);
    if (st == ST_OK && res.n_items)
        position_of(&res.items[0], k, &sc->parts[at].last);
    ddb_res_done(&res);
    return st;
}

/* The partition after partition at in Scan order (*pos -1: at is the
 * last): linked once found. */
static status next_of(store *s, rscan *sc, const rkey *k, long at, long *pos, diag *d)
{
    *pos = sc->parts[at].next;
    if (*pos >= 0 || sc->tail == at)
        return ST_OK;
    status st = last_of(s, sc, k, at, d);
    if (st != ST_OK || sc->parts[at].last.type != AV_M)
        return st;   /* gone meanwhile: nothing after it to tell */
    av start;
    av_copy(&start, &sc->parts[at].last);
    st = scan_one(s, sc, k, &start, pos, d);
    av_done(&start);
    if (st != ST_OK)
        return st;
    if (*pos < 0 || *pos == at) {
        *pos = -1;
        sc->tail = at;
        return ST_OK;
    }
    sc->parts[at].next = *pos;
    sc->parts[*pos].prev = at;
    return ST_OK;
}

/* The partition in the chain from the head that has no known next: the
 * last one found so far (-1: none). */
static long last_known(const rscan *sc)
{
    long at = sc->head, steps = 0;
    while (at >= 0 && sc->parts[at].next >= 0 && steps++ < (long)sc->n)
        at = sc->parts[at].next;
    return at;
}

/* Where partition pk is among those met; one not met yet is looked for
 * with a Query of Limit 1 (its first item's keys) and kept, unlinked
 * until the paging reaches it. -1 when the table has no such partition. */
static status part_locate(store *s, rscan *sc, const rkey *k, const av *pk, long *pos,
                          diag *d)
{
    *pos = part_find(sc, pk);
    if (*pos >= 0 || sc->complete)
        return ST_OK;
    ddb_res res;
    status st = query_one(s, sc, k, pk, false, &res, d);
    if (st == ST_OK && res.n_items)
        *pos = (long)part_append(sc, pk);
    ddb_res_done(&res);
    return st;
}

static void part_out(const rpart *p, part_info *out)
{
    av_copy(&out->pk, &p->pk);
    out->items = p->counted ? p->items : STORE_ITEMS_UNKNOWN;
    out->bytes = 0;
}

status store_remote_partitions(store *s, const char *table, const char *index, const av *after,
                               bool backward, size_t max, part_info *out, size_t *n, diag *d)
{
    *n = 0;
    rscan *sc;
    rkey vk;
    status st = scan_get(s, table, index, &sc, &vk, d);
    if (st == ST_OK)
        st = find_head(s, sc, &vk, d);
    if (st != ST_OK || sc->empty)
        return st;
    long pos = -1;
    if (after) {
        if ((st = part_locate(s, sc, &vk, after, &pos, d)) != ST_OK || pos < 0)
            return st;
    }
    if (backward) {
        /* Backward goes by what is linked: a Scan cannot read backward. */
        long at = after ? sc->parts[pos].prev : last_known(sc);
        while (*n < max && at >= 0) {
            part_out(&sc->parts[at], &out[(*n)++]);
            at = sc->parts[at].prev;
        }
        return ST_OK;
    }
    long at = sc->head;
    if (after && (st = next_of(s, sc, &vk, pos, &at, d)) != ST_OK)
        return st;
    while (*n < max && at >= 0) {
        part_out(&sc->parts[at], &out[(*n)++]);
        if (*n < max && (st = next_of(s, sc, &vk, at, &at, d)) != ST_OK)
            break;
    }
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            av_done(&out[i].pk);
        *n = 0;
    }
    return st;
}

/* ---- a count of every partition, when asked ---- */

/* One page of the counting Scan: each item tallied to its partition,
 * each one's last position noted; with link (a Scan in one stream, the
 * Scan's own order), partitions met in a row linked and the first of the
 * stream into *first. */
static void count_page(rscan *sc, const rkey *k, ddb_res *res, long *prev, long *first, bool link)
{
    for (size_t i = 0; i < res->n_items; i++) {
        av tmp;
        const av *pk = item_pk(&res->items[i], k, &tmp);
        if (!pk)
            continue;
        long at = part_find(sc, pk);
        if (at < 0)
            at = (long)part_append(sc, pk);
        av_done(&tmp);
        if (link && at != *prev) {
            if (*prev >= 0) {
                sc->parts[*prev].next = at;
                sc->parts[at].prev = *prev;
            } else {
                *first = at;
            }
        }
        sc->parts[at].tally++;
        av_done(&sc->parts[at].last);
        position_of(&res->items[i], k, &sc->parts[at].last);
        *prev = at;
    }
}

/* Segments of the parallel counting Scan (as `ddbx pull --segments`):
 * their pages go out together, one a segment a round. */
#define COUNT_SEGMENTS 8

/* One round: the next page of every segment not done. */
static status count_round(store *s, rscan *sc, const rkey *k, av *start, bool *done, long *prev,
                          long *first, uint64_t *read, diag *d)
{
    ddb_req q[COUNT_SEGMENTS];
    ddb_res res[COUNT_SEGMENTS];
    int seg[COUNT_SEGMENTS];
    size_t n = 0;
    for (int i = 0; i < COUNT_SEGMENTS; i++) {
        if (done[i])
            continue;
        view_req(&q[n], DDB_SCAN, sc, k, &start[i]);
        keys_projection(&q[n], k);
        q[n].limit = (uint32_t)s->remote->scan_limit;
        q[n].segment = i;
        q[n].segments = COUNT_SEGMENTS;
        ddb_res_init(&res[n]);
        seg[n++] = i;
    }
    status st = srem_read_many(s, q, n, res, d);
    for (size_t j = 0; j < n; j++) {
        int i = seg[j];
        if (st == ST_OK) {
            count_page(sc, k, &res[j], &prev[i], &first[i], false);
            *read += res[j].n_items;
            next_start(&res[j], &start[i]);
            done[i] = start[i].type == AV_NONE;
        }
        ddb_req_done(&q[j]);
        ddb_res_done(&res[j]);
    }
    return st;
}

/* Every page of the keys: in segments sent together when the store can
 * (store_set_send_many), else one page after another (which also links
 * every partition in Scan order: *tail the last, sc->head the first;
 * segmented, *tail is what was known). */
static status count_pages(store *s, rscan *sc, const rkey *k, store_progress_fn progress, void *ctx,
                          long *tail, diag *d)
{
    int segs = s->remote->send_many ? COUNT_SEGMENTS : 1;
    av start[COUNT_SEGMENTS];
    bool done[COUNT_SEGMENTS] = { false };
    long prev[COUNT_SEGMENTS], first[COUNT_SEGMENTS];
    for (int i = 0; i < COUNT_SEGMENTS; i++) {
        start[i].type = AV_NONE;
        prev[i] = first[i] = -1;
        done[i] = i >= segs;
    }
    uint64_t read = 0;
    status st = ST_OK;
    bool left = true;
    while (st == ST_OK && left) {
        if (segs > 1) {
            st = count_round(s, sc, k, start, done, prev, first, &read, d);
        } else {
            ddb_req q;
            view_req(&q, DDB_SCAN, sc, k, &start[0]);
            keys_projection(&q, k);
            q.limit = (uint32_t)s->remote->scan_limit;
            ddb_res res;
            ddb_res_init(&res);
            st = srem_read(s, &q, &res, d);
            ddb_req_done(&q);
            if (st == ST_OK) {
                count_page(sc, k, &res, &prev[0], &first[0], true);
                read += res.n_items;
                next_start(&res, &start[0]);
                done[0] = start[0].type == AV_NONE;
            }
            ddb_res_done(&res);
        }
        left = false;
        for (int i = 0; i < segs; i++)
            left = left || !done[i];
        if (st == ST_OK && left && progress && !progress(ctx, read))
            st = diag_set(d, ST_IO, "Cancelled: the count stopped after %llu items", (unsigned long long)read);
    }
    for (int i = 0; i < COUNT_SEGMENTS; i++)
        av_done(&start[i]);
    /* One stream is the Scan's order: its partitions are linked, first to
     * last. Segments are not (how a segment's range sits in that order is
     * the endpoint's): paging links them as it goes. */
    *tail = -1;
    if (st == ST_OK && segs == 1) {
        if (first[0] >= 0) {
            sc->head = first[0];
            sc->parts[first[0]].prev = -1;
        }
        *tail = prev[0];
    } else if (st == ST_OK) {
        *tail = sc->tail;
    }
    return st;
}

/* Every partition of the table or index counted, in 1 MB pages of the
 * keys (store_count_partitions on an endpoint). */
static status remote_count_partitions(store *s, const char *table, const char *index,
                                      store_progress_fn progress, void *ctx, diag *d)
{
    rscan *sc;
    rkey vk;
    status st = scan_get(s, table, index, &sc, &vk, d);
    if (st != ST_OK)
        return st;
    for (size_t i = 0; i < sc->n; i++)
        sc->parts[i].tally = 0;
    long tail;
    if ((st = count_pages(s, sc, &vk, progress, ctx, &tail, d)) != ST_OK)
        return st;   /* the links and positions met stay true; the counts do not change */
    for (size_t i = 0; i < sc->n; i++) {
        sc->parts[i].items = sc->parts[i].tally;
        sc->parts[i].counted = true;
    }
    sc->tail = tail;
    sc->empty = sc->n == 0;
    if (tail >= 0)
        sc->parts[tail].next = -1;
    sc->complete = true;
    return ST_OK;
}

static const rscan *sort_scan;

static int by_items(const void *a, const void *b)
{
    const rpart *x = &sort_scan->parts[*(const size_t *)a], *y = &sort_scan->parts[*(const size_t *)b];
    if (x->counted != y->counted)
        return x->counted ? -1 : 1;   /* what is not counted comes last */
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
        st = find_head(s, sc, &vk, d);
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
        /* Every partition met, in a chain from the first to the last. */
        long last = last_known(sc);
        *complete = sc->complete || sc->empty || (last >= 0 && last == sc->tail);
    }
    return ST_OK;
}

/* ---- pages of one partition: Query ---- */

/* What a page tells of a partition already met, for free: its count when
 * one page held all of it, its last item's position when the page reached
 * that end (forward) or started from it (backward). */
static void page_learnt(rscan *sc, const rkey *k, const av *pk, const av *after, bool forward,
                        bool end, const av *items, size_t n)
{
    long at = part_find(sc, pk);
    if (at < 0 || !n)
        return;
    rpart *p = &sc->parts[at];
    if (!after && end && !p->counted) {
        p->items = n;
        p->counted = true;
    }
    const av *last = forward ? (end ? &items[n - 1] : NULL) : (!after ? &items[0] : NULL);
    if (last && p->last.type != AV_M)
        position_of(last, k, &p->last);
}

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
    if (!after && forward && first_page_serves(sc, &vk, pk, max, items, n))
        return ST_OK;
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
    bool end = false;   /* the partition's end (forward) or start (backward) was reached */
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
        if (st == ST_OK)
            next_start(&res, &start);
        end = st == ST_OK && start.type == AV_NONE;
        if (*n >= max)
            av_done(&start);
        ddb_res_done(&res);
    } while (st == ST_OK && start.type != AV_NONE);
    av_done(&start);
    if (st == ST_OK)
        page_learnt(sc, &vk, pk, after, forward, end, items, *n);
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            av_done(&items[i]);
        *n = 0;
    }
    return st;
}

/* ---- what is known, and what a whole read costs ---- */

status store_count_partitions(store *s, const char *table, const char *index,
                              store_progress_fn progress, void *ctx, diag *d)
{
    if (!s->remote)
        return ST_OK;
    return remote_count_partitions(s, table, index, progress, ctx, d);
}

bool store_partition_counted(store *s, const char *table, const char *index, const av *pk,
                             uint64_t *items)
{
    if (!s->remote)
        return false;
    rscan *sc = scan_find(s->remote, table, index);
    long at = sc ? part_find(sc, pk) : -1;
    if (at < 0 || !sc->parts[at].counted)
        return false;
    *items = sc->parts[at].items;
    return true;
}

status store_read_cost(store *s, const char *table, const char *index, uint64_t *bytes,
                       double *rcu, diag *d)
{
    table_stats ts;
    status st = store_stats(s, table, index, &ts, d);
    *bytes = st == ST_OK ? ts.bytes : 0;
    /* A Scan's pages are rounded up to 4 KB each; over 1 MB pages that is
     * within a page's worth of the bytes / 4 KB. */
    *rcu = (double)((*bytes + 4095) / 4096) / 2.0;
    return st;
}

status store_partition_meet(store *s, const char *table, const char *index, const av *pk,
                            part_info *out, bool *found, diag *d)
{
    *found = false;
    if (!s->remote)
        return store_partition(s, table, index, pk, out, found, d);
    rscan *sc;
    rkey vk;
    long pos = -1;
    status st = scan_get(s, table, index, &sc, &vk, d);
    if (st == ST_OK)
        st = part_locate(s, sc, &vk, pk, &pos, d);
    if (st == ST_OK && pos >= 0) {
        part_out(&sc->parts[pos], out);
        *found = true;
    }
    return st;
}

/* The Query of Limit 1 part_locate sends for partition pk, into *q. */
static void locate_req(ddb_req *q, const rscan *sc, const rkey *k, const av *pk)
{
    av none = { .type = AV_NONE };
    key_condition(q, sc, k, pk, &none);
    keys_projection(q, k);
    q->limit = 1;
}

status store_partitions_meet(store *s, const char *table, size_t n, const char *const *indexes,
                             const av *pks, bool *found, diag *d)
{
    status st = ST_OK;
    ddb_req *q = xcalloc(n ? n : 1, sizeof *q);
    ddb_res *res = xcalloc(n ? n : 1, sizeof *res);
    rscan **scs = xcalloc(n ? n : 1, sizeof *scs);
    size_t *which = xcalloc(n ? n : 1, sizeof *which);
    size_t m = 0;
    for (size_t i = 0; i < n && st == ST_OK; i++) {
        found[i] = false;
        part_info pi;
        if (!s->remote || !s->remote->send_many) {
            st = store_partition_meet(s, table, indexes[i], &pks[i], &pi, &found[i], d);
        } else {
            rkey k;
            if ((st = scan_get(s, table, indexes[i], &scs[m], &k, d)) != ST_OK)
                break;
            found[i] = part_find(scs[m], &pks[i]) >= 0;
            if (found[i] || scs[m]->complete)
                continue;
            locate_req(&q[m], scs[m], &k, &pks[i]);
            ddb_res_init(&res[m]);
            which[m++] = i;
            continue;
        }
        if (found[i])
            av_done(&pi.pk);
    }
    if (st == ST_OK && m == 1)
        st = srem_read(s, &q[0], &res[0], d);
    else if (st == ST_OK && m)
        st = srem_read_many(s, q, m, res, d);
    for (size_t j = 0; j < m; j++) {
        if (st == ST_OK && res[j].n_items) {
            found[which[j]] = true;
            if (part_find(scs[j], &pks[which[j]]) < 0)
                part_append(scs[j], &pks[which[j]]);
        }
        ddb_req_done(&q[j]);
        ddb_res_done(&res[j]);
    }
    free(q);
    free(res);
    free(scs);
    free(which);
    return st;
}

bool store_partition_shape_met(store *s, const char *table, const char *index, const char *prefix,
                               size_t len)
{
    const rscan *sc = s->remote ? scan_find(s->remote, table, index) : NULL;
    for (size_t i = 0; sc && i < sc->n; i++) {
        const av *pk = &sc->parts[i].pk;
        if (pk->type == AV_S && pk->u.s.len >= len && memcmp(pk->u.s.ptr, prefix, len) == 0)
            return true;
    }
    return false;
}
