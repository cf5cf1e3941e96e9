/*
 * store_getmany — many items of one table read by their keys
 * (store_get_many, data/store.h): BatchGetItem of 100 keys each, several
 * sent together on a remote store (issue 42: staging the delete of many
 * marked items read them one GetItem at a time).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store.h"
#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbreq.h"
#include "model/mem.h"

/* DynamoDB's most keys in one BatchGetItem (API reference, BatchGetItem). */
#define GET_MANY_KEYS 100
/* Requests sent together on a remote store (data/remote_wait.h's pool). */
#define GET_MANY_POOL 8
/* Rounds in a row in which every key came back unprocessed before giving
 * up; each waits longer first (50 ms, doubling: DynamoDB's advice for
 * UnprocessedKeys is to retry with an exponential backoff). */
#define GET_MANY_RETRIES 6

/* The index in chunk[0..n) of the key that item (or key) has. */
static size_t key_of(const table_def *def, const av *keys, const size_t *chunk, size_t n, const av *item)
{
    for (size_t j = 0; j < n; j++)
        if (table_def_same_item(def, item, &keys[chunk[j]]))
            return j;
    return n;
}

/* One round's answers: each item found into out, each key not processed
 * appended to next (*n_next). */
static void take_answer(const char *table, const table_def *def, const av *keys, const size_t *chunk,
                        size_t n, ddb_res *res, av *out, size_t *next, size_t *n_next)
{
    av *items = av_map_get_mut(&res->responses, table, strlen(table));
    for (size_t i = 0; items && items->type == AV_L && i < items->u.l.len; i++) {
        size_t j = key_of(def, keys, chunk, n, &items->u.l.v[i]);
        if (j < n && out[chunk[j]].type == AV_NONE)
            av_move(&out[chunk[j]], &items->u.l.v[i]);
    }
    for (size_t a = 0; a < res->unprocessed.n_acts; a++) {
        const av *left = &res->unprocessed.acts[a].keys;
        for (size_t i = 0; left->type == AV_L && i < left->u.l.len; i++) {
            size_t j = key_of(def, keys, chunk, n, &left->u.l.v[i]);
            if (j < n)
                next[(*n_next)++] = chunk[j];
        }
    }
}

/* Sends the round's requests: together on a remote store that can, else
 * one after the other. */
static status send_round(store *s, const ddb_req *reqs, size_t n, ddb_res *res, diag *d)
{
    if (n > 1 && s->remote && s->remote->send_many)
        return srem_read_many(s, reqs, n, res, d);
    status st = ST_OK;
    for (size_t i = 0; i < n && st == ST_OK; i++) {
        ddb_err err;
        ddb_err_init(&err);
        st = store_exec(s, &reqs[i], &res[i], &err);
        if (st != ST_OK)
            *d = err.d;
        ddb_err_done(&err);
    }
    return st;
}

static void backoff(int idle)
{
    long ms = 50L << (idle - 1);
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* One round: the first keys of todo (up to the pool's requests of 100),
 * the ones left unprocessed put back first. How many were taken in *taken. */
static status get_round(store *s, const char *table, const table_def *def, const av *keys, bool consistent,
                        size_t *todo, size_t *n_todo, av *out, size_t *taken, size_t *unprocessed, diag *d)
{
    size_t pool = s->remote && s->remote->send_many ? GET_MANY_POOL : 1;
    size_t n_req = (*n_todo + GET_MANY_KEYS - 1) / GET_MANY_KEYS;
    if (n_req > pool)
        n_req = pool;
    *taken = *n_todo < n_req * GET_MANY_KEYS ? *n_todo : n_req * GET_MANY_KEYS;
    ddb_req reqs[GET_MANY_POOL];
    ddb_res res[GET_MANY_POOL];
    for (size_t k = 0; k < n_req; k++) {
        ddb_req_init(&reqs[k], DDB_BATCH_GET);
        ddb_req *g = ddb_req_add(&reqs[k], DDB_GET);
        ddb_req_set_str(&g->table, table);
        g->consistent = consistent;
        av_init_list(&g->keys, AV_L);
        for (size_t i = k * GET_MANY_KEYS; i < *taken && i < (k + 1) * GET_MANY_KEYS; i++) {
            av key;
            av_copy(&key, &keys[todo[i]]);
            av_list_push(&g->keys, &key);
        }
        ddb_res_init(&res[k]);
    }
    status st = send_round(s, reqs, n_req, res, d);
    size_t *left = xcalloc(*taken ? *taken : 1, sizeof *left), n_left = 0;
    for (size_t k = 0; k < n_req; k++) {
        size_t from = k * GET_MANY_KEYS, to = from + GET_MANY_KEYS < *taken ? from + GET_MANY_KEYS : *taken;
        if (st == ST_OK)
            take_answer(table, def, keys, todo + from, to - from, &res[k], out, left, &n_left);
        ddb_req_done(&reqs[k]);
        ddb_res_done(&res[k]);
    }
    if (st == ST_OK) {
        /* What is left: the unprocessed first, then the keys not sent yet. */
        size_t rest = *n_todo - *taken;
        memmove(todo + n_left, todo + *taken, rest * sizeof *todo);
        memcpy(todo, left, n_left * sizeof *todo);
        *n_todo = n_left + rest;
        *unprocessed = n_left;
    }
    free(left);
    return st;
}

status store_get_many(store *s, const char *table, const table_def *def, const av *keys, size_t n,
                      bool consistent, store_progress_fn progress, void *ctx, av *out, diag *d)
{
    for (size_t i = 0; i < n; i++)
        out[i].type = AV_NONE;
    size_t *todo = xcalloc(n ? n : 1, sizeof *todo), n_todo = n;
    for (size_t i = 0; i < n; i++)
        todo[i] = i;
    status st = ST_OK;
    uint64_t done = 0;
    int idle = 0;
    while (n_todo && st == ST_OK) {
        size_t taken = 0, unprocessed = 0;
        st = get_round(s, table, def, keys, consistent, todo, &n_todo, out, &taken, &unprocessed, d);
        if (st != ST_OK)
            break;
        done += taken - unprocessed;
        idle = unprocessed == taken ? idle + 1 : 0;
        if (idle > GET_MANY_RETRIES)
            st = diag_set(d, ST_IO, "BatchGetItem on %s left %zu key%s unprocessed after %d tries", table, n_todo,
                          n_todo == 1 ? "" : "s", idle);
        else if (n_todo && progress && !progress(ctx, done))
            st = diag_set(d, ST_IO, "Stopped: %llu of the %zu items of %s read", (unsigned long long)done, n, table);
        else if (idle)
            backoff(idle);
    }
    free(todo);
    if (st != ST_OK)
        for (size_t i = 0; i < n; i++)
            av_done(&out[i]);
    return st;
}
