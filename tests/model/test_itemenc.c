/* itemenc: the store's binary item encoding round-trips every type, and
 * its JSON output equals the JSON codec's. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/itemenc.h"

static const char *const samples[] = {
    "{}",
    "{\"a\":{\"S\":\"x\"}}",
    "{\"pk\":{\"S\":\"ACTOR#alice\"},\"n\":{\"N\":\"-12.500\"},\"z\":{\"N\":\"0\"},"
    "\"big\":{\"N\":\"99999999999999999999999999999999999999\"},\"tiny\":{\"N\":\"1E-130\"}}",
    "{\"b\":{\"B\":\"AAEC/w==\"},\"e\":{\"B\":\"\"},\"t\":{\"BOOL\":true},\"f\":{\"BOOL\":false},"
    "\"nul\":{\"NULL\":true}}",
    "{\"l\":{\"L\":[{\"S\":\"a\"},{\"L\":[]},{\"M\":{}},{\"N\":\"3\"}]},"
    "\"m\":{\"M\":{\"z\":{\"SS\":[\"b\",\"a\"]},\"a\":{\"NS\":[\"10\",\"9\",\"-1\"]},"
    "\"q\":{\"BS\":[\"AQ==\",\"AA==\"]}}}}",
    "{\"ko\":{\"S\":\"한국어 이름 \\u0001 \\\" \\\\ \\n\"},\"s\":{\"S\":\"\"}}",
};

static void roundtrip_every_type(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        diag d;
        diag_init(&d);
        av item, back;
        assert_int_equal(ddbjson_parse_item(samples[i], strlen(samples[i]), &item, &d), ST_OK);
        buf enc = BUF_INIT, j1 = BUF_INIT, j2 = BUF_INIT;
        itemenc_encode(&enc, &item);
        assert_int_equal(itemenc_decode(enc.data ? enc.data : "", enc.len, &back, &d), ST_OK);
        assert_true(av_equal(&item, &back));
        ddbjson_write_item(&j1, &item);
        assert_int_equal(itemenc_write_json(&j2, enc.data ? enc.data : "", enc.len, &d), ST_OK);
        assert_string_equal(j1.data, j2.data);
        av_done(&item);
        av_done(&back);
        buf_done(&enc);
        buf_done(&j1);
        buf_done(&j2);
    }
}

static void partial_decode_and_find(void **state)
{
    (void)state;
    const char *text = samples[4];
    diag d;
    diag_init(&d);
    av item, some;
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
    buf enc = BUF_INIT;
    itemenc_encode(&enc, &item);
    const char *names[] = { "m", "nope" };
    size_t lens[] = { 1, 4 };
    assert_int_equal(itemenc_decode_some(enc.data, enc.len, names, lens, 2, &some, &d), ST_OK);
    assert_int_equal(some.u.m.len, 1);
    assert_true(av_equal(av_map_get(&some, "m", 1), av_map_get(&item, "m", 1)));
    const unsigned char *vp;
    size_t vlen;
    assert_true(itemenc_find(enc.data, enc.len, "l", 1, &vp, &vlen));
    av l;
    assert_int_equal(itemenc_decode_value(vp, vlen, &l, &d), ST_OK);
    assert_true(av_equal(&l, av_map_get(&item, "l", 1)));
    assert_false(itemenc_find(enc.data, enc.len, "x", 1, &vp, &vlen));
    av_done(&l);
    av_done(&some);
    av_done(&item);
    buf_done(&enc);
}

static void refilling_one_item_row_after_row(void **state)
{
    (void)state;
    const char *rows[] = {
        "{\"a\":{\"S\":\"x\"},\"b\":{\"N\":\"1\"},\"c\":{\"S\":\"skip\"}}",
        "{\"b\":{\"N\":\"2\"}}",
        "{\"c\":{\"S\":\"only c\"}}",
        "{\"a\":{\"L\":[{\"S\":\"deep\"}]},\"b\":{\"NULL\":true}}",
    };
    const char *names[] = { "a", "b" };
    size_t lens[] = { 1, 1 };
    av part = { .type = AV_NONE };
    diag d;
    diag_init(&d);
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        av item, want;
        assert_int_equal(ddbjson_parse_item(rows[i], strlen(rows[i]), &item, &d), ST_OK);
        buf enc = BUF_INIT;
        itemenc_encode(&enc, &item);
        assert_int_equal(itemenc_decode_some_into(enc.data, enc.len, names, lens, 2, &part, &d), ST_OK);
        assert_int_equal(itemenc_decode_some(enc.data, enc.len, names, lens, 2, &want, &d), ST_OK);
        assert_true(av_equal(&part, &want));
        av_done(&want);
        av_done(&item);
        buf_done(&enc);
    }
    av_done(&part);
}

static void corrupt_bytes_are_refused(void **state)
{
    (void)state;
    const char *text = samples[4];
    diag d;
    diag_init(&d);
    av item, back;
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
    buf enc = BUF_INIT;
    itemenc_encode(&enc, &item);
    /* Every truncation fails cleanly (no crash, no leak under ASan). */
    for (size_t n = 0; n + 1 < enc.len; n++) {
        buf j = BUF_INIT;
        assert_int_not_equal(itemenc_decode(enc.data, n, &back, &d), ST_OK);
        assert_int_not_equal(itemenc_write_json(&j, enc.data, n, &d), ST_OK);
        buf_done(&j);
    }
    av_done(&item);
    buf_done(&enc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(roundtrip_every_type),
        cmocka_unit_test(partial_decode_and_find),
        cmocka_unit_test(refilling_one_item_row_after_row),
        cmocka_unit_test(corrupt_bytes_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
