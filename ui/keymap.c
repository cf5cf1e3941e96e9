#include "ui/keymap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"
#include "ui/command.h"
#include "ui/command_examples.h"

static const struct {
    const char *section, *name, *help;
} reqs[REQ__COUNT] = {
    [REQ_NONE] = { "", "none", "" },
#define REQ_ROW(sect, id, nm, hl) [REQ_##id] = { sect, nm, hl },
    REQ_LIST(REQ_ROW)
#undef REQ_ROW
};

static const struct {
    int key;
    const char *name;
} key_names[] = {
    { K_UP, "Up" }, { K_DOWN, "Down" }, { K_LEFT, "Left" },
    { K_RIGHT, "Right" }, { K_PGUP, "PgUp" }, { K_PGDN, "PgDn" },
    { K_HOME, "Home" }, { K_END, "End" }, { K_ENTER, "Enter" },
    { K_TAB, "Tab" }, { K_BTAB, "BackTab" }, { K_ESC, "Esc" },
    { K_BACKSPACE, "Backspace" }, { K_DELETE, "Delete" },
    { K_INSERT, "Insert" }, { K_F1, "F1" }, { ' ', "Space" },
    { K_WHEEL_UP, "WheelUp" }, { K_WHEEL_DOWN, "WheelDown" },
    { K_CLICK, "Click" }, { K_DOUBLE, "DoubleClick" },
};

/* A binding holds in every view (ctx "") or only in the view of that
 * name, where it wins over the global one. */
typedef struct binding {
    int key;
    enum req req;
    char ctx[16];
} binding;

/* The views a binding may be limited to (their view_ops names). */
static const char *const contexts[] = {
    "builder", "items", "item", "query", "tables", "partitions", "watch", "partiql", "staged", "conflict",
    "help", "backups", "diff", "versions",
};

static binding *table;
static size_t n_table, cap_table;

status keymap_init(diag *d)
{
    keymap_done();
    return keymap_load(keymap_default_conf, keymap_default_conf_len,
                       "assets/keys.conf", d);
}

void keymap_done(void)
{
    free(table);
    table = NULL;
    n_table = cap_table = 0;
}

static void bind_key(const char *ctx, int key, enum req r)
{
    for (size_t i = 0; i < n_table; i++)
        if (table[i].key == key && strcmp(table[i].ctx, ctx) == 0) {
            table[i].req = r;
            return;
        }
    if (n_table == cap_table) {
        cap_table = cap_table ? cap_table * 2 : 64;
        table = xrealloc(table, cap_table * sizeof *table);
    }
    table[n_table].key = key;
    table[n_table].req = r;
    snprintf(table[n_table].ctx, sizeof table[n_table].ctx, "%s", ctx);
    n_table++;
}

enum req keymap_lookup_in(const char *view, int key)
{
    for (size_t i = 0; view && i < n_table; i++)
        if (table[i].key == key && table[i].ctx[0] && strcmp(table[i].ctx, view) == 0)
            return table[i].req;
    for (size_t i = 0; i < n_table; i++)
        if (table[i].key == key && !table[i].ctx[0])
            return table[i].req;
    return REQ_NONE;
}

enum req keymap_lookup(int key)
{
    return keymap_lookup_in(NULL, key);
}

static const char *context_parse(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof contexts / sizeof contexts[0]; i++)
        if (strlen(contexts[i]) == len && memcmp(contexts[i], name, len) == 0)
            return contexts[i];
    return NULL;
}

void keymap_key_name(int key, buf *out)
{
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
        if (key_names[i].key == key) {
            buf_adds(out, key_names[i].name);
            return;
        }
    if (key > 0 && key < 32) {
        buf_printf(out, "^%c", '@' + key);
        return;
    }
    if (key > 32 && key < 127) {
        buf_addc(out, (char)key);
        return;
    }
    buf_printf(out, "U+%04X", (unsigned)key);
}

