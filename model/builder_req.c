/*
 * builder_req — update-expression rows and whole requests (JSON body,
 * TransactItems element, `aws dynamodb` command line) from builder trees.
 */
#include "model/builder.h"
#include "model/builder_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- update rows ------------------------------------------------------------ */

void builder_update_init(bupdate *u)
{
    memset(u, 0, sizeof *u);
}

static void action_free(baction *a)
{
    builder_path_free(&a->path);
    builder_opnd_free(&a->a);
    builder_opnd_free(&a->b);
}

void builder_update_done(bupdate *u)
{
    for (size_t i = 0; i < u->n; i++)
        action_free(&u->v[i]);
    free(u->v);
    memset(u, 0, sizeof *u);
}

baction *builder_update_add(bupdate *u, bu_kind k)
{
    if (u->n == u->cap) {
        u->cap = u->cap ? 2 * u->cap : 4;
        u->v = xrealloc(u->v, u->cap * sizeof *u->v);
    }
    baction *a = &u->v[u->n++];
    memset(a, 0, sizeof *a);
    a->kind = k;
    a->form = BF_PLAIN;
    a->a.kind = BO_VALUE;
    a->b.kind = BO_VALUE;
    return a;
}

void builder_update_remove(bupdate *u, size_t i)
{
    if (i >= u->n)
        return;
    action_free(&u->v[i]);
    memmove(u->v + i, u->v + i + 1, (u->n - i - 1) * sizeof *u->v);
    u->n--;
}

const char *builder_update_kind_name(bu_kind k)
{
    static const char *const names[] = { "SET", "REMOVE", "ADD", "DELETE" };
    return (unsigned)k <= BU_DELETE ? names[k] : "?";
}

static const char *last_name(const bpath *p)
{
    for (size_t i = p->n; i-- > 0;)
        if (!p->v[i].is_index)
            return p->v[i].name;
    return NULL;
}

/* Operands nest (if_not_exists(a, list_append(b, :v))): as deep as a
 * person builds them, bounded here so a cycle-free tree of any shape
 * prints, yet a runaway one is refused rather than overflowing. */
#define UOPND_DEPTH 64

/* DynamoDB parses list_append(list_append(...), ...) and
 * if_not_exists(a, list_append(...)) and then refuses them ("The function
 * is not allowed to be used this way in an expression; function:
 * list_append"): the builder says so before sending them. */
static status no_nested_append(const bopnd *a, const bopnd *b, size_t row, diag *d)
{
    if (a->kind == BO_LIST_APPEND || b->kind == BO_LIST_APPEND)
        return diag_set(d, ST_VALIDATION, "Update row %zu: list_append cannot take a list_append"
                        " (DynamoDB refuses it); append a list value that holds the elements", row);
    return ST_OK;
}

