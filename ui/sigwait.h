/*
 * sigwait — sigtimedwait where the system has it (Linux, the BSDs), and
 * a POSIX fallback where it has not (macOS), also built by the forced
 * portable build (make POLLER=poll, POLLER_PORTABLE) so that tests/poll
 * runs it: `ddbx serve`'s main thread waits for SIGINT or SIGTERM between
 * TTL sweep steps with it (ui/cli_serve.c). No state; the caller blocks
 * the signals of set in every thread first.
 */
#ifndef DDBX_SIGWAIT_H
#define DDBX_SIGWAIT_H

#include <signal.h>
#include <time.h>

/* The signal of set taken within *ts, or -1 with errno EAGAIN when none
 * came (EINTR when another signal interrupted the wait). */
int sigwait_timed(const sigset_t *set, const struct timespec *ts);

#endif
