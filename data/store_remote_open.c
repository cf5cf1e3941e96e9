/*
 * store_remote_open — what opening a table view reads from an endpoint,
 * in one round trip (see store_view_prefetch in data/store.h): the
 * table's description, its TTL setting and the first screen's Scan need
 * nothing of each other, so they go together (issue 42: they went one
 * after the other, 3 round trips before the first screen). Each answer
 * goes where the read it stands for looks first: the description cache
 * (srem_table_put), the TTL setting beside it (rtable.ttl, as store_ttl's
 * remote read keeps it) and the paging's first page (srem_first_put).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbreq.h"
#include "model/mem.h"

/* A DescribeTimeToLive answer kept with table t's description:
 * enabled (or enabling), its attribute; else off. */
static void ttl_put(rtable *t, const cJSON *root)
{
    ddb_res res;
    ddb_res_init(&res);
    diag ign;
    diag_init(&ign);
    const char *on = store_codec_read(root, &res, &ign) == ST_OK ? store_ttl_answer_attr(&res) : NULL;
    free(t->ttl);
    t->ttl = on ? xstrdup(on) : NULL;
    t->ttl_known = true;
    ddb_res_done(&res);
}

status store_view_prefetch(store *s, const char *table, const char *index, bool first_screen,
                           diag *d)
{
    if (!s->remote)
        return ST_OK;
    store_remote *r = s->remote;
    rtable *t = srem_table_cached(r, table);
    ddb_req q[3];
    enum { DESCRIBE, TTL, SCAN } what[3];
    size_t n = 0;
    if (!t) {
        ddb_req_init(&q[n], DDB_DESCRIBE_TABLE);
        ddb_req_set_str(&q[n].table, table);
        what[n++] = DESCRIBE;
    }
    if (!t || !t->ttl_known) {
        ddb_req_init(&q[n], DDB_DESCRIBE_TTL);
        ddb_req_set_str(&q[n].table, table);
        what[n++] = TTL;
    }
    if (first_screen && srem_first_req(s, table, index, &q[n]))
        what[n++] = SCAN;
    if (n < 2) {
        /* Nothing to send together: each read goes as it would alone. */
        for (size_t i = 0; i < n; i++)
            ddb_req_done(&q[i]);
        return ST_OK;
    }
    cJSON *roots[3] = { NULL, NULL, NULL };
    status st = srem_send_mixed(s, n, q, roots, d);
    /* Said: the description failed (the first request: d is its error),
     * or everything did (cancelled); else the read that failed asks
     * again when it is needed. */
    bool none = true;
    for (size_t i = 0; i < n; i++)
        none = none && !roots[i];
    if (st != ST_OK && !none && !(what[0] == DESCRIBE && !roots[0]))
        st = ST_OK;
    diag ign;
    diag_init(&ign);
    /* The description first: the others are kept with it. */
    for (size_t i = 0; i < n; i++)
        if (what[i] == DESCRIBE && roots[i]) {
            srem_table_put(r, table, roots[i], &t, &ign);   /* root taken */
            roots[i] = NULL;
        }
    t = srem_table_cached(r, table);
    for (size_t i = 0; i < n; i++) {
        if (t && what[i] == TTL && roots[i])
            ttl_put(t, roots[i]);
        if (t && what[i] == SCAN && roots[i]) {
            ddb_res res;
            ddb_res_init(&res);
            if (store_codec_read(roots[i], &res, &ign) == ST_OK)
                srem_first_put(s, table, index, &res, &ign);
            ddb_res_done(&res);
        }
        cJSON_Delete(roots[i]);
        ddb_req_done(&q[i]);
    }
    return st;
}
