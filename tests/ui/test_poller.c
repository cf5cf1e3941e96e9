/*
 * The server loop's readiness set (ui/poller.h), whichever implementation
 * this build has: epoll (the default on Linux) or poll() (make
 * POLLER=poll; tests/poll runs this program from that build too). Pins
 * what ui/httpd.c relies on: level-triggered input and output as asked,
 * a hang-up reported whatever was asked, removal (of any entry among
 * many: poll's set moves its last entry into the hole) and a changed
 * pointer, on socket pairs.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cmocka.h>

#include "ui/poller.h"

static void pair(int sv[2])
{
    assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
}

/* The events reported for ptr in one wait of up to 100 ms (0: none). */
static unsigned events_of(poller *p, void *ptr)
{
    poller_event ev[64];
    int n = poller_wait(p, ev, 64, 100);
    unsigned got = 0;
    for (int i = 0; i < n; i++)
        if (ev[i].ptr == ptr)
            got |= ev[i].events;
    return got;
}

static void test_kind(void **state)
{
    assert_true(strcmp(poller_kind, "epoll") == 0 || strcmp(poller_kind, "poll") == 0);
}

static void test_input_output_hangup(void **state)
{
    poller *p = poller_new();
    assert_non_null(p);
    int sv[2];
    pair(sv);
    int tag;
    assert_int_equal(poller_add(p, sv[0], POLLER_IN, &tag), 0);
    poller_event ev[4];
    assert_int_equal(poller_wait(p, ev, 4, 0), 0);   /* nothing to read yet */
    assert_int_equal(write(sv[1], "x", 1), 1);
    assert_int_equal(events_of(p, &tag), POLLER_IN);
    assert_int_equal(events_of(p, &tag), POLLER_IN);  /* level-triggered: still there */
    /* Only output asked for: the unread input is not reported. */
    assert_int_equal(poller_mod(p, sv[0], POLLER_OUT, &tag), 0);
    assert_int_equal(events_of(p, &tag), POLLER_OUT);
    /* The peer gone: a hang-up, whatever was asked. */
    close(sv[1]);
    assert_true(events_of(p, &tag) & POLLER_HUP);
    assert_int_equal(poller_del(p, sv[0]), 0);
    assert_int_equal(poller_wait(p, ev, 4, 0), 0);
    close(sv[0]);
    poller_free(p);
}

static void test_many_and_removal(void **state)
{
    enum { N = 9 };
    poller *p = poller_new();
    int sv[N][2], tag[N];
    for (int i = 0; i < N; i++) {
        pair(sv[i]);
        assert_int_equal(poller_add(p, sv[i][0], POLLER_IN, &tag[i]), 0);
    }
    assert_int_not_equal(poller_add(p, sv[3][0], POLLER_IN, &tag[3]), 0);   /* already there */
    /* Remove the first, a middle and the last; the rest still report
     * their own pointers. */
    int gone[] = { 0, 4, N - 1 };
    for (size_t g = 0; g < sizeof gone / sizeof *gone; g++)
        assert_int_equal(poller_del(p, sv[gone[g]][0]), 0);
    assert_int_not_equal(poller_del(p, sv[4][0]), 0);   /* not there any more */
    for (int i = 0; i < N; i++)
        assert_int_equal(write(sv[i][1], "x", 1), 1);
    poller_event ev[64];
    int n = poller_wait(p, ev, 64, 100);
    assert_int_equal(n, N - 3);
    unsigned seen = 0;
    for (int k = 0; k < n; k++) {
        int i = (int)((int *)ev[k].ptr - tag);
        assert_true(i >= 0 && i < N && i != 0 && i != 4 && i != N - 1);
        assert_int_equal(ev[k].events, POLLER_IN);
        seen |= 1u << i;
    }
    assert_int_equal(__builtin_popcount(seen), N - 3);
    /* A changed pointer is the one reported; at most max events. */
    int other;
    assert_int_equal(poller_mod(p, sv[2][0], POLLER_IN, &other), 0);
    assert_int_equal(events_of(p, &other), POLLER_IN);
    assert_int_equal(poller_wait(p, ev, 2, 100), 2);
    for (int i = 0; i < N; i++) {
        close(sv[i][0]);
        close(sv[i][1]);
    }
    poller_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kind),
        cmocka_unit_test(test_input_output_hangup),
        cmocka_unit_test(test_many_and_removal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
