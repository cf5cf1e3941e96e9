/*
 * bench_partiql — the explorer's PartiQL page (issue 41 item 1): what one
 * page of ui/view_partiql.c costs inside the store.
 *
 *   bench_partiql [PAGES]
 *
 * An in-memory store with a table Graph of 20 partitions of 200 items
 * (keys and attributes as tests/bench/graph.h's edges, written with
 * store_call PutItem), then PAGES pages (default 200) of each of the
 * view's two reads, exactly as run_page calls them: store_partiql_page with
 * Limit 100 (the view's PAGE_LIMIT), following NextToken:
 *   Q   SELECT * FROM Graph WHERE PK = ?     (one partition, a Query;
 *                                             200 items: 2 pages, then
 *                                             the next partition)
 *   S   SELECT * FROM Graph WHERE tier = 'gold'   (a Scan with a filter)
 *
 * Prints {"fig":"PQ.Q.us","value":...} (CPU microseconds a page) and the
 * same for S. For instructions a page, run it under callgrind, counting
 * only inside store_partiql_page (the setup is left out):
 *
 *   valgrind --tool=callgrind --toggle-collect=store_partiql_page \
 *       build-bench/tests/bench/bench_partiql 200
 *
 * and divide the total Ir by 2 x PAGES (tests/bench/NOTES.md keeps the
 * figures). BENCH_ONLY=Q or S runs one of the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/mem.h"
#include "tests/bench/bench_util.h"

#define PARTS 20
#define PER_PART 200
#define PAGE_LIMIT 100   /* ui/view_partiql.c's */

static void fail(const char *what, const diag *d)
{
    fprintf(stderr, "bench_partiql: %s: %s\n", what, d->msg);
    exit(1);
}

static void call(store *s, const char *op, const char *in)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    if (store_call(s, op, in, strlen(in), &out, &d) != ST_OK)
        fail(op, &d);
    free(out);
}

static void load(store *s)
{
    call(s, "CreateTable",
         "{\"TableName\":\"Graph\","
         "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
         "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"}],"
         "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},"
         "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
         "\"BillingMode\":\"PAY_PER_REQUEST\"}");
    char note[81];
    memset(note, 'n', sizeof note - 1);
    note[sizeof note - 1] = 0;
    buf b = BUF_INIT;
    for (int p = 0; p < PARTS; p++)
        for (int i = 0; i < PER_PART; i++) {
            buf_reset(&b);
            buf_printf(&b,
                       "{\"TableName\":\"Graph\",\"Item\":{\"PK\":{\"S\":\"ACTOR#u%d\"},"
                       "\"SK\":{\"S\":\"TARGET#u%05d\"},\"followedAt\":{\"S\":\"2026-11-29T10:%02d:00Z\"},"
                       "\"score\":{\"N\":\"%d\"},\"tier\":{\"S\":\"%s\"},\"note\":{\"S\":\"%s\"}}}",
                       p, i, i % 60, (p * 7919 + i * 31) % 1000, i % 25 == 0 ? "gold" : "basic",
                       note);
            call(s, "PutItem", b.data);
        }
    buf_done(&b);
}

/* pages pages of statement (params: n of them), from the first page again
 * whenever the read ends; CPU seconds spent. */
static double pages_of(store *s, const char *statement, const av *params, size_t n, int pages,
                       size_t *items)
{
    char *token = NULL;
    double t0 = bench_cpu();
    for (int i = 0; i < pages; i++) {
        store_partiql_result r;
        diag d;
        diag_init(&d);
        if (store_partiql_page(s, statement, params, n, PAGE_LIMIT, token, &r, &d) != ST_OK)
            fail(statement, &d);
        free(token);
        token = r.next_token ? xstrdup(r.next_token) : NULL;
        *items += r.n;
        store_partiql_result_done(&r);
    }
    double t = bench_cpu() - t0;
    free(token);
    return t;
}

int main(int argc, char **argv)
{
    int pages = argc > 1 ? atoi(argv[1]) : 200;
    if (pages < 1)
        pages = 1;
    const char *only = getenv("BENCH_ONLY");
    store *s;
    diag d;
    diag_init(&d);
    if (store_open(":memory:", STORE_LARGE_CACHE, &s, &d) != ST_OK)
        fail("open", &d);
    load(s);
    if (!only || strcmp(only, "Q") == 0) {
        size_t items = 0;
        double t = 0;
        /* the partitions in turn, two pages each (the whole partition) */
        int per = PER_PART / PAGE_LIMIT;
        for (int p = 0, done = 0; done < pages; p = (p + 1) % PARTS) {
            char pk[32];
            snprintf(pk, sizeof pk, "ACTOR#u%d", p);
            av param;
            av_init_s(&param, pk, strlen(pk));
            int n = per < pages - done ? per : pages - done;
            t += pages_of(s, "SELECT * FROM Graph WHERE PK = ?", &param, 1, n, &items);
            av_done(&param);
            done += n;
        }
        bench_fig("PQ.Q.us", t / pages * 1e6);
        bench_fig("PQ.Q.items", (double)items / pages);
    }
    if (!only || strcmp(only, "S") == 0) {
        size_t items = 0;
        double t = pages_of(s, "SELECT * FROM Graph WHERE tier = 'gold'", NULL, 0, pages, &items);
        bench_fig("PQ.S.us", t / pages * 1e6);
        bench_fig("PQ.S.items", (double)items / pages);
    }
    store_close(s);
    return 0;
}
