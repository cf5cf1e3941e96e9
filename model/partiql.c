/*
 * partiql — lexer, parser, printer and planner of DynamoDB's PartiQL
 * dialect (see partiql.h). The planner turns WHERE terms into expression
 * text over generated placeholders and parses the filter with model/expr,
 * so conditions are evaluated by the one evaluator the store uses.
 */
#include "model/partiql.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/num.h"

#define PQ_MAX_DEPTH 64      /* nesting of conditions and literals */

/* ---- tokens ---------------------------------------------------------------- */

typedef enum { T_EOF, T_IDENT, T_QIDENT, T_STRING, T_NUMBER, T_PARAM, T_PUNCT } tkind;

typedef struct tok {
    tkind k;
    long pos;
    size_t len;          /* bytes of source */
} tok;

/* ---- the statement --------------------------------------------------------- */

typedef enum {
    PN_OR, PN_AND, PN_NOT, PN_CMP, PN_BETWEEN, PN_IN, PN_FUNC, PN_IS, PN_PATH, PN_VALUE,
    PN_SIZE, PN_PLUS, PN_MINUS, PN_CALL,
} pn_kind;

enum { IS_MISSING, IS_NULL };
enum { F_BEGINS_WITH, F_CONTAINS, F_ATTRIBUTE_TYPE };            /* PN_FUNC */
enum { C_LIST_APPEND, C_SET_ADD, C_SET_DELETE };                 /* PN_CALL */

typedef struct pq_step {
    bool is_index;
    uint32_t index;
    char *name;
    size_t len;
} pq_step;

typedef struct pn pn;
struct pn {
    pn_kind k;
    int op;              /* expr_cmp, F_*, C_*, IS_* */
    bool neg;            /* IS NOT, NOT IN */
    long pos;
    pn **kids;
    size_t n;
    pq_step *steps;      /* PN_PATH */
    size_t n_steps;
    av val;              /* PN_VALUE */
};

enum { ACT_SET, ACT_REMOVE };
typedef struct pq_act {
    int kind;
    pn *path, *val;
} pq_act;

enum { RET_NONE, RET_ALL_OLD, RET_MODIFIED_OLD, RET_ALL_NEW, RET_MODIFIED_NEW };

struct pq_stmt {
    pq_kind kind;
    char *text;
    size_t len;
    char *table, *index;
    long table_pos;
    bool star;
    pn **proj;
    size_t n_proj;
    pn *where;
    pn *order[4];
    bool order_desc[4];
    size_t n_order;
    long order_pos;
    pn *item;            /* INSERT: the VALUE */
    pq_act *acts;
    size_t n_acts;
    int ret;
    long ret_pos;
};

struct pq_proj {
    pq_step *steps;
    size_t n;
    char *label;
};

static void pn_free(pn *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++)
        pn_free(n->kids[i]);
    free(n->kids);
    for (size_t i = 0; i < n->n_steps; i++)
        free(n->steps[i].name);
    free(n->steps);
    av_free(&n->val);
    free(n);
}

void pq_free(pq_stmt *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->table);
    free(s->index);
    for (size_t i = 0; i < s->n_proj; i++)
        pn_free(s->proj[i]);
    free(s->proj);
    pn_free(s->where);
    for (size_t i = 0; i < s->n_order; i++)
        pn_free(s->order[i]);
    pn_free(s->item);
    for (size_t i = 0; i < s->n_acts; i++) {
        pn_free(s->acts[i].path);
        pn_free(s->acts[i].val);
    }
    free(s->acts);
    free(s);
}

pq_kind pq_get_kind(const pq_stmt *s) { return s->kind; }
const char *pq_table(const pq_stmt *s) { return s->table; }
const char *pq_index(const pq_stmt *s) { return s->index; }

const char *pq_kind_name(pq_kind k)
{
    static const char *const names[] = { "SELECT", "INSERT", "UPDATE", "DELETE", "EXISTS" };
    return (unsigned)k <= PQ_EXISTS ? names[k] : "?";
}

const char *pq_op_name(pq_op op)
{
    static const char *const names[] = {
        "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheck"
    };
    return (unsigned)op <= PQ_OP_CHECK ? names[op] : "?";
}

/* ---- the lexer ------------------------------------------------------------- */

typedef struct P {
    const char *t;
    size_t len;
    tok *toks;
    size_t n, cap, i;
    const av *params;
    size_t n_params, used;
    int depth;
    diag *d;
} P;

static const char WF[] = "Statement wasn't well formed, can't be processed: ";

static void line_col(const P *p, long pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (long i = 0; i < pos && (size_t)i < p->len; i++) {
        if (p->t[i] == '\n') {
            (*line)++;
            *col = 1;
        } else if (((unsigned char)p->t[i] & 0xC0) != 0x80) {
            (*col)++;
        }
    }
}

/* A syntax error at pos: DynamoDB's lead-in, what was wrong, where. */
static status syntax_at(P *p, long pos, const char *what)
{
    int line, col;
    line_col(p, pos, &line, &col);
    p->d->line = line;
    p->d->col = col;
    return diag_at(p->d, ST_VALIDATION, pos, "%s%s at line %d, column %d", WF, what, line, col);
}

static bool is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}

static bool is_ident_char(unsigned char c)
{
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

static void push_tok(P *p, tkind k, long pos, size_t len)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 32;
        p->toks = xrealloc(p->toks, p->cap * sizeof *p->toks);
    }
    p->toks[p->n++] = (tok){ k, pos, len };
}

static status lex(P *p)
{
    const char *t = p->t;
    size_t i = 0, n = p->len;
    while (i < n) {
        unsigned char c = (unsigned char)t[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            i++;
            continue;
        }
        if (c == '-' && i + 1 < n && t[i + 1] == '-') {      /* -- comment to the end of the line */
            while (i < n && t[i] != '\n')
                i++;
            continue;
        }
        size_t s = i;
        if (is_ident_start(c)) {
            while (i < n && is_ident_char((unsigned char)t[i]))
                i++;
            push_tok(p, T_IDENT, (long)s, i - s);
        } else if (c == '"' || c == '\'') {
            i++;
            for (;;) {
                if (i >= n)
                    return syntax_at(p, (long)s, c == '"' ? "Unterminated quoted identifier"
                                                          : "Unterminated string literal");
                if ((unsigned char)t[i] == c) {
                    if (i + 1 < n && (unsigned char)t[i + 1] == c) {
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                i++;
            }
            push_tok(p, c == '"' ? T_QIDENT : T_STRING, (long)s, i - s);
        } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit((unsigned char)t[i + 1]))) {
            while (i < n && is_digit((unsigned char)t[i]))
                i++;
            if (i < n && t[i] == '.') {
                i++;
                while (i < n && is_digit((unsigned char)t[i]))
                    i++;
            }
            if (i < n && (t[i] == 'e' || t[i] == 'E')) {
                size_t e = i + 1;
                if (e < n && (t[e] == '+' || t[e] == '-'))
                    e++;
                if (e < n && is_digit((unsigned char)t[e])) {
                    i = e;
                    while (i < n && is_digit((unsigned char)t[i]))
                        i++;
                }
            }
            if (i < n && is_ident_char((unsigned char)t[i]))
                return syntax_at(p, (long)s, "Invalid numeric literal");
            push_tok(p, T_NUMBER, (long)s, i - s);
        } else if (c == '?') {
            i++;
            push_tok(p, T_PARAM, (long)s, 1);
        } else {
            static const char *const two[] = { "<<", ">>", "<=", ">=", "<>", "!=" };
            size_t len = 0;
            for (size_t k = 0; k < sizeof two / sizeof *two; k++)
                if (i + 1 < n && t[i] == two[k][0] && t[i + 1] == two[k][1])
                    len = 2;
            if (!len && strchr("()[]{},.:*=<>+-;", c) && c)
                len = 1;
            if (!len)
                return syntax_at(p, (long)s, "Unexpected character");
            i += len;
            push_tok(p, T_PUNCT, (long)s, len);
        }
    }
    push_tok(p, T_EOF, (long)n, 0);
    return ST_OK;
}

/* ---- the parser ------------------------------------------------------------ */

static const tok *peek(P *p) { return &p->toks[p->i]; }
static const tok *peek2(P *p) { return &p->toks[p->i + (p->i + 1 < p->n)]; }
static const tok *next(P *p)
{
    const tok *t = &p->toks[p->i];
    if (t->k != T_EOF)
        p->i++;
    return t;
}

static bool tok_is(const P *p, const tok *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len != n)
        return false;
    if (t->k == T_PUNCT)
        return memcmp(p->t + t->pos, s, n) == 0;
    return t->k == T_IDENT && strncasecmp(p->t + t->pos, s, n) == 0;
}

