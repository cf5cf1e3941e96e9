#include "ui/display.h"
#include "ui/display_int.h"

#include <assert.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "model/mem.h"
#include "ui/keymap.h"
#include "ui/live.h"
#include "ui/marks.h"
#include "ui/paths.h"
#include "ui/search.h"
#include "ui/staging.h"
#include "ui/text.h"
#include "ui/undo.h"

static void display_remote_status(buf *out);

#define MAX_DEPTH 64
/* Lines kept loaded around the cursor, in screens, before trimming. */
#define WINDOW_SCREENS 8
#define WINDOW_MIN 400

static struct {
    store *st;
    const char *db_path;
    view *stack[MAX_DEPTH];
    /* The store as each view last saw it, taken when another view covers
     * it: if it changed meanwhile, the view reads again on coming back. */
    struct { int64_t dv, own; } seen[MAX_DEPTH];
    int depth;
    bool quit;
    char identity[640];  /* remote: who the requests are signed as */
    bool write_approved; /* display_exec_approved's request is running */
    double budget;       /* the session's read budget, RCU (0: none) */
    FILE *timing;
    struct timespec t0;
} D;

struct display_line display_line;

static double ms_since(const struct timespec *a)
{
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return (double)(b.tv_sec - a->tv_sec) * 1e3 + (double)(b.tv_nsec - a->tv_nsec) / 1e6;
}

store *display_store(void) { return D.st; }
const char *display_db_path(void) { return D.db_path; }

void display_line_draw(view *v, size_t i, int row, int width, display_line_fn line_of)
{
    buf b = BUF_INIT;
    role r = ROLE_NORMAL;
    line_of(v, i, &b, &r);
    term_put(row, 0, width, b.data, b.len, r, true);
    buf_done(&b);
}

void display_line_text(view *v, size_t i, buf *out, display_line_fn line_of)
{
    role r;
    line_of(v, i, out, &r);
}

void display_reload_lines(view *v, void (*load)(view *v))
{
    size_t c = v->vm.cursor;
    load(v);
    vm_select(&v->vm, c);
}

char *display_patterns_dir(void)
{
    store_info info;
    store_get_info(D.st, &info);
    char *local = info.remote ? paths_db(NULL, 0) : NULL;
    char *dir = paths_patterns_dir(local ? local : D.db_path);
    free(local);
    return dir;
}

view *display_top(void)
{
    return D.depth ? D.stack[D.depth - 1] : NULL;
}

view *display_below(view *v)
{
    for (int i = D.depth - 1; i > 0; i--)
        if (D.stack[i] == v)
            return D.stack[i - 1];
    return NULL;
}

static void vmsg(role r, const char *fmt, va_list ap)
{
    buf_reset(&display_line.status);
    buf_vprintf(&display_line.status, fmt, ap);
    display_line.status_role = r;
}

static void redraw(void);

void display_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(ROLE_STATUS, fmt, ap);
    va_end(ap);
}

/* A long run calls this after each page (a Scan of 10,000,000 items, a
 * hundred thousand times): the line is kept each time but the screen
 * redrawn at most every PROGRESS_MS, or the drawing would cost more than
 * the reading. */
#define PROGRESS_MS 50.0

void display_progress(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(ROLE_STATUS, fmt, ap);
    va_end(ap);
    static struct timespec last;
    if (last.tv_sec && ms_since(&last) < PROGRESS_MS)
        return;
    redraw();
    clock_gettime(CLOCK_MONOTONIC, &last);
}

bool display_interrupted(void)
{
    return term_interrupted();
}

/* Keys dropped during the waits of the key being handled. */
static int wait_dropped;

