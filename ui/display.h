/*
 * display — the explorer's frame: the stack of views (which is also the
 * back stack), the main loop that turns keys into requests, the title and
 * status lines, the `:` and `/` prompts, confirmations, $EDITOR,
 * and the test hooks (:save-display, :save-view, DDBX_TIMING).
 *
 * The display borrows the store for its whole run; views reach it with
 * display_store(). Views are created by display_push and destroyed by
 * display_pop (or at exit).
 *
 * One module in three files (ui/display_int.h says what each owns and
 * what they share): ui/display.c the frame, ui/prompt.c the questions
 * asked on the last row, ui/commands.c the `:` commands; the calls below
 * are grouped by file.
 */
#ifndef DDBX_DISPLAY_H
#define DDBX_DISPLAY_H

#include <stdbool.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/ddbreq.h"
#include "ui/term.h"
#include "ui/view.h"

/* ---- ui/display.c ---- */

/* Runs the explorer until quit; table (may be NULL) opens at once.
 * Returns the process exit status. */
int display_run(store *st, const char *db_path, const char *table);
/* The moment DDBX_TIMING's first-screen time counts from (the start of
 * `ddbx`, before the store opens); display_run marks it when nobody did. */
void display_mark_start(void);

store *display_store(void);
const char *display_db_path(void);
/* The access-pattern folder of the database on screen (paths_patterns_dir);
 * a remote endpoint keeps its patterns beside the local default database.
 * Malloc'd, the caller's. */
char *display_patterns_dir(void);

/* Line i of a view whose every line is one text in one role, as the view's
 * line function gives them: drawn across the row (the view's draw op
 * calls display_line_draw), or its text alone (the text op). */
typedef void (*display_line_fn)(view *v, size_t i, buf *out, role *r);
void display_line_draw(view *v, size_t i, int row, int width, display_line_fn line_of);
void display_line_text(view *v, size_t i, buf *out, display_line_fn line_of);

/* A list view's REQ_RELOAD: its lines rebuilt by load (the view's own),
 * the cursor put back on the line number it was on (the last line when
 * there are fewer now). */
void display_reload_lines(view *v, void (*load)(view *v));

/* Who the remote session signs as ("ARN, profile P"), appended to that
 * status ("  as ..."); NULL or "" for nothing. Copied. */
void display_set_identity(const char *who);

/* Opens a view on top of the stack; returns it, or NULL when it could not
 * open (its message is in the status line). */
view *display_push(const view_ops *ops, const void *arg);
/* Opens a view in place of the top one (which goes once the new one is
 * open; when it cannot open, the top one stays and says why). */
view *display_replace(const view_ops *ops, const void *arg);
/* Closes the top view (the last one: quits). The view back on top reads
 * the store again (REQ_RELOAD) when its ops say it follows the store and
 * the store changed while it was covered: by this process, or by another
 * while live mode is on (ui/live.h). */
void display_pop(void);
/* The view under v on the stack, or NULL. */
view *display_below(view *v);
/* Reads view v again now (REQ_RELOAD), a covered one included, noting
 * the store as it is as what v shows (so coming back does not read it
 * twice). */
void display_reload(view *v);

/* Status line message, until the next key. Wider than the screen, any
 * message (info or error) wraps onto the rows above the status line, up
 * to half the screen. */
void display_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void display_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* A status message shown at once (the screen drawn again): the progress
 * of a long load, between its steps. */
void display_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Whether Esc or ^C was pressed since (taken): a long load checks it
 * between steps and stops. */
bool display_interrupted(void);
/* A remote request under way, every 50 ms (data/remote_wait.h's hook):
 * after 100 ms the last row says what it waits for ("Query on GSI1 …
 * 0.4 s"), retries included; false when Esc or ^C cancels it. Other keys
 * typed meanwhile are dropped and counted on that row, never replayed. */
bool display_wait(const char *what, double seconds, int attempt, int max_attempts);
/* The session's read budget on an endpoint, in RCU (0: none): the
 * explorer asks before a read passes it (data/store.h,
 * store_set_read_budget). Before display_run too (--budget). */
void display_set_read_budget(double rcu);

