/*
 * paths — where the database and its pattern folder live, for the
 * command line (ui/cli*.c) and the explorer's views alike: the explorer
 * asks here, not the command line's helpers (tools/check-layers.sh).
 *
 * Ownership: each call returns a malloc'd path the caller frees.
 */
#ifndef DDBX_PATHS_H
#define DDBX_PATHS_H

/* The database path: --db, else $DDBX_DB, else $XDG_DATA_HOME/ddbx/ddbx.db,
 * else ~/.local/share/ddbx/ddbx.db. Creates the directory (0700) when
 * create is set. Returns a malloc'd path. */
char *paths_db(const char *flag_db, int create);

/* The folder of access-pattern files that goes with a database: the
 * database's folder + "/patterns". `ddbx samples` writes the samples'
 * files there; the explorer lists every *.json in it and :save-pattern
 * writes saved.json there. Malloc'd. */
char *paths_patterns_dir(const char *db_path);

#endif
