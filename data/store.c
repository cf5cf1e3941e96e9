/*
 * store — opening the database, cached statements, transactions, the
 * table catalogue cache and partition accounting. The operations live in
 * store_tables.c (catalogue), store_write.c and store_read.c (the write
 * and read paths), store_engine.c (store_exec, and what the typed
 * operations of store_item.c, store_query.c and store_batch.c share) and
 * store_api.c (the JSON door).
 */
#include "data/store_int.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>
#include <sys/stat.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model/mem.h"

/* Parses a stored TableDescription (store_tables.c). */
status store_def_from_desc(const char *json, table_def *def, diag *d);

static const char *const sql_text[Q__COUNT] = {
    [Q_BEGIN] = "BEGIN",
    [Q_BEGIN_IMM] = "BEGIN IMMEDIATE",
    [Q_COMMIT] = "COMMIT",
    [Q_ROLLBACK] = "ROLLBACK",
    [Q_TABLE_BY_NAME] = "SELECT id, ver FROM tables WHERE name = ?1",
    [Q_TABLE_LOAD] = "SELECT id, ver, description FROM tables WHERE name = ?1",
    [Q_TABLE_NAMES] = "SELECT name FROM tables ORDER BY name",
    [Q_TABLE_NAMES_AFTER] = "SELECT name FROM tables WHERE name > ?1 ORDER BY name LIMIT ?2",
    [Q_TABLE_INSERT] = "INSERT INTO tables(name, ver, description) VALUES(?1, 1, ?2)",
    [Q_TABLE_DELETE] = "DELETE FROM tables WHERE id = ?1",
    [Q_ITEM_GET] = "SELECT size, body FROM items WHERE tid = ?1 AND pk = ?2 AND sk = ?3",
    [Q_ITEM_INSERT_NEW] = "INSERT INTO items(tid, pk, sk, size, body) VALUES(?1, ?2, ?3, ?4, ?5)"
                          " ON CONFLICT DO NOTHING",
    [Q_ITEM_REPLACE] = "INSERT OR REPLACE INTO items(tid, pk, sk, size, body) VALUES(?1, ?2, ?3, ?4, ?5)",
    [Q_ITEM_DELETE] = "DELETE FROM items WHERE tid = ?1 AND pk = ?2 AND sk = ?3",
    [Q_IDX_INSERT] = "INSERT OR REPLACE INTO idx(tid, xid, ipk, isk, pk, sk, size, body)"
                     " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    [Q_IDX_DELETE] = "DELETE FROM idx WHERE tid = ?1 AND xid = ?2 AND ipk = ?3 AND isk = ?4"
                     " AND pk = ?5 AND sk = ?6",
    [Q_PART_UPSERT] = "INSERT INTO parts(tid, xid, pk, items, bytes) VALUES(?1, ?2, ?3, ?4, ?5)"
                      " ON CONFLICT(tid, xid, pk) DO UPDATE SET items = items + excluded.items,"
                      " bytes = bytes + excluded.bytes RETURNING items",
    [Q_PART_DELETE_EMPTY] = "DELETE FROM parts WHERE tid = ?1 AND xid = ?2 AND pk = ?3 AND items <= 0",
    [Q_STATS_UPSERT] = "INSERT INTO stats(tid, xid, items, bytes, parts) VALUES(?1, ?2, ?3, ?4, ?5)"
                       " ON CONFLICT(tid, xid) DO UPDATE SET items = items + excluded.items,"
                       " bytes = bytes + excluded.bytes, parts = parts + excluded.parts",
    [Q_STATS_GET] = "SELECT items, bytes, parts FROM stats WHERE tid = ?1 AND xid = ?2",
    [Q_DATA_VERSION] = "PRAGMA data_version",
    [Q_READ_HOLD] = "PRAGMA data_version",
    [Q_DEL_ITEMS] = "DELETE FROM items WHERE tid = ?1",
    [Q_DEL_IDX] = "DELETE FROM idx WHERE tid = ?1",
    [Q_DEL_PARTS] = "DELETE FROM parts WHERE tid = ?1",
    [Q_DEL_STATS] = "DELETE FROM stats WHERE tid = ?1",
    [Q_PARTS_FWD] = "SELECT pk, items, bytes FROM parts WHERE tid = ?1 AND xid = ?2"
                    " ORDER BY pk LIMIT ?3",
    [Q_PARTS_FWD_FROM] = "SELECT pk, items, bytes FROM parts WHERE tid = ?1 AND xid = ?2 AND pk > ?4"
                         " ORDER BY pk LIMIT ?3",
    [Q_PARTS_BACK] = "SELECT pk, items, bytes FROM parts WHERE tid = ?1 AND xid = ?2"
                     " ORDER BY pk DESC LIMIT ?3",
    [Q_PARTS_BACK_FROM] = "SELECT pk, items, bytes FROM parts WHERE tid = ?1 AND xid = ?2 AND pk < ?4"
                          " ORDER BY pk DESC LIMIT ?3",
    [Q_PART_GET] = "SELECT pk, items, bytes FROM parts WHERE tid = ?1 AND xid = ?2 AND pk = ?4 LIMIT ?3",
    [Q_PARTS_BY_SIZE] = "SELECT pk, items, bytes FROM parts WHERE tid = ?1 AND xid = ?2"
                        " ORDER BY items DESC, bytes DESC, pk LIMIT ?3",
    /* Sequence numbers are the table's own: the next after its newest
     * record (which trimming keeps, emptied, so none is given twice). */
    [Q_CHANGE_INSERT] = "INSERT INTO changes(tid, seq, t, ttl, old, new) VALUES(?1,"
                        " coalesce((SELECT max(seq) FROM changes WHERE tid = ?1), 0) + 1, ?2, ?3, ?4, ?5)",
    [Q_CHANGE_NEXT_TID] = "SELECT tid FROM changes WHERE tid > ?1 ORDER BY tid LIMIT 1",
    [Q_CHANGE_OLDEST] = "SELECT seq, t, old IS NULL AND new IS NULL FROM changes WHERE tid = ?1"
                        " ORDER BY seq LIMIT ?2",
    [Q_CHANGE_LAST_SEQ] = "SELECT max(seq) FROM changes WHERE tid = ?1",
    [Q_CHANGE_TRIM] = "DELETE FROM changes WHERE tid = ?1 AND seq <= ?2",
    [Q_CHANGE_EMPTY] = "UPDATE changes SET old = NULL, new = NULL WHERE tid = ?1 AND seq = ?2",
    [Q_STREAM_TRIMMED] = "UPDATE streams SET trimmed = min(?2, coalesce(end_seq, ?2)) WHERE tid = ?1"
                         " AND start_seq < ?2 AND trimmed < min(?2, coalesce(end_seq, ?2))",
};

