/* creds: the credential chain's parsing and precedence without a network:
 * command splitting for credential_process, the INI files as botocore
 * reads them (comments, nested sub-values, "[profile   x]" spacing, the
 * last duplicate key winning), where each key comes from, and error
 * messages that name places but never a secret; the AWS CLI's cache file
 * names, STS's XML, the container URL rules, the endpoint settings'
 * precedence and the role rules checked before any request (the network
 * half is tests/creds/run.sh). */
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
        "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB",
        "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS",
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    /* no real instance metadata service from a unit test */
    setenv("AWS_EC2_METADATA_DISABLED", "true", 1);
    creds_forget();
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
    /* a named profile that is in neither file: botocore's ProfileNotFound */
    assert_int_equal(creds_resolve("prod", &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "the profile 'prod' is in neither "));
    assert_null(c.access_key);
    put(".aws/config", "[profile prod]\nregion = eu-west-1\n");
    assert_int_equal(creds_resolve("prod", &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "no AWS credentials for profile 'prod'"));
    assert_non_null(strstr(d.msg, "/.aws/credentials [prod]"));
    assert_non_null(strstr(d.msg, "/.aws/config [profile prod]"));
    assert_non_null(strstr(d.msg, "the EC2 instance metadata service (disabled by "
                                  "AWS_EC2_METADATA_DISABLED)"));
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

/* The AWS CLI's cache names: botocore hashes json.dumps(args,
 * sort_keys=True, separators=(',', ':')) of the AssumeRole arguments
 * without RoleSessionName (credentials.py, _create_cache_key); the SSO
 * token cache hashes the session name (or the legacy start URL). The
 * expected digests were computed with Python's json and hashlib. */
static void test_cache_names(void **state)
{
    (void)state;
    char k[41];
    creds_assume_cache_key("arn:aws:iam::123456789012:role/second", NULL, NULL, 1800, k);
    assert_string_equal(k, "a4c94a32576a6ffcaa2685fb535e666553904e15");
    creds_assume_cache_key("arn:aws:iam::123456789012:role/first", NULL, NULL, 0, k);
    assert_string_equal(k, "4b77da09e1e0a733d81c30745cf51bd4fe0f482c");
    /* sha1("") and sha1("abc"), FIPS 180 */
    creds_sha1_hex("", k);
    assert_string_equal(k, "da39a3ee5e6b4b0d3255bfef95601890afd80709");
    creds_sha1_hex("abc", k);
    assert_string_equal(k, "a9993e364706816aba3e25717850c26c9cd0d89d");
}

/* STS answers XML (the STS API Reference's examples); entities decoded. */
static void test_xml(void **state)
{
    (void)state;
    const char *x = "<AssumeRoleResponse><AssumeRoleResult><Credentials>"
                    "<AccessKeyId>ASIAX</AccessKeyId><SessionToken>a&amp;b&lt;c&#43;d</SessionToken>"
                    "</Credentials></AssumeRoleResult></AssumeRoleResponse>";
    char *v = creds_xml_text(x, "AccessKeyId");
    assert_string_equal(v, "ASIAX");
    free(v);
    v = creds_xml_text(x, "SessionToken");
    assert_string_equal(v, "a&b<c+d");
    free(v);
    assert_null(creds_xml_text(x, "Expiration"));
    assert_null(creds_xml_text("<Arn>unterminated", "Arn"));
    assert_int_equal(creds_parse_time("2030-01-01T00:00:00Z"), 1893456000LL);
    assert_int_equal(creds_parse_time("2030-01-01T00:00:00.123+00:00"), 1893456000LL);
    assert_int_equal(creds_parse_time("soon"), -1);
}

/* The container credential provider's URL rules (SDK reference guide,
 * "Container credential provider"): the relative URI is rooted at
 * http://169.254.170.2; a full URI must be https, or http to loopback,
 * 169.254.170.2, 169.254.170.23 or fd00:ec2::23. */
static void test_container_url(void **state)
{
    (void)state;
    char *u = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_container_url(&u, &d), 0);
    setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://127.0.0.1:9/x", 1);
    setenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "/v2/credentials/abc", 1);
    assert_int_equal(creds_container_url(&u, &d), 1);   /* the relative URI first */
    assert_string_equal(u, "http://169.254.170.2/v2/credentials/abc");
    free(u);
    unsetenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    static const char *const good[] = {
        "http://127.0.0.1:9/x", "http://localhost/c", "http://[::1]:80/c",
        "http://169.254.170.23/v1/credentials", "http://[fd00:ec2::23]/c",
        "https://creds.example.com/c",
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", good[i], 1);
        assert_int_equal(creds_container_url(&u, &d), 1);
        assert_string_equal(u, good[i]);
        free(u);
    }
    static const char *const bad[] = {
        "http://192.0.2.1/c", "http://example.com/c", "http://user@127.0.0.1.evil/c", "ftp://127.0.0.1/",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", bad[i], 1);
        assert_int_equal(creds_container_url(&u, &d), -1);
        assert_null(u);
        assert_non_null(strstr(d.msg, "must be https://"));
    }
    unsetenv("AWS_CONTAINER_CREDENTIALS_FULL_URI");
}

