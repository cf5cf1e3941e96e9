/*
 * cli_push — `ddbx push TABLE... (--endpoint-url URL | --region R)
 * [--profile P] [--db FILE] [--with-items] [--as NAME] [--replace]
 * [--yes]`: local tables, with their indexes, TTL and streams settings
 * and (--with-items) their items, onto a DynamoDB endpoint (data/push.h).
 *
 * It prints the plan first (what it will create, how many items, the
 * write units they cost with their index copies and what that is in
 * on-demand money) and asks (y/N on stdin; --yes answers for a script).
 * A target table that exists is refused unless --replace (the plan then
 * says it deletes it) or it is this push's own, interrupted: the same
 * command resumes it. Progress goes to stderr. Ctrl-C or SIGTERM stops
 * after the batch in flight and keeps what was written for the resume
 * (exit 130 or 143).
 *
 * Exit status: 0 done, 1 refused, declined or failed, 2 usage error.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/push.h"
#include "data/remote.h"
#include "data/store.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/fmt.h"
#include "ui/prices.h"



/* In place on a terminal; else a line every 1000 items, and the last. */
static void show(const push_progress *p, void *ud)
{
    int tty = *(int *)ud;
    if (!tty && p->items % 1000 >= PUSH_BATCH && p->items != p->total)
        return;
    fprintf(stderr, "%spush %s: %llu of %llu items, %llu requests, %g WCU, %llu resent%s",
            tty ? "\r\033[K" : "", p->table, (unsigned long long)p->items,
            (unsigned long long)p->total, (unsigned long long)p->requests, p->units,
            (unsigned long long)p->unprocessed, tty ? "" : "\n");
    fflush(stderr);
}

/* What a replaced target holds, as the plan found it (data/push.h). */
static void put_holds(buf *b, const push_table *t)
{
    const char *stale = "updated about every 6 hours";
    if (t->there_counted && !t->there_partial)
        buf_printf(b, "its %llu item%s (counted now with a Scan) and ", (unsigned long long)t->there_items,
                   t->there_items == 1 ? "" : "s");
    else if (t->there_counted)
        buf_printf(b, "at least %llu items (a Scan counted them, stopping after %d pages) and ",
                   (unsigned long long)t->there_items, PUSH_COUNT_PAGES);
    else
        buf_printf(b, "about %llu items and ", (unsigned long long)t->there_items);
    fmt_bytes(b, t->there_bytes);
    buf_printf(b, " (DescribeTable's %s, %s)", t->there_counted ? "TableSizeBytes" : "ItemCount and TableSizeBytes",
               stale);
}

static void put_plan(const push_plan *plan, const push_opts *o, bool *refused)
{
    buf b = BUF_INIT;
    buf_printf(&b, "Push to %s:\n", plan->where);
    *refused = false;
    for (size_t i = 0; i < plan->n; i++) {
        const push_table *t = &plan->t[i];
        buf_printf(&b, "  %s -> %s: ", t->table, t->target);
        if (t->resume)
            buf_printf(&b, "resume the interrupted push (%llu of %llu items written)", (unsigned long long)t->done,
                       (unsigned long long)t->items);
        else if (t->exists && o->replace) {
            buf_printf(&b, "DELETE the table %s there and create it again\n    there now: ", t->target);
            put_holds(&b, t);
        } else if (t->exists) {
            buf_printf(&b, "refused: a table %s exists there and this push did not make it"
                           " (--replace deletes it and makes it again)", t->target);
            *refused = true;
        } else
            buf_adds(&b, "create");
        buf_printf(&b, "\n    keys %s (%s)", t->def.pk.name, av_type_name(t->def.pk.type));
        if (t->def.sk.name)
            buf_printf(&b, ", %s (%s)", t->def.sk.name, av_type_name(t->def.sk.type));
        for (size_t k = 0; k < t->def.n_idx; k++) {
            const index_def *ix = &t->def.idx[k];
            buf_printf(&b, "; %s %s (%s%s%s, %s)", ix->global ? "GSI" : "LSI", ix->name, ix->pk.name,
                       ix->sk.name ? ", " : "", ix->sk.name ? ix->sk.name : "", proj_type_name(ix->proj));
        }
        buf_printf(&b, "\n    %s; streams %s; TTL %s\n", t->billing, t->streams ? t->streams : "off",
                   t->ttl ? t->ttl : "off");
        if (o->with_items) {
            buf_printf(&b, "    %llu items, ", (unsigned long long)t->items);
            fmt_bytes(&b, t->bytes);
            buf_printf(&b, ": %llu write units with their index copies", (unsigned long long)t->write_units);
            const price_table *pt;
            const price_region *pr;
            if (prices_get(&pt, &pr)) {
                buf_adds(&b, " (");
                cost_money(pr, (double)t->write_units / 1e6 * pr->od_write, &b);
                buf_printf(&b, " on-demand in %s)", pr->region);
            }
            buf_addc(&b, '\n');
        } else {
            buf_printf(&b, "    no items (%llu stay local; --with-items copies them)\n",
                       (unsigned long long)t->items);
        }
    }
    cli_fputs_lines(stdout, b.data);
    fflush(stdout);
    buf_done(&b);
}

/* The line that says, before anything is sent, what --replace loses: one
 * per table it deletes there, asked or not (--yes). DeleteTable keeps
 * nothing unless point-in-time recovery is on (the API reference's
 * BackupSummary: a SYSTEM backup is then made and kept 35 days). */
