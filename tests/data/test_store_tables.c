/* The table kinds run typed on a local store (store_exec, answers in
 * res.tables, model/ddbres_tables.h): ListTables' pages (API reference,
 * ListTables: names in order, at most Limit of them, from after
 * ExclusiveStartTableName, LastEvaluatedTableName while more follow),
 * and the typed answer printed is what the JSON door answers.
 * DescribeTable (API reference, DescribeTable and TableDescription): the
 * table's keys, indexes, stream and live ItemCount typed; a missing table
 * is ResourceNotFoundException with the store's words; and the typed
 * description keeps every member the store keeps (the stored description,
 * read from the database file, against the door's answer). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/ddbres.h"
#include "model/ddbres_tables.h"

#include "tests/data/tmpstore.h"

static char *call(store *s, const char *op, const char *json)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    if (store_call(s, op, json, strlen(json), &out, &d) != ST_OK)
        fail_msg("%s: %s", op, d.msg);
    return out;
}

static void make_table(store *s, const char *name)
{
    char body[512];
    snprintf(body, sizeof body,
             "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\","
             "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
             "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}", name);
    free(call(s, "CreateTable", body));
}

/* store_exec of a ListTables with limit and start; its answer printed. */
static void list(store *s, uint32_t limit, const char *start, ddb_res *res, buf *printed)
{
    ddb_req r;
    ddb_req_init(&r, DDB_LIST_TABLES);
    r.limit = limit;
    ddb_req_set_str(&r.ctl.start_name, start);
    ddb_err err;
    ddb_err_init(&err);
    ddb_res_init(res);
    if (store_exec(s, &r, res, &err) != ST_OK)
        fail_msg("ListTables: %s", err.d.msg);
    assert_non_null(res->tables);
    ddbres_tables_json(DDB_LIST_TABLES, res, printed);
    ddb_err_done(&err);
    ddb_req_done(&r);
}

static void list_tables_typed(void **state)
{
    store *s = *state;
    ddb_res res;
    buf b = BUF_INIT;
    list(s, 0, NULL, &res, &b);
    assert_int_equal(res.tables->n_names, 0);
    assert_null(res.tables->last_name);
    ddb_res_done(&res);

    make_table(s, "Gamma");
    make_table(s, "Alpha");
    make_table(s, "Beta");
    buf_reset(&b);
    list(s, 2, NULL, &res, &b);
    assert_int_equal(res.tables->n_names, 2);
    assert_string_equal(res.tables->names[0], "Alpha");
    assert_string_equal(res.tables->names[1], "Beta");
    assert_string_equal(res.tables->last_name, "Beta");
    ddb_res_done(&res);

    buf_reset(&b);
    list(s, 2, "Beta", &res, &b);
    assert_int_equal(res.tables->n_names, 1);
    assert_string_equal(res.tables->names[0], "Gamma");
    assert_null(res.tables->last_name);
    ddb_res_done(&res);

    /* Exactly Limit left: the last page says no LastEvaluatedTableName. */
    buf_reset(&b);
    list(s, 3, NULL, &res, &b);
    assert_int_equal(res.tables->n_names, 3);
    assert_null(res.tables->last_name);
    char *door = call(s, "ListTables", "{\"Limit\":3}");
    assert_string_equal(b.data, door);
    free(door);
    ddb_res_done(&res);
    buf_done(&b);
}

/* Keys, an LSI (INCLUDE), a GSI with its own throughput and warm
 * throughput, a stream, on a provisioned table; and on an on-demand one
 * with a maximum throughput, a vector index. */
