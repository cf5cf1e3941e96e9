/*
 * Access patterns mined from recorded requests (model/mine.c).
 *
 * Where the expectations come from: DynamoDB's developer guide, "Query
 * operations" and "Scan operations" (a Query's KeyConditionExpression,
 * a FilterExpression applied after the read, every item read counted in
 * ScannedCount and paid for), "Expression attribute names" and
 * "Expression attribute values" (placeholders are the caller's names:
 * `PK = :pk` and `PK = :user` are the same request), "Designing
 * partition keys to distribute your workload" (a hot key). Shapes, hot
 * thresholds and names are ddbx's own (model/mine.h).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/mine.h"
#include "model/pattern.h"

/* A Query of GSI1 for target h, its placeholder named ph. */
static void query(mine *m, double t, const char *ph, const char *h, uint64_t count)
{
    char kc[64], vname[16];
    snprintf(kc, sizeof kc, "GSI1PK  =  %s", ph);
    snprintf(vname, sizeof vname, "%s", ph);
    mine_pair v[] = { { vname, h } };
    mine_call c = { .op = "Query", .table = "SocialGraph", .index = "GSI1", .keycond = kc, .values = v,
                    .n_values = 1, .t = t, .units = 0.5, .ms = 0.2, .has_count = true, .count = count,
                    .scanned = count };
    mine_add(m, &c);
}

static void get(mine *m, double t, const char *pk)
{
    /* the key in the order a client sent it: SK first */
    mine_pair k[] = { { "SK", "S:profile" }, { "PK", pk } };
    mine_call c = { .op = "GetItem", .table = "SocialGraph", .key = k, .n_key = 2, .t = t, .units = 0.5,
                    .has_count = true, .count = 1 };
    mine_add(m, &c);
}

static void placeholders_do_not_split_a_pattern(void **state)
{
    (void)state;
    mine *m = mine_new();
    query(m, 100, ":t", "S:aaa", 2);
    query(m, 101, ":target", "S:bbb", 4);
    get(m, 102, "S:alice");
    assert_int_equal(mine_count(m), 2);
    assert_int_equal(mine_calls(m), 3);   /* before the backward one below */
    const mine_pattern *p = mine_get(m, 0);
    assert_string_equal(p->op, "Query");
    assert_string_equal(p->index, "GSI1");
    assert_string_equal(p->keycond, "GSI1PK = :p1");
    assert_int_equal(p->calls, 2);
    assert_int_equal(p->returned, 6);
    assert_int_equal(p->n_params, 1);
    assert_string_equal(p->param_types[0], "S");
    /* A GetItem's key, in name order, as a key condition. */
    p = mine_get(m, 1);
    assert_string_equal(p->keycond, "PK = :p1 AND SK = :p2");
    /* newest first (ScanIndexForward false) is another pattern */
    mine_pair v[] = { { ":t", "S:aaa" } };
    mine_call back = { .op = "Query", .table = "SocialGraph", .index = "GSI1", .keycond = "GSI1PK = :t",
                       .values = v, .n_values = 1, .backward = true, .t = 101 };
    mine_add(m, &back);
    assert_int_equal(mine_count(m), 3);
    assert_true(mine_get(m, 2)->backward);
    assert_true(fabs(mine_seconds(m) - 2) < 1e-9);
    assert_true(fabs(mine_rate(m, mine_get(m, 0)) - 1.0) < 1e-9);
    assert_true(fabs(mine_units_month(m, mine_get(m, 0)) - 0.5 * 730 * 3600) < 1e-6);
    mine_free(m);
}

