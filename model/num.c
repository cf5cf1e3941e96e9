/*
 * num — exact decimal numbers as DynamoDB has them (see num.h).
 *
 * sign * coef * 10^exp, coef < 10^38 in an unsigned 128-bit integer,
 * normalised (no trailing zero digit in coef; zero is {0, 0, false}).
 * The "adjusted exponent" of a non-zero number is the power of ten of its
 * most significant digit, exp + digits - 1; DynamoDB's range is
 * -130 <= adjusted <= 125. No floating point anywhere.
 */
#include "model/num.h"

#include <assert.h>
#include <limits.h>
#include <string.h>

#define NUM_MAX_DIGITS 38
#define NUM_MAX_ADJ 125
#define NUM_MIN_ADJ (-130)

/* DynamoDB's messages (ValidationException). */
#define MSG_NOT_NUMERIC "The parameter cannot be converted to a numeric value"
#define MSG_OVERFLOW "Number overflow. Attempting to store a number with magnitude larger than supported range"
#define MSG_UNDERFLOW "Number underflow. Attempting to store a number with magnitude smaller than supported range"
#define MSG_DIGITS "Attempting to store more than 38 significant digits in a Number"
/* A sum or difference that needs more than 38 digits: DynamoDB answers SET
 * b = :v1 + :v2 with 1E50 and 1 by its overflow message, not the digits one
 * it gives a number written with 39 digits (issue 16, from a conformance
 * run against DynamoDB). */
#define MSG_SUM_DIGITS MSG_OVERFLOW

/* 10^0 .. 10^38; 10^38 < 2^127, so all fit. */
static const num_u128 pow10_tab[NUM_MAX_DIGITS + 1] = {
#define P1 ((num_u128)1)
#define E19 ((num_u128)10000000000000000000ULL)
    P1, P1 * 10, P1 * 100, P1 * 1000, P1 * 10000, P1 * 100000, P1 * 1000000,
    P1 * 10000000, P1 * 100000000, P1 * 1000000000, P1 * 10000000000ULL,
    P1 * 100000000000ULL, P1 * 1000000000000ULL, P1 * 10000000000000ULL,
    P1 * 100000000000000ULL, P1 * 1000000000000000ULL,
    P1 * 10000000000000000ULL, P1 * 100000000000000000ULL,
    P1 * 1000000000000000000ULL, E19,
    E19 * 10, E19 * 100, E19 * 1000, E19 * 10000, E19 * 100000,
    E19 * 1000000, E19 * 10000000, E19 * 100000000, E19 * 1000000000,
    E19 * 10000000000ULL, E19 * 100000000000ULL, E19 * 1000000000000ULL,
    E19 * 10000000000000ULL, E19 * 100000000000000ULL,
    E19 * 1000000000000000ULL, E19 * 10000000000000000ULL,
    E19 * 100000000000000000ULL, E19 * 1000000000000000000ULL,
    E19 * E19,
#undef P1
#undef E19
};

/* Digits of a non-zero coefficient < 10^38: bit length * log10(2) guesses
 * floor(log10) to within one; one table look-up settles it. */
static inline int coef_digits(num_u128 c)
{
    uint64_t hi = (uint64_t)(c >> 64), lo = (uint64_t)c;
    int bits = hi ? 128 - __builtin_clzll(hi) : lo ? 64 - __builtin_clzll(lo) : 0;
    if (bits == 0)
        return 0;
    int t = (bits * 1233) >> 12;        /* 1233/4096 ~ log10(2) */
    return t + (c >= pow10_tab[t]);
}

int num_digits(const num *n)
{
    return coef_digits(n->coef);
}

bool num_is_zero(const num *n)
{
    return n->coef == 0;
}

static void set_zero(num *n)
{
    n->coef = 0;
    n->exp = 0;
    n->neg = false;
}

