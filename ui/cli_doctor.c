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

static const char usage[] =
    "usage: ddbx doctor [TABLE...] [--db FILE] [--patterns FILE]... [--model FILE]\n"
    "                   [--sample N | --all] [--format text|json]\n"
    "       ddbx doctor [TABLE...] (--endpoint-url URL | --region R) [--profile P] [...]\n"
    "Finds what hurts a design, and says what to do: items near the 400 KB limit, TTL\n"
    "values that cannot work, indexes no access pattern uses, GSI keys missing from\n"
    "items a pattern expects in the index, hot partitions, item collections near\n"
    "10 GB on tables with an LSI, items of no entity, attributes of mixed types.\n"
    "Every table when none is named; the patterns of the database's pattern folder\n"
    "unless --patterns. Exit status 1 when it finds something. Read-only.\n";

/* The value of --NAME V or --NAME=V at argv[*i] (advancing *i), else NULL. */
static const char *opt(char **argv, int argc, int *i, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) == 0 && argv[*i][n] == '=')
        return argv[*i] + n + 1;
    if (strcmp(argv[*i], name) == 0 && *i + 1 < argc)
        return argv[++*i];
    return NULL;
}

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

static void str(buf *b, const char *name, const char *v)
{
    buf_printf(b, "\"%s\":", name);
    if (v)
        ddbjson_write_string(b, v, strlen(v));
    else
        buf_adds(b, "null");
}

