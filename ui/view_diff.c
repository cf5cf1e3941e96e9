/*
 * view_diff — the diff view and the two versions of one item (see
 * view_diff.h).
 */
#include "ui/view_diff.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "data/diffsrc.h"
#include "model/itemdiff.h"
#include "model/mem.h"
#include "model/tdiff.h"
#include "ui/beside.h"
#include "ui/display.h"
#include "ui/term.h"
#include "ui/text.h"

enum { L_EVENT = 1, L_CHANGE, L_END };

/* How many differences a pull reads ahead of the screen. */
#define PULL 64
/* Items read between two progress lines (and Esc checks) in a long read. */
#define PROGRESS_EVERY 20000
#define VALUE_MAX 60

/* One difference, kept for drawing and for Enter. */
typedef struct dev {
    tdiff_kind kind;
    av a, b;               /* the item in A / in B (AV_NONE where absent) */
    char *key;             /* PK="ACTOR#alice" SK="PROFILE" */
    char **changes;        /* CHANGED: "path: old -> new" */
    size_t n_changes;
} dev;

/* What the versions view opens on. */
typedef struct versions_arg {
    const dev *e;
    const char *a, *b;     /* the sides as typed */
} versions_arg;

/* A line: a difference (ch 0) or its change ch (1..n_changes); L_END
 * the line after the last. */
typedef struct dpos {
    size_t ev, ch;
} dpos;

struct diff_view;

typedef struct side_ctx {
    struct diff_view *p;
    diffsrc *src;
} side_ctx;

typedef struct diff_view {
    char *name[2];         /* the sides as typed */
    diffsrc_spec spec[2];
    diffsrc *src[2];
    diffsrc_opts opts;
    side_ctx sides[2];
    volatile sig_atomic_t stop;
    key_attr pk, sk;
    tdiff *t;
    dev *evs;
    size_t n, cap;
    uint64_t found;        /* differences found (kept or not) */
    uint64_t read_mark;    /* items read at the last progress line */
    bool done;             /* both sides read to their end */
    bool stopped;          /* Esc, or a failure: no more reading */
    bool full;             /* DIFF_VIEW_KEEP kept: the rest only counted */
    buf why;               /* why it stopped */
} diff_view;

static void diff_free_line(view *v, line *l)
{
    free(l->data);
    l->data = NULL;
}

static void dev_done(dev *e)
{
    av_done(&e->a);
    av_done(&e->b);
    free(e->key);
    for (size_t i = 0; i < e->n_changes; i++)
        free(e->changes[i]);
    free(e->changes);
}

/* ---- reading ----------------------------------------------------------- */


/* Every few thousand items: a progress line, and Esc stops the read. */
static void checkpoint(diff_view *p)
{
    const tdiff_summary *s = tdiff_get_summary(p->t);
    uint64_t read = s->items_a + s->items_b;
    if (read - p->read_mark < PROGRESS_EVERY)
        return;
    p->read_mark = read;
    if (display_interrupted())
        p->stop = 1;
    else
        display_progress("Comparing: %llu items of A and %llu of B read, %llu differences (Esc stops)",
                         (unsigned long long)s->items_a, (unsigned long long)s->items_b,
                         (unsigned long long)p->found);
}

static status side_next(void *ctx, av *item, bool *end, diag *d)
{
    side_ctx *c = ctx;
    if (c->p->t)
        checkpoint(c->p);
    if (c->p->stop)
        return diag_set(d, ST_IO, "stopped (Esc)");
    return diffsrc_next(c->src, item, end, d);
}

static void spool_progress(void *ud, const diffsrc *s, uint64_t n)
{
    diff_view *p = ud;
    if (display_interrupted()) {
        p->stop = 1;
        return;
    }
    display_progress("Reading %s into key order: %llu items (Esc stops)", diffsrc_describe(s),
                     (unsigned long long)n);
}

