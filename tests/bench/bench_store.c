/*
 * bench_store — the in-process ddbx figures: the store (data/) driven
 * through store_call with DynamoDB request bodies, exactly as `ddbx api`
 * drives it, on the same rows and the same random choices as raw_sqlite.
 *
 *   bench_store load FILE.jsonl DB    CreateTable (GSI1) + store_put_item
 *                                     of every item in one transaction
 *   bench_store read DB N [QUERIES GETS REPS [FIRST]]
 *                                     W2 Query, W3 GSI1 Query, W4 Scan with
 *                                     FilterExpression (paged to the end),
 *                                     W5 GetItem; N items in table Graph
 *
 * Latency is per store_call, request text built and response JSON
 * returned. Reads open the store as `ddbx api` does (STORE_LARGE_CACHE),
 * the load as `ddbx load` does. Prints {"fig":...,"value":...} lines (bench_util.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "tests/bench/bench_util.h"
#include "tests/bench/graph.h"

#define TABLE "Graph"

static const char create_table[] = GRAPH_CREATE_TABLE;

static void fail(const char *what, const diag *d)
{
    fprintf(stderr, "bench_store: %s: %s\n", what, d->msg);
    exit(1);
}

__attribute__((noinline)) static char *call(store *s, const char *op, const char *in, size_t len)
{
    char *out = NULL;
    diag d = { 0 };
    if (store_call(s, op, in, len, &out, &d) != ST_OK)
        fail(op, &d);
    return out;
}


static int cmd_load(const char *file, const char *path)
{
    bench_rm_db(path);
    FILE *in = fopen(file, "r");
    if (!in) {
        perror(file);
        return 1;
    }
    double t0 = bench_now();
    store *s;
    diag d = { 0 };
    if (store_open(path, 0, &s, &d) != ST_OK)
        fail("open", &d);
    free(call(s, "CreateTable", create_table, strlen(create_table)));
    if (store_begin(s, &d) != ST_OK)
        fail("begin", &d);
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    unsigned long n = 0;
    while ((len = getline(&line, &cap, in)) > 0) {
        /* {"Item":{...}}\n: the item is the object after the 8-byte prefix */
        if (len < 10 || memcmp(line, "{\"Item\":", 8) != 0) {
            fprintf(stderr, "bench_store: line %lu is not {\"Item\":...}\n", n + 1);
            return 1;
        }
        /* the item ends before the wrapper's closing brace, the last one */
        const char *end = strrchr(line, '}');
        av item;
        if (!end || ddbjson_parse_item(line + 8, (size_t)(end - line) - 8, &item, &d) != ST_OK)
            fail("parse", &d);
        if (store_put_item(s, TABLE, &item, &d) != ST_OK)
            fail("put", &d);
        av_done(&item);
        n++;
    }
    if (store_commit(s, &d) != ST_OK)
        fail("commit", &d);
    store_close(s);
    double t1 = bench_now();
    fclose(in);
    free(line);
    bench_fig("W1.load_inproc", (double)n / (t1 - t0));
    bench_fig("W1.cpu_load_inproc", (double)n / bench_cpu());
    return 0;
}

/* The last occurrence of name in out: the members checked here follow
 * the Items array, so searching from the end does not walk the items
 * (a forward strstr over a 45 KB response was 3.5% of W2, charged to the
 * store). */
static const char *last_of(const char *out, const char *name)
{
    size_t n = strlen(out), k = strlen(name);
    for (size_t i = n >= k ? n - k + 1 : 0; i-- > 0;)
        if (out[i] == name[0] && memcmp(out + i, name, k) == 0)
            return out + i;
    return NULL;
}

/* The integer after "name": in a response, or -1. */
static long json_int(const char *out, const char *name)
{
    const char *p = last_of(out, name);
    return p ? strtol(p + strlen(name), NULL, 10) : -1;
}

/* Copies the object after "LastEvaluatedKey": into key (reset first);
 * false when the response has none. Strings may hold braces: skipped. */
static bool last_key(const char *out, buf *key)
{
    const char *p = last_of(out, "\"LastEvaluatedKey\":");
    buf_reset(key);
    if (!p)
        return false;
    p += strlen("\"LastEvaluatedKey\":");
    const char *q = p;
    int depth = 0;
    bool str = false;
    for (; *q; q++) {
        if (str) {
            if (*q == '\\')
                q++;
            else if (*q == '"')
                str = false;
        } else if (*q == '"') {
            str = true;
        } else if (*q == '{') {
            depth++;
        } else if (*q == '}' && --depth == 0) {
            q++;
            break;
        }
    }
    buf_add(key, p, (size_t)(q - p));
    return true;
}

