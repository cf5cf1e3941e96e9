/*
 * cli_evolve — `ddbx evolve TABLE --index NAME --hash TEMPLATE [--range
 * TEMPLATE] [--dry-run] [--yes] [--rate WCU] [--db FILE | --endpoint-url
 * URL | --region R] [--profile P]`: new key attributes computed from each
 * item's own (model/keytmpl.h), written onto the items (data/evolve.h),
 * then a GSI on them, then the access patterns again.
 *
 * First a dry pass over the whole table into a scratch copy: exactly how
 * many items get the attributes, how many are left out and why, a sample
 * before -> after, and every access pattern of the table re-costed on the
 * copy with the index. --dry-run stops there. Else the question names the
 * count and where (the database file, with the automatic backup it keeps;
 * or the endpoint), and after a yes (or --yes) the items are written in
 * checkpointed batches at --rate write units a second; Ctrl-C stops
 * between items, and the same command goes on from the checkpoint. Then
 * UpdateTable creates the index, the command waits for ACTIVE, runs the
 * patterns again and prints each one that was a Scan and is now a Query,
 * with both costs.
 *
 * Files beside the pattern folder's patterns (paths_patterns_dir): the
 * checkpoint evolve-TABLE.INDEX.checkpoint (while a run is unfinished) and
 * the log evolve.log (a JSON line a step: dry-run, backfill, stopped,
 * index), which the design document reads.
 *
 * Exit status: 0 done (or the dry run shown), 1 a failure, 2 a usage
 * error or a template that does not parse, 130 stopped by Ctrl-C.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/evolve.h"
#include "data/pattern_file.h"
#include "data/remote.h"
#include "data/scratch.h"
#include "data/store_backup.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/cli_evolve.h"
#include "ui/opts.h"
#include "ui/prices.h"
#include "ui/undo.h"

typedef struct args {
    const char *index, *hash, *range, *db;
    remote_opts ro;       /* --endpoint-url, --region, --profile */
    bool dry, yes;
    long rate;
} args;

static const char about[] =
    "TEMPLATE: text with ${ATTR} (${a.b} for a map's member): STATUS#${status},\n"
    "${tenant}#${date}; NAME=TEMPLATE names the attribute written (else INDEX PK/SK,\n"
    "e.g. GSI2PK). Without ${}: the attributes of a key named directly (a+b: a\n"
    "multi-attribute key), nothing written. Files: evolve.log and the checkpoint\n"
    "evolve-TABLE.INDEX.checkpoint beside the database's patterns. See ddbx(1).\n";


static bool stop_asked(void *ctx)
{
    return cli_stop_signal != 0;
}

static void progress(void *ctx, const evolve_counts *c)
{
    if (!*(int *)ctx)   /* run_ctx's first member: the tty flag */
        return;
    fprintf(stderr, "\rddbx evolve: %llu items read, %llu written, %llu left out (Ctrl-C stops; the"
            " checkpoint keeps where)", (unsigned long long)c->read, (unsigned long long)c->written,
            (unsigned long long)c->left_out);
    fflush(stderr);
}

static bool ask(const char *question)
{
    fputs(question, stdout);
    fputs(" [y/N] ", stdout);
    fflush(stdout);
    char answer[64] = "";
    if (!fgets(answer, sizeof answer, stdin) || !strchr(answer, '\n') || !isatty(0))
        fputc('\n', stdout);   /* the answer did not end the line on the screen */
    answer[strcspn(answer, "\n")] = '\0';
    return strcmp(answer, "y") == 0 || strcmp(answer, "yes") == 0;
}

/* A template into t, or 2 after showing where it is wrong. */
static int parse_template(const char *option, const char *text, const char *index, const char *suffix,
                          keytmpl *t)
{
    buf def = BUF_INIT;
    buf_printf(&def, "%s%s", index, suffix);
    diag d;
    diag_init(&d);
    status st = keytmpl_parse(text, def.data, t, &d);
    buf_done(&def);
    if (st == ST_OK)
        return 0;
    fprintf(stderr, "ddbx evolve: --%s: at %ld: ", option, d.pos + 1);
    cli_show_error_at(&d, text);
    return 2;
}

