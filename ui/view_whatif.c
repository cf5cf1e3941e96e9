/*
 * view_whatif — `:what-if [TABLE]`: a scratch copy of the table
 * (data/scratch.h: its own database file under $TMPDIR, deleted when the
 * view closes) on which `:create-index` and `:delete-index` change the
 * copy, never the table. After each change every access pattern of the
 * table (the database's pattern folder) runs again on the copy, and the
 * view shows each pattern's read units and cost before and after, what a
 * write of each entity costs with its index copies (the entities inferred
 * from the copy again), and the storage a month: what a new index buys
 * and what it costs in writes before the real table is touched. The
 * doctor's rules (data/doctor_run.h) run on the copy too, and the view
 * shows the findings the changes bring and the ones they clear (an index
 * keyed on an attribute of one value: its one partition is hot).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/doctor_run.h"
#include "data/pattern_file.h"
#include "data/pattern_run.h"
#include "data/scratch.h"
#include "data/table_read.h"
#include "model/mem.h"
#include "ui/cli_evolve.h"
#include "ui/display.h"
#include "ui/prices.h"
#include "ui/schema_cmds.h"
#include "ui/text.h"
#include "ui/view.h"

enum { L_TEXT = 1 };

/* A line of text, or a row of three cells: what, before, after. */
typedef struct wline {
    role r;
    char *text;
    char *before, *after;  /* NULL: a line of text */
} wline;

/* One state of the copy: its patterns' results, entities, storage and
 * the doctor's findings. */
typedef struct state {
    pattern_result *r;     /* per pattern of the set */
    ent_table e;
    double storage;
    doctor_report doc;
} state;

typedef struct whatif_view {
    char *table;
    char *path;
    store *copy;
    table_read info;
    pattern_set set;
    state before, after;
    buf changes;
    int width;             /* the lines are wrapped at this width */
} whatif_view;

static void whatif_free_line(view *v, line *l)
{
    wline *w = l->data;
    if (w) {
        free(w->text);
        free(w->before);
        free(w->after);
    }
    free(w);
    l->data = NULL;
}