#define SCHEMA_SQL \
    "CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value);" \
    "CREATE TABLE IF NOT EXISTS tables(id INTEGER PRIMARY KEY AUTOINCREMENT," \
    " name TEXT NOT NULL UNIQUE, ver INTEGER NOT NULL, description TEXT NOT NULL);" \
    "CREATE TABLE IF NOT EXISTS items(tid INTEGER NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL," \
    " size INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY(tid, pk, sk)) WITHOUT ROWID;" \
    "CREATE TABLE IF NOT EXISTS idx(tid INTEGER NOT NULL, xid INTEGER NOT NULL," \
    " ipk BLOB NOT NULL, isk BLOB NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL," \
    " size INTEGER NOT NULL, body BLOB, PRIMARY KEY(tid, xid, ipk, isk, pk, sk)) WITHOUT ROWID;" \
    "CREATE TABLE IF NOT EXISTS parts(tid INTEGER NOT NULL, xid INTEGER NOT NULL," \
    " pk BLOB NOT NULL, items INTEGER NOT NULL, bytes INTEGER NOT NULL," \
    " PRIMARY KEY(tid, xid, pk)) WITHOUT ROWID;" \
    "CREATE TABLE IF NOT EXISTS stats(tid INTEGER NOT NULL, xid INTEGER NOT NULL," \
    " items INTEGER NOT NULL, bytes INTEGER NOT NULL, parts INTEGER NOT NULL," \
    " PRIMARY KEY(tid, xid)) WITHOUT ROWID;" \
    "INSERT OR IGNORE INTO meta(key, value) VALUES('schema', 1);" \
    SCHEMA_2_SQL \
    SCHEMA_4_SQL

/* Version 2: the change log and streams (store_int.h). Only adds tables,
 * so a version 1 file is brought up to date in place by opening it
 * writable, and an older ddbx still opens a version 2 file. */
#define SCHEMA_2_SQL \
    "CREATE TABLE IF NOT EXISTS changes(tid INTEGER NOT NULL, seq INTEGER NOT NULL," \
    " t INTEGER NOT NULL, ttl INTEGER NOT NULL, old BLOB, new BLOB, PRIMARY KEY(tid, seq))" \
    " WITHOUT ROWID;" \
    "CREATE TABLE IF NOT EXISTS streams(sid INTEGER PRIMARY KEY AUTOINCREMENT," \
    " tid INTEGER NOT NULL, tname TEXT NOT NULL, label TEXT NOT NULL, view TEXT NOT NULL," \
    " created INTEGER NOT NULL, start_seq INTEGER NOT NULL, end_seq INTEGER, disabled INTEGER," \
    " trimmed INTEGER NOT NULL, keys TEXT NOT NULL);" \
    "CREATE INDEX IF NOT EXISTS streams_tid ON streams(tid);" \
    "UPDATE meta SET value = 2 WHERE key = 'schema' AND value < 2;" \
    SCHEMA_3_SQL

/* Version 3: TTL settings, tags and TransactWriteItems' ClientRequestTokens
 * (store_int.h). Only adds tables, as version 2 did. */
#define SCHEMA_3_SQL \
    "CREATE TABLE IF NOT EXISTS ttl(tid INTEGER PRIMARY KEY, attr TEXT NOT NULL," \
    " enabled INTEGER NOT NULL);" \
    "CREATE TABLE IF NOT EXISTS tags(tid INTEGER NOT NULL, key TEXT NOT NULL," \
    " value TEXT NOT NULL, PRIMARY KEY(tid, key)) WITHOUT ROWID;" \
    "CREATE TABLE IF NOT EXISTS tokens(token TEXT PRIMARY KEY, hash TEXT NOT NULL," \
    " t INTEGER NOT NULL) WITHOUT ROWID;" \
    "UPDATE meta SET value = 3 WHERE key = 'schema' AND value < 3;"

/* Version 4: the explorer's staged changes (data/staged.h), kept per
 * scope (an endpoint's, or "" for this file's own tables). Only adds a
 * table, as version 2 did. (Version 3 is the TTL, tags and tokens tables
 * of the branch that added them; merged, SCHEMA_4_SQL follows
 * SCHEMA_3_SQL.) */
#define SCHEMA_4_SQL \
    "CREATE TABLE IF NOT EXISTS staged(scope TEXT NOT NULL, tbl TEXT NOT NULL, key TEXT NOT NULL," \
    " before TEXT, after TEXT, seq INTEGER NOT NULL, PRIMARY KEY(scope, tbl, key)) WITHOUT ROWID;" \
    STAGED_SEQ_SQL \
    "UPDATE meta SET value = 4 WHERE key = 'schema' AND value < 4;"
