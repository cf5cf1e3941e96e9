/*
 * The view-model (ui/vm): the window of lines, the cursor and the top
 * row, and the scrolling the display asks of it (vm_set_top,
 * vm_fill_from_above, vm_hscroll), so that no other module writes its
 * fields (ui/vm.h; tools/check-layers.sh refuses a write elsewhere).
 * The expectations are the explorer's own rules: the cursor is always on
 * screen, prepending keeps the same line selected, horizontal scrolling
 * stops at column 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ui/vm.h"

static int freed;

static void count_free(void *ctx, line *l)
{
    (void)ctx;
    (void)l;
    freed++;
}

static void fill(vm *m, size_t n)
{
    for (size_t i = 0; i < n; i++)
        vm_append(m, 0, NULL);
}

static void test_select_keeps_cursor_on_screen(void **state)
{
    vm m;
    vm_init(&m, count_free, NULL);
    fill(&m, 100);
    vm_set_rows(&m, 10);
    vm_select(&m, 50);
    assert_int_equal(m.cursor, 50);
    assert_int_equal(m.top, 41);
    vm_select(&m, 500);
    assert_int_equal(m.cursor, 99);
    assert_int_equal(m.top, 90);
    vm_select(&m, 3);
    assert_int_equal(m.top, 3);
    freed = 0;
    vm_done(&m);
    assert_int_equal(freed, 100);
}

static void test_set_top(void **state)
{
    vm m;
    vm_init(&m, NULL, NULL);
    fill(&m, 100);
    vm_set_rows(&m, 10);
    vm_select(&m, 50);
    vm_set_top(&m, 45);
    assert_int_equal(m.top, 45);
    assert_int_equal(m.cursor, 50);
    /* Past the cursor: the cursor becomes the top line. */
    vm_set_top(&m, 70);
    assert_int_equal(m.top, 50);
    /* So far above that the cursor would be off screen: the cursor ends
     * on the last row. */
    vm_set_top(&m, 0);
    assert_int_equal(m.top, 41);
    vm_done(&m);
}

static void test_fill_from_above(void **state)
{
    line more[15];
    memset(more, 0, sizeof more);
    vm m;
    vm_init(&m, NULL, NULL);
    vm_set_rows(&m, 10);
    /* Three lines, cursor on the last; 15 prepended: 18 lines, the
     * cursor on line 17 and the top at 15 (vm_prepend shifts both). More
     * than a screen below the top is false (3 lines), so the screen
     * starts at the first line, moved down as far as the cursor needs. */
    fill(&m, 3);
    vm_select(&m, 2);
    vm_prepend(&m, more, 15);
    assert_int_equal(m.cursor, 17);
    assert_int_equal(m.top, 15);
    vm_fill_from_above(&m);
    assert_int_equal(m.top, 8);
    /* A short window: from the first line. */
    vm_clear(&m);
    fill(&m, 2);
    vm_select(&m, 1);
    vm_prepend(&m, more, 3);
    vm_fill_from_above(&m);
    assert_int_equal(m.top, 0);
    assert_int_equal(m.cursor, 4);

    /* More than a screen below the top: the last screen. */
    vm_clear(&m);
    fill(&m, 30);
    vm_select(&m, 25);
    m.top = 5;  /* the test sets up a state; only vm.c does so in ddbx */
    vm_fill_from_above(&m);
    assert_int_equal(m.top, 20);
    /* And never below the cursor. */
    vm_select(&m, 12);
    m.top = 0;
    vm_fill_from_above(&m);
    assert_int_equal(m.top, 12);
    vm_done(&m);
}

static void test_hscroll(void **state)
{
    vm m;
    vm_init(&m, NULL, NULL);
    vm_hscroll(&m, -1);
    assert_int_equal(m.hscroll, 0);
    vm_hscroll(&m, 1);
    vm_hscroll(&m, 1);
    assert_int_equal(m.hscroll, 2);
    vm_hscroll(&m, -5);
    assert_int_equal(m.hscroll, 0);
    fill(&m, 2);
    vm_hscroll(&m, 3);
    vm_clear(&m);
    assert_int_equal(m.hscroll, 0);
    vm_done(&m);
}

