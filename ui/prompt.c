/*
 * prompt — the display's questions on the last row (see
 * ui/display_int.h): a line read with ui/lineedit (display_prompt), with
 * a list to pick from (display_prompt_pick, display_prompt_choose), a
 * menu, a one-key choice or a yes/no, a longer text edited in $EDITOR,
 * and the two prompts a key opens: `:` (the commands as a pick list,
 * the line run by display_command) and `/` (a search). Each draws the
 * frame (display_draw) and puts itself over it; the answer is the
 * caller's.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/mem.h"
#include "ui/command.h"
#include "ui/display.h"
#include "ui/display_int.h"
#include "ui/keymap.h"
#include "ui/lineedit.h"
#include "ui/search.h"
#include "ui/text.h"

/* A choice's text is what goes into the prompt; after a tab it may
 * carry a description, shown in the list only. */
static size_t choice_len(const char *c)
{
    return strcspn(c, "\t");
}

/* The choices matching typed: those that begin with it, else those that
 * contain it. Fills m (indexes), returns how many. */
static size_t pick_matches(char *const *choices, size_t n, const char *typed, size_t *m)
{
    size_t k = 0, tl = strlen(typed);
    for (size_t i = 0; i < n; i++)
        if (tl <= choice_len(choices[i]) && strncmp(choices[i], typed, tl) == 0)
            m[k++] = i;
    if (k || !tl)
        return k;
    for (size_t i = 0; i < n; i++) {
        const char *f = strstr(choices[i], typed);
        if (f && (size_t)(f - choices[i]) + tl <= choice_len(choices[i]))
            m[k++] = i;
    }
    return k;
}

/* The choice whose text is exactly s[0..n), or -1. */
static long choice_is(char *const *choices, size_t n_choices, const char *s, size_t n)
{
    for (size_t i = 0; i < n_choices; i++)
        if (choice_len(choices[i]) == n && strncmp(choices[i], s, n) == 0)
            return (long)i;
    return -1;
}

/* The matching choices in the rows from `bottom` up (at most half the
 * screen), a window kept around the current one (cur, or none); a
 * choice's description is aligned after the widest choice shown. */
static void draw_picks(char *const *choices, const size_t *m, size_t nm, long cur, int bottom)
{
    int rows = term_rows(), cols = term_cols();
    size_t room = rows > 6 ? (size_t)(rows / 2) : 1;
    size_t shown = nm < room ? nm : room;
    size_t first = 0;
    if (cur >= 0 && (size_t)cur >= shown)
        first = (size_t)cur - shown + 1;
    int top = bottom + 1 - (int)shown;
    int wide = 0;
    for (size_t i = 0; i < shown; i++) {
        const char *c = choices[m[first + i]];
        int w = text_width(c, choice_len(c));
        if (w > wide)
            wide = w;
    }
    for (size_t i = 0; i < shown; i++) {
        size_t j = first + i;
        const char *c = choices[m[j]];
        size_t cl = choice_len(c);
        role r = cur >= 0 && j == (size_t)cur ? ROLE_SELECTED : ROLE_STATUS;
        term_fill(top + (int)i, 0, cols, r);
        buf row = BUF_INIT;
        buf_addc(&row, ' ');
        buf_add(&row, c, cl);
        if (c[cl]) {
            for (int pad = text_width(c, cl); pad < wide + 2; pad++)
                buf_addc(&row, ' ');
            buf_adds(&row, c + cl + 1);
        }
        if (i == 0 && first > 0)
            buf_printf(&row, "   (%zu more above)", first);
        if (i + 1 == shown && first + shown < nm)
            buf_printf(&row, "   (%zu more: Tab)", nm - first - shown);
        term_puts(top + (int)i, 0, cols, row.data, r);
        buf_done(&row);
    }
}

bool display_prompt(const char *label, const char *init, buf *out)
{
    return display_prompt_pick(label, init, NULL, 0, out);
}

static bool prompt(const char *label, const char *init, char *const *choices, size_t n_choices,
                   bool replace_init, buf *out);

bool display_prompt_pick(const char *label, const char *init, char *const *choices,
                         size_t n_choices, buf *out)
{
    return prompt(label, init, choices, n_choices, false, out);
}

