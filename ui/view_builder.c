/*
 * view_builder — the condition-expression builder (model/builder.h) as a
 * form: the tree of clauses (and the update rows) on the left, and on the
 * right, live, what DynamoDB receives: the expression, its
 * ExpressionAttributeNames and ExpressionAttributeValues, the verdict of
 * each clause against the item with the reason, the request JSON and the
 * aws CLI line, the transaction being collected and the last result.
 *
 * It opens from the table or item view (key `c`, on the selected item) or
 * with `:cond [EXPR]`. Its requests and commands are listed in
 * ui/request.h and ui/command.h. Writes go through store_call, so a
 * refused condition shows ConditionalCheckFailedException and, with
 * ReturnValuesOnConditionCheckFailure ALL_OLD, the item as it is now.
 * Filters and key conditions go to the query bar (view_query).
 *
 * The transaction being collected is module state (txn_*), so actions on
 * several items, each from its own builder, can go into one
 * TransactWriteItems.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/saved.h"
#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/jscan.h"
#include "ui/text.h"
#include "ui/view.h"

enum { L_NODE = 1, L_UHEAD, L_UROW, L_PAD };
typedef enum { M_COND, M_FILTER, M_KEY } bmode;
static const char *const mode_names[] = { "condition", "filter", "key" };

typedef struct bline {
    size_t idx;          /* L_NODE: index into nodes; L_UROW: update row */
} bline;

typedef struct pline {
    role r;
    char *text;
} pline;

typedef struct bview {
    char *table, *index;
    table_def def;
    bool have_def;
    av item;             /* AV_NONE: no item */
    av stored;           /* the item stored under item's key now (AV_NONE: none) */
    bool have_stored;    /* stored was looked up (table and key known) */
    builder *b;
    bupdate upd;
    bmode mode;
    int act;             /* breq_op of the action shown; -1: by mode */
    /* derived by rebuild() */
    const bnode **nodes;
    int *depths;
    size_t n_nodes;
    bverdict verdict;
    bool have_verdict;
    const bnode *bad;    /* the node DynamoDB's refusal points at */
    pline *panel;
    size_t n_panel, cap_panel;
    /* wrapped panel for the width last drawn */
    pline *wrapped;
    size_t n_wrapped;
    int wrapped_width;
    /* The panel has the keys (Tab): the moving keys scroll it, and below
     * 120 columns it takes the whole width. */
    bool panel_focus;
    /* The paths a path prompt offers (builder_pick_paths), by rebuild(). */
    char **picks;
    size_t n_picks;
    size_t panel_top;    /* first wrapped panel row shown */
    buf result;          /* the last action's outcome, lines */
    bool result_error;
    buf saved;           /* the saved conditions, when listed */
} bview;

static const av *verdict_item(const bview *p);

/* At most this many paths offered (an item is at most 400 KB). */
#define PICKS_MAX 1000

/* The builder whose keys are being handled: its paths are what a path
 * prompt offers (set by request and command). */
static const bview *picking;

/* The transaction being collected: TransactItems elements and labels. */
static char **txn_items, **txn_labels;
static size_t txn_n;

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

/* ---- helpers ------------------------------------------------------------- */

static expr_kind mode_kind(bmode m)
{
    return m == M_KEY ? EXPR_KEY : m == M_FILTER ? EXPR_FILTER : EXPR_CONDITION;
}

static breq_op action(const bview *p)
{
    if (p->act >= 0)
        return (breq_op)p->act;
    if (p->mode == M_KEY)
        return BREQ_QUERY;
    if (p->mode == M_FILTER)
        return BREQ_SCAN;
    return p->upd.n ? BREQ_UPDATE : BREQ_PUT;
}

static bool have_item(const bview *p)
{
    return p->item.type == AV_M;
}

/* The table key of the item (Update, Delete, ConditionCheck); false with
 * a message when the table or a key attribute is missing. */
static bool item_key(bview *p, av *out, buf *why)
{
    out->type = AV_NONE;
    if (!p->have_def || !have_item(p)) {
        buf_adds(why, p->have_def ? "no item (open the builder on one, or :cond-item JSON)"
                                  : "no table (:cond-table NAME)");
        return false;
    }
    const char *names[2] = { p->def.pk.name, p->def.sk.name };
    av_init_list(out, AV_M);
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        const av *v = av_map_get(&p->item, names[i], strlen(names[i]));
        if (!v) {
            buf_printf(why, "the item has no key attribute %s", names[i]);
            av_free(out);
            return false;
        }
        av c;
        av_copy(&c, v);
        av_map_put(out, names[i], strlen(names[i]), &c);
    }
    return true;
}

/* Fills a request for op; the key (for Update/Delete/Check) goes in *key,
 * which the caller frees. False with *why when it can not be made. */
static bool make_req(bview *p, breq_op op, breq *r, av *key, buf *why)
{
    memset(r, 0, sizeof *r);
    key->type = AV_NONE;
    r->op = op;
    r->table = p->table;
    r->index = p->index;
    r->all_old_on_fail = true;
    if (!p->table) {
        buf_adds(why, "no table (:cond-table NAME)");
        return false;
    }
    switch (op) {
    case BREQ_PUT:
        if (!have_item(p)) {
            buf_adds(why, "no item to put (:cond-item JSON, or e to edit one)");
            return false;
        }
        r->item = &p->item;
        r->cond = p->b;
        break;
    case BREQ_UPDATE:
    case BREQ_DELETE:
    case BREQ_CHECK:
        if (!item_key(p, key, why))
            return false;
        r->item = key;
        r->cond = p->b;
        r->update = &p->upd;
        break;
    case BREQ_QUERY:
        r->keycond = p->b;
        break;
    case BREQ_SCAN:
        r->cond = p->b;
        break;
    }
    return true;
}

/* A clause in words, values shown (not placeholders). */
static void opnd_label(buf *out, const bopnd *o)
{
    switch (o->kind) {
    case BO_PATH:
    case BO_SIZE:
    case BO_IF_NOT_EXISTS:
        if (o->kind != BO_PATH)
            buf_adds(out, o->kind == BO_SIZE ? "size(" : "if_not_exists(");
        if (o->path.n)
            builder_path_text(&o->path, out);
        else
            buf_adds(out, "?path");
        if (o->kind == BO_IF_NOT_EXISTS) {
            buf_adds(out, ", ");
            if (o->n_sub)
                opnd_label(out, &o->sub[0]);
            else if (o->value.type)
                ddbjson_write_value(out, &o->value);
            else
                buf_adds(out, "?value");
        }
        if (o->kind != BO_PATH)
            buf_addc(out, ')');
        break;
    case BO_LIST_APPEND:
        buf_adds(out, "list_append(");
        for (size_t i = 0; i < o->n_sub; i++) {
            if (i)
                buf_adds(out, ", ");
            opnd_label(out, &o->sub[i]);
        }
        buf_addc(out, ')');
        break;
    case BO_VALUE:
        if (o->value.type == AV_NONE) {
            buf_adds(out, "?value");
        } else if (o->value.type == AV_S) {
            ddbjson_write_string(out, o->value.u.s.ptr, o->value.u.s.len);
        } else if (o->value.type == AV_N) {
            fmt_plain(out, &o->value);
        } else {
            ddbjson_write_value(out, &o->value);
        }
        break;
    }
}

static void node_label(buf *out, const bnode *n)
{
    if (n->neg)
        buf_adds(out, "NOT ");
    if (n->group) {
        buf_printf(out, "%s (%zu)", n->is_or ? "OR" : "AND", n->n_kids);
        return;
    }
    if (n->op >= BOP_EXISTS) {
        buf_printf(out, "%s(", builder_op_name(n->op));
        opnd_label(out, &n->left);
        for (size_t i = 0; i < n->n_args; i++) {
            buf_adds(out, ", ");
            opnd_label(out, &n->args[i]);
        }
        buf_addc(out, ')');
        return;
    }
    opnd_label(out, &n->left);
    buf_printf(out, " %s ", builder_op_name(n->op));
    if (n->op == BOP_IN)
        buf_addc(out, '(');
    for (size_t i = 0; i < n->n_args; i++) {
        if (i)
            buf_adds(out, n->op == BOP_BETWEEN ? " AND " : ", ");
        opnd_label(out, &n->args[i]);
    }
    if (n->op == BOP_IN)
        buf_addc(out, ')');
}

