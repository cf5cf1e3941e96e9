/*
 * Entity inference and matching (model/entity.h): key templates from the
 * segments that stay the same, {id} for those that vary (a kept prefix
 * ending in a separator, a value that always equals another attribute
 * named after it, ISO-8601 dates, numbers), the last placeholder taking
 * the rest of a longer value; grouping by a type attribute, else by the
 * shape of the keys; items without the type attribute belonging to no
 * entity; attribute types, shares and mixed types; index membership and
 * write units; matching an item back to its entity.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/entity.h"
#include "model/mem.h"

static table_def def_with_gsi(void)
{
    table_def t = { 0 };
    t.name = xstrdup("T");
    t.pk = (key_attr){ xstrdup("PK"), AV_S };
    t.sk = (key_attr){ xstrdup("SK"), AV_S };
    t.n_idx = 1;
    t.idx = xcalloc(1, sizeof(index_def));
    t.idx[0] = (index_def){ .name = xstrdup("GSI1"), .global = true,
                            .pk = { xstrdup("GSI1PK"), AV_S },
                            .sk = { xstrdup("GSI1SK"), AV_S }, .proj = PROJ_ALL };
    return t;
}

static void add(ent_infer *x, const char *json)
{
    av item;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item(json, strlen(json), &item, &d), ST_OK);
    ent_infer_add(x, &item);
    av_done(&item);
}

static void item(const char *json, av *out)
{
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item(json, strlen(json), out, &d), ST_OK);
}

/* Without a type attribute: one entity a key shape, named after the sort
 * key's literal part; templates from the segments. */
