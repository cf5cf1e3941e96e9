/*
 * display_int — what the files of the display share; private to them
 * (ui/display.c, ui/prompt.c and ui/commands.c; nothing else includes
 * this). The display's public calls are in ui/display.h.
 *
 * The display is one module in three files, each owning one part:
 *
 *   display.c   the frame: the stack of views and their geometry, the
 *               main loop, the title and status lines and what shows on
 *               them (messages, diagnostics, the remote status), the
 *               remote store's write gate. It owns display_line: creates
 *               its buffer when the run starts, frees it at the end.
 *   prompt.c    the questions on the last row: the prompts and their
 *               pick lists (on ui/lineedit), the menu, one-key choices and
 *               confirmations, the `:` and `/` prompts, and $EDITOR for
 *               a longer text. It sees the stack only through
 *               display_top and draws the frame under it with display_draw.
 *   commands.c  the `:` commands: display_command splits the line into
 *               words and runs it; the requests (keys) the frame does not
 *               handle itself come there too (commands_request), so a key
 *               and its command do the same thing. It owns the words'
 *               columns of the command being run (display_command_col).
 */
#ifndef DDBX_DISPLAY_INT_H
#define DDBX_DISPLAY_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"
#include "ui/request.h"
#include "ui/term.h"
#include "ui/view.h"

/* The status line (the last row), which every file of the display
 * writes and display.c draws. */
struct display_line {
    /* The message, until the next key; empty: none (display.c then shows
     * the remote status, if any). display.c's display_message and the
     * rest set it; prompt.c puts a question in it while asking, adds
     * "Cancelled." to it, and holds it aside while the `:` prompt is
     * open; commands.c empties it as a command starts. */
    buf status;
    role status_role;   /* how the message is drawn (ROLE_ERROR, ...) */
    /* 1 while a prompt (prompt.c) owns the last row and the row above it
     * (its message row): the view's body is that much shorter, and the
     * message is drawn one row up. 0 otherwise. */
    int prompt_lift;
};
extern struct display_line display_line;

/* ---- ui/display.c ---- */

/* The view on top of the stack, or NULL (none open, or quitting). */
view *display_top(void);
/* Draws the whole frame (title, head, body, status line) without
 * sending it to the terminal: a prompt draws over it, then refreshes. */
void display_draw(void);
/* The body rows of view v, as the screen and display_line.prompt_lift
 * leave them (at least 1). */
size_t display_body_rows(view *v);
/* The rows the status line's message takes on a screen of rows x cols
 * (more than 1 when it wraps: display_diag's long messages). */
int display_status_rows(int rows, int cols);
/* Quits, after asking when the session holds what quitting loses (the
 * marks, the pending transaction). */
void display_quit(void);
/* Closes the top view; the last one quits (asking, as display_quit). */
void display_back(void);

/* ---- ui/prompt.c ---- */

/* The `:` prompt (REQ_PROMPT): reads a command line, the commands
 * offered as a pick list, and runs it (display_command). The message the
 * last key left does not show above the prompt but stays for the
 * command (a script's :save-display saves the screen that key left). */
void prompt_command(void);
/* The `/` prompt (REQ_SEARCH): searches v forward for the text typed. */
void prompt_search(view *v);

/* ---- ui/commands.c ---- */

/* Runs request r on view v when it is not the frame's own (moving,
 * scrolling, back, quit, the prompts): the keys of the `:` commands
 * (help, the builder, the transaction, watch, live, PartiQL, patterns),
 * then the features' (staging, marks, copying). False when none takes
 * it. */
bool commands_request(view *v, enum req r);
/* DDBX_TIMING's line for a `:` command run: "command TEXT work N", N its
 * store_work (what the screen tests' `# work:` headers compare). */
void display_log_command(const char *text, uint64_t work);

#endif
