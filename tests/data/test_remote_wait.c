/* remote_wait: a request on a worker thread while the caller waits
 * (issue 42, item 2). What a wait names; a request to a server that
 * accepts and never answers: the hook is called as it waits, with the
 * seconds growing, and returning false cancels it at once (ST_IO
 * "Cancelled: ... stopped"), well before the request's own timeout;
 * the waiter is usable again afterwards; work handed to the caller's
 * thread from elsewhere runs at once. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "data/remote_wait.h"

static int setup(void **state)
{
    (void)state;
    static const char *const vars[] = {
        "AWS_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_SESSION_TOKEN", "AWS_MAX_ATTEMPTS",
    };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
    setenv("AWS_ACCESS_KEY_ID", "AKTEST", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "unitSECRET/xyz", 1);
    setenv("AWS_CONFIG_FILE", "/nonexistent/config", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/nonexistent/credentials", 1);
    return 0;
}

static void what_a_wait_names(void **state)
{
    (void)state;
    char w[64];
    const char *q = "{\"TableName\":\"Big\",\"IndexName\":\"GSI1\",\"Limit\":40}";
    remote_wait_what("Query", q, strlen(q), w, sizeof w);
    assert_string_equal(w, "Query on GSI1");
    const char *g = "{\"TableName\":\"Big\",\"Key\":{}}";
    remote_wait_what("GetItem", g, strlen(g), w, sizeof w);
    assert_string_equal(w, "GetItem on Big");
    remote_wait_what("ListTables", "{}", 2, w, sizeof w);
    assert_string_equal(w, "ListTables");
    /* A batch names its (first) table: the marks' staged delete's reads. */
    const char *b = "{\"RequestItems\":{\"Big\":{\"Keys\":[],\"ConsistentRead\":true}}}";
    remote_wait_what("BatchGetItem", b, strlen(b), w, sizeof w);
    assert_string_equal(w, "BatchGetItem on Big");
}

typedef struct seen {
    int calls;
    double last;
    int stop_after;
} seen;

