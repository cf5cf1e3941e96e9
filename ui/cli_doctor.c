/*
 * cli_doctor — `ddbx doctor [TABLE...] [--db FILE | --endpoint-url URL |
 * --region R] [--profile P] [--patterns FILE]... [--model FILE] [--sample
 * N | --all] [--format text|json]`: what hurts the design of each table
 * (model/doctor.h), each finding with what to do.
 *
 * The access patterns are the files given, else the database's pattern
 * folder; the model (for items of no entity) is --model's file, else the
 * entities inferred from the data. A local table is read whole (--sample N
 * reads a sample); a remote one is sampled (10,000 items; --all reads it
 * all), never written, and the reading is said on stderr.
 *
 * Exit status: 0 when nothing is found, 1 when something is (or a table
 * cannot be read), 2 for a usage error or a file that does not parse.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/doctor_run.h"
#include "data/model_file.h"
#include "data/pattern_file.h"
#include "data/remote.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/cli.h"

static const char about[] =
    "Finds what hurts a design, and says what to do: items near the 400 KB limit, TTL\n"
    "values that cannot work, indexes no access pattern uses, GSI keys missing from\n"
    "items a pattern expects in the index, hot partitions, item collections near\n"
    "10 GB on tables with an LSI, items of no entity, attributes of mixed types.\n"
    "Every table when none is named; the patterns of the database's pattern folder\n"
    "unless --patterns. Exit status 1 when it finds something. Read-only.\n";

static void put_text(const doctor_report *r)
{
    buf b = BUF_INIT;
    for (size_t i = 0; i < r->n; i++) {
        const doctor_finding *f = &r->f[i];
        buf_printf(&b, "%-20s %s: %s\n%21s do: %s\n", doctor_kind_name(f->kind), f->table, f->what,
                   "", f->todo);
    }
    for (size_t i = 0; i < r->n_notes; i++)
        buf_printf(&b, "note: %s\n", r->notes[i]);
    buf_printf(&b, "%zu finding%s\n", r->n, r->n == 1 ? "" : "s");
    cli_fputs_lines(stdout, b.data);
    buf_done(&b);
}

static void put_json(const doctor_report *r)
{
    buf b = BUF_INIT;
    buf_adds(&b, "{\"findings\":[");
    for (size_t i = 0; i < r->n; i++) {
        const doctor_finding *f = &r->f[i];
        buf_adds(&b, i ? ",{" : "{");
        cli_json_member(&b, "kind", doctor_kind_name(f->kind));
        buf_addc(&b, ',');
        cli_json_member(&b, "table", f->table);
        buf_addc(&b, ',');
        cli_json_member(&b, "index", f->index);
        buf_addc(&b, ',');
        cli_json_member(&b, "what", f->what);
        buf_addc(&b, ',');
        cli_json_member(&b, "todo", f->todo);
        buf_adds(&b, ",\"key\":");
        if (f->key.type == AV_M)
            ddbjson_write_item(&b, &f->key);
        else
            buf_adds(&b, "null");
        buf_addc(&b, '}');
    }
    buf_adds(&b, "],\"notes\":[");
    for (size_t i = 0; i < r->n_notes; i++) {
        buf_adds(&b, i ? "," : "");
        ddbjson_write_string(&b, r->notes[i], strlen(r->notes[i]));
    }
    buf_printf(&b, "],\"count\":%zu}\n", r->n);
    fwrite(b.data, 1, b.len, stdout);
    buf_done(&b);
}

/* The command line, filled by the table below (one run a process). */
static struct {
    const char *db, *model, *format;
    remote_opts ro;
    opts_list patterns;
    long sample;
    bool all;
} A;

static const opt doctor_table[] = {
    CLI_OPT_DB(&A.db),
    CLI_OPTS_REMOTE(&A.ro),
    OPT_STRING_LIST("patterns", "FILE", &A.patterns, "an access-pattern file (default: the pattern folder's)"),
    OPT_STRING("model", "FILE", &A.model, "the entities of a model file (default: inferred)"),
    OPT_INTEGER("sample", "N", &A.sample, 1, 1e15, "read N items a table (remote default: 10000)"),
    OPT_BOOL("all", &A.all, "read every item (the local default)"),
    OPT_STRING("format", "F", &A.format, "text (default) or json"),
    OPT_END(),
};

