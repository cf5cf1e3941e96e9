/*
 * view_patterns — the access-patterns view: the patterns of the design
 * (every *.json of the database's pattern folder, paths_patterns_dir, and a
 * file given to `:patterns FILE`), the table's only when opened from a
 * table, all of them grouped by table from the table list.
 *
 * Each pattern shows its operation, its last result in this session
 * (items, read units, what it ran as: Query, GetItem or Scan) and its
 * verdict; a pattern that would Scan, or whose filter discarded most of
 * what it read, or that failed, is marked with the reason on its second
 * line (else the description is there). Enter runs the selected pattern,
 * asking for each parameter with its example filled in, and opens its
 * items grouped by partition (view_pattern_items); `:check` runs every
 * pattern with its examples. `:save-pattern NAME` (view_patterns_save,
 * from the builder and the query bar) writes to the folder's saved.json.
 *
 * Last results outlive the view (a static table by pattern name), so
 * coming back shows what ran.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/pattern_file.h"
#include "data/pattern_run.h"
#include "data/store.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/partiql.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/view.h"
#include "ui/prices.h"

enum { L_TABLE = 1, L_PATTERN, L_NOTE, L_EMPTY, L_ERROR };

/* The last run of a pattern, by name. */
typedef struct last_run {
    char *name;
    pattern_result r;
    pattern_verdict v;
    char *why;
} last_run;

static struct {
    last_run *runs;
    size_t n;
} last;

typedef struct prow {
    size_t idx;            /* L_PATTERN, L_NOTE: the pattern */
    char *text;            /* L_TABLE: the table; L_EMPTY: the message */
} prow;

typedef struct patterns_view {
    char *table;           /* NULL: every table */
    char *file;            /* :patterns FILE, or NULL */
    char *dir;
    pattern_set set;
    char **prescan;        /* per pattern: why it would Scan (NULL: it would not) */
    char *load_error;      /* the first file that did not load */
} patterns_view;

static last_run *last_of(const char *name)
{
    for (size_t i = 0; i < last.n; i++)
        if (strcmp(last.runs[i].name, name) == 0)
            return &last.runs[i];
    return NULL;
}

/* Keeps r (moved in) as the last run of the pattern. */
static void remember(const pattern *p, pattern_result *r)
{
    last_run *l = last_of(p->name);
    if (!l) {
        last.runs = xrealloc(last.runs, (last.n + 1) * sizeof *last.runs);
        l = &last.runs[last.n++];
        memset(l, 0, sizeof *l);
        l->name = xstrdup(p->name);
    }
    pattern_result_done(&l->r);
    free(l->why);
    l->r = *r;
    memset(r, 0, sizeof *r);
    /* Only the counts are kept; the items went to the items view. */
    for (size_t i = 0; i < l->r.n_kept; i++)
        av_done(&l->r.kept[i]);
    free(l->r.kept);
    l->r.kept = NULL;
    l->r.n_kept = 0;
    buf why = BUF_INIT;
    l->v = pattern_judge(p, &l->r, &why);
    l->why = buf_steal(&why);
}

static void patterns_free_line(view *v, line *l)
{
    prow *r = l->data;
    if (!r)
        return;
    free(r->text);
    free(r);
}

static void add_line(view *v, int kind, size_t idx, const char *text)
{
    prow *r = xcalloc(1, sizeof *r);
    r->idx = idx;
    r->text = text ? xstrdup(text) : NULL;
    vm_append(&v->vm, kind, r);
}

static bool shown(const patterns_view *p, const pattern *pt)
{
    return !p->table || strcmp(pt->table, p->table) == 0;
}

static void free_prescan(patterns_view *p)
{
    for (size_t i = 0; p->prescan && i < p->set.n; i++)
        free(p->prescan[i]);
    free(p->prescan);
    p->prescan = NULL;
}

/* Which patterns would Scan, before any runs (a PartiQL SELECT is
 * planned against its table). */
static void plan_all(patterns_view *p)
{
    p->prescan = p->set.n ? xcalloc(p->set.n, sizeof *p->prescan) : NULL;
    for (size_t i = 0; i < p->set.n; i++) {
        buf why = BUF_INIT;
        if (shown(p, &p->set.p[i]) && pattern_plans_scan(display_store(), &p->set.p[i], &why))
            p->prescan[i] = buf_steal(&why);
        buf_done(&why);
    }
}

