/*
 * fuzz_patterns — the access-pattern file reader (data/pattern_file.c).
 *
 * Whatever the text, reading returns a status (never crashes, never
 * leaks); an error names a line and column inside the text (1-based, the
 * line at most the text's line count + 1), or the model file it names
 * ("model"), which is reported in its own place; what reads writes back to a
 * file that reads again to the same number of patterns, and writing that
 * gives the same bytes (the writer is canonical).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/pattern_file.h"

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
    pattern_set set;
    pattern_set_init(&set);
    diag d;
    diag_init(&d);
    status st = pattern_file_parse("fuzz.json", text, size, &set, &d);
    if (st != ST_OK) {
        CHECK(st == ST_PARSE);
        bool other = strcmp(d.file, "fuzz.json") != 0;
        CHECK(!other || memmem(text, size, "\"model\"", 7));
        CHECK(other || (d.line >= 1 && d.line <= lines_of(text, size) + 1 && d.col >= 1));
        CHECK(set.n == 0);
    } else {
        buf a = BUF_INIT, b = BUF_INIT;
        pattern_file_write(&set, &a);
        pattern_set back;
        pattern_set_init(&back);
        st = pattern_file_parse("back.json", a.data, a.len, &back, &d);
        CHECK(st == ST_OK);
        CHECK(back.n == set.n && back.n_rules == set.n_rules);
        pattern_file_write(&back, &b);
        CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
        pattern_set_done(&back);
        buf_done(&a);
        buf_done(&b);
    }
    pattern_set_done(&set);
    return 0;
}
