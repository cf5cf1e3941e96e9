/*
 * remote_wait — a DynamoDB request that does not block its caller's
 * screen (issue 42, item 2): remote_call runs on a worker thread while the
 * calling thread waits in slices of 50 ms, calling a hook each time with
 * what it waits for ("Query on GSI1"), the seconds so far and the attempt
 * (1, then 2, ... as retries go); the hook returning false cancels the
 * request in flight (the transfer, or the sleep before a retry, stops at
 * once: "Cancelled: interrupted"). The hook is where the explorer shows
 * the wait and reads Esc; it runs on the calling thread, never on the
 * worker, so it may draw.
 *
 * A request cancelled is abandoned, not waited for: its worker stops on
 * its own (libcurl notices within a second) while the next request goes
 * at once on another connection (a copy of the remote, remote_dup, made
 * on need and kept); the abandoned answer is dropped when its worker is
 * joined, at the next request after it finished or at free (issue 42).
 *
 * Ownership: a waiter borrows its remote (which must outlive it) and
 * takes over its cancel flag (remote_set_cancel); free it with
 * remote_waiter_free, which waits for the workers of abandoned requests.
 * One request at a time per waiter: the caller waits for each, the
 * request's input copied for its worker. Nothing here prints.
 */
#ifndef DDBX_REMOTE_WAIT_H
#define DDBX_REMOTE_WAIT_H

#include <stdbool.h>
#include <stddef.h>

#include "data/remote.h"
#include "model/status.h"

typedef struct remote_waiter remote_waiter;

/* what: "Query on GSI1", "DescribeTable on Orders"; seconds since the
 * request started; attempt as remote_attempt says. False: cancel. */
typedef bool (*remote_wait_fn)(void *ctx, const char *what, double seconds, int attempt,
                               int max_attempts);

remote_waiter *remote_waiter_new(remote *r, int max_attempts, remote_wait_fn hook, void *ctx);
void remote_waiter_free(remote_waiter *w);

/* remote_send's contract (data/store.h's store_send_fn), ctx a waiter. */
status remote_send_waiting(void *ctx, const char *op, const char *input, size_t len, char **out,
                           diag *d);

/* Runs fn(arg) on the thread that waits in remote_send_waiting, and
 * returns when it has run: for what the request needs of the screen
 * while it is under way (an MFA code asked for when credentials are
 * refreshed). Called from the waiting thread, or before any request, fn
 * runs at once; from the worker of a request already cancelled, not at
 * all (the caller keeps what it had: no answer). */
void remote_waiter_on_caller(remote_waiter *w, void (*fn)(void *), void *arg);

/* At most this many requests of remote_send_many at once. */
#define REMOTE_WAIT_POOL 8

/* n requests of one operation together (data/store.h's
 * store_send_many_fn), at most REMOTE_WAIT_POOL at once, each on a
 * connection of its own (remote_dup'd once and kept), the hook called as
 * for one. Each request's answer in outs[i] (the caller frees), its
 * status in sts[i], its error in ds[i]. Returns ST_OK unless the wait was
 * cancelled (the requests not sent then say so). */
status remote_send_many(void *ctx, const char *op, size_t n, const char *const *inputs,
                        const size_t *lens, char **outs, status *sts, diag *ds);

/* remote_send_many with each request's own operation (ops[i]): what
 * opening a table reads (DescribeTable, DescribeTimeToLive, Scan)
 * together; data/store.h's store_send_mixed_fn. */
status remote_send_mixed(void *ctx, size_t n, const char *const *ops, const char *const *inputs,
                         const size_t *lens, char **outs, status *sts, diag *ds);

/* "Query on GSI1" from the operation and its JSON body (IndexName, else
 * TableName; the operation alone without either). For tests too. */
void remote_wait_what(const char *op, const char *input, size_t len, char *out, size_t cap);

#endif