bool display_wait(const char *what, double seconds, int attempt, int max_attempts)
{
    int dropped = 0;
    if (term_wait_keys(&dropped))
        return false;
    wait_dropped += dropped;
    if (seconds < 0.1 && attempt < 2 && !wait_dropped)
        return true;
    buf b = BUF_INIT;
    buf_printf(&b, "%s … %.1f s", what, seconds);
    if (attempt > 1)
        buf_printf(&b, ", retry %d of %d", attempt - 1, max_attempts - 1);
    if (wait_dropped)
        buf_printf(&b, "; %d key%s typed meanwhile dropped", wait_dropped, wait_dropped == 1 ? "" : "s");
    buf_adds(&b, "  (Esc cancels)");
    /* The last row only: the view may be half-way through a reload. */
    int rows = term_rows(), cols = term_cols();
    if (rows > 0 && cols > 0) {
        term_fill(rows - 1, 0, cols, ROLE_STATUS);
        term_put(rows - 1, 0, cols, b.data, b.len, ROLE_STATUS, true);
        term_refresh();
    }
    buf_done(&b);
    return true;
}

void display_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmsg(ROLE_ERROR, fmt, ap);
    va_end(ap);
}

/* display_diag_text with the error's type named by the caller (NULL:
 * none shown). */
static void diag_text(buf *out, const char *what, const char *type, status st, const diag *d,
                      const char *full)
{
    size_t n = strlen(d->msg);
    const char *msg = d->msg[0] ? d->msg : status_name(st);
    /* Cut by diag's size: the whole message, if that is what it is. */
    if (n == sizeof d->msg - 1 && full && strlen(full) > n && strncmp(full, d->msg, n) == 0)
        msg = full;
    if (what && *what)
        buf_printf(out, "%s: ", what);
    if (d->file[0]) {
        buf_adds(out, d->file);
        if (d->line > 0)
            buf_printf(out, ":%d:%d", d->line, d->col);
        buf_adds(out, ": ");
    }
    if (type && d->msg[0])
        buf_printf(out, "%s: ", type);
    buf_adds(out, msg);
    if (d->path[0] && d->pos >= 0)
        buf_printf(out, " (attribute %s, at byte %ld)", d->path, d->pos);
    else if (d->path[0])
        buf_printf(out, " (attribute %s)", d->path);
    else if (d->pos >= 0)
        buf_printf(out, " (at byte %ld)", d->pos);
}

void display_diag_text(buf *out, const char *what, status st, const diag *d, const char *full)
{
    diag_text(out, what, st != ST_OK && st != ST_USAGE ? status_name(st) : NULL, st, d, full);
}

void display_ddb_err_text(buf *out, const char *what, const ddb_err *e)
{
    diag_text(out, what, ddb_err_type(e), e->d.code, &e->d, e->message);
}

void display_ddb_err(const char *what, const ddb_err *e)
{
    buf_reset(&display_line.status);
    display_ddb_err_text(&display_line.status, what, e);
    display_line.status_role = ROLE_ERROR;
}

void display_diag(const char *what, status st, const diag *d)
{
    buf_reset(&display_line.status);
    display_diag_text(&display_line.status, what, st, d,
                      D.st ? store_error_message(D.st, st, d) : NULL);
    display_line.status_role = ROLE_ERROR;
}

static void free_line_cb(void *ctx, line *l)
{
    view *v = ctx;
    if (v->ops->free_line)
        v->ops->free_line(v, l);
}

/* Body geometry of the top view. */
static int head_rows(view *v)
{
    return v->ops->head_rows ? v->ops->head_rows(v) : 0;
}

static int body_row(view *v)
{
    return 1 + head_rows(v);
}

size_t display_body_rows(view *v)
{
    int n = term_rows() - 2 - head_rows(v) - display_line.prompt_lift;
    return n > 0 ? (size_t)n : 1;
}

/* What the store is now, for D.seen. */
static void store_now(int64_t *dv, int64_t *own)
{
    diag d;
    diag_init(&d);
    if (store_data_version(D.st, dv, &d) != ST_OK)
        *dv = -1;
    *own = store_own_changes(D.st);
}

void display_reload(view *v)
{
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
    for (int i = 0; i + 1 < D.depth; i++)
        if (D.stack[i] == v)
            store_now(&D.seen[i].dv, &D.seen[i].own);
}

/* The view back on top: read again when the store changed while it was
 * covered (another process's write only while live mode follows them;
 * one PRAGMA and a counter tell). */
