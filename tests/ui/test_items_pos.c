/*
 * The table view's "item x of y" (ui/items_pos) without a store count a
 * key (issue 27, scale: the count of the items before the selection read
 * them all, 25 ms a key in a partition of 100,000 items, so walking down
 * one was quadratic). Counted, not timed: walking 5,000 items one at a
 * time, and a page at a time back, asks the store once, and so does
 * stepping through 101 partitions forward and back (] and [); the
 * numbers are the store's own (store_position); a jump beyond the lines
 * near the selection, another partition or a reset asks again.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "data/store.h"
#include "data/store_search.h"
#include "ui/items_pos.h"
#include "ui/text.h"

#define N 5000
#define PARTS 101   /* P#a and 100 small ones */
#define TOTAL (N + 199)   /* P#b00..P#b99 hold 1, 2, 3, 1, 2, ... items: 199 */

static store *s;
static av items[N];   /* partition P#a's items, in key order */

static void call(const char *op, const char *json)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, op, json, strlen(json), &out, &d);
    if (st != ST_OK)
        fprintf(stderr, "# %s: %s\n", op, d.msg);
    assert_int_equal(st, ST_OK);
    free(out);
}

static int setup(void **state)
{
    (void)state;
    diag d;
    diag_init(&d);
    if (store_open(":memory:", 0, &s, &d) != ST_OK)
        return -1;
    call("CreateTable", "{\"TableName\":\"Tbl\",\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
                        "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"PK\","
                        "\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
                        "\"BillingMode\":\"PAY_PER_REQUEST\"}");
    char req[4096];
    for (int b = 0; b < N / 25; b++) {
        size_t at = (size_t)snprintf(req, sizeof req, "{\"RequestItems\":{\"Tbl\":[");
        for (int i = 0; i < 25; i++)
            at += (size_t)snprintf(req + at, sizeof req - at, "%s{\"PutRequest\":{\"Item\":{\"PK\":{\"S\":\"P#a\"},"
                                   "\"SK\":{\"S\":\"S#%05d\"}}}}", i ? "," : "", b * 25 + i);
        snprintf(req + at, sizeof req - at, "]}}");
        call("BatchWriteItem", req);
    }
    /* Then P#b0 .. P#b99, partitions of 1 to 3 items. */
    for (int b = 0; b < PARTS - 1; b++)
        for (int i = 0; i <= b % 3; i++) {
            snprintf(req, sizeof req, "{\"TableName\":\"Tbl\",\"Item\":{\"PK\":{\"S\":\"P#b%02d\"},"
                     "\"SK\":{\"S\":\"S#%d\"}}}", b, i);
            call("PutItem", req);
        }
    av after = { .type = AV_NONE }, pk;
    av_init_s(&pk, "P#a", 3);
    size_t got = 0, n;
    do {
        n = 0;
        if (store_page(s, "Tbl", NULL, &pk, after.type ? &after : NULL, true, 1000, items + got, &n, &d) != ST_OK)
            return -1;
        got += n;
        av_done(&after);
        if (n)
            av_copy(&after, &items[got - 1]);
    } while (n == 1000 && got < N);
    av_done(&after);
    av_done(&pk);
    return got == N ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < N; i++)
        av_done(&items[i]);
    store_close(s);
    return 0;
}

/* The view's lines: the whole partition is loaded, the selection at sel. */
static long sel;

static const av *near(void *ctx, long k)
{
    (void)ctx;
    long i = sel + k;
    return i >= 0 && i < N ? &items[i] : NULL;
}

static void title_is(items_pos *c, long i, unsigned long long want)
{
    table_stats vst = { .items = TOTAL, .partitions = PARTS };
    buf out = BUF_INIT;
    av pk;
    av_init_s(&pk, "P#a", 3);
    sel = i;
    items_pos_text(c, s, "Tbl", NULL, &pk, &items[i], near, NULL, &vst, &out);
    char want_text[96];
    snprintf(want_text, sizeof want_text, "  item %llu of %d · partition 1 of %d", want, TOTAL, PARTS);
    buf plain = BUF_INIT;
    text_title_fit(&plain, out.data, out.len, -1);   /* every part, no marks */
    assert_string_equal(plain.data, want_text);
    buf_done(&plain);
    buf_done(&out);
    av_done(&pk);
}

