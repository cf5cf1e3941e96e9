/*
 * store_backup — on-demand backups, point-in-time recovery and the
 * key-ordered readers over them, as typed C calls (data/store_backup.c,
 * store_pitr.c, store_items.c). store_call answers the same operations as
 * DynamoDB JSON (CreateBackup, DescribeBackup, ListBackups, DeleteBackup,
 * RestoreTableFromBackup, UpdateContinuousBackups,
 * DescribeContinuousBackups, RestoreTableToPointInTime) through these.
 *
 * Where a backup lives: the catalogue row in the database (table
 * `backups`, store_int.h) and, for a backup taken with CreateBackup (or
 * store_backup_create), its items in a SQLite file of its own in the
 * folder FILE-backups/ beside the database FILE (for an in-memory
 * database, a temporary folder removed at close). The copy is taken in
 * one read transaction, so writers go on meanwhile and the backup is the
 * table as one commit left it; it costs the table's items once on disk
 * (no index entries: a restore rebuilds them) and survives the table's
 * deletion. A SYSTEM backup (a table with point-in-time recovery
 * deleted) keeps the deleted table's items where they were, in the
 * database itself, and expires after 35 days, as DynamoDB's does.
 *
 * Point-in-time recovery runs on the change log (store_changes.c): the
 * table as it was at a moment is the table now with every later change
 * undone, so the log must hold every change since. With recovery enabled
 * on a table the bulk writes (ddbx load, samples, pull) log what undoing
 * needs too (the old image and the key: history-only records, which no
 * stream shows) and the table's records are kept for its
 * RecoveryPeriodInDays (1 to 35)
 * rather than the stream retention; without it, a bulk write ends the
 * log's completeness (store_log_window says from when it holds).
 *
 * Ownership: every out-parameter is the caller's, freed with the matching
 * *_free / *_done. A remote store sends CreateBackup, ListBackups,
 * DescribeBackup, DeleteBackup and RestoreTableFromBackup to its endpoint
 * (asking its write gate first); it has no readers.
 */
#ifndef DDBX_STORE_BACKUP_H
#define DDBX_STORE_BACKUP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/av.h"
#include "model/schema.h"
#include "model/status.h"

typedef enum {
    STORE_BACKUP_USER,     /* CreateBackup, store_backup_create */
    STORE_BACKUP_SYSTEM,   /* kept by DeleteTable of a table with recovery enabled */
} store_backup_type;

enum {
    /* store_backup_create: an automatic backup the explorer takes before
     * a destructive action. To DynamoDB's API it is an ordinary USER
     * backup; store_backup_list tells it apart (automatic) and
     * store_backup_prune deletes only these. */
    STORE_BACKUP_AUTO = 1 << 0,
};

typedef struct store_backup {
    char *arn;             /* arn:aws:dynamodb:REGION:ACCOUNT:table/T/backup/01234567890123-abcdef01 */
    char *name;
    store_backup_type type;
    bool automatic;        /* STORE_BACKUP_AUTO */
    int64_t created_ms;    /* BackupCreationDateTime: the moment the copy is of */
    int64_t expires_ms;    /* BackupExpiryDateTime (SYSTEM); 0: none */
    uint64_t items, bytes; /* the items and their DynamoDB size (BackupSizeBytes) */
    /* The source table as it was: name, ARN, TableId, creation time, its
     * definition (keys, indexes, projections), billing and throughput,
     * stream and Time to Live settings (NULL: none). */
    char *table, *table_arn, *table_id;
    int64_t table_created_ms;
    table_def def;
    bool provisioned;      /* BillingMode PROVISIONED (else PAY_PER_REQUEST) */
    int64_t rcu, wcu;
    char *stream_view;     /* StreamViewType when a stream was enabled */
    char *ttl_attr;        /* the TTL attribute when TTL was enabled */
} store_backup;

void store_backup_done(store_backup *b);
void store_backups_free(store_backup *b, size_t n);

/* A backup of table named name (3 to 255 of [a-zA-Z0-9_.-], DynamoDB's
 * BackupName) with flags (STORE_BACKUP_AUTO); *out describes it (NULL:
 * not wanted). ST_TABLE_NOT_FOUND when the table is missing. */
status store_backup_create(store *s, const char *table, const char *name, unsigned flags,
                           store_backup *out, diag *d);

/* Which backups store_backup_list gives. */
typedef struct store_backup_filter {
    const char *table;     /* the source table's name; NULL: every table's */
    bool user, system;     /* the types wanted (both false: USER, as ListBackups) */
    bool automatic_only;   /* only STORE_BACKUP_AUTO ones */
    int64_t from_ms, to_ms;/* created in [from, to); 0: unbounded */
    const char *after_arn; /* the page after this backup (keyset cursor); NULL: from the first */
    size_t max;            /* at most this many; 0: all */
} store_backup_filter;

/* Backups oldest first (by creation time, then ARN), at most f->max;
 * *more says whether more follow the last one given. */
status store_backup_list(store *s, const store_backup_filter *f, store_backup **out, size_t *n,
                         bool *more, diag *d);
/* One backup by ARN (the region and account in it are not compared, as
 * DynamoDB does not); ST_BACKUP_NOT_FOUND when there is none. */
