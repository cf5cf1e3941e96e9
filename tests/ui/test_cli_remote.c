/* cli_take_remote: the remote flags (both forms) leave argv, the rest
 * keeps its order; a flag without its value is -1. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ui/cli.h"

static void test_take(void **state)
{
    (void)state;
    char *argv[] = { "pull", "T", "--endpoint-url", "http://h:1", "--region=eu-west-1",
                     "--as", "L", "--profile", "dev", "--write", NULL };
    int argc = 10, w = 0;
    remote_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cli_take_remote(&argc, argv, &o, &w), 1);
    assert_int_equal(argc, 4);
    assert_string_equal(argv[0], "pull");
    assert_string_equal(argv[1], "T");
    assert_string_equal(argv[2], "--as");
    assert_string_equal(argv[3], "L");
    assert_null(argv[4]);
    assert_string_equal(o.endpoint_url, "http://h:1");
    assert_string_equal(o.region, "eu-west-1");
    assert_string_equal(o.profile, "dev");
    assert_int_equal(w, 1);
}

static void test_none(void **state)
{
    (void)state;
    char *argv[] = { "ddbx", "--db", "x.db", "Table", "--regionx", NULL };
    int argc = 5, w = 0;
    remote_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cli_take_remote(&argc, argv, &o, &w), 0);
    assert_int_equal(argc, 5);
    assert_null(o.endpoint_url);
    assert_null(o.region);
    assert_int_equal(w, 0);
}

static void test_missing_value(void **state)
{
    (void)state;
    char *argv[] = { "ddbx", "--region", NULL };
    int argc = 2;
    remote_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(cli_take_remote(&argc, argv, &o, NULL), -1);
    char *argv2[] = { "ddbx", "--endpoint-url=", NULL };
    argc = 2;
    assert_int_equal(cli_take_remote(&argc, argv2, &o, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_missing_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
