/* ddbreq: the names of a request's enumerated members, both ways, and
 * the reason codes of failed actions (the API reference's enum values:
 * ReturnValue, Select, ReturnConsumedCapacity; CancellationReason.Code
 * and BatchStatementError.Code), and the request bodies of the kinds
 * ddbx sends for its own control-plane, PartiQL, Streams and backup
 * calls. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbreq.h"

static void enum_names_read_back(void **state)
{
    (void)state;
    for (ddb_rv rv = DDB_RV_NONE; rv <= DDB_RV_UPDATED_NEW; rv++)
        assert_int_equal(ddb_rv_find(ddb_rv_name(rv)), rv);
    for (ddb_select s = DDB_SELECT_ALL; s <= DDB_SELECT_COUNT; s++)
        assert_int_equal(ddb_select_find(ddb_select_name(s)), s);
    assert_int_equal(ddb_rv_find("UPDATED_NEW"), DDB_RV_UPDATED_NEW);
    assert_int_equal(ddb_select_find("ALL_PROJECTED_ATTRIBUTES"), DDB_SELECT_PROJECTED);
    assert_int_equal(ddb_rcc_find("TOTAL"), DDB_RCC_TOTAL);
    assert_int_equal(ddb_rcc_find("INDEXES"), DDB_RCC_INDEXES);
}

static void absent_or_unknown_names_are_the_default(void **state)
{
    (void)state;
    assert_int_equal(ddb_rv_find(NULL), DDB_RV_NONE);
    assert_int_equal(ddb_rv_find("all_old"), DDB_RV_NONE);
    assert_int_equal(ddb_select_find(NULL), DDB_SELECT_DEFAULT);
    assert_int_equal(ddb_select_find("EVERYTHING"), DDB_SELECT_DEFAULT);
    assert_int_equal(ddb_rcc_find(NULL), DDB_RCC_NONE);
    assert_int_equal(ddb_rcc_find("NONE"), DDB_RCC_NONE);
    assert_int_equal(ddb_rcc_find("total"), DDB_RCC_NONE);
}

static void failed_actions_have_dynamodb_reason_codes(void **state)
{
    (void)state;
    assert_string_equal(ddb_reason_code(ST_OK), "None");
    assert_string_equal(ddb_reason_code(ST_CONDITION_FAILED), "ConditionalCheckFailed");
    assert_string_equal(ddb_reason_code(ST_VALIDATION), "ValidationError");
    assert_string_equal(ddb_reason_code(ST_DUPLICATE_ITEM), "DuplicateItem");
    assert_string_equal(ddb_reason_code(ST_NOT_FOUND), "ResourceNotFound");
    assert_string_equal(ddb_reason_code(ST_TXN_CONFLICT), "TransactionConflict");
    assert_string_equal(ddb_reason_code(ST_IO), "InternalServerError");
}

static char *body(const ddb_req *r)
{
    buf b = BUF_INIT;
    ddb_req_json(r, &b);
    return buf_steal(&b);
}

static void set_key(key_attr *k, const char *name, av_type t)
{
    k->name = strdup(name);
    k->type = t;
}

/* The control-plane bodies ddbx sends: the members and their order are
 * those the store's C calls wrote by hand before (CreateTable as
 * store_create_table built it, UpdateTable as store_create_index and
 * store_delete_index did, UpdateTimeToLive as store_ttl_set did,
 * ExecuteStatement as store_partiql_page did), which the API reference's
 * request shapes name. */
