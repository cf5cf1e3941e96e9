/*
 * store_streams — DynamoDB Streams over the change log (store_changes.c).
 *
 * As the Streams API reference describes it: a table
 * has at most one enabled stream (UpdateTable / CreateTable
 * StreamSpecification); disabling closes it, enabling again makes a new
 * one with a new label; records are kept for the retention and trimmed
 * oldest first (store_changes.c). Each stream has one shard, open while the stream is
 * enabled, closed (EndingSequenceNumber) when it is disabled. A sequence
 * number is the change's seq plus 10^20, printed in 21 digits (the API's
 * minimum length; seq counts per table, so a stream's records are a
 * range of its table's); a shard iterator is "StreamArn|sid|position|issued ms",
 * the position being the last sequence already read.
 *
 * DescribeStream, GetShardIterator and GetRecords run typed
 * (store_streams_exec: ddb_req in, model/ddbres_streams.h's answer out);
 * their JSON doors check the body's shape, read it into a ddb_req and
 * print the answer (sop_run, Time to Live's too). ListStreams,
 * which no caller sends typed, works on the JSON.
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_int.h"
#include "data/store_ops.h"
#include "data/store_valid.h"
#include "model/ddbres.h"
#include "model/ddbres_meta.h"
#include "model/ddbres_tables.h"
#include "model/ddbres_streams.h"
#include "model/itemenc.h"
#include "model/mem.h"

#define SEQ_BASE 100000000000000000000.0   /* printed as "1" and 20 digits */
#define MAX_RECORDS_BYTES (1024 * 1024)    /* GetRecords: at most 1 MB a call */

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
    int64_t start, created = store_now_ms(s);
    status st = store_last_seq(s, tid, &start, d);
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
    int64_t end, now = store_now_ms(s);
    status st = store_last_seq(s, tid, &end, d);
    if (st != ST_OK)
        return st;
    int64_t args[] = { tid, end, now };
    st = store_sql(s, "UPDATE streams SET end_seq = ?2, disabled = ?3 WHERE tid = ?1 AND end_seq IS NULL",
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

status store_streams_created(store *s, int64_t tid, const char *name, const char *view,
                             char **desc_text, diag *d)
{
    if (!view)
        return ST_OK;
    cJSON *desc = cJSON_Parse(*desc_text);
    if (!desc)
        return diag_set(d, ST_INTERNAL, "corrupt table description");
    char *text = NULL;
    status st = enable_stream(s, tid, name, view, desc, d);
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
    status st = disable_stream(s, tid, NULL, d);
    if (st == ST_OK)
        st = store_ttl_tags_deleted(s, tid, d);
    /* A table that never had a stream takes its records with it. */
    if (st == ST_OK)
        st = store_sql(s, "DELETE FROM changes WHERE tid = ?1 AND tid NOT IN (SELECT tid FROM streams)",
                      &tid, 1, d);
    return st;
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
    { .name = "AttributeDefinitions", .type = VT_LIST, .elem = &store_attrdef_elem },
    F_TABLE_REQ,
    { .name = "BillingMode", .type = VT_STRING, .enums = e_billing },
    { .name = "ProvisionedThroughput", .type = VT_FSTRUCT, .sub = "ProvisionedThroughput", .fields = pt_fields },
    { .name = "GlobalSecondaryIndexUpdates", .type = VT_LIST, .elem = &store_gsi_update_elem },
    { .name = "StreamSpecification", .type = VT_FSTRUCT, .sub = "StreamSpecification", .fields = stream_fields },
    F_CAPACITY,
    { .name = "VectorIndexUpdates", .type = VT_LIST, .elem = &store_vix_update_elem },
    { .type = VT_END },
};

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

static bool given(const cJSON *in, const char *member)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(in, member);
    if (cJSON_IsArray(m))   /* an empty GlobalSecondaryIndexUpdates asks nothing (dynalite) */
        return cJSON_GetArraySize(m) > 0;
    return m && !cJSON_IsNull(m);
}

/* The answer is DescribeTable's with TableStatus UPDATING, as DynamoDB
 * gives while the change is applied, and the index notes of store_gsi.c. */
