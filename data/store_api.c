/*
 * store_api — the JSON dispatcher (store_call) and the item operations:
 * PutItem, GetItem, DeleteItem, Query, Scan.
 *
 * Each operation: shape checks (store_valid), DynamoDB's own semantic
 * checks in its order, then one SQLite transaction. Responses are written
 * straight into a buf in DynamoDB's response shape.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/ddbjson.h"
#include "model/expr.h"
#include "model/size.h"
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

/* One ConsumedCapacity object: {"CapacityUnits":..,"TableName":..,...}. */
static void capacity_obj(buf *out, int mode, const tinfo *t, double table, const double *idx)
{
    double total = table;
    for (size_t i = 0; idx && i < t->def.n_idx && i < 32; i++)
        total += idx[i];
    buf_adds(out, "{\"CapacityUnits\":");
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

/* ",\"ConsumedCapacity\":{...}" */
static void write_capacity(buf *out, int mode, const tinfo *t, double table, const double *idx,
                           bool lead_comma)
{
    if (!mode)
        return;
    if (lead_comma)
        buf_addc(out, ',');
    buf_adds(out, "\"ConsumedCapacity\":");
    capacity_obj(out, mode, t, table, idx);
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

/* ---- expressions ---- */

/* Legacy (pre-expression) parameters this store does not implement. */
static status no_legacy(const cJSON *in, diag *d)
{
    static const char *const names[] = { "Expected", "QueryFilter", "ScanFilter",
                                         "AttributeUpdates", NULL };
    for (const char *const *p = names; *p; p++)
        if (jget(in, *p))
            return diag_set(d, ST_VALIDATION, "%s is a legacy parameter ddbx does not support;"
                            " use the expression parameters", *p);
    return ST_OK;
}

/* DynamoDB's validateExpressionParams: expressions and their legacy
 * counterparts exclude each other; names/values need an expression. */
static status expr_params(const cJSON *in, const char *const *exprs, const char *const *legacy,
                          diag *d)
{
    buf used = BUF_INIT, old = BUF_INIT;
    status st = ST_OK;
    size_t n_used = 0, n_old = 0;
    for (const char *const *p = exprs; *p; p++)
        if (jget(in, *p)) {
            buf_adds(&used, n_used++ ? ", " : "");
            buf_adds(&used, *p);
        }
    bool keycond_only_legacy = jget(in, "KeyConditions") && !jget(in, "KeyConditionExpression");
    if (n_used) {
        for (const char *const *p = legacy; *p; p++) {
            if (keycond_only_legacy && strcmp(*p, "KeyConditions") == 0)
                continue;
            if (jget(in, *p)) {
                buf_adds(&old, n_old++ ? ", " : "");
                buf_adds(&old, *p);
            }
        }
        if (n_old) {
            st = diag_set(d, ST_VALIDATION, "Can not use both expression and non-expression parameters"
                          " in the same request: Non-expression parameters: {%s} Expression parameters:"
                          " {%s}", old.data, used.data);
            goto out;
        }
    }
    if (jget(in, "ExpressionAttributeNames") && !n_used) {
        st = diag_set(d, ST_VALIDATION, "ExpressionAttributeNames can only be specified when using expressions");
        goto out;
    }
    if (jget(in, "ExpressionAttributeValues")) {
        size_t n_val = 0, n_given = 0;
        buf list = BUF_INIT;
        for (const char *const *p = exprs; *p; p++) {
            if (strcmp(*p, "ProjectionExpression") == 0)
                continue;
            buf_adds(&list, n_val++ ? " and " : "");
            buf_adds(&list, *p);
            if (jget(in, *p))
                n_given++;
        }
        if (n_val && !n_given)
            st = diag_set(d, ST_VALIDATION, "ExpressionAttributeValues can only be specified when using"
                          " expressions: %s %s null", list.data, n_val > 1 ? "are" : "is");
        buf_done(&list);
    }
out:
    buf_done(&used);
    buf_done(&old);
    return st;
}

typedef struct reqx {
    av names, values;
    expr_ctx cx;
    bool cx_on;
    expr *update, *cond, *key, *filter, *proj;
    const char **fnames;   /* top-level names the filter reads */
    size_t *flens;
    size_t n_fnames;
} reqx;

static void reqx_init(reqx *x)
{
    memset(x, 0, sizeof *x);
    x->names.type = x->values.type = AV_NONE;
}

static void reqx_done(reqx *x)
{
    expr_free(x->update);
    expr_free(x->cond);
    expr_free(x->key);
    expr_free(x->filter);
    expr_free(x->proj);
    if (x->cx_on)
        expr_ctx_done(&x->cx);
    av_free(&x->names);
    av_free(&x->values);
    free(x->fnames);
    free(x->flens);
}

static bool placeholder_ok(const char *k, char lead)
{
    if (k[0] != lead || !k[1])
        return false;
    for (const char *p = k + 1; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_'))
            return false;
    return true;
}

static void collect_heads(reqx *x, const expr_node *n)
{
    if (!n)
        return;
    if (n->kind == EN_PATH && n->path.n > 0 && !n->path.steps[0].is_index) {
        const char *nm = n->path.steps[0].name;
        size_t len = n->path.steps[0].len;
        for (size_t i = 0; i < x->n_fnames; i++)
            if (x->flens[i] == len && memcmp(x->fnames[i], nm, len) == 0)
                return;
        x->fnames = xrealloc(x->fnames, (x->n_fnames + 1) * sizeof *x->fnames);
        x->flens = xrealloc(x->flens, (x->n_fnames + 1) * sizeof *x->flens);
        x->fnames[x->n_fnames] = nm;
        x->flens[x->n_fnames++] = len;
    }
    for (size_t i = 0; i < n->n_kids; i++)
        collect_heads(x, n->kids[i]);
}

static status parse_one(reqx *x, const cJSON *in, const char *member, expr_kind kind, expr **out,
                        diag *d)
{
    const char *text = jstr(in, member);
    if (!text)
        return ST_OK;
    return expr_parse(&x->cx, kind, text, strlen(text), out, d);
}

/* DynamoDB's validateExpressions: the maps, then each expression in
 * DynamoDB's order, then unused placeholders. */
static status exprs_parse(reqx *x, const cJSON *in, diag *d)
{
    status st;
    const cJSON *ean = jget(in, "ExpressionAttributeNames");
    const cJSON *eav = jget(in, "ExpressionAttributeValues");
    const cJSON *e;
    if (ean) {
        if (!ean->child)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must not be empty");
        cJSON_ArrayForEach(e, ean) {
            if (!placeholder_ok(e->string, '#'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames contains invalid key: Syntax"
                                " error; key: \"%s\"", e->string);
        }
        av_init_list(&x->names, AV_M);
        cJSON_ArrayForEach(e, ean) {
            av v;
            const char *str = cJSON_IsString(e) ? e->valuestring : "";
            av_init_s(&v, str, strlen(str));
            av_map_put(&x->names, e->string, strlen(e->string), &v);
        }
    }
    if (eav) {
        if (!eav->child)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues must not be empty");
        cJSON_ArrayForEach(e, eav) {
            if (!placeholder_ok(e->string, ':'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid key: Syntax"
                                " error; key: \"%s\"", e->string);
        }
        av_init_list(&x->values, AV_M);
        cJSON_ArrayForEach(e, eav) {
            av v;
            if (ddbjson_value_from_cjson(e, NULL, &v, d) != ST_OK) {
                char msg[sizeof d->msg];
                snprintf(msg, sizeof msg, "%s", d->msg);
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid value: %s"
                                " for key %s", msg, e->string);
            }
            /* DynamoDB refuses a value nested deeper than an item may be
             * before it looks at the expressions. */
            if (size_too_deep(&v)) {
                av_free(&v);
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid value: Nesting"
                                " Levels have exceeded supported limits for key %s", e->string);
            }
            av_map_put(&x->values, e->string, strlen(e->string), &v);
        }
    }
    if ((st = expr_ctx_init(&x->cx, ean ? &x->names : NULL, eav ? &x->values : NULL, d)) != ST_OK)
        return st;
    x->cx_on = true;
    if ((st = parse_one(x, in, "UpdateExpression", EXPR_UPDATE, &x->update, d)) != ST_OK ||
        (st = parse_one(x, in, "ConditionExpression", EXPR_CONDITION, &x->cond, d)) != ST_OK ||
        (st = parse_one(x, in, "KeyConditionExpression", EXPR_KEY, &x->key, d)) != ST_OK ||
        (st = parse_one(x, in, "FilterExpression", EXPR_FILTER, &x->filter, d)) != ST_OK ||
        (st = parse_one(x, in, "ProjectionExpression", EXPR_PROJECTION, &x->proj, d)) != ST_OK)
        return st;
    if ((st = expr_ctx_finish(&x->cx, d)) != ST_OK)
        return st;
    if (x->filter)
        collect_heads(x, expr_root(x->filter));
    return ST_OK;
}

/* AttributesToGet, the legacy projection: top-level names. */
static status attributes_to_get(const cJSON *in, av *names, diag *d)
{
    const cJSON *atg = jget(in, "AttributesToGet");
    names->type = AV_NONE;
    if (!atg)
        return ST_OK;
    const cJSON *e, *f;
    cJSON_ArrayForEach(e, atg) {
        for (f = atg->child; f != e; f = f->next)
            if (cJSON_IsString(e) && cJSON_IsString(f) && strcmp(e->valuestring, f->valuestring) == 0)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Duplicate"
                                " value in attribute name: %s", e->valuestring);
    }
    av_init_list(names, AV_L);
    cJSON_ArrayForEach(e, atg) {
        av v;
        av_init_s(&v, e->valuestring, strlen(e->valuestring));
        av_list_push(names, &v);
    }
    return ST_OK;
}

/* Applies ProjectionExpression or AttributesToGet to item (in place). */
static void project(const reqx *x, const av *atg, av *item)
{
    av out;
    if (x->proj) {
        expr_project(x->proj, item, &out);
    } else if (atg && atg->type == AV_L) {
        av_init_list(&out, AV_M);
        for (size_t i = 0; i < atg->u.l.len; i++) {
            const av *nm = &atg->u.l.v[i];
            const av *v = av_map_get(item, nm->u.s.ptr, nm->u.s.len);
            if (v) {
                av c;
                av_copy(&c, v);
                av_map_put(&out, nm->u.s.ptr, nm->u.s.len, &c);
            }
        }
    } else {
        return;
    }
    av_free(item);
    av_move(item, &out);
}

static bool projecting(const reqx *x, const av *atg)
{
    return x->proj || (atg && atg->type == AV_L);
}

/* A failed condition: DynamoDB's message, and the current item when
 * ReturnValuesOnConditionCheckFailure asks for it. */
static status condition_failed(store *s, const cJSON *in, const av *old, diag *d)
{
    if (old && is(jstr(in, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD")) {
        buf_reset(&s->err_extra);
        buf_adds(&s->err_extra, "{\"Item\":");
        ddbjson_write_item(&s->err_extra, old);
        buf_addc(&s->err_extra, '}');
    }
    return diag_set(d, ST_CONDITION_FAILED, "The conditional request failed");
}

/* Nested paths (a.b, a[1]) into key attributes, refused as DynamoDB does:
 * table keys first, then index keys (GSIs, then LSIs' sort keys). */
static bool nested_head(const expr_node *n, const char *name)
{
    if (!n)
        return false;
    if (n->kind == EN_PATH && n->path.n > 1 && !n->path.steps[0].is_index &&
        n->path.steps[0].len == strlen(name) && memcmp(n->path.steps[0].name, name, n->path.steps[0].len) == 0)
        return true;
    for (size_t i = 0; i < n->n_kids; i++)
        if (nested_head(n->kids[i], name))
            return true;
    return false;
}

static status key_paths(const table_def *def, const expr *e, diag *d)
{
    if (!e)
        return ST_OK;
    const expr_node *root = expr_root(e);
    const char *keys[2] = { def->pk.name, def->sk.name };
    for (int k = 0; k < 2; k++)
        if (keys[k] && nested_head(root, keys[k]))
            return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access '[]'"
                            " and map lookup '.' are not allowed: Key: %s", keys[k]);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t x = 0; x < def->n_idx; x++) {
            const index_def *ix = &def->idx[x];
            if (ix->global != (pass == 0))
                continue;
            const char *ik[2] = { ix->global ? ix->pk.name : NULL, ix->sk.name };
            for (int k = 0; k < 2; k++)
                if (ik[k] && nested_head(root, ik[k]))
                    return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access"
                                    " '[]' and map lookup '.' are not allowed: IndexKey: %s", ik[k]);
        }
    }
    return ST_OK;
}

