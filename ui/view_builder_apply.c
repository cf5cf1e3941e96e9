/*
 * view_builder_apply — the builder and the store: the item stored under
 * the builder item's key (what a condition is evaluated against), writes
 * of the tree (PutItem, UpdateItem, DeleteItem, with
 * ReturnValuesOnConditionCheckFailure ALL_OLD so a refusal shows the item
 * as it is), reads handed to the query bar (a filter, or a key condition
 * taken apart into the bar's fields), and the saved conditions. See
 * ui/builder_int.h for who owns what.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/saved.h"
#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"
#include "ui/staging.h"
#include "ui/text.h"

/* GetItem of the builder item's key into *out (AV_NONE: no such item);
 * false when there is no key to read or the store refused. */
static bool get_stored(const bview *p, bool consistent, av *out)
{
    out->type = AV_NONE;
    av key;
    buf why = BUF_INIT;
    bool ok = p->table && bview_item_key(p, &key, &why);
    buf_done(&why);
    if (!ok)
        return false;
    ddb_req r;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&r, DDB_GET);
    ddb_res_init(&res);
    ddb_err_init(&err);
    ddb_req_set_str(&r.table, p->table);
    av_move(&r.key, &key);
    r.consistent = consistent;
    ok = store_exec(display_store(), &r, &res, &err) == ST_OK;
    if (ok && res.found && res.item.type == AV_M)
        av_move(out, &res.item);
    ddb_req_done(&r);
    ddb_res_done(&res);
    ddb_err_done(&err);
    return ok;
}

/* What DynamoDB evaluates a condition against: the item stored under
 * the builder item's key (a Put of a new item sees none), else the item
 * itself when there is no table to look in. */
void bview_load_stored(bview *p)
{
    av_done(&p->stored);
    p->have_stored = get_stored(p, true, &p->stored);
}

/* Reads the item again (GetItem by its key), after a write. */
void bview_refresh_item(bview *p)
{
    av nv;
    if (get_stored(p, false, &nv) && nv.type == AV_M) {
        av_done(&p->item);
        av_move(&p->item, &nv);
    }
}

/* "\nlabel\n" and the item as indented DynamoDB JSON. */
static void result_item(bview *p, const char *label, const av *item)
{
    buf_printf(&p->result, "\n%s\n", label);
    ddbjson_write_item_pretty(&p->result, item);
}

/* The store's answer to a write of the tree, in p->result. */
static void write_outcome(view *v, breq_op op, status st, const ddb_err *err)
{
    bview *p = v->priv;
    if (st != ST_OK) {
        display_ddb_err_text(&p->result, NULL, err);
        display_ddb_err(NULL, err);
        if (st == ST_CONDITION_FAILED && err->item.type == AV_M)
            result_item(p, "The item as it is now (ReturnValuesOnConditionCheckFailure ALL_OLD):",
                        &err->item);
        return;
    }
    p->result_error = false;
    buf_printf(&p->result, "%s: OK", builder_req_op_name(op));
    display_message("%s: OK", builder_req_op_name(op));
    if (op == BREQ_DELETE)
        av_done(&p->item);
    else
        bview_refresh_item(p);
    if (p->item.type == AV_M)
        result_item(p, "The item now:", &p->item);
    else
        buf_adds(&p->result, "\nThe item is gone.");
    bview_reload_below(v);
}

/* With staging on, the write is staged instead (ui/staging.h): the
 * change the request makes to the item as read. */
static void stage_outcome(view *v, breq_op op, const ddb_req *req)
{
    bview *p = v->priv;
    table_def def;
    if (!staging_describe(p->table, &def))
        return;
    av staged;
    buf why = BUF_INIT;
    if (!staging_stage_write(p->table, &def, req, &staged, &why)) {
        buf_printf(&p->result, "%s: not staged: %s", builder_req_op_name(op), why.data ? why.data : "");
        display_error("%s not staged: %s", builder_req_op_name(op), why.data ? why.data : "");
    } else {
        p->result_error = false;
        buf_printf(&p->result, "%s: staged, not written (staging is on: u shows it, :commit writes it)",
                   builder_req_op_name(op));
        if (staged.type == AV_M)
            result_item(p, "The item as staged:", &staged);
        else
            buf_adds(&p->result, "\nThe item is staged to be deleted.");
        bview_reload_below(v);
    }
    av_done(&staged);
    buf_done(&why);
    table_def_free(&def);
}

