/*
 * vm — the view-model: a view's browse state. It owns the window of
 * loaded lines (kind + a data pointer the view owns and frees through the
 * callback given to vm_init), the cursor (selected line) and the top row.
 * Views fill it; the display moves through it; drawing only reads it.
 * No other module writes these fields.
 *
 * Big tables are never loaded: a view keeps a window of lines around the
 * cursor, extending it at either edge (vm_append / vm_prepend) and
 * dropping lines far from the cursor (vm_trim). Prepending shifts cursor
 * and top so the same line stays selected.
 */
#ifndef DDBX_VM_H
#define DDBX_VM_H

#include <stdbool.h>
#include <stddef.h>

typedef struct line {
    int kind;          /* view-defined */
    void *data;        /* owned by the view, freed by the vm's free_fn */
} line;

typedef void (*vm_free_fn)(void *ctx, line *l);

typedef struct vm {
    line *lines;
    size_t n, cap;
    size_t cursor, top;  /* cursor < n when n > 0 */
    size_t rows;         /* body rows on screen, >= 1 */
    int hscroll;         /* horizontal scroll, in the view's units (columns) */
    vm_free_fn free_fn;
    void *ctx;
} vm;

void vm_init(vm *m, vm_free_fn free_fn, void *ctx);
void vm_done(vm *m);                 /* frees every line */
void vm_clear(vm *m);                /* frees every line, cursor/top 0 */

void vm_append(vm *m, int kind, void *data);
/* A line whose data is an index into the view's own array (the doctor's
 * findings, the entities view's entities): vm_append_index appends it,
 * vm_index reads it, vm_free_index frees it (the view's free_line). */
void vm_append_index(vm *m, int kind, size_t idx);
size_t vm_index(const line *l);
void vm_free_index(line *l);
/* Inserts lines at the front, in the order given. */
void vm_prepend(vm *m, const line *lines, size_t n);
/* Inserts lines before line `at` (at <= n; n: at the end); cursor and top
 * at or after it move with their lines, so the same line stays selected
 * and the same line stays at the top. */
void vm_insert(vm *m, size_t at, const line *lines, size_t n);
/* Makes the run of consecutive lines of `kind` that starts at its first
 * line exactly `want` lines long (a wrapped text that needs more or fewer
 * rows): lines go from its end, or new ones (data from make(ctx)) come
 * after it. Returns the index of its first line; m->n when no line has
 * that kind (nothing changes then). */
size_t vm_fit_run(vm *m, int kind, size_t want, void *(*make)(void *ctx), void *ctx);
/* Drops lines outside [keep_from, keep_to); adjusts cursor and top. */
void vm_trim(vm *m, size_t keep_from, size_t keep_to);
/* Drops the lines [from, to) from the middle (a search keeps the window
 * it started from while it reads far past it); adjusts cursor and top. */
void vm_cut(vm *m, size_t from, size_t to);

line *vm_line(vm *m, size_t i);      /* NULL when out of range */
line *vm_selected(vm *m);            /* NULL when empty */

/* Selects line i (clamped) and scrolls so it is visible. */
void vm_select(vm *m, size_t i);
void vm_set_rows(vm *m, size_t rows);
/* Scrolls so that the cursor shows `above` rows below the top when it
 * can. */
void vm_center(vm *m, size_t above);
/* Puts line `top` at the top of the screen, moved as little as needed to
 * keep the cursor on screen. */
void vm_set_top(vm *m, size_t top);
/* After lines were added above a window that did not fill the screen:
 * with more than a screen of lines below the top, shows the last screen;
 * else starts at the first line. The cursor stays on screen. */
void vm_fill_from_above(vm *m);
/* Scrolls horizontally by delta columns, never left of column 0. */
void vm_hscroll(vm *m, int delta);

#endif
