/*
 * bench_vector — SearchVectors over N vectors of D dimensions (issue 39:
 * 100,000 of 1,024, a search <= 50 ms on one core and <= 1.2x the floor of
 * a plain C loop over the same floats).
 *
 *   bench_vector DB N D SEARCHES
 *
 * Makes a fresh table Vec in DB (PAY_PER_REQUEST, one COSINE vector index
 * of D dimensions), puts N items with deterministic random vectors through
 * store_put_item (the bulk interface `ddbx load` uses: the entries are
 * written as the items are), then:
 * - V.first_ms: the first search (it reads the packed vectors into memory);
 * - V.p50_ms, V.p99_ms: SEARCHES searches through store_exec (the typed
 *   call the explorer and the JSON door make), TopK 10, random queries;
 * - V.floor_p50_ms: the floor, measured alternately in the same run: a
 *   plain C loop over the same floats (one float array, eight running
 *   sums a vector, a kept top 10) with no store around it;
 * - V.ratio: V.p50_ms / V.floor_p50_ms.
 *
 * Prints {"fig":...,"value":...} lines (bench_util.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/av.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/num.h"
#include "tests/bench/bench_util.h"

#define TOPK 10

static void fail(const char *what, const diag *d)
{
    fprintf(stderr, "bench_vector: %s: %s\n", what, d->msg);
    exit(1);
}

static uint64_t rng = 88172645463325252ull;

static double rnd(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

/* A vector component: 4 decimals in [-1, 1], as the float it reads as. */
static void component(av *out, float *f)
{
    char text[16];
    int v = (int)(rnd() * 20000) - 10000;
    snprintf(text, sizeof text, "%s0.%04d", v < 0 ? "-" : "", v < 0 ? -v : v);
    num n;
    diag d = { 0 };
    if (num_parse(text, strlen(text), &n, &d) != ST_OK)
        fail("num", &d);
    av_init_n(out, &n);
    *f = strtof(text, NULL);
}

