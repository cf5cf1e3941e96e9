/* The store's typed calls (store_exec over model/ddbreq.h): every kind of
 * request the explorer sends, with conditions, ReturnValues, the current
 * item of a failed condition, paging by LastEvaluatedKey, and a cancelled
 * transaction's reasons. Expectations are DynamoDB's documented behaviour
 * (API reference: PutItem, GetItem, UpdateItem, DeleteItem, Query,
 * TransactWriteItems, BatchWriteItem), the same the JSON suites pin through
 * `ddbx api`; the typed and JSON paths must agree (last test). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"

#include "tests/data/tmpstore.h"

static void call(store *s, const char *op, const char *json)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, op, json, strlen(json), &out, &d);
    if (st != ST_OK)
        fail_msg("%s: %s", op, d.msg);
    free(out);
}

static void make_table(store *s)
{
    call(s, "CreateTable",
         "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\","
         "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},"
         "{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}],"
         "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
         "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]}");
}

/* An item or key from DynamoDB JSON (test data only). */
static void item(av *out, const char *json)
{
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), out, &d) != ST_OK)
        fail_msg("%s: %s", json, d.msg);
}

static status exec(store *s, ddb_req *r, ddb_res *res, ddb_err *err)
{
    ddb_res_init(res);
    ddb_err_init(err);
    return store_exec(s, r, res, err);
}

static void put_get_condition(void **state)
{
    store *s = *state;
    make_table(s);
    ddb_req r;
    ddb_res res;
    ddb_err err;

    ddb_req_init(&r, DDB_PUT);
    ddb_req_set_str(&r.table, "Tab");
    item(&r.item, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"n\":{\"N\":\"5\"}}");
    ddb_req_set_str(&r.cond, "attribute_not_exists(pk)");
    r.rcc = DDB_RCC_TOTAL;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    /* PutItem of a 1 KB-or-less item: 1 write unit. */
    assert_int_equal(res.n_caps, 1);
    assert_true(res.caps[0].units == 1.0);
    ddb_res_done(&res);

    /* Again: refused, and ALL_OLD gives the item as it is. */
    r.rv_fail_all_old = true;
    assert_int_equal(exec(s, &r, &res, &err), ST_CONDITION_FAILED);
    assert_string_equal(ddb_err_type(&err), "ConditionalCheckFailedException");
    assert_string_equal(ddb_err_message(&err), "The conditional request failed");
    assert_int_equal(err.item.type, AV_M);
    assert_non_null(av_map_get(&err.item, "n", 1));
    ddb_err_done(&err);
    ddb_res_done(&res);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_GET);
    ddb_req_set_str(&r.table, "Tab");
    item(&r.key, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}");
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_true(res.found);
    assert_int_equal(res.item.type, AV_M);
    assert_int_equal(res.item.u.m.len, 3);
    ddb_res_done(&res);
    /* A missing item: found false, no Item. */
    av_done(&r.key);
    item(&r.key, "{\"pk\":{\"S\":\"zz\"},\"sk\":{\"S\":\"1\"}}");
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_false(res.found);
    ddb_res_done(&res);
    ddb_req_done(&r);
}

static void update_return_values(void **state)
{
    store *s = *state;
    make_table(s);
    ddb_req r;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&r, DDB_UPDATE);
    ddb_req_set_str(&r.table, "Tab");
    item(&r.key, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}");
    ddb_req_set_str(&r.update, "ADD #c :one");
    av_init_list(&r.names, AV_M);
    av nm;
    av_init_s(&nm, "count", 5);
    av_map_put(&r.names, "#c", 2, &nm);
    item(&r.values, "{\":one\":{\"N\":\"1\"}}");
    r.rv = DDB_RV_UPDATED_NEW;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    ddb_res_done(&res);
    /* The second ADD counts from the first. */
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    const av *c = av_map_get(&res.item, "count", 5);
    assert_non_null(c);
    assert_int_equal(c->type, AV_N);
    buf b = BUF_INIT;
    ddbjson_write_value(&b, c);
    assert_string_equal(b.data, "{\"N\":\"2\"}");
    buf_done(&b);
    /* UPDATED_NEW returns only the updated attributes. */
    assert_int_equal(res.item.u.m.len, 1);
    ddb_res_done(&res);
    ddb_req_done(&r);
}

