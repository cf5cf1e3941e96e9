/*
 * store — the local DynamoDB-like store (SQLite underneath).
 *
 * One SQLite file holds many tables. Three ways in:
 * - store_exec: a typed request (model/ddbreq.h: a ddb_req) in, a ddb_res
 *   or a ddb_err out. The explorer's reads and writes, and the control
 *   plane and PartiQL calls below, go this way; the store's engine
 *   (data/store_engine.c) answers it, and a remote store prints it once
 *   and sends it.
 * - store_call: a DynamoDB request body (JSON text) in, the response body
 *   out: the JSON door (data/store_api.c) that `ddbx api`, `ddbx serve`
 *   and the tests use, decoding each body into the same typed requests.
 * - the narrow browsing interface below, for the explorer: list tables,
 *   describe, list partitions from a key onward, read a page of one
 *   partition from a sort key onward, in either direction. Nothing loads
 *   a whole table.
 *
 * The same interface also runs over a DynamoDB endpoint (store_open_remote,
 * data/store_remote*.c): then there is no SQLite file, every function maps
 * to DynamoDB requests sent through a caller-supplied transport, and the
 * explorer's views work unchanged (see "Remote stores" below).
 *
 * Ownership: the store handle owns its SQLite connection and cached
 * statements. Everything a function returns through an out-parameter is
 * the caller's, freed with the matching *_free or av_done. No SQLite
 * pointer and no cJSON object crosses this header.
 */
#ifndef DDBX_STORE_H
#define DDBX_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/ddbreq.h"
#include "model/schema.h"
#include "model/status.h"

typedef struct store store;

enum {
    STORE_READ_ONLY = 1 << 0,  /* no write can happen (SQLite opened read-only) */
    STORE_LARGE_CACHE = 1 << 1,/* for servers and batch work (ddbx api, bench):
                                  a 256 MB page cache and memory-mapped reads;
                                  without it the store keeps to a 16 MB cache,
                                  for the explorer's memory bar */
    STORE_STREAM = 1 << 2,     /* one pass over tables (ddbx diff): a 2 MB page
                                  cache, since no page is read twice */
};

/* Opens or creates (owner-only permissions) the database file. path
 * ":memory:" is a new database in this process's memory (SQLite's memdb,
 * up to 2 GiB), which store_open_peer's connections share and which ends
 * with the last of them: the same transactions as a file's, except that a
 * reader waits for a writer's commit (no WAL: memdb has no shared-memory
 * index) where a file's reader goes on with the snapshot before it. */
status store_open(const char *path, unsigned flags, store **out, diag *d);

/* Whether path may be opened as a ddbx database without harm: ST_OK when
 * it is one, is empty or does not exist; else ST_IO with d saying whose
 * it is (DynamoDB Local's database, or another program's SQLite file),
 * which store_open also refuses before writing anything to it. Reads
 * only. */
status store_check_file(const char *path, diag *d);

/* A line for the person waiting, given before store_open starts work
 * that takes noticeable time: the upgrade of an older file to schema
 * version 5, which fills every index entry's projection (about a second
 * a 100,000 entries). The command line prints it on stderr, before the
 * explorer takes the screen. Process-wide; NULL (the default): nothing. */
typedef void (*store_notice_fn)(const char *msg);
void store_set_notice(store_notice_fn fn);

/* A new ":memory:" database's whole schema as a database image (SQLite's
 * file format), made at build time by tools/memimage.c with
 * store_memory_image and compiled into the binary (build/gen/, as
 * store_mem_image below). Given with store_set_memory_image, store_open
 * copies it into each new in-memory database instead of running the
 * schema's CREATE statements, which were most of `ddbx serve
 * --in-memory`'s start-up (issue 43 item 9). Process-wide; the bytes are
 * the caller's and stay valid. Without it (the unit tests, the
 * generator itself), the statements run. */
void store_set_memory_image(const unsigned char *image, size_t len);
/* The image a new ":memory:" database has after its schema statements:
 * malloc'd bytes in *out, their count in *len. */
status store_memory_image(unsigned char **out, size_t *len, diag *d);
/* Defined by the generated build/gen/memimage_data.c (ui/main.c gives it). */
extern const unsigned char store_mem_image[];
extern const size_t store_mem_image_len;
void store_close(store *s);

