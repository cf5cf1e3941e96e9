#include "data/store_wscan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/mem.h"

#define PAGE_BYTES (1024u * 1024u)   /* DynamoDB's Scan page */

typedef struct wseg {
    av start;          /* where the segment's next page starts; AV_NONE: its first */
    bool done;         /* every page read */
    av *items;         /* kept, not handed out yet */
    size_t n, cap;
} wseg;

struct store_wscan {
    store *s;
    ddb_req base;
    int segs, cur;
    bool by_round;
    wseg seg[STORE_WSCAN_MAX_SEGMENTS];
    store_wscan_keep_fn keep;
    void *ctx;
    av *out;           /* what the last next handed out */
    size_t n_out;
    store_wscan_stats st;
};

int store_wscan_plan(store *s, const char *table, const char *index, diag *d)
{
    if (!s->remote || !s->remote->send_many)
        return 1;
    table_stats ts;
    if (store_stats(s, table, index, &ts, d) != ST_OK)
        return 1;
    uint64_t pages = (ts.bytes + PAGE_BYTES - 1) / PAGE_BYTES;
    size_t lim = s->remote->scan_limit;
    if (lim && (ts.items + lim - 1) / lim > pages)
        pages = (ts.items + lim - 1) / lim;
    if (pages < 1)
        return 1;
    return pages > STORE_WSCAN_MAX_SEGMENTS ? STORE_WSCAN_MAX_SEGMENTS : (int)pages;
}

/* ProjectionExpression of the keys: the table's and the index's, each
 * through a name of its own (#wk0...), beside the names the Scan has. */
static status keys_only(store *s, ddb_req *q, diag *d)
{
    table_def def;
    status st = store_describe(s, q->table, &def, d);
    if (st != ST_OK)
        return st;
    const index_def *ix = q->index ? table_def_index(&def, q->index) : NULL;
    const char *names[STORE_LEK_MAX];
    size_t n = store_lek_names(&def, ix, names);
    buf proj = BUF_INIT;
    if (q->names.type != AV_M)
        av_init_list(&q->names, AV_M);
    for (size_t i = 0; i < n; i++) {
        char ph[32];   /* "#wk" and a size_t */
        snprintf(ph, sizeof ph, "#wk%zu", i);
        av v;
        av_init_s(&v, names[i], strlen(names[i]));
        av_map_put(&q->names, ph, strlen(ph), &v);
        buf_printf(&proj, "%s%s", i ? ", " : "", ph);
    }
    ddb_req_set_str(&q->proj, proj.data);
    buf_done(&proj);
    table_def_free(&def);
    return ST_OK;
}

status store_wscan_open(store *s, const store_wscan_opts *o, store_wscan **out, diag *d)
{
    *out = NULL;
    if (o->scan->kind != DDB_SCAN || !o->scan->table)
        return diag_set(d, ST_VALIDATION, "A whole read takes a Scan of a table");
    store_wscan *w = xcalloc(1, sizeof *w);
    w->s = s;
    ddb_req_copy(&w->base, o->scan);
    av_done(&w->base.start);
    w->base.limit = s->remote && s->remote->scan_limit ? (uint32_t)s->remote->scan_limit : 0;
    w->base.rcc = DDB_RCC_TOTAL;
    w->segs = o->segments > 0 ? o->segments : store_wscan_plan(s, o->scan->table, o->scan->index, d);
    if (w->segs > STORE_WSCAN_MAX_SEGMENTS)
        w->segs = STORE_WSCAN_MAX_SEGMENTS;
    if (w->segs > 1 && (!s->remote || !s->remote->send_many))
        w->segs = 1;
    w->by_round = o->by_round;
    w->keep = o->keep;
    w->ctx = o->ctx;
    w->st.segments = w->segs;
    status st = o->keys_only ? keys_only(s, &w->base, d) : ST_OK;
    if (st != ST_OK) {
        store_wscan_free(w);
        return st;
    }
    if (o->after && w->segs == 1)
        av_copy(&w->seg[0].start, o->after);
    *out = w;
    return ST_OK;
}

/* One answer into its segment: the items kept, where it goes on. */
static void take(store_wscan *w, wseg *g, ddb_res *res)
{
    w->st.pages++;
    w->st.scanned += res->scanned;
    w->st.count += res->count;
    w->st.rcu += ddb_res_units(res);
    for (size_t i = 0; i < res->n_items; i++) {
        if (w->keep && !w->keep(w->ctx, &res->items[i]))
            continue;
        if (g->n == g->cap) {
            g->cap = g->cap ? 2 * g->cap : 64;
            g->items = xrealloc(g->items, g->cap * sizeof *g->items);
        }
        av_move(&g->items[g->n++], &res->items[i]);
        w->st.kept++;
    }
    av_done(&g->start);
    av_move(&g->start, &res->last_key);
    g->done = g->start.type != AV_M;
    w->st.segments_done += g->done;
}

