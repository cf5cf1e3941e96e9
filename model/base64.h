/*
 * base64 — standard base64 (RFC 4648, "+/" alphabet, "=" padding), the
 * encoding DynamoDB JSON uses for B and BS values.
 *
 * Decoding is strict, as DynamoDB is: length a multiple of 4, only
 * alphabet characters, padding only at the end, and unused bits of the
 * last character zero (so every byte string has exactly one accepted
 * text). Output goes to a caller-owned buf.
 */
#ifndef DDBX_BASE64_H
#define DDBX_BASE64_H

#include <stdbool.h>
#include <stddef.h>

#include "model/buf.h"

/* Length of the encoding of n bytes. */
size_t base64_encoded_len(size_t n);
/* Appends the encoding of p[0..n) to out. */
void base64_encode(buf *out, const void *p, size_t n);

typedef enum {
    BASE64_OK,
    BASE64_BAD_LENGTH,     /* not a multiple of 4 */
    BASE64_BAD_CHAR,       /* outside the alphabet, misplaced "=", or non-zero pad bits */
} base64_result;

/* Appends the bytes text[0..len) decodes to; on failure out may hold a
 * partial result (the caller discards it). */
base64_result base64_decode(buf *out, const char *text, size_t len);

#endif
