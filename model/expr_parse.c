/*
 * expr_parse — the arena, kind names, the names/values context, the
 * lexer, the recursive-descent parser and the entry point, expr_parse.
 * The semantic checks on the finished tree are in expr_resolve.c; what
 * they share is in expr_int.h.
 *
 * The parser backtracks where the grammar needs it (a "(" may open a
 * condition group or a parenthesised operand) and remembers the furthest
 * token it could not accept: that token is the syntax error DynamoDB
 * reports ("token: ..., near: ...").
 */
#include "model/expr_int.h"

#include <assert.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/size.h"

/* ---- arena ------------------------------------------------------------ */

struct arena_block {
    arena_block *next;
    max_align_t data[];
};

#define ARENA_BLOCK 8192

static void *expr_arena_alloc(arena *a, size_t n)
{
    n = (n + sizeof(max_align_t) - 1) / sizeof(max_align_t) * sizeof(max_align_t);
    if (!a->head || a->used + n > a->cap) {
        size_t cap = n > ARENA_BLOCK ? n : ARENA_BLOCK;
        arena_block *b = xmalloc(sizeof *b + cap);
        b->next = a->head;
        a->head = b;
        a->used = 0;
        a->cap = cap;
    }
    void *p = (char *)a->head->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

static char *expr_arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = expr_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

static void expr_arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used = a->cap = 0;
}

/* ---- names ------------------------------------------------------------ */

static const char *const kind_params[] = {
    [EXPR_CONDITION] = "ConditionExpression",
    [EXPR_KEY] = "KeyConditionExpression",
    [EXPR_FILTER] = "FilterExpression",
    [EXPR_UPDATE] = "UpdateExpression",
    [EXPR_PROJECTION] = "ProjectionExpression",
};
static const char *const kind_names[] = {
    [EXPR_CONDITION] = "condition",
    [EXPR_KEY] = "key",
    [EXPR_FILTER] = "filter",
    [EXPR_UPDATE] = "update",
    [EXPR_PROJECTION] = "projection",
};

const char *expr_kind_param(expr_kind k)
{
    return (unsigned)k <= EXPR_PROJECTION ? kind_params[k] : "Expression";
}

int expr_kind_from_name(const char *s)
{
    for (int k = 0; k <= EXPR_PROJECTION; k++)
        if (strcmp(s, kind_names[k]) == 0)
            return k;
    return -1;
}

static const char *const fn_names[] = {
    [FN_ATTRIBUTE_EXISTS] = "attribute_exists",
    [FN_ATTRIBUTE_NOT_EXISTS] = "attribute_not_exists",
    [FN_ATTRIBUTE_TYPE] = "attribute_type",
    [FN_BEGINS_WITH] = "begins_with",
    [FN_CONTAINS] = "contains",
    [FN_SIZE] = "size",
    [FN_IF_NOT_EXISTS] = "if_not_exists",
    [FN_LIST_APPEND] = "list_append",
};
#define N_FN ((int)(sizeof fn_names / sizeof fn_names[0]))

const char *expr_fn_name(expr_fn f)
{
    return (unsigned)f < (unsigned)N_FN ? fn_names[f] : "?";
}

const expr_node *expr_root(const expr *e) { return e->root; }
expr_kind expr_get_kind(const expr *e) { return e->kind; }
const char *expr_text(const expr *e) { return e->text; }

void expr_free(expr *e)
{
    if (!e)
        return;
    expr_arena_free(&e->mem);
    free(e->text);
    free(e);
}

/* ---- context ---------------------------------------------------------- */

/* #name and :value keys: the marker, then [0-9A-Za-z_]+. */
static bool key_ok(const char *k, size_t n, char mark)
{
    if (n < 2 || k[0] != mark)
        return false;
    for (size_t i = 1; i < n; i++) {
        char c = k[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
              (c >= 'A' && c <= 'Z') || c == '_'))
            return false;
    }
    return true;
}

