/*
 * bench_backup — the figures of issue 30's cost targets: a backup of the
 * bench table and a restore of it, the two key-ordered readers, and what
 * point-in-time recovery costs a write.
 *
 *   bench_backup backup DB N       the Graph table of DB (N items, as
 *                                  `ddbx load` left it): CreateBackup (its
 *                                  time, its file against the database's
 *                                  size on disk), RestoreTableFromBackup;
 *                                  10,000 PutItem updates, then the moment
 *                                  reader before them and the backup
 *                                  reader, whole (items/s); the backup and
 *                                  the restored table are deleted after
 *   bench_backup read DB N         the backup reader alone over a fresh
 *                                  backup of Graph, for its peak RSS
 *                                  (constant whatever N)
 *   bench_backup pitr FILE DIR R   R rounds of: a fresh database with
 *                                  recovery off, then on (order alternating):
 *                                  the load of FILE (store_put_item in one
 *                                  transaction, as `ddbx load`), then 10,000
 *                                  PutItem of new items through store_call
 *
 * Prints {"fig":...,"value":...} lines (bench_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/store.h"
#include "data/store_backup.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "tests/bench/bench_util.h"
#include "tests/bench/graph.h"

#define TABLE "Graph"
#define UPDATES 10000
#define PUTS 10000

static void fail(const char *what, const diag *d)
{
    fprintf(stderr, "bench_backup: %s: %s\n", what, d->msg);
    exit(1);
}

static char *call(store *s, const char *op, const char *in)
{
    char *out = NULL;
    diag d = { 0 };
    if (store_call(s, op, in, strlen(in), &out, &d) != ST_OK)
        fail(op, &d);
    return out;
}

static double file_bytes(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (double)sb.st_size : 0;
}

/* The database's size on disk: the file and its WAL. */
static double db_bytes(const char *path)
{
    char p[4096];
    snprintf(p, sizeof p, "%s-wal", path);
    return file_bytes(path) + file_bytes(p);
}

static char *backup_file(const char *db, const char *arn)
{
    static char p[4096];
    snprintf(p, sizeof p, "%s-backups/%s.db", db, strrchr(arn, '/') + 1);
    return p;
}

/* A reader read to its end; the items it gave. */
static unsigned long drain(store_items *r)
{
    av items[512];
    size_t n;
    unsigned long total = 0;
    diag d = { 0 };
    do {
        if (store_items_next(r, 512, items, &n, &d) != ST_OK)
            fail("reader", &d);
        for (size_t i = 0; i < n; i++)
            av_done(&items[i]);
        total += n;
    } while (n == 512);
    return total;
}

static int cmd_backup(const char *path, unsigned long n)
{
    store *s;
    diag d = { 0 };
    if (store_open(path, STORE_LARGE_CACHE, &s, &d) != ST_OK)
        fail("open", &d);
    double size = db_bytes(path);
    double t0 = bench_now(), c0 = bench_cpu();
    store_backup b;
    if (store_backup_create(s, TABLE, "bench", 0, &b, &d) != ST_OK)
        fail("CreateBackup", &d);
    double secs = bench_now() - t0;
    bench_fig("B.backup_cpu_s", bench_cpu() - c0);
    if (b.items != n)
        fail("CreateBackup", &(diag){ .msg = "not every item" });
    double bytes = file_bytes(backup_file(path, b.arn));
    bench_fig("B.backup_s", secs);
    bench_fig("B.backup_mb_s", size / 1048576.0 / secs);
    bench_fig("B.table_mb", size / 1048576.0);
    bench_fig("B.backup_mb", bytes / 1048576.0);
    bench_fig("B.backup_ratio", bytes / size);

    t0 = bench_now();
    if (store_backup_restore(s, b.arn, "GraphRestored", NULL, &d) != ST_OK)
        fail("RestoreTableFromBackup", &d);
    secs = bench_now() - t0;
    bench_fig("B.restore_s", secs);
    bench_fig("B.restore_items_s", (double)n / secs);
    if (store_delete_table(s, "GraphRestored", &d) != ST_OK)
        fail("DeleteTable", &d);

    /* The moment reader: the table before 10,000 updates. */
    int64_t from, before;
    if (store_log_window(s, TABLE, &from, &before, &d) != ST_OK)
        fail("log window", &d);
    usleep(2000);
    uint32_t parts = (uint32_t)(n / GRAPH_PER_PART), t[GRAPH_PER_PART];
    graph_rng r = graph_rng_for(77, 3);
    buf in = BUF_INIT;
    for (int i = 0; i < UPDATES; i++) {
        uint32_t a = (uint32_t)(graph_next(&r) % parts);
        graph_targets(GRAPH_SEED, parts, a, t);
        buf_reset(&in);
        buf_printf(&in, "{\"TableName\":\"" TABLE "\",\"Key\":{\"PK\":{\"S\":\"ACTOR#u%u\"},\"SK\":{\"S\":"
                        "\"TARGET#u%u\"}},\"UpdateExpression\":\"SET score = :s\",\"ExpressionAttributeValues\":"
                        "{\":s\":{\"N\":\"%d\"}}}", a, t[graph_next(&r) % GRAPH_PER_PART], i);
        free(call(s, "UpdateItem", in.data));
    }
    buf_done(&in);
    store_items *rd;
    t0 = bench_now();
    if (store_items_at(s, TABLE, before, NULL, &rd, &d) != ST_OK)
        fail("moment reader", &d);
    unsigned long got = drain(rd);
    secs = bench_now() - t0;
    store_items_free(rd);
    if (got != n)
        fail("moment reader", &(diag){ .msg = "not every item" });
    bench_fig("B.read_moment_items_s", (double)n / secs);
    t0 = bench_now();
    if (store_items_backup(s, b.arn, NULL, &rd, &d) != ST_OK)
        fail("backup reader", &d);
    got = drain(rd);
    secs = bench_now() - t0;
    store_items_free(rd);
    if (got != n)
        fail("backup reader", &(diag){ .msg = "not every item" });
    bench_fig("B.read_backup_items_s", (double)n / secs);
    if (store_backup_delete(s, b.arn, &d) != ST_OK)
        fail("DeleteBackup", &d);
    store_backup_done(&b);
    store_close(s);
    return 0;
}

