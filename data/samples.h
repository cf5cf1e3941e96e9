/*
 * samples — the bundled sample tables, compiled into the binary.
 *
 * The sample data sets live in assets/samples/ as NoSQL Workbench model
 * files (each one table: definition, indexes and items), so they also open
 * in Workbench. The build turns them into byte arrays (tools/embed.sh ->
 * $(BUILD)/gen/samples_data.c, linked into the data layer); samples_load
 * feeds each one through the import module's Workbench reader into the
 * store, dropping and recreating the table when it exists.
 *
 * Ownership: samples_assets is static, read-only data. The store is the
 * caller's; samples_load neither opens nor closes it.
 */
#ifndef DDBX_SAMPLES_H
#define DDBX_SAMPLES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/status.h"

typedef struct samples_asset {
    const char *name;              /* file name, e.g. "SocialGraph.json" */
    const unsigned char *data;     /* the file's bytes, NUL after the last */
    size_t len;                    /* without the NUL */
} samples_asset;

/* Defined in the generated file; in file-name order. */
extern const samples_asset samples_assets[];
extern const size_t samples_n_assets;

/* The samples' access-pattern files (assets/patterns/, one a design:
 * SocialGraph, StudentCourses, Music with ProfileHistory; the format is
 * data/pattern_file.h's), generated the same way. */
extern const samples_asset samples_pattern_assets[];
extern const size_t samples_n_pattern_assets;

/* The DynamoDB price file (assets/prices/dynamodb.json, data/price_file.h),
 * generated the same way. */
extern const samples_asset samples_price_assets[];
extern const size_t samples_n_price_assets;

/* The asset whose name is `name` (with or without ".json"), or NULL. */
const samples_asset *samples_find(const char *name);

/*
 * (Re)creates every sample table and loads its items: an existing table of
 * the same name is deleted first. Each table loads in one transaction.
 * *tables and *items (may be NULL) receive the counts loaded.
 */
status samples_load(store *s, size_t *tables, size_t *items, diag *d);

/*
 * What loading the samples again would replace: per sample table, whether
 * the database has it and how its items differ from the shipped ones
 * (model/tdiff, the shipped samples as A, the table now as B: added are
 * items the samples lack, removed the samples' items the table lacks).
 * A table whose key schema is not the sample's counts as changed whole
 * (keys_differ). *out (malloc'd, samples_n_assets entries) is the
 * caller's: samples_deltas_free.
 */
typedef struct samples_delta {
    char *table;
    bool exists;           /* the database has a table of that name */
    bool keys_differ;      /* ... with another key schema */
    uint64_t added, removed, changed, same;
} samples_delta;

status samples_compare(store *s, samples_delta **out, size_t *n, diag *d);
void samples_deltas_free(samples_delta *v, size_t n);

/*
 * Writes the samples' pattern files into dir (created, 0700, when
 * missing), each replaced whole (a temporary file, then a rename). The
 * paths written are appended to written, one a line.
 */
status samples_write_patterns(const char *dir, buf *written, diag *d);

#endif
