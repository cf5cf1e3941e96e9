/*
 * expr_update — applying an UpdateExpression to an item.
 *
 * As DynamoDB does: every SET value is computed from the item as it was
 * before the update; then the actions are applied (SET, ADD, DELETE in
 * text order, then REMOVE from the deepest and highest list index down,
 * so that several indexes of one list all refer to the list before any
 * removal). A path whose parent is missing, or of the wrong kind, is
 * "invalid for update".
 */
#include "model/expr_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

#define MSG_MISSING "The provided expression refers to an attribute that does not exist in the item"
#define MSG_TYPE    "An operand in the update expression has an incorrect data type"
#define MSG_PATH    "The document path provided in the update expression is invalid for update"

static status value_of(const expr_node *n, const av *old, av *out, diag *d);

/* The values of n's two operands (a + b, list_append(a, b)), both of the
 * type the operation takes; else DynamoDB's type error at the operand
 * that is not, and nothing to free. */
static status operands_of(const expr_node *n, const av *old, av_type type, av *a, av *b, diag *d)
{
    status st = value_of(n->kids[0], old, a, d);
    if (st)
        return st;
    if (a->type != type) {
        av_done(a);
        return diag_at(d, ST_VALIDATION, n->kids[0]->pos, MSG_TYPE);
    }
    st = value_of(n->kids[1], old, b, d);
    if (st) {
        av_done(a);
        return st;
    }
    if (b->type != type) {
        av_done(a);
        av_done(b);
        return diag_at(d, ST_VALIDATION, n->kids[1]->pos, MSG_TYPE);
    }
    return ST_OK;
}

/* Computes an update value into *out (a copy the caller frees). */
static status value_of(const expr_node *n, const av *old, av *out, diag *d)
{
    out->type = AV_NONE;
    switch (n->kind) {
    case EN_VALUE:
        av_copy(out, n->value);
        return ST_OK;
    case EN_PATH: {
        const av *v = expr_path_get(&n->path, old);
        if (!v)
            return diag_at(d, ST_VALIDATION, n->pos, MSG_MISSING);
        av_copy(out, v);
        return ST_OK;
    }
    case EN_PLUS:
    case EN_MINUS: {
        av a, b;
        status st = operands_of(n, old, AV_N, &a, &b, d);
        if (st)
            return st;
        num r;
        st = n->kind == EN_PLUS ? num_add(&a.u.n, &b.u.n, &r, d) : num_sub(&a.u.n, &b.u.n, &r, d);
        if (!st)
            av_init_n(out, &r);
        else
            d->pos = n->pos;
        return st;
    }
    case EN_FUNC:
        if (n->op == FN_IF_NOT_EXISTS) {
            const av *v = expr_path_get(&n->kids[0]->path, old);
            if (v) {
                av_copy(out, v);
                return ST_OK;
            }
            return value_of(n->kids[1], old, out, d);
        }
        if (n->op == FN_LIST_APPEND) {
            av a, b;
            status st = operands_of(n, old, AV_L, &a, &b, d);
            if (st)
                return st;
            for (size_t i = 0; i < b.u.l.len; i++) {
                av el;
                av_move(&el, &b.u.l.v[i]);
                av_list_push(&a, &el);
            }
            av_done(&b);
            av_move(out, &a);
            return ST_OK;
        }
        break;
    default:
        break;
    }
    return diag_at(d, ST_INTERNAL, n->pos, "unexpected update operand");
}

/* The container holding the last step of p, in item; NULL when it is
 * missing or not the kind the step needs (M for a name, L for an index). */
static av *parent_of(const expr_path *p, av *item)
{
    av *v = item;
    for (size_t i = 0; v && i + 1 < p->n; i++) {
        const expr_step *st = &p->steps[i];
        if (st->is_index)
            v = v->type == AV_L && st->index < v->u.l.len ? &v->u.l.v[st->index] : NULL;
        else
            v = v->type == AV_M ? av_map_get_mut(v, st->name, st->len) : NULL;
    }
    if (!v)
        return NULL;
    const expr_step *last = &p->steps[p->n - 1];
    return v->type == (last->is_index ? AV_L : AV_M) ? v : NULL;
}

static av *child_of(av *parent, const expr_step *st)
{
    if (st->is_index)
        return st->index < parent->u.l.len ? &parent->u.l.v[st->index] : NULL;
    return av_map_get_mut(parent, st->name, st->len);
}

/* Puts val (taken) at the last step: replaces, adds a member, or for a
 * list index past the end appends. */
