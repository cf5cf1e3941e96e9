/*
 * builder_int — what the files of the condition builder's view share;
 * private to them (ui/view_builder*.c is the builder; nothing else
 * includes this).
 *
 * The builder is one view (view_builder_ops) in five files, each owning
 * one part, and two views beside it that share its transaction
 * (view_builder_pick.c, the `t` key's menu of one action on the selected
 * item, and view_builder_pending.c, the `T` view of the pending
 * transaction: view_txn_ops):
 *
 *   view_builder.c       the view: its state (bview) and lines, drawing
 *                        the tree, the requests and `:` commands, and the
 *                        request the tree makes (bview_make_req). It alone
 *                        creates and frees a bview.
 *   view_builder_panel.c the right-hand panel: what DynamoDB receives,
 *                        built from a bview into p->panel and wrapped to
 *                        the width drawn into p->wrapped. It writes no
 *                        other field.
 *   view_builder_prompt.c the prompts that edit one node or update row in
 *                        place (path, operator, operands, SET's form); it
 *                        sees no bview, only the node or row and the paths
 *                        it may offer.
 *   view_builder_apply.c the store: the item stored under the builder's
 *                        key, applying a write or handing a read to the
 *                        query bar, saved conditions. It writes p->result,
 *                        p->item, p->stored and p->saved.
 *   view_builder_txn.c   the transaction being collected: it outlives any
 *                        one builder (actions on several items, each from
 *                        its own builder, go into one TransactWriteItems),
 *                        so it is that file's state, reached only through
 *                        btxn_*.
 */
#ifndef DDBX_BUILDER_INT_H
#define DDBX_BUILDER_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/builder.h"
#include "model/ddbreq.h"
#include "model/schema.h"
#include "ui/term.h"
#include "ui/view.h"

/* Line kinds of the tree. */
enum { L_NODE = 1, L_UHEAD, L_UROW, L_PAD };

typedef enum { M_COND, M_FILTER, M_KEY } bmode;
/* "condition", "filter", "key", by bmode. */
extern const char *const bview_mode_names[];

typedef struct pline {
    role r;
    char *text;
} pline;

/* The paths a path prompt offers (Tab picks one), and the item whose
 * values give an operand's default type (NULL: none); borrowed. */
typedef struct bpicks {
    char *const *v;
    size_t n;
    const av *item;
} bpicks;

typedef struct bview {
    char *table, *index;
    table_def def;
    bool have_def;
    av item;             /* AV_NONE: no item */
    av stored;           /* the item stored under item's key now (AV_NONE: none) */
    bool have_stored;    /* stored was looked up (table and key known) */
    builder *b;
    bupdate upd;
    bmode mode;
    int act;             /* breq_op of the action shown; -1: by mode */
    /* derived by rebuild() */
    const bnode **nodes;
    int *depths;
    size_t n_nodes;
    bverdict verdict;
    bool have_verdict;
    const bnode *bad;    /* the node DynamoDB's refusal points at */
    /* the panel (view_builder_panel.c) */
    pline *panel;
    size_t n_panel, cap_panel;
    /* wrapped panel for the width last drawn */
    pline *wrapped;
    size_t n_wrapped;
    int wrapped_width;
    /* The panel has the keys (Tab): the moving keys scroll it, and below
     * 120 columns it takes the whole width. */
    bool panel_focus;
    /* The paths a path prompt offers (builder_pick_paths), by rebuild(). */
    char **picks;
    size_t n_picks;
    size_t panel_top;    /* first wrapped panel row shown */
    buf result;          /* the last action's outcome, lines */
    bool result_error;
    buf saved;           /* the saved conditions, when listed */
} bview;

/* ---- view_builder.c --------------------------------------------------- */

expr_kind bview_mode_kind(bmode m);
/* The action the tree is shown and applied as. */
breq_op bview_action(const bview *p);
bool bview_have_item(const bview *p);
/* The table key of the item (Update, Delete, ConditionCheck); false with
 * a message in *why when the table or a key attribute is missing. */
bool bview_item_key(const bview *p, av *out, buf *why);
/* Fills a request for op; the key (for Update/Delete/Check) goes in *key,
 * which the caller frees. False with *why when it can not be made. */