static void names_resolve_and_filters_are_judged(void **state)
{
    (void)state;
    mine *m = mine_new();
    for (int i = 0; i < 10; i++) {
        mine_pair n[] = { { "#s", "status" } };
        mine_pair v[] = { { ":pk", "S:x" }, { ":v", "S:open" } };
        /* 100 read, 5 kept: the filter throws 95% away */
        mine_call c = { .op = "Query", .table = "T", .keycond = "PK = :pk", .filter = "#s = :v", .names = n,
                        .n_names = 1, .values = v, .n_values = 2, .t = i, .units = 2, .has_count = true,
                        .count = 5, .scanned = 100 };
        mine_add(m, &c);
    }
    mine_call scan = { .op = "Scan", .table = "T", .t = 9, .units = 40, .has_count = true, .count = 7,
                       .scanned = 7 };
    mine_add(m, &scan);
    mine_declare_index(m, "T", "ByStatus");
    assert_int_equal(mine_count(m), 2);
    const mine_pattern *p = mine_get(m, 0);
    assert_string_equal(p->filter, "#n1 = :p2");
    buf b = BUF_INIT;
    mine_shape_text(p, p->filter, &b);
    assert_string_equal(b.data, "status = :p2");
    buf_done(&b);
    mine_finding *f;
    size_t n;
    mine_findings(m, &f, &n);
    /* a Scan, a wasteful filter, an unused index; the one key of the
     * Query is hot only from MINE_HOT_MIN calls */
    assert_int_equal(n, 3);
    assert_int_equal(f[0].kind, MINE_F_SCAN);
    assert_int_equal(f[0].pattern, 1);
    assert_int_equal(f[1].kind, MINE_F_FILTER);
    assert_non_null(strstr(f[1].text, "keeps 5%"));
    assert_int_equal(f[2].kind, MINE_F_UNUSED_INDEX);
    assert_string_equal(f[2].index, "ByStatus");
    mine_findings_free(f, n);
    mine_free(m);
}

static void a_hot_key_is_named_with_bounded_memory(void **state)
{
    (void)state;
    mine *m = mine_new();
    /* 10,000 distinct keys once each, and one key 3,000 times: the
     * space-saving counters keep it whatever the others push through. */
    char h[32];
    for (int i = 0; i < 13000; i++) {
        if (i % 13 < 3)
            snprintf(h, sizeof h, "S:celebrity");
        else
            snprintf(h, sizeof h, "S:user%d", i);
        query(m, i / 100.0, ":t", h, 1);
    }
    const mine_pattern *p = mine_get(m, 0);
    assert_true(p->n_hot <= MINE_HOT_SLOTS);
    double share;
    const mine_hot *top = mine_top_key(p, &share);
    assert_string_equal(top->key, "S:celebrity");
    assert_true(share >= 0.23 && share < 0.3);
    assert_true(mine_is_hot(p));
    mine_finding *f;
    size_t n;
    mine_findings(m, &f, &n);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].kind, MINE_F_HOT);
    mine_findings_free(f, n);
    mine_free(m);
}

static void read_patterns_become_check_patterns(void **state)
{
    (void)state;
    mine *m = mine_new();
    for (int i = 0; i < 4; i++)
        query(m, 10 + i, ":t", "S:abc", 3);
    get(m, 13, "S:alice");
    mine_pair v[] = { { ":x", "N:123" } };
    mine_call put = { .op = "PutItem", .table = "SocialGraph", .values = v, .n_values = 1, .t = 13, .units = 1 };
    mine_add(m, &put);
    pattern_set set;
    pattern_set_init(&set);
    /* the write is no check pattern */
    assert_int_equal(mine_to_patterns(m, "SocialGraph", &set), 2);
    const pattern *q = pattern_set_find(&set, "query-SocialGraph-GSI1-1");
    assert_non_null(q);
    assert_int_equal(q->op, PAT_QUERY);
    assert_string_equal(q->keycond, "GSI1PK = :p1");
    assert_int_equal(q->n_params, 1);
    assert_string_equal(q->params[0].name, "p1");
    /* the hash stands for the value nobody recorded */
    assert_int_equal(q->params[0].example.type, AV_S);
    assert_int_equal(q->min_items, 0);
    assert_true(fabs(q->rate - 4.0 / 3.0) < 1e-9);
    assert_true(fabs(q->max_units - 0.5) < 1e-9);
    /* the measured figures read back from the description */
    mine_measured mm;
    assert_true(mine_measured_parse(q->description, &mm));
    assert_int_equal(mm.calls, 4);
    assert_true(fabs(mm.rate - 1.33) < 0.01 && fabs(mm.returned - 3) < 1e-9 && fabs(mm.units - 0.5) < 1e-9);
    assert_false(mine_measured_parse("A song's details", &mm));
    const pattern *g = pattern_set_find(&set, "getitem-SocialGraph-2");
    assert_non_null(g);
    assert_int_equal(g->op, PAT_GET);
    pattern_set_done(&set);
    mine_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(placeholders_do_not_split_a_pattern),
        cmocka_unit_test(names_resolve_and_filters_are_judged),
        cmocka_unit_test(a_hot_key_is_named_with_bounded_memory),
        cmocka_unit_test(read_patterns_become_check_patterns),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
