/*
 * view_help — the help overlay: every request with its keys, grouped by
 * section, then every `:` command, generated from REQ_LIST, the current
 * bindings and CMD_LIST (the same tables as the man page), each command
 * with its working example (ui/command_examples.h).
 *
 * The entries are built once; the lines are the entries wrapped at the
 * screen's width (a description too long for its row goes on below it,
 * under the description column; a key or command too wide for its column
 * has its description on the rows below), laid out again when the width
 * changes. Opened from a view (the arg is its ops name), it starts at
 * that view's section (the builder at "Builder").
 */
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "ui/command.h"
#include "ui/command_examples.h"
#include "ui/display.h"
#include "ui/keymap.h"
#include "ui/text.h"
#include "ui/view.h"

/* L_WRAP: a row an entry's text goes on onto. */
enum { L_SECTION = 1, L_KEY, L_CMD, L_EXAMPLE, L_WRAP };

typedef struct hentry {
    int kind;
    buf left, right;
} hentry;

typedef struct help_view {
    hentry *e;
    size_t n, cap;
    int width;           /* the lines are wrapped at this width */
} help_view;

/* A line: one row of entry `entry`, showing its left text from byte
 * lfrom (lcount bytes) and its right text from rfrom (rcount bytes). */
typedef struct hline {
    size_t entry;
    size_t lfrom, lcount, rfrom, rcount;
} hline;

static void help_free_line(view *v, line *l)
{
    free(l->data);
}

static hentry *add(view *v, int kind)
{
    help_view *p = v->priv;
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 128;
        p->e = xrealloc(p->e, p->cap * sizeof *p->e);
    }
    hentry *h = &p->e[p->n++];
    h->kind = kind;
    buf_init(&h->left);
    buf_init(&h->right);
    return h;
}

/* The view-specific and prompt keys of section sect (REQ_VIEW_KEYS). */
static void view_keys(view *v, const char *sect)
{
#define VIEW_KEY(s, r, fixed, help) \
    if (strcmp(s, sect) == 0) { \
        hentry *h = add(v, L_KEY); \
        if ((r) != REQ_NONE) \
            keymap_keys_of(r, &h->left); \
        else \
            buf_adds(&h->left, fixed); \
        if (!h->left.len) \
            buf_adds(&h->left, "(unbound)"); \
        buf_adds(&h->right, help); \
    }
    REQ_VIEW_KEYS(VIEW_KEY)
#undef VIEW_KEY
}

/* The command's working example (ui/command_examples.h); NULL: none. */
static const char *example_of(const char *name)
{
#define CMD_EX(n, where, example, shows) if (strcmp(name, #n) == 0) return example;
    CMD_EXAMPLES(CMD_EX)
#undef CMD_EX
    return NULL;
}

