/* store: tables, items, indexes, reads, accounting and DynamoDB's
 * validation messages, through store_call and the C interface. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/mem.h"

#include "tests/data/tmpstore.h"

/* Calls op; returns the response (caller frees) and fails the test on an
 * error. */
static char *ok(store *s, const char *op, const char *json)
{
    diag d;
    diag_init(&d);
    char *out = NULL;
    status st = store_call(s, op, json, strlen(json), &out, &d);
    if (st != ST_OK)
        fail_msg("%s failed: %s: %s\n  request: %s", op, status_name(st), d.msg, json);
    return out;
}

static void ok_eq(store *s, const char *op, const char *json, const char *want)
{
    char *out = ok(s, op, json);
    assert_string_equal(out, want);
    free(out);
}

static void err(store *s, const char *op, const char *json, status code, const char *msg)
{
    diag d;
    diag_init(&d);
    char *out = NULL;
    status st = store_call(s, op, json, strlen(json), &out, &d);
    if (st != code || strcmp(d.msg, msg) != 0)
        fail_msg("%s: want %s \"%s\"\n  got %s \"%s\"\n  request: %s", op, status_name(code), msg,
                 status_name(st), d.msg, json);
    free(out);
}

static const char graph[] =
    "{\"TableName\":\"Graph\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"GSI1PK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"GSI1SK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"n\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":["
    "{\"AttributeName\":\"GSI1PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"GSI1SK\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}},"
    "{\"IndexName\":\"ByN\",\"KeySchema\":[{\"AttributeName\":\"n\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"LsiN\",\"KeySchema\":["
    "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"n\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"note\"]}}]}";

static void put(store *s, const char *item)
{
    char req[2048];
    snprintf(req, sizeof req, "{\"TableName\":\"Graph\",\"Item\":%s}", item);
    free(ok(s, "PutItem", req));
}

static void load_graph(store *s)
{
    free(ok(s, "CreateTable", graph));
    put(s, "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"2\"},\"note\":{\"S\":\"hi\"}}");
    put(s, "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"},\"GSI1PK\":{\"S\":\"TARGET#bob\"},"
           "\"GSI1SK\":{\"S\":\"ACTOR#alice\"},\"at\":{\"S\":\"2024-01-02\"}}");
    put(s, "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#carol\"},\"GSI1PK\":{\"S\":\"TARGET#carol\"},"
           "\"GSI1SK\":{\"S\":\"ACTOR#alice\"}}");
    put(s, "{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"TARGET#bob\"},\"GSI1PK\":{\"S\":\"TARGET#bob\"},"
           "\"GSI1SK\":{\"S\":\"ACTOR#dave\"}}");
    put(s, "{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"-1\"}}");
}

static void new_file_is_owner_only(void **state)
{
    (void)state;
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0600);
}

static void tables_are_created_listed_described_deleted(void **state)
{
    store *s = *state;
    ok_eq(s, "ListTables", "{}", "{\"TableNames\":[]}");
    free(ok(s, "CreateTable", graph));
    err(s, "CreateTable", graph, ST_IN_USE, "Table already exists: Graph");
    free(ok(s, "CreateTable", "{\"TableName\":\"Another\",\"BillingMode\":\"PAY_PER_REQUEST\","
                              "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"}],"
                              "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}"));
    ok_eq(s, "ListTables", "{}", "{\"TableNames\":[\"Another\",\"Graph\"]}");
    ok_eq(s, "ListTables", "{\"Limit\":1}", "{\"TableNames\":[\"Another\"],\"LastEvaluatedTableName\":\"Another\"}");
    ok_eq(s, "ListTables", "{\"ExclusiveStartTableName\":\"Another\"}", "{\"TableNames\":[\"Graph\"]}");

    char *desc = ok(s, "DescribeTable", "{\"TableName\":\"Graph\"}");
    assert_non_null(strstr(desc, "\"TableStatus\":\"ACTIVE\""));
    assert_non_null(strstr(desc, "\"IndexName\":\"GSI1\""));
    assert_non_null(strstr(desc, "\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"note\"]"));
    free(desc);

    table_def def;
    diag d;
    diag_init(&d);
    assert_int_equal(store_describe(s, "Graph", &def, &d), ST_OK);
    assert_string_equal(def.pk.name, "PK");
    assert_string_equal(def.sk.name, "SK");
    assert_int_equal(def.n_idx, 3);
    const index_def *g = table_def_index(&def, "GSI1");
    assert_non_null(g);
    assert_true(g->global);
    assert_int_equal(table_def_index(&def, "ByN")->proj, PROJ_KEYS_ONLY);
    assert_false(table_def_index(&def, "LsiN")->global);
    assert_int_equal(table_def_index(&def, "LsiN")->sk.type, AV_N);

    /* The C interface creates the same table from a definition. */
    free(def.name);
    def.name = xstrdup("Copy");
    assert_int_equal(store_create_table(s, &def, &d), ST_OK);
    table_def_free(&def);
    char **names;
    size_t n;
    assert_int_equal(store_list_tables(s, &names, &n, &d), ST_OK);
    assert_int_equal(n, 3);
    assert_string_equal(names[1], "Copy");
    store_names_free(names, n);

    char *del = ok(s, "DeleteTable", "{\"TableName\":\"Graph\"}");
    assert_non_null(strstr(del, "\"TableStatus\":\"DELETING\""));
    free(del);
    err(s, "DescribeTable", "{\"TableName\":\"Graph\"}", ST_NOT_FOUND,
        "Requested resource not found: Table: Graph not found");
    assert_int_equal(store_delete_table(s, "Copy", &d), ST_OK);
    ok_eq(s, "ListTables", "{}", "{\"TableNames\":[\"Another\"]}");
}

