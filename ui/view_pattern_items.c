/*
 * view_pattern_items — the items one run of an access pattern returned,
 * grouped as the table view groups them: one header a partition (of the
 * index the pattern reads, else the table), its items below in the order
 * the store returned them. The title names the pattern, what it ran as,
 * how many items and read units, and the verdict; a reason (a Scan, an
 * over-budget read, a wrong entity type, an error) is the first line.
 * Enter on an item opens it.
 *
 * The items are copied from the run at open; the view owns them.
 */
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "model/pattern.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/text.h"
#include "ui/view.h"
#include "ui/prices.h"

enum { L_NOTE = 1, L_GROUP, L_ITEM, L_SENT };

typedef struct irow {
    av item;               /* L_ITEM; L_GROUP: the partition key value */
    size_t count;          /* L_GROUP: items of the partition */
    char *text;            /* L_NOTE */
} irow;

typedef struct pitems_view {
    char *name, *table, *index, *ran;
    table_def def;
    bool have_def;
    const char *pk, *sk;   /* the grouping key names (of def) */
    size_t items;
    double units;
    bool truncated;
    pattern_verdict verdict;
    cols cols;
} pitems_view;

static void pitems_free_line(view *v, line *l)
{
    irow *r = l->data;
    if (!r)
        return;
    av_done(&r->item);
    free(r->text);
    free(r);
}

static const index_def *index_of(const pitems_view *p)
{
    return p->index && p->have_def ? table_def_index(&p->def, p->index) : NULL;
}

static irow *row(const av *item)
{
    irow *r = xcalloc(1, sizeof *r);
    if (item)
        av_copy(&r->item, item);
    return r;
}

/* Groups the items by partition key, partitions in the order met. */
static void lay_out(view *v, const av *items, size_t n)
{
    pitems_view *p = v->priv;
    bool *done = n ? xcalloc(n, sizeof *done) : NULL;
    for (size_t i = 0; i < n; i++) {
        if (done[i])
            continue;
        const av *pk = p->pk ? av_map_get(&items[i], p->pk, strlen(p->pk)) : NULL;
        irow *g = row(pk);
        size_t at = v->vm.n;
        vm_append(&v->vm, L_GROUP, g);
        for (size_t k = i; k < n; k++) {
            const av *kpk = p->pk ? av_map_get(&items[k], p->pk, strlen(p->pk)) : NULL;
            if (done[k] || !((pk && kpk && av_equal(pk, kpk)) || (!pk && !kpk)))
                continue;
            done[k] = true;
            vm_append(&v->vm, L_ITEM, row(&items[k]));
            ((irow *)v->vm.lines[at].data)->count++;
        }
    }
    free(done);
}

static bool pitems_open(view *v, const void *arg)
{
    const pattern_items_arg *a = arg;
    pitems_view *p = v->priv;
    p->name = xstrdup(a->p->name);
    p->table = xstrdup(a->p->table);
    p->index = a->p->index ? xstrdup(a->p->index) : NULL;
    p->ran = xstrdup(pattern_op_name(a->r->ran_as));
    p->items = a->r->items;
    p->units = a->r->units;
    p->truncated = a->r->truncated;
    diag d;
    diag_init(&d);
    p->have_def = store_describe(display_store(), p->table, &p->def, &d) == ST_OK;
    const index_def *ix = index_of(p);
    p->pk = ix ? ix->pk.name : p->have_def ? p->def.pk.name : NULL;
    p->sk = ix ? ix->sk.name : p->have_def ? p->def.sk.name : NULL;
    /* What was sent, in the pattern's words, then why it is marked. */
    buf sent = BUF_INIT;
    const pattern *pt = a->p;
    buf_printf(&sent, "%s", pt->statement ? pt->statement : pt->keycond ? pt->keycond : "");
    if (pt->filter)
        buf_printf(&sent, "%sfilter %s", sent.len ? "  " : "", pt->filter);
    for (size_t i = 0; i < a->n_values; i++)
        buf_printf(&sent, "%s:%s = %s", i ? ", " : "  with ", a->names[i], a->values[i]);
    irow *sr = row(NULL);
    sr->text = buf_steal(&sent);
    vm_append(&v->vm, L_SENT, sr);
    buf why = BUF_INIT;
    p->verdict = pattern_judge(a->p, a->r, &why);
    if (why.len) {
        irow *r = row(NULL);
        r->text = buf_steal(&why);
        vm_append(&v->vm, L_NOTE, r);
    }
    buf_done(&why);
    lay_out(v, a->r->kept, a->r->n_kept);
    vm_select(&v->vm, 0);
    return true;
}

static void pitems_done(view *v)
{
    pitems_view *p = v->priv;
    free(p->name);
    free(p->table);
    free(p->index);
    free(p->ran);
    if (p->have_def)
        table_def_free(&p->def);
}

