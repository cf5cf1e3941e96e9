/*
 * view_watch — the change feed: a table's recent writes, newest first
 * (`w`, `:watch [TABLE]`). Each change is a line (time, INSERT / MODIFY /
 * REMOVE, the key) followed by one line per attribute it changed, old →
 * new. Enter on either opens the table view at the item. Locally the
 * feed is the store's change log (every write through the API, from any
 * process); on a remote table it is the table's DynamoDB stream, read
 * only, and the view says so when the table has none. Live mode reloads
 * it as writes land; `L` pauses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/live.h"
#include "ui/view.h"

#define PAGE 200

enum { L_CHANGE = 1, L_ATTR, L_NOTE };

typedef struct wline {
    size_t c;              /* index into changes */
    char *name;            /* L_ATTR: the attribute */
    const av *old, *new_v; /* L_ATTR: borrowed from the change (NULL: absent) */
} wline;

typedef struct watch_view {
    char *table;
    table_def def;
    bool have_def, remote, more;
    store_change *changes;
    size_t n, cap;
    char note[1100];
} watch_view;

static void watch_free_line(view *v, line *l)
{
    wline *w = l->data;
    if (w)
        free(w->name);
    free(w);
}

static void add_line(view *v, int kind, size_t c, const char *name, const av *old, const av *nw)
{
    wline *w = xcalloc(1, sizeof *w);
    w->c = c;
    w->name = name ? xstrdup(name) : NULL;
    w->old = old;
    w->new_v = nw;
    vm_append(&v->vm, kind, w);
}

static const av *attr(const av *item, const char *name, size_t len)
{
    return item->type == AV_M ? av_map_get(item, name, len) : NULL;
}

/* A key attribute: in the change's head line already. */
static bool is_key(const watch_view *p, const char *name)
{
    return strcmp(name, p->def.pk.name) == 0 || (p->def.sk.name && strcmp(name, p->def.sk.name) == 0);
}

/* The lines of change c: its head, then each attribute it changed. */
static void add_change(view *v, size_t c)
{
    watch_view *p = v->priv;
    const store_change *ch = &p->changes[c];
    add_line(v, L_CHANGE, c, NULL, NULL, NULL);
    const av *o = &ch->old_item, *n = &ch->new_item;
    /* The new item's attributes in its order, then those removed. */
    for (int pass = 0; pass < 2; pass++) {
        const av *from = pass ? o : n, *other = pass ? n : o;
        if (from->type != AV_M)
            continue;
        for (size_t i = 0; i < from->u.m.len; i++) {
            const av_member *m = &from->u.m.v[i];
            const av *x = attr(other, m->name, m->name_len);
            if (is_key(p, m->name))
                continue;
            if (pass == 1 && (x || n->type != AV_M))
                continue;   /* shown in the first pass, or a REMOVE's */
            if (pass == 0 && x && av_equal(x, &m->val))
                continue;   /* unchanged */
            if (pass == 0)
                add_line(v, L_ATTR, c, m->name, x, &m->val);
            else
                add_line(v, L_ATTR, c, m->name, &m->val, NULL);
        }
    }
    /* A REMOVE: every attribute it had (old → nothing). */
    if (n->type != AV_M && o->type == AV_M)
        for (size_t i = 0; i < o->u.m.len; i++)
            if (!is_key(p, o->u.m.v[i].name))
                add_line(v, L_ATTR, c, o->u.m.v[i].name, &o->u.m.v[i].val, NULL);
}

static void free_changes(watch_view *p)
{
    for (size_t i = 0; i < p->n; i++)
        store_change_free(&p->changes[i]);
    p->n = 0;
}