static void row_label(buf *out, const baction *a)
{
    buf_printf(out, "%s ", builder_update_kind_name(a->kind));
    if (a->path.n)
        builder_path_text(&a->path, out);
    else
        buf_adds(out, "?path");
    switch (a->kind) {
    case BU_REMOVE:
        return;
    case BU_ADD:
    case BU_DELETE:
        buf_addc(out, ' ');
        opnd_label(out, &a->a);
        return;
    case BU_SET:
        buf_adds(out, " = ");
        if (a->form == BF_LIST_APPEND)
            buf_adds(out, "list_append(");
        opnd_label(out, &a->a);
        if (a->form != BF_PLAIN) {
            buf_adds(out, a->form == BF_PLUS ? " + " : a->form == BF_MINUS ? " - " : ", ");
            opnd_label(out, &a->b);
        }
        if (a->form == BF_LIST_APPEND)
            buf_addc(out, ')');
        return;
    }
}

/* ---- the panel ----------------------------------------------------------- */

static void pl(bview *p, role r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pl(bview *p, role r, const char *fmt, ...)
{
    if (p->n_panel == p->cap_panel) {
        p->cap_panel = p->cap_panel ? 2 * p->cap_panel : 32;
        p->panel = xrealloc(p->panel, p->cap_panel * sizeof *p->panel);
    }
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    p->panel[p->n_panel].r = r;
    p->panel[p->n_panel].text = b.data ? buf_steal(&b) : xstrdup("");
    p->n_panel++;
    buf_done(&b);
}

/* Adds each line of text (split at '\n') indented by two spaces. */
static void pl_text(bview *p, role r, const char *text)
{
    const char *s = text;
    while (s) {
        const char *nl = strchr(s, '\n');
        int n = nl ? (int)(nl - s) : (int)strlen(s);
        pl(p, r, "  %.*s", n, s);
        s = nl ? nl + 1 : NULL;
    }
}

static void panel_free(bview *p)
{
    for (size_t i = 0; i < p->n_panel; i++)
        free(p->panel[i].text);
    p->n_panel = 0;
    for (size_t i = 0; i < p->n_wrapped; i++)
        free(p->wrapped[i].text);
    free(p->wrapped);
    p->wrapped = NULL;
    p->n_wrapped = 0;
    p->wrapped_width = -1;
}

/* The expression with a caret under byte pos. */
static void pl_caret(bview *p, const char *text, long pos)
{
    pl(p, ROLE_NORMAL, "  %s", text);
    buf c = BUF_INIT;
    buf_adds(&c, "  ");
    size_t n = strlen(text);
    size_t at = pos < 0 ? 0 : (size_t)pos > n ? n : (size_t)pos;
    for (int w = text_width(text, at); w > 0; w--)
        buf_addc(&c, ' ');
    buf_addc(&c, '^');
    pl(p, ROLE_ERROR, "%s", c.data);
    buf_done(&c);
}

static void build_panel(bview *p)
{
    panel_free(p);
    breq_op op = action(p);
    buf b = BUF_INIT;
    if (have_item(p) && p->have_def)
        fmt_key(&b, &p->item, p->def.pk.name, p->def.sk.name);
    pl(p, ROLE_NORMAL, "Mode: %s   Action: %s   Table: %s%s%s", mode_names[p->mode],
       builder_req_op_name(op), p->table ? p->table : "(none)",
       p->index ? " index " : "", p->index ? p->index : "");
    pl(p, ROLE_NORMAL, "Item: %s", have_item(p) ? (b.len ? b.data : "(no key)") : "(none)");
    buf_reset(&b);
    /* Paths to pick from: the keys of the table and its indexes, then
     * the item's paths, nested ones included (Tab in a path prompt). */
    if (p->n_picks) {
        buf paths = BUF_INIT;
        for (size_t i = 0; i < p->n_picks; i++)
            buf_printf(&paths, "%s%s", i ? " " : "", p->picks[i]);
        pl(p, ROLE_DIM, "Paths (Tab picks): %s", paths.data);
        buf_done(&paths);
    }
    /* The last action's outcome first, where it is always seen. */
    if (p->result.len) {
        pl(p, ROLE_COLHEAD, "Result");
        pl_text(p, p->result_error ? ROLE_ERROR : ROLE_KEY, p->result.data);
    }

    /* The expressions and their maps, as one request carries them: the
     * update rows first (DynamoDB's order), then the condition. */
    bmaps m;
    diag d;
    diag_init(&d);
    builder_maps_init(&m);
    buf u = BUF_INIT;
    diag ud;
    diag_init(&ud);
    status ust = ST_OK;
    if (p->upd.n && op == BREQ_UPDATE)
        ust = builder_update_print(&p->upd, &m, &u, &ud);
    status st = builder_print(p->b, &m, &b, &d);
    if (p->upd.n) {
        pl(p, ROLE_COLHEAD, "UpdateExpression%s", op == BREQ_UPDATE ? "" : " (UpdateItem only)");
        if (ust)
            pl(p, ROLE_ERROR, "  %s", ud.msg);
        else if (u.len)
            pl_text(p, ROLE_NORMAL, u.data);
        else
            pl(p, ROLE_DIM, "  (not part of a %s)", builder_req_op_name(op));
    }
    buf_done(&u);
    pl(p, ROLE_COLHEAD, "%s", expr_kind_param(mode_kind(p->mode)));
    if (st) {
        pl(p, ROLE_ERROR, "  %s", d.msg);
    } else if (!b.len) {
        pl(p, ROLE_DIM, "  (empty: + adds a clause, :cond EXPR parses one)");
    } else {
        pl_text(p, ROLE_NORMAL, b.data);
    }
    buf names = BUF_INIT, values = BUF_INIT;
    builder_maps_names_json(&m, &names);
    builder_maps_values_json(&m, &values);
    pl(p, ROLE_COLHEAD, "ExpressionAttributeNames");
    pl_text(p, names.len ? ROLE_NORMAL : ROLE_DIM, names.len ? names.data : "(none needed)");
    pl(p, ROLE_COLHEAD, "ExpressionAttributeValues");
    pl_text(p, values.len ? ROLE_NORMAL : ROLE_DIM, values.len ? values.data : "(none needed)");
    builder_maps_done(&m);

    /* The verdict, or DynamoDB's refusal with a caret. */
    if (!st && b.len) {
        if (p->have_verdict) {
            pl(p, p->verdict.ok ? ROLE_KEY : ROLE_ERROR, "Verdict on %s: %s",
               p->have_stored ? (p->stored.type == AV_M ? "the item stored under this key"
                                                        : "no item (none stored under this key)")
                              : have_item(p) ? "the item" : "no item",
               p->verdict.ok ? "TRUE" : "FALSE");
            for (size_t i = 0; i < p->verdict.n; i++) {
                const bverdict_entry *e = &p->verdict.v[i];
                if (i == 0 && e->node->group && e->node->n_kids == 1)
                    continue;   /* the root of a single clause says nothing */
                pl(p, e->verdict ? ROLE_NORMAL : ROLE_DIM, "  %*s[%s] %s -- %s", 2 * e->depth, "",
                   e->verdict ? "true " : "false", e->text, e->why);
            }
        } else {
            diag vd;
            diag_init(&vd);
            bverdict tmp;
            buf alone = BUF_INIT;
            bmaps am;
            builder_maps_init(&am);
            builder_print(p->b, &am, &alone, &vd);
            if (builder_verdict(p->b, mode_kind(p->mode), verdict_item(p), &tmp, &vd)) {
                pl(p, ROLE_ERROR, "ValidationException: %s", vd.msg);
                pl_caret(p, alone.data ? alone.data : "", vd.pos);
            } else {
                builder_verdict_done(&tmp);
            }
            builder_maps_done(&am);
            buf_done(&alone);
        }
    }

    /* The whole request, as JSON and as an aws CLI line. */
    breq r;
    av key;
    buf why = BUF_INIT, json = BUF_INIT, cli = BUF_INIT;
    pl(p, ROLE_COLHEAD, "Request (%s)", builder_req_op_name(op));
    if (!make_req(p, op, &r, &key, &why)) {
        pl(p, ROLE_DIM, "  %s", why.data);
    } else {
        diag rd;
        diag_init(&rd);
        if (builder_req_json(&r, &json, &rd) || builder_req_cli(&r, &cli, &rd)) {
            pl(p, ROLE_ERROR, "  %s", rd.msg);
        } else {
            pl_text(p, ROLE_NORMAL, json.data);
            pl(p, ROLE_COLHEAD, "aws CLI");
            pl_text(p, ROLE_NORMAL, cli.data);
            buf pq = BUF_INIT;
            if (builder_req_partiql(&r, &pq, &rd) == ST_OK) {
                pl(p, ROLE_COLHEAD, "PartiQL");
                pl_text(p, ROLE_NORMAL, pq.data);
            }
            buf_done(&pq);
        }
    }
    av_free(&key);
    buf_done(&why);
    buf_done(&json);
    buf_done(&cli);

    if (txn_n) {
        pl(p, ROLE_COLHEAD, "Transaction (%zu action%s; :txn run sends it)", txn_n, txn_n == 1 ? "" : "s");
        for (size_t i = 0; i < txn_n; i++)
            pl(p, ROLE_NORMAL, "  %zu. %s", i + 1, txn_labels[i]);
    }
    if (p->saved.len) {
        pl(p, ROLE_COLHEAD, "Saved conditions");
        pl_text(p, ROLE_NORMAL, p->saved.data);
    }
    buf_done(&names);
    buf_done(&values);
    buf_done(&b);
}

/* Splits the panel into rows of at most width columns. */
static void wrap_panel(bview *p, int width)
{
    if (p->wrapped_width == width)
        return;
    for (size_t i = 0; i < p->n_wrapped; i++)
        free(p->wrapped[i].text);
    p->n_wrapped = 0;
    size_t cap = p->n_panel + 8;
    p->wrapped = xrealloc(p->wrapped, cap * sizeof *p->wrapped);
    if (width < 8)
        width = 8;
    for (size_t i = 0; i < p->n_panel; i++) {
        const char *s = p->panel[i].text;
        size_t len = strlen(s), at = 0;
        bool cont = false;
        do {
            /* Continuation rows are indented by four columns. */
            int room = cont ? width - 4 : width;
            size_t end = at;
            int w = 0;
            while (end < len) {
                uint32_t cp;
                size_t k = text_decode(s + end, len - end, &cp);
                int cw = text_cp_width(cp);
                if (w + cw > room)
                    break;
                w += cw;
                end += k;
            }
            if (end == at && end < len) {
                uint32_t cp;
                end += text_decode(s + end, len - end, &cp);
            }
            if (p->n_wrapped == cap) {
                cap *= 2;
                p->wrapped = xrealloc(p->wrapped, cap * sizeof *p->wrapped);
            }
            buf row = BUF_INIT;
            if (cont)
                buf_adds(&row, "    ");
            buf_add(&row, s + at, end - at);
            p->wrapped[p->n_wrapped].r = p->panel[i].r;
            p->wrapped[p->n_wrapped].text = row.data ? buf_steal(&row) : xstrdup("");
            p->n_wrapped++;
            buf_done(&row);
            at = end;
            cont = true;
        } while (at < len);
    }
    p->wrapped_width = width;
}

/* What DynamoDB evaluates a condition against: the item stored under
 * the builder item's key (a Put of a new item sees none), else the item
 * itself when there is no table to look in. */
static void load_stored(bview *p)
{
    av_free(&p->stored);
    p->have_stored = false;
    av key;
    buf why = BUF_INIT, req = BUF_INIT;
    if (!p->table || !item_key(p, &key, &why))
        goto out;
    buf_adds(&req, "{\"TableName\":");
    ddbjson_write_string(&req, p->table, strlen(p->table));
    buf_adds(&req, ",\"Key\":");
    ddbjson_write_item(&req, &key);
    buf_adds(&req, ",\"ConsistentRead\":true}");
    char *out = NULL;
    diag d;
    diag_init(&d);
    if (store_call(display_store(), "GetItem", req.data, req.len, &out, &d) == ST_OK) {
        const char *it;
        size_t n;
        p->have_stored = true;
        diag_init(&d);
        if (out && jscan_member(out, strlen(out), "Item", &it, &n) &&
            ddbjson_parse_item(it, n, &p->stored, &d) != ST_OK)
            p->stored.type = AV_NONE;
    }
    free(out);
    av_free(&key);
out:
    buf_done(&why);
    buf_done(&req);
}

static const av *verdict_item(const bview *p)
{
    if (p->have_stored)
        return p->stored.type == AV_M ? &p->stored : NULL;
    return have_item(p) ? &p->item : NULL;
}

/* ---- rebuild --------------------------------------------------------------- */

static void add_line(view *v, int kind, size_t idx)
{
    bline *l = xcalloc(1, sizeof *l);
    l->idx = idx;
    vm_append(&v->vm, kind, l);
}

static size_t n_left(const bview *p)
{
    return p->n_nodes + 1 + p->upd.n;
}

/* Recomputes the walk, the verdict, the panel and the lines; keeps the
 * selection at line `sel` (clamped to the selectable lines). */
static void rebuild(view *v, size_t sel)
{
    bview *p = v->priv;
    free(p->nodes);
    free(p->depths);
    builder_walk(p->b, &p->nodes, &p->depths, &p->n_nodes);
    if (p->have_verdict)
        builder_verdict_done(&p->verdict);
    p->have_verdict = false;
    p->bad = NULL;
    diag d;
    diag_init(&d);
    load_stored(p);
    builder_paths_free(p->picks, p->n_picks);
    builder_pick_paths(p->have_def ? &p->def : NULL,
                       verdict_item(p) ? verdict_item(p) : have_item(p) ? &p->item : NULL,
                       PICKS_MAX, &p->picks, &p->n_picks);
    if (builder_verdict(p->b, mode_kind(p->mode), verdict_item(p), &p->verdict, &d) == ST_OK)
        p->have_verdict = true;
    else if (d.pos >= 0)
        p->bad = builder_node_at(p->b, d.pos);
    build_panel(p);
    vm_clear(&v->vm);
    for (size_t i = 0; i < p->n_nodes; i++)
        add_line(v, L_NODE, i);
    add_line(v, L_UHEAD, 0);
    for (size_t i = 0; i < p->upd.n; i++)
        add_line(v, L_UROW, i);
    /* Pad so every screen row is drawn (the panel is drawn beside). */
    size_t want = (size_t)(term_rows() > 0 ? term_rows() : 24);
    while (v->vm.n < want)
        add_line(v, L_PAD, 0);
    size_t last = n_left(p) - 1;
    vm_select(&v->vm, sel > last ? last : sel);
}

static size_t line_of_node(const bview *p, const bnode *n)
{
    for (size_t i = 0; i < p->n_nodes; i++)
        if (p->nodes[i] == n)
            return i;
    return 0;
}

static bnode *sel_node(view *v)
{
    bview *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (!l || l->kind != L_NODE)
        return NULL;
    return (bnode *)p->nodes[((bline *)l->data)->idx];
}

static baction *sel_row(view *v, size_t *idx)
{
    bview *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (!l || l->kind != L_UROW)
        return NULL;
    *idx = ((bline *)l->data)->idx;
    return &p->upd.v[*idx];
}

/* ---- opening ---------------------------------------------------------------- */

static void set_table(bview *p, const char *table, const char *index)
{
    free(p->table);
    free(p->index);
    if (p->have_def)
        table_def_free(&p->def);
    p->have_def = false;
    p->table = table ? xstrdup(table) : NULL;
    p->index = index ? xstrdup(index) : NULL;
    if (!table)
        return;
    diag d;
    diag_init(&d);
    if (store_describe(display_store(), table, &p->def, &d) == ST_OK)
        p->have_def = true;
    else
        display_error("%s", d.msg);
}

/* Joins argv[from..] except --names=/--values= options, which go to
 * *names / *values. */
static void join_args(int argc, char **argv, int from, buf *text, const char **names, const char **values)
{
    *names = *values = NULL;
    for (int i = from; i < argc; i++) {
        if (strncmp(argv[i], "--names=", 8) == 0) {
            *names = argv[i] + 8;
        } else if (strncmp(argv[i], "--values=", 9) == 0) {
            *values = argv[i] + 9;
        } else {
            if (text->len)
                buf_addc(text, ' ');
            buf_adds(text, argv[i]);
        }
    }
}

/* Shows a parse error with its caret in the result pane. */
static void parse_error(bview *p, const char *what, const char *text, const diag *d)
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
    display_error("%s: %s", what, d->msg);
}

