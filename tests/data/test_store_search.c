/*
 * store_search and store_position: `/` over the whole table and "item x
 * of y". The reference is the explorer's own browsing calls: every item
 * of the table or index, partition by partition (store_partitions) and
 * page by page (store_page), which is the order the table view shows.
 * Chaining store_search from match to match, forward and backward, with
 * budgets small enough to force resuming, must give exactly the items of
 * that walk that hold the text (in S or N values, case-insensitively),
 * and store_position must number each item as its place in the walk.
 * A remote store (a second, local store behind store_call) must find the
 * same matches with Scan pages.
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
#include "data/store_search.h"
#include "model/av.h"

static store *local;

static int setup(void **state)
{
    diag d;
    diag_init(&d);
    if (store_open(":memory:", 0, &local, &d) != ST_OK)
        return -1;
    if (samples_load(local, NULL, NULL, &d) != ST_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    store_close(local);
    return 0;
}

typedef struct walk {
    av items[8192];
    size_t n;
    uint64_t part_no[8192];
} walk;

static walk W;

/* Every item of the view in its order. */
static void walk_view(const char *table, const char *index)
{
    for (size_t i = 0; i < W.n; i++)
        av_done(&W.items[i]);
    W.n = 0;
    diag d;
    diag_init(&d);
    part_info p[1];
    size_t np = 0;
    av after = { 0 };
    uint64_t part = 0;
    for (;;) {
        assert_int_equal(store_partitions(local, table, index, after.type ? &after : NULL, false,
                                          1, p, &np, &d), ST_OK);
        if (np == 0)
            break;
        part++;
        av_done(&after);
        av_move(&after, &p[0].pk);
        const av *from = NULL;
        for (;;) {
            size_t n = 0;
            assert_true(W.n < 8192);
            assert_int_equal(store_page(local, table, index, &after, from, true, 1,
                                        &W.items[W.n], &n, &d), ST_OK);
            if (n == 0)
                break;
            from = &W.items[W.n];
            W.part_no[W.n] = part;
            W.n++;
        }
    }
    av_done(&after);
}

/* The matches of text by chaining store_search from NULL; their places
 * in the walk go to out. */
static size_t chain(store *s, const char *table, const char *index, const char *text,
                    bool backward, size_t budget, size_t *out, size_t max)
{
    store_search_req rq = { table, index, NULL, backward, text, strlen(text), budget };
    store_search_res res;
    store_search_res_init(&res);
    av at = { 0 };
    size_t k = 0;
    for (int guard = 0; guard < 100000; guard++) {
        diag d;
        diag_init(&d);
        assert_int_equal(store_search(s, &rq, &res, &d), ST_OK);
        assert_true(res.examined <= budget);
        if (res.end)
            break;
        av_done(&at);
        if (res.found) {
            size_t i = 0;
            while (i < W.n && !av_equal(&W.items[i], &res.item))
                i++;
            assert_true(i < W.n);   /* a match is an item of the view */
            assert_true(k < max);
            out[k++] = i;
            av_move(&at, &res.item);
        } else {
            av_move(&at, &res.resume);
        }
        rq.after = &at;
    }
    av_done(&at);
    store_search_res_done(&res);
    return k;
}

static void check(store *s, const char *table, const char *index, const char *text, size_t budget,
                  bool both_ways)
{
    walk_view(table, index);
    size_t want[8192], nw = 0;
    for (size_t i = 0; i < W.n; i++)
        if (store_search_value_matches(&W.items[i], text, strlen(text)))
            want[nw++] = i;
    size_t got[8192];
    size_t ng = chain(s, table, index, text, false, budget, got, 8192);
    assert_int_equal(ng, nw);
    for (size_t i = 0; i < nw; i++)
        assert_int_equal(got[i], want[i]);
    if (!both_ways)
        return;
    ng = chain(s, table, index, text, true, budget, got, 8192);
    assert_int_equal(ng, nw);
    for (size_t i = 0; i < nw; i++)
        assert_int_equal(got[i], want[nw - 1 - i]);
}

