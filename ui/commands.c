/*
 * commands — the `:` commands (see ui/display_int.h): display_command
 * splits the line typed into words and runs it, and the requests (keys)
 * that the frame does not handle itself come here too
 * (commands_request), so that a key and its command do the same thing.
 * ui/command.h's CMD_LIST is the list of their names.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "ui/command.h"
#include "ui/copy.h"
#include "ui/display.h"
#include "ui/display_int.h"
#include "ui/live.h"
#include "ui/marks.h"
#include "ui/schema_cmds.h"
#include "ui/search.h"
#include "ui/staging.h"
#include "ui/text.h"
#include "ui/undo.h"
#include "ui/view_backups.h"
#include "ui/view_diff.h"
#include "ui/workbench.h"

/* The `:` command being run: where each of its words starts. */
static struct {
    int col[32];
    int argc;
} running;

static void save_view(view *v, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        display_error("cannot write %s: %s", path, strerror(errno));
        return;
    }
    buf b = BUF_INIT, t = BUF_INIT;
    v->ops->title(v, &b);
    text_title_fit(&t, b.data ? b.data : "", b.len, -1);
    fprintf(f, "view %s\ntitle %s\nscreen %dx%d %s\n", v->ops->name, t.data ? t.data : "",
            term_cols(), term_rows(), term_mono() ? "monochrome" : "colour");
    buf_done(&t);
    fprintf(f, "loaded %zu cursor %zu top %zu\n", v->vm.n, v->vm.cursor, v->vm.top);
    for (size_t i = 0; i < v->vm.n; i++) {
        buf_reset(&b);
        if (v->ops->text)
            v->ops->text(v, i, &b);
        const char *kn = v->ops->kind_name ? v->ops->kind_name(v->vm.lines[i].kind) : "line";
        buf esc = BUF_INIT;
        text_fit(&esc, b.data ? b.data : "", b.len, -1, false, false);
        fprintf(f, "%c %-8s %s\n", i == v->vm.cursor ? '>' : ' ', kn, esc.data ? esc.data : "");
        buf_done(&esc);
    }
    buf_done(&b);
    fclose(f);
}

/* Copies JSON that starts at *p ({ or [) as typed, to its matching
 * bracket (or the end of the line): its quotes, spaces and backslashes
 * are the JSON's own. */
static void copy_json(const char **pp, char **oo)
{
    const char *p = *pp;
    char *o = *oo;
    int depth = 0;
    bool str = false;
    while (*p) {
        char c = *p;
        *o++ = *p++;
        if (str) {
            if (c == '\\' && *p)
                *o++ = *p++;
            else if (c == '"')
                str = false;
        } else if (c == '"') {
            str = true;
        } else if (c == '{' || c == '[') {
            depth++;
        } else if ((c == '}' || c == ']') && --depth == 0) {
            break;
        }
    }
    *pp = p;
    *oo = o;
}

/* Splits a command line into words. JSON (a word that begins with { or
 * [, or what follows = in --values={...}) is kept as typed, so
 * `:cond-item {"PK":{"S":"a b"}}` is one word with its quotes. Elsewhere
 * "double" or 'single' quotes group and are removed, and a backslash
 * escapes the next character. argv points into `words`; col[i] gets the
 * index in text where word i's text starts. */
static int split_words(const char *text, char *words, char **argv, int *col, int max)
{
    int argc = 0;
    const char *p = text;
    char *o = words;
    while (*p && argc < max) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p)
            break;
        col[argc] = (int)(p - text);
        argv[argc++] = o;
        char q = 0;
        const char *start = p;
        while (*p && (q || (*p != ' ' && *p != '\t'))) {
            if (!q && (*p == '{' || *p == '[') && (p == start || p[-1] == '=')) {
                copy_json(&p, &o);
                continue;
            }
            if (!q && (*p == '"' || *p == '\'')) {
                if (p == start)
                    col[argc - 1]++;
                q = *p++;
                continue;
            }
            if (q && *p == q) {
                q = 0;
                p++;
                continue;
            }
            if (*p == '\\' && p[1] && q != '\'')
                p++;
            *o++ = *p++;
        }
        *o++ = '\0';
    }
    return argc;
}

int display_command_col(int i)
{
    return i >= 0 && i < running.argc ? running.col[i] + 2 : 0;
}

static bool is_cmd(const char *word, const char *name)
{
    for (; *word && *name; word++, name++)
        if (*word != *name && !(*word == '-' && *name == '_'))
            return false;
    return *word == *name;
}

bool display_is_cmd(const char *word, const char *name)
{
    return is_cmd(word, name);
}

/* The change feed of the table v shows (or of `table`). */
static void watch(view *v, const char *table)
{
    cond_arg a = { 0 };
    if (!table && v->ops->context)
        v->ops->context(v, &a);
    if (!table)
        table = a.table;
    if (!table) {
        display_error("Open a table first, or :watch TABLE");
        return;
    }
    display_push(&view_watch_ops, table);
}

static void live_command(const char *arg)
{
    if (arg && strcmp(arg, "on") != 0 && strcmp(arg, "off") != 0) {
        display_error("usage: :live [on|off]");
        return;
    }
    live_pause(arg ? strcmp(arg, "off") == 0 : !live_paused());
    store_info info;
    store_get_info(display_store(), &info);
    if (info.remote)
        display_message("Live mode follows a local database only; R reloads from the endpoint");
    else
        display_message(live_paused() ? "Live mode paused: other processes' writes show on R"
                                      : "Live mode: other processes' writes show as they land");
}

