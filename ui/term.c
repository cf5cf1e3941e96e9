#include "ui/term.h"

#include <assert.h>
#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/dynlib.h"
#include "model/base64.h"
#include "model/buf.h"
#include "model/mem.h"
#include "ui/keymap.h"
#include "ui/text.h"

/* ncurses, loaded by term_init (data/dynlib.h): the commands that draw no
 * screen (`ddbx serve`, `ddbx api`, `ddbx --version`) never load it. The
 * names below go through the table, the curses macros too (attrset is
 * wattrset(stdscr, ...)); the variables are pointers to ncurses's own. */
#ifdef __APPLE__
#define NCURSES_SONAME "libncurses.dylib"
#else
#define NCURSES_SONAME "libncursesw.so.6"
#endif
#define NC_SYMS(X)                                                                          \
    X(beep) X(cbreak) X(clearok) X(curs_set) X(def_prog_mode) X(delscreen) X(endwin)        \
    X(getmouse) X(has_colors) X(init_pair) X(intrflush) X(keypad) X(mousemask) X(newterm)   \
    X(noecho) X(nonl) X(reset_prog_mode) X(resizeterm) X(set_escdelay) X(start_color)        \
    X(unget_wch) X(ungetch) X(use_default_colors) X(waddnstr) X(wattrset) X(werase)          \
    X(wget_wch) X(whline) X(winnwstr) X(wmove) X(wrefresh) X(wtimeout)                      \
    X(COLS) X(LINES) X(curscr) X(stdscr)
static struct {
    NC_SYMS(DYNLIB_FIELD)
} nc;
static const char *const nc_names[] = { NC_SYMS(DYNLIB_NAME) };
static bool nc_loaded;
#define beep (*nc.beep)
#define cbreak (*nc.cbreak)
#define clearok (*nc.clearok)
#define curs_set (*nc.curs_set)
#define def_prog_mode (*nc.def_prog_mode)
#define delscreen (*nc.delscreen)
#define endwin (*nc.endwin)
#define getmouse (*nc.getmouse)
#define has_colors (*nc.has_colors)
#define init_pair (*nc.init_pair)
#define intrflush (*nc.intrflush)
#define keypad (*nc.keypad)
#define mousemask (*nc.mousemask)
#define newterm (*nc.newterm)
#define noecho (*nc.noecho)
#define nonl (*nc.nonl)
#define reset_prog_mode (*nc.reset_prog_mode)
#define resizeterm (*nc.resizeterm)
#define set_escdelay (*nc.set_escdelay)
#define start_color (*nc.start_color)
#define unget_wch (*nc.unget_wch)
#define ungetch (*nc.ungetch)
#define use_default_colors (*nc.use_default_colors)
#define waddnstr (*nc.waddnstr)
#define wattrset (*nc.wattrset)
#define werase (*nc.werase)
#define wget_wch (*nc.wget_wch)
#define whline (*nc.whline)
#define winnwstr (*nc.winnwstr)
#define wmove (*nc.wmove)
#define wrefresh (*nc.wrefresh)
#define wtimeout (*nc.wtimeout)
#define COLS (*nc.COLS)
#define LINES (*nc.LINES)
#define curscr (*nc.curscr)
#define stdscr (*nc.stdscr)

#define COL_DEFAULT (-1)
#define COL_BLACK   COLOR_BLACK
#define COL_RED     COLOR_RED
#define COL_GREEN   COLOR_GREEN
#define COL_YELLOW  COLOR_YELLOW
#define COL_BLUE    COLOR_BLUE
#define COL_MAGENTA COLOR_MAGENTA
#define COL_CYAN    COLOR_CYAN
#define COL_WHITE   COLOR_WHITE
#define AT_BOLD      A_BOLD
#define AT_UNDERLINE A_UNDERLINE
#define AT_REVERSE   A_REVERSE
#define AT_DIM       A_DIM
#define ATTRS(x) (0 | x)
#define BOLD AT_BOLD
#define UNDERLINE AT_UNDERLINE
#define REVERSE AT_REVERSE
#define DIM AT_DIM

