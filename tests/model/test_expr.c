/* expr: evaluation semantics, key ranges, projections, updates, the shared
 * request context and the AST walk, through the public API. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/ddbjson.h"
#include "model/expr.h"

static av parse_item(const char *json)
{
    av v;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), &v, &d) != ST_OK)
        fail_msg("bad test JSON %s: %s", json, d.msg);
    return v;
}

static av parse_names(const char *json)
{
    av v;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_plain_item(json, strlen(json), &v, &d) != ST_OK)
        fail_msg("bad test JSON %s: %s", json, d.msg);
    return v;
}

/* A parsed expression with its maps, freed together. */
typedef struct fixture {
    av names, values;
    expr_ctx cx;
    expr *e;
    diag d;
} fixture;

static status fx_parse(fixture *f, expr_kind k, const char *text, const char *names,
                       const char *values)
{
    memset(f, 0, sizeof *f);
    diag_init(&f->d);
    if (names)
        f->names = parse_names(names);
    if (values)
        f->values = parse_item(values);
    status st = expr_ctx_init(&f->cx, names ? &f->names : NULL, values ? &f->values : NULL, &f->d);
    if (!st)
        st = expr_parse(&f->cx, k, text, strlen(text), &f->e, &f->d);
    if (!st)
        st = expr_ctx_finish(&f->cx, &f->d);
    return st;
}

static void fx_done(fixture *f)
{
    expr_free(f->e);
    expr_ctx_done(&f->cx);
    av_done(&f->names);
    av_done(&f->values);
}

static bool cond(const char *text, const char *values, const char *item_json)
{
    fixture f;
    if (fx_parse(&f, EXPR_CONDITION, text, NULL, values) != ST_OK)
        fail_msg("%s: %s", text, f.d.msg);
    av item = parse_item(item_json);
    bool v = expr_eval(f.e, &item);
    /* The explained evaluation must agree with the fast one. */
    expr_trace t = { 0 };
    assert_int_equal(expr_explain(f.e, &item, &t), v);
    assert_true(t.n >= 1);
    assert_int_equal(t.v[0].verdict, v);
    expr_trace_done(&t);
    av_done(&item);
    fx_done(&f);
    return v;
}

static void comparisons(void **state)
{
    (void)state;
    const char *n = "{\":v\":{\"N\":\"10\"}}";
    assert_true(cond("a < :v", n, "{\"a\":{\"N\":\"9.5\"}}"));
    assert_false(cond("a < :v", n, "{\"a\":{\"N\":\"10.0\"}}"));
    assert_true(cond("a <= :v", n, "{\"a\":{\"N\":\"10.0\"}}"));
    assert_true(cond("a = :v", n, "{\"a\":{\"N\":\"1E1\"}}"));
    assert_true(cond("a > :v", n, "{\"a\":{\"N\":\"100\"}}"));
    assert_true(cond("a >= :v", n, "{\"a\":{\"N\":\"10\"}}"));
    /* Different types: false for everything but <>. */
    assert_false(cond("a < :v", n, "{\"a\":{\"S\":\"1\"}}"));
    assert_false(cond("a = :v", n, "{\"a\":{\"S\":\"10\"}}"));
    assert_true(cond("a <> :v", n, "{\"a\":{\"S\":\"10\"}}"));
    /* Missing: false, except <> which is true. */
    assert_false(cond("a = :v", n, "{}"));
    assert_false(cond("a < :v", n, "{}"));
    assert_true(cond("a <> :v", n, "{}"));
    /* Strings by UTF-8 bytes (U+FFFD sorts after U+1F600's surrogates in
     * UTF-16 but before it in UTF-8). */
    assert_true(cond("a < :v", "{\":v\":{\"S\":\"\xF0\x9F\x98\x80\"}}",
                     "{\"a\":{\"S\":\"\xEF\xBF\xBD\"}}"));
    /* Maps and lists compare equal as documents, are not ordered. */
    assert_true(cond("a = :v", "{\":v\":{\"M\":{\"x\":{\"N\":\"1\"}}}}",
                     "{\"a\":{\"M\":{\"x\":{\"N\":\"1.00\"}}}}"));
    assert_false(cond("a < b", NULL, "{\"a\":{\"L\":[]},\"b\":{\"L\":[]}}"));
    /* A constant that cannot be ordered is refused before any item is read
     * (DynamoDB: "Incorrect operand type for operator or function;
     * operator or function: <, operand type: L"). */
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_CONDITION, "a < :v", NULL, "{\":v\":{\"L\":[]}}"), ST_VALIDATION);
    assert_non_null(strstr(f.d.msg, "operator or function: <, operand type: L"));
    fx_done(&f);
    /* Sets compare as sets. */
    assert_true(cond("a = :v", "{\":v\":{\"SS\":[\"y\",\"x\"]}}", "{\"a\":{\"SS\":[\"x\",\"y\"]}}"));
}

