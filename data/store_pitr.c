/*
 * store_pitr — each table's history (table `history`, store_int.h) and
 * point-in-time recovery over the change log.
 *
 * The table as it was at a moment T is the table now with every change
 * after T undone: for each key changed since, the old image of its first
 * change after T (none: the item did not exist). That needs the log to
 * hold every change after T, which `history.complete` tracks: a table's
 * log is complete from its creation; a bulk write that leaves no record
 * (ddbx load, samples, pull on a table without recovery) moves it to the
 * bulk write's commit; trimming moves it past what it removed. With
 * recovery enabled the bulk writes log history-only records (the old
 * image and the key, store_log_history) and trimming
 * keeps the table's records for its RecoveryPeriodInDays, so the window
 * DynamoDB promises, max(enable time, now - period) .. now, is always
 * complete. Undoing walks the records newest first from the table's end
 * (its seq order; times never go backward there), so it costs the number
 * of changes since T, whatever the table's size.
 *
 * DynamoDB's behaviour, and where it comes from: the API reference
 * (UpdateContinuousBackups, DescribeContinuousBackups,
 * RestoreTableToPointInTime; RecoveryPeriodInDays 1 to 35, 35 when not
 * given), the developer guide ("Point-in-time recovery": restores go to a
 * new table; GSIs, LSIs, capacity and encryption come from the source's
 * current settings; streams, TTL, tags and the recovery setting are not
 * restored), DynamoDB's answers as observed (ack-api-quirks notes:
 * enabling again keeps the window, disabling then enabling restarts it,
 * the period cannot be given when disabling; the messages quoted). ddbx's
 * own choice: LatestRestorableDateTime is now (DynamoDB's trails by about
 * five minutes).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

#define DAY_MS (24LL * 3600 * 1000)

/* ---- history ---- */

static status store_history_get(store *s, int64_t tid, store_hist *h, diag *d)
{
    int64_t now = store_now_ms(s);
    *h = (store_hist){ .complete = now, .days = STORE_PITR_DAYS_MAX };
    if (!store_history_has(s))
        return ST_OK;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT complete, pitr, days FROM history WHERE tid = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        h->complete = sqlite3_column_int64(q, 0);
        h->pitr = sqlite3_column_type(q, 1) != SQLITE_NULL;
        h->pitr_since = sqlite3_column_int64(q, 1);
        h->days = sqlite3_column_int(q, 2);
    }
    sqlite3_finalize(q);
    return rc == SQLITE_ROW || rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

status store_history_pitr(store *s, int64_t tid, bool *pitr, diag *d)
{
    store_hist h;
    status st = store_history_get(s, tid, &h, d);
    *pitr = st == ST_OK && h.pitr;
    return st;
}

status store_history_created(store *s, int64_t tid, diag *d)
{
    if (!store_history_has(s))
        return ST_OK;
    int64_t args[2] = { tid, store_now_ms(s) };
    return store_sql(s, "INSERT OR REPLACE INTO history(tid, complete) VALUES(?1, ?2)", args, 2, d);
}

void store_history_note_unlogged(store *s, int64_t tid)
{
    for (size_t i = 0; i < s->n_unlogged; i++)
        if (s->unlogged[i] == tid)
            return;
    if (s->n_unlogged == s->cap_unlogged) {
        s->cap_unlogged = s->cap_unlogged ? s->cap_unlogged * 2 : 4;
        s->unlogged = xrealloc(s->unlogged, s->cap_unlogged * sizeof *s->unlogged);
    }
    s->unlogged[s->n_unlogged++] = tid;
}

status store_history_unlogged(store *s, diag *d)
{
    status st = ST_OK;
    for (size_t i = 0; st == ST_OK && store_history_has(s) && i < s->n_unlogged; i++) {
        int64_t args[2] = { s->unlogged[i], store_now_ms(s) };
        st = store_sql(s, "UPDATE history SET complete = max(complete, ?2) WHERE tid = ?1", args, 2, d);
    }
    return st;
}

status store_history_cutoff(store *s, int64_t tid, int64_t stream_cutoff, int64_t *keep_cutoff, diag *d)
{
    store_hist h;
    status st = store_history_get(s, tid, &h, d);
    *keep_cutoff = stream_cutoff;
    if (st == ST_OK && h.pitr) {
        int64_t window = store_now_ms(s) - h.days * DAY_MS;
        if (window < *keep_cutoff)
            *keep_cutoff = window;
    }
    return st;
}

