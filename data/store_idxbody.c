/*
 * store_idxbody — what an index entry stores beside its keys (schema
 * version 5): the itemenc body of the item as the index projects it, so
 * that a Query or Scan of an index is one range read of the idx B-tree
 * instead of a seek into items per entry; and the migration that gives
 * an older file's entries their bodies.
 *
 * Every projection stores a body: ALL the whole item (the same bytes as
 * the items row), INCLUDE the table keys, index keys and the
 * NonKeyAttributes the item has, KEYS_ONLY the table and index keys. A
 * KEYS_ONLY body is the key attributes again (tens of bytes), and keeps
 * every index read free of the join (tests/bench/NOTES.md). An entry
 * whose body is NULL (a row written by a ddbx older than version 5 into
 * a version 5 file) is read through the table, as before (store_read.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

void store_entry_body(const table_def *def, const index_def *ix, const av *item, buf *out)
{
    buf_reset(out);
    av cut;
    store_project_index(def, ix, item, &cut);
    itemenc_encode(out, &cut);
    av_done(&cut);
}

/* ---- the version 5 migration ---- */

typedef struct mig_table {
    int64_t id;
    table_def def;
} mig_table;

typedef struct mig {
    mig_table *t;
    size_t n;
    buf out;
} mig;

static const mig_table *mig_find(const mig *m, int64_t tid)
{
    for (size_t i = 0; i < m->n; i++)
        if (m->t[i].id == tid)
            return &m->t[i];
    return NULL;
}

/* ddbx_entry_body(tid, xid, item body): the entry's body, as the write
 * path makes it (NULL when the table or index is unknown, or the item
 * does not decode: the entry is then read through the table). */
static void entry_body_fn(sqlite3_context *cx, int argc, sqlite3_value **argv)
{
    (void)argc;
    mig *m = sqlite3_user_data(cx);
    const mig_table *t = mig_find(m, sqlite3_value_int64(argv[0]));
    int xid = sqlite3_value_int(argv[1]);
    if (!t || xid < 1 || (size_t)xid > t->def.n_idx || sqlite3_value_type(argv[2]) != SQLITE_BLOB)
        return;
    const index_def *ix = &t->def.idx[xid - 1];
    const void *body = sqlite3_value_blob(argv[2]);
    size_t len = (size_t)sqlite3_value_bytes(argv[2]);
    if (ix->proj == PROJ_ALL) {
        sqlite3_result_blob(cx, body, (int)len, SQLITE_TRANSIENT);
        return;
    }
    av item;
    diag d;
    diag_init(&d);
    if (itemenc_decode(body, len, &item, &d) != ST_OK)
        return;
    store_entry_body(&t->def, ix, &item, &m->out);
    av_done(&item);
    sqlite3_result_blob(cx, m->out.data ? m->out.data : "", (int)m->out.len, SQLITE_TRANSIENT);
}

static status load_defs(store *s, mig *m, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT id, description FROM tables", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    status st = ST_OK;
    int rc;
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        m->t = xrealloc(m->t, (m->n + 1) * sizeof *m->t);
        mig_table *t = &m->t[m->n];
        memset(t, 0, sizeof *t);
        t->id = sqlite3_column_int64(q, 0);
        st = store_def_from_desc((const char *)sqlite3_column_text(q, 1), &t->def, d);
        m->n++;
    }
    if (st == ST_OK && rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    return st;
}

static store_notice_fn notice;

void store_set_notice(store_notice_fn fn)
{
    notice = fn;
}

/* Says what the upgrade is about to do, when it has entries to fill. */
static void announce(store *s)
{
    sqlite3_stmt *q;
    if (!notice ||
        sqlite3_prepare_v2(s->db, "SELECT coalesce(sum(items), 0) FROM stats WHERE xid > 0", -1, &q, NULL) != SQLITE_OK)
        return;
    long long n = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    if (n <= 0)
        return;
    char msg[512];
    snprintf(msg, sizeof msg, "%s: upgrading to schema version 5: each of its %lld index entries gets"
             " the attributes its index projects (about a second a 100,000 entries)",
             s->sh && s->sh->path ? s->sh->path : "the database", n);
    notice(msg);
}

static bool idx_has_body(store *s)
{
    sqlite3_stmt *q;
    bool has = false;
    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM pragma_table_info('idx') WHERE name = 'body'", -1,
                           &q, NULL) != SQLITE_OK)
        return false;
    has = sqlite3_step(q) == SQLITE_ROW;
    sqlite3_finalize(q);
    return has;
}

/* A read-only connection opened on an older file (schema 4) found no
 * body column; a writer opened later adds it and fills it. The bit
 * copied at open would send this connection's index reads through the
 * table for as long as it lived (the same answers, more work). */
