/*
 * fuzz_prices — the price file reader (data/price_file.c).
 *
 * Whatever the text, reading returns a status (never crashes, never
 * leaks); an error names a line and column inside the text; a file that
 * reads has regions, each with its currency, date and source, and prices
 * that are 0 or more or unknown (NAN).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/price_file.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

static int lines_of(const char *t, size_t n)
{
    int l = 1;
    for (size_t i = 0; i < n; i++)
        l += t[i] == '\n';
    return l;
}

static void price_ok(double v)
{
    CHECK(isnan(v) || v >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    price_table t;
    price_table_init(&t);
    diag d;
    diag_init(&d);
    status st = price_file_parse("fuzz.json", text, size, &t, &d);
    if (st != ST_OK) {
        CHECK(st == ST_PARSE);
        CHECK(strcmp(d.file, "fuzz.json") == 0);
        CHECK(d.line >= 1 && d.line <= lines_of(text, size) + 1 && d.col >= 1);
        CHECK(t.n == 0);
    } else {
        CHECK(t.n > 0 && t.hours_per_month >= 672 && t.hours_per_month <= 744);
        for (size_t i = 0; i < t.n; i++) {
            const price_region *p = &t.r[i];
            CHECK(p->region && p->currency && p->taken && p->source);
            price_ok(p->od_read);
            price_ok(p->od_write);
            price_ok(p->pv_read);
            price_ok(p->pv_write);
            price_ok(p->storage);
            CHECK(price_table_region(&t, p->region) != NULL);
        }
    }
    price_table_done(&t);
    return 0;
}
