/*
 * test_pitr — point-in-time recovery through store_call:
 * UpdateContinuousBackups, DescribeContinuousBackups,
 * RestoreTableToPointInTime; the change log it runs on (bulk writes, the
 * retention, the window), the SYSTEM backup of a deleted table and its
 * expiry, and the schema version 6 migration.
 *
 * Sources as in test_backup.c: [API] the API reference, [DG] the
 * developer guide ("Point-in-time recovery", "Delete a table with PITR
 * enabled"), [OBS] DynamoDB's answers as observed (ack-api-quirks
 * notes), [DDBX] ddbx's choices (README).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <math.h>
#include <sqlite3.h>
#include <time.h>

#include "data/store.h"
#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/ddbjson.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"
#include "tests/data/backuptest.h"

#define ARN_HEAD "arn:aws:dynamodb:us-east-1:000000000000:table/"
#define TABLE(name, extra) \
    "{\"TableName\":\"" name "\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"},{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}]," \
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}]" extra "}"
#define PITR_ON(name) "{\"TableName\":\"" name "\",\"PointInTimeRecoverySpecification\":{\"PointInTimeRecoveryEnabled\":true}}"
#define PUT(t, pk, sk, extra) "{\"TableName\":\"" t "\",\"Item\":{\"pk\":{\"S\":\"" pk "\"},\"sk\":{\"N\":\"" sk "\"}" extra "}}"
#define DEL(t, pk, sk) "{\"TableName\":\"" t "\",\"Key\":{\"pk\":{\"S\":\"" pk "\"},\"sk\":{\"N\":\"" sk "\"}}}"

static status restore_at(store *s, const char *source, const char *target, int64_t at)
{
    char body[256];
    snprintf(body, sizeof body, "{\"SourceTableName\":\"%s\",\"TargetTableName\":\"%s\",\"RestoreDateTime\":%.3f}",
             source, target, (double)at / 1000.0);
    return call(s, "RestoreTableToPointInTime", body);
}

/* The items a moment reader gives, pages of `page`, as Scan's JSON. */
static char *read_at(store *s, const char *table, int64_t at, size_t page)
{
    store_items *r;
    diag d;
    diag_init(&d);
    assert_int_equal(store_items_at(s, table, at, NULL, &r, &d), ST_OK);
    char *t = drain(r, page);
    store_items_free(r);
    return t;
}

/* [API] DescribeContinuousBackups / UpdateContinuousBackups answer a
 * ContinuousBackupsDescription; RecoveryPeriodInDays 1..35, 35 when not
 * given. [OBS] ContinuousBackupsStatus ENABLED on an ACTIVE table; while
 * recovery is disabled PointInTimeRecoveryDescription has only its status;
 * enabling again keeps EarliestRestorableDateTime, disabling then
 * enabling restarts it and the period goes back to 35; "Invalid Request:
 * Cannot specify RecoveryPeriodInDays when disabling point-in-time
 * recovery."; "Table not found: T" (TableNotFoundException). [DDBX]
 * LatestRestorableDateTime is now. */
