/*
 * store_item — PutItem, GetItem, UpdateItem and DeleteItem.
 *
 * Each: shape checks (store_valid), DynamoDB's semantic checks in its
 * order, then one SQLite transaction; the response written into a buf.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/ddbres.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"

static const vspec put_spec[] = {
    F_RCC,
    F_TABLE_ALONE,
    { .name = "Item", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = sop_e_condop },
    { .name = "Expected", .type = VT_MAP, .sub = "ExpectedAttributeValue", .elem = &sop_expected_elem },
    { .name = "ReturnValues", .type = VT_STRING, .enums = sop_e_rv_put },
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm },
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    F_END,
};

static const vspec delete_spec[] = {
    F_RCC,
    F_TABLE,
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = sop_e_condop },
    { .name = "Expected", .type = VT_MAP, .sub = "ExpectedAttributeValue", .elem = &sop_expected_elem },
    { .name = "ReturnValues", .type = VT_STRING, .enums = sop_e_rv_put },
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm },
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    F_END,
};

static const vspec get_spec[] = {
    F_RCC,
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &sop_str_elem },
    F_TABLE,
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAN,
    F_END,
};

/* ---- PutItem ---- */

static const char *const e_rv_update[] = { "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW", NULL };
/* AttributeAction's values, in the order DynamoDB's message lists them
 * (DynamoDB Local's ErrorFactory: "Member must satisfy enum value set:
 * [ADD, DELETE, PUT]"); AWS refuses any other Action (alternator
 * test_item.py, test_update_bad_action). */
static const char *const e_action[] = { "ADD", "DELETE", "PUT", NULL };
static const vspec avu_fields[] = {
    { .name = "Action", .type = VT_STRING, .enums = e_action },
    { .name = "Value", .type = VT_ATTRF },
    F_END,
};
static const vspec avu_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "AttributeValueUpdate",
                                .fields = avu_fields };
/* UpdateItem stops at its first invalid enum, ReturnValues first (AWS:
 * dynoxide's changelog 0.12, confirmed in eu-west-2; the order of the
 * others is that emulator's, not confirmed), where PutItem gives them all. */
/* The members UpdateItem's two specs share, in their order. */
#define F_UPDATE_BODY \
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = sop_e_condop }, \
    { .name = "Expected", .type = VT_MAP, .sub = "ExpectedAttributeValue", .elem = &sop_expected_elem }, \
    { .name = "AttributeUpdates", .type = VT_MAP, .sub = "AttributeValueUpdate", .elem = &avu_elem }, \
    { .name = "ConditionExpression", .type = VT_STRING }, \
    { .name = "UpdateExpression", .type = VT_STRING }, \
    F_EAV, \
    F_EAN
static const vspec update_spec[] = {
    { .name = "ReturnConsumedCapacity", .type = VT_STRING, .enums = sop_e_rcc, .alone = 3 },
    F_TABLE_ALONE,
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm, .alone = 4 },
    { .name = "ReturnValues", .type = VT_STRING, .enums = e_rv_update, .alone = 2 },
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    F_UPDATE_BODY,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf, .alone = 5 },
    F_END,
};
/* Without a Key AWS reports the members together, in the older form and
 * in this order, the key last: "4 validation errors detected: ...
 * 'returnConsumedCapacity' ...; ... 'tableName' ...; ... 'returnValues'
 * ...; Value null at 'key' ..." (eu-west-2 and us-east-1, 2026-10-09:
 * nubo-db/dynamodb-conformance, UpdateItem validation ordering). */
static const vspec update_nokey_spec[] = {
    { .name = "ReturnConsumedCapacity", .type = VT_STRING, .enums = sop_e_rcc },
    F_TABLE,
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = sop_e_ricm },
    { .name = "ReturnValues", .type = VT_STRING, .enums = e_rv_update },
    F_UPDATE_BODY,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf },
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    F_END,
};


/* AttributeUpdates may not name a key attribute (dynalite's
 * validateUpdates: the table's keys, before the item is read). */
static status legacy_update_keys(const table_def *def, const ddb_legacy *l, diag *d)
{
    const char *keys[2] = { def->pk.name, def->sk.name };
    for (int k = 0; k < 2; k++)
        for (size_t i = 0; keys[k] && i < l->n_updates; i++)
            if (strcmp(l->updates[i].name, keys[k]) == 0)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Cannot update"
                                " attribute %s. This attribute is part of the key", keys[k]);
    return ST_OK;
}

