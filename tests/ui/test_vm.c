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

/* A window of n lines, 4 rows on screen, line sel selected. */
static void window(vm *m, size_t n, size_t sel)
{
    vm_init(m, count_free, NULL);
    vm_set_rows(m, 4);
    fill(m, n);
    vm_select(m, sel);
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
    window(&m, 10, 6);
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

/* vm_insert puts lines in the middle (a bar's wrapped line grows): the
 * lines after move down with the cursor, the ones before stay. */
static void test_insert_moves_the_lines_after(void **state)
{
    (void)state;
    line more[3];
    memset(more, 0, sizeof more);
    more[0].kind = more[1].kind = more[2].kind = 7;
    vm m;
    window(&m, 10, 8);
    size_t top = m.top;
    vm_insert(&m, 5, more, 3);
    assert_int_equal(m.n, 13);
    assert_int_equal(m.cursor, 11);
    assert_int_equal(m.top, top + 3);
    assert_int_equal(m.lines[5].kind, 7);
    assert_int_equal(m.lines[7].kind, 7);
    assert_int_equal(m.lines[8].kind, 0);
    vm_select(&m, 1);
    vm_insert(&m, 4, more, 2);
    assert_int_equal(m.cursor, 1);
    assert_int_equal(m.n, 15);
    vm_insert(&m, 99, more, 1);   /* past the end: appended */
    assert_int_equal(m.n, 16);
    assert_int_equal(m.lines[15].kind, 7);
    vm_done(&m);
}

static void *no_data(void *ctx)
{
    (*(int *)ctx)++;
    return NULL;
}

/* vm_fit_run makes a run of lines of one kind as long as a wrapped text
 * needs: longer, shorter, and no run at all. */
static void test_fit_run(void **state)
{
    (void)state;
    vm m;
    int made = 0;
    vm_init(&m, count_free, NULL);
    vm_set_rows(&m, 4);
    fill(&m, 3);
    vm_append(&m, 5, NULL);
    fill(&m, 3);
    vm_select(&m, 6);
    assert_int_equal(vm_fit_run(&m, 5, 3, no_data, &made), 3);
    assert_int_equal(made, 2);
    assert_int_equal(m.n, 9);
    assert_int_equal(m.lines[5].kind, 5);
    assert_int_equal(m.lines[6].kind, 0);
    assert_int_equal(m.cursor, 8);   /* the same line */
    freed = 0;
    assert_int_equal(vm_fit_run(&m, 5, 1, no_data, &made), 3);
    assert_int_equal(freed, 2);
    assert_int_equal(m.n, 7);
    assert_int_equal(m.cursor, 6);
    assert_int_equal(vm_fit_run(&m, 9, 4, no_data, &made), 7);   /* no such kind */
    assert_int_equal(m.n, 7);
    vm_done(&m);
}

/* Lines whose data is an index (the doctor's and the entities view's):
 * each reads back the index it was appended with, whatever its kind,
 * and is freed through the view's free_line (vm_free_index). */
static void free_index(void *ctx, line *l)
{
    (void)ctx;
    vm_free_index(l);
    assert_null(l->data);
    freed++;
}

static void test_index_lines(void **state)
{
    (void)state;
    vm m;
    vm_init(&m, free_index, NULL);
    vm_append_index(&m, 7, 3);
    vm_append_index(&m, 8, 3);
    vm_append_index(&m, 7, 0);
    assert_int_equal(m.n, 3);
    assert_int_equal(m.lines[1].kind, 8);
    assert_int_equal(vm_index(&m.lines[0]), 3);
    assert_int_equal(vm_index(&m.lines[1]), 3);
    assert_int_equal(vm_index(&m.lines[2]), 0);
    freed = 0;
    vm_done(&m);
    assert_int_equal(freed, 3);
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
        cmocka_unit_test(test_insert_moves_the_lines_after),
        cmocka_unit_test(test_fit_run),
        cmocka_unit_test(test_index_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
