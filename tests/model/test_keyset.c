/*
 * keyset, the explorer's marks (issue 27, item 5: 67,000 marks took 4.5
 * minutes when a mark was found by a linear scan). What it holds: items by
 * table and key (an index item names its base item), the same key in
 * another table or under another key schema apart, items without the key
 * refused, the list in the table's key order (N numerically), keys
 * rebuilt as they were. How much it costs, counted and not timed: adding,
 * testing and removing an item makes O(log n) key comparisons however
 * many are held (a linear scan makes n/2 on average, and fails these
 * bounds from a few thousand on), listing makes none.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/keyset.h"

static void put_s(av *item, const char *name, const char *s)
{
    av v;
    av_init_s(&v, s, strlen(s));
    av_map_put(item, name, strlen(name), &v);
}

static void put_n(av *item, const char *name, int64_t n)
{
    av v;
    num x;
    num_from_int(&x, n);
    av_init_n(&v, &x);
    av_map_put(item, name, strlen(name), &v);
}

/* PK=S, SK=S; the second table's SK is a number. */
static table_def def_ss = { .name = "T", .pk = { "PK", AV_S }, .sk = { "SK", AV_S } };
static table_def def_sn = { .name = "U", .pk = { "PK", AV_S }, .sk = { "SK", AV_N } };
static table_def def_s = { .name = "V", .pk = { "id", AV_S } };

static void edge(av *item, const char *pk, const char *sk)
{
    av_init_list(item, AV_M);
    put_s(item, "PK", pk);
    put_s(item, "SK", sk);
    put_s(item, "note", "not part of the key");
}

static void holds_items_by_table_and_key(void **state)
{
    (void)state;
    keyset *s = keyset_new();
    av a, b, idx;
    edge(&a, "ACTOR#alice", "TARGET#bob");
    edge(&b, "ACTOR#alice", "TARGET#carol");
    assert_int_equal(keyset_add(s, "T", &def_ss, &a), 1);
    assert_int_equal(keyset_add(s, "T", &def_ss, &a), 0);
    assert_true(keyset_has(s, "T", &def_ss, &a));
    assert_false(keyset_has(s, "T", &def_ss, &b));
    assert_false(keyset_has(s, "Other", &def_ss, &a));
    /* An index item carries its table's key: it names the base item. */
    edge(&idx, "ACTOR#alice", "TARGET#bob");
    put_s(&idx, "GSI1PK", "TARGET#bob");
    assert_true(keyset_has(s, "T", &def_ss, &idx));
    /* The same name made again with another key schema is another table. */
    table_def again = { .name = "T", .pk = { "PK", AV_S }, .sk = { "SK2", AV_S } };
    assert_false(keyset_has(s, "T", &again, &a));
    assert_int_equal(keyset_count(s), 1);
    assert_true(keyset_remove(s, "T", &def_ss, &idx));
    assert_false(keyset_remove(s, "T", &def_ss, &a));
    assert_int_equal(keyset_count(s), 0);
    assert_int_equal(keyset_table_count(s, 0), 0);
    av_done(&a);
    av_done(&b);
    av_done(&idx);
    keyset_free(s);
}

/* keyset_remove_key: a committed delete names only the table and the key
 * (ui/staging.c has no definition at hand); the recorded key schema
 * finds the entry, a key of another schema or table finds none. */
static void removes_by_key_alone(void **state)
{
    (void)state;
    keyset *s = keyset_new();
    av a, b, key, other;
    edge(&a, "ACTOR#alice", "TARGET#bob");
    edge(&b, "ACTOR#alice", "TARGET#carol");
    assert_int_equal(keyset_add(s, "T", &def_ss, &a), 1);
    assert_int_equal(keyset_add(s, "T", &def_ss, &b), 1);
    av_init_list(&key, AV_M);
    put_s(&key, "PK", "ACTOR#alice");
    put_s(&key, "SK", "TARGET#bob");
    av_init_list(&other, AV_M);
    put_s(&other, "PK", "ACTOR#alice");
    put_n(&other, "SK", 7);   /* SK a number: T's is a string */
    assert_false(keyset_remove_key(s, "T", &other));
    assert_false(keyset_remove_key(s, "U", &key));
    assert_true(keyset_remove_key(s, "T", &key));
    assert_false(keyset_remove_key(s, "T", &key));
    assert_false(keyset_has(s, "T", &def_ss, &a));
    assert_true(keyset_has(s, "T", &def_ss, &b));
    assert_int_equal(keyset_count(s), 1);
    av_done(&a);
    av_done(&b);
    av_done(&key);
    av_done(&other);
    keyset_free(s);
}

static void refuses_items_without_the_key(void **state)
{
    (void)state;
    keyset *s = keyset_new();
    av no_sk, wrong;
    av_init_list(&no_sk, AV_M);
    put_s(&no_sk, "PK", "a");
    edge(&wrong, "a", "b");   /* SK an S where U's is an N */
    assert_int_equal(keyset_add(s, "T", &def_ss, &no_sk), -1);
    assert_int_equal(keyset_add(s, "U", &def_sn, &wrong), -1);
    assert_false(keyset_has(s, "U", &def_sn, &wrong));
    assert_int_equal(keyset_count(s), 0);
    av_done(&no_sk);
    av_done(&wrong);
    keyset_free(s);
}

