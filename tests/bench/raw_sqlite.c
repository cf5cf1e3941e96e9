/*
 * raw_sqlite — the floor: the benchmark's rows written and read by a
 * minimal program with prepared statements, in the same two B-trees the
 * store uses (items and idx, WITHOUT ROWID, the same columns, keys in
 * model/keyenc's encoding, bodies in model/itemenc's; since schema
 * version 5 the GSI entry holds the item's body too, so W3 is a range
 * read of idx, as in the store), with the store's pragmas. No validation, no partition counts, no capacity: what is left
 * is SQLite plus the unavoidable parse/encode/JSON work, so the distance
 * from here to bench_store is the store's own overhead.
 *
 *   raw_sqlite load FILE.jsonl DB     W1 (parse+encode+insert, one
 *                                     transaction), W8 (bytes/item)
 *   raw_sqlite read DB N [QUERIES GETS REPS [FIRST]]
 *                                     W2 Query, W3 GSI Query, W4 filtered
 *                                     Scan, W5 GetItem; N items in DB
 *
 * Prints {"fig":...,"value":...} lines (bench_util.h).
 */
#include <cjson/cJSON.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/size.h"
#include "tests/bench/bench_util.h"
#include "tests/bench/graph.h"

#define TID 1
#define XID 1

static void die(sqlite3 *db, const char *what)
{
    fprintf(stderr, "raw_sqlite: %s: %s\n", what, db ? sqlite3_errmsg(db) : "?");
    exit(1);
}

static sqlite3_stmt *prep(sqlite3 *db, const char *sql)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &q, NULL) != SQLITE_OK)
        die(db, sql);
    return q;
}

