/*
 * import — reading items from the files DynamoDB users have, into a sink.
 *
 * A producer/consumer pair. An import_source reads one input (a file,
 * stdin, or bytes in memory), finds out its format, and produces events:
 * table definitions (NoSQL Workbench models) and items. An import_sink
 * consumes them; import_store_sink writes into the store, tests use their
 * own. import_run drives a source into a sink and applies the policy
 * (skip bad items or stop, progress).
 *
 * Formats (import_format):
 *   ddb-json   DynamoDB JSON items: an array [{...},...] or items one after
 *              another (JSON lines, what `ddbx export` writes)
 *   jsonl      the same, by its usual name
 *   s3         DynamoDB export to S3: one {"Item": {...}} a line
 *   aws-cli    `aws dynamodb scan` / `query` output {"Items": [...], ...},
 *              several pages one after another
 *   batch      BatchWriteItem request files {"T": [{"PutRequest":
 *              {"Item": {...}}}, ...]} (the table comes from the file)
 *   workbench  NoSQL Workbench model: creates the tables and indexes, then
 *              loads each table's TableData
 *   plain      plain JSON objects (an array or one after another), types
 *              inferred: lossy (B and sets cannot be told from S and L)
 * Everything but workbench streams: the source holds one element at a time
 * (a streaming scanner finds element boundaries; each element is parsed on
 * its own), so memory does not grow with the file. A Workbench model is
 * read whole (Workbench itself keeps models in memory).
 *
 * Errors name the file, the line and column (1-based, bytes) where the
 * element starts or where the JSON is broken, the item's number (from 1,
 * as lines are: "item 3" is the input's third item) in the message, and
 * the attribute path (diag.path).
 *
 * Ownership: a source owns its file handle (not stdin's), its buffers and
 * the strings it hands out, which stay valid until the next call on it. An
 * event's item and table definition belong to the event until
 * import_event_done. A sink's context is the caller's; the store sink owns
 * nothing but its bookkeeping and borrows the store.
 */
#ifndef DDBX_IMPORT_H
#define DDBX_IMPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/av.h"
#include "model/schema.h"
#include "model/status.h"

typedef enum import_format {
    IMPORT_AUTO,
    IMPORT_DDB_JSON,
    IMPORT_JSONL,
    IMPORT_S3,
    IMPORT_AWS_CLI,
    IMPORT_BATCH,
    IMPORT_WORKBENCH,
    IMPORT_PLAIN,
} import_format;

/* "auto", "ddb-json", ...; false when unknown. */
const char *import_format_name(import_format f);
bool import_format_parse(const char *name, import_format *out);

typedef struct import_source import_source;

/* path "-" reads stdin. fmt IMPORT_AUTO detects the format from the first
 * bytes (a bounded look-ahead, so it works on pipes too). */
status import_source_open(const char *path, import_format fmt,
                          import_source **out, diag *d);
/* The same over bytes the caller keeps alive until import_source_free;
 * name is used in messages. */
status import_source_open_mem(const char *name, const void *data, size_t len,
                              import_format fmt, import_source **out, diag *d);
void import_source_free(import_source *src);

/* The format in use (the detected one after open). */
import_format import_source_format(const import_source *src);

typedef enum {
    IMPORT_EV_END,       /* no more input */
    IMPORT_EV_TABLE,     /* def holds a table definition */
    IMPORT_EV_ITEM,      /* item holds an item */
} import_ev_kind;

typedef struct import_event {
    import_ev_kind kind;
    /* The table the input names for this item (batch, workbench), or NULL
     * (the caller's choice applies). Owned by the source. */
    const char *table;
    table_def def;       /* EV_TABLE */
    av item;             /* EV_ITEM: an AV_M */
    uint64_t index;      /* EV_ITEM: 0-based position among the input's items */
    int line, col;       /* where the element starts */
} import_event;

/*
 * The next event. On an error in one element (bad JSON inside it, a bad
 * value), returns the error with d filled and the source positioned after
 * that element: the caller may go on (import_source_broken false). When
 * the input itself is broken (unbalanced, truncated, not the format), the
 * source is broken and every later call returns the same error.
 */
status import_source_next(import_source *src, import_event *ev, diag *d);
bool import_source_broken(const import_source *src);
void import_event_done(import_event *ev);   /* frees item and def */

/*
 * The consumer. begin is called once before the first event, end once at
 * the end with ok telling whether the whole input was accepted (the store
 * sink commits or rolls back there). table is called for each definition
 * (before any item of that table), item for each item with the table it
 * goes to. Any callback may be NULL. An item error is an item-level
 * failure (the run may skip it); begin/table/end errors stop the run.
 */
typedef struct import_sink {
    void *ctx;
    status (*begin)(void *ctx, diag *d);
    status (*table)(void *ctx, const table_def *def, diag *d);
    status (*item)(void *ctx, const char *table, const av *item, diag *d);
    status (*end)(void *ctx, bool ok, diag *d);
} import_sink;

typedef struct import_stats {
    import_format format;
    uint64_t items;          /* items handed to the sink and accepted */
    uint64_t skipped;        /* bad items skipped (skip_bad) */
    uint64_t tables;         /* table definitions */
    uint64_t bytes, total;   /* input consumed / size (0: unknown) */
    bool lossy;              /* plain JSON: types were inferred */
} import_stats;

typedef struct import_opts {
    /* Table for items whose input names none; NULL: such an item is an
     * error. */
    const char *table;
    /* Go on past bad items (reporting each through on_skip); else the
     * first bad item fails the run and the sink rolls back. */
    bool skip_bad;
    /* Called for each skipped item, with its diagnostic. */
    void (*on_skip)(void *ctx, const diag *d);
    /* Called every few thousand items and at the end. */
    void (*on_progress)(void *ctx, const import_stats *st);
    void *cb_ctx;
} import_opts;

/*
 * Drives src into sink until the end or a failure. st (may be NULL)
 * receives the counts. Returns ST_OK when the input was consumed (with
 * skip_bad, even if items were skipped).
 */
status import_run(import_source *src, const import_sink *sink,
                  const import_opts *o, import_stats *st, diag *d);

/*
 * A sink writing into the store: one transaction for the whole input,
 * table definitions included (nothing of a failed input is committed, not
 * even a table it created or replaced). A table definition creates the
 * table; an existing table of that name is an error unless replace is
 * set, then it is deleted and recreated. Items of a table that does not
 * exist fail with ResourceNotFoundException. The sink borrows s and ctx;
 * ctx must outlive the run.
 */
typedef struct import_store_ctx {
    store *s;
    bool replace;
    bool in_txn;
} import_store_ctx;

void import_store_sink(import_store_ctx *ctx, store *s, bool replace,
                       import_sink *sink);

#endif
