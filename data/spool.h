/*
 * spool — items sorted by a key in bounded memory, through a temporary
 * SQLite file: what `ddbx diff` reads a side through when it does not
 * come in key order (a remote table's Scan, an export file, a table
 * compared by another key).
 *
 * Items are added with their key bytes (any byte string whose memcmp
 * order is the order wanted: model/keyenc's encodings of the partition
 * key and then the sort key), each encoded with model/itemenc into a
 * private on-disk SQLite database that SQLite deletes when it is closed.
 * Reading back is SQLite's ORDER BY, which sorts in runs that spill to
 * temporary files and merges them: memory stays within the page cache
 * (SPOOL_CACHE_KB) whatever the number of items, with no sorter written
 * here. Items that were added already in key order are read back in the
 * order they were added, without a sort. Of several items with one key
 * the last added is handed out, and how many it replaced is said.
 *
 * Ownership: the spool owns its database; an item spool_next hands out
 * is the caller's. Not thread-safe.
 */
#ifndef DDBX_SPOOL_H
#define DDBX_SPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/status.h"

#define SPOOL_CACHE_KB 4096

typedef struct spool spool;

status spool_new(spool **out, diag *d);
void spool_free(spool *s);

/* Adds item (AV_M) under key[0..len). */
status spool_add(spool *s, const void *key, size_t len, const av *item, diag *d);

/* Ends adding: the next spool_next reads from the first key. */
status spool_finish(spool *s, diag *d);

/* The next item in key order into an uninitialised *item; *end at the
 * end. *replaced: how many items added before it under the same key it
 * replaces (0 almost always). */
status spool_next(spool *s, av *item, uint64_t *replaced, bool *end, diag *d);

/* Items added; whether they came in key order (no sort was needed). */
uint64_t spool_count(const spool *s);
bool spool_in_order(const spool *s);

#endif
