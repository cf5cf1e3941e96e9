#include "ui/sigwait.h"

#include <errno.h>

#if defined(__APPLE__) || defined(POLLER_PORTABLE)
/* No sigtimedwait: a pending signal of set is looked for every 10 ms
 * (sigpending), and taken with sigwait, which then returns at once. The
 * wait ends at most 10 ms after the signal. */
static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + t.tv_nsec / 1e9;
}

int sigwait_timed(const sigset_t *set, const struct timespec *ts)
{
    double end = mono() + (double)ts->tv_sec + ts->tv_nsec / 1e9;
    for (;;) {
        sigset_t pending;
        sigpending(&pending);
        for (int s = 1; s < NSIG; s++) {
            if (sigismember(set, s) == 1 && sigismember(&pending, s) == 1) {
                int sig = 0;
                if (sigwait(set, &sig) == 0)
                    return sig;
            }
        }
        double left = end - mono();
        if (left <= 0) {
            errno = EAGAIN;
            return -1;
        }
        struct timespec nap = { 0, left < 0.01 ? (long)(left * 1e9) : 10000000L };
        nanosleep(&nap, NULL);
    }
}
#else
int sigwait_timed(const sigset_t *set, const struct timespec *ts)
{
    return sigtimedwait(set, NULL, ts);
}
#endif
