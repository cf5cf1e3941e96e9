/*
 * The hot-partition rule the table view's HOT and the doctor share
 * (model/doctor.h, doctor_hot; issue 38, item 5): at least 32 items, and
 * at least 4 times the mean of the other partitions in items or in
 * bytes; the only partition of a table or index, with 32 items or more,
 * is hot (its key has one value). Expectation: the developer guide's
 * "Designing partition keys to distribute your workload" (an even key
 * distribution has no hot partition; a key with one value sends every
 * request to one partition).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "model/doctor.h"

static void even_tables_have_none(void **state)
{
    (void)state;
    /* 20 partitions of 100 items (the table), 3 of 3,000. */
    assert_false(doctor_hot(100, 3200, 2000, 64000, 20));
    assert_false(doctor_hot(3000, 96700, 9000, 290100, 3));
    /* Two even partitions. */
    assert_false(doctor_hot(1000, 1000, 2000, 2000, 2));
}

static void far_above_the_rest(void **state)
{
    (void)state;
    /* 40 items beside 19 partitions of 2: 20 times the rest. */
    assert_true(doctor_hot(40, 800, 78, 1560, 20));
    /* 150 of 200, the rest 50 partitions of 1. */
    assert_true(doctor_hot(150, 0, 200, 0, 51));
    /* One of 1,000 beside one of 1: the mean of both would hide it. */
    assert_true(doctor_hot(1000, 0, 1001, 0, 2));
    /* Exactly 4 times is hot (40 beside 10), under it is not. */
    assert_true(doctor_hot(40, 0, 50, 0, 2));
    assert_false(doctor_hot(39, 0, 49, 0, 2));
}

static void bytes_count_too(void **state)
{
    (void)state;
    /* Even in items, 10 times the others in bytes. */
    assert_true(doctor_hot(100, 100000, 400, 130000, 4));
    /* Bytes not known (0): items alone. */
    assert_false(doctor_hot(100, 0, 400, 0, 4));
}

static void small_or_alone(void **state)
{
    (void)state;
    /* Under 32 items is never hot, however far above the rest. */
    assert_false(doctor_hot(31, 0, 40, 0, 10));
    /* The only partition: its key has one value. */
    assert_true(doctor_hot(2413, 250000, 2413, 250000, 1));
    assert_false(doctor_hot(10, 100, 10, 100, 1));
    /* Totals that do not hold the partition (stale): not hot. */
    assert_false(doctor_hot(500, 0, 100, 0, 3));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(even_tables_have_none),
        cmocka_unit_test(far_above_the_rest),
        cmocka_unit_test(bytes_count_too),
        cmocka_unit_test(small_or_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
