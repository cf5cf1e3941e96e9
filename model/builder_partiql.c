/*
 * builder_partiql — the builder's request in PartiQL (builder_req_partiql,
 * declared in builder.h): the expressions are printed with placeholders
 * by the builder as for the JSON, parsed back with model/expr against the
 * same maps, and the trees written as PartiQL (model/partiql) with the
 * names and values in place.
 *
 * Where PartiQL cannot say what the request does, a second line starting
 * with "-- " says so: PutItem replaces an item while INSERT refuses an
 * existing one and takes no condition; UpdateItem creates a missing item
 * while UPDATE fails on it; if_not_exists is not among the PartiQL
 * functions the developer guide documents.
 */
#include <string.h>

#include "model/builder.h"
#include "model/expr.h"
#include "model/partiql.h"

static void where_key(const av *key, buf *out)
{
    for (size_t i = 0; i < key->u.m.len; i++) {
        buf_adds(out, i ? " AND " : " WHERE ");
        buf_addc(out, '"');
        for (size_t k = 0; k < key->u.m.v[i].name_len; k++) {
            if (key->u.m.v[i].name[k] == '"')
                buf_addc(out, '"');
            buf_addc(out, key->u.m.v[i].name[k]);
        }
        buf_adds(out, "\" = ");
        pq_print_value(&key->u.m.v[i].val, out);
    }
}

static void quoted(buf *out, const char *s)
{
    buf_addc(out, '"');
    for (; *s; s++) {
        if (*s == '"')
            buf_addc(out, '"');
        buf_addc(out, *s);
    }
    buf_addc(out, '"');
}

/* The condition after a WHERE that has terms already: AND, parenthesised
 * when it is an OR. */
static void and_cond(const expr *e, buf *out, bool first)
{
    const expr_node *n = expr_root(e);
    buf_adds(out, first ? " WHERE " : " AND ");
    bool wrap = !first && n->kind == EN_OR;
    if (wrap)
        buf_addc(out, '(');
    pq_print_expr_node(n, out);
    if (wrap)
        buf_addc(out, ')');
}

status builder_req_partiql(const breq *r, buf *out, diag *d)
{
    bmaps m;
    builder_maps_init(&m);
    buf key = BUF_INIT, upd = BUF_INIT, cnd = BUF_INIT;
    av names = { 0 }, values = { 0 };
    expr_ctx cx;
    bool have_cx = false;
    expr *ek = NULL, *eu = NULL, *ec = NULL;
    status st = ST_OK;
    if (r->op <= BREQ_CHECK && (!r->item || r->item->type != AV_M)) {
        st = diag_set(d, ST_VALIDATION, "%s needs %s", builder_req_op_name(r->op),
                      r->op == BREQ_PUT ? "an item" : "a key");
        goto out;
    }
    if (r->op == BREQ_QUERY && (!r->keycond || builder_empty(r->keycond))) {
        st = diag_set(d, ST_VALIDATION, "A Query needs a key condition");
        goto out;
    }
    if (r->op == BREQ_QUERY && (st = builder_print(r->keycond, &m, &key, d)))
        goto out;
    if (r->op == BREQ_UPDATE) {
        if (!r->update || !r->update->n) {
            st = diag_set(d, ST_VALIDATION, "An UpdateItem needs at least one update row");
            goto out;
        }
        if ((st = builder_update_print(r->update, &m, &upd, d)))
            goto out;
    }
    if (r->cond && !builder_empty(r->cond) && (st = builder_print(r->cond, &m, &cnd, d)))
        goto out;
    if (r->op == BREQ_CHECK && !cnd.len) {
        st = diag_set(d, ST_VALIDATION, "A ConditionCheck needs a condition");
        goto out;
    }
    builder_maps_names_av(&m, &names);
    builder_maps_values_av(&m, &values);
    if ((st = expr_ctx_init(&cx, names.u.m.len ? &names : NULL, values.u.m.len ? &values : NULL, d)))
        goto out;
    have_cx = true;
    if ((key.len && (st = expr_parse(&cx, EXPR_KEY, key.data, key.len, &ek, d))) ||
        (upd.len && (st = expr_parse(&cx, EXPR_UPDATE, upd.data, upd.len, &eu, d))) ||
        (cnd.len && (st = expr_parse(&cx, EXPR_CONDITION, cnd.data, cnd.len, &ec, d))))
        goto out;

    switch (r->op) {
    case BREQ_PUT:
        buf_adds(out, "INSERT INTO ");
        quoted(out, r->table);
        buf_adds(out, " VALUE ");
        pq_print_value(r->item, out);
        buf_adds(out, ec ? "\n-- INSERT takes no condition and refuses an existing item; PutItem's condition is not expressed"
                         : "\n-- INSERT refuses an existing item, where PutItem replaces it");
        break;
    case BREQ_UPDATE:
        buf_adds(out, "UPDATE ");
        quoted(out, r->table);
        buf_addc(out, ' ');
        pq_print_expr_node(expr_root(eu), out);
        where_key(r->item, out);
        if (ec)
            and_cond(ec, out, false);
        buf_adds(out, "\n-- UPDATE fails on a missing item, where UpdateItem creates it");
        if (strstr(upd.data, "if_not_exists("))
            buf_adds(out, "\n-- if_not_exists is not among the PartiQL functions the developer guide lists");
        break;
    case BREQ_DELETE:
        buf_adds(out, "DELETE FROM ");
        quoted(out, r->table);
        where_key(r->item, out);
        if (ec)
            and_cond(ec, out, false);
        break;
    case BREQ_CHECK:
        buf_adds(out, "EXISTS(SELECT * FROM ");
        quoted(out, r->table);
        where_key(r->item, out);
        and_cond(ec, out, false);
        buf_addc(out, ')');
        break;
    case BREQ_QUERY:
    case BREQ_SCAN:
        buf_adds(out, "SELECT * FROM ");
        quoted(out, r->table);
        if (r->index) {
            buf_addc(out, '.');
            quoted(out, r->index);
        }
        if (ek)
            and_cond(ek, out, true);
        if (ec)
            and_cond(ec, out, !ek);
        break;
    }
out:
    expr_free(ek);
    expr_free(eu);
    expr_free(ec);
    if (have_cx)
        expr_ctx_done(&cx);
    av_done(&names);
    av_done(&values);
    builder_maps_done(&m);
    buf_done(&key);
    buf_done(&upd);
    buf_done(&cnd);
    return st;
}
