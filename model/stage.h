/*
 * stage — the pure side of staged edits: what changed in an item, the
 * conditional write that commits the change, and rebasing a change onto
 * the item as someone else left it.
 *
 * A staged change is two items: `before`, the item as the explorer read
 * it (AV_NONE: there was none, a new item), and `after`, the item as the
 * user wants it (AV_NONE: delete it). The storage is data/staged.h's, the
 * views ui/'s; this module only computes.
 *
 * Optimistic locking: the write a change commits as (stage_action) holds
 * a ConditionExpression that every attribute that was read still has the
 * value that was read, and that attributes the change adds are still
 * absent (a new item: that there is no item with its key). Someone else's
 * concurrent change to what was read fails the condition, so it is never
 * overwritten; attributes nobody read (added by another writer since) are
 * kept, because an existing item is changed with an UpdateItem of the
 * attributes that differ, not replaced.
 *
 * Ownership: inputs are only read; outputs are the caller's (ddb_req_done,
 * av_done, free of the diff array, whose pointers borrow the items).
 */
#ifndef DDBX_STAGE_H
#define DDBX_STAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/ddbreq.h"
#include "model/status.h"

typedef enum { STAGE_ADDED, STAGE_CHANGED, STAGE_REMOVED } stage_op;

/* One attribute's change: old is NULL for an added attribute, new_v NULL
 * for a removed one. name points into the items. */
typedef struct stage_attr {
    stage_op op;
    const char *name;
    size_t name_len;
    const av *old_v, *new_v;
} stage_attr;

/* The attributes that differ between two items (either may be AV_NONE:
 * every attribute of the other is added or removed), in name order.
 * *out is malloc'd (NULL when nothing differs); returns the count. */
size_t stage_diff(const av *before, const av *after, stage_attr **out);

/* What a change does to the item: "new", "delete", "update" or "none"
 * (after equals before). */
const char *stage_kind(const av *before, const av *after);

/* The longest condition stage_action writes before it falls back to
 * locking only the attributes it changes (DynamoDB takes expressions of
 * up to 4 KB). */
#define STAGE_MAX_COND 4096

/*
 * The transaction action that commits a change to table (pk, sk: its key
 * attribute names; sk NULL without a sort key), into an uninitialised
 * act: a Put conditioned on attribute_not_exists for a new item, a Delete
 * or an Update (SET and REMOVE of the attributes that differ) conditioned
 * on the attributes read being unchanged; a ConditionCheck when nothing
 * differs. Each action asks for the item as it is when its condition
 * fails (ReturnValuesOnConditionCheckFailure ALL_OLD), for the conflict
 * view. before and after must have the same key.
 */
void stage_action(const char *table, const char *pk, const char *sk, const av *before,
                  const av *after, ddb_req *act);

/*
 * A change made again on top of the item as it is now (current; AV_NONE
 * when it is gone): the attributes the change added, changed or removed
 * are applied to current, the rest of current is kept. Into an
 * uninitialised out; AV_NONE when the change deletes the item.
 */
void stage_rebase(const av *before, const av *after, const av *current, av *out);

/*
 * What a write (req: PutItem, UpdateItem or DeleteItem) leaves of the
 * item as read (before: AV_M, or AV_NONE when there is none), into an
 * uninitialised out (AV_NONE: no item), for staging the write instead of
 * sending it: its ConditionExpression evaluated on before
 * (ST_CONDITION_FAILED when false), its UpdateExpression applied as the
 * store applies it (model/expr.h). Fails with DynamoDB's messages.
 */
status stage_write(const ddb_req *req, const av *before, av *out, diag *d);

#endif