/* The staged rows of a scope by seq, and the staged new items alone (the table
 * view merges them into its pages): the next seq (max), a commit's next
 * group and a page's new items found without reading every row (each
 * was a full scan: quadratic for a million staged changes, issue 38).
 * Indexes only, so a file without them (an older ddbx's) gets them at
 * its next writable open and still reads. */
#define STAGED_SEQ_SQL "CREATE INDEX IF NOT EXISTS staged_order ON staged(scope, seq);" \
    "CREATE INDEX IF NOT EXISTS staged_new ON staged(scope, tbl, seq) WHERE before IS NULL;"

status store_sqlerr(store *s, diag *d)
{
    int rc = sqlite3_extended_errcode(s->db);
    if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
        return diag_set(d, ST_BUSY, "database busy: %s", sqlite3_errmsg(s->db));
    if ((rc & 0xff) == SQLITE_READONLY)
        return diag_set(d, ST_READ_ONLY, "database is read-only");
    if ((rc & 0xff) == SQLITE_INTERRUPT)
        return diag_set(d, ST_IO, "stopped: the statement was rolled back (store_set_stop)");
    return diag_set(d, ST_INTERNAL, "sqlite: %s", sqlite3_errmsg(s->db));
}

sqlite3_stmt *store_stmt(store *s, int which, diag *d)
{
    assert(which >= 0 && which < Q__COUNT);
    sqlite3_stmt *st = s->q[which];
    if (st) {
        sqlite3_reset(st);
        sqlite3_clear_bindings(st);
        return st;
    }
    if (sqlite3_prepare_v3(s->db, sql_text[which], -1, SQLITE_PREPARE_PERSISTENT,
                           &st, NULL) != SQLITE_OK) {
        store_sqlerr(s, d);
        return NULL;
    }
    s->q[which] = st;
    return st;
}

static status run_simple(store *s, int which, diag *d)
{
    sqlite3_stmt *st = store_stmt(s, which, d);
    if (!st)
        return d->code;
    int rc = sqlite3_step(st);
    sqlite3_reset(st);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW)
        return store_sqlerr(s, d);
    return ST_OK;
}

int64_t store_file_version(store *s)
{
    unsigned int v = 0;
    if (sqlite3_file_control(s->db, "main", SQLITE_FCNTL_DATA_VERSION, &v) != SQLITE_OK)
        return -1;
    return v;
}

status store_txn_begin(store *s, bool write, diag *d)
{
    if (write && s->read_only)
        return diag_set(d, ST_READ_ONLY, "the database was opened read-only");
    if (s->txn_depth > 0) {
        /* Inside store_begin (always a write transaction) or a nested
         * operation: ride along. A read transaction is no BEGIN (below),
         * so a write cannot join one. */
        if (write && !s->txn_write)
            return diag_set(d, ST_INTERNAL, "a write inside a read transaction");
        s->txn_depth++;
        return ST_OK;
    }
    if (!write) {
        /* A read is one statement held open instead of BEGIN ... COMMIT:
         * SQLite keeps a read snapshot while any statement is active, so
         * everything until store_txn_end reads the same snapshot, for two
         * statements fewer per request (a GetItem ran four). The statement
         * is the data version store_table checks its cache with. */
        sqlite3_stmt *q = store_stmt(s, Q_READ_HOLD, d);
        if (!q)
            return d->code;
        if (sqlite3_step(q) != SQLITE_ROW) {
            status st = store_sqlerr(s, d);
            sqlite3_reset(q);
            return st;
        }
        s->txn_hold = q;
        s->txn_dv = sqlite3_column_int64(q, 0);
        s->txn_fdv = store_file_version(s);
        s->txn_serial++;
        s->txn_depth = 1;
        s->txn_write = false;
        return ST_OK;
    }
    if (s->sh) {
        pthread_mutex_lock(&s->sh->write);
        s->write_locked = true;
    }
    status st = run_simple(s, Q_BEGIN_IMM, d);
    if (st != ST_OK) {
        if (s->sh) {
            s->write_locked = false;
            pthread_mutex_unlock(&s->sh->write);
        }
        return st;
    }
    s->txn_serial++;
    s->txn_depth = 1;
    s->txn_write = true;
    return ST_OK;
}

/* The end of a write transaction (committed or rolled back): the next
 * writer of this process may begin. */
static void write_unlock(store *s)
{
    if (s->txn_write && s->sh) {
        s->write_locked = false;
        pthread_mutex_unlock(&s->sh->write);
    }
    s->txn_write = false;
}

static void drop_deltas(store *s)
{
    for (size_t i = 0; i < s->cap_deltas; i++) {
        free(s->deltas[i].key);
        s->deltas[i].key = NULL;
    }
    s->n_deltas = 0;
}

status store_txn_end(store *s, status st, diag *d)
{
    assert(s->txn_depth > 0);
    if (--s->txn_depth > 0)
        return st;
    if (s->txn_hold) {
        sqlite3_reset(s->txn_hold);
        s->txn_hold = NULL;
        return st;
    }
    if (st == ST_OK && s->txn_write)
        st = store_flush_deltas(s, d);
    if (st == ST_OK && s->txn_write && s->n_unlogged)
        st = store_history_unlogged(s, d);
    s->n_unlogged = 0;
    /* Trimming the change log: a bounded step every 64 write
     * transactions, so no writer ever waits on a long delete. */
    if (st == ST_OK && s->txn_write && ++s->sh->trim_tick >= 64) {
        s->sh->trim_tick = 0;
        st = store_trim_changes(s, 1024, d);
    }
    if (st == ST_OK) {
        diag tmp;
        diag_init(&tmp);
        status c = run_simple(s, Q_COMMIT, d ? d : &tmp);
        if (c == ST_OK) {
            write_unlock(s);
            store_own_committed(s, true);
            return ST_OK;
        }
        st = c;
    }
    store_own_committed(s, false);
    if (sqlite3_get_autocommit(s->db) == 0)
        run_simple(s, Q_ROLLBACK, &(diag){ 0 });
    write_unlock(s);
    drop_deltas(s);
    /* A rolled-back create or delete may have left the cache stale. */
    store_forget_tables(s);
    return st;
}

