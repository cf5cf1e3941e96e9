/*
 * serve_dbs — the databases `ddbx serve` answers from, and each worker
 * thread's connection to them (ui/cli_serve.c).
 *
 * The rules:
 *   SERVE_DBS_ONE      ddbx's own: one database (--db FILE, the default
 *                      one, or --in-memory), whatever the credentials.
 *   SERVE_DBS_PER_KEY  DynamoDB Local's without -sharedDb: one database
 *                      per access key ID and region of the request's
 *                      SigV4 credential scope, the file KEY_REGION.db in
 *                      the folder (or one in memory each), opened at its
 *                      first request ("If you omit -sharedDb, the database
 *                      file is named myaccesskeyid_region.db", DynamoDB
 *                      local usage notes; the names as DynamoDB Local 3.3.1
 *                      makes them, seen here 2026-12-06: AKIDabc_us-west-2.db).
 *   SERVE_DBS_SHARED   DynamoDB Local's -sharedDb: shared-local-instance.db
 *                      in the folder (or one in memory).
 * Each database is a store of its own, so its Streams, backups and TTL
 * are its own. A DynamoDB Local file (its own SQLite schema) is never
 * opened as one: store_open refuses it, naming it.
 *
 * Connections: each worker thread opens its own connection to a database
 * at its first request there (the first connection, else a peer of it),
 * at most max_conns a database; the TTL sweep has one more of each.
 * Descriptors: each connection to a file holds two (the database and its
 * WAL) and a database one more (its shared memory), serve_dbs_fds_each
 * in all; SERVE_DBS_PER_KEY opens a database a new key and region, so
 * with max_open it opens at most that many at once and refuses the next
 * key (ST_LIMIT_EXCEEDED, a message naming the bound and the file limit)
 * rather than run out of descriptors mid-open or starve the server's
 * accept (ui/httpd.h counts max_open of them in its reserve). A database
 * stays open until the server stops: its workers' connections are cached
 * on their threads.
 * Thread-safe: serve_dbs_conn may be called by every worker at once.
 */
#ifndef DDBX_SERVE_DBS_H
#define DDBX_SERVE_DBS_H

#include <stdbool.h>
#include <stddef.h>

#include "data/store.h"
#include "model/status.h"

typedef struct serve_dbs serve_dbs;

typedef enum serve_dbs_rule {
    SERVE_DBS_ONE,
    SERVE_DBS_PER_KEY,
    SERVE_DBS_SHARED,
} serve_dbs_rule;

typedef struct serve_dbs_opts {
    serve_dbs_rule rule;
    const char *path;          /* ONE: the file or ":memory:"; else the folder (NULL with memory) */
    bool memory;               /* PER_KEY, SHARED: databases in memory */
    unsigned store_flags;      /* for store_open */
    size_t max_conns;          /* per database: the worker threads */
    double retention, lifetime;   /* store_set_stream_times (0: its defaults) */
    size_t max_open;           /* PER_KEY: databases open at once (0: no bound) */
    size_t file_limit;         /* the process's, for the refusal's message */
} serve_dbs_opts;

/* The descriptors one database of o's holds at most (its connections'
 * files; 0 in memory), beyond the transient ones of a statement. */
size_t serve_dbs_fds_each(const serve_dbs_opts *o);

/* Makes the set; ONE and SHARED open their database now (so a bad file
 * is said at start), and a folder holding a *.db file that is not
 * ddbx's (a DynamoDB Local dbPath folder) is refused whole, nothing in
 * it touched. NULL with d filled when it cannot be opened. */
serve_dbs *serve_dbs_new(const serve_dbs_opts *o, diag *d);
void serve_dbs_free(serve_dbs *s);

/* The calling worker thread's connection to the database for the
 * credential scope's key and region (ignored by ONE and SHARED). NULL
 * with d filled: ST_USAGE for a key or region that cannot name a file
 * (DynamoDB Local takes letters and digits in a key ID),
 * ST_LIMIT_EXCEEDED for a new one past max_open, else why it could not
 * be opened. */
store *serve_dbs_conn(serve_dbs *s, const char *key, const char *region, diag *d);

/* The database's file name for a key and region ("KEY_REGION.db") into
 * out; false when the key is not letters and digits or the region not
 * letters, digits and '-'. */
bool serve_dbs_file_name(const char *key, const char *region, char *out, size_t n);

/* One TTL sweep step on every database opened (a connection of its own
 * each, on the calling thread): store_ttl_sweep's budget a database.
 * Messages for failures go to stderr. */
void serve_dbs_sweep(serve_dbs *s, double now, size_t budget);

#endif
