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
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "data/store.h"
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

static int list_keys(const char *path, const char *table)
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
            av_free(&after_pk);
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
                av_free(&after);
                if (ni > 0)
                    av_move(&after, &items[ni - 1]);
                for (size_t k = 0; k + 1 < ni; k++)
                    av_free(&items[k]);
                if (ni < ITEMS)
                    break;
            }
            av_free(&after);
        }
        av_free(&after_pk);
        if (np > 0)
            av_copy(&after_pk, &parts[np - 1].pk);
        for (size_t i = 0; i < np; i++)
            av_free(&parts[i].pk);
        if (np < PARTS)
            break;
    }
    av_free(&after_pk);
    rc = 0;
out:
    if (have_def)
        table_def_free(&def);
    store_close(s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 3) {
        fprintf(stderr, "usage: dbcheck DB [TABLE]\n");
        return 2;
    }
    int rc = integrity(argv[1]);
    if (rc)
        return rc;
    return list_keys(argv[1], argc == 3 ? argv[2] : NULL);
}
