/*
 * The key encoding: comparing two encodings with memcmp gives DynamoDB's
 * order (S by UTF-8 bytes, B by bytes, N numerically), decoding gives the
 * value back, and a partition key's encoding followed by a sort key's
 * still sorts by (partition, sort). Proved over thousands of random values
 * from a seeded generator, plus the edges: numbers differing only in the
 * 38th digit, negatives of every magnitude, zero, 1E-130, the largest
 * magnitude, NUL bytes in strings, 0x00 and 0xFF in binaries.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/keyenc.h"

/* xorshift64*: a fixed seed makes every run test the same values. */
static uint64_t rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 0x2545F4914F6CDD1DULL;
}

static unsigned below(unsigned n)
{
    return (unsigned)(rnd() % n);
}

static int sgn(int x)
{
    return (x > 0) - (x < 0);
}

/* ---- values ---- */

static void make_num(av *v, const char *text)
{
    num n;
    diag d;
    diag_init(&d);
    if (num_parse(text, strlen(text), &n, &d) != ST_OK)
        fail_msg("%s: %s", text, d.msg);
    av_init_n(v, &n);
}

/* A random valid number: 1..38 digits, leading digit at any power of ten
 * from -130 to 125, either sign; now and then from a small pool so that
 * equal values (and near-equal ones) meet. */
static void random_num(av *v)
{
    static const char *const pool[] = {
        "0", "1", "-1", "1E-130", "-1E-130", "9.9999999999999999999999999999999999999E+125",
        "-9.9999999999999999999999999999999999999E+125", "12345678901234567890123456789012345678",
        "12345678901234567890123456789012345679", "-12345678901234567890123456789012345678",
        "-12345678901234567890123456789012345679", "0.1", "0.10000000000000000000000000000000000001",
        "10", "9.9", "100", "-100", "-99.99999999999999999999999999999999999",
    };
    if (below(8) == 0) {
        make_num(v, pool[below(sizeof pool / sizeof *pool)]);
        return;
    }
    char text[80];
    size_t k = 0;
    if (below(2))
        text[k++] = '-';
    int nd = 1 + (int)below(38);
    if (below(3) == 0)
        nd = 38;
    text[k++] = (char)('1' + below(9));
    text[k++] = '.';
    for (int i = 1; i < nd; i++)
        text[k++] = (char)('0' + below(10));
    int adj = -130 + (int)below(256);
    if (below(3) == 0)
        adj = -3 + (int)below(7);        /* everyday magnitudes, many ties on exponent */
    snprintf(text + k, sizeof text - k, "E%d", adj);
    make_num(v, text);
}

/* Bytes chosen to provoke the escaping: NUL, 0x01, 0xFF, and a UTF-8 lead. */
static void random_bytes(av *v, av_type t)
{
    static const unsigned char alphabet[] = { 0x00, 0x00, 0x01, 'a', 'b', 0xFF, 0xFE, 0xEA };
    char b[16];
    size_t n = below(10);
    for (size_t i = 0; i < n; i++)
        b[i] = (char)alphabet[below(sizeof alphabet)];
    if (t == AV_S)
        av_init_s(v, b, n);
    else
        av_init_b(v, b, n);
}

static void random_key(av *v, av_type t)
{
    if (t == AV_N)
        random_num(v);
    else
        random_bytes(v, t);
}

/* ---- an oracle for numbers that does not use num_cmp ---- */

/* Sign, adjusted exponent, and the digits as a 38-character string:
 * comparing these tuples is comparing the numbers. */