static const struct {
    short fg, bg;
    attr_t attr, mono;
} roles[ROLE__COUNT] = {
#define ROLE_ROW(name, fg, bg, attr, mono) \
    [ROLE_##name] = { COL_##fg, COL_##bg, (attr_t)ATTRS(attr), (attr_t)ATTRS(mono) },
    ROLE_LIST(ROLE_ROW)
#undef ROLE_ROW
};

static struct {
    SCREEN *scr;
    FILE *out, *in;
    bool active, mono, scripted;
    attr_t attr[ROLE__COUNT];
    int highlight;
    int cur_row, cur_col;
    int script_fd;        /* the script, read a line at a time (-1: none) */
    buf script_in;        /* read from it, not yet played */
    bool script_eof;
    int wait_ms;          /* term_getkey_timeout's, while it waits */
    int *script;          /* the keys of the line being played */
    size_t n_script, at_script, cap_script;
    char **snaps;         /* <Snap:NAME>'s file names, by index */
    size_t n_snaps;
    int mouse_row;
} T = { .highlight = -1, .cur_row = -1, .script_fd = -1, .wait_ms = -1 };

static void term_emergency(void)
{
    term_done();
}

/* A long action polls term_interrupted between its steps (busy until
 * the next key is read): the first ^C (SIGINT, as the terminal sends it)
 * meanwhile stops the action as Esc does, instead of ending the
 * explorer with the action half done; a second one ends it. */
static volatile sig_atomic_t busy, sigint_seen;

static void on_signal(int sig)
{
    if (sig == SIGINT && busy && !sigint_seen) {
        sigint_seen = 1;
        signal(SIGINT, on_signal);
        return;
    }
    /* Put the terminal back, then die of the same signal so the parent
     * sees the real cause. endwin is what every curses program does here. */
    term_done();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* In a script's keys: SCRIPT_SNAP then an index into T.snaps saves the
 * screen as it is at that moment (a prompt or a question included). */
#define SCRIPT_SNAP (-2)

/* Appends the keys of one script line. */
static void script_line(const char *l, size_t n, int **keys, size_t *nk, size_t *cap)
{
#define PUSH(k) do { if (*nk == *cap) { *cap = *cap ? *cap * 2 : 256; \
        *keys = xrealloc(*keys, *cap * sizeof **keys); } (*keys)[(*nk)++] = (k); } while (0)
    if (n == 0 || l[0] == '#')
        return;
    bool prompt = l[0] == ':' || l[0] == '/';
    size_t i = 0;
    while (i < n) {
        uint32_t cp;
        if (!prompt && l[i] == '<') {
            const char *e = memchr(l + i, '>', n - i);
            if (e) {
                const char *nm = l + i + 1;
                size_t nl = (size_t)(e - nm);
                int k = -1, a = 0, b = 0;
                /* <Click:ROW>, <DoubleClick:ROW>: a mouse click on a
                 * screen row; <Resize:COLSxLINES>: the terminal resized. */
                if (sscanf(nm, "Click:%d", &a) == 1 || sscanf(nm, "DoubleClick:%d", &a) == 1) {
                    PUSH(nm[0] == 'C' ? K_CLICK : K_DOUBLE);
                    PUSH(a);
                    i = (size_t)(e - l) + 1;
                    continue;
                }
                /* <Snap:NAME>: the screen as it is now (mid-prompt too)
                 * written to NAME, as :save-display does between keys. */
                if (nl > 5 && memcmp(nm, "Snap:", 5) == 0) {
                    T.snaps = xrealloc(T.snaps, (T.n_snaps + 1) * sizeof *T.snaps);
                    T.snaps[T.n_snaps] = xstrndup(nm + 5, nl - 5);
                    PUSH(SCRIPT_SNAP);
                    PUSH((int)T.n_snaps++);
                    i = (size_t)(e - l) + 1;
                    continue;
                }
                if (sscanf(nm, "Resize:%dx%d", &a, &b) == 2 && a > 0 && b > 0) {
                    PUSH(K_RESIZE);
                    PUSH(a);
                    PUSH(b);
                    i = (size_t)(e - l) + 1;
                    continue;
                }
                if (nl == 2 && memcmp(nm, "lt", 2) == 0)
                    k = '<';
                else if (nl == 3 && (nm[0] == 'C' || nm[0] == 'c') && nm[1] == '-')
                    k = keymap_key_parse((char[]){ '^', nm[2] }, 2);
                else
                    k = keymap_key_parse(nm, nl);
                if (k >= 0) {
                    PUSH(k);
                    i = (size_t)(e - l) + 1;
                    continue;
                }
            }
        }
        i += text_decode(l + i, n - i, &cp);
        PUSH(cp == TEXT_BAD ? '?' : (int)cp);
    }
    if (prompt)
        PUSH(K_ENTER);
#undef PUSH
}