static status update_answer(store *s, const char *name, const cJSON *notes, ddb_table_desc **out, diag *d)
{
    status st = store_tables_describe(s, name, out, d);
    if (st == ST_OK) {
        ddb_req_set_str(&(*out)->status, "UPDATING");
        st = store_gsi_response(*out, notes, d);
    }
    return st;
}

/* A GSI's own OnDemandThroughput or WarmThroughput change
 * (UpdateGlobalSecondaryIndexAction's): not applied, said by name. */
static status gsi_capacity_refused(const cJSON *in, diag *d)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(in, "GlobalSecondaryIndexUpdates")) {
        const cJSON *u = cJSON_GetObjectItemCaseSensitive(e, "Update");
        if (given(u, "OnDemandThroughput") || given(u, "WarmThroughput"))
            return diag_set(d, ST_VALIDATION, "ddbx's UpdateTable does not apply a GSI's %s yet",
                            given(u, "OnDemandThroughput") ? "OnDemandThroughput" : "WarmThroughput");
    }
    return ST_OK;
}

/* UpdateTable of a request body: its checks, the change, the answer's
 * description in a new *out. */
static status update_run(store *s, const cJSON *in, ddb_table_desc **out, diag *d)
{
    status st = gsi_capacity_refused(in, d);
    if (st == ST_OK)
        st = store_valid_check(in, update_spec, d, &s->err_msg);
    if (st == ST_OK)
        st = store_members_check(in, false, d);
    if (st != ST_OK)
        return st;
    static const char *const members[] = { "ProvisionedThroughput", "BillingMode", "StreamSpecification",
                                           "GlobalSecondaryIndexUpdates", "VectorIndexUpdates",
                                           "SSESpecification", "ReplicaUpdates" };
    /* The global table members: ddbx has no replicas to apply them to. */
    static const char *const global[] = { "MultiRegionConsistency", "GlobalTableWitnessUpdates",
                                          "GlobalTableSettingsReplicationMode", "DisassociationProtectionEnabled" };
    for (size_t i = 0; i < sizeof global / sizeof global[0]; i++)
        if (given(in, global[i]))
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: %s: ddbx is one account"
                            " in one region and keeps no global table replicas", global[i]);
    bool any = store_capacity_asked(in);
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
        any |= given(in, members[i]);
    if (!any)   /* dynalite's wording of DynamoDB's message */
        return diag_set(d, ST_VALIDATION, "At least one of ProvisionedThroughput, BillingMode,"
                        " UpdateStreamEnabled, GlobalSecondaryIndexUpdates or SSESpecification or"
                        " ReplicaUpdates is required");
    for (size_t i = 5; i < sizeof members / sizeof members[0]; i++)
        if (given(in, members[i]))
            return diag_set(d, ST_VALIDATION, "ddbx's UpdateTable does not apply %s yet", members[i]);
    const char *name = jstr(in, "TableName");
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        return st;
    cJSON *desc = NULL, *notes = cJSON_CreateObject();
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
    /* Everything is checked before anything changes; the WarmThroughput
     * the table has is kept before its capacity moves. */
    if ((st = store_capacity_update_check(in, desc, d)) != ST_OK || (st = store_gsi_check(s, t, in, desc, d)) != ST_OK)
        goto out;
    store_capacity_describe(desc);
    if ((st = store_gsi_apply(s, t, in, desc, notes, d)) != ST_OK)
        goto out;
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(in, "StreamSpecification");
    if (spec && !cJSON_IsNull(spec) && (st = update_stream(s, t, spec, desc, d)) != ST_OK)
        goto out;
    store_capacity_update(in, desc);
    if ((st = store_vec_update(s, t, in, desc, d)) != ST_OK)
        goto out;
    if ((st = put_desc(s, tid, desc, NULL, d)) != ST_OK ||
        (st = store_gsi_rows(s, name, notes, d)) != ST_OK)
        goto out;
    if (cJSON_GetObjectItemCaseSensitive(in, "VectorIndexUpdates") &&
        ((st = store_table(s, name, &t, d)) != ST_OK || (st = store_vec_backfill(s, t, in, d)) != ST_OK))
        goto out;
    st = update_answer(s, name, notes, out, d);
