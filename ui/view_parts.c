/*
 * view_parts — the partition overview: the largest partitions of the
 * table or of an index, by items, as a bar chart with their bytes, so a
 * celebrity partition stands out. Enter opens the table view there.
 */
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/view.h"

#define MAX_PARTS 1000

enum { L_PART = 1 };

typedef struct parts_view {
    char *table, *index;
    table_stats st;
    uint64_t max_items;
    bool remote;           /* ranked from what the Scan found so far */
    uint64_t known;
    bool complete;
} parts_view;

static void parts_free_line(view *v, line *l)
{
    part_info *pi = l->data;
    if (!pi)
        return;
    av_done(&pi->pk);
    free(pi);
}

static bool parts_open(view *v, const void *arg)
{
    const item_arg *a = arg;
    parts_view *p = v->priv;
    diag d;
    size_t n = 0;
    bool ok = false;
    diag_init(&d);
    p->table = xstrdup(a->table);
    p->index = a->index ? xstrdup(a->index) : NULL;
    part_info *parts = xcalloc(MAX_PARTS, sizeof *parts);
    status st = store_stats(display_store(), p->table, p->index, &p->st, &d);
    if (st == ST_OK)
        st = store_partitions_by_size(display_store(), p->table, p->index, MAX_PARTS, parts, &n, &d);
    if (st == ST_OK)
        st = store_scan_state(display_store(), p->table, p->index, &p->known, &p->complete, &d);
    store_info info;
    store_get_info(display_store(), &info);
    p->remote = info.remote;
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        part_info *pi = xmalloc(sizeof *pi);
        *pi = parts[i];
        if (pi->items != STORE_ITEMS_UNKNOWN && pi->items > p->max_items)
            p->max_items = pi->items;
        vm_append(&v->vm, L_PART, pi);
    }
    ok = true;
out:
    free(parts);
    return ok;
}

static void parts_done(view *v)
{
    parts_view *p = v->priv;
    free(p->table);
    free(p->index);
}

static void parts_title(view *v, buf *out)
{
    parts_view *p = v->priv;
    if (p->remote) {
        /* No partition listing remotely: a ranking of what paging found
         * and counted (issue 42: no Scan of the table unless asked). */
        buf_printf(out, "%s  %s  partitions by size: %llu found so far, %s", p->table,
                   p->index ? p->index : "base table", (unsigned long long)p->known,
                   p->complete ? "scan complete" : "partial (found as you page; :count-parts counts all)");
        return;
    }
    buf_printf(out, "%s  %s  partitions by size: %llu partition%s, %llu item%s, ", p->table,
               p->index ? p->index : "base table", (unsigned long long)p->st.partitions,
               p->st.partitions == 1 ? "" : "s", (unsigned long long)p->st.items,
               p->st.items == 1 ? "" : "s");
    fmt_bytes(out, p->st.bytes);
    if (p->st.partitions > MAX_PARTS)
        buf_printf(out, " (largest %d shown)", MAX_PARTS);
}

#define W_LABEL 24
/* "%8llu items " and a size right-aligned in 9 ("1023.9 KB"): never cut. */
#define W_SIZE 9
#define W_NUMS (8 + 7 + W_SIZE)

static void parts_draw(view *v, size_t i, int row, int width)
{
    parts_view *p = v->priv;
    part_info *pi = v->vm.lines[i].data;
    buf b = BUF_INIT;
    fmt_cell(&b, &pi->pk, 0);
    int lw = width / 3 < W_LABEL ? width / 3 : W_LABEL;
    term_put(row, 0, lw, b.data, b.len, ROLE_GROUP, true);
    buf_reset(&b);
    if (pi->items == STORE_ITEMS_UNKNOWN)
        buf_printf(&b, "%-15s", "not counted");
    else
        buf_printf(&b, "%8llu item%s ", (unsigned long long)pi->items, pi->items == 1 ? " " : "s");
    if (!p->remote) {
        buf sz = BUF_INIT;
        fmt_bytes(&sz, pi->bytes);
        buf_printf(&b, "%*s", W_SIZE, sz.data);
        buf_done(&sz);
    }
    term_put(row, lw + 1, W_NUMS, b.data, b.len, ROLE_NORMAL, true);
    int x = lw + 1 + W_NUMS + 1, bw = width - x;
    if (bw > 0 && p->max_items && pi->items != STORE_ITEMS_UNKNOWN) {
        int len = (int)((double)pi->items / (double)p->max_items * bw + 0.5);
        if (len < 1 && pi->items)
            len = 1;
        /* Drawn with a visible block so the chart survives monochrome
         * and screen dumps. */
        buf_reset(&b);
        for (int k = 0; k < len; k++)
            buf_adds(&b, "\u2588");
        term_put(row, x, len, b.data, b.len, ROLE_BAR, false);
    }
    buf_done(&b);
}

static const char *parts_kind_name(int kind)
{
    return "partition";
}

static void parts_text(view *v, size_t i, buf *out)
{
    parts_view *p = v->priv;
    part_info *pi = v->vm.lines[i].data;
    fmt_cell(out, &pi->pk, 0);
    if (pi->items == STORE_ITEMS_UNKNOWN)
        buf_adds(out, " items=?");
    else
        buf_printf(out, " items=%llu", (unsigned long long)pi->items);
    if (!p->remote)
        buf_printf(out, " bytes=%llu", (unsigned long long)pi->bytes);
}

static enum req parts_request(view *v, enum req r)
{
    parts_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_ENTER && l) {
        items_arg a = { p->table, p->index, &((part_info *)l->data)->pk, NULL };
        display_push(&view_items_ops, &a);
        return REQ_NONE;
    }
    return r;
}

const view_ops view_parts_ops = {
    .follows = true,
    .name = "partitions",
    .priv_size = sizeof(parts_view),
    .open = parts_open,
    .title = parts_title,
    .draw = parts_draw,
    .request = parts_request,
    .done = parts_done,
    .free_line = parts_free_line,
    .kind_name = parts_kind_name,
    .text = parts_text,
};
