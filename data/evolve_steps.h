/*
 * evolve_steps — the log of schema changes `ddbx evolve` applied, read
 * for the design document (`ddbx model --format markdown`, "Evolution").
 *
 * The file: DB.evolve.jsonl beside the database file (app.db ->
 * app.db.evolve.jsonl; evolve_steps_path), one JSON object a line,
 * appended by `ddbx evolve` after each run:
 *   {"time":"2026-12-06T04:00:00Z","table":"Orders","index":"ByStatus",
 *    "hash":"STATUS#${status}","range":"${date}","updated":1000000,
 *    "skipped":12,"status":"done"}
 * "status" is what the run ended as ("done", "dry-run", "interrupted",
 * ...); members other than these are kept by the writer's choice and
 * skipped here, and a line that is not an object is skipped (counted).
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

/* "DB.evolve.jsonl" for a database file (malloc'd). */
char *evolve_steps_path(const char *db_path);
/* The steps of the file, in order; *bad counts the lines skipped. ST_IO
 * when the file exists but cannot be read. */
status evolve_steps_read(const char *path, evolve_step **out, size_t *n, size_t *bad, diag *d);
void evolve_steps_free(evolve_step *s, size_t n);

#endif