static void cmd_cond(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    buf text = BUF_INIT;
    const char *names, *values;
    join_args(argc, argv, 1, &text, &names, &values);
    if (!text.len) {
        buf_done(&text);
        return;
    }
    builder *nb = NULL;
    diag d;
    diag_init(&d);
    if (builder_parse(mode_kind(p->mode), text.data, names, values, &nb, &d) != ST_OK) {
        parse_error(p, "Not parsed", text.data, &d);
    } else {
        builder_free(p->b);
        p->b = nb;
        buf_reset(&p->result);
    }
    buf_done(&text);
}

static bool open_view(view *v, const void *arg)
{
    bview *p = v->priv;
    const cond_arg *a = arg;
    p->b = builder_new();
    builder_update_init(&p->upd);
    p->act = -1;
    p->wrapped_width = -1;
    p->item.type = AV_NONE;
    p->stored.type = AV_NONE;
    if (a && a->table)
        set_table(p, a->table, a->index);
    if (a && a->item && a->item->type == AV_M)
        av_copy(&p->item, a->item);
    rebuild(v, 0);
    return true;
}

static void title(view *v, buf *out)
{
    bview *p = v->priv;
    buf_printf(out, "Condition builder: %s%s%s [%s]", p->table ? p->table : "(no table)",
               p->index ? " / " : "", p->index ? p->index : "", mode_names[p->mode]);
}

