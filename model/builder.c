/*
 * builder — the tree, paths, typed values, names/values maps, printing,
 * text -> tree and the verdict. Update rows and whole requests are in
 * builder_req.c.
 */
#include "model/builder.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/base64.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/num.h"
#include "model/schema.h"

/* ---- paths --------------------------------------------------------------- */

void builder_path_free(bpath *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].name);
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

void builder_path_copy(bpath *dst, const bpath *src)
{
    dst->n = src->n;
    dst->v = src->n ? xcalloc(src->n, sizeof *dst->v) : NULL;
    for (size_t i = 0; i < src->n; i++) {
        dst->v[i] = src->v[i];
        if (src->v[i].name)
            dst->v[i].name = xstrdup(src->v[i].name);
    }
}

void builder_path_push(bpath *p, const char *name, size_t len)
{
    p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
    p->v[p->n++] = (bstep){ .is_index = false, .name = xstrndup(name, len) };
}

void builder_path_push_index(bpath *p, uint32_t index)
{
    p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
    p->v[p->n++] = (bstep){ .is_index = true, .index = index };
}

status builder_path_parse(const char *text, size_t len, bpath *out, diag *d)
{
    memset(out, 0, sizeof *out);
    buf name = BUF_INIT;
    size_t i = 0;
    bool want_name = true;     /* at the start or after '.' */
    status st = ST_OK;
    if (len == 0) {
        st = diag_at(d, ST_VALIDATION, 0, "The path is empty");
        goto out;
    }
    while (i < len) {
        if (want_name) {
            buf_reset(&name);
            size_t start = i;
            while (i < len && text[i] != '.' && text[i] != '[') {
                if (text[i] == ']') {
                    st = diag_at(d, ST_VALIDATION, (long)i, "Unexpected ']' in the path");
                    goto out;
                }
                if (text[i] == '\\' && i + 1 < len)
                    i++;
                buf_addc(&name, text[i++]);
            }
            if (i == start) {
                st = diag_at(d, ST_VALIDATION, (long)i, "An attribute name is missing in the path");
                goto out;
            }
            builder_path_push(out, name.data, name.len);
            want_name = false;
            continue;
        }
        if (text[i] == '.') {
            i++;
            want_name = true;
            if (i == len) {
                st = diag_at(d, ST_VALIDATION, (long)i, "An attribute name is missing in the path");
                goto out;
            }
            continue;
        }
        assert(text[i] == '[');
        size_t j = i + 1;
        uint64_t idx = 0;
        while (j < len && text[j] >= '0' && text[j] <= '9' && idx <= UINT32_MAX)
            idx = idx * 10 + (uint64_t)(text[j++] - '0');
        if (j == i + 1 || j >= len || text[j] != ']' || idx > UINT32_MAX) {
            st = diag_at(d, ST_VALIDATION, (long)i, "A list index must be [digits]");
            goto out;
        }
        builder_path_push_index(out, (uint32_t)idx);
        i = j + 1;
        if (i < len && text[i] != '.' && text[i] != '[') {
            st = diag_at(d, ST_VALIDATION, (long)i, "Expected '.' or '[' after a list index");
            goto out;
        }
    }
out:
    buf_done(&name);
    if (st)
        builder_path_free(out);
    return st;
}

void builder_path_text(const bpath *p, buf *out)
{
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].is_index) {
            buf_printf(out, "[%u]", p->v[i].index);
            continue;
        }
        if (i)
            buf_addc(out, '.');
        for (const char *c = p->v[i].name; *c; c++) {
            if (*c == '.' || *c == '[' || *c == ']' || *c == '\\')
                buf_addc(out, '\\');
            buf_addc(out, *c);
        }
    }
}

/* ---- paths to pick from --------------------------------------------------- */

typedef struct picks {
    char **v;
    size_t n, cap, max;
} picks;

static void pick_add(picks *k, const bpath *p)
{
    if (k->n >= k->max)
        return;
    buf t = BUF_INIT;
    builder_path_text(p, &t);
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->v[i], t.data) == 0) {
            buf_done(&t);
            return;
        }
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 16;
        k->v = xrealloc(k->v, k->cap * sizeof *k->v);
    }
    k->v[k->n++] = buf_steal(&t);
    buf_done(&t);
}

