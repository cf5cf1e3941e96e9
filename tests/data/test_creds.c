/* creds: the credential chain's parsing and precedence without a network:
 * command splitting for credential_process, the INI files as botocore
 * reads them (comments, nested sub-values, "[profile   x]" spacing, the
 * last duplicate key winning), where each key comes from, and error
 * messages that name places but never a secret. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/creds.h"

static char home[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", home, rel);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static int setup(void **state)
{
    (void)state;
    strcpy(home, "/tmp/ddbx-creds-XXXXXX");
    assert_non_null(mkdtemp(home));
    char p[128];
    snprintf(p, sizeof p, "%s/.aws", home);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", p);
    assert_int_equal(system(cmd), 0);
    setenv("HOME", home, 1);
    static const char *const vars[] = {
        "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE",
        "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE",
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", home);
    return system(cmd) == 0 ? 0 : -1;
}

static void test_split(void **state)
{
    (void)state;
    char **a = creds_split_command("  /bin/helper 'a b'  \"c\\\"d\" e\\ f g''h \"\\x\"");
    assert_non_null(a);
    assert_string_equal(a[0], "/bin/helper");
    assert_string_equal(a[1], "a b");
    assert_string_equal(a[2], "c\"d");
    assert_string_equal(a[3], "e f");
    assert_string_equal(a[4], "gh");
    assert_string_equal(a[5], "\\x");   /* in double quotes \x stays as is */
    assert_null(a[6]);
    creds_argv_free(a);
    assert_null(creds_split_command("helper 'unterminated"));
    assert_null(creds_split_command("helper \"unterminated"));
    assert_null(creds_split_command("   "));
    assert_null(creds_split_command("trailing\\"));
}

