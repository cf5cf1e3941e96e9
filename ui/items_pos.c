#include "ui/items_pos.h"

#include "ui/text.h"

#include <string.h>

#include "data/store_search.h"
#include "ui/text.h"

void items_pos_reset(items_pos *c)
{
    av_done(&c->pk);
    av_done(&c->item);
    c->valid = c->item_valid = false;
}

void items_pos_done(items_pos *c)
{
    items_pos_reset(c);
}

/* The item last numbered among the loaded lines near the selection: how
 * many places after it the selection is (counted along items of the
 * partition only); false when it is not within reach. */
static bool counted(const items_pos *c, items_pos_near_fn near, void *ctx, long *delta)
{
    if (!near)
        return false;
    bool up = true, down = true;
    for (long k = 1; k <= ITEMS_POS_REACH && (up || down); k++) {
        const av *a = up ? near(ctx, -k) : NULL, *b = down ? near(ctx, k) : NULL;
        up = a != NULL;
        down = b != NULL;
        if (a && av_equal(a, &c->item)) {
            *delta = k;
            return true;
        }
        if (b && av_equal(b, &c->item)) {
            *delta = -k;
            return true;
        }
    }
    return false;
}

/* The partition's half (number, items before it), once per partition;
 * then the item's, once per item, counted from the last one when it is
 * near. Failures (a remote table) leave 0: the totals only. */
static void compute(items_pos *c, store *st, const char *table, const char *index, const av *pk,
                    const av *item, items_pos_near_fn near, void *ctx)
{
    store_pos pos;
    diag d;
    diag_init(&d);
    bool part = !c->valid || !av_equal(&c->pk, pk);
    if (part) {
        items_pos_reset(c);
        av_copy(&c->pk, pk);
        c->valid = true;
        c->part_no = c->before_part = 0;
    }
    if (item && c->item_valid && av_equal(&c->item, item) && !part)
        return;
    long delta;
    if (item && c->item_valid && !part && c->item_no && counted(c, near, ctx, &delta)) {
        c->item_no = (uint64_t)((long long)c->item_no + delta);
        av_done(&c->item);
        av_copy(&c->item, item);
        return;
    }
    av_done(&c->item);
    c->item_valid = false;
    if (!part && !item)
        return;
    c->asked++;
    if (store_position(st, table, index, pk, part, item, &pos, &d) == ST_OK) {
        if (part) {
            c->part_no = pos.part_no;
            c->before_part = pos.before_part;
        }
        c->item_no = item ? c->before_part + pos.in_part + 1 : 0;
    } else {
        c->item_no = 0;
    }
    if (item) {
        av_copy(&c->item, item);
        c->item_valid = true;
    }
}

void items_pos_step_part(items_pos *c, const av *from, const av *to, int dir, uint64_t items)
{
    if (!c->valid || !c->part_no || !av_equal(&c->pk, from) || (dir < 0 && (c->part_no < 2 || c->before_part < items))) {
        items_pos_reset(c);
        return;
    }
    uint64_t part_no = dir > 0 ? c->part_no + 1 : c->part_no - 1;
    uint64_t before = dir > 0 ? c->before_part + items : c->before_part - items;
    items_pos_reset(c);
    av_copy(&c->pk, to);
    c->valid = true;
    c->part_no = part_no;
    c->before_part = before;
}

void items_pos_text(items_pos *c, store *st, const char *table, const char *index, const av *pk,
                    const av *item, items_pos_near_fn near, void *ctx, const table_stats *vst,
                    buf *out)
{
    unsigned long long n = vst->items, m = vst->partitions;
    const char *ns = n == 1 ? "" : "s", *ms = m == 1 ? "" : "s";
    if (pk)
        compute(c, st, table, index, pk, item, near, ctx);
    text_title_part(out, 1);
    if (pk && item && c->item_valid && c->item_no) {
        buf_printf(out, "  item %llu of %llu", (unsigned long long)c->item_no, n);
        text_title_part(out, 3);
        buf_printf(out, " · partition %llu of %llu", (unsigned long long)c->part_no, m);
    } else if (pk && c->part_no) {
        buf_printf(out, "  partition %llu of %llu", (unsigned long long)c->part_no, m);
        text_title_part(out, 3);
        buf_printf(out, " · %llu item%s", n, ns);
    } else {
        buf_printf(out, "  %llu item%s", n, ns);
        text_title_part(out, 3);
        buf_printf(out, ", %llu partition%s", m, ms);
    }
}
