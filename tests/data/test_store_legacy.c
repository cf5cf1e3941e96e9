/*
 * The legacy (pre-expression) parameters through the store: UpdateItem's
 * AttributeUpdates, Expected and ConditionalOperator on PutItem,
 * UpdateItem and DeleteItem, QueryFilter, ScanFilter, KeyConditions,
 * AttributesToGet, and the errors for mixing them with expressions; then
 * the typed path (store_exec with a ddb_req's legacy fields) and the
 * request printer a remote store sends (ddb_req_json).
 *
 * Where each expectation comes from is said at each check:
 *   [API]  the DynamoDB API reference (AttributeValueUpdate,
 *          ExpectedAttributeValue, Condition, ConditionalOperator);
 *   [AWS]  answers of AWS DynamoDB recorded by a suite validated against
 *          it (ScyllaDB's alternator tests: test_expected.py,
 *          test_query_filter.py), where dynalite differs;
 *   [dyn]  dynalite (validations/index.js, actions/updateItem.js), which
 *          the differential suite also compares, where the reference is
 *          silent.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"

#include "tests/data/tmpstore.h"

/* The answer of one request: "OK " + the output, or "Code: message". */
static char *ans(store *s, const char *op, const char *json)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, op, json, strlen(json), &out, &d);
    buf b = BUF_INIT;
    if (st == ST_OK)
        buf_printf(&b, "OK %s", out ? out : "");
    else
        buf_printf(&b, "%s: %s", status_name(st), store_error_message(s, st, &d));
    free(out);
    return buf_steal(&b);
}

static void expect(store *s, const char *op, const char *json, const char *want)
{
    char *a = ans(s, op, json);
    if (strcmp(a, want) != 0)
        fail_msg("%s %s\n  got:  %s\n  want: %s", op, json, a, want);
    free(a);
}

#define T "\"TableName\":\"Leg\""
#define K "\"Key\":{\"p\":{\"S\":\"a\"}}"
#define FAILED "ConditionalCheckFailedException: The conditional request failed"
#define INVALID "ValidationException: One or more parameter values were invalid: "

/* CreateTable's answer holds a date: only its success is checked. */
static void create(store *s, const char *json)
{
    char *a = ans(s, "CreateTable", json);
    if (strncmp(a, "OK ", 3) != 0)
        fail_msg("CreateTable: %s", a);
    free(a);
}

static void make_tables(store *s)
{
    create(s, "{" T ",\"BillingMode\":\"PAY_PER_REQUEST\","
           "\"AttributeDefinitions\":[{\"AttributeName\":\"p\",\"AttributeType\":\"S\"}],"
           "\"KeySchema\":[{\"AttributeName\":\"p\",\"KeyType\":\"HASH\"}]}");
}

static void update(store *s, const char *body, const char *want)
{
    char json[2048];
    snprintf(json, sizeof json, "{" T "," K ",%s}", body);
    expect(s, "UpdateItem", json, want);
}