static bool accept(P *p, const char *s)
{
    if (tok_is(p, peek(p), s)) {
        next(p);
        return true;
    }
    return false;
}

static const char *const keywords[] = {
    "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "IS", "BETWEEN", "MISSING", "NULL",
    "TRUE", "FALSE", "INSERT", "INTO", "VALUE", "VALUES", "UPDATE", "SET", "REMOVE",
    "DELETE", "RETURNING", "ORDER", "BY", "ASC", "DESC", "EXISTS", "ALL",
};

static bool is_keyword(const P *p, const tok *t)
{
    if (t->k != T_IDENT)
        return false;
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        if (tok_is(p, t, keywords[i]))
            return true;
    return false;
}

/* What to say about an unexpected token. */
static status unexpected(P *p, const tok *t)
{
    if (t->k == T_EOF)
        return syntax_at(p, t->pos, "Unexpected end of statement");
    char what[160];
    int n = (int)(t->len > 40 ? 40 : t->len);
    snprintf(what, sizeof what, "Unexpected %s: %.*s",
             is_keyword(p, t) ? "keyword" : t->k == T_PUNCT ? "token" : "term", n, p->t + t->pos);
    return syntax_at(p, t->pos, what);
}

static status expect(P *p, const char *s)
{
    if (accept(p, s))
        return ST_OK;
    return unexpected(p, peek(p));
}

/* The text of an identifier token ("" and '' unescaped) into a new string. */
static char *tok_text(const P *p, const tok *t, size_t *len)
{
    const char *s = p->t + t->pos;
    if (t->k != T_QIDENT && t->k != T_STRING) {
        *len = t->len;
        return xstrndup(s, t->len);
    }
    char q = s[0];
    char *out = xmalloc(t->len);
    size_t o = 0;
    for (size_t i = 1; i + 1 < t->len; i++) {
        out[o++] = s[i];
        if (s[i] == q)
            i++;           /* a doubled quote */
    }
    out[o] = '\0';
    *len = o;
    return out;
}

static pn *node(pn_kind k, long pos)
{
    pn *n = xcalloc(1, sizeof *n);
    n->k = k;
    n->pos = pos;
    return n;
}

static void add_kid(pn *n, pn *kid)
{
    n->kids = xrealloc(n->kids, (n->n + 1) * sizeof *n->kids);
    n->kids[n->n++] = kid;
}

static status enter(P *p, long pos)
{
    if (++p->depth > PQ_MAX_DEPTH)
        return syntax_at(p, pos, "Nesting too deep");
    return ST_OK;
}

/* identifier: bare (not a keyword) or double-quoted. */
static status ident(P *p, char **out, size_t *len, long *pos)
{
    const tok *t = peek(p);
    if (t->k == T_QIDENT || (t->k == T_IDENT && !is_keyword(p, t))) {
        next(p);
        if (pos)
            *pos = t->pos;
        *out = tok_text(p, t, len);
        if (t->k == T_QIDENT && *len == 0) {
            free(*out);
            *out = NULL;
            return syntax_at(p, t->pos, "Empty quoted identifier");
        }
        return ST_OK;
    }
    if (t->k == T_EOF)
        return syntax_at(p, t->pos, "Unexpected end of statement, expected identifier");
    return unexpected(p, t);
}

/* path: ident { . ident | [ n ] } */
static status path(P *p, pn **out)
{
    *out = NULL;
    pn *n = node(PN_PATH, peek(p)->pos);
    status st;
    for (;;) {
        pq_step s = { 0 };
        if (n->n_steps == 0 || accept(p, ".")) {
            if ((st = ident(p, &s.name, &s.len, NULL)))
                goto fail;
        } else if (tok_is(p, peek(p), "[")) {
            next(p);
            const tok *t = peek(p);
            if (t->k != T_NUMBER) {
                st = syntax_at(p, t->pos, "Expected a list index");
                goto fail;
            }
            uint64_t v = 0;
            for (size_t i = 0; i < t->len; i++) {
                char c = p->t[t->pos + (long)i];
                if (!is_digit((unsigned char)c) || v > 100000000u) {
                    st = syntax_at(p, t->pos, "Invalid list index");
                    goto fail;
                }
                v = v * 10 + (uint64_t)(c - '0');
            }
            next(p);
            if ((st = expect(p, "]")))
                goto fail;
            s.is_index = true;
            s.index = (uint32_t)v;
        } else {
            break;
        }
        if (n->n_steps >= EXPR_MAX_DEPTH) {
            free(s.name);
            st = syntax_at(p, n->pos, "Document path nesting too deep");
            goto fail;
        }
        n->steps = xrealloc(n->steps, (n->n_steps + 1) * sizeof *n->steps);
        n->steps[n->n_steps++] = s;
    }
    *out = n;
    return ST_OK;
fail:
    pn_free(n);
    return st;
}

static status value(P *p, av *out);

/* A list of values up to the closing token, into a list av of type t. */
static status value_list(P *p, const char *close, av *out)
{
    status st;
    if (accept(p, close))
        return ST_OK;
    for (;;) {
        av v = { 0 };
        if ((st = value(p, &v)))
            return st;
        av_list_push(out, &v);
        if (accept(p, close))
            return ST_OK;
        if ((st = expect(p, ",")))
            return st;
    }
}

static status param(P *p, const tok *t, av *out)
{
    if (p->used >= p->n_params)
        return diag_at(p->d, ST_VALIDATION, t->pos,
                       "Number of parameters in request and statement don't match.");
    av_copy(out, &p->params[p->used++]);
    return ST_OK;
}

/* A literal: 'str', number, TRUE/FALSE/NULL, ?, <<...>>, {...}, [...]. */
static status value(P *p, av *out)
{
    const tok *t = peek(p);
    status st = enter(p, t->pos);
    if (st)
        return st;
    out->type = AV_NONE;
    if (t->k == T_STRING) {
        next(p);
        size_t len;
        char *s = tok_text(p, t, &len);
        av_init_s(out, s, len);
        free(s);
    } else if (t->k == T_NUMBER || (tok_is(p, t, "-") && peek2(p)->k == T_NUMBER &&
                                    peek2(p)->pos == t->pos + 1)) {
        long pos = t->pos;
        if (t->k != T_NUMBER)
            next(p);
        const tok *nt = next(p);
        size_t len = (size_t)(nt->pos + (long)nt->len - pos);
        num nv;
        diag nd;
        diag_init(&nd);
        if (num_parse(p->t + pos, len, &nv, &nd) != ST_OK) {
            st = diag_at(p->d, ST_VALIDATION, pos, "%s", nd.msg);
            goto out;
        }
        av_init_n(out, &nv);
    } else if (t->k == T_PARAM) {
        next(p);
        st = param(p, t, out);
    } else if (tok_is(p, t, "TRUE") || tok_is(p, t, "FALSE")) {
        next(p);
        av_init_bool(out, tok_is(p, t, "TRUE"));
    } else if (tok_is(p, t, "NULL")) {
        next(p);
        av_init_null(out);
    } else if (tok_is(p, t, "[")) {
        next(p);
        av_init_list(out, AV_L);
        st = value_list(p, "]", out);
    } else if (tok_is(p, t, "<<")) {
        next(p);
        av l;
        av_init_list(&l, AV_L);
        if ((st = value_list(p, ">>", &l))) {
            av_free(&l);
            goto out;
        }
        av_type et = l.u.l.len ? l.u.l.v[0].type : AV_NONE;
        av_type set = et == AV_S ? AV_SS : et == AV_N ? AV_NS : et == AV_B ? AV_BS : AV_NONE;
        for (size_t i = 0; i < l.u.l.len; i++)
            if (l.u.l.v[i].type != et)
                set = AV_NONE;
        if (!l.u.l.len) {
            av_free(&l);
            st = diag_at(p->d, ST_VALIDATION, t->pos,
                         "One or more parameter values were invalid: A set may not be empty");
            goto out;
        }
        if (set == AV_NONE) {
            av_free(&l);
            st = diag_at(p->d, ST_VALIDATION, t->pos,
                         "A set must hold strings, numbers or binary values, all of one type");
            goto out;
        }
        l.type = set;
        if (!av_set_normalize(&l)) {
            av_free(&l);
            st = diag_at(p->d, ST_VALIDATION, t->pos,
                         "One or more parameter values were invalid: Input collection contains duplicates");
            goto out;
        }
        *out = l;
    } else if (tok_is(p, t, "{")) {
        next(p);
        av_init_list(out, AV_M);
        if (!accept(p, "}")) {
            for (;;) {
                const tok *k = peek(p);
                if (k->k != T_STRING && k->k != T_QIDENT) {
                    st = syntax_at(p, k->pos, "Expected a string as the attribute name");
                    goto out;
                }
                next(p);
                size_t kl;
                char *key = tok_text(p, k, &kl);
                av v = { 0 };
                if ((st = expect(p, ":")) || (st = value(p, &v))) {
                    free(key);
                    goto out;
                }
                if (av_map_get(out, key, kl)) {
                    free(key);
                    av_free(&v);
                    st = diag_at(p->d, ST_VALIDATION, k->pos,
                                 "Duplicate attribute name in a tuple literal");
                    goto out;
                }
                av_map_put(out, key, kl, &v);
                free(key);
                if (accept(p, "}"))
                    break;
                if ((st = expect(p, ",")))
                    goto out;
            }
        }
    } else {
        st = unexpected(p, t);
    }
out:
    p->depth--;
    if (st)
        av_free(out);
    return st;
}

