/*
 * test_backup — on-demand backups through store_call: CreateBackup,
 * DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup, the
 * SYSTEM backup DeleteTable keeps, the backups folder after a crash, and
 * the schema version 6 migration.
 *
 * Where each expectation comes from is said at the test: [API] the
 * DynamoDB API reference (operations, shapes, constraints); [DG] the
 * developer guide ("Backing up a DynamoDB table", "Restoring a table from
 * a backup", "Delete a table with PITR enabled"); [OBS] DynamoDB's
 * answers as observed and published with the ack-api-quirks notes
 * (messages, ARN form, what a backup records and a restore keeps);
 * [DDBX] ddbx's own choice, documented in README. dynalite and DynamoDB
 * Local 3.3 answer none of these operations (UnknownOperationException:
 * checked by hand, see NOTES in the report), so there is no differential
 * test.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <time.h>

#include "data/store.h"
#include "data/store_backup.h"
#include "model/av.h"
#include "model/ddbjson.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"
#include "tests/data/backuptest.h"

#define ARN_HEAD "arn:aws:dynamodb:us-east-1:000000000000:table/"

/* Tab: pk/sk, a GSI on g (ALL) and an LSI on l (KEYS_ONLY), a stream. */
#define TABLE_TAB \
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"l\",\"AttributeType\":\"N\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}]," \
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}]," \
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"LSI1\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}," \
    "{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]," \
    "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"}}"

#define PUT(pk, sk, extra) \
    "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"" pk "\"},\"sk\":{\"S\":\"" sk "\"}" extra "}}"

static const char *gets(const cJSON *o, const char *where)
{
    const cJSON *v = get(o, where);
    assert_true(cJSON_IsString(v));
    return v->valuestring;
}

static double getn(const cJSON *o, const char *where)
{
    const cJSON *v = get(o, where);
    if (!cJSON_IsNumber(v))
        fail_msg("%s is not a number in %s", where, out_text);
    return v->valuedouble;
}

static void make_tab(store *s)
{
    ok(s, "CreateTable", TABLE_TAB);
    ok(s, "PutItem", PUT("a", "1", ",\"g\":{\"S\":\"x\"},\"l\":{\"N\":\"5\"},\"v\":{\"N\":\"1\"}"));
    ok(s, "PutItem", PUT("a", "2", ",\"v\":{\"N\":\"2\"}"));
    ok(s, "PutItem", PUT("b", "1", ",\"g\":{\"S\":\"y\"},\"v\":{\"S\":\"\\u00e9t\\u00e9\"}"));
    ok(s, "UpdateTimeToLive", "{\"TableName\":\"Tab\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
                              "\"AttributeName\":\"exp\"}}");
    ok(s, "TagResource", "{\"ResourceArn\":\"" ARN_HEAD "Tab\",\"Tags\":[{\"Key\":\"team\",\"Value\":\"x\"}]}");
}

/* The backup's ARN from the last answer (CreateBackup's). */
static char *created_arn(void)
{
    cJSON *o = answer();
    char *arn = strdup(gets(o, "BackupDetails.BackupArn"));
    cJSON_Delete(o);
    return arn;
}

static char *create_backup(store *s, const char *table, const char *name)
{
    char body[256];
    snprintf(body, sizeof body, "{\"TableName\":\"%s\",\"BackupName\":\"%s\"}", table, name);
    ok(s, "CreateBackup", body);
    return created_arn();
}

static int files_in(const char *folder)
{
    DIR *dh = opendir(folder);
    int n = 0;
    struct dirent *e;
    while (dh && (e = readdir(dh)))
        n += e->d_name[0] != '.';
    if (dh)
        closedir(dh);
    return n;
}

static char *folder(void)
{
    static char f[160];
    snprintf(f, sizeof f, "%s-backups", path);
    return f;
}

