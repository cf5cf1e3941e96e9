/*
 * fuzz_exprmaps — expressions with fuzzed ExpressionAttributeNames and
 * ExpressionAttributeValues maps, against a fuzzed item (fuzz_expr keeps
 * the maps and the item fixed; this target varies all four).
 *
 * Input: one byte for the expression kind, then four parts separated by
 * 0x1E (record separator): names as plain JSON, values as DynamoDB JSON,
 * the item as DynamoDB JSON, the expression text. A part that does not
 * parse is left out (no map, an empty item), which is itself a case the
 * resolver must handle. Checks: nothing crashes or leaks; the resolver's
 * answers are statuses with in-range positions; evaluation agrees with
 * the explained evaluation; and an update applied to the item yields an
 * item DynamoDB JSON can carry (it encodes, decodes back equal: sets
 * non-empty, sorted, maps sorted) with no name refused by the codec.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/expr.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

static const char *part(const char **p, const char *end, size_t *len)
{
    const char *s = *p;
    const char *sep = memchr(s, 0x1E, (size_t)(end - s));
    *len = (size_t)((sep ? sep : end) - s);
    *p = sep ? sep + 1 : end;
    return s;
}

static void check_item(const av *it)
{
    CHECK(it->type == AV_M);
    buf b = BUF_INIT;
    ddbjson_write_item(&b, it);
    av back = { AV_NONE, { { NULL, 0 } } };
    diag d;
    diag_init(&d);
    CHECK(ddbjson_parse_item(b.data, b.len, &back, &d) == ST_OK);
    CHECK(av_equal(it, &back));
    av_done(&back);
    buf_done(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    expr_kind k = (expr_kind)(data[0] % 5);
    const char *p = (const char *)data + 1, *end = (const char *)data + size;
    size_t nl, vl, il, el;
    const char *ns = part(&p, end, &nl);
    const char *vs = part(&p, end, &vl);
    const char *is = part(&p, end, &il);
    const char *es = part(&p, end, &el);

    av names = { AV_NONE, { { NULL, 0 } } }, values = names, item = names;
    diag d;
    diag_init(&d);
    bool have_n = ddbjson_parse_plain_item(ns, nl, &names, &d) == ST_OK;
    diag_init(&d);
    bool have_v = ddbjson_parse_item(vs, vl, &values, &d) == ST_OK;
    diag_init(&d);
    if (ddbjson_parse_item(is, il, &item, &d) != ST_OK)
        av_init_list(&item, AV_M);

    expr_ctx cx;
    expr *e = NULL;
    diag_init(&d);
    if (expr_ctx_init(&cx, have_n ? &names : NULL, have_v ? &values : NULL, &d) != ST_OK) {
        CHECK(d.code != ST_OK);
        goto out_maps;
    }
    diag_init(&d);
    if (expr_parse(&cx, k, es, el, &e, &d) != ST_OK) {
        CHECK(d.code != ST_OK);
        CHECK(d.pos >= -1 && d.pos <= (long)el);
        goto out_ctx;
    }
    switch (k) {
    case EXPR_CONDITION:
    case EXPR_FILTER:
    case EXPR_KEY: {
        expr_trace t = { 0 };
        bool a = expr_eval(e, &item), b = expr_explain(e, &item, &t);
        CHECK(a == b);
        expr_trace_done(&t);
        break;
    }
    case EXPR_PROJECTION: {
        av out;
        expr_project(e, &item, &out);
        check_item(&out);
        av_done(&out);
        break;
    }
    case EXPR_UPDATE: {
        av out;
        expr_names ch = { 0 };
        diag_init(&d);
        if (expr_update_apply(e, &item, &out, &ch, &d) == ST_OK) {
            check_item(&out);
            av_done(&out);
        } else {
            CHECK(d.code != ST_OK);
        }
        expr_names_done(&ch);
        diag_init(&d);
        if (expr_update_apply(e, NULL, &out, NULL, &d) == ST_OK) {
            check_item(&out);
            av_done(&out);
        }
        break;
    }
    }
    diag_init(&d);
    (void)expr_ctx_finish(&cx, &d);
    expr_free(e);
out_ctx:
    expr_ctx_done(&cx);
out_maps:
    av_done(&names);
    av_done(&values);
    av_done(&item);
    return 0;
}
