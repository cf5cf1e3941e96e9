/*
 * partiql_print — statements and values as canonical PartiQL text
 * (keywords upper case, identifiers double-quoted), a statement as a
 * tree, and a parsed DynamoDB expression as PartiQL (the builder's
 * PartiQL form). Nothing here changes what it prints.
 */
#include "model/partiql_int.h"

#include <string.h>

#include "model/ddbjson.h"
#include "model/num.h"

static void print_quoted(buf *out, const char *s, size_t n, char q)
{
    buf_addc(out, q);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == q)
            buf_addc(out, q);
        buf_addc(out, s[i]);
    }
    buf_addc(out, q);
}

void pq_print_value(const av *v, buf *out)
{
    char nb[NUM_TEXT_MAX];
    switch (v->type) {
    case AV_S:
        print_quoted(out, v->u.s.ptr, v->u.s.len, '\'');
        break;
    case AV_N:
        num_format(&v->u.n, nb);
        buf_adds(out, nb);
        break;
    case AV_BOOL:
        buf_adds(out, v->u.b ? "TRUE" : "FALSE");
        break;
    case AV_NULL:
        buf_adds(out, "NULL");
        break;
    case AV_L:
    case AV_SS:
    case AV_NS:
        buf_adds(out, v->type == AV_L ? "[" : "<<");
        for (size_t i = 0; i < v->u.l.len; i++) {
            if (i)
                buf_adds(out, ", ");
            pq_print_value(&v->u.l.v[i], out);
        }
        buf_adds(out, v->type == AV_L ? "]" : ">>");
        break;
    case AV_M:
        buf_addc(out, '{');
        for (size_t i = 0; i < v->u.m.len; i++) {
            if (i)
                buf_adds(out, ", ");
            print_quoted(out, v->u.m.v[i].name, v->u.m.v[i].name_len, '\'');
            buf_adds(out, ": ");
            pq_print_value(&v->u.m.v[i].val, out);
        }
        buf_addc(out, '}');
        break;
    default:              /* B, BS: no PartiQL literal */
        ddbjson_write_value(out, v);
        break;
    }
}

static void print_steps(const pq_step *st, size_t n, buf *out)
{
    for (size_t i = 0; i < n; i++) {
        if (st[i].is_index) {
            buf_printf(out, "[%u]", st[i].index);
        } else {
            if (i)
                buf_addc(out, '.');
            print_quoted(out, st[i].name, st[i].len, '"');
        }
    }
}

int pq_prec(const pn *n)
{
    return n->k == PN_OR ? 1 : n->k == PN_AND ? 2 : n->k == PN_NOT ? 3 : 4;
}

void pq_print_node(const pn *n, buf *out);

void pq_print_kid(const pn *k, int parent, buf *out)
{
    bool wrap = pq_prec(k) < parent;
    if (wrap)
        buf_addc(out, '(');
    pq_print_node(k, out);
    if (wrap)
        buf_addc(out, ')');
}