static void attribute_updates(void **state)
{
    store *s = *state;
    make_tables(s);
    /* [API] On a missing item: PUT creates it with the attribute; ADD of a
     * number starts from 0, of a set is the set; no Action is PUT.
     * [dyn] ADD of a list appends (to an empty one here). */
    update(s, "\"AttributeUpdates\":{\"n\":{\"Action\":\"ADD\",\"Value\":{\"N\":\"5\"}},"
           "\"s\":{\"Action\":\"ADD\",\"Value\":{\"SS\":[\"x\",\"y\"]}},\"l\":{\"Action\":\"ADD\",\"Value\":{\"L\":[{\"S\":\"q\"}]}},"
           "\"v\":{\"Value\":{\"S\":\"hello\"}}},\"ReturnValues\":\"ALL_NEW\"",
           "OK {\"Attributes\":{\"l\":{\"L\":[{\"S\":\"q\"}]},\"n\":{\"N\":\"5\"},\"p\":{\"S\":\"a\"},"
           "\"s\":{\"SS\":[\"x\",\"y\"]},\"v\":{\"S\":\"hello\"}}}");
    /* [API] ADD adds to a number, unites sets; DELETE with a set removes
     * its elements, without Value the attribute. UPDATED_NEW: the
     * attributes named, as they are after (a removed one is not there). */
    update(s, "\"AttributeUpdates\":{\"n\":{\"Action\":\"ADD\",\"Value\":{\"N\":\"-2.5\"}},"
           "\"s\":{\"Action\":\"ADD\",\"Value\":{\"SS\":[\"z\",\"x\"]}},\"l\":{\"Action\":\"ADD\",\"Value\":{\"L\":[{\"N\":\"1\"}]}},"
           "\"v\":{\"Action\":\"DELETE\"}},\"ReturnValues\":\"UPDATED_NEW\"",
           "OK {\"Attributes\":{\"l\":{\"L\":[{\"S\":\"q\"},{\"N\":\"1\"}]},\"n\":{\"N\":\"2.5\"},"
           "\"s\":{\"SS\":[\"x\",\"y\",\"z\"]}}}");
    /* [API] "If the set becomes empty, the attribute is removed";
     * UPDATED_OLD: the named attributes as they were. */
    update(s, "\"AttributeUpdates\":{\"s\":{\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"x\",\"y\",\"z\",\"w\"]}}},"
           "\"ReturnValues\":\"UPDATED_OLD\"", "OK {\"Attributes\":{\"s\":{\"SS\":[\"x\",\"y\",\"z\"]}}}");
    /* [API] DELETE of a set on a missing attribute does nothing. */
    update(s, "\"AttributeUpdates\":{\"gone\":{\"Action\":\"DELETE\",\"Value\":{\"NS\":[\"1\"]}}},\"ReturnValues\":\"ALL_NEW\"",
           "OK {\"Attributes\":{\"l\":{\"L\":[{\"S\":\"q\"},{\"N\":\"1\"}]},\"n\":{\"N\":\"2.5\"},\"p\":{\"S\":\"a\"}}}");
    /* [AWS] An update that only DELETEs does not create a missing item
     * (test_item.py, test_update_item_non_existent); an empty one does. */
    expect(s, "UpdateItem", "{" T ",\"Key\":{\"p\":{\"S\":\"new\"}},\"AttributeUpdates\":{\"x\":{\"Action\":\"DELETE\"},"
           "\"y\":{\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"a\"]}}},\"ReturnValues\":\"ALL_NEW\"}", "OK {}");
    expect(s, "GetItem", "{" T ",\"Key\":{\"p\":{\"S\":\"new\"}}}", "OK {}");
    expect(s, "UpdateItem", "{" T ",\"Key\":{\"p\":{\"S\":\"new\"}},\"AttributeUpdates\":{}}", "OK {}");
    expect(s, "GetItem", "{" T ",\"Key\":{\"p\":{\"S\":\"new\"}}}", "OK {\"Item\":{\"p\":{\"S\":\"new\"}}}");
    /* [dyn] A type clash: "Type mismatch for attribute to update". */
    update(s, "\"AttributeUpdates\":{\"n\":{\"Action\":\"ADD\",\"Value\":{\"SS\":[\"a\"]}}}",
           "ValidationException: Type mismatch for attribute to update");
    update(s, "\"AttributeUpdates\":{\"l\":{\"Action\":\"DELETE\",\"Value\":{\"SS\":[\"a\"]}}}",
           "ValidationException: Type mismatch for attribute to update");
    /* [dyn] The rules of Action and Value. */
    update(s, "\"AttributeUpdates\":{\"x\":{\"Action\":\"PUT\"}}",
           INVALID "Only DELETE action is allowed when no attribute value is specified");
    update(s, "\"AttributeUpdates\":{\"x\":{\"Action\":\"DELETE\",\"Value\":{\"S\":\"v\"}}}",
           INVALID "DELETE action with value is not supported for the type S");
    update(s, "\"AttributeUpdates\":{\"x\":{\"Action\":\"ADD\",\"Value\":{\"BOOL\":true}}}",
           INVALID "ADD action is not supported for the type BOOL");
    /* [AWS] An Action other than ADD, DELETE, PUT (test_item.py's
     * test_update_bad_action); the wording is DynamoDB Local's. */
    update(s, "\"AttributeUpdates\":{\"x\":{\"Action\":\"NONEXISTENT\",\"Value\":{\"S\":\"v\"}}}",
           "ValidationException: 1 validation error detected: Value 'NONEXISTENT' at 'attributeUpdates.x.member.action'"
           " failed to satisfy constraint: Member must satisfy enum value set: [ADD, DELETE, PUT]");
    /* [dyn] A key attribute cannot be updated. */
    update(s, "\"AttributeUpdates\":{\"p\":{\"Value\":{\"S\":\"b\"}}}",
           INVALID "Cannot update attribute p. This attribute is part of the key");
    /* [API] Number limits hold for ADD: a sum that needs more than 38
     * significant digits is refused, with the message DynamoDB gives the
     * same sum in SET a = a + :v (1E50 + 1 in issue 16's conformance run
     * against DynamoDB: "Number overflow"; model/num.c MSG_SUM_DIGITS). */
    update(s, "\"AttributeUpdates\":{\"n\":{\"Action\":\"ADD\",\"Value\":{\"N\":\"1E+40\"}}}",
           "ValidationException: Number overflow. Attempting to store a number with magnitude larger than"
           " supported range");
}

