/* sigv4_check (data/sigv4_check.h): a request signed by data/sigv4.c is
 * accepted with its key and secret; a wrong secret, another key, a
 * missing header, a date past AWS's 15 minutes either way are each
 * answered with AWS's error type and message (the header names where
 * each message is quoted from). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "data/sigv4_check.h"

#define NOW 1796515200LL   /* 2026-12-06T00:00:00Z */

/* A ListTables request signed at `when` with key and secret; fills rq
 * (its strings in the static storage here). */
static void signed_request(long long when, const char *key, const char *secret, sigv4_request *rq)
{
    static char date[17], auth[512];
    static sigv4_header hs[4];
    static const char body[] = "{}";
    sigv4_amz_date(when, date);
    hs[0] = (sigv4_header){ "Host", "127.0.0.1:8000" };
    hs[1] = (sigv4_header){ "X-Amz-Date", date };
    hs[2] = (sigv4_header){ "X-Amz-Target", "DynamoDB_20120810.ListTables" };
    hs[3] = (sigv4_header){ "Content-Type", "application/x-amz-json-1.0" };
    sigv4_input in = { .method = "POST", .path = "/", .query = "", .headers = hs, .nheaders = 4,
                       .payload = body, .payload_len = 2, .amz_date = date, .region = "us-east-1",
                       .service = "dynamodb", .access_key = key, .secret_key = secret };
    sigv4_result r;
    diag d;
    diag_init(&d);
    assert_int_equal(sigv4_sign(&in, &r, &d), ST_OK);
    snprintf(auth, sizeof auth, "%s", r.authorization);
    sigv4_result_free(&r);
    *rq = (sigv4_request){ .method = "POST", .path = "/", .query = "", .headers = hs, .nheaders = 4,
                           .body = body, .body_len = 2, .authorization = auth, .amz_date = date };
}

static void test_parse(void **state)
{
    (void)state;
    sigv4_auth a;
    assert_true(sigv4_parse_authorization("AWS4-HMAC-SHA256 Credential=AKIDabc/20261206/us-west-2/dynamodb/"
                                          "aws4_request, SignedHeaders=host;x-amz-date, Signature=abc123",
                                          &a));
    assert_string_equal(a.key, "AKIDabc");
    assert_string_equal(a.date, "20261206");
    assert_string_equal(a.region, "us-west-2");
    assert_string_equal(a.service, "dynamodb");
    assert_string_equal(a.signed_headers, "host;x-amz-date");
    assert_string_equal(a.signature, "abc123");
    assert_false(sigv4_parse_authorization("AWS4-HMAC-SHA256 Credential=K/20261206/r/aws4_request, "
                                           "SignedHeaders=host, Signature=00", &a));
    assert_false(sigv4_parse_authorization("garbage", &a));
    assert_false(sigv4_parse_authorization(NULL, &a));
}

static void test_verdicts(void **state)
{
    (void)state;
    sigv4_request rq;
    const char *type = NULL;
    char msg[300];
    signed_request(NOW - 60, "team", "s3cret", &rq);
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_GOOD);

    /* The same request with the body changed after signing. */
    sigv4_request bad = rq;
    bad.body = "{\"Limit\":1}";
    bad.body_len = strlen(bad.body);
    assert_int_equal(sigv4_check(&bad, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_BAD_SIGNATURE);

    signed_request(NOW, "team", "wrong", &rq);
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_BAD_SIGNATURE);
    assert_string_equal(type, "InvalidSignatureException");
    assert_string_equal(msg, "The request signature we calculated does not match the signature you provided. "
                             "Check your AWS Secret Access Key and signing method. Consult the service "
                             "documentation for details.");

    signed_request(NOW, "other", "s3cret", &rq);
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_UNKNOWN_KEY);
    assert_string_equal(type, "UnrecognizedClientException");
    assert_string_equal(msg, "The security token included in the request is invalid.");

    /* A good request replayed 16 minutes later. */
    signed_request(NOW - 16 * 60, "team", "s3cret", &rq);
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_EXPIRED);
    assert_string_equal(type, "InvalidSignatureException");
    assert_string_equal(msg, "Signature expired: 20261205T234400Z is now earlier than 20261205T234500Z "
                             "(20261206T000000Z - 15 min.)");
    /* 14 minutes is inside the window. */
    signed_request(NOW - 14 * 60, "team", "s3cret", &rq);
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_GOOD);
    signed_request(NOW + 16 * 60, "team", "s3cret", &rq);
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_EXPIRED);
    assert_non_null(strstr(msg, "Signature not yet current: 20261206T001600Z is still later than"));

    rq.authorization = NULL;
    assert_int_equal(sigv4_check(&rq, "team", "s3cret", NOW, &type, msg, sizeof msg), SIGV4_MISSING);
    assert_string_equal(type, "MissingAuthenticationTokenException");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_verdicts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
