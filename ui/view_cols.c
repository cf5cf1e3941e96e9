/*
 * view_cols — the column picker (`C` in the table view): the columns of
 * one entity type of one table, one a line, in the order they show;
 * Enter shows or hides the selected one, `<` and `>` move it, `=` pins it
 * (a pinned column stays at the left, after the key, when the columns
 * scroll). Every change is saved at once (ui/colset.h) and the table view
 * shows it when the picker closes (q). A list, so it fits any screen.
 */
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "ui/colset.h"
#include "ui/display.h"
#include "ui/view.h"

enum { L_COL = 1 };

typedef struct cview {
    char *table, *entity;
    colset set;
} cview;

static void fill(view *v, size_t sel)
{
    cview *p = v->priv;
    vm_clear(&v->vm);
    for (size_t i = 0; i < p->set.n; i++)
        vm_append(&v->vm, L_COL, NULL);
    vm_select(&v->vm, sel);
}

static bool colpick_open(view *v, const void *arg)
{
    const cols_arg *a = arg;
    cview *p = v->priv;
    p->table = xstrdup(a->table);
    p->entity = xstrdup(a->entity);
    colset_load(&p->set, a->table, a->entity);
    colset_merge(&p->set, a->all);
    /* Shown as they show: the pinned ones first. */
    for (size_t i = 0, k = 0; i < p->set.n; i++)
        if (p->set.flags[i] & COLSET_PINNED) {
            char *n = p->set.names[i];
            unsigned char f = p->set.flags[i];
            memmove(p->set.names + k + 1, p->set.names + k, (i - k) * sizeof *p->set.names);
            memmove(p->set.flags + k + 1, p->set.flags + k, i - k);
            p->set.names[k] = n;
            p->set.flags[k++] = f;
        }
    if (!p->set.n) {
        display_error("No columns to pick: the key is the only one");
        return false;
    }
    fill(v, 0);
    return true;
}

static void colpick_done(view *v)
{
    cview *p = v->priv;
    colset_done(&p->set);
    free(p->table);
    free(p->entity);
}

static void colpick_title(view *v, buf *out)
{
    cview *p = v->priv;
    buf_printf(out, "Columns of %s: ", p->table);
    colset_entity_label(p->entity, out);
}

static int colpick_head_rows(view *v)
{
    return 1;
}

static void colpick_draw_head(view *v, int row, int width)
{
    term_fill(row, 0, width, ROLE_COLHEAD);
    term_puts(row, 0, width, "Enter: show/hide  <  >: move  =: pin  q: back", ROLE_COLHEAD);
}

static void line_text(const cview *p, size_t i, buf *out)
{
    unsigned char f = p->set.flags[i];
    buf_printf(out, "[%c] %s%s", f & COLSET_HIDDEN ? ' ' : 'x', p->set.names[i],
               f & COLSET_PINNED ? "  (pinned)" : "");
}

static void colpick_draw(view *v, size_t i, int row, int width)
{
    cview *p = v->priv;
    buf b = BUF_INIT;
    line_text(p, i, &b);
    term_put(row, 2, width - 2, b.data, b.len,
             p->set.flags[i] & COLSET_HIDDEN ? ROLE_DIM : ROLE_NORMAL, true);
    buf_done(&b);
}

static void colpick_text(view *v, size_t i, buf *out)
{
    line_text(v->priv, i, out);
}

static const char *colpick_kind_name(int kind)
{
    return "column";
}

static void save(view *v, size_t sel)
{
    cview *p = v->priv;
    diag d;
    diag_init(&d);
    if (colset_save(&p->set, p->table, p->entity, &d) != ST_OK)
        display_diag("Columns kept for this session only, not saved", d.code, &d);
    fill(v, sel);
}

static void swap(cview *p, size_t a, size_t b)
{
    char *n = p->set.names[a];
    unsigned char f = p->set.flags[a];
    p->set.names[a] = p->set.names[b];
    p->set.flags[a] = p->set.flags[b];
    p->set.names[b] = n;
    p->set.flags[b] = f;
}

/* Moves column i by dir within its block (pinned ones, or the others). */
static void move(view *v, size_t i, int dir)
{
    cview *p = v->priv;
    size_t j = (size_t)((long)i + dir);
    if ((dir < 0 && i == 0) || j >= p->set.n ||
        (p->set.flags[i] & COLSET_PINNED) != (p->set.flags[j] & COLSET_PINNED)) {
        display_error(dir < 0 ? "The column is the first it can be" : "The column is the last it can be");
        return;
    }
    swap(p, i, j);
    save(v, j);
}

/* Pins it (at the end of the pinned ones) or unpins it (first of the
 * others). */
static void pin(view *v, size_t i)
{
    cview *p = v->priv;
    p->set.flags[i] ^= COLSET_PINNED;
    p->set.flags[i] &= (unsigned char)~COLSET_HIDDEN;
    bool pinned = p->set.flags[i] & COLSET_PINNED;
    size_t at = i;
    if (pinned)
        while (at > 0 && !(p->set.flags[at - 1] & COLSET_PINNED))
            swap(p, at, at - 1), at--;
    else
        while (at + 1 < p->set.n && (p->set.flags[at + 1] & COLSET_PINNED))
            swap(p, at, at + 1), at++;
    display_message("%s %s", p->set.names[at], pinned ? "pinned: it stays when the columns scroll"
                                                        : "unpinned");
    save(v, at);
}

static enum req colpick_request(view *v, enum req r)
{
    cview *p = v->priv;
    size_t i = v->vm.cursor;
    switch (r) {
    case REQ_ENTER:
        p->set.flags[i] ^= COLSET_HIDDEN;
        p->set.flags[i] &= (unsigned char)~COLSET_PINNED;
        display_message("%s %s", p->set.names[i],
                        p->set.flags[i] & COLSET_HIDDEN ? "hidden" : "shown");
        save(v, i);
        return REQ_NONE;
    case REQ_COL_EARLIER: move(v, i, -1); return REQ_NONE;
    case REQ_COL_LATER: move(v, i, 1); return REQ_NONE;
    case REQ_COL_PIN: pin(v, i); return REQ_NONE;
    case REQ_COLUMNS: display_pop(); return REQ_NONE;
    default: return r;
    }
}

const view_ops view_cols_ops = {
    .name = "columns",
    .priv_size = sizeof(cview),
    .open = colpick_open,
    .title = colpick_title,
    .head_rows = colpick_head_rows,
    .draw_head = colpick_draw_head,
    .draw = colpick_draw,
    .request = colpick_request,
    .done = colpick_done,
    .kind_name = colpick_kind_name,
    .text = colpick_text,
};