/* Tables in the order first used, each in its key order; keys rebuilt. */
static void lists_in_key_order_and_rebuilds_keys(void **state)
{
    (void)state;
    keyset *s = keyset_new();
    static const int64_t nums[] = { 10, -3, 2, 100, 0 };
    for (size_t i = 0; i < 5; i++) {
        av it;
        av_init_list(&it, AV_M);
        put_s(&it, "PK", "P");
        put_n(&it, "SK", nums[i]);
        assert_int_equal(keyset_add(s, "U", &def_sn, &it), 1);
        av_done(&it);
    }
    av a, b, c;
    edge(&a, "B", "x");
    edge(&b, "A", "y");
    av_init_list(&c, AV_M);
    put_s(&c, "id", "only a partition key");
    assert_int_equal(keyset_add(s, "T", &def_ss, &a), 1);
    assert_int_equal(keyset_add(s, "T", &def_ss, &b), 1);
    assert_int_equal(keyset_add(s, "V", &def_s, &c), 1);
    assert_int_equal(keyset_tables(s), 3);
    assert_string_equal(keyset_table_name(s, 0), "U");
    assert_int_equal(keyset_table_count(s, 0), 5);
    assert_int_equal(keyset_table_count(s, 1), 2);
    size_t n;
    const keyset_entry **all = keyset_list(s, &n);
    assert_int_equal(n, 8);
    static const int64_t sorted[] = { -3, 0, 2, 10, 100 };
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(keyset_entry_table(all[i]), 0);
        av k, want;
        keyset_entry_key(s, all[i], &k);
        av_init_list(&want, AV_M);
        put_s(&want, "PK", "P");
        put_n(&want, "SK", sorted[i]);
        assert_true(av_equal(&k, &want));
        av_done(&k);
        av_done(&want);
    }
    av k;
    keyset_entry_key(s, all[5], &k);
    assert_string_equal(av_map_get(&k, "PK", 2)->u.s.ptr, "A");
    assert_int_equal(k.u.m.len, 2);   /* the key only, no "note" */
    av_done(&k);
    keyset_entry_key(s, all[7], &k);
    assert_int_equal(k.u.m.len, 1);
    assert_string_equal(av_map_get(&k, "id", 2)->u.s.ptr, "only a partition key");
    av_done(&k);
    keyset_remove_entry(s, all[0]);
    assert_int_equal(keyset_table_count(s, 0), 4);
    free(all);
    keyset_clear(s);
    assert_int_equal(keyset_count(s), 0);
    av_done(&a);
    av_done(&b);
    av_done(&c);
    keyset_free(s);
}

/* n items of one partition with sort keys in a scrambled order (a
 * multiplicative permutation), as marking pages of results adds them. */
static void item_no(av *it, size_t i, size_t n)
{
    char sk[32];
    snprintf(sk, sizeof sk, "S#%08zu", (i * 2654435761u) % n);
    edge(it, "P#a", sk);
}

/* The comparisons per operation stay within a red-black tree's bound,
 * 2 log2(n + 1), whatever n is. */
static void each_operation_makes_logarithmic_comparisons(void **state)
{
    (void)state;
    static const size_t sizes[] = { 1000, 20000, 200000 };
    for (size_t z = 0; z < 3; z++) {
        size_t n = sizes[z];
        /* A prime n keeps the permutation a permutation. */
        while (n % 2 == 0 || n % 3 == 0 || n % 5 == 0 || n % 7 == 0)
            n++;
        double bound = 2 * log2((double)n + 1) + 2;
        keyset *s = keyset_new();
        uint64_t c0 = keyset_comparisons();
        for (size_t i = 0; i < n; i++) {
            av it;
            item_no(&it, i, n);
            assert_int_equal(keyset_add(s, "T", &def_ss, &it), 1);
            av_done(&it);
        }
        uint64_t adds = keyset_comparisons() - c0;
        c0 = keyset_comparisons();
        for (size_t i = 0; i < n; i++) {
            av it;
            item_no(&it, i, n);
            assert_true(keyset_has(s, "T", &def_ss, &it));
            av_done(&it);
        }
        uint64_t has = keyset_comparisons() - c0;
        c0 = keyset_comparisons();
        size_t listed;
        free(keyset_list(s, &listed));
        assert_int_equal(listed, n);
        assert_int_equal(keyset_comparisons() - c0, 0);
        c0 = keyset_comparisons();
        for (size_t i = 0; i < n; i += 2) {
            av it;
            item_no(&it, i, n);
            assert_true(keyset_remove(s, "T", &def_ss, &it));
            av_done(&it);
        }
        uint64_t removes = keyset_comparisons() - c0;
        printf("# %zu items: %.1f comparisons an add, %.1f a test, %.1f a remove (bound %.1f)\n", n,
               (double)adds / (double)n, (double)has / (double)n, (double)removes / (double)((n + 1) / 2),
               bound);
        assert_true((double)adds <= bound * (double)n);
        assert_true((double)has <= bound * (double)n);
        assert_true((double)removes <= 2 * bound * (double)((n + 1) / 2));
        assert_int_equal(keyset_count(s), n / 2);
        c0 = keyset_comparisons();
        keyset_clear(s);
        assert_true((double)(keyset_comparisons() - c0) <= 2 * bound * (double)(n / 2));
        keyset_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(holds_items_by_table_and_key),
        cmocka_unit_test(removes_by_key_alone),
        cmocka_unit_test(refuses_items_without_the_key),
        cmocka_unit_test(lists_in_key_order_and_rebuilds_keys),
        cmocka_unit_test(each_operation_makes_logarithmic_comparisons),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
