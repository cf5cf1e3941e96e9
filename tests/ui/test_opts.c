/* opts_parse and opts_usage (ui/opts.h): both spellings of each kind of
 * option, joined and separate values, numbers refused out of their
 * bounds with the option's name as the user spelled it, positional
 * arguments kept in order, "--", and --help printing the table with the
 * other spelling beside the ddbx one; repeatable options, refused
 * spellings, opts_main and the nameless (explorer) table. Messages go to stderr; the tests
 * read them back through a temporary file. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/opts.h"

static bool flag, other;
static const char *str;
static long num;
static double secs;

static const opt table[] = {
    OPT_BOOL("flag", &flag, "a switch"),
    OPT_BOOL_ALSO("in-memory", "-inMemory", &other, "a switch with another spelling"),
    OPT_STRING_ALSO("db-path", "-dbPath", "DIR", &str, "a folder"),
    OPT_INTEGER_ALSO("port", "-port", "N", &num, 0, 65535, "a port"),
    OPT_SECONDS("wait", &secs, 0, 100, OPT_ABOVE_LO, "a time"),
    OPT_HELP_ALSO("-help"),
    OPT_END(),
};

static void reset(void)
{
    flag = other = false;
    str = NULL;
    num = 8000;
    secs = 5;
}

/* Runs opts_parse on words (NULL-ended) with stderr caught in err. */
static int run(const opts_cmd *c, char **words, int *argc, char *err, size_t errlen)
{
    int n = 0;
    while (words[n])
        n++;
    *argc = n;
    fflush(stderr);
    int saved = dup(2);
    FILE *tmp = tmpfile();
    assert_non_null(tmp);
    dup2(fileno(tmp), 2);
    int rc = opts_parse(c, argc, words);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(tmp);
    size_t k = fread(err, 1, errlen - 1, tmp);
    err[k] = '\0';
    fclose(tmp);
    return rc;
}

static const opts_cmd cmd = { .name = "t", .usage = "ddbx t [options]", .opts = table,
                              .also_from = "DynamoDB Local" };
static const opts_cmd cmd_pos = { .name = "t", .usage = "ddbx t [options] FILE...", .opts = table,
                                  .positional = true };

static void test_both_spellings(void **state)
{
    (void)state;
    char err[512];
    int argc;
    reset();
    char *a[] = { "t", "--flag", "-inMemory", "-dbPath", "./data", "-port", "9000", "--wait=0.5", NULL };
    assert_int_equal(run(&cmd, a, &argc, err, sizeof err), OPTS_OK);
    assert_int_equal(argc, 1);
    assert_true(flag);
    assert_true(other);
    assert_string_equal(str, "./data");
    assert_int_equal(num, 9000);
    assert_true(secs == 0.5);
    assert_string_equal(err, "");

    reset();
    char *b[] = { "t", "--in-memory", "--db-path=/x", "--port", "0", NULL };
    assert_int_equal(run(&cmd, b, &argc, err, sizeof err), OPTS_OK);
    assert_true(other);
    assert_false(flag);
    assert_string_equal(str, "/x");
    assert_int_equal(num, 0);
    assert_true(secs == 5);   /* not given: the caller's default stays */
}

static void test_refusals(void **state)
{
    (void)state;
    char err[512];
    int argc;
    reset();
    char *a[] = { "t", "-port", "70000", NULL };
    assert_int_equal(run(&cmd, a, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "ddbx t: bad -port: 70000 (a whole number from 0 to 65535)"));
    char *b[] = { "t", "--port", "8o", NULL };
    assert_int_equal(run(&cmd, b, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "bad --port: 8o"));
    char *c[] = { "t", "--port", "1.5", NULL };
    assert_int_equal(run(&cmd, c, &argc, err, sizeof err), OPTS_ERROR);
    char *d[] = { "t", "--wait", "0", NULL };
    assert_int_equal(run(&cmd, d, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "bad --wait: 0 (needs a number of seconds above 0, at most 100)"));
    char *e[] = { "t", "--db-path", NULL };
    assert_int_equal(run(&cmd, e, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "ddbx t: --db-path needs a value (DIR)"));
    char *f[] = { "t", "--flag=1", NULL };
    assert_int_equal(run(&cmd, f, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "--flag takes no value"));
    char *g[] = { "t", "--nope", NULL };
    assert_int_equal(run(&cmd, g, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "ddbx t: unknown option: --nope\nusage: ddbx t [options]"));
    /* A single-dash spelling is only the one the table names. */
    char *h[] = { "t", "-flag", NULL };
    assert_int_equal(run(&cmd, h, &argc, err, sizeof err), OPTS_ERROR);
    /* A prefix of a name is not the name. */
    char *i[] = { "t", "--fla", NULL };
    assert_int_equal(run(&cmd, i, &argc, err, sizeof err), OPTS_ERROR);
    char *j[] = { "t", "file", NULL };
    assert_int_equal(run(&cmd, j, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "unexpected argument: file"));
}

