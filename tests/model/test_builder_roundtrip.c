/* builder round trips on generated expressions: a random tree prints to
 * text + maps; the text parses back (through model/expr) to a tree that
 * prints to an equivalent expression (same verdict on random items) and
 * is a fixed point (printing it, parsing and printing again gives the
 * same text and maps). Also: the verdict of every generated tree agrees
 * with expr_eval of its text. Deterministic (fixed seed). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "model/ddbjson.h"

#define N_TREES 400
#define N_ITEMS 24

static uint64_t rng = 0x9E3779B97F4A7C15u;

static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* Names: plain, reserved, non-identifier, nested. */
static const char *const pool[] = { "a", "b", "status", "name", "my-attr", "x.y", "count", "이름" };
#define N_NAMES (sizeof pool / sizeof *pool)

static void rand_path(bpath *p, bool allow_nested)
{
    const char *n = pool[rnd(N_NAMES)];
    builder_path_push(p, n, strlen(n));
    if (allow_nested && rnd(4) == 0) {
        if (rnd(2))
            builder_path_push_index(p, rnd(3));
        else
            builder_path_push(p, "k", 1);
    }
}

static void value_of(av_type t, const char *text, av *out)
{
    diag d;
    diag_init(&d);
    if (builder_value_parse(t, text, strlen(text), out, &d))
        fail_msg("%s", d.msg);
}

static void rand_scalar(av *v, av_type t)
{
    static const char *const ss[] = { "a", "b", "ab", "", "가" };
    static const char *const ns[] = { "0", "1", "2", "-1", "2.5" };
    switch (t) {
    case AV_S: value_of(AV_S, ss[rnd(5)], v); break;
    case AV_N: value_of(AV_N, ns[rnd(5)], v); break;
    case AV_BOOL: value_of(AV_BOOL, rnd(2) ? "true" : "false", v); break;
    case AV_NULL: value_of(AV_NULL, "", v); break;
    case AV_SS: value_of(AV_SS, rnd(2) ? "a" : "a,b", v); break;
    case AV_NS: value_of(AV_NS, rnd(2) ? "1" : "1,2", v); break;
    case AV_L: value_of(AV_L, rnd(2) ? "[\"a\"]" : "[1, 2]", v); break;
    case AV_M: value_of(AV_M, "{\"k\": \"a\"}", v); break;
    default: value_of(AV_S, "a", v); break;
    }
}

static av_type rand_type(void)
{
    static const av_type ts[] = { AV_S, AV_N, AV_S, AV_N, AV_BOOL, AV_NULL, AV_SS, AV_NS, AV_L, AV_M };
    return ts[rnd(10)];
}

static void rand_clause(bnode *c)
{
    bop op = (bop)rnd(BOP__COUNT);
    builder_set_op(c, op);
    rand_path(&c->left.path, true);
    c->left.kind = BO_PATH;
    av_type t = rnd(2) ? AV_N : AV_S;
    switch (op) {
    case BOP_EQ: case BOP_NE: case BOP_LT: case BOP_LE: case BOP_GT: case BOP_GE:
        if (rnd(5) == 0) {                       /* size(path) compared */
            c->left.kind = BO_SIZE;
            rand_scalar(&c->args[0].value, AV_N);
        } else if (rnd(6) == 0) {                /* path against path */
            /* DynamoDB wants the two paths distinct. */
            c->args[0].kind = BO_PATH;
            do {
                builder_path_free(&c->args[0].path);
                rand_path(&c->args[0].path, false);
            } while (c->left.path.n == 1 && strcmp(c->left.path.v[0].name, c->args[0].path.v[0].name) == 0);
        } else {
            rand_scalar(&c->args[0].value, op <= BOP_NE ? rand_type() : t);
        }
        break;
    case BOP_BETWEEN: {
        rand_scalar(&c->args[0].value, AV_N);
        rand_scalar(&c->args[1].value, AV_N);
        if (av_cmp(&c->args[0].value, &c->args[1].value) > 0) {
            av tmp = c->args[0].value;
            c->args[0].value = c->args[1].value;
            c->args[1].value = tmp;
        }
        break;
    }
    case BOP_IN: {
        size_t k = 1 + rnd(3);
        c->args = realloc(c->args, k * sizeof *c->args);
        memset(c->args, 0, k * sizeof *c->args);
        c->n_args = k;
        for (size_t i = 0; i < k; i++) {
            c->args[i].kind = BO_VALUE;
            rand_scalar(&c->args[i].value, rand_type());
        }
        break;
    }
    case BOP_TYPE: {
        static const char *const tn[] = { "S", "N", "BOOL", "NULL", "L", "M", "SS", "NS" };
        value_of(AV_S, tn[rnd(8)], &c->args[0].value);
        break;
    }
    case BOP_BEGINS:
        rand_scalar(&c->args[0].value, AV_S);
        break;
    case BOP_CONTAINS:
        rand_scalar(&c->args[0].value, rnd(2) ? AV_S : AV_N);
        break;
    default:
        break;
    }
}

