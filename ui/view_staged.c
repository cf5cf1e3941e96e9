/*
 * view_staged — the staged changes and the conflict view (see
 * view_staged.h).
 */
#include "ui/view_staged.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/stage.h"
#include "ui/beside.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/staging.h"
#include "ui/term.h"

enum { L_ITEM = 1, L_ATTR, L_NOTE, L_BESIDE };

/* Staged changes read at a time (a page: each costs its rows, however
 * many are staged). */
#define PAGE 32

typedef struct sline {
    buf text;             /* L_ITEM, L_ATTR, L_NOTE: the whole line */
    role r;
    /* L_ITEM, L_ATTR: the change's place in the order, the line's place
     * among its lines (0: the item line) and their number, and its item
     * (each line its own copy: the window drops lines far from the
     * cursor, an item line too). */
    int64_t seq;
    size_t idx, total;
    char *table;
    av key;
    buf name, now, staged;/* L_BESIDE */
    bool differ;
} sline;

typedef struct staged_view {
    /* The conflict view's own copy of what it shows. */
    bool is_conflict;
    char *table;
    av key, before, after, now;
    view_staged_arg conflict_arg;
    const view_staged_arg *conflict;
} staged_view;

static void staged_view_free_line(view *v, line *l)
{
    sline *s = l->data;
    buf_done(&s->text);
    buf_done(&s->name);
    buf_done(&s->now);
    buf_done(&s->staged);
    free(s->table);
    av_done(&s->key);
    free(s);
}

static sline *add(view *v, int kind, role r)
{
    sline *s = xcalloc(1, sizeof *s);
    s->r = r;
    vm_append(&v->vm, kind, s);
    return s;
}

/* Lines being built, before they join the vm (at either end). */
typedef struct lines {
    line *l;
    size_t n, cap;
} lines;

static sline *push(lines *ls, int kind, role r, const staging_entry *e, size_t idx)
{
    sline *s = xcalloc(1, sizeof *s);
    s->r = r;
    s->seq = e->seq;
    s->idx = idx;
    s->table = xstrdup(e->table);
    av_copy(&s->key, &e->key);
    if (ls->n == ls->cap) {
        ls->cap = ls->cap ? 2 * ls->cap : 64;
        ls->l = xrealloc(ls->l, ls->cap * sizeof *ls->l);
    }
    ls->l[ls->n++] = (line){ kind, s };
    return s;
}

static void attr_text(const stage_attr *a, buf *out)
{
    buf_printf(out, "    %c ", a->op == STAGE_ADDED ? '+' : a->op == STAGE_CHANGED ? '~' : '-');
    buf_add(out, a->name, a->name_len);
    buf_adds(out, "  ");
    if (a->old_v)
        beside_typed(out, a->old_v);
    if (a->op == STAGE_CHANGED)
        buf_adds(out, " -> ");
    if (a->new_v)
        beside_typed(out, a->new_v);
}

/* Lines [from, to) of one change (its item line, then a line per
 * attribute) onto ls. */
static void entry_lines(const staging_entry *e, size_t from, size_t to, lines *ls)
{
    static const role roles[] = { [STAGE_ADDED] = ROLE_KEY, [STAGE_CHANGED] = ROLE_TYPE,
                                  [STAGE_REMOVED] = ROLE_ERROR };
    stage_attr *diff;
    size_t nd = stage_diff(&e->before, &e->after, &diff);
    size_t first = ls->n;
    for (size_t i = from; i < to && i <= nd; i++) {
        if (i == 0) {
            const char *kind = stage_kind(&e->before, &e->after);
            sline *s = push(ls, L_ITEM, ROLE_GROUP, e, 0);
            buf_printf(&s->text, "%c %-7s %s  ", kind[0] == 'n' ? '+' : kind[0] == 'd' ? '-' : '~',
                       kind[0] == 'n' ? "new" : kind[0] == 'd' ? "delete" : "update", e->table);
            cols_item_text(&e->key, &s->text);
        } else {
            attr_text(&diff[i - 1], &push(ls, L_ATTR, roles[diff[i - 1].op], e, i)->text);
        }
    }
    for (size_t i = first; i < ls->n; i++)
        ((sline *)ls->l[i].data)->total = nd + 1;
    free(diff);
}

/* The lines of a page of changes (staging_page's seq, dir) onto ls.
 * Returns the changes read. */
static size_t page_lines(int64_t seq, int dir, lines *ls)
{
    staging_entry *e;
    size_t n = staging_page(seq, dir, PAGE, &e);
    for (size_t i = 0; i < n; i++)
        entry_lines(&e[i], 0, (size_t)-1, ls);
    staging_entries_free(e, n);
    return n;
}

/* The change at seq alone, lines [from, to) of it. */
static void one_lines(int64_t seq, size_t from, size_t to, lines *ls)
{
    staging_entry *e;
    size_t n = staging_page(seq, 0, 1, &e);
    if (n && e[0].seq == seq)
        entry_lines(&e[0], from, to, ls);
    staging_entries_free(e, n);
}