static const opts_cmd doctor_cmd = {
    .name = "doctor",
    .usage = "ddbx doctor [TABLE...] [--db FILE] [--patterns FILE]... [--model FILE]\n"
             "                   [--sample N | --all] [--format text|json]\n"
             "       ddbx doctor [TABLE...] (--endpoint-url URL | --region R) [--profile P] [...]",
    .about = about,
    .opts = doctor_table,
    .positional = true,
};

int cli_doctor(int argc, char **argv)
{
    int rc = opts_main(&doctor_cmd, &argc, argv);
    if (rc >= 0)
        return rc;
    const char *flag_db = A.db, *model = A.model;
    remote_opts ro = A.ro;
    int rem = cli_where("doctor", flag_db, &ro);
    bool json = A.format && strcmp(A.format, "json") == 0;
    if (rem >= 0 && A.format && !json && strcmp(A.format, "text") != 0) {
        opts_refuse(&doctor_cmd, "unknown option or bad value: %s", A.format);
        rem = -1;
    }
    if (rem < 0) {
        opts_list_free(&A.patterns);
        return 2;
    }
    rc = 0;
    uint64_t sample = A.all ? 0 : A.sample ? (uint64_t)A.sample : rem ? TABLE_READ_SAMPLE : 0;
    pattern_set *sets = NULL;
    size_t n_sets = 0;
    if (rc == 0)
        rc = cli_load_pattern_sets(A.patterns.v, A.patterns.n, rem ? NULL : flag_db, "ddbx doctor", &sets, &n_sets);
    ent_model declared;
    ent_model_init(&declared);
    diag d;
    diag_init(&d);
    if (rc == 0 && model && model_file_load(model, &declared, &d) != ST_OK) {
        cli_print_file_diag("ddbx doctor", &d);
        rc = 2;
    }
    cli_read_set t = { 0 };
    if (rc == 0)
        rc = cli_read_set_open(&t, "ddbx doctor", flag_db, rem, &ro, argc, argv);
    const pattern_set **sp = xcalloc(n_sets + 1, sizeof *sp);
    for (size_t i = 0; i < n_sets; i++)
        sp[i] = &sets[i];
    doctor_report rep;
    doctor_report_init(&rep);
    uint64_t read = 0;
    for (size_t i = 0; rc == 0 && i < t.n_tables; i++) {
        table_read info;
        const char *table = t.tables[i];
        const ent_table *dt = model ? ent_model_table(&declared, table) : NULL;
        if (model && !dt) {
            buf b = BUF_INIT;
            buf_printf(&b, "%s: the model file %s has no table of that name: items of no entity"
                           " are judged by the table's type attribute", table, model);
            rep.notes = xrealloc(rep.notes, (rep.n_notes + 1) * sizeof *rep.notes);
            rep.notes[rep.n_notes++] = buf_steal(&b);
        }
        if (doctor_run(t.st, table, dt, sp, n_sets, sample, (double)time(NULL), &rep, &info, &d) !=
            ST_OK) {
            buf w = BUF_INIT;
            buf_adds(&w, "ddbx doctor: table ");
            buf_adds(&w, table);
            cli_print_diag(w.data, &d);
            buf_done(&w);
            rc = 1;
        }
        read += info.items;
    }
    if (rc == 0) {
        if (json)
            put_json(&rep);
        else
            put_text(&rep);
        rc = rep.n ? 1 : 0;
    }
    if (t.st && rem) {
        fprintf(stderr, "ddbx doctor: read %llu items", (unsigned long long)read);
        cli_read_set_said(&t);
    }
    doctor_report_done(&rep);
    for (size_t i = 0; i < n_sets; i++)
        pattern_set_done(&sets[i]);
    free(sets);
    free(sp);
    ent_model_done(&declared);
    cli_read_set_close(&t);
    opts_list_free(&A.patterns);
    return rc;
}