status expr_ctx_init(expr_ctx *cx, const av *names, const av *values, diag *d)
{
    memset(cx, 0, sizeof *cx);
    cx->names = names;
    cx->values = values;
    if (names) {
        assert(names->type == AV_M);
        if (names->u.m.len == 0)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must not be empty");
        for (size_t i = 0; i < names->u.m.len; i++) {
            const av_member *m = &names->u.m.v[i];
            if (!key_ok(m->name, m->name_len, '#'))
                return diag_set(d, ST_VALIDATION,
                    "ExpressionAttributeNames contains invalid key: Syntax error; key: \"%s\"", m->name);
            if (m->val.type != AV_S)
                return diag_set(d, ST_VALIDATION,
                    "ExpressionAttributeNames contains invalid value for key %s", m->name);
            /* An attribute name is 1 to 65535 bytes (API reference). */
            if (m->val.u.s.len == 0)
                return diag_set(d, ST_VALIDATION,
                    "ExpressionAttributeNames contains invalid value: Empty attribute name for key %s", m->name);
            if (m->val.u.s.len > SIZE_NAME_MAX)
                return diag_set(d, ST_VALIDATION,
                    "ExpressionAttributeNames contains invalid value: Attribute name is too large, must be"
                    " less than 65536 bytes for key %s", m->name);
        }
        cx->names_used = xcalloc(names->u.m.len, sizeof(bool));
    }
    if (values) {
        assert(values->type == AV_M);
        if (values->u.m.len == 0) {
            expr_ctx_done(cx);
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues must not be empty");
        }
        for (size_t i = 0; i < values->u.m.len; i++) {
            const av_member *m = &values->u.m.v[i];
            if (!key_ok(m->name, m->name_len, ':')) {
                expr_ctx_done(cx);
                return diag_set(d, ST_VALIDATION,
                    "ExpressionAttributeValues contains invalid key: Syntax error; key: \"%s\"", m->name);
            }
        }
        cx->values_used = xcalloc(values->u.m.len, sizeof(bool));
    }
    return ST_OK;
}

void expr_ctx_done(expr_ctx *cx)
{
    free(cx->names_used);
    free(cx->values_used);
    cx->names_used = cx->values_used = NULL;
}

static status report_unused(const av *m, const bool *used, const char *what, diag *d)
{
    buf b = BUF_INIT;
    size_t n = 0;
    for (size_t i = 0; i < m->u.m.len; i++) {
        if (used[i])
            continue;
        buf_adds(&b, n++ ? ", " : "");
        buf_add(&b, m->u.m.v[i].name, m->u.m.v[i].name_len);
    }
    status st = ST_OK;
    if (n)
        st = diag_set(d, ST_VALIDATION, "Value provided in %s unused in expressions: keys: {%s}",
                      what, b.data);
    buf_done(&b);
    return st;
}

status expr_ctx_finish(expr_ctx *cx, diag *d)
{
    status st = ST_OK;
    if (cx->names)
        st = report_unused(cx->names, cx->names_used, "ExpressionAttributeNames", d);
    if (!st && cx->values)
        st = report_unused(cx->values, cx->values_used, "ExpressionAttributeValues", d);
    return st;
}

/* ---- lexer ------------------------------------------------------------ */

typedef enum {
    T_EOF, T_IDENT, T_NAME, T_VALUE, T_NUM, T_LP, T_RP, T_LB, T_RB, T_COMMA,
    T_DOT, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_PLUS, T_MINUS, T_BAD
} tok_type;

typedef struct tok {
    tok_type t;
    uint32_t pos, len;
} tok;

static bool is_word(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
           (c >= 'A' && c <= 'Z') || c == '_';
}

