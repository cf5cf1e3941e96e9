/*
 * search — the explorer's `/`, `n` and `N`.
 *
 * In the table view (item collections) the search goes through the store
 * (data/store_search.h): the whole table or index, in the view's order,
 * not only the loaded lines, in chunks with a progress line between them
 * (Esc or Ctrl-C stops it); the view then loads the match's partition
 * around it. At the end it wraps to the top (the start, for N) and says
 * so; when nothing matches the selection stays where it was.
 *
 * In the other views it looks through the view's lines (loading more
 * with the view's `more`, however far, keeping the window it started
 * from), by their text op.
 *
 * The search text is kept here, for n and N, until the next `/`.
 */
#ifndef DDBX_SEARCH_H
#define DDBX_SEARCH_H

#include <stddef.h>

#include "ui/view.h"

/* Sets the text the next search_run looks for (copied; len bytes). */
void search_set(const char *text, size_t len);
/* Searches from v's selection forward (dir > 0) or backward. */
void search_run(view *v, int dir);
/* Frees the kept text (at exit). */
void search_done(void);

#endif