/* Page cache: modest for browsing (the explorer's memory bar), large for
 * a bulk transaction, whose pages would otherwise spill to the WAL and be
 * written several times over. Grows only as pages are used. */
static void cache_size(store *s, bool bulk)
{
    /* An in-memory database's pages are in memory already: a cache copy
     * of each would double its memory (a page read is a memcpy). */
    if (s->sh && s->sh->memory)
        sqlite3_exec(s->db, "PRAGMA cache_size=-4096", NULL, NULL, NULL);
    else if (bulk || s->large)
        sqlite3_exec(s->db, "PRAGMA cache_size=-262144", NULL, NULL, NULL);
    else if (s->stream)
        sqlite3_exec(s->db, "PRAGMA cache_size=-2048", NULL, NULL, NULL);
    else
        sqlite3_exec(s->db, "PRAGMA cache_size=-16384", NULL, NULL, NULL);
}

status store_begin(store *s, diag *d)
{
    if (s->remote)
        return store_remote_begin(s, d);
    if (s->txn_depth > 0)
        return diag_set(d, ST_USAGE, "a transaction is already open");
    cache_size(s, true);
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        cache_size(s, false);
    return st;
}

status store_commit(store *s, diag *d)
{
    if (s->remote)
        return store_remote_commit(s, d);
    if (s->txn_depth != 1)
        return diag_set(d, ST_USAGE, "no transaction is open");
    status st = store_txn_end(s, ST_OK, d);
    cache_size(s, false);
    return st;
}

void store_rollback(store *s)
{
    if (s->remote) {
        store_remote_rollback(s);
        return;
    }
    if (s->txn_depth == 0)
        return;
    s->txn_depth = 1;
    diag d;
    diag_init(&d);
    store_txn_end(s, ST_INTERNAL, &d);
    cache_size(s, false);
}

/* ---- open / close ---- */

static store_shared *shared_new(const char *path, unsigned flags)
{
    store_shared *sh = xcalloc(1, sizeof *sh);
    pthread_mutex_init(&sh->write, NULL);
    pthread_mutex_init(&sh->lock, NULL);
    pthread_mutex_init(&sh->pq_lock, NULL);
    pthread_mutex_init(&sh->vec_lock, NULL);
    sh->refs = 1;
    sh->path = xstrdup(path);
    sh->flags = flags;
    return sh;
}

static void shared_unref(store_shared *sh)
{
    if (!sh)
        return;
    pthread_mutex_lock(&sh->lock);
    int left = --sh->refs;
    pthread_mutex_unlock(&sh->lock);
    if (left > 0)
        return;
    store_partiql_free(sh);
    store_vcache_drop(sh);
    pthread_mutex_destroy(&sh->vec_lock);
    pthread_mutex_destroy(&sh->write);
    pthread_mutex_destroy(&sh->lock);
    pthread_mutex_destroy(&sh->pq_lock);
    free(sh->path);
    free(sh);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * SQLite's busy handler for an in-memory database's connections (a file's
 * have the 10 s busy timeout). memdb refuses a new reader while a writer
 * holds its write lock, and a writer's commit waits for the readers in
 * flight: every writer of this process holds sh->write from BEGIN to
 * COMMIT, so a reader waits on that mutex and goes on the moment the
 * writer is done (SQLite's own handler sleeps 1 ms and more, against a
 * write of some 50 µs); a writer, whose readers are each one request,
 * yields until they are. Gives up (SQLITE_BUSY) after 10 s, as a file's.
 */
static int memory_busy(void *arg, int count)
{
    store *s = arg;
    double now = now_s();
    if (count == 0)
        s->busy_since = now;
    if (now - s->busy_since > 10.0)
        return 0;
    if (!s->write_locked) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_nsec += 10 * 1000 * 1000;
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        if (pthread_mutex_timedlock(&s->sh->write, &ts) == 0) {
            pthread_mutex_unlock(&s->sh->write);
            if (count > 0)
                sched_yield();   /* a writer outside sh->write: let it run */
        }
        return 1;
    }
    if (count < 100)
        sched_yield();
    else
        nanosleep(&(struct timespec){ 0, 50 * 1000 }, NULL);
    return 1;
}

/* A file that holds another program's SQLite tables is refused before
 * anything is written to it (the switch to WAL and ddbx's schema would
 * change it): DynamoDB Local's databases, whose names `ddbx serve
 * -dbPath` shares (KEY_REGION.db, shared-local-instance.db), hold its
 * own tables (dm, sm, ss, tr, us and cf in 3.3.1) and no `meta`. */
static status foreign_file(store *s, const char *path, diag *d)
{
    sqlite3_stmt *q = NULL;
    int ddbx = 0, other = 0, local = 0;
    if (sqlite3_prepare_v2(s->db, "SELECT name FROM sqlite_master WHERE type = 'table'", -1, &q, NULL) != SQLITE_OK)
        return diag_set(d, ST_IO, "%s: %s", path, sqlite3_errmsg(s->db));   /* not a database at all */
    while (sqlite3_step(q) == SQLITE_ROW) {
        const char *n = (const char *)sqlite3_column_text(q, 0);
        if (!n)
            continue;
        if (strcmp(n, "meta") == 0)
            ddbx = 1;
        else if (strcmp(n, "dm") == 0 || strcmp(n, "sm") == 0)
            local++;
        other++;
    }
    sqlite3_finalize(q);
    if (ddbx || other == 0)
        return ST_OK;
    if (local == 2)
        return diag_set(d, ST_IO, "%s: a DynamoDB Local database (its own SQLite tables), not ddbx's: left as it is."
                        " Serve it with DynamoDB Local, or move it out of the folder", path);
    return diag_set(d, ST_IO, "%s: a SQLite database of another program, not ddbx's: left as it is", path);
}