status store_history_trimmed(store *s, int64_t tid, int64_t upto_ms, diag *d)
{
    if (!store_history_has(s))
        return ST_OK;
    int64_t args[2] = { tid, upto_ms };
    return store_sql(s, "UPDATE history SET complete = max(complete, ?2) WHERE tid = ?1", args, 2, d);
}

int64_t store_pitr_earliest(const store_hist *h, int64_t now)
{
    int64_t e = now - h->days * DAY_MS;
    if (h->pitr_since > e)
        e = h->pitr_since;
    if (h->complete > e)
        e = h->complete;
    return e < now ? e : now;
}

/* "2026-10-08T23:16:33Z", as DynamoDB quotes times in its messages. */
static void iso(char out[32], int64_t ms)
{
    time_t sec = (time_t)(ms / 1000);
    struct tm tm;
    gmtime_r(&sec, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

status store_pitr_window_check(store *s, int64_t tid, const char *name, int64_t at_ms, diag *d)
{
    store_hist h;
    status st = store_history_get(s, tid, &h, d);
    if (st != ST_OK)
        return st;
    /* Observed: "Point in time recovery is not enabled for table 'T'";
     * "RestoreDateTime '...' must be within EarliestRestorableDateTime
     * '...' and LatestRestorableDateTime '...'". */
    if (!h.pitr)
        return diag_set(d, ST_PITR_UNAVAILABLE, "Point in time recovery is not enabled for table '%s'", name);
    int64_t now = store_now_ms(s), earliest = store_pitr_earliest(&h, now);
    if (at_ms < earliest || at_ms > now) {
        char a[32], e[32], l[32];
        iso(a, at_ms);
        iso(e, earliest);
        iso(l, now);
        return diag_set(d, ST_INVALID_RESTORE_TIME, "RestoreDateTime '%s' must be within"
                        " EarliestRestorableDateTime '%s' and LatestRestorableDateTime '%s'", a, e, l);
    }
    return ST_OK;
}

/* ---- undoing ---- */

static status db_err(sqlite3 *db, diag *d)
{
    return diag_set(d, ST_INTERNAL, "sqlite: %s", sqlite3_errmsg(db));
}

status store_undo_walk(sqlite3 *db, store *s, const table_def *def, int64_t tid, int64_t at_ms,
                       store_undo_fn fn, void *ctx, diag *d)
{
    (void)s;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(db, "SELECT t, old, new FROM changes WHERE tid = ?1 ORDER BY seq DESC", -1, &q,
                           NULL) != SQLITE_OK)
        return db_err(db, d);
    sqlite3_bind_int64(q, 1, tid);
    const char *names[2] = { def->pk.name, def->sk.name };
    size_t lens[2] = { strlen(def->pk.name), def->sk.name ? strlen(def->sk.name) : 0 };
    size_t n_names = def->sk.name ? 2 : 1;
    store_key k;
    store_key_init(&k);
    status st = ST_OK;
    int rc;
    /* Newest first, back to the first change at or before at_ms: the
     * commits after it are the ones to undo. */
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW && sqlite3_column_int64(q, 0) > at_ms) {
        bool has_old = sqlite3_column_type(q, 1) != SQLITE_NULL;
        int col = sqlite3_column_type(q, 2) != SQLITE_NULL ? 2 : has_old ? 1 : 0;
        if (!col)
            continue;   /* a record emptied by trimming */
        av keys;
        st = itemenc_decode_some(sqlite3_column_blob(q, col), (size_t)sqlite3_column_bytes(q, col), names,
                                 lens, n_names, &keys, d);
        if (st != ST_OK)
            break;
        buf_reset(&k.pk);
        buf_reset(&k.sk);
        const av *pk = av_map_get(&keys, names[0], lens[0]);
        const av *sk = def->sk.name ? av_map_get(&keys, names[1], lens[1]) : NULL;
        if (!pk || (def->sk.name && !sk))
            st = diag_set(d, ST_INTERNAL, "a change record of table %lld without its key", (long long)tid);
        if (st == ST_OK) {
            keyenc_append(&k.pk, pk);
            if (sk)
                keyenc_append(&k.sk, sk);
            st = fn(ctx, &k, has_old ? sqlite3_column_blob(q, 1) : NULL,
                    has_old ? (size_t)sqlite3_column_bytes(q, 1) : 0, d);
        }
        av_done(&keys);
    }
    if (st == ST_OK && rc != SQLITE_ROW && rc != SQLITE_DONE)
        st = db_err(db, d);
    sqlite3_finalize(q);
    store_key_done(&k);
    return st;
}