/* Strips trailing zero digits (coef != 0). */
static void strip_zeros(num *n)
{
    /* 64-bit division is far cheaper than 128-bit, and most coefficients
     * fit; dividing by 10^19 first keeps big integers like 1E+37 cheap. */
    if ((n->coef >> 64) == 0) {
        uint64_t c = (uint64_t)n->coef;
        while (c % 10 == 0) {
            c /= 10;
            n->exp++;
        }
        n->coef = c;
        return;
    }
    while (n->coef % pow10_tab[19] == 0) {
        n->coef /= pow10_tab[19];
        n->exp += 19;
    }
    while (n->coef % 10 == 0) {
        n->coef /= 10;
        n->exp++;
    }
}

/* Checks digits and range of a freshly computed (non-normalised) result and
 * normalises it. Order of checks follows DynamoDB: range, then precision. */
static status finish(num *n, diag *d)
{
    if (n->coef == 0) {
        set_zero(n);
        return ST_OK;
    }
    strip_zeros(n);
    int nd = coef_digits(n->coef);
    long adj = (long)n->exp + nd - 1;
    if (adj > NUM_MAX_ADJ)
        return diag_set(d, ST_VALIDATION, MSG_OVERFLOW);
    if (adj < NUM_MIN_ADJ)
        return diag_set(d, ST_VALIDATION, MSG_UNDERFLOW);
    if (nd > NUM_MAX_DIGITS)
        return diag_set(d, ST_VALIDATION, MSG_SUM_DIGITS);
    return ST_OK;
}

static status not_numeric(const char *text, size_t len, diag *d)
{
    if (len == 0)
        return diag_set(d, ST_VALIDATION, MSG_NOT_NUMERIC);
    /* Quote at most what fits in the diag message. */
    int show = len > 900 ? 900 : (int)len;
    return diag_set(d, ST_VALIDATION, MSG_NOT_NUMERIC ": %.*s", show, text);
}

/*
 * Grammar (Java BigDecimal's, which DynamoDB uses, minus spaces):
 *   [+-] ( digits [ "." [digits] ] | "." digits ) [ (e|E) [+-] digits ]
 */
status num_parse(const char *text, size_t len, num *out, diag *d)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (text[i] == '-' || text[i] == '+'))
        neg = text[i++] == '-';

    num_u128 coef = 0;
    int sig = 0;             /* significant digits so far (first to last non-zero) */
    int pending = 0;         /* zeros seen after the last non-zero digit */
    bool too_many = false;
    long ndig = 0;           /* mantissa digits seen */
    long int_digits = -1;    /* mantissa digits before the point */
    long first_nz = -1, last_nz = -1;
    bool any_digit = false;

    for (; i < len; i++) {
        char c = text[i];
        if (c == '.') {
            if (int_digits >= 0)
                return not_numeric(text, len, d);
            int_digits = ndig;
            continue;
        }
        if (c < '0' || c > '9')
            break;
        any_digit = true;
        if (c == '0') {
            if (first_nz >= 0)
                pending++;
        } else {
            if (first_nz < 0)
                first_nz = ndig;
            last_nz = ndig;
            if (sig + pending + 1 > NUM_MAX_DIGITS) {
                too_many = true;
            } else {
                coef = coef * pow10_tab[pending + 1] + (unsigned)(c - '0');
                sig += pending + 1;
            }
            pending = 0;
        }
        if (ndig < LONG_MAX / 4)
            ndig++;
    }
    if (!any_digit)
        return not_numeric(text, len, d);
    if (int_digits < 0)
        int_digits = ndig;

    long e = 0;
    if (i < len && (text[i] == 'e' || text[i] == 'E')) {
        i++;
        bool eneg = false;
        if (i < len && (text[i] == '-' || text[i] == '+'))
            eneg = text[i++] == '-';
        if (i >= len)
            return not_numeric(text, len, d);
        for (; i < len && text[i] >= '0' && text[i] <= '9'; i++)
            if (e < 1000000000L)    /* saturate: far outside the range anyway */
                e = e * 10 + (text[i] - '0');
        if (eneg)
            e = -e;
    }
    if (i != len)
        return not_numeric(text, len, d);

    if (first_nz < 0) {         /* "0", "-0", "0.000e5": all zero */
        set_zero(out);
        return ST_OK;
    }
    /* Digit k (0-based) of the mantissa has place value 10^(int_digits-1-k). */
    long adj = int_digits - 1 - first_nz + e;
    long exp = int_digits - 1 - last_nz + e;
    if (adj > NUM_MAX_ADJ)
        return diag_set(d, ST_VALIDATION, MSG_OVERFLOW);
    if (adj < NUM_MIN_ADJ)
        return diag_set(d, ST_VALIDATION, MSG_UNDERFLOW);
    if (too_many)
        return diag_set(d, ST_VALIDATION, MSG_DIGITS);
    out->coef = coef;
    out->exp = (int32_t)exp;
    out->neg = neg;
    assert(coef % 10 != 0 && coef_digits(coef) == sig);
    return ST_OK;
}

