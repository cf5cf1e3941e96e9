/*
 * fuzz_builder — the condition builder's text -> tree -> text paths with
 * fuzzed text and maps: a condition, filter or key condition through
 * builder_parse, an UpdateExpression through builder_update_parse.
 *
 * Input: one byte for the kind (0 condition, 1 filter, 2 key condition,
 * 3 update), then three parts separated by 0x1E (record separator): the
 * names (plain JSON), the values (DynamoDB JSON), the expression text.
 * Checks: nothing crashes or leaks; errors are statuses with a message;
 * whatever parses prints (its own maps; refused only past 4 KB) to text
 * that parses again and prints the same text and maps (a fixed point),
 * and a condition's verdict on no item is computed without error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "model/mem.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

static char *part(const char **p, const char *end)
{
    const char *s = *p;
    const char *sep = memchr(s, 0x1E, (size_t)(end - s));
    size_t len = (size_t)((sep ? sep : end) - s);
    *p = sep ? sep + 1 : end;
    /* The builder reads NUL-terminated text: a NUL inside ends it. */
    return xstrndup(s, len);
}

typedef struct out3 {
    buf text, names, values;
} out3;

static void out_done(out3 *o)
{
    buf_done(&o->text);
    buf_done(&o->names);
    buf_done(&o->values);
}

static status print_cond(builder *b, out3 *o, diag *d)
{
    bmaps m;
    builder_maps_init(&m);
    memset(o, 0, sizeof *o);
    status st = builder_print(b, &m, &o->text, d);
    builder_maps_names_json(&m, &o->names);
    builder_maps_values_json(&m, &o->values);
    builder_maps_done(&m);
    return st;
}

static status print_update(const bupdate *u, out3 *o, diag *d)
{
    bmaps m;
    builder_maps_init(&m);
    memset(o, 0, sizeof *o);
    status st = builder_update_print(u, &m, &o->text, d);
    builder_maps_names_json(&m, &o->names);
    builder_maps_values_json(&m, &o->values);
    builder_maps_done(&m);
    return st;
}

static const char *z(const buf *b)
{
    return b->data ? b->data : "";
}

static void same(const out3 *a, const out3 *b)
{
    CHECK(strcmp(z(&a->text), z(&b->text)) == 0);
    CHECK(strcmp(z(&a->names), z(&b->names)) == 0);
    CHECK(strcmp(z(&a->values), z(&b->values)) == 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int kind = data[0] % 4;
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    char *names = part(&p, end), *values = part(&p, end), *text = part(&p, end);
    diag d;
    diag_init(&d);
    if (kind == 3) {
        bupdate u, u2;
        status st = builder_update_parse(text, names, values, &u, &d);
        CHECK(st == ST_OK || (st != ST_OK && d.msg[0]));
        if (st == ST_OK) {
            out3 a, b;
            if (print_update(&u, &a, &d) == ST_OK) {
                diag_init(&d);
                CHECK(builder_update_parse(z(&a.text), z(&a.names), z(&a.values), &u2, &d) == ST_OK);
                CHECK(print_update(&u2, &b, &d) == ST_OK);
                same(&a, &b);
                builder_update_done(&u2);
                out_done(&b);
            }
            out_done(&a);
            builder_update_done(&u);
        }
    } else {
        expr_kind ek = kind == 0 ? EXPR_CONDITION : kind == 1 ? EXPR_FILTER : EXPR_KEY;
        builder *b = NULL, *b2 = NULL;
        status st = builder_parse(ek, text, names, values, &b, &d);
        CHECK(st == ST_OK || (st != ST_OK && d.msg[0]));
        out3 x, y;
        if (st == ST_OK && (st = print_cond(b, &x, &d)) != ST_OK) {
            /* Only text past DynamoDB's 4 KB even in compact form. */
            CHECK(st == ST_VALIDATION && strstr(d.msg, "Expression size has exceeded"));
            out_done(&x);
            builder_free(b);
        }
        if (st == ST_OK) {
            diag_init(&d);
            CHECK(builder_parse(ek, z(&x.text), z(&x.names), z(&x.values), &b2, &d) == ST_OK);
            CHECK(print_cond(b2, &y, &d) == ST_OK);
            /* One more round: the reprinted tree is a fixed point. */
            builder *b3 = NULL;
            out3 w;
            CHECK(builder_parse(ek, z(&y.text), z(&y.names), z(&y.values), &b3, &d) == ST_OK);
            CHECK(print_cond(b3, &w, &d) == ST_OK);
            same(&y, &w);
            bverdict v;
            diag_init(&d);
            if (builder_verdict(b, NULL, ek, NULL, &v, &d) == ST_OK)
                builder_verdict_done(&v);
            builder_free(b3);
            out_done(&w);
            out_done(&x);
            out_done(&y);
            builder_free(b2);
            builder_free(b);
        }
    }
    free(names);
    free(values);
    free(text);
    return 0;
}
