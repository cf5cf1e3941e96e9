/*
 * builder_print — the tree printed as expression text: the names and
 * values maps it fills (#name, :value placeholders, shortest readable
 * and unique) and the printer that records each clause's span.
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

/* ---- names and values ------------------------------------------------------ */

void builder_maps_init(bmaps *m)
{
    memset(m, 0, sizeof *m);
}

void builder_maps_done(bmaps *m)
{
    for (size_t i = 0; i < m->n_names; i++) {
        free(m->alias[i]);
        free(m->name[i]);
    }
    for (size_t i = 0; i < m->n_vals; i++) {
        free(m->ph[i]);
        av_done(&m->val[i]);
    }
    free(m->alias);
    free(m->name);
    free(m->ph);
    free(m->val);
    memset(m, 0, sizeof *m);
}

static bool bare_ok(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || !((s[0] >= 'a' && s[0] <= 'z') || (s[0] >= 'A' && s[0] <= 'Z')))
        return false;
    for (size_t i = 1; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'))
            return false;
    }
    return !expr_is_reserved(s, n);
}

/* mark + the name's word characters (others as '_', runs collapsed, at
 * most 24), or mark + fallback when nothing is left. */
static void readable(buf *out, char mark, const char *name, const char *fallback)
{
    buf_reset(out);
    buf_addc(out, mark);
    bool any = false;
    for (const char *c = name; *c && out->len < 25; c++) {
        bool w = (*c >= '0' && *c <= '9') || (*c >= 'a' && *c <= 'z') ||
                 (*c >= 'A' && *c <= 'Z') || *c == '_';
        if (w) {
            buf_addc(out, *c);
            any |= *c != '_';
        } else if (out->data[out->len - 1] != '_') {
            buf_addc(out, '_');
        }
    }
    if (!any) {
        buf_reset(out);
        buf_addc(out, mark);
        buf_adds(out, fallback);
    }
}

static bool taken(char **v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(v[i], s) == 0)
            return true;
    return false;
}

/* base, then base_1, base_2, ... until free. */
static char *unique(char **v, size_t n, const buf *base)
{
    if (!taken(v, n, base->data))
        return xstrdup(base->data);
    buf c = BUF_INIT;
    for (unsigned k = 1;; k++) {
        buf_reset(&c);
        buf_printf(&c, "%s_%u", base->data, k);
        if (!taken(v, n, c.data))
            return buf_steal(&c);
    }
}

/* The shortest free alias: mark then a..z, A..Z, aa, ab, ... */
static char *shortest(char **v, size_t n, char mark)
{
    static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    buf c = BUF_INIT;
    for (size_t k = 0;; k++) {
        char tmp[16];
        int len = 0;
        for (size_t x = k + 1; x; x = (x - 1) / 52)
            tmp[len++] = letters[(x - 1) % 52];
        buf_reset(&c);
        buf_addc(&c, mark);
        while (len)
            buf_addc(&c, tmp[--len]);
        if (!taken(v, n, c.data))
            return buf_steal(&c);
    }
}

const char *builder_maps_name(bmaps *m, const char *name)
{
    if (bare_ok(name))
        return NULL;
    for (size_t i = 0; i < m->n_names; i++)
        if (strcmp(m->name[i], name) == 0)
            return m->alias[i];
    if (m->n_names == m->cap_names) {
        m->cap_names = m->cap_names ? 2 * m->cap_names : 8;
        m->alias = xrealloc(m->alias, m->cap_names * sizeof *m->alias);
        m->name = xrealloc(m->name, m->cap_names * sizeof *m->name);
    }
    if (m->compact) {
        m->alias[m->n_names] = shortest(m->alias, m->n_names, '#');
        m->name[m->n_names] = xstrdup(name);
        return m->alias[m->n_names++];
    }
    buf base = BUF_INIT;
    readable(&base, '#', name, "attr");
    m->alias[m->n_names] = unique(m->alias, m->n_names, &base);
    m->name[m->n_names] = xstrdup(name);
    buf_done(&base);
    return m->alias[m->n_names++];
}

const char *builder_maps_value(bmaps *m, const char *hint, const av *v)
{
    if (m->compact)
        for (size_t i = 0; i < m->n_vals; i++)
            if (m->val[i].type == v->type && av_equal(&m->val[i], v))
                return m->ph[i];
    if (m->n_vals == m->cap_vals) {
        m->cap_vals = m->cap_vals ? 2 * m->cap_vals : 8;
        m->ph = xrealloc(m->ph, m->cap_vals * sizeof *m->ph);
        m->val = xrealloc(m->val, m->cap_vals * sizeof *m->val);
    }
    if (m->compact) {
        m->ph[m->n_vals] = shortest(m->ph, m->n_vals, ':');
    } else {
        buf base = BUF_INIT;
        readable(&base, ':', hint ? hint : "", "v");
        m->ph[m->n_vals] = unique(m->ph, m->n_vals, &base);
        buf_done(&base);
    }
    av_copy(&m->val[m->n_vals], v);
    return m->ph[m->n_vals++];
}

