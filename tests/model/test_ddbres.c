/* ddbres: the response body of each data-plane kind and of
 * ExecuteStatement from a typed result. Members and their shapes are the
 * API reference's (GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan,
 * BatchGetItem, BatchWriteItem, TransactGetItems, TransactWriteItems,
 * ExecuteStatement: "Response Syntax"; SearchVectors: ddbx's, see
 * data/store_vsearch.c); the bytes, member order and number forms are
 * what the JSON door printed before this printer existed (372397a), which
 * tests/serve, tests/awscli and tests/diff compare with the SDKs and
 * dynalite. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbres.h"
#include "model/mem.h"
#include "tests/model/items.h"


/* The body of kind (rcc asked) answering res, compared with want. */
static void expect(const ddb_req *req, const ddb_res *res, const char *want)
{
    buf b = BUF_INIT;
    ddb_res_json(req, res, &b);
    assert_string_equal(b.data, want);
    buf_done(&b);
}

static void cap(ddb_res *res, const char *table, double units)
{
    ddb_cap *c = ddb_res_cap(res, table);
    c->units += units;
    c->table_units += units;
}

static void get_item_found_missing_and_capacity(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_GET);
    ddb_res r;
    ddb_res_init(&r);
    expect(&q, &r, "{}");
    r.item = parse("{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}}");
    r.found = true;
    expect(&q, &r, "{\"Item\":{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}}}");
    q.rcc = DDB_RCC_TOTAL;
    cap(&r, "T", 0.5);
    expect(&q, &r, "{\"Item\":{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}},"
                   "\"ConsumedCapacity\":{\"CapacityUnits\":0.5,\"TableName\":\"T\"}}");
    r.found = false;
    expect(&q, &r, "{\"ConsumedCapacity\":{\"CapacityUnits\":0.5,\"TableName\":\"T\"}}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

/* A door that writes the item's JSON itself gets the same bytes. */
static void get_item_in_steps(void **state)
{
    (void)state;
    ddb_res r;
    ddb_res_init(&r);
    cap(&r, "T", 1);
    buf b = BUF_INIT;
    size_t mark = ddbres_get_open(&b);
    buf_adds(&b, "{\"pk\":{\"S\":\"a\"}}");
    ddbres_get_close(&b, mark, DDB_RCC_TOTAL, &r);
    assert_string_equal(b.data, "{\"Item\":{\"pk\":{\"S\":\"a\"}},\"ConsumedCapacity\":{\"CapacityUnits\":1,"
                                "\"TableName\":\"T\"}}");
    buf_reset(&b);
    mark = ddbres_get_open(&b);
    ddbres_get_close(&b, mark, DDB_RCC_NONE, &r);
    assert_string_equal(b.data, "{}");
    buf_done(&b);
    ddb_res_done(&r);
}

static void writes_attributes_capacity_and_collection_metrics(void **state)
{
    (void)state;
    ddb_kind kinds[] = { DDB_PUT, DDB_UPDATE, DDB_DELETE };
    for (size_t k = 0; k < 3; k++) {
        ddb_req q;
        ddb_req_init(&q, kinds[k]);
        ddb_res r;
        ddb_res_init(&r);
        expect(&q, &r, "{}");
        r.item = parse("{\"pk\":{\"S\":\"a\"}}");
        expect(&q, &r, "{\"Attributes\":{\"pk\":{\"S\":\"a\"}}}");
        q.rcc = DDB_RCC_INDEXES;
        ddb_cap *c = ddb_res_cap(&r, "T");
        c->units = 3;
        c->table_units = 1;
        c->idx = xcalloc(2, sizeof *c->idx);
        c->idx[0] = (ddb_cap_index){ xstrdup("L"), false, 1 };
        c->idx[1] = (ddb_cap_index){ xstrdup("G"), true, 1 };
        c->n_idx = 2;
        av key = parse("{\"pk\":{\"S\":\"a\"}}");
        ddb_res_icm(&r, "T", &key)->bytes = 100;
        av_done(&key);
        expect(&q, &r, "{\"Attributes\":{\"pk\":{\"S\":\"a\"}},\"ConsumedCapacity\":{\"CapacityUnits\":3,"
                       "\"TableName\":\"T\",\"Table\":{\"CapacityUnits\":1},\"LocalSecondaryIndexes\":"
                       "{\"L\":{\"CapacityUnits\":1}},\"GlobalSecondaryIndexes\":{\"G\":{\"CapacityUnits\":1}}},"
                       "\"ItemCollectionMetrics\":{\"ItemCollectionKey\":{\"pk\":{\"S\":\"a\"}},"
                       "\"SizeEstimateRangeGB\":[0.0,1.0]}}");
        ddb_res_done(&r);
        ddb_req_done(&q);
    }
}

static void query_and_scan_items_count_and_last_key(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_QUERY);
    ddb_res r;
    ddb_res_init(&r);
    expect(&q, &r, "{\"Items\":[],\"Count\":0,\"ScannedCount\":0}");
    av a = parse("{\"pk\":{\"S\":\"a\"}}"), b = parse("{\"pk\":{\"S\":\"b\"}}");
    ddb_res_push_item(&r, &a);
    ddb_res_push_item(&r, &b);
    r.count = 2;
    r.scanned = 5;
    r.last_key = parse("{\"pk\":{\"S\":\"b\"}}");
    q.rcc = DDB_RCC_TOTAL;
    cap(&r, "T", 0.5);
    expect(&q, &r, "{\"Items\":[{\"pk\":{\"S\":\"a\"}},{\"pk\":{\"S\":\"b\"}}],\"Count\":2,\"ScannedCount\":5,"
                   "\"LastEvaluatedKey\":{\"pk\":{\"S\":\"b\"}},\"ConsumedCapacity\":{\"CapacityUnits\":0.5,"
                   "\"TableName\":\"T\"}}");
    q.kind = DDB_SCAN;
    q.select = DDB_SELECT_COUNT;
    q.rcc = DDB_RCC_NONE;
    expect(&q, &r, "{\"Count\":2,\"ScannedCount\":5,\"LastEvaluatedKey\":{\"pk\":{\"S\":\"b\"}}}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

static void batch_get_responses_in_the_request_order_and_unprocessed_keys(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_BATCH_GET);
    ddb_req_set_str(&ddb_req_add(&q, DDB_GET)->table, "B");
    ddb_req_set_str(&ddb_req_add(&q, DDB_GET)->table, "A");
    ddb_res r;
    ddb_res_init(&r);
    av_init_list(&r.responses, AV_M);
    av list;
    av_init_list(&list, AV_L);
    av it = parse("{\"k\":{\"S\":\"1\"}}");
    av_list_push(&list, &it);
    av_map_put(&r.responses, "A", 1, &list);
    expect(&q, &r, "{\"Responses\":{\"B\":[],\"A\":[{\"k\":{\"S\":\"1\"}}]},\"UnprocessedKeys\":{}}");
    ddb_req_init(&r.unprocessed, DDB_BATCH_GET);
    ddb_req *g = ddb_req_add(&r.unprocessed, DDB_GET);
    ddb_req_set_str(&g->table, "B");
    av_init_list(&g->keys, AV_L);
    av key = parse("{\"k\":{\"S\":\"2\"}}");
    av_list_push(&g->keys, &key);
    q.rcc = DDB_RCC_TOTAL;
    cap(&r, "A", 0.5);
    expect(&q, &r, "{\"Responses\":{\"B\":[],\"A\":[{\"k\":{\"S\":\"1\"}}]},\"UnprocessedKeys\":"
                   "{\"B\":{\"Keys\":[{\"k\":{\"S\":\"2\"}}]}},\"ConsumedCapacity\":[{\"CapacityUnits\":0.5,"
                   "\"TableName\":\"A\"}]}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

static void batch_write_unprocessed_items_capacity_and_metrics(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_BATCH_WRITE);
    ddb_res r;
    ddb_res_init(&r);
    expect(&q, &r, "{\"UnprocessedItems\":{}}");
    q.rcc = DDB_RCC_TOTAL;
    expect(&q, &r, "{\"UnprocessedItems\":{},\"ConsumedCapacity\":[]}");
    cap(&r, "A", 1);
    cap(&r, "B", 2);
    av k1 = parse("{\"p\":{\"S\":\"x\"}}"), k2 = parse("{\"p\":{\"S\":\"y\"}}");
    ddb_res_icm(&r, "A", &k1)->bytes = 10;
    ddb_res_icm(&r, "B", &k2)->bytes = (uint64_t)3 << 30;
    ddb_res_icm(&r, "A", &k2)->bytes = 10;
    av_done(&k1);
    av_done(&k2);
    expect(&q, &r, "{\"UnprocessedItems\":{},\"ConsumedCapacity\":[{\"CapacityUnits\":1,\"TableName\":\"A\"},"
                   "{\"CapacityUnits\":2,\"TableName\":\"B\"}],\"ItemCollectionMetrics\":{\"A\":["
                   "{\"ItemCollectionKey\":{\"p\":{\"S\":\"x\"}},\"SizeEstimateRangeGB\":[0.0,1.0]},"
                   "{\"ItemCollectionKey\":{\"p\":{\"S\":\"y\"}},\"SizeEstimateRangeGB\":[0.0,1.0]}],"
                   "\"B\":[{\"ItemCollectionKey\":{\"p\":{\"S\":\"y\"}},\"SizeEstimateRangeGB\":[3.0,4.0]}]}}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

static void transactions(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_TRANSACT_GET);
    ddb_res r;
    ddb_res_init(&r);
    av a = parse("{\"k\":{\"S\":\"1\"}}"), none = { .type = AV_NONE };
    ddb_res_push_item(&r, &a);
    ddb_res_push_item(&r, &none);
    expect(&q, &r, "{\"Responses\":[{\"Item\":{\"k\":{\"S\":\"1\"}}},{}]}");
    q.rcc = DDB_RCC_TOTAL;
    cap(&r, "T", 4);
    expect(&q, &r, "{\"Responses\":[{\"Item\":{\"k\":{\"S\":\"1\"}}},{}],\"ConsumedCapacity\":"
                   "[{\"CapacityUnits\":4,\"TableName\":\"T\"}]}");
    q.kind = DDB_TRANSACT_WRITE;
    expect(&q, &r, "{\"ConsumedCapacity\":[{\"CapacityUnits\":4,\"TableName\":\"T\"}]}");
    q.kind = DDB_CHECK;   /* a lone ConditionCheck runs as a transaction of one */
    q.rcc = DDB_RCC_NONE;
    expect(&q, &r, "{}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

static void search_vectors_results_scores_and_vector_capacity(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_SEARCH_VECTORS);
    ddb_res r;
    ddb_res_init(&r);
    expect(&q, &r, "{\"SearchResults\":[]}");
    av a = parse("{\"k\":{\"S\":\"1\"}}"), b = parse("{\"k\":{\"S\":\"2\"}}");
    ddb_res_push_scored(&r, &a, 0.25);
    ddb_res_push_scored(&r, &b, 0.1f);
    r.has_vbytes = true;
    r.vbytes = 4096;
    expect(&q, &r, "{\"SearchResults\":[{\"Item\":{\"k\":{\"S\":\"1\"}},\"Score\":0.25},"
                   "{\"Item\":{\"k\":{\"S\":\"2\"}},\"Score\":0.1}],"
                   "\"ConsumedCapacity\":{\"VectorSearchRequestBytes\":4096}}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

static void execute_statement_items_next_token_last_key(void **state)
{
    (void)state;
    ddb_req q;
    ddb_req_init(&q, DDB_EXECUTE);
    ddb_res r;
    ddb_res_init(&r);
    expect(&q, &r, "{\"Items\":[]}");
    q.rcc = DDB_RCC_TOTAL;
    expect(&q, &r, "{\"Items\":[]}");   /* no table read: no ConsumedCapacity */
    av a = parse("{\"k\":{\"S\":\"1\"}}");
    ddb_res_push_item(&r, &a);
    r.next_token = xstrdup("eyJwIjowfQ==");
    r.last_key = parse("{\"k\":{\"S\":\"1\"}}");
    cap(&r, "T", 0.5);
    expect(&q, &r, "{\"Items\":[{\"k\":{\"S\":\"1\"}}],\"NextToken\":\"eyJwIjowfQ==\",\"LastEvaluatedKey\":"
                   "{\"k\":{\"S\":\"1\"}},\"ConsumedCapacity\":{\"CapacityUnits\":0.5,\"TableName\":\"T\"}}");
    ddb_res_done(&r);
    ddb_req_done(&q);
}

/* The members beside an error's message: the failed condition's item
 * (ReturnValuesOnConditionCheckFailure ALL_OLD), or a
 * TransactionCanceledException's CancellationReasons (API reference,
 * TransactWriteItems, "Errors"). */
static void error_members(void **state)
{
    (void)state;
    ddb_err e;
    ddb_err_init(&e);
    buf b = BUF_INIT;
    assert_false(ddb_err_has_members(&e));
    ddb_err_json(&e, &b);
    assert_int_equal(b.len, 0);
    e.item = parse("{\"k\":{\"S\":\"1\"}}");
    ddb_err_json(&e, &b);
    assert_string_equal(b.data, "{\"Item\":{\"k\":{\"S\":\"1\"}}}");
    av_done(&e.item);
    ddb_err_add_reason(&e, "None", NULL);
    ddb_reason *r = ddb_err_add_reason(&e, "ConditionalCheckFailed", "The conditional request failed");
    r->item = parse("{\"k\":{\"S\":\"2\"}}");
    buf_reset(&b);
    assert_true(ddb_err_has_members(&e));
    ddb_err_json(&e, &b);
    assert_string_equal(b.data, "{\"CancellationReasons\":[{\"Code\":\"None\"},{\"Code\":"
                                "\"ConditionalCheckFailed\",\"Message\":\"The conditional request failed\","
                                "\"Item\":{\"k\":{\"S\":\"2\"}}}]}");
    buf_done(&b);
    ddb_err_done(&e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(get_item_found_missing_and_capacity),
        cmocka_unit_test(get_item_in_steps),
        cmocka_unit_test(writes_attributes_capacity_and_collection_metrics),
        cmocka_unit_test(query_and_scan_items_count_and_last_key),
        cmocka_unit_test(batch_get_responses_in_the_request_order_and_unprocessed_keys),
        cmocka_unit_test(batch_write_unprocessed_items_capacity_and_metrics),
        cmocka_unit_test(transactions),
        cmocka_unit_test(search_vectors_results_scores_and_vector_capacity),
        cmocka_unit_test(execute_statement_items_next_token_last_key),
        cmocka_unit_test(error_members),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