/* ---- the typed calls ---- */

static status table_not_found(const char *table, diag *d)
{
    return diag_set(d, ST_TABLE_NOT_FOUND, "Table not found: %s", table);
}

/* The table by name inside a transaction, with the backup operations'
 * TableNotFoundException. */
static status lookup(store *s, const char *table, tinfo **t, diag *d)
{
    status st = store_table(s, table, t, d);
    return st == ST_NOT_FOUND ? table_not_found(table, d) : st;
}

/* A table's history, read in a transaction of its own. */
static status table_history(store *s, const char *table, store_hist *h, diag *d)
{
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    if ((st = lookup(s, table, &t, d)) == ST_OK)
        st = store_history_get(s, t->id, h, d);
    return store_txn_end(s, st, d);
}

static status remote_refused(const char *op, diag *d)
{
    return diag_set(d, ST_USAGE, "point-in-time recovery of a remote table: ask its endpoint (%s)", op);
}

status store_pitr_get(store *s, const char *table, store_pitr *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (s->remote)
        return remote_refused("DescribeContinuousBackups", d);
    store_hist h;
    status st = table_history(s, table, &h, d);
    if (st == ST_OK && h.pitr) {
        out->enabled = true;
        out->days = h.days;
        out->latest_ms = store_now_ms(s);
        out->earliest_ms = store_pitr_earliest(&h, out->latest_ms);
    }
    return st;
}

status store_pitr_set(store *s, const char *table, bool enable, int days, diag *d)
{
    if (s->remote)
        return remote_refused("UpdateContinuousBackups", d);
    /* Observed: "Invalid Request: Cannot specify RecoveryPeriodInDays when
     * disabling point-in-time recovery." */
    if (!enable && days)
        return diag_set(d, ST_VALIDATION, "Invalid Request: Cannot specify RecoveryPeriodInDays when"
                        " disabling point-in-time recovery.");
    if (enable && !days)
        days = STORE_PITR_DAYS_MAX;
    if (days < 0 || days > STORE_PITR_DAYS_MAX)
        return diag_set(d, ST_VALIDATION, "RecoveryPeriodInDays must be 1 to %d: %d", STORE_PITR_DAYS_MAX, days);
    if (!store_history_has(s) && !s->read_only)
        return diag_set(d, ST_INTERNAL, "no history table");
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    store_hist h;
    if ((st = lookup(s, table, &t, d)) != ST_OK || (st = store_history_get(s, t->id, &h, d)) != ST_OK)
        return store_txn_end(s, st, d);
    int64_t tid = t->id;
    /* Enabling again keeps the window's start; enabling after a disable
     * starts it now. */
    int64_t args[3] = { tid, enable ? (h.pitr ? h.pitr_since : store_now_ms(s)) : 0, enable ? days : STORE_PITR_DAYS_MAX };
    st = store_sql(s, enable ? "INSERT INTO history(tid, complete, pitr, days) VALUES(?1, ?2, ?2, ?3)"
                                    " ON CONFLICT(tid) DO UPDATE SET pitr = ?2, days = ?3"
                                  : "UPDATE history SET pitr = NULL, days = ?3 WHERE tid = ?1 AND ?2 = 0",
                        args, 3, d);
    /* Every connection's cached definition learns of it (bulk writes log
     * when it is on). */
    if (st == ST_OK)
        st = store_sql(s, "UPDATE tables SET ver = ver + 1 WHERE id = ?1", &tid, 1, d);
    store_forget_tables(s);
    return store_txn_end(s, st, d);
}

status store_log_window(store *s, const char *table, int64_t *from_ms, int64_t *to_ms, diag *d)
{
    *from_ms = *to_ms = 0;
    if (s->remote)
        return diag_set(d, ST_USAGE, "a remote table's change log is its stream, not a history");
    store_hist h;
    status st = table_history(s, table, &h, d);
    if (st == ST_OK) {
        *to_ms = store_now_ms(s);
        *from_ms = h.complete < *to_ms ? h.complete : *to_ms;
    }
    return st;
}