/*
 * Another connection to s's file, with s's flags and stream times, for a
 * server's worker threads (`ddbx serve`): each connection is used by one
 * thread at a time, and several may be used at once. Reads on different
 * connections run in parallel (WAL: a reader sees the last commit before
 * its request began, whole); writes are serialised by a lock the
 * connections share, so this process's writers queue rather than meet
 * SQLITE_BUSY (another process's writer meets the 10 s busy timeout).
 * What the connections share: that lock, the change log's clock and trim
 * counter, and PartiQL ExecuteTransaction's ClientRequestTokens. Each
 * has its own table-definition cache, checked against PRAGMA
 * data_version (which counts every other connection's commits). Close
 * each with store_close, in any order. An in-memory database's peers
 * share it (below). ST_USAGE for a remote store.
 */
status store_open_peer(store *s, store **out, diag *d);

/*
 * One DynamoDB operation ("PutItem", "Query", ...). input is the request
 * body. On ST_OK *out is the response body; on an error *out is NULL or,
 * where DynamoDB's error carries more than a message (CancellationReasons,
 * the Item of ReturnValuesOnConditionCheckFailure), a JSON object with
 * those members. d holds the code and DynamoDB's message. *out is malloc'd.
 */
status store_call(store *s, const char *op, const char *input, size_t len,
                  char **out, diag *d);

/* The capacity units the calling thread's last store_call on a local
 * store consumed (read or write units, by its operation), whether or not
 * the request asked ReturnConsumedCapacity: for `ddbx serve --record`. */
double store_call_units(void);

/* After store_call failed with st: DynamoDB's whole message (d->msg may be
 * cut at diag's size for long validation messages). Valid until the next
 * call on s. */
const char *store_error_message(store *s, status st, const diag *d);

/*
 * One line of `ddbx api`: {"Operation":"PutItem","Input":{...}} in, the
 * response line out (no newline): {"Output":{...}} or
 * {"Error":{"Code":"...","Message":"...", extra members}}. A malformed
 * line gets an Error too. *out is malloc'd; returns the status.
 */
status store_call_line(store *s, const char *line, size_t len, char **out);

/*
 * Run a request here: the one typed entry of the store, for every request
 * kind of model/ddbreq.h (the data plane: GetItem, PutItem, UpdateItem,
 * DeleteItem, Query and Scan pages, BatchGetItem, BatchWriteItem,
 * TransactGetItems, TransactWriteItems, SearchVectors, a lone
 * ConditionCheck as a transaction of one; ExecuteStatement; Time to Live
 * and Streams, answering in res->streams; the backup kinds, in
 * res->backups; the table kinds, in res->tables). res and err are
 * initialised by the caller (ddb_res_init, ddb_err_init) and filled: res
 * on ST_OK, err otherwise (its status and DynamoDB's message, the current
 * item of a failed condition with ReturnValuesOnConditionCheckFailure
 * ALL_OLD, the CancellationReasons of a cancelled transaction). The
 * explorer reaches the store only through this and the browsing calls
 * below; a remote store sends the same request to its endpoint (its one
 * wire function is srem_send, data/store_remote_int.h). store_call and
 * store_call_line above are the JSON door (`ddbx serve`, `ddbx api`).
 */
status store_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err);

/*
 * ---- The change log and DynamoDB Streams (data/store_changes.c, data/store_streams.c) ----
 *
 * Every item changed by a write through store_call (not the bulk
 * interface below) leaves a change record, committed with it. store_call
 * answers the Streams operations too (ListStreams, DescribeStream,
 * GetShardIterator, GetRecords; UpdateTable with StreamSpecification);
 * store_is_streams_op says which operation names belong to the
 * DynamoDBStreams_20120810 protocol rather than DynamoDB_20120810.
 */
bool store_is_streams_op(const char *op);

/* How long change records are kept (DynamoDB: 24 hours) and a shard
 * iterator lives (15 minutes), in seconds; 0 keeps the current value. */
void store_set_stream_times(store *s, double retention_s, double iterator_s);

enum { STORE_INSERT = 1, STORE_MODIFY, STORE_REMOVE };

typedef struct store_change {
    int64_t seq;           /* increasing: later changes have larger ones */
    int64_t t_ms;          /* when, milliseconds since the epoch */
    int event;             /* STORE_INSERT, STORE_MODIFY, STORE_REMOVE */
    bool ttl;              /* a deletion by Time to Live */
    av keys;               /* the item's key attributes (AV_M) */
    av old_item, new_item; /* AV_M, or AV_NONE where absent */
} store_change;