static void test_prepend_and_trim_keep_the_line(void **state)
{
    line more[5];
    memset(more, 0, sizeof more);
    vm m;
    vm_init(&m, count_free, NULL);
    vm_set_rows(&m, 4);
    fill(&m, 10);
    vm_select(&m, 6);
    size_t top = m.top;
    vm_prepend(&m, more, 5);
    assert_int_equal(m.cursor, 11);
    assert_int_equal(m.top, top + 5);
    freed = 0;
    vm_trim(&m, 3, 13);
    assert_int_equal(freed, 5);
    assert_int_equal(m.n, 10);
    assert_int_equal(m.cursor, 8);
    assert_int_equal(m.top, top + 2);
    vm_done(&m);
}

/* vm_cut drops lines from the middle (a long search keeps the window it
 * started from): lines after the cut move up, lines before stay. */
static void test_cut_keeps_the_lines_around(void **state)
{
    (void)state;
    vm m;
    vm_init(&m, count_free, NULL);
    vm_set_rows(&m, 4);
    fill(&m, 20);
    vm_select(&m, 3);
    freed = 0;
    vm_cut(&m, 8, 15);
    assert_int_equal(freed, 7);
    assert_int_equal(m.n, 13);
    assert_int_equal(m.cursor, 3);
    vm_select(&m, 12);
    vm_cut(&m, 2, 5);
    assert_int_equal(m.n, 10);
    assert_int_equal(m.cursor, 9);
    vm_cut(&m, 5, 5);
    assert_int_equal(m.n, 10);
    vm_done(&m);
}

/* vm_insert puts lines in the middle (the table view's column names, the
 * query bar's wrapped request): the lines at or after the place move
 * down, the cursor and the top with them; lines before stay. */
static void test_insert_keeps_the_line(void **state)
{
    (void)state;
    line two[2] = { { 7, NULL }, { 8, NULL } };
    vm m;
    vm_init(&m, count_free, NULL);
    vm_set_rows(&m, 4);
    vm_insert(&m, 0, two, 1);   /* into an empty window: cursor and top stay 0 */
    assert_int_equal(m.n, 1);
    assert_int_equal(m.cursor, 0);
    assert_int_equal(m.top, 0);
    fill(&m, 9);
    vm_select(&m, 6);
    vm_set_top(&m, 5);
    vm_insert(&m, 6, two, 2);   /* at the cursor: it moves with its line */
    assert_int_equal(m.n, 12);
    assert_int_equal(m.cursor, 8);
    assert_int_equal(m.top, 5);
    assert_int_equal(m.lines[6].kind, 7);
    assert_int_equal(m.lines[7].kind, 8);
    vm_insert(&m, 5, two, 1);   /* at the top: the old top line stays on top */
    assert_int_equal(m.top, 6);
    assert_int_equal(m.cursor, 9);
    assert_int_equal(m.n, 13);
    vm_insert(&m, 13, two, 1);  /* at the end: nothing moves */
    assert_int_equal(m.n, 14);
    assert_int_equal(m.lines[13].kind, 7);
    assert_int_equal(m.cursor, 9);
    vm_insert(&m, 1, two, 0);   /* nothing */
    assert_int_equal(m.n, 14);
    freed = 0;
    vm_done(&m);
    assert_int_equal(freed, 14);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_keeps_cursor_on_screen),
        cmocka_unit_test(test_set_top),
        cmocka_unit_test(test_fill_from_above),
        cmocka_unit_test(test_hscroll),
        cmocka_unit_test(test_prepend_and_trim_keep_the_line),
        cmocka_unit_test(test_cut_keeps_the_lines_around),
        cmocka_unit_test(test_insert_keeps_the_line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