static void pitems_title(view *v, buf *out)
{
    pitems_view *p = v->priv;
    /* Title parts (ui/text.h): on a narrow screen the units go first,
     * then what it ran as; the items and the verdict stay. */
    buf_printf(out, "Pattern %s", p->name);
    text_title_part(out, 2);
    buf_printf(out, "  %s on %s%s%s", p->ran, p->table, p->index ? " " : "", p->index ? p->index : "");
    text_title_part(out, 1);
    buf_printf(out, ": %zu item%s%s", p->items, p->items == 1 ? "" : "s",
               p->truncated ? " (more pages)" : "");
    text_title_part(out, 3);
    buf_printf(out, ", %g RCU", p->units);
    text_title_part(out, 1);
    buf_printf(out, "  %s", pattern_verdict_name(p->verdict));
    buf price = BUF_INIT;
    prices_per_million(p->units, false, &price);
    if (price.len) {
        text_title_part(out, 4);
        buf_adds(out, "  ");
        buf_add(out, price.data, price.len);
    }
    buf_done(&price);
}

static void pitems_layout(view *v)
{
    pitems_view *p = v->priv;
    vm *m = &v->vm;
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n, n = 0;
    const av *items[512];
    for (size_t i = m->top; i < end && n < 512; i++)
        if (m->lines[i].kind == L_ITEM)
            items[n++] = &((irow *)m->lines[i].data)->item;
    const char *first[3] = { p->sk, index_of(p) ? p->def.pk.name : NULL,
                             index_of(p) ? p->def.sk.name : NULL };
    cols_compute(&p->cols, items, n, first, 3, p->pk);
}

static int pitems_head_rows(view *v)
{
    return 1;
}

static void pitems_draw_head(view *v, int row_, int width)
{
    pitems_view *p = v->priv;
    term_fill(row_, 0, width, ROLE_COLHEAD);
    cols_draw_head(&p->cols, row_, 2, width, v->vm.hscroll);
}

static void pitems_draw(view *v, size_t i, int row_, int width)
{
    pitems_view *p = v->priv;
    line *l = &v->vm.lines[i];
    irow *r = l->data;
    buf b = BUF_INIT;
    if (l->kind == L_NOTE || l->kind == L_SENT) {
        role rl = l->kind == L_SENT ? ROLE_DIM : p->verdict == PAT_FAIL ? ROLE_ERROR : ROLE_HOT;
        term_put(row_, 0, width, r->text, strlen(r->text), rl, true);
    } else if (l->kind == L_GROUP) {
        int x = term_puts(row_, 0, width, "▾ ", ROLE_GROUP);
        if (r->item.type)
            fmt_cell(&b, &r->item, 0);
        else
            buf_printf(&b, "(no %s)", p->pk ? p->pk : "partition key");
        x += term_put(row_, x, width - x, b.data, b.len, ROLE_GROUP, true);
        buf_reset(&b);
        buf_printf(&b, "  %zu item%s", r->count, r->count == 1 ? "" : "s");
        term_put(row_, x, width - x, b.data, b.len, ROLE_DIM, true);
    } else {
        cols_draw_item(&p->cols, &r->item, row_, 2, width, v->vm.hscroll,
                       p->have_def ? &p->def : NULL, index_of(p));
    }
    buf_done(&b);
}

static const char *pitems_kind_name(int kind)
{
    return kind == L_NOTE ? "note" : kind == L_SENT ? "sent" : kind == L_GROUP ? "group" : "item";
}

static void pitems_text(view *v, size_t i, buf *out)
{
    line *l = &v->vm.lines[i];
    irow *r = l->data;
    if (l->kind == L_NOTE || l->kind == L_SENT) {
        buf_adds(out, r->text);
    } else if (l->kind == L_GROUP) {
        if (r->item.type)
            fmt_cell(out, &r->item, 0);
        buf_printf(out, " items=%zu", r->count);
    } else {
        for (size_t j = 0; j < r->item.u.m.len; j++) {
            buf_printf(out, "%s%s=", j ? " " : "", r->item.u.m.v[j].name);
            fmt_cell(out, &r->item.u.m.v[j].val, 0);
        }
    }
}

static enum req pitems_request(view *v, enum req r)
{
    pitems_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_ENTER) {
        if (l && l->kind == L_ITEM) {
            item_arg a = { p->table, p->index, &((irow *)l->data)->item };
            display_push(&view_item_ops, &a);
        }
        return REQ_NONE;
    }
    return r;
}

static void pitems_context(view *v, cond_arg *out)
{
    pitems_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    out->table = p->table;
    out->index = p->index;
    out->item = l && l->kind == L_ITEM ? &((irow *)l->data)->item : NULL;
}

const view_ops view_pattern_items_ops = {
    .name = "pattern-items",
    .results = true,
    .priv_size = sizeof(pitems_view),
    .open = pitems_open,
    .title = pitems_title,
    .layout = pitems_layout,
    .head_rows = pitems_head_rows,
    .draw_head = pitems_draw_head,
    .draw = pitems_draw,
    .request = pitems_request,
    .done = pitems_done,
    .free_line = pitems_free_line,
    .kind_name = pitems_kind_name,
    .text = pitems_text,
    .context = pitems_context,
};
