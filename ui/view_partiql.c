/*
 * view_partiql — the query bar's PartiQL mode: a statement typed or
 * pasted, a prompt for each `?` parameter (a PartiQL literal: 'text', 12,
 * TRUE, <<'a'>>, {'k': 1}, [..]), and before it runs what it becomes —
 * a Query of which partitions and key range, or a Scan reading every
 * item, or the write — from model/partiql's plan against the table's
 * definition. After it runs: the items, how many, and the capacity
 * consumed. Pages follow the NextToken when the selection moves past the
 * last result. It runs through store_partiql_page (typed: av in, av out), so
 * it works the same on a remote store.
 *
 * Opened with S (request `partiql`) from any view, on the table shown,
 * or with `:partiql [STATEMENT]`.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/partiql.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/term.h"
#include "ui/text.h"
#include "ui/view.h"

#define PAGE_LIMIT 100
#define MAX_PARAMS 64

enum { L_STMT = 1, L_PARAM, L_PLAN, L_SUMMARY, L_COLHEAD, L_RESULT, L_MORE };

typedef struct pline {
    size_t param;      /* L_PARAM: which; L_STMT, L_PLAN, L_SUMMARY: which row */
    av item;           /* L_RESULT */
} pline;

typedef struct pq_view {
    char *stmt;
    char *param_text[MAX_PARAMS];   /* as typed */
    av params[MAX_PARAMS];
    size_t n_params;
    char *plan;        /* what it runs as, or why it cannot */
    bool plan_ok;
    bool writes;       /* the plan is a write (its capacity is WCU) */
    char *table;       /* the statement's table, once parsed */
    table_def def;
    bool have_def;
    bool ran;
    size_t count;
    double capacity;
    char *next;        /* NextToken of the last page */
    char *error;
    cols cols;
} pq_view;

static void pqv_free_line(view *v, line *l)
{
    pline *q = l->data;
    if (!q)
        return;
    av_done(&q->item);
    free(q);
}

static void append(view *v, int kind, size_t param)
{
    pline *q = xcalloc(1, sizeof *q);
    q->param = param;
    vm_append(&v->vm, kind, q);
}

static void clear_params(pq_view *p)
{
    for (size_t i = 0; i < p->n_params; i++) {
        free(p->param_text[i]);
        p->param_text[i] = NULL;
        av_done(&p->params[i]);
    }
    p->n_params = 0;
}

/* The plan line: parse with the parameters given so far and plan against
 * the table's definition (described once per table). */
static void replan(pq_view *p)
{
    free(p->plan);
    p->plan = NULL;
    p->plan_ok = false;
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    pq_stmt *s = NULL;
    size_t want = pq_count_params(p->stmt, strlen(p->stmt)), unset = 0;
    for (size_t i = 0; i < p->n_params; i++)
        unset += p->params[i].type == AV_NONE;
    if (want > p->n_params || unset) {
        buf_printf(&b, "Needs %zu parameter%s (%zu not given): Enter on a ? line asks for it", want,
                   want == 1 ? "" : "s", want > p->n_params ? want - p->n_params : unset);
        goto out;
    }
    if (pq_parse(p->stmt, strlen(p->stmt), p->params, p->n_params, &s, &d) != ST_OK) {
        buf_printf(&b, "%s: %s", status_name(d.code), d.msg);
        goto out;
    }
    if (!p->table || strcmp(p->table, pq_table(s)) != 0) {
        if (p->have_def)
            table_def_free(&p->def);
        p->have_def = false;
        free(p->table);
        p->table = xstrdup(pq_table(s));
        if (store_describe(display_store(), p->table, &p->def, &d) == ST_OK)
            p->have_def = true;
    }
    if (!p->have_def) {
        buf_printf(&b, "ResourceNotFoundException: no table %s", p->table);
        goto out;
    }
    pq_plan plan;
    if (pq_plan_of(s, &p->def, &plan, &d) != ST_OK) {
        buf_printf(&b, "%s: %s", status_name(d.code), d.msg);
        pq_plan_done(&plan);
        goto out;
    }
    const char *on = plan.index ? plan.index : "the base table";
    switch (plan.op) {
    case PQ_OP_QUERY:
        buf_printf(&b, "Will run: Query on %s (%zu partition%s: %s)", on, plan.n_pks,
                   plan.n_pks == 1 ? "" : "s, one Query each", plan.key_text);
        break;
    case PQ_OP_SCAN:
        buf_printf(&b, "Will run: Scan of %s (no partition key fixed: reads every item)", on);
        break;
    case PQ_OP_CHECK:
        buf_adds(&b, "EXISTS is a condition check: it runs only in a transaction");
        break;
    default:
        buf_printf(&b, "Will run: %s on %s, key %s", pq_op_name(plan.op), plan.table,
                   plan.op == PQ_OP_PUT ? "from the item" : plan.key_text);
        break;
    }
    if (plan.filter_text)
        buf_printf(&b, ", %s %s", plan.op == PQ_OP_QUERY || plan.op == PQ_OP_SCAN ? "then filter"
                                                                            : "if", plan.filter_text);
    p->plan_ok = plan.op != PQ_OP_CHECK;
    p->writes = plan.op != PQ_OP_QUERY && plan.op != PQ_OP_SCAN;
    pq_plan_done(&plan);
out:
    pq_free(s);
    p->plan = buf_steal(&b);
}

