/*
 * test_ttl_tags — Time to Live (UpdateTimeToLive, DescribeTimeToLive, the
 * sweep that deletes expired items through the write path), tags
 * (TagResource, UntagResource, ListTagsOfResource, CreateTable's Tags)
 * and TransactWriteItems' ClientRequestToken, through store_call.
 *
 * Where each expectation comes from is said at the test: [API] the
 * DynamoDB API reference, [DG] the developer guide ("Using time to live",
 * "Tagging restrictions"), [DYN] dynalite's validations and actions,
 * [OBS] DynamoDB's answers as observed, [DDBL] DynamoDB Local 3.3's
 * answer where AWS's is not published, [DDBX] ddbx's own choice where
 * DynamoDB's depends on real time (documented in README).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <cjson/cJSON.h>
#include <time.h>

#include "data/store.h"
#include "model/ttl.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"

#define TABLE(extra) \
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]" extra "}"
#define TTL(on, attr) \
    "{\"TableName\":\"Tab\",\"TimeToLiveSpecification\":{\"Enabled\":" on ",\"AttributeName\":\"" attr "\"}}"
#define ARN "arn:aws:dynamodb:us-east-1:000000000000:table/Tab"

static int count_items(store *s)
{
    ok(s, "Scan", "{\"TableName\":\"Tab\",\"Select\":\"COUNT\"}");
    cJSON *o = cJSON_Parse(out_text);
    int n = cJSON_GetObjectItem(o, "Count")->valueint;
    cJSON_Delete(o);
    return n;
}

/* [API] DISABLED on a new table; UpdateTimeToLive answers its
 * specification; [OBS] "TimeToLive is already enabled" and "...
 * disabled"; [DDBL] another attribute than the enabled one, to enable or
 * to disable: "TimeToLive is active on a different AttributeName"
 * (DynamoDB Local 3.3, issue 29); [DDBX] the change is at once (no
 * ENABLING). */
static void test_ttl_settings(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE(""));
    ok(s, "DescribeTimeToLive", "{\"TableName\":\"Tab\"}");
    assert_string_equal(out_text, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"DISABLED\"}}");
    refused(s, "UpdateTimeToLive", TTL("false", "exp"), ST_VALIDATION, "TimeToLive is already disabled");
    ok(s, "UpdateTimeToLive", TTL("true", "exp"));
    assert_string_equal(out_text, "{\"TimeToLiveSpecification\":{\"AttributeName\":\"exp\",\"Enabled\":true}}");
    ok(s, "DescribeTimeToLive", "{\"TableName\":\"Tab\"}");
    assert_string_equal(out_text, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"ENABLED\","
                                  "\"AttributeName\":\"exp\"}}");
    refused(s, "UpdateTimeToLive", TTL("true", "exp"), ST_VALIDATION, "TimeToLive is already enabled");
    refused(s, "UpdateTimeToLive", TTL("true", "other"), ST_VALIDATION,
            "TimeToLive is active on a different AttributeName");
    refused(s, "UpdateTimeToLive", TTL("false", "other"), ST_VALIDATION,
            "TimeToLive is active on a different AttributeName");
    refused(s, "UpdateTimeToLive", "{\"TableName\":\"Tab\",\"TimeToLiveSpecification\":{\"Enabled\":true}}",
            ST_VALIDATION, "1 validation error detected: Value null at 'timeToLiveSpecification.attributeName'"
            " failed to satisfy constraint: Member must not be null");
    refused(s, "DescribeTimeToLive", "{\"TableName\":\"Nope\"}", ST_NOT_FOUND,
            "Requested resource not found: Table: Nope not found");
    char *attr = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_ttl_get(s, "Tab", &attr, &d), ST_OK);
    assert_string_equal(attr, "exp");
    free(attr);
    assert_int_equal(store_ttl_set(s, "Tab", NULL, &d), ST_OK);
    assert_int_equal(store_ttl_get(s, "Tab", &attr, &d), ST_OK);
    assert_null(attr);
}

/* store_ttl_check answers what store_ttl_set would ([API] AttributeName
 * 1 to 255 characters; [OBS] already enabled / disabled) with the same
 * words, and changes nothing: the explorer asks only after it passes
 * (issue 27, 9: `:ttl ""` asked first). */
