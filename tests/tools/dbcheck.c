/*
 * dbcheck — what a crash or a concurrent run left in a database.
 *
 *   dbcheck DB [TABLE]
 *
 * Opens DB with SQLite (read-write, so a hot WAL is recovered as any
 * later open would), runs PRAGMA integrity_check and prints
 * "integrity: ok" or each complaint (exit 1). Then opens it as ddbx does
 * (store_open) and, given TABLE, prints the key of every item, one line
 * each: "PK\tSK" (SK empty without a sort key; S keys as text, N in
 * canonical form, B as <n bytes>), by walking partitions and pages the way
 * the explorer does. Exit 2 on any other failure.
 *
 *   dbcheck DB TABLE --changes
 *
 * Also checks the change log against the items (store_int.h: every write
 * through the API appends a record in its own transaction): replaying
 * the table's records in order, the last record of each key must hold
 * the item exactly as stored (its new image byte for byte, or no item
 * after a REMOVE). Prints "changes: N records, M keys" and then
 * "mismatch: PK\tSK" for a key whose item and last record disagree (a
 * change without its record or a record without its change; exit 1) and
 * "unlogged: PK\tSK" for an item no record speaks of (the bulk
 * interface, ddbx load, writes none).
 *
 * Given TABLE, the index entries are checked against the items too
 * (store_index_check: bodies, sizes, totals); a problem is printed on
 * stderr, exit 1.
 *
 * Always, the backups (schema version 6, data/store_backup.c): after
 * store_open has tidied the folder, every catalogued backup's items are
 * there and as many and as large as the row says (a backup file whole,
 * passing its own integrity check, its meta agreeing; a SYSTEM backup's
 * rows under the deleted table's id, no table having that id), no file
 * in DB-backups/ is unaccounted for (a tmp file only of a live process),
 * every table has its history row, and no item row belongs to neither a
 * table nor a SYSTEM backup (a restore or a delete half done). Prints
 * "backup: PROBLEM" lines (exit 1), and "backups: N, files: M" when
 * there are any.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "data/store.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/num.h"

static void print_key(const av *v)
{
    if (!v || v->type == AV_NONE)
        return;
    if (v->type == AV_S) {
        fwrite(v->u.s.ptr, 1, v->u.s.len, stdout);
    } else if (v->type == AV_N) {
        char t[NUM_TEXT_MAX];
        num_format(&v->u.n, t);
        fputs(t, stdout);
    } else {
        printf("<%zu bytes>", v->u.s.len);
    }
}

static int integrity(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int bad = 2;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        fprintf(stderr, "dbcheck: %s: %s\n", path, db ? sqlite3_errmsg(db) : "cannot open");
        goto out;
    }
    sqlite3_busy_timeout(db, 10000);
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK) {
        fprintf(stderr, "dbcheck: %s: %s\n", path, sqlite3_errmsg(db));
        goto out;
    }
    bad = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *r = (const char *)sqlite3_column_text(q, 0);
        if (r && strcmp(r, "ok") == 0) {
            printf("integrity: ok\n");
        } else {
            printf("integrity: %s\n", r ? r : "(null)");
            bad = 1;
        }
    }
    if (rc != SQLITE_DONE) {
        fprintf(stderr, "dbcheck: %s: %s\n", path, sqlite3_errmsg(db));
        bad = 2;
    }
out:
    sqlite3_finalize(q);
    sqlite3_close(db);
    return bad;
}

static void print_enc_key(const table_def *def, const void *body, int len)
{
    av item = { AV_NONE, { { NULL, 0 } } };
    diag d;
    diag_init(&d);
    if (itemenc_decode(body, (size_t)len, &item, &d) != ST_OK) {
        printf("<undecodable>");
        return;
    }
    print_key(av_map_get(&item, def->pk.name, strlen(def->pk.name)));
    putchar('\t');
    if (def->sk.name)
        print_key(av_map_get(&item, def->sk.name, strlen(def->sk.name)));
    av_done(&item);
}

static int check_changes(const char *path, const char *table, const table_def *def)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL, *ins = NULL;
    int rc = 2;
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK)
        goto out;
    sqlite3_busy_timeout(db, 10000);
    /* A history-only record (ttl 2: a bulk write on a table with
     * point-in-time recovery) holds only the new item's key: such a key's
     * item cannot be compared, as an unlogged one. */
    if (sqlite3_exec(db, "CREATE TEMP TABLE latest(pk BLOB, sk BLOB, new BLOB, bulk INTEGER,"
                     " PRIMARY KEY(pk, sk))", NULL, NULL, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO latest VALUES(?1, ?2, ?3, ?4)", -1, &ins, NULL) ||
        sqlite3_prepare_v2(db, "SELECT c.old, c.new, c.ttl = 2 FROM changes c JOIN tables t ON t.id = c.tid"
                           " WHERE t.name = ?1 AND (c.old IS NOT NULL OR c.new IS NOT NULL)"
                           " ORDER BY c.seq", -1, &q, NULL) != SQLITE_OK)
        goto out;
    sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    long records = 0;
    buf pk = BUF_INIT, sk = BUF_INIT;
    while (sqlite3_step(q) == SQLITE_ROW) {
        int col = sqlite3_column_type(q, 1) != SQLITE_NULL ? 1 : 0;
        av item = { AV_NONE, { { NULL, 0 } } };
        diag d;
        diag_init(&d);
        if (itemenc_decode(sqlite3_column_blob(q, col), (size_t)sqlite3_column_bytes(q, col), &item,
                           &d) != ST_OK) {
            printf("mismatch: undecodable record\n");
            rc = 1;
            continue;
        }
        buf_reset(&pk);
        buf_reset(&sk);
        keyenc_append(&pk, av_map_get(&item, def->pk.name, strlen(def->pk.name)));
        if (def->sk.name)
            keyenc_append(&sk, av_map_get(&item, def->sk.name, strlen(def->sk.name)));
        av_done(&item);
        sqlite3_reset(ins);
        sqlite3_bind_blob(ins, 1, pk.data ? pk.data : "", (int)pk.len, SQLITE_TRANSIENT);
        sqlite3_bind_blob(ins, 2, sk.data ? sk.data : "", (int)sk.len, SQLITE_TRANSIENT);
        if (col == 1)
            sqlite3_bind_blob(ins, 3, sqlite3_column_blob(q, 1), sqlite3_column_bytes(q, 1), SQLITE_TRANSIENT);
        else
            sqlite3_bind_null(ins, 3);
        sqlite3_bind_int(ins, 4, sqlite3_column_int(q, 2));
        sqlite3_step(ins);
        records++;
    }
    buf_done(&pk);
    buf_done(&sk);
    sqlite3_finalize(q);
    q = NULL;
    long keys = 0;
    if (sqlite3_prepare_v2(db, "SELECT count(*) FROM latest", -1, &q, NULL) == SQLITE_OK &&
        sqlite3_step(q) == SQLITE_ROW)
        keys = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    printf("changes: %ld records, %ld keys\n", records, keys);
    if (rc == 2)
        rc = 0;
    /* Keys whose last record and item disagree, then items with no record. */
    static const char *const sql[] = {
        "SELECT coalesce(l.new, i.body) FROM latest l LEFT JOIN items i ON i.pk = l.pk AND i.sk = l.sk"
        " AND i.tid = (SELECT id FROM tables WHERE name = ?1)"
        " WHERE NOT l.bulk AND NOT ((l.new IS NULL AND i.body IS NULL) OR l.new = i.body)",
        "SELECT i.body FROM items i WHERE i.tid = (SELECT id FROM tables WHERE name = ?1)"
        " AND NOT EXISTS (SELECT 1 FROM latest l WHERE l.pk = i.pk AND l.sk = i.sk)",
    };
    for (int k = 0; k < 2; k++) {
        if (sqlite3_prepare_v2(db, sql[k], -1, &q, NULL) != SQLITE_OK) {
            rc = 2;
            goto out;
        }
        sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
        while (sqlite3_step(q) == SQLITE_ROW) {
            printf(k == 0 ? "mismatch: " : "unlogged: ");
            print_enc_key(def, sqlite3_column_blob(q, 0), sqlite3_column_bytes(q, 0));
            putchar('\n');
            if (k == 0)
                rc = 1;
        }
        sqlite3_finalize(q);
        q = NULL;
    }
out:
    if (rc == 2)
        fprintf(stderr, "dbcheck: changes: %s\n", db ? sqlite3_errmsg(db) : "cannot open");
    sqlite3_finalize(q);
    sqlite3_finalize(ins);
    sqlite3_close(db);
    return rc;
}