static void keep(diff_view *p, const tdiff_event *ev)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 256;
        p->evs = xrealloc(p->evs, p->cap * sizeof *p->evs);
    }
    dev *e = &p->evs[p->n++];
    memset(e, 0, sizeof *e);
    e->kind = ev->kind;
    e->a.type = e->b.type = AV_NONE;
    if (ev->a)
        av_copy(&e->a, ev->a);
    if (ev->b)
        av_copy(&e->b, ev->b);
    buf k = BUF_INIT;
    tdiff_key_text(&p->pk, &p->sk, ev->a ? ev->a : ev->b, &k);
    e->key = buf_steal(&k);
    if (ev->n_changes)
        e->changes = xcalloc(ev->n_changes, sizeof *e->changes);
    for (size_t i = 0; i < ev->n_changes; i++) {
        const itemdiff_change *c = &ev->changes[i];
        buf t = BUF_INIT;
        itemdiff_path_text(c->path, c->depth, &t);
        buf_adds(&t, ": ");
        if (c->old_v)
            itemdiff_value_text(c->old_v, VALUE_MAX, &t);
        else
            buf_adds(&t, "(absent)");
        buf_adds(&t, " -> ");
        if (c->new_v)
            itemdiff_value_text(c->new_v, VALUE_MAX, &t);
        else
            buf_adds(&t, "(absent)");
        e->changes[i] = buf_steal(&t);
    }
    e->n_changes = ev->n_changes;
}

/* Reads up to want more differences (all: to the end). */
static void pull(diff_view *p, size_t want, bool all)
{
    size_t got = 0;
    uint64_t mark = p->read_mark;
    while (!p->done && !p->stopped && (all || got < want)) {
        tdiff_event ev;
        bool end = false;
        diag d;
        diag_init(&d);
        status st = tdiff_next(p->t, &ev, &end, &d);
        if (st != ST_OK) {
            p->stopped = true;
            if (p->stop) {
                buf_adds(&p->why, "Stopped (Esc): the counts are of what was read");
            } else {
                display_diag_text(&p->why, "Stopped", st, &d, NULL);
                display_diag("diff", st, &d);
            }
            break;
        }
        if (end) {
            p->done = true;
            break;
        }
        p->found++;
        if (p->n < DIFF_VIEW_KEEP) {
            keep(p, &ev);
            got++;
        } else if (!all) {
            /* Past what the view keeps: the rest is counted by :load-all. */
            p->full = true;
            break;
        } else {
            p->full = true;
        }
    }
    /* A progress line was shown: what it came to replaces it. */
    if (p->read_mark != mark && !p->stopped) {
        const tdiff_summary *s = tdiff_get_summary(p->t);
        display_message("Compared %llu items of A and %llu of B: %llu differences%s",
                        (unsigned long long)s->items_a, (unsigned long long)s->items_b,
                        (unsigned long long)p->found, p->done ? "" : " so far");
    }
}

/* The sides' common key: both must agree; an export file says none and
 * takes the other's. */
static bool pick_key(diff_view *p)
{
    const table_def *da = diffsrc_def(p->src[0]), *db = diffsrc_def(p->src[1]);
    if (!da && !db) {
        display_error("Neither side says its key schema (an export file does not): "
                      "ddbx diff --key PK[:S|N|B][,SK[:S|N|B]] compares them");
        return false;
    }
    if (da && db) {
        if (!table_def_same_keys(da, db)) {
            display_error("The key schemas differ: A (%s) is keyed by %s%s%s, B (%s) by %s%s%s; "
                          "ddbx diff --key compares them by one key",
                          diffsrc_describe(p->src[0]), da->pk.name, da->sk.name ? ", " : "",
                          da->sk.name ? da->sk.name : "", diffsrc_describe(p->src[1]), db->pk.name,
                          db->sk.name ? ", " : "", db->sk.name ? db->sk.name : "");
            return false;
        }
    }
    const table_def *t = da ? da : db;
    p->pk = t->pk;
    p->sk = t->sk;
    return true;
}

