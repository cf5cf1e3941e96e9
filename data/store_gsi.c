/*
 * store_gsi — UpdateTable's GlobalSecondaryIndexUpdates (Create, Update,
 * Delete), BillingMode and ProvisionedThroughput, for store_streams.c's
 * store_op_update_table.
 *
 * What DynamoDB does, and where the expectation comes from: the API
 * reference (UpdateTable, GlobalSecondaryIndexUpdate: "You can create or
 * delete only one global secondary index per UpdateTable operation"; a
 * new index's keys need AttributeDefinitions), the developer guide's
 * "Detecting and correcting index key violations" (an existing item whose
 * index key has the wrong type, is empty or too long stays in the table
 * and gets no index entry), dynalite's validations/updateTable.js and
 * actions/updateTable.js (throughput and billing wording), and DynamoDB's
 * answers as observed ("Attempting to create an index which already
 * exists", "Requested resource not found: Index: X not found", the
 * LimitExceededException for two index creates or deletes in one call).
 *
 * The backfill is done in the call itself, in the write transaction that
 * changes the description: UpdateTable answers the new index with
 * IndexStatus CREATING and Backfilling false (as DynamoDB's immediate
 * answer has it), and DescribeTable afterwards finds it ACTIVE with every
 * existing item in it. DynamoDB takes minutes; a test that waits for
 * ACTIVE finds it at once. A deleted index is gone from DescribeTable at
 * once; UpdateTable's answer shows it DELETING.
 *
 * Index rows are numbered by position (store_int.h: xid, LSIs then GSIs):
 * a created GSI is appended (the last xid); deleting one removes its rows
 * and moves the later indexes' rows down by one.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_ops.h"
#include "model/ddbres_tables.h"
#include "model/itemenc.h"
#include "model/mem.h"

#define CAPACITY_MAX 1e12   /* dynalite's bound on capacity units */

static double jnum(const cJSON *o, const char *name)
{
    const cJSON *v = store_jget(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static bool is_ppr(const cJSON *desc)
{
    const char *bm = store_jstr(store_jget(desc, "BillingModeSummary"), "BillingMode");
    return bm && strcmp(bm, "PAY_PER_REQUEST") == 0;
}

static bool target_ppr(const cJSON *in, const cJSON *desc)
{
    const char *bm = store_jstr(in, "BillingMode");
    return bm ? strcmp(bm, "PAY_PER_REQUEST") == 0 : is_ppr(desc);
}

/* The index named in one GlobalSecondaryIndexUpdate, and its action. */
static const char *action_of(const cJSON *u, const char **action)
{
    static const char *const actions[] = { "Update", "Create", "Delete" };
    for (int i = 0; i < 3; i++) {
        const cJSON *a = store_jget(u, actions[i]);
        if (a) {
            *action = actions[i];
            return store_jstr(a, "IndexName");
        }
    }
    *action = NULL;
    return NULL;
}

static const cJSON *find_index(const cJSON *desc, const char *member, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, store_jget(desc, member)) {
        const char *n = store_jstr(e, "IndexName");
        if (n && name && strcmp(n, name) == 0)
            return e;
    }
    return NULL;
}

static status same_throughput(const cJSON *now, const cJSON *want, diag *d)
{
    long long r = (long long)jnum(now, "ReadCapacityUnits"), w = (long long)jnum(now, "WriteCapacityUnits");
    if (r != (long long)jnum(want, "ReadCapacityUnits") || w != (long long)jnum(want, "WriteCapacityUnits"))
        return ST_OK;
    /* dynalite's wording of DynamoDB's message (actions/updateTable.js). */
    return diag_set(d, ST_VALIDATION,
                    "The provisioned throughput for the table will not change. The requested value"
                    " equals the current value. Current ReadCapacityUnits provisioned for the table:"
                    " %lld. Requested ReadCapacityUnits: %lld. Current WriteCapacityUnits provisioned"
                    " for the table: %lld. Requested WriteCapacityUnits: %lld. Refer to the Amazon"
                    " DynamoDB Developer Guide for current limits and how to request higher limits.",
                    r, r, w, w);
}

/* ---- checks ---- */

static status check_capacity(const cJSON *in, const cJSON *desc, diag *d)
{
    const cJSON *pt = store_jget(in, "ProvisionedThroughput");
    if (pt && target_ppr(in, desc))
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: Neither ReadCapacityUnits nor"
                        " WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    const char *bm = store_jstr(in, "BillingMode");
    if (bm && strcmp(bm, "PROVISIONED") == 0 && !pt)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: ProvisionedThroughput must be"
                        " specified when BillingMode is PROVISIONED");
    if (jnum(pt, "ReadCapacityUnits") > CAPACITY_MAX)
        return diag_set(d, ST_VALIDATION, "Given value %.0f for ReadCapacityUnits is out of bounds",
                        jnum(pt, "ReadCapacityUnits"));
    if (jnum(pt, "WriteCapacityUnits") > CAPACITY_MAX)
        return diag_set(d, ST_VALIDATION, "Given value %.0f for WriteCapacityUnits is out of bounds",
                        jnum(pt, "WriteCapacityUnits"));
    /* The same throughput again is refused, unless the mode changes with it. */
    if (pt && !is_ppr(desc))
        return same_throughput(store_jget(desc, "ProvisionedThroughput"), pt, d);
    return ST_OK;
}