static bool starts_value(P *p, const tok *t)
{
    return t->k == T_STRING || t->k == T_NUMBER || t->k == T_PARAM || tok_is(p, t, "TRUE") ||
           tok_is(p, t, "FALSE") || tok_is(p, t, "NULL") || tok_is(p, t, "[") ||
           tok_is(p, t, "<<") || tok_is(p, t, "{") ||
           (tok_is(p, t, "-") && peek2(p)->k == T_NUMBER);
}

static bool is_call(P *p, const char *name)
{
    return tok_is(p, peek(p), name) && tok_is(p, peek2(p), "(");
}

/* operand: path | value | size(path) */
static status operand(P *p, pn **out)
{
    *out = NULL;
    const tok *t = peek(p);
    if (t->k == T_EOF)
        return syntax_at(p, t->pos, "Unexpected end of statement");
    if (starts_value(p, t)) {
        pn *n = node(PN_VALUE, t->pos);
        status st = value(p, &n->val);
        if (st) {
            pn_free(n);
            return st;
        }
        *out = n;
        return ST_OK;
    }
    if (is_call(p, "size")) {
        next(p);
        next(p);
        pn *n = node(PN_SIZE, t->pos), *a;
        status st = path(p, &a);
        if (!st) {
            add_kid(n, a);
            st = expect(p, ")");
        }
        if (st) {
            pn_free(n);
            return st;
        }
        *out = n;
        return ST_OK;
    }
    return path(p, out);
}

static status cond(P *p, pn **out);

/* begins_with(path, v) / contains(path, v) / attribute_type(path, v) */
static status func(P *p, int op, pn **out)
{
    const tok *t = next(p);
    next(p);    /* ( */
    pn *n = node(PN_FUNC, t->pos), *a = NULL, *b = NULL;
    n->op = op;
    status st = path(p, &a);
    if (!st) {
        add_kid(n, a);
        st = expect(p, ",");
    }
    if (!st)
        st = operand(p, &b);
    if (!st) {
        add_kid(n, b);
        st = expect(p, ")");
    }
    if (st) {
        pn_free(n);
        return st;
    }
    *out = n;
    return ST_OK;
}

static int cmp_op(P *p, const tok *t)
{
    static const char *const ops[] = { "=", "<>", "<", "<=", ">", ">=" };
    for (int i = 0; i < 6; i++)
        if (tok_is(p, t, ops[i]))
            return i;
    if (tok_is(p, t, "!="))
        return CMP_NE;
    return -1;
}

/* predicate: ( cond ) | func(...) | operand [op operand | BETWEEN | IN | IS] */
static status predicate(P *p, pn **out)
{
    *out = NULL;
    const tok *t = peek(p);
    status st;
    if (tok_is(p, t, "(")) {
        next(p);
        if ((st = cond(p, out)))
            return st;
        if ((st = expect(p, ")"))) {
            pn_free(*out);
            *out = NULL;
        }
        return st;
    }
    if (is_call(p, "begins_with"))
        return func(p, F_BEGINS_WITH, out);
    if (is_call(p, "contains"))
        return func(p, F_CONTAINS, out);
    if (is_call(p, "attribute_type"))
        return func(p, F_ATTRIBUTE_TYPE, out);
    if (is_call(p, "exists"))
        return syntax_at(p, t->pos, "EXISTS can only be used as a statement in a transaction");
    pn *a;
    if ((st = operand(p, &a)))
        return st;
    const tok *o = peek(p);
    int op = cmp_op(p, o);
    pn *n = NULL, *b = NULL, *c = NULL;
    if (op >= 0) {
        next(p);
        if ((st = operand(p, &b)))
            goto fail;
        n = node(PN_CMP, o->pos);
        n->op = op;
        add_kid(n, a);
        add_kid(n, b);
    } else if (tok_is(p, o, "BETWEEN")) {
        next(p);
        if ((st = operand(p, &b)) || (st = expect(p, "AND")) || (st = operand(p, &c)))
            goto fail;
        n = node(PN_BETWEEN, o->pos);
        add_kid(n, a);
        add_kid(n, b);
        add_kid(n, c);
    } else if (tok_is(p, o, "IN") || (tok_is(p, o, "NOT") && tok_is(p, peek2(p), "IN"))) {
        bool neg = tok_is(p, o, "NOT");
        next(p);
        if (neg)
            next(p);
        const tok *open = peek(p);
        const char *close = tok_is(p, open, "[") ? "]" : ")";
        if (!tok_is(p, open, "[") && !tok_is(p, open, "(")) {
            st = unexpected(p, open);
            goto fail;
        }
        next(p);
        n = node(PN_IN, o->pos);
        n->neg = neg;
        add_kid(n, a);
        a = NULL;
        for (;;) {
            pn *e;
            if ((st = operand(p, &e)))
                goto fail;
            add_kid(n, e);
            if (accept(p, close))
                break;
            if ((st = expect(p, ",")))
                goto fail;
        }
        if (n->n - 1 > EXPR_MAX_IN) {
            st = diag_at(p->d, ST_VALIDATION, o->pos,
                         "The IN operator is provided with too many operands; number of operands: %zu",
                         n->n - 1);
            goto fail;
        }
    } else if (tok_is(p, o, "IS")) {
        next(p);
        bool neg = accept(p, "NOT");
        const tok *w = peek(p);
        if (!tok_is(p, w, "MISSING") && !tok_is(p, w, "NULL")) {
            st = unexpected(p, w);
            goto fail;
        }
        next(p);
        if (a->k != PN_PATH) {
            st = syntax_at(p, a->pos, "IS MISSING and IS NULL need an attribute path");
            goto fail;
        }
        n = node(PN_IS, o->pos);
        n->op = tok_is(p, w, "MISSING") ? IS_MISSING : IS_NULL;
        n->neg = neg;
        add_kid(n, a);
    } else {
        st = o->k == T_EOF && a->k == PN_PATH
                 ? syntax_at(p, o->pos, "Unexpected end of statement, expected a comparison")
                 : unexpected(p, o);
        goto fail;
    }
    *out = n;
    return ST_OK;
fail:
    pn_free(a);
    pn_free(b);
    pn_free(c);
    pn_free(n);
    return st;
}

static status not_cond(P *p, pn **out)
{
    *out = NULL;
    const tok *t = peek(p);
    status st = enter(p, t->pos);
    if (st)
        return st;
    if (tok_is(p, t, "NOT")) {
        next(p);
        pn *k;
        if (!(st = not_cond(p, &k))) {
            *out = node(PN_NOT, t->pos);
            add_kid(*out, k);
        }
    } else {
        st = predicate(p, out);
    }
    p->depth--;
    return st;
}

static status binary(P *p, pn **out, const char *kw, pn_kind k, status (*sub)(P *, pn **))
{
    *out = NULL;
    status st = sub(p, out);
    while (!st && tok_is(p, peek(p), kw)) {
        const tok *t = next(p);
        pn *b;
        if ((st = sub(p, &b)))
            break;
        pn *n = node(k, t->pos);
        add_kid(n, *out);
        add_kid(n, b);
        *out = n;
    }
    if (st) {
        pn_free(*out);
        *out = NULL;
    }
    return st;
}

static status and_cond(P *p, pn **out) { return binary(p, out, "AND", PN_AND, not_cond); }

static status cond(P *p, pn **out)
{
    *out = NULL;
    status st = enter(p, peek(p)->pos);
    if (!st)
        st = binary(p, out, "OR", PN_OR, and_cond);
    p->depth--;
    return st;
}

/* table [. index] */
static status source(P *p, pq_stmt *s, bool allow_index)
{
    size_t len;
    status st = ident(p, &s->table, &len, &s->table_pos);
    if (st)
        return st;
    if (allow_index && tok_is(p, peek(p), ".")) {
        next(p);
        if ((st = ident(p, &s->index, &len, NULL)))
            return st;
    }
    return ST_OK;
}

