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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(list_tables_printed_and_read_back),
        cmocka_unit_test(list_tables_empty),
        cmocka_unit_test(wrong_types_are_refused_by_name),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