/* Reads the files again and lays out the lines. */
static void load(view *v)
{
    patterns_view *p = v->priv;
    free_prescan(p);
    pattern_set_done(&p->set);
    pattern_set_init(&p->set);
    free(p->load_error);
    p->load_error = NULL;
    diag d;
    diag_init(&d);
    status st = pattern_file_load_dir(p->dir, &p->set, &d);
    if (st == ST_OK && p->file)
        st = pattern_file_load(p->file, &p->set, &d);
    if (st != ST_OK) {
        buf b = BUF_INIT;
        display_diag_text(&b, NULL, st, &d, NULL);
        p->load_error = buf_steal(&b);
        display_diag(NULL, st, &d);
    }
    plan_all(p);
    vm_clear(&v->vm);
    /* A file that does not parse stays in sight (its patterns are not listed). */
    if (p->load_error)
        add_line(v, L_ERROR, 0, p->load_error);
    /* Tables in the order their first pattern was read, each table's
     * patterns together (saved.json's join their table's). */
    for (size_t t = 0; t < p->set.n; t++) {
        const char *table = p->set.p[t].table;
        bool first = shown(p, &p->set.p[t]);
        for (size_t k = 0; k < t && first; k++)
            first = strcmp(p->set.p[k].table, table) != 0;
        if (!first)
            continue;
        if (!p->table)
            add_line(v, L_TABLE, t, table);
        for (size_t i = t; i < p->set.n; i++)
            if (strcmp(p->set.p[i].table, table) == 0) {
                add_line(v, L_PATTERN, i, NULL);
                add_line(v, L_NOTE, i, NULL);
            }
    }
    if (v->vm.n == (p->load_error ? 1u : 0u)) {
        buf b = BUF_INIT;
        buf_printf(&b, "No access patterns%s%s in %s/*.json.", p->table ? " for " : "",
                   p->table ? p->table : "", p->dir);
        add_line(v, L_EMPTY, 0, b.data);
        add_line(v, L_EMPTY, 0, "  :samples (or ddbx samples) writes the samples' pattern files;");
        add_line(v, L_EMPTY, 0, "  :save-pattern NAME in the builder or the query bar adds one.");
        buf_done(&b);
    }
}

static bool patterns_open(view *v, const void *arg)
{
    const cond_arg *a = arg;
    patterns_view *p = v->priv;
    p->table = a && a->table ? xstrdup(a->table) : NULL;
    p->file = a && a->argc ? xstrdup(a->argv[0]) : NULL;
    p->dir = display_patterns_dir();
    pattern_set_init(&p->set);
    load(v);
    for (size_t i = 0; i < v->vm.n; i++)
        if (v->vm.lines[i].kind == L_PATTERN) {
            vm_select(&v->vm, i);
            break;
        }
    return true;
}

static void patterns_done(view *v)
{
    patterns_view *p = v->priv;
    free_prescan(p);
    pattern_set_done(&p->set);
    free(p->table);
    free(p->file);
    free(p->dir);
    free(p->load_error);
}

static void patterns_title(view *v, buf *out)
{
    patterns_view *p = v->priv;
    size_t n = 0, run = 0, failed = 0;
    for (size_t i = 0; i < p->set.n; i++) {
        if (!shown(p, &p->set.p[i]))
            continue;
        n++;
        last_run *l = last_of(p->set.p[i].name);
        run += l != NULL;
        failed += l && l->v == PAT_FAIL;
    }
    buf_printf(out, "Access patterns%s%s  %zu pattern%s, %zu run, %zu failing  [Enter: run]", p->table ? " of " : "", p->table ? p->table : "",
               n, n == 1 ? "" : "s", run, failed);
}

static void op_text(const pattern *pt, buf *out)
{
    buf_adds(out, pattern_op_name(pt->op));
    if (pt->index)
        buf_printf(out, " %s", pt->index);
}

static void result_text(const pattern *pt, buf *out)
{
    last_run *l = last_of(pt->name);
    if (!l) {
        buf_adds(out, "not run");
        return;
    }
    if (l->r.error) {
        buf_adds(out, "failed");
    } else {
        /* "100+ items": the pattern reads one page and more are left. */
        buf_printf(out, "%zu%s item%s, %g RCU, %s", l->r.items, l->r.truncated ? "+" : "",
                   l->r.items == 1 && !l->r.truncated ? "" : "s", l->r.units,
                   pattern_op_name(l->r.ran_as));
    }
    buf_printf(out, "  %s", pattern_verdict_name(l->v));
}

