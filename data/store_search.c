/*
 * store_search — `/` over the whole table (data/store_search.h).
 *
 * Local: one range read of the table's (or index's) B-tree from the start
 * item on, in key order, as a Scan reads it. S and N values are kept in
 * the item's encoding as their own bytes (model/itemenc.h), so an item
 * whose encoded bytes do not contain the text cannot match and is skipped
 * without being decoded; only the few that might are decoded and checked
 * value by value (the text may be inside an attribute name).
 *
 * Remote: one Scan page (Limit = the budget) through store_exec, its
 * items checked the same way, LastEvaluatedKey the place to go on from.
 */
#include "data/store_search.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

#define DEFAULT_BUDGET 10000

void store_search_res_init(store_search_res *r)
{
    memset(r, 0, sizeof *r);
}

void store_search_res_done(store_search_res *r)
{
    av_done(&r->item);
    av_done(&r->resume);
    memset(r, 0, sizeof *r);
}

/* Case-insensitive (ASCII) substring test. */
static bool contains(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
    if (nlen > hlen)
        return false;
    int first = tolower((unsigned char)needle[0]);
    for (size_t i = 0; i + nlen <= hlen; i++) {
        if (tolower((unsigned char)hay[i]) != first)
            continue;
        size_t j = 1;
        while (j < nlen && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == nlen)
            return true;
    }
    return false;
}

bool store_search_value_matches(const av *v, const char *text, size_t len)
{
    char nb[64];
    switch (v->type) {
    case AV_S:
        return contains(v->u.s.ptr, v->u.s.len, text, len);
    case AV_N: {
        size_t n = num_format(&v->u.n, nb);
        return contains(nb, n, text, len);
    }
    case AV_L:
    case AV_SS:
    case AV_NS:
        for (size_t i = 0; i < v->u.l.len; i++)
            if (store_search_value_matches(&v->u.l.v[i], text, len))
                return true;
        return false;
    case AV_M:
        for (size_t i = 0; i < v->u.m.len; i++)
            if (store_search_value_matches(&v->u.m.v[i].val, text, len))
                return true;
        return false;
    default:
        return false;
    }
}

/* A text with '=' or a space may be copied from a line of the view
 * ("PK=USER#024 SK=ITEM#079"): it is also looked for in the item's line,
 * its attributes as name=value in name order, one space between. */
static bool line_like(const char *text, size_t len)
{
    return memchr(text, '=', len) || memchr(text, ' ', len);
}

static bool line_matches(const av *item, const char *text, size_t len)
{
    buf b = BUF_INIT;
    for (size_t j = 0; j < item->u.m.len; j++) {
        if (j)
            buf_addc(&b, ' ');
        buf_add(&b, item->u.m.v[j].name, item->u.m.v[j].name_len);
        buf_addc(&b, '=');
        av_scalar_text(&item->u.m.v[j].val, &b);
    }
    bool hit = contains(b.data ? b.data : "", b.len, text, len);
    buf_done(&b);
    return hit;
}

bool store_search_item_matches(const av *item, const char *text, size_t len)
{
    return store_search_value_matches(item, text, len) ||
           (line_like(text, len) && line_matches(item, text, len));
}

/* The keys that place item in the read's order: the table's, and for an
 * index the index's. */
static void position_of(const table_def *def, const index_def *ix, const av *item, av *out)
{
    const char *names[4] = { def->pk.name, def->sk.name, ix ? ix->pk.name : NULL,
                             ix ? ix->sk.name : NULL };
    av_init_list(out, AV_M);
    for (int i = 0; i < 4; i++) {
        const av *v = names[i] ? av_map_get(item, names[i], strlen(names[i])) : NULL;
        if (v && !av_map_get(out, names[i], strlen(names[i]))) {
            av c;
            av_copy(&c, v);
            av_map_put(out, names[i], strlen(names[i]), &c);
        }
    }
}

/* Checks one row: the bytes first, then, when they may match, the item as
 * the view shows it. Fills *match (the caller's) when it does. */
