/*
 * store_read — range reads over the items and index B-trees (Query and
 * Scan, in either direction, from a start key), index projections, and the
 * explorer's narrow interface: partitions and pages.
 *
 * Every read is one SQL statement whose shape (table or index, which
 * bounds, direction) picks one of a few cached statements; the SQL text is
 * assembled from constant fragments only, never from request data.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

enum {
    SH_SCAN = 1, SH_INDEX = 2, SH_START = 4, SH_BACK = 8,
    SH_LO_SHIFT = 4, SH_HI_SHIFT = 6,
    SH_SEG = 256,   /* parallel Scan: the rows' partition keys are read too */
    SH_AFTER = 512, /* table Scan of the partitions after ?6 (before, back) */
    SH_FETCH = 1024, /* index read through the table (store_rq.fetch, or no bodies) */
    SH_WHOLE = 2048, /* index read from its bodies, not ALL: is the body the whole item? */
    SH_COUNT = 4096,
};

static sqlite3_stmt *read_stmt(store *s, unsigned shape, diag *d)
{
    assert(shape < SH_COUNT);
    sqlite3_stmt *q = s->reads[shape];
    if (q) {
        sqlite3_reset(q);
        sqlite3_clear_bindings(q);
        return q;
    }
    bool scan = shape & SH_SCAN, index = shape & SH_INDEX, start = shape & SH_START;
    bool back = shape & SH_BACK, seg = shape & SH_SEG, after = shape & SH_AFTER;
    bool fetch = shape & SH_FETCH, whole = shape & SH_WHOLE;
    int lo = (shape >> SH_LO_SHIFT) & 3, hi = (shape >> SH_HI_SHIFT) & 3;
    const char *skc = index ? "i.isk" : "sk";
    buf b = BUF_INIT;
    /* Columns: size and body (of the item, or of the entry when an index
     * is read from its bodies), for an index the entry's size (and, read
     * from its bodies and not ALL, whether the body is the table's whole
     * item: a column that costs ~7% of a GSI Query, so an ALL index, whose
     * entry is the whole item either way, does without), and for
     * segments the table pk (SQLite copies every column it returns out of
     * the page, so a read asks only for what it uses). Parameters: ?1 tid, ?2 pk (or ipk),
     * ?3 lo, ?4 hi, ?5 start sk (isk), ?6 start pk (ipk), ?7 xid, ?8 start
     * table pk, ?9 start table sk. */
    if (index && fetch)
        buf_adds(&b, seg ? "SELECT b.size, b.body, i.size, i.pk" : "SELECT b.size, b.body, i.size"),
            buf_adds(&b, " FROM idx i CROSS JOIN items b"
                         " ON b.tid = i.tid AND b.pk = i.pk AND b.sk = i.sk"
                         " WHERE i.tid = ?1 AND i.xid = ?7");
    else if (index)
        /* The entry's own body; the table's item only where an older ddbx
         * left the body NULL (coalesce evaluates the lookup only then). */
        buf_adds(&b, "SELECT i.size, coalesce(i.body, (SELECT b.body FROM items b"
                     " WHERE b.tid = i.tid AND b.pk = i.pk AND b.sk = i.sk)), i.size"),
            buf_adds(&b, whole ? ", i.body IS NULL" : ""),
            buf_adds(&b, seg ? ", i.pk FROM idx i" : " FROM idx i"),
            buf_adds(&b, " WHERE i.tid = ?1 AND i.xid = ?7");
    else
        buf_adds(&b, seg ? "SELECT size, body, pk" : "SELECT size, body"),
            buf_adds(&b, " FROM items WHERE tid = ?1");
    if (!scan)
        buf_adds(&b, index ? " AND i.ipk = ?2" : " AND pk = ?2");
    if (lo) {
        buf_adds(&b, " AND ");
        buf_adds(&b, skc);
        buf_adds(&b, lo == RB_INCL ? " >= ?3" : " > ?3");
    }
    if (hi) {
        buf_adds(&b, " AND ");
        buf_adds(&b, skc);
        buf_adds(&b, hi == RB_INCL ? " <= ?4" : " < ?4");
    }
    if (after)
        buf_adds(&b, back ? " AND pk < ?6" : " AND pk > ?6");
    if (start) {
        const char *op = back ? " < " : " > ";
        if (scan && index)
            buf_adds(&b, " AND (i.ipk, i.isk, i.pk, i.sk)"), buf_adds(&b, op),
                buf_adds(&b, "(?6, ?5, ?8, ?9)");
        else if (scan)
            buf_adds(&b, " AND (pk, sk)"), buf_adds(&b, op), buf_adds(&b, "(?6, ?5)");
        else if (index)
            buf_adds(&b, " AND (i.isk, i.pk, i.sk)"), buf_adds(&b, op), buf_adds(&b, "(?5, ?8, ?9)");
        else
            buf_adds(&b, " AND sk"), buf_adds(&b, op), buf_adds(&b, "?5");
    }
    const char *dir = back ? " DESC" : "";
    buf_adds(&b, " ORDER BY ");
    if (index) {
        if (scan)
            buf_adds(&b, "i.ipk"), buf_adds(&b, dir), buf_adds(&b, ", ");
        buf_adds(&b, "i.isk"), buf_adds(&b, dir);
        buf_adds(&b, ", i.pk"), buf_adds(&b, dir);
        buf_adds(&b, ", i.sk"), buf_adds(&b, dir);
    } else {
        if (scan)
            buf_adds(&b, "pk"), buf_adds(&b, dir), buf_adds(&b, ", ");
        buf_adds(&b, "sk"), buf_adds(&b, dir);
    }
    if (sqlite3_prepare_v3(s->db, b.data, -1, SQLITE_PREPARE_PERSISTENT, &q, NULL) != SQLITE_OK) {
        store_sqlerr(s, d);
        q = NULL;
    }
    buf_done(&b);
    s->reads[shape] = q;
    return q;
}

