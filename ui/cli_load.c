/*
 * cli_load — `ddbx load FILE [--table T] [--format F] [--skip-bad]
 * [--replace] [--key PK:TYPE[,SK:TYPE]] [--db FILE]`: import items.
 *
 * The file streams through data/import's source into the store sink (one
 * transaction: a failed file leaves nothing). Progress goes to stderr when
 * it is a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/import.h"
#include "data/store.h"
#include "model/mem.h"
#include "model/schema.h"
#include "ui/cli.h"

typedef struct progress {
    bool tty;
    struct timespec start, last;
    const char *file;
} progress;

static double since(const struct timespec *a, const struct timespec *b)
{
    return (double)(b->tv_sec - a->tv_sec) + (double)(b->tv_nsec - a->tv_nsec) / 1e9;
}

static void on_progress(void *ctx, const import_stats *st)
{
    progress *p = ctx;
    if (!p->tty)
        return;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (since(&p->last, &now) < 0.2)
        return;
    p->last = now;
    double secs = since(&p->start, &now);
    fprintf(stderr, "\r\033[K%llu item%s  %.0f items/s", (unsigned long long)st->items,
            st->items == 1 ? "" : "s", secs > 0 ? (double)st->items / secs : 0.0);
    if (st->total)
        fprintf(stderr, "  %.0f%%", 100.0 * (double)st->bytes / (double)st->total);
    if (st->skipped)
        fprintf(stderr, "  %llu skipped", (unsigned long long)st->skipped);
    fflush(stderr);
}

static void on_skip(void *ctx, const diag *d)
{
    progress *p = ctx;
    if (p->tty)
        fputs("\r\033[K", stderr);
    cli_print_diag("ddbx load: skipped", d);
}

/* "PK:S,SK:N" -> key attributes. */
static bool parse_key(const char *spec, key_attr *pk, key_attr *sk)
{
    char *copy = xstrdup(spec);
    char *parts[2] = { copy, strchr(copy, ',') };
    bool ok = true;
    key_attr *ks[2] = { pk, sk };
    if (parts[1])
        *parts[1]++ = '\0';
    for (int i = 0; i < 2 && ok; i++) {
        ks[i]->name = NULL;
        ks[i]->type = AV_NONE;
        if (!parts[i])
            continue;
        char *colon = strrchr(parts[i], ':');
        av_type t = AV_S;
        if (colon) {
            *colon = '\0';
            t = av_type_from_name(colon + 1, strlen(colon + 1));
        }
        if (!*parts[i] || (t != AV_S && t != AV_N && t != AV_B)) {
            ok = false;
            break;
        }
        ks[i]->name = xstrdup(parts[i]);
        ks[i]->type = t;
    }
    if (!ok) {
        free(pk->name);
        free(sk->name);
        pk->name = sk->name = NULL;
    }
    free(copy);
    return ok;
}

/* Creates the target table when it is missing and --key says how
 * (*created tells the caller to drop it again if the load fails). */
static int ensure_table(store *s, const char *table, const char *key, bool *created,
                        diag *d)
{
    table_def def;
    *created = false;
    if (store_describe(s, table, &def, d) == ST_OK) {
        table_def_free(&def);
        return 0;
    }
    if (!key) {
        fprintf(stderr, "ddbx load: table '");
        cli_fputs_safe(stderr, table);
        fprintf(stderr, "' does not exist: create it with --key PK:S[,SK:S] "
                        "(or load a Workbench model)\n");
        return 1;
    }
    memset(&def, 0, sizeof def);
    if (!parse_key(key, &def.pk, &def.sk)) {
        fprintf(stderr, "ddbx load: bad --key '%s' (want NAME:TYPE[,NAME:TYPE], TYPE S, N or B)\n",
                key);
        return 2;
    }
    def.name = xstrdup(table);
    def.created = (int64_t)time(NULL);
    diag_init(d);
    status rc = store_create_table(s, &def, d);
    table_def_free(&def);
    if (rc != ST_OK) {
        cli_print_diag("ddbx load", d);
        return 1;
    }
    *created = true;
    return 0;
}

/* The command line, filled by the table below (one run a process). */
static struct {
    const char *db, *table, *key, *format;
    bool skip_bad, replace;
} A;

static const opt load_table[] = {
    OPT_STRING("table", "T", &A.table, "the table for formats that do not name one"),
    OPT_STRING("format", "F", &A.format, "the file's format (default: auto-detected)"),
    OPT_STRING("key", "K", &A.key, "create T when missing, e.g. --key PK:S,SK:S (types S, N, B)"),
    OPT_BOOL("skip-bad", &A.skip_bad, "load the good items, report each bad one"),
    OPT_BOOL("replace", &A.replace, "Workbench models: drop and recreate tables that exist"),
    CLI_OPT_DB(&A.db),
    OPT_END(),
};