/* Opens the script. It is read a line at a time, as keys are needed, so
 * the script can be a pipe another program writes while the explorer
 * runs (tests/harden/concur.sh drives it that way between writes). */
static status load_script(const char *path, diag *d)
{
    T.script_fd = open(path, O_RDONLY | O_CLOEXEC);
    if (T.script_fd < 0)
        return diag_set(d, ST_IO, "cannot open script %s: %s", path, strerror(errno));
    buf_init(&T.script_in);
    return ST_OK;
}

/* Whether a whole script line (or the end) is read and waiting. */
static bool script_line_ready(void)
{
    return T.script_eof || (T.script_in.len && memchr(T.script_in.data, '\n', T.script_in.len));
}

/* Reads more of the script (blocking); false at its end. */
static bool script_read(void)
{
    char chunk[4096];
    for (;;) {
        ssize_t n = read(T.script_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            T.script_eof = true;
            return false;
        }
        buf_add(&T.script_in, chunk, (size_t)n);
        return true;
    }
}

/* Refills T.script from the next script line that holds keys; false at
 * the end of the script. */
static bool next_script_line(void)
{
    T.n_script = T.at_script = 0;
    while (T.n_script == 0 && T.script_fd >= 0) {
        while (!script_line_ready())
            script_read();
        if (T.script_in.len == 0)
            break;
        const char *nl = memchr(T.script_in.data, '\n', T.script_in.len);
        size_t n = nl ? (size_t)(nl - T.script_in.data) : T.script_in.len;
        size_t used = nl ? n + 1 : n;
        while (n > 0 && (T.script_in.data[n - 1] == '\n' || T.script_in.data[n - 1] == '\r'))
            n--;
        script_line(T.script_in.data, n, &T.script, &T.n_script, &T.cap_script);
        memmove(T.script_in.data, T.script_in.data + used, T.script_in.len - used);
        T.script_in.len -= used;
    }
    return T.n_script > 0;
}