static bool diff_open(view *v, const void *arg)
{
    const diff_arg *a = arg;
    diff_view *p = v->priv;
    p->name[0] = xstrdup(a->a);
    p->name[1] = xstrdup(a->b);
    p->opts = (diffsrc_opts){ .db = display_db_path(), .store = display_store(), .stop = &p->stop };
    static const char *const side_names[2] = { "A", "B" };
    diag d;
    diag_init(&d);
    for (int i = 0; i < 2; i++) {
        status st = diffsrc_parse(p->name[i], &p->spec[i], &d);
        if (st == ST_OK)
            st = diffsrc_open(&p->spec[i], &p->opts, side_names[i], &p->src[i], &d);
        if (st != ST_OK) {
            display_diag(NULL, st, &d);   /* its message names the side */
            return false;
        }
    }
    if (!pick_key(p))
        return false;
    for (int i = 0; i < 2; i++) {
        status st = diffsrc_start(p->src[i], &p->pk, &p->sk, spool_progress, p, &d);
        if (st != ST_OK) {
            if (p->stop)
                display_message("Cancelled: nothing compared");
            else
                display_diag(i ? "B" : "A", st, &d);
            return false;
        }
        p->sides[i] = (side_ctx){ p, p->src[i] };
    }
    p->t = tdiff_new(&p->pk, &p->sk, (tdiff_side){ side_next, &p->sides[0], "A" },
                     (tdiff_side){ side_next, &p->sides[1], "B" });
    pull(p, PULL, false);
    if (p->done && !p->found)
        display_message("No differences: A and B hold the same items");
    else
        display_message(p->done ? "Enter: both versions of an item"
                                : "Enter: both versions of an item; :load-all reads to the end");
    return true;
}

static void diff_done(view *v)
{
    diff_view *p = v->priv;
    tdiff_free(p->t);
    for (size_t i = 0; i < p->n; i++)
        dev_done(&p->evs[i]);
    free(p->evs);
    for (int i = 0; i < 2; i++) {
        diffsrc_free(p->src[i]);
        diffsrc_spec_done(&p->spec[i]);
        free(p->name[i]);
    }
    buf_done(&p->why);
}

/* ---- lines ------------------------------------------------------------- */

static void add_line(view *v, dpos at, bool front)
{
    diff_view *p = v->priv;
    dpos *d = xmalloc(sizeof *d);
    *d = at;
    int kind = at.ev >= p->n ? L_END : at.ch ? L_CHANGE : L_EVENT;
    if (front) {
        line l = { kind, d };
        vm_prepend(&v->vm, &l, 1);
    } else {
        vm_append(&v->vm, kind, d);
    }
}

/* Whether the end line belongs after the kept differences now. */
static bool at_end(const diff_view *p)
{
    return p->done || p->stopped || p->full;
}

static size_t diff_more(view *v, int dir)
{
    diff_view *p = v->priv;
    size_t added = 0;
    if (dir > 0) {
        dpos next = { 0, 0 };
        if (v->vm.n) {
            const line *l = &v->vm.lines[v->vm.n - 1];
            const dpos *last = l->data;
            if (l->kind == L_END)
                return 0;
            next = *last;
            if (next.ch < p->evs[next.ev].n_changes)
                next.ch++;
            else
                next = (dpos){ next.ev + 1, 0 };
        }
        while (added < PULL) {
            if (next.ev >= p->n)
                pull(p, PULL, false);
            if (next.ev >= p->n) {
                if (at_end(p)) {
                    add_line(v, (dpos){ p->n, 0 }, false);
                    added++;
                }
                break;
            }
            add_line(v, next, false);
            added++;
            if (next.ch < p->evs[next.ev].n_changes)
                next.ch++;
            else
                next = (dpos){ next.ev + 1, 0 };
        }
        return added;
    }
    if (!v->vm.n)
        return 0;
    dpos first = *(const dpos *)v->vm.lines[0].data;
    while (added < PULL && (first.ev || first.ch)) {
        if (first.ch)
            first.ch--;
        else
            first = (dpos){ first.ev - 1, p->evs[first.ev - 1].n_changes };
        add_line(v, first, true);
        added++;
    }
    return added;
}