void bview_apply_write(view *v, breq_op op)
{
    bview *p = v->priv;
    breq r;
    av key;
    buf why = BUF_INIT;
    buf_reset(&p->result);
    p->result_error = true;
    if (p->mode != M_COND && !builder_empty(p->b)) {
        buf_printf(&p->result, "The tree is a %s: switch to condition mode (m) to use it in a write",
                   bview_mode_names[p->mode]);
        goto out;
    }
    if (!bview_make_req(p, op, &r, &key, &why)) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name(op), why.data);
        goto out;
    }
    ddb_req req;
    diag d;
    diag_init(&d);
    status st = builder_req_typed(&r, &req, &d);
    av_done(&key);
    if (st != ST_OK) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name(op), d.msg);
        goto out;
    }
    if (staging_on()) {
        stage_outcome(v, op, &req);
        ddb_req_done(&req);
        goto out;
    }
    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    st = store_exec(display_store(), &req, &res, &err);
    write_outcome(v, op, st, &err);
    ddb_req_done(&req);
    ddb_res_done(&res);
    ddb_err_done(&err);
out:
    buf_done(&why);
}

/* The filter to the query bar: a Query when argv[2] (and argv[3]) give
 * the partition value (and sort-key condition) as typed, else a Scan. */
static void read_filter(bview *p, const buf *text, bmaps *m, int argc, char **argv)
{
    av names, values;
    builder_maps_names_av(m, &names);
    builder_maps_values_av(m, &values);
    /* The words as :query reads them (`|` joins a multi-attribute PK). */
    const index_def *ixd = p->have_def && p->index ? table_def_index(&p->def, p->index) : NULL;
    buf pk = BUF_INIT, sk = BUF_INIT;
    query_words(argv + 2, argc > 2 ? argc - 2 : 0, ixd ? index_def_n_hash(ixd) : 1, &pk, &sk);
    query_arg qa = {
        .table = p->table, .index = p->index,
        .pk_text = argc > 2 ? (pk.data ? pk.data : "") : NULL, .sk_text = sk.len ? sk.data : NULL,
        .filter = text->data ? text->data : "",
        .names = names.type ? &names : NULL, .values = values.type ? &values : NULL,
        .run = true,
    };
    display_push(&view_query_ops, &qa);
    buf_done(&pk);
    buf_done(&sk);
    av_done(&names);
    av_done(&values);
    p->result_error = false;
    buf_printf(&p->result, "%s: sent to the query bar (its answer is there; q comes back here)",
               argc <= 2 ? "Scan" : "Query");
}

/* The query bar's sort-key text of a multi-attribute key condition: the
 * RANGE equalities in turn, then the last condition as it is typed, '|'
 * between parts (as the bar reads them back). */
static void tuple_sk_text(const expr_key_tuple *kt, buf *out)
{
    for (size_t i = 0; i < kt->n_eq; i++) {
        buf_adds(out, i ? " | " : "");
        /* An equal value that reads as a condition (">= A") says `= `. */
        size_t at = out->len;
        av_scalar_text(kt->eq[i], out);
        if (query_sk_is_op(out->data + at)) {
            buf v = BUF_INIT;
            buf_adds(&v, out->data + at);
            out->len = at;
            out->data[at] = '\0';
            buf_printf(out, "= %s", v.data);
            buf_done(&v);
        }
    }
    const expr_key_range *l = &kt->last;
    if (l->op == KEY_SK_NONE)
        return;
    buf_adds(out, kt->n_eq ? " | " : "");
    query_sk_text(&(query_sk){ l->op, l->sk1, l->sk2 }, out);
}

