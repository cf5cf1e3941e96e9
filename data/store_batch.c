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

#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"

/* ---- batches and transactions: shared pieces ---- */

enum { W_PUT, W_DELETE, W_UPDATE, W_CHECK, W_GET };

/* One element of a batch or transaction. */
typedef struct witem {
    int kind;
    const cJSON *req;      /* the element's own object (TableName, Key/Item, expressions) */
    const char *table;
    tinfo *t;
    av val;                /* the item (PUT) or the key */
    store_key k;
    reqx x;
    av old;
    bool found;
    av atg;
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
        w->v[i].val.type = w->v[i].old.type = w->v[i].atg.type = AV_NONE;
        store_key_init(&w->v[i].k);
        sop_reqx_init(&w->v[i].x);
    }
}

static void wlist_done(wlist *w)
{
    for (size_t i = 0; i < w->n; i++) {
        av_free(&w->v[i].val);
        av_free(&w->v[i].old);
        av_free(&w->v[i].atg);
        store_key_done(&w->v[i].k);
        sop_reqx_done(&w->v[i].x);
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
    double idx[32];
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

static void write_capacity_list(buf *out, int mode, const tcap *caps, size_t n, bool lead_comma)
{
    if (!mode)
        return;
    if (lead_comma)
        buf_addc(out, ',');
    buf_adds(out, "\"ConsumedCapacity\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_addc(out, ',');
        sop_capacity_obj(out, mode, caps[i].t, caps[i].table, caps[i].idx);
    }
    buf_addc(out, ']');
}

/* ---- BatchWriteItem ---- */

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
      .flags = VF_NOTNULL | VF_KEYS_TABLENAME, .min_len = 1, .vmin_len = 1, .vmax_len = 25,
      .elem = &wr_list },
    F_END,
};

status store_op_batch_write(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, batch_write_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *ri = sop_jget(in, "RequestItems"), *tab, *e;
    size_t n = 0;
    cJSON_ArrayForEach(tab, ri) n += (size_t)cJSON_GetArraySize(tab);
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(cJSON_GetArraySize(ri) + 1, sizeof *caps);
    size_t n_caps = 0;
    bool txn = false;
    size_t i = 0;
    cJSON_ArrayForEach(tab, ri) {
        cJSON_ArrayForEach(e, tab) {
            witem *wi = &w.v[i++];
            wi->table = tab->string;
            const cJSON *put = sop_jget(e, "PutRequest"), *del = sop_jget(e, "DeleteRequest");
            if (!put && !del) {
                st = diag_set(d, ST_VALIDATION, "Supplied AttributeValue has more than one datatypes set,"
                              " must contain exactly one of the supported datatypes");
                goto out;
            }
            wi->kind = put ? W_PUT : W_DELETE;
            wi->req = put ? put : del;
            if ((st = sop_parse_item(wi->req, put ? "Item" : "Key", &wi->val, d)) != ST_OK)
                goto out;
            if (put && (st = size_check_item(&wi->val, d)) != ST_OK)
                goto out;
        }
    }
    if (n > 25) {
        st = diag_set(d, ST_VALIDATION, "Too many items requested for the BatchWriteItem call");
        goto out;
    }
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK)
            goto out;
        if (wi->kind == W_PUT)
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
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, NULL, d)) != ST_OK)
            goto out;
        store_wcap cap;
        memset(&cap, 0, sizeof cap);
        if (wi->kind == W_PUT || wi->found)
            st = store_apply(s, wi->t, &wi->k, wi->found ? &wi->old : NULL,
                             wi->kind == W_PUT ? &wi->val : NULL, &cap, d);
        else
            cap.table = 1;
        if (st != ST_OK)
            goto out;
        tcap *tc = tcap_for(caps, &n_caps, wi->t);
        tc->table += cap.table;
        for (int x = 0; x < 32; x++)
            tc->idx[x] += cap.idx[x];
    }
    buf_adds(out, "{\"UnprocessedItems\":{}");
    write_capacity_list(out, sop_rcc_mode(in), caps, n_caps, true);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    free(caps);
    return st;
}

/* ---- BatchGetItem ---- */

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
      .flags = VF_NOTNULL | VF_KEYS_TABLENAME, .min_len = 1, .elem = &kaa_elem },
    F_END,
};

typedef struct gtable {
    const cJSON *req;
    reqx x;
    av atg;
    tinfo *t;
} gtable;