/* The request's shape: each update names one action; one update an
 * index; at most one Create or Delete (dynalite's order of checks). */
static status check_updates_shape(const cJSON *ups, diag *d)
{
    int online = 0;
    cJSON *seen = cJSON_CreateObject();
    status st = ST_OK;
    const cJSON *u;
    cJSON_ArrayForEach(u, ups) {
        const char *action, *name = action_of(u, &action);
        if (!action) {
            st = diag_set(d, ST_VALIDATION,
                          "One or more parameter values were invalid: One of"
                          " GlobalSecondaryIndexUpdate.Update, GlobalSecondaryIndexUpdate.Create,"
                          " GlobalSecondaryIndexUpdate.Delete must not be null");
            break;
        }
        if (name && cJSON_GetObjectItemCaseSensitive(seen, name)) {
            st = diag_set(d, ST_VALIDATION,
                          "One or more parameter values were invalid: Only one global secondary index"
                          " update per index is allowed simultaneously. Index: %s", name);
            break;
        }
        if (name)
            cJSON_AddTrueToObject(seen, name);
        online += strcmp(action, "Update") != 0;
    }
    cJSON_Delete(seen);
    if (st == ST_OK && online > 1)
        st = diag_set(d, ST_LIMIT_EXCEEDED, "Subscriber limit exceeded: Only 1 online index can be"
                      " created or deleted simultaneously per table");
    return st;
}

static status check_create(const cJSON *in, const cJSON *desc, const cJSON *c, diag *d)
{
    const char *name = store_jstr(c, "IndexName");
    if (find_index(desc, "GlobalSecondaryIndexes", name) || find_index(desc, "LocalSecondaryIndexes", name))
        return diag_set(d, ST_VALIDATION, "Attempting to create an index which already exists");
    /* The new index's keys must be in this request's AttributeDefinitions. */
    const cJSON *defs = store_jget(in, "AttributeDefinitions");
    cJSON *none = defs ? NULL : cJSON_CreateArray();
    bool ppr = target_ppr(in, desc);
    status st = store_check_new_gsi(c, defs ? defs : none, ppr, d);
    cJSON_Delete(none);
    if (st == ST_OK && !ppr && !store_jget(c, "ProvisionedThroughput"))
        st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: ProvisionedThroughput"
                      " must be specified for index: %s", name);
    if (st == ST_OK && cJSON_GetArraySize(store_jget(desc, "GlobalSecondaryIndexes")) >= SCHEMA_MAX_GSI)
        st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: GlobalSecondaryIndex"
                      " count exceeds the per-table limit of %d", SCHEMA_MAX_GSI);
    return st;
}

