/*
 * store_backup — on-demand backups: the catalogue (table `backups`,
 * store_int.h), the backup files, taking one, deleting one, restoring
 * one into a new table (shared with point-in-time recovery), the SYSTEM
 * backup DeleteTable keeps, and the typed calls of data/store_backup.h.
 *
 * A backup's items go into a SQLite file of their own in FILE-backups/:
 * the copy is one INSERT ... SELECT run in one transaction that reads
 * this database (its snapshot: writers go on) and writes only the new
 * file, made without a journal (an unfinished file is never used) and
 * synced before the catalogue names it. The steps, each safe to be
 * killed after:
 *   1. tmp-PID-START-RANDOM.db written, synced (a crash leaves a tmp file
 *      of a dead process: removed at the next open);
 *   2. in one write transaction of this database: the row inserted and
 *      the file renamed to BID.db (a crash before the commit leaves a
 *      file no row names: removed at the next open, under the write lock,
 *      so never while another process is between rename and commit).
 * Deleting commits the row's removal first and unlinks the file after.
 *
 * Where DynamoDB's behaviour comes from: the API reference (CreateBackup,
 * DescribeBackup, ListBackups, DeleteBackup, RestoreTableFromBackup and
 * their shapes), the developer guide (what a restore keeps; the SYSTEM
 * backup "TABLE$DeletedTableBackup" kept 35 days), and DynamoDB's answers
 * as observed and published with the ack-api-quirks notes (the ARN's
 * 14-digit creation ms, a SYSTEM backup's -00000000 suffix and that it
 * cannot be deleted, the messages quoted below).
 */
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

#define DAY_MS (24LL * 3600 * 1000)
#define SYSTEM_KEEP_DAYS 35

/* Version 6: backups and each table's history (store_int.h). Only adds
 * tables, as version 2 did; the tables an older file already holds get a
 * history that starts now. */
#define SCHEMA_6_SQL \
    "CREATE TABLE IF NOT EXISTS backups(id INTEGER PRIMARY KEY AUTOINCREMENT," \
    " bid TEXT NOT NULL UNIQUE, name TEXT NOT NULL, tname TEXT NOT NULL, tid INTEGER NOT NULL," \
    " type INTEGER NOT NULL, auto INTEGER NOT NULL, created INTEGER NOT NULL, expires INTEGER," \
    " items INTEGER NOT NULL, bytes INTEGER NOT NULL, description TEXT NOT NULL, ttl TEXT, file TEXT);" \
    "CREATE INDEX IF NOT EXISTS backups_created ON backups(created, bid);" \
    "CREATE TABLE IF NOT EXISTS history(tid INTEGER PRIMARY KEY, complete INTEGER NOT NULL," \
    " pitr INTEGER, days INTEGER NOT NULL DEFAULT 35);"

/* ---- the backups folder ---- */

static bool in_memory(const store *s)
{
    return !s->sh || !*s->sh->path || s->sh->memory;
}

/* The folder's path (made when make is true); NULL with d set when it
 * cannot be made. */
static const char *bk_dir(store *s, bool make, diag *d)
{
    if (!s->bk_dir) {
        if (in_memory(s)) {
            if (!make)
                return NULL;
            const char *tmp = getenv("TMPDIR");
            buf b = BUF_INIT;
            buf_printf(&b, "%s/ddbx-backups.XXXXXX", tmp && *tmp ? tmp : "/tmp");
            if (!mkdtemp(b.data)) {
                diag_set(d, ST_IO, "%s: %s", b.data, strerror(errno));
                buf_done(&b);
                return NULL;
            }
            s->bk_dir = buf_steal(&b);
            s->bk_dir_temp = true;
            return s->bk_dir;
        }
        buf b = BUF_INIT;
        buf_printf(&b, "%s-backups", s->sh->path);
        s->bk_dir = buf_steal(&b);
    }
    if (make && mkdir(s->bk_dir, 0700) != 0 && errno != EEXIST) {
        diag_set(d, ST_IO, "%s: %s", s->bk_dir, strerror(errno));
        return NULL;
    }
    return s->bk_dir;
}

static char *bk_path(store *s, const char *file)
{
    buf b = BUF_INIT;
    buf_printf(&b, "%s/%s", s->bk_dir, file);
    return buf_steal(&b);
}

char *store_bk_file_path(store *s, const char *file)
{
    bk_dir(s, false, NULL);
    return s->bk_dir ? bk_path(s, file) : xstrdup(file);
}

/* Unlinks a deleted backup's file from the backups folder. */
static void store_bk_unlink(store *s, const char *file)
{
    if (!file || !bk_dir(s, false, NULL))
        return;
    char *p = bk_path(s, file);
    unlink(p);
    free(p);
}

/* A process's start time (clock ticks since boot, /proc/PID/stat's 22nd
 * field), so that a pid reused after a crash is not taken for the
 * process that made a file; 0 where /proc cannot say. */
