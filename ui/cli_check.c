/*
 * cli_check — `ddbx check [PATTERNS.json...] [--db FILE | --endpoint-url URL
 * | --region R] [--profile P] [--format text|tap|json]`: runs every access
 * pattern of the files against the store, read-only, and says for each
 * what it ran as, how many items it returned, what it read and the
 * verdict (model/pattern.h: pattern_judge), then a summary.
 *
 * Exit status: 0 when every pattern passes (warnings included), 1 when
 * any fails (a Scan, more read units or items than allowed, an entity
 * type it should not return, too few items, a store error such as a
 * missing index), 2 for a usage error, a file that does not parse (with
 * FILE:LINE:COLUMN) or a store that does not open. No terminal needed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/pattern_file.h"
#include "data/pattern_run.h"
#include "data/remote.h"
#include "data/samples.h"
#include "data/store.h"
#include "model/ddbjson.h"
#include "ui/cli.h"

static const char usage[] =
    "usage: ddbx check [PATTERNS.json...] [--db FILE] [--format text|tap|json]\n"
    "       ddbx check [PATTERNS.json...] (--endpoint-url URL | --region R) [--profile P]\n"
    "Runs every access pattern of the files against the store (read-only) and\n"
    "prints one line a pattern (verdict, name, operation, items, read units,\n"
    "reasons) and a summary. Exit status 1 when a pattern needs a Scan, reads\n"
    "more than allowed, returns an entity type it should not or fails; 2 for a\n"
    "bad pattern file (FILE:LINE:COLUMN: member: message). Without a file: every\n"
    "*.json of the database's pattern folder (its folder + /patterns).\n";

enum fmt { FMT_TEXT, FMT_TAP, FMT_JSON };

/* One pattern's outcome, for the report. */
typedef struct outcome {
    const char *file;
    const pattern *p;
    pattern_result r;
    pattern_verdict v;
    buf why;
} outcome;

char *cli_patterns_dir(const char *db_path)
{
    const char *slash = strrchr(db_path, '/');
    buf b = BUF_INIT;
    if (slash)
        buf_printf(&b, "%.*s/patterns", (int)(slash - db_path), db_path);
    else
        buf_adds(&b, "patterns");
    return buf_steal(&b);
}

int cli_write_sample_patterns(const char *dir, const char *db_path, FILE *f)
{
    char *own = dir ? NULL : cli_patterns_dir(db_path);
    buf written = BUF_INIT;
    diag d;
    diag_init(&d);
    int rc = 0;
    if (samples_write_patterns(dir ? dir : own, &written, &d) != ST_OK) {
        if (f)
            cli_print_diag("ddbx samples", &d);
        rc = -1;
    } else if (f) {
        fputs("access patterns (copy them; check them with ddbx check FILE --db DATABASE):\n", f);
        for (char *line = written.data; line && *line;) {
            char *nl = strchr(line, '\n');
            fputs("  ", f);
            cli_put_clean(f, line, (size_t)(nl - line));
            fputc('\n', f);
            line = nl + 1;
        }
    }
    buf_done(&written);
    free(own);
    return rc;
}

static status send_remote(void *ctx, const char *op, const char *input, size_t len, char **out,
                          diag *d)
{
    return remote_call(ctx, op, input, len, out, d);
}

/* "Query", or "PartiQL (Scan)": what ran. */
static void op_text(const outcome *o, buf *out)
{
    if (o->p->op == PAT_PARTIQL)
        buf_printf(out, "PartiQL (%s)", pattern_op_name(o->r.ran_as));
    else
        buf_adds(out, pattern_op_name(o->r.ran_as));
}

/* Names have no control characters (the file reader refuses them), so
 * they are padded as they are. */
static void put_text(const outcome *o, int name_w, bool show_file)
{
    buf op = BUF_INIT;
    op_text(o, &op);
    printf("%-4s  %-*s  %-15s %5zu item%s  %4g RCU", pattern_verdict_name(o->v), name_w,
           o->p->name, op.data, o->r.items, o->r.items == 1 ? " " : "s", o->r.units);
    if (o->r.truncated)
        fputs(" (more pages)", stdout);
    if (o->why.len) {
        fputs("  -- ", stdout);
        cli_fputs_safe(stdout, o->why.data);
    }
    if (show_file && o->v != PAT_PASS) {
        fputs("  [", stdout);
        cli_fputs_safe(stdout, o->file);
        printf(":%d:%d]", o->p->line, o->p->col);
    }
    fputc('\n', stdout);
    buf_done(&op);
}