static void put(view *v, role r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void put(view *v, role r, const char *fmt, ...)
{
    wline *w = xcalloc(1, sizeof *w);
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    w->r = r;
    w->text = buf_steal(&b);
    vm_append(&v->vm, L_TEXT, w);
}

static void row(view *v, role r, const char *what, const char *before, const char *after)
{
    wline *w = xcalloc(1, sizeof *w);
    w->r = r;
    w->text = xstrdup(what);
    w->before = xstrdup(before);
    w->after = xstrdup(after);
    vm_append(&v->vm, L_TEXT, w);
}

static void state_done(whatif_view *p, state *s)
{
    for (size_t i = 0; s->r && i < p->set.n; i++)
        pattern_result_done(&s->r[i]);
    free(s->r);
    ent_table_done(&s->e);
    doctor_report_done(&s->doc);
    memset(s, 0, sizeof *s);
    doctor_report_init(&s->doc);
}

/* Runs the patterns and reads the entities and sizes of the copy. */
static void measure(whatif_view *p, state *s)
{
    state_done(p, s);
    s->r = p->set.n ? xcalloc(p->set.n, sizeof *s->r) : NULL;
    for (size_t i = 0; i < p->set.n; i++) {
        pattern_result_init(&s->r[i]);
        if (strcmp(p->set.p[i].table, p->table) == 0)
            pattern_run(p->copy, &p->set, &p->set.p[i], NULL, false, &s->r[i]);
    }
    ent_table_init(&s->e);
    table_read info;
    diag d;
    diag_init(&d);
    if (table_read_model(p->copy, p->table, 0, &s->e, &info, &d) != ST_OK)
        display_diag(NULL, d.code, &d);
    const price_table *pt;
    const price_region *pr;
    s->storage = prices_get(&pt, &pr) ? prices_storage_month(p->copy, &s->e, pr) : 0;
    /* The doctor on the copy, with the same patterns: every item of it
     * (a remote table's copy is already a sample). */
    const pattern_set *sets[1] = { &p->set };
    diag_init(&d);
    if (doctor_run(p->copy, p->table, NULL, sets, 1, 0, (double)time(NULL), &s->doc, &info, &d) != ST_OK)
        display_diag("doctor on the copy", d.code, &d);
}

static bool same_finding(const doctor_finding *a, const doctor_finding *b)
{
    return a->kind == b->kind && strcmp(a->what, b->what) == 0 &&
           (a->index ? b->index && strcmp(a->index, b->index) == 0 : !b->index);
}

/* Whether report r has finding f. */
static bool has_finding(const doctor_report *r, const doctor_finding *f)
{
    for (size_t i = 0; i < r->n; i++)
        if (same_finding(&r->f[i], f))
            return true;
    return false;
}

/* A text line wrapped at the view's width: its first row indented by
 * `lead` columns, the others by `indent`. */
static void put_wrapped(view *v, role r, int lead, int indent, const char *text)
{
    whatif_view *p = v->priv;
    int width = p->width < 16 ? 16 : p->width;
    size_t len = strlen(text), from, n;
    for (size_t k = 0;; k++) {
        int in = k ? indent : lead, room = width - in < 8 ? 8 : width - in;
        if (!text_wrap_row(text, len, room, 0, &from, &n))
            return;
        put(v, r, "%*s%.*s", in, "", (int)n, text + from);
        text += from + n;
        len -= from + n;
    }
}

/* The doctor's findings the changes bring (in the copy now, not before)
 * and the ones they clear. */
static void doctor_lines(view *v)
{
    whatif_view *p = v->priv;
    const doctor_report *b = &p->before.doc, *a = &p->after.doc;
    put(v, ROLE_GROUP, "  doctor on the copy (ddbx doctor's rules): %zu finding%s before, %zu after", b->n,
        b->n == 1 ? "" : "s", a->n);
    size_t shown = 0;
    buf t = BUF_INIT;
    for (int gone = 0; gone < 2; gone++) {
        const doctor_report *in = gone ? b : a, *other = gone ? a : b;
        for (size_t i = 0; i < in->n; i++) {
            const doctor_finding *f = &in->f[i];
            if (has_finding(other, f))
                continue;
            shown++;
            buf_reset(&t);
            buf_printf(&t, "%s %s: %s", gone ? "gone" : "new ", doctor_kind_name(f->kind), f->what);
            put_wrapped(v, gone ? ROLE_KEY : ROLE_HOT, 2, 7, t.data);
            if (!gone) {
                buf_reset(&t);
                buf_printf(&t, "do: %s", f->todo);
                put_wrapped(v, ROLE_DIM, 7, 11, t.data);
            }
        }
    }
    if (!shown)
        put(v, ROLE_DIM, "  no finding comes or goes with the changes (:doctor lists the table's)");
    buf_done(&t);
}

/* "0.5 RCU $0.0625/M" (a month at the pattern's rate: "0.5 RCU
 * $32.85/mo"), or why it fails. */
static void result_cell(const pattern *pt, const pattern_result *r, buf *out)
{
    if (r->error) {
        size_t n = strcspn(r->error, ":");
        buf_printf(out, "fails (%.*s)", (int)n, r->error);
        return;
    }
    buf_printf(out, "%g RCU ", r->units);
    const price_table *tab;
    const price_region *pr;
    if (pt->rate > 0 && prices_get(&tab, &pr)) {
        cost_calls c;
        cost_calls_of(pr, tab->hours_per_month, false, r->units, pt->rate, &c);
        cost_money(pr, c.od_month, out);
        buf_adds(out, "/mo");
    } else {
        prices_per_million(r->units, false, out);
    }
}

static void write_cell(const ent_entity *e, buf *out)
{
    if (!e) {
        buf_adds(out, "-");
        return;
    }
    double table, total;
    cost_entity_write(e, &table, NULL, &total);
    buf_printf(out, "%.3g WCU ", total);
    const price_table *tab;
    const price_region *pr;
    if (prices_get(&tab, &pr)) {
        cost_money(pr, total * pr->od_write, out);
        buf_adds(out, "/M");
    }
}

static void layout(view *v)
{
    whatif_view *p = v->priv;
    size_t cur = v->vm.cursor;
    p->width = term_cols();
    vm_clear(&v->vm);
    put(v, ROLE_NORMAL, "Scratch copy of %s: %llu items%s; the table itself is not changed.",
        p->table, (unsigned long long)p->info.items, p->info.sampled ? " (a sample)" : " (all of them)");
    put(v, ROLE_NORMAL, "Changes: %s", p->changes.len ? p->changes.data : "none yet");
    put(v, ROLE_DIM, "  :create-index NAME PK[:T] [SK[:T]], :delete-index NAME change the copy");
    put(v, ROLE_DIM, "  :apply-index NAME creates an index of the copy on the table itself");
    buf b = BUF_INIT, c = BUF_INIT;
    for (size_t i = 0; i < p->after.e.def.n_idx; i++) {
        const index_def *ix = &p->after.e.def.idx[i];
        buf_printf(&b, "%s%s (%s%s%s, %s)", i ? ", " : "", ix->name, ix->pk.name,
                   ix->sk.name ? ", " : "", ix->sk.name ? ix->sk.name : "", proj_type_name(ix->proj));
    }
    put(v, ROLE_NORMAL, "Indexes of the copy: %s", b.len ? b.data : "none");
    row(v, ROLE_GROUP, "access pattern (per call)", "before", "after");
    size_t shown = 0;
    for (size_t i = 0; i < p->set.n; i++) {
        const pattern *pt = &p->set.p[i];
        if (strcmp(pt->table, p->table) != 0)
            continue;
        shown++;
        buf_reset(&b);
        buf_reset(&c);
        result_cell(pt, &p->before.r[i], &b);
        result_cell(pt, &p->after.r[i], &c);
        const pattern_result *x = &p->before.r[i], *y = &p->after.r[i];
        bool worse = (y->error && !x->error) || y->units > x->units;
        bool better = (!y->error && x->error) || (!y->error && y->units < x->units);
        row(v, worse ? ROLE_HOT : better ? ROLE_KEY : ROLE_NORMAL, pt->name, b.data, c.data);
    }
    if (!shown)
        put(v, ROLE_DIM, "  no access pattern of %s in the pattern folder", p->table);
    row(v, ROLE_GROUP, "write (with index copies)", "before", "after");
    for (size_t i = 0; i < p->before.e.n; i++) {
        const ent_entity *e = &p->before.e.e[i];
        const ent_entity *f = ent_table_entity(&p->after.e, e->name);
        buf_reset(&b);
        buf_reset(&c);
        write_cell(e, &b);
        write_cell(f, &c);
        double t, x = 0, y = 0;
        cost_entity_write(e, &t, NULL, &x);
        if (f)
            cost_entity_write(f, &t, NULL, &y);
        row(v, y > x ? ROLE_HOT : y < x ? ROLE_KEY : ROLE_NORMAL, e->name, b.data, c.data);
    }
    const price_table *tab;
    const price_region *pr;
    buf_reset(&b);
    buf_reset(&c);
    if (prices_get(&tab, &pr)) {
        cost_money(pr, p->before.storage, &b);
        cost_money(pr, p->after.storage, &c);
        buf_adds(&b, "/mo");
        buf_adds(&c, "/mo");
    }
    row(v, ROLE_GROUP, "storage with the indexes", b.len ? b.data : "?", c.len ? c.data : "?");
    doctor_lines(v);
    if (prices_get(&tab, &pr))
        put(v, ROLE_DIM, "Prices: %s on-demand (%s, taken %s); /M: a million calls, /mo: a month at"
            " the pattern's rate", pr->region, pr->currency, pr->taken);
    buf_done(&b);
    buf_done(&c);
    vm_select(&v->vm, cur);
}

static bool whatif_open(view *v, const void *arg)
{
    const cond_arg *a = arg;
    whatif_view *p = v->priv;
    p->table = xstrdup(a->table);
    buf_init(&p->changes);
    pattern_set_init(&p->set);
    doctor_report_init(&p->before.doc);
    doctor_report_init(&p->after.doc);
    const char *tmp = getenv("TMPDIR");
    buf path = BUF_INIT;
    buf_printf(&path, "%s/ddbx-whatif-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path.data);
    if (fd < 0) {
        display_error("Cannot make a scratch file in %s", tmp && *tmp ? tmp : "/tmp");
        buf_done(&path);
        return false;
    }
    close(fd);
    p->path = buf_steal(&path);
    store_info info;
    store_get_info(display_store(), &info);
    diag d;
    diag_init(&d);
    display_progress("Copying %s to a scratch file...", p->table);
    if (scratch_copy(display_store(), p->table, info.remote ? TABLE_READ_SAMPLE : 0, p->path,
                     &p->copy, &p->info, &d) != ST_OK) {
        display_diag("what-if", d.code, &d);
        return false;
    }
    char *dir = display_patterns_dir();
    if (pattern_file_load_dir(dir, &p->set, &d) != ST_OK)
        display_diag(NULL, d.code, &d);
    free(dir);
    display_progress("Running the access patterns of %s on the copy...", p->table);
    measure(p, &p->before);
    measure(p, &p->after);
    layout(v);
    display_message("What if: %s copied (%llu items)", p->table, (unsigned long long)p->info.items);
    return true;
}

static void whatif_done(view *v)
{
    whatif_view *p = v->priv;
    state_done(p, &p->before);
    state_done(p, &p->after);
    pattern_set_done(&p->set);
    if (p->copy)
        store_close(p->copy);
    if (p->path)
        scratch_remove(p->path);
    free(p->path);
    free(p->table);
    buf_done(&p->changes);
}

/* The doctor's lines are wrapped to the width: again when it changes. */
static void whatif_fit_width(view *v)
{
    whatif_view *p = v->priv;
    if (p->width != term_cols())
        layout(v);
}

static void whatif_title(view *v, buf *out)
{
    whatif_view *p = v->priv;
    buf_printf(out, "What if: %s  (a scratch copy; q drops it)", p->table);
}

static void whatif_draw(view *v, size_t i, int y, int width)
{
    wline *w = v->vm.lines[i].data;
    if (!w->before) {
        term_put(y, 0, width, w->text, strlen(w->text), w->r, true);
        return;
    }
    /* what | before | after: the two figures share what the name leaves. */
    int nw = width >= 100 ? 36 : 28, cw = (width - 2 - nw) / 2;
    term_put(y, 2, nw - 1, w->text, strlen(w->text), w->r, true);
    if (cw > 0) {
        term_put(y, 2 + nw, cw - 1, w->before, strlen(w->before), w->r, true);
        term_put(y, 2 + nw + cw, width - 2 - nw - cw, w->after, strlen(w->after), w->r, true);
    }
}

static void whatif_text(view *v, size_t i, buf *out)
{
    wline *w = v->vm.lines[i].data;
    buf_adds(out, w->text);
    if (w->before)
        buf_printf(out, " | %s | %s", w->before, w->after);
}

static const char *whatif_kind_name(int kind)
{
    return "text";
}

static void changed(view *v, const char *what)
{
    whatif_view *p = v->priv;
    if (p->changes.len)
        buf_adds(&p->changes, "; ");
    buf_adds(&p->changes, what);
    display_progress("Running the access patterns of %s on the copy...", p->table);
    measure(p, &p->after);
    layout(v);
}

static bool whatif_command(view *v, int argc, char **argv)
{
    whatif_view *p = v->priv;
    diag d;
    diag_init(&d);
    if (display_is_cmd(argv[0], "create_index")) {
        index_def ix;
        if (schema_parse_index(argc, argv, &ix)) {
            status st = store_create_index(p->copy, p->table, &ix, &d);
            if (st != ST_OK) {
                display_diag("on the copy", st, &d);
            } else {
                buf w = BUF_INIT;
                buf_printf(&w, "created %s (%s%s%s, %s)", ix.name, ix.pk.name, ix.sk.name ? ", " : "",
                           ix.sk.name ? ix.sk.name : "", proj_type_name(ix.proj));
                changed(v, w.data);
                display_message("On the copy: GSI %s created; the patterns ran again", ix.name);
                buf_done(&w);
            }
        }
        schema_index_done(&ix);
        return true;
    }
    if (display_is_cmd(argv[0], "apply_index")) {
        if (argc != 2)
            display_error("usage: :apply-index NAME (a GSI :create-index made on the copy)");
        else
            evolve_apply_simulated(p->copy, p->table, argv[1]);
        return true;
    }
    if (display_is_cmd(argv[0], "delete_index")) {
        if (argc != 2) {
            display_error("usage: :delete-index NAME");
            return true;
        }
        status st = store_delete_index(p->copy, p->table, argv[1], &d);
        if (st != ST_OK) {
            display_diag("on the copy", st, &d);
            return true;
        }
        buf w = BUF_INIT;
        buf_printf(&w, "deleted %s", argv[1]);
        changed(v, w.data);
        display_message("On the copy: %s deleted; the patterns ran again", argv[1]);
        buf_done(&w);
        return true;
    }
    return false;
}

static void whatif_context(view *v, cond_arg *out)
{
    whatif_view *p = v->priv;
    out->table = p->table;
}

const view_ops view_whatif_ops = {
    .name = "what-if",
    .priv_size = sizeof(whatif_view),
    .open = whatif_open,
    .title = whatif_title,
    .layout = whatif_fit_width,
    .draw = whatif_draw,
    .done = whatif_done,
    .free_line = whatif_free_line,
    .kind_name = whatif_kind_name,
    .text = whatif_text,
    .command = whatif_command,
    .context = whatif_context,
};
