/*
 * table_read — a table's items, whole or sampled (see table_read.h).
 */
#include "data/table_read.h"

#include <string.h>

#include "model/ddbreq.h"

/* One Scan (a segment of one when segments > 0) from its start until max
 * items (0: its end). *ended: it reached its end. */
static status scan(store *s, const char *table, int segment, int segments, uint64_t max,
                   table_item_fn fn, void *ctx, table_read *out, bool *ended, bool *stop, diag *d)
{
    ddb_req q;
    ddb_req_init(&q, DDB_SCAN);
    ddb_req_set_str(&q.table, table);
    q.rcc = DDB_RCC_TOTAL;
    q.segment = segment;
    q.segments = segments;
    status st = ST_OK;
    uint64_t got = 0;
    *ended = false;
    for (;;) {
        if (max) {
            uint64_t left = max - got;
            q.limit = left > 1000 ? 1000 : (uint32_t)left;
        }
        ddb_res res;
        ddb_err err;
        ddb_res_init(&res);
        ddb_err_init(&err);
        st = store_exec(s, &q, &res, &err);
        if (st != ST_OK) {
            *d = err.d;
            if (err.message)
                diag_set(d, st, "%s", err.message);
            ddb_res_done(&res);
            ddb_err_done(&err);
            break;
        }
        out->pages++;
        out->units += ddb_res_units(&res);
        for (size_t i = 0; i < res.n_items && !*stop; i++) {
            out->items++;
            got++;
            if (!fn(ctx, &res.items[i]))
                *stop = true;
        }
        bool more = res.last_key.type != AV_NONE;
        av_done(&q.start);
        if (more)
            av_move(&q.start, &res.last_key);
        ddb_res_done(&res);
        ddb_err_done(&err);
        if (!more) {
            *ended = true;
            break;
        }
        if (*stop || (max && got >= max))
            break;
    }
    ddb_req_done(&q);
    return st;
}

status table_read_items(store *s, const char *table, uint64_t sample, table_item_fn fn, void *ctx,
                        table_read *out, diag *d)
{
    memset(out, 0, sizeof *out);
    store_info info;
    store_get_info(s, &info);
    out->remote = info.remote;
    table_stats ts;
    status st = store_stats(s, table, NULL, &ts, d);
    if (st != ST_OK)
        return st;
    out->total = ts.items;
    out->total_approx = ts.approximate;
    bool stop = false, ended = false;
    if (!sample || (!info.remote && ts.items <= sample)) {
        st = scan(s, table, 0, 0, 0, fn, ctx, out, &ended, &stop, d);
        out->sampled = st == ST_OK && !ended;
        return st;
    }
    uint64_t share = (sample + TABLE_READ_SEGMENTS - 1) / TABLE_READ_SEGMENTS;
    bool all = true;
    for (int seg = 0; seg < TABLE_READ_SEGMENTS && st == ST_OK && !stop; seg++) {
        st = scan(s, table, seg, TABLE_READ_SEGMENTS, share, fn, ctx, out, &ended, &stop, d);
        all = all && ended;
    }
    out->sampled = !all || stop;
    return st;
}

static bool infer_one(void *ctx, const av *item)
{
    ent_infer_add(ctx, item);
    return true;
}

status table_read_model(store *s, const char *table, uint64_t sample, ent_table *out,
                        table_read *info, diag *d)
{
    table_def def;
    status st = store_describe(s, table, &def, d);
    if (st != ST_OK)
        return st;
    ent_infer *x = ent_infer_new(&def);
    table_def_free(&def);
    st = table_read_items(s, table, sample, infer_one, x, info, d);
    ent_infer_finish(x, info->total, info->sampled, out);
    /* TTL is part of the design; an endpoint that does not answer
     * DescribeTimeToLive (dynalite) leaves it unknown, not an error. */
    diag td;
    diag_init(&td);
    if (st == ST_OK && store_ttl_get(s, table, &out->ttl_attr, &td) != ST_OK)
        out->ttl_attr = NULL;
    return st;
}