#define DEF(n, t) "{\"AttributeName\":\"" n "\",\"AttributeType\":\"" t "\"}"
#define KEY(n, t) "{\"AttributeName\":\"" n "\",\"KeyType\":\"" t "\"}"
#define RICH \
    "{\"TableName\":\"Rich\",\"AttributeDefinitions\":[" DEF("pk", "S") "," DEF("sk", "N") "," DEF("g", "S") "," \
    DEF("l", "S") "],\"KeySchema\":[" KEY("pk", "HASH") "," KEY("sk", "RANGE") "]," \
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":6}," \
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byL\",\"KeySchema\":[" KEY("pk", "HASH") "," KEY("l", "RANGE") \
    "],\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"note\"]}}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":[" KEY("g", "HASH") "]," \
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"},\"ProvisionedThroughput\":{\"ReadCapacityUnits\":2," \
    "\"WriteCapacityUnits\":3},\"WarmThroughput\":{\"ReadUnitsPerSecond\":20}}]," \
    "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"}}"
#define VEC \
    "{\"TableName\":\"Vec\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[" DEF("id", "S") "," \
    DEF("cat", "S") "],\"KeySchema\":[" KEY("id", "HASH") "],\"OnDemandThroughput\":{\"MaxReadRequestUnits\":50}," \
    "\"VectorIndexes\":[{\"IndexName\":\"byV\",\"VectorAttribute\":{\"AttributeName\":\"emb\"}," \
    "\"Dimensions\":3,\"DistanceFunction\":\"COSINE\",\"SearchSchema\":[{\"AttributeName\":\"cat\"," \
    "\"SearchSchemaElementType\":\"INLINE_FILTER\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}"

static status describe(store *s, const char *table, ddb_res *res, ddb_err *err)
{
    ddb_req r;
    ddb_req_init(&r, DDB_DESCRIBE_TABLE);
    ddb_req_set_str(&r.table, table);
    ddb_err_init(err);
    ddb_res_init(res);
    status st = store_exec(s, &r, res, err);
    ddb_req_done(&r);
    return st;
}

static void describe_table_typed(void **state)
{
    store *s = *state;
    free(call(s, "CreateTable", RICH));
    free(call(s, "PutItem", "{\"TableName\":\"Rich\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}"));
    ddb_res res;
    ddb_err err;
    assert_int_equal(describe(s, "Rich", &res, &err), ST_OK);
    const ddb_table_desc *t = res.tables->table;
    assert_non_null(t);
    assert_string_equal(t->name, "Rich");
    assert_string_equal(t->status, "ACTIVE");
    assert_true(t->count.has && t->count.v == 1);
    assert_int_equal(t->keys.n, 2);
    assert_string_equal(t->keys.v[1].name, "sk");
    assert_string_equal(t->keys.v[1].what, "RANGE");
    assert_true(t->tput && t->tput->rcu.v == 5 && t->tput->wcu.v == 6);
    assert_int_equal(t->lsis.n, 1);
    assert_string_equal(t->lsis.v[0].proj->nka.v[0], "note");
    const ddb_index_desc *g = ddbres_table_desc_gsi(t, "byG");
    assert_non_null(g);
    assert_string_equal(g->status, "ACTIVE");
    assert_true(g->tput->rcu.v == 2 && g->warm && g->warm->read.v == 20);
    assert_true(t->stream && t->stream->enabled.v);
    assert_non_null(t->stream_arn);
    assert_non_null(strstr(t->stream_arn, "table/Rich/stream/"));
    /* The table_def it holds is the store's own. */
    table_def def, own;
    ddbres_table_desc_def(t, &def);
    diag d;
    diag_init(&d);
    assert_int_equal(store_describe(s, "Rich", &own, &d), ST_OK);
    assert_string_equal(def.pk.name, own.pk.name);
    assert_int_equal(def.sk.type, AV_N);
    assert_int_equal(def.n_idx, own.n_idx);
    assert_string_equal(def.idx[0].name, "byL");
    assert_false(def.idx[0].global);
    assert_true(def.idx[1].global);
    assert_int_equal(def.created, own.created);
    table_def_free(&def);
    table_def_free(&own);
    /* The door's answer is the typed one printed. */
    buf b = BUF_INIT;
    ddbres_tables_json(DDB_DESCRIBE_TABLE, &res, &b);
    char *door = call(s, "DescribeTable", "{\"TableName\":\"Rich\"}");
    assert_string_equal(b.data, door);
    free(door);
    buf_done(&b);
    ddb_res_done(&res);
    ddb_err_done(&err);

    assert_int_equal(describe(s, "Nope", &res, &err), ST_NOT_FOUND);
    assert_string_equal(ddb_err_message(&err), "Requested resource not found: Table: Nope not found");
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* No TableName: refused in the door's words (its F_TABLE_REQ check),
     * by the typed call too. */
    ddb_req q;
    ddb_req_init(&q, DDB_DESCRIBE_TABLE);
    ddb_res_init(&res);
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &q, &res, &err), ST_VALIDATION);
    diag dd;
    diag_init(&dd);
    char *out = NULL;
    assert_int_equal(store_call(s, "DescribeTable", "{}", 2, &out, &dd), ST_VALIDATION);
    assert_string_equal(ddb_err_message(&err), dd.msg);
    free(out);
    ddb_req_done(&q);
    ddb_res_done(&res);
    ddb_err_done(&err);
}

