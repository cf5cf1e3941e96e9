/*
 * cols — columns that follow the attributes of the items on screen: the
 * names given first (key attributes) in their order, then every other
 * attribute present by name, each as wide as its widest value on screen
 * (capped). Used by the table view, and as the results pane of the query
 * bar and the PartiQL view (cols_fit_lines, the _text helpers).
 *
 * A cols holds pointers to attribute names inside the items it was
 * computed from: it is valid until those items change (recompute per
 * frame).
 */
#ifndef DDBX_COLS_H
#define DDBX_COLS_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/schema.h"
#include "ui/vm.h"

#define COLS_MAX 128
#define COLS_WIDTH_MAX 32

typedef struct cols {
    struct {
        const char *name;
        int width;
    } c[COLS_MAX];
    size_t n;
    size_t fixed;   /* the first columns, which stay when scrolling (>= 1) */
} cols;

/* items[0..n) are maps; first[0..nfirst) may hold NULLs (skipped); an
 * attribute named skip (may be NULL) gets no column. */
void cols_compute(cols *c, const av *const *items, size_t n, const char *const *first,
                  size_t nfirst, const char *skip);

/* The column names, from screen column x; the first `fixed` columns stay
 * (the key, and the pinned ones), hscroll skips the ones after them.
 * Returns the screen column after the last name drawn. */
int cols_draw_head(const cols *c, int row, int x, int width, int hscroll);
/* One item's values in the same columns; key attributes (of the table,
 * or of ix) in the key role. */
void cols_draw_item(const cols *c, const av *item, int row, int x, int width, int hscroll,
                    const table_def *def, const index_def *ix);

/* A results pane: the columns of the result lines on screen (m's lines
 * from top, of the given kind, each line's data holding an av item at
 * byte offset item_off), the names in first[0..nfirst) first as
 * cols_compute (with held_only, only those an item on screen holds). */
void cols_fit_lines(cols *c, const vm *m, int kind, size_t item_off, const char *const *first,
                    size_t nfirst, bool held_only);
/* As plain text (a line's copy, the screen dumps): the column names, and
 * one item as name=value pairs. */
void cols_heads_text(const cols *c, buf *out);
void cols_item_text(const av *item, buf *out);

#endif