static void put_losses(const push_plan *plan, const push_opts *o)
{
    buf b = BUF_INIT;
    for (size_t i = 0; i < plan->n; i++) {
        const push_table *t = &plan->t[i];
        if (!t->exists || t->resume || !o->replace)
            continue;
        buf_printf(&b, "--replace deletes %s at %s: ", t->target, plan->where);
        put_holds(&b, t);
        buf_adds(&b, ", lost, and no backup of them will exist there (ddbx makes none: make one first,"
                     " or turn point-in-time recovery on).\n");
    }
    if (b.len)
        cli_fputs_lines(stdout, b.data);
    fflush(stdout);
    buf_done(&b);
}

/* y or yes on a line of stdin. The answer ends its line on the screen
 * even when the input ended without a newline (or with no answer). */
static bool ask(void)
{
    fputs("Push? [y/N] ", stdout);
    fflush(stdout);
    char line[64] = "";
    if (!fgets(line, sizeof line, stdin) || !strchr(line, '\n')) {
        fputc('\n', stdout);
        fflush(stdout);
    }
    line[strcspn(line, "\n")] = '\0';
    return strcmp(line, "y") == 0 || strcmp(line, "yes") == 0;
}

/* Where the resume state lives: the local database's folder + /push. */
static char *state_dir(const char *flag_db)
{
    char *db = paths_db(flag_db, 0);
    char *slash = strrchr(db, '/');
    buf b = BUF_INIT;
    if (slash)
        buf_printf(&b, "%.*s/push", (int)(slash - db), db);
    else
        buf_adds(&b, "push");
    free(db);
    return buf_steal(&b);
}

/* The command line, filled by the table below (one run a process). */
static struct {
    const char *db;
    remote_opts ro;
    push_opts o;
    bool yes;
} A;

static const opt push_flags[] = {
    CLI_OPTS_REMOTE(&A.ro),
    CLI_OPT_DB(&A.db),
    OPT_BOOL("with-items", &A.o.with_items, "copy the items too (BatchWriteItem)"),
    OPT_STRING("as", "NAME", &A.o.as, "the name of the copy (one table)"),
    OPT_BOOL("replace", &A.o.replace, "delete and make again a table that exists there"),
    OPT_BOOL("yes", &A.yes, "push without asking"),
    OPT_END(),
};

static const opts_cmd push_cmd = {
    .name = "push",
    .usage = "ddbx push TABLE... (--endpoint-url URL | --region R) [--profile P] [--db FILE]\n"
             "                 [--with-items] [--as NAME] [--replace] [--yes]",
    .about = "Creates the local tables on a DynamoDB endpoint with their indexes, TTL and streams\n"
             "settings; --with-items copies their items too (BatchWriteItem). Prints the plan\n"
             "and asks first (--yes: without asking). A table that exists there is refused\n"
             "unless --replace (deleted and made again); an interrupted push resumes when run\n"
             "again. --as NAME names the copy of one table.\n",
    .opts = push_flags,
    .positional = true,
};

int cli_push(int argc, char **argv)
{
    int pr = opts_main(&push_cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    const char *flag_db = A.db;
    remote_opts ro = A.ro;
    push_opts o = A.o;
    bool yes = A.yes;
    bool rem = ro.endpoint_url || ro.region || ro.profile;
    if (!rem || argc < 2) {
        fprintf(stderr, "ddbx push: %s\n", !rem ? "name the endpoint: --endpoint-url URL or --region R"
                                                : "name the tables to push");
        opts_usage(&push_cmd, stderr);
        return 2;
    }
    const char **tables = xcalloc((size_t)argc, sizeof *tables);
    for (int i = 1; i < argc; i++)
        tables[o.n_tables++] = argv[i];
    o.tables = tables;
    char *dir = state_dir(flag_db);
    o.state_dir = dir;
    o.stop = &cli_stop_signal;
    store *local = NULL;
    remote *r = NULL;
    diag d;
    diag_init(&d);
    int rc = 0;
    char *path = paths_db(flag_db, 0);
    if (store_open(path, STORE_READ_ONLY, &local, &d) != ST_OK || remote_open(&ro, &r, &d) != ST_OK) {
        cli_print_diag("ddbx push", &d);
        rc = 2;
    }
    free(path);
    push_plan plan;
    memset(&plan, 0, sizeof plan);
    if (rc == 0) {
        prices_set_region(remote_region(r));
        if (push_plan_make(local, r, &o, &plan, &d) != ST_OK) {
            cli_print_diag("ddbx push", &d);
            rc = d.code == ST_USAGE ? 2 : 1;
        }
    }
    bool refused = false;
    if (rc == 0) {
        put_plan(&plan, &o, &refused);
        if (!refused)
            put_losses(&plan, &o);
        if (refused) {
            fputs("ddbx push: nothing pushed (a target exists)\n", stderr);
            rc = 1;
        } else if (!yes && !ask()) {
            fputs("ddbx push: nothing pushed\n", stderr);
            rc = 1;
        }
    }
    if (rc == 0) {
        cli_stops stops;
        cli_stops_on(&stops);
        int tty = isatty(2);
        status st = push_run(local, r, &o, &plan, show, &tty, &d);
        cli_stops_off(&stops);
        if (tty)
            fputc('\n', stderr);
        if (st != ST_OK) {
            cli_print_diag("ddbx push", &d);
            if (cli_stop_signal || st != ST_IN_USE)
                fputs("ddbx push: what was written stays; the same command goes on from there\n",
                      stderr);
            rc = cli_stop_exit(1);
        } else {
            size_t items = 0;
            for (size_t i = 0; i < plan.n; i++)
                items += o.with_items ? plan.t[i].items : 0;
            printf("pushed %zu table%s and %zu items to %s\n", plan.n, plan.n == 1 ? "" : "s", items,
                   plan.where);
        }
    }
    push_plan_done(&plan);
    if (local)
        store_close(local);
    if (r)
        remote_close(r);
    free(dir);
    free(tables);
    return rc;
}
