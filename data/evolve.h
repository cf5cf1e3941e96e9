/*
 * evolve — `ddbx evolve`'s engine: new key attributes computed from each
 * item's own (model/keytmpl.h) and written onto a table's items, then a
 * GSI created on them.
 *
 * The pass (evolve_run) reads the table in Scan pages through store_exec
 * (local and remote stores alike) and decides each item: it gets the new
 * attributes, already has them (an earlier run), or is left out with a
 * reason (an attribute missing, a type that cannot be a key, the target
 * attribute holding another value, which is never overwritten). A dry run
 * only counts (and may put each item, with its new attributes, into a
 * scratch copy for re-costing the patterns). Otherwise each item is
 * written with a conditional UpdateItem: the new attributes set only if
 * they are still absent and every attribute they were built from still
 * holds what was read; an item changed meanwhile is read again and
 * decided again (at most EVOLVE_RETRIES times), then named. Writes keep
 * to the rate given (write units a second, from each write's consumed
 * capacity).
 *
 * The checkpoint: a JSON file (sp->checkpoint) rewritten after every
 * EVOLVE_PAGE items with the key of the last item decided and the counts
 * so far. A run that finds one for the same table, index, templates and
 * store goes on after that key; one for anything else is refused. It is
 * removed when the pass ends. Items written after the last checkpoint
 * (a kill) are found holding their values and counted as already done:
 * nothing is written twice.
 *
 * Ownership: the store and spec are the caller's; counts are filled
 * (evolve_counts_init first, evolve_counts_done after).
 */
#ifndef DDBX_EVOLVE_H
#define DDBX_EVOLVE_H

#include <stdbool.h>
#include <stdint.h>

#include "data/store.h"
#include "model/keytmpl.h"

#define EVOLVE_PAGE 500
#define EVOLVE_RETRIES 3

typedef struct evolve_reason {
    char *text;            /* "an attribute missing: status" */
    uint64_t n;
} evolve_reason;

typedef struct evolve_counts {
    uint64_t read;         /* items decided (with those of a resumed run) */
    uint64_t gets;         /* items that get (or, dry, would get) the attributes */
    uint64_t written;      /* of them, written by this run */
    uint64_t written_before;   /* by the runs before it (the checkpoint's) */
    uint64_t already;      /* items holding the values already */
    uint64_t left_out;     /* the sum of why[] */
    uint64_t retried;      /* conditional writes that failed and were decided again */
    double wcu;            /* write units consumed */
    double rcu;            /* read units consumed */
    evolve_reason *why;
    size_t n_why;
    char **named;          /* keys (DynamoDB JSON) of items changed meanwhile, not written */
    size_t n_named;
    av before, after;      /* the first item that gets them, before and after; AV_NONE: none */
    av_type hash_type, range_type;   /* the new key's types (from the first value; AV_NONE) */
    av_type part_types[2][SCHEMA_MAX_KEY_PARTS];   /* a named key's parts' types (first seen) */
    bool resumed;          /* went on from a checkpoint */
    bool stopped;          /* stop() said so: the checkpoint holds where */
    bool wrote_any;        /* this run sent a write */
} evolve_counts;

typedef struct evolve_spec {
    const char *table, *index;
    const keytmpl *hash, *range;  /* range NULL: no sort key */
    const index_def *ix;          /* the index to create as it is (the explorer's simulated
                                     one: its types and projection); NULL: from the templates */
    const char *where;            /* the store's name (a path, an endpoint) in the checkpoint */
    const char *checkpoint;       /* the checkpoint file; NULL: none */
    double rate;                  /* write units a second; 0: no limit */
    bool dry;                     /* count only */
    store *copy;                  /* dry: each item, with what it gets, is put here (NULL: not) */
    bool (*stop)(void *ctx);      /* asked after each item; NULL: never */
    void (*progress)(void *ctx, const evolve_counts *c);  /* after each page; NULL: none */
    /* Called once, before the first write (the caller's backup); not
     * ST_OK ends the pass with nothing written. NULL: none. */
    status (*first_write)(void *ctx, diag *d);
    void *ctx;
} evolve_spec;

void evolve_counts_init(evolve_counts *c);
void evolve_counts_done(evolve_counts *c);

/* The pass. ST_OK also when stopped (c->stopped). d: a store error, or
 * a checkpoint of another evolution (ST_USAGE, naming it). */
status evolve_run(store *s, const evolve_spec *sp, evolve_counts *c, diag *d);

/* The GSI on the new attributes (or the named ones) with projection ALL,
 * through UpdateTable; then DescribeTable until it is ACTIVE (at most
 * timeout_s seconds). Already there with the same keys: ST_OK, *existed. */
status evolve_create_index(store *s, const evolve_spec *sp, const evolve_counts *c, double timeout_s,
                           bool *existed, diag *d);

#endif