/* DeleteTable (API reference, DeleteTable: its example answers with the
 * name, status DELETING, throughput, size and count; no key schema or
 * indexes): the table goes, its description typed; a missing table is
 * ResourceNotFoundException in DescribeTable's words. */
static void delete_table_typed(void **state)
{
    store *s = *state;
    free(call(s, "CreateTable", RICH));
    free(call(s, "PutItem", "{\"TableName\":\"Rich\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"N\":\"1\"}}}"));
    ddb_req r;
    ddb_req_init(&r, DDB_DELETE_TABLE);
    ddb_req_set_str(&r.table, "Rich");
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_OK);
    const ddb_table_desc *t = res.tables->table;
    assert_non_null(t);
    assert_string_equal(t->name, "Rich");
    assert_string_equal(t->status, "DELETING");
    assert_true(t->count.has && t->count.v == 1);
    assert_true(t->tput && t->tput->rcu.v == 5);
    assert_int_equal(t->keys.n, 0);
    assert_null(t->keys.v);
    assert_null(t->gsis.v);
    assert_null(t->lsis.v);
    assert_false(t->created.has);
    buf b = BUF_INIT;
    ddbres_tables_json(DDB_DELETE_TABLE, &res, &b);
    assert_memory_equal(b.data, "{\"TableDescription\":{\"TableName\":\"Rich\",\"TableStatus\":\"DELETING\",", 58);
    buf_done(&b);
    ddb_res_done(&res);
    ddb_err_done(&err);

    ddb_res_init(&res);
    ddb_err_init(&err);
    assert_int_equal(describe(s, "Rich", &res, &err), ST_NOT_FOUND);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_res_init(&res);
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_NOT_FOUND);
    assert_string_equal(ddb_err_message(&err), "Requested resource not found: Table: Rich not found");
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);
    char *names = call(s, "ListTables", "{}");
    assert_string_equal(names, "{\"TableNames\":[]}");
    free(names);
}

/* A CreateTable of a table_def: name, its hash key pk (S). */
static void def_request(ddb_req *r, const char *name)
{
    ddb_req_init(r, DDB_CREATE_TABLE);
    r->ctl.def = calloc(1, sizeof *r->ctl.def);
    r->ctl.def->name = strdup(name);
    r->ctl.def->pk.name = strdup("pk");
    r->ctl.def->pk.type = AV_S;
}

/* CreateTable of a table_def (the control plane's C calls) and
 * UpdateTable (whose work still runs on the JSON inside the store)
 * answer store_exec's caller typed: CreateTable's TableDescription
 * CREATING (API reference, CreateTable: "TableStatus ... CREATING"),
 * UpdateTable's UPDATING with the new GSI CREATING (API reference,
 * UpdateTable). */
