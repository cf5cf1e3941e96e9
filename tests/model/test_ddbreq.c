/* ddbreq: the names of a request's enumerated members, both ways, and
 * the reason codes of failed actions (the API reference's enum values:
 * ReturnValue, Select, ReturnConsumedCapacity; CancellationReason.Code
 * and BatchStatementError.Code). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/ddbreq.h"

static void enum_names_read_back(void **state)
{
    (void)state;
    for (ddb_rv rv = DDB_RV_NONE; rv <= DDB_RV_UPDATED_NEW; rv++)
        assert_int_equal(ddb_rv_find(ddb_rv_name(rv)), rv);
    for (ddb_select s = DDB_SELECT_ALL; s <= DDB_SELECT_COUNT; s++)
        assert_int_equal(ddb_select_find(ddb_select_name(s)), s);
    assert_int_equal(ddb_rv_find("UPDATED_NEW"), DDB_RV_UPDATED_NEW);
    assert_int_equal(ddb_select_find("ALL_PROJECTED_ATTRIBUTES"), DDB_SELECT_PROJECTED);
    assert_int_equal(ddb_rcc_find("TOTAL"), DDB_RCC_TOTAL);
    assert_int_equal(ddb_rcc_find("INDEXES"), DDB_RCC_INDEXES);
}

static void absent_or_unknown_names_are_the_default(void **state)
{
    (void)state;
    assert_int_equal(ddb_rv_find(NULL), DDB_RV_NONE);
    assert_int_equal(ddb_rv_find("all_old"), DDB_RV_NONE);
    assert_int_equal(ddb_select_find(NULL), DDB_SELECT_DEFAULT);
    assert_int_equal(ddb_select_find("EVERYTHING"), DDB_SELECT_DEFAULT);
    assert_int_equal(ddb_rcc_find(NULL), DDB_RCC_NONE);
    assert_int_equal(ddb_rcc_find("NONE"), DDB_RCC_NONE);
    assert_int_equal(ddb_rcc_find("total"), DDB_RCC_NONE);
}

static void failed_actions_have_dynamodb_reason_codes(void **state)
{
    (void)state;
    assert_string_equal(ddb_reason_code(ST_OK), "None");
    assert_string_equal(ddb_reason_code(ST_CONDITION_FAILED), "ConditionalCheckFailed");
    assert_string_equal(ddb_reason_code(ST_VALIDATION), "ValidationError");
    assert_string_equal(ddb_reason_code(ST_DUPLICATE_ITEM), "DuplicateItem");
    assert_string_equal(ddb_reason_code(ST_NOT_FOUND), "ResourceNotFound");
    assert_string_equal(ddb_reason_code(ST_TXN_CONFLICT), "TransactionConflict");
    assert_string_equal(ddb_reason_code(ST_IO), "InternalServerError");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(enum_names_read_back),
        cmocka_unit_test(absent_or_unknown_names_are_the_default),
        cmocka_unit_test(failed_actions_have_dynamodb_reason_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