static status uopnd(bmaps *m, const bopnd *o, const char *hint, size_t row, buf *out, diag *d, int depth)
{
    status st = ST_OK;
    if (depth > UOPND_DEPTH)
        return diag_set(d, ST_VALIDATION, "Update row %zu: operands nested too deep", row);
    switch (o->kind) {
    case BO_PATH:
        if (!o->path.n)
            return diag_set(d, ST_VALIDATION, "Update row %zu: the path is empty", row);
        builder_path_expr(m, &o->path, out);
        return ST_OK;
    case BO_VALUE:
        if (o->value.type == AV_NONE)
            return diag_set(d, ST_VALIDATION, "Update row %zu: a value is not set", row);
        buf_adds(out, builder_maps_value(m, hint, &o->value));
        return ST_OK;
    case BO_IF_NOT_EXISTS:
        if (!o->path.n || (!o->n_sub && o->value.type == AV_NONE))
            return diag_set(d, ST_VALIDATION, "Update row %zu: if_not_exists needs a path and an operand", row);
        if (o->n_sub && o->sub[0].kind == BO_LIST_APPEND)
            return diag_set(d, ST_VALIDATION, "Update row %zu: if_not_exists cannot take a list_append as its"
                            " default (DynamoDB refuses it); put the if_not_exists inside the list_append", row);
        buf_adds(out, "if_not_exists(");
        builder_path_expr(m, &o->path, out);
        buf_adds(out, ", ");
        if (o->n_sub)
            st = uopnd(m, &o->sub[0], hint, row, out, d, depth + 1);
        else
            buf_adds(out, builder_maps_value(m, hint, &o->value));
        buf_addc(out, ')');
        return st;
    case BO_LIST_APPEND:
        assert(o->n_sub == 2);
        if ((st = no_nested_append(&o->sub[0], &o->sub[1], row, d)) != ST_OK)
            return st;
        buf_adds(out, "list_append(");
        st = uopnd(m, &o->sub[0], hint, row, out, d, depth + 1);
        if (!st) {
            buf_adds(out, ", ");
            st = uopnd(m, &o->sub[1], hint, row, out, d, depth + 1);
        }
        buf_addc(out, ')');
        return st;
    case BO_SIZE:
        break;
    }
    return diag_set(d, ST_VALIDATION, "Update row %zu: size() is not an update operand", row);
}

static status print_rows(const void *what, bmaps *m, buf *out, diag *d)
{
    const bupdate *u = what;
    status st = ST_OK;
    for (int k = BU_SET; k <= BU_DELETE && !st; k++) {
        bool first = true;
        for (size_t i = 0; i < u->n && !st; i++) {
            const baction *a = &u->v[i];
            if ((int)a->kind != k)
                continue;
            if (first) {
                if (out->len && out->data[out->len - 1] != ' ')
                    buf_addc(out, ' ');
                buf_adds(out, builder_update_kind_name(a->kind));
                buf_addc(out, ' ');
                first = false;
            } else {
                buf_adds(out, ", ");
            }
            if (!a->path.n)
                return diag_set(d, ST_VALIDATION, "Update row %zu: the path is empty", i + 1);
            builder_path_expr(m, &a->path, out);
            const char *hint = last_name(&a->path);
            switch (a->kind) {
            case BU_REMOVE:
                break;
            case BU_ADD:
            case BU_DELETE:
                buf_addc(out, ' ');
                st = uopnd(m, &a->a, hint, i + 1, out, d, 0);
                break;
            case BU_SET:
                buf_adds(out, " = ");
                if (a->form == BF_LIST_APPEND && (st = no_nested_append(&a->a, &a->b, i + 1, d)) != ST_OK)
                    return st;
                if (a->form == BF_LIST_APPEND)
                    buf_adds(out, "list_append(");
                st = uopnd(m, &a->a, hint, i + 1, out, d, 0);
                if (!st && a->form != BF_PLAIN) {
                    buf_adds(out, a->form == BF_PLUS ? " + " : a->form == BF_MINUS ? " - " : ", ");
                    st = uopnd(m, &a->b, hint, i + 1, out, d, 0);
                }
                if (a->form == BF_LIST_APPEND)
                    buf_addc(out, ')');
                break;
            }
        }
    }
    return st;
}

status builder_update_print(const bupdate *u, bmaps *m, buf *out, diag *d)
{
    return builder_maps_fit(print_rows, u, m, out, d);
}