static status check_update(const cJSON *in, const cJSON *desc, const cJSON *u, diag *d)
{
    const cJSON *ix = find_index(desc, "GlobalSecondaryIndexes", store_jstr(u, "IndexName"));
    const cJSON *pt = store_jget(u, "ProvisionedThroughput");
    if (jnum(pt, "ReadCapacityUnits") > CAPACITY_MAX || jnum(pt, "WriteCapacityUnits") > CAPACITY_MAX)
        return diag_set(d, ST_VALIDATION, "This operation cannot be performed with given input values."
                        " Please contact DynamoDB service team for more info: Action Blocked: IndexUpdate");
    if (target_ppr(in, desc))
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: ProvisionedThroughput"
                        " should not be specified for index: %s when BillingMode is PAY_PER_REQUEST",
                        store_jstr(u, "IndexName"));
    return is_ppr(desc) ? ST_OK : same_throughput(store_jget(ix, "ProvisionedThroughput"), pt, d);
}

/* A switch to PROVISIONED needs every remaining index's throughput. */
static status check_switch(const cJSON *in, const cJSON *desc, diag *d)
{
    const char *bm = store_jstr(in, "BillingMode");
    if (!bm || strcmp(bm, "PROVISIONED") != 0 || !is_ppr(desc))
        return ST_OK;
    buf missing = BUF_INIT;
    const cJSON *e;
    cJSON_ArrayForEach(e, store_jget(desc, "GlobalSecondaryIndexes")) {
        const char *name = store_jstr(e, "IndexName"), *action;
        bool given = false;
        const cJSON *u;
        cJSON_ArrayForEach(u, store_jget(in, "GlobalSecondaryIndexUpdates")) {
            const char *n = action_of(u, &action);
            given |= n && name && strcmp(n, name) == 0 && strcmp(action, "Create") != 0;
        }
        if (!given)
            buf_printf(&missing, "%s%s", missing.len ? "," : "", name);
    }
    status st = ST_OK;
    if (missing.len)   /* dynalite's wording */
        st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: ProvisionedThroughput"
                      " must be specified for index: %s", missing.data);
    buf_done(&missing);
    return st;
}

/* An attribute the table defines, defined again with another type:
 * DynamoDB Local 3.3's refusal (AWS's wording is not published). */
static status check_redefined(const cJSON *in, const cJSON *desc, diag *d)
{
    const cJSON *e, *x;
    cJSON_ArrayForEach(e, store_jget(in, "AttributeDefinitions")) {
        const char *n = store_jstr(e, "AttributeName"), *ty = store_jstr(e, "AttributeType");
        cJSON_ArrayForEach(x, store_jget(desc, "AttributeDefinitions")) {
            const char *xn = store_jstr(x, "AttributeName"), *xt = store_jstr(x, "AttributeType");
            if (n && xn && ty && xt && strcmp(n, xn) == 0 && strcmp(ty, xt) != 0)
                return diag_set(d, ST_VALIDATION, "invalid attribute, SchemaElement redefined should be of"
                                " same type as previously defined");
        }
    }
    return ST_OK;
}

static status index_not_found(const char *name, diag *d)
{
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Index: %s not found", name);
}

status store_gsi_check(store *s, const tinfo *t, const cJSON *in, const cJSON *desc, diag *d)
{
    (void)s;
    (void)t;
    status st = check_capacity(in, desc, d);
    if (st == ST_OK)
        st = check_redefined(in, desc, d);
    const cJSON *ups = store_jget(in, "GlobalSecondaryIndexUpdates");
    if (st != ST_OK || (st = check_updates_shape(ups, d)) != ST_OK)
        return st;
    const cJSON *u;
    cJSON_ArrayForEach(u, ups) {
        const char *action, *name = action_of(u, &action);
        const cJSON *a = store_jget(u, action);
        if (strcmp(action, "Create") == 0)
            st = check_create(in, desc, a, d);
        else if (!find_index(desc, "GlobalSecondaryIndexes", name))
            st = index_not_found(name, d);
        else if (strcmp(action, "Update") == 0)
            st = check_update(in, desc, a, d);
        if (st != ST_OK)
            return st;
    }
    return check_switch(in, desc, d);
}

/* ---- applying ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1000.0;
}

static void put_num(cJSON *o, const char *name, double v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, name);
    cJSON_AddNumberToObject(o, name, v);
}

static void replace(cJSON *o, const char *name, cJSON *v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, name);
    cJSON_AddItemToObject(o, name, v);
}

/* New capacity units on a ProvisionedThroughput description, with the
 * increase or decrease time DynamoDB records. */
