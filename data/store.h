/*
 * store — the local DynamoDB-like store (SQLite underneath).
 *
 * One SQLite file holds many tables. Two ways in:
 * - store_call: a DynamoDB request body (JSON text) in, the response body
 *   out. This is what `ddbx api`, `ddbx serve` and the tests use.
 * - the narrow C interface below, for the explorer: list tables, describe,
 *   list partitions from a key onward, read a page of one partition from a
 *   sort key onward, in either direction. Nothing loads a whole table.
 *
 * Ownership: the store handle owns its SQLite connection and cached
 * statements. Everything a function returns through an out-parameter is
 * the caller's, freed with the matching *_free or av_free. No SQLite
 * pointer and no cJSON object crosses this header.
 */
#ifndef DDBX_STORE_H
#define DDBX_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/schema.h"
#include "model/status.h"

typedef struct store store;

enum {
    STORE_READ_ONLY = 1 << 0,  /* no write can happen (SQLite opened read-only) */
    STORE_LARGE_CACHE = 1 << 1,/* for servers and batch work (ddbx api, bench):
                                  a 256 MB page cache and memory-mapped reads;
                                  without it the store keeps to a 16 MB cache,
                                  for the explorer's memory bar */
};

/* Opens or creates (owner-only permissions) the database file. */
status store_open(const char *path, unsigned flags, store **out, diag *d);
void store_close(store *s);

/*
 * One DynamoDB operation ("PutItem", "Query", ...). input is the request
 * body. On ST_OK *out is the response body; on an error *out is NULL or,
 * where DynamoDB's error carries more than a message (CancellationReasons,
 * the Item of ReturnValuesOnConditionCheckFailure), a JSON object with
 * those members. d holds the code and DynamoDB's message. *out is malloc'd.
 */
status store_call(store *s, const char *op, const char *input, size_t len,
                  char **out, diag *d);

/* After store_call failed with st: DynamoDB's whole message (d->msg may be
 * cut at diag's size for long validation messages). Valid until the next
 * call on s. */
const char *store_error_message(store *s, status st, const diag *d);

/*
 * One line of `ddbx api`: {"Operation":"PutItem","Input":{...}} in, the
 * response line out (no newline): {"Output":{...}} or
 * {"Error":{"Code":"...","Message":"...", extra members}}. A malformed
 * line gets an Error too. *out is malloc'd; returns the status.
 */
status store_call_line(store *s, const char *line, size_t len, char **out);

/* Table names in order; free with store_names_free. */
status store_list_tables(store *s, char ***names, size_t *n, diag *d);
void store_names_free(char **names, size_t n);

typedef struct table_stats {
    uint64_t items, bytes;
    uint64_t partitions;
} table_stats;

/* Definition (into an uninitialised def; free with table_def_free) and
 * counts. index NULL for the table; else the index's own counts. */
status store_describe(store *s, const char *table, table_def *def, diag *d);
status store_stats(store *s, const char *table, const char *index,
                   table_stats *st, diag *d);

typedef struct part_info {
    av pk;             /* the partition key value */
    uint64_t items, bytes;
} part_info;

/*
 * Up to max partitions of the table (index NULL) or of an index, in key
 * order, starting after `after` (NULL: from the first), or before it when
 * backward. Fills out[0..*n). Free each pk with av_free.
 */
status store_partitions(store *s, const char *table, const char *index,
                        const av *after, bool backward, size_t max,
                        part_info *out, size_t *n, diag *d);

/* Largest partitions first (by items), for the partition overview. */
status store_partitions_by_size(store *s, const char *table, const char *index,
                                size_t max, part_info *out, size_t *n, diag *d);

/*
 * Up to max items of one partition, in sort-key order (forward) or reverse,
 * starting after the item `after` (NULL: from the first). For an index the
 * items carry only the projected attributes and `after` is an item as
 * returned (its table and index keys define the position). Fills
 * items[0..*n) with M avs; free each with av_free.
 */
status store_page(store *s, const char *table, const char *index,
                  const av *pk, const av *after, bool forward, size_t max,
                  av *items, size_t *n, diag *d);

/*
 * Bulk writes for import and samples: many items in one transaction.
 * store_begin opens it; store_put_item validates the item against the
 * table's key schema and limits (as PutItem does, without a condition)
 * and writes it and its index entries; store_commit or store_rollback
 * ends it. Outside a transaction, store_put_item commits on its own.
 */
status store_begin(store *s, diag *d);
status store_put_item(store *s, const char *table, const av *item, diag *d);
status store_commit(store *s, diag *d);
void store_rollback(store *s);

/* Creates a table from a definition (as CreateTable does). */
status store_create_table(store *s, const table_def *def, diag *d);
status store_delete_table(store *s, const char *table, diag *d);

#endif
