/*
 * store_set_own_changes and store_change_seqs (data/store_changes.c): the
 * store tells of the change records its own handle commits, never of
 * another handle's, nor of a write that was refused (nothing committed).
 * The explorer's :undo (ui/undo.c) is built on it.
 *
 * Where the expectations come from: ddbx's own design (store.h); that a
 * refused conditional write changes nothing is DynamoDB's
 * (ConditionalCheckFailedException, API reference, PutItem).
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
#include "tmpstore.h"

static int64_t told[16][2];
static size_t n_told;

static void note(void *ctx, int64_t tid, int64_t seq)
{
    (void)ctx;
    if (n_told < 16) {
        told[n_told][0] = tid;
        told[n_told][1] = seq;
    }
    n_told++;
}

static void call(store *s, const char *op, const char *json, status want)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, op, json, strlen(json), &out, &d);
    if (st != want)
        fail_msg("%s: %d %s", op, st, d.msg);
    free(out);
}

static void only_the_own_handles_records_are_told(void **state)
{
    store *s = *state, *other = NULL;
    diag d;
    diag_init(&d);
    call(s, "CreateTable", "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\","
         "\"AttributeDefinitions\":[{\"AttributeName\":\"k\",\"AttributeType\":\"S\"}],"
         "\"KeySchema\":[{\"AttributeName\":\"k\",\"KeyType\":\"HASH\"}]}", ST_OK);
    store_set_own_changes(s, note, NULL);
    call(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"k\":{\"S\":\"a\"}}}", ST_OK);
    assert_int_equal(store_open(path, 0, &other, &d), ST_OK);
    call(other, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"k\":{\"S\":\"b\"}}}", ST_OK);
    /* Refused: nothing committed, nothing told. */
    call(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"k\":{\"S\":\"a\"}},"
         "\"ConditionExpression\":\"attribute_not_exists(k)\"}", ST_CONDITION_FAILED);
    call(s, "DeleteItem", "{\"TableName\":\"Tab\",\"Key\":{\"k\":{\"S\":\"b\"}}}", ST_OK);
    store_close(other);

    store_seq *seqs = NULL;
    size_t n = 0;
    assert_int_equal(store_change_seqs(s, &seqs, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(seqs[0].table, "Tab");
    assert_int_equal(seqs[0].seq, 3);     /* a (1), b by the other (2), delete of b (3) */
    assert_int_equal(n_told, 2);
    assert_int_equal(told[0][0], seqs[0].tid);
    assert_int_equal(told[0][1], 1);
    assert_int_equal(told[1][1], 3);
    store_seqs_free(seqs, n);

    store_set_own_changes(s, NULL, NULL);
    call(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"k\":{\"S\":\"c\"}}}", ST_OK);
    assert_int_equal(n_told, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(only_the_own_handles_records_are_told, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