static int cmd_read(const char *path, unsigned long n)
{
    store *s;
    diag d = { 0 };
    if (store_open(path, 0, &s, &d) != ST_OK)
        fail("open", &d);
    store_backup b;
    if (store_backup_create(s, TABLE, "bench-read", 0, &b, &d) != ST_OK)
        fail("CreateBackup", &d);
    double base = bench_peak_rss();
    store_items *rd;
    if (store_items_backup(s, b.arn, NULL, &rd, &d) != ST_OK)
        fail("backup reader", &d);
    if (drain(rd) != n)
        fail("backup reader", &(diag){ .msg = "not every item" });
    store_items_free(rd);
    bench_fig("B.reader_rss", bench_peak_rss());
    bench_fig("B.reader_rss_growth", bench_peak_rss() - base);
    if (store_backup_delete(s, b.arn, &d) != ST_OK)
        fail("DeleteBackup", &d);
    store_backup_done(&b);
    store_close(s);
    return 0;
}

static const char create_table[] = GRAPH_CREATE_TABLE;


/* One round of one mode: the load's and the puts' seconds, of wall clock
 * and of this process's CPU (which the other work of a shared machine
 * does not inflate). */
static void pitr_round(const char *file, const char *db, bool on, double load_s[2], double put_s[2])
{
    bench_rm_db(db);
    store *s;
    diag d = { 0 };
    if (store_open(db, 0, &s, &d) != ST_OK)
        fail("open", &d);
    free(call(s, "CreateTable", create_table));
    if (on)
        free(call(s, "UpdateContinuousBackups", "{\"TableName\":\"" TABLE "\",\"PointInTimeRecoverySpecification\":"
                                                "{\"PointInTimeRecoveryEnabled\":true}}"));
    FILE *f = fopen(file, "r");
    if (!f) {
        perror(file);
        exit(1);
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    double t0 = bench_now(), c0 = bench_cpu();
    if (store_begin(s, &d) != ST_OK)
        fail("begin", &d);
    while ((len = getline(&line, &cap, f)) > 0) {
        const char *end = strrchr(line, '}');
        av item;
        if (!end || len < 10 || ddbjson_parse_item(line + 8, (size_t)(end - line) - 8, &item, &d) != ST_OK)
            fail("parse", &d);
        if (store_put_item(s, TABLE, &item, &d) != ST_OK)
            fail("put", &d);
        av_done(&item);
    }
    if (store_commit(s, &d) != ST_OK)
        fail("commit", &d);
    load_s[0] = bench_now() - t0;
    load_s[1] = bench_cpu() - c0;
    fclose(f);
    free(line);
    buf in = BUF_INIT;
    graph_attrs g;
    t0 = bench_now();
    c0 = bench_cpu();
    for (int i = 0; i < PUTS; i++) {
        graph_item_attrs(GRAPH_SEED, (uint32_t)i, 1, &g);
        buf_reset(&in);
        buf_printf(&in, "{\"TableName\":\"" TABLE "\",\"Item\":{\"PK\":{\"S\":\"ACTOR#new%d\"},\"SK\":{\"S\":"
                        "\"TARGET#u%d\"},\"GSI1PK\":{\"S\":\"TARGET#u%d\"},\"GSI1SK\":{\"S\":\"ACTOR#new%d\"},"
                        "\"followedAt\":{\"S\":\"%s\"},\"score\":{\"N\":\"%u\"},\"tier\":{\"S\":\"%s\"},"
                        "\"note\":{\"S\":\"%s\"},\"meta\":{\"S\":\"%s\"}}}", i / 100, i, i, i / 100, g.followed_at,
                   g.score, g.tier, g.note, g.meta);
        free(call(s, "PutItem", in.data));
    }
    put_s[0] = bench_now() - t0;
    put_s[1] = bench_cpu() - c0;
    buf_done(&in);
    store_close(s);
    bench_rm_db(db);
}

static int cmd_pitr(const char *file, const char *dir, int rounds)
{
    char db[3072];
    snprintf(db, sizeof db, "%s/pitr-bench.db", dir);
    for (int r = 0; r < rounds; r++) {
        for (int k = 0; k < 2; k++) {
            bool on = (r + k) % 2 == 1;
            double load_s[2], put_s[2];
            pitr_round(file, db, on, load_s, put_s);
            bench_fig(on ? "B.load_on_s" : "B.load_off_s", load_s[0]);
            bench_fig(on ? "B.load_on_cpu" : "B.load_off_cpu", load_s[1]);
            bench_fig(on ? "B.put_on_s" : "B.put_off_s", put_s[0]);
            bench_fig(on ? "B.put_on_cpu" : "B.put_off_cpu", put_s[1]);
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "backup") == 0)
        return cmd_backup(argv[2], strtoul(argv[3], NULL, 10));
    if (argc >= 4 && strcmp(argv[1], "read") == 0)
        return cmd_read(argv[2], strtoul(argv[3], NULL, 10));
    if (argc >= 5 && strcmp(argv[1], "pitr") == 0)
        return cmd_pitr(argv[2], argv[3], atoi(argv[4]));
    fprintf(stderr, "usage: bench_backup backup DB N | read DB N | pitr FILE.jsonl DIR ROUNDS\n");
    return 2;
}
