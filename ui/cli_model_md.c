/*
 * cli_model_md — `ddbx model --format markdown`: the design document, as
 * the articles ddbx grew from lay a single-table design out.
 *
 * The tables with their keys and indexes; the entity table (entity, key
 * templates, index key templates, items, size) and, per entity, its
 * attributes and a sample item; the access patterns of the tables (each
 * run read-only: operation, table or index, key condition, items and read
 * units per call, cost per million calls on-demand and provisioned and per
 * month at its rate); what a write of each entity costs, with the index
 * copies it causes; what storing the tables and indexes costs a month;
 * the traffic measured (the patterns `ddbx patterns --out` mined from a
 * recording: their recorded rate and read units a call, priced); the
 * evolution steps `ddbx evolve` took (data/evolve_steps.h's log,
 * evolve.log in the database's pattern folder).
 *
 * Deterministic: tables, entities, attributes and patterns come in name
 * or file order, sizes and money in fixed formats, and nothing depends on
 * the clock, so the same data gives the same file, to keep in git beside
 * the code. Text from the data is escaped for Markdown ('|', '`') and
 * never carries a control character.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/evolve_steps.h"
#include "data/pattern_file.h"
#include "data/pattern_run.h"
#include "data/price_file.h"
#include "model/cost.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/mine.h"
#include "ui/cli.h"
#include "ui/cli_cost.h"
#include "ui/cli_model.h"
#include "ui/fmt.h"

/* Text for a table cell: '|' escaped, control characters as \xNN; in
 * backticks when code (a backtick inside is replaced by '). */
static void cell(buf *out, const char *s, bool code)
{
    if (!s || !*s) {
        buf_adds(out, code ? "" : "-");
        return;
    }
    if (code)
        buf_addc(out, '`');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            buf_printf(out, "\\x%02x", *p);
        else if (*p == '|')
            buf_adds(out, "\\|");
        else if (*p == '`' && code)
            buf_addc(out, '\'');
        else
            buf_addc(out, (char)*p);
    }
    if (code)
        buf_addc(out, '`');
}

static void sep(buf *out)
{
    buf_adds(out, " | ");
}

static void head(buf *out, const char *const *cols, size_t n)
{
    buf_adds(out, "|");
    for (size_t i = 0; i < n; i++)
        buf_printf(out, " %s |", cols[i]);
    buf_adds(out, "\n|");
    for (size_t i = 0; i < n; i++)
        buf_adds(out, "---|");
    buf_addc(out, '\n');
}

static void size_cell(buf *out, uint64_t n)
{
    fmt_bytes(out, n);
}

static void tables_section(store *st, const ent_model *m, buf *out)
{
    buf_adds(out, "## Tables\n");
    for (size_t i = 0; i < m->n; i++) {
        const ent_table *t = &m->t[i];
        buf_adds(out, "\n### ");
        cell(out, t->name, false);
        buf_adds(out, "\n\n");
        static const char *const kc[] = { "key", "attribute", "type" };
        head(out, kc, 3);
        buf_adds(out, "| partition key | ");
        cell(out, t->def.pk.name, true);
        buf_printf(out, " | %s |\n", av_type_name(t->def.pk.type));
        if (t->def.sk.name) {
            buf_adds(out, "| sort key | ");
            cell(out, t->def.sk.name, true);
            buf_printf(out, " | %s |\n", av_type_name(t->def.sk.type));
        }
        if (t->def.n_idx) {
            static const char *const ic[] = { "index", "kind", "partition key", "sort key",
                                              "projection", "items", "size" };
            buf_addc(out, '\n');
            head(out, ic, 7);
        }
        for (size_t k = 0; k < t->def.n_idx; k++) {
            const index_def *ix = &t->def.idx[k];
            table_stats is;
            diag d;
            diag_init(&d);
            memset(&is, 0, sizeof is);
            store_stats(st, t->name, ix->name, &is, &d);
            buf_adds(out, "| ");
            cell(out, ix->name, false);
            buf_printf(out, " | %s | ", ix->global ? "GSI" : "LSI");
            cell(out, ix->pk.name, true);
            buf_printf(out, " (%s) | ", av_type_name(ix->pk.type));
            if (ix->sk.name) {
                cell(out, ix->sk.name, true);
                buf_printf(out, " (%s)", av_type_name(ix->sk.type));
            } else {
                buf_addc(out, '-');
            }
            buf_printf(out, " | %s", proj_type_name(ix->proj));
            for (size_t j = 0; j < ix->n_include; j++) {
                buf_adds(out, j ? ", " : ": ");
                cell(out, ix->include[j], true);
            }
            buf_printf(out, " | %llu | ", (unsigned long long)is.items);
            size_cell(out, is.bytes);
            buf_adds(out, " |\n");
        }
        buf_adds(out, "\nTime to Live: ");
        if (t->ttl_attr)
            cell(out, t->ttl_attr, true);
        else
            buf_adds(out, "disabled");
        buf_adds(out, ". ");
        buf b = BUF_INIT;
        cli_model_read_line(t, &b);
        b.data[0] = 'R';
        cell(out, b.data, false);
        buf_done(&b);
        buf_adds(out, ".\n");
    }
}

