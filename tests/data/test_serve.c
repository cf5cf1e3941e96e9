/* serve: the wire mapping of `ddbx serve` — CRC32 against the standard
 * check value, HTTP status and __type per error, error bodies with their
 * extra members (the current Item, CancellationReasons), the target
 * header's prefix. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/serve.h"
#include "data/store.h"

#include "tests/data/tmpstore.h"

static void test_crc32(void **state)
{
    (void)state;
    /* The CRC-32 check value (IEEE 802.3, as zlib computes it). */
    assert_int_equal(serve_crc32("123456789", 9), 0xCBF43926u);
    assert_int_equal(serve_crc32("", 0), 0u);
    /* {"TableNames":[]} as DynamoDB Local answers it; the value is zlib's. */
    assert_int_equal(serve_crc32("{\"TableNames\":[]}", 17), 1315925753u);
}

static void test_mapping(void **state)
{
    (void)state;
    char tmp[128];
    assert_int_equal(serve_http_status(ST_OK), 200);
    assert_int_equal(serve_http_status(ST_CONDITION_FAILED), 400);
    assert_int_equal(serve_http_status(ST_VALIDATION), 400);
    assert_int_equal(serve_http_status(ST_INTERNAL), 500);
    assert_int_equal(serve_http_status(ST_IO), 500);
    assert_int_equal(serve_http_status(ST_BUSY), 500);
    assert_int_equal(serve_http_status(ST_READ_ONLY), 400);
    assert_string_equal(serve_error_type(ST_READ_ONLY, tmp, sizeof tmp),
                        "com.amazon.coral.service#AccessDeniedException");
    assert_string_equal(serve_error_type(ST_VALIDATION, tmp, sizeof tmp),
                        "com.amazon.coral.validate#ValidationException");
    assert_string_equal(serve_error_type(ST_CONDITION_FAILED, tmp, sizeof tmp),
                        "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException");
    assert_string_equal(serve_error_type(ST_NOT_FOUND, tmp, sizeof tmp),
                        "com.amazonaws.dynamodb.v20120810#ResourceNotFoundException");
    assert_string_equal(serve_error_type(ST_SERIALIZATION, tmp, sizeof tmp),
                        "com.amazon.coral.service#SerializationException");
    assert_string_equal(serve_error_type(ST_UNKNOWN_OPERATION, tmp, sizeof tmp),
                        "com.amazon.coral.service#UnknownOperationException");
    assert_string_equal(serve_error_type(ST_BUSY, tmp, sizeof tmp),
                        "com.amazonaws.dynamodb.v20120810#InternalServerError");
}

static void call(store *s, const char *target, const char *body, serve_reply *r)
{
    serve_handle(s, target, body, strlen(body), r);
    assert_non_null(r->body);
    assert_int_equal(r->len, strlen(r->body));
    assert_int_equal(r->crc32, serve_crc32(r->body, r->len));
}