static void catch_up(void)
{
    view *v = display_top();
    if (!v || D.quit || !v->ops->follows)
        return;
    int64_t dv, own;
    store_now(&dv, &own);
    const int i = D.depth - 1;
    if (own != D.seen[i].own || (!live_paused() && dv != D.seen[i].dv))
        v->ops->request(v, REQ_RELOAD);
}

view *display_push(const view_ops *ops, const void *arg)
{
    if (D.depth == MAX_DEPTH) {
        display_error("too many views open; press q to go back");
        return NULL;
    }
    view *v = xcalloc(1, sizeof *v);
    v->ops = ops;
    v->priv = ops->priv_size ? xcalloc(1, ops->priv_size) : NULL;
    vm_init(&v->vm, free_line_cb, v);
    vm_set_rows(&v->vm, display_body_rows(v));
    if (D.depth)
        store_now(&D.seen[D.depth - 1].dv, &D.seen[D.depth - 1].own);
    D.stack[D.depth++] = v;
    if (!ops->open(v, arg)) {
        display_pop();
        return NULL;
    }
    display_fill(v);
    return v;
}

static void free_view(view *v)
{
    vm_done(&v->vm);
    if (v->ops->done)
        v->ops->done(v);
    free(v->priv);
    free(v);
}

void display_pop(void)
{
    assert(D.depth > 0);
    free_view(D.stack[--D.depth]);
    if (D.depth == 0)
        D.quit = true;
    catch_up();
}

view *display_replace(const view_ops *ops, const void *arg)
{
    view *old = display_top();
    view *v = display_push(ops, arg);
    /* Opened (the old view's context was read while it still was): the
     * old one goes from under it. */
    if (v && old && D.depth >= 2 && D.stack[D.depth - 2] == old) {
        D.stack[D.depth - 2] = v;
        D.depth--;
        free_view(old);
    }
    return v;
}

void display_fill(view *v)
{
    vm_set_rows(&v->vm, display_body_rows(v));
    if (!v->ops->more)
        return;
    while (v->vm.n < v->vm.top + v->vm.rows + 1)
        if (v->ops->more(v, 1) == 0)
            break;
    /* Nothing below to show: pull lines from above into the screen. */
    while (v->vm.n > 0 && v->vm.n - v->vm.top < v->vm.rows && v->vm.top == 0) {
        size_t added = v->ops->more(v, -1);
        if (added == 0)
            break;
        vm_fill_from_above(&v->vm);
    }
}

/* Keeps the loaded window bounded: lines far from the cursor go. */
static void trim_window(view *v)
{
    size_t keep = v->vm.rows * WINDOW_SCREENS;
    if (keep < WINDOW_MIN)
        keep = WINDOW_MIN;
    if (!v->ops->more || v->vm.n <= keep * 2)
        return;
    size_t from = v->vm.top > keep ? v->vm.top - keep : 0;
    size_t to = v->vm.top + v->vm.rows + keep;
    vm_trim(&v->vm, from, to);
}

/* The line the cursor lands on at target, moving by step, past the lines
 * the view says it skips (back the other way at an edge). */
static long past_skipped(view *v, long target, long step)
{
    vm *m = &v->vm;
    if (!v->ops->skip || !m->n)
        return target;
    long t = target;
    while (t >= 0 && t < (long)m->n && v->ops->skip(v, (size_t)t))
        t += step;
    if (t < 0 || t >= (long)m->n)
        for (t = target; t >= 0 && t < (long)m->n && v->ops->skip(v, (size_t)t); t -= step)
            ;
    return t;
}

/* Moves the cursor by delta lines, loading more at either edge. */
static void move_by(view *v, long delta)
{
    vm *m = &v->vm;
    long target = (long)m->cursor + delta;
    while (v->ops->more && target >= (long)m->n) {
        if (v->ops->more(v, 1) == 0)
            break;
    }
    while (v->ops->more && target < 0) {
        size_t added = v->ops->more(v, -1);
        if (added == 0)
            break;
        target += (long)added;
    }
    if (target < 0)
        target = 0;
    if (m->n && target >= (long)m->n)
        target = (long)m->n - 1;
    target = past_skipped(v, target, delta < 0 ? -1 : 1);
    vm_select(m, target > 0 ? (size_t)target : 0);
    trim_window(v);
    display_fill(v);
}