static void rand_group(builder *b, bnode *g, int depth)
{
    size_t k = 1 + rnd(depth == 0 ? 4 : 3);
    for (size_t i = 0; i < k; i++) {
        bnode *n;
        if (depth < 3 && rnd(4) == 0) {
            n = builder_add_group(b, g, g->n_kids, rnd(2));
            rand_group(b, n, depth + 1);
        } else {
            n = builder_add_clause(b, g, g->n_kids);
            rand_clause(n);
        }
        n->neg = rnd(5) == 0;
    }
}

static void rand_item(av *it)
{
    av_init_list(it, AV_M);
    for (size_t i = 0; i < N_NAMES; i++) {
        if (rnd(3) == 0)
            continue;
        av v;
        if (rnd(5) == 0) {                        /* a map or list for nested paths */
            if (rnd(2))
                value_of(AV_M, "{\"k\": 1}", &v);
            else
                value_of(AV_L, "[\"a\", 1, 2]", &v);
        } else {
            rand_scalar(&v, rand_type());
        }
        av_map_put(it, pool[i], strlen(pool[i]), &v);
    }
}

typedef struct printed {
    buf text, names, values;
} printed;

static void print_tree(builder *b, printed *p)
{
    bmaps m;
    diag d;
    diag_init(&d);
    memset(p, 0, sizeof *p);
    builder_maps_init(&m);
    if (builder_print(b, &m, &p->text, &d))
        fail_msg("print: %s", d.msg);
    builder_maps_names_json(&m, &p->names);
    builder_maps_values_json(&m, &p->values);
    builder_maps_done(&m);
}

static void printed_done(printed *p)
{
    buf_done(&p->text);
    buf_done(&p->names);
    buf_done(&p->values);
}

/* Parses printed text with expr alone, for evaluation. */
static expr *compile(const printed *p, av *names, av *values, expr_ctx *cx)
{
    diag d;
    diag_init(&d);
    names->type = values->type = AV_NONE;
    if (p->names.len)
        assert_int_equal(ddbjson_parse_plain_item(p->names.data, p->names.len, names, &d), ST_OK);
    if (p->values.len)
        assert_int_equal(ddbjson_parse_item(p->values.data, p->values.len, values, &d), ST_OK);
    assert_int_equal(expr_ctx_init(cx, names->type ? names : NULL, values->type ? values : NULL, &d), ST_OK);
    expr *e = NULL;
    if (expr_parse(cx, EXPR_CONDITION, p->text.data, p->text.len, &e, &d))
        fail_msg("expr refuses \"%s\": %s", p->text.data, d.msg);
    assert_int_equal(expr_ctx_finish(cx, &d), ST_OK);
    return e;
}

