/* status: DynamoDB error type names and the diagnostic record. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/status.h"

static void names_are_dynamodb_types(void **state)
{
    (void)state;
    assert_string_equal(status_name(ST_VALIDATION), "ValidationException");
    assert_string_equal(status_name(ST_CONDITION_FAILED), "ConditionalCheckFailedException");
    assert_string_equal(status_name(ST_NOT_FOUND), "ResourceNotFoundException");
    assert_string_equal(status_name(ST_IN_USE), "ResourceInUseException");
    assert_string_equal(status_name(ST_TXN_CANCELED), "TransactionCanceledException");
    assert_string_equal(status_name((status)999), "InternalServerError");
}

static void diag_keeps_position(void **state)
{
    (void)state;
    diag d;
    diag_init(&d);
    assert_int_equal(d.pos, -1);
    assert_int_equal(diag_at(&d, ST_VALIDATION, 7, "bad token %s", "AND"), ST_VALIDATION);
    assert_int_equal(d.code, ST_VALIDATION);
    assert_int_equal(d.pos, 7);
    assert_string_equal(d.msg, "bad token AND");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(names_are_dynamodb_types),
        cmocka_unit_test(diag_keeps_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