static status where(P *p, pq_stmt *s, bool required)
{
    if (!accept(p, "WHERE")) {
        if (required)
            return unexpected(p, peek(p));
        return ST_OK;
    }
    return cond(p, &s->where);
}

static status select_body(P *p, pq_stmt *s)
{
    status st;
    if (accept(p, "*")) {
        s->star = true;
    } else {
        for (;;) {
            pn *a;
            if ((st = path(p, &a)))
                return st;
            s->proj = xrealloc(s->proj, (s->n_proj + 1) * sizeof *s->proj);
            s->proj[s->n_proj++] = a;
            if (!accept(p, ","))
                break;
        }
    }
    if ((st = expect(p, "FROM")) || (st = source(p, s, true)) || (st = where(p, s, false)))
        return st;
    if (tok_is(p, peek(p), "ORDER")) {
        s->order_pos = next(p)->pos;
        if ((st = expect(p, "BY")))
            return st;
        for (;;) {
            if (s->n_order == 4)
                return syntax_at(p, peek(p)->pos, "Too many ORDER BY keys");
            pn *k;
            if ((st = path(p, &k)))
                return st;
            s->order[s->n_order] = k;
            s->order_desc[s->n_order] = accept(p, "DESC");
            if (!s->order_desc[s->n_order])
                accept(p, "ASC");
            s->n_order++;
            if (!accept(p, ","))
                break;
        }
    }
    return ST_OK;
}

/* SET value: operand [+|- operand] | list_append(a, b) | set_add(p, v) | set_delete(p, v) */
static status set_value(P *p, pn **out)
{
    const tok *t = peek(p);
    status st;
    int call = is_call(p, "list_append") ? C_LIST_APPEND : is_call(p, "set_add") ? C_SET_ADD
             : is_call(p, "set_delete") ? C_SET_DELETE : -1;
    if (call >= 0) {
        next(p);
        next(p);
        pn *n = node(PN_CALL, t->pos), *a = NULL, *b = NULL;
        n->op = call;
        if (!(st = operand(p, &a))) {
            add_kid(n, a);
            if (!(st = expect(p, ",")) && !(st = operand(p, &b))) {
                add_kid(n, b);
                st = expect(p, ")");
            }
        }
        if (st) {
            pn_free(n);
            return st;
        }
        *out = n;
        return ST_OK;
    }
    pn *a;
    if ((st = operand(p, &a)))
        return st;
    const tok *o = peek(p);
    if (tok_is(p, o, "+") || tok_is(p, o, "-")) {
        next(p);
        pn *b;
        if ((st = operand(p, &b))) {
            pn_free(a);
            return st;
        }
        pn *n = node(tok_is(p, o, "+") ? PN_PLUS : PN_MINUS, o->pos);
        add_kid(n, a);
        add_kid(n, b);
        a = n;
    }
    *out = a;
    return ST_OK;
}

static void add_act(pq_stmt *s, int kind, pn *path_n, pn *val)
{
    s->acts = xrealloc(s->acts, (s->n_acts + 1) * sizeof *s->acts);
    s->acts[s->n_acts++] = (pq_act){ kind, path_n, val };
}

static status returning(P *p, pq_stmt *s)
{
    if (!tok_is(p, peek(p), "RETURNING"))
        return ST_OK;
    s->ret_pos = next(p)->pos;
    bool all = accept(p, "ALL");
    if (!all && !accept(p, "MODIFIED"))
        return unexpected(p, peek(p));
    bool old = accept(p, "OLD");
    if (!old && !accept(p, "NEW"))
        return unexpected(p, peek(p));
    status st = expect(p, "*");
    if (st)
        return st;
    s->ret = all ? (old ? RET_ALL_OLD : RET_ALL_NEW) : (old ? RET_MODIFIED_OLD : RET_MODIFIED_NEW);
    return ST_OK;
}

static status statement(P *p, pq_stmt *s)
{
    const tok *t = peek(p);
    status st;
    if (accept(p, "SELECT")) {
        s->kind = PQ_SELECT;
        return select_body(p, s);
    }
    if (tok_is(p, t, "EXISTS")) {
        next(p);
        s->kind = PQ_EXISTS;
        if ((st = expect(p, "(")) || (st = expect(p, "SELECT")) || (st = select_body(p, s)))
            return st;
        return expect(p, ")");
    }
    if (accept(p, "INSERT")) {
        s->kind = PQ_INSERT;
        if ((st = expect(p, "INTO")) || (st = source(p, s, false)))
            return st;
        if (tok_is(p, peek(p), "VALUES"))
            return diag_at(p->d, ST_VALIDATION, peek(p)->pos,
                           "Unsupported operation: Inserting multiple items in a single statement "
                           "is not supported, use \"INSERT INTO tableName VALUE item\" instead");
        if ((st = expect(p, "VALUE")))
            return st;
        const tok *v = peek(p);
        pn *n = node(PN_VALUE, v->pos);
        s->item = n;
        if ((st = value(p, &n->val)))
            return st;
        if (n->val.type != AV_M)
            return diag_at(p->d, ST_VALIDATION, v->pos,
                           "Unsupported operation: The VALUE of an INSERT must be a tuple {...}");
        return ST_OK;
    }
    if (accept(p, "UPDATE")) {
        s->kind = PQ_UPDATE;
        if ((st = source(p, s, false)))
            return st;
        while (tok_is(p, peek(p), "SET") || tok_is(p, peek(p), "REMOVE")) {
            bool set = tok_is(p, next(p), "SET");
            for (;;) {
                pn *a, *v = NULL;
                if ((st = path(p, &a)))
                    return st;
                if (set && ((st = expect(p, "=")) || (st = set_value(p, &v)))) {
                    pn_free(a);
                    return st;
                }
                add_act(s, set ? ACT_SET : ACT_REMOVE, a, v);
                if (!accept(p, ","))
                    break;
            }
        }
        if (!s->n_acts)
            return unexpected(p, peek(p));
        if ((st = where(p, s, true)))
            return st;
        return returning(p, s);
    }
    if (accept(p, "DELETE")) {
        s->kind = PQ_DELETE;
        if ((st = expect(p, "FROM")) || (st = source(p, s, false)) || (st = where(p, s, true)) ||
            (st = returning(p, s)))
            return st;
        if (s->ret && s->ret != RET_ALL_OLD) {
            static const char *const names[] = { "", "ALL OLD", "MODIFIED OLD", "ALL NEW", "MODIFIED NEW" };
            return diag_at(p->d, ST_VALIDATION, s->ret_pos,
                           "Invalid returning clause: RETURNING %s *. Only RETURNING ALL OLD * is "
                           "allowed in DELETE statements.", names[s->ret]);
        }
        return ST_OK;
    }
    if (t->k == T_EOF)
        return syntax_at(p, t->pos, "Unexpected end of statement, expected data manipulation");
    return syntax_at(p, t->pos, "Expected data manipulation");
}

status pq_parse(const char *text, size_t len, const av *params, size_t n_params, pq_stmt **out,
                diag *d)
{
    *out = NULL;
    d->pos = -1;
    if (len > PQ_MAX_BYTES)
        return diag_set(d, ST_VALIDATION,
                        "1 validation error detected: Value at 'statement' failed to satisfy "
                        "constraint: Member must have length less than or equal to %d", PQ_MAX_BYTES);
    if (len == 0)
        return diag_set(d, ST_VALIDATION,
                        "1 validation error detected: Value at 'statement' failed to satisfy "
                        "constraint: Member must have length greater than or equal to 1");
    if (memchr(text, '\0', len))
        return diag_at(d, ST_VALIDATION, (long)((const char *)memchr(text, '\0', len) - text),
                       "%sUnexpected character at line 1", WF);
    P p = { .t = text, .len = len, .params = params, .n_params = n_params, .d = d };
    pq_stmt *s = xcalloc(1, sizeof *s);
    s->text = xstrndup(text, len);
    s->len = len;
    status st = lex(&p);
    if (!st)
        st = statement(&p, s);
    if (!st) {
        accept(&p, ";");
        if (peek(&p)->k != T_EOF)
            st = unexpected(&p, peek(&p));
    }
    if (!st && p.used != n_params)
        st = diag_set(d, ST_VALIDATION, "Number of parameters in request and statement don't match.");
    free(p.toks);
    if (st) {
        pq_free(s);
        return st;
    }
    *out = s;
    return ST_OK;
}