static void page_by(view *v, int dir)
{
    vm *m = &v->vm;
    long rows = (long)m->rows;
    /* Scroll a screen, keeping the cursor at the same screen row. */
    long off = (long)m->cursor - (long)m->top;
    move_by(v, dir * rows);
    if (m->cursor >= (size_t)off) {
        size_t want = m->cursor - (size_t)off;
        if (want + m->rows > m->n)
            want = m->n > m->rows ? m->n - m->rows : 0;
        if (want <= m->cursor)
            vm_set_top(m, want);
    }
    vm_select(m, m->cursor);
    display_fill(v);
}

/* Where each row of the status message starts when it wraps at cols: as
 * many whole words as fit (a word longer than the row is cut where the
 * row ends; a row does not start with the space it broke at), at most
 * max rows. Returns the rows. */
static int status_layout(int cols, int max, size_t *start)
{
    const char *s = display_line.status.data;
    size_t len = display_line.status.len;
    int k = 0;
    for (size_t i = 0; i < len && k < max; i += text_fit_row(s + i, len - i, cols, 1)) {
        if (k > 0)
            while (i < len && s[i] == ' ')
                i++;
        if (i >= len)
            break;
        start[k++] = i;
    }
    return k;
}

static bool status_wraps(int cols)
{
    return text_width(display_line.status.data, display_line.status.len) > cols && cols >= 2;
}

int display_status_rows(int rows, int cols)
{
    size_t start[64];
    int max = rows / 2 > 1 ? rows / 2 : 1;
    return status_wraps(cols) ? status_layout(cols, max < 64 ? max : 64, start) : 1;
}

/* The status line's message, on the last row (of `rows`); when wider than
 * the screen (an info message as much as an error), wrapped onto the rows
 * above it (at most half the screen, the last row marked `~` when even
 * that is not enough). */
static void draw_status(int rows, int cols)
{
    const char *s = display_line.status.data;
    size_t len = display_line.status.len;
    if (!status_wraps(cols)) {
        term_put(rows - 1, 0, cols, s, len, display_line.status_role, true);
        return;
    }
    int max = rows / 2 > 1 ? rows / 2 : 1;
    size_t start[64];
    int k = status_layout(cols, max < 64 ? max : 64, start);
    for (int r = 0; r < k; r++) {
        size_t end = r + 1 < k ? start[r + 1] : len;
        while (r + 1 < k && end > start[r] && s[end - 1] == ' ')
            end--;   /* the space the row broke at */
        int row = rows - k + r;
        term_fill(row, 0, cols, display_line.status_role);
        term_put(row, 0, cols, s + start[r], end - start[r], display_line.status_role, true);
    }
}

void display_draw(void)
{
    view *v = display_top();
    int cols = term_cols(), rows = term_rows();
    buf b = BUF_INIT;

    term_erase();
    term_cursor(-1, 0);
    if (!v)
        return;
    vm_set_rows(&v->vm, display_body_rows(v));
    if (v->ops->layout)
        v->ops->layout(v);

    term_fill(0, 0, cols, ROLE_TITLE);
    /* The marked and staged counts, at the title's right end (when any);
     * the title is cut before them, not under them. */
    marks_badge(&b);
    int badge = b.len && (int)b.len < cols ? (int)b.len : 0;
    if (badge)
        term_put(0, cols - badge, badge, b.data, b.len, ROLE_TITLE, false);
    buf_reset(&b);
    v->ops->title(v, &b);
    /* Parts that do not fit go whole, the least important first. */
    buf fit = BUF_INIT;
    text_title_fit(&fit, b.data ? b.data : "", b.len, cols - badge);
    term_put(0, 0, cols - badge, fit.data ? fit.data : "", fit.len, ROLE_TITLE, true);
    buf_done(&fit);
    buf_reset(&b);

    int hr = head_rows(v);
    for (int i = 0; i < hr; i++)
        v->ops->draw_head(v, 1 + i, cols);

    int br = body_row(v);
    for (size_t i = 0; i < v->vm.rows; i++) {
        size_t li = v->vm.top + i;
        if (li >= v->vm.n)
            break;
        int row = br + (int)i;
        if (row >= rows - 1)
            break;
        if (li == v->vm.cursor) {
            term_highlight_row(row);
            term_fill(row, 0, cols, ROLE_SELECTED);
        }
        v->ops->draw(v, li, row, cols);
        term_highlight_row(-1);
    }

    if (live_paused())
        term_puts(rows - 1, cols > 30 ? cols - 30 : 0, 30, "       live paused (L resumes)", ROLE_DIM);
    if (display_line.status.len) {
        /* A prompt keeps the last row: the message goes above it. */
        draw_status(rows - display_line.prompt_lift, cols);
    } else {
        /* On a remote endpoint the resting status line says where, whether
         * writes are possible, and what the session has consumed. */
        store_info info;
        store_get_info(D.st, &info);
        if (info.remote) {
            buf_reset(&b);
            display_remote_status(&b);
            term_put(rows - 1, 0, cols, b.data, b.len, ROLE_DIM, true);
        }
    }
    buf_done(&b);
}

