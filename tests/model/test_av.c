/*
 * How DynamoDB attribute values behave: ten types; S ordered by UTF-8
 * bytes, B by unsigned bytes, N numerically; maps keyed by name; sets
 * without duplicates and without order of their own.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"

static av S(const char *s)
{
    av v;
    av_init_s(&v, s, strlen(s));
    return v;
}

static av Sn(const char *s, size_t n)
{
    av v;
    av_init_s(&v, s, n);
    return v;
}

static av B(const void *p, size_t n)
{
    av v;
    av_init_b(&v, p, n);
    return v;
}

static av N(const char *text)
{
    av v;
    num n;
    diag d;
    diag_init(&d);
    if (num_parse(text, strlen(text), &n, &d) != ST_OK)
        fail_msg("%s: %s", text, d.msg);
    av_init_n(&v, &n);
    return v;
}

/* Compares two temporaries and frees them. */
static int cmp2(av a, av b)
{
    int c = av_cmp(&a, &b);
    assert_int_equal(av_cmp(&b, &a), -c);   /* antisymmetric */
    av_done(&a);
    av_done(&b);
    return c;
}

static void type_descriptors_are_dynamodbs(void **state)
{
    (void)state;
    const char *names[] = { "S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS" };
    for (int t = AV_S; t <= AV_BS; t++) {
        assert_string_equal(av_type_name((av_type)t), names[t - AV_S]);
        assert_int_equal(av_type_from_name(names[t - AV_S], strlen(names[t - AV_S])), t);
    }
    assert_string_equal(av_type_name(AV_NONE), "");
    assert_int_equal(av_type_from_name("s", 1), AV_NONE);        /* case matters */
    assert_int_equal(av_type_from_name("SSS", 3), AV_NONE);
    assert_int_equal(av_type_from_name("BOOL", 3), AV_NONE);     /* "BOO" */
    assert_true(av_is_set(AV_NS));
    assert_false(av_is_set(AV_L));
    assert_int_equal(av_set_elem(AV_BS), AV_B);
    assert_int_equal(av_set_elem(AV_M), AV_NONE);
}

static void strings_order_by_utf8_bytes(void **state)
{
    (void)state;
    assert_int_equal(cmp2(S("B"), S("a")), -1);        /* uppercase first */
    assert_int_equal(cmp2(S("a"), S("ab")), -1);       /* prefix first */
    assert_int_equal(cmp2(S(""), S("a")), -1);
    assert_int_equal(cmp2(S("z"), S("가")), -1);       /* U+AC00 is 0xEA... */
    assert_int_equal(cmp2(S("\xef\xbd\x81"), S("\xf0\x9f\x98\x80")), -1); /* U+FF41 < U+1F600 */
    assert_int_equal(cmp2(S("ACTOR#alice"), S("ACTOR#alice")), 0);
    assert_int_equal(cmp2(Sn("a\0b", 3), S("a")), 1);  /* a NUL byte is data */
    assert_int_equal(cmp2(Sn("a\0b", 3), Sn("a\0c", 3)), -1);
}

static void binaries_order_by_unsigned_bytes(void **state)
{
    (void)state;
    assert_int_equal(cmp2(B("\x7f", 1), B("\x80", 1)), -1);
    assert_int_equal(cmp2(B("\x80", 1), B("\xff", 1)), -1);
    assert_int_equal(cmp2(B("\x00", 1), B("", 0)), 1);
    assert_int_equal(cmp2(B("\x00\x00", 2), B("\x00", 1)), 1);
}

static void numbers_order_numerically_not_as_text(void **state)
{
    (void)state;
    assert_int_equal(cmp2(N("10"), N("9")), 1);
    assert_int_equal(cmp2(N("-10"), N("-9")), -1);
    assert_int_equal(cmp2(N("1.0"), N("1")), 0);
}