/*
 * Up to max changes of a table, newest first, older than before_seq (0:
 * from the newest). Local: the change log. Remote: the table's stream
 * (DescribeTable's LatestStreamArn, then DescribeStream, GetShardIterator
 * TRIM_HORIZON and GetRecords; ST_NOT_FOUND with "TABLE has no stream"
 * when it has none; whatever the stream's view type leaves out stays
 * AV_NONE). Free each with store_change_free.
 */
status store_changes(store *s, const char *table, int64_t before_seq, size_t max,
                     store_change *out, size_t *n, diag *d);
void store_change_free(store_change *c);

/*
 * The newest change record's seq of every local table (0: none yet), by
 * name, in one read: what the explorer's undo journal brackets its own
 * writes with (the changes of a table between two of these are the
 * writes made meanwhile). The table's id comes with it, since a table
 * deleted and created again starts its seqs again. Free with
 * store_seqs_free. A remote store has none (*n 0).
 */
/*
 * Tells fn (ctx) of every change record this handle itself commits: the
 * table's id (as store_change_seqs gives it) and the record's seq, once
 * its transaction has committed (none of a rolled-back one). Another
 * process's writes, or another handle's, are not told. The explorer's
 * undo journal keeps what it wrote this way. fn NULL: nothing is told.
 */
/*
 * The work the database has done on this handle since it opened, in units
 * of STORE_WORK_UNIT SQLite virtual-machine instructions (0 for a remote
 * store). A deterministic measure of how much a command read and wrote,
 * whatever the machine's speed: the explorer's DDBX_TIMING log prints it
 * beside each key's time, and tests assert a command's work grows with
 * its items, not with their square.
 */
#define STORE_WORK_UNIT 1000
uint64_t store_work(const store *s);

/*
 * A long statement (a restore's copy of a million items) asks fn(ctx)
 * every STORE_STOP_EVERY units of work whether to go on: true stops it,
 * its transaction is rolled back and the call fails with ST_IO
 * ("stopped: ..."). The explorer draws its progress line and looks for
 * Esc there. fn NULL: never asked.
 */
#define STORE_STOP_EVERY 100
typedef bool (*store_stop_fn)(void *ctx);
void store_set_stop(store *s, store_stop_fn fn, void *ctx);

typedef void (*store_own_fn)(void *ctx, int64_t tid, int64_t seq);
void store_set_own_changes(store *s, store_own_fn fn, void *ctx);

typedef struct store_seq {
    char *table;
    int64_t tid, seq;
} store_seq;
status store_change_seqs(store *s, store_seq **out, size_t *n, diag *d);
void store_seqs_free(store_seq *v, size_t n);

/*
 * ---- UpdateTable for the explorer (data/store_gsi.c) ----
 *
 * A GSI created on a table that holds data (backfilled in the call: it is
 * ACTIVE when this returns) or deleted, through UpdateTable with its
 * checks and messages. The index's key types come from ix->pk/sk; on a
 * provisioned table it gets the table's throughput. Remote stores send
 * the same UpdateTable to their endpoint.
 */
status store_create_index(store *s, const char *table, const index_def *ix, diag *d);
/* Checks a table's index entries against its items: every entry's body
 * is its item as the index projects it and its size that projection's
 * DynamoDB size, every item an index should hold has its entry (and no
 * other entry exists), and each index's totals (stats) add up. *problems
 * is one line a problem (malloc'd), NULL when all is consistent. For
 * tests and diagnosis; reads the whole table. */
status store_index_check(store *s, const char *table, char **problems, diag *d);
status store_delete_index(store *s, const char *table, const char *index, diag *d);
/* Whether store_delete_index would be refused because the table or its
 * GSI is not there (the same messages), without changing anything. */
status store_delete_index_check(store *s, const char *table, const char *index, diag *d);

/*
 * ---- Time to Live (data/store_ttl.c) ----
 *
 * store_call answers UpdateTimeToLive and DescribeTimeToLive. The table's
 * TTL attribute (*attr malloc'd, NULL when TTL is disabled); setting it
 * with UpdateTimeToLive's rules and messages (attr NULL: disable). Remote
 * stores ask their endpoint.
 */