status store_check_file(const char *path, diag *d)
{
    struct stat sb;
    if (stat(path, &sb) != 0 || sb.st_size == 0)
        return ST_OK;
    store s = { 0 };
    if (sqlite3_open_v2(path, &s.db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        sqlite3_close(s.db);
        return diag_set(d, ST_IO, "%s: cannot open", path);
    }
    status st = foreign_file(&s, path, d);
    sqlite3_close(s.db);
    return st;
}

/* One connection to the file: the pragmas every connection needs, and
 * for the first one (make_schema) the schema. */
/* store_set_memory_image's: a new in-memory database's schema, made. */
static const unsigned char *mem_image;
static size_t mem_image_len;

void store_set_memory_image(const unsigned char *image, size_t len)
{
    mem_image = image;
    mem_image_len = len;
}

/* The image written into s's new in-memory database, right after its
 * open and before any statement reads it: straight into the memdb file
 * through its VFS handle (SQLITE_FCNTL_FILE_POINTER), the way SQLite's
 * pager would write those bytes. Nothing can hold the file yet (its name
 * is new, no statement has run), so the pager finds the schema there at
 * its first read and parses it once, as it would a file's. (The backup
 * API took a second connection, its page cache and a copy page by page:
 * a third of `serve --in-memory`'s store opening; sqlite3_deserialize
 * would reopen s's database as a private one, its peers no longer
 * sharing it.) What the schema statements set on the store is set here
 * (the index entries carry their bodies, there is a history table). */
static status schema_from_image(store *s, diag *d)
{
    sqlite3_file *f = NULL;
    if (sqlite3_file_control(s->db, "main", SQLITE_FCNTL_FILE_POINTER, &f) != SQLITE_OK || !f || !f->pMethods ||
        mem_image_len > INT_MAX || f->pMethods->xWrite(f, mem_image, (int)mem_image_len, 0) != SQLITE_OK)
        return diag_set(d, ST_INTERNAL, "the in-memory schema image could not be written");
    s->has.idx_body = true;
    s->has.history = true;
    s->has.vecs = true;   /* the image has the vecs table */
    return ST_OK;
}

status store_memory_image(unsigned char **out, size_t *len, diag *d)
{
    *out = NULL;
    *len = 0;
    const unsigned char *keep = mem_image;
    mem_image = NULL;   /* the statements, whatever was given */
    store *s = NULL;
    status st = store_open(":memory:", 0, &s, d);
    mem_image = keep;
    if (st != ST_OK)
        return st;
    sqlite3_int64 n = 0;
    unsigned char *img = sqlite3_serialize(s->db, "main", &n, 0);
    if (!img || n <= 0)
        st = diag_set(d, ST_INTERNAL, "cannot serialize the in-memory database");
    else {
        *out = xmalloc((size_t)n);
        memcpy(*out, img, (size_t)n);
        *len = (size_t)n;
    }
    sqlite3_free(img);
    store_close(s);
    return st;
}

/* The work counter (store_work): SQLite calls this every STORE_WORK_UNIT
 * virtual-machine instructions of any statement on the connection. */
static int count_work(void *ctx)
{
    store *s = ctx;
    s->work++;
    /* Every STORE_STOP_EVERY units: may the statement go on? */
    return s->stop_fn && s->work % STORE_STOP_EVERY == 0 && s->stop_fn(s->stop_ctx);
}

void store_set_stop(store *s, store_stop_fn fn, void *ctx)
{
    s->stop_fn = fn;
    s->stop_ctx = ctx;
}

uint64_t store_work(const store *s)
{
    return s && !s->remote ? s->work : 0;
}

static status open_conn(store *s, const char *path, unsigned flags, bool make_schema, diag *d)
{
    bool ro = flags & STORE_READ_ONLY;
    s->read_only = ro;
    s->retention_ms = 24 * 3600 * 1000;   /* DynamoDB keeps stream records 24 hours */
    s->iterator_ms = 15 * 60 * 1000;      /* and a shard iterator lives 15 minutes */

    bool empty = false, memory = s->sh && s->sh->memory;
    if (!ro && make_schema && !memory) {
        /* Create the file ourselves so it is owner-only from the start. */
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0)
            return diag_set(d, ST_IO, "%s: %s", path, strerror(errno));
        struct stat sb;
        empty = fstat(fd, &sb) == 0 && sb.st_size == 0;
        close(fd);
    }
    /* An in-memory database is written once, by its schema, even
     * read-only: the store refuses the writes (s->read_only). */
    int oflags = memory ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI
                 : ro   ? SQLITE_OPEN_READONLY
                        : SQLITE_OPEN_READWRITE;
    if (sqlite3_open_v2(path, &s->db, oflags | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return diag_set(d, ST_IO, "%s: %s", memory ? "in-memory database" : path,
                        s->db ? sqlite3_errmsg(s->db) : "cannot open");
    if (memory)
        sqlite3_busy_handler(s->db, memory_busy, s);
    else
        sqlite3_busy_timeout(s->db, 10000);
    sqlite3_extended_result_codes(s->db, 1);
    sqlite3_progress_handler(s->db, STORE_WORK_UNIT, count_work, s);
    if (memory && make_schema) {
        /* memdb's default bound is 1 GiB; SQLite allocates at most 2 GiB
         * at once, and the database is one allocation. */
        sqlite3_int64 most = 0x7fff0000;
        sqlite3_file_control(s->db, "main", SQLITE_FCNTL_SIZE_LIMIT, &most);
        if (mem_image) {
            status st = schema_from_image(s, d);
            if (st != ST_OK)
                return st;
        }
    }

    if (!ro && make_schema && !memory && !empty) {
        status st = foreign_file(s, path, d);
        if (st != ST_OK)
            return st;
    }
    /* A new file gets big pages (rows of a few hundred bytes sit well in
     * WITHOUT ROWID trees of 16 KB pages) and WAL, so readers in another
     * process never block the writer nor see "database is locked". */
    if (!ro && make_schema && !memory) {
        /* A new, empty file is made without syncs (the switch to WAL
         * runs through a rollback journal: four fdatasyncs, a third of a
         * fresh `ddbx serve`'s start-up): it holds nothing a power cut
         * could lose. The first write transaction syncs as any other. */
        if (empty)
            sqlite3_exec(s->db, "PRAGMA synchronous=OFF", NULL, NULL, NULL);
        sqlite3_exec(s->db, "PRAGMA page_size=16384", NULL, NULL, NULL);
        if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL) != SQLITE_OK)
            return store_sqlerr(s, d);
    }
    /* An in-memory database keeps SQLite's 4 KB pages: memdb grows its
     * buffer a page at a time (a realloc and a copy each), and making the
     * schema in 16 KB pages took 2.7 ms more of `ddbx serve --in-memory`'s
     * start-up (exec to exit of `ddbx api --db :memory:`: 11.0 -> 8.3 ms,
     * perf stat, 40 runs). */
    if (!memory && !empty)
        sqlite3_exec(s->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    s->large = flags & STORE_LARGE_CACHE;
    s->stream = flags & STORE_STREAM;
    cache_size(s, false);
    /* Map up to SQLite's largest (SQLITE_MAX_MMAP_SIZE, 0x7fff0000 in
     * Debian's build; a larger value is clamped to it): with bodies in
     * the index entries a million-item file is 1.4 GB, and the part past
     * a 1 GiB mapping is read through the page cache (tests/bench/NOTES.md). */
    if (s->large && !memory)
        sqlite3_exec(s->db, "PRAGMA mmap_size=2147418112", NULL, NULL, NULL);
    sqlite3_exec(s->db, "PRAGMA foreign_keys=OFF", NULL, NULL, NULL);

    if (!make_schema || (memory && mem_image))
        return ST_OK;
    if (!ro || memory) {
        status st = ST_OK;
        if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(s->db, SCHEMA_SQL, NULL, NULL, NULL) != SQLITE_OK ||
            (st = store_idx_body_open(s, d)) != ST_OK ||
            (st = store_backup_open(s, d)) != ST_OK ||
            (st = store_vec_open(s, d)) != ST_OK ||
            sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
            if (st == ST_OK)
                st = store_sqlerr(s, d);
            sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
            return st;
        }
        if (empty)
            sqlite3_exec(s->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    } else {
        sqlite3_stmt *q = NULL;
        int rc = sqlite3_prepare_v2(s->db, "SELECT 1 FROM meta LIMIT 1", -1, &q, NULL);
        sqlite3_finalize(q);
        if (rc != SQLITE_OK)
            return diag_set(d, ST_IO, "%s: not a ddbx database", path);
        store_idx_body_open(s, d);
        store_backup_open(s, d);
        store_vec_open(s, d);
    }
    return ST_OK;
}

/* Before SQLite's first use in the process: no memory statistics, whose
 * global mutex every allocation of every connection would take (with a
 * connection per `ddbx serve` worker thread they contended on it). Too
 * late once SQLite is initialised: then the call is refused, harmlessly. */
static pthread_once_t sqlite_once = PTHREAD_ONCE_INIT;

static void sqlite_setup(void)
{
    sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
    /* No page-cache slab: SQLite's page cache otherwise takes 20 pages'
     * worth at a connection's first page and writes each slot's header,
     * 20 pages of memory touched (a page fault each) where a new
     * in-memory database reads four; pages are allocated as they are
     * used instead (SQLite's own build option SQLITE_DEFAULT_PCACHE_INITSZ
     * set to 0). */
    sqlite3_config(SQLITE_CONFIG_PAGECACHE, (void *)NULL, 0, 0);
}

status store_open(const char *path, unsigned flags, store **out, diag *d)
{
    pthread_once(&sqlite_once, sqlite_setup);
    store *s = xcalloc(1, sizeof *s);
    *out = NULL;
    /* ":memory:" is a database of this process that its peers share: a
     * memdb database named with a leading "/" (SQLite shares those
     * between the connections of a process), freed with its last
     * connection. One name per store_open. */
    char uri[96];
    bool memory = strcmp(path, ":memory:") == 0;
    if (memory) {
        static unsigned long serial;
        snprintf(uri, sizeof uri, "file:/ddbx-memory-%ld-%lu?vfs=memdb", (long)getpid(),
                 __atomic_add_fetch(&serial, 1, __ATOMIC_RELAXED));
        path = uri;
    }
    s->sh = shared_new(path, flags);
    s->sh->memory = memory;
    status st = open_conn(s, path, flags, true, d);
    if (st != ST_OK) {
        store_close(s);
        return st;
    }
    *out = s;
    return ST_OK;
}

status store_open_peer(store *s, store **out, diag *d)
{
    *out = NULL;
    if (s->remote || !s->sh)
        return diag_set(d, ST_USAGE, "a remote store has no peer connections");
    /* Only the shared state and settings fixed at start are read: s may
     * be in use by another thread meanwhile. */
    if (!*s->sh->path)
        return diag_set(d, ST_USAGE, "a temporary database has no peer connections");
    store *p = xcalloc(1, sizeof *p);
    pthread_mutex_lock(&s->sh->lock);
    s->sh->refs++;
    pthread_mutex_unlock(&s->sh->lock);
    p->sh = s->sh;
    status st = open_conn(p, s->sh->path, s->sh->flags, false, d);
    if (st != ST_OK) {
        store_close(p);
        return st;
    }
    p->retention_ms = s->retention_ms;
    p->iterator_ms = s->iterator_ms;
    /* The first connection migrated the file: what it found there holds
     * for every peer. */
    p->has = s->has;
    *out = p;
    return ST_OK;
}

void store_set_local_path(store *s, const char *path, unsigned flags)
{
    if (!s->remote)
        return;
    store_close(s->local);
    s->local = NULL;
    free(s->local_path);
    s->local_path = path ? xstrdup(path) : NULL;
    s->local_flags = flags;
}

void store_close(store *s)
{
    if (!s)
        return;
    store_close(s->local);
    free(s->own);
    free(s->local_path);
    store_remote_free(s->remote);
    if (s->txn_depth > 0)
        store_rollback(s);
    for (int i = 0; i < Q__COUNT; i++)
        sqlite3_finalize(s->q[i]);
    for (size_t i = 0; i < sizeof s->reads / sizeof s->reads[0]; i++)
        sqlite3_finalize(s->reads[i]);
    store_forget_tables(s);
    drop_deltas(s);
    free(s->deltas);
    buf_done(&s->scratch);
    buf_done(&s->err_extra);
    buf_done(&s->err_msg);
    buf_done(&s->old_enc);
    buf_done(&s->ttl_pk);
    buf_done(&s->ttl_sk);
    store_backup_close(s);
    free(s->unlogged);
    store_key_done(&s->fast_key);
    store_ranks_free(s);
    sqlite3_close(s->db);
    shared_unref(s->sh);
    free(s);
}

/* ---- table cache ---- */

void store_forget_tables(store *s)
{
    tinfo *t = s->tables;
    while (t) {
        tinfo *next = t->next;
        free(t->name);
        free(t->desc);
        table_def_free(&t->def);
        free(t);
        t = next;
    }
    s->tables = NULL;
}

static void unlink_table(store *s, tinfo *t)
{
    for (tinfo **pp = &s->tables; *pp; pp = &(*pp)->next) {
        if (*pp == t) {
            *pp = t->next;
            break;
        }
    }
    free(t->name);
    free(t->desc);
    table_def_free(&t->def);
    free(t);
}

/* t is current in this transaction, whose PRAGMA data_version is dv. The
 * file version is recorded only in a read transaction: a write
 * transaction's own commit changes it anyway. */
static void table_seen(store *s, tinfo *t, int64_t dv)
{
    t->txn_seen = s->txn_serial;
    t->dv = dv;
    t->fdv = s->txn_hold ? s->txn_fdv : -1;
}

status store_table(store *s, const char *name, tinfo **out, diag *d)
{
    status st = ST_OK;
    /* The table's ARN names it as its name does (API reference: the data
     * plane's TableName is "the name of the table ... You can also provide
     * the Amazon Resource Name (ARN) of the table"); only this store's
     * ARNs (its region and account), not an index's or a stream's. */
    size_t plen = strlen(STORE_ARN_PREFIX);
    if (strncmp(name, STORE_ARN_PREFIX, plen) == 0 && name[plen] && !strchr(name + plen, '/'))
        name += plen;
    /* Checked already in this transaction: nothing else can have changed
     * the row since (table creation and deletion here forget the cache).
     * A bulk load asks for its table once per item. */
    int64_t dv = -1;
    if (s->txn_depth > 0) {
        for (tinfo *t = s->tables; t; t = t->next) {
            if (t->txn_seen == s->txn_serial && strcmp(t->name, name) == 0) {
                *out = t;
                return ST_OK;
            }
        }
        /* Unchanged since the definition was read (no other connection
         * committed), the cached one is current: no search of the tables
         * rows. A read transaction read the version when it began. */
        if (s->txn_hold) {
            dv = s->txn_dv;
        } else {
            sqlite3_stmt *q = store_stmt(s, Q_DATA_VERSION, d);
            if (!q)
                return d->code;
            if (sqlite3_step(q) == SQLITE_ROW)
                dv = sqlite3_column_int64(q, 0);
            sqlite3_reset(q);
        }
        for (tinfo *t = s->tables; dv >= 0 && t; t = t->next) {
            if (t->dv == dv && strcmp(t->name, name) == 0) {
                table_seen(s, t, dv);
                *out = t;
                return ST_OK;
            }
        }
    }
    sqlite3_stmt *q = store_stmt(s, Q_TABLE_BY_NAME, d);
    if (!q)
        return d->code;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_DONE) {
        sqlite3_reset(q);
        return diag_set(d, ST_NOT_FOUND, "Requested resource not found");
    }
    if (rc != SQLITE_ROW) {
        st = store_sqlerr(s, d);
        sqlite3_reset(q);
        return st;
    }
    int64_t id = sqlite3_column_int64(q, 0), ver = sqlite3_column_int64(q, 1);
    sqlite3_reset(q);

    for (tinfo *t = s->tables; t; t = t->next) {
        if (strcmp(t->name, name) != 0)
            continue;
        if (t->id == id && t->ver == ver) {
            table_seen(s, t, dv);
            *out = t;
            return ST_OK;
        }
        unlink_table(s, t);
        break;
    }

    q = store_stmt(s, Q_TABLE_LOAD, d);
    if (!q)
        return d->code;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_ROW) {
        sqlite3_reset(q);
        return diag_set(d, ST_NOT_FOUND, "Requested resource not found");
    }
    tinfo *t = xcalloc(1, sizeof *t);
    t->name = xstrdup(name);
    t->id = sqlite3_column_int64(q, 0);
    t->ver = sqlite3_column_int64(q, 1);
    t->desc = xstrdup((const char *)sqlite3_column_text(q, 2));
    sqlite3_reset(q);
    st = store_def_from_desc(t->desc, &t->def, d);
    if (st == ST_OK)
        st = store_history_pitr(s, t->id, &t->pitr, d);
    if (st != ST_OK) {
        table_def_free(&t->def);
        free(t->name);
        free(t->desc);
        free(t);
        return st;
    }
    table_seen(s, t, dv);
    t->next = s->tables;
    s->tables = t;
    *out = t;
    return ST_OK;
}

