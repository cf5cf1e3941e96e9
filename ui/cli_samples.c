/*
 * cli_samples — `ddbx samples [--db FILE]`: (re)load the bundled samples.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/samples.h"
#include "data/store.h"
#include "ui/cli.h"

int cli_samples(int argc, char **argv)
{
    const char *flag_db = NULL, *pdir = NULL;
    const opt table[] = {
        CLI_OPT_DB(&flag_db),
        OPT_STRING("patterns-dir", "DIR", &pdir, "where the access-pattern files go"),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "samples",
        .usage = "ddbx samples [--db FILE] [--patterns-dir DIR]",
        .about = "(Re)creates the sample tables (SocialGraph, StudentCourses, Music,\n"
                 "ProfileHistory) in the database, replacing tables of the same name, and\n"
                 "writes their access-pattern files into DIR (default: the database's\n"
                 "folder/patterns), where the explorer's pattern view finds them.\n",
        .opts = table,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    char *path = paths_db(flag_db, 1);
    store *s = NULL;
    diag d;
    diag_init(&d);
    int ret = 1;
    if (store_open(path, cli_store_flags(), &s, &d) != ST_OK) {
        fprintf(stderr, "ddbx samples: %s: %s\n", path, d.msg);
        goto out;
    }
    size_t tables = 0, items = 0;
    if (samples_load(s, &tables, &items, &d) != ST_OK) {
        cli_print_diag("ddbx samples", &d);
        goto out;
    }
    printf("loaded %zu sample table%s (%zu item%s) into %s\n", tables, tables == 1 ? "" : "s", items,
           items == 1 ? "" : "s", path);
    for (size_t i = 0; i < samples_n_assets; i++) {
        const char *n = samples_assets[i].name;
        printf("  %.*s\n", (int)(strlen(n) - (strstr(n, ".json") ? 5 : 0)), n);
    }
    ret = cli_write_sample_patterns(pdir, path, stdout) < 0 ? 1 : 0;
out:
    if (s)
        store_close(s);
    free(path);
    return ret;
}