static void query_pages(void **state)
{
    store *s = *state;
    make_table(s);
    for (int i = 0; i < 5; i++) {
        char j[128];
        snprintf(j, sizeof j, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"p\"},\"sk\":{\"S\":\"%d\"}}}", i);
        call(s, "PutItem", j);
    }
    ddb_req r;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&r, DDB_QUERY);
    ddb_req_set_str(&r.table, "Tab");
    ddb_req_set_str(&r.keycond, "pk = :p");
    item(&r.values, "{\":p\":{\"S\":\"p\"}}");
    r.limit = 2;
    size_t seen = 0;
    for (int page = 0; page < 4; page++) {
        assert_int_equal(exec(s, &r, &res, &err), ST_OK);
        seen += res.n_items;
        assert_int_equal(res.count, res.n_items);
        av_done(&r.start);
        if (res.last_key.type != AV_M) {
            ddb_res_done(&res);
            break;
        }
        /* LastEvaluatedKey is the table's key: pk and sk. */
        assert_int_equal(res.last_key.u.m.len, 2);
        av_move(&r.start, &res.last_key);
        ddb_res_done(&res);
    }
    assert_int_equal(seen, 5);
    ddb_req_done(&r);
}

static void transaction_cancelled(void **state)
{
    store *s = *state;
    make_table(s);
    call(s, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"x\"},\"sk\":{\"S\":\"1\"},\"v\":{\"S\":\"old\"}}}");
    ddb_req t;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&t, DDB_TRANSACT_WRITE);
    ddb_req *a = ddb_req_add(&t, DDB_PUT);
    ddb_req_set_str(&a->table, "Tab");
    item(&a->item, "{\"pk\":{\"S\":\"y\"},\"sk\":{\"S\":\"1\"}}");
    a = ddb_req_add(&t, DDB_CHECK);
    ddb_req_set_str(&a->table, "Tab");
    item(&a->key, "{\"pk\":{\"S\":\"x\"},\"sk\":{\"S\":\"1\"}}");
    ddb_req_set_str(&a->cond, "attribute_not_exists(pk)");
    a->rv_fail_all_old = true;
    assert_int_equal(exec(s, &t, &res, &err), ST_TXN_CANCELED);
    /* One reason an action, in order: None, then the failed check with
     * the item as it is. */
    assert_int_equal(err.n_reasons, 2);
    assert_string_equal(err.reasons[0].code, "None");
    assert_string_equal(err.reasons[1].code, "ConditionalCheckFailed");
    assert_int_equal(err.reasons[1].item.type, AV_M);
    ddb_err_done(&err);
    ddb_res_done(&res);
    ddb_req_done(&t);

    /* Nothing of it was applied. */
    ddb_req g;
    ddb_req_init(&g, DDB_GET);
    ddb_req_set_str(&g.table, "Tab");
    item(&g.key, "{\"pk\":{\"S\":\"y\"},\"sk\":{\"S\":\"1\"}}");
    assert_int_equal(exec(s, &g, &res, &err), ST_OK);
    assert_false(res.found);
    ddb_res_done(&res);
    ddb_req_done(&g);
}

static void batch_write_and_get(void **state)
{
    store *s = *state;
    make_table(s);
    ddb_req b;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&b, DDB_BATCH_WRITE);
    for (int i = 0; i < 3; i++) {
        ddb_req *a = ddb_req_add(&b, DDB_PUT);
        ddb_req_set_str(&a->table, "Tab");
        char j[96];
        snprintf(j, sizeof j, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"%d\"}}", i);
        item(&a->item, j);
    }
    assert_int_equal(exec(s, &b, &res, &err), ST_OK);
    assert_int_equal(res.unprocessed.n_acts, 0);
    ddb_res_done(&res);
    ddb_req_done(&b);

    ddb_req_init(&b, DDB_BATCH_GET);
    ddb_req *g = ddb_req_add(&b, DDB_GET);
    ddb_req_set_str(&g->table, "Tab");
    av_init_list(&g->keys, AV_L);
    for (int i = 0; i < 3; i++) {
        av k;
        char j[96];
        snprintf(j, sizeof j, "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"%d\"}}", i);
        item(&k, j);
        av_list_push(&g->keys, &k);
    }
    assert_int_equal(exec(s, &b, &res, &err), ST_OK);
    const av *got = av_map_get(&res.responses, "Tab", 3);
    assert_non_null(got);
    assert_int_equal(got->u.l.len, 3);
    ddb_res_done(&res);
    ddb_req_done(&b);
}

