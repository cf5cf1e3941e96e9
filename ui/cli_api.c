/*
 * cli_api — `ddbx api [--db FILE]`: DynamoDB requests in, responses out,
 * one JSON object a line. Each response line is written and flushed
 * before the next request is read, so a caller can drive the store
 * interactively and a crash loses only unanswered requests.
 *
 * With --endpoint-url URL or --region R [--profile P] the lines go to that
 * DynamoDB endpoint instead (data/remote.h), answered in the same shape;
 * nothing asks before a write here: `ddbx api` is for scripts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/remote.h"
#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"

/* Reads request lines from stdin until EOF; each answer is written and
 * flushed before the next line is read. Blank lines are not requests. */
static void answer_lines(status (*call_line)(void *ctx, const char *line, size_t len, char **out),
                         void *ctx)
{
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
            continue;
        char *out = NULL;
        call_line(ctx, line, (size_t)n, &out);
        fputs(out, stdout);
        fputc('\n', stdout);
        fflush(stdout);
        free(out);
    }
    free(line);
}

static status remote_line(void *ctx, const char *line, size_t len, char **out)
{
    return remote_call_line(ctx, line, len, out);
}

static status local_line(void *ctx, const char *line, size_t len, char **out)
{
    return store_call_line(ctx, line, len, out);
}

static int api_remote(const remote_opts *o)
{
    remote *r = NULL;
    diag d;
    diag_init(&d);
    if (remote_open(o, &r, &d) != ST_OK) {
        cli_print_diag("ddbx api", &d);
        return 1;
    }
    answer_lines(remote_line, r);
    remote_close(r);
    return 0;
}

int cli_api(int argc, char **argv)
{
    const char *flag_db = NULL;
    remote_opts ro = { 0 };
    double retention = 0, lifetime = 0;
    const opt table[] = {
        CLI_OPT_DB(&flag_db),
        CLI_OPTS_STREAM_TIMES(&retention, &lifetime),
        CLI_OPTS_REMOTE(&ro),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "api",
        .usage = "ddbx api [--db FILE] [--stream-retention S] [--iterator-lifetime S]\n"
                 "       ddbx api (--endpoint-url URL | --region R) [--profile P]",
        .about = "DynamoDB requests in (one JSON object a line: Operation, Input), responses out,\n"
                 "each flushed before the next line is read.\n",
        .opts = table,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    int rem = cli_where("api", flag_db, &ro);
    if (rem < 0)
        return 2;
    if (rem)
        return api_remote(&ro);
    char *path = paths_db(flag_db, 1);
    store *s = NULL;
    diag d;
    diag_init(&d);
    if (store_open(path, STORE_LARGE_CACHE | cli_store_flags(), &s, &d) != ST_OK) {
        fprintf(stderr, "ddbx api: %s\n", d.msg);
        free(path);
        return 1;
    }
    free(path);
    store_set_stream_times(s, retention, lifetime);
    answer_lines(local_line, s);
    store_close(s);
    return 0;
}