/* The item p=a holding a=1, b="cat", c=binary "cat", d=NS{2,4,7},
 * e=L[2,4,7], z=NULL (test_expected.py's items). */
static void expected_item(store *s)
{
    expect(s, "PutItem", "{" T ",\"Item\":{\"p\":{\"S\":\"a\"},\"a\":{\"N\":\"1\"},\"b\":{\"S\":\"cat\"},"
           "\"c\":{\"B\":\"Y2F0\"},\"d\":{\"NS\":[\"2\",\"4\",\"7\"]},\"e\":{\"L\":[{\"N\":\"2\"},{\"N\":\"4\"},{\"N\":\"7\"}]},"
           "\"z\":{\"NULL\":true}}}", "OK {}");
}

/* A conditional write that changes nothing (PUT of y=1): OK or failed. */
static void cond(store *s, const char *expected, const char *want)
{
    char json[2048];
    snprintf(json, sizeof json, "{" T "," K ",\"AttributeUpdates\":{\"y\":{\"Value\":{\"N\":\"1\"}}},%s}", expected);
    expect(s, "UpdateItem", json, want);
}

#define EXP(attr, op, list) "\"Expected\":{\"" attr "\":{\"ComparisonOperator\":\"" op "\",\"AttributeValueList\":[" list "]}}"

static void expected_operators(void **state)
{
    store *s = *state;
    make_tables(s);
    expected_item(s);
    const char *ok = "OK {}";
    /* [API][AWS] EQ/NE: a different type is "not equal"; NE holds on a
     * missing attribute. Sets compare as sets. */
    cond(s, EXP("a", "EQ", "{\"N\":\"1.0\"}"), ok);
    cond(s, EXP("a", "EQ", "{\"S\":\"1\"}"), FAILED);
    cond(s, EXP("d", "EQ", "{\"NS\":[\"7\",\"2\",\"4\"]}"), ok);
    cond(s, EXP("a", "NE", "{\"S\":\"1\"}"), ok);
    cond(s, EXP("q", "NE", "{\"N\":\"1\"}"), ok);
    cond(s, EXP("a", "NE", "{\"N\":\"1\"}"), FAILED);
    /* [API] EQ is supported for all data types, including lists. */
    cond(s, EXP("e", "EQ", "{\"L\":[{\"N\":\"2\"},{\"N\":\"4\"},{\"N\":\"7\"}]}"), ok);
    /* [AWS] Ordering on numbers, strings, binaries; another type fails. */
    cond(s, EXP("a", "LE", "{\"N\":\"1\"}"), ok);
    cond(s, EXP("a", "LT", "{\"N\":\"1\"}"), FAILED);
    cond(s, EXP("b", "GT", "{\"S\":\"aardvark\"}"), ok);
    cond(s, EXP("c", "GE", "{\"B\":\"ZG9n\"}"), FAILED);
    cond(s, EXP("a", "GT", "{\"S\":\"0\"}"), FAILED);
    /* [AWS] NULL/NOT_NULL test existence, not the NULL type. */
    cond(s, "\"Expected\":{\"z\":{\"ComparisonOperator\":\"NOT_NULL\"}}", ok);
    cond(s, "\"Expected\":{\"z\":{\"ComparisonOperator\":\"NULL\",\"AttributeValueList\":[]}}", FAILED);
    cond(s, "\"Expected\":{\"q\":{\"ComparisonOperator\":\"NULL\"}}", ok);
    /* [AWS] CONTAINS: substring, set and list membership; NOT_CONTAINS
     * on a missing attribute fails (unlike NE; dynalite holds it true). */
    cond(s, EXP("b", "CONTAINS", "{\"S\":\"at\"}"), ok);
    cond(s, EXP("d", "CONTAINS", "{\"N\":\"4\"}"), ok);
    cond(s, EXP("e", "CONTAINS", "{\"N\":\"4\"}"), ok);
    cond(s, EXP("e", "NOT_CONTAINS", "{\"N\":\"4\"}"), FAILED);
    cond(s, EXP("d", "NOT_CONTAINS", "{\"N\":\"1\"}"), ok);
    cond(s, EXP("q", "NOT_CONTAINS", "{\"N\":\"1\"}"), FAILED);
    /* [AWS] BEGINS_WITH on a number attribute fails; IN is membership of
     * the attribute in the list; BETWEEN is inclusive. */
    cond(s, EXP("b", "BEGINS_WITH", "{\"S\":\"ca\"}"), ok);
    cond(s, EXP("a", "BEGINS_WITH", "{\"S\":\"1\"}"), FAILED);
    cond(s, EXP("a", "IN", "{\"N\":\"3\"},{\"N\":\"1\"}"), ok);
    cond(s, EXP("d", "IN", "{\"N\":\"2\"}"), FAILED);
    cond(s, EXP("a", "BETWEEN", "{\"N\":\"1\"},{\"N\":\"2\"}"), ok);
    cond(s, EXP("q", "BETWEEN", "{\"N\":\"0\"},{\"N\":\"100\"}"), FAILED);
    /* [API] Value alone is EQ; Exists false: the attribute is absent;
     * [AWS] Exists true with Value compares the value (dynalite does not). */
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"1\"}}}", ok);
    cond(s, "\"Expected\":{\"a\":{\"Exists\":true,\"Value\":{\"N\":\"2\"}}}", FAILED);
    cond(s, "\"Expected\":{\"q\":{\"Exists\":false}}", ok);
    cond(s, "\"Expected\":{\"a\":{\"Exists\":false}}", FAILED);
    /* [API] An empty Expected is no condition. */
    cond(s, "\"Expected\":{}", ok);
}

