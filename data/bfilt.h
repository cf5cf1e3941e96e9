/*
 * bfilt — a FilterExpression evaluated on an item's encoded bytes
 * (model/itemenc.h) without decoding it, for Query and Scan
 * (data/store_query.c): comparisons = and <> of a top-level attribute
 * with a constant of a type whose encoding is canonical (S, B, BOOL,
 * NULL: equal values have equal bytes, different values or types
 * different bytes), attribute_exists and attribute_not_exists of a
 * top-level attribute, and AND, OR, NOT of these. Anything else
 * (numbers, whose text the encoding keeps canonical but which this does
 * not rely on; nested paths; sizes; orderings) leaves the filter to
 * expr_eval. Scans spend most of their own time here.
 *
 * Ownership: a bfilt is the caller's (bfilt_done); its leaves borrow the
 * attribute names of the expression it was built from, which must
 * outlive it.
 */
#ifndef DDBX_BFILT_H
#define DDBX_BFILT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/buf.h"
#include "model/expr.h"

typedef struct bf_node {
    int kind;                   /* bfilt.c's BF_ kinds */
    int kid[2];                 /* BF_AND/OR: both; BF_NOT: kid[0] */
    const char *name;           /* leaves: the attribute */
    size_t name_len;
    size_t off, len;            /* BF_EQ/NE: the constant's bytes in consts */
} bf_node;

typedef struct bfilt {
    bf_node *n;
    size_t count, cap;
    int root;
    buf consts;
} bfilt;

/* Compiles e's whole filter into *f: false (f left empty) when a part is
 * not one of the forms above. */
bool bfilt_build(bfilt *f, const expr *e);
/* Does the encoded item body[0..len) match? */
bool bfilt_eval(const bfilt *f, const void *body, size_t len);
void bfilt_done(bfilt *f);

#endif
