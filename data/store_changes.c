/*
 * store_changes — the change log and the explorer's feed over it.
 *
 * Every item a committed write changes (PutItem, UpdateItem, DeleteItem,
 * BatchWriteItem, TransactWriteItems, through store_apply) appends one
 * row to `changes` in the write's own SQLite transaction, for every
 * table: the explorer's change feed reads any table's, and a stream is
 * only a window onto its table's rows (store_int.h; the Streams API is in
 * store_streams.c). The bulk interface (ddbx load, samples, pull) writes
 * none. Records are kept for the retention (24 hours unless
 * store_set_stream_times says otherwise) and trimmed oldest first in
 * bounded steps. On a remote table the feed reads the table's stream.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_int.h"
#include "model/ddbres_streams.h"
#include "model/ddbjson.h"
#include "model/ddbres_tables.h"
#include "model/itemenc.h"
#include "model/mem.h"

int64_t store_now_ms(store *s)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    int64_t t = (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
    /* Shared by the process's connections on the file (store_open_peer):
     * a record's time never goes below an earlier record's. */
    store_shared *sh = s->sh;
    if (!sh)
        return t;
    pthread_mutex_lock(&sh->lock);
    if (t < sh->last_ms)
        t = sh->last_ms;
    sh->last_ms = t;
    pthread_mutex_unlock(&sh->lock);
    return t;
}

void store_set_stream_times(store *s, double retention_s, double iterator_s)
{
    if (retention_s > 0)
        s->retention_ms = (int64_t)(retention_s * 1000);
    if (iterator_s > 0)
        s->iterator_ms = (int64_t)(iterator_s * 1000);
}

/* ---- the write side ---- */

/* One record: kind STORE_LOG_* (the ttl column). */
/* The record just logged for table tid, kept for store_set_own_changes. */
static status note_own(store *s, int64_t tid, diag *d)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT max(seq) FROM changes WHERE tid = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    status st = ST_OK;
    if (sqlite3_step(q) == SQLITE_ROW) {
        if (s->n_own + 2 > s->cap_own) {
            s->cap_own = s->cap_own ? s->cap_own * 2 : 64;
            s->own = xrealloc(s->own, s->cap_own * sizeof *s->own);
        }
        s->own[s->n_own++] = tid;
        s->own[s->n_own++] = sqlite3_column_int64(q, 0);
    } else {
        st = store_sqlerr(s, d);
    }
    sqlite3_finalize(q);
    return st;
}

void store_set_own_changes(store *s, store_own_fn fn, void *ctx)
{
    s->own_fn = fn;
    s->own_ctx = ctx;
    s->n_own = 0;
}

void store_own_committed(store *s, bool committed)
{
    if (committed && s->own_fn)
        for (size_t i = 0; i + 1 < s->n_own; i += 2)
            s->own_fn(s->own_ctx, s->own[i], s->own[i + 1]);
    s->n_own = 0;
}