status term_init(const char *script, diag *d)
{
    status st;
    const char *term = getenv("TERM");
    const char *no_color = getenv("NO_COLOR");

    text_init();
    if (script) {
        if ((st = load_script(script, d)) != ST_OK)
            return st;
        T.scripted = true;
        T.out = fopen("/dev/null", "w");
        T.in = fopen("/dev/null", "r");
        if (!T.out || !T.in)
            return diag_set(d, ST_IO, "cannot open /dev/null");
        if (!term || !*term)
            term = "xterm";
    } else {
        if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
            return diag_set(d, ST_USAGE, "the explorer needs a terminal (stdin and stdout)");
        T.out = stdout;
        T.in = stdin;
    }
    if (!nc_loaded) {
        if ((st = dynlib_load(NCURSES_SONAME, nc_names, DYNLIB_COUNT(nc), &nc, d)) != ST_OK)
            return st;
        nc_loaded = true;
    }
    if (!getenv("ESCDELAY"))
        set_escdelay(25);
    T.scr = newterm(term && *term ? term : NULL, T.out, T.in);
    if (!T.scr)
        return diag_set(d, ST_IO, "cannot open terminal '%s'", term ? term : "");
    T.active = true;
    mem_set_oom_hook(term_emergency);
    atexit(term_done);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);

    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    intrflush(stdscr, FALSE);
    curs_set(0);
    if (!T.scripted)
        mousemask(BUTTON1_CLICKED | BUTTON1_DOUBLE_CLICKED | BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
                  | BUTTON5_PRESSED
#endif
                  , NULL);

    T.mono = (no_color && *no_color) || !has_colors() || (term && strcmp(term, "dumb") == 0);
    if (!T.mono) {
        start_color();
        use_default_colors();
    }
    for (int r = 0; r < ROLE__COUNT; r++) {
        if (T.mono) {
            T.attr[r] = roles[r].mono;
        } else {
            init_pair((short)(r + 1), roles[r].fg, roles[r].bg);
            T.attr[r] = COLOR_PAIR(r + 1) | roles[r].attr;
        }
    }
    return ST_OK;
}

void term_done(void)
{
    if (!T.active)
        return;
    T.active = false;
    endwin();
    if (T.scr)
        delscreen(T.scr);
    T.scr = NULL;
    if (T.scripted) {
        if (T.out) fclose(T.out);
        if (T.in) fclose(T.in);
        T.out = T.in = NULL;
    }
    free(T.script);
    T.script = NULL;
    T.n_script = T.at_script = T.cap_script = 0;
    for (size_t i = 0; i < T.n_snaps; i++)
        free(T.snaps[i]);
    free(T.snaps);
    T.snaps = NULL;
    T.n_snaps = 0;
    if (T.script_fd >= 0)
        close(T.script_fd);
    T.script_fd = -1;
    buf_done(&T.script_in);
    T.script_eof = false;
}

int term_rows(void) { return nc_loaded ? LINES : 0; }
int term_cols(void) { return nc_loaded ? COLS : 0; }
bool term_mono(void) { return T.mono; }
bool term_scripted(void) { return T.scripted; }

void term_erase(void)
{
    erase();
    T.highlight = -1;
}

void term_highlight_row(int row)
{
    T.highlight = row;
}

static attr_t attr_of(int row, role r)
{
    assert(r >= 0 && r < ROLE__COUNT);
    if (row == T.highlight)
        return T.attr[ROLE_SELECTED] | (T.mono ? roles[r].mono & (A_BOLD | A_UNDERLINE) : 0);
    return T.attr[r];
}

int term_put(int row, int col, int width, const char *s, size_t len, role r, bool mark)
{
    if (row < 0 || row >= LINES || col >= COLS || width <= 0)
        return 0;
    if (col + width > COLS)
        width = COLS - col;
    buf b = BUF_INIT;
    int w = text_fit(&b, s, len, width, false, mark);
    if (b.len) {
        attrset(attr_of(row, r));
        mvaddnstr(row, col, b.data, (int)b.len);
        attrset(A_NORMAL);
    }
    buf_done(&b);
    return w;
}

int term_puts(int row, int col, int width, const char *s, role r)
{
    return term_put(row, col, width, s, strlen(s), r, true);
}

void term_fill(int row, int col, int width, role r)
{
    if (row < 0 || row >= LINES || col >= COLS || width <= 0)
        return;
    if (col + width > COLS)
        width = COLS - col;
    attrset(attr_of(row, r));
    mvhline(row, col, ' ', width);
    attrset(A_NORMAL);
}

void term_cursor(int row, int col)
{
    T.cur_row = row;
    T.cur_col = col;
}

