/*
 * cli — helpers shared by the subcommands (declared in ui/cli.h): where
 * the database lives, and the --db flag. Kept out of main.c so that
 * subcommand files link into the ui tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"

static unsigned store_flags;

void cli_take_read_only(int *argc, char **argv)
{
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && strcmp(argv[i], "--read-only") == 0) {
            store_flags |= STORE_READ_ONLY;
            continue;
        }
        argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = NULL;
}

unsigned cli_store_flags(void)
{
    return store_flags;
}

const char *cli_take_db(int *argc, char **argv)
{
    const char *db = NULL;
    int out = 0;
    for (int i = 0; i < *argc; i++) {
        if (strcmp(argv[i], "--db") == 0 && i + 1 < *argc) {
            db = argv[++i];
            continue;
        }
        if (strncmp(argv[i], "--db=", 5) == 0) {
            db = argv[i] + 5;
            continue;
        }
        argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = NULL;
    return db;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]: 1 and *val set (advancing
 * *i past a separate value), 0 not this flag, -1 the value is missing. */
static int flag_value(int argc, char **argv, int *i, const char *name, const char **val)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0)
        return 0;
    if (argv[*i][n] == '=') {
        *val = argv[*i] + n + 1;
        return **val ? 1 : -1;
    }
    if (argv[*i][n] != '\0')
        return 0;
    if (*i + 1 >= argc || argv[*i + 1][0] == '\0')
        return -1;
    *val = argv[++*i];
    return 1;
}

int cli_take_remote(int *argc, char **argv, remote_opts *o, int *write)
{
    static const char *const names[] = { "--endpoint-url", "--region", "--profile" };
    int out = 0, any = 0, bad = 0;
    memset(o, 0, sizeof *o);
    for (int i = 0; i < *argc; i++) {
        if (i > 0 && strcmp(argv[i], "--write") == 0) {
            if (write)
                *write = 1;
            any = 1;
            continue;
        }
        int taken = 0;
        for (size_t k = 0; i > 0 && k < sizeof names / sizeof names[0] && !taken; k++) {
            const char *v = NULL;
            int r = flag_value(*argc, argv, &i, names[k], &v);
            if (r == 0)
                continue;
            taken = 1;
            if (r < 0) {
                fprintf(stderr, "ddbx: %s needs a value\n", names[k]);
                bad = 1;
                continue;
            }
            any = 1;
            if (k == 0)
                o->endpoint_url = v;
            else if (k == 1)
                o->region = v;
            else
                o->profile = v;
        }
        if (!taken)
            argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = NULL;
    return bad ? -1 : any;
}

int cli_take_stream_times(int *argc, char **argv, double *retention, double *iterator)
{
    static const char *const names[] = { "--stream-retention", "--iterator-lifetime" };
    int out = 0, bad = 0;
    *retention = *iterator = 0;
    for (int i = 0; i < *argc; i++) {
        int taken = 0;
        for (size_t k = 0; i > 0 && k < 2 && !taken; k++) {
            const char *v = NULL;
            int r = flag_value(*argc, argv, &i, names[k], &v);
            if (r == 0)
                continue;
            taken = 1;
            char *end = NULL;
            double x = r > 0 ? strtod(v, &end) : 0;
            if (r < 0 || !end || *end || !(x > 0) || x > 1e9) {
                fprintf(stderr, "ddbx: %s needs a number of seconds above 0\n", names[k]);
                bad = 1;
                continue;
            }
            *(k == 0 ? retention : iterator) = x;
        }
        if (!taken)
            argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = NULL;
    return bad ? -1 : 0;
}

int cli_take_ttl_interval(int *argc, char **argv, double *secs)
{
    int out = 0, bad = 0;
    *secs = CLI_TTL_INTERVAL;
    for (int i = 0; i < *argc; i++) {
        const char *v = NULL;
        int r = i > 0 ? flag_value(*argc, argv, &i, "--ttl-interval", &v) : 0;
        if (r == 0) {
            argv[out++] = argv[i];
            continue;
        }
        char *end = NULL;
        double x = r > 0 ? strtod(v, &end) : -1;
        if (r < 0 || !end || *end || !(x >= 0) || x > 1e9) {
            fprintf(stderr, "ddbx: --ttl-interval needs a number of seconds (0: no sweep)\n");
            bad = 1;
            continue;
        }
        *secs = x;
    }
    *argc = out;
    argv[out] = NULL;
    return bad ? -1 : 0;
}

status cli_open_read_store(const char *flag_db, int rem, const remote_opts *ro, remote **rp,
                           store **out, diag *d)
{
    if (!rem) {
        char *path = paths_db(flag_db, 0);
        status st = store_open(path, STORE_READ_ONLY, out, d);   /* d names the path */
        free(path);
        return st;
    }
    status st = remote_open(ro, rp, d);
    if (st == ST_OK)
        st = store_open_remote(remote_send, *rp, remote_describe(*rp), 0, out, d);
    return st;
}

int cli_tables_or_all(store *st, const char *who, char ***tables, size_t *n_tables, char ***all,
                      size_t *n_all)
{
    *all = NULL;
    *n_all = 0;
    if (*n_tables)
        return 0;
    diag d;
    diag_init(&d);
    if (store_list_tables(st, all, n_all, &d) != ST_OK) {
        cli_print_diag(who, &d);
        return 1;
    }
    *tables = xrealloc(*tables, (*n_all + 1) * sizeof **tables);
    for (size_t i = 0; i < *n_all; i++)
        (*tables)[(*n_tables)++] = (*all)[i];
    return 0;
}

int cli_take_store(int *argc, char **argv, const char *cmd, const char **flag_db, remote_opts *ro)
{
    *flag_db = cli_take_db(argc, argv);
    memset(ro, 0, sizeof *ro);
    int rem = cli_take_remote(argc, argv, ro, NULL);
    if (rem > 0 && *flag_db) {
        fprintf(stderr, "ddbx %s: --db names a local database; it cannot be combined with"
                " --endpoint-url, --region or --profile\n", cmd);
        return -1;
    }
    return rem;
}