/* ---- partition accounting ---- */

static uint64_t hash_bytes(const unsigned char *p, size_t n, int64_t tid)
{
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)tid;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static void delta_grow(store *s)
{
    size_t old_cap = s->cap_deltas;
    delta *old = s->deltas;
    s->cap_deltas = old_cap ? old_cap * 2 : 64;
    s->deltas = xcalloc(s->cap_deltas, sizeof *s->deltas);
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i].key)
            continue;
        uint64_t h = hash_bytes(old[i].key, old[i].key_len, old[i].tid);
        size_t j = h & (s->cap_deltas - 1);
        while (s->deltas[j].key)
            j = (j + 1) & (s->cap_deltas - 1);
        s->deltas[j] = old[i];
    }
    free(old);
}

void store_delta(store *s, int64_t tid, int xid, const void *pk, size_t pk_len,
                 int64_t items, int64_t bytes)
{
    assert(xid >= 0 && xid < 256);
    if ((s->n_deltas + 1) * 2 > s->cap_deltas)
        delta_grow(s);
    unsigned char stackkey[512];
    unsigned char *key = pk_len + 1 <= sizeof stackkey ? stackkey : xmalloc(pk_len + 1);
    key[0] = (unsigned char)xid;
    memcpy(key + 1, pk, pk_len);
    size_t klen = pk_len + 1;
    uint64_t h = hash_bytes(key, klen, tid);
    size_t j = h & (s->cap_deltas - 1);
    while (s->deltas[j].key) {
        delta *e = &s->deltas[j];
        if (e->tid == tid && e->key_len == klen && memcmp(e->key, key, klen) == 0) {
            e->items += items;
            e->bytes += bytes;
            if (key != stackkey)
                free(key);
            return;
        }
        j = (j + 1) & (s->cap_deltas - 1);
    }
    delta *e = &s->deltas[j];
    e->key = key == stackkey ? xmemdup(key, klen) : key;
    e->key_len = klen;
    e->tid = tid;
    e->items = items;
    e->bytes = bytes;
    s->n_deltas++;
}

