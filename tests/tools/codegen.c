/*
 * codegen — prints the SDK code model/codegen writes for one of a fixed
 * set of requests, for tests/sdk (which runs the JavaScript and Python
 * against `ddbx serve` and compares the Go with a golden file).
 *
 *   codegen list                 the case names, one a line
 *   codegen js|python|go CASE    the program for that case on stdout
 *
 * The cases use table Sdk (PK S, SK S), created by tests/sdk/run.sh.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/codegen.h"
#include "model/ddbjson.h"

static void item(av *out, const char *json)
{
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), out, &d) != ST_OK) {
        fprintf(stderr, "codegen: bad case item %s: %s\n", json, d.msg);
        exit(2);
    }
}

static void names(ddb_req *r, const char *json)
{
    item(&r->names, json);
}

/* Every attribute type, B and BS included (bytes that are not text). */
static void put_all_types(ddb_req *r)
{
    ddb_req_init(r, DDB_PUT);
    ddb_req_set_str(&r->table, "Sdk");
    item(&r->item, "{\"PK\":{\"S\":\"p#1\"},\"SK\":{\"S\":\"types\"},\"s\":{\"S\":\"\\\"quoted\\\" \\u0001 \xed\x95\x9c\xea\xb8\x80\"},"
                   "\"n\":{\"N\":\"-12.50\"},\"b\":{\"B\":\"AAH/\"},\"t\":{\"BOOL\":true},\"f\":{\"BOOL\":false},"
                   "\"z\":{\"NULL\":true},\"l\":{\"L\":[{\"S\":\"x\"},{\"N\":\"1\"},{\"M\":{\"k\":{\"S\":\"v\"}}}]},"
                   "\"m\":{\"M\":{\"inner key\":{\"L\":[]},\"e\":{\"M\":{}}}},\"ss\":{\"SS\":[\"a\",\"b\"]},"
                   "\"ns\":{\"NS\":[\"1\",\"2.5\"]},\"bs\":{\"BS\":[\"AA==\",\"/w==\"]}}");
    ddb_req_set_str(&r->cond, "attribute_not_exists(#k)");
    names(r, "{\"#k\":{\"S\":\"PK\"}}");
}

static void get_item(ddb_req *r)
{
    ddb_req_init(r, DDB_GET);
    ddb_req_set_str(&r->table, "Sdk");
    item(&r->key, "{\"PK\":{\"S\":\"p#1\"},\"SK\":{\"S\":\"a\"}}");
    r->consistent = true;
    ddb_req_set_str(&r->proj, "#c, n");
    names(r, "{\"#c\":{\"S\":\"city\"}}");
}

static void update_item(ddb_req *r)
{
    ddb_req_init(r, DDB_UPDATE);
    ddb_req_set_str(&r->table, "Sdk");
    item(&r->key, "{\"PK\":{\"S\":\"p#1\"},\"SK\":{\"S\":\"a\"}}");
    ddb_req_set_str(&r->update, "SET #c = :c, n = n + :one");
    ddb_req_set_str(&r->cond, "#c = :old");
    names(r, "{\"#c\":{\"S\":\"city\"}}");
    item(&r->values, "{\":c\":{\"S\":\"Jeju\"},\":one\":{\"N\":\"1\"},\":old\":{\"S\":\"Seoul\"}}");
    r->rv = DDB_RV_ALL_NEW;
    r->rcc = DDB_RCC_TOTAL;
}

static void query(ddb_req *r)
{
    ddb_req_init(r, DDB_QUERY);
    ddb_req_set_str(&r->table, "Sdk");
    ddb_req_set_str(&r->keycond, "PK = :p AND begins_with(SK, :s)");
    ddb_req_set_str(&r->filter, "n > :z");
    item(&r->values, "{\":p\":{\"S\":\"p#1\"},\":s\":{\"S\":\"a\"},\":z\":{\"N\":\"0\"}}");
    r->limit = 10;
    r->backward = true;
    r->select = DDB_SELECT_COUNT;
}

static void scan(ddb_req *r)
{
    ddb_req_init(r, DDB_SCAN);
    ddb_req_set_str(&r->table, "Sdk");
    r->segment = 0;
    r->segments = 2;
    r->limit = 5;
}

static void delete_item(ddb_req *r)
{
    ddb_req_init(r, DDB_DELETE);
    ddb_req_set_str(&r->table, "Sdk");
    item(&r->key, "{\"PK\":{\"S\":\"p#2\"},\"SK\":{\"S\":\"gone\"}}");
    ddb_req_set_str(&r->cond, "attribute_exists(PK)");
    /* Not rv_fail_all_old: Debian's boto3 (1.26) predates
     * ReturnValuesOnConditionCheckFailure and refuses it before sending. */
    r->rv = DDB_RV_ALL_OLD;
}