static void control_plane_bodies(void **state)
{
    (void)state;
    ddb_req r;
    ddb_req_init(&r, DDB_CREATE_TABLE);
    table_def *def = r.ctl.def = calloc(1, sizeof *def);
    def->name = strdup("Music");
    set_key(&def->pk, "PK", AV_S);
    set_key(&def->sk, "SK", AV_S);
    def->n_idx = 2;
    def->idx = calloc(2, sizeof *def->idx);
    def->idx[0].name = strdup("ByDate");
    set_key(&def->idx[0].pk, "PK", AV_S);
    set_key(&def->idx[0].sk, "date", AV_N);
    def->idx[0].proj = PROJ_INCLUDE;
    def->idx[0].n_include = 1;
    def->idx[0].include = calloc(1, sizeof(char *));
    def->idx[0].include[0] = strdup("title");
    def->idx[1].name = strdup("GSI1");
    def->idx[1].global = true;
    set_key(&def->idx[1].pk, "GSI1PK", AV_S);
    set_key(&def->idx[1].sk, "SK", AV_S);
    char *t = body(&r);
    assert_string_equal(t, "{\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
                           "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
                           "{\"AttributeName\":\"date\",\"AttributeType\":\"N\"},"
                           "{\"AttributeName\":\"GSI1PK\",\"AttributeType\":\"S\"}],"
                           "\"TableName\":\"Music\",\"BillingMode\":\"PAY_PER_REQUEST\","
                           "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
                           "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
                           "\"LocalSecondaryIndexes\":[{\"IndexName\":\"ByDate\",\"KeySchema\":["
                           "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
                           "{\"AttributeName\":\"date\",\"KeyType\":\"RANGE\"}],"
                           "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"title\"]}}],"
                           "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":["
                           "{\"AttributeName\":\"GSI1PK\",\"KeyType\":\"HASH\"},"
                           "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
                           "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}");
    free(t);
    /* A deep copy prints the same. */
    ddb_req c;
    ddb_req_copy(&c, &r);
    ddb_req_done(&r);
    t = body(&c);
    assert_non_null(strstr(t, "\"NonKeyAttributes\":[\"title\"]"));
    free(t);
    ddb_req_done(&c);

    ddb_req_init(&r, DDB_UPDATE_TABLE);
    r.table = strdup("Music");
    index_def *g = r.ctl.gsi = calloc(1, sizeof *g);
    g->name = strdup("ByArtist");
    g->global = true;
    set_key(&g->pk, "artist", AV_S);
    g->proj = PROJ_KEYS_ONLY;
    r.ctl.rcu = 5;
    r.ctl.wcu = 2;
    t = body(&r);
    assert_string_equal(t, "{\"TableName\":\"Music\",\"AttributeDefinitions\":[{\"AttributeName\":\"artist\","
                           "\"AttributeType\":\"S\"}],\"GlobalSecondaryIndexUpdates\":[{\"Create\":{"
                           "\"IndexName\":\"ByArtist\",\"KeySchema\":[{\"AttributeName\":\"artist\","
                           "\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},"
                           "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":2}}}]}");
    free(t);
    ddb_req_done(&r);
    ddb_req_init(&r, DDB_UPDATE_TABLE);
    r.table = strdup("Music");
    r.index = strdup("ByArtist");
    t = body(&r);
    assert_string_equal(t, "{\"TableName\":\"Music\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{"
                           "\"IndexName\":\"ByArtist\"}}]}");
    free(t);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_UPDATE_TTL);
    r.table = strdup("Music");
    r.ctl.ttl_attr = strdup("expires");
    t = body(&r);
    assert_string_equal(t, "{\"TableName\":\"Music\",\"TimeToLiveSpecification\":{\"AttributeName\":"
                           "\"expires\",\"Enabled\":false}}");
    free(t);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_EXECUTE);
    r.ctl.statement = strdup("SELECT * FROM \"Music\" WHERE PK = ?");
    av_init_list(&r.ctl.params, AV_L);
    av p;
    av_init_s(&p, "s#1", 3);
    av_list_push(&r.ctl.params, &p);
    r.limit = 10;
    r.ctl.next_token = strdup("tok");
    r.rcc = DDB_RCC_TOTAL;
    t = body(&r);
    assert_string_equal(t, "{\"Statement\":\"SELECT * FROM \\\"Music\\\" WHERE PK = ?\","
                           "\"Parameters\":[{\"S\":\"s#1\"}],\"Limit\":10,\"NextToken\":\"tok\","
                           "\"ReturnConsumedCapacity\":\"TOTAL\"}");
    free(t);
    buf cli = BUF_INIT;
    ddb_req_cli(&r, &cli);
    assert_string_equal(cli.data, "aws dynamodb execute-statement --cli-input-json '{\"Statement\":"
                                  "\"SELECT * FROM \\\"Music\\\" WHERE PK = ?\",\"Parameters\":[{\"S\":"
                                  "\"s#1\"}],\"Limit\":10,\"NextToken\":\"tok\",\"ReturnConsumedCapacity\":"
                                  "\"TOTAL\"}'");
    buf_done(&cli);
    /* An INSERT, UPDATE or DELETE may ask for the item as it is when its
     * condition fails (the API reference: ExecuteStatement's
     * ReturnValuesOnConditionCheckFailure, ALL_OLD or NONE). */
    r.rv_fail_all_old = true;
    t = body(&r);
    assert_non_null(strstr(t, ",\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\""));
    free(t);
    ddb_req_done(&r);
}

