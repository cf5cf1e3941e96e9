/*
 * store_batch — BatchWriteItem, BatchGetItem, TransactWriteItems and
 * TransactGetItems: each element checked as its single-item operation
 * would be, then applied in one SQLite transaction (a transaction's
 * conditions all judged against the state before any of its writes).
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/sigv4.h"
#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/ddbres.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"

/* ---- batches and transactions: shared pieces ---- */

/* One element of a batch or transaction. */
typedef struct witem {
    ddb_kind kind;         /* DDB_PUT, DDB_DELETE, DDB_UPDATE, DDB_CHECK or DDB_GET */
    const ddb_req *q;      /* the element's own request (table, key or item, expressions) */
    const char *table;
    tinfo *t;
    av val;                /* the item (PUT) or the key */
    store_key k;
    reqx x;
    av old;
    bool found;
    /* A transaction's: the action's outcome (ST_OK: it did not fail; else
     * the cancellation reason's code, ddb_reason_code) and its message
     * (malloc'd); an Update's new item; whether the action wrote (its
     * metrics). No diag here: at 1.8 KB one per element would weigh on
     * every batch. */
    status why;
    char *msg;
    av neu;
    bool wrote;
} witem;

typedef struct wlist {
    witem *v;
    size_t n;
} wlist;

static void wlist_init(wlist *w, size_t n)
{
    w->n = n;
    w->v = xcalloc(n ? n : 1, sizeof *w->v);
    for (size_t i = 0; i < n; i++) {
        w->v[i].val.type = w->v[i].old.type = w->v[i].neu.type = AV_NONE;
        w->v[i].why = ST_OK;
        store_key_init(&w->v[i].k);
        seng_reqx_init(&w->v[i].x);
    }
}

static void wlist_done(wlist *w)
{
    for (size_t i = 0; i < w->n; i++) {
        av_done(&w->v[i].val);
        av_done(&w->v[i].old);
        av_done(&w->v[i].neu);
        free(w->v[i].msg);
        store_key_done(&w->v[i].k);
        seng_reqx_done(&w->v[i].x);
    }
    free(w->v);
}

/* Same table and same key? */
static bool same_item(const witem *a, const witem *b)
{
    return a->t == b->t && a->k.pk.len == b->k.pk.len && a->k.sk.len == b->k.sk.len &&
           memcmp(a->k.pk.data, b->k.pk.data, a->k.pk.len) == 0 &&
           (a->k.sk.len == 0 || memcmp(a->k.sk.data, b->k.sk.data, a->k.sk.len) == 0);
}

/* Capacity per table, in first-seen order. */
typedef struct tcap {
    const tinfo *t;
    double table;
    double idx[SCHEMA_MAX_INDEXES];
} tcap;

static tcap *tcap_for(tcap *caps, size_t *n, const tinfo *t)
{
    for (size_t i = 0; i < *n; i++)
        if (caps[i].t == t)
            return &caps[i];
    memset(&caps[*n], 0, sizeof caps[*n]);
    caps[*n].t = t;
    return &caps[(*n)++];
}

/* The per-table capacity into a typed result. */
static void caps_to_res(const tcap *caps, size_t n, ddb_res *res)
{
    for (size_t i = 0; i < n; i++)
        seng_cap_add(res, caps[i].t, caps[i].table, caps[i].idx);
}

/* Each element's names/values maps error, left by the codec (NULL: none). */
static const seng_defer *df_at(const seng_defer *dfs, size_t i)
{
    return dfs ? &dfs[i] : NULL;
}

/* ---- request shapes ---- */

static const vspec bw_key_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    F_END,
};
static const vspec bw_item_fields[] = {
    { .name = "Item", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    F_END,
};
static const vspec wr_fields[] = {
    { .name = "DeleteRequest", .type = VT_FSTRUCT, .sub = "DeleteRequest", .fields = bw_key_fields },
    { .name = "PutRequest", .type = VT_FSTRUCT, .sub = "PutRequest", .fields = bw_item_fields },
    F_END,
};
static const vspec wr_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "WriteRequest", .fields = wr_fields };
static const vspec wr_list = { .name = "member", .type = VT_PLIST, .elem = &wr_elem };
static const vspec batch_write_spec[] = {
    F_RCC,
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm },
    { .name = "RequestItems", .type = VT_MAP,
      .sub = "java.util.List<com.amazonaws.dynamodb.v20120810.WriteRequest>",
      .flags = VF_NOTNULL | VF_KEYS_TABLENAME | VF_JAVA_VALUE, .vmin_len = 1, .vmax_len = 25,
      .elem = &wr_list },
    F_END,
};

