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
 * With a mask (model/mask.h: `ddbx pull --mask`), every item is masked on
 * its segment's thread before it is written, by the rules bound to the
 * table's keys and indexes once DescribeTable has given them; a rule that
 * would fake, redact or drop a key attribute fails the pull before any
 * item is read (the local table is removed), its line and column in d.
 *
 * Ownership: the caller owns the store, the mask and the options'
 * strings; pull opens and closes its remotes. The progress callback runs on the
 * caller's thread (between writes), never concurrently with itself.
 */
#ifndef DDBX_PULL_H
#define DDBX_PULL_H

#include <signal.h>
#include <stdint.h>

#include "data/remote.h"
#include "data/store.h"
#include "model/mask.h"
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
    uint64_t masked;         /* values the mask changed or dropped */
    char mask_keys[512];     /* with a mask: what it does to the keys (mask_plan_describe) */
    char mask_rules[4096];   /* at the end: one line a rule, what it took (mask_tally_rules) */
    char mask_clear[1024];   /* at the end: the strings no rule took (mask_tally_clear) */
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
    const mask *mask;           /* may be NULL: items copied as they are */
    const char *mask_name;      /* the rules' file, for the errors of mask_bind */
    void *ud;
} pull_opts;

/* Runs the pull. On ST_OK *done holds the totals. When stopped through
 * *stop the status is ST_IO with "interrupted" and nothing is left behind. */
status pull_run(store *st, const pull_opts *o, pull_progress *done, diag *d);

#endif
