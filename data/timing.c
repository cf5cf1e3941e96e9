/*
 * timing — monotonic seconds and timed-wait deadlines (see timing.h).
 */
#include "data/timing.h"

double timing_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void timing_deadline_ms(struct timespec *out, long ms)
{
    clock_gettime(CLOCK_REALTIME, out);
    out->tv_nsec += ms * 1000000L;
    if (out->tv_nsec >= 1000000000L) {
        out->tv_sec++;
        out->tv_nsec -= 1000000000L;
    }
}
