/*
 * The item differ and its printers (model/itemdiff.c).
 *
 * Where the expectations come from: DynamoDB's developer guide, "Supported
 * data types and naming rules" (sets hold unique values and have no order;
 * numbers are compared by value, so 1.0 and 1 are one number; maps and
 * lists nest up to 32 levels) and "Using expressions: document paths"
 * (a.b[2].c). The text form is ddbx's own, pinned here.
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
#include "model/itemdiff.h"

#include "items.h"

/* Every difference as "path: old -> new" lines. */
static void line(void *ctx, const itemdiff_change *c)
{
    buf *b = ctx;
    itemdiff_path_text(c->path, c->depth, b);
    buf_adds(b, ": ");
    if (c->old_v)
        itemdiff_value_text(c->old_v, 0, b);
    else
        buf_adds(b, "(absent)");
    buf_adds(b, " -> ");
    if (c->new_v)
        itemdiff_value_text(c->new_v, 0, b);
    else
        buf_adds(b, "(absent)");
    buf_addc(b, '\n');
}

static char *diff(const char *a, const char *b, size_t *n)
{
    av x = parse(a), y = parse(b);
    buf out = BUF_INIT;
    *n = itemdiff_items(&x, &y, line, &out);
    av_done(&x);
    av_done(&y);
    return out.data ? buf_steal(&out) : calloc(1, 1);
}

static void nested_paths_say_where_each_difference_is(void **state)
{
    size_t n;
    char *t = diff("{\"PK\":{\"S\":\"p\"},\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},"
                   "{\"M\":{\"c\":{\"S\":\"x\"},\"d\":{\"BOOL\":true}}}]}}},\"gone\":{\"NULL\":true}}",
                   "{\"PK\":{\"S\":\"p\"},\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"1\"},{\"N\":\"2\"},"
                   "{\"M\":{\"c\":{\"S\":\"y\"},\"d\":{\"BOOL\":true}}},{\"S\":\"tail\"}]}}},"
                   "\"new\":{\"N\":\"7\"}}", &n);
    assert_int_equal(n, 4);
    assert_string_equal(t, "a.b[2].c: \"x\" -> \"y\"\n"
                           "a.b[3]: (absent) -> \"tail\"\n"
                           "gone: null -> (absent)\n"
                           "new: (absent) -> 7\n");
    free(t);
}

static void sets_compare_as_sets_and_numbers_by_value(void **state)
{
    size_t n;
    /* The same set written in another order, 1.0 and 1, 1E+2 and 100. */
    char *t = diff("{\"s\":{\"SS\":[\"b\",\"a\"]},\"ns\":{\"NS\":[\"1.0\",\"1E+2\"]},\"n\":{\"N\":\"1.50\"}}",
                   "{\"s\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"100\",\"1\"]},\"n\":{\"N\":\"1.5\"}}", &n);
    assert_int_equal(n, 0);
    assert_string_equal(t, "");
    free(t);
    /* A set that differs is one difference, the sets whole. */
    t = diff("{\"s\":{\"SS\":[\"a\",\"b\"]}}", "{\"s\":{\"SS\":[\"a\",\"c\"]}}", &n);
    assert_int_equal(n, 1);
    assert_string_equal(t, "s: {\"SS\":[\"a\",\"b\"]} -> {\"SS\":[\"a\",\"c\"]}\n");
    free(t);
}

static void a_type_change_is_one_difference_at_its_path(void **state)
{
    size_t n;
    char *t = diff("{\"x\":{\"S\":\"1\"},\"m\":{\"M\":{\"k\":{\"N\":\"1\"}}}}",
                   "{\"x\":{\"N\":\"1\"},\"m\":{\"L\":[{\"N\":\"1\"}]}}", &n);
    assert_int_equal(n, 2);
    assert_string_equal(t, "m: {\"M\":{\"k\":{\"N\":\"1\"}}} -> {\"L\":[{\"N\":\"1\"}]}\n"
                           "x: \"1\" -> 1\n");
    free(t);
    /* One side absent: every attribute of the other. */
    av a = parse("{\"PK\":{\"S\":\"p\"},\"b\":{\"B\":\"AAE=\"}}"), none = { .type = AV_NONE };
    assert_int_equal(itemdiff_items(&a, &none, NULL, NULL), 2);
    assert_int_equal(itemdiff_items(&none, &a, NULL, NULL), 2);
    assert_int_equal(itemdiff_items(&a, &a, NULL, NULL), 0);
    av_done(&a);
}

