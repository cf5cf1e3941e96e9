/*
 * pull — copy a remote DynamoDB table (schema and items) into the local
 * store, for `ddbx pull`.
 *
 * DescribeTable gives the key schema, attribute definitions, GSIs and LSIs
 * with their projections; the local table is created from them (refused
 * when a local table of that name exists). Then a parallel Scan: one
 * thread and one remote connection per segment, each page's items decoded
 * on its thread and handed to the one writer (the caller's thread: the
 * store is one SQLite connection, not thread-safe), which writes them in
 * large transactions (store_begin / store_put_item / store_commit).
 *
 * When the copy does not finish (an error, or *stop set, e.g. by Ctrl-C)
 * the open transaction is rolled back and the partial local table is
 * deleted, so the database holds either the whole copy or nothing of it,
 * and the same pull can simply be run again.
 *
 * Ownership: the caller owns the store and the options' strings; pull
 * opens and closes its remotes. The progress callback runs on the
 * caller's thread (between writes), never concurrently with itself.
 */
#ifndef DDBX_PULL_H
#define DDBX_PULL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "data/remote.h"
#include "data/store.h"
#include "model/status.h"

typedef struct pull_progress {
    uint64_t items;          /* written into the local table */
    uint64_t pages;          /* Scan pages received */
    double capacity;         /* read capacity units consumed (as reported) */
    int segments_done;
    int segments;
    double seconds;          /* since the Scan began */
    unsigned long retries;   /* HTTP retries so far, all segments */
    char from[512];          /* remote_describe of the source (in the totals) */
} pull_progress;

typedef void (*pull_progress_fn)(const pull_progress *p, void *ud);

typedef struct pull_opts {
    const remote_opts *remote;
    const char *table;          /* the remote table */
    const char *as;             /* the local name; NULL: the same name */
    int segments;               /* 1..1000000 (DynamoDB's TotalSegments range) */
    int batch;                  /* items per local transaction; 0: 10000 */
    volatile sig_atomic_t *stop;/* set (e.g. from SIGINT) to stop; may be NULL */
    pull_progress_fn progress;  /* called about every interval_ms; may be NULL */
    int interval_ms;            /* 0: 500 */
    void *ud;
} pull_opts;

/* DescribeTable's answer (the JSON body) -> a CreateTable request for a
 * table named as with the same keys, attribute definitions and indexes
 * with their projections; on-demand, unless settings: then the billing
 * mode and throughput (a provisioned table's) and the stream setting too
 * (`ddbx push`). *out malloc'd. */
status pull_create_request(const char *describe, const char *as, bool settings, char **out,
                           diag *d);

/* Runs the pull. On ST_OK *done holds the totals. When stopped through
 * *stop the status is ST_IO with "interrupted" and nothing is left behind. */
status pull_run(store *st, const pull_opts *o, pull_progress *done, diag *d);

#endif