/* Reads changes older than before (0: the newest) and appends their lines. */
static bool load(view *v, int64_t before)
{
    watch_view *p = v->priv;
    diag d;
    diag_init(&d);
    if (p->n + PAGE > p->cap) {
        /* Lines point into the changes' attribute arrays, which stay
         * where they are when the array of changes moves. */
        p->cap = p->cap ? p->cap * 2 : PAGE;
        while (p->cap < p->n + PAGE)
            p->cap *= 2;
        p->changes = xrealloc(p->changes, p->cap * sizeof *p->changes);
    }
    size_t got = 0;
    status st = store_changes(display_store(), p->table, before, PAGE, p->changes + p->n, &got, &d);
    if (st != ST_OK) {
        snprintf(p->note, sizeof p->note, "%s", d.msg);
        return false;
    }
    size_t first = p->n;
    p->n += got;
    p->more = got == PAGE;
    for (size_t i = first; i < p->n; i++)
        add_change(v, i);
    return true;
}

static void fill(view *v, int64_t keep_seq)
{
    watch_view *p = v->priv;
    vm_clear(&v->vm);
    free_changes(p);
    p->note[0] = '\0';
    load(v, 0);
    if (p->n == 0)
        vm_append(&v->vm, L_NOTE, NULL);
    for (size_t i = 0; keep_seq && i < v->vm.n; i++) {
        wline *w = v->vm.lines[i].data;
        if (v->vm.lines[i].kind == L_CHANGE && p->changes[w->c].seq == keep_seq) {
            vm_select(&v->vm, i);
            break;
        }
    }
}

static bool watch_open(view *v, const void *arg)
{
    watch_view *p = v->priv;
    const char *table = arg;
    diag d;
    diag_init(&d);
    status st = store_describe(display_store(), table, &p->def, &d);
    if (st != ST_OK) {
        display_diag(table, st, &d);
        return false;
    }
    p->have_def = true;
    p->table = xstrdup(table);
    store_info info;
    store_get_info(display_store(), &info);
    p->remote = info.remote;
    fill(v, 0);
    return true;
}

static void watch_done(view *v)
{
    watch_view *p = v->priv;
    vm_clear(&v->vm);
    free_changes(p);
    free(p->changes);
    free(p->table);
    if (p->have_def)
        table_def_free(&p->def);
}

static void watch_title(view *v, buf *out)
{
    watch_view *p = v->priv;
    buf_printf(out, "%s  changes, newest first: %zu%s", p->table, p->n, p->more ? "+" : "");
    if (p->remote)
        buf_adds(out, "  (the table's stream, read-only)");
    else
        buf_adds(out, live_paused() ? "  live paused (L resumes)" : "  live");
}

static void when(buf *out, int64_t ms)
{
    time_t sec = (time_t)(ms / 1000);
    struct tm tm;
    localtime_r(&sec, &tm);
    buf_printf(out, "%02d:%02d:%02d.%03d", tm.tm_hour, tm.tm_min, tm.tm_sec, (int)(ms % 1000));
}

static const char *event_name(int e)
{
    return e == STORE_INSERT ? "INSERT" : e == STORE_REMOVE ? "REMOVE" : "MODIFY";
}

static void key_text(watch_view *p, const store_change *c, buf *out)
{
    fmt_key(out, &c->keys, p->def.pk.name, p->def.sk.name);
}