typedef struct total {
    int64_t tid;
    int xid;
    int64_t items, bytes, parts;
} total;

status store_flush_deltas(store *s, diag *d)
{
    status st = ST_OK;
    total *tot = NULL;
    size_t n_tot = 0, cap_tot = 0;
    if (s->n_deltas == 0)
        return ST_OK;
    for (size_t i = 0; i < s->cap_deltas && st == ST_OK; i++) {
        delta *e = &s->deltas[i];
        if (!e->key || (e->items == 0 && e->bytes == 0))
            continue;
        int xid = e->key[0];
        sqlite3_stmt *q = store_stmt(s, Q_PART_UPSERT, d);
        if (!q) {
            st = d->code;
            break;
        }
        sqlite3_bind_int64(q, 1, e->tid);
        sqlite3_bind_int(q, 2, xid);
        sqlite3_bind_blob(q, 3, e->key + 1, (int)(e->key_len - 1), SQLITE_STATIC);
        sqlite3_bind_int64(q, 4, e->items);
        sqlite3_bind_int64(q, 5, e->bytes);
        if (sqlite3_step(q) != SQLITE_ROW) {
            st = store_sqlerr(s, d);
            break;
        }
        int64_t now = sqlite3_column_int64(q, 0);
        sqlite3_reset(q);
        int64_t dparts = 0;
        if (now <= 0) {
            q = store_stmt(s, Q_PART_DELETE_EMPTY, d);
            if (!q) {
                st = d->code;
                break;
            }
            sqlite3_bind_int64(q, 1, e->tid);
            sqlite3_bind_int(q, 2, xid);
            sqlite3_bind_blob(q, 3, e->key + 1, (int)(e->key_len - 1), SQLITE_STATIC);
            if (sqlite3_step(q) != SQLITE_DONE) {
                st = store_sqlerr(s, d);
                break;
            }
            /* The row existed before unless this same flush created it
             * (items delta <= 0 cannot create a counted partition). */
            if (now != e->items)
                dparts = -1;
        } else if (now == e->items) {
            dparts = 1;
        }
        size_t k = 0;
        while (k < n_tot && !(tot[k].tid == e->tid && tot[k].xid == xid))
            k++;
        if (k == n_tot) {
            if (n_tot == cap_tot) {
                cap_tot = cap_tot ? cap_tot * 2 : 8;
                tot = xrealloc(tot, cap_tot * sizeof *tot);
            }
            tot[n_tot++] = (total){ e->tid, xid, 0, 0, 0 };
        }
        tot[k].items += e->items;
        tot[k].bytes += e->bytes;
        tot[k].parts += dparts;
    }
    for (size_t k = 0; k < n_tot && st == ST_OK; k++) {
        sqlite3_stmt *q = store_stmt(s, Q_STATS_UPSERT, d);
        if (!q) {
            st = d->code;
            break;
        }
        sqlite3_bind_int64(q, 1, tot[k].tid);
        sqlite3_bind_int(q, 2, tot[k].xid);
        sqlite3_bind_int64(q, 3, tot[k].items);
        sqlite3_bind_int64(q, 4, tot[k].bytes);
        sqlite3_bind_int64(q, 5, tot[k].parts);
        if (sqlite3_step(q) != SQLITE_DONE)
            st = store_sqlerr(s, d);
        sqlite3_reset(q);
    }
    free(tot);
    drop_deltas(s);
    return st;
}
