/*
 * store_streams — the change log and DynamoDB Streams over it.
 *
 * Every item a committed write changes (PutItem, UpdateItem, DeleteItem,
 * BatchWriteItem, TransactWriteItems, through store_apply) appends one
 * row to `changes` in the write's own SQLite transaction, for every
 * table: the explorer's change feed reads any table's, and a stream is
 * only a window onto its table's rows (store_int.h). The bulk interface
 * (ddbx load, samples, pull) writes none.
 *
 * DynamoDB Streams, as the Streams API reference describes it: a table
 * has at most one enabled stream (UpdateTable / CreateTable
 * StreamSpecification); disabling closes it, enabling again makes a new
 * one with a new label; records are kept for the retention (24 hours
 * unless store_set_stream_times says otherwise) and trimmed oldest first
 * in bounded steps. Each stream has one shard, open while the stream is
 * enabled, closed (EndingSequenceNumber) when it is disabled. A sequence
 * number is the change's seq plus 10^20, printed in 21 digits (the API's
 * minimum length); a shard iterator is "StreamArn|sid|position|issued ms",
 * the position being the last sequence already read.
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/ddbjson.h"
#include "model/itemenc.h"
#include "model/mem.h"

#define SEQ_BASE 100000000000000000000.0   /* printed as "1" and 20 digits */
#define MAX_RECORDS_BYTES (1024 * 1024)    /* GetRecords: at most 1 MB a call */

static int64_t now_ms(store *s)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t t = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    if (t < s->last_ms)
        t = s->last_ms;
    s->last_ms = t;
    return t;
}

void store_set_stream_times(store *s, double retention_s, double iterator_s)
{
    if (retention_s > 0)
        s->retention_ms = (int64_t)(retention_s * 1000);
    if (iterator_s > 0)
        s->iterator_ms = (int64_t)(iterator_s * 1000);
}

/* ---- the write side ---- */