/* What the last run costs in the session's prices, "$0.0625/M calls,
 * $0.0181/M provisioned; 200/s: $32.85/month, $9.49 provisioned"
 * (nothing without prices). */
static void cost_text(const pattern *pt, const last_run *l, buf *out)
{
    const price_table *tab;
    const price_region *pr;
    if (!prices_get(&tab, &pr))
        return;
    cost_calls c;
    cost_calls_of(pr, tab->hours_per_month, false, l->r.units, pt->rate, &c);
    cost_money(pr, c.od_million, out);
    buf_adds(out, "/M calls, ");
    cost_money(pr, c.pv_million, out);
    buf_adds(out, "/M provisioned");
    if (pt->rate > 0) {
        buf_adds(out, "; ");
        cost_rate_text(pt->rate, out);
        buf_adds(out, ": ");
        cost_money(pr, c.od_month, out);
        buf_adds(out, "/month, ");
        cost_money(pr, c.pv_month, out);
        buf_adds(out, " provisioned");
    }
    buf_adds(out, "  ");
}

/* The second line: why the pattern is marked, else (after a run, its cost
 * first) its description. *role tells which. */
static void note_text(const pattern *pt, const char *prescan, buf *out, role *r)
{
    last_run *l = last_of(pt->name);
    *r = ROLE_DIM;
    if (l && l->why && l->why[0]) {
        buf_adds(out, l->why);
        *r = l->v == PAT_FAIL ? ROLE_ERROR : ROLE_HOT;
    } else if (!l && prescan) {
        buf_adds(out, prescan);
        *r = ROLE_HOT;
    } else {
        if (l && !l->r.error)
            cost_text(pt, l, out);
        if (pt->description) {
            buf_adds(out, pt->description);
            return;
        }
        /* No description (a saved pattern): what it sends. */
        const char *e = pt->statement ? pt->statement : pt->keycond;
        buf_printf(out, "%s%s%s%s", e ? e : "", e && pt->filter ? "  filter " : "",
                   pt->filter && !e ? "filter " : "", pt->filter ? pt->filter : "");
    }
}

static void patterns_draw(view *v, size_t i, int row, int width)
{
    patterns_view *p = v->priv;
    line *l = &v->vm.lines[i];
    prow *r = l->data;
    buf b = BUF_INIT;
    if (l->kind == L_TABLE || l->kind == L_EMPTY || l->kind == L_ERROR) {
        role rl = l->kind == L_TABLE ? ROLE_GROUP : l->kind == L_ERROR ? ROLE_ERROR : ROLE_DIM;
        term_put(row, 0, width, r->text, strlen(r->text), rl, true);
        buf_done(&b);
        return;
    }
    const pattern *pt = &p->set.p[r->idx];
    if (l->kind == L_NOTE) {
        role rl;
        note_text(pt, p->prescan[r->idx], &b, &rl);
        term_put(row, 4, width - 4, b.data ? b.data : "", b.len, rl, true);
        buf_done(&b);
        return;
    }

    last_run *lr = last_of(pt->name);
    bool marked = (lr && lr->v != PAT_PASS) || (!lr && p->prescan[r->idx]);
    term_puts(row, 0, 2, marked ? "!" : " ", ROLE_HOT);
    /* name | operation | last result, narrowing the name first. */
    int name_w = width >= 100 ? 34 : width >= 70 ? 28 : width / 3;
    int x = 2 + term_put(row, 2, name_w, pt->name, strlen(pt->name), ROLE_KEY, true);
    x = x < 2 + name_w + 1 ? 2 + name_w + 1 : x + 1;
    op_text(pt, &b);
    int op_w = 14;
    int used = term_put(row, x, width - x > op_w ? op_w : width - x, b.data, b.len, ROLE_NORMAL, true);
    x += used < op_w ? op_w : used + 1;
    buf_reset(&b);
    result_text(pt, &b);
    if (x < width)
        term_put(row, x, width - x, b.data, b.len,
                 lr && lr->v == PAT_FAIL ? ROLE_ERROR : lr ? ROLE_NORMAL : ROLE_DIM, true);
    buf_done(&b);
}

static const char *patterns_kind_name(int kind)
{
    switch (kind) {
    case L_TABLE: return "table";
    case L_PATTERN: return "pattern";
    case L_NOTE: return "note";
    case L_ERROR: return "error";
    default: return "empty";
    }
}

