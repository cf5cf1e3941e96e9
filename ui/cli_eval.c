/*
 * cli_eval — `ddbx eval EXPR [--kind K] [--names J] [--values J]
 * [--item J] [--key-schema PK[:T][,SK[:T]]]`: parse, check and evaluate
 * one expression, printing the canonical text, the tree and the result.
 * It is also the driver of the expression golden tests (tests/expr/).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/expr.h"
#include "model/mem.h"
#include "ui/cli.h"

static const char eval_usage[] =
    "usage: ddbx eval EXPR [--kind condition|key|filter|update|projection]\n"
    "                      [--names JSON] [--values JSON] [--item JSON]\n"
    "                      [--key-schema PK[:S|N|B][,SK[:S|N|B]]]\n"
    "       ddbx eval STATEMENT --kind partiql [--params JSON] [--item JSON]\n"
    "                      [--key-schema ...] [--index NAME=PK[:T][,SK[:T]]]...\n"
    "  --names   ExpressionAttributeNames, e.g. '{\"#s\":\"status\"}'\n"
    "  --values  ExpressionAttributeValues in DynamoDB JSON, e.g. '{\":v\":{\"S\":\"x\"}}'\n"
    "  --item    an item in DynamoDB JSON to evaluate against or update\n";

static bool is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

/* Text for the terminal: control bytes never go out raw. They are written
 * as \u00XX, which inside the JSON lines is the same string JSON-wise, so
 * the printed items stay exact. */
void cli_put_clean(FILE *f, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_control(c))
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
}

/* The error, then the expression with a caret under byte pos. */
void cli_show_error_at(const diag *d, const char *text)
{
    fprintf(stderr, "%s: ", status_name(d->code));
    cli_put_clean(stderr, d->msg, strlen(d->msg));
    fputc('\n', stderr);
    if (!text || d->pos < 0)
        return;
    size_t n = strlen(text);
    size_t pos = (size_t)d->pos > n ? n : (size_t)d->pos;
    fputs("  ", stderr);
    cli_put_clean(stderr, text, n);
    fputs("\n  ", stderr);
    for (size_t i = 0; i < pos; i++) {
        unsigned char c = (unsigned char)text[i];
        if (is_control(c))
            fputs("      ", stderr);                   /* as wide as \u00XX */
        else if ((c & 0xC0) != 0x80)                   /* one column a code point */
            fputc(' ', stderr);
    }
    fputs("^\n", stderr);
}

int cli_parse_key_schema(const char *spec, char **pk, av_type *pkt, char **sk, av_type *skt)
{
    char *copy = xstrdup(spec);
    char *second = strchr(copy, ',');
    if (second)
        *second++ = '\0';
    char *parts[2] = { copy, second };
    char **names[2] = { pk, sk };
    av_type *types[2] = { pkt, skt };
    int rc = 0;
    for (int i = 0; i < 2; i++) {
        if (!parts[i])
            continue;
        char *colon = strchr(parts[i], ':');
        *types[i] = AV_S;
        if (colon) {
            *colon++ = '\0';
            av_type t = av_type_from_name(colon, strlen(colon));
            if (t != AV_S && t != AV_N && t != AV_B)
                rc = -1;
            *types[i] = t;
        }
        if (!*parts[i])
            rc = -1;
        *names[i] = xstrdup(parts[i]);
    }
    free(copy);
    return rc;
}

static void print_trace(const expr_trace *t)
{
    for (size_t i = 0; i < t->n; i++) {
        const expr_trace_entry *e = &t->v[i];
        printf("  %*s[%s] ", e->depth * 2, "", e->verdict ? "true " : "false");
        cli_put_clean(stdout, e->text, strlen(e->text));
        if (e->why[0]) {
            fputs("  -- ", stdout);
            cli_put_clean(stdout, e->why, strlen(e->why));
        }
        fputc('\n', stdout);
    }
}

static void print_item(const char *label, const av *item)
{
    buf b = BUF_INIT;
    ddbjson_write_item(&b, item);
    printf("%s: ", label);
    cli_put_clean(stdout, b.data, b.len);
    fputc('\n', stdout);
    buf_done(&b);
}

static void print_value(buf *b, const av *v)
{
    if (v)
        ddbjson_write_value(b, v);
    else
        buf_adds(b, "-");
}

