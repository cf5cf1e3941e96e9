/*
 * fuzz_model — the model file reader (data/model_file.c).
 *
 * Whatever the text, reading returns a status (never crashes, never
 * leaks); an error names a line and column inside the text; what reads
 * writes back to a file that reads again to the same tables and entities,
 * and writing that gives the same bytes (the writer is canonical).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/model_file.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

static int lines_of(const char *t, size_t n)
{
    int l = 1;
    for (size_t i = 0; i < n; i++)
        l += t[i] == '\n';
    return l;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    ent_model m;
    ent_model_init(&m);
    diag d;
    diag_init(&d);
    status st = model_file_parse("fuzz.json", text, size, &m, &d);
    if (st != ST_OK) {
        CHECK(st == ST_PARSE);
        CHECK(strcmp(d.file, "fuzz.json") == 0);
        CHECK(d.line >= 1 && d.line <= lines_of(text, size) + 1 && d.col >= 1);
        CHECK(m.n == 0);
    } else {
        buf a = BUF_INIT, b = BUF_INIT;
        model_file_write(&m, &a);
        ent_model back;
        ent_model_init(&back);
        st = model_file_parse("back.json", a.data, a.len, &back, &d);
        CHECK(st == ST_OK);
        CHECK(back.n == m.n);
        for (size_t i = 0; i < m.n; i++)
            CHECK(back.t[i].n == m.t[i].n);
        model_file_write(&back, &b);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        ent_model_done(&back);
        buf_done(&a);
        buf_done(&b);
    }
    ent_model_done(&m);
    return 0;
}