/* "GSI1: `GSI1PK = TARGET#{id}`, `GSI1SK = ACTOR#{id}`" for each index
 * the entity is in. */
static void index_cell(const ent_table *t, const ent_entity *e, buf *out)
{
    bool any = false;
    for (size_t i = 0; i < e->n_idx; i++) {
        const ent_index *x = &e->idx[i];
        const index_def *ix = table_def_index(&t->def, x->name);
        if (!x->count || !ix)
            continue;
        buf_adds(out, any ? "; " : "");
        any = true;
        cell(out, x->name, false);
        buf_adds(out, ": ");
        buf b = BUF_INIT;
        buf_printf(&b, "%s = %s", ix->pk.name, x->pk_tmpl ? x->pk_tmpl : "?");
        cell(out, b.data, true);
        if (ix->sk.name) {
            buf_reset(&b);
            buf_printf(&b, "%s = %s", ix->sk.name, x->sk_tmpl ? x->sk_tmpl : "?");
            buf_adds(out, ", ");
            cell(out, b.data, true);
        }
        buf_done(&b);
    }
    if (!any)
        buf_addc(out, '-');
}

static void entity_detail(const ent_table *t, const ent_entity *e, buf *out)
{
    buf_adds(out, "\n### ");
    cell(out, t->name, false);
    buf_adds(out, ": ");
    cell(out, e->name, false);
    buf_adds(out, "\n\n");
    if (e->type_value) {
        buf_adds(out, "Told by ");
        buf b = BUF_INIT;
        buf_printf(&b, "%s = %s", t->type_attr, e->type_value);
        cell(out, b.data, true);
        buf_done(&b);
    } else {
        buf_adds(out, "Told by its keys");
    }
    buf_printf(out, ". %llu item%s, ", (unsigned long long)e->count, e->count == 1 ? "" : "s");
    size_cell(out, e->bytes);
    buf_adds(out, " (");
    size_cell(out, e->count ? e->bytes / e->count : 0);
    buf_adds(out, " average, ");
    size_cell(out, e->max_bytes);
    buf_adds(out, " largest).\n\n");
    static const char *const ac[] = { "attribute", "types", "share" };
    head(out, ac, 3);
    for (size_t i = 0; i < e->n_attrs; i++) {
        const ent_attr *a = &e->attrs[i];
        buf_adds(out, "| ");
        cell(out, a->name, true);
        sep(out);
        ent_attr_types_text(a, out);
        if (ent_attr_mixed(a))
            buf_adds(out, " (mixed)");
        buf_adds(out, " | ");
        ent_attr_share_text(e, a, out);
        buf_adds(out, " |\n");
    }
    if (e->more_attrs)
        buf_printf(out, "\n%llu more attributes are not listed.\n", (unsigned long long)e->more_attrs);
    if (e->sample.type == AV_M) {
        buf_adds(out, "\nSample item:\n\n```json\n");
        buf j = BUF_INIT;
        ddbjson_write_item_pretty(&j, &e->sample);
        /* JSON escapes control characters already; a ``` inside a string
         * cannot end the block since strings have no newline. */
        buf_add(out, j.data, j.len);
        buf_done(&j);
        if (!out->len || out->data[out->len - 1] != '\n')
            buf_addc(out, '\n');
        buf_adds(out, "```\n");
    }
}

