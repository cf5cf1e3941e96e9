/*
 * view_staged — the staged changes and the conflict view (see
 * view_staged.h).
 */
#include "ui/view_staged.h"

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

typedef struct sline {
    buf text;             /* L_ITEM, L_ATTR, L_NOTE: the whole line */
    role r;
    size_t entry;         /* L_ITEM, L_ATTR: index into the entries */
    buf name, now, staged;/* L_BESIDE */
    bool differ;
} sline;

typedef struct staged_view {
    staging_entry *entries;
    size_t n;
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
    free(s);
}

static sline *add(view *v, int kind, role r, size_t entry)
{
    sline *s = xcalloc(1, sizeof *s);
    s->r = r;
    s->entry = entry;
    vm_append(&v->vm, kind, s);
    return s;
}

static void attr_line(view *v, size_t e, const stage_attr *a)
{
    static const role roles[] = { [STAGE_ADDED] = ROLE_KEY, [STAGE_CHANGED] = ROLE_TYPE,
                                  [STAGE_REMOVED] = ROLE_ERROR };
    sline *s = add(v, L_ATTR, roles[a->op], e);
    buf_printf(&s->text, "    %c ", a->op == STAGE_ADDED ? '+' : a->op == STAGE_CHANGED ? '~' : '-');
    buf_add(&s->text, a->name, a->name_len);
    buf_adds(&s->text, "  ");
    if (a->old_v)
        beside_typed(&s->text, a->old_v);
    if (a->op == STAGE_CHANGED)
        buf_adds(&s->text, " -> ");
    if (a->new_v)
        beside_typed(&s->text, a->new_v);
}

static void fill_list(view *v)
{
    staged_view *p = v->priv;
    for (size_t e = 0; e < p->n; e++) {
        const staging_entry *it = &p->entries[e];
        const char *kind = stage_kind(&it->before, &it->after);
        sline *s = add(v, L_ITEM, ROLE_GROUP, e);
        buf_printf(&s->text, "%c %-7s %s  ", kind[0] == 'n' ? '+' : kind[0] == 'd' ? '-' : '~',
                   kind[0] == 'n' ? "new" : kind[0] == 'd' ? "delete" : "update", it->table);
        cols_item_text(&it->key, &s->text);
        stage_attr *diff;
        size_t nd = stage_diff(&it->before, &it->after, &diff);
        for (size_t i = 0; i < nd; i++)
            attr_line(v, e, &diff[i]);
        free(diff);
    }
}

/* One row per attribute of either version, the item as it is now beside
 * the staged one. */
static void fill_conflict(view *v)
{
    staged_view *p = v->priv;
    const view_staged_arg *c = p->conflict;
    sline *s = add(v, L_NOTE, ROLE_ERROR, 0);
    buf_printf(&s->text, "Conflict on %s ", c->table);
    cols_item_text(c->key, &s->text);
    buf_addc(&s->text, ':');
    /* What happened on a row of its own: a long key does not cut it. */
    s = add(v, L_NOTE, ROLE_ERROR, 0);
    buf_adds(&s->text, c->now ? "  another writer changed the item since it was read"
                              : "  another writer deleted the item since it was read");
    s = add(v, L_BESIDE, ROLE_COLHEAD, 0);
    buf_adds(&s->name, "attribute");
    buf_adds(&s->now, "now (theirs)");
    buf_adds(&s->staged, c->after->type == AV_M ? "staged (yours)" : "staged (yours): delete");
    beside_row *rows;
    size_t n = beside_rows(c->now, c->after, &rows);
    for (size_t i = 0; i < n; i++) {
        s = add(v, L_BESIDE, rows[i].differ ? ROLE_HOT : ROLE_NORMAL, 0);
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

static bool staged_view_open(view *v, const void *arg)
{
    staged_view *p = v->priv;
    p->n = staging_entries(&p->entries);
    fill_list(v);
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
    staging_entries_free(p->entries, p->n);
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
    buf_printf(out, "Staged changes  %zu item%s  (:commit writes, d discards one, :discard all)",
               p->n, p->n == 1 ? "" : "s");
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

static void refill(view *v)
{
    staged_view *p = v->priv;
    staging_entries_free(p->entries, p->n);
    vm_clear(&v->vm);
    p->n = staging_entries(&p->entries);
    fill_list(v);
    display_fill(v);
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
    staged_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_DELETE && l) {
        const staging_entry *e = &p->entries[((sline *)l->data)->entry];
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