/* One UTF-8 sequence length at s (1 for a stray byte). */
static size_t utf8_len(const unsigned char *s, size_t left)
{
    size_t n = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC0 ? 2 : 1;
    if (n > left)
        n = 1;
    for (size_t i = 1; i < n; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 1;
    return n;
}

static tok *lex(const char *s, size_t n, size_t *count)
{
    tok *v = xmalloc((n + 1) * sizeof *v);
    size_t k = 0, i = 0;
    while (i < n) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
            i++;
            continue;
        }
        tok t = { T_BAD, (uint32_t)i, 1 };
        /* A name starts with a letter: DynamoDB reads "_x" as the token
         * "_" (a syntax error), in SET _123 = :v as in SET a = _f(b). */
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            t.t = T_IDENT;
            while (i + t.len < n && is_word(s[i + t.len]))
                t.len++;
        } else if (c >= '0' && c <= '9') {
            t.t = T_NUM;
            while (i + t.len < n && s[i + t.len] >= '0' && s[i + t.len] <= '9')
                t.len++;
        } else if ((c == '#' || c == ':') && i + 1 < n && is_word(s[i + 1])) {
            t.t = c == '#' ? T_NAME : T_VALUE;
            while (i + t.len < n && is_word(s[i + t.len]))
                t.len++;
        } else {
            char c2 = i + 1 < n ? s[i + 1] : '\0';
            switch (c) {
            case '(': t.t = T_LP; break;
            case ')': t.t = T_RP; break;
            case '[': t.t = T_LB; break;
            case ']': t.t = T_RB; break;
            case ',': t.t = T_COMMA; break;
            case '.': t.t = T_DOT; break;
            case '=': t.t = T_EQ; break;
            case '+': t.t = T_PLUS; break;
            case '-': t.t = T_MINUS; break;
            case '<':
                if (c2 == '>') { t.t = T_NE; t.len = 2; }
                else if (c2 == '=') { t.t = T_LE; t.len = 2; }
                else t.t = T_LT;
                break;
            case '>':
                if (c2 == '=') { t.t = T_GE; t.len = 2; }
                else t.t = T_GT;
                break;
            default:
                t.len = (uint32_t)utf8_len((const unsigned char *)s + i, n - i);
                break;
            }
        }
        v[k++] = t;
        i += t.len;
    }
    v[k].t = T_EOF;
    v[k].pos = (uint32_t)n;
    v[k].len = 0;
    *count = k + 1;
    return v;
}

/* ---- parser ----------------------------------------------------------- */

typedef struct parser {
    const char *s;
    tok *t;
    size_t nt, i;
    size_t maxfail;          /* furthest token that could not be accepted */
    int depth;               /* recursion guard */
    arena *a;
    expr_kind kind;
} parser;

#define MAX_RECURSION 600

static void *fail(parser *p)
{
    if (p->i > p->maxfail || p->maxfail == (size_t)-1)
        p->maxfail = p->i;
    return NULL;
}

static const tok *cur(parser *p) { return &p->t[p->i]; }

static bool is(parser *p, tok_type t) { return p->t[p->i].t == t; }

static bool accept(parser *p, tok_type t)
{
    if (p->t[p->i].t == t) {
        p->i++;
        return true;
    }
    fail(p);
    return false;
}

static bool tok_is_kw(parser *p, size_t i, const char *kw)
{
    const tok *t = &p->t[i];
    size_t n = strlen(kw);
    return t->t == T_IDENT && t->len == n && strncasecmp(p->s + t->pos, kw, n) == 0;
}

static bool is_kw(parser *p, const char *kw) { return tok_is_kw(p, p->i, kw); }

/* Words the grammar itself uses, which cannot name an attribute there. */
static bool grammar_word(parser *p, size_t i)
{
    static const char *const cond_words[] = { "AND", "OR", "NOT", "BETWEEN", "IN", NULL };
    static const char *const upd_words[] = { "SET", "REMOVE", "ADD", "DELETE", NULL };
    const char *const *w = p->kind == EXPR_UPDATE ? upd_words :
                           p->kind == EXPR_PROJECTION ? NULL : cond_words;
    for (; w && *w; w++)
        if (tok_is_kw(p, i, *w))
            return true;
    return false;
}

static expr_node *mk(parser *p, expr_node_kind k, long pos)
{
    node_ext *x = expr_arena_alloc(p->a, sizeof *x);
    x->n.kind = k;
    x->n.pos = pos;
    x->n.end = pos;
    return &x->n;
}

static void set_kids(parser *p, expr_node *n, expr_node **kids, size_t k)
{
    n->kids = expr_arena_alloc(p->a, (k ? k : 1) * sizeof *kids);
    memcpy(n->kids, kids, k * sizeof *kids);
    n->n_kids = k;
}