status store_ttl_get(store *s, const char *table, char **attr, diag *d);
status store_ttl_set(store *s, const char *table, const char *attr, diag *d);
/* Whether store_ttl_set(table, attr) would be refused, and why (the same
 * messages), without changing anything: what the explorer checks before
 * it asks. */
status store_ttl_check(store *s, const char *table, const char *attr, diag *d);
/*
 * One step of the sweep that deletes expired items (model/ttl.h), as
 * DynamoDB's background process does: reads at most `budget` items,
 * going on where the last step stopped and round every table with TTL
 * enabled; now is epoch seconds. The deletes are ordinary writes whose
 * change records are TTL deletions (Streams: userIdentity
 * dynamodb.amazonaws.com, type Service). *deleted counts them. Nothing on
 * a remote or read-only store.
 */
status store_ttl_sweep(store *s, double now, size_t budget, size_t *deleted, diag *d);

/* SQLite's data_version: changes when another connection commits to the
 * database (never for this handle's own writes). Remote: always 0. */
status store_data_version(store *s, int64_t *out, diag *d);
/* Rows this handle has written since it opened (sqlite3_total_changes64,
 * no query): with store_data_version, whether anything changed since a
 * view last read the store. Remote: always 0. */
int64_t store_own_changes(store *s);

/*
 * One PartiQL statement (ExecuteStatement), for the explorer: the text,
 * its `?` parameters (params[0..n), copied into the request), Limit (0:
 * none) and the NextToken of the previous page (NULL: the first). Fills
 * out (free with store_partiql_result_done) with the items it returned, the
 * capacity units it consumed and the next page's token. On failure d has
 * DynamoDB's code and whole message. Works on remote stores too.
 */
typedef struct store_partiql_result {
    av *items;
    size_t n;
    double capacity;
    char *next_token;      /* NULL: no more pages */
} store_partiql_result;
status store_partiql_page(store *s, const char *statement, const av *params, size_t n_params,
                          size_t limit, const char *next_token, store_partiql_result *out, diag *d);
void store_partiql_result_done(store_partiql_result *r);

/* Table names in order; free with store_names_free. */
status store_list_tables(store *s, char ***names, size_t *n, diag *d);
void store_names_free(char **names, size_t n);

typedef struct table_stats {
    uint64_t items, bytes;
    uint64_t partitions;
    /* Remote: items and bytes are DescribeTable's ItemCount and
     * TableSizeBytes (IndexSizeBytes), which DynamoDB refreshes only about
     * every six hours; partitions is how many the Scan found so far. */
    bool approximate;
} table_stats;

/* Definition (into an uninitialised def; free with table_def_free) and
 * counts. index NULL for the table; else the index's own counts. */
status store_describe(store *s, const char *table, table_def *def, diag *d);
status store_stats(store *s, const char *table, const char *index,
                   table_stats *st, diag *d);

typedef struct part_info {
    av pk;             /* the partition key value; of an index whose key
                          has several HASH attributes, the list (AV_L) of
                          their values in KeySchema order, as store_page
                          and store_partition take it too */
    uint64_t items, bytes;   /* items STORE_ITEMS_UNKNOWN: a remote partition
                                not counted yet (store_count_partitions) */
} part_info;

#define STORE_ITEMS_UNKNOWN UINT64_MAX

/*
 * Up to max partitions of the table (index NULL) or of an index, in key
 * order, starting after `after` (NULL: from the first), or before it when
 * backward. Fills out[0..*n). Free each pk with av_done.
 */
status store_partitions(store *s, const char *table, const char *index,
                        const av *after, bool backward, size_t max,
                        part_info *out, size_t *n, diag *d);

/* The items and bytes of the one partition pk of the table (index NULL)
 * or an index; *found false when it has no item. A remote store does not
 * know (DynamoDB reports no partition's size): ST_OK, *found false. Free
 * out->pk with av_done when found. */
status store_partition(store *s, const char *table, const char *index, const av *pk,
                       part_info *out, bool *found, diag *d);

/* Partition pk as the explorer meets it: remote, from what is known or
 * with a Query of Limit 1 (found when it has an item; items
 * STORE_ITEMS_UNKNOWN until counted); local, store_partition. */
