/*
 * store_write — validating items and keys against a table's schema, and
 * writing an item with its index entries and partition accounting.
 */
#include <assert.h>
#include <string.h>

#include "data/store_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"


size_t store_item_size(const av *item)
{
    return size_item(item);
}

/* ---- keys ---- */

void store_key_init(store_key *k)
{
    buf_init(&k->pk);
    buf_init(&k->sk);
}

void store_key_done(store_key *k)
{
    buf_done(&k->pk);
    buf_done(&k->sk);
}

static const av *get(const av *item, const char *name)
{
    return av_map_get(item, name, strlen(name));
}

static status key_size(const av *v, bool hash, diag *d)
{
    return size_check_key(v, hash, d);
}

static bool empty_sb(const av *v)
{
    return (v->type == AV_S || v->type == AV_B) && v->u.s.len == 0;
}

/* An index key is held to the table key's limits (2048 bytes for a
 * partition key, 1024 for a sort key), with the message DynamoDB gives for
 * index keys: "Size limit exceeded for Index Key c Actual Size: 43398 bytes
 * Max Size: 2048 bytes IndexName: index4" (quoted in dynalite issue #35). */
static status index_key_size(const index_def *ix, const key_attr *ka, const av *v, bool hash, diag *d)
{
    size_t max = hash ? SIZE_PK_MAX : SIZE_SK_MAX;
    if ((v->type != AV_S && v->type != AV_B) || v->u.s.len <= max)
        return ST_OK;
    return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Size limit exceeded"
                    " for Index Key %s Actual Size: %zu bytes Max Size: %zu bytes IndexName: %s",
                    ka->name, v->u.s.len, max, ix->name);
}

/* Attribute names are 1 to 65535 bytes (API reference: AttributeName,
 * "Maximum length of 65535"; scylladb's test_limits.py, run against
 * DynamoDB, finds 65535 accepted and 65536 refused). Map members' names
 * are held to the same maximum. */
static status check_names(const av *m, bool top, diag *d)
{
    for (size_t i = 0; i < m->u.m.len; i++) {
        const av_member *mb = &m->u.m.v[i];
        if (top && mb->name_len == 0)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Empty attribute name");
        if (mb->name_len > SIZE_NAME_MAX)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Attribute name is"
                            " too large, must be less than 65536 bytes");
        const av *v = &mb->val;
        status st = ST_OK;
        if (v->type == AV_M)
            st = check_names(v, false, d);
        for (size_t j = 0; st == ST_OK && v->type == AV_L && j < v->u.l.len; j++)
            if (v->u.l.v[j].type == AV_M)
                st = check_names(&v->u.l.v[j], false, d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

status store_check_item(const table_def *def, const av *item, store_key *k, diag *d)
{
    if (item->type == AV_M) {
        status st = check_names(item, true, d);
        if (st != ST_OK)
            return st;
    }
    const key_attr *keys[2] = { &def->pk, &def->sk };
    for (int i = 0; i < 2; i++) {
        const key_attr *ka = keys[i];
        if (!ka->name)
            continue;
        const av *v = get(item, ka->name);
        if (!v)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Missing the"
                            " key %s in the item", ka->name);
        if (v->type != ka->type)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Type mismatch"
                            " for key %s expected: %s actual: %s", ka->name, av_type_name(ka->type),
                            av_type_name(v->type));
        if (empty_sb(v))
            return diag_set(d, ST_VALIDATION, "One or more parameter values are not valid. The"
                            " AttributeValue for a key attribute cannot contain an empty %s value."
                            " Key: %s", v->type == AV_S ? "string" : "binary", ka->name);
        status st = key_size(v, i == 0, d);
        if (st != ST_OK)
            return st;
    }
    /* Index keys: GSIs first, then LSIs (their sort key), as DynamoDB. */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t x = 0; x < def->n_idx; x++) {
            const index_def *ix = &def->idx[x];
            if (ix->global != (pass == 0))
                continue;
            /* Every key attribute of the index, HASH then RANGE (an
             * LSI's HASH is the table's, checked above); each held to the
             * limit of its role (the developer guide's "Multi-attribute
             * key schema": each attribute of a multi-attribute key is
             * limited as a single key attribute would be). */
            size_t nh = ix->global ? index_def_n_hash(ix) : 0, nr = index_def_n_range(ix);
            for (size_t i = 0; i < nh + nr; i++) {
                const key_attr *ka = i < nh ? index_def_hash(ix, i) : index_def_range(ix, i - nh);
                const av *v = get(item, ka->name);
                if (!v)
                    continue;
                if (v->type != ka->type)
                    return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Type"
                                    " mismatch for Index Key %s Expected: %s Actual: %s IndexName: %s",
                                    ka->name, av_type_name(ka->type), av_type_name(v->type), ix->name);
                if (empty_sb(v))
                    return diag_set(d, ST_VALIDATION, "One or more parameter values are not valid. A"
                                    " value specified for a secondary index key is not supported. The"
                                    " AttributeValue for a key attribute cannot contain an empty %s"
                                    " value. IndexName: %s, IndexKey: %s",
                                    v->type == AV_S ? "string" : "binary", ix->name, ka->name);
                status st = index_key_size(ix, ka, v, i < nh, d);
                if (st != ST_OK)
                    return st;
            }
        }
    }
    if (def->n_vidx) {
        status st = store_vec_check_item(def, item, d);
        if (st != ST_OK)
            return st;
    }
    if (k) {
        buf_reset(&k->pk);
        buf_reset(&k->sk);
        keyenc_append(&k->pk, get(item, def->pk.name));
        if (def->sk.name)
            keyenc_append(&k->sk, get(item, def->sk.name));
    }
    return ST_OK;
}