static void entities_section(const ent_model *m, buf *out)
{
    buf_adds(out, "\n## Entities\n\n");
    static const char *const ec[] = { "table", "entity", "partition key", "sort key",
                                      "index keys", "items", "size", "average" };
    head(out, ec, 8);
    for (size_t i = 0; i < m->n; i++) {
        const ent_table *t = &m->t[i];
        for (size_t k = 0; k < t->n; k++) {
            const ent_entity *e = &t->e[k];
            buf b = BUF_INIT;
            buf_adds(out, "| ");
            cell(out, t->name, false);
            sep(out);
            cell(out, e->name, false);
            sep(out);
            buf_printf(&b, "%s = %s", t->def.pk.name, e->pk_tmpl ? e->pk_tmpl : "?");
            cell(out, b.data, true);
            sep(out);
            if (t->def.sk.name) {
                buf_reset(&b);
                buf_printf(&b, "%s = %s", t->def.sk.name, e->sk_tmpl ? e->sk_tmpl : "?");
                cell(out, b.data, true);
            } else {
                buf_addc(out, '-');
            }
            sep(out);
            index_cell(t, e, out);
            buf_printf(out, " | %llu | ", (unsigned long long)e->count);
            size_cell(out, e->bytes);
            sep(out);
            size_cell(out, e->count ? e->bytes / e->count : 0);
            buf_adds(out, " |\n");
            buf_done(&b);
        }
        if (t->strays)
            buf_printf(out, "| %s | (no entity) | - | - | - | %llu | - | - |\n", t->name,
                       (unsigned long long)t->strays);
    }
    for (size_t i = 0; i < m->n; i++)
        for (size_t k = 0; k < m->t[i].n; k++)
            entity_detail(&m->t[i], &m->t[i].e[k], out);
}

static void prices_line(const price_table *pt, const price_region *p, buf *out)
{
    buf_adds(out, "Prices: ");
    cell(out, p->region, false);
    buf_printf(out, " (%s), taken %s from ", p->currency, p->taken);
    cell(out, p->source, false);
    buf_adds(out, "; price file ");
    cell(out, pt->file, false);
    buf_printf(out, "; a month is %g hours. A price not known is shown as ?.\n",
               pt->hours_per_month);
    if (p->note) {
        buf_adds(out, "\n> ");
        cell(out, p->note, false);
        buf_addc(out, '\n');
    }
}

static void money(buf *out, const price_region *p, double v)
{
    cost_money(p, v, out);
}

/* "table / index" of a pattern, and the separator after it. */
static void where_cell(const pattern *pat, buf *out)
{
    cell(out, pat->table, false);
    if (pat->index) {
        buf_adds(out, " / ");
        cell(out, pat->index, false);
    }
    sep(out);
}