static const vspec pmap_elem = { .name = "member", .type = VT_PMAP };
static const vspec kaa_fields[] = {
    { .name = "Keys", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1, .max_len = 100, .elem = &pmap_elem },
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &sop_str_elem },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAN,
    F_END,
};
static const vspec kaa_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "KeysAndAttributes", .fields = kaa_fields };
static const vspec batch_get_spec[] = {
    F_RCC,
    { .name = "RequestItems", .type = VT_MAP, .sub = "KeysAndAttributes",
      .flags = VF_NOTNULL | VF_KEYS_TABLENAME, .elem = &kaa_elem },
    F_END,
};

#define TX_TABLE F_TABLE
static const vspec tx_check_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING, .flags = VF_NOTNULL },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    F_END,
};
static const vspec tx_put_fields[] = {
    { .name = "Item", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    F_END,
};
static const vspec tx_delete_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    F_END,
};
static const vspec tx_update_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "UpdateExpression", .type = VT_STRING, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    F_END,
};
static const vspec twi_fields[] = {
    { .name = "ConditionCheck", .type = VT_FSTRUCT, .sub = "ConditionCheck", .fields = tx_check_fields },
    { .name = "Put", .type = VT_FSTRUCT, .sub = "Put", .fields = tx_put_fields },
    { .name = "Delete", .type = VT_FSTRUCT, .sub = "Delete", .fields = tx_delete_fields },
    { .name = "Update", .type = VT_FSTRUCT, .sub = "Update", .fields = tx_update_fields },
    F_END,
};
static const vspec twi_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "TransactWriteItem", .fields = twi_fields };
static const vspec transact_write_spec[] = {
    { .name = "TransactItems", .type = VT_LIST, .flags = VF_NOTNULL | VF_JAVA_VALUE, .min_len = 1, .max_len = 100,
      .elem = &twi_elem },
    F_RCC,
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm },
    { .name = "ClientRequestToken", .type = VT_STRING, .min_len = 1, .max_len = 36 },
    F_END,
};

static const vspec tx_get_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAN,
    F_END,
};
static const vspec tgi_fields[] = {
    { .name = "Get", .type = VT_FSTRUCT, .sub = "Get", .flags = VF_NOTNULL, .fields = tx_get_fields },
    F_END,
};
static const vspec tgi_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "TransactGetItem", .fields = tgi_fields };
static const vspec transact_get_spec[] = {
    { .name = "TransactItems", .type = VT_LIST, .flags = VF_NOTNULL | VF_JAVA_VALUE, .min_len = 1, .max_len = 100,
      .elem = &tgi_elem },
    F_RCC,
    F_END,
};


/* ---- BatchWriteItem ---- */

static status bw_run(store *s, const ddb_req *b, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    size_t n = b->n_acts;
    status st = ST_OK;
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n + 1, sizeof *caps);
    size_t n_caps = 0;
    bool txn = false;
    for (size_t i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        wi->q = &b->acts[i];
        wi->kind = wi->q->kind == DDB_PUT ? DDB_PUT : DDB_DELETE;
        wi->table = wi->q->table;
        av_copy(&wi->val, wi->kind == DDB_PUT ? &wi->q->item : &wi->q->key);
        if (wi->kind == DDB_PUT && (st = size_check_item(&wi->val, d)) != ST_OK)
            goto out;
    }
    if (n > 25) {
        st = diag_set(d, ST_VALIDATION, "Too many items requested for the BatchWriteItem call");
        goto out;
    }
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    for (size_t i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK)
            goto out;
        if (wi->kind == DDB_PUT)
            st = store_check_item(&wi->t->def, &wi->val, &wi->k, d);
        else
            st = store_check_key(&wi->t->def, &wi->val, &wi->k, d);
        if (st != ST_OK) {
            if (strstr(d->msg, "Missing the key") || strstr(d->msg, "Type mismatch for key"))
                diag_set(d, ST_VALIDATION, "The provided key element does not match the schema");
            goto out;
        }
        for (size_t j = 0; j < i; j++) {
            if (same_item(&w.v[j], wi)) {
                st = diag_set(d, ST_VALIDATION, "Provided list of item keys contains duplicates");
                goto out;
            }
        }
    }
    for (size_t i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, NULL, d)) != ST_OK)
            goto out;
        store_wcap cap;
        memset(&cap, 0, sizeof cap);
        if (wi->kind == DDB_PUT || wi->found)
            st = store_apply(s, wi->t, &wi->k, wi->found ? &wi->old : NULL,
                             wi->kind == DDB_PUT ? &wi->val : NULL, &cap, d);
        else
            cap.table = 1;
        /* Each write as its PutItem or DeleteItem would: the collection
         * limit judged after it, in the batch's order. */
        if (st != ST_OK || (st = seng_collection(s, b->icm, wi->t, &wi->k, &wi->val, cap.coll, res, d)) != ST_OK)
            goto out;
        tcap *tc = tcap_for(caps, &n_caps, wi->t);
        tc->table += cap.table;
        for (int x = 0; x < SCHEMA_MAX_INDEXES; x++)
            tc->idx[x] += cap.idx[x];
    }
    if (b->rcc != DDB_RCC_NONE)
        caps_to_res(caps, n_caps, res);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    free(caps);
    return st;
}