static expr_node *bin(parser *p, expr_node_kind k, expr_node *l, expr_node *r)
{
    expr_node *n = mk(p, k, l->pos);
    expr_node *kids[2] = { l, r };
    set_kids(p, n, kids, 2);
    n->end = r->end;
    return n;
}

static void end_at_prev(parser *p, expr_node *n)
{
    const tok *t = &p->t[p->i - 1];
    n->end = t->pos + t->len;
}

/* Path steps after the head: .name  .#alias  [n] */
static bool path_tail(parser *p, expr_node *n)
{
    size_t cap = n->path.n + 4;
    expr_step *steps = expr_arena_alloc(p->a, cap * sizeof *steps);
    memcpy(steps, n->path.steps, n->path.n * sizeof *steps);
    size_t k = n->path.n;
    for (;;) {
        expr_step st = { 0 };
        if (is(p, T_DOT)) {
            p->i++;
            const tok *t = cur(p);
            st.pos = t->pos;
            if (t->t == T_IDENT && !grammar_word(p, p->i)) {
                st.name = expr_arena_strndup(p->a, p->s + t->pos, t->len);
                st.len = t->len;
            } else if (t->t == T_NAME) {
                st.alias = expr_arena_strndup(p->a, p->s + t->pos, t->len);
            } else {
                fail(p);
                return false;
            }
            p->i++;
        } else if (is(p, T_LB)) {
            p->i++;
            const tok *t = cur(p);
            st.pos = t->pos;
            if (t->t != T_NUM) {
                fail(p);
                return false;
            }
            st.is_index = true;
            /* Past 2^31 - 1 (or 10 digits) the resolver refuses the index
             * by its text: "List index is not within the allowable range". */
            unsigned long long ix = t->len > 10 ? ULLONG_MAX : strtoull(p->s + t->pos, NULL, 10);
            if (ix > INT32_MAX) {
                st.index = UINT32_MAX;   /* out of range; the text in name */
                st.name = expr_arena_strndup(p->a, p->s + t->pos, t->len);
                st.len = t->len;
            } else {
                st.index = (uint32_t)ix;
            }
            p->i++;
            if (!accept(p, T_RB))
                return false;
        } else {
            break;
        }
        if (k == cap) {
            expr_step *grown = expr_arena_alloc(p->a, 2 * cap * sizeof *steps);
            memcpy(grown, steps, k * sizeof *steps);
            steps = grown;
            cap *= 2;
        }
        steps[k++] = st;
    }
    /* Remember a failure at the token after the path: "a b" fails there. */
    fail(p);
    n->path.steps = steps;
    n->path.n = k;
    end_at_prev(p, n);
    return true;
}

static expr_node *p_path(parser *p)
{
    const tok *t = cur(p);
    expr_node *n = mk(p, EN_PATH, t->pos);
    expr_step *st = expr_arena_alloc(p->a, sizeof *st);
    st->pos = t->pos;
    if (t->t == T_IDENT && !grammar_word(p, p->i)) {
        st->name = expr_arena_strndup(p->a, p->s + t->pos, t->len);
        st->len = t->len;
    } else if (t->t == T_NAME) {
        st->alias = expr_arena_strndup(p->a, p->s + t->pos, t->len);
    } else {
        return fail(p);
    }
    p->i++;
    n->path.steps = st;
    n->path.n = 1;
    if (!path_tail(p, n))
        return NULL;
    return n;
}

static expr_node *p_operand(parser *p);

static expr_node *p_function(parser *p)
{
    const tok *t = cur(p);
    expr_node *n = mk(p, EN_FUNC, t->pos);
    /* The name is kept verbatim for "Invalid function name" messages;
     * op is resolved later (-1: unknown). */
    n->name = expr_arena_strndup(p->a, p->s + t->pos, t->len);
    n->op = -1;
    for (int f = 0; f < N_FN; f++)
        if (strcmp(n->name, fn_names[f]) == 0)
            n->op = f;
    p->i += 2;   /* name ( */
    expr_node *args[8];
    expr_node **v = args;
    size_t k = 0, cap = 8;
    for (;;) {
        expr_node *a = p_operand(p);
        if (!a)
            goto bad;
        if (k == cap) {
            expr_node **grown = xmalloc(2 * cap * sizeof *grown);
            memcpy(grown, v, k * sizeof *grown);
            if (v != args)
                free(v);
            v = grown;
            cap *= 2;
        }
        v[k++] = a;
        if (is(p, T_COMMA)) {
            p->i++;
            continue;
        }
        if (!accept(p, T_RP))
            goto bad;
        break;
    }
    set_kids(p, n, v, k);
    if (v != args)
        free(v);
    end_at_prev(p, n);
    return n;
bad:
    if (v != args)
        free(v);
    return NULL;
}