static status log_record(store *s, const tinfo *t, int kind, const av *old, const av *new_item,
                         const buf *new_enc, diag *d)
{
    if (!old && !new_item)
        return ST_OK;
    /* "If you perform a PutItem or UpdateItem operation that does not
     * change any data in an item, DynamoDB Streams does not write a stream
     * record for that operation." (Developer Guide, Change data capture
     * for DynamoDB Streams.) */
    if (old && new_item && av_equal(old, new_item))
        return ST_OK;
    sqlite3_stmt *q = store_stmt(s, Q_CHANGE_INSERT, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_int64(q, 2, store_now_ms(s));
    sqlite3_bind_int(q, 3, kind);
    if (old) {
        buf_reset(&s->old_enc);
        itemenc_encode(&s->old_enc, old);
        sqlite3_bind_blob(q, 4, s->old_enc.data, (int)s->old_enc.len, SQLITE_STATIC);
    }
    buf enc = BUF_INIT;
    if (new_item) {
        if (!new_enc) {
            itemenc_encode(&enc, new_item);
            new_enc = &enc;
        }
        sqlite3_bind_blob(q, 5, new_enc->data, (int)new_enc->len, SQLITE_STATIC);
    }
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    buf_done(&enc);
    if (rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    return s->own_fn && kind == STORE_LOG_WRITE ? note_own(s, t->id, d) : ST_OK;
}

status store_log_change(store *s, const tinfo *t, const av *old, const av *new_item,
                        const buf *new_enc, diag *d)
{
    return log_record(s, t, s->ttl_delete ? STORE_LOG_TTL : STORE_LOG_WRITE, old, new_item, new_enc, d);
}

/* The key attributes of an item, by the table's schema. */

status store_log_history(store *s, const tinfo *t, const av *old, const av *new_item, diag *d)
{
    if (!new_item)
        return log_record(s, t, STORE_LOG_HISTORY, old, NULL, NULL, d);
    if (old && av_equal(old, new_item))
        return ST_OK;
    /* Undoing needs the old image and the key, not the new image: a
     * million-item load logs a million keys, not its items twice. */
    av key;
    table_def_key_of(&t->def, new_item, &key);
    status st = log_record(s, t, STORE_LOG_HISTORY, old, &key, NULL, d);
    av_done(&key);
    return st;
}

/* The last seq given in table tid (0: none yet). */
status store_last_seq(store *s, int64_t tid, int64_t *out, diag *d)
{
    *out = 0;
    sqlite3_stmt *q = store_stmt(s, Q_CHANGE_LAST_SEQ, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

status store_sql(store *s, const char *sql, const int64_t *args, int nargs, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    for (int i = 0; i < nargs; i++)
        sqlite3_bind_int64(q, i + 1, args[i]);
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static status step_int2(store *s, int which, int64_t a, int64_t b, diag *d)
{
    sqlite3_stmt *q = store_stmt(s, which, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, a);
    sqlite3_bind_int64(q, 2, b);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* A table whose records are kept past the stream retention (point-in-
 * time recovery): its streams' trim point moves on to the records older
 * than cutoff all the same, without deleting them, so a stream still
 * reads 24 hours. Starts from the oldest stream's horizon. */
static status mark_streams(store *s, int64_t tid, int64_t cutoff, int *budget, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT min(max(trimmed, start_seq)) FROM streams WHERE tid = ?1"
                           " AND (end_seq IS NULL OR trimmed < end_seq)", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    int rc = sqlite3_step(q);
    bool any = rc == SQLITE_ROW && sqlite3_column_type(q, 0) != SQLITE_NULL;
    int64_t from = any ? sqlite3_column_int64(q, 0) : 0;
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    if (!any)
        return ST_OK;
    if (sqlite3_prepare_v2(s->db, "SELECT seq, t FROM changes WHERE tid = ?1 AND seq > ?2 ORDER BY seq LIMIT ?3",
                           -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_int64(q, 2, from);
    sqlite3_bind_int(q, 3, *budget);
    int64_t last = 0;
    int n = 0;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_int64(q, 1) < cutoff) {
        last = sqlite3_column_int64(q, 0);
        n++;
    }
    sqlite3_finalize(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    *budget -= n > 0 ? n : 1;
    return last ? step_int2(s, Q_STREAM_TRIMMED, tid, last, d) : ST_OK;
}

/* Trims table tid's records older than cutoff (or, with point-in-time
 * recovery, older than its window), at most *budget of them. */
static status trim_table(store *s, int64_t tid, int64_t stream_cutoff, int *budget, diag *d)
{
    int64_t last = 0, last_t = 0, newest, cutoff;
    status st = store_history_cutoff(s, tid, stream_cutoff, &cutoff, d);
    if (st == ST_OK && cutoff < stream_cutoff)
        st = mark_streams(s, tid, stream_cutoff, budget, d);
    if (st == ST_OK)
        st = store_last_seq(s, tid, &newest, d);
    if (st != ST_OK || *budget <= 0)
        return st;
    sqlite3_stmt *q = store_stmt(s, Q_CHANGE_OLDEST, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_int(q, 2, *budget);
    int rc, n = 0;
    /* Times grow with seq (one process never goes backward; processes
     * share a clock), so the expired records are a prefix. */
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_int64(q, 1) < cutoff) {
        int64_t seq = sqlite3_column_int64(q, 0);
        if (seq == newest && sqlite3_column_int(q, 2))
            break;   /* emptied already: nothing more to do for this table */
        last = seq;
        last_t = sqlite3_column_int64(q, 1);
        n++;
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    *budget -= n > 0 ? n : 1;
    if (last == 0)
        return ST_OK;
    /* What went can no longer be undone: the log is complete from then. */
    if ((st = step_int2(s, Q_STREAM_TRIMMED, tid, last, d)) != ST_OK ||
        (st = store_history_trimmed(s, tid, last_t, d)) != ST_OK)
        return st;
    /* The newest row keeps its seq, emptied. */
    if (last == newest && (st = step_int2(s, Q_CHANGE_EMPTY, tid, last--, d)) != ST_OK)
        return st;
    return last > 0 ? step_int2(s, Q_CHANGE_TRIM, tid, last, d) : ST_OK;
}

status store_trim_changes(store *s, int max, diag *d)
{
    int64_t cutoff = store_now_ms(s) - s->retention_ms, tid = 0;
    status st = ST_OK;
    int budget = max;
    /* Table by table (a skip over the log's key). */
    while (st == ST_OK && budget > 0) {
        sqlite3_stmt *q = store_stmt(s, Q_CHANGE_NEXT_TID, d);
        if (!q)
            return d->code;
        sqlite3_bind_int64(q, 1, tid);
        int rc = sqlite3_step(q);
        bool more = rc == SQLITE_ROW;
        if (more)
            tid = sqlite3_column_int64(q, 0);
        sqlite3_reset(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return store_sqlerr(s, d);
        if (!more)
            break;
        st = trim_table(s, tid, cutoff, &budget, d);
    }
    /* The SYSTEM backups past their 35 days, a bounded step at a time. */
    if (st == ST_OK && budget > 0)
        st = store_backup_expire(s, budget, d);
    /* A disabled stream is deleted once its retention has passed, and with
     * the last one of a deleted table, that table's records. */
    if (st == ST_OK)
        st = store_sql(s, "DELETE FROM streams WHERE disabled IS NOT NULL AND disabled < ?1",
                      &cutoff, 1, d);
    if (st == ST_OK && sqlite3_changes(s->db) > 0)
        st = store_sql(s, "DELETE FROM changes WHERE tid NOT IN (SELECT id FROM tables)"
                      " AND tid NOT IN (SELECT tid FROM streams)", NULL, 0, d);
    return st;
}

/* A trim step before a stream read, so that records past the retention
 * are gone even when nothing has been written for a while. */
status store_trim_before_read(store *s, diag *d)
{
    if (s->read_only)
        return ST_OK;
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    st = store_trim_changes(s, 4096, d);
    return store_txn_end(s, st, d);
}

/* ---- the explorer's feed ---- */

void store_change_free(store_change *c)
{
    av_done(&c->keys);
    av_done(&c->old_item);
    av_done(&c->new_item);
}

status store_data_version(store *s, int64_t *out, diag *d)
{
    *out = 0;
    if (s->remote)
        return ST_OK;
    sqlite3_stmt *q = store_stmt(s, Q_DATA_VERSION, d);
    if (!q)
        return d->code;
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW)
        *out = sqlite3_column_int64(q, 0);
    sqlite3_reset(q);
    return rc == SQLITE_ROW ? ST_OK : store_sqlerr(s, d);
}

int64_t store_own_changes(store *s)
{
    return s->remote ? 0 : (int64_t)sqlite3_total_changes64(s->db);
}

/* The table's stream, from its description (NULL when it has none
 * enabled). */
static status stream_of(store *s, const char *table, char **arn, diag *d)
{
    ddb_res res;
    ddb_res_init(&res);
    status st = store_exec_table(s, DDB_DESCRIBE_TABLE, table, &res, d);
    const ddb_table_desc *td = res.tables ? res.tables->table : NULL;
    *arn = td && td->stream_arn && td->stream && td->stream->enabled.v ? xstrdup(td->stream_arn) : NULL;
    ddb_res_done(&res);
    return st;
}

static status remote_changes(store *s, const char *table, int64_t before_seq, size_t max,
                             store_change *out, size_t *n, diag *d);

status store_changes(store *s, const char *table, int64_t before_seq, size_t max,
                     store_change *out, size_t *n, diag *d)
{
    *n = 0;
    if (s->remote)
        return remote_changes(s, table, before_seq, max, out, n, d);
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    sqlite3_stmt *q = NULL;
    if ((st = store_table(s, table, &t, d)) != ST_OK)
        goto out;
    /* A version 1 file opened read-only has no change log: no changes. */
    if (sqlite3_prepare_v2(s->db, "SELECT seq, t, ttl, old, new FROM changes WHERE tid = ?1"
                           " AND seq < ?2 AND (old IS NOT NULL OR new IS NOT NULL) AND ttl < 2"
                           " ORDER BY seq DESC LIMIT ?3", -1, &q, NULL) != SQLITE_OK)
        goto out;
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_int64(q, 2, before_seq > 0 ? before_seq : INT64_MAX);
    sqlite3_bind_int64(q, 3, (int64_t)max);
    int rc;
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        store_change *c = &out[*n];
        memset(c, 0, sizeof *c);
        c->seq = sqlite3_column_int64(q, 0);
        c->t_ms = sqlite3_column_int64(q, 1);
        c->ttl = sqlite3_column_int(q, 2) != 0;
        if (sqlite3_column_type(q, 3) != SQLITE_NULL)
            st = itemenc_decode(sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3),
                                &c->old_item, d);
        if (st == ST_OK && sqlite3_column_type(q, 4) != SQLITE_NULL)
            st = itemenc_decode(sqlite3_column_blob(q, 4), (size_t)sqlite3_column_bytes(q, 4),
                                &c->new_item, d);
        if (st != ST_OK) {
            store_change_free(c);
            break;
        }
        c->event = c->old_item.type == AV_NONE ? STORE_INSERT
                 : c->new_item.type == AV_NONE ? STORE_REMOVE : STORE_MODIFY;
        table_def_key_of(&t->def, c->new_item.type == AV_M ? &c->new_item : &c->old_item, &c->keys);
        (*n)++;
    }
    if (st == ST_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        st = store_sqlerr(s, d);
out:
    sqlite3_finalize(q);
    return store_txn_end(s, st, d);
}

status store_change_seqs(store *s, store_seq **out, size_t *n, diag *d)
{
    *out = NULL;
    *n = 0;
    if (s->remote)
        return ST_OK;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(s->db, "SELECT name, id, (SELECT MAX(seq) FROM changes c WHERE c.tid = t.id)"
                           " FROM tables t ORDER BY name", -1, &q, NULL) != SQLITE_OK) {
        st = store_sqlerr(s, d);
        return store_txn_end(s, st, d);
    }
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            *out = xrealloc(*out, cap * sizeof **out);
        }
        store_seq *v = &(*out)[(*n)++];
        v->table = xstrdup((const char *)sqlite3_column_text(q, 0));
        v->tid = sqlite3_column_int64(q, 1);
        v->seq = sqlite3_column_int64(q, 2);
    }
    if (rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    return store_txn_end(s, st, d);
}

void store_seqs_free(store_seq *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i].table);
    free(v);
}

/* ---- the feed on a remote table: its stream ---- */


static void change_from_record(ddb_record *rec, store_change *c)
{
    memset(c, 0, sizeof *c);
    const char *ev = rec->event_name, *seq = rec->seq;
    c->event = ev && strcmp(ev, "INSERT") == 0 ? STORE_INSERT
             : ev && strcmp(ev, "REMOVE") == 0 ? STORE_REMOVE : STORE_MODIFY;
    /* Sequence numbers are decimal strings up to 40 digits: the explorer
     * only needs their order, which the last 18 digits keep within one
     * shard's reading. */
    size_t len = seq ? strlen(seq) : 0;
    c->seq = len ? strtoll(seq + (len > 18 ? len - 18 : 0), NULL, 10) : 0;
    c->t_ms = (int64_t)(rec->created * 1000);
    c->ttl = rec->principal && strcmp(rec->principal, "dynamodb.amazonaws.com") == 0;
    av_move(&c->keys, &rec->keys);
    av_move(&c->old_item, &rec->old_image);
    av_move(&c->new_item, &rec->new_image);
}

/* Every record of one shard from its trim horizon (at most 64 pages),
 * appended to *all. */
static status read_shard(store *s, const char *arn, const char *shard, store_change **all, size_t *n_all,
                         size_t *cap, diag *d)
{
    ddb_req req;
    ddb_res res;
    ddb_req_init(&req, DDB_GET_SHARD_ITERATOR);
    ddb_req_set_str(&req.ctl.stream, arn);
    ddb_req_set_str(&req.ctl.shard, shard ? shard : "");
    ddb_req_set_str(&req.ctl.iterator_type, "TRIM_HORIZON");
    status st = store_exec_once(s, &req, &res, d);
    char *iter = st == ST_OK && res.streams && res.streams->iterator ? xstrdup(res.streams->iterator) : NULL;
    ddb_res_done(&res);
    for (int pages = 0; st == ST_OK && iter && pages < 64; pages++) {
        ddb_req_init(&req, DDB_GET_RECORDS);
        ddb_req_set_str(&req.ctl.iterator, iter);
        st = store_exec_once(s, &req, &res, d);
        free(iter);
        iter = NULL;
        ddb_streams_res *r = res.streams;
        for (size_t i = 0; st == ST_OK && r && i < r->n_records; i++) {
            if (*n_all == *cap) {
                *cap = *cap ? *cap * 2 : 64;
                *all = xrealloc(*all, *cap * sizeof **all);
            }
            change_from_record(&r->records[i], &(*all)[(*n_all)++]);
        }
        if (st == ST_OK && r && r->n_records > 0 && r->next_iterator)
            iter = xstrdup(r->next_iterator);
        ddb_res_done(&res);
    }
    free(iter);
    return st;
}

static status remote_changes(store *s, const char *table, int64_t before_seq, size_t max,
                             store_change *out, size_t *n, diag *d)
{
    store_change *all = NULL;
    size_t n_all = 0, cap = 0;
    char *arn = NULL;
    status st = stream_of(s, table, &arn, d);
    if (st != ST_OK)
        return st;
    if (!arn)
        return diag_set(d, ST_NOT_FOUND, "%s has no stream: enable one to follow its changes", table);
    /* Every shard from its trim horizon (a stream keeps 24 hours), the
     * newest max kept. Reading stops at an open shard's end. */
    ddb_req req;
    ddb_res res;
    ddb_req_init(&req, DDB_DESCRIBE_STREAM);
    ddb_req_set_str(&req.ctl.stream, arn);
    st = store_exec_once(s, &req, &res, d);
    for (size_t i = 0; st == ST_OK && res.streams && i < res.streams->n_shards; i++)
        st = read_shard(s, arn, res.streams->shards[i].id, &all, &n_all, &cap, d);
    ddb_res_done(&res);
    free(arn);
    /* Newest first, older than before_seq. */
    for (size_t i = n_all; i-- > 0;) {
        if (st == ST_OK && *n < max && (before_seq <= 0 || all[i].seq < before_seq)) {
            out[(*n)++] = all[i];
            continue;
        }
        store_change_free(&all[i]);
    }
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            store_change_free(&out[i]);
        *n = 0;
    }
    free(all);
    return st;
}

