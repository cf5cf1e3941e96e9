/*
 * store_search — the explorer's `/`: the next item of a table or index, in
 * the order the table view shows it, whose key or attribute values
 * contain a text, found in the store rather than among the loaded lines.
 *
 * The order: local, partition key order then sort key (for an index the
 * index's keys, then the table's, as its B-tree has them); remote, the
 * order a Scan returns items (which is the order the remote table view
 * discovers its partitions in), read with Scan pages through store_exec.
 *
 * store_position says where an item stands in that order ("item x of y").
 * SQLite counts rows one by one, so the partition's number would cost a
 * count of every partition before it (5 ms at the end of an index of
 * 100,000 partitions, on every move to another partition): once a file
 * version is asked twice for one table or index, one pass over its
 * partitions keeps every 256th one's key, number and items before it,
 * and a count then reads at most 256 rows from the checkpoint before.
 *
 * One call examines at most `budget` items and says where it stopped, so
 * the caller can search a table of millions in bounded chunks, redraw a
 * progress line between them and stop when the user presses Esc.
 *
 * What matches: the text, compared case-insensitively (ASCII), inside the
 * value of an S or N attribute, of an SS or NS element, or of such a value
 * anywhere inside an L or M, of the item as the view shows it (for an
 * index, its projection). Attribute names, binary values, BOOL and NULL
 * do not match, except that a text holding '=' or a space (copied from a
 * line of the view: "PK=USER#024 SK=ITEM#079") is also looked for in the
 * item's line: its top-level attributes as name=value, in name order,
 * one space between (scalars as av_scalar_text writes them).
 *
 * Ownership: the request's pointers are borrowed; the result's avs are
 * the caller's, freed with store_search_res_done.
 */
#ifndef DDBX_STORE_SEARCH_H
#define DDBX_STORE_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"

typedef struct store_search_req {
    const char *table;
    const char *index;      /* NULL: the base table */
    const av *after;        /* start after this item or key map (it needs the
                               table's keys, and for an index the index's);
                               NULL: from the first item (the last, backward) */
    bool backward;          /* local only; a remote store answers ST_VALIDATION */
    const char *text;
    size_t len;             /* > 0 */
    size_t budget;          /* items to examine in this call; 0: 10,000
                               (remote: one Scan page of 1 MB, or of
                               store_set_scan_limit's items) */
} store_search_req;

typedef struct store_search_res {
    bool found;             /* item is the match */
    av item;                /* the match, as the view shows it; AV_NONE */
    bool end;               /* not found and nothing is left after the start */
    av resume;              /* not found, not at the end: pass as `after` to
                               go on (the keys of the last item examined, or
                               a remote Scan's LastEvaluatedKey) */
    uint64_t examined;      /* items looked at by this call */
} store_search_res;

void store_search_res_init(store_search_res *r);
void store_search_res_done(store_search_res *r);

status store_search(store *s, const store_search_req *rq, store_search_res *out, diag *d);

/*
 * Where the table view stands, in the view's order: with `part`, the
 * 1-based number of partition pk among the partitions and how many items
 * the partitions before it hold; with item (NULL: not asked), how many
 * items of pk come before it. Its number among all the items is then
 * before_part + in_part + 1. The two halves are separate so that the
 * caller asks the partition's (a scan of the partition counts before it)
 * once per partition, and only the item's as the selection moves inside
 * one. Local stores only (a remote table has no ordered count without
 * reading it): ST_VALIDATION there.
 */
typedef struct store_pos {
    uint64_t part_no, before_part, in_part;
} store_pos;
status store_position(store *s, const char *table, const char *index, const av *pk, bool part,
                      const av *item, store_pos *out, diag *d);
/* The VDBE steps store_position's statements have taken on s (SQLite's
 * SQLITE_STMTSTATUS_VM_STEP, a count of operations), for the tests that
 * keep a partition's number from costing a count of all before it. */
uint64_t store_position_steps(store *s);

/* Whether v (an attribute value) holds the text as store_search matches
 * values (not lines); for tests and for views that check a loaded item. */
bool store_search_value_matches(const av *v, const char *text, size_t len);
/* Whether an item (as the view shows it) matches, values or line. */
bool store_search_item_matches(const av *item, const char *text, size_t len);

#endif