void term_refresh(void)
{
    if (T.cur_row >= 0 && T.cur_row < LINES) {
        move(T.cur_row, T.cur_col < COLS ? T.cur_col : COLS - 1);
        curs_set(1);
    } else {
        curs_set(0);
    }
    refresh();
}

void term_force_redraw(void)
{
    clearok(curscr, TRUE);
}

static int map_key(int code)
{
    switch (code) {
    case KEY_UP: return K_UP;
    case KEY_DOWN: return K_DOWN;
    case KEY_LEFT: return K_LEFT;
    case KEY_RIGHT: return K_RIGHT;
    case KEY_PPAGE: return K_PGUP;
    case KEY_NPAGE: return K_PGDN;
    case KEY_HOME: return K_HOME;
    case KEY_END: return K_END;
    case KEY_ENTER: return K_ENTER;
    case KEY_BTAB: return K_BTAB;
    case KEY_BACKSPACE: return K_BACKSPACE;
    case KEY_DC: return K_DELETE;
    case KEY_IC: return K_INSERT;
    case KEY_F(1): return K_F1;
    case KEY_RESIZE: return K_RESIZE;
    default: return K_NONE;
    }
}

int term_getkey(int *mrow)
{
    busy = 0;
    sigint_seen = 0;
    if (mrow)
        *mrow = -1;
    if (T.scripted) {
        if (T.at_script >= T.n_script && !next_script_line())
            return K_EOF;
        int k = T.script[T.at_script++];
        if (k == SCRIPT_SNAP && T.at_script < T.n_script) {
            diag d;
            diag_init(&d);
            (void)term_save_display(T.snaps[T.script[T.at_script++]], &d);
            return term_getkey(mrow);
        }
        if ((k == K_CLICK || k == K_DOUBLE) && T.at_script < T.n_script) {
            if (mrow)
                *mrow = T.script[T.at_script];
            T.at_script++;
        } else if (k == K_RESIZE && T.at_script + 1 < T.n_script) {
            int c = T.script[T.at_script++], r = T.script[T.at_script++];
            resizeterm(r, c);
        }
        return k;
    }
    for (;;) {
        wint_t ch;
        int rc = get_wch(&ch);
        if (rc == ERR) {
            if (T.wait_ms >= 0)
                return K_TICK;
            if (errno == EINTR)
                continue;
            return K_EOF;
        }
        if (rc == KEY_CODE_YES) {
            if (ch == KEY_MOUSE) {
                MEVENT ev;
                if (getmouse(&ev) != OK)
                    continue;
                if (mrow)
                    *mrow = ev.y;
                if (ev.bstate & BUTTON4_PRESSED)
                    return K_WHEEL_UP;
#ifdef BUTTON5_PRESSED
                if (ev.bstate & BUTTON5_PRESSED)
                    return K_WHEEL_DOWN;
#endif
                if (ev.bstate & BUTTON1_DOUBLE_CLICKED)
                    return K_DOUBLE;
                if (ev.bstate & BUTTON1_CLICKED)
                    return K_CLICK;
                continue;
            }
            int k = map_key((int)ch);
            if (k != K_NONE)
                return k;
            continue;
        }
        switch (ch) {
        case '\r': case '\n': return K_ENTER;
        case '\t': return K_TAB;
        case 27: return K_ESC;
        case 127: case 8: return K_BACKSPACE;
        case 3: return K_INTERRUPT;
        default: return (int)ch;
        }
    }
}

int term_getkey_timeout(int *mrow, int ms)
{
    if (ms < 0)
        return term_getkey(mrow);
    if (T.scripted) {
        /* A script that is a pipe may stay silent: wait for its next line
         * no longer than ms (a file is always ready). */
        if (T.at_script >= T.n_script && !script_line_ready()) {
            struct pollfd pf = { .fd = T.script_fd, .events = POLLIN };
            if (poll(&pf, 1, ms) == 0)
                return K_TICK;
        }
        return term_getkey(mrow);
    }
    T.wait_ms = ms;
    timeout(ms);
    int k = term_getkey(mrow);
    timeout(-1);
    T.wait_ms = -1;
    return k;
}