out:
    cJSON_Delete(desc);
    cJSON_Delete(notes);
    return store_txn_end(s, st, d);
}

status store_op_update_table(store *s, const cJSON *in, buf *out, diag *d)
{
    ddb_res res;
    ddb_res_init(&res);
    status st = update_run(s, in, &ddbres_tables(&res)->table, d);
    if (st == ST_OK) {
        ddb_req req;
        ddb_req_init(&req, DDB_UPDATE_TABLE);
        ddb_res_json(&req, &res, out);
        ddb_req_done(&req);
    }
    ddb_res_done(&res);
    return st;
}

status store_tables_update(store *s, const ddb_req *req, ddb_table_desc **out, diag *d)
{
    *out = NULL;
    buf body = BUF_INIT;
    ddb_req_json(req, &body);
    cJSON *in = cJSON_ParseWithLength(body.data ? body.data : "{}", body.data ? body.len : 2);
    buf_done(&body);
    if (!in)
        return diag_set(d, ST_INTERNAL, "UpdateTable's request did not print as JSON");
    status st = update_run(s, in, out, d);
    cJSON_Delete(in);
    return st;
}

/* ---- the Streams API ---- */

static const char *const e_iter[] = { "TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
                                      "AFTER_SEQUENCE_NUMBER", NULL };

/* Lengths from the Streams API reference. */
static const vspec list_spec[] = {
    { .name = "ExclusiveStartStreamArn", .type = VT_STRING, .min_len = 37, .max_len = 1024 },
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 100, .has_le = true },
    { .name = "TableName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .type = VT_END },
};
static const char *const e_filter[] = { "CHILD_SHARDS", NULL };
static const vspec filter_fields[] = {
    { .name = "ShardId", .type = VT_STRING, .min_len = 28, .max_len = 65 },
    { .name = "Type", .type = VT_STRING, .enums = e_filter },
    { .type = VT_END },
};
static const vspec describe_spec[] = {
    { .name = "ExclusiveStartShardId", .type = VT_STRING, .min_len = 28, .max_len = 65 },
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 100, .has_le = true },
    { .name = "ShardFilter", .type = VT_FSTRUCT, .sub = "ShardFilter", .fields = filter_fields },
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

/* Whether arn has a stream ARN's form, arn:aws:dynamodb:REGION:ACCOUNT:
 * table/NAME/stream/LABEL, whoever's it is. */
static bool stream_arn_form(const char *arn)
{
    static const char head[] = "arn:aws:dynamodb:";
    if (strncmp(arn, head, sizeof head - 1) != 0)
        return false;
    const char *p = strchr(arn + sizeof head - 1, ':');
    if (!p || p == arn + sizeof head - 1)
        return false;
    const char *acct = p + 1, *acct_end = strchr(acct, ':');
    if (!acct_end || acct_end == acct || strncmp(acct_end + 1, "table/", 6) != 0)
        return false;
    const char *name = acct_end + 7, *sep = strstr(name, "/stream/");
    return sep && sep > name && sep[8];
}

/* A StreamArn not of a stream ARN's form: AWS answers "Invalid
 * StreamArn", before the member's length (aws-sdk-js v2's integration
 * tests, run against AWS: DescribeStream of 'fake-stream'). */
static status check_stream_arn(const cJSON *in, diag *d)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(in, "StreamArn");
    if (cJSON_IsString(a) && !stream_arn_form(a->valuestring))
        return diag_set(d, ST_VALIDATION, "Invalid StreamArn");
    return ST_OK;
}

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
    if ((st = store_trim_before_read(s, d)) != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
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
    ddb_streams_list res = DDB_STREAMS_LIST_INIT;
    buf arn = BUF_INIT;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        stream_row r;
        read_row(q, &r);
        if (res.n == (size_t)limit) {
            stream_row_done(&r);
            break;
        }
        buf_reset(&arn);
        stream_arn(&arn, r.tname, r.label);
        ddbres_streams_list_add(&res, arn.data, r.label, r.tname);
        stream_row_done(&r);
    }
    if (rc == SQLITE_ROW)
        res.last = xstrdup(res.streams[res.n - 1].arn);
    else if (rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    if (st == ST_OK)
        ddbres_streams_list_json(&res, out);
    ddbres_streams_list_done(&res);
    buf_done(&arn);
out:
    sqlite3_finalize(q);
    return store_txn_end(s, st, d);
}