/* One page, on an endpoint or in the local store. */
static status one_page(store *s, const ddb_req *q, ddb_res *res, diag *d)
{
    if (s->remote)
        return srem_read(s, q, res, d);
    ddb_err err;
    ddb_err_init(&err);
    status st = store_exec(s, q, res, &err);
    if (st != ST_OK)
        *d = err.d;
    ddb_err_done(&err);
    return st;
}

/* The next page of every segment not done, together. */
static status round_of(store_wscan *w, diag *d)
{
    ddb_req q[STORE_WSCAN_MAX_SEGMENTS];
    ddb_res res[STORE_WSCAN_MAX_SEGMENTS];
    int which[STORE_WSCAN_MAX_SEGMENTS];
    size_t n = 0;
    for (int i = 0; i < w->segs; i++) {
        if (w->seg[i].done)
            continue;
        ddb_req_copy(&q[n], &w->base);
        if (w->seg[i].start.type == AV_M)
            av_copy(&q[n].start, &w->seg[i].start);
        if (w->segs > 1) {
            q[n].segment = i;
            q[n].segments = w->segs;
        }
        ddb_res_init(&res[n]);
        which[n++] = i;
    }
    status st = n > 1 ? srem_read_many(w->s, q, n, res, d) : one_page(w->s, &q[0], &res[0], d);
    for (size_t j = 0; j < n; j++) {
        if (st == ST_OK)
            take(w, &w->seg[which[j]], &res[j]);
        ddb_req_done(&q[j]);
        ddb_res_done(&res[j]);
    }
    return st;
}

/* by_round: one round, what every segment kept handed out together. */
static status next_round(store_wscan *w, av **items, size_t *n, bool *end, diag *d)
{
    bool left = false;
    for (int i = 0; i < w->segs; i++)
        left = left || !w->seg[i].done;
    if (!left) {
        *end = true;
        return ST_OK;
    }
    status st = round_of(w, d);
    if (st != ST_OK)
        return st;
    size_t total = 0, k = 0;
    for (int i = 0; i < w->segs; i++)
        total += w->seg[i].n;
    free(w->out);
    w->out = xcalloc(total ? total : 1, sizeof *w->out);
    for (int i = 0; i < w->segs; i++) {
        for (size_t j = 0; j < w->seg[i].n; j++)
            av_move(&w->out[k++], &w->seg[i].items[j]);
        w->seg[i].n = 0;
    }
    w->n_out = total;
    *items = w->out;
    *n = total;
    return ST_OK;
}

status store_wscan_next(store_wscan *w, av **items, size_t *n, bool *end, diag *d)
{
    for (size_t i = 0; i < w->n_out; i++)
        av_done(&w->out[i]);
    w->n_out = 0;
    *items = NULL;
    *n = 0;
    *end = false;
    if (w->by_round)
        return next_round(w, items, n, end, d);
    bool read = false;
    while (w->cur < w->segs) {
        wseg *g = &w->seg[w->cur];
        if (g->n) {
            /* Hand out what is kept of the segment in turn. */
            free(w->out);
            w->out = g->items;
            w->n_out = g->n;
            g->items = NULL;
            g->n = g->cap = 0;
            *items = w->out;
            *n = w->n_out;
            return ST_OK;
        }
        if (g->done) {
            w->cur++;
            continue;
        }
        if (read)
            return ST_OK;   /* one round a call */
        status st = round_of(w, d);
        if (st != ST_OK)
            return st;
        read = true;
    }
    *end = true;
    return ST_OK;
}

void store_wscan_get_stats(const store_wscan *w, store_wscan_stats *out)
{
    *out = w->st;
}

void store_wscan_free(store_wscan *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_out; i++)
        av_done(&w->out[i]);
    free(w->out);
    for (int i = 0; i < STORE_WSCAN_MAX_SEGMENTS; i++) {
        for (size_t j = 0; j < w->seg[i].n; j++)
            av_done(&w->seg[i].items[j]);
        free(w->seg[i].items);
        av_done(&w->seg[i].start);
    }
    ddb_req_done(&w->base);
    free(w);
}
