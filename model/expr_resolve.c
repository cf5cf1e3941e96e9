/*
 * expr_resolve — the semantic checks on a parsed tree (expr_parse.c parses
 * it). They run in a post-order walk that mirrors when DynamoDB's grammar
 * actions fire: #names and :values resolved against the context and marked
 * used, functions and operands checked, update sections and projection
 * paths checked for overlap. Each kind of error keeps its first occurrence
 * and the one reported is chosen by DynamoDB's priority order (see
 * report_order_*). What this file shares with expr_parse.c is in
 * expr_int.h.
 */
#include "model/expr_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

/* ---- resolver ---------------------------------------------------------- */

/* Kinds of semantic error. Each keeps its first occurrence. */
enum {
    E_LIMIT, E_PARENS, E_UNKFN, E_MISUSED, E_RESERVED, E_COND, E_NAMEVAL,
    E_ATTRNAME, E_ATTRVAL, E_OPERAND, E_DISTINCT, E_FUNCTION, E_SECTION,
    E_OVERLAP, E_CONFLICT, E__N
};

/* DynamoDB's (dynalite's) report order. */
static const int report_order_cond[] = {
    E_LIMIT, E_PARENS, E_UNKFN, E_MISUSED, E_RESERVED, E_COND, -1 };
static const int report_order_update[] = {
    E_LIMIT, E_RESERVED, E_UNKFN, E_SECTION, E_ATTRNAME, E_ATTRVAL, E_OVERLAP,
    E_CONFLICT, E_OPERAND, E_FUNCTION, -1 };
static const int report_order_proj[] = {
    E_LIMIT, E_RESERVED, E_NAMEVAL, E_OVERLAP, E_CONFLICT, -1 };

typedef struct err_slot {
    bool set;
    long pos;
    char msg[600];
} err_slot;

typedef struct resolver {
    expr_ctx *cx;
    expr_kind kind;
    err_slot e[E__N];
    int operators;
    /* Paths seen so far by update actions / projections, for overlap. */
    const expr_path **paths;
    size_t n_paths, cap_paths;
    bool sections[4];
} resolver;

static void err(resolver *r, int k, long pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void err(resolver *r, int k, long pos, const char *fmt, ...)
{
    if (r->e[k].set)
        return;
    /* DynamoDB accepts doubled parentheses in a KeyConditionExpression,
     * ((pk = :p)) AND ((sk = :s)) (a conformance suite run against AWS
     * shows it), while it rejects them in conditions and filters. */
    if (k == E_PARENS && r->kind == EXPR_KEY)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->e[k].msg, sizeof r->e[k].msg, fmt, ap);
    va_end(ap);
    r->e[k].set = true;
    r->e[k].pos = pos;
}

static void path_str(const expr_path *p, buf *b)
{
    buf_addc(b, '[');
    for (size_t i = 0; i < p->n; i++) {
        if (i)
            buf_adds(b, ", ");
        if (p->steps[i].is_index)
            buf_printf(b, "[%u]", p->steps[i].index);
        else if (p->steps[i].name)
            buf_add(b, p->steps[i].name, p->steps[i].len);
    }
    buf_addc(b, ']');
}

void expr_path_dynamo(const expr_path *p, buf *out) { path_str(p, out); }

static void resolve_path(resolver *r, expr_node *n)
{
    expr_path *p = &n->path;
    /* DynamoDB counts every step, the first included: a path of 33 steps
     * is "nesting levels: 33". */
    if (p->n > EXPR_MAX_DEPTH)
        err(r, E_LIMIT, n->pos,
            "The document path has too many nesting levels; nesting levels: %zu", p->n);
    for (size_t i = 0; i < p->n; i++) {
        expr_step *st = &p->steps[i];
        if (st->is_index) {
            if (st->index == UINT32_MAX)
                err(r, E_RESERVED, st->pos,
                    "List index is not within the allowable range; index: [%s]", st->name);
            continue;
        }
        if (!st->alias) {
            if (expr_is_reserved(st->name, st->len))
                err(r, E_RESERVED, st->pos,
                    "Attribute name is a reserved keyword; reserved keyword: %s", st->name);
            continue;
        }
        int slot = r->kind == EXPR_UPDATE ? E_ATTRNAME : E_NAMEVAL;
        const av *m = r->cx->names;
        const av *v = m ? av_map_get(m, st->alias, strlen(st->alias)) : NULL;
        if (!v) {
            err(r, slot, st->pos,
                "An expression attribute name used in the document path is not defined; attribute name: %s",
                st->alias);
            continue;
        }
        r->cx->names_used[(const av_member *)((const char *)v - offsetof(av_member, val)) - m->u.m.v] = true;
        st->name = v->u.s.ptr;
        st->len = v->u.s.len;
    }
}