/* On a remote store: "ENDPOINT  remote, read-only  consumed R RCU, W WCU
 * in N requests" (appended to out); nothing for a local store. The
 * status line shows it when there is no message. */
static void display_remote_status(buf *out)
{
    store_info info;
    store_get_info(D.st, &info);
    if (!info.remote)
        return;
    buf_printf(out, "%s  remote, %s  consumed %.1f RCU, %.1f WCU in %llu request%s", info.where,
               info.writable ? "writes ask first" : "read-only", info.rcu, info.wcu,
               (unsigned long long)info.requests, info.requests == 1 ? "" : "s");
    if (D.identity[0])
        buf_printf(out, "  as %s", D.identity);
}

void display_set_identity(const char *who)
{
    snprintf(D.identity, sizeof D.identity, "%s", who ? who : "");
}

/* The remote store asks here before each write it sends (--write),
 * unless the caller's own question covered it (display_exec_approved). */
static bool write_gate(void *ctx, const char *what)
{
    (void)ctx;
    if (D.write_approved)
        return true;
    return display_confirm("Send %s?", what);
}

/* The session's read budget (issue 42): asked once before a read that
 * may pass it; yes lets that read through and raises the budget to
 * raised (the store's number, said here). */
static bool budget_ask(void *ctx, double used, double budget, double raised)
{
    (void)ctx;
    return display_confirm("This session has read %.1f RCU; its read budget is %.0f RCU (--budget, :budget)."
                           " Read on, the budget raised to %.0f?", used, budget, raised);
}

void display_set_read_budget(double rcu)
{
    D.budget = rcu > 0 ? rcu : 0;
    if (D.st)
        store_set_read_budget(D.st, D.budget, budget_ask, NULL);
}

status display_exec_approved(const ddb_req *req, ddb_res *res, ddb_err *err)
{
    D.write_approved = true;
    status st = store_exec(D.st, req, res, err);
    D.write_approved = false;
    return st;
}

void display_approve_writes(bool on)
{
    D.write_approved = on;
}

static void redraw(void)
{
    display_draw();
    term_refresh();
}

void display_refresh(void)
{
    redraw();
}

/* ---- quitting -------------------------------------------------------- */

/* Quits, after asking when the session holds what quitting loses: the
 * marks and the pending transaction live only in this session (staged
 * changes are kept in the database). */
void display_quit(void)
{
    size_t marks = marks_count(), acts = view_txn_pending();
    if (marks || acts) {
        buf what = BUF_INIT;
        if (marks)
            buf_printf(&what, "%zu marked item%s", marks, marks == 1 ? "" : "s");
        if (acts)
            buf_printf(&what, "%sthe pending transaction (%zu action%s)", marks ? " and " : "", acts,
                       acts == 1 ? "" : "s");
        bool yes = display_confirm("Quit ddbx? %s would be lost.", what.data);
        if (!yes)
            display_message("Not quit: %s kept", what.data);
        buf_done(&what);
        if (!yes)
            return;
    }
    D.quit = true;
}

/* Closes the top view; the last one quits (asking, as display_quit does). */
void display_back(void)
{
    if (D.depth == 1)
        display_quit();
    else
        display_pop();
}

