/*
 * test_backup_typed — the typed calls of data/store_backup.h that the
 * explorer and `ddbx diff` use: backups with a kind (automatic ones told
 * apart and pruned by count and age), restore with a choice of indexes,
 * the same calls over a remote endpoint; the two key-ordered readers
 * (a backup's items, a table's items at a moment), paged from a keyset
 * cursor, from one snapshot while others write; an in-memory database's
 * backups; the backups folder tidied after a crash.
 *
 * [DDBX] throughout: these are ddbx's own interfaces (README, "Backups and
 * point-in-time recovery"); where they answer what DynamoDB answers, the
 * JSON tests (test_backup.c, test_pitr.c) pin DynamoDB's behaviour.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "data/store.h"
#include "data/store_backup.h"
#include "model/ddbjson.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"
#include "tests/data/backuptest.h"

#define TABLE_TAB \
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"sk\",\"AttributeType\":\"N\"},{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"l\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}]," \
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}]," \
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"LSI1\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}," \
    "{\"AttributeName\":\"l\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}"

static diag dg;

/* n items over a few partitions; sort keys are numbers, so their order is
 * numeric (2 < 10), as the store's key encoding keeps it. */
static void fill(store *s, int n)
{
    diag_init(&dg);
    assert_int_equal(store_begin(s, &dg), ST_OK);
    for (int i = 0; i < n; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"},\"g\":{\"S\":\"g%d\"},"
                 "\"l\":{\"S\":\"l%03d\"},\"v\":{\"S\":\"\\u00e9%d\"}}", i % 7, i, i % 5, i, i);
        av item;
        assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &dg), ST_OK);
        assert_int_equal(store_put_item(s, "Tab", &item, &dg), ST_OK);
        av_done(&item);
    }
    assert_int_equal(store_commit(s, &dg), ST_OK);
}

/* Every item of Tab in key order, as Scan gives it (all pages). */
static char *scan_all(store *s, const char *table)
{
    buf b = BUF_INIT;
    buf_addc(&b, '[');
    ddb_req q;
    ddb_req_init(&q, DDB_SCAN);
    ddb_req_set_str(&q.table, table);
    size_t total = 0;
    for (;;) {
        ddb_res res;
        ddb_err e;
        ddb_res_init(&res);
        ddb_err_init(&e);
        assert_int_equal(store_exec(s, &q, &res, &e), ST_OK);
        for (size_t i = 0; i < res.n_items; i++) {
            buf_adds(&b, total++ ? "," : "");
            ddbjson_write_item(&b, &res.items[i]);
        }
        bool more = res.last_key.type == AV_M;
        av_done(&q.start);
        if (more)
            av_copy(&q.start, &res.last_key);
        ddb_res_done(&res);
        ddb_err_done(&e);
        if (!more)
            break;
    }
    ddb_req_done(&q);
    buf_addc(&b, ']');
    char *t = normal(b.data);
    buf_done(&b);
    return t;
}

static av key_of(int pk, int sk)
{
    char text[96];
    snprintf(text, sizeof text, "{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"}}", pk, sk);
    av k;
    assert_int_equal(ddbjson_parse_item(text, strlen(text), &k, &dg), ST_OK);
    return k;
}

/* The kind of a backup: an automatic one is a USER backup to DynamoDB's
 * API, told apart here; describe and list give the table's definition;
 * a restore keeps the indexes asked for. */