int keymap_key_parse(const char *name, size_t len)
{
    for (size_t i = 0; i < sizeof key_names / sizeof key_names[0]; i++)
        if (strlen(key_names[i].name) == len && strncasecmp(key_names[i].name, name, len) == 0)
            return key_names[i].key;
    if (len == 1 && name[0] > 32 && name[0] < 127)
        return name[0];
    if (len == 2 && name[0] == '^') {
        char c = name[1];
        if (c >= 'a' && c <= 'z')
            c = (char)(c - 'a' + 'A');
        if (c >= '@' && c <= '_')
            return c - '@';
    }
    return -1;
}

void keymap_keys_of(enum req r, buf *out)
{
    size_t start = out->len;
    for (size_t i = 0; i < n_table; i++) {
        if (table[i].req != r)
            continue;
        if (out->len > start)
            buf_adds(out, ", ");
        keymap_key_name(table[i].key, out);
    }
}

enum req keymap_req_parse(const char *name, size_t len)
{
    for (int r = 1; r < REQ__COUNT; r++)
        if (strlen(reqs[r].name) == len && memcmp(reqs[r].name, name, len) == 0)
            return (enum req)r;
    return REQ_NONE;
}

const char *keymap_req_name(enum req r)
{
    return (r > REQ_NONE && r < REQ__COUNT) ? reqs[r].name : "none";
}

const char *keymap_req_help(enum req r)
{
    return (r > REQ_NONE && r < REQ__COUNT) ? reqs[r].help : "";
}

const char *keymap_req_section(enum req r)
{
    return (r > REQ_NONE && r < REQ__COUNT) ? reqs[r].section : "";
}

/* Next whitespace-separated word of line[*i..len). */
static bool word(const char *line, size_t len, size_t *i, size_t *start, size_t *wlen)
{
    while (*i < len && (line[*i] == ' ' || line[*i] == '\t'))
        (*i)++;
    if (*i >= len || line[*i] == '#')
        return false;
    *start = *i;
    while (*i < len && line[*i] != ' ' && line[*i] != '\t')
        (*i)++;
    *wlen = *i - *start;
    return true;
}

status keymap_load(const char *text, size_t len, const char *file, diag *d)
{
    size_t pos = 0;
    int lineno = 0;

    while (pos < len) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        size_t i = 0, ws, wl, ks, kl, rs, rl, xs, xl;
        pos += ll + (nl ? 1 : 0);
        lineno++;
        if (ll && line[ll - 1] == '\r')
            ll--;
        if (!word(line, ll, &i, &ws, &wl))
            continue;
        d->line = lineno;
        if (file)
            snprintf(d->file, sizeof d->file, "%s", file);
        if (wl != 4 || memcmp(line + ws, "bind", 4) != 0) {
            d->col = (int)ws + 1;
            return diag_set(d, ST_PARSE, "expected 'bind KEY REQUEST', found '%.*s'", (int)wl, line + ws);
        }
        if (!word(line, ll, &i, &ks, &kl) || !word(line, ll, &i, &rs, &rl)) {
            d->col = (int)i + 1;
            return diag_set(d, ST_PARSE, "expected 'bind KEY REQUEST'");
        }
        /* bind VIEW KEY REQUEST: a binding for one view only. */
        const char *ctx = "";
        if (word(line, ll, &i, &xs, &xl)) {
            ctx = context_parse(line + ks, kl);
            if (!ctx) {
                d->col = (int)ks + 1;
                return diag_set(d, ST_PARSE, "unknown view '%.*s' (bind VIEW KEY REQUEST names one of"
                                " builder, items, item, query, tables, partitions, watch, partiql,"
                                " staged, conflict, help)", (int)kl, line + ks);
            }
            ks = rs;
            kl = rl;
            rs = xs;
            rl = xl;
            if (word(line, ll, &i, &xs, &xl)) {
                d->col = (int)xs + 1;
                return diag_set(d, ST_PARSE, "unexpected '%.*s' after the request", (int)xl, line + xs);
            }
        }
        int key = keymap_key_parse(line + ks, kl);
        if (key < 0) {
            d->col = (int)ks + 1;
            return diag_set(d, ST_PARSE, "unknown key '%.*s'", (int)kl, line + ks);
        }
        enum req r = keymap_req_parse(line + rs, rl);
        if (r == REQ_NONE && !(rl == 4 && memcmp(line + rs, "none", 4) == 0)) {
            d->col = (int)rs + 1;
            return diag_set(d, ST_PARSE, "unknown request '%.*s'", (int)rl, line + rs);
        }
        bind_key(ctx, key, r);
    }
    d->line = d->col = 0;
    return ST_OK;
}