static void transact(ddb_req *r)
{
    ddb_req_init(r, DDB_TRANSACT_WRITE);
    ddb_req *a = ddb_req_add(r, DDB_PUT);
    ddb_req_set_str(&a->table, "Sdk");
    item(&a->item, "{\"PK\":{\"S\":\"p#3\"},\"SK\":{\"S\":\"t\"},\"v\":{\"N\":\"1\"}}");
    a = ddb_req_add(r, DDB_UPDATE);
    ddb_req_set_str(&a->table, "Sdk");
    item(&a->key, "{\"PK\":{\"S\":\"p#1\"},\"SK\":{\"S\":\"a\"}}");
    ddb_req_set_str(&a->update, "REMOVE n");
    a = ddb_req_add(r, DDB_CHECK);   /* one action per item, as DynamoDB wants */
    ddb_req_set_str(&a->table, "Sdk");
    item(&a->key, "{\"PK\":{\"S\":\"p#1\"},\"SK\":{\"S\":\"types\"}}");
    ddb_req_set_str(&a->cond, "attribute_exists(PK)");
    a = ddb_req_add(r, DDB_DELETE);
    ddb_req_set_str(&a->table, "Sdk");
    item(&a->key, "{\"PK\":{\"S\":\"p#2\"},\"SK\":{\"S\":\"b\"}}");
    ddb_req_set_str(&r->token, "ddbx-sdk-test-1");
}

static void batch_write(ddb_req *r)
{
    ddb_req_init(r, DDB_BATCH_WRITE);
    ddb_req *a = ddb_req_add(r, DDB_PUT);
    ddb_req_set_str(&a->table, "Sdk");
    item(&a->item, "{\"PK\":{\"S\":\"p#4\"},\"SK\":{\"S\":\"w\"},\"bin\":{\"B\":\"3q2+7w==\"}}");
    a = ddb_req_add(r, DDB_DELETE);
    ddb_req_set_str(&a->table, "Sdk");
    item(&a->key, "{\"PK\":{\"S\":\"p#3\"},\"SK\":{\"S\":\"t\"}}");
}

static void batch_get(ddb_req *r)
{
    ddb_req_init(r, DDB_BATCH_GET);
    ddb_req *g = ddb_req_add(r, DDB_GET);
    ddb_req_set_str(&g->table, "Sdk");
    av_init_list(&g->keys, AV_L);
    av k;
    item(&k, "{\"PK\":{\"S\":\"p#1\"},\"SK\":{\"S\":\"a\"}}");
    av_list_push(&g->keys, &k);
    item(&k, "{\"PK\":{\"S\":\"p#4\"},\"SK\":{\"S\":\"w\"}}");
    av_list_push(&g->keys, &k);
    g->consistent = true;
}

static const struct {
    const char *name;
    void (*make)(ddb_req *r);
} cases[] = {
    { "put_all_types", put_all_types }, { "get_item", get_item }, { "update_item", update_item },
    { "query", query }, { "scan", scan }, { "delete_item", delete_item },
    { "transact", transact }, { "batch_write", batch_write }, { "batch_get", batch_get },
};

int main(int argc, char **argv)
{
    size_t n = sizeof cases / sizeof cases[0];
    if (argc == 2 && strcmp(argv[1], "list") == 0) {
        for (size_t i = 0; i < n; i++)
            puts(cases[i].name);
        return 0;
    }
    if (argc != 3) {
        fprintf(stderr, "usage: codegen list | codegen js|python|go CASE\n");
        return 2;
    }
    codegen_lang lang = strcmp(argv[1], "js") == 0 ? CODEGEN_JS
                      : strcmp(argv[1], "python") == 0 ? CODEGEN_PYTHON : CODEGEN_GO;
    if (lang == CODEGEN_GO && strcmp(argv[1], "go") != 0) {
        fprintf(stderr, "codegen: unknown language %s\n", argv[1]);
        return 2;
    }
    for (size_t i = 0; i < n; i++) {
        if (strcmp(cases[i].name, argv[2]) != 0)
            continue;
        ddb_req r;
        buf out = BUF_INIT;
        cases[i].make(&r);
        codegen_write(lang, &r, &out);
        fwrite(out.data, 1, out.len, stdout);
        buf_done(&out);
        ddb_req_done(&r);
        return 0;
    }
    fprintf(stderr, "codegen: no case %s\n", argv[2]);
    return 2;
}