static void walking_a_partition_asks_the_store_once(void **state)
{
    (void)state;
    items_pos c = { 0 };
    for (long i = 0; i < N; i++)
        title_is(&c, i, (unsigned long long)i + 1);
    assert_int_equal(c.asked, 1);
    /* Back a page (37 rows) at a time. */
    for (long i = N - 1; i >= 0; i -= 37)
        title_is(&c, i, (unsigned long long)i + 1);
    assert_int_equal(c.asked, 1);
    /* The store's numbers agree at a few places. */
    static const long at[] = { 0, 1, 1234, N - 1 };
    for (size_t k = 0; k < 4; k++) {
        store_pos pos;
        diag d;
        diag_init(&d);
        av pk;
        av_init_s(&pk, "P#a", 3);
        assert_int_equal(store_position(s, "Tbl", NULL, &pk, true, &items[at[k]], &pos, &d), ST_OK);
        assert_int_equal(pos.before_part + pos.in_part, at[k]);
        av_done(&pk);
    }
    items_pos_done(&c);
}

static void far_jumps_and_resets_ask_again(void **state)
{
    (void)state;
    items_pos c = { 0 };
    title_is(&c, 10, 11);
    title_is(&c, 10 + ITEMS_POS_REACH, 11 + ITEMS_POS_REACH);
    assert_int_equal(c.asked, 1);
    title_is(&c, 20 + 2 * ITEMS_POS_REACH, 21 + 2 * ITEMS_POS_REACH);   /* beyond reach */
    assert_int_equal(c.asked, 2);
    title_is(&c, N - 1, N);
    assert_int_equal(c.asked, 3);
    items_pos_reset(&c);
    title_is(&c, N - 2, N - 1);
    assert_int_equal(c.asked, 4);
    /* Lines that are not loaded (near gives none): asked. */
    table_stats vst = { .items = TOTAL, .partitions = PARTS };
    buf out = BUF_INIT;
    av pk;
    av_init_s(&pk, "P#a", 3);
    items_pos_text(&c, s, "Tbl", NULL, &pk, &items[N - 3], NULL, NULL, &vst, &out);
    assert_int_equal(c.asked, 5);
    buf_done(&out);
    av_done(&pk);
    items_pos_done(&c);
}

/* A partition header selected: "partition K of M · N items". */
static void header_is(items_pos *c, const av *pk, unsigned long long k)
{
    table_stats vst = { .items = TOTAL, .partitions = PARTS };
    buf out = BUF_INIT;
    items_pos_text(c, s, "Tbl", NULL, pk, NULL, NULL, NULL, &vst, &out);
    char want[96];
    snprintf(want, sizeof want, "  partition %llu of %d · %d items", k, PARTS, TOTAL);
    buf plain = BUF_INIT;
    text_title_fit(&plain, out.data, out.len, -1);   /* every part, no marks */
    assert_string_equal(plain.data, want);
    buf_done(&plain);
    buf_done(&out);
}

static void part_key(av *out, int b)
{
    char pk[16];
    if (b < 0)
        snprintf(pk, sizeof pk, "P#a");
    else
        snprintf(pk, sizeof pk, "P#b%02d", b);
    av_init_s(out, pk, strlen(pk));
}

/* ] and [ through every partition: counted from the one left. */
static void stepping_partitions_asks_the_store_once(void **state)
{
    (void)state;
    items_pos c = { 0 };
    av from, to;
    part_key(&from, -1);
    header_is(&c, &from, 1);
    uint64_t left = N;
    for (int b = 0; b < PARTS - 1; b++) {
        part_key(&to, b);
        items_pos_step_part(&c, &from, &to, 1, left);
        header_is(&c, &to, (unsigned long long)b + 2);
        /* The item number in it: the store's count from the partition's
         * start, here 0 items before its first. */
        av_done(&from);
        from = to;
        left = (uint64_t)(b % 3 + 1);
    }
    assert_int_equal(c.asked, 1);
    /* Back: the items of the partition reached. */
    for (int b = PARTS - 3; b >= -1; b--) {
        part_key(&to, b);
        items_pos_step_part(&c, &from, &to, -1, b < 0 ? N : (uint64_t)(b % 3 + 1));
        header_is(&c, &to, (unsigned long long)b + 2);
        av_done(&from);
        from = to;
    }
    assert_int_equal(c.asked, 1);
    /* An item of the last partition: the items before it are every other
     * partition's, as the store counts them. */
    part_key(&to, PARTS - 2);
    items_pos_reset(&c);
    header_is(&c, &to, PARTS);
    store_pos pos;
    diag d;
    diag_init(&d);
    assert_int_equal(store_position(s, "Tbl", NULL, &to, true, NULL, &pos, &d), ST_OK);
    assert_int_equal(pos.before_part, TOTAL - (PARTS - 2) % 3 - 1);
    /* Numbers of another partition than the one left are forgotten. */
    items_pos_step_part(&c, &from, &to, 1, 5);
    assert_false(c.valid);
    av_done(&from);
    av_done(&to);
    items_pos_done(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(walking_a_partition_asks_the_store_once),
        cmocka_unit_test(far_jumps_and_resets_ask_again),
        cmocka_unit_test(stepping_partitions_asks_the_store_once),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