static void between_in_logic(void **state)
{
    (void)state;
    const char *v = "{\":lo\":{\"N\":\"1\"},\":hi\":{\"N\":\"3\"}}";
    const char *vs = "{\":lo\":{\"N\":\"1\"},\":s\":{\"S\":\"2\"}}";
    assert_true(cond("a BETWEEN :lo AND :hi", v, "{\"a\":{\"N\":\"1\"}}"));
    assert_true(cond("a BETWEEN :lo AND :hi", v, "{\"a\":{\"N\":\"3\"}}"));
    assert_false(cond("a BETWEEN :lo AND :hi", v, "{\"a\":{\"N\":\"3.01\"}}"));
    assert_false(cond("a BETWEEN :lo AND :hi", v, "{\"a\":{\"S\":\"2\"}}"));
    assert_false(cond("a BETWEEN :lo AND :hi", v, "{}"));
    assert_true(cond("a IN (:lo, :s)", vs, "{\"a\":{\"S\":\"2\"}}"));
    assert_false(cond("a IN (:lo, :hi)", v, "{\"a\":{\"S\":\"1\"}}"));
    assert_false(cond("a IN (:lo, :hi)", v, "{}"));
    /* Precedence: NOT > AND > OR. */
    const char *one = "{\":v\":{\"N\":\"1\"}}";
    assert_true(cond("a = :v OR b = :v AND c = :v", one, "{\"a\":{\"N\":\"1\"}}"));
    assert_false(cond("(a = :v OR b = :v) AND c = :v", one, "{\"a\":{\"N\":\"1\"}}"));
    assert_true(cond("NOT a = :v AND b = :v", one, "{\"b\":{\"N\":\"1\"}}"));
    assert_false(cond("NOT (a = :v OR b = :v)", one, "{\"b\":{\"N\":\"1\"}}"));
}

static void functions(void **state)
{
    (void)state;
    assert_true(cond("attribute_exists(a.b[1])", NULL,
                     "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"0\"},{\"NULL\":true}]}}}}"));
    assert_false(cond("attribute_exists(a.b[2])", NULL,
                      "{\"a\":{\"M\":{\"b\":{\"L\":[{\"N\":\"0\"},{\"NULL\":true}]}}}}"));
    assert_true(cond("attribute_not_exists(a.c)", NULL, "{\"a\":{\"S\":\"x\"}}"));
    const char *t = "{\":t\":{\"S\":\"NS\"}}";
    assert_true(cond("attribute_type(a, :t)", t, "{\"a\":{\"NS\":[\"1\"]}}"));
    assert_false(cond("attribute_type(a, :t)", t, "{\"a\":{\"SS\":[\"1\"]}}"));
    assert_false(cond("attribute_type(a, :t)", t, "{}"));
    const char *p = "{\":p\":{\"S\":\"ab\"}}";
    assert_true(cond("begins_with(a, :p)", p, "{\"a\":{\"S\":\"abc\"}}"));
    assert_true(cond("begins_with(a, :p)", p, "{\"a\":{\"S\":\"ab\"}}"));
    assert_false(cond("begins_with(a, :p)", p, "{\"a\":{\"S\":\"a\"}}"));
    assert_false(cond("begins_with(a, :p)", p, "{\"a\":{\"SS\":[\"abc\"]}}"));
    assert_true(cond("contains(a, :p)", p, "{\"a\":{\"S\":\"xaby\"}}"));
    assert_true(cond("contains(a, :p)", p, "{\"a\":{\"SS\":[\"ab\",\"c\"]}}"));
    assert_false(cond("contains(a, :p)", p, "{\"a\":{\"SS\":[\"abc\"]}}"));
    assert_true(cond("contains(a, :p)", p, "{\"a\":{\"L\":[{\"N\":\"1\"},{\"S\":\"ab\"}]}}"));
    assert_false(cond("contains(a, :p)", p, "{\"a\":{\"M\":{\"ab\":{\"S\":\"ab\"}}}}"));
    assert_true(cond("contains(a, :n)", "{\":n\":{\"N\":\"2.0\"}}", "{\"a\":{\"NS\":[\"1\",\"2\"]}}"));
    const char *two = "{\":n\":{\"N\":\"2\"}}";
    assert_true(cond("size(a) = :n", two, "{\"a\":{\"S\":\"\xF0\x9F\x98\x80\"}}")); /* one surrogate pair */
    assert_true(cond("size(a) = :n", two, "{\"a\":{\"B\":\"AAE=\"}}"));
    assert_true(cond("size(a) = :n", two, "{\"a\":{\"BS\":[\"AA==\",\"AQ==\"]}}"));
    assert_true(cond("size(a) = :n", two, "{\"a\":{\"M\":{\"x\":{\"N\":\"1\"},\"y\":{\"N\":\"1\"}}}}"));
    assert_false(cond("size(a) = :n", two, "{\"a\":{\"N\":\"22\"}}"));
    assert_true(cond("size(a) <> :n", two, "{\"a\":{\"N\":\"22\"}}")); /* no size: <> is true */
}

