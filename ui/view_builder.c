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
 * ui/request.h and ui/command.h. Writes go to the store with
 * ReturnValuesOnConditionCheckFailure ALL_OLD, so a refused condition
 * shows ConditionalCheckFailedException and the item as it is now.
 * Filters and key conditions go to the query bar (view_query).
 *
 * This file is the view: its state, its lines, drawing the tree, the
 * requests and commands. The panel, the prompts, the store and the
 * transaction are files of their own (ui/builder_int.h says who owns
 * what).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/view.h"

const char *const bview_mode_names[] = { "condition", "filter", "key" };

typedef struct bline {
    size_t idx;          /* L_NODE: index into nodes; L_UROW: update row */
} bline;

/* At most this many paths offered (an item is at most 400 KB). */
#define PICKS_MAX 1000

/* ---- helpers ------------------------------------------------------------- */

expr_kind bview_mode_kind(bmode m)
{
    return m == M_KEY ? EXPR_KEY : m == M_FILTER ? EXPR_FILTER : EXPR_CONDITION;
}

breq_op bview_action(const bview *p)
{
    if (p->act >= 0)
        return (breq_op)p->act;
    if (p->mode == M_KEY)
        return BREQ_QUERY;
    if (p->mode == M_FILTER)
        return BREQ_SCAN;
    return p->upd.n ? BREQ_UPDATE : BREQ_PUT;
}

bool bview_have_item(const bview *p)
{
    return p->item.type == AV_M;
}

/* The table key of the item (Update, Delete, ConditionCheck); false with
 * a message when the table or a key attribute is missing. */
