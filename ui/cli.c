/*
 * cli — helpers shared by the subcommands (declared in ui/cli.h): where
 * the database lives, and the --db flag. Kept out of main.c so that
 * subcommand files link into the ui tests.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

char *cli_db_path(const char *flag_db, int create)
{
    const char *env = getenv("DDBX_DB");
    if (flag_db && *flag_db)
        return xstrdup(flag_db);
    if (env && *env)
        return xstrdup(env);

    const char *xdg = getenv("XDG_DATA_HOME");
    const char *home = getenv("HOME");
    char dir[4096];
    if (xdg && *xdg)
        snprintf(dir, sizeof dir, "%s/ddbx", xdg);
    else
        snprintf(dir, sizeof dir, "%s/.local/share/ddbx", home ? home : ".");
    if (create) {
        /* mkdir -p, owner only for the last component. */
        for (char *p = dir + 1; *p; p++) {
            if (*p != '/')
                continue;
            *p = '\0';
            if (mkdir(dir, 0755) != 0 && errno != EEXIST)
                break;
            *p = '/';
        }
        mkdir(dir, 0700);
    }
    size_t n = strlen(dir) + sizeof "/ddbx.db";
    char *path = xmalloc(n);
    snprintf(path, n, "%s/ddbx.db", dir);
    return path;
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