static unsigned long long proc_start(long pid)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    const char *p = strrchr(text, ')');   /* the command name may hold spaces */
    for (int field = 2; p && field < 22; field++)
        p = strchr(p + 1, ' ');
    return p ? strtoull(p + 1, NULL, 10) : 0;
}

static bool proc_alive(long pid, unsigned long long start)
{
    if (pid <= 0 || (kill((pid_t)pid, 0) != 0 && errno == ESRCH))
        return false;
    unsigned long long now = proc_start(pid);
    return !start || !now || now == start;
}

/* Files of the folder that nothing will use: a tmp file of a process
 * that is gone, a backup file no row names. Called under the write lock
 * (store_open's schema transaction). */
static status tidy(store *s, diag *d)
{
    const char *dir = bk_dir(s, false, d);
    DIR *dh = dir ? opendir(dir) : NULL;
    if (!dh)
        return ST_OK;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT 1 FROM backups WHERE file = ?1", -1, &q, NULL) != SQLITE_OK) {
        closedir(dh);
        return store_sqlerr(s, d);
    }
    struct dirent *e;
    status st = ST_OK;
    while (st == ST_OK && (e = readdir(dh))) {
        const char *n = e->d_name;
        if (n[0] == '.')
            continue;
        long pid;
        unsigned long long start;
        bool stale;
        if (sscanf(n, "tmp-%ld-%llu-", &pid, &start) == 2) {
            stale = !proc_alive(pid, start);
        } else {
            /* BID.db, and any sidecar SQLite left beside it (BID.db-journal). */
            char base[256];
            snprintf(base, sizeof base, "%s", n);
            char *dot = strstr(base, ".db");
            if (dot)
                dot[3] = '\0';
            sqlite3_reset(q);
            sqlite3_bind_text(q, 1, base, -1, SQLITE_TRANSIENT);
            int rc = sqlite3_step(q);
            if (rc != SQLITE_ROW && rc != SQLITE_DONE)
                st = store_sqlerr(s, d);
            stale = rc == SQLITE_DONE;
        }
        if (st == ST_OK && stale) {
            char *p = bk_path(s, n);
            unlink(p);
            free(p);
        }
    }
    sqlite3_finalize(q);
    closedir(dh);
    return st;
}

/* A read-only connection found no history table when it opened (a
 * version 5 file); a writer opened later upgrades the file. The bit
 * copied at open would say "no backups, no recovery" for as long as the
 * connection lived. */
bool store_history_has(store *s)
{
    return store_has_now(s, &s->has.history, "SELECT 1 FROM history, backups LIMIT 1");
}

