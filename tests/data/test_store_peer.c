/*
 * Tests of store_open_peer (data/store.h): several connections of one
 * process to one file, as `ddbx serve`'s worker threads use them. Each
 * test states what must hold across connections: what one commits the
 * other reads at once (DynamoDB: a write acknowledged is visible to every
 * later read of any client), a table made or changed on one is used with
 * its new definition on the other (each has its own cache, checked with
 * PRAGMA data_version), writers on several threads queue rather than
 * fail with "database busy", and a PartiQL ClientRequestToken is known
 * to every connection (idempotency: DynamoDB API reference,
 * ExecuteTransaction).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>

#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"

#define TABLE(name, type)                                                                        \
    "{\"TableName\":\"" name "\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"  \
    "[{\"AttributeName\":\"PK\",\"AttributeType\":\"" type "\"}],\"KeySchema\":"                 \
    "[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}]}"

static store *peer_of(store *s)
{
    store *p = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open_peer(s, &p, &d), ST_OK);
    return p;
}

static void test_commits_seen_by_peer(void **state)
{
    store *a = *state, *b = peer_of(a);
    ok(a, "CreateTable", TABLE("Tab", "S"));
    ok(b, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"k\"},\"v\":{\"N\":\"1\"}}}");
    ok(a, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"k\"}}}");
    assert_non_null(strstr(out_text, "\"v\":{\"N\":\"1\"}"));
    store_close(b);
}

/* b caches T's definition (string key); a drops T and makes it again
 * with a number key: b must take the new one at its next request. */
static void test_table_cache_follows_peer(void **state)
{
    store *a = *state, *b = peer_of(a);
    ok(a, "CreateTable", TABLE("Tab", "S"));
    ok(b, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"k\"}}}");
    ok(a, "DeleteTable", "{\"TableName\":\"Tab\"}");
    ok(a, "CreateTable", TABLE("Tab", "N"));
    ok(b, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"N\":\"7\"}}}");
    assert_int_equal(call(b, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"k\"}}}"),
                     ST_VALIDATION);
    store_close(b);
}

static void test_token_shared(void **state)
{
    store *a = *state, *b = peer_of(a);
    ok(a, "CreateTable", TABLE("Tab", "S"));
    ok(a, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"k\"},\"n\":{\"N\":\"0\"}}}");
    const char *tx = "{\"ClientRequestToken\":\"tok\",\"TransactStatements\":[{\"Statement\":"
                     "\"UPDATE \\\"Tab\\\" SET n = n + 1 WHERE PK = 'k'\"}]}";
    ok(a, "ExecuteTransaction", tx);
    ok(b, "ExecuteTransaction", tx);   /* a replay: not applied again */
    ok(b, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"k\"}}}");
    assert_non_null(strstr(out_text, "\"n\":{\"N\":\"1\"}"));
    store_close(b);
}

/* Four threads, a connection each, 200 ADDs each on one counter: every
 * one succeeds (no ST_BUSY) and none is lost. */
typedef struct adder {
    store *s;
    int failures;
} adder;

static void *add_many(void *arg)
{
    adder *w = arg;
    for (int i = 0; i < 200; i++) {
        char *out = NULL;
        diag d;
        diag_init(&d);
        const char *b = "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"c\"}},"
                        "\"UpdateExpression\":\"ADD n :one\","
                        "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}}";
        if (store_call(w->s, "UpdateItem", b, strlen(b), &out, &d) != ST_OK)
            w->failures++;
        free(out);
    }
    return NULL;
}

static void test_writers_queue(void **state)
{
    store *a = *state;
    ok(a, "CreateTable", TABLE("Tab", "S"));
    adder w[4];
    pthread_t th[4];
    for (int i = 0; i < 4; i++) {
        w[i] = (adder){ i ? peer_of(a) : a, 0 };
        assert_int_equal(pthread_create(&th[i], NULL, add_many, &w[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(w[i].failures, 0);
        if (i)
            store_close(w[i].s);
    }
    ok(a, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"c\"}}}");
    assert_non_null(strstr(out_text, "\"n\":{\"N\":\"800\"}"));
}

/* The peer outlives the first connection: the shared state is freed
 * with the last. */
static void test_close_in_any_order(void **state)
{
    store *a = *state, *b = peer_of(a);
    ok(a, "CreateTable", TABLE("Tab", "S"));
    store_close(a);
    *state = NULL;
    ok(b, "ListTables", "{}");
    assert_string_equal(out_text, "{\"TableNames\":[\"Tab\"]}");
    store_close(b);
}

static void test_memory_has_no_peer(void **state)
{
    (void)state;
    store *m = NULL, *p = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(":memory:", 0, &m, &d), ST_OK);
    assert_int_equal(store_open_peer(m, &p, &d), ST_USAGE);
    assert_null(p);
    store_close(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commits_seen_by_peer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_cache_follows_peer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_token_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writers_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_in_any_order, setup, teardown),
        cmocka_unit_test(test_memory_has_no_peer),
    };
    (void)refused;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
