/* The backup kinds typed inside the store (issue 41): store_exec of
 * CreateBackup, DescribeBackup, ListBackups, RestoreTableFromBackup and
 * DeleteBackup on a local store answers in res.backups
 * (model/ddbres_backups.h), with the semantic refusals' messages; the
 * JSON door's answer is the printer's (ddbres_backups_json) of the same
 * typed answer, byte for byte; and a printed answer read back
 * (store_codec_read, as a remote store reads its endpoint's) prints the
 * same again. The members and their meaning are the API reference's
 * (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
 * RestoreTableFromBackup); the values expected are the ones
 * tests/data/test_backup.c pins through the JSON door. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "data/store_int.h"
#include "model/ddbreq.h"
#include "model/ddbres_backups.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"

/* Tab: provisioned 5/7, pk/sk, a GSI on g (INCLUDE n, 3/4) and an LSI on
 * l (KEYS_ONLY), a stream, TTL on exp. */
#define TABLE_TAB \
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PROVISIONED\"," \
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":7}," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"l\",\"AttributeType\":\"N\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}]," \
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"n\"]}," \
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":4}}]," \
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"LSI1\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}," \
    "{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]," \
    "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"}}"

static void make_tab(store *s)
{
    ok(s, "CreateTable", TABLE_TAB);
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},"
                     "\"g\":{\"S\":\"x\"},\"l\":{\"N\":\"5\"}}}");
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"}}}");
    ok(s, "UpdateTimeToLive", "{\"TableName\":\"Tab\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
                              "\"AttributeName\":\"exp\"}}");
}

static status exec(store *s, ddb_req *r, ddb_res *res, ddb_err *err)
{
    ddb_res_init(res);
    ddb_err_init(err);
    status st = store_exec(s, r, res, err);
    ddb_req_done(r);
    return st;
}

static char *printed(ddb_kind kind, const ddb_res *res)
{
    buf out = BUF_INIT;
    ddbres_backups_json(kind, res, &out);
    return buf_steal(&out);
}

/* The printed answer read back as a remote answer is, and printed again:
 * the same text. */
static void round_trip(ddb_kind kind, const char *text)
{
    cJSON *root = cJSON_Parse(text);
    assert_non_null(root);
    ddb_res res;
    ddb_res_init(&res);
    diag d;
    diag_init(&d);
    assert_int_equal(store_codec_read(root, &res, &d), ST_OK);
    cJSON_Delete(root);
    assert_non_null(res.backups);
    char *again = printed(kind, &res);
    assert_string_equal(again, text);
    free(again);
    ddb_res_done(&res);
}

static char *create(store *s, const char *name)
{
    ddb_req r;
    ddb_req_init(&r, DDB_CREATE_BACKUP);
    ddb_req_set_str(&r.table, "Tab");
    ddb_req_set_str(&r.ctl.backup_name, name);
    ddb_res res;
    ddb_err err;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_non_null(res.backups);
    assert_int_equal(res.backups->n_backups, 1);
    const ddb_backup *b = &res.backups->backups[0];
    assert_string_equal(b->name, name);
    assert_string_equal(b->status, "CREATING");
    assert_false(b->system);
    assert_true(b->created_ms > 0);
    /* Names and values (tests/data/test_backup.c's sizes): a/1 pk 3, sk 3,
     * g 2, l 3 (a number of one digit: 2 bytes) = 11; b/1 6. */
    assert_int_equal(b->bytes, 17);
    char *arn = strdup(b->arn);
    assert_int_equal(strncmp(arn, "arn:aws:dynamodb:us-east-1:000000000000:table/Tab/backup/", 57), 0);
    char *text = printed(DDB_CREATE_BACKUP, &res);
    round_trip(DDB_CREATE_BACKUP, text);
    free(text);
    ddb_res_done(&res);
    ddb_err_done(&err);
    return arn;
}

