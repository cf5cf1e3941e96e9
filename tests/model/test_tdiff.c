/*
 * The key-ordered merge of two table states (model/tdiff.c).
 *
 * Where the expectations come from: DynamoDB's developer guide, "Core
 * components: primary key" (an item is identified by its partition key
 * and sort key; two items never share both) and "Query: key condition
 * expressions" (sort keys order S by UTF-8 bytes, N by value, B by
 * bytes), the order a Query returns and the store keeps (model/keyenc).
 * Added / removed / changed and the per-prefix summary are ddbx's own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/tdiff.h"

/* A side over an array of DynamoDB JSON items; counts the calls. */
typedef struct arr {
    const char *const *items;
    size_t n, at;
    size_t calls;
} arr;

static status arr_next(void *ctx, av *item, bool *end, diag *d)
{
    arr *a = ctx;
    a->calls++;
    if (a->at == a->n) {
        *end = true;
        return ST_OK;
    }
    *end = false;
    const char *j = a->items[a->at++];
    return ddbjson_parse_item(j, strlen(j), item, d);
}

static key_attr PK = { "PK", AV_S }, SK = { "SK", AV_S }, NOSK = { NULL, AV_NONE };

/* Runs the diff; each event as a line: "+ KEY", "- KEY", "~ KEY path: old -> new; ...". */
static status run(const char *const *a, size_t na, const char *const *b, size_t nb,
                  const key_attr *pk, const key_attr *sk, buf *out, tdiff_summary *sum, diag *d)
{
    arr x = { a, na, 0, 0 }, y = { b, nb, 0, 0 };
    tdiff *t = tdiff_new(pk, sk, (tdiff_side){ arr_next, &x, "A" }, (tdiff_side){ arr_next, &y, "B" });
    status st;
    for (;;) {
        tdiff_event ev;
        bool done;
        st = tdiff_next(t, &ev, &done, d);
        if (st != ST_OK || done)
            break;
        buf_adds(out, ev.kind == TDIFF_ADDED ? "+ " : ev.kind == TDIFF_REMOVED ? "- " : "~ ");
        tdiff_key_text(pk, sk, ev.a ? ev.a : ev.b, out);
        buf_printf(out, " [%s]", ev.prefix);
        for (size_t i = 0; i < ev.n_changes; i++) {
            const itemdiff_change *c = &ev.changes[i];
            buf_adds(out, i ? "; " : " ");
            itemdiff_path_text(c->path, c->depth, out);
            buf_adds(out, ": ");
            if (c->old_v)
                itemdiff_value_text(c->old_v, 0, out);
            buf_adds(out, " -> ");
            if (c->new_v)
                itemdiff_value_text(c->new_v, 0, out);
        }
        buf_addc(out, '\n');
    }
    if (sum)
        *sum = *tdiff_get_summary(t);
    /* Each side was read once, to its end, and not past it. */
    if (st == ST_OK) {
        assert_int_equal(x.calls, na + 1);
        assert_int_equal(y.calls, nb + 1);
    }
    if (sum) {
        /* The prefixes' strings are the tdiff's: copy the first two. */
        for (size_t i = 0; i < sum->n_prefixes; i++)
            sum->prefixes[i].prefix = strdup(sum->prefixes[i].prefix);
    }
    tdiff_free(t);
    return st;
}

static void free_sum(tdiff_summary *s)
{
    for (size_t i = 0; i < s->n_prefixes; i++)
        free(s->prefixes[i].prefix);
}

#define ITEM(pk, sk, rest) "{\"PK\":{\"S\":\"" pk "\"},\"SK\":{\"S\":\"" sk "\"}" rest "}"

static void a_merge_finds_added_removed_and_changed_items(void **state)
{
    static const char *const a[] = {
        ITEM("ACTOR#alice", "PROFILE", ",\"followers\":{\"N\":\"3\"},\"bio\":{\"S\":\"hi\"}"),
        ITEM("ACTOR#alice", "TARGET#bob", ",\"at\":{\"S\":\"2024\"}"),
        ITEM("ACTOR#alice", "TARGET#carol", ""),
        ITEM("ACTOR#bob", "PROFILE", ",\"followers\":{\"N\":\"1\"}"),
    };
    static const char *const b[] = {
        ITEM("ACTOR#alice", "PROFILE", ",\"followers\":{\"N\":\"4\"}"),
        ITEM("ACTOR#alice", "TARGET#bob", ",\"at\":{\"S\":\"2024\"}"),
        ITEM("ACTOR#alice", "TARGET#dave", ""),
        ITEM("ACTOR#bob", "PROFILE", ",\"followers\":{\"N\":\"1.0\"}"),
        ITEM("ACTOR#zed", "TARGET#alice", ""),
    };
    buf out = BUF_INIT;
    tdiff_summary s;
    diag d;
    diag_init(&d);
    assert_int_equal(run(a, 4, b, 5, &PK, &SK, &out, &s, &d), ST_OK);
    assert_string_equal(out.data,
        "~ PK=\"ACTOR#alice\" SK=\"PROFILE\" [PROFILE] bio: \"hi\" -> ; followers: 3 -> 4\n"
        "- PK=\"ACTOR#alice\" SK=\"TARGET#carol\" [TARGET#]\n"
        "+ PK=\"ACTOR#alice\" SK=\"TARGET#dave\" [TARGET#]\n"
        "+ PK=\"ACTOR#zed\" SK=\"TARGET#alice\" [TARGET#]\n");
    assert_int_equal(s.items_a, 4);
    assert_int_equal(s.items_b, 5);
    assert_int_equal(s.total.added, 2);
    assert_int_equal(s.total.removed, 1);
    assert_int_equal(s.total.changed, 1);
    assert_int_equal(s.total.same, 2);
    assert_int_equal(s.n_prefixes, 2);
    assert_string_equal(s.prefixes[0].prefix, "PROFILE");
    assert_int_equal(s.prefixes[0].c.changed, 1);
    assert_int_equal(s.prefixes[0].c.same, 1);
    assert_string_equal(s.prefixes[1].prefix, "TARGET#");
    assert_int_equal(s.prefixes[1].c.added, 2);
    assert_int_equal(s.prefixes[1].c.removed, 1);
    assert_int_equal(s.prefixes[1].c.same, 1);
    assert_false(s.has_other);
    free_sum(&s);
    buf_done(&out);
}

