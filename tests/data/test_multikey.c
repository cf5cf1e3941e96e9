/*
 * test_multikey — global secondary indexes with multi-attribute keys (up to
 * four HASH and four RANGE attributes), through the JSON dispatcher
 * (store_call): CreateTable and UpdateTable, DescribeTable, which items the
 * index holds, the writes it refuses, Query's key conditions and order,
 * paging, Scan of the index, a reopened file, and a backup restored.
 *
 * Where each expectation comes from is said at the test:
 *   [DG]  the developer guide, "Multi-attribute key schema" (GSI.html) and
 *         "Multi-attribute keys pattern" (GSI.DesignPattern.MultiAttributeKeys):
 *         up to four attributes each, S, N or B; an item missing one is not
 *         in the index; equality on every partition key attribute, sort key
 *         attributes left to right with no gap, a range condition only on
 *         the last; results sorted by the sort key attributes in turn.
 *   [API] the API reference: CreateGlobalSecondaryIndexAction's KeySchema
 *         ("Global secondary index supports up to 4 partition and up to 4
 *         sort keys", no maximum count in the model any more), Query.
 *   [OBS] DynamoDB's answers as observed: the RANGE and HASH refusals'
 *         wording as issue 29 quotes it, and a public conformance suite
 *         validated against AWS (a GSI keyed h / a, b, c, d: the order,
 *         the prefix queries, LastEvaluatedKey's members, the refusals).
 *   [DDBX] ddbx's own form where nothing is published: a Workbench
 *         model's multi-attribute key.
 *   [DDBL] DynamoDB Local 3.3 (AWS's emulator, which implements
 *         multi-attribute keys) where DynamoDB's wording is not published:
 *         the KeySchema refusals (counts, order, a name twice), which
 *         attributes a refusal lists, the legacy KeyConditions.
 * dynalite does not implement multi-attribute keys (its KeySchema is at
 * most 2 elements); tests/multikey compares ddbx with DynamoDB Local.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "data/export.h"
#include "data/import.h"
#include "data/store.h"
#include "model/buf.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"

/* The request bodies are written with ' for " (none of them holds a '). */
static char *dq(const char *sq)
{
    char *b = strdup(sq);
    for (char *p = b; *p; p++)
        if (*p == '\'')
            *p = '"';
    return b;
}

static void qok(store *s, const char *op, const char *sq)
{
    char *b = dq(sq);
    ok(s, op, b);
    free(b);
}

static void qrefused(store *s, const char *op, const char *sq, const char *msg)
{
    char *b = dq(sq);
    refused(s, op, b, ST_VALIDATION, msg);
    free(b);
}

static cJSON *answer(void)
{
    cJSON *o = cJSON_Parse(out_text);
    assert_non_null(o);
    return o;
}

/* The values of attribute `attr` (S) of the answer's Items, joined by ','. */
static char *items_attr(const char *attr)
{
    cJSON *o = answer();
    static char out[512];
    out[0] = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItem(o, "Items")) {
        const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(e, attr), "S");
        if (out[0])
            strcat(out, ",");
        strcat(out, v ? v->valuestring : "?");
    }
    cJSON_Delete(o);
    return out;
}

/* The table of the conformance suite [OBS]: GSI "gsi" keyed h / a, b, c,
 * d (all S); plus "num", keyed t (S), u (N) / v (N), w (B), for types. */
#define DEFS(x) "{'AttributeName':'" x "','AttributeType':'S'}"
#define CREATE_T \
    "{'TableName':'Tab','BillingMode':'PAY_PER_REQUEST','AttributeDefinitions':[" DEFS("pk") "," \
    DEFS("h") "," DEFS("a") "," DEFS("b") "," DEFS("c") "," DEFS("d") "," DEFS("t") "," \
    "{'AttributeName':'u','AttributeType':'N'},{'AttributeName':'v','AttributeType':'N'}," \
    "{'AttributeName':'w','AttributeType':'B'}]," \
    "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'}]," \
    "'GlobalSecondaryIndexes':[{'IndexName':'gsi','KeySchema':[{'AttributeName':'h','KeyType':'HASH'}," \
    "{'AttributeName':'a','KeyType':'RANGE'},{'AttributeName':'b','KeyType':'RANGE'}," \
    "{'AttributeName':'c','KeyType':'RANGE'},{'AttributeName':'d','KeyType':'RANGE'}]," \
    "'Projection':{'ProjectionType':'ALL'}}," \
    "{'IndexName':'num','KeySchema':[{'AttributeName':'t','KeyType':'HASH'}," \
    "{'AttributeName':'u','KeyType':'HASH'},{'AttributeName':'v','KeyType':'RANGE'}," \
    "{'AttributeName':'w','KeyType':'RANGE'}],'Projection':{'ProjectionType':'KEYS_ONLY'}}]}"

