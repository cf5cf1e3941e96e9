/*
 * store_int — what the store's source files share (not a public header).
 *
 * SQLite layout (schema is at version 6; older files gain the tables and
 * columns they lack when opened writable, and open read-only without
 * them):
 *   meta(key PRIMARY KEY, value)                 schema version
 *   tables(id, name UNIQUE, ver, description)    one row a DynamoDB table;
 *       description is the TableDescription JSON as CreateTable made it
 *       (counts and status filled in when described); ver changes when the
 *       row is replaced, so a cached parsed definition is checked cheaply.
 *   items(tid, pk, sk, size, body)  WITHOUT ROWID, key (tid, pk, sk):
 *       pk/sk are keyenc bytes (sk empty when the table has no sort key),
 *       size the item's DynamoDB size, body the itemenc bytes.
 *   idx(tid, xid, ipk, isk, pk, sk, size, body)  WITHOUT ROWID, key all
 *       but size and body: one entry per item present in index xid
 *       (1-based position in table_def.idx); size the projected entry's
 *       DynamoDB size; body (version 5) the itemenc bytes of the item as
 *       the index projects it (store_idxbody.c), written in the item's
 *       own transaction, so an index read is a range read of idx alone.
 *       Opening an older file writable adds the column and fills it for
 *       every entry in the schema transaction; read-only, or where a
 *       body is NULL (a row an older ddbx wrote), an index read looks
 *       the item up in items as before.
 *   parts(tid, xid, pk, items, bytes)  WITHOUT ROWID: per partition of the
 *       table (xid 0) or an index, kept current on every write.
 *   stats(tid, xid, items, bytes, parts)  WITHOUT ROWID: totals.
 *   changes(tid, seq, t, ttl, old, new)  WITHOUT ROWID, key (tid, seq): the
 *       change log (store_changes.c): one row per item a committed write
 *       changed, in the write's own transaction; seq counts per table
 *       (one B-tree, appended at the table's end: a write costs one row);
 *       t is milliseconds since the epoch, old/new the itemenc bodies
 *       (NULL: absent, so INSERT, MODIFY and REMOVE are implied); ttl
 *       marks a TTL deletion (1), or a history-only record of a bulk write
 *       on a table with point-in-time recovery (2: new holds only the
 *       key; no stream or feed shows it). Trimmed by age (a table with
 *       recovery keeps its period), except that a table's newest row is
 *       emptied (old and new NULL) rather than deleted, so its seq is
 *       never given again; readers skip emptied rows.
 *   streams(sid, tid, tname, label, view, created, start_seq, end_seq,
 *       disabled, trimmed, keys): one row per DynamoDB stream a table had;
 *       its records are the table's changes with start_seq < seq <=
 *       end_seq (end_seq NULL while enabled); trimmed is the highest seq
 *       of its records trimmed away; keys the KeySchema JSON (the table
 *       may be gone).
 *   ttl(tid, attr, enabled): a table's TimeToLive attribute (store_ttl.c);
 *       enabled is when it was enabled (ms); no row: disabled.
 *   tags(tid, key, value)  WITHOUT ROWID: a table's tags (store_tags.c).
 *   tokens(token, hash, t)  WITHOUT ROWID: TransactWriteItems'
 *       ClientRequestTokens (store_batch.c): the request's hash and when
 *       it was applied (ms), kept 10 minutes.
 *   backups(id, bid UNIQUE, name, tname, tid, type, auto, created,
 *       expires, items, bytes, description, ttl, file)  (version 6,
 *       store_backup.c): one row a backup; bid is its ARN's last part
 *       (14 digits of creation ms, '-', 8 hex digits), tname and tid the
 *       source table's name and id, type 0 USER / 1 SYSTEM, auto 1 for the
 *       explorer's automatic ones, created/expires ms, items and bytes its
 *       items and their DynamoDB size, description the TableDescription
 *       as stored then, ttl its TTL attribute (NULL: disabled). file names
 *       the backup's own SQLite file in FILE-backups/ (holding items(tid 0,
 *       pk, sk, size, body) as the items table does, and meta); NULL: the
 *       items are this file's, left under the deleted table's tid (a
 *       SYSTEM backup). A row exists only once its file is complete.
 *   history(tid PRIMARY KEY, complete, pitr, days)  (version 6,
 *       store_pitr.c): per table, the moment (ms) from which the change
 *       log holds every change to it (a bulk write without recovery, or
 *       trimming, moves it on), and point-in-time recovery: pitr the ms it
 *       was enabled (NULL: disabled), days its RecoveryPeriodInDays.
 *
 * Writes accumulate partition deltas in memory (store.deltas) and flush
 * them before the transaction commits, so a bulk load touches each
 * partition row once.
 */
#ifndef DDBX_STORE_INT_H
#define DDBX_STORE_INT_H

#include <pthread.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "data/store.h"
#include "data/store_valid.h"
#include "model/buf.h"

struct cJSON;

/* Cached statements; SQL text in store.c. */
enum {
    Q_BEGIN, Q_BEGIN_IMM, Q_COMMIT, Q_ROLLBACK,
    Q_TABLE_BY_NAME, Q_TABLE_LOAD, Q_TABLE_NAMES, Q_TABLE_NAMES_AFTER,
    Q_TABLE_INSERT, Q_TABLE_DELETE,
    Q_ITEM_GET, Q_ITEM_INSERT_NEW, Q_ITEM_REPLACE, Q_ITEM_DELETE,
    Q_IDX_INSERT, Q_IDX_DELETE,
    Q_PART_UPSERT, Q_PART_DELETE_EMPTY,
    Q_STATS_UPSERT, Q_STATS_GET, Q_DATA_VERSION, Q_READ_HOLD,
    Q_DEL_ITEMS, Q_DEL_IDX, Q_DEL_PARTS, Q_DEL_STATS,
    Q_PARTS_FWD, Q_PARTS_FWD_FROM, Q_PARTS_BACK, Q_PARTS_BACK_FROM, Q_PARTS_BY_SIZE,
    Q_PART_GET,
    Q_CHANGE_INSERT, Q_CHANGE_NEXT_TID, Q_CHANGE_OLDEST, Q_CHANGE_LAST_SEQ, Q_CHANGE_TRIM,
    Q_CHANGE_EMPTY, Q_STREAM_TRIMMED,
    Q__COUNT
};

