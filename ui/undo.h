/*
 * undo — the explorer's safety net: automatic backups before destructive
 * actions, `:undo` and `:redo` of the changes the explorer made, and
 * `:samples`, which asks before it replaces edited sample tables.
 *
 * Automatic backups (local databases only: a remote table's backups cost
 * its owner, so `:backup` takes one there only when asked): before a bulk
 * delete or set on marks, `:samples` over edited tables, `:delete-index`
 * and a commit of more than one change, the caller names the tables in an
 * undo_guard, puts undo_guard_says() in its question, and after a yes
 * calls undo_guard_take() before it writes. Each backup is named
 * TABLE-auto-N (N one more than the table's highest) and is an ordinary
 * backup to DynamoDB's API (STORE_BACKUP_AUTO tells it apart); after each
 * one the table's automatic backups are pruned to the newest
 * DDBX_AUTO_BACKUP_KEEP (default STORE_AUTO_BACKUP_KEEP, 20; 0 takes
 * none) and those older than DDBX_AUTO_BACKUP_DAYS days (default 7; 0:
 * no age limit).
 *
 * The journal: every key and `:` command is bracketed (undo_begin,
 * undo_end); the store tells of each change record this explorer's own
 * handle commits meanwhile (store_set_own_changes: never another
 * process's), so an action is the list of its records, whose old and new
 * images the change log holds on disk. An endpoint has no change log:
 * there the staged commit (on by default with --write) tells of each
 * item it wrote with the images it staged and read (undo_note_write),
 * and the action holds those images; writes made with staging off on an
 * endpoint are not journaled. `:undo` takes the newest action
 * back: each item's image from
 * before the action is staged over the image the action left (ui/staging,
 * data/staged) and committed with the staged commit's optimistic check,
 * so an item changed since by anyone else is a conflict in the conflict
 * view, never overwritten (what the conflict view's keys then write
 * belongs to that :undo). Repeated, `:undo` walks further back; `:redo`
 * takes an undo back the same way; a new change forgets what could be
 * redone. `:samples` is taken back from its backup (the table deleted
 * and restored from it, after checking that it is still as the samples
 * left it). The list of actions lives in this session's memory: after a
 * restart the change log and the backups are still there (`ddbx diff
 * TABLE@TIME`, `ddbx diff backup:NAME`), the list is not, but for an
 * undo or redo the explorer ended in the middle of: its note beside the
 * database keeps its change records and how far it got, and undo_start
 * puts the rest on the list for the next :undo (:redo).
 *
 * The state is this module's.
 */
#ifndef DDBX_UNDO_H
#define DDBX_UNDO_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "ui/view.h"

/* The automatic backups' settings from the environment
 * (DDBX_AUTO_BACKUP_KEEP, DDBX_AUTO_BACKUP_DAYS; a value that is not a
 * whole number from 0 to 100000 is the default, bad_* set), read by the
 * explorer's guard and by `ddbx evolve`, which take backups alike. */
typedef struct undo_backup_settings {
    size_t keep;          /* automatic backups kept a table; 0 takes none */
    double max_age_s;     /* older ones pruned; 0: no age limit */
    bool bad_keep, bad_days;
} undo_backup_settings;
undo_backup_settings undo_backup_settings_read(void);

typedef struct undo_guard {
    char **tables, **names;   /* the tables and their backups' names */
    size_t n;
    bool remote, off;         /* no backups: a remote store, or KEEP 0 */
    bool no_undo;             /* the action is not one :undo takes back (the caller's) */
    buf says;
} undo_guard;

void undo_guard_init(undo_guard *g);
void undo_guard_done(undo_guard *g);
/* One more table to back up (once each). */
void undo_guard_add(undo_guard *g, const char *table);
/* The sentence for the question: "A backup named T-auto-1 is kept;
 * :undo takes this back." (never NULL). */
const char *undo_guard_says(undo_guard *g);
/* Takes the backups; false (said on the status line) when one failed:
 * the action must not go ahead. */
bool undo_guard_take(undo_guard *g);

/* Brackets one key (label: its name) or `:` command (label: its line);
 * nested calls are one action, named by the innermost. */
void undo_begin(const char *label, bool command);
void undo_end(void);
void undo_done(void);
/* At the start: what an :undo or :redo cut off by the explorer's end
 * left (its note beside the database), said on the status line once,
 * and its rest put on the undo (redo) list, which the message says. */
void undo_start(void);

/* On an endpoint, which keeps no change log: an item a commit wrote
 * (ui/staging), as it was and as the commit left it, for :undo. The
 * images are copied into the bracketed action; on a local store the
 * change log has them already and the call does nothing. */
void undo_note_write(const char *table, const av *key, const av *before, const av *after);

/* :samples, :undo, :redo; false when the command is not one of them. */
bool undo_command(view *v, int argc, char **argv);

#endif
