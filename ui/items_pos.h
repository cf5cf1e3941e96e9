/*
 * items_pos — "item x of y · partition x of y" for the table view's title:
 * where the selection stands in the whole table or index, not in the
 * window of loaded lines. Asked of the store (store_position): the
 * partition's half once per partition, the item's once per item; a remote table, which has no ordered count, shows
 * the totals only.
 *
 * Ownership: an items_pos is embedded in the view (zeroed to start) and
 * owns a copy of the line it was computed for; items_pos_done frees it.
 */
#ifndef DDBX_ITEMS_POS_H
#define DDBX_ITEMS_POS_H

#include <stdbool.h>
#include <stdint.h>

#include "data/store.h"
#include "model/buf.h"

typedef struct items_pos {
    av pk;                /* the partition the numbers are of (valid) */
    uint64_t part_no, before_part;
    av item;              /* the item item_no is of (item_valid) */
    uint64_t item_no;
    bool valid, item_valid;
} items_pos;

/* Forgets the numbers (after a reload or a change of index). */
void items_pos_reset(items_pos *c);
void items_pos_done(items_pos *c);

/* Appends "  item X of N · partition Y of M" (item selected), "  partition
 * Y of M · N items" (a header), or "  N items, M partitions" (nothing, or
 * not known), where N and M are the view's totals (vst): title parts
 * (ui/text.h), the first of rank 1, the second of rank 3. */
void items_pos_text(items_pos *c, const char *table, const char *index, const av *pk,
                    const av *item, const table_stats *vst, buf *out);

#endif
