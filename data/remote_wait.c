/*
 * remote_wait — remote_call on a worker thread, the caller told as it
 * waits (see data/remote_wait.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "data/remote_wait.h"
#include "model/mem.h"

struct remote_waiter {
    remote *r;
    int max_attempts;
    remote_wait_fn hook;
    void *ctx;
    volatile sig_atomic_t cancel;
    /* the request under way */
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    bool done;
    const char *op, *input;
    size_t len;
    char *out;
    diag d;
    status st;
    /* work the worker hands to the waiting thread (remote_waiter_on_caller) */
    pthread_t caller;
    bool has_caller, waiting;
    void (*job)(void *);
    void *job_arg;
    bool job_done;
    /* a cancelled request's worker, not waited for: libcurl notices the
     * cancel within a second; the next request (or free) joins it first */
    bool left;
    pthread_t left_th;
};

/* The worker of a cancelled request, finished, its answer dropped. */
static void join_left(remote_waiter *w)
{
    if (!w->left)
        return;
    pthread_join(w->left_th, NULL);
    w->left = false;
    free(w->out);
    w->out = NULL;
}

remote_waiter *remote_waiter_new(remote *r, int max_attempts, remote_wait_fn hook, void *ctx)
{
    remote_waiter *w = xcalloc(1, sizeof *w);
    w->r = r;
    w->max_attempts = max_attempts;
    w->hook = hook;
    w->ctx = ctx;
    pthread_mutex_init(&w->lock, NULL);
    pthread_cond_init(&w->done_cv, NULL);
    remote_set_cancel(r, &w->cancel);
    return w;
}

void remote_waiter_free(remote_waiter *w)
{
    if (!w)
        return;
    join_left(w);
    remote_set_cancel(w->r, NULL);
    pthread_mutex_destroy(&w->lock);
    pthread_cond_destroy(&w->done_cv);
    free(w);
}

void remote_wait_what(const char *op, const char *input, size_t len, char *out, size_t cap)
{
    cJSON *in = input ? cJSON_ParseWithLength(input, len) : NULL;
    const cJSON *ix = cJSON_GetObjectItemCaseSensitive(in, "IndexName");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(in, "TableName");
    const char *on = cJSON_IsString(ix) ? ix->valuestring : cJSON_IsString(t) ? t->valuestring : NULL;
    if (on)
        snprintf(out, cap, "%s on %s", op, on);
    else
        snprintf(out, cap, "%s", op);
    cJSON_Delete(in);
}

static void *work(void *arg)
{
    remote_waiter *w = arg;
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = remote_call(w->r, w->op, w->input, w->len, &out, &d);
    pthread_mutex_lock(&w->lock);
    w->out = out;
    w->d = d;
    w->st = st;
    w->done = true;
    pthread_cond_broadcast(&w->done_cv);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

void remote_waiter_on_caller(remote_waiter *w, void (*fn)(void *), void *arg)
{
    pthread_mutex_lock(&w->lock);
    bool worker = w->has_caller && !pthread_equal(pthread_self(), w->caller);
    if (!worker) {
        pthread_mutex_unlock(&w->lock);
        fn(arg);
        return;
    }
    if (!w->waiting) {
        /* A cancelled request's worker: nobody waits to run fn. */
        pthread_mutex_unlock(&w->lock);
        return;
    }
    w->job = fn;
    w->job_arg = arg;
    w->job_done = false;
    pthread_cond_broadcast(&w->done_cv);
    while (!w->job_done)
        pthread_cond_wait(&w->done_cv, &w->lock);
    pthread_mutex_unlock(&w->lock);
}

static double since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

status remote_send_waiting(void *ctx, const char *op, const char *input, size_t len, char **out,
                           diag *d)
{
    remote_waiter *w = ctx;
    *out = NULL;
    join_left(w);
    w->cancel = 0;
    w->done = false;
    w->op = op;
    w->input = input;
    w->len = len;
    w->out = NULL;
    diag_init(&w->d);
    pthread_t th;
    if (pthread_create(&th, NULL, work, w) != 0)
        return remote_call(w->r, op, input, len, out, d);   /* no thread: as it was */
    char what[160];
    remote_wait_what(op, input, len, what, sizeof what);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_mutex_lock(&w->lock);
    w->caller = pthread_self();
    w->has_caller = true;
    w->waiting = true;
    while (!w->done) {
        if (w->job) {
            void (*fn)(void *) = w->job;
            w->job = NULL;
            pthread_mutex_unlock(&w->lock);
            fn(w->job_arg);
            pthread_mutex_lock(&w->lock);
            w->job_done = true;
            pthread_cond_broadcast(&w->done_cv);
            continue;
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50 * 1000000L;
        if (until.tv_nsec >= 1000000000L) {
            until.tv_sec++;
            until.tv_nsec -= 1000000000L;
        }
        int rc = pthread_cond_timedwait(&w->done_cv, &w->lock, &until);
        if (w->done || w->job || rc != ETIMEDOUT)
            continue;
        pthread_mutex_unlock(&w->lock);
        /* The hook draws and reads keys: never under the lock. */
        if (w->hook && !w->cancel &&
            !w->hook(w->ctx, what, since(&t0), remote_attempt(w->r), w->max_attempts))
            w->cancel = 1;
        pthread_mutex_lock(&w->lock);
        if (w->cancel && !w->done) {
            /* Back to the screen at once; the worker stops on its own. */
            w->waiting = false;
            pthread_mutex_unlock(&w->lock);
            w->left = true;
            w->left_th = th;
            return diag_set(d, ST_IO, "Cancelled: %s stopped after %.1f s (nothing more was read)", what,
                            since(&t0));
        }
    }
    w->waiting = false;
    pthread_mutex_unlock(&w->lock);
    pthread_join(th, NULL);
    *out = w->out;
    *d = w->d;
    if (w->st != ST_OK && w->cancel) {
        /* Say what was stopped, and that Esc stopped it. */
        diag_set(d, ST_IO, "Cancelled: %s stopped after %.1f s (nothing more was read)", what, since(&t0));
    }
    return w->st;
}