size_t pq_count_params(const char *text, size_t len)
{
    diag d;
    diag_init(&d);
    P p = { .t = text, .len = len, .d = &d };
    size_t n = 0;
    if (len <= PQ_MAX_BYTES && !memchr(text, '\0', len) && lex(&p) == ST_OK)
        for (size_t i = 0; i < p.n; i++)
            n += p.toks[i].k == T_PARAM;
    free(p.toks);
    return n;
}

status pq_parse_value(const char *text, size_t len, av *out, diag *d)
{
    out->type = AV_NONE;
    d->pos = -1;
    if (len > PQ_MAX_BYTES || memchr(text, '\0', len))
        return diag_set(d, ST_VALIDATION, "%sUnexpected character at line 1", WF);
    P p = { .t = text, .len = len, .d = d };
    status st = lex(&p);
    if (!st && peek(&p)->k == T_PARAM)
        st = syntax_at(&p, peek(&p)->pos, "A parameter cannot be a ?");
    if (!st)
        st = value(&p, out);
    if (!st && peek(&p)->k != T_EOF) {
        st = unexpected(&p, peek(&p));
        av_free(out);
    }
    free(p.toks);
    return st;
}

bool pq_is_read_text(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r' ||
                       text[i] == '('))
        i++;
    return len - i >= 6 && strncasecmp(text + i, "SELECT", 6) == 0 &&
           (len - i == 6 || !is_ident_char((unsigned char)text[i + 6]));
}

/* ---- printing -------------------------------------------------------------- */

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

static int prec(const pn *n)
{
    return n->k == PN_OR ? 1 : n->k == PN_AND ? 2 : n->k == PN_NOT ? 3 : 4;
}

static void print_node(const pn *n, buf *out);

static void print_kid(const pn *k, int parent, buf *out)
{
    bool wrap = prec(k) < parent;
    if (wrap)
        buf_addc(out, '(');
    print_node(k, out);
    if (wrap)
        buf_addc(out, ')');
}

static const char *const fn_names[] = { "begins_with", "contains", "attribute_type" };
static const char *const call_names[] = { "list_append", "set_add", "set_delete" };

static void print_node(const pn *n, buf *out)
{
    switch (n->k) {
    case PN_OR:
    case PN_AND:
        print_kid(n->kids[0], prec(n), out);
        buf_adds(out, n->k == PN_OR ? " OR " : " AND ");
        print_kid(n->kids[1], prec(n) + 1, out);
        break;
    case PN_NOT:
        buf_adds(out, "NOT ");
        print_kid(n->kids[0], 4, out);
        break;
    case PN_CMP:
        print_node(n->kids[0], out);
        buf_printf(out, " %s ", expr_cmp_text((expr_cmp)n->op));
        print_node(n->kids[1], out);
        break;
    case PN_BETWEEN:
        print_node(n->kids[0], out);
        buf_adds(out, " BETWEEN ");
        print_node(n->kids[1], out);
        buf_adds(out, " AND ");
        print_node(n->kids[2], out);
        break;
    case PN_IN:
        print_node(n->kids[0], out);
        buf_adds(out, n->neg ? " NOT IN [" : " IN [");
        for (size_t i = 1; i < n->n; i++) {
            if (i > 1)
                buf_adds(out, ", ");
            print_node(n->kids[i], out);
        }
        buf_addc(out, ']');
        break;
    case PN_FUNC:
    case PN_CALL:
        buf_adds(out, n->k == PN_FUNC ? fn_names[n->op] : call_names[n->op]);
        buf_addc(out, '(');
        print_node(n->kids[0], out);
        buf_adds(out, ", ");
        print_node(n->kids[1], out);
        buf_addc(out, ')');
        break;
    case PN_IS:
        print_node(n->kids[0], out);
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
        print_node(n->kids[0], out);
        buf_addc(out, ')');
        break;
    case PN_PLUS:
    case PN_MINUS:
        print_node(n->kids[0], out);
        buf_adds(out, n->k == PN_PLUS ? " + " : " - ");
        print_node(n->kids[1], out);
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
        print_node(s->proj[i], out);
    }
    buf_adds(out, " FROM ");
    print_quoted(out, s->table, strlen(s->table), '"');
    if (s->index) {
        buf_addc(out, '.');
        print_quoted(out, s->index, strlen(s->index), '"');
    }
    if (s->where) {
        buf_adds(out, " WHERE ");
        print_node(s->where, out);
    }
    for (size_t i = 0; i < s->n_order; i++) {
        buf_adds(out, i ? ", " : " ORDER BY ");
        print_node(s->order[i], out);
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
        print_node(s->item, out);
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
            print_node(a->path, out);
            if (a->val) {
                buf_adds(out, " = ");
                print_node(a->val, out);
            }
        }
        break;
    case PQ_DELETE:
        buf_adds(out, "DELETE FROM ");
        print_quoted(out, s->table, strlen(s->table), '"');
        break;
    }
    buf_adds(out, " WHERE ");
    print_node(s->where, out);
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
        buf_printf(out, " %s", fn_names[n->op]);
        break;
    case PN_CALL:
        buf_printf(out, " %s", call_names[n->op]);
        break;
    case PN_IS:
        buf_printf(out, "%s %s", n->neg ? " NOT" : "", n->op == IS_MISSING ? "MISSING" : "NULL");
        break;
    case PN_PATH:
    case PN_VALUE:
        buf_addc(out, ' ');
        print_node(n, out);
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

/* ---- planning -------------------------------------------------------------- */

/* Expression text under construction with its names and values maps. */
typedef struct sink {
    buf *text;
    av *names, *values;
    const char *npfx, *vpfx;
    unsigned *counter;
} sink;

static void sink_name(sink *k, const char *name, size_t len)
{
    /* One alias a distinct name. */
    for (size_t i = 0; i < k->names->u.m.len; i++) {
        const av *v = &k->names->u.m.v[i].val;
        if (v->u.s.len == len && memcmp(v->u.s.ptr, name, len) == 0) {
            buf_adds(k->text, k->names->u.m.v[i].name);
            return;
        }
    }
    char alias[32];
    int n = snprintf(alias, sizeof alias, "#%s%u", k->npfx, (*k->counter)++);
    av s;
    av_init_s(&s, name, len);
    av_map_put(k->names, alias, (size_t)n, &s);
    buf_adds(k->text, alias);
}

static void sink_value(sink *k, const av *v)
{
    char ph[32];
    int n = snprintf(ph, sizeof ph, ":%s%u", k->vpfx, (*k->counter)++);
    av c;
    av_copy(&c, v);
    av_map_put(k->values, ph, (size_t)n, &c);
    buf_adds(k->text, ph);
}

static void emit_steps(sink *k, const pq_step *st, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (st[i].is_index) {
            buf_printf(k->text, "[%u]", st[i].index);
        } else {
            if (i)
                buf_addc(k->text, '.');
            sink_name(k, st[i].name, st[i].len);
        }
    }
}

static void emit(sink *k, const pn *n);

/* IS NULL becomes an OR and IS NOT NULL an AND (see emit): they need
 * parentheses where those would. */
static int emit_prec(const pn *n)
{
    if (n->k == PN_IS && n->op == IS_NULL)
        return n->neg ? 2 : 1;
    return prec(n);
}

static void emit_kid(sink *k, const pn *kid, int parent)
{
    bool wrap = emit_prec(kid) < parent;
    if (wrap)
        buf_addc(k->text, '(');
    emit(k, kid);
    if (wrap)
        buf_addc(k->text, ')');
}

