#include "ui/items_pos.h"

#include "ui/text.h"

#include <string.h>

#include "data/store_search.h"
#include "ui/display.h"
#include "ui/text.h"

void items_pos_reset(items_pos *c)
{
    av_free(&c->pk);
    av_free(&c->item);
    c->valid = c->item_valid = false;
}

void items_pos_done(items_pos *c)
{
    items_pos_reset(c);
}

/* The partition's half (number, items before it), once per partition;
 * then the item's, once per item. Failures (a remote table) leave 0:
 * the totals only. */
static void compute(items_pos *c, const char *table, const char *index, const av *pk,
                    const av *item)
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
    av_free(&c->item);
    c->item_valid = false;
    if (!part && !item)
        return;
    if (store_position(display_store(), table, index, pk, part, item, &pos, &d) == ST_OK) {
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

void items_pos_text(items_pos *c, const char *table, const char *index, const av *pk,
                    const av *item, const table_stats *vst, buf *out)
{
    unsigned long long n = vst->items, m = vst->partitions;
    const char *ns = n == 1 ? "" : "s", *ms = m == 1 ? "" : "s";
    if (pk)
        compute(c, table, index, pk, item);
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