static void put_child(av *parent, const expr_step *st, av *val)
{
    if (!st->is_index) {
        av_map_put(parent, st->name, st->len, val);
        return;
    }
    if (st->index < parent->u.l.len) {
        av_done(&parent->u.l.v[st->index]);
        av_move(&parent->u.l.v[st->index], val);
        return;
    }
    av_list_push(parent, val);
}

static void remove_child(av *parent, const expr_step *st)
{
    if (!st->is_index) {
        av_map_remove(parent, st->name, st->len);
        return;
    }
    if (st->index >= parent->u.l.len)
        return;
    av_done(&parent->u.l.v[st->index]);
    memmove(&parent->u.l.v[st->index], &parent->u.l.v[st->index + 1],
            (parent->u.l.len - st->index - 1) * sizeof(av));
    parent->u.l.len--;
}

static status add_action(const expr_node *act, av *parent, diag *d)
{
    const expr_step *st = &act->kids[0]->path.steps[act->kids[0]->path.n - 1];
    const av *val = act->kids[1]->value;
    av *cur = child_of(parent, st);
    if (!cur) {
        av copy;
        av_copy(&copy, val);
        put_child(parent, st, &copy);
        return ST_OK;
    }
    if (cur->type != val->type)
        return diag_at(d, ST_VALIDATION, act->pos, MSG_TYPE);
    if (cur->type == AV_N) {
        num r;
        status s = num_add(&cur->u.n, &val->u.n, &r, d);
        if (s)
            return s;
        cur->u.n = r;
        return ST_OK;
    }
    for (size_t i = 0; i < val->u.l.len; i++) {
        if (av_set_has(cur, &val->u.l.v[i]))
            continue;
        av el;
        av_copy(&el, &val->u.l.v[i]);
        av_list_push(cur, &el);
    }
    av_set_normalize(cur);
    return ST_OK;
}

static status delete_action(const expr_node *act, av *parent, diag *d)
{
    const expr_step *st = &act->kids[0]->path.steps[act->kids[0]->path.n - 1];
    const av *val = act->kids[1]->value;
    av *cur = child_of(parent, st);
    if (!cur)
        return ST_OK;
    if (cur->type != val->type)
        return diag_at(d, ST_VALIDATION, act->pos, MSG_TYPE);
    size_t k = 0;
    for (size_t i = 0; i < cur->u.l.len; i++) {
        if (av_set_has(val, &cur->u.l.v[i])) {
            av_done(&cur->u.l.v[i]);
            continue;
        }
        if (k != i)
            av_move(&cur->u.l.v[k], &cur->u.l.v[i]);
        k++;
    }
    cur->u.l.len = k;
    if (k == 0)
        remove_child(parent, st);
    return ST_OK;
}

/* REMOVE order: descending by path, so deeper and later elements go
 * first and earlier indexes still mean what they meant. */
static int path_cmp_desc(const void *pa, const void *pb)
{
    const expr_path *a = &(*(const expr_node *const *)pa)->kids[0]->path;
    const expr_path *b = &(*(const expr_node *const *)pb)->kids[0]->path;
    for (size_t i = 0; i < a->n && i < b->n; i++) {
        const expr_step *x = &a->steps[i], *y = &b->steps[i];
        if (x->is_index != y->is_index)
            return x->is_index ? 1 : -1;
        int c;
        if (x->is_index) {
            c = x->index < y->index ? -1 : x->index > y->index;
        } else {
            size_t n = x->len < y->len ? x->len : y->len;
            c = memcmp(x->name, y->name, n);
            if (!c)
                c = x->len < y->len ? -1 : x->len > y->len;
        }
        if (c)
            return -c;
    }
    return a->n < b->n ? 1 : a->n > b->n ? -1 : 0;
}

void expr_names_done(expr_names *n)
{
    free(n->v);
    free(n->nested);
    memset(n, 0, sizeof *n);
}

/* Top-level names of an update's action paths, in text order, unique. */
static void expr_update_names(const expr *e, expr_names *out)
{
    assert(e->kind == EXPR_UPDATE);
    const expr_node *root = e->root;
    for (size_t i = 0; i < root->n_kids; i++) {
        const expr_path *p = &root->kids[i]->kids[0]->path;
        const char *name = p->steps[0].name;
        size_t j;
        for (j = 0; j < out->n; j++)
            if (strcmp(out->v[j], name) == 0)
                break;
        if (j < out->n) {
            if (p->n > 1)
                out->nested[j] = true;
            continue;
        }
        if (out->n == out->cap) {
            out->cap = out->cap ? 2 * out->cap : 8;
            out->v = xrealloc(out->v, out->cap * sizeof *out->v);
            out->nested = xrealloc(out->nested, out->cap * sizeof *out->nested);
        }
        out->v[out->n] = name;
        out->nested[out->n] = p->n > 1;
        out->n++;
    }
}

