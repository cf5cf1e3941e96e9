/*
 * store_api — the JSON dispatcher (store_call, store_call_line) and what
 * its operations share (data/store_ops.h): JSON accessors, capacity
 * output, the expression parameters of a request.
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

#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/itemenc.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"

/* ---- specs ---- */

const char *const sop_e_rcc[] = { "INDEXES", "TOTAL", "NONE", NULL };
const char *const sop_e_condop[] = { "OR", "AND", NULL };
static const char *const e_cmp[] = { "IN", "NULL", "BETWEEN", "LT", "NOT_CONTAINS", "EQ", "GT",
                                     "NOT_NULL", "NE", "LE", "BEGINS_WITH", "GE", "CONTAINS", NULL };
const char *const sop_e_rv_put[] = { "ALL_NEW", "UPDATED_OLD", "ALL_OLD", "NONE", "UPDATED_NEW", NULL };
const char *const sop_e_rvccf[] = { "ALL_OLD", "NONE", NULL };
const char *const sop_e_ricm[] = { "SIZE", "NONE", NULL };
const char *const sop_e_select[] = { "SPECIFIC_ATTRIBUTES", "COUNT", "ALL_ATTRIBUTES",
                                        "ALL_PROJECTED_ATTRIBUTES", NULL };

const vspec sop_str_elem = { .name = "member", .type = VT_STRING };
static const vspec attrval_elem = { .name = "member", .type = VT_ATTR };

static const vspec expected_fields[] = {
    { .name = "AttributeValueList", .type = VT_LIST, .elem = &attrval_elem },
    { .name = "ComparisonOperator", .type = VT_STRING, .enums = e_cmp },
    { .name = "Exists", .type = VT_BOOL },
    { .name = "Value", .type = VT_ATTRF },
    F_END,
};
const vspec sop_expected_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "ExpectedAttributeValue",
                                     .fields = expected_fields };
static const vspec cond_fields[] = {
    { .name = "AttributeValueList", .type = VT_LIST, .elem = &attrval_elem },
    { .name = "ComparisonOperator", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_cmp },
    F_END,
};
const vspec sop_cond_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "Condition",
                                 .fields = cond_fields };
static const vspec keycond_fields[] = {
    { .name = "ComparisonOperator", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_cmp },
    { .name = "AttributeValueList", .type = VT_LIST, .elem = &attrval_elem },
    F_END,
};
const vspec sop_keycond_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "Condition",
                                    .fields = keycond_fields };

/* ---- small helpers ---- */

const char *sop_jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const cJSON *sop_jget(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return v && !cJSON_IsNull(v) ? v : NULL;
}