static void validation_error_says_where(void **state)
{
    store *s = *state;
    make_table(s);
    ddb_req r;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&r, DDB_PUT);
    ddb_req_set_str(&r.table, "Tab");
    item(&r.item, "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}");
    ddb_req_set_str(&r.cond, "attribute_not_exists(pk) AND");
    assert_int_equal(exec(s, &r, &res, &err), ST_VALIDATION);
    /* DynamoDB: "Invalid ConditionExpression: Syntax error; token: <EOF>, near: "AND"" */
    assert_non_null(strstr(ddb_err_message(&err), "Invalid ConditionExpression: Syntax error"));
    ddb_err_done(&err);
    ddb_res_done(&res);
    ddb_req_done(&r);
}

/* Keys the JSON text path cannot carry whole (U+0000 inside a string) or
 * that a hand-built JSON text would break (quotes, backslashes, control
 * characters) go through the typed calls byte for byte: DynamoDB stores
 * any UTF-8 string, U+0000 included (API reference, AttributeValue S). */
static void hostile_keys_byte_for_byte(void **state)
{
    store *s = *state;
    make_table(s);
    static const char pk[] = "a\0b\"c\\d\x01" "e\x1b[31m";
    const size_t pk_len = sizeof pk - 1;
    ddb_req r;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&r, DDB_PUT);
    ddb_req_set_str(&r.table, "Tab");
    av_init_list(&r.item, AV_M);
    av v;
    av_init_s(&v, pk, pk_len);
    av_map_put(&r.item, "pk", 2, &v);
    av_init_s(&v, "AAA=", 4);   /* text that looks like base64 stays text */
    av_map_put(&r.item, "sk", 2, &v);
    ddb_req_set_str(&r.cond, "attribute_not_exists(pk)");
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    ddb_res_done(&res);

    /* Read back under the same key: every byte is there. */
    ddb_req g;
    ddb_req_init(&g, DDB_GET);
    ddb_req_set_str(&g.table, "Tab");
    av_copy(&g.key, &r.item);
    assert_int_equal(exec(s, &g, &res, &err), ST_OK);
    assert_true(res.found);
    const av *got = av_map_get(&res.item, "pk", 2);
    assert_non_null(got);
    assert_int_equal(got->u.s.len, pk_len);
    assert_memory_equal(got->u.s.ptr, pk, pk_len);
    ddb_res_done(&res);

    /* A key cut at the NUL names another item: absent. */
    ddb_req cut;
    ddb_req_copy(&cut, &g);
    av_init_s(&v, "a", 1);
    av_map_put(&cut.key, "pk", 2, &v);
    assert_int_equal(exec(s, &cut, &res, &err), ST_OK);
    assert_false(res.found);
    ddb_res_done(&res);
    ddb_req_done(&cut);

    /* Deleted with a condition on the whole key, ALL_OLD returned. */
    ddb_req del;
    ddb_req_init(&del, DDB_DELETE);
    ddb_req_set_str(&del.table, "Tab");
    av_copy(&del.key, &r.item);
    ddb_req_set_str(&del.cond, "pk = :k");
    av_init_list(&del.values, AV_M);
    av_init_s(&v, pk, pk_len);
    av_map_put(&del.values, ":k", 2, &v);
    del.rv = DDB_RV_ALL_OLD;
    assert_int_equal(exec(s, &del, &res, &err), ST_OK);
    assert_int_equal(res.item.type, AV_M);
    ddb_res_done(&res);
    assert_int_equal(exec(s, &g, &res, &err), ST_OK);
    assert_false(res.found);
    ddb_res_done(&res);
    ddb_req_done(&del);
    ddb_req_done(&g);
    ddb_req_done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(put_get_condition, setup, teardown),
        cmocka_unit_test_setup_teardown(update_return_values, setup, teardown),
        cmocka_unit_test_setup_teardown(query_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(transaction_cancelled, setup, teardown),
        cmocka_unit_test_setup_teardown(batch_write_and_get, setup, teardown),
        cmocka_unit_test_setup_teardown(validation_error_says_where, setup, teardown),
        cmocka_unit_test_setup_teardown(hostile_keys_byte_for_byte, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
