/*
 * store_remote: the store interface over a DynamoDB endpoint, driven here
 * through a send function that hands each request to a second, local
 * store (store_call) holding the samples. The answers through the remote
 * mapping must agree with the local store's own C interface: tables,
 * descriptions, every partition with its item count (discovered by Scan,
 * lazily, in stable order both ways), pages of a partition of the table
 * and of a GSI in both directions from an item; writes refused without
 * the write flag and asked about with it; capacity summed; a failing
 * transport reported and recovered from.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/samples.h"
#include "data/store.h"
#include "data/store_wscan.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"

typedef struct wire {
    store *local;
    int calls;
    bool fail;                 /* the next requests fail as a dropped connection */
    char ops[4096];            /* the operations sent, space-separated */
    char last[8192];           /* the last request body */
    int many;                  /* send_many_local's calls */
} wire;

static status send_local(void *ctx, const char *op, const char *input, size_t len, char **out,
                         diag *d)
{
    wire *w = ctx;
    w->calls++;
    size_t n = strlen(w->ops);
    snprintf(w->ops + n, sizeof w->ops - n, "%s%s", n ? " " : "", op);
    snprintf(w->last, sizeof w->last, "%.*s", (int)len, input);
    if (w->fail) {
        *out = NULL;
        return diag_set(d, ST_IO, "connection refused (test)");
    }
    return store_call(w->local, op, input, len, out, d);
}

/* store_send_many_fn over the same wire, one after another (the order
 * does not matter to the store; data/remote_wait.c sends them at once). */
static status send_many_local(void *ctx, const char *op, size_t n, const char *const *inputs,
                              const size_t *lens, char **outs, status *sts, diag *ds)
{
    wire *w = ctx;
    w->many++;
    for (size_t i = 0; i < n; i++) {
        diag_init(&ds[i]);
        sts[i] = send_local(ctx, op, inputs[i], lens[i], &outs[i], &ds[i]);
    }
    return ST_OK;
}

static store *local_store;

static int setup(void **state)
{
    diag d;
    diag_init(&d);
    if (store_open(":memory:", 0, &local_store, &d) != ST_OK)
        return -1;
    if (samples_load(local_store, NULL, NULL, &d) != ST_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    store_close(local_store);
    return 0;
}

static store *open_remote(wire *w, unsigned flags, size_t scan_limit)
{
    memset(w, 0, sizeof *w);
    w->local = local_store;
    store *r = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open_remote(send_local, w, "test endpoint (local)", flags, &r, &d), ST_OK);
    store_set_scan_limit(r, scan_limit);
    return r;
}

static void free_parts(part_info *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        av_done(&p[i].pk);
}

static void tables_and_descriptions(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    diag d;
    diag_init(&d);
    char **ln, **rn;
    size_t nl, nr;
    assert_int_equal(store_list_tables(local_store, &ln, &nl, &d), ST_OK);
    assert_int_equal(store_list_tables(r, &rn, &nr, &d), ST_OK);
    assert_int_equal(nl, 4);
    assert_int_equal(nr, nl);
    for (size_t i = 0; i < nl; i++)
        assert_string_equal(rn[i], ln[i]);
    store_names_free(ln, nl);
    store_names_free(rn, nr);

    table_def a, b;
    assert_int_equal(store_describe(local_store, "StudentCourses", &a, &d), ST_OK);
    assert_int_equal(store_describe(r, "StudentCourses", &b, &d), ST_OK);
    assert_string_equal(a.pk.name, b.pk.name);
    assert_string_equal(a.sk.name, b.sk.name);
    assert_int_equal(a.n_idx, b.n_idx);
    for (size_t i = 0; i < a.n_idx; i++) {
        const index_def *x = table_def_index(&b, a.idx[i].name);
        assert_non_null(x);
        assert_int_equal(x->proj, a.idx[i].proj);
        assert_string_equal(x->pk.name, a.idx[i].pk.name);
    }
    table_def_free(&a);
    table_def_free(&b);
    /* The description is cached: one DescribeTable for the both. */
    int calls = w.calls;
    assert_int_equal(store_describe(r, "StudentCourses", &b, &d), ST_OK);
    table_def_free(&b);
    assert_int_equal(w.calls, calls);

    table_stats ls, rs;
    assert_int_equal(store_stats(local_store, "StudentCourses", "GSI1", &ls, &d), ST_OK);
    assert_int_equal(store_stats(r, "StudentCourses", "GSI1", &rs, &d), ST_OK);
    assert_int_equal(rs.items, ls.items);
    assert_int_equal(rs.bytes, ls.bytes);
    assert_true(rs.approximate);
    assert_false(ls.approximate);
    assert_int_equal(store_stats(r, "StudentCourses", "Nope", &rs, &d), ST_VALIDATION);
    assert_int_equal(store_describe(r, "NoSuchTable", &b, &d), ST_NOT_FOUND);
    store_close(r);
}

/* The local store's count of partition pk among want[0..nw). */
static uint64_t want_items(const part_info *want, size_t nw, const av *pk)
{
    for (size_t i = 0; i < nw; i++)
        if (av_equal(&want[i].pk, pk))
            return want[i].items;
    fail_msg("a partition the local store does not have");
    return 0;
}

/* Every partition of table/index, walked one at a time as the explorer
 * does (issue 42: discovered as the user pages, a Scan of Limit 1 after
 * the last item of the partition before), must be the local store's set;
 * counts are unknown until a page held a whole partition or
 * store_count_partitions (in pages of scan_limit items) counted them all;
 * walking back from the last gives the same order reversed. */
