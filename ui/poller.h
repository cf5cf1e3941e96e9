/*
 * poller — the readiness loop under ui/httpd.c: a set of descriptors
 * watched for input and output, waited on by one thread. Two
 * implementations, one chosen at build time (the Makefile's POLLER):
 * ui/poller_epoll.c (epoll, Linux's; the default there) and
 * ui/poller_poll.c (POSIX poll(), everywhere else; `make POLLER=poll`
 * forces it on Linux, into build-poll/, and tests/poll runs the `serve`
 * suites against that build).
 *
 * Semantics both keep: level-triggered; POLLER_HUP (a hang-up or an
 * error) is reported whatever was asked; a descriptor is removed before
 * it is closed. poller_wait copies what is ready into the caller's array
 * before returning, so the set may change while the caller walks it (a
 * pointer whose descriptor was removed meanwhile is the caller's to skip).
 *
 * Ownership: a poller belongs to one thread (httpd: each worker its own);
 * the pointers registered are the caller's, never dereferenced here.
 */
#ifndef DDBX_POLLER_H
#define DDBX_POLLER_H

typedef struct poller poller;

enum {
    POLLER_IN = 1,        /* readable, or the peer closed its side */
    POLLER_OUT = 2,       /* writable */
    POLLER_HUP = 4,       /* hang-up or error: reported, never asked for */
    POLLER_SHARED = 8,    /* (poller_add) a descriptor in every worker's set
                             (a listening socket): wake one waiter, not all,
                             where the system can (EPOLLEXCLUSIVE) */
};

typedef struct poller_event {
    void *ptr;
    unsigned events;      /* POLLER_IN | POLLER_OUT | POLLER_HUP */
} poller_event;

/* "epoll" or "poll": which implementation this binary was built with. */
extern const char poller_kind[];

/* A new, empty set; NULL with errno on failure. */
poller *poller_new(void);
void poller_free(poller *p);
/* Watch fd for events (POLLER_IN and/or POLLER_OUT, maybe
 * POLLER_SHARED), reporting ptr; change what is watched; stop watching.
 * 0, or -1 with errno. */
int poller_add(poller *p, int fd, unsigned events, void *ptr);
int poller_mod(poller *p, int fd, unsigned events, void *ptr);
int poller_del(poller *p, int fd);
/* Waits up to timeout_ms (-1: no bound) for readiness; fills ev[0..n)
 * and returns n (0 on timeout or a signal), at most max. */
int poller_wait(poller *p, poller_event *ev, int max, int timeout_ms);

#endif