static void keys_tell_the_entities_without_a_type_attribute(void **state)
{
    (void)state;
    table_def def = def_with_gsi();
    ent_infer *x = ent_infer_new(&def);
    add(x, "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"PROFILE\"},\"name\":{\"S\":\"Alice\"}}");
    add(x, "{\"PK\":{\"S\":\"ACTOR#bob\"},\"SK\":{\"S\":\"PROFILE\"},\"name\":{\"S\":\"Bob\"},\"age\":{\"N\":\"3\"}}");
    add(x, "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"},\"GSI1PK\":{\"S\":\"TARGET#bob\"},\"GSI1SK\":{\"S\":\"ACTOR#alice\"}}");
    add(x, "{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"TARGET#star\"},\"GSI1PK\":{\"S\":\"TARGET#star#7\"},\"GSI1SK\":{\"S\":\"ACTOR#dave\"}}");
    add(x, "{\"PK\":{\"S\":\"ACTOR#carol\"},\"SK\":{\"S\":\"TARGET#alice\"}}");
    ent_table t;
    ent_table_init(&t);
    ent_infer_finish(x, 5, false, &t);
    assert_null(t.type_attr);
    assert_int_equal(t.n, 2);
    const ent_entity *p = ent_table_entity(&t, "profile"), *f = ent_table_entity(&t, "target");
    assert_non_null(p);
    assert_non_null(f);
    assert_string_equal(p->pk_tmpl, "ACTOR#{id}");
    assert_string_equal(p->sk_tmpl, "PROFILE");
    assert_string_equal(f->sk_tmpl, "TARGET#{id}");
    assert_int_equal(f->count, 3);
    /* Two of the three edges are in GSI1; TARGET#star#7 is a longer value
     * that the last placeholder takes. */
    assert_int_equal(f->idx[0].count, 2);
    assert_string_equal(f->idx[0].pk_tmpl, "TARGET#{id}");
    assert_string_equal(f->idx[0].sk_tmpl, "ACTOR#{id}");
    /* Shares: age on 1 of 2 profiles. */
    const ent_attr *age = entity_attr(p, "age");
    assert_non_null(age);
    assert_true(ent_attr_share(p, age) == 0.5);
    assert_false(age->required);
    assert_true(entity_attr(p, "name")->required);
    /* Matching back: an edge and a profile by their keys. */
    av it;
    item("{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"TARGET#star#3\"}}", &it);
    assert_ptr_equal(ent_table_match(&t, &it), f);
    av_done(&it);
    item("{\"PK\":{\"S\":\"ACTOR#zed\"},\"SK\":{\"S\":\"PROFILE\"}}", &it);
    assert_ptr_equal(ent_table_match(&t, &it), p);
    av_done(&it);
    item("{\"PK\":{\"S\":\"USER#zed\"},\"SK\":{\"S\":\"PROFILE\"}}", &it);
    assert_null(ent_table_match(&t, &it));
    av_done(&it);
    ent_table_done(&t);
    table_def_free(&def);
}

/* A type attribute names the entities; an item without it is of none. */
static void a_type_attribute_names_the_entities(void **state)
{
    (void)state;
    table_def def = def_with_gsi();
    ent_infer *x = ent_infer_new(&def);
    add(x, "{\"PK\":{\"S\":\"s#song1\"},\"SK\":{\"S\":\"A\"},\"type\":{\"S\":\"details\"},\"artist\":{\"S\":\"Scooter\"},"
           "\"GSI1PK\":{\"S\":\"Scooter\"},\"GSI1SK\":{\"S\":\"Fish\"},\"title\":{\"S\":\"Fish\"}}");
    add(x, "{\"PK\":{\"S\":\"s#song2\"},\"SK\":{\"S\":\"A\"},\"type\":{\"S\":\"details\"},\"artist\":{\"S\":\"IU\"},"
           "\"GSI1PK\":{\"S\":\"IU\"},\"GSI1SK\":{\"S\":\"Night\"},\"title\":{\"S\":\"Night\"}}");
    add(x, "{\"PK\":{\"S\":\"s#song1\"},\"SK\":{\"S\":\"d#download-1\"},\"type\":{\"S\":\"download\"}}");
    add(x, "{\"PK\":{\"S\":\"s#song1\"},\"SK\":{\"S\":\"d#download-22\"},\"type\":{\"S\":\"download\"}}");
    add(x, "{\"PK\":{\"S\":\"s#song9\"},\"SK\":{\"S\":\"NOTE\"}}");
    ent_table t;
    ent_table_init(&t);
    ent_infer_finish(x, 5, false, &t);
    assert_string_equal(t.type_attr, "type");
    assert_int_equal(t.n, 2);
    const ent_entity *d = ent_table_entity(&t, "details"), *dl = ent_table_entity(&t, "download");
    assert_string_equal(d->type_value, "details");
    assert_string_equal(d->pk_tmpl, "s#{id}");
    assert_string_equal(d->sk_tmpl, "A");
    /* A varying value that always equals another attribute is named after it. */
    assert_string_equal(d->idx[0].pk_tmpl, "{artist}");
    assert_string_equal(d->idx[0].sk_tmpl, "{title}");
    /* A common prefix that ends in a separator is kept. */
    assert_string_equal(dl->sk_tmpl, "d#download-{id}");
    assert_int_equal(dl->idx[0].count, 0);
    /* The untyped item: of no entity, its key kept. */
    assert_int_equal(t.strays, 1);
    assert_int_equal(t.n_strays_keys, 1);
    av it;
    item("{\"PK\":{\"S\":\"s#song3\"},\"SK\":{\"S\":\"A\"},\"type\":{\"S\":\"download\"}}", &it);
    assert_ptr_equal(ent_table_match(&t, &it), dl);   /* the type wins over the keys */
    av_done(&it);
    ent_table_done(&t);
    table_def_free(&def);
}

static void dates_numbers_and_mixed_types(void **state)
{
    (void)state;
    table_def def = { 0 };
    def.name = xstrdup("H");
    def.pk = (key_attr){ xstrdup("user"), AV_S };
    def.sk = (key_attr){ xstrdup("at"), AV_S };
    ent_infer *x = ent_infer_new(&def);
    add(x, "{\"user\":{\"S\":\"aman\"},\"at\":{\"S\":\"2024-01-13T14:00:00Z\"},\"v\":{\"N\":\"1\"}}");
    add(x, "{\"user\":{\"S\":\"olga\"},\"at\":{\"S\":\"2023-12-31\"},\"v\":{\"S\":\"one\"},\"gone\":{\"NULL\":true}}");
    add(x, "{\"user\":{\"S\":\"olga\"},\"at\":{\"S\":\"2024-02-01T00:00:00.000Z\"},\"v\":{\"N\":\"2\"},\"gone\":{\"N\":\"5\"}}");
    ent_table t;
    ent_table_init(&t);
    ent_infer_finish(x, 3, false, &t);
    assert_int_equal(t.n, 1);
    const ent_entity *e = &t.e[0];
    assert_string_equal(e->name, "h");                 /* no literal part: the table's name */
    assert_string_equal(e->pk_tmpl, "{id}");
    assert_string_equal(e->sk_tmpl, "{iso8601}");
    assert_true(ent_attr_mixed(entity_attr(e, "v")));   /* N and S */
    assert_false(ent_attr_mixed(entity_attr(e, "gone"))); /* N and NULL: nullable, not mixed */
    buf b = BUF_INIT;
    ent_attr_types_text(entity_attr(e, "v"), &b);
    assert_string_equal(b.data, "N 2/S 1");
    buf_done(&b);
    ent_table_done(&t);
    table_def_free(&def);
}

static void templates_match_and_are_checked(void **state)
{
    (void)state;
    av v;
    av_init_s(&v, "ENROLL#CRS#math204", 18);
    assert_true(ent_tmpl_match("ENROLL#CRS#{id}", &v));
    assert_true(ent_tmpl_match("ENROLL#{id}", &v));       /* the last takes the rest */
    assert_true(ent_tmpl_match("{a}#CRS#{b}", &v));
    assert_false(ent_tmpl_match("ENROLL#STU#{id}", &v));
    assert_false(ent_tmpl_match("ENROLL#CRS#math204#{id}", &v)); /* a placeholder is not empty */
    av_done(&v);
    num n;
    diag d;
    diag_init(&d);
    assert_int_equal(num_parse("42", 2, &n, &d), ST_OK);
    av_init_n(&v, &n);
    assert_true(ent_tmpl_match("{n}", &v));
    assert_false(ent_tmpl_match("N#{n}", &v));
    av_done(&v);
    size_t at = 0;
    assert_true(ent_tmpl_valid("ACTOR#{id}", &at));
    assert_false(ent_tmpl_valid("ACTOR#{id", &at));
    assert_int_equal(at, 6);
    assert_false(ent_tmpl_valid("{}", &at));
    assert_false(ent_tmpl_valid("{a}{b}", &at));
    assert_int_equal(at, 3);
    assert_false(ent_tmpl_valid("a}b", &at));
    assert_int_equal(ent_tmpl_literal_len("ACTOR#{id}#x"), 8);
}

/* Write units: each item's own (1 KB a unit, rounded up), its index
 * entries' by their projected size. */
static void write_units_count_the_index_copies(void **state)
{
    (void)state;
    table_def def = def_with_gsi();
    def.idx[0].proj = PROJ_KEYS_ONLY;
    ent_infer *x = ent_infer_new(&def);
    char big[1400];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    buf j = BUF_INIT;
    /* 1.4 KB with GSI keys: 2 units in the table, 1 in the KEYS_ONLY index. */
    buf_printf(&j, "{\"PK\":{\"S\":\"A#1\"},\"SK\":{\"S\":\"B\"},\"GSI1PK\":{\"S\":\"G\"},\"GSI1SK\":{\"S\":\"H\"},"
                   "\"blob\":{\"S\":\"%s\"}}", big);
    add(x, j.data);
    add(x, "{\"PK\":{\"S\":\"A#2\"},\"SK\":{\"S\":\"B\"}}");   /* 1 unit, not in the index */
    buf_done(&j);
    ent_table t;
    ent_table_init(&t);
    ent_infer_finish(x, 2, false, &t);
    assert_int_equal(t.n, 1);
    assert_int_equal(t.e[0].write_halves, 2 * (2 + 1));
    assert_int_equal(t.e[0].idx[0].write_halves, 2 * 1);
    assert_int_equal(t.e[0].idx[0].count, 1);
    ent_table_done(&t);
    table_def_free(&def);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(keys_tell_the_entities_without_a_type_attribute),
        cmocka_unit_test(a_type_attribute_names_the_entities),
        cmocka_unit_test(dates_numbers_and_mixed_types),
        cmocka_unit_test(templates_match_and_are_checked),
        cmocka_unit_test(write_units_count_the_index_copies),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
