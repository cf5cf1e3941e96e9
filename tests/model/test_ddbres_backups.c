/* ddbres_backups: the backup kinds' answers printed from their typed form,
 * members in the order the JSON door has always answered (the API
 * reference's BackupDetails, SourceTableDetails, SourceTableFeatureDetails
 * and BackupSummary; tests/data/test_backup.c pins the values through the
 * door), numbers as the door printed them (whole, or the shortest of 15
 * or 17 digits that reads back), a SYSTEM backup's features {} (observed,
 * store_backup_api.c), and a restore's TableDescription as given. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbres_backups.h"
#include "model/mem.h"

#define ARN "arn:aws:dynamodb:us-east-1:000000000000:table/T/backup/01796536209289-1350d3de"

/* T: pk/sk, an LSI on l (KEYS_ONLY) and a GSI on g (INCLUDE n, 3/4). */
static ddb_backup *one(ddb_res *res, bool system)
{
    ddb_backup *b = ddbres_backups_add(ddbres_backups_of(res));
    b->arn = xstrdup(ARN);
    b->name = xstrdup("bk1");
    b->bytes = 11;
    b->status = xstrdup("AVAILABLE");
    b->system = system;
    b->created_ms = 1796536209289;
    b->expires_ms = system ? 1799560209321 : 0;
    b->table = xstrdup("T");
    b->table_arn = xstrdup("arn:aws:dynamodb:us-east-1:000000000000:table/T");
    b->table_bytes = 11;
    b->table_created = 1796536209.25;
    b->pt = (ddb_pt){ 5, 7 };
    b->items = 1;
    b->billing = xstrdup("PROVISIONED");
    b->def.name = xstrdup("T");
    b->def.pk.name = xstrdup("pk");
    b->def.sk.name = xstrdup("sk");
    b->def.idx = xcalloc(2, sizeof *b->def.idx);
    b->def.n_idx = 2;
    b->def.idx[0] = (index_def){ .name = xstrdup("L1"), .pk.name = xstrdup("pk"), .sk.name = xstrdup("l"),
                                 .proj = PROJ_KEYS_ONLY };
    b->def.idx[1] = (index_def){ .name = xstrdup("G1"), .global = true, .pk.name = xstrdup("g"),
                                 .proj = PROJ_INCLUDE, .include = xcalloc(1, sizeof(char *)), .n_include = 1 };
    b->def.idx[1].include[0] = xstrdup("n");
    b->idx_pt = xcalloc(2, sizeof *b->idx_pt);
    b->idx_pt[1] = (ddb_pt){ 3, 4 };
    b->no_features = system;
    b->stream_view = xstrdup("NEW_IMAGE");
    b->ttl_attr = xstrdup("exp");
    return b;
}

static char *printed(ddb_kind kind, const ddb_res *res)
{
    buf out = BUF_INIT;
    ddbres_backups_json(kind, res, &out);
    return buf_steal(&out);
}

#define DETAILS \
    "\"BackupArn\":\"" ARN "\",\"BackupName\":\"bk1\",\"BackupSizeBytes\":11,\"BackupStatus\":\"AVAILABLE\"," \
    "\"BackupType\":\"USER\",\"BackupCreationDateTime\":1796536209.289"

static void description_in_order(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    one(&res, false);
    char *text = printed(DDB_DESCRIBE_BACKUP, &res);
    assert_string_equal(text,
        "{\"BackupDescription\":{\"BackupDetails\":{" DETAILS "},"
        "\"SourceTableDetails\":{\"TableName\":\"T\",\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/T\","
        "\"TableSizeBytes\":11,\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
        "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"TableCreationDateTime\":1796536209.25,"
        "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":7},\"ItemCount\":1,"
        "\"BillingMode\":\"PROVISIONED\"},"
        "\"SourceTableFeatureDetails\":{\"LocalSecondaryIndexes\":[{\"IndexName\":\"L1\",\"KeySchema\":["
        "{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"}],"
        "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
        "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G1\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
        "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"n\"]},"
        "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":4}}],"
        "\"StreamDescription\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"},"
        "\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"ENABLED\",\"AttributeName\":\"exp\"}}}}");
    free(text);
    /* CreateBackup: BackupDetails alone. */
    text = printed(DDB_CREATE_BACKUP, &res);
    assert_string_equal(text, "{\"BackupDetails\":{" DETAILS "}}");
    free(text);
    ddb_res_done(&res);
    assert_null(res.backups);
}