static size_t join(view *v, lines *ls, bool front)
{
    size_t n = ls->n;
    if (front)
        vm_prepend(&v->vm, ls->l, n);
    else
        for (size_t i = 0; i < n; i++)
            vm_append(&v->vm, ls->l[i].kind, ls->l[i].data);
    free(ls->l);
    return n;
}

/* Keyset paging: the lines after the window's last (the rest of its
 * change, else the next page), or before its first. */
static size_t staged_view_more(view *v, int dir)
{
    staged_view *p = v->priv;
    lines ls = { 0 };
    if (p->conflict)
        return 0;
    if (!v->vm.n) {
        if (dir > 0)
            page_lines(0, 1, &ls);
        return join(v, &ls, false);
    }
    if (dir > 0) {
        const sline *last = v->vm.lines[v->vm.n - 1].data;
        if (last->idx + 1 < last->total)
            one_lines(last->seq, last->idx + 1, last->total, &ls);
        else
            page_lines(last->seq, 1, &ls);
        return join(v, &ls, false);
    }
    const sline *first = v->vm.lines[0].data;
    if (first->idx > 0)
        one_lines(first->seq, 0, first->idx, &ls);
    else
        page_lines(first->seq, -1, &ls);
    return join(v, &ls, true);
}

/* One row per attribute of either version, the item as it is now beside
 * the staged one. */
static void fill_conflict(view *v)
{
    staged_view *p = v->priv;
    const view_staged_arg *c = p->conflict;
    sline *s = add(v, L_NOTE, ROLE_ERROR);
    buf_printf(&s->text, "Conflict on %s ", c->table);
    cols_item_text(c->key, &s->text);
    buf_addc(&s->text, ':');
    /* What happened on a row of its own: a long key does not cut it. */
    s = add(v, L_NOTE, ROLE_ERROR);
    buf_adds(&s->text, c->now ? "  another writer changed the item since it was read"
                              : "  another writer deleted the item since it was read");
    s = add(v, L_BESIDE, ROLE_COLHEAD);
    buf_adds(&s->name, "attribute");
    buf_adds(&s->now, "now (theirs)");
    buf_adds(&s->staged, c->after->type == AV_M ? "staged (yours)" : "staged (yours): delete");
    beside_row *rows;
    size_t n = beside_rows(c->now, c->after, &rows);
    for (size_t i = 0; i < n; i++) {
        s = add(v, L_BESIDE, rows[i].differ ? ROLE_HOT : ROLE_NORMAL);
        s->name = rows[i].name;
        buf_init(&rows[i].name);
        s->now = rows[i].left;
        buf_init(&rows[i].left);
        s->staged = rows[i].right;
        buf_init(&rows[i].right);
        s->differ = rows[i].differ;
    }
    beside_rows_free(rows, n);
}

/* The lines come from staged_view_more as the display fills the
 * screen: a page, not every staged change. */
static bool staged_view_open(view *v, const void *arg)
{
    return true;
}

static bool staged_conflict_open(view *v, const void *arg)
{
    staged_view *p = v->priv;
    const view_staged_arg *a = arg;
    p->is_conflict = true;
    p->table = xstrdup(a->table);
    av_copy(&p->key, a->key);
    av_copy(&p->before, a->before);
    av_copy(&p->after, a->after);
    p->now.type = AV_NONE;
    if (a->now)
        av_copy(&p->now, a->now);
    p->conflict_arg = (view_staged_arg){ p->table, &p->key, &p->before, &p->after,
                                         a->now ? &p->now : NULL };
    p->conflict = &p->conflict_arg;
    fill_conflict(v);
    return true;
}

static void staged_view_done(view *v)
{
    staged_view *p = v->priv;
    free(p->table);
    av_done(&p->key);
    av_done(&p->before);
    av_done(&p->after);
    av_done(&p->now);
}

static void staged_view_title(view *v, buf *out)
{
    staged_view *p = v->priv;
    if (p->conflict) {
        buf_adds(out, "Commit conflict  (k keep yours, r rebase onto theirs, d drop yours)");
        return;
    }
    size_t n = staging_count();
    buf_printf(out, "Staged changes  %zu item%s  (:commit writes, d discards one, :discard all)",
               n, n == 1 ? "" : "s");
}

static void staged_view_draw(view *v, size_t i, int row, int width)
{
    sline *s = v->vm.lines[i].data;
    if (v->vm.lines[i].kind == L_BESIDE) {
        beside_draw(row, width, s->r, s->differ, &s->name, &s->now, &s->staged);
        return;
    }
    term_put(row, 0, width, s->text.data, s->text.len, s->r, true);
}

static const char *staged_view_kind_name(int kind)
{
    return kind == L_ITEM ? "item" : kind == L_ATTR ? "attr" : kind == L_NOTE ? "note" : "beside";
}

