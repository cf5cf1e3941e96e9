/*
 * items_pos — "item x of y · partition x of y" for the table view's title:
 * where the selection stands in the whole table or index, not in the
 * window of loaded lines. Asked of the store (store_position): the
 * partition's half once per partition, the item's once per item, unless
 * the item it was last computed for is among the view's loaded lines a
 * few places away in the same partition: then its number is counted
 * along them (issue 27: the store's count reads every item before it, 25
 * ms a key in a partition of 100,000 items, so walking one was
 * quadratic), or the partition is the next or previous one
 * (items_pos_step_part). A remote table, which has no ordered count,
 * shows the totals only.
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
    uint64_t asked;       /* store_position calls made (for tests) */
} items_pos;

/* The view's loaded lines around the selection: the item of the line k
 * places after it (before, k < 0), or NULL when that line is no item of
 * the selection's partition or is not loaded. */
typedef const av *(*items_pos_near_fn)(void *ctx, long k);

/* How far from the selection the item last numbered is looked for. */
#define ITEMS_POS_REACH 200

/* Forgets the numbers (after a reload or a change of index). */
void items_pos_reset(items_pos *c);
void items_pos_done(items_pos *c);

/* The selection moved from the partition the numbers are of (`from`) to
 * the one right after it (dir > 0) or right before (dir < 0), `to`: the
 * partition numbers follow from `items`, the item count of `from` (dir >
 * 0) or of `to` (dir < 0), without the store's count of every partition
 * before (9 ms a key at the end of a table of 100,000 partitions). Forgets
 * the numbers when they are of another partition. */
void items_pos_step_part(items_pos *c, const av *from, const av *to, int dir, uint64_t items);

/* Appends "  item X of N · partition Y of M" (item selected), "  partition
 * Y of M · N items" (a header), or "  N items, M partitions" (nothing, or
 * not known), where N and M are the view's totals (vst): title parts
 * (ui/text.h), the first of rank 1, the second of rank 3. */
void items_pos_text(items_pos *c, store *st, const char *table, const char *index, const av *pk,
                    const av *item, items_pos_near_fn near, void *ctx, const table_stats *vst,
                    buf *out);

#endif
