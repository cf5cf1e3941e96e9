/*
 * store_remote_write — writes on a remote store (see store_remote.c,
 * store_remote_int.h): bulk loads queued into BatchWriteItem requests of
 * 25 (unprocessed items sent again with a pause), and CreateTable and
 * DeleteTable, which wait for the table to be ready. Every write passes
 * the write gate first.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

/* ---- writes: tables and bulk loads ---- */

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static status flush_batch(store *s, diag *d)
{
    store_remote *r = s->remote;
    if (!r->batch.n_acts)
        return ST_OK;
    ddb_req b = r->batch;      /* the queue, taken */
    ddb_req_init(&r->batch, DDB_BATCH_WRITE);
    b.rcc = DDB_RCC_TOTAL;
    status st = ST_OK;
    /* Unprocessed items go again, after a growing pause. */
    for (int attempt = 0;; attempt++) {
        ddb_res res;
        ddb_res_init(&res);
        st = srem_read(s, &b, &res, d);
        if (st != ST_OK || !res.unprocessed.n_acts) {
            ddb_res_done(&res);
            break;
        }
        if (attempt == 8) {
            ddb_res_done(&res);
            st = diag_set(d, ST_INTERNAL, "BatchWriteItem: items still unprocessed after %d attempts",
                          attempt + 1);
            break;
        }
        ddb_req_done(&b);
        b = res.unprocessed;   /* taken from res */
        ddb_req_init(&res.unprocessed, DDB_BATCH_WRITE);
        b.rcc = DDB_RCC_TOTAL;
        ddb_res_done(&res);
        pause_ms(50L << attempt);
    }
    const char *table = b.n_acts ? b.acts[0].table : NULL;
    if (table)
        srem_forget(r, table, false);
    ddb_req_done(&b);
    return st;
}

status store_remote_begin(store *s, diag *d)
{
    if (s->remote->bulk)
        return diag_set(d, ST_USAGE, "a transaction is already open");
    s->remote->bulk = true;
    return ST_OK;
}

status store_remote_put_item(store *s, const char *table, const av *item, diag *d)
{
    store_remote *r = s->remote;
    status st = ST_OK;
    ddb_req put;
    ddb_req_init(&put, DDB_PUT);
    if (!r->approved || strcmp(r->approved, table) != 0) {
        buf what = BUF_INIT;
        buf_printf(&what, "%s into %s (%s)", r->bulk ? "BatchWriteItem: load items" : "PutItem",
                   table, r->where);
        st = srem_may_write(s, r->bulk ? &r->batch : &put, what.data, d);
        buf_done(&what);
        if (st != ST_OK)
            return st;
        if (r->bulk) {
            free(r->approved);
            r->approved = xstrdup(table);
        }
    }
    ddb_req_set_str(&put.table, table);
    av_copy(&put.item, item);
    if (!r->bulk) {
        put.rcc = DDB_RCC_TOTAL;
        ddb_res res;
        ddb_res_init(&res);
        st = srem_read(s, &put, &res, d);
        ddb_res_done(&res);
        ddb_req_done(&put);
        srem_forget(r, table, false);
        return st;
    }
    const char *queued = r->batch.n_acts ? r->batch.acts[0].table : NULL;
    if (queued && strcmp(queued, table) != 0 && (st = flush_batch(s, d)) != ST_OK) {
        ddb_req_done(&put);
        return st;
    }
    ddb_req *a = ddb_req_add(&r->batch, DDB_PUT);
    ddb_req_set_str(&a->table, table);
    av_move(&a->item, &put.item);
    ddb_req_done(&put);
    if (r->batch.n_acts == 25)
        st = flush_batch(s, d);
    return st;
}

static void bulk_end(store_remote *r)
{
    r->bulk = false;
    ddb_req_done(&r->batch);
    free(r->approved);
    r->approved = NULL;
}

status store_remote_commit(store *s, diag *d)
{
    if (!s->remote->bulk)
        return diag_set(d, ST_USAGE, "no transaction is open");
    status st = flush_batch(s, d);
    bulk_end(s->remote);
    return st;
}

void store_remote_rollback(store *s)
{
    bulk_end(s->remote);
}

/* Waits until the table is ACTIVE (created) or gone (deleted), as a new
 * DynamoDB table takes a while; dynalite and DynamoDB Local are quick. */
static status wait_table(store *s, const char *table, bool gone, diag *d)
{
    ddb_req req;
    ddb_req_init(&req, DDB_DESCRIBE_TABLE);
    req.table = xstrdup(table);
    status st = ST_OK;
    int i;
    for (i = 0; i < 600; i++) {
        ddb_res res;
        ddb_res_init(&res);
        diag dd;
        diag_init(&dd);
        st = srem_read(s, &req, &res, &dd);
        const ddb_table_desc *t = st == ST_OK && res.tables ? res.tables->table : NULL;
        bool active = t && t->status && strcmp(t->status, "ACTIVE") == 0;
        ddb_res_done(&res);
        if (gone && st == ST_NOT_FOUND) {
            st = ST_OK;
            break;
        }
        if (st != ST_OK) {
            *d = dd;
            break;
        }
        if (!gone && active)
            break;
        pause_ms(200);
    }
    ddb_req_done(&req);
    if (i == 600)
        st = diag_set(d, ST_INTERNAL, "table %s did not become %s in two minutes", table,
                      gone ? "deleted" : "ACTIVE");
    return st;
}

status srem_table_write(store *s, const ddb_req *req, ddb_err *err)
{
    diag *d = &err->d;
    bool create = req->kind == DDB_CREATE_TABLE;
    const char *op = create ? "CreateTable" : "DeleteTable";
    const char *table = create ? (req->ctl.def ? req->ctl.def->name : NULL) : req->table;
    status st = flush_batch(s, d);
    if (st != ST_OK)
        return st;
    buf what = BUF_INIT;
    buf_printf(&what, "%s %s (%s)", op, table ? table : "?", s->remote->where);
    st = srem_may_write(s, req, what.data, d);
    buf_done(&what);
    if (st != ST_OK)
        return st;
    st = srem_send(s, req, NULL, err);
    if (table)
        srem_forget(s->remote, table, true);
    if (st == ST_OK && table)
        st = wait_table(s, table, !create, d);
    return st;
}