static void patterns_section(store *st, const ent_model *m, const pattern_set *sets, size_t n_sets,
                             const price_table *pt, const price_region *p, buf *out)
{
    buf_adds(out, "\n## Access patterns\n\n");
    prices_line(pt, p, out);
    buf_addc(out, '\n');
    static const char *const pc[] = { "pattern", "operation", "table / index", "key condition",
                                      "items", "read units a call", "on-demand, per million",
                                      "provisioned, per million", "rate",
                                      "a month, on-demand / provisioned", "verdict" };
    head(out, pc, 11);
    size_t shown = 0;
    for (size_t s = 0; s < n_sets; s++)
        for (size_t i = 0; i < sets[s].n; i++) {
            const pattern *pat = &sets[s].p[i];
            if (!ent_model_table(m, pat->table))
                continue;
            shown++;
            pattern_result r;
            pattern_result_init(&r);
            pattern_run(st, &sets[s], pat, NULL, false, &r);
            buf why = BUF_INIT;
            pattern_verdict v = pattern_judge(pat, &r, &why);
            buf_adds(out, "| ");
            cell(out, pat->name, false);
            sep(out);
            buf_adds(out, pattern_op_name(r.ran ? r.ran_as : pat->op));
            if (pat->op == PAT_PARTIQL)
                buf_adds(out, " (PartiQL)");
            sep(out);
            where_cell(pat, out);
            cell(out, pat->op == PAT_PARTIQL ? pat->statement : pat->keycond, true);
            buf_printf(out, " | %zu | %g | ", r.items, r.units);
            cost_calls c;
            cost_calls_of(p, pt->hours_per_month, false, r.units, pat->rate, &c);
            money(out, p, c.od_million);
            sep(out);
            money(out, p, c.pv_million);
            sep(out);
            if (pat->rate > 0) {
                cost_rate_text(pat->rate, out);
                sep(out);
                money(out, p, c.od_month);
                buf_adds(out, " / ");
                money(out, p, c.pv_month);
                buf_printf(out, " (%llu RCU)", (unsigned long long)c.pv_units);
            } else {
                buf_adds(out, "- | -");
            }
            sep(out);
            buf_adds(out, pattern_verdict_name(v));
            if (why.len) {
                buf_adds(out, ": ");
                cell(out, why.data, false);
            }
            buf_adds(out, " |\n");
            buf_done(&why);
            pattern_result_done(&r);
        }
    if (!shown)
        buf_adds(out, "\nNo access pattern names these tables: write them in a pattern file"
                      " (ddbx(1), ACCESS PATTERNS) and give it with --patterns.\n");
}

/* The mined patterns (a description mine_to_patterns wrote): what the
 * recording measured, priced at its rate. */
static void traffic_section(const ent_model *m, const pattern_set *sets, size_t n_sets, const price_table *pt,
                            const price_region *p, buf *out)
{
    bool any = false;
    for (size_t s = 0; s < n_sets; s++)
        for (size_t i = 0; i < sets[s].n; i++) {
            const pattern *pat = &sets[s].p[i];
            mine_measured mm;
            if (!ent_model_table(m, pat->table) || !mine_measured_parse(pat->description, &mm))
                continue;
            if (!any) {
                buf_adds(out, "\n## Traffic measured\n\nThe access patterns `ddbx patterns` mined from requests"
                              " recorded by `ddbx serve --record`: what each call returned, read and consumed,"
                              " at the rate recorded.\n\n");
                static const char *const tc[] = { "pattern", "operation", "table / index", "key condition",
                                                  "calls recorded", "share", "rate", "items returned / read a call",
                                                  "read units a call", "a month, on-demand / provisioned" };
                head(out, tc, 10);
                any = true;
            }
            buf_adds(out, "| ");
            cell(out, pat->name, false);
            sep(out);
            buf_adds(out, pattern_op_name(pat->op));
            sep(out);
            where_cell(pat, out);
            cell(out, pat->keycond ? pat->keycond : "(Scan)", true);
            buf_printf(out, " | %llu | %.1f%% | ", (unsigned long long)mm.calls, mm.share);
            cost_rate_text(mm.rate, out);
            buf_printf(out, " | %.2f / %.2f | %.2f | ", mm.returned, mm.read, mm.units);
            cost_calls c;
            cost_calls_of(p, pt->hours_per_month, false, mm.units, mm.rate, &c);
            money(out, p, c.od_month);
            buf_adds(out, " / ");
            money(out, p, c.pv_month);
            buf_adds(out, " |\n");
        }
}

