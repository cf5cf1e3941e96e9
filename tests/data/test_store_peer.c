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
 * ExecuteTransaction). Each runs twice: on a file, and on an in-memory
 * database (":memory:", `ddbx serve --in-memory`), whose peers must
 * share it with the same guarantees (issue 32).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>

#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"
#include "tests/data/memstore.h"

#define TABLE(name, type)                                                                        \
    "{\"TableName\":\"" name "\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":"  \
    "[{\"AttributeName\":\"PK\",\"AttributeType\":\"" type "\"}],\"KeySchema\":"                 \
    "[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}]}"

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

/* The in-memory database (memstore.h): every ":memory:" open is a
 * database of its own, and its peers share it (all the tests above run
 * on one too), also when made from the schema's image, whose copy must
 * be the shared database, not a private one of the first connection. */
static void test_memory_databases_apart(void **state)
{
    store *a = *state, *other = NULL;
    diag d;
    diag_init(&d);
    ok(a, "CreateTable", TABLE("Tab", "S"));
    assert_int_equal(store_open(":memory:", 0, &other, &d), ST_OK);
    ok(other, "ListTables", "{}");
    assert_string_equal(out_text, "{\"TableNames\":[]}");
    store *b = peer_of(a);
    ok(b, "ListTables", "{}");
    assert_string_equal(out_text, "{\"TableNames\":[\"Tab\"]}");
    store_close(b);
    store_close(other);
}

/* Readers on three threads while a writer commits 300 times: no read
 * fails (memdb refuses a reader while a writer holds its lock: the store
 * waits instead of answering "database busy"), and each read sees a
 * whole committed item: its two attributes, written together, agree. */
typedef struct reader {
    store *s;
    int failures, torn;
    volatile int *stop;
} reader;

static void *read_many(void *arg)
{
    reader *r = arg;
    while (!*r->stop) {
        char *out = NULL;
        diag d;
        diag_init(&d);
        const char *b = "{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"c\"}}}";
        if (store_call(r->s, "GetItem", b, strlen(b), &out, &d) != ST_OK) {
            r->failures++;
        } else if (out) {
            const char *x = strstr(out, "\"x\":{\"N\":\""), *y = strstr(out, "\"y\":{\"N\":\"");
            if (x && y && atoi(x + 12) != atoi(y + 12))
                r->torn++;
        }
        free(out);
    }
    return NULL;
}

static void test_readers_beside_writer(void **state)
{
    store *a = *state;
    ok(a, "CreateTable", TABLE("Tab", "S"));
    volatile int stop = 0;
    reader r[3];
    pthread_t th[3];
    for (int i = 0; i < 3; i++) {
        r[i] = (reader){ peer_of(a), 0, 0, &stop };
        assert_int_equal(pthread_create(&th[i], NULL, read_many, &r[i]), 0);
    }
    for (int i = 0; i < 300; i++) {
        char item[160];
        snprintf(item, sizeof item, "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"c\"},"
                 "\"x\":{\"N\":\"%d\"},\"y\":{\"N\":\"%d\"}}}", i, i);
        ok(a, "PutItem", item);
    }
    stop = 1;
    for (int i = 0; i < 3; i++) {
        pthread_join(th[i], NULL);
        assert_int_equal(r[i].failures, 0);
        assert_int_equal(r[i].torn, 0);
        store_close(r[i].s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_commits_seen_by_peer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_table_cache_follows_peer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_token_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writers_queue, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_in_any_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_readers_beside_writer, setup, teardown),
        cmocka_unit_test_setup_teardown(test_commits_seen_by_peer, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_table_cache_follows_peer, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_token_shared, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_writers_queue, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_close_in_any_order, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_readers_beside_writer, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_memory_databases_apart, setup_memory, teardown_memory),
        cmocka_unit_test_setup_teardown(test_commits_seen_by_peer, setup_image, teardown_memory),
        cmocka_unit_test_setup_teardown(test_table_cache_follows_peer, setup_image, teardown_memory),
        cmocka_unit_test_setup_teardown(test_token_shared, setup_image, teardown_memory),
        cmocka_unit_test_setup_teardown(test_writers_queue, setup_image, teardown_memory),
        cmocka_unit_test_setup_teardown(test_readers_beside_writer, setup_image, teardown_memory),
        cmocka_unit_test_setup_teardown(test_memory_databases_apart, setup_image, teardown_memory),
    };
    (void)refused;
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    free(image);
    return rc;
}