/* The first row of sql on db: two numbers (0 when no row). */
static bool two(sqlite3 *db, const char *sql, long long arg, long long out[2])
{
    sqlite3_stmt *q;
    out[0] = out[1] = 0;
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) != SQLITE_OK)
        return false;
    sqlite3_bind_int64(q, 1, arg);
    bool ok = sqlite3_step(q) == SQLITE_ROW;
    if (ok) {
        out[0] = sqlite3_column_int64(q, 0);
        out[1] = sqlite3_column_int64(q, 1);
    }
    sqlite3_finalize(q);
    return ok;
}

/* One backup file: whole, and holding what its row says. */
static int check_file(const char *dir, const char *file, long long items, long long bytes)
{
    size_t plen = strlen(dir) + strlen(file) + 2;
    char *p = malloc(plen);
    snprintf(p, plen, "%s/%s", dir, file);
    sqlite3 *db = NULL;
    int bad = 0;
    int orc = sqlite3_open_v2(p, &db, SQLITE_OPEN_READONLY, NULL);
    free(p);
    if (orc != SQLITE_OK) {
        printf("backup: %s: cannot open: %s\n", file, db ? sqlite3_errmsg(db) : "?");
        sqlite3_close(db);
        return 1;
    }
    long long got[2], meta[2];
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &q, NULL) != SQLITE_OK ||
        sqlite3_step(q) != SQLITE_ROW || strcmp((const char *)sqlite3_column_text(q, 0), "ok") != 0) {
        printf("backup: %s: integrity: %s\n", file, q ? (const char *)sqlite3_column_text(q, 0) : sqlite3_errmsg(db));
        bad = 1;
    }
    sqlite3_finalize(q);
    if (!bad && !two(db, "SELECT count(*), coalesce(sum(size), 0) FROM items WHERE ?1 = ?1", 0, got)) {
        printf("backup: %s: no items table: %s\n", file, sqlite3_errmsg(db));
        bad = 1;
    }
    if (!bad && (got[0] != items || got[1] != bytes)) {
        printf("backup: %s: %lld items of %lld bytes, its row says %lld of %lld\n", file, got[0], got[1], items, bytes);
        bad = 1;
    }
    if (!bad && (!two(db, "SELECT (SELECT value FROM meta WHERE key = 'items'), (SELECT value FROM meta WHERE"
                      " key = 'bytes') WHERE ?1 = ?1", 0, meta) || meta[0] != items || meta[1] != bytes)) {
        printf("backup: %s: its meta says %lld items of %lld bytes\n", file, meta[0], meta[1]);
        bad = 1;
    }
    sqlite3_close(db);
    return bad;
}

