/*
 * builder_parse — expression text back into the tree: parse with the
 * names/values maps (builder_parse_expr, shared with builder_req.c), then
 * convert the expr tree into clauses, or say what the builder cannot show.
 * builder_int.h is what the builder_*.c files share.
 */
#include "model/builder.h"
#include "model/builder_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- text -> tree ---------------------------------------------------------- */

static status unrepresentable(const expr_node *n, const char *what, diag *d)
{
    return diag_at(d, ST_VALIDATION, n->pos, "The builder can not show %s", what);
}

static void path_from(bpath *dst, const expr_path *src)
{
    memset(dst, 0, sizeof *dst);
    for (size_t i = 0; i < src->n; i++) {
        if (src->steps[i].is_index)
            builder_path_push_index(dst, src->steps[i].index);
        else
            builder_path_push(dst, src->steps[i].name, src->steps[i].len);
    }
}

static status opnd_from(const expr_node *n, bopnd *o, diag *d)
{
    memset(o, 0, sizeof *o);
    switch (n->kind) {
    case EN_PATH:
        o->kind = BO_PATH;
        path_from(&o->path, &n->path);
        return ST_OK;
    case EN_VALUE:
        o->kind = BO_VALUE;
        assert(n->value);
        av_copy(&o->value, n->value);
        return ST_OK;
    case EN_FUNC:
        if (n->op == FN_SIZE && n->n_kids == 1 && n->kids[0]->kind == EN_PATH) {
            o->kind = BO_SIZE;
            path_from(&o->path, &n->kids[0]->path);
            return ST_OK;
        }
        if (n->op == FN_IF_NOT_EXISTS && n->n_kids == 2 && n->kids[0]->kind == EN_PATH &&
            n->kids[1]->kind == EN_VALUE) {
            o->kind = BO_IF_NOT_EXISTS;
            path_from(&o->path, &n->kids[0]->path);
            av_copy(&o->value, n->kids[1]->value);
            return ST_OK;
        }
        return unrepresentable(n, "this function as an operand", d);
    default:
        return unrepresentable(n, "this operand", d);
    }
}

static bop fn_op(int fn)
{
    switch (fn) {
    case FN_ATTRIBUTE_EXISTS: return BOP_EXISTS;
    case FN_ATTRIBUTE_NOT_EXISTS: return BOP_NOT_EXISTS;
    case FN_ATTRIBUTE_TYPE: return BOP_TYPE;
    case FN_BEGINS_WITH: return BOP_BEGINS;
    case FN_CONTAINS: return BOP_CONTAINS;
    default: return BOP__COUNT;
    }
}

static status conv(const expr_node *n, bnode **out, diag *d)
{
    *out = NULL;
    status st = ST_OK;
    switch (n->kind) {
    case EN_NOT:
        st = conv(n->kids[0], out, d);
        if (!st)
            (*out)->neg = !(*out)->neg;
        return st;
    case EN_AND:
    case EN_OR: {
        bnode *g = builder_node_new(true);
        g->is_or = n->kind == EN_OR;
        bnode *l = NULL, *r = NULL;
        st = conv(n->kids[0], &l, d);
        if (!st)
            st = conv(n->kids[1], &r, d);
        if (st) {
            builder_node_free(l);
            builder_node_free(r);
            builder_node_free(g);
            return st;
        }
        /* A left chain of the same operator is one group: `a AND b AND c`
         * parses as ((a AND b) AND c). */
        if (l->group && !l->neg && l->is_or == g->is_or && l->n_kids > 1) {
            for (size_t i = 0; i < l->n_kids; i++)
                builder_insert(g, g->n_kids, l->kids[i]);
            l->n_kids = 0;
            builder_node_free(l);
        } else {
            builder_insert(g, g->n_kids, l);
        }
        builder_insert(g, g->n_kids, r);
        *out = g;
        return ST_OK;
    }
    case EN_CMP:
    case EN_BETWEEN:
    case EN_IN:
    case EN_FUNC: {
        bnode *c = builder_node_new(false);
        if (n->kind == EN_CMP)
            c->op = (bop)n->op;
        else if (n->kind == EN_BETWEEN)
            c->op = BOP_BETWEEN;
        else if (n->kind == EN_IN)
            c->op = BOP_IN;
        else
            c->op = fn_op(n->op);
        if (c->op == BOP__COUNT || n->n_kids == 0) {
            builder_node_free(c);
            return unrepresentable(n, "this function as a condition", d);
        }
        c->left.kind = BO_PATH;
        st = opnd_from(n->kids[0], &c->left, d);
        c->n_args = n->n_kids - 1;
        c->args = c->n_args ? xcalloc(c->n_args, sizeof *c->args) : NULL;
        for (size_t i = 0; i < c->n_args && !st; i++)
            st = opnd_from(n->kids[i + 1], &c->args[i], d);
        if (!st && (c->left.kind == BO_IF_NOT_EXISTS))
            st = unrepresentable(n, "if_not_exists in a condition", d);
        for (size_t i = 0; i < c->n_args && !st; i++)
            if (c->args[i].kind == BO_IF_NOT_EXISTS)
                st = unrepresentable(n, "if_not_exists in a condition", d);
        if (st) {
            builder_node_free(c);
            return st;
        }
        *out = c;
        return ST_OK;
    }
    default:
        return unrepresentable(n, "this part of the expression", d);
    }
}

/* builder_parse's from an already parsed expression. */
static status builder_from_expr(const expr *e, builder **out, diag *d)
{
    *out = NULL;
    bnode *n = NULL;
    status st = conv(expr_root(e), &n, d);
    if (st)
        return st;
    builder *b = xcalloc(1, sizeof *b);
    if (n->group && !n->neg && n->n_kids > 1) {
        b->root = n;
    } else {
        b->root = builder_node_new(true);
        builder_insert(b->root, 0, n);
    }
    *out = b;
    return ST_OK;
}

status builder_parse_expr(expr_kind kind, const char *text, const char *names_json,
                          const char *values_json, bparsed *p, diag *d)
{
    memset(p, 0, sizeof *p);
    p->names.type = p->values.type = AV_NONE;
    status st = ddbjson_parse_maps(names_json, values_json, &p->names, &p->values, d);
    if (!st) {
        st = expr_ctx_init(&p->cx, p->names.type ? &p->names : NULL,
                           p->values.type ? &p->values : NULL, d);
        p->cx_ok = !st;
    }
    if (!st)
        st = expr_parse(&p->cx, kind, text, strlen(text), &p->e, d);
    if (!st)
        st = expr_ctx_finish(&p->cx, d);
    return st;
}

void builder_parsed_done(bparsed *p)
{
    expr_free(p->e);
    if (p->cx_ok)
        expr_ctx_done(&p->cx);
    av_done(&p->names);
    av_done(&p->values);
    memset(p, 0, sizeof *p);
}

status builder_parse(expr_kind kind, const char *text, const char *names_json,
                     const char *values_json, builder **out, diag *d)
{
    bparsed p;
    *out = NULL;
    status st = builder_parse_expr(kind, text, names_json, values_json, &p, d);
    if (!st)
        st = builder_from_expr(p.e, out, d);
    builder_parsed_done(&p);
    return st;
}