/* ---- BatchGetItem ---- */

typedef struct gtable {
    const ddb_req *q;
    reqx x;
    const av *atg;
    tinfo *t;
} gtable;

/* atgs: each table's legacy AttributesToGet (NULL: none given). */
static status bg_run(store *s, const ddb_req *b, const av *atgs, const seng_defer *dfs, ddb_res *res,
                     ddb_err *e)
{
    diag *d = &e->d;
    static const av none = { .type = AV_NONE };
    size_t n_tab = b->n_acts, n = 0;
    for (size_t ti = 0; ti < n_tab; ti++)
        n += b->acts[ti].keys.type == AV_L ? b->acts[ti].keys.u.l.len : 0;
    gtable *gt = xcalloc(n_tab + 1, sizeof *gt);
    for (size_t i = 0; i < n_tab; i++)
        seng_reqx_init(&gt[i].x);
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n_tab + 1, sizeof *caps);
    size_t n_caps = 0, i = 0, reqs = 0;
    bool txn = false;
    status st = ST_OK;
    for (size_t ti = 0; ti < n_tab; ti++) {
        gtable *g = &gt[ti];
        g->q = &b->acts[ti];
        g->atg = atgs ? &atgs[ti] : &none;
        if ((st = seng_exprs_typed(&g->x, g->q, df_at(dfs, ti), d)) != ST_OK)
            goto out;
        size_t first = i, nk = g->q->keys.type == AV_L ? g->q->keys.u.l.len : 0;
        for (size_t k = 0; k < nk; k++) {
            witem *wi = &w.v[i++];
            wi->kind = DDB_GET;
            wi->table = g->q->table;
            wi->q = g->q;
            av_copy(&wi->val, &g->q->keys.u.l.v[k]);
            for (size_t j = first; j + 1 < i; j++) {
                if (av_equal(&w.v[j].val, &wi->val)) {
                    st = diag_set(d, ST_VALIDATION, "Provided list of item keys contains duplicates");
                    goto out;
                }
            }
            if (++reqs > 100) {
                st = diag_set(d, ST_VALIDATION, "Too many items requested for the BatchGetItem call");
                goto out;
            }
        }
    }
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    for (size_t ti = 0; ti < n_tab; ti++)
        if ((st = store_table(s, gt[ti].q->table, &gt[ti].t, d)) != ST_OK)
            goto out;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK ||
            (st = store_check_key(&wi->t->def, &wi->val, &wi->k, d)) != ST_OK)
            goto out;
    }
    av_init_list(&res->responses, AV_M);
    ddb_req_done(&res->unprocessed);
    ddb_req_init(&res->unprocessed, DDB_BATCH_GET);
    i = 0;
    uint64_t total = 0;
    for (size_t ti = 0; ti < n_tab; ti++) {
        gtable *g = &gt[ti];
        bool consistent = g->q->consistent;
        av items;
        av_init_list(&items, AV_L);
        tcap *tc = tcap_for(caps, &n_caps, g->t);
        size_t n_keys = g->q->keys.type == AV_L ? g->q->keys.u.l.len : 0;
        ddb_req *unp = NULL;
        for (size_t k = 0; k < n_keys; k++, i++) {
            witem *wi = &w.v[i];
            uint64_t size = 0;
            if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, &size, d)) != ST_OK) {
                av_done(&items);
                goto out;
            }
            if (!wi->found) {
                tc->table += seng_read_units(0, consistent);
                continue;
            }
            /* Past DynamoDB's response size, keys come back unprocessed. */
            if (total + size > 1024 * 1024 + 409600 - 3) {
                if (!unp) {
                    unp = ddb_req_add(&res->unprocessed, DDB_GET);
                    ddb_req_set_str(&unp->table, g->q->table);
                    av_init_list(&unp->keys, AV_L);
                    unp->consistent = consistent;
                }
                av key;
                av_copy(&key, &wi->val);
                av_list_push(&unp->keys, &key);
                tc->table += 1;
                continue;
            }
            total += size;
            tc->table += seng_read_units(size, consistent);
            seng_project(&g->x, g->atg, &wi->old);
            av_list_push(&items, &wi->old);
            wi->old.type = AV_NONE;
        }
        av_map_put(&res->responses, g->q->table, strlen(g->q->table), &items);
    }
    if (b->rcc != DDB_RCC_NONE)
        caps_to_res(caps, n_caps, res);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    for (size_t ti = 0; ti < n_tab; ti++)
        seng_reqx_done(&gt[ti].x);
    free(gt);
    free(caps);
    return st;
}

/* ---- TransactWriteItems ---- */

/* A cancelled transaction: one reason an action, in order, and the item
 * as it is for a failed condition that asked for it. */