/*
 * Shows a failure on the status line: the one way the explorer shows a
 * diagnostic, as cli_print_diag does on stderr. "WHAT: FILE:LINE:COL:
 * Code: message (attribute PATH, at byte POS)", each part only when known
 * (WHAT may be NULL; no code for a usage error). When d's message
 * was cut at diag's size, the store's whole message (store_error_message)
 * is shown instead. Wider than the screen, it wraps as every message does.
 */
void display_diag(const char *what, status st, const diag *d);
/* The text of display_diag, appended to out; full (may be NULL) is the
 * whole message, used when d->msg was cut and full begins with it. */
void display_diag_text(buf *out, const char *what, status st, const diag *d, const char *full);
/* The same for the error of a typed call (store_exec): its DynamoDB type
 * (a remote's own, ThrottlingException, included), the whole message,
 * the path and the position. */
void display_ddb_err(const char *what, const ddb_err *e);
void display_ddb_err_text(buf *out, const char *what, const ddb_err *e);

/* Runs req (store_exec) after a question of the caller's that named the
 * endpoint and was answered yes: a remote store's write gate does not
 * ask again for it. */
status display_exec_approved(const ddb_req *req, ddb_res *res, ddb_err *err);
/* The same around a typed call of the caller's own (store_backup_create
 * on a remote store): on, the write gate does not ask; off again after. */
void display_approve_writes(bool on);

/* Draws the screen now, in the middle of a long request (a progress
 * message set with display_message shows). */
void display_refresh(void);

/* Makes the view's loaded lines cover the screen (calls ops->more). */
void display_fill(view *v);

/* ---- ui/prompt.c ---- */

/* Reads a line in the status line; false when cancelled (Esc: said on
 * the status line, "Cancelled."). out gets the text (initially init).
 * The label takes at most half the line, or more when it needs it and
 * init still fits, so the text shows whatever its length; the row above
 * the prompt line is its message row: a message set before (why the
 * last answer was refused) shows there, else nothing (the view gives the
 * row up while the prompt is open). */
bool display_prompt(const char *label, const char *init, buf *out);
/* The same with a list to pick from: the choices that begin with what is
 * typed (else that contain it) show above the status line; Tab or Down
 * puts the next one in the text, BackTab or Up the previous; typing
 * narrows the list again. A pre-filled init that is no choice (an answer
 * refused, asked again) narrows it as typed text does. Anything may
 * still be typed. */
bool display_prompt_pick(const char *label, const char *init, char *const *choices,
                         size_t n_choices, buf *out);
/* A menu: the choices show above the status line, each picked by its
 * first character (so they must differ there), or by Enter on the one
 * highlighted (Up/Down/Tab move it; the first at the start). Returns the
 * index picked, -1 when left: Esc or q, or any key it does not offer
 * (said on the status line). */
int display_menu(const char *label, char *const *choices, size_t n);
/* A pick list for a closed set of words (operator, type, action): the
 * same, with each choice's description (after a tab in the choice) shown
 * beside it in the list, and the pre-filled init shown selected: the
 * first character typed replaces it, an editing key keeps it. */
bool display_prompt_choose(const char *label, const char *init, char *const *choices,
                           size_t n_choices, buf *out);
/* Asks a question answered by one key: the key when it is one of keys,
 * else 0 (Esc, anything else). */
int display_choose(const char *question, const char *keys);
/* Asks a yes/no question; true only on 'y'. */
bool display_confirm(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Lets the user edit text in $VISUAL/$EDITOR (else vi); true when the
 * editor succeeded (text then holds the new content). */
bool display_edit(buf *text, const char *suffix);

/* ---- ui/commands.c ---- */

/* Runs a `:` command line: words split at spaces, "quotes" and 'quotes'
 * grouping, JSON ({...} or [...], also after --values=) kept as typed. */
void display_command(const char *text);
/* While a `:` command runs: the screen column where its word i starts
 * in the line typed (the ':' is column 1), for errors that point into
 * it; 0 when unknown. */
int display_command_col(int i);
/* Is word the command name (a '-' in word matching a '_' in name)? */
bool display_is_cmd(const char *word, const char *name);

#endif