static void strings_and_binaries_stay_nul_terminated(void **state)
{
    (void)state;
    av e = S("");
    assert_non_null(e.u.s.ptr);
    assert_int_equal(e.u.s.ptr[0], '\0');
    av b = B("\x01\x02", 2);
    assert_int_equal(b.u.s.ptr[2], '\0');
    av c;
    av_copy(&c, &b);
    assert_int_equal(c.u.s.len, 2);
    assert_int_equal(c.u.s.ptr[2], '\0');
    assert_ptr_not_equal(c.u.s.ptr, b.u.s.ptr);
    av_done(&e);
    av_done(&b);
    av_done(&c);
    assert_int_equal(c.type, AV_NONE);
}

static void values_of_different_types_are_never_equal(void **state)
{
    (void)state;
    av s = S("1"), n = N("1"), b = B("1", 1);
    assert_false(av_equal(&s, &n));
    assert_false(av_equal(&s, &b));
    assert_int_not_equal(av_cmp(&s, &n), 0);
    av t, f, nul;
    av_init_bool(&t, true);
    av_init_bool(&f, false);
    av_init_null(&nul);
    assert_false(av_equal(&t, &f));
    assert_true(av_cmp(&f, &t) < 0);
    assert_false(av_equal(&f, &nul));
    av nul2;
    av_init_null(&nul2);
    assert_true(av_equal(&nul, &nul2));
    av_done(&s);
    av_done(&n);
    av_done(&b);
}

static av map_of(const char *const *names, size_t n)
{
    av m;
    av_init_list(&m, AV_M);
    for (size_t i = 0; i < n; i++) {
        av v = S(names[i]);
        av_map_put(&m, names[i], strlen(names[i]), &v);
        assert_int_equal(v.type, AV_NONE);   /* ownership moved in */
    }
    return m;
}

static void map_members_are_kept_sorted_by_name(void **state)
{
    (void)state;
    const char *names[] = { "sk", "PK", "pk", "GSI1PK", "p", "가나", "" };
    av m = map_of(names, 7);
    assert_int_equal(m.u.m.len, 7);
    const char *want[] = { "", "GSI1PK", "PK", "p", "pk", "sk", "가나" };
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(m.u.m.v[i].name, want[i]);
    const av *v = av_map_get(&m, "pk", 2);
    assert_non_null(v);
    assert_string_equal(v->u.s.ptr, "pk");
    assert_null(av_map_get(&m, "PK2", 3));
    assert_ptr_equal(av_map_get(&m, "pkx", 2), v);   /* names are (ptr, len) */
    av_done(&m);
}

static void putting_an_existing_name_replaces_its_value(void **state)
{
    (void)state;
    const char *names[] = { "a", "b" };
    av m = map_of(names, 2);
    av n = N("42");
    av_map_put(&m, "a", 1, &n);
    assert_int_equal(m.u.m.len, 2);
    const av *a = av_map_get(&m, "a", 1);
    assert_int_equal(a->type, AV_N);
    av *mut = av_map_get_mut(&m, "b", 1);
    av_done(mut);
    av_init_bool(mut, true);
    assert_int_equal(av_map_get(&m, "b", 1)->type, AV_BOOL);
    assert_true(av_map_remove(&m, "a", 1));
    assert_false(av_map_remove(&m, "a", 1));
    assert_int_equal(m.u.m.len, 1);
    assert_null(av_map_get(&m, "a", 1));
    av_done(&m);
}

static void maps_are_equal_whatever_the_insertion_order(void **state)
{
    (void)state;
    const char *one[] = { "x", "y", "z" }, *two[] = { "z", "x", "y" };
    av a = map_of(one, 3), b = map_of(two, 3);
    assert_true(av_equal(&a, &b));
    assert_int_equal(av_cmp(&a, &b), 0);
    av_map_remove(&b, "y", 1);
    assert_false(av_equal(&a, &b));
    av_done(&a);
    av_done(&b);
}

static void lists_keep_order_and_order_matters(void **state)
{
    (void)state;
    av a, b;
    av_init_list(&a, AV_L);
    av_init_list(&b, AV_L);
    for (int i = 0; i < 10; i++) {
        av x = N(i % 2 ? "1" : "2"), y = N(i % 2 ? "2" : "1");
        av_list_push(&a, &x);
        av_list_push(&b, &y);
    }
    assert_int_equal(a.u.l.len, 10);
    assert_false(av_equal(&a, &b));
    assert_int_equal(av_cmp(&a, &b), 1);    /* first element 2 > 1 */
    av c;
    av_copy(&c, &a);
    assert_true(av_equal(&a, &c));
    av_done(&c);
    av_done(&a);
    av_done(&b);
}