static void pick_name(picks *k, const char *name)
{
    if (!name || !*name)
        return;
    bpath p = { 0 };
    builder_path_push(&p, name, strlen(name));
    pick_add(k, &p);
    builder_path_free(&p);
}

/* p is the path of v; adds it and, for maps and lists, what they hold.
 * DynamoDB nests at most 32 levels, the bound of the recursion. */
static void pick_value(picks *k, bpath *p, const av *v, int depth)
{
    pick_add(k, p);
    if (depth >= 32 || k->n >= k->max)
        return;
    if (v->type == AV_M) {
        for (size_t i = 0; i < v->u.m.len && k->n < k->max; i++) {
            builder_path_push(p, v->u.m.v[i].name, v->u.m.v[i].name_len);
            pick_value(k, p, &v->u.m.v[i].val, depth + 1);
            free(p->v[--p->n].name);
        }
    } else if (v->type == AV_L) {
        for (size_t i = 0; i < v->u.l.len && k->n < k->max; i++) {
            builder_path_push_index(p, (uint32_t)i);
            pick_value(k, p, &v->u.l.v[i], depth + 1);
            p->n--;
        }
    }
}

void builder_pick_paths(const table_def *def, const av *item, size_t max, char ***out, size_t *n)
{
    picks k = { NULL, 0, 0, max };
    if (def) {
        pick_name(&k, def->pk.name);
        pick_name(&k, def->sk.name);
        for (size_t i = 0; i < def->n_idx; i++) {
            pick_name(&k, def->idx[i].pk.name);
            pick_name(&k, def->idx[i].sk.name);
        }
    }
    if (item && item->type == AV_M) {
        for (size_t i = 0; i < item->u.m.len && k.n < max; i++) {
            bpath p = { 0 };
            builder_path_push(&p, item->u.m.v[i].name, item->u.m.v[i].name_len);
            pick_value(&k, &p, &item->u.m.v[i].val, 1);
            builder_path_free(&p);
        }
    }
    *out = k.v;
    *n = k.n;
}

void builder_paths_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* ---- operands and values ----------------------------------------------- */

void builder_opnd_free(bopnd *o)
{
    builder_path_free(&o->path);
    av_free(&o->value);
    for (size_t i = 0; i < o->n_sub; i++)
        builder_opnd_free(&o->sub[i]);
    free(o->sub);
    o->sub = NULL;
    o->n_sub = 0;
}

void builder_opnd_copy(bopnd *dst, const bopnd *src)
{
    dst->kind = src->kind;
    builder_path_copy(&dst->path, &src->path);
    if (src->value.type != AV_NONE)
        av_copy(&dst->value, &src->value);
    else
        dst->value.type = AV_NONE;
    dst->n_sub = src->n_sub;
    dst->sub = src->n_sub ? xcalloc(src->n_sub, sizeof *dst->sub) : NULL;
    for (size_t i = 0; i < src->n_sub; i++)
        builder_opnd_copy(&dst->sub[i], &src->sub[i]);
}

void builder_opnd_set_kind(bopnd *o, bopnd_kind k)
{
    bpath keep = o->path;
    bool has_path = k == BO_PATH || k == BO_SIZE || k == BO_IF_NOT_EXISTS;
    o->path = (bpath){ 0 };
    builder_opnd_free(o);
    if (has_path)
        o->path = keep;
    else
        builder_path_free(&keep);
    o->kind = k;
    o->value.type = AV_NONE;
    if (k == BO_LIST_APPEND) {
        o->n_sub = 2;
        o->sub = xcalloc(2, sizeof *o->sub);
        o->sub[0].kind = o->sub[1].kind = BO_VALUE;
    }
}