static void describe_typed(void **state)
{
    store *s = *state;
    make_tab(s);
    char *arn = create(s, "one");
    ddb_req r;
    ddb_req_init(&r, DDB_DESCRIBE_BACKUP);
    ddb_req_set_str(&r.ctl.backup_arn, arn);
    ddb_res res;
    ddb_err err;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    const ddb_backup *b = &res.backups->backups[0];
    assert_string_equal(b->arn, arn);
    assert_string_equal(b->status, "AVAILABLE");
    assert_string_equal(b->table, "Tab");
    assert_string_equal(b->table_arn, "arn:aws:dynamodb:us-east-1:000000000000:table/Tab");
    assert_non_null(b->table_id);
    assert_int_equal(b->items, 2);
    assert_string_equal(b->billing, "PROVISIONED");
    assert_int_equal(b->pt.rcu, 5);
    assert_int_equal(b->pt.wcu, 7);
    assert_string_equal(b->def.pk.name, "pk");
    assert_string_equal(b->def.sk.name, "sk");
    assert_int_equal(b->def.n_idx, 2);
    for (size_t i = 0; i < 2; i++) {
        const index_def *ix = &b->def.idx[i];
        if (ix->global) {
            assert_string_equal(ix->name, "GSI1");
            assert_int_equal(ix->proj, PROJ_INCLUDE);
            assert_int_equal(b->idx_pt[i].rcu, 3);
            assert_int_equal(b->idx_pt[i].wcu, 4);
        } else {
            assert_string_equal(ix->name, "LSI1");
            assert_string_equal(ix->sk.name, "l");
        }
    }
    assert_string_equal(b->stream_view, "NEW_IMAGE");
    assert_string_equal(b->ttl_attr, "exp");
    assert_false(b->no_features);

    /* The JSON door's answer is the printer's, byte for byte. */
    char body[256], *text = printed(DDB_DESCRIBE_BACKUP, &res);
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    ok(s, "DescribeBackup", body);
    assert_string_equal(out_text, text);
    round_trip(DDB_DESCRIBE_BACKUP, text);
    free(text);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* Not there: BackupNotFoundException, the door's message. */
    char *wrong = strdup(arn);
    wrong[strlen(wrong) - 1] = wrong[strlen(wrong) - 1] == '0' ? '1' : '0';
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", wrong);
    status want = call(s, "DescribeBackup", body);
    assert_int_not_equal(want, ST_OK);
    ddb_req_init(&r, DDB_DESCRIBE_BACKUP);
    ddb_req_set_str(&r.ctl.backup_arn, wrong);
    assert_int_equal(exec(s, &r, &res, &err), want);
    assert_string_equal(ddb_err_message(&err), out_text);
    assert_null(res.backups);
    ddb_res_done(&res);
    ddb_err_done(&err);
    free(wrong);
    free(arn);
}

static void list_typed(void **state)
{
    store *s = *state;
    make_tab(s);
    char *first = create(s, "one");
    char *second = create(s, "two");
    ddb_req r;
    ddb_req_init(&r, DDB_LIST_BACKUPS);
    ddb_req_set_str(&r.table, "Tab");
    r.limit = 1;
    ddb_res res;
    ddb_err err;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.backups->n_backups, 1);
    assert_string_equal(res.backups->backups[0].arn, first);
    assert_string_equal(res.backups->backups[0].status, "AVAILABLE");
    assert_string_equal(res.backups->last_arn, first);
    char *text = printed(DDB_LIST_BACKUPS, &res);
    ok(s, "ListBackups", "{\"TableName\":\"Tab\",\"Limit\":1}");
    assert_string_equal(out_text, text);
    round_trip(DDB_LIST_BACKUPS, text);
    free(text);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* The next page: the second, and the end. */
    ddb_req_init(&r, DDB_LIST_BACKUPS);
    ddb_req_set_str(&r.ctl.start_name, first);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.backups->n_backups, 1);
    assert_string_equal(res.backups->backups[0].arn, second);
    assert_null(res.backups->last_arn);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* AWS_BACKUP: none here, an empty list. */
    ddb_req_init(&r, DDB_LIST_BACKUPS);
    ddb_req_set_str(&r.ctl.backup_type, "AWS_BACKUP");
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.backups->n_backups, 0);
    text = printed(DDB_LIST_BACKUPS, &res);
    assert_string_equal(text, "{\"BackupSummaries\":[]}");
    free(text);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* The bounds the wrong way round: the semantic refusal, typed. */
    ddb_req_init(&r, DDB_LIST_BACKUPS);
    r.ctl.from_ms = 2000000;
    r.ctl.to_ms = 1000000;
    assert_int_equal(exec(s, &r, &res, &err), ST_VALIDATION);
    assert_string_equal(ddb_err_message(&err), "Time range lower bound must be less than or equal to upper bound");
    refused(s, "ListBackups", "{\"TimeRangeLowerBound\":2000,\"TimeRangeUpperBound\":1000}", ST_VALIDATION,
            ddb_err_message(&err));
    ddb_res_done(&res);
    ddb_err_done(&err);
    free(first);
    free(second);
}