static void resolve_value(resolver *r, expr_node *n)
{
    int slot = r->kind == EXPR_UPDATE ? E_ATTRVAL : E_NAMEVAL;
    const av *m = r->cx->values;
    const av *v = m ? av_map_get(m, n->name, strlen(n->name)) : NULL;
    if (!v) {
        err(r, slot, n->pos,
            "An expression attribute value used in expression is not defined; attribute value: %s",
            n->name);
        return;
    }
    r->cx->values_used[(const av_member *)((const char *)v - offsetof(av_member, val)) - m->u.m.v] = true;
    n->value = v;
}

/* The type DynamoDB can tell before evaluation: a value's own, a
 * function's result; NULL for paths (unknown). */
static const char *static_type(const expr_node *n)
{
    if (n->kind == EN_VALUE)
        return n->value ? av_type_name(n->value->type) : NULL;
    if (n->kind == EN_FUNC) {
        switch (n->op) {
        case FN_BEGINS_WITH: case FN_CONTAINS: case FN_ATTRIBUTE_TYPE: return "BOOL";
        case FN_SIZE: return "N";
        case FN_LIST_APPEND: return "L";
        case FN_IF_NOT_EXISTS:
            return n->n_kids == 2 ? static_type(n->kids[1]) : NULL;
        default: return NULL;
        }
    }
    if (n->kind == EN_PLUS || n->kind == EN_MINUS)
        return "N";
    return NULL;
}

static const char *immediate_type(const expr_node *n)
{
    return n->kind == EN_VALUE && n->value ? av_type_name(n->value->type) : NULL;
}

static bool same_path(const expr_node *a, const expr_node *b)
{
    if (a->kind != EN_PATH || b->kind != EN_PATH || a->path.n != b->path.n)
        return false;
    for (size_t i = 0; i < a->path.n; i++) {
        const expr_step *x = &a->path.steps[i], *y = &b->path.steps[i];
        if (x->is_index != y->is_index)
            return false;
        if (x->is_index ? x->index != y->index
                        : (x->len != y->len || (x->name && y->name && memcmp(x->name, y->name, x->len))))
            return false;
    }
    return true;
}

static void check_distinct(resolver *r, const char *op, expr_node **args, size_t n, long pos)
{
    if (n != 2 || !same_path(args[0], args[1]))
        return;
    buf b = BUF_INIT;
    path_str(&args[0]->path, &b);
    err(r, E_DISTINCT, pos,
        "The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s",
        op, b.data);
    buf_done(&b);
}

static void check_misused(resolver *r, expr_node **args, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (args[i]->kind == EN_FUNC && args[i]->op != FN_SIZE) {
            err(r, E_MISUSED, args[i]->pos,
                "The function is not allowed to be used this way in an expression; function: %s",
                args[i]->name);
            return;
        }
}

static void check_misused_size(resolver *r, const expr_node *n)
{
    if (n->kind == EN_FUNC && n->op == FN_SIZE)
        err(r, E_MISUSED, n->pos,
            "The function is not allowed to be used this way in an expression; function: size");
}

static void check_parens_operand(resolver *r, const expr_node *n)
{
    if (EXT(n)->parens >= 2 || EXT(n)->grouped_path >= 2)
        err(r, E_PARENS, n->pos, "The expression has redundant parentheses;");
}