/* [API] CreateBackup answers BackupDetails; [OBS] with BackupStatus
 * CREATING, AVAILABLE in DescribeBackup and ListBackups right after, the
 * ARN table/T/backup/ + 14 digits of the creation ms + '-' + 8 hex
 * digits, BackupCreationDateTime at ms precision and the same in every
 * answer, no BackupExpiryDateTime for a USER backup; DescribeBackup and
 * DeleteBackup wrap it in BackupDescription with SourceTableDetails and
 * SourceTableFeatureDetails (indexes as *Info shapes, the stream, TTL;
 * not tags); DeleteBackup answers DELETED and the backup is gone at
 * once (BackupNotFoundException "Backup not found: ARN"). [DDBX] the
 * backup is a file of FILE-backups/, gone with it. */
static void test_lifecycle(void **state)
{
    store *s = *state;
    make_tab(s);
    ok(s, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"before-change\"}");
    cJSON *o = answer();
    const char *arn = gets(o, "BackupDetails.BackupArn");
    assert_int_equal(strncmp(arn, ARN_HEAD "Tab/backup/", strlen(ARN_HEAD "Tab/backup/")), 0);
    const char *id = arn + strlen(ARN_HEAD "Tab/backup/");
    assert_int_equal(strlen(id), 23);
    for (int i = 0; i < 23; i++)
        assert_true(i == 14 ? id[i] == '-' : i < 14 ? (id[i] >= '0' && id[i] <= '9') : strchr("0123456789abcdef", id[i]) != NULL);
    double created = getn(o, "BackupDetails.BackupCreationDateTime");
    assert_int_equal(atoll(id), (long long)llround(created * 1000));
    assert_string_equal(gets(o, "BackupDetails.BackupStatus"), "CREATING");
    assert_string_equal(gets(o, "BackupDetails.BackupType"), "USER");
    assert_string_equal(gets(o, "BackupDetails.BackupName"), "before-change");
    assert_null(get(o, "BackupDetails.BackupExpiryDateTime"));
    /* The three items' DynamoDB size (names and values): a/1 pk 3, sk 3,
     * g 2, l 3 (a number of one digit: 2 bytes), v 3 = 14; a/2 9; b/1 pk,
     * sk, g 8 and v 6 ("été", 5 bytes in UTF-8) = 14. */
    assert_int_equal((int)getn(o, "BackupDetails.BackupSizeBytes"), 37);
    char *arn_copy = strdup(arn);
    cJSON_Delete(o);
    assert_int_equal(files_in(folder()), 1);

    char body[512];
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn_copy);
    ok(s, "DescribeBackup", body);
    o = answer();
    assert_string_equal(gets(o, "BackupDescription.BackupDetails.BackupStatus"), "AVAILABLE");
    assert_true(getn(o, "BackupDescription.BackupDetails.BackupCreationDateTime") == created);
    const cJSON *src = get(o, "BackupDescription.SourceTableDetails");
    assert_string_equal(gets(src, "TableName"), "Tab");
    assert_string_equal(gets(src, "TableArn"), ARN_HEAD "Tab");
    assert_int_equal((int)getn(src, "ItemCount"), 3);
    assert_int_equal((int)getn(src, "TableSizeBytes"), 37);
    assert_string_equal(gets(src, "BillingMode"), "PAY_PER_REQUEST");
    assert_int_equal((int)getn(src, "ProvisionedThroughput.ReadCapacityUnits"), 0);
    assert_null(get(src, "ProvisionedThroughput.NumberOfDecreasesToday"));
    assert_string_equal(gets(src, "KeySchema.1.AttributeName"), "sk");
    assert_non_null(get(src, "TableId"));
    assert_non_null(get(src, "TableCreationDateTime"));
    const cJSON *feat = get(o, "BackupDescription.SourceTableFeatureDetails");
    assert_string_equal(gets(feat, "GlobalSecondaryIndexes.0.IndexName"), "GSI1");
    assert_int_equal((int)getn(feat, "GlobalSecondaryIndexes.0.ProvisionedThroughput.ReadCapacityUnits"), 0);
    assert_null(get(feat, "GlobalSecondaryIndexes.0.IndexArn"));
    assert_null(get(feat, "GlobalSecondaryIndexes.0.IndexStatus"));
    assert_string_equal(gets(feat, "LocalSecondaryIndexes.0.Projection.ProjectionType"), "KEYS_ONLY");
    assert_true(cJSON_IsTrue(get(feat, "StreamDescription.StreamEnabled")));
    assert_string_equal(gets(feat, "StreamDescription.StreamViewType"), "NEW_IMAGE");
    assert_string_equal(gets(feat, "TimeToLiveDescription.TimeToLiveStatus"), "ENABLED");
    assert_string_equal(gets(feat, "TimeToLiveDescription.AttributeName"), "exp");
    cJSON_Delete(o);

    ok(s, "ListBackups", "{}");
    o = answer();
    const cJSON *sum = get(o, "BackupSummaries.0");
    assert_string_equal(gets(sum, "BackupArn"), arn_copy);
    assert_string_equal(gets(sum, "TableName"), "Tab");
    assert_string_equal(gets(sum, "TableArn"), ARN_HEAD "Tab");
    assert_non_null(get(sum, "TableId"));
    assert_string_equal(gets(sum, "BackupStatus"), "AVAILABLE");
    assert_true(getn(sum, "BackupCreationDateTime") == created);
    assert_null(get(o, "LastEvaluatedBackupArn"));
    cJSON_Delete(o);

    ok(s, "DeleteBackup", body);
    o = answer();
    assert_string_equal(gets(o, "BackupDescription.BackupDetails.BackupStatus"), "DELETED");
    assert_string_equal(gets(o, "BackupDescription.SourceTableDetails.TableName"), "Tab");
    cJSON_Delete(o);
    char msg[512];
    snprintf(msg, sizeof msg, "Backup not found: %s", arn_copy);
    refused(s, "DescribeBackup", body, ST_BACKUP_NOT_FOUND, msg);
    refused(s, "DeleteBackup", body, ST_BACKUP_NOT_FOUND, msg);
    ok(s, "ListBackups", "{}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    assert_int_equal(files_in(folder()), 0);
    free(arn_copy);
}