static void expected_and_or(void **state)
{
    store *s = *state;
    make_tables(s);
    expected_item(s);
    /* [AWS] AND by default; OR holds when any condition holds, whatever
     * the first one (dynalite stops at the first). */
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"1\"}},\"q\":{\"Exists\":false}}", "OK {}");
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"9\"}},\"q\":{\"Exists\":false}}", FAILED);
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"9\"}},\"q\":{\"Exists\":false}},\"ConditionalOperator\":\"OR\"", "OK {}");
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"9\"}},\"b\":{\"Exists\":false}},\"ConditionalOperator\":\"OR\"", FAILED);
    /* [AWS] (one-condition ScanFilter) and DynamoDB Local's messages:
     * ConditionalOperator needs two conditions. */
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"1\"}}},\"ConditionalOperator\":\"AND\"",
         "ValidationException: ConditionalOperator can only be used when Filter or Expected has two or more elements");
    cond(s, "\"ConditionalOperator\":\"OR\"",
         "ValidationException: ConditionalOperator cannot be used without Filter or Expected");
    /* PutItem and DeleteItem take Expected too. [AWS] */
    expect(s, "PutItem", "{" T ",\"Item\":{\"p\":{\"S\":\"a\"},\"a\":{\"N\":\"2\"}},\"Expected\":{\"a\":{\"Value\":{\"N\":\"1\"}}}}", "OK {}");
    expect(s, "DeleteItem", "{" T "," K ",\"Expected\":{\"a\":{\"Value\":{\"N\":\"1\"}}}}", FAILED);
    expect(s, "DeleteItem", "{" T "," K ",\"Expected\":{\"a\":{\"Value\":{\"N\":\"2\"}}},\"ReturnValues\":\"ALL_OLD\"}",
           "OK {\"Attributes\":{\"a\":{\"N\":\"2\"},\"p\":{\"S\":\"a\"}}}");
}