/* A parsed table definition, cached by name. */
typedef struct tinfo {
    char *name;
    int64_t id, ver;
    table_def def;
    char *desc;          /* TableDescription JSON as stored */
    uint64_t txn_seen;   /* the transaction (store.txn_serial) that last
                            checked it against the tables row */
    int64_t dv;          /* PRAGMA data_version when checked; -1: unknown */
    int64_t fdv;         /* the connection's SQLITE_FCNTL_DATA_VERSION in the
                            read transaction that last checked it; -1:
                            unknown (store_item_get_fast trusts it) */
    bool pitr;           /* point-in-time recovery enabled: bulk writes log too */
    struct tinfo *next;
} tinfo;

typedef struct delta {
    unsigned char *key;  /* xid (1 byte) + pk bytes; NULL: empty slot */
    size_t key_len;
    int64_t tid;
    int64_t items, bytes;
} delta;

/* Encoded primary key of an item or a key map. */
typedef struct store_key {
    buf pk, sk;
} store_key;

/* What the connections one process has open on one file share: the first
 * store_open makes it, store_open_peer adds a connection to it (one a
 * worker thread of `ddbx serve`). Everything else in struct store is the
 * connection's own and used by one thread at a time. */
typedef struct store_shared {
    /* Held from BEGIN IMMEDIATE to COMMIT or ROLLBACK: this process's
     * writers queue here instead of spinning in SQLite's busy handler
     * (which sleeps and retries); other processes meet the busy timeout. */
    pthread_mutex_t write;
    pthread_mutex_t lock;   /* refs and last_ms */
    int refs;
    int64_t last_ms;        /* change times never go backward in one process */
    unsigned trim_tick;     /* write transactions since the last trim step (under write) */
    /* ExecuteTransaction's ClientRequestTokens (store_partiql.c): the
     * table, and held from a token's check to its keeping, so that two
     * requests with one token cannot both run. */
    pthread_mutex_t pq_lock;
    struct store_pq *pq;
    /* The packed vectors of the last vector index searched, shared by the
     * process's handles on the file (`ddbx serve`'s threads): one copy in
     * memory, whichever thread searches (store_vsearch.c). */
    pthread_mutex_t vec_lock;
    struct store_vcache *vcache;
    char *path;             /* the file, for peers (an in-memory database's memdb URI) */
    unsigned flags;         /* store_open's */
    bool memory;            /* an in-memory database (store_open's ":memory:") */
} store_shared;

struct store {
    sqlite3 *db;
    store_shared *sh;    /* NULL for a remote store */
    sqlite3_stmt *q[Q__COUNT];
    bool read_only;
    bool large;          /* STORE_LARGE_CACHE */
    bool stream;         /* STORE_STREAM */
    bool write_locked;   /* this connection holds sh->write */
    double busy_since;   /* an in-memory database's busy wait began (seconds) */
    int txn_depth;       /* >0 inside store_begin or an operation */
    uint64_t txn_serial; /* counts outermost transactions */
    sqlite3_stmt *txn_hold;  /* a read transaction: the statement held open
                                (store_txn_begin); NULL otherwise */
    int64_t txn_dv;      /* its PRAGMA data_version */
    int64_t txn_fdv;     /* and its SQLITE_FCNTL_DATA_VERSION */
    uint64_t work;       /* store_work: STORE_WORK_UNITs of SQLite's work */
    store_stop_fn stop_fn;   /* store_set_stop's */
    void *stop_ctx;
    uint64_t fast_gets;  /* GetItems store_item_get_fast answered (its tests) */
    store_key fast_key;  /* its key bytes, kept for the next */
    bool txn_write;
    tinfo *tables;       /* cache */
    delta *deltas;       /* open addressing */
    size_t n_deltas, cap_deltas;
    buf scratch;
    buf err_extra;       /* members an error response carries (store_call) */
    buf err_msg;         /* the whole error message when diag's is too short */
    sqlite3_stmt *reads[4096]; /* read statements by shape (store_read.c) */
    /* What the file's schema has, found by the first connection when it
     * opened or migrated the file (or set from the in-memory image), and
     * copied whole to every peer (store_open_peer). A read-only
     * connection's false bit is looked for again while it is false (a
     * writer may upgrade the file meanwhile): read them through
     * store_idx_body_has, store_history_has and store_vec_has
     * (store_has_now). */
    struct {
        bool idx_body;   /* idx has the body column (store_idxbody.c) */
        bool history;    /* the version 6 tables: backups, history (store_backup.c, store_pitr.c) */
        bool vecs;       /* the vecs table: vector indexes (store_vector.c, store_vsearch.c) */
    } has;
    struct store_remote *remote;  /* non-NULL: a remote store (store_remote.c); db is NULL */
    /* A remote store's local database for saved conditions and staged
     * changes (data/saved.c, data/staged.c):
     * its path and flags (store_set_local_path), opened on first use. */
    char *local_path;
    unsigned local_flags;
    struct store *local;
    /* The change log (store_changes.c). */
    bool no_log;         /* the bulk interface writes no change records */
    bool ttl_delete;     /* the writes now are TTL deletions (userIdentity) */
    int64_t retention_ms, iterator_ms;
    buf old_enc;         /* an old image, encoded for its record */
    /* store_set_own_changes: the records this handle logged in the open
     * transaction (tid, seq pairs), handed to own_fn once it commits. */
    store_own_fn own_fn;
    void *own_ctx;
    int64_t *own;
    size_t n_own, cap_own;
    /* Where the TTL sweep goes on (store_ttl.c): the table and the last
     * key it read there. */
    int64_t ttl_tid;
    buf ttl_pk, ttl_sk;
    /* Backups and history (store_backup.c, store_pitr.c). */
    char *bk_dir;        /* the backups folder (made on first use) */
    bool bk_dir_temp;    /* an in-memory database's: removed at close */
    int64_t *unlogged;   /* tables a bulk write changed without change
                            records in this transaction (store_put_item) */
    size_t n_unlogged, cap_unlogged;
    /* Partition numbers in checkpoints, for store_position
     * (store_search.c); the VDBE steps its counts took (for tests). */
    struct store_ranks *ranks;
    uint64_t pos_steps;
    /* The item collection limit of tables with a local secondary index
     * (store_set_collection_max; 0: model/size.h's SIZE_COLLECTION_MAX). */
    uint64_t coll_max;
};