static void emit(sink *k, const pn *n)
{
    switch (n->k) {
    case PN_OR:
    case PN_AND:
        emit_kid(k, n->kids[0], prec(n));
        buf_adds(k->text, n->k == PN_OR ? " OR " : " AND ");
        emit_kid(k, n->kids[1], prec(n) + 1);
        break;
    case PN_NOT:
        buf_adds(k->text, "NOT ");
        emit_kid(k, n->kids[0], 4);
        break;
    case PN_CMP:
        emit(k, n->kids[0]);
        buf_printf(k->text, " %s ", expr_cmp_text((expr_cmp)n->op));
        emit(k, n->kids[1]);
        break;
    case PN_BETWEEN:
        emit(k, n->kids[0]);
        buf_adds(k->text, " BETWEEN ");
        emit(k, n->kids[1]);
        buf_adds(k->text, " AND ");
        emit(k, n->kids[2]);
        break;
    case PN_IN:
        if (n->neg)
            buf_adds(k->text, "NOT ");
        emit(k, n->kids[0]);
        buf_adds(k->text, " IN (");
        for (size_t i = 1; i < n->n; i++) {
            if (i > 1)
                buf_adds(k->text, ", ");
            emit(k, n->kids[i]);
        }
        buf_addc(k->text, ')');
        break;
    case PN_FUNC:
    case PN_CALL:
        buf_adds(k->text, n->k == PN_FUNC ? fn_names[n->op] : call_names[n->op]);
        buf_addc(k->text, '(');
        emit(k, n->kids[0]);
        buf_adds(k->text, ", ");
        emit(k, n->kids[1]);
        buf_addc(k->text, ')');
        break;
    case PN_IS: {
        /* PartiQL: MISSING IS NULL is true, so IS NULL covers both. */
        av t;
        av_init_s(&t, "NULL", 4);
        if (n->op == IS_MISSING) {
            buf_adds(k->text, n->neg ? "attribute_exists(" : "attribute_not_exists(");
            emit(k, n->kids[0]);
            buf_addc(k->text, ')');
        } else if (!n->neg) {
            buf_adds(k->text, "attribute_not_exists(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ") OR attribute_type(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ", ");
            sink_value(k, &t);
            buf_addc(k->text, ')');
        } else {
            buf_adds(k->text, "attribute_exists(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ") AND NOT attribute_type(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ", ");
            sink_value(k, &t);
            buf_addc(k->text, ')');
        }
        av_free(&t);
        break;
    }
    case PN_PATH:
        emit_steps(k, n->steps, n->n_steps);
        break;
    case PN_VALUE:
        sink_value(k, &n->val);
        break;
    case PN_SIZE:
        buf_adds(k->text, "size(");
        emit(k, n->kids[0]);
        buf_addc(k->text, ')');
        break;
    case PN_PLUS:
    case PN_MINUS:
        emit(k, n->kids[0]);
        buf_adds(k->text, n->k == PN_PLUS ? " + " : " - ");
        emit(k, n->kids[1]);
        break;
    }
}

/* Top-level AND terms of a WHERE, in text order. */
typedef struct terms {
    const pn **v;
    bool *used;
    size_t n, cap;
} terms;

static void flatten(const pn *n, terms *t)
{
    if (n->k == PN_AND) {
        flatten(n->kids[0], t);
        flatten(n->kids[1], t);
        return;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->v = xrealloc(t->v, t->cap * sizeof *t->v);
        t->used = xrealloc(t->used, t->cap * sizeof *t->used);
    }
    t->used[t->n] = false;
    t->v[t->n++] = n;
}

static void terms_done(terms *t)
{
    free(t->v);
    free(t->used);
}

static bool is_attr(const pn *n, const char *name)
{
    return n->k == PN_PATH && n->n_steps == 1 && !n->steps[0].is_index &&
           strlen(name) == n->steps[0].len && memcmp(n->steps[0].name, name, n->steps[0].len) == 0;
}

/* name = value (either side): the value node, else NULL. */
static const pn *eq_value(const pn *n, const char *name)
{
    if (n->k != PN_CMP || n->op != CMP_EQ)
        return NULL;
    if (is_attr(n->kids[0], name) && n->kids[1]->k == PN_VALUE)
        return n->kids[1];
    if (is_attr(n->kids[1], name) && n->kids[0]->k == PN_VALUE)
        return n->kids[0];
    return NULL;
}

/* pk = v OR pk = w ...: collects the values; false if another shape. */
static bool or_of_eq(const pn *n, const char *name, av *list)
{
    if (n->k == PN_OR)
        return or_of_eq(n->kids[0], name, list) && or_of_eq(n->kids[1], name, list);
    const pn *v = eq_value(n, name);
    if (!v)
        return false;
    av c;
    av_copy(&c, &v->val);
    av_list_push(list, &c);
    return true;
}

static bool partition_values(const pn *n, const char *name, av *list)
{
    if (n->k == PN_IN && !n->neg && is_attr(n->kids[0], name)) {
        for (size_t i = 1; i < n->n; i++)
            if (n->kids[i]->k != PN_VALUE)
                return false;
        for (size_t i = 1; i < n->n; i++) {
            av c;
            av_copy(&c, &n->kids[i]->val);
            av_list_push(list, &c);
        }
        return true;
    }
    if (!or_of_eq(n, name, list)) {
        for (size_t i = 0; i < list->u.l.len; i++)
            av_free(&list->u.l.v[i]);
        list->u.l.len = 0;
        return false;
    }
    return true;
}

static int cmp_av(const void *a, const void *b)
{
    return av_cmp(a, b);
}

/* A sort-key term usable as a key condition? */
static bool sort_key_term(const pn *n, const char *sk)
{
    if (n->k == PN_CMP && n->op != CMP_NE)
        return (is_attr(n->kids[0], sk) && n->kids[1]->k == PN_VALUE) ||
               (is_attr(n->kids[1], sk) && n->kids[0]->k == PN_VALUE);
    if (n->k == PN_BETWEEN)
        return is_attr(n->kids[0], sk) && n->kids[1]->k == PN_VALUE && n->kids[2]->k == PN_VALUE;
    if (n->k == PN_FUNC && n->op == F_BEGINS_WITH)
        return is_attr(n->kids[0], sk) && n->kids[1]->k == PN_VALUE;
    return false;
}

/* Emits a sort-key term with the key on the left. */
static void emit_sort_key(sink *k, const pn *n)
{
    if (n->k == PN_CMP && n->kids[0]->k == PN_VALUE) {
        static const int flip[] = { CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_LT, CMP_LE };
        emit(k, n->kids[1]);
        buf_printf(k->text, " %s ", expr_cmp_text((expr_cmp)flip[n->op]));
        emit(k, n->kids[0]);
        return;
    }
    emit(k, n);
}

/* The terms not used, ANDed, as expression text (and PartiQL text). */
static size_t rest_count(const terms *t);

/* after_and: the text goes after an AND, so an OR term needs parentheses
 * even when it is the only one. */
static void emit_rest(sink *k, const terms *t, buf *ptext, bool after_and)
{
    bool first = true, several = rest_count(t) > 1;
    for (size_t i = 0; i < t->n; i++) {
        if (t->used[i])
            continue;
        if (!first) {
            buf_adds(k->text, " AND ");
            buf_adds(ptext, " AND ");
        }
        bool wrap = emit_prec(t->v[i]) < 2 && (several || after_and);
        if (wrap)
            buf_addc(k->text, '(');
        emit(k, t->v[i]);
        if (wrap)
            buf_addc(k->text, ')');
        print_kid(t->v[i], several ? 2 : 0, ptext);
        first = false;
    }
}

static size_t rest_count(const terms *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        n += !t->used[i];
    return n;
}

static char *steal_or_null(buf *b)
{
    if (!b->len) {
        buf_done(b);
        return NULL;
    }
    return buf_steal(b);
}

static status key_error(diag *d)
{
    return diag_set(d, ST_VALIDATION,
                    "Where clause does not contain a mandatory equality on all key attributes");
}

static void plan_init(pq_plan *p)
{
    memset(p, 0, sizeof *p);
    av_init_list(&p->key_names, AV_M);
    av_init_list(&p->key_values, AV_M);
    av_init_list(&p->filter_names, AV_M);
    av_init_list(&p->filter_values, AV_M);
    av_init_list(&p->names, AV_M);
    av_init_list(&p->values, AV_M);
    p->forward = true;
}

void pq_plan_done(pq_plan *p)
{
    free(p->table);
    free(p->index);
    for (size_t i = 0; i < p->n_pks; i++)
        av_free(&p->pks[i]);
    free(p->pks);
    free(p->key_cond);
    free(p->filter);
    expr_free(p->filter_e);
    if (p->filter_cx.names || p->filter_cx.values || p->filter_cx.names_used)
        expr_ctx_done(&p->filter_cx);
    av_free(&p->key_names);
    av_free(&p->key_values);
    av_free(&p->filter_names);
    av_free(&p->filter_values);
    av_free(&p->item);
    av_free(&p->key);
    free(p->update);
    free(p->condition);
    av_free(&p->names);
    av_free(&p->values);
    free(p->key_text);
    free(p->filter_text);
    for (size_t i = 0; i < p->n_proj; i++) {
        for (size_t j = 0; j < p->proj[i].n; j++)
            free(p->proj[i].steps[j].name);
        free(p->proj[i].steps);
        free(p->proj[i].label);
    }
    free(p->proj);
    memset(p, 0, sizeof *p);
}

/* The key attribute values of a write's WHERE, into p->key; marks the
 * terms used. */
static status write_key(const terms *t, const key_attr *pk, const key_attr *sk, pq_plan *p,
                        diag *d)
{
    const key_attr *keys[2] = { pk, sk->name ? sk : NULL };
    for (int k = 0; k < 2; k++) {
        if (!keys[k])
            continue;
        const pn *v = NULL;
        for (size_t i = 0; i < t->n && !v; i++) {
            if (t->used[i])
                continue;
            if ((v = eq_value(t->v[i], keys[k]->name)))
                t->used[i] = true;
        }
        if (!v)
            return key_error(d);
        av c;
        av_copy(&c, &v->val);
        av_map_put(&p->key, keys[k]->name, strlen(keys[k]->name), &c);
    }
    return ST_OK;
}

