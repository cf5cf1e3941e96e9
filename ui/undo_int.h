/*
 * undo_int — what ui/undo.c (the journal) and ui/undo_back.c (taking an
 * action's writes back) share; nothing outside those two includes it.
 *
 * An action is what one key or `:` command wrote: on a local store the
 * change records its writes left (segs: the change log holds their
 * images on disk), on an endpoint the images themselves (imgs). The
 * journal owns its actions; undo_back only reads the one it takes back
 * and fills a new one with the part it did not take back.
 */
#ifndef DDBX_UNDO_INT_H
#define DDBX_UNDO_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "ui/view.h"

typedef struct seg {
    int64_t tid, seq;          /* one change record this explorer committed */
} seg;

typedef enum { A_WRITES, A_SAMPLES } action_kind;

/* One change of an item, with its key's encoding. */
typedef struct rev {
    char *table;          /* the rev's own; NULL: no such record (trimmed) */
    buf key;
    int64_t seq;
    av keys, old_item, new_item;
} rev;

typedef struct action {
    action_kind kind;
    char *label;
    seg *segs;
    size_t n;
    /* On an endpoint, which has no change log: each item a commit wrote,
     * as it was (old_item) and as the commit left it (new_item). */
    rev *imgs;
    size_t nimg;
    /* A_SAMPLES: each table replaced and its backup's ARN (NULL: none,
     * a redo that loads the samples again). */
    char **tables, **arns;
    size_t nt;
    uint64_t id;          /* the journal's name for it (never 0) */
    /* The rest of an undo or redo that stopped midway: the id of the
     * action on the other list that holds the part already taken back
     * (taking the rest back adds to it); 0: none. */
    uint64_t joins;
    /* An undo or redo the explorer ended in the middle of, taken up again
     * after the restart (undo_start): the first skip items of its plan
     * (the plan is the same for the same records) were written back
     * before it ended, as its note beside the database said. */
    size_t skip;
    bool resumed;         /* taken up so (its words say "the rest of") */
} action;

typedef enum { M_NORMAL, M_UNDO, M_REDO } mode;

void undo_rev_free(rev *r, size_t n);
/* The cut-off undo (m M_UNDO) or redo (M_REDO) that undo_start read from
 * its note, put on top of the undo (redo) list; the journal owns it. */
void undo_resume_push(action *a, mode m);

/* What undo_take_back did. */
typedef struct back_out {
    bool stale;           /* the action leaves the list: nothing to take back */
    bool wrote;           /* the user said yes: what the bracket writes is the way back */
    bool conflict;        /* stopped at a conflict: the conflict view is open */
    action rest;          /* the part not taken back (n and nimg 0: none), with
                             a's label; the caller owns it */
} back_out;

/*
 * Takes action a back (m: M_UNDO, or M_REDO for an undo taken back):
 * reads its changes in steps, names the exact count and asks, then
 * writes each item's way back in TransactWriteItems of 100, each
 * conditioned on the item being as the action left it (the staged
 * commit's condition); a cancelled one goes through staging and the
 * conflict view. A progress line and Esc (or Ctrl-C) between steps;
 * stopped, the status line says how far it got and what :undo and :redo
 * do next, and out->rest is what is left. Work and memory grow with the
 * action's size, never its square.
 */
void undo_take_back(view *v, const action *a, mode m, back_out *out);

#endif
