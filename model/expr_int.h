/*
 * expr_int — what the expr_*.c files share and nobody else sees: the
 * arena, the expr struct, the parser's node header and the resolver
 * (expr_parse.c, expr_resolve.c), value helpers. Not part of the public
 * API.
 */
#ifndef DDBX_EXPR_INT_H
#define DDBX_EXPR_INT_H

#include "model/expr.h"

/* A bump allocator: blocks chained, freed all at once. */
typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
    size_t used, cap;       /* in the head block */
} arena;

struct expr {
    expr_kind kind;
    char *text;             /* a NUL-terminated copy of the text */
    size_t len;
    expr_node *root;
    arena mem;
};

/* Every node is allocated (by expr_parse.c) with a hidden header the
 * resolver (expr_resolve.c) needs and the public AST does not: how many
 * parentheses wrapped it. */
typedef struct node_ext {
    expr_node n;            /* must be first: expr_node * casts to it */
    int parens;
    int grouped_path;       /* path began with "(" path ")" */
} node_ext;

#define EXT(np) ((node_ext *)(np))

/* The semantic checks on a parsed tree (expr_resolve.c): resolves #names
 * and :values against cx and marks them used, and on error sets d to
 * DynamoDB's first error by its priority order, "Invalid <param>: ...".
 * False on error. */
bool expr_resolve(expr_ctx *cx, expr_kind kind, expr_node *root, diag *d);

/* The value at a path in item (NULL when missing or item is NULL). */
const av *expr_path_get(const expr_path *p, const av *item);

/* Number of UTF-16 code units of UTF-8 text (what DynamoDB's size()
 * counts for strings). */
size_t expr_utf16_len(const char *s, size_t n);

/* Appends a value in the short form messages and traces use: "abc" for S,
 * 12.5 for N, true for NULL (the {"NULL":true} member, as DynamoDB's
 * {NULL:true} reads), x,y for sets; {N:1} style is the caller's. */
void expr_value_brief(buf *out, const av *v);

#endif