static status cancel(const wlist *w, ddb_err *e)
{
    buf m = BUF_INIT;
    buf_adds(&m, "Transaction cancelled, please refer cancellation reasons for specific reasons [");
    for (size_t i = 0; i < w->n; i++) {
        const witem *wi = &w->v[i];
        const char *code = ddb_reason_code(wi->why);
        if (i)
            buf_adds(&m, ", ");
        buf_adds(&m, code);
        ddb_reason *r = ddb_err_add_reason(e, code, wi->msg);
        if (wi->why == ST_CONDITION_FAILED && wi->found && wi->q->rv_fail_all_old)
            av_copy(&r->item, &wi->old);
    }
    buf_addc(&m, ']');
    status st = diag_set(&e->d, ST_TXN_CANCELED, "%s", m.data);
    buf_done(&m);
    return st;
}

/* An action that failed: the transaction is cancelled with its reason. */
static void w_fail(witem *wi, status why, const char *msg, bool *failed)
{
    wi->why = why;
    free(wi->msg);
    wi->msg = xstrdup(msg);
    *failed = true;
}

/* A transaction's action: Put, Delete, Update, or else a ConditionCheck. */
static ddb_kind w_kind(ddb_kind k)
{
    return k == DDB_PUT || k == DDB_DELETE || k == DDB_UPDATE ? k : DDB_CHECK;
}

/* ---- ClientRequestToken ----
 *
 * "If you submit a request with the same client token as a previous
 * successful one within 10 minutes, DynamoDB returns success without
 * applying it again; the same token with different parameters is
 * IdempotentParameterMismatchException" (API reference,
 * TransactWriteItems). The token is kept with the SHA-256 of the request
 * as ddb_req_json prints it without the token, in the tokens table
 * (store_int.h), so a restarted `ddbx serve` still knows it. */

#define TOKEN_MS (10 * 60 * 1000)

static void tw_hash(const ddb_req *tr, char out[65])
{
    ddb_req bare = *tr;   /* shallow, only printed: not ddb_req_done */
    bare.token = NULL;
    /* What shapes the answer, not the writes. */
    bare.rcc = DDB_RCC_NONE;
    bare.icm = false;
    buf b = BUF_INIT;
    ddb_req_json(&bare, &b);
    sigv4_sha256_hex(b.data ? b.data : "", b.len, out);
    buf_done(&b);
}

/* *replay true when the same request ran with this token within the 10
 * minutes; the mismatch when another one did. */
static status tw_token_check(store *s, const ddb_req *tr, const char *hash, bool *replay, diag *d)
{
    *replay = false;
    int64_t now = store_now_ms(s), since = now - TOKEN_MS;
    status st = store_sql(s, "DELETE FROM tokens WHERE t < ?1", &since, 1, d);
    if (st != ST_OK)
        return st;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT hash FROM tokens WHERE token = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_text(q, 1, tr->token, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        if (strcmp((const char *)sqlite3_column_text(q, 0), hash) == 0)
            *replay = true;
        else
            st = diag_set(d, ST_IDEMPOTENT_MISMATCH, "Request with ClientRequestToken %s has different"
                          " parameters than a previous request with the same token", tr->token);
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    sqlite3_finalize(q);
    return st;
}

static status tw_token_keep(store *s, const char *token, const char *hash, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO tokens(token, hash, t) VALUES(?1, ?2, ?3)", -1, &q,
                           NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_text(q, 1, token, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, hash, -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 3, store_now_ms(s));
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* "The aggregate size of the items in the transaction cannot exceed 4 MB"
 * (API reference, TransactWriteItems): 4 MB itself is accepted, a byte
 * more refused, with DynamoDB Local 3.3's message (AWS's is not
 * published), which counts as this does. The items are the Puts' items
 * and the other actions' keys. */
static status tw_size(const ddb_req *tr, diag *d)
{
    size_t total = 0;
    for (size_t i = 0; i < tr->n_acts; i++) {
        const ddb_req *q = &tr->acts[i];
        total += size_item(q->kind == DDB_PUT ? &q->item : &q->key);
    }
    if (total > 4u * 1024 * 1024)
        return diag_set(d, ST_VALIDATION, "Transaction payload size cannot exceed 4MB. Payload Size: %zu", total);
    return ST_OK;
}

/* The actions as the request gives them, each checked alone (an item's
 * size, its expressions), before the transaction begins. */
static status tw_actions(const ddb_req *tr, const seng_defer *dfs, wlist *w, diag *d)
{
    status st;
    for (size_t i = 0; i < w->n; i++) {
        witem *wi = &w->v[i];
        wi->q = &tr->acts[i];
        wi->kind = w_kind(wi->q->kind);
        wi->table = wi->q->table;
        av_copy(&wi->val, wi->kind == DDB_PUT ? &wi->q->item : &wi->q->key);
        if (wi->kind == DDB_PUT && (st = size_check_item(&wi->val, d)) != ST_OK)
            return st;
        if ((st = seng_exprs_typed(&wi->x, wi->q, df_at(dfs, i), d)) != ST_OK)
            return st;
    }
    return ST_OK;
}

/* Check: each action against its table (schema, key paths, no two
 * actions on one item). A key or item that does not fit fails its
 * action (*failed); the rest are errors of the whole request. */
static status tw_check(store *s, wlist *w, bool *failed, diag *d)
{
    status st;
    diag bad;
    diag_init(&bad);
    for (size_t i = 0; i < w->n; i++) {
        witem *wi = &w->v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK)
            return st;
        /* An item that does not fit the table's schema (a key or index
         * key of the wrong type or size) cancels the transaction with a
         * ValidationError reason for its action, as DynamoDB does. */
        if (wi->kind == DDB_PUT)
            st = store_check_item(&wi->t->def, &wi->val, &wi->k, &bad);
        else
            st = store_check_key(&wi->t->def, &wi->val, &wi->k, &bad);
        if (st != ST_OK) {
            w_fail(wi, ST_VALIDATION, bad.msg, failed);
            continue;
        }
        /* A condition on a path into a key attribute is refused outright
         * (not as a cancellation reason), except a ConditionCheck's, as
         * DynamoDB Local does (tests/diff/diff.js's conditions groups). */
        if (wi->kind != DDB_CHECK && (st = seng_key_paths(&wi->t->def, wi->x.cond, d)) != ST_OK)
            return st;
        if (wi->kind == DDB_UPDATE && (st = seng_update_keys(&wi->t->def, wi->x.update, d)) != ST_OK)
            return st;
        for (size_t j = 0; j < i; j++)
            if (w->v[j].why == ST_OK && same_item(&w->v[j], wi))
                return diag_set(d, ST_VALIDATION, "Transaction request cannot include multiple operations on one item");
    }
    return ST_OK;
}