static void put(store *s, const char *pk, const char *a, const char *b, const char *c, const char *d)
{
    char body[512];
    snprintf(body, sizeof body, "{'TableName':'Tab','Item':{'pk':{'S':'%s'},'h':{'S':'o1'}", pk);
    const char *names[] = { "a", "b", "c", "d" }, *vals[] = { a, b, c, d };
    for (int i = 0; i < 4; i++)
        if (vals[i])
            snprintf(body + strlen(body), sizeof body - strlen(body), ",'%s':{'S':'%s'}", names[i], vals[i]);
    strcat(body, "}}");
    qok(s, "PutItem", body);
}

static void load(store *s)
{
    qok(s, "CreateTable", CREATE_T);
    put(s, "p1", "T", "live", "b", "r1");
    put(s, "p2", "T", "live", "a", "r2");
    put(s, "p3", "T", "live", "a", "r1");
    put(s, "p4", "T", "draft", "c", "r1");
    put(s, "p5", "F", "live", "a", "r0");
    put(s, "p6", "T", "live", NULL, "r1");   /* no c: not in the index */
}

#define VALS "'ExpressionAttributeValues':{':h':{'S':'o1'},':a':{'S':'T'},':b':{'S':'live'}," \
             "':c':{'S':'a'},':d':{'S':'r'},':x':{'S':'r1'},':y':{'S':'r1'}}"

/* Query gsi with a key condition (the values it does not use dropped, as
 * DynamoDB refuses unused ones); the pks in answer order. */
static char *query(store *s, const char *cond, const char *extra)
{
    char body[1024];
    snprintf(body, sizeof body, "{'TableName':'Tab','IndexName':'gsi','KeyConditionExpression':'%s',"
             "'ExpressionAttributeValues':{", cond);
    const char *ph[] = { ":h", ":a", ":b", ":c", ":d", ":x", ":y" };
    const char *pv[] = { "o1", "T", "live", "a", "r", "r1", "r1" };
    bool first = true;
    for (int i = 0; i < 7; i++) {
        if (!strstr(cond, ph[i]))
            continue;
        snprintf(body + strlen(body), sizeof body - strlen(body), "%s'%s':{'S':'%s'}", first ? "" : ",",
                 ph[i], pv[i]);
        first = false;
    }
    snprintf(body + strlen(body), sizeof body - strlen(body), "}%s}", extra ? extra : "");
    qok(s, "Query", body);
    return items_attr("pk");
}

static void query_refused(store *s, const char *cond, const char *msg)
{
    char body[1024];
    snprintf(body, sizeof body, "{'TableName':'Tab','IndexName':'gsi','KeyConditionExpression':'%s'," VALS "}",
             cond);
    char *b = dq(body);
    /* every placeholder is used by the conditions refused here or not:
     * the key check comes first only when the values are all used, so
     * drop the unused ones as query() does */
    cJSON *o = cJSON_Parse(b);
    free(b);
    cJSON *vals = cJSON_GetObjectItem(o, "ExpressionAttributeValues");
    for (int i = cJSON_GetArraySize(vals) - 1; i >= 0; i--)
        if (!strstr(cond, cJSON_GetArrayItem(vals, i)->string))
            cJSON_DeleteItemFromArray(vals, i);
    char *txt = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    status st = call(s, "Query", txt);
    free(txt);
    if (st != ST_VALIDATION)
        fail_msg("Query %s: %s: %s", cond, status_name(st), out_text ? out_text : "");
    assert_string_equal(out_text, msg);
}

/* [API][DG] a GSI of one HASH and four RANGE attributes, and one of two
 * HASH and two RANGE of types S, N, B: DescribeTable shows each KeySchema
 * as given, in order. */
static void test_describe(void **state)
{
    store *s = *state;
    qok(s, "CreateTable", CREATE_T);
    qok(s, "DescribeTable", "{'TableName':'Tab'}");
    cJSON *o = answer();
    const cJSON *gsis = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "Table"), "GlobalSecondaryIndexes");
    assert_int_equal(cJSON_GetArraySize(gsis), 2);
    char *ks = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(gsis, 1), "KeySchema"));
    assert_string_equal(ks, "[{\"AttributeName\":\"t\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"u\","
                            "\"KeyType\":\"HASH\"},{\"AttributeName\":\"v\",\"KeyType\":\"RANGE\"},"
                            "{\"AttributeName\":\"w\",\"KeyType\":\"RANGE\"}]");
    free(ks);
    ks = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(gsis, 0), "KeySchema"));
    assert_non_null(strstr(ks, "{\"AttributeName\":\"d\",\"KeyType\":\"RANGE\"}]"));
    free(ks);
    cJSON_Delete(o);
}