static expr_node *p_operand(parser *p)
{
    if (++p->depth > MAX_RECURSION) {
        p->depth--;
        return fail(p);
    }
    expr_node *n = NULL;
    const tok *t = cur(p);
    if (t->t == T_LP) {
        p->i++;
        n = p_operand(p);
        if (n && !accept(p, T_RP))
            n = NULL;
        if (n) {
            EXT(n)->parens++;
            if (n->kind == EN_PATH && (is(p, T_DOT) || is(p, T_LB))) {
                EXT(n)->grouped_path = EXT(n)->parens;
                EXT(n)->parens = 0;
                if (!path_tail(p, n))
                    n = NULL;
            }
        }
    } else if (t->t == T_IDENT && p->t[p->i + 1].t == T_LP && !grammar_word(p, p->i)) {
        n = p_function(p);
    } else if (t->t == T_VALUE) {
        n = mk(p, EN_VALUE, t->pos);
        n->name = expr_arena_strndup(p->a, p->s + t->pos, t->len);
        p->i++;
        end_at_prev(p, n);
    } else {
        n = p_path(p);
    }
    p->depth--;
    return n;
}

static int cmp_of(tok_type t)
{
    switch (t) {
    case T_EQ: return CMP_EQ;
    case T_NE: return CMP_NE;
    case T_LT: return CMP_LT;
    case T_LE: return CMP_LE;
    case T_GT: return CMP_GT;
    case T_GE: return CMP_GE;
    default: return -1;
    }
}

static expr_node *p_or(parser *p);

static expr_node *p_comparison(parser *p)
{
    expr_node *x = p_operand(p);
    if (!x)
        return NULL;
    int op = cmp_of(cur(p)->t);
    if (op >= 0) {
        p->i++;
        expr_node *y = p_operand(p);
        if (!y)
            return NULL;
        expr_node *n = bin(p, EN_CMP, x, y);
        n->op = op;
        return n;
    }
    if (is_kw(p, "BETWEEN")) {
        p->i++;
        expr_node *lo = p_operand(p);
        if (!lo)
            return NULL;
        if (!is_kw(p, "AND"))
            return fail(p);
        p->i++;
        expr_node *hi = p_operand(p);
        if (!hi)
            return NULL;
        expr_node *n = mk(p, EN_BETWEEN, x->pos);
        expr_node *kids[3] = { x, lo, hi };
        set_kids(p, n, kids, 3);
        n->end = hi->end;
        return n;
    }
    if (is_kw(p, "IN")) {
        p->i++;
        if (!accept(p, T_LP))
            return NULL;
        size_t cap = 16, k = 0;
        expr_node **v = xmalloc(cap * sizeof *v);
        v[k++] = x;
        for (;;) {
            expr_node *a = p_operand(p);
            if (!a) {
                free(v);
                return NULL;
            }
            if (k == cap)
                v = xrealloc(v, (cap *= 2) * sizeof *v);
            v[k++] = a;
            if (is(p, T_COMMA)) {
                p->i++;
                continue;
            }
            if (!accept(p, T_RP)) {
                free(v);
                return NULL;
            }
            break;
        }
        expr_node *n = mk(p, EN_IN, x->pos);
        set_kids(p, n, v, k);
        free(v);
        end_at_prev(p, n);
        return n;
    }
    if (x->kind == EN_FUNC)
        return x;         /* a function used as a condition */
    /* Expected a comparator here. */
    return fail(p);
}