static void test_env_first(void **state)
{
    (void)state;
    put(".aws/credentials", "[default]\naws_access_key_id = AKFILE\naws_secret_access_key = filesecret\n");
    setenv("AWS_ACCESS_KEY_ID", "AKENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
    setenv("AWS_SESSION_TOKEN", "envtoken", 1);
    creds c;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_resolve(NULL, &c, &d), ST_OK);
    assert_string_equal(c.access_key, "AKENV");
    assert_string_equal(c.secret_key, "envsecret");
    assert_string_equal(c.session_token, "envtoken");
    assert_non_null(strstr(c.source, "environment"));
    creds_done(&c);
    /* an explicit profile negates the environment's keys */
    assert_int_equal(creds_resolve("default", &c, &d), ST_OK);
    assert_string_equal(c.access_key, "AKFILE");
    assert_null(c.session_token);
    assert_non_null(strstr(c.source, "/.aws/credentials [default]"));
    creds_done(&c);
    unsetenv("AWS_SECRET_ACCESS_KEY");
    assert_int_equal(creds_resolve(NULL, &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"));
    unsetenv("AWS_ACCESS_KEY_ID");
    unsetenv("AWS_SESSION_TOKEN");
}

static void test_ini(void **state)
{
    (void)state;
    put(".aws/credentials",
        "; comment\n"
        "[other]\naws_access_key_id = AKOTHER\naws_secret_access_key = othersecret\n"
        "[dev]\n"
        "aws_access_key_id = AKOLD\n"
        "s3 =\n  aws_access_key_id = AKNESTED\n"
        "aws_access_key_id=AKDEV\n"             /* the last one wins */
        "aws_secret_access_key =  devsecret  \n"
        "# aws_session_token = commented\n");
    put(".aws/config",
        "[profile   dev]\nregion = ap-northeast-2\n"
        "[profile half]\naws_access_key_id = AKHALF\n"
        "[default]\nregion = eu-west-1\n");
    setenv("AWS_PROFILE", "dev", 1);
    creds c;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_resolve(NULL, &c, &d), ST_OK);
    assert_string_equal(c.access_key, "AKDEV");
    assert_string_equal(c.secret_key, "devsecret");
    assert_null(c.session_token);
    creds_done(&c);
    char *region = NULL;
    assert_int_equal(creds_region(NULL, &region, &d), ST_OK);
    assert_string_equal(region, "ap-northeast-2");
    free(region);
    setenv("AWS_DEFAULT_REGION", "ca-central-1", 1);
    assert_int_equal(creds_region(NULL, &region, &d), ST_OK);
    assert_string_equal(region, "ca-central-1");
    free(region);
    setenv("AWS_REGION", "sa-east-1", 1);
    assert_int_equal(creds_region(NULL, &region, &d), ST_OK);
    assert_string_equal(region, "sa-east-1");
    free(region);
    unsetenv("AWS_REGION");
    unsetenv("AWS_DEFAULT_REGION");
    unsetenv("AWS_PROFILE");
    assert_int_equal(creds_region(NULL, &region, &d), ST_OK);
    assert_string_equal(region, "eu-west-1");   /* [default] in the config file */
    free(region);
    assert_int_equal(creds_region("nosuch", &region, &d), ST_OK);
    assert_null(region);

    /* a half-configured profile: named, and no secret in the message */
    assert_int_equal(creds_resolve("half", &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "has aws_access_key_id but not aws_secret_access_key"));
    assert_null(strstr(d.msg, "secret_access_key ="));
}

static void test_not_found(void **state)
{
    (void)state;
    put(".aws/credentials", "[dev]\naws_access_key_id = AKDEV\naws_secret_access_key = devsecret\n");
    put(".aws/config", "");
    creds c;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_resolve("prod", &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "no AWS credentials for profile 'prod'"));
    assert_non_null(strstr(d.msg, "/.aws/credentials [prod]"));
    assert_non_null(strstr(d.msg, "/.aws/config [profile prod]"));
    /* explicit profile: the environment was not looked at, so not named */
    assert_null(strstr(d.msg, "the environment"));
    assert_null(strstr(d.msg, "devsecret"));
    assert_null(c.access_key);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/creds", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
    assert_int_equal(creds_resolve(NULL, &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "the environment (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), "
                                  "/nonexistent/creds [default], and /nonexistent/config "
                                  "[profile default]"));
    unsetenv("AWS_SHARED_CREDENTIALS_FILE");
    unsetenv("AWS_CONFIG_FILE");
}

static void test_process(void **state)
{
    (void)state;
    char cfg[1024];
    snprintf(cfg, sizeof cfg,
             "[profile p]\ncredential_process = /bin/echo "
             "'{\"Version\":1,\"AccessKeyId\":\"AKP\",\"SecretAccessKey\":\"psecret\","
             "\"SessionToken\":\"ptoken\",\"Expiration\":\"2099-12-31T23:59:59Z\"}'\n"
             "[profile bad]\ncredential_process = /bin/echo not json\n"
             "[profile missing]\ncredential_process = /nonexistent/helper --x\n");
    put(".aws/config", cfg);
    put(".aws/credentials", "");
    creds c;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_resolve("p", &c, &d), ST_OK);
    assert_string_equal(c.access_key, "AKP");
    assert_string_equal(c.secret_key, "psecret");
    assert_string_equal(c.session_token, "ptoken");
    assert_int_equal(c.expires, 4102444799LL);   /* 2099-12-31T23:59:59Z */
    assert_non_null(strstr(c.source, "credential_process in "));
    creds_done(&c);
    assert_int_equal(creds_resolve("bad", &c, &d), ST_IO);
    assert_non_null(strstr(d.msg, "its output is not a JSON object"));
    assert_int_equal(creds_resolve("missing", &c, &d), ST_IO);
    assert_non_null(strstr(d.msg, "cannot run /nonexistent/helper"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test_setup_teardown(test_env_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ini, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_found, setup, teardown),
        cmocka_unit_test_setup_teardown(test_process, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
