/*
 * itemdiff — what differs between two versions of an item, document path
 * by document path, and how a difference is written for people.
 *
 * Maps are compared member by member, lists element by element (by
 * position: an element inserted at the front shows each later one
 * changed), sets as sets (the same elements in any order are equal),
 * numbers by value (1.0 equals 1), and a value whose type changed is one
 * difference at its path, old value -> new value. Each difference goes to
 * a callback with its path (a.b[2].c as segments), the old value and the
 * new one, NULL where the path is absent on that side, in path order
 * (members by name, elements by index).
 *
 * The printers are for `ddbx diff` and the explorer's diff view: a path
 * as text (names that are not plain words quoted as JSON strings), and a
 * value as compact text (S, N, BOOL and NULL as JSON literals: "text",
 * 12, true, null; every other type as its DynamoDB JSON, {"SS":[...]}),
 * both safe for a terminal: control characters, DEL and the C1 controls
 * are written as \u escapes, never raw.
 *
 * Pure: reads the caller's items, allocates only scratch it frees. The
 * path and values a callback receives borrow the items and the differ's
 * stack: valid during the call only.
 */
#ifndef DDBX_ITEMDIFF_H
#define DDBX_ITEMDIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"

/* One step of a document path: a map member (name != NULL, name_len
 * bytes) or a list element (name NULL, index). */
typedef struct itemdiff_seg {
    const char *name;
    size_t name_len;
    size_t index;
} itemdiff_seg;

typedef struct itemdiff_change {
    const itemdiff_seg *path;
    size_t depth;             /* segments in path, at least 1 */
    const av *old_v, *new_v;  /* NULL: absent on that side */
} itemdiff_change;

typedef void (*itemdiff_fn)(void *ctx, const itemdiff_change *c);

/* Paths deeper than this (DynamoDB nests at most 32 levels) are compared
 * whole at this depth. */
#define ITEMDIFF_MAX_DEPTH 40

/* Calls fn for every difference between items a and b (AV_M; either may
 * be AV_NONE: every attribute of the other is added or removed); returns
 * how many. fn may be NULL (only counting). */
size_t itemdiff_items(const av *a, const av *b, itemdiff_fn fn, void *ctx);

/* Appends path[0..n) as text: a.b[2].c; a name that is empty or holds
 * anything but letters, digits, non-ASCII text and _ - # : is written as
 * a JSON string ("my.attr"[0]). */
void itemdiff_path_text(const itemdiff_seg *path, size_t n, buf *out);

/* Appends v's compact text (see above), cut after about max bytes with
 * "…" (max 0: whole). */
void itemdiff_value_text(const av *v, size_t max, buf *out);

/* Rewrites raw DEL and C1 controls in b from byte `from` on as \u
 * escapes: for DynamoDB JSON written by model/ddbjson (which leaves them
 * raw inside strings, where the escape means the same). */
void itemdiff_json_safe(buf *b, size_t from);

#endif
