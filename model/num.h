/*
 * num — DynamoDB's exact decimal numbers.
 *
 * A number is sign * coef * 10^exp with coef < 10^38 (38 significant
 * digits fit in an unsigned 128-bit integer), normalised so coef has no
 * trailing zero digits; zero is coef 0, exp 0, not negative ("-0" is 0).
 * Magnitudes run from 1E-130 to 9.9999999999999999999999999999999999999E+125.
 * No floating point anywhere. Values are plain structs: no heap, copy by
 * assignment.
 */
#ifndef DDBX_NUM_H
#define DDBX_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/status.h"

__extension__ typedef unsigned __int128 num_u128;

typedef struct num {
    num_u128 coef;
    int32_t exp;
    bool neg;
} num;

/* Longest canonical text of a number, NUL included. */
#define NUM_TEXT_MAX 180

/*
 * Parses DynamoDB number text ("-0", "0.0", "00012.500", "3e2", "1E-130",
 * leading "+" allowed, surrounding spaces not). Fails with
 * ST_VALIDATION and DynamoDB's message for malformed text, more than 38
 * significant digits, overflow or underflow.
 */
status num_parse(const char *text, size_t len, num *out, diag *d);

/* Canonical text ("12.5", "300", "-0.001", "1E+100"-style never: DynamoDB
 * prints plain digits). Writes at most NUM_TEXT_MAX bytes including NUL;
 * returns the length. */
size_t num_format(const num *n, char *buf);

/* -1, 0, 1, numerically. */
int num_cmp(const num *a, const num *b);

/* Exact sum and difference; ST_VALIDATION with DynamoDB's message when the
 * result needs more than 38 significant digits or leaves the range. */
status num_add(const num *a, const num *b, num *out, diag *d);
status num_sub(const num *a, const num *b, num *out, diag *d);

bool num_is_zero(const num *n);
void num_from_int(num *out, int64_t v);
/* The value as int64 when it is an integer in range; false otherwise. */
bool num_to_int(const num *n, int64_t *out);
/* Number of significant digits of coef (0 for zero). */
int num_digits(const num *n);

#endif
