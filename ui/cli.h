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

#include <signal.h>
#include <stdio.h>

#include "data/remote.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/cost.h"
#include "model/status.h"
#include "ui/opts.h"
#include "ui/paths.h"

/* Writes the samples' pattern files into dir (NULL: the database's
 * folder, paths_patterns_dir) and says where on f; 0, or -1 with the error
 * on stderr. f NULL (the explorer): silent either way. */
int cli_write_sample_patterns(const char *dir, const char *db_path, FILE *f);

/* `--read-only` anywhere in argv: removes it (compacting argv) and makes
 * cli_store_flags() include STORE_READ_ONLY, so every subcommand opens the
 * database so that no write can happen. main() calls it before dispatch. */
void cli_take_read_only(int *argc, char **argv);
/* Flags for store_open: STORE_READ_ONLY after --read-only, else 0. */
unsigned cli_store_flags(void);

/*
 * The rows of option tables (ui/opts.h) that several commands share,
 * spliced into a command's table as git's OPT__VERBOSE is:
 *   CLI_OPT_DB(&db)              --db FILE
 *   CLI_OPTS_REMOTE(&ro)         --endpoint-url URL, --region R, --profile P
 *                                (the values point into argv; zero ro first)
 *   CLI_OPTS_STREAM_TIMES(&r, &i) --stream-retention S (how long change
 *                                records are kept; 24 hours unless given),
 *                                --iterator-lifetime S (how long a shard
 *                                iterator is accepted; 15 minutes); 0: not given
 *   CLI_OPT_TTL_INTERVAL(&s)     --ttl-interval S: how often the store's TTL
 *                                sweep runs (start at CLI_TTL_INTERVAL; 0: never)
 */
#define CLI_OPT_DB(v) OPT_STRING("db", "FILE", (v), "the database file (default: $DDBX_DB, else ~/.local/share/ddbx/ddbx.db)")
#define CLI_OPTS_REMOTE(ro) \
    OPT_STRING("endpoint-url", "URL", &(ro)->endpoint_url, "a DynamoDB endpoint instead of the local store"), \
    OPT_STRING("region", "R", &(ro)->region, "DynamoDB in AWS region R"), \
    OPT_STRING("profile", "P", &(ro)->profile, "the AWS profile (credentials, region)")
#define CLI_OPTS_STREAM_TIMES(ret, life) \
    OPT_SECONDS("stream-retention", (ret), 0, 1e9, OPT_ABOVE_LO, "keep change records S seconds"), \
    OPT_SECONDS("iterator-lifetime", (life), 0, 1e9, OPT_ABOVE_LO, "accept a shard iterator S seconds")
#define CLI_TTL_INTERVAL 5.0
#define CLI_OPT_TTL_INTERVAL(v) \
    OPT_SECONDS("ttl-interval", (v), 0, 1e9, 0, "run the TTL sweep every S seconds (0: never)")

/* Where a command that takes CLI_OPT_DB and CLI_OPTS_REMOTE works: 1
 * remote (a remote flag given), 0 local, -1 after a message on stderr
 * (ddbx CMD: ..., cmd NULL: the explorer's ddbx: ...) when --db comes
 * with a remote flag. */
int cli_where(const char *cmd, const char *flag_db, const remote_opts *ro);

/* `"name":"value"` (JSON-escaped), or `"name":null` for val NULL,
 * appended to b: the members of check's and doctor's JSON reports. */
void cli_json_member(buf *b, const char *name, const char *val);

/* A store to read, nothing written: the local database (--db, else the
 * default) opened read-only, or with rem set the remote endpoint of *ro
 * (*rp gets the remote; close it after the store) without writes. d names
 * what could not be opened. */
struct store;
status cli_open_read_store(const char *flag_db, int rem, const remote_opts *ro, remote **rp,
                           struct store **out, diag *d);

/* What a command that reads tables and writes nothing works on (ddbx
 * doctor, ddbx model): the store opened to read (cli_open_read_store) and
 * its tables, those named after the command, else every table of the
 * store. Zero it before cli_read_set_open; cli_read_set_close frees it,
 * opened or not. */
typedef struct cli_read_set {
    struct store *st;
    remote *r;
    char **tables;
    size_t n_tables;
    char **all;           /* the store's names, when no table was named */
    size_t n_all;
} cli_read_set;

/* Opens t for who ("ddbx doctor"): the tables are argv[1..argc-1]. 0; 2
 * when the store does not open, 1 when its tables cannot be listed, after
 * saying on stderr (WHO: ...) why. */
int cli_read_set_open(cli_read_set *t, const char *who, const char *flag_db, int rem,
                      const remote_opts *ro, int argc, char **argv);
/* After a remote read, the end of the line the command began on stderr
 * ("ddbx doctor: read 120 items"): " from ENDPOINT, N read capacity units
 * consumed; nothing was written". */
void cli_read_set_said(const cli_read_set *t);
void cli_read_set_close(cli_read_set *t);

/* The access patterns of the files named (n_files of them), else of
 * every file of the database's pattern folder (flag_db, else the
 * default database: paths_patterns_dir), into *sets (n of them, each
 * pattern_set_done and the array freed by the caller). 0, or 2 after
 * saying on stderr (WHO: FILE:LINE:COL: ...) which file does not parse
 * (ui/cli_model_md.c: model's design document and doctor). */
struct pattern_set;
int cli_load_pattern_sets(const char **files, size_t n_files, const char *flag_db, const char *who,
                          struct pattern_set **sets, size_t *n);

