/*
 * fuzz_api — the `ddbx api` line handler (store_call_line), in process,
 * on an in-memory store.
 *
 * The input is up to 64 request lines, on a store of its own. Two tables
 * exist before each input (a pk/sk table with a GSI and an LSI, a
 * numeric-key table with a KEYS_ONLY index), so lines reach the operations rather than stop at
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

#define RESET_EVERY 1

/* Lines an input may hold: enough for one input to build what a test
 * needs (tables, items, backups, a restore) before it probes. */
#define MAX_LINES 64

static store *db;

static void create_tables(void)
{
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        char *out = NULL;
        store_call_line(db, setup[i], strlen(setup[i]), &out);
        CHECK(strstr(out, "\"Output\""));
        free(out);
    }
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
    /* A fresh store for every input, closed after it (its backups folder
     * with it). A store kept across inputs (65,536 of them) made fuzzing
     * slow down from 512 inputs a second to 70 within minutes (issue 38):
     * an input that leaves more allocated than it frees (a store that
     * grows) makes libFuzzer rerun it under LeakSanitizer, whose scan of
     * the whole heap grows with the corpus; a store opened and closed in
     * the input frees what it took, so the scan runs only for a real
     * leak. And each input is the whole story: a crash replays from its
     * file alone. What a kept store reached, one input reaches with its
     * MAX_LINES requests. */
    diag d;
    diag_init(&d);
    CHECK(store_open(":memory:", 0, &db, &d) == ST_OK);
    create_tables();
    const char *p = (const char *)data, *end = p + size;
    for (int lines = 0; p < end && lines < MAX_LINES; lines++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        char *out = NULL;
        store_call_line(db, p, len, &out);
        check_response(out);
        free(out);
        p += len + (nl != NULL);
    }
    store_close(db);
    db = NULL;
    return 0;
}