/* Judge: every condition against the state before any write, and each
 * Update's new item. A condition false or an update that cannot apply
 * fails its action (*failed). */
static status tw_judge(store *s, wlist *w, bool *failed, diag *d)
{
    status st;
    diag bad;
    diag_init(&bad);
    for (size_t i = 0; i < w->n; i++) {
        witem *wi = &w->v[i];
        if (wi->why != ST_OK)
            continue;
        if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, NULL, d)) != ST_OK)
            return st;
        if (wi->x.cond && !expr_eval(wi->x.cond, wi->found ? &wi->old : NULL)) {
            w_fail(wi, ST_CONDITION_FAILED, "The conditional request failed", failed);
            continue;
        }
        if (wi->kind != DDB_UPDATE)
            continue;
        diag *ud = &bad;
        st = wi->found ? expr_update_apply(wi->x.update, &wi->old, &wi->neu, NULL, ud)
                       : expr_update_apply_missing(wi->x.update, &wi->val, &wi->neu, ud);
        if (st == ST_OK && (st = store_check_item(&wi->t->def, &wi->neu, NULL, ud)) == ST_OK)
            st = size_check_update(&wi->neu, ud);
        /* An update that cannot apply to this item (an operand of the
         * wrong type, an index key too large) cancels the transaction:
         * "[None, ValidationError]" with the message as the reason
         * (DynamoDB's answer, quoted in aws-sdk-net issue #1292). */
        if (st != ST_OK)
            w_fail(wi, ST_VALIDATION, ud->msg, failed);
    }
    return ST_OK;
}

/* Write: the writes, in order, each table's capacity added up (doubled:
 * transactions cost double). An action that grows an item collection
 * past its limit cancels the transaction with
 * ItemCollectionSizeLimitExceeded (TransactionCanceledException's
 * reference: "Item Collection Size Limit Exceeded", code
 * ItemCollectionSizeLimitExceeded), judged after its own write and the
 * earlier actions' (how DynamoDB weighs a later action of the same
 * transaction that shrinks the collection again is not published); the
 * caller's rollback undoes the writes. */
static status tw_write(store *s, wlist *w, tcap *caps, size_t *n_caps, bool *failed, diag *d)
{
    status st = ST_OK;
    diag bad;
    diag_init(&bad);
    for (size_t i = 0; i < w->n; i++) {
        witem *wi = &w->v[i];
        store_wcap cap;
        memset(&cap, 0, sizeof cap);
        const av *old = wi->found ? &wi->old : NULL;
        const av *item = wi->kind == DDB_UPDATE ? &wi->neu : &wi->val;
        /* A Delete of a missing item counts as a write, as DeleteItem's
         * metrics do; an Update that creates nothing and a check do not. */
        wi->wrote = wi->kind == DDB_PUT || wi->kind == DDB_DELETE ||
                    (wi->kind == DDB_UPDATE && (wi->found || expr_update_creates(wi->x.update)));
        if (wi->kind == DDB_PUT || (wi->kind == DDB_UPDATE && wi->wrote))
            st = store_apply(s, wi->t, &wi->k, old, item, &cap, d);
        else if (wi->kind == DDB_DELETE && wi->found)
            st = store_apply(s, wi->t, &wi->k, old, NULL, &cap, d);
        else
            cap.table = 1;
        if (st != ST_OK)
            return st;
        status cs = seng_collection(s, false, wi->t, &wi->k, item, cap.coll, NULL, &bad);
        if (cs == ST_COLLECTION_LIMIT) {
            w_fail(wi, cs, bad.msg, failed);
        } else if (cs != ST_OK) {
            *d = bad;
            return cs;
        }
        tcap *tc = tcap_for(caps, n_caps, wi->t);
        tc->table += 2 * cap.table;
        for (int x = 0; x < SCHEMA_MAX_INDEXES; x++)
            tc->idx[x] += 2 * cap.idx[x];
    }
    return ST_OK;
}