bool bview_make_req(bview *p, breq_op op, breq *r, av *key, buf *why);
/* What the verdict is evaluated against: the stored item when it was
 * looked up, else the builder's own item; NULL: none. */
const av *bview_verdict_item(const bview *p);
/* "put" "update" "delete" "check" -> breq_op; -1 otherwise. */
int bview_op_by_name(const char *s);
/* After a write: the views below read the store again. */
void bview_reload_below(view *v);

/* ---- view_builder_panel.c ---------------------------------------------- */

/* Rebuilds p->panel from p (and the transaction being collected). */
void bview_panel_build(bview *p);
/* Splits the panel into p->wrapped rows of at most width columns (once
 * per width). */
void bview_panel_wrap(bview *p, int width);
/* Frees the panel's and the wrapped rows (not the arrays' capacity). */
void bview_panel_free(bview *p);
/* Initialises m as the request op makes fills it before its condition:
 * an UpdateItem's update rows first (their text into upd, when not
 * NULL), so the condition's placeholders, printed next into m, are the
 * ones the request sends (`:version_1` where the update took :version). */
status bview_maps_before_cond(bview *p, breq_op op, bmaps *m, buf *upd, diag *d);

/* ---- view_builder_prompt.c --------------------------------------------- */

/* Each asks on the prompt line and changes the node or row in place,
 * one answer at a time; a refused answer is asked again (what was typed
 * kept, why shown above it). False when a prompt was left (Esc): the
 * answers before it are kept. */
bool bprompt_path(bpath *path, const char *label, const bpicks *picks);
/* Path, operator, then the operands. */
bool bprompt_clause(bnode *n, const bpicks *picks);
bool bprompt_op(bnode *n);
bool bprompt_values(bnode *n, const bpicks *picks);
/* Action (unless ask_action is false), path, SET's form, the operands. */
bool bprompt_row(baction *a, bool ask_action, const bpicks *picks);
bool bprompt_row_values(baction *a, const bpicks *picks);
/* Asks the action of a new update row; false when the prompt was left. */
bool bprompt_row_kind(bu_kind *kind);

/* ---- view_builder_apply.c ---------------------------------------------- */

/* Looks up the item stored under the builder item's key (p->stored). */
void bview_load_stored(bview *p);
/* Reads the builder's item again by its key, after a write. */
void bview_refresh_item(bview *p);
/* PutItem / UpdateItem / DeleteItem of the tree; the outcome in
 * p->result. */
void bview_apply_write(view *v, breq_op op);
/* The tree as a filter (key false; argv[2..3]: PK [SK]) or a key
 * condition through the query bar, which opens on top. */
void bview_apply_read(view *v, bool key, int argc, char **argv);
/* A parse error in p->result with its caret, and on the status line. */
void bview_parse_error(bview *p, const char *what, const char *text, const diag *d);
void bview_saved_list(bview *p);
void bview_saved_put(bview *p, const char *name);
/* Replaces the tree (and the mode) with a saved condition. */
void bview_saved_load(bview *p, const char *name);
void bview_saved_delete(bview *p, const char *name);

/* ---- view_builder_txn.c ------------------------------------------------ */

/* `:txn add put|update|delete|check`, `:txn run`, `:txn clear`. */
void btxn_command(view *v, int argc, char **argv);
/* The actions collected so far, each one's label and request (NULL past
 * the end; valid until the transaction changes). */
size_t btxn_count(void);
const char *btxn_label(size_t i);
const ddb_req *btxn_act(size_t i);
/* Appends an action: takes act's contents (act is left to be
 * ddb_req_done'd) and the malloc'd label. */
void btxn_push(ddb_req *act, char *label);
/* Action i's request becomes act's contents (taken as btxn_push does). */
void btxn_replace(size_t i, ddb_req *act);
void btxn_remove(size_t i);
void btxn_clear(void);
/* Sends every action as one TransactWriteItems; true when applied (the
 * transaction is then empty). It asks first, once, when ask is set,
 * when staging is on (the transaction is written, not staged) or on a
 * remote endpoint (the question names it, and the endpoint's write gate
 * does not ask again). The outcome, with each cancelled action's reason,
 * is appended to out; the status line says it too. */
bool btxn_run(buf *out, bool ask);

#endif