static void patterns_text(view *v, size_t i, buf *out)
{
    patterns_view *p = v->priv;
    line *l = &v->vm.lines[i];
    prow *r = l->data;
    if (l->kind == L_TABLE || l->kind == L_EMPTY || l->kind == L_ERROR) {
        buf_adds(out, r->text);
        return;
    }
    const pattern *pt = &p->set.p[r->idx];
    if (l->kind == L_NOTE) {
        role rl;
        note_text(pt, p->prescan[r->idx], out, &rl);
        return;
    }

    buf_printf(out, "%s ", pt->name);
    op_text(pt, out);
    buf_adds(out, " ");
    result_text(pt, out);
}

/* ---- running ------------------------------------------------------------ */

/* A value typed for a parameter like example: S, N and B as their text
 * (read as the editor reads a key value, av_scalar_parse), anything else
 * as DynamoDB JSON. */
static status parse_param(const av *example, const char *text, av *out, diag *d)
{
    av_type t = example->type;
    if (t == AV_S || t == AV_N || t == AV_B)
        return av_scalar_parse(t, text, strlen(text), out, d);
    return ddbjson_parse_value(text, strlen(text), out, d);
}

/* What the prompt starts with: the example as parse_param reads it. */
static void example_text(const av *v, buf *out)
{
    if (v->type == AV_BOOL || v->type == AV_NULL || !av_scalar_text(v, out))
        ddbjson_write_value(out, v);
}

/* Asks for each parameter (the example filled in) into values (an M):
 * 1, or 0 when a prompt was left, -1 when a value did not parse (its
 * error is on the status line). */
static int ask_params(const pattern *pt, av *values)
{
    av_init_list(values, AV_M);
    for (size_t i = 0; i < pt->n_params; i++) {
        const pattern_param *pp = &pt->params[i];
        buf label = BUF_INIT, init = BUF_INIT, in = BUF_INIT;
        buf_printf(&label, "%s :%s (%s): ", pt->name, pp->name, av_type_name(pp->example.type));
        example_text(&pp->example, &init);
        bool ok = display_prompt(label.data, init.data ? init.data : "", &in);
        av val;
        diag d;
        diag_init(&d);
        int rc = ok ? 1 : 0;
        if (ok && parse_param(&pp->example, in.data ? in.data : "", &val, &d) != ST_OK) {
            display_diag(pp->name, d.code, &d);
            rc = -1;
        }
        if (rc == 1)
            av_map_put(values, pp->name, strlen(pp->name), &val);
        buf_done(&label);
        buf_done(&init);
        buf_done(&in);
        if (rc != 1)
            return rc;
    }
    return 1;
}

static void run_one(view *v, size_t idx, bool ask)
{
    patterns_view *p = v->priv;
    const pattern *pt = &p->set.p[idx];
    av values = { 0 };
    int asked = ask ? ask_params(pt, &values) : 1;
    if (asked != 1) {
        av_done(&values);
        if (asked == 0)
            display_message("Not run: %s", pt->name);
        return;
    }
    pattern_result r;
    pattern_result_init(&r);
    pattern_run(display_store(), &p->set, pt, ask ? &values : NULL, ask, &r);
    if (ask) {
        /* The values as the title line shows them (plain text). */
        size_t n = values.u.m.len;
        char **names = xcalloc(n + 1, sizeof *names), **texts = xcalloc(n + 1, sizeof *texts);
        for (size_t i = 0; i < n; i++) {
            buf t = BUF_INIT;
            fmt_cell(&t, &values.u.m.v[i].val, 60);
            names[i] = xstrdup(values.u.m.v[i].name);
            texts[i] = buf_steal(&t);
        }
        pattern_items_arg a = { pt, &p->set, &r, names, texts, n };
        display_push(&view_pattern_items_ops, &a);
        for (size_t i = 0; i < n; i++) {
            free(names[i]);
            free(texts[i]);
        }
        free(names);
        free(texts);
    }
    av_done(&values);
    remember(pt, &r);
    pattern_result_done(&r);
}

static void run_all(view *v)
{
    patterns_view *p = v->priv;
    size_t failed = 0, n = 0;
    for (size_t i = 0; i < p->set.n; i++) {
        if (!shown(p, &p->set.p[i]))
            continue;
        run_one(v, i, false);
        n++;
        failed += last_of(p->set.p[i].name)->v == PAT_FAIL;
    }
    display_message("Ran %zu pattern%s with their example values: %zu failing", n,
                    n == 1 ? "" : "s", failed);
}