/* [API] the members' constraints (BackupName 3..255 of [a-zA-Z0-9_.-],
 * BackupArn 37..1024, TableName may be the table's ARN); [OBS]
 * "Table not found: T" (TableNotFoundException) for a missing table, "Invalid
 * Backup ARN" for a table's ARN or no ARN, "BackupArn is not valid" for
 * another service, BackupNotFoundException for a well-formed ARN of no
 * backup; the region in the ARN is not compared. */
static void test_errors(void **state)
{
    store *s = *state;
    make_tab(s);
    refused(s, "CreateBackup", "{\"TableName\":\"Nope\",\"BackupName\":\"b1x\"}", ST_TABLE_NOT_FOUND,
            "Table not found: Nope");
    refused(s, "CreateBackup", "{\"TableName\":\"Tab\"}", ST_VALIDATION,
            "1 validation error detected: Value null at 'backupName' failed to satisfy constraint: Member must"
            " not be null");
    /* One error for the member, its length first (as AWS answers a short
     * CreateTable name, issue 29; for BackupName itself not confirmed). */
    refused(s, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"b!\"}", ST_VALIDATION,
            "1 validation error detected: Value 'b!' at 'backupName' failed to satisfy constraint: Member must"
            " have length greater than or equal to 3");
    refused(s, "CreateBackup", "{\"TableName\":\"Tab\",\"BackupName\":\"bad!\"}", ST_VALIDATION,
            "1 validation error detected: Value 'bad!' at 'backupName' failed to satisfy constraint: Member must"
            " satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
    refused(s, "CreateBackup", "{\"BackupName\":\"bbb\"}", ST_VALIDATION,
            "1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must"
            " not be null");
    char *arn = create_backup(s, ARN_HEAD "Tab", "by-arn");
    refused(s, "DescribeBackup", "{\"BackupArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/Tab\"}",
            ST_VALIDATION, "Invalid Backup ARN");
    refused(s, "DescribeBackup", "{\"BackupArn\":\"not-an-arn-but-long-enough-to-pass-the-length-rule\"}",
            ST_VALIDATION, "Invalid Backup ARN");
    refused(s, "DescribeBackup", "{\"BackupArn\":\"arn:aws:s3:us-east-1:000000000000:table/Tab/backup/x\"}",
            ST_VALIDATION, "BackupArn is not valid");
    refused(s, "DescribeBackup", "{\"BackupArn\":\"arn:aws:dynamodb\"}", ST_VALIDATION,
            "1 validation error detected: Value 'arn:aws:dynamodb' at 'backupArn' failed to satisfy constraint:"
            " Member must have length greater than or equal to 37");
    refused(s, "DescribeBackup", "{\"BackupArn\":\"" ARN_HEAD "Tab/backup/01000000000000-00000001\"}",
            ST_BACKUP_NOT_FOUND, "Backup not found: " ARN_HEAD "Tab/backup/01000000000000-00000001");
    /* another region's ARN names the same backup */
    char body[512];
    snprintf(body, sizeof body, "{\"BackupArn\":\"arn:aws:dynamodb:eu-west-1:000000000000:%s\"}",
             strstr(arn, "table/"));
    ok(s, "DescribeBackup", body);
    refused(s, "DeleteBackup", "{}", ST_VALIDATION, "1 validation error detected: Value null at 'backupArn' failed"
            " to satisfy constraint: Member must not be null");
    free(arn);
}

/* [API] ListBackups: TableName (or its ARN), TimeRangeLowerBound and
 * UpperBound, BackupType USER (the default), SYSTEM, AWS_BACKUP, ALL,
 * Limit 1..100, ExclusiveStartBackupArn / LastEvaluatedBackupArn;
 * [OBS] oldest first; the lower bound inclusive and the upper exclusive
 * at ms precision; lower > upper "Time range lower bound must be less
 * than or equal to upper bound"; Limit N with exactly N matches gives no
 * LastEvaluatedBackupArn; the cursor is a position (a deleted backup's
 * ARN resumes after it); a table that does not exist lists nothing. */
static void test_list(void **state)
{
    store *s = *state;
    make_tab(s);
    ok(s, "CreateTable", "{\"TableName\":\"Other\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
                         "[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"}],\"KeySchema\":[{\"AttributeName\":\"id\","
                         "\"KeyType\":\"HASH\"}]}");
    char *arns[5];
    double times[5];
    for (int i = 0; i < 5; i++) {
        struct timespec ts = { 0, 3000000 };
        nanosleep(&ts, NULL);   /* distinct creation ms */
        char name[16];
        snprintf(name, sizeof name, "bk%d", i);
        arns[i] = create_backup(s, i == 2 ? "Other" : "Tab", name);
        char body[512];
        snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arns[i]);
        ok(s, "DescribeBackup", body);
        cJSON *o = answer();
        times[i] = getn(o, "BackupDescription.BackupDetails.BackupCreationDateTime");
        cJSON_Delete(o);
    }
    ok(s, "ListBackups", "{}");
    cJSON *o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 5);
    for (int i = 0; i < 5; i++) {
        char at[32];
        snprintf(at, sizeof at, "BackupSummaries.%d.BackupArn", i);
        assert_string_equal(gets(o, at), arns[i]);
    }
    cJSON_Delete(o);
    ok(s, "ListBackups", "{\"TableName\":\"Other\"}");
    o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 1);
    assert_string_equal(gets(o, "BackupSummaries.0.BackupName"), "bk2");
    cJSON_Delete(o);
    ok(s, "ListBackups", "{\"TableName\":\"" ARN_HEAD "Tab\"}");
    o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 4);
    cJSON_Delete(o);
    ok(s, "ListBackups", "{\"TableName\":\"NoSuchTable\"}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    /* [lower, upper): bk1 (at its own ms) up to bk3 (excluded) */
    char body[512];
    snprintf(body, sizeof body, "{\"TimeRangeLowerBound\":%.3f,\"TimeRangeUpperBound\":%.3f}", times[1], times[3]);
    ok(s, "ListBackups", body);
    o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 2);
    assert_string_equal(gets(o, "BackupSummaries.0.BackupName"), "bk1");
    assert_string_equal(gets(o, "BackupSummaries.1.BackupName"), "bk2");
    cJSON_Delete(o);
    snprintf(body, sizeof body, "{\"TimeRangeLowerBound\":%.3f,\"TimeRangeUpperBound\":%.3f}", times[3], times[1]);
    refused(s, "ListBackups", body, ST_VALIDATION, "Time range lower bound must be less than or equal to upper bound");
    /* pages of two: LastEvaluatedBackupArn, then from it */
    ok(s, "ListBackups", "{\"Limit\":2}");
    o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 2);
    assert_string_equal(gets(o, "LastEvaluatedBackupArn"), arns[1]);
    cJSON_Delete(o);
    snprintf(body, sizeof body, "{\"Limit\":2,\"ExclusiveStartBackupArn\":\"%s\"}", arns[1]);
    ok(s, "ListBackups", body);
    o = answer();
    assert_string_equal(gets(o, "BackupSummaries.0.BackupArn"), arns[2]);
    assert_string_equal(gets(o, "LastEvaluatedBackupArn"), arns[3]);
    cJSON_Delete(o);
    /* the last page holds exactly Limit: no LastEvaluatedBackupArn */
    snprintf(body, sizeof body, "{\"Limit\":1,\"ExclusiveStartBackupArn\":\"%s\"}", arns[3]);
    ok(s, "ListBackups", body);
    o = answer();
    assert_string_equal(gets(o, "BackupSummaries.0.BackupArn"), arns[4]);
    assert_null(get(o, "LastEvaluatedBackupArn"));
    cJSON_Delete(o);
    /* a deleted backup's ARN is still a position */
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arns[2]);
    ok(s, "DeleteBackup", body);
    snprintf(body, sizeof body, "{\"ExclusiveStartBackupArn\":\"%s\"}", arns[2]);
    ok(s, "ListBackups", body);
    o = answer();
    assert_int_equal(cJSON_GetArraySize(get(o, "BackupSummaries")), 2);
    assert_string_equal(gets(o, "BackupSummaries.0.BackupArn"), arns[3]);
    cJSON_Delete(o);
    ok(s, "ListBackups", "{\"BackupType\":\"AWS_BACKUP\"}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    ok(s, "ListBackups", "{\"BackupType\":\"SYSTEM\"}");
    assert_string_equal(out_text, "{\"BackupSummaries\":[]}");
    refused(s, "ListBackups", "{\"BackupType\":\"user\"}", ST_VALIDATION,
            "1 validation error detected: Value 'user' at 'backupType' failed to satisfy constraint: Member must"
            " satisfy enum value set: [USER, SYSTEM, AWS_BACKUP, ALL]");
    refused(s, "ListBackups", "{\"Limit\":101}", ST_VALIDATION,
            "1 validation error detected: Value '101' at 'limit' failed to satisfy constraint: Member must have"
            " value less than or equal to 100");
    refused(s, "ListBackups", "{\"TimeRangeLowerBound\":\"yesterday\"}", ST_SERIALIZATION,
            "STRING_VALUE cannot be converted to Date");
    for (int i = 0; i < 5; i++)
        free(arns[i]);
}