/* The dry pass into a scratch copy, and the patterns on it before and
 * after the index. */
static status plan(store *s, evolve_spec *sp, evolve_counts *c, evolve_costs *ec, diag *d)
{
    const char *tmp = getenv("TMPDIR");
    buf path = BUF_INIT;
    buf_printf(&path, "%s/ddbx-evolve-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    int fd = mkstemp(path.data);
    if (fd < 0) {
        buf_done(&path);
        return diag_set(d, ST_IO, "cannot make a scratch file in %s", tmp && *tmp ? tmp : "/tmp");
    }
    close(fd);
    table_def def;
    store *copy = NULL;
    status st = store_describe(s, sp->table, &def, d);
    if (st == ST_OK) {
        if ((st = store_open(path.data, 0, &copy, d)) == ST_OK)
            st = store_create_table(copy, &def, d);
        table_def_free(&def);
    }
    if (st == ST_OK)
        st = store_begin(copy, d);
    evolve_spec dry = *sp;
    dry.dry = true;
    dry.copy = copy;
    dry.checkpoint = NULL;
    if (st == ST_OK && (st = evolve_run(s, &dry, c, d)) == ST_OK)
        st = store_commit(copy, d);
    else if (copy)
        store_rollback(copy);
    bool existed;
    if (st == ST_OK && !c->stopped) {
        evolve_costs_run(ec, copy, false);
        if ((st = evolve_create_index(copy, sp, c, 60, &existed, d)) == ST_OK)
            evolve_costs_run(ec, copy, true);
    }
    if (copy)
        store_close(copy);
    scratch_remove(path.data);
    buf_done(&path);
    return st;
}

/* The backfill with its backup (local), stoppable; then the index and
 * the patterns again. 0, 1 or 130. */
typedef struct run_ctx {
    int tty;
    store *s;
    const char *table, *backup;
    bool backed_up;
} run_ctx;

/* Before the first write: the automatic backup (local; none when there
 * is nothing to write, so a run with nothing left is a no-op). */
static status take_backup(void *ctx, diag *d)
{
    run_ctx *x = ctx;
    if (!x->backup)
        return ST_OK;
    status st = store_backup_create(x->s, x->table, x->backup, STORE_BACKUP_AUTO, NULL, d);
    if (st != ST_OK)
        return st;
    x->backed_up = true;
    size_t gone = 0;
    diag pd;
    diag_init(&pd);
    undo_backup_settings u = undo_backup_settings_read();
    store_backup_prune(x->s, x->table, u.keep, u.max_age_s, &gone, &pd);
    return ST_OK;
}

static int apply(store *s, evolve_spec *sp, evolve_costs *ec, const char *backup, const char *log)
{
    diag d;
    diag_init(&d);
    evolve_costs_run(ec, s, false);
    cli_stops stops;
    cli_stops_on(&stops);
    run_ctx x = { isatty(2), s, sp->table, backup, false };
    sp->stop = stop_asked;
    sp->progress = progress;
    sp->first_write = take_backup;
    sp->ctx = &x;
    evolve_counts c;
    evolve_counts_init(&c);
    status st = evolve_run(s, sp, &c, &d);
    cli_stops_off(&stops);
    if (x.tty)
        fputc('\n', stderr);
    if (x.backed_up)
        printf("backup %s taken before the first write (ddbx diff backup:%s %s shows what changed)\n", backup,
               backup, sp->table);
    if (!x.backed_up)
        backup = NULL;
    int rc = 0;
    if (c.resumed)
        printf("went on from the checkpoint %s\n", sp->checkpoint);
    evolve_print_counts(sp, &c, false, stdout);
    if (st != ST_OK) {
        cli_print_diag("ddbx evolve", &d);
        fprintf(stderr, "ddbx evolve: what was written stays; the checkpoint %s keeps where, and the same"
                " command goes on from there\n", sp->checkpoint);
        rc = 1;
    } else if (c.stopped) {
        evolve_log(log, "stopped", sp, &c, backup);
        printf("stopped after %llu items: the checkpoint %s keeps where; the same command goes on from"
               " there (nothing is written twice)\n", (unsigned long long)c.read, sp->checkpoint);
        rc = 130;
    } else {
        evolve_log(log, "backfill", sp, &c, backup);
        bool existed = false;
        printf("creating the index %s and waiting for it to be ACTIVE...\n", sp->index);
        fflush(stdout);
        if (evolve_create_index(s, sp, &c, 600, &existed, &d) != ST_OK) {
            cli_print_diag("ddbx evolve: the index", &d);
            rc = 1;
        } else {
            printf("index %s %s, ACTIVE\n", sp->index, existed ? "was there already" : "created");
            if (!existed)
                evolve_log(log, "index", sp, &c, backup);
            evolve_costs_run(ec, s, true);
            if (!evolve_costs_print_gains(ec, sp->index, stdout))
                puts("no access pattern was a Scan that the index makes a Query");
        }
    }
    evolve_counts_done(&c);
    return rc;
}

/* The store's name in the checkpoint and the log: the endpoint, or the
 * database file's absolute path (malloc'd). */
static char *where_of(store *s, const char *path)
{
    store_info info;
    store_get_info(s, &info);
    if (info.remote)
        return xstrdup(info.where ? info.where : "the endpoint");
    char *abs = realpath(path, NULL);
    return abs ? abs : xstrdup(path);
}

static int run(const char *table, const args *a, store *s, const char *db_path, bool is_remote)
{
    int rc = 0;
    keytmpl hash, range;
    memset(&range, 0, sizeof range);
    if (parse_template("hash", a->hash, a->index, "PK", &hash))
        return 2;
    if (a->range && parse_template("range", a->range, a->index, "SK", &range)) {
        keytmpl_done(&hash);
        return 2;
    }
    char *dir = paths_patterns_dir(db_path);
    mkdir(dir, 0700);   /* the checkpoint and the log live there (remote: the default database's) */
    buf ck = BUF_INIT, log = BUF_INIT;
    buf_printf(&ck, "%s/evolve-%s.%s.checkpoint", dir, table, a->index);
    buf_printf(&log, "%s/evolve.log", dir);
    char *where = where_of(s, db_path);
    evolve_spec sp = {
        .table = table, .index = a->index, .hash = &hash, .range = a->range ? &range : NULL,
        .where = where, .checkpoint = ck.data, .rate = (double)a->rate,
    };
    pattern_set all;
    pattern_set_init(&all);
    diag d;
    diag_init(&d);
    if (pattern_file_load_dir(dir, &all, &d) != ST_OK)
        cli_print_file_diag("ddbx evolve", &d);
    evolve_costs ec;
    evolve_costs_init(&ec, &all, &sp);
    evolve_counts c;
    evolve_counts_init(&c);
    if (!a->yes || a->dry) {
        if (plan(s, &sp, &c, &ec, &d) != ST_OK) {
            if (c.read)   /* the counts stand; the index on the copy failed */
                evolve_print_counts(&sp, &c, true, stdout);
            cli_print_diag("ddbx evolve", &d);
            rc = 1;
        } else {
            evolve_print_counts(&sp, &c, true, stdout);
            evolve_costs_print(&ec, stdout);
            if (a->dry)
                evolve_log(log.data, "dry-run", &sp, &c, NULL);
        }
    }
    char *backup = NULL;
    if (rc == 0 && !a->dry) {
        FILE *f = fopen(ck.data, "r");
        bool resuming = f != NULL;
        if (f)
            fclose(f);
        if (!is_remote && !resuming && undo_backup_settings_read().keep > 0)
            backup = store_backup_auto_name(s, table);
        buf q = BUF_INIT;
        buf_printf(&q, "Write the new key attributes on %llu item%s of %s %s %s", (unsigned long long)c.gets,
                   c.gets == 1 ? "" : "s", table, is_remote ? "at" : "in", sp.where);
        if (backup)
            buf_printf(&q, " (a backup named %s is kept first)", backup);
        else if (is_remote)
            buf_adds(&q, " (no backup is taken on an endpoint)");
        buf_printf(&q, ", then create the GSI %s?", a->index);
        if (!a->yes && !ask(q.data)) {
            fputs("ddbx evolve: nothing written\n", stderr);
            rc = 1;
        }
        buf_done(&q);
        if (rc == 0)
            rc = apply(s, &sp, &ec, backup, log.data);
    }
    free(backup);
    evolve_counts_done(&c);
    evolve_costs_done(&ec);
    pattern_set_done(&all);
    keytmpl_done(&hash);
    if (a->range)
        keytmpl_done(&range);
    buf_done(&ck);
    buf_done(&log);
    free(dir);
    free(where);
    return rc;
}

int cli_evolve(int argc, char **argv)
{
    args a = { 0 };
    const opt opts[] = {
        OPT_STRING("index", "NAME", &a.index, "the new GSI's name (required)"),
        OPT_STRING("hash", "TEMPLATE", &a.hash, "its partition key: a template or a+b (required)"),
        OPT_STRING("range", "TEMPLATE", &a.range, "its sort key: a template or a+b"),
        OPT_BOOL("dry-run", &a.dry, "count, show a sample and re-cost the patterns; write nothing"),
        OPT_BOOL("yes", &a.yes, "do not ask (the count is not shown first)"),
        OPT_INTEGER("rate", "WCU", &a.rate, 0, 1e9, "write units a second at most (default 0: no limit)"),
        CLI_OPT_DB(&a.db),
        CLI_OPTS_REMOTE(&a.ro),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "evolve",
        .usage = "ddbx evolve TABLE --index NAME --hash TEMPLATE [--range TEMPLATE] [--dry-run] [--yes]"
                 " [--rate WCU] [--db FILE | --endpoint-url URL | --region R] [--profile P]",
        .about = about,
        .opts = opts,
        .positional = true,
    };
    int pr = opts_parse(&cmd, &argc, argv);
    if (pr == OPTS_HELP)
        return 0;
    if (pr == OPTS_ERROR)
        return 2;
    bool is_remote = a.ro.endpoint_url || a.ro.region || a.ro.profile;
    const char *bad = argc != 2 ? "one TABLE is named" : !a.index ? "--index is given" : !a.hash ? "--hash is given"
                      : is_remote && a.db ? "--db is not given with an endpoint" : NULL;
    if (bad) {
        fprintf(stderr, "ddbx evolve: wanted: %s\n", bad);
        opts_usage(&cmd, stderr);
        return 2;
    }
    diag d;
    diag_init(&d);
    char *path = paths_db(is_remote ? NULL : a.db, is_remote);   /* its folder holds the checkpoint */
    store *s = NULL;
    remote *r = NULL;
    status st = is_remote ? remote_open(&a.ro, &r, &d) : store_open(path, cli_store_flags(), &s, &d);
    if (st == ST_OK && is_remote) {
        st = store_open_remote(remote_send, r, remote_describe(r), STORE_REMOTE_WRITE, &s, &d);
        prices_set_region(remote_region(r));
    }
    int rc = 2;
    if (st != ST_OK)
        cli_print_diag("ddbx evolve", &d);
    else
        rc = run(argv[1], &a, s, path, is_remote);
    if (s)
        store_close(s);
    if (r)
        remote_close(r);
    free(path);
    return rc;
}
