/*
 * view_builder_pending — the `T` view: the pending transaction
 * (view_builder_txn.c), each action with its key, condition, update and
 * values as DynamoDB receives them. Enter edits the selected action's
 * condition (and an Update's update expression) on the prompt line, d
 * removes it (on the first line: clears them all, after asking), A runs
 * them as one TransactWriteItems after asking; the outcome, each
 * cancelled action's reason with the item as it is, shows below.
 *
 * An edited action is made again by the builder (builder_parse, then
 * builder_req_typed), so a condition DynamoDB would refuse is refused
 * here, with the position, and the action is left as it was.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/text.h"
#include "ui/view.h"

enum { L_HEAD = 1, L_ACT, L_DETAIL, L_RESULT };

typedef struct tline {
    long act;            /* the action the line belongs to; -1: none */
    char *text;
    role r;
} tline;

typedef struct txn_view {
    buf result;          /* the last run's outcome, lines */
    bool result_error;
    /* What was typed for an action's condition (or update) and refused:
     * the next Enter on it starts from that text, not the action's. */
    char *draft;
    long draft_act;
    bool draft_update;
} txn_view;

static void add_row(view *v, int kind, long act, role r, const char *text, size_t len)
{
    tline *t = xcalloc(1, sizeof *t);
    t->act = act;
    t->r = r;
    t->text = xmalloc(len + 1);
    memcpy(t->text, text, len);
    t->text[len] = '\0';
    vm_append(&v->vm, kind, t);
}

/* One line of text as rows of the screen's width; continuation rows are
 * indented by six columns (the tree's detail lines by five). */
static void add_line(view *v, int kind, long act, role r, const char *text, size_t len)
{
    int width = term_cols() > 20 ? term_cols() : 20;
    size_t at = 0;
    bool cont = false;
    do {
        int room = cont ? width - 6 : width;
        /* Words stay whole when a space is in the row's second half. */
        size_t n = text_fit_row(text + at, len - at, room, room / 2 + 1);
        if (cont) {
            buf row = BUF_INIT;
            buf_adds(&row, "      ");
            buf_add(&row, text + at, n);
            add_row(v, kind, act, r, row.data, row.len);
            buf_done(&row);
        } else {
            add_row(v, kind, act, r, text + at, n);
        }
        at += n;
        /* A row that ends before a space: the next starts after it. */
        if (at < len && text[at] == ' ')
            at++;
        cont = true;
    } while (at < len);
}

static void add_text(view *v, int kind, long act, role r, const buf *b)
{
    add_line(v, kind, act, r, b->data ? b->data : "", b->len);
}

/* ":v = 1, :w = "a"" for the values an action carries. */
static void values_text(const av *values, buf *out)
{
    for (size_t i = 0; values->type == AV_M && i < values->u.m.len; i++) {
        const av_member *m = &values->u.m.v[i];
        buf_printf(out, "%s%.*s = ", i ? ", " : "", (int)m->name_len, m->name);
        if (m->val.type == AV_S)
            ddbjson_write_string(out, m->val.u.s.ptr, m->val.u.s.len);
        else
            builder_value_text(&m->val, out);
    }
}

static void names_text(const av *names, buf *out)
{
    for (size_t i = 0; names->type == AV_M && i < names->u.m.len; i++) {
        const av_member *m = &names->u.m.v[i];
        buf_printf(out, "%s%.*s = %.*s", i ? ", " : "", (int)m->name_len, m->name,
                   m->val.type == AV_S ? (int)m->val.u.s.len : 0, m->val.type == AV_S ? m->val.u.s.ptr : "");
    }
}

static void add_action(view *v, size_t i)
{
    const ddb_req *a = btxn_act(i);
    buf b = BUF_INIT;
    buf_printf(&b, "%zu. %s", i + 1, btxn_label(i));
    add_text(v, L_ACT, (long)i, ROLE_KEY, &b);
    if (a->kind == DDB_PUT) {
        buf_reset(&b);
        buf_adds(&b, "     item:");
        for (size_t k = 0; a->item.type == AV_M && k < a->item.u.m.len; k++) {
            const av_member *m = &a->item.u.m.v[k];
            buf_printf(&b, " %.*s=", (int)m->name_len, m->name);
            fmt_cell(&b, &m->val, 0);
        }
        /* One row, cut at the screen's edge: the key line says which. */
        add_row(v, L_DETAIL, (long)i, ROLE_NORMAL, b.data, b.len);
    }
    buf_reset(&b);
    buf_printf(&b, "     if %s", a->cond ? a->cond : "(no condition)");
    add_text(v, L_DETAIL, (long)i, ROLE_NORMAL, &b);
    if (a->update) {
        buf_reset(&b);
        buf_printf(&b, "     %s", a->update);
        add_text(v, L_DETAIL, (long)i, ROLE_NORMAL, &b);
    }
    if (a->names.type == AV_M && a->names.u.m.len) {
        buf_reset(&b);
        buf_adds(&b, "     ");
        names_text(&a->names, &b);
        add_text(v, L_DETAIL, (long)i, ROLE_DIM, &b);
    }
    if (a->values.type == AV_M && a->values.u.m.len) {
        buf_reset(&b);
        buf_adds(&b, "     ");
        values_text(&a->values, &b);
        add_text(v, L_DETAIL, (long)i, ROLE_DIM, &b);
    }
    buf_done(&b);
}