static expr_node *p_primary(parser *p)
{
    if (is(p, T_LP)) {
        size_t save = p->i;
        p->i++;
        expr_node *e = p_or(p);
        if (e && accept(p, T_RP)) {
            EXT(e)->parens++;
            e->pos = p->t[save].pos;
            end_at_prev(p, e);
            return e;
        }
        p->i = save;      /* not a group: a parenthesised operand */
    }
    return p_comparison(p);
}

static expr_node *p_not(parser *p)
{
    if (is_kw(p, "NOT")) {
        long pos = cur(p)->pos;
        p->i++;
        if (++p->depth > MAX_RECURSION) {
            p->depth--;
            return fail(p);
        }
        expr_node *k = p_not(p);
        p->depth--;
        if (!k)
            return NULL;
        expr_node *n = mk(p, EN_NOT, pos);
        set_kids(p, n, &k, 1);
        n->end = k->end;
        return n;
    }
    return p_primary(p);
}

static expr_node *p_and(parser *p)
{
    expr_node *l = p_not(p);
    while (l && is_kw(p, "AND")) {
        p->i++;
        expr_node *r = p_not(p);
        if (!r)
            return NULL;
        l = bin(p, EN_AND, l, r);
    }
    return l;
}

static expr_node *p_or(parser *p)
{
    if (++p->depth > MAX_RECURSION) {
        p->depth--;
        return fail(p);
    }
    expr_node *l = p_and(p);
    while (l && is_kw(p, "OR")) {
        p->i++;
        expr_node *r = p_and(p);
        if (!r) {
            l = NULL;
            break;
        }
        l = bin(p, EN_OR, l, r);
    }
    p->depth--;
    return l;
}

/* Update values: operand, operand + operand, operand - operand, each
 * optionally in parentheses. */
static expr_node *p_setvalue(parser *p)
{
    if (is(p, T_LP)) {
        size_t save = p->i;
        p->i++;
        expr_node *v = p_setvalue(p);
        if (v && accept(p, T_RP)) {
            if (is(p, T_PLUS) || is(p, T_MINUS)) {
                /* "(a) + b": the parens belonged to the first operand. */
                p->i = save;
            } else {
                EXT(v)->parens++;
                return v;
            }
        } else {
            p->i = save;
        }
    }
    expr_node *x = p_operand(p);
    if (!x)
        return NULL;
    if (is(p, T_PLUS) || is(p, T_MINUS)) {
        expr_node_kind k = is(p, T_PLUS) ? EN_PLUS : EN_MINUS;
        p->i++;
        expr_node *y = p_operand(p);
        if (!y)
            return NULL;
        return bin(p, k, x, y);
    }
    fail(p);
    return x;
}

static expr_node *p_update(parser *p)
{
    expr_node *root = mk(p, EN_UPDATE, 0);
    size_t cap = 8, k = 0;
    expr_node **v = xmalloc(cap * sizeof *v);
    do {
        expr_node_kind kind;
        if (is_kw(p, "SET")) kind = EN_SET;
        else if (is_kw(p, "REMOVE")) kind = EN_REMOVE;
        else if (is_kw(p, "ADD")) kind = EN_ADD;
        else if (is_kw(p, "DELETE")) kind = EN_DELETE;
        else goto bad;
        /* op remembers which section an action came from (its index in
         * text order), for the "section used once" check. */
        long section_pos = cur(p)->pos;
        p->i++;
        for (;;) {
            expr_node *path = p_path(p);
            if (!path)
                goto bad;
            expr_node *act = mk(p, kind, path->pos);
            act->op = (int)section_pos;
            expr_node *kids[2] = { path, NULL };
            size_t nk = 1;
            if (kind == EN_SET) {
                if (!accept(p, T_EQ))
                    goto bad;
                if (!(kids[1] = p_setvalue(p)))
                    goto bad;
                nk = 2;
            } else if (kind == EN_ADD || kind == EN_DELETE) {
                const tok *t = cur(p);
                if (t->t != T_VALUE) {
                    fail(p);
                    goto bad;
                }
                kids[1] = mk(p, EN_VALUE, t->pos);
                kids[1]->name = expr_arena_strndup(p->a, p->s + t->pos, t->len);
                p->i++;
                end_at_prev(p, kids[1]);
                nk = 2;
            }
            set_kids(p, act, kids, nk);
            act->end = kids[nk - 1]->end;
            if (k == cap)
                v = xrealloc(v, (cap *= 2) * sizeof *v);
            v[k++] = act;
            if (is(p, T_COMMA)) {
                p->i++;
                continue;
            }
            break;
        }
    } while (!is(p, T_EOF));
    set_kids(p, root, v, k);
    free(v);
    root->end = (long)p->t[p->nt - 1].pos;
    return root;
bad:
    free(v);
    return fail(p);
}

