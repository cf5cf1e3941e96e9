/*
 * pattern_run — running an access pattern (see pattern_run.h).
 */
#include "data/pattern_run.h"

#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/partiql.h"

static void store_failed(pattern_result *r, const ddb_err *e)
{
    pattern_result_fail(r, "%s: %s", ddb_err_type(e), ddb_err_message(e));
}

/* GetItem, Query, Scan: page by page through the typed calls. */
static void run_typed(store *s, const pattern_set *set, const pattern *p, const av *values,
                      bool keep, pattern_result *r)
{
    ddb_req req;
    diag d;
    diag_init(&d);
    r->ran_as = p->op;
    if (pattern_request(p, values, &req, &d) != ST_OK) {
        pattern_result_fail(r, "%s", d.msg);
        ddb_req_done(&req);
        return;
    }
    for (;;) {
        ddb_res res;
        ddb_err err;
        ddb_res_init(&res);
        ddb_err_init(&err);
        r->ran = true;
        status st = store_exec(s, &req, &res, &err);
        if (st != ST_OK) {
            store_failed(r, &err);
        } else {
            r->pages++;
            r->units += ddb_res_units(&res);
            if (p->op == PAT_GET) {
                r->scanned += res.found;
                if (res.found)
                    pattern_result_add(r, set, p, &res.item, keep);
            } else {
                r->scanned += res.scanned;
                for (size_t i = 0; i < res.n_items; i++)
                    pattern_result_add(r, set, p, &res.items[i], keep);
            }
        }
        bool more = st == ST_OK && p->op != PAT_GET && res.last_key.type == AV_M;
        if (more && (p->limit || r->pages >= PATTERN_RUN_MAX_PAGES))
            r->truncated = true;
        else if (more) {
            av_done(&req.start);
            av_move(&req.start, &res.last_key);
        }
        ddb_res_done(&res);
        ddb_err_done(&err);
        if (!more || r->truncated)
            break;
    }
    ddb_req_done(&req);
}

/* What the store will do with the statement: Query, Scan, or (the whole
 * key fixed) a single-item read. */
static bool plan_partiql(store *s, const pattern *p, const av *params, pattern_result *r);

bool pattern_plans_scan(store *s, const pattern *p, buf *why)
{
    if (p->op != PAT_PARTIQL)
        return pattern_would_scan(p, why);
    av *params = p->n_params ? xcalloc(p->n_params, sizeof *params) : NULL;
    pattern_partiql_params(p, NULL, params);
    pattern_result r;
    pattern_result_init(&r);
    bool scan = plan_partiql(s, p, params, &r) && r.ran_as == PAT_SCAN;
    if (scan)
        buf_printf(why, "needs a Scan: the WHERE does not fix the partition key of %s", p->table);
    pattern_result_done(&r);
    for (size_t i = 0; i < p->n_params; i++)
        av_done(&params[i]);
    free(params);
    return scan;
}

static bool plan_partiql(store *s, const pattern *p, const av *params, pattern_result *r)
{
    pq_stmt *stmt = NULL;
    diag d;
    diag_init(&d);
    const char *t = p->statement;
    if (pq_parse(t, strlen(t), params, p->n_params, &stmt, &d) != ST_OK) {
        pattern_result_fail(r, "%s: %s", status_name(d.code), d.msg);
        return false;
    }
    bool ok = pq_get_kind(stmt) == PQ_SELECT;
    if (!ok)
        pattern_result_fail(r, "a pattern's statement is a SELECT (this is %s)",
                            pq_kind_name(pq_get_kind(stmt)));
    table_def def;
    pq_plan plan;
    memset(&plan, 0, sizeof plan);
    if (ok && store_describe(s, pq_table(stmt), &def, &d) != ST_OK) {
        pattern_result_fail(r, "%s: %s", status_name(d.code), d.msg);
        ok = false;
    } else if (ok) {
        if (pq_plan_of(stmt, &def, &plan, &d) != ST_OK) {
            pattern_result_fail(r, "%s: %s", status_name(d.code), d.msg);
            ok = false;
        }
        r->ran_as = plan.op == PQ_OP_SCAN ? PAT_SCAN : plan.full_key ? PAT_GET : PAT_QUERY;
        pq_plan_done(&plan);
        table_def_free(&def);
    }
    pq_free(stmt);
    return ok;
}

static void run_partiql(store *s, const pattern_set *set, const pattern *p, const av *values,
                        bool keep, pattern_result *r)
{
    av *params = p->n_params ? xcalloc(p->n_params, sizeof *params) : NULL;
    pattern_partiql_params(p, values, params);
    char *token = NULL;
    if (!plan_partiql(s, p, params, r))
        goto out;
    do {
        store_partiql_result er;
        diag d;
        diag_init(&d);
        memset(&er, 0, sizeof er);
        r->ran = true;
        status st = store_partiql_page(s, p->statement, params, p->n_params, p->limit, token, &er, &d);
        free(token);
        token = NULL;
        if (st != ST_OK) {
            pattern_result_fail(r, "%s: %s", status_name(d.code), d.msg);
            break;
        }
        r->pages++;
        r->units += er.capacity;
        /* ExecuteStatement tells no ScannedCount: count what came back. */
        r->scanned += er.n;
        for (size_t i = 0; i < er.n; i++)
            pattern_result_add(r, set, p, &er.items[i], keep);
        if (er.next_token && (p->limit || r->pages >= PATTERN_RUN_MAX_PAGES))
            r->truncated = true;
        else if (er.next_token)
            token = xstrdup(er.next_token);
        store_partiql_result_done(&er);
    } while (token);
out:
    free(token);
    for (size_t i = 0; i < p->n_params; i++)
        av_done(&params[i]);
    free(params);
}

void pattern_run(store *s, const pattern_set *set, const pattern *p, const av *values,
                 bool keep, pattern_result *r)
{
    if (p->op == PAT_PARTIQL)
        run_partiql(s, set, p, values, keep, r);
    else
        run_typed(s, set, p, values, keep, r);
}
