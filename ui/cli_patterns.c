/*
 * cli_patterns — `ddbx patterns FILE... [--out DIR] [--db FILE] [--format
 * text|json]`: the access patterns of recorded traffic (the files `ddbx
 * serve --record` writes, data/record.h), grouped by model/mine.h: each
 * with its calls, share, rate, items and units a call and a month; the
 * findings (Scans, wasteful filters, hot keys, indexes nobody read); with
 * --out, one pattern file a table (DIR/mined-TABLE.json, the format
 * `ddbx check` runs, data/pattern_file.h). With --db the database's
 * tables declare their indexes, so an index no request read is named.
 *
 * Exit status: 0, 1 when a finding was made, 2 for a usage error or a
 * file that cannot be read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/pattern_file.h"
#include "data/record.h"
#include "data/store.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/mine.h"
#include "model/schema.h"
#include "ui/cli.h"
#include "ui/opts.h"

static struct {
    const char *out, *db, *format;
} args;

static const opt patterns_opts[] = {
    OPT_STRING("out", "DIR", &args.out, "write DIR/mined-TABLE.json, pattern files ddbx check runs"),
    OPT_STRING("db", "FILE", &args.db, "the database whose tables' indexes are checked for use"),
    OPT_STRING("format", "text|json", &args.format, "the report's format (default text)"),
    OPT_END(),
};

static const opts_cmd patterns_cmd = {
    .name = "patterns",
    .usage = "ddbx patterns FILE... [--out DIR] [--db FILE] [--format text|json]",
    .opts = patterns_opts,
    .positional = true,
    .about = "Groups the requests `ddbx serve --record FILE` recorded into access patterns (operation,\n"
             "table or index, key condition, filter, projection): calls, share, rate, items and units\n"
             "a call and a month; names Scans, filters that discard most of what they read, hot keys\n"
             "and indexes nobody read. Exit status 1 when it names one. See ddbx(1).\n",
};

/* The indexes of the database's tables, declared to m; 0 or 2. */
static int declare_db(mine *m, const char *flag_db)
{
    char *path = paths_db(flag_db, 0);
    store *st = NULL;
    diag d;
    diag_init(&d);
    int rc = 0;
    char **names = NULL;
    size_t n = 0;
    if (store_open(path, cli_store_flags() | STORE_READ_ONLY, &st, &d) != ST_OK ||
        store_list_tables(st, &names, &n, &d) != ST_OK) {
        fprintf(stderr, "ddbx patterns: %s: %s\n", path, d.msg);
        rc = 2;
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        table_def def;
        memset(&def, 0, sizeof def);
        if (store_describe(st, names[i], &def, &d) != ST_OK)
            continue;
        for (size_t k = 0; k < def.n_idx; k++)
            mine_declare_index(m, def.name, def.idx[k].name);
        table_def_free(&def);
    }
    store_names_free(names, n);
    store_close(st);
    free(path);
    return rc;
}

static const char *or_dash(const char *s)
{
    return s ? s : "-";
}

