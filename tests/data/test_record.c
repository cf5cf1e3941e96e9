/*
 * The request recorder of `ddbx serve --record` (data/record.c) and its
 * reader (data/record_read.c): no value in clear text, one value one
 * hash under one key and another under another key, the answer's counts
 * and error type, rotation at the bound, and the lines read back into
 * model/mine.
 *
 * Where the expectations come from: the request and answer shapes are
 * DynamoDB's API reference (GetItem, Query: Items, Count, ScannedCount;
 * errors as {"__type":"...#Type","message":...}); the line's members,
 * the hash's shape and the rotation rule are ddbx's own (data/record.h).
 */
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

#include "data/record.h"
#include "model/buf.h"
#include "model/mine.h"

static char dir[64];

static recorder *open_rec(const char *name, const char *key, uint64_t max, unsigned keep)
{
    char path[128], kp[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    snprintf(kp, sizeof kp, "%s/%s", dir, key);
    record_opts o = { .path = path, .key_path = kp, .max_bytes = max, .keep = keep, .no_thread = true };
    recorder *r = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(record_open(&o, &r, &d), ST_OK);
    return r;
}

static const char query_body[] =
    "{\"TableName\":\"SocialGraph\",\"IndexName\":\"GSI1\",\"KeyConditionExpression\":\"GSI1PK = :t\","
    "\"FilterExpression\":\"#s = :v\",\"ExpressionAttributeNames\":{\"#s\":\"status\"},"
    "\"ExpressionAttributeValues\":{\":t\":{\"S\":\"TARGET#bob\"},\":v\":{\"N\":\"4242.125\"}},\"Limit\":100}";
static const char query_reply[] =
    "{\"Items\":[{\"Count\":{\"N\":\"7\"}}],\"Count\":1,\"ScannedCount\":9,\"ConsumedCapacity\":{}}";

static void values_are_hashed_and_counts_taken(void **state)
{
    (void)state;
    recorder *r = open_rec("a.jsonl", "a.key", 0, 4);
    assert_true(record_key_created(r));
    record_call c = { .op = "Query", .body = query_body, .len = strlen(query_body), .reply = query_reply,
                      .reply_len = strlen(query_reply), .http = 200, .units = 0.5, .ms = 0.25, .t = 1765000000.5 };
    buf a = BUF_INIT, b = BUF_INIT;
    record_format(r, &c, &a);
    record_format(r, &c, &b);
    assert_string_equal(a.data, b.data);
    assert_null(strstr(a.data, "bob"));
    assert_null(strstr(a.data, "4242.125"));   /* a dot: no hash has one */
    assert_non_null(strstr(a.data, "\"key_condition\":\"GSI1PK = :t\""));
    assert_non_null(strstr(a.data, "\"names\":{\"#s\":\"status\"}"));
    assert_non_null(strstr(a.data, "\"values\":{\":t\":\"S:"));
    assert_non_null(strstr(a.data, "\":v\":\"N:"));
    /* the item's attribute named Count is not the answer's Count */
    assert_non_null(strstr(a.data, "\"count\":1,\"scanned\":9,\"units\":0.5,\"ms\":0.250,\"status\":200}\n"));
    assert_non_null(strstr(a.data, "\"t\":1765000000.500,"));
    /* another recording's key: another hash of the same value */
    recorder *r2 = open_rec("b.jsonl", "b.key", 0, 4);
    buf c2 = BUF_INIT;
    record_format(r2, &c, &c2);
    const char *h1 = strstr(a.data, "\":t\":\"S:"), *h2 = strstr(c2.data, "\":t\":\"S:");
    assert_non_null(h1);
    assert_non_null(h2);
    assert_int_not_equal(memcmp(h1, h2, 7 + 16), 0);
    buf_done(&a), buf_done(&b), buf_done(&c2);
    record_close(r);
    record_close(r2);
}

static void errors_keep_their_type_and_statements_lose_literals(void **state)
{
    (void)state;
    recorder *r = open_rec("c.jsonl", "c.key", 0, 4);
    const char body[] = "{\"Statement\":\"SELECT * FROM T WHERE PK = 'alice' AND n > 1717.25\","
                        "\"Parameters\":[{\"S\":\"secret\"}]}";
    const char reply[] = "{\"__type\":\"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException\","
                         "\"message\":\"Requested resource not found: alice\"}";
    record_call c = { .op = "ExecuteStatement", .body = body, .len = strlen(body), .reply = reply,
                      .reply_len = strlen(reply), .http = 400, .t = 1 };
    buf a = BUF_INIT;
    record_format(r, &c, &a);
    assert_non_null(strstr(a.data, "\"statement\":\"SELECT * FROM T WHERE PK = ? AND n > ?\""));
    assert_non_null(strstr(a.data, "\"error\":\"ResourceNotFoundException\""));
    assert_null(strstr(a.data, "alice"));
    assert_null(strstr(a.data, "secret"));
    assert_null(strstr(a.data, "1717.25"));
    buf_done(&a);
    record_close(r);
}

static void rotates_at_the_bound_and_reads_back(void **state)
{
    (void)state;
    recorder *r = open_rec("d.jsonl", "d.key", 4096, 2);
    record_call c = { .op = "Query", .body = query_body, .len = strlen(query_body), .reply = query_reply,
                      .reply_len = strlen(query_reply), .http = 200, .units = 0.5, .ms = 0.25 };
    for (int i = 0; i < 200; i++) {
        c.t = 1000 + i;
        record_request(r, &c);
    }
    record_close(r);
    char p[128];
    struct stat sb;
    uint64_t lines = 0, bad = 0, total = 0;
    mine *m = mine_new();
    for (int i = 0; i <= 3; i++) {
        if (i)
            snprintf(p, sizeof p, "%s/d.jsonl.%d", dir, i);
        else
            snprintf(p, sizeof p, "%s/d.jsonl", dir);
        if (i == 3) {
            assert_int_not_equal(stat(p, &sb), 0);   /* keep 2: no third */
            break;
        }
        assert_int_equal(stat(p, &sb), 0);
        assert_true(sb.st_size <= 4096);
        diag d;
        diag_init(&d);
        assert_int_equal(record_read(p, m, &lines, &bad, NULL, &d), ST_OK);
        total += lines;
        lines = 0;
    }
    assert_int_equal(bad, 0);
    assert_int_equal(mine_count(m), 1);
    assert_int_equal(mine_get(m, 0)->calls, total);
    assert_string_equal(mine_get(m, 0)->filter, "#n1 = :p2");
    mine_free(m);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/ddbx-record-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(values_are_hashed_and_counts_taken),
        cmocka_unit_test(errors_keep_their_type_and_statements_lose_literals),
        cmocka_unit_test(rotates_at_the_bound_and_reads_back),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        rc = 1;
    return rc;
}