status store_partition_meet(store *s, const char *table, const char *index, const av *pk,
                            part_info *out, bool *found, diag *d);
/* store_partition_meet for n partitions at once (partition i: pks[i] in
 * indexes[i], NULL the base table), found[i] said for each; remote, the
 * ones not met yet are looked for together (a Query of Limit 1 each, sent
 * with store_set_send_many's function: f's probes, issue 42). */
status store_partitions_meet(store *s, const char *table, size_t n, const char *const *indexes,
                             const av *pks, bool *found, diag *d);
/* Remote: whether a partition met so far in table (index) has a string
 * key starting with prefix[0..len) (its shape: "ACTOR#"). Local: false. */
bool store_partition_shape_met(store *s, const char *table, const char *index, const char *prefix,
                               size_t len);

/* Largest partitions first (by items), for the partition overview. */
status store_partitions_by_size(store *s, const char *table, const char *index,
                                size_t max, part_info *out, size_t *n, diag *d);

/*
 * Up to max items of one partition, in sort-key order (forward) or reverse,
 * starting after the item `after` (NULL: from the first). For an index the
 * items carry only the projected attributes and `after` is an item as
 * returned (its table and index keys define the position). Fills
 * items[0..*n) with M avs; free each with av_done.
 */
status store_page(store *s, const char *table, const char *index,
                  const av *pk, const av *after, bool forward, size_t max,
                  av *items, size_t *n, diag *d);

/*
 * Bulk writes for import and samples: many items in one transaction.
 * store_begin opens it; store_put_item validates the item against the
 * table's key schema and limits (as PutItem does, without a condition)
 * and writes it and its index entries; store_commit or store_rollback
 * ends it. Outside a transaction, store_put_item commits on its own.
 */
status store_begin(store *s, diag *d);
status store_put_item(store *s, const char *table, const av *item, diag *d);
status store_commit(store *s, diag *d);
void store_rollback(store *s);

/* Creates a table from a definition (as CreateTable does). */
status store_create_table(store *s, const table_def *def, diag *d);
status store_delete_table(store *s, const char *table, diag *d);

/*
 * ---- Remote stores ----
 *
 * store_open_remote gives a store whose functions talk to a DynamoDB
 * endpoint through `send` (remote_call in ddbx, or in tests a second,
 * local store's store_call): same contract as store_call (op, request
 * body in; response body out, malloc'd; on an error d holds the code and
 * message and *out may hold the error's extra members). ctx is passed
 * back to send and stays the caller's; describe ("http://host:port
 * (region)") is copied, for titles and prompts.
 *
 * The mapping:
 * - store_call passes the request through, adding
 *   "ReturnConsumedCapacity":"TOTAL" where the operation takes it and the
 *   request did not say. A write (anything but the read operations) is
 *   refused with ST_READ_ONLY before anything is sent unless flags has
 *   STORE_REMOTE_WRITE; with it, the write gate (store_set_write_gate), if
 *   set, is asked first, every time. PartiQL (ExecuteStatement,
 *   BatchExecuteStatement, ExecuteTransaction) passes through as it is: a
 *   read when every statement is a SELECT, else a write.
 * - store_list_tables: ListTables, following LastEvaluatedTableName.
 *   store_describe: DescribeTable (cached until store_refresh).
 *   store_stats: DescribeTable's approximate counts (table_stats.approximate).
 * - store_partitions / store_partitions_by_size: there is no partition
 *   listing in DynamoDB, and a Scan of the keys reads (and bills) every
 *   item, so partitions are discovered one at a time as the user pages:
 *   the first by a Scan of Limit 1, the one after partition P by a Scan of
 *   Limit 1 whose ExclusiveStartKey is P's last item (known from a page
 *   that reached it, else a Query of Limit 1 read backward), each with a
 *   ProjectionExpression of the key attributes, IndexName for an index.
 *   "after" and "backward" follow that Scan order as far as it has been
 *   linked (backward from NULL: the last partition found so far; a Scan
 *   cannot read backward). A partition asked for by value that paging has
 *   not reached is checked with a Query of Limit 1 and kept, unlinked. The
 *   items of a partition are STORE_ITEMS_UNKNOWN until a page held all of
 *   it or store_count_partitions counted them all. By size ranks the
 *   counted ones, the others after them, without a read beyond the first
 *   partition (store_scan_state says what is known). part_info.bytes is
 *   0 (DynamoDB tells no partition's size).
 * - store_page: Query "#pk = :pk" on the table or index, Limit,
 *   ScanIndexForward, ExclusiveStartKey from `after` (table keys, plus the
 *   index keys for an index), following LastEvaluatedKey until max items.
 * - store_begin / store_put_item / store_commit: BatchWriteItem in groups
 *   of 25 (unprocessed items resent); not atomic, and store_rollback
 *   cannot undo what was sent. store_create_table waits for ACTIVE.
 * ConsumedCapacity of every response is summed (store_get_info).
 */