static void summary_text(const diff_view *p, buf *out)
{
    const tdiff_summary *s = tdiff_get_summary(p->t);
    buf_printf(out, "%llu added, %llu removed, %llu changed", (unsigned long long)s->total.added,
               (unsigned long long)s->total.removed, (unsigned long long)s->total.changed);
    if (p->done) {
        buf_printf(out, ", %llu the same", (unsigned long long)s->total.same);
        for (size_t i = 0; i < s->n_prefixes; i++) {
            const tdiff_counts *c = &s->prefixes[i].c;
            if (!c->added && !c->removed && !c->changed)
                continue;
            buf_adds(out, i ? "; " : " · ");
            buf_adds(out, s->prefixes[i].prefix[0] ? s->prefixes[i].prefix : "(no prefix)");
            if (c->added)
                buf_printf(out, " +%llu", (unsigned long long)c->added);
            if (c->removed)
                buf_printf(out, " -%llu", (unsigned long long)c->removed);
            if (c->changed)
                buf_printf(out, " ~%llu", (unsigned long long)c->changed);
        }
    } else {
        buf_printf(out, " so far (%llu item%s of A and %llu of B read)", (unsigned long long)s->items_a,
                   s->items_a == 1 ? "" : "s", (unsigned long long)s->items_b);
    }
}

static void end_text(const diff_view *p, buf *out)
{
    if (p->stopped) {
        buf_add(out, p->why.data, p->why.len);
        return;
    }
    if (p->full && !p->done) {
        buf_printf(out, "Kept: the first %d differences (:load-all counts the rest; "
                   "ddbx diff %s %s lists them all)", DIFF_VIEW_KEEP, p->name[0], p->name[1]);
        return;
    }
    if (p->full)
        buf_printf(out, "Kept: the first %d of %llu differences (ddbx diff %s %s lists them all)",
                   DIFF_VIEW_KEEP, (unsigned long long)p->found, p->name[0], p->name[1]);
    else
        buf_adds(out, p->found ? "The end: every difference is shown" : "No differences");
}

static void line_text(view *v, size_t i, buf *out, role *r)
{
    diff_view *p = v->priv;
    const line *l = &v->vm.lines[i];
    const dpos *at = l->data;
    if (l->kind == L_END) {
        end_text(p, out);
        *r = p->stopped ? ROLE_ERROR : ROLE_DIM;
        return;
    }
    const dev *e = &p->evs[at->ev];
    if (l->kind == L_CHANGE) {
        buf_printf(out, "    ~ %s", e->changes[at->ch - 1]);
        *r = ROLE_TYPE;
        return;
    }
    static const char *const words[] = { [TDIFF_ADDED] = "+ added  ", [TDIFF_REMOVED] = "- removed",
                                          [TDIFF_CHANGED] = "~ changed" };
    static const role roles[] = { [TDIFF_ADDED] = ROLE_KEY, [TDIFF_REMOVED] = ROLE_ERROR,
                                  [TDIFF_CHANGED] = ROLE_GROUP };
    buf_printf(out, "%s %s", words[e->kind], e->key);
    *r = roles[e->kind];
}

static void diff_draw(view *v, size_t i, int row, int width)
{
    display_line_draw(v, i, row, width, line_text);
}

static void diff_text(view *v, size_t i, buf *out)
{
    display_line_text(v, i, out, line_text);
}

static const char *diff_kind_name(int kind)
{
    return kind == L_EVENT ? "item" : kind == L_CHANGE ? "attr" : "end";
}

static void diff_title(view *v, buf *out)
{
    diff_view *p = v->priv;
    buf_adds(out, "Diff");
    text_title_part(out, 1);
    buf_printf(out, " %s -> %s", p->name[0], p->name[1]);
    text_title_part(out, 2);
    buf_printf(out, "  %llu difference%s%s", (unsigned long long)p->found, p->found == 1 ? "" : "s",
               p->done ? "" : " so far");
    text_title_part(out, 4);
    buf_adds(out, "  (Enter: both versions)");
}

static int diff_head_rows(view *v)
{
    return 3;
}

