/*
 * What data looks like on a terminal: display widths of Korean/CJK
 * (two columns) and combining marks (zero), escaping of control bytes,
 * invalid UTF-8 and bidi overrides, and clipping to a column count
 * without splitting a wide character.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ui/text.h"

static int setup(void **state)
{
    return text_init() ? 0 : -1;
}

static void test_widths(void **state)
{
    assert_int_equal(text_width("abc", 3), 3);
    assert_int_equal(text_width("김민지", strlen("김민지")), 6);
    assert_int_equal(text_width("東京", strlen("東京")), 4);
    /* e + COMBINING ACUTE ACCENT: one column. */
    assert_int_equal(text_width("e\xcc\x81", 3), 1);
    assert_int_equal(text_width("", 0), 0);
}

static void test_escapes(void **state)
{
    buf b = BUF_INIT;
    const char raw[] = "a\x1b[31mb\x07" "c\n\xff\xc3(";
    text_fit(&b, raw, sizeof raw - 1, -1, false, false);
    assert_string_equal(b.data, "a\\x1b[31mb\\x07c\\n\\xff\\xc3(");
    assert_int_equal(text_width(raw, sizeof raw - 1), (int)b.len);
    /* No byte below 0x20 survives. */
    for (size_t i = 0; i < b.len; i++)
        assert_true((unsigned char)b.data[i] >= 0x20);
    buf_reset(&b);
    /* U+202E RIGHT-TO-LEFT OVERRIDE would reorder the screen. */
    text_fit(&b, "x\xe2\x80\xae" "y", 5, -1, false, false);
    assert_string_equal(b.data, "x\\u{202e}y");
    buf_reset(&b);
    /* C1 control U+009B (CSI) as UTF-8. */
    text_fit(&b, "\xc2\x9b", 2, -1, false, false);
    assert_string_equal(b.data, "\\x9b");
    /* Overlong encoding of '/' and a surrogate are invalid. */
    buf_reset(&b);
    text_fit(&b, "\xc0\xaf\xed\xa0\x80", 5, -1, false, false);
    assert_string_equal(b.data, "\\xc0\\xaf\\xed\\xa0\\x80");
    buf_done(&b);
}

static void test_fit(void **state)
{
    buf b = BUF_INIT;
    assert_int_equal(text_fit(&b, "abcdef", 6, 4, false, true), 4);
    assert_string_equal(b.data, "abc~");
    buf_reset(&b);
    assert_int_equal(text_fit(&b, "abcd", 4, 4, false, true), 4);
    assert_string_equal(b.data, "abcd");
    buf_reset(&b);
    /* A wide character never straddles the edge: 김 is 2 columns. */
    assert_int_equal(text_fit(&b, "a김민", strlen("a김민"), 4, true, true), 4);
    assert_string_equal(b.data, "a김~");
    buf_reset(&b);
    assert_int_equal(text_fit(&b, "김민", strlen("김민"), 3, true, false), 3);
    assert_string_equal(b.data, "김 ");
    buf_reset(&b);
    assert_int_equal(text_fit(&b, "ab", 2, 5, true, true), 5);
    assert_string_equal(b.data, "ab   ");
    buf_reset(&b);
    /* An escape is never cut in half. */
    assert_int_equal(text_fit(&b, "a\x1b", 2, 3, false, true), 2);
    assert_string_equal(b.data, "a~");
    buf_done(&b);
}

/* One row of wrapped text (text_fit_row): the three wrappers of the
 * status line, the builder's panel and its pending list share it. */
static void test_fit_row(void **state)
{
    (void)state;
    /* "hello world again" in 8 columns: after the space, not "hello wo". */
    assert_int_equal(text_fit_row("hello world again", 17, 8, 1), 6);
    /* The text goes on with a space: the full row, the caller skips it. */
    assert_int_equal(text_fit_row("hello world", 11, 5, 1), 5);
    /* The only space is before column keep: cut at the column. */
    assert_int_equal(text_fit_row("ab cdefghij", 11, 8, 4), 8);
    assert_int_equal(text_fit_row("abc defghij", 11, 8, 4), 4);
    /* keep past the row: never at a space (JSON in the builder's panel). */
    assert_int_equal(text_fit_row("{\"a\": 1, \"b\": 2}", 18, 8, 9), 8);
    /* It all fits. */
    assert_int_equal(text_fit_row("short", 5, 80, 1), 5);
    /* Wide characters count two columns and are never split: 가나다 is
     * 6 columns, 5 take two of them (6 bytes). */
    assert_int_equal(text_fit_row("\xea\xb0\x80\xeb\x82\x98\xeb\x8b\xa4", 9, 5, 1), 6);
    /* At least one code point, even when it is wider than the row. */
    assert_int_equal(text_fit_row("\xea\xb0\x80x", 4, 1, 1), 3);
    assert_int_equal(text_fit_row("", 0, 8, 1), 0);
}

static void test_decode_and_find(void **state)
{
    uint32_t cp;
    assert_int_equal(text_decode("\xea\xb9\x80", 3, &cp), 3);
    assert_int_equal(cp, 0xAE40);
    assert_int_equal(text_decode("\xea\xb9", 2, &cp), 1);
    assert_int_equal(cp, TEXT_BAD);
    assert_int_equal(text_find("ACTOR#Alice", 11, "alice", 5), 6);
    assert_int_equal(text_find("abc", 3, "x", 1), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),
        cmocka_unit_test(test_escapes),
        cmocka_unit_test(test_fit),
        cmocka_unit_test(test_fit_row),
        cmocka_unit_test(test_decode_and_find),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