static int head_rows(view *v)
{
    (void)v;
    return 1;
}

static int left_width(int width)
{
    int lw = width * 2 / 5;
    return lw < 20 ? (width < 20 ? width : 20) : lw;
}

/* Where the panel is drawn: beside the tree, or over the whole width when
 * it has the keys on a narrow terminal. */
static void panel_cols(const bview *p, int width, int *lw, int *px, int *pw)
{
    *lw = p->panel_focus && width < 120 ? 0 : left_width(width);
    *px = *lw ? *lw + 1 : 0;
    *pw = width - *px;
}

/* The first panel row to show, kept so the last screen is full. */
static size_t panel_first(view *v)
{
    bview *p = v->priv;
    size_t rows = v->vm.rows ? v->vm.rows : 1;
    size_t max = p->n_wrapped > rows ? p->n_wrapped - rows : 0;
    if (p->panel_top > max)
        p->panel_top = max;
    return p->panel_top;
}

static void draw_head(view *v, int row, int width)
{
    bview *p = v->priv;
    int lw, px, pw;
    panel_cols(p, width, &lw, &px, &pw);
    if (lw)
        term_puts(row, 0, lw, p->panel_focus ? "Tree (Tab: keys back here)" : "Tree (Enter edits, ? help)",
                  ROLE_COLHEAD);
    if (pw <= 0)
        return;
    wrap_panel(p, pw);
    size_t first = panel_first(v), rows = v->vm.rows ? v->vm.rows : 1;
    buf h = BUF_INIT;
    buf_adds(&h, "What DynamoDB receives");
    if (p->n_wrapped > rows || p->panel_focus) {
        size_t last = first + rows < p->n_wrapped ? first + rows : p->n_wrapped;
        buf_printf(&h, " [%zu-%zu of %zu] %s", p->n_wrapped ? first + 1 : 0, last, p->n_wrapped,
                   p->panel_focus ? "j/k PgUp/PgDn g/G scroll, Tab: tree" : "Tab: scroll");
    }
    term_puts(row, px, pw, h.data, ROLE_COLHEAD);
    buf_done(&h);
}

static void draw(view *v, size_t i, int row, int width)
{
    bview *p = v->priv;
    line *l = vm_line(&v->vm, i);
    int lw, px, pw;
    panel_cols(p, width, &lw, &px, &pw);
    buf b = BUF_INIT;
    role r = ROLE_NORMAL;
    if (!lw) {
        /* the tree is hidden */
    } else if (l->kind == L_NODE) {
        size_t k = ((bline *)l->data)->idx;
        const bnode *n = p->nodes[k];
        const char *mark = "   ";
        if (n == p->bad) {
            mark = "!! ";
            r = ROLE_ERROR;
        } else if (p->have_verdict) {
            for (size_t e = 0; e < p->verdict.n; e++)
                if (p->verdict.v[e].node == n)
                    mark = p->verdict.v[e].verdict ? "T  " : "F  ";
        }
        buf_adds(&b, mark);
        for (int d = 0; d < p->depths[k]; d++)
            buf_adds(&b, "  ");
        if (n->group)
            r = ROLE_GROUP;
        node_label(&b, n);
        if (!n->parent && !n->n_kids)
            buf_adds(&b, "  (empty)");
    } else if (l->kind == L_UHEAD) {
        buf_printf(&b, "Update rows (%zu)", p->upd.n);
        r = ROLE_COLHEAD;
    } else if (l->kind == L_UROW) {
        buf_adds(&b, "   ");
        row_label(&b, &p->upd.v[((bline *)l->data)->idx]);
    }
    if (b.len)
        term_put(row, 0, lw, b.data, b.len, r, true);
    /* The panel, beside the tree (or over it); never highlighted. Its
     * rows follow the screen rows, not the tree's scrolling. */
    if (pw > 0) {
        term_highlight_row(-1);
        term_fill(row, lw, width - lw, ROLE_NORMAL);
        wrap_panel(p, pw);
        size_t k = (i >= v->vm.top ? i - v->vm.top : 0) + panel_first(v);
        if (k < p->n_wrapped)
            term_puts(row, px, pw, p->wrapped[k].text, p->wrapped[k].r);
    }
    buf_done(&b);
}

static void text(view *v, size_t i, buf *out)
{
    bview *p = v->priv;
    line *l = vm_line(&v->vm, i);
    if (l->kind == L_NODE) {
        size_t k = ((bline *)l->data)->idx;
        for (int d = 0; d < p->depths[k]; d++)
            buf_adds(out, "  ");
        node_label(out, p->nodes[k]);
    } else if (l->kind == L_UHEAD) {
        buf_printf(out, "Update rows (%zu)", p->upd.n);
    } else if (l->kind == L_UROW) {
        row_label(out, &p->upd.v[((bline *)l->data)->idx]);
    }
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case L_NODE: return "node";
    case L_UHEAD: return "update-head";
    case L_UROW: return "update-row";
    default: return "pad";
    }
}

static void select_line(view *v)
{
    bview *p = v->priv;
    size_t last = n_left(p) - 1;
    if (v->vm.cursor > last)
        vm_select(&v->vm, last);
}

static void free_line(view *v, line *l)
{
    (void)v;
    free(l->data);
}

static void done(view *v)
{
    bview *p = v->priv;
    builder_free(p->b);
    builder_update_done(&p->upd);
    free(p->nodes);
    free(p->depths);
    if (p->have_verdict)
        builder_verdict_done(&p->verdict);
    panel_free(p);
    free(p->panel);
    free(p->table);
    free(p->index);
    if (p->have_def)
        table_def_free(&p->def);
    av_free(&p->item);
    av_free(&p->stored);
    buf_done(&p->result);
    buf_done(&p->saved);
    builder_paths_free(p->picks, p->n_picks);
    if (picking == p)
        picking = NULL;
}

/* ---- editing ------------------------------------------------------------------ */

static bool ask(const char *label, const char *init, buf *out)
{
    return display_prompt(label, init, out);
}

static bool edit_path(bpath *path, const char *label)
{
    buf cur = BUF_INIT, in = BUF_INIT;
    builder_path_text(path, &cur);
    bool ok = false;
    if (display_prompt_pick(label, cur.data ? cur.data : "", picking ? picking->picks : NULL,
                            picking ? picking->n_picks : 0, &in)) {
        bpath np;
        diag d;
        diag_init(&d);
        if (builder_path_parse(in.data ? in.data : "", in.len, &np, &d) != ST_OK) {
            display_error("Path: %s (at %ld)", d.msg, d.pos);
        } else {
            builder_path_free(path);
            *path = np;
            ok = true;
        }
    }
    buf_done(&cur);
    buf_done(&in);
    return ok;
}

/* What an operand may be where it is edited: a condition's operand
 * (a value, a path, size(path)), attribute_type's type name (a value), an
 * UpdateExpression SET operand (a value, a path, if_not_exists,
 * list_append), ADD's value (a number or a set), DELETE's (a set). */
typedef enum { OM_VALUE, OM_COND, OM_UPDATE, OM_ADD, OM_DELETE } omode;

static const char *omode_types(omode m)
{
    switch (m) {
    case OM_COND: return "S N B BOOL NULL L M SS NS BS, path, size";
    case OM_UPDATE: return "S N B BOOL NULL L M SS NS BS, path, if_not_exists, list_append";
    case OM_ADD: return "N SS NS BS";
    case OM_DELETE: return "SS NS BS";
    case OM_VALUE: break;
    }
    return "S N B BOOL NULL L M SS NS BS";
}

static bool omode_allows(omode m, av_type t)
{
    if (m == OM_ADD)
        return t == AV_N || av_is_set(t);
    if (m == OM_DELETE)
        return av_is_set(t);
    return true;
}

/* Functions nest in the form this deep at most (text can go deeper). */
#define FORM_DEPTH 6