static void resolve_operand(resolver *r, expr_node *n);

static bool cond_fn(int op)
{
    return op >= FN_ATTRIBUTE_EXISTS && op <= FN_SIZE;
}

static void check_cond_function(resolver *r, expr_node *n)
{
    if (n->op == FN_IF_NOT_EXISTS || n->op == FN_LIST_APPEND) {
        err(r, E_UNKFN, n->pos, "The function is not allowed in a condition expression; function: %s",
            n->name);
        return;
    }
    if (n->op < 0 || !cond_fn(n->op)) {
        err(r, E_UNKFN, n->pos, "Invalid function name; function: %s", n->name);
        return;
    }
    if (r->e[E_UNKFN].set)
        return;
    static const size_t arity[] = { 1, 1, 2, 2, 2, 1 };
    if (n->n_kids != arity[n->op]) {
        err(r, E_OPERAND, n->pos,
            "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %zu",
            n->name, n->n_kids);
        return;
    }
    if (r->e[E_OPERAND].set)
        return;
    check_distinct(r, n->name, n->kids, n->n_kids, n->pos);
    if (r->e[E_FUNCTION].set)
        return;
    switch (n->op) {
    case FN_ATTRIBUTE_EXISTS:
    case FN_ATTRIBUTE_NOT_EXISTS:
        if (n->kids[0]->kind != EN_PATH)
            err(r, E_FUNCTION, n->kids[0]->pos,
                "Operator or function requires a document path; operator or function: %s", n->name);
        break;
    case FN_BEGINS_WITH:
        for (size_t i = 0; i < 2; i++) {
            const char *t = static_type(n->kids[i]);
            if (t && strcmp(t, "S") && strcmp(t, "B")) {
                err(r, E_FUNCTION, n->kids[i]->pos,
                    "Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
                    n->name, t);
                break;
            }
        }
        break;
    case FN_ATTRIBUTE_TYPE: {
        const expr_node *k = n->kids[1];
        const char *t = static_type(k);
        if (!t || strcmp(t, "S")) {
            err(r, E_FUNCTION, k->pos,
                "Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
                n->name, t ? t : "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}");
            break;
        }
        if (k->kind == EN_VALUE &&
            av_type_from_name(k->value->u.s.ptr, k->value->u.s.len) == AV_NONE)
            err(r, E_FUNCTION, k->pos,
                "Invalid attribute type name found; type: %s, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}",
                k->value->u.s.ptr);
        break;
    }
    case FN_SIZE: {
        const char *t = static_type(n->kids[0]);
        if (t && (!strcmp(t, "N") || !strcmp(t, "BOOL") || !strcmp(t, "NULL")))
            err(r, E_FUNCTION, n->kids[0]->pos,
                "Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
                n->name, t);
        break;
    }
    default:
        break;
    }
}

static void check_update_function(resolver *r, expr_node *n)
{
    if (n->op != FN_IF_NOT_EXISTS && n->op != FN_LIST_APPEND) {
        if (n->op >= 0 && cond_fn(n->op))
            err(r, E_UNKFN, n->pos, "The function is not allowed in an update expression; function: %s",
                n->name);
        else
            err(r, E_UNKFN, n->pos, "Invalid function name; function: %s", n->name);
        return;
    }
    /* list_append(list_append(...), ...): DynamoDB parses it, then refuses
     * the inner call (scylladb's test_update_expression.py quotes it);
     * if_not_exists(a, list_append(...)) likewise (DynamoDB Local 3.3,
     * AWS's parser; an if_not_exists inside either is accepted). */
    for (size_t i = n->op == FN_IF_NOT_EXISTS ? 1 : 0; i < n->n_kids; i++)
        if (n->kids[i]->kind == EN_FUNC && n->kids[i]->op == FN_LIST_APPEND)
            err(r, E_UNKFN, n->kids[i]->pos,
                "The function is not allowed to be used this way in an expression; function: %s",
                n->kids[i]->name);
    if (r->e[E_UNKFN].set || r->e[E_FUNCTION].set)
        return;
    if (n->n_kids != 2) {
        err(r, E_FUNCTION, n->pos,
            "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %zu",
            n->name, n->n_kids);
        return;
    }
    if (n->op == FN_IF_NOT_EXISTS) {
        if (n->kids[0]->kind != EN_PATH)
            err(r, E_FUNCTION, n->kids[0]->pos,
                "Operator or function requires a document path; operator or function: %s", n->name);
        return;
    }
    for (size_t i = 0; i < 2; i++) {
        const char *t = immediate_type(n->kids[i]);
        if (t && strcmp(t, "L")) {
            err(r, E_FUNCTION, n->kids[i]->pos,
                "Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
                n->name, t);
            return;
        }
    }
}