/* The remote backend's own reads and the Streams feed's requests. */
static void listing_and_stream_bodies(void **state)
{
    (void)state;
    ddb_req r;
    ddb_req_init(&r, DDB_LIST_TABLES);
    char *t = body(&r);
    assert_string_equal(t, "{}");
    free(t);
    r.ctl.start_name = strdup("Music");
    t = body(&r);
    assert_string_equal(t, "{\"ExclusiveStartTableName\":\"Music\"}");
    free(t);
    ddb_req_done(&r);
    static const ddb_kind by_table[] = { DDB_DESCRIBE_TABLE, DDB_DELETE_TABLE, DDB_DESCRIBE_TTL };
    for (int i = 0; i < 3; i++) {
        ddb_req_init(&r, by_table[i]);
        r.table = strdup("Music");
        t = body(&r);
        assert_string_equal(t, "{\"TableName\":\"Music\"}");
        free(t);
        ddb_req_done(&r);
    }
    ddb_req_init(&r, DDB_GET_SHARD_ITERATOR);
    r.ctl.stream = strdup("arn:s");
    r.ctl.shard = strdup("sh-1");
    r.ctl.iterator_type = strdup("TRIM_HORIZON");
    t = body(&r);
    assert_string_equal(t, "{\"StreamArn\":\"arn:s\",\"ShardId\":\"sh-1\",\"ShardIteratorType\":"
                           "\"TRIM_HORIZON\"}");
    free(t);
    ddb_req_done(&r);
    ddb_req_init(&r, DDB_GET_RECORDS);
    r.ctl.iterator = strdup("it");
    t = body(&r);
    assert_string_equal(t, "{\"ShardIterator\":\"it\"}");
    free(t);
    ddb_req_done(&r);
    assert_string_equal(ddb_op_name(ddb_kind_op(DDB_DESCRIBE_STREAM)), "DescribeStream");
    assert_string_equal(ddb_op_name(ddb_kind_op(DDB_UPDATE_TTL)), "UpdateTimeToLive");
    assert_true(ddb_kind_is_ctl(DDB_EXECUTE));
    assert_false(ddb_kind_is_ctl(DDB_TRANSACT_WRITE));
}

/* `ddbx push`'s CreateTable: a provisioned table keeps its throughput
 * and each GSI's, and its stream (the API reference's CreateTable request
 * syntax: BillingMode PROVISIONED with ProvisionedThroughput, each
 * GlobalSecondaryIndexes entry's ProvisionedThroughput, StreamSpecification
 * with StreamEnabled and StreamViewType; a local index has none). */
static void provisioned_create_table_body(void **state)
{
    (void)state;
    ddb_req r;
    ddb_req_init(&r, DDB_CREATE_TABLE);
    table_def *def = r.ctl.def = calloc(1, sizeof *def);
    def->name = strdup("Songs");
    set_key(&def->pk, "PK", AV_S);
    def->n_idx = 3;
    def->idx = calloc(3, sizeof *def->idx);
    const char *names[] = { "G1", "L1", "G2" };
    for (int i = 0; i < 3; i++) {
        def->idx[i].name = strdup(names[i]);
        def->idx[i].global = i != 1;
        set_key(&def->idx[i].pk, i == 1 ? "PK" : "g", AV_S);
        def->idx[i].proj = PROJ_KEYS_ONLY;
    }
    set_key(&def->idx[1].sk, "n", AV_N);
    r.ctl.rcu = 5;
    r.ctl.wcu = 3;
    r.ctl.stream_view = strdup("NEW_AND_OLD_IMAGES");
    char *t = body(&r);
    const char *want_head = "{\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
                            "{\"AttributeName\":\"g\",\"AttributeType\":\"S\"},"
                            "{\"AttributeName\":\"n\",\"AttributeType\":\"N\"}],"
                            "\"TableName\":\"Songs\",\"BillingMode\":\"PROVISIONED\","
                            "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":3},"
                            "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}],"
                            "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G1\",\"KeySchema\":["
                            "{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
                            "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},";
    const char *want_tail = "\"LocalSecondaryIndexes\":[{\"IndexName\":\"L1\",\"KeySchema\":["
                            "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
                            "{\"AttributeName\":\"n\",\"KeyType\":\"RANGE\"}],"
                            "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
                            "\"StreamSpecification\":{\"StreamEnabled\":true,"
                            "\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}}";
    buf want = BUF_INIT;
    /* Without a throughput of their own, the GSIs take the table's. */
    buf_printf(&want, "%s\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":3}},"
                      "{\"IndexName\":\"G2\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
                      "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},"
                      "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":3}}],%s",
               want_head, want_tail);
    assert_string_equal(t, want.data);
    free(t);
    /* Each GSI's own, by its place in def->idx (L1's entry unused). */
    r.ctl.idx_pt = calloc(3, sizeof *r.ctl.idx_pt);
    r.ctl.idx_pt[0] = (ddb_pt){ 1, 2 };
    r.ctl.idx_pt[2] = (ddb_pt){ 7, 8 };
    buf_reset(&want);
    buf_printf(&want, "%s\"ProvisionedThroughput\":{\"ReadCapacityUnits\":1,\"WriteCapacityUnits\":2}},"
                      "{\"IndexName\":\"G2\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
                      "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},"
                      "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":7,\"WriteCapacityUnits\":8}}],%s",
               want_head, want_tail);
    t = body(&r);
    assert_string_equal(t, want.data);
    free(t);
    /* A copy owns its throughputs and stream. */
    ddb_req c;
    ddb_req_copy(&c, &r);
    ddb_req_done(&r);
    t = body(&c);
    assert_string_equal(t, want.data);
    free(t);
    ddb_req_done(&c);
    buf_done(&want);
}