static void put_tap(const outcome *o, size_t i)
{
    buf op = BUF_INIT;
    op_text(o, &op);
    printf("%s %zu - ", o->v == PAT_FAIL ? "not ok" : "ok", i + 1);
    cli_fputs_safe(stdout, o->p->name);
    printf(": %s, %zu item%s, %g RCU\n", op.data, o->r.items, o->r.items == 1 ? "" : "s",
           o->r.units);
    if (o->why.len) {
        printf("# %s: ", pattern_verdict_name(o->v));
        cli_fputs_safe(stdout, o->why.data);
        fputc('\n', stdout);
    }
    buf_done(&op);
}

static void json_str(buf *b, const char *name, const char *val)
{
    buf_printf(b, "\"%s\":", name);
    if (val)
        ddbjson_write_string(b, val, strlen(val));
    else
        buf_adds(b, "null");
}

static void put_json(const outcome *o, size_t n, const size_t count[3])
{
    buf b = BUF_INIT;
    buf_adds(&b, "{\"patterns\":[");
    for (size_t i = 0; i < n; i++) {
        const outcome *x = &o[i];
        buf_adds(&b, i ? ",{" : "{");
        json_str(&b, "name", x->p->name);
        buf_addc(&b, ',');
        json_str(&b, "description", x->p->description);
        buf_addc(&b, ',');
        json_str(&b, "file", x->file);
        buf_printf(&b, ",\"line\":%d,\"column\":%d,", x->p->line, x->p->col);
        json_str(&b, "operation", pattern_op_name(x->p->op));
        buf_addc(&b, ',');
        json_str(&b, "ran_as", pattern_op_name(x->r.ran_as));
        buf_printf(&b, ",\"items\":%zu,\"scanned\":%llu,\"read_units\":%g,\"more_pages\":%s,",
                   x->r.items, (unsigned long long)x->r.scanned, x->r.units,
                   x->r.truncated ? "true" : "false");
        json_str(&b, "verdict", pattern_verdict_name(x->v));
        buf_addc(&b, ',');
        json_str(&b, "reasons", x->why.len ? x->why.data : NULL);
        buf_addc(&b, '}');
    }
    buf_printf(&b, "],\"summary\":{\"patterns\":%zu,\"pass\":%zu,\"warn\":%zu,\"fail\":%zu}}\n",
               n, count[PAT_PASS], count[PAT_WARN], count[PAT_FAIL]);
    fwrite(b.data, 1, b.len, stdout);
    buf_done(&b);
}

/* The store: local (read-only) or remote (read-only). */
static status open_store(const char *flag_db, int rem, const remote_opts *ro, remote **rp,
                         store **out, diag *d)
{
    if (!rem) {
        char *path = cli_db_path(flag_db, 0);
        status st = store_open(path, STORE_READ_ONLY, out, d);   /* d names the path */
        free(path);
        return st;
    }
    status st = remote_open(ro, rp, d);
    if (st == ST_OK)
        st = store_open_remote(send_remote, *rp, remote_describe(*rp), 0, out, d);
    return st;
}

static int parse_format(const char *v, enum fmt *f)
{
    if (strcmp(v, "text") == 0)
        *f = FMT_TEXT;
    else if (strcmp(v, "tap") == 0)
        *f = FMT_TAP;
    else if (strcmp(v, "json") == 0)
        *f = FMT_JSON;
    else
        return -1;
    return 0;
}

/* Reads every file into one set each; prints the first error. */
static int load_files(char **files, size_t n, pattern_set *sets)
{
    for (size_t i = 0; i < n; i++) {
        diag d;
        diag_init(&d);
        if (pattern_file_load(files[i], &sets[i], &d) != ST_OK) {
            fputs("ddbx check: ", stderr);
            cli_fputs_safe(stderr, d.file);
            if (d.line > 0)
                fprintf(stderr, ":%d:%d", d.line, d.col);
            fputs(": ", stderr);
            cli_fputs_safe(stderr, d.msg);
            fputc('\n', stderr);
            return 2;
        }
    }
    return 0;
}