static void resolve_operand(resolver *r, expr_node *n)
{
    check_parens_operand(r, n);
    switch (n->kind) {
    case EN_PATH:
        resolve_path(r, n);
        break;
    case EN_VALUE:
        resolve_value(r, n);
        break;
    case EN_FUNC:
        r->operators++;
        for (size_t i = 0; i < n->n_kids; i++)
            resolve_operand(r, n->kids[i]);
        if (r->kind == EXPR_UPDATE) {
            check_update_function(r, n);
        } else {
            check_misused(r, n->kids, n->n_kids);
            check_cond_function(r, n);
        }
        break;
    case EN_PLUS:
    case EN_MINUS:
        r->operators++;
        for (size_t i = 0; i < 2; i++)
            resolve_operand(r, n->kids[i]);
        if (!r->e[E_UNKFN].set && !r->e[E_FUNCTION].set)
            for (size_t i = 0; i < 2; i++) {
                const char *t = immediate_type(n->kids[i]);
                if (t && strcmp(t, "N")) {
                    err(r, E_FUNCTION, n->kids[i]->pos,
                        "Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
                        n->kind == EN_PLUS ? "+" : "-", t);
                    break;
                }
            }
        break;
    default:
        assert(!"not an operand");
    }
}

/* {N:5} as dynalite prints an AttributeValue in BETWEEN messages. */
static void av_brief_typed(buf *b, const av *v)
{
    buf_printf(b, "{%s:", av_type_name(v->type));
    expr_value_brief(b, v);
    buf_addc(b, '}');
}

static void check_between(resolver *r, expr_node *n)
{
    const expr_node *lo = n->kids[1], *hi = n->kids[2];
    if (r->e[E_FUNCTION].set || lo->kind != EN_VALUE || hi->kind != EN_VALUE ||
        !lo->value || !hi->value)
        return;
    const av *x = lo->value, *y = hi->value;
    const char *what = NULL;
    if (x->type != y->type)
        what = "The BETWEEN operator requires same data type for lower and upper bounds; ";
    else if ((x->type == AV_S || x->type == AV_N || x->type == AV_B) && av_cmp(x, y) > 0)
        what = "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; ";
    if (!what)
        return;
    buf b = BUF_INIT;
    buf_adds(&b, "lower bound operand: AttributeValue: ");
    av_brief_typed(&b, x);
    buf_adds(&b, ", upper bound operand: AttributeValue: ");
    av_brief_typed(&b, y);
    err(r, E_FUNCTION, lo->pos, "%s%s", what, b.data);
    buf_done(&b);
}

/* <, <=, >, >= and BETWEEN order strings, numbers and binaries only: an
 * operand of another type known before reading the item (a value, size())
 * is refused up front, "Incorrect operand type for operator or function;
 * operator or function: <, operand type: L" (DynamoDB; dynalite just
 * evaluates to false). */
static void check_orderable(resolver *r, const char *op, expr_node **kids, size_t n)
{
    if (r->e[E_FUNCTION].set)
        return;
    for (size_t i = 0; i < n; i++) {
        const char *t = static_type(kids[i]);
        if (t && strcmp(t, "S") && strcmp(t, "N") && strcmp(t, "B")) {
            err(r, E_FUNCTION, kids[i]->pos,
                "Incorrect operand type for operator or function; operator or function: %s, operand type: %s",
                op, t);
            return;
        }
    }
}