status store_log_change(store *s, const tinfo *t, const av *old, const av *new_item,
                        const buf *new_enc, diag *d)
{
    if (!old && !new_item)
        return ST_OK;
    /* "If you perform a PutItem or UpdateItem operation that does not
     * change any data in an item, DynamoDB Streams does not write a stream
     * record for that operation." (Developer Guide, Change data capture
     * for DynamoDB Streams.) */
    if (old && new_item && av_equal(old, new_item))
        return ST_OK;
    sqlite3_stmt *q = store_stmt(s, Q_CHANGE_INSERT, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_int64(q, 2, now_ms(s));
    sqlite3_bind_int(q, 3, s->ttl_delete ? 1 : 0);
    if (old) {
        buf_reset(&s->old_enc);
        itemenc_encode(&s->old_enc, old);
        sqlite3_bind_blob(q, 4, s->old_enc.data, (int)s->old_enc.len, SQLITE_STATIC);
    }
    buf enc = BUF_INIT;
    if (new_item) {
        if (!new_enc) {
            itemenc_encode(&enc, new_item);
            new_enc = &enc;
        }
        sqlite3_bind_blob(q, 5, new_enc->data, (int)new_enc->len, SQLITE_STATIC);
    }
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    buf_done(&enc);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* The last seq ever given (0: none yet). */
static status last_seq(store *s, int64_t *out, diag *d)
{
    *out = 0;
    sqlite3_stmt *q = store_stmt(s, Q_CHANGE_LAST_SEQ, d);
    if (!q)
        return d->code;
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static status exec_sql(store *s, const char *sql, const int64_t *args, int nargs, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    for (int i = 0; i < nargs; i++)
        sqlite3_bind_int64(q, i + 1, args[i]);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

status store_trim_changes(store *s, int max, diag *d)
{
    int64_t cutoff = now_ms(s) - s->retention_ms, last = 0;
    sqlite3_stmt *q = store_stmt(s, Q_CHANGE_OLDEST, d);
    if (!q)
        return d->code;
    sqlite3_bind_int(q, 1, max);
    int rc;
    /* Times grow with seq (one process never goes backward; processes
     * share a clock), so the expired records are a prefix. */
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_int64(q, 1) < cutoff)
        last = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    if (last == 0)
        return ST_OK;
    status st = ST_OK;
    int which[] = { Q_STREAM_TRIMMED, Q_CHANGE_TRIM };
    for (int i = 0; i < 2 && st == ST_OK; i++) {
        q = store_stmt(s, which[i], d);
        if (!q)
            return d->code;
        sqlite3_bind_int64(q, 1, last);
        rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            st = store_sqlerr(s, d);
    }
    /* A disabled stream is deleted once its retention has passed. */
    if (st == ST_OK)
        st = exec_sql(s, "DELETE FROM streams WHERE disabled IS NOT NULL AND disabled < ?1",
                      &cutoff, 1, d);
    return st;
}

/* A trim step before a stream read, so that records past the retention
 * are gone even when nothing has been written for a while. */
static status trim_before_read(store *s, diag *d)
{
    if (s->read_only)
        return ST_OK;
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    st = store_trim_changes(s, 4096, d);
    return store_txn_end(s, st, d);
}

/* ---- stream rows ---- */

typedef struct stream_row {
    int64_t sid, tid, created, start_seq, end_seq, disabled, trimmed;
    bool closed;
    char tname[256], label[64], view[32];
    char *keys;   /* KeySchema JSON, malloc'd */
} stream_row;

#define STREAM_COLS "sid, tid, tname, label, view, created, start_seq, end_seq, disabled, trimmed, keys"

static void stream_row_done(stream_row *r)
{
    free(r->keys);
    r->keys = NULL;
}

static void read_row(sqlite3_stmt *q, stream_row *r)
{
    memset(r, 0, sizeof *r);
    r->sid = sqlite3_column_int64(q, 0);
    r->tid = sqlite3_column_int64(q, 1);
    snprintf(r->tname, sizeof r->tname, "%s", (const char *)sqlite3_column_text(q, 2));
    snprintf(r->label, sizeof r->label, "%s", (const char *)sqlite3_column_text(q, 3));
    snprintf(r->view, sizeof r->view, "%s", (const char *)sqlite3_column_text(q, 4));
    r->created = sqlite3_column_int64(q, 5);
    r->start_seq = sqlite3_column_int64(q, 6);
    r->closed = sqlite3_column_type(q, 7) != SQLITE_NULL;
    r->end_seq = r->closed ? sqlite3_column_int64(q, 7) : INT64_MAX;
    r->disabled = sqlite3_column_int64(q, 8);
    r->trimmed = sqlite3_column_int64(q, 9);
    r->keys = xstrdup((const char *)sqlite3_column_text(q, 10));
}

/* One stream by a WHERE clause over ?1 (int) or ?2, ?3 (text); found false
 * when none. */
static status find_stream(store *s, const char *where, int64_t id, const char *a, const char *b,
                          stream_row *r, bool *found, diag *d)
{
    char sql[256];
    snprintf(sql, sizeof sql, "SELECT " STREAM_COLS " FROM streams WHERE %s", where);
    sqlite3_stmt *q;
    *found = false;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, id);
    if (a)
        sqlite3_bind_text(q, 2, a, -1, SQLITE_TRANSIENT);
    if (b)
        sqlite3_bind_text(q, 3, b, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        read_row(q, r);
        *found = true;
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static void stream_arn(buf *b, const char *tname, const char *label)
{
    buf_printf(b, STORE_ARN_PREFIX "%s/stream/%s", tname, label);
}

static void shard_id(char *out, size_t cap, const stream_row *r)
{
    uint32_t h = 2166136261u;
    for (int64_t x = r->sid * 2654435761LL + r->created; x; x >>= 8)
        h = (h ^ (uint32_t)(x & 0xff)) * 16777619u;
    snprintf(out, cap, "shardId-%020" PRId64 "-%08x", r->created, h);
}

static void seq_str(char out[32], int64_t seq)
{
    snprintf(out, 32, "1%020" PRId64, seq);
}

/* A sequence number of ours back to its seq; false when it is not one. */
static bool seq_parse(const char *text, int64_t *seq)
{
    size_t n = text ? strlen(text) : 0;
    if (n != 21 || text[0] != '1')
        return false;
    int64_t v = 0;
    for (size_t i = 1; i < n; i++) {
        if (text[i] < '0' || text[i] > '9')
            return false;
        v = v * 10 + (text[i] - '0');
    }
    *seq = v;
    return true;
}

static void label_of(char out[64], int64_t ms)
{
    time_t sec = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    snprintf(out, 64, "%04d-%02d-%02dT%02d:%02d:%02d.%03d", tm.tm_year + 1900, tm.tm_mon + 1,
             tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

/* ---- enabling and disabling ---- */

static const char *jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Stores the rewritten description of table tid. */
static status put_desc(store *s, int64_t tid, const cJSON *desc, char **text_out, diag *d)
{
    char *text = cJSON_PrintUnformatted(desc);
    sqlite3_stmt *q;
    status st = ST_OK;
    if (sqlite3_prepare_v2(s->db, "UPDATE tables SET description = ?1, ver = ver + 1 WHERE id = ?2",
                           -1, &q, NULL) != SQLITE_OK) {
        cJSON_free(text);
        return store_sqlerr(s, d);
    }
    sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, tid);
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    store_forget_tables(s);
    if (st == ST_OK && text_out)
        *text_out = xstrdup(text);
    cJSON_free(text);
    return st;
}

static void replace_member(cJSON *o, const char *name, cJSON *v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(o, name);
    cJSON_AddItemToObject(o, name, v);
}

/* Makes a new enabled stream for table tid and records it in desc. */
static status enable_stream(store *s, int64_t tid, const char *name, const char *view, cJSON *desc,
                            diag *d)
{
    int64_t start, created = now_ms(s);
    status st = last_seq(s, &start, d);
    if (st != ST_OK)
        return st;
    char label[64];
    label_of(label, created);
    /* Labels name a table's streams: never twice the same. */
    bool dup = true;
    while (dup) {
        stream_row r;
        if ((st = find_stream(s, "tid = ?1 AND label = ?2", tid, label, NULL, &r, &dup, d)) != ST_OK)
            return st;
        if (dup) {
            stream_row_done(&r);
            label_of(label, ++created);
        }
    }
    cJSON *ks = cJSON_GetObjectItemCaseSensitive(desc, "KeySchema");
    char *keys = cJSON_PrintUnformatted(ks);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO streams(tid, tname, label, view, created, start_seq,"
                           " trimmed, keys) VALUES(?1, ?2, ?3, ?4, ?5, ?6, 0, ?7)",
                           -1, &q, NULL) != SQLITE_OK) {
        cJSON_free(keys);
        return store_sqlerr(s, d);
    }
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_text(q, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, label, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, view, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 5, created);
    sqlite3_bind_int64(q, 6, start);
    sqlite3_bind_text(q, 7, keys ? keys : "[]", -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    cJSON_free(keys);
    if (st != ST_OK)
        return st;
    cJSON *spec = cJSON_CreateObject();
    cJSON_AddBoolToObject(spec, "StreamEnabled", 1);
    cJSON_AddStringToObject(spec, "StreamViewType", view);
    replace_member(desc, "StreamSpecification", spec);
    replace_member(desc, "LatestStreamLabel", cJSON_CreateString(label));
    buf arn = BUF_INIT;
    stream_arn(&arn, name, label);
    replace_member(desc, "LatestStreamArn", cJSON_CreateString(arn.data));
    buf_done(&arn);
    return ST_OK;
}

/* Closes the table's enabled stream (if any); found says whether it had. */
static status disable_stream(store *s, int64_t tid, bool *found, diag *d)
{
    int64_t end, now = now_ms(s);
    status st = last_seq(s, &end, d);
    if (st != ST_OK)
        return st;
    int64_t args[] = { tid, end, now };
    st = exec_sql(s, "UPDATE streams SET end_seq = ?2, disabled = ?3 WHERE tid = ?1 AND end_seq IS NULL",
                  args, 3, d);
    if (found)
        *found = sqlite3_changes(s->db) > 0;
    return st;
}

status store_streams_check_spec(const cJSON *spec, bool create, diag *d)
{
    if (!spec || cJSON_IsNull(spec))
        return ST_OK;
    const cJSON *en = cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled");
    bool enabled = cJSON_IsTrue(en);
    bool has_view = jstr(spec, "StreamViewType") != NULL;
    /* DynamoDB's wording, as observed on UpdateTable (CreateTable says the
     * same for the same mistakes). */
    if (enabled && !has_view)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: If stream is"
                        " being enabled then UpdateViewType is required");
    if (!enabled && has_view && !create)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: If stream is"
                        " being disabled, then UpdateViewType must not be specified");
    return ST_OK;
}

status store_streams_created(store *s, int64_t tid, const char *name, const cJSON *spec,
                             char **desc_text, diag *d)
{
    if (!spec || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled")))
        return ST_OK;
    cJSON *desc = cJSON_Parse(*desc_text);
    if (!desc)
        return diag_set(d, ST_INTERNAL, "corrupt table description");
    char *text = NULL;
    status st = enable_stream(s, tid, name, jstr(spec, "StreamViewType"), desc, d);
    if (st == ST_OK)
        st = put_desc(s, tid, desc, &text, d);
    cJSON_Delete(desc);
    if (st == ST_OK) {
        free(*desc_text);
        *desc_text = text;
    }
    return st;
}

status store_streams_table_deleted(store *s, int64_t tid, diag *d)
{
    /* "If you delete a table, the stream is disabled and deleted after 24
     * hours" (Streams developer guide): its records stay readable. */
    return disable_stream(s, tid, NULL, d);
}

/* ---- UpdateTable ---- */

static const char *const e_view[] = { "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY", NULL };
static const char *const e_billing[] = { "PROVISIONED", "PAY_PER_REQUEST", NULL };

static const vspec stream_fields[] = {
    { .name = "StreamEnabled", .type = VT_BOOL, .flags = VF_NOTNULL },
    { .name = "StreamViewType", .type = VT_STRING, .enums = e_view },
    { .type = VT_END },
};
static const vspec pt_fields[] = {
    { .name = "WriteCapacityUnits", .type = VT_LONG, .flags = VF_NOTNULL, .ge = 1, .has_ge = true },
    { .name = "ReadCapacityUnits", .type = VT_LONG, .flags = VF_NOTNULL, .ge = 1, .has_ge = true },
    { .type = VT_END },
};
static const vspec update_spec[] = {
    { .name = "TableName", .type = VT_STRING, .flags = VF_REQUIRED | VF_TABLENAME | VF_NAMEPAT },
    { .name = "BillingMode", .type = VT_STRING, .enums = e_billing },
    { .name = "ProvisionedThroughput", .type = VT_FSTRUCT, .sub = "ProvisionedThroughput", .fields = pt_fields },
    { .name = "StreamSpecification", .type = VT_FSTRUCT, .sub = "StreamSpecification", .fields = stream_fields },
    { .type = VT_END },
};

/* One member of UpdateTable: what it changes, checked and applied on the
 * table's description inside the write transaction. Streams now; billing,
 * throughput and GSI changes are further entries of `updates` below. */
typedef status (*update_fn)(store *s, tinfo *t, const cJSON *member, cJSON *desc, diag *d);

static status update_stream(store *s, tinfo *t, const cJSON *spec, cJSON *desc, diag *d)
{
    status st = store_streams_check_spec(spec, false, d);
    if (st != ST_OK)
        return st;
    bool enable = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled"));
    bool has = cJSON_GetObjectItemCaseSensitive(desc, "StreamSpecification") != NULL;
    /* Observed on DynamoDB: a view type cannot change in place, and
     * re-sending the current state is an error both ways. */
    if (enable && has)
        return diag_set(d, ST_VALIDATION, "Table already has an enabled stream: TableName: %s", t->name);
    if (!enable && !has)
        return diag_set(d, ST_VALIDATION, "Table has no stream to disable: TableName: %s", t->name);
    if (enable)
        return enable_stream(s, t->id, t->name, jstr(spec, "StreamViewType"), desc, d);
    if ((st = disable_stream(s, t->id, NULL, d)) != ST_OK)
        return st;
    /* After disabling, DescribeTable has no StreamSpecification; the
     * Latest* members stay. */
    cJSON_DeleteItemFromObjectCaseSensitive(desc, "StreamSpecification");
    return ST_OK;
}

static status update_billing(store *s, tinfo *t, const cJSON *mode, cJSON *desc, diag *d)
{
    const cJSON *bm = cJSON_GetObjectItemCaseSensitive(desc, "BillingModeSummary");
    const char *now = jstr(bm, "BillingMode");
    if (strcmp(mode->valuestring, now ? now : "PROVISIONED") == 0)
        return ST_OK;   /* the current mode again: DynamoDB accepts it as it is */
    return diag_set(d, ST_VALIDATION, "ddbx does not change a table's BillingMode yet (%s)", t->name);
}

static const struct {
    const char *member;
    update_fn fn;   /* NULL: accepted in the request, not applied by ddbx yet */
} updates[] = {
    { "BillingMode", update_billing },
    { "ProvisionedThroughput", NULL },
    { "GlobalSecondaryIndexUpdates", NULL },
    { "SSESpecification", NULL },
    { "ReplicaUpdates", NULL },
    { "StreamSpecification", update_stream },
};

status store_op_update_table(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, update_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    bool any = false;
    for (size_t i = 0; i < sizeof updates / sizeof updates[0]; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(in, updates[i].member);
        any |= m && !cJSON_IsNull(m);
    }
    if (!any)   /* dynalite's wording of DynamoDB's message */
        return diag_set(d, ST_VALIDATION, "At least one of ProvisionedThroughput, BillingMode,"
                        " UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or"
                        " ReplicaUpdates is required");
    const char *name = jstr(in, "TableName");
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        return st;
    cJSON *desc = NULL;
    tinfo *t;
    st = store_table(s, name, &t, d);
    if (st == ST_NOT_FOUND)
        st = diag_set(d, ST_NOT_FOUND, "Requested resource not found: Table: %s not found", name);
    if (st != ST_OK)
        goto out;
    int64_t tid = t->id;
    if (!(desc = cJSON_Parse(t->desc))) {
        st = diag_set(d, ST_INTERNAL, "corrupt table description");
        goto out;
    }
    for (size_t i = 0; i < sizeof updates / sizeof updates[0] && st == ST_OK; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(in, updates[i].member);
        if (!m || cJSON_IsNull(m))
            continue;
        if (!updates[i].fn)
            st = diag_set(d, ST_VALIDATION, "ddbx's UpdateTable does not apply %s yet",
                          updates[i].member);
        else
            st = updates[i].fn(s, t, m, desc, d);
    }
    if (st != ST_OK || (st = put_desc(s, tid, desc, NULL, d)) != ST_OK)
        goto out;
    /* The answer is DescribeTable's with TableStatus UPDATING, as
     * DynamoDB gives while the change is applied. */
    cJSON *in2 = cJSON_CreateObject();
    cJSON_AddStringToObject(in2, "TableName", name);
    buf body = BUF_INIT;
    st = store_op_describe_table(s, in2, &body, d);
    cJSON_Delete(in2);
    if (st == ST_OK) {
        cJSON *o = cJSON_Parse(body.data);
        cJSON *td = cJSON_DetachItemFromObjectCaseSensitive(o, "Table");
        replace_member(td, "TableStatus", cJSON_CreateString("UPDATING"));
        char *text = cJSON_PrintUnformatted(td);
        buf_adds(out, "{\"TableDescription\":");
        buf_adds(out, text);
        buf_addc(out, '}');
        cJSON_free(text);
        cJSON_Delete(td);
        cJSON_Delete(o);
    }
    buf_done(&body);
out:
    cJSON_Delete(desc);
    return store_txn_end(s, st, d);
}

/* ---- the Streams API ---- */

static const char *const e_iter[] = { "TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
                                      "AFTER_SEQUENCE_NUMBER", NULL };

/* Lengths from the Streams API reference. */
static const vspec list_spec[] = {
    { .name = "ExclusiveStartStreamArn", .type = VT_STRING, .min_len = 37, .max_len = 1024 },
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 100, .has_le = true },
    { .name = "TableName", .type = VT_STRING, .flags = VF_TABLENAME | VF_NAMEPAT },
    { .type = VT_END },
};
static const vspec describe_spec[] = {
    { .name = "ExclusiveStartShardId", .type = VT_STRING, .min_len = 28, .max_len = 65 },
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 100, .has_le = true },
    { .name = "StreamArn", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 37, .max_len = 1024 },
    { .type = VT_END },
};
static const vspec iter_spec[] = {
    { .name = "SequenceNumber", .type = VT_STRING, .min_len = 21, .max_len = 40 },
    { .name = "ShardId", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 28, .max_len = 65 },
    { .name = "ShardIteratorType", .type = VT_STRING, .flags = VF_REQUIRED, .enums = e_iter },
    { .name = "StreamArn", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 37, .max_len = 1024 },
    { .type = VT_END },
};
static const vspec records_spec[] = {
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 1000, .has_le = true },
    { .name = "ShardIterator", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 1, .max_len = 2048 },
    { .type = VT_END },
};

static status stream_not_found(const char *arn, diag *d)
{
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Stream: %s not found", arn);
}

/* The stream an ARN names ("...:table/NAME/stream/LABEL"). */
static status stream_by_arn(store *s, const char *arn, stream_row *r, diag *d)
{
    size_t plen = strlen(STORE_ARN_PREFIX);
    const char *sep = strncmp(arn, STORE_ARN_PREFIX, plen) == 0 ? strstr(arn + plen, "/stream/") : NULL;
    if (!sep)
        return stream_not_found(arn, d);
    char tname[256];
    size_t n = (size_t)(sep - (arn + plen));
    if (n == 0 || n >= sizeof tname)
        return stream_not_found(arn, d);
    memcpy(tname, arn + plen, n);
    tname[n] = '\0';
    bool found;
    status st = find_stream(s, "tname = ?2 AND label = ?3", 0, tname, sep + 8, r, &found, d);
    if (st == ST_OK && !found)
        st = stream_not_found(arn, d);
    return st;
}

status store_op_list_streams(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, list_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *lim = cJSON_GetObjectItemCaseSensitive(in, "Limit");
    long limit = cJSON_IsNumber(lim) ? (long)lim->valuedouble : 100;
    const char *table = jstr(in, "TableName"), *start = jstr(in, "ExclusiveStartStreamArn");
    if ((st = trim_before_read(s, d)) != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    int64_t after = 0;
    sqlite3_stmt *q = NULL;
    if (start) {
        stream_row r;
        if ((st = stream_by_arn(s, start, &r, d)) != ST_OK)
            goto out;
        after = r.sid;
        stream_row_done(&r);
    }
    if (table) {
        tinfo *t;
        bool any;
        stream_row r;
        if ((st = find_stream(s, "tname = ?2", 0, table, NULL, &r, &any, d)) != ST_OK)
            goto out;
        if (any)
            stream_row_done(&r);
        else if (store_table(s, table, &t, d) != ST_OK) {
            st = diag_set(d, ST_NOT_FOUND, "Requested resource not found: Table: %s not found", table);
            goto out;
        }
    }
    if (sqlite3_prepare_v2(s->db, "SELECT " STREAM_COLS " FROM streams WHERE sid > ?1"
                           " AND (?2 IS NULL OR tname = ?2) ORDER BY sid LIMIT ?3", -1, &q,
                           NULL) != SQLITE_OK) {
        st = store_sqlerr(s, d);
        goto out;
    }
    sqlite3_bind_int64(q, 1, after);
    if (table)
        sqlite3_bind_text(q, 2, table, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, limit + 1);
    buf_adds(out, "{\"Streams\":[");
    long n = 0;
    buf arn = BUF_INIT;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        stream_row r;
        read_row(q, &r);
        if (n == limit) {
            stream_row_done(&r);
            break;
        }
        buf_reset(&arn);
        stream_arn(&arn, r.tname, r.label);
        buf_adds(out, n ? ",{\"StreamArn\":" : "{\"StreamArn\":");
        ddbjson_write_string(out, arn.data, arn.len);
        buf_adds(out, ",\"StreamLabel\":");
        ddbjson_write_string(out, r.label, strlen(r.label));
        buf_adds(out, ",\"TableName\":");
        ddbjson_write_string(out, r.tname, strlen(r.tname));
        buf_addc(out, '}');
        stream_row_done(&r);
        n++;
    }
    buf_addc(out, ']');
    if (rc == SQLITE_ROW) {
        buf_adds(out, ",\"LastEvaluatedStreamArn\":");
        ddbjson_write_string(out, arn.data, arn.len);
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    buf_addc(out, '}');
    buf_done(&arn);
out:
    sqlite3_finalize(q);
    return store_txn_end(s, st, d);
}

status store_op_describe_stream(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, describe_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const char *arn = jstr(in, "StreamArn"), *after = jstr(in, "ExclusiveStartShardId");
    if ((st = trim_before_read(s, d)) != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    stream_row r;
    if ((st = stream_by_arn(s, arn, &r, d)) != ST_OK)
        return store_txn_end(s, st, d);
    char sid[80], seq[32];
    shard_id(sid, sizeof sid, &r);
    buf_adds(out, "{\"StreamDescription\":{\"CreationRequestDateTime\":");
    buf_printf(out, "%.3f", (double)r.created / 1000.0);
    buf_adds(out, ",\"KeySchema\":");
    buf_adds(out, r.keys);
    buf_adds(out, ",\"Shards\":[");
    /* One shard a stream; past it (ExclusiveStartShardId) there is none. */
    if (!after || strcmp(after, sid) != 0) {
        buf_adds(out, "{\"SequenceNumberRange\":{");
        if (r.closed) {
            seq_str(seq, r.end_seq);
            buf_printf(out, "\"EndingSequenceNumber\":\"%s\",", seq);
        }
        seq_str(seq, (r.trimmed > r.start_seq ? r.trimmed : r.start_seq) + 1);
        buf_printf(out, "\"StartingSequenceNumber\":\"%s\"},\"ShardId\":\"%s\"}", seq, sid);
    }
    buf_adds(out, "],\"StreamArn\":");
    ddbjson_write_string(out, arn, strlen(arn));
    buf_adds(out, ",\"StreamLabel\":");
    ddbjson_write_string(out, r.label, strlen(r.label));
    buf_printf(out, ",\"StreamStatus\":\"%s\",\"StreamViewType\":\"%s\",\"TableName\":",
               r.closed ? "DISABLED" : "ENABLED", r.view);
    ddbjson_write_string(out, r.tname, strlen(r.tname));
    buf_adds(out, "}}");
    stream_row_done(&r);
    return store_txn_end(s, st, d);
}

static status shard_not_found(const char *shard, diag *d)
{
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Shard does not exist: %s", shard);
}

static status trimmed(diag *d)
{
    return diag_set(d, ST_TRIMMED, "The operation attempted to read past the oldest stream record"
                    " in a shard.");
}

static void write_iterator(buf *out, const stream_row *r, int64_t pos, int64_t issued)
{
    buf b = BUF_INIT;
    stream_arn(&b, r->tname, r->label);
    buf_printf(&b, "|%" PRId64 "|%" PRId64 "|%" PRId64, r->sid, pos, issued);
    ddbjson_write_string(out, b.data, b.len);
    buf_done(&b);
}

status store_op_get_shard_iterator(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, iter_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const char *arn = jstr(in, "StreamArn"), *shard = jstr(in, "ShardId");
    const char *type = jstr(in, "ShardIteratorType"), *seqtext = jstr(in, "SequenceNumber");
    bool at = strcmp(type, "AT_SEQUENCE_NUMBER") == 0;
    bool after = strcmp(type, "AFTER_SEQUENCE_NUMBER") == 0;
    if ((at || after) && !seqtext)
        return diag_set(d, ST_VALIDATION, "SequenceNumber is required for ShardIteratorType %s", type);
    if ((st = trim_before_read(s, d)) != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    stream_row r;
    if ((st = stream_by_arn(s, arn, &r, d)) != ST_OK)
        return store_txn_end(s, st, d);
    char sid[80];
    shard_id(sid, sizeof sid, &r);
    int64_t pos = 0, last = 0, seq = 0;
    if (strcmp(shard, sid) != 0) {
        st = shard_not_found(shard, d);
        goto out;
    }
    if ((st = last_seq(s, &last, d)) != ST_OK)
        goto out;
    if (r.closed && r.end_seq < last)
        last = r.end_seq;
    int64_t horizon = r.trimmed > r.start_seq ? r.trimmed : r.start_seq;
    if (strcmp(type, "TRIM_HORIZON") == 0) {
        pos = horizon;
    } else if (strcmp(type, "LATEST") == 0) {
        pos = last;
    } else {
        if (!seq_parse(seqtext, &seq) || seq <= r.start_seq || seq > last) {
            st = diag_set(d, ST_VALIDATION, "Invalid SequenceNumber %s for shard %s: not a sequence"
                          " number of this shard", seqtext, shard);
            goto out;
        }
        /* "You request a shard iterator with a sequence number older than
         * the trim point" (GetShardIterator, TrimmedDataAccessException). */
        if (seq <= r.trimmed) {
            st = trimmed(d);
            goto out;
        }
        pos = at ? seq - 1 : seq;
    }
    buf_adds(out, "{\"ShardIterator\":");
    write_iterator(out, &r, pos, now_ms(s));
    buf_addc(out, '}');
out:
    stream_row_done(&r);
    return store_txn_end(s, st, d);
}

/* The key attribute names of a KeySchema JSON (one or two). */
static size_t key_names(const char *keys, char names[2][256], const char *ptrs[2], size_t lens[2])
{
    cJSON *ks = cJSON_Parse(keys);
    size_t n = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) {
        const char *a = jstr(e, "AttributeName");
        if (!a || n == 2)
            continue;
        snprintf(names[n], 256, "%s", a);
        ptrs[n] = names[n];
        lens[n] = strlen(names[n]);
        n++;
    }
    cJSON_Delete(ks);
    return n;
}

static void event_id(char out[33], int64_t sid, int64_t seq)
{
    uint64_t a = 1469598103934665603ULL ^ (uint64_t)sid, b = 0x9e3779b97f4a7c15ULL ^ (uint64_t)seq;
    for (int i = 0; i < 4; i++) {
        a = (a ^ (b >> 17)) * 1099511628211ULL;
        b = (b ^ (a >> 13)) * 0xbf58476d1ce4e5b9ULL;
    }
    snprintf(out, 33, "%016" PRIx64 "%016" PRIx64, a, b);
}

/* One stream record, as GetRecords gives it (Streams API reference,
 * Record and StreamRecord). */
static status write_record(buf *out, const stream_row *r, sqlite3_stmt *q, const char *const *names,
                           const size_t *lens, size_t n_keys, diag *d)
{
    int64_t seq = sqlite3_column_int64(q, 0), t = sqlite3_column_int64(q, 1);
    bool ttl = sqlite3_column_int(q, 2) != 0;
    bool has_old = sqlite3_column_type(q, 3) != SQLITE_NULL;
    bool has_new = sqlite3_column_type(q, 4) != SQLITE_NULL;
    av old = { .type = AV_NONE }, nw = { .type = AV_NONE }, keys = { .type = AV_NONE };
    status st = ST_OK;
    if (has_old)
        st = itemenc_decode(sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3), &old, d);
    if (st == ST_OK && has_new)
        st = itemenc_decode(sqlite3_column_blob(q, 4), (size_t)sqlite3_column_bytes(q, 4), &nw, d);
    if (st == ST_OK) {
        int col = has_new ? 4 : 3;
        st = itemenc_decode_some(sqlite3_column_blob(q, col), (size_t)sqlite3_column_bytes(q, col),
                                 names, lens, n_keys, &keys, d);
    }
    if (st != ST_OK)
        goto out;
    bool want_new = has_new && (strcmp(r->view, "NEW_IMAGE") == 0 ||
                                strcmp(r->view, "NEW_AND_OLD_IMAGES") == 0);
    bool want_old = has_old && (strcmp(r->view, "OLD_IMAGE") == 0 ||
                                strcmp(r->view, "NEW_AND_OLD_IMAGES") == 0);
    /* SizeBytes: the record's keys and images by DynamoDB's item size. */
    size_t size = store_item_size(&keys) + (want_new ? store_item_size(&nw) : 0) +
                  (want_old ? store_item_size(&old) : 0);
    char id[33], seqs[32];
    event_id(id, r->sid, seq);
    seq_str(seqs, seq);
    buf_printf(out, "{\"awsRegion\":\"" STORE_REGION "\",\"dynamodb\":{\"ApproximateCreationDateTime\":%"
               PRId64 ",\"Keys\":", t / 1000);
    ddbjson_write_item(out, &keys);
    if (want_new) {
        buf_adds(out, ",\"NewImage\":");
        ddbjson_write_item(out, &nw);
    }
    if (want_old) {
        buf_adds(out, ",\"OldImage\":");
        ddbjson_write_item(out, &old);
    }
    buf_printf(out, ",\"SequenceNumber\":\"%s\",\"SizeBytes\":%zu,\"StreamViewType\":\"%s\"},"
               "\"eventID\":\"%s\",\"eventName\":\"%s\",\"eventSource\":\"aws:dynamodb\","
               "\"eventVersion\":\"1.1\"", seqs, size, r->view, id,
               !has_old ? "INSERT" : !has_new ? "REMOVE" : "MODIFY");
    /* Deletions by Time to Live carry the service as their identity
     * (Developer Guide, "Streams and Time to Live"). */
    if (ttl)
        buf_adds(out, ",\"userIdentity\":{\"PrincipalId\":\"dynamodb.amazonaws.com\",\"Type\":\"Service\"}");
    buf_addc(out, '}');
out:
    av_free(&old);
    av_free(&nw);
    av_free(&keys);
    return st;
}

status store_op_get_records(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, records_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *lim = cJSON_GetObjectItemCaseSensitive(in, "Limit");
    long limit = cJSON_IsNumber(lim) ? (long)lim->valuedouble : 1000;
    const char *it = jstr(in, "ShardIterator");
    /* StreamArn|sid|pos|issued */
    const char *bar = strchr(it, '|');
    int64_t sidv = 0, pos = 0, issued = 0;
    char tail;
    if (!bar || sscanf(bar, "|%" SCNd64 "|%" SCNd64 "|%" SCNd64 "%c", &sidv, &pos, &issued, &tail) != 3)
        return diag_set(d, ST_VALIDATION, "Invalid ShardIterator");
    int64_t now = now_ms(s);
    if (now - issued > s->iterator_ms)
        return diag_set(d, ST_EXPIRED_ITERATOR, "Iterator expired. The iterator was created at time %"
                        PRId64 " while right now it is %" PRId64 " which is further in the future than"
                        " the tolerated delay of %" PRId64 " milliseconds.", issued, now, s->iterator_ms);
    if ((st = trim_before_read(s, d)) != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    stream_row r;
    bool found;
    sqlite3_stmt *q = NULL;
    buf arn = BUF_INIT;
    if ((st = find_stream(s, "sid = ?1", sidv, NULL, NULL, &r, &found, d)) != ST_OK)
        goto out;
    if (found) {
        stream_arn(&arn, r.tname, r.label);
        if (arn.len != (size_t)(bar - it) || memcmp(arn.data, it, arn.len) != 0) {
            stream_row_done(&r);
            found = false;
        }
    }
    if (!found) {
        st = diag_set(d, ST_NOT_FOUND, "Requested resource not found: Stream for ShardIterator not found");
        goto out;
    }
    /* "You obtain a shard iterator, but before you use the iterator in a
     * GetRecords request, a stream record in the shard exceeds the 24 hour
     * period and is trimmed." */
    if (pos < r.trimmed) {
        st = trimmed(d);
        goto done;
    }
    char names[2][256];
    const char *ptrs[2];
    size_t lens[2];
    size_t n_keys = key_names(r.keys, names, ptrs, lens);
    if (sqlite3_prepare_v2(s->db, "SELECT seq, t, ttl, old, new FROM changes WHERE tid = ?1"
                           " AND seq > ?2 AND seq <= ?3 ORDER BY seq LIMIT ?4", -1, &q,
                           NULL) != SQLITE_OK) {
        st = store_sqlerr(s, d);
        goto done;
    }
    sqlite3_bind_int64(q, 1, r.tid);
    sqlite3_bind_int64(q, 2, pos);
    sqlite3_bind_int64(q, 3, r.end_seq);
    sqlite3_bind_int64(q, 4, limit);
    buf_adds(out, "{\"Records\":[");
    long n = 0;
    bool full = false;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (n)
            buf_addc(out, ',');
        if ((st = write_record(out, &r, q, ptrs, lens, n_keys, d)) != ST_OK)
            goto done;
        pos = sqlite3_column_int64(q, 0);
        if (++n == limit)
            full = true;
        if (out->len >= MAX_RECORDS_BYTES) {
            full = true;
            break;
        }
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
        goto done;
    }
    buf_addc(out, ']');
    /* A closed shard read to its end has no next iterator ("If set to
     * null, the shard has been closed and the requested iterator will not
     * return any more data"). */
    if (!r.closed || full) {
        buf_adds(out, ",\"NextShardIterator\":");
        write_iterator(out, &r, pos, now);
    }
    buf_addc(out, '}');
done:
    stream_row_done(&r);
out:
    sqlite3_finalize(q);
    buf_done(&arn);
    return store_txn_end(s, st, d);
}

bool store_is_streams_op(const char *op)
{
    static const char *const ops[] = { "ListStreams", "DescribeStream", "GetShardIterator", "GetRecords" };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i]) == 0)
            return true;
    return false;
}

