/*
 * fuzz_partiql — libFuzzer target for the PartiQL lexer, parser, printer
 * and planner (model/partiql).
 *
 * Input: the first byte gives how many `?` parameters are bound (0-3, from
 * a fixed list), the rest is the statement. For every statement that
 * parses, the canonical text (parameters inlined) must parse again and
 * print the same, and the plan against a fixed key schema (PK S, SK S,
 * index GSI1 on GSI1PK/GSI1SK) is built, explained, matched and projected
 * against a fixed item. A syntax error's caret must fall inside the text;
 * pq_count_params must agree with a statement that parsed; the text is
 * also tried as one literal (pq_parse_value, the explorer's prompt).
 *
 * Run: `make fuzz FUZZ_TARGETS=partiql FUZZ_RUNS=10000000` (seeds in
 * tests/fuzz/partiql/, dictionary tests/fuzz/partiql.dict); `make test`
 * replays the seeds through it under the sanitizers.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/ddbjson.h"
#include "model/partiql.h"
#include "model/schema.h"

static av params[3], item;
static table_def def;
static index_def gsi;
static int ready;

static void setup(void)
{
    diag d;
    diag_init(&d);
    static const char *const ps[3] = {
        "{\"S\":\"ACTOR#alice\"}", "{\"N\":\"-1.5e3\"}", "{\"M\":{\"x\":{\"SS\":[\"a\",\"b\"]}}}"
    };
    static const char it[] =
        "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"},\"n\":{\"N\":\"2\"},"
        "\"l\":{\"L\":[{\"N\":\"1\"},{\"M\":{\"x\":{\"S\":\"y\"}}}]},\"m\":{\"M\":{\"x\":{\"S\":\"y\"}}},"
        "\"ss\":{\"SS\":[\"ab\"]},\"nul\":{\"NULL\":true}}";
    for (int i = 0; i < 3; i++)
        if (ddbjson_parse_value(ps[i], strlen(ps[i]), &params[i], &d))
            abort();
    if (ddbjson_parse_item(it, strlen(it), &item, &d))
        abort();
    def.name = "T";
    def.pk = (key_attr){ "PK", AV_S };
    def.sk = (key_attr){ "SK", AV_S };
    gsi.name = "GSI1";
    gsi.global = true;
    gsi.pk = (key_attr){ "GSI1PK", AV_S };
    gsi.sk = (key_attr){ "GSI1SK", AV_S };
    def.idx = &gsi;
    def.n_idx = 1;
    ready = 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!ready)
        setup();
    if (size < 1)
        return 0;
    size_t np = data[0] % 4;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    diag d;
    diag_init(&d);
    pq_stmt *s = NULL;
    av lit;
    if (pq_parse_value(text, len, &lit, &d) == ST_OK)    /* the explorer's parameter prompt */
        av_done(&lit);
    diag_init(&d);
    if (pq_parse(text, len, params, np, &s, &d) != ST_OK) {
        if (d.pos < -1 || d.pos > (long)len)
            abort();
        return 0;
    }
    if (pq_count_params(text, len) != np)
        abort();        /* it parsed, so the markers matched the parameters */
    buf p1 = BUF_INIT, p2 = BUF_INIT, tr = BUF_INIT, ex = BUF_INIT;
    pq_print(s, &p1);
    pq_print_tree(s, &tr);
    pq_stmt *again = NULL;
    if (pq_parse(p1.data, p1.len, NULL, 0, &again, &d) != ST_OK) {
        fprintf(stderr, "canonical text does not parse: [%s]: %s\n", p1.data, d.msg);
        abort();
    }
    pq_print(again, &p2);
    if (strcmp(p1.data, p2.data) != 0) {
        fprintf(stderr, "round trip differs: [%s] vs [%s]\n", p1.data, p2.data);
        abort();
    }
    pq_plan plan;
    if (pq_plan_of(s, &def, &plan, &d) == ST_OK) {
        pq_plan_explain(&plan, &ex);
        (void)pq_plan_match(&plan, &item);
        (void)pq_plan_match(&plan, NULL);
        av out;
        pq_plan_project(&plan, &item, &out);
        av_done(&out);
    }
    pq_plan_done(&plan);
    pq_free(again);
    pq_free(s);
    buf_done(&p1);
    buf_done(&p2);
    buf_done(&tr);
    buf_done(&ex);
    return 0;
}