status store_check_key(const table_def *def, const av *key, store_key *k, diag *d)
{
    size_t want = def->sk.name ? 2 : 1;
    if (key->type != AV_M || key->u.m.len != want)
        return diag_set(d, ST_VALIDATION, "The provided key element does not match the schema");
    const av *vals[2] = { get(key, def->pk.name), def->sk.name ? get(key, def->sk.name) : NULL };
    return store_check_key_values(def, vals, k, d);
}

status store_check_key_values(const table_def *def, const av *const vals[2], store_key *k, diag *d)
{
    size_t want = def->sk.name ? 2 : 1;
    const key_attr *keys[2] = { &def->pk, &def->sk };
    for (size_t i = 0; i < want; i++) {
        const av *v = vals[i];
        if (!v || v->type != keys[i]->type)
            return diag_set(d, ST_VALIDATION, "The provided key element does not match the schema");
        if (empty_sb(v))
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: The"
                            " AttributeValue for a key attribute cannot contain an empty %s value."
                            " Key: %s", v->type == AV_S ? "string" : "binary", keys[i]->name);
        status st = key_size(v, i == 0, d);
        if (st != ST_OK)
            return st;
    }
    if (k) {
        buf_reset(&k->pk);
        buf_reset(&k->sk);
        keyenc_append(&k->pk, vals[0]);
        if (def->sk.name)
            keyenc_append(&k->sk, vals[1]);
    }
    return ST_OK;
}

/* ---- reading the current item ---- */

static void bind_key(sqlite3_stmt *q, int64_t tid, const store_key *k)
{
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_blob(q, 2, k->pk.data ? k->pk.data : "", (int)k->pk.len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 3, k->sk.data ? k->sk.data : "", (int)k->sk.len, SQLITE_STATIC);
}

status store_load(store *s, const tinfo *t, const store_key *k, av *item, bool *found,
                  uint64_t *size, diag *d)
{
    status st = ST_OK;
    sqlite3_stmt *q = store_stmt(s, Q_ITEM_GET, d);
    *found = false;
    item->type = AV_NONE;
    if (!q)
        return d->code;
    bind_key(q, t->id, k);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        *found = true;
        if (size)
            *size = (uint64_t)sqlite3_column_int64(q, 0);
        st = itemenc_decode(sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1), item, d);
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    sqlite3_reset(q);
    return st;
}

/* ---- writing ---- */

static double units(size_t bytes)
{
    return (double)size_write_halves(bytes) / 2.0;
}

/* Appends the encoding of the n attributes of item that keys names, in
 * order; false when one is missing or of another type. */
static bool encode_parts(const index_def *ix, bool hash, const av *item, buf *out)
{
    size_t n = hash ? index_def_n_hash(ix) : index_def_n_range(ix);
    for (size_t i = 0; i < n; i++) {
        const key_attr *ka = hash ? index_def_hash(ix, i) : index_def_range(ix, i);
        const av *v = get(item, ka->name);
        if (!v || v->type != ka->type)
            return false;
        keyenc_append(out, v);
    }
    return true;
}

bool store_index_key(const index_def *ix, const av *item, buf *ipk, buf *isk)
{
    buf_reset(ipk);
    buf_reset(isk);
    return encode_parts(ix, true, item, ipk) && encode_parts(ix, false, item, isk);
}

static const void *bytes_of(const buf *b)
{
    return b->data ? b->data : "";
}