/* The schema changes `ddbx evolve` applied, from its log. */
static void evolution_section(const char *db_path, buf *out)
{
    char *dir = paths_patterns_dir(db_path);
    buf pb = BUF_INIT;
    buf_printf(&pb, "%s/evolve.log", dir);
    free(dir);
    char *path = buf_steal(&pb);
    evolve_step *st = NULL;
    size_t n = 0, bad = 0;
    diag d;
    diag_init(&d);
    status rs = evolve_steps_read(path, &st, &n, &bad, &d);
    /* No log, no section: a design nobody evolved reads as before. */
    if (rs == ST_OK && !n && !bad) {
        free(path);
        return;
    }
    buf_adds(out, "\n## Evolution\n\nThe schema changes `ddbx evolve` applied, from its log (");
    cell(out, strrchr(path, '/') ? strrchr(path, '/') + 1 : path, true);
    buf_adds(out, ").\n\n");
    if (rs != ST_OK) {
        cell(out, d.msg, false);
        buf_addc(out, '\n');
    } else if (n) {
        static const char *const ec[] = { "when", "table", "index", "hash key", "range key", "items updated",
                                          "items left out", "status" };
        head(out, ec, 8);
        for (size_t i = 0; i < n; i++) {
            const char *v[] = { st[i].time, st[i].table, st[i].index, st[i].hash, st[i].range };
            buf_adds(out, "| ");
            for (int k = 0; k < 5; k++) {
                cell(out, v[k] ? v[k] : "-", k >= 3 && v[k]);
                sep(out);
            }
            long long nums[] = { st[i].updated, st[i].skipped };
            for (int k = 0; k < 2; k++) {
                if (nums[k] >= 0)
                    buf_printf(out, "%lld", nums[k]);
                else
                    buf_addc(out, '-');
                sep(out);
            }
            cell(out, st[i].status ? st[i].status : "-", false);
            buf_adds(out, " |\n");
        }
    }
    if (bad)
        buf_printf(out, "\n%zu line%s of the log could not be read.\n", bad, bad == 1 ? "" : "s");
    evolve_steps_free(st, n);
    free(path);
}

static void writes_section(const ent_model *m, const price_table *pt, const price_region *p,
                           buf *out)
{
    buf_adds(out, "\n## Writes\n\nWhat writing one item of each entity costs (PutItem of an item"
                  " of its average size): the table's write and the index entries it adds,"
                  " each by its projected size, 1 KB a write unit.\n\n");
    static const char *const wc[] = { "table", "entity", "write units: table + indexes",
                                      "amplification", "on-demand, per million writes",
                                      "provisioned, per million writes" };
    head(out, wc, 6);
    for (size_t i = 0; i < m->n; i++) {
        const ent_table *t = &m->t[i];
        for (size_t k = 0; k < t->n; k++) {
            const ent_entity *e = &t->e[k];
            double table, total;
            buf_adds(out, "| ");
            cell(out, t->name, false);
            sep(out);
            cell(out, e->name, false);
            sep(out);
            /* Index names are letters, digits, '_', '-' and '.': no escaping. */
            cli_cost_write_units(e, out, &total, &table);
            buf_printf(out, " | %.3gx | ", table > 0 ? total / table : 1.0);
            cost_calls c;
            cost_calls_of(p, pt->hours_per_month, true, total, 0, &c);
            money(out, p, c.od_million);
            sep(out);
            money(out, p, c.pv_million);
            buf_adds(out, " |\n");
        }
    }
}

static void storage_row(store *st, const ent_table *t, const char *index, const price_region *p,
                        buf *out, double *sum)
{
    table_stats ts;
    diag d;
    diag_init(&d);
    memset(&ts, 0, sizeof ts);
    store_stats(st, t->name, index, &ts, &d);
    buf_adds(out, "| ");
    cell(out, t->name, false);
    if (index) {
        buf_adds(out, " / ");
        cell(out, index, false);
    }
    buf_printf(out, " | %llu | ", (unsigned long long)ts.items);
    size_cell(out, ts.bytes);
    sep(out);
    size_cell(out, cost_storage_bytes(ts.bytes, ts.items));
    sep(out);
    double c = cost_storage_month(p, ts.bytes, ts.items);
    *sum += c;
    money(out, p, c);
    buf_adds(out, " |\n");
}

