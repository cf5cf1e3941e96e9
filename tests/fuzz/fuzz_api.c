/*
 * fuzz_api — the `ddbx api` line handler (store_call_line), in process,
 * on an in-memory store.
 *
 * The input is up to 16 request lines. Two tables exist before each input
 * (a pk/sk table with a GSI and an LSI, a numeric-key table with a
 * KEYS_ONLY index), so lines reach the operations rather than stop at
 * ResourceNotFoundException. Every line gets exactly one response, which
 * is one JSON object holding "Output" or "Error" with a Code, and never
 * contains a raw newline (the protocol is one object a line). 
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store.h"
#include "model/status.h"

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: check failed: %s\n", \
                                          __FILE__, __LINE__, #c); abort(); } } while (0)

static const char *const setup[] = {
    "{\"Operation\":\"CreateTable\",\"Input\":{\"TableName\":\"Tab\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"GSI1PK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"GSI1SK\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"n\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":["
    "{\"AttributeName\":\"GSI1PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"GSI1SK\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}],"
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"LSI1\",\"KeySchema\":["
    "{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"n\",\"KeyType\":\"RANGE\"}],"
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"a\"]}}],"
    "\"BillingMode\":\"PAY_PER_REQUEST\"}}",
    "{\"Operation\":\"CreateTable\",\"Input\":{\"TableName\":\"Num\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"},"
    "{\"AttributeName\":\"b\",\"AttributeType\":\"B\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"ByB\",\"KeySchema\":["
    "{\"AttributeName\":\"b\",\"KeyType\":\"HASH\"}],"
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}],"
    "\"BillingMode\":\"PAY_PER_REQUEST\"}}",
};

static store *db;
static unsigned uses;

static void create_tables(void)
{
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        char *out = NULL;
        store_call_line(db, setup[i], strlen(setup[i]), &out);
        /* created, or still there */
        CHECK(strstr(out, "\"Output\"") || strstr(out, "ResourceInUseException"));
        free(out);
    }
}

/* At exit: an in-memory store's backups folder (CreateBackup in an
 * input) goes with it. */
static void close_store(void)
{
    store_close(db);
    db = NULL;
}

static void open_store(void)
{
    diag d;
    diag_init(&d);
    CHECK(store_open(":memory:", 0, &db, &d) == ST_OK);
    static bool registered;
    if (!registered)
        registered = atexit(close_store) == 0;
    create_tables();
}

static void check_response(const char *out)
{
    CHECK(out != NULL);
    CHECK(strchr(out, '\n') == NULL);
    cJSON *r = cJSON_Parse(out);
    CHECK(r && cJSON_IsObject(r));
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(r, "Output");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(r, "Error");
    CHECK((o != NULL) != (e != NULL));
    if (e)
        CHECK(cJSON_IsString(cJSON_GetObjectItemCaseSensitive(e, "Code")));
    cJSON_Delete(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* a fresh store now and then so it does not grow without bound; after
     * a DeleteTable, the tables again, so later inputs find them */
    static bool dropped;
    if (!db || ++uses % 65536 == 0) {
        store_close(db);
        db = NULL;
        open_store();
    } else if (dropped) {
        create_tables();
    }
    const char *p = (const char *)data, *end = p + size;
    for (int lines = 0; p < end && lines < 16; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        char *out = NULL;
        store_call_line(db, p, len, &out);
        check_response(out);
        free(out);
        p += len + (nl != NULL);
    }
    dropped = memmem(data, size, "DeleteTable", 11) != NULL;
    return 0;
}