#define GSI_DEFS "'AttributeDefinitions':[" DEFS("pk") "," DEFS("a") "," DEFS("b") "," DEFS("c") "," \
                 DEFS("d") "," DEFS("e") "]"
#define TABLE_WITH(ks) \
    "{'TableName':'Xtb','BillingMode':'PAY_PER_REQUEST'," GSI_DEFS "," \
    "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'}]," \
    "'GlobalSecondaryIndexes':[{'IndexName':'gx1','KeySchema':[" ks "],'Projection':{'ProjectionType':'ALL'}}]}"
#define H(x) "{'AttributeName':'" x "','KeyType':'HASH'}"
#define R(x) "{'AttributeName':'" x "','KeyType':'RANGE'}"

/* [DG] at most four of each; [DDBL] the wording of the refusals (counts,
 * a HASH after a RANGE, an attribute twice): DynamoDB's is not published.
 * [DYN] one HASH and one RANGE keep dynalite's messages, and an LSI still
 * has exactly one of each. */
static void test_create_refusals(void **state)
{
    store *s = *state;
    qrefused(s, "CreateTable", TABLE_WITH(H("a") "," H("b") "," H("c") "," H("d") "," H("e")),
             "Too many partition keys. GSI can have at most 4 partition keys");
    qrefused(s, "CreateTable", TABLE_WITH(H("pk") "," R("a") "," R("b") "," R("c") "," R("d") "," R("e")),
             "Too many sort keys. GSI can have at most 4 sort keys");
    qrefused(s, "CreateTable", TABLE_WITH(H("a") "," R("b") "," H("c")),
             "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed"
             " second");
    qrefused(s, "CreateTable", TABLE_WITH(H("a") "," R("b") "," R("a")),
             "Two keys can not have the same name");
    qrefused(s, "CreateTable", TABLE_WITH(H("a") "," H("a")),
             "Two keys can not have the same name");
    qrefused(s, "CreateTable", TABLE_WITH(R("a") "," H("b") "," H("c")),
             "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    qrefused(s, "CreateTable", TABLE_WITH(H("a") "," R("a")),
             "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    qrefused(s, "CreateTable", TABLE_WITH(H("a") "," R("zz") "," R("b")),
             "One or more parameter values were invalid: Some index key attributes are not defined in"
             " AttributeDefinitions. Keys: [a, zz, b], AttributeDefinitions: [pk, a, b, c, d, e]");
    qrefused(s, "CreateTable",
             "{'TableName':'Xtb','BillingMode':'PAY_PER_REQUEST'," GSI_DEFS ","
             "'KeySchema':[{'AttributeName':'pk','KeyType':'HASH'},{'AttributeName':'e','KeyType':'RANGE'}],"
             "'LocalSecondaryIndexes':[{'IndexName':'lx1','KeySchema':[" H("pk") "," H("a") "],"
             "'Projection':{'ProjectionType':'ALL'}}]}",
             "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    /* four and four is the most */
    qok(s, "CreateTable", "{'TableName':'Xtb','BillingMode':'PAY_PER_REQUEST','AttributeDefinitions':["
        DEFS("pk") "," DEFS("a") "," DEFS("b") "," DEFS("c") "," DEFS("d") "," DEFS("e") "," DEFS("f") ","
        DEFS("g") "," DEFS("i") "],'KeySchema':[" H("pk") "],'GlobalSecondaryIndexes':[{'IndexName':'gx1',"
        "'KeySchema':[" H("a") "," H("b") "," H("c") "," H("d") "," R("e") "," R("f") "," R("g") "," R("i") "],"
        "'Projection':{'ProjectionType':'ALL'}}]}");
}

/* [DG] an item is in the index only when it has every key attribute;
 * [OBS] the HASH attribute alone returns the indexed items sorted by a,
 * b, c, d in turn, without p6 (no c); ScanIndexForward false reverses. */
static void test_order(void **state)
{
    store *s = *state;
    load(s);
    assert_string_equal(query(s, "h = :h", NULL), "p5,p4,p3,p2,p1");
    assert_string_equal(query(s, "h = :h AND a = :a", NULL), "p4,p3,p2,p1");
    assert_string_equal(query(s, "h = :h AND a = :a", ",'ScanIndexForward':false"), "p1,p2,p3,p4");
    qok(s, "Scan", "{'TableName':'Tab','IndexName':'gsi'}");
    assert_string_equal(items_attr("pk"), "p5,p4,p3,p2,p1");
}

/* [OBS] the prefix queries of the conformance suite, each answer as AWS
 * gave it; [DG] the clauses in any order. */
static void test_prefix_queries(void **state)
{
    store *s = *state;
    load(s);
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b", NULL), "p3,p2,p1");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c = :c", NULL), "p3,p2");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c > :c", NULL), "p1");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c = :c AND begins_with(d, :d)", NULL),
                        "p3,p2");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c = :c AND d BETWEEN :x AND :y", NULL),
                        "p3");
    assert_string_equal(query(s, "h = :h AND a = :a AND b < :b", NULL), "p4");
    assert_string_equal(query(s, "b = :b AND h = :h AND a = :a", NULL), "p3,p2,p1");
    /* the other comparisons on a later attribute, each bounded by the
     * equalities before it: c <= a, c >= a, and a range on the first */
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c <= :c", NULL), "p3,p2");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c >= :c", NULL), "p3,p2,p1");
    assert_string_equal(query(s, "h = :h AND a > :a", NULL), "");
    assert_string_equal(query(s, "h = :h AND a < :a", NULL), "p5");
    assert_string_equal(query(s, "h = :h AND a = :a AND b > :b", NULL), "");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b AND c = :c AND d = :x", NULL), "p3");
}