static status uopnd_from(const expr_node *n, bopnd *o, diag *d)
{
    memset(o, 0, sizeof *o);
    if (n->kind == EN_PATH) {
        o->kind = BO_PATH;
        for (size_t i = 0; i < n->path.n; i++) {
            const expr_step *s = &n->path.steps[i];
            if (s->is_index)
                builder_path_push_index(&o->path, s->index);
            else
                builder_path_push(&o->path, s->name, s->len);
        }
        return ST_OK;
    }
    if (n->kind == EN_VALUE) {
        o->kind = BO_VALUE;
        av_copy(&o->value, n->value);
        return ST_OK;
    }
    if (n->kind == EN_FUNC && n->op == FN_IF_NOT_EXISTS && n->n_kids == 2 &&
        n->kids[0]->kind == EN_PATH) {
        status st = uopnd_from(n->kids[0], o, d);
        o->kind = BO_IF_NOT_EXISTS;
        if (!st && n->kids[1]->kind == EN_VALUE) {
            av_copy(&o->value, n->kids[1]->value);
        } else if (!st) {
            o->sub = xcalloc(1, sizeof *o->sub);
            o->n_sub = 1;
            st = uopnd_from(n->kids[1], &o->sub[0], d);
        }
        return st;
    }
    if (n->kind == EN_FUNC && n->op == FN_LIST_APPEND && n->n_kids == 2) {
        o->kind = BO_LIST_APPEND;
        o->sub = xcalloc(2, sizeof *o->sub);
        o->n_sub = 2;
        status st = uopnd_from(n->kids[0], &o->sub[0], d);
        if (!st)
            st = uopnd_from(n->kids[1], &o->sub[1], d);
        return st;
    }
    return diag_at(d, ST_VALIDATION, n->pos, "The builder can not show this update operand");
}

static void path_of(const expr_node *n, bpath *p)
{
    memset(p, 0, sizeof *p);
    for (size_t i = 0; i < n->path.n; i++) {
        const expr_step *s = &n->path.steps[i];
        if (s->is_index)
            builder_path_push_index(p, s->index);
        else
            builder_path_push(p, s->name, s->len);
    }
}

status builder_update_parse(const char *text, const char *names_json,
                            const char *values_json, bupdate *out, diag *d)
{
    bparsed p;
    builder_update_init(out);
    status st = builder_parse_expr(EXPR_UPDATE, text, names_json, values_json, &p, d);
    const expr_node *root = st ? NULL : expr_root(p.e);
    for (size_t i = 0; root && i < root->n_kids && !st; i++) {
        const expr_node *an = root->kids[i];
        bu_kind k = an->kind == EN_SET ? BU_SET : an->kind == EN_REMOVE ? BU_REMOVE
                  : an->kind == EN_ADD ? BU_ADD : BU_DELETE;
        baction *a = builder_update_add(out, k);
        path_of(an->kids[0], &a->path);
        if (k == BU_REMOVE)
            continue;
        const expr_node *v = an->kids[1];
        if (k == BU_SET && (v->kind == EN_PLUS || v->kind == EN_MINUS)) {
            a->form = v->kind == EN_PLUS ? BF_PLUS : BF_MINUS;
            st = uopnd_from(v->kids[0], &a->a, d);
            if (!st)
                st = uopnd_from(v->kids[1], &a->b, d);
        } else if (k == BU_SET && v->kind == EN_FUNC && v->op == FN_LIST_APPEND && v->n_kids == 2) {
            a->form = BF_LIST_APPEND;
            st = uopnd_from(v->kids[0], &a->a, d);
            if (!st)
                st = uopnd_from(v->kids[1], &a->b, d);
        } else {
            st = uopnd_from(v, &a->a, d);
        }
    }
    if (st)
        builder_update_done(out);
    builder_parsed_done(&p);
    return st;
}

/* ---- requests ------------------------------------------------------------------ */

static const ddb_kind breq_kinds[] = { DDB_PUT, DDB_UPDATE, DDB_DELETE, DDB_CHECK, DDB_QUERY, DDB_SCAN };

const char *builder_req_op_name(breq_op op)
{
    if ((unsigned)op > BREQ_SCAN)
        return "?";
    return op == BREQ_CHECK ? "ConditionCheck" : ddb_op_name(ddb_kind_op(breq_kinds[op]));
}

const char *builder_req_txn_name(breq_op op)
{
    return (unsigned)op <= BREQ_CHECK ? ddb_kind_action_name(breq_kinds[op]) : NULL;
}