static status parse_json_value(av_type t, const char *text, size_t len, av *out, diag *d)
{
    /* DynamoDB JSON first ({"L": [...]}), then plain JSON. */
    buf w = BUF_INIT;
    diag dd;
    diag_init(&dd);
    buf_printf(&w, "{\"%s\":", av_type_name(t));
    buf_add(&w, text, len);
    buf_addc(&w, '}');
    status st = ddbjson_parse_value(w.data, w.len, out, &dd);
    if (st) {
        buf_reset(&w);
        buf_adds(&w, "{\"v\":");
        buf_add(&w, text, len);
        buf_addc(&w, '}');
        av item;
        diag_init(&dd);
        st = ddbjson_parse_plain_item(w.data, w.len, &item, &dd);
        if (!st) {
            const av *v = av_map_get(&item, "v", 1);
            if (v && v->type == t) {
                av_copy(out, v);
            } else {
                st = ST_VALIDATION;
                diag_set(&dd, ST_VALIDATION, "not a JSON %s", t == AV_L ? "array" : "object");
            }
            av_free(&item);
        }
    }
    if (st) {
        out->type = AV_NONE;
        diag_set(d, ST_VALIDATION, "%s expects a JSON %s (DynamoDB JSON or plain): %s",
                 av_type_name(t), t == AV_L ? "array" : "object", dd.msg);
    }
    buf_done(&w);
    return st;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static status scalar(av_type t, const char *p, size_t n, av *out, diag *d)
{
    switch (t) {
    case AV_S:
        av_init_s(out, p, n);
        return ST_OK;
    case AV_N: {
        num x;
        diag dd;
        diag_init(&dd);
        if (num_parse(p, n, &x, &dd))
            return diag_set(d, ST_VALIDATION, "N: %s", dd.msg);
        av_init_n(out, &x);
        return ST_OK;
    }
    case AV_B: {
        buf b = BUF_INIT;
        base64_result r = base64_decode(&b, p, n);
        if (r != BASE64_OK) {
            buf_done(&b);
            return diag_set(d, ST_VALIDATION, "B: not valid base64 (%s)",
                            r == BASE64_BAD_LENGTH ? "length is not a multiple of 4"
                                                   : "a character outside the alphabet or misplaced padding");
        }
        av_init_b(out, b.data ? b.data : "", b.len);
        buf_done(&b);
        return ST_OK;
    }
    default:
        break;
    }
    assert(0);
    return ST_INTERNAL;
}

static status parse_set(av_type t, const char *text, size_t len, av *out, diag *d)
{
    av_type et = av_set_elem(t);
    size_t i = 0;
    while (i < len && is_space(text[i]))
        i++;
    status st = ST_OK;
    av_init_list(out, t);
    if (i < len && text[i] == '[') {
        /* A JSON array of strings: reuse the codec with {"SS": [...]}
         * (it checks numbers and base64 for NS and BS). */
        av tmp;
        diag dd;
        diag_init(&dd);
        buf w = BUF_INIT;
        buf_printf(&w, "{\"%s\":", av_type_name(t));
        buf_add(&w, text, len);
        buf_addc(&w, '}');
        st = ddbjson_parse_value(w.data, w.len, &tmp, &dd);
        buf_done(&w);
        if (st) {
            av_free(out);
            return diag_set(d, ST_VALIDATION, "%s: %s", av_type_name(t), dd.msg);
        }
        av_free(out);
        av_move(out, &tmp);
        return ST_OK;
    }
    /* Comma-separated elements, spaces around them trimmed. */
    size_t start = 0;
    for (size_t k = 0; k <= len; k++) {
        if (k < len && text[k] != ',')
            continue;
        size_t a = start, b = k;
        while (a < b && is_space(text[a]))
            a++;
        while (b > a && is_space(text[b - 1]))
            b--;
        start = k + 1;
        if (a == b && et != AV_S) {
            if (k == len && out->u.l.len == 0)
                break;
            av_free(out);
            return diag_set(d, ST_VALIDATION, "%s: an empty element", av_type_name(t));
        }
        av e;
        st = scalar(et, text + a, b - a, &e, d);
        if (st) {
            av_free(out);
            return st;
        }
        av_list_push(out, &e);
    }
    if (out->u.l.len == 0) {
        av_free(out);
        return diag_set(d, ST_VALIDATION, "%s: a set can not be empty", av_type_name(t));
    }
    if (!av_set_normalize(out)) {
        av_free(out);
        return diag_set(d, ST_VALIDATION, "%s: Input collection contains duplicates", av_type_name(t));
    }
    return ST_OK;
}

status builder_value_parse(av_type t, const char *text, size_t len, av *out, diag *d)
{
    out->type = AV_NONE;
    status st = ST_OK;
    switch (t) {
    case AV_S:
    case AV_N:
    case AV_B:
        st = scalar(t, text, len, out, d);
        break;
    case AV_BOOL:
        if (len == 4 && strncasecmp(text, "true", 4) == 0)
            av_init_bool(out, true);
        else if (len == 5 && strncasecmp(text, "false", 5) == 0)
            av_init_bool(out, false);
        else
            st = diag_set(d, ST_VALIDATION, "BOOL: type true or false");
        break;
    case AV_NULL:
        if (len == 0 || (len == 4 && (strncasecmp(text, "null", 4) == 0 ||
                                      strncasecmp(text, "true", 4) == 0)))
            av_init_null(out);
        else
            st = diag_set(d, ST_VALIDATION, "NULL: leave empty or type null");
        break;
    case AV_L:
    case AV_M:
        st = parse_json_value(t, text, len, out, d);
        break;
    case AV_SS:
    case AV_NS:
    case AV_BS:
        st = parse_set(t, text, len, out, d);
        break;
    default:
        st = diag_set(d, ST_VALIDATION, "Unknown type");
        break;
    }
    if (st)
        out->type = AV_NONE;
    return st;
}

void builder_value_text(const av *v, buf *out)
{
    if (av_scalar_text(v, out))
        return;
    switch (v->type) {
    case AV_SS: case AV_NS: case AV_BS:
        buf_addc(out, '[');
        for (size_t i = 0; i < v->u.l.len; i++) {
            if (i)
                buf_addc(out, ',');
            buf b = BUF_INIT;
            builder_value_text(&v->u.l.v[i], &b);
            ddbjson_write_string(out, b.data ? b.data : "", b.len);
            buf_done(&b);
        }
        buf_addc(out, ']');
        break;
    case AV_L:
    case AV_M: {
        /* The inside of {"L": ...}: write the value and strip the tag. */
        buf b = BUF_INIT;
        ddbjson_write_value(&b, v);
        size_t skip = strlen(v->type == AV_L ? "{\"L\":" : "{\"M\":");
        assert(b.len > skip);
        buf_add(out, b.data + skip, b.len - skip - 1);
        buf_done(&b);
        break;
    }
    default:
        break;
    }
}

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

static bool is_function(bop op)
{
    return op >= BOP_EXISTS;
}

/* ---- the tree ------------------------------------------------------------ */

static bnode *node_new(bool group)
{
    bnode *n = xcalloc(1, sizeof *n);
    n->group = group;
    n->pos = n->end = n->cpos = n->cend = -1;
    return n;
}

static void node_free(bnode *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n_kids; i++)
        node_free(n->kids[i]);
    free(n->kids);
    builder_opnd_free(&n->left);
    for (size_t i = 0; i < n->n_args; i++)
        builder_opnd_free(&n->args[i]);
    free(n->args);
    free(n);
}

