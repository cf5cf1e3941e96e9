/*
 * cli_api — `ddbx api [--db FILE]`: DynamoDB requests in, responses out,
 * one JSON object a line. Each response line is written and flushed
 * before the next request is read, so a caller can drive the store
 * interactively and a crash loses only unanswered requests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"

int cli_api(int argc, char **argv)
{
    const char *flag_db = cli_take_db(&argc, argv);
    if (argc > 1) {
        fprintf(stderr, "usage: ddbx api [--db FILE]\n");
        return 2;
    }
    char *path = cli_db_path(flag_db, 1);
    store *s = NULL;
    diag d;
    diag_init(&d);
    if (store_open(path, STORE_LARGE_CACHE | cli_store_flags(), &s, &d) != ST_OK) {
        fprintf(stderr, "ddbx api: %s\n", d.msg);
        free(path);
        return 1;
    }
    free(path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) >= 0) {
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        size_t i = 0;
        while (i < (size_t)n && (line[i] == ' ' || line[i] == '\t'))
            i++;
        if (i == (size_t)n)
            continue;   /* blank lines are not requests */
        char *out = NULL;
        store_call_line(s, line, (size_t)n, &out);
        fputs(out, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        free(out);
    }
    free(line);
    store_close(s);
    return 0;
}