static void generated_round_trips(void **state)
{
    (void)state;
    av items[N_ITEMS];
    for (size_t i = 0; i < N_ITEMS; i++)
        rand_item(&items[i]);
    size_t agree = 0, differ_text = 0;
    for (int t = 0; t < N_TREES; t++) {
        builder *b = builder_new();
        b->root->is_or = rnd(2);
        rand_group(b, b->root, 0);
        printed p1, p2, p3;
        print_tree(b, &p1);

        builder *b2 = NULL, *b3 = NULL;
        diag d;
        diag_init(&d);
        if (builder_parse(EXPR_CONDITION, p1.text.data, p1.names.data, p1.values.data, &b2, &d))
            fail_msg("tree %d: \"%s\" does not parse back: %s", t, p1.text.data, d.msg);
        print_tree(b2, &p2);
        if (builder_parse(EXPR_CONDITION, p2.text.data, p2.names.data, p2.values.data, &b3, &d))
            fail_msg("tree %d: \"%s\" does not parse back: %s", t, p2.text.data, d.msg);
        print_tree(b3, &p3);
        /* The reparsed tree is a fixed point. */
        assert_string_equal(p2.text.data, p3.text.data);
        assert_string_equal(p2.names.data ? p2.names.data : "", p3.names.data ? p3.names.data : "");
        assert_string_equal(p2.values.data ? p2.values.data : "", p3.values.data ? p3.values.data : "");
        differ_text += strcmp(p1.text.data, p2.text.data) != 0;

        /* Equivalent: the same verdict on every item, and the builder's
         * own verdict agrees with expr_eval. */
        av n1, v1, n2, v2;
        expr_ctx c1, c2;
        expr *e1 = compile(&p1, &n1, &v1, &c1);
        expr *e2 = compile(&p2, &n2, &v2, &c2);
        for (size_t i = 0; i < N_ITEMS; i++) {
            bool r1 = expr_eval(e1, &items[i]);
            bool r2 = expr_eval(e2, &items[i]);
            if (r1 != r2)
                fail_msg("tree %d: \"%s\" and \"%s\" disagree on item %zu", t, p1.text.data, p2.text.data, i);
            bverdict v;
            assert_int_equal(builder_verdict(b, NULL, EXPR_CONDITION, &items[i], &v, &d), ST_OK);
            assert_int_equal(v.ok, r1);
            assert_true(v.n >= 2);
            assert_int_equal(v.v[0].verdict, r1);
            builder_verdict_done(&v);
            agree += r1;
        }
        expr_free(e1);
        expr_free(e2);
        expr_ctx_done(&c1);
        expr_ctx_done(&c2);
        av_done(&n1);
        av_done(&v1);
        av_done(&n2);
        av_done(&v2);
        printed_done(&p1);
        printed_done(&p2);
        printed_done(&p3);
        builder_free(b);
        builder_free(b2);
        builder_free(b3);
    }
    /* The generator is not degenerate: some verdicts true, some false,
     * and some trees normalise (flattened groups, NOT NOT). */
    assert_true(agree > 0 && agree < (size_t)N_TREES * N_ITEMS);
    assert_true(differ_text > 0);
    for (size_t i = 0; i < N_ITEMS; i++)
        av_done(&items[i]);
}

/* ---- update rows ---------------------------------------------------------- */

#define N_UPDATES 300

/* A SET operand of the given depth budget: a path, a value (of type want
 * when not AV_NONE: + and - take N, list_append L), if_not_exists(path,
 * operand) or list_append(operand, operand), but not a list_append right
 * inside a list_append or as an if_not_exists default (DynamoDB refuses
 * both; the builder says so). in_append: no list_append here. */
static void rand_uopnd(bopnd *o, av_type want, int depth, bool in_append)
{
    unsigned k = rnd(depth > 0 ? 4 : 2);
    if (want == AV_L && k == 0)     /* a path of unknown type: keep it a list */
        k = depth > 0 ? 3 : 1;
    if (k == 3 && in_append)
        k = 2;
    memset(o, 0, sizeof *o);
    if (k == 0 || (k == 3 && want == AV_N)) {
        o->kind = BO_PATH;
        rand_path(&o->path, true);
    } else if (k == 1) {
        o->kind = BO_VALUE;
        rand_scalar(&o->value, want != AV_NONE ? want : rand_type());
    } else if (k == 2) {
        builder_opnd_set_kind(o, BO_IF_NOT_EXISTS);
        rand_path(&o->path, true);
        if (rnd(2)) {
            rand_scalar(&o->value, want != AV_NONE ? want : rand_type());
        } else {
            o->sub = calloc(1, sizeof *o->sub);
            o->n_sub = 1;
            rand_uopnd(&o->sub[0], want, depth - 1, true);
        }
    } else {
        builder_opnd_set_kind(o, BO_LIST_APPEND);
        for (int i = 0; i < 2; i++) {
            builder_opnd_free(&o->sub[i]);
            rand_uopnd(&o->sub[i], AV_L, depth - 1, true);
        }
    }
}

/* Rows on distinct top-level names (DynamoDB refuses overlapping paths):
 * SET in every form, REMOVE (nested and list elements), ADD of a number
 * or a set, DELETE of a set. */
