/* ddbres_tables: the table kinds' answers printed (members in the API
 * reference's order: ListTables' TableNames, then LastEvaluatedTableName)
 * and read back from the printed text, parsed as plain JSON as a remote
 * answer is; a member of the wrong type is refused by name. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbres_tables.h"
#include "model/vecidx.h"

/* text parsed as plain JSON and read as kind's answer into res. */
static status read_text(ddb_kind kind, const char *text, ddb_res *res, diag *d)
{
    av root;
    status st = ddbjson_parse_plain_item(text, strlen(text), &root, d);
    assert_int_equal(st, ST_OK);
    st = ddbres_tables_read(kind, &root, res, d);
    av_done(&root);
    return st;
}

static void list_tables_printed_and_read_back(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    ddb_tables_res *t = ddbres_tables(&res);
    ddbres_tables_add_name(t, "Alpha");
    ddbres_tables_add_name(t, "Be\"ta");
    t->last_name = strdup("Be\"ta");
    buf out = BUF_INIT;
    ddbres_tables_json(DDB_LIST_TABLES, &res, &out);
    assert_string_equal(out.data, "{\"TableNames\":[\"Alpha\",\"Be\\\"ta\"],"
                                  "\"LastEvaluatedTableName\":\"Be\\\"ta\"}");

    ddb_res back;
    ddb_res_init(&back);
    diag d;
    diag_init(&d);
    assert_int_equal(read_text(DDB_LIST_TABLES, out.data, &back, &d), ST_OK);
    assert_non_null(back.tables);
    assert_int_equal(back.tables->n_names, 2);
    assert_string_equal(back.tables->names[0], "Alpha");
    assert_string_equal(back.tables->names[1], "Be\"ta");
    assert_string_equal(back.tables->last_name, "Be\"ta");
    buf again = BUF_INIT;
    ddbres_tables_json(DDB_LIST_TABLES, &back, &again);
    assert_string_equal(again.data, out.data);
    buf_done(&again);
    buf_done(&out);
    ddb_res_done(&back);
    ddb_res_done(&res);
}

/* No tables: TableNames is there, empty; no LastEvaluatedTableName (the
 * API reference's ListTables: the member is absent on the last page). */
static void list_tables_empty(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    buf out = BUF_INIT;
    ddbres_tables_json(DDB_LIST_TABLES, &res, &out);
    assert_string_equal(out.data, "{\"TableNames\":[]}");
    diag d;
    diag_init(&d);
    assert_int_equal(read_text(DDB_LIST_TABLES, out.data, &res, &d), ST_OK);
    assert_int_equal(res.tables->n_names, 0);
    assert_null(res.tables->last_name);
    buf_done(&out);
    ddb_res_done(&res);
}

static void wrong_types_are_refused_by_name(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    diag d;
    diag_init(&d);
    assert_int_equal(read_text(DDB_LIST_TABLES, "{\"TableNames\":\"A\"}", &res, &d), ST_INTERNAL);
    assert_non_null(strstr(d.msg, "TableNames"));
    ddb_res_done(&res);
    diag_init(&d);
    assert_int_equal(read_text(DDB_LIST_TABLES, "{\"TableNames\":[],\"LastEvaluatedTableName\":3}", &res, &d),
                     ST_INTERNAL);
    assert_non_null(strstr(d.msg, "LastEvaluatedTableName"));
    ddb_res_done(&res);
}

/* A DescribeTable answer with every member ddbx keeps, in the order
 * DynamoDB sends them (the API reference's DescribeTable example: the
 * table's name after AttributeDefinitions, the counts before the ARN). */
