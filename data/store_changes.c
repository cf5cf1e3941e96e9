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
#include "model/ddbjson.h"
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

status store_log_change(store *s, const tinfo *t, const av *old, const av *new_item,
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
    sqlite3_bind_int(q, 3, s->ttl_delete ? 1 : 0);
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
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
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

status store_exec_sql(store *s, const char *sql, const int64_t *args, int nargs, diag *d)
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

/* Trims table tid's records older than cutoff, at most *budget of them. */
static status trim_table(store *s, int64_t tid, int64_t cutoff, int *budget, diag *d)
{
    int64_t last = 0, newest;
    status st = store_last_seq(s, tid, &newest, d);
    if (st != ST_OK)
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
        n++;
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    *budget -= n > 0 ? n : 1;
    if (last == 0)
        return ST_OK;
    if ((st = step_int2(s, Q_STREAM_TRIMMED, tid, last, d)) != ST_OK)
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
    /* A disabled stream is deleted once its retention has passed, and with
     * the last one of a deleted table, that table's records. */
    if (st == ST_OK)
        st = store_exec_sql(s, "DELETE FROM streams WHERE disabled IS NOT NULL AND disabled < ?1",
                      &cutoff, 1, d);
    if (st == ST_OK && sqlite3_changes(s->db) > 0)
        st = store_exec_sql(s, "DELETE FROM changes WHERE tid NOT IN (SELECT id FROM tables)"
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
    av_free(&c->keys);
    av_free(&c->old_item);
    av_free(&c->new_item);
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

/* The key attributes of an item, by the table's schema. */
static void keys_of(const table_def *def, const av *item, av *out)
{
    av_init_list(out, AV_M);
    const char *names[2] = { def->pk.name, def->sk.name };
    for (int i = 0; i < 2; i++) {
        const av *v = names[i] ? av_map_get(item, names[i], strlen(names[i])) : NULL;
        if (v) {
            av c;
            av_copy(&c, v);
            av_map_put(out, names[i], strlen(names[i]), &c);
        }
    }
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
                           " AND seq < ?2 AND (old IS NOT NULL OR new IS NOT NULL)"
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
        keys_of(&t->def, c->new_item.type == AV_M ? &c->new_item : &c->old_item, &c->keys);
        (*n)++;
    }
    if (st == ST_OK && rc != SQLITE_DONE && rc != SQLITE_ROW)
        st = store_sqlerr(s, d);
out:
    sqlite3_finalize(q);
    return store_txn_end(s, st, d);
}

/* ---- the feed on a remote table: its stream ---- */

static const char *jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static status rcall(store *s, const char *op, cJSON *req, cJSON **resp, diag *d)
{
    char *text = cJSON_PrintUnformatted(req), *out = NULL;
    status st = store_call(s, op, text, strlen(text), &out, d);
    cJSON_free(text);
    *resp = st == ST_OK && out ? cJSON_Parse(out) : NULL;
    free(out);
    if (st == ST_OK && !*resp)
        st = diag_set(d, ST_INTERNAL, "%s: the answer is not JSON", op);
    return st;
}

static status change_from_record(const cJSON *rec, store_change *c, diag *d)
{
    memset(c, 0, sizeof *c);
    const cJSON *db = cJSON_GetObjectItemCaseSensitive(rec, "dynamodb");
    const char *ev = jstr(rec, "eventName"), *seq = jstr(db, "SequenceNumber");
    c->event = ev && strcmp(ev, "INSERT") == 0 ? STORE_INSERT
             : ev && strcmp(ev, "REMOVE") == 0 ? STORE_REMOVE : STORE_MODIFY;
    /* Sequence numbers are decimal strings up to 40 digits: the explorer
     * only needs their order, which the last 18 digits keep within one
     * shard's reading. */
    size_t len = seq ? strlen(seq) : 0;
    c->seq = len ? strtoll(seq + (len > 18 ? len - 18 : 0), NULL, 10) : 0;
    const cJSON *at = cJSON_GetObjectItemCaseSensitive(db, "ApproximateCreationDateTime");
    c->t_ms = cJSON_IsNumber(at) ? (int64_t)(at->valuedouble * 1000) : 0;
    const cJSON *uid = cJSON_GetObjectItemCaseSensitive(rec, "userIdentity");
    c->ttl = uid && jstr(uid, "PrincipalId") && strcmp(jstr(uid, "PrincipalId"), "dynamodb.amazonaws.com") == 0;
    status st = ST_OK;
    const char *members[] = { "Keys", "OldImage", "NewImage" };
    av *dst[] = { &c->keys, &c->old_item, &c->new_item };
    for (int i = 0; i < 3 && st == ST_OK; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(db, members[i]);
        if (m)
            st = ddbjson_item_from_cjson(m, members[i], dst[i], d);
    }
    if (c->keys.type != AV_M) {
        av_free(&c->keys);
        av_init_list(&c->keys, AV_M);
    }
    return st;
}

static status remote_changes(store *s, const char *table, int64_t before_seq, size_t max,
                             store_change *out, size_t *n, diag *d)
{
    cJSON *req = cJSON_CreateObject(), *resp = NULL;
    store_change *all = NULL;
    size_t n_all = 0, cap = 0;
    cJSON_AddStringToObject(req, "TableName", table);
    status st = rcall(s, "DescribeTable", req, &resp, d);
    cJSON_Delete(req);
    if (st != ST_OK)
        return st;
    const cJSON *td = cJSON_GetObjectItemCaseSensitive(resp, "Table");
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(td, "StreamSpecification");
    const char *arnp = jstr(td, "LatestStreamArn");
    if (!arnp || !cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled"))) {
        cJSON_Delete(resp);
        return diag_set(d, ST_NOT_FOUND, "%s has no stream: enable one to follow its changes", table);
    }
    char *arn = xstrdup(arnp);
    cJSON_Delete(resp);
    resp = NULL;
    /* Every shard from its trim horizon (a stream keeps 24 hours), the
     * newest max kept. Reading stops at an open shard's end. */
    req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "StreamArn", arn);
    st = rcall(s, "DescribeStream", req, &resp, d);
    cJSON_Delete(req);
    const cJSON *shards = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(resp, "StreamDescription"), "Shards");
    const cJSON *sh;
    cJSON_ArrayForEach(sh, shards) {
        if (st != ST_OK)
            break;
        cJSON *ir = cJSON_CreateObject(), *iresp = NULL;
        cJSON_AddStringToObject(ir, "StreamArn", arn);
        cJSON_AddStringToObject(ir, "ShardId", jstr(sh, "ShardId") ? jstr(sh, "ShardId") : "");
        cJSON_AddStringToObject(ir, "ShardIteratorType", "TRIM_HORIZON");
        st = rcall(s, "GetShardIterator", ir, &iresp, d);
        cJSON_Delete(ir);
        char *iter = st == ST_OK && jstr(iresp, "ShardIterator") ? xstrdup(jstr(iresp, "ShardIterator")) : NULL;
        cJSON_Delete(iresp);
        for (int pages = 0; st == ST_OK && iter && pages < 64; pages++) {
            cJSON *gr = cJSON_CreateObject(), *gresp = NULL;
            cJSON_AddStringToObject(gr, "ShardIterator", iter);
            st = rcall(s, "GetRecords", gr, &gresp, d);
            cJSON_Delete(gr);
            free(iter);
            iter = NULL;
            const cJSON *recs = cJSON_GetObjectItemCaseSensitive(gresp, "Records"), *rec;
            cJSON_ArrayForEach(rec, recs) {
                if (st != ST_OK)
                    break;
                if (n_all == cap) {
                    cap = cap ? cap * 2 : 64;
                    all = xrealloc(all, cap * sizeof *all);
                }
                st = change_from_record(rec, &all[n_all], d);
                n_all++;
            }
            if (st == ST_OK && cJSON_GetArraySize(recs) > 0 && jstr(gresp, "NextShardIterator"))
                iter = xstrdup(jstr(gresp, "NextShardIterator"));
            cJSON_Delete(gresp);
        }
        free(iter);
    }
    cJSON_Delete(resp);
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