int cli_eval(int argc, char **argv)
{
    for (int i = 1; i + 1 < argc; i++)
        if (!strcmp(argv[i], "--kind") && !strcmp(argv[i + 1], "partiql"))
            return cli_eval_partiql(argc, argv);
    const char *text = NULL, *names_j = NULL, *values_j = NULL, *item_j = NULL,
               *schema = NULL, *kind_s = "condition";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char **slot = NULL;
        if (!strcmp(a, "--kind")) slot = &kind_s;
        else if (!strcmp(a, "--names")) slot = &names_j;
        else if (!strcmp(a, "--values")) slot = &values_j;
        else if (!strcmp(a, "--item")) slot = &item_j;
        else if (!strcmp(a, "--key-schema")) slot = &schema;
        else if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(eval_usage, stdout);
            return 0;
        } else if (a[0] == '-' && a[1] == '-') {
            fprintf(stderr, "ddbx eval: unknown option '%s'\n%s", a, eval_usage);
            return 2;
        } else if (!text) {
            text = a;
            continue;
        } else {
            fprintf(stderr, "ddbx eval: one expression only\n%s", eval_usage);
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "ddbx eval: %s needs a value\n%s", a, eval_usage);
            return 2;
        }
        *slot = argv[++i];
    }
    int kind = expr_kind_from_name(kind_s);
    if (kind < 0) {
        fprintf(stderr, "ddbx eval: unknown kind '%s'\n%s", kind_s, eval_usage);
        return 2;
    }
    if (!text) {
        fputs(eval_usage, stderr);
        return 2;
    }

    int rc = 1;
    diag d;
    diag_init(&d);
    av names = { 0 }, values = { 0 }, item = { 0 };
    bool have_names = false, have_values = false, have_item = false;
    char *pk = NULL, *sk = NULL;
    av_type pkt = AV_S, skt = AV_S;
    expr_ctx cx = { 0 };
    expr *e = NULL;
    buf out = BUF_INIT;

    if (schema && cli_parse_key_schema(schema, &pk, &pkt, &sk, &skt) != 0) {
        fprintf(stderr, "ddbx eval: bad --key-schema '%s'\n", schema);
        rc = 2;
        goto done;
    }
    if (names_j) {
        if (ddbjson_parse_plain_item(names_j, strlen(names_j), &names, &d)) {
            fprintf(stderr, "ddbx eval: --names: %s\n", d.msg);
            rc = 2;
            goto done;
        }
        have_names = true;
    }
    if (values_j) {
        if (ddbjson_parse_item(values_j, strlen(values_j), &values, &d)) {
            fprintf(stderr, "ddbx eval: --values: %s%s%s\n", d.path[0] ? d.path : "",
                    d.path[0] ? ": " : "", d.msg);
            rc = 2;
            goto done;
        }
        have_values = true;
    }
    if (item_j) {
        if (ddbjson_parse_item(item_j, strlen(item_j), &item, &d)) {
            fprintf(stderr, "ddbx eval: --item: %s%s%s\n", d.path[0] ? d.path : "",
                    d.path[0] ? ": " : "", d.msg);
            rc = 2;
            goto done;
        }
        have_item = true;
    }

    if (expr_ctx_init(&cx, have_names ? &names : NULL, have_values ? &values : NULL, &d) ||
        expr_parse(&cx, (expr_kind)kind, text, strlen(text), &e, &d) ||
        expr_ctx_finish(&cx, &d)) {
        cli_show_error_at(&d, d.pos >= 0 ? text : NULL);
        goto done;
    }

    expr_print(e, &out);
    printf("%s: ", expr_kind_param((expr_kind)kind));
    cli_put_clean(stdout, out.data, out.len);
    fputc('\n', stdout);
    buf_reset(&out);
    expr_print_tree(e, &out);
    for (const char *line = out.data; line && *line;) {   /* keep the tree's newlines */
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        cli_put_clean(stdout, line, n);
        fputc('\n', stdout);
        line += n + (nl != NULL);
    }
    buf_reset(&out);

    const av *it = have_item ? &item : NULL;
    switch ((expr_kind)kind) {
    case EXPR_KEY:
        if (pk) {
            expr_key_range r;
            if (expr_key_range_of(e, pk, pkt, sk, skt, &r, &d)) {
                cli_show_error_at(&d, d.pos >= 0 ? text : NULL);
                goto done;
            }
            static const char *const ops[] = { "none", "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with" };
            buf_printf(&out, "key range: %s = ", r.pk_name);
            print_value(&out, r.pk);
            if (r.sk_name) {
                buf_printf(&out, "; %s %s ", r.sk_name, ops[r.op]);
                print_value(&out, r.sk1);
                if (r.sk2) {
                    buf_adds(&out, " AND ");
                    print_value(&out, r.sk2);
                }
                buf_adds(&out, "; from ");
                if (r.prefix) {
                    buf_adds(&out, "prefix ");
                    print_value(&out, r.prefix);
                } else {
                    buf_adds(&out, r.lo ? (r.lo_incl ? "[" : "(") : "(");
                    print_value(&out, r.lo);
                    buf_adds(&out, " to ");
                    print_value(&out, r.hi);
                    buf_adds(&out, r.hi ? (r.hi_incl ? "]" : ")") : ")");
                }
            } else {
                buf_adds(&out, "; whole partition");
            }
            cli_put_clean(stdout, out.data, out.len);
            fputc('\n', stdout);
            buf_reset(&out);
        }
        /* a key condition can also be checked against an item */
        __attribute__((fallthrough));
    case EXPR_CONDITION:
    case EXPR_FILTER:
        if (have_item) {
            expr_trace t = { 0 };
            bool v = expr_explain(e, it, &t);
            if (v != expr_eval(e, it))
                fprintf(stderr, "ddbx eval: internal error: explain and eval disagree\n");
            printf("verdict: %s\n", v ? "true" : "false");
            print_trace(&t);
            expr_trace_done(&t);
        }
        break;
    case EXPR_PROJECTION:
        if (have_item) {
            av p;
            expr_project(e, it, &p);
            print_item("projected", &p);
            av_free(&p);
        }
        break;
    case EXPR_UPDATE: {
        av updated;
        expr_names ch = { 0 };
        if (expr_update_apply(e, it, &updated, &ch, &d)) {
            cli_show_error_at(&d, d.pos >= 0 ? text : NULL);
            expr_names_done(&ch);
            goto done;
        }
        print_item("item", &updated);
        printf("updated:");
        for (size_t i = 0; i < ch.n; i++) {
            putchar(' ');
            cli_put_clean(stdout, ch.v[i], strlen(ch.v[i]));
        }
        putchar('\n');
        expr_names_done(&ch);
        av_free(&updated);
        break;
    }
    }
    rc = 0;
done:
    expr_free(e);
    expr_ctx_done(&cx);
    av_free(&names);
    av_free(&values);
    av_free(&item);
    buf_done(&out);
    free(pk);
    free(sk);
    return rc;
}
