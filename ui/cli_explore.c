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
#include "data/samples.h"
#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/display.h"
#include "ui/prices.h"
#include "ui/live.h"

static const char usage[] = "usage: ddbx [--db FILE] [--ttl-interval S] [TABLE]\n"
                            "       ddbx (--endpoint-url URL | --region R) [--profile P] [--write] [TABLE]\n";

/* An MFA code asked for while the explorer runs (credentials refreshed
 * mid-session): on its status line, not on the terminal under it. */
static int explorer_prompt(void *ctx, const char *question, char *answer, size_t cap)
{
    (void)ctx;
    buf b = BUF_INIT;
    bool ok = display_prompt(question, "", &b);
    snprintf(answer, cap, "%s", ok && b.data ? b.data : "");
    buf_done(&b);
    return ok && answer[0] ? 0 : -1;
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
    if (store_open_remote(remote_send, r, remote_describe(r), flags, &st, &d) != ST_OK) {
        fprintf(stderr, "ddbx: %s\n", d.msg);
        remote_close(r);
        return 1;
    }
    /* Saved conditions have no place on an endpoint: they go to the local
     * default database (or DDBX_DB), created only when one is saved. */
    char *local = paths_db(NULL, 1);
    store_set_local_path(st, local, cli_store_flags());
    free(local);
    /* Items per discovery Scan page; for tests (the default is DynamoDB's 1 MB). */
    const char *lim = getenv("DDBX_SCAN_LIMIT");
    if (lim && *lim)
        store_set_scan_limit(st, (size_t)strtoul(lim, NULL, 10));
    char who[640];
    cli_identity(r, who, sizeof who);
    display_set_identity(who);
    creds_set_prompt(explorer_prompt, NULL);
    prices_set_region(remote_region(r));   /* the money beside the units */
    int rc = display_run(st, remote_describe(r), table);
    creds_set_prompt(NULL, NULL);
    store_close(st);
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
    remote_opts ro;
    int write = 0;
    int rem = cli_take_remote(&argc, argv, &ro, &write);
    if (rem < 0)
        return 2;
    const char *flag_db = cli_take_db(&argc, argv);
    double ttl_every;
    if (cli_take_ttl_interval(&argc, argv, &ttl_every) < 0)
        return 2;
    live_set_ttl_interval(ttl_every);
    const char *table = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' || table) {
            fprintf(stderr, "ddbx: unknown argument '%s'\n%s", argv[i], usage);
            return 2;
        }
        table = argv[i];
    }
    if (rem && flag_db) {
        fprintf(stderr, "ddbx: --db names a local database; it cannot be combined with"
                        " --endpoint-url, --region or --profile\n%s", usage);
        return 2;
    }
    if (rem && !ro.endpoint_url && !ro.region && !ro.profile) {
        fprintf(stderr, "ddbx: --write is for a remote endpoint (--endpoint-url URL or --region R);"
                        " a local database is writable unless --read-only\n%s", usage);
        return 2;
    }
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