static void expected_validation(void **state)
{
    store *s = *state;
    make_tables(s);
    /* [dyn] validateAttributeConditions' messages; [AWS] each is a
     * ValidationException. */
    cond(s, "\"Expected\":{\"a\":{\"Exists\":true}}", INVALID "Value must be provided when Exists is true for Attribute: a");
    cond(s, "\"Expected\":{\"a\":{}}", INVALID "Value must be provided when Exists is null for Attribute: a");
    cond(s, "\"Expected\":{\"a\":{\"Exists\":false,\"Value\":{\"N\":\"1\"}}}",
         INVALID "Value cannot be used when Exists is false for Attribute: a");
    cond(s, "\"Expected\":{\"a\":{\"Value\":{\"N\":\"1\"},\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"1\"}]}}",
         INVALID "Value and AttributeValueList cannot be used together for Attribute: a");
    cond(s, "\"Expected\":{\"a\":{\"Exists\":false,\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"1\"}]}}",
         INVALID "Exists and ComparisonOperator cannot be used together for Attribute: a");
    cond(s, "\"Expected\":{\"a\":{\"AttributeValueList\":[{\"N\":\"1\"}]}}",
         INVALID "AttributeValueList can only be used with a ComparisonOperator for Attribute: a");
    cond(s, "\"Expected\":{\"a\":{\"ComparisonOperator\":\"GT\"}}",
         INVALID "Value or AttributeValueList must be used with ComparisonOperator: GT for Attribute: a");
    cond(s, EXP("a", "EQ", "{\"N\":\"1\"},{\"N\":\"2\"}"), INVALID "Invalid number of argument(s) for the EQ ComparisonOperator");
    cond(s, EXP("a", "NOT_NULL", "{\"N\":\"1\"}"), INVALID "Invalid number of argument(s) for the NOT_NULL ComparisonOperator");
    cond(s, EXP("a", "IN", ""), INVALID "Invalid number of argument(s) for the IN ComparisonOperator");
    cond(s, EXP("a", "IN", "{\"N\":\"3\"},{\"S\":\"dog\"}"), INVALID "AttributeValues inside AttributeValueList must be of same type");
    /* [AWS] CONTAINS/IN/BETWEEN of a list or set, BEGINS_WITH of a number:
     * ValidationException (the message is the filters' [dyn]). */
    cond(s, EXP("a", "CONTAINS", "{\"L\":[{\"N\":\"1\"}]}"), INVALID "ComparisonOperator CONTAINS is not valid for L AttributeValue type");
    cond(s, EXP("a", "BEGINS_WITH", "{\"N\":\"3\"}"), INVALID "ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
    cond(s, EXP("a", "BETWEEN", "{\"NS\":[\"1\"]},{\"NS\":[\"2\"]}"), INVALID "ComparisonOperator BETWEEN is not valid for NS AttributeValue type");
    cond(s, EXP("a", "BETWEEN", "{\"N\":\"4\"},{\"N\":\"3\"}"),
         "ValidationException: The BETWEEN condition was provided a range where the lower bound is greater than the upper bound");
    /* [dyn] An operator out of the enumeration is the shape error. */
    char *a = ans(s, "UpdateItem", "{" T "," K ",\"Expected\":{\"a\":{\"ComparisonOperator\":\"eq\"}}}");
    assert_non_null(strstr(a, "ValidationException: 1 validation error detected: Value 'eq' at"));
    free(a);
}

static void mixing(void **state)
{
    store *s = *state;
    make_tables(s);
    /* [dyn] validateExpressionParams; [API] "Can not use both expression
     * and non-expression parameters"; PutItem's and UpdateItem's in AWS's
     * envelope (eu-west-2, dynoxide 0.12.0, 2026-07). */
    update(s, "\"UpdateExpression\":\"SET a = :v\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}},"
           "\"Expected\":{\"a\":{\"Exists\":false}},\"AttributeUpdates\":{\"b\":{\"Value\":{\"N\":\"1\"}}}",
           "ValidationException: 1 validation error detected: Can not use both expression and non-expression parameters in the same request:"
           " Non-expression parameters: {AttributeUpdates, Expected} Expression parameters: {UpdateExpression}");
    expect(s, "PutItem", "{" T ",\"Item\":{\"p\":{\"S\":\"a\"}},\"ConditionExpression\":\"attribute_exists(a)\","
           "\"Expected\":{\"a\":{\"Exists\":false}}}",
           "ValidationException: 1 validation error detected: Can not use both expression and non-expression"
           " parameters in the same request: Non-expression parameters: {Expected} Expression parameters:"
           " {ConditionExpression}");
    expect(s, "GetItem", "{" T "," K ",\"ProjectionExpression\":\"a\",\"AttributesToGet\":[\"a\"]}",
           "ValidationException: Can not use both expression and non-expression parameters in the same request:"
           " Non-expression parameters: {AttributesToGet} Expression parameters: {ProjectionExpression}");
    expect(s, "Scan", "{" T ",\"FilterExpression\":\"a = :v\",\"ExpressionAttributeValues\":{\":v\":{\"N\":\"1\"}},"
           "\"ScanFilter\":{\"a\":{\"ComparisonOperator\":\"NULL\"}},\"ConditionalOperator\":\"OR\"}",
           "ValidationException: Can not use both expression and non-expression parameters in the same request:"
           " Non-expression parameters: {ScanFilter, ConditionalOperator} Expression parameters: {FilterExpression}");
    /* [dyn] Legacy KeyConditions may go with FilterExpression. */
    expect(s, "Query", "{" T ",\"KeyConditions\":{\"p\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"a\"}]}},"
           "\"FilterExpression\":\"attribute_exists(a)\"}", "OK {\"Items\":[],\"Count\":0,\"ScannedCount\":0}");
    /* [dyn] ExpressionAttributeNames need an expression. */
    update(s, "\"AttributeUpdates\":{\"b\":{\"Value\":{\"N\":\"1\"}}},\"ExpressionAttributeNames\":{\"#b\":\"b\"}",
           "ValidationException: 1 validation error detected: ExpressionAttributeNames can only be specified when"
           " using expressions");
}

/* Items p=a..d with n=1..4; c has no n; d has l=[x]. */
static void filter_items(store *s)
{
    create(s, "{\"TableName\":\"Qry\",\"BillingMode\":\"PAY_PER_REQUEST\","
           "\"AttributeDefinitions\":[{\"AttributeName\":\"p\",\"AttributeType\":\"S\"},{\"AttributeName\":\"r\",\"AttributeType\":\"N\"}],"
           "\"KeySchema\":[{\"AttributeName\":\"p\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"r\",\"KeyType\":\"RANGE\"}]}");
    const char *items[] = {
        "{\"p\":{\"S\":\"h\"},\"r\":{\"N\":\"1\"},\"n\":{\"N\":\"1\"},\"s\":{\"S\":\"apple\"}}",
        "{\"p\":{\"S\":\"h\"},\"r\":{\"N\":\"2\"},\"n\":{\"N\":\"2\"},\"s\":{\"S\":\"banana\"}}",
        "{\"p\":{\"S\":\"h\"},\"r\":{\"N\":\"3\"},\"s\":{\"S\":\"cherry\"}}",
        "{\"p\":{\"S\":\"h\"},\"r\":{\"N\":\"4\"},\"n\":{\"N\":\"4\"},\"l\":{\"L\":[{\"S\":\"x\"}]},\"m\":{\"M\":{\"k\":{\"BOOL\":true}}}}",
    };
    for (size_t i = 0; i < 4; i++) {
        char json[512];
        snprintf(json, sizeof json, "{\"TableName\":\"Qry\",\"Item\":%s}", items[i]);
        expect(s, "PutItem", json, "OK {}");
    }
}

#define Q "\"TableName\":\"Qry\",\"KeyConditions\":{\"p\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"h\"}]}}"

static void filters(void **state)
{
    store *s = *state;
    filter_items(s);
    /* [AWS] QueryFilter after the key condition, AttributesToGet
     * projects; ScannedCount counts before the filter. */
    expect(s, "Query", "{" Q ",\"QueryFilter\":{\"n\":{\"ComparisonOperator\":\"GE\",\"AttributeValueList\":[{\"N\":\"2\"}]}},"
           "\"AttributesToGet\":[\"r\"]}", "OK {\"Items\":[{\"r\":{\"N\":\"2\"}},{\"r\":{\"N\":\"4\"}}],\"Count\":2,\"ScannedCount\":4}");
    /* [AWS] OR of two conditions; NOT_CONTAINS leaves out the item
     * without the attribute. */
    expect(s, "Query", "{" Q ",\"QueryFilter\":{\"n\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"1\"}]},"
           "\"s\":{\"ComparisonOperator\":\"BEGINS_WITH\",\"AttributeValueList\":[{\"S\":\"ch\"}]}},\"ConditionalOperator\":\"OR\","
           "\"AttributesToGet\":[\"r\"]}", "OK {\"Items\":[{\"r\":{\"N\":\"1\"}},{\"r\":{\"N\":\"3\"}}],\"Count\":2,\"ScannedCount\":4}");
    expect(s, "Scan", "{\"TableName\":\"Qry\",\"ScanFilter\":{\"s\":{\"ComparisonOperator\":\"NOT_CONTAINS\",\"AttributeValueList\":[{\"S\":\"an\"}]}},"
           "\"AttributesToGet\":[\"r\"]}", "OK {\"Items\":[{\"r\":{\"N\":\"1\"}},{\"r\":{\"N\":\"3\"}}],\"Count\":2,\"ScannedCount\":4}");
    /* [AWS] QueryFilter EQ on a list, a map (test_query_filter_eq). */
    expect(s, "Scan", "{\"TableName\":\"Qry\",\"ScanFilter\":{\"l\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"L\":[{\"S\":\"x\"}]}]},"
           "\"m\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"M\":{\"k\":{\"BOOL\":true}}}]}},\"Select\":\"COUNT\"}",
           "OK {\"Count\":1,\"ScannedCount\":4}");
    /* [AWS] An empty QueryFilter is no filter. */
    expect(s, "Query", "{" Q ",\"QueryFilter\":{},\"Select\":\"COUNT\"}", "OK {\"Count\":4,\"ScannedCount\":4}");
    /* [AWS] A key attribute in QueryFilter ("ValidationException.* key "). */
    expect(s, "Query", "{" Q ",\"QueryFilter\":{\"r\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"N\":\"3\"}]}}}",
           "ValidationException: QueryFilter can only contain non-primary key attributes: Primary key attribute: r");
    /* [AWS] Types ordering cannot take (test_query_filter_uncomparable_types). */
    expect(s, "Scan", "{\"TableName\":\"Qry\",\"ScanFilter\":{\"l\":{\"ComparisonOperator\":\"LT\",\"AttributeValueList\":[{\"L\":[]}]}}}",
           INVALID "ComparisonOperator LT is not valid for L AttributeValue type");
    /* [AWS] The range key condition of KeyConditions. */
    expect(s, "Query", "{\"TableName\":\"Qry\",\"KeyConditions\":{\"p\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"h\"}]},"
           "\"r\":{\"ComparisonOperator\":\"BETWEEN\",\"AttributeValueList\":[{\"N\":\"2\"},{\"N\":\"3\"}]}},\"Select\":\"COUNT\"}",
           "OK {\"Count\":2,\"ScannedCount\":2}");
    /* [dyn] A start key is checked against KeyConditions as against a
     * KeyConditionExpression (issue 16: a start key in another partition
     * was taken). */
    expect(s, "Query", "{" Q ",\"ExclusiveStartKey\":{\"p\":{\"S\":\"other\"},\"r\":{\"N\":\"1\"}}}",
           "ValidationException: The provided starting key is outside query boundaries based on provided conditions");
    expect(s, "Query", "{\"TableName\":\"Qry\",\"KeyConditions\":{\"p\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"h\"}]},"
           "\"r\":{\"ComparisonOperator\":\"GT\",\"AttributeValueList\":[{\"N\":\"2\"}]}},"
           "\"ExclusiveStartKey\":{\"p\":{\"S\":\"h\"},\"r\":{\"N\":\"1\"}}}",
           "ValidationException: The provided starting key does not match the range key predicate");
    expect(s, "Query", "{\"TableName\":\"Qry\",\"KeyConditions\":{\"p\":{\"ComparisonOperator\":\"EQ\",\"AttributeValueList\":[{\"S\":\"h\"}]},"
           "\"r\":{\"ComparisonOperator\":\"GT\",\"AttributeValueList\":[{\"N\":\"2\"}]}},\"Select\":\"COUNT\","
           "\"ExclusiveStartKey\":{\"p\":{\"S\":\"h\"},\"r\":{\"N\":\"3\"}}}", "OK {\"Count\":1,\"ScannedCount\":1}");
    /* [dyn] Select COUNT with AttributesToGet (DynamoDB Local refuses it too). */
    char *a = ans(s, "Query", "{" Q ",\"AttributesToGet\":[\"r\"],\"Select\":\"COUNT\"}");
    assert_non_null(strstr(a, "ValidationException: Cannot specify the AttributesToGet when choosing to get"));
    free(a);
}

/* The typed path runs the same parameters (store_exec), and the printer a
 * remote store sends prints them back so that DynamoDB gets them. */
static void typed_and_printed(void **state)
{
    store *s = *state;
    make_tables(s);
    ddb_req r;
    ddb_req_init(&r, DDB_UPDATE);
    ddb_req_set_str(&r.table, "Leg");
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item("{\"p\":{\"S\":\"t\"}}", 15, &r.key, &d), ST_OK);
    ddb_attr_update *u = legacy_update_add(&r.legacy, "n", 1);
    u->action = DDB_AU_ADD;
    u->has_action = true;
    num one;
    num_from_int(&one, 7);
    av_init_n(&u->value, &one);
    ddb_cond *c = legacy_cond_add(&r.legacy.expected, "n", 1);
    c->exists = 0;
    r.rv = DDB_RV_ALL_NEW;

    buf j = BUF_INIT;
    ddb_req_json(&r, &j);
    assert_string_equal(j.data, "{\"TableName\":\"Leg\",\"Key\":{\"p\":{\"S\":\"t\"}},\"ReturnValues\":\"ALL_NEW\","
                        "\"Expected\":{\"n\":{\"Exists\":false}},\"AttributeUpdates\":{\"n\":{\"Action\":\"ADD\","
                        "\"Value\":{\"N\":\"7\"}}}}");

    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_OK);
    buf got = BUF_INIT;
    ddbjson_write_item(&got, &res.item);
    assert_string_equal(got.data, "{\"n\":{\"N\":\"7\"},\"p\":{\"S\":\"t\"}}");
    ddb_res_done(&res);
    /* The same request again: n exists now, the condition fails. */
    ddb_res_init(&res);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_CONDITION_FAILED);
    ddb_res_done(&res);
    ddb_err_done(&err);
    /* And its printed body, through the JSON codec, is the same request. */
    expect(s, "UpdateItem", j.data, FAILED);

    /* The `aws dynamodb` command line carries them as options. */
    buf cli = BUF_INIT;
    r.legacy.condop = DDB_CONDOP_OR;
    ddb_req_cli(&r, &cli);
    r.legacy.condop = DDB_CONDOP_NONE;
    assert_string_equal(cli.data, "aws dynamodb update-item --table-name Leg --key '{\"p\":{\"S\":\"t\"}}'"
                        " --return-values ALL_NEW --expected '{\"n\":{\"Exists\":false}}'"
                        " --attribute-updates '{\"n\":{\"Action\":\"ADD\",\"Value\":{\"N\":\"7\"}}}'"
                        " --conditional-operator OR");
    buf_done(&cli);

    /* A copy keeps the legacy members. */
    ddb_req cp;
    ddb_req_copy(&cp, &r);
    buf j2 = BUF_INIT;
    ddb_req_json(&cp, &j2);
    assert_string_equal(j.data, j2.data);
    ddb_req_done(&cp);
    buf_done(&j);
    buf_done(&j2);
    buf_done(&got);
    ddb_req_done(&r);
}

