/*
 * view_builder_txn — the transaction the builder collects: `:txn add`
 * appends the action of the builder it is typed in, `:txn run` sends
 * every action collected as one TransactWriteItems, `:txn clear` drops
 * them. The actions outlive the builder that added them (one builder per
 * item, several items in one transaction), so they are this file's state,
 * read by the panel through btxn_count and btxn_label, and changed by the
 * `t` key (view_builder_pick.c) and the `T` view (view_builder_pending.c)
 * through btxn_push, btxn_replace, btxn_remove and btxn_run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/staging.h"

/* The actions collected (a DDB_TRANSACT_WRITE whose acts are the Puts,
 * Updates, Deletes and ConditionChecks) and a label for each. */
static ddb_req txn;
static bool txn_live;
static char **txn_labels;

size_t btxn_count(void)
{
    return txn_live ? txn.n_acts : 0;
}

size_t view_txn_pending(void)
{
    return btxn_count();
}

const char *btxn_label(size_t i)
{
    return i < btxn_count() ? txn_labels[i] : "?";
}

const ddb_req *btxn_act(size_t i)
{
    return i < btxn_count() ? &txn.acts[i] : NULL;
}

void btxn_clear(void)
{
    for (size_t i = 0; i < btxn_count(); i++)
        free(txn_labels[i]);
    free(txn_labels);
    txn_labels = NULL;
    if (txn_live)
        ddb_req_done(&txn);
    txn_live = false;
}

void btxn_push(ddb_req *act, char *label)
{
    if (!txn_live)
        ddb_req_init(&txn, DDB_TRANSACT_WRITE);
    txn_live = true;
    ddb_req *slot = ddb_req_add(&txn, act->kind);
    ddb_req_done(slot);
    *slot = *act;
    ddb_req_init(act, act->kind);
    txn_labels = xrealloc(txn_labels, txn.n_acts * sizeof *txn_labels);
    txn_labels[txn.n_acts - 1] = label;
}

void btxn_replace(size_t i, ddb_req *act)
{
    if (i >= btxn_count())
        return;
    ddb_req_done(&txn.acts[i]);
    txn.acts[i] = *act;
    ddb_req_init(act, act->kind);
}

void btxn_remove(size_t i)
{
    if (i >= btxn_count())
        return;
    if (btxn_count() == 1) {
        btxn_clear();
        return;
    }
    ddb_req_done(&txn.acts[i]);
    free(txn_labels[i]);
    memmove(&txn.acts[i], &txn.acts[i + 1], (txn.n_acts - i - 1) * sizeof txn.acts[0]);
    memmove(&txn_labels[i], &txn_labels[i + 1], (txn.n_acts - i - 1) * sizeof txn_labels[0]);
    txn.n_acts--;
}

/* :txn add OP: the builder's request for OP as one more action. */
static void txn_add(bview *p, const char *opname)
{
    int op = bview_op_by_name(opname);
    breq r;
    av key;
    buf why = BUF_INIT, label = BUF_INIT;
    diag d;
    diag_init(&d);
    key.type = AV_NONE;
    if (op < 0) {
        buf_printf(&p->result, "usage: :txn add put|update|delete|check");
    } else if (!bview_make_req(p, (breq_op)op, &r, &key, &why)) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name((breq_op)op), why.data);
    } else {
        ddb_req act;
        if (builder_req_typed(&r, &act, &d) != ST_OK) {
            buf_printf(&p->result, "%s: %s", builder_req_op_name((breq_op)op), d.msg);
        } else {
            buf_printf(&label, "%s %s ", builder_req_txn_name((breq_op)op), p->table);
            fmt_key(&label, &p->item, p->def.pk.name, p->def.sk.name);
            btxn_push(&act, buf_steal(&label));
            ddb_req_done(&act);
            size_t n = btxn_count();
            p->result_error = false;
            buf_printf(&p->result, "Added to the transaction (%zu action%s)", n, n == 1 ? "" : "s");
        }
    }
    av_done(&key);
    buf_done(&why);
    buf_done(&label);
}

/* Each cancelled action with its reason, and the item as it is when
 * ReturnValuesOnConditionCheckFailure ALL_OLD returned one (written as
 * DynamoDB JSON, so control characters reach the screen escaped). */
static void txn_reasons(buf *out, const ddb_err *err)
{
    for (size_t i = 0; i < err->n_reasons; i++) {
        const ddb_reason *r = &err->reasons[i];
        buf_printf(out, "\n%zu. %s: %s", i + 1, btxn_label(i), r->code ? r->code : "");
        if (r->message && *r->message)
            buf_printf(out, " (%s)", r->message);
        if (r->item.type == AV_M) {
            buf_adds(out, "\n   the item now: ");
            ddbjson_write_item(out, &r->item);
        } else if (r->code && strcmp(r->code, "ConditionalCheckFailed") == 0) {
            buf_adds(out, "\n   no item under this key now");
        }
    }
}

bool btxn_run(buf *out, bool ask)
{
    size_t n = btxn_count();
    if (!n) {
        buf_adds(out, "The transaction is empty (t adds the selected item; :txn add in the builder)");
        return false;
    }
    /* One question says all there is to know: where it goes (a remote
     * endpoint), and that the transaction is the builder's own
     * all-or-nothing write, not staged even when staging is on. */
    store_info info;
    store_get_info(display_store(), &info);
    if (ask || staging_on() || info.remote) {
        buf q = BUF_INIT;
        buf_printf(&q, "Run %zu action%s as one TransactWriteItems", n, n == 1 ? "" : "s");
        if (info.remote)
            buf_printf(&q, " on %s", info.where);
        if (staging_on())
            buf_adds(&q, " (staging is on: it is written now, not staged)");
        buf_addc(&q, '?');
        bool yes = display_confirm("%s", q.data);
        buf_done(&q);
        if (!yes) {
            buf_adds(out, "Not sent");
            return false;
        }
    }
    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    status st = display_exec_approved(&txn, &res, &err);
    if (st == ST_OK) {
        buf_printf(out, "TransactWriteItems: OK, %zu action%s applied together", n, n == 1 ? "" : "s");
        display_message("TransactWriteItems: OK");
        btxn_clear();
    } else {
        display_ddb_err_text(out, NULL, &err);
        display_ddb_err(NULL, &err);
        txn_reasons(out, &err);
    }
    ddb_res_done(&res);
    ddb_err_done(&err);
    return st == ST_OK;
}

/* :txn run: every action collected, as one TransactWriteItems. */
static void txn_run(view *v)
{
    bview *p = v->priv;
    if (btxn_run(&p->result, false)) {
        p->result_error = false;
        bview_refresh_item(p);
        bview_reload_below(v);
    }
}

void btxn_command(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    buf_reset(&p->result);
    p->result_error = true;
    if (argc >= 3 && strcmp(argv[1], "add") == 0) {
        txn_add(p, argv[2]);
    } else if (argc == 2 && strcmp(argv[1], "clear") == 0) {
        btxn_clear();
        p->result_error = false;
        buf_adds(&p->result, "Transaction cleared");
    } else if (argc == 2 && strcmp(argv[1], "run") == 0) {
        txn_run(v);
    } else {
        buf_adds(&p->result, "usage: :txn add put|update|delete|check | :txn run | :txn clear");
    }
}