static void watch_draw(view *v, size_t i, int row, int width)
{
    watch_view *p = v->priv;
    line *l = &v->vm.lines[i];
    wline *w = l->data;
    buf b = BUF_INIT;
    if (l->kind == L_NOTE) {
        term_puts(row, 0, width, p->note[0] ? p->note : "no changes yet: writes through ddbx api,"
                  " ddbx serve or this explorer appear here", p->note[0] ? ROLE_ERROR : ROLE_DIM);
        buf_done(&b);
        return;
    }
    const store_change *c = &p->changes[w->c];
    if (l->kind == L_CHANGE) {
        when(&b, c->t_ms);
        int x = term_put(row, 0, width, b.data, b.len, ROLE_DIM, false);
        const char *ev = event_name(c->event);
        role r = c->event == STORE_INSERT ? ROLE_KEY : c->event == STORE_REMOVE ? ROLE_HOT : ROLE_GROUP;
        x += term_puts(row, x, width - x, "  ", ROLE_NORMAL);
        x += term_puts(row, x, width - x, ev, r);
        if (c->ttl)
            x += term_puts(row, x, width - x, " (TTL)", ROLE_DIM);
        x += term_puts(row, x, width - x, "  ", ROLE_NORMAL);
        buf_reset(&b);
        key_text(p, c, &b);
        term_put(row, x, width - x, b.data, b.len, ROLE_KEY, true);
    } else {
        /* "    ~ name: old → new", "+" added, "-" removed */
        const char *sign = !w->old ? "+ " : !w->new_v ? "- " : "~ ";
        buf_printf(&b, "    %s%s: ", sign, w->name);
        int x = term_put(row, 0, width, b.data, b.len, ROLE_NORMAL, true);
        buf_reset(&b);
        if (w->old) {
            fmt_cell(&b, w->old, 60);
            x += term_put(row, x, width - x, b.data, b.len, w->new_v ? ROLE_DIM : ROLE_NORMAL, true);
            if (w->new_v)
                x += term_puts(row, x, width - x, " \u2192 ", ROLE_NORMAL);
        }
        if (w->new_v) {
            buf_reset(&b);
            fmt_cell(&b, w->new_v, 60);
            term_put(row, x, width - x, b.data, b.len, ROLE_NORMAL, true);
        }
    }
    buf_done(&b);
}

static const char *watch_kind_name(int kind)
{
    return kind == L_CHANGE ? "change" : kind == L_ATTR ? "attribute" : "note";
}

static void watch_text(view *v, size_t i, buf *out)
{
    watch_view *p = v->priv;
    line *l = &v->vm.lines[i];
    wline *w = l->data;
    if (l->kind == L_NOTE) {
        buf_adds(out, p->note[0] ? p->note : "no changes");
        return;
    }
    const store_change *c = &p->changes[w->c];
    if (l->kind == L_CHANGE) {
        buf_printf(out, "%s ", event_name(c->event));
        key_text(p, c, out);
        return;
    }
    buf_printf(out, "%s ", w->name);
    if (w->old)
        fmt_cell(out, w->old, 0);
    buf_adds(out, " -> ");
    if (w->new_v)
        fmt_cell(out, w->new_v, 0);
}

static int64_t selected_seq(view *v)
{
    watch_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    return l && l->kind != L_NOTE ? p->changes[((wline *)l->data)->c].seq : 0;
}

static enum req watch_request(view *v, enum req r)
{
    watch_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    switch (r) {
    case REQ_ENTER: {
        if (!l || l->kind == L_NOTE)
            return REQ_NONE;
        const store_change *c = &p->changes[((wline *)l->data)->c];
        const av *pk = av_map_get(&c->keys, p->def.pk.name, strlen(p->def.pk.name));
        if (!pk) {
            display_error("This record carries no key");
            return REQ_NONE;
        }
        if (c->event == STORE_REMOVE)
            display_message("The item was deleted: its partition is shown");
        /* The item's own position (its key), or its partition's header
         * when it is gone. */
        items_arg a = { p->table, NULL, pk, c->event == STORE_REMOVE ? NULL : &c->keys };
        display_push(&view_items_ops, &a);
        return REQ_NONE;
    }
    case REQ_RELOAD:
        fill(v, selected_seq(v));
        return REQ_NONE;
    default:
        return r;
    }
}

static size_t watch_more(view *v, int dir)
{
    watch_view *p = v->priv;
    if (dir <= 0 || !p->more || p->n == 0)
        return 0;
    size_t before = v->vm.n;
    load(v, p->changes[p->n - 1].seq);
    return v->vm.n - before;
}

static void watch_context(view *v, cond_arg *out)
{
    watch_view *p = v->priv;
    out->table = p->table;
}

const view_ops view_watch_ops = {
    .follows = true,
    .name = "watch",
    .priv_size = sizeof(watch_view),
    .open = watch_open,
    .title = watch_title,
    .draw = watch_draw,
    .request = watch_request,
    .done = watch_done,
    .more = watch_more,
    .free_line = watch_free_line,
    .kind_name = watch_kind_name,
    .text = watch_text,
    .context = watch_context,
};