enum {
    STORE_REMOTE_WRITE = 1 << 8,  /* store_open_remote: writes may be sent */
};

typedef status (*store_send_fn)(void *ctx, const char *op, const char *input, size_t len,
                                char **out, diag *d);

status store_open_remote(store_send_fn send, void *ctx, const char *describe, unsigned flags,
                         store **out, diag *d);

/* n requests of one operation sent together (outs[i], sts[i], ds[i] as
 * store_send_fn's for each); the return is ST_OK unless the whole was
 * cancelled. data/remote_wait.h's remote_send_many. */
typedef status (*store_send_many_fn)(void *ctx, const char *op, size_t n, const char *const *inputs,
                                     const size_t *lens, char **outs, status *sts, diag *ds);
/* Remote: how to send independent requests together (NULL: one after
 * the other through the store's send). */
void store_set_send_many(store *s, store_send_many_fn fn, void *ctx);
/* n requests, each of its own operation ops[i], sent together (as
 * store_send_many_fn). data/remote_wait.h's remote_send_mixed. */
typedef status (*store_send_mixed_fn)(void *ctx, size_t n, const char *const *ops,
                                      const char *const *inputs, const size_t *lens, char **outs,
                                      status *sts, diag *ds);
void store_set_send_mixed(store *s, store_send_mixed_fn fn, void *ctx);
/* Remote: what opening a view of table (index: NULL the base table)
 * reads that is not known yet, in one round trip (issue 42): its
 * description, its TTL setting and, when first_screen, the first
 * screen's Scan (store_set_page_hint's items), sent together with
 * store_set_send_mixed's function. An error when the description could
 * not be read, or nothing could (Esc cancelled the wait); any other
 * failure is kept quiet: the read that failed asks again when it is
 * needed (store_ttl_get, the pages) and says it. Local: nothing. */
status store_view_prefetch(store *s, const char *table, const char *index, bool first_screen,
                           diag *d);
/* Remote: the tables of names[0..n) not described yet, described
 * together (DescribeTable each, sent with store_set_send_many's function:
 * the table list's rows on screen, issue 42); a table whose description
 * failed is left out, and store_describe says why. Local: nothing. */
void store_describe_many(store *s, const char *const *names, size_t n);

/*
 * One line of `ddbx api` around call (store_call_line's protocol and
 * answer shape, for a transport): the line's Input is printed back to text
 * and sent. When the call fails, error (if not NULL) may name the error
 * type and give the whole message (a remote's "ThrottlingException"); else
 * the status's name and d's message are used. *out is malloc'd.
 */
typedef void (*store_error_fn)(void *ctx, const char **type, const char **message);
status store_send_line(store_send_fn call, void *ctx, store_error_fn error,
                       const char *line, size_t len, char **out);

/* Asked before each write a remote store with STORE_REMOTE_WRITE sends
 * (not for the bulk interface, which asks once a table). what names the
 * operation, table and key: "PutItem on Music, key PK=s#song1, SK=A".
 * Returning false declines: nothing is sent, the call fails ST_READ_ONLY. */
typedef bool (*store_gate_fn)(void *ctx, const char *what);
void store_set_write_gate(store *s, store_gate_fn gate, void *ctx);

/* Asked before a read that would pass the session's read budget: used
 * is what the session has read so far, budget the budget, raised what it
 * becomes on a yes (the amount set above the greater of the two); true
 * lets that read (or round of reads sent together) through whole, once,
 * false stops it. */
typedef bool (*store_budget_fn)(void *ctx, double used, double budget, double raised);
/* Remote: a session read budget in read capacity units (0: none). Before
 * each read it sends, the store asks `ask` when what was read has reached
 * the budget, or when a read of DynamoDB's 1 MB page (a Query or Scan
 * without Limit: up to 128 RCU eventually consistent, 256 strongly)
 * could pass it; declined, nothing is sent and the call fails ST_IO
 * "Budget: ...". Local: nothing to do. */
