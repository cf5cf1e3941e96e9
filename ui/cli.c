/*
 * cli — helpers shared by the subcommands (declared in ui/cli.h): where
 * the database lives, and the --db flag. Kept out of main.c so that
 * subcommand files link into the ui tests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbjson.h"
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

/* The tables a command works on: those named (*tables, *n_tables), else,
 * when none was named, every table of st appended to *tables (realloc'd;
 * the names are in *all, freed with store_names_free(*all, *n_all) after
 * use). 0, or 1 after saying on stderr (WHO: ...) why the list failed. */
static int tables_or_all(store *st, const char *who, char ***tables, size_t *n_tables, char ***all,
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

int cli_read_set_open(cli_read_set *t, const char *who, const char *flag_db, int rem,
                      const remote_opts *ro, int argc, char **argv)
{
    t->tables = xcalloc((size_t)argc, sizeof *t->tables);
    t->n_tables = 0;
    for (int i = 1; i < argc; i++)
        t->tables[t->n_tables++] = argv[i];
    diag d;
    diag_init(&d);
    if (cli_open_read_store(flag_db, rem, ro, &t->r, &t->st, &d) != ST_OK) {
        cli_print_diag(who, &d);
        return 2;
    }
    return tables_or_all(t->st, who, &t->tables, &t->n_tables, &t->all, &t->n_all);
}

void cli_read_set_said(const cli_read_set *t)
{
    store_info info;
    store_get_info(t->st, &info);
    fputs(" from ", stderr);
    cli_fputs_safe(stderr, info.where ? info.where : "the endpoint");
    fprintf(stderr, ", %g read capacity units consumed; nothing was written\n", info.rcu);
}

void cli_read_set_close(cli_read_set *t)
{
    if (t->st)
        store_close(t->st);
    if (t->r)
        remote_close(t->r);
    if (t->all)
        store_names_free(t->all, t->n_all);
    free(t->tables);
    memset(t, 0, sizeof *t);
}

int cli_where(const char *cmd, const char *flag_db, const remote_opts *ro)
{
    int rem = ro->endpoint_url || ro->region || ro->profile;
    if (rem && flag_db) {
        fprintf(stderr, "ddbx%s%s: --db names a local database; it cannot be combined with"
                " --endpoint-url, --region or --profile\n", cmd ? " " : "", cmd ? cmd : "");
        return -1;
    }
    return rem;
}

void cli_json_member(buf *b, const char *name, const char *val)
{
    buf_printf(b, "\"%s\":", name);
    if (val)
        ddbjson_write_string(b, val, strlen(val));
    else
        buf_adds(b, "null");
}

volatile sig_atomic_t cli_stop_signal;

static void on_stop_signal(int sig)
{
    cli_stop_signal = sig;
}

void cli_stops_on(cli_stops *c)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &c->old_int);
    sigaction(SIGTERM, &sa, &c->old_term);
}

void cli_stops_off(cli_stops *c)
{
    sigaction(SIGINT, &c->old_int, NULL);
    sigaction(SIGTERM, &c->old_term, NULL);
}

int cli_stop_exit(int fail)
{
    return cli_stop_signal == SIGINT ? 130 : cli_stop_signal == SIGTERM ? 143 : fail;
}
