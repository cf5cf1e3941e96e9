/*
 * store_wscan — a whole-table (or whole-index) read on an endpoint in
 * parallel Scan segments (issue 42, item 4): the explorer's `/`,
 * `:load-all` of a Scan and marking every result of a Scan read with it.
 *
 * The plan: DynamoDB's 1 MB pages (no Limit, unless store_set_scan_limit
 * set one for tests or slow links); TotalSegments from the table's size
 * as DescribeTable gives it, one segment a page up to
 * STORE_WSCAN_MAX_SEGMENTS (the worker connections data/remote_wait.c
 * keeps), so a table of S pages or fewer is read in one round trip's
 * time, a larger one in pages / S; one segment when the store cannot send
 * requests together (no store_set_send_many) or the table is one page.
 * Each round sends the next page of every segment not done, together
 * (srem_read_many: the read budget asked first for the whole round; a
 * cancelled wait, Esc, stops every segment in flight). A keys-only read
 * projects the table's keys (and the index's) and nothing else.
 *
 * The order it hands items out in: segment 0's, every page of it, then
 * segment 1's, and so on (a segment's own pages in its Scan order); or,
 * by_round, each round's pages as they come, in segment order. It
 * is not a one-stream Scan's order (how the endpoint spreads partitions
 * over segments is its own), but it is the same every time for the same
 * table; the screen says it (data/store_search.h's order holds only for
 * one segment). Pages of later segments that arrive before their turn
 * wait in memory; `keep` drops the items no one will use (a search keeps
 * only its matches) as they arrive.
 *
 * Ownership: the Scan given is copied; the items store_wscan_next hands
 * out are borrowed until the next call (the caller may av_move them).
 */
#ifndef DDBX_STORE_WSCAN_H
#define DDBX_STORE_WSCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/ddbreq.h"

#define STORE_WSCAN_MAX_SEGMENTS 8

typedef struct store_wscan store_wscan;

/* true: keep the item (hand it out in its turn); false: drop it. */
typedef bool (*store_wscan_keep_fn)(void *ctx, const av *item);

typedef struct store_wscan_opts {
    const ddb_req *scan;     /* a DDB_SCAN: table, index, filter, names,
                                values, projection; its start and limit
                                are the plan's */
    bool keys_only;          /* project the keys only (the table's and the
                                index's), for what needs nothing else */
    int segments;            /* 0: store_wscan_plan's */
    const av *after;         /* one segment only: start after this
                                position (an ExclusiveStartKey) */
    bool by_round;           /* hand items out in the order of the rounds
                                instead: every segment's first page (in
                                segment order), then every second page...;
                                what a search wants (its first match read,
                                however far the other segments are) */
    store_wscan_keep_fn keep;/* NULL: keep every item */
    void *ctx;
} store_wscan_opts;

typedef struct store_wscan_stats {
    int segments, segments_done;
    uint64_t pages, scanned, count, kept;
    double rcu;
} store_wscan_stats;

/* The segments a whole read of table (index NULL: the table) takes, from
 * DescribeTable's size; 1 on a local store. */
int store_wscan_plan(store *s, const char *table, const char *index, diag *d);

status store_wscan_open(store *s, const store_wscan_opts *o, store_wscan **out, diag *d);

/* The next items in segment order, at most one round of requests read to
 * find them (so a caller can draw progress and look for Esc between
 * calls): *items and *n (0 is possible: nothing kept yet); *end when
 * every segment is read and handed out. */
status store_wscan_next(store_wscan *w, av **items, size_t *n, bool *end, diag *d);

void store_wscan_get_stats(const store_wscan *w, store_wscan_stats *out);
void store_wscan_free(store_wscan *w);

#endif