/* The metrics of the collections written, once the transaction holds. */
static status tw_metrics(store *s, const wlist *w, ddb_res *res, diag *d)
{
    status st = ST_OK;
    for (size_t i = 0; st == ST_OK && i < w->n; i++) {
        const witem *wi = &w->v[i];
        if (wi->wrote)
            st = seng_collection(s, true, wi->t, &wi->k, wi->kind == DDB_UPDATE ? &wi->neu : &wi->val, 0, res, d);
    }
    return st;
}

/* TransactWriteItems: the actions read, then in one SQLite transaction
 * checked, judged (all against the state before any write) and written;
 * any failed action cancels the whole with every action's reason. */
static status tw_run(store *s, const ddb_req *tr, const seng_defer *dfs, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    status st;
    wlist w;
    wlist_init(&w, tr->n_acts);
    tcap *caps = xcalloc(tr->n_acts + 1, sizeof *caps);
    size_t n_caps = 0;
    bool txn = false, failed = false;
    char hash[65];
    if ((st = tw_size(tr, d)) != ST_OK || (st = tw_actions(tr, dfs, &w, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    if (tr->token) {
        bool replay;
        tw_hash(tr, hash);
        if ((st = tw_token_check(s, tr, hash, &replay, d)) != ST_OK || replay)
            goto out;
    }
    if ((st = tw_check(s, &w, &failed, d)) != ST_OK || (st = tw_judge(s, &w, &failed, d)) != ST_OK)
        goto out;
    if (!failed && (st = tw_write(s, &w, caps, &n_caps, &failed, d)) != ST_OK)
        goto out;
    if (!failed && tr->icm && (st = tw_metrics(s, &w, res, d)) != ST_OK)
        goto out;
    if (failed) {
        st = cancel(&w, e);
        goto out;
    }
    if (tr->token && (st = tw_token_keep(s, tr->token, hash, d)) != ST_OK)
        goto out;
    if (tr->rcc != DDB_RCC_NONE)
        caps_to_res(caps, n_caps, res);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    free(caps);
    return st;
}

/* ---- TransactGetItems ---- */

static status tg_run(store *s, const ddb_req *tr, const seng_defer *dfs, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    size_t n = tr->n_acts, i;
    status st = ST_OK;
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n + 1, sizeof *caps);
    size_t n_caps = 0;
    bool txn = false;
    diag bad;
    diag_init(&bad);
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        wi->kind = DDB_GET;
        wi->q = &tr->acts[i];
        wi->table = wi->q->table;
        av_copy(&wi->val, &wi->q->key);
        if ((st = seng_exprs_typed(&wi->x, wi->q, df_at(dfs, i), d)) != ST_OK)
            goto out;
    }
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    bool failed = false;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK)
            goto out;
        /* A key that does not fit its table cancels the transaction with a
         * ValidationError reason, as TransactWriteItems's do (issue 29). */
        if (store_check_key(&wi->t->def, &wi->val, &wi->k, &bad) != ST_OK) {
            w_fail(wi, ST_VALIDATION, bad.msg, &failed);
            continue;
        }
        for (size_t j = 0; j < i; j++) {
            if (w.v[j].why == ST_OK && same_item(&w.v[j], wi)) {
                st = diag_set(d, ST_VALIDATION, "Transaction request cannot include multiple operations on one item");
                goto out;
            }
        }
    }
    if (failed) {
        st = cancel(&w, e);
        goto out;
    }
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        uint64_t size = 0;
        if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, &size, d)) != ST_OK)
            goto out;
        av it = { .type = AV_NONE };
        if (wi->found) {
            seng_project(&wi->x, NULL, &wi->old);
            av_move(&it, &wi->old);
        }
        ddb_res_push_item(res, &it);
        tcap *tc = tcap_for(caps, &n_caps, wi->t);
        tc->table += 2 * seng_read_units(size, true);
    }
    if (tr->rcc != DDB_RCC_NONE)
        caps_to_res(caps, n_caps, res);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    free(caps);
    return st;
}