/* SETs of list indexes past the end, deferred: DynamoDB appends them "in
 * order by element number" (developer guide, "Adding elements to a list"),
 * not in the order they are written. */
typedef struct append {
    size_t act;
    uint32_t index;
} append;

static int append_cmp(const void *pa, const void *pb)
{
    const append *a = pa, *b = pb;
    if (a->index != b->index)
        return a->index < b->index ? -1 : 1;
    return a->act < b->act ? -1 : a->act > b->act;
}

static bool past_end(const av *parent, const expr_step *st)
{
    return st->is_index && st->index >= parent->u.l.len;
}

static status apply(const expr *e, const av *old, bool missing, av *out, expr_names *changed, diag *d);

status expr_update_apply(const expr *e, const av *old, av *out, expr_names *changed, diag *d)
{
    return apply(e, old, false, out, changed, d);
}

bool expr_update_creates(const expr *e)
{
    assert(e->kind == EXPR_UPDATE);
    for (size_t i = 0; i < e->root->n_kids; i++)
        if (e->root->kids[i]->kind == EN_SET || e->root->kids[i]->kind == EN_ADD)
            return true;
    return false;
}

status expr_update_apply_missing(const expr *e, const av *key, av *out, diag *d)
{
    return apply(e, key, true, out, NULL, d);
}

static status apply(const expr *e, const av *old, bool missing, av *out, expr_names *changed, diag *d)
{
    assert(e->kind == EXPR_UPDATE);
    const expr_node *root = e->root;
    size_t n = root->n_kids;
    av *vals = xcalloc(n, sizeof *vals);
    const expr_node **removes = xmalloc(n * sizeof *removes);
    append *appends = xmalloc(n * sizeof *appends);
    size_t n_rm = 0, n_app = 0;
    status st = ST_OK;

    if (old)
        av_copy(out, old);
    else
        av_init_list(out, AV_M);

    for (size_t i = 0; i < n && !st; i++)
        if (root->kids[i]->kind == EN_SET)
            st = value_of(root->kids[i]->kids[1], old, &vals[i], d);
    if (st)
        goto out;

    for (size_t i = 0; i < n; i++) {
        const expr_node *act = root->kids[i];
        const expr_path *p = &act->kids[0]->path;
        av *parent = parent_of(p, out);
        if (!parent) {
            /* REMOVE x.y of an item that does not exist does nothing. */
            if (missing && act->kind == EN_REMOVE)
                continue;
            st = diag_at(d, ST_VALIDATION, act->pos, MSG_PATH);
            goto out;
        }
        switch (act->kind) {
        case EN_SET:
            if (past_end(parent, &p->steps[p->n - 1]))
                appends[n_app++] = (append){ i, p->steps[p->n - 1].index };
            else
                put_child(parent, &p->steps[p->n - 1], &vals[i]);
            break;
        case EN_ADD:
            st = add_action(act, parent, d);
            break;
        case EN_DELETE:
            st = delete_action(act, parent, d);
            break;
        case EN_REMOVE:
            removes[n_rm++] = act;
            break;
        default:
            assert(!"not an update action");
        }
        if (st)
            goto out;
    }
    qsort(appends, n_app, sizeof *appends, append_cmp);
    for (size_t i = 0; i < n_app; i++) {
        const expr_path *p = &root->kids[appends[i].act]->kids[0]->path;
        av *parent = parent_of(p, out);
        assert(parent);
        put_child(parent, &p->steps[p->n - 1], &vals[appends[i].act]);
    }
    qsort(removes, n_rm, sizeof *removes, path_cmp_desc);
    for (size_t i = 0; i < n_rm; i++) {
        const expr_path *p = &removes[i]->kids[0]->path;
        av *parent = parent_of(p, out);
        if (parent)
            remove_child(parent, &p->steps[p->n - 1]);
    }
    if (changed)
        expr_update_names(e, changed);
out:
    for (size_t i = 0; i < n; i++)
        av_done(&vals[i]);
    free(vals);
    free(removes);
    free(appends);
    if (st)
        av_done(out);
    return st;
}