static void storage_section(store *st, const ent_model *m, const price_region *p, buf *out)
{
    buf_adds(out, "\n## Storage\n\nEach item and index entry is billed 100 bytes more than its"
                  " size; 1 GB is 2^30 bytes.\n\n");
    static const char *const sc[] = { "table / index", "items", "size", "billed size",
                                      "a month" };
    head(out, sc, 5);
    double sum = 0;
    for (size_t i = 0; i < m->n; i++) {
        storage_row(st, &m->t[i], NULL, p, out, &sum);
        for (size_t k = 0; k < m->t[i].def.n_idx; k++)
            storage_row(st, &m->t[i], m->t[i].def.idx[k].name, p, out, &sum);
    }
    buf_adds(out, "| all | | | | ");
    money(out, p, sum);
    buf_adds(out, " |\n");
}

int cli_load_pattern_sets(const char **files, size_t n_files, const char *flag_db, const char *who,
                          pattern_set **sets, size_t *n)
{
    char **listed = NULL;
    size_t n_listed = 0;
    if (!n_files) {
        char *db = paths_db(flag_db, 0);
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
        /* a folder: its *.json files (the mined ones of `ddbx patterns --out`) */
        struct stat sb;
        bool dir = stat(files[i], &sb) == 0 && S_ISDIR(sb.st_mode);
        if ((dir ? pattern_file_load_dir(files[i], &(*sets)[i], &d)
                 : pattern_file_load(files[i], &(*sets)[i], &d)) != ST_OK) {
            cli_print_file_diag(who, &d);
            rc = 2;
        }
    }
    for (size_t i = 0; i < n_listed; i++)
        free(listed[i]);
    free(listed);
    return rc;
}

/* The prices: --price, else the built-in file. */
int cli_load_prices(const char *file, const char *region, const char *who, price_table *pt,
                    const price_region **p)
{
    diag d;
    diag_init(&d);
    status st = file ? price_file_load(file, pt, &d) : price_file_default(pt, &d);
    if (st != ST_OK) {
        cli_print_file_diag(who, &d);
        return 2;
    }
    *p = price_table_region(pt, region);
    if (!*p) {
        fprintf(stderr, "%s: the price file %s has no prices for the region ", who, pt->file);
        cli_fputs_safe(stderr, region);
        fputs(" (it has:", stderr);
        for (size_t i = 0; i < pt->n; i++) {
            fputc(' ', stderr);
            cli_fputs_safe(stderr, pt->r[i].region);
        }
        fputs("); write a price file of your own for it and give it with --price\n", stderr);
        return 2;
    }
    return 0;
}

int cli_model_markdown(store *st, const ent_model *m, const cli_model_opts *o)
{
    pattern_set *sets = NULL;
    size_t n_sets = 0;
    price_table pt;
    price_table_init(&pt);
    const price_region *p = NULL;
    int rc = cli_load_pattern_sets(o->patterns, o->n_patterns, o->db_path, "ddbx model", &sets, &n_sets);
    if (rc == 0)
        rc = cli_load_prices(o->price_file, o->price_region, "ddbx model", &pt, &p);
    if (rc == 0) {
        buf out = BUF_INIT;
        buf_adds(&out, "# Design:");
        for (size_t i = 0; i < m->n; i++) {
            buf_adds(&out, i ? ", " : " ");
            cell(&out, m->t[i].name, false);
        }
        buf_adds(&out, "\n\nWritten by `ddbx model --format markdown` from the data and the access"
                       " patterns; the same data gives the same document, so it can be kept in"
                       " git and written again after a change.\n\n");
        tables_section(st, m, &out);
        entities_section(m, &out);
        patterns_section(st, m, sets, n_sets, &pt, p, &out);
        traffic_section(m, sets, n_sets, &pt, p, &out);
        writes_section(m, &pt, p, &out);
        storage_section(st, m, p, &out);
        char *db = paths_db(o->db_path, 0);
        evolution_section(db, &out);
        free(db);
        fwrite(out.data, 1, out.len, stdout);
        buf_done(&out);
    }
    for (size_t i = 0; i < n_sets; i++)
        pattern_set_done(&sets[i]);
    free(sets);
    price_table_done(&pt);
    return rc;
}
