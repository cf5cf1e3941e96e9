/*
 * beside — two versions of an item side by side, one row per top-level
 * attribute of either (the commit conflict's "now | staged", the diff
 * view's "A | B"): the rows in name order, and drawing one in three
 * columns that stay aligned whatever the text.
 *
 * Ownership: the rows and their texts are the caller's (beside_rows_free).
 */
#ifndef DDBX_BESIDE_H
#define DDBX_BESIDE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "ui/term.h"

typedef struct beside_row {
    buf name, left, right;   /* the attribute, its value in each ("S Jeju", "(absent)") */
    bool differ;             /* absent from one, or not equal */
} beside_row;

/* One row per attribute name of a or b (either may be AV_NONE, or NULL:
 * no item), in name order; *out the caller's. Returns the count. */
size_t beside_rows(const av *a, const av *b, beside_row **out);
void beside_rows_free(beside_row *rows, size_t n);

/* "S Jeju", "N 5", "M {...}", "B AAE=", "SS {a, b}": the type once, then
 * the value as a cell. */
void beside_typed(buf *out, const av *v);

/* Draws a row: a "!" when they differ, the name column and two value
 * columns, each cut at its width in screen cells, in role r. */
void beside_draw(int row, int width, role r, bool differ, const buf *name, const buf *left,
                 const buf *right);

#endif