static void system_backup_and_list(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    one(&res, true);
    char *text = printed(DDB_DELETE_BACKUP, &res);
    /* The expiry after the creation; no features. */
    assert_non_null(strstr(text, "\"BackupType\":\"SYSTEM\",\"BackupCreationDateTime\":1796536209.289,"
                                 "\"BackupExpiryDateTime\":1799560209.321}"));
    assert_non_null(strstr(text, "\"SourceTableFeatureDetails\":{}}}"));
    free(text);
    one(&res, false);
    res.backups->last_arn = xstrdup(ARN);
    text = printed(DDB_LIST_BACKUPS, &res);
    /* A summary: the table's names, then the details' members. */
    assert_string_equal(strchr(text, '}') + 1,
        ",{\"TableName\":\"T\",\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/T\"," DETAILS "}],"
        "\"LastEvaluatedBackupArn\":\"" ARN "\"}");
    static const char head[] = "{\"BackupSummaries\":[{\"TableName\":\"T\",";
    assert_int_equal(strncmp(text, head, sizeof head - 1), 0);
    free(text);
    ddb_res_done(&res);
}

static void restore_and_nothing(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    char *text = printed(DDB_DESCRIBE_BACKUP, &res);
    assert_string_equal(text, "{}");
    free(text);
    ddbres_backups_of(&res)->table_desc = xstrdup("{\"TableName\":\"Copy\",\"TableStatus\":\"CREATING\"}");
    text = printed(DDB_RESTORE_FROM_BACKUP, &res);
    assert_string_equal(text, "{\"TableDescription\":{\"TableName\":\"Copy\",\"TableStatus\":\"CREATING\"}}");
    free(text);
    text = printed(DDB_LIST_BACKUPS, &res);
    assert_string_equal(text, "{\"BackupSummaries\":[]}");
    free(text);
    ddb_res_done(&res);
}

/* A printed answer read back (as a remote answer, parsed as plain JSON)
 * prints the same text: every member the printer writes is read. */
static void read_back(void **state)
{
    (void)state;
    static const ddb_kind kinds[] = { DDB_DESCRIBE_BACKUP, DDB_CREATE_BACKUP, DDB_LIST_BACKUPS,
                                      DDB_DELETE_BACKUP, DDB_RESTORE_FROM_BACKUP };
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        ddb_res res;
        ddb_res_init(&res);
        one(&res, kinds[k] == DDB_DELETE_BACKUP);
        if (kinds[k] == DDB_LIST_BACKUPS) {
            one(&res, true);
            res.backups->last_arn = xstrdup(ARN);
        }
        if (kinds[k] == DDB_RESTORE_FROM_BACKUP)
            res.backups->table_desc = xstrdup("{\"TableName\":\"Copy\",\"CreationDateTime\":1796536209.5,"
                                              "\"RestoreSummary\":{\"SourceBackupArn\":\"" ARN "\","
                                              "\"RestoreInProgress\":true}}");
        char *text = printed(kinds[k], &res);
        ddb_res_done(&res);
        av root;
        diag d;
        diag_init(&d);
        assert_int_equal(ddbjson_parse_plain_item(text, strlen(text), &root, &d), ST_OK);
        ddbres_backups_read(&root, &res);
        av_done(&root);
        assert_non_null(res.backups);
        if (kinds[k] == DDB_RESTORE_FROM_BACKUP) {
            /* The description's text is the caller's (store_codec_read's) to keep. */
            assert_string_equal(res.backups->restored_from, ARN);
            assert_null(res.backups->table_desc);
            free(text);
            ddb_res_done(&res);
            continue;
        }
        char *again = printed(kinds[k], &res);
        assert_string_equal(again, text);
        if (kinds[k] == DDB_DESCRIBE_BACKUP) {
            /* The definition read back: keys, an LSI, a GSI and its throughput. */
            const ddb_backup *b = &res.backups->backups[0];
            assert_string_equal(b->def.sk.name, "sk");
            assert_int_equal(b->def.n_idx, 2);
            assert_string_equal(b->def.idx[0].sk.name, "l");
            assert_int_equal(b->def.idx[1].include[0][0], 'n');
            assert_int_equal(b->idx_pt[1].wcu, 4);
        }
        free(again);
        free(text);
        ddb_res_done(&res);
    }
    /* Nothing of a backup: no answer. */
    av root;
    diag d;
    diag_init(&d);
    static const char none[] = "{\"TableNames\":[]}";
    assert_int_equal(ddbjson_parse_plain_item(none, sizeof none - 1, &root, &d), ST_OK);
    ddb_res res;
    ddb_res_init(&res);
    ddbres_backups_read(&root, &res);
    assert_null(res.backups);
    av_done(&root);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(description_in_order),
        cmocka_unit_test(system_backup_and_list),
        cmocka_unit_test(restore_and_nothing),
        cmocka_unit_test(read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