bool sop_jbool(const cJSON *o, const char *name, bool dflt)
{
    const cJSON *v = sop_jget(o, name);
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

bool sop_is(const char *a, const char *b)
{
    return a && strcmp(a, b) == 0;
}

/* 0 none, 1 TOTAL, 2 INDEXES */
int sop_rcc_mode(const cJSON *in)
{
    const char *m = sop_jstr(in, "ReturnConsumedCapacity");
    return sop_is(m, "TOTAL") ? 1 : sop_is(m, "INDEXES") ? 2 : 0;
}

static void put_units(buf *out, double u)
{
    if (u == floor(u))
        buf_printf(out, "%.0f", u);
    else
        buf_printf(out, "%g", u);
}

/* One ConsumedCapacity object: {"CapacityUnits":..,"TableName":..,...}. */
void sop_capacity_obj(buf *out, int mode, const tinfo *t, double table, const double *idx)
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
void sop_write_capacity(buf *out, int mode, const tinfo *t, double table, const double *idx,
                           bool lead_comma)
{
    if (!mode)
        return;
    if (lead_comma)
        buf_addc(out, ',');
    buf_adds(out, "\"ConsumedCapacity\":");
    sop_capacity_obj(out, mode, t, table, idx);
}

/* One ConsumedCapacity object from a typed result's entry. */
static void cap_json(buf *out, ddb_rcc mode, const ddb_cap *c)
{
    buf_adds(out, "{\"CapacityUnits\":");
    put_units(out, c->units);
    buf_adds(out, ",\"TableName\":");
    ddbjson_write_string(out, c->table, strlen(c->table));
    if (mode == DDB_RCC_INDEXES) {
        buf_adds(out, ",\"Table\":{\"CapacityUnits\":");
        put_units(out, c->table_units);
        buf_addc(out, '}');
        for (int g = 0; g < 2; g++) {
            bool any = false;
            for (size_t i = 0; i < c->n_idx; i++) {
                const ddb_cap_index *ix = &c->idx[i];
                if (ix->global != (g == 1) || ix->units == 0)
                    continue;
                buf_adds(out, any ? "," : g ? ",\"GlobalSecondaryIndexes\":{" : ",\"LocalSecondaryIndexes\":{");
                any = true;
                ddbjson_write_string(out, ix->name, strlen(ix->name));
                buf_adds(out, ":{\"CapacityUnits\":");
                put_units(out, ix->units);
                buf_addc(out, '}');
            }
            if (any)
                buf_addc(out, '}');
        }
    }
    buf_addc(out, '}');
}

void sop_write_caps(buf *out, ddb_rcc mode, const ddb_res *res, bool lead_comma, bool list)
{
    if (mode == DDB_RCC_NONE || (!list && !res->n_caps))
        return;
    if (lead_comma)
        buf_addc(out, ',');
    buf_adds(out, "\"ConsumedCapacity\":");
    if (!list) {
        cap_json(out, mode, &res->caps[0]);
        return;
    }
    buf_addc(out, '[');
    for (size_t i = 0; i < res->n_caps; i++) {
        if (i)
            buf_addc(out, ',');
        cap_json(out, mode, &res->caps[i]);
    }
    buf_addc(out, ']');
}

status sop_parse_item(const cJSON *in, const char *member, av *item, diag *d)
{
    const cJSON *v = sop_jget(in, member);
    item->type = AV_NONE;
    if (!v) {
        av_init_list(item, AV_M);
        return ST_OK;
    }
    return ddbjson_item_from_cjson(v, NULL, item, d);
}

status sop_lookup_table(store *s, const cJSON *in, tinfo **t, diag *d)
{
    return store_table(s, sop_jstr(in, "TableName"), t, d);
}

/* ---- expressions ---- */

/* ---- the legacy parameters ---- */

/* A map of ExpectedAttributeValue or Condition (shapes already checked by
 * store_valid) into c. */
static status conds_json(const cJSON *map, ddb_conds *c, diag *d)
{
    const cJSON *e;
    c->given = true;
    cJSON_ArrayForEach(e, map) {
        ddb_cond *k = legacy_cond_add(c, e->string, strlen(e->string));
        k->op = ddb_cmp_find(sop_jstr(e, "ComparisonOperator"));
        const cJSON *ex = sop_jget(e, "Exists");
        if (ex)
            k->exists = (signed char)cJSON_IsTrue(ex);
        const cJSON *v = sop_jget(e, "Value");
        if (v && ddbjson_value_from_cjson(v, NULL, &k->value, d) != ST_OK)
            return d->code;
        const cJSON *list = sop_jget(e, "AttributeValueList");
        if (!list)
            continue;
        av_init_list(&k->list, AV_L);
        const cJSON *m;
        cJSON_ArrayForEach(m, list) {
            av a;
            if (ddbjson_value_from_cjson(m, NULL, &a, d) != ST_OK)
                return d->code;
            av_list_push(&k->list, &a);
        }
    }
    return ST_OK;
}

static status updates_json(const cJSON *map, ddb_legacy *l, diag *d)
{
    const cJSON *e;
    l->has_updates = true;
    cJSON_ArrayForEach(e, map) {
        ddb_attr_update *u = legacy_update_add(l, e->string, strlen(e->string));
        const char *act = sop_jstr(e, "Action");
        u->has_action = act != NULL;
        u->action = sop_is(act, "ADD") ? DDB_AU_ADD : sop_is(act, "DELETE") ? DDB_AU_DELETE : DDB_AU_PUT;
        const cJSON *v = sop_jget(e, "Value");
        if (v && ddbjson_value_from_cjson(v, NULL, &u->value, d) != ST_OK)
            return d->code;
    }
    return ST_OK;
}

status sop_legacy_json(const cJSON *in, ddb_kind kind, ddb_legacy *l, diag *d)
{
    const char *filter = kind == DDB_QUERY ? "QueryFilter" : "ScanFilter";
    const cJSON *v;
    status st = ST_OK;
    const char *op = sop_jstr(in, "ConditionalOperator");
    l->condop = sop_is(op, "AND") ? DDB_CONDOP_AND : sop_is(op, "OR") ? DDB_CONDOP_OR : DDB_CONDOP_NONE;
    if ((v = sop_jget(in, "Expected")) && (st = conds_json(v, &l->expected, d)) != ST_OK)
        return st;
    if ((v = sop_jget(in, filter)) && (st = conds_json(v, &l->filter, d)) != ST_OK)
        return st;
    if (kind == DDB_QUERY && (v = sop_jget(in, "KeyConditions")) && (st = conds_json(v, &l->keyconds, d)) != ST_OK)
        return st;
    if ((v = sop_jget(in, "AttributeUpdates")) && (st = updates_json(v, l, d)) != ST_OK)
        return st;
    return ST_OK;
}

/* DynamoDB's validateExpressionParams on a typed request: which legacy
 * and expression parameters each kind names, in DynamoDB's order. */
static status mix_typed(const ddb_req *r, diag *d)
{
    const ddb_legacy *l = &r->legacy;
    const char *xn[3], *ln[4];
    size_t nx = 0, nl = 0;
    bool query = r->kind == DDB_QUERY;
    if (r->kind == DDB_UPDATE && r->update)
        xn[nx++] = "UpdateExpression";
    if (r->kind == DDB_PUT || r->kind == DDB_UPDATE || r->kind == DDB_DELETE) {
        if (r->cond)
            xn[nx++] = "ConditionExpression";
        if (r->kind == DDB_UPDATE && l->has_updates)
            ln[nl++] = "AttributeUpdates";
        if (l->expected.given)
            ln[nl++] = "Expected";
    } else if (r->kind == DDB_GET || query || r->kind == DDB_SCAN) {
        if (r->proj)
            xn[nx++] = "ProjectionExpression";
        if (r->filter)
            xn[nx++] = "FilterExpression";
        if (query && r->keycond)
            xn[nx++] = "KeyConditionExpression";
        if (l->atg.type == AV_L)
            ln[nl++] = "AttributesToGet";
        if (r->kind != DDB_GET && l->filter.given)
            ln[nl++] = query ? "QueryFilter" : "ScanFilter";
        if (r->kind != DDB_GET && l->condop)
            ln[nl++] = "ConditionalOperator";
        if (query && l->keyconds.given && r->keycond)
            ln[nl++] = "KeyConditions";
    }
    if (!nx || !nl)
        return ST_OK;
    buf a = BUF_INIT, b = BUF_INIT;
    for (size_t i = 0; i < nl; i++)
        buf_printf(&a, "%s%s", i ? ", " : "", ln[i]);
    for (size_t i = 0; i < nx; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", xn[i]);
    status st = diag_set(d, ST_VALIDATION, "Can not use both expression and non-expression parameters in the"
                         " same request: Non-expression parameters: {%s} Expression parameters: {%s}",
                         a.data, b.data);
    buf_done(&a);
    buf_done(&b);
    return st;
}

status sop_legacy_checks(const ddb_req *r, diag *d)
{
    const ddb_legacy *l = &r->legacy;
    status st = mix_typed(r, d);
    if (st == ST_OK)
        st = legacy_check_updates(l, d);
    if (st == ST_OK)
        st = legacy_check_expected(&l->expected, d);
    if (st == ST_OK)
        st = legacy_check_conditions(&l->filter, d);
    if (st == ST_OK) {
        bool filters = r->kind == DDB_QUERY || r->kind == DDB_SCAN;
        const ddb_conds *c = filters ? &l->filter : &l->expected;
        st = legacy_check_condop(l->condop, c->given ? c : NULL, d);
    }
    return st;
}

/* DynamoDB's validateExpressionParams: expressions and their legacy
 * counterparts exclude each other; names/values need an expression. */
status sop_expr_params(const cJSON *in, const char *const *exprs, const char *const *legacy,
                          diag *d)
{
    buf used = BUF_INIT, old = BUF_INIT;
    status st = ST_OK;
    size_t n_used = 0, n_old = 0;
    for (const char *const *p = exprs; *p; p++)
        if (sop_jget(in, *p)) {
            buf_adds(&used, n_used++ ? ", " : "");
            buf_adds(&used, *p);
        }
    bool keycond_only_legacy = sop_jget(in, "KeyConditions") && !sop_jget(in, "KeyConditionExpression");
    if (n_used) {
        for (const char *const *p = legacy; *p; p++) {
            if (keycond_only_legacy && strcmp(*p, "KeyConditions") == 0)
                continue;
            if (sop_jget(in, *p)) {
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
    if (sop_jget(in, "ExpressionAttributeNames") && !n_used) {
        st = diag_set(d, ST_VALIDATION, "ExpressionAttributeNames can only be specified when using expressions");
        goto out;
    }
    if (sop_jget(in, "ExpressionAttributeValues")) {
        size_t n_val = 0, n_given = 0;
        buf list = BUF_INIT;
        for (const char *const *p = exprs; *p; p++) {
            if (strcmp(*p, "ProjectionExpression") == 0)
                continue;
            buf_adds(&list, n_val++ ? " and " : "");
            buf_adds(&list, *p);
            if (sop_jget(in, *p))
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

void sop_reqx_init(reqx *x)
{
    memset(x, 0, sizeof *x);
    x->names.type = x->values.type = AV_NONE;
}

void sop_reqx_done(reqx *x)
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

/* The expressions of a request from their texts (NULL: absent), in
 * DynamoDB's order (update, condition, key, filter, projection), then
 * unused placeholders; the maps are x->names and x->values (AV_NONE: not
 * given). */
static status exprs_texts(reqx *x, const char *const texts[5], diag *d)
{
    static const expr_kind kinds[5] = { EXPR_UPDATE, EXPR_CONDITION, EXPR_KEY, EXPR_FILTER,
                                        EXPR_PROJECTION };
    expr **outs[5] = { &x->update, &x->cond, &x->key, &x->filter, &x->proj };
    status st = expr_ctx_init(&x->cx, x->names.type == AV_M ? &x->names : NULL,
                              x->values.type == AV_M ? &x->values : NULL, d);
    if (st != ST_OK)
        return st;
    x->cx_on = true;
    for (int i = 0; i < 5; i++)
        if (texts[i] && (st = expr_parse(&x->cx, kinds[i], texts[i], strlen(texts[i]), outs[i], d)) != ST_OK)
            return st;
    if ((st = expr_ctx_finish(&x->cx, d)) != ST_OK)
        return st;
    if (x->filter)
        collect_heads(x, expr_root(x->filter));
    return ST_OK;
}

status sop_maps_json(const cJSON *in, av *names, av *values, diag *d)
{
    const cJSON *ean = sop_jget(in, "ExpressionAttributeNames");
    const cJSON *eav = sop_jget(in, "ExpressionAttributeValues");
    const cJSON *e;
    if (ean) {
        if (!ean->child)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must not be empty");
        cJSON_ArrayForEach(e, ean) {
            if (!placeholder_ok(e->string, '#'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames contains invalid key: Syntax"
                                " error; key: \"%s\"", e->string);
        }
        av_init_list(names, AV_M);
        cJSON_ArrayForEach(e, ean) {
            av v;
            const char *str = cJSON_IsString(e) ? e->valuestring : "";
            av_init_s(&v, str, strlen(str));
            ddbjson_unmark(v.u.s.ptr, v.u.s.len);   /* a name holding U+0000 */
            av_map_put(names, e->string, strlen(e->string), &v);
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
        av_init_list(values, AV_M);
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
            av_map_put(values, e->string, strlen(e->string), &v);
        }
    }
    return ST_OK;
}

/* DynamoDB's validateExpressions: the maps, then each expression in
 * DynamoDB's order, then unused placeholders. */
status sop_exprs_parse(reqx *x, const cJSON *in, diag *d)
{
    status st = sop_maps_json(in, &x->names, &x->values, d);
    if (st != ST_OK)
        return st;
    const char *texts[5] = {
        sop_jstr(in, "UpdateExpression"), sop_jstr(in, "ConditionExpression"),
        sop_jstr(in, "KeyConditionExpression"), sop_jstr(in, "FilterExpression"),
        sop_jstr(in, "ProjectionExpression"),
    };
    return exprs_texts(x, texts, d);
}

/* A placeholder name of a typed map: lead then [A-Za-z0-9_]+. */
static bool placeholder_ok_n(const char *k, size_t len, char lead)
{
    if (len < 2 || k[0] != lead)
        return false;
    for (size_t i = 1; i < len; i++)
        if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') ||
              k[i] == '_'))
            return false;
    return true;
}

/* The checks sop_maps_json makes, on maps a C caller built. */
static status maps_typed(const av *names, const av *values, diag *d)
{
    if (names->type == AV_M) {
        if (!names->u.m.len)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must not be empty");
        for (size_t i = 0; i < names->u.m.len; i++) {
            const av_member *m = &names->u.m.v[i];
            if (!placeholder_ok_n(m->name, m->name_len, '#'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames contains invalid key: Syntax"
                                " error; key: \"%s\"", m->name);
            if (m->val.type != AV_S)
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames contains invalid value for"
                                " key %s", m->name);
        }
    } else if (names->type != AV_NONE) {
        return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must be a map");
    }
    if (values->type == AV_M) {
        if (!values->u.m.len)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues must not be empty");
        for (size_t i = 0; i < values->u.m.len; i++)
            if (!placeholder_ok_n(values->u.m.v[i].name, values->u.m.v[i].name_len, ':'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid key: Syntax"
                                " error; key: \"%s\"", values->u.m.v[i].name);
        for (size_t i = 0; i < values->u.m.len; i++)
            if (size_too_deep(&values->u.m.v[i].val))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid value: Nesting"
                                " Levels have exceeded supported limits for key %s", values->u.m.v[i].name);
    } else if (values->type != AV_NONE) {
        return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues must be a map");
    }
    return ST_OK;
}

status sop_exprs_typed(reqx *x, const ddb_req *r, const sop_defer *df, diag *d)
{
    if (df && df->maps_bad) {
        *d = df->maps;
        return d->code;
    }
    status st = maps_typed(&r->names, &r->values, d);
    if (st != ST_OK)
        return st;
    if ((st = sop_legacy_checks(r, d)) != ST_OK)
        return st;
    av_copy(&x->names, &r->names);
    av_copy(&x->values, &r->values);
    /* Expected and the filters run as the condition or filter expression
     * they mean (the two kinds never meet in one request). */
    buf cond = BUF_INIT, filter = BUF_INIT;
    const ddb_legacy *l = &r->legacy;
    legacy_cond_text(&l->expected, l->condop, "_e", &x->names, &x->values, &cond);
    legacy_cond_text(&l->filter, l->condop, "_f", &x->names, &x->values, &filter);
    const char *texts[5] = { r->update, cond.len ? cond.data : r->cond, r->keycond,
                             filter.len ? filter.data : r->filter, r->proj };
    st = exprs_texts(x, texts, d);
    buf_done(&cond);
    buf_done(&filter);
    return st;
}

/* AttributesToGet, the legacy projection: top-level names. */
status sop_attributes_to_get(const cJSON *in, av *names, diag *d)
{
    const cJSON *atg = sop_jget(in, "AttributesToGet");
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
void sop_project(const reqx *x, const av *atg, av *item)
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

bool sop_projecting(const reqx *x, const av *atg)
{
    return x->proj || (atg && atg->type == AV_L);
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

status sop_key_paths(const table_def *def, const expr *e, diag *d)
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

double sop_read_units(uint64_t bytes, bool consistent)
{
    return (double)size_read_halves(bytes, consistent) / 2.0;
}
/* ---- dispatch ---- */

/* The operations the local store implements, by model/ddbreq.h's names;
 * the others DynamoDB has are UnknownOperationException here. */
static const store_op_fn ops[DDB_OP__COUNT] = {
    [DDB_OP_CreateTable] = store_op_create_table,
    [DDB_OP_DeleteTable] = store_op_delete_table,
    [DDB_OP_DescribeTable] = store_op_describe_table,
    [DDB_OP_ListTables] = store_op_list_tables,
    [DDB_OP_UpdateTable] = store_op_update_table,
    [DDB_OP_PutItem] = store_op_put_item,
    [DDB_OP_GetItem] = store_op_get_item,
    [DDB_OP_DeleteItem] = store_op_delete_item,
    [DDB_OP_UpdateItem] = store_op_update_item,
    [DDB_OP_Query] = store_op_query,
    [DDB_OP_Scan] = store_op_scan,
    [DDB_OP_BatchWriteItem] = store_op_batch_write,
    [DDB_OP_BatchGetItem] = store_op_batch_get,
    [DDB_OP_TransactWriteItems] = store_op_transact_write,
    [DDB_OP_TransactGetItems] = store_op_transact_get,
    [DDB_OP_ListStreams] = store_op_list_streams,
    [DDB_OP_DescribeStream] = store_op_describe_stream,
    [DDB_OP_GetShardIterator] = store_op_get_shard_iterator,
    [DDB_OP_GetRecords] = store_op_get_records,
    [DDB_OP_ExecuteStatement] = store_op_execute_statement,
    [DDB_OP_BatchExecuteStatement] = store_op_batch_execute_statement,
    [DDB_OP_ExecuteTransaction] = store_op_execute_transaction,
    [DDB_OP_UpdateTimeToLive] = store_op_update_ttl,
    [DDB_OP_DescribeTimeToLive] = store_op_describe_ttl,
    [DDB_OP_TagResource] = store_op_tag_resource,
    [DDB_OP_UntagResource] = store_op_untag_resource,
    [DDB_OP_ListTagsOfResource] = store_op_list_tags,
    [DDB_OP_CreateBackup] = store_op_create_backup,
    [DDB_OP_DescribeBackup] = store_op_describe_backup,
    [DDB_OP_ListBackups] = store_op_list_backups,
    [DDB_OP_DeleteBackup] = store_op_delete_backup,
    [DDB_OP_RestoreTableFromBackup] = store_op_restore_from_backup,
    [DDB_OP_UpdateContinuousBackups] = store_op_update_continuous_backups,
    [DDB_OP_DescribeContinuousBackups] = store_op_describe_continuous_backups,
    [DDB_OP_RestoreTableToPointInTime] = store_op_restore_to_point_in_time,
};

static store_op_fn find_op(const char *op)
{
    int i = ddb_op_find(op);
    return i < 0 ? NULL : ops[i];
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
    if (fn == store_op_get_item && store_item_get_fast(s, input, len, out))
        return ST_OK;
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

/* Matches lit at *p after white space. */
static bool line_lit(const char **p, const char *end, const char *lit)
{
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n'))
        (*p)++;
    size_t n = strlen(lit);
    if ((size_t)(end - *p) < n || memcmp(*p, lit, n) != 0)
        return false;
    *p += n;
    return true;
}

/* The Input text of a GetItem line as `ddbx api` is sent it,
 * {"Operation":"GetItem","Input":{...}} (members in that order, white
 * space anywhere), for store_item_get_fast, which reads the Input whole;
 * false for any other line, which is parsed the general way. */
static bool get_line_input(const char *line, size_t len, const char **in, size_t *in_len)
{
    const char *p = line, *end = line + len;
    if (!line_lit(&p, end, "{") || !line_lit(&p, end, "\"Operation\"") || !line_lit(&p, end, ":") ||
        !line_lit(&p, end, "\"GetItem\"") || !line_lit(&p, end, ",") || !line_lit(&p, end, "\"Input\"") ||
        !line_lit(&p, end, ":"))
        return false;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    if (end == p || end[-1] != '}')
        return false;
    *in = p;
    *in_len = (size_t)(end - 1 - p);
    return true;
}

status store_call_line(store *s, const char *line, size_t len, char **out)
{
    if (s->remote)
        return store_remote_call_line(s, line, len, out);
    const char *in;
    size_t in_len;
    char *fast;
    if (get_line_input(line, len, &in, &in_len) && store_item_get_fast(s, in, in_len, &fast)) {
        buf b = BUF_INIT;
        store_line_answer(&b, ST_OK, fast, NULL, NULL, 0);
        free(fast);
        *out = buf_steal(&b);
        return ST_OK;
    }
    diag d;
    diag_init(&d);
    buf b = BUF_INIT;
    char *body = NULL;
    const char *op;
    cJSON *req;
    const cJSON *inv;
    buf_reset(&s->err_msg);
    status st = store_line_parse(line, len, &req, &op, &inv, &d);
    if (st == ST_OK) {
        /* The line is parsed once; the Input object goes to the operation. */
        store_op_fn fn = find_op(op);
        if (!fn) {
            st = diag_set(&d, ST_UNKNOWN_OPERATION, "Unknown operation: %s", op);
        } else if (inv) {
            st = dispatch(s, fn, inv, &body, &d);
        } else {
            cJSON *empty = cJSON_CreateObject();
            st = dispatch(s, fn, empty, &body, &d);
            cJSON_Delete(empty);
        }
    }
    bool whole = s->err_msg.len && st == ST_VALIDATION;
    store_line_answer(&b, st, body, status_name(st), whole ? s->err_msg.data : d.msg,
                      whole ? s->err_msg.len : strlen(d.msg));
    free(body);
    cJSON_Delete(req);
    *out = buf_steal(&b);
    return st;
}