/* [API] "Each time you create an on-demand backup, the entire table data
 * is backed up"; [DG] a backup survives its table's deletion; [DDBX] it is
 * the table as one commit left it (one read transaction), so writes after
 * it do not show in its restore. */
static void test_snapshot_and_deletion(void **state)
{
    store *s = *state;
    make_tab(s);
    char *want = scan_items(s, "Tab");
    char *arn = create_backup(s, "Tab", "snap");
    ok(s, "PutItem", PUT("c", "1", ""));
    ok(s, "DeleteItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}}");
    ok(s, "DeleteTable", "{\"TableName\":\"Tab\"}");
    char body[512];
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    ok(s, "DescribeBackup", body);
    snprintf(body, sizeof body, "{\"TargetTableName\":\"Tab\",\"BackupArn\":\"%s\"}", arn);
    ok(s, "RestoreTableFromBackup", body);
    char *got = scan_items(s, "Tab");
    assert_string_equal(got, want);
    index_consistent(s, "Tab");
    /* the restored table answers its index queries as the original did */
    ok(s, "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"GSI1\",\"KeyConditionExpression\":\"g = :g\","
                   "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}}}");
    assert_non_null(strstr(out_text, "\"Count\":1"));
    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    cJSON *o = answer();
    assert_int_equal((int)getn(o, "Table.ItemCount"), 3);
    assert_int_equal((int)getn(o, "Table.TableSizeBytes"), 37);
    assert_int_equal((int)getn(o, "Table.GlobalSecondaryIndexes.0.ItemCount"), 2);
    assert_int_equal((int)getn(o, "Table.LocalSecondaryIndexes.0.ItemCount"), 1);
    cJSON_Delete(o);
    free(want);
    free(got);
    free(arn);
}