static int report(outcome *o, size_t n, enum fmt f, bool many_files)
{
    size_t count[3] = { 0, 0, 0 };
    int name_w = 0;
    for (size_t i = 0; i < n; i++) {
        count[o[i].v]++;
        int w = (int)strlen(o[i].p->name);
        name_w = w > name_w && w <= 40 ? w : name_w;
    }
    if (f == FMT_JSON) {
        put_json(o, n, count);
    } else {
        if (f == FMT_TAP)
            printf("1..%zu\n", n);
        for (size_t i = 0; i < n; i++) {
            if (f == FMT_TAP)
                put_tap(&o[i], i);
            else
                put_text(&o[i], name_w, many_files);
        }
        printf("%s%zu pattern%s: %zu pass, %zu warn, %zu FAIL\n", f == FMT_TAP ? "# " : "", n,
               n == 1 ? "" : "s", count[PAT_PASS], count[PAT_WARN], count[PAT_FAIL]);
    }
    return count[PAT_FAIL] ? 1 : 0;
}

static int run_all(store *st, char **files, pattern_set *sets, size_t n_files, enum fmt f)
{
    size_t n = 0;
    for (size_t i = 0; i < n_files; i++)
        n += sets[i].n;
    outcome *o = calloc(n ? n : 1, sizeof *o);
    size_t k = 0;
    for (size_t i = 0; i < n_files; i++)
        for (size_t j = 0; j < sets[i].n; j++, k++) {
            o[k].file = files[i];
            o[k].p = &sets[i].p[j];
            pattern_result_init(&o[k].r);
            buf_init(&o[k].why);
            pattern_run(st, &sets[i], o[k].p, NULL, false, &o[k].r);
            o[k].v = pattern_judge(o[k].p, &o[k].r, &o[k].why);
        }
    int rc = report(o, n, f, n_files > 1);
    for (k = 0; k < n; k++) {
        pattern_result_done(&o[k].r);
        buf_done(&o[k].why);
    }
    free(o);
    return rc;
}

int cli_check(int argc, char **argv)
{
    const char *flag_db = cli_take_db(&argc, argv);
    remote_opts ro;
    int rem = cli_take_remote(&argc, argv, &ro, NULL);
    if (rem < 0)
        return 2;
    enum fmt f = FMT_TEXT;
    char **files = calloc((size_t)argc, sizeof *files);
    size_t n_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            free(files);
            return 0;
        }
        const char *fv = strncmp(a, "--format=", 9) == 0 ? a + 9
                         : strcmp(a, "--format") == 0 && i + 1 < argc ? argv[++i] : NULL;
        if (fv ? parse_format(fv, &f) < 0 : (a[0] == '-' && a[1])) {
            fputs("ddbx check: unknown option or format ", stderr);
            cli_fputs_safe(stderr, fv ? fv : a);
            fprintf(stderr, "\n%s", usage);
            free(files);
            return 2;
        }
        if (!fv)
            files[n_files++] = argv[i];
    }
    if (rem && flag_db) {
        fputs("ddbx check: --db names a local database; it cannot be combined with"
              " --endpoint-url, --region or --profile\n", stderr);
        fputs(usage, stderr);
        free(files);
        return 2;
    }
    char **listed = NULL;
    size_t n_listed = 0;
    if (!n_files) {
        /* No file named: the database's pattern folder (a remote table's
         * is the local default database's). */
        char *db = cli_db_path(rem ? NULL : flag_db, 0);
        char *dir = cli_patterns_dir(db);
        pattern_file_list_dir(dir, &listed, &n_listed);
        if (!n_listed) {
            fputs("ddbx check: name a pattern file (there is none in ", stderr);
            cli_fputs_safe(stderr, dir);
            fprintf(stderr, ")\n%s", usage);
        }
        free(dir);
        free(db);
        if (!n_listed) {
            free(files);
            return 2;
        }
        free(files);
        files = listed;
        n_files = n_listed;
    }
    pattern_set *sets = calloc(n_files, sizeof *sets);
    int rc = load_files(files, n_files, sets);
    store *st = NULL;
    remote *r = NULL;
    diag d;
    diag_init(&d);
    if (rc == 0 && open_store(flag_db, rem, &ro, &r, &st, &d) != ST_OK) {
        cli_print_diag("ddbx check", &d);
        rc = 2;
    }
    if (rc == 0)
        rc = run_all(st, files, sets, n_files, f);
    if (st)
        store_close(st);
    if (r)
        remote_close(r);
    for (size_t i = 0; i < n_files; i++) {
        pattern_set_done(&sets[i]);
        if (listed)
            free(files[i]);
    }
    free(sets);
    free(files);
    return rc;
}