static void print_text(const mine *m)
{
    printf("%" PRIu64 " requests over %.1f s (%.1f a second), %zu patterns\n\n", mine_calls(m), mine_seconds(m),
           (double)mine_calls(m) / mine_seconds(m), mine_count(m));
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *p = mine_get(m, i);
        buf b = BUF_INIT, name = BUF_INIT;
        mine_pattern_name(m, i, &name);
        printf("%2zu %-40s %8" PRIu64 " calls %5.1f%%  %.2f/s\n", i + 1, name.data, p->calls,
               100.0 * (double)p->calls / (double)mine_calls(m), mine_rate(m, p));
        printf("   %s %s%s%s", p->op, or_dash(p->table), p->index ? " index " : "", p->index ? p->index : "");
        if (p->keycond) {
            mine_shape_text(p, p->keycond, &b);
            printf("  key: %s", b.data);
            buf_reset(&b);
        }
        if (p->filter) {
            mine_shape_text(p, p->filter, &b);
            printf("  filter: %s", b.data);
            buf_reset(&b);
        }
        if (p->projection) {
            mine_shape_text(p, p->projection, &b);
            printf("  projection: %s", b.data);
        }
        if (p->select)
            printf("  select: %s", p->select);
        if (p->limit)
            printf("  limit: %ld", p->limit);
        printf("\n");
        const char *u = mine_is_write(p) ? "WCU" : "RCU";
        if (p->counted)
            printf("   %.2f items returned, %.2f read a call;", (double)p->returned / (double)p->counted,
                   (double)p->scanned / (double)p->counted);
        printf("   %.2f %s a call, %.0f %s a month at this rate; %.3f ms a call", mine_units_per_call(p), u,
               mine_units_month(m, p), u, p->ms / (double)p->calls);
        if (p->errors)
            printf("; %" PRIu64 " errors", p->errors);
        printf("\n");
        buf_done(&b);
        buf_done(&name);
    }
}

static void json_str(buf *b, const char *member, const char *s)
{
    if (!s)
        return;
    buf_printf(b, ",\"%s\":", member);
    ddbjson_write_string(b, s, strlen(s));
}

static void print_json(const mine *m, const mine_finding *f, size_t n_f)
{
    buf b = BUF_INIT;
    buf_printf(&b, "{\"requests\":%" PRIu64 ",\"seconds\":%.3f,\"patterns\":[", mine_calls(m), mine_seconds(m));
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *p = mine_get(m, i);
        buf name = BUF_INIT, shape = BUF_INIT;
        mine_pattern_name(m, i, &name);
        buf_adds(&b, i ? ",{\"name\":" : "{\"name\":");
        ddbjson_write_string(&b, name.data, name.len);
        json_str(&b, "operation", p->op);
        json_str(&b, "table", p->table);
        json_str(&b, "index", p->index);
        const char *shapes[] = { p->keycond, p->filter, p->projection };
        const char *members[] = { "key_condition", "filter", "projection" };
        for (int k = 0; k < 3; k++) {
            buf_reset(&shape);
            if (shapes[k])
                mine_shape_text(p, shapes[k], &shape);
            json_str(&b, members[k], shapes[k] ? shape.data : NULL);
        }
        json_str(&b, "select", p->select);
        double share;
        const mine_hot *top = mine_top_key(p, &share);
        buf_printf(&b, ",\"calls\":%" PRIu64 ",\"share\":%.4f,\"rate\":%.4f,\"errors\":%" PRIu64, p->calls,
                   (double)p->calls / (double)mine_calls(m), mine_rate(m, p), p->errors);
        if (p->counted)
            buf_printf(&b, ",\"returned_per_call\":%.3f,\"read_per_call\":%.3f",
                       (double)p->returned / (double)p->counted, (double)p->scanned / (double)p->counted);
        buf_printf(&b, ",\"%s_per_call\":%.3f,\"%s_per_month\":%.0f,\"ms_per_call\":%.3f",
                   mine_is_write(p) ? "wcu" : "rcu", mine_units_per_call(p), mine_is_write(p) ? "wcu" : "rcu",
                   mine_units_month(m, p), p->ms / (double)p->calls);
        if (top)
            buf_printf(&b, ",\"top_key\":\"%s\",\"top_key_share\":%.4f,\"hot\":%s", top->key, share,
                       mine_is_hot(p) ? "true" : "false");
        buf_addc(&b, '}');
        buf_done(&name);
        buf_done(&shape);
    }
    static const char *const kinds[] = { "scan", "filter", "hot_key", "unused_index" };
    buf_adds(&b, "],\"findings\":[");
    for (size_t i = 0; i < n_f; i++) {
        buf_printf(&b, "%s{\"kind\":\"%s\"", i ? "," : "", kinds[f[i].kind]);
        if (f[i].kind != MINE_F_UNUSED_INDEX)
            buf_printf(&b, ",\"pattern\":%zu", f[i].pattern + 1);
        json_str(&b, "table", f[i].table);
        json_str(&b, "index", f[i].index);
        json_str(&b, "text", f[i].text);
        buf_addc(&b, '}');
    }
    buf_adds(&b, "]}\n");
    fwrite(b.data, 1, b.len, stdout);
    buf_done(&b);
}