/* UPDATED_OLD / UPDATED_NEW: the item cut down to the update's paths. */
static void updated_part(const reqx *x, const av *item, av *out)
{
    const expr_node *root = expr_root(x->update);
    buf text = BUF_INIT;
    for (size_t i = 0; i < root->n_kids; i++) {
        const expr_node *path = root->kids[i]->n_kids ? root->kids[i]->kids[0] : NULL;
        if (!path || path->kind != EN_PATH)
            continue;
        if (text.len)
            buf_adds(&text, ", ");
        expr_path_text(&path->path, &text);
    }
    av_init_list(out, AV_M);
    expr_ctx cx;
    diag d;
    diag_init(&d);
    expr *proj = NULL;
    if (text.len && expr_ctx_init(&cx, x->names.type == AV_M ? &x->names : NULL, NULL, &d) == ST_OK) {
        if (expr_parse(&cx, EXPR_PROJECTION, text.data, text.len, &proj, &d) == ST_OK) {
            av_done(out);
            expr_project(proj, item, out);
            expr_free(proj);
        }
        expr_ctx_done(&cx);
    }
    buf_done(&text);
}


/* ---- the typed operations ---------------------------------------------- */

/* ConsumedCapacity of one table from a write's units (or a read's), when
 * the request asked for it (ReturnConsumedCapacity), as DynamoDB answers. */
static void cap_fill(const ddb_req *r, ddb_res *res, const tinfo *t, double table, const double *idx)
{
    if (r->rcc != DDB_RCC_NONE) {
        seng_cap_add(res, t, table, idx);
        return;
    }
    /* Not asked: only the thread's tally (store_call_units). */
    double u = table;
    for (size_t i = 0; idx && i < t->def.n_idx && i < SCHEMA_MAX_INDEXES; i++)
        u += idx[i];
    sop_units_add(u);
}

/* A failed condition: DynamoDB's message, and the item as it is when
 * ReturnValuesOnConditionCheckFailure asks for it. */
static status cond_failed(const ddb_req *r, const av *old, ddb_err *e)
{
    if (old && r->rv_fail_all_old)
        av_copy(&e->item, old);
    return diag_set(&e->d, ST_CONDITION_FAILED, "The conditional request failed");
}

