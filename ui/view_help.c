/*
 * view_help — the help overlay: every request with its keys, grouped by
 * section, then every `:` command, generated from REQ_LIST, the current
 * bindings and CMD_LIST (the same tables as the man page), each command
 * with its working example (ui/command_examples.h).
 */
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "ui/command.h"
#include "ui/command_examples.h"
#include "ui/display.h"
#include "ui/keymap.h"
#include "ui/view.h"

enum { L_SECTION = 1, L_KEY, L_CMD, L_EXAMPLE };

typedef struct hline {
    buf left, right;
} hline;

static void free_line(view *v, line *l)
{
    hline *h = l->data;
    buf_done(&h->left);
    buf_done(&h->right);
    free(h);
}

static hline *add(view *v, int kind)
{
    hline *h = xcalloc(1, sizeof *h);
    vm_append(&v->vm, kind, h);
    return h;
}

/* The view-specific and prompt keys of section sect (REQ_VIEW_KEYS). */
static void view_keys(view *v, const char *sect)
{
#define VIEW_KEY(s, r, fixed, help) \
    if (strcmp(s, sect) == 0) { \
        hline *h = add(v, L_KEY); \
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

static bool open_view(view *v, const void *arg)
{
    const char *sect = "";
    for (int r = 1; r < REQ__COUNT; r++) {
        if (strcmp(sect, keymap_req_section((enum req)r)) != 0) {
            view_keys(v, sect);
            sect = keymap_req_section((enum req)r);
            buf_adds(&add(v, L_SECTION)->left, sect);
        }
        hline *h = add(v, L_KEY);
        keymap_keys_of((enum req)r, &h->left);
        if (!h->left.len)
            buf_adds(&h->left, "(unbound)");
        buf_printf(&h->right, "%s (%s)", keymap_req_help((enum req)r), keymap_req_name((enum req)r));
    }
    view_keys(v, sect);
    buf_adds(&add(v, L_SECTION)->left, "Commands");
#define CMD_HELP(name, args, help) do { \
        hline *h = add(v, L_CMD); \
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
    return true;
}

static void title(view *v, buf *out)
{
    buf_adds(out, "Help: keys and commands  (q: back)");
}

static void draw(view *v, size_t i, int row, int width)
{
    line *l = &v->vm.lines[i];
    hline *h = l->data;
    if (l->kind == L_SECTION) {
        term_put(row, 0, width, h->left.data, h->left.len, ROLE_GROUP, true);
        return;
    }
    if (l->kind == L_EXAMPLE) {
        term_put(row, 6, width - 6, h->left.data, h->left.len, ROLE_DIM, true);
        return;
    }
    int lw = l->kind == L_CMD ? 26 : 18;
    term_put(row, 2, lw, h->left.data, h->left.len, ROLE_KEY, true);
    term_put(row, 3 + lw, width - 3 - lw, h->right.data, h->right.len, ROLE_NORMAL, true);
}

static const char *kind_name(int kind)
{
    return kind == L_SECTION ? "section" : kind == L_KEY ? "key" : kind == L_CMD ? "command"
                                                                          : "example";
}

static void text(view *v, size_t i, buf *out)
{
    hline *h = v->vm.lines[i].data;
    buf_add(out, h->left.data ? h->left.data : "", h->left.len);
    if (h->right.len) {
        buf_adds(out, "  ");
        buf_add(out, h->right.data, h->right.len);
    }
}

static enum req request(view *v, enum req r)
{
    if (r == REQ_HELP || r == REQ_ENTER) {
        display_pop();
        return REQ_NONE;
    }
    return r;
}

const view_ops view_help_ops = {
    .name = "help",
    .open = open_view,
    .title = title,
    .draw = draw,
    .request = request,
    .free_line = free_line,
    .kind_name = kind_name,
    .text = text,
};