static int oracle_num_cmp(const num *a, const num *b)
{
    char ta[NUM_TEXT_MAX], tb[NUM_TEXT_MAX];
    const num *x[2] = { a, b };
    char *t[2] = { ta, tb };
    int sign[2], adj[2];
    char digits[2][40];
    for (int i = 0; i < 2; i++) {
        num_format(x[i], t[i]);
        const char *s = t[i];
        sign[i] = s[0] == '-' ? -1 : strcmp(s, "0") == 0 ? 0 : 1;
        if (*s == '-')
            s++;
        /* position of the decimal point and of the first non-zero digit */
        const char *dot = strchr(s, '.');
        long int_len = dot ? dot - s : (long)strlen(s);
        long pos = 0, first = -1;
        int nd = 0;
        memset(digits[i], '0', 38);
        digits[i][38] = '\0';
        for (const char *c = s; *c; c++) {
            if (*c == '.')
                continue;
            if (*c != '0' && first < 0)
                first = pos;
            if (first >= 0 && nd < 38)
                digits[i][nd++] = *c;
            pos++;
        }
        adj[i] = first < 0 ? 0 : (int)(int_len - 1 - first);
    }
    if (sign[0] != sign[1])
        return sign[0] < sign[1] ? -1 : 1;
    if (sign[0] == 0)
        return 0;
    int m = adj[0] != adj[1] ? (adj[0] < adj[1] ? -1 : 1) : sgn(strcmp(digits[0], digits[1]));
    return sign[0] * m;
}

/* ---- helpers ---- */

typedef struct enc {
    av v;
    buf e;
} enc;

static int enc_cmp(const buf *a, const buf *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = memcmp(a->data, b->data, n);
    if (c)
        return sgn(c);
    return a->len < b->len ? -1 : a->len > b->len;
}

static void encode(enc *x)
{
    buf_init(&x->e);
    keyenc_append(&x->e, &x->v);
}

static void assert_decodes_back(const enc *x)
{
    av back;
    size_t used = 0;
    diag d;
    diag_init(&d);
    if (keyenc_decode((const unsigned char *)x->e.data, x->e.len, x->v.type, &back, &used, &d) != ST_OK)
        fail_msg("decode failed: %s", d.msg);
    assert_int_equal(used, x->e.len);
    assert_true(av_equal(&back, &x->v));
    if (back.type == AV_N) {   /* the very same representation, not just equal */
        assert_true(back.u.n.coef == x->v.u.n.coef);
        assert_int_equal(back.u.n.exp, x->v.u.n.exp);
        assert_int_equal(back.u.n.neg, x->v.u.n.neg);
    }
    av_done(&back);
}

static int qsort_enc(const void *a, const void *b)
{
    return av_cmp(&((const enc *)a)->v, &((const enc *)b)->v);
}

/* Many random values of type t: every one decodes back; sorted by av_cmp,
 * their encodings rise exactly where the values do; and random pairs agree
 * on the sign of the comparison. */
static void check_order(av_type t, size_t count)
{
    enc *xs = calloc(count, sizeof *xs);
    for (size_t i = 0; i < count; i++) {
        random_key(&xs[i].v, t);
        encode(&xs[i]);
        assert_decodes_back(&xs[i]);
    }
    qsort(xs, count, sizeof *xs, qsort_enc);
    for (size_t i = 1; i < count; i++) {
        int want = av_cmp(&xs[i - 1].v, &xs[i].v);
        int got = enc_cmp(&xs[i - 1].e, &xs[i].e);
        if (want != got)
            fail_msg("adjacent values %zu: av_cmp %d, memcmp %d", i, want, got);
    }
    for (size_t k = 0; k < count * 4; k++) {
        const enc *a = &xs[below((unsigned)count)], *b = &xs[below((unsigned)count)];
        int want = av_cmp(&a->v, &b->v);
        assert_int_equal(enc_cmp(&a->e, &b->e), want);
        if (t == AV_N)
            assert_int_equal(oracle_num_cmp(&a->v.u.n, &b->v.u.n), want);
    }
    for (size_t i = 0; i < count; i++) {
        av_done(&xs[i].v);
        buf_done(&xs[i].e);
    }
    free(xs);
}

/* ---- the properties ---- */

static void numbers_encode_in_numeric_order(void **state)
{
    (void)state;
    check_order(AV_N, 5000);
}

static void strings_encode_in_utf8_byte_order(void **state)
{
    (void)state;
    check_order(AV_S, 4000);
}

static void binaries_encode_in_byte_order(void **state)
{
    (void)state;
    check_order(AV_B, 4000);
}