/* Smallest value greater than every value starting with prefix; false
 * when there is none (the prefix is all 0xFF bytes or empty). */
static bool prefix_successor(const av *prefix, av *out)
{
    size_t n = prefix->u.s.len;
    const unsigned char *p = (const unsigned char *)prefix->u.s.ptr;
    while (n > 0 && p[n - 1] == 0xff)
        n--;
    if (n == 0)
        return false;
    unsigned char *tmp = xmemdup(p, n);
    tmp[n - 1]++;
    if (prefix->type == AV_S)
        av_init_s(out, (const char *)tmp, n);
    else
        av_init_b(out, tmp, n);
    free(tmp);
    return true;
}

typedef struct binds {
    buf b[8];
    av succ;
} binds;

static void bind_av(sqlite3_stmt *q, int param, buf *b, const av *v)
{
    buf_reset(b);
    keyenc_append(b, v);
    sqlite3_bind_blob(q, param, b->data ? b->data : "", (int)b->len, SQLITE_TRANSIENT);
}

static void bind_buf(sqlite3_stmt *q, int param, const buf *b)
{
    sqlite3_bind_blob(q, param, b->data ? b->data : "", (int)b->len, SQLITE_TRANSIENT);
}

static void bind_empty(sqlite3_stmt *q, int param)
{
    sqlite3_bind_blob(q, param, "", 0, SQLITE_STATIC);
}