bool bview_item_key(const bview *p, av *out, buf *why)
{
    out->type = AV_NONE;
    if (!p->have_def || !bview_have_item(p)) {
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
            av_done(out);
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
bool bview_make_req(bview *p, breq_op op, breq *r, av *key, buf *why)
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
        if (!bview_have_item(p)) {
            buf_adds(why, "no item to put (:cond-item JSON, or e to edit one)");
            return false;
        }
        r->item = &p->item;
        r->cond = p->b;
        break;
    case BREQ_UPDATE:
    case BREQ_DELETE:
    case BREQ_CHECK:
        if (!bview_item_key(p, key, why))
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
        if (o->value.type == AV_NONE)
            buf_adds(out, "?value");
        else
            fmt_literal(out, &o->value);
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

const av *bview_verdict_item(const bview *p)
{
    if (p->have_stored)
        return p->stored.type == AV_M ? &p->stored : NULL;
    return bview_have_item(p) ? &p->item : NULL;
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
    bview_load_stored(p);
    builder_paths_free(p->picks, p->n_picks);
    builder_pick_paths(p->have_def ? &p->def : NULL,
                       bview_verdict_item(p) ? bview_verdict_item(p) : bview_have_item(p) ? &p->item : NULL,
                       PICKS_MAX, &p->picks, &p->n_picks);
    /* Printed after the update rows, as the request prints it. */
    bmaps m;
    diag ud;
    diag_init(&ud);
    bview_maps_before_cond(p, bview_action(p), &m, NULL, &ud);
    if (builder_verdict(p->b, &m, bview_mode_kind(p->mode), bview_verdict_item(p), &p->verdict, &d) == ST_OK)
        p->have_verdict = true;
    else if (d.pos >= 0)
        p->bad = builder_node_at(p->b, d.pos);
    builder_maps_done(&m);
    bview_panel_build(p);
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

/* The table (and index) the requests go to. One the store does not have
 * (DescribeTable's error), or an index the table does not have, is
 * refused, and the builder keeps the table it had. */
static void set_table(bview *p, const char *table, const char *index)
{
    table_def def;
    bool have = false;
    if (table) {
        diag d;
        diag_init(&d);
        status st = store_describe(display_store(), table, &def, &d);
        if (st != ST_OK) {
            display_diag(NULL, st, &d);
            return;
        }
        if (index && !table_def_index(&def, index)) {
            display_error("Table %s has no index %s", table, index);
            table_def_free(&def);
            return;
        }
        have = true;
    }
    free(p->table);
    free(p->index);
    if (p->have_def)
        table_def_free(&p->def);
    p->have_def = have;
    if (have)
        p->def = def;
    p->table = table ? xstrdup(table) : NULL;
    p->index = index ? xstrdup(index) : NULL;
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
    if (builder_parse(bview_mode_kind(p->mode), text.data, names, values, &nb, &d) != ST_OK) {
        bview_parse_error(p, "Not parsed", text.data, &d);
    } else {
        builder_free(p->b);
        p->b = nb;
        buf_reset(&p->result);
    }
    buf_done(&text);
}

static bool bview_open(view *v, const void *arg)
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

static void bview_title(view *v, buf *out)
{
    bview *p = v->priv;
    buf_printf(out, "Condition builder: %s%s%s [%s]", p->table ? p->table : "(no table)",
               p->index ? " / " : "", p->index ? p->index : "", bview_mode_names[p->mode]);
}

static int bview_head_rows(view *v)
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

static void bview_draw_head(view *v, int row, int width)
{
    bview *p = v->priv;
    int lw, px, pw;
    panel_cols(p, width, &lw, &px, &pw);
    if (lw)
        term_puts(row, 0, lw, p->panel_focus ? "Tree (Tab: keys back here)" : "Tree (Enter edits, ? help)",
                  ROLE_COLHEAD);
    if (pw <= 0)
        return;
    bview_panel_wrap(p, pw);
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

static void bview_draw(view *v, size_t i, int row, int width)
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
        bview_panel_wrap(p, pw);
        size_t k = (i >= v->vm.top ? i - v->vm.top : 0) + panel_first(v);
        if (k < p->n_wrapped)
            term_puts(row, px, pw, p->wrapped[k].text, p->wrapped[k].r);
    }
    buf_done(&b);
}

static void bview_text(view *v, size_t i, buf *out)
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

static const char *bview_kind_name(int kind)
{
    switch (kind) {
    case L_NODE: return "node";
    case L_UHEAD: return "update-head";
    case L_UROW: return "update-row";
    default: return "pad";
    }
}

static void bview_select_line(view *v)
{
    bview *p = v->priv;
    size_t last = n_left(p) - 1;
    if (v->vm.cursor > last)
        vm_select(&v->vm, last);
}

static void bview_free_line(view *v, line *l)
{
    (void)v;
    free(l->data);
}

static void bview_done(view *v)
{
    bview *p = v->priv;
    builder_free(p->b);
    builder_update_done(&p->upd);
    free(p->nodes);
    free(p->depths);
    if (p->have_verdict)
        builder_verdict_done(&p->verdict);
    bview_panel_free(p);
    free(p->panel);
    free(p->table);
    free(p->index);
    if (p->have_def)
        table_def_free(&p->def);
    av_done(&p->item);
    av_done(&p->stored);
    buf_done(&p->result);
    buf_done(&p->saved);
    builder_paths_free(p->picks, p->n_picks);
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

void bview_reload_below(view *v)
{
    view *below = display_below(v);
    if (below && below->ops->request)
        below->ops->request(below, REQ_RELOAD);
}

int bview_op_by_name(const char *s)
{
    static const char *const n[] = { "put", "update", "delete", "check" };
    for (int i = 0; i < 4; i++)
        if (strcmp(s, n[i]) == 0)
            return i;
    return -1;
}

/* Command names match with '-' or '_' alike (:save-cond, :save_cond). */
static bool is(const char *word, const char *name)
{
    for (; *word && *name; word++, name++)
        if (*word != *name && !((*word == '_' || *word == '-') && (*name == '_' || *name == '-')))
            return false;
    return *word == *name;
}

/* A new item: the last action's result was about the old one. */
static void set_item(bview *p, av *it)
{
    av_done(&p->item);
    p->item = *it;
    buf_reset(&p->result);
    p->result_error = false;
}

/* :cond-item JSON; col is where JSON begins in the command line typed,
 * so an error points at the column the user sees. */
static void cmd_cond_item(bview *p, const char *json, int col)
{
    av it;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), &it, &d) != ST_OK) {
        if (col > 0 && d.line == 1 && d.col > 0) {
            diag at;
            diag_init(&at);
            diag_set(&at, d.code, "%s (column %d of the command line)", d.msg, col + d.col - 1);
            display_diag(":cond-item", at.code, &at);
        } else {
            display_diag(":cond-item", d.code, &d);
        }
    } else {
        set_item(p, &it);
        buf key = BUF_INIT;
        if (p->have_def)
            fmt_key(&key, &p->item, p->def.pk.name, p->def.sk.name);
        display_message("Item set%s%s", key.len ? ": " : "", key.len ? key.data : "");
        buf_done(&key);
    }
}

