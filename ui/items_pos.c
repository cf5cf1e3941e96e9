#include "ui/items_pos.h"

#include <string.h>

#include "data/store_search.h"
#include "ui/display.h"

void items_pos_reset(items_pos *c)
{
    av_free(&c->pk);
    av_free(&c->item);
    c->valid = false;
}

void items_pos_done(items_pos *c)
{
    items_pos_reset(c);
}

/* Whether the numbers kept are those of this line. */
static bool same(const items_pos *c, const av *pk, const av *item)
{
    if (!c->valid || !av_equal(&c->pk, pk))
        return false;
    return item ? c->item.type && av_equal(&c->item, item) : !c->item.type;
}

static void compute(items_pos *c, const char *table, const char *index, const av *pk,
                    const av *item)
{
    items_pos_reset(c);
    diag d;
    diag_init(&d);
    if (store_position(display_store(), table, index, pk, item, &c->item_no, &c->part_no, &d) !=
        ST_OK)
        c->item_no = c->part_no = 0;   /* remote, or a failure: totals only */
    av_copy(&c->pk, pk);
    if (item)
        av_copy(&c->item, item);
    c->valid = true;
}

void items_pos_text(items_pos *c, const char *table, const char *index, const av *pk,
                    const av *item, const table_stats *vst, buf *out)
{
    unsigned long long n = vst->items, m = vst->partitions;
    if (pk && !same(c, pk, item))
        compute(c, table, index, pk, item);
    if (pk && item && c->item_no)
        buf_printf(out, "item %llu of %llu · partition %llu of %llu",
                   (unsigned long long)c->item_no, n, (unsigned long long)c->part_no, m);
    else if (pk && c->part_no)
        buf_printf(out, "partition %llu of %llu · %llu items", (unsigned long long)c->part_no, m,
                   n);
    else
        buf_printf(out, "%llu items, %llu partitions", n, m);
}