static void test_typed(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_TAB);
    fill(s, 40);
    store_backup b;
    assert_int_equal(store_backup_create(s, "Tab", "auto-before-delete", STORE_BACKUP_AUTO, &b, &dg), ST_OK);
    assert_true(b.automatic);
    assert_int_equal(b.type, STORE_BACKUP_USER);
    assert_int_equal(b.items, 40);
    assert_string_equal(b.table, "Tab");
    assert_string_equal(b.def.pk.name, "pk");
    assert_int_equal(b.def.sk.type, AV_N);
    assert_int_equal(b.def.n_idx, 2);
    assert_false(b.provisioned);
    assert_null(b.stream_view);
    char *auto_arn = strdup(b.arn);
    store_backup_done(&b);
    assert_int_equal(store_backup_create(s, "Tab", "by-hand", 0, &b, &dg), ST_OK);
    char *user_arn = strdup(b.arn);
    store_backup_done(&b);
    assert_int_equal(store_backup_create(s, "Tab", "x!", 0, &b, &dg), ST_VALIDATION);
    assert_int_equal(store_backup_create(s, "Nope", "bkp", 0, &b, &dg), ST_TABLE_NOT_FOUND);

    store_backup *list;
    size_t n;
    bool more;
    store_backup_filter f = { .table = "Tab" };
    assert_int_equal(store_backup_list(s, &f, &list, &n, &more, &dg), ST_OK);
    assert_int_equal(n, 2);
    assert_false(more);
    store_backups_free(list, n);
    f.automatic_only = true;
    assert_int_equal(store_backup_list(s, &f, &list, &n, &more, &dg), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(list[0].arn, auto_arn);
    assert_string_equal(list[0].name, "auto-before-delete");
    store_backups_free(list, n);

    assert_int_equal(store_backup_describe(s, user_arn, &b, &dg), ST_OK);
    assert_false(b.automatic);
    table_stats ts;
    assert_int_equal(store_stats(s, "Tab", NULL, &ts, &dg), ST_OK);
    assert_int_equal(b.bytes, ts.bytes);   /* BackupSizeBytes: the items' DynamoDB size */
    assert_int_equal(b.items, ts.items);
    assert_true(b.created_ms > 0 && b.table_created_ms > 0 && b.table_created_ms <= b.created_ms);
    assert_non_null(b.table_id);
    store_backup_done(&b);

    /* only the GSI kept */
    const char *keep[] = { "GSI1" };
    store_restore_opts opts = { keep, 1 };
    assert_int_equal(store_backup_restore(s, auto_arn, "OnlyGsi", &opts, &dg), ST_OK);
    table_def def;
    assert_int_equal(store_describe(s, "OnlyGsi", &def, &dg), ST_OK);
    assert_int_equal(def.n_idx, 1);
    assert_string_equal(def.idx[0].name, "GSI1");
    table_def_free(&def);
    char *a = scan_all(s, "Tab"), *c = scan_all(s, "OnlyGsi");
    assert_string_equal(a, c);
    free(c);
    assert_int_equal(store_backup_restore(s, auto_arn, "All", NULL, &dg), ST_OK);
    assert_int_equal(store_describe(s, "All", &def, &dg), ST_OK);
    assert_int_equal(def.n_idx, 2);
    table_def_free(&def);
    assert_int_equal(store_backup_restore(s, auto_arn, "All", NULL, &dg), ST_TABLE_EXISTS);
    assert_int_equal(store_backup_delete(s, user_arn, &dg), ST_OK);
    assert_int_equal(store_backup_describe(s, user_arn, &b, &dg), ST_BACKUP_NOT_FOUND);
    /* the JSON operation agrees */
    char body[256], msg[256];
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", user_arn);
    snprintf(msg, sizeof msg, "Backup not found: %s", user_arn);
    refused(s, "DescribeBackup", body, ST_BACKUP_NOT_FOUND, msg);
    free(a);
    free(auto_arn);
    free(user_arn);
}

static int count_backups(store *s, bool automatic)
{
    store_backup *list;
    size_t n;
    bool more;
    store_backup_filter f = { .automatic_only = automatic };
    assert_int_equal(store_backup_list(s, &f, &list, &n, &more, &dg), ST_OK);
    store_backups_free(list, n);
    return (int)n;
}

/* Automatic backups are pruned by count (the newest kept) and by age;
 * other backups never. */