static status check_row(const tinfo *t, const index_def *ix, const store_row *row,
                        const store_search_req *rq, av *match, bool *hit, diag *d)
{
    *hit = false;
    if (!line_like(rq->text, rq->len) && !contains(row->body, row->body_len, rq->text, rq->len))
        return ST_OK;
    av full;
    status st = itemenc_decode(row->body, row->body_len, &full, d);
    if (st != ST_OK)
        return st;
    av shown;
    if (ix && ix->proj != PROJ_ALL) {
        store_project_index(&t->def, ix, &full, &shown);
        av_done(&full);
    } else {
        av_move(&shown, &full);
    }
    *hit = store_search_item_matches(&shown, rq->text, rq->len);
    if (*hit)
        av_move(match, &shown);
    else
        av_done(&shown);
    return ST_OK;
}

static status search_local(store *s, const store_search_req *rq, size_t budget,
                           store_search_res *out, diag *d)
{
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    store_cursor c;
    memset(&c, 0, sizeof c);
    av last = { 0 };
    if ((st = store_table(s, rq->table, &t, d)) != ST_OK)
        goto out;
    int xid = store_index_xid(&t->def, rq->index);
    if (xid < 0) {
        st = diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s",
                      rq->index);
        goto out;
    }
    const index_def *ix = xid ? &t->def.idx[xid - 1] : NULL;
    store_rq r = { .t = t, .xid = xid, .forward = !rq->backward, .start = rq->after };
    if ((st = store_cursor_open(s, &r, &c, d)) != ST_OK)
        goto out;
    store_row row;
    bool has = false;
    while (out->examined < budget) {
        if ((st = store_cursor_next(&c, &row, &has, d)) != ST_OK || !has)
            break;
        out->examined++;
        bool hit;
        if ((st = check_row(t, ix, &row, rq, &out->item, &hit, d)) != ST_OK)
            break;
        if (hit) {
            out->found = true;
            break;
        }
        if (out->examined == budget) {
            /* Where to go on: the last item's keys (decoded only here). */
            av full;
            if ((st = itemenc_decode(row.body, row.body_len, &full, d)) != ST_OK)
                break;
            position_of(&t->def, ix, &full, &last);
            av_done(&full);
        }
    }
    if (st == ST_OK && !out->found) {
        if (has && last.type)
            av_move(&out->resume, &last);
        else
            out->end = true;
    }
out:
    av_done(&last);
    store_cursor_close(&c);
    return store_txn_end(s, st, d);
}

static status search_remote(store *s, const store_search_req *rq, size_t budget,
                            store_search_res *out, diag *d)
{
    if (rq->backward)
        return diag_set(d, ST_VALIDATION, "A Scan reads forward only: search backward in a "
                                          "local table (ddbx pull copies this one)");
    ddb_req req;
    ddb_res res;
    ddb_err err;
    ddb_req_init(&req, DDB_SCAN);
    ddb_res_init(&res);
    ddb_err_init(&err);
    ddb_req_set_str(&req.table, rq->table);
    if (rq->index)
        ddb_req_set_str(&req.index, rq->index);
    /* DynamoDB's 1 MB pages: the fewest round trips for what is read
     * (issue 42), the budget notwithstanding; a Scan page limit set for
     * tests or slow links (store_set_scan_limit) holds here too. */
    (void)budget;
    req.limit = s->remote->scan_limit > UINT32_MAX ? UINT32_MAX : (uint32_t)s->remote->scan_limit;
    req.rcc = DDB_RCC_TOTAL;
    status st = ST_OK;
    if (rq->after) {
        /* ExclusiveStartKey takes the key attributes only. */
        table_def def;
        if ((st = store_describe(s, rq->table, &def, d)) != ST_OK)
            goto out;
        int xid = store_index_xid(&def, rq->index);
        position_of(&def, xid > 0 ? &def.idx[xid - 1] : NULL, rq->after, &req.start);
        table_def_free(&def);
    }
    st = store_exec(s, &req, &res, &err);
    if (st != ST_OK) {
        *d = err.d;
        goto out;
    }
    for (size_t i = 0; i < res.n_items; i++) {
        out->examined++;
        if (store_search_item_matches(&res.items[i], rq->text, rq->len)) {
            out->found = true;
            av_move(&out->item, &res.items[i]);
            break;
        }
    }
    if (!out->found) {
        if (res.last_key.type)
            av_move(&out->resume, &res.last_key);
        else
            out->end = true;
    }
out:
    ddb_req_done(&req);
    ddb_res_done(&res);
    ddb_err_done(&err);
    return st;
}

