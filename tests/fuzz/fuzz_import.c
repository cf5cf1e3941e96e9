/*
 * fuzz_import — every input format of data/import (the streaming scanner,
 * format detection, the Workbench reader).
 *
 * The first byte picks the format (mod 8: auto, ddb-json, ..., plain) and
 * whether bad items are skipped; the rest is the input. Whatever the
 * input, the run ends with a status (no crash, no leak, no endless loop);
 * every item produced is a map that round-trips through DynamoDB JSON;
 * a failed run without skip_bad tells the sink to roll back; and when the
 * source reports itself broken, it stays broken.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/import.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

typedef struct seen {
    size_t items, tables;
    bool ended, ok;
} seen;

static status on_table(void *ctx, const table_def *def, diag *d)
{
    seen *s = ctx;
    CHECK(def->name && def->pk.name);
    s->tables++;
    return ST_OK;
}

static status on_item(void *ctx, const char *table, const av *item, diag *d)
{
    seen *s = ctx;
    CHECK(table != NULL);
    CHECK(item->type == AV_M);
    buf a = BUF_INIT, b = BUF_INIT;
    av back = { .type = AV_NONE };
    diag dd;
    diag_init(&dd);
    ddbjson_write_item(&a, item);
    CHECK(ddbjson_parse_item(a.data, a.len, &back, &dd) == ST_OK);
    CHECK(av_equal(item, &back));
    ddbjson_write_item(&b, &back);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    av_done(&back);
    buf_done(&a);
    buf_done(&b);
    s->items++;
    return ST_OK;
}

static status on_end(void *ctx, bool ok, diag *d)
{
    seen *s = ctx;
    CHECK(!s->ended);
    s->ended = true;
    s->ok = ok;
    return ST_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    import_format fmt = (import_format)(data[0] % 8);
    bool skip_bad = (data[0] & 8) != 0;
    import_source *src = NULL;
    diag d;
    diag_init(&d);
    if (import_source_open_mem("fuzz", data + 1, size - 1, fmt, &src, &d) != ST_OK) {
        CHECK(src == NULL);
        return 0;
    }
    seen s = { 0 };
    import_sink sink = { &s, NULL, on_table, on_item, on_end };
    import_opts o = { .table = "T", .skip_bad = skip_bad };
    import_stats st;
    status rc = import_run(src, &sink, &o, &st, &d);
    CHECK(s.ended);
    CHECK(s.ok == (rc == ST_OK));
    CHECK(st.items == s.items && st.tables == s.tables);
    CHECK(st.bytes <= size - 1);
    if (rc != ST_OK) {
        CHECK(d.code != ST_OK && d.msg[0]);
        if (import_source_broken(src)) {
            import_event ev;
            diag d2;
            diag_init(&d2);
            CHECK(import_source_next(src, &ev, &d2) != ST_OK);
            CHECK(ev.kind == IMPORT_EV_END);
            CHECK(import_source_broken(src));
        }
    }
    import_source_free(src);
    return 0;
}
