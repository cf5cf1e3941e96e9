/*
 * The line editor under every prompt (issue 27, item 4: typing or
 * pasting into a prompt was cubic, the whole text re-measured from every
 * start offset on every key; 5,000 pasted characters froze the explorer).
 *
 * What it does: the editing keys over multi-byte and invalid text, and
 * the line shown, which must be what the old layout showed (the longest
 * tail before the cursor that fits, the cursor at its end, then what
 * follows up to the edge) for random texts of ASCII, wide Korean and CJK
 * characters, combining marks, control characters and invalid bytes (the
 * old algorithm is kept here as the reference). What it costs, counted
 * and never timed: the code points measured for a line and the bytes the
 * gap buffer moves, per key, are bounded by the line's width whether the
 * text holds 1,000 characters or 100,000, pasting at the end or in the
 * middle, moving the cursor over all of it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ui/keymap.h"
#include "ui/lineedit.h"
#include "ui/text.h"

static int setup(void **state)
{
    (void)state;
    return text_init() ? 0 : -1;
}

static void text_is(const lineedit *e, const char *want)
{
    buf b = BUF_INIT;
    lineedit_text(e, &b);
    assert_int_equal(b.len, strlen(want));
    assert_memory_equal(b.data ? b.data : "", want, b.len);
    buf_done(&b);
}

static void insert_str(lineedit *e, const char *s)
{
    for (size_t i = 0; s[i];) {
        uint32_t cp;
        i += text_decode(s + i, strlen(s + i), &cp);
        lineedit_insert(e, cp);
    }
}

static void edits_by_code_point(void **state)
{
    (void)state;
    lineedit e;
    lineedit_init(&e, "TARGET#", 7);
    insert_str(&e, "김민지");
    text_is(&e, "TARGET#김민지");
    lineedit_key(&e, K_LEFT);
    lineedit_key(&e, K_BACKSPACE);          /* 민 */
    text_is(&e, "TARGET#김지");
    insert_str(&e, "é");
    text_is(&e, "TARGET#김é지");
    lineedit_key(&e, K_DELETE);             /* 지 */
    text_is(&e, "TARGET#김é");
    lineedit_key(&e, K_HOME);
    lineedit_key(&e, K_RIGHT);
    insert_str(&e, "x");
    text_is(&e, "TxARGET#김é");
    lineedit_key(&e, K_END);
    lineedit_key(&e, 23 /* ^W: the word before the cursor */);
    text_is(&e, "TxARGET#");
    lineedit_key(&e, K_LEFT);
    lineedit_key(&e, 11 /* ^K */);
    text_is(&e, "TxARGET");
    lineedit_key(&e, K_LEFT);
    lineedit_key(&e, 21 /* ^U */);
    text_is(&e, "T");
    assert_int_equal(e.gap, 0);
    assert_false(lineedit_key(&e, 'q'));    /* not an editing key */
    lineedit_set(&e, "", 0);
    lineedit_key(&e, K_BACKSPACE);
    lineedit_key(&e, K_DELETE);
    lineedit_key(&e, K_LEFT);
    text_is(&e, "");
    /* An invalid byte is one code point of its own, as the screen shows
     * it (\xff). */
    lineedit_set(&e, "a\xff\xc3" "b", 4);
    lineedit_key(&e, K_LEFT);
    lineedit_key(&e, K_BACKSPACE);
    text_is(&e, "a\xff" "b");
    lineedit_key(&e, K_BACKSPACE);
    text_is(&e, "ab");
    lineedit_done(&e);
}

/* ---- the old layout, the reference ---------------------------------- */

static size_t next_cp(const char *s, size_t len, size_t at)
{
    uint32_t cp;
    return at < len ? at + text_decode(s + at, len - at, &cp) : at;
}

/* ui/display.c before: the smallest `from` whose tail up to the cursor
 * fits, found by measuring from every start offset; then the line as
 * term_put clips the text from there to avail + 1 columns. */
static void old_line(const char *s, size_t len, size_t at, int avail, buf *shown, int *col)
{
    size_t from = 0;
    while (from < at && text_width(s + from, at - from) > avail)
        from = next_cp(s, len, from);
    *col = text_width(s + from, at - from);
    text_fit(shown, s + from, len - from, avail + 1, false, false);
}

static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static unsigned below(unsigned n)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (unsigned)((rng * 0x2545F4914F6CDD1DULL) >> 33) % n;
}

static const char *const pieces[] = {
    "a", "Z", " ", "#", "김", "東", "é", "e\xcc\x81", "\x1b", "\x07", "\n", "\x7f", "\xff", "\xc3",
    "\xe2\x80\xae" /* RIGHT-TO-LEFT OVERRIDE: escaped */, "\xf0\x9f\x98\x80" /* an emoji, wide */,
};