bool term_key_pending(void)
{
    if (T.scripted)
        return T.at_script < T.n_script && T.script[T.at_script] != SCRIPT_SNAP;
    struct pollfd pf = { .fd = fileno(T.in), .events = POLLIN };
    return poll(&pf, 1, 0) > 0;
}

bool term_interrupted(void)
{
    busy = 1;
    if (sigint_seen) {
        sigint_seen = 0;
        return true;
    }
    if (T.scripted) {
        /* The script's next key, if it is ready: taken only when it is
         * Esc or ^C (a key for what runs next stays). */
        if (T.at_script >= T.n_script) {
            struct pollfd pf = { .fd = T.script_fd, .events = POLLIN };
            if (!script_line_ready() && (T.script_fd < 0 || poll(&pf, 1, 0) == 0))
                return false;
            if (!next_script_line())
                return false;
        }
        int k = T.script[T.at_script];
        if (k != K_ESC && k != K_INTERRUPT && k != 3 /* <C-c> */)
            return false;
        T.at_script++;
        return true;
    }
    wint_t ch;
    timeout(0);
    int rc = get_wch(&ch);
    timeout(-1);
    if (rc == ERR)
        return false;
    if (rc == OK && (ch == 27 || ch == 3))
        return true;
    if (rc == KEY_CODE_YES)
        ungetch((int)ch);
    else
        unget_wch(ch);
    return false;
}

bool term_wait_keys(int *dropped)
{
    *dropped = 0;
    if (T.scripted)
        return term_interrupted();   /* a script's keys are for what comes after */
    bool stop = false, resized = false;
    wint_t ch;
    int rc;
    timeout(0);
    while ((rc = get_wch(&ch)) != ERR) {
        if (rc == OK && (ch == 27 || ch == 3)) {
            stop = true;
            break;
        }
        if (rc == KEY_CODE_YES && ch == KEY_RESIZE) {
            resized = true;
            continue;
        }
        if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
            MEVENT m;
            getmouse(&m);
        }
        (*dropped)++;
    }
    timeout(-1);
    if (resized)
        ungetch(KEY_RESIZE);
    return stop;
}

status term_save_display(const char *path, diag *d)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return diag_set(d, ST_IO, "cannot write %s: %s", path, strerror(errno));
    wchar_t *w = xmalloc(((size_t)COLS + 1) * sizeof *w);
    buf b = BUF_INIT;
    for (int y = 0; y < LINES; y++) {
        int n = mvinnwstr(y, 0, w, COLS);
        buf_reset(&b);
        for (int i = 0; i < n && w[i]; i++)
            text_encode(&b, (uint32_t)w[i]);
        while (b.len && b.data[b.len - 1] == ' ')
            b.len--;
        fwrite(b.data ? b.data : "", 1, b.len, f);
        fputc('\n', f);
    }
    buf_done(&b);
    free(w);
    if (fclose(f) != 0)
        return diag_set(d, ST_IO, "cannot write %s", path);
    return ST_OK;
}

void term_suspend(void)
{
    if (T.scripted)
        return;
    def_prog_mode();
    endwin();
}

void term_resume(void)
{
    if (T.scripted)
        return;
    reset_prog_mode();
    refresh();
}

void term_clipboard(const char *text, size_t len)
{
    buf b = BUF_INIT;
    buf_adds(&b, "\033]52;c;");
    base64_encode(&b, text, len);
    buf_addc(&b, '\a');
    FILE *f = T.out;
    const char *log = getenv("DDBX_OSC52_FILE");
    bool logging = T.scripted && log && *log;
    if (logging)
        f = fopen(log, "a");
    if (f) {
        fwrite(b.data, 1, b.len, f);
        if (logging)
            fclose(f);
        else
            fflush(f);
    }
    buf_done(&b);
}
