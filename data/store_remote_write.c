/*
 * store_remote_write — writes on a remote store (see store_remote.c,
 * store_remote_int.h): bulk loads queued into BatchWriteItem requests of
 * 25 (unprocessed items sent again with a pause), and table writes
 * (CreateTable, DeleteTable...) that wait for the table to be ready.
 * Every write passes the write gate first.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbjson.h"
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
    if (!r->batch_n)
        return ST_OK;
    buf req = BUF_INIT;
    buf_adds(&req, "{\"RequestItems\":{");
    srem_json_str(&req, r->batch_table);
    buf_adds(&req, ":[");
    buf_add(&req, r->batch.data + 1, r->batch.len - 1);   /* without the first comma */
    buf_adds(&req, "]},\"ReturnConsumedCapacity\":\"TOTAL\"}");
    buf_reset(&r->batch);
    r->batch_n = 0;
    status st = ST_OK;
    /* Unprocessed items go again, after a growing pause. */
    for (int attempt = 0;; attempt++) {
        cJSON *root = NULL;
        st = srem_send_buf(s, "BatchWriteItem", &req, &root, d);
        if (st != ST_OK)
            break;
        const cJSON *un = srem_member(root, "UnprocessedItems");
        if (!cJSON_IsObject(un) || !un->child) {
            cJSON_Delete(root);
            break;
        }
        if (attempt == 8) {
            cJSON_Delete(root);
            st = diag_set(d, ST_INTERNAL, "BatchWriteItem: items still unprocessed after %d attempts",
                          attempt + 1);
            break;
        }
        char *text = cJSON_PrintUnformatted(un);
        buf_reset(&req);
        buf_adds(&req, "{\"RequestItems\":");
        buf_adds(&req, text);
        buf_adds(&req, ",\"ReturnConsumedCapacity\":\"TOTAL\"}");
        free(text);
        cJSON_Delete(root);
        pause_ms(50L << attempt);
    }
    buf_done(&req);
    srem_forget(r, r->batch_table, false);
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
    if (!r->approved || strcmp(r->approved, table) != 0) {
        buf what = BUF_INIT;
        buf_printf(&what, "%s into %s (%s)", r->bulk ? "BatchWriteItem: load items" : "PutItem",
                   table, r->where);
        st = srem_may_write(s, r->bulk ? "BatchWriteItem" : "PutItem", NULL, what.data, d);
        buf_done(&what);
        if (st != ST_OK)
            return st;
        if (r->bulk) {
            free(r->approved);
            r->approved = xstrdup(table);
        }
    }
    if (!r->bulk) {
        buf req = BUF_INIT;
        buf_adds(&req, "{\"TableName\":");
        srem_json_str(&req, table);
        buf_adds(&req, ",\"Item\":");
        ddbjson_write_item(&req, item);
        buf_adds(&req, ",\"ReturnConsumedCapacity\":\"TOTAL\"}");
        st = srem_send_buf(s, "PutItem", &req, NULL, d);
        buf_done(&req);
        srem_forget(r, table, false);
        return st;
    }
    if (r->batch_table && strcmp(r->batch_table, table) != 0 && (st = flush_batch(s, d)) != ST_OK)
        return st;
    if (!r->batch_table || strcmp(r->batch_table, table) != 0) {
        free(r->batch_table);
        r->batch_table = xstrdup(table);
    }
    buf_adds(&r->batch, ",{\"PutRequest\":{\"Item\":");
    ddbjson_write_item(&r->batch, item);
    buf_adds(&r->batch, "}}");
    if (++r->batch_n == 25)
        st = flush_batch(s, d);
    return st;
}

static void bulk_end(store_remote *r)
{
    r->bulk = false;
    buf_reset(&r->batch);
    r->batch_n = 0;
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
    for (int i = 0; i < 600; i++) {
        buf req = BUF_INIT;
        cJSON *root = NULL;
        diag dd;
        diag_init(&dd);
        buf_adds(&req, "{\"TableName\":");
        srem_json_str(&req, table);
        buf_addc(&req, '}');
        status st = srem_send_buf(s, "DescribeTable", &req, &root, &dd);
        buf_done(&req);
        if (gone && st == ST_NOT_FOUND)
            return ST_OK;
        if (st != ST_OK) {
            *d = dd;
            return st;
        }
        const char *ts = srem_jstring(srem_member(root, "Table"), "TableStatus");
        bool active = ts && strcmp(ts, "ACTIVE") == 0;
        cJSON_Delete(root);
        if (!gone && active)
            return ST_OK;
        pause_ms(200);
    }
    return diag_set(d, ST_INTERNAL, "table %s did not become %s in two minutes", table,
                    gone ? "deleted" : "ACTIVE");
}

status store_remote_send_json(store *s, const char *op, const cJSON *in, diag *d)
{
    const char *table = srem_jstring(in, "TableName");
    status st = flush_batch(s, d);
    if (st != ST_OK)
        return st;
    buf what = BUF_INIT;
    buf_printf(&what, "%s %s (%s)", op, table ? table : "?", s->remote->where);
    st = srem_may_write(s, op, in, what.data, d);
    buf_done(&what);
    if (st != ST_OK)
        return st;
    char *text = cJSON_PrintUnformatted(in);
    st = srem_send(s, op, text, strlen(text), NULL, NULL, d);
    free(text);
    if (table)
        srem_forget(s->remote, table, true);
    if (st == ST_OK && table)
        st = wait_table(s, table, strcmp(op, "DeleteTable") == 0, d);
    return st;
}