static void test_prune(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_TAB);
    fill(s, 5);
    char *arns[4];
    for (int i = 0; i < 4; i++) {
        store_backup b;
        char name[16];
        snprintf(name, sizeof name, "auto-%d", i);
        pause_ms(2);
        assert_int_equal(store_backup_create(s, "Tab", name, STORE_BACKUP_AUTO, &b, &dg), ST_OK);
        arns[i] = strdup(b.arn);
        store_backup_done(&b);
    }
    assert_int_equal(store_backup_create(s, "Tab", "mine", 0, NULL, &dg), ST_OK);
    size_t gone;
    assert_int_equal(store_backup_prune(s, "Tab", 2, 0, &gone, &dg), ST_OK);
    assert_int_equal(gone, 2);
    assert_int_equal(count_backups(s, true), 2);
    assert_int_equal(count_backups(s, false), 3);
    store_backup b;
    assert_int_equal(store_backup_describe(s, arns[0], &b, &dg), ST_BACKUP_NOT_FOUND);
    assert_int_equal(store_backup_describe(s, arns[3], &b, &dg), ST_OK);
    store_backup_done(&b);
    /* by age: the two left are older than 1 ms after a pause */
    pause_ms(5);
    assert_int_equal(store_backup_prune(s, NULL, 0, 0.001, &gone, &dg), ST_OK);
    assert_int_equal(gone, 2);
    assert_int_equal(count_backups(s, false), 1);
    /* the files went with them: one left in the folder */
    char folder[160];
    snprintf(folder, sizeof folder, "%s-backups", path);
    DIR *dh = opendir(folder);
    int files = 0;
    struct dirent *e;
    while (dh && (e = readdir(dh)))
        files += e->d_name[0] != '.';
    closedir(dh);
    assert_int_equal(files, 1);
    for (int i = 0; i < 4; i++)
        free(arns[i]);
}

/* A backup's items in key order from any cursor; the same from a SYSTEM
 * backup (the deleted table's rows). */
static void test_backup_reader(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_TAB);
    fill(s, 300);
    char *want = scan_all(s, "Tab");
    store_backup b;
    assert_int_equal(store_backup_create(s, "Tab", "reader", 0, &b, &dg), ST_OK);
    ok(s, "DeleteItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"p0\"},\"sk\":{\"N\":\"0\"}}}");
    for (size_t page = 1; page <= 16; page += 5) {
        store_items *r;
        assert_int_equal(store_items_backup(s, b.arn, NULL, &r, &dg), ST_OK);
        assert_string_equal(store_items_def(r)->pk.name, "pk");
        char *got = drain(r, page);
        assert_string_equal(got, want);
        free(got);
        store_items_free(r);
    }
    /* from a cursor: everything after p3/10 (sk numeric: 10 < 101) */
    av k = key_of(3, 10);
    store_items *r;
    assert_int_equal(store_items_backup(s, b.arn, &k, &r, &dg), ST_OK);
    av first[1];
    size_t n;
    assert_int_equal(store_items_next(r, 1, first, &n, &dg), ST_OK);
    assert_int_equal(n, 1);
    buf t = BUF_INIT;
    ddbjson_write_item(&t, &first[0]);
    assert_non_null(strstr(t.data, "\"pk\":{\"S\":\"p3\"}"));
    assert_non_null(strstr(t.data, "\"sk\":{\"N\":\"17\"}"));
    buf_done(&t);
    av_done(&first[0]);
    store_items_free(r);
    av_done(&k);
    assert_int_equal(store_items_backup(s, "arn:aws:dynamodb:us-east-1:000000000000:table/Tab/backup/"
                                           "01000000000000-00000000", NULL, &r, &dg), ST_BACKUP_NOT_FOUND);
    store_backup_done(&b);
    /* a SYSTEM backup */
    char *now = scan_all(s, "Tab");
    assert_int_equal(store_pitr_set(s, "Tab", true, 0, &dg), ST_OK);
    assert_int_equal(store_delete_table(s, "Tab", &dg), ST_OK);
    store_backup *list;
    bool more;
    store_backup_filter f = { .system = true };
    assert_int_equal(store_backup_list(s, &f, &list, &n, &more, &dg), ST_OK);
    assert_int_equal(n, 1);
    assert_int_equal(list[0].type, STORE_BACKUP_SYSTEM);
    assert_int_equal(store_items_backup(s, list[0].arn, NULL, &r, &dg), ST_OK);
    char *got = drain(r, 9);
    assert_string_equal(got, now);
    free(got);
    store_items_free(r);
    assert_int_equal(store_backup_delete(s, list[0].arn, &dg), ST_VALIDATION);
    store_backups_free(list, n);
    free(now);
    free(want);
}

