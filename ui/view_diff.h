/*
 * view_diff — `:diff A [B]`: the differences between two states of a
 * table as a view, like the staged changes: one line per item added,
 * removed or changed (its key), under a changed one a line per attribute
 * path that differs (old -> new), and Enter on either opens both
 * versions side by side.
 *
 * A side is what `ddbx diff` reads (data/diffsrc.h): a table of this
 * database, backup:NAME or its ARN, TABLE@TIME, FILE:TABLE, an export
 * file. With one side given the other is the table shown; "@TIME" alone
 * is the table shown at that moment. The store's own handle reads the
 * database's sides, so an in-memory database and a remote table (with
 * Scan, spooled into key order) work too.
 *
 * The merge (model/tdiff) is pulled as the view scrolls: the first
 * screen costs what reading up to its differences costs, never the whole
 * table. Esc or ^C stops a long read (the counts then say what was
 * read); `:load-all` reads to the end for the final counts. The view
 * keeps the differences it has shown (items included, for Enter), at
 * most DIFF_VIEW_KEEP of them; past that it goes on counting and says
 * that `ddbx diff` lists them all.
 *
 * Ownership: the view owns its sources, the merge and every difference
 * it keeps; the argument's strings are copied.
 */
#ifndef DDBX_VIEW_DIFF_H
#define DDBX_VIEW_DIFF_H

#include <stdbool.h>

#include "ui/view.h"

#define DIFF_VIEW_KEEP 50000

/* What the diff view opens on: the two sides as `ddbx diff` names them. */
typedef struct diff_arg {
    const char *a, *b;
} diff_arg;

extern const view_ops view_diff_ops;      /* the differences */
extern const view_ops view_versions_ops;  /* one item's two versions (Enter) */

/* :diff A [B] (true when it was that command: run, or refused with a
 * message). */
bool diff_command(view *v, int argc, char **argv);

#endif
