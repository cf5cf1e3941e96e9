/*
 * export — writing a table (or one of its indexes) out in the formats
 * DynamoDB users have.
 *
 * A producer/consumer pair again: the store produces items partition by
 * partition, in key order (store_partitions + store_page, a page at a
 * time: the table is never loaded whole), and the caller's writer
 * consumes bytes. Formats:
 *   jsonl      DynamoDB JSON, one item a line, attributes in sorted order
 *              and canonical values, so exports diff cleanly
 *   s3         DynamoDB export-to-S3 lines {"Item": {...}}
 *   aws-cli    the `aws dynamodb scan` output shape {"Items": [...],
 *              "Count": N, "ScannedCount": N, "ConsumedCapacity": null}
 *   workbench  a NoSQL Workbench model (definition, indexes, TableData)
 *   csv        one column per attribute seen, typed cells (see export.c)
 *   plain      plain JSON objects, one a line (lossy: B, sets and N lose
 *              their DynamoDB types)
 * Every format but csv and plain loads back with `ddbx load` to the same
 * items, byte for byte in canonical form. csv and workbench read the
 * table twice (once to learn the attribute names and types).
 *
 * Ownership: the store and the writer's context are the caller's; the
 * writer receives bytes it must copy or write before returning.
 */
#ifndef DDBX_EXPORT_H
#define DDBX_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/status.h"

typedef enum export_format {
    EXPORT_JSONL,
    EXPORT_S3,
    EXPORT_AWS_CLI,
    EXPORT_WORKBENCH,
    EXPORT_CSV,
    EXPORT_PLAIN,
} export_format;

const char *export_format_name(export_format f);
bool export_format_parse(const char *name, export_format *out);

/* Consumes n bytes; a failure (ST_IO with d filled) stops the export. */
typedef status (*export_write_fn)(void *ctx, const char *p, size_t n, diag *d);

typedef struct export_stats {
    uint64_t items, partitions, bytes;
} export_stats;

/*
 * Writes table (index NULL) or index `index` of it in format fmt. The
 * Workbench format exports tables only (an index has no model of its own).
 * st may be NULL.
 */
status export_table(store *s, const char *table, const char *index,
                    export_format fmt, export_write_fn write, void *ctx,
                    export_stats *st, diag *d);

/* Produces item i of n (whole, of the table) into an uninitialised out;
 * out AV_NONE leaves it out (gone meanwhile); a failure stops the export. */
typedef status (*export_item_fn)(void *ctx, size_t i, av *out, diag *d);

/* The same for the items the caller produces, item(ictx, i, ...) for
 * i = 0..n-1 in that order, asked again for the second pass of csv and
 * workbench: the explorer's export of marked items, read from the store
 * as they are written, so they are never all held at once. */
status export_items(store *s, const char *table, export_item_fn item, void *ictx, size_t n,
                    export_format fmt, export_write_fn write, void *ctx,
                    export_stats *st, diag *d);

#endif