static void test_settings(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Tab", ""));
    ok(s, "DescribeContinuousBackups", "{\"TableName\":\"Tab\"}");
    assert_string_equal(out_text, "{\"ContinuousBackupsDescription\":{\"ContinuousBackupsStatus\":\"ENABLED\","
                                  "\"PointInTimeRecoveryDescription\":{\"PointInTimeRecoveryStatus\":\"DISABLED\"}}}");
    int64_t before = now_ms();
    ok(s, "UpdateContinuousBackups", PITR_ON("Tab"));
    cJSON *o = answer();
    const cJSON *p = get(o, "ContinuousBackupsDescription.PointInTimeRecoveryDescription");
    assert_string_equal(cJSON_GetStringValue(get(p, "PointInTimeRecoveryStatus")), "ENABLED");
    assert_int_equal(get(p, "RecoveryPeriodInDays")->valueint, 35);
    double earliest = get(p, "EarliestRestorableDateTime")->valuedouble;
    double latest = get(p, "LatestRestorableDateTime")->valuedouble;
    assert_true(earliest * 1000 >= (double)before - 1 && earliest <= latest);
    cJSON_Delete(o);
    pause_ms(5);
    ok(s, "UpdateContinuousBackups", "{\"TableName\":\"" ARN_HEAD "Tab\",\"PointInTimeRecoverySpecification\":"
                                     "{\"PointInTimeRecoveryEnabled\":true,\"RecoveryPeriodInDays\":7}}");
    o = answer();
    p = get(o, "ContinuousBackupsDescription.PointInTimeRecoveryDescription");
    assert_int_equal(get(p, "RecoveryPeriodInDays")->valueint, 7);
    assert_true(get(p, "EarliestRestorableDateTime")->valuedouble == earliest);
    assert_true(get(p, "LatestRestorableDateTime")->valuedouble > latest);
    cJSON_Delete(o);
    refused(s, "UpdateContinuousBackups", "{\"TableName\":\"Tab\",\"PointInTimeRecoverySpecification\":"
            "{\"PointInTimeRecoveryEnabled\":true,\"RecoveryPeriodInDays\":36}}", ST_VALIDATION,
            "1 validation error detected: Value '36' at 'pointInTimeRecoverySpecification.recoveryPeriodInDays'"
            " failed to satisfy constraint: Member must have value less than or equal to 35");
    refused(s, "UpdateContinuousBackups", "{\"TableName\":\"Tab\",\"PointInTimeRecoverySpecification\":"
            "{\"PointInTimeRecoveryEnabled\":false,\"RecoveryPeriodInDays\":7}}", ST_VALIDATION,
            "Invalid Request: Cannot specify RecoveryPeriodInDays when disabling point-in-time recovery.");
    refused(s, "UpdateContinuousBackups", "{\"TableName\":\"Tab\"}", ST_VALIDATION,
            "1 validation error detected: Value null at 'pointInTimeRecoverySpecification' failed to satisfy"
            " constraint: Member must not be null");
    refused(s, "UpdateContinuousBackups", "{\"TableName\":\"Tab\",\"PointInTimeRecoverySpecification\":{}}",
            ST_VALIDATION, "1 validation error detected: Value null at"
            " 'pointInTimeRecoverySpecification.pointInTimeRecoveryEnabled' failed to satisfy constraint: Member"
            " must not be null");
    refused(s, "UpdateContinuousBackups", PITR_ON("Nope"), ST_TABLE_NOT_FOUND, "Table not found: Nope");
    refused(s, "DescribeContinuousBackups", "{\"TableName\":\"Nope\"}", ST_TABLE_NOT_FOUND, "Table not found: Nope");
    ok(s, "UpdateContinuousBackups", "{\"TableName\":\"Tab\",\"PointInTimeRecoverySpecification\":"
                                     "{\"PointInTimeRecoveryEnabled\":false}}");
    assert_string_equal(out_text, "{\"ContinuousBackupsDescription\":{\"ContinuousBackupsStatus\":\"ENABLED\","
                                  "\"PointInTimeRecoveryDescription\":{\"PointInTimeRecoveryStatus\":\"DISABLED\"}}}");
    pause_ms(5);
    ok(s, "UpdateContinuousBackups", PITR_ON("Tab"));
    o = answer();
    p = get(o, "ContinuousBackupsDescription.PointInTimeRecoveryDescription");
    assert_int_equal(get(p, "RecoveryPeriodInDays")->valueint, 35);
    assert_true(get(p, "EarliestRestorableDateTime")->valuedouble > earliest);
    cJSON_Delete(o);
    /* the typed calls see the same */
    store_pitr st;
    diag d;
    diag_init(&d);
    assert_int_equal(store_pitr_get(s, "Tab", &st, &d), ST_OK);
    assert_true(st.enabled);
    assert_int_equal(st.days, 35);
    assert_true(st.earliest_ms <= st.latest_ms);
    assert_int_equal(store_pitr_set(s, "Tab", false, 0, &d), ST_OK);
    assert_int_equal(store_pitr_get(s, "Tab", &st, &d), ST_OK);
    assert_false(st.enabled);
}

