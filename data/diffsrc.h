/*
 * diffsrc — the two sides of `ddbx diff`: the items of one state of a
 * table, handed out in key order for model/tdiff's merge.
 *
 * A side is named by text (diffsrc_parse):
 *   TABLE              a table of the database (--db, DDBX_DB, the default)
 *   FILE:TABLE         a table of another database file, or the items an
 *                      export file gives that table (batch, workbench)
 *   FILE, -            an export file in any format `ddbx load` reads
 *                      (stdin for -)
 *   remote:TABLE       a table on the endpoint of --endpoint-url, --region
 *                      and --profile, read with Scan (read-only)
 *   backup:NAME, ARN   a backup (arn:aws:dynamodb:REGION:ACCOUNT:table/T/backup/ID)
 *                      of the database; a name two backups share is refused
 *   [FILE:]TABLE@TIME  a table as it was at TIME (ISO 8601, 2026-12-01T10:00:00Z)
 * The last two read through the store's key-ordered readers
 * (store_items_backup, store_items_at: data/store_backup.h), ordered.
 *
 * Every source is a diffsrc_reader: items one at a time, in the key order
 * of its table (ordered) or in no order (a remote Scan, a file). Reading
 * starts with diffsrc_start and the key the diff compares by; a reader
 * that is not ordered by that key is first spooled into a temporary
 * SQLite file (deleted when closed) and read back sorted by SQLite's own
 * external merge sort: bounded memory (a 4 MB page cache, the sort in
 * runs on disk) and no hand-made sorter, while an input found already in
 * key order while it was spooled is read back as it was written, without
 * a sort. A local table is read with the store's keyset-paged Scan
 * (ExclusiveStartKey, 1 MB pages): key order, constant memory. Two items
 * of a file with one key: the later is kept, as `ddbx load` would leave
 * it (counted in diffsrc_stats); of a table spooled by another key
 * (--key): an error, since that key does not tell its items apart.
 *
 * Ownership: a diffsrc owns its store, remote, import source, spool and
 * the items it has not handed out; an item diffsrc_next hands out is the
 * caller's. The spec's strings are the spec's (diffsrc_spec_done). The
 * options' pointers are borrowed and must outlive the source.
 */
#ifndef DDBX_DIFFSRC_H
#define DDBX_DIFFSRC_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "data/import.h"
#include "data/remote.h"
#include "data/store.h"
#include "model/av.h"
#include "model/schema.h"
#include "model/status.h"

typedef enum {
    DIFFSRC_TABLE,     /* db (NULL: the default database), table */
    DIFFSRC_FILE,      /* path ("-": stdin); table: the one the file names, or NULL */
    DIFFSRC_REMOTE,    /* table */
    DIFFSRC_BACKUP,    /* backup: a name or an ARN */
    DIFFSRC_TIME,      /* db, table, at_ms */
} diffsrc_kind;

typedef struct diffsrc_spec {
    diffsrc_kind kind;
    char *db, *table, *path, *backup;
    int64_t at_ms;     /* DIFFSRC_TIME: milliseconds since the epoch */
} diffsrc_spec;

/* Text -> spec (the forms above; a file is told from a table by existing,
 * a database file from an export file by its first bytes). ST_USAGE
 * with the reason for text that names nothing it can read. */
status diffsrc_parse(const char *text, diffsrc_spec *out, diag *d);
void diffsrc_spec_done(diffsrc_spec *s);

/*
 * A key-ordered reader: the shape every source takes, and what a backup
 * or a point in time plugs in as. next fills an uninitialised *item (the
 * caller's) or says *end; locate (may be NULL) writes where the item
 * last handed out came from into d's file, line and column and returns a
 * label for messages ("item 12"); close frees self.
 */
typedef struct diffsrc_reader {
    status (*next)(void *self, av *item, bool *end, diag *d);
    const char *(*locate)(void *self, diag *d);
    void (*close)(void *self);
    void *self;
    bool ordered;      /* items ascend in the key order of the source's table */
} diffsrc_reader;

typedef struct diffsrc_opts {
    const char *db;             /* the database of a bare TABLE */
    /* The database's store, open already (the explorer's); NULL: each
     * side opens db read-only itself. Borrowed: a bare TABLE, backup:
     * and TABLE@TIME of db read through it, so an in-memory database
     * works too; it must outlive the sources. */
    store *store;
    const remote_opts *remote;  /* remote:TABLE's endpoint; NULL: none given */
    import_format format;       /* of export files (IMPORT_AUTO: detected) */
    volatile sig_atomic_t *stop;/* set (SIGINT) to stop reading; may be NULL */
} diffsrc_opts;

typedef struct diffsrc diffsrc;

/* Opens the source spec names; side ("A", "B") leads its messages. */
status diffsrc_open(const diffsrc_spec *spec, const diffsrc_opts *o, const char *side,
                    diffsrc **out, diag *d);
void diffsrc_free(diffsrc *s);

/* The table definition the source knows (its table's, a Workbench
 * model's), or NULL: an export file says no key schema. */
const table_def *diffsrc_def(const diffsrc *s);
/* What it reads, for people: "SocialGraph in /home/u/ddbx.db",
 * "snap.jsonl (jsonl)", "remote Orders at http://127.0.0.1:8000 (us-east-1)". */
const char *diffsrc_describe(const diffsrc *s);

typedef struct diffsrc_stats {
    uint64_t read;          /* items read from the source */
    uint64_t spooled;       /* of them, into the spool (0: read in order) */
    uint64_t duplicates;    /* file items whose key came again (the later kept) */
    bool sorted;            /* the spool was sorted (it was not in key order) */
    double capacity;        /* read capacity units a remote reported */
} diffsrc_stats;
void diffsrc_get_stats(const diffsrc *s, diffsrc_stats *st);

/* Called while diffsrc_start spools, every few thousand items. */
typedef void (*diffsrc_progress_fn)(void *ud, const diffsrc *s, uint64_t spooled);

/*
 * Starts reading in the order of key pk, sk (sk->name NULL: none): at
 * once when the source is ordered by exactly that key, else after
 * spooling it all (progress called meanwhile). An item without the key,
 * or with another type, fails with its place (FILE:LINE:COL, item N).
 */
status diffsrc_start(diffsrc *s, const key_attr *pk, const key_attr *sk,
                     diffsrc_progress_fn progress, void *ud, diag *d);

/* The next item in key order (model/tdiff's tdiff_next_fn; ctx a diffsrc). */
status diffsrc_next(void *ctx, av *item, bool *end, diag *d);

#endif