bool display_prompt_choose(const char *label, const char *init, char *const *choices,
                           size_t n_choices, buf *out)
{
    return prompt(label, init, choices, n_choices, true, out);
}

/* A prompt left says so; why its last answer was refused, shown above
 * it, stays after that. */
static void cancelled(void)
{
    if (!display_line.status.len) {
        display_message("Cancelled.");
        return;
    }
    buf b = BUF_INIT;
    buf_adds(&b, "Cancelled. ");
    buf_add(&b, display_line.status.data, display_line.status.len);
    buf_done(&display_line.status);
    display_line.status = b;
}

/* The columns a prompt's label may take: at least half the line, more
 * when it needs them and the pre-filled text (and a few columns to type)
 * still fits; fixed for the whole prompt, so the label does not move
 * while typing. The text always shows. */
static int label_room(const char *label, const char *init, int cols)
{
    int room = cols / 2 > 8 ? cols / 2 : cols;
    int want = text_width(label, strlen(label));
    int keep = (init ? text_width(init, strlen(init)) : 0) + 2;
    if (keep < 10)
        keep = 10;
    if (want > room && cols - keep > room)
        room = want < cols - keep ? want : cols - keep;
    return room;
}

/* The line editor of every prompt (ui/lineedit: O(1) a key, and the line
 * measured only as wide as it is). With replace_init, the first key
 * typed replaces the pre-filled text (shown selected) instead of adding
 * to it, as a pick list's default is replaced in a form. A message set
 * before the prompt (why the last answer was refused) stays above it.
 * While keys are waiting (a paste) the screen is not drawn between
 * them: a 100 KB paste is drawn once. */
static bool prompt(const char *label, const char *init, char *const *choices, size_t n_choices,
                   bool replace_init, buf *out)
{
    lineedit e;
    lineedit_init(&e, init ? init : "", init ? strlen(init) : 0);
    bool ok = false;
    /* What was typed (the list narrows to it: nm of the choices, m;
     * nothing is typed yet, whatever is pre-filled), and the choice in
     * the text (cur). A text longer than every choice matches none, and
     * is not copied for it. */
    buf typed = BUF_INIT, shown = BUF_INIT;
    bool narrowed = true;
    size_t longest = 0;
    long cur = -1;
    size_t *m = n_choices ? xcalloc(n_choices, sizeof *m) : NULL;
    size_t nm = n_choices ? pick_matches(choices, n_choices, "", m) : 0;
    for (size_t i = 0; i < n_choices; i++)
        if (choice_len(choices[i]) > longest)
            longest = choice_len(choices[i]);
    bool fresh = replace_init && lineedit_len(&e) > 0;   /* the pre-filled text is untouched */
    /* Pre-filled text that is not a choice (a refused answer asked
     * again) narrows the list as if typed; a choice (the default) shows
     * them all. */
    if (n_choices && init && *init && strlen(init) <= longest &&
        choice_is(choices, n_choices, init, strlen(init)) < 0 &&
        pick_matches(choices, n_choices, init, m))
        narrowed = false;
    /* The view scrolls to keep its selection above the message row while
     * the prompt is open, and back after. */
    view *under = display_top();
    size_t top = under ? under->vm.top : 0;

    for (;;) {
        if (n_choices && !narrowed) {
            nm = 0;
            if (lineedit_len(&e) <= longest) {
                lineedit_text(&e, &typed);
                nm = pick_matches(choices, n_choices, typed.data ? typed.data : "", m);
            }
            narrowed = true;
        }
        if (!term_key_pending()) {
            int rows = term_rows(), cols = term_cols();
            /* The prompt line is the last row and the row above it is its
             * message row (why the last answer was refused, or blank): the
             * view gives that row up, so none of its text reads as a message. */
            display_line.prompt_lift = 1;
            display_draw();
            display_line.prompt_lift = 0;
            int msg_rows = display_line.status.len ? display_status_rows(rows - 1, cols) : 0;
            if (nm)
                draw_picks(choices, m, nm, cur, rows - 2 - msg_rows);
            term_fill(rows - 1, 0, cols, ROLE_STATUS);
            int lw = term_put(rows - 1, 0, label_room(label, init, cols), label, strlen(label),
                              ROLE_PROMPT, true);
            int avail = cols - lw - 1, col = 0;
            /* Keep the cursor in view: show the tail of the text when long. */
            lineedit_line(&e, avail, &shown, &col);
            term_put(rows - 1, lw, avail + 1, shown.data ? shown.data : "", shown.len,
                     fresh ? ROLE_SELECTED : ROLE_STATUS, false);
            term_cursor(rows - 1, lw + (avail >= 0 ? col : 0));
            term_refresh();
        }

        int k = term_getkey(NULL);
        if (fresh && k >= 32 && k < K_BASE)
            lineedit_set(&e, "", 0);
        fresh = false;
        if (k == K_ENTER) {
            ok = true;
            break;
        }
        if (k == K_ESC || k == K_EOF || k == K_INTERRUPT || k == 7 /* ^G */) {
            cancelled();
            break;
        }
        if ((k == K_BACKSPACE || k == 8) && e.gap == 0) {
            if (lineedit_len(&e) == 0) {
                cancelled();
                break;   /* backspace on an empty prompt leaves it */
            }
            continue;
        }
        if (n_choices && (k == K_TAB || k == K_DOWN || k == K_BTAB || k == K_UP)) {
            if (!nm)
                continue;
            bool fwd = k == K_TAB || k == K_DOWN;
            cur = cur < 0 ? (fwd ? 0 : (long)nm - 1) : (cur + (fwd ? 1 : (long)nm - 1)) % (long)nm;
            lineedit_set(&e, choices[m[cur]], choice_len(choices[m[cur]]));
            continue;   /* the list stays as it was typed */
        }
        if (!lineedit_key(&e, k) && k >= 32 && k < K_BASE)
            lineedit_insert(&e, (uint32_t)k);
        /* An edit (or any other key): the list narrows to the text as it
         * is now. */
        narrowed = false;
        cur = -1;
    }
    term_cursor(-1, 0);
    if (under && under == display_top()) {
        vm_set_rows(&under->vm, display_body_rows(under));
        vm_set_top(&under->vm, top);
    }
    buf_reset(out);
    if (ok)
        lineedit_text(&e, out);
    lineedit_done(&e);
    buf_done(&typed);
    buf_done(&shown);
    free(m);
    return ok;
}