status store_op_batch_get(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", NULL };
    static const char *const legacy[] = { "AttributesToGet", NULL };
    status st = store_valid_check(in, batch_get_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *ri = sop_jget(in, "RequestItems"), *tab, *e;
    size_t n_tab = (size_t)cJSON_GetArraySize(ri), n = 0;
    cJSON_ArrayForEach(tab, ri) n += (size_t)cJSON_GetArraySize(sop_jget(tab, "Keys"));
    gtable *gt = xcalloc(n_tab + 1, sizeof *gt);
    for (size_t i = 0; i < n_tab; i++) {
        sop_reqx_init(&gt[i].x);
        gt[i].atg.type = AV_NONE;
    }
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n_tab + 1, sizeof *caps);
    size_t n_caps = 0, i = 0, ti = 0, reqs = 0;
    bool txn = false;
    cJSON_ArrayForEach(tab, ri) {
        gtable *g = &gt[ti++];
        g->req = tab;
        if ((st = sop_expr_params(tab, exprs, legacy, d)) != ST_OK ||
            (st = sop_attributes_to_get(tab, &g->atg, d)) != ST_OK || (st = sop_exprs_parse(&g->x, tab, d)) != ST_OK)
            goto out;
        size_t first = i;
        cJSON_ArrayForEach(e, sop_jget(tab, "Keys")) {
            witem *wi = &w.v[i++];
            wi->kind = W_GET;
            wi->table = tab->string;
            wi->req = tab;
            if ((st = ddbjson_item_from_cjson(e, NULL, &wi->val, d)) != ST_OK)
                goto out;
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
    for (ti = 0; ti < n_tab; ti++)
        if ((st = store_table(s, gt[ti].req->string, &gt[ti].t, d)) != ST_OK)
            goto out;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK ||
            (st = store_check_key(&wi->t->def, &wi->val, &wi->k, d)) != ST_OK)
            goto out;
    }
    buf_adds(out, "{\"Responses\":{");
    i = 0;
    uint64_t total = 0;
    buf unproc = BUF_INIT;
    for (ti = 0; ti < n_tab; ti++) {
        gtable *g = &gt[ti];
        bool consistent = sop_jbool(g->req, "ConsistentRead", false);
        if (ti)
            buf_addc(out, ',');
        ddbjson_write_string(out, g->req->string, strlen(g->req->string));
        buf_adds(out, ":[");
        tcap *tc = tcap_for(caps, &n_caps, g->t);
        size_t n_keys = (size_t)cJSON_GetArraySize(sop_jget(g->req, "Keys")), written = 0, unp = 0;
        for (size_t k = 0; k < n_keys; k++, i++) {
            witem *wi = &w.v[i];
            uint64_t size = 0;
            if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, &size, d)) != ST_OK) {
                buf_done(&unproc);
                goto out;
            }
            if (!wi->found) {
                tc->table += sop_read_units(0, consistent);
                continue;
            }
            /* Past DynamoDB's response size, keys come back unprocessed. */
            if (total + size > 1024 * 1024 + 409600 - 3) {
                if (!unp++) {
                    if (unproc.len)
                        buf_addc(&unproc, ',');
                    ddbjson_write_string(&unproc, g->req->string, strlen(g->req->string));
                    buf_adds(&unproc, ":{\"Keys\":[");
                } else {
                    buf_addc(&unproc, ',');
                }
                ddbjson_write_item(&unproc, &wi->val);
                tc->table += 1;
                continue;
            }
            total += size;
            tc->table += sop_read_units(size, consistent);
            sop_project(&g->x, &g->atg, &wi->old);
            if (written++)
                buf_addc(out, ',');
            ddbjson_write_item(out, &wi->old);
        }
        if (unp) {
            buf_addc(&unproc, ']');
            if (consistent)
                buf_adds(&unproc, ",\"ConsistentRead\":true");
            buf_addc(&unproc, '}');
        }
        buf_addc(out, ']');
    }
    buf_adds(out, "},\"UnprocessedKeys\":{");
    if (unproc.len)
        buf_add(out, unproc.data, unproc.len);
    buf_addc(out, '}');
    buf_done(&unproc);
    write_capacity_list(out, sop_rcc_mode(in), caps, n_caps, true);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    for (ti = 0; ti < n_tab; ti++) {
        sop_reqx_done(&gt[ti].x);
        av_free(&gt[ti].atg);
    }
    free(gt);
    free(caps);
    return st;
}

/* ---- TransactWriteItems ---- */