static void staged_view_text(view *v, size_t i, buf *out)
{
    sline *s = v->vm.lines[i].data;
    if (v->vm.lines[i].kind == L_BESIDE)
        buf_printf(out, "%s%s | %s | %s", s->differ ? "! " : "", s->name.data, s->now.data, s->staged.data);
    else
        buf_add(out, s->text.data, s->text.len);
}

/* The lines again from the selected change on (after a discard or a
 * commit); the last page when none is left from there. */
static void refill(view *v)
{
    line *l = vm_selected(&v->vm);
    int64_t at = l ? ((sline *)l->data)->seq : 0;
    size_t idx = l ? ((sline *)l->data)->idx : 0;
    lines ls = { 0 };
    vm_clear(&v->vm);
    if (!page_lines(at, 0, &ls))
        page_lines(INT64_MAX, -1, &ls);
    join(v, &ls, false);
    display_fill(v);
    size_t i = 0;
    while (i + 1 < v->vm.n && ((sline *)v->vm.lines[i].data)->seq < at)
        i++;
    /* The same line of the same change, when it still has that line. */
    if (i + idx < v->vm.n && ((sline *)v->vm.lines[i].data)->seq == at &&
        ((sline *)v->vm.lines[i + idx].data)->seq == at)
        i += idx;
    vm_select(&v->vm, i);
}

/* g and G: the first page, or the last one (read backwards from the
 * end), not every page between. */
static void jump(view *v, bool last)
{
    lines ls = { 0 };
    vm_clear(&v->vm);
    if (last)
        page_lines(INT64_MAX, -1, &ls);
    join(v, &ls, false);
    display_fill(v);
    vm_select(&v->vm, last && v->vm.n ? v->vm.n - 1 : 0);
}

/* The reloaded view under a view that closes (after a commit: only what
 * the commit changed). */
static void pop_and_reload(view *v, bool committed)
{
    if (committed) {
        staging_pop_after_commit(v);
        return;
    }
    view *under = display_below(v);
    display_pop();
    if (under && under->ops->request)
        under->ops->request(under, REQ_RELOAD);
}

/* k, r, d in the conflict view: the answer, then the commit goes on. */
static enum req staged_conflict_request(view *v, enum req r)
{
    staged_view *p = v->priv;
    int choice = r == REQ_CONFLICT_KEEP ? 'k' : r == REQ_CONFLICT_REBASE ? 'r' : r == REQ_CONFLICT_DROP ? 'd' : 0;
    if (!choice)
        return r;
    bool ok = staging_resolve(p->table, &p->key, &p->before, &p->after, p->conflict->now, choice);
    view *under = display_below(v);
    display_pop();
    if (ok && staging_count())
        staging_commit();
    else if (ok)
        display_message("Resolved: nothing left staged");
    if (under && !staging_count())
        staging_reload_after_commit(under);
    return REQ_NONE;
}

static enum req staged_view_request(view *v, enum req r)
{
    line *l = vm_selected(&v->vm);
    if (r == REQ_MOVE_FIRST || r == REQ_MOVE_LAST) {
        jump(v, r == REQ_MOVE_LAST);
        return REQ_NONE;
    }
    if (r == REQ_DELETE && l) {
        const sline *e = l->data;
        buf k = BUF_INIT;
        cols_item_text(&e->key, &k);
        if (display_confirm("Discard the staged change to %s %s?", e->table, k.data)) {
            staging_discard(e->table, &e->key);
            /* The view under shows it no more (a new item's row goes). */
            view *under = display_below(v);
            if (under && under->ops->request)
                under->ops->request(under, REQ_RELOAD);
        }
        buf_done(&k);
        refill(v);
        return REQ_NONE;
    }
    if (r == REQ_RELOAD) {
        refill(v);
        return REQ_NONE;
    }
    if (r == REQ_ENTER)
        return REQ_NONE;
    return r;
}

static bool staged_view_command(view *v, int argc, char **argv)
{
    staged_view *p = v->priv;
    if (p->conflict || (strcmp(argv[0], "commit") != 0 && strcmp(argv[0], "discard") != 0))
        return false;
    staging_command(v, argc, argv);
    if (!staging_count()) {
        pop_and_reload(v, strcmp(argv[0], "commit") == 0);
        return true;
    }
    refill(v);
    return true;
}

const view_ops view_staged_ops = {
    .name = "staged",
    .priv_size = sizeof(staged_view),
    .open = staged_view_open,
    .title = staged_view_title,
    .draw = staged_view_draw,
    .request = staged_view_request,
    .done = staged_view_done,
    .free_line = staged_view_free_line,
    .kind_name = staged_view_kind_name,
    .text = staged_view_text,
    .command = staged_view_command,
    .more = staged_view_more,
};

const view_ops view_conflict_ops = {
    .name = "conflict",
    .priv_size = sizeof(staged_view),
    .open = staged_conflict_open,
    .title = staged_view_title,
    .draw = staged_view_draw,
    .request = staged_conflict_request,
    .done = staged_view_done,
    .free_line = staged_view_free_line,
    .kind_name = staged_view_kind_name,
    .text = staged_view_text,
};
