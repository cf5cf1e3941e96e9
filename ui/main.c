/*
 * main — dispatch `ddbx [--db FILE] [TABLE]` and `ddbx SUBCOMMAND ...`.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/mem.h"
#include "ui/cli.h"

#define DDBX_VERSION "0.1.0"

static const char usage_text[] =
    "usage: ddbx [--db FILE] [TABLE]          open the explorer\n"
    "       ddbx api [--db FILE]              DynamoDB requests in, responses out, one JSON a line\n"
    "       ddbx eval EXPR [--kind K] [--names J] [--values J] [--item J]\n"
    "                                         parse, check and evaluate an expression\n"
    "       ddbx samples [--db FILE]          (re)load the bundled sample tables\n"
    "       ddbx load FILE [...]              import items\n"
    "       ddbx export TABLE [...]           export items\n"
    "       ddbx --help | --version\n"
    "\n"
    "The default database is $XDG_DATA_HOME/ddbx/ddbx.db (else\n"
    "~/.local/share/ddbx/ddbx.db); --db FILE or DDBX_DB override it.\n";

typedef int (*cli_fn)(int argc, char **argv);

static const struct {
    const char *name;
    cli_fn fn;
} commands[] = {
    { "api", cli_api },
    { "eval", cli_eval },
    { NULL, NULL },
};

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

int main(int argc, char **argv)
{
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(usage_text, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--version") == 0) {
        printf("ddbx %s\n", DDBX_VERSION);
        return 0;
    }
    if (argc >= 2) {
        for (size_t i = 0; commands[i].name; i++)
            if (strcmp(argv[1], commands[i].name) == 0)
                return commands[i].fn(argc - 1, argv + 1);
    }
    if (argc >= 2 && argv[1][0] != '-') {
        fprintf(stderr, "ddbx: unknown command '%s'\n\n%s", argv[1], usage_text);
        return 2;
    }
    fputs(usage_text, stderr);
    return 2;
}