static void test_requests(void **state)
{
    store *s = *state;
    serve_reply r;
    call(s, "DynamoDB_20120810.CreateTable",
         "{\"TableName\":\"Tab\",\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"}],"
         "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}],\"BillingMode\":\"PAY_PER_REQUEST\"}", &r);
    assert_int_equal(r.http_status, 200);
    serve_reply_free(&r);

    const char *put = "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}},"
                      "\"ConditionExpression\":\"attribute_not_exists(PK)\","
                      "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}";
    call(s, "DynamoDB_20120810.PutItem", put, &r);
    assert_int_equal(r.http_status, 200);
    assert_string_equal(r.body, "{}");
    serve_reply_free(&r);
    call(s, "DynamoDB_20120810.PutItem", put, &r);
    assert_int_equal(r.http_status, 400);
    assert_string_equal(r.body,
        "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException\","
        "\"message\":\"The conditional request failed\","
        "\"Item\":{\"PK\":{\"S\":\"a\"},\"n\":{\"N\":\"1\"}}}");
    serve_reply_free(&r);

    /* A cancelled transaction: "Message" and CancellationReasons beside it. */
    call(s, "DynamoDB_20120810.TransactWriteItems",
         "{\"TransactItems\":[{\"ConditionCheck\":{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"a\"}},"
         "\"ConditionExpression\":\"attribute_not_exists(PK)\"}}]}", &r);
    assert_int_equal(r.http_status, 400);
    assert_non_null(strstr(r.body, "\"__type\":\"com.amazonaws.dynamodb.v20120810#TransactionCanceledException\""));
    assert_non_null(strstr(r.body, "\"Message\":\"Transaction cancelled"));
    assert_non_null(strstr(r.body, "\"CancellationReasons\":[{\"Code\":\"ConditionalCheckFailed\""));
    serve_reply_free(&r);

    call(s, "DynamoDB_20120810.GetItem", "{\"TableName\":\"Tab\"}", &r);
    assert_int_equal(r.http_status, 400);
    assert_non_null(strstr(r.body, "{\"__type\":\"com.amazon.coral.validate#ValidationException\",\"message\":\""));
    serve_reply_free(&r);

    call(s, "DynamoDB_20120810.ListTables", "[]", &r);
    assert_int_equal(r.http_status, 400);
    assert_non_null(strstr(r.body, "#SerializationException\""));
    serve_reply_free(&r);

    /* The target must carry DynamoDB's prefix and name an operation. */
    const char *bad[] = { NULL, "", "DynamoDB_20120810.", "DynamoDB_20111205.ListTables",
                          "DynamoDB_20120810.DropEverything" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        call(s, bad[i], "{}", &r);
        assert_int_equal(r.http_status, 400);
        assert_non_null(strstr(r.body, "\"__type\":\"com.amazon.coral.service#UnknownOperationException\""));
        serve_reply_free(&r);
    }
    call(s, "DynamoDB_20120810.ListTables", "{}", &r);
    assert_int_equal(r.http_status, 200);
    assert_string_equal(r.body, "{\"TableNames\":[\"Tab\"]}");
    serve_reply_free(&r);

    /* TagResource and UntagResource: "an HTTP 200 response with an empty
     * HTTP body" (API reference; issue 29). */
    call(s, "DynamoDB_20120810.TagResource", "{\"ResourceArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/Tab\","
         "\"Tags\":[{\"Key\":\"k\",\"Value\":\"v\"}]}", &r);
    assert_int_equal(r.http_status, 200);
    assert_int_equal(r.len, 0);
    serve_reply_free(&r);
    call(s, "DynamoDB_20120810.UntagResource", "{\"ResourceArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/Tab\","
         "\"TagKeys\":[\"k\"]}", &r);
    assert_int_equal(r.http_status, 200);
    assert_int_equal(r.len, 0);
    serve_reply_free(&r);
}

/* serve_handle's answer: its HTTP status, and its body (whole: exactly
 * want; else holding want). */
static void answered(store *s, const char *target, const char *body, unsigned http, const char *want, bool whole)
{
    serve_reply r;
    call(s, target, body, &r);
    assert_int_equal(r.http_status, http);
    if (whole)
        assert_string_equal(r.body, want);
    else
        assert_non_null(strstr(r.body, want));
    serve_reply_free(&r);
}

/* A body that is not JSON gets DynamoDB's answer: 400, a
 * SerializationException with no message at all, and before the target
 * is looked at. dynalite's tests, written against DynamoDB, expect
 * exactly {"__type":"com.amazon.coral.service#SerializationException"}
 * for the body "hi" with no target and no signature ("should return
 * SerializationException if body is application/json but not JSON"), and
 * the same for an empty body with a target; DynamoDB's answers quoted in
 * aws-sdk-unity issue 54 (the body alone) and aws-sdk-js-v3 issue 870
 * (the SDK showing "SerializationException: SerializationException", the
 * name where the body has no message) have none either. DynamoDB Local
 * 3.3 answers such bodies 500 InternalFailure, "The request processing
 * has failed because of an unknown error, exception or failure." (and
 * 200 for {} followed by text), so a client meets something else there.
 * Prefixes of a request and trailing text are not JSON either (scylladb's
 * test_incorrect_json, run against DynamoDB). */
static void test_not_json(void **state)
{
    store *s = *state;
    static const char want[] = "{\"__type\":\"com.amazon.coral.service#SerializationException\"}";
    const char *bodies[] = { "hi", "{\"Limit\": ", "habababa", "}{", "{3: }}", "{\"Limit\":1}{\"Limit\":1}",
                             "\xff\xfe" };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        answered(s, "DynamoDB_20120810.ListTables", bodies[i], 400, want, true);
        answered(s, "DynamoDB_20120810.GetItem", bodies[i], 400, want, true);
        /* Before the target. */
        answered(s, NULL, bodies[i], 400, want, true);
    }
    answered(s, "DynamoDB_20120810.ListTables", "", 400, want, true);
    /* An empty body with no target is the target's error (dynalite reads
     * the body first only when there is one). */
    answered(s, NULL, "", 400, "#UnknownOperationException\"", false);
    /* JSON of the wrong shape keeps its message. */
    answered(s, "DynamoDB_20120810.ListTables", "{\"Limit\":\"x\"}", 400, "#SerializationException\",\"message\":\"",
             false);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_crc32),
        cmocka_unit_test_setup_teardown(test_not_json, setup, teardown),
        cmocka_unit_test(test_mapping),
        cmocka_unit_test_setup_teardown(test_requests, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