static void edge_numbers_sort_in_a_known_order(void **state)
{
    (void)state;
    /* Strictly increasing. */
    static const char *const ladder[] = {
        "-9.9999999999999999999999999999999999999E+125", "-1E+125",
        "-12345678901234567890123456789012345679", "-12345678901234567890123456789012345678",
        "-100", "-99.99999999999999999999999999999999999", "-10", "-9.9", "-1.01", "-1",
        "-0.10000000000000000000000000000000000001", "-0.1", "-0.09", "-1E-129", "-1E-130",
        "0",
        "1E-130", "1.1E-130", "1E-129", "0.09", "0.1", "0.10000000000000000000000000000000000001",
        "1", "1.01", "5", "5.01", "9.9", "10", "99.99999999999999999999999999999999999", "100",
        "12345678901234567890123456789012345678", "12345678901234567890123456789012345679",
        "1E+125", "9.9999999999999999999999999999999999998E+125",
        "9.9999999999999999999999999999999999999E+125",
    };
    size_t n = sizeof ladder / sizeof *ladder;
    enc prev = { 0 };
    for (size_t i = 0; i < n; i++) {
        enc x;
        make_num(&x.v, ladder[i]);
        encode(&x);
        assert_decodes_back(&x);
        if (i > 0) {
            if (enc_cmp(&prev.e, &x.e) >= 0)
                fail_msg("%s does not encode below %s", ladder[i - 1], ladder[i]);
            assert_int_equal(av_cmp(&prev.v, &x.v), -1);
            av_done(&prev.v);
            buf_done(&prev.e);
        }
        prev = x;
    }
    av_done(&prev.v);
    buf_done(&prev.e);
}

static void negative_numbers_of_every_magnitude_sort_largest_magnitude_first(void **state)
{
    (void)state;
    buf prev = BUF_INIT;
    for (int adj = 125; adj >= -130; adj--) {
        for (int lead = 9; lead >= 1; lead -= 4) {
            char text[32];
            snprintf(text, sizeof text, "-%d.5E%d", lead, adj);
            enc x;
            make_num(&x.v, text);
            encode(&x);
            assert_decodes_back(&x);
            if (prev.len && enc_cmp(&prev, &x.e) >= 0)
                fail_msg("%s sorts too low", text);
            buf_done(&prev);
            prev = x.e;
            av_done(&x.v);
        }
    }
    buf_done(&prev);
}

static void strings_with_nul_bytes_keep_their_order(void **state)
{
    (void)state;
    /* "" < "\0" < "\0\0" < "\0\x01" < "a" < "a\0" < "a\0b" < "ab" */
    static const struct { const char *p; size_t n; } ladder[] = {
        { "", 0 }, { "\0", 1 }, { "\0\0", 2 }, { "\0\x01", 2 }, { "a", 1 },
        { "a\0", 2 }, { "a\0b", 3 }, { "ab", 2 }, { "\xff", 1 },
    };
    buf prev = BUF_INIT;
    for (size_t i = 0; i < sizeof ladder / sizeof *ladder; i++) {
        enc x;
        av_init_s(&x.v, ladder[i].p, ladder[i].n);
        encode(&x);
        assert_decodes_back(&x);
        if (i && enc_cmp(&prev, &x.e) >= 0)
            fail_msg("step %zu out of order", i);
        buf_done(&prev);
        prev = x.e;
        av_done(&x.v);
    }
    buf_done(&prev);
}

/* (pk, sk) encodings concatenated sort by pk, then sk. */
static void check_pairs(av_type pt, av_type st, size_t count)
{
    typedef struct { av pk, sk; buf e; } pair;
    pair *ps = calloc(count, sizeof *ps);
    for (size_t i = 0; i < count; i++) {
        random_key(&ps[i].pk, pt);
        random_key(&ps[i].sk, st);
        buf_init(&ps[i].e);
        keyenc_append(&ps[i].e, &ps[i].pk);
        keyenc_append(&ps[i].e, &ps[i].sk);
        /* and both decode back out of the concatenation */
        av a, b;
        size_t u1, u2;
        diag d;
        diag_init(&d);
        const unsigned char *p = (const unsigned char *)ps[i].e.data;
        assert_int_equal(keyenc_decode(p, ps[i].e.len, pt, &a, &u1, &d), ST_OK);
        assert_int_equal(keyenc_decode(p + u1, ps[i].e.len - u1, st, &b, &u2, &d), ST_OK);
        assert_int_equal(u1 + u2, ps[i].e.len);
        assert_true(av_equal(&a, &ps[i].pk) && av_equal(&b, &ps[i].sk));
        av_done(&a);
        av_done(&b);
    }
    for (size_t k = 0; k < count * 8; k++) {
        const pair *a = &ps[below((unsigned)count)], *b = &ps[below((unsigned)count)];
        int want = av_cmp(&a->pk, &b->pk);
        if (want == 0)
            want = av_cmp(&a->sk, &b->sk);
        assert_int_equal(enc_cmp(&a->e, &b->e), want);
    }
    for (size_t i = 0; i < count; i++) {
        av_done(&ps[i].pk);
        av_done(&ps[i].sk);
        buf_done(&ps[i].e);
    }
    free(ps);
}