/* [API] RestoreTableToPointInTime restores "your table data to the state
 * based on the selected date and time" into a new table, with the
 * source's current indexes and billing; [DG] every change committed up to
 * the moment and none after. Checked at three moments against the table
 * as Scan read it then, for the restore and for the moment reader, with
 * puts, updates, deletes and a re-put of a deleted key between them. */
static void test_restore_to_moments(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Tab", ""));
    ok(s, "PutItem", PUT("Tab", "a", "1", ",\"g\":{\"S\":\"x\"},\"v\":{\"N\":\"1\"}"));
    ok(s, "PutItem", PUT("Tab", "a", "2", ",\"v\":{\"N\":\"1\"}"));
    ok(s, "UpdateContinuousBackups", PITR_ON("Tab"));
    int64_t t1 = moment();
    char *at1 = scan_items(s, "Tab");
    ok(s, "UpdateItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}},"
                        "\"UpdateExpression\":\"SET v = :v, g = :g\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"2\"},"
                        "\":g\":{\"S\":\"z\"}}}");
    ok(s, "DeleteItem", DEL("Tab", "a", "2"));
    ok(s, "BatchWriteItem", "{\"RequestItems\":{\"Tab\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"b\"},"
                            "\"sk\":{\"N\":\"1\"},\"g\":{\"S\":\"x\"}}}},{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"c\"},"
                            "\"sk\":{\"N\":\"-1.5\"}}}}]}}");
    int64_t t2 = moment();
    char *at2 = scan_items(s, "Tab");
    ok(s, "TransactWriteItems", "{\"TransactItems\":[{\"Put\":{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"a\"},"
                                "\"sk\":{\"N\":\"2\"},\"v\":{\"S\":\"again\"}}}},{\"Delete\":{\"TableName\":\"Tab\","
                                "\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}}]}");
    ok(s, "PutItem", PUT("Tab", "b", "1", ",\"g\":{\"S\":\"y\"}"));
    int64_t t3 = moment();
    char *at3 = scan_items(s, "Tab");
    ok(s, "DeleteItem", DEL("Tab", "c", "-1.5"));
    char *now = scan_items(s, "Tab");
    const int64_t ts[3] = { t1, t2, t3 };
    char *const want[3] = { at1, at2, at3 };
    for (int i = 0; i < 3; i++) {
        char target[16];
        snprintf(target, sizeof target, "At%d", i + 1);
        if (restore_at(s, "Tab", target, ts[i]) != ST_OK)
            fail_msg("restore to moment %d: %s", i + 1, out_text);
        cJSON *o = answer();
        assert_string_equal(cJSON_GetStringValue(get(o, "TableDescription.RestoreSummary.SourceTableArn")),
                            ARN_HEAD "Tab");
        assert_null(get(o, "TableDescription.RestoreSummary.SourceBackupArn"));
        assert_true(llround(get(o, "TableDescription.RestoreSummary.RestoreDateTime")->valuedouble * 1000) == ts[i]);
        cJSON_Delete(o);
        char *got = scan_items(s, target);
        assert_string_equal(got, want[i]);
        free(got);
        index_consistent(s, target);
        for (size_t page = 1; page <= 3; page++) {
            char *r = read_at(s, "Tab", ts[i], page);
            assert_string_equal(r, want[i]);
            free(r);
        }
    }
    ok(s, "RestoreTableToPointInTime", "{\"SourceTableArn\":\"" ARN_HEAD "Tab\",\"TargetTableName\":\"Latest\","
                                       "\"UseLatestRestorableTime\":true}");
    char *got = scan_items(s, "Latest");
    assert_string_equal(got, now);
    free(got);
    /* the restored tables' GSI, rebuilt from their items */
    ok(s, "Query", "{\"TableName\":\"At2\",\"IndexName\":\"GSI1\",\"KeyConditionExpression\":\"g = :g\","
                   "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}}}");
    assert_non_null(strstr(out_text, "\"Count\":1"));
    free(at1);
    free(at2);
    free(at3);
    free(now);
}

