/*
 * cli_model — `ddbx model [TABLE...] [--db FILE | --endpoint-url URL |
 * --region R] [--profile P] [--format text|json|markdown] [--sample N |
 * --all] [--patterns FILE]... [--price FILE] [--price-region R]`: the
 * entity types of each table (model/entity.h), inferred from its items.
 *
 * text: per table what was read, per entity its count, sizes, key and
 * index templates and attributes (types and shares, mixed types flagged);
 * json: the model file (data/model_file.h), to edit and to name in
 * pattern files; markdown: the design document (ui/cli_model_md.c).
 *
 * A local table of more than --sample items (10,000 by default), and any
 * remote table, is sampled (data/table_read.h) and the output says so; a
 * remote table is only read (Scan), never written, and stderr says what
 * the reading consumed. No table named: every table of the store.
 *
 * Exit status: 0, 1 when a table cannot be read, 2 for a usage error or a
 * pattern or price file that does not parse (FILE:LINE:COLUMN).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/model_file.h"
#include "data/remote.h"
#include "data/store.h"
#include "data/table_read.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/cli_model.h"
#include "ui/fmt.h"

static const char about[] =
    "Infers the entity types of each table (every table when none is named) from its\n"
    "items: key templates (PK = ACTOR#{id}), counts, sizes, attributes with their\n"
    "types and shares, the indexes each entity is in. A table of more than N items\n"
    "(10000; --all reads every item) and a remote table are sampled, and it says so.\n"
    "json is a model file to edit and to name in pattern files (\"model\": FILE);\n"
    "markdown is the design document, with the access patterns (the database's\n"
    "pattern folder, or --patterns) and their cost (--price, else the built-in\n"
    "prices of --price-region, us-east-1 by default). Read-only.\n";

/* The text form of one entity. */
static void put_entity(const ent_table *t, const ent_entity *e)
{
    buf b = BUF_INIT;
    buf_printf(&b, "  %s  %llu item%s, ", e->name, (unsigned long long)e->count,
               e->count == 1 ? "" : "s");
    fmt_bytes(&b, e->bytes);
    buf_adds(&b, " (");
    fmt_bytes(&b, e->count ? e->bytes / e->count : 0);
    buf_adds(&b, " average, ");
    fmt_bytes(&b, e->max_bytes);
    buf_adds(&b, " largest)");
    if (e->type_value) {
        buf_printf(&b, "  %s = ", t->type_attr);
        buf_adds(&b, e->type_value);
    }
    buf_printf(&b, "\n    %s = %s", t->def.pk.name, e->pk_tmpl ? e->pk_tmpl : "?");
    if (t->def.sk.name)
        buf_printf(&b, "   %s = %s", t->def.sk.name, e->sk_tmpl ? e->sk_tmpl : "?");
    for (size_t i = 0; i < e->n_idx; i++) {
        const ent_index *x = &e->idx[i];
        const index_def *ix = table_def_index(&t->def, x->name);
        if (!x->count || !ix)
            continue;
        buf_printf(&b, "\n    %s (%llu of %llu): %s = %s", x->name, (unsigned long long)x->count,
                   (unsigned long long)e->count, ix->pk.name, x->pk_tmpl ? x->pk_tmpl : "?");
        if (ix->sk.name)
            buf_printf(&b, "   %s = %s", ix->sk.name, x->sk_tmpl ? x->sk_tmpl : "?");
    }
    buf_adds(&b, "\n    attributes:");
    for (size_t i = 0; i < e->n_attrs; i++) {
        const ent_attr *a = &e->attrs[i];
        buf_printf(&b, "%s %s ", i ? "," : "", a->name);
        ent_attr_types_text(a, &b);
        if (ent_attr_share(e, a) < 1) {
            buf_addc(&b, ' ');
            ent_attr_share_text(e, a, &b);
        }
        if (ent_attr_mixed(a))
            buf_adds(&b, " MIXED");
    }
    if (e->more_attrs)
        buf_printf(&b, " (and more: %llu not listed)", (unsigned long long)e->more_attrs);
    buf_addc(&b, '\n');
    cli_fputs_lines(stdout, b.data);
    buf_done(&b);
}

void cli_model_read_line(const ent_table *t, buf *out)
{
    buf_printf(out, "read %llu of %llu item%s", (unsigned long long)t->items_read,
               (unsigned long long)t->items_total, t->items_total == 1 ? "" : "s");
    if (t->sampled)
        buf_adds(out, " (a sample: the table is bigger than what was read)");
    else
        buf_adds(out, " (the whole table)");
    if (t->type_attr)
        buf_printf(out, "; entities told by the attribute %s", t->type_attr);
    else
        buf_adds(out, "; entities told by their keys");
}

static void put_table(const ent_table *t)
{
    buf b = BUF_INIT;
    buf_printf(&b, "%s  %s (%s)", t->name, t->def.pk.name, av_type_name(t->def.pk.type));
    if (t->def.sk.name)
        buf_printf(&b, ", %s (%s)", t->def.sk.name, av_type_name(t->def.sk.type));
    for (size_t i = 0; i < t->def.n_idx; i++) {
        const index_def *ix = &t->def.idx[i];
        buf_printf(&b, "; %s %s (%s%s%s, %s)", ix->global ? "GSI" : "LSI", ix->name, ix->pk.name,
                   ix->sk.name ? ", " : "", ix->sk.name ? ix->sk.name : "", proj_type_name(ix->proj));
    }
    if (t->ttl_attr)
        buf_printf(&b, "; TTL on %s", t->ttl_attr);
    buf_addc(&b, '\n');
    cli_model_read_line(t, &b);
    buf_addc(&b, '\n');
    if (t->strays) {
        buf_printf(&b, "  %llu item%s of no entity (no %s)", (unsigned long long)t->strays,
                   t->strays == 1 ? "" : "s", t->type_attr ? t->type_attr : "shape of its own");
        for (size_t i = 0; i < t->n_strays_keys; i++) {
            buf_adds(&b, i ? ", " : ": ");
            fmt_key(&b, &t->strays_keys[i], t->def.pk.name, t->def.sk.name);
        }
        buf_addc(&b, '\n');
    }
    cli_fputs_lines(stdout, b.data);
    buf_done(&b);
    for (size_t i = 0; i < t->n; i++)
        put_entity(t, &t->e[i]);
}

