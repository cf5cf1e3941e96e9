/*
 * test_update_table — UpdateTable on a table that holds data, through the
 * JSON dispatcher (store_call): a GSI created and backfilled from the
 * existing items, deleted (and the later index still right after the
 * rows move down), BillingMode and ProvisionedThroughput changes, and
 * DynamoDB's refusals.
 *
 * Where each expectation comes from is said at the test: [API] the
 * DynamoDB API reference (UpdateTable, GlobalSecondaryIndexUpdate,
 * GlobalSecondaryIndexDescription), [DG] the developer guide ("Detecting
 * and correcting index key violations"), [DYN] dynalite's
 * validations/updateTable.js and actions/updateTable.js, [OBS] DynamoDB's
 * answers as observed on the service.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "data/store.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"

static cJSON *answer(void)
{
    cJSON *o = cJSON_Parse(out_text);
    assert_non_null(o);
    return o;
}

static const cJSON *index_named(const cJSON *td, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(td, "GlobalSecondaryIndexes"))
        if (strcmp(cJSON_GetObjectItem(e, "IndexName")->valuestring, name) == 0)
            return e;
    return NULL;
}

static int query_count(store *s, const char *index, const char *attr, const char *val)
{
    char body[512];
    snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"IndexName\":\"%s\",\"KeyConditionExpression\":"
             "\"%s = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"%s\"}}}", index, attr, val);
    ok(s, "Query", body);
    cJSON *o = answer();
    int n = cJSON_GetObjectItem(o, "Count")->valueint;
    cJSON_Delete(o);
    return n;
}

#define TABLE_PPR \
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}"

#define CREATE(name, attr, defs) \
    "{\"TableName\":\"Tab\",\"AttributeDefinitions\":[" defs "]," \
    "\"GlobalSecondaryIndexUpdates\":[{\"Create\":{\"IndexName\":\"" name "\"," \
    "\"KeySchema\":[{\"AttributeName\":\"" attr "\",\"KeyType\":\"HASH\"}]," \
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}}]}"
#define DEF_S(attr) "{\"AttributeName\":\"" attr "\",\"AttributeType\":\"S\"}"

static void put_items(store *s)
{
    char big[2100], body[2400];
    memset(big, 'k', 2049);
    big[2049] = 0;
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"a\"},\"g\":{\"S\":\"x\"},\"h\":{\"S\":\"1\"}}}");
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"b\"},\"g\":{\"S\":\"x\"}}}");
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"c\"},\"g\":{\"N\":\"1\"},\"h\":{\"S\":\"1\"}}}");
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"d\"},\"g\":{\"S\":\"\"}}}");
    snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"e\"},\"g\":{\"S\":\"%s\"}}}", big);
    ok(s, "PutItem", body);
}

/* [API] the new index is backfilled from the existing items; its
 * description in UpdateTable's answer is CREATING, Backfilling false
 * (the service's immediate answer [OBS]); DescribeTable then shows it
 * ACTIVE. [DG] items whose index key has another type, is empty or is
 * over 2048 bytes stay in the table without an index entry. */
static void test_create_backfills(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_PPR);
    put_items(s);
    ok(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")));
    cJSON *o = answer();
    const cJSON *td = cJSON_GetObjectItem(o, "TableDescription");
    assert_string_equal(cJSON_GetObjectItem(td, "TableStatus")->valuestring, "UPDATING");
    const cJSON *ix = index_named(td, "byG");
    assert_non_null(ix);
    assert_string_equal(cJSON_GetObjectItem(ix, "IndexStatus")->valuestring, "CREATING");
    assert_true(cJSON_IsFalse(cJSON_GetObjectItem(ix, "Backfilling")));
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(td, "AttributeDefinitions")), 2);
    cJSON_Delete(o);

    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    o = answer();
    ix = index_named(cJSON_GetObjectItem(o, "Table"), "byG");
    assert_string_equal(cJSON_GetObjectItem(ix, "IndexStatus")->valuestring, "ACTIVE");
    assert_null(cJSON_GetObjectItem(ix, "Backfilling"));
    assert_int_equal(cJSON_GetObjectItem(ix, "ItemCount")->valueint, 2);
    cJSON_Delete(o);
    assert_int_equal(query_count(s, "byG", "g", "x"), 2);

    /* Writes after the create keep the index. */
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"f\"},\"g\":{\"S\":\"x\"}}}");
    assert_int_equal(query_count(s, "byG", "g", "x"), 3);
}

/* [API] deleting an index removes it; [OBS] the answer shows it DELETING
 * and DescribeTable no longer lists it; the key attribute it alone used
 * leaves AttributeDefinitions. The index after it keeps its entries. */
