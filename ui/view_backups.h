/*
 * view_backups — the safety net's views and commands that are not undo
 * (ui/undo.h): `:backup [NAME]` takes an on-demand backup of the table
 * shown, `:backups [TABLE]` lists the database's backups (the table
 * shown's, or all from the table list), newest first: Enter diffs one
 * against its table as it is now (ui/view_diff.h), r restores it into a
 * new table (`:restore [NAME]`), d deletes it after asking.
 *
 * On a local database a backup is the store's (data/store_backup.h); on
 * an endpoint `:backup` sends CreateBackup only when asked and after a
 * question that says backups are billed to the table's owner, and the
 * list is the endpoint's ListBackups (a restore there is the endpoint's
 * RestoreTableFromBackup).
 */
#ifndef DDBX_VIEW_BACKUPS_H
#define DDBX_VIEW_BACKUPS_H

#include <stdbool.h>

#include "ui/view.h"

extern const view_ops view_backups_ops;   /* arg: the table (NULL: every table's) */

/* :backup, :backups (true when it was one of them: run, or refused with
 * a message). */
bool backups_command(view *v, int argc, char **argv);

#endif