static char *put_digits(char *p, num_u128 c, int nd)
{
    for (int k = nd - 1; k >= 0; k--) {
        p[k] = (char)('0' + (int)(c % 10));
        c /= 10;
    }
    return p + nd;
}

size_t num_format(const num *n, char *buf)
{
    char *p = buf;
    if (n->coef == 0) {
        memcpy(buf, "0", 2);
        return 1;
    }
    if (n->neg)
        *p++ = '-';
    int nd = coef_digits(n->coef);
    if (n->exp >= 0) {
        p = put_digits(p, n->coef, nd);
        memset(p, '0', (size_t)n->exp);
        p += n->exp;
    } else if (nd > -n->exp) {
        int int_part = nd + n->exp;
        char digits[NUM_MAX_DIGITS + 1];
        put_digits(digits, n->coef, nd);
        memcpy(p, digits, (size_t)int_part);
        p += int_part;
        *p++ = '.';
        memcpy(p, digits + int_part, (size_t)(nd - int_part));
        p += nd - int_part;
    } else {
        *p++ = '0';
        *p++ = '.';
        int zeros = -n->exp - nd;
        memset(p, '0', (size_t)zeros);
        p += zeros;
        p = put_digits(p, n->coef, nd);
    }
    *p = '\0';
    assert(p - buf < NUM_TEXT_MAX);
    return (size_t)(p - buf);
}

/* Compares |a| and |b|, both non-zero. */
static int cmp_mag(const num *a, const num *b)
{
    if (a->exp == b->exp)
        return a->coef < b->coef ? -1 : a->coef > b->coef;
    int da = coef_digits(a->coef), db = coef_digits(b->coef);
    long adja = (long)a->exp + da, adjb = (long)b->exp + db;
    if (adja != adjb)
        return adja < adjb ? -1 : 1;
    /* Same leading power: scale the one with the larger exponent down to
     * the other's; it then has the other's digit count, so it fits. */
    num_u128 ca = a->coef, cb = b->coef;
    if (a->exp > b->exp)
        ca *= pow10_tab[a->exp - b->exp];
    else
        cb *= pow10_tab[b->exp - a->exp];
    return ca < cb ? -1 : ca > cb;
}

int num_cmp(const num *a, const num *b)
{
    int sa = a->coef == 0 ? 0 : a->neg ? -1 : 1;
    int sb = b->coef == 0 ? 0 : b->neg ? -1 : 1;
    if (sa != sb)
        return sa < sb ? -1 : 1;
    if (sa == 0)
        return 0;
    int m = cmp_mag(a, b);
    return sa > 0 ? m : -m;
}