#define TX_TABLE { .name = "TableName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, \
                   .min_len = 3, .max_len = 255 }
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
    { .name = "TransactItems", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1, .max_len = 100,
      .elem = &twi_elem },
    F_RCC,
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm },
    { .name = "ClientRequestToken", .type = VT_STRING, .min_len = 1, .max_len = 36 },
    F_END,
};

static status cancel(store *s, const wlist *w, const char *const *codes, const char *const *msgs,
                     diag *d)
{
    buf m = BUF_INIT;
    buf_reset(&s->err_extra);
    buf_adds(&s->err_extra, "{\"CancellationReasons\":[");
    buf_adds(&m, "Transaction cancelled, please refer cancellation reasons for specific reasons [");
    for (size_t i = 0; i < w->n; i++) {
        if (i) {
            buf_addc(&s->err_extra, ',');
            buf_adds(&m, ", ");
        }
        buf_adds(&m, codes[i]);
        buf_adds(&s->err_extra, "{\"Code\":");
        ddbjson_write_string(&s->err_extra, codes[i], strlen(codes[i]));
        if (msgs[i]) {
            buf_adds(&s->err_extra, ",\"Message\":");
            ddbjson_write_string(&s->err_extra, msgs[i], strlen(msgs[i]));
        }
        const witem *wi = &w->v[i];
        if (strcmp(codes[i], "ConditionalCheckFailed") == 0 && wi->found &&
            sop_is(sop_jstr(wi->req, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD")) {
            buf_adds(&s->err_extra, ",\"Item\":");
            ddbjson_write_item(&s->err_extra, &wi->old);
        }
        buf_addc(&s->err_extra, '}');
    }
    buf_adds(&s->err_extra, "]}");
    buf_addc(&m, ']');
    status st = diag_set(d, ST_TXN_CANCELED, "%s", m.data);
    buf_done(&m);
    return st;
}

status store_op_transact_write(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const names[] = { "Put", "Delete", "Update", "ConditionCheck" };
    static const int kinds[] = { W_PUT, W_DELETE, W_UPDATE, W_CHECK };
    status st = store_valid_check(in, transact_write_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *items = sop_jget(in, "TransactItems"), *e;
    size_t n = (size_t)cJSON_GetArraySize(items), i = 0;
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n + 1, sizeof *caps);
    const char **codes = xcalloc(n + 1, sizeof *codes), **msgs = xcalloc(n + 1, sizeof *msgs);
    av *news = xcalloc(n + 1, sizeof *news);
    size_t n_caps = 0;
    bool txn = false;
    cJSON_ArrayForEach(e, items) {
        witem *wi = &w.v[i++];
        int given = 0;
        for (int k = 0; k < 4; k++) {
            const cJSON *op = sop_jget(e, names[k]);
            if (!op)
                continue;
            given++;
            wi->kind = kinds[k];
            wi->req = op;
        }
        if (given != 1) {
            st = diag_set(d, ST_VALIDATION, "TransactItems can only contain one of Check, Put, Update or Delete");
            goto out;
        }
        wi->table = sop_jstr(wi->req, "TableName");
        static const char *const cexprs[] = { "ConditionExpression", NULL };
        static const char *const uexprs[] = { "UpdateExpression", "ConditionExpression", NULL };
        static const char *const none[] = { NULL };
        if ((st = sop_expr_params(wi->req, wi->kind == W_UPDATE ? uexprs : cexprs, none, d)) != ST_OK ||
            (st = sop_parse_item(wi->req, wi->kind == W_PUT ? "Item" : "Key", &wi->val, d)) != ST_OK)
            goto out;
        if (wi->kind == W_PUT && (st = size_check_item(&wi->val, d)) != ST_OK)
            goto out;
        if ((st = sop_exprs_parse(&wi->x, wi->req, d)) != ST_OK)
            goto out;
    }
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK)
            goto out;
        if (wi->kind == W_PUT)
            st = store_check_item(&wi->t->def, &wi->val, &wi->k, d);
        else
            st = store_check_key(&wi->t->def, &wi->val, &wi->k, d);
        if (st == ST_OK && wi->kind == W_UPDATE)
            st = sop_update_keys(&wi->t->def, wi->x.update, d);
        if (st != ST_OK)
            goto out;
        for (size_t j = 0; j < i; j++) {
            if (same_item(&w.v[j], wi)) {
                st = diag_set(d, ST_VALIDATION, "Transaction request cannot include multiple operations on one item");
                goto out;
            }
        }
    }
    /* Every condition is judged against the state before any write. */
    bool failed = false;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        codes[i] = "None";
        news[i].type = AV_NONE;
        if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, NULL, d)) != ST_OK)
            goto out;
        if (wi->x.cond && !expr_eval(wi->x.cond, wi->found ? &wi->old : NULL)) {
            codes[i] = "ConditionalCheckFailed";
            msgs[i] = "The conditional request failed";
            failed = true;
            continue;
        }
        if (wi->kind == W_UPDATE) {
            diag ud;
            diag_init(&ud);
            const av *base = wi->found ? &wi->old : &wi->val;
            st = expr_update_apply(wi->x.update, base, &news[i], NULL, &ud);
            if (st == ST_OK && (st = store_check_item(&wi->t->def, &news[i], NULL, &ud)) == ST_OK)
                st = size_check_update(&news[i], &ud);
            if (st != ST_OK) {
                /* A bad update is the request's fault, not a cancellation. */
                *d = ud;
                goto out;
            }
        }
    }
    if (failed) {
        st = cancel(s, &w, codes, msgs, d);
        goto out;
    }
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        store_wcap cap;
        memset(&cap, 0, sizeof cap);
        const av *old = wi->found ? &wi->old : NULL;
        if (wi->kind == W_PUT)
            st = store_apply(s, wi->t, &wi->k, old, &wi->val, &cap, d);
        else if (wi->kind == W_UPDATE)
            st = store_apply(s, wi->t, &wi->k, old, &news[i], &cap, d);
        else if (wi->kind == W_DELETE && wi->found)
            st = store_apply(s, wi->t, &wi->k, old, NULL, &cap, d);
        else
            cap.table = 1;
        if (st != ST_OK)
            goto out;
        /* Transactions cost double. */
        tcap *tc = tcap_for(caps, &n_caps, wi->t);
        tc->table += 2 * cap.table;
        for (int x = 0; x < 32; x++)
            tc->idx[x] += 2 * cap.idx[x];
    }
    buf_addc(out, '{');
    write_capacity_list(out, sop_rcc_mode(in), caps, n_caps, false);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    for (i = 0; i < n; i++)
        av_free(&news[i]);
    free(news);
    free(codes);
    free(msgs);
    wlist_done(&w);
    free(caps);
    return st;
}