static void test_delete(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_PPR);
    put_items(s);
    ok(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")));
    ok(s, "UpdateTable", CREATE("byH", "h", DEF_S("h")));
    assert_int_equal(query_count(s, "byH", "h", "1"), 2);
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":\"byG\"}}]}");
    cJSON *o = answer();
    const cJSON *ix = index_named(cJSON_GetObjectItem(o, "TableDescription"), "byG");
    assert_string_equal(cJSON_GetObjectItem(ix, "IndexStatus")->valuestring, "DELETING");
    cJSON_Delete(o);
    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    o = answer();
    const cJSON *td = cJSON_GetObjectItem(o, "Table");
    assert_null(index_named(td, "byG"));
    const cJSON *h = index_named(td, "byH");
    assert_int_equal(cJSON_GetObjectItem(h, "ItemCount")->valueint, 2);
    const cJSON *defs = cJSON_GetObjectItem(td, "AttributeDefinitions");
    assert_int_equal(cJSON_GetArraySize(defs), 2);   /* pk, h */
    cJSON_Delete(o);
    assert_int_equal(query_count(s, "byH", "h", "1"), 2);
    refused(s, "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"byG\",\"KeyConditionExpression\":\"g = :v\","
            "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}", ST_VALIDATION,
            "The table does not have the specified index: byG");
    /* a write after the move touches the right index */
    ok(s, "DeleteItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"a\"}}}");
    assert_int_equal(query_count(s, "byH", "h", "1"), 1);
}

static void test_refusals(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_PPR);
    ok(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")));
    /* [DYN] the message when nothing is asked */
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\"}", ST_VALIDATION,
            "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled,"
            " GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
    /* [API] one create or delete per call; [OBS] LimitExceededException */
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":"
            "\"byG\"}},{\"Create\":{\"IndexName\":\"byH\",\"KeySchema\":[{\"AttributeName\":\"h\",\"KeyType\":"
            "\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}}]}", ST_LIMIT_EXCEEDED,
            "Subscriber limit exceeded: Only 1 online index can be created or deleted simultaneously per table");
    /* [DYN] one update an index */
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":"
            "\"byG\"}},{\"Delete\":{\"IndexName\":\"byG\"}}]}", ST_VALIDATION,
            "One or more parameter values were invalid: Only one global secondary index update per index is"
            " allowed simultaneously. Index: byG");
    /* [OBS] duplicate and unknown names */
    refused(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")), ST_VALIDATION,
            "Attempting to create an index which already exists");
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":"
            "\"nope\"}}]}", ST_NOT_FOUND, "Requested resource not found: Index: nope not found");
    /* [API] the new keys need AttributeDefinitions in the request */
    refused(s, "UpdateTable", CREATE("byH", "h", DEF_S("pk")), ST_VALIDATION,
            "One or more parameter values were invalid: Some index key attributes are not defined in"
            " AttributeDefinitions. Keys: [h], AttributeDefinitions: [pk]");
    /* [DYN] throughput on an on-demand table */
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":1,"
            "\"WriteCapacityUnits\":1}}", ST_VALIDATION,
            "One or more parameter values were invalid: Neither ReadCapacityUnits nor WriteCapacityUnits can"
            " be specified when BillingMode is PAY_PER_REQUEST");
    /* [DYN] a switch to PROVISIONED names the indexes without throughput */
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"BillingMode\":\"PROVISIONED\",\"ProvisionedThroughput\":"
            "{\"ReadCapacityUnits\":1,\"WriteCapacityUnits\":1}}", ST_VALIDATION,
            "One or more parameter values were invalid: ProvisionedThroughput must be specified for index: byG");
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"BillingMode\":\"PROVISIONED\"}", ST_VALIDATION,
            "One or more parameter values were invalid: ProvisionedThroughput must be specified when"
            " BillingMode is PROVISIONED");
    /* nothing changed by the refused calls */
    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    cJSON *o = answer();
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "Table"),
                                                            "GlobalSecondaryIndexes")), 1);
    cJSON_Delete(o);
}

/* [DYN] billing switches and throughput changes, as dynalite applies them;
 * the same throughput again is refused with DynamoDB's message. */