static void create_table_validation(void **state)
{
    store *s = *state;
    err(s, "CreateTable", "{}", ST_VALIDATION,
        "The parameter 'TableName' is required but was not present in the request");
    /* A short name is one more constraint error, with the others (the
     * whole request's: tests/data/test_messages.c). */
    err(s, "CreateTable", "{\"TableName\":\"ab\"}", ST_VALIDATION,
        "3 validation errors detected: Value null at 'attributeDefinitions' failed to satisfy constraint:"
        " Member must not be null; Value 'ab' at 'tableName' failed to satisfy constraint: Member must have"
        " length greater than or equal to 3; Value null at 'keySchema' failed to satisfy constraint: Member"
        " must not be null");
    err(s, "CreateTable", "{\"TableName\":\"abc\"}", ST_VALIDATION,
        "2 validation errors detected: Value null at 'attributeDefinitions' failed to satisfy"
        " constraint: Member must not be null; Value null at 'keySchema' failed to satisfy"
        " constraint: Member must not be null");
    err(s, "CreateTable", "{\"TableName\":123}", ST_SERIALIZATION,
        "NUMBER_VALUE cannot be converted to String");
    /* KeySchema quoted as AWS's Java prints a list ('[]' when empty), as
     * for three elements (test_messages.c's source, 2026). */
    err(s, "CreateTable", "{\"TableName\":\"a b\",\"AttributeDefinitions\":[],\"KeySchema\":[]}",
        ST_VALIDATION,
        "2 validation errors detected: Value 'a b' at 'tableName' failed to satisfy constraint:"
        " Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+; Value '[]' at"
        " 'keySchema' failed to satisfy constraint: Member must have length greater than or equal to 1");
    err(s, "CreateTable",
        "{\"TableName\":\"abc\",\"AttributeDefinitions\":[{\"AttributeName\":\"a\",\"AttributeType\":\"S\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"a\",\"KeyType\":\"HASH\"}]}",
        ST_VALIDATION,
        "One or more parameter values were invalid: ReadCapacityUnits and WriteCapacityUnits must"
        " both be specified when BillingMode is PROVISIONED");
    err(s, "CreateTable",
        "{\"TableName\":\"abc\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
        "[{\"AttributeName\":\"a\",\"AttributeType\":\"S\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"b\",\"KeyType\":\"HASH\"}]}",
        ST_VALIDATION,
        "One or more parameter values were invalid: Some index key attributes are not defined in"
        " AttributeDefinitions. Keys: [b], AttributeDefinitions: [a]");
    err(s, "CreateTable",
        "{\"TableName\":\"abc\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
        "[{\"AttributeName\":\"a\",\"AttributeType\":\"S\"},{\"AttributeName\":\"b\",\"AttributeType\":\"S\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"a\",\"KeyType\":\"HASH\"}]}",
        ST_VALIDATION,
        "One or more parameter values were invalid: Number of attributes in KeySchema does not"
        " exactly match number of attributes defined in AttributeDefinitions");
    err(s, "CreateTable",
        "{\"TableName\":\"abc\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"
        "[{\"AttributeName\":\"a\",\"AttributeType\":\"S\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"a\",\"KeyType\":\"RANGE\"}]}",
        ST_VALIDATION, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    err(s, "DescribeTable", "{\"TableName\":\"nope\"}", ST_NOT_FOUND,
        "Requested resource not found: Table: nope not found");
    err(s, "DeleteTable", "{\"TableName\":\"nope\"}", ST_NOT_FOUND,
        "Requested resource not found: Table: nope not found");
    err(s, "ListTables", "{\"Limit\":0}", ST_VALIDATION,
        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member"
        " must have value greater than or equal to 1");
}

static void items_are_put_got_deleted(void **state)
{
    store *s = *state;
    load_graph(s);
    ok_eq(s, "GetItem",
          "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}}}",
          "{\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"2\"},"
          "\"note\":{\"S\":\"hi\"}}}");
    ok_eq(s, "GetItem",
          "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}},"
          "\"ReturnConsumedCapacity\":\"TOTAL\",\"ConsistentRead\":true}",
          "{\"ConsumedCapacity\":{\"CapacityUnits\":1,\"TableName\":\"Graph\"}}");
    /* Replacing returns the old item with ALL_OLD. */
    ok_eq(s, "PutItem",
          "{\"TableName\":\"Graph\",\"ReturnValues\":\"ALL_OLD\",\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
          "\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"3\"}}}",
          "{\"Attributes\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"2\"},"
          "\"note\":{\"S\":\"hi\"}}}");
    ok_eq(s, "DeleteItem",
          "{\"TableName\":\"Graph\",\"ReturnValues\":\"ALL_OLD\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
          "\"SK\":{\"S\":\"PROFILE\"}}}",
          "{\"Attributes\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"3\"}}}");
    ok_eq(s, "DeleteItem",
          "{\"TableName\":\"Graph\",\"ReturnValues\":\"ALL_OLD\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
          "\"SK\":{\"S\":\"PROFILE\"}}}", "{}");
    ok_eq(s, "GetItem",
          "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}}}", "{}");
}

static void write_capacity_counts_indexes(void **state)
{
    store *s = *state;
    load_graph(s);
    /* New item in GSI1 (ALL): 1 table unit, 1 index unit. */
    ok_eq(s, "PutItem",
          "{\"TableName\":\"Graph\",\"ReturnConsumedCapacity\":\"INDEXES\",\"Item\":{\"PK\":{\"S\":\"ACTOR#erin\"},"
          "\"SK\":{\"S\":\"TARGET#bob\"},\"GSI1PK\":{\"S\":\"TARGET#bob\"},\"GSI1SK\":{\"S\":\"ACTOR#erin\"}}}",
          "{\"ConsumedCapacity\":{\"CapacityUnits\":2,\"TableName\":\"Graph\",\"Table\":{\"CapacityUnits\":1},"
          "\"GlobalSecondaryIndexes\":{\"GSI1\":{\"CapacityUnits\":1}}}}");
    /* Changing the index key: delete + put in the index. */
    ok_eq(s, "PutItem",
          "{\"TableName\":\"Graph\",\"ReturnConsumedCapacity\":\"INDEXES\",\"Item\":{\"PK\":{\"S\":\"ACTOR#erin\"},"
          "\"SK\":{\"S\":\"TARGET#bob\"},\"GSI1PK\":{\"S\":\"TARGET#carol\"},\"GSI1SK\":{\"S\":\"ACTOR#erin\"}}}",
          "{\"ConsumedCapacity\":{\"CapacityUnits\":3,\"TableName\":\"Graph\",\"Table\":{\"CapacityUnits\":1},"
          "\"GlobalSecondaryIndexes\":{\"GSI1\":{\"CapacityUnits\":2}}}}");
    ok_eq(s, "PutItem",
          "{\"TableName\":\"Graph\",\"ReturnConsumedCapacity\":\"TOTAL\",\"Item\":{\"PK\":{\"S\":\"ACTOR#erin\"},"
          "\"SK\":{\"S\":\"X\"}}}",
          "{\"ConsumedCapacity\":{\"CapacityUnits\":1,\"TableName\":\"Graph\"}}");
}

static const char q_alice[] =
    "\"KeyConditions\":{\"PK\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"ACTOR#alice\"}]}";

static char *query(store *s, const char *extra)
{
    char req[2048];
    snprintf(req, sizeof req, "{\"TableName\":\"Graph\",%s}", extra);
    return ok(s, "Query", req);
}

static void count_of(const char *resp, int want_count, int want_scanned)
{
    char want[64];
    snprintf(want, sizeof want, "\"Count\":%d,\"ScannedCount\":%d", want_count, want_scanned);
    if (!strstr(resp, want))
        fail_msg("want %s in %s", want, resp);
}

static void queries_read_key_ranges_both_ways(void **state)
{
    store *s = *state;
    load_graph(s);
    char req[1024], *r;
    snprintf(req, sizeof req, "%s}", q_alice);
    r = query(s, req);
    count_of(r, 3, 3);
    /* Sort order: PROFILE < TARGET#bob < TARGET#carol. */
    assert_true(strstr(r, "PROFILE") < strstr(r, "TARGET#bob"));
    assert_true(strstr(r, "TARGET#bob") < strstr(r, "TARGET#carol"));
    free(r);
    snprintf(req, sizeof req, "%s},\"ScanIndexForward\":false", q_alice);
    r = query(s, req);
    assert_true(strstr(r, "TARGET#carol") < strstr(r, "TARGET#bob"));
    free(r);
    snprintf(req, sizeof req, "%s,\"SK\":{\"ComparisonOperator\":\"BEGINS_WITH\",\"AttributeValueList\":[{\"S\":\"TARGET#\"}]}}", q_alice);
    r = query(s, req);
    count_of(r, 2, 2);
    free(r);
    snprintf(req, sizeof req, "%s,\"SK\":{\"ComparisonOperator\":\"LT\",\"AttributeValueList\":[{\"S\":\"TARGET#bob\"}]}}", q_alice);
    r = query(s, req);
    count_of(r, 1, 1);
    free(r);
    snprintf(req, sizeof req, "%s,\"SK\":{\"ComparisonOperator\":\"BETWEEN\",\"AttributeValueList\":[{\"S\":\"TARGET#bob\"},{\"S\":\"TARGET#c\"}]}}", q_alice);
    r = query(s, req);
    count_of(r, 1, 1);
    free(r);
    /* Paging with Limit and ExclusiveStartKey, forward and backward. */
    snprintf(req, sizeof req, "%s},\"Limit\":2", q_alice);
    r = query(s, req);
    count_of(r, 2, 2);
    assert_non_null(strstr(r, "\"LastEvaluatedKey\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"}}"));
    free(r);
    snprintf(req, sizeof req, "%s},\"ExclusiveStartKey\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"}}", q_alice);
    r = query(s, req);
    count_of(r, 1, 1);
    assert_non_null(strstr(r, "TARGET#carol"));
    assert_null(strstr(r, "LastEvaluatedKey"));
    free(r);
    snprintf(req, sizeof req, "%s},\"ScanIndexForward\":false,\"ExclusiveStartKey\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"}}", q_alice);
    r = query(s, req);
    count_of(r, 1, 1);
    assert_non_null(strstr(r, "PROFILE"));
    free(r);
    snprintf(req, sizeof req, "%s},\"Select\":\"COUNT\"", q_alice);
    r = query(s, req);
    assert_string_equal(r, "{\"Count\":3,\"ScannedCount\":3}");
    free(r);
}

