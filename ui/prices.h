/*
 * prices — the explorer's DynamoDB prices: the built-in price file
 * (data/price_file.h), for the session's region (a remote endpoint's, when
 * the file has it; else us-east-1), read once. The views put the money
 * beside the capacity units they show (ui/cli_cost.h does the text).
 *
 * Ownership: the table is the module's, for the whole session.
 */
#ifndef DDBX_PRICES_H
#define DDBX_PRICES_H

#include <stdbool.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/cost.h"
#include "model/entity.h"

/* The region to price in (copied); NULL: us-east-1. Before the first use. */
void prices_set_region(const char *region);
/* The prices; false when the file cannot be read (nothing is shown). */
bool prices_get(const price_table **pt, const price_region **p);
/* "$0.0625/M calls" (on-demand, per million calls of units read or write
 * units), appended; nothing without prices. */
void prices_per_million(double units, bool write, buf *out);
/* "≈935.5 KB, ≈117 RCU, ≈$0.0000146 on demand": what reading the whole
 * table or index (index NULL: the table) costs, from DescribeTable's size
 * (store_read_cost), appended; what a remote read asks before it reads
 * everything (issue 42). */
void prices_read_all(const char *table, const char *index, buf *out);
/* The same, and the parallel Scan segments the read goes in when more
 * than one (data/store_wscan.h's plan): what `/`, `:load-all` and V over
 * a Scan ask before they read a remote table whole. */
void prices_read_all_plan(const char *table, const char *index, buf *out);
/* The table's storage a month with its indexes, at p (NAN when a size
 * cannot be read; `:what-if`'s figure). */
double prices_storage_month(store *st, const ent_table *t, const price_region *p);


#endif