/* [OBS] the order and wording of the refusals: the request's shape
 * ("Must provide exactly one of: sourceTableArn, sourceTableName";
 * "Invalid Request: Either one of RestoreDateTime or
 * UseLatestRestorableTime must be specified, but not both"; "Invalid
 * Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set
 * for point-in-time restore request. Pleas..."), then recovery enabled
 * ("Point in time recovery is not enabled for table 'T'",
 * PointInTimeRecoveryUnavailableException, even when the target exists),
 * then the time ("RestoreDateTime '...' must be within
 * EarliestRestorableDateTime '...' and LatestRestorableDateTime '...'",
 * InvalidRestoreTimeException), then the target ("Table already exists:
 * T"); a missing source "Table not found: T". No refusal leaves a table. */
/* The window a restore may ask for is the RecoveryPeriodInDays (API
 * reference, PointInTimeRecoverySpecification: "the number of preceding
 * days for which continuous backups are taken ... 1 to 35"): enabled ten
 * days ago with a period of 1 day, the earliest restorable time is a day
 * ago; of 35, it is when recovery was enabled (or the log's start). */
static void test_recovery_period_window(void **state)
{
    (void)state;
    const int64_t day = 24LL * 3600 * 1000, now = 1800000000000LL;
    store_hist h = { .complete = 0, .pitr = true, .pitr_since = now - 10 * day, .days = 1 };
    assert_true(store_pitr_earliest(&h, now) == now - day);
    h.days = 35;
    assert_true(store_pitr_earliest(&h, now) == now - 10 * day);
    h.complete = now - 2 * day;
    assert_true(store_pitr_earliest(&h, now) == now - 2 * day);
}

static void test_refusals(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Tab", ""));
    ok(s, "CreateTable", TABLE("Off", ""));
    ok(s, "UpdateContinuousBackups", PITR_ON("Tab"));
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Tab\",\"SourceTableArn\":\"" ARN_HEAD "Tab\","
            "\"TargetTableName\":\"New\",\"UseLatestRestorableTime\":true}", ST_VALIDATION,
            "Must provide exactly one of: sourceTableArn, sourceTableName");
    refused(s, "RestoreTableToPointInTime", "{\"TargetTableName\":\"New\",\"UseLatestRestorableTime\":true}",
            ST_VALIDATION, "The parameter 'TableName' is required but was not present in the request");
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Tab\",\"TargetTableName\":\"New\"}", ST_VALIDATION,
            "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both");
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Tab\",\"TargetTableName\":\"New\","
            "\"UseLatestRestorableTime\":false}", ST_VALIDATION,
            "Invalid Request: Either one of RestoreDateTime or UseLatestRestorableTime must be specified, but not both");
    char body[512];
    snprintf(body, sizeof body, "{\"SourceTableName\":\"Tab\",\"TargetTableName\":\"New\",\"UseLatestRestorableTime\":true,"
             "\"RestoreDateTime\":%.3f}", (double)now_ms() / 1000);
    refused(s, "RestoreTableToPointInTime", body, ST_VALIDATION,
            "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime cannot be set for point-in-time restore"
            " request. Please specify either RestoreDateTime time or UseLatestRestorableTime");
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Off\",\"TargetTableName\":\"Tab\","
            "\"UseLatestRestorableTime\":true}", ST_PITR_UNAVAILABLE,
            "Point in time recovery is not enabled for table 'Off'");
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Nope\",\"TargetTableName\":\"Tab\","
            "\"UseLatestRestorableTime\":true}", ST_TABLE_NOT_FOUND, "Table not found: Nope");
    assert_int_equal(restore_at(s, "Tab", "Tab", now_ms() - 3600 * 1000), ST_INVALID_RESTORE_TIME);
    assert_int_equal(strncmp(out_text, "RestoreDateTime '", 17), 0);
    assert_non_null(strstr(out_text, "' must be within EarliestRestorableDateTime '"));
    assert_non_null(strstr(out_text, "' and LatestRestorableDateTime '"));
    assert_int_equal(restore_at(s, "Tab", "New", now_ms() + 60 * 1000), ST_INVALID_RESTORE_TIME);
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Tab\",\"TargetTableName\":\"Tab\","
            "\"UseLatestRestorableTime\":true}", ST_TABLE_EXISTS, "Table already exists: Tab");
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableArn\":\"Tab\",\"TargetTableName\":\"New\","
            "\"UseLatestRestorableTime\":true}", ST_VALIDATION, "sourceTableArn is not a valid ARN");
    refused(s, "RestoreTableToPointInTime", "{\"SourceTableName\":\"Tab\",\"TargetTableName\":\"a b\","
            "\"UseLatestRestorableTime\":true}", ST_VALIDATION,
            "1 validation error detected: Value 'a b' at 'targetTableName' failed to satisfy constraint: Member"
            " must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
    refused(s, "DescribeTable", "{\"TableName\":\"New\"}", ST_NOT_FOUND, "Requested resource not found: Table: New not found");
}

