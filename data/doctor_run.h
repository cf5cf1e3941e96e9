/*
 * doctor_run — `ddbx doctor` and `:doctor` on one table of a store:
 * reads its items (data/table_read.h: all of a local table; a sample of a
 * remote or very big one, which the report's notes say), its TTL setting
 * and its largest partitions, infers its entities, and hands everything
 * to model/doctor.h for the findings. Nothing is written.
 *
 * Ownership: the store, the declared model table and the pattern sets are
 * the caller's; the report is filled (doctor_report_init first).
 */
#ifndef DDBX_DOCTOR_RUN_H
#define DDBX_DOCTOR_RUN_H

#include "data/store.h"
#include "data/table_read.h"
#include "model/doctor.h"

/* Partitions of the table and of each index looked at for hot spots. */
#define DOCTOR_RUN_PARTITIONS 5

/* sample: as table_read_items (0: every item); now: epoch seconds. */
status doctor_run(store *s, const char *table, const ent_table *declared,
                  const pattern_set *const *sets, size_t n_sets, uint64_t sample, double now,
                  doctor_report *out, table_read *info, diag *d);

#endif