status store_cursor_open(store *s, const store_rq *rq, store_cursor *c, diag *d)
{
    memset(c, 0, sizeof *c);
    c->s = s;
    c->rq = rq;
    const tinfo *t = rq->t;
    const index_def *ix = rq->xid ? &t->def.idx[rq->xid - 1] : NULL;
    const key_attr *skey = &t->def.sk, *pkey = &t->def.pk;   /* a table read's start key */
    int lo = rq->lo_op, hi = rq->hi_op;
    const av *lov = rq->lo, *hiv = rq->hi;
    binds bs;
    memset(&bs, 0, sizeof bs);
    bs.succ.type = AV_NONE;
    if (rq->prefix) {
        lo = RB_INCL;
        lov = rq->prefix;
        if (prefix_successor(rq->prefix, &bs.succ)) {
            hi = RB_EXCL;
            hiv = &bs.succ;
        } else {
            hi = RB_NONE;
        }
    }
    bool scan = rq->pk == NULL && rq->pk_enc == NULL;
    unsigned shape = (scan ? SH_SCAN : 0) | (ix ? SH_INDEX : 0) | (rq->start ? SH_START : 0) |
                     (rq->forward ? 0 : SH_BACK) | (unsigned)lo << SH_LO_SHIFT |
                     (unsigned)hi << SH_HI_SHIFT | (rq->segments > 1 ? SH_SEG : 0) |
                     (ix && (rq->fetch || !store_idx_body_has(s)) ? SH_FETCH : 0);
    if (ix && !(shape & SH_FETCH) && ix->proj != PROJ_ALL)
        shape |= SH_WHOLE;
    /* A table Scan from a start key, (pk, sk) > (start pk, start sk), is
     * read as the rest of the start partition, then the partitions after
     * it: SQLite seeks with the row value but also tests it on every row
     * (a column copy and a comparison), which these two do not need. */
    const av *start_pk = scan && !ix && rq->start
                         ? av_map_get(rq->start, t->def.pk.name, strlen(t->def.pk.name)) : NULL;
    bool split = start_pk != NULL;
    if (split) {
        keyenc_append(&c->start_pk, start_pk);
        c->next_shape = SH_SCAN | SH_AFTER | (rq->forward ? 0 : SH_BACK) | (rq->segments > 1 ? SH_SEG : 0);
        shape &= ~(unsigned)SH_SCAN;
    }
    c->whole_col = shape & SH_WHOLE;
    sqlite3_stmt *q = read_stmt(s, shape, d);
    if (!q) {
        av_done(&bs.succ);
        return d->code;
    }
    sqlite3_bind_int64(q, 1, t->id);
    if (ix)
        sqlite3_bind_int(q, 7, rq->xid);
    if (split)
        sqlite3_bind_blob(q, 2, c->start_pk.data ? c->start_pk.data : "", (int)c->start_pk.len,
                          SQLITE_STATIC);
    else if (rq->pk_enc)
        bind_buf(q, 2, rq->pk_enc);
    else if (!scan)
        bind_av(q, 2, &bs.b[0], rq->pk);
    if (lo && rq->lo_enc)
        bind_buf(q, 3, rq->lo_enc);
    else if (lo)
        bind_av(q, 3, &bs.b[1], lov);
    if (hi && rq->hi_enc)
        bind_buf(q, 4, rq->hi_enc);
    else if (hi)
        bind_av(q, 4, &bs.b[2], hiv);
    if (rq->start) {
        const av *st = rq->start;
        const av *v;
        /* ?5, ?6: start sort key and partition key of what is read (empty
         * when none); an index's are its key tuples. */
        if (ix) {
            store_index_key(ix, st, &bs.b[4], &bs.b[3]);
            bind_buf(q, 5, &bs.b[3]);
            bind_buf(q, 6, &bs.b[4]);
        } else {
            if (skey->name && (v = av_map_get(st, skey->name, strlen(skey->name))))
                bind_av(q, 5, &bs.b[3], v);
            else
                bind_empty(q, 5);
            if ((v = av_map_get(st, pkey->name, strlen(pkey->name))))
                bind_av(q, 6, &bs.b[4], v);
            else
                bind_empty(q, 6);
        }
        if (ix) {
            if ((v = av_map_get(st, t->def.pk.name, strlen(t->def.pk.name))))
                bind_av(q, 8, &bs.b[5], v);
            else
                bind_empty(q, 8);
            if (t->def.sk.name && (v = av_map_get(st, t->def.sk.name, strlen(t->def.sk.name))))
                bind_av(q, 9, &bs.b[6], v);
            else
                bind_empty(q, 9);
        }
    }
    for (int i = 0; i < 8; i++)
        buf_done(&bs.b[i]);
    av_done(&bs.succ);
    c->q = q;
    return ST_OK;
}