static av set_of(av_type t, const char *const *elems, size_t n)
{
    av s;
    av_init_list(&s, t);
    for (size_t i = 0; i < n; i++) {
        av e = t == AV_NS ? N(elems[i]) : t == AV_SS ? S(elems[i]) : B(elems[i], strlen(elems[i]));
        av_list_push(&s, &e);
    }
    return s;
}

static void sets_are_sorted_and_detect_duplicates(void **state)
{
    (void)state;
    const char *nums[] = { "10", "9", "-1", "0.5" };
    av ns = set_of(AV_NS, nums, 4);
    assert_true(av_set_normalize(&ns));
    const char *order[] = { "-1", "0.5", "9", "10" };
    for (size_t i = 0; i < 4; i++) {
        av want = N(order[i]);
        assert_true(av_equal(&ns.u.l.v[i], &want));
        assert_true(av_set_has(&ns, &want));
        av_done(&want);
    }
    av absent = N("11");
    assert_false(av_set_has(&ns, &absent));
    av_done(&absent);
    av str = S("10");
    assert_false(av_set_has(&ns, &str));     /* wrong element type */
    av_done(&str);
    av_done(&ns);

    /* "1" and "1.0" are the same number: a duplicate DynamoDB refuses. */
    const char *dup[] = { "1", "2", "1.0" };
    av nd = set_of(AV_NS, dup, 3);
    assert_false(av_set_normalize(&nd));
    assert_int_equal(nd.u.l.len, 2);
    av_done(&nd);

    const char *strs[] = { "b", "a", "b", "c", "a" };
    av ss = set_of(AV_SS, strs, 5);
    assert_false(av_set_normalize(&ss));
    assert_int_equal(ss.u.l.len, 3);
    av_done(&ss);
}

static void sets_are_equal_whatever_the_input_order(void **state)
{
    (void)state;
    const char *one[] = { "x", "y", "z" }, *two[] = { "z", "y", "x" };
    av a = set_of(AV_BS, one, 3), b = set_of(AV_BS, two, 3);
    av_set_normalize(&a);
    av_set_normalize(&b);
    assert_true(av_equal(&a, &b));
    av c = set_of(AV_SS, one, 3);
    av_set_normalize(&c);
    assert_false(av_equal(&a, &c));          /* BS is not SS */
    av_done(&a);
    av_done(&b);
    av_done(&c);
}

static void deep_copy_shares_nothing(void **state)
{
    (void)state;
    const char *names[] = { "k" };
    av inner = map_of(names, 1);
    av outer;
    av_init_list(&outer, AV_M);
    av_map_put(&outer, "inner", 5, &inner);
    av copy;
    av_copy(&copy, &outer);
    assert_true(av_equal(&outer, &copy));
    av *ci = av_map_get_mut(&copy, "inner", 5);
    av v = S("changed");
    av_map_put(ci, "k", 1, &v);
    assert_false(av_equal(&outer, &copy));
    assert_string_equal(av_map_get(av_map_get(&outer, "inner", 5), "k", 1)->u.s.ptr, "k");
    av moved;
    av_move(&moved, &copy);
    assert_int_equal(copy.type, AV_NONE);
    assert_int_equal(moved.type, AV_M);
    av_done(&copy);     /* freeing a moved-from value is harmless */
    av_done(&moved);
    av_done(&outer);
}

static void comparison_orders_types_first_so_it_can_sort_anything(void **state)
{
    (void)state;
    assert_true(cmp2(S("z"), N("1")) < 0);       /* AV_S before AV_N */
    assert_true(cmp2(N("1E+125"), B("", 0)) < 0);
}

/* The plain text every formatter builds on: S raw (control bytes and NUL
 * kept; escaping is the terminal's job), N in num_format's canonical form
 * (tests/model/test_num.c pins it), B as the base64 DynamoDB JSON
 * carries (API reference, AttributeValue: B), NULL as null
 * (never true, which would read as a BOOL); containers are not scalars. */
