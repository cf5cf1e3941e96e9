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
    /* more connections for remote_send_many, made on first need */
    remote *pool[REMOTE_WAIT_POOL - 1];
    size_t n_pool;
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
    for (size_t i = 0; i < w->n_pool; i++)
        remote_close(w->pool[i]);
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

/* ---- several requests together ---- */

typedef struct many_run {
    remote_waiter *w;
    const char *op;
    size_t n, next, done;
    const char *const *inputs;
    const size_t *lens;
    char **outs;
    status *sts;
    diag *ds;
    pthread_mutex_t lock;
} many_run;

typedef struct many_worker {
    many_run *run;
    remote *r;               /* this worker's connection */
} many_worker;

/* Takes the next request, sends it on its own connection, until none is
 * left (or the wait was cancelled). */
static void *many_work(void *arg)
{
    many_worker *mw = arg;
    many_run *m = mw->run;
    for (;;) {
        pthread_mutex_lock(&m->lock);
        size_t i = m->w->cancel ? m->n : m->next;
        if (i < m->n)
            m->next++;
        pthread_mutex_unlock(&m->lock);
        if (i >= m->n)
            break;
        char *out = NULL;
        diag d;
        diag_init(&d);
        status st = remote_call(mw->r, m->op, m->inputs[i], m->lens[i], &out, &d);
        pthread_mutex_lock(&m->lock);
        m->outs[i] = out;
        m->ds[i] = d;
        m->sts[i] = st;
        m->done++;
        pthread_mutex_unlock(&m->lock);
    }
    return NULL;
}

/* "Scan on Big, 8 segments" for the pages of a parallel Scan (their
 * TotalSegments; issue 42 item 4), else "5 DescribeTable requests
 * together". */
static void many_what(const char *op, size_t n, const char *input, size_t len, char *out, size_t cap)
{
    cJSON *in = cJSON_ParseWithLength(input, len);
    const cJSON *segs = cJSON_GetObjectItemCaseSensitive(in, "TotalSegments");
    if (cJSON_IsNumber(segs)) {
        char on[128];
        remote_wait_what(op, input, len, on, sizeof on);
        snprintf(out, cap, "%s, %d segments", on, segs->valueint);
    } else {
        snprintf(out, cap, "%zu %s requests together", n, op);
    }
    cJSON_Delete(in);
}

status remote_send_many(void *ctx, const char *op, size_t n, const char *const *inputs,
                        const size_t *lens, char **outs, status *sts, diag *ds)
{
    remote_waiter *w = ctx;
    join_left(w);
    w->cancel = 0;
    for (size_t i = 0; i < n; i++) {
        outs[i] = NULL;
        sts[i] = diag_set(&ds[i], ST_IO, "Cancelled: %s was not sent", op);
    }
    if (!n)
        return ST_OK;
    size_t k = n < REMOTE_WAIT_POOL ? n : REMOTE_WAIT_POOL;
    /* The waiter's own connection, then copies kept for the next time
     * (made here, on the caller's thread, as remote_dup wants). */
    while (w->n_pool + 1 < k) {
        remote *c = NULL;
        diag d;
        diag_init(&d);
        if (remote_dup(w->r, &c, &d) != ST_OK)
            break;
        remote_set_cancel(c, &w->cancel);
        w->pool[w->n_pool++] = c;
    }
    if (k > w->n_pool + 1)
        k = w->n_pool + 1;
    many_run m = { w, op, n, 0, 0, inputs, lens, outs, sts, ds, PTHREAD_MUTEX_INITIALIZER };
    many_worker mw[REMOTE_WAIT_POOL];
    pthread_t th[REMOTE_WAIT_POOL];
    size_t started = 0;
    for (size_t t = 0; t < k; t++) {
        mw[t] = (many_worker){ &m, t ? w->pool[t - 1] : w->r };
        if (pthread_create(&th[started], NULL, many_work, &mw[t]) == 0)
            started++;
    }
    if (!started)
        many_work(&mw[0]);   /* no thread: one after the other, here */
    char what[160];
    many_what(op, n, inputs[0], lens[0], what, sizeof what);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pthread_mutex_lock(&m.lock);
        bool all = m.done == n || (w->cancel && m.next >= n);
        pthread_mutex_unlock(&m.lock);
        if (all || !started)
            break;
        struct timespec ts = { 0, 50 * 1000000L };
        nanosleep(&ts, NULL);
        pthread_mutex_lock(&m.lock);
        all = m.done == n;
        pthread_mutex_unlock(&m.lock);
        if (all)
            break;
        if (w->hook && !w->cancel && !w->hook(w->ctx, what, since(&t0), 1, w->max_attempts))
            w->cancel = 1;   /* the transfers stop within libcurl's next progress call */
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_destroy(&m.lock);
    return w->cancel ? diag_set(&ds[0], ST_IO, "Cancelled: %s stopped after %.1f s", what, since(&t0))
                     : ST_OK;
}