bool store_idx_body_has(store *s)
{
    return store_has_now(s, &s->has.idx_body, "SELECT body FROM idx LIMIT 0");
}

status store_idx_body_open(store *s, diag *d)
{
    if (s->read_only) {
        /* An older file read as it is: index reads go through the table. */
        store_idx_body_has(s);
        return ST_OK;
    }
    /* Inside store_open's schema transaction: the column and every
     * entry's body, or none of it (a new file has the column already). */
    mig m = { .t = NULL, .n = 0, .out = BUF_INIT };
    bool has = idx_has_body(s);
    if (!has)
        announce(s);
    status st = has ? ST_OK : load_defs(s, &m, d);
    if (st == ST_OK && !has && sqlite3_exec(s->db, "ALTER TABLE idx ADD COLUMN body BLOB", NULL, NULL, NULL) != SQLITE_OK)
        st = store_sqlerr(s, d);
    if (st == ST_OK && !has &&
        sqlite3_create_function(s->db, "ddbx_entry_body", 3, SQLITE_UTF8, &m, entry_body_fn, NULL,
                                NULL) != SQLITE_OK)
        st = store_sqlerr(s, d);
    if (st == ST_OK && !has &&
        sqlite3_exec(s->db, "UPDATE idx SET body = ddbx_entry_body(tid, xid, (SELECT b.body FROM items b"
                     " WHERE b.tid = idx.tid AND b.pk = idx.pk AND b.sk = idx.sk))", NULL, NULL,
                     NULL) != SQLITE_OK)
        st = store_sqlerr(s, d);
    if (!has)
        sqlite3_create_function(s->db, "ddbx_entry_body", 3, SQLITE_UTF8, NULL, NULL, NULL, NULL);
    if (st == ST_OK &&
        sqlite3_exec(s->db, "UPDATE meta SET value = 5 WHERE key = 'schema' AND value < 5", NULL, NULL,
                     NULL) != SQLITE_OK)
        st = store_sqlerr(s, d);
    for (size_t i = 0; i < m.n; i++)
        table_def_free(&m.t[i].def);
    free(m.t);
    buf_done(&m.out);
    s->has.idx_body = st == ST_OK;
    return st;
}

/* ---- the consistency check (tests) ---- */

typedef struct icheck {
    store *s;
    const tinfo *t;
    sqlite3_stmt *items, *entry;
    buf problems, ipk, isk;
    uint64_t want[SCHEMA_MAX_INDEXES], bytes[SCHEMA_MAX_INDEXES];
} icheck;

static void problem(icheck *c, const char *fmt, const char *index, const void *pk, size_t pk_len)
{
    buf_printf(&c->problems, fmt, index);
    buf_adds(&c->problems, " (table key bytes:");
    for (size_t i = 0; i < pk_len && i < 16; i++)
        buf_printf(&c->problems, " %02x", ((const unsigned char *)pk)[i]);
    buf_adds(&c->problems, ")\n");
}

static void bind_blob(sqlite3_stmt *q, int param, const buf *b)
{
    sqlite3_bind_blob(q, param, b->data ? b->data : "", (int)b->len, SQLITE_STATIC);
}

/* One item's entry in index x: present, its body the projection, its
 * size the projection's size. */
static status check_entry(icheck *c, size_t x, const av *item, diag *d)
{
    const table_def *def = &c->t->def;
    const index_def *ix = &def->idx[x];
    const void *pk = sqlite3_column_blob(c->items, 0), *sk = sqlite3_column_blob(c->items, 1);
    size_t pk_len = (size_t)sqlite3_column_bytes(c->items, 0), sk_len = (size_t)sqlite3_column_bytes(c->items, 1);
    store_index_key(ix, item, &c->ipk, &c->isk);
    sqlite3_stmt *q = c->entry;
    sqlite3_reset(q);
    sqlite3_bind_int64(q, 1, c->t->id);
    sqlite3_bind_int(q, 2, (int)x + 1);
    bind_blob(q, 3, &c->ipk);
    bind_blob(q, 4, &c->isk);
    sqlite3_bind_blob(q, 5, pk ? pk : "", (int)pk_len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 6, sk ? sk : "", (int)sk_len, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_DONE) {
        problem(c, "index %s: an item it holds has no entry", ix->name, pk, pk_len);
        return ST_OK;
    }
    if (rc != SQLITE_ROW)
        return store_sqlerr(c->s, d);
    av want;
    store_project_index(def, ix, item, &want);
    uint64_t size = (uint64_t)sqlite3_column_int64(q, 0);
    if (size != store_item_size(&want))
        problem(c, "index %s: an entry's size is not its projection's", ix->name, pk, pk_len);
    c->bytes[x] += size;
    status st = ST_OK;
    if (sqlite3_column_type(q, 1) == SQLITE_NULL) {
        problem(c, "index %s: an entry has no body", ix->name, pk, pk_len);
    } else {
        av got;
        st = itemenc_decode(sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1), &got, d);
        if (st == ST_OK && !av_equal(&got, &want))
            problem(c, "index %s: an entry's body is not the item's projection", ix->name, pk, pk_len);
        if (st == ST_OK)
            av_done(&got);
    }
    av_done(&want);
    return st;
}

