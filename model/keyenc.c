/*
 * keyenc — order-preserving key encoding (see keyenc.h).
 *
 * S and B: the bytes, with 0x00 escaped as 0x00 0xFF, then 0x00 0x00. The
 * terminator sorts below every continuation, so a prefix sorts first and
 * whatever follows the terminator cannot disturb the order.
 *
 * N: one sign byte (0x01 negative, 0x02 zero, 0x03 positive); for non-zero
 * numbers, then the adjusted exponent (power of ten of the leading digit,
 * -130..125) as one byte (+130), then the significant digits in pairs, one
 * byte per pair (00..99 as 1..100, an odd last digit padded with 0), then
 * a 0x00 terminator. Coefficients carry no trailing zeros, so a longer
 * digit string is a larger number and the terminator sorting low is right.
 * Negative numbers invert every byte after the sign (terminator 0xFF), so
 * larger magnitudes sort first.
 */
#include "model/keyenc.h"

#include <assert.h>
#include <string.h>

#define SIGN_NEG 0x01
#define SIGN_ZERO 0x02
#define SIGN_POS 0x03
#define EXP_BIAS 130

static void append_bytes(buf *out, const char *p, size_t n)
{
    buf_reserve(out, n + 2);
    size_t run = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '\0')
            continue;
        buf_add(out, p + run, i + 1 - run);     /* up to and including the NUL */
        buf_addc(out, (char)0xFF);
        run = i + 1;
    }
    buf_add(out, p + run, n - run);
}

static void append_num(buf *out, const num *n)
{
    if (n->coef == 0) {
        buf_addc(out, SIGN_ZERO);
        return;
    }
    unsigned char b[2 + 20];
    size_t len = 0;
    unsigned char flip = n->neg ? 0xFF : 0x00;
    char digits[40];
    int nd = num_digits(n);
    num_u128 c = n->coef;
    for (int k = nd - 1; k >= 0; k--) {
        digits[k] = (char)(c % 10);
        c /= 10;
    }
    digits[nd] = 0;     /* pad an odd last pair */
    int adj = n->exp + nd - 1;
    assert(adj >= -EXP_BIAS && adj <= 255 - EXP_BIAS);
    b[len++] = n->neg ? SIGN_NEG : SIGN_POS;
    b[len++] = (unsigned char)(adj + EXP_BIAS) ^ flip;
    for (int k = 0; k < nd; k += 2)
        b[len++] = (unsigned char)(digits[k] * 10 + digits[k + 1] + 1) ^ flip;
    b[len++] = flip;    /* terminator: 0x00, or 0xFF for negatives */
    buf_add(out, b, len);
}

void keyenc_append(buf *out, const av *v)
{
    switch (v->type) {
    case AV_S:
    case AV_B:
        append_bytes(out, v->u.s.ptr, v->u.s.len);
        buf_add(out, "\0\0", 2);
        break;
    case AV_N:
        append_num(out, &v->u.n);
        break;
    default:
        assert(!"keys are S, N or B");
    }
}

void keyenc_append_prefix(buf *out, const av *v)
{
    assert(v->type == AV_S || v->type == AV_B);
    append_bytes(out, v->u.s.ptr, v->u.s.len);
}

static status malformed(diag *d, const char *what)
{
    return diag_set(d, ST_VALIDATION, "malformed key encoding: %s", what);
}

static status decode_bytes(const unsigned char *p, size_t len, av_type t, av *out,
                           size_t *used, diag *d)
{
    buf b = BUF_INIT;
    size_t i = 0, run = 0;
    status st = ST_OK;
    for (;;) {
        while (i < len && p[i] != 0)
            i++;
        if (i + 1 >= len) {
            st = malformed(d, "unterminated string");
            goto out;
        }
        if (p[i + 1] == 0x00)
            break;
        if (p[i + 1] != 0xFF) {
            st = malformed(d, "bad escape");
            goto out;
        }
        buf_add(&b, p + run, i + 1 - run);   /* keeps the NUL, drops 0xFF */
        i += 2;
        run = i;
    }
    buf_add(&b, p + run, i - run);
    if (t == AV_S)
        av_init_s(out, b.data, b.len);
    else
        av_init_b(out, b.data, b.len);
    *used = i + 2;
out:
    buf_done(&b);
    return st;
}

static status decode_num(const unsigned char *p, size_t len, av *out, size_t *used, diag *d)
{
    num n = { 0, 0, false };
    if (len < 1)
        return malformed(d, "empty number");
    if (p[0] == SIGN_ZERO) {
        av_init_n(out, &n);
        *used = 1;
        return ST_OK;
    }
    if (p[0] != SIGN_NEG && p[0] != SIGN_POS)
        return malformed(d, "bad sign byte");
    unsigned char flip = p[0] == SIGN_NEG ? 0xFF : 0x00;
    if (len < 2)
        return malformed(d, "truncated number");
    int adj = (int)(p[1] ^ flip) - EXP_BIAS;
    int nd = 0;
    size_t i = 2;
    for (;; i++) {
        if (i >= len)
            return malformed(d, "unterminated number");
        unsigned v = p[i] ^ flip;
        if (v == 0)
            break;
        if (v > 100 || nd >= 38)
            return malformed(d, "bad digit pair");
        v--;
        if (nd == 0 && v < 10)
            return malformed(d, "leading zero");
        n.coef = n.coef * 100 + v;
        nd += 2;
    }
    if (nd == 0)
        return malformed(d, "no digits");
    if (n.coef % 10 == 0) {     /* an odd digit count, padded */
        n.coef /= 10;
        nd--;
        if (n.coef % 10 == 0)
            return malformed(d, "trailing zero");
    }
    n.neg = flip != 0;
    n.exp = adj - (nd - 1);
    av_init_n(out, &n);
    *used = i + 1;
    return ST_OK;
}

status keyenc_decode(const unsigned char *p, size_t len, av_type t, av *out,
                     size_t *used, diag *d)
{
    switch (t) {
    case AV_S:
    case AV_B:
        return decode_bytes(p, len, t, out, used, d);
    case AV_N:
        return decode_num(p, len, out, used, d);
    default:
        return diag_set(d, ST_VALIDATION, "key attributes are S, N or B, not %s", av_type_name(t));
    }
}
