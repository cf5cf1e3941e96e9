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

/* Text with newlines, each line cleaned (the tree, the plan). */
void cli_put_lines(const buf *b)
{
    for (const char *line = b->data; line && *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        cli_put_clean(stdout, line, n);
        fputc('\n', stdout);
        line += n + (nl != NULL);
    }
}

int cli_parse_item_option(const char *flag, const char *json, av *out, diag *d)
{
    if (ddbjson_parse_item(json, strlen(json), out, d) == ST_OK)
        return 0;
    fprintf(stderr, "ddbx eval: %s: %s%s%s\n", flag, d->path[0] ? d->path : "",
            d->path[0] ? ": " : "", d->msg);
    return 2;
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

/* The command line of `ddbx eval EXPR`: the arguments and the kind. */
typedef struct eval_args {
    const char *text, *names_j, *values_j, *item_j, *schema;
    int kind;
} eval_args;

/* The arguments into a (opts_parse; each kind's checked after): -1 to
 * go on with an expression, else the exit code (0 after --help or the
 * PartiQL explained, 2 for a bad command line, said on stderr). */
static int eval_parse_args(int argc, char **argv, eval_args *a)
{
    cli_eval_args c = { .kind = "condition" };
    const opt table[] = {
        OPT_STRING("kind", "K", &c.kind, "condition (default), key, filter, update, projection or partiql"),
        OPT_STRING("names", "JSON", &c.names_j, "ExpressionAttributeNames, e.g. '{\"#s\":\"status\"}'"),
        OPT_STRING("values", "JSON", &c.values_j,
                   "ExpressionAttributeValues in DynamoDB JSON, e.g. '{\":v\":{\"S\":\"x\"}}'"),
        OPT_STRING("item", "JSON", &c.item_j, "an item in DynamoDB JSON to evaluate against or update"),
        OPT_STRING("key-schema", "S", &c.schema, "the keys PK[:S|N|B][,SK[:S|N|B]] (partiql: default PK,SK)"),
        OPT_STRING("params", "JSON", &c.params_j, "partiql: the Parameters list in DynamoDB JSON"),
        OPT_STRING_LIST("index", "NAME=S", &c.indexes, "partiql: a secondary index NAME=PK[:T][,SK[:T]]"),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "eval",
        .usage = "ddbx eval EXPR [--kind condition|key|filter|update|projection]\n"
                 "                      [--names JSON] [--values JSON] [--item JSON]\n"
                 "                      [--key-schema PK[:S|N|B][,SK[:S|N|B]]]\n"
                 "       ddbx eval STATEMENT --kind partiql [--params JSON] [--item JSON]\n"
                 "                      [--key-schema ...] [--index NAME=PK[:T][,SK[:T]]]...",
        .about = "--key-schema: the key schema a key condition is checked against; for the\n"
                 "other kinds, a path into a key attribute (pk.x) is refused. With --kind\n"
                 "partiql the statement is explained (its plan), never run.\n",
        .opts = table,
        .positional = true,
    };
    int rc = opts_parse(&cmd, &argc, argv);
    bool pq = strcmp(c.kind, "partiql") == 0;
    if (rc == OPTS_OK && argc != 2)
        rc = opts_refuse(&cmd, "%s", argc < 2 ? "name the expression (or statement)" : "one expression only");
    else if (rc == OPTS_OK && pq && (c.names_j || c.values_j))
        rc = opts_refuse(&cmd, "%s", "--names and --values are not for --kind partiql (--params is)");
    else if (rc == OPTS_OK && !pq && (c.params_j || c.indexes.n))
        rc = opts_refuse(&cmd, "%s", "--params and --index are for --kind partiql");
    else if (rc == OPTS_OK && !pq && expr_kind_from_name(c.kind) < 0)
        rc = opts_refuse(&cmd, "unknown kind '%s'", c.kind);
    if (rc == OPTS_OK && pq) {
        c.text = argv[1];
        rc = cli_eval_partiql(&c);
    } else if (rc == OPTS_OK) {
        *a = (eval_args){ .text = argv[1], .names_j = c.names_j, .values_j = c.values_j, .item_j = c.item_j,
                          .schema = c.schema, .kind = expr_kind_from_name(c.kind) };
        rc = -1;
    } else {
        rc = rc == OPTS_HELP ? 0 : 2;
    }
    opts_list_free(&c.indexes);
    return rc;
}

/* What the options give the expression: the maps, the item, the keys. */
typedef struct eval_inputs {
    av names, values, item;
    bool have_names, have_values, have_item;
    char *pk, *sk;
    av_type pkt, skt;
} eval_inputs;

/* --key-schema, --names, --values and --item into in; 0, or 2 with the
 * error on stderr. */
static int eval_load_inputs(const eval_args *a, eval_inputs *in, diag *d)
{
    if (a->schema && cli_parse_key_schema(a->schema, &in->pk, &in->pkt, &in->sk, &in->skt) != 0) {
        fprintf(stderr, "ddbx eval: bad --key-schema '%s'\n", a->schema);
        return 2;
    }
    if (ddbjson_parse_maps(a->names_j, a->values_j, &in->names, &in->values, d)) {
        bool names = strcmp(d->file, DDBJSON_NAMES_MEMBER) == 0;
        fprintf(stderr, "ddbx eval: %s: %s%s%s\n", names ? "--names" : "--values", d->path[0] ? d->path : "",
                d->path[0] ? ": " : "", d->msg);
        return 2;
    }
    in->have_names = in->names.type == AV_M;
    in->have_values = in->values.type == AV_M;
    if (a->item_j) {
        if (cli_parse_item_option("--item", a->item_j, &in->item, d))
            return 2;
        in->have_item = true;
    }
    return 0;
}

static void eval_inputs_done(eval_inputs *in)
{
    av_done(&in->names);
    av_done(&in->values);
    av_done(&in->item);
    free(in->pk);
    free(in->sk);
}

/* The expression's canonical text and its tree. */
static void print_parsed(const expr *e, expr_kind kind)
{
    buf out = BUF_INIT;
    expr_print(e, &out);
    printf("%s: ", expr_kind_param(kind));
    cli_put_clean(stdout, out.data, out.len);
    fputc('\n', stdout);
    buf_reset(&out);
    expr_print_tree(e, &out);
    cli_put_lines(&out);
    buf_done(&out);
}

/* A key condition's range over the key schema: the partition, the sort
 * key's operator and operands, and the bounds read. 0, or 1 with the
 * error shown. */
static int print_key_range(const expr *e, const eval_inputs *in, const char *text, diag *d)
{
    expr_key_range r;
    if (expr_key_range_of(e, in->pk, in->pkt, in->sk, in->skt, &r, d)) {
        cli_show_error_at(d, d->pos >= 0 ? text : NULL);
        return 1;
    }
    static const char *const ops[] = { "none", "=", "<", "<=", ">", ">=", "BETWEEN", "begins_with" };
    buf out = BUF_INIT;
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
    buf_done(&out);
    return 0;
}

/* A condition tried on the item: the verdict and why, term by term. */
static void print_verdict(const expr *e, const av *item)
{
    expr_trace t = { 0 };
    bool v = expr_explain(e, item, &t);
    if (v != expr_eval(e, item))
        fprintf(stderr, "ddbx eval: internal error: explain and eval disagree\n");
    printf("verdict: %s\n", v ? "true" : "false");
    print_trace(&t);
    expr_trace_done(&t);
}

/* An update applied to the item (or to none): the item after it and the
 * top-level attributes it changed. 0, or 1 with the error shown. */
static int print_update(const expr *e, const av *item, const char *text, diag *d)
{
    av updated;
    expr_names ch = { 0 };
    if (expr_update_apply(e, item, &updated, &ch, d)) {
        cli_show_error_at(d, d->pos >= 0 ? text : NULL);
        expr_names_done(&ch);
        return 1;
    }
    print_item("item", &updated);
    printf("updated:");
    for (size_t i = 0; i < ch.n; i++) {
        putchar(' ');
        cli_put_clean(stdout, ch.v[i], strlen(ch.v[i]));
    }
    putchar('\n');
    expr_names_done(&ch);
    av_done(&updated);
    return 0;
}

/* With --key-schema, a path into a key attribute (pk.x, sk[0]) outside a
 * key condition, refused as the store refuses it. 0, or 1 with the error
 * shown. */
static int check_key_paths(const expr *e, const eval_inputs *in, const char *text, diag *d)
{
    const char *keys[2] = { in->pk, in->sk };
    for (int k = 0; k < 2; k++) {
        const expr_node *n = keys[k] ? expr_nested_path(e, keys[k], strlen(keys[k])) : NULL;
        if (n) {
            diag_at(d, ST_VALIDATION, n->pos, "Key attributes must be scalars; list random access '[]'"
                    " and map lookup '.' are not allowed: Key: %s", keys[k]);
            cli_show_error_at(d, text);
            return 1;
        }
    }
    return 0;
}

/* What the parsed expression does with the inputs, by kind. */
static int eval_run(const expr *e, expr_kind kind, const eval_inputs *in, const char *text,
                    diag *d)
{
    const av *it = in->have_item ? &in->item : NULL;
    switch (kind) {
    case EXPR_KEY:
        if (in->pk && print_key_range(e, in, text, d))
            return 1;
        /* a key condition can also be checked against an item */
        __attribute__((fallthrough));
    case EXPR_CONDITION:
    case EXPR_FILTER:
        if (it)
            print_verdict(e, it);
        return 0;
    case EXPR_PROJECTION:
        if (it) {
            av p;
            expr_project(e, it, &p);
            print_item("projected", &p);
            av_done(&p);
        }
        return 0;
    case EXPR_UPDATE:
        return print_update(e, it, text, d);
    }
    return 0;
}

int cli_eval(int argc, char **argv)
{
    eval_args a = { 0 };
    int rc = eval_parse_args(argc, argv, &a);
    if (rc >= 0)
        return rc;

    diag d;
    diag_init(&d);
    eval_inputs in = { .pkt = AV_S, .skt = AV_S };
    expr_ctx cx = { 0 };
    expr *e = NULL;
    expr_kind kind = (expr_kind)a.kind;
    if ((rc = eval_load_inputs(&a, &in, &d)))
        goto done;
    if (expr_ctx_init(&cx, in.have_names ? &in.names : NULL, in.have_values ? &in.values : NULL,
                      &d) ||
        expr_parse(&cx, kind, a.text, strlen(a.text), &e, &d) || expr_ctx_finish(&cx, &d)) {
        cli_show_error_at(&d, d.pos >= 0 ? a.text : NULL);
        rc = 1;
        goto done;
    }
    print_parsed(e, kind);
    if (kind != EXPR_KEY && (rc = check_key_paths(e, &in, a.text, &d)))
        goto done;
    rc = eval_run(e, kind, &in, a.text, &d);
done:
    expr_free(e);
    expr_ctx_done(&cx);
    eval_inputs_done(&in);
    return rc;
}