status store_search(store *s, const store_search_req *rq, store_search_res *out, diag *d)
{
    size_t budget = rq->budget ? rq->budget : DEFAULT_BUDGET;
    store_search_res_done(out);
    if (!rq->text || rq->len == 0)
        return diag_set(d, ST_VALIDATION, "Nothing to search for");
    return s->remote ? search_remote(s, rq, budget, out, d) : search_local(s, rq, budget, out, d);
}

/* ---- position -------------------------------------------------------- */

/* One counting statement (prepared per call: the caller asks once a
 * selection), its blob parameters bound from keys[0..n) from ?first on. */
static status count_rows(store *s, const char *sql, int64_t tid, int xid, const buf *keys,
                         int n, uint64_t *c0, uint64_t *c1, diag *d);

/* ---- partition checkpoints ------------------------------------------- */

#define RANK_STEP 256
#define RANK_SLOTS 4

typedef struct rank_cp {
    buf pk;                /* the partition's key bytes */
    uint64_t rank, before; /* partitions and items before it */
} rank_cp;

typedef struct rank_slot {
    int64_t tid, fdv;      /* fdv: the file version the slot is of */
    int xid;
    bool asked;            /* asked once at fdv: the next builds cp */
    rank_cp *cp;
    size_t n;
    uint64_t used;         /* for replacing the least recently used */
} rank_slot;

struct store_ranks {
    rank_slot slot[RANK_SLOTS];
    uint64_t clock;
};

static void slot_clear(rank_slot *r)
{
    for (size_t i = 0; i < r->n; i++)
        buf_done(&r->cp[i].pk);
    free(r->cp);
    memset(r, 0, sizeof *r);
}

void store_ranks_free(store *s)
{
    if (!s->ranks)
        return;
    for (int i = 0; i < RANK_SLOTS; i++)
        slot_clear(&s->ranks->slot[i]);
    free(s->ranks);
    s->ranks = NULL;
}

static int key_cmp(const buf *a, const buf *b)
{
    size_t n = a->len < b->len ? a->len : b->len;
    int c = n ? memcmp(a->data, b->data, n) : 0;
    return c ? c : a->len < b->len ? -1 : a->len > b->len;
}

/* Every RANK_STEP-th partition of (tid, xid), one pass over them. */
static status build_ranks(store *s, rank_slot *r, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT pk, items FROM parts WHERE tid = ?1 AND xid = ?2 ORDER BY pk", -1, &q,
                           NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, r->tid);
    sqlite3_bind_int(q, 2, r->xid);
    uint64_t i = 0, before = 0;
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (i % RANK_STEP == 0) {
            if (r->n == cap) {
                cap = cap ? 2 * cap : 16;
                r->cp = xrealloc(r->cp, cap * sizeof *r->cp);
            }
            rank_cp *c = &r->cp[r->n++];
            buf_init(&c->pk);
            buf_add(&c->pk, sqlite3_column_blob(q, 0), (size_t)sqlite3_column_bytes(q, 0));
            c->rank = i;
            c->before = before;
        }
        before += (uint64_t)sqlite3_column_int64(q, 1);
        i++;
    }
    s->pos_steps += (uint64_t)sqlite3_stmt_status(q, SQLITE_STMTSTATUS_VM_STEP, 0);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* The slot for (tid, xid) at this read's file version, with its
 * checkpoints when they are worth having (a second question): NULL when
 * there are none to count from. */
static rank_slot *ranks_for(store *s, int64_t tid, int xid, diag *d)
{
    if (s->txn_fdv < 0 || !s->txn_hold)
        return NULL;   /* only a read transaction's file version is known */
    if (!s->ranks)
        s->ranks = xcalloc(1, sizeof *s->ranks);
    struct store_ranks *rs = s->ranks;
    rank_slot *r = NULL, *old = &rs->slot[0];
    for (int i = 0; i < RANK_SLOTS; i++) {
        rank_slot *x = &rs->slot[i];
        if (x->asked && x->tid == tid && x->xid == xid)
            r = x;
        if (x->used < old->used)
            old = x;
    }
    if (r && r->fdv != s->txn_fdv)
        slot_clear(r);   /* the file changed: asked again from scratch */
    if (!r || !r->asked) {
        r = r ? r : old;
        slot_clear(r);
        r->tid = tid;
        r->xid = xid;
        r->fdv = s->txn_fdv;
        r->asked = true;
        r->used = ++rs->clock;
        return NULL;
    }
    r->used = ++rs->clock;
    if (!r->cp && build_ranks(s, r, d) != ST_OK) {
        slot_clear(r);
        return NULL;
    }
    return r;
}