static void cmd_cond_mode(bview *p, const char *name)
{
    int k = expr_kind_from_name(name);
    if (k == EXPR_CONDITION || k == EXPR_FILTER || k == EXPR_KEY) {
        p->mode = k == EXPR_KEY ? M_KEY : k == EXPR_FILTER ? M_FILTER : M_COND;
        p->act = -1;
    } else {
        display_error("usage: :cond-mode condition|filter|key");
    }
}

/* :upd [EXPR] [--names=J] [--values=J]: the update rows from bview_text (none:
 * clears them). */
static void cmd_upd(bview *p, int argc, char **argv)
{
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
        bview_parse_error(p, "Update not parsed", text.data, &d);
    } else {
        builder_update_done(&p->upd);
        p->upd = nu;
        p->act = -1;
    }
    buf_done(&text);
}

/* :apply put|update|delete|filter [PK [SK]]|key. False when the query
 * bar is on top now (the builder is not rebuilt under it). */
static bool cmd_apply(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    p->panel_top = 0;   /* the result is the panel's first section */
    int op = bview_op_by_name(argv[1]);
    if (op >= 0 && op != BREQ_CHECK) {
        p->act = op;
        bview_apply_write(v, (breq_op)op);
    } else if (strcmp(argv[1], "filter") == 0) {
        bview_apply_read(v, false, argc, argv);
        return false;
    } else if (strcmp(argv[1], "key") == 0) {
        bview_apply_read(v, true, argc, argv);
        return p->result_error;
    } else {
        display_error("usage: :apply put|update|delete|filter [PK [SK]]|key");
    }
    return true;
}

/* :save-pattern NAME: the Query or Scan on screen as an access pattern. */
static void save_pattern(bview *p, const char *name)
{
    breq_op op = bview_action(p);
    if (op != BREQ_QUERY && op != BREQ_SCAN) {
        display_error("An access pattern is a read: make the tree a key condition or a filter (m)");
        return;
    }
    breq r;
    av key;
    buf why = BUF_INIT;
    if (bview_make_req(p, op, &r, &key, &why)) {
        ddb_req req;
        diag d;
        diag_init(&d);
        if (builder_req_typed(&r, &req, &d) != ST_OK)
            display_diag(":save-pattern", d.code, &d);
        else
            view_patterns_save(name, &req);
        ddb_req_done(&req);
    } else {
        display_error("%s: %s", builder_req_op_name(op), why.data);
    }
    av_done(&key);
    buf_done(&why);
}

static bool bview_command(view *v, int argc, char **argv)
{
    bview *p = v->priv;
    const char *c = argv[0];
    size_t sel = v->vm.cursor;
    if (is(c, "cond")) {
        cmd_cond(v, argc, argv);
        sel = 0;
    } else if (is(c, "cond-item") && argc == 2) {
        cmd_cond_item(p, argv[1], display_command_col(1));
    } else if (is(c, "cond-table") && (argc == 2 || argc == 3)) {
        set_table(p, argv[1], argc == 3 ? argv[2] : NULL);
    } else if (is(c, "cond-mode") && argc == 2) {
        cmd_cond_mode(p, argv[1]);
    } else if (is(c, "upd")) {
        cmd_upd(p, argc, argv);
    } else if (is(c, "apply") && argc >= 2) {
        if (!cmd_apply(v, argc, argv)) {
            /* The query bar is on top now: the panel under it says the
             * read went there, not what an earlier action answered. */
            rebuild(v, sel);
            return true;
        }
    } else if (is(c, "txn")) {
        p->panel_top = 0;
        btxn_command(v, argc, argv);
    } else if (is(c, "save-cond") && argc == 2) {
        bview_saved_put(p, argv[1]);
    } else if (is(c, "load-cond") && argc == 2) {
        bview_saved_load(p, argv[1]);
        sel = 0;
    } else if (is(c, "delete-cond") && argc == 2) {
        bview_saved_delete(p, argv[1]);
    } else if (is(c, "conds")) {
        bview_saved_list(p);
    } else if (is(c, "save-pattern") && argc == 2) {
        save_pattern(p, argv[1]);
    } else {
        return false;
    }
    rebuild(v, sel);
    return true;
}

/* With the panel focused, the moving keys scroll it and back gives the
 * keys back to the tree; true when r was one of those. */