status store_batch_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e)
{
    switch (r->kind) {
    case DDB_BATCH_WRITE: return bw_run(s, r, res, e);
    case DDB_BATCH_GET: return bg_run(s, r, NULL, NULL, res, e);
    case DDB_TRANSACT_WRITE: return tw_run(s, r, NULL, res, e);
    case DDB_TRANSACT_GET: return tg_run(s, r, NULL, res, e);
    default: return diag_set(&e->d, ST_INTERNAL, "not a batch or a transaction");
    }
}

/* ---- the JSON codec of the four ------------------------------------------- */

/* An element's maps into q, an error left in df for the typed operation. */
static void maps_into(const cJSON *in, ddb_req *q, seng_defer *df)
{
    seng_defer_init(df);
    if (sop_maps_json(in, &q->names, &q->values, &df->maps) != ST_OK) {
        df->maps_bad = true;
        av_done(&q->names);
        av_done(&q->values);
    }
}

/* An empty RequestItems, once its shape passed: not a length constraint
 * but "The requestItems parameter is required for BatchGetItem" (AWS, as
 * issue 29 quotes it; "... for BatchWriteItem" likewise). */
static status batch_shape(store *s, const cJSON *in, const vspec *spec, const char *op, diag *d)
{
    status st = store_valid_check(in, spec, d, &s->err_msg);
    const cJSON *ri = store_jget(in, "RequestItems");
    if (st == ST_OK && ri && !ri->child)
        st = diag_set(d, ST_VALIDATION, "The requestItems parameter is required for %s", op);
    return st;
}

status store_op_batch_write(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = batch_shape(s, in, batch_write_spec, "BatchWriteItem", d);
    if (st != ST_OK)
        return st;
    ddb_req b;
    ddb_req_init(&b, DDB_BATCH_WRITE);
    b.rcc = sop_rcc_mode(in);
    b.icm = sop_is(store_jstr(in, "ReturnItemCollectionMetrics"), "SIZE");
    ddb_res res;
    ddb_res_init(&res);
    ddb_err e;
    ddb_err_init(&e);
    const cJSON *tab, *el;
    cJSON_ArrayForEach(tab, store_jget(in, "RequestItems")) {
        cJSON_ArrayForEach(el, tab) {
            const cJSON *put = store_jget(el, "PutRequest"), *del = store_jget(el, "DeleteRequest");
            if (!put && !del) {
                st = diag_set(d, ST_VALIDATION, "Supplied AttributeValue has more than one datatypes set,"
                              " must contain exactly one of the supported datatypes");
                goto out;
            }
            ddb_req *a = ddb_req_add(&b, put ? DDB_PUT : DDB_DELETE);
            ddb_req_set_str(&a->table, tab->string);
            if ((st = sop_parse_item(put ? put : del, put ? "Item" : "Key", put ? &a->item : &a->key, d)) != ST_OK)
                goto out;
        }
    }
    if ((st = bw_run(s, &b, &res, &e)) != ST_OK) {
        st = sop_error(s, &e, d);
        goto out;
    }
    sop_units_of(&res);
    ddb_res_json(&b, &res, out);
out:
    ddb_err_done(&e);
    ddb_res_done(&res);
    ddb_req_done(&b);
    return st;
}

status store_op_batch_get(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", NULL };
    static const char *const legacy[] = { "AttributesToGet", NULL };
    status st = batch_shape(s, in, batch_get_spec, "BatchGetItem", d);
    if (st != ST_OK)
        return st;
    const cJSON *ri = store_jget(in, "RequestItems"), *tab, *el;
    size_t n_tab = (size_t)cJSON_GetArraySize(ri), ti = 0;
    av *atgs = xcalloc(n_tab + 1, sizeof *atgs);
    seng_defer *dfs = xcalloc(n_tab + 1, sizeof *dfs);
    ddb_req b;
    ddb_req_init(&b, DDB_BATCH_GET);
    b.rcc = sop_rcc_mode(in);
    ddb_res res;
    ddb_res_init(&res);
    ddb_err e;
    ddb_err_init(&e);
    cJSON_ArrayForEach(tab, ri) {
        ddb_req *g = ddb_req_add(&b, DDB_GET);
        ddb_req_set_str(&g->table, tab->string);
        ddb_req_set_str(&g->proj, store_jstr(tab, "ProjectionExpression"));
        g->consistent = sop_jbool(tab, "ConsistentRead", false);
        av_init_list(&g->keys, AV_L);
        if ((st = sop_expr_params(tab, exprs, legacy, d)) != ST_OK ||
            (st = sop_attributes_to_get(tab, &atgs[ti], d)) != ST_OK)
            goto out;
        maps_into(tab, g, &dfs[ti]);
        ti++;
        cJSON_ArrayForEach(el, store_jget(tab, "Keys")) {
            av key;
            if ((st = ddbjson_item_from_cjson(el, NULL, &key, d)) != ST_OK)
                goto out;
            av_list_push(&g->keys, &key);
        }
    }
    if ((st = bg_run(s, &b, atgs, dfs, &res, &e)) != ST_OK) {
        st = sop_error(s, &e, d);
        goto out;
    }
    /* Responses and UnprocessedKeys in the order the request named the tables. */
    sop_units_of(&res);
    ddb_res_json(&b, &res, out);
out:
    for (size_t i = 0; i < n_tab; i++)
        av_done(&atgs[i]);
    free(atgs);
    free(dfs);
    ddb_err_done(&e);
    ddb_res_done(&res);
    ddb_req_done(&b);
    return st;
}

