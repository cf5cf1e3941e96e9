/*
 * store_api — the JSON dispatcher (store_call) and the item operations:
 * PutItem, GetItem, DeleteItem, Query, Scan.
 *
 * Each operation: shape checks (store_valid), DynamoDB's own semantic
 * checks in its order, then one SQLite transaction. Responses are written
 * straight into a buf in DynamoDB's response shape.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/ddbjson.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"

#define MAX_ITEM_BYTES (400 * 1024)
#define PAGE_BYTES (1024 * 1024)

/* ---- specs ---- */

static const char *const e_rcc[] = { "INDEXES", "TOTAL", "NONE", NULL };
static const char *const e_condop[] = { "OR", "AND", NULL };
static const char *const e_cmp[] = { "IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT",
                                     "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS", NULL };
static const char *const e_rv_put[] = { "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW", NULL };
static const char *const e_rvccf[] = { "ALL_OLD", "NONE", NULL };
static const char *const e_ricm[] = { "SIZE", "NONE", NULL };
static const char *const e_select[] = { "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
                                        "ALL_PROJECTED_ATTRIBUTES", NULL };

#define F_TABLE { .name = "TableName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, \
                  .min_len = 3, .max_len = 255 }
#define F_RCC { .name = "ReturnConsumedCapacity", .type = VT_STRING, .enums = e_rcc }
#define F_EAV { .name = "ExpressionAttributeValues", .type = VT_ATTRMAP }
#define F_EAN { .name = "ExpressionAttributeNames", .type = VT_MAP, .sub = "java.lang.String", \
                .elem = &str_elem }
#define F_END { .type = VT_END }

static const vspec str_elem = { .name = "member", .type = VT_STRING };
static const vspec attrval_elem = { .name = "member", .type = VT_ATTR };

static const vspec expected_fields[] = {
    { .name = "AttributeValueList", .type = VT_LIST, .elem = &attrval_elem },
    { .name = "ComparisonOperator", .type = VT_STRING, .enums = e_cmp },
    { .name = "Exists", .type = VT_BOOL },
    { .name = "Value", .type = VT_ATTRF },
    F_END,
};
static const vspec expected_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "ExpectedAttributeValue",
                                     .fields = expected_fields };
static const vspec cond_fields[] = {
    { .name = "AttributeValueList", .type = VT_LIST, .elem = &attrval_elem },
    { .name = "ComparisonOperator", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_cmp },
    F_END,
};
static const vspec cond_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "Condition",
                                 .fields = cond_fields };
static const vspec keycond_fields[] = {
    { .name = "ComparisonOperator", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_cmp },
    { .name = "AttributeValueList", .type = VT_LIST, .elem = &attrval_elem },
    F_END,
};
static const vspec keycond_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "Condition",
                                    .fields = keycond_fields };

static const vspec put_spec[] = {
    F_RCC,
    F_TABLE,
    { .name = "Item", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = e_condop },
    { .name = "Expected", .type = VT_MAP, .sub = "ExpectedAttributeValue", .elem = &expected_elem },
    { .name = "ReturnValues", .type = VT_STRING, .enums = e_rv_put },
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = e_ricm },
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
    F_END,
};

static const vspec delete_spec[] = {
    F_RCC,
    F_TABLE,
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = e_condop },
    { .name = "Expected", .type = VT_MAP, .sub = "ExpectedAttributeValue", .elem = &expected_elem },
    { .name = "ReturnValues", .type = VT_STRING, .enums = e_rv_put },
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = e_ricm },
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
    F_END,
};

static const vspec get_spec[] = {
    F_RCC,
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &str_elem },
    F_TABLE,
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAN,
    F_END,
};

static const vspec query_spec[] = {
    { .name = "Select", .type = VT_STRING, .enums = e_select },
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_RCC,
    { .name = "QueryFilter", .type = VT_MAP, .sub = "Condition", .elem = &cond_elem },
    F_TABLE,
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = e_condop },
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &str_elem },
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true },
    { .name = "KeyConditions", .type = VT_MAP, .sub = "Condition", .elem = &keycond_elem },
    { .name = "ExclusiveStartKey", .type = VT_ATTRMAP },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "ScanIndexForward", .type = VT_BOOL },
    { .name = "KeyConditionExpression", .type = VT_STRING },
    { .name = "FilterExpression", .type = VT_STRING },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    F_END,
};

