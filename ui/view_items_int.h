/*
 * view_items_int — what the table view's files share; private to them
 * (ui/view_items*.c: nothing else includes this).
 *
 *   view_items.c         the view: its state (items_view) and lines,
 *                        drawing, the requests and `:` commands. It alone
 *                        creates and frees an items_view.
 *   view_items_page.c    the window of loaded lines: keyset paging forward
 *                        and backward from the first or last loaded line,
 *                        and the lines made again around a partition or
 *                        item (items_reset_at).
 *   view_items_follow.c  f: the partitions an item's attribute values name
 *                        (an edge), opened as views of their own.
 */
#ifndef DDBX_VIEW_ITEMS_INT_H
#define DDBX_VIEW_ITEMS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "data/store.h"
#include "model/av.h"
#include "ui/colset.h"
#include "ui/entity_filter.h"
#include "ui/items_pos.h"
#include "ui/view.h"

/* L_NAMES: the column names of the items below it, before a run of like
 * items that follows items of another entity type (names_fix). */
enum { L_GROUP = 1, L_ITEM, L_NAMES };

typedef struct irow {
    av pk;                 /* L_GROUP: the partition key value; L_NAMES:
                              its items' (the sticky header's) */
    uint64_t items, bytes;
    av item;               /* L_ITEM */
    bool first, last;      /* L_ITEM: known first / last of its partition */
    char *entity;          /* L_ITEM: its entity type, once asked
                              (row_entity); L_NAMES: its items' */
    /* L_GROUP in an entity's view: its items in the partition and their
     * bytes, once counted (items_group_shown); items above is all of the
     * partition's. */
    uint64_t shown, shown_bytes;
    bool counted, shown_known;
} irow;

/* A partition an edge leads to (follow). */
typedef struct ftarget {
    char *index;           /* NULL: the base table */
    av pk;
} ftarget;

typedef struct items_view {
    char *table;
    table_def def;
    bool have_def;
    int ix;                /* -1: the base table; else def.idx[ix] */
    const char *pk, *sk;   /* the view's key attribute names (sk may be NULL) */
    table_stats tst, vst;  /* counts of the table and of what is shown */
    bool fold_all;
    av *flip;              /* partitions folded unlike fold_all */
    size_t n_flip;
    colsets cols;          /* per entity type, fitted to the items on
                              screen (layout) */
    bool failed;           /* a store call failed (its message is shown) */
    items_pos pos;         /* the title's "item x of y" */
    irow *sticky;          /* the top row's partition header, when its line
                              is not loaded (read from the store) */
    char *ttl;             /* the table's TTL attribute; NULL: TTL disabled */
    /* Opened by f: every partition the edge led to, and which one this
     * view shows (f on its header goes to the next). */
    ftarget *fol;
    size_t n_fol, fol_at;
    char *fol_via;         /* the attribute followed */
    /* The item selected when the index switched to one without it (i):
     * selected again when the next switch comes back to a view that has
     * it, unless the selection moved meanwhile. */
    av away;
    size_t away_cursor;
    entity_filter *filter; /* from the entities view: one entity's items */
    /* An index whose key has several HASH attributes names a partition by
     * the list of their values (data/store.h: part_info); item_pk builds
     * an item's into the next of these, so the last few it returned stay
     * valid while a caller compares or copies them. */
    av pk_lists[4];
    unsigned pk_next;
} items_view;

static inline const char *index_name(const items_view *p)
{
    return p->ix < 0 ? NULL : p->def.idx[p->ix].name;
}

static inline const index_def *index_of(const items_view *p)
{
    return p->ix < 0 ? NULL : &p->def.idx[p->ix];
}

static inline const av *item_pk(const items_view *cp, const av *item)
{
    const index_def *ix = index_of(cp);
    if (!ix || !ix->n_pk_rest)
        return av_map_get(item, cp->pk, strlen(cp->pk));
    items_view *p = (items_view *)cp;   /* only its scratch lists change */
    av *out = &p->pk_lists[p->pk_next++ % 4];
    av_done(out);
    av_init_list(out, AV_L);
    for (size_t i = 0; i < index_def_n_hash(ix); i++) {
        const char *name = index_def_hash(ix, i)->name;
        const av *v = av_map_get(item, name, strlen(name));
        if (!v)
            return NULL;
        av c;
        av_copy(&c, v);
        av_list_push(out, &c);
    }
    return out;
}

static inline const av *line_pk(const items_view *p, const line *l)
{
    const irow *r = l->data;
    return l->kind == L_ITEM ? item_pk(p, &r->item) : &r->pk;
}

/* view_items.c */
irow *items_row_new(void);
void items_free_line(view *v, line *l);
bool items_is_folded(const items_view *p, const av *pk);
/* The column-name lines (L_NAMES) made again after the lines change. */
void items_names_fix(view *v);
const av *items_selected_item(view *v);
void items_ftargets_free(ftarget *t, size_t n);

/* view_items_page.c */
bool items_part_next(items_view *p, const av *from, int dir, part_info *out);
bool items_part_lookup(items_view *p, const av *pk, part_info *out);
size_t items_page(items_view *p, const av *pk, const av *after, bool fwd, size_t max, av *items);
irow *items_group_row(part_info *pi);
/* A partition header's item count (a remote one not counted when the
 * header was made is looked up again: a page may have held all of it
 * since), and whether it is HOT: far above the other partitions of what is
 * shown (model/doctor.h's doctor_hot, the doctor's rule); never on an
 * endpoint, whose partitions are found as the user pages. */
/* The store shown is an endpoint. */
bool items_remote(void);
uint64_t items_group_count(items_view *p, const irow *r);
bool items_is_hot(const items_view *p, const irow *r);
/* In an entity's view, counts the entity's items of group r once
 * (r->counted; r->shown_known unless the partition is too big to read,
 * or on an endpoint). */
void items_group_shown(items_view *p, irow *r);
size_t items_more(view *v, int dir);
void items_reset_at(view *v, const av *pk, const av *item);
/* The window at the end of partition pi, read backward (pi->pk taken). */
void items_load_end(view *v, part_info *pi);
/* ui/view_items_remote.c: G on an endpoint (the end of the last
 * partition found, read backward), and :count-parts. */
void items_move_last_remote(view *v);
void items_count_parts(view *v);

/* view_items_follow.c */
void items_follow(view *v);

#endif