static void proj_add(pq_plan *p, const pn *n, buf *scratch)
{
    p->proj = xrealloc(p->proj, (p->n_proj + 1) * sizeof *p->proj);
    struct pq_proj *pr = &p->proj[p->n_proj++];
    pr->n = n->n_steps;
    pr->steps = xcalloc(n->n_steps, sizeof *pr->steps);
    for (size_t i = 0; i < n->n_steps; i++) {
        pr->steps[i] = n->steps[i];
        if (n->steps[i].name)
            pr->steps[i].name = xstrndup(n->steps[i].name, n->steps[i].len);
    }
    /* PartiQL names a projected path after its last member; a path ending
     * in an index keeps its whole text, so a[0] and a[1] stay apart. */
    const pq_step *last = &n->steps[n->n_steps - 1];
    if (!last->is_index) {
        pr->label = xstrndup(last->name, last->len);
    } else {
        buf_reset(scratch);
        for (size_t i = 0; i < n->n_steps; i++) {
            if (n->steps[i].is_index) {
                buf_printf(scratch, "[%u]", n->steps[i].index);
            } else {
                if (i)
                    buf_addc(scratch, '.');
                buf_add(scratch, n->steps[i].name, n->steps[i].len);
            }
        }
        pr->label = xstrndup(scratch->data, scratch->len);
    }
}

static status plan_select(const pq_stmt *s, const table_def *def, pq_plan *p, diag *d)
{
    const key_attr *pk = &def->pk, *sk = &def->sk;
    if (s->index) {
        const index_def *ix = table_def_index(def, s->index);
        if (!ix)
            return diag_set(d, ST_VALIDATION,
                            "The table does not have the specified index: %s", s->index);
        pk = &ix->pk;
        sk = &ix->sk;
    }
    status st = ST_OK;
    terms t = { 0 };
    buf text = BUF_INIT, ptext = BUF_INIT, scratch = BUF_INIT;
    unsigned kc = 0, fc = 0;
    if (s->where)
        flatten(s->where, &t);
    for (size_t i = 0; i < s->n_proj; i++)
        proj_add(p, s->proj[i], &scratch);

    /* The partition: one term fixing it. */
    av list;
    av_init_list(&list, AV_L);
    for (size_t i = 0; i < t.n && !list.u.l.len; i++)
        if (partition_values(t.v[i], pk->name, &list))
            t.used[i] = true;
    if (list.u.l.len > PQ_MAX_IN_KEYS) {
        /* ql-operators: IN takes "at max 50 hash attribute values" */
        st = diag_set(d, ST_VALIDATION,
                      "The IN operator is provided with too many partition key values; number of "
                      "values: %zu, at most %d", list.u.l.len, PQ_MAX_IN_KEYS);
        av_free(&list);
        goto out;
    }
    if (list.u.l.len) {
        p->op = PQ_OP_QUERY;
        qsort(list.u.l.v, list.u.l.len, sizeof *list.u.l.v, cmp_av);
        size_t o = 0;
        for (size_t i = 0; i < list.u.l.len; i++) {
            if (o && av_equal(&list.u.l.v[o - 1], &list.u.l.v[i]))
                av_free(&list.u.l.v[i]);
            else if (o++ != i)
                av_move(&list.u.l.v[o - 1], &list.u.l.v[i]);
        }
        p->pks = list.u.l.v;
        p->n_pks = o;
        list.u.l.v = NULL;
        list.u.l.len = list.u.l.cap = 0;
        sink k = { &text, &p->key_names, &p->key_values, "k", "k", &kc };
        sink_name(&k, pk->name, strlen(pk->name));
        buf_adds(&text, " = :pk");
        av c;
        av_copy(&c, &p->pks[0]);
        av_map_put(&p->key_values, ":pk", 3, &c);
        /* ptext: the partition term as written */
        for (size_t i = 0; i < t.n; i++)
            if (t.used[i])
                print_node(t.v[i], &ptext);
        const pn *skterm = NULL;
        if (sk->name) {
            for (size_t i = 0; i < t.n && !skterm; i++) {
                if (!t.used[i] && sort_key_term(t.v[i], sk->name)) {
                    skterm = t.v[i];
                    t.used[i] = true;
                }
            }
        }
        if (skterm) {
            buf_adds(&text, " AND ");
            emit_sort_key(&k, skterm);
            buf_adds(&ptext, " AND ");
            print_node(skterm, &ptext);
        }
        p->full_key = p->n_pks == 1 && (!sk->name || (skterm && eq_value(skterm, sk->name)));
        if (p->n_pks == 1) {
            /* A single equality on the partition key is what full_key means. */
            bool single = false;
            for (size_t i = 0; i < t.n; i++)
                if (t.used[i] && eq_value(t.v[i], pk->name))
                    single = true;
            p->full_key = p->full_key && single;
        }
        if (p->full_key) {
            av c2;
            av_init_list(&p->key, AV_M);
            av_copy(&c2, &p->pks[0]);
            av_map_put(&p->key, pk->name, strlen(pk->name), &c2);
            if (sk->name) {
                av_copy(&c2, &eq_value(skterm, sk->name)->val);
                av_map_put(&p->key, sk->name, strlen(sk->name), &c2);
            }
        }
        p->key_cond = buf_steal(&text);
        p->key_text = buf_steal(&ptext);
    } else {
        p->op = PQ_OP_SCAN;
    }
    av_free(&list);

    if (rest_count(&t)) {
        sink k = { &text, &p->filter_names, &p->filter_values, "n", "v", &fc };
        buf_reset(&ptext);
        emit_rest(&k, &t, &ptext, false);
        p->filter = buf_steal(&text);
        p->filter_text = buf_steal(&ptext);
        if ((st = expr_ctx_init(&p->filter_cx, p->filter_names.u.m.len ? &p->filter_names : NULL,
                                p->filter_values.u.m.len ? &p->filter_values : NULL, d)) ||
            (st = expr_parse(&p->filter_cx, EXPR_FILTER, p->filter, strlen(p->filter),
                             &p->filter_e, d))) {
            d->pos = -1;   /* the position is in the generated text */
            goto out;
        }
    }

    /* ORDER BY: keys of a Query only. */
    if (s->n_order) {
        if (!s->where) {
            st = diag_set(d, ST_VALIDATION,
                          "Must have WHERE clause in the statement when using ORDER BY clause.");
            goto out;
        }
        for (size_t i = 0; i < s->n_order; i++) {
            const pn *o = s->order[i];
            bool is_pk = is_attr(o, pk->name), is_sk = sk->name && is_attr(o, sk->name);
            if (!is_pk && !is_sk) {
                st = diag_at(d, ST_VALIDATION, o->pos,
                             "Order by is supported only on the key attributes of the table or index");
                goto out;
            }
            if (p->op != PQ_OP_QUERY) {
                st = diag_at(d, ST_VALIDATION, s->order_pos,
                             "Order by is supported only when the where clause fixes the partition key");
                goto out;
            }
            if (is_sk)
                p->forward = !s->order_desc[i];
            if (is_pk && s->order_desc[i]) {
                for (size_t a = 0, b = p->n_pks ? p->n_pks - 1 : 0; a < b; a++, b--) {
                    av tmp = p->pks[a];
                    p->pks[a] = p->pks[b];
                    p->pks[b] = tmp;
                }
                av *cur = av_map_get_mut(&p->key_values, ":pk", 3);
                av_free(cur);
                av_copy(cur, &p->pks[0]);
            }
        }
    }
out:
    terms_done(&t);
    buf_done(&text);
    buf_done(&ptext);
    buf_done(&scratch);
    return st;
}