static void finds_what_the_walk_holds(void **state)
{
    (void)state;
    /* Keys, values, a number, a case that differs, nothing. */
    const char *texts[] = { "TARGET#", "carol", "ALICE", "2024-01", "1", "#", "no such text" };
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        check(local, "SocialGraph", NULL, texts[t], 3, true);
        check(local, "SocialGraph", "GSI1", texts[t], 2, true);
        check(local, "StudentCourses", NULL, texts[t], 1000, true);
    }
    /* A bigger table, resuming every 7 items. */
    check(local, "Music", NULL, "download", 7, true);
}

static void attribute_names_do_not_match(void **state)
{
    (void)state;
    walk_view("SocialGraph", NULL);
    size_t got[16];
    /* followedAt is a name only. */
    assert_int_equal(chain(local, "SocialGraph", NULL, "followedAt", false, 100, got, 16), 0);
}

static void positions_number_the_walk(void **state)
{
    (void)state;
    const char *views[][2] = { { "SocialGraph", NULL }, { "SocialGraph", "GSI1" },
                               { "StudentCourses", NULL } };
    for (size_t v = 0; v < 3; v++) {
        walk_view(views[v][0], views[v][1]);
        table_def def;
        diag d;
        diag_init(&d);
        assert_int_equal(store_describe(local, views[v][0], &def, &d), ST_OK);
        const char *pkn = def.pk.name;
        for (size_t i = 0; i < def.n_idx; i++)
            if (views[v][1] && strcmp(def.idx[i].name, views[v][1]) == 0)
                pkn = def.idx[i].pk.name;
        for (size_t i = 0; i < W.n; i++) {
            store_pos pos;
            const av *pk = av_map_get(&W.items[i], pkn, strlen(pkn));
            assert_non_null(pk);
            assert_int_equal(store_position(local, views[v][0], views[v][1], pk, true,
                                            &W.items[i], &pos, &d), ST_OK);
            assert_int_equal(pos.before_part + pos.in_part + 1, i + 1);
            assert_int_equal(pos.part_no, W.part_no[i]);
            /* The halves alone give the same. */
            store_pos half;
            assert_int_equal(store_position(local, views[v][0], views[v][1], pk, false,
                                            &W.items[i], &half, &d), ST_OK);
            assert_int_equal(half.in_part, pos.in_part);
            assert_int_equal(half.part_no, 0);
        }
        table_def_free(&def);
    }
}

static status send_local(void *ctx, const char *op, const char *input, size_t len, char **out,
                         diag *d)
{
    int *calls = ctx;
    (*calls)++;
    return store_call(local, op, input, len, out, d);
}

static void remote_searches_with_scan_pages(void **state)
{
    (void)state;
    int calls = 0;
    store *r;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open_remote(send_local, &calls, "test endpoint (local)", 0, &r, &d),
                     ST_OK);
    /* The local store behind it scans in key order, so the matches are
     * the walk's; Limit 3 makes it go on from LastEvaluatedKey. */
    check(r, "SocialGraph", NULL, "TARGET#", 3, false);
    check(r, "SocialGraph", "GSI1", "ACTOR#", 2, false);
    assert_true(calls > 3);
    store_pos pos;
    const av *after = NULL;
    store_search_req back = { "SocialGraph", NULL, after, true, "x", 1, 10 };
    store_search_res res;
    store_search_res_init(&res);
    assert_int_equal(store_search(r, &back, &res, &d), ST_VALIDATION);
    av pk;
    av_init_s(&pk, "ACTOR#alice", 11);
    assert_int_equal(store_position(r, "SocialGraph", NULL, &pk, true, NULL, &pos, &d), ST_VALIDATION);
    av_done(&pk);
    store_search_res_done(&res);
    store_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(finds_what_the_walk_holds),
        cmocka_unit_test(attribute_names_do_not_match),
        cmocka_unit_test(positions_number_the_walk),
        cmocka_unit_test(remote_searches_with_scan_pages),
    };
    int rc = cmocka_run_group_tests(tests, setup, teardown);
    for (size_t i = 0; i < W.n; i++)
        av_done(&W.items[i]);
    return rc;
}