/* The prices of region from file (NULL: the built-in price file), for
 * --cost and the design document; 0, or 2 after saying on stderr (WHO:
 * FILE:LINE:COL: ...) why not: a file that does not parse, a region it
 * does not have. pt is initialised by the caller (ui/cli_model_md.c). */
int cli_load_prices(const char *file, const char *region, const char *who, price_table *pt,
                    const price_region **p);

/* `ddbx eval EXPR ...`: parse, check and evaluate an expression. */
int cli_eval(int argc, char **argv);
/* The command line of `ddbx eval` (one table for both kinds, ui/cli_eval.c). */
typedef struct cli_eval_args {
    const char *text, *kind, *names_j, *values_j, *item_j, *schema, *params_j;
    opts_list indexes;   /* --index NAME=PK[:T][,SK[:T]], partiql only */
} cli_eval_args;
/* `ddbx eval --kind partiql STATEMENT ...` (cli_eval_partiql.c). */
int cli_eval_partiql(const cli_eval_args *a);
/* For eval's output: text with control bytes escaped; an error with the
 * text and a caret under d->pos (cli_eval.c). */
void cli_put_clean(FILE *f, const char *s, size_t n);
void cli_show_error_at(const diag *d, const char *text);
/* Text of several lines, each through cli_put_clean (cli_eval.c). */
void cli_put_lines(const buf *b);
/* An option's item in DynamoDB JSON (--item, --values) into out; 0, or 2
 * with "ddbx eval: OPT: path: message" on stderr (cli_eval.c). */
int cli_parse_item_option(const char *flag, const char *json, av *out, diag *d);
/* "PK[:S|N|B][,SK[:S|N|B]]" into malloc'd names (sk may stay NULL) and
 * types; -1 when malformed. */
int cli_parse_key_schema(const char *spec, char **pk, av_type *pkt, char **sk, av_type *skt);

/* `ddbx api [--db FILE]` (cli_api.c). */
int cli_api(int argc, char **argv);

/* `ddbx serve [--db FILE] [--port N] [--host ADDR] ...` (and DynamoDB
 * Local's command line): the store as a DynamoDB endpoint over HTTP
 * (cli_serve.c). */
int cli_serve(int argc, char **argv);

/* Subcommands (argv[0] is the subcommand's name). */
int cli_samples(int argc, char **argv);   /* ui/cli_samples.c */
int cli_load(int argc, char **argv);      /* ui/cli_load.c */
int cli_export(int argc, char **argv);    /* ui/cli_export.c */
int cli_pull(int argc, char **argv);      /* ui/cli_pull.c: a remote table into the store */
int cli_check(int argc, char **argv);     /* ui/cli_check.c: run a pattern file's access patterns */
int cli_patterns(int argc, char **argv);  /* ui/cli_patterns.c: access patterns of recorded traffic */
int cli_model(int argc, char **argv);     /* ui/cli_model.c: the entities of the tables */
int cli_doctor(int argc, char **argv);    /* ui/cli_doctor.c: what hurts a design */
int cli_push(int argc, char **argv);      /* ui/cli_push.c: local tables onto an endpoint */
int cli_diff(int argc, char **argv);      /* ui/cli_diff.c: what differs between two table states */
int cli_evolve(int argc, char **argv);    /* ui/cli_evolve.c: new key attributes, then a GSI on them */

/* `ddbx whoami [--profile P] [--region R]`: who the credentials are, as
 * `aws sts get-caller-identity` prints it (ui/cli_whoami.c). */
int cli_whoami(int argc, char **argv);
/* "ARN, profile P" (from the provider, else STS when the endpoint is AWS's
 * or an STS endpoint is configured), else "profile P, keys from SOURCE":
 * for the explorer's status line. Never a secret. */
void cli_identity(const remote *r, char *out, size_t n);

/* `ddbx [--db FILE] [TABLE]`: the explorer (ui/cli_explore.c). */
int cli_explore(int argc, char **argv);

struct store;
/* Loads the bundled sample tables into st (for `:samples` and the first
 * run); returns how many tables, or -1 with d filled. */
int cli_explore_samples(struct store *st, diag *d);

/* A diagnostic on stderr, one line: "PREFIX: FILE:LINE:COL: Code: message
 * (attribute PATH)" (ui/cli_diag.c). */
void cli_print_diag(const char *prefix, const diag *d);
/* Writes s with control characters escaped (\xNN). */
void cli_fputs_safe(FILE *fp, const char *s);
/* The same, keeping newlines: text of several lines. */
void cli_fputs_lines(FILE *fp, const char *s);
/* A file's error on stderr: "PREFIX: FILE:LINE:COL: message" (a pattern,
 * model or price file that does not parse). */
void cli_print_file_diag(const char *prefix, const diag *d);

/* A long command stoppable by SIGINT and SIGTERM (`ddbx push`, `ddbx
 * evolve`): cli_stops_on catches both, setting cli_stop_signal to the
 * signal's number (the command's loop stops at its next step, where it
 * can say what was written); cli_stops_off puts the previous handlers
 * back. cli_stop_exit: the exit status a stop by that signal gets (130,
 * 143), else fail. */
extern volatile sig_atomic_t cli_stop_signal;
typedef struct cli_stops {
    struct sigaction old_int, old_term;
} cli_stops;
void cli_stops_on(cli_stops *c);
void cli_stops_off(cli_stops *c);
int cli_stop_exit(int fail);

#endif