/* The backup requests (the API reference's request syntax of
 * CreateBackup: TableName, BackupName; ListBackups: TableName,
 * BackupType, TimeRangeLowerBound and TimeRangeUpperBound in seconds,
 * ExclusiveStartBackupArn, Limit; DescribeBackup and DeleteBackup:
 * BackupArn; RestoreTableFromBackup: TargetTableName, BackupArn, and the
 * index overrides, entries of IndexName, KeySchema and Projection). */
static void backup_bodies(void **state)
{
    (void)state;
    ddb_req r;
    ddb_req_init(&r, DDB_CREATE_BACKUP);
    r.table = strdup("Music");
    r.ctl.backup_name = strdup("before-import");
    char *t = body(&r);
    assert_string_equal(t, "{\"TableName\":\"Music\",\"BackupName\":\"before-import\"}");
    free(t);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_LIST_BACKUPS);
    t = body(&r);
    assert_string_equal(t, "{}");
    free(t);
    r.table = strdup("Music");
    r.ctl.backup_type = strdup("ALL");
    r.ctl.from_ms = 1700000000123;
    r.ctl.to_ms = 1700000100000;
    r.ctl.start_name = strdup("arn:b1");
    r.limit = 100;
    t = body(&r);
    assert_string_equal(t, "{\"TableName\":\"Music\",\"BackupType\":\"ALL\",\"TimeRangeLowerBound\":1700000000.123,"
                           "\"TimeRangeUpperBound\":1700000100,\"ExclusiveStartBackupArn\":\"arn:b1\","
                           "\"Limit\":100}");
    free(t);
    r.ctl.from_ms = 1700000000120;
    r.ctl.to_ms = 1700000000001;
    t = body(&r);
    assert_non_null(strstr(t, "\"TimeRangeLowerBound\":1700000000.12,\"TimeRangeUpperBound\":1700000000.001,"));
    free(t);
    ddb_req_done(&r);

    static const ddb_kind by_arn[] = { DDB_DESCRIBE_BACKUP, DDB_DELETE_BACKUP };
    static const char *const ops[] = { "DescribeBackup", "DeleteBackup" };
    for (int i = 0; i < 2; i++) {
        ddb_req_init(&r, by_arn[i]);
        r.ctl.backup_arn = strdup("arn:b1");
        t = body(&r);
        assert_string_equal(t, "{\"BackupArn\":\"arn:b1\"}");
        free(t);
        assert_string_equal(ddb_op_name(ddb_kind_op(by_arn[i])), ops[i]);
        ddb_req_done(&r);
    }

    ddb_req_init(&r, DDB_RESTORE_FROM_BACKUP);
    r.ctl.target = strdup("Copy");
    r.ctl.backup_arn = strdup("arn:b1");
    t = body(&r);
    assert_string_equal(t, "{\"TargetTableName\":\"Copy\",\"BackupArn\":\"arn:b1\"}");
    free(t);
    /* Overrides keeping no index: both lists, empty. */
    r.ctl.def = calloc(1, sizeof *r.ctl.def);
    t = body(&r);
    assert_string_equal(t, "{\"TargetTableName\":\"Copy\",\"BackupArn\":\"arn:b1\","
                           "\"GlobalSecondaryIndexOverride\":[],\"LocalSecondaryIndexOverride\":[]}");
    free(t);
    table_def *def = r.ctl.def;
    def->n_idx = 1;
    def->idx = calloc(1, sizeof *def->idx);
    def->idx[0].name = strdup("ByDate");
    set_key(&def->idx[0].pk, "PK", AV_NONE);
    set_key(&def->idx[0].sk, "date", AV_NONE);
    def->idx[0].proj = PROJ_INCLUDE;
    def->idx[0].n_include = 1;
    def->idx[0].include = calloc(1, sizeof(char *));
    def->idx[0].include[0] = strdup("title");
    t = body(&r);
    assert_string_equal(t, "{\"TargetTableName\":\"Copy\",\"BackupArn\":\"arn:b1\","
                           "\"GlobalSecondaryIndexOverride\":[],\"LocalSecondaryIndexOverride\":["
                           "{\"IndexName\":\"ByDate\",\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
                           "{\"AttributeName\":\"date\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":"
                           "\"INCLUDE\",\"NonKeyAttributes\":[\"title\"]}}]}");
    free(t);
    ddb_req c;
    ddb_req_copy(&c, &r);
    ddb_req_done(&r);
    buf cli = BUF_INIT;
    ddb_req_cli(&c, &cli);
    assert_string_equal(cli.data, "aws dynamodb restore-table-from-backup --cli-input-json '{\"TargetTableName\":"
                                  "\"Copy\",\"BackupArn\":\"arn:b1\",\"GlobalSecondaryIndexOverride\":[],"
                                  "\"LocalSecondaryIndexOverride\":[{\"IndexName\":\"ByDate\",\"KeySchema\":"
                                  "[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"date\","
                                  "\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"INCLUDE\","
                                  "\"NonKeyAttributes\":[\"title\"]}}]}'");
    buf_done(&cli);
    ddb_req_done(&c);
    assert_true(ddb_kind_is_ctl(DDB_RESTORE_FROM_BACKUP));
    assert_string_equal(ddb_op_name(ddb_kind_op(DDB_CREATE_BACKUP)), "CreateBackup");
    assert_string_equal(ddb_op_name(ddb_kind_op(DDB_LIST_BACKUPS)), "ListBackups");
    assert_string_equal(ddb_op_name(ddb_kind_op(DDB_RESTORE_FROM_BACKUP)), "RestoreTableFromBackup");
}

