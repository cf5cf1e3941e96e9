/*
 * builder — the clause tree: operators, nodes, groups, insert, delete,
 * duplicate, move and the flattened walk the panel draws. The rest of the
 * builder is split by seam, sharing builder_int.h: paths (builder_path.c),
 * operands and values (builder_value.c), names/values maps and printing
 * (builder_print.c), text -> tree (builder_parse.c), the verdict
 * (builder_verdict.c); update rows and whole requests are in builder_req.c.
 */
#include "model/builder.h"
#include "model/builder_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"

/* ---- operators ---------------------------------------------------------- */

static const char *const op_names[BOP__COUNT] = {
    "=", "<>", "<", "<=", ">", ">=", "BETWEEN", "IN",
    "attribute_exists", "attribute_not_exists", "attribute_type",
    "begins_with", "contains",
};

const char *builder_op_name(bop op)
{
    return (unsigned)op < BOP__COUNT ? op_names[op] : "?";
}

bop builder_op_parse(const char *s, size_t len)
{
    for (int i = 0; i < BOP__COUNT; i++)
        if (strlen(op_names[i]) == len && strncasecmp(op_names[i], s, len) == 0)
            return (bop)i;
    return BOP__COUNT;
}

size_t builder_op_arity(bop op)
{
    switch (op) {
    case BOP_BETWEEN: return 2;
    case BOP_EXISTS: case BOP_NOT_EXISTS: return 0;
    default: return 1;
    }
}

bool builder_is_function(bop op)
{
    return op >= BOP_EXISTS;
}

/* ---- the tree ------------------------------------------------------------ */

bnode *builder_node_new(bool group)
{
    bnode *n = xcalloc(1, sizeof *n);
    n->group = group;
    n->pos = n->end = n->cpos = n->cend = -1;
    return n;
}

void builder_node_free(bnode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_kids; i++)
        builder_node_free(n->kids[i]);
    free(n->kids);
    builder_opnd_free(&n->left);
    for (size_t i = 0; i < n->n_args; i++)
        builder_opnd_free(&n->args[i]);
    free(n->args);
    free(n);
}

static bnode *node_copy(const bnode *s, bnode *parent)
{
    bnode *n = builder_node_new(s->group);
    n->parent = parent;
    n->neg = s->neg;
    n->is_or = s->is_or;
    n->op = s->op;
    if (s->n_kids) {
        n->kids = xcalloc(s->n_kids, sizeof *n->kids);
        n->n_kids = n->cap_kids = s->n_kids;
        for (size_t i = 0; i < s->n_kids; i++)
            n->kids[i] = node_copy(s->kids[i], n);
    }
    if (!s->group) {
        builder_opnd_copy(&n->left, &s->left);
        n->n_args = s->n_args;
        n->args = s->n_args ? xcalloc(s->n_args, sizeof *n->args) : NULL;
        for (size_t i = 0; i < s->n_args; i++)
            builder_opnd_copy(&n->args[i], &s->args[i]);
    }
    return n;
}

builder *builder_new(void)
{
    builder *b = xcalloc(1, sizeof *b);
    b->root = builder_node_new(true);
    return b;
}

void builder_free(builder *b)
{
    if (!b)
        return;
    builder_node_free(b->root);
    free(b);
}

void builder_clear(builder *b)
{
    builder_node_free(b->root);
    b->root = builder_node_new(true);
}

bool builder_empty(const builder *b)
{
    return b->root->n_kids == 0;
}

void builder_insert(bnode *g, size_t at, bnode *n)
{
    assert(g->group);
    if (at > g->n_kids)
        at = g->n_kids;
    if (g->n_kids == g->cap_kids) {
        g->cap_kids = g->cap_kids ? 2 * g->cap_kids : 4;
        g->kids = xrealloc(g->kids, g->cap_kids * sizeof *g->kids);
    }
    memmove(g->kids + at + 1, g->kids + at, (g->n_kids - at) * sizeof *g->kids);
    g->kids[at] = n;
    g->n_kids++;
    n->parent = g;
}

static void detach(bnode *n)
{
    bnode *g = n->parent;
    assert(g);
    size_t i = builder_index_of(n);
    memmove(g->kids + i, g->kids + i + 1, (g->n_kids - i - 1) * sizeof *g->kids);
    g->n_kids--;
    n->parent = NULL;
}

