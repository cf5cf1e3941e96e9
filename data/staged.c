/*
 * staged — the staged table (see staged.h).
 */
#include "data/staged.h"

#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

static const char what[] = "Staged changes";

/* The scope rows are kept under: "" for the file's own tables, the
 * endpoint for a remote store's. */
static const char *scope_of(const store *s)
{
    store_info info;
    store_get_info(s, &info);
    return info.remote && info.where ? info.where : "";
}

/* Does the table exist? (A read-only file of schema 2 lacks it.) */
static status exists(store *s, bool *yes, diag *d)
{
    sqlite3_stmt *q = NULL;
    *yes = false;
    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                           " AND name = 'staged'", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    int rc = sqlite3_step(q);
    *yes = rc == SQLITE_ROW;
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* The home store with the table ready: *h NULL when a read finds none. */
static status open_home(store *s, bool write, store **h, diag *d)
{
    bool yes;
    status st = store_local_home(s, write, what, h, d);
    if (st || !*h)
        return st;
    if (write && (*h)->read_only)
        return diag_set(d, ST_READ_ONLY, "the database was opened read-only");
    st = exists(*h, &yes, d);
    if (!st && !yes)
        *h = NULL;   /* a read-only file from before schema 3: nothing staged */
    return st;
}

static void json_of(const av *v, buf *out)
{
    buf_reset(out);
    if (v && v->type == AV_M)
        ddbjson_write_item(out, v);
}

static void bind_json(sqlite3_stmt *q, int i, const buf *b)
{
    if (b->len)
        sqlite3_bind_text(q, i, b->data, (int)b->len, SQLITE_STATIC);
    else
        sqlite3_bind_null(q, i);
}

status staged_put(store *s, const char *table, const av *key, const av *before,
                  const av *after, diag *d)
{
    store *h;
    status st = open_home(s, true, &h, d);
    if (st)
        return st;
    if (!h)
        return diag_set(d, ST_INTERNAL, "the database has no staged table");
    buf k = BUF_INIT, b = BUF_INIT, a = BUF_INIT;
    json_of(key, &k);
    json_of(before, &b);
    json_of(after, &a);
    sqlite3_stmt *q = NULL;
    /* A row that exists keeps its seq (its place in the order); a new
     * one comes after its scope's last (the index's last entry). */
    if (sqlite3_prepare_v2(h->db, "INSERT INTO staged(scope, tbl, key, before, after, seq)"
                           " VALUES(?1, ?2, ?3, ?4, ?5, coalesce((SELECT max(seq) FROM staged WHERE scope = ?1), 0) + 1)"
                           " ON CONFLICT(scope, tbl, key) DO UPDATE SET before = ?4, after = ?5",
                           -1, &q, NULL) != SQLITE_OK) {
        st = store_sqlerr(h, d);
        goto out;
    }
    sqlite3_bind_text(q, 1, scope_of(s), -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, table, -1, SQLITE_STATIC);
    bind_json(q, 3, &k);
    bind_json(q, 4, &b);
    bind_json(q, 5, &a);
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(h, d);
out:
    sqlite3_finalize(q);
    buf_done(&k);
    buf_done(&b);
    buf_done(&a);
    return st;
}

/* A JSON column into an av (NULL: AV_NONE). */
static status col_item(sqlite3_stmt *q, int i, av *out, diag *d)
{
    const char *t = (const char *)sqlite3_column_text(q, i);
    out->type = AV_NONE;
    if (!t)
        return ST_OK;
    return ddbjson_parse_item(t, strlen(t), out, d);
}

static status row(sqlite3_stmt *q, staged_item *it, diag *d)
{
    memset(it, 0, sizeof *it);
    it->table = xstrdup((const char *)sqlite3_column_text(q, 0));
    it->seq = sqlite3_column_int64(q, 4);
    status st = col_item(q, 1, &it->key, d);
    if (!st)
        st = col_item(q, 2, &it->before, d);
    if (!st)
        st = col_item(q, 3, &it->after, d);
    if (st)
        staged_item_free(it);
    return st;
}

#define SELECT_SQL "SELECT tbl, key, before, after, seq FROM staged WHERE scope = ?1"

/* The rows of q (bound by the caller) into *out. */
static status collect(store *h, sqlite3_stmt *q, staged_item **out, size_t *n, diag *d)
{
    size_t cap = 0;
    status st = ST_OK;
    int rc = SQLITE_DONE;
    while (!st && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        st = row(q, &(*out)[*n], d);
        if (!st)
            (*n)++;
    }
    if (!st && rc != SQLITE_DONE)
        st = store_sqlerr(h, d);
    if (st) {
        for (size_t i = 0; i < *n; i++)
            staged_item_free(&(*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    sqlite3_finalize(q);
    return st;
}

/* The rows of sql, a SELECT_SQL (?2: table, when given; ?3: max, when
 * not 0; ?4: seq, when sql has it). */
static status list_seq(store *s, const char *sql, const char *table, size_t max, int64_t seq,
                       staged_item **out, size_t *n, diag *d)
{
    store *h;
    *out = NULL;
    *n = 0;
    status st = open_home(s, false, &h, d);
    if (st || !h)
        return st;
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(h->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(h, d);
    sqlite3_bind_text(q, 1, scope_of(s), -1, SQLITE_STATIC);
    if (table)
        sqlite3_bind_text(q, 2, table, -1, SQLITE_STATIC);
    if (max)
        sqlite3_bind_int64(q, 3, (sqlite3_int64)max);
    if (sqlite3_bind_parameter_count(q) >= 4)
        sqlite3_bind_int64(q, 4, (sqlite3_int64)seq);
    return collect(h, q, out, n, d);
}

static status list_rows(store *s, const char *sql, const char *table, size_t max, staged_item **out,
                        size_t *n, diag *d)
{
    return list_seq(s, sql, table, max, 0, out, n, d);
}

status staged_list(store *s, const char *table, staged_item **out, size_t *n, diag *d)
{
    return list_rows(s, SELECT_SQL " AND (?2 IS NULL OR tbl = ?2) ORDER BY seq", table, 0, out, n, d);
}

status staged_head(store *s, size_t max, staged_item **out, size_t *n, diag *d)
{
    return list_rows(s, SELECT_SQL " ORDER BY seq LIMIT ?3", NULL, max, out, n, d);
}

status staged_page(store *s, int64_t seq, int dir, size_t max, staged_item **out, size_t *n, diag *d)
{
    static const char *const sql[] = {
        SELECT_SQL " AND seq < ?4 ORDER BY seq DESC LIMIT ?3",
        SELECT_SQL " AND seq >= ?4 ORDER BY seq LIMIT ?3",
        SELECT_SQL " AND seq > ?4 ORDER BY seq LIMIT ?3",
    };
    status st = list_seq(s, sql[dir < 0 ? 0 : dir == 0 ? 1 : 2], NULL, max ? max : 1, seq, out, n, d);
    for (size_t i = 0; !st && dir < 0 && i < *n / 2; i++) {   /* read backwards: back in order */
        staged_item t = (*out)[i];
        (*out)[i] = (*out)[*n - 1 - i];
        (*out)[*n - 1 - i] = t;
    }
    return st;
}

status staged_count(store *s, size_t *n, diag *d)
{
    store *h;
    *n = 0;
    status st = open_home(s, false, &h, d);
    if (st || !h)
        return st;
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(h->db, "SELECT count(*) FROM staged WHERE scope = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(h, d);
    sqlite3_bind_text(q, 1, scope_of(s), -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        *n = (size_t)sqlite3_column_int64(q, 0);
    else
        st = store_sqlerr(h, d);
    sqlite3_finalize(q);
    return st;
}

status staged_list_new(store *s, const char *table, staged_item **out, size_t *n, diag *d)
{
    return list_rows(s, SELECT_SQL " AND tbl = ?2 AND before IS NULL ORDER BY seq", table, 0, out, n, d);
}

status staged_tables(store *s, char ***out, size_t *n, diag *d)
{
    store *h;
    *out = NULL;
    *n = 0;
    status st = open_home(s, false, &h, d);
    if (st || !h)
        return st;
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(h->db, "SELECT DISTINCT tbl FROM staged WHERE scope = ?1 ORDER BY tbl", -1, &q,
                           NULL) != SQLITE_OK)
        return store_sqlerr(h, d);
    sqlite3_bind_text(q, 1, scope_of(s), -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[(*n)++] = xstrdup((const char *)sqlite3_column_text(q, 0));
    }
    if (rc != SQLITE_DONE)
        st = store_sqlerr(h, d);
    sqlite3_finalize(q);
    return st;
}

status staged_get(store *s, const char *table, const av *key, staged_item *out, bool *found,
                  diag *d)
{
    store *h;
    *found = false;
    status st = open_home(s, false, &h, d);
    if (st || !h)
        return st;
    buf k = BUF_INIT;
    json_of(key, &k);
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(h->db, SELECT_SQL " AND tbl = ?2 AND key = ?3", -1, &q, NULL) != SQLITE_OK) {
        buf_done(&k);
        return store_sqlerr(h, d);
    }
    sqlite3_bind_text(q, 1, scope_of(s), -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, table, -1, SQLITE_STATIC);
    bind_json(q, 3, &k);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        st = row(q, out, d);
        *found = st == ST_OK;
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(h, d);
    }
    sqlite3_finalize(q);
    buf_done(&k);
    return st;
}

status staged_drop(store *s, const char *table, const av *key, size_t *n, diag *d)
{
    store *h;
    if (n)
        *n = 0;
    status st = open_home(s, false, &h, d);
    if (st || !h)
        return st;
    if (h->read_only)
        return diag_set(d, ST_READ_ONLY, "the database was opened read-only");
    buf k = BUF_INIT;
    json_of(key, &k);
    sqlite3_stmt *q = NULL;
    /* One item's by its primary key (an OR with NULL would read every
     * row: a commit drops each change it wrote). */
    const char *sql = key ? "DELETE FROM staged WHERE scope = ?1 AND tbl = ?2 AND key = ?3"
                          : "DELETE FROM staged WHERE scope = ?1 AND (?2 IS NULL OR tbl = ?2)";
    if (sqlite3_prepare_v2(h->db, sql, -1, &q, NULL) != SQLITE_OK) {
        buf_done(&k);
        return store_sqlerr(h, d);
    }
    sqlite3_bind_text(q, 1, scope_of(s), -1, SQLITE_STATIC);
    if (table)
        sqlite3_bind_text(q, 2, table, -1, SQLITE_STATIC);
    if (key)
        bind_json(q, 3, &k);
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(h, d);
    else if (n)
        *n = (size_t)sqlite3_changes(h->db);
    sqlite3_finalize(q);
    buf_done(&k);
    return st;
}

void staged_item_free(staged_item *it)
{
    free(it->table);
    av_done(&it->key);
    av_done(&it->before);
    av_done(&it->after);
    memset(it, 0, sizeof *it);
}