static bool panel_key(view *v, enum req r)
{
    bview *p = v->priv;
    size_t rows = v->vm.rows ? v->vm.rows : 1;
    switch (r) {
    case REQ_MOVE_UP: if (p->panel_top) p->panel_top--; return true;
    case REQ_MOVE_DOWN: p->panel_top++; return true;
    case REQ_PAGE_UP: p->panel_top = p->panel_top > rows ? p->panel_top - rows : 0; return true;
    case REQ_PAGE_DOWN: p->panel_top += rows; return true;
    case REQ_MOVE_FIRST: p->panel_top = 0; return true;
    case REQ_MOVE_LAST: p->panel_top = (size_t)-1 / 2; return true;
    case REQ_BACK: p->panel_focus = false; return true;
    default: return false;
    }
}

/* The paths a prompt offers now (valid until the next rebuild). */
static bpicks picks_of(const bview *p)
{
    bpicks pk = { p->picks, p->n_picks, bview_verdict_item(p) };
    return pk;
}

/* +: a clause (or an update row, on the update rows) where the selection
 * is, edited at once (after the rebuild that shows it); left half-made
 * (Esc at any of its prompts), it goes again. Returns the line to
 * select. */
static size_t add_here(view *v, bool on_update)
{
    bview *p = v->priv;
    size_t sel = v->vm.cursor;
    if (on_update) {
        bu_kind kind;
        if (bprompt_row_kind(&kind)) {
            baction *a = builder_update_add(&p->upd, kind);
            size_t at = p->upd.n - 1;
            rebuild(v, p->n_nodes + 1 + at);
            bpicks pk = picks_of(p);
            if (bprompt_row(a, false, &pk))
                sel = p->n_nodes + 1 + at;
            else {
                builder_update_remove(&p->upd, at);
                display_message("Cancelled: no update row added");
            }
        }
        return sel;
    }
    bnode *g;
    size_t at;
    insert_point(v, &g, &at);
    bnode *c = builder_add_clause(p->b, g, at);
    rebuild(v, line_of_node(p, c));
    bpicks pk = picks_of(p);
    if (bprompt_clause(c, &pk))
        return line_of_node(p, c);
    builder_delete(p->b, c);
    display_message("Cancelled: no clause added");
    return sel;
}

/* Moves the selected node among its siblings, or the selected update row
 * among the rows. Returns the line to select. */
static size_t move_here(view *v, bnode *n, baction *row, size_t ri, int dir)
{
    bview *p = v->priv;
    size_t sel = v->vm.cursor;
    if (n && builder_move(p->b, n, dir)) {
        rebuild(v, 0);
        sel = line_of_node(p, n);
    } else if (row && dir < 0 && ri > 0) {
        baction t = p->upd.v[ri - 1];
        p->upd.v[ri - 1] = p->upd.v[ri];
        p->upd.v[ri] = t;
        sel--;
    } else if (row && dir > 0 && ri + 1 < p->upd.n) {
        baction t = p->upd.v[ri + 1];
        p->upd.v[ri + 1] = p->upd.v[ri];
        p->upd.v[ri] = t;
        sel++;
    }
    return sel;
}

/* Enter or a: applies the tree as its action shows (a write here, a read
 * through the query bar). */
static void apply_here(view *v)
{
    bview *p = v->priv;
    breq_op op = bview_action(p);
    p->panel_top = 0;   /* the result is the panel's first section */
    if (op == BREQ_QUERY) {
        char *argv[] = { "apply", "key", NULL };
        bview_command(v, 2, argv);
    } else if (op == BREQ_SCAN) {
        char *argv[] = { "apply", "filter", NULL };
        bview_command(v, 2, argv);
    } else {
        bview_apply_write(v, op);
        rebuild(v, v->vm.cursor);
    }
}

/* e: the builder's own item, for the Put, as DynamoDB JSON in $EDITOR. */
static void edit_own_item(bview *p)
{
    buf text = BUF_INIT;
    if (bview_have_item(p))
        ddbjson_write_item(&text, &p->item);
    else
        buf_adds(&text, "{}");
    if (display_edit(&text, ".json")) {
        av it;
        diag d;
        diag_init(&d);
        if (ddbjson_parse_item(text.data ? text.data : "", text.len, &it, &d) != ST_OK) {
            display_diag("Item", d.code, &d);
        } else {
            set_item(p, &it);
        }
    }
    buf_done(&text);
}

/* The requests that edit the selected node or row: false when r is not
 * one of them. *sel gets the line to select after. */