void store_set_read_budget(store *s, double rcu, store_budget_fn ask, void *ctx);
/* The budget set (0: none). */
double store_read_budget(const store *s);

typedef struct store_info {
    bool remote;
    bool writable;         /* remote with STORE_REMOTE_WRITE, or a local store not read-only */
    const char *where;     /* remote: the describe string; local: NULL */
    double rcu, wcu;       /* remote: capacity units consumed so far */
    uint64_t requests;     /* remote: requests sent */
} store_info;
void store_get_info(const store *s, store_info *out);

/* Remote: how many partitions of the table or index the Scan discovered
 * and whether it has read them all (0 and false before it started; sends
 * nothing). Local: all of them, complete. */
status store_scan_state(store *s, const char *table, const char *index, uint64_t *known,
                        bool *complete, diag *d);

/* Called between the pages of a long read with the items read so far;
 * returning false stops it. */
typedef bool (*store_progress_fn)(void *ctx, uint64_t items);
/* The items of keys[0..n) of table (distinct; each the key attributes,
 * def the table's key schema) into out[i] (uninitialised; AV_NONE: no
 * such item): BatchGetItem of 100 keys each, ConsistentRead as
 * consistent, UnprocessedKeys sent again (after a wait when a whole round
 * came back unprocessed); remote, up to 8 requests at once with
 * store_set_send_many's function (the wait's hook and Esc as theirs),
 * else one after the other. progress between rounds with the items read
 * so far; false stops. On an error (or a stop, ST_IO "Stopped: ...")
 * every out[i] is AV_NONE again. data/store_getmany.c. */
status store_get_many(store *s, const char *table, const table_def *def, const av *keys, size_t n,
                      bool consistent, store_progress_fn progress, void *ctx, av *out, diag *d);

/* Remote: counts every partition of the table or index with a Scan of
 * the keys (1 MB pages: it reads, and bills, the whole table; ask first,
 * with store_read_cost). Afterwards store_partitions knows them all, in
 * Scan order, with their counts, and store_scan_state says complete.
 * Stopped (progress false) or failed, the counts stay as they were.
 * Local: nothing to do. */
status store_count_partitions(store *s, const char *table, const char *index,
                              store_progress_fn progress, void *ctx, diag *d);

/* Remote: what a read of the whole table or index costs, from
 * DescribeTable's size (approximate, refreshed by DynamoDB about every six
 * hours): its bytes, and the read capacity units of an eventually
 * consistent Scan of them (4 KB a unit, half for eventual consistency;
 * developer guide, "Read consumption"). */
status store_read_cost(store *s, const char *table, const char *index, uint64_t *bytes,
                       double *rcu, diag *d);

/* Remote: the count of partition pk when known, asking nothing (a page
 * that held all of it, or store_count_partitions); false otherwise, and
 * always for a local store (whose part_info counts are exact). */
bool store_partition_counted(store *s, const char *table, const char *index, const av *pk,
                             uint64_t *items);

/* Forgets what is cached about a table (NULL: every table): its
 * description and the partitions discovered, so the next call asks the
 * endpoint again. Nothing to do for a local store. */
void store_refresh(store *s, const char *table);

/* Remote: the local database file that keeps what the explorer saves
 * beside a remote table (named conditions, data/saved.h), since an
 * endpoint has no place for it. Opened with flags on the first saved_*
 * call (a read finds nothing while the file does not exist; a write
 * creates it), closed by store_close. A local store keeps them in its own
 * file and ignores this. */
void store_set_local_path(store *s, const char *path, unsigned flags);

/* Remote: the items a screen shows. With it, the first partition is
 * found by a Scan of that many whole items (not of Limit 1), kept, and
 * the first page of each partition that Scan holds from its start is
 * served from it: the first screen is one request (issue 42). 0: off. */
void store_set_page_hint(store *s, size_t items);

/* Remote: items per page of store_count_partitions' Scan (0: DynamoDB's
 * 1 MB pages, the default), and at most as many in the first Scan page
 * of store_set_page_hint; for tests and slow links. */
void store_set_scan_limit(store *s, size_t items);

#endif