/* The typed request (model/ddbreq.h) a builder request stands for: its
 * trees printed into expressions that share one names and values map. */
status builder_req_typed(const breq *r, ddb_req *out, diag *d)
{
    ddb_req_init(out, breq_kinds[r->op]);
    bmaps m;
    builder_maps_init(&m);
    buf key = BUF_INIT, update = BUF_INIT, cond = BUF_INIT;
    status st = ST_OK;
    if (r->op == BREQ_QUERY) {
        if (!r->keycond || builder_empty(r->keycond))
            st = diag_set(d, ST_VALIDATION, "A Query needs a key condition");
        else
            st = builder_print(r->keycond, &m, &key, d);
    }
    if (!st && r->op == BREQ_UPDATE) {
        if (!r->update || !r->update->n)
            st = diag_set(d, ST_VALIDATION, "An UpdateItem needs at least one update row");
        else
            st = builder_update_print(r->update, &m, &update, d);
    }
    if (!st && r->cond && !builder_empty(r->cond))
        st = builder_print(r->cond, &m, &cond, d);
    if (!st && r->op == BREQ_CHECK && !cond.len)
        st = diag_set(d, ST_VALIDATION, "A ConditionCheck needs a condition");
    if (!st && r->op <= BREQ_CHECK && (!r->item || r->item->type != AV_M))
        st = diag_set(d, ST_VALIDATION, "%s needs %s", builder_req_op_name(r->op),
                      r->op == BREQ_PUT ? "an item" : "a key");
    if (st)
        goto out;
    ddb_req_set_str(&out->table, r->table);
    if (r->op >= BREQ_QUERY)
        ddb_req_set_str(&out->index, r->index);
    if (r->op <= BREQ_CHECK)
        av_copy(r->op == BREQ_PUT ? &out->item : &out->key, r->item);
    if (key.len)
        ddb_req_set_str(&out->keycond, key.data);
    if (update.len)
        ddb_req_set_str(&out->update, update.data);
    if (cond.len)
        ddb_req_set_str(r->op >= BREQ_QUERY ? &out->filter : &out->cond, cond.data);
    if (m.n_names)
        builder_maps_names_av(&m, &out->names);
    if (m.n_vals)
        builder_maps_values_av(&m, &out->values);
    out->rv_fail_all_old = r->all_old_on_fail && r->op <= BREQ_CHECK && cond.len;
out:
    if (st)
        ddb_req_done(out);
    builder_maps_done(&m);
    buf_done(&key);
    buf_done(&update);
    buf_done(&cond);
    return st;
}

/* The request typed, then written by print (its JSON body or its aws
 * command line); nothing written when it does not type. */
static status print_typed(const breq *r, void (*print)(const ddb_req *, buf *), buf *out, diag *d)
{
    ddb_req t;
    status st = builder_req_typed(r, &t, d);
    if (st)
        return st;
    print(&t, out);
    ddb_req_done(&t);
    return ST_OK;
}

status builder_req_json(const breq *r, buf *out, diag *d)
{
    return print_typed(r, ddb_req_json, out, d);
}

status builder_req_txn_json(const breq *r, buf *out, diag *d)
{
    const char *tn = builder_req_txn_name(r->op);
    if (!tn)
        return diag_set(d, ST_VALIDATION, "%s can not be part of a transaction", builder_req_op_name(r->op));
    ddb_req t;
    status st = builder_req_typed(r, &t, d);
    if (st)
        return st;
    buf_printf(out, "{\"%s\":", tn);
    ddb_req_json(&t, out);
    buf_addc(out, '}');
    ddb_req_done(&t);
    return ST_OK;
}

void builder_shell_quote(buf *out, const char *s)
{
    ddb_shell_quote(out, s, strlen(s));
}

status builder_req_cli(const breq *r, buf *out, diag *d)
{
    return print_typed(r, ddb_req_cli, out, d);
}
