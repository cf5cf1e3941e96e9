/*
 * store_position's partition number from checkpoints (issue 27, scale:
 * SQLite counts the partitions before one row by row, 5 ms at the end of
 * an index of 100,000 partitions, on every move of the explorer to
 * another partition). The numbers must be the plain count's whatever the
 * path, before and after writes that change them, for the table and an
 * index apart; and, counted in SQLite's VDBE steps (no clock), once a
 * file version has been asked twice a question reads a bounded slice of
 * the partitions, not all of them.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "data/store_search.h"
#include "tests/data/tmpstore.h"

#define PARTS 3000

static void call(store *s, const char *op, const char *json)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_call(s, op, json, strlen(json), &out, &d), ST_OK);
    free(out);
}

/* P#0000 .. P#2999, partition i holding i % 3 + 1 items, each item also
 * in GSI1 under G#(i % 1000). */
static void fill(store *s)
{
    call(s, "CreateTable", "{\"TableName\":\"Tbl\",\"AttributeDefinitions\":[{\"AttributeName\":\"PK\","
         "\"AttributeType\":\"S\"},{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"G\","
         "\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
         "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\","
         "\"KeySchema\":[{\"AttributeName\":\"G\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":"
         "\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],\"BillingMode\":\"PAY_PER_REQUEST\"}");
    char req[8192];
    size_t at = 0, in = 0;
    for (int i = 0; i < PARTS; i++)
        for (int j = 0; j <= i % 3; j++) {
            if (!in)
                at = (size_t)snprintf(req, sizeof req, "{\"RequestItems\":{\"Tbl\":[");
            at += (size_t)snprintf(req + at, sizeof req - at, "%s{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":"
                                   "\"P#%04d\"},\"SK\":{\"S\":\"S#%d\"},\"G\":{\"S\":\"G#%03d\"}}}}",
                                   in ? "," : "", i, j, i % 1000);
            if (++in == 25 || (i == PARTS - 1 && j == i % 3)) {
                snprintf(req + at, sizeof req - at, "]}}");
                call(s, "BatchWriteItem", req);
                in = 0;
            }
        }
}

static void pk_of(av *out, const char *fmt, int i)
{
    char t[16];
    snprintf(t, sizeof t, fmt, i);
    av_init_s(out, t, strlen(t));
}

/* The number of partition P#i and the items before it, and the steps
 * the question took. */
static uint64_t ask(store *s, const char *index, const char *fmt, int i, store_pos *pos)
{
    av pk;
    pk_of(&pk, fmt, i);
    diag d;
    diag_init(&d);
    uint64_t s0 = store_position_steps(s);
    assert_int_equal(store_position(s, "Tbl", index, &pk, true, NULL, pos, &d), ST_OK);
    av_done(&pk);
    return store_position_steps(s) - s0;
}

/* Items of P#0000 .. P#(i-1): 1, 2, 3, 1, ... */
static uint64_t items_before(int i)
{
    return (uint64_t)(i / 3) * 6 + (i % 3 == 2 ? 3 : (uint64_t)(i % 3));
}

static void numbers_are_the_counts_and_cost_a_slice(void **state)
{
    store *s = *state;
    fill(s);
    store_pos pos;
    /* The first question at this version counts from the start. */
    uint64_t plain = ask(s, NULL, "P#%04d", PARTS - 1, &pos);
    assert_int_equal(pos.part_no, PARTS);
    assert_int_equal(pos.before_part, items_before(PARTS - 1));
    uint64_t worst = 0;
    for (int i = 0; i < PARTS; i++) {
        uint64_t steps = ask(s, NULL, "P#%04d", i, &pos);
        assert_int_equal(pos.part_no, (uint64_t)i + 1);
        assert_int_equal(pos.before_part, items_before(i));
        if (i > 0 && steps > worst)
            worst = steps;   /* the first builds the checkpoints */
    }
    uint64_t last = ask(s, NULL, "P#%04d", PARTS - 1, &pos);
    printf("# %d partitions: the last one's number %llu VDBE steps counted from the start, %llu from its "
           "checkpoint (worst %llu)\n", PARTS, (unsigned long long)plain, (unsigned long long)last,
           (unsigned long long)worst);
    /* At most 256 partitions counted, not 3,000. */
    assert_true(worst * 5 < plain);
    assert_true(last * 5 < plain);
    /* A write changes the numbers: a partition before all the others. */
    call(s, "PutItem", "{\"TableName\":\"Tbl\",\"Item\":{\"PK\":{\"S\":\"P#\"},\"SK\":{\"S\":\"x\"},"
                       "\"G\":{\"S\":\"A\"}}}");
    for (int r = 0; r < 3; r++) {
        ask(s, NULL, "P#%04d", PARTS - 1, &pos);
        assert_int_equal(pos.part_no, PARTS + 1);
        assert_int_equal(pos.before_part, items_before(PARTS - 1) + 1);
        ask(s, NULL, "P#%04d", 1000, &pos);
        assert_int_equal(pos.part_no, 1002);
    }
    /* The index apart: G#000 .. G#999 hold 6 items each (partitions i, i +
     * 1000 and i + 2000: 1 + 2 + 3), A one. */
    for (int r = 0; r < 3; r++)
        for (int g = 0; g < 1000; g += 111) {
            ask(s, "GSI1", "G#%03d", g, &pos);
            assert_int_equal(pos.part_no, (uint64_t)g + 2);
            assert_int_equal(pos.before_part, (uint64_t)g * 6 + 1);
        }
    /* Another connection's write (the explorer beside `ddbx serve`). */
    store *w;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, 0, &w, &d), ST_OK);
    call(w, "DeleteItem", "{\"TableName\":\"Tbl\",\"Key\":{\"PK\":{\"S\":\"P#\"},\"SK\":{\"S\":\"x\"}}}");
    store_close(w);
    ask(s, NULL, "P#%04d", PARTS - 1, &pos);
    assert_int_equal(pos.part_no, PARTS);
    ask(s, "GSI1", "G#%03d", 999, &pos);
    assert_int_equal(pos.part_no, 1000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(numbers_are_the_counts_and_cost_a_slice, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