/* For tests only, which cannot write 10 GB: this handle's item collection
 * limit (0: SIZE_COLLECTION_MAX again), past which a write that grows a
 * collection is refused with ItemCollectionSizeLimitExceededException
 * (store_engine.c). */
void store_set_collection_max(store *s, uint64_t bytes);

/* Statements: prepared once, reset and bindings cleared on get. */
sqlite3_stmt *store_stmt(store *s, int which, diag *d);
status store_sqlerr(store *s, diag *d);
/* The store that keeps what the explorer saves beside the tables (saved
 * conditions, staged changes): s itself, or for a remote store the local
 * database beside it, opened on first use (store_set_local_path). *out is
 * NULL, with ST_OK, when a read finds no local file yet. what names the
 * things kept, for the error without a local path ("Saved conditions"). */
status store_local_home(store *s, bool write, const char *what, store **out, diag *d);

/* Transactions that nest inside store_begin: an outer one wins. */
status store_txn_begin(store *s, bool write, diag *d);
status store_txn_end(store *s, status st, diag *d);

/* Looks up a table (ResourceNotFoundException when missing). The tinfo is
 * owned by the cache and valid until the next table lookup/create/delete.
 * The cache trusts a definition while PRAGMA data_version says no other
 * connection committed since it was read; this connection's own writes to
 * the tables rows (create, delete) must forget the cache. */
status store_table(store *s, const char *name, tinfo **out, diag *d);
void store_forget_tables(store *s);
/* SQLITE_FCNTL_DATA_VERSION of the main database: unlike PRAGMA
 * data_version it changes with this connection's own commits too, and it
 * is the version of the snapshot the connection last began reading (SQLite
 * bumps it when a read transaction finds the file changed). -1 if SQLite
 * cannot say. */
int64_t store_file_version(store *s);

/* Frees store_position's partition checkpoints (store_close). */
void store_ranks_free(store *s);

/* Per-partition accounting. */
void store_delta(store *s, int64_t tid, int xid, const void *pk, size_t pk_len,
                 int64_t items, int64_t bytes);
status store_flush_deltas(store *s, diag *d);

/* DynamoDB item size (attribute names plus values). */
size_t store_item_size(const av *item);

/* Position of an index in def->idx plus one; 0 for NULL; -1 unknown. */
int store_index_xid(const table_def *def, const char *index);
/* A TableDescription into def: its JSON text (a stored one), or its
 * parsed tree (DescribeTable's answer). */
status store_def_from_desc(const char *json, table_def *def, diag *d);
status store_def_from_tree(const struct cJSON *desc, table_def *def, diag *d);

/* cJSON accessors, for every file of data/ that reads JSON (store_ops.c):
 * a string member (NULL when absent or not a string), a member that is
 * not null (NULL otherwise), a number member (0 when absent; *has, when
 * given, says whether it was there). */
const char *store_jstr(const struct cJSON *o, const char *name);
const struct cJSON *store_jget(const struct cJSON *o, const char *name);
double store_jnum(const struct cJSON *o, const char *name, bool *has);

/* Operations of the JSON door (store_api.c): request object in, response body
 * appended to out. */
