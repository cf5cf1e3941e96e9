/* The remote flags as a table fragment (ui/cli.h's CLI_OPTS_REMOTE in an
 * opts table, the explorer's --write beside them): both forms are taken,
 * the rest keeps its order; a flag without its value is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "ui/cli.h"

/* The explorer's flags and pull's --as: opts_parse's result, *o and *w
 * filled. */
static int take(int *argc, char **argv, remote_opts *o, bool *w, const char **str)
{
    const opt table[] = {
        CLI_OPTS_REMOTE(o),
        OPT_BOOL("write", w, "writes"),
        OPT_STRING("as", "NAME", str, "a name"),
        OPT_STRING("db", "FILE", str, "a file (the same slot: one of them a test)"),
        OPT_END(),
    };
    const opts_cmd cmd = { .name = "t", .usage = "ddbx t", .opts = table, .positional = true };
    return opts_parse(&cmd, argc, argv);
}

static void test_take(void **state)
{
    (void)state;
    char *argv[] = { "pull", "T", "--endpoint-url", "http://h:1", "--region=eu-west-1",
                     "--as", "L", "--profile", "dev", "--write", NULL };
    int argc = 10;
    bool w = false;
    const char *as = NULL;
    remote_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(take(&argc, argv, &o, &w, &as), OPTS_OK);
    assert_int_equal(cli_where("pull", NULL, &o), 1);
    assert_int_equal(argc, 2);
    assert_string_equal(argv[0], "pull");
    assert_string_equal(argv[1], "T");
    assert_string_equal(as, "L");
    assert_null(argv[2]);
    assert_string_equal(o.endpoint_url, "http://h:1");
    assert_string_equal(o.region, "eu-west-1");
    assert_string_equal(o.profile, "dev");
    assert_true(w);
}

static void test_none(void **state)
{
    (void)state;
    char *argv[] = { "ddbx", "--db", "x.db", "Table", NULL };
    int argc = 4;
    bool w = false;
    const char *db = NULL;
    remote_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(take(&argc, argv, &o, &w, &db), OPTS_OK);
    assert_int_equal(cli_where("t", db, &o), 0);
    assert_int_equal(argc, 2);
    assert_string_equal(argv[1], "Table");
    assert_null(o.endpoint_url);
    assert_null(o.region);
    assert_false(w);
    /* A longer word is not --region. */
    char *argv2[] = { "ddbx", "--regionx", NULL };
    argc = 2;
    assert_int_equal(take(&argc, argv2, &o, &w, &db), OPTS_ERROR);
    assert_null(o.region);
}

static void test_missing_value(void **state)
{
    (void)state;
    char *argv[] = { "ddbx", "--region", NULL };
    int argc = 2;
    bool w = false;
    const char *as = NULL;
    remote_opts o;
    memset(&o, 0, sizeof o);
    assert_int_equal(take(&argc, argv, &o, &w, &as), OPTS_ERROR);
    char *argv2[] = { "ddbx", "--endpoint-url=", NULL };
    argc = 2;
    assert_int_equal(take(&argc, argv2, &o, &w, &as), OPTS_ERROR);
}

/* --db with a remote flag: refused, naming both. */
static void test_db_and_remote(void **state)
{
    (void)state;
    remote_opts o = { .region = "eu-west-1" };
    assert_int_equal(cli_where("model", "x.db", &o), -1);
    assert_int_equal(cli_where("model", NULL, &o), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_take),
        cmocka_unit_test(test_none),
        cmocka_unit_test(test_missing_value),
        cmocka_unit_test(test_db_and_remote),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
