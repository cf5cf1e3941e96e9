/*
 * saved — the saved_conditions table (see saved.h).
 */
#include "data/saved.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/store_int.h"
#include "model/mem.h"

status store_local_home(store *s, bool write, const char *what, store **out, diag *d)
{
    *out = s;
    if (!s->remote)
        return ST_OK;
    *out = s->local;
    if (s->local)
        return ST_OK;
    if (!s->local_path)
        return diag_set(d, ST_VALIDATION, "%s are kept in a local database file,"
                        " and this remote store was given none", what);
    if (!write && access(s->local_path, F_OK) != 0)
        return ST_OK;
    diag od;
    diag_init(&od);
    if (store_open(s->local_path, s->local_flags, &s->local, &od) != ST_OK) {
        s->local = NULL;
        return diag_set(d, od.code, "%s: %s", s->local_path, od.msg);
    }
    *out = s->local;
    return ST_OK;
}

static status home(store *s, bool write, store **out, diag *d)
{
    return store_local_home(s, write, "Saved conditions", out, d);
}

#define CREATE_SQL \
    "CREATE TABLE IF NOT EXISTS saved_conditions(name TEXT PRIMARY KEY, kind TEXT NOT NULL," \
    " expr TEXT NOT NULL, names TEXT NOT NULL, vals TEXT NOT NULL, updated INTEGER NOT NULL)"

/* Does the table exist? (A read-only store may lack it: then nothing is
 * saved.) */
static status exists(store *s, bool *yes, diag *d)
{
    sqlite3_stmt *q = NULL;
    *yes = false;
    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM sqlite_master WHERE type = 'table'"
                           " AND name = 'saved_conditions'", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    int rc = sqlite3_step(q);
    *yes = rc == SQLITE_ROW;
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static status prepare(store *s, const char *sql, sqlite3_stmt **q, diag *d)
{
    if (sqlite3_prepare_v2(s->db, sql, -1, q, NULL) != SQLITE_OK) {
        *q = NULL;
        return store_sqlerr(s, d);
    }
    return ST_OK;
}

static char *col(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return xstrdup(t ? (const char *)t : "");
}

static void row(sqlite3_stmt *q, saved_cond *c)
{
    c->name = col(q, 0);
    c->kind = col(q, 1);
    c->expr = col(q, 2);
    c->names = col(q, 3);
    c->values = col(q, 4);
    c->updated = sqlite3_column_int64(q, 5);
}

status saved_put(store *s, const saved_cond *c, diag *d)
{
    size_t n = c->name ? strlen(c->name) : 0;
    if (n == 0 || n > 255)
        return diag_set(d, ST_VALIDATION, "A saved condition's name must be 1 to 255 bytes");
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)c->name[i] < 0x20 || c->name[i] == 0x7f)
            return diag_set(d, ST_VALIDATION, "A saved condition's name can not hold control characters");
    status st = home(s, true, &s, d);
    if (st)
        return st;
    if (s->read_only)
        return diag_set(d, ST_READ_ONLY, "the database was opened read-only");
    sqlite3_stmt *q = NULL;
    if (sqlite3_exec(s->db, CREATE_SQL, NULL, NULL, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    st = prepare(s, "INSERT OR REPLACE INTO saved_conditions(name, kind, expr, names, vals, updated)"
                    " VALUES(?1, ?2, ?3, ?4, ?5, ?6)", &q, d);
    if (st)
        goto out;
    sqlite3_bind_text(q, 1, c->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, c->kind ? c->kind : "condition", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, c->expr ? c->expr : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 4, c->names ? c->names : "", -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 5, c->values ? c->values : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 6, c->updated ? c->updated : (int64_t)time(NULL));
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(s, d);
out:
    sqlite3_finalize(q);
    return st;
}

status saved_get(store *s, const char *name, saved_cond *out, bool *found, diag *d)
{
    bool yes;
    sqlite3_stmt *q = NULL;
    *found = false;
    status st = home(s, false, &s, d);
    if (st || !s)
        return st;
    st = exists(s, &yes, d);
    if (st || !yes)
        return st;
    st = prepare(s, "SELECT name, kind, expr, names, vals, updated FROM saved_conditions"
                    " WHERE name = ?1", &q, d);
    if (st)
        return st;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        row(q, out);
        *found = true;
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    sqlite3_finalize(q);
    return st;
}

status saved_list(store *s, saved_cond **out, size_t *n, diag *d)
{
    bool yes;
    sqlite3_stmt *q = NULL;
    size_t cap = 0;
    *out = NULL;
    *n = 0;
    status st = home(s, false, &s, d);
    if (st || !s)
        return st;
    st = exists(s, &yes, d);
    if (st || !yes)
        return st;
    st = prepare(s, "SELECT name, kind, expr, names, vals, updated FROM saved_conditions"
                    " ORDER BY name", &q, d);
    if (st)
        return st;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? 2 * cap : 8;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        row(q, &(*out)[(*n)++]);
    }
    if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
        for (size_t i = 0; i < *n; i++)
            saved_cond_free(&(*out)[i]);
        free(*out);
        *out = NULL;
        *n = 0;
    }
    sqlite3_finalize(q);
    return st;
}

status saved_delete(store *s, const char *name, bool *found, diag *d)
{
    bool yes;
    sqlite3_stmt *q = NULL;
    *found = false;
    status st = home(s, false, &s, d);
    if (st || !s)
        return st;
    st = exists(s, &yes, d);
    if (st || !yes)
        return st;
    if (s->read_only)
        return diag_set(d, ST_READ_ONLY, "the database was opened read-only");
    st = prepare(s, "DELETE FROM saved_conditions WHERE name = ?1", &q, d);
    if (st)
        return st;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    if (sqlite3_step(q) != SQLITE_DONE)
        st = store_sqlerr(s, d);
    else
        *found = sqlite3_changes(s->db) > 0;
    sqlite3_finalize(q);
    return st;
}

void saved_cond_free(saved_cond *c)
{
    free(c->name);
    free(c->kind);
    free(c->expr);
    free(c->names);
    free(c->values);
    memset(c, 0, sizeof *c);
}