/* After each comparison / function condition, DynamoDB reports the first
 * of its errors in this order. */
static void close_condition(resolver *r)
{
    static const int order[] = { E_NAMEVAL, E_OPERAND, E_DISTINCT, E_FUNCTION };
    if (r->e[E_COND].set)
        return;
    for (size_t i = 0; i < sizeof order / sizeof order[0]; i++)
        if (r->e[order[i]].set) {
            r->e[E_COND] = r->e[order[i]];
            return;
        }
}

static void resolve_cond(resolver *r, expr_node *n)
{
    int parens = EXT(n)->parens;
    switch (n->kind) {
    case EN_OR:
    case EN_AND:
        r->operators++;
        if (parens >= 2)
            err(r, E_PARENS, n->pos, "The expression has redundant parentheses;");
        resolve_cond(r, n->kids[0]);
        resolve_cond(r, n->kids[1]);
        check_misused_size(r, n->kids[0]);
        check_misused_size(r, n->kids[1]);
        return;
    case EN_NOT:
        r->operators++;
        if (parens >= 2)
            err(r, E_PARENS, n->pos, "The expression has redundant parentheses;");
        resolve_cond(r, n->kids[0]);
        check_misused_size(r, n->kids[0]);
        return;
    default:
        break;
    }
    /* One pair of parentheses around a condition is fine; two are
     * redundant. */
    if (parens >= 2)
        err(r, E_PARENS, n->pos, "The expression has redundant parentheses;");
    switch (n->kind) {
    case EN_CMP:
        r->operators++;
        resolve_operand(r, n->kids[0]);
        resolve_operand(r, n->kids[1]);
        check_misused(r, n->kids, 2);
        check_distinct(r, expr_cmp_text(n->op), n->kids, 2, n->pos);
        if (n->op != CMP_EQ && n->op != CMP_NE)
            check_orderable(r, expr_cmp_text(n->op), n->kids, 2);
        break;
    case EN_BETWEEN:
        r->operators++;
        for (size_t i = 0; i < 3; i++)
            resolve_operand(r, n->kids[i]);
        check_misused(r, n->kids, 3);
        check_orderable(r, "BETWEEN", n->kids, 3);
        check_between(r, n);
        break;
    case EN_IN:
        r->operators++;
        for (size_t i = 0; i < n->n_kids; i++)
            resolve_operand(r, n->kids[i]);
        check_misused(r, n->kids, n->n_kids);
        if (n->n_kids - 1 > EXPR_MAX_IN)
            err(r, E_LIMIT, n->pos,
                "The IN operator is provided with too many operands; number of operands: %zu",
                n->n_kids - 1);
        break;
    case EN_FUNC:
        resolve_operand(r, n);
        break;
    default:
        assert(!"not a condition");
    }
    close_condition(r);
}

static void check_overlap(resolver *r, const expr_node *n)
{
    const expr_path *p2 = &n->path;
    for (size_t k = 0; k < r->n_paths && !r->e[E_OVERLAP].set; k++) {
        const expr_path *p1 = r->paths[k];
        size_t i;
        bool differ = false;
        for (i = 0; i < p1->n && i < p2->n; i++) {
            const expr_step *x = &p1->steps[i], *y = &p2->steps[i];
            if (x->is_index != y->is_index) {
                buf a = BUF_INIT, b = BUF_INIT;
                path_str(p1, &a);
                path_str(p2, &b);
                /* Later conflicts replace earlier ones, as in DynamoDB. */
                r->e[E_CONFLICT].set = false;
                err(r, E_CONFLICT, n->pos,
                    "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s",
                    a.data, b.data);
                buf_done(&a);
                buf_done(&b);
                differ = true;
                break;
            }
            if (x->is_index ? x->index != y->index
                            : (!x->name || !y->name || x->len != y->len ||
                               memcmp(x->name, y->name, x->len))) {
                differ = true;
                break;
            }
        }
        if (differ)
            continue;
        buf a = BUF_INIT, b = BUF_INIT;
        path_str(p1, &a);
        path_str(p2, &b);
        err(r, E_OVERLAP, n->pos,
            "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s",
            a.data, b.data);
        buf_done(&a);
        buf_done(&b);
    }
    if (r->e[E_OVERLAP].set)
        return;
    if (r->n_paths == r->cap_paths) {
        r->cap_paths = r->cap_paths ? 2 * r->cap_paths : 16;
        r->paths = xrealloc(r->paths, r->cap_paths * sizeof *r->paths);
    }
    r->paths[r->n_paths++] = p2;
}