status store_backup_open(store *s, diag *d)
{
    if (s->read_only) {
        store_history_has(s);
        return ST_OK;
    }
    if (sqlite3_exec(s->db, SCHEMA_6_SQL, NULL, NULL, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    int64_t now = store_now_ms(s);
    status st = store_sql(s, "INSERT OR IGNORE INTO history(tid, complete) SELECT id, ?1 FROM tables"
                               " WHERE (SELECT value FROM meta WHERE key = 'schema') < 6", &now, 1, d);
    if (st == ST_OK)
        st = store_sql(s, "UPDATE meta SET value = 6 WHERE key = 'schema' AND value < 6", NULL, 0, d);
    if (st == ST_OK)
        st = tidy(s, d);
    s->has.history = st == ST_OK;
    return st;
}

void store_backup_close(store *s)
{
    if (s->bk_dir_temp && s->bk_dir) {
        DIR *dh = opendir(s->bk_dir);
        struct dirent *e;
        while (dh && (e = readdir(dh))) {
            if (e->d_name[0] == '.')
                continue;
            char *p = bk_path(s, e->d_name);
            unlink(p);
            free(p);
        }
        if (dh)
            closedir(dh);
        rmdir(s->bk_dir);
    }
    free(s->bk_dir);
    s->bk_dir = NULL;
}

/* ---- rows ---- */

#define BK_COLS "id, bid, name, tname, tid, type, auto, created, expires, items, bytes, description, ttl, file"

static char *col_text(sqlite3_stmt *q, int i)
{
    const unsigned char *t = sqlite3_column_text(q, i);
    return t ? xstrdup((const char *)t) : NULL;
}

static void read_row(sqlite3_stmt *q, store_bk_row *r)
{
    r->id = sqlite3_column_int64(q, 0);
    r->bid = col_text(q, 1);
    r->name = col_text(q, 2);
    r->tname = col_text(q, 3);
    r->tid = sqlite3_column_int64(q, 4);
    r->type = sqlite3_column_int(q, 5);
    r->automatic = sqlite3_column_int(q, 6) != 0;
    r->created = sqlite3_column_int64(q, 7);
    r->expires = sqlite3_column_int64(q, 8);
    r->items = (uint64_t)sqlite3_column_int64(q, 9);
    r->bytes = (uint64_t)sqlite3_column_int64(q, 10);
    r->desc = col_text(q, 11);
    r->ttl = col_text(q, 12);
    r->file = col_text(q, 13);
}

void store_bk_row_done(store_bk_row *r)
{
    free(r->bid);
    free(r->name);
    free(r->tname);
    free(r->desc);
    free(r->ttl);
    free(r->file);
    memset(r, 0, sizeof *r);
}

void store_bk_rows_free(store_bk_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++)
        store_bk_row_done(&rows[i]);
    free(rows);
}

void store_bk_arn(buf *out, const store_bk_row *r)
{
    buf_printf(out, STORE_ARN_PREFIX "%s/backup/%s", r->tname, r->bid);
}

/* The parts of a backup ARN, "arn:PARTITION:dynamodb:REGION:ACCOUNT:
 * table/NAME/backup/ID", with DynamoDB's two refusals as observed: a
 * string that is no backup ARN (a table's ARN, no ARN at all) is
 * "Invalid Backup ARN"; an ARN of another partition or service "BackupArn
 * is not valid". The region and account are not compared (DynamoDB
 * ignores the region; one account here). */
static status parse_arn(const char *arn, char *table, size_t table_cap, char *id, size_t id_cap, diag *d)
{
    const char *p[6];
    size_t n = 0;
    p[n++] = arn;
    for (const char *c = arn; *c && n < 6; c++)
        if (*c == ':')
            p[n++] = c + 1;
    if (n < 6 || strncmp(arn, "arn:", 4) != 0)
        return diag_set(d, ST_VALIDATION, "Invalid Backup ARN");
    if (strncmp(p[1], "aws", 3) != 0 || strncmp(p[2], "dynamodb:", 9) != 0)
        return diag_set(d, ST_VALIDATION, "BackupArn is not valid");
    const char *res = p[5], *b = strstr(res, "/backup/");
    if (strncmp(res, "table/", 6) != 0 || !b || b == res + 6)
        return diag_set(d, ST_VALIDATION, "Invalid Backup ARN");
    snprintf(table, table_cap, "%.*s", (int)(b - res - 6), res + 6);
    snprintf(id, id_cap, "%s", b + 8);
    return ST_OK;
}

/* The creation ms an ID starts with (its 14 digits); -1 when it does not. */
static int64_t id_ms(const char *id)
{
    int64_t v = 0;
    for (int i = 0; i < 14; i++) {
        if (id[i] < '0' || id[i] > '9')
            return -1;
        v = v * 10 + (id[i] - '0');
    }
    return id[14] == '-' ? v : -1;
}

static status no_backup(const char *arn, diag *d)
{
    return diag_set(d, ST_BACKUP_NOT_FOUND, "Backup not found: %s", arn);
}

static status no_history(diag *d)
{
    return diag_set(d, ST_USAGE, "this database predates backups (schema version 6): open it writable"
                    " once to add them");
}

status store_bk_find(store *s, const char *arn, store_bk_row *r, diag *d)
{
    char table[512], id[64];
    memset(r, 0, sizeof *r);
    status st = parse_arn(arn, table, sizeof table, id, sizeof id, d);
    if (st != ST_OK)
        return st;
    if (!store_history_has(s))
        return no_backup(arn, d);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " BK_COLS " FROM backups WHERE bid = ?1 AND tname = ?2"
                           " AND (expires IS NULL OR expires > ?3)", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_text(q, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, table, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, store_now_ms(s));
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        read_row(q, r);
    else if (rc == SQLITE_DONE)
        st = no_backup(arn, d);
    else
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    return st;
}

status store_bk_list(store *s, const store_backup_filter *f, store_bk_row **rows, size_t *n, bool *more,
                     diag *d)
{
    *rows = NULL;
    *n = 0;
    *more = false;
    int64_t after_ms = -1;
    char after_id[64] = "";
    if (f->after_arn) {
        char table[512];
        status st = parse_arn(f->after_arn, table, sizeof table, after_id, sizeof after_id, d);
        if (st != ST_OK)
            return st;
        if ((after_ms = id_ms(after_id)) < 0)
            return diag_set(d, ST_VALIDATION, "Invalid Backup ARN");
    }
    if (!store_history_has(s))
        return ST_OK;
    /* One statement whatever the filter: each condition is neutral when
     * its parameter says "any". types: bit 0 USER, bit 1 SYSTEM. */
    int types = (f->user ? 1 : 0) | (f->system ? 2 : 0);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT " BK_COLS " FROM backups WHERE (expires IS NULL OR expires > ?1)"
                           " AND (?2 IS NULL OR tname = ?2) AND ((?3 >> type) & 1) = 1 AND (?4 = 0 OR auto = 1)"
                           " AND created >= ?5 AND created < ?6 AND (created, bid) > (?7, ?8)"
                           " ORDER BY created, bid LIMIT ?9", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, store_now_ms(s));
    if (f->table)
        sqlite3_bind_text(q, 2, f->table, -1, SQLITE_STATIC);
    sqlite3_bind_int(q, 3, types ? types : 1);
    sqlite3_bind_int(q, 4, f->automatic_only);
    sqlite3_bind_int64(q, 5, f->from_ms);
    sqlite3_bind_int64(q, 6, f->to_ms > 0 ? f->to_ms : INT64_MAX);
    sqlite3_bind_int64(q, 7, after_ms);
    sqlite3_bind_text(q, 8, after_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 9, f->max ? (int64_t)f->max + 1 : -1);
    size_t cap = 0;
    int rc;
    status st = ST_OK;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (f->max && *n == f->max) {
            *more = true;
            break;
        }
        if (*n == cap) {
            cap = cap ? cap * 2 : 16;
            *rows = xrealloc(*rows, cap * sizeof **rows);
        }
        memset(&(*rows)[*n], 0, sizeof **rows);
        read_row(q, &(*rows)[(*n)++]);
    }
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    if (st != ST_OK) {
        store_bk_rows_free(*rows, *n);
        *rows = NULL;
        *n = 0;
    }
    return st;
}