/* The statement, the plan and the summary each take as many rows as
 * their text needs at the screen's width (a line a row; more: rewrap). */
static void lines(view *v)
{
    pq_view *p = v->priv;
    vm_clear(&v->vm);
    append(v, L_STMT, 0);
    for (size_t i = 0; i < p->n_params; i++)
        append(v, L_PARAM, i);
    append(v, L_PLAN, 0);
    if (p->ran || p->error)
        append(v, L_SUMMARY, 0);
}

/* The line showing row `row` of kind (parameter `row` for L_PARAM), or
 * the first line of the kind when there is none such; vm.n: no line. */
static size_t line_of(view *v, int kind, size_t row)
{
    size_t first = v->vm.n;
    for (size_t i = 0; i < v->vm.n; i++)
        if (v->vm.lines[i].kind == kind) {
            if (((pline *)v->vm.lines[i].data)->param == row)
                return i;
            if (first == v->vm.n)
                first = i;
        }
    return first;
}

/* Asks for the i-th parameter; false when cancelled. Text that is not a
 * literal is asked again, as typed, the reason above it. */
static bool ask_param(pq_view *p, size_t i, size_t of)
{
    char label[96];
    snprintf(label, sizeof label, "Parameter %zu of %zu ('text', 12, TRUE): ", i + 1, of);
    buf in = BUF_INIT, cur = BUF_INIT;
    buf_adds(&cur, p->param_text[i] ? p->param_text[i] : "");
    bool ok = false;
    while (display_prompt(label, cur.data ? cur.data : "", &in)) {
        display_message("%s", "");
        const char *t = in.data ? in.data : "";
        av val;
        diag d;
        diag_init(&d);
        if (pq_parse_value(t, strlen(t), &val, &d) == ST_OK) {
            free(p->param_text[i]);
            p->param_text[i] = xstrdup(t);
            av_done(&p->params[i]);
            p->params[i] = val;
            ok = true;
            break;
        }
        char what[80];
        snprintf(what, sizeof what, "Parameter %zu (a literal: 'text', 12, TRUE, <<'a'>>)", i + 1);
        display_diag(what, d.code, &d);
        buf_reset(&cur);
        buf_adds(&cur, t);
    }
    buf_done(&in);
    buf_done(&cur);
    return ok;
}

/* The statement changed: as many parameters as it has `?`, each asked. */
static void set_statement(view *v, const char *text, bool ask)
{
    pq_view *p = v->priv;
    free(p->stmt);
    p->stmt = xstrdup(text);
    size_t want = pq_count_params(text, strlen(text));
    if (want > MAX_PARAMS)
        want = MAX_PARAMS;
    while (p->n_params > want) {
        p->n_params--;
        free(p->param_text[p->n_params]);
        p->param_text[p->n_params] = NULL;
        av_done(&p->params[p->n_params]);
    }
    while (p->n_params < want)
        p->params[p->n_params++].type = AV_NONE;
    for (size_t i = 0; ask && i < want; i++)
        if (!ask_param(p, i, want))
            break;
    p->ran = false;
    free(p->error);
    p->error = NULL;
    replan(p);
    lines(v);
}