static enum req patterns_request(view *v, enum req r)
{
    line *l = vm_selected(&v->vm);
    switch (r) {
    case REQ_ENTER:
        if (l && (l->kind == L_PATTERN || l->kind == L_NOTE))
            run_one(v, ((prow *)l->data)->idx, true);
        return REQ_NONE;
    case REQ_RELOAD:
        display_reload_lines(v, load);
        return REQ_NONE;
    case REQ_PATTERNS:
        return REQ_NONE;
    default:
        return r;
    }
}

static bool patterns_command(view *v, int argc, char **argv)
{
    patterns_view *p = v->priv;
    if (strcmp(argv[0], "check") == 0) {
        run_all(v);
        return true;
    }
    if (strcmp(argv[0], "patterns") == 0 && argc == 2) {
        free(p->file);
        p->file = xstrdup(argv[1]);
        load(v);
        return true;
    }
    return false;
}

/* For the builder: the table of the selected pattern. */
static void patterns_context(view *v, cond_arg *out)
{
    patterns_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (l && (l->kind == L_PATTERN || l->kind == L_NOTE)) {
        const pattern *pt = &p->set.p[((prow *)l->data)->idx];
        out->table = pt->table;
        out->index = pt->index;
    } else {
        out->table = p->table;
    }
}

void view_patterns_open(view *from, const char *file)
{
    cond_arg a = { 0 };
    if (from && from->ops != &view_tables_ops && from->ops->context)
        from->ops->context(from, &a);
    char *argv[1] = { (char *)file };
    a.argc = file ? 1 : 0;
    a.argv = argv;
    a.item = NULL;
    display_push(&view_patterns_ops, &a);
}

/* Adds pt to the folder's saved.json (replacing one of its name). */
static void save(const char *name, const pattern *pt)
{
    diag d;
    char *dir = display_patterns_dir();
    buf path = BUF_INIT;
    buf_printf(&path, "%s/saved.json", dir);
    pattern_set set;
    pattern_set_init(&set);
    diag_init(&d);
    status st = ST_OK;
    FILE *f = fopen(path.data, "rb");
    if (f) {
        fclose(f);
        /* A file that does not parse is not overwritten: it would be lost. */
        st = pattern_file_load(path.data, &set, &d);
    }
    if (st == ST_OK) {
        pattern_set_put(&set, pt);
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            snprintf(d.file, sizeof d.file, "%s", dir);
            st = diag_set(&d, ST_IO, "cannot create the folder: %s", strerror(errno));
        } else {
            st = pattern_file_save(path.data, &set, &d);
        }
    }
    if (st != ST_OK)
        display_diag(":save-pattern", st, &d);
    else
        display_message("Saved pattern %s (%s on %s) to %s", name, pattern_op_name(pt->op),
                        pt->table, path.data);
    pattern_set_done(&set);
    buf_done(&path);
    free(dir);
}

void view_patterns_save(const char *name, const ddb_req *req)
{
    pattern pt;
    diag d;
    diag_init(&d);
    if (pattern_from_req(req, name, &pt, &d) != ST_OK)
        display_diag(":save-pattern", d.code, &d);
    else
        save(name, &pt);
    pattern_done(&pt);
}

void view_patterns_save_partiql(const char *name, const char *table, const char *statement,
                                const av *params, size_t n)
{
    if (!table || !pq_is_read_text(statement, strlen(statement))) {
        display_error("An access pattern is a SELECT of a table (run the statement first)");
        return;
    }
    pattern pt;
    pattern_init(&pt);
    pt.name = xstrdup(name);
    pt.op = PAT_PARTIQL;
    pt.table = xstrdup(table);
    pt.statement = xstrdup(statement);
    pt.params = n ? xcalloc(n, sizeof *pt.params) : NULL;
    for (size_t i = 0; i < n; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "p%zu", i + 1);
        pt.params[i].name = xstrdup(nm);
        av_copy(&pt.params[i].example, &params[i]);
    }
    pt.n_params = n;
    save(name, &pt);
    pattern_done(&pt);
}

const view_ops view_patterns_ops = {
    .name = "patterns",
    .priv_size = sizeof(patterns_view),
    .open = patterns_open,
    .title = patterns_title,
    .draw = patterns_draw,
    .request = patterns_request,
    .done = patterns_done,
    .free_line = patterns_free_line,
    .kind_name = patterns_kind_name,
    .text = patterns_text,
    .command = patterns_command,
    .context = patterns_context,
};