/* Asks the type (a value type, or path / size / if_not_exists /
 * list_append where the mode allows) and then the value, the path or the
 * function's operands, each in turn. */
static bool edit_opnd(bopnd *o, const char *what, omode mode, int depth)
{
    buf in = BUF_INIT, label = BUF_INIT, cur = BUF_INIT;
    bool ok = false;
    const char *tn = o->kind == BO_PATH ? "path" : o->kind == BO_SIZE ? "size"
                   : o->kind == BO_IF_NOT_EXISTS ? "if_not_exists"
                   : o->kind == BO_LIST_APPEND ? "list_append"
                   : o->value.type && omode_allows(mode, o->value.type) ? av_type_name(o->value.type)
                   : mode == OM_ADD ? "N" : mode == OM_DELETE ? "SS" : "S";
    buf_printf(&label, "%s type (%s): ", what, omode_types(mode));
    if (!ask(label.data, tn, &in))
        goto out;
    const char *w = in.data ? in.data : "";
    bool path = (mode == OM_COND || mode == OM_UPDATE) && strcmp(w, "path") == 0;
    bool size = mode == OM_COND && strcmp(w, "size") == 0;
    bool ine = mode == OM_UPDATE && strcmp(w, "if_not_exists") == 0;
    bool lap = mode == OM_UPDATE && strcmp(w, "list_append") == 0;
    if ((ine || lap) && depth >= FORM_DEPTH) {
        display_error("Nested too deep for the form: type the expression with :upd");
        goto out;
    }
    if (path || size || ine) {
        bopnd_kind k = path ? BO_PATH : size ? BO_SIZE : BO_IF_NOT_EXISTS;
        if (o->kind != k)
            builder_opnd_set_kind(o, k);
        buf_reset(&label);
        buf_printf(&label, ine ? "%s: if_not_exists path: " : "%s path: ", what);
        if (!edit_path(&o->path, label.data))
            goto out;
        if (!ine) {
            ok = true;
            goto out;
        }
        /* The default, edited as an operand of its own: a value stays in
         * o->value, a path or function goes to o->sub[0]. */
        bopnd def = { 0 };
        if (o->n_sub) {
            def = o->sub[0];
            free(o->sub);
            o->sub = NULL;
            o->n_sub = 0;
        } else {
            def.kind = BO_VALUE;
            def.value = o->value;
            o->value.type = AV_NONE;
        }
        buf_reset(&label);
        buf_printf(&label, "%s: if_not_exists default", what);
        ok = edit_opnd(&def, label.data, OM_UPDATE, depth + 1);
        if (def.kind == BO_VALUE) {
            o->value = def.value;
            def.value.type = AV_NONE;
            builder_opnd_free(&def);
        } else {
            o->sub = xcalloc(1, sizeof *o->sub);
            o->sub[0] = def;
            o->n_sub = 1;
        }
        goto out;
    }
    if (lap) {
        if (o->kind != BO_LIST_APPEND)
            builder_opnd_set_kind(o, BO_LIST_APPEND);
        ok = true;
        for (int i = 0; i < 2 && ok; i++) {
            buf_reset(&label);
            buf_printf(&label, "%s: list_append list %d", what, i + 1);
            ok = edit_opnd(&o->sub[i], label.data, OM_UPDATE, depth + 1);
        }
        goto out;
    }
    av_type t = av_type_from_name(w, in.len);
    if (t == AV_NONE || !omode_allows(mode, t)) {
        display_error("%s type %s (%s)", t == AV_NONE ? "Unknown" : "Not a", w, omode_types(mode));
        goto out;
    }
    if (o->kind == BO_VALUE && o->value.type == t)
        builder_value_text(&o->value, &cur);
    buf_reset(&label);
    buf_printf(&label, "%s (%s): ", what, av_type_name(t));
    buf_reset(&in);
    if (!ask(label.data, cur.data ? cur.data : "", &in))
        goto out;
    av nv;
    diag d;
    diag_init(&d);
    if (builder_value_parse(t, in.data ? in.data : "", in.len, &nv, &d) != ST_OK) {
        display_error("%s", d.msg);
        goto out;
    }
    builder_opnd_set_kind(o, BO_VALUE);
    builder_path_free(&o->path);
    o->value = nv;
    ok = true;
out:
    buf_done(&in);
    buf_done(&label);
    buf_done(&cur);
    return ok;
}

/* The operands of an update row, by its action and form. */
static void edit_row_values(baction *a)
{
    if (a->kind == BU_REMOVE)
        return;
    if (a->kind != BU_SET) {
        edit_opnd(&a->a, "Value", a->kind == BU_ADD ? OM_ADD : OM_DELETE, 0);
        return;
    }
    if (!edit_opnd(&a->a, a->form == BF_PLAIN ? "Value" : "Operand a", OM_UPDATE, 0))
        return;
    if (a->form != BF_PLAIN)
        edit_opnd(&a->b, "Operand b", OM_UPDATE, 0);
}

static void edit_values(bnode *n)
{
    if (n->op == BOP_IN) {
        /* IN: how many values, then each. */
        buf in = BUF_INIT;
        char cur[16];
        snprintf(cur, sizeof cur, "%zu", n->n_args);
        if (ask("How many values in the IN list (1-100): ", cur, &in)) {
            long k = strtol(in.data ? in.data : "", NULL, 10);
            if (k < 1 || k > 100) {
                display_error("IN takes 1 to 100 values");
            } else {
                for (size_t i = (size_t)k; i < n->n_args; i++)
                    builder_opnd_free(&n->args[i]);
                if ((size_t)k > n->n_args) {
                    n->args = xrealloc(n->args, (size_t)k * sizeof *n->args);
                    memset(n->args + n->n_args, 0, ((size_t)k - n->n_args) * sizeof *n->args);
                    for (size_t i = n->n_args; i < (size_t)k; i++)
                        n->args[i].kind = BO_VALUE;
                }
                n->n_args = (size_t)k;
            }
        }
        buf_done(&in);
    }
    for (size_t i = 0; i < n->n_args; i++) {
        char what[32];
        snprintf(what, sizeof what, "Value %zu", i + 1);
        if (!edit_opnd(&n->args[i], what, n->op != BOP_TYPE ? OM_COND : OM_VALUE, 0))
            return;
    }
}

static bool edit_op(bnode *n)
{
    buf in = BUF_INIT, cur = BUF_INIT;
    bool ok = false;
    if (n->left.kind == BO_SIZE)
        buf_adds(&cur, "size ");
    buf_adds(&cur, builder_op_name(n->op));
    if (ask("Operator (= <> < <= > >= BETWEEN IN attribute_exists attribute_not_exists "
            "attribute_type begins_with contains; 'size OP' compares size(path)): ", cur.data, &in)) {
        const char *s = in.data ? in.data : "";
        bool size = strncmp(s, "size ", 5) == 0;
        if (size)
            s += 5;
        bop op = builder_op_parse(s, strlen(s));
        if (op == BOP__COUNT || (size && op >= BOP_EXISTS)) {
            display_error("Unknown operator %s", in.data ? in.data : "");
        } else {
            builder_set_op(n, op);
            if (n->left.kind != BO_VALUE)
                n->left.kind = size ? BO_SIZE : BO_PATH;
            ok = true;
        }
    }
    buf_done(&in);
    buf_done(&cur);
    return ok;
}

/* Path, operator, then the operands. */
static void edit_clause(bnode *n)
{
    if (!edit_path(&n->left.path, "Path: "))
        return;
    if (n->left.kind == BO_VALUE)
        n->left.kind = BO_PATH;
    if (!edit_op(n))
        return;
    edit_values(n);
}

/* Action (unless the row was just added with one), path, SET's form,
 * then the operands. */
static void edit_row(baction *a, bool ask_action)
{
    buf in = BUF_INIT;
    if (ask_action) {
        if (!ask("Action (SET REMOVE ADD DELETE): ", builder_update_kind_name(a->kind), &in))
            goto out;
        static const char *const k[] = { "SET", "REMOVE", "ADD", "DELETE" };
        int kind = -1;
        for (int i = 0; i < 4; i++)
            if (in.data && strcasecmp(in.data, k[i]) == 0)
                kind = i;
        if (kind < 0) {
            display_error("Unknown action %s", in.data ? in.data : "");
            goto out;
        }
        a->kind = (bu_kind)kind;
    }
    if (!edit_path(&a->path, "Path: ") || a->kind == BU_REMOVE)
        goto out;
    if (a->kind == BU_SET) {
        static const char *const f[] = { "value", "plus", "minus", "list_append" };
        buf_reset(&in);
        if (!ask("Form (value: a, plus: a + b, minus: a - b, list_append: list_append(a, b)): ",
                 f[a->form], &in))
            goto out;
        int form = -1;
        for (int i = 0; i < 4; i++)
            if (in.data && strcmp(in.data, f[i]) == 0)
                form = i;
        if (form < 0) {
            display_error("Unknown form %s", in.data ? in.data : "");
            goto out;
        }
        a->form = (bu_form)form;
    }
    edit_row_values(a);
out:
    buf_done(&in);
}