static const char *const section_names[] = { "SET", "REMOVE", "ADD", "DELETE" };

static void resolve_update(resolver *r, expr_node *root)
{
    for (size_t i = 0; i < root->n_kids; i++) {
        expr_node *act = root->kids[i];
        expr_node *path = act->kids[0];
        resolve_path(r, path);
        if (act->n_kids == 2)
            resolve_operand(r, act->kids[1]);
        check_overlap(r, path);
        if (act->kind == EN_ADD || act->kind == EN_DELETE) {
            const av *v = act->kids[1]->value;
            const char *tn = NULL;
            if (v) {
                switch (v->type) {
                case AV_S: tn = "STRING"; break;
                case AV_N: tn = act->kind == EN_ADD ? NULL : "NUMBER"; break;
                case AV_B: tn = "BINARY"; break;
                case AV_NULL: tn = "NULL"; break;
                case AV_BOOL: tn = "BOOLEAN"; break;
                case AV_L: tn = "LIST"; break;
                case AV_M: tn = "MAP"; break;
                default: break;
                }
            }
            if (tn)
                err(r, E_OPERAND, act->kids[1]->pos,
                    "Incorrect operand type for operator or function; operator: %s, operand type: %s",
                    act->kind == EN_ADD ? "ADD" : "DELETE", tn);
        }
        /* A section ends where the next action comes from another one. */
        bool last_of_section = i + 1 == root->n_kids || root->kids[i + 1]->op != act->op;
        if (last_of_section) {
            int s = act->kind == EN_SET ? 0 : act->kind == EN_REMOVE ? 1 : act->kind == EN_ADD ? 2 : 3;
            if (r->sections[s])
                err(r, E_SECTION, act->op,
                    "The \"%s\" section can only be used once in an update expression;",
                    section_names[s]);
            r->sections[s] = true;
        }
    }
}

static void resolve_projection(resolver *r, expr_node *root)
{
    for (size_t i = 0; i < root->n_kids; i++)
        resolve_path(r, root->kids[i]);
    for (size_t i = 0; i < root->n_kids; i++)
        check_overlap(r, root->kids[i]);
}

static bool resolve(resolver *r, expr_node *root, diag *d, const char *prefix)
{
    const int *order;
    switch (r->kind) {
    case EXPR_UPDATE:
        resolve_update(r, root);
        order = report_order_update;
        break;
    case EXPR_PROJECTION:
        resolve_projection(r, root);
        order = report_order_proj;
        break;
    default:
        resolve_cond(r, root);
        check_misused_size(r, root);
        order = report_order_cond;
        break;
    }
    if (r->operators > EXPR_MAX_OPERATORS)
        err(r, E_LIMIT, 0, "The expression contains too many operators; operator count: %d",
            r->operators);
    for (; *order >= 0; order++) {
        err_slot *s = &r->e[*order];
        if (s->set) {
            diag_at(d, ST_VALIDATION, s->pos, "Invalid %s: %s", prefix, s->msg);
            return false;
        }
    }
    return true;
}

bool expr_resolve(expr_ctx *cx, expr_kind kind, expr_node *root, diag *d)
{
    resolver r;
    memset(&r, 0, sizeof r);
    r.cx = cx;
    r.kind = kind;
    bool ok = resolve(&r, root, d, expr_kind_param(kind));
    free(r.paths);
    return ok;
}