static bool tmp_of_live_process(const char *name)
{
    long pid;
    if (sscanf(name, "tmp-%ld-", &pid) != 1)
        return false;
    return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

static int check_backups(const char *path)
{
    sqlite3 *db = NULL;
    sqlite3_stmt *q = NULL;
    int bad = 0;
    long n = 0, files = 0;
    size_t dlen = strlen(path) + sizeof "-backups";
    char *dir = malloc(dlen);
    snprintf(dir, dlen, "%s-backups", path);
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        fprintf(stderr, "dbcheck: backups: %s\n", db ? sqlite3_errmsg(db) : "cannot open");
        sqlite3_close(db);
        free(dir);
        return 2;
    }
    sqlite3_busy_timeout(db, 10000);
    if (sqlite3_prepare_v2(db, "SELECT bid, type, tid, items, bytes, file FROM backups", -1, &q, NULL) != SQLITE_OK) {
        /* a file before version 6: nothing to check */
        sqlite3_close(db);
        free(dir);
        return 0;
    }
    while (sqlite3_step(q) == SQLITE_ROW) {
        n++;
        const char *bid = (const char *)sqlite3_column_text(q, 0);
        int type = sqlite3_column_int(q, 1);
        long long tid = sqlite3_column_int64(q, 2), items = sqlite3_column_int64(q, 3);
        long long bytes = sqlite3_column_int64(q, 4);
        const char *file = (const char *)sqlite3_column_text(q, 5);
        if (file) {
            files++;
            bad |= check_file(dir, file, items, bytes);
            continue;
        }
        long long got[2], live[2];
        two(db, "SELECT count(*), coalesce(sum(size), 0) FROM items WHERE tid = ?1", tid, got);
        two(db, "SELECT count(*), 0 FROM tables WHERE id = ?1", tid, live);
        if (type != 1 || live[0] || got[0] != items || got[1] != bytes) {
            printf("backup: %s: type %d, table %lld %s, %lld rows of %lld bytes, its row says %lld of %lld\n", bid,
                   type, tid, live[0] ? "exists" : "deleted", got[0], got[1], items, bytes);
            bad = 1;
        }
    }
    sqlite3_finalize(q);
    /* Every file accounted for. */
    DIR *dh = opendir(dir);
    struct dirent *e;
    while (dh && (e = readdir(dh))) {
        if (e->d_name[0] == '.' || tmp_of_live_process(e->d_name))
            continue;
        long long named[2];
        sqlite3_prepare_v2(db, "SELECT count(*), 0 FROM backups WHERE file = ?1", -1, &q, NULL);
        sqlite3_bind_text(q, 1, e->d_name, -1, SQLITE_STATIC);
        named[0] = sqlite3_step(q) == SQLITE_ROW ? sqlite3_column_int64(q, 0) : 0;
        sqlite3_finalize(q);
        if (!named[0]) {
            printf("backup: %s: a file no backup names\n", e->d_name);
            bad = 1;
        }
    }
    if (dh)
        closedir(dh);
    long long h[2], stray[2];
    two(db, "SELECT count(*), 0 FROM tables t WHERE ?1 = ?1 AND NOT EXISTS (SELECT 1 FROM history h"
            " WHERE h.tid = t.id)", 0, h);
    if (h[0]) {
        printf("backup: %lld tables without history\n", h[0]);
        bad = 1;
    }
    two(db, "SELECT count(*), 0 FROM items i WHERE ?1 = ?1 AND NOT EXISTS (SELECT 1 FROM tables t WHERE"
            " t.id = i.tid) AND NOT EXISTS (SELECT 1 FROM backups b WHERE b.file IS NULL AND b.tid = i.tid)", 0, stray);
    if (stray[0]) {
        printf("backup: %lld item rows of no table and no backup\n", stray[0]);
        bad = 1;
    }
    sqlite3_close(db);
    free(dir);
    if (n)
        printf("backups: %ld, files: %ld\n", n, files);
    return bad;
}

