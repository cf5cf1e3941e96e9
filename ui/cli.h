/*
 * cli — the command-line front: `ddbx SUBCOMMAND ...`.
 *
 * Each subcommand is a function taking the arguments after its name
 * (argv[0] is the subcommand) and returning the process exit status. The
 * table in main.c maps names to them. Subcommands print their own output
 * and errors; a usage error exits 2, a failed operation 1.
 */
#ifndef DDBX_CLI_H
#define DDBX_CLI_H

/* The database path: --db, else $DDBX_DB, else $XDG_DATA_HOME/ddbx/ddbx.db,
 * else ~/.local/share/ddbx/ddbx.db. Creates the directory (0700) when
 * create is set. Returns a malloc'd path. */
char *cli_db_path(const char *flag_db, int create);

/* Parses a leading `--db FILE` / `--db=FILE` anywhere in argv; removes it
 * from argv (compacting) and returns the value or NULL. */
const char *cli_take_db(int *argc, char **argv);

/* `ddbx eval EXPR ...`: parse, check and evaluate an expression. */
int cli_eval(int argc, char **argv);

/* `ddbx api [--db FILE]` (cli_api.c). */
int cli_api(int argc, char **argv);

#endif