/* The floor: the plain loop, nothing else. */
static void floor_search(const float *all, const double *norms, size_t n, size_t dims, const float *q,
                         double *best, size_t *best_id)
{
    double qn = 0;
    for (size_t j = 0; j < dims; j++)
        qn += (double)q[j] * q[j];
    qn = sqrt(qn);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        const float *x = all + i * dims;
        /* Eight running sums: the loop a C programmer writes for speed
         * (one sum is a chain the compiler may not reorder). */
        float p[8] = { 0 };
        size_t j = 0;
        for (; j + 8 <= dims; j += 8)
            for (int u = 0; u < 8; u++)
                p[u] += q[j + u] * x[j + u];
        float dot = (p[0] + p[4]) + (p[1] + p[5]) + (p[2] + p[6]) + (p[3] + p[7]);
        for (; j < dims; j++)
            dot += q[j] * x[j];
        double score = 1.0 - dot / (qn * norms[i]);
        if (kept == TOPK && score >= best[TOPK - 1])
            continue;
        size_t at = kept < TOPK ? kept++ : TOPK - 1;
        while (at > 0 && score < best[at - 1]) {
            best[at] = best[at - 1];
            best_id[at] = best_id[at - 1];
            at--;
        }
        best[at] = score;
        best_id[at] = i;
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) {
        fprintf(stderr, "usage: bench_vector DB N D SEARCHES\n");
        return 2;
    }
    size_t n = strtoul(argv[2], NULL, 10), dims = strtoul(argv[3], NULL, 10);
    size_t searches = strtoul(argv[4], NULL, 10);
    store *s;
    diag d = { 0 };
    remove(argv[1]);
    if (store_open(argv[1], STORE_LARGE_CACHE, &s, &d) != ST_OK)
        fail("open", &d);
    char body[1024];
    snprintf(body, sizeof body, "{\"TableName\":\"Vec\",\"BillingMode\":\"PAY_PER_REQUEST\","
             "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"S\"}],"
             "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],\"VectorIndexes\":[{\"IndexName\":"
             "\"emb-idx\",\"VectorAttribute\":{\"AttributeName\":\"emb\"},\"Dimensions\":%zu,\"DistanceFunction\":"
             "\"COSINE\",\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]}", dims);
    char *out = NULL;
    if (store_call(s, "CreateTable", body, strlen(body), &out, &d) != ST_OK)
        fail("CreateTable", &d);
    free(out);

    float *all = xmalloc(n * dims * sizeof *all);
    double *norms = xmalloc(n * sizeof *norms);
    double t0 = bench_now();
    if (store_begin(s, &d) != ST_OK)
        fail("begin", &d);
    for (size_t i = 0; i < n; i++) {
        av item, v, id, emb;
        av_init_list(&item, AV_M);
        snprintf(body, sizeof body, "v%07zu", i);
        av_init_s(&id, body, strlen(body));
        av_map_put(&item, "id", 2, &id);
        av_init_list(&emb, AV_L);
        for (size_t j = 0; j < dims; j++) {
            component(&v, &all[i * dims + j]);
            av_list_push(&emb, &v);
        }
        av_map_put(&item, "emb", 3, &emb);
        if (store_put_item(s, "Vec", &item, &d) != ST_OK)
            fail("put", &d);
        av_done(&item);
        double nn = 0;
        for (size_t j = 0; j < dims; j++)
            nn += (double)all[i * dims + j] * all[i * dims + j];
        norms[i] = sqrt(nn);
    }
    if (store_commit(s, &d) != ST_OK)
        fail("commit", &d);
    bench_fig("V.load_items_s", (double)n / (bench_now() - t0));

    ddb_req r;
    ddb_req_init(&r, DDB_SEARCH_VECTORS);
    ddb_req_set_str(&r.table, "Vec");
    ddb_req_set_str(&r.index, "emb-idx");
    r.topk = TOPK;
    float *q = xmalloc(dims * sizeof *q);
    double *lat = xcalloc(searches + 1, sizeof *lat), *flat = xcalloc(searches + 1, sizeof *flat);
    double best[TOPK];
    size_t best_id[TOPK];
    for (size_t k = 0; k <= searches; k++) {
        av_done(&r.svec);
        av_init_list(&r.svec, AV_L);
        for (size_t j = 0; j < dims; j++) {
            av v;
            component(&v, &q[j]);
            av_list_push(&r.svec, &v);
        }
        ddb_res res;
        ddb_res_init(&res);
        ddb_err err;
        ddb_err_init(&err);
        double a = bench_now();
        if (store_exec(s, &r, &res, &err) != ST_OK)
            fail("SearchVectors", &err.d);
        double b = bench_now();
        floor_search(all, norms, n, dims, q, best, best_id);
        double c = bench_now();
        /* The two agree on the nearest (the same floats, the same order). */
        if (res.n_items != (n < TOPK ? n : TOPK) || fabs(res.scores[0] - (float)best[0]) > 1e-4) {
            fprintf(stderr, "bench_vector: the store and the floor disagree (%g vs %g)\n",
                    res.n_items ? res.scores[0] : -1.0, best[0]);
            return 1;
        }
        if (k == 0)
            bench_fig("V.first_ms", (b - a) * 1e3);
        else {
            lat[k - 1] = b - a;
            flat[k - 1] = c - b;
        }
        ddb_err_done(&err);
        ddb_res_done(&res);
    }
    double p50 = bench_pct(lat, searches, 0.5), f50 = bench_pct(flat, searches, 0.5);
    bench_fig("V.p50_ms", p50 * 1e3);
    bench_fig("V.p99_ms", bench_pct(lat, searches, 0.99) * 1e3);
    bench_fig("V.floor_p50_ms", f50 * 1e3);
    bench_fig("V.ratio", p50 / f50);
    ddb_req_done(&r);
    free(q);
    free(lat);
    free(flat);
    free(all);
    free(norms);
    store_close(s);
    return 0;
}