status store_backup_describe(store *s, const char *arn, store_backup *out, diag *d);
/* Deletes a USER backup (its file goes with it). A SYSTEM backup cannot
 * be deleted (ST_VALIDATION, DynamoDB's refusal): it expires. */
status store_backup_delete(store *s, const char *arn, diag *d);

/* What a restore may change (NULL: the table as it was backed up). */
typedef struct store_restore_opts {
    /* Which of the backup's indexes the new table keeps, by name; NULL:
     * all of them; an empty list (n_indexes 0, indexes not NULL): none. */
    const char *const *indexes;
    size_t n_indexes;
} store_restore_opts;

/* A new table named target holding the backup's items, with its keys,
 * indexes (per opts), billing and throughput; not its stream, TTL, tags
 * or recovery setting, as DynamoDB restores. ST_TABLE_EXISTS when
 * target exists. One write transaction: a crash leaves no part of it. */
status store_backup_restore(store *s, const char *arn, const char *target,
                            const store_restore_opts *opts, diag *d);

/*
 * Automatic backups are pruned by count and age: per table, the newest
 * `keep` are kept and any older than `max_age_s` seconds deleted (0: no
 * limit of that kind). The defaults, which the explorer uses unless told
 * otherwise, are STORE_AUTO_BACKUP_KEEP a table and
 * STORE_AUTO_BACKUP_DAYS days. table NULL: every table's. *deleted
 * counts what went (may be NULL). USER backups made any other way and
 * SYSTEM ones are never touched.
 */
#define STORE_AUTO_BACKUP_KEEP 20
#define STORE_AUTO_BACKUP_DAYS 7
status store_backup_prune(store *s, const char *table, size_t keep, double max_age_s,
                          size_t *deleted, diag *d);
/* The next automatic backup's name for table: TABLE-auto-N, N one more
 * than the highest of the table's automatic backups (the table's name cut
 * to fit DynamoDB's 255 characters), so every taker of automatic backups
 * (the explorer's :undo guard, ddbx evolve) counts on together. Malloc'd. */
char *store_backup_auto_name(store *s, const char *table);

/* ---- point-in-time recovery (data/store_pitr.c) ---- */

#define STORE_PITR_DAYS_MAX 35   /* RecoveryPeriodInDays: 1 to 35, 35 by default */

typedef struct store_pitr {
    bool enabled;
    int days;                    /* RecoveryPeriodInDays */
    int64_t earliest_ms, latest_ms;  /* the window (when enabled) */
} store_pitr;

status store_pitr_get(store *s, const char *table, store_pitr *out, diag *d);
/* Enables recovery (days 1..35; 0: 35) or disables it (days must be 0).
 * Enabling starts the window now; enabling again keeps it and changes
 * the period; disabling drops it. ST_TABLE_NOT_FOUND when the table is
 * missing. */
status store_pitr_set(store *s, const char *table, bool enable, int days, diag *d);

/* The span of time over which table's change log holds every change
 * (recovery enabled or not): from *from_ms to now (*to_ms). Earlier
 * moments cannot be rebuilt: a bulk write on a table without recovery
 * logs nothing, and records past the retention are trimmed. */
status store_log_window(store *s, const char *table, int64_t *from_ms, int64_t *to_ms, diag *d);

/*
 * ---- key-ordered readers (data/store_items.c) ----
 *
 * The items of a backup, or of a table as it was at a moment, in key
 * order (the store's: partition key then sort key, as their order-
 * preserving encodings compare), a page at a time, for `ddbx diff` to
 * merge. Each page is read from the last key given (a keyset cursor),
 * so memory stays one page whatever the size. A reader of a file
 * database holds its own read-only connection and one read transaction,
 * so every page comes from the same snapshot while writers go on; on an
 * in-memory database it reads through s (later writes of s may show).
 * after: start after this key (a map of the key attributes), NULL: from
 * the first item.
 */
typedef struct store_items store_items;

status store_items_backup(store *s, const char *arn, const av *after, store_items **out, diag *d);
/* at_ms within store_log_window (ST_INVALID_RESTORE_TIME otherwise);
 * at_ms past now reads the table as it is. */
status store_items_at(store *s, const char *table, int64_t at_ms, const av *after,
                      store_items **out, diag *d);
/* Up to max items into items[0..*n) (M avs, the caller's: av_done each);
 * *n < max only at the end. */
status store_items_next(store_items *r, size_t max, av *items, size_t *n, diag *d);
/* The definition the items follow (keys and indexes of the backup or
 * table); valid until store_items_free. */
const table_def *store_items_def(const store_items *r);
void store_items_free(store_items *r);

/* One item at a time from a reader, a page read ahead: the shape a
 * key-ordered merge takes (ddbx diff's sides, :samples' comparison).
 * The cursor owns r and frees it in store_items_cursor_done. */
#define STORE_ITEMS_PAGE 256
typedef struct store_items_cursor {
    store_items *r;
    av page[STORE_ITEMS_PAGE];
    size_t n, at;
    bool end;
} store_items_cursor;
status store_items_cursor_next(store_items_cursor *c, av *item, bool *end, diag *d);
void store_items_cursor_done(store_items_cursor *c);

#endif
