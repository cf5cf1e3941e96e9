/* poller on Linux's epoll (ui/poller.h): the default on Linux. */
#include "ui/poller.h"

#include <stdbool.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "model/mem.h"

struct poller {
    int ep;
    struct epoll_event ev[64];
};

const char poller_kind[] = "epoll";

poller *poller_new(void)
{
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (ep < 0)
        return NULL;
    poller *p = xcalloc(1, sizeof *p);
    p->ep = ep;
    return p;
}

void poller_free(poller *p)
{
    if (!p)
        return;
    close(p->ep);
    free(p);
}

static int ctl(poller *p, int op, int fd, unsigned events, void *ptr)
{
    /* A half close is input too (EPOLLRDHUP): read() then says 0.
     * While only output is asked for, neither is watched (level
     * triggered, it would wake the worker again and again). A shared
     * (listening) socket takes EPOLLEXCLUSIVE, which allows no
     * EPOLLRDHUP beside it. */
    bool shared = events & POLLER_SHARED;
    struct epoll_event e = { .events = ((events & POLLER_IN) ? EPOLLIN | (shared ? 0 : EPOLLRDHUP) : 0) |
                                       ((events & POLLER_OUT) ? EPOLLOUT : 0) |
                                       (shared ? EPOLLEXCLUSIVE : 0),
                             .data.ptr = ptr };
    return epoll_ctl(p->ep, op, fd, &e);
}

int poller_add(poller *p, int fd, unsigned events, void *ptr)
{
    return ctl(p, EPOLL_CTL_ADD, fd, events, ptr);
}

int poller_mod(poller *p, int fd, unsigned events, void *ptr)
{
    return ctl(p, EPOLL_CTL_MOD, fd, events & ~(unsigned)POLLER_SHARED, ptr);
}

int poller_del(poller *p, int fd)
{
    return epoll_ctl(p->ep, EPOLL_CTL_DEL, fd, NULL);
}

int poller_wait(poller *p, poller_event *ev, int max, int timeout_ms)
{
    if (max > 64)
        max = 64;
    int n = epoll_wait(p->ep, p->ev, max, timeout_ms);
    if (n < 0)
        return 0;   /* EINTR: the caller's loop comes back */
    for (int i = 0; i < n; i++) {
        unsigned e = p->ev[i].events, out = 0;
        if (e & (EPOLLERR | EPOLLHUP))
            out |= POLLER_HUP;
        if (e & (EPOLLIN | EPOLLRDHUP))
            out |= POLLER_IN;
        if (e & EPOLLOUT)
            out |= POLLER_OUT;
        ev[i].ptr = p->ev[i].data.ptr;
        ev[i].events = out;
    }
    return n;
}