/* ---- the loop -------------------------------------------------------- */

/* An idle moment: follow what other processes committed (ui/live.h).
 * Only views that read again cheaply are reloaded. */
static void live(void)
{
    view *v = display_top();
    cond_arg a = { 0 };
    if (v && v->ops->context)
        v->ops->context(v, &a);
    int what = live_tick(a.table);
    if (what == LIVE_RELOAD && v && v->ops->request && v->ops->follows) {
        v->ops->request(v, REQ_RELOAD);
        if (D.timing) {
            struct timespec t;
            clock_gettime(CLOCK_REALTIME, &t);
            fprintf(D.timing, "live-reload %s epoch %.3f\n", v->ops->name,
                    (double)t.tv_sec + (double)t.tv_nsec / 1e9);
            fflush(D.timing);
        }
    }
    if (what != LIVE_NOTHING)
        redraw();
}

static void default_request(view *v, enum req r, int mrow)
{
    switch (r) {
    case REQ_MOVE_UP: move_by(v, -1); break;
    case REQ_MOVE_DOWN: move_by(v, 1); break;
    case REQ_PAGE_UP: page_by(v, -1); break;
    case REQ_PAGE_DOWN: page_by(v, 1); break;
    case REQ_MOVE_FIRST: move_by(v, -(long)v->vm.cursor); break;
    case REQ_MOVE_LAST: move_by(v, (long)(v->vm.n - v->vm.cursor)); break;
    case REQ_SCROLL_LEFT: vm_hscroll(&v->vm, -1); break;
    case REQ_SCROLL_RIGHT: vm_hscroll(&v->vm, 1); break;
    case REQ_BACK: display_back(); break;
    case REQ_QUIT: display_quit(); break;
    case REQ_PROMPT: prompt_command(); break;
    case REQ_SEARCH: prompt_search(v); break;
    case REQ_SEARCH_NEXT: search_run(v, 1); break;
    case REQ_SEARCH_PREV: search_run(v, -1); break;
    case REQ_ENTER:
        break;
    default: {
        if (!commands_request(v, r))
            display_error("%s is not available in this view", keymap_req_name(r));
        break;
    }
    }
    (void)mrow;
}

static void handle_key(int key, int mrow)
{
    view *v = display_top();
    if (!v)
        return;
    if (key == K_CLICK || key == K_DOUBLE) {
        int br = body_row(v);
        if (mrow >= br && mrow < br + (int)v->vm.rows) {
            size_t li = v->vm.top + (size_t)(mrow - br);
            if (li < v->vm.n)
                li = (size_t)past_skipped(v, (long)li, 1);
            if (li < v->vm.n) {
                vm_select(&v->vm, li);
                if (v->ops->select)
                    v->ops->select(v);
            }
        }
        if (key == K_CLICK)
            return;
    }
    enum req r = keymap_lookup_in(v->ops->name, key);
    if (key == K_RESIZE) {
        display_fill(v);
        return;
    }
    if (key == K_INTERRUPT) {
        D.quit = true;
        return;
    }
    if (r == REQ_NONE) {
        buf b = BUF_INIT;
        keymap_key_name(key, &b);
        display_error("Unknown key %s (press ? for help)", b.data);
        buf_done(&b);
        return;
    }
    size_t before = v->vm.cursor;
    if (r == REQ_REDRAW) {
        term_force_redraw();
        display_fill(v);
        return;
    }
    if (v->ops->request)
        r = v->ops->request(v, r);
    if (r != REQ_NONE)
        default_request(v, r, mrow);
    v = display_top();
    if (v && v->vm.cursor != before && v->ops->select)
        v->ops->select(v);
}

static const char *key_label(int key, buf *b)
{
    buf_reset(b);
    keymap_key_name(key, b);
    return b->data;
}

void display_log_command(const char *text, uint64_t work)
{
    if (!D.timing)
        return;
    fprintf(D.timing, "command %s work %llu\n", text, (unsigned long long)work);
    fflush(D.timing);
}

void display_mark_start(void)
{
    clock_gettime(CLOCK_MONOTONIC, &D.t0);
}