static void rand_update(bupdate *u)
{
    bool used[N_NAMES] = { false };
    size_t rows = 1 + rnd(4);
    for (size_t r = 0; r < rows; r++) {
        size_t ni = rnd(N_NAMES);
        while (used[ni])
            ni = (ni + 1) % N_NAMES;
        used[ni] = true;
        bu_kind k = (bu_kind)rnd(4);
        baction *a = builder_update_add(u, k);
        builder_path_push(&a->path, pool[ni], strlen(pool[ni]));
        if ((k == BU_SET || k == BU_REMOVE) && rnd(3) == 0) {
            if (rnd(2))
                builder_path_push_index(&a->path, rnd(3));
            else
                builder_path_push(&a->path, "k", 1);
        }
        if (k == BU_REMOVE)
            continue;
        builder_opnd_free(&a->a);
        builder_opnd_free(&a->b);
        if (k == BU_ADD || k == BU_DELETE) {
            a->a.kind = BO_VALUE;
            rand_scalar(&a->a.value, k == BU_ADD && rnd(2) ? AV_N : rnd(2) ? AV_SS : AV_NS);
            continue;
        }
        a->form = (bu_form)rnd(4);
        av_type want = a->form == BF_PLUS || a->form == BF_MINUS ? AV_N
                     : a->form == BF_LIST_APPEND ? AV_L : AV_NONE;
        rand_uopnd(&a->a, want, 2, a->form == BF_LIST_APPEND);
        if (a->form != BF_PLAIN)
            rand_uopnd(&a->b, want, 2, a->form == BF_LIST_APPEND);
    }
}

static void print_update(const bupdate *u, printed *p)
{
    bmaps m;
    diag d;
    diag_init(&d);
    memset(p, 0, sizeof *p);
    builder_maps_init(&m);
    if (builder_update_print(u, &m, &p->text, &d))
        fail_msg("update print: %s", d.msg);
    builder_maps_names_json(&m, &p->names);
    builder_maps_values_json(&m, &p->values);
    builder_maps_done(&m);
}

/* Applies printed update text to item with model/expr: the new item, or
 * AV_NONE when DynamoDB's runtime refuses it (a type it can not add). */
static void apply_update(const printed *p, const av *item, av *out)
{
    av names, values;
    expr_ctx cx;
    diag d;
    diag_init(&d);
    names.type = values.type = AV_NONE;
    if (p->names.len)
        assert_int_equal(ddbjson_parse_plain_item(p->names.data, p->names.len, &names, &d), ST_OK);
    if (p->values.len)
        assert_int_equal(ddbjson_parse_item(p->values.data, p->values.len, &values, &d), ST_OK);
    assert_int_equal(expr_ctx_init(&cx, names.type ? &names : NULL, values.type ? &values : NULL, &d), ST_OK);
    expr *e = NULL;
    if (expr_parse(&cx, EXPR_UPDATE, p->text.data, p->text.len, &e, &d))
        fail_msg("expr refuses \"%s\": %s", p->text.data, d.msg);
    if (expr_update_apply(e, item, out, NULL, &d))
        out->type = AV_NONE;
    expr_free(e);
    expr_ctx_done(&cx);
    av_done(&names);
    av_done(&values);
}

/* Generated update rows, nested operands included, print to an
 * UpdateExpression model/expr accepts; it parses back to rows that print
 * the same text and maps, and both texts change every item alike. */