/* ---- the explorer's feed ---- */

void store_change_free(store_change *c)
{
    av_free(&c->keys);
    av_free(&c->old_item);
    av_free(&c->new_item);
}

status store_data_version(store *s, int64_t *out, diag *d)
{
    *out = 0;
    if (s->remote)
        return ST_OK;
    sqlite3_stmt *q = store_stmt(s, Q_DATA_VERSION, d);
    if (!q)
        return d->code;
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    return rc == SQLITE_ROW ? ST_OK : store_sqlerr(s, d);
}

/* The key attributes of an item, by the table's schema. */
static void keys_of(const table_def *def, const av *item, av *out)
{
    av_init_list(out, AV_M);
    const char *names[2] = { def->pk.name, def->sk.name };
    for (int i = 0; i < 2; i++) {
        const av *v = names[i] ? av_map_get(item, names[i], strlen(names[i])) : NULL;
        if (v) {
            av c;
            av_copy(&c, v);
            av_map_put(out, names[i], strlen(names[i]), &c);
        }
    }
}

static status remote_changes(store *s, const char *table, int64_t before_seq, size_t max,
                             store_change *out, size_t *n, diag *d);

status store_changes(store *s, const char *table, int64_t before_seq, size_t max,
                     store_change *out, size_t *n, diag *d)
{
    *n = 0;
    if (s->remote)
        return remote_changes(s, table, before_seq, max, out, n, d);
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    sqlite3_stmt *q = NULL;
    if ((st = store_table(s, table, &t, d)) != ST_OK)
        goto out;
    /* A version 1 file opened read-only has no change log: no changes. */
    if (sqlite3_prepare_v2(s->db, "SELECT seq, t, ttl, old, new FROM changes WHERE tid = ?1"
                           " AND seq < ?2 ORDER BY seq DESC LIMIT ?3", -1, &q, NULL) != SQLITE_OK)
        goto out;
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_int64(q, 2, before_seq > 0 ? before_seq : INT64_MAX);
    sqlite3_bind_int64(q, 3, (int64_t)max);
    int rc;
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        store_change *c = &out[*n];
        memset(c, 0, sizeof *c);
        c->seq = sqlite3_column_int64(q, 0);
        c->t_ms = sqlite3_column_int64(q, 1);
        c->ttl = sqlite3_column_int(q, 2) != 0;
        if (sqlite3_column_type(q, 3) != SQLITE_NULL)
            st = itemenc_decode(sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3),
                                &c->old_item, d);
        if (st == ST_OK && sqlite3_column_type(q, 4) != SQLITE_NULL)
            st = itemenc_decode(sqlite3_column_blob(q, 4), (size_t)sqlite3_column_bytes(q, 4),
                                &c->new_item, d);
        if (st != ST_OK) {
            store_change_free(c);
            break;
        }
        c->event = c->old_item.type == AV_NONE ? STORE_INSERT
                 : c->new_item.type == AV_NONE ? STORE_REMOVE : STORE_MODIFY;
        keys_of(&t->def, c->new_item.type == AV_M ? &c->new_item : &c->old_item, &c->keys);
        (*n)++;
    }
    if (st == ST_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        st = store_sqlerr(s, d);
out:
    sqlite3_finalize(q);
    return store_txn_end(s, st, d);
}