/* Service-specific endpoints (SDK reference guide): AWS_ENDPOINT_URL_<SERVICE>,
 * then AWS_ENDPOINT_URL, then the services section, then the profile's
 * endpoint_url; AWS_IGNORE_CONFIGURED_ENDPOINT_URLS drops them all. */
static void test_endpoints(void **state)
{
    (void)state;
    put(".aws/config",
        "[profile p]\nservices = mine\nendpoint_url = http://global:1\n"
        "[services mine]\ndynamodb =\n  endpoint_url = http://ddb:2\n"
        "sts =\n  endpoint_url = http://sts:3\n"
        "[profile q]\nendpoint_url = http://global:1\nmax_attempts = 7\n");
    put(".aws/credentials", "");
    char *v = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_DYNAMODB", "p", "dynamodb", &v, &d), ST_OK);
    assert_string_equal(v, "http://ddb:2");
    free(v);
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_SSO", "p", "sso", &v, &d), ST_OK);
    assert_string_equal(v, "http://global:1");   /* no sso in the section */
    free(v);
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_DYNAMODB", "q", "dynamodb", &v, &d), ST_OK);
    assert_string_equal(v, "http://global:1");
    free(v);
    setenv("AWS_ENDPOINT_URL", "http://env:4", 1);
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_DYNAMODB", "p", "dynamodb", &v, &d), ST_OK);
    assert_string_equal(v, "http://env:4");
    free(v);
    setenv("AWS_ENDPOINT_URL_SSO_OIDC", "http://oidc:5", 1);
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_SSO_OIDC", "p", "sso_oidc", &v, &d), ST_OK);
    assert_string_equal(v, "http://oidc:5");
    free(v);
    unsetenv("AWS_ENDPOINT_URL_SSO_OIDC");
    setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true", 1);
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_DYNAMODB", "p", "dynamodb", &v, &d), ST_OK);
    assert_null(v);
    unsetenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS");
    unsetenv("AWS_ENDPOINT_URL");
    assert_int_equal(creds_endpoint("AWS_ENDPOINT_URL_DYNAMODB", "nosuch", "dynamodb", &v, &d), ST_OK);
    assert_null(v);
    /* settings: the variable first, then the profile */
    assert_int_equal(creds_setting("AWS_MAX_ATTEMPTS", "q", "max_attempts", &v, &d), ST_OK);
    assert_string_equal(v, "7");
    free(v);
    setenv("AWS_MAX_ATTEMPTS", "2", 1);
    assert_int_equal(creds_setting("AWS_MAX_ATTEMPTS", "q", "max_attempts", &v, &d), ST_OK);
    assert_string_equal(v, "2");
    free(v);
    unsetenv("AWS_MAX_ATTEMPTS");
}

/* Role configuration checked before any request (botocore's
 * AssumeRoleProvider rules); the credentials file's keys lie over the
 * config file's for the same profile. */
static void test_role_rules(void **state)
{
    (void)state;
    put(".aws/config",
        "[profile a]\nrole_arn = arn:aws:iam::123456789012:role/a\nsource_profile = b\n"
        "[profile b]\nrole_arn = arn:aws:iam::123456789012:role/b\nsource_profile = c\n"
        "[profile c]\nrole_arn = arn:aws:iam::123456789012:role/c\nsource_profile = a\n"
        "[profile dur]\nrole_arn = arn:aws:iam::123456789012:role/d\nsource_profile = k\n"
        "duration_seconds = 60\n"
        "[profile k]\naws_access_key_id = AKCONF\naws_secret_access_key = confsecret\n");
    put(".aws/credentials", "[k]\naws_access_key_id = AKCRED\naws_secret_access_key = credsecret\n");
    creds c;
    diag d;
    diag_init(&d);
    assert_int_equal(creds_resolve("a", &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "the source_profile chain loops: a -> b -> c -> a"));
    assert_int_equal(creds_resolve("dur", &c, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "duration_seconds must be a number of seconds from 900 to 43200"));
    assert_int_equal(creds_resolve("k", &c, &d), ST_OK);
    assert_string_equal(c.access_key, "AKCRED");   /* the credentials file first */
    assert_null(strstr(c.source, "confsecret"));
    creds_done(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_split),
        cmocka_unit_test_setup_teardown(test_env_first, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ini, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_found, setup, teardown),
        cmocka_unit_test_setup_teardown(test_process, setup, teardown),
        cmocka_unit_test(test_cache_names),
        cmocka_unit_test(test_xml),
        cmocka_unit_test_setup_teardown(test_container_url, setup, teardown),
        cmocka_unit_test_setup_teardown(test_endpoints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_role_rules, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