/* Runs one page (token NULL: the first); appends what it returned. */
static size_t run_page(view *v)
{
    pq_view *p = v->priv;
    store_partiql_result r;
    diag d;
    diag_init(&d);
    char *token = p->next;
    p->next = NULL;
    status st = store_partiql_page(display_store(), p->stmt, p->params, p->n_params, PAGE_LIMIT,
                                   token, &r, &d);
    free(token);
    if (v->vm.n && v->vm.lines[v->vm.n - 1].kind == L_MORE)
        vm_trim(&v->vm, 0, v->vm.n - 1);
    if (st != ST_OK) {
        char msg[1200];
        snprintf(msg, sizeof msg, "%s: %s", status_name(st), d.msg);
        free(p->error);
        p->error = xstrdup(msg);
        display_error("%s", msg);
        return 0;
    }
    p->ran = true;
    p->count += r.n;
    p->capacity += r.capacity;
    for (size_t i = 0; i < r.n; i++) {
        pline *q = xcalloc(1, sizeof *q);
        av_move(&q->item, &r.items[i]);
        vm_append(&v->vm, L_RESULT, q);
    }
    size_t added = r.n;
    if (r.next_token) {
        p->next = xstrdup(r.next_token);
        append(v, L_MORE, 0);
        added++;
    }
    store_partiql_result_done(&r);
    return added;
}

static void run(view *v)
{
    pq_view *p = v->priv;
    replan(p);
    if (!p->plan_ok) {
        display_error("%s", p->plan);
        return;
    }
    p->count = 0;
    p->capacity = 0;
    p->ran = false;
    free(p->next);
    p->next = NULL;
    free(p->error);
    p->error = NULL;
    lines(v);
    append(v, L_SUMMARY, 0);
    append(v, L_COLHEAD, 0);
    run_page(v);
    vm_select(&v->vm, line_of(v, L_SUMMARY, 0));
}

static bool pqv_open(view *v, const void *arg)
{
    const char *stmt = arg;
    set_statement(v, stmt ? stmt : "SELECT * FROM ", false);
    vm_select(&v->vm, 0);
    return true;
}

void view_partiql_open(view *from, const char *statement)
{
    buf b = BUF_INIT;
    if (!statement || !*statement) {
        cond_arg c = { 0 };
        if (from && from->ops->context)
            from->ops->context(from, &c);
        if (c.table && c.index)
            buf_printf(&b, "SELECT * FROM \"%s\".\"%s\"", c.table, c.index);
        else if (c.table)
            buf_printf(&b, "SELECT * FROM \"%s\"", c.table);
        else
            buf_adds(&b, "SELECT * FROM ");
        statement = b.data;
    }
    /* :partiql in the PartiQL bar replaces it: one q leaves it. */
    view *v = from && from->ops == &view_partiql_ops ? display_replace(&view_partiql_ops, statement)
                                                     : display_push(&view_partiql_ops, statement);
    if (v && pq_count_params(statement, strlen(statement)))
        set_statement(v, statement, true);
    buf_done(&b);
}

static void pqv_done(view *v)
{
    pq_view *p = v->priv;
    clear_params(p);
    free(p->stmt);
    free(p->plan);
    free(p->table);
    free(p->next);
    free(p->error);
    if (p->have_def)
        table_def_free(&p->def);
}

/* Capacity is read units for a SELECT, write units for the writes
 * (ExecuteStatement's ConsumedCapacity: CapacityUnits of the reads or
 * writes it made). */
static void summary(pq_view *p, buf *out)
{
    if (p->error) {
        buf_printf(out, "Error: %s", p->error);
        return;
    }
    buf_printf(out, "Ran: %zu item%s, ConsumedCapacity %g %s%s", p->count, p->count == 1 ? "" : "s",
               p->capacity, p->writes ? "WCU" : "RCU", p->next ? "  (more pages)" : "");
}

/* Column 12 after "Statement": where the statement's rows start. */
#define STMT_X 12
#define PLAN_HINT "[Enter: run]"