/* A table at a moment, page by page from one snapshot: writes after the
 * reader opened do not show in its pages. */
static void test_moment_reader(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_TAB);
    assert_int_equal(store_pitr_set(s, "Tab", true, 0, &dg), ST_OK);
    for (int i = 0; i < 60; i++) {
        char body[200];
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"},"
                 "\"v\":{\"N\":\"%d\"}}}", i % 4, i, i);
        ok(s, "PutItem", body);
    }
    pause_ms(3);
    int64_t t = now_ms();
    pause_ms(3);
    char *then = scan_all(s, "Tab");
    /* after t: deletes, updates, new items, a key deleted then put again */
    for (int i = 0; i < 60; i += 3) {
        char body[200];
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"}}}",
                 i % 4, i);
        ok(s, "DeleteItem", body);
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"},"
                 "\"v\":{\"S\":\"later\"}}}", (i + 1) % 4, i + 1);
        ok(s, "PutItem", body);
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"q%d\"},\"sk\":{\"N\":\"%d\"}}}",
                 i, i);
        ok(s, "PutItem", body);
    }
    ok(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"p0\"},\"sk\":{\"N\":\"0\"},\"v\":{\"S\":\"back\"}}}");
    char *now = scan_all(s, "Tab");
    assert_string_not_equal(then, now);
    for (size_t page = 1; page <= 16; page += 3) {
        store_items *r;
        assert_int_equal(store_items_at(s, "Tab", t, NULL, &r, &dg), ST_OK);
        char *got = drain(r, page);
        assert_string_equal(got, then);
        free(got);
        store_items_free(r);
    }
    /* past now: the table as it is */
    store_items *r;
    assert_int_equal(store_items_at(s, "Tab", now_ms() + 3600000, NULL, &r, &dg), ST_OK);
    char *got = drain(r, 7);
    assert_string_equal(got, now);
    free(got);
    store_items_free(r);
    /* one snapshot: open, write, then read */
    assert_int_equal(store_items_at(s, "Tab", t, NULL, &r, &dg), ST_OK);
    av one[1];
    size_t n;
    assert_int_equal(store_items_next(r, 1, one, &n, &dg), ST_OK);
    assert_int_equal(n, 1);
    buf whole = BUF_INIT;
    buf_addc(&whole, '[');
    ddbjson_write_item(&whole, &one[0]);
    av_done(&one[0]);
    for (int i = 0; i < 60; i++) {
        char body[200];
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"p%d\"},\"sk\":{\"N\":\"%d\"}}}",
                 i % 4, i);
        ok(s, "DeleteItem", body);
    }
    got = drain(r, 5);
    /* the first item and the rest: the table as it was, whole */
    buf_addc(&whole, ',');
    buf_adds(&whole, got + 1);
    assert_string_equal(whole.data, then);
    buf_done(&whole);
    free(got);
    store_items_free(r);
    /* a moment before the table existed, or a table that does not */
    assert_int_equal(store_items_at(s, "Tab", 1000, NULL, &r, &dg), ST_INVALID_RESTORE_TIME);
    assert_int_equal(store_items_at(s, "Nope", t, NULL, &r, &dg), ST_TABLE_NOT_FOUND);
    free(then);
    free(now);
}

/* The readers of an in-memory database read through its own connection;
 * its backups live in a temporary folder, gone when it closes. */