/* DIR/mined-TABLE.json for each table with a read pattern; 0 or 2. */
static int write_files(const mine *m, const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "ddbx patterns: --out %s: %s\n", dir, strerror(errno));
        return 2;
    }
    int rc = 0;
    size_t files = 0, made = 0;
    for (size_t i = 0; rc == 0 && i < mine_count(m); i++) {
        const char *t = mine_get(m, i)->table;
        bool first = t != NULL;
        for (size_t k = 0; first && k < i; k++)
            first = !mine_get(m, k)->table || strcmp(mine_get(m, k)->table, t) != 0;
        if (!first)
            continue;
        pattern_set set;
        pattern_set_init(&set);
        size_t n = mine_to_patterns(m, t, &set);
        if (n) {
            buf path = BUF_INIT;
            buf_printf(&path, "%s/mined-%s.json", dir, t);
            diag d;
            diag_init(&d);
            if (pattern_file_save(path.data, &set, &d) != ST_OK) {
                fprintf(stderr, "ddbx patterns: %s\n", d.msg);
                rc = 2;
            }
            files++;
            made += n;
            buf_done(&path);
        }
        pattern_set_done(&set);
    }
    if (rc == 0)
        fprintf(stderr, "ddbx patterns: %zu read patterns written to %zu files in %s (mined-TABLE.json)\n", made,
                files, dir);
    return rc;
}

int cli_patterns(int argc, char **argv)
{
    memset(&args, 0, sizeof args);
    args.format = "text";
    int pr = opts_parse(&patterns_cmd, &argc, argv);
    if (pr != OPTS_OK)
        return pr == OPTS_HELP ? 0 : 2;
    bool json = strcmp(args.format, "json") == 0;
    if (!json && strcmp(args.format, "text") != 0) {
        fprintf(stderr, "ddbx patterns: --format %s: text or json\n", args.format);
        return 2;
    }
    if (argc < 2) {
        fprintf(stderr, "ddbx patterns: name the record files (ddbx serve --record FILE writes them)\n");
        opts_usage(&patterns_cmd, stderr);
        return 2;
    }
    mine *m = mine_new();
    int rc = args.db ? declare_db(m, args.db) : 0;
    for (int i = 1; rc == 0 && i < argc; i++) {
        uint64_t lines = 0, bad = 0;
        buf at = BUF_INIT;
        diag d;
        diag_init(&d);
        if (record_read(argv[i], m, &lines, &bad, &at, &d) != ST_OK) {
            fprintf(stderr, "ddbx patterns: %s\n", d.msg);
            rc = 2;
        } else if (bad) {
            fprintf(stderr, "ddbx patterns: %" PRIu64 " of %" PRIu64 " lines skipped, not record lines (the first:"
                            " %s)\n", bad, lines, at.data);
        }
        buf_done(&at);
    }
    mine_finding *f = NULL;
    size_t n_f = 0;
    if (rc == 0) {
        mine_findings(m, &f, &n_f);
        if (json) {
            print_json(m, f, n_f);
        } else {
            print_text(m);
            printf("\n%zu finding%s\n", n_f, n_f == 1 ? "" : "s");
            for (size_t i = 0; i < n_f; i++)
                printf("  %s\n", f[i].text);
        }
        if (args.out)
            rc = write_files(m, args.out);
        if (rc == 0 && n_f)
            rc = 1;
    }
    mine_findings_free(f, n_f);
    mine_free(m);
    return rc;
}