int display_menu(const char *label, char *const *choices, size_t n)
{
    size_t *m = xcalloc(n ? n : 1, sizeof *m);
    for (size_t i = 0; i < n; i++)
        m[i] = i;
    long cur = 0, pick = -1;
    for (;;) {
        int rows = term_rows(), cols = term_cols();
        display_draw();
        draw_picks(choices, m, n, cur, rows - 2);
        term_fill(rows - 1, 0, cols, ROLE_STATUS);
        term_puts(rows - 1, 0, cols, label, ROLE_PROMPT);
        term_refresh();
        int k = term_getkey(NULL);
        if (k == K_ESC || k == K_EOF || k == K_INTERRUPT || k == 7 /* ^G */ || k == 'q') {
            display_message("Cancelled.");
            break;
        }
        if (k == K_ENTER) {
            pick = cur;
            break;
        }
        if (k == K_DOWN || k == K_TAB || k == 'j') {
            cur = (cur + 1) % (long)n;
            continue;
        }
        if (k == K_UP || k == K_BTAB || k == 'k') {
            cur = (cur + (long)n - 1) % (long)n;
            continue;
        }
        if (k == K_RESIZE)
            continue;
        for (size_t i = 0; k > 32 && k < 127 && i < n; i++)
            if (choices[i][0] == k)
                pick = (long)i;
        if (pick >= 0)
            break;
        /* A key the menu does not offer leaves it: what is typed next is
         * not read as a pick. */
        buf name = BUF_INIT;
        keymap_key_name(k, &name);
        display_error("%s is not in the menu: nothing picked", name.data ? name.data : "?");
        buf_done(&name);
        break;
    }
    free(m);
    return (int)pick;
}