static void no_item(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_CONDITION, "attribute_not_exists(PK) AND a <> :v", NULL,
                              "{\":v\":{\"N\":\"1\"}}"), ST_OK);
    assert_true(expr_eval(f.e, NULL));
    fx_done(&f);
}

static void shared_context(void **state)
{
    (void)state;
    /* A value used only by the second expression of a request is used. */
    av values = parse_item("{\":a\":{\"N\":\"1\"},\":b\":{\"N\":\"2\"}}");
    av names = parse_names("{\"#s\":\"status\"}");
    expr_ctx cx;
    diag d;
    diag_init(&d);
    expr *u = NULL, *c = NULL;
    assert_int_equal(expr_ctx_init(&cx, &names, &values, &d), ST_OK);
    assert_int_equal(expr_parse(&cx, EXPR_UPDATE, "SET #s = :a", 11, &u, &d), ST_OK);
    assert_int_equal(expr_ctx_finish(&cx, &d), ST_VALIDATION);
    assert_string_equal(d.msg, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:b}");
    assert_int_equal(expr_parse(&cx, EXPR_CONDITION, "#s < :b", 7, &c, &d), ST_OK);
    assert_int_equal(expr_ctx_finish(&cx, &d), ST_OK);
    expr_free(u);
    expr_free(c);
    expr_ctx_done(&cx);
    av_done(&values);
    av_done(&names);
}

static void errors_have_positions(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_CONDITION, "a = :v AND status = :v", NULL, "{\":v\":{\"N\":\"1\"}}"),
                     ST_VALIDATION);
    assert_string_equal(f.d.msg, "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status");
    assert_int_equal(f.d.pos, 11);
    assert_null(f.e);
    fx_done(&f);
    assert_int_equal(fx_parse(&f, EXPR_FILTER, "a = :v AND AND", NULL, "{\":v\":{\"N\":\"1\"}}"), ST_VALIDATION);
    assert_string_equal(f.d.msg, "Invalid FilterExpression: Syntax error; token: \"AND\", near: \"AND AND\"");
    assert_int_equal(f.d.pos, 11);
    fx_done(&f);
    assert_true(expr_is_reserved("status", 6));
    assert_true(expr_is_reserved("ZONE", 4));
    assert_false(expr_is_reserved("PK", 2));
    assert_int_equal(expr_reserved_count(), 573);
}

static void ast_walk(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_CONDITION, "#n.b[2] IN (:x, :y) OR NOT begins_with(c, :x)",
                              "{\"#n\":\"name\"}", "{\":x\":{\"S\":\"1\"},\":y\":{\"S\":\"2\"}}"), ST_OK);
    const expr_node *r = expr_root(f.e);
    assert_int_equal(r->kind, EN_OR);
    assert_int_equal(r->n_kids, 2);
    const expr_node *in = r->kids[0];
    assert_int_equal(in->kind, EN_IN);
    assert_int_equal(in->n_kids, 3);
    const expr_node *p = in->kids[0];
    assert_int_equal(p->kind, EN_PATH);
    assert_int_equal(p->path.n, 3);
    assert_string_equal(p->path.steps[0].alias, "#n");
    assert_string_equal(p->path.steps[0].name, "name");
    assert_true(p->path.steps[2].is_index);
    assert_int_equal(p->path.steps[2].index, 2);
    assert_string_equal(in->kids[1]->name, ":x");
    assert_int_equal(in->kids[1]->value->type, AV_S);
    const expr_node *fn = r->kids[1]->kids[0];
    assert_int_equal(fn->kind, EN_FUNC);
    assert_int_equal(fn->op, FN_BEGINS_WITH);
    assert_int_equal(fn->pos, 27);
    buf b = BUF_INIT;
    expr_print(f.e, &b);
    assert_string_equal(b.data, "#n.b[2] IN (:x, :y) OR NOT begins_with(c, :x)");
    buf_done(&b);
    fx_done(&f);
}