void pq_print_node(const pn *n, buf *out)
{
    switch (n->k) {
    case PN_OR:
    case PN_AND:
        pq_print_kid(n->kids[0], pq_prec(n), out);
        buf_adds(out, n->k == PN_OR ? " OR " : " AND ");
        pq_print_kid(n->kids[1], pq_prec(n) + 1, out);
        break;
    case PN_NOT:
        buf_adds(out, "NOT ");
        pq_print_kid(n->kids[0], 4, out);
        break;
    case PN_CMP:
        pq_print_node(n->kids[0], out);
        buf_printf(out, " %s ", expr_cmp_text((expr_cmp)n->op));
        pq_print_node(n->kids[1], out);
        break;
    case PN_BETWEEN:
        pq_print_node(n->kids[0], out);
        buf_adds(out, " BETWEEN ");
        pq_print_node(n->kids[1], out);
        buf_adds(out, " AND ");
        pq_print_node(n->kids[2], out);
        break;
    case PN_IN:
        pq_print_node(n->kids[0], out);
        buf_adds(out, n->neg ? " NOT IN [" : " IN [");
        for (size_t i = 1; i < n->n; i++) {
            if (i > 1)
                buf_adds(out, ", ");
            pq_print_node(n->kids[i], out);
        }
        buf_addc(out, ']');
        break;
    case PN_FUNC:
    case PN_CALL:
        buf_adds(out, n->k == PN_FUNC ? pq_fn_names[n->op] : pq_call_names[n->op]);
        buf_addc(out, '(');
        pq_print_node(n->kids[0], out);
        buf_adds(out, ", ");
        pq_print_node(n->kids[1], out);
        buf_addc(out, ')');
        break;
    case PN_IS:
        pq_print_node(n->kids[0], out);
        buf_adds(out, n->neg ? " IS NOT " : " IS ");
        buf_adds(out, n->op == IS_MISSING ? "MISSING" : "NULL");
        break;
    case PN_PATH:
        print_steps(n->steps, n->n_steps, out);
        break;
    case PN_VALUE:
        pq_print_value(&n->val, out);
        break;
    case PN_SIZE:
        buf_adds(out, "size(");
        pq_print_node(n->kids[0], out);
        buf_addc(out, ')');
        break;
    case PN_PLUS:
    case PN_MINUS:
        pq_print_node(n->kids[0], out);
        buf_adds(out, n->k == PN_PLUS ? " + " : " - ");
        pq_print_node(n->kids[1], out);
        break;
    }
}

static void print_select(const pq_stmt *s, buf *out)
{
    buf_adds(out, "SELECT ");
    if (s->star)
        buf_addc(out, '*');
    for (size_t i = 0; i < s->n_proj; i++) {
        if (i)
            buf_adds(out, ", ");
        pq_print_node(s->proj[i], out);
    }
    buf_adds(out, " FROM ");
    print_quoted(out, s->table, strlen(s->table), '"');
    if (s->index) {
        buf_addc(out, '.');
        print_quoted(out, s->index, strlen(s->index), '"');
    }
    if (s->where) {
        buf_adds(out, " WHERE ");
        pq_print_node(s->where, out);
    }
    for (size_t i = 0; i < s->n_order; i++) {
        buf_adds(out, i ? ", " : " ORDER BY ");
        pq_print_node(s->order[i], out);
        if (s->order_desc[i])
            buf_adds(out, " DESC");
    }
}

static const char *const ret_names[] = { "", "ALL OLD", "MODIFIED OLD", "ALL NEW", "MODIFIED NEW" };

void pq_print(const pq_stmt *s, buf *out)
{
    switch (s->kind) {
    case PQ_SELECT:
        print_select(s, out);
        return;
    case PQ_EXISTS:
        buf_adds(out, "EXISTS(");
        print_select(s, out);
        buf_addc(out, ')');
        return;
    case PQ_INSERT:
        buf_adds(out, "INSERT INTO ");
        print_quoted(out, s->table, strlen(s->table), '"');
        buf_adds(out, " VALUE ");
        pq_print_node(s->item, out);
        return;
    case PQ_UPDATE:
        buf_adds(out, "UPDATE ");
        print_quoted(out, s->table, strlen(s->table), '"');
        for (size_t i = 0; i < s->n_acts; i++) {
            const pq_act *a = &s->acts[i];
            if (i == 0 || s->acts[i - 1].kind != a->kind)
                buf_adds(out, a->kind == ACT_SET ? " SET " : " REMOVE ");
            else
                buf_adds(out, ", ");
            pq_print_node(a->path, out);
            if (a->val) {
                buf_adds(out, " = ");
                pq_print_node(a->val, out);
            }
        }
        break;
    case PQ_DELETE:
        buf_adds(out, "DELETE FROM ");
        print_quoted(out, s->table, strlen(s->table), '"');
        break;
    }
    buf_adds(out, " WHERE ");
    pq_print_node(s->where, out);
    if (s->ret)
        buf_printf(out, " RETURNING %s *", ret_names[s->ret]);
}

