/*
 * table_read — every item of a table, or a sample of a big or remote one,
 * handed to a callback: what `ddbx model`, `ddbx doctor` and the
 * explorer's entities view read a table with.
 *
 * The items come from Scan pages through store_exec (local and remote
 * stores alike; nothing is written). A sample is a parallel Scan's first
 * pages: TABLE_READ_SEGMENTS segments (the store spreads the partitions
 * over them by a hash of the key, as DynamoDB does), each read until its
 * share of the sample, so a sample covers the whole key space rather than
 * its first partitions. The consumed capacity of every page is summed, so
 * the caller can say what reading cost.
 *
 * Ownership: the store is the caller's; the item passed to the callback
 * is borrowed for the call.
 */
#ifndef DDBX_TABLE_READ_H
#define DDBX_TABLE_READ_H

#include <stdbool.h>
#include <stdint.h>

#include "data/store.h"
#include "model/entity.h"
#include "model/status.h"

#define TABLE_READ_SEGMENTS 16
/* The default sample: what `ddbx model` reads of a big or remote table. */
#define TABLE_READ_SAMPLE 10000

typedef struct table_read {
    uint64_t items;        /* items handed to the callback */
    uint64_t pages;        /* Scan requests sent */
    double units;          /* read capacity units they consumed */
    uint64_t total;        /* the table's items as the store counts them */
    bool total_approx;     /* a remote table's DescribeTable count (refreshed
                              about every six hours) */
    bool sampled;          /* items is a sample, not the whole table */
    bool remote;
} table_read;

/* Returns false to stop (the read then ends without an error). */
typedef bool (*table_item_fn)(void *ctx, const av *item);

/*
 * Reads the table: all of it when sample is 0, or when it holds at most
 * sample items and is local; else a sample of about sample items. Fills
 * *out (zeroed first). On a store error d has DynamoDB's message.
 */
status table_read_items(store *s, const char *table, uint64_t sample, table_item_fn fn, void *ctx,
                        table_read *out, diag *d);

/* The table's entities (model/entity.h), inferred from the items
 * table_read_items reads, into an initialised out (ent_table_init); the
 * definition is the store's. */
status table_read_model(store *s, const char *table, uint64_t sample, ent_table *out,
                        table_read *info, diag *d);

#endif