static void lays_out_as_before(void **state)
{
    (void)state;
    for (int round = 0; round < 3000; round++) {
        buf t = BUF_INIT;
        unsigned n = below(120);
        for (unsigned i = 0; i < n; i++)
            buf_adds(&t, pieces[below(sizeof pieces / sizeof pieces[0])]);
        lineedit e;
        lineedit_init(&e, t.data, t.len);
        for (unsigned k = below(n + 2); k > 0; k--)
            lineedit_key(&e, K_LEFT);
        /* The cursor is where decoding from the start puts a boundary. */
        size_t at = 0;
        while (at < e.gap)
            at = next_cp(t.data, t.len, at);
        assert_int_equal(at, e.gap);
        int avail = (int)below(41);
        buf want = BUF_INIT, raw = BUF_INIT, got = BUF_INIT;
        int want_col, col;
        old_line(t.data ? t.data : "", t.len, at, avail, &want, &want_col);
        lineedit_line(&e, avail, &raw, &col);
        text_fit(&got, raw.data ? raw.data : "", raw.len, avail + 1, false, false);
        assert_int_equal(col, want_col);
        assert_string_equal(got.data ? got.data : "", want.data ? want.data : "");
        buf_done(&want);
        buf_done(&raw);
        buf_done(&got);
        buf_done(&t);
        lineedit_done(&e);
    }
}

/* ---- what a key costs ------------------------------------------------- */

static const char *const paste[] = { "a", "b", " ", "김", "東", "é", "\x1b", "#" };

/* n code points pasted at the cursor, the line laid out after each one
 * (a terminal slow enough to draw between keys): what was measured and
 * moved per key. */
static void paste_n(lineedit *e, size_t n, int avail, double *measured, double *moved)
{
    uint64_t m0 = e->measured, v0 = e->moved;
    buf shown = BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        insert_str(e, paste[i % (sizeof paste / sizeof paste[0])]);
        int col;
        lineedit_line(e, avail, &shown, &col);
        assert_true(col <= avail);
    }
    buf_done(&shown);
    *measured = (double)(e->measured - m0) / (double)n;
    *moved = (double)(e->moved - v0) / (double)n;
}

static void a_key_costs_the_same_at_any_length(void **state)
{
    (void)state;
    const int avail = 70;
    static const size_t sizes[] = { 1000, 100000 };
    for (int z = 0; z < 2; z++) {
        size_t n = sizes[z];
        lineedit e;
        lineedit_init(&e, NULL, 0);
        double measured, moved;
        paste_n(&e, n, avail, &measured, &moved);
        printf("# %zu pasted at the end: %.1f code points measured, %.1f bytes moved a key\n", n, measured,
               moved);
        /* The tail that fits and one more, nothing after the cursor. */
        assert_true(measured <= avail + 2);
        /* Only growing moves bytes: doubling, less than 3 a byte typed. */
        assert_true(moved <= 3 * 4);
        /* The cursor back over all of it, a line each key. */
        uint64_t m0 = e.measured, v0 = e.moved;
        buf shown = BUF_INIT;
        int col;
        for (size_t i = 0; i < n; i++) {
            lineedit_key(&e, K_LEFT);
            lineedit_line(&e, avail, &shown, &col);
        }
        assert_int_equal(e.gap, 0);
        double lm = (double)(e.measured - m0) / (double)n, lv = (double)(e.moved - v0) / (double)n;
        printf("# %zu Left keys: %.1f code points measured, %.1f bytes moved a key\n", n, lm, lv);
        assert_true(lm <= 2 * (avail + 2));
        assert_true(lv <= 4);   /* one code point's bytes */
        /* Pasting in the middle costs what pasting at the end does. */
        for (size_t i = 0; i < n / 2; i++)
            lineedit_key(&e, K_RIGHT);
        paste_n(&e, n, avail, &measured, &moved);
        printf("# %zu pasted in the middle: %.1f measured, %.1f moved a key\n", n, measured, moved);
        assert_true(measured <= 2 * (avail + 2));
        assert_true(moved <= 3 * 4);
        /* Home and End move the text once, over what they cross. */
        v0 = e.moved;
        lineedit_key(&e, K_END);
        lineedit_key(&e, K_HOME);
        assert_true(e.moved - v0 <= 2 * lineedit_len(&e));
        buf_done(&shown);
        lineedit_done(&e);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(edits_by_code_point),
        cmocka_unit_test(lays_out_as_before),
        cmocka_unit_test(a_key_costs_the_same_at_any_length),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