/* ---- PutItem ---- */

static const char *const cond_exprs[] = { "ConditionExpression", NULL };
static const char *const cond_legacy[] = { "Expected", NULL };

static void write_attributes(buf *out, const av *item, bool *comma)
{
    buf_adds(out, "\"Attributes\":");
    ddbjson_write_item(out, item);
    *comma = true;
}

status store_op_put_item(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, put_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    av item = { .type = AV_NONE }, old = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    reqx_init(&x);
    bool txn = false;
    if ((st = expr_params(in, cond_exprs, cond_legacy, d)) != ST_OK)
        goto out;
    if ((st = parse_item(in, "Item", &item, d)) != ST_OK)
        goto out;
    const char *rv = jstr(in, "ReturnValues");
    if (rv && !is(rv, "ALL_OLD") && !is(rv, "NONE")) {
        st = diag_set(d, ST_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
        goto out;
    }
    if ((st = size_check_item(&item, d)) != ST_OK || (st = no_legacy(in, d)) != ST_OK ||
        (st = exprs_parse(&x, in, d)) != ST_OK)
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
    if (x.cond && !expr_eval(x.cond, found ? &old : NULL)) {
        st = condition_failed(s, in, found ? &old : NULL, d);
        goto out;
    }
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    if ((st = store_apply(s, t, &k, found ? &old : NULL, &item, &cap, d)) != ST_OK)
        goto out;
    buf_addc(out, '{');
    bool comma = false;
    if (found && is(rv, "ALL_OLD"))
        write_attributes(out, &old, &comma);
    write_capacity(out, rcc_mode(in), t, cap.table, cap.idx, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    reqx_done(&x);
    av_free(&item);
    av_free(&old);
    store_key_done(&k);
    return st;
}

/* ---- DeleteItem ---- */

status store_op_delete_item(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, delete_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    av key = { .type = AV_NONE }, old = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    reqx_init(&x);
    bool txn = false;
    if ((st = expr_params(in, cond_exprs, cond_legacy, d)) != ST_OK)
        goto out;
    if ((st = parse_item(in, "Key", &key, d)) != ST_OK)
        goto out;
    const char *rv = jstr(in, "ReturnValues");
    if (rv && !is(rv, "ALL_OLD") && !is(rv, "NONE")) {
        st = diag_set(d, ST_VALIDATION, "ReturnValues can only be ALL_OLD or NONE");
        goto out;
    }
    if ((st = no_legacy(in, d)) != ST_OK || (st = exprs_parse(&x, in, d)) != ST_OK)
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
    if (x.cond && !expr_eval(x.cond, found ? &old : NULL)) {
        st = condition_failed(s, in, found ? &old : NULL, d);
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
    buf_addc(out, '{');
    bool comma = false;
    if (found && is(rv, "ALL_OLD"))
        write_attributes(out, &old, &comma);
    write_capacity(out, rcc_mode(in), t, cap.table, cap.idx, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    reqx_done(&x);
    av_free(&key);
    av_free(&old);
    store_key_done(&k);
    return st;
}

/* ---- UpdateItem ---- */

static const char *const e_rv_update[] = { "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW", NULL };
static const vspec avu_fields[] = {
    { .name = "Action", .type = VT_STRING },
    { .name = "Value", .type = VT_ATTRF },
    F_END,
};
static const vspec avu_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "AttributeValueUpdate",
                                .fields = avu_fields };
static const vspec update_spec[] = {
    F_RCC,
    F_TABLE,
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = e_ricm },
    { .name = "ReturnValues", .type = VT_STRING, .enums = e_rv_update },
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "ConditionalOperator", .type = VT_STRING, .enums = e_condop },
    { .name = "Expected", .type = VT_MAP, .sub = "ExpectedAttributeValue", .elem = &expected_elem },
    { .name = "AttributeUpdates", .type = VT_MAP, .sub = "AttributeValueUpdate", .elem = &avu_elem },
    { .name = "ConditionExpression", .type = VT_STRING },
    { .name = "UpdateExpression", .type = VT_STRING },
    F_EAV,
    F_EAN,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
    F_END,
};

/* The keys an update may not touch, with DynamoDB's messages. */
static status update_keys(const table_def *def, const expr *upd, diag *d)
{
    if (!upd)
        return ST_OK;
    const expr_node *root = expr_root(upd);
    const char *keys[2] = { def->pk.name, def->sk.name };
    for (int k = 0; k < 2; k++) {
        if (!keys[k])
            continue;
        for (size_t i = 0; i < root->n_kids; i++) {
            const expr_node *path = root->kids[i]->n_kids ? root->kids[i]->kids[0] : NULL;
            if (!path || path->kind != EN_PATH || !path->path.n)
                continue;
            const expr_step *st = &path->path.steps[0];
            if (st->is_index || strlen(keys[k]) != st->len || memcmp(keys[k], st->name, st->len) != 0)
                continue;
            if (path->path.n == 1)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Cannot"
                                " update attribute %s. This attribute is part of the key", keys[k]);
            return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access '[]'"
                            " and map lookup '.' are not allowed: Key: %s", keys[k]);
        }
    }
    /* Index keys may be set, but only as whole attributes. */
    for (size_t x = 0; x < def->n_idx; x++) {
        const index_def *ix = &def->idx[x];
        const char *ik[2] = { ix->pk.name, ix->sk.name };
        for (int k = 0; k < 2; k++) {
            if (!ik[k])
                continue;
            for (size_t i = 0; i < root->n_kids; i++) {
                const expr_node *path = root->kids[i]->n_kids ? root->kids[i]->kids[0] : NULL;
                if (!path || path->kind != EN_PATH || path->path.n < 2)
                    continue;
                const expr_step *st = &path->path.steps[0];
                if (!st->is_index && strlen(ik[k]) == st->len && memcmp(ik[k], st->name, st->len) == 0)
                    return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access"
                                    " '[]' and map lookup '.' are not allowed: IndexKey: %s", ik[k]);
            }
        }
    }
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
            av_free(out);
            expr_project(proj, item, out);
            expr_free(proj);
        }
        expr_ctx_done(&cx);
    }
    buf_done(&text);
}