static void generated_update_round_trips(void **state)
{
    (void)state;
    av items[N_ITEMS];
    for (size_t i = 0; i < N_ITEMS; i++)
        rand_item(&items[i]);
    size_t nested = 0, applied = 0;
    for (int t = 0; t < N_UPDATES; t++) {
        bupdate u, u2;
        builder_update_init(&u);
        rand_update(&u);
        printed p1, p2;
        print_update(&u, &p1);
        diag d;
        diag_init(&d);
        if (builder_update_parse(p1.text.data, p1.names.data, p1.values.data, &u2, &d))
            fail_msg("update %d: \"%s\" does not parse back: %s", t, p1.text.data, d.msg);
        print_update(&u2, &p2);
        assert_string_equal(p1.text.data, p2.text.data);
        assert_string_equal(p1.names.data ? p1.names.data : "", p2.names.data ? p2.names.data : "");
        assert_string_equal(p1.values.data ? p1.values.data : "", p2.values.data ? p2.values.data : "");
        nested += strstr(p1.text.data, "if_not_exists(") && strstr(p1.text.data, "list_append(");
        for (size_t i = 0; i < N_ITEMS; i++) {
            av a, b;
            apply_update(&p1, &items[i], &a);
            apply_update(&p2, &items[i], &b);
            assert_int_equal(a.type, b.type);
            if (a.type != AV_NONE) {
                assert_true(av_equal(&a, &b));
                applied++;
            }
            av_done(&a);
            av_done(&b);
        }
        printed_done(&p1);
        printed_done(&p2);
        builder_update_done(&u);
        builder_update_done(&u2);
    }
    /* Not degenerate: nested functions occur, and many updates apply. */
    assert_true(nested > 10);
    assert_true(applied > (size_t)N_UPDATES);
    for (size_t i = 0; i < N_ITEMS; i++)
        av_done(&items[i]);
}

/* Hand-written text in many shapes (aliases of the writer's choosing,
 * redundant parentheses, odd spacing, lower-case keywords) goes to a tree
 * and back to an equivalent expression. */
static void written_texts(void **state)
{
    (void)state;
    static const struct { const char *text, *names, *values; } t[] = {
        { "(a = :v OR b = :v) AND c = :v", NULL, "{\":v\":{\"N\":\"1\"}}" },
        { "a=:v and b<>:v or not c<:v", NULL, "{\":v\":{\"N\":\"1\"}}" },
        { "#x.#y[0] > :v", "{\"#x\":\"my-attr\",\"#y\":\"status\"}", "{\":v\":{\"N\":\"1\"}}" },
        { "NOT (a = :v OR (b = :v AND NOT (c = :v OR d = :v)))", NULL, "{\":v\":{\"S\":\"a\"}}" },
        { "size(#n) BETWEEN :lo AND :hi", "{\"#n\":\"name\"}", "{\":lo\":{\"N\":\"1\"},\":hi\":{\"N\":\"3\"}}" },
        { "contains(tags, :t) AND attribute_type(a, :ty)", NULL, "{\":t\":{\"S\":\"a\"},\":ty\":{\"S\":\"SS\"}}" },
        { "a IN (:v, :w) OR b IN (:w)", NULL, "{\":v\":{\"N\":\"1\"},\":w\":{\"S\":\"b\"}}" },
        { "a < b", NULL, NULL },
        { ":v = a", NULL, "{\":v\":{\"N\":\"1\"}}" },
    };
    av items[N_ITEMS];
    for (size_t i = 0; i < N_ITEMS; i++)
        rand_item(&items[i]);
    for (size_t k = 0; k < sizeof t / sizeof *t; k++) {
        builder *b = NULL;
        diag d;
        diag_init(&d);
        if (builder_parse(EXPR_CONDITION, t[k].text, t[k].names, t[k].values, &b, &d))
            fail_msg("%s: %s", t[k].text, d.msg);
        printed p0 = { 0 }, p1;
        buf_adds(&p0.text, t[k].text);
        if (t[k].names)
            buf_adds(&p0.names, t[k].names);
        if (t[k].values)
            buf_adds(&p0.values, t[k].values);
        print_tree(b, &p1);
        av n0, v0, n1, v1;
        expr_ctx c0, c1;
        expr *e0 = compile(&p0, &n0, &v0, &c0);
        expr *e1 = compile(&p1, &n1, &v1, &c1);
        for (size_t i = 0; i < N_ITEMS; i++)
            if (expr_eval(e0, &items[i]) != expr_eval(e1, &items[i]))
                fail_msg("\"%s\" and \"%s\" disagree on item %zu", t[k].text, p1.text.data, i);
        expr_free(e0);
        expr_free(e1);
        expr_ctx_done(&c0);
        expr_ctx_done(&c1);
        av_done(&n0);
        av_done(&v0);
        av_done(&n1);
        av_done(&v1);
        printed_done(&p0);
        printed_done(&p1);
        builder_free(b);
    }
    for (size_t i = 0; i < N_ITEMS; i++)
        av_done(&items[i]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generated_round_trips),
        cmocka_unit_test(written_texts),
        cmocka_unit_test(generated_update_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