static void equal_sides_and_empty_sides(void **state)
{
    static const char *const a[] = { ITEM("p", "s", "") };
    buf out = BUF_INIT;
    tdiff_summary s;
    diag d;
    diag_init(&d);
    assert_int_equal(run(a, 1, a, 1, &PK, &SK, &out, &s, &d), ST_OK);
    assert_null(out.data);
    assert_int_equal(s.total.same, 1);
    free_sum(&s);
    assert_int_equal(run(NULL, 0, NULL, 0, &PK, &SK, &out, &s, &d), ST_OK);
    assert_null(out.data);
    assert_int_equal(s.items_a + s.items_b, 0);
    free_sum(&s);
    assert_int_equal(run(a, 1, NULL, 0, &PK, &SK, &out, &s, &d), ST_OK);
    assert_string_equal(out.data, "- PK=\"p\" SK=\"s\" [s]\n");
    free_sum(&s);
    buf_done(&out);
}

/* N keys in numeric order (2 before 10), 1.0 the same key as 1; no sort
 * key: the prefix is the partition key's. */
static void number_keys_merge_by_value(void **state)
{
    static const char *const a[] = { "{\"id\":{\"N\":\"1.0\"},\"v\":{\"S\":\"x\"}}",
                                     "{\"id\":{\"N\":\"2\"}}", "{\"id\":{\"N\":\"10\"}}" };
    static const char *const b[] = { "{\"id\":{\"N\":\"1\"},\"v\":{\"S\":\"y\"}}",
                                     "{\"id\":{\"N\":\"10\"}}" };
    key_attr id = { "id", AV_N };
    buf out = BUF_INIT;
    tdiff_summary s;
    diag d;
    diag_init(&d);
    assert_int_equal(run(a, 3, b, 2, &id, &NOSK, &out, &s, &d), ST_OK);
    assert_string_equal(out.data, "~ id=1 [] v: \"x\" -> \"y\"\n- id=2 []\n");
    free_sum(&s);
    buf_done(&out);
}

static void a_side_out_of_key_order_or_keyless_is_refused(void **state)
{
    static const char *const unordered[] = { ITEM("b", "s", ""), ITEM("a", "s", "") };
    static const char *const repeated[] = { ITEM("a", "s", ""), ITEM("a", "s", "") };
    static const char *const keyless[] = { "{\"PK\":{\"S\":\"a\"}}" };
    static const char *const wrong[] = { "{\"PK\":{\"S\":\"a\"},\"SK\":{\"N\":\"1\"}}" };
    buf out = BUF_INIT;
    diag d;
    diag_init(&d);
    assert_int_equal(run(NULL, 0, unordered, 2, &PK, &SK, &out, NULL, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "B is not in key order: PK=\"a\" SK=\"s\" comes before the item before it");
    assert_int_equal(run(repeated, 2, NULL, 0, &PK, &SK, &out, NULL, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "A is not in key order: PK=\"a\" SK=\"s\" repeats the item before it");
    assert_int_equal(run(keyless, 1, NULL, 0, &PK, &SK, &out, NULL, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "A: an item without the key attribute SK: PK=\"a\" SK=(none)");
    assert_int_equal(run(NULL, 0, wrong, 1, &PK, &SK, &out, NULL, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "B: the item PK=\"a\" SK=1 has its key attribute SK of type N, not S");
    buf_done(&out);
}

/* Past TDIFF_PREFIXES distinct prefixes the rest are counted together. */
static void prefixes_past_the_limit_go_to_other(void **state)
{
    enum { N = TDIFF_PREFIXES + 8 };
    char *items[N];
    for (int i = 0; i < N; i++) {
        char t[96];
        snprintf(t, sizeof t, "{\"PK\":{\"S\":\"p\"},\"SK\":{\"S\":\"T%c%c#x\"}}", 'A' + i / 26, 'A' + i % 26);
        items[i] = strdup(t);
    }
    buf out = BUF_INIT;
    tdiff_summary s;
    diag d;
    diag_init(&d);
    assert_int_equal(run(NULL, 0, (const char *const *)items, N, &PK, &SK, &out, &s, &d), ST_OK);
    assert_int_equal(s.n_prefixes, TDIFF_PREFIXES);
    assert_true(s.has_other);
    assert_int_equal(s.other.added, 8);
    assert_string_equal(s.prefixes[0].prefix, "TAA#");
    uint64_t sum = s.other.added;
    for (size_t i = 0; i < s.n_prefixes; i++)
        sum += s.prefixes[i].c.added;
    assert_int_equal(sum, N);
    free_sum(&s);
    for (int i = 0; i < N; i++)
        free(items[i]);
    buf_done(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_merge_finds_added_removed_and_changed_items),
        cmocka_unit_test(equal_sides_and_empty_sides),
        cmocka_unit_test(number_keys_merge_by_value),
        cmocka_unit_test(a_side_out_of_key_order_or_keyless_is_refused),
        cmocka_unit_test(prefixes_past_the_limit_go_to_other),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
