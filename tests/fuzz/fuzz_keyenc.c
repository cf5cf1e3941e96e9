/*
 * fuzz_keyenc — the order-preserving key encoding.
 *
 * From the input: a key type (S, N or B) and two values of it (N built from
 * raw bytes as an in-range coefficient and exponent, so every number
 * shape is reached, not only those that parse as text), plus the raw input
 * as a would-be encoding. Checks, for every pair:
 * - decode(encode(a)) == a, consuming exactly the encoding;
 * - sign(memcmp(enc a, enc b)) == sign(av_cmp(a, b)): SQLite's BLOB order
 *   is DynamoDB's order;
 * - a composite (pk, sk) encoding decodes back in two steps, and sorts by
 *   (pk, sk);
 * - S/B: when a begins with b, enc(a) begins with prefix(b);
 * - raw bytes: decoding never crashes, and whatever decodes re-encodes to
 *   exactly the bytes consumed (one value has one encoding, so the store
 *   cannot hold two copies of one key).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/keyenc.h"
#include "model/num.h"
#include "model/status.h"

/* An invariant the target proves: on failure, say which, then abort so
 * the fuzzer records the input. */
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

typedef struct { const uint8_t *p; size_t n; } cursor;

static unsigned take_byte(cursor *c)
{
    if (c->n == 0)
        return 0;
    c->n--;
    return *c->p++;
}

/* A number from bytes: up to 16 coefficient bytes, reduced below 10^38 and
 * stripped of trailing zeros, with an exponent kept in DynamoDB's range. */
static void make_num(cursor *c, num *n)
{
    unsigned nb = take_byte(c) % 17;
    num_u128 coef = 0, lim = 1;
    for (int i = 0; i < 38; i++)
        lim *= 10;
    for (unsigned i = 0; i < nb; i++)
        coef = (coef << 8) | take_byte(c);
    coef %= lim;
    unsigned flags = take_byte(c);
    int e = (int)take_byte(c) - 128;       /* -128..127 */
    n->neg = (flags & 1) && coef != 0;
    n->exp = 0;
    n->coef = coef;
    if (coef == 0) {
        n->neg = false;
        return;
    }
    while (n->coef % 10 == 0)
        n->coef /= 10, n->exp++;
    int nd = num_digits(n);
    /* the adjusted exponent (of the leading digit) lies in -130..125 */
    int adj = e;
    if (adj > 125)
        adj = 125;
    if (adj < -130)
        adj = -130;
    n->exp = adj - (nd - 1);
}

static void make_value(cursor *c, av_type t, av *v)
{
    if (t == AV_N) {
        num n;
        make_num(c, &n);
        av_init_n(v, &n);
        return;
    }
    size_t len = take_byte(c) % 24;
    if (len > c->n)
        len = c->n;
    if (t == AV_S)
        av_init_s(v, (const char *)c->p, len);
    else
        av_init_b(v, c->p, len);
    c->p += len;
    c->n -= len;
}

static int sign(int x) { return (x > 0) - (x < 0); }

static int enc_cmp(const buf *a, const buf *b)
{
    size_t m = a->len < b->len ? a->len : b->len;
    int r = memcmp(a->data, b->data, m);
    if (r == 0)
        r = (a->len > b->len) - (a->len < b->len);
    return sign(r);
}

static void check_round_trip(const av *v, const buf *enc)
{
    av back = { AV_NONE, { { NULL, 0 } } };
    size_t used = 0;
    diag d;
    diag_init(&d);
    CHECK(keyenc_decode((const unsigned char *)enc->data, enc->len, v->type,
                        &back, &used, &d) == ST_OK);
    CHECK(used == enc->len);
    CHECK(av_equal(v, &back));
    av_done(&back);
}

static void check_raw(const uint8_t *p, size_t n, av_type t)
{
    av v = { AV_NONE, { { NULL, 0 } } };
    size_t used = 0;
    diag d;
    diag_init(&d);
    if (keyenc_decode(p, n, t, &v, &used, &d) != ST_OK)
        return;
    CHECK(used <= n);
    buf e = BUF_INIT;
    keyenc_append(&e, &v);
    CHECK(e.len == used && memcmp(e.data, p, used) == 0);
    buf_done(&e);
    av_done(&v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const av_type types[3] = { AV_S, AV_N, AV_B };
    cursor c = { data, size };
    unsigned sel = take_byte(&c);
    av_type t = types[sel % 3], t2 = types[(sel / 3) % 3];

    check_raw(c.p, c.n, t);

    av a, b, s1, s2;
    make_value(&c, t, &a);
    make_value(&c, t, &b);
    make_value(&c, t2, &s1);
    make_value(&c, t2, &s2);

    buf ea = BUF_INIT, eb = BUF_INIT;
    keyenc_append(&ea, &a);
    keyenc_append(&eb, &b);
    check_round_trip(&a, &ea);
    check_round_trip(&b, &eb);
    CHECK(enc_cmp(&ea, &eb) == sign(av_cmp(&a, &b)));
    CHECK((enc_cmp(&ea, &eb) == 0) == av_equal(&a, &b));

    /* composite keys: (a, s1) against (b, s2) */
    buf ca = BUF_INIT, cb = BUF_INIT;
    keyenc_append(&ca, &a);
    keyenc_append(&ca, &s1);
    keyenc_append(&cb, &b);
    keyenc_append(&cb, &s2);
    int want = sign(av_cmp(&a, &b));
    if (want == 0)
        want = sign(av_cmp(&s1, &s2));
    CHECK(enc_cmp(&ca, &cb) == want);
    {
        av pk, sk;
        size_t u1 = 0, u2 = 0;
        diag d;
        diag_init(&d);
        const unsigned char *p = (const unsigned char *)ca.data;
        CHECK(keyenc_decode(p, ca.len, t, &pk, &u1, &d) == ST_OK);
        CHECK(keyenc_decode(p + u1, ca.len - u1, t2, &sk, &u2, &d) == ST_OK);
        CHECK(u1 + u2 == ca.len);
        CHECK(av_equal(&pk, &a) && av_equal(&sk, &s1));
        av_done(&pk);
        av_done(&sk);
    }

    /* begins_with as a range: b's prefix encoding starts every a with
     * that prefix, and no other. */
    if (t != AV_N) {
        buf pre = BUF_INIT;
        keyenc_append_prefix(&pre, &b);
        int starts = a.u.s.len >= b.u.s.len &&
                     memcmp(a.u.s.ptr, b.u.s.ptr, b.u.s.len) == 0;
        int enc_starts = ea.len >= pre.len &&
                         (pre.len == 0 || memcmp(ea.data, pre.data, pre.len) == 0);
        CHECK(starts == enc_starts);
        buf_done(&pre);
    }

    buf_done(&ea);
    buf_done(&eb);
    buf_done(&ca);
    buf_done(&cb);
    av_done(&a);
    av_done(&b);
    av_done(&s1);
    av_done(&s2);
    return 0;
}