static void create_update_answers_typed(void **state)
{
    store *s = *state;
    ddb_req r;
    def_request(&r, "Made");
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_OK);
    assert_non_null(res.tables);
    assert_string_equal(res.tables->table->name, "Made");
    assert_string_equal(res.tables->table->status, "CREATING");
    assert_string_equal(res.tables->table->billing->mode, "PAY_PER_REQUEST");
    ddb_res_done(&res);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_UPDATE_TABLE);
    ddb_req_set_str(&r.table, "Made");
    r.ctl.gsi = calloc(1, sizeof *r.ctl.gsi);
    r.ctl.gsi->name = strdup("byPk");
    r.ctl.gsi->global = true;
    r.ctl.gsi->pk.name = strdup("pk");
    r.ctl.gsi->pk.type = AV_S;
    ddb_res_init(&res);
    if (store_exec(s, &r, &res, &err) != ST_OK)
        fail_msg("UpdateTable: %s", err.d.msg);
    assert_string_equal(res.tables->table->status, "UPDATING");
    const ddb_index_desc *g = ddbres_table_desc_gsi(res.tables->table, "byPk");
    assert_non_null(g);
    assert_string_equal(g->status, "CREATING");
    ddb_res_done(&res);
    ddb_req_done(&r);
    ddb_err_done(&err);
}

/* A CreateTable body with what the typed request carries: the
 * attribute definitions' order, an LSI, a GSI with its own throughput
 * and WarmThroughput, the table's WarmThroughput, a stream, a tag. */
#define CREATE_BODY(name)                                                                              \
    "{\"TableName\":\"" name "\",\"BillingMode\":\"PROVISIONED\","                                     \
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":5,\"WriteCapacityUnits\":6},"                    \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"},"                    \
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"g\",\"AttributeType\":\"N\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]," \
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"byG\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}," \
    "{\"AttributeName\":\"g\",\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gIdx\",\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}]," \
    "\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"a\"]},"                     \
    "\"ProvisionedThroughput\":{\"ReadCapacityUnits\":3,\"WriteCapacityUnits\":4},"                    \
    "\"WarmThroughput\":{\"ReadUnitsPerSecond\":7}}],"                                                 \
    "\"WarmThroughput\":{\"WriteUnitsPerSecond\":9},"                                                  \
    "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_IMAGE\"},"              \
    "\"Tags\":[{\"Key\":\"team\",\"Value\":\"red\"}]}"

/* The answer without what differs between two tables made alike (their
 * id, times and stream label), names made the same. */
static char *comparable(const char *answer, const char *name)
{
    cJSON *o = cJSON_Parse(answer);
    assert_non_null(o);
    cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "TableDescription");
    static const char *const differ[] = { "TableId", "CreationDateTime", "LatestStreamLabel", "LatestStreamArn" };
    for (size_t i = 0; i < sizeof differ / sizeof differ[0]; i++)
        cJSON_DeleteItemFromObjectCaseSensitive(t, differ[i]);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    for (char *p = strstr(text, name); p; p = strstr(p, name))
        memcpy(p, "Table", 5);
    return text;
}

/* CreateTable run typed (API reference, CreateTable): the table asked
 * for as a description's shapes (ddb_ctl's create), its stream and tags
 * beside it, answered with a typed TableDescription CREATING that keeps
 * the AttributeDefinitions' order, each GSI's own throughput, a
 * WarmThroughput's missing member at its floor (the capacity: developer
 * guide, warm throughput), and names the stream; the JSON door's answer
 * to the same body is that description printed, byte for byte. */