static bool hook(void *ctx, const char *what, double seconds, int attempt, int max_attempts)
{
    seen *s = ctx;
    assert_true(strcmp(what, "Scan on Big") == 0 || strcmp(what, "3 Scan requests together") == 0);
    assert_true(seconds >= s->last);
    assert_true(attempt >= 1 && attempt <= max_attempts);
    s->last = seconds;
    return ++s->calls < s->stop_after;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int ran;
static void job(void *arg)
{
    (void)arg;
    ran++;
}

/* A server that accepts (the kernel's backlog) and never answers, and a
 * remote to it (one attempt); *fd its listening socket. */
static remote *hanging_server(int *fd)
{
    *fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    assert_int_equal(bind(*fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(*fd, 8), 0);
    socklen_t al = sizeof a;
    getsockname(*fd, (struct sockaddr *)&a, &al);
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d", ntohs(a.sin_port));
    remote_opts o = { .endpoint_url = url, .max_attempts = 1 };
    remote *r = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(remote_open(&o, &r, &d), ST_OK);
    return r;
}

static void esc_cancels_a_request_that_hangs(void **state)
{
    (void)state;
    int fd;
    remote *r = hanging_server(&fd);
    diag d;
    diag_init(&d);
    seen s = { 0, 0, 4 };
    remote_waiter *w = remote_waiter_new(r, 1, hook, &s);
    const char *in = "{\"TableName\":\"Big\"}";
    char *out = NULL;
    double t0 = now_s();
    status st = remote_send_waiting(w, "Scan", in, strlen(in), &out, &d);
    double took = now_s() - t0;
    assert_int_equal(st, ST_IO);
    assert_null(out);
    assert_non_null(strstr(d.msg, "Cancelled: Scan on Big stopped after"));
    assert_int_equal(s.calls, 4);
    assert_true(took < 1.0);   /* four 50 ms slices, not the request's 60 s */
    /* Usable again: the next request goes on another connection at
     * once (and is cancelled the same way). */
    s = (seen){ 0, 0, 2 };
    st = remote_send_waiting(w, "Scan", in, strlen(in), &out, &d);
    assert_int_equal(st, ST_IO);
    assert_int_equal(s.calls, 2);
    /* Several together, on connections of their own: cancelled the same
     * way, each request's status says so. */
    s = (seen){ 0, 0, 3 };
    const char *ins[3] = { in, in, in };
    size_t lens[3] = { strlen(in), strlen(in), strlen(in) };
    char *outs[3];
    status sts[3];
    diag ds[3];
    t0 = now_s();
    assert_int_equal(remote_send_many(w, "Scan", 3, ins, lens, outs, sts, ds), ST_IO);
    assert_true(now_s() - t0 < 3.0);   /* libcurl notices within a second */
    for (int i = 0; i < 3; i++) {
        assert_int_equal(sts[i], ST_IO);
        assert_null(outs[i]);
    }
    /* Work for the caller's thread, asked from it: runs at once. */
    remote_waiter_on_caller(w, job, NULL);
    assert_int_equal(ran, 1);
    remote_waiter_free(w);
    remote_close(r);
    close(fd);
}

/* Two requests to a server that never answers: the first cancelled at
 * its first wait (phase 0), the second sent at once; at its first wait
 * its hook looks at the first one's connection (the first the server
 * accepted): still open means the second did not wait for the first
 * one's worker (libcurl hangs up the first only at its next progress
 * call, about a second after it started; the second is 50 ms into its
 * wait here). Then the second is cancelled too. */
typedef struct after {
    int listen_fd;
    int phase;
    int old_open;     /* 1: the abandoned connection was still open */
} after;

static bool hook_after(void *ctx, const char *what, double seconds, int attempt, int max_attempts)
{
    (void)what, (void)seconds, (void)attempt, (void)max_attempts;
    after *a = ctx;
    if (a->phase == 1 && a->old_open < 0) {
        int c = accept(a->listen_fd, NULL, NULL);
        assert_true(c >= 0);
        char bytes[4096];
        ssize_t got;
        while ((got = recv(c, bytes, sizeof bytes, MSG_DONTWAIT)) > 0)
            ;
        struct pollfd p = { .fd = c, .events = POLLIN | POLLRDHUP };
        bool closed = got == 0 || (poll(&p, 1, 0) == 1 && (p.revents & (POLLRDHUP | POLLHUP)));
        a->old_open = !closed;
        close(c);
    }
    return false;
}

/* issue 42: a request the user abandoned is not waited for; the next goes
 * on another connection at once; the abandoned answer is dropped and
 * freed (the sanitizer build checks no leak and no use after free: the
 * caller's input buffer is overwritten while the worker may still read
 * its copy), and freeing the waiter waits for the workers left. */
static void an_abandoned_request_is_not_waited_for(void **state)
{
    (void)state;
    int fd;
    remote *r = hanging_server(&fd);
    diag d;
    diag_init(&d);
    after af = { fd, 0, -1 };
    remote_waiter *w = remote_waiter_new(r, 1, hook_after, &af);
    char in[64];
    snprintf(in, sizeof in, "{\"TableName\":\"Big\"}");
    char *out = NULL;
    assert_int_equal(remote_send_waiting(w, "Scan", in, strlen(in), &out, &d), ST_IO);
    assert_non_null(strstr(d.msg, "Cancelled: Scan on Big stopped after"));
    memset(in, 'x', sizeof in - 1);   /* the caller's buffer, reused */
    snprintf(in, sizeof in, "{\"TableName\":\"Big\"}");
    af.phase = 1;
    assert_int_equal(remote_send_waiting(w, "Scan", in, strlen(in), &out, &d), ST_IO);
    assert_null(out);
    assert_int_equal(af.old_open, 1);
    remote_waiter_free(w);   /* waits for both workers left */
    remote_close(r);
    close(fd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(what_a_wait_names),
        cmocka_unit_test(esc_cancels_a_request_that_hangs),
        cmocka_unit_test(an_abandoned_request_is_not_waited_for),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