/* The group a new node goes into, and where. */
static void insert_point(view *v, bnode **g, size_t *at)
{
    bview *p = v->priv;
    bnode *n = sel_node(v);
    if (!n) {
        *g = p->b->root;
        *at = p->b->root->n_kids;
    } else if (n->group) {
        *g = n;
        *at = n->n_kids;
    } else {
        *g = n->parent;
        *at = builder_index_of(n) + 1;
    }
}

/* ---- store -------------------------------------------------------------------- */

/* Reads the item again (GetItem by its key), after a write. */
static void refresh_item(bview *p)
{
    av key;
    buf why = BUF_INIT, req = BUF_INIT;
    if (!item_key(p, &key, &why))
        goto out;
    buf_adds(&req, "{\"TableName\":");
    ddbjson_write_string(&req, p->table, strlen(p->table));
    buf_adds(&req, ",\"Key\":");
    ddbjson_write_item(&req, &key);
    buf_addc(&req, '}');
    char *out = NULL;
    diag d;
    diag_init(&d);
    if (store_call(display_store(), "GetItem", req.data, req.len, &out, &d) == ST_OK && out) {
        const char *it;
        size_t n;
        av nv;
        diag_init(&d);
        if (jscan_member(out, strlen(out), "Item", &it, &n) &&
            ddbjson_parse_item(it, n, &nv, &d) == ST_OK) {
            av_free(&p->item);
            p->item = nv;
        }
    }
    free(out);
    av_free(&key);
out:
    buf_done(&why);
    buf_done(&req);
}

static void result_item(bview *p, const char *label, const char *out)
{
    const char *it;
    size_t n;
    if (!out || !jscan_member(out, strlen(out), "Item", &it, &n))
        return;
    buf pretty = BUF_INIT;
    fmt_json_pretty(&pretty, it, n);
    buf_printf(&p->result, "\n%s\n%s", label, pretty.data ? pretty.data : "");
    buf_done(&pretty);
}

static void apply_write(view *v, breq_op op)
{
    bview *p = v->priv;
    breq r;
    av key;
    buf why = BUF_INIT, body = BUF_INIT;
    buf_reset(&p->result);
    p->result_error = true;
    if (p->mode != M_COND && !builder_empty(p->b)) {
        buf_printf(&p->result, "The tree is a %s: switch to condition mode (m) to use it in a write",
                   mode_names[p->mode]);
        goto out;
    }
    if (!make_req(p, op, &r, &key, &why)) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name(op), why.data);
        goto out;
    }
    diag d;
    diag_init(&d);
    if (builder_req_json(&r, &body, &d) != ST_OK) {
        buf_printf(&p->result, "%s: %s", builder_req_op_name(op), d.msg);
        av_free(&key);
        goto out;
    }
    av_free(&key);
    char *resp = NULL;
    status st = store_call(display_store(), builder_req_op_name(op), body.data, body.len, &resp, &d);
    if (st == ST_OK) {
        p->result_error = false;
        buf_printf(&p->result, "%s: OK", builder_req_op_name(op));
        display_message("%s: OK", builder_req_op_name(op));
        if (op == BREQ_DELETE) {
            av_free(&p->item);
        } else {
            refresh_item(p);
        }
        if (p->item.type == AV_M) {
            buf_adds(&p->result, "\nThe item now:");
            buf j = BUF_INIT, pretty = BUF_INIT;
            ddbjson_write_item(&j, &p->item);
            fmt_json_pretty(&pretty, j.data, j.len);
            buf_printf(&p->result, "\n%s", pretty.data);
            buf_done(&j);
            buf_done(&pretty);
        } else {
            buf_adds(&p->result, "\nThe item is gone.");
        }
        /* Views below show the store: let them read it again. */
        view *below = display_below(v);
        if (below && below->ops->request)
            below->ops->request(below, REQ_RELOAD);
    } else {
        buf_printf(&p->result, "%s: %s", status_name(st), d.msg);
        display_error("%s: %s", status_name(st), d.msg);
        if (st == ST_CONDITION_FAILED)
            result_item(p, "The item as it is now (ReturnValuesOnConditionCheckFailure ALL_OLD):", resp);
    }
    free(resp);
out:
    buf_done(&why);
    buf_done(&body);
}

/* Whether a sort-key value reads back the same from the query bar's
 * sort-key field: it trims leading spaces and splits `between A and B`
 * at the first " and ", so such values would silently query something
 * else. */
static bool qbar_reads_back(const av *v, bool between_lower)
{
    if (v->type != AV_S)
        return true;
    const char *s = v->u.s.ptr;
    size_t n = v->u.s.len;
    if (n && s[0] == ' ')
        return false;
    for (size_t i = 0; between_lower && i + 5 <= n; i++)
        if (strncasecmp(s + i, " and ", 5) == 0)
            return false;
    return true;
}

/* A filter (Query with PK [SK] or Scan) or a key condition, through the
 * query bar. */
static void apply_read(view *v, bool key, int argc, char **argv)
{
    bview *p = v->priv;
    buf_reset(&p->result);
    p->result_error = true;
    if (!p->table) {
        buf_adds(&p->result, "No table (:cond-table NAME)");
        return;
    }
    bmaps m;
    buf text = BUF_INIT, names = BUF_INIT, values = BUF_INIT;
    diag d;
    diag_init(&d);
    builder_maps_init(&m);
    if (builder_print(p->b, &m, &text, &d) != ST_OK) {
        buf_printf(&p->result, "%s", d.msg);
        goto out;
    }
    builder_maps_names_json(&m, &names);
    builder_maps_values_json(&m, &values);
    if (!key) {
        char *qargv[8];
        int qargc = 0;
        buf f = BUF_INIT, n = BUF_INIT, vals = BUF_INIT, ix = BUF_INIT;
        qargv[qargc++] = "query";
        for (int i = 2; i < argc && i < 4; i++)
            qargv[qargc++] = argv[i];
        buf_printf(&f, "--filter=%s", text.data ? text.data : "");
        buf_printf(&n, "--names=%s", names.data ? names.data : "");
        buf_printf(&vals, "--values=%s", values.data ? values.data : "");
        buf_printf(&ix, "--index=%s", p->index ? p->index : "");
        qargv[qargc++] = f.data;
        qargv[qargc++] = n.data;
        qargv[qargc++] = vals.data;
        qargv[qargc++] = ix.data;
        qargv[qargc] = NULL;
        query_arg qa = { p->table, p->index, NULL, NULL, false, argc <= 2 };
        view *q = display_push(&view_query_ops, &qa);
        if (q && q->ops->command)
            q->ops->command(q, qargc, qargv);
        buf_done(&f);
        buf_done(&n);
        buf_done(&vals);
        buf_done(&ix);
        p->result_error = false;
        goto out;
    }
    /* A key condition: check it against the index's key schema, then
     * give the query bar its partition value and sort-key condition. */
    if (!p->have_def) {
        buf_adds(&p->result, "No table definition");
        goto out;
    }
    const index_def *ixd = p->index ? table_def_index(&p->def, p->index) : NULL;
    const key_attr *pk = ixd ? &ixd->pk : &p->def.pk, *sk = ixd ? &ixd->sk : &p->def.sk;
    av nm, vl;
    builder_maps_names_av(&m, &nm);
    builder_maps_values_av(&m, &vl);
    expr_ctx cx;
    expr *e = NULL;
    expr_key_range kr;
    status st = expr_ctx_init(&cx, nm.type ? &nm : NULL, vl.type ? &vl : NULL, &d);
    if (!st) {
        st = expr_parse(&cx, EXPR_KEY, text.data ? text.data : "", text.len, &e, &d);
        if (!st)
            st = expr_key_range_of(e, pk->name, pk->type, sk->name, sk->type, &kr, &d);
        if (!st && (!qbar_reads_back(kr.pk, false) ||
                    (kr.op != KEY_SK_NONE && !qbar_reads_back(kr.sk1, kr.op == KEY_SK_BETWEEN)) ||
                    (kr.op == KEY_SK_BETWEEN && !qbar_reads_back(kr.sk2, false))))
            st = diag_set(&d, ST_VALIDATION, "a key value that starts with a space, or a BETWEEN lower "
                          "bound containing \" and \", can not go through the query bar: the request "
                          "shown above runs it with the aws CLI");
        if (!st) {
            buf pkt = BUF_INIT, skt = BUF_INIT;
            fmt_plain(&pkt, kr.pk);
            static const char *const ops[] = { "", "=", "<", "<=", ">", ">=" };
            if (kr.op == KEY_SK_BETWEEN) {
                buf_adds(&skt, "between ");
                fmt_plain(&skt, kr.sk1);
                buf_adds(&skt, " and ");
                fmt_plain(&skt, kr.sk2);
            } else if (kr.op == KEY_SK_BEGINS) {
                buf_adds(&skt, "begins_with ");
                fmt_plain(&skt, kr.sk1);
            } else if (kr.op != KEY_SK_NONE) {
                buf_printf(&skt, "%s ", ops[kr.op]);
                fmt_plain(&skt, kr.sk1);
            }
            query_arg qa = { p->table, p->index, pkt.data, skt.data, true, false };
            p->result_error = false;
            display_push(&view_query_ops, &qa);
            buf_done(&pkt);
            buf_done(&skt);
        }
        expr_free(e);
        expr_ctx_done(&cx);
    }
    if (st)
        buf_printf(&p->result, "%s: %s", status_name(st), d.msg);
    av_free(&nm);
    av_free(&vl);
out:
    builder_maps_done(&m);
    buf_done(&text);
    buf_done(&names);
    buf_done(&values);
}

