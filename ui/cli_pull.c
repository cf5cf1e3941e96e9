/*
 * cli_pull — `ddbx pull TABLE [--as LOCAL_NAME] [--segments N] [--mask
 * RULES] [--db FILE] (--endpoint-url URL | --region R) [--profile P]`:
 * copies a remote table (schema, indexes, items) into the local store
 * with a parallel Scan (data/pull.c), so a production table can be
 * explored offline; with --mask, the attributes the rules name are
 * hashed, faked, redacted or dropped on the way (data/mask_file.h).
 *
 * Progress goes to stderr: rewritten in place on a terminal, a line every
 * few seconds otherwise. Ctrl-C (SIGINT) or SIGTERM stops the scan; the
 * partial copy is removed and the exit status is 130 (143). A second
 * Ctrl-C kills the process outright (SQLite still rolls back the open
 * transaction, but the table and the batches committed before stay).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/mask_file.h"
#include "data/pull.h"
#include "data/remote.h"
#include "data/store.h"
#include "ui/cli.h"

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

typedef struct pull_view {
    int tty;
    double last_line;
    int drew;
} pull_view;

static void show(const pull_progress *p, void *ud)
{
    pull_view *v = ud;
    double rate = p->seconds > 0 ? (double)p->items / p->seconds : 0;
    char line[256];
    snprintf(line, sizeof line, "pull: %llu item%s, %llu page%s, %.1f RCU, %.0f items/s, %d/%d segments done",
             (unsigned long long)p->items, p->items == 1 ? "" : "s", (unsigned long long)p->pages,
             p->pages == 1 ? "" : "s", p->capacity, rate, p->segments_done, p->segments);
    if (v->tty) {
        fprintf(stderr, "\r\033[K%s", line);
        v->drew = 1;
    } else if (p->seconds - v->last_line >= 2.0) {
        fprintf(stderr, "%s\n", line);
        v->last_line = p->seconds;
    }
    fflush(stderr);
}

/* The command line, filled by the table below (one run a process). */
static struct {
    const char *db, *as, *rules;
    remote_opts ro;
    long segments;
} A;

static const opt pull_table[] = {
    OPT_STRING("as", "NAME", &A.as, "the local table's name (default: the remote's)"),
    OPT_INTEGER("segments", "N", &A.segments, 1, 1000000, "a parallel Scan in N segments"),
    OPT_STRING("mask", "RULES", &A.rules, "hash, fake, redact or drop what the rules file names"),
    CLI_OPT_DB(&A.db),
    CLI_OPTS_REMOTE(&A.ro),
    OPT_END(),
};

static const opts_cmd pull_cmd = {
    .name = "pull",
    .usage = "ddbx pull TABLE [--as NAME] [--segments N] [--mask RULES] [--db FILE]\n"
             "                 (--endpoint-url URL | --region R) [--profile P]",
    .about = "Copies a remote table (its indexes, TTL and items) into the local store.\n",
    .opts = pull_table,
    .positional = true,
};

/* What a pull copied (and masked), on stderr. */
static void say_copied(const pull_progress *done, const char *table, const char *as,
                       const char *path, mask_file *mf, const char *rules)
{
    double rate = done->seconds > 0 ? (double)done->items / done->seconds : 0;
    fprintf(stderr, "ddbx pull: copied %llu item%s (%llu page%s, %.1f read capacity units, "
            "%lu retr%s) from ", (unsigned long long)done->items, done->items == 1 ? "" : "s",
            (unsigned long long)done->pages, done->pages == 1 ? "" : "s", done->capacity,
            done->retries, done->retries == 1 ? "y" : "ies");
    cli_fputs_safe(stderr, table);
    fputs(" at ", stderr);
    cli_fputs_safe(stderr, done->from);
    fputs(" into ", stderr);
    cli_fputs_safe(stderr, as ? as : table);
    fputs(" in ", stderr);
    cli_fputs_safe(stderr, path);
    fprintf(stderr, " in %.1f s (%.0f items/s, %d segment%s)\n", done->seconds, rate,
            done->segments, done->segments == 1 ? "" : "s");
    if (mf) {
        fprintf(stderr, "ddbx pull: masked %llu values as ", (unsigned long long)done->masked);
        cli_fputs_safe(stderr, rules);
        fputs(" says: ", stderr);
        cli_fputs_safe(stderr, done->mask_keys);
        fputs("; key ", stderr);
        cli_fputs_safe(stderr, mask_file_key_path(mf));
        fputs("\nddbx pull: the rules, and the values each took:\n", stderr);
        cli_fputs_lines(stderr, done->mask_rules);
        if (done->mask_clear[0]) {
            fputs("ddbx pull: warning: strings no rule names were copied as they are: ", stderr);
            cli_fputs_safe(stderr, done->mask_clear);
            fputc('\n', stderr);
        }
    }
}

int cli_pull(int argc, char **argv)
{
    int pr = opts_main(&pull_cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    const char *flag_db = A.db, *as = A.as, *rules = A.rules;
    remote_opts ro = A.ro;
    long segments = A.segments ? A.segments : 1;
    const char *table = argc == 2 ? argv[1] : NULL;
    if (!table) {
        fprintf(stderr, "ddbx pull: name one TABLE\nusage: %s\n", pull_cmd.usage);
        return 2;
    }
    if (!ro.endpoint_url && !ro.region && !ro.profile) {
        fprintf(stderr, "ddbx pull: say where the table is: --endpoint-url URL or --region R\n"
                        "usage: %s\n", pull_cmd.usage);
        return 2;
    }

    char *path = paths_db(flag_db, 1);
    store *st = NULL;
    mask_file *mf = NULL;
    diag d;
    diag_init(&d);
    /* The rules first: a mistake in them costs no remote request. */
    if (rules && mask_file_load(rules, path, &mf, &d) != ST_OK) {
        cli_print_diag("ddbx pull", &d);
        free(path);
        return 2;
    }
    if (mf && mask_file_key_created(mf)) {
        fputs("ddbx pull: made a new masking key, ", stderr);
        cli_fputs_safe(stderr, mask_file_key_path(mf));
        fputs(" (keep it to mask the same way again)\n", stderr);
    }
    if (store_open(path, STORE_LARGE_CACHE | cli_store_flags(), &st, &d) != ST_OK) {
        cli_print_diag("ddbx pull", &d);
        mask_file_free(mf);
        free(path);
        return 1;
    }

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;   /* a second Ctrl-C kills at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    pull_view view = { .tty = isatty(2), .last_line = 0, .drew = 0 };
    pull_opts po = {
        .remote = &ro, .table = table, .as = as, .segments = (int)segments,
        .stop = &stop_signal, .progress = show, .ud = &view,
        .mask = mf ? mask_file_mask(mf) : NULL, .mask_name = rules,
    };
    pull_progress done;
    status s = pull_run(st, &po, &done, &d);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (view.drew)
        fputc('\n', stderr);
    int rc = 0;
    if (s != ST_OK) {
        cli_print_diag("ddbx pull", &d);
        rc = stop_signal == SIGINT ? 130 : stop_signal == SIGTERM ? 143 : 1;
    } else {
        say_copied(&done, table, as, path, mf, rules);
    }
    store_close(st);
    mask_file_free(mf);
    free(path);
    return rc;
}
