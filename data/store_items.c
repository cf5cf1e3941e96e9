/*
 * store_items — the key-ordered readers of data/store_backup.h: a
 * backup's items, and a table's items as they were at a moment.
 *
 * Both are range reads of an items B-tree (tid, pk, sk) from a keyset
 * cursor (the last key read), a page at a time. A backup's are its own
 * file's (or, for a SYSTEM backup, this database's rows of the deleted
 * table). A moment's merge two sorted streams: the table's items now and
 * a temporary table holding, for each key changed since the moment, the
 * old image of its first change after it (NULL: no item then), built once
 * from the change log when the reader opens (store_undo_walk): a key in
 * the second stream is what the first had then; memory stays a page,
 * the temporary table lives in SQLite's temporary file.
 *
 * A reader of a file database opens its own read-only connection and
 * holds one read transaction, so all its pages, the items and the log
 * come from one snapshot whatever others write meanwhile.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

struct store_items {
    store *s;
    sqlite3 *db;           /* its own connection, or s->db (in memory) */
    bool own, in_txn;
    table_def def;
    int64_t tid;
    int64_t rid;           /* its rows in temp.ddbx_then (a moment's); 0: none */
    sqlite3_stmt *now, *then;
    buf pk, sk;            /* the cursor: the last key read */
    bool done;
};

static status db_err(sqlite3 *db, diag *d)
{
    return diag_set(d, ST_INTERNAL, "sqlite: %s", sqlite3_errmsg(db));
}

static status prepare(store_items *r, const char *sql, sqlite3_stmt **q, diag *d)
{
    return sqlite3_prepare_v2(r->db, sql, -1, q, NULL) == SQLITE_OK ? ST_OK : db_err(r->db, d);
}

void store_items_free(store_items *r)
{
    if (!r)
        return;
    sqlite3_finalize(r->now);
    sqlite3_finalize(r->then);
    if (r->in_txn)
        sqlite3_exec(r->db, "ROLLBACK", NULL, NULL, NULL);
    if (r->rid && !r->own) {
        /* s's connection: its rows go, the temporary table stays for the next. */
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(r->db, "DELETE FROM temp.ddbx_then WHERE rid = ?1", -1, &q, NULL) == SQLITE_OK) {
            sqlite3_bind_int64(q, 1, r->rid);
            sqlite3_step(q);
        }
        sqlite3_finalize(q);
    }
    if (r->own)
        sqlite3_close(r->db);
    table_def_free(&r->def);
    buf_done(&r->pk);
    buf_done(&r->sk);
    free(r);
}

/* The reader's connection to a file (read-only, its own) or, for an
 * in-memory database, s's. */
