/*
 * builder_int — what the builder_*.c files share and nobody else sees:
 * node allocation (builder.c), the operator class (builder.c) and the
 * parse-with-maps helpers (builder_parse.c, also used by builder_req.c).
 * Not part of the public API.
 */
#ifndef DDBX_BUILDER_INT_H
#define DDBX_BUILDER_INT_H

#include "model/builder.h"

/* A new, empty clause (group false) or group; positions unset (-1). */
bnode *builder_node_new(bool group);

/* Frees n and everything under it; n must be detached or the root. */
void builder_node_free(bnode *n);

/* True for the function-style operators (attribute_exists() ... contains()). */
bool builder_is_function(bop op);

/* An expression parsed against its maps (builder_parse_expr): the tree
 * points into the maps, so builder_parsed_done frees them together. */
typedef struct bparsed {
    av names, values;
    expr_ctx cx;
    bool cx_ok;
    expr *e;
} bparsed;

/* Parses both maps, then text as kind against them (unused names or
 * values are errors). A map given as NULL or blank text is not given; a
 * bad one names itself (ExpressionAttributeNames or
 * ExpressionAttributeValues) in d->file and keeps the position or the
 * attribute in it. On error d says what and where; p must be released
 * with builder_parsed_done either way. */
status builder_parse_expr(expr_kind kind, const char *text, const char *names_json,
                          const char *values_json, bparsed *p, diag *d);
void builder_parsed_done(bparsed *p);

#endif