static void indexes_are_sparse_and_projected(void **state)
{
    store *s = *state;
    load_graph(s);
    char *r = query(s, "\"IndexName\":\"GSI1\",\"KeyConditions\":{\"GSI1PK\":{\"ComparisonOperator\":\"EQ\","
                       "\"AttributeValueList\":[{\"S\":\"TARGET#bob\"}]}}");
    count_of(r, 2, 2);
    /* bob is followed by alice and dave, in GSI1SK order; ALL projection. */
    assert_true(strstr(r, "ACTOR#alice") < strstr(r, "ACTOR#dave"));
    assert_non_null(strstr(r, "\"at\":{\"S\":\"2024-01-02\"}"));
    free(r);
    r = query(s, "\"IndexName\":\"GSI1\",\"Limit\":1,\"KeyConditions\":{\"GSI1PK\":{\"ComparisonOperator\":\"EQ\","
                 "\"AttributeValueList\":[{\"S\":\"TARGET#bob\"}]}}");
    /* LastEvaluatedKey of an index read holds table and index keys. */
    assert_non_null(strstr(r, "\"LastEvaluatedKey\":{\"GSI1PK\":{\"S\":\"TARGET#bob\"},\"GSI1SK\":"
                              "{\"S\":\"ACTOR#alice\"},\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"}}"));
    free(r);
    r = query(s, "\"IndexName\":\"GSI1\",\"KeyConditions\":{\"GSI1PK\":{\"ComparisonOperator\":\"EQ\","
                 "\"AttributeValueList\":[{\"S\":\"TARGET#bob\"}]}},\"ExclusiveStartKey\":{\"GSI1PK\":{\"S\":"
                 "\"TARGET#bob\"},\"GSI1SK\":{\"S\":\"ACTOR#alice\"},\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":"
                 "{\"S\":\"TARGET#bob\"}}");
    count_of(r, 1, 1);
    assert_non_null(strstr(r, "ACTOR#dave"));
    free(r);
    /* KEYS_ONLY: only table and index keys; profiles only (sparse). */
    ok_eq(s, "Scan", "{\"TableName\":\"Graph\",\"IndexName\":\"ByN\"}",
          "{\"Items\":[{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"-1\"}},"
          "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"2\"}}],"
          "\"Count\":2,\"ScannedCount\":2}");
    /* INCLUDE projection on the LSI. */
    ok_eq(s, "Query", "{\"TableName\":\"Graph\",\"IndexName\":\"LsiN\",\"KeyConditions\":{\"PK\":"
                      "{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"ACTOR#alice\"}]}}}",
          "{\"Items\":[{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"2\"},"
          "\"note\":{\"S\":\"hi\"}}],\"Count\":1,\"ScannedCount\":1}");
    /* Removing the index key removes the entry. */
    put(s, "{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"PROFILE\"}}");
    r = ok(s, "Scan", "{\"TableName\":\"Graph\",\"IndexName\":\"ByN\",\"Select\":\"COUNT\"}");
    assert_string_equal(r, "{\"Count\":1,\"ScannedCount\":1}");
    free(r);
    err(s, "Query", "{\"TableName\":\"Graph\",\"IndexName\":\"Nope\",\"KeyConditions\":{\"PK\":"
                    "{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"x\"}]}}}",
        ST_VALIDATION, "The table does not have the specified index: Nope");
    err(s, "Query", "{\"TableName\":\"Graph\",\"IndexName\":\"GSI1\",\"ConsistentRead\":true,\"KeyConditions\":"
                    "{\"GSI1PK\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"x\"}]}}}",
        ST_VALIDATION, "Consistent reads are not supported on global secondary indexes");
}