static void test_ttl_check(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE(""));
    diag d;
    diag_init(&d);
    assert_int_equal(store_ttl_check(s, "Tab", "exp", &d), ST_OK);
    assert_int_equal(store_ttl_check(s, "Tab", "", &d), ST_VALIDATION);
    assert_string_equal(d.msg, "1 validation error detected: Value '' at 'timeToLiveSpecification.attributeName'"
                               " failed to satisfy constraint: Member must have length greater than or equal to 1");
    assert_int_equal(store_ttl_check(s, "Tab", NULL, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "TimeToLive is already disabled");
    assert_int_equal(store_ttl_check(s, "Nope", "exp", &d), ST_NOT_FOUND);
    char *attr = NULL;
    assert_int_equal(store_ttl_get(s, "Tab", &attr, &d), ST_OK);
    assert_null(attr);   /* nothing was set */
    ok(s, "UpdateTimeToLive", TTL("true", "exp"));
    assert_int_equal(store_ttl_check(s, "Tab", "other", &d), ST_VALIDATION);
    assert_string_equal(d.msg, "TimeToLive is active on a different AttributeName");
    assert_int_equal(store_ttl_check(s, "Tab", "exp", &d), ST_VALIDATION);
    assert_string_equal(d.msg, "TimeToLive is already enabled");
    assert_int_equal(store_ttl_check(s, "Tab", NULL, &d), ST_OK);
}

/* [DG] an item whose TTL attribute is a Number of epoch seconds in the
 * past is deleted by the background sweep; until then reads return it; a
 * String, a future time or a time over five years ago is left alone. The
 * delete is a service delete in the change log / stream. */
static void test_sweep(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE(",\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"OLD_IMAGE\"}"));
    double now = (double)time(NULL);
    char body[256];
    snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"old\"},\"exp\":{\"N\":\"%.0f\"}}}", now - 60);
    ok(s, "PutItem", body);
    snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"new\"},\"exp\":{\"N\":\"%.0f\"}}}", now + 3600);
    ok(s, "PutItem", body);
    snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"ancient\"},\"exp\":{\"N\":\"%.0f\"}}}",
             now - (double)TTL_MAX_AGE_S - 86400);
    ok(s, "PutItem", body);
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"str\"},\"exp\":{\"S\":\"1\"}}}");
    size_t deleted = 9;
    diag d;
    diag_init(&d);
    /* TTL not enabled yet: nothing */
    assert_int_equal(store_ttl_sweep(s, now, 100, &deleted, &d), ST_OK);
    assert_int_equal(deleted, 0);
    ok(s, "UpdateTimeToLive", TTL("true", "exp"));
    assert_int_equal(count_items(s), 4);   /* still returned until the sweep */
    /* A budget of one item a step still gets there. */
    size_t total = 0;
    for (int i = 0; i < 10; i++) {
        assert_int_equal(store_ttl_sweep(s, now, 1, &deleted, &d), ST_OK);
        total += deleted;
    }
    assert_int_equal(total, 1);
    assert_int_equal(count_items(s), 3);
    ok(s, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"old\"}}}");
    assert_string_equal(out_text, "{}");
    /* The change record is a TTL deletion (Streams userIdentity). */
    store_change c;
    size_t n = 0;
    assert_int_equal(store_changes(s, "Tab", 0, 1, &c, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_int_equal(c.event, STORE_REMOVE);
    assert_true(c.ttl);
    store_change_free(&c);
    /* An ordinary delete is not one. */
    ok(s, "DeleteItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"str\"}}}");
    assert_int_equal(store_changes(s, "Tab", 0, 1, &c, &n, &d), ST_OK);
    assert_false(c.ttl);
    store_change_free(&c);
}

/* [DG] the explorer's wording of an expiry */
static void test_describe_expiry(void **state)
{
    (void)state;
    char b[64];
    ttl_describe(1000 + 3 * 3600 + 60, 1000, b, sizeof b);
    assert_string_equal(b, "expires in 3 h");
    ttl_describe(1000 + 90, 1000, b, sizeof b);
    assert_string_equal(b, "expires in 1 min");
    ttl_describe(999, 1000, b, sizeof b);
    assert_string_equal(b, "expired");
    ttl_describe(4102444800.0, 1000, b, sizeof b);
    assert_string_equal(b, "expires 2100-01-01");
}

/* [API] tags by table ARN, a key given again replaces its value; [DYN]
 * the messages for an empty list, a missing table and a bad ARN; [DG] 50
 * tags at most, key 1 to 128 and value 0 to 256 characters, aws:
 * reserved. */
static void test_tags(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE(",\"Tags\":[{\"Key\":\"env\",\"Value\":\"dev\"}]"));
    ok(s, "ListTagsOfResource", "{\"ResourceArn\":\"" ARN "\"}");
    assert_string_equal(out_text, "{\"Tags\":[{\"Key\":\"env\",\"Value\":\"dev\"}]}");
    ok(s, "TagResource", "{\"ResourceArn\":\"" ARN "\",\"Tags\":[{\"Key\":\"env\",\"Value\":\"prod\"},"
       "{\"Key\":\"team\",\"Value\":\"\"}]}");
    ok(s, "ListTagsOfResource", "{\"ResourceArn\":\"" ARN "\"}");
    assert_string_equal(out_text, "{\"Tags\":[{\"Key\":\"env\",\"Value\":\"prod\"},{\"Key\":\"team\",\"Value\":\"\"}]}");
    ok(s, "UntagResource", "{\"ResourceArn\":\"" ARN "\",\"TagKeys\":[\"env\",\"absent\"]}");
    ok(s, "ListTagsOfResource", "{\"ResourceArn\":\"" ARN "\"}");
    assert_string_equal(out_text, "{\"Tags\":[{\"Key\":\"team\",\"Value\":\"\"}]}");
    refused(s, "TagResource", "{\"ResourceArn\":\"" ARN "\",\"Tags\":[]}", ST_VALIDATION,
            "Atleast one Tag needs to be provided as Input.");
    refused(s, "UntagResource", "{\"ResourceArn\":\"" ARN "\",\"TagKeys\":[]}", ST_VALIDATION,
            "Atleast one Tag Key needs to be provided as Input.");
    refused(s, "TagResource", "{\"ResourceArn\":\"" ARN "x\",\"Tags\":[{\"Key\":\"a\",\"Value\":\"b\"}]}",
            ST_NOT_FOUND, "Requested resource not found: ResourcArn: " ARN "x not found");
    refused(s, "ListTagsOfResource", "{\"ResourceArn\":\"arn:aws:dynamodb:us-east-1:000000000000:tab/Tab\"}",
            ST_VALIDATION, "Invalid TableArn: Invalid ResourceArn provided as input"
            " arn:aws:dynamodb:us-east-1:000000000000:tab/Tab");
    refused(s, "ListTagsOfResource", "{}", ST_VALIDATION, "Invalid TableArn");
    refused(s, "TagResource", "{\"ResourceArn\":\"" ARN "\",\"Tags\":[{\"Key\":\"aws:x\",\"Value\":\"b\"}]}",
            ST_VALIDATION, "Invalid tag key aws:x: the aws: prefix is reserved for AWS");
    char key[140], body[512];
    memset(key, 'k', 129);
    key[129] = 0;
    snprintf(body, sizeof body, "{\"ResourceArn\":\"" ARN "\",\"Tags\":[{\"Key\":\"%s\",\"Value\":\"b\"}]}", key);
    assert_int_equal(call(s, "TagResource", body), ST_VALIDATION);
    assert_non_null(strstr(out_text, "at 'tags.1.member.key' failed to satisfy constraint: Member must have"
                                     " length less than or equal to 128"));
    /* 50 at most: team and 49 more fit, one more does not */
    buf b = BUF_INIT;
    buf_adds(&b, "{\"ResourceArn\":\"" ARN "\",\"Tags\":[");
    for (int i = 0; i < 49; i++)
        buf_printf(&b, "%s{\"Key\":\"k%d\",\"Value\":\"v\"}", i ? "," : "", i);
    buf_adds(&b, "]}");
    ok(s, "TagResource", b.data);
    refused(s, "TagResource", "{\"ResourceArn\":\"" ARN "\",\"Tags\":[{\"Key\":\"one-more\",\"Value\":\"b\"}]}",
            ST_VALIDATION, "One or more parameter values were invalid: a table can have at most 50 tags"
            " (this request would make it 51)");
    buf_done(&b);
    /* a deleted table's tags go with it */
    ok(s, "DeleteTable", "{\"TableName\":\"Tab\"}");
    ok(s, "CreateTable", TABLE(""));
    ok(s, "ListTagsOfResource", "{\"ResourceArn\":\"" ARN "\"}");
    assert_string_equal(out_text, "{\"Tags\":[]}");
}