static void test_in_memory(void **state)
{
    (void)state;
    char tmpdir[64];
    strcpy(tmpdir, "/tmp/ddbx-memtest-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
    setenv("TMPDIR", tmpdir, 1);
    store *s;
    assert_int_equal(store_open(":memory:", 0, &s, &dg), ST_OK);
    ok(s, "CreateTable", TABLE_TAB);
    fill(s, 20);
    assert_int_equal(store_pitr_set(s, "Tab", true, 0, &dg), ST_OK);
    char *want = scan_all(s, "Tab");
    store_backup b;
    assert_int_equal(store_backup_create(s, "Tab", "mem", 0, &b, &dg), ST_OK);
    pause_ms(3);
    int64_t t = now_ms();
    pause_ms(3);
    ok(s, "DeleteItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"p1\"},\"sk\":{\"N\":\"1\"}}}");
    store_items *r;
    assert_int_equal(store_items_backup(s, b.arn, NULL, &r, &dg), ST_OK);
    char *got = drain(r, 6);
    assert_string_equal(got, want);
    free(got);
    store_items_free(r);
    /* two readers at once on the one connection, each its own moment */
    store_items *r2;
    assert_int_equal(store_items_at(s, "Tab", t, NULL, &r, &dg), ST_OK);
    assert_int_equal(store_items_at(s, "Tab", now_ms() + 1000, NULL, &r2, &dg), ST_OK);
    char *now = scan_all(s, "Tab");
    got = drain(r, 6);
    char *got2 = drain(r2, 5);
    assert_string_equal(got, want);
    assert_string_equal(got2, now);
    free(got);
    free(got2);
    free(now);
    store_items_free(r);
    store_items_free(r2);
    assert_int_equal(store_backup_restore(s, b.arn, "Copy", NULL, &dg), ST_OK);
    got = scan_all(s, "Copy");
    assert_string_equal(got, want);
    free(got);
    store_backup_done(&b);
    store_close(s);
    unsetenv("TMPDIR");
    DIR *dh = opendir(tmpdir);
    int left = 0;
    struct dirent *e;
    while ((e = readdir(dh)))
        left += e->d_name[0] != '.';
    closedir(dh);
    assert_int_equal(left, 0);
    rmdir(tmpdir);
    free(want);
}

static void touch(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s-backups/%s", path, name);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs("partial", f);
    fclose(f);
}

static bool present(const char *name)
{
    char p[256];
    snprintf(p, sizeof p, "%s-backups/%s", path, name);
    return access(p, F_OK) == 0;
}

/* A backup killed before its row was committed leaves a tmp file of a
 * process that is gone, or a named file no row names: the next writable
 * open removes both, and keeps what a live process is writing and every
 * backup the catalogue names. */
static void test_tidy(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE_TAB);
    fill(s, 10);
    store_backup b;
    assert_int_equal(store_backup_create(s, "Tab", "kept", 0, &b, &dg), ST_OK);
    pid_t child = fork();
    if (child == 0)
        _exit(0);
    waitpid(child, NULL, 0);
    char dead[96], alive[96];
    snprintf(dead, sizeof dead, "tmp-%ld-1-00000000.db", (long)child);
    snprintf(alive, sizeof alive, "tmp-%ld-0-00000000.db", (long)getpid());
    touch(dead);
    touch(alive);
    touch("01700000000000-0badf00d.db");
    touch("01700000000000-0badf00d.db-journal");
    store_close(s);
    assert_int_equal(store_open(path, 0, &s, &dg), ST_OK);
    *state = s;
    assert_false(present(dead));
    assert_true(present(alive));
    assert_false(present("01700000000000-0badf00d.db"));
    assert_false(present("01700000000000-0badf00d.db-journal"));
    assert_int_equal(store_backup_restore(s, b.arn, "Again", NULL, &dg), ST_OK);
    char *x = scan_all(s, "Tab"), *y = scan_all(s, "Again");
    assert_string_equal(x, y);
    free(x);
    free(y);
    store_backup_done(&b);
}