size_t builder_index_of(const bnode *n)
{
    if (!n->parent)
        return 0;
    for (size_t i = 0; i < n->parent->n_kids; i++)
        if (n->parent->kids[i] == n)
            return i;
    assert(!"node not in its parent");
    return 0;
}

bnode *builder_add_clause(builder *b, bnode *g, size_t at)
{
    (void)b;
    bnode *n = builder_node_new(false);
    n->op = BOP_EQ;
    n->left.kind = BO_PATH;
    n->n_args = 1;
    n->args = xcalloc(1, sizeof *n->args);
    n->args[0].kind = BO_VALUE;
    builder_insert(g, at, n);
    return n;
}

bnode *builder_add_group(builder *b, bnode *g, size_t at, bool is_or)
{
    (void)b;
    bnode *n = builder_node_new(true);
    n->is_or = is_or;
    builder_insert(g, at, n);
    return n;
}

void builder_delete(builder *b, bnode *n)
{
    if (n == b->root) {
        builder_clear(b);
        return;
    }
    detach(n);
    builder_node_free(n);
}

bnode *builder_duplicate(builder *b, bnode *n)
{
    if (n == b->root)
        return NULL;
    bnode *c = node_copy(n, NULL);
    builder_insert(n->parent, builder_index_of(n) + 1, c);
    return c;
}

bool builder_move(builder *b, bnode *n, int dir)
{
    if (n == b->root || dir == 0)
        return false;
    bnode *g = n->parent;
    size_t i = builder_index_of(n);
    if (dir < 0 && i > 0) {
        bnode *prev = g->kids[i - 1];
        if (prev->group) {          /* step into the group above, at its end */
            detach(n);
            builder_insert(prev, prev->n_kids, n);
        } else {
            g->kids[i] = prev;
            g->kids[i - 1] = n;
        }
        return true;
    }
    if (dir > 0 && i + 1 < g->n_kids) {
        bnode *next = g->kids[i + 1];
        if (next->group) {          /* step into the group below, at its start */
            detach(n);
            builder_insert(next, 0, n);
        } else {
            g->kids[i] = next;
            g->kids[i + 1] = n;
        }
        return true;
    }
    if (!g->parent)
        return false;               /* at the edge of the root */
    /* Leave the group: before it (up) or after it (down). */
    bnode *gg = g->parent;
    size_t gi = builder_index_of(g);
    detach(n);
    builder_insert(gg, dir < 0 ? gi : gi + 1, n);
    return true;
}

void builder_set_op(bnode *n, bop op)
{
    assert(!n->group);
    size_t want = builder_op_arity(op);
    if (op == BOP_IN && n->n_args >= 1)
        want = n->n_args;
    for (size_t i = want; i < n->n_args; i++)
        builder_opnd_free(&n->args[i]);
    if (want > n->n_args) {
        n->args = xrealloc(n->args, want * sizeof *n->args);
        for (size_t i = n->n_args; i < want; i++) {
            memset(&n->args[i], 0, sizeof n->args[i]);
            n->args[i].kind = BO_VALUE;
        }
    }
    n->n_args = want;
    if (n->n_args == 0) {
        free(n->args);
        n->args = NULL;
    }
    /* Functions take a path first; a size() or value there would be
     * refused by DynamoDB, so make it a path. */
    if ((op == BOP_EXISTS || op == BOP_NOT_EXISTS || op == BOP_TYPE) && n->left.kind != BO_PATH) {
        av_done(&n->left.value);
        n->left.kind = BO_PATH;
    }
    n->op = op;
}

static void walk(const bnode *n, int depth, const bnode ***nodes, int **depths, size_t *k, size_t *cap)
{
    if (*k == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *nodes = xrealloc(*nodes, *cap * sizeof **nodes);
        *depths = xrealloc(*depths, *cap * sizeof **depths);
    }
    (*nodes)[*k] = n;
    (*depths)[*k] = depth;
    (*k)++;
    for (size_t i = 0; i < n->n_kids; i++)
        walk(n->kids[i], depth + 1, nodes, depths, k, cap);
}

void builder_walk(const builder *b, const bnode ***nodes, int **depths, size_t *n)
{
    size_t cap = 0;
    *nodes = NULL;
    *depths = NULL;
    *n = 0;
    walk(b->root, 0, nodes, depths, n, &cap);
}
