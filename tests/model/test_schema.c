/*
 * Table definitions: a table's key attributes and its indexes' key
 * attributes are "key attributes" (a GSI's keys only within that index);
 * a copy owns everything it holds.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/schema.h"

/* SocialGraph: PK/SK, GSI1 inverted on GSI1PK/GSI1SK, KEYS_ONLY. */
static table_def social_graph(void)
{
    table_def t = { 0 };
    t.name = xstrdup("SocialGraph");
    t.pk = (key_attr){ xstrdup("PK"), AV_S };
    t.sk = (key_attr){ xstrdup("SK"), AV_S };
    t.n_idx = 2;
    t.idx = xcalloc(2, sizeof(index_def));
    t.idx[0] = (index_def){ .name = xstrdup("GSI1"), .global = true,
                            .pk = { xstrdup("GSI1PK"), AV_S },
                            .sk = { xstrdup("GSI1SK"), AV_S },
                            .proj = PROJ_KEYS_ONLY };
    t.idx[1] = (index_def){ .name = xstrdup("ByDate"), .global = false,
                            .pk = { xstrdup("PK"), AV_S },
                            .sk = { xstrdup("followedAt"), AV_N },
                            .proj = PROJ_INCLUDE, .n_include = 1 };
    t.idx[1].include = xcalloc(1, sizeof(char *));
    t.idx[1].include[0] = xstrdup("note");
    return t;
}

static void key_attributes_are_the_tables_and_the_chosen_indexs(void **state)
{
    (void)state;
    table_def t = social_graph();
    const index_def *gsi = table_def_index(&t, "GSI1");
    assert_non_null(gsi);
    assert_null(table_def_index(&t, "gsi1"));      /* index names are case-sensitive */
    assert_true(table_def_is_key(&t, NULL, "PK"));
    assert_true(table_def_is_key(&t, NULL, "SK"));
    assert_false(table_def_is_key(&t, NULL, "GSI1PK"));
    assert_true(table_def_is_key(&t, gsi, "GSI1PK"));
    assert_true(table_def_is_key(&t, gsi, "PK"));   /* table keys are projected into every index */
    assert_false(table_def_is_key(&t, gsi, "followedAt"));
    table_def_free(&t);
}

static void a_copy_owns_its_strings(void **state)
{
    (void)state;
    table_def t = social_graph(), c;
    table_def_copy(&c, &t);
    table_def_free(&t);             /* the copy must survive this */
    assert_string_equal(c.name, "SocialGraph");
    assert_int_equal(c.n_idx, 2);
    assert_string_equal(c.idx[1].sk.name, "followedAt");
    assert_int_equal(c.idx[1].sk.type, AV_N);
    assert_string_equal(c.idx[1].include[0], "note");
    assert_string_equal(proj_type_name(c.idx[0].proj), "KEYS_ONLY");
    assert_string_equal(proj_type_name(c.idx[1].proj), "INCLUDE");
    assert_string_equal(proj_type_name(PROJ_ALL), "ALL");
    table_def_free(&c);
}

static void a_table_without_sort_key_has_a_null_sk_name(void **state)
{
    (void)state;
    table_def t = { 0 }, c;
    t.name = xstrdup("Plain");
    t.pk = (key_attr){ xstrdup("id"), AV_N };
    table_def_copy(&c, &t);
    assert_null(c.sk.name);
    assert_null(c.idx);
    assert_false(table_def_is_key(&c, NULL, "SK"));
    table_def_free(&t);
    table_def_free(&c);
}

/* An item is identified by its table key alone (developer guide, "Core
 * components": "the primary key uniquely identifies each item"): other
 * attributes, and index keys, do not count; a B key compares by bytes,
 * NUL included; an item without the sort key is not the same item. */
static void the_same_item_is_the_same_table_key(void **state)
{
    (void)state;
    table_def t = social_graph();
    av a, b, v;
    av_init_list(&a, AV_M);
    av_init_s(&v, "ACTOR#a", 7);
    av_map_put(&a, "PK", 2, &v);
    av_init_s(&v, "P\0x", 3);
    av_map_put(&a, "SK", 2, &v);
    av_init_s(&v, "old", 3);
    av_map_put(&a, "note", 4, &v);
    av_copy(&b, &a);
    av_init_s(&v, "new", 3);
    av_map_put(&b, "note", 4, &v);
    av_init_s(&v, "TARGET#z", 8);
    av_map_put(&b, "GSI1PK", 6, &v);
    assert_true(table_def_same_item(&t, &a, &b));
    av_init_s(&v, "P\0y", 3);      /* differs after the NUL */
    av_map_put(&b, "SK", 2, &v);
    assert_false(table_def_same_item(&t, &a, &b));
    av_map_remove(&b, "SK", 2);
    assert_false(table_def_same_item(&t, &a, &b));
    av_done(&a);
    av_done(&b);
    table_def_free(&t);
}

/* Two tables have the same key schema when the names and types of both
 * key attributes match (`ddbx diff` compares two sides only then); the
 * indexes and the table names do not count. */
static void the_same_keys_are_names_and_types(void **state)
{
    (void)state;
    table_def a = social_graph(), b = social_graph();
    free(b.name);
    b.name = xstrdup("Other");
    assert_true(table_def_same_keys(&a, &b));
    b.sk.type = AV_N;
    assert_false(table_def_same_keys(&a, &b));
    b.sk.type = AV_S;
    free(b.sk.name);
    b.sk.name = NULL;            /* no sort key */
    assert_false(table_def_same_keys(&a, &b));
    assert_false(table_def_same_keys(&b, &a));
    assert_true(table_def_same_keys(&b, &b));
    b.sk.name = xstrdup("SK");
    free(b.pk.name);
    b.pk.name = xstrdup("pk");   /* names compare exactly */
    assert_false(table_def_same_keys(&a, &b));
    table_def_free(&a);
    table_def_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(key_attributes_are_the_tables_and_the_chosen_indexs),
        cmocka_unit_test(a_copy_owns_its_strings),
        cmocka_unit_test(a_table_without_sort_key_has_a_null_sk_name),
        cmocka_unit_test(the_same_item_is_the_same_table_key),
        cmocka_unit_test(the_same_keys_are_names_and_types),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
