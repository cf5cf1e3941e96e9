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

/* A title of ranked parts (text_title_fit): parts go whole, highest
 * rank first, and what is left is never cut inside a number (issue 27,
 * 10: "partition 1 of 240~"). */
static void fit_title(const char *t, int width, const char *want)
{
    buf b = BUF_INIT;
    int w = text_title_fit(&b, t, strlen(t), width);
    assert_string_equal(b.data ? b.data : "", want);
    assert_int_equal(w, text_width(want, strlen(want)));
    buf_done(&b);
}

static void test_title_fit(void **state)
{
    (void)state;
    const char *t = "SocialGraph\x1f" "1  base table\x1f" "4 (PK, SK)\x1f" "1  item 1 of 4820"
                    "\x1f" "3 \xc2\xb7 partition 1 of 2407\x1f" "5, 438.9 KB\x1f" "2  [i: index]";
    /* Everything fits: the plain text, marks gone. */
    fit_title(t, -1, "SocialGraph  base table (PK, SK)  item 1 of 4820 \xc2\xb7 partition 1 of 2407, "
                     "438.9 KB  [i: index]");
    fit_title(t, 100, "SocialGraph  base table (PK, SK)  item 1 of 4820 \xc2\xb7 partition 1 of 2407, "
                      "438.9 KB  [i: index]");
    /* 75 columns: the size (rank 5) goes, then the key schema (4). */
    fit_title(t, 75, "SocialGraph  base table  item 1 of 4820 \xc2\xb7 partition 1 of 2407  [i: index]");
    /* 72: the partition too (3); [i: index] (2) stays. */
    fit_title(t, 72, "SocialGraph  base table  item 1 of 4820  [i: index]");
    /* Equal ranks: the last goes first. */
    fit_title(t, 40, "SocialGraph  base table  item 1 of 4820");
    fit_title(t, 30, "SocialGraph  base table");
    /* Rank 0 alone and still too wide: cut at a space, never in a word. */
    fit_title("Table one two", 13, "Table one two");
    fit_title("Table one two", 12, "Table one~");
    fit_title("Table one two", 10, "Table one~");
    fit_title("Table one two", 9, "Table~");
    /* A title without marks is one part: cut at a space, the number whole. */
    fit_title("Query: Count 4, ScannedCount 4820", 31, "Query: Count 4, ScannedCount~");
    /* One word wider than the row: left for the caller to cut. */
    fit_title("Supercalifragilistic", 8, "Supercalifragilistic");
}

/* Wrapped rows (text_wrap_row): what the help, the hints and the bars'
 * wrapped lines show, a row's leading space skipped. */
static void test_wrap_row(void **state)
{
    (void)state;
    const char *t = "Will run: Query on the base table   [Enter: run]";
    size_t from, n, len = strlen(t);
    assert_int_equal(text_wrap_rows(t, len, 80), 1);
    assert_int_equal(text_wrap_rows(t, len, 20), 3);
    assert_true(text_wrap_row(t, len, 20, 0, &from, &n));
    assert_int_equal(from, 0);
    assert_int_equal(n, 19);   /* "Will run: Query on " */
    assert_true(text_wrap_row(t, len, 20, 1, &from, &n));
    assert_int_equal(from, 19);
    assert_int_equal(n, 17);   /* "the base table   ", up to "[" */
    assert_true(text_wrap_row(t, len, 20, 2, &from, &n));
    assert_string_equal(t + from, "[Enter: run]");
    assert_false(text_wrap_row(t, len, 20, 3, &from, &n));
    /* A tail kept whole: after the last row, or on its own. */
    const char *plan = "Will run: Query on the base table";
    size_t pl = strlen(plan);
    buf b = BUF_INIT;
    assert_int_equal(text_wrap_rows_tail(plan, pl, "[Enter: run]", 80), 1);
    assert_true(text_wrap_row_tail(plan, pl, "[Enter: run]", 80, 0, &b));
    assert_string_equal(b.data, "Will run: Query on the base table   [Enter: run]");
    buf_reset(&b);
    assert_int_equal(text_wrap_rows_tail(plan, pl, "[Enter: run]", 40), 2);
    assert_true(text_wrap_row_tail(plan, pl, "[Enter: run]", 40, 0, &b));
    assert_string_equal(b.data, "Will run: Query on the base table");
    buf_reset(&b);
    assert_true(text_wrap_row_tail(plan, pl, "[Enter: run]", 40, 1, &b));
    assert_string_equal(b.data, "[Enter: run]");
    assert_false(text_wrap_row_tail(plan, pl, "[Enter: run]", 40, 2, &b));
    buf_reset(&b);
    /* 30 columns: two rows of the plan, the tail after the second. */
    assert_int_equal(text_wrap_rows_tail(plan, pl, "[Enter]", 30), 2);
    assert_true(text_wrap_row_tail(plan, pl, "[Enter]", 30, 1, &b));
    assert_string_equal(b.data, "table   [Enter]");
    buf_done(&b);
    assert_int_equal(text_wrap_rows("", 0, 20), 0);
    assert_int_equal(text_wrap_rows("   ", 3, 20), 0);
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
        cmocka_unit_test(test_title_fit),
        cmocka_unit_test(test_wrap_row),
        cmocka_unit_test(test_decode_and_find),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