/* ---- taking a backup ---- */

/* 8 random hex digits, or the SYSTEM backups' zeros. */
static void make_bid(char out[32], int64_t ms, bool system)
{
    unsigned char r[4] = { 0, 0, 0, 0 };
    if (!system)
        store_random(r, sizeof r);
    snprintf(out, 32, "%014" PRId64 "-%02x%02x%02x%02x", ms, r[0], r[1], r[2], r[3]);
}

/* BackupName: 3 to 255 of [a-zA-Z0-9_.-]. */
static bool name_ok(const char *name)
{
    size_t n = name ? strlen(name) : 0;
    return n >= 3 && n <= 255 && store_valid_name(name, n);
}

static status step_done(store *s, sqlite3_stmt *q, diag *d)
{
    int rc = sqlite3_step(q);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? ST_OK : store_sqlerr(s, d);
}

/* One statement of constant text, its rows (a PRAGMA's) ignored. */
static status exec(store *s, const char *sql, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW)
        ;
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* The backup file at path as database bk. An in-memory database's
 * connection attaches through its own VFS (memdb) unless told otherwise:
 * its backup files are named as a URI of the default VFS, so they are
 * files on disk as a file database's are. */
static status attach(store *s, const char *path, diag *d)
{
    buf uri = BUF_INIT;
    if (s->sh && s->sh->memory) {
        buf_adds(&uri, "file:");
        for (const char *c = path; *c; c++) {
            if (*c == '%' || *c == '?' || *c == '#')
                buf_printf(&uri, "%%%02X", (unsigned char)*c);
            else
                buf_addc(&uri, *c);
        }
        sqlite3_vfs *vfs = sqlite3_vfs_find(NULL);
        buf_printf(&uri, "?vfs=%s", vfs ? vfs->zName : "unix");
    }
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "ATTACH ?1 AS bk", -1, &q, NULL) != SQLITE_OK) {
        buf_done(&uri);
        return store_sqlerr(s, d);
    }
    sqlite3_bind_text(q, 1, uri.len ? uri.data : path, -1, SQLITE_STATIC);
    status st = step_done(s, q, d);
    sqlite3_finalize(q);
    buf_done(&uri);
    return st;
}

static void detach(store *s)
{
    sqlite3_exec(s->db, "DETACH bk", NULL, NULL, NULL);
}

