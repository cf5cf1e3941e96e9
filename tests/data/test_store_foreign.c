/* store_open and store_check_file on a SQLite file that is not ddbx's:
 * DynamoDB Local's (its 3.3.1 tables, seen 2026-12-06: cf, dm, sm, ss, tr,
 * us; `ddbx serve -dbPath` shares its file names) and any other program's
 * are refused, naming whose the file is, and left byte for byte; ddbx's
 * own file, an empty one and a missing one are fine. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/store.h"

static char dir[] = "/tmp/ddbx-foreign-XXXXXX";

static void make_file(const char *path, const char *sql)
{
    sqlite3 *db = NULL;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

/* The file's bytes (malloc'd) and their count. */
static char *slurp(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    fseek(f, 0, SEEK_END);
    *n = ftell(f);
    rewind(f);
    char *b = malloc((size_t)*n);
    assert_int_equal(fread(b, 1, (size_t)*n, f), (size_t)*n);
    fclose(f);
    return b;
}

static void refused(const char *name, const char *sql, const char *says)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    make_file(path, sql);
    long n0, n1;
    char *before = slurp(path, &n0);
    diag d;
    diag_init(&d);
    assert_int_equal(store_check_file(path, &d), ST_IO);
    assert_non_null(strstr(d.msg, says));
    store *s = NULL;
    diag_init(&d);
    assert_int_equal(store_open(path, 0, &s, &d), ST_IO);
    assert_null(s);
    assert_non_null(strstr(d.msg, says));
    char *after = slurp(path, &n1);
    assert_int_equal(n0, n1);
    assert_memory_equal(before, after, (size_t)n0);
    free(before);
    free(after);
    char wal[300];
    snprintf(wal, sizeof wal, "%s-wal", path);
    assert_int_not_equal(access(wal, F_OK), 0);   /* not switched to WAL */
}

static void test_ddblocal(void **state)
{
    (void)state;
    refused("shared-local-instance.db",
            "CREATE TABLE cf(x); CREATE TABLE dm(x); CREATE TABLE sm(x); CREATE TABLE ss(x); "
            "CREATE TABLE tr(x); CREATE TABLE us(x);",
            "a DynamoDB Local database (its own SQLite tables), not ddbx's: left as it is");
}

static void test_other(void **state)
{
    (void)state;
    refused("other.db", "CREATE TABLE notes(x); INSERT INTO notes VALUES (1);",
            "a SQLite database of another program, not ddbx's: left as it is");
}

static void test_ours(void **state)
{
    (void)state;
    char path[256];
    snprintf(path, sizeof path, "%s/ours.db", dir);
    diag d;
    diag_init(&d);
    assert_int_equal(store_check_file(path, &d), ST_OK);   /* missing */
    store *s = NULL;
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    store_close(s);
    assert_int_equal(store_check_file(path, &d), ST_OK);   /* ddbx's */
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    store_close(s);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ddblocal),
        cmocka_unit_test(test_other),
        cmocka_unit_test(test_ours),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
