/*
 * fuzz_expr — libFuzzer target for the expression lexer, parser and
 * resolver (and, for what parses, evaluation, printing and the updater).
 *
 * Input: first byte picks the expression kind, the rest is the text. The
 * names and values maps are fixed, so placeholders resolve often. For
 * every expression that parses, the canonical text must parse again and
 * print the same (a round-trip property), and evaluation must agree with
 * the explained evaluation.
 *
 * Run: `make fuzz FUZZ_TARGETS=expr FUZZ_RUNS=1000000` (seeds in
 * tests/fuzz/expr/, dictionary tests/fuzz/expr.dict); `make test` replays
 * the seeds through it under the sanitizers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/ddbjson.h"
#include "model/expr.h"

static av names, values, item;
static int ready;

static void setup(void)
{
    diag d;
    diag_init(&d);
    static const char n[] = "{\"#a\":\"a\",\"#b\":\"b.c\",\"#s\":\"status\",\"#l\":\"l\"}";
    static const char v[] =
        "{\":s\":{\"S\":\"ab\"},\":n\":{\"N\":\"1.5\"},\":b\":{\"B\":\"AQ==\"},"
        "\":l\":{\"L\":[{\"N\":\"1\"}]},\":m\":{\"M\":{\"x\":{\"S\":\"y\"}}},"
        "\":ss\":{\"SS\":[\"ab\",\"c\"]},\":ns\":{\"NS\":[\"1\",\"2\"]},\":t\":{\"S\":\"N\"},"
        "\":z\":{\"BOOL\":true},\":nul\":{\"NULL\":true}}";
    static const char it[] =
        "{\"a\":{\"S\":\"abc\"},\"b.c\":{\"N\":\"2\"},\"status\":{\"S\":\"on\"},"
        "\"l\":{\"L\":[{\"N\":\"1\"},{\"M\":{\"x\":{\"S\":\"y\"}}},{\"L\":[]}]},"
        "\"m\":{\"M\":{\"x\":{\"S\":\"y\"},\"n\":{\"N\":\"3\"}}},\"ss\":{\"SS\":[\"ab\"]},"
        "\"ns\":{\"NS\":[\"1\"]},\"n\":{\"N\":\"-7\"}}";
    if (ddbjson_parse_plain_item(n, strlen(n), &names, &d) ||
        ddbjson_parse_item(v, strlen(v), &values, &d) ||
        ddbjson_parse_item(it, strlen(it), &item, &d)) {
        fprintf(stderr, "fuzz setup: %s\n", d.msg);
        abort();
    }
    ready = 1;
}

static void exercise(const expr *e, expr_kind k)
{
    switch (k) {
    case EXPR_CONDITION:
    case EXPR_FILTER:
    case EXPR_KEY: {
        expr_trace t = { 0 };
        bool a = expr_eval(e, &item), b = expr_explain(e, &item, &t);
        if (a != b)
            abort();
        expr_trace_done(&t);
        (void)expr_eval(e, NULL);
        if (k == EXPR_KEY) {
            expr_key_range r;
            diag d;
            diag_init(&d);
            if (expr_key_range_of(e, "a", AV_S, "n", AV_N, &r, &d) == ST_OK)
                (void)expr_key_match_sk(&r, av_map_get(&item, "n", 1));
        }
        break;
    }
    case EXPR_PROJECTION: {
        av out;
        expr_project(e, &item, &out);
        av_done(&out);
        break;
    }
    case EXPR_UPDATE: {
        av out;
        diag d;
        diag_init(&d);
        expr_names ch = { 0 };
        if (expr_update_apply(e, &item, &out, &ch, &d) == ST_OK)
            av_done(&out);
        expr_names_done(&ch);
        if (expr_update_apply(e, NULL, &out, NULL, &d) == ST_OK)
            av_done(&out);
        break;
    }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup();
    if (size < 1)
        return 0;
    expr_kind k = (expr_kind)(data[0] % 5);
    const char *text = (const char *)data + 1;
    size_t len = size - 1;

    expr_ctx cx;
    diag d;
    diag_init(&d);
    expr *e = NULL;
    if (expr_ctx_init(&cx, &names, &values, &d))
        abort();
    if (expr_parse(&cx, k, text, len, &e, &d) == ST_OK) {
        exercise(e, k);
        buf p1 = BUF_INIT, p2 = BUF_INIT, tr = BUF_INIT;
        expr_print(e, &p1);
        expr_print_tree(e, &tr);
        expr *again = NULL;
        if (expr_parse(&cx, k, p1.data, p1.len, &again, &d) != ST_OK) {
            fprintf(stderr, "canonical text does not parse: [%s]: %s\n", p1.data, d.msg);
            abort();
        }
        expr_print(again, &p2);
        if (strcmp(p1.data, p2.data) != 0) {
            fprintf(stderr, "round trip differs: [%s] vs [%s]\n", p1.data, p2.data);
            abort();
        }
        expr_free(again);
        buf_done(&p1);
        buf_done(&p2);
        buf_done(&tr);
        (void)expr_ctx_finish(&cx, &d);
    } else if (d.pos < -1 || d.pos > (long)len) {
        abort();        /* the caret must fall inside the text */
    }
    expr_free(e);
    expr_ctx_done(&cx);
    return 0;
}
