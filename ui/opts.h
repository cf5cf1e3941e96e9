/*
 * opts — a command's options as data, as git's parse-options.h has them:
 * an array of `opt` built with OPT_BOOL, OPT_STRING, OPT_INTEGER,
 * OPT_SECONDS and ended by OPT_END(), and a usage line. One parser
 * (opts_parse) walks argv against it; `--help` (and `-h`) prints the same
 * table (opts_usage), and tests/man checks the man page's synopsis
 * against what it prints.
 *
 * A table may splice in rows several commands share (ui/cli.h's
 * CLI_OPTS_REMOTE: --endpoint-url, --region, --profile) as git's
 * OPT__VERBOSE does: a macro that expands to the rows.
 *
 * Spellings: an entry's name "port" is taken as `--port N` and
 * `--port=N`; its `also` spelling is taken exactly as written, for the
 * spellings another program gives the same option (DynamoDB Local's
 * single-dash `-port N`, `-inMemory`), and --help prints it beside the
 * ddbx spelling. A bool takes no value (`--x=...` is refused).
 *
 * Ownership: the table and its strings are the caller's (static data);
 * a string option's value points into argv. Values not given keep what
 * the caller put there, so defaults are the caller's initial values.
 * Messages go to stderr as "ddbx CMD: ...", then the usage line; nothing
 * here exits.
 */
#ifndef DDBX_OPTS_H
#define DDBX_OPTS_H

#include <stdbool.h>
#include <stdio.h>

typedef enum opt_kind {
    OPT_KIND_END,
    OPT_KIND_BOOL,      /* bool *: set true when given */
    OPT_KIND_STRING,    /* const char **: the value as given (not empty) */
    OPT_KIND_INTEGER,   /* long *: a whole number from lo to hi */
    OPT_KIND_SECONDS,   /* double *: a number of seconds, lo (or above it) to hi */
    OPT_KIND_NUMBER,    /* double *: a number (of what arg names), lo (or above it) to hi */
    OPT_KIND_HELP,      /* another spelling of --help (name NULL: only `also`) */
    OPT_KIND_LIST,      /* opts_list *: a string option given any number of times */
    OPT_KIND_REFUSE,    /* not this command's: refused with help as the reason; not in --help */
} opt_kind;

/* The values of a repeatable option, in the order given; v is the
 * caller's to free (opts_list_free), its strings point into argv. */
typedef struct opts_list {
    const char **v;
    size_t n;
} opts_list;

/* flags */
#define OPT_ABOVE_LO 1u   /* a number must be above lo, not equal to it */

typedef struct opt {
    opt_kind kind;
    const char *name;   /* the ddbx spelling without "--" ("port"); NULL: `also` only */
    const char *also;   /* another spelling, taken as written ("-port"), or NULL */
    const char *arg;    /* the value's name in the help ("N", "FILE"); NULL for a bool */
    const char *help;   /* one line */
    void *value;
    double lo, hi;      /* bounds of a number */
    unsigned flags;
} opt;

#define OPT_END() { .kind = OPT_KIND_END }
#define OPT_BOOL(n, v, h) { .kind = OPT_KIND_BOOL, .name = (n), .help = (h), .value = (v) }
#define OPT_STRING(n, a, v, h) { .kind = OPT_KIND_STRING, .name = (n), .arg = (a), .help = (h), .value = (v) }
#define OPT_INTEGER(n, a, v, l, u, h) \
    { .kind = OPT_KIND_INTEGER, .name = (n), .arg = (a), .help = (h), .value = (v), .lo = (l), .hi = (u) }
#define OPT_SECONDS(n, v, l, u, f, h) \
    { .kind = OPT_KIND_SECONDS, .name = (n), .arg = "S", .help = (h), .value = (v), .lo = (l), .hi = (u), \
      .flags = (f) }
#define OPT_NUMBER(n, a, v, l, u, h) \
    { .kind = OPT_KIND_NUMBER, .name = (n), .arg = (a), .help = (h), .value = (v), .lo = (l), .hi = (u) }
#define OPT_STRING_LIST(n, a, v, h) { .kind = OPT_KIND_LIST, .name = (n), .arg = (a), .help = (h), .value = (v) }
#define OPT_REFUSE(n, why) { .kind = OPT_KIND_REFUSE, .name = (n), .help = (why) }
/* The same with another program's spelling beside the ddbx one. */
#define OPT_BOOL_ALSO(n, al, v, h) { .kind = OPT_KIND_BOOL, .name = (n), .also = (al), .help = (h), .value = (v) }
#define OPT_STRING_ALSO(n, al, a, v, h) \
    { .kind = OPT_KIND_STRING, .name = (n), .also = (al), .arg = (a), .help = (h), .value = (v) }
#define OPT_INTEGER_ALSO(n, al, a, v, l, u, h) \
    { .kind = OPT_KIND_INTEGER, .name = (n), .also = (al), .arg = (a), .help = (h), .value = (v), .lo = (l), \
      .hi = (u) }
#define OPT_HELP_ALSO(al) { .kind = OPT_KIND_HELP, .also = (al), .help = "this help" }

typedef struct opts_cmd {
    const char *name;       /* "serve": messages say "ddbx serve: ..."; NULL: ddbx itself (the explorer) */
    const char *usage;      /* after "usage: ": "ddbx serve [options]" */
    const char *about;      /* a paragraph after the table, or NULL */
    const char *also_from;  /* whose spellings the `also`s are ("DynamoDB Local"), for --help */
    const opt *opts;        /* ended by OPT_END() */
    bool positional;        /* arguments that are not options are kept (else refused) */
} opts_cmd;

enum {
    OPTS_OK = 0,     /* parsed; argv compacted to the positional arguments */
    OPTS_HELP = 1,   /* --help given: the table was printed on stdout (exit 0) */
    OPTS_ERROR = 2,  /* a bad option: said on stderr with the usage line (exit 2) */
};

/* Parses argv[1..*argc) (argv[0] is the command's name) against c's
 * table; "--" ends the options. On OPTS_OK, argv[1..*argc) are the
 * positional arguments in order (NULL after them). */
int opts_parse(const opts_cmd *c, int *argc, char **argv);

/* A bad value found after parsing, said as opts_parse says its own:
 * "ddbx CMD: " fmt (with word in it), then the usage line; OPTS_ERROR. */
int opts_refuse(const opts_cmd *c, const char *fmt, const char *word);

/* Frees what a repeatable option's values took (the strings are argv's). */
void opts_list_free(opts_list *l);

/* opts_parse for a command's main: -1 to go on (argv[1..*argc) the
 * positional arguments), else the exit status: 0 after --help, 2 after a
 * bad option. */
int opts_main(const opts_cmd *c, int *argc, char **argv);

/* The usage line and the table, as --help prints them. */
void opts_usage(const opts_cmd *c, FILE *f);

/* After opts_main, for a command that takes exactly one positional
 * argument (what: "TABLE", "FILE"): 0 when there is one, else
 * OPTS_ERROR after "ddbx CMD: one WHAT at a time ('SECOND')" (when there
 * are more) and the usage on stderr. */
int opts_one_positional(const opts_cmd *c, int argc, char **argv, const char *what);

#endif