static status connect(store_items *r, const char *path, diag *d)
{
    store *s = r->s;
    if (!path) {
        r->db = s->db;
        return ST_OK;
    }
    r->own = true;
    if (sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL) != SQLITE_OK)
        return diag_set(d, ST_IO, "%s: %s", path, r->db ? sqlite3_errmsg(r->db) : "cannot open");
    sqlite3_busy_timeout(r->db, 10000);
    /* A page of cache is all a keyset read wants; the temporary table
     * spills to its file. */
    sqlite3_exec(r->db, "PRAGMA cache_size=-4096", NULL, NULL, NULL);
    sqlite3_exec(r->db, "PRAGMA temp_store=FILE", NULL, NULL, NULL);
    if (sqlite3_exec(r->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        return db_err(r->db, d);
    r->in_txn = true;
    return ST_OK;
}

static bool memory_db(const store *s)
{
    return !*s->sh->path || s->sh->memory;
}

/* The cursor from a key map (NULL: before the first item). */
static status set_after(store_items *r, const av *after, diag *d)
{
    if (!after)
        return ST_OK;
    store_key k;
    store_key_init(&k);
    status st = store_check_key(&r->def, after, &k, d);
    if (st == ST_OK) {
        buf_add(&r->pk, k.pk.data ? k.pk.data : "", k.pk.len);
        buf_add(&r->sk, k.sk.data ? k.sk.data : "", k.sk.len);
    }
    store_key_done(&k);
    return st;
}

static status open_stmts(store_items *r, diag *d)
{
    status st = prepare(r, "SELECT pk, sk, body FROM main.items WHERE tid = ?1 AND (pk, sk) > (?2, ?3)"
                        " ORDER BY pk, sk", &r->now, d);
    if (st == ST_OK && r->rid)
        st = prepare(r, "SELECT pk, sk, body FROM temp.ddbx_then WHERE rid = ?3 AND (pk, sk) > (?1, ?2)"
                     " ORDER BY pk, sk", &r->then, d);
    return st;
}

status store_items_backup(store *s, const char *arn, const av *after, store_items **out, diag *d)
{
    *out = NULL;
    if (s->remote)
        return diag_set(d, ST_USAGE, "a remote endpoint's backups cannot be read item by item: restore one"
                        " into a table first");
    store_bk_row row;
    status st = store_bk_find(s, arn, &row, d);
    if (st != ST_OK)
        return st;
    store_items *r = xcalloc(1, sizeof *r);
    r->s = s;
    st = store_def_from_desc(row.desc, &r->def, d);
    char *path = NULL;
    if (st == ST_OK && row.file) {
        path = store_bk_file_path(s, row.file);
        r->tid = 0;
    } else if (st == ST_OK) {
        path = memory_db(s) ? NULL : xstrdup(s->sh->path);
        r->tid = row.tid;
    }
    if (st == ST_OK)
        st = connect(r, path, d);
    if (st == ST_OK)
        st = set_after(r, after, d);
    if (st == ST_OK)
        st = open_stmts(r, d);
    free(path);
    store_bk_row_done(&row);
    if (st != ST_OK) {
        store_items_free(r);
        return st;
    }
    *out = r;
    return ST_OK;
}

/* Builds the moment's temporary table. */
typedef struct then_ctx {
    store_items *r;
    sqlite3_stmt *ins;
} then_ctx;

static status then_one(void *ctx, const store_key *k, const void *old, size_t old_len, diag *d)
{
    then_ctx *c = ctx;
    sqlite3_reset(c->ins);
    sqlite3_bind_blob(c->ins, 1, k->pk.data ? k->pk.data : "", (int)k->pk.len, SQLITE_STATIC);
    sqlite3_bind_blob(c->ins, 2, k->sk.data ? k->sk.data : "", (int)k->sk.len, SQLITE_STATIC);
    if (old)
        sqlite3_bind_blob(c->ins, 3, old, (int)old_len, SQLITE_STATIC);
    else
        sqlite3_bind_null(c->ins, 3);
    sqlite3_bind_int64(c->ins, 4, c->r->rid);
    /* Newest first: the last one written for a key is its first change
     * after the moment, whose old image is what the key held then. */
    return sqlite3_step(c->ins) == SQLITE_DONE ? ST_OK : db_err(c->r->db, d);
}

static void iso(char out[32], int64_t ms)
{
    time_t sec = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The table's id, definition and history as the reader's snapshot has them. */
static status moment_source(store_items *r, const char *table, int64_t at_ms, diag *d)
{
    sqlite3_stmt *q;
    status st = prepare(r, "SELECT t.id, t.description, h.complete FROM main.tables t LEFT JOIN main.history h"
                        " ON h.tid = t.id WHERE t.name = ?1", &q, d);
    if (st != ST_OK)
        return st;
    sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        r->tid = sqlite3_column_int64(q, 0);
        st = store_def_from_desc((const char *)sqlite3_column_text(q, 1), &r->def, d);
        /* No history row: nothing is known before now. */
        int64_t from = sqlite3_column_type(q, 2) == SQLITE_NULL ? store_now_ms(r->s) : sqlite3_column_int64(q, 2);
        if (st == ST_OK && at_ms < from) {
            char a[32], f[32];
            iso(a, at_ms);
            iso(f, from);
            st = diag_set(d, ST_INVALID_RESTORE_TIME, "%s's change log holds every change only from %s on:"
                          " %s is earlier (a bulk write without point-in-time recovery, or the retention,"
                          " left no record of what came before)", table, f, a);
        }
    } else if (rc == SQLITE_DONE) {
        st = diag_set(d, ST_TABLE_NOT_FOUND, "Table not found: %s", table);
    } else {
        st = db_err(r->db, d);
    }
    sqlite3_finalize(q);
    return st;
}

status store_items_at(store *s, const char *table, int64_t at_ms, const av *after, store_items **out,
                      diag *d)
{
    *out = NULL;
    if (s->remote)
        return diag_set(d, ST_USAGE, "a remote table's past cannot be read: its change log is its stream");
    if (!store_history_has(s))
        return diag_set(d, ST_USAGE, "this database predates the change log's history (schema version 6):"
                        " open it writable once");
    store_items *r = xcalloc(1, sizeof *r);
    r->s = s;
    /* Readers on s's own connection (in memory) share one temporary
     * table, each its rows. */
    static int64_t next_rid;
    r->rid = __atomic_add_fetch(&next_rid, 1, __ATOMIC_RELAXED);
    status st = connect(r, memory_db(s) ? NULL : s->sh->path, d);
    if (st == ST_OK)
        st = moment_source(r, table, at_ms, d);
    sqlite3_stmt *q = NULL;
    if (st == ST_OK)
        st = prepare(r, "CREATE TEMP TABLE IF NOT EXISTS ddbx_then(rid INTEGER NOT NULL, pk BLOB NOT NULL,"
                     " sk BLOB NOT NULL, body BLOB, PRIMARY KEY(rid, pk, sk)) WITHOUT ROWID", &q, d);
    if (st == ST_OK && sqlite3_step(q) != SQLITE_DONE)
        st = db_err(r->db, d);
    sqlite3_finalize(q);
    if (st == ST_OK) {
        then_ctx c = { r, NULL };
        st = prepare(r, "INSERT OR REPLACE INTO temp.ddbx_then(pk, sk, body, rid) VALUES(?1, ?2, ?3, ?4)", &c.ins, d);
        if (st == ST_OK)
            st = store_undo_walk(r->db, s, &r->def, r->tid, at_ms, then_one, &c, d);
        sqlite3_finalize(c.ins);
    }
    if (st == ST_OK)
        st = set_after(r, after, d);
    if (st == ST_OK)
        st = open_stmts(r, d);
    if (st != ST_OK) {
        store_items_free(r);
        return st;
    }
    *out = r;
    return ST_OK;
}

const table_def *store_items_def(const store_items *r)
{
    return &r->def;
}

/* Key order: the encoded partition key, then the sort key, as SQLite
 * compares BLOBs (bytes, then length). */
static int blob_cmp(const void *a, size_t na, const void *b, size_t nb)
{
    int c = memcmp(a, b, na < nb ? na : nb);
    return c ? c : (na > nb) - (na < nb);
}

static int row_cmp(sqlite3_stmt *a, sqlite3_stmt *b)
{
    int c = blob_cmp(sqlite3_column_blob(a, 0), (size_t)sqlite3_column_bytes(a, 0), sqlite3_column_blob(b, 0),
                     (size_t)sqlite3_column_bytes(b, 0));
    return c ? c : blob_cmp(sqlite3_column_blob(a, 1), (size_t)sqlite3_column_bytes(a, 1),
                            sqlite3_column_blob(b, 1), (size_t)sqlite3_column_bytes(b, 1));
}

static status step(store_items *r, sqlite3_stmt *q, bool *has, diag *d)
{
    int rc = sqlite3_step(q);
    *has = rc == SQLITE_ROW;
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : db_err(r->db, d);
}

static void cursor_at(store_items *r, sqlite3_stmt *q)
{
    buf_reset(&r->pk);
    buf_reset(&r->sk);
    buf_add(&r->pk, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0));
    buf_add(&r->sk, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1));
}