static void key_ranges(void **state)
{
    (void)state;
    fixture f;
    expr_key_range r;
    assert_int_equal(fx_parse(&f, EXPR_KEY, ":s <= SK AND PK = :p", NULL,
                              "{\":p\":{\"S\":\"p\"},\":s\":{\"N\":\"5\"}}"), ST_OK);
    assert_int_equal(expr_key_range_of(f.e, "PK", AV_S, "SK", AV_N, &r, &f.d), ST_OK);
    assert_string_equal(r.pk->u.s.ptr, "p");
    assert_int_equal(r.op, KEY_SK_GE);
    assert_non_null(r.lo);
    assert_true(r.lo_incl);
    assert_null(r.hi);
    av sk;
    num n;
    num_from_int(&n, 5);
    av_init_n(&sk, &n);
    assert_true(expr_key_match_sk(&r, &sk));
    num_from_int(&sk.u.n, 4);
    assert_false(expr_key_match_sk(&r, &sk));
    /* Wrong schema type. */
    assert_int_equal(expr_key_range_of(f.e, "PK", AV_S, "SK", AV_S, &r, &f.d), ST_VALIDATION);
    assert_string_equal(f.d.msg, "One or more parameter values were invalid: Condition parameter type does not match schema type");
    fx_done(&f);

    assert_int_equal(fx_parse(&f, EXPR_KEY, "PK = :p AND begins_with(SK, :s)", NULL,
                              "{\":p\":{\"S\":\"p\"},\":s\":{\"S\":\"ab\"}}"), ST_OK);
    assert_int_equal(expr_key_range_of(f.e, "PK", AV_S, "SK", AV_S, &r, &f.d), ST_OK);
    assert_int_equal(r.op, KEY_SK_BEGINS);
    assert_non_null(r.prefix);
    av s;
    av_init_s(&s, "abc", 3);
    assert_true(expr_key_match_sk(&r, &s));
    av_done(&s);
    av_init_s(&s, "b", 1);
    assert_false(expr_key_match_sk(&r, &s));
    av_done(&s);
    assert_int_equal(expr_key_range_of(f.e, "X", AV_S, "SK", AV_S, &r, &f.d), ST_VALIDATION);
    assert_string_equal(f.d.msg, "Query condition missed key schema element: X");
    fx_done(&f);
}

static void projections(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_PROJECTION, "l[3], m.x, l[1], m.y[0].z", NULL, NULL), ST_OK);
    av item = parse_item("{\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]},"
                         "\"m\":{\"M\":{\"x\":{\"S\":\"x\"},\"w\":{\"S\":\"w\"},"
                         "\"y\":{\"L\":[{\"M\":{\"z\":{\"N\":\"9\"},\"q\":{\"N\":\"8\"}}}]}}},\"o\":{\"N\":\"1\"}}");
    av out;
    expr_project(f.e, &item, &out);
    av want = parse_item("{\"l\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"}]},"
                         "\"m\":{\"M\":{\"x\":{\"S\":\"x\"},\"y\":{\"L\":[{\"M\":{\"z\":{\"N\":\"9\"}}}]}}}}");
    assert_true(av_equal(&out, &want));
    av_done(&out);
    expr_project(f.e, NULL, &out);
    assert_int_equal(out.type, AV_M);
    assert_int_equal(out.u.m.len, 0);
    av_done(&out);
    av_done(&want);
    av_done(&item);
    fx_done(&f);
}

static void update_paths_projected(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_UPDATE, "SET a.b = :v, l[1] = :v REMOVE c", NULL,
                              "{\":v\":{\"N\":\"1\"}}"), ST_OK);
    av item = parse_item("{\"a\":{\"M\":{\"b\":{\"N\":\"0\"},\"x\":{\"N\":\"9\"}}},"
                         "\"l\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"}]},\"c\":{\"S\":\"c\"},\"d\":{\"S\":\"d\"}}");
    av out;
    expr_project(f.e, &item, &out);
    av want = parse_item("{\"a\":{\"M\":{\"b\":{\"N\":\"0\"}}},\"l\":{\"L\":[{\"N\":\"1\"}]},"
                         "\"c\":{\"S\":\"c\"}}");
    assert_true(av_equal(&out, &want));
    av_done(&out);
    av_done(&want);
    av_done(&item);
    fx_done(&f);
}