static void create_table_typed(void **state)
{
    store *s = *state;
    char *door = call(s, "CreateTable", CREATE_BODY("Door1"));

    const char *body = CREATE_BODY("Typd1");
    av plain;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_plain_item(body, strlen(body), &plain, &d), ST_OK);
    ddb_req r;
    ddb_req_init(&r, DDB_CREATE_TABLE);
    ddb_req_set_str(&r.table, "Typd1");
    assert_int_equal(ddbres_table_desc_read(&plain, &r.ctl.create, &d), ST_OK);
    r.ctl.create->billing = calloc(1, sizeof *r.ctl.create->billing);
    r.ctl.create->billing->mode = strdup("PROVISIONED");
    free(r.ctl.create->stream->view);   /* the stream goes as stream_view */
    free(r.ctl.create->stream);
    r.ctl.create->stream = NULL;
    ddb_req_set_str(&r.ctl.stream_view, "NEW_IMAGE");
    av_move(&r.ctl.tags, av_map_get_mut(&plain, "Tags", 4));
    av_done(&plain);

    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    if (store_exec(s, &r, &res, &err) != ST_OK)
        fail_msg("CreateTable: %s", err.d.msg);
    const ddb_table_desc *t = res.tables->table;
    assert_string_equal(t->name, "Typd1");
    assert_string_equal(t->status, "CREATING");
    assert_int_equal(t->attrs.n, 3);
    assert_string_equal(t->attrs.v[0].name, "sk");
    assert_string_equal(t->attrs.v[2].name, "g");
    assert_null(t->billing);   /* provisioned: no BillingModeSummary */
    assert_true(t->tput->rcu.v == 5 && t->tput->wcu.v == 6);
    assert_true(t->warm->read.v == 5 && t->warm->write.v == 9);
    assert_int_equal(t->lsis.n, 1);
    assert_null(t->lsis.v[0].status);
    assert_int_equal(t->gsis.n, 1);
    assert_string_equal(t->gsis.v[0].status, "CREATING");
    assert_true(t->gsis.v[0].tput->rcu.v == 3 && t->gsis.v[0].tput->wcu.v == 4);
    assert_true(t->gsis.v[0].warm->read.v == 7 && t->gsis.v[0].warm->write.v == 4);
    assert_string_equal(t->gsis.v[0].arn, "arn:aws:dynamodb:us-east-1:000000000000:table/Typd1/index/gIdx");
    assert_string_equal(t->stream->view, "NEW_IMAGE");
    assert_non_null(t->stream_arn);

    buf printed = BUF_INIT;
    ddb_res_json(&r, &res, &printed);
    char *a = comparable(door, "Door1"), *b = comparable(printed.data, "Typd1");
    assert_string_equal(b, a);
    free(a);
    free(b);
    buf_done(&printed);
    ddb_res_done(&res);
    ddb_req_done(&r);
    ddb_err_done(&err);
    free(door);

    char *tags = call(s, "ListTagsOfResource",
                      "{\"ResourceArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/Typd1\"}");
    assert_string_equal(tags, "{\"Tags\":[{\"Key\":\"team\",\"Value\":\"red\"}]}");
    free(tags);
}

/* UpdateTable's answer (API reference, UpdateTable: the
 * TableDescription, TableStatus UPDATING; the GSI being created CREATING
 * with Backfilling, the developer guide's "Adding a global secondary
 * index") is the table's typed description with those changes, printed:
 * the door's bytes are the printer's. */
static void update_answer_printed(void **state)
{
    store *s = *state;
    make_table(s, "Upd");
    char *door = call(s, "UpdateTable",
                      "{\"TableName\":\"Upd\",\"AttributeDefinitions\":[{\"AttributeName\":\"g\","
                      "\"AttributeType\":\"S\"}],\"GlobalSecondaryIndexUpdates\":[{\"Create\":{\"IndexName\":\"byG\","
                      "\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],"
                      "\"Projection\":{\"ProjectionType\":\"ALL\"}}}]}");
    ddb_req r;
    ddb_req_init(&r, DDB_DESCRIBE_TABLE);
    ddb_req_set_str(&r.table, "Upd");
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_OK);
    ddb_table_desc *t = res.tables->table;
    free(t->status);
    t->status = strdup("UPDATING");
    assert_int_equal(t->gsis.n, 1);
    free(t->gsis.v[0].status);
    t->gsis.v[0].status = strdup("CREATING");
    t->gsis.v[0].backfilling.has = true;
    t->gsis.v[0].backfilling.v = false;
    ddb_req_done(&r);
    ddb_req_init(&r, DDB_UPDATE_TABLE);
    buf printed = BUF_INIT;
    ddb_res_json(&r, &res, &printed);
    assert_string_equal(printed.data, door);
    buf_done(&printed);
    ddb_res_done(&res);
    ddb_req_done(&r);
    ddb_err_done(&err);
    free(door);
}

