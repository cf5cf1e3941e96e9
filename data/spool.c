/*
 * spool — an external sort of items by key in a temporary SQLite file
 * (see spool.h).
 */
#include "data/spool.h"

#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/itemenc.h"
#include "model/mem.h"

#define TEXT_OF_(x) #x
#define TEXT_OF(x) TEXT_OF_(x)

struct spool {
    sqlite3 *db;
    sqlite3_stmt *add, *read;
    bool in_txn, finished, in_order, done;
    uint64_t n;
    buf last;           /* the key added last: is the input still in order? */
    buf enc;            /* scratch for the item's encoding */
    /* Reading: the row read ahead (to find runs of one key). */
    bool ahead;
    buf ahead_key, ahead_body;
};

static status sqlerr(spool *s, diag *d)
{
    return diag_set(d, ST_INTERNAL, "the temporary sort file: sqlite: %s", sqlite3_errmsg(s->db));
}

status spool_new(spool **out, diag *d)
{
    *out = NULL;
    spool *s = xcalloc(1, sizeof *s);
    s->in_order = true;
    /* "": a private on-disk database, deleted when closed. */
    if (sqlite3_open_v2("", &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        status st = diag_set(d, ST_IO, "cannot make a temporary sort file: %s",
                             s->db ? sqlite3_errmsg(s->db) : "out of memory");
        spool_free(s);
        return st;
    }
    /* The sorter keeps runs of about the main database's cache size in
     * memory before it writes them out. */
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                     "PRAGMA temp_store=FILE; PRAGMA locking_mode=EXCLUSIVE;"
                     "PRAGMA cache_size=-" TEXT_OF(SPOOL_CACHE_KB), NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_exec(s->db, "CREATE TABLE spool(k BLOB NOT NULL, body BLOB NOT NULL); BEGIN",
                     NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, "INSERT INTO spool(k, body) VALUES (?1, ?2)", -1, &s->add,
                           NULL) != SQLITE_OK) {
        status st = sqlerr(s, d);
        spool_free(s);
        return st;
    }
    s->in_txn = true;
    *out = s;
    return ST_OK;
}

void spool_free(spool *s)
{
    if (!s)
        return;
    sqlite3_finalize(s->add);
    sqlite3_finalize(s->read);
    sqlite3_close(s->db);
    buf_done(&s->last);
    buf_done(&s->enc);
    buf_done(&s->ahead_key);
    buf_done(&s->ahead_body);
    free(s);
}

static int key_cmp(const void *a, size_t na, const void *b, size_t nb)
{
    size_t n = na < nb ? na : nb;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? c : na < nb ? -1 : na > nb;
}

status spool_add(spool *s, const void *key, size_t len, const av *item, diag *d)
{
    if (s->finished)
        return diag_set(d, ST_INTERNAL, "spool_add after spool_finish");
    if (s->n && s->in_order && key_cmp(s->last.data, s->last.len, key, len) >= 0)
        s->in_order = false;
    if (s->in_order) {
        buf_reset(&s->last);
        buf_add(&s->last, key, len);
    }
    buf_reset(&s->enc);
    itemenc_encode(&s->enc, item);
    sqlite3_reset(s->add);
    sqlite3_bind_blob(s->add, 1, key, (int)len, SQLITE_STATIC);
    sqlite3_bind_blob(s->add, 2, s->enc.data, (int)s->enc.len, SQLITE_STATIC);
    if (sqlite3_step(s->add) != SQLITE_DONE)
        return sqlerr(s, d);
    s->n++;
    return ST_OK;
}

status spool_finish(spool *s, diag *d)
{
    if (s->finished)
        return ST_OK;
    s->finished = true;
    if (s->in_txn && sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        return sqlerr(s, d);
    s->in_txn = false;
    /* In order as added: the rowid order is the key order. */
    const char *sql = s->in_order ? "SELECT k, body FROM spool ORDER BY rowid"
                                  : "SELECT k, body FROM spool ORDER BY k, rowid";
    if (sqlite3_prepare_v2(s->db, sql, -1, &s->read, NULL) != SQLITE_OK)
        return sqlerr(s, d);
    return ST_OK;
}

/* Steps the read: the next row into ahead_key/ahead_body (s->ahead). */
static status read_ahead(spool *s, diag *d)
{
    int rc = sqlite3_step(s->read);
    if (rc == SQLITE_DONE) {
        s->ahead = false;
        s->done = true;
        return ST_OK;
    }
    if (rc != SQLITE_ROW)
        return sqlerr(s, d);
    buf_reset(&s->ahead_key);
    buf_reset(&s->ahead_body);
    buf_add(&s->ahead_key, sqlite3_column_blob(s->read, 0), (size_t)sqlite3_column_bytes(s->read, 0));
    buf_add(&s->ahead_body, sqlite3_column_blob(s->read, 1), (size_t)sqlite3_column_bytes(s->read, 1));
    s->ahead = true;
    return ST_OK;
}

status spool_next(spool *s, av *item, uint64_t *replaced, bool *end, diag *d)
{
    *replaced = 0;
    *end = false;
    if (!s->finished) {
        status st = spool_finish(s, d);
        if (st != ST_OK)
            return st;
    }
    if (!s->ahead && !s->done) {
        status st = read_ahead(s, d);
        if (st != ST_OK)
            return st;
    }
    if (!s->ahead) {
        *end = true;
        return ST_OK;
    }
    /* The row ahead is the first of its key; the last of the run wins. */
    buf key = s->ahead_key, body = s->ahead_body;
    memset(&s->ahead_key, 0, sizeof s->ahead_key);
    memset(&s->ahead_body, 0, sizeof s->ahead_body);
    status st = ST_OK;
    for (;;) {
        st = read_ahead(s, d);
        if (st != ST_OK || !s->ahead ||
            key_cmp(key.data, key.len, s->ahead_key.data, s->ahead_key.len) != 0)
            break;
        (*replaced)++;
        buf tmp = body;
        body = s->ahead_body;
        s->ahead_body = tmp;
        s->ahead = false;
    }
    if (st == ST_OK)
        st = itemenc_decode(body.data, body.len, item, d);
    buf_done(&key);
    buf_done(&body);
    return st;
}

uint64_t spool_count(const spool *s)
{
    return s->n;
}

bool spool_in_order(const spool *s)
{
    return s->in_order;
}