/* ---- the feed on a remote table: its stream ---- */

static status rcall(store *s, const char *op, cJSON *req, cJSON **resp, diag *d)
{
    char *text = cJSON_PrintUnformatted(req), *out = NULL;
    status st = store_call(s, op, text, strlen(text), &out, d);
    cJSON_free(text);
    *resp = st == ST_OK && out ? cJSON_Parse(out) : NULL;
    free(out);
    if (st == ST_OK && !*resp)
        st = diag_set(d, ST_INTERNAL, "%s: the answer is not JSON", op);
    return st;
}

static status change_from_record(const cJSON *rec, store_change *c, diag *d)
{
    memset(c, 0, sizeof *c);
    const cJSON *db = cJSON_GetObjectItemCaseSensitive(rec, "dynamodb");
    const char *ev = jstr(rec, "eventName"), *seq = jstr(db, "SequenceNumber");
    c->event = ev && strcmp(ev, "INSERT") == 0 ? STORE_INSERT
             : ev && strcmp(ev, "REMOVE") == 0 ? STORE_REMOVE : STORE_MODIFY;
    /* Sequence numbers are decimal strings up to 40 digits: the explorer
     * only needs their order, which the last 18 digits keep within one
     * shard's reading. */
    size_t len = seq ? strlen(seq) : 0;
    c->seq = len ? strtoll(seq + (len > 18 ? len - 18 : 0), NULL, 10) : 0;
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(db, "ApproximateCreationDateTime");
    c->t_ms = cJSON_IsNumber(at) ? (int64_t)(at->valuedouble * 1000) : 0;
    const cJSON *uid = cJSON_GetObjectItemCaseSensitive(rec, "userIdentity");
    c->ttl = uid && jstr(uid, "PrincipalId") && strcmp(jstr(uid, "PrincipalId"), "dynamodb.amazonaws.com") == 0;
    status st = ST_OK;
    const char *members[] = { "Keys", "OldImage", "NewImage" };
    av *dst[] = { &c->keys, &c->old_item, &c->new_item };
    for (int i = 0; i < 3 && st == ST_OK; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(db, members[i]);
        if (m)
            st = ddbjson_item_from_cjson(m, members[i], dst[i], d);
    }
    if (c->keys.type != AV_M) {
        av_free(&c->keys);
        av_init_list(&c->keys, AV_M);
    }
    return st;
}