static uint64_t fnv(const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

int store_segment_of(const void *pk, size_t n, int segments)
{
    return (int)(fnv(pk, n) % (uint64_t)segments);
}

status store_cursor_next(store_cursor *c, store_row *row, bool *has, diag *d)
{
    *has = false;
    if (!c->q)
        return ST_OK;
    for (;;) {
        int rc = sqlite3_step(c->q);
        if (rc == SQLITE_DONE) {
            sqlite3_reset(c->q);
            c->q = NULL;
            if (c->next_shape) {
                /* the start partition is done: the partitions after it */
                if (!(c->q = read_stmt(c->s, c->next_shape, d)))
                    return d->code;
                c->next_shape = 0;
                sqlite3_bind_int64(c->q, 1, c->rq->t->id);
                sqlite3_bind_blob(c->q, 6, c->start_pk.data ? c->start_pk.data : "",
                                  (int)c->start_pk.len, SQLITE_STATIC);
                continue;
            }
            return ST_OK;
        }
        if (rc != SQLITE_ROW) {
            status st = store_sqlerr(c->s, d);
            sqlite3_reset(c->q);
            c->q = NULL;
            return st;
        }
        row->size = (uint64_t)sqlite3_column_int64(c->q, 0);
        row->body = sqlite3_column_blob(c->q, 1);
        row->body_len = (size_t)sqlite3_column_bytes(c->q, 1);
        int next = 2;
        row->entry_size = c->rq->xid ? (uint64_t)sqlite3_column_int64(c->q, next++) : row->size;
        row->whole = true;
        if (c->whole_col)
            row->whole = sqlite3_column_int(c->q, next++) != 0;
        if (c->rq->segments > 1) {
            row->pk = sqlite3_column_blob(c->q, next);
            row->pk_len = (size_t)sqlite3_column_bytes(c->q, next);
            /* A partition (of the table) belongs to one segment. */
            if (c->last_pk.len != row->pk_len ||
                memcmp(c->last_pk.data, row->pk, row->pk_len) != 0) {
                buf_reset(&c->last_pk);
                buf_add(&c->last_pk, row->pk, row->pk_len);
                c->last_in = store_segment_of(row->pk, row->pk_len, c->rq->segments) == c->rq->segment;
            }
            if (!c->last_in)
                continue;
        }
        *has = true;
        return ST_OK;
    }
}

void store_cursor_close(store_cursor *c)
{
    if (c->q)
        sqlite3_reset(c->q);
    c->q = NULL;
    buf_done(&c->last_pk);
    buf_done(&c->start_pk);
}

void store_project_index(const table_def *def, const index_def *ix, const av *item, av *out)
{
    av_init_list(out, AV_M);
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        bool in = ix->proj == PROJ_ALL || table_def_is_key(def, ix, m->name);
        for (size_t j = 0; !in && ix->proj == PROJ_INCLUDE && j < ix->n_include; j++)
            in = strcmp(ix->include[j], m->name) == 0;
        if (in) {
            av v;
            av_copy(&v, &m->val);
            av_map_put(out, m->name, m->name_len, &v);
        }
    }
}

/* ---- the explorer's interface ---- */

static status lookup(store *s, const char *table, const char *index, tinfo **t, int *xid, diag *d)
{
    status st = store_table(s, table, t, d);
    if (st != ST_OK)
        return st;
    *xid = store_index_xid(&(*t)->def, index);
    if (*xid < 0)
        return diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
    return ST_OK;
}

void store_part_key_encode(const index_def *ix, const av *pk, buf *out)
{
    if (ix && ix->n_pk_rest && pk->type == AV_L) {
        for (size_t i = 0; i < pk->u.l.len; i++)
            keyenc_append(out, &pk->u.l.v[i]);
        return;
    }
    keyenc_append(out, pk);
}

static status part_key_decode(const index_def *ix, av_type pk_type, const unsigned char *p, size_t len,
                              av *out, diag *d)
{
    size_t used;
    if (!ix || !ix->n_pk_rest)
        return keyenc_decode(p, len, pk_type, out, &used, d);
    av_init_list(out, AV_L);
    for (size_t i = 0; i < index_def_n_hash(ix); i++) {
        av v;
        status st = keyenc_decode(p, len, index_def_hash(ix, i)->type, &v, &used, d);
        if (st != ST_OK) {
            av_done(out);
            return st;
        }
        av_list_push(out, &v);
        p += used;
        len -= used;
    }
    return ST_OK;
}

static status fill_parts(store *s, sqlite3_stmt *q, const index_def *ix, av_type pk_type, size_t max,
                         part_info *out, size_t *n, diag *d)
{
    status st = ST_OK;
    int rc;
    while (*n < max && (rc = sqlite3_step(q)) == SQLITE_ROW) {
        part_info *p = &out[*n];
        st = part_key_decode(ix, pk_type, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0),
                             &p->pk, d);
        if (st != ST_OK)
            break;
        p->items = (uint64_t)sqlite3_column_int64(q, 1);
        p->bytes = (uint64_t)sqlite3_column_int64(q, 2);
        (*n)++;
    }
    if (st == ST_OK && *n < max && rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_reset(q);
    return st;
}

/* A partitions statement with the table (?1), the index (?2, 0: the
 * table) and the most rows (?3) bound; NULL with d set. */
static sqlite3_stmt *parts_stmt(store *s, int which, const tinfo *t, int xid, size_t max, diag *d)
{
    sqlite3_stmt *q = store_stmt(s, which, d);
    if (q) {
        sqlite3_bind_int64(q, 1, t->id);
        sqlite3_bind_int(q, 2, xid);
        sqlite3_bind_int64(q, 3, (int64_t)max);
    }
    return q;
}