static void set_throughput(cJSON *cur, const cJSON *want)
{
    double r0 = jnum(cur, "ReadCapacityUnits"), w0 = jnum(cur, "WriteCapacityUnits");
    double r = (double)(long long)jnum(want, "ReadCapacityUnits");
    double w = (double)(long long)jnum(want, "WriteCapacityUnits");
    if (r > r0 || w > w0)
        put_num(cur, "LastIncreaseDateTime", now_s());
    if (r < r0 || w < w0) {
        put_num(cur, "LastDecreaseDateTime", now_s());
        put_num(cur, "NumberOfDecreasesToday", jnum(cur, "NumberOfDecreasesToday") + 1);
    }
    put_num(cur, "ReadCapacityUnits", r);
    put_num(cur, "WriteCapacityUnits", w);
}

static void switch_billing(const cJSON *in, cJSON *desc)
{
    const char *bm = store_jstr(in, "BillingMode");
    if (!bm || strcmp(bm, is_ppr(desc) ? "PAY_PER_REQUEST" : "PROVISIONED") == 0)
        return;
    bool ppr = strcmp(bm, "PAY_PER_REQUEST") == 0;
    cJSON *sum = cJSON_CreateObject();
    cJSON_AddStringToObject(sum, "BillingMode", bm);
    if (ppr)
        cJSON_AddNumberToObject(sum, "LastUpdateToPayPerRequestDateTime", now_s());
    replace(desc, "BillingModeSummary", sum);
    cJSON *tm = cJSON_CreateObject();
    cJSON_AddStringToObject(tm, "TableThroughputMode", bm);
    replace(desc, "TableThroughputModeSummary", tm);
    if (!ppr)
        return;   /* the table's and indexes' throughput come with the request */
    cJSON *zero = cJSON_CreateObject();
    cJSON_AddNumberToObject(zero, "ReadCapacityUnits", 0);
    cJSON_AddNumberToObject(zero, "WriteCapacityUnits", 0);
    set_throughput(cJSON_GetObjectItemCaseSensitive(desc, "ProvisionedThroughput"), zero);
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes"))
        set_throughput(cJSON_GetObjectItemCaseSensitive(e, "ProvisionedThroughput"), zero);
    cJSON_Delete(zero);
}

/* The request's AttributeDefinitions the table does not have yet. */
static void merge_defs(const cJSON *in, cJSON *desc)
{
    cJSON *defs = cJSON_GetObjectItemCaseSensitive(desc, "AttributeDefinitions");
    const cJSON *e;
    cJSON_ArrayForEach(e, store_jget(in, "AttributeDefinitions")) {
        const char *n = store_jstr(e, "AttributeName");
        bool have = false;
        const cJSON *x;
        cJSON_ArrayForEach(x, defs) {
            const char *xn = store_jstr(x, "AttributeName");
            have |= n && xn && strcmp(n, xn) == 0;
        }
        if (!have && n)
            cJSON_AddItemToArray(defs, cJSON_Duplicate(e, true));
    }
}