/* The typed Query/Scan take KeyConditions, the filter, AttributesToGet. */
static void typed_reads(void **state)
{
    store *s = *state;
    filter_items(s);
    ddb_req q;
    ddb_req_init(&q, DDB_QUERY);
    ddb_req_set_str(&q.table, "Qry");
    ddb_cond *k = legacy_cond_add(&q.legacy.keyconds, "p", 1);
    k->op = DDB_CMP_EQ;
    av_init_list(&k->list, AV_L);
    av v;
    av_init_s(&v, "h", 1);
    av_list_push(&k->list, &v);
    ddb_cond *f = legacy_cond_add(&q.legacy.filter, "n", 1);
    f->op = DDB_CMP_NOT_NULL;
    av_init_list(&q.legacy.atg, AV_L);
    av_init_s(&v, "s", 1);
    av_list_push(&q.legacy.atg, &v);
    buf j = BUF_INIT;
    ddb_req_json(&q, &j);
    assert_string_equal(j.data, "{\"TableName\":\"Qry\",\"AttributesToGet\":[\"s\"],\"KeyConditions\":{\"p\":{"
                        "\"AttributeValueList\":[{\"S\":\"h\"}],\"ComparisonOperator\":\"EQ\"}},\"QueryFilter\":"
                        "{\"n\":{\"ComparisonOperator\":\"NOT_NULL\"}}}");
    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &q, &res, &err), ST_OK);
    assert_int_equal(res.n_items, 3);
    assert_int_equal(res.scanned, 4);
    buf got = BUF_INIT;
    ddbjson_write_item(&got, &res.items[0]);
    assert_string_equal(got.data, "{\"s\":{\"S\":\"apple\"}}");
    ddb_res_done(&res);
    ddb_err_done(&err);
    expect(s, "Query", j.data, "OK {\"Items\":[{\"s\":{\"S\":\"apple\"}},{\"s\":{\"S\":\"banana\"}},{}],\"Count\":3,\"ScannedCount\":4}");
    buf_done(&got);
    buf_done(&j);
    ddb_req_done(&q);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(attribute_updates, setup, teardown),
        cmocka_unit_test_setup_teardown(expected_operators, setup, teardown),
        cmocka_unit_test_setup_teardown(expected_and_or, setup, teardown),
        cmocka_unit_test_setup_teardown(expected_validation, setup, teardown),
        cmocka_unit_test_setup_teardown(mixing, setup, teardown),
        cmocka_unit_test_setup_teardown(filters, setup, teardown),
        cmocka_unit_test_setup_teardown(typed_and_printed, setup, teardown),
        cmocka_unit_test_setup_teardown(typed_reads, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