static void entries(view *v)
{
    const char *sect = "";
    for (int r = 1; r < REQ__COUNT; r++) {
        if (strcmp(sect, keymap_req_section((enum req)r)) != 0) {
            view_keys(v, sect);
            sect = keymap_req_section((enum req)r);
            buf_adds(&add(v, L_SECTION)->left, sect);
        }
        hentry *h = add(v, L_KEY);
        keymap_keys_of((enum req)r, &h->left);
        if (!h->left.len)
            buf_adds(&h->left, "(unbound)");
        buf_printf(&h->right, "%s (%s)", keymap_req_help((enum req)r), keymap_req_name((enum req)r));
    }
    view_keys(v, sect);
    buf_adds(&add(v, L_SECTION)->left, "Commands");
#define CMD_HELP(name, args, help) do { \
        hentry *h = add(v, L_CMD); \
        buf_adds(&h->left, ":"); \
        for (const char *c = #name; *c; c++) buf_addc(&h->left, *c == '_' ? '-' : *c); \
        if (*args) buf_printf(&h->left, " %s", args); \
        buf_adds(&h->right, help); \
        const char *ex = example_of(#name); \
        /* ":quit" as its own example goes without saying. */ \
        if (ex && strcmp(ex, h->left.data) != 0) \
            buf_printf(&add(v, L_EXAMPLE)->left, "e.g. %s", ex); \
    } while (0);
    CMD_LIST(CMD_HELP)
#undef CMD_HELP
}

/* Where an entry's columns are: its left text at x (w columns), the
 * description at rx; on a screen too narrow for the description beside
 * it, the description goes below, at rx 4. */
static void columns(int kind, int width, int *x, int *w, int *rx)
{
    int lw = kind == L_CMD ? 26 : 18;
    *x = kind == L_SECTION ? 0 : kind == L_EXAMPLE ? 6 : 2;
    *w = kind == L_SECTION || kind == L_EXAMPLE ? width - *x : lw;
    *rx = 3 + lw;
    if (width - *rx < 20)
        *rx = 4;
    if (*w < 1)
        *w = 1;
}

static void add_row(view *v, int kind, size_t entry, size_t lf, size_t lc, size_t rf, size_t rc)
{
    hline *h = xcalloc(1, sizeof *h);
    *h = (hline){ entry, lf, lc, rf, rc };
    vm_append(&v->vm, kind, h);
}

/* The lines, from the entries, at width. */
static void wrap(view *v, int width)
{
    help_view *p = v->priv;
    size_t sel = v->vm.n ? ((hline *)vm_selected(&v->vm)->data)->entry : 0;
    vm_clear(&v->vm);
    p->width = width;
    for (size_t i = 0; i < p->n; i++) {
        const hentry *e = &p->e[i];
        int x, w, rx;
        columns(e->kind, width, &x, &w, &rx);
        const char *ls = e->left.data ? e->left.data : "", *rs = e->right.data ? e->right.data : "";
        size_t k = 0, f, n;
        /* A left text too wide for its column (or alone: a section, an
         * example) takes rows of its own. */
        bool apart = !e->right.len || text_width(ls, e->left.len) > w || rx <= x + w;
        for (; apart && text_wrap_row(ls, e->left.len, width - x, k, &f, &n); k++)
            add_row(v, k ? L_WRAP : e->kind, i, f, n, 0, 0);
        for (size_t r = 0; text_wrap_row(rs, e->right.len, width - rx, r, &f, &n); r++, k++)
            add_row(v, k ? L_WRAP : e->kind, i, 0, k || apart ? 0 : e->left.len, f, n);
        if (k == 0)
            add_row(v, e->kind, i, 0, 0, 0, 0);
    }
    /* The same entry selected, its first row. */
    for (size_t i = 0; i < v->vm.n; i++)
        if (((hline *)v->vm.lines[i].data)->entry >= sel) {
            vm_select(&v->vm, i);
            break;
        }
}

/* The section a view's keys are in (NULL: none, start at the top). */
static const char *section_of(const char *view_name)
{
    static const char *const map[][2] = {
        { "builder", "Builder" }, { "txn", "Transaction" }, { "staged", "Staging" },
        { "conflict", "Staging" }, { "columns", "Table" },
    };
    for (size_t i = 0; view_name && i < sizeof map / sizeof *map; i++)
        if (strcmp(view_name, map[i][0]) == 0)
            return map[i][1];
    return NULL;
}

static bool help_open(view *v, const void *arg)
{
    help_view *p = v->priv;
    entries(v);
    wrap(v, term_cols());
    const char *sect = section_of(arg);
    for (size_t i = 0; sect && i < v->vm.n; i++) {
        const hentry *e = &p->e[((hline *)v->vm.lines[i].data)->entry];
        if (v->vm.lines[i].kind == L_SECTION && strcmp(e->left.data, sect) == 0) {
            /* The section's header on the top row, selected. */
            vm_select(&v->vm, i);
            vm_center(&v->vm, 0);
            break;
        }
    }
    return true;
}

static void help_layout(view *v)
{
    help_view *p = v->priv;
    if (p->width != term_cols()) {
        size_t above = v->vm.cursor - v->vm.top;
        wrap(v, term_cols());
        vm_center(&v->vm, above);
    }
}

static void help_done(view *v)
{
    help_view *p = v->priv;
    for (size_t i = 0; i < p->n; i++) {
        buf_done(&p->e[i].left);
        buf_done(&p->e[i].right);
    }
    free(p->e);
}

static void help_title(view *v, buf *out)
{
    buf_adds(out, "Help: keys and commands  (q: back)");
}

static void help_draw(view *v, size_t i, int row, int width)
{
    help_view *p = v->priv;
    line *l = &v->vm.lines[i];
    const hline *h = l->data;
    const hentry *e = &p->e[h->entry];
    int x, w, rx;
    columns(e->kind, width, &x, &w, &rx);
    role lr = e->kind == L_SECTION ? ROLE_GROUP : e->kind == L_EXAMPLE ? ROLE_DIM : ROLE_KEY;
    if (h->lcount) {
        bool alone = !h->rcount;
        term_put(row, x, alone ? width - x : w, e->left.data + h->lfrom, h->lcount, lr, true);
    }
    if (h->rcount)
        term_put(row, rx, width - rx, e->right.data + h->rfrom, h->rcount, ROLE_NORMAL, true);
}

static const char *help_kind_name(int kind)
{
    return kind == L_SECTION ? "section" : kind == L_KEY ? "key" : kind == L_CMD ? "command"
         : kind == L_EXAMPLE ? "example" : "wrap";
}

/* An entry's whole text on its first row (search finds the entry there);
 * nothing on the rows it wraps onto. */
static void help_text(view *v, size_t i, buf *out)
{
    help_view *p = v->priv;
    if (v->vm.lines[i].kind == L_WRAP)
        return;
    const hentry *e = &p->e[((hline *)v->vm.lines[i].data)->entry];
    buf_add(out, e->left.data ? e->left.data : "", e->left.len);
    if (e->right.len) {
        buf_adds(out, "  ");
        buf_add(out, e->right.data, e->right.len);
    }
}

static enum req help_request(view *v, enum req r)
{
    if (r == REQ_HELP || r == REQ_ENTER) {
        display_pop();
        return REQ_NONE;
    }
    return r;
}

const view_ops view_help_ops = {
    .name = "help",
    .priv_size = sizeof(help_view),
    .open = help_open,
    .layout = help_layout,
    .title = help_title,
    .draw = help_draw,
    .request = help_request,
    .done = help_done,
    .free_line = help_free_line,
    .kind_name = help_kind_name,
    .text = help_text,
};