static int op_by_name(const char *s)
{
    static const char *const n[] = { "put", "update", "delete", "check" };
    for (int i = 0; i < 4; i++)
        if (strcmp(s, n[i]) == 0)
            return i;
    return -1;
}

static void txn_command(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    buf_reset(&p->result);
    p->result_error = true;
    if (argc >= 3 && strcmp(argv[1], "add") == 0) {
        int op = op_by_name(argv[2]);
        breq r;
        av key;
        buf why = BUF_INIT, body = BUF_INIT, label = BUF_INIT;
        diag d;
        diag_init(&d);
        if (op < 0) {
            buf_printf(&p->result, "usage: :txn add put|update|delete|check");
        } else if (!make_req(p, (breq_op)op, &r, &key, &why)) {
            buf_printf(&p->result, "%s: %s", builder_req_op_name((breq_op)op), why.data);
        } else if (builder_req_txn_json(&r, &body, &d) != ST_OK) {
            buf_printf(&p->result, "%s: %s", builder_req_op_name((breq_op)op), d.msg);
        } else {
            buf_printf(&label, "%s %s ", builder_req_txn_name((breq_op)op), p->table);
            fmt_key(&label, &p->item, p->def.pk.name, p->def.sk.name);
            txn_items = xrealloc(txn_items, (txn_n + 1) * sizeof *txn_items);
            txn_labels = xrealloc(txn_labels, (txn_n + 1) * sizeof *txn_labels);
            txn_items[txn_n] = buf_steal(&body);
            txn_labels[txn_n] = buf_steal(&label);
            txn_n++;
            p->result_error = false;
            buf_printf(&p->result, "Added to the transaction (%zu action%s)", txn_n, txn_n == 1 ? "" : "s");
        }
        av_free(&key);
        buf_done(&why);
        buf_done(&body);
        buf_done(&label);
        return;
    }
    if (argc == 2 && strcmp(argv[1], "clear") == 0) {
        txn_clear();
        p->result_error = false;
        buf_adds(&p->result, "Transaction cleared");
        return;
    }
    if (argc == 2 && strcmp(argv[1], "run") == 0) {
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
            refresh_item(p);
            view *below = display_below(v);
            if (below && below->ops->request)
                below->ops->request(below, REQ_RELOAD);
        } else {
            buf_printf(&p->result, "%s: %s", status_name(st), d.msg);
            display_error("%s", status_name(st));
            const char *arr, *el;
            size_t an, en, pos = 0, i = 0;
            if (out && jscan_member(out, strlen(out), "CancellationReasons", &arr, &an)) {
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
        }
        free(out);
        buf_done(&req);
        return;
    }
    buf_adds(&p->result, "usage: :txn add put|update|delete|check | :txn run | :txn clear");
}

