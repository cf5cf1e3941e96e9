/*
 * commands — the `:` commands (see ui/display_int.h): display_command
 * splits the line typed into words and runs it: a general command from
 * the table `general` (one line a command, named as in ui/command.h's
 * CMD_LIST, which gives the help overlay and the man page their list),
 * else the first of the features' hooks that takes it (`features`, one
 * line a feature, the view shown asked in its place among them). The
 * requests (keys) that the frame does not handle itself come here too
 * (commands_request) and go the same way, so a key and its command do
 * the same thing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
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

/* :save-view FILE (tests): the view's title, its loaded lines with their
 * kinds, and the selection. */
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

/* ---- the general commands ------------------------------------------- */

/* The commands of CMD_LIST, numbered in its order. */
enum cmd_id {
#define CMD_ID(name, args, help) CMD_##name,
    CMD_LIST(CMD_ID)
#undef CMD_ID
    CMD_COUNT
};

static const char *const cmd_names[CMD_COUNT] = {
#define CMD_NAME(name, args, help) #name,
    CMD_LIST(CMD_NAME)
#undef CMD_NAME
};

/* The CMD_LIST number of the command word c ('-' for '_'), or -1; vi's
 * :q and :qa are :quit. */
static int cmd_find(const char *c)
{
    for (int i = 0; i < CMD_COUNT; i++)
        if (is_cmd(c, cmd_names[i]))
            return i;
    return is_cmd(c, "q") || is_cmd(c, "qa") ? CMD_quit : -1;
}

/* A general command, on the top view v: argv[0] is its name, text the
 * whole line as typed. False when it does not apply as typed (its
 * arguments, the view shown): the features and the view are asked then,
 * as for any other command. */
typedef bool cmd_fn(view *v, int argc, char **argv, const char *text);

static bool cmd_quit(view *v, int argc, char **argv, const char *text)
{
    display_quit();
    return true;
}

static bool cmd_back(view *v, int argc, char **argv, const char *text)
{
    display_back();
    return true;
}

static bool cmd_help(view *v, int argc, char **argv, const char *text)
{
    display_push(&view_help_ops, v->ops->name);
    return true;
}

static bool cmd_save_display(view *v, int argc, char **argv, const char *text)
{
    if (argc != 2)
        return false;
    diag d;
    diag_init(&d);
    display_draw();
    status st = term_save_display(argv[1], &d);
    if (st != ST_OK)
        display_diag(NULL, st, &d);
    return true;
}

static bool cmd_save_view(view *v, int argc, char **argv, const char *text)
{
    if (argc != 2)
        return false;
    save_view(v, argv[1]);
    return true;
}

static bool cmd_search(view *v, int argc, char **argv, const char *text)
{
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
    return true;
}

static bool cmd_table(view *v, int argc, char **argv, const char *text)
{
    if (argc != 2)
        return false;
    /* In a table view it replaces that view (one q back, however many
     * tables were opened); elsewhere it opens on top. */
    items_arg a = { argv[1], NULL, NULL, NULL };
    if (v->ops == &view_items_ops)
        display_replace(&view_items_ops, &a);
    else
        display_push(&view_items_ops, &a);
    return true;
}

/* In the patterns view, :patterns FILE is the view's own (it loads
 * FILE's patterns too). */
static bool cmd_patterns(view *v, int argc, char **argv, const char *text)
{
    if (argc > 2 || v->ops == &view_patterns_ops)
        return false;
    view_patterns_open(v, argc == 2 ? argv[1] : NULL);
    return true;
}

static bool cmd_watch(view *v, int argc, char **argv, const char *text)
{
    if (argc > 2)
        return false;
    watch(v, argc == 2 ? argv[1] : NULL);
    return true;
}

static bool cmd_live(view *v, int argc, char **argv, const char *text)
{
    if (argc > 2)
        return false;
    live_command(argc == 2 ? argv[1] : NULL);
    return true;
}

/* :budget [RCU|off]: the session's read budget on an endpoint (issue 42). */
static bool cmd_budget(view *v, int argc, char **argv, const char *text)
{
    if (argc > 2)
        return false;
    store_info info;
    store_get_info(display_store(), &info);
    if (!info.remote) {
        display_message("A local table's reads cost nothing: no read budget");
        return true;
    }
    if (argc == 2) {
        char *end = NULL;
        double x = strcmp(argv[1], "off") == 0 ? 0 : strtod(argv[1], &end);
        if (end && (*end || !(x > 0) || x > 1e12)) {
            display_error("usage: :budget [RCU|off] (a number of read capacity units)");
            return true;
        }
        display_set_read_budget(x);
    }
    double b = store_read_budget(display_store());
    if (b > 0)
        display_message("Read budget %.0f RCU; this session has read %.1f (reads past it ask first)", b, info.rcu);
    else
        display_message("No read budget; this session has read %.1f RCU (:budget RCU sets one)", info.rcu);
    return true;
}