static void a_partition_key_then_a_sort_key_sorts_by_both(void **state)
{
    (void)state;
    /* Short random strings make equal partition keys common. */
    check_pairs(AV_S, AV_S, 2000);
    check_pairs(AV_S, AV_N, 2000);
    check_pairs(AV_N, AV_B, 2000);
    check_pairs(AV_B, AV_S, 2000);
}

static void a_prefix_encoding_starts_every_value_that_begins_with_it(void **state)
{
    (void)state;
    for (int k = 0; k < 3000; k++) {
        av v, pre;
        random_bytes(&v, AV_S);
        size_t n = v.u.s.len ? below((unsigned)v.u.s.len + 1) : 0;
        av_init_s(&pre, v.u.s.ptr, n);
        buf e = BUF_INIT, p = BUF_INIT;
        keyenc_append(&e, &v);
        keyenc_append_prefix(&p, &pre);
        assert_true(p.len <= e.len);
        assert_memory_equal(p.data ? p.data : "", e.data, p.len);
        buf_done(&e);
        buf_done(&p);
        av_done(&v);
        av_done(&pre);
    }
}

static void malformed_encodings_are_refused(void **state)
{
    (void)state;
    static const struct { av_type t; const char *p; size_t n; } bad[] = {
        { AV_N, "", 0 },                    /* nothing */
        { AV_N, "\x04", 1 },                /* no such sign */
        { AV_N, "\x03\x82", 2 },            /* no terminator */
        { AV_N, "\x03\x82\x00", 3 },        /* no digits */
        { AV_N, "\x03\x82\x66\x00", 4 },    /* digit pair 101 */
        { AV_N, "\x03\x82\x05\x00", 4 },    /* leading zero digit */
        { AV_N, "\x03\x82\x0b\x01\x00", 5 },/* last pair 00 */
        { AV_S, "ab", 2 },                  /* no terminator */
        { AV_S, "a\0", 2 },                 /* half a terminator */
        { AV_B, "a\0\x01", 3 },             /* bad escape */
        { AV_BOOL, "\0\0", 2 },             /* not a key type */
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        av v;
        size_t used;
        diag d;
        diag_init(&d);
        if (keyenc_decode((const unsigned char *)bad[i].p, bad[i].n, bad[i].t, &v, &used, &d) != ST_VALIDATION)
            fail_msg("case %zu decoded", i);
    }
}

static void small_numbers_encode_small(void **state)
{
    (void)state;
    enc x;
    make_num(&x.v, "5");
    encode(&x);
    assert_int_equal(x.e.len, 4);     /* sign, exponent, one digit pair, end */
    assert_memory_equal(x.e.data, "\x03\x82\x33\x00", 4);
    av_done(&x.v);
    buf_done(&x.e);
    make_num(&x.v, "0");
    encode(&x);
    assert_int_equal(x.e.len, 1);
    av_done(&x.v);
    buf_done(&x.e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(numbers_encode_in_numeric_order),
        cmocka_unit_test(strings_encode_in_utf8_byte_order),
        cmocka_unit_test(binaries_encode_in_byte_order),
        cmocka_unit_test(edge_numbers_sort_in_a_known_order),
        cmocka_unit_test(negative_numbers_of_every_magnitude_sort_largest_magnitude_first),
        cmocka_unit_test(strings_with_nul_bytes_keep_their_order),
        cmocka_unit_test(a_partition_key_then_a_sort_key_sorts_by_both),
        cmocka_unit_test(a_prefix_encoding_starts_every_value_that_begins_with_it),
        cmocka_unit_test(malformed_encodings_are_refused),
        cmocka_unit_test(small_numbers_encode_small),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