/* ---- TransactGetItems ---- */

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
    { .name = "TransactItems", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1, .max_len = 100,
      .elem = &tgi_elem },
    F_RCC,
    F_END,
};

status store_op_transact_get(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", NULL };
    static const char *const none[] = { NULL };
    status st = store_valid_check(in, transact_get_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *items = sop_jget(in, "TransactItems"), *e;
    size_t n = (size_t)cJSON_GetArraySize(items), i = 0;
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n + 1, sizeof *caps);
    size_t n_caps = 0;
    bool txn = false;
    cJSON_ArrayForEach(e, items) {
        witem *wi = &w.v[i++];
        wi->kind = W_GET;
        wi->req = sop_jget(e, "Get");
        wi->table = sop_jstr(wi->req, "TableName");
        if ((st = sop_expr_params(wi->req, exprs, none, d)) != ST_OK ||
            (st = sop_parse_item(wi->req, "Key", &wi->val, d)) != ST_OK ||
            (st = sop_exprs_parse(&wi->x, wi->req, d)) != ST_OK)
            goto out;
    }
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        if ((st = store_table(s, wi->table, &wi->t, d)) != ST_OK ||
            (st = store_check_key(&wi->t->def, &wi->val, &wi->k, d)) != ST_OK)
            goto out;
        for (size_t j = 0; j < i; j++) {
            if (same_item(&w.v[j], wi)) {
                st = diag_set(d, ST_VALIDATION, "Transaction request cannot include multiple operations on one item");
                goto out;
            }
        }
    }
    buf_adds(out, "{\"Responses\":[");
    for (i = 0; i < n; i++) {
        witem *wi = &w.v[i];
        uint64_t size = 0;
        if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, &size, d)) != ST_OK)
            goto out;
        if (i)
            buf_addc(out, ',');
        buf_addc(out, '{');
        if (wi->found) {
            sop_project(&wi->x, NULL, &wi->old);
            buf_adds(out, "\"Item\":");
            ddbjson_write_item(out, &wi->old);
        }
        buf_addc(out, '}');
        tcap *tc = tcap_for(caps, &n_caps, wi->t);
        tc->table += 2 * sop_read_units(size, true);
    }
    buf_addc(out, ']');
    write_capacity_list(out, sop_rcc_mode(in), caps, n_caps, true);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    free(caps);
    return st;
}