/* [OBS] the refusals, worded as DynamoDB words them: a gap, a range
 * condition before the last attribute named, the first RANGE attribute
 * skipped; a HASH attribute without its equality (issue 29's wording).
 * [DYN] what a single key refuses stays refused. */
static void test_condition_refusals(void **state)
{
    store *s = *state;
    load(s);
    query_refused(s, "h = :h AND a = :a AND c = :c",
                  "RANGE key attributes b must have equality conditions specified in the query because a"
                  " condition is present on key attribute c");
    query_refused(s, "h = :h AND a = :a AND b > :b AND c = :c",
                  "RANGE key attributes b must have equality conditions specified in the query because a"
                  " condition is present on key attribute c");
    query_refused(s, "h = :h AND b = :b",
                  "RANGE key attributes a must have equality conditions specified in the query because a"
                  " condition is present on key attribute b");
    query_refused(s, "a = :a", "HASH key attributes h must have equality conditions specified in the query");
    /* [DDBL] every attribute of the gap is listed; an earlier range
     * condition is reported after the gaps */
    query_refused(s, "h = :h AND d = :x",
                  "RANGE key attributes a, b, c must have equality conditions specified in the query because a"
                  " condition is present on key attribute d");
    query_refused(s, "h = :h AND a > :a AND c = :c AND d = :x",
                  "RANGE key attributes b must have equality conditions specified in the query because a"
                  " condition is present on key attribute c");
    query_refused(s, "h > :h", "Query key condition not supported");
    query_refused(s, "h = :h AND a = :a OR b = :b", "Invalid operator used in KeyConditionExpression: OR");
    query_refused(s, "h = :h AND pk = :a", "Query key condition not supported");
    /* a HASH attribute of the two-HASH index missing */
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t',"
             "'ExpressionAttributeValues':{':t':{'S':'x'}}}",
             "HASH key attributes u must have equality conditions specified in the query");
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'v = :v',"
             "'ExpressionAttributeValues':{':v':{'N':'1'}}}",
             "HASH key attributes t, u must have equality conditions specified in the query");
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t AND u = :u',"
             "'ExpressionAttributeValues':{':t':{'S':'x'},':u':{'S':'1'}}}",
             "One or more parameter values were invalid: Condition parameter type does not match schema type");
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t AND u = :u"
             " AND begins_with(v, :v)','ExpressionAttributeValues':{':t':{'S':'x'},':u':{'N':'1'},':v':{'N':'1'}}}",
             "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or"
             " function: begins_with, operand type: N");
}

/* [DG] PartiQL ("PartiQL select statements for DynamoDB": a SELECT that
 * fixes the partition key is a Query): on a multi-attribute index, a
 * Query when the WHERE fixes every HASH attribute, with the RANGE terms in
 * turn as its key condition. Limit 1 tells them apart: the Query's first
 * item is p3; a Scan evaluates p5 first, which the filter drops. */