/* A key condition on a multi-attribute index key: checked against every
 * HASH and RANGE attribute (expr_key_tuple_of: DynamoDB's rules and
 * messages), then given to the query bar as the HASH values in turn and
 * the RANGE parts as text. */
static status read_key_tuple(bview *p, const index_def *ixd, const expr *e, diag *d)
{
    index_key_parts k;
    index_def_key_parts(ixd, &k);
    expr_key_tuple kt;
    status st = expr_key_tuple_of(e, k.hn, k.ht, k.nh, k.rn, k.rt, k.nr, &kt, d);
    if (st != ST_OK)
        return st;
    av pk;
    av_init_list(&pk, AV_L);
    for (size_t i = 0; i < k.nh; i++) {
        av c;
        av_copy(&c, kt.hash[i]);
        av_list_push(&pk, &c);
    }
    buf sk = BUF_INIT;
    tuple_sk_text(&kt, &sk);
    query_arg qa = { .table = p->table, .index = p->index, .pk = &pk, .sk_text = sk.data ? sk.data : "",
                     .run = true };
    p->result_error = false;
    buf_adds(&p->result, "Query: sent to the query bar (its answer is there; q comes back here)");
    display_push(&view_query_ops, &qa);
    av_done(&pk);
    buf_done(&sk);
    return ST_OK;
}

/* A key condition (p->have_def): checked against the index's key schema, then given
 * to the query bar as its partition value and sort-key condition, as values. */
static status read_key(bview *p, const buf *text, bmaps *m, diag *d)
{
    const index_def *ixd = p->index ? table_def_index(&p->def, p->index) : NULL;
    const key_attr *pk = ixd ? &ixd->pk : &p->def.pk, *sk = ixd ? &ixd->sk : &p->def.sk;
    av nm, vl;
    builder_maps_names_av(m, &nm);
    builder_maps_values_av(m, &vl);
    expr_ctx cx;
    expr *e = NULL;
    expr_key_range kr;
    status st = expr_ctx_init(&cx, nm.type ? &nm : NULL, vl.type ? &vl : NULL, d);
    if (!st) {
        st = expr_parse(&cx, EXPR_KEY, text->data ? text->data : "", text->len, &e, d);
        if (!st && ixd && index_def_multi(ixd)) {
            st = read_key_tuple(p, ixd, e, d);
        } else if (!st && !(st = expr_key_range_of(e, pk->name, pk->type, sk->name, sk->type, &kr, d))) {
            query_arg qa = { .table = p->table, .index = p->index, .pk = kr.pk,
                             .sk = { kr.op, kr.sk1, kr.sk2 }, .run = true };
            p->result_error = false;
            buf_adds(&p->result, "Query: sent to the query bar (its answer is there; q comes back here)");
            display_push(&view_query_ops, &qa);
        }
        expr_free(e);
        expr_ctx_done(&cx);
    }
    av_done(&nm);
    av_done(&vl);
    return st;
}

void bview_apply_read(view *v, bool key, int argc, char **argv)
{
    bview *p = v->priv;
    buf_reset(&p->result);
    p->result_error = true;
    if (!p->table) {
        buf_adds(&p->result, "No table (:cond-table NAME)");
        return;
    }
    bmaps m;
    buf text = BUF_INIT;
    diag d;
    diag_init(&d);
    builder_maps_init(&m);
    if (builder_print(p->b, &m, &text, &d) != ST_OK) {
        buf_printf(&p->result, "%s", d.msg);
    } else if (!key) {
        read_filter(p, &text, &m, argc, argv);
    } else if (!p->have_def) {
        buf_adds(&p->result, "No table definition");
    } else {
        status st = read_key(p, &text, &m, &d);
        if (st)
            buf_printf(&p->result, "%s: %s", status_name(st), d.msg);
    }
    builder_maps_done(&m);
    buf_done(&text);
}

