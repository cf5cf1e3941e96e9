/*
 * How DynamoDB sizes items and charges capacity (developer guide, "Item
 * sizes and formats" and "Read/write capacity"; dynalite's itemSize):
 *   - an item is the sum of its attribute names' UTF-8 bytes and values;
 *   - S: UTF-8 bytes; B: raw bytes (not base64); BOOL, NULL: 1 byte;
 *   - N: 1 byte + its significant digits in pairs + 1 if negative;
 *   - L, M: 3 bytes + 1 per element (+ member names for M);
 *   - sets: the sum of their elements;
 *   - 400 KB per item; 2048 bytes of partition key, 1024 of sort key;
 *   - reads: 1 unit per 4 KB (half if eventually consistent); writes:
 *     1 unit per 1 KB; always rounded up, never less than one.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/size.h"

static size_t item_size(const char *json)
{
    av item;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), &item, &d) != ST_OK)
        fail_msg("%s: %s", json, d.msg);
    size_t n = size_item(&item);
    av_done(&item);
    return n;
}

static size_t num_size(const char *text)
{
    num n;
    diag d;
    diag_init(&d);
    if (num_parse(text, strlen(text), &n, &d) != ST_OK)
        fail_msg("%s: %s", text, d.msg);
    return size_num(&n);
}

static void a_string_costs_its_name_and_its_utf8_bytes(void **state)
{
    (void)state;
    assert_int_equal(item_size("{\"id\":{\"S\":\"abc\"}}"), 2 + 3);
    /* Korean: three UTF-8 bytes per syllable, in names and values alike. */
    assert_int_equal(item_size("{\"이름\":{\"S\":\"김민수\"}}"), 6 + 9);
    assert_int_equal(item_size("{\"e\":{\"S\":\"\"}}"), 1);
}

static void a_binary_costs_its_raw_bytes_not_its_base64(void **state)
{
    (void)state;
    /* "AAEC/w==" is 8 characters of base64 for 4 bytes. */
    assert_int_equal(item_size("{\"b\":{\"B\":\"AAEC/w==\"}}"), 1 + 4);
}

static void booleans_and_nulls_cost_one_byte(void **state)
{
    (void)state;
    assert_int_equal(item_size("{\"ok\":{\"BOOL\":true},\"no\":{\"NULL\":true}}"), 2 + 1 + 2 + 1);
}

static void a_number_costs_a_byte_per_two_significant_digits_plus_one(void **state)
{
    (void)state;
    assert_int_equal(num_size("27"), 2);         /* the guide's example */
    assert_int_equal(num_size("-27"), 3);        /* negatives: one byte more */
    assert_int_equal(num_size("461"), 3);
    assert_int_equal(num_size("0"), 1);
    /* Leading and trailing zeros are trimmed. */
    assert_int_equal(num_size("000461.000"), 3);
    assert_int_equal(num_size("100"), 2);
    assert_int_equal(num_size("1E+125"), 2);
    assert_int_equal(num_size("1E-130"), 2);
    /* Pairs are aligned on the decimal point: 1.5 is "01.50", two pairs;
     * 12.5 is "12.50", also two; 12.34 is two; 1.234 is "01.2340", three. */
    assert_int_equal(num_size("1.5"), 3);
    assert_int_equal(num_size("12.5"), 3);
    assert_int_equal(num_size("12.34"), 3);
    assert_int_equal(num_size("1.234"), 4);
    assert_int_equal(num_size("120"), 3);        /* "01|20" */
    /* The widest numbers: 38 digits are 19 or 20 pairs. */
    assert_int_equal(num_size("12345678901234567890123456789012345678"), 20);
    assert_int_equal(num_size("1.2345678901234567890123456789012345678"), 21);
    assert_int_equal(num_size("-1.2345678901234567890123456789012345678"), 22);
    assert_int_equal(item_size("{\"n\":{\"N\":\"1786461547\"}}"), 1 + 6);   /* an epoch timestamp */
}

static void sets_cost_the_sum_of_their_members(void **state)
{
    (void)state;
    assert_int_equal(item_size("{\"ss\":{\"SS\":[\"a\",\"bc\"]}}"), 2 + 3);
    assert_int_equal(item_size("{\"ns\":{\"NS\":[\"1\",\"-27\"]}}"), 2 + 2 + 3);
    assert_int_equal(item_size("{\"bs\":{\"BS\":[\"AA==\",\"AAE=\"]}}"), 2 + 1 + 2);
}