static void test_partiql(void **state)
{
    store *s = *state;
    load(s);
    ok(s, "ExecuteStatement", "{\"Statement\":\"SELECT pk FROM \\\"Tab\\\".\\\"gsi\\\" WHERE a = 'T'"
       " AND h = 'o1' AND b = 'live'\",\"Limit\":1}");
    assert_string_equal(items_attr("pk"), "p3");
    ok(s, "ExecuteStatement", "{\"Statement\":\"SELECT pk FROM \\\"Tab\\\".\\\"gsi\\\" WHERE a = 'T'"
       " AND h = 'o1' AND b = 'live' AND c > 'a'\",\"Limit\":1}");
    assert_string_equal(items_attr("pk"), "p1");
    /* no HASH attribute fixed: a Scan, whose first item fails the filter */
    ok(s, "ExecuteStatement", "{\"Statement\":\"SELECT pk FROM \\\"Tab\\\".\\\"gsi\\\" WHERE a = 'T'\","
       "\"Limit\":1}");
    assert_string_equal(items_attr("pk"), "");
    ok(s, "ExecuteStatement", "{\"Statement\":\"SELECT pk FROM \\\"Tab\\\".\\\"gsi\\\" WHERE a = 'T'"
       " AND h = 'o1'\"}");
    assert_string_equal(items_attr("pk"), "p4,p3,p2,p1");
}

/* [DDBL] the legacy KeyConditions on a multi-attribute key: the same
 * rules and messages as the expression. */