static void tree_node(const pn *n, int depth, buf *out)
{
    static const char *const kinds[] = {
        "OR", "AND", "NOT", "CMP", "BETWEEN", "IN", "FUNC", "IS", "PATH", "VALUE", "SIZE",
        "PLUS", "MINUS", "CALL",
    };
    buf_printf(out, "%*s%s", depth * 2, "", kinds[n->k]);
    switch (n->k) {
    case PN_CMP:
        buf_printf(out, " %s", expr_cmp_text((expr_cmp)n->op));
        break;
    case PN_IN:
        if (n->neg)
            buf_adds(out, " NOT");
        break;
    case PN_FUNC:
        buf_printf(out, " %s", pq_fn_names[n->op]);
        break;
    case PN_CALL:
        buf_printf(out, " %s", pq_call_names[n->op]);
        break;
    case PN_IS:
        buf_printf(out, "%s %s", n->neg ? " NOT" : "", n->op == IS_MISSING ? "MISSING" : "NULL");
        break;
    case PN_PATH:
    case PN_VALUE:
        buf_addc(out, ' ');
        pq_print_node(n, out);
        break;
    default:
        break;
    }
    buf_addc(out, '\n');
    for (size_t i = 0; i < n->n; i++)
        tree_node(n->kids[i], depth + 1, out);
}

void pq_print_tree(const pq_stmt *s, buf *out)
{
    buf_printf(out, "%s \"%s\"", pq_kind_name(s->kind), s->table);
    if (s->index)
        buf_printf(out, " index \"%s\"", s->index);
    buf_addc(out, '\n');
    if (s->kind == PQ_SELECT || s->kind == PQ_EXISTS) {
        buf_adds(out, "  PROJECT");
        if (s->star)
            buf_adds(out, " *");
        buf_addc(out, '\n');
        for (size_t i = 0; i < s->n_proj; i++)
            tree_node(s->proj[i], 2, out);
    }
    if (s->item)
        tree_node(s->item, 1, out);
    for (size_t i = 0; i < s->n_acts; i++) {
        buf_adds(out, s->acts[i].kind == ACT_SET ? "  SET\n" : "  REMOVE\n");
        tree_node(s->acts[i].path, 2, out);
        if (s->acts[i].val)
            tree_node(s->acts[i].val, 2, out);
    }
    if (s->where) {
        buf_adds(out, "  WHERE\n");
        tree_node(s->where, 2, out);
    }
    for (size_t i = 0; i < s->n_order; i++) {
        buf_printf(out, "  ORDER BY%s\n", s->order_desc[i] ? " DESC" : "");
        tree_node(s->order[i], 2, out);
    }
    if (s->ret)
        buf_printf(out, "  RETURNING %s *\n", ret_names[s->ret]);
}


/* ---- expressions as PartiQL (the builder's PartiQL form) ------------------- */

static int expr_prec(const expr_node *n)
{
    return n->kind == EN_OR ? 1 : n->kind == EN_AND ? 2 : n->kind == EN_NOT ? 3 : 4;
}

static void expr_kid(const expr_node *k, int parent, buf *out)
{
    bool wrap = expr_prec(k) < parent;
    if (wrap)
        buf_addc(out, '(');
    pq_print_expr_node(k, out);
    if (wrap)
        buf_addc(out, ')');
}

static void print_expr_path(const expr_path *p, buf *out)
{
    for (size_t i = 0; i < p->n; i++) {
        const expr_step *st = &p->steps[i];
        if (st->is_index) {
            buf_printf(out, "[%u]", st->index);
        } else {
            if (i)
                buf_addc(out, '.');
            print_quoted(out, st->name, st->len, '"');
        }
    }
}

