/*
 * view_staged — the staged changes (`u`): per item its kind (new,
 * changed, to be deleted), table and key, then per attribute what the
 * commit changes: "+ name  TYPE value" added, "~ name  TYPE old -> TYPE
 * new" changed, "- name  TYPE value" removed. The markers (+ ~ -) say it
 * without colour. In it d discards the selected item's change (after
 * asking), :commit writes everything, :discard drops everything.
 *
 * view_conflict_ops shows one conflict a commit stopped at (its arg, a
 * view_staged_arg, is copied): each attribute of the item as it is now
 * beside the staged version ("!" where they differ); k keeps yours, r
 * rebases it onto theirs, d drops it (keys bound for the "conflict" view
 * only), and the commit goes on.
 */
#ifndef DDBX_VIEW_STAGED_H
#define DDBX_VIEW_STAGED_H

#include "model/av.h"
#include "ui/view.h"

typedef struct view_staged_arg {
    const char *table;
    const av *key, *before, *after;
    const av *now;       /* NULL: the item is gone */
} view_staged_arg;

extern const view_ops view_staged_ops;
extern const view_ops view_conflict_ops;

#endif