/* The KeySchema a stream row keeps (JSON) as the answer's key elements. */
static void keys_into(const char *keys, ddb_streams_res *out)
{
    cJSON *ks = cJSON_Parse(keys);
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) ddbres_streams_add_key(out, jstr(e, "AttributeName"), jstr(e, "KeyType"));
    cJSON_Delete(ks);
}

/* DescribeStream, typed, inside its read transaction. */
static status describe_typed(store *s, const ddb_req *req, ddb_streams_res *out, diag *d)
{
    const char *after = req->ctl.start_shard, *child_of = req->ctl.child_of;
    stream_row r;
    status st = stream_by_arn(s, req->ctl.stream, &r, d);
    if (st != ST_OK)
        return st;
    char sid[80], seq[32];
    shard_id(sid, sizeof sid, &r);
    out->has_stream = true;
    out->created = (double)r.created / 1000.0;
    keys_into(r.keys, out);
    /* One shard a stream; past it (ExclusiveStartShardId) there is none,
     * nor has it a child. The children of a shard this stream does not
     * have: none, as DynamoDB Local 3.2+ answers (AWS's answer is not
     * published). */
    if (!child_of && (!after || strcmp(after, sid) != 0)) {
        ddb_shard *sh = ddbres_streams_add_shard(out);
        sh->id = xstrdup(sid);
        if (r.closed) {
            seq_str(seq, r.end_seq);
            sh->end_seq = xstrdup(seq);
        }
        seq_str(seq, (r.trimmed > r.start_seq ? r.trimmed : r.start_seq) + 1);
        sh->start_seq = xstrdup(seq);
    }
    out->stream_arn = xstrdup(req->ctl.stream);
    out->label = xstrdup(r.label);
    out->stream_status = xstrdup(r.closed ? "DISABLED" : "ENABLED");
    out->view = xstrdup(r.view);
    out->table = xstrdup(r.tname);
    stream_row_done(&r);
    return ST_OK;
}

