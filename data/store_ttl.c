/*
 * store_ttl — Time to Live: UpdateTimeToLive, DescribeTimeToLive, the C
 * calls the explorer uses, and the sweep that deletes expired items.
 *
 * DynamoDB's behaviour, and where it comes from: the API reference
 * (UpdateTimeToLive answers its TimeToLiveSpecification;
 * DescribeTimeToLive's TimeToLiveStatus; AttributeName 1 to 255
 * characters), DynamoDB's answers as observed ("TimeToLive is already
 * enabled" when enabling an enabled table's attribute again; "TimeToLive
 * is already disabled"), DynamoDB Local 3.3's for another attribute than
 * the enabled one, enabling or disabling ("TimeToLive is active on a
 * different AttributeName"), the developer guide ("Using
 * time to live": expired items are deleted in the background, typically
 * within days, and reads return them until then; values over five years
 * in the past are ignored; the deletes appear in the stream as service
 * deletes). dynalite answers DescribeTimeToLive with DISABLED only and
 * has no UpdateTimeToLive.
 *
 * ddbx's choices: a change takes effect at once (DynamoDB shows ENABLING
 * or DISABLING for up to an hour; ddbx goes straight to ENABLED or
 * DISABLED), and the sweep runs every few seconds in `ddbx serve` and the
 * explorer (--ttl-interval), so an expired item is gone soon rather than
 * in days. The setting is the ttl table's row (store_int.h).
 *
 * Both operations run typed (store_ttl_exec, answering in
 * model/ddbres_streams.h's ddb_streams_res); their JSON doors check the
 * body's shape and print the typed answer.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_ops.h"
#include "data/store_remote_int.h"
#include "data/store_valid.h"
#include "model/ddbres_streams.h"
#include "model/itemenc.h"
#include "model/mem.h"
#include "model/ttl.h"

static const vspec spec_fields[] = {
    { .name = "AttributeName", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, .max_len = 255 },
    { .name = "Enabled", .type = VT_BOOL, .flags = VF_NOTNULL },
    { .type = VT_END },
};
static const vspec update_spec[] = {
    F_TABLE_REQ,
    { .name = "TimeToLiveSpecification", .type = VT_FSTRUCT, .sub = "TimeToLiveSpecification",
      .flags = VF_NOTNULL, .fields = spec_fields },
    { .type = VT_END },
};
static const vspec describe_spec[] = {
    F_TABLE_REQ,
    { .type = VT_END },
};

/* ---- the setting ---- */

/* The table's TTL attribute (*attr malloc'd; NULL: disabled). A database
 * from before version 3 opened read-only has no ttl table: disabled. */