/* The lines again from the transaction; keeps the selection's line. */
static void rebuild(view *v)
{
    txn_view *p = v->priv;
    size_t sel = v->vm.cursor;
    vm_clear(&v->vm);
    size_t n = btxn_count();
    buf b = BUF_INIT;
    if (n)
        buf_printf(&b, "TransactWriteItems of %zu action%s: all applied, or none", n, n == 1 ? "" : "s");
    else
        buf_adds(&b, "No pending actions: t on an item adds one");
    add_text(v, L_HEAD, -1, ROLE_GROUP, &b);
    for (size_t i = 0; i < n; i++)
        add_action(v, i);
    const char *r = p->result.data;
    while (r && *r) {
        size_t len = strcspn(r, "\n");
        add_line(v, L_RESULT, -1, p->result_error ? ROLE_ERROR : ROLE_NORMAL, r, len);
        r += len + (r[len] == '\n');
    }
    buf_done(&b);
    vm_select(&v->vm, sel);
}

static bool pending_open(view *v, const void *arg)
{
    (void)arg;
    rebuild(v);
    return true;
}

static void pending_title(view *v, buf *out)
{
    (void)v;
    size_t n = btxn_count();
    buf_printf(out, "Pending transaction: %zu action%s", n, n == 1 ? "" : "s");
}

static int pending_head_rows(view *v)
{
    (void)v;
    return 1;
}

static void pending_draw_head(view *v, int row, int width)
{
    (void)v;
    term_puts(row, 0, width, "Enter: edit condition  d: remove (line 1: clear)  A: run  q: back",
              ROLE_COLHEAD);
}

static void pending_draw(view *v, size_t i, int row, int width)
{
    tline *t = vm_line(&v->vm, i)->data;
    term_put(row, 0, width, t->text, strlen(t->text), t->r, true);
}

static void pending_text(view *v, size_t i, buf *out)
{
    buf_adds(out, ((tline *)vm_line(&v->vm, i)->data)->text);
}

static const char *pending_kind_name(int kind)
{
    switch (kind) {
    case L_HEAD: return "head";
    case L_ACT: return "action";
    case L_DETAIL: return "detail";
    default: return "result";
    }
}

static void pending_free_line(view *v, line *l)
{
    (void)v;
    tline *t = l->data;
    free(t->text);
    free(t);
}

static void pending_done(view *v)
{
    txn_view *p = v->priv;
    buf_done(&p->result);
    free(p->draft);
}

/* Whether placeholder tok (":v", "#n") appears as a whole token in text. */
static bool uses(const char *text, const char *tok, size_t len)
{
    for (const char *at = text; (at = strstr(at, tok)) != NULL; at++) {
        char c = at[len];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return true;
    }
    return false;
}

/* The members of an action's names or values map that text uses, as the
 * JSON builder_parse reads (nothing: none); an expression may not be
 * given a placeholder it does not use. */
static void map_json_for(const av *m, const char *text, bool names, buf *out)
{
    av sub;
    av_init_list(&sub, AV_M);
    for (size_t i = 0; m->type == AV_M && i < m->u.m.len; i++) {
        const av_member *e = &m->u.m.v[i];
        char *tok = xmalloc(e->name_len + 1);
        memcpy(tok, e->name, e->name_len);
        tok[e->name_len] = '\0';
        if (uses(text, tok, e->name_len)) {
            av c;
            av_copy(&c, &e->val);
            av_map_put(&sub, e->name, e->name_len, &c);
        }
        free(tok);
    }
    if (sub.u.m.len && names) {
        buf_addc(out, '{');
        for (size_t i = 0; i < sub.u.m.len; i++) {
            const av_member *e = &sub.u.m.v[i];
            if (i)
                buf_addc(out, ',');
            ddbjson_write_string(out, e->name, e->name_len);
            buf_addc(out, ':');
            ddbjson_write_string(out, e->val.u.s.ptr, e->val.u.s.len);
        }
        buf_addc(out, '}');
    } else if (sub.u.m.len) {
        ddbjson_write_item(out, &sub);
    }
    av_done(&sub);
}

/* Asks for an expression pre-filled with cur (or the text refused last
 * time for this action); parses it with the names and values the action
 * carries. A refused text is asked again, kept, with DynamoDB's reason
 * and the position above it. False when left. */
