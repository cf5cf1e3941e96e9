/*
 * cli_explore — `ddbx [--db FILE] [TABLE]`: opens the store and runs the
 * explorer (ui/display). A new default database is seeded with the
 * sample tables once, on first run.
 *
 * `ddbx (--endpoint-url URL | --region R) [--profile P] [--write] [TABLE]`
 * runs the same explorer on a DynamoDB endpoint: the store is then
 * store_open_remote over data/remote's transport, read-only unless
 * --write (and then every write asks first); named conditions are kept in
 * the local default database. The status line says who the requests are
 * signed as (cli_identity); an MFA code needed when assumed-role
 * credentials are refreshed mid-session is asked for on the status line
 * (creds_set_prompt).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/creds.h"
#include "data/remote.h"
#include "data/remote_wait.h"
#include "data/samples.h"
#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/display.h"
#include "ui/prices.h"
#include "ui/live.h"

/* An MFA code asked for while the explorer runs (credentials refreshed
 * mid-session): on its status line, not on the terminal under it. The
 * refresh happens on the thread a request runs on: the question is
 * asked on the screen's thread (remote_waiter_on_caller). */
typedef struct mfa_ask {
    const char *question;
    char *answer;
    size_t cap;
    int rc;
} mfa_ask;

static void ask_mfa(void *arg)
{
    mfa_ask *a = arg;
    buf b = BUF_INIT;
    bool ok = display_prompt(a->question, "", &b);
    snprintf(a->answer, a->cap, "%s", ok && b.data ? b.data : "");
    buf_done(&b);
    a->rc = ok && a->answer[0] ? 0 : -1;
}

static int explorer_prompt(void *ctx, const char *question, char *answer, size_t cap)
{
    mfa_ask a = { question, answer, cap, -1 };
    if (ctx)
        remote_waiter_on_caller(ctx, ask_mfa, &a);
    else
        ask_mfa(&a);
    return a.rc;
}

/* A request under way: the screen says what it waits for, Esc cancels. */
static bool explorer_wait(void *ctx, const char *what, double seconds, int attempt, int max_attempts)
{
    (void)ctx;
    return display_wait(what, seconds, attempt, max_attempts);
}

/* The explorer on a remote endpoint. */
static int explore_remote(const remote_opts *o, bool write, const char *table)
{
    remote *r = NULL;
    store *st = NULL;
    diag d;
    diag_init(&d);
    if (remote_open(o, &r, &d) != ST_OK) {
        fprintf(stderr, "ddbx: %s\n", d.msg);
        return 1;
    }
    unsigned flags = (write ? STORE_REMOTE_WRITE : 0) | cli_store_flags();
    /* Every request runs on a worker thread while the screen waits, says
     * what for, and reads Esc (issue 42). */
    remote_waiter *w = remote_waiter_new(r, remote_max_attempts(r), explorer_wait, NULL);
    if (store_open_remote(remote_send_waiting, w, remote_describe(r), flags, &st, &d) != ST_OK) {
        fprintf(stderr, "ddbx: %s\n", d.msg);
        remote_waiter_free(w);
        remote_close(r);
        return 1;
    }
    store_set_send_many(st, remote_send_many, w);   /* the table list's describes */
    store_set_send_mixed(st, remote_send_mixed, w);  /* what opening a table reads */
    /* Saved conditions have no place on an endpoint: they go to the local
     * default database (or DDBX_DB), created only when one is saved. */
    char *local = paths_db(NULL, 1);
    store_set_local_path(st, local, cli_store_flags());
    free(local);
    /* Items per page of the partition count's Scan, and at most per first Scan
     * page; for tests (the default: DynamoDB's 1 MB, and a screen). */
    const char *lim = getenv("DDBX_SCAN_LIMIT");
    if (lim && *lim)
        store_set_scan_limit(st, (size_t)strtoul(lim, NULL, 10));
    char who[640];
    cli_identity(r, who, sizeof who);
    display_set_identity(who);
    creds_set_prompt(explorer_prompt, w);
    prices_set_region(remote_region(r));   /* the money beside the units */
    int rc = display_run(st, remote_describe(r), table);
    creds_set_prompt(NULL, NULL);
    store_close(st);
    remote_waiter_free(w);
    remote_close(r);
    return rc;
}

int cli_explore_samples(struct store *st, diag *d)
{
    size_t tables = 0, items = 0;
    if (samples_load(st, &tables, &items, d) != ST_OK)
        return -1;
    /* :samples in the explorer: their patterns too, for the @ view. */
    if (display_db_path())
        cli_write_sample_patterns(NULL, display_db_path(), NULL);
    return (int)tables;
}

int cli_explore(int argc, char **argv)
{
    display_mark_start();
    const char *flag_db = NULL;
    remote_opts ro = { 0 };
    bool write = false;
    double ttl_every = CLI_TTL_INTERVAL, budget = 0;
    const opt table_opts[] = {
        CLI_OPT_DB(&flag_db),
        CLI_OPT_TTL_INTERVAL(&ttl_every),
        CLI_OPTS_REMOTE(&ro),
        OPT_BOOL("write", &write, "on an endpoint: allow writes, each asked first, staged until :commit"),
        OPT_NUMBER("budget", "RCU", &budget, 0, 1e12, "on an endpoint: the session's read budget (asked before passing it)"),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = NULL,   /* the explorer is `ddbx` itself */
        .usage = "ddbx [--db FILE] [--ttl-interval S] [TABLE]\n"
                 "       ddbx (--endpoint-url URL | --region R) [--profile P] [--write] [--budget RCU] [TABLE]",
        .about = "In the explorer, ? lists the keys and : commands; ddbx --help lists the commands.\n",
        .opts = table_opts,
        .positional = true,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    if (argc > 2)
        return opts_refuse(&cmd, "unknown argument '%s'", argv[2]);
    const char *table = argc == 2 ? argv[1] : NULL;
    live_set_ttl_interval(ttl_every);
    int rem = cli_where(NULL, flag_db, &ro);
    if (rem < 0)
        return 2;
    if (write && !rem)
        return opts_refuse(&cmd, "%s", "--write is for a remote endpoint (--endpoint-url URL or --region R);"
                                       " a local database is writable unless --read-only");
    if (budget > 0 && !rem)
        return opts_refuse(&cmd, "%s", "--budget is for a remote endpoint (--endpoint-url URL or --region R):"
                                       " a local table's reads cost nothing");
    display_set_read_budget(budget);
    if (rem)
        return explore_remote(&ro, write, table);
    bool default_db = !(flag_db && *flag_db) && !(getenv("DDBX_DB") && *getenv("DDBX_DB"));
    char *path = paths_db(flag_db, 1);
    struct stat sb;
    bool fresh = stat(path, &sb) != 0;
    store *st = NULL;
    diag d;
    diag_init(&d);
    if (store_open(path, cli_store_flags(), &st, &d) != ST_OK) {
        fprintf(stderr, "ddbx: %s: %s\n", path, d.msg);
        free(path);
        return 1;
    }
    if (fresh && default_db) {
        if (cli_explore_samples(st, &d) < 0) {
            if (getenv("DDBX_DEBUG"))
                cli_print_diag("ddbx", &d);
        } else {
            cli_write_sample_patterns(NULL, path, NULL);
        }
    }
    int rc = display_run(st, path, table);
    store_close(st);
    free(path);
    return rc;
}
