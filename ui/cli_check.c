/*
 * cli_check — `ddbx check [PATTERNS.json...] [--db FILE | --endpoint-url URL
 * | --region R] [--profile P] [--format text|tap|json]`: runs every access
 * pattern of the files against the store, read-only, and says for each
 * what it ran as, how many items it returned, what it read and the
 * verdict (model/pattern.h: pattern_judge), then a summary.
 *
 * Exit status: 0 when every pattern passes (warnings included), 1 when
 * any fails (a Scan, more read units or items than allowed, an ent_entity
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
#include "data/table_read.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/cli_cost.h"

static const char about[] =
    "Runs every access pattern of the files against the store (read-only) and\n"
    "prints one line a pattern (verdict, name, operation, items, read units,\n"
    "reasons) and a summary. Exit status 1 when a pattern needs a Scan, reads\n"
    "more than allowed, returns an entity type it should not or fails; 2 for a\n"
    "bad pattern file (FILE:LINE:COLUMN: member: message). Without a file: every\n"
    "*.json of the database's pattern folder (its folder + /patterns).\n"
    "--cost adds each pattern's cost per million calls (on-demand, provisioned) and\n"
    "a month at its \"rate\", what a write of each entity costs with its index\n"
    "copies, and the tables' storage, from --price FILE or the built-in prices of\n"
    "--price-region (us-east-1 by default; the region's date and source are said).\n";

enum fmt { FMT_TEXT, FMT_TAP, FMT_JSON };

/* --cost: the prices, and the entities of the tables the patterns read. */
static struct {
    bool on;
    price_table pt;
    const price_region *p;
    ent_model m;
} C;

/* One pattern's outcome, for the report. */
typedef struct outcome {
    const char *file;
    const pattern *p;
    pattern_result r;
    pattern_verdict v;
    buf why;
} outcome;

int cli_write_sample_patterns(const char *dir, const char *db_path, FILE *f)
{
    char *own = dir ? NULL : paths_patterns_dir(db_path);
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
    if (C.on) {
        buf c = BUF_INIT;
        cli_cost_calls_text(&C.pt, C.p, false, o->r.units, o->p->rate, &c);
        printf("      cost: %s\n", c.data);
        buf_done(&c);
    }
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
    if (C.on) {
        buf c = BUF_INIT;
        cli_cost_calls_text(&C.pt, C.p, false, o->r.units, o->p->rate, &c);
        printf("# cost: %s\n", c.data);
        buf_done(&c);
    }
    buf_done(&op);
}

/* --cost in JSON: the prices, each entity's writes, each table's and
 * index's storage. */
static void costs_json(store *st, buf *b)
{
    buf_adds(b, ",\"prices\":{");
    cli_json_member(b, "region", C.p->region);
    buf_addc(b, ',');
    cli_json_member(b, "currency", C.p->currency);
    buf_addc(b, ',');
    cli_json_member(b, "taken", C.p->taken);
    buf_addc(b, ',');
    cli_json_member(b, "source", C.p->source);
    buf_addc(b, ',');
    cli_json_member(b, "file", C.pt.file);
    buf_printf(b, ",\"hours_per_month\":%g},\"writes\":[", C.pt.hours_per_month);
    bool first = true;
    for (size_t i = 0; i < C.m.n; i++)
        for (size_t k = 0; k < C.m.t[i].n; k++) {
            const ent_entity *e = &C.m.t[i].e[k];
            double table, total;
            cost_entity_write(e, &table, NULL, &total);
            buf_adds(b, first ? "{" : ",{");
            first = false;
            cli_json_member(b, "table", C.m.t[i].name);
            buf_addc(b, ',');
            cli_json_member(b, "entity", e->name);
            buf_printf(b, ",\"table_units\":%.6g,\"write_units\":%.6g,", table, total);
            cli_cost_calls_json(&C.pt, C.p, true, total, 0, b);
            buf_addc(b, '}');
        }
    buf_adds(b, "],\"storage\":[");
    first = true;
    for (size_t i = 0; i < C.m.n; i++) {
        const ent_table *t = &C.m.t[i];
        for (size_t x = 0; x <= t->def.n_idx; x++) {
            const char *index = x ? t->def.idx[x - 1].name : NULL;
            table_stats ts;
            diag d;
            diag_init(&d);
            if (store_stats(st, t->name, index, &ts, &d) != ST_OK)
                continue;
            buf_adds(b, first ? "{" : ",{");
            first = false;
            cli_json_member(b, "table", t->name);
            buf_addc(b, ',');
            cli_json_member(b, "index", index);
            double month = cost_storage_month(C.p, ts.bytes, ts.items);
            buf_printf(b, ",\"items\":%llu,\"bytes\":%llu,\"billed_bytes\":%llu,",
                       (unsigned long long)ts.items, (unsigned long long)ts.bytes,
                       (unsigned long long)cost_storage_bytes(ts.bytes, ts.items));
            if (month != month)
                buf_adds(b, "\"month\":null}");
            else
                buf_printf(b, "\"month\":%.10g}", month);
        }
    }
    buf_addc(b, ']');
}