static void diff_draw_head(view *v, int row, int width)
{
    diff_view *p = v->priv;
    buf b = BUF_INIT;
    if (row <= 2) {
        buf_printf(&b, "%s  %s", row == 1 ? "A" : "B", diffsrc_describe(p->src[row - 1]));
        term_put(row, 0, width, b.data, b.len, ROLE_DIM, true);
    } else {
        summary_text(p, &b);
        term_put(row, 0, width, b.data, b.len, ROLE_COLHEAD, true);
    }
    buf_done(&b);
}

static enum req diff_request(view *v, enum req r)
{
    diff_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_ENTER) {
        if (l && l->kind != L_END) {
            const dpos *at = l->data;
            versions_arg a = { &p->evs[at->ev], p->name[0], p->name[1] };
            display_push(&view_versions_ops, &a);
        }
        return REQ_NONE;
    }
    if (r == REQ_MOVE_FIRST) {
        vm_clear(&v->vm);
        display_fill(v);
        vm_select(&v->vm, 0);
        return REQ_NONE;
    }
    if (r == REQ_MOVE_LAST) {
        /* The end of what the view keeps: read to it, then the window is
         * the last screens. */
        pull(p, (size_t)-1, false);
        vm_clear(&v->vm);
        if (at_end(p))
            add_line(v, (dpos){ p->n, 0 }, false);
        else if (p->n)
            add_line(v, (dpos){ p->n - 1, p->evs[p->n - 1].n_changes }, false);
        while (v->vm.n < 2 * v->vm.rows && diff_more(v, -1))
            ;
        vm_select(&v->vm, v->vm.n ? v->vm.n - 1 : 0);
        vm_set_top(&v->vm, v->vm.n > v->vm.rows ? v->vm.n - v->vm.rows : 0);
        display_fill(v);
        if (p->full && !p->done && !p->stopped)
            display_message("The view keeps the first %d differences: :load-all counts the rest",
                            DIFF_VIEW_KEEP);
        return REQ_NONE;
    }
    if (r == REQ_RELOAD) {
        display_message("A diff is read once: :diff %s %s compares again", p->name[0], p->name[1]);
        return REQ_NONE;
    }
    return r;
}

static bool diff_view_command(view *v, int argc, char **argv)
{
    diff_view *p = v->priv;
    if (!display_is_cmd(argv[0], "load_all") || argc != 1)
        return false;
    if (p->done || p->stopped) {
        display_message(p->done ? "Read to the end already" : "Stopped: :diff compares again");
        return true;
    }
    pull(p, 0, true);
    /* An end line the new differences come before goes; scrolling down
     * shows them. */
    if (v->vm.n && v->vm.lines[v->vm.n - 1].kind == L_END &&
        ((const dpos *)v->vm.lines[v->vm.n - 1].data)->ev < p->n)
        vm_trim(&v->vm, 0, v->vm.n - 1);
    display_fill(v);
    if (!p->stopped)
        display_message("Read to the end: %llu difference%s", (unsigned long long)p->found,
                        p->found == 1 ? "" : "s");
    return true;
}

/* The table of side B when it is one of this database (for :diff
 * @TIME, :backup from here). */
static void diff_context(view *v, cond_arg *out)
{
    diff_view *p = v->priv;
    if (p->spec[1].kind == DIFFSRC_TABLE && !p->spec[1].db)
        out->table = p->spec[1].table;
}

const view_ops view_diff_ops = {
    .name = "diff",
    .priv_size = sizeof(diff_view),
    .open = diff_open,
    .title = diff_title,
    .head_rows = diff_head_rows,
    .draw_head = diff_draw_head,
    .draw = diff_draw,
    .request = diff_request,
    .done = diff_done,
    .more = diff_more,
    .free_line = diff_free_line,
    .kind_name = diff_kind_name,
    .text = diff_text,
    .command = diff_view_command,
    .context = diff_context,
};

/* ---- the two versions of one item -------------------------------------- */

typedef struct versions_view {
    char *key;
    buf label[2];          /* "A: backup:before" */
    tdiff_kind kind;
    beside_row *rows;
    size_t n;
} versions_view;

enum { L_COLHEAD = 1, L_ROW };