void display_command(const char *text)
{
    char *words = xmalloc(strlen(text) + 1);
    char *argv[32];
    int col[32], saved_col[32], saved_argc = running.argc;
    memcpy(saved_col, running.col, sizeof saved_col);
    int argc = split_words(text, words, argv, col, 31);
    view *v = display_top();
    argv[argc] = NULL;
    memcpy(running.col, col, sizeof col);
    running.argc = argc;
    if (argc == 0 || !v)
        goto out;
    undo_begin(text, true);

    const char *c = argv[0];
    /* A command says how it went itself: the message an earlier key or
     * command left does not stay under it (the test hooks keep it, to
     * save the screen that command left). */
    if (!is_cmd(c, "save_display") && !is_cmd(c, "save_view"))
        buf_reset(&display_line.status);
    if (is_cmd(c, "quit") || is_cmd(c, "q") || is_cmd(c, "qa")) {
        display_quit();
    } else if (is_cmd(c, "back")) {
        display_back();
    } else if (is_cmd(c, "help")) {
        display_push(&view_help_ops, v->ops->name);
    } else if (is_cmd(c, "save_display") && argc == 2) {
        diag d;
        diag_init(&d);
        display_draw();
        status st = term_save_display(argv[1], &d);
        if (st != ST_OK)
            display_diag(NULL, st, &d);
    } else if (is_cmd(c, "save_view") && argc == 2) {
        save_view(v, argv[1]);
    } else if (is_cmd(c, "search")) {
        if (argc < 2) {
            display_error("usage: :search TEXT");
        } else {
            buf t = BUF_INIT;
            for (int i = 1; i < argc; i++) {
                if (i > 1)
                    buf_addc(&t, ' ');
                buf_adds(&t, argv[i]);
            }
            search_set(t.data, t.len);
            buf_done(&t);
            search_run(v, 1);
        }
    } else if (is_cmd(c, "table") && argc == 2) {
        /* In a table view it replaces that view (one q back, however
         * many tables were opened); elsewhere it opens on top. */
        items_arg a = { argv[1], NULL, NULL, NULL };
        if (v->ops == &view_items_ops)
            display_replace(&view_items_ops, &a);
        else
            display_push(&view_items_ops, &a);
    } else if (is_cmd(c, "patterns") && argc <= 2 && v->ops != &view_patterns_ops) {
        view_patterns_open(v, argc == 2 ? argv[1] : NULL);
    } else if (is_cmd(c, "watch") && argc <= 2) {
        watch(v, argc == 2 ? argv[1] : NULL);
    } else if (is_cmd(c, "live") && argc <= 2) {
        live_command(argc == 2 ? argv[1] : NULL);
    } else if (is_cmd(c, "reload")) {
        if (v->ops->request)
            v->ops->request(v, REQ_RELOAD);
    } else if (is_cmd(c, "partiql")) {
        const char *rest = text + strspn(text, " ");
        rest += strcspn(rest, " ");
        view_partiql_open(v, rest + strspn(rest, " "));
    } else if ((is_cmd(c, "cond") || is_cmd(c, "load_cond") || is_cmd(c, "conds")) &&
               v->ops != &view_builder_ops) {
        view_builder_open(v, argc, argv);
    } else if (backups_command(v, argc, argv) || diff_command(v, argc, argv)) {
        /* :backup, :backups, :diff (ui/view_backups.c, ui/view_diff.c) */
    } else if (workbench_command(v, argc, argv)) {
        /* :entities, :doctor, :what-if and what-if's own :create-index
         * and :delete-index (ui/workbench.c) */
    } else if (schema_command(v, argc, argv)) {
        /* :create-index, :delete-index, :ttl (ui/schema_cmds.c) */
    } else if (v->ops->command && v->ops->command(v, argc, argv)) {
        /* the view ran it */
    } else if (staging_command(v, argc, argv) || marks_command(v, argc, argv) ||
               copy_command(v, argc, argv) || undo_command(v, argc, argv)) {
        /* staging, marks, copying, :samples and :undo (ui/staging.c,
         * ui/marks.c, ui/copy.c, ui/undo.c) */
    } else {
        bool known = false;
#define CMD_KNOWN(name, args, help) if (is_cmd(c, #name)) known = true;
        CMD_LIST(CMD_KNOWN)
#undef CMD_KNOWN
        if (known)
            display_error(":%s is not available here (or needs arguments)", c);
        else
            display_error("Unknown command :%s (press ? for help)", c);
    }
    undo_end();
out:
    memcpy(running.col, saved_col, sizeof saved_col);
    running.argc = saved_argc;
    free(words);
}

bool commands_request(view *v, enum req r)
{
    switch (r) {
    case REQ_HELP: display_push(&view_help_ops, v->ops->name); return true;   /* at v's keys */
    case REQ_COND: view_builder_open(v, 0, NULL); return true;
    case REQ_TXN_ADD: view_txn_add(v); return true;
    case REQ_TXN_SHOW: display_push(&view_txn_ops, NULL); return true;
    case REQ_WATCH: watch(v, NULL); return true;
    case REQ_LIVE: live_command(NULL); return true;
    case REQ_PARTIQL: view_partiql_open(v, NULL); return true;
    case REQ_PATTERNS: view_patterns_open(v, NULL); return true;
    default:
        return staging_request(v, r) || marks_request(v, r) || copy_request(v, r);
    }
}
