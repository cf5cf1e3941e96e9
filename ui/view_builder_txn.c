/*
 * view_builder_txn — the transaction the builder collects: `:txn add`
 * appends the action of the builder it is typed in, `:txn run` sends
 * every action collected as one TransactWriteItems, `:txn clear` drops
 * them. The actions outlive the builder that added them (one builder per
 * item, several items in one transaction), so they are this file's state,
 * read by the panel through btxn_count and btxn_label.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/jscan.h"

/* The actions collected: TransactItems elements and their labels. */
static char **txn_items, **txn_labels;
static size_t txn_n;

size_t btxn_count(void)
{
    return txn_n;
}

const char *btxn_label(size_t i)
{
    return i < txn_n ? txn_labels[i] : "?";
}

static void txn_clear(void)
{
    for (size_t i = 0; i < txn_n; i++) {
        free(txn_items[i]);
        free(txn_labels[i]);
    }
    free(txn_items);
    free(txn_labels);
    txn_items = txn_labels = NULL;
    txn_n = 0;
}

/* Takes body and label. */
static void txn_push(char *body, char *label)
{
    txn_items = xrealloc(txn_items, (txn_n + 1) * sizeof *txn_items);
    txn_labels = xrealloc(txn_labels, (txn_n + 1) * sizeof *txn_labels);
    txn_items[txn_n] = body;
    txn_labels[txn_n] = label;
    txn_n++;
}

/* :txn add OP: the builder's request for OP as one more action. */
static void txn_add(bview *p, const char *opname)
{
    int op = bview_op_by_name(opname);
    breq r;
    av key;
    buf why = BUF_INIT, body = BUF_INIT, label = BUF_INIT;
    diag d;
    diag_init(&d);
    if (op < 0) {
        buf_printf(&p->result, "usage: :txn add put|update|delete|check");
    } else if (!bview_make_req(p, (breq_op)op, &r, &key, &why)) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name((breq_op)op), why.data);
    } else if (builder_req_txn_json(&r, &body, &d) != ST_OK) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name((breq_op)op), d.msg);
    } else {
        buf_printf(&label, "%s %s ", builder_req_txn_name((breq_op)op), p->table);
        fmt_key(&label, &p->item, p->def.pk.name, p->def.sk.name);
        txn_push(buf_steal(&body), buf_steal(&label));
        p->result_error = false;
        buf_printf(&p->result, "Added to the transaction (%zu action%s)", txn_n, txn_n == 1 ? "" : "s");
    }
    av_free(&key);
    buf_done(&why);
    buf_done(&body);
    buf_done(&label);
}

/* Each cancelled action with its reason, and the item as it is when
 * ReturnValuesOnConditionCheckFailure ALL_OLD returned one. */
static void txn_reasons(bview *p, const char *out)
{
    const char *arr, *el;
    size_t an, en, pos = 0, i = 0;
    if (!out || !jscan_member(out, strlen(out), "CancellationReasons", &arr, &an))
        return;
    while (jscan_next(arr, an, &pos, &el, &en)) {
        const char *c, *m;
        size_t cn, mn;
        bool hc = jscan_member(el, en, "Code", &c, &cn);
        bool hm = jscan_member(el, en, "Message", &m, &mn);
        buf_printf(&p->result, "\n%zu. %s: ", i + 1, i < txn_n ? txn_labels[i] : "?");
        /* Code and Message are JSON strings: drop the quotes. */
        if (hc)
            buf_add(&p->result, c + 1, cn >= 2 ? cn - 2 : 0);
        if (hm && mn > 2)
            buf_printf(&p->result, " (%.*s)", (int)(mn - 2), m + 1);
        /* ReturnValuesOnConditionCheckFailure ALL_OLD: the
         * item as it is, parsed so only DynamoDB JSON (with
         * control characters escaped) reaches the screen. */
        const char *it;
        size_t itn;
        av item;
        diag id;
        diag_init(&id);
        if (jscan_member(el, en, "Item", &it, &itn) &&
            ddbjson_parse_item(it, itn, &item, &id) == ST_OK) {
            buf_adds(&p->result, "\n   the item now: ");
            ddbjson_write_item(&p->result, &item);
            av_free(&item);
        } else if (hc && cn == 24 && memcmp(c + 1, "ConditionalCheckFailed", 22) == 0) {
            buf_adds(&p->result, "\n   no item under this key now");
        }
        i++;
    }
}

/* :txn run: every action collected, as one TransactWriteItems. */
static void txn_run(view *v)
{
    bview *p = v->priv;
    if (!txn_n) {
        buf_adds(&p->result, "The transaction is empty (:txn add put|update|delete|check)");
        return;
    }
    buf req = BUF_INIT;
    buf_adds(&req, "{\"TransactItems\":[");
    for (size_t i = 0; i < txn_n; i++) {
        if (i)
            buf_addc(&req, ',');
        buf_adds(&req, txn_items[i]);
    }
    buf_adds(&req, "]}");
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(display_store(), "TransactWriteItems", req.data, req.len, &out, &d);
    if (st == ST_OK) {
        p->result_error = false;
        buf_printf(&p->result, "TransactWriteItems: OK, %zu actions applied together", txn_n);
        display_message("TransactWriteItems: OK");
        txn_clear();
        bview_refresh_item(p);
        bview_reload_below(v);
    } else {
        buf_printf(&p->result, "%s: %s", status_name(st), d.msg);
        display_error("%s", status_name(st));
        txn_reasons(p, out);
    }
    free(out);
    buf_done(&req);
}

void btxn_command(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    buf_reset(&p->result);
    p->result_error = true;
    if (argc >= 3 && strcmp(argv[1], "add") == 0) {
        txn_add(p, argv[2]);
    } else if (argc == 2 && strcmp(argv[1], "clear") == 0) {
        txn_clear();
        p->result_error = false;
        buf_adds(&p->result, "Transaction cleared");
    } else if (argc == 2 && strcmp(argv[1], "run") == 0) {
        txn_run(v);
    } else {
        buf_adds(&p->result, "usage: :txn add put|update|delete|check | :txn run | :txn clear");
    }
}