#define TWI(token, v) \
    "{\"ClientRequestToken\":\"" token "\",\"TransactItems\":[{\"Update\":{\"TableName\":\"Tab\"," \
    "\"Key\":{\"pk\":{\"S\":\"a\"}},\"UpdateExpression\":\"ADD n :one\"," \
    "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"" v "\"}}}}]}"

/* [API] TransactWriteItems: the same token and request within 10 minutes
 * is not applied again and succeeds; the same token with another request
 * is IdempotentParameterMismatchException. The token survives the store
 * being closed and opened again (a restarted `ddbx serve`). */
static void test_client_request_token(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE(""));
    ok(s, "TransactWriteItems", TWI("tok-1", "1"));
    ok(s, "TransactWriteItems", TWI("tok-1", "1"));
    ok(s, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"a\"}}}");
    assert_string_equal(out_text, "{\"Item\":{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}}}");
    refused(s, "TransactWriteItems", TWI("tok-1", "2"), ST_IDEMPOTENT_MISMATCH,
            "Request with ClientRequestToken tok-1 has different parameters than a previous request with"
            " the same token");
    store_close(s);
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    *state = s;
    ok(s, "TransactWriteItems", TWI("tok-1", "1"));
    ok(s, "TransactWriteItems", TWI("tok-2", "1"));
    ok(s, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"a\"}}}");
    assert_string_equal(out_text, "{\"Item\":{\"n\":{\"N\":\"2\"},\"pk\":{\"S\":\"a\"}}}");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ttl_settings, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ttl_check, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sweep, setup, teardown),
        cmocka_unit_test(test_describe_expiry),
        cmocka_unit_test_setup_teardown(test_tags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_client_request_token, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
