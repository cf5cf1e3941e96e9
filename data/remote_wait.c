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

/* A connection of the waiter's: its remote (the borrowed one first, then
 * copies made on need) with a cancel flag of its own, so that a request
 * abandoned on it stops while the next one goes on another. */
typedef struct conn {
    remote *r;
    bool owned;                      /* remote_dup'd here: closed at free */
    volatile sig_atomic_t cancel;
    struct run *left;                /* an abandoned request still on it */
    pthread_t left_th;
} conn;

/* One request of remote_send_waiting, shared by the caller and the
 * worker: freed by whoever sees it last (the caller when it waited to
 * the end, else the reaping of its connection). */
typedef struct run {
    struct remote_waiter *w;
    conn *c;
    char *op, *input;                /* copies: the worker may outlive the call */
    size_t len;
    char *out;
    diag d;
    status st;
    bool done;                       /* under the waiter's lock */
    bool abandoned;
} run;

/* At most this many connections: the pool of remote_send_many, and one
 * more for each request abandoned while its worker finishes. */
#define MAX_CONNS (REMOTE_WAIT_POOL + 4)

struct remote_waiter {
    remote *r;
    int max_attempts;
    remote_wait_fn hook;
    void *ctx;
    volatile sig_atomic_t cancel;    /* the wait under way was cancelled */
    pthread_mutex_t lock;
    pthread_cond_t done_cv;
    /* work the worker hands to the waiting thread (remote_waiter_on_caller) */
    pthread_t caller;
    bool has_caller, waiting;
    void (*job)(void *);
    void *job_arg;
    bool job_done;
    conn conns[MAX_CONNS];
    size_t n_conns;
};

/* The request the calling thread runs, on a worker (NULL elsewhere). */
static __thread run *this_run;

static void run_free(run *u)
{
    free(u->op);
    free(u->input);
    free(u->out);
    free(u);
}

/* Joins c's abandoned worker (at once when it has finished, else only
 * when wait) and drops its answer. */
static void reap(remote_waiter *w, conn *c, bool wait)
{
    if (!c->left)
        return;
    pthread_mutex_lock(&w->lock);
    bool done = c->left->done;
    pthread_mutex_unlock(&w->lock);
    if (!done && !wait)
        return;
    pthread_join(c->left_th, NULL);
    run_free(c->left);
    c->left = NULL;
}

/* One more connection, a copy of the waiter's remote (NULL: MAX_CONNS
 * reached, or the copy failed). On the caller's thread. */
static conn *new_conn(remote_waiter *w)
{
    remote *c = NULL;
    diag d;
    diag_init(&d);
    if (w->n_conns >= MAX_CONNS || remote_dup(w->r, &c, &d) != ST_OK)
        return NULL;
    conn *n = &w->conns[w->n_conns++];
    n->r = c;
    n->owned = true;
    n->cancel = 0;
    remote_set_cancel(c, &n->cancel);
    return n;
}

/* A connection no request is on (made when every one is busy, up to
 * MAX_CONNS; past that the oldest abandoned request is waited for). */
static conn *free_conn(remote_waiter *w)
{
    for (size_t i = 0; i < w->n_conns; i++) {
        reap(w, &w->conns[i], false);
        if (!w->conns[i].left)
            return &w->conns[i];
    }
    conn *n = new_conn(w);
    if (n)
        return n;
    reap(w, &w->conns[0], true);
    return &w->conns[0];
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
    w->conns[0].r = r;
    w->n_conns = 1;
    remote_set_cancel(r, &w->conns[0].cancel);
    return w;
}

void remote_waiter_free(remote_waiter *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_conns; i++) {
        reap(w, &w->conns[i], true);
        if (w->conns[i].owned)
            remote_close(w->conns[i].r);
    }
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
    /* A batch: its first table ("BatchGetItem on Big"). */
    const cJSON *ri = cJSON_GetObjectItemCaseSensitive(in, "RequestItems");
    if (!on && cJSON_IsObject(ri) && ri->child && ri->child->string)
        on = ri->child->string;
    if (on)
        snprintf(out, cap, "%s on %s", op, on);
    else
        snprintf(out, cap, "%s", op);
    cJSON_Delete(in);
}