static int list_keys(const char *path, const char *table, bool changes)
{
    store *s = NULL;
    diag d;
    diag_init(&d);
    int rc = 2;
    table_def def;
    bool have_def = false;
    if (store_open(path, 0, &s, &d) != ST_OK) {
        fprintf(stderr, "dbcheck: store_open: %s\n", d.msg);
        return 2;
    }
    /* After store_open tidied the backups folder. */
    if ((rc = check_backups(path)) != 0)
        goto out;
    rc = 2;
    if (!table) {
        rc = 0;
        goto out;
    }
    if (store_describe(s, table, &def, &d) != ST_OK) {
        /* an absent table holds no items: a killed first load may not
         * have created it */
        rc = d.code == ST_NOT_FOUND ? 0 : 2;
        if (rc)
            fprintf(stderr, "dbcheck: %s: %s\n", table, d.msg);
        goto out;
    }
    have_def = true;
    enum { PARTS = 64, ITEMS = 256 };
    part_info parts[PARTS];
    av items[ITEMS];
    av after_pk = { AV_NONE, { { NULL, 0 } } };
    for (;;) {
        size_t np = 0;
        if (store_partitions(s, table, NULL, after_pk.type ? &after_pk : NULL, false, PARTS,
                             parts, &np, &d) != ST_OK) {
            fprintf(stderr, "dbcheck: partitions: %s\n", d.msg);
            av_done(&after_pk);
            goto out;
        }
        for (size_t i = 0; i < np; i++) {
            av after = { AV_NONE, { { NULL, 0 } } };
            for (;;) {
                size_t ni = 0;
                if (store_page(s, table, NULL, &parts[i].pk, after.type ? &after : NULL, true,
                               ITEMS, items, &ni, &d) != ST_OK) {
                    fprintf(stderr, "dbcheck: page: %s\n", d.msg);
                    exit(2);
                }
                for (size_t k = 0; k < ni; k++) {
                    print_key(av_map_get(&items[k], def.pk.name, strlen(def.pk.name)));
                    putchar('\t');
                    if (def.sk.name)
                        print_key(av_map_get(&items[k], def.sk.name, strlen(def.sk.name)));
                    putchar('\n');
                }
                av_done(&after);
                if (ni > 0)
                    av_move(&after, &items[ni - 1]);
                for (size_t k = 0; k + 1 < ni; k++)
                    av_done(&items[k]);
                if (ni < ITEMS)
                    break;
            }
            av_done(&after);
        }
        av_done(&after_pk);
        if (np > 0)
            av_copy(&after_pk, &parts[np - 1].pk);
        for (size_t i = 0; i < np; i++)
            av_done(&parts[i].pk);
        if (np < PARTS)
            break;
    }
    av_done(&after_pk);
    /* The index entries agree with the items (bodies, sizes, totals): a
     * write keeps both or neither. */
    char *problems = NULL;
    if (store_index_check(s, table, &problems, &d) != ST_OK) {
        fprintf(stderr, "dbcheck: indexes: %s\n", d.msg);
        goto out;
    }
    if (problems) {
        fprintf(stderr, "dbcheck: indexes:\n%s", problems);
        free(problems);
        rc = 1;
        goto out;
    }
    rc = changes ? check_changes(path, table, &def) : 0;
out:
    if (have_def)
        table_def_free(&def);
    store_close(s);
    return rc;
}

int main(int argc, char **argv)
{
    bool changes = argc == 4 && strcmp(argv[3], "--changes") == 0;
    if (argc < 2 || argc > 4 || (argc == 4 && !changes)) {
        fprintf(stderr, "usage: dbcheck DB [TABLE [--changes]]\n");
        return 2;
    }
    int rc = integrity(argv[1]);
    if (rc)
        return rc;
    return list_keys(argv[1], argc >= 3 ? argv[2] : NULL, changes);
}