/* Deletes (body NULL) or writes an index entry, with its body. */
static status idx_row(store *s, int which, int64_t tid, int xid, const buf *ipk, const buf *isk,
                      const store_key *k, size_t size, const buf *body, diag *d)
{
    sqlite3_stmt *q = store_stmt(s, which, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_int(q, 2, xid);
    sqlite3_bind_blob(q, 3, bytes_of(ipk), (int)ipk->len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 4, bytes_of(isk), (int)isk->len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 5, bytes_of(&k->pk), (int)k->pk.len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 6, bytes_of(&k->sk), (int)k->sk.len, SQLITE_STATIC);
    if (which == Q_IDX_INSERT) {
        sqlite3_bind_int64(q, 7, (int64_t)size);
        sqlite3_bind_blob(q, 8, bytes_of(body), (int)body->len, SQLITE_STATIC);
    }
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* Does the index entry change when old becomes new (same index key)? */
static bool entry_changes(const index_def *ix, const av *old, const av *new_item)
{
    if (ix->proj == PROJ_ALL)
        return !av_equal(old, new_item);
    for (size_t j = 0; ix->proj == PROJ_INCLUDE && j < ix->n_include; j++) {
        const av *a = get(old, ix->include[j]), *b = get(new_item, ix->include[j]);
        if ((a == NULL) != (b == NULL) || (a && !av_equal(a, b)))
            return true;
    }
    /* Key attributes are equal: the caller found the same index key, and
     * the table key is the item's own. */
    return false;
}

/* new_enc: the new item's encoding (for an ALL index's body). */
static status write_indexes(store *s, const tinfo *t, const store_key *k, const av *old,
                            size_t old_size, const av *new_item, size_t new_size,
                            const buf *new_enc, store_wcap *cap, diag *d)
{
    status st = ST_OK;
    buf opk = BUF_INIT, osk = BUF_INIT, npk = BUF_INIT, nsk = BUF_INIT, body = BUF_INIT;
    for (size_t x = 0; x < t->def.n_idx && st == ST_OK; x++) {
        const index_def *ix = &t->def.idx[x];
        int xid = (int)x + 1;
        bool oin = old && store_index_key(ix, old, &opk, &osk);
        bool nin = new_item && store_index_key(ix, new_item, &npk, &nsk);
        size_t osz = oin ? index_entry_size(&t->def, ix, old, old_size) : 0;
        size_t nsz = nin ? index_entry_size(&t->def, ix, new_item, new_size) : 0;
        bool same = oin && nin && opk.len == npk.len && osk.len == nsk.len &&
                    memcmp(opk.data, npk.data, opk.len) == 0 &&
                    (osk.len == 0 || memcmp(osk.data, nsk.data, osk.len) == 0);
        if (oin && !same) {
            st = idx_row(s, Q_IDX_DELETE, t->id, xid, &opk, &osk, k, 0, NULL, d);
            if (st != ST_OK)
                break;
        }
        /* An unchanged entry is neither rewritten nor charged. */
        bool changes = !same || entry_changes(ix, old, new_item);
        if (nin && changes) {
            /* An ALL entry's body is the item's encoding as it is. */
            const buf *eb = ix->proj == PROJ_ALL && new_enc ? new_enc : &body;
            if (eb == &body)
                store_entry_body(&t->def, ix, new_item, &body);
            st = idx_row(s, Q_IDX_INSERT, t->id, xid, &npk, &nsk, k, nsz, eb, d);
        }
        if (oin)
            store_delta(s, t->id, xid, opk.data, opk.len, -1, -(int64_t)osz);
        if (nin)
            store_delta(s, t->id, xid, npk.data, npk.len, 1, (int64_t)nsz);
        /* A local index's entries are in the item's own collection. */
        if (cap && !ix->global)
            cap->coll += (int64_t)nsz - (int64_t)osz;
        if (cap && x < SCHEMA_MAX_INDEXES) {
            if (same)
                cap->idx[x] += changes ? units(nsz > osz ? nsz : osz) : 0;
            else
                cap->idx[x] += (oin ? units(osz) : 0) + (nin ? units(nsz) : 0);
        }
    }
    buf_done(&opk);
    buf_done(&osk);
    buf_done(&npk);
    buf_done(&nsk);
    buf_done(&body);
    /* The vector indexes' entries, in the same transaction. */
    if (st == ST_OK && t->def.n_vidx)
        st = store_vec_apply(s, t, k, old, new_item, d);
    return st;
}

status store_apply(store *s, const tinfo *t, const store_key *k, const av *old,
                   const av *new_item, store_wcap *cap, diag *d)
{
    status st = ST_OK;
    size_t old_size = old ? store_item_size(old) : 0;
    size_t new_size = new_item ? store_item_size(new_item) : 0;
    sqlite3_stmt *q;
    if (new_item) {
        buf_reset(&s->scratch);
        itemenc_encode(&s->scratch, new_item);
        q = store_stmt(s, Q_ITEM_REPLACE, d);
        if (!q)
            return d->code;
        bind_key(q, t->id, k);
        sqlite3_bind_int64(q, 4, (int64_t)new_size);
        sqlite3_bind_blob(q, 5, s->scratch.data, (int)s->scratch.len, SQLITE_STATIC);
    } else {
        q = store_stmt(s, Q_ITEM_DELETE, d);
        if (!q)
            return d->code;
        bind_key(q, t->id, k);
    }
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    if (old)
        store_delta(s, t->id, 0, k->pk.data, k->pk.len, -1, -(int64_t)old_size);
    if (new_item)
        store_delta(s, t->id, 0, k->pk.data, k->pk.len, 1, (int64_t)new_size);
    if (cap) {
        cap->table += units(old_size > new_size ? old_size : new_size);
        cap->coll += (int64_t)new_size - (int64_t)old_size;
    }
    st = write_indexes(s, t, k, old, old_size, new_item, new_size, new_item ? &s->scratch : NULL,
                       cap, d);
    /* The change record, in this same transaction: a crash keeps both or
     * neither. (write_indexes does not touch s->scratch.) */
    if (st == ST_OK && !s->no_log)
        st = store_log_change(s, t, old, new_item, new_item ? &s->scratch : NULL, d);
    return st;
}

/* ---- bulk puts (C interface) ---- */

status store_put_item(store *s, const char *table, const av *item, diag *d)
{
    if (s->remote)
        return store_remote_put_item(s, table, item, d);
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    store_key k;
    store_key_init(&k);
    av old = { .type = AV_NONE };
    tinfo *t;
    if ((st = store_table(s, table, &t, d)) != ST_OK)
        goto out;
    if (item->type != AV_M) {
        st = diag_set(d, ST_VALIDATION, "an item must be a map");
        goto out;
    }
    if ((st = store_check_item(&t->def, item, &k, d)) != ST_OK)
        goto out;
    size_t size = store_item_size(item);
    if (size > SIZE_ITEM_MAX) {
        st = diag_set(d, ST_VALIDATION, "Item size has exceeded the maximum allowed size");
        goto out;
    }
    if ((st = size_check_depth(item, d)) != ST_OK)
        goto out;
    /* Fast path for a new key: insert, and only look for an old item when
     * the key was taken. */
    buf_reset(&s->scratch);
    itemenc_encode(&s->scratch, item);
    sqlite3_stmt *q = store_stmt(s, Q_ITEM_INSERT_NEW, d);
    if (!q) {
        st = d->code;
        goto out;
    }
    bind_key(q, t->id, &k);
    sqlite3_bind_int64(q, 4, (int64_t)size);
    sqlite3_bind_blob(q, 5, s->scratch.data, (int)s->scratch.len, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
        goto out;
    }
    if (sqlite3_changes(s->db) == 1) {
        store_delta(s, t->id, 0, k.pk.data, k.pk.len, 1, (int64_t)size);
        st = write_indexes(s, t, &k, NULL, 0, item, size, &s->scratch, NULL, d);
        if (st == ST_OK && t->pitr)
            st = store_log_history(s, t, NULL, item, d);
    } else {
        bool found;
        if ((st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
            goto out;
        /* Imports write no change records (as DynamoDB's ImportTable
         * writes no stream records): a million-item load would otherwise
         * double its writes for a log no one reads item by item. A table
         * with point-in-time recovery is the exception: its window must
         * hold every change, so it gets what undoing needs. */
        s->no_log = true;
        st = store_apply(s, t, &k, found ? &old : NULL, item, NULL, d);
        s->no_log = false;
        if (st == ST_OK && t->pitr)
            st = store_log_history(s, t, found ? &old : NULL, item, d);
    }
    /* Without a record, the log no longer tells what the table was
     * before this commit (store_pitr.c). */
    if (st == ST_OK && !t->pitr)
        store_history_note_unlogged(s, t->id);
    /* Keep the in-memory partition deltas bounded on huge loads. */
    if (st == ST_OK && s->n_deltas > 100000)
        st = store_flush_deltas(s, d);
out:
    av_done(&old);
    store_key_done(&k);
    return store_txn_end(s, st, d);
}

/* ---- backfilling a new index (UpdateTable, store_gsi.c) ---- */

/* A key value an index can hold: the type its definition says, not an
 * empty string or binary, within the key size limits. */
static bool index_key_ok(const key_attr *ka, const av *v, bool hash)
{
    if (!ka->name)
        return true;
    if (!v || v->type != ka->type || empty_sb(v))
        return false;
    diag d;
    diag_init(&d);
    return key_size(v, hash, &d) == ST_OK;
}

bool store_index_holds(const index_def *ix, const av *item)
{
    for (size_t i = 0; i < index_def_n_hash(ix); i++)
        if (!index_key_ok(index_def_hash(ix, i), get(item, index_def_hash(ix, i)->name), true))
            return false;
    for (size_t i = 0; i < index_def_n_range(ix); i++)
        if (!index_key_ok(index_def_range(ix, i), get(item, index_def_range(ix, i)->name), false))
            return false;
    return true;
}

/* One existing item's entry in index x (0-based in t->def.idx), as the
 * backfill of an index created by UpdateTable adds it; nothing when the
 * item is not in the index or breaks its key rules (type, empty, size). */
static status store_index_backfill(store *s, const tinfo *t, size_t x, const store_key *k,
                                   const av *item, size_t size, diag *d)
{
    assert(x < t->def.n_idx);
    const index_def *ix = &t->def.idx[x];
    /* "Index key violations": the item stays in the table, the index has
     * no entry for it (developer guide, Detecting and correcting index key
     * violations). */
    if (!store_index_holds(ix, item))
        return ST_OK;
    buf ipk = BUF_INIT, isk = BUF_INIT;
    status st = ST_OK;
    if (store_index_key(ix, item, &ipk, &isk)) {
        size_t esz = index_entry_size(&t->def, ix, item, size);
        buf body = BUF_INIT;
        store_entry_body(&t->def, ix, item, &body);
        st = idx_row(s, Q_IDX_INSERT, t->id, (int)x + 1, &ipk, &isk, k, esz, &body, d);
        buf_done(&body);
        if (st == ST_OK)
            store_delta(s, t->id, (int)x + 1, ipk.data, ipk.len, 1, (int64_t)esz);
    }
    buf_done(&ipk);
    buf_done(&isk);
    return st;
}

/* The rebuild's loop: index entries from every item. x: the secondary
 * index to fill (-1: every one, with the table's partition counts;
 * SCHEMA_MAX_INDEXES: none); vx: the vector index (-1: every one; -2:
 * none). */
static status rebuild_items(store *s, const tinfo *t, int x, int vx, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT pk, sk, size, body FROM items WHERE tid = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, t->id);
    size_t from = x < 0 ? 0 : (size_t)x, to = x < 0 ? t->def.n_idx : x >= SCHEMA_MAX_INDEXES ? from : (size_t)x + 1;
    bool vecs = vx != -2 && t->def.n_vidx;
    store_key k;
    store_key_init(&k);
    status st = ST_OK;
    int rc;
    while (st == ST_OK && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        buf_reset(&k.pk);
        buf_reset(&k.sk);
        buf_add(&k.pk, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0));
        buf_add(&k.sk, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1));
        size_t size = (size_t)sqlite3_column_int64(q, 2);
        if (x < 0)
            store_delta(s, t->id, 0, k.pk.data, k.pk.len, 1, (int64_t)size);
        av item;
        if ((from < to || vecs) &&
            (st = itemenc_decode(sqlite3_column_blob(q, 3), (size_t)sqlite3_column_bytes(q, 3), &item, d)) == ST_OK) {
            for (size_t i = from; st == ST_OK && i < to; i++)
                st = store_index_backfill(s, t, i, &k, &item, size, d);
            if (st == ST_OK && vecs)
                st = store_vec_backfill_item(s, t, vx, &k, &item, d);
            av_done(&item);
        }
        /* Keep the in-memory partition deltas bounded on huge tables. */
        if (st == ST_OK && s->n_deltas > 100000)
            st = store_flush_deltas(s, d);
    }
    if (st == ST_OK && rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_finalize(q);
    store_key_done(&k);
    return st == ST_OK ? store_flush_deltas(s, d) : st;
}

status store_rebuild(store *s, const tinfo *t, int x, diag *d)
{
    return rebuild_items(s, t, x, x < 0 ? -1 : -2, d);
}

status store_rebuild_vec(store *s, const tinfo *t, int vx, diag *d)
{
    return rebuild_items(s, t, SCHEMA_MAX_INDEXES, vx, d);
}