status store_op_transact_write(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const names[] = { "Put", "Delete", "Update", "ConditionCheck" };
    static const ddb_kind kinds[] = { DDB_PUT, DDB_DELETE, DDB_UPDATE, DDB_CHECK };
    static const char *const cexprs[] = { "ConditionExpression", NULL };
    static const char *const uexprs[] = { "UpdateExpression", "ConditionExpression", NULL };
    static const char *const none[] = { NULL };
    status st = store_valid_check(in, transact_write_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *items = store_jget(in, "TransactItems"), *el;
    size_t n = (size_t)cJSON_GetArraySize(items), i = 0;
    seng_defer *dfs = xcalloc(n + 1, sizeof *dfs);
    ddb_req t;
    ddb_req_init(&t, DDB_TRANSACT_WRITE);
    t.rcc = sop_rcc_mode(in);
    t.icm = sop_is(store_jstr(in, "ReturnItemCollectionMetrics"), "SIZE");
    ddb_req_set_str(&t.token, store_jstr(in, "ClientRequestToken"));
    ddb_res res;
    ddb_res_init(&res);
    ddb_err e;
    ddb_err_init(&e);
    cJSON_ArrayForEach(el, items) {
        int given = 0, which = 0;
        const cJSON *req = NULL;
        for (int k = 0; k < 4; k++) {
            const cJSON *op = store_jget(el, names[k]);
            if (!op)
                continue;
            given++;
            which = k;
            req = op;
        }
        if (given != 1) {
            st = diag_set(d, ST_VALIDATION, "TransactItems can only contain one of Check, Put, Update or Delete");
            goto out;
        }
        ddb_req *a = ddb_req_add(&t, kinds[which]);
        ddb_req_set_str(&a->table, store_jstr(req, "TableName"));
        if ((st = sop_expr_params(req, a->kind == DDB_UPDATE ? uexprs : cexprs, none, d)) != ST_OK ||
            (st = sop_parse_item(req, a->kind == DDB_PUT ? "Item" : "Key",
                                 a->kind == DDB_PUT ? &a->item : &a->key, d)) != ST_OK)
            goto out;
        ddb_req_set_str(&a->cond, store_jstr(req, "ConditionExpression"));
        ddb_req_set_str(&a->update, store_jstr(req, "UpdateExpression"));
        a->rv_fail_all_old = sop_is(store_jstr(req, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD");
        maps_into(req, a, &dfs[i++]);
    }
    if ((st = tw_run(s, &t, dfs, &res, &e)) != ST_OK) {
        st = sop_error(s, &e, d);
        goto out;
    }
    sop_units_of(&res);
    ddb_res_json(&t, &res, out);
out:
    free(dfs);
    ddb_err_done(&e);
    ddb_res_done(&res);
    ddb_req_done(&t);
    return st;
}

status store_op_transact_get(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", NULL };
    static const char *const none[] = { NULL };
    status st = store_valid_check(in, transact_get_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *items = store_jget(in, "TransactItems"), *el;
    size_t n = (size_t)cJSON_GetArraySize(items), i = 0;
    seng_defer *dfs = xcalloc(n + 1, sizeof *dfs);
    ddb_req t;
    ddb_req_init(&t, DDB_TRANSACT_GET);
    t.rcc = sop_rcc_mode(in);
    ddb_res res;
    ddb_res_init(&res);
    ddb_err e;
    ddb_err_init(&e);
    cJSON_ArrayForEach(el, items) {
        const cJSON *req = store_jget(el, "Get");
        ddb_req *a = ddb_req_add(&t, DDB_GET);
        ddb_req_set_str(&a->table, store_jstr(req, "TableName"));
        if ((st = sop_expr_params(req, exprs, none, d)) != ST_OK ||
            (st = sop_parse_item(req, "Key", &a->key, d)) != ST_OK)
            goto out;
        ddb_req_set_str(&a->proj, store_jstr(req, "ProjectionExpression"));
        maps_into(req, a, &dfs[i++]);
    }
    if ((st = tg_run(s, &t, dfs, &res, &e)) != ST_OK) {
        st = sop_error(s, &e, d);
        goto out;
    }
    sop_units_of(&res);
    ddb_res_json(&t, &res, out);
out:
    free(dfs);
    ddb_err_done(&e);
    ddb_res_done(&res);
    ddb_req_done(&t);
    return st;
}