static status read_attr(store *s, int64_t tid, char **attr, diag *d)
{
    *attr = NULL;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT attr FROM ttl WHERE tid = ?1", -1, &q, NULL) != SQLITE_OK)
        return s->read_only ? ST_OK : store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *attr = xstrdup((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static status not_found(const char *table, diag *d)
{
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Table: %s not found", table);
}

static status lookup(store *s, const char *table, tinfo **t, diag *d)
{
    status st = store_table(s, table, t, d);
    return st == ST_NOT_FOUND ? not_found(table, d) : st;
}

/* Enabling what is enabled, or disabling what is not, is refused; so is
 * naming another attribute than the enabled one (other), to enable or to
 * disable: DynamoDB Local 3.3's answer (AWS's is not published). */
static status state_check(bool enable, bool was, bool other, diag *d)
{
    if (other)
        return diag_set(d, ST_VALIDATION, "TimeToLive is active on a different AttributeName");
    if (enable && was)
        return diag_set(d, ST_VALIDATION, "TimeToLive is already enabled");
    if (!enable && !was)
        return diag_set(d, ST_VALIDATION, "TimeToLive is already disabled");
    return ST_OK;
}

/* UpdateTimeToLive's change inside a write transaction. */
static status set_attr(store *s, const char *table, const char *attr, bool enable, diag *d)
{
    tinfo *t;
    status st = lookup(s, table, &t, d);
    if (st != ST_OK)
        return st;
    int64_t tid = t->id;
    char *now = NULL;
    if ((st = read_attr(s, tid, &now, d)) != ST_OK)
        return st;
    bool was = now != NULL, other = was && attr && strcmp(now, attr) != 0;
    free(now);
    if ((st = state_check(enable, was, other, d)) != ST_OK)
        return st;
    if (!enable)
        return store_sql(s, "DELETE FROM ttl WHERE tid = ?1", &tid, 1, d);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO ttl(tid, attr, enabled) VALUES(?1, ?2, ?3)",
                           -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_text(q, 2, attr, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, store_now_ms(s));
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    return st;
}

/* The executor's answers, typed (model/ddbres_streams.h). */
static status update_typed(store *s, const ddb_req *req, ddb_streams_res *r, diag *d)
{
    const char *attr = req->ctl.ttl_attr;
    if (!attr)   /* the door's shape check says so for the JSON */
        return diag_set(d, ST_VALIDATION, "UpdateTimeToLive needs the TimeToLiveSpecification's AttributeName");
    status st = set_attr(s, req->table, attr, req->ctl.ttl_enabled, d);
    if (st == ST_OK) {
        r->has_ttl_spec = true;
        r->ttl_attr = xstrdup(attr);
        r->ttl_enabled = req->ctl.ttl_enabled;
    }
    return st;
}

static status describe_typed(store *s, const ddb_req *req, ddb_streams_res *r, diag *d)
{
    tinfo *t;
    char *attr = NULL;
    status st = lookup(s, req->table, &t, d);
    if (st == ST_OK && (st = read_attr(s, t->id, &attr, d)) == ST_OK) {
        r->ttl_status = xstrdup(attr ? "ENABLED" : "DISABLED");
        r->ttl_attr = attr;
    } else {
        free(attr);
    }
    return st;
}

status store_ttl_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    bool update = req->kind == DDB_UPDATE_TTL;
    if (!req->table)
        return diag_set(&err->d, ST_VALIDATION, "%s needs a TableName", update ? "UpdateTimeToLive" : "DescribeTimeToLive");
    status st = store_txn_begin(s, update, &err->d);
    if (st != ST_OK)
        return st;
    ddb_streams_res *r = ddbres_streams_new();
    st = update ? update_typed(s, req, r, &err->d) : describe_typed(s, req, r, &err->d);
    if (st == ST_OK) {
        ddbres_streams_free(res->streams);
        res->streams = r;
    } else {
        ddbres_streams_free(r);
    }
    return store_txn_end(s, st, &err->d);
}

static status read_update(const cJSON *in, ddb_req *req, diag *d)
{
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(in, "TimeToLiveSpecification");
    ddb_req_set_str(&req->table, store_jstr(in, "TableName"));
    ddb_req_set_str(&req->ctl.ttl_attr, store_jstr(spec, "AttributeName"));
    req->ctl.ttl_enabled = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "Enabled"));
    return ST_OK;
}

status store_op_update_ttl(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, update_spec, DDB_UPDATE_TTL, read_update, out, d);
}

static status read_describe(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->table, store_jstr(in, "TableName"));
    return ST_OK;
}

status store_op_describe_ttl(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, describe_spec, DDB_DESCRIBE_TTL, read_describe, out, d);
}

/* ---- the C calls ---- */

const char *store_ttl_answer_attr(const ddb_res *res)
{
    const ddb_streams_res *r = res->streams;
    if (r && r->ttl_attr && r->ttl_status &&
        (strcmp(r->ttl_status, "ENABLED") == 0 || strcmp(r->ttl_status, "ENABLING") == 0))
        return r->ttl_attr;
    return NULL;
}

/* DescribeTimeToLive, read once per table (kept with its description
 * until store_refresh or an UpdateTimeToLive sent): every item view asks. */
static status remote_get(store *s, const char *table, char **attr, diag *d)
{
    rtable *t = NULL;
    status st = srem_table_get(s, table, &t, d);
    if (st != ST_OK)
        return st;
    if (t->ttl_known) {
        *attr = t->ttl ? xstrdup(t->ttl) : NULL;
        return ST_OK;
    }
    ddb_req req;
    ddb_req_init(&req, DDB_DESCRIBE_TTL);
    ddb_req_set_str(&req.table, table);
    ddb_res res;
    ddb_res_init(&res);
    st = srem_read(s, &req, &res, d);
    ddb_req_done(&req);
    if (st == ST_OK) {
        const char *on = store_ttl_answer_attr(&res);
        if (on)
            *attr = xstrdup(on);
        /* The lookup may have refreshed the cache: find the table again. */
        if (srem_table_get(s, table, &t, d) == ST_OK) {
            t->ttl_known = true;
            t->ttl = *attr ? xstrdup(*attr) : NULL;
        }
    }
    ddb_res_done(&res);
    return st;
}