/* [API] RestoreTableFromBackup answers the new table's TableDescription
 * with RestoreSummary (SourceBackupArn, SourceTableArn, RestoreDateTime,
 * RestoreInProgress); [OBS] CREATING then, and RestoreSummary gone from
 * DescribeTable once ACTIVE (here at once); what is restored: keys,
 * indexes, billing, throughput; what is not: the stream, TTL, tags and
 * point-in-time recovery; "Table already exists: T"
 * (TableAlreadyExistsException), also for the source's own name. */
static void test_restore_keeps(void **state)
{
    store *s = *state;
    make_tab(s);
    char *arn = create_backup(s, "Tab", "keep");
    char body[512];
    snprintf(body, sizeof body, "{\"TargetTableName\":\"Copy\",\"BackupArn\":\"%s\"}", arn);
    ok(s, "RestoreTableFromBackup", body);
    cJSON *o = answer();
    assert_string_equal(gets(o, "TableDescription.TableName"), "Copy");
    assert_string_equal(gets(o, "TableDescription.TableStatus"), "CREATING");
    assert_string_equal(gets(o, "TableDescription.RestoreSummary.SourceBackupArn"), arn);
    assert_string_equal(gets(o, "TableDescription.RestoreSummary.SourceTableArn"), ARN_HEAD "Tab");
    assert_true(cJSON_IsTrue(get(o, "TableDescription.RestoreSummary.RestoreInProgress")));
    assert_non_null(get(o, "TableDescription.RestoreSummary.RestoreDateTime"));
    assert_string_equal(gets(o, "TableDescription.TableArn"), ARN_HEAD "Copy");
    assert_string_equal(gets(o, "TableDescription.GlobalSecondaryIndexes.0.IndexArn"), ARN_HEAD "Copy/index/GSI1");
    cJSON_Delete(o);
    ok(s, "DescribeTable", "{\"TableName\":\"Copy\"}");
    o = answer();
    assert_string_equal(gets(o, "Table.TableStatus"), "ACTIVE");
    assert_null(get(o, "Table.RestoreSummary"));
    assert_null(get(o, "Table.StreamSpecification"));
    assert_null(get(o, "Table.LatestStreamArn"));
    assert_string_equal(gets(o, "Table.BillingModeSummary.BillingMode"), "PAY_PER_REQUEST");
    assert_string_equal(gets(o, "Table.LocalSecondaryIndexes.0.IndexName"), "LSI1");
    assert_int_equal(cJSON_GetArraySize(get(o, "Table.AttributeDefinitions")), 4);
    cJSON_Delete(o);
    ok(s, "DescribeTimeToLive", "{\"TableName\":\"Copy\"}");
    assert_string_equal(out_text, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"DISABLED\"}}");
    ok(s, "ListTagsOfResource", "{\"ResourceArn\":\"" ARN_HEAD "Copy\"}");
    assert_string_equal(out_text, "{\"Tags\":[]}");
    ok(s, "DescribeContinuousBackups", "{\"TableName\":\"Copy\"}");
    assert_non_null(strstr(out_text, "\"PointInTimeRecoveryStatus\":\"DISABLED\""));
    refused(s, "RestoreTableFromBackup", body, ST_TABLE_EXISTS, "Table already exists: Copy");
    snprintf(body, sizeof body, "{\"TargetTableName\":\"Tab\",\"BackupArn\":\"%s\"}", arn);
    refused(s, "RestoreTableFromBackup", body, ST_TABLE_EXISTS, "Table already exists: Tab");
    refused(s, "RestoreTableFromBackup", "{\"TargetTableName\":\"X1x\",\"BackupArn\":\"" ARN_HEAD
            "Tab/backup/01000000000000-00000001\"}", ST_BACKUP_NOT_FOUND,
            "Backup not found: " ARN_HEAD "Tab/backup/01000000000000-00000001");
    free(arn);
}

