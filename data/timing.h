/*
 * timing — the two clock readings several modules each wrote for
 * themselves: seconds on the monotonic clock (progress lines, rates,
 * timeouts; never a date), and a deadline some milliseconds from now on
 * the realtime clock, which is the clock pthread_cond_timedwait and
 * pthread_mutex_timedlock take.
 *
 * Ownership: nothing is kept; the callers own what they pass.
 */
#ifndef DDBX_TIMING_H
#define DDBX_TIMING_H

#include <time.h>

/* Seconds on CLOCK_MONOTONIC: only differences mean anything. */
double timing_now_s(void);

/* *out = the realtime clock now plus ms milliseconds (0 <= ms < 1000),
 * normalized: an absolute deadline for the pthread timed waits. */
void timing_deadline_ms(struct timespec *out, long ms);

#endif
