/*
 * colset — the table view's columns per entity type.
 *
 * A single-table design keeps several kinds of item in one partition (a
 * profile beside its follow edges); one set of columns for all of them
 * puts an edge's followedAt behind the profile's attributes. So items are
 * grouped by entity type, and each type has its own columns:
 *
 * - the type of an item is the value of its type attribute, when it has
 *   one (named type, entityType, entity_type, _type, __typename or
 *   entity, in any case), else its sort key's prefix before the first '#'
 *   ("TARGET#bob" -> "TARGET#"), or the whole sort key when it is one
 *   short word ("PROFILE"); else "" (one type for the rest);
 * - a colset is what the user chose for one type in the column picker
 *   (`C`, ui/view_cols.c): the columns' order, which are hidden, which are
 *   pinned (kept at the left, after the key, when scrolling). Columns it
 *   does not know yet come after the known ones, by name. It is saved per
 *   table and type in the local database (data/saved.h).
 * - colsets is what the table view holds: the columns of each type on
 *   screen, computed per frame (cols_compute, then the colset applied),
 *   the key column as wide across all of them so the keys line up.
 *
 * Ownership: a colset owns its strings; colsets owns its colsets; the
 * cols inside point into the items they were computed from (valid until
 * those change, as cols say).
 */
#ifndef DDBX_COLSET_H
#define DDBX_COLSET_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"
#include "ui/cols.h"

enum { COLSET_HIDDEN = 1, COLSET_PINNED = 2 };

typedef struct colset {
    char **names;
    unsigned char *flags;  /* COLSET_* */
    size_t n;
} colset;

/* The entity type of item (sk: the view's sort key attribute, may be
 * NULL), appended to out. */
void colset_entity(const av *item, const char *sk, buf *out);
/* The type as the picker and the head row name it: "TARGET# items". */
void colset_entity_label(const char *entity, buf *out);

/* The layout saved for (table, entity); none: empty. */
void colset_load(colset *c, const char *table, const char *entity);
/* Saves it (an empty one deletes the layout). The session keeps it even
 * when the database cannot (read-only: the error says so). */
status colset_save(const colset *c, const char *table, const char *entity, diag *d);
void colset_done(colset *c);
/* Adds the columns of `all` that c does not hold (the key column, all's
 * first, excepted), after the ones it holds. */
void colset_merge(colset *c, const cols *all);

#define COLSETS_MAX 12

typedef struct colsets {
    struct {
        char *entity;
        colset set;
        cols cols;
    } e[COLSETS_MAX];
    size_t n;
    long first;    /* the slot of the first item on screen; -1: none */
    unsigned gen;
} colsets;

/* The columns of the items on screen, per entity type (see cols_compute
 * for first, nfirst and skip). */
void colsets_layout(colsets *s, const char *table, const av *const *items, size_t n,
                    const char *const *first, size_t nfirst, const char *skip, const char *sk);
/* The columns of item's type (NULL: the first type on screen; none on
 * screen: NULL), and that type's name through *entity when not NULL. */
const cols *colsets_for(const colsets *s, const av *item, const char *sk, const char **entity);
void colsets_done(colsets *s);

#endif