static bool cmd_reload(view *v, int argc, char **argv, const char *text)
{
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
    return true;
}

/* The statement is the rest of the line as typed, not its words. */
static bool cmd_partiql(view *v, int argc, char **argv, const char *text)
{
    const char *rest = text + strspn(text, " ");
    rest += strcspn(rest, " ");
    view_partiql_open(v, rest + strspn(rest, " "));
    return true;
}

/* :cond, :load-cond and :conds open the builder; in the builder they
 * are its own. */
static bool cmd_builder(view *v, int argc, char **argv, const char *text)
{
    if (v->ops == &view_builder_ops)
        return false;
    view_builder_open(v, argc, argv);
    return true;
}

/* The commands the display runs itself, by name; NULL for the others
 * (the features' and the views'). */
static cmd_fn *const general[CMD_COUNT] = {
    [CMD_quit] = cmd_quit,
    [CMD_back] = cmd_back,
    [CMD_help] = cmd_help,
    [CMD_save_display] = cmd_save_display,
    [CMD_save_view] = cmd_save_view,
    [CMD_search] = cmd_search,
    [CMD_table] = cmd_table,
    [CMD_patterns] = cmd_patterns,
    [CMD_watch] = cmd_watch,
    [CMD_live] = cmd_live,
    [CMD_budget] = cmd_budget,
    [CMD_reload] = cmd_reload,
    [CMD_partiql] = cmd_partiql,
    [CMD_cond] = cmd_builder,
    [CMD_load_cond] = cmd_builder,
    [CMD_conds] = cmd_builder,
};

/* ---- the features' hooks --------------------------------------------- */

/* The view shown, asked in its place among the features. */
static bool view_command(view *v, int argc, char **argv)
{
    return v->ops->command && v->ops->command(v, argc, argv);
}

/* Each feature's hooks, one line a feature: request takes the keys it
 * knows, command the `:` commands, each returning whether it took it
 * (NULL: none of that kind). They are asked in this order, after the
 * general commands (requests: after commands_request's own), and the
 * first that takes one runs it. */
static const struct {
    bool (*request)(view *v, enum req r);
    bool (*command)(view *v, int argc, char **argv);
} features[] = {
    { NULL, backups_command },            /* :backup, :backups (ui/view_backups.c) */
    { NULL, diff_command },               /* :diff (ui/view_diff.c) */
    { NULL, workbench_command },          /* :entities, :doctor, :what-if and what-if's own
                                           * :create-index and :delete-index (ui/workbench.c) */
    { NULL, schema_command },             /* :create-index, :delete-index, :ttl
                                           * (ui/schema_cmds.c) */
    { NULL, view_command },               /* the view's own (its ops' command) */
    { staging_request, staging_command }, /* staging (ui/staging.c) */
    { marks_request, marks_command },     /* marks (ui/marks.c) */
    { copy_request, copy_command },       /* copying (ui/copy.c) */
    { NULL, undo_command },               /* :samples, :undo, :redo (ui/undo.c) */
};

#define N_FEATURES (sizeof features / sizeof *features)

/* ---- running them ---------------------------------------------------- */

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
    uint64_t work = store_work(display_store());

    const char *c = argv[0];
    int id = cmd_find(c);
    /* A command says how it went itself: the message an earlier key or
     * command left does not stay under it (the test hooks keep it, to
     * save the screen that command left). */
    if (id != CMD_save_display && id != CMD_save_view)
        buf_reset(&display_line.status);
    bool done = id >= 0 && general[id] && general[id](v, argc, argv, text);
    for (size_t i = 0; !done && i < N_FEATURES; i++)
        done = features[i].command && features[i].command(v, argc, argv);
    if (!done && id >= 0)
        display_error(":%s is not available here (or needs arguments)", c);
    else if (!done)
        display_error("Unknown command :%s (press ? for help)", c);
    undo_end();
    display_log_command(text, store_work(display_store()) - work);
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
    case REQ_SIMILAR: {
        cond_arg a = { 0 };
        if (v->ops->context)
            v->ops->context(v, &a);
        display_push(&view_similar_ops, &a);
        return true;
    }
    default: break;
    }
    for (size_t i = 0; i < N_FEATURES; i++)
        if (features[i].request && features[i].request(v, r))
            return true;
    return false;
}