static void scalar_text_is_the_plain_form_of_each_scalar(void **state)
{
    (void)state;
    struct { av v; const char *want; size_t n; } cases[] = {
        { Sn("a\"\\\x01\0b", 6), "a\"\\\x01\0b", 6 },
        { N("0012.500"), "12.5", 4 },
        { B("\0\"\"", 3), "ACIi", 4 },
        { B("", 0), "", 0 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf b = BUF_INIT;
        assert_true(av_scalar_text(&cases[i].v, &b));
        assert_int_equal(b.len, cases[i].n);
        assert_memory_equal(b.data ? b.data : "", cases[i].want, cases[i].n);
        buf_done(&b);
        av_done(&cases[i].v);
    }
    av t, nul, l;
    av_init_bool(&t, true);
    av_init_null(&nul);
    buf b = BUF_INIT;
    assert_true(av_scalar_text(&t, &b));
    buf_addc(&b, ' ');
    assert_true(av_scalar_text(&nul, &b));
    assert_string_equal(b.data, "true null");
    buf_done(&b);
    av_init_list(&l, AV_L);
    assert_false(av_scalar_text(&l, &b));
    av_done(&l);
    av_init_list(&l, AV_SS);
    assert_false(av_scalar_text(&l, &b));
    assert_int_equal(b.len, 0);
    buf_done(&b);
    av_done(&l);
}

/* av_scalar_parse reads back what av_scalar_text writes, for the key
 * types, with DynamoDB's messages for what does not read (a B value's
 * base64 as the API decodes it: SerializationException). */
static void scalar_parse_reads_back_the_plain_form(void **state)
{
    (void)state;
    struct { av v; } cases[] = { { Sn("a\"\\\x01\0b", 6) }, { N("0012.500") }, { B("\0\"\"", 3) }, { B("", 0) } };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        buf b = BUF_INIT;
        av back;
        diag d;
        diag_init(&d);
        assert_true(av_scalar_text(&cases[i].v, &b));
        assert_int_equal(av_scalar_parse(cases[i].v.type, b.data ? b.data : "", b.len, &back, &d), ST_OK);
        assert_true(av_equal(&back, &cases[i].v));
        av_done(&back);
        buf_done(&b);
        av_done(&cases[i].v);
    }
    av out;
    diag d;
    diag_init(&d);
    assert_int_equal(av_scalar_parse(AV_N, "4x", 2, &out, &d), ST_VALIDATION);
    assert_int_equal(out.type, AV_NONE);
    assert_int_equal(av_scalar_parse(AV_B, "AAA", 3, &out, &d), ST_SERIALIZATION);
    assert_string_equal(d.msg, "Base64 encoded length is expected a multiple of 4 bytes but found: 3");
    assert_int_equal(av_scalar_parse(AV_B, "AA=A", 4, &out, &d), ST_SERIALIZATION);
    assert_string_equal(d.msg, "Invalid last non-pad Base64 character dectected");
    assert_int_equal(out.type, AV_NONE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(type_descriptors_are_dynamodbs),
        cmocka_unit_test(strings_order_by_utf8_bytes),
        cmocka_unit_test(binaries_order_by_unsigned_bytes),
        cmocka_unit_test(numbers_order_numerically_not_as_text),
        cmocka_unit_test(strings_and_binaries_stay_nul_terminated),
        cmocka_unit_test(values_of_different_types_are_never_equal),
        cmocka_unit_test(map_members_are_kept_sorted_by_name),
        cmocka_unit_test(putting_an_existing_name_replaces_its_value),
        cmocka_unit_test(maps_are_equal_whatever_the_insertion_order),
        cmocka_unit_test(lists_keep_order_and_order_matters),
        cmocka_unit_test(sets_are_sorted_and_detect_duplicates),
        cmocka_unit_test(sets_are_equal_whatever_the_input_order),
        cmocka_unit_test(deep_copy_shares_nothing),
        cmocka_unit_test(comparison_orders_types_first_so_it_can_sort_anything),
        cmocka_unit_test(scalar_text_is_the_plain_form_of_each_scalar),
        cmocka_unit_test(scalar_parse_reads_back_the_plain_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
