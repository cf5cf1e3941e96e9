/*
 * bench_util — timing, percentiles and the JSON figure lines the bench
 * drivers print ({"fig":"W2.ops","value":1234.5}), read by bench.js.
 * Header-only (static), shared by raw_sqlite.c and bench_store.c.
 */
#ifndef DDBX_BENCH_UTIL_H
#define DDBX_BENCH_UTIL_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static inline double bench_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* CPU time of this (single-threaded) process, user + system: the work
 * done, whatever else the shared machine runs meanwhile. */
static inline double bench_cpu(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* p in [0,1] of n latencies (sorted in place). */
static inline double bench_pct(double *lat, size_t n, double p)
{
    if (n == 0)
        return 0;
    qsort(lat, n, sizeof *lat, bench_cmp_double);
    size_t i = (size_t)(p * (double)n);
    return lat[i < n ? i : n - 1];
}

static inline void bench_fig(const char *fig, double value)
{
    printf("{\"fig\":\"%s\",\"value\":%.6g}\n", fig, value);
    fflush(stdout);
}

/* Latencies in seconds -> W?.p50 / W?.p99 in microseconds. */
static inline void bench_lat(const char *w, double *lat, size_t n)
{
    char name[32];
    snprintf(name, sizeof name, "%s.p50", w);
    bench_fig(name, bench_pct(lat, n, 0.50) * 1e6);
    snprintf(name, sizeof name, "%s.p99", w);
    bench_fig(name, bench_pct(lat, n, 0.99) * 1e6);
}

/* BENCH_ONLY=W2,W5 runs only those workloads (for profiling one path). */
static inline bool bench_want(const char *w)
{
    const char *o = getenv("BENCH_ONLY");
    return !o || !*o || strstr(o, w) != NULL;
}

/* Removes a database file and SQLite's files beside it. */
static inline void bench_rm_db(const char *path)
{
    size_t n = strlen(path) + 8;
    char *p = malloc(n);
    remove(path);
    snprintf(p, n, "%s-wal", path);
    remove(p);
    snprintf(p, n, "%s-shm", path);
    remove(p);
    free(p);
}

/* Peak resident set of this process, bytes (VmHWM). */
static inline double bench_peak_rss(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    double kb = 0;
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "VmHWM: %lf", &kb) == 1)
            break;
    fclose(f);
    return kb * 1024;
}

#endif