status store_op_describe_stream(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = check_stream_arn(in, d);
    if (st == ST_OK)
        st = store_valid_check(in, describe_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    /* ShardFilter (API reference: Type CHILD_SHARDS, the children of
     * ShardId). No type: DynamoDB Local 3.3's message; no shard id: the
     * constraint family's not-null (not confirmed). */
    const cJSON *filter = store_jget(in, "ShardFilter");
    const char *child_of = filter ? jstr(filter, "ShardId") : NULL;
    if (filter && !jstr(filter, "Type"))
        return diag_set(d, ST_VALIDATION, "1 validation error detected: Value 'null' at 'shardFilter.type' failed"
                        " to satisfy constraint: Member must be CHILD_SHARDS");
    if (filter && !child_of)
        return diag_set(d, ST_VALIDATION, "1 validation error detected: Value null at 'shardFilter.shardId'"
                        " failed to satisfy constraint: Member must not be null");
    ddb_req req;
    ddb_req_init(&req, DDB_DESCRIBE_STREAM);
    ddb_req_set_str(&req.ctl.stream, jstr(in, "StreamArn"));
    ddb_req_set_str(&req.ctl.start_shard, jstr(in, "ExclusiveStartShardId"));
    ddb_req_set_str(&req.ctl.child_of, child_of);
    req.limit = sop_limit(in);
    st = sop_run(s, &req, out, d);
    ddb_req_done(&req);
    return st;
}

/* AWS's words, without the shard's id (its answers quoted in
 * ironSource/node-dynamodb-stream issue 16, 2021, and
 * amazon-archives/logstash-input-dynamodb issue 4, 2015). */
static status shard_not_found(diag *d)
{
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Shard does not exist");
}

static status trimmed(diag *d)
{
    return diag_set(d, ST_TRIMMED, "The operation attempted to read past the oldest stream record"
                    " in a shard.");
}

static char *iterator_of(const stream_row *r, int64_t pos, int64_t issued)
{
    buf b = BUF_INIT;
    stream_arn(&b, r->tname, r->label);
    buf_printf(&b, "|%" PRId64 "|%" PRId64 "|%" PRId64, r->sid, pos, issued);
    return buf_steal(&b);
}

/* The position a GetShardIterator of type asks, in stream r (read to
 * last). */
static status iterator_pos(const stream_row *r, const char *type, const char *seqtext, int64_t last,
                           int64_t *pos, diag *d)
{
    int64_t horizon = r->trimmed > r->start_seq ? r->trimmed : r->start_seq, seq = 0;
    if (strcmp(type, "TRIM_HORIZON") == 0) {
        *pos = horizon;
        return ST_OK;
    }
    if (strcmp(type, "LATEST") == 0) {
        *pos = last;
        return ST_OK;
    }
    if (!seq_parse(seqtext, &seq) || seq <= r->start_seq || seq > last)
        /* DynamoDB Local 3.3's words (AWS's are not published). */
        return diag_set(d, ST_VALIDATION, "Invalid SequenceNumber for the shard");
    /* "You request a shard iterator with a sequence number older than
     * the trim point" (GetShardIterator, TrimmedDataAccessException). */
    if (seq <= r->trimmed)
        return trimmed(d);
    *pos = strcmp(type, "AT_SEQUENCE_NUMBER") == 0 ? seq - 1 : seq;
    return ST_OK;
}

/* GetShardIterator, typed, inside its read transaction. */
static status iterator_typed(store *s, const ddb_req *req, ddb_streams_res *out, diag *d)
{
    stream_row r;
    status st = stream_by_arn(s, req->ctl.stream, &r, d);
    if (st != ST_OK)
        return st;
    char sid[80];
    shard_id(sid, sizeof sid, &r);
    int64_t pos = 0, last = 0;
    if (!req->ctl.shard || strcmp(req->ctl.shard, sid) != 0)
        st = shard_not_found(d);
    else if ((st = store_last_seq(s, r.tid, &last, d)) == ST_OK) {
        if (r.closed && r.end_seq < last)
            last = r.end_seq;
        st = iterator_pos(&r, req->ctl.iterator_type, req->ctl.seq, last, &pos, d);
    }
    if (st == ST_OK)
        out->iterator = iterator_of(&r, pos, store_now_ms(s));
    stream_row_done(&r);
    return st;
}

/* A SequenceNumber exactly with AT_ and AFTER_SEQUENCE_NUMBER: DynamoDB
 * Local 3.3's messages (AWS's are not published). */
static status iterator_check(const ddb_req *req, diag *d)
{
    const char *type = req->ctl.iterator_type;
    if (!req->ctl.stream || !type)
        return diag_set(d, ST_VALIDATION, "GetShardIterator needs a StreamArn and a ShardIteratorType");
    bool at = strcmp(type, "AT_SEQUENCE_NUMBER") == 0, after = strcmp(type, "AFTER_SEQUENCE_NUMBER") == 0;
    if ((at || after) && !req->ctl.seq)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Invalid SequenceNumber");
    if (!at && !after && req->ctl.seq)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: SequenceNumber should not"
                        " be passed for this iterator type");
    return ST_OK;
}

static status read_iterator(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->ctl.stream, jstr(in, "StreamArn"));
    ddb_req_set_str(&req->ctl.shard, jstr(in, "ShardId"));
    ddb_req_set_str(&req->ctl.iterator_type, jstr(in, "ShardIteratorType"));
    ddb_req_set_str(&req->ctl.seq, jstr(in, "SequenceNumber"));
    return ST_OK;
}

