/*
 * partiql_parse — recursive descent from tokens (partiql_lex.c) to a
 * pq_stmt: SELECT, INSERT, UPDATE, DELETE and EXISTS, their conditions,
 * paths and literals, `?` bound to the request's parameters as it goes.
 * Every error names what was wrong and the line and column.
 */
#include "model/partiql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"
#include "model/num.h"

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
        return pq_syntax_at(p, t->pos, "Unexpected end of statement");
    char what[160];
    int n = (int)(t->len > 40 ? 40 : t->len);
    snprintf(what, sizeof what, "Unexpected %s: %.*s",
             is_keyword(p, t) ? "keyword" : t->k == T_PUNCT ? "token" : "term", n, p->t + t->pos);
    return pq_syntax_at(p, t->pos, what);
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

/* The end of a node's parse: on ST_OK n is the result (*out); on an
 * error n and its kids so far are freed and the error returned. */
static status hand_over(pn *n, status st, pn **out)
{
    if (st) {
        pq_pn_free(n);
        return st;
    }
    *out = n;
    return ST_OK;
}

static status enter(P *p, long pos)
{
    if (++p->depth > PQ_MAX_DEPTH)
        return pq_syntax_at(p, pos, "Nesting too deep");
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
            return pq_syntax_at(p, t->pos, "Empty quoted identifier");
        }
        return ST_OK;
    }
    if (t->k == T_EOF)
        return pq_syntax_at(p, t->pos, "Unexpected end of statement, expected identifier");
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
                st = pq_syntax_at(p, t->pos, "Expected a list index");
                goto fail;
            }
            uint64_t v = 0;
            for (size_t i = 0; i < t->len; i++) {
                char c = p->t[t->pos + (long)i];
                if (!pq_is_digit((unsigned char)c) || v > 100000000u) {
                    st = pq_syntax_at(p, t->pos, "Invalid list index");
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
            st = pq_syntax_at(p, n->pos, "Document path nesting too deep");
            goto fail;
        }
        n->steps = xrealloc(n->steps, (n->n_steps + 1) * sizeof *n->steps);
        n->steps[n->n_steps++] = s;
    }
    *out = n;
    return ST_OK;
fail:
    pq_pn_free(n);
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
            av_done(&l);
            goto out;
        }
        av_type et = l.u.l.len ? l.u.l.v[0].type : AV_NONE;
        av_type set = et == AV_S ? AV_SS : et == AV_N ? AV_NS : et == AV_B ? AV_BS : AV_NONE;
        for (size_t i = 0; i < l.u.l.len; i++)
            if (l.u.l.v[i].type != et)
                set = AV_NONE;
        if (!l.u.l.len) {
            av_done(&l);
            st = diag_at(p->d, ST_VALIDATION, t->pos,
                         "One or more parameter values were invalid: A set may not be empty");
            goto out;
        }
        if (set == AV_NONE) {
            av_done(&l);
            st = diag_at(p->d, ST_VALIDATION, t->pos,
                         "A set must hold strings, numbers or binary values, all of one type");
            goto out;
        }
        l.type = set;
        if (!av_set_normalize(&l)) {
            av_done(&l);
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
                    st = pq_syntax_at(p, k->pos, "Expected a string as the attribute name");
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
                    av_done(&v);
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
        av_done(out);
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
        return pq_syntax_at(p, t->pos, "Unexpected end of statement");
    if (starts_value(p, t)) {
        pn *n = node(PN_VALUE, t->pos);
        status st = value(p, &n->val);
        return hand_over(n, st, out);
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
        return hand_over(n, st, out);
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
    return hand_over(n, st, out);
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
            pq_pn_free(*out);
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
        return pq_syntax_at(p, t->pos, "EXISTS can only be used as a statement in a transaction");
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
            st = pq_syntax_at(p, a->pos, "IS MISSING and IS NULL need an attribute path");
            goto fail;
        }
        n = node(PN_IS, o->pos);
        n->op = tok_is(p, w, "MISSING") ? IS_MISSING : IS_NULL;
        n->neg = neg;
        add_kid(n, a);
    } else {
        st = o->k == T_EOF && a->k == PN_PATH
                 ? pq_syntax_at(p, o->pos, "Unexpected end of statement, expected a comparison")
                 : unexpected(p, o);
        goto fail;
    }
    *out = n;
    return ST_OK;
fail:
    pq_pn_free(a);
    pq_pn_free(b);
    pq_pn_free(c);
    pq_pn_free(n);
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
        pq_pn_free(*out);
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
                return pq_syntax_at(p, peek(p)->pos, "Too many ORDER BY keys");
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
        return hand_over(n, st, out);
    }
    pn *a;
    if ((st = operand(p, &a)))
        return st;
    const tok *o = peek(p);
    if (tok_is(p, o, "+") || tok_is(p, o, "-")) {
        next(p);
        pn *b;
        if ((st = operand(p, &b))) {
            pq_pn_free(a);
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
                    pq_pn_free(a);
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
        return pq_syntax_at(p, t->pos, "Unexpected end of statement, expected data manipulation");
    return pq_syntax_at(p, t->pos, "Expected data manipulation");
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
                       "%sUnexpected character at line 1", PQ_WF);
    P p = { .t = text, .len = len, .params = params, .n_params = n_params, .d = d };
    pq_stmt *s = xcalloc(1, sizeof *s);
    s->text = xstrndup(text, len);
    s->len = len;
    status st = pq_lex(&p);
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

status pq_parse_value(const char *text, size_t len, av *out, diag *d)
{
    out->type = AV_NONE;
    d->pos = -1;
    if (len > PQ_MAX_BYTES || memchr(text, '\0', len))
        return diag_set(d, ST_VALIDATION, "%sUnexpected character at line 1", PQ_WF);
    P p = { .t = text, .len = len, .d = d };
    status st = pq_lex(&p);
    if (!st && peek(&p)->k == T_PARAM)
        st = pq_syntax_at(&p, peek(&p)->pos, "A parameter cannot be a ?");
    if (!st)
        st = value(&p, out);
    if (!st && peek(&p)->k != T_EOF) {
        st = unexpected(&p, peek(&p));
        av_done(out);
    }
    free(p.toks);
    return st;
}