static expr_node *p_projection(parser *p)
{
    expr_node *root = mk(p, EN_PROJECT, 0);
    size_t cap = 8, k = 0;
    expr_node **v = xmalloc(cap * sizeof *v);
    for (;;) {
        expr_node *path = p_path(p);
        if (!path) {
            free(v);
            return NULL;
        }
        if (k == cap)
            v = xrealloc(v, (cap *= 2) * sizeof *v);
        v[k++] = path;
        if (!is(p, T_COMMA))
            break;
        p->i++;
    }
    set_kids(p, root, v, k);
    free(v);
    root->end = (long)p->t[p->nt - 1].pos;
    return root;
}

/* ---- entry point ------------------------------------------------------ */

static void syntax_error(parser *p, diag *d, const char *prefix)
{
    size_t k = p->maxfail == (size_t)-1 ? p->i : p->maxfail;
    if (k >= p->nt)
        k = p->nt - 1;
    const tok *t = &p->t[k];
    size_t from = k > 0 ? p->t[k - 1].pos : t->pos;
    size_t to = t->pos + t->len;
    if (t->t != T_EOF && k + 1 < p->nt && p->t[k + 1].t != T_EOF)
        to = p->t[k + 1].pos + p->t[k + 1].len;
    char token[64];
    if (t->t == T_EOF)
        snprintf(token, sizeof token, "<EOF>");
    else
        snprintf(token, sizeof token, "%.*s", (int)(t->len < 60 ? t->len : 60), p->s + t->pos);
    diag_at(d, ST_VALIDATION, t->pos, "Invalid %s: Syntax error; token: \"%s\", near: \"%.*s\"",
            prefix, token, (int)(to - from > 200 ? 200 : to - from), p->s + from);
}

status expr_parse(expr_ctx *cx, expr_kind kind, const char *text, size_t len,
                  expr **out, diag *d)
{
    const char *prefix = expr_kind_param(kind);
    *out = NULL;
    if (len == 0)
        return diag_at(d, ST_VALIDATION, 0, "Invalid %s: The expression can not be empty;", prefix);
    if (len > EXPR_MAX_BYTES)
        return diag_at(d, ST_VALIDATION, EXPR_MAX_BYTES,
                       "Invalid %s: Expression size has exceeded the maximum allowed size; expression size: %zu",
                       prefix, len);

    expr *e = xcalloc(1, sizeof *e);
    e->kind = kind;
    e->text = xmalloc(len + 1);       /* not strndup: the text may hold NULs */
    memcpy(e->text, text, len);
    e->text[len] = '\0';
    e->len = len;

    parser p = { 0 };
    p.s = e->text;
    p.t = lex(e->text, len, &p.nt);
    p.a = &e->mem;
    p.kind = kind;
    p.maxfail = (size_t)-1;

    expr_node *root;
    if (kind == EXPR_UPDATE)
        root = p_update(&p);
    else if (kind == EXPR_PROJECTION)
        root = p_projection(&p);
    else
        root = p_or(&p);
    if (root && !is(&p, T_EOF)) {
        fail(&p);
        root = NULL;
    }
    status st = ST_OK;
    if (!root) {
        syntax_error(&p, d, prefix);
        st = ST_VALIDATION;
        goto out;
    }
    e->root = root;

    if (!expr_resolve(cx, kind, root, d))
        st = ST_VALIDATION;
out:
    free(p.t);
    if (st) {
        expr_free(e);
        return st;
    }
    *out = e;
    return ST_OK;
}
