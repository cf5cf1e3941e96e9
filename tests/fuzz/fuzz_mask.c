/*
 * fuzz_mask — the masking rules reader (data/mask_file.c) and the masker
 * (model/mask.c).
 *
 * Whatever the text, reading returns a status (never crashes, never
 * leaks); an error names a line and column inside the text. Rules that
 * read are bound to a table with a GSI and applied to an item holding
 * every type, nested: binding either refuses with the rule's place or
 * succeeds, and the masked item stays an item of the table (its key
 * attributes present, of their types).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/mask_file.h"
#include "model/ddbjson.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

static const char item_json[] =
    "{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob#3\"},\"GSI1PK\":{\"S\":\"TARGET#bob\"},"
    "\"n\":{\"N\":\"-12.5\"},\"b\":{\"B\":\"AAE=\"},\"ss\":{\"SS\":[\"a\",\"b\"]},\"ns\":{\"NS\":[\"1\",\"2\"]},"
    "\"bs\":{\"BS\":[\"AA==\"]},\"t\":{\"BOOL\":true},\"z\":{\"NULL\":true},"
    "\"m\":{\"M\":{\"city\":{\"S\":\"서울\"},\"l\":{\"L\":[{\"S\":\"x\"},{\"M\":{\"k\":{\"N\":\"1\"}}}]}}}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    int lines = 1;
    for (size_t i = 0; i < size; i++)
        lines += text[i] == '\n';
    mask_file *f = NULL;
    diag d;
    diag_init(&d);
    status st = mask_file_parse("fuzz.json", text, size, "0123456789abcdef", 16, &f, &d);
    if (st != ST_OK) {
        CHECK(st == ST_PARSE && f == NULL);
        CHECK(strcmp(d.file, "fuzz.json") == 0);
        CHECK(d.line >= 1 && d.line <= lines + 1 && d.col >= 1);
        return 0;
    }
    table_def def;
    memset(&def, 0, sizeof def);
    index_def ix = { .name = "GSI1", .global = true, .pk = { "GSI1PK", AV_S } };
    def.name = "Fuzz";
    def.pk = (key_attr){ "PK", AV_S };
    def.sk = (key_attr){ "SK", AV_S };
    def.idx = &ix;
    def.n_idx = 1;
    mask_plan *p = NULL;
    st = mask_bind(mask_file_mask(f), "Fuzz", &def, &p, &d);
    if (st != ST_OK) {
        CHECK(st == ST_VALIDATION && d.line >= 1 && d.line <= lines);
    } else {
        av item;
        CHECK(ddbjson_parse_item(item_json, strlen(item_json), &item, &d) == ST_OK);
        mask_apply(p, &item);
        const av *pk = av_map_get(&item, "PK", 2), *sk = av_map_get(&item, "SK", 2);
        CHECK(pk && pk->type == AV_S && sk && sk->type == AV_S);
        buf b = BUF_INIT;
        ddbjson_write_item(&b, &item);
        av back;
        CHECK(ddbjson_parse_item(b.data, b.len, &back, &d) == ST_OK);
        av_done(&back);
        buf_done(&b);
        av_done(&item);
        mask_plan_free(p);
    }
    mask_file_free(f);
    return 0;
}