/* [API] the overrides of RestoreTableFromBackup; [OBS] omitting an index
 * override restores them all, an empty list none; an index override
 * must match a source index by KeySchema and Projection (its name may
 * change): "Index N does not match a secondary index that existed in the
 * source table and cannot be created during the restore operation";
 * "Must override ProvisionedThroughput if BillingMode is overridden to
 * PROVISIONED"; "Cannot override ProvisionedThroughput unless BillingMode
 * is PROVISIONED". [DDBX] no KMS and no on-demand maxima here: refused by
 * name, as UpdateTable refuses them. */
static void test_restore_overrides(void **state)
{
    store *s = *state;
    make_tab(s);
    char *arn = create_backup(s, "Tab", "ovr");
    char body[2048];
#define RESTORE(target, extra) (snprintf(body, sizeof body, "{\"TargetTableName\":\"" target "\",\"BackupArn\":\"%s\"" \
                                         extra "}", arn), body)
    ok(s, "RestoreTableFromBackup", RESTORE("NoIdx", ",\"GlobalSecondaryIndexOverride\":[],\"LocalSecondaryIndexOverride\":[]"));
    ok(s, "DescribeTable", "{\"TableName\":\"NoIdx\"}");
    cJSON *o = answer();
    assert_null(get(o, "Table.GlobalSecondaryIndexes"));
    assert_null(get(o, "Table.LocalSecondaryIndexes"));
    assert_int_equal(cJSON_GetArraySize(get(o, "Table.AttributeDefinitions")), 2);
    assert_int_equal((int)getn(o, "Table.ItemCount"), 3);
    cJSON_Delete(o);
    index_consistent(s, "NoIdx");
    /* the GSI renamed, the LSI dropped */
    ok(s, "RestoreTableFromBackup", RESTORE("Renamed", ",\"GlobalSecondaryIndexOverride\":[{\"IndexName\":\"ByG\","
                                            "\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
                                            "\"Projection\":{\"ProjectionType\":\"ALL\"}}],\"LocalSecondaryIndexOverride\":[]"));
    ok(s, "Query", "{\"TableName\":\"Renamed\",\"IndexName\":\"ByG\",\"KeyConditionExpression\":\"g = :g\","
                   "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"y\"}}}");
    assert_non_null(strstr(out_text, "\"Count\":1"));
    index_consistent(s, "Renamed");
    refused(s, "RestoreTableFromBackup", RESTORE("Bad", ",\"GlobalSecondaryIndexOverride\":[{\"IndexName\":\"GSI1\","
                                                 "\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
                                                 "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]"), ST_VALIDATION,
            "Index GSI1 does not match a secondary index that existed in the source table and cannot be created"
            " during the restore operation");
    refused(s, "RestoreTableFromBackup", RESTORE("Bad", ",\"BillingModeOverride\":\"PROVISIONED\""), ST_VALIDATION,
            "Must override ProvisionedThroughput if BillingMode is overridden to PROVISIONED");
    refused(s, "RestoreTableFromBackup", RESTORE("Bad", ",\"ProvisionedThroughputOverride\":{\"ReadCapacityUnits\":5,"
                                                 "\"WriteCapacityUnits\":5}"), ST_VALIDATION,
            "Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED");
    refused(s, "RestoreTableFromBackup", RESTORE("Bad", ",\"SSESpecificationOverride\":{\"Enabled\":true,"
                                                 "\"SSEType\":\"KMS\"}"), ST_VALIDATION,
            "ddbx does not apply SSESpecificationOverride with Enabled true (no KMS keys locally)");
    refused(s, "RestoreTableFromBackup", RESTORE("Bad", ",\"OnDemandThroughputOverride\":{\"MaxReadRequestUnits\":10}"),
            ST_VALIDATION, "ddbx does not apply OnDemandThroughputOverride");
    refused(s, "RestoreTableFromBackup", RESTORE("Bad", ",\"BillingModeOverride\":\"FREE\""), ST_VALIDATION,
            "1 validation error detected: Value 'FREE' at 'billingModeOverride' failed to satisfy constraint: Member"
            " must satisfy enum value set: [PROVISIONED, PAY_PER_REQUEST]");
    /* PROVISIONED with its throughput: the table's, and (the backup being
     * on demand) the GSI takes the table's too [DDBX]; SSE disabled is the
     * default, accepted */
    ok(s, "RestoreTableFromBackup", RESTORE("Prov", ",\"BillingModeOverride\":\"PROVISIONED\","
                                            "\"ProvisionedThroughputOverride\":{\"ReadCapacityUnits\":7,"
                                            "\"WriteCapacityUnits\":3},\"SSESpecificationOverride\":{\"Enabled\":false}"));
    ok(s, "DescribeTable", "{\"TableName\":\"Prov\"}");
    o = answer();
    assert_null(get(o, "Table.BillingModeSummary"));
    assert_int_equal((int)getn(o, "Table.ProvisionedThroughput.ReadCapacityUnits"), 7);
    assert_int_equal((int)getn(o, "Table.ProvisionedThroughput.WriteCapacityUnits"), 3);
    assert_int_equal((int)getn(o, "Table.GlobalSecondaryIndexes.0.ProvisionedThroughput.ReadCapacityUnits"), 7);
    cJSON_Delete(o);
    /* and back to on demand: every throughput 0 */
    char *prov = create_backup(s, "Prov", "prov");
    snprintf(body, sizeof body, "{\"TargetTableName\":\"Ppr\",\"BackupArn\":\"%s\",\"BillingModeOverride\":"
             "\"PAY_PER_REQUEST\"}", prov);
    ok(s, "RestoreTableFromBackup", body);
    ok(s, "DescribeTable", "{\"TableName\":\"Ppr\"}");
    o = answer();
    assert_string_equal(gets(o, "Table.BillingModeSummary.BillingMode"), "PAY_PER_REQUEST");
    assert_int_equal((int)getn(o, "Table.GlobalSecondaryIndexes.0.ProvisionedThroughput.ReadCapacityUnits"), 0);
    cJSON_Delete(o);
    /* a provisioned backup: the GSI's recorded throughput, or the override's */
    snprintf(body, sizeof body, "{\"TargetTableName\":\"Prov2\",\"BackupArn\":\"%s\",\"GlobalSecondaryIndexOverride\":"
             "[{\"IndexName\":\"GSI1\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
             "\"Projection\":{\"ProjectionType\":\"ALL\"},\"ProvisionedThroughput\":{\"ReadCapacityUnits\":9,"
             "\"WriteCapacityUnits\":9}}]}", prov);
    ok(s, "RestoreTableFromBackup", body);
    ok(s, "DescribeTable", "{\"TableName\":\"Prov2\"}");
    o = answer();
    assert_int_equal((int)getn(o, "Table.ProvisionedThroughput.ReadCapacityUnits"), 7);
    assert_int_equal((int)getn(o, "Table.GlobalSecondaryIndexes.0.ProvisionedThroughput.ReadCapacityUnits"), 9);
    cJSON_Delete(o);
    free(prov);
    /* none of the refusals left a table behind */
    refused(s, "DescribeTable", "{\"TableName\":\"Bad\"}", ST_NOT_FOUND,
            "Requested resource not found: Table: Bad not found");
#undef RESTORE
    free(arn);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_lifecycle, setup, teardown),
    cmocka_unit_test_setup_teardown(test_errors, setup, teardown),
    cmocka_unit_test_setup_teardown(test_list, setup, teardown),
    cmocka_unit_test_setup_teardown(test_snapshot_and_deletion, setup, teardown),
    cmocka_unit_test_setup_teardown(test_restore_keeps, setup, teardown),
    cmocka_unit_test_setup_teardown(test_restore_overrides, setup, teardown),
};

int main(void)
{
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