/* [DDBX] with recovery enabled the bulk interface (ddbx load, samples,
 * pull) logs what undoing needs (old image and key, records no stream or
 * feed shows), so a moment before a load is restorable;
 * without it a load leaves no record, so the log holds every change only
 * from the load on, and earlier moments are refused rather than rebuilt
 * wrong. */
static void test_bulk_writes(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Rec", ""));
    ok(s, "CreateTable", TABLE("Plain", ""));
    ok(s, "PutItem", PUT("Rec", "a", "1", ",\"v\":{\"N\":\"1\"}"));
    ok(s, "PutItem", PUT("Plain", "a", "1", ",\"v\":{\"N\":\"1\"}"));
    ok(s, "UpdateContinuousBackups", PITR_ON("Rec"));
    int64_t before = moment();
    char *want = scan_items(s, "Rec");
    diag d;
    diag_init(&d);
    assert_int_equal(store_begin(s, &d), ST_OK);
    for (int i = 0; i < 50; i++) {
        char text[160];
        snprintf(text, sizeof text, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"%d\"},\"g\":{\"S\":\"k%d\"}}", i % 25, i);
        av item;
        assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
        assert_int_equal(store_put_item(s, "Rec", &item, &d), ST_OK);
        assert_int_equal(store_put_item(s, "Plain", &item, &d), ST_OK);
        av_done(&item);
    }
    assert_int_equal(store_commit(s, &d), ST_OK);
    int64_t after = now_ms();
    assert_int_equal(restore_at(s, "Rec", "RecBefore", before), ST_OK);
    char *got = scan_items(s, "RecBefore");
    assert_string_equal(got, want);
    free(got);
    got = read_at(s, "Rec", before, 4);
    assert_string_equal(got, want);
    free(got);
    /* Plain: its log is complete only from the load's commit */
    int64_t from, to;
    assert_int_equal(store_log_window(s, "Plain", &from, &to, &d), ST_OK);
    assert_true(from >= before && from <= after && to >= from);
    store_items *r;
    assert_int_equal(store_items_at(s, "Plain", before, NULL, &r, &d), ST_INVALID_RESTORE_TIME);
    assert_non_null(strstr(d.msg, "Plain's change log holds every change only from"));
    /* Rec's is whole */
    assert_int_equal(store_log_window(s, "Rec", &from, &to, &d), ST_OK);
    assert_true(from < before);
    /* the load's records are history only: the feed (as a stream) shows
     * the one PutItem, as it would without recovery */
    store_change c[4];
    size_t n;
    assert_int_equal(store_changes(s, "Rec", 0, 4, c, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    store_change_free(&c[0]);
    free(want);
}

/* [DG] records are kept for the recovery period (1 to 35 days) while
 * recovery is enabled; a stream still reads only its retention (24 hours;
 * here --stream-retention 1 s): TRIM_HORIZON starts after the records
 * past it. A table without recovery loses them, and with them the moments
 * before. */
static void test_retention(void **state)
{
    store *s = *state;
    store_set_stream_times(s, 1.0, 0);
    ok(s, "CreateTable", TABLE("Rec", ",\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"}"));
    ok(s, "CreateTable", TABLE("Plain", ""));
    ok(s, "UpdateContinuousBackups", PITR_ON("Rec"));
    int64_t t0 = moment();
    ok(s, "PutItem", PUT("Rec", "a", "1", ""));
    ok(s, "PutItem", PUT("Plain", "a", "1", ""));
    int64_t t1 = moment();
    char *rec_t1 = scan_items(s, "Rec");
    pause_ms(1100);
    ok(s, "PutItem", PUT("Rec", "b", "1", ""));
    /* a stream read trims first (store_trim_before_read) */
    ok(s, "DescribeTable", "{\"TableName\":\"Rec\"}");
    cJSON *o = answer();
    char *sarn = strdup(cJSON_GetStringValue(get(o, "Table.LatestStreamArn")));
    cJSON_Delete(o);
    char body[512];
    snprintf(body, sizeof body, "{\"StreamArn\":\"%s\"}", sarn);
    ok(s, "DescribeStream", body);
    o = answer();
    char *shard = strdup(cJSON_GetStringValue(get(o, "StreamDescription.Shards.0.ShardId")));
    cJSON_Delete(o);
    snprintf(body, sizeof body, "{\"StreamArn\":\"%s\",\"ShardId\":\"%s\",\"ShardIteratorType\":\"TRIM_HORIZON\"}", sarn,
             shard);
    ok(s, "GetShardIterator", body);
    o = answer();
    snprintf(body, sizeof body, "{\"ShardIterator\":\"%s\"}", cJSON_GetStringValue(get(o, "ShardIterator")));
    cJSON_Delete(o);
    ok(s, "GetRecords", body);
    o = answer();
    /* the stream: only b (a is past the 1 s retention) */
    assert_int_equal(cJSON_GetArraySize(get(o, "Records")), 1);
    assert_string_equal(cJSON_GetStringValue(get(o, "Records.0.dynamodb.NewImage.pk.S")), "b");
    cJSON_Delete(o);
    /* the log: both, so the moments before are there */
    store_change c[4];
    size_t n;
    diag d;
    diag_init(&d);
    assert_int_equal(store_changes(s, "Rec", 0, 4, c, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    for (size_t i = 0; i < n; i++)
        store_change_free(&c[i]);
    assert_int_equal(restore_at(s, "Rec", "RecT1", t1), ST_OK);
    char *got = scan_items(s, "RecT1");
    assert_string_equal(got, rec_t1);
    free(got);
    assert_int_equal(restore_at(s, "Rec", "RecT0", t0), ST_OK);
    got = scan_items(s, "RecT0");
    assert_string_equal(got, "[]");
    free(got);
    /* Plain's record went, and with it the moments before it */
    assert_int_equal(store_changes(s, "Plain", 0, 4, c, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    int64_t from, to;
    assert_int_equal(store_log_window(s, "Plain", &from, &to, &d), ST_OK);
    assert_true(from >= t0);
    free(sarn);
    free(shard);
    free(rec_t1);
}

/* [DG] "When you delete a table that has point-in-time recovery enabled,
 * DynamoDB automatically creates a backup snapshot called a system backup
 * and retains it for 35 days", named TABLE$DeletedTableBackup; [API]
 * BackupType SYSTEM, BackupExpiryDateTime; [OBS] the ARN ends
 * -00000000, ListBackups shows it only for BackupType SYSTEM or ALL, its
 * SourceTableFeatureDetails is {}, DeleteBackup is refused "User is not
 * allowed to delete the system backup with arn ARN. It will automatically
 * expire on TIME"; none for a table without recovery. [DDBX] its items
 * stay where they were (no copy); past its expiry it is gone from the
 * answers at once and its rows in bounded trim steps. */
static void test_system_backup(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Tab", ""));
    ok(s, "CreateTable", TABLE("Off", ""));
    for (int i = 0; i < 30; i++) {
        char body[160];
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"},"
                 "\"g\":{\"S\":\"g%d\"}}}", i % 3, i, i % 2);
        ok(s, "PutItem", body);
    }
    char *want = scan_items(s, "Tab");
    ok(s, "UpdateContinuousBackups", PITR_ON("Tab"));
    ok(s, "DeleteTable", "{\"TableName\":\"Tab\"}");
    ok(s, "DeleteTable", "{\"TableName\":\"Off\"}");
    ok(s, "ListBackups", "{}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    ok(s, "ListBackups", "{\"BackupType\":\"ALL\"}");
    cJSON *o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 1);
    const cJSON *b = get(o, "BackupSummaries.0");
    assert_string_equal(cJSON_GetStringValue(get(b, "BackupName")), "Tab$DeletedTableBackup");
    assert_string_equal(cJSON_GetStringValue(get(b, "BackupType")), "SYSTEM");
    char *arn = strdup(cJSON_GetStringValue(get(b, "BackupArn")));
    assert_string_equal(arn + strlen(arn) - 9, "-00000000");
    double created = get(b, "BackupCreationDateTime")->valuedouble;
    assert_int_equal(llround((get(b, "BackupExpiryDateTime")->valuedouble - created) * 1000), 35LL * 24 * 3600 * 1000);
    cJSON_Delete(o);
    char body[512];
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    ok(s, "DescribeBackup", body);
    o = answer();
    assert_int_equal(get(o, "BackupDescription.SourceTableDetails.ItemCount")->valueint, 30);
    assert_null(get(o, "BackupDescription.SourceTableFeatureDetails")->child);
    cJSON_Delete(o);
    assert_int_equal(call(s, "DeleteBackup", body), ST_VALIDATION);
    char head[512];
    snprintf(head, sizeof head, "User is not allowed to delete the system backup with arn %s. It will"
             " automatically expire on 20", arn);
    assert_int_equal(strncmp(out_text, head, strlen(head)), 0);
    snprintf(body, sizeof body, "{\"TargetTableName\":\"Tab\",\"BackupArn\":\"%s\"}", arn);
    ok(s, "RestoreTableFromBackup", body);
    char *got = scan_items(s, "Tab");
    assert_string_equal(got, want);
    free(got);
    index_consistent(s, "Tab");
    /* the deleted table's 30 item rows are the backup's */
    long long rows = sql_number("SELECT count(*) FROM items WHERE tid = (SELECT tid FROM backups WHERE type = 1)");
    assert_int_equal(rows, 30);
    /* Expired: gone from the answers at once, its rows in trim steps. */
    sql_exec("UPDATE backups SET expires = 1 WHERE type = 1");
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    refused(s, "DescribeBackup", body, ST_BACKUP_NOT_FOUND, (snprintf(head, sizeof head, "Backup not found: %s", arn), head));
    for (int i = 0; i < 70; i++)   /* a trim step every 64 write transactions */
        ok(s, "PutItem", PUT("Tab", "t", "1", ""));
    assert_int_equal(sql_number("SELECT count(*) FROM backups"), 0);
    assert_int_equal(sql_number("SELECT count(*) FROM items i WHERE NOT EXISTS (SELECT 1 FROM tables t"
                               " WHERE t.id = i.tid)"), 0);
    free(arn);
    free(want);
}

/* Tab with one item, in a file made a version 5 one (no backups, no
 * history) and closed. */
static void to_version_5(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Tab", ""));
    ok(s, "PutItem", PUT("Tab", "a", "1", ""));
    store_close(s);
    *state = NULL;
    sql_exec("DROP TABLE backups; DROP TABLE history; UPDATE meta SET value = 5 WHERE key = 'schema'");
}

/* [OWN] a version 5 file: read-only it is read as it is (no backups, no
 * recovery, nothing written); writable it gains the tables, at version 6,
 * its tables' logs complete from the upgrade on (what bulk writes did
 * before left no trace). */
static void test_migration(void **state)
{
    store *s;
    to_version_5(state);
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, STORE_READ_ONLY, &s, &d), ST_OK);
    ok(s, "ListBackups", "{}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    ok(s, "DescribeContinuousBackups", "{\"TableName\":\"Tab\"}");
    assert_non_null(strstr(out_text, "\"PointInTimeRecoveryStatus\":\"DISABLED\""));
    assert_int_equal(call(s, "UpdateContinuousBackups", PITR_ON("Tab")), ST_READ_ONLY);
    assert_int_equal(call(s, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"bkp\"}"), ST_READ_ONLY);
    store_items *r;
    assert_int_equal(store_items_at(s, "Tab", now_ms(), NULL, &r, &d), ST_USAGE);
    store_close(s);
    assert_int_equal(sql_number("SELECT value FROM meta WHERE key = 'schema'"), 5);
    int64_t before = now_ms();
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    *state = s;
    assert_int_equal(sql_number("SELECT value FROM meta WHERE key = 'schema'"), 6);
    assert_int_equal(sql_number("SELECT count(*) FROM history"), 1);
    assert_true(sql_number("SELECT complete FROM history") >= before);
    ok(s, "UpdateContinuousBackups", PITR_ON("Tab"));
    ok(s, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"bkp\"}");
    /* opening again changes nothing */
    long long complete = sql_number("SELECT complete FROM history");
    store_close(s);
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    *state = s;
    assert_int_equal(sql_number("SELECT complete FROM history"), complete);
}

/* [OWN] a read-only connection (the explorer's --read-only, `serve
 * --read-only`) opened on a version 5 file before a writer opens it (and
 * upgrades it to 6, making the backups and history tables), turns
 * recovery on and takes a backup: the reader lists and describes the
 * backup, says recovery is ENABLED and reads the table's past, as any
 * connection opened after the upgrade does; not "no backups" for as long
 * as it lives because the tables were not there when it opened. */
static void test_reader_before_history(void **state)
{
    to_version_5(state);
    store *r, *w;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, STORE_READ_ONLY, &r, &d), ST_OK);
    ok(r, "ListBackups", "{}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    assert_int_equal(store_open(path, 0, &w, &d), ST_OK);
    *state = w;
    assert_int_equal(sql_number("SELECT value FROM meta WHERE key = 'schema'"), 6);
    ok(w, "UpdateContinuousBackups", PITR_ON("Tab"));
    ok(w, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"bkp\"}");
    cJSON *o = answer();
    char *arn = strdup(cJSON_GetStringValue(get(o, "BackupDetails.BackupArn")));
    cJSON_Delete(o);
    ok(r, "ListBackups", "{}");
    o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 1);
    assert_string_equal(cJSON_GetStringValue(get(o, "BackupSummaries.0.BackupName")), "bkp");
    cJSON_Delete(o);
    char body[512];
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    ok(r, "DescribeBackup", body);
    assert_non_null(strstr(out_text, "\"ItemCount\":1,"));
    ok(r, "DescribeContinuousBackups", "{\"TableName\":\"Tab\"}");
    assert_non_null(strstr(out_text, "\"PointInTimeRecoveryStatus\":\"ENABLED\""));
    ok(w, "PutItem", PUT("Tab", "b", "2", ""));
    char *past = read_at(r, "Tab", now_ms(), 10);
    char *now = scan_items(w, "Tab");
    assert_string_equal(past, now);
    /* and it stays read-only */
    assert_int_equal(call(r, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"two\"}"), ST_READ_ONLY);
    free(past);
    free(now);
    free(arn);
    store_close(r);
}

static int teardown_maybe(void **state)
{
    if (*state)
        store_close(*state);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_settings, setup, teardown),
    cmocka_unit_test_setup_teardown(test_restore_to_moments, setup, teardown),
    cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
    cmocka_unit_test(test_recovery_period_window),
    cmocka_unit_test_setup_teardown(test_bulk_writes, setup, teardown),
    cmocka_unit_test_setup_teardown(test_retention, setup, teardown),
    cmocka_unit_test_setup_teardown(test_system_backup, setup, teardown),
    cmocka_unit_test_setup_teardown(test_migration, setup, teardown_maybe),
    cmocka_unit_test_setup_teardown(test_reader_before_history, setup, teardown_maybe),
};

int main(void)
{
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