static void list_saved(bview *p)
{
    saved_cond *v = NULL;
    size_t n = 0;
    diag d;
    diag_init(&d);
    buf_reset(&p->saved);
    if (saved_list(display_store(), &v, &n, &d) != ST_OK) {
        display_error("%s", d.msg);
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

static void save_cond(bview *p, const char *name)
{
    bmaps m;
    buf text = BUF_INIT, names = BUF_INIT, values = BUF_INIT;
    diag d;
    diag_init(&d);
    builder_maps_init(&m);
    if (builder_empty(p->b)) {
        display_error("Nothing to save: the tree is empty");
    } else if (builder_print(p->b, &m, &text, &d) != ST_OK) {
        display_error("%s", d.msg);
    } else {
        builder_maps_names_json(&m, &names);
        builder_maps_values_json(&m, &values);
        saved_cond c = { .name = (char *)name, .kind = (char *)mode_names[p->mode], .expr = text.data,
                         .names = names.data ? names.data : "", .values = values.data ? values.data : "" };
        if (saved_put(display_store(), &c, &d) != ST_OK)
            display_error("%s", d.msg);
        else
            display_message("Saved %s", name);
        if (p->saved.len)
            list_saved(p);
    }
    builder_maps_done(&m);
    buf_done(&text);
    buf_done(&names);
    buf_done(&values);
}

static void load_cond(bview *p, const char *name)
{
    saved_cond c;
    bool found = false;
    diag d;
    diag_init(&d);
    if (saved_get(display_store(), name, &c, &found, &d) != ST_OK) {
        display_error("%s", d.msg);
        return;
    }
    if (!found) {
        display_error("No saved condition %s (:conds lists them)", name);
        return;
    }
    int k = expr_kind_from_name(c.kind);
    bmode m = k == EXPR_KEY ? M_KEY : k == EXPR_FILTER ? M_FILTER : M_COND;
    builder *nb = NULL;
    if (builder_parse(mode_kind(m), c.expr, c.names, c.values, &nb, &d) != ST_OK) {
        parse_error(p, "Saved condition not parsed", c.expr, &d);
    } else {
        builder_free(p->b);
        p->b = nb;
        p->mode = m;
        display_message("Loaded %s", name);
    }
    saved_cond_free(&c);
}

/* Command names match with '-' or '_' alike (:save-cond, :save_cond). */
static bool is(const char *word, const char *name)
{
    for (; *word && *name; word++, name++)
        if (*word != *name && !((*word == '_' || *word == '-') && (*name == '_' || *name == '-')))
            return false;
    return *word == *name;
}

static bool command(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    picking = p;
    const char *c = argv[0];
    size_t sel = v->vm.cursor;
    if (is(c, "cond")) {
        cmd_cond(v, argc, argv);
        sel = 0;
    } else if (is(c, "cond-item") && argc == 2) {
        av it;
        diag d;
        diag_init(&d);
        if (ddbjson_parse_item(argv[1], strlen(argv[1]), &it, &d) != ST_OK) {
            display_error("Item: %s", d.msg);
        } else {
            av_free(&p->item);
            p->item = it;
        }
    } else if (is(c, "cond-table") && (argc == 2 || argc == 3)) {
        set_table(p, argv[1], argc == 3 ? argv[2] : NULL);
    } else if (is(c, "cond-mode") && argc == 2) {
        int k = expr_kind_from_name(argv[1]);
        if (k == EXPR_CONDITION || k == EXPR_FILTER || k == EXPR_KEY) {
            p->mode = k == EXPR_KEY ? M_KEY : k == EXPR_FILTER ? M_FILTER : M_COND;
            p->act = -1;
        } else {
            display_error("usage: :cond-mode condition|filter|key");
        }
    } else if (is(c, "upd")) {
        buf text = BUF_INIT;
        const char *names, *values;
        join_args(argc, argv, 1, &text, &names, &values);
        bupdate nu;
        diag d;
        diag_init(&d);
        if (!text.len) {
            builder_update_done(&p->upd);
            builder_update_init(&p->upd);
        } else if (builder_update_parse(text.data, names, values, &nu, &d) != ST_OK) {
            parse_error(p, "Update not parsed", text.data, &d);
        } else {
            builder_update_done(&p->upd);
            p->upd = nu;
            p->act = -1;
        }
        buf_done(&text);
    } else if (is(c, "apply") && argc >= 2) {
        p->panel_top = 0;   /* the result is the panel's first section */
        int op = op_by_name(argv[1]);
        if (op >= 0 && op != BREQ_CHECK) {
            p->act = op;
            apply_write(v, (breq_op)op);
        } else if (strcmp(argv[1], "filter") == 0) {
            apply_read(v, false, argc, argv);
            return true;   /* the query bar is on top now */
        } else if (strcmp(argv[1], "key") == 0) {
            apply_read(v, true, argc, argv);
            if (p->result_error)
                rebuild(v, sel);
            return true;
        } else {
            display_error("usage: :apply put|update|delete|filter [PK [SK]]|key");
        }
    } else if (is(c, "txn")) {
        p->panel_top = 0;
        txn_command(v, argc, argv);
    } else if (is(c, "save-cond") && argc == 2) {
        save_cond(p, argv[1]);
    } else if (is(c, "load-cond") && argc == 2) {
        load_cond(p, argv[1]);
        sel = 0;
    } else if (is(c, "delete-cond") && argc == 2) {
        bool found = false;
        diag d;
        diag_init(&d);
        if (saved_delete(display_store(), argv[1], &found, &d) != ST_OK)
            display_error("%s", d.msg);
        else if (!found)
            display_error("No saved condition %s", argv[1]);
        if (p->saved.len)
            list_saved(p);
    } else if (is(c, "conds")) {
        list_saved(p);
    } else {
        return false;
    }
    rebuild(v, sel);
    return true;
}

static enum req request(view *v, enum req r)
{
    bview *p = v->priv;
    picking = p;
    bnode *n = sel_node(v);
    size_t ri = 0;
    baction *row = sel_row(v, &ri);
    line *l = vm_selected(&v->vm);
    bool on_update = l && (l->kind == L_UHEAD || l->kind == L_UROW);
    size_t sel = v->vm.cursor;
    if (p->panel_focus) {
        /* The moving keys scroll the panel; back gives the keys back. */
        size_t rows = v->vm.rows ? v->vm.rows : 1;
        switch (r) {
        case REQ_MOVE_UP: if (p->panel_top) p->panel_top--; return REQ_NONE;
        case REQ_MOVE_DOWN: p->panel_top++; return REQ_NONE;
        case REQ_PAGE_UP: p->panel_top = p->panel_top > rows ? p->panel_top - rows : 0; return REQ_NONE;
        case REQ_PAGE_DOWN: p->panel_top += rows; return REQ_NONE;
        case REQ_MOVE_FIRST: p->panel_top = 0; return REQ_NONE;
        case REQ_MOVE_LAST: p->panel_top = (size_t)-1 / 2; return REQ_NONE;
        case REQ_BACK: p->panel_focus = false; return REQ_NONE;
        default: break;
        }
    }
    switch (r) {
    case REQ_COND_PANEL:
        p->panel_focus = !p->panel_focus;
        return REQ_NONE;
    case REQ_COND_ADD:
        if (on_update) {
            buf in = BUF_INIT;
            if (ask("Action (SET REMOVE ADD DELETE): ", "SET", &in)) {
                baction *a = builder_update_add(&p->upd, BU_SET);
                static const char *const k[] = { "SET", "REMOVE", "ADD", "DELETE" };
                for (int i = 0; i < 4; i++)
                    if (in.data && strcasecmp(in.data, k[i]) == 0)
                        a->kind = (bu_kind)i;
                size_t at = p->upd.n - 1;
                rebuild(v, p->n_nodes + 1 + at);
                edit_row(a, false);
                sel = p->n_nodes + 1 + at;
            }
            buf_done(&in);
        } else {
            bnode *g;
            size_t at;
            insert_point(v, &g, &at);
            bnode *c = builder_add_clause(p->b, g, at);
            rebuild(v, line_of_node(p, c));
            edit_clause(c);
            sel = line_of_node(p, c);
        }
        break;
    case REQ_COND_GROUP: {
        bnode *g;
        size_t at;
        insert_point(v, &g, &at);
        bnode *ng = builder_add_group(p->b, g, at, !g->is_or);
        sel = line_of_node(p, ng);
        rebuild(v, sel);
        sel = line_of_node(p, ng);
        break;
    }
    case REQ_ENTER:
        if (row) {
            edit_row(row, true);
        } else if (n && !n->group) {
            edit_clause(n);
        } else if (n) {
            n->is_or = !n->is_or;
        }
        break;
    case REQ_COND_PATH:
        if (n && !n->group) {
            if (n->left.kind == BO_VALUE)
                n->left.kind = BO_PATH;
            edit_path(&n->left.path, "Path: ");
        } else if (row) {
            edit_path(&row->path, "Path: ");
        }
        break;
    case REQ_COND_OP:
        if (n && !n->group)
            edit_op(n);
        break;
    case REQ_COND_VALUE:
        if (n && !n->group)
            edit_values(n);
        else if (row)
            edit_row_values(row);
        break;
    case REQ_COND_NOT:
        if (n)
            n->neg = !n->neg;
        break;
    case REQ_COND_ANDOR:
        if (n && n->group)
            n->is_or = !n->is_or;
        else if (n && n->parent)
            n->parent->is_or = !n->parent->is_or;
        break;
    case REQ_COND_UP:
    case REQ_COND_DOWN:
        if (n && builder_move(p->b, n, r == REQ_COND_UP ? -1 : 1)) {
            rebuild(v, 0);
            sel = line_of_node(p, n);
        } else if (row && r == REQ_COND_UP && ri > 0) {
            baction t = p->upd.v[ri - 1];
            p->upd.v[ri - 1] = p->upd.v[ri];
            p->upd.v[ri] = t;
            sel--;
        } else if (row && r == REQ_COND_DOWN && ri + 1 < p->upd.n) {
            baction t = p->upd.v[ri + 1];
            p->upd.v[ri + 1] = p->upd.v[ri];
            p->upd.v[ri] = t;
            sel++;
        }
        break;
    case REQ_COND_DUP:
        if (n) {
            bnode *c = builder_duplicate(p->b, n);
            if (c) {
                rebuild(v, 0);
                sel = line_of_node(p, c);
            }
        }
        break;
    case REQ_COND_DEL:
        if (row)
            builder_update_remove(&p->upd, ri);
        else if (n)
            builder_delete(p->b, n);
        if (sel > 0 && (row || (n && n != p->b->root)))
            sel--;
        break;
    case REQ_COND_MODE:
        p->mode = (bmode)((p->mode + 1) % 3);
        p->act = -1;
        break;
    case REQ_COND_APPLY: {
        breq_op op = action(p);
        p->panel_top = 0;   /* the result is the panel's first section */
        if (op == BREQ_QUERY) {
            char *argv[] = { "apply", "key", NULL };
            command(v, 2, argv);
        } else if (op == BREQ_SCAN) {
            char *argv[] = { "apply", "filter", NULL };
            command(v, 2, argv);
        } else {
            apply_write(v, op);
            rebuild(v, sel);
        }
        return REQ_NONE;
    }
    case REQ_EDIT_ITEM: {
        /* The builder's own item, for the Put: edit its DynamoDB JSON. */
        buf text = BUF_INIT;
        if (have_item(p))
            ddbjson_write_item(&text, &p->item);
        else
            buf_adds(&text, "{}");
        if (display_edit(&text, ".json")) {
            av it;
            diag d;
            diag_init(&d);
            if (ddbjson_parse_item(text.data ? text.data : "", text.len, &it, &d) != ST_OK) {
                display_error("Item: %s", d.msg);
            } else {
                av_free(&p->item);
                p->item = it;
            }
        }
        buf_done(&text);
        break;
    }
    case REQ_RELOAD:
        refresh_item(p);
        break;
    case REQ_COND:
        return REQ_NONE;
    default:
        return r;
    }
    rebuild(v, sel);
    return REQ_NONE;
}

void view_builder_open(view *from, int argc, char **argv)
{
    cond_arg a = { 0 };
    if (from && from->ops->context)
        from->ops->context(from, &a);
    view *b = display_push(&view_builder_ops, &a);
    if (b && argc > 0) {
        /* :cond EXPR, :load-cond NAME, :conds run in the builder. */
        if (!is(argv[0], "cond") || argc > 1)
            b->ops->command(b, argc, argv);
    }
}

const view_ops view_builder_ops = {
    .name = "builder",
    .priv_size = sizeof(bview),
    .open = open_view,
    .title = title,
    .head_rows = head_rows,
    .draw_head = draw_head,
    .draw = draw,
    .request = request,
    .select = select_line,
    .done = done,
    .free_line = free_line,
    .kind_name = kind_name,
    .text = text,
    .command = command,
};