/* Shows question on the status line over the current frame; the key. */
/* A question answered by one key: the whole question, wrapped above the
 * last row when it is wider than the screen, so what is asked and its
 * answers both show. */
static int ask(const char *question)
{
    buf_reset(&display_line.status);
    buf_adds(&display_line.status, question);
    display_line.status_role = ROLE_PROMPT;
    display_draw();
    buf_reset(&display_line.status);
    term_refresh();
    return term_getkey(NULL);
}

int display_choose(const char *question, const char *keys)
{
    char full[1100];
    snprintf(full, sizeof full, "%s ", question);
    int k = ask(full);
    return k > 0 && k < 128 && strchr(keys, k) ? k : 0;
}

bool display_confirm(const char *fmt, ...)
{
    char q[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(q, sizeof q, fmt, ap);
    va_end(ap);

    char full[1100];
    snprintf(full, sizeof full, "%s (y/N) ", q);
    int k = ask(full);
    bool yes = k == 'y' || k == 'Y';
    if (!yes)
        display_message("Cancelled.");
    return yes;
}

bool display_edit(buf *text, const char *suffix)
{
    const char *tmpdir = getenv("TMPDIR");
    char path[4096];
    bool ok = false;
    int fd;

    snprintf(path, sizeof path, "%s/ddbx-XXXXXX%s", tmpdir && *tmpdir ? tmpdir : "/tmp", suffix);
    fd = mkstemps(path, (int)strlen(suffix));
    if (fd < 0) {
        display_error("cannot create a temporary file: %s", strerror(errno));
        return false;
    }
    if (write(fd, text->data ? text->data : "", text->len) != (ssize_t)text->len) {
        close(fd);
        display_error("cannot write %s", path);
        goto out;
    }
    close(fd);

    const char *ed = getenv("VISUAL");
    if (!ed || !*ed)
        ed = getenv("EDITOR");
    if (!ed || !*ed)
        ed = "vi";
    /* The path is ours (no shell characters); the editor setting may carry
     * arguments, as it does for git. */
    buf cmd = BUF_INIT;
    buf_printf(&cmd, "%s '%s'", ed, path);
    term_suspend();
    int rc = system(cmd.data);
    term_resume();
    buf_done(&cmd);
    if (rc == -1 || !WIFEXITED(rc) || WEXITSTATUS(rc) != 0) {
        display_error("editor '%s' failed; nothing changed", ed);
        goto out;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        display_error("cannot read %s back", path);
        goto out;
    }
    buf_reset(text);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(text, chunk, n);
    fclose(f);
    ok = true;
out:
    unlink(path);
    return ok;
}

/* ---- the `:` and `/` prompts ------------------------------------------ */

/* The `:` prompt, the commands offered as a pick list (name, then its
 * arguments and what it does) while what is typed is a name's start. */
static bool read_command(buf *out)
{
    static char *choices[64];
    static size_t n;
    if (!n) {
#define CMD_CHOICE(name, args, help) \
        if (n < 64) { \
            buf c = BUF_INIT; \
            for (const char *q = #name; *q; q++) \
                buf_addc(&c, *q == '_' ? '-' : *q); \
            buf_printf(&c, "\t%s%s%s", args, *args ? "  " : "", help); \
            choices[n++] = buf_steal(&c); \
        }
        CMD_LIST(CMD_CHOICE)
#undef CMD_CHOICE
    }
    return display_prompt_pick(":", "", choices, n, out);
}

void prompt_command(void)
{
    buf b = BUF_INIT;
    /* The message the last key left is not the prompt's: it does not
     * show above it, but it is back for the command typed (a script's
     * :save-display saves the screen that key left). */
    buf held = display_line.status;
    buf_init(&display_line.status);
    bool ok = read_command(&b);
    if (ok) {
        buf_done(&display_line.status);
        display_line.status = held;
        display_command(b.data ? b.data : "");
    } else {
        buf_done(&held);
    }
    buf_done(&b);
}

void prompt_search(view *v)
{
    buf b = BUF_INIT;
    if (display_prompt("/", "", &b) && b.len) {
        search_set(b.data, b.len);
        search_run(v, 1);
    }
    buf_done(&b);
}
