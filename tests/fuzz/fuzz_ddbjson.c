/*
 * fuzz_ddbjson — the DynamoDB JSON decoder (items and single values) and
 * the plain JSON reader.
 *
 * The first byte picks the entry point; the rest is the text. Whatever the
 * text, decoding returns a status (never crashes, never leaks), and what
 * decodes round-trips: encoding it and decoding the encoding gives an
 * equal value, and encoding that again gives the same bytes (the encoder
 * is canonical). Plain JSON never yields B or sets, so it round-trips
 * exactly through the plain writer too.
 */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/status.h"

/* An invariant the target proves: on failure, say which, then abort so
 * the fuzzer records the input. */
#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

typedef status (*parse_fn)(const char *, size_t, av *, diag *);

static void round_trip(parse_fn parse, const av *v,
                       void (*write)(buf *, const av *))
{
    buf a = BUF_INIT, b = BUF_INIT;
    av back = { AV_NONE, { { NULL, 0 } } };
    diag d;
    diag_init(&d);
    write(&a, v);
    status st = parse(a.data, a.len, &back, &d);
    CHECK(st == ST_OK);
    CHECK(av_equal(v, &back));
    write(&b, &back);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    av_done(&back);
    buf_done(&a);
    buf_done(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned mode = data[0] % 3;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    av v = { AV_NONE, { { NULL, 0 } } };
    diag d;
    diag_init(&d);
    status st;
    switch (mode) {
    case 0:
        st = ddbjson_parse_item(text, len, &v, &d);
        if (st == ST_OK) {
            CHECK(v.type == AV_M);
            round_trip(ddbjson_parse_item, &v, ddbjson_write_item);
        }
        break;
    case 1:
        st = ddbjson_parse_value(text, len, &v, &d);
        if (st == ST_OK) {
            CHECK(v.type != AV_NONE);
            round_trip(ddbjson_parse_value, &v, ddbjson_write_value);
        }
        break;
    default:
        st = ddbjson_parse_plain_item(text, len, &v, &d);
        if (st == ST_OK) {
            CHECK(v.type == AV_M);
            round_trip(ddbjson_parse_plain_item, &v, ddbjson_write_plain_item);
            /* and the typed encoding of a plain item decodes back too,
             * NUL characters included (\u0000 round-trips, issue 16) */
            round_trip(ddbjson_parse_item, &v, ddbjson_write_item);
        }
        break;
    }
    if (st != ST_OK) {
        CHECK(d.code == st);
        CHECK(memchr(d.msg, '\0', sizeof d.msg) != NULL);
    }
    av_done(&v);
    return 0;
}