static bool keys_name(const cJSON *ks, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) {
        const char *n = store_jstr(e, "AttributeName");
        if (n && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

/* AttributeDefinitions lists the key attributes of the table and its
 * indexes only: a deleted index's own keys leave it. */
static void prune_defs(cJSON *desc)
{
    cJSON *defs = cJSON_GetObjectItemCaseSensitive(desc, "AttributeDefinitions");
    for (int i = cJSON_GetArraySize(defs) - 1; i >= 0; i--) {
        const char *n = store_jstr(cJSON_GetArrayItem(defs, i), "AttributeName");
        bool used = n && keys_name(store_jget(desc, "KeySchema"), n);
        for (int g = 0; g < 2 && n && !used; g++) {
            const cJSON *e;
            cJSON_ArrayForEach(e, store_jget(desc, g ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes"))
                used |= keys_name(store_jget(e, "KeySchema"), n);
        }
        if (!used)
            cJSON_DeleteItemFromArray(defs, i);
    }
}

/* Position of an index in the table's index rows (xid), as
 * store_def_from_desc numbers them: LSIs, then GSIs, from 1. */
static int xid_of(const cJSON *desc, const char *name)
{
    int xid = 1;
    for (int g = 0; g < 2; g++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, store_jget(desc, g ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes")) {
            const char *n = store_jstr(e, "IndexName");
            if (g && n && strcmp(n, name) == 0)
                return xid;
            xid++;
        }
    }
    return 0;
}

static void apply_create(const tinfo *t, const cJSON *c, cJSON *desc, cJSON *resp)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes");
    if (!list)
        list = cJSON_AddArrayToObject(desc, "GlobalSecondaryIndexes");
    cJSON_AddItemToArray(list, store_gsi_desc(t->name, c));
    cJSON_AddStringToObject(resp, "created", store_jstr(c, "IndexName"));
}

static void apply_delete(const char *name, cJSON *desc, cJSON *resp)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes");
    int i = 0;
    cJSON *e;
    cJSON_ArrayForEach(e, list) {
        const char *n = store_jstr(e, "IndexName");
        if (n && strcmp(n, name) == 0)
            break;
        i++;
    }
    cJSON_AddNumberToObject(resp, "deleted_xid", xid_of(desc, name));
    cJSON *gone = cJSON_DetachItemFromArray(list, i);
    cJSON_AddItemToObject(resp, "deleted", gone);
    if (cJSON_GetArraySize(list) == 0)
        cJSON_DeleteItemFromObjectCaseSensitive(desc, "GlobalSecondaryIndexes");
}

status store_gsi_apply(store *s, tinfo *t, const cJSON *in, cJSON *desc, cJSON *resp, diag *d)
{
    (void)s;
    (void)d;
    merge_defs(in, desc);
    switch_billing(in, desc);
    const cJSON *pt = store_jget(in, "ProvisionedThroughput");
    if (pt)
        set_throughput(cJSON_GetObjectItemCaseSensitive(desc, "ProvisionedThroughput"), pt);
    const cJSON *u;
    cJSON_ArrayForEach(u, store_jget(in, "GlobalSecondaryIndexUpdates")) {
        const char *action, *name = action_of(u, &action);
        const cJSON *a = store_jget(u, action);
        if (strcmp(action, "Create") == 0) {
            apply_create(t, a, desc, resp);
        } else if (strcmp(action, "Delete") == 0) {
            apply_delete(name, desc, resp);
        } else {
            cJSON *ix = (cJSON *)find_index(desc, "GlobalSecondaryIndexes", name);
            set_throughput(cJSON_GetObjectItemCaseSensitive(ix, "ProvisionedThroughput"),
                           store_jget(a, "ProvisionedThroughput"));
        }
    }
    if (store_jget(resp, "deleted"))
        prune_defs(desc);
    return ST_OK;
}

/* ---- the index rows, after the new description is stored ---- */

static status delete_rows(store *s, int64_t tid, int xid, diag *d)
{
    static const char *const sql[] = {
        "DELETE FROM idx WHERE tid = ?1 AND xid = ?2",
        "DELETE FROM parts WHERE tid = ?1 AND xid = ?2",
        "DELETE FROM stats WHERE tid = ?1 AND xid = ?2",
        /* The later indexes move down one position. */
        "UPDATE idx SET xid = xid - 1 WHERE tid = ?1 AND xid > ?2",
        "UPDATE parts SET xid = xid - 1 WHERE tid = ?1 AND xid > ?2",
        "UPDATE stats SET xid = xid - 1 WHERE tid = ?1 AND xid > ?2",
    };
    int64_t args[] = { tid, xid };
    status st = ST_OK;
    for (size_t i = 0; i < sizeof sql / sizeof sql[0] && st == ST_OK; i++)
        st = store_sql(s, sql[i], args, 2, d);
    return st;
}

status store_gsi_rows(store *s, const char *table, const cJSON *resp, diag *d)
{
    status st = ST_OK;
    tinfo *t;
    if ((st = store_table(s, table, &t, d)) != ST_OK)
        return st;
    if (store_jget(resp, "deleted") && (st = delete_rows(s, t->id, (int)jnum(resp, "deleted_xid"), d)) != ST_OK)
        return st;
    const char *created = store_jstr(resp, "created");
    if (!created)
        return ST_OK;
    int xid = store_index_xid(&t->def, created);
    return xid > 0 ? store_rebuild(s, t, xid - 1, d) : diag_set(d, ST_INTERNAL, "lost the new index");
}

status store_gsi_response(ddb_table_desc *t, const cJSON *resp, diag *d)
{
    const char *created = store_jstr(resp, "created");
    for (size_t i = 0; created && i < t->gsis.n; i++) {
        ddb_index_desc *e = &t->gsis.v[i];
        if (!e->name || strcmp(e->name, created) != 0)
            continue;
        ddb_req_set_str(&e->status, "CREATING");
        e->backfilling = (ddb_obool){ .has = true, .v = false };
        e->bytes = (ddb_onum){ .has = true, .v = 0 };
        e->count = (ddb_onum){ .has = true, .v = 0 };
    }
    const cJSON *gone = store_jget(resp, "deleted");
    if (!gone)
        return ST_OK;
    /* The deleted index's stored description, read as a description's
     * one GSI, DELETING. */
    cJSON *one = cJSON_CreateObject();
    cJSON_AddItemToArray(cJSON_AddArrayToObject(one, "GlobalSecondaryIndexes"), cJSON_Duplicate(gone, true));
    ddb_table_desc *g;
    status st = store_tables_desc_of(one, &g, d);
    cJSON_Delete(one);
    if (st != ST_OK)
        return st;
    t->gsis.v = xrealloc(t->gsis.v, (t->gsis.n + 1) * sizeof *t->gsis.v);
    t->gsis.v[t->gsis.n] = g->gsis.v[0];
    ddb_req_set_str(&t->gsis.v[t->gsis.n++].status, "DELETING");
    g->gsis.n = 0;
    ddbres_table_desc_free(g);
    return ST_OK;
}

/* ---- the C calls ---- */

/* The table's own throughput, for an index on a provisioned table (both
 * 0 on an on-demand one), from its description as it is now (a remote
 * table's is asked for again). */
static status table_throughput(store *s, const char *table, uint64_t *rcu, uint64_t *wcu, diag *d)
{
    *rcu = *wcu = 0;
    store_refresh(s, table);
    ddb_res res;
    ddb_res_init(&res);
    status st = store_exec_table(s, DDB_DESCRIBE_TABLE, table, &res, d);
    const ddb_table_desc *td = st == ST_OK && res.tables ? res.tables->table : NULL;
    bool ppr = td && td->billing && td->billing->mode && strcmp(td->billing->mode, "PAY_PER_REQUEST") == 0;
    if (td && !ppr && td->tput) {
        *rcu = td->tput->rcu.has && td->tput->rcu.v > 0 ? (uint64_t)td->tput->rcu.v : 0;
        *wcu = td->tput->wcu.has && td->tput->wcu.v > 0 ? (uint64_t)td->tput->wcu.v : 0;
    }
    ddb_res_done(&res);
    return st;
}

status store_create_index(store *s, const char *table, const index_def *ix, diag *d)
{
    ddb_req req;
    ddb_req_init(&req, DDB_UPDATE_TABLE);
    status st = table_throughput(s, table, &req.ctl.rcu, &req.ctl.wcu, d);
    if (st == ST_OK) {
        ddb_req_set_str(&req.table, table);
        req.ctl.gsi = xcalloc(1, sizeof *req.ctl.gsi);
        index_def_copy(req.ctl.gsi, ix);
        st = store_exec_diag(s, &req, NULL, d);
    }
    ddb_req_done(&req);
    return st;
}

status store_delete_index_check(store *s, const char *table, const char *index, diag *d)
{
    table_def def;
    status st = store_describe(s, table, &def, d);
    if (st != ST_OK)
        return st;
    const index_def *ix = table_def_index(&def, index);
    if (!ix || !ix->global)
        st = index_not_found(index, d);
    table_def_free(&def);
    return st;
}

status store_delete_index(store *s, const char *table, const char *index, diag *d)
{
    ddb_req req;
    ddb_req_init(&req, DDB_UPDATE_TABLE);
    ddb_req_set_str(&req.table, table);
    ddb_req_set_str(&req.index, index);
    status st = store_exec_diag(s, &req, NULL, d);
    ddb_req_done(&req);
    return st;
}