static bool ask_expr(txn_view *p, long i, const char *label, const char *cur, bool update,
                     builder **cond, bupdate *upd)
{
    const ddb_req *a = btxn_act((size_t)i);
    bool drafted = p->draft && p->draft_act == i && p->draft_update == update;
    char *text = xstrdup(drafted ? p->draft : cur ? cur : "");
    buf in = BUF_INIT;
    bool ok;
    for (;;) {
        buf_reset(&in);
        ok = display_prompt(label, text, &in);
        free(text);
        text = xstrdup(in.data ? in.data : "");
        if (!ok)
            break;
        buf names = BUF_INIT, values = BUF_INIT;
        map_json_for(&a->names, text, true, &names);
        map_json_for(&a->values, text, false, &values);
        diag d;
        diag_init(&d);
        status st = ST_OK;
        if (update)
            st = builder_update_parse(text, names.data, values.data, upd, &d);
        else if (*text)
            st = builder_parse(EXPR_CONDITION, text, names.data, values.data, cond, &d);
        else
            *cond = builder_new();
        buf_done(&names);
        buf_done(&values);
        free(p->draft);
        p->draft = NULL;
        if (st == ST_OK)
            break;
        /* Asked again with the text and the reason above it; kept as the
         * draft should the prompt be left. */
        if (update)
            builder_update_done(upd);
        buf where = BUF_INIT;
        buf_printf(&where, "%s\"%s\"", update ? "Update " : "Condition ", text);
        display_diag(where.data, st, &d);
        buf_done(&where);
        p->draft = xstrdup(text);
        p->draft_act = i;
        p->draft_update = update;
    }
    free(text);
    buf_done(&in);
    return ok;
}

static breq_op op_of(ddb_kind k)
{
    return k == DDB_PUT ? BREQ_PUT : k == DDB_UPDATE ? BREQ_UPDATE : k == DDB_DELETE ? BREQ_DELETE : BREQ_CHECK;
}

/* Enter: the action's condition (and an Update's update) asked again. */
static void edit_action(txn_view *p, size_t i)
{
    const ddb_req *a = btxn_act(i);
    builder *cond = NULL;
    bupdate upd;
    builder_update_init(&upd);
    bool ok = ask_expr(p, (long)i, "Condition (blank: none): ", a->cond, false, &cond, &upd);
    if (ok && a->kind == DDB_UPDATE) {
        builder_update_done(&upd);
        ok = ask_expr(p, (long)i, "Update: ", a->update, true, &cond, &upd);
    }
    if (ok) {
        breq r;
        memset(&r, 0, sizeof r);
        r.op = op_of(a->kind);
        r.table = a->table;
        r.item = a->kind == DDB_PUT ? &a->item : &a->key;
        r.cond = cond;
        r.update = &upd;
        r.all_old_on_fail = a->rv_fail_all_old;
        ddb_req act;
        diag d;
        diag_init(&d);
        if (builder_req_typed(&r, &act, &d) == ST_OK) {
            btxn_replace(i, &act);
            ddb_req_done(&act);
            display_message("Action %zu changed", i + 1);
        } else {
            display_diag(builder_req_op_name(r.op), d.code, &d);
        }
    }
    builder_free(cond);
    builder_update_done(&upd);
}

static void run(view *v, bool ask)
{
    txn_view *p = v->priv;
    buf_reset(&p->result);
    p->result_error = !btxn_run(&p->result, ask && btxn_count());
    if (!p->result_error)
        bview_reload_below(v);
}

static void clear(view *v, bool ask)
{
    txn_view *p = v->priv;
    size_t n = btxn_count();
    if (!n || (ask && !display_confirm("Clear the %zu pending action%s?", n, n == 1 ? "" : "s")))
        return;
    btxn_clear();
    buf_reset(&p->result);
    display_message("Transaction cleared");
}

static long selected_act(view *v)
{
    line *l = vm_selected(&v->vm);
    return l ? ((tline *)l->data)->act : -1;
}

static enum req pending_request(view *v, enum req r)
{
    long i = selected_act(v);
    line *l = vm_selected(&v->vm);
    switch (r) {
    case REQ_ENTER:
    case REQ_EDIT_ATTR:
        if (i >= 0)
            edit_action(v->priv, (size_t)i);
        break;
    case REQ_DELETE:
    case REQ_COND_DEL:
        if (i >= 0) {
            btxn_remove((size_t)i);
            free(((txn_view *)v->priv)->draft);
            ((txn_view *)v->priv)->draft = NULL;
            display_message("Action %ld removed", i + 1);
        } else if (l && l->kind == L_HEAD) {
            clear(v, true);
        }
        break;
    case REQ_COND_APPLY:
        run(v, true);
        break;
    case REQ_RELOAD:
    case REQ_TXN_SHOW:
        break;
    default:
        return r;
    }
    rebuild(v);
    return REQ_NONE;
}

/* :txn run, :txn clear (no question: the command is the answer). */
static bool pending_command(view *v, int argc, char **argv)
{
    if (strcmp(argv[0], "txn") != 0 || argc != 2)
        return false;
    if (strcmp(argv[1], "run") == 0)
        run(v, false);
    else if (strcmp(argv[1], "clear") == 0)
        clear(v, false);
    else
        return false;
    rebuild(v);
    return true;
}

const view_ops view_txn_ops = {
    .name = "txn",
    .priv_size = sizeof(txn_view),
    .open = pending_open,
    .title = pending_title,
    .head_rows = pending_head_rows,
    .draw_head = pending_draw_head,
    .draw = pending_draw,
    .request = pending_request,
    .done = pending_done,
    .free_line = pending_free_line,
    .kind_name = pending_kind_name,
    .text = pending_text,
    .command = pending_command,
};