/* The partition's number and the items before it: from the checkpoint
 * before it when there are checkpoints, else counted from the start. */
static status part_rank(store *s, int64_t tid, int xid, const buf *pk, store_pos *out, diag *d)
{
    rank_slot *r = ranks_for(s, tid, xid, d);
    size_t lo = 0, hi = r ? r->n : 0;
    while (lo < hi) {   /* the first checkpoint not before pk */
        size_t mid = lo + (hi - lo) / 2;
        if (key_cmp(&r->cp[mid].pk, pk) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    status st;
    if (lo == 0) {
        st = count_rows(s, "SELECT count(*), coalesce(sum(items), 0) FROM parts"
                           " WHERE tid = ?1 AND xid = ?2 AND pk < ?3",
                        tid, xid, pk, 1, &out->part_no, &out->before_part, d);
    } else {
        const rank_cp *c = &r->cp[lo - 1];
        buf k[2] = { c->pk, *pk };   /* borrowed: count_rows binds them only */
        st = count_rows(s, "SELECT count(*), coalesce(sum(items), 0) FROM parts"
                           " WHERE tid = ?1 AND xid = ?2 AND pk >= ?3 AND pk < ?4",
                        tid, xid, k, 2, &out->part_no, &out->before_part, d);
        out->part_no += c->rank;
        out->before_part += c->before;
    }
    if (st == ST_OK)
        out->part_no++;
    return st;
}

uint64_t store_position_steps(store *s)
{
    return s->pos_steps;
}

static status count_rows(store *s, const char *sql, int64_t tid, int xid, const buf *keys,
                         int n, uint64_t *c0, uint64_t *c1, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_int(q, 2, xid);
    for (int i = 0; i < n; i++)
        sqlite3_bind_blob(q, 3 + i, keys[i].data ? keys[i].data : "", (int)keys[i].len,
                          SQLITE_STATIC);
    status st = ST_OK;
    if (sqlite3_step(q) == SQLITE_ROW) {
        *c0 = (uint64_t)sqlite3_column_int64(q, 0);
        if (c1)
            *c1 = (uint64_t)sqlite3_column_int64(q, 1);
    } else {
        st = store_sqlerr(s, d);
    }
    s->pos_steps += (uint64_t)sqlite3_stmt_status(q, SQLITE_STMTSTATUS_VM_STEP, 0);
    sqlite3_finalize(q);
    return st;
}

static void key_bytes(buf *out, const av *item, const char *name)
{
    const av *v = name ? av_map_get(item, name, strlen(name)) : NULL;
    if (v)
        keyenc_append(out, v);
}

status store_position(store *s, const char *table, const char *index, const av *pk, bool part,
                      const av *item, store_pos *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (s->remote)
        return diag_set(d, ST_VALIDATION, "A remote table has no ordered count");
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    buf k[4] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
    if ((st = store_table(s, table, &t, d)) != ST_OK)
        goto out;
    int xid = store_index_xid(&t->def, index);
    if (xid < 0) {
        st = diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
        goto out;
    }
    const index_def *ix = xid ? &t->def.idx[xid - 1] : NULL;
    store_part_key_encode(ix, pk, &k[0]);
    if (part && (st = part_rank(s, t->id, xid, &k[0], out, d)) != ST_OK)
        goto out;
    if (item) {
        if (ix) {
            buf ipk = BUF_INIT;
            store_index_key(ix, item, &ipk, &k[1]);   /* the item is in the index: every key attribute */
            buf_done(&ipk);
            key_bytes(&k[2], item, t->def.pk.name);
            key_bytes(&k[3], item, t->def.sk.name);
            st = count_rows(s, "SELECT count(*) FROM idx WHERE tid = ?1 AND xid = ?2 AND ipk = ?3"
                               " AND (isk, pk, sk) < (?4, ?5, ?6)",
                            t->id, xid, k, 4, &out->in_part, NULL, d);
        } else {
            key_bytes(&k[1], item, t->def.sk.name);
            st = count_rows(s, "SELECT count(*) FROM items WHERE tid = ?1 AND ?2 = ?2"
                               " AND pk = ?3 AND sk < ?4",
                            t->id, xid, k, 2, &out->in_part, NULL, d);
        }
    }
out:
    for (int i = 0; i < 4; i++)
        buf_done(&k[i]);
    return store_txn_end(s, st, d);
}