static void test_positional(void **state)
{
    (void)state;
    char err[512];
    int argc;
    reset();
    char *a[] = { "t", "one", "--flag", "two", "--", "--port", "-", NULL };
    assert_int_equal(run(&cmd_pos, a, &argc, err, sizeof err), OPTS_OK);
    assert_int_equal(argc, 5);
    assert_string_equal(a[1], "one");
    assert_string_equal(a[2], "two");
    assert_string_equal(a[3], "--port");
    assert_string_equal(a[4], "-");
    assert_null(a[5]);
    assert_true(flag);
    assert_int_equal(num, 8000);
}

static void test_help(void **state)
{
    (void)state;
    char err[512];
    int argc;
    fflush(stdout);
    int saved = dup(1);
    FILE *tmp = tmpfile();
    dup2(fileno(tmp), 1);
    char *a[] = { "t", "--flag", "-help", "--nope", NULL };
    int rc = run(&cmd, a, &argc, err, sizeof err);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    assert_int_equal(rc, OPTS_HELP);
    char out[2048];
    rewind(tmp);
    size_t k = fread(out, 1, sizeof out - 1, tmp);
    out[k] = '\0';
    fclose(tmp);
    assert_non_null(strstr(out, "usage: ddbx t [options]\n"));
    assert_non_null(strstr(out, "    --port N                   a port\n"
                                "                                 (DynamoDB Local: -port N)\n"));
    assert_non_null(strstr(out, "    --flag                     a switch\n"));
    assert_non_null(strstr(out, "    --help, -h                 this help\n"
                                "                                 (DynamoDB Local: -help)\n"));
}

/* A repeatable option keeps every value in order; a refused spelling
 * says why and is not in --help; opts_main turns the result into an exit
 * status; a table without a name (the explorer) speaks as "ddbx". */
static opts_list many;
static const char *kept;
static const opt more[] = {
    OPT_STRING_LIST("patterns", "FILE", &many, "a file, again and again"),
    OPT_STRING("only", "X", &kept, "one value"),
    OPT_REFUSE("endpoint-url", "--endpoint-url is DynamoDB's, not this command's"),
    OPT_END(),
};

static void test_list_refuse_main(void **state)
{
    (void)state;
    char err[512];
    int argc;
    const opts_cmd c = { .name = "m", .usage = "ddbx m [--patterns FILE]...", .opts = more, .positional = true };
    char *a[] = { "m", "--patterns", "a.json", "T", "--patterns=b.json", "--only", "x", "--patterns", "c.json", NULL };
    assert_int_equal(run(&c, a, &argc, err, sizeof err), OPTS_OK);
    assert_int_equal(many.n, 3);
    assert_string_equal(many.v[0], "a.json");
    assert_string_equal(many.v[1], "b.json");
    assert_string_equal(many.v[2], "c.json");
    assert_int_equal(argc, 2);
    assert_string_equal(a[1], "T");
    opts_list_free(&many);
    assert_null(many.v);
    assert_int_equal(many.n, 0);

    char *b[] = { "m", "--endpoint-url", "http://x", NULL };
    assert_int_equal(run(&c, b, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "ddbx m: --endpoint-url is DynamoDB's, not this command's\nusage: ddbx m"));

    char *d[] = { "m", "--patterns", NULL };
    assert_int_equal(run(&c, d, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "ddbx m: --patterns needs a value (FILE)"));
    opts_list_free(&many);

    const opts_cmd nameless = { .usage = "ddbx [TABLE]", .opts = more };
    char *e[] = { "ddbx", "--nope", NULL };
    assert_int_equal(run(&nameless, e, &argc, err, sizeof err), OPTS_ERROR);
    assert_non_null(strstr(err, "ddbx: unknown option: --nope\nusage: ddbx [TABLE] (ddbx --help lists the options)"));

    /* opts_main: -1 to go on, 2 after a bad option (0 after --help). */
    char *f[] = { "m", "--only", "y", NULL };
    argc = 3;
    assert_int_equal(opts_main(&c, &argc, f), -1);
    assert_string_equal(kept, "y");
    char *g[] = { "m", "--bad", NULL };
    argc = 2;
    fflush(stderr);
    int saved = dup(2);
    FILE *null = fopen("/dev/null", "w");
    dup2(fileno(null), 2);
    int rc = opts_main(&c, &argc, g);
    dup2(saved, 2);
    close(saved);
    fclose(null);
    assert_int_equal(rc, 2);

    /* --help leaves the refused spelling out and marks the repeatable one. */
    FILE *tmp = tmpfile();
    opts_usage(&c, tmp);
    char out[1024];
    rewind(tmp);
    size_t k = fread(out, 1, sizeof out - 1, tmp);
    out[k] = '\0';
    fclose(tmp);
    assert_non_null(strstr(out, "    --patterns FILE...         a file, again and again\n"));
    assert_null(strstr(out, "endpoint-url"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_both_spellings),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_positional),
        cmocka_unit_test(test_help),
        cmocka_unit_test(test_list_refuse_main),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