/* The rows a wrapped line of kind takes at width, and row k's text. */
static bool row_text(pq_view *p, int kind, int width, size_t k, buf *out)
{
    size_t from, n;
    if (kind == L_STMT) {
        bool ok = text_wrap_row(p->stmt, strlen(p->stmt), width - STMT_X, k, &from, &n);
        if (ok)
            buf_add(out, p->stmt + from, n);
        return ok || k == 0;
    }
    buf b = BUF_INIT;
    if (kind == L_PLAN)
        buf_adds(&b, p->plan ? p->plan : "");
    else
        summary(p, &b);
    bool ok = kind == L_PLAN && p->plan_ok
            ? text_wrap_row_tail(b.data ? b.data : "", b.len, PLAN_HINT, width, k, out)
            : text_wrap_row(b.data ? b.data : "", b.len, width, k, &from, &n);
    if (ok && !(kind == L_PLAN && p->plan_ok))
        buf_add(out, b.data + from, n);
    buf_done(&b);
    return ok || k == 0;
}

static size_t rows_needed(pq_view *p, int kind, int width)
{
    size_t k = 1;
    buf b = BUF_INIT;
    while (row_text(p, kind, width, k, &b))
        k++;
    buf_done(&b);
    return k;
}

static void *new_pline(void *ctx)
{
    (void)ctx;
    return xcalloc(1, sizeof(pline));
}

/* Makes the lines of kind as many as its rows at width, each knowing its
 * row (the cursor stays on its line). */
static void rewrap(view *v, int kind, int width)
{
    size_t at = vm_fit_run(&v->vm, kind, rows_needed(v->priv, kind, width), new_pline, NULL);
    for (size_t i = 0; at + i < v->vm.n && v->vm.lines[at + i].kind == kind; i++)
        ((pline *)v->vm.lines[at + i].data)->param = i;
}

static void pqv_title(view *v, buf *out)
{
    pq_view *p = v->priv;
    buf_adds(out, "PartiQL  ");
    if (p->ran || p->error)
        summary(p, out);
    else
        buf_adds(out, "(Enter: edit the statement or run it; q: back)");
}

static void param_text(const pq_view *p, size_t i, buf *out)
{
    buf_printf(out, "? %zu", i + 1);
    if (p->params[i].type != AV_NONE) {
        buf_adds(out, "  ");
        pq_print_value(&p->params[i], out);
    }
}

static void pqv_draw(view *v, size_t i, int row, int width)
{
    pq_view *p = v->priv;
    line *l = &v->vm.lines[i];
    pline *q = l->data;
    buf b = BUF_INIT;
    switch (l->kind) {
    case L_STMT:
        if (q->param == 0)
            term_puts(row, 0, STMT_X, DDB_MEMBER_STATEMENT, ROLE_COLHEAD);
        row_text(p, L_STMT, width, q->param, &b);
        term_put(row, STMT_X, width - STMT_X, b.data ? b.data : "", b.len, ROLE_KEY, true);
        break;
    case L_PARAM:
        param_text(p, q->param, &b);
        if (p->params[q->param].type == AV_NONE)
            buf_adds(&b, "  -");
        term_put(row, 2, width - 2, b.data, b.len, ROLE_NORMAL, true);
        break;
    case L_PLAN:
        row_text(p, L_PLAN, width, q->param, &b);
        term_put(row, 0, width, b.data ? b.data : "", b.len, p->plan_ok ? ROLE_PROMPT : ROLE_ERROR,
                 true);
        break;
    case L_SUMMARY:
        row_text(p, L_SUMMARY, width, q->param, &b);
        term_put(row, 0, width, b.data ? b.data : "", b.len, p->error ? ROLE_ERROR : ROLE_GROUP, true);
        break;
    case L_COLHEAD:
        cols_draw_head(&p->cols, row, 2, width, v->vm.hscroll);
        break;
    case L_RESULT:
        cols_draw_item(&p->cols, &q->item, row, 2, width, v->vm.hscroll,
                       p->have_def ? &p->def : NULL, NULL);
        break;
    case L_MORE:
        term_puts(row, 2, width - 2, "... more (next page loads when you move here)", ROLE_DIM);
        break;
    }
    buf_done(&b);
}

/* The table's key attributes first, when the items have them (held_only):
 * a SELECT of some attributes returns only those (no empty PK column). */