static bool versions_open(view *v, const void *arg)
{
    const versions_arg *va = arg;
    const dev *e = va->e;
    versions_view *p = v->priv;
    p->key = xstrdup(e->key);
    buf_printf(&p->label[0], "A: %s", va->a);
    buf_printf(&p->label[1], "B: %s", va->b);
    p->kind = e->kind;
    p->n = beside_rows(&e->a, &e->b, &p->rows);
    vm_append(&v->vm, L_COLHEAD, NULL);
    for (size_t i = 0; i < p->n; i++)
        vm_append(&v->vm, L_ROW, &p->rows[i]);
    return true;
}

static void versions_done(view *v)
{
    versions_view *p = v->priv;
    free(p->key);
    beside_rows_free(p->rows, p->n);
    buf_done(&p->label[0]);
    buf_done(&p->label[1]);
}

static void versions_free_line(view *v, line *l)
{
    l->data = NULL;   /* the rows are the view's */
}

static void versions_title(view *v, buf *out)
{
    versions_view *p = v->priv;
    buf_printf(out, "%s %s", tdiff_kind_name(p->kind), p->key);
    text_title_part(out, 3);
    buf_adds(out, "  (! where they differ)");
}

static void versions_draw(view *v, size_t i, int row, int width)
{
    versions_view *p = v->priv;
    const line *l = &v->vm.lines[i];
    if (l->kind == L_COLHEAD) {
        buf n = BUF_INIT;
        buf_adds(&n, "attribute");
        beside_draw(row, width, ROLE_COLHEAD, false, &n, &p->label[0], &p->label[1]);
        buf_done(&n);
        return;
    }
    const beside_row *r = l->data;
    beside_draw(row, width, r->differ ? ROLE_HOT : ROLE_NORMAL, r->differ, &r->name, &r->left, &r->right);
}

static void versions_text(view *v, size_t i, buf *out)
{
    versions_view *p = v->priv;
    const line *l = &v->vm.lines[i];
    if (l->kind == L_COLHEAD) {
        buf_printf(out, "attribute | %s | %s", p->label[0].data, p->label[1].data);
        return;
    }
    const beside_row *r = l->data;
    buf_printf(out, "%s%s | %s | %s", r->differ ? "! " : "", r->name.data, r->left.data, r->right.data);
}

static const char *versions_kind_name(int kind)
{
    return kind == L_COLHEAD ? "colhead" : "beside";
}

static bool versions_skip(view *v, size_t i)
{
    return v->vm.lines[i].kind == L_COLHEAD;
}

const view_ops view_versions_ops = {
    .name = "versions",
    .priv_size = sizeof(versions_view),
    .open = versions_open,
    .title = versions_title,
    .draw = versions_draw,
    .done = versions_done,
    .free_line = versions_free_line,
    .kind_name = versions_kind_name,
    .text = versions_text,
    .skip = versions_skip,
};

/* ---- :diff ------------------------------------------------------------- */

bool diff_command(view *v, int argc, char **argv)
{
    if (!display_is_cmd(argv[0], "diff"))
        return false;
    if (argc < 2 || argc > 3) {
        display_error("usage: :diff A [B]: backup:NAME, TABLE, TABLE@TIME or @TIME, FILE; "
                      "B is the table shown when left out");
        return true;
    }
    cond_arg c = { 0 };
    if (v->ops->context)
        v->ops->context(v, &c);
    buf a = BUF_INIT;
    const char *b = argc == 3 ? argv[2] : c.table;
    if (argv[1][0] == '@') {
        if (!c.table) {
            display_error(":diff %s is the table shown at that moment: open a table first, or "
                          ":diff TABLE%s", argv[1], argv[1]);
            return true;
        }
        buf_printf(&a, "%s%s", c.table, argv[1]);
    } else {
        buf_adds(&a, argv[1]);
    }
    if (!b) {
        display_error(":diff %s compares with the table shown: open a table first, or :diff A B",
                      argv[1]);
        buf_done(&a);
        return true;
    }
    diff_arg d = { a.data, b };
    display_push(&view_diff_ops, &d);
    buf_done(&a);
    return true;
}