typedef status (*store_op_fn)(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_create_table(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_describe_table(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_delete_table(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_list_tables(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_put_item(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_get_item(store *s, const struct cJSON *in, buf *out, diag *d);
/* GetItem from its JSON text when it is of the common simple kind and its
 * table is cached (store_item.c): true with the response in *out, false
 * (nothing done) to take the general path. */
bool store_item_get_fast(store *s, const char *text, size_t len, char **out);
status store_op_delete_item(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_update_item(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_query(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_scan(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_batch_write(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_batch_get(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_transact_write(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_transact_get(store *s, const struct cJSON *in, buf *out, diag *d);
/* PartiQL (store_partiql.c). */
status store_op_execute_statement(store *s, const struct cJSON *in, buf *out, diag *d);
/* ExecuteStatement typed (store_exec's DDB_EXECUTE): the statement,
 * Parameters, Limit, NextToken, ConsistentRead, ReturnConsumedCapacity and
 * ReturnValuesOnConditionCheckFailure of req; Items, NextToken,
 * LastEvaluatedKey and ConsumedCapacity into res. */
status store_pq_execute(store *s, const ddb_req *req, ddb_res *res, ddb_err *err);
status store_op_batch_execute_statement(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_execute_transaction(store *s, const struct cJSON *in, buf *out, diag *d);
void store_partiql_free(store_shared *sh);

/* Time to Live and tags (store_ttl.c, store_tags.c). */
status store_op_update_ttl(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_describe_ttl(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_tag_resource(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_untag_resource(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_list_tags(store *s, const struct cJSON *in, buf *out, diag *d);
/* CreateTable's Tags: checked before the table is made, stored after. */
status store_tags_check_create(const struct cJSON *tags, diag *d);
/* A new table's Tags (ddb_ctl's tags: L of M {Key, Value}; checked). */
status store_tags_put_new(store *s, int64_t tid, const av *tags, diag *d);
/* A deleted table's TTL setting and tags go with it. */
status store_ttl_tags_deleted(store *s, int64_t tid, diag *d);
/* DescribeTimeToLive and UpdateTimeToLive, typed (store_exec's): the
 * answer in res->streams (model/ddbres_streams.h). */
status store_ttl_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err);
/* The attribute of a DescribeTimeToLive answer when Time to Live is on
 * (ENABLED or ENABLING); NULL when it is off (borrowed from res). */
const char *store_ttl_answer_attr(const ddb_res *res);

/* Backups and point-in-time recovery (store_backup_api.c). */
status store_op_create_backup(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_describe_backup(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_list_backups(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_delete_backup(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_restore_from_backup(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_restore_to_point_in_time(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_update_continuous_backups(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_describe_continuous_backups(store *s, const struct cJSON *in, buf *out, diag *d);

/* ---- the `ddbx api` line protocol (store_line.c) ---- */

/* One line around run: the line read, run given its operation and Input
 * (an empty object when absent; the tree is run's to change, and freed
 * after), the answer line into *out (malloc'd), with the whole message a
 * long validation error keeps in s->err_msg. */
typedef status (*store_line_fn)(store *s, const char *op, struct cJSON *in, char **body, diag *d);
status store_line_run(store *s, const char *line, size_t len, store_line_fn run, char **out);
/* Appends the answer line: {"Output":body} on ST_OK, else
 * {"Error":{"Code":code,"Message":msg, the members of body}}. */
void store_line_answer(buf *b, status st, const char *body, const char *code, const char *msg,
                       size_t msg_len);

/* ---- the codec (store_codec.c) ---- */

/* A response body's parsed tree into res (the members it has). */
status store_codec_read(const struct cJSON *root, ddb_res *res, diag *d);
/* The members an error carries beside its message (extra: their JSON
 * object, as store_call gives it; NULL: none) into err. */
void store_codec_error(const char *extra, ddb_err *err);
/* store_exec with its error into d: the answer in res, as store_exec's,
 * or dropped when res is NULL (a request answered by its status alone,
 * the control plane's C calls). */
status store_exec_diag(store *s, const ddb_req *req, ddb_res *res, diag *d);
/* A request of kind that names table and nothing else (DescribeTable,
 * DeleteTable, DescribeTimeToLive), run as store_exec_diag runs it (here
 * or on the remote store): the answer in res (initialised by the caller,
 * the caller's to ddb_res_done; NULL: dropped). */
status store_exec_table(store *s, ddb_kind kind, const char *table, ddb_res *res, diag *d);
/* A request built for one call, run as store_exec_diag runs it and then
 * freed (ddb_req_done): res initialised here, the caller's to
 * ddb_res_done. */
status store_exec_once(store *s, ddb_req *req, ddb_res *res, diag *d);

/* The table kinds on typed requests, their answers in res->tables
 * (store_tables_exec.c): ListTables, DescribeTable, CreateTable,
 * DeleteTable, UpdateTable. */
status store_tables_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e);
struct ddb_table_desc;
struct ddb_tput;
/* CreateTable (store_tables_create.c): the request's checks on its body
 * (DynamoDB's shape checks and request checks, their messages: the JSON
 * door's, store_tables.c); the body read into req (ctl.create, tags,
 * policy, stream_view, table); the table made from req (ctl.create, or
 * ctl.def, which goes through the door's checks), its description in a
 * new *out. */
status store_create_check(store *s, const struct cJSON *in, diag *d);
status store_create_read(const struct cJSON *in, ddb_req *req, diag *d);
status store_tables_create(store *s, const ddb_req *req, struct ddb_table_desc **out, diag *d);
/* UpdateTable of a typed request (store_streams.c): its work still runs
 * on the request's JSON (store_gsi.c, store_capacity.c, store_streams.c),
 * so the body ddb_req_json prints goes through the door's checks and
 * work; the answer's description typed in a new *out. */
status store_tables_update(store *s, const ddb_req *req, struct ddb_table_desc **out, diag *d);
/* A stored TableDescription's text, or its parsed tree, read into a new
 * typed one. */
status store_tables_desc_read(const char *json, struct ddb_table_desc **out, diag *d);
status store_tables_desc_of(const struct cJSON *tree, struct ddb_table_desc **out, diag *d);
/* A parsed JSON tree as plain JSON values (objects as M, arrays as L,
 * numbers as N, as model/ddbjson's plain reader gives them). */
void store_codec_plain(const struct cJSON *tree, av *out);
/* DescribeTable's and DeleteTable's work (store_tables.c): name's live
 * description; the table deleted, and its description as DeleteTable
 * answers. */
status store_tables_describe(store *s, const char *name, struct ddb_table_desc **out, diag *d);
status store_tables_delete(store *s, const char *name, struct ddb_table_desc **out, diag *d);
/* GetItem, PutItem, UpdateItem, DeleteItem on typed requests (store_item.c). */
status store_item_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e);
/* Query and Scan pages on typed requests (store_query.c). */
status store_query_exec(store *s, const ddb_req *q, ddb_res *res, ddb_err *e);
/* Batches and transactions on typed requests (store_batch.c). */
status store_batch_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e);

/* The key attribute names a LastEvaluatedKey holds for the table (ix
 * NULL) or an index: the table's keys and the index's, unique, sorted by
 * name (store_query.c). A remote store's ExclusiveStartKey names the same. */
#define STORE_LEK_MAX (2 + 2 * SCHEMA_MAX_KEY_PARTS)
size_t store_lek_names(const table_def *def, const index_def *ix, const char *names[STORE_LEK_MAX]);

/* ---- remote stores (store_remote.c, store_remote_browse.c, store_remote_write.c) ----
 * The public functions start with `if (s->remote) return store_remote_...`
 * so that a remote store never reaches SQLite. */
void store_remote_free(struct store_remote *r);
status store_remote_call(store *s, const char *op, const char *input, size_t len, char **out,
                         diag *d);
status store_remote_call_line(store *s, const char *line, size_t len, char **out);
status store_remote_list_tables(store *s, char ***names, size_t *n, diag *d);
status store_remote_describe(store *s, const char *table, table_def *def, diag *d);
status store_remote_stats(store *s, const char *table, const char *index, table_stats *out,
                          diag *d);
status store_remote_partitions(store *s, const char *table, const char *index, const av *after,
                               bool backward, size_t max, part_info *out, size_t *n, diag *d);
status store_remote_partitions_by_size(store *s, const char *table, const char *index,
                                       size_t max, part_info *out, size_t *n, diag *d);
status store_remote_page(store *s, const char *table, const char *index, const av *pk,
                         const av *after, bool forward, size_t max, av *items, size_t *n,
                         diag *d);
status store_remote_begin(store *s, diag *d);
status store_remote_put_item(store *s, const char *table, const av *item, diag *d);
status store_remote_commit(store *s, diag *d);
void store_remote_rollback(store *s);
/* store_exec on a remote store: the write gate for a write, the request
 * printed and sent, its answer parsed once and read into res;
 * CreateTable and DeleteTable wait for the table. */
status store_remote_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err);

/* ---- the write path (store_write.c) ---- */

void store_key_init(store_key *k);
void store_key_done(store_key *k);

/* Checks an item against the key schema and index key types (DynamoDB's
 * messages) and encodes its key. */
status store_check_item(const table_def *def, const av *item, store_key *k, diag *d);
/* Checks a Key map (exactly the key attributes) and encodes it. */
status store_check_key(const table_def *def, const av *key, store_key *k, diag *d);
/* The same on the key's values, found by name: vals[0] the partition
 * key's, vals[1] the sort key's (NULL: not given), the map holding
 * exactly as many members as the schema has keys. */
status store_check_key_values(const table_def *def, const av *const vals[2], store_key *k, diag *d);

/* Reads the current item (found false when absent). */
status store_load(store *s, const tinfo *t, const store_key *k, av *item, bool *found,
                  uint64_t *size, diag *d);

/* Write accounting: the units for ConsumedCapacity, and how many bytes
 * the write added to its item collection (the item and its local index
 * entries; negative when it shrank it), for the collection limit. */
typedef struct store_wcap {
    double table;
    double idx[SCHEMA_MAX_INDEXES];  /* by xid - 1 */
    int64_t coll;
} store_wcap;

/*
 * Replaces (new_item) or deletes (new_item NULL) the item at k, whose
 * current state is old (NULL: absent), maintaining index entries and
 * partition accounting. Adds the write units to cap when not NULL.
 */
status store_apply(store *s, const tinfo *t, const store_key *k, const av *old,
                   const av *new_item, store_wcap *cap, diag *d);

/* The entries of index x (0-based) for every item of t, as the write path
 * makes them; x -1: every index's and the table's own partition counts
 * (a restore copied the items in whole). */
status store_rebuild(store *s, const tinfo *t, int x, diag *d);
/* The same for vector index vx alone (store_vector.c). */
status store_rebuild_vec(store *s, const tinfo *t, int vx, diag *d);
/* Does index ix hold an entry for item: its index keys present, of the
 * defined types, not empty, within the key size limits? */
/* An item's key in index ix, into ipk and isk (reset first): the
 * keyenc encodings of its HASH attributes one after another, and of its
 * RANGE attributes (a multi-attribute key is the tuple; the encoding is
 * self-delimiting, so the bytes sort as the attributes do in turn, and
 * a one-attribute key is encoded as it always was). False when the item
 * lacks one of them or has one of another type (not in the index). */
bool store_index_key(const index_def *ix, const av *item, buf *ipk, buf *isk);
/* The explorer names a partition by its partition key value; one of an
 * index (ix) whose key has several HASH attributes by the list (AV_L) of
 * their values, in KeySchema order (store.h: part_info). Appends it
 * encoded as the parts and idx tables hold it (ix NULL: the table's). */
void store_part_key_encode(const index_def *ix, const av *pk, buf *out);
bool store_index_holds(const index_def *ix, const av *item);

/* ---- OnDemandThroughput and WarmThroughput (store_capacity.c) ---- */

/* The members' shapes: F_CAPACITY on CreateTable, each of its GSIs and
 * UpdateTable; F_CREATE_MORE CreateTable's ResourcePolicy and its
 * multi-account global table members (store_policy.c). */
extern const struct vspec store_odt_fields[], store_warm_fields[];
extern const char *const store_e_gtsrm[];
#define F_CAPACITY \
    { .name = "OnDemandThroughput", .type = VT_FSTRUCT, .sub = "OnDemandThroughput", .fields = store_odt_fields }, \
    { .name = "WarmThroughput", .type = VT_FSTRUCT, .sub = "WarmThroughput", .fields = store_warm_fields }
#define F_CREATE_MORE \
    { .name = "ResourcePolicy", .type = VT_STRING }, \
    { .name = "GlobalTableSourceArn", .type = VT_STRING, .min_len = 1, .max_len = 1024 }, \
    { .name = "GlobalTableSettingsReplicationMode", .type = VT_STRING, .enums = store_e_gtsrm }
/* BillingMode against ProvisionedThroughput (CreateTable). */
status store_capacity_check_billing(const struct cJSON *in, bool ppr, diag *d);
/* CreateTable's OnDemandThroughput and WarmThroughput, the table's and
 * each GSI's, against the billing and the capacity; then what the
 * description keeps of them (the members given). */
status store_capacity_check_create(const struct cJSON *in, diag *d);
/* The WarmThroughput floor of a table or GSI at creation: ppr's, else
 * the ProvisionedThroughput given (pt; NULL or a member absent: 1). */
void store_capacity_warm_floor(const struct ddb_tput *pt, bool ppr, double *r, double *w);
/* DescribeTable's WarmThroughput, the table's and each GSI's: the one
 * kept, at least the floor (12000/4000 on demand, else the capacity). */
void store_capacity_describe(struct cJSON *desc);
/* UpdateTable: whether it asks a capacity change; its checks against
 * the stored description; then the change, after the billing and
 * throughput changes are applied to desc. */
bool store_capacity_asked(const struct cJSON *in);
status store_capacity_update_check(const struct cJSON *in, const struct cJSON *desc, diag *d);
void store_capacity_update(const struct cJSON *in, struct cJSON *desc);

/* ---- resource policies (store_policy.c) ---- */

status store_op_put_resource_policy(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_get_resource_policy(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_delete_resource_policy(store *s, const struct cJSON *in, buf *out, diag *d);
/* CreateTable: its ResourcePolicy's and GlobalTableSourceArn's checks;
 * once the table is made, its policy kept. */
status store_policy_check_create(const struct cJSON *in, diag *d);
status store_policy_created(store *s, const char *table, const char *policy, diag *d);
/* A deleted table's policies (its stream's too) go with it. */
status store_policy_forget(store *s, int64_t tid, diag *d);

/* ---- UpdateTable's index and capacity changes (store_gsi.c, with pieces
 * of CreateTable's from store_tables.c) ---- */

extern const struct vspec store_attrdef_elem, store_gsi_update_elem, store_tag_elem;
extern const struct vspec store_gsi_elem, store_lsi_elem;
extern const struct vspec store_pt_fields[];
/* CreateTable's semantic checks of a request (keys, indexes, billing),
 * and the TableDescription it makes of a request body (checked; status
 * CREATING, counts 0, a new TableId; store_tables_create.c), as a tree:
 * a restore makes its table with both. */
status store_create_checks(const struct cJSON *in, diag *d);
struct cJSON *store_create_tree(const struct cJSON *in);
/* A GSI Create's own checks (keys defined in defs, HASH then RANGE, the
 * projection, no throughput on a PAY_PER_REQUEST table). */
status store_check_new_gsi(const struct cJSON *create, const struct cJSON *defs, bool ppr, diag *d);
/* The new index's description (IndexStatus CREATING, counts 0, ARN). */
struct cJSON *store_gsi_desc(const char *table, const struct cJSON *create);
/* UpdateTable's GlobalSecondaryIndexUpdates, BillingMode and
 * ProvisionedThroughput: checked against the table (check, before any
 * change), then applied on desc and the index rows (apply). The apply
 * notes in *resp what the response shows other than DescribeTable's
 * (the created index CREATING, the deleted one DELETING). */
status store_gsi_check(store *s, const tinfo *t, const struct cJSON *in, const struct cJSON *desc,
                       diag *d);
status store_gsi_apply(store *s, tinfo *t, const struct cJSON *in, struct cJSON *desc,
                       struct cJSON *resp, diag *d);
/* After the new description is stored: the deleted index's rows gone,
 * the created one's backfilled. */
status store_gsi_rows(store *s, const char *table, const struct cJSON *resp, diag *d);
/* Rewrites the typed description of UpdateTable's answer with the notes:
 * the created GSI CREATING, the deleted one added DELETING. */
status store_gsi_response(struct ddb_table_desc *t, const struct cJSON *resp, diag *d);

/* ---- the change log (store_changes.c) and DynamoDB Streams (store_streams.c) ---- */

/* The kinds of change records (the changes.ttl column). */
enum { STORE_LOG_WRITE = 0, STORE_LOG_TTL = 1, STORE_LOG_HISTORY = 2 };
/* Appends the record of one item's change (old/new as store_apply has
 * them; new_enc the new item's encoding when the caller has it, else
 * NULL). Nothing when both are absent or equal: DynamoDB writes no stream
 * record for a write that changes nothing. */
status store_log_change(store *s, const tinfo *t, const av *old, const av *new_item,
                        const buf *new_enc, diag *d);
/* A bulk write's record on a table with point-in-time recovery: a
 * history-only record (STORE_LOG_HISTORY) holding the old image and, for
 * the new one, only the key: what undoing needs. Streams and the feed
 * skip them, as they have no record of a bulk write otherwise. */
status store_log_history(store *s, const tinfo *t, const av *old, const av *new_item, diag *d);
/* At the end of a write transaction: tells store_set_own_changes' fn of
 * the records logged in it when it committed, forgets them either way. */
void store_own_committed(store *s, bool committed);
/* One bounded trim step (at most `max` records older than the retention),
 * inside the caller's write transaction. */
status store_trim_changes(store *s, int max, diag *d);
/* A trim step in its own transaction before a stream read, so that
 * records past the retention are gone even when nothing has been written
 * for a while (nothing on a read-only store). */
status store_trim_before_read(store *s, diag *d);
/* The time of a change, in ms; never backward within one process. */
int64_t store_now_ms(store *s);
/* The last seq given in table tid (0: none yet). */
status store_last_seq(store *s, int64_t tid, int64_t *out, diag *d);
/* Runs one statement of constant SQL text with nargs integer parameters. */
status store_sql(store *s, const char *sql, const int64_t *args, int nargs, diag *d);
/* CreateTable with a stream of StreamViewType view (NULL: none): the
 * stream row, and *desc (the stored description, malloc'd) rewritten with
 * StreamSpecification and LatestStreamArn/Label.
 * DeleteTable: every stream of the table disabled. */
status store_streams_created(store *s, int64_t tid, const char *name, const char *view,
                             char **desc, diag *d);
status store_streams_table_deleted(store *s, int64_t tid, diag *d);
/* CreateTable's StreamSpecification checks. */
status store_streams_check_spec(const struct cJSON *spec, bool create, diag *d);

status store_op_update_table(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_list_streams(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_describe_stream(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_get_shard_iterator(store *s, const struct cJSON *in, buf *out, diag *d);
status store_op_get_records(store *s, const struct cJSON *in, buf *out, diag *d);
/* DescribeStream, GetShardIterator and GetRecords, typed (store_exec's):
 * the answer in res->streams. */
status store_streams_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err);

/* The ARNs' region and account (DynamoDB Local's and dynalite's). */
#define STORE_REGION "us-east-1"
#define STORE_ARN_PREFIX "arn:aws:dynamodb:" STORE_REGION ":000000000000:table/"

/* ---- backups and point-in-time recovery (store_backup.c, store_pitr.c,
 * store_items.c; the JSON operations in store_backup_api.c) ---- */

/* At open, inside the schema transaction of a writable store: the
 * version 6 tables (the tables an older file holds get a history whose
 * log is complete from now: its bulk loads left no trace), the schema
 * version, and the backups folder tidied (a file no row names is a
 * backup a crash or a delete left half done). Read-only: whether the
 * file has the tables (s->has.history). */
status store_backup_open(store *s, diag *d);
/* Whether the file has the version 6 tables now: has.history, looked for
 * again while it is false (a read-only connection opened before a writer
 * upgraded the file), as store_vec_has. Every reader of the backups and
 * history tables asks this, not has.history. */
bool store_history_has(store *s);
void store_backup_close(store *s);
/* Random bytes (the ARNs' and TableIds' random parts). */
void store_random(void *p, size_t n);
/* A version 4 UUID, as text (store_ids.c). */
void store_uuid4(char out[37]);

/* A backup's catalogue row. */
typedef struct store_bk_row {
    int64_t id, tid;
    char *bid, *name, *tname, *desc, *ttl, *file;
    int type;              /* STORE_BACKUP_USER, STORE_BACKUP_SYSTEM */
    bool automatic;
    int64_t created, expires;
    uint64_t items, bytes;
} store_bk_row;
void store_bk_row_done(store_bk_row *r);
/* The row's ARN. */
void store_bk_arn(buf *out, const store_bk_row *r);
/* By ARN, with DynamoDB's checks of its shape (ValidationException) and
 * BackupNotFoundException. */
status store_bk_find(store *s, const char *arn, store_bk_row *r, diag *d);
struct store_backup_filter;
status store_bk_list(store *s, const struct store_backup_filter *f, store_bk_row **rows, size_t *n,
                     bool *more, diag *d);
void store_bk_rows_free(store_bk_row *rows, size_t n);
/* Takes a backup (see store_backup_create); *out its row. */
status store_bk_create(store *s, const char *table, const char *name, bool automatic,
                       store_bk_row *out, diag *d);
/* Deletes a USER backup (its row, then its file); *r the row it was.
 * A SYSTEM backup is refused with DynamoDB's message. */
status store_bk_remove(store *s, const char *arn, store_bk_row *r, diag *d);
/* A backup file's path (malloc'd). */
char *store_bk_file_path(store *s, const char *file);

/* Where a restore takes its items from. */
typedef struct store_restore_src {
    const char *file;      /* a backup file in the backups folder; NULL: this database */
    int64_t tid;           /* the items' tid there */
    int64_t undo_tid;      /* point in time: this table's changes after at_ms undone (0: none) */
    const char *undo_name; /* and its name */
    int64_t at_ms;
} store_restore_src;
/* Creates the table desc describes (its TableName the target) holding
 * src's items, its index entries and counts rebuilt, in one write
 * transaction. TableAlreadyExistsException when the name is taken; for a
 * point in time, the window is checked inside the transaction. */
status store_restore_table(store *s, const store_restore_src *src, const struct cJSON *desc, diag *d);
/* The description of a table restored from src_desc (a stored
 * TableDescription) as target, with RestoreTableFromBackup's overrides
 * in `in` (BillingModeOverride, ProvisionedThroughputOverride,
 * GlobalSecondaryIndexOverride, LocalSecondaryIndexOverride; in may be
 * NULL): checked with DynamoDB's messages. NULL on error. */
struct cJSON *store_restore_desc(const char *src_desc, const char *target, const struct cJSON *in,
                                 diag *d);

/* ---- the backup kinds typed (store_backup_exec.c) ---- */
struct ddb_backup;
/* store_exec's case for CreateBackup, ListBackups, DescribeBackup,
 * DeleteBackup and RestoreTableFromBackup on the local store: the answer
 * in res->backups (model/ddbres_backups.h). */
status store_backup_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err);
/* A backup's row as the typed answer's backup, BackupStatus status_text. */
void store_bk_backup(const store_bk_row *r, const char *status_text, struct ddb_backup *b);
/* A TableName member that may be the table's ARN ("You can also provide
 * the Amazon Resource Name (ARN) of the table in this parameter"). */
const char *store_bk_table_of(const char *name_or_arn);
/* RestoreTableFromBackup's and RestoreTableToPointInTime's
 * TableDescription (JSON text, *td_text malloc'd): target's, CREATING,
 * with its RestoreSummary. */
status store_restore_answer(store *s, const char *target, const char *backup_arn, const char *table_arn,
                            int64_t at_ms, char **td_text, diag *d);

/* *pitr: recovery enabled on table tid (false for a file without
 * history). */
status store_history_pitr(store *s, int64_t tid, bool *pitr, diag *d);
/* A new table: its log complete from now. */
status store_history_created(store *s, int64_t tid, diag *d);
/* store_put_item wrote to table tid without a change record. */
void store_history_note_unlogged(store *s, int64_t tid);
/* Before commit: each table of s->unlogged has its log complete only
 * from now. */
status store_history_unlogged(store *s, diag *d);
/* DeleteTable of t (inside its transaction): the history goes, and with
 * recovery enabled a SYSTEM backup keeps the items where they are
 * (*keep_items true: the caller leaves them). */
status store_backup_table_deleted(store *s, const tinfo *t, bool *keep_items, diag *d);
/* Trimming (store_changes.c): the cutoff below which table tid's records
 * may go (the stream retention's, or earlier for the recovery window);
 * and after records up to upto_ms went, the log's completeness moves on. */
status store_history_cutoff(store *s, int64_t tid, int64_t stream_cutoff, int64_t *keep_cutoff, diag *d);
status store_history_trimmed(store *s, int64_t tid, int64_t upto_ms, diag *d);
/* A bounded step of SYSTEM backup expiry: at most budget item rows of
 * expired backups removed (inside the caller's write transaction). */
status store_backup_expire(store *s, int budget, diag *d);
/* The window over which table tid's state can be rebuilt from its log
 * (see store_log_window); pitr_* as store_pitr. */
typedef struct store_hist {
    int64_t complete;      /* the log holds every change after this (ms) */
    bool pitr;
    int64_t pitr_since;
    int days;
} store_hist;
/* The earliest moment a point-in-time restore of a table with history h
 * may ask for, at now. */
int64_t store_pitr_earliest(const store_hist *h, int64_t now);
/* RestoreTableToPointInTime's checks of table tid (named name) at at_ms:
 * recovery enabled (PointInTimeRecoveryUnavailableException), at_ms in
 * the window (InvalidRestoreTimeException), with DynamoDB's messages. */
status store_pitr_window_check(store *s, int64_t tid, const char *name, int64_t at_ms, diag *d);

/* The changes of table tid after at_ms, newest first, for undoing: fn
 * gets each change's key (encoded) and its old image (NULL: the item did
 * not exist before), and may stop the walk by returning non-OK. db is s's
 * connection or a reader's own. */
typedef status (*store_undo_fn)(void *ctx, const store_key *k, const void *old, size_t old_len,
                                diag *d);
status store_undo_walk(sqlite3 *db, store *s, const table_def *def, int64_t tid, int64_t at_ms,
                       store_undo_fn fn, void *ctx, diag *d);

/* ---- the read path (store_read.c) ---- */

enum { RB_NONE, RB_INCL, RB_EXCL };

/* One range read: a Query of one partition (pk set) or a Scan (pk NULL),
 * of the table (xid 0) or an index. Values are borrowed. */
typedef struct store_rq {
    const tinfo *t;
    int xid;
    const av *pk;
    int lo_op, hi_op;          /* RB_* on the sort key */
    const av *lo, *hi;
    const av *prefix;          /* begins_with on the sort key */
    /* A multi-attribute index key (store_query.c): the partition and the
     * bounds as encoded tuples, used instead of pk, lo and hi (prefix
     * NULL then); the bound operators are lo_op and hi_op. */
    const buf *pk_enc, *lo_enc, *hi_enc;
    bool forward;
    const av *start;           /* ExclusiveStartKey (an item or key map) */
    int segment, segments;     /* Scan segments (segments 0: none) */
    bool fetch;                /* an index read that wants whole items (an
                                  LSI fetching what it does not project):
                                  read through the table */
} store_rq;

/* The parallel Scan segment (of segments) holding the partition whose
 * encoded table partition key is pk[0..n). */
int store_segment_of(const void *pk, size_t n, int segments);

/* A row of a read: the item's size and body (an index read from its
 * entries' bodies: the entry's, which may be cut to the projection), for
 * an index the entry's own size, and for a segmented Scan the table
 * partition key's bytes (pk; unset otherwise). Pointers valid until the
 * next step. */
typedef struct store_row {
    const void *pk, *body;
    size_t pk_len, body_len;
    uint64_t size, entry_size;
    bool whole;            /* body is the table's whole item (a table read,
                              an index read through the table, an entry
                              without a body): an index not ALL cuts it */
} store_row;

typedef struct store_cursor {
    store *s;
    sqlite3_stmt *q;
    const store_rq *rq;
    buf last_pk;
    bool last_in;
    unsigned next_shape;   /* a table Scan from a start key: the statement
                              after the start partition's (store_read.c) */
    buf start_pk;          /* its start partition key, encoded */
    bool whole_col;        /* the statement says whether a body is whole */
} store_cursor;

status store_cursor_open(store *s, const store_rq *rq, store_cursor *c, diag *d);
/* ST_OK with *has false at the end. */
status store_cursor_next(store_cursor *c, store_row *row, bool *has, diag *d);
void store_cursor_close(store_cursor *c);

/* Applies an index's projection to a full item (into an uninitialised out). */
void store_project_index(const table_def *def, const index_def *ix, const av *item, av *out);

/* ---- index entry bodies (store_idxbody.c) ---- */

/* The body index ix stores for item, into out (reset first); an ALL
 * index's is the item's own encoding, which the write path has already. */
void store_entry_body(const table_def *def, const index_def *ix, const av *item, buf *out);
/* At open, inside the schema transaction of a writable store: the body
 * column added and filled when the file is older than version 5, and the
 * schema version set; store_idx_body_has says whether index reads find bodies. */
status store_idx_body_open(store *s, diag *d);
/* Whether idx has the body column now: has.idx_body, looked for again
 * while it is false (a read-only connection opened before a writer
 * upgraded the file), as store_vec_has. Every reader asks this, not
 * has.idx_body. */
bool store_idx_body_has(store *s);

/* ---- vector indexes (store_vector.c, store_vsearch.c) ---- */

/* A CreateTable (create) or UpdateTable body's members against DynamoDB's
 * lists: one in neither is refused, named (store_members.c). */
status store_members_check(const struct cJSON *in, bool create, diag *d);
/* VectorIndexes' element and VectorIndexUpdates' element shapes. */
extern const vspec store_vix_elem, store_vix_update_elem;
/* At open: the vecs table (made when writable; has.vecs). */
status store_vec_open(store *s, diag *d);
/* A bit of s->has, looked for again while it is false: probe is a
 * statement that prepares only when the file has what the bit says
 * (store_vector.c). */
bool store_has_now(store *s, bool *bit, const char *probe);
/* Whether the file has the vecs table now: has.vecs, looked for again
 * while it is false (a read-only connection opened before a writer made
 * the table). Every reader of the vecs table asks this, not has.vecs. */
bool store_vec_has(store *s);
/* CreateTable: the VectorIndexes' checks (after the key schema's); the
 * description's VectorIndexes. */
status store_vec_create_checks(const struct cJSON *in, diag *d);
/* A write's item against the vector indexes (refused whole with
 * DynamoDB's message); the entries of the write, in its transaction. */
status store_vec_check_item(const table_def *t, const av *item, diag *d);
status store_vec_apply(store *s, const tinfo *t, const store_key *k, const av *old, const av *new_item, diag *d);
/* Vector index vx's entry (every index's: vx < 0) of one item, for the
 * rebuild (store_write.c); a table's (vname NULL) or one index's entries
 * dropped. */
status store_vec_backfill_item(store *s, const tinfo *t, int vx, const store_key *k, const av *item, diag *d);
status store_vec_drop(store *s, int64_t tid, const char *vname, diag *d);
/* The version of a table's entries (vecver; 0: never changed). */
int64_t store_vec_version(store *s, int64_t tid);
/* DescribeTable: live ItemCount and IndexSizeBytes into desc. */
status store_vec_live(store *s, int64_t tid, struct cJSON *desc, diag *d);
/* UpdateTable's VectorIndexUpdates onto desc; then, once the new
 * description is in place, the new indexes' entries. */
status store_vec_update(store *s, tinfo *t, const struct cJSON *in, struct cJSON *desc, diag *d);
status store_vec_backfill(store *s, tinfo *t, const struct cJSON *in, diag *d);
/* Backups: a restore's CreateTable keeps the source's vector indexes
 * (their schema attributes marked in used). (A backup's
 * SourceTableFeatureDetails lists them from the typed definition:
 * model/ddbres_backups.c.) */
void store_vec_restore_req(const struct cJSON *src, struct cJSON *req, struct cJSON *used);
/* The refusal of a Query or Scan (op) naming index, which the table
 * lacks: a vector index's own words when it is one ("Vector indexes do
 * not support Query or Scan operations", the developer guide). */
status store_vec_not_readable(const table_def *def, const char *index, const char *op, diag *d);
/* SearchVectors: the typed operation and its JSON door. */
status store_vec_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e);
status store_op_search_vectors(store *s, const struct cJSON *in, buf *out, diag *d);
/* The shared packed vectors let go (the last handle on the file closes). */
void store_vcache_drop(store_shared *sh);

#endif
