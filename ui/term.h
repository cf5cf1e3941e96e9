/*
 * term — the one owner of the terminal (the only file that includes
 * curses): init and restore, colours from semantic roles, input (keyboard,
 * mouse, or a script of keys), the cells views draw, and screen dumps.
 *
 * The terminal is left as it was found on quit, on error (term_done runs
 * from atexit and from the out-of-memory hook) and on SIGINT/SIGTERM/
 * SIGHUP. With NO_COLOR set (non-empty), TERM=dumb or a terminal without
 * colours, every role is drawn with attributes only (monochrome).
 *
 * Scripted mode (tests, DDBX_SCRIPT=FILE): ncurses runs on newterm()
 * writing to /dev/null, and keys come from the script instead of the
 * keyboard. Script lines: `# comment`; `:command` or `/text` (typed into
 * the prompt, then Enter); anything else is keys, one character each,
 * with <Name> for a named key (<Enter>, <Down>, <C-f>, <lt> for '<'),
 * <Click:ROW> or <DoubleClick:ROW> for the mouse, <Resize:COLSxLINES>
 * for a terminal resize and <Snap:FILE> to write the screen as it is at
 * that moment (inside a prompt or a question too) to FILE.
 * When the script ends term_getkey returns K_EOF.
 */
#ifndef DDBX_TERM_H
#define DDBX_TERM_H

#include <stdbool.h>
#include <stddef.h>

#include "model/status.h"

/* Semantic roles: name, colour fg, colour bg, colour attributes, mono
 * attributes. Views name roles, never colours. */
#define ROLE_LIST(X) \
    X(NORMAL,   DEFAULT, DEFAULT, 0,              0) \
    X(TITLE,    WHITE,   BLUE,    BOLD,           REVERSE) \
    X(STATUS,   DEFAULT, DEFAULT, 0,              0) \
    X(ERROR,    RED,     DEFAULT, BOLD,           BOLD) \
    X(SELECTED, BLACK,   CYAN,    0,              REVERSE) \
    X(GROUP,    YELLOW,  DEFAULT, BOLD,           BOLD) \
    X(HOT,      RED,     DEFAULT, BOLD,           BOLD) \
    X(KEY,      GREEN,   DEFAULT, 0,              0) \
    X(COLHEAD,  DEFAULT, DEFAULT, BOLD|UNDERLINE, UNDERLINE) \
    X(TYPE,     MAGENTA, DEFAULT, 0,              0) \
    X(DIM,      BLUE,    DEFAULT, 0,              DIM) \
    X(BAR,      GREEN,   DEFAULT, 0,              0) \
    X(MATCH,    BLACK,   YELLOW,  0,              UNDERLINE) \
    X(PROMPT,   DEFAULT, DEFAULT, BOLD,           BOLD) \
    X(STAGED,   YELLOW,  DEFAULT, BOLD,           BOLD) \
    X(MARKED,   CYAN,    DEFAULT, BOLD,           BOLD)

typedef enum {
#define ROLE_ENUM(name, fg, bg, attr, mono) ROLE_##name,
    ROLE_LIST(ROLE_ENUM)
#undef ROLE_ENUM
    ROLE__COUNT
} role;

/* Opens the terminal (script: DDBX_SCRIPT's file, or NULL for the
 * keyboard). Fails with a message when the terminal or script cannot be
 * opened. */
status term_init(const char *script, diag *d);
/* Restores the terminal; safe to call more than once. */
void term_done(void);

int term_rows(void);
int term_cols(void);
bool term_mono(void);
bool term_scripted(void);

/* Clears the screen buffer (nothing is shown before term_refresh). */
void term_erase(void);
/* Draws s[0..len) escaped (ui/text) at row/col, clipped to width columns
 * (and to the screen), with a `~` where it was cut when mark is set.
 * Returns the columns drawn. */
int term_put(int row, int col, int width, const char *s, size_t len, role r, bool mark);
int term_puts(int row, int col, int width, const char *s, role r);
/* Paints width cells with spaces in role r. */
void term_fill(int row, int col, int width, role r);
/* Rows drawn while highlighted use ROLE_SELECTED whatever role is given. */
void term_highlight_row(int row);
/* Where the terminal cursor should be left (-1: hidden). */
void term_cursor(int row, int col);
void term_refresh(void);
/* Repaints the whole terminal on the next refresh (^L). */
void term_force_redraw(void);

/* Next key (see ui/keymap.h); K_RESIZE after a resize, K_EOF when a
 * script ends. Mouse events report their screen row in *mrow. */
int term_getkey(int *mrow);
/* The same, but K_TICK when no key (or, scripted, no script line) comes
 * within ms milliseconds; ms < 0 waits as term_getkey does. */
int term_getkey_timeout(int *mrow, int ms);

/* Whether a key is waiting (typed ahead, pasted; scripted: the rest of
 * the script line, up to a <Snap:...>), so that drawing the screen can
 * wait for the last of them. Nothing is taken. */
bool term_key_pending(void);

/* Whether Esc or ^C was pressed (taken), without waiting: for a long
 * load to stop. Any other key pressed stays for term_getkey. From the
 * first call until the next key is read, a SIGINT (^C in a terminal
 * that sends it) is taken as that ^C; a second one ends the explorer. */
bool term_interrupted(void);

/* While a request is under way: whether Esc or ^C was pressed (taken);
 * every other key typed meanwhile is dropped, *dropped counting them,
 * so that none is replayed afterwards as a command for another screen (a
 * resize is kept). Scripted: as term_interrupted (a script's keys are
 * for what comes after). */
bool term_wait_keys(int *dropped);

/* Writes the screen text, one line per row, trailing blanks removed. */
status term_save_display(const char *path, diag *d);

/* Puts text on the terminal's clipboard: OSC 52 ("ESC ] 52 ; c ; BASE64
 * BEL"), which terminals honour over SSH, and tmux passes on to the
 * terminal it runs in (set-clipboard). Scripted (tests), the sequence
 * goes to the file DDBX_OSC52_FILE names, if any, instead. */
void term_clipboard(const char *text, size_t len);
/* Gives the terminal back for a child process ($EDITOR) and takes it
 * again. */
void term_suspend(void);
void term_resume(void);

#endif