static void test_legacy(void **state)
{
    store *s = *state;
    load(s);
    qok(s, "Query", "{'TableName':'Tab','IndexName':'gsi','KeyConditions':{'h':{'ComparisonOperator':'EQ',"
        "'AttributeValueList':[{'S':'o1'}]},'a':{'ComparisonOperator':'EQ','AttributeValueList':[{'S':'T'}]},"
        "'b':{'ComparisonOperator':'BEGINS_WITH','AttributeValueList':[{'S':'li'}]}}}");
    assert_string_equal(items_attr("pk"), "p3,p2,p1");
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'gsi','KeyConditions':{'h':{'ComparisonOperator':'EQ',"
             "'AttributeValueList':[{'S':'o1'}]},'b':{'ComparisonOperator':'EQ','AttributeValueList':[{'S':'T'}]}}}",
             "RANGE key attributes a must have equality conditions specified in the query because a condition"
             " is present on key attribute b");
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'gsi','KeyConditions':{'a':{'ComparisonOperator':'EQ',"
             "'AttributeValueList':[{'S':'T'}]}}}",
             "HASH key attributes h must have equality conditions specified in the query");
}

/* [DG] every key attribute must have the declared type: a write with one
 * of another type is refused as for a single index key ([DYN]'s message);
 * an empty string refused ([OBS], as for one key); each attribute held to
 * its own limit (2048 bytes a partition key attribute, 1024 a sort key
 * attribute), not their sum. */
static void test_writes(void **state)
{
    store *s = *state;
    qok(s, "CreateTable", CREATE_T);
    qrefused(s, "PutItem", "{'TableName':'Tab','Item':{'pk':{'S':'p'},'t':{'S':'x'},'u':{'S':'1'}}}",
             "One or more parameter values were invalid: Type mismatch for Index Key u Expected: N Actual: S"
             " IndexName: num");
    qrefused(s, "PutItem", "{'TableName':'Tab','Item':{'pk':{'S':'p'},'h':{'S':'x'},'c':{'S':''}}}",
             "One or more parameter values are not valid. A value specified for a secondary index key is not"
             " supported. The AttributeValue for a key attribute cannot contain an empty string value."
             " IndexName: gsi, IndexKey: c");
    /* [DYN] a nested path under any key attribute of the index, as for one
     * key attribute */
    qrefused(s, "UpdateItem", "{'TableName':'Tab','Key':{'pk':{'S':'p'}},'UpdateExpression':'SET w.x = :v',"
             "'ExpressionAttributeValues':{':v':{'S':'1'}}}",
             "Key attributes must be scalars; list random access '[]' and map lookup '.' are not allowed:"
             " IndexKey: w");
    char big[2100], body[4600];
    memset(big, 'k', 2000);
    big[2000] = 0;
    /* two partition key attributes of 2000 bytes each: within each one's limit */
    snprintf(body, sizeof body, "{'TableName':'Tab','Item':{'pk':{'S':'p'},'h':{'S':'%s'},'a':{'S':'%s'},"
             "'b':{'S':'x'},'c':{'S':'x'},'d':{'S':'x'}}}", big, "y");
    qok(s, "PutItem", body);
    snprintf(body, sizeof body, "{'TableName':'Tab','Item':{'pk':{'S':'q'},'t':{'S':'%s'},'u':{'N':'1'},"
             "'v':{'N':'2'},'w':{'B':'AAEC'}}}", big);
    qok(s, "PutItem", body);
    /* the N and B parts query by value: u = 1 and v > 1 */
    qok(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t AND u = :u AND v > :v',"
        "'ExpressionAttributeValues':{':t':{'S':'kkkk'},':u':{'N':'1.0'},':v':{'N':'1'}}}");
    assert_string_equal(items_attr("pk"), "");
    snprintf(body, sizeof body, "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t AND u = :u"
             " AND v > :v','ExpressionAttributeValues':{':t':{'S':'%s'},':u':{'N':'1.0'},':v':{'N':'1'}}}",
             big);
    qok(s, "Query", body);
    assert_string_equal(items_attr("pk"), "q");
    memset(big, 'k', 1025);
    big[1025] = 0;
    snprintf(body, sizeof body, "{'TableName':'Tab','Item':{'pk':{'S':'p'},'h':{'S':'x'},'b':{'S':'%s'}}}", big);
    qrefused(s, "PutItem", body,
             "One or more parameter values were invalid: Size limit exceeded for Index Key b Actual Size:"
             " 1025 bytes Max Size: 1024 bytes IndexName: gsi");
}

/* [DG] numbers in a sort key attribute sort numerically, one attribute
 * after another: v (N) then w (B). */
static void test_number_order(void **state)
{
    store *s = *state;
    qok(s, "CreateTable", CREATE_T);
    const char *rows[][3] = { { "a", "10", "AQ==" }, { "b", "9", "Ag==" }, { "c", "9", "AQ==" },
                              { "d", "-1", "AA==" }, { "e", "10", "AA==" } };
    for (int i = 0; i < 5; i++) {
        char body[256];
        snprintf(body, sizeof body, "{'TableName':'Tab','Item':{'pk':{'S':'%s'},'t':{'S':'x'},'u':{'N':'7'},"
                 "'v':{'N':'%s'},'w':{'B':'%s'}}}", rows[i][0], rows[i][1], rows[i][2]);
        qok(s, "PutItem", body);
    }
    qok(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t AND u = :u',"
        "'ExpressionAttributeValues':{':t':{'S':'x'},':u':{'N':'7'}}}");
    assert_string_equal(items_attr("pk"), "d,c,b,e,a");
    qok(s, "Query", "{'TableName':'Tab','IndexName':'num','KeyConditionExpression':'t = :t AND u = :u AND v = :v"
        " AND w >= :w','ExpressionAttributeValues':{':t':{'S':'x'},':u':{'N':'7'},':v':{'N':'10'},"
        "':w':{'B':'AQ=='}}}");
    assert_string_equal(items_attr("pk"), "a");
}

/* [OBS] a page's LastEvaluatedKey carries the table key and every index
 * key attribute; [API] the next page starts after it; a Scan of the index
 * pages the same way. */
static void test_paging(void **state)
{
    store *s = *state;
    load(s);
    /* [DG] "Read consumption": a Query is charged what it reads (0.5 RCU
     * for under 4 KB, eventually consistent), not a Scan's minimum */
    assert_string_equal(query(s, "h = :h AND a = :a", ",'ReturnConsumedCapacity':'TOTAL'"), "p4,p3,p2,p1");
    if (!strstr(out_text, "\"ConsumedCapacity\":{\"CapacityUnits\":0.5,\"TableName\":\"Tab\"}"))
        fail_msg("%s", out_text);
    assert_string_equal(query(s, "h = :h AND a = :a", ",'Limit':2"), "p4,p3");
    cJSON *o = answer();
    const cJSON *lek = cJSON_GetObjectItem(o, "LastEvaluatedKey");
    assert_non_null(lek);
    char *l = cJSON_PrintUnformatted(lek);
    assert_string_equal(l, "{\"a\":{\"S\":\"T\"},\"b\":{\"S\":\"live\"},\"c\":{\"S\":\"a\"},\"d\":{\"S\":\"r1\"},"
                           "\"h\":{\"S\":\"o1\"},\"pk\":{\"S\":\"p3\"}}");
    char extra[512];
    snprintf(extra, sizeof extra, ",'ExclusiveStartKey':%s", l);
    for (char *p = extra; *p; p++)
        if (*p == '"')
            *p = '\'';
    free(l);
    cJSON_Delete(o);
    assert_string_equal(query(s, "h = :h AND a = :a", extra), "p2,p1");
    /* a start key outside the range */
    char body[1024];
    snprintf(body, sizeof body, "{'TableName':'Tab','IndexName':'gsi','KeyConditionExpression':'h = :h AND a = :a"
             " AND b = :b','ExpressionAttributeValues':{':h':{'S':'o1'},':a':{'S':'T'},':b':{'S':'live'}}%s}",
             ",'ExclusiveStartKey':{'a':{'S':'T'},'b':{'S':'draft'},'c':{'S':'c'},'d':{'S':'r1'},"
             "'h':{'S':'o1'},'pk':{'S':'p4'}}");
    qrefused(s, "Query", body, "The provided starting key does not match the range key predicate");
    /* a start key without one of the index's attributes */
    qrefused(s, "Query", "{'TableName':'Tab','IndexName':'gsi','KeyConditionExpression':'h = :h',"
             "'ExpressionAttributeValues':{':h':{'S':'o1'}},'ExclusiveStartKey':{'a':{'S':'T'},'b':{'S':'x'},"
             "'c':{'S':'c'},'h':{'S':'o1'},'pk':{'S':'p4'}}}", "The provided starting key is invalid");
    /* Scan of the index, two a page */
    char seen[64] = "";
    char start[512] = "";
    for (int page = 0; page < 4; page++) {
        snprintf(body, sizeof body, "{'TableName':'Tab','IndexName':'gsi','Limit':2%s}", start);
        qok(s, "Scan", body);
        strcat(seen, items_attr("pk"));
        strcat(seen, "|");
        o = answer();
        lek = cJSON_GetObjectItem(o, "LastEvaluatedKey");
        if (!lek) {
            cJSON_Delete(o);
            break;
        }
        l = cJSON_PrintUnformatted(lek);
        snprintf(start, sizeof start, ",'ExclusiveStartKey':%s", l);
        for (char *p = start; *p; p++)
            if (*p == '"')
                *p = '\'';
        free(l);
        cJSON_Delete(o);
    }
    assert_string_equal(seen, "p5,p4|p3,p2|p1|");
}

/* [API] UpdateTable creates a multi-attribute GSI on a table with data:
 * backfilled, and the index's own attribute definitions kept. */
static void test_update_table(void **state)
{
    store *s = *state;
    qok(s, "CreateTable", "{'TableName':'Utb','BillingMode':'PAY_PER_REQUEST','AttributeDefinitions':["
        DEFS("pk") "],'KeySchema':[" H("pk") "]}");
    qok(s, "PutItem", "{'TableName':'Utb','Item':{'pk':{'S':'1'},'x':{'S':'A'},'y':{'N':'2'},'z':{'S':'q'}}}");
    qok(s, "PutItem", "{'TableName':'Utb','Item':{'pk':{'S':'2'},'x':{'S':'A'},'y':{'N':'1'},'z':{'S':'r'}}}");
    qok(s, "PutItem", "{'TableName':'Utb','Item':{'pk':{'S':'3'},'x':{'S':'A'},'z':{'S':'r'}}}");
    qok(s, "UpdateTable", "{'TableName':'Utb','AttributeDefinitions':[" DEFS("x") ",{'AttributeName':'y',"
        "'AttributeType':'N'}," DEFS("z") "],'GlobalSecondaryIndexUpdates':[{'Create':{'IndexName':'mix',"
        "'KeySchema':[" H("x") "," H("z") "," R("y") "],'Projection':{'ProjectionType':'ALL'}}}]}");
    qok(s, "Query", "{'TableName':'Utb','IndexName':'mix','KeyConditionExpression':'x = :x AND z = :z',"
        "'ExpressionAttributeValues':{':x':{'S':'A'},':z':{'S':'r'}}}");
    assert_string_equal(items_attr("pk"), "2");
    qrefused(s, "UpdateTable", "{'TableName':'Utb','AttributeDefinitions':[" DEFS("x") "," DEFS("z") "],"
             "'GlobalSecondaryIndexUpdates':[{'Create':{'IndexName':'mix2','KeySchema':[" H("x") "," R("z") ","
             H("z") "],'Projection':{'ProjectionType':'ALL'}}}]}",
             "Invalid key order. Hash Key must be specified first in key schema, Range Key must be specifed"
             " second");
}

/* The stored definition: a reopened file answers the same. */
static void test_reopen(void **state)
{
    store *s = *state;
    load(s);
    store_close(s);
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    *state = s;
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b", NULL), "p3,p2,p1");
    /* an update moves an item within the index: p3's c becomes z */
    qok(s, "UpdateItem", "{'TableName':'Tab','Key':{'pk':{'S':'p3'}},'UpdateExpression':'SET c = :z',"
        "'ExpressionAttributeValues':{':z':{'S':'z'}}}");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b", NULL), "p2,p1,p3");
    /* and out of it: c removed */
    qok(s, "UpdateItem", "{'TableName':'Tab','Key':{'pk':{'S':'p2'}},'UpdateExpression':'REMOVE c'}");
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b", NULL), "p1,p3");
}

/* [API] a backup keeps the table's definition (issue 30): a table
 * restored from it has the multi-attribute GSI, and its items in it. */
static void test_backup_restore(void **state)
{
    store *s = *state;
    load(s);
    qok(s, "CreateBackup", "{'TableName':'Tab','BackupName':'bk1'}");
    cJSON *o = answer();
    char arn[256];
    snprintf(arn, sizeof arn, "%s",
             cJSON_GetObjectItem(cJSON_GetObjectItem(o, "BackupDetails"), "BackupArn")->valuestring);
    cJSON_Delete(o);
    char body[512];
    snprintf(body, sizeof body, "{'TargetTableName':'Tab2','BackupArn':'%s'}", arn);
    qok(s, "RestoreTableFromBackup", body);
    qok(s, "Query", "{'TableName':'Tab2','IndexName':'gsi','KeyConditionExpression':'h = :h AND a = :a AND b = :b',"
        "'ExpressionAttributeValues':{':h':{'S':'o1'},':a':{'S':'T'},':b':{'S':'live'}}}");
    assert_string_equal(items_attr("pk"), "p3,p2,p1");
    qok(s, "DescribeTable", "{'TableName':'Tab2'}");
    o = answer();
    const cJSON *gsis = cJSON_GetObjectItem(cJSON_GetObjectItem(o, "Table"), "GlobalSecondaryIndexes");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetArrayItem(gsis, 1), "KeySchema")), 4);
    cJSON_Delete(o);
}