void pq_print_expr_node(const expr_node *n, buf *out)
{
    switch (n->kind) {
    case EN_OR:
    case EN_AND:
        expr_kid(n->kids[0], expr_prec(n), out);
        buf_adds(out, n->kind == EN_OR ? " OR " : " AND ");
        expr_kid(n->kids[1], expr_prec(n) + 1, out);
        break;
    case EN_NOT:
        buf_adds(out, "NOT ");
        expr_kid(n->kids[0], 4, out);
        break;
    case EN_CMP:
        pq_print_expr_node(n->kids[0], out);
        buf_printf(out, " %s ", expr_cmp_text((expr_cmp)n->op));
        pq_print_expr_node(n->kids[1], out);
        break;
    case EN_BETWEEN:
        pq_print_expr_node(n->kids[0], out);
        buf_adds(out, " BETWEEN ");
        pq_print_expr_node(n->kids[1], out);
        buf_adds(out, " AND ");
        pq_print_expr_node(n->kids[2], out);
        break;
    case EN_IN:
        pq_print_expr_node(n->kids[0], out);
        buf_adds(out, " IN [");
        for (size_t i = 1; i < n->n_kids; i++) {
            if (i > 1)
                buf_adds(out, ", ");
            pq_print_expr_node(n->kids[i], out);
        }
        buf_addc(out, ']');
        break;
    case EN_FUNC:
        /* attribute_exists / attribute_not_exists are PartiQL's MISSING
         * tests; the others have the same names. */
        if (n->op == FN_ATTRIBUTE_EXISTS || n->op == FN_ATTRIBUTE_NOT_EXISTS) {
            pq_print_expr_node(n->kids[0], out);
            buf_adds(out, n->op == FN_ATTRIBUTE_EXISTS ? " IS NOT MISSING" : " IS MISSING");
            break;
        }
        buf_adds(out, n->op >= 0 ? expr_fn_name((expr_fn)n->op) : n->name);
        buf_addc(out, '(');
        for (size_t i = 0; i < n->n_kids; i++) {
            if (i)
                buf_adds(out, ", ");
            pq_print_expr_node(n->kids[i], out);
        }
        buf_addc(out, ')');
        break;
    case EN_PATH:
        print_expr_path(&n->path, out);
        break;
    case EN_VALUE:
        pq_print_value(n->value, out);
        break;
    case EN_PLUS:
    case EN_MINUS:
        pq_print_expr_node(n->kids[0], out);
        buf_adds(out, n->kind == EN_PLUS ? " + " : " - ");
        pq_print_expr_node(n->kids[1], out);
        break;
    case EN_SET:
        pq_print_expr_node(n->kids[0], out);
        buf_adds(out, " = ");
        pq_print_expr_node(n->kids[1], out);
        break;
    case EN_REMOVE:
        pq_print_expr_node(n->kids[0], out);
        break;
    case EN_ADD:
    case EN_DELETE: {
        /* ADD of a set is set_add, DELETE set_delete; ADD of a number
         * is an addition (PartiQL has no ADD, and its + needs the
         * attribute to exist). */
        const av *v = n->kids[1]->value;
        pq_print_expr_node(n->kids[0], out);
        buf_adds(out, " = ");
        if (n->kind == EN_ADD && v && v->type == AV_N) {
            pq_print_expr_node(n->kids[0], out);
            buf_adds(out, " + ");
            pq_print_expr_node(n->kids[1], out);
        } else {
            buf_adds(out, n->kind == EN_ADD ? "set_add(" : "set_delete(");
            pq_print_expr_node(n->kids[0], out);
            buf_adds(out, ", ");
            pq_print_expr_node(n->kids[1], out);
            buf_addc(out, ')');
        }
        break;
    }
    case EN_UPDATE: {
        /* SET (with ADD and DELETE as SET) first, then REMOVE. */
        bool any = false;
        for (int sec = 0; sec < 2; sec++) {
            bool first = true;
            for (size_t i = 0; i < n->n_kids; i++) {
                const expr_node *a = n->kids[i];
                if ((a->kind == EN_REMOVE) != sec)
                    continue;
                buf_adds(out, !first ? ", " : sec ? (any ? " REMOVE " : "REMOVE ") : "SET ");
                first = false;
                any = true;
                pq_print_expr_node(a, out);
            }
        }
        break;
    }
    case EN_PROJECT:
        for (size_t i = 0; i < n->n_kids; i++) {
            if (i)
                buf_adds(out, ", ");
            pq_print_expr_node(n->kids[i], out);
        }
        break;
    }
}

