/*
 * push — local tables to a DynamoDB endpoint (`ddbx push`): the reverse
 * of pull. NoSQL Workbench calls it "commit to DynamoDB".
 *
 * push_plan looks at each table and at the endpoint, sending only reads:
 * the definition (keys, indexes with projections, billing mode, streams,
 * TTL), how many items and what writing them costs in write units (each
 * item's own, and its index copies), and whether the target exists. A
 * target that exists is refused unless it is a push of ours that was
 * interrupted (its state file says so, and the table's creation time and
 * ARN are the ones recorded), which is resumed; or unless replace is set,
 * when the plan says the table will be deleted and made again.
 *
 * push_run then creates each table (waiting for ACTIVE), sets its TTL,
 * and with items copies them in key order with BatchWriteItem, 25 a
 * request, resending UnprocessedItems with a growing pause. After every
 * acknowledged batch the state file records the last key written, so an
 * interrupted push (an error, Ctrl-C through *stop, a kill) goes on from
 * there when run again; a finished one removes its state. Nothing is sent
 * to a table the push did not create.
 *
 * The state files live in state_dir (created 0700), one per endpoint and
 * target table.
 *
 * Ownership: the local store, the remote and the options' strings are the
 * caller's; a plan owns its tables (push_plan_done).
 */
#ifndef DDBX_PUSH_H
#define DDBX_PUSH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "data/remote.h"
#include "data/store.h"
#include "model/ddbreq.h"
#include "model/schema.h"
#include "model/status.h"

/* The largest target whose items a --replace plan counts with a Scan
 * (by DescribeTable's ItemCount and TableSizeBytes), and the most Scan
 * pages (1 MB each at most) the count reads. */
#define PUSH_COUNT_ITEMS 100000
#define PUSH_COUNT_BYTES (100u << 20)
#define PUSH_COUNT_PAGES 200

/* Items a BatchWriteItem carries (DynamoDB's limit). */
#define PUSH_BATCH 25

typedef struct push_opts {
    const char *const *tables;  /* local tables */
    size_t n_tables;
    const char *as;             /* the target's name (one table only); NULL: the same */
    bool with_items, replace;
    const char *state_dir;
    volatile sig_atomic_t *stop;/* set (SIGINT) to stop after the batch in flight */
} push_opts;

typedef struct push_table {
    char *table, *target;
    table_def def;
    char *ttl;                 /* TTL attribute; NULL: disabled */
    ddb_req create;            /* the CreateTable request */
    char *billing;             /* "PAY_PER_REQUEST" or "PROVISIONED (R RCU, W WCU)" */
    char *streams;             /* "NEW_AND_OLD_IMAGES", or NULL: off */
    uint64_t items, bytes;
    uint64_t write_units;      /* every item's, with its index copies */
    bool exists;               /* the target is there already */
    /* What the target holds, when it exists and replace is set (what the
     * DeleteTable loses): its items counted now with a Select COUNT Scan
     * (counted) when DescribeTable says it is small (PUSH_COUNT_ITEMS,
     * PUSH_COUNT_BYTES), else DescribeTable's ItemCount, which DynamoDB
     * updates about every 6 hours; a count that ran PUSH_COUNT_PAGES
     * pages without reaching the end says so (partial: at least there_items).
     * there_bytes is DescribeTable's TableSizeBytes (as stale). */
    uint64_t there_items, there_bytes;
    bool there_counted, there_partial;
    bool resume;               /* ...made by an interrupted push of ours */
    uint64_t done;             /* items it had written */
    av last;                   /* the last key it wrote; AV_NONE: none */
} push_table;

typedef struct push_plan {
    push_table *t;
    size_t n;
    char *where;               /* the endpoint, as remote_describe says */
} push_plan;

void push_plan_done(push_plan *p);

/* The plan (every local table read once for its write units). A local
 * table that is missing, or --as with several tables, is an error. */
status push_plan_make(store *local, remote *r, const push_opts *o, push_plan *out, diag *d);

typedef struct push_progress {
    const char *table;
    uint64_t items, total;     /* written (with a resumed push's), of */
    uint64_t requests;         /* BatchWriteItem requests sent */
    uint64_t unprocessed;      /* items DynamoDB handed back and were sent again */
    double units;              /* write units consumed, as reported */
} push_progress;

typedef void (*push_progress_fn)(const push_progress *p, void *ud);

/* Carries the plan out. ST_IO "interrupted" when *stop was set (the state
 * is kept: run again to resume). */
status push_run(store *local, remote *r, const push_opts *o, const push_plan *plan,
                push_progress_fn progress, void *ud, diag *d);

#endif