/* The partitions statement `which` answers, `key` bound as ?4 when
 * given (the one to start after, or to find). */
static status parts_query(store *s, const char *table, const char *index, int which, const av *key,
                          size_t max, part_info *out, size_t *n, diag *d)
{
    *n = 0;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    int xid;
    buf kb = BUF_INIT;
    if ((st = lookup(s, table, index, &t, &xid, d)) != ST_OK)
        goto out;
    const key_attr *pk = xid ? &t->def.idx[xid - 1].pk : &t->def.pk;
    sqlite3_stmt *q = parts_stmt(s, which, t, xid, max, d);
    if (!q) {
        st = d->code;
        goto out;
    }
    const index_def *ix = xid ? &t->def.idx[xid - 1] : NULL;
    if (key) {
        store_part_key_encode(ix, key, &kb);
        sqlite3_bind_blob(q, 4, kb.data, (int)kb.len, SQLITE_STATIC);
    }
    st = fill_parts(s, q, ix, pk->type, max, out, n, d);
out:
    buf_done(&kb);
    return store_txn_end(s, st, d);
}

status store_partitions(store *s, const char *table, const char *index, const av *after,
                        bool backward, size_t max, part_info *out, size_t *n, diag *d)
{
    if (s->remote)
        return store_remote_partitions(s, table, index, after, backward, max, out, n, d);
    int which = backward ? (after ? Q_PARTS_BACK_FROM : Q_PARTS_BACK)
                         : (after ? Q_PARTS_FWD_FROM : Q_PARTS_FWD);
    return parts_query(s, table, index, which, after, max, out, n, d);
}

status store_partition(store *s, const char *table, const char *index, const av *pk,
                       part_info *out, bool *found, diag *d)
{
    *found = false;
    if (s->remote)
        return ST_OK;   /* DynamoDB does not tell a partition's size */
    size_t n = 0;
    status st = parts_query(s, table, index, Q_PART_GET, pk, 1, out, &n, d);
    *found = st == ST_OK && n == 1;
    return st;
}

status store_partitions_by_size(store *s, const char *table, const char *index, size_t max,
                                part_info *out, size_t *n, diag *d)
{
    if (s->remote)
        return store_remote_partitions_by_size(s, table, index, max, out, n, d);
    *n = 0;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    int xid;
    if ((st = lookup(s, table, index, &t, &xid, d)) != ST_OK)
        goto out;
    const key_attr *pk = xid ? &t->def.idx[xid - 1].pk : &t->def.pk;
    sqlite3_stmt *q = parts_stmt(s, Q_PARTS_BY_SIZE, t, xid, max, d);
    if (!q) {
        st = d->code;
        goto out;
    }
    st = fill_parts(s, q, xid ? &t->def.idx[xid - 1] : NULL, pk->type, max, out, n, d);
out:
    return store_txn_end(s, st, d);
}

status store_page(store *s, const char *table, const char *index, const av *pk, const av *after,
                  bool forward, size_t max, av *items, size_t *n, diag *d)
{
    if (s->remote)
        return store_remote_page(s, table, index, pk, after, forward, max, items, n, d);
    *n = 0;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    int xid;
    store_cursor c;
    memset(&c, 0, sizeof c);
    buf pk_enc = BUF_INIT;
    if ((st = lookup(s, table, index, &t, &xid, d)) != ST_OK)
        goto out;
    const index_def *ix = xid ? &t->def.idx[xid - 1] : NULL;
    store_rq rq = { .t = t, .xid = xid, .pk = pk, .forward = forward, .start = after };
    if (ix && ix->n_pk_rest && pk) {
        store_part_key_encode(ix, pk, &pk_enc);
        rq.pk_enc = &pk_enc;
    }
    if ((st = store_cursor_open(s, &rq, &c, d)) != ST_OK)
        goto out;
    while (*n < max) {
        store_row row;
        bool has;
        if ((st = store_cursor_next(&c, &row, &has, d)) != ST_OK || !has)
            break;
        av full;
        if ((st = itemenc_decode(row.body, row.body_len, &full, d)) != ST_OK)
            break;
        if (ix && ix->proj != PROJ_ALL && row.whole) {
            store_project_index(&t->def, ix, &full, &items[*n]);
            av_done(&full);
        } else {
            av_move(&items[*n], &full);
        }
        (*n)++;
    }
out:
    store_cursor_close(&c);
    buf_done(&pk_enc);
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            av_done(&items[i]);
        *n = 0;
    }
    return store_txn_end(s, st, d);
}