static status remote_changes(store *s, const char *table, int64_t before_seq, size_t max,
                             store_change *out, size_t *n, diag *d)
{
    cJSON *req = cJSON_CreateObject(), *resp = NULL;
    store_change *all = NULL;
    size_t n_all = 0, cap = 0;
    cJSON_AddStringToObject(req, "TableName", table);
    status st = rcall(s, "DescribeTable", req, &resp, d);
    cJSON_Delete(req);
    if (st != ST_OK)
        return st;
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(resp, "Table");
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(td, "StreamSpecification");
    const char *arnp = jstr(td, "LatestStreamArn");
    if (!arnp || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled"))) {
        cJSON_Delete(resp);
        return diag_set(d, ST_NOT_FOUND, "%s has no stream: enable one to follow its changes", table);
    }
    char *arn = xstrdup(arnp);
    cJSON_Delete(resp);
    resp = NULL;
    /* Every shard from its trim horizon (a stream keeps 24 hours), the
     * newest max kept. Reading stops at an open shard's end. */
    req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "StreamArn", arn);
    st = rcall(s, "DescribeStream", req, &resp, d);
    cJSON_Delete(req);
    const cJSON *shards = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(resp, "StreamDescription"), "Shards");
    const cJSON *sh;
    cJSON_ArrayForEach(sh, shards) {
        if (st != ST_OK)
            break;
        cJSON *ir = cJSON_CreateObject(), *iresp = NULL;
        cJSON_AddStringToObject(ir, "StreamArn", arn);
        cJSON_AddStringToObject(ir, "ShardId", jstr(sh, "ShardId") ? jstr(sh, "ShardId") : "");
        cJSON_AddStringToObject(ir, "ShardIteratorType", "TRIM_HORIZON");
        st = rcall(s, "GetShardIterator", ir, &iresp, d);
        cJSON_Delete(ir);
        char *iter = st == ST_OK && jstr(iresp, "ShardIterator") ? xstrdup(jstr(iresp, "ShardIterator")) : NULL;
        cJSON_Delete(iresp);
        for (int pages = 0; st == ST_OK && iter && pages < 64; pages++) {
            cJSON *gr = cJSON_CreateObject(), *gresp = NULL;
            cJSON_AddStringToObject(gr, "ShardIterator", iter);
            st = rcall(s, "GetRecords", gr, &gresp, d);
            cJSON_Delete(gr);
            free(iter);
            iter = NULL;
            const cJSON *recs = cJSON_GetObjectItemCaseSensitive(gresp, "Records"), *rec;
            cJSON_ArrayForEach(rec, recs) {
                if (st != ST_OK)
                    break;
                if (n_all == cap) {
                    cap = cap ? cap * 2 : 64;
                    all = xrealloc(all, cap * sizeof *all);
                }
                st = change_from_record(rec, &all[n_all], d);
                n_all++;
            }
            if (st == ST_OK && cJSON_GetArraySize(recs) > 0 && jstr(gresp, "NextShardIterator"))
                iter = xstrdup(jstr(gresp, "NextShardIterator"));
            cJSON_Delete(gresp);
        }
        free(iter);
    }
    cJSON_Delete(resp);
    free(arn);
    /* Newest first, older than before_seq. */
    for (size_t i = n_all; i-- > 0;) {
        if (st == ST_OK && *n < max && (before_seq <= 0 || all[i].seq < before_seq)) {
            out[(*n)++] = all[i];
            continue;
        }
        store_change_free(&all[i]);
    }
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            store_change_free(&out[i]);
        *n = 0;
    }
    free(all);
    return st;
}