static status check_items(icheck *c, diag *d)
{
    status st = ST_OK;
    int rc;
    while (st == ST_OK && (rc = sqlite3_step(c->items)) == SQLITE_ROW) {
        av item;
        st = itemenc_decode(sqlite3_column_blob(c->items, 2), (size_t)sqlite3_column_bytes(c->items, 2),
                            &item, d);
        if (st != ST_OK)
            break;
        for (size_t x = 0; st == ST_OK && x < c->t->def.n_idx && x < SCHEMA_MAX_INDEXES; x++) {
            if (!store_index_holds(&c->t->def.idx[x], &item))
                continue;
            c->want[x]++;
            st = check_entry(c, x, &item, d);
        }
        av_done(&item);
    }
    if (st == ST_OK && rc != SQLITE_DONE)
        st = store_sqlerr(c->s, d);
    return st;
}

/* Each index's entry count and its stats row. */
static status check_totals(icheck *c, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(c->s->db, "SELECT (SELECT count(*) FROM idx WHERE tid = ?1 AND xid = ?2),"
                           " coalesce((SELECT items FROM stats WHERE tid = ?1 AND xid = ?2), 0),"
                           " coalesce((SELECT bytes FROM stats WHERE tid = ?1 AND xid = ?2), 0)",
                           -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(c->s, d);
    status st = ST_OK;
    for (size_t x = 0; x < c->t->def.n_idx && x < SCHEMA_MAX_INDEXES && st == ST_OK; x++) {
        const char *name = c->t->def.idx[x].name;
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, c->t->id);
        sqlite3_bind_int(q, 2, (int)x + 1);
        if (sqlite3_step(q) != SQLITE_ROW) {
            st = store_sqlerr(c->s, d);
            break;
        }
        uint64_t n = (uint64_t)sqlite3_column_int64(q, 0);
        if (n != c->want[x])
            buf_printf(&c->problems, "index %s: %llu entr%s, %llu item%s it should hold\n", name,
                       (unsigned long long)n, n == 1 ? "y" : "ies", (unsigned long long)c->want[x],
                       c->want[x] == 1 ? "" : "s");
        if ((uint64_t)sqlite3_column_int64(q, 1) != c->want[x] ||
            (uint64_t)sqlite3_column_int64(q, 2) != c->bytes[x])
            buf_printf(&c->problems, "index %s: stats say %lld entries of %lld bytes, the entries"
                       " are %llu of %llu\n", name, (long long)sqlite3_column_int64(q, 1),
                       (long long)sqlite3_column_int64(q, 2), (unsigned long long)c->want[x],
                       (unsigned long long)c->bytes[x]);
    }
    sqlite3_finalize(q);
    return st;
}

status store_index_check(store *s, const char *table, char **problems, diag *d)
{
    *problems = NULL;
    if (s->remote)
        return diag_set(d, ST_USAGE, "an endpoint's indexes cannot be checked");
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    icheck c;
    memset(&c, 0, sizeof c);
    c.s = s;
    tinfo *t;
    if ((st = store_table(s, table, &t, d)) != ST_OK)
        goto out;
    c.t = t;
    if (sqlite3_prepare_v2(s->db, "SELECT pk, sk, body FROM items WHERE tid = ?1", -1, &c.items, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(s->db, store_idx_body_has(s)
                           ? "SELECT size, body FROM idx WHERE tid = ?1 AND xid = ?2 AND ipk = ?3"
                             " AND isk = ?4 AND pk = ?5 AND sk = ?6"
                           : "SELECT size, NULL FROM idx WHERE tid = ?1 AND xid = ?2 AND ipk = ?3"
                             " AND isk = ?4 AND pk = ?5 AND sk = ?6", -1, &c.entry, NULL) != SQLITE_OK) {
        st = store_sqlerr(s, d);
        goto out;
    }
    sqlite3_bind_int64(c.items, 1, t->id);
    if ((st = check_items(&c, d)) == ST_OK)
        st = check_totals(&c, d);
    if (st == ST_OK && c.problems.len)
        *problems = buf_steal(&c.problems);
out:
    sqlite3_finalize(c.items);
    sqlite3_finalize(c.entry);
    buf_done(&c.problems);
    buf_done(&c.ipk);
    buf_done(&c.isk);
    return store_txn_end(s, st, d);
}
