/*
 * cli_explore — `ddbx [--db FILE] [TABLE]`: opens the store and runs the
 * explorer (ui/display). A new default database is seeded with the
 * sample tables once, on first run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/samples.h"
#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/display.h"

static const char usage[] = "usage: ddbx [--db FILE] [TABLE]\n";

int cli_explore_samples(struct store *st, char *err, size_t errlen)
{
    size_t tables = 0, items = 0;
    diag d;
    diag_init(&d);
    if (samples_load(st, &tables, &items, &d) != ST_OK) {
        snprintf(err, errlen, "%s: %s", status_name(d.code), d.msg);
        return -1;
    }
    return (int)tables;
}

int cli_explore(int argc, char **argv)
{
    display_mark_start();
    const char *flag_db = cli_take_db(&argc, argv);
    const char *table = NULL;
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' || table) {
            fprintf(stderr, "ddbx: unknown argument '%s'\n%s", argv[i], usage);
            return 2;
        }
        table = argv[i];
    }
    bool default_db = !(flag_db && *flag_db) && !(getenv("DDBX_DB") && *getenv("DDBX_DB"));
    char *path = cli_db_path(flag_db, 1);
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
        char err[512];
        if (cli_explore_samples(st, err, sizeof err) < 0 && getenv("DDBX_DEBUG"))
            fprintf(stderr, "ddbx: %s\n", err);
    }
    int rc = display_run(st, path, table);
    store_close(st);
    free(path);
    return rc;
}