/* A CreateTable of a table_def goes through the door's checks, with
 * their messages whole: a name 1100 characters long is refused with
 * DynamoDB's validation error quoting the value (longer than a diag
 * holds), the same words as the door's for the body (API reference,
 * CreateTable: TableName, 3 to 255 characters). */
static void create_def_refused_whole(void **state)
{
    store *s = *state;
    char name[1101];
    memset(name, 'a', 1100);
    name[1100] = '\0';
    ddb_req r;
    def_request(&r, name);
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    assert_int_equal(store_exec(s, &r, &res, &err), ST_VALIDATION);
    buf body = BUF_INIT;
    ddb_req_json(&r, &body);
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, "CreateTable", body.data, body.len, &out, &d);
    assert_int_equal(st, ST_VALIDATION);
    const char *door = store_error_message(s, st, &d);
    assert_true(strlen(door) > sizeof d.msg);
    assert_string_equal(ddb_err_message(&err), door);
    free(out);
    buf_done(&body);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);
}

/* Every member of stored (an object) is in answer, recursively. */
static void members_kept(const cJSON *stored, const cJSON *answer, const char *where)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, stored) {
        if (!cJSON_IsObject(stored))
            return;
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(answer, m->string);
        if (!a)
            fail_msg("%s: the typed description lost %s", where, m->string);
        if (cJSON_IsObject(m))
            members_kept(m, a, m->string);
        if (cJSON_IsArray(m)) {
            int n = cJSON_GetArraySize(m);
            assert_int_equal(cJSON_GetArraySize(a), n);
            for (int i = 0; i < n; i++)
                members_kept(cJSON_GetArrayItem(m, i), cJSON_GetArrayItem(a, i), m->string);
        }
    }
}

/* The description the store keeps of table, from its file (the tables
 * table's description column, data/store.c). */
static cJSON *stored_desc(const char *table)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
    sqlite3_stmt *q;
    assert_int_equal(sqlite3_prepare_v2(db, "SELECT description FROM tables WHERE name = ?1", -1, &q, NULL),
                     SQLITE_OK);
    sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
    assert_int_equal(sqlite3_step(q), SQLITE_ROW);
    cJSON *o = cJSON_Parse((const char *)sqlite3_column_text(q, 0));
    sqlite3_finalize(q);
    sqlite3_close(db);
    assert_non_null(o);
    return o;
}

static void describe_keeps_every_member(void **state)
{
    store *s = *state;
    free(call(s, "CreateTable", RICH));
    free(call(s, "CreateTable", VEC));
    static const char *const names[] = { "Rich", "Vec" };
    for (int i = 0; i < 2; i++) {
        cJSON *stored = stored_desc(names[i]);
        char body[64];
        snprintf(body, sizeof body, "{\"TableName\":\"%s\"}", names[i]);
        char *door = call(s, "DescribeTable", body);
        cJSON *answer = cJSON_Parse(door);
        members_kept(stored, cJSON_GetObjectItemCaseSensitive(answer, "Table"), names[i]);
        cJSON_Delete(answer);
        cJSON_Delete(stored);
        free(door);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(list_tables_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(describe_table_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(describe_keeps_every_member, setup, teardown),
        cmocka_unit_test_setup_teardown(delete_table_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(create_update_answers_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(create_table_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(update_answer_printed, setup, teardown),
        cmocka_unit_test_setup_teardown(create_def_refused_whole, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
