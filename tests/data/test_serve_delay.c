/* serve_delay (data/serve_delay.h): the statuses DynamoDB Local 3.3.1
 * gives an index under -delayTransientStatuses (measured 2026-12-06 by
 * polling DescribeTable): created, CREATING with Backfilling false for
 * 15 s, then Backfilling true for 15 s, then ACTIVE; deleted, DELETING
 * for 15 s, then gone. The answers here are the store's (the index ACTIVE
 * at once, the deleted one absent) rewritten at given times. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "data/serve_delay.h"
#include "model/mem.h"

static serve_reply reply(const char *body)
{
    serve_reply r = { .http_status = 200, .body = xstrdup(body), .len = strlen(body) };
    r.crc32 = serve_crc32(r.body, r.len);
    return r;
}

/* DescribeTable's answer at time now, rewritten; the caller frees it. */
static char *describe_at(serve_delay *t, const char *db, const char *store_answer, double now)
{
    serve_reply r = reply(store_answer);
    serve_delay_apply(t, db, "DescribeTable", &r, now);
    assert_int_equal(r.crc32, serve_crc32(r.body, r.len));
    return r.body;
}

#define ACTIVE_G "{\"Table\":{\"TableName\":\"T\",\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G\",\"IndexStatus\":\"ACTIVE\"}]}}"
#define NO_G "{\"Table\":{\"TableName\":\"T\"}}"

static void test_create(void **state)
{
    (void)state;
    serve_delay *t = serve_delay_new();
    serve_reply r = reply("{\"TableDescription\":{\"TableName\":\"T\",\"GlobalSecondaryIndexes\":[{\"IndexName\":"
                          "\"G\",\"IndexStatus\":\"CREATING\",\"Backfilling\":false}]}}");
    serve_delay_apply(t, "K_r", "UpdateTable", &r, 100.0);
    assert_non_null(strstr(r.body, "\"IndexStatus\":\"CREATING\",\"Backfilling\":false"));
    serve_reply_free(&r);
    char *b = describe_at(t, "K_r", ACTIVE_G, 114.9);
    assert_non_null(strstr(b, "\"IndexStatus\":\"CREATING\",\"Backfilling\":false"));
    free(b);
    /* Another database's table of the same name is its own. */
    b = describe_at(t, "other_r", ACTIVE_G, 114.9);
    assert_string_equal(b, ACTIVE_G);
    free(b);
    b = describe_at(t, "K_r", ACTIVE_G, 115.0);
    assert_non_null(strstr(b, "\"IndexStatus\":\"CREATING\",\"Backfilling\":true"));
    free(b);
    b = describe_at(t, "K_r", ACTIVE_G, 130.0);
    assert_string_equal(b, ACTIVE_G);
    free(b);
    serve_delay_free(t);
}

static void test_delete(void **state)
{
    (void)state;
    serve_delay *t = serve_delay_new();
    serve_reply r = reply("{\"TableDescription\":{\"TableName\":\"T\",\"GlobalSecondaryIndexes\":[{\"IndexName\":"
                          "\"G\",\"IndexStatus\":\"DELETING\"}]}}");
    serve_delay_apply(t, "", "UpdateTable", &r, 10.0);
    serve_reply_free(&r);
    char *b = describe_at(t, "", NO_G, 24.0);
    assert_non_null(strstr(b, "\"IndexName\":\"G\",\"IndexStatus\":\"DELETING\""));
    free(b);
    b = describe_at(t, "", NO_G, 25.0);
    assert_string_equal(b, NO_G);
    free(b);
    /* A table deleted and made again starts with no window. */
    r = reply("{\"TableDescription\":{\"TableName\":\"T\",\"GlobalSecondaryIndexes\":[{\"IndexName\":"
              "\"G\",\"IndexStatus\":\"DELETING\"}]}}");
    serve_delay_apply(t, "", "UpdateTable", &r, 30.0);
    serve_reply_free(&r);
    r = reply("{\"TableDescription\":{\"TableName\":\"T\",\"TableStatus\":\"DELETING\"}}");
    serve_delay_apply(t, "", "DeleteTable", &r, 31.0);
    serve_reply_free(&r);
    b = describe_at(t, "", NO_G, 32.0);
    assert_string_equal(b, NO_G);
    free(b);
    serve_delay_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_create),
        cmocka_unit_test(test_delete),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