status store_ttl_get(store *s, const char *table, char **attr, diag *d)
{
    *attr = NULL;
    if (s->remote)
        return remote_get(s, table, attr, d);
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    if ((st = lookup(s, table, &t, d)) == ST_OK)
        st = read_attr(s, t->id, attr, d);
    return store_txn_end(s, st, d);
}

/* The UpdateTimeToLive request that sets attr (NULL: disables cur). */
static cJSON *update_input(const char *table, const char *attr, const char *cur)
{
    cJSON *in = cJSON_CreateObject();
    cJSON_AddStringToObject(in, "TableName", table);
    cJSON *spec = cJSON_AddObjectToObject(in, "TimeToLiveSpecification");
    cJSON_AddStringToObject(spec, "AttributeName", attr ? attr : cur);
    cJSON_AddBoolToObject(spec, "Enabled", attr != NULL);
    return in;
}

status store_ttl_check(store *s, const char *table, const char *attr, diag *d)
{
    char *cur = NULL;
    status st = store_ttl_get(s, table, &cur, d);
    if (st == ST_OK)
        st = state_check(attr != NULL, cur != NULL, cur && attr && strcmp(cur, attr) != 0, d);
    if (st == ST_OK) {
        cJSON *in = update_input(table, attr, cur);
        st = store_valid_check(in, update_spec, d, &s->err_msg);
        cJSON_Delete(in);
    }
    free(cur);
    return st;
}

status store_ttl_set(store *s, const char *table, const char *attr, diag *d)
{
    char *cur = NULL;
    status st = ST_OK;
    /* Disabling names the attribute, as UpdateTimeToLive wants it. */
    if (!attr && (st = store_ttl_get(s, table, &cur, d)) != ST_OK)
        return st;
    if (!attr && !cur)
        return state_check(false, false, false, d);
    ddb_req req;
    ddb_req_init(&req, DDB_UPDATE_TTL);
    ddb_req_set_str(&req.table, table);
    ddb_req_set_str(&req.ctl.ttl_attr, attr ? attr : cur);
    req.ctl.ttl_enabled = attr != NULL;
    free(cur);
    st = store_exec_diag(s, &req, NULL, d);
    ddb_req_done(&req);
    return st;
}

/* ---- the sweep ---- */

typedef struct expired {
    store_key k;
    av item;
} expired;

/* The TTL table to sweep next: the one at s->ttl_tid or after it, else
 * the first; found false when no table has TTL enabled. */
static status next_table(store *s, int64_t *tid, char **name, char **attr, bool *found, diag *d)
{
    sqlite3_stmt *q;
    *found = false;
    if (sqlite3_prepare_v2(s->db, "SELECT ttl.tid, tables.name, ttl.attr FROM ttl JOIN tables"
                           " ON tables.id = ttl.tid ORDER BY ttl.tid < ?1, ttl.tid LIMIT 1",
                           -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, s->ttl_tid);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *found = true;
        *tid = sqlite3_column_int64(q, 0);
        *name = xstrdup((const char *)sqlite3_column_text(q, 1));
        *attr = xstrdup((const char *)sqlite3_column_text(q, 2));
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* The expired items one step holds in memory, at most (a step of 400 KB
 * items would otherwise hold its whole budget of them). */
#define STEP_BYTES (16u << 20)

/* Reads up to budget items of table tid after the sweep's position,
 * keeping the expired ones in xs (at most budget, STEP_BYTES of them);
 * *n_read counts the items read, *more says the table has more to read. */
static status scan_expired(store *s, int64_t tid, const char *attr, double now, size_t budget,
                           expired *xs, size_t *n_x, size_t *n_read, bool *more, diag *d)
{
    bool resume = s->ttl_tid == tid && s->ttl_pk.len > 0;
    const char *sql = resume
        ? "SELECT pk, sk, body FROM items WHERE tid = ?1 AND (pk, sk) > (?2, ?3) ORDER BY pk, sk LIMIT ?4"
        : "SELECT pk, sk, body FROM items WHERE tid = ?1 ORDER BY pk, sk LIMIT ?4";
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    if (resume) {
        sqlite3_bind_blob(q, 2, s->ttl_pk.data, (int)s->ttl_pk.len, SQLITE_TRANSIENT);
        sqlite3_bind_blob(q, 3, s->ttl_sk.data ? s->ttl_sk.data : "", (int)s->ttl_sk.len, SQLITE_TRANSIENT);
    }
    sqlite3_bind_int64(q, 4, (int64_t)budget);
    status st = ST_OK;
    int rc = SQLITE_DONE;
    size_t held = 0;
    *n_x = *n_read = 0;
    *more = false;
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        (*n_read)++;
        buf_reset(&s->ttl_pk);
        buf_reset(&s->ttl_sk);
        buf_add(&s->ttl_pk, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0));
        buf_add(&s->ttl_sk, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1));
        av item;
        if ((st = itemenc_decode(sqlite3_column_blob(q, 2), (size_t)sqlite3_column_bytes(q, 2), &item, d)) != ST_OK)
            break;
        double when;
        if (ttl_expiry(&item, attr, &when) && ttl_expired(when, now)) {
            expired *x = &xs[(*n_x)++];
            store_key_init(&x->k);
            buf_add(&x->k.pk, s->ttl_pk.data, s->ttl_pk.len);
            buf_add(&x->k.sk, s->ttl_sk.data ? s->ttl_sk.data : "", s->ttl_sk.len);
            av_move(&x->item, &item);
            held += (size_t)sqlite3_column_bytes(q, 2);
        } else {
            av_done(&item);
        }
        if (held >= STEP_BYTES) {
            *more = true;
            rc = SQLITE_DONE;
            break;
        }
    }
    if (st == ST_OK && rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    *more |= *n_read == budget;
    sqlite3_finalize(q);
    return st;
}