static void walk_partitions(const char *table, const char *index, size_t scan_limit)
{
    wire w;
    store *r = open_remote(&w, 0, scan_limit);
    diag d;
    diag_init(&d);
    part_info want[512], got[512], one;
    size_t nw = 0, ng = 0, n;
    assert_int_equal(store_partitions(local_store, table, index, NULL, false, 512, want, &nw, &d),
                     ST_OK);
    assert_true(nw > 1 && nw < 512);

    /* The first partition: one Scan of Limit 1 (and the description). */
    int calls = w.calls;
    assert_int_equal(store_partitions(r, table, index, NULL, false, 1, &one, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_true(w.calls - calls <= 2);
    assert_non_null(strstr(w.last, "\"Limit\":1"));
    assert_int_equal(one.items, STORE_ITEMS_UNKNOWN);
    uint64_t known;
    bool complete;
    assert_int_equal(store_scan_state(r, table, index, &known, &complete, &d), ST_OK);
    assert_false(complete);
    assert_int_equal(known, 1);
    got[ng++] = one;
    for (;;) {
        calls = w.calls;
        assert_int_equal(store_partitions(r, table, index, &got[ng - 1].pk, false, 1, &one, &n, &d),
                         ST_OK);
        /* The last item of the one before (Query Limit 1), a Scan Limit 1. */
        assert_true(w.calls - calls <= 2);
        if (n == 0)
            break;
        assert_true(ng < 512);
        got[ng++] = one;
    }
    assert_int_equal(store_scan_state(r, table, index, &known, &complete, &d), ST_OK);
    assert_true(complete);
    assert_int_equal(known, nw);
    assert_int_equal(ng, nw);
    for (size_t i = 0; i < ng; i++)
        want_items(want, nw, &got[i].pk);   /* each one is the local store's */

    /* A page that holds a whole partition counts it, for free. */
    av page[512];
    assert_int_equal(store_page(r, table, index, &got[0].pk, NULL, true, 512, page, &n, &d), ST_OK);
    uint64_t c = 0;
    assert_true(store_partition_counted(r, table, index, &got[0].pk, &c));
    assert_int_equal(c, n);
    assert_int_equal(c, want_items(want, nw, &got[0].pk));
    for (size_t i = 0; i < n; i++)
        av_done(&page[i]);

    /* Counted when asked: every partition, the local store's counts;
     * with a way to send together (scan_limit 0 here), in 8 parallel
     * Scan segments sent at once. */
    if (!scan_limit)
        store_set_send_many(r, send_many_local, &w);
    calls = w.calls;
    assert_int_equal(store_count_partitions(r, table, index, NULL, NULL, &d), ST_OK);
    assert_non_null(strstr(w.ops, "Scan"));
    if (!scan_limit) {
        assert_true(w.many >= 1);
        assert_non_null(strstr(w.last, "\"TotalSegments\":8"));
    }
    uint64_t total = 0;
    for (size_t i = 0; i < ng; i++) {
        assert_true(store_partition_counted(r, table, index, &got[i].pk, &c));
        assert_int_equal(c, want_items(want, nw, &got[i].pk));
        total += c;
    }
    table_stats ts;
    assert_int_equal(store_stats(local_store, table, index, &ts, &d), ST_OK);
    assert_int_equal(total, ts.items);

    /* Backward from the end (NULL: the last discovered), one at a time. */
    part_info back[512];
    size_t nb = 0;
    calls = w.calls;
    assert_int_equal(store_partitions(r, table, index, NULL, true, 1, &back[0], &n, &d), ST_OK);
    assert_int_equal(n, 1);
    nb = 1;
    for (;;) {
        assert_int_equal(store_partitions(r, table, index, &back[nb - 1].pk, true, 1, &one, &n, &d),
                         ST_OK);
        if (n == 0)
            break;
        back[nb++] = one;
    }
    assert_int_equal(w.calls, calls);   /* all known: nothing asked */
    assert_int_equal(nb, ng);
    for (size_t i = 0; i < nb; i++) {
        assert_true(av_equal(&back[i].pk, &got[ng - 1 - i].pk));
        assert_int_equal(back[i].items, want_items(want, nw, &back[i].pk));
    }
    /* Several at once from the middle, both ways. */
    part_info many[8];
    assert_int_equal(store_partitions(r, table, index, &got[1].pk, false, 3, many, &n, &d), ST_OK);
    assert_int_equal(n, ng - 2 < 3 ? ng - 2 : 3);
    for (size_t i = 0; i < n; i++)
        assert_true(av_equal(&many[i].pk, &got[2 + i].pk));
    free_parts(many, n);
    assert_int_equal(store_partitions(r, table, index, &got[2].pk, true, 8, many, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    assert_true(av_equal(&many[0].pk, &got[1].pk));
    assert_true(av_equal(&many[1].pk, &got[0].pk));
    free_parts(many, n);
    /* A partition that does not exist has nothing after it. */
    av nope;
    av_init_s(&nope, "NOPE#nope", 9);
    assert_int_equal(store_partitions(r, table, index, &nope, false, 1, &one, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    av_done(&nope);

    store_info info;
    store_get_info(r, &info);
    assert_true(info.rcu > 0);
    assert_false(info.writable);

    free_parts(want, nw);
    free_parts(got, ng);
    free_parts(back, nb);
    store_close(r);
}

static void partitions_of_the_table(void **state)
{
    walk_partitions("StudentCourses", NULL, 3);
    walk_partitions("StudentCourses", NULL, 0);
}

static void partitions_of_a_gsi(void **state)
{
    walk_partitions("StudentCourses", "GSI1", 2);
    walk_partitions("SocialGraph", "GSI1", 50);
}

/* By size ranks the counted partitions, the others after them, and reads
 * nothing beyond the first partition (issue 42: no hidden Scan of the
 * table); after store_count_partitions it is the local ranking. */
static void by_size_is_partial_then_whole(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 40);
    diag d;
    diag_init(&d);
    part_info top[8], want[8];
    size_t n, nw;
    uint64_t known;
    bool complete;
    assert_int_equal(store_partitions_by_size(r, "SocialGraph", "GSI1", 8, top, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_int_equal(top[0].items, STORE_ITEMS_UNKNOWN);
    assert_int_equal(store_scan_state(r, "SocialGraph", "GSI1", &known, &complete, &d), ST_OK);
    assert_false(complete);
    free_parts(top, n);
    assert_int_equal(store_count_partitions(r, "SocialGraph", "GSI1", NULL, NULL, &d), ST_OK);
    assert_int_equal(store_scan_state(r, "SocialGraph", "GSI1", &known, &complete, &d), ST_OK);
    assert_true(complete);
    assert_int_equal(store_partitions_by_size(r, "SocialGraph", "GSI1", 8, top, &n, &d), ST_OK);
    assert_int_equal(store_partitions_by_size(local_store, "SocialGraph", "GSI1", 8, want, &nw, &d),
                     ST_OK);
    assert_int_equal(n, nw);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(top[i].items, want[i].items);
    assert_true(av_equal(&top[0].pk, &want[0].pk));
    free_parts(top, n);
    free_parts(want, nw);
    store_close(r);
}

/* A partition asked for before paging reached it is checked by a Query
 * of Limit 1 and kept; paging meets it later once, not twice. */
static void partition_located_ahead_of_the_scan(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 1);
    diag d;
    diag_init(&d);
    av pk;
    av_init_s(&pk, "STU#d33", 7);
    part_info one;
    size_t n;
    assert_int_equal(store_partitions(r, "StudentCourses", NULL, &pk, false, 1, &one, &n, &d), ST_OK);
    assert_non_null(strstr(w.ops, "Query"));
    if (n)
        av_done(&one.pk);
    /* Walk everything: STU#d33 once. */
    int seen = 0, parts = 0;
    av prev = { 0 };
    for (;;) {
        assert_int_equal(store_partitions(r, "StudentCourses", NULL, prev.type ? &prev : NULL, false,
                                          1, &one, &n, &d), ST_OK);
        if (!n)
            break;
        parts++;
        if (av_equal(&one.pk, &pk))
            seen++;
        av_done(&prev);
        av_move(&prev, &one.pk);
    }
    av_done(&prev);
    assert_int_equal(seen, 1);
    assert_int_equal(parts, 8);
    av_done(&pk);
    store_close(r);
}

/* store_send_mixed_fn over the same wire, one after another. */
static status send_mixed_local(void *ctx, size_t n, const char *const *ops, const char *const *inputs,
                               const size_t *lens, char **outs, status *sts, diag *ds)
{
    wire *w = ctx;
    w->many++;
    for (size_t i = 0; i < n; i++) {
        diag_init(&ds[i]);
        sts[i] = send_local(ctx, ops[i], inputs[i], lens[i], &outs[i], &ds[i]);
    }
    return ST_OK;
}

/* f's probes (issue 42): the partitions not met yet looked for together,
 * one Query of Limit 1 each, in one send; a partition met costs nothing,
 * and the ones found are met afterwards. */
static void partitions_met_together(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    store_set_send_many(r, send_many_local, &w);
    diag d;
    diag_init(&d);
    table_def def;
    assert_int_equal(store_describe(r, "StudentCourses", &def, &d), ST_OK);
    table_def_free(&def);
    av pks[3];
    av_init_s(&pks[0], "STU#nobody", 10);
    av_init_s(&pks[1], "STU#d33", 7);
    av_init_s(&pks[2], "STU#d33", 7);
    const char *ix[3] = { NULL, NULL, "GSI1" };
    bool found[3];
    int calls = w.calls;
    assert_int_equal(store_partitions_meet(r, "StudentCourses", 3, ix, pks, found, &d), ST_OK);
    assert_int_equal(w.many, 1);
    assert_int_equal(w.calls, calls + 3);
    assert_false(found[0]);
    assert_true(found[1]);
    assert_false(found[2]);   /* GSI1's partitions are courses */
    calls = w.calls;
    part_info pi;
    bool met = false;
    assert_int_equal(store_partition_meet(r, "StudentCourses", NULL, &pks[1], &pi, &met, &d), ST_OK);
    assert_true(met);
    av_done(&pi.pk);
    assert_int_equal(w.calls, calls);   /* met: nothing asked */
    assert_true(store_partition_shape_met(r, "StudentCourses", NULL, "STU#", 4));
    assert_false(store_partition_shape_met(r, "StudentCourses", NULL, "CRS#", 4));
    for (int i = 0; i < 3; i++)
        av_done(&pks[i]);
    store_close(r);
}

/* Opening a table view (issue 42): the description, the TTL setting and
 * the first screen's Scan in one send of three requests; then the reads
 * that stand for them ask nothing more. */
static void view_prefetch_together(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    store_set_send_mixed(r, send_mixed_local, &w);
    store_set_page_hint(r, 10);
    diag d;
    diag_init(&d);
    assert_int_equal(store_view_prefetch(r, "StudentCourses", NULL, true, &d), ST_OK);
    assert_int_equal(w.many, 1);
    assert_string_equal(w.ops, "DescribeTable DescribeTimeToLive Scan");
    int calls = w.calls;
    table_def def;
    assert_int_equal(store_describe(r, "StudentCourses", &def, &d), ST_OK);
    table_def_free(&def);
    char *ttl = NULL;
    assert_int_equal(store_ttl_get(r, "StudentCourses", &ttl, &d), ST_OK);
    free(ttl);
    part_info one;
    size_t n = 0;
    assert_int_equal(store_partitions(r, "StudentCourses", NULL, NULL, false, 1, &one, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    av_done(&one.pk);
    assert_int_equal(w.calls, calls);   /* all three known */
    /* Known now: nothing to send again. */
    assert_int_equal(store_view_prefetch(r, "StudentCourses", NULL, true, &d), ST_OK);
    assert_int_equal(w.calls, calls);
    /* A table that does not exist: its DescribeTable's error. */
    assert_int_not_equal(store_view_prefetch(r, "NoSuchTable", NULL, true, &d), ST_OK);
    assert_non_null(strstr(d.msg, "NoSuchTable"));
    store_close(r);
}

typedef struct budget_log {
    int asked;
    bool answer;
    double used, budget, raised;
} budget_log;

static bool budget_ask(void *ctx, double used, double budget, double raised)
{
    budget_log *b = ctx;
    b->asked++;
    b->used = used;
    b->budget = budget;
    b->raised = raised;
    return b->answer;
}

/* A session read budget (issue 42): reads go until what was read reaches
 * it; then each read asks first; declined, nothing is sent; accepted, the
 * budget grows by its first amount. A 1 MB page that could pass it asks
 * before it is sent. */
static void read_budget_asks_first(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    diag d;
    diag_init(&d);
    budget_log b = { 0, false, 0, 0, 0 };
    store_set_read_budget(r, 1, budget_ask, &b);
    assert_true(store_read_budget(r) == 1);
    av pk, items[64];
    size_t n;
    av_init_s(&pk, "STU#a91", 7);
    /* Until the budget is reached: no question. */
    while (b.asked == 0) {
        diag_init(&d);
        status st = store_page(r, "StudentCourses", NULL, &pk, NULL, true, 64, items, &n, &d);
        for (size_t i = 0; i < n; i++)
            av_done(&items[i]);
        if (st != ST_OK) {
            assert_int_equal(st, ST_IO);
            assert_non_null(strstr(d.msg, "Budget: the session has read"));
            break;
        }
    }
    assert_int_equal(b.asked, 1);
    assert_true(b.used >= 1);
    int calls = w.calls;
    /* Declined again: nothing sent. */
    assert_int_equal(store_page(r, "StudentCourses", NULL, &pk, NULL, true, 64, items, &n, &d), ST_IO);
    assert_int_equal(w.calls, calls);
    /* Accepted: sent, the budget one more amount. */
    b.answer = true;
    assert_int_equal(store_page(r, "StudentCourses", NULL, &pk, NULL, true, 64, items, &n, &d), ST_OK);
    for (size_t i = 0; i < n; i++)
        av_done(&items[i]);
    assert_true(store_read_budget(r) >= 2);
    assert_int_equal(w.calls, calls + 1);
    /* A whole-table count (1 MB pages, up to 128 RCU each) asks first. */
    b.answer = false;
    int asked = b.asked;
    assert_int_equal(store_count_partitions(r, "StudentCourses", NULL, NULL, NULL, &d), ST_IO);
    assert_int_equal(b.asked, asked + 1);
    /* Accepted: asked once for that read (not once per amount the budget
     * would need to cover its 128 RCU: issue 42), the read sent whole,
     * the budget what the question said. */
    b.answer = true;
    asked = b.asked;
    calls = w.calls;
    double before = store_read_budget(r);
    assert_int_equal(store_count_partitions(r, "StudentCourses", NULL, NULL, NULL, &d), ST_OK);
    assert_int_equal(b.asked, asked + 1);
    assert_true(w.calls > calls);
    assert_true(b.raised > before);
    assert_true(store_read_budget(r) == b.raised);
    av_done(&pk);
    store_close(r);
}

/* store_get_many (issue 42: staging many marked items read them one
 * GetItem each): every item of a table and 230 keys with no item, read back
 * by BatchGetItems of at most 100 keys (API reference, BatchGetItem),
 * sent together (the many function), each found item as the Scan read
 * it, the missing ones AV_NONE. */
static void get_many_reads_by_batches(void **state)
{
    (void)state;
    wire w;
    store *r = open_remote(&w, 0, 0);
    store_set_send_many(r, send_many_local, &w);
    diag d;
    diag_init(&d);
    const char *table = "StudentCourses";
    table_def def;
    assert_int_equal(store_describe(local_store, table, &def, &d), ST_OK);
    ddb_req scan;
    ddb_res all;
    ddb_err err;
    ddb_req_init(&scan, DDB_SCAN);
    ddb_req_set_str(&scan.table, table);
    ddb_res_init(&all);
    ddb_err_init(&err);
    assert_int_equal(store_exec(local_store, &scan, &all, &err), ST_OK);
    size_t n = all.n_items + 230;   /* past 100 keys: 3 requests, sent together */
    av *keys = calloc(n, sizeof *keys), *out = calloc(n, sizeof *out);
    for (size_t i = 0; i < all.n_items; i++) {
        av_init_list(&keys[i], AV_M);
        av c;
        av_copy(&c, av_map_get(&all.items[i], def.pk.name, strlen(def.pk.name)));
        av_map_put(&keys[i], def.pk.name, strlen(def.pk.name), &c);
        av_copy(&c, av_map_get(&all.items[i], def.sk.name, strlen(def.sk.name)));
        av_map_put(&keys[i], def.sk.name, strlen(def.sk.name), &c);
    }
    for (size_t i = all.n_items; i < n; i++) {
        char sk[48];
        snprintf(sk, sizeof sk, "no such item %zu", i);
        av_copy(&keys[i], &keys[0]);
        av c;
        av_init_s(&c, sk, strlen(sk));
        av_map_put(&keys[i], def.sk.name, strlen(def.sk.name), &c);
    }
    w.calls = 0;
    w.ops[0] = 0;
    assert_int_equal(store_get_many(r, table, &def, keys, n, true, NULL, NULL, out, &d), ST_OK);
    assert_int_equal(w.calls, (int)((n + 99) / 100));
    int batches = 0;
    for (const char *p = w.ops; (p = strstr(p, "BatchGetItem")); p++)
        batches++;
    assert_int_equal(batches, w.calls);   /* every request a BatchGetItem */
    assert_int_equal(w.many, n > 100 ? 1 : 0);
    print_message("# %zu keys: %d BatchGetItems\n", n, w.calls);
    for (size_t i = 0; i < all.n_items; i++)
        assert_true(av_equal(&out[i], &all.items[i]));
    for (size_t i = all.n_items; i < n; i++)
        assert_int_equal(out[i].type, AV_NONE);
    for (size_t i = 0; i < n; i++) {
        av_done(&keys[i]);
        av_done(&out[i]);
    }
    free(keys);
    free(out);
    ddb_req_done(&scan);
    ddb_res_done(&all);
    ddb_err_done(&err);
    table_def_free(&def);
    store_close(r);
}

static void compare_pages(const char *table, const char *index, const char *pkv, size_t step)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    diag d;
    diag_init(&d);
    av pk;
    av_init_s(&pk, pkv, strlen(pkv));
    for (int fwd = 1; fwd >= 0; fwd--) {
        av want[64], got[64];
        size_t nw, ng = 0, n;
        assert_int_equal(store_page(local_store, table, index, &pk, NULL, fwd, 64, want, &nw, &d),
                         ST_OK);
        assert_true(nw >= 2);
        /* In steps, each page starting after the last item of the one before. */
        for (;;) {
            assert_int_equal(store_page(r, table, index, &pk, ng ? &got[ng - 1] : NULL, fwd, step,
                                        got + ng, &n, &d), ST_OK);
            assert_true(n <= step);
            ng += n;
            if (n < step)
                break;
            assert_true(ng < 64 - step);
        }
        assert_int_equal(ng, nw);
        for (size_t i = 0; i < nw; i++) {
            assert_true(av_equal(&got[i], &want[i]));
            av_done(&got[i]);
            av_done(&want[i]);
        }
    }
    assert_non_null(strstr(w.last, "\"ExclusiveStartKey\""));
    assert_int_equal(store_page(r, table, "Nope", &pk, NULL, true, 5, NULL, &(size_t){ 0 }, &d),
                     ST_VALIDATION);
    av_done(&pk);
    store_close(r);
}

static void pages_of_table_and_gsi(void **state)
{
    compare_pages("StudentCourses", NULL, "STU#a91", 1);
    compare_pages("StudentCourses", NULL, "STU#a91", 3);
    compare_pages("StudentCourses", "GSI1", "CRS#math204", 1);
    compare_pages("StudentCourses", "Roster", "CRS#math204", 2);   /* KEYS_ONLY */
    compare_pages("SocialGraph", "GSI1", "TARGET#bob", 1);
}

/* Every item of the table once, in the order store_wscan hands them out
 * (at most 512), and the read's stats. */
static size_t wscan_all(store *r, const store_wscan_opts *o, av *got, store_wscan_stats *ss)
{
    store_wscan *ws = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_wscan_open(r, o, &ws, &d), ST_OK);
    size_t ng = 0;
    for (;;) {
        av *items;
        size_t n;
        bool end;
        assert_int_equal(store_wscan_next(ws, &items, &n, &end, &d), ST_OK);
        for (size_t i = 0; i < n; i++) {
            assert_true(ng < 512);
            av_move(&got[ng++], &items[i]);
        }
        if (end)
            break;
    }
    store_wscan_get_stats(ws, ss);
    store_wscan_free(ws);
    return ng;
}

static bool sk_from_a(void *ctx, const av *item)
{
    (void)ctx;
    const av *sk = av_map_get(item, "SK", 2);
    return sk && sk->type == AV_S && sk->u.s.len > 0 && sk->u.s.ptr[0] == 'A';
}

/* A whole read in parallel Scan segments (issue 42 item 4): TotalSegments
 * from the table's size (here pages of 2 items: one segment a page, up to
 * 8), each round sent together, every item once; keys only projects the
 * keys; by_round with a filter keeps what it keeps, in the rounds' order. */
static void whole_read_in_segments(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 2);
    store_set_send_many(r, send_many_local, &w);
    diag d;
    diag_init(&d);
    table_stats ts;
    assert_int_equal(store_stats(local_store, "Music", NULL, &ts, &d), ST_OK);
    int want = ts.items / 2 + (ts.items % 2) > 8 ? 8 : (int)(ts.items / 2 + ts.items % 2);
    assert_true(want > 1);
    assert_int_equal(store_wscan_plan(r, "Music", NULL, &d), want);
    ddb_req q;
    ddb_req_init(&q, DDB_SCAN);
    ddb_req_set_str(&q.table, "Music");
    av got[512];
    store_wscan_stats ss;
    store_wscan_opts o = { .scan = &q };
    w.many = 0;
    size_t ng = wscan_all(r, &o, got, &ss);
    assert_int_equal(ng, ts.items);
    assert_int_equal(ss.segments, want);
    assert_int_equal(ss.segments_done, want);
    assert_true(ss.pages >= (uint64_t)want);
    assert_true(w.many >= 1);   /* the rounds went together */
    assert_non_null(strstr(w.last, "\"TotalSegments\":"));
    for (size_t i = 0; i < ng; i++)
        for (size_t j = i + 1; j < ng; j++)
            assert_false(av_equal(&got[i], &got[j]));   /* each item once */
    for (size_t i = 0; i < ng; i++)
        av_done(&got[i]);

    /* Keys only: the table's two key attributes, nothing else. */
    o.keys_only = true;
    ng = wscan_all(r, &o, got, &ss);
    assert_int_equal(ng, ts.items);
    assert_non_null(strstr(w.last, "\"ProjectionExpression\":\"#wk0, #wk1\""));
    for (size_t i = 0; i < ng; i++) {
        assert_int_equal(got[i].u.m.len, 2);
        av_done(&got[i]);
    }

    /* by_round, a filter: the items kept, no other. */
    o.keys_only = false;
    o.by_round = true;
    o.keep = sk_from_a;
    ng = wscan_all(r, &o, got, &ss);
    assert_true(ng > 0 && ng < ts.items);
    assert_int_equal(ss.kept, ng);
    for (size_t i = 0; i < ng; i++) {
        assert_true(sk_from_a(NULL, &got[i]));
        av_done(&got[i]);
    }
    ddb_req_done(&q);
    store_close(r);
}

static const char put_req[] =
    "{\"TableName\":\"ProfileHistory\",\"Item\":{\"user_id\":{\"S\":\"remote-test\"},"
    "\"update_timestamp\":{\"S\":\"2026-01-01T00:00:00Z\"}}}";

static bool local_has_item(void)
{
    static const char get[] = "{\"TableName\":\"ProfileHistory\",\"Key\":{\"user_id\":{\"S\":"
                              "\"remote-test\"},\"update_timestamp\":{\"S\":\"2026-01-01T00:00:00Z\"}}}";
    char *out = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_call(local_store, "GetItem", get, strlen(get), &out, &d), ST_OK);
    bool has = strstr(out, "\"Item\"") != NULL;
    free(out);
    return has;
}

typedef struct gate_log {
    int asked;
    bool answer;
    char what[512];
} gate_log;

static bool gate(void *ctx, const char *what)
{
    gate_log *g = ctx;
    g->asked++;
    snprintf(g->what, sizeof g->what, "%s", what);
    return g->answer;
}

static void writes_refused_without_the_flag(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    gate_log g = { 0, true, "" };
    store_set_write_gate(r, gate, &g);
    diag d;
    diag_init(&d);
    char *out = NULL;
    assert_int_equal(store_call(r, "PutItem", put_req, strlen(put_req), &out, &d), ST_READ_ONLY);
    assert_null(out);
    assert_non_null(strstr(d.msg, "--write"));
    assert_int_equal(w.calls, 0);   /* nothing was sent */
    assert_int_equal(g.asked, 0);
    assert_false(local_has_item());
    assert_int_equal(store_put_item(r, "ProfileHistory", &(av){ 0 }, &d), ST_READ_ONLY);
    static const char txn[] = "{\"TransactItems\":[]}";
    assert_int_equal(store_call(r, "TransactWriteItems", txn, strlen(txn), &out, &d), ST_READ_ONLY);
    assert_int_equal(store_call(r, "SomeNewOperation", "{}", 2, &out, &d), ST_READ_ONLY);
    assert_int_equal(w.calls, 0);
    store_info info;
    store_get_info(r, &info);
    assert_true(info.remote);
    assert_false(info.writable);
    assert_string_equal(info.where, "test endpoint (local)");
    store_close(r);

    /* STORE_READ_ONLY wins over the write flag. */
    r = open_remote(&w, STORE_REMOTE_WRITE | STORE_READ_ONLY, 0);
    assert_int_equal(store_call(r, "PutItem", put_req, strlen(put_req), &out, &d), ST_READ_ONLY);
    assert_int_equal(w.calls, 0);
    store_close(r);
}

static void writes_ask_first_with_the_flag(void **state)
{
    wire w;
    store *r = open_remote(&w, STORE_REMOTE_WRITE, 0);
    gate_log g = { 0, false, "" };
    store_set_write_gate(r, gate, &g);
    diag d;
    diag_init(&d);
    char *out = NULL;
    /* Declined: nothing sent. */
    assert_int_equal(store_call(r, "PutItem", put_req, strlen(put_req), &out, &d), ST_READ_ONLY);
    assert_int_equal(g.asked, 1);
    assert_non_null(strstr(g.what, "PutItem on ProfileHistory"));
    assert_non_null(strstr(g.what, "user_id=remote-test"));
    assert_non_null(strstr(g.what, "update_timestamp=2026-01-01T00:00:00Z"));
    assert_null(strstr(w.ops, "PutItem"));
    assert_non_null(strstr(d.msg, "declined, not sent: PutItem on ProfileHistory, key "));
    assert_false(local_has_item());
    /* Allowed: written, and asked again (every time). */
    g.answer = true;
    assert_int_equal(store_call(r, "PutItem", put_req, strlen(put_req), &out, &d), ST_OK);
    free(out);
    assert_int_equal(g.asked, 2);
    assert_true(local_has_item());
    static const char del[] = "{\"TableName\":\"ProfileHistory\",\"Key\":{\"user_id\":{\"S\":"
                              "\"remote-test\"},\"update_timestamp\":{\"S\":\"2026-01-01T00:00:00Z\"}}}";
    assert_int_equal(store_call(r, "DeleteItem", del, strlen(del), &out, &d), ST_OK);
    free(out);
    assert_int_equal(g.asked, 3);
    assert_non_null(strstr(g.what, "DeleteItem on ProfileHistory, key "));
    assert_false(local_has_item());
    /* Reads never ask. */
    assert_int_equal(store_call(r, "GetItem", del, strlen(del), &out, &d), ST_OK);
    free(out);
    assert_int_equal(g.asked, 3);
    store_close(r);
}

static void capacity_is_summed(void **state)
{
    wire w;
    store *r = open_remote(&w, STORE_REMOTE_WRITE, 0);
    diag d;
    diag_init(&d);
    char *out = NULL;
    static const char get[] = "{\"TableName\":\"StudentCourses\",\"Key\":{\"PK\":{\"S\":\"STU#a91\"},"
                              "\"SK\":{\"S\":\"PROFILE\"}}}";
    static const char strong[] = "{\"TableName\":\"StudentCourses\",\"ConsistentRead\":true,"
                                 "\"Key\":{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"PROFILE\"}}}";
    /* The request did not ask for the capacity: the store adds it. */
    assert_int_equal(store_call(r, "GetItem", get, strlen(get), &out, &d), ST_OK);
    assert_non_null(strstr(w.last, "\"ReturnConsumedCapacity\":\"TOTAL\""));
    assert_non_null(strstr(out, "ConsumedCapacity"));
    free(out);
    assert_int_equal(store_call(r, "GetItem", strong, strlen(strong), &out, &d), ST_OK);
    free(out);
    store_info info;
    store_get_info(r, &info);
    /* A small item: 0.5 RCU eventually consistent, 1 strongly. */
    assert_true(info.rcu > 1.49 && info.rcu < 1.51);
    assert_true(info.wcu == 0);
    assert_int_equal(info.requests, 2);
    assert_int_equal(store_call(r, "PutItem", put_req, strlen(put_req), &out, &d), ST_OK);
    free(out);
    store_get_info(r, &info);
    assert_true(info.wcu > 0.99 && info.wcu < 1.01);
    assert_true(info.writable);
    static const char del[] = "{\"TableName\":\"ProfileHistory\",\"Key\":{\"user_id\":{\"S\":"
                              "\"remote-test\"},\"update_timestamp\":{\"S\":\"2026-01-01T00:00:00Z\"}}}";
    assert_int_equal(store_call(r, "DeleteItem", del, strlen(del), &out, &d), ST_OK);
    free(out);
    store_close(r);
}

static void a_failing_transport_is_reported_and_recovered(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 3);
    diag d;
    diag_init(&d);
    part_info one, two;
    size_t n;
    assert_int_equal(store_partitions(r, "StudentCourses", NULL, NULL, false, 1, &one, &n, &d), ST_OK);
    w.fail = true;
    /* Past what is known: a Scan page is needed, and fails. */
    assert_int_equal(store_partitions(r, "StudentCourses", NULL, NULL, false, 8, &two, &n, &d), ST_IO);
    assert_int_equal(n, 0);
    assert_non_null(strstr(d.msg, "connection refused"));
    w.fail = false;
    part_info all[8];
    assert_int_equal(store_partitions(r, "StudentCourses", NULL, NULL, false, 8, all, &n, &d), ST_OK);
    assert_int_equal(n, 8);
    assert_true(av_equal(&all[0].pk, &one.pk));
    free_parts(all, n);
    av_done(&one.pk);
    /* After store_refresh everything is asked again. */
    store_refresh(r, NULL);
    int calls = w.calls;
    table_def def;
    assert_int_equal(store_describe(r, "StudentCourses", &def, &d), ST_OK);
    table_def_free(&def);
    assert_int_equal(w.calls, calls + 1);
    store_close(r);
}

static void bulk_load_through_batches(void **state)
{
    wire w;
    store *r = open_remote(&w, STORE_REMOTE_WRITE, 0);
    diag d;
    diag_init(&d);
    assert_int_equal(store_begin(r, &d), ST_OK);
    for (int i = 0; i < 30; i++) {
        char text[200];
        snprintf(text, sizeof text, "{\"user_id\":{\"S\":\"bulk\"},\"update_timestamp\":{\"S\":\"t%02d\"}}", i);
        av item;
        assert_int_equal(ddbjson_parse_item(text, strlen(text), &item, &d), ST_OK);
        assert_int_equal(store_put_item(r, "ProfileHistory", &item, &d), ST_OK);
        av_done(&item);
    }
    assert_int_equal(store_commit(r, &d), ST_OK);
    assert_non_null(strstr(w.ops, "BatchWriteItem BatchWriteItem"));
    av pk, items[40];
    size_t n;
    av_init_s(&pk, "bulk", 4);
    assert_int_equal(store_page(local_store, "ProfileHistory", NULL, &pk, NULL, true, 40, items, &n, &d),
                     ST_OK);
    assert_int_equal(n, 30);
    for (size_t i = 0; i < n; i++) {
        char del[200];
        const av *ts = av_map_get(&items[i], "update_timestamp", 16);
        snprintf(del, sizeof del, "{\"TableName\":\"ProfileHistory\",\"Key\":{\"user_id\":{\"S\":\"bulk\"},"
                 "\"update_timestamp\":{\"S\":\"%s\"}}}", ts->u.s.ptr);
        char *out = NULL;
        assert_int_equal(store_call(local_store, "DeleteItem", del, strlen(del), &out, &d), ST_OK);
        free(out);
        av_done(&items[i]);
    }
    av_done(&pk);
    store_close(r);
}

/* `ddbx api`'s line form over the remote store. */
static void call_lines(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    char *out = NULL;
    static const char get[] = "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"StudentCourses\","
                              "\"Key\":{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"PROFILE\"}}}}";
    assert_int_equal(store_call_line(r, get, strlen(get), &out), ST_OK);
    assert_true(strncmp(out, "{\"Output\":{", strlen("{\"Output\":{")) == 0);
    assert_non_null(strstr(out, "\"PK\":{\"S\":\"STU#a91\"}"));
    free(out);
    static const char put[] = "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"StudentCourses\","
                              "\"Item\":{\"PK\":{\"S\":\"X\"},\"SK\":{\"S\":\"Y\"}}}}";
    int calls = w.calls;
    assert_int_equal(store_call_line(r, put, strlen(put), &out), ST_READ_ONLY);
    static const char err[] = "{\"Error\":{\"Code\":\"ReadOnly\",\"Message\":";
    assert_true(strncmp(out, err, strlen(err)) == 0);
    assert_non_null(strstr(out, "--write"));
    assert_int_equal(w.calls, calls);
    free(out);
    assert_int_equal(store_call_line(r, "[1]", 3, &out), ST_SERIALIZATION);
    free(out);
    store_close(r);
}

/* PartiQL goes to the endpoint as it is: a request of SELECTs is a read
 * (sent without the write flag), any other statement a write (refused
 * without it); store_partiql_page works the same remotely. */
static void partiql_passes_through(void **state)
{
    wire w;
    store *r = open_remote(&w, 0, 0);
    store_partiql_result res;
    diag d;
    diag_init(&d);
    assert_int_equal(store_partiql_page(r, "SELECT SK FROM SocialGraph WHERE PK = 'ACTOR#alice'", NULL, 0, 0,
                                   NULL, &res, &d), ST_OK);
    assert_int_equal(res.n, 4);
    assert_true(res.capacity > 0);
    store_partiql_result_done(&res);
    store_info info;
    store_get_info(r, &info);
    assert_true(info.rcu > 0 && info.wcu == 0);   /* a SELECT counts as reading */
    assert_non_null(strstr(w.ops, "ExecuteStatement"));
    assert_non_null(strstr(w.last, "\"ReturnConsumedCapacity\":\"TOTAL\""));
    char *out = NULL;
    const char *batch = "{\"Statements\":[{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#song1' AND SK = 'A'\"}]}";
    assert_int_equal(store_call(r, "BatchExecuteStatement", batch, strlen(batch), &out, &d), ST_OK);
    free(out);
    int before = w.calls;
    assert_int_equal(store_partiql_page(r, "DELETE FROM Music WHERE PK = 's#song1' AND SK = 'A'", NULL, 0, 0,
                                   NULL, &res, &d), ST_READ_ONLY);
    assert_int_equal(w.calls, before);    /* nothing sent */
    store_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tables_and_descriptions),
        cmocka_unit_test(partitions_of_the_table),
        cmocka_unit_test(partitions_of_a_gsi),
        cmocka_unit_test(by_size_is_partial_then_whole),
        cmocka_unit_test(partition_located_ahead_of_the_scan),
        cmocka_unit_test(partitions_met_together),
        cmocka_unit_test(view_prefetch_together),
        cmocka_unit_test(pages_of_table_and_gsi),
        cmocka_unit_test(read_budget_asks_first),
        cmocka_unit_test(get_many_reads_by_batches),
        cmocka_unit_test(whole_read_in_segments),
        cmocka_unit_test(writes_refused_without_the_flag),
        cmocka_unit_test(writes_ask_first_with_the_flag),
        cmocka_unit_test(capacity_is_summed),
        cmocka_unit_test(a_failing_transport_is_reported_and_recovered),
        cmocka_unit_test(bulk_load_through_batches),
        cmocka_unit_test(call_lines),
        cmocka_unit_test(partiql_passes_through),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