/* a + (bneg ? -|b| : |b|) with b's sign given separately, for sub. */
static status add_signed(const num *a, num_u128 bcoef, int32_t bexp, bool bneg,
                         num *out, diag *d)
{
    if (bcoef == 0) {
        *out = *a;
        return ST_OK;
    }
    if (a->coef == 0) {
        out->coef = bcoef;
        out->exp = bexp;
        out->neg = bneg;
        return ST_OK;
    }
    /* big: the operand whose leading digit is higher (ties: either). */
    num x = *a, y = { bcoef, bexp, bneg };
    long adjx = (long)x.exp + coef_digits(x.coef);
    long adjy = (long)y.exp + coef_digits(y.coef);
    const num *big = adjx >= adjy ? &x : &y, *small = big == &x ? &y : &x;
    long lo = x.exp < y.exp ? x.exp : y.exp;
    long span = (big == &x ? adjx : adjy) - lo;   /* digits from lo to big's top */
    bool same_sign = x.neg == y.neg;
    num r = { 0, (int32_t)lo, big->neg };

    if (span <= NUM_MAX_DIGITS) {
        /* Both aligned to lo are < 10^38; their sum < 2*10^38 < 2^128. */
        num_u128 cb = big->coef * pow10_tab[big->exp - lo];
        num_u128 cs = small->coef * pow10_tab[small->exp - lo];
        if (same_sign) {
            r.coef = cb + cs;
        } else if (cb >= cs) {
            r.coef = cb - cs;
        } else {
            r.coef = cs - cb;
            r.neg = small->neg;
        }
        goto out;
    }

    /*
     * span > 38: the exponents differ (equal exponents give span <= 38), so
     * small has exponent lo and a non-zero digit there that big lacks: the
     * result's last non-zero digit is at lo. It fits only if its top digit
     * is below lo+38, which needs cancellation: opposite signs and
     * span == 39 (at span >= 40, |big| - |small| > 10^(lo+38)).
     */
    assert(small->exp == lo && big->exp > lo);
    if (same_sign) {
        /* Too many digits; but DynamoDB reports range first, and the sum
         * reaches big's next power of ten when |small| >= 10^nd - B, in
         * big's units (nd, B: big's digit count and coefficient). */
        long big_adj = (big == &x ? adjx : adjy) - 1;
        num gap = { pow10_tab[coef_digits(big->coef)] - big->coef, big->exp, false };
        if (big_adj + (cmp_mag(small, &gap) >= 0) > NUM_MAX_ADJ)
            return diag_set(d, ST_VALIDATION, MSG_OVERFLOW);
        return diag_set(d, ST_VALIDATION, MSG_SUM_DIGITS);
    }
    if (span > NUM_MAX_DIGITS + 1)
        return diag_set(d, ST_VALIDATION, MSG_SUM_DIGITS);
    /* span == 39: in units of 10^(lo+1), B = big aligned (< 10^38), and
     * small = q*10 + rem with rem in 1..9. |big|-|small| = (B - q)*10 - rem. */
    num_u128 B = big->coef * pow10_tab[big->exp - lo - 1];
    num_u128 q = small->coef / 10;
    unsigned rem = (unsigned)(small->coef % 10);
    assert(rem != 0 && B > q);
    num_u128 X = B - q;
    if (X > pow10_tab[NUM_MAX_DIGITS - 1])
        return diag_set(d, ST_VALIDATION, MSG_SUM_DIGITS);
    r.coef = X * 10 - rem;
out:;
    status st = finish(&r, d);
    if (st == ST_OK)
        *out = r;
    return st;
}

status num_add(const num *a, const num *b, num *out, diag *d)
{
    return add_signed(a, b->coef, b->exp, b->neg, out, d);
}

status num_sub(const num *a, const num *b, num *out, diag *d)
{
    return add_signed(a, b->coef, b->exp, !b->neg, out, d);
}

void num_from_int(num *out, int64_t v)
{
    if (v == 0) {
        set_zero(out);
        return;
    }
    out->neg = v < 0;
    out->coef = v < 0 ? (num_u128)(-(uint64_t)v) : (num_u128)(uint64_t)v;
    out->exp = 0;
    strip_zeros(out);
}

bool num_to_int(const num *n, int64_t *out)
{
    if (n->coef == 0) {
        *out = 0;
        return true;
    }
    if (n->exp < 0 || coef_digits(n->coef) + n->exp > 19)
        return false;
    num_u128 m = n->coef * pow10_tab[n->exp];
    if (n->neg) {
        if (m > (num_u128)INT64_MAX + 1)
            return false;
        *out = m == (num_u128)INT64_MAX + 1 ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (num_u128)INT64_MAX)
            return false;
        *out = (int64_t)m;
    }
    return true;
}
