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

static const char usage[] =
    "usage: ddbx eval STATEMENT --kind partiql [--params JSON] [--item JSON]\n"
    "                 [--key-schema PK[:S|N|B][,SK[:S|N|B]]] [--index NAME=PK[:T][,SK[:T]]]...\n"
    "  --params      the Parameters list in DynamoDB JSON, e.g. '[{\"S\":\"x\"}]'\n"
    "  --key-schema  the table's keys (default PK,SK)\n"
    "  --index       a secondary index (repeatable)\n"
    "  --item        an item in DynamoDB JSON to try a SELECT's filter and projection on\n";

static void put_lines(const buf *b)
{
    for (const char *line = b->data; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        cli_put_clean(stdout, line, n);
        fputc('\n', stdout);
        line += n + (nl != NULL);
    }
}

int cli_eval_partiql(int argc, char **argv)
{
    const char *text = NULL, *params_j = NULL, *item_j = NULL, *schema = "PK,SK";
    const char *indexes[MAX_INDEXES];
    size_t n_idx = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "--kind")) {
            i++;          /* "partiql": how we got here */
            continue;
        }
        if (!strcmp(a, "--params")) slot = &params_j;
        else if (!strcmp(a, "--item")) slot = &item_j;
        else if (!strcmp(a, "--key-schema")) slot = &schema;
        else if (!strcmp(a, "--index")) {
            if (n_idx == MAX_INDEXES) {
                fprintf(stderr, "ddbx eval: at most %d indexes\n", MAX_INDEXES);
                return 2;
            }
            slot = &indexes[n_idx++];
        } else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "ddbx eval: unknown option '%s'\n%s", a, usage);
            return 2;
        } else if (!text) {
            text = a;
            continue;
        } else {
            fprintf(stderr, "ddbx eval: one statement only\n%s", usage);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ddbx eval: %s needs a value\n%s", a, usage);
            return 2;
        }
        *slot = argv[++i];
    }
    if (!text) {
        fputs(usage, stderr);
        return 2;
    }

    int rc = 1;
    diag d;
    diag_init(&d);
    av params = { 0 }, item = { 0 };
    table_def def = { 0 };
    pq_stmt *s = NULL;
    pq_plan plan;
    memset(&plan, 0, sizeof plan);
    buf out = BUF_INIT;

    if (cli_parse_key_schema(schema, &def.pk.name, &def.pk.type, &def.sk.name, &def.sk.type)) {
        fprintf(stderr, "ddbx eval: bad --key-schema '%s'\n", schema);
        rc = 2;
        goto done;
    }
    def.idx = xcalloc(n_idx ? n_idx : 1, sizeof *def.idx);
    for (size_t i = 0; i < n_idx; i++) {
        const char *eq = strchr(indexes[i], '=');
        index_def *ix = &def.idx[def.n_idx++];
        ix->global = true;
        if (!eq || eq == indexes[i] ||
            cli_parse_key_schema(eq + 1, &ix->pk.name, &ix->pk.type, &ix->sk.name, &ix->sk.type)) {
            fprintf(stderr, "ddbx eval: bad --index '%s' (NAME=PK[:T][,SK[:T]])\n", indexes[i]);
            rc = 2;
            goto done;
        }
        ix->name = xstrndup(indexes[i], (size_t)(eq - indexes[i]));
    }
    if (params_j) {
        buf w = BUF_INIT;
        buf_printf(&w, "{\"L\":%s}", params_j);     /* a list of attribute values */
        status pst = ddbjson_parse_value(w.data, w.len, &params, &d);
        buf_done(&w);
        if (pst || params.type != AV_L) {
            fprintf(stderr, "ddbx eval: --params: %s\n",
                    params.type == AV_L || d.msg[0] ? d.msg : "not a list");
            rc = 2;
            goto done;
        }
    }
    if (item_j && ddbjson_parse_item(item_j, strlen(item_j), &item, &d)) {
        fprintf(stderr, "ddbx eval: --item: %s%s%s\n", d.path[0] ? d.path : "",
                d.path[0] ? ": " : "", d.msg);
        rc = 2;
        goto done;
    }
    def.name = xstrdup("");
    if (pq_parse(text, strlen(text), params.type == AV_L ? params.u.l.v : NULL,
                 params.type == AV_L ? params.u.l.len : 0, &s, &d)) {
        cli_show_error_at(&d, d.pos >= 0 ? text : NULL);
        goto done;
    }
    pq_print(s, &out);
    fputs("PartiQL: ", stdout);
    cli_put_clean(stdout, out.data, out.len);
    fputc('\n', stdout);
    buf_reset(&out);
    pq_print_tree(s, &out);
    put_lines(&out);
    buf_reset(&out);
    free(def.name);
    def.name = xstrdup(pq_table(s));
    if (pq_plan_of(s, &def, &plan, &d)) {
        cli_show_error_at(&d, d.pos >= 0 ? text : NULL);
        goto done;
    }
    pq_plan_explain(&plan, &out);
    put_lines(&out);
    buf_reset(&out);
    if (item_j && pq_get_kind(s) == PQ_SELECT) {
        bool m = pq_plan_match(&plan, &item);
        printf("filter on the item: %s\n", m ? "true" : "false");
        if (m) {
            av p;
            pq_plan_project(&plan, &item, &p);
            ddbjson_write_item(&out, &p);
            fputs("result: ", stdout);
            cli_put_clean(stdout, out.data, out.len);
            fputc('\n', stdout);
            av_free(&p);
        }
    }
    rc = 0;
done:
    pq_plan_done(&plan);
    pq_free(s);
    av_free(&params);
    av_free(&item);
    table_def_free(&def);
    buf_done(&out);
    return rc;
}