static bnode *node_copy(const bnode *s, bnode *parent)
{
    bnode *n = node_new(s->group);
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
    b->root = node_new(true);
    return b;
}

void builder_free(builder *b)
{
    if (!b)
        return;
    node_free(b->root);
    free(b);
}

builder *builder_copy(const builder *b)
{
    builder *c = xcalloc(1, sizeof *c);
    c->root = node_copy(b->root, NULL);
    return c;
}

void builder_clear(builder *b)
{
    node_free(b->root);
    b->root = node_new(true);
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
    bnode *n = node_new(false);
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
    bnode *n = node_new(true);
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
    node_free(n);
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
        av_free(&n->left.value);
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
        av_free(&m->val[i]);
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
        av_free(&m->val[m->n_vals]);
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

/* ---- printing ------------------------------------------------------------ */

typedef struct printer {
    bmaps *m;
    buf *out;
    size_t base;        /* out->len when the print began: spans are relative */
    size_t clause_no;   /* 1-based count, for messages */
    diag *d;
} printer;

static void print_path(printer *p, const bpath *path)
{
    for (size_t i = 0; i < path->n; i++) {
        const bstep *s = &path->v[i];
        if (s->is_index) {
            buf_printf(p->out, "[%u]", s->index);
            continue;
        }
        if (i)
            buf_addc(p->out, '.');
        const char *alias = builder_maps_name(p->m, s->name);
        buf_adds(p->out, alias ? alias : s->name);
    }
}

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
        print_path(p, &o->path);
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
    if (is_function(n->op)) {
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
        bnode *g = node_new(true);
        g->is_or = n->kind == EN_OR;
        bnode *l = NULL, *r = NULL;
        st = conv(n->kids[0], &l, d);
        if (!st)
            st = conv(n->kids[1], &r, d);
        if (st) {
            node_free(l);
            node_free(r);
            node_free(g);
            return st;
        }
        /* A left chain of the same operator is one group: `a AND b AND c`
         * parses as ((a AND b) AND c). */
        if (l->group && !l->neg && l->is_or == g->is_or && l->n_kids > 1) {
            for (size_t i = 0; i < l->n_kids; i++)
                builder_insert(g, g->n_kids, l->kids[i]);
            l->n_kids = 0;
            node_free(l);
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
        bnode *c = node_new(false);
        if (n->kind == EN_CMP)
            c->op = (bop)n->op;
        else if (n->kind == EN_BETWEEN)
            c->op = BOP_BETWEEN;
        else if (n->kind == EN_IN)
            c->op = BOP_IN;
        else
            c->op = fn_op(n->op);
        if (c->op == BOP__COUNT || n->n_kids == 0) {
            node_free(c);
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
            node_free(c);
            return st;
        }
        *out = c;
        return ST_OK;
    }
    default:
        return unrepresentable(n, "this part of the expression", d);
    }
}