static void test_billing_and_throughput(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_PPR);
    ok(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")));
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"BillingMode\":\"PROVISIONED\",\"ProvisionedThroughput\":"
       "{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":5},\"GlobalSecondaryIndexUpdates\":[{\"Update\":"
       "{\"IndexName\":\"byG\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":2,\"WriteCapacityUnits\":3}}}]}");
    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    cJSON *o = answer();
    const cJSON *td = cJSON_GetObjectItem(o, "Table");
    const cJSON *bm = cJSON_GetObjectItem(td, "BillingModeSummary");
    assert_string_equal(cJSON_GetObjectItem(bm, "BillingMode")->valuestring, "PROVISIONED");
    assert_int_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(td, "ProvisionedThroughput"), "ReadCapacityUnits")->valueint, 5);
    const cJSON *ipt = cJSON_GetObjectItem(index_named(td, "byG"), "ProvisionedThroughput");
    assert_int_equal(cJSON_GetObjectItem(ipt, "WriteCapacityUnits")->valueint, 3);
    cJSON_Delete(o);
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,"
            "\"WriteCapacityUnits\":5}}", ST_VALIDATION,
            "The provisioned throughput for the table will not change. The requested value equals the current"
            " value. Current ReadCapacityUnits provisioned for the table: 5. Requested ReadCapacityUnits: 5."
            " Current WriteCapacityUnits provisioned for the table: 5. Requested WriteCapacityUnits: 5. Refer"
            " to the Amazon DynamoDB Developer Guide for current limits and how to request higher limits.");
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"ProvisionedThroughput\":{\"ReadCapacityUnits\":4,"
       "\"WriteCapacityUnits\":5}}");
    o = answer();
    const cJSON *pt = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "TableDescription"), "ProvisionedThroughput");
    assert_int_equal(cJSON_GetObjectItem(pt, "ReadCapacityUnits")->valueint, 4);
    assert_int_equal(cJSON_GetObjectItem(pt, "NumberOfDecreasesToday")->valueint, 1);
    assert_non_null(cJSON_GetObjectItem(pt, "LastDecreaseDateTime"));
    cJSON_Delete(o);
    /* back to on demand: capacity 0 everywhere */
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"}");
    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    o = answer();
    td = cJSON_GetObjectItem(o, "Table");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(td, "BillingModeSummary"), "BillingMode")->valuestring,
                        "PAY_PER_REQUEST");
    ipt = cJSON_GetObjectItem(index_named(td, "byG"), "ProvisionedThroughput");
    assert_int_equal(cJSON_GetObjectItem(ipt, "ReadCapacityUnits")->valueint, 0);
    cJSON_Delete(o);
}

/* A table definition read back by the C interface (the explorer's view)
 * has the created index, and loses the deleted one. */
static void test_describe_c(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_PPR);
    ok(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")));
    table_def def;
    diag d;
    diag_init(&d);
    assert_int_equal(store_describe(s, "Tab", &def, &d), ST_OK);
    assert_int_equal(def.n_idx, 1);
    assert_string_equal(def.idx[0].name, "byG");
    table_def_free(&def);
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":\"byG\"}}]}");
    assert_int_equal(store_describe(s, "Tab", &def, &d), ST_OK);
    assert_int_equal(def.n_idx, 0);
    table_def_free(&def);
    /* [DYN] DescribeTable's words for a table that is not there name it
     * (the explorer and `ddbx export` show them: issue 27, 9 and 11). */
    assert_int_equal(store_describe(s, "Nope", &def, &d), ST_NOT_FOUND);
    assert_string_equal(d.msg, "Requested resource not found: Table: Nope not found");
}

/* store_delete_index_check says what deleting would be refused for, with
 * UpdateTable's words ([DYN] "Requested resource not found: Index: X not
 * found"), and changes nothing: the explorer asks only after it passes
 * (issue 27, 9). */
static void test_delete_check(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_PPR);
    ok(s, "UpdateTable", CREATE("byG", "g", DEF_S("g")));
    diag d;
    diag_init(&d);
    assert_int_equal(store_delete_index_check(s, "Tab", "byG", &d), ST_OK);
    assert_int_equal(store_delete_index_check(s, "Tab", "GSI9", &d), ST_NOT_FOUND);
    assert_string_equal(d.msg, "Requested resource not found: Index: GSI9 not found");
    assert_int_equal(store_delete_index_check(s, "Nope", "byG", &d), ST_NOT_FOUND);
    assert_string_equal(d.msg, "Requested resource not found: Table: Nope not found");
    refused(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":"
            "{\"IndexName\":\"GSI9\"}}]}", ST_NOT_FOUND, "Requested resource not found: Index: GSI9 not found");
    table_def def;
    assert_int_equal(store_describe(s, "Tab", &def, &d), ST_OK);
    assert_int_equal(def.n_idx, 1);   /* the checks changed nothing */
    table_def_free(&def);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_create_backfills, setup, teardown),
        cmocka_unit_test_setup_teardown(test_delete, setup, teardown),
        cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_billing_and_throughput, setup, teardown),
        cmocka_unit_test_setup_teardown(test_describe_c, setup, teardown),
        cmocka_unit_test_setup_teardown(test_delete_check, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