void bview_saved_list(bview *p)
{
    saved_cond *v = NULL;
    size_t n = 0;
    diag d;
    diag_init(&d);
    buf_reset(&p->saved);
    if (saved_list(display_store(), &v, &n, &d) != ST_OK) {
        display_diag(NULL, d.code, &d);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        buf_printf(&p->saved, "%s%s [%s]: %s", i ? "\n" : "", v[i].name, v[i].kind, v[i].expr);
        saved_cond_free(&v[i]);
    }
    if (!n)
        buf_adds(&p->saved, "(none saved yet: :save-cond NAME)");
    free(v);
}

void bview_saved_put(bview *p, const char *name)
{
    bmaps m;
    buf text = BUF_INIT, names = BUF_INIT, values = BUF_INIT;
    diag d;
    diag_init(&d);
    builder_maps_init(&m);
    if (builder_empty(p->b)) {
        display_error("Nothing to save: the tree is empty");
    } else if (builder_print(p->b, &m, &text, &d) != ST_OK) {
        display_diag(NULL, d.code, &d);
    } else {
        builder_maps_names_json(&m, &names);
        builder_maps_values_json(&m, &values);
        saved_cond c = { .name = (char *)name, .kind = (char *)bview_mode_names[p->mode], .expr = text.data,
                         .names = names.data ? names.data : "", .values = values.data ? values.data : "" };
        if (saved_put(display_store(), &c, &d) != ST_OK)
            display_diag(NULL, d.code, &d);
        else
            display_message("Saved %s", name);
        if (p->saved.len)
            bview_saved_list(p);
    }
    builder_maps_done(&m);
    buf_done(&text);
    buf_done(&names);
    buf_done(&values);
}

void bview_saved_load(bview *p, const char *name)
{
    saved_cond c;
    bool found = false;
    diag d;
    diag_init(&d);
    if (saved_get(display_store(), name, &c, &found, &d) != ST_OK) {
        display_diag(NULL, d.code, &d);
        return;
    }
    if (!found) {
        display_error("No saved condition %s (:conds lists them)", name);
        return;
    }
    int k = expr_kind_from_name(c.kind);
    bmode m = k == EXPR_KEY ? M_KEY : k == EXPR_FILTER ? M_FILTER : M_COND;
    builder *nb = NULL;
    if (builder_parse(bview_mode_kind(m), c.expr, c.names, c.values, &nb, &d) != ST_OK) {
        bview_parse_error(p, "Saved condition not parsed", c.expr, &d);
    } else {
        builder_free(p->b);
        p->b = nb;
        p->mode = m;
        display_message("Loaded %s", name);
    }
    saved_cond_free(&c);
}

void bview_saved_delete(bview *p, const char *name)
{
    bool found = false;
    diag d;
    diag_init(&d);
    if (saved_delete(display_store(), name, &found, &d) != ST_OK)
        display_diag(NULL, d.code, &d);
    else if (!found)
        display_error("No saved condition %s", name);
    else
        display_message("Deleted %s", name);
    if (p->saved.len)
        bview_saved_list(p);
}

/* Shows a parse error with its caret in the result pane. */
void bview_parse_error(bview *p, const char *what, const char *text, const diag *d)
{
    buf_reset(&p->result);
    p->result_error = true;
    buf_printf(&p->result, "%s: %s%s%s", status_name(d->code), d->file[0] ? d->file : "",
               d->file[0] ? ": " : "", d->msg);
    if (text && d->pos >= 0 && !d->file[0]) {
        buf_printf(&p->result, "\n%s\n", text);
        size_t n = strlen(text);
        size_t at = (size_t)d->pos > n ? n : (size_t)d->pos;
        for (int w = text_width(text, at); w > 0; w--)
            buf_addc(&p->result, ' ');
        buf_addc(&p->result, '^');
    }
    display_diag(what, d->code, d);
}