static int parse_format(const char *v, enum cli_model_fmt *f)
{
    static const char *const names[] = { "text", "json", "markdown" };
    for (int i = 0; i < 3; i++)
        if (strcmp(v, names[i]) == 0) {
            *f = (enum cli_model_fmt)i;
            return 0;
        }
    return -1;
}

/* The command line, filled by the table below (one run a process). */
static struct {
    const char *db, *format;
    remote_opts ro;
    cli_model_opts o;
    opts_list patterns;
    long sample;
    bool all;
} A;

static const opt model_table[] = {
    CLI_OPT_DB(&A.db),
    CLI_OPTS_REMOTE(&A.ro),
    OPT_STRING("format", "F", &A.format, "text (default), json (a model file) or markdown (the design)"),
    OPT_INTEGER("sample", "N", &A.sample, 1, 1e15, "read at most N items a table (default 10000)"),
    OPT_BOOL("all", &A.all, "read every item"),
    OPT_STRING_LIST("patterns", "FILE", &A.patterns, "an access-pattern file (default: the pattern folder's)"),
    OPT_STRING("price", "FILE", &A.o.price_file, "the prices for markdown (default: built in)"),
    OPT_STRING("price-region", "R", &A.o.price_region, "the built-in prices of region R (us-east-1)"),
    OPT_END(),
};

static const opts_cmd model_cmd = {
    .name = "model",
    .usage = "ddbx model [TABLE...] [--db FILE] [--format text|json|markdown]\n"
             "                  [--sample N | --all] [--patterns FILE]... [--price FILE] [--price-region R]\n"
             "       ddbx model [TABLE...] (--endpoint-url URL | --region R) [--profile P] [...]",
    .about = about,
    .opts = model_table,
    .positional = true,
};

/* The model on stdout in o's format: 0, or the markdown's exit status. */
static int write_model(store *st, ent_model *m, cli_model_opts *o)
{
    if (o->format == CLI_MODEL_JSON) {
        buf b = BUF_INIT;
        model_file_write(m, &b);
        fwrite(b.data, 1, b.len, stdout);
        buf_done(&b);
        return 0;
    }
    if (o->format == CLI_MODEL_MARKDOWN)
        return cli_model_markdown(st, m, o);
    for (size_t i = 0; i < m->n; i++) {
        if (i)
            fputc('\n', stdout);
        put_table(&m->t[i]);
    }
    return 0;
}

int cli_model(int argc, char **argv)
{
    int rc = opts_main(&model_cmd, &argc, argv);
    if (rc >= 0)
        return rc;
    const char *flag_db = A.db;
    remote_opts ro = A.ro;
    cli_model_opts o = A.o;
    int rem = cli_where("model", flag_db, &ro);
    if (rem >= 0 && A.format && parse_format(A.format, &o.format) < 0) {
        opts_refuse(&model_cmd, "unknown option or bad value: %s", A.format);
        rem = -1;
    }
    if (rem < 0) {
        opts_list_free(&A.patterns);
        return 2;
    }
    rc = 0;
    o.sample = A.all ? 0 : A.sample ? (uint64_t)A.sample : TABLE_READ_SAMPLE;
    if (!o.price_region)
        o.price_region = "us-east-1";
    o.patterns = A.patterns.v;
    o.n_patterns = A.patterns.n;
    cli_read_set rs = { 0 };
    rc = cli_read_set_open(&rs, "ddbx model", flag_db, rem, &ro, argc, argv);
    store *st = rs.st;
    diag d;
    diag_init(&d);
    if (rc == 0 && !rs.n_tables)
        fputs("ddbx model: the store has no tables\n", stderr);
    o.db_path = rem ? NULL : flag_db;
    ent_model m;
    ent_model_init(&m);
    cli_model_read reads;
    memset(&reads, 0, sizeof reads);
    for (size_t i = 0; rc == 0 && i < rs.n_tables; i++) {
        ent_table t;
        ent_table_init(&t);
        table_read info;
        if (table_read_model(st, rs.tables[i], o.sample, &t, &info, &d) != ST_OK) {
            buf w = BUF_INIT;
            buf_adds(&w, "ddbx model: table ");
            buf_adds(&w, rs.tables[i]);
            cli_print_diag(w.data, &d);
            buf_done(&w);
            rc = 1;
        } else {
            reads.items += info.items;
            reads.pages += info.pages;
            reads.units += info.units;
            ent_model_put(&m, &t);
        }
        ent_table_done(&t);
    }
    if (rc == 0)
        rc = write_model(st, &m, &o);
    if (rc == 0 && rem) {
        fprintf(stderr, "ddbx model: read %llu item%s in %llu Scan request%s",
                (unsigned long long)reads.items, reads.items == 1 ? "" : "s",
                (unsigned long long)reads.pages, reads.pages == 1 ? "" : "s");
        cli_read_set_said(&rs);
    }
    ent_model_done(&m);
    cli_read_set_close(&rs);
    opts_list_free(&A.patterns);
    return rc;
}