status store_op_update_item(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "UpdateExpression", "ConditionExpression", NULL };
    static const char *const legacy[] = { "AttributeUpdates", "Expected", NULL };
    status st = store_valid_check(in, update_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    av key = { .type = AV_NONE }, old = { .type = AV_NONE }, item = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    reqx_init(&x);
    bool txn = false;
    if ((st = expr_params(in, exprs, legacy, d)) != ST_OK)
        goto out;
    if ((st = parse_item(in, "Key", &key, d)) != ST_OK)
        goto out;
    if ((st = no_legacy(in, d)) != ST_OK || (st = exprs_parse(&x, in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = lookup_table(s, in, &t, d)) != ST_OK)
        goto out;
    if ((st = store_check_key(&t->def, &key, &k, d)) != ST_OK)
        goto out;
    if ((st = update_keys(&t->def, x.update, d)) != ST_OK)
        goto out;
    bool found;
    if ((st = store_load(s, t, &k, &old, &found, NULL, d)) != ST_OK)
        goto out;
    if (x.cond && !expr_eval(x.cond, found ? &old : NULL)) {
        st = condition_failed(s, in, found ? &old : NULL, d);
        goto out;
    }
    /* A missing item starts as its key. */
    const av *base = found ? &old : &key;
    if (x.update) {
        if ((st = expr_update_apply(x.update, base, &item, NULL, d)) != ST_OK)
            goto out;
    } else {
        av_copy(&item, base);
    }
    if ((st = store_check_item(&t->def, &item, NULL, d)) != ST_OK ||
        (st = size_check_update(&item, d)) != ST_OK)
        goto out;
    store_wcap cap;
    memset(&cap, 0, sizeof cap);
    if ((st = store_apply(s, t, &k, found ? &old : NULL, &item, &cap, d)) != ST_OK)
        goto out;
    const char *rv = jstr(in, "ReturnValues");
    buf_addc(out, '{');
    bool comma = false;
    if (is(rv, "ALL_OLD") && found) {
        write_attributes(out, &old, &comma);
    } else if (is(rv, "ALL_NEW")) {
        write_attributes(out, &item, &comma);
    } else if ((is(rv, "UPDATED_OLD") && found) || is(rv, "UPDATED_NEW")) {
        av part;
        if (x.update)
            updated_part(&x, is(rv, "UPDATED_OLD") ? &old : &item, &part);
        else
            av_init_list(&part, AV_M);
        if (part.u.m.len)
            write_attributes(out, &part, &comma);
        av_free(&part);
    }
    write_capacity(out, rcc_mode(in), t, cap.table, cap.idx, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    reqx_done(&x);
    av_free(&key);
    av_free(&old);
    av_free(&item);
    store_key_done(&k);
    return st;
}

/* ---- GetItem ---- */

static double read_units(uint64_t bytes, bool consistent)
{
    return (double)size_read_halves(bytes, consistent) / 2.0;
}

status store_op_get_item(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", NULL };
    static const char *const legacy[] = { "AttributesToGet", NULL };
    status st = store_valid_check(in, get_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    av key = { .type = AV_NONE }, atg = { .type = AV_NONE };
    store_key k;
    store_key_init(&k);
    reqx x;
    reqx_init(&x);
    bool txn = false;
    if ((st = expr_params(in, exprs, legacy, d)) != ST_OK)
        goto out;
    if ((st = parse_item(in, "Key", &key, d)) != ST_OK)
        goto out;
    if ((st = attributes_to_get(in, &atg, d)) != ST_OK || (st = exprs_parse(&x, in, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = lookup_table(s, in, &t, d)) != ST_OK)
        goto out;
    if ((st = store_check_key(&t->def, &key, &k, d)) != ST_OK ||
        (st = key_paths(&t->def, x.proj, d)) != ST_OK)
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
        const void *body = sqlite3_column_blob(q, 1);
        size_t len = (size_t)sqlite3_column_bytes(q, 1);
        if (projecting(&x, &atg)) {
            av item;
            if ((st = itemenc_decode(body, len, &item, d)) == ST_OK) {
                /* An item whose projection keeps nothing is still "Item": {}. */
                project(&x, &atg, &item);
                buf_adds(out, "\"Item\":");
                ddbjson_write_item(out, &item);
                comma = true;
                av_free(&item);
            }
        } else {
            buf_adds(out, "\"Item\":");
            st = itemenc_write_json(out, body, len, d);
            comma = true;
        }
    } else if (rc != SQLITE_DONE) {
        st = store_sqlerr(s, d);
    }
    sqlite3_reset(q);
    if (st != ST_OK)
        goto out;
    bool consistent = jbool(in, "ConsistentRead", false);
    write_capacity(out, rcc_mode(in), t, read_units(size, consistent), NULL, comma);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    reqx_done(&x);
    av_free(&key);
    av_free(&atg);
    store_key_done(&k);
    return st;
}

/* ---- Query and Scan ---- */

enum { SEL_DEFAULT, SEL_ALL, SEL_PROJECTED, SEL_SPECIFIC, SEL_COUNT };

typedef struct read_req {
    store_rq rq;
    long limit;
    int select;
    bool consistent;
    int rcc;
    const index_def *ix;
    bool full_items;       /* LSI read that fetches whole items */
    reqx *x;
    av *atg;
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

/* One matching row into the Items array. */
static status write_row(read_req *r, const store_row *row, buf *out, diag *d)
{
    const tinfo *t = r->rq.t;
    const index_def *ix = r->ix;
    bool index_cut = ix && ix->proj != PROJ_ALL && !r->full_items;
    bool proj = projecting(r->x, r->atg);
    if (!index_cut && !proj)
        return itemenc_write_json(out, row->body, row->body_len, d);
    av full;
    status st = itemenc_decode(row->body, row->body_len, &full, d);
    if (st != ST_OK)
        return st;
    if (index_cut) {
        av cut;
        store_project_index(&t->def, ix, &full, &cut);
        av_free(&full);
        av_move(&full, &cut);
    }
    project(r->x, r->atg, &full);
    ddbjson_write_item(out, &full);
    av_free(&full);
    return ST_OK;
}

/*
 * A filter evaluated on the encoded item, without decoding it: comparisons
 * = and <> of a top-level attribute with a constant of a type whose
 * encoding is canonical (S, B, BOOL, NULL: equal values have equal bytes,
 * different values or types different bytes), attribute_exists and
 * attribute_not_exists of a top-level attribute, and AND, OR, NOT of
 * these. Anything else (numbers, whose text the encoding keeps canonical
 * but which this does not rely on; nested paths; sizes; orderings) leaves
 * the filter to expr_eval. Scans spend most of their own time here.
 */
enum { BF_AND, BF_OR, BF_NOT, BF_EQ, BF_NE, BF_EXISTS, BF_NOT_EXISTS };

typedef struct bf_node {
    int kind;
    int kid[2];                 /* BF_AND/OR: both; BF_NOT: kid[0] */
    const char *name;           /* leaves: the attribute */
    size_t name_len;
    size_t off, len;            /* BF_EQ/NE: the constant's bytes in consts */
} bf_node;

typedef struct bfilt {
    bf_node *n;
    size_t count, cap;
    int root;
    buf consts;
} bfilt;

static void bf_done(bfilt *f)
{
    free(f->n);
    buf_done(&f->consts);
    memset(f, 0, sizeof *f);
}

static const expr_step *bf_top(const expr_node *n)
{
    if (n->kind != EN_PATH || n->path.n != 1 || n->path.steps[0].is_index)
        return NULL;
    return &n->path.steps[0];
}

/* Compiles n; returns its index, or -1 when a part is not supported. */
static int bf_compile(bfilt *f, const expr_node *n)
{
    bf_node b = { .kind = -1, .kid = { -1, -1 } };
    switch (n->kind) {
    case EN_AND:
    case EN_OR:
        b.kind = n->kind == EN_AND ? BF_AND : BF_OR;
        if ((b.kid[0] = bf_compile(f, n->kids[0])) < 0 || (b.kid[1] = bf_compile(f, n->kids[1])) < 0)
            return -1;
        break;
    case EN_NOT:
        b.kind = BF_NOT;
        if ((b.kid[0] = bf_compile(f, n->kids[0])) < 0)
            return -1;
        break;
    case EN_CMP: {
        if (n->op != CMP_EQ && n->op != CMP_NE)
            return -1;
        const expr_node *p = n->kids[0], *v = n->kids[1];
        if (p->kind == EN_VALUE)
            p = n->kids[1], v = n->kids[0];
        const expr_step *s = bf_top(p);
        if (!s || v->kind != EN_VALUE || !v->value)
            return -1;
        av_type ty = v->value->type;
        if (ty != AV_S && ty != AV_B && ty != AV_BOOL && ty != AV_NULL)
            return -1;
        /* the constant's encoding, as an attribute of a one-member item */
        av one, cv;
        av_init_list(&one, AV_M);
        av_copy(&cv, v->value);
        av_map_put(&one, "v", 1, &cv);
        buf tmp = BUF_INIT;
        itemenc_encode(&tmp, &one);
        av_free(&one);
        const unsigned char *vp;
        size_t vl;
        bool ok = itemenc_find(tmp.data, tmp.len, "v", 1, &vp, &vl);
        if (ok) {
            b.off = f->consts.len;
            b.len = vl;
            buf_add(&f->consts, vp, vl);
        }
        buf_done(&tmp);
        if (!ok)
            return -1;
        b.kind = n->op == CMP_EQ ? BF_EQ : BF_NE;
        b.name = s->name, b.name_len = s->len;
        break;
    }
    case EN_FUNC: {
        if ((n->op != FN_ATTRIBUTE_EXISTS && n->op != FN_ATTRIBUTE_NOT_EXISTS) || n->n_kids != 1)
            return -1;
        const expr_step *s = bf_top(n->kids[0]);
        if (!s)
            return -1;
        b.kind = n->op == FN_ATTRIBUTE_EXISTS ? BF_EXISTS : BF_NOT_EXISTS;
        b.name = s->name, b.name_len = s->len;
        break;
    }
    default:
        return -1;
    }
    if (f->count == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 8;
        f->n = xrealloc(f->n, f->cap * sizeof *f->n);
    }
    f->n[f->count] = b;
    return (int)f->count++;
}

/* true when the whole filter compiled. */
static bool bf_build(bfilt *f, const expr *e)
{
    memset(f, 0, sizeof *f);
    if (e && (f->root = bf_compile(f, expr_root(e))) >= 0)
        return true;
    bf_done(f);
    return false;
}

static bool bf_eval(const bfilt *f, int i, const void *body, size_t len)
{
    const bf_node *b = &f->n[i];
    const unsigned char *vp;
    size_t vl;
    switch (b->kind) {
    case BF_AND: return bf_eval(f, b->kid[0], body, len) && bf_eval(f, b->kid[1], body, len);
    case BF_OR: return bf_eval(f, b->kid[0], body, len) || bf_eval(f, b->kid[1], body, len);
    case BF_NOT: return !bf_eval(f, b->kid[0], body, len);
    case BF_EXISTS: return itemenc_find(body, len, b->name, b->name_len, &vp, &vl);
    case BF_NOT_EXISTS: return !itemenc_find(body, len, b->name, b->name_len, &vp, &vl);
    default: {
        bool eq = itemenc_find(body, len, b->name, b->name_len, &vp, &vl) && vl == b->len &&
                  memcmp(vp, f->consts.data + b->off, vl) == 0;
        return b->kind == BF_EQ ? eq : !eq;
    }
    }
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
    bool stopped = false, count_only = r->select == SEL_COUNT;
    const expr *filter = r->x ? r->x->filter : NULL;
    av part = { .type = AV_NONE };
    buf last = BUF_INIT;
    /* Index entries cut to a projection are filtered as decoded items. */
    bool cut_entry = ix && ix->proj != PROJ_ALL && !r->full_items;
    bfilt bf;
    bool fast = filter && !cut_entry && bf_build(&bf, filter);
    buf_addc(out, '{');
    if (!count_only)
        buf_adds(out, "\"Items\":[");
    for (;;) {
        store_row row;
        bool has;
        if ((st = store_cursor_next(&c, &row, &has, d)) != ST_OK || !has)
            break;
        scanned++;
        bytes += row.size;
        cap_bytes += ix && !r->full_items ? row.entry_size : row.size;
        bool match = true;
        if (fast) {
            match = bf_eval(&bf, bf.root, row.body, row.body_len);
        } else if (filter) {
            /* Only the attributes the filter names are decoded, into one
             * item reused row after row. */
            if ((st = itemenc_decode_some_into(row.body, row.body_len, r->x->fnames, r->x->flens,
                                               r->x->n_fnames, &part, d)) != ST_OK)
                break;
            if (cut_entry) {
                av cut;
                store_project_index(&t->def, ix, &part, &cut);
                match = expr_eval(filter, &cut);
                av_free(&cut);
            } else {
                match = expr_eval(filter, &part);
            }
        }
        if (match) {
            count++;
            if (!count_only) {
                if (count > 1)
                    buf_addc(out, ',');
                if ((st = write_row(r, &row, out, d)) != ST_OK)
                    break;
            }
        }
        if ((r->limit && scanned >= (uint64_t)r->limit) || bytes >= PAGE_BYTES) {
            stopped = true;
            buf_reset(&last);
            buf_add(&last, row.body, row.body_len);
            break;
        }
    }
    store_cursor_close(&c);
    av_free(&part);
    if (fast)
        bf_done(&bf);
    if (st == ST_OK) {
        if (!count_only)
            buf_addc(out, ']');
        buf_printf(out, "%s\"Count\":%llu,\"ScannedCount\":%llu", count_only ? "" : ",",
                   (unsigned long long)count, (unsigned long long)scanned);
        if (stopped)
            st = write_lek(out, t, ix, last.data, last.len, d);
        if (st == ST_OK && r->rcc) {
            double u = read_units(cap_bytes, r->consistent);
            double idx[32] = { 0 };
            if (ix && !r->full_items) {
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
    const char *sel = jstr(in, "Select");
    r->select = is(sel, "ALL_ATTRIBUTES") ? SEL_ALL : is(sel, "ALL_PROJECTED_ATTRIBUTES") ? SEL_PROJECTED
              : is(sel, "SPECIFIC_ATTRIBUTES") ? SEL_SPECIFIC : is(sel, "COUNT") ? SEL_COUNT : SEL_DEFAULT;
    if (index) {
        int xid = store_index_xid(&t->def, index);
        if (xid < 0)
            return diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
        r->rq.xid = xid;
        r->ix = &t->def.idx[xid - 1];
        if (r->ix->global && jbool(in, "ConsistentRead", false))
            return diag_set(d, ST_VALIDATION,
                            "Consistent reads are not supported on global secondary indexes");
        if (r->select == SEL_ALL && r->ix->proj != PROJ_ALL) {
            if (r->ix->global)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Select type"
                                " ALL_ATTRIBUTES is not supported for global secondary index %s because"
                                " its projection type is not ALL", index);
            r->full_items = true;
        }
        /* An LSI fetches what its projection lacks from the table. */
        if (!r->ix->global && projecting(r->x, r->atg))
            r->full_items = true;
    }
    const cJSON *lim = jget(in, "Limit");
    /* Converting a double outside long's range is undefined (found by
     * fuzzing: "Limit": 5.5e111); any Limit that large means no limit. */
    r->limit = !lim || !cJSON_IsNumber(lim) ? 0
             : lim->valuedouble >= (double)LONG_MAX ? LONG_MAX
             : lim->valuedouble <= (double)LONG_MIN ? LONG_MIN
             : (long)lim->valuedouble;
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
            return diag_set(d, ST_VALIDATION, r->ix || r->rq.pk ? "The provided starting key is invalid"
                            : "The provided starting key is invalid: The provided key element does not"
                              " match the schema");
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
            char msg[sizeof d->msg];
            snprintf(msg, sizeof msg, "%s", d->msg);
            return diag_set(d, ST_VALIDATION, "The provided starting key is invalid: %s", msg);
        }
        if (r->ix) {
            for (int i = 0; i < 2; i++) {
                const key_attr *ka = i ? &r->ix->sk : &r->ix->pk;
                if (!ka->name)
                    continue;
                const av *v = av_map_get(&r->start, ka->name, strlen(ka->name));
                if (v->type != ka->type)
                    return diag_set(d, ST_VALIDATION, "The provided starting key is invalid: The provided"
                                    " key element does not match the schema");
            }
        }
        r->rq.start = &r->start;
    }
    return ST_OK;
}

/* Select and projections, as DynamoDB checks them. */
static status select_checks(const cJSON *in, bool query, diag *d)
{
    const char *sel = jstr(in, "Select");
    bool proj = jget(in, "ProjectionExpression") || jget(in, "AttributesToGet");
    if (is(sel, "SPECIFIC_ATTRIBUTES") && !proj)
        return diag_set(d, ST_VALIDATION, "Must specify the AttributesToGet or ProjectionExpression"
                        " when choosing to get SPECIFIC_ATTRIBUTES");
    if (sel && !is(sel, "SPECIFIC_ATTRIBUTES") && proj) {
        if (jget(in, "ProjectionExpression"))
            return diag_set(d, ST_VALIDATION, "Cannot specify the ProjectionExpression when choosing"
                            " to get %s", sel);
        return diag_set(d, ST_VALIDATION, "Cannot specify the AttributesToGet when choosing to get %s", sel);
    }
    if (is(sel, "ALL_PROJECTED_ATTRIBUTES") && !jget(in, "IndexName"))
        return diag_set(d, ST_VALIDATION, "ALL_PROJECTED_ATTRIBUTES can be used only when %s using an"
                        " IndexName", query ? "Querying" : "Scanning");
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

/* KeyConditionExpression -> the read's key range, with DynamoDB's checks. */
static status key_expression(const reqx *x, read_req *r, diag *d)
{
    const tinfo *t = r->rq.t;
    const key_attr *pk = r->ix ? &r->ix->pk : &t->def.pk;
    const key_attr *sk = r->ix ? &r->ix->sk : &t->def.sk;
    expr_key_range kr;
    status st = expr_key_range_of(x->key, pk->name, pk->type, sk->name, sk->type, &kr, d);
    if (st != ST_OK)
        return st;
    av_copy(&r->pk_val, kr.pk);
    r->rq.pk = &r->pk_val;
    if (kr.prefix) {
        av_copy(&r->lo_val, kr.prefix);
        r->rq.prefix = &r->lo_val;
    } else {
        if (kr.lo) {
            av_copy(&r->lo_val, kr.lo);
            r->rq.lo = &r->lo_val;
            r->rq.lo_op = kr.lo_incl ? RB_INCL : RB_EXCL;
        }
        if (kr.hi) {
            av_copy(&r->hi_val, kr.hi);
            r->rq.hi = &r->hi_val;
            r->rq.hi_op = kr.hi_incl ? RB_INCL : RB_EXCL;
        }
    }
    if (r->rq.start) {
        const av *spk = av_map_get(r->rq.start, pk->name, strlen(pk->name));
        if (!av_equal(spk, kr.pk))
            return diag_set(d, ST_VALIDATION, "The provided starting key is outside query boundaries"
                            " based on provided conditions");
        if (kr.sk_name) {
            const av *ssk = av_map_get(r->rq.start, sk->name, strlen(sk->name));
            if (!ssk || !expr_key_match_sk(&kr, ssk))
                return diag_set(d, ST_VALIDATION, "The provided starting key does not match the range"
                                " key predicate");
        }
    }
    return ST_OK;
}

/* A Query's filter may not name the key attributes it reads by. */
static status filter_keys(const reqx *x, const read_req *r, diag *d)
{
    const tinfo *t = r->rq.t;
    const key_attr *keys[2] = { r->ix ? &r->ix->pk : &t->def.pk, r->ix ? &r->ix->sk : &t->def.sk };
    for (int k = 0; k < 2; k++) {
        if (!keys[k]->name)
            continue;
        for (size_t i = 0; i < x->n_fnames; i++)
            if (x->flens[i] == strlen(keys[k]->name) && memcmp(x->fnames[i], keys[k]->name, x->flens[i]) == 0)
                return diag_set(d, ST_VALIDATION, "Filter Expression can only contain non-primary key"
                                " attributes: Primary key attribute: %s", keys[k]->name);
    }
    return ST_OK;
}

status store_op_query(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", "FilterExpression",
                                         "KeyConditionExpression", NULL };
    static const char *const legacy[] = { "AttributesToGet", "QueryFilter", "ConditionalOperator",
                                          "KeyConditions", NULL };
    status st = store_valid_check(in, query_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    read_req r;
    read_req_init(&r);
    reqx x;
    reqx_init(&x);
    av atg = { .type = AV_NONE };
    r.x = &x;
    r.atg = &atg;
    bool txn = false;
    if ((st = expr_params(in, exprs, legacy, d)) != ST_OK || (st = no_legacy(in, d)) != ST_OK ||
        (st = attributes_to_get(in, &atg, d)) != ST_OK)
        goto out;
    const cJSON *esk = jget(in, "ExclusiveStartKey");
    if (esk) {
        av tmp;
        if (ddbjson_item_from_cjson(esk, NULL, &tmp, d) != ST_OK) {
            char msg[sizeof d->msg];
            snprintf(msg, sizeof msg, "%s", d->msg);
            st = diag_set(d, ST_VALIDATION, "The provided starting key is invalid: %s", msg);
            goto out;
        }
        av_free(&tmp);
    }
    if (!jget(in, "KeyConditions") && !jget(in, "KeyConditionExpression")) {
        st = diag_set(d, ST_VALIDATION, "Either the KeyConditions or KeyConditionExpression parameter"
                      " must be specified in the request.");
        goto out;
    }
    if ((st = exprs_parse(&x, in, d)) != ST_OK || (st = select_checks(in, true, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = read_common(s, in, &r, &t, d)) != ST_OK)
        goto out;
    if (x.key)
        st = key_expression(&x, &r, d);
    else
        st = key_conditions(jget(in, "KeyConditions"), &r, d);
    if (st != ST_OK || (st = key_paths(&t->def, x.proj, d)) != ST_OK ||
        (st = filter_keys(&x, &r, d)) != ST_OK || (st = key_paths(&t->def, x.filter, d)) != ST_OK)
        goto out;
    st = run_read(s, &r, out, d);
out:
    if (txn)
        st = store_txn_end(s, st, d);
    read_req_done(&r);
    reqx_done(&x);
    av_free(&atg);
    return st;
}

status store_op_scan(store *s, const cJSON *in, buf *out, diag *d)
{
    static const char *const exprs[] = { "ProjectionExpression", "FilterExpression", NULL };
    static const char *const legacy[] = { "AttributesToGet", "ScanFilter", "ConditionalOperator", NULL };
    status st = store_valid_check(in, scan_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    read_req r;
    read_req_init(&r);
    reqx x;
    reqx_init(&x);
    av atg = { .type = AV_NONE };
    r.x = &x;
    r.atg = &atg;
    bool txn = false;
    if ((st = expr_params(in, exprs, legacy, d)) != ST_OK || (st = no_legacy(in, d)) != ST_OK ||
        (st = attributes_to_get(in, &atg, d)) != ST_OK)
        goto out;
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
                      " parameter TotalSegments: Segment: %.0f is not less than TotalSegments: %.0f",
                      seg->valuedouble, tot->valuedouble);
        goto out;
    }
    if ((st = exprs_parse(&x, in, d)) != ST_OK || (st = select_checks(in, false, d)) != ST_OK)
        goto out;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        goto out;
    txn = true;
    tinfo *t;
    if ((st = read_common(s, in, &r, &t, d)) != ST_OK)
        goto out;
    if ((st = key_paths(&t->def, x.proj, d)) != ST_OK || (st = key_paths(&t->def, x.filter, d)) != ST_OK)
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
    reqx_done(&x);
    av_free(&atg);
    return st;
}

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
        reqx_init(&w->v[i].x);
    }
}

static void wlist_done(wlist *w)
{
    for (size_t i = 0; i < w->n; i++) {
        av_free(&w->v[i].val);
        av_free(&w->v[i].old);
        av_free(&w->v[i].atg);
        store_key_done(&w->v[i].k);
        reqx_done(&w->v[i].x);
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
        capacity_obj(out, mode, caps[i].t, caps[i].table, caps[i].idx);
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
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = e_ricm },
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
    const cJSON *ri = jget(in, "RequestItems"), *tab, *e;
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
            const cJSON *put = jget(e, "PutRequest"), *del = jget(e, "DeleteRequest");
            if (!put && !del) {
                st = diag_set(d, ST_VALIDATION, "Supplied AttributeValue has more than one datatypes set,"
                              " must contain exactly one of the supported datatypes");
                goto out;
            }
            wi->kind = put ? W_PUT : W_DELETE;
            wi->req = put ? put : del;
            if ((st = parse_item(wi->req, put ? "Item" : "Key", &wi->val, d)) != ST_OK)
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
    write_capacity_list(out, rcc_mode(in), caps, n_caps, true);
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
    { .name = "AttributesToGet", .type = VT_LIST, .min_len = 1, .max_len = 255, .elem = &str_elem },
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
    const cJSON *ri = jget(in, "RequestItems"), *tab, *e;
    size_t n_tab = (size_t)cJSON_GetArraySize(ri), n = 0;
    cJSON_ArrayForEach(tab, ri) n += (size_t)cJSON_GetArraySize(jget(tab, "Keys"));
    gtable *gt = xcalloc(n_tab + 1, sizeof *gt);
    for (size_t i = 0; i < n_tab; i++) {
        reqx_init(&gt[i].x);
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
        if ((st = expr_params(tab, exprs, legacy, d)) != ST_OK ||
            (st = attributes_to_get(tab, &g->atg, d)) != ST_OK || (st = exprs_parse(&g->x, tab, d)) != ST_OK)
            goto out;
        size_t first = i;
        cJSON_ArrayForEach(e, jget(tab, "Keys")) {
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
        bool consistent = jbool(g->req, "ConsistentRead", false);
        if (ti)
            buf_addc(out, ',');
        ddbjson_write_string(out, g->req->string, strlen(g->req->string));
        buf_adds(out, ":[");
        tcap *tc = tcap_for(caps, &n_caps, g->t);
        size_t n_keys = (size_t)cJSON_GetArraySize(jget(g->req, "Keys")), written = 0, unp = 0;
        for (size_t k = 0; k < n_keys; k++, i++) {
            witem *wi = &w.v[i];
            uint64_t size = 0;
            if ((st = store_load(s, wi->t, &wi->k, &wi->old, &wi->found, &size, d)) != ST_OK) {
                buf_done(&unproc);
                goto out;
            }
            if (!wi->found) {
                tc->table += read_units(0, consistent);
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
            tc->table += read_units(size, consistent);
            project(&g->x, &g->atg, &wi->old);
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
    write_capacity_list(out, rcc_mode(in), caps, n_caps, true);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    for (ti = 0; ti < n_tab; ti++) {
        reqx_done(&gt[ti].x);
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
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
    F_END,
};
static const vspec tx_put_fields[] = {
    { .name = "Item", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
    F_END,
};
static const vspec tx_delete_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
    F_END,
};
static const vspec tx_update_fields[] = {
    { .name = "Key", .type = VT_ATTRMAP, .flags = VF_NOTNULL },
    { .name = "UpdateExpression", .type = VT_STRING, .flags = VF_NOTNULL },
    TX_TABLE,
    { .name = "ConditionExpression", .type = VT_STRING },
    F_EAN, F_EAV,
    { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf },
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
    { .name = "ReturnItemCollectionMetrics", .type = VT_STRING, .enums = e_ricm },
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
            is(jstr(wi->req, "ReturnValuesOnConditionCheckFailure"), "ALL_OLD")) {
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
    const cJSON *items = jget(in, "TransactItems"), *e;
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
            const cJSON *op = jget(e, names[k]);
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
        wi->table = jstr(wi->req, "TableName");
        static const char *const cexprs[] = { "ConditionExpression", NULL };
        static const char *const uexprs[] = { "UpdateExpression", "ConditionExpression", NULL };
        static const char *const none[] = { NULL };
        if ((st = expr_params(wi->req, wi->kind == W_UPDATE ? uexprs : cexprs, none, d)) != ST_OK ||
            (st = parse_item(wi->req, wi->kind == W_PUT ? "Item" : "Key", &wi->val, d)) != ST_OK)
            goto out;
        if (wi->kind == W_PUT && (st = size_check_item(&wi->val, d)) != ST_OK)
            goto out;
        if ((st = exprs_parse(&wi->x, wi->req, d)) != ST_OK)
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
            st = update_keys(&wi->t->def, wi->x.update, d);
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
    write_capacity_list(out, rcc_mode(in), caps, n_caps, false);
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
    const cJSON *items = jget(in, "TransactItems"), *e;
    size_t n = (size_t)cJSON_GetArraySize(items), i = 0;
    wlist w;
    wlist_init(&w, n);
    tcap *caps = xcalloc(n + 1, sizeof *caps);
    size_t n_caps = 0;
    bool txn = false;
    cJSON_ArrayForEach(e, items) {
        witem *wi = &w.v[i++];
        wi->kind = W_GET;
        wi->req = jget(e, "Get");
        wi->table = jstr(wi->req, "TableName");
        if ((st = expr_params(wi->req, exprs, none, d)) != ST_OK ||
            (st = parse_item(wi->req, "Key", &wi->val, d)) != ST_OK ||
            (st = exprs_parse(&wi->x, wi->req, d)) != ST_OK)
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
            project(&wi->x, NULL, &wi->old);
            buf_adds(out, "\"Item\":");
            ddbjson_write_item(out, &wi->old);
        }
        buf_addc(out, '}');
        tcap *tc = tcap_for(caps, &n_caps, wi->t);
        tc->table += 2 * read_units(size, true);
    }
    buf_addc(out, ']');
    write_capacity_list(out, rcc_mode(in), caps, n_caps, true);
    buf_addc(out, '}');
out:
    if (txn)
        st = store_txn_end(s, st, d);
    wlist_done(&w);
    free(caps);
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
    { "UpdateItem", store_op_update_item },
    { "Query", store_op_query },
    { "Scan", store_op_scan },
    { "BatchWriteItem", store_op_batch_write },
    { "BatchGetItem", store_op_batch_get },
    { "TransactWriteItems", store_op_transact_write },
    { "TransactGetItems", store_op_transact_get },
    { "ExecuteStatement", store_op_execute_statement },
    { "BatchExecuteStatement", store_op_batch_execute_statement },
    { "ExecuteTransaction", store_op_execute_transaction },
};

static store_op_fn find_op(const char *op)
{
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(ops[i].name, op) == 0)
            return ops[i].fn;
    return NULL;
}

/* Runs an operation on a parsed request; *out as store_call says. */
static status dispatch(store *s, store_op_fn fn, const cJSON *in, char **out, diag *d)
{
    buf b = BUF_INIT;
    buf_reset(&s->err_extra);
    buf_reset(&s->err_msg);
    status st = fn(s, in, &b, d);
    if (st == ST_OK)
        *out = buf_steal(&b);
    else if (s->err_extra.len)
        *out = xstrdup(s->err_extra.data);
    buf_done(&b);
    return st;
}

status store_call(store *s, const char *op, const char *input, size_t len, char **out, diag *d)
{
    if (s->remote)
        return store_remote_call(s, op, input, len, out, d);
    *out = NULL;
    store_op_fn fn = find_op(op);
    if (!fn)
        return diag_set(d, ST_UNKNOWN_OPERATION, "Unknown operation: %s", op);
    /* ddbjson_cjson_parse refuses what cJSON would pass on altered:
     * invalid UTF-8, raw NUL bytes, \u0000 (which cuts a string short). */
    cJSON *in = NULL;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(input, len, &in, &pd) != ST_OK)
        return diag_set(d, ST_SERIALIZATION, "%s", pd.msg);
    if (!cJSON_IsObject(in)) {
        cJSON_Delete(in);
        return diag_set(d, ST_SERIALIZATION, "Start of list found where not expected");
    }
    status st = dispatch(s, fn, in, out, d);
    cJSON_Delete(in);
    return st;
}

const char *store_error_message(store *s, status st, const diag *d)
{
    if (st == ST_VALIDATION && s->err_msg.len)
        return s->err_msg.data;
    return d->msg;
}

status store_call_line(store *s, const char *line, size_t len, char **out)
{
    if (s->remote)
        return store_remote_call_line(s, line, len, out);
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    status st = ST_OK;
    char *body = NULL;
    cJSON *req = NULL;
    diag pd;
    diag_init(&pd);
    buf_reset(&s->err_msg);
    ddbjson_cjson_parse(line, len, &req, &pd);
    const cJSON *opv = req ? cJSON_GetObjectItemCaseSensitive(req, "Operation") : NULL;
    const cJSON *inv = req ? cJSON_GetObjectItemCaseSensitive(req, "Input") : NULL;
    if (!req || !cJSON_IsObject(req)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: %s",
                      req ? "not a JSON object" : pd.msg);
    } else if (!cJSON_IsString(opv)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: \"Operation\" must be a string");
    } else if (inv && !cJSON_IsNull(inv) && !cJSON_IsObject(inv)) {
        st = diag_set(&d, ST_SERIALIZATION, "Malformed request line: \"Input\" must be an object");
    } else {
        /* The line is parsed once; the Input object goes to the operation. */
        store_op_fn fn = find_op(opv->valuestring);
        if (!fn) {
            st = diag_set(&d, ST_UNKNOWN_OPERATION, "Unknown operation: %s", opv->valuestring);
        } else if (inv && !cJSON_IsNull(inv)) {
            st = dispatch(s, fn, inv, &body, &d);
        } else {
            cJSON *empty = cJSON_CreateObject();
            st = dispatch(s, fn, empty, &body, &d);
            cJSON_Delete(empty);
        }
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
        if (s->err_msg.len && st == ST_VALIDATION)
            ddbjson_write_string(&b, s->err_msg.data, s->err_msg.len);
        else
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