static status to_buf(void *ctx, const char *p, size_t n, diag *d)
{
    (void)d;
    buf_add(ctx, p, n);
    return ST_OK;
}

/* [DDBX] a Workbench model keeps a multi-attribute key: NoSQL Workbench's
 * own form for one is not published, so `ddbx export` writes each part as
 * a list of {AttributeName, AttributeType} and `ddbx load` reads it back;
 * the reloaded table has the same indexes and answers the same Query. */
static void test_workbench(void **state)
{
    store *s = *state;
    load(s);
    diag d;
    diag_init(&d);
    buf model = BUF_INIT;
    assert_int_equal(export_table(s, "Tab", NULL, EXPORT_WORKBENCH, to_buf, &model, NULL, &d), ST_OK);
    buf_addc(&model, 0);
    assert_non_null(strstr(model.data, "\"KeyAttributes\": {\"PartitionKey\": [{\"AttributeName\": \"t\","
                                       " \"AttributeType\": \"S\"}, {\"AttributeName\": \"u\", \"AttributeType\": \"N\"}],"
                                       " \"SortKey\": [{\"AttributeName\": \"v\""));
    qok(s, "DeleteTable", "{'TableName':'Tab'}");
    import_source *src = NULL;
    assert_int_equal(import_source_open_mem("model", model.data, model.len - 1, IMPORT_AUTO, &src, &d), ST_OK);
    import_store_ctx ctx;
    import_sink sink;
    import_store_sink(&ctx, s, false, &sink);
    import_opts o = { .table = NULL };
    import_stats st;
    status rc = import_run(src, &sink, &o, &st, &d);
    import_source_free(src);
    if (rc != ST_OK)
        fail_msg("load: %s", d.msg);
    buf_done(&model);
    assert_string_equal(query(s, "h = :h AND a = :a AND b = :b", NULL), "p3,p2,p1");
    qok(s, "DescribeTable", "{'TableName':'Tab'}");
    cJSON *a = answer();
    const cJSON *gsis = cJSON_GetObjectItem(cJSON_GetObjectItem(a, "Table"), "GlobalSecondaryIndexes");
    char *ks = cJSON_PrintUnformatted(cJSON_GetObjectItem(cJSON_GetArrayItem(gsis, 1), "KeySchema"));
    assert_string_equal(ks, "[{\"AttributeName\":\"t\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"u\","
                            "\"KeyType\":\"HASH\"},{\"AttributeName\":\"v\",\"KeyType\":\"RANGE\"},"
                            "{\"AttributeName\":\"w\",\"KeyType\":\"RANGE\"}]");
    free(ks);
    cJSON_Delete(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_describe, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_prefix_queries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_condition_refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(test_legacy, setup, teardown),
        cmocka_unit_test_setup_teardown(test_partiql, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_number_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_paging, setup, teardown),
        cmocka_unit_test_setup_teardown(test_update_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reopen, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backup_restore, setup, teardown),
        cmocka_unit_test_setup_teardown(test_workbench, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
