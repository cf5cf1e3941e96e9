/* The table kinds run typed on a local store (store_exec, answers in
 * res.tables, model/ddbres_tables.h): ListTables' pages (API reference,
 * ListTables: names in order, at most Limit of them, from after
 * ExclusiveStartTableName, LastEvaluatedTableName while more follow),
 * and the typed answer printed is what the JSON door answers. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbreq.h"
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(list_tables_typed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