static status plan_write(const pq_stmt *s, const table_def *def, pq_plan *p, diag *d)
{
    status st = ST_OK;
    terms t = { 0 };
    buf upd = BUF_INIT, cnd = BUF_INIT, ptext = BUF_INIT;
    unsigned c = 0;
    sink k = { &cnd, &p->names, &p->values, "n", "v", &c };
    if (s->kind == PQ_INSERT) {
        p->op = PQ_OP_PUT;
        av_copy(&p->item, &s->item->val);
        if (!av_map_get(&p->item, def->pk.name, strlen(def->pk.name)) ||
            (def->sk.name && !av_map_get(&p->item, def->sk.name, strlen(def->sk.name)))) {
            st = diag_set(d, ST_VALIDATION,
                          "One or more parameter values were invalid: Missing the key %s in the item",
                          !av_map_get(&p->item, def->pk.name, strlen(def->pk.name)) ? def->pk.name
                                                                                    : def->sk.name);
            goto out;
        }
        buf_adds(&cnd, "attribute_not_exists(");
        sink_name(&k, def->pk.name, strlen(def->pk.name));
        buf_addc(&cnd, ')');
        p->condition = buf_steal(&cnd);
        goto out;
    }
    if (s->index) {
        st = diag_set(d, ST_VALIDATION, "Unsupported operation: writes name a table, not an index");
        goto out;
    }
    av_init_list(&p->key, AV_M);
    if (!s->where) {
        st = key_error(d);
        goto out;
    }
    flatten(s->where, &t);
    if ((st = write_key(&t, &def->pk, &def->sk, p, d)))
        goto out;
    /* key_text: the key as PartiQL */
    pq_print_value(&p->key, &ptext);
    p->key_text = buf_steal(&ptext);

    if (s->kind == PQ_UPDATE) {
        p->op = PQ_OP_UPDATE;
        static const char *const sections[] = { "SET", "REMOVE", "ADD", "DELETE" };
        for (int sec = 0; sec < 4; sec++) {
            bool any = false;
            for (size_t i = 0; i < s->n_acts; i++) {
                const pq_act *a = &s->acts[i];
                int as = a->kind == ACT_REMOVE ? 1
                       : a->val->k == PN_CALL && a->val->op == C_SET_ADD ? 2
                       : a->val->k == PN_CALL && a->val->op == C_SET_DELETE ? 3 : 0;
                if (as != sec)
                    continue;
                if (as >= 2) {
                    const pn *target = a->val->kids[0];
                    buf x = BUF_INIT, y = BUF_INIT;
                    print_node(target, &x);
                    print_node(a->path, &y);
                    bool same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
                    buf_done(&x);
                    buf_done(&y);
                    if (!same || a->val->kids[1]->k != PN_VALUE) {
                        st = diag_at(d, ST_VALIDATION, a->val->pos,
                                     "%s must name the attribute it sets and a set value",
                                     call_names[a->val->op]);
                        goto out;
                    }
                }
                buf_adds(&upd, any ? ", " : (upd.len ? " " : ""));
                if (!any)
                    buf_printf(&upd, "%s ", sections[sec]);
                any = true;
                sink u = { &upd, &p->names, &p->values, "n", "v", &c };
                emit(&u, a->path);
                if (as == 0) {
                    buf_adds(&upd, " = ");
                    emit(&u, a->val);
                } else if (as >= 2) {
                    buf_addc(&upd, ' ');
                    emit(&u, a->val->kids[1]);
                }
            }
        }
        p->update = buf_steal(&upd);
        buf_adds(&cnd, "attribute_exists(");
        sink_name(&k, def->pk.name, strlen(def->pk.name));
        buf_addc(&cnd, ')');
        if (rest_count(&t)) {
            buf_adds(&cnd, " AND ");
            emit_rest(&k, &t, &ptext, true);
        }
    } else {
        p->op = s->kind == PQ_DELETE ? PQ_OP_DELETE : PQ_OP_CHECK;
        if (s->kind == PQ_EXISTS) {
            buf_adds(&cnd, "attribute_exists(");
            sink_name(&k, def->pk.name, strlen(def->pk.name));
            buf_addc(&cnd, ')');
            if (rest_count(&t)) {
                buf_adds(&cnd, " AND ");
                emit_rest(&k, &t, &ptext, false);
            }
        } else if (rest_count(&t)) {
            /* A missing item deletes nothing and succeeds; a present one
             * must pass the condition. */
            buf_adds(&cnd, "attribute_not_exists(");
            sink_name(&k, def->pk.name, strlen(def->pk.name));
            buf_adds(&cnd, ") OR ");
            /* emit_rest ANDs: inside OR that needs no parentheses */
            emit_rest(&k, &t, &ptext, false);
        }
    }
    p->filter_text = steal_or_null(&ptext);
    p->condition = steal_or_null(&cnd);
    static const char *const rv[] = { NULL, "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW" };
    p->return_values = rv[s->ret];
out:
    terms_done(&t);
    buf_done(&upd);
    buf_done(&cnd);
    buf_done(&ptext);
    return st;
}

status pq_plan_of(const pq_stmt *s, const table_def *def, pq_plan *out, diag *d)
{
    plan_init(out);
    out->kind = s->kind;
    out->table = xstrdup(s->table);
    out->index = s->index ? xstrdup(s->index) : NULL;
    status st;
    if (s->kind == PQ_SELECT)
        st = plan_select(s, def, out, d);
    else
        st = plan_write(s, def, out, d);
    if (st) {
        pq_plan_done(out);
        plan_init(out);
    }
    return st;
}

bool pq_plan_match(const pq_plan *p, const av *item)
{
    return !p->filter_e || expr_eval(p->filter_e, item);
}

static const av *walk(const struct pq_proj *pr, const av *item)
{
    const av *v = item;
    for (size_t i = 0; i < pr->n && v; i++) {
        if (pr->steps[i].is_index)
            v = v->type == AV_L && pr->steps[i].index < v->u.l.len ? &v->u.l.v[pr->steps[i].index]
                                                                   : NULL;
        else
            v = v->type == AV_M ? av_map_get(v, pr->steps[i].name, pr->steps[i].len) : NULL;
    }
    return v;
}

void pq_plan_project(const pq_plan *p, const av *item, av *out)
{
    if (!p->n_proj) {
        av_copy(out, item);
        return;
    }
    av_init_list(out, AV_M);
    for (size_t i = 0; i < p->n_proj; i++) {
        const av *v = walk(&p->proj[i], item);
        if (!v)
            continue;
        av c;
        av_copy(&c, v);
        av_map_put(out, p->proj[i].label, strlen(p->proj[i].label), &c);
    }
}

static void explain_map(buf *out, const char *label, const av *m)
{
    if (!m->u.m.len)
        return;
    buf_printf(out, "  %s: ", label);
    if (m->u.m.v[0].val.type == AV_S && m->u.m.v[0].name[0] == '#')
        ddbjson_write_plain_item(out, m);
    else
        ddbjson_write_item(out, m);
    buf_addc(out, '\n');
}

void pq_plan_explain(const pq_plan *p, buf *out)
{
    buf_printf(out, "operation: %s on \"%s\"", pq_op_name(p->op), p->table);
    if (p->index)
        buf_printf(out, " index \"%s\"", p->index);
    buf_addc(out, '\n');
    switch (p->op) {
    case PQ_OP_QUERY:
        buf_printf(out, "partitions: %zu", p->n_pks);
        if (p->n_pks > 1)
            buf_adds(out, " (one Query each, in key order)");
        buf_addc(out, '\n');
        buf_printf(out, "key range: %s\n", p->key_text);
        buf_printf(out, "order: %s\n", p->forward ? "ascending" : "descending");
        break;
    case PQ_OP_SCAN:
        buf_adds(out, "key range: none (every item is read)\n");
        break;
    case PQ_OP_PUT:
        buf_adds(out, "item: ");
        pq_print_value(&p->item, out);
        buf_addc(out, '\n');
        break;
    default:
        buf_printf(out, "key: %s\n", p->key_text);
        break;
    }
    if (p->op == PQ_OP_QUERY || p->op == PQ_OP_SCAN) {
        buf_printf(out, "filter: %s\n", p->filter_text ? p->filter_text : "none");
        if (p->n_proj) {
            buf_adds(out, "projection:");
            for (size_t i = 0; i < p->n_proj; i++)
                buf_printf(out, " %s", p->proj[i].label);
            buf_addc(out, '\n');
        }
        if (p->key_cond) {
            buf_printf(out, "  KeyConditionExpression: %s\n", p->key_cond);
            explain_map(out, "ExpressionAttributeNames", &p->key_names);
            explain_map(out, "ExpressionAttributeValues", &p->key_values);
        }
        if (p->filter) {
            buf_printf(out, "  FilterExpression: %s\n", p->filter);
            explain_map(out, "ExpressionAttributeNames", &p->filter_names);
            explain_map(out, "ExpressionAttributeValues", &p->filter_values);
        }
        return;
    }
    if (p->filter_text)
        buf_printf(out, "condition: %s\n", p->filter_text);
    if (p->return_values)
        buf_printf(out, "ReturnValues: %s\n", p->return_values);
    if (p->update)
        buf_printf(out, "  UpdateExpression: %s\n", p->update);
    if (p->condition)
        buf_printf(out, "  ConditionExpression: %s\n", p->condition);
    explain_map(out, "ExpressionAttributeNames", &p->names);
    explain_map(out, "ExpressionAttributeValues", &p->values);
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