static status sync_path(const char *path, int flags, diag *d)
{
    int fd = open(path, flags | O_CLOEXEC);
    if (fd < 0 || fsync(fd) != 0) {
        status st = diag_set(d, ST_IO, "%s: %s", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return st;
    }
    close(fd);
    return ST_OK;
}

/* What the copy learnt of the table, in the copy's own snapshot. */
typedef struct snap {
    int64_t tid, created;
    uint64_t items, bytes;
    char *desc, *ttl;
} snap;

static void snap_done(snap *sn)
{
    free(sn->desc);
    free(sn->ttl);
}

/* One statement's first row: column 0 as text (NULL when no row), or
 * columns 0, 1 as numbers. */
static status query_row(store *s, const char *sql, int64_t id, const char *text, char **str, int64_t nums[2],
                        bool *found, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    if (text)
        sqlite3_bind_text(q, 1, text, -1, SQLITE_STATIC);
    else
        sqlite3_bind_int64(q, 1, id);
    int rc = sqlite3_step(q);
    if (found)
        *found = rc == SQLITE_ROW;
    if (rc == SQLITE_ROW && nums) {
        nums[0] = sqlite3_column_int64(q, 0);
        nums[1] = sqlite3_column_int64(q, 1);
    }
    if (rc == SQLITE_ROW && str)
        *str = col_text(q, nums ? 2 : 0);
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static status table_not_found(const char *table, diag *d)
{
    return diag_set(d, ST_TABLE_NOT_FOUND, "Table not found: %s", table);
}

/* The copy into the attached file bk, in one transaction that only reads
 * this database. */
static status copy_items(store *s, const char *table, snap *sn, diag *d)
{
    status st = exec(s, "BEGIN", d);
    if (st != ST_OK)
        return st;
    int64_t nums[2];
    bool found;
    st = query_row(s, "SELECT id, ver, description FROM main.tables WHERE name = ?1", 0, table, &sn->desc, nums,
                   &found, d);
    if (st == ST_OK && !found)
        st = table_not_found(table, d);
    if (st != ST_OK)
        goto out;
    sn->tid = nums[0];
    sn->created = store_now_ms(s);
    if ((st = query_row(s, "SELECT items, bytes FROM main.stats WHERE tid = ?1 AND xid = 0", sn->tid, NULL, NULL,
                        nums, &found, d)) != ST_OK)
        goto out;
    sn->items = found ? (uint64_t)nums[0] : 0;
    sn->bytes = found ? (uint64_t)nums[1] : 0;
    if ((st = query_row(s, "SELECT attr FROM main.ttl WHERE tid = ?1", sn->tid, NULL, &sn->ttl, NULL, NULL,
                        d)) != ST_OK)
        goto out;
    if ((st = exec(s, "CREATE TABLE bk.items(tid INTEGER NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL,"
                   " size INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY(tid, pk, sk)) WITHOUT ROWID", d)) != ST_OK ||
        (st = exec(s, "CREATE TABLE bk.meta(key TEXT PRIMARY KEY, value)", d)) != ST_OK ||
        (st = store_sql(s, "INSERT INTO bk.items SELECT 0, pk, sk, size, body FROM main.items"
                             " WHERE tid = ?1 ORDER BY pk, sk", &sn->tid, 1, d)) != ST_OK)
        goto out;
    if ((uint64_t)sqlite3_changes64(s->db) != sn->items) {
        st = diag_set(d, ST_INTERNAL, "backup of %s: %lld items copied, the table counts %llu", table,
                      (long long)sqlite3_changes64(s->db), (unsigned long long)sn->items);
        goto out;
    }
    /* The file describes itself too (tests/tools/dbcheck reads it). */
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO bk.meta(key, value) VALUES('table', ?1), ('description', ?2),"
                           " ('created', ?3), ('items', ?4), ('bytes', ?5)", -1, &q, NULL) != SQLITE_OK) {
        st = store_sqlerr(s, d);
        goto out;
    }
    sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, sn->desc, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, sn->created);
    sqlite3_bind_int64(q, 4, (int64_t)sn->items);
    sqlite3_bind_int64(q, 5, (int64_t)sn->bytes);
    st = step_done(s, q, d);
    sqlite3_finalize(q);
out:
    if (st == ST_OK)
        return exec(s, "COMMIT", d);
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return st;
}