status store_op_get_shard_iterator(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = check_stream_arn(in, d);
    return st != ST_OK ? st : sop_door(s, in, iter_spec, DDB_GET_SHARD_ITERATOR, read_iterator, out, d);
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
static status record_of(ddb_record *rec, const stream_row *r, sqlite3_stmt *q, const char *const *names,
                        const size_t *lens, size_t n_keys, diag *d)
{
    int64_t seq = sqlite3_column_int64(q, 0), t = sqlite3_column_int64(q, 1);
    bool ttl = sqlite3_column_int(q, 2) != 0;
    bool has_old = sqlite3_column_type(q, 3) != SQLITE_NULL;
    bool has_new = sqlite3_column_type(q, 4) != SQLITE_NULL;
    av old = { .type = AV_NONE }, nw = { .type = AV_NONE };
    status st = ST_OK;
    if (has_old)
        st = itemenc_decode(sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3), &old, d);
    if (st == ST_OK && has_new)
        st = itemenc_decode(sqlite3_column_blob(q, 4), (size_t)sqlite3_column_bytes(q, 4), &nw, d);
    if (st == ST_OK) {
        int col = has_new ? 4 : 3;
        st = itemenc_decode_some(sqlite3_column_blob(q, col), (size_t)sqlite3_column_bytes(q, col),
                                 names, lens, n_keys, &rec->keys, d);
    }
    if (st != ST_OK) {
        av_done(&old);
        av_done(&nw);
        return st;
    }
    if (has_new && (strcmp(r->view, "NEW_IMAGE") == 0 || strcmp(r->view, "NEW_AND_OLD_IMAGES") == 0))
        av_move(&rec->new_image, &nw);
    if (has_old && (strcmp(r->view, "OLD_IMAGE") == 0 || strcmp(r->view, "NEW_AND_OLD_IMAGES") == 0))
        av_move(&rec->old_image, &old);
    av_done(&old);
    av_done(&nw);
    /* SizeBytes: the record's keys and images by DynamoDB's item size. */
    rec->size = store_item_size(&rec->keys) +
                (rec->new_image.type == AV_M ? store_item_size(&rec->new_image) : 0) +
                (rec->old_image.type == AV_M ? store_item_size(&rec->old_image) : 0);
    char id[33], seqs[32];
    event_id(id, r->sid, seq);
    seq_str(seqs, seq);
    rec->region = xstrdup(STORE_REGION);
    rec->created = (double)(t / 1000);
    rec->seq = xstrdup(seqs);
    rec->view = xstrdup(r->view);
    rec->event_id = xstrdup(id);
    rec->event_name = xstrdup(!has_old ? "INSERT" : !has_new ? "REMOVE" : "MODIFY");
    rec->event_source = xstrdup("aws:dynamodb");
    rec->event_version = xstrdup("1.1");
    /* Deletions by Time to Live carry the service as their identity
     * (Developer Guide, "Streams and Time to Live"). */
    if (ttl) {
        rec->principal = xstrdup("dynamodb.amazonaws.com");
        rec->identity_type = xstrdup("Service");
    }
    return ST_OK;
}

/* The records of stream r after pos, at most limit of them and 1 MB as
 * GetRecords prints them; *pos moves to the last one read, *full says a
 * limit stopped the reading. */
static status read_records(store *s, const stream_row *r, int64_t *pos, long limit, ddb_streams_res *out,
                           bool *full, diag *d)
{
    char names[2][256];
    const char *ptrs[2];
    size_t lens[2];
    size_t n_keys = key_names(r->keys, names, ptrs, lens);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT seq, t, ttl, old, new FROM changes WHERE tid = ?1"
                           " AND seq > ?2 AND seq <= ?3 AND (old IS NOT NULL OR new IS NOT NULL) AND ttl < 2"
                           " ORDER BY seq LIMIT ?4", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, r->tid);
    sqlite3_bind_int64(q, 2, *pos);
    sqlite3_bind_int64(q, 3, r->end_seq);
    sqlite3_bind_int64(q, 4, limit);
    /* The answer's size so far, as the door prints it: an answer of no
     * record without its closing "]}", and each record after a comma. */
    buf one = BUF_INIT;
    ddb_res none;
    ddb_res_init(&none);
    ddbres_streams_of(&none)->has_records = true;
    ddbres_streams_json(&none, &one);
    ddb_res_done(&none);
    size_t bytes = one.len - 2;
    status st = ST_OK;
    int rc;
    *full = false;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        ddb_record *rec = ddbres_streams_add_record(out);
        if ((st = record_of(rec, r, q, ptrs, lens, n_keys, d)) != ST_OK)
            break;
        *pos = sqlite3_column_int64(q, 0);
        if ((long)out->n_records == limit)
            *full = true;
        ddbres_streams_record_keep(rec, &one);
        bytes += rec->printed.len + (out->n_records > 1);
        if (bytes >= MAX_RECORDS_BYTES) {
            *full = true;
            break;
        }
    }
    if (st == ST_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    buf_done(&one);
    sqlite3_finalize(q);
    return st;
}