static const vspec scan_spec[] = {
    { .name = "Select", .type = VT_STRING, .enums = e_select },
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_RCC,
    F_TABLE,
    { .name = "ScanFilter", .type = VT_MAP, .sub = "Condition", .elem = &cond_elem },
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &str_elem },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = e_condop },
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true },
    { .name = "ExclusiveStartKey", .type = VT_ATTRMAP },
    { .name = "TotalSegments", .type = VT_INT, .ge = 1, .has_ge = true, .le = 1000000, .has_le = true },
    { .name = "Segment", .type = VT_INT, .ge = 0, .has_ge = true, .le = 999999, .has_le = true },
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "FilterExpression", .type = VT_STRING },
    { .name = "ProjectionExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    F_END,
};

/* ---- small helpers ---- */

static const char *jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *jget(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return v && !cJSON_IsNull(v) ? v : NULL;
}

static bool jbool(const cJSON *o, const char *name, bool dflt)
{
    const cJSON *v = jget(o, name);
    if (!v)
        return dflt;
    if (cJSON_IsBool(v))
        return cJSON_IsTrue(v);
    if (cJSON_IsString(v)) {
        const char *s = v->valuestring;
        return !strcasecmp(s, "true") || !strcmp(s, "1") || !strcasecmp(s, "yes");
    }
    return dflt;
}

static bool is(const char *a, const char *b)
{
    return a && strcmp(a, b) == 0;
}

/* 0 none, 1 TOTAL, 2 INDEXES */
static int rcc_mode(const cJSON *in)
{
    const char *m = jstr(in, "ReturnConsumedCapacity");
    return is(m, "TOTAL") ? 1 : is(m, "INDEXES") ? 2 : 0;
}

static void put_units(buf *out, double u)
{
    if (u == floor(u))
        buf_printf(out, "%.0f", u);
    else
        buf_printf(out, "%g", u);
}

/* ",\"ConsumedCapacity\":{...}" */
static void write_capacity(buf *out, int mode, const tinfo *t, double table, const double *idx,
                           bool lead_comma)
{
    if (!mode)
        return;
    double total = table;
    for (size_t i = 0; idx && i < t->def.n_idx && i < 32; i++)
        total += idx[i];
    if (lead_comma)
        buf_addc(out, ',');
    buf_adds(out, "\"ConsumedCapacity\":{\"CapacityUnits\":");
    put_units(out, total);
    buf_adds(out, ",\"TableName\":");
    ddbjson_write_string(out, t->name, strlen(t->name));
    if (mode == 2) {
        buf_adds(out, ",\"Table\":{\"CapacityUnits\":");
        put_units(out, table);
        buf_addc(out, '}');
        for (int g = 0; g < 2 && idx; g++) {
            bool any = false;
            for (size_t i = 0; i < t->def.n_idx && i < 32; i++) {
                const index_def *ix = &t->def.idx[i];
                if (ix->global != (g == 1) || idx[i] == 0)
                    continue;
                buf_adds(out, any ? "," : g ? ",\"GlobalSecondaryIndexes\":{" : ",\"LocalSecondaryIndexes\":{");
                any = true;
                ddbjson_write_string(out, ix->name, strlen(ix->name));
                buf_adds(out, ":{\"CapacityUnits\":");
                put_units(out, idx[i]);
                buf_addc(out, '}');
            }
            if (any)
                buf_addc(out, '}');
        }
    }
    buf_addc(out, '}');
}

static status parse_item(const cJSON *in, const char *member, av *item, diag *d)
{
    const cJSON *v = jget(in, member);
    item->type = AV_NONE;
    if (!v) {
        av_init_list(item, AV_M);
        return ST_OK;
    }
    return ddbjson_item_from_cjson(v, NULL, item, d);
}

static status lookup_table(store *s, const cJSON *in, tinfo **t, diag *d)
{
    return store_table(s, jstr(in, "TableName"), t, d);
}

/* Expressions arrive with the expression helper; until then a request
 * using one is refused plainly rather than half-honoured. */
static status no_expressions(const cJSON *in, diag *d)
{
    static const char *const names[] = { "ConditionExpression", "FilterExpression",
                                         "ProjectionExpression", "UpdateExpression",
                                         "KeyConditionExpression", "Expected", "QueryFilter",
                                         "ScanFilter", "AttributesToGet", NULL };
    for (const char *const *p = names; *p; p++)
        if (jget(in, *p))
            return diag_set(d, ST_VALIDATION, "%s is not supported yet by this store", *p);
    return ST_OK;
}

