/*
 * expr_print — canonical text and indented trees of expressions, and the
 * small value/path formatters the other expr files share.
 */
#include "model/expr_int.h"

#include <assert.h>
#include <string.h>

#include "model/base64.h"
#include "model/ddbjson.h"

static const char *const cmp_texts[] = { "=", "<>", "<", "<=", ">", ">=" };

const char *expr_cmp_text(expr_cmp c)
{
    return (unsigned)c <= CMP_GE ? cmp_texts[c] : "?";
}

/* "OR", "CMP", ... */
static const char *expr_node_kind_name(expr_node_kind k)
{
    static const char *const names[] = {
        [EN_OR] = "OR", [EN_AND] = "AND", [EN_NOT] = "NOT", [EN_CMP] = "CMP",
        [EN_BETWEEN] = "BETWEEN", [EN_IN] = "IN", [EN_FUNC] = "FUNC",
        [EN_PATH] = "PATH", [EN_VALUE] = "VALUE", [EN_PLUS] = "PLUS",
        [EN_MINUS] = "MINUS", [EN_SET] = "SET", [EN_REMOVE] = "REMOVE",
        [EN_ADD] = "ADD", [EN_DELETE] = "DELETE", [EN_UPDATE] = "UPDATE",
        [EN_PROJECT] = "PROJECTION",
    };
    return (unsigned)k <= EN_PROJECT ? names[k] : "?";
}

size_t expr_utf16_len(const char *s, size_t n)
{
    size_t units = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if ((c & 0xC0) == 0x80)
            continue;              /* continuation byte */
        units += c >= 0xF0 ? 2 : 1;  /* astral code points are surrogate pairs */
    }
    return units;
}

/* Map lookup for the evaluation hot path: attribute names are short, and
 * an inline byte loop beats a memcmp call per probe. Same order as av's
 * (bytewise, shorter first on a tie). */
