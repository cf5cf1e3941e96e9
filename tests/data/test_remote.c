/* remote: opening without the network — the endpoint, region and
 * description (never the URL's user:password), the errors for a bad URL
 * or a missing region, and a call to a port nobody listens on: ST_IO,
 * type NetworkError, no crash, the handle usable again. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "data/remote.h"

static int setup(void **state)
{
    (void)state;
    static const char *const vars[] = {
        "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_SESSION_TOKEN",
        "AWS_MAX_ATTEMPTS",
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    setenv("AWS_ACCESS_KEY_ID", "AKTEST", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "unitSECRET/xyz", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", 1);
    return 0;
}

static void test_describe(void **state)
{
    (void)state;
    remote_opts o = { .endpoint_url = "http://user:pass@127.0.0.1:4501/" };
    remote *r = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(remote_open(&o, &r, &d), ST_OK);
    assert_string_equal(remote_describe(r), "http://127.0.0.1:4501 (us-east-1)");
    assert_string_equal(remote_region(r), "us-east-1");
    assert_string_equal(remote_creds_source(r), "environment (AWS_ACCESS_KEY_ID)");
    remote_close(r);

    remote_opts aws = { .region = "eu-west-1" };
    assert_int_equal(remote_open(&aws, &r, &d), ST_OK);
    assert_string_equal(remote_describe(r), "https://dynamodb.eu-west-1.amazonaws.com (eu-west-1)");
    remote *r2 = NULL;
    assert_int_equal(remote_dup(r, &r2, &d), ST_OK);
    assert_string_equal(remote_describe(r2), remote_describe(r));
    remote_close(r2);
    remote_close(r);

    setenv("AWS_DEFAULT_REGION", "cn-north-1", 1);
    remote_opts cn = { 0 };
    assert_int_equal(remote_open(&cn, &r, &d), ST_OK);
    assert_string_equal(remote_describe(r),
                        "https://dynamodb.cn-north-1.amazonaws.com.cn (cn-north-1)");
    remote_close(r);
    unsetenv("AWS_DEFAULT_REGION");
}

static void test_errors(void **state)
{
    (void)state;
    remote *r = NULL;
    diag d;
    diag_init(&d);
    remote_opts none = { 0 };
    assert_int_equal(remote_open(&none, &r, &d), ST_USAGE);
    assert_null(r);
    assert_non_null(strstr(d.msg, "no region"));
    remote_opts ftp = { .endpoint_url = "ftp://127.0.0.1/" };
    assert_int_equal(remote_open(&ftp, &r, &d), ST_USAGE);
    remote_opts junk = { .endpoint_url = "not a url at all" };
    assert_int_equal(remote_open(&junk, &r, &d), ST_USAGE);
    remote_opts bad_region = { .region = "us-east-1/../x" };
    assert_int_equal(remote_open(&bad_region, &r, &d), ST_USAGE);
    unsetenv("AWS_SECRET_ACCESS_KEY");
    remote_opts local = { .endpoint_url = "http://127.0.0.1:1" };
    assert_int_equal(remote_open(&local, &r, &d), ST_USAGE);
    assert_non_null(strstr(d.msg, "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not"));
    setenv("AWS_SECRET_ACCESS_KEY", "unitSECRET/xyz", 1);
}

static void test_refused(void **state)
{
    (void)state;
    /* a port that was just free: bind, read it, close */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    close(fd);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", ntohs(a.sin_port));
    remote_opts o = { .endpoint_url = url, .max_attempts = 2 };
    remote *r = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(remote_open(&o, &r, &d), ST_OK);
    char *out = (char *)"sentinel";
    for (int round = 0; round < 2; round++) {
        assert_int_equal(remote_call(r, "ListTables", "{}", 2, &out, &d), ST_IO);
        assert_null(out);
        assert_string_equal(remote_error_code(r), "NetworkError");
        assert_non_null(strstr(d.msg, "NetworkError: cannot connect to 127.0.0.1:"));
        assert_non_null(strstr(d.msg, "(after 2 attempts)"));
        assert_null(strstr(d.msg, "unitSECRET"));
        assert_null(strstr(remote_error_message(r), "NetworkError"));
    }
    remote_stats st;
    remote_get_stats(r, &st);
    assert_int_equal(st.calls, 2);
    assert_int_equal(st.attempts, 4);
    assert_int_equal(st.retries, 2);

    char *line = NULL;
    assert_int_equal(remote_call_line(r, "{\"Operation\":\"ListTables\"}", 26, &line), ST_IO);
    assert_non_null(strstr(line, "{\"Error\":{\"Code\":\"NetworkError\",\"Message\":\"cannot connect to"));
    free(line);
    /* an operation name is a header value: no CR/LF, letters only */
    assert_int_equal(remote_call(r, "ListTables\r\nX-Evil: 1", "{}", 2, &out, &d),
                     ST_UNKNOWN_OPERATION);
    assert_null(out);
    remote_get_stats(r, &st);
    assert_int_equal(st.attempts, 6);   /* nothing was sent for it */
    assert_int_equal(remote_call_line(r, "{\"Operation\":3}", 15, &line), ST_SERIALIZATION);
    assert_string_equal(line, "{\"Error\":{\"Code\":\"SerializationException\",\"Message\":"
                              "\"Malformed request line: \\\"Operation\\\" must be a string\"}}");
    free(line);
    remote_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_describe),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