/* ---- PutItem ---- */

status store_op_put_item(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, put_spec, d);
    if (st != ST_OK)
        return st;
    av item = { .type = AV_NONE }, old = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    bool txn = false;
    if ((st = parse_item(in, "Item", &item, d)) != ST_OK)
        goto out;
    const char *rv = jstr(in, "ReturnValues");
    if (rv && !is(rv, "ALL_OLD") && !is(rv, "NONE")) {
        st = diag_set(d, ST_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
        goto out;
    }
    if (store_item_size(&item) > MAX_ITEM_BYTES) {
        st = diag_set(d, ST_VALIDATION, "Item size has exceeded the maximum allowed size");
        goto out;
    }
    if ((st = no_expressions(in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = lookup_table(s, in, &t, d)) != ST_OK)
        goto out;
    if ((st = store_check_item(&t->def, &item, &k, d)) != ST_OK)
        goto out;
    bool found;
    if ((st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
        goto out;
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    if ((st = store_apply(s, t, &k, found ? &old : NULL, &item, &cap, d)) != ST_OK)
        goto out;
    int mode = rcc_mode(in);
    buf_addc(out, '{');
    bool comma = false;
    if (found && is(rv, "ALL_OLD")) {
        buf_adds(out, "\"Attributes\":");
        ddbjson_write_item(out, &old);
        comma = true;
    }
    write_capacity(out, mode, t, cap.table, cap.idx, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    av_free(&item);
    av_free(&old);
    store_key_done(&k);
    return st;
}

/* ---- DeleteItem ---- */

status store_op_delete_item(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, delete_spec, d);
    if (st != ST_OK)
        return st;
    av key = { .type = AV_NONE }, old = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    bool txn = false;
    if ((st = parse_item(in, "Key", &key, d)) != ST_OK)
        goto out;
    const char *rv = jstr(in, "ReturnValues");
    if (rv && !is(rv, "ALL_OLD") && !is(rv, "NONE")) {
        st = diag_set(d, ST_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
        goto out;
    }
    if ((st = no_expressions(in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = lookup_table(s, in, &t, d)) != ST_OK)
        goto out;
    if ((st = store_check_key(&t->def, &key, &k, d)) != ST_OK)
        goto out;
    bool found;
    if ((st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
        goto out;
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    if (found) {
        if ((st = store_apply(s, t, &k, &old, NULL, &cap, d)) != ST_OK)
            goto out;
    } else {
        cap.table = 1;
    }
    buf_addc(out, '{');
    bool comma = false;
    if (found && is(rv, "ALL_OLD")) {
        buf_adds(out, "\"Attributes\":");
        ddbjson_write_item(out, &old);
        comma = true;
    }
    write_capacity(out, rcc_mode(in), t, cap.table, cap.idx, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    av_free(&key);
    av_free(&old);
    store_key_done(&k);
    return st;
}

/* ---- GetItem ---- */

static double read_units(uint64_t bytes, bool consistent)
{
    uint64_t u = (bytes + 4095) / 4096;
    return (double)u * (consistent ? 1.0 : 0.5);
}

status store_op_get_item(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, get_spec, d);
    if (st != ST_OK)
        return st;
    av key = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    bool txn = false;
    if ((st = parse_item(in, "Key", &key, d)) != ST_OK)
        goto out;
    if ((st = no_expressions(in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = lookup_table(s, in, &t, d)) != ST_OK)
        goto out;
    if ((st = store_check_key(&t->def, &key, &k, d)) != ST_OK)
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
    buf_addc(out, '{');
    uint64_t size = 0;
    bool comma = false;
    if (rc == SQLITE_ROW) {
        size = (uint64_t)sqlite3_column_int64(q, 0);
        buf_adds(out, "\"Item\":");
        st = itemenc_write_json(out, sqlite3_column_blob(q, 1), (size_t)sqlite3_column_bytes(q, 1), d);
        comma = true;
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    sqlite3_reset(q);
    if (st != ST_OK)
        goto out;
    bool consistent = jbool(in, "ConsistentRead", false);
    double u = rc == SQLITE_ROW ? read_units(size, consistent) : (consistent ? 1 : 0.5);
    write_capacity(out, rcc_mode(in), t, u, NULL, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    av_free(&key);
    store_key_done(&k);
    return st;
}

/* ---- Query and Scan ---- */

typedef struct read_req {
    store_rq rq;
    long limit;
    bool count_only;
    bool consistent;
    int rcc;
    const index_def *ix;
    av pk_val, lo_val, hi_val, start;
} read_req;

static void read_req_init(read_req *r)
{
    memset(r, 0, sizeof *r);
    r->pk_val.type = r->lo_val.type = r->hi_val.type = r->start.type = AV_NONE;
}

static void read_req_done(read_req *r)
{
    av_free(&r->pk_val);
    av_free(&r->lo_val);
    av_free(&r->hi_val);
    av_free(&r->start);
}

/* The key attribute names a LastEvaluatedKey holds, sorted, unique. */
static size_t lek_names(const tinfo *t, const index_def *ix, const char *names[4])
{
    size_t n = 0;
    const char *cand[4] = { t->def.pk.name, t->def.sk.name, ix ? ix->pk.name : NULL,
                            ix ? ix->sk.name : NULL };
    for (int i = 0; i < 4; i++) {
        if (!cand[i])
            continue;
        bool dup = false;
        for (size_t j = 0; j < n; j++)
            if (strcmp(names[j], cand[i]) == 0)
                dup = true;
        if (!dup)
            names[n++] = cand[i];
    }
    /* sort for canonical output */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            const char *tmp = names[j];
            names[j] = names[j - 1];
            names[j - 1] = tmp;
        }
    return n;
}

static status write_lek(buf *out, const tinfo *t, const index_def *ix, const void *body, size_t len,
                        diag *d)
{
    const char *names[4];
    size_t n = lek_names(t, ix, names);
    buf_adds(out, ",\"LastEvaluatedKey\":{");
    for (size_t i = 0; i < n; i++) {
        const unsigned char *vp;
        size_t vlen;
        if (!itemenc_find(body, len, names[i], strlen(names[i]), &vp, &vlen))
            return diag_set(d, ST_INTERNAL, "key attribute %s missing from a stored item", names[i]);
        av v;
        status st = itemenc_decode_value(vp, vlen, &v, d);
        if (st != ST_OK)
            return st;
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, names[i], strlen(names[i]));
        buf_addc(out, ':');
        ddbjson_write_value(out, &v);
        av_free(&v);
    }
    buf_addc(out, '}');
    return ST_OK;
}

static status run_read(store *s, read_req *r, buf *out, diag *d)
{
    store_cursor c;
    status st = store_cursor_open(s, &r->rq, &c, d);
    if (st != ST_OK)
        return st;
    const tinfo *t = r->rq.t;
    const index_def *ix = r->ix;
    uint64_t scanned = 0, count = 0, bytes = 0, cap_bytes = 0;
    bool stopped = false;
    size_t last_at = 0, last_len = 0;
    buf last = BUF_INIT;
    buf_adds(out, "{");
    if (!r->count_only)
        buf_adds(out, "\"Items\":[");
    for (;;) {
        store_row row;
        bool has;
        if ((st = store_cursor_next(&c, &row, &has, d)) != ST_OK || !has)
            break;
        scanned++;
        bytes += row.size;
        cap_bytes += ix ? row.entry_size : row.size;
        count++;
        if (!r->count_only) {
            if (count > 1)
                buf_addc(out, ',');
            if (ix && ix->proj != PROJ_ALL) {
                av full, proj;
                if ((st = itemenc_decode(row.body, row.body_len, &full, d)) != ST_OK)
                    break;
                store_project_index(&t->def, ix, &full, &proj);
                ddbjson_write_item(out, &proj);
                av_free(&full);
                av_free(&proj);
            } else if ((st = itemenc_write_json(out, row.body, row.body_len, d)) != ST_OK) {
                break;
            }
        }
        if ((r->limit && scanned >= (uint64_t)r->limit) || bytes >= PAGE_BYTES) {
            stopped = true;
            buf_reset(&last);
            buf_add(&last, row.body, row.body_len);
            last_at = 0;
            last_len = row.body_len;
            break;
        }
    }
    store_cursor_close(&c);
    if (st == ST_OK) {
        if (!r->count_only)
            buf_addc(out, ']');
        buf_printf(out, "%s\"Count\":%llu,\"ScannedCount\":%llu", r->count_only ? "" : ",",
                   (unsigned long long)count, (unsigned long long)scanned);
        if (stopped)
            st = write_lek(out, t, ix, last.data + last_at, last_len, d);
        if (st == ST_OK && r->rcc) {
            double u = read_units(cap_bytes, r->consistent);
            double idx[32] = { 0 };
            if (ix) {
                idx[r->rq.xid - 1] = u;
                write_capacity(out, r->rcc, t, 0, idx, true);
            } else {
                write_capacity(out, r->rcc, t, u, NULL, true);
            }
        }
        buf_addc(out, '}');
    }
    buf_done(&last);
    return st;
}

/* Resolves IndexName, Select, Limit, ConsistentRead, ExclusiveStartKey. */
static status read_common(store *s, const cJSON *in, read_req *r, tinfo **tp, diag *d)
{
    status st = lookup_table(s, in, tp, d);
    if (st != ST_OK)
        return st;
    tinfo *t = *tp;
    r->rq.t = t;
    const char *index = jstr(in, "IndexName");
    if (index) {
        int xid = store_index_xid(&t->def, index);
        if (xid < 0)
            return diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
        r->rq.xid = xid;
        r->ix = &t->def.idx[xid - 1];
        if (r->ix->global && jbool(in, "ConsistentRead", false))
            return diag_set(d, ST_VALIDATION,
                            "Consistent reads are not supported on global secondary indexes");
    }
    const cJSON *lim = jget(in, "Limit");
    r->limit = lim && cJSON_IsNumber(lim) ? (long)lim->valuedouble : 0;
    r->count_only = is(jstr(in, "Select"), "COUNT");
    r->consistent = jbool(in, "ConsistentRead", false);
    r->rcc = rcc_mode(in);
    r->rq.forward = jbool(in, "ScanIndexForward", true);
    const cJSON *esk = jget(in, "ExclusiveStartKey");
    if (esk) {
        if ((st = ddbjson_item_from_cjson(esk, NULL, &r->start, d)) != ST_OK)
            return st;
        /* The start key names exactly the table's and the index's keys. */
        const char *names[4];
        size_t n = lek_names(t, r->ix, names);
        if (r->start.u.m.len != n)
            return diag_set(d, ST_VALIDATION, "The provided starting key is invalid");
        for (size_t i = 0; i < n; i++) {
            const av *v = av_map_get(&r->start, names[i], strlen(names[i]));
            if (!v)
                return diag_set(d, ST_VALIDATION, "The provided starting key is invalid");
        }
        store_key k;
        store_key_init(&k);
        av tk;
        av_init_list(&tk, AV_M);
        for (int i = 0; i < 2; i++) {
            const char *nm = i ? t->def.sk.name : t->def.pk.name;
            if (!nm)
                continue;
            av v;
            av_copy(&v, av_map_get(&r->start, nm, strlen(nm)));
            av_map_put(&tk, nm, strlen(nm), &v);
        }
        st = store_check_key(&t->def, &tk, &k, d);
        av_free(&tk);
        store_key_done(&k);
        if (st != ST_OK) {
            if (strstr(d->msg, "does not match the schema"))
                return diag_set(d, ST_VALIDATION, "The provided starting key is invalid: The provided"
                                " key element does not match the schema");
            return st;
        }
        r->rq.start = &r->start;
    }
    return ST_OK;
}

static bool parse_attr(const cJSON *v, av *out, diag *d)
{
    return ddbjson_value_from_cjson(v, NULL, out, d) == ST_OK;
}

/* Legacy KeyConditions: {"pk":{"ComparisonOperator":"EQ","AttributeValueList":[...]}} */
static status key_conditions(const cJSON *kc, read_req *r, diag *d)
{
    const tinfo *t = r->rq.t;
    const key_attr *pk = r->ix ? &r->ix->pk : &t->def.pk;
    const key_attr *sk = r->ix ? &r->ix->sk : &t->def.sk;
    int n = cJSON_GetArraySize(kc);
    if (n != 1 && n != 2)
        return diag_set(d, ST_VALIDATION, "Conditions can be of length 1 or 2 only");
    if (!sk->name && n > 1)
        return diag_set(d, ST_VALIDATION, "Query key condition not supported");
    const cJSON *e;
    cJSON_ArrayForEach(e, kc) {
        bool is_pk = strcmp(e->string, pk->name) == 0;
        bool is_sk = sk->name && strcmp(e->string, sk->name) == 0;
        if (!is_pk && !is_sk)
            return diag_set(d, ST_VALIDATION, "Query condition missed key schema element: %s",
                            is_pk ? sk->name : pk->name);
    }
    const cJSON *pc = cJSON_GetObjectItemCaseSensitive(kc, pk->name);
    if (!pc)
        return diag_set(d, ST_VALIDATION, "Query condition missed key schema element: %s", pk->name);
    cJSON_ArrayForEach(e, kc) {
        const char *op = jstr(e, "ComparisonOperator");
        const cJSON *list = jget(e, "AttributeValueList");
        const key_attr *ka = strcmp(e->string, pk->name) == 0 ? pk : sk;
        if (is(op, "NULL") || is(op, "NOT_NULL") || is(op, "NE") || is(op, "CONTAINS") ||
            is(op, "NOT_CONTAINS") || is(op, "IN"))
            return diag_set(d, ST_VALIDATION, "Attempted conditional constraint is not an indexable operation");
        int want = is(op, "BETWEEN") ? 2 : 1;
        if (cJSON_GetArraySize(list) != want)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Invalid number"
                            " of argument(s) for the %s ComparisonOperator", op);
        av vals[2] = { { .type = AV_NONE }, { .type = AV_NONE } };
        for (int i = 0; i < want; i++) {
            if (!parse_attr(cJSON_GetArrayItem(list, i), &vals[i], d)) {
                av_free(&vals[0]);
                return d->code;
            }
            if (vals[i].type != ka->type) {
                av_free(&vals[0]);
                av_free(&vals[1]);
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Condition"
                                " parameter type does not match schema type");
            }
        }
        if (ka == pk) {
            if (!is(op, "EQ")) {
                av_free(&vals[0]);
                return diag_set(d, ST_VALIDATION, "Query key condition not supported");
            }
            av_move(&r->pk_val, &vals[0]);
            r->rq.pk = &r->pk_val;
            continue;
        }
        if (is(op, "EQ")) {
            av_copy(&r->hi_val, &vals[0]);
            av_move(&r->lo_val, &vals[0]);
            r->rq.lo_op = r->rq.hi_op = RB_INCL;
        } else if (is(op, "LT") || is(op, "LE")) {
            av_move(&r->hi_val, &vals[0]);
            r->rq.hi_op = is(op, "LT") ? RB_EXCL : RB_INCL;
        } else if (is(op, "GT") || is(op, "GE")) {
            av_move(&r->lo_val, &vals[0]);
            r->rq.lo_op = is(op, "GT") ? RB_EXCL : RB_INCL;
        } else if (is(op, "BETWEEN")) {
            if (av_cmp(&vals[0], &vals[1]) > 0) {
                av_free(&vals[0]);
                av_free(&vals[1]);
                return diag_set(d, ST_VALIDATION, "The BETWEEN condition was provided a range where the"
                                " lower bound is greater than the upper bound");
            }
            av_move(&r->lo_val, &vals[0]);
            av_move(&r->hi_val, &vals[1]);
            r->rq.lo_op = r->rq.hi_op = RB_INCL;
        } else if (is(op, "BEGINS_WITH")) {
            if (ka->type == AV_N) {
                av_free(&vals[0]);
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid:"
                                " ComparisonOperator BEGINS_WITH is not valid for N AttributeValue type");
            }
            av_move(&r->lo_val, &vals[0]);
            r->rq.prefix = &r->lo_val;
        }
        if (r->rq.lo_op)
            r->rq.lo = &r->lo_val;
        if (r->rq.hi_op)
            r->rq.hi = &r->hi_val;
    }
    return ST_OK;
}

status store_op_query(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, query_spec, d);
    if (st != ST_OK)
        return st;
    read_req r;
    read_req_init(&r);
    bool txn = false;
    if (!jget(in, "KeyConditions") && !jget(in, "KeyConditionExpression")) {
        st = diag_set(d, ST_VALIDATION, "Either the KeyConditions or KeyConditionExpression parameter"
                      " must be specified in the request.");
        goto out;
    }
    if ((st = no_expressions(in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = read_common(s, in, &r, &t, d)) != ST_OK)
        goto out;
    if ((st = key_conditions(jget(in, "KeyConditions"), &r, d)) != ST_OK)
        goto out;
    st = run_read(s, &r, out, d);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    read_req_done(&r);
    return st;
}

status store_op_scan(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, scan_spec, d);
    if (st != ST_OK)
        return st;
    read_req r;
    read_req_init(&r);
    bool txn = false;
    const cJSON *seg = jget(in, "Segment"), *tot = jget(in, "TotalSegments");
    if (seg && !tot) {
        st = diag_set(d, ST_VALIDATION, "The TotalSegments parameter is required but was not present"
                      " in the request when Segment parameter is present");
        goto out;
    }
    if (tot && !seg) {
        st = diag_set(d, ST_VALIDATION, "The Segment parameter is required but was not present in the"
                      " request when parameter TotalSegments is present");
        goto out;
    }
    if (seg && tot && seg->valuedouble >= tot->valuedouble) {
        st = diag_set(d, ST_VALIDATION, "The Segment parameter is zero-based and must be less than"
                      " parameter TotalSegments: Segment: %.0f is out of bounds for TotalSegments: %.0f",
                      seg->valuedouble, tot->valuedouble);
        goto out;
    }
    if ((st = no_expressions(in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = read_common(s, in, &r, &t, d)) != ST_OK)
        goto out;
    r.rq.forward = true;
    if (seg) {
        r.rq.segment = (int)seg->valuedouble;
        r.rq.segments = (int)tot->valuedouble;
    }
    st = run_read(s, &r, out, d);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    read_req_done(&r);
    return st;
}

/* ---- dispatch ---- */

static const struct {
    const char *name;
    store_op_fn fn;
} ops[] = {
    { "CreateTable", store_op_create_table },
    { "DeleteTable", store_op_delete_table },
    { "DescribeTable", store_op_describe_table },
    { "ListTables", store_op_list_tables },
    { "PutItem", store_op_put_item },
    { "GetItem", store_op_get_item },
    { "DeleteItem", store_op_delete_item },
    { "Query", store_op_query },
    { "Scan", store_op_scan },
};

status store_call(store *s, const char *op, const char *input, size_t len, char **out, diag *d)
{
    *out = NULL;
    store_op_fn fn = NULL;
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, op) == 0)
            fn = ops[i].fn;
    if (!fn)
        return diag_set(d, ST_UNKNOWN_OPERATION, "Unknown operation: %s", op);
    cJSON *in = cJSON_ParseWithLength(input, len);
    if (!in || !cJSON_IsObject(in)) {
        cJSON_Delete(in);
        return diag_set(d, ST_SERIALIZATION, "Start of list found where not expected");
    }
    buf b = BUF_INIT;
    status st = fn(s, in, &b, d);
    cJSON_Delete(in);
    if (st == ST_OK)
        *out = buf_steal(&b);
    buf_done(&b);
    return st;
}

status store_call_line(store *s, const char *line, size_t len, char **out)
{
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    status st = ST_OK;
    char *body = NULL;
    cJSON *req = cJSON_ParseWithLength(line, len);
    const cJSON *opv = req ? cJSON_GetObjectItemCaseSensitive(req, "Operation") : NULL;
    const cJSON *inv = req ? cJSON_GetObjectItemCaseSensitive(req, "Input") : NULL;
    if (!req || !cJSON_IsObject(req)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: not a JSON object");
    } else if (!cJSON_IsString(opv)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: \"Operation\" must be a string");
    } else if (inv && !cJSON_IsNull(inv) && !cJSON_IsObject(inv)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: \"Input\" must be an object");
    } else {
        char *text = inv && !cJSON_IsNull(inv) ? cJSON_PrintUnformatted(inv) : NULL;
        st = store_call(s, opv->valuestring, text ? text : "{}", text ? strlen(text) : 2, &body, &d);
        cJSON_free(text);
    }
    if (st == ST_OK) {
        buf_adds(&b, "{\"Output\":");
        buf_adds(&b, body);
        buf_addc(&b, '}');
    } else {
        buf_adds(&b, "{\"Error\":{\"Code\":");
        const char *code = status_name(st);
        ddbjson_write_string(&b, code, strlen(code));
        buf_adds(&b, ",\"Message\":");
        ddbjson_write_string(&b, d.msg, strlen(d.msg));
        if (body && *body == '{' && body[1] != '}') {
            /* Extra members DynamoDB puts beside the message. */
            buf_addc(&b, ',');
            buf_add(&b, body + 1, strlen(body) - 2);
        }
        buf_addc(&b, '}');
        buf_addc(&b, '}');
    }
    free(body);
    cJSON_Delete(req);
    *out = buf_steal(&b);
    return st;
}