static sqlite3 *open_db(const char *path, bool create)
{
    sqlite3 *db;
    if (sqlite3_open(path, &db) != SQLITE_OK)
        die(db, path);
    /* The store's settings (data/store.c): a bulk transaction (the load)
     * runs with a 256 MB page cache; readers opened with
     * STORE_LARGE_CACHE (ddbx api, bench_store) with the same cache and
     * memory-mapped reads. */
    if (create)
        sqlite3_exec(db, "PRAGMA page_size=16384", NULL, NULL, NULL);
    sqlite3_exec(db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
    sqlite3_exec(db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
    sqlite3_exec(db, "PRAGMA cache_size=-262144", NULL, NULL, NULL);
    if (!create)
        sqlite3_exec(db, "PRAGMA mmap_size=2147418112", NULL, NULL, NULL);
    return db;
}

static void key_of(buf *out, const av *item, const char *name)
{
    const av *v = av_map_get(item, name, strlen(name));
    if (!v) {
        fprintf(stderr, "raw_sqlite: item without %s\n", name);
        exit(1);
    }
    keyenc_append(out, v);
}

static int cmd_load(const char *file, const char *path)
{
    remove(path);
    char wal[4096];
    snprintf(wal, sizeof wal, "%s-wal", path);
    remove(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    remove(wal);
    FILE *in = fopen(file, "r");
    if (!in) {
        perror(file);
        return 1;
    }
    double t0 = bench_now();
    sqlite3 *db = open_db(path, true);
    if (sqlite3_exec(db,
            "CREATE TABLE items(tid INTEGER NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL,"
            " size INTEGER NOT NULL, body BLOB NOT NULL, PRIMARY KEY(tid, pk, sk)) WITHOUT ROWID;"
            "CREATE TABLE idx(tid INTEGER NOT NULL, xid INTEGER NOT NULL,"
            " ipk BLOB NOT NULL, isk BLOB NOT NULL, pk BLOB NOT NULL, sk BLOB NOT NULL,"
            " size INTEGER NOT NULL, body BLOB, PRIMARY KEY(tid, xid, ipk, isk, pk, sk)) WITHOUT ROWID;"
            "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "schema");
    sqlite3_stmt *ins = prep(db, "INSERT INTO items(tid, pk, sk, size, body) VALUES(?1, ?2, ?3, ?4, ?5)");
    sqlite3_stmt *ix = prep(db, "INSERT INTO idx(tid, xid, ipk, isk, pk, sk, size, body)"
                                " VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    buf pk = BUF_INIT, sk = BUF_INIT, ipk = BUF_INIT, isk = BUF_INIT, body = BUF_INIT;
    unsigned long long n = 0, dsize = 0, isize = 0;
    double t_sql = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        cJSON *root = cJSON_ParseWithLength(line, (size_t)len);
        const cJSON *it = root ? cJSON_GetObjectItemCaseSensitive(root, "Item") : NULL;
        av item;
        diag d = { 0 };
        if (!it || ddbjson_item_from_cjson(it, NULL, &item, &d) != ST_OK) {
            fprintf(stderr, "raw_sqlite: bad line %llu: %s\n", n + 1, d.msg);
            return 1;
        }
        cJSON_Delete(root);
        buf_reset(&pk), buf_reset(&sk), buf_reset(&ipk), buf_reset(&isk), buf_reset(&body);
        key_of(&pk, &item, "PK");
        key_of(&sk, &item, "SK");
        key_of(&ipk, &item, "GSI1PK");
        key_of(&isk, &item, "GSI1SK");
        itemenc_encode(&body, &item);
        size_t sz = size_item(&item);
        av_done(&item);
        /* What DynamoDB stores and bills: the item and its GSI1 entry
         * (ALL: the item again), each with 100 bytes of overhead
         * (developer guide: "DynamoDB item sizes and formats", every item
         * needs 100 bytes of storage overhead for indexing; "Storage
         * considerations" for global secondary indexes, 100 bytes of
         * overhead per index item). */
        isize += sz;
        dsize += (sz + 100) + (sz + 100);
        double a = bench_now();
        sqlite3_bind_int(ins, 1, TID);
        sqlite3_bind_blob(ins, 2, pk.data, (int)pk.len, SQLITE_STATIC);
        sqlite3_bind_blob(ins, 3, sk.data, (int)sk.len, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 4, (sqlite3_int64)sz);
        sqlite3_bind_blob(ins, 5, body.data, (int)body.len, SQLITE_STATIC);
        if (sqlite3_step(ins) != SQLITE_DONE)
            die(db, "insert item");
        sqlite3_reset(ins);
        sqlite3_bind_int(ix, 1, TID);
        sqlite3_bind_int(ix, 2, XID);
        sqlite3_bind_blob(ix, 3, ipk.data, (int)ipk.len, SQLITE_STATIC);
        sqlite3_bind_blob(ix, 4, isk.data, (int)isk.len, SQLITE_STATIC);
        sqlite3_bind_blob(ix, 5, pk.data, (int)pk.len, SQLITE_STATIC);
        sqlite3_bind_blob(ix, 6, sk.data, (int)sk.len, SQLITE_STATIC);
        sqlite3_bind_int64(ix, 7, (sqlite3_int64)sz);
        sqlite3_bind_blob(ix, 8, body.data, (int)body.len, SQLITE_STATIC);   /* GSI1 is ALL */
        if (sqlite3_step(ix) != SQLITE_DONE)
            die(db, "insert index entry");
        sqlite3_reset(ix);
        t_sql += bench_now() - a;
        n++;
    }
    double a = bench_now();
    if (sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
        die(db, "commit");
    sqlite3_finalize(ins);
    sqlite3_finalize(ix);
    /* Everything into the main file, so its size is the store's size. */
    sqlite3_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)", NULL, NULL, NULL);
    sqlite3_close(db);
    double t1 = bench_now();
    t_sql += t1 - a;
    fclose(in);
    free(line);
    buf_done(&pk), buf_done(&sk), buf_done(&ipk), buf_done(&isk), buf_done(&body);
    FILE *f = fopen(path, "rb");
    long bytes = 0;
    if (f && fseek(f, 0, SEEK_END) == 0)
        bytes = ftell(f);
    if (f)
        fclose(f);
    bench_fig("W1.load", (double)n / (t1 - t0));
    bench_fig("W1.cpu_load", (double)n / bench_cpu());
    bench_fig("W1.insert_only", (double)n / t_sql);
    bench_fig("W8.bytes_per_item", (double)bytes / (double)n);
    bench_fig("W8.ddb_bytes_per_item", (double)dsize / (double)n);
    bench_fig("W8.item_bytes_per_item", (double)isize / (double)n);
    bench_fig("items", (double)n);
    return 0;
}

static void enc_s(buf *out, const char *s)
{
    av v;
    av_init_s(&v, s, strlen(s));
    keyenc_append(out, &v);
    av_done(&v);
}

/* A page of rows (column 0 the body) into a Query-shaped response. */
static unsigned rows_json(sqlite3 *db, sqlite3_stmt *q, buf *out)
{
    unsigned n = 0;
    diag d = { 0 };
    buf_reset(out);
    buf_adds(out, "{\"Items\":[");
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (n++)
            buf_addc(out, ',');
        if (itemenc_write_json(out, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0), &d) != ST_OK)
            die(db, "bad body");
    }
    if (rc != SQLITE_DONE)
        die(db, "step");
    buf_printf(out, "],\"Count\":%u,\"ScannedCount\":%u}", n, n);
    sqlite3_reset(q);
    return n;
}

static int cmd_read(const char *path, unsigned long n, unsigned queries, unsigned gets,
                    unsigned reps, unsigned first)
{
    sqlite3 *db = open_db(path, false);
    uint32_t parts = (uint32_t)(n / GRAPH_PER_PART);
    sqlite3_stmt *qp = prep(db, "SELECT body FROM items WHERE tid = ?1 AND pk = ?2");
    sqlite3_stmt *qi = prep(db, "SELECT body FROM idx WHERE tid = ?1 AND xid = ?2 AND ipk = ?3");
    sqlite3_stmt *qs = prep(db, "SELECT body FROM items WHERE tid = ?1");
    sqlite3_stmt *qg = prep(db, "SELECT body FROM items WHERE tid = ?1 AND pk = ?2 AND sk = ?3");
    size_t maxn = queries > gets ? queries : gets;
    double *lat = malloc((maxn + 1) * sizeof *lat);
    uint32_t *acts = malloc((gets + 1) * sizeof *acts), *tgts = malloc((gets + 1) * sizeof *tgts);
    buf out = BUF_INIT, k1 = BUF_INIT, k2 = BUF_INIT;
    char s[64];
    diag d = { 0 };
    /* the encoded value of tier = "gold", to compare bytes with */
    buf gold = BUF_INIT;
    {
        av it, v;
        av_init_list(&it, AV_M);
        av_init_s(&v, "gold", 4);
        av_map_put(&it, "tier", 4, &v);
        itemenc_encode(&gold, &it);
        av_done(&it);
    }
    const unsigned char *gv;
    size_t gl;
    if (!itemenc_find(gold.data, gold.len, "tier", 4, &gv, &gl))
        die(NULL, "itemenc_find");
    for (unsigned rep = first; rep < first + reps; rep++) {
        graph_rng r = graph_rng_for(1000 + rep, 7);
        if (bench_want("W2")) {
            double t0 = bench_now(), c0 = bench_cpu();
            for (unsigned i = 0; i < queries; i++) {
                double a = bench_now();
                snprintf(s, sizeof s, "ACTOR#u%u", (unsigned)(graph_next(&r) % parts));
                buf_reset(&k1);
                enc_s(&k1, s);
                sqlite3_bind_int(qp, 1, TID);
                sqlite3_bind_blob(qp, 2, k1.data, (int)k1.len, SQLITE_STATIC);
                if (rows_json(db, qp, &out) != GRAPH_PER_PART)
                    die(NULL, "partition not 100 items");
                lat[i] = bench_now() - a;
            }
            bench_fig("W2.ops", queries / (bench_now() - t0));
            bench_fig("W2.cpu_ops", queries / (bench_cpu() - c0));
            bench_lat("W2", lat, queries);
        }
        if (bench_want("W3")) {
            double t0 = bench_now(), c0 = bench_cpu();
            for (unsigned i = 0; i < queries; i++) {
                double a = bench_now();
                snprintf(s, sizeof s, "TARGET#u%u", (unsigned)(graph_next(&r) % parts));
                buf_reset(&k1);
                enc_s(&k1, s);
                sqlite3_bind_int(qi, 1, TID);
                sqlite3_bind_int(qi, 2, XID);
                sqlite3_bind_blob(qi, 3, k1.data, (int)k1.len, SQLITE_STATIC);
                rows_json(db, qi, &out);
                lat[i] = bench_now() - a;
            }
            bench_fig("W3.ops", queries / (bench_now() - t0));
            bench_fig("W3.cpu_ops", queries / (bench_cpu() - c0));
            bench_lat("W3", lat, queries);
        }
        /* W4: every item looked at, the matching ones written as JSON */
        if (bench_want("W4")) {
            double t0 = bench_now(), c0 = bench_cpu();
            unsigned long scanned = 0, matched = 0;
            buf_reset(&out);
            sqlite3_bind_int(qs, 1, TID);
            while (sqlite3_step(qs) == SQLITE_ROW) {
                const void *b = sqlite3_column_blob(qs, 0);
                size_t bl = (size_t)sqlite3_column_bytes(qs, 0);
                const unsigned char *vp;
                size_t vl;
                scanned++;
                if (itemenc_find(b, bl, "tier", 4, &vp, &vl) && vl == gl && memcmp(vp, gv, gl) == 0) {
                    matched++;
                    if (out.len > (1u << 20))
                        buf_reset(&out);
                    buf_addc(&out, ',');
                    if (itemenc_write_json(&out, b, bl, &d) != ST_OK)
                        die(NULL, "bad body");
                }
            }
            sqlite3_reset(qs);
            double secs = bench_now() - t0, cpu = bench_cpu() - c0;
            if (scanned != n)
                die(NULL, "scan count");
            bench_fig("W4.scan", scanned / secs);
            bench_fig("W4.cpu_scan", scanned / cpu);
            bench_fig("W4.matched", (double)matched);
        }
        if (bench_want("W5")) {
            /* the choice of keys is not the read: made before the clock starts */
            graph_pick_keys(&r, parts, gets, acts, tgts);
            double c0 = bench_cpu();
            for (unsigned i = 0; i < gets; i++) {
                double a = bench_now();
                buf_reset(&k1), buf_reset(&k2);
                snprintf(s, sizeof s, "ACTOR#u%u", acts[i]);
                enc_s(&k1, s);
                snprintf(s, sizeof s, "TARGET#u%u", tgts[i]);
                enc_s(&k2, s);
                sqlite3_bind_int(qg, 1, TID);
                sqlite3_bind_blob(qg, 2, k1.data, (int)k1.len, SQLITE_STATIC);
                sqlite3_bind_blob(qg, 3, k2.data, (int)k2.len, SQLITE_STATIC);
                if (sqlite3_step(qg) != SQLITE_ROW)
                    die(db, "GetItem found nothing");
                buf_reset(&out);
                buf_adds(&out, "{\"Item\":");
                if (itemenc_write_json(&out, sqlite3_column_blob(qg, 0), (size_t)sqlite3_column_bytes(qg, 0), &d) != ST_OK)
                    die(NULL, "bad body");
                buf_addc(&out, '}');
                sqlite3_reset(qg);
                lat[i] = bench_now() - a;
            }
            double cpu = bench_cpu() - c0, tot = 0;
            for (unsigned i = 0; i < gets; i++)
                tot += lat[i];
            bench_fig("W5.ops", gets / tot);
            bench_fig("W5.cpu_ops", gets / cpu);
            bench_fig("W5.p50", bench_pct(lat, gets, 0.5) * 1e6);
        }
    }
    bench_fig("mem.hwm", bench_peak_rss());
    sqlite3_finalize(qp), sqlite3_finalize(qi), sqlite3_finalize(qs), sqlite3_finalize(qg);
    sqlite3_close(db);
    buf_done(&out), buf_done(&k1), buf_done(&k2), buf_done(&gold);
    free(lat), free(acts), free(tgts);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc >= 4 && strcmp(argv[1], "load") == 0)
        return cmd_load(argv[2], argv[3]);
    if (argc >= 4 && strcmp(argv[1], "read") == 0)
        return cmd_read(argv[2], strtoul(argv[3], NULL, 10),
                        argc > 4 ? (unsigned)atoi(argv[4]) : 10000,
                        argc > 5 ? (unsigned)atoi(argv[5]) : 100000,
                        argc > 6 ? (unsigned)atoi(argv[6]) : 3,
                        argc > 7 ? (unsigned)atoi(argv[7]) : 0);
    fprintf(stderr, "usage: raw_sqlite load FILE.jsonl DB | read DB N [QUERIES GETS REPS [FIRST]]\n");
    return 2;
}