/* ---- over a remote endpoint: a second, local store behind store_call ---- */

typedef struct wire {
    store *local;
    char ops[1024];
    char last[2048];         /* the last request body sent */
    char gate[1024];         /* what the write gate was shown, a line each */
    bool decline;            /* the gate's answer: no */
} wire;

static status send_local(void *ctx, const char *op, const char *input, size_t len, char **out, diag *d)
{
    wire *w = ctx;
    size_t n = strlen(w->ops);
    snprintf(w->ops + n, sizeof w->ops - n, "%s%s", n ? " " : "", op);
    snprintf(w->last, sizeof w->last, "%.*s", (int)len, input);
    return store_call(w->local, op, input, len, out, d);
}

/* Tab with n items in local, and a remote store over it through w. */
static store *remote_over(store *local, int n, wire *w)
{
    ok(local, "CreateTable", TABLE_TAB);
    fill(local, n);
    *w = (wire){ .local = local };
    store *r;
    assert_int_equal(store_open_remote(send_local, w, "test (local)", STORE_REMOTE_WRITE, &r, &dg), ST_OK);
    return r;
}

static bool gate(void *ctx, const char *what)
{
    wire *w = ctx;
    size_t n = strlen(w->gate);
    snprintf(w->gate + n, sizeof w->gate - n, "%s\n", what);
    return !w->decline;
}

/* The same typed calls sent as DynamoDB requests; a remote backup has no
 * reader (DynamoDB has no API to read one). */