static void names_that_are_not_words_are_quoted_and_escaped(void **state)
{
    size_t n;
    char *t = diff("{\"my.attr\":{\"M\":{\"\":{\"N\":\"1\"}}},\"이름\":{\"S\":\"a\"},"
                   "\"bad\\u0001name\":{\"N\":\"1\"},\"c1\\u0085\":{\"N\":\"1\"},\"GSI1-PK#x:y\":{\"N\":\"1\"}}",
                   "{\"my.attr\":{\"M\":{\"\":{\"N\":\"2\"}}},\"이름\":{\"S\":\"b\"}}", &n);
    assert_int_equal(n, 5);
    assert_non_null(strstr(t, "GSI1-PK#x:y: 1 -> (absent)\n"));
    assert_non_null(strstr(t, "\"bad\\u0001name\": 1 -> (absent)\n"));
    assert_non_null(strstr(t, "\"c1\\u0085\": 1 -> (absent)\n"));
    assert_non_null(strstr(t, "\"my.attr\".\"\": 1 -> 2\n"));
    assert_non_null(strstr(t, "이름: \"a\" -> \"b\"\n"));
    free(t);
    itemdiff_seg p[] = { { "l", 1, 0 }, { NULL, 0, 12 }, { NULL, 0, 0 }, { "z", 1, 0 } };
    buf b = BUF_INIT;
    itemdiff_path_text(p, 4, &b);
    assert_string_equal(b.data, "l[12][0].z");
    buf_done(&b);
}

static void values_never_carry_a_control_character(void **state)
{
    av item = parse("{\"s\":{\"S\":\"a\\u001b[2Jb\\u007fc\\u009bd\\n\"},\"l\":{\"L\":[{\"S\":\"\\u0085\"},"
                    "{\"B\":\"AAE=\"}]},\"t\":{\"BOOL\":false},\"z\":{\"NULL\":true}}");
    buf b = BUF_INIT;
    itemdiff_value_text(av_map_get(&item, "s", 1), 0, &b);
    assert_string_equal(b.data, "\"a\\u001b[2Jb\\u007fc\\u009bd\\n\"");
    buf_reset(&b);
    itemdiff_value_text(av_map_get(&item, "l", 1), 0, &b);
    assert_string_equal(b.data, "{\"L\":[{\"S\":\"\\u0085\"},{\"B\":\"AAE=\"}]}");
    buf_reset(&b);
    itemdiff_value_text(av_map_get(&item, "t", 1), 0, &b);
    itemdiff_value_text(av_map_get(&item, "z", 1), 0, &b);
    assert_string_equal(b.data, "falsenull");
    /* Whole items from the DynamoDB JSON writer, made safe after. */
    buf_reset(&b);
    buf_adds(&b, "x");
    ddbjson_write_item(&b, &item);
    itemdiff_json_safe(&b, 1);
    for (size_t i = 0; i < b.len; i++) {
        unsigned char c = (unsigned char)b.data[i];
        assert_true(c >= 0x20 && c != 0x7f);
        assert_false(c == 0xC2 && i + 1 < b.len && (unsigned char)b.data[i + 1] < 0xA0);
    }
    assert_non_null(strstr(b.data, "b\\u007fc\\u009bd"));
    buf_done(&b);
    av_done(&item);
}

static void long_values_are_cut_on_a_character_boundary(void **state)
{
    av item = parse("{\"s\":{\"S\":\"가나다라마바사\"}}");
    buf b = BUF_INIT;
    /* "\"가나" is 7 bytes; a cut at 8 falls inside 다 and backs off. */
    itemdiff_value_text(av_map_get(&item, "s", 1), 8, &b);
    assert_string_equal(b.data, "\"가나…");
    buf_reset(&b);
    itemdiff_value_text(av_map_get(&item, "s", 1), 100, &b);
    assert_string_equal(b.data, "\"가나다라마바사\"");
    buf_done(&b);
    av_done(&item);
}

static void record_depth(void *ctx, const itemdiff_change *c)
{
    *(size_t *)ctx = c->depth;
    assert_non_null(c->old_v);
    assert_non_null(c->new_v);
}

/* Nesting past ITEMDIFF_MAX_DEPTH is compared whole at that depth. */
static void deep_nesting_stops_at_the_depth_limit(void **state)
{
    buf a = BUF_INIT, b = BUF_INIT;
    for (int i = 0; i < ITEMDIFF_MAX_DEPTH + 5; i++) {
        buf_adds(&a, "{\"m\":{\"M\":");
        buf_adds(&b, "{\"m\":{\"M\":");
    }
    buf_adds(&a, "{\"v\":{\"N\":\"1\"}}");
    buf_adds(&b, "{\"v\":{\"N\":\"2\"}}");
    for (int i = 0; i < ITEMDIFF_MAX_DEPTH + 5; i++) {
        buf_adds(&a, "}}");
        buf_adds(&b, "}}");
    }
    av x, y;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(a.data, a.len, &x, &d) != ST_OK ||
        ddbjson_parse_item(b.data, b.len, &y, &d) != ST_OK)
        fail_msg("%s", d.msg);
    size_t depth = 0;
    assert_int_equal(itemdiff_items(&x, &y, record_depth, &depth), 1);
    assert_int_equal(depth, ITEMDIFF_MAX_DEPTH);
    av_done(&x);
    av_done(&y);
    buf_done(&a);
    buf_done(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(nested_paths_say_where_each_difference_is),
        cmocka_unit_test(sets_compare_as_sets_and_numbers_by_value),
        cmocka_unit_test(a_type_change_is_one_difference_at_its_path),
        cmocka_unit_test(names_that_are_not_words_are_quoted_and_escaped),
        cmocka_unit_test(values_never_carry_a_control_character),
        cmocka_unit_test(long_values_are_cut_on_a_character_boundary),
        cmocka_unit_test(deep_nesting_stops_at_the_depth_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
