/*
 * staged — the explorer's staged changes, kept in a SQLite table (staged,
 * schema version 4: data/store.c) so they survive quitting: one row per
 * item of a table, holding the item as it was read (before) and as the
 * user wants it (after), each as DynamoDB JSON text or NULL (no item).
 * Rows are ordered by when they were first staged.
 *
 * A remote store keeps its staged changes in the local database beside
 * it (store_set_local_path, as data/saved.h does), under the endpoint's
 * describe string as scope, so the changes staged against one endpoint
 * are never shown for another; a local store's scope is "". Nothing is
 * written to an endpoint here: committing is the explorer's
 * TransactWriteItems (ui/staging.c).
 *
 * Ownership: a staged_item filled by staged_list is the caller's
 * (staged_item_free); inputs are only read.
 */
#ifndef DDBX_STAGED_H
#define DDBX_STAGED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/av.h"
#include "model/status.h"

typedef struct staged_item {
    char *table;
    av key;              /* the item's table key (AV_M) */
    av before, after;    /* AV_M, or AV_NONE for no item */
    int64_t seq;         /* order of staging */
} staged_item;

/* Stages a change, replacing the one staged for the same item (keeping
 * its place in the order). */
status staged_put(store *s, const char *table, const av *key, const av *before,
                  const av *after, diag *d);
/* The changes of one table (NULL: every table), in order. Free each, then
 * the array. */
status staged_list(store *s, const char *table, staged_item **out, size_t *n, diag *d);
/* The first max changes in order, of every table (a commit's next
 * group): read through the seq index, so each call costs max rows, not
 * all of them. Free as staged_list's. */
status staged_head(store *s, size_t max, staged_item **out, size_t *n, diag *d);
/* A page of at most max changes of every table, in order, read through
 * the (scope, seq) index by keyset: dir > 0 those after seq, dir == 0
 * those from seq on, dir < 0 the last max before seq (INT64_MAX: the
 * last max of all). Each call costs its rows, however many are staged.
 * Free as staged_list's. */
status staged_page(store *s, int64_t seq, int dir, size_t max, staged_item **out, size_t *n, diag *d);
/* How many changes are staged (of every table). */
status staged_count(store *s, size_t *n, diag *d);
/* The staged new items (before: no item) of one table, in order, read
 * through a partial index of them alone: a page of the table view costs
 * the new items, not every staged change. Free as staged_list's. */
status staged_list_new(store *s, const char *table, staged_item **out, size_t *n, diag *d);
/* The names of the tables with staged changes (each once); free each,
 * then the array. */
status staged_tables(store *s, char ***out, size_t *n, diag *d);
/* The staged change of one item; *found false when there is none. */
status staged_get(store *s, const char *table, const av *key, staged_item *out, bool *found,
                  diag *d);
/* Drops one item's change (key) or, key NULL, every change of the table
 * (table NULL: of every table); *n (may be NULL) says how many. */
status staged_drop(store *s, const char *table, const av *key, size_t *n, diag *d);
void staged_item_free(staged_item *it);

#endif