static bool edit_request(view *v, enum req r, size_t *sel)
{
    bview *p = v->priv;
    bpicks pk = picks_of(p);
    bnode *n = sel_node(v);
    size_t ri = 0;
    baction *row = sel_row(v, &ri);
    line *l = vm_selected(&v->vm);
    bool on_update = l && (l->kind == L_UHEAD || l->kind == L_UROW);
    switch (r) {
    case REQ_COND_ADD:
        *sel = add_here(v, on_update);
        break;
    case REQ_ENTER:
        if (row)
            bprompt_row(row, true, &pk);
        else if (n && !n->group)
            bprompt_clause(n, &pk);
        else if (n)
            n->is_or = !n->is_or;
        break;
    case REQ_COND_PATH:
        if (n && !n->group) {
            if (n->left.kind == BO_VALUE)
                n->left.kind = BO_PATH;
            bprompt_path(&n->left.path, "Path: ", &pk);
        } else if (row) {
            bprompt_path(&row->path, "Path: ", &pk);
        }
        break;
    case REQ_COND_OP:
        if (n && !n->group)
            bprompt_op(n);
        break;
    case REQ_COND_VALUE:
        if (n && !n->group)
            bprompt_values(n, &pk);
        else if (row)
            bprompt_row_values(row, &pk);
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
        *sel = move_here(v, n, row, ri, r == REQ_COND_UP ? -1 : 1);
        break;
    case REQ_COND_DEL:
        if (row)
            builder_update_remove(&p->upd, ri);
        else if (n)
            builder_delete(p->b, n);
        if (*sel > 0 && (row || (n && n != p->b->root)))
            (*sel)--;
        break;
    default:
        return false;
    }
    return true;
}

/* t: the action shown, as `:txn add` adds it. */
static void add_to_txn(view *v)
{
    static char *const ops[] = { "put", "update", "delete", "check" };
    breq_op op = bview_action(v->priv);
    if (op > BREQ_CHECK) {
        display_error("t adds writes: a %s is not one (m: condition mode)", builder_req_op_name(op));
        return;
    }
    char *argv[] = { "txn", "add", ops[op], NULL };
    ((bview *)v->priv)->panel_top = 0;
    btxn_command(v, 3, argv);
}

static enum req bview_request(view *v, enum req r)
{
    bview *p = v->priv;
    size_t sel = v->vm.cursor;
    if (p->panel_focus && panel_key(v, r))
        return REQ_NONE;
    switch (r) {
    case REQ_COND_PANEL:
        p->panel_focus = !p->panel_focus;
        return REQ_NONE;
    case REQ_COND_GROUP: {
        bnode *g;
        size_t at;
        insert_point(v, &g, &at);
        bnode *ng = builder_add_group(p->b, g, at, !g->is_or);
        rebuild(v, line_of_node(p, ng));
        sel = line_of_node(p, ng);
        break;
    }
    case REQ_COND_DUP: {
        bnode *n = sel_node(v);
        bnode *c = n ? builder_duplicate(p->b, n) : NULL;
        if (c) {
            rebuild(v, 0);
            sel = line_of_node(p, c);
        }
        break;
    }
    case REQ_COND_MODE:
        p->mode = (bmode)((p->mode + 1) % 3);
        p->act = -1;
        break;
    case REQ_COND_APPLY:
        apply_here(v);
        return REQ_NONE;
    case REQ_EDIT_ITEM:
        edit_own_item(p);
        break;
    case REQ_RELOAD:
        bview_refresh_item(p);
        buf_reset(&p->result);
        break;
    case REQ_COND:
        return REQ_NONE;
    case REQ_TXN_ADD:
        add_to_txn(v);
        break;
    default:
        if (!edit_request(v, r, &sel))
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

/* The request the builder shows, for copying it out (ui/copy.c). */
static bool bview_typed_request(view *v, ddb_req *out, buf *why)
{
    bview *p = v->priv;
    breq r;
    av key;
    ddb_req_init(out, DDB_GET);
    if (!bview_make_req(p, bview_action(p), &r, &key, why))
        return false;
    diag d;
    diag_init(&d);
    ddb_req_done(out);
    status st = builder_req_typed(&r, out, &d);
    av_done(&key);
    if (st != ST_OK)
        buf_adds(why, d.msg);
    return st == ST_OK;
}

const view_ops view_builder_ops = {
    .typed_request = bview_typed_request,
    .name = "builder",
    .priv_size = sizeof(bview),
    .open = bview_open,
    .title = bview_title,
    .head_rows = bview_head_rows,
    .draw_head = bview_draw_head,
    .draw = bview_draw,
    .request = bview_request,
    .select = bview_select_line,
    .done = bview_done,
    .free_line = bview_free_line,
    .kind_name = bview_kind_name,
    .text = bview_text,
    .command = bview_command,
};