static void put_json(const doctor_report *r)
{
    buf b = BUF_INIT;
    buf_adds(&b, "{\"findings\":[");
    for (size_t i = 0; i < r->n; i++) {
        const doctor_finding *f = &r->f[i];
        buf_adds(&b, i ? ",{" : "{");
        str(&b, "kind", doctor_kind_name(f->kind));
        buf_addc(&b, ',');
        str(&b, "table", f->table);
        buf_addc(&b, ',');
        str(&b, "index", f->index);
        buf_addc(&b, ',');
        str(&b, "what", f->what);
        buf_addc(&b, ',');
        str(&b, "todo", f->todo);
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

/* The pattern files given, else the database's folder: into *sets. */
static int load_patterns(const char **files, size_t n_files, const char *flag_db, int rem,
                         pattern_set **sets, size_t *n)
{
    char **listed = NULL;
    size_t n_listed = 0;
    if (!n_files) {
        char *db = paths_db(rem ? NULL : flag_db, 0);
        char *dir = paths_patterns_dir(db);
        pattern_file_list_dir(dir, &listed, &n_listed);
        free(dir);
        free(db);
        files = (const char **)listed;
        n_files = n_listed;
    }
    *sets = xcalloc(n_files ? n_files : 1, sizeof **sets);
    *n = n_files;
    int rc = 0;
    for (size_t i = 0; i < n_files && rc == 0; i++) {
        diag d;
        diag_init(&d);
        if (pattern_file_load(files[i], &(*sets)[i], &d) != ST_OK) {
            cli_print_file_diag("ddbx doctor", &d);
            rc = 2;
        }
    }
    for (size_t i = 0; i < n_listed; i++)
        free(listed[i]);
    free(listed);
    return rc;
}

/* A note that the model file names no such table. */
static void note_no_table(doctor_report *rep, const char *table, const char *model)
{
    buf b = BUF_INIT;
    buf_printf(&b, "%s: the model file %s has no table of that name: items of no entity"
                   " are judged by the table's type attribute", table, model);
    rep->notes = xrealloc(rep->notes, (rep->n_notes + 1) * sizeof *rep->notes);
    rep->notes[rep->n_notes++] = buf_steal(&b);
}

/* On an endpoint: what was read from it, and that nothing was written. */
static void say_read(store *st, uint64_t read)
{
    store_info info;
    store_get_info(st, &info);
    fprintf(stderr, "ddbx doctor: read %llu items from ", (unsigned long long)read);
    cli_fputs_safe(stderr, info.where ? info.where : "the endpoint");
    fprintf(stderr, ", %g read capacity units consumed; nothing was written\n", info.rcu);
}

int cli_doctor(int argc, char **argv)
{
    const char *flag_db;
    remote_opts ro;
    int rem = cli_take_store(&argc, argv, "doctor", &flag_db, &ro);
    if (rem < 0)
        return 2;
    const char **pfiles = xcalloc((size_t)argc + 1, sizeof *pfiles);
    char **tables = xcalloc((size_t)argc + 1, sizeof *tables);
    size_t n_pfiles = 0, n_tables = 0;
    const char *model = NULL;
    uint64_t sample = rem ? TABLE_READ_SAMPLE : 0;
    bool json = false;
    int rc = 0;
    for (int i = 1; i < argc && rc == 0; i++) {
        const char *a = argv[i], *v = NULL;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(usage, stdout);
            free(pfiles);
            free(tables);
            return 0;
        }
        if ((v = opt(argv, argc, &i, "--patterns"))) {
            pfiles[n_pfiles++] = v;
        } else if ((v = opt(argv, argc, &i, "--model"))) {
            model = v;
        } else if ((v = opt(argv, argc, &i, "--sample"))) {
            char *end;
            long long n = strtoll(v, &end, 10);
            rc = *end || n < 1 ? 2 : 0;
            sample = (uint64_t)n;
        } else if (strcmp(a, "--all") == 0) {
            sample = 0;
        } else if ((v = opt(argv, argc, &i, "--format"))) {
            json = strcmp(v, "json") == 0;
            rc = json || strcmp(v, "text") == 0 ? 0 : 2;
        } else if (a[0] == '-' && a[1]) {
            rc = 2;
        } else {
            tables[n_tables++] = argv[i];
        }
        if (rc) {
            fputs("ddbx doctor: unknown option or bad value: ", stderr);
            cli_fputs_safe(stderr, v ? v : a);
            fprintf(stderr, "\n%s", usage);
        }
    }
    pattern_set *sets = NULL;
    size_t n_sets = 0;
    if (rc == 0)
        rc = load_patterns(pfiles, n_pfiles, flag_db, rem, &sets, &n_sets);
    ent_model declared;
    ent_model_init(&declared);
    diag d;
    diag_init(&d);
    if (rc == 0 && model && model_file_load(model, &declared, &d) != ST_OK) {
        cli_print_file_diag("ddbx doctor", &d);
        rc = 2;
    }
    store *st = NULL;
    remote *r = NULL;
    if (rc == 0 && cli_open_read_store(flag_db, rem, &ro, &r, &st, &d) != ST_OK) {
        cli_print_diag("ddbx doctor", &d);
        rc = 2;
    }
    char **all = NULL;
    size_t n_all = 0;
    if (rc == 0)
        rc = cli_tables_or_all(st, "ddbx doctor", &tables, &n_tables, &all, &n_all);
    const pattern_set **sp = xcalloc(n_sets + 1, sizeof *sp);
    for (size_t i = 0; i < n_sets; i++)
        sp[i] = &sets[i];
    doctor_report rep;
    doctor_report_init(&rep);
    uint64_t read = 0;
    for (size_t i = 0; rc == 0 && i < n_tables; i++) {
        table_read info;
        const ent_table *dt = model ? ent_model_table(&declared, tables[i]) : NULL;
        if (model && !dt)
            note_no_table(&rep, tables[i], model);
        if (doctor_run(st, tables[i], dt, sp, n_sets, sample, (double)time(NULL), &rep, &info, &d) !=
            ST_OK) {
            buf w = BUF_INIT;
            buf_adds(&w, "ddbx doctor: table ");
            buf_adds(&w, tables[i]);
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
    if (st && rem)
        say_read(st, read);
    doctor_report_done(&rep);
    for (size_t i = 0; i < n_sets; i++)
        pattern_set_done(&sets[i]);
    free(sets);
    free(sp);
    ent_model_done(&declared);
    if (st)
        store_close(st);
    if (r)
        remote_close(r);
    if (all)
        store_names_free(all, n_all);
    free(tables);
    free(pfiles);
    return rc;
}