/* Forgets the names and values registered after the first n_names/n_vals. */
static void maps_truncate(bmaps *m, size_t n_names, size_t n_vals)
{
    while (m->n_names > n_names) {
        m->n_names--;
        free(m->alias[m->n_names]);
        free(m->name[m->n_names]);
    }
    while (m->n_vals > n_vals) {
        m->n_vals--;
        free(m->ph[m->n_vals]);
        av_done(&m->val[m->n_vals]);
    }
}

status builder_maps_fit(builder_print_fn print, const void *what, bmaps *m, buf *out, diag *d)
{
    size_t start = out->len, n_names = m->n_names, n_vals = m->n_vals;
    status st = print(what, m, out, d);
    if (st == ST_OK && out->len - start > EXPR_MAX_BYTES && !m->compact) {
        maps_truncate(m, n_names, n_vals);
        out->len = start;
        if (out->data)
            out->data[start] = '\0';
        m->compact = true;
        st = print(what, m, out, d);
        m->compact = false;
    }
    if (st == ST_OK && out->len - start > EXPR_MAX_BYTES)
        st = diag_at(d, ST_VALIDATION, EXPR_MAX_BYTES,
                     "Expression size has exceeded the maximum allowed size; "
                     "expression size: %zu", out->len - start);
    return st;
}

void builder_maps_names_json(const bmaps *m, buf *out)
{
    if (!m->n_names)
        return;
    buf_addc(out, '{');
    for (size_t i = 0; i < m->n_names; i++) {
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, m->alias[i], strlen(m->alias[i]));
        buf_addc(out, ':');
        ddbjson_write_string(out, m->name[i], strlen(m->name[i]));
    }
    buf_addc(out, '}');
}

void builder_maps_values_json(const bmaps *m, buf *out)
{
    if (!m->n_vals)
        return;
    buf_addc(out, '{');
    for (size_t i = 0; i < m->n_vals; i++) {
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, m->ph[i], strlen(m->ph[i]));
        buf_addc(out, ':');
        ddbjson_write_value(out, &m->val[i]);
    }
    buf_addc(out, '}');
}

void builder_maps_names_av(const bmaps *m, av *out)
{
    out->type = AV_NONE;
    if (!m->n_names)
        return;
    av_init_list(out, AV_M);
    for (size_t i = 0; i < m->n_names; i++) {
        av s;
        av_init_s(&s, m->name[i], strlen(m->name[i]));
        av_map_put(out, m->alias[i], strlen(m->alias[i]), &s);
    }
}

void builder_maps_values_av(const bmaps *m, av *out)
{
    out->type = AV_NONE;
    if (!m->n_vals)
        return;
    av_init_list(out, AV_M);
    for (size_t i = 0; i < m->n_vals; i++) {
        av c;
        av_copy(&c, &m->val[i]);
        av_map_put(out, m->ph[i], strlen(m->ph[i]), &c);
    }
}

void builder_path_expr(bmaps *m, const bpath *p, buf *out)
{
    for (size_t i = 0; i < p->n; i++) {
        const bstep *s = &p->v[i];
        if (s->is_index) {
            buf_printf(out, "[%u]", s->index);
            continue;
        }
        if (i)
            buf_addc(out, '.');
        const char *alias = builder_maps_name(m, s->name);
        buf_adds(out, alias ? alias : s->name);
    }
}

/* ---- printing ------------------------------------------------------------ */

typedef struct printer {
    bmaps *m;
    buf *out;
    size_t base;        /* out->len when the print began: spans are relative */
    size_t clause_no;   /* 1-based count, for messages */
    diag *d;
} printer;

static const char *hint_of(const bnode *n)
{
    const bpath *path = NULL;
    if (n->left.kind != BO_VALUE)
        path = &n->left.path;
    for (size_t i = 0; !path && i < n->n_args; i++)
        if (n->args[i].kind != BO_VALUE)
            path = &n->args[i].path;
    if (!path)
        return NULL;
    for (size_t i = path->n; i-- > 0;)
        if (!path->v[i].is_index)
            return path->v[i].name;
    return NULL;
}

static status incomplete(printer *p, const char *what)
{
    diag_at(p->d, ST_VALIDATION, (long)(p->out->len - p->base),
            "Clause %zu: %s", p->clause_no, what);
    snprintf(p->d->path, sizeof p->d->path, "clause %zu", p->clause_no);
    return ST_VALIDATION;
}

static status print_opnd(printer *p, const bopnd *o, const char *hint)
{
    switch (o->kind) {
    case BO_PATH:
    case BO_SIZE:
        if (!o->path.n)
            return incomplete(p, "the path is empty");
        if (o->kind == BO_SIZE)
            buf_adds(p->out, "size(");
        builder_path_expr(p->m, &o->path, p->out);
        if (o->kind == BO_SIZE)
            buf_addc(p->out, ')');
        return ST_OK;
    case BO_VALUE:
        if (o->value.type == AV_NONE)
            return incomplete(p, "a value is not set");
        buf_adds(p->out, builder_maps_value(p->m, hint, &o->value));
        return ST_OK;
    case BO_IF_NOT_EXISTS:
    case BO_LIST_APPEND:
        break;
    }
    return incomplete(p, "if_not_exists and list_append are for updates only");
}

