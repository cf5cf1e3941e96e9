/*
 * bench_expr — W7 of shared/BENCH.md: a six-clause ConditionExpression,
 * parsed and resolved, then evaluated against an item.
 *
 * Prints one line a figure, "W7 <figure> <ops/s>", the median of five
 * rounds of about 0.3 s each. Build (model/ only, optimised):
 *   cc -std=c11 -D_GNU_SOURCE -O2 -I. tests/bench/bench_expr.c \
 *      model/[a-z]*.c -lcjson -lm -o build/bench_expr
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/av.h"
#include "model/ddbjson.h"
#include "model/expr.h"

static const char cond_text[] =
    "attribute_exists(PK) AND #s = :active AND followerCount BETWEEN :lo AND :hi "
    "AND begins_with(SK, :pfx) AND size(tags) > :zero AND NOT contains(blocked, :me)";
static const char names_json[] = "{\"#s\":\"status\"}";
static const char values_json[] =
    "{\":active\":{\"S\":\"active\"},\":lo\":{\"N\":\"10\"},\":hi\":{\"N\":\"100000\"},"
    "\":pfx\":{\"S\":\"TARGET#\"},\":zero\":{\"N\":\"0\"},\":me\":{\"S\":\"ACTOR#mallory\"}}";
static const char item_json[] =
    "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"},\"status\":{\"S\":\"active\"},"
    "\"followerCount\":{\"N\":\"1234\"},\"followingCount\":{\"N\":\"56\"},"
    "\"tags\":{\"SS\":[\"music\",\"rust\",\"ski\"]},\"blocked\":{\"SS\":[\"ACTOR#eve\"]},"
    "\"followedAt\":{\"S\":\"2024-01-15T10:00:00Z\"},\"GSI1PK\":{\"S\":\"TARGET#bob\"},"
    "\"GSI1SK\":{\"S\":\"ACTOR#alice\"},\"bio\":{\"S\":\"just a person who likes things\"}}";

static double now(void)
{
    struct timespec ts;
    /* CPU time of this thread: the machines are shared and noisy, and a
     * single-threaded loop's rate is its work over its own CPU time. */
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static volatile unsigned sink;

int main(void)
{
    av names, values, item;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_plain_item(names_json, strlen(names_json), &names, &d) ||
        ddbjson_parse_item(values_json, strlen(values_json), &values, &d) ||
        ddbjson_parse_item(item_json, strlen(item_json), &item, &d)) {
        fprintf(stderr, "bench_expr: %s\n", d.msg);
        return 1;
    }
    double parse_rates[5], eval_rates[5];
    expr_ctx cx;
    expr *e = NULL;
    for (int round = 0; round < 5; round++) {
        long n = 0;
        double t0 = now(), t;
        do {
            for (int i = 0; i < 1000; i++) {
                if (expr_ctx_init(&cx, &names, &values, &d) ||
                    expr_parse(&cx, EXPR_CONDITION, cond_text, sizeof cond_text - 1, &e, &d) ||
                    expr_ctx_finish(&cx, &d)) {
                    fprintf(stderr, "bench_expr: %s\n", d.msg);
                    return 1;
                }
                expr_free(e);
                expr_ctx_done(&cx);
            }
            n += 1000;
        } while ((t = now() - t0) < 0.3);
        parse_rates[round] = n / t;
    }
    expr_ctx_init(&cx, &names, &values, &d);
    expr_parse(&cx, EXPR_CONDITION, cond_text, sizeof cond_text - 1, &e, &d);
    if (!expr_eval(e, &item)) {
        fprintf(stderr, "bench_expr: the condition should hold\n");
        return 1;
    }
    for (int round = 0; round < 5; round++) {
        long n = 0;
        unsigned hits = 0;
        double t0 = now(), t;
        do {
            for (int i = 0; i < 10000; i++)
                hits += expr_eval(e, &item);
            n += 10000;
        } while ((t = now() - t0) < 0.3);
        sink = hits;
        eval_rates[round] = n / t;
    }
    qsort(parse_rates, 5, sizeof(double), cmp_double);
    qsort(eval_rates, 5, sizeof(double), cmp_double);
    printf("W7 parse_resolve_ops_per_s %.0f\n", parse_rates[2]);
    printf("W7 evaluate_ops_per_s %.0f\n", eval_rates[2]);
    expr_free(e);
    expr_ctx_done(&cx);
    av_done(&names);
    av_done(&values);
    av_done(&item);
    return 0;
}