static const opts_cmd load_cmd = {
    .name = "load",
    .usage = "ddbx load FILE [--table T] [--format F] [--skip-bad] [--replace]\n"
             "                 [--key PK:TYPE[,SK:TYPE]] [--db FILE]",
    .about = "FILE '-' reads stdin. Formats (default auto-detected):\n"
             "  ddb-json, jsonl  DynamoDB JSON items: an array, or one item a line\n"
             "  s3               DynamoDB export to S3 lines {\"Item\": {...}}\n"
             "  aws-cli          `aws dynamodb scan`/`query` output {\"Items\": [...]}, pages concatenated\n"
             "  batch            BatchWriteItem request files {\"Table\": [{\"PutRequest\": ...}]}\n"
             "  workbench        NoSQL Workbench model: creates tables and indexes, loads TableData\n"
             "  plain            plain JSON objects, types inferred (lossy)\n"
             "Without --skip-bad a bad item fails the file and nothing of it is committed.\n",
    .opts = load_table,
    .positional = true,
};

int cli_load(int argc, char **argv)
{
    int parsed = opts_main(&load_cmd, &argc, argv);
    if (parsed >= 0)
        return parsed;
    const char *flag_db = A.db, *table = A.table, *key = A.key, *format = A.format;
    bool skip_bad = A.skip_bad, replace = A.replace, created = false;
    import_format fmt = IMPORT_AUTO;
    if (format && !import_format_parse(format, &fmt)) {
        fprintf(stderr, "ddbx load: unknown format '%s'\n", format);
        opts_usage(&load_cmd, stderr);
        return 2;
    }
    if (opts_one_positional(&load_cmd, argc, argv, "FILE"))
        return 2;
    const char *file = argv[1];

    int ret = 1;
    char *path = paths_db(flag_db, 1);
    store *s = NULL;
    import_source *src = NULL;
    import_store_ctx ctx;
    import_sink sink;
    import_store_sink(&ctx, NULL, replace, &sink);
    diag d;
    diag_init(&d);

    if (store_open(path, cli_store_flags(), &s, &d) != ST_OK) {
        fprintf(stderr, "ddbx load: %s: %s\n", path, d.msg);
        goto out;
    }
    if (import_source_open(file, fmt, &src, &d) != ST_OK) {
        cli_print_diag("ddbx load", &d);
        goto out;
    }
    fmt = import_source_format(src);
    if (table && fmt != IMPORT_WORKBENCH && fmt != IMPORT_BATCH) {
        if ((ret = ensure_table(s, table, key, &created, &d)) != 0)
            goto out;
        ret = 1;
    }
    if (fmt == IMPORT_PLAIN)
        fprintf(stderr, "ddbx load: note: plain JSON: types are inferred "
                        "(lossy: binary and sets load as strings and lists)\n");

    progress pr = { .tty = isatty(2) == 1, .file = file };
    clock_gettime(CLOCK_MONOTONIC, &pr.start);
    pr.last = pr.start;
    import_opts o = {
        .table = table, .skip_bad = skip_bad,
        .on_skip = on_skip, .on_progress = on_progress, .cb_ctx = &pr,
    };
    import_stats st;
    import_store_sink(&ctx, s, replace, &sink);
    status rc = import_run(src, &sink, &o, &st, &d);
    if (pr.tty)
        fputs("\r\033[K", stderr);
    if (rc != ST_OK) {
        cli_print_diag("ddbx load", &d);
        if (created) {
            diag dd;
            diag_init(&dd);
            store_delete_table(s, table, &dd);
        }
        fprintf(stderr, "ddbx load: nothing of ");
        cli_fputs_safe(stderr, file);
        fprintf(stderr, " was loaded\n");
        goto out;
    }
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    double secs = since(&pr.start, &now);
    fprintf(stderr, "ddbx load: %llu item%s", (unsigned long long)st.items, st.items == 1 ? "" : "s");
    if (st.tables)
        fprintf(stderr, " into %llu new table%s", (unsigned long long)st.tables,
                st.tables == 1 ? "" : "s");
    fprintf(stderr, " (%s) in %.2fs", import_format_name(fmt), secs);
    if (secs > 0 && st.items)
        fprintf(stderr, ", %.0f items/s", (double)st.items / secs);
    if (st.skipped)
        fprintf(stderr, "; %llu bad item%s skipped", (unsigned long long)st.skipped,
                st.skipped == 1 ? "" : "s");
    fputc('\n', stderr);
    ret = 0;
out:
    import_source_free(src);
    if (s)
        store_close(s);
    free(path);
    return ret;
}