/* Deletes what scan_expired found, as TTL deletions. */
static status delete_expired(store *s, const char *table, expired *xs, size_t n, diag *d)
{
    tinfo *t;
    status st = lookup(s, table, &t, d);
    s->ttl_delete = true;
    for (size_t i = 0; i < n && st == ST_OK; i++)
        st = store_apply(s, t, &xs[i].k, &xs[i].item, NULL, NULL, d);
    s->ttl_delete = false;
    return st;
}

/* One table's part of a sweep step, in its own write transaction: the
 * next table with TTL (none, *read 0, when it is `stop`, the step's
 * first); *tid the table swept, *read the items read (at least 1). */
static status sweep_table(store *s, double now, size_t budget, int64_t stop, int64_t *tid,
                          size_t *read, size_t *deleted, diag *d)
{
    char *name = NULL, *attr = NULL;
    bool found;
    expired *xs = xcalloc(budget, sizeof *xs);
    size_t n_x = 0;
    *read = 0;
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK) {
        free(xs);
        return st;
    }
    if ((st = next_table(s, tid, &name, &attr, &found, d)) != ST_OK || !found || *tid == stop)
        goto out;
    if (s->ttl_tid != *tid) {
        s->ttl_tid = *tid;
        buf_reset(&s->ttl_pk);
        buf_reset(&s->ttl_sk);
    }
    bool more = false;
    if ((st = scan_expired(s, *tid, attr, now, budget, xs, &n_x, read, &more, d)) != ST_OK ||
        (st = delete_expired(s, name, xs, n_x, d)) != ST_OK)
        goto out;
    *deleted += n_x;
    if (!more) {   /* this table done: the next one */
        s->ttl_tid = *tid + 1;
        buf_reset(&s->ttl_pk);
        buf_reset(&s->ttl_sk);
    }
    if (*read == 0)
        *read = 1;   /* an empty table costs a step too */
out:
    for (size_t i = 0; i < n_x; i++) {
        store_key_done(&xs[i].k);
        av_done(&xs[i].item);
    }
    free(xs);
    free(name);
    free(attr);
    return store_txn_end(s, st, d);
}

status store_ttl_sweep(store *s, double now, size_t budget, size_t *deleted, diag *d)
{
    *deleted = 0;
    if (s->remote || s->read_only || budget == 0)
        return ST_OK;
    int64_t first = -1;
    while (budget > 0) {   /* every table at most once a step */
        size_t read;
        int64_t tid;
        status st = sweep_table(s, now, budget, first, &tid, &read, deleted, d);
        if (st != ST_OK || read == 0)
            return st;
        if (first < 0)
            first = tid;
        budget = read >= budget ? 0 : budget - read;
    }
    return ST_OK;
}

status store_ttl_tags_deleted(store *s, int64_t tid, diag *d)
{
    status st = store_sql(s, "DELETE FROM ttl WHERE tid = ?1", &tid, 1, d);
    if (st == ST_OK)
        st = store_sql(s, "DELETE FROM tags WHERE tid = ?1", &tid, 1, d);
    if (st == ST_OK)
        st = store_policy_forget(s, tid, d);
    return st;
}