int display_run(store *st, const char *db_path, const char *table)
{
    diag d;
    diag_init(&d);
    if (D.t0.tv_sec == 0 && D.t0.tv_nsec == 0)
        display_mark_start();
    D.st = st;
    D.db_path = db_path;
    store_set_write_gate(st, write_gate, NULL);
    store_set_read_budget(st, D.budget, budget_ask, NULL);
    buf_init(&display_line.status);

    const char *tp = getenv("DDBX_TIMING");
    if (tp && *tp)
        D.timing = fopen(tp, "w");

    if (keymap_init(&d) != ST_OK) {
        fprintf(stderr, "ddbx: %s:%d:%d: %s\n", d.file, d.line, d.col, d.msg);
        return 1;
    }
    /* The user's bindings, when there are any, after the defaults. */
    {
        const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
        char path[4096];
        if (xdg && *xdg)
            snprintf(path, sizeof path, "%s/ddbx/keys.conf", xdg);
        else
            snprintf(path, sizeof path, "%s/.config/ddbx/keys.conf", home ? home : ".");
        FILE *f = fopen(path, "r");
        if (f) {
            buf b = BUF_INIT;
            char chunk[4096];
            size_t n;
            while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
                buf_add(&b, chunk, n);
            fclose(f);
            if (keymap_load(b.data ? b.data : "", b.len, path, &d) != ST_OK) {
                fprintf(stderr, "ddbx: %s:%d:%d: %s\n", path, d.line, d.col, d.msg);
                buf_done(&b);
                return 1;
            }
            buf_done(&b);
        }
    }

    const char *script = getenv("DDBX_SCRIPT");
    if (term_init(script && *script ? script : NULL, &d) != ST_OK) {
        fprintf(stderr, "ddbx: %s\n", d.msg);
        return 1;
    }

    live_init(st);
    display_push(&view_tables_ops, NULL);
    if (table && *table) {
        items_arg a = { table, NULL, NULL, NULL };
        display_push(&view_items_ops, &a);
    }
    staging_start();
    undo_start();

    buf kb = BUF_INIT;
    redraw();
    if (D.timing)
        fprintf(D.timing, "first-screen %.3f ms\n", ms_since(&D.t0));
    while (!D.quit && D.depth > 0) {
        int mrow;
        int key = term_getkey_timeout(&mrow, 250);
        if (key == K_EOF)
            break;
        if (key == K_TICK) {
            live();
            continue;
        }
        struct timespec t, c0, c1;
        wait_dropped = 0;
        clock_gettime(CLOCK_MONOTONIC, &t);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
        uint64_t w0 = store_work(st);
        /* A message stays until the next key, but not through a `:`
         * prompt, so a script can save the screen a command left. */
        if (keymap_lookup(key) != REQ_PROMPT)
            buf_reset(&display_line.status);
        undo_begin(key_label(key, &kb), false);
        handle_key(key, mrow);
        undo_end();
        if (D.quit || D.depth == 0)
            break;
        redraw();
        if (D.timing) {
            /* Wall time is what the user waits; CPU time tells the work
             * apart from waiting for a busy machine. */
            double wall = ms_since(&t);
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
            /* And the database's work (store_work): what tests count;
             * the process's peak RSS so far (a key that raised it peaked
             * there: the bench's figure for a bulk action). */
            struct rusage ru;
            getrusage(RUSAGE_SELF, &ru);
            fprintf(D.timing, "key %s %.3f ms cpu %.3f ms work %llu rss %ld kB\n", key_label(key, &kb), wall,
                    (double)(c1.tv_sec - c0.tv_sec) * 1e3 + (double)(c1.tv_nsec - c0.tv_nsec) / 1e6,
                    (unsigned long long)(store_work(st) - w0), ru.ru_maxrss);
        }
    }
    buf_done(&kb);
    D.quit = true;   /* no view reads again on the way out */
    while (D.depth > 0)
        display_pop();
    term_done();
    live_done();
    staging_done();
    undo_done();
    marks_done();
    keymap_done();
    search_done();
    buf_done(&display_line.status);
    if (D.timing)
        fclose(D.timing);
    return 0;
}
