/*
 * marks — marked items and what can be done with them at once.
 *
 * A mark names an item by its table and its table key, so marks hold
 * across partitions, across views and across the base/GSI flip (an index
 * item carries its table's key, and marks its base item). `m` marks or
 * unmarks the selected item, `M` every item of its partition, `V`
 * (`:mark-results`) exactly the items on screen, or in a view of results
 * (view_ops.results: the query bar) every result, its pages not read yet
 * too. Whatever would mark more than the screen shows asks first, naming
 * the count and a sample of the keys. On the marked items `:marked`
 * deletes them (BatchWriteItem in groups of 25), sets or removes one
 * attribute, each after one question with the count, the tables and a
 * sample of the keys (staged, when staging is on, without one), exports
 * them in any `ddbx export` format (asking before it replaces a file),
 * copies them (ui/copy.h) or stages them; a long action shows its
 * progress and stops on Esc. The count is always on screen (marks_badge,
 * at the title bar's right end).
 *
 * The marks are this module's, for the session (not kept on disk), in a
 * model/keyset (a search tree): each mark operation, the test of a drawn
 * row and each item of a `:marked` action are O(log n).
 */
#ifndef DDBX_MARKS_H
#define DDBX_MARKS_H

#include <stdbool.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/schema.h"
#include "ui/request.h"
#include "ui/view.h"

void marks_done(void);
/* The two gutter cells before an item's columns: "*" marked (column 0)
 * and the staged marker, + ~ or - (column 1); characters, so they
 * survive NO_COLOR, in the MARKED and STAGED roles. */
void marks_draw_gutter(const char *table, const table_def *def, const av *item, int row);
/* How many items are marked (quitting asks before it loses them). */
size_t marks_count(void);
/* " 3 marked  2 staged " for the title bar; nothing when there are none. */
void marks_badge(buf *out);
/* Unmarks the item of key (a key map) of table: a committed delete's
 * (ui/staging.c), as a delete with staging off unmarks what it deleted. */
void marks_forget(const char *table, const av *key);
bool marks_request(view *v, enum req r);
bool marks_command(view *v, int argc, char **argv);

#endif
