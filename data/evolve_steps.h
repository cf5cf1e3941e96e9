/*
 * evolve_steps — the log of schema changes `ddbx evolve` applied, read
 * for the design document (`ddbx model --format markdown`, "Evolution").
 *
 * The file: evolve.log in the database's pattern folder (the caller's
 * path: ui/paths.h's paths_patterns_dir + "/evolve.log"), one JSON object
 * a line, appended by `ddbx evolve` and `:apply-index` at each step
 * (ui/cli_evolve_plan.c's evolve_log):
 *   {"time":"2026-12-06T04:00:00Z","step":"backfill","table":"Orders",
 *    "index":"ByStatus","hash":"STATUS#${status}","range":"${date}",
 *    "where":"...","read":1000012,"gets":1000000,"written":1000000,
 *    "already":0,"left_out":12,"backup":"Orders-auto-1"}
 * Read here: time, table, index, hash, range, written (updated), left_out
 * (skipped) and step (status: dry-run, backfill, stopped, index); other
 * members are skipped, and a line that is not an object is skipped
 * (counted).
 * A missing file is no error: no step taken.
 *
 * Ownership: the steps and their strings are the caller's
 * (evolve_steps_free).
 */
#ifndef DDBX_EVOLVE_STEPS_H
#define DDBX_EVOLVE_STEPS_H

#include <stddef.h>

#include "model/status.h"

typedef struct evolve_step {
    char *time, *table, *index, *hash, *range, *status;   /* NULL: absent */
    long long updated, skipped;                            /* -1: absent */
} evolve_step;

/* The steps of the file, in order; *bad counts the lines skipped. ST_IO
 * when the file exists but cannot be read. */
status evolve_steps_read(const char *path, evolve_step **out, size_t *n, size_t *bad, diag *d);
void evolve_steps_free(evolve_step *s, size_t n);

#endif