/* Put and Delete take ReturnValues ALL_OLD or NONE only. */
static status rv_old_or_none(const ddb_req *r, diag *d)
{
    if (r->rv != DDB_RV_NONE && r->rv != DDB_RV_ALL_OLD)
        return diag_set(d, ST_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
    return ST_OK;
}

/* PutItem. */
static status item_put(store *s, const ddb_req *r, const seng_defer *df, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    av old = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    seng_reqx_init(&x);
    bool txn = false;
    status st;
    if ((st = rv_old_or_none(r, d)) != ST_OK || (st = size_check_item(&r->item, d)) != ST_OK ||
        (st = seng_exprs_typed(&x, r, df, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    bool found;
    if ((st = store_table(s, r->table, &t, d)) != ST_OK ||
        (st = store_check_item(&t->def, &r->item, &k, d)) != ST_OK ||
        (st = seng_key_paths(&t->def, x.cond, d)) != ST_OK ||
        (st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
        goto out;
    if (x.cond && !expr_eval(x.cond, found ? &old : NULL)) {
        st = cond_failed(r, found ? &old : NULL, e);
        goto out;
    }
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    if ((st = store_apply(s, t, &k, found ? &old : NULL, &r->item, &cap, d)) != ST_OK ||
        (st = seng_collection(s, r->icm, t, &k, &r->item, cap.coll, res, d)) != ST_OK)
        goto out;
    if (found && r->rv == DDB_RV_ALL_OLD)
        av_move(&res->item, &old);
    cap_fill(r, res, t, cap.table, cap.idx);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    seng_reqx_done(&x);
    av_done(&old);
    store_key_done(&k);
    return st;
}

/* DeleteItem. */
static status item_delete(store *s, const ddb_req *r, const seng_defer *df, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    av old = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    seng_reqx_init(&x);
    bool txn = false;
    status st;
    if ((st = rv_old_or_none(r, d)) != ST_OK || (st = seng_exprs_typed(&x, r, df, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    bool found;
    if ((st = store_table(s, r->table, &t, d)) != ST_OK ||
        (st = store_check_key(&t->def, &r->key, &k, d)) != ST_OK ||
        (st = seng_key_paths(&t->def, x.cond, d)) != ST_OK ||
        (st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
        goto out;
    if (x.cond && !expr_eval(x.cond, found ? &old : NULL)) {
        st = cond_failed(r, found ? &old : NULL, e);
        goto out;
    }
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    if (found) {
        if ((st = store_apply(s, t, &k, &old, NULL, &cap, d)) != ST_OK)
            goto out;
    } else {
        cap.table = 1;
    }
    if ((st = seng_collection(s, r->icm, t, &k, &r->key, cap.coll, res, d)) != ST_OK)
        goto out;
    if (found && r->rv == DDB_RV_ALL_OLD)
        av_move(&res->item, &old);
    cap_fill(r, res, t, cap.table, cap.idx);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    seng_reqx_done(&x);
    av_done(&old);
    store_key_done(&k);
    return st;
}

/* What UpdateItem returns for its ReturnValues. */
static void update_returns(const ddb_req *r, const reqx *x, bool found, av *old, av *item, av *out)
{
    if (r->rv == DDB_RV_ALL_OLD && found) {
        av_move(out, old);
    } else if (r->rv == DDB_RV_ALL_NEW) {
        av_move(out, item);
    } else if ((r->rv == DDB_RV_UPDATED_OLD && found) || r->rv == DDB_RV_UPDATED_NEW) {
        av part;
        if (x->update) {
            updated_part(x, r->rv == DDB_RV_UPDATED_OLD ? old : item, &part);
        } else if (r->legacy.has_updates) {
            av_copy(&part, r->rv == DDB_RV_UPDATED_OLD ? old : item);
            legacy_updated_part(&r->legacy, &part);
        } else {
            av_init_list(&part, AV_M);
        }
        if (part.u.m.len)
            av_move(out, &part);
        av_done(&part);
    }
}

/* UpdateItem. */
static status item_update(store *s, const ddb_req *r, const seng_defer *df, ddb_res *res, ddb_err *e)
{
    diag *d = &e->d;
    av old = { .type = AV_NONE }, item = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    seng_reqx_init(&x);
    bool txn = false;
    status st;
    if ((st = seng_exprs_typed(&x, r, df, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    bool found;
    if ((st = store_table(s, r->table, &t, d)) != ST_OK ||
        (st = store_check_key(&t->def, &r->key, &k, d)) != ST_OK ||
        (st = seng_key_paths(&t->def, x.cond, d)) != ST_OK ||
        (st = seng_update_keys(&t->def, x.update, d)) != ST_OK ||
        (st = legacy_update_keys(&t->def, &r->legacy, d)) != ST_OK ||
        (st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
        goto out;
    if (x.cond && !expr_eval(x.cond, found ? &old : NULL)) {
        st = cond_failed(r, found ? &old : NULL, e);
        goto out;
    }
    /* A missing item starts as its key. */
    if (x.update) {
        st = found ? expr_update_apply(x.update, &old, &item, NULL, d)
                   : expr_update_apply_missing(x.update, &r->key, &item, d);
        if (st != ST_OK)
            goto out;
        /* Only REMOVE (or DELETE) on a missing item writes nothing. */
        if (!found && !expr_update_creates(x.update)) {
            cap_fill(r, res, t, 1, NULL);
            goto out;
        }
    } else {
        av_copy(&item, found ? &old : &r->key);
        if ((st = legacy_updates_apply(&r->legacy, &item, d)) != ST_OK)
            goto out;
    }
    if ((st = store_check_item(&t->def, &item, NULL, d)) != ST_OK ||
        (st = size_check_update(&item, d)) != ST_OK)
        goto out;
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    /* AttributeUpdates that only DELETE leave a missing item missing
     * (AWS: alternator test_item.py, test_update_item_non_existent). */
    if (!found && legacy_deletes_only(&r->legacy)) {
        cap_fill(r, res, t, 1, NULL);
        goto out;
    }
    if ((st = store_apply(s, t, &k, found ? &old : NULL, &item, &cap, d)) != ST_OK ||
        (st = seng_collection(s, r->icm, t, &k, &item, cap.coll, res, d)) != ST_OK)
        goto out;
    update_returns(r, &x, found, &old, &item, &res->item);
    cap_fill(r, res, t, cap.table, cap.idx);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    seng_reqx_done(&x);
    av_done(&old);
    av_done(&item);
    store_key_done(&k);
    return st;
}

/* GetItem. atg: the legacy AttributesToGet (AV_L of S, or AV_NONE). json,
 * when not NULL, receives the item as DynamoDB JSON straight from its
 * stored bytes instead of res->item (the codec's fast path). */
static status item_get(store *s, const ddb_req *r, const av *atg, ddb_res *res, ddb_err *e,
                       buf *json)
{
    diag *d = &e->d;
    store_key k;
    store_key_init(&k);
    reqx x;
    seng_reqx_init(&x);
    bool txn = false;
    status st;
    if ((st = seng_exprs_typed(&x, r, NULL, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = store_table(s, r->table, &t, d)) != ST_OK ||
        (st = store_check_key(&t->def, &r->key, &k, d)) != ST_OK ||
        (st = seng_key_paths(&t->def, x.proj, d)) != ST_OK)
        goto out;
    sqlite3_stmt *q = store_stmt(s, Q_ITEM_GET, d);
    if (!q) {
        st = d->code;
        goto out;
    }
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_blob(q, 2, k.pk.data, (int)k.pk.len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 3, k.sk.data ? k.sk.data : "", (int)k.sk.len, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    uint64_t size = 0;
    if (rc == SQLITE_ROW) {
        size = (uint64_t)sqlite3_column_int64(q, 0);
        const void *body = sqlite3_column_blob(q, 1);
        size_t len = (size_t)sqlite3_column_bytes(q, 1);
        res->found = true;
        if (json && !seng_projecting(&x, atg)) {
            st = itemenc_write_json(json, body, len, d);
        } else if ((st = itemenc_decode(body, len, &res->item, d)) == ST_OK) {
            /* An item whose projection keeps nothing is still "Item": {}. */
            seng_project(&x, atg, &res->item);
        }
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    sqlite3_reset(q);
    if (st == ST_OK)
        cap_fill(r, res, t, seng_read_units(size, r->consistent), NULL);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    seng_reqx_done(&x);
    store_key_done(&k);
    return st;
}

status store_item_exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *e)
{
    switch (r->kind) {
    case DDB_GET: return item_get(s, r, &r->legacy.atg, res, e, NULL);
    case DDB_PUT: return item_put(s, r, NULL, res, e);
    case DDB_UPDATE: return item_update(s, r, NULL, res, e);
    case DDB_DELETE: return item_delete(s, r, NULL, res, e);
    default: return diag_set(&e->d, ST_INTERNAL, "not an item operation");
    }
}

/* ---- the JSON codec of the four ------------------------------------------ */

/* The members every item operation takes, into r (after the shape check
 * and expr_params); the Item or Key under `member`. */
static status item_req(const cJSON *in, const char *member, ddb_req *r, seng_defer *df, diag *d)
{
    status st = sop_parse_item(in, member, r->kind == DDB_PUT ? &r->item : &r->key, d);
    if (st != ST_OK)
        return st;
    ddb_req_set_str(&r->table, store_jstr(in, "TableName"));
    r->rcc = sop_rcc_mode(in);
    if (r->kind == DDB_GET) {
        /* Only what GetItem takes: this is the hot path of `ddbx api`. */
        ddb_req_set_str(&r->proj, store_jstr(in, "ProjectionExpression"));
        r->consistent = sop_jbool(in, "ConsistentRead", false);
    } else {
        ddb_req_set_str(&r->cond, store_jstr(in, "ConditionExpression"));
        if (r->kind == DDB_UPDATE)
            ddb_req_set_str(&r->update, store_jstr(in, "UpdateExpression"));
        r->rv = ddb_rv_find(store_jstr(in, "ReturnValues"));
        r->rv_fail_all_old = sop_is(store_jstr(in, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD");
        r->icm = sop_is(store_jstr(in, "ReturnItemCollectionMetrics"), "SIZE");
        if ((st = sop_legacy_json(in, r->kind, &r->legacy, d)) != ST_OK)
            return st;
    }
    if (sop_maps_json(in, &r->names, &r->values, &df->maps) != ST_OK) {
        df->maps_bad = true;
        av_done(&r->names);
        av_done(&r->values);
    }
    return ST_OK;
}

/* What a write returns (model/ddbres.h). */
static void write_response(const ddb_req *r, const ddb_res *res, buf *out)
{
    sop_units_of(res);
    ddb_res_json(r, res, out);
}

typedef status (*item_fn)(store *s, const ddb_req *r, const seng_defer *df, ddb_res *res, ddb_err *e);

static status item_codec(store *s, const cJSON *in, buf *out, diag *d, ddb_kind kind,
                         const vspec *spec, const char *const *exprs, const char *const *legacy,
                         const char *member, item_fn fn)
{
    status st = store_valid_check(in, spec, d, &s->err_msg);
    if (st != ST_OK || (st = sop_expr_params(in, exprs, legacy, d)) != ST_OK)
        return st;
    ddb_req r;
    ddb_req_init(&r, kind);
    ddb_res res;
    ddb_res_init(&res);
    ddb_err e;
    ddb_err_init(&e);
    seng_defer df;
    seng_defer_init(&df);
    if ((st = item_req(in, member, &r, &df, d)) == ST_OK) {
        if ((st = fn(s, &r, &df, &res, &e)) == ST_OK)
            write_response(&r, &res, out);
        else
            st = sop_error(s, &e, d);
    }
    ddb_err_done(&e);
    ddb_res_done(&res);
    ddb_req_done(&r);
    return st;
}

/* PutItem's and UpdateItem's request-validation refusals carry AWS's
 * "1 validation error detected: " envelope, their data-plane, structural
 * and limit ones not (eu-west-2, dynoxide 0.12.0's changelog and its
 * envelope matrix, 2026-07): sets empty or with duplicates, {"NULL":
 * false}, an invalid value among ExpressionAttributeValues, an invalid
 * expression (every "Invalid ...Expression:" refusal is decided from the
 * request alone), expression parameters misused, ReturnValues; the
 * constraint family has its envelope already. The other operations'
 * stay bare. */
static status envelope(store *s, status st, diag *d)
{
    static const char *const families[] = {
        "One or more parameter values were invalid: An string set  may not be empty",
        "One or more parameter values were invalid: An number set  may not be empty",
        "One or more parameter values were invalid: Binary sets should not be empty",
        "One or more parameter values were invalid: Input collection ",
        "One or more parameter values were invalid: Null attribute value types must have the value of true",
        "ExpressionAttributeValues contains invalid value",
        "Invalid ConditionExpression: ", "Invalid UpdateExpression: ",
        "ExpressionAttributeValues can only be specified", "ExpressionAttributeNames can only be specified",
        "Can not use both expression and non-expression parameters", "ReturnValues can only be ",
    };
    if (st != ST_VALIDATION || s->err_msg.len)
        return st;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (strncmp(d->msg, families[i], strlen(families[i])) == 0) {
            char msg[sizeof d->msg];
            snprintf(msg, sizeof msg, "%s", d->msg);
            return diag_set(d, ST_VALIDATION, "1 validation error detected: %s", msg);
        }
    return st;
}

status store_op_put_item(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ConditionExpression", NULL };
    static const char *const legacy[] = { "Expected", NULL };
    return envelope(s, item_codec(s, in, out, d, DDB_PUT, put_spec, exprs, legacy, "Item", item_put), d);
}

status store_op_delete_item(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ConditionExpression", NULL };
    static const char *const legacy[] = { "Expected", NULL };
    return item_codec(s, in, out, d, DDB_DELETE, delete_spec, exprs, legacy, "Key", item_delete);
}

status store_op_update_item(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "UpdateExpression", "ConditionExpression", NULL };
    static const char *const legacy[] = { "AttributeUpdates", "Expected", NULL };
    const cJSON *key = cJSON_GetObjectItemCaseSensitive(in, "Key");
    const vspec *spec = key && !cJSON_IsNull(key) ? update_spec : update_nokey_spec;
    return envelope(s, item_codec(s, in, out, d, DDB_UPDATE, spec, exprs, legacy, "Key", item_update), d);
}

/* ---- GetItem's hot path ---------------------------------------------------
 *
 * A GetItem of only TableName, Key (S and N attributes), ConsistentRead
 * and ReturnConsumedCapacity, read straight from its text
 * (ddbjson_flat_parse), for a table in the cache: the request passes every
 * check the general path makes (the shape and constraints of each member,
 * then the key against the table's schema, by the same store_check_key),
 * and the item's SELECT runs alone in autocommit, its own read
 * transaction, as raw SQLite would. The cached definition is trusted only
 * when the snapshot the SELECT read has the file version the definition
 * was checked at (store_file_version: it changes with any commit, by this
 * connection or any other, in this process or another); otherwise, and
 * whenever anything is off (a member or value the hot path does not take,
 * a failed check, an SQLite error), the request is not answered here and
 * goes the general way, which gives DynamoDB's answer or error. */

/* The key's values of a flat request, found by the schema's names as
 * store_check_key finds them in the general path's map (vals[i] NULL
 * where absent). Each is an av that owns nothing and is never freed: an S
 * is copied, NUL-terminated, into kv's room; one longer than a key may be
 * is left to the general path, as is a number that does not parse. */
typedef struct flat_keyvals {
    av v[2];
    char room[2][SIZE_PK_MAX + 1];
} flat_keyvals;

static bool flat_key(const table_def *def, const ddbjson_flat *f, const ddbjson_flat_member *m,
                     flat_keyvals *kv, const av *vals[2])
{
    const char *names[2] = { def->pk.name, def->sk.name };
    if (m->n != (names[1] ? 2u : 1u))
        return false;
    for (size_t i = 0; i < 2; i++) {
        vals[i] = NULL;
        for (size_t j = m->first; names[i] && j < m->first + m->n; j++) {
            const ddbjson_flat_attr *a = &f->attrs[j];
            if (!ddbjson_span_is(a->name, names[i]))
                continue;
            av *v = &kv->v[i];
            if (a->type == AV_N) {
                num x;
                diag nd;
                diag_init(&nd);
                if (num_parse(a->val.p, a->val.n, &x, &nd) != ST_OK)
                    return false;
                av_init_n(v, &x);
            } else {
                if (a->val.n > SIZE_PK_MAX)
                    return false;
                memcpy(kv->room[i], a->val.p, a->val.n);
                kv->room[i][a->val.n] = '\0';
                v->type = AV_S;
                v->u.s.ptr = kv->room[i];
                v->u.s.len = a->val.n;
            }
            vals[i] = v;
        }
    }
    return true;
}

/* What a flat request asks: false for a member or value to leave to the
 * general path (which takes null, strings for booleans, the expression
 * parameters, and reports every error). */
typedef struct fast_get {
    ddbjson_span table;
    const ddbjson_flat_member *key;
    bool consistent;
    ddb_rcc rcc;
} fast_get;

static bool table_name_ok(ddbjson_span n)
{
    return n.n >= 3 && n.n <= 255 && store_valid_name(n.p, n.n);
}

static bool fast_members(const ddbjson_flat *f, fast_get *g)
{
    memset(g, 0, sizeof *g);
    bool have_table = false;
    for (size_t i = 0; i < f->n; i++) {
        const ddbjson_flat_member *m = &f->m[i];
        if (m->kind == 's' && ddbjson_span_is(m->name, "TableName")) {
            g->table = m->str;
            have_table = true;
        } else if (m->kind == 'm' && ddbjson_span_is(m->name, "Key")) {
            g->key = m;
        } else if (m->kind == 'b' && ddbjson_span_is(m->name, "ConsistentRead")) {
            g->consistent = m->b;
        } else if (m->kind == 's' && ddbjson_span_is(m->name, "ReturnConsumedCapacity")) {
            if (ddbjson_span_is(m->str, "TOTAL"))
                g->rcc = DDB_RCC_TOTAL;
            else if (ddbjson_span_is(m->str, "INDEXES"))
                g->rcc = DDB_RCC_INDEXES;
            else if (!ddbjson_span_is(m->str, "NONE"))
                return false;
        } else {
            return false;
        }
    }
    return have_table && g->key && table_name_ok(g->table);
}

/* The cached table of that name, when a read transaction checked it. */
static tinfo *fast_table(store *s, ddbjson_span name)
{
    for (tinfo *t = s->tables; t; t = t->next)
        if (t->fdv >= 0 && strlen(t->name) == name.n && memcmp(t->name, name.p, name.n) == 0)
            return t;
    return NULL;
}

/* Steps the item's SELECT and writes the response; false (nothing
 * written) when the snapshot is not the one t was checked in. */
static bool fast_read(store *s, const tinfo *t, const store_key *k, const fast_get *g, buf *out)
{
    diag d;
    diag_init(&d);
    sqlite3_stmt *q = store_stmt(s, Q_ITEM_GET, &d);
    if (!q)
        return false;
    sqlite3_bind_int64(q, 1, t->id);
    sqlite3_bind_blob(q, 2, k->pk.data ? k->pk.data : "", (int)k->pk.len, SQLITE_STATIC);
    sqlite3_bind_blob(q, 3, k->sk.data ? k->sk.data : "", (int)k->sk.len, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    bool ok = (rc == SQLITE_ROW || rc == SQLITE_DONE) && store_file_version(s) == t->fdv;
    uint64_t size = 0;
    size_t mark = 0;
    if (ok && rc == SQLITE_ROW) {
        size = (uint64_t)sqlite3_column_int64(q, 0);
        const void *body = sqlite3_column_blob(q, 1);
        size_t len = (size_t)sqlite3_column_bytes(q, 1);
        /* One allocation for the usual response instead of doubling up
         * from 64 bytes (the JSON is rarely twice the encoded body). */
        buf_reserve(out, 2 * len + 256);
        mark = ddbres_get_open(out);
        ok = itemenc_write_json(out, body, len, &d) == ST_OK;
    } else {
        mark = ddbres_get_open(out);
    }
    sqlite3_reset(q);
    if (!ok)
        return false;
    double u = seng_read_units(size, g->consistent);
    sop_units_add(u);
    ddb_cap cap = { .table = t->name, .units = u, .table_units = u };
    ddb_res res = { .caps = &cap, .n_caps = 1 };
    ddbres_get_close(out, mark, g->rcc, &res);
    return true;
}

bool store_item_get_fast(store *s, const char *text, size_t len, char **out)
{
    ddbjson_flat f;
    fast_get g;
    tinfo *t;
    if (s->txn_depth > 0 || !s->tables || !ddbjson_flat_parse(text, len, &f) || !fast_members(&f, &g) ||
        !(t = fast_table(s, g.table)))
        return false;
    flat_keyvals kv;
    const av *vals[2];
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    bool done = flat_key(&t->def, &f, g.key, &kv, vals) &&
                store_check_key_values(&t->def, vals, &s->fast_key, &d) == ST_OK &&
                fast_read(s, t, &s->fast_key, &g, &b);
    if (done) {
        *out = buf_steal(&b);
        s->fast_gets++;
    }
    buf_done(&b);
    return done;
}

status store_op_get_item(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", NULL };
    static const char *const legacy[] = { "AttributesToGet", NULL };
    status st = store_valid_check(in, get_spec, d, &s->err_msg);
    if (st != ST_OK || (st = sop_expr_params(in, exprs, legacy, d)) != ST_OK)
        return st;
    ddb_req r;
    ddb_req_init(&r, DDB_GET);
    ddb_res res;
    ddb_res_init(&res);
    ddb_err e;
    ddb_err_init(&e);
    seng_defer df;
    seng_defer_init(&df);
    av *atg = &r.legacy.atg;
    if ((st = item_req(in, "Key", &r, &df, d)) != ST_OK || (st = sop_attributes_to_get(in, atg, d)) != ST_OK)
        goto out;
    if (df.maps_bad) {
        *d = df.maps;
        st = d->code;
        goto out;
    }
    /* The item's JSON goes straight into out after "Item": (taken back
     * when there is none, or when it came decoded into res.item). */
    size_t mark = ddbres_get_open(out);
    if ((st = item_get(s, &r, atg, &res, &e, out)) != ST_OK) {
        st = sop_error(s, &e, d);
        goto out;
    }
    sop_units_of(&res);
    ddbres_get_close(out, mark, r.rcc, &res);
out:
    ddb_err_done(&e);
    ddb_res_done(&res);
    ddb_req_done(&r);
    return st;
}