status builder_from_expr(const expr *e, builder **out, diag *d)
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
        b->root = node_new(true);
        builder_insert(b->root, 0, n);
    }
    *out = b;
    return ST_OK;
}

/* Parses one JSON map argument; empty text means not given. */
static status parse_map(const char *json, bool names, av *out, diag *d)
{
    out->type = AV_NONE;
    if (!json)
        return ST_OK;
    size_t n = strlen(json);
    size_t i = 0;
    while (i < n && is_space(json[i]))
        i++;
    if (i == n)
        return ST_OK;
    status st = names ? ddbjson_parse_plain_item(json, n, out, d)
                      : ddbjson_parse_item(json, n, out, d);
    if (st) {
        snprintf(d->file, sizeof d->file, "%s",
                 names ? "ExpressionAttributeNames" : "ExpressionAttributeValues");
        out->type = AV_NONE;
    }
    return st;
}

status builder_parse(expr_kind kind, const char *text, const char *names_json,
                     const char *values_json, builder **out, diag *d)
{
    av names, values;
    expr_ctx cx;
    expr *e = NULL;
    bool cx_ok = false;
    *out = NULL;
    values.type = AV_NONE;
    status st = parse_map(names_json, true, &names, d);
    if (!st)
        st = parse_map(values_json, false, &values, d);
    if (!st) {
        st = expr_ctx_init(&cx, names.type ? &names : NULL, values.type ? &values : NULL, d);
        cx_ok = !st;
    }
    if (!st)
        st = expr_parse(&cx, kind, text, strlen(text), &e, d);
    if (!st)
        st = expr_ctx_finish(&cx, d);
    if (!st)
        st = builder_from_expr(e, out, d);
    expr_free(e);
    if (cx_ok)
        expr_ctx_done(&cx);
    av_free(&names);
    av_free(&values);
    return st;
}

/* ---- verdict ----------------------------------------------------------------- */