static status insert_row(store *s, const store_bk_row *r, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT INTO backups(bid, name, tname, tid, type, auto, created, expires,"
                           " items, bytes, description, ttl, file) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9,"
                           " ?10, ?11, ?12, ?13)", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_text(q, 1, r->bid, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 3, r->tname, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 4, r->tid);
    sqlite3_bind_int(q, 5, r->type);
    sqlite3_bind_int(q, 6, r->automatic);
    sqlite3_bind_int64(q, 7, r->created);
    if (r->expires)
        sqlite3_bind_int64(q, 8, r->expires);
    sqlite3_bind_int64(q, 9, (int64_t)r->items);
    sqlite3_bind_int64(q, 10, (int64_t)r->bytes);
    sqlite3_bind_text(q, 11, r->desc, -1, SQLITE_STATIC);
    if (r->ttl)
        sqlite3_bind_text(q, 12, r->ttl, -1, SQLITE_STATIC);
    if (r->file)
        sqlite3_bind_text(q, 13, r->file, -1, SQLITE_STATIC);
    status st = step_done(s, q, d);
    sqlite3_finalize(q);
    if (st == ST_OK)
        ((store_bk_row *)r)->id = sqlite3_last_insert_rowid(s->db);
    return st;
}

/* Is bid taken already (two backups of one name in one ms)? */
static status bid_taken(store *s, const char *bid, bool *taken, diag *d)
{
    return query_row(s, "SELECT 1 FROM backups WHERE bid = ?1", 0, bid, NULL, NULL, taken, d);
}

status store_bk_create(store *s, const char *table, const char *name, bool automatic, store_bk_row *out,
                       diag *d)
{
    memset(out, 0, sizeof *out);
    if (!name_ok(name))
        return diag_set(d, ST_VALIDATION, "Invalid backup name: %s: 3 to 255 of a-z, A-Z, 0-9, '_', '-' and"
                        " '.'", name ? name : "(null)");
    if (s->read_only)
        return diag_set(d, ST_READ_ONLY, "the database was opened read-only");
    if (s->txn_depth > 0)
        return diag_set(d, ST_USAGE, "a backup cannot be taken inside a transaction");
    if (!store_history_has(s))
        return no_history(d);
    const char *dir = bk_dir(s, true, d);
    if (!dir)
        return d->code;
    unsigned char rnd[4];
    store_random(rnd, sizeof rnd);
    long pid = (long)getpid();
    buf tmp = BUF_INIT;
    buf_printf(&tmp, "%s/tmp-%ld-%llu-%02x%02x%02x%02x.db", dir, pid, proc_start(pid), rnd[0], rnd[1], rnd[2],
               rnd[3]);
    snap sn = { 0 };
    char *final = NULL;
    bool attached = false, renamed = false;
    int fd = open(tmp.data, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    status st = fd < 0 ? diag_set(d, ST_IO, "%s: %s", tmp.data, strerror(errno)) : ST_OK;
    if (fd >= 0)
        close(fd);
    if (st == ST_OK && (st = attach(s, tmp.data, d)) == ST_OK)
        attached = true;
    /* No journal and no syncs while it is written: an unfinished file is
     * never used; it is synced once, whole, before the row names it. */
    if (st == ST_OK && (st = exec(s, "PRAGMA bk.page_size=16384", d)) == ST_OK &&
        (st = exec(s, "PRAGMA bk.journal_mode=OFF", d)) == ST_OK)
        st = exec(s, "PRAGMA bk.synchronous=OFF", d);
    if (st == ST_OK)
        st = copy_items(s, table, &sn, d);
    if (attached)
        detach(s);
    if (st == ST_OK)
        st = sync_path(tmp.data, O_RDONLY, d);
    if (st != ST_OK)
        goto out;
    /* The row, and the file under its name, in one write transaction. */
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    out->tname = xstrdup(table);
    out->name = xstrdup(name);
    out->tid = sn.tid;
    out->type = STORE_BACKUP_USER;
    out->automatic = automatic;
    out->items = sn.items;
    out->bytes = sn.bytes;
    out->desc = xstrdup(sn.desc);
    out->ttl = sn.ttl ? xstrdup(sn.ttl) : NULL;
    out->created = sn.created;
    char bid[32];
    for (bool taken = true; st == ST_OK && taken;) {
        make_bid(bid, out->created, false);
        st = bid_taken(s, bid, &taken, d);
    }
    out->bid = xstrdup(bid);
    buf fname = BUF_INIT;
    buf_printf(&fname, "%s.db", bid);
    out->file = buf_steal(&fname);
    final = bk_path(s, out->file);
    if (st == ST_OK)
        st = insert_row(s, out, d);
    if (st == ST_OK) {
        if (rename(tmp.data, final) != 0)
            st = diag_set(d, ST_IO, "%s: %s", final, strerror(errno));
        else
            renamed = true;
    }
    if (st == ST_OK)
        st = sync_path(dir, O_RDONLY | O_DIRECTORY, d);
    st = store_txn_end(s, st, d);
out:
    if (st != ST_OK) {
        unlink(renamed ? final : tmp.data);
        store_bk_row_done(out);
    }
    free(final);
    buf_done(&tmp);
    snap_done(&sn);
    return st;
}

/* ---- deleting ---- */

/* A backup's row deleted (in the caller's write transaction). */
static status delete_row(store *s, const store_bk_row *r, diag *d)
{
    if (r->type == STORE_BACKUP_SYSTEM) {
        /* Observed: "User is not allowed to delete the system backup with
         * arn ARN. It will automatically expire on TIME". */
        buf arn = BUF_INIT;
        store_bk_arn(&arn, r);
        char when[64];
        time_t sec = (time_t)(r->expires / 1000);
        struct tm tm;
        gmtime_r(&sec, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        status st = diag_set(d, ST_VALIDATION, "User is not allowed to delete the system backup with arn %s. It"
                             " will automatically expire on %s", arn.data, when);
        buf_done(&arn);
        return st;
    }
    return store_sql(s, "DELETE FROM backups WHERE id = ?1", &r->id, 1, d);
}

status store_bk_remove(store *s, const char *arn, store_bk_row *r, diag *d)
{
    memset(r, 0, sizeof *r);
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    if ((st = store_bk_find(s, arn, r, d)) == ST_OK)
        st = delete_row(s, r, d);
    /* The row first, the file once that is committed (a crash between
     * leaves a file no row names: tidied at the next open). */
    if ((st = store_txn_end(s, st, d)) == ST_OK)
        store_bk_unlink(s, r->file);
    return st;
}

/* ---- restoring ---- */

/* Point in time: the target's items as the source's were at at_ms. */
typedef struct undo_ctx {
    store *s;
    int64_t tid;
} undo_ctx;

static status undo_one(void *ctx, const store_key *k, const void *old, size_t old_len, diag *d)
{
    undo_ctx *u = ctx;
    sqlite3_stmt *q;
    const char *sql = old ? "INSERT OR REPLACE INTO items(tid, pk, sk, size, body) VALUES(?1, ?2, ?3, ?4, ?5)"
                          : "DELETE FROM items WHERE tid = ?1 AND pk = ?2 AND sk = ?3";
    if (sqlite3_prepare_v2(u->s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(u->s, d);
    sqlite3_bind_int64(q, 1, u->tid);
    sqlite3_bind_blob(q, 2, k->pk.data ? k->pk.data : "", (int)k->pk.len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 3, k->sk.data ? k->sk.data : "", (int)k->sk.len, SQLITE_STATIC);
    status st = ST_OK;
    if (old) {
        av item;
        if ((st = itemenc_decode(old, old_len, &item, d)) == ST_OK) {
            sqlite3_bind_int64(q, 4, (int64_t)store_item_size(&item));
            av_done(&item);
        }
        sqlite3_bind_blob(q, 5, old, (int)old_len, SQLITE_STATIC);
    }
    if (st == ST_OK)
        st = step_done(u->s, q, d);
    sqlite3_finalize(q);
    return st;
}

status store_restore_table(store *s, const store_restore_src *src, const cJSON *desc, diag *d)
{
    const char *target = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(desc, "TableName"));
    if (s->txn_depth > 0)
        return diag_set(d, ST_USAGE, "a restore cannot run inside a transaction");
    if (!store_history_has(s))
        return no_history(d);
    char *path = NULL;
    status st = ST_OK;
    if (src->file) {
        if (!bk_dir(s, false, d))
            return diag_set(d, ST_IO, "no backups folder");
        path = bk_path(s, src->file);
        if (access(path, R_OK) != 0)
            st = diag_set(d, ST_IO, "%s: %s", path, strerror(errno));
        if (st == ST_OK)
            st = attach(s, path, d);
        if (st != ST_OK) {
            free(path);
            return st;
        }
    }
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto detach;
    bool exists;
    char *text = cJSON_PrintUnformatted(desc);
    /* Observed order: recovery enabled, the time, then the target. */
    if (src->undo_tid && (st = store_pitr_window_check(s, src->undo_tid, src->undo_name, src->at_ms, d)) != ST_OK)
        goto out;
    if ((st = query_row(s, "SELECT 1 FROM tables WHERE name = ?1", 0, target, NULL, NULL, &exists, d)) != ST_OK)
        goto out;
    if (exists) {
        st = diag_set(d, ST_TABLE_EXISTS, "Table already exists: %s", target);
        goto out;
    }
    sqlite3_stmt *q = store_stmt(s, Q_TABLE_INSERT, d);
    if (!q) {
        st = d->code;
        goto out;
    }
    sqlite3_bind_text(q, 1, target, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, text, -1, SQLITE_STATIC);
    st = step_done(s, q, d);
    sqlite3_reset(q);
    if (st != ST_OK)
        goto out;
    int64_t args[2] = { sqlite3_last_insert_rowid(s->db), src->tid };
    store_forget_tables(s);
    if ((st = store_history_created(s, args[0], d)) != ST_OK)
        goto out;
    st = store_sql(s, src->file ? "INSERT INTO main.items SELECT ?1, pk, sk, size, body FROM bk.items"
                                       " WHERE tid = ?2 ORDER BY pk, sk"
                                     : "INSERT INTO main.items SELECT ?1, pk, sk, size, body FROM main.items"
                                       " WHERE tid = ?2 ORDER BY pk, sk", args, 2, d);
    tinfo *t;
    if (st == ST_OK)
        st = store_table(s, target, &t, d);
    if (st == ST_OK && src->undo_tid) {
        undo_ctx u = { s, args[0] };
        st = store_undo_walk(s->db, s, &t->def, src->undo_tid, src->at_ms, undo_one, &u, d);
    }
    if (st == ST_OK)
        st = store_rebuild(s, t, -1, d);
out:
    cJSON_free(text);
    st = store_txn_end(s, st, d);
detach:
    if (src->file)
        detach(s);
    free(path);
    return st;
}

/* ---- DeleteTable and expiry ---- */

status store_backup_table_deleted(store *s, const tinfo *t, bool *keep_items, diag *d)
{
    *keep_items = false;
    if (!store_history_has(s))
        return ST_OK;
    status st = ST_OK;
    if (t->pitr) {
        /* "When you delete a table that has point-in-time recovery
         * enabled, DynamoDB automatically creates a backup snapshot called
         * a system backup and retains it for 35 days" (developer guide,
         * "Delete a table with PITR enabled"). */
        int64_t nums[2] = { 0, 0 };
        bool found;
        store_bk_row r = { 0 };
        buf name = BUF_INIT;
        buf_printf(&name, "%s$DeletedTableBackup", t->name);
        r.name = name.data;
        r.tname = t->name;
        r.tid = t->id;
        r.type = STORE_BACKUP_SYSTEM;
        r.desc = t->desc;
        st = query_row(s, "SELECT items, bytes FROM stats WHERE tid = ?1 AND xid = 0", t->id, NULL, NULL, nums,
                       &found, d);
        r.items = (uint64_t)nums[0];
        r.bytes = (uint64_t)nums[1];
        if (st == ST_OK)
            st = query_row(s, "SELECT attr FROM ttl WHERE tid = ?1", t->id, NULL, &r.ttl, NULL, NULL, d);
        char bid[32];
        r.created = store_now_ms(s);
        for (bool taken = true; st == ST_OK && taken; r.created++) {
            make_bid(bid, r.created, true);
            st = bid_taken(s, bid, &taken, d);
        }
        r.created--;
        r.bid = bid;
        r.expires = r.created + SYSTEM_KEEP_DAYS * DAY_MS;
        if (st == ST_OK)
            st = insert_row(s, &r, d);
        free(r.ttl);
        buf_done(&name);
        *keep_items = st == ST_OK;
    }
    if (st == ST_OK)
        st = store_sql(s, "DELETE FROM history WHERE tid = ?1", &t->id, 1, d);
    return st;
}

status store_backup_expire(store *s, int budget, diag *d)
{
    if (!store_history_has(s))
        return ST_OK;
    int64_t now = store_now_ms(s), nums[2];
    bool found;
    status st = query_row(s, "SELECT id, tid FROM backups WHERE expires IS NOT NULL AND expires <= ?1 ORDER BY"
                          " expires LIMIT 1", now, NULL, NULL, nums, &found, d);
    if (st != ST_OK || !found)
        return st;
    int64_t args[2] = { nums[1], budget };
    /* A SYSTEM backup's items are the deleted table's own rows (file NULL). */
    st = store_sql(s, "DELETE FROM items WHERE tid = ?1 AND (pk, sk) IN (SELECT pk, sk FROM items"
                        " WHERE tid = ?1 LIMIT ?2)", args, 2, d);
    if (st == ST_OK && sqlite3_changes(s->db) < budget)
        st = store_sql(s, "DELETE FROM backups WHERE id = ?1", &nums[0], 1, d);
    return st;
}

/* ---- pruning the automatic ones ---- */

char *store_backup_auto_name(store *s, const char *table)
{
    char prefix[256];
    snprintf(prefix, sizeof prefix, "%.240s-auto-", table);
    size_t pl = strlen(prefix);
    store_backup_filter f = { .table = table, .user = true, .automatic_only = true };
    store_backup *b = NULL;
    size_t n = 0;
    bool more = false;
    diag d;
    diag_init(&d);
    unsigned long top = 0;
    if (store_backup_list(s, &f, &b, &n, &more, &d) == ST_OK) {
        for (size_t i = 0; i < n; i++) {
            if (strncmp(b[i].name, prefix, pl) != 0)
                continue;
            char *end = NULL;
            unsigned long k = strtoul(b[i].name + pl, &end, 10);
            if (end && !*end && k > top)
                top = k;
        }
        store_backups_free(b, n);
    }
    buf out = BUF_INIT;
    buf_printf(&out, "%s%lu", prefix, top + 1);
    return buf_steal(&out);
}

status store_backup_prune(store *s, const char *table, size_t keep, double max_age_s, size_t *deleted,
                          diag *d)
{
    if (deleted)
        *deleted = 0;
    if (s->remote)
        return diag_set(d, ST_USAGE, "automatic backups are the local store's");
    if (!store_history_has(s))
        return ST_OK;
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    int64_t cutoff = max_age_s > 0 ? store_now_ms(s) - (int64_t)(max_age_s * 1000) : INT64_MIN;
    sqlite3_stmt *q;
    char **files = NULL;
    size_t n_files = 0, cap = 0;
    /* Newest first within each table: the row number says how many newer
     * ones the table keeps. */
    if (sqlite3_prepare_v2(s->db, "SELECT id, file, created, row_number() OVER (PARTITION BY tname ORDER BY"
                           " created DESC, bid DESC) FROM backups WHERE auto = 1 AND (?1 IS NULL OR"
                           " tname = ?1)", -1, &q, NULL) != SQLITE_OK) {
        st = store_sqlerr(s, d);
        goto out;
    }
    if (table)
        sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    int64_t *ids = NULL;
    size_t n_ids = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        bool old = sqlite3_column_int64(q, 2) < cutoff;
        bool over = keep > 0 && (size_t)sqlite3_column_int64(q, 3) > keep;
        if (!old && !over)
            continue;
        if (n_ids == cap) {
            cap = cap ? cap * 2 : 16;
            ids = xrealloc(ids, cap * sizeof *ids);
            files = xrealloc(files, cap * sizeof *files);
        }
        ids[n_ids] = sqlite3_column_int64(q, 0);
        files[n_ids++] = col_text(q, 1);
    }
    if (rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    n_files = n_ids;
    for (size_t i = 0; st == ST_OK && i < n_ids; i++)
        st = store_sql(s, "DELETE FROM backups WHERE id = ?1", &ids[i], 1, d);
    free(ids);
out:
    st = store_txn_end(s, st, d);
    for (size_t i = 0; i < n_files; i++) {
        if (st == ST_OK)
            store_bk_unlink(s, files[i]);
        free(files[i]);
    }
    free(files);
    if (st == ST_OK && deleted)
        *deleted = n_files;
    return st;
}