static void test_remote(void **state)
{
    store *local = *state;
    wire w;
    store *r = remote_over(local, 12, &w);
    store_backup b;
    assert_int_equal(store_backup_create(r, "Tab", "remote-one", 0, &b, &dg), ST_OK);
    assert_string_equal(w.ops, "CreateBackup");
    assert_string_equal(b.name, "remote-one");
    assert_string_equal(b.table, "Tab");
    char *arn = strdup(b.arn);
    store_backup_done(&b);
    store_backup *list;
    size_t n;
    bool more;
    store_backup_filter f = { .table = "Tab" };
    assert_int_equal(store_backup_list(r, &f, &list, &n, &more, &dg), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(list[0].arn, arn);
    store_backups_free(list, n);
    assert_int_equal(store_backup_describe(r, arn, &b, &dg), ST_OK);
    assert_int_equal(b.items, 12);
    assert_string_equal(b.def.pk.name, "pk");
    assert_int_equal(b.def.n_idx, 2);
    store_backup_done(&b);
    const char *keep[] = { "LSI1" };
    store_restore_opts opts = { keep, 1 };
    assert_int_equal(store_backup_restore(r, arn, "OnlyLsi", &opts, &dg), ST_OK);
    table_def def;
    assert_int_equal(store_describe(local, "OnlyLsi", &def, &dg), ST_OK);
    assert_int_equal(def.n_idx, 1);
    assert_string_equal(def.idx[0].name, "LSI1");
    table_def_free(&def);
    store_items *it;
    assert_int_equal(store_items_backup(r, arn, NULL, &it, &dg), ST_USAGE);
    assert_int_equal(store_items_at(r, "Tab", now_ms(), NULL, &it, &dg), ST_USAGE);
    assert_int_equal(store_backup_delete(r, arn, &dg), ST_OK);
    assert_int_equal(store_backup_describe(local, arn, &b, &dg), ST_BACKUP_NOT_FOUND);
    /* without the write flag nothing is sent */
    store_close(r);
    w.ops[0] = '\0';
    assert_int_equal(store_open_remote(send_local, &w, "test (local)", 0, &r, &dg), ST_OK);
    assert_int_equal(store_backup_create(r, "Tab", "refused", 0, &b, &dg), ST_READ_ONLY);
    assert_string_equal(w.ops, "");
    store_close(r);
    free(arn);
}

/* Over an endpoint the writes (CreateBackup, DeleteBackup,
 * RestoreTableFromBackup) ask the write gate first, each time, and a
 * declined one sends nothing; the reads (ListBackups, DescribeBackup) do
 * not ask. The bodies sent hold what the call said (ListBackups: the
 * filter's members, the page at most 100, the API reference's maximum). */
static void test_remote_gate(void **state)
{
    store *local = *state;
    wire w;
    store *r = remote_over(local, 3, &w);
    store_set_write_gate(r, gate, &w);
    store_backup b;
    assert_int_equal(store_backup_create(r, "Tab", "gated", 0, &b, &dg), ST_OK);
    assert_string_equal(w.gate, "CreateBackup on Tab (test (local))\n");
    assert_string_equal(w.last, "{\"TableName\":\"Tab\",\"BackupName\":\"gated\"}");
    char *arn = strdup(b.arn);
    store_backup_done(&b);
    store_backup *list;
    size_t n;
    bool more;
    store_backup_filter f = { .table = "Tab", .user = true, .system = true, .max = 500, .after_arn = arn };
    assert_int_equal(store_backup_list(r, &f, &list, &n, &more, &dg), ST_OK);
    assert_int_equal(n, 0);
    char body[512];
    snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"BackupType\":\"ALL\","
                                "\"ExclusiveStartBackupArn\":\"%s\",\"Limit\":100}", arn);
    assert_string_equal(w.last, body);
    store_backups_free(list, n);
    assert_int_equal(store_backup_describe(r, arn, &b, &dg), ST_OK);
    store_backup_done(&b);
    assert_string_equal(w.gate, "CreateBackup on Tab (test (local))\n");   /* the reads asked nothing */
    const char *keep[] = { "GSI1" };
    store_restore_opts opts = { keep, 1 };
    w.decline = true;
    w.ops[0] = '\0';
    assert_int_equal(store_backup_restore(r, arn, "Declined", &opts, &dg), ST_READ_ONLY);
    assert_string_equal(w.ops, "DescribeBackup");   /* the overrides' description, then nothing */
    assert_int_equal(store_backup_delete(r, arn, &dg), ST_READ_ONLY);
    assert_string_equal(w.ops, "DescribeBackup");
    w.decline = false;
    assert_int_equal(store_backup_restore(r, arn, "OnlyGsi", &opts, &dg), ST_OK);
    assert_string_equal(w.ops, "DescribeBackup DescribeBackup RestoreTableFromBackup");
    table_def def;
    assert_int_equal(store_describe(local, "OnlyGsi", &def, &dg), ST_OK);
    assert_int_equal(def.n_idx, 1);
    assert_string_equal(def.idx[0].name, "GSI1");
    table_def_free(&def);
    assert_int_equal(store_backup_delete(r, arn, &dg), ST_OK);
    snprintf(body, sizeof body, "{\"BackupArn\":\"%s\"}", arn);
    assert_string_equal(w.last, body);
    assert_string_equal(w.gate, "CreateBackup on Tab (test (local))\n"
                                "RestoreTableFromBackup (test (local))\n"
                                "DeleteBackup (test (local))\n"
                                "RestoreTableFromBackup (test (local))\n"
                                "DeleteBackup (test (local))\n");
    store_close(r);
    free(arn);
}

static const struct CMUnitTest tests[] = {
    cmocka_unit_test_setup_teardown(test_typed, setup, teardown),
    cmocka_unit_test_setup_teardown(test_prune, setup, teardown),
    cmocka_unit_test_setup_teardown(test_backup_reader, setup, teardown),
    cmocka_unit_test_setup_teardown(test_moment_reader, setup, teardown),
    cmocka_unit_test(test_in_memory),
    cmocka_unit_test_setup_teardown(test_tidy, setup, teardown),
    cmocka_unit_test_setup_teardown(test_remote, setup, teardown),
    cmocka_unit_test_setup_teardown(test_remote_gate, setup, teardown),
};

int main(void)
{
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
