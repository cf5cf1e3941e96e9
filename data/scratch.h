/*
 * scratch — a throw-away copy of one table in a database file of its own,
 * for `:what-if`: the definition (keys, indexes, projections), the TTL
 * setting and the items (all of a local table; a sample of a remote one),
 * so indexes can be created and deleted and the access patterns rerun on
 * the copy while the table itself is only read.
 *
 * Ownership: the copy's store is the caller's (store_close, then
 * scratch_remove the file); the source store is only read.
 */
#ifndef DDBX_SCRATCH_H
#define DDBX_SCRATCH_H

#include <stdint.h>

#include "data/store.h"
#include "data/table_read.h"

/* Copies the table into a new database file at path (which must not
 * exist); *out is the copy's store, *info what was read. */
status scratch_copy(store *src, const char *table, uint64_t sample, const char *path, store **out,
                    table_read *info, diag *d);
/* Deletes the copy's file and its WAL and shared-memory files. */
void scratch_remove(const char *path);

#endif