static void *work(void *arg)
{
    run *u = arg;
    this_run = u;
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = remote_call(u->c->r, u->op, u->input, u->len, &out, &d);
    pthread_mutex_lock(&u->w->lock);
    u->out = out;
    u->d = d;
    u->st = st;
    u->done = true;
    pthread_cond_broadcast(&u->w->done_cv);
    pthread_mutex_unlock(&u->w->lock);
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
    if (!w->waiting || (this_run && this_run->abandoned)) {
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

/* 50 ms from now on the clock pthread_cond_timedwait reads: a wait's
 * slice, after which its hook is called. */
static void slice_end(struct timespec *until)
{
    clock_gettime(CLOCK_REALTIME, until);
    until->tv_nsec += 50 * 1000000L;
    if (until->tv_nsec >= 1000000000L) {
        until->tv_sec++;
        until->tv_nsec -= 1000000000L;
    }
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
    /* A request abandoned before is not waited for: this one goes on a
     * connection no request is on (issue 42). */
    conn *c = free_conn(w);
    w->cancel = 0;
    c->cancel = 0;
    run *u = xcalloc(1, sizeof *u);
    u->w = w;
    u->c = c;
    u->op = xstrdup(op);
    u->input = xmalloc(len + 1);
    memcpy(u->input, input, len);
    u->input[len] = '\0';
    u->len = len;
    diag_init(&u->d);
    pthread_t th;
    if (pthread_create(&th, NULL, work, u) != 0) {
        run_free(u);
        return remote_call(c->r, op, input, len, out, d);   /* no thread: as it was */
    }
    char what[160];
    remote_wait_what(op, input, len, what, sizeof what);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_mutex_lock(&w->lock);
    w->caller = pthread_self();
    w->has_caller = true;
    w->waiting = true;
    while (!u->done) {
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
        slice_end(&until);
        int rc = pthread_cond_timedwait(&w->done_cv, &w->lock, &until);
        if (u->done || w->job || rc != ETIMEDOUT)
            continue;
        pthread_mutex_unlock(&w->lock);
        /* The hook draws and reads keys: never under the lock. */
        if (w->hook && !w->cancel &&
            !w->hook(w->ctx, what, since(&t0), remote_attempt(c->r), w->max_attempts))
            w->cancel = c->cancel = 1;
        pthread_mutex_lock(&w->lock);
        if (w->cancel && !u->done) {
            /* Back to the screen at once; the worker stops on its own
             * (libcurl notices within a second), its connection kept
             * out of use until then and its answer dropped. */
            w->waiting = false;
            u->abandoned = true;
            pthread_mutex_unlock(&w->lock);
            c->left = u;
            c->left_th = th;
            return diag_set(d, ST_IO, "Cancelled: %s stopped after %.1f s (nothing more was read)", what,
                            since(&t0));
        }
    }
    w->waiting = false;
    pthread_mutex_unlock(&w->lock);
    pthread_join(th, NULL);
    *out = u->out;
    u->out = NULL;
    *d = u->d;
    status st = u->st;
    run_free(u);
    if (st != ST_OK && w->cancel) {
        /* Say what was stopped, and that Esc stopped it. */
        diag_set(d, ST_IO, "Cancelled: %s stopped after %.1f s (nothing more was read)", what, since(&t0));
    }
    return st;
}

/* ---- several requests together ---- */

/* Up to want connections no request is on, into cs (at least one: the
 * oldest abandoned request waited for when there is no other way), made
 * here on the caller's thread as remote_dup wants; their cancel flags
 * cleared. How many. */
static size_t take_conns(remote_waiter *w, size_t want, conn **cs)
{
    size_t k = 0;
    for (size_t i = 0; i < w->n_conns && k < want; i++) {
        reap(w, &w->conns[i], false);
        if (!w->conns[i].left)
            cs[k++] = &w->conns[i];
    }
    conn *n;
    while (k < want && (n = new_conn(w)))
        cs[k++] = n;
    if (!k)
        cs[k++] = free_conn(w);
    for (size_t i = 0; i < k; i++)
        cs[i]->cancel = 0;
    return k;
}

typedef struct many_run {
    remote_waiter *w;
    const char *const *ops;  /* each request's operation */
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
        status st = remote_call(mw->r, m->ops[i], m->inputs[i], m->lens[i], &out, &d);
        pthread_mutex_lock(&m->lock);
        m->outs[i] = out;
        m->ds[i] = d;
        m->sts[i] = st;
        m->done++;
        pthread_mutex_unlock(&m->lock);
        /* The caller waits on the waiter's condition: told at once. */
        pthread_mutex_lock(&m->w->lock);
        pthread_cond_broadcast(&m->w->done_cv);
        pthread_mutex_unlock(&m->w->lock);
    }
    return NULL;
}

/* What a batch waits for: "Scan on Big, 8 segments" for the pages of a
 * parallel Scan (their TotalSegments; issue 42 item 4), "5 DescribeTable
 * requests together" for one operation, else the first two named. */
static void many_what(size_t n, const char *const *ops, const char *input, size_t len, char *out,
                      size_t cap)
{
    bool one_op = true;
    for (size_t i = 1; i < n && one_op; i++)
        one_op = strcmp(ops[i], ops[0]) == 0;
    if (!one_op) {
        snprintf(out, cap, "%zu requests together (%s, %s%s)", n, ops[0], ops[1], n > 2 ? ", ..." : "");
        return;
    }
    cJSON *in = cJSON_ParseWithLength(input, len);
    const cJSON *segs = cJSON_GetObjectItemCaseSensitive(in, "TotalSegments");
    if (cJSON_IsNumber(segs)) {
        char on[128];
        remote_wait_what(ops[0], input, len, on, sizeof on);
        snprintf(out, cap, "%s, %d segments", on, segs->valueint);
    } else if (cJSON_GetObjectItemCaseSensitive(in, "RequestItems")) {
        char on[128];   /* "BatchGetItem on Big, 8 requests together" */
        remote_wait_what(ops[0], input, len, on, sizeof on);
        snprintf(out, cap, "%.100s, %zu requests together", on, n);
    } else {
        snprintf(out, cap, "%zu %s requests together", n, ops[0]);
    }
    cJSON_Delete(in);
}

status remote_send_mixed(void *ctx, size_t n, const char *const *ops, const char *const *inputs,
                         const size_t *lens, char **outs, status *sts, diag *ds)
{
    remote_waiter *w = ctx;
    w->cancel = 0;
    for (size_t i = 0; i < n; i++) {
        outs[i] = NULL;
        sts[i] = diag_set(&ds[i], ST_IO, "Cancelled: %s was not sent", ops[i]);
    }
    if (!n)
        return ST_OK;
    size_t want = n < REMOTE_WAIT_POOL ? n : REMOTE_WAIT_POOL;
    conn *cs[REMOTE_WAIT_POOL];
    size_t k = take_conns(w, want, cs);
    many_run m = { w, ops, n, 0, 0, inputs, lens, outs, sts, ds, PTHREAD_MUTEX_INITIALIZER };
    many_worker mw[REMOTE_WAIT_POOL];
    pthread_t th[REMOTE_WAIT_POOL];
    size_t started = 0;
    for (size_t t = 0; t < k; t++) {
        mw[t] = (many_worker){ &m, cs[t]->r };
        if (pthread_create(&th[started], NULL, many_work, &mw[t]) == 0)
            started++;
    }
    if (!started)
        many_work(&mw[0]);   /* no thread: one after the other, here */
    char what[160];
    many_what(n, ops, inputs[0], lens[0], what, sizeof what);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        pthread_mutex_lock(&m.lock);
        bool all = m.done == n || (w->cancel && m.next >= n);
        pthread_mutex_unlock(&m.lock);
        if (all || !started)
            break;
        /* Woken by each answer (many_work), else every 50 ms for the hook. */
        struct timespec until;
        slice_end(&until);
        pthread_mutex_lock(&w->lock);
        pthread_mutex_lock(&m.lock);
        all = m.done == n;
        pthread_mutex_unlock(&m.lock);
        int rc = all ? 0 : pthread_cond_timedwait(&w->done_cv, &w->lock, &until);
        pthread_mutex_unlock(&w->lock);
        if (all || rc != ETIMEDOUT)
            continue;
        if (w->hook && !w->cancel && !w->hook(w->ctx, what, since(&t0), 1, w->max_attempts)) {
            w->cancel = 1;   /* the transfers stop within libcurl's next progress call */
            for (size_t t = 0; t < k; t++)
                cs[t]->cancel = 1;
        }
    }
    for (size_t t = 0; t < started; t++)
        pthread_join(th[t], NULL);
    pthread_mutex_destroy(&m.lock);
    return w->cancel ? diag_set(&ds[0], ST_IO, "Cancelled: %s stopped after %.1f s", what, since(&t0))
                     : ST_OK;
}

status remote_send_many(void *ctx, const char *op, size_t n, const char *const *inputs,
                        const size_t *lens, char **outs, status *sts, diag *ds)
{
    const char **ops = xcalloc(n ? n : 1, sizeof *ops);
    for (size_t i = 0; i < n; i++)
        ops[i] = op;
    status st = remote_send_mixed(ctx, n, ops, inputs, lens, outs, sts, ds);
    free(ops);
    return st;
}