/* --cost in text: the writes and the storage, then where the prices are from. */
static void costs_text(store *st, enum fmt f)
{
    const char *c = f == FMT_TAP ? "# " : "";
    buf b = BUF_INIT;
    buf_printf(&b, "%swrites (one item of each entity, with the index entries it writes):\n", c);
    for (size_t i = 0; i < C.m.n; i++)
        cli_cost_writes_text(&C.m.t[i], &C.pt, C.p, &b);
    buf_printf(&b, "%sstorage (each item and index entry billed 100 bytes more; 1 GB is 2^30 bytes):\n", c);
    for (size_t i = 0; i < C.m.n; i++)
        cli_cost_storage_text(st, &C.m.t[i], C.p, &b);
    buf_printf(&b, "%sprices: ", c);
    cli_cost_prices_text(&C.pt, C.p, &b);
    buf_addc(&b, '\n');
    if (f == FMT_TAP)   /* every line a comment */
        for (char *nl = strchr(b.data, '\n'); nl && nl[1]; nl = strchr(nl + 1, '\n'))
            if (nl[1] == ' ')
                nl[1] = '#';
    cli_fputs_lines(stdout, b.data);
    buf_done(&b);
}

static void put_json(store *st, const outcome *o, size_t n, const size_t count[3])
{
    buf b = BUF_INIT;
    buf_adds(&b, "{\"patterns\":[");
    for (size_t i = 0; i < n; i++) {
        const outcome *x = &o[i];
        buf_adds(&b, i ? ",{" : "{");
        cli_json_member(&b, "name", x->p->name);
        buf_addc(&b, ',');
        cli_json_member(&b, "description", x->p->description);
        buf_addc(&b, ',');
        cli_json_member(&b, "file", x->file);
        buf_printf(&b, ",\"line\":%d,\"column\":%d,", x->p->line, x->p->col);
        cli_json_member(&b, "operation", pattern_op_name(x->p->op));
        buf_addc(&b, ',');
        cli_json_member(&b, "ran_as", pattern_op_name(x->r.ran_as));
        buf_printf(&b, ",\"items\":%zu,\"scanned\":%llu,\"read_units\":%g,\"more_pages\":%s,",
                   x->r.items, (unsigned long long)x->r.scanned, x->r.units,
                   x->r.truncated ? "true" : "false");
        cli_json_member(&b, "verdict", pattern_verdict_name(x->v));
        buf_addc(&b, ',');
        cli_json_member(&b, "reasons", x->why.len ? x->why.data : NULL);
        if (C.on) {
            buf_adds(&b, ",\"cost\":{");
            cli_cost_calls_json(&C.pt, C.p, false, x->r.units, x->p->rate, &b);
            buf_addc(&b, '}');
        }
        buf_addc(&b, '}');
    }
    buf_printf(&b, "],\"summary\":{\"patterns\":%zu,\"pass\":%zu,\"warn\":%zu,\"fail\":%zu}",
               n, count[PAT_PASS], count[PAT_WARN], count[PAT_FAIL]);
    if (C.on)
        costs_json(st, &b);
    buf_adds(&b, "}\n");
    fwrite(b.data, 1, b.len, stdout);
    buf_done(&b);
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
            cli_print_file_diag("ddbx check", &d);
            return 2;
        }
    }
    return 0;
}