static const void *bytes(const buf *b)
{
    return b->data ? b->data : "";
}

status store_items_next(store_items *r, size_t max, av *items, size_t *n, diag *d)
{
    *n = 0;
    if (r->done || !max)
        return ST_OK;
    sqlite3_reset(r->now);
    sqlite3_bind_int64(r->now, 1, r->tid);
    sqlite3_bind_blob(r->now, 2, bytes(&r->pk), (int)r->pk.len, SQLITE_TRANSIENT);
    sqlite3_bind_blob(r->now, 3, bytes(&r->sk), (int)r->sk.len, SQLITE_TRANSIENT);
    if (r->then) {
        sqlite3_reset(r->then);
        sqlite3_bind_blob(r->then, 1, bytes(&r->pk), (int)r->pk.len, SQLITE_TRANSIENT);
        sqlite3_bind_blob(r->then, 2, bytes(&r->sk), (int)r->sk.len, SQLITE_TRANSIENT);
        sqlite3_bind_int64(r->then, 3, r->rid);
    }
    bool a = false, b = false;
    status st = step(r, r->now, &a, d);
    if (st == ST_OK && r->then)
        st = step(r, r->then, &b, d);
    while (st == ST_OK && *n < max && (a || b)) {
        int c = a && b ? row_cmp(r->now, r->then) : a ? -1 : 1;
        /* The item now, unless the key changed since (then its old
         * image, or nothing when it did not exist then). */
        sqlite3_stmt *from = c < 0 ? r->now : r->then;
        cursor_at(r, from);
        if (sqlite3_column_type(from, 2) != SQLITE_NULL) {
            st = itemenc_decode(sqlite3_column_blob(from, 2), (size_t)sqlite3_column_bytes(from, 2), &items[*n], d);
            if (st == ST_OK)
                (*n)++;
        }
        if (st == ST_OK && c <= 0)
            st = step(r, r->now, &a, d);
        if (st == ST_OK && c >= 0)
            st = step(r, r->then, &b, d);
    }
    if (st == ST_OK && !a && !b)
        r->done = true;
    sqlite3_reset(r->now);
    if (r->then)
        sqlite3_reset(r->then);
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            av_done(&items[i]);
        *n = 0;
    }
    return st;
}

status store_items_cursor_next(store_items_cursor *c, av *item, bool *end, diag *d)
{
    if (c->at == c->n && !c->end) {
        c->n = c->at = 0;
        status st = store_items_next(c->r, STORE_ITEMS_PAGE, c->page, &c->n, d);
        if (st != ST_OK)
            return st;
        c->end = c->n < STORE_ITEMS_PAGE;
    }
    *end = c->at == c->n;
    if (!*end)
        av_move(item, &c->page[c->at++]);
    return ST_OK;
}

void store_items_cursor_done(store_items_cursor *c)
{
    for (size_t i = c->at; i < c->n; i++)
        av_done(&c->page[i]);
    store_items_free(c->r);
    c->r = NULL;
    c->n = c->at = 0;
}
