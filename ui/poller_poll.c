/*
 * poller on POSIX poll() (ui/poller.h): for systems without epoll (macOS,
 * the BSDs), and forced on Linux by `make POLLER=poll` so that it is
 * tested here (tests/poll). One array of pollfd handed to poll() whole,
 * with the caller's pointer beside each entry, and a map from descriptor
 * to entry so that a change or a removal is O(1) (a removal moves the
 * last entry into the hole). A wait costs O(descriptors watched), where
 * epoll's costs O(ready): fine for the test suites' few hundred
 * connections, slower for thousands of idle ones.
 */
#include "ui/poller.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

struct poller {
    struct pollfd *pfd;
    void **ptr;
    size_t n, cap;
    int *slot;            /* slot[fd]: the entry of fd, -1 when not watched */
    size_t nslot;
    size_t next;          /* where the next wait starts reporting, so that
                             a full batch does not always favour the first */
};

const char poller_kind[] = "poll";

poller *poller_new(void)
{
    return xcalloc(1, sizeof(poller));
}

void poller_free(poller *p)
{
    if (!p)
        return;
    free(p->pfd);
    free(p->ptr);
    free(p->slot);
    free(p);
}

static short mask(unsigned events)
{
    return (short)(((events & POLLER_IN) ? POLLIN : 0) | ((events & POLLER_OUT) ? POLLOUT : 0));
}

int poller_add(poller *p, int fd, unsigned events, void *ptr)
{
    if (fd < 0) {
        errno = EBADF;
        return -1;
    }
    if ((size_t)fd >= p->nslot) {
        size_t m = p->nslot ? p->nslot : 64;
        while (m <= (size_t)fd)
            m *= 2;
        p->slot = xrealloc(p->slot, m * sizeof *p->slot);
        memset(p->slot + p->nslot, 0xff, (m - p->nslot) * sizeof *p->slot);   /* -1 */
        p->nslot = m;
    }
    if (p->slot[fd] >= 0) {
        errno = EEXIST;
        return -1;
    }
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 64;
        p->pfd = xrealloc(p->pfd, p->cap * sizeof *p->pfd);
        p->ptr = xrealloc(p->ptr, p->cap * sizeof *p->ptr);
    }
    p->pfd[p->n] = (struct pollfd){ .fd = fd, .events = mask(events) };
    p->ptr[p->n] = ptr;
    p->slot[fd] = (int)p->n++;
    return 0;
}

static int find(poller *p, int fd)
{
    int i = fd >= 0 && (size_t)fd < p->nslot ? p->slot[fd] : -1;
    if (i < 0)
        errno = ENOENT;
    return i;
}

int poller_mod(poller *p, int fd, unsigned events, void *ptr)
{
    int i = find(p, fd);
    if (i < 0)
        return -1;
    p->pfd[i].events = mask(events);
    p->ptr[i] = ptr;
    return 0;
}

int poller_del(poller *p, int fd)
{
    int i = find(p, fd);
    if (i < 0)
        return -1;
    size_t last = --p->n;
    if ((size_t)i != last) {
        p->pfd[i] = p->pfd[last];
        p->ptr[i] = p->ptr[last];
        p->slot[p->pfd[i].fd] = i;
    }
    p->slot[fd] = -1;
    return 0;
}

int poller_wait(poller *p, poller_event *ev, int max, int timeout_ms)
{
    int ready = poll(p->pfd, (nfds_t)p->n, timeout_ms);
    if (ready <= 0)
        return 0;   /* a timeout, or EINTR: the caller's loop comes back */
    int k = 0;
    size_t n = p->n, start = p->next < n ? p->next : 0;
    for (size_t j = 0; j < n && k < max && ready > 0; j++) {
        size_t i = (start + j) % n;
        short r = p->pfd[i].revents;
        if (!r)
            continue;
        ready--;
        unsigned out = 0;
        if (r & (POLLERR | POLLHUP | POLLNVAL))
            out |= POLLER_HUP;
        if (r & POLLIN)
            out |= POLLER_IN;
        if (r & POLLOUT)
            out |= POLLER_OUT;
        ev[k].ptr = p->ptr[i];
        ev[k].events = out;
        k++;
        p->next = i + 1;
    }
    return k;
}