static void partitions_pages_and_stats(void **state)
{
    store *s = *state;
    load_graph(s);
    diag d;
    diag_init(&d);
    table_stats ts;
    assert_int_equal(store_stats(s, "Graph", NULL, &ts, &d), ST_OK);
    assert_int_equal(ts.items, 5);
    assert_int_equal(ts.partitions, 2);
    assert_true(ts.bytes > 0);
    assert_int_equal(store_stats(s, "Graph", "GSI1", &ts, &d), ST_OK);
    assert_int_equal(ts.items, 3);
    assert_int_equal(ts.partitions, 2);

    part_info parts[8];
    size_t n;
    assert_int_equal(store_partitions(s, "Graph", NULL, NULL, false, 8, parts, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    assert_string_equal(parts[0].pk.u.s.ptr, "ACTOR#alice");
    assert_int_equal(parts[0].items, 3);
    assert_string_equal(parts[1].pk.u.s.ptr, "ACTOR#dave");
    assert_int_equal(parts[1].items, 2);
    av after;
    av_copy(&after, &parts[0].pk);
    for (size_t i = 0; i < n; i++)
        av_done(&parts[i].pk);
    assert_int_equal(store_partitions(s, "Graph", NULL, &after, false, 8, parts, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(parts[0].pk.u.s.ptr, "ACTOR#dave");
    av_done(&parts[0].pk);
    assert_int_equal(store_partitions(s, "Graph", NULL, &after, true, 8, parts, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    assert_int_equal(store_partitions_by_size(s, "Graph", "GSI1", 8, parts, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    assert_string_equal(parts[0].pk.u.s.ptr, "TARGET#bob");
    assert_int_equal(parts[0].items, 2);
    for (size_t i = 0; i < n; i++)
        av_done(&parts[i].pk);

    av items[8];
    assert_int_equal(store_page(s, "Graph", NULL, &after, NULL, true, 2, items, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    assert_string_equal(av_map_get(&items[1], "SK", 2)->u.s.ptr, "TARGET#bob");
    av cursor;
    av_copy(&cursor, &items[1]);
    for (size_t i = 0; i < n; i++)
        av_done(&items[i]);
    assert_int_equal(store_page(s, "Graph", NULL, &after, &cursor, true, 8, items, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(av_map_get(&items[0], "SK", 2)->u.s.ptr, "TARGET#carol");
    av_done(&items[0]);
    assert_int_equal(store_page(s, "Graph", NULL, &after, &cursor, false, 8, items, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(av_map_get(&items[0], "SK", 2)->u.s.ptr, "PROFILE");
    av_done(&items[0]);
    av_done(&cursor);
    av_done(&after);

    /* Deleting the last item of a partition removes the partition. */
    free(ok(s, "DeleteItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"PROFILE\"}}}"));
    free(ok(s, "DeleteItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"TARGET#bob\"}}}"));
    assert_int_equal(store_stats(s, "Graph", NULL, &ts, &d), ST_OK);
    assert_int_equal(ts.items, 3);
    assert_int_equal(ts.partitions, 1);
    char *desc = ok(s, "DescribeTable", "{\"TableName\":\"Graph\"}");
    assert_non_null(strstr(desc, "\"ItemCount\":3"));
    free(desc);
}

static void item_validation_messages(void **state)
{
    store *s = *state;
    load_graph(s);
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"SK\":{\"S\":\"x\"}}}", ST_VALIDATION,
        "One or more parameter values were invalid: Missing the key PK in the item");
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"N\":\"1\"},\"SK\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "One or more parameter values were invalid: Type mismatch for key PK expected: S actual: N");
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"\"},\"SK\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "One or more parameter values are not valid. The AttributeValue for a key"
        " attribute cannot contain an empty string value. Key: PK");
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"x\"},"
                      "\"GSI1PK\":{\"N\":\"1\"}}}", ST_VALIDATION,
        "One or more parameter values were invalid: Type mismatch for Index Key GSI1PK Expected: S"
        " Actual: N IndexName: GSI1");
    err(s, "PutItem", "{\"TableName\":\"Nope\",\"Item\":{\"PK\":{\"S\":\"a\"}}}", ST_NOT_FOUND,
        "Requested resource not found");
    err(s, "GetItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"a\"}}}", ST_VALIDATION,
        "The provided key element does not match the schema");
    err(s, "GetItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"N\":\"1\"}}}",
        ST_VALIDATION, "The provided key element does not match the schema");
    err(s, "DeleteItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"\"}}}",
        ST_VALIDATION, "One or more parameter values were invalid: The AttributeValue for a key"
        " attribute cannot contain an empty string value. Key: SK");
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"ReturnValues\":\"ALL_NEW\",\"Item\":{\"PK\":{\"S\":\"a\"},"
                      "\"SK\":{\"S\":\"x\"}}}", ST_VALIDATION,
        "1 validation error detected: ReturnValues can only be ALL_OLD or NONE");
    err(s, "PutItem", "{\"TableName\":\"Graph\"}", ST_VALIDATION,
        "1 validation error detected: Value null at 'item' failed to satisfy constraint: Member must not be null");
    err(s, "GetItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"x\"}},"
                      "\"ConsistentRead\":3}", ST_SERIALIZATION, "NUMBER_VALUE cannot be converted to Boolean");
    /* Key size limits. */
    char *big = xmalloc(3000), *req = xmalloc(4000);
    memset(big, 'k', 2049);
    big[2049] = '\0';
    snprintf(req, 4000, "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"%s\"},\"SK\":{\"S\":\"x\"}}}", big);
    err(s, "PutItem", req, ST_VALIDATION, "One or more parameter values were invalid: Size of hashkey"
        " has exceeded the maximum size limit of2048 bytes");
    big[1025] = '\0';
    snprintf(req, 4000, "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"%s\"}}}", big);
    err(s, "PutItem", req, ST_VALIDATION, "One or more parameter values were invalid: Aggregated size"
        " of all range keys has exceeded the size limit of 1024 bytes");
    free(big);
    free(req);
    /* Items over 400 KB. */
    size_t n = 410 * 1024;
    big = xmalloc(n + 1);
    memset(big, 'v', n);
    big[n] = '\0';
    req = xmalloc(n + 200);
    snprintf(req, n + 200, "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"},"
                           "\"v\":{\"S\":\"%s\"}}}", big);
    err(s, "PutItem", req, ST_VALIDATION, "Item size has exceeded the maximum allowed size");
    free(big);
    free(req);
}

static void bulk_writes_commit_or_roll_back(void **state)
{
    store *s = *state;
    load_graph(s);
    diag d;
    diag_init(&d);
    char text[256];
    assert_int_equal(store_begin(s, &d), ST_OK);
    for (int i = 0; i < 500; i++) {
        snprintf(text, sizeof text, "{\"PK\":{\"S\":\"P#%d\"},\"SK\":{\"S\":\"S#%d\"},\"n\":{\"N\":\"%d\"}}",
                 i % 7, i, i);
        av item;
        assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
        assert_int_equal(store_put_item(s, "Graph", &item, &d), ST_OK);
        av_done(&item);
    }
    /* A bad item is refused without spoiling the transaction. */
    av bad;
    snprintf(text, sizeof text, "{\"PK\":{\"S\":\"P#x\"}}");
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &bad, &d), ST_OK);
    assert_int_equal(store_put_item(s, "Graph", &bad, &d), ST_VALIDATION);
    av_done(&bad);
    assert_int_equal(store_commit(s, &d), ST_OK);
    table_stats ts;
    assert_int_equal(store_stats(s, "Graph", NULL, &ts, &d), ST_OK);
    assert_int_equal(ts.items, 505);
    assert_int_equal(ts.partitions, 9);
    assert_int_equal(store_stats(s, "Graph", "ByN", &ts, &d), ST_OK);
    assert_int_equal(ts.items, 502);

    assert_int_equal(store_begin(s, &d), ST_OK);
    snprintf(text, sizeof text, "{\"PK\":{\"S\":\"gone\"},\"SK\":{\"S\":\"x\"}}");
    av item;
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
    assert_int_equal(store_put_item(s, "Graph", &item, &d), ST_OK);
    av_done(&item);
    store_rollback(s);
    assert_int_equal(store_stats(s, "Graph", NULL, &ts, &d), ST_OK);
    assert_int_equal(ts.items, 505);
}

static void a_second_connection_sees_writes(void **state)
{
    store *s = *state, *r;
    diag d;
    diag_init(&d);
    load_graph(s);
    assert_int_equal(store_open(path, STORE_READ_ONLY, &r, &d), ST_OK);
    table_stats ts;
    assert_int_equal(store_stats(r, "Graph", NULL, &ts, &d), ST_OK);
    assert_int_equal(ts.items, 5);
    put(s, "{\"PK\":{\"S\":\"new\"},\"SK\":{\"S\":\"x\"}}");
    assert_int_equal(store_stats(r, "Graph", NULL, &ts, &d), ST_OK);
    assert_int_equal(ts.items, 6);
    /* A read-only handle refuses writes. */
    const char *req = "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"x\"}}}";
    char *out = NULL;
    assert_int_equal(store_call(r, "PutItem", req, strlen(req), &out, &d), ST_READ_ONLY);
    free(out);
    store_close(r);
}

static void api_lines(void **state)
{
    store *s = *state;
    char *out;
    const char *l1 = "{\"Operation\":\"ListTables\",\"Input\":{}}";
    assert_int_equal(store_call_line(s, l1, strlen(l1), &out), ST_OK);
    assert_string_equal(out, "{\"Output\":{\"TableNames\":[]}}");
    free(out);
    const char *l2 = "{\"Operation\":\"Describe";
    assert_int_equal(store_call_line(s, l2, strlen(l2), &out), ST_SERIALIZATION);
    assert_non_null(strstr(out, "{\"Error\":{\"Code\":\"SerializationException\",\"Message\":"));
    free(out);
    const char *l3 = "{\"Operation\":\"DescribeTable\",\"Input\":{\"TableName\":\"nope\"}}";
    assert_int_equal(store_call_line(s, l3, strlen(l3), &out), ST_NOT_FOUND);
    assert_string_equal(out, "{\"Error\":{\"Code\":\"ResourceNotFoundException\",\"Message\":"
                             "\"Requested resource not found: Table: nope not found\"}}");
    free(out);
}

static void conditions_guard_writes(void **state)
{
    store *s = *state;
    load_graph(s);
    const char *again = "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
                        "\"ConditionExpression\":\"attribute_not_exists(PK)\"}";
    err(s, "PutItem", again, ST_CONDITION_FAILED, "The conditional request failed");
    /* ReturnValuesOnConditionCheckFailure hands back the current item. */
    const char *rv = "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
                     "\"ConditionExpression\":\"attribute_not_exists(PK)\","
                     "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}";
    char *line = NULL;
    char req[1024];
    snprintf(req, sizeof req, "{\"Operation\":\"PutItem\",\"Input\":%s}", rv);
    assert_int_equal(store_call_line(s, req, strlen(req), &line), ST_CONDITION_FAILED);
    assert_string_equal(line, "{\"Error\":{\"Code\":\"ConditionalCheckFailedException\",\"Message\":"
                              "\"The conditional request failed\",\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
                              "\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"2\"},\"note\":{\"S\":\"hi\"}}}}");
    free(line);
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"}},"
                      "\"ConditionExpression\":\"status = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "1 validation error detected: Invalid ConditionExpression: Attribute name is a reserved"
        " keyword; reserved keyword: status");
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"}},"
                      "\"ConditionExpression\":\"n = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"},"
                      "\":w\":{\"S\":\"y\"}}}",
        ST_VALIDATION, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
    err(s, "PutItem", "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"}},"
                      "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "1 validation error detected: ExpressionAttributeValues can only be specified when"
        " using expressions: ConditionExpression is null");
    /* A passing condition lets the delete through. */
    ok_eq(s, "DeleteItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
                           "\"ConditionExpression\":\"#n > :v\",\"ExpressionAttributeNames\":{\"#n\":\"n\"},"
                           "\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}}}", "{}");
}

static void updates_apply_and_return_values(void **state)
{
    store *s = *state;
    load_graph(s);
    ok_eq(s, "UpdateItem",
          "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
          "\"UpdateExpression\":\"SET n = n + :one, tags = :t REMOVE note\","
          "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":t\":{\"SS\":[\"x\"]}},\"ReturnValues\":\"ALL_NEW\"}",
          "{\"Attributes\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"3\"},"
          "\"tags\":{\"SS\":[\"x\"]}}}");
    ok_eq(s, "UpdateItem",
          "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
          "\"UpdateExpression\":\"ADD tags :t\",\"ExpressionAttributeValues\":{\":t\":{\"SS\":[\"y\"]}},"
          "\"ReturnValues\":\"UPDATED_OLD\"}",
          "{\"Attributes\":{\"tags\":{\"SS\":[\"x\"]}}}");
    /* A missing item is created from its key. */
    ok_eq(s, "UpdateItem",
          "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}},"
          "\"UpdateExpression\":\"SET n = :n\",\"ExpressionAttributeValues\":{\":n\":{\"N\":\"7\"}},"
          "\"ReturnValues\":\"ALL_NEW\"}",
          "{\"Attributes\":{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"},\"n\":{\"N\":\"7\"}}}");
    err(s, "UpdateItem",
        "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}},"
        "\"UpdateExpression\":\"SET PK = :n\",\"ExpressionAttributeValues\":{\":n\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "One or more parameter values were invalid: Cannot update attribute PK. This"
        " attribute is part of the key");
    err(s, "UpdateItem",
        "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}},"
        "\"UpdateExpression\":\"SET GSI1PK = :n\",\"ExpressionAttributeValues\":{\":n\":{\"N\":\"1\"}}}",
        ST_VALIDATION, "One or more parameter values were invalid: Type mismatch for Index Key GSI1PK"
        " Expected: S Actual: N IndexName: GSI1");
    err(s, "UpdateItem",
        "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#nobody\"},\"SK\":{\"S\":\"PROFILE\"}},"
        "\"ConditionExpression\":\"attribute_exists(PK)\",\"UpdateExpression\":\"SET n = :n\","
        "\"ExpressionAttributeValues\":{\":n\":{\"N\":\"1\"}}}",
        ST_CONDITION_FAILED, "The conditional request failed");
    /* The update moved the profile into the ByN index. */
    table_stats ts;
    diag d;
    diag_init(&d);
    assert_int_equal(store_stats(s, "Graph", "ByN", &ts, &d), ST_OK);
    assert_int_equal(ts.items, 3);
}

static void filters_projections_and_key_expressions(void **state)
{
    store *s = *state;
    load_graph(s);
    char *r = ok(s, "Query", "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p AND begins_with(SK, :t)\","
                             "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#alice\"},\":t\":{\"S\":\"TARGET#\"}}}");
    count_of(r, 2, 2);
    free(r);
    /* Limit counts items read, before the filter. */
    r = ok(s, "Query", "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p\",\"Limit\":2,"
                       "\"FilterExpression\":\"attribute_exists(GSI1PK)\","
                       "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#alice\"}}}");
    count_of(r, 1, 2);
    assert_non_null(strstr(r, "LastEvaluatedKey"));
    free(r);
    ok_eq(s, "Query", "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p AND SK = :s\","
                      "\"ProjectionExpression\":\"note, #n\",\"ExpressionAttributeNames\":{\"#n\":\"n\"},"
                      "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#alice\"},\":s\":{\"S\":\"PROFILE\"}}}",
          "{\"Items\":[{\"n\":{\"N\":\"2\"},\"note\":{\"S\":\"hi\"}}],\"Count\":1,\"ScannedCount\":1}");
    err(s, "Query", "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p\",\"FilterExpression\":\"SK = :p\","
                    "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#alice\"}}}",
        ST_VALIDATION, "Filter Expression can only contain non-primary key attributes: Primary key attribute: SK");
    err(s, "Query", "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p\","
                    "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#alice\"}},"
                    "\"ExclusiveStartKey\":{\"PK\":{\"S\":\"ACTOR#bob\"},\"SK\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "The provided starting key is outside query boundaries based on provided conditions");
    r = ok(s, "Scan", "{\"TableName\":\"Graph\",\"FilterExpression\":\"GSI1PK = :b\","
                      "\"ExpressionAttributeValues\":{\":b\":{\"S\":\"TARGET#bob\"}}}");
    count_of(r, 2, 5);
    free(r);
    ok_eq(s, "GetItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
                        "\"AttributesToGet\":[\"note\",\"zz\"]}",
          "{\"Item\":{\"note\":{\"S\":\"hi\"}}}");
    err(s, "Scan", "{\"TableName\":\"Graph\",\"IndexName\":\"ByN\",\"Select\":\"ALL_ATTRIBUTES\"}", ST_VALIDATION,
        "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global"
        " secondary index ByN because its projection type is not ALL");
    /* Segments split the table by partition and cover it exactly once. */
    int total = 0;
    for (int seg = 0; seg < 3; seg++) {
        char req[256];
        snprintf(req, sizeof req, "{\"TableName\":\"Graph\",\"Select\":\"COUNT\",\"Segment\":%d,\"TotalSegments\":3}", seg);
        r = ok(s, "Scan", req);
        int c = 0;
        assert_int_equal(sscanf(r, "{\"Count\":%d", &c), 1);
        total += c;
        free(r);
    }
    assert_int_equal(total, 5);
}

static void batch_writes_and_gets(void **state)
{
    store *s = *state;
    load_graph(s);
    ok_eq(s, "BatchWriteItem",
          "{\"ReturnConsumedCapacity\":\"TOTAL\",\"RequestItems\":{\"Graph\":["
          "{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"A\"}}}},"
          "{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"B\"}}}},"
          "{\"DeleteRequest\":{\"Key\":{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"PROFILE\"}}}}]}}",
          /* 3 table writes, and dave's profile leaves ByN and LsiN. */
          "{\"UnprocessedItems\":{},\"ConsumedCapacity\":[{\"CapacityUnits\":5,\"TableName\":\"Graph\"}]}");
    err(s, "BatchWriteItem", "{\"RequestItems\":{\"Graph\":["
        "{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"A\"}}}},"
        "{\"DeleteRequest\":{\"Key\":{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"A\"}}}}]}}",
        ST_VALIDATION, "Provided list of item keys contains duplicates");
    err(s, "BatchWriteItem", "{\"RequestItems\":{\"Graph\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"U#1\"}}}}]}}",
        ST_VALIDATION, "The provided key element does not match the schema");
    err(s, "BatchWriteItem", "{\"RequestItems\":{\"Nope\":[{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"U#1\"}}}}]}}",
        ST_NOT_FOUND, "Requested resource not found");
    /* More than 25 writes. */
    buf b = BUF_INIT;
    buf_adds(&b, "{\"RequestItems\":{\"Graph\":[");
    for (int i = 0; i < 26; i++)
        buf_printf(&b, "%s{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"k%d\"},\"SK\":{\"S\":\"x\"}}}}", i ? "," : "", i);
    buf_adds(&b, "]}}");
    /* The map quoted as AWS's Java prints it, at 'requestItems'
     * (nubo-db/dynamodb-conformance's BatchWriteItem messages, 2026;
     * test_messages.c pins the frame). */
    diag d;
    diag_init(&d);
    char *out = NULL;
    assert_int_equal(store_call(s, "BatchWriteItem", b.data, b.len, &out, &d), ST_VALIDATION);
    assert_non_null(strstr(store_error_message(s, ST_VALIDATION, &d), "]}' at 'requestItems' failed to satisfy"
                           " constraint: Map value must satisfy constraint: [Member must have length less than"
                           " or equal to 25, Member must have length greater than or equal to 1]"));
    free(out);
    buf_done(&b);

    ok_eq(s, "BatchGetItem",
          "{\"RequestItems\":{\"Graph\":{\"Keys\":[{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"B\"}},"
          "{\"PK\":{\"S\":\"U#9\"},\"SK\":{\"S\":\"B\"}},{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}}],"
          "\"ProjectionExpression\":\"PK, note\"}}}",
          "{\"Responses\":{\"Graph\":[{\"PK\":{\"S\":\"U#1\"}},{\"PK\":{\"S\":\"ACTOR#alice\"},\"note\":{\"S\":\"hi\"}}]},"
          "\"UnprocessedKeys\":{}}");
    err(s, "BatchGetItem", "{\"RequestItems\":{\"Graph\":{\"Keys\":[{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"B\"}},"
                           "{\"PK\":{\"S\":\"U#1\"},\"SK\":{\"S\":\"B\"}}]}}}",
        ST_VALIDATION, "Provided list of item keys contains duplicates");
    buf_adds(&b, "{\"RequestItems\":{\"Graph\":{\"Keys\":[");
    for (int i = 0; i < 60; i++)
        buf_printf(&b, "%s{\"PK\":{\"S\":\"k%d\"},\"SK\":{\"S\":\"x\"}}", i ? "," : "", i);
    buf_adds(&b, "]},\"Another\":{\"Keys\":[");
    for (int i = 0; i < 41; i++)
        buf_printf(&b, "%s{\"PK\":{\"S\":\"k%d\"},\"SK\":{\"S\":\"x\"}}", i ? "," : "", i);
    buf_adds(&b, "]}}}");
    err(s, "BatchGetItem", b.data, ST_VALIDATION, "Too many items requested for the BatchGetItem call");
    buf_done(&b);
}

static void transactions_are_all_or_nothing(void **state)
{
    store *s = *state;
    load_graph(s);
    /* alice follows erin: the edge and the counter move together. */
    ok_eq(s, "TransactWriteItems",
          "{\"ReturnConsumedCapacity\":\"TOTAL\",\"TransactItems\":["
          "{\"Put\":{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#erin\"}},"
          "\"ConditionExpression\":\"attribute_not_exists(PK)\"}},"
          "{\"Update\":{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
          "\"UpdateExpression\":\"ADD n :one\",\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}}]}",
          /* Doubled: 2 table writes, and n moving in ByN and LsiN (delete +
           * put in each). */
          "{\"ConsumedCapacity\":[{\"CapacityUnits\":12,\"TableName\":\"Graph\"}]}");
    /* Again: the condition fails, nothing is written, reasons in order. */
    const char *again =
        "{\"Operation\":\"TransactWriteItems\",\"Input\":{\"TransactItems\":["
        "{\"Update\":{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
        "\"UpdateExpression\":\"ADD n :one\",\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}},"
        "{\"Put\":{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#erin\"}},"
        "\"ConditionExpression\":\"attribute_not_exists(PK)\",\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}}]}}";
    char *line;
    assert_int_equal(store_call_line(s, again, strlen(again), &line), ST_TXN_CANCELED);
    assert_string_equal(line, "{\"Error\":{\"Code\":\"TransactionCanceledException\",\"Message\":"
                              "\"Transaction cancelled, please refer cancellation reasons for specific reasons"
                              " [None, ConditionalCheckFailed]\",\"CancellationReasons\":[{\"Code\":\"None\"},"
                              "{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional request failed\","
                              "\"Item\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#erin\"}}}]}}");
    free(line);
    ok_eq(s, "TransactGetItems",
          "{\"TransactItems\":[{\"Get\":{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
          "\"SK\":{\"S\":\"PROFILE\"}},\"ProjectionExpression\":\"n\"}},{\"Get\":{\"TableName\":\"Graph\","
          "\"Key\":{\"PK\":{\"S\":\"nobody\"},\"SK\":{\"S\":\"x\"}}}}]}",
          "{\"Responses\":[{\"Item\":{\"n\":{\"N\":\"3\"}}},{}]}");
    err(s, "TransactWriteItems",
        "{\"TransactItems\":[{\"Delete\":{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"}}}},"
        "{\"ConditionCheck\":{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"a\"},\"SK\":{\"S\":\"b\"}},"
        "\"ConditionExpression\":\"attribute_exists(PK)\"}}]}",
        ST_VALIDATION, "Transaction request cannot include multiple operations on one item");
    buf b = BUF_INIT;
    buf_adds(&b, "{\"TransactItems\":[");
    for (int i = 0; i < 101; i++)
        buf_printf(&b, "%s{\"Delete\":{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"k%d\"},\"SK\":{\"S\":\"x\"}}}}",
                   i ? "," : "", i);
    buf_adds(&b, "]}");
    /* The list quoted as AWS's Java prints it, at 'transactItems'
     * (nubo-db/dynamodb-conformance's TransactWriteItems messages, 2026;
     * test_messages.c pins the frame). */
    diag d;
    diag_init(&d);
    char *out = NULL;
    assert_int_equal(store_call(s, "TransactWriteItems", b.data, b.len, &out, &d), ST_VALIDATION);
    assert_non_null(strstr(store_error_message(s, ST_VALIDATION, &d), "]' at 'transactItems' failed to satisfy"
                           " constraint: Member must have length less than or equal to 100"));
    free(out);
    buf_done(&b);
}

static void key_paths_and_empty_projections(void **state)
{
    store *s = *state;
    load_graph(s);
    /* A projection that keeps nothing still returns the item, empty. */
    ok_eq(s, "GetItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
                        "\"ProjectionExpression\":\"nothing\"}", "{\"Item\":{}}");
    err(s, "GetItem", "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"}},"
                      "\"ProjectionExpression\":\"PK[1]\"}",
        ST_VALIDATION, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not"
        " allowed: Key: PK");
    err(s, "Scan", "{\"TableName\":\"Graph\",\"FilterExpression\":\"GSI1PK.x = :v\","
                   "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}",
        ST_VALIDATION, "Key attributes must be scalars; list random access '[]' and map lookup '.' are not"
        " allowed: IndexKey: GSI1PK");
    /* An update that leaves an index entry alone costs that index nothing. */
    ok_eq(s, "UpdateItem",
          "{\"TableName\":\"Graph\",\"ReturnConsumedCapacity\":\"INDEXES\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
          "\"SK\":{\"S\":\"PROFILE\"}},\"UpdateExpression\":\"SET extra = :v\","
          "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}",
          "{\"ConsumedCapacity\":{\"CapacityUnits\":1,\"TableName\":\"Graph\",\"Table\":{\"CapacityUnits\":1}}}");
    /* ...but a projected attribute (LsiN includes note) is a write. */
    ok_eq(s, "UpdateItem",
          "{\"TableName\":\"Graph\",\"ReturnConsumedCapacity\":\"INDEXES\",\"Key\":{\"PK\":{\"S\":\"ACTOR#alice\"},"
          "\"SK\":{\"S\":\"PROFILE\"}},\"UpdateExpression\":\"SET note = :v\","
          "\"ExpressionAttributeValues\":{\":v\":{\"S\":\"x\"}}}",
          "{\"ConsumedCapacity\":{\"CapacityUnits\":2,\"TableName\":\"Graph\",\"Table\":{\"CapacityUnits\":1},"
          "\"LocalSecondaryIndexes\":{\"LsiN\":{\"CapacityUnits\":1}}}}");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(new_file_is_owner_only),
        T(tables_are_created_listed_described_deleted),
        T(create_table_validation),
        T(items_are_put_got_deleted),
        T(write_capacity_counts_indexes),
        T(queries_read_key_ranges_both_ways),
        T(indexes_are_sparse_and_projected),
        T(partitions_pages_and_stats),
        T(item_validation_messages),
        T(bulk_writes_commit_or_roll_back),
        T(a_second_connection_sees_writes),
        T(api_lines),
        T(conditions_guard_writes),
        T(updates_apply_and_return_values),
        T(filters_projections_and_key_expressions),
        T(batch_writes_and_gets),
        T(transactions_are_all_or_nothing),
        T(key_paths_and_empty_projections),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
