/*
 * beside — two versions of an item side by side (see beside.h).
 */
#include "ui/beside.h"

#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/stage.h"
#include "ui/fmt.h"

void beside_typed(buf *out, const av *v)
{
    const char *type = av_type_name(v->type);
    buf_printf(out, "%s ", type);
    /* A cell marks a binary ("B:") and a set ("SS{") with its type, for a
     * value among others; here the type is said already: once. */
    buf cell = BUF_INIT;
    fmt_cell(&cell, v, 60);
    size_t tl = strlen(type), skip = 0;
    if ((v->type == AV_B || v->type == AV_SS || v->type == AV_NS || v->type == AV_BS) &&
        cell.len > tl && memcmp(cell.data, type, tl) == 0)
        skip = tl + (cell.data[tl] == ':');
    if (cell.len > skip)
        buf_add(out, cell.data + skip, cell.len - skip);
    buf_done(&cell);
}

static int name_cmp(const stage_attr *x, const stage_attr *y)
{
    size_t m = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, m);
    return c ? c : x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

size_t beside_rows(const av *a, const av *b, beside_row **out)
{
    av none = { .type = AV_NONE };
    /* Every name of either item, in order: the diff of each against an
     * empty item lists its names; the two lists merge. */
    stage_attr *x, *y;
    size_t nx = stage_diff(&none, a ? a : &none, &x), ny = stage_diff(&none, b ? b : &none, &y);
    beside_row *rows = xcalloc(nx + ny + 1, sizeof *rows);
    size_t n = 0, i = 0, j = 0;
    while (i < nx || j < ny) {
        int cmp = i >= nx ? 1 : j >= ny ? -1 : name_cmp(&x[i], &y[j]);
        const stage_attr *s = cmp <= 0 ? &x[i] : &y[j];
        const av *lv = cmp <= 0 ? x[i].new_v : NULL, *rv = cmp >= 0 ? y[j].new_v : NULL;
        beside_row *r = &rows[n++];
        buf_add(&r->name, s->name, s->name_len);
        if (lv)
            beside_typed(&r->left, lv);
        else
            buf_adds(&r->left, "(absent)");
        if (rv)
            beside_typed(&r->right, rv);
        else
            buf_adds(&r->right, "(absent)");
        r->differ = !lv || !rv || !av_equal(lv, rv);
        if (cmp <= 0)
            i++;
        if (cmp >= 0)
            j++;
    }
    free(x);
    free(y);
    *out = rows;
    return n;
}

void beside_rows_free(beside_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        buf_done(&rows[i].name);
        buf_done(&rows[i].left);
        buf_done(&rows[i].right);
    }
    free(rows);
}

void beside_draw(int row, int width, role r, bool differ, const buf *name, const buf *left,
                 const buf *right)
{
    int nw = width / 5 < 24 ? width / 5 : 24, vw = (width - nw - 4) / 2;
    const buf *col[3] = { name, left, right };
    int x[3] = { 2, 3 + nw, 4 + nw + vw }, w[3] = { nw, vw, vw };
    term_fill(row, 0, width, r);
    if (differ)
        term_puts(row, 0, 1, "!", r);
    for (int k = 0; k < 3; k++)
        if (x[k] < width && col[k]->len)
            term_put(row, x[k], x[k] + w[k] <= width ? w[k] : width - x[k], col[k]->data, col[k]->len,
                     r, true);
}