/* GetRecords, typed: its iterator read and checked, then (inside a read
 * transaction) the records after it. */
static status records_typed(store *s, const ddb_req *req, ddb_streams_res *out, diag *d)
{
    long limit = req->limit ? (long)req->limit : 1000;
    const char *it = req->ctl.iterator ? req->ctl.iterator : "";
    /* StreamArn|sid|pos|issued */
    const char *bar = strchr(it, '|');
    int64_t sidv = 0, pos = 0, issued = 0;
    char tail;
    if (!bar || sscanf(bar, "|%" SCNd64 "|%" SCNd64 "|%" SCNd64 "%c", &sidv, &pos, &issued, &tail) != 3)
        return diag_set(d, ST_VALIDATION, "Invalid ShardIterator");
    int64_t now = store_now_ms(s);
    if (now - issued > s->iterator_ms)
        return diag_set(d, ST_EXPIRED_ITERATOR, "Iterator expired. The iterator was created at time %"
                        PRId64 " while right now it is %" PRId64 " which is further in the future than"
                        " the tolerated delay of %" PRId64 " milliseconds.", issued, now, s->iterator_ms);
    status st = store_trim_before_read(s, d);
    if (st != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    stream_row r;
    bool found;
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
    bool full = false;
    st = pos < r.trimmed ? trimmed(d) : read_records(s, &r, &pos, limit, out, &full, d);
    out->has_records = true;
    /* A closed shard read to its end has no next iterator ("If set to
     * null, the shard has been closed and the requested iterator will not
     * return any more data"). */
    if (st == ST_OK && (!r.closed || full))
        out->next_iterator = iterator_of(&r, pos, now);
    stream_row_done(&r);
out:
    buf_done(&arn);
    return store_txn_end(s, st, d);
}

static status read_records_req(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->ctl.iterator, jstr(in, "ShardIterator"));
    req->limit = sop_limit(in);
    return ST_OK;
}

status store_op_get_records(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, records_spec, DDB_GET_RECORDS, read_records_req, out, d);
}

status store_streams_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    diag *d = &err->d;
    ddb_streams_res *out = ddbres_streams_new();
    status st = ST_OK;
    if (req->kind == DDB_GET_RECORDS) {
        st = records_typed(s, req, out, d);
    } else if (req->kind == DDB_GET_SHARD_ITERATOR && (st = iterator_check(req, d)) != ST_OK) {
        /* refused before any reading */
    } else if (req->kind == DDB_DESCRIBE_STREAM && !req->ctl.stream) {
        st = diag_set(d, ST_VALIDATION, "DescribeStream needs a StreamArn");
    } else if ((st = store_trim_before_read(s, d)) == ST_OK && (st = store_txn_begin(s, false, d)) == ST_OK) {
        st = req->kind == DDB_DESCRIBE_STREAM ? describe_typed(s, req, out, d) : iterator_typed(s, req, out, d);
        st = store_txn_end(s, st, d);
    }
    if (st == ST_OK) {
        ddbres_streams_free(res->streams);
        res->streams = out;
    } else {
        ddbres_streams_free(out);
    }
    return st;
}

bool store_is_streams_op(const char *op)
{
    return ddb_op_kind_of(op) == 's';
}