typedef struct vstate {
    bverdict *out;
    size_t cap;
    expr_ctx *cx;
    const char *text;
    const av *item;
    diag *d;
} vstate;

static size_t push_entry(vstate *s, const bnode *n, int depth)
{
    if (s->out->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->out->v = xrealloc(s->out->v, s->cap * sizeof *s->out->v);
    }
    bverdict_entry *e = &s->out->v[s->out->n];
    memset(e, 0, sizeof *e);
    e->node = n;
    e->depth = depth;
    if (n->pos >= 0)
        e->text = xstrndup(s->text + n->pos, (size_t)(n->end - n->pos));
    else
        e->text = xstrdup("");
    return s->out->n++;
}

static status judge(vstate *s, const bnode *n, int depth, bool *verdict)
{
    size_t me = push_entry(s, n, depth);
    buf why = BUF_INIT;
    status st = ST_OK;
    bool v = false;
    if (n->group) {
        size_t yes = 0;
        for (size_t i = 0; i < n->n_kids && !st; i++) {
            bool k = false;
            st = judge(s, n->kids[i], depth + 1, &k);
            yes += k;
        }
        if (n->n_kids == 1)
            v = yes == 1;
        else
            v = n->is_or ? yes > 0 : yes == n->n_kids;
        if (n->n_kids == 1)
            buf_printf(&why, "its clause is %s", v ? "true" : "false");
        else
            buf_printf(&why, "%s: %zu of %zu true", n->is_or ? "OR" : "AND", yes, n->n_kids);
    } else {
        expr *e = NULL;
        assert(n->cpos >= 0 && n->cend >= n->cpos);
        st = expr_parse(s->cx, EXPR_CONDITION, s->text + n->cpos, (size_t)(n->cend - n->cpos), &e, s->d);
        if (st) {
            s->d->pos = n->cpos + (s->d->pos >= 0 ? s->d->pos : 0);
        } else {
            expr_trace t = { 0 };
            v = expr_explain(e, s->item, &t);
            assert(t.n >= 1);
            buf_adds(&why, t.v[0].why);
            expr_trace_done(&t);
            expr_free(e);
        }
    }
    if (n->neg) {
        buf_printf(&why, "; NOT makes it %s", v ? "false" : "true");
        v = !v;
    }
    s->out->v[me].verdict = v;
    s->out->v[me].why = why.data ? buf_steal(&why) : xstrdup("");
    buf_done(&why);
    *verdict = v;
    return st;
}

status builder_verdict(builder *b, expr_kind kind, const av *item, bverdict *out, diag *d)
{
    memset(out, 0, sizeof *out);
    bmaps m;
    buf text = BUF_INIT;
    av names, values;
    expr_ctx cx;
    expr *e = NULL;
    bool cx_ok = false;
    builder_maps_init(&m);
    names.type = values.type = AV_NONE;
    status st = builder_print(b, &m, &text, d);
    if (st)
        goto out;
    if (builder_empty(b)) {
        out->ok = true;
        goto out;
    }
    builder_maps_names_av(&m, &names);
    builder_maps_values_av(&m, &values);
    st = expr_ctx_init(&cx, names.type ? &names : NULL, values.type ? &values : NULL, d);
    if (st)
        goto out;
    cx_ok = true;
    /* The whole first: DynamoDB's refusal (and its position) wins. */
    st = expr_parse(&cx, kind, text.data, text.len, &e, d);
    if (st)
        goto out;
    vstate s = { out, 0, &cx, text.data, item, d };
    bool whole = false;
    st = judge(&s, b->root, 0, &whole);
    if (st)
        goto out;
    out->ok = expr_eval(e, item);
    assert(out->ok == whole);
out:
    if (st)
        builder_verdict_done(out);
    expr_free(e);
    if (cx_ok)
        expr_ctx_done(&cx);
    av_free(&names);
    av_free(&values);
    buf_done(&text);
    builder_maps_done(&m);
    return st;
}

void builder_verdict_done(bverdict *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->v[i].text);
        free(v->v[i].why);
    }
    free(v->v);
    memset(v, 0, sizeof *v);
}