static void lists_and_maps_cost_three_bytes_plus_one_per_element(void **state)
{
    (void)state;
    assert_int_equal(item_size("{\"l\":{\"L\":[]}}"), 1 + 3);
    assert_int_equal(item_size("{\"m\":{\"M\":{}}}"), 1 + 3);
    /* l: 3 + (1 + 2 for "ab") + (1 + 2 for 27) */
    assert_int_equal(item_size("{\"l\":{\"L\":[{\"S\":\"ab\"},{\"N\":\"27\"}]}}"), 1 + 3 + 3 + 3);
    /* m: 3 + (1 + name "a" + 1 for the BOOL) */
    assert_int_equal(item_size("{\"m\":{\"M\":{\"a\":{\"BOOL\":true}}}}"), 1 + 3 + 3);
    /* nesting adds up: m.inner.l */
    assert_int_equal(item_size("{\"m\":{\"M\":{\"inner\":{\"L\":[{\"NULL\":true}]}}}}"),
                     1 + 3 + (1 + 5 + (3 + (1 + 1))));
}

static void an_item_may_be_400_kb_and_no_more(void **state)
{
    (void)state;
    size_t n = SIZE_ITEM_MAX - 2;        /* "pk" takes two bytes */
    char *big = malloc(n + 1);
    memset(big, 'x', n);
    av item, v;
    av_init_list(&item, AV_M);
    av_init_s(&v, big, n);
    av_map_put(&item, "pk", 2, &v);
    diag d;
    diag_init(&d);
    assert_int_equal(size_item(&item), 409600);
    assert_int_equal(size_check_item(&item, &d), ST_OK);
    av_init_bool(&v, true);
    av_map_put(&item, "x", 1, &v);     /* two bytes more */
    assert_int_equal(size_check_item(&item, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "Item size has exceeded the maximum allowed size");
    assert_int_equal(size_check_update(&item, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "Item size to update has exceeded the maximum allowed size");
    av_done(&item);
    free(big);
}

/* A value is one level, each L or M around it one more: 32 levels are
 * the most an item attribute or an ExpressionAttributeValues entry holds
 * (DynamoDB takes 31 lists around a scalar and refuses 32). */
static av nested(int wraps)
{
    av v;
    av_init_s(&v, "x", 1);
    for (int i = 0; i < wraps; i++) {
        av l;
        av_init_list(&l, AV_L);
        av_list_push(&l, &v);
        v = l;
    }
    return v;
}

static void values_nest_32_levels_and_no_more(void **state)
{
    (void)state;
    av v = nested(0);
    assert_false(size_too_deep(&v));
    av_done(&v);
    v = nested(31);
    assert_false(size_too_deep(&v));
    av_done(&v);
    v = nested(32);
    assert_true(size_too_deep(&v));
    av_done(&v);
    v = nested(1000);
    assert_true(size_too_deep(&v));
    av_done(&v);
}

static void key_values_are_limited_by_their_bytes(void **state)
{
    (void)state;
    char key[2100];
    memset(key, 'k', sizeof key);
    av v;
    diag d;
    diag_init(&d);
    av_init_s(&v, key, 2048);
    assert_int_equal(size_check_key(&v, true, &d), ST_OK);
    assert_int_equal(size_check_key(&v, false, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "One or more parameter values were invalid: "
                        "Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
    av_done(&v);
    av_init_b(&v, key, 2049);
    assert_int_equal(size_check_key(&v, true, &d), ST_VALIDATION);
    /* DynamoDB's text, missing space and all. */
    assert_string_equal(d.msg, "One or more parameter values were invalid: "
                        "Size of hashkey has exceeded the maximum size limit of2048 bytes");
    av_done(&v);
    /* 342 Korean syllables are 1026 bytes: too long for a sort key. */
    char ko[342 * 3];
    for (int i = 0; i < 342; i++)
        memcpy(ko + 3 * i, "가", 3);
    av_init_s(&v, ko, sizeof ko);
    assert_int_equal(size_check_key(&v, false, &d), ST_VALIDATION);
    av_done(&v);
    av_init_s(&v, ko, 1023);
    assert_int_equal(size_check_key(&v, false, &d), ST_OK);
    av_done(&v);
    /* Numbers always fit. */
    num n;
    num_parse("-9.9999999999999999999999999999999999999E+125", 45, &n, &d);
    av_init_n(&v, &n);
    assert_int_equal(size_check_key(&v, false, &d), ST_OK);
}

static const char *units(uint64_t halves)
{
    static char out[24];
    size_format_units(halves, out);
    return out;
}

static void reads_cost_a_unit_per_4_kb_half_if_eventually_consistent(void **state)
{
    (void)state;
    /* The guide: a 3.5 KB item rounds to 4 KB, a 10 KB one to 12 KB. */
    assert_string_equal(units(size_read_halves(3584, true)), "1");
    assert_string_equal(units(size_read_halves(3584, false)), "0.5");
    assert_string_equal(units(size_read_halves(10240, true)), "3");
    assert_string_equal(units(size_read_halves(10240, false)), "1.5");
    assert_string_equal(units(size_read_halves(4096, true)), "1");
    assert_string_equal(units(size_read_halves(4097, true)), "2");
    /* Reading nothing (an absent item) still costs the minimum. */
    assert_string_equal(units(size_read_halves(0, true)), "1");
    assert_string_equal(units(size_read_halves(0, false)), "0.5");
    /* A 1 MB Query page, eventually consistent: 256 units / 2. */
    assert_string_equal(units(size_read_halves(1048576, false)), "128");
    /* A Scan to the end: the minimum read of four partitions (DynamoDB's
     * answer for a tiny on-demand table, issue 16). */
    assert_string_equal(units(size_scan_min_halves(true)), "4");
    assert_string_equal(units(size_scan_min_halves(false)), "2");
}

static void a_whole_read_is_predicted_page_by_page(void **state)
{
    (void)state;
    uint64_t pages;
    /* 4,820 items, 438.9 KB (SocialGraph), 100 a page, eventually
     * consistent: 49 pages of about 9 KB, each rounded up to 12 KB (3
     * units, halved): 49 x 1.5. */
    assert_string_equal(units(size_predict_read_halves(4820, 449434, 100, false, 0, &pages)), "73.5");
    assert_int_equal(pages, 49);
    /* The same read unlimited: one 1 MB page at most, so one page of
     * 438.9 KB = 110 units, halved. */
    assert_string_equal(units(size_predict_read_halves(4820, 449434, 0, false, 0, &pages)), "55");
    assert_int_equal(pages, 1);
    /* Strongly consistent: twice that. */
    assert_string_equal(units(size_predict_read_halves(4820, 449434, 0, true, 0, &pages)), "110");
    /* 3 MB in 10 items, no limit: split into 1 MB pages (3), 128 each. */
    assert_string_equal(units(size_predict_read_halves(10, 3 * 1048576, 0, false, 0, &pages)), "384");
    assert_int_equal(pages, 3);
    /* Nothing to read (an empty partition): one request, the minimum. */
    assert_string_equal(units(size_predict_read_halves(0, 0, 100, false, 0, &pages)), "0.5");
    assert_int_equal(pages, 1);
    /* A Scan read to its end pays at least 4 partitions' minimum read on
     * its last page (4 half units: 2 RCU eventually consistent, as the
     * store charges it in data/store_query.c): 49 pages of 1.5, the last
     * raised to 2. */
    assert_string_equal(units(size_predict_read_halves(4820, 449434, 100, false, 4, &pages)), "74");
    /* A tiny table: one page of 0.5 raised to 2. */
    assert_string_equal(units(size_predict_read_halves(14, 2250, 100, false, 4, &pages)), "2");
}

static void writes_cost_a_unit_per_kb(void **state)
{
    (void)state;
    /* The guide: a 500-byte item rounds to 1 KB, a 3.5 KB one to 4 KB. */
    assert_string_equal(units(size_write_halves(500)), "1");
    assert_string_equal(units(size_write_halves(3584)), "4");
    assert_string_equal(units(size_write_halves(1024)), "1");
    assert_string_equal(units(size_write_halves(1025)), "2");
    assert_string_equal(units(size_write_halves(0)), "1");
    /* A transactional write is charged twice. */
    assert_string_equal(units(2 * size_write_halves(3584)), "8");
    assert_string_equal(units(size_write_halves(SIZE_ITEM_MAX)), "400");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_string_costs_its_name_and_its_utf8_bytes),
        cmocka_unit_test(a_binary_costs_its_raw_bytes_not_its_base64),
        cmocka_unit_test(booleans_and_nulls_cost_one_byte),
        cmocka_unit_test(a_number_costs_a_byte_per_two_significant_digits_plus_one),
        cmocka_unit_test(sets_cost_the_sum_of_their_members),
        cmocka_unit_test(lists_and_maps_cost_three_bytes_plus_one_per_element),
        cmocka_unit_test(an_item_may_be_400_kb_and_no_more),
        cmocka_unit_test(values_nest_32_levels_and_no_more),
        cmocka_unit_test(key_values_are_limited_by_their_bytes),
        cmocka_unit_test(reads_cost_a_unit_per_4_kb_half_if_eventually_consistent),
        cmocka_unit_test(a_whole_read_is_predicted_page_by_page),
        cmocka_unit_test(writes_cost_a_unit_per_kb),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
