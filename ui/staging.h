/*
 * staging — staged edits in the explorer: the mode, the staged changes of
 * this session's store (kept by data/staged.h, so they survive quitting),
 * their markers in the table view, commit, discard, and conflicts.
 *
 * With staging on (`:stage on|off`; on by default for a remote table opened with --write,
 * off for a local file or a read-only endpoint), the explorer's edits (ui/edit.c: new item, edit
 * item, set or remove an attribute, delete) are staged instead of
 * written: each staged item keeps the item as first read and as the user
 * wants it. `:commit` writes every staged change with TransactWriteItems,
 * in groups of at most 100 actions (DynamoDB's limit), each action
 * conditioned on the item still being as it was read (model/stage.h). A
 * group is all or nothing; its changes leave staging only once it has
 * been written, so a crash mid-commit loses nothing: on the next commit a
 * change whose item already is as staged is recognised as written. A
 * failed condition is a conflict: the item as it is now is shown beside
 * the staged version and the user keeps the change (force: staged again
 * over the item as it is now), rebases it (the change's attributes
 * applied to the item as it is now) or drops it.
 *
 * The state is this module's; views ask it for markers and counts.
 */
#ifndef DDBX_STAGING_H
#define DDBX_STAGING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/schema.h"
#include "ui/request.h"
#include "ui/view.h"

/* At the start of the explorer: the default mode for the store, the
 * staged changes kept from before (said on the status line). */
void staging_start(void);
void staging_done(void);

bool staging_on(void);
void staging_set(bool on);
size_t staging_count(void);

/* The marker of an item of table (its key attributes per def): 0 when it
 * is not staged, else '~' (changed), '-' (to be deleted) or '+' (new). */
int staging_marker(const char *table, const table_def *def, const av *item);

/* The table view's page of partition pk (n items of the store, after
 * `after` in the direction fwd, in an array of max) with the staged new
 * items of that partition merged in, in sort-key order; the staged items
 * that fall in the page are copied in, the page keeps at most max
 * (those beyond come with the next page). Returns the new count. */
size_t staging_merge_page(const char *table, const table_def *def, const av *pk,
                          const av *after, bool fwd, size_t max, av *items, size_t n);

/*
 * For ui/edit.c. staging_base: the item as staging has it (the staged
 * version when the item is staged, else the store's, read consistently),
 * into an uninitialised out; false with a message when there is none.
 * staging_stage: stages a change to table (before: the item as read,
 * AV_NONE for a new item; after: AV_NONE to delete); an item staged
 * already keeps its first `before`. Says what it did on the status line.
 */
bool staging_base(const char *table, const table_def *def, const av *item, av *out);
bool staging_stage(const char *table, const table_def *def, const av *before, const av *after);
/* staging_stage saying nothing on success (a caller staging many says
 * the count once); a refusal is still shown. */
bool staging_stage_quiet(const char *table, const table_def *def, const av *before, const av *after);
/* The builder's write (req: PutItem, UpdateItem or DeleteItem) staged
 * instead of sent: applied (model/stage.h's stage_write: its condition,
 * its UpdateExpression) to the item as staging has it (staged, else as
 * stored now), and the result staged. *staged (uninitialised on entry)
 * is what was staged (AV_NONE: a delete); false with why (DynamoDB's
 * message) when nothing was staged. */
bool staging_stage_write(const char *table, const table_def *def, const struct ddb_req *req,
                         av *staged, buf *why);
/* What the item view shows: the staged version of a staged item (the
 * store's when it is staged to be deleted), else the store's. */
bool staging_shown(const char *table, const table_def *def, const av *item, bool strong, av *out);

/* Stages one attribute set to val (NULL: removed) on base, the item as
 * staging_bases read it; quiet as staging_stage_quiet (the marks' bulk
 * edit says the count). */
bool staging_set_attr_on(const char *table, const table_def *def, const av *base, const char *name,
                         const av *val);
/* staging_base of many items of table at once (the marks' bulk edits,
 * issue 42): out[i] (uninitialised) the staged version of keys[i] when it
 * is staged (AV_NONE: staged to be deleted), else the store's, read
 * strongly consistent (the commit's condition needs the exact image) by
 * BatchGetItem (data/store.h's store_get_many: several requests at once,
 * a progress line between them, Esc stops); AV_NONE: no such item. False
 * with why in d (out all AV_NONE) when the read failed or was stopped;
 * nothing is shown. */
bool staging_bases(const char *table, const table_def *def, const av *keys, size_t n, av *out, diag *d);
/* The table's definition (the caller's table_def_free); false with the
 * error on the status line. */
bool staging_describe(const char *table, table_def *def);

/* The staged changes as the view of them lists them. */
typedef struct staging_entry {
    char *table;
    av key, before, after;
    int64_t seq;          /* its place in the order (data/staged.h) */
} staging_entry;
/* A page of the staged changes, in order, as data/staged.h's staged_page
 * reads it (dir > 0: after seq; 0: from seq on; < 0: the last max
 * before seq); returns how many; free with staging_entries_free. */
size_t staging_page(int64_t seq, int dir, size_t max, staging_entry **out);
void staging_entries_free(staging_entry *e, size_t n);

/* The answer to a conflict the commit stopped at (the conflict view's
 * keys): 'k' keeps the change (staged again over the item as it is
 * now), 'r' rebases it onto that item, 'd' drops it. */
bool staging_resolve(const char *table, const av *key, const av *before, const av *after,
                     const av *now, int choice);

/* Commits everything staged (stopping at the first conflict, shown in
 * the conflict view); discards one item's change (key) or all. */
void staging_commit(void);
void staging_discard(const char *table, const av *key);

/* Reads view v again (REQ_RELOAD) after a commit of this process's own:
 * while it does, staging_after_commit() is true, so a view may read only
 * what the commit changed (items, not the table's description or TTL
 * setting: issue 42). */
void staging_reload_after_commit(view *v);
bool staging_after_commit(void);
/* Closes the top view after a commit made from it; the view under reads
 * again as staging_reload_after_commit says (once: when coming back on
 * top reloaded it, not again). */
void staging_pop_after_commit(view *v);

/* A request or `:` command for staging (u, :stage, :commit, :discard);
 * false when it is not one. */
bool staging_request(view *v, enum req r);
bool staging_command(view *v, int argc, char **argv);

#endif
