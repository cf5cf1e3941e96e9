/*
 * cli_eval_partiql — `ddbx eval --kind partiql STATEMENT [--params JSON]
 * [--key-schema PK[:T][,SK[:T]]] [--index NAME=PK[:T][,SK[:T]]]...
 * [--item JSON]`: parses a PartiQL statement and explains what it would
 * run, without running it: the canonical statement, its tree, and given a
 * key schema the plan (the operation, key range, filter or condition and
 * the expressions the store sends). With --item, a SELECT's filter is
 * tried on the item and its projection applied. The driver of the PartiQL
 * golden tests (tests/partiql/).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/partiql.h"
#include "model/schema.h"
#include "ui/cli.h"

#define MAX_INDEXES 8

/* --key-schema and each --index into def; 0, or 2 with the error on
 * stderr. */
static int load_table_def(const cli_eval_args *a, table_def *def)
{
    const char *schema = a->schema ? a->schema : "PK,SK";
    if (a->indexes.n > MAX_INDEXES) {
        fprintf(stderr, "ddbx eval: at most %d indexes\n", MAX_INDEXES);
        return 2;
    }
    if (cli_parse_key_schema(schema, &def->pk.name, &def->pk.type, &def->sk.name,
                             &def->sk.type)) {
        fprintf(stderr, "ddbx eval: bad --key-schema '%s'\n", schema);
        return 2;
    }
    def->idx = xcalloc(a->indexes.n ? a->indexes.n : 1, sizeof *def->idx);
    for (size_t i = 0; i < a->indexes.n; i++) {
        const char *spec = a->indexes.v[i], *eq = strchr(spec, '=');
        index_def *ix = &def->idx[def->n_idx++];
        ix->global = true;
        if (!eq || eq == spec ||
            cli_parse_key_schema(eq + 1, &ix->pk.name, &ix->pk.type, &ix->sk.name, &ix->sk.type)) {
            fprintf(stderr, "ddbx eval: bad --index '%s' (NAME=PK[:T][,SK[:T]])\n", spec);
            return 2;
        }
        ix->name = xstrndup(spec, (size_t)(eq - spec));
    }
    return 0;
}

/* --params, the Parameters list in DynamoDB JSON, into a list value; 0,
 * or 2 with the error on stderr. */
static int load_params(const char *params_j, av *params, diag *d)
{
    buf w = BUF_INIT;
    buf_printf(&w, "{\"L\":%s}", params_j);     /* a list of attribute values */
    status pst = ddbjson_parse_value(w.data, w.len, params, d);
    buf_done(&w);
    if (pst || params->type != AV_L) {
        fprintf(stderr, "ddbx eval: --params: %s\n",
                params->type == AV_L || d->msg[0] ? d->msg : "not a list");
        return 2;
    }
    return 0;
}

/* The statement's canonical text and its tree. */
static void print_statement(const pq_stmt *s)
{
    buf out = BUF_INIT;
    pq_print(s, &out);
    fputs("PartiQL: ", stdout);
    cli_put_clean(stdout, out.data, out.len);
    fputc('\n', stdout);
    buf_reset(&out);
    pq_print_tree(s, &out);
    cli_put_lines(&out);
    buf_done(&out);
}

/* What the plan runs: operation, key range, filter, expressions. */
static void print_plan(const pq_plan *plan)
{
    buf out = BUF_INIT;
    pq_plan_explain(plan, &out);
    cli_put_lines(&out);
    buf_done(&out);
}

/* A SELECT's filter tried on the item, and its projection if it passes. */
static void try_item(const pq_plan *plan, const av *item)
{
    bool m = pq_plan_match(plan, item);
    printf("filter on the item: %s\n", m ? "true" : "false");
    if (!m)
        return;
    av p;
    buf out = BUF_INIT;
    pq_plan_project(plan, item, &p);
    ddbjson_write_item(&out, &p);
    fputs("result: ", stdout);
    cli_put_clean(stdout, out.data, out.len);
    fputc('\n', stdout);
    av_done(&p);
    buf_done(&out);
}

int cli_eval_partiql(const cli_eval_args *args)
{
    const cli_eval_args a = *args;
    int rc;

    diag d;
    diag_init(&d);
    av params = { 0 }, item = { 0 };
    table_def def = { 0 };
    pq_stmt *s = NULL;
    pq_plan plan;
    memset(&plan, 0, sizeof plan);

    if ((rc = load_table_def(&a, &def)) ||
        (a.params_j && (rc = load_params(a.params_j, &params, &d))) ||
        (a.item_j && (rc = cli_parse_item_option("--item", a.item_j, &item, &d))))
        goto done;
    rc = 1;
    def.name = xstrdup("");
    if (pq_parse(a.text, strlen(a.text), params.type == AV_L ? params.u.l.v : NULL,
                 params.type == AV_L ? params.u.l.len : 0, &s, &d)) {
        cli_show_error_at(&d, d.pos >= 0 ? a.text : NULL);
        goto done;
    }
    print_statement(s);
    free(def.name);
    def.name = xstrdup(pq_table(s));
    if (pq_plan_of(s, &def, &plan, &d)) {
        cli_show_error_at(&d, d.pos >= 0 ? a.text : NULL);
        goto done;
    }
    print_plan(&plan);
    if (a.item_j && pq_get_kind(s) == PQ_SELECT)
        try_item(&plan, &item);
    rc = 0;
done:
    pq_plan_done(&plan);
    pq_free(s);
    av_done(&params);
    av_done(&item);
    table_def_free(&def);
    return rc;
}