static void restore_and_delete_typed(void **state)
{
    store *s = *state;
    make_tab(s);
    char *arn = create(s, "one");
    /* Keep the LSI only (ddbx's own restore: def, both lists). */
    ddb_req r;
    ddb_req_init(&r, DDB_RESTORE_FROM_BACKUP);
    ddb_req_set_str(&r.ctl.backup_arn, arn);
    ddb_req_set_str(&r.ctl.target, "Copy");
    r.ctl.def = calloc(1, sizeof *r.ctl.def);
    r.ctl.def->idx = calloc(1, sizeof *r.ctl.def->idx);
    r.ctl.def->n_idx = 1;
    index_def *lsi = &r.ctl.def->idx[0];
    lsi->name = strdup("LSI1");
    lsi->pk.name = strdup("pk");
    lsi->sk.name = strdup("l");
    lsi->proj = PROJ_KEYS_ONLY;
    ddb_res res;
    ddb_err err;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_non_null(res.backups);
    assert_string_equal(res.backups->restored_from, arn);
    cJSON *td = cJSON_Parse(res.backups->table_desc);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(td, "TableName")), "Copy");
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(td, "TableStatus")), "CREATING");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(td, "LocalSecondaryIndexes")), 1);
    assert_null(cJSON_GetObjectItem(td, "GlobalSecondaryIndexes"));
    cJSON_Delete(td);
    char *text = printed(DDB_RESTORE_FROM_BACKUP, &res);
    round_trip(DDB_RESTORE_FROM_BACKUP, text);
    free(text);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ok(s, "DescribeTable", "{\"TableName\":\"Copy\"}");

    /* Again onto the same name: the door's refusal, typed. */
    ddb_req_init(&r, DDB_RESTORE_FROM_BACKUP);
    ddb_req_set_str(&r.ctl.backup_arn, arn);
    ddb_req_set_str(&r.ctl.target, "Copy");
    status st = exec(s, &r, &res, &err);
    assert_int_not_equal(st, ST_OK);
    char body[256];
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\",\"TargetTableName\":\"Copy\"}", arn);
    assert_int_equal(call(s, "RestoreTableFromBackup", body), st);
    assert_string_equal(ddb_err_message(&err), out_text);
    ddb_res_done(&res);
    ddb_err_done(&err);

    ddb_req_init(&r, DDB_DELETE_BACKUP);
    ddb_req_set_str(&r.ctl.backup_arn, arn);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_string_equal(res.backups->backups[0].status, "DELETED");
    assert_string_equal(res.backups->backups[0].name, "one");
    text = printed(DDB_DELETE_BACKUP, &res);
    round_trip(DDB_DELETE_BACKUP, text);
    free(text);
    ddb_res_done(&res);
    ddb_err_done(&err);
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    assert_int_not_equal(call(s, "DescribeBackup", body), ST_OK);
    free(arn);
}

/* The door reads the overrides into the typed request; an index given in
 * a form no source index has (a RANGE before the HASH, NonKeyAttributes
 * with KEYS_ONLY) still matches none, as when the door compared the JSON
 * as given ("Index N does not match a secondary index that existed in the
 * source table ...", DynamoDB's words as store_backup_api.c quotes them);
 * the same index in its own form is restored. */
static void restore_overrides_as_given(void **state)
{
    store *s = *state;
    make_tab(s);
    char *arn = create(s, "one");
    static const char *const odd[] = {
        "[{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"},{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],"
        "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}",
        "[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"}],"
        "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\",\"NonKeyAttributes\":[\"z\"]}",
    };
    char body[1024];
    for (size_t i = 0; i < 2; i++) {
        snprintf(body, sizeof body, "{\"BackupArn\":\"%s\",\"TargetTableName\":\"Odd\","
                 "\"LocalSecondaryIndexOverride\":[{\"IndexName\":\"LSI1\",\"KeySchema\":%s}]}", arn, odd[i]);
        refused(s, "RestoreTableFromBackup", body, ST_VALIDATION,
                "Index LSI1 does not match a secondary index that existed in the source table and cannot be"
                " created during the restore operation");
    }
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\",\"TargetTableName\":\"Even\","
             "\"BillingModeOverride\":\"PROVISIONED\","
             "\"ProvisionedThroughputOverride\":{\"ReadCapacityUnits\":9,\"WriteCapacityUnits\":8},"
             "\"LocalSecondaryIndexOverride\":[],\"GlobalSecondaryIndexOverride\":[{\"IndexName\":\"Renamed\","
             "\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
             "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"n\"]},"
             "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":2,\"WriteCapacityUnits\":3}}]}", arn);
    ok(s, "RestoreTableFromBackup", body);
    cJSON *o = cJSON_Parse(out_text), *td = cJSON_GetObjectItem(o, "TableDescription");
    assert_null(cJSON_GetObjectItem(td, "LocalSecondaryIndexes"));
    cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItem(td, "GlobalSecondaryIndexes"), 0);
    assert_string_equal(cJSON_GetStringValue(cJSON_GetObjectItem(g, "IndexName")), "Renamed");
    cJSON *pt = cJSON_GetObjectItem(g, "ProvisionedThroughput");
    assert_int_equal(cJSON_GetObjectItem(pt, "ReadCapacityUnits")->valueint, 2);
    assert_int_equal(cJSON_GetObjectItem(pt, "WriteCapacityUnits")->valueint, 3);
    pt = cJSON_GetObjectItem(td, "ProvisionedThroughput");
    assert_int_equal(cJSON_GetObjectItem(pt, "ReadCapacityUnits")->valueint, 9);
    cJSON_Delete(o);
    free(arn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(describe_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(list_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(restore_and_delete_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(restore_overrides_as_given, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
