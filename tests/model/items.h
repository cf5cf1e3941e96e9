/*
 * items.h — helpers of the model tests that work on items: an item from
 * DynamoDB JSON (the test fails on bad JSON) and an item back to it
 * (malloc'd). Static, for inclusion by one test program each, after
 * <cmocka.h>.
 */
#ifndef DDBX_TEST_ITEMS_H
#define DDBX_TEST_ITEMS_H

#include <string.h>

#include "model/buf.h"
#include "model/ddbjson.h"

static av parse(const char *json)
{
    av v;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), &v, &d) != ST_OK)
        fail_msg("%s: %s", json, d.msg);
    return v;
}

static inline char *text(const av *v)
{
    buf b = BUF_INIT;
    ddbjson_write_item(&b, v);
    return buf_steal(&b);
}

#endif
