/*
 * expr_parse — lexer, recursive-descent parser and resolver.
 *
 * The parser backtracks where the grammar needs it (a "(" may open a
 * condition group or a parenthesised operand) and remembers the furthest
 * token it could not accept: that token is the syntax error DynamoDB
 * reports ("token: ..., near: ..."). Semantic checks run afterwards on the
 * finished tree, in a post-order walk that mirrors when DynamoDB's grammar
 * actions fire; each kind of error keeps its first occurrence and the one
 * reported is chosen by DynamoDB's priority order (see report_order_*).
 */
#include "model/expr_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

/* ---- arena ------------------------------------------------------------ */

struct arena_block {
    arena_block *next;
    max_align_t data[];
};

#define ARENA_BLOCK 8192

void *expr_arena_alloc(arena *a, size_t n)
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

char *expr_arena_strndup(arena *a, const char *s, size_t n)
{
    char *p = expr_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void expr_arena_free(arena *a)
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

const char *expr_kind_name(expr_kind k)
{
    return (unsigned)k <= EXPR_PROJECTION ? kind_names[k] : "?";
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
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_') {
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

/* Every node is allocated with a hidden header the resolver needs and the
 * public AST does not: how many parentheses wrapped it. */
typedef struct node_ext {
    expr_node n;            /* must be first: expr_node * casts to it */
    int parens;
    int grouped_path;       /* path began with "(" path ")" */
} node_ext;

#define EXT(np) ((node_ext *)(np))

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
            if (t->t != T_NUM || t->len > 9) {
                fail(p);
                return false;
            }
            st.is_index = true;
            st.index = (uint32_t)strtoul(p->s + t->pos, NULL, 10);
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
    if (p->n > EXPR_MAX_DEPTH + 1)
        err(r, E_LIMIT, n->pos,
            "The document path has too many nesting levels; nesting levels: %zu", p->n - 1);
    for (size_t i = 0; i < p->n; i++) {
        expr_step *st = &p->steps[i];
        if (st->is_index)
            continue;
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
        err(r, E_UNKFN, n->pos, "Invalid function name; function: %s", n->name);
        return;
    }
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
        break;
    case EN_BETWEEN:
        r->operators++;
        for (size_t i = 0; i < 3; i++)
            resolve_operand(r, n->kids[i]);
        check_misused(r, n->kids, 3);
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

    resolver r;
    memset(&r, 0, sizeof r);
    r.cx = cx;
    r.kind = kind;
    bool ok = resolve(&r, root, d, prefix);
    free(r.paths);
    if (!ok)
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