static int cmd_read(const char *path, unsigned long n, unsigned queries, unsigned gets,
                    unsigned reps, unsigned first)
{
    store *s;
    diag d = { 0 };
    /* as `ddbx api` opens it */
    if (store_open(path, STORE_LARGE_CACHE, &s, &d) != ST_OK)
        fail("open", &d);
    uint32_t parts = (uint32_t)(n / GRAPH_PER_PART);
    size_t maxn = queries > gets ? queries : gets;
    double *lat = xmalloc((maxn + 1) * sizeof *lat);
    uint32_t *acts = xmalloc((gets + 1) * sizeof *acts), *tgts = xmalloc((gets + 1) * sizeof *tgts);
    buf in = BUF_INIT, key = BUF_INIT;
    for (unsigned rep = first; rep < first + reps; rep++) {
        graph_rng r = graph_rng_for(1000 + rep, 7);
        if (bench_want("W2")) {
            double t0 = bench_now(), c0 = bench_cpu();
            for (unsigned i = 0; i < queries; i++) {
                double a = bench_now();
                buf_reset(&in);
                buf_printf(&in, "{\"TableName\":\"" TABLE "\",\"KeyConditionExpression\":\"PK = :p\","
                                "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#u%u\"}}}",
                           (unsigned)(graph_next(&r) % parts));
                char *out = call(s, "Query", in.data, in.len);
                if (json_int(out, "\"Count\":") != GRAPH_PER_PART)
                    fail("Query", &(diag){ .msg = "partition not 100 items" });
                free(out);
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
                buf_reset(&in);
                buf_printf(&in, "{\"TableName\":\"" TABLE "\",\"IndexName\":\"GSI1\","
                                "\"KeyConditionExpression\":\"GSI1PK = :p\","
                                "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"TARGET#u%u\"}}}",
                           (unsigned)(graph_next(&r) % parts));
                free(call(s, "Query", in.data, in.len));
                lat[i] = bench_now() - a;
            }
            bench_fig("W3.ops", queries / (bench_now() - t0));
            bench_fig("W3.cpu_ops", queries / (bench_cpu() - c0));
            bench_lat("W3", lat, queries);
        }
        /* W4: Scan pages to the end */
        if (bench_want("W4")) {
            double t0 = bench_now(), c0 = bench_cpu();
            long scanned = 0, matched = 0;
            bool more = false;
            do {
                buf_reset(&in);
                buf_adds(&in, "{\"TableName\":\"" TABLE "\",\"FilterExpression\":\"tier = :t\","
                              "\"ExpressionAttributeValues\":{\":t\":{\"S\":\"gold\"}}");
                if (more) {
                    buf_adds(&in, ",\"ExclusiveStartKey\":");
                    buf_add(&in, key.data, key.len);
                }
                buf_addc(&in, '}');
                char *out = call(s, "Scan", in.data, in.len);
                scanned += json_int(out, "\"ScannedCount\":");
                matched += json_int(out, "\"Count\":");
                more = last_key(out, &key);
                free(out);
            } while (more);
            double secs = bench_now() - t0, cpu = bench_cpu() - c0;
            if (scanned != (long)n)
                fail("Scan", &(diag){ .msg = "did not see every item" });
            bench_fig("W4.scan", (double)scanned / secs);
            bench_fig("W4.cpu_scan", (double)scanned / cpu);
            bench_fig("W4.matched", (double)matched);
        }
        if (bench_want("W5")) {
            /* the choice of keys is not the read: made before the clock starts */
            graph_pick_keys(&r, parts, gets, acts, tgts);
            double c0 = bench_cpu();
            for (unsigned i = 0; i < gets; i++) {
                double a = bench_now();
                buf_reset(&in);
                buf_printf(&in, "{\"TableName\":\"" TABLE "\",\"Key\":{\"PK\":{\"S\":\"ACTOR#u%u\"},"
                                "\"SK\":{\"S\":\"TARGET#u%u\"}}}", acts[i], tgts[i]);
                char *out = call(s, "GetItem", in.data, in.len);
                if (!strstr(out, "\"Item\":"))
                    fail("GetItem", &(diag){ .msg = "found nothing" });
                free(out);
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
    store_close(s);
    buf_done(&in), buf_done(&key);
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
    fprintf(stderr, "usage: bench_store load FILE.jsonl DB | read DB N [QUERIES GETS REPS [FIRST]]\n");
    return 2;
}