#define DESC \
    "{\"Table\":{\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"g\",\"AttributeType\":\"N\"}],\"TableName\":\"T\",\"KeySchema\":" \
    "[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}],\"TableStatus\":\"ACTIVE\"," \
    "\"CreationDateTime\":1765000000.123,\"ProvisionedThroughput\":{\"ReadCapacityUnits\":0," \
    "\"WriteCapacityUnits\":0,\"NumberOfDecreasesToday\":0},\"TableSizeBytes\":3000000000," \
    "\"ItemCount\":7,\"TableArn\":\"arn:aws:dynamodb:us-east-1:000000000000:table/T\"," \
    "\"TableId\":\"0b9d\",\"BillingModeSummary\":{\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"LastUpdateToPayPerRequestDateTime\":1765000000.5},\"TableThroughputModeSummary\":" \
    "{\"TableThroughputMode\":\"PAY_PER_REQUEST\"},\"GlobalSecondaryIndexes\":[{\"IndexName\":\"G\"," \
    "\"KeySchema\":[{\"AttributeName\":\"g\",\"KeyType\":\"HASH\"}],\"Projection\":" \
    "{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"a\",\"b\"]},\"IndexStatus\":\"CREATING\"," \
    "\"Backfilling\":false,\"ProvisionedThroughput\":{\"ReadCapacityUnits\":0,\"WriteCapacityUnits\":0," \
    "\"NumberOfDecreasesToday\":0},\"IndexSizeBytes\":0,\"ItemCount\":0,\"IndexArn\":\"arn:G\"," \
    "\"WarmThroughput\":{\"ReadUnitsPerSecond\":12000,\"WriteUnitsPerSecond\":4000,\"Status\":\"ACTIVE\"}}]," \
    "\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"KEYS_ONLY\"}," \
    "\"LatestStreamLabel\":\"2026-12-06T00:00:00.000\",\"LatestStreamArn\":\"arn:S\"," \
    "\"OnDemandThroughput\":{\"MaxReadRequestUnits\":50},\"WarmThroughput\":{\"ReadUnitsPerSecond\":12000," \
    "\"WriteUnitsPerSecond\":4000,\"Status\":\"ACTIVE\"},\"VectorIndexes\":[{\"IndexName\":\"V\"," \
    "\"SearchSchema\":[{\"AttributeName\":\"g\",\"SearchSchemaElementType\":\"INLINE_FILTER\"}]," \
    "\"Projection\":{\"ProjectionType\":\"ALL\"},\"VectorAttribute\":{\"AttributeName\":\"emb\"}," \
    "\"Dimensions\":3,\"DistanceFunction\":\"COSINE\",\"IndexStatus\":\"ACTIVE\",\"IndexSizeBytes\":0," \
    "\"ItemCount\":0,\"IndexArn\":\"arn:V\"}]}}"

static void description_printed_and_read_back(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    diag d;
    diag_init(&d);
    assert_int_equal(read_text(DDB_DESCRIBE_TABLE, DESC, &res, &d), ST_OK);
    const ddb_table_desc *t = res.tables->table;
    assert_non_null(t);
    assert_true(t->created.has && t->created.v == 1765000000.123);
    assert_true(t->bytes.v == 3000000000.0);
    assert_string_equal(t->billing->mode, "PAY_PER_REQUEST");
    const ddb_index_desc *g = ddbres_table_desc_gsi(t, "G");
    assert_non_null(g);
    assert_true(g->backfilling.has && !g->backfilling.v);
    assert_int_equal(g->proj->nka.n, 2);
    assert_true(t->odt->max_read.has && !t->odt->max_write.has);
    assert_string_equal(t->vixs.v[0].vattr->name, "emb");
    buf out = BUF_INIT;
    ddbres_tables_json(DDB_DESCRIBE_TABLE, &res, &out);
    assert_string_equal(out.data, DESC);

    /* The same description as CreateTable's answer, and its table_def. */
    buf_reset(&out);
    ddbres_tables_json(DDB_CREATE_TABLE, &res, &out);
    assert_memory_equal(out.data, "{\"TableDescription\":{", 21);
    table_def def;
    ddbres_table_desc_def(t, &def);
    assert_string_equal(def.name, "T");
    assert_int_equal(def.pk.type, AV_S);
    assert_null(def.sk.name);
    assert_int_equal(def.n_idx, 1);
    assert_true(def.idx[0].global);
    assert_int_equal(def.idx[0].pk.type, AV_N);
    assert_int_equal(def.idx[0].proj, PROJ_INCLUDE);
    assert_int_equal(def.idx[0].n_include, 2);
    assert_int_equal(def.created, 1765000000);
    assert_int_equal(def.n_vidx, 1);
    assert_int_equal(def.vidx[0].dims, 3);
    table_def_free(&def);
    buf_done(&out);
    ddb_res_done(&res);

    /* A member of the wrong type is refused by name. */
    diag_init(&d);
    assert_int_equal(read_text(DDB_DESCRIBE_TABLE, "{\"Table\":{\"GlobalSecondaryIndexes\":[{\"ItemCount\":\"7\"}]}}",
                               &res, &d), ST_INTERNAL);
    assert_non_null(strstr(d.msg, "ItemCount"));
    ddb_res_done(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(description_printed_and_read_back),
        cmocka_unit_test(list_tables_printed_and_read_back),
        cmocka_unit_test(list_tables_empty),
        cmocka_unit_test(wrong_types_are_refused_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