static int prec_of(const bnode *n)
{
    if (n->neg)
        return 3;
    if (n->group && n->n_kids > 1)
        return n->is_or ? 1 : 2;
    if (n->group && n->n_kids == 1)
        return prec_of(n->kids[0]);
    return 4;
}

static status print_node(printer *p, bnode *n, int need);

static status print_inner(printer *p, bnode *n)
{
    status st = ST_OK;
    if (n->group) {
        if (n->n_kids == 0)
            return incomplete(p, n->parent ? "an empty group" : "no clauses");
        int me = n->n_kids > 1 ? (n->is_or ? 1 : 2) : 0;
        for (size_t i = 0; i < n->n_kids && !st; i++) {
            if (i)
                buf_adds(p->out, n->is_or ? " OR " : " AND ");
            /* A group of the same operator keeps its parentheses, so the
             * text parses back into the same tree. */
            st = print_node(p, n->kids[i], me ? me + 1 : 0);
        }
        return st;
    }
    p->clause_no++;
    n->cpos = (long)(p->out->len - p->base);
    const char *hint = hint_of(n);
    if (builder_is_function(n->op)) {
        buf_adds(p->out, builder_op_name(n->op));
        buf_addc(p->out, '(');
        st = print_opnd(p, &n->left, hint);
        for (size_t i = 0; i < n->n_args && !st; i++) {
            buf_adds(p->out, ", ");
            st = print_opnd(p, &n->args[i], hint);
        }
        buf_addc(p->out, ')');
    } else if (n->op == BOP_BETWEEN) {
        assert(n->n_args == 2);
        st = print_opnd(p, &n->left, hint);
        if (!st) {
            buf_adds(p->out, " BETWEEN ");
            st = print_opnd(p, &n->args[0], hint);
        }
        if (!st) {
            buf_adds(p->out, " AND ");
            st = print_opnd(p, &n->args[1], hint);
        }
    } else if (n->op == BOP_IN) {
        st = print_opnd(p, &n->left, hint);
        buf_adds(p->out, " IN (");
        for (size_t i = 0; i < n->n_args && !st; i++) {
            if (i)
                buf_adds(p->out, ", ");
            st = print_opnd(p, &n->args[i], hint);
        }
        buf_addc(p->out, ')');
        if (!st && n->n_args == 0)
            st = incomplete(p, "IN needs at least one value");
    } else {
        assert(n->n_args == 1);
        st = print_opnd(p, &n->left, hint);
        if (!st) {
            buf_printf(p->out, " %s ", builder_op_name(n->op));
            st = print_opnd(p, &n->args[0], hint);
        }
    }
    n->cend = (long)(p->out->len - p->base);
    return st;
}

static status print_node(printer *p, bnode *n, int need)
{
    n->pos = (long)(p->out->len - p->base);
    bool paren = prec_of(n) < need;
    if (paren)
        buf_addc(p->out, '(');
    status st;
    if (n->neg) {
        buf_adds(p->out, "NOT ");
        /* NOT binds tighter than AND/OR: anything but a clause needs
         * parentheses under it. */
        bool inner_paren = !(!n->group || (n->n_kids == 1 && prec_of(n->kids[0]) >= 3));
        if (inner_paren)
            buf_addc(p->out, '(');
        st = print_inner(p, n);
        if (inner_paren)
            buf_addc(p->out, ')');
    } else {
        st = print_inner(p, n);
    }
    if (paren)
        buf_addc(p->out, ')');
    n->end = (long)(p->out->len - p->base);
    if (n->group) {
        n->cpos = n->pos;
        n->cend = n->end;
    }
    return st;
}

static void reset_spans(bnode *n)
{
    n->pos = n->end = n->cpos = n->cend = -1;
    for (size_t i = 0; i < n->n_kids; i++)
        reset_spans(n->kids[i]);
}

static status print_tree(const void *what, bmaps *m, buf *out, diag *d)
{
    builder *b = (builder *)what;   /* printing records each node's span */
    reset_spans(b->root);
    printer p = { m, out, out->len, 0, d };
    return print_node(&p, b->root, 0);
}

status builder_print(builder *b, bmaps *m, buf *out, diag *d)
{
    reset_spans(b->root);
    if (builder_empty(b)) {
        if (b->root->neg)
            return diag_at(d, ST_VALIDATION, 0, "NOT of an empty condition");
        return ST_OK;
    }
    return builder_maps_fit(print_tree, b, m, out, d);
}

static const bnode *node_at(const bnode *n, long pos)
{
    if (n->pos < 0 || pos < n->pos || pos > n->end)
        return NULL;
    for (size_t i = 0; i < n->n_kids; i++) {
        const bnode *k = node_at(n->kids[i], pos);
        if (k)
            return k;
    }
    return n;
}

const bnode *builder_node_at(const builder *b, long pos)
{
    return node_at(b->root, pos);
}