/* PartiQL adds up the ConsumedCapacity of the reads and writes a
 * statement makes: per table, its total, the table's share and each
 * index's. */
static void capacities_add_up_per_table_and_index(void **state)
{
    (void)state;
    ddb_res a, b;
    ddb_res_init(&a);
    ddb_res_init(&b);
    ddb_cap *c = ddb_res_cap(&b, "Music");
    c->units = 3;
    c->table_units = 1;
    c->idx = calloc(2, sizeof *c->idx);
    c->idx[0] = (ddb_cap_index){ strdup("GSI1"), true, 1.5 };
    c->idx[1] = (ddb_cap_index){ strdup("ByDate"), false, 0.5 };
    c->n_idx = 2;
    ddb_res_cap(&b, "Other")->units = 0.5;
    ddb_res_add_caps(&a, &b);
    ddb_res_add_caps(&a, &b);
    assert_int_equal(a.n_caps, 2);
    assert_string_equal(a.caps[0].table, "Music");
    assert_true(a.caps[0].units == 6 && a.caps[0].table_units == 2);
    assert_int_equal(a.caps[0].n_idx, 2);
    assert_string_equal(a.caps[0].idx[0].name, "GSI1");
    assert_true(a.caps[0].idx[0].global && a.caps[0].idx[0].units == 3);
    assert_true(!a.caps[0].idx[1].global && a.caps[0].idx[1].units == 1);
    assert_true(ddb_res_units(&a) == 7);
    ddb_res_done(&a);
    ddb_res_done(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enum_names_read_back),
        cmocka_unit_test(absent_or_unknown_names_are_the_default),
        cmocka_unit_test(failed_actions_have_dynamodb_reason_codes),
        cmocka_unit_test(control_plane_bodies),
        cmocka_unit_test(listing_and_stream_bodies),
        cmocka_unit_test(provisioned_create_table_body),
        cmocka_unit_test(backup_bodies),
        cmocka_unit_test(capacities_add_up_per_table_and_index),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