static int report(store *st, outcome *o, size_t n, enum fmt f, bool many_files)
{
    size_t count[3] = { 0, 0, 0 };
    int name_w = 0;
    for (size_t i = 0; i < n; i++) {
        count[o[i].v]++;
        int w = (int)strlen(o[i].p->name);
        name_w = w > name_w && w <= 40 ? w : name_w;
    }
    if (f == FMT_JSON) {
        put_json(st, o, n, count);
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
        if (C.on)
            costs_text(st, f);
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
    /* --cost: the entities of every table a pattern reads, for their writes. */
    for (size_t i = 0; C.on && i < n; i++) {
        if (ent_model_table(&C.m, o[i].p->table))
            continue;
        ent_table t;
        ent_table_init(&t);
        table_read info;
        diag d;
        diag_init(&d);
        if (table_read_model(st, o[i].p->table, TABLE_READ_SAMPLE, &t, &info, &d) == ST_OK)
            ent_model_put(&C.m, &t);
        ent_table_done(&t);
    }
    int rc = report(st, o, n, f, n_files > 1);
    for (k = 0; k < n; k++) {
        pattern_result_done(&o[k].r);
        buf_done(&o[k].why);
    }
    free(o);
    return rc;
}

int cli_check(int argc, char **argv)
{
    const char *flag_db = NULL, *format = NULL, *price_file = NULL, *region = NULL;
    remote_opts ro = { 0 };
    const opt table[] = {
        CLI_OPT_DB(&flag_db),
        CLI_OPTS_REMOTE(&ro),
        OPT_STRING("format", "F", &format, "text (default), tap or json"),
        OPT_BOOL("cost", &C.on, "each pattern's cost in dollars, with writes and storage"),
        OPT_STRING("price", "FILE", &price_file, "the prices (implies --cost; default: built in)"),
        OPT_STRING("price-region", "R", &region, "the built-in prices of region R (implies --cost)"),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "check",
        .usage = "ddbx check [PATTERNS.json...] [--db FILE] [--format text|tap|json]\n"
                 "                  [--cost] [--price FILE] [--price-region R]\n"
                 "       ddbx check [PATTERNS.json...] (--endpoint-url URL | --region R) [--profile P]",
        .about = about,
        .opts = table,
        .positional = true,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    enum fmt f = FMT_TEXT;
    if (format && parse_format(format, &f) < 0) {
        fputs("ddbx check: unknown option or format ", stderr);
        cli_fputs_safe(stderr, format);
        fprintf(stderr, "\nusage: %s\n", cmd.usage);
        return 2;
    }
    C.on = C.on || price_file || region;
    if (!region)
        region = "us-east-1";
    int rem = cli_where("check", flag_db, &ro);
    if (rem < 0)
        return 2;
    char **files = xcalloc((size_t)argc, sizeof *files);
    size_t n_files = 0;
    for (int i = 1; i < argc; i++)
        files[n_files++] = argv[i];
    char **listed = NULL;
    size_t n_listed = 0;
    if (!n_files) {
        /* No file named: the database's pattern folder (a remote table's
         * is the local default database's). */
        char *db = paths_db(rem ? NULL : flag_db, 0);
        char *dir = paths_patterns_dir(db);
        pattern_file_list_dir(dir, &listed, &n_listed);
        if (!n_listed) {
            fputs("ddbx check: name a pattern file (there is none in ", stderr);
            cli_fputs_safe(stderr, dir);
            fprintf(stderr, ")\nusage: %s\n", cmd.usage);
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
    price_table_init(&C.pt);
    ent_model_init(&C.m);
    if (rc == 0 && C.on)
        rc = cli_load_prices(price_file, region, "ddbx check", &C.pt, &C.p);
    store *st = NULL;
    remote *r = NULL;
    diag d;
    diag_init(&d);
    if (rc == 0 && cli_open_read_store(flag_db, rem, &ro, &r, &st, &d) != ST_OK) {
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
    price_table_done(&C.pt);
    ent_model_done(&C.m);
    free(sets);
    free(files);
    return rc;
}