static void pqv_layout(view *v)
{
    pq_view *p = v->priv;
    int width = term_cols();
    rewrap(v, L_STMT, width);
    rewrap(v, L_PLAN, width);
    rewrap(v, L_SUMMARY, width);
    const char *first[2] = { p->have_def ? p->def.pk.name : NULL, p->have_def ? p->def.sk.name : NULL };
    cols_fit_lines(&p->cols, &v->vm, L_RESULT, offsetof(pline, item), first, 2, true);
}

static size_t pqv_more(view *v, int dir)
{
    pq_view *p = v->priv;
    if (dir < 0 || !p->next)
        return 0;
    return run_page(v);
}

static void edit_statement(view *v)
{
    pq_view *p = v->priv;
    buf in = BUF_INIT;
    if (display_prompt("PartiQL: ", p->stmt, &in))
        set_statement(v, in.data ? in.data : "", true);
    buf_done(&in);
}

static enum req pqv_request(view *v, enum req r)
{
    pq_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_PARTIQL) {
        edit_statement(v);
        return REQ_NONE;
    }
    if (r == REQ_RELOAD) {
        if (p->ran)
            run(v);
        return REQ_NONE;
    }
    if (r != REQ_ENTER || !l)
        return r;
    switch (l->kind) {
    case L_STMT:
        edit_statement(v);
        break;
    case L_PARAM: {
        pline *q = l->data;
        size_t i = q->param;
        if (ask_param(p, i, p->n_params)) {
            p->ran = false;
            replan(p);
            lines(v);
            vm_select(&v->vm, line_of(v, L_PARAM, i));
        }
        break;
    }
    case L_PLAN:
    case L_SUMMARY:
        run(v);
        break;
    case L_RESULT: {
        item_arg a = { p->table, NULL, &((pline *)l->data)->item };
        display_push(&view_item_ops, &a);
        break;
    }
    case L_MORE:
        run_page(v);
        break;
    }
    return REQ_NONE;
}

/* :partiql STATEMENT replaces the statement; :run runs it. */
static bool pqv_command(view *v, int argc, char **argv)
{
    pq_view *p = v->priv;
    if (argc >= 1 && strcmp(argv[0], "run") == 0) {
        run(v);
        return true;
    }
    if (argc == 2 && (strcmp(argv[0], "save-pattern") == 0 || strcmp(argv[0], "save_pattern") == 0)) {
        view_patterns_save_partiql(argv[1], p->table, p->stmt ? p->stmt : "", p->params,
                                   p->n_params);
        return true;
    }
    return false;
}

static const char *pqv_kind_name(int kind)
{
    switch (kind) {
    case L_STMT: return "statement";
    case L_PARAM: return "parameter";
    case L_PLAN: return "plan";
    case L_SUMMARY: return "summary";
    case L_COLHEAD: return "columns";
    case L_RESULT: return "result";
    default: return "more";
    }
}

static void pqv_text(view *v, size_t i, buf *out)
{
    pq_view *p = v->priv;
    line *l = &v->vm.lines[i];
    pline *q = l->data;
    switch (l->kind) {
    /* A wrapped line's whole text on its first row. */
    case L_STMT: if (q->param == 0) buf_printf(out, "%s: %s", DDB_MEMBER_STATEMENT, p->stmt); break;
    case L_PARAM: param_text(p, q->param, out); break;
    case L_PLAN: if (q->param == 0) buf_adds(out, p->plan ? p->plan : ""); break;
    case L_SUMMARY: if (q->param == 0) summary(p, out); break;
    case L_COLHEAD: cols_heads_text(&p->cols, out); break;
    case L_RESULT: cols_item_text(&q->item, out); break;
    default: buf_adds(out, "more"); break;
    }
}

static void pqv_context(view *v, cond_arg *out)
{
    pq_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    out->table = p->table;
    if (l && l->kind == L_RESULT)
        out->item = &((pline *)l->data)->item;
}

const view_ops view_partiql_ops = {
    .name = "partiql",
    .results = true,
    .priv_size = sizeof(pq_view),
    .open = pqv_open,
    .title = pqv_title,
    .layout = pqv_layout,
    .draw = pqv_draw,
    .request = pqv_request,
    .done = pqv_done,
    .more = pqv_more,
    .free_line = pqv_free_line,
    .kind_name = pqv_kind_name,
    .text = pqv_text,
    .command = pqv_command,
    .context = pqv_context,
};