static void nested_paths(void **state)
{
    (void)state;
    fixture f;
    assert_int_equal(fx_parse(&f, EXPR_FILTER, "size(pk[1]) > :v AND #s.x = :v AND sk = :v",
                              "{\"#s\":\"sk2\"}", "{\":v\":{\"N\":\"1\"}}"), ST_OK);
    assert_non_null(expr_nested_path(f.e, "pk", 2));
    assert_int_equal(expr_nested_path(f.e, "pk", 2)->pos, 5);
    assert_non_null(expr_nested_path(f.e, "sk2", 3));
    assert_null(expr_nested_path(f.e, "sk", 2));
    assert_null(expr_nested_path(f.e, "p", 1));
    fx_done(&f);
}

static status update(const char *text, const char *values, const char *old_json, av *out, diag *d,
                     expr_names *ch)
{
    fixture f;
    status st = fx_parse(&f, EXPR_UPDATE, text, NULL, values);
    if (st)
        fail_msg("%s: %s", text, f.d.msg);
    av old = old_json ? parse_item(old_json) : (av){ 0 };
    st = expr_update_apply(f.e, old_json ? &old : NULL, out, ch, d);
    if (ch) {
        /* names point into the expression: copy what the test checks */
        for (size_t i = 0; i < ch->n; i++)
            ch->v[i] = strdup(ch->v[i]);
    }
    av_done(&old);
    fx_done(&f);
    return st;
}

static void updates(void **state)
{
    (void)state;
    av out, want;
    diag d;
    diag_init(&d);
    expr_names ch = { 0 };
    assert_int_equal(update("SET a = a + :v, b = a, c = list_append(:l, c) REMOVE r[2], r[0] ADD n :v, s :s DELETE t :t",
                            "{\":v\":{\"N\":\"1\"},\":l\":{\"L\":[{\"S\":\"x\"}]},\":s\":{\"NS\":[\"3\",\"1\"]},\":t\":{\"SS\":[\"a\"]}}",
                            "{\"a\":{\"N\":\"1\"},\"c\":{\"L\":[{\"S\":\"y\"}]},\"r\":{\"L\":[{\"N\":\"0\"},{\"N\":\"1\"},{\"N\":\"2\"},{\"N\":\"3\"}]},"
                            "\"s\":{\"NS\":[\"2\",\"3\"]},\"t\":{\"SS\":[\"a\"]}}",
                            &out, &d, &ch), ST_OK);
    want = parse_item("{\"a\":{\"N\":\"2\"},\"b\":{\"N\":\"1\"},\"c\":{\"L\":[{\"S\":\"x\"},{\"S\":\"y\"}]},"
                      "\"r\":{\"L\":[{\"N\":\"1\"},{\"N\":\"3\"}]},\"n\":{\"N\":\"1\"},\"s\":{\"NS\":[\"1\",\"2\",\"3\"]}}");
    assert_true(av_equal(&out, &want));
    assert_int_equal(ch.n, 7);
    assert_string_equal(ch.v[0], "a");
    assert_string_equal(ch.v[6], "t");
    for (size_t i = 0; i < ch.n; i++)
        free((char *)ch.v[i]);
    expr_names_done(&ch);
    av_done(&out);
    av_done(&want);

    assert_int_equal(update("SET a = b", NULL, "{}", &out, &d, NULL), ST_VALIDATION);
    assert_string_equal(d.msg, "The provided expression refers to an attribute that does not exist in the item");
    assert_int_equal(out.type, AV_NONE);
    assert_int_equal(update("SET a.b = :v", "{\":v\":{\"N\":\"1\"}}", NULL, &out, &d, NULL), ST_VALIDATION);
    assert_string_equal(d.msg, "The document path provided in the update expression is invalid for update");
    assert_int_equal(update("ADD a :v", "{\":v\":{\"N\":\"1\"}}", "{\"a\":{\"SS\":[\"x\"]}}", &out, &d, NULL), ST_VALIDATION);
    assert_string_equal(d.msg, "An operand in the update expression has an incorrect data type");
    /* An emptied set disappears. */
    assert_int_equal(update("DELETE s :s", "{\":s\":{\"SS\":[\"x\",\"y\"]}}", "{\"s\":{\"SS\":[\"x\"]}}", &out, &d, NULL), ST_OK);
    assert_int_equal(out.u.m.len, 0);
    av_done(&out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(comparisons),
        cmocka_unit_test(between_in_logic),
        cmocka_unit_test(functions),
        cmocka_unit_test(no_item),
        cmocka_unit_test(shared_context),
        cmocka_unit_test(errors_have_positions),
        cmocka_unit_test(ast_walk),
        cmocka_unit_test(key_ranges),
        cmocka_unit_test(projections),
        cmocka_unit_test(updates),
        cmocka_unit_test(update_paths_projected),
        cmocka_unit_test(nested_paths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