static const av *map_get(const av *m, const char *name, size_t len)
{
    size_t lo = 0, hi = m->u.m.len;
    const av_member *v = m->u.m.v;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const unsigned char *a = (const unsigned char *)v[mid].name;
        const unsigned char *b = (const unsigned char *)name;
        size_t al = v[mid].name_len, n = al < len ? al : len, i = 0;
        while (i < n && a[i] == b[i])
            i++;
        int c = i < n ? (a[i] < b[i] ? -1 : 1) : (al < len ? -1 : al > len);
        if (c == 0)
            return &v[mid].val;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

const av *expr_path_get(const expr_path *p, const av *item)
{
    const av *v = item;
    for (size_t i = 0; v && i < p->n; i++) {
        const expr_step *st = &p->steps[i];
        if (st->is_index)
            v = v->type == AV_L && st->index < v->u.l.len ? &v->u.l.v[st->index] : NULL;
        else
            v = v->type == AV_M && st->name ? map_get(v, st->name, st->len) : NULL;
    }
    return v;
}

void expr_value_brief(buf *out, const av *v)
{
    /* The value of the type's member, as DynamoDB's messages print an
     * AttributeValue ({N:5}, {SS:x,y}): NULL's member is true, so
     * {"NULL":true} reads {NULL:true} (dynalite prints it so too). */
    if (v->type == AV_NULL) {
        buf_adds(out, "true");
        return;
    }
    if (av_scalar_text(v, out))
        return;
    switch (v->type) {
    case AV_SS: case AV_NS: case AV_BS:
        for (size_t i = 0; i < v->u.l.len; i++) {
            if (i)
                buf_addc(out, ',');
            expr_value_brief(out, &v->u.l.v[i]);
        }
        break;
    default:
        ddbjson_write_value(out, v);
        break;
    }
}

/* The path's steps joined with '.' and [N]; real: each name as it is
 * (placeholders resolved), '.' '[' ']' '\\' inside it escaped; else the
 * placeholder as written where there was one. */
static void path_text(const expr_path *p, bool real, buf *out)
{
    for (size_t i = 0; i < p->n; i++) {
        const expr_step *st = &p->steps[i];
        if (st->is_index) {
            buf_printf(out, "[%u]", st->index);
            continue;
        }
        if (i)
            buf_addc(out, '.');
        if (!real) {
            if (st->alias)
                buf_adds(out, st->alias);
            else
                buf_add(out, st->name, st->len);
            continue;
        }
        for (size_t k = 0; k < st->len; k++) {
            char c = st->name[k];
            if (c == '.' || c == '[' || c == ']' || c == '\\')
                buf_addc(out, '\\');
            buf_addc(out, c);
        }
    }
}

void expr_path_text(const expr_path *p, buf *out)
{
    path_text(p, false, out);
}

void expr_path_real_text(const expr_path *p, buf *out)
{
    path_text(p, true, out);
}

/* ---- canonical text ---------------------------------------------------- */

static int prec(const expr_node *n)
{
    switch (n->kind) {
    case EN_OR: return 1;
    case EN_AND: return 2;
    case EN_NOT: return 3;
    default: return 4;
    }
}

static void print_cond(const expr_node *n, buf *out, int need);

static void print_operand(const expr_node *n, buf *out)
{
    switch (n->kind) {
    case EN_PATH:
        expr_path_text(&n->path, out);
        break;
    case EN_VALUE:
        buf_adds(out, n->name);
        break;
    case EN_FUNC:
        buf_adds(out, n->name);
        buf_addc(out, '(');
        for (size_t i = 0; i < n->n_kids; i++) {
            if (i)
                buf_adds(out, ", ");
            print_operand(n->kids[i], out);
        }
        buf_addc(out, ')');
        break;
    case EN_PLUS:
    case EN_MINUS:
        print_operand(n->kids[0], out);
        buf_adds(out, n->kind == EN_PLUS ? " + " : " - ");
        print_operand(n->kids[1], out);
        break;
    default:
        print_cond(n, out, 0);
        break;
    }
}

static void print_cond(const expr_node *n, buf *out, int need)
{
    int p = prec(n);
    bool paren = p < need;
    if (paren)
        buf_addc(out, '(');
    switch (n->kind) {
    case EN_OR:
    case EN_AND:
        /* Left-associative: a right operand of the same operator keeps its
         * parentheses so the text parses back into the same tree. */
        print_cond(n->kids[0], out, p);
        buf_adds(out, n->kind == EN_OR ? " OR " : " AND ");
        print_cond(n->kids[1], out, p + 1);
        break;
    case EN_NOT:
        buf_adds(out, "NOT ");
        print_cond(n->kids[0], out, 3);
        break;
    case EN_CMP:
        print_operand(n->kids[0], out);
        buf_printf(out, " %s ", expr_cmp_text(n->op));
        print_operand(n->kids[1], out);
        break;
    case EN_BETWEEN:
        print_operand(n->kids[0], out);
        buf_adds(out, " BETWEEN ");
        print_operand(n->kids[1], out);
        buf_adds(out, " AND ");
        print_operand(n->kids[2], out);
        break;
    case EN_IN:
        print_operand(n->kids[0], out);
        buf_adds(out, " IN (");
        for (size_t i = 1; i < n->n_kids; i++) {
            if (i > 1)
                buf_adds(out, ", ");
            print_operand(n->kids[i], out);
        }
        buf_addc(out, ')');
        break;
    default:
        print_operand(n, out);
        break;
    }
    if (paren)
        buf_addc(out, ')');
}

static void print_update(const expr_node *root, buf *out)
{
    for (size_t i = 0; i < root->n_kids; i++) {
        const expr_node *a = root->kids[i];
        bool new_section = i == 0 || root->kids[i - 1]->op != a->op;
        if (new_section) {
            if (i)
                buf_addc(out, ' ');
            buf_adds(out, expr_node_kind_name(a->kind));
            buf_addc(out, ' ');
        } else {
            buf_adds(out, ", ");
        }
        print_operand(a->kids[0], out);
        if (a->kind == EN_SET)
            buf_adds(out, " = ");
        else if (a->n_kids == 2)
            buf_addc(out, ' ');
        if (a->n_kids == 2)
            print_operand(a->kids[1], out);
    }
}

void expr_print_node(const expr_node *n, buf *out)
{
    switch (n->kind) {
    case EN_UPDATE:
        print_update(n, out);
        break;
    case EN_PROJECT:
        for (size_t i = 0; i < n->n_kids; i++) {
            if (i)
                buf_adds(out, ", ");
            print_operand(n->kids[i], out);
        }
        break;
    default:
        print_cond(n, out, 0);
        break;
    }
}

void expr_print(const expr *e, buf *out)
{
    expr_print_node(e->root, out);
}

/* ---- tree -------------------------------------------------------------- */

static bool path_has_alias(const expr_path *p)
{
    for (size_t i = 0; i < p->n; i++)
        if (p->steps[i].alias)
            return true;
    return false;
}

static void tree(const expr_node *n, int depth, buf *out)
{
    for (int i = 0; i < depth; i++)
        buf_adds(out, "  ");
    buf_adds(out, expr_node_kind_name(n->kind));
    switch (n->kind) {
    case EN_CMP:
        buf_printf(out, " %s", expr_cmp_text(n->op));
        break;
    case EN_FUNC:
        buf_printf(out, " %s", n->name);
        break;
    case EN_PATH:
        buf_addc(out, ' ');
        expr_path_text(&n->path, out);
        if (path_has_alias(&n->path)) {
            buf_adds(out, " = ");
            expr_path_dynamo(&n->path, out);
        }
        break;
    case EN_VALUE:
        buf_printf(out, " %s", n->name);
        if (n->value) {
            buf_adds(out, " = ");
            ddbjson_write_value(out, n->value);
        }
        break;
    default:
        break;
    }
    buf_addc(out, '\n');
    for (size_t i = 0; i < n->n_kids; i++)
        tree(n->kids[i], depth + 1, out);
}

void expr_print_tree(const expr *e, buf *out)
{
    tree(e->root, 0, out);
}