/* Roff-escapes text: backslashes and a leading dot or quote. */
static void roff(buf *out, const char *s)
{
    if (*s == '.' || *s == '\'')
        buf_adds(out, "\\&");
    for (; *s; s++) {
        if (*s == '\\')
            buf_adds(out, "\\e");
        else if (*s == '-')
            buf_adds(out, "\\-");
        else
            buf_addc(out, *s);
    }
}

/* The view-specific and prompt keys of section sect (REQ_VIEW_KEYS). */
static void man_view_keys(buf *out, const char *sect)
{
    buf keys = BUF_INIT;
#define VIEW_KEY(s, r, fixed, help) \
    if (strcmp(s, sect) == 0) { \
        buf_reset(&keys); \
        if ((r) != REQ_NONE) \
            keymap_keys_of(r, &keys); \
        else \
            buf_adds(&keys, fixed); \
        buf_adds(out, ".TP\n.B "); \
        roff(out, keys.len ? keys.data : "(unbound)"); \
        buf_adds(out, "\n"); \
        roff(out, help); \
        buf_adds(out, ".\n"); \
    }
    REQ_VIEW_KEYS(VIEW_KEY)
#undef VIEW_KEY
    buf_done(&keys);
}

void keymap_write_man(buf *out)
{
    const char *sect = "";
    buf keys = BUF_INIT;
    for (int r = 1; r < REQ__COUNT; r++) {
        if (strcmp(sect, reqs[r].section) != 0) {
            man_view_keys(out, sect);
            sect = reqs[r].section;
            buf_printf(out, ".SS %s\n", sect);
        }
        buf_reset(&keys);
        keymap_keys_of((enum req)r, &keys);
        buf_adds(out, ".TP\n.B ");
        roff(out, keys.len ? keys.data : "(unbound)");
        buf_adds(out, "\n");
        roff(out, reqs[r].help);
        buf_adds(out, " (");
        roff(out, reqs[r].name);
        buf_adds(out, ").\n");
    }
    man_view_keys(out, sect);
    buf_done(&keys);
}

/* The command's working example (ui/command_examples.h), under it. */
static void man_example(buf *out, const char *name, const char *args)
{
    if (!*args)
        return;   /* ":quit" as its own example goes without saying */
#define CMD_EX(n, where, example, shows) \
    if (strcmp(name, #n) == 0) { buf_adds(out, ".br\ne.g. \\fB"); roff(out, example); buf_adds(out, "\\fR\n"); }
    CMD_EXAMPLES(CMD_EX)
#undef CMD_EX
}

void keymap_write_man_commands(buf *out)
{
#define CMD_MAN(name, args, help) do { \
        buf_adds(out, ".TP\n.B :"); \
        for (const char *c = #name; *c; c++) \
            buf_adds(out, *c == '_' ? "\\-" : (char[]){ *c, 0 }); \
        if (*args) { buf_adds(out, " "); roff(out, args); } \
        buf_adds(out, "\n"); \
        roff(out, help); \
        buf_adds(out, ".\n"); \
        man_example(out, #name, args); \
    } while (0);
    CMD_LIST(CMD_MAN)
#undef CMD_MAN
}
