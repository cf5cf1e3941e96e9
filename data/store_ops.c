/*
 * store_ops — what the JSON door's operations share (data/store_ops.h):
 * the request-shape specs several operations use, the cJSON accessors,
 * the request members every data-plane operation reads (items, the
 * legacy parameters, the expression maps, AttributesToGet) with
 * DynamoDB's checks and messages, and ConsumedCapacity written into a
 * response. The operations (store_item.c, store_query.c, store_batch.c)
 * read a request body with these into a ddb_req and run it on the typed
 * engine (store_engine.c).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/ddbres.h"
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

const char *store_jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const cJSON *store_jget(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return v && !cJSON_IsNull(v) ? v : NULL;
}

double store_jnum(const cJSON *o, const char *name, bool *has)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (has)
        *has = cJSON_IsNumber(v);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

bool sop_jbool(const cJSON *o, const char *name, bool dflt)
{
    const cJSON *v = store_jget(o, name);
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

uint32_t sop_limit(const cJSON *in)
{
    const cJSON *lim = cJSON_GetObjectItemCaseSensitive(in, "Limit");
    if (!cJSON_IsNumber(lim) || lim->valuedouble < 1)
        return 0;
    return lim->valuedouble >= (double)UINT32_MAX ? UINT32_MAX : (uint32_t)lim->valuedouble;
}

ddb_rcc sop_rcc_mode(const cJSON *in)
{
    return ddb_rcc_find(store_jstr(in, "ReturnConsumedCapacity"));
}

/* The units the calling thread's current store_call consumed, asked for
 * or not (store_call_units): a store connection serves one call at a
 * time on one thread, so a thread's tally is its call's. */
static __thread double call_units;

void sop_units_reset(void)
{
    call_units = 0;
}

void sop_units_add(double u)
{
    call_units += u;
}

double store_call_units(void)
{
    return call_units;
}

void sop_units_of(const ddb_res *res)
{
    for (size_t i = 0; i < res->n_caps; i++)
        call_units += res->caps[i].units;
}

status sop_parse_item(const cJSON *in, const char *member, av *item, diag *d)
{
    const cJSON *v = store_jget(in, member);
    item->type = AV_NONE;
    if (!v) {
        av_init_list(item, AV_M);
        return ST_OK;
    }
    return ddbjson_item_from_cjson(v, NULL, item, d);
}

/* ---- the legacy parameters ---- */

/* A map of ExpectedAttributeValue or Condition (shapes already checked by
 * store_valid) into c. */
static status conds_json(const cJSON *map, ddb_conds *c, diag *d)
{
    const cJSON *e;
    c->given = true;
    cJSON_ArrayForEach(e, map) {
        ddb_cond *k = legacy_cond_add(c, e->string, strlen(e->string));
        k->op = ddb_cmp_find(store_jstr(e, "ComparisonOperator"));
        const cJSON *ex = store_jget(e, "Exists");
        if (ex)
            k->exists = (signed char)cJSON_IsTrue(ex);
        const cJSON *v = store_jget(e, "Value");
        if (v && ddbjson_value_from_cjson(v, NULL, &k->value, d) != ST_OK)
            return d->code;
        const cJSON *list = store_jget(e, "AttributeValueList");
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
        const char *act = store_jstr(e, "Action");
        u->has_action = act != NULL;
        u->action = sop_is(act, "ADD") ? DDB_AU_ADD : sop_is(act, "DELETE") ? DDB_AU_DELETE : DDB_AU_PUT;
        const cJSON *v = store_jget(e, "Value");
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
    const char *op = store_jstr(in, "ConditionalOperator");
    l->condop = sop_is(op, "AND") ? DDB_CONDOP_AND : sop_is(op, "OR") ? DDB_CONDOP_OR : DDB_CONDOP_NONE;
    if ((v = store_jget(in, "Expected")) && (st = conds_json(v, &l->expected, d)) != ST_OK)
        return st;
    if ((v = store_jget(in, filter)) && (st = conds_json(v, &l->filter, d)) != ST_OK)
        return st;
    if (kind == DDB_QUERY && (v = store_jget(in, "KeyConditions")) && (st = conds_json(v, &l->keyconds, d)) != ST_OK)
        return st;
    if ((v = store_jget(in, "AttributeUpdates")) && (st = updates_json(v, l, d)) != ST_OK)
        return st;
    return ST_OK;
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
        if (store_jget(in, *p)) {
            buf_adds(&used, n_used++ ? ", " : "");
            buf_adds(&used, *p);
        }
    bool keycond_only_legacy = store_jget(in, "KeyConditions") && !store_jget(in, "KeyConditionExpression");
    if (n_used) {
        for (const char *const *p = legacy; *p; p++) {
            if (keycond_only_legacy && strcmp(*p, "KeyConditions") == 0)
                continue;
            if (store_jget(in, *p)) {
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
    if (store_jget(in, "ExpressionAttributeNames") && !n_used) {
        st = diag_set(d, ST_VALIDATION, "ExpressionAttributeNames can only be specified when using expressions");
        goto out;
    }
    if (store_jget(in, "ExpressionAttributeValues")) {
        size_t n_val = 0, n_given = 0;
        buf list = BUF_INIT;
        for (const char *const *p = exprs; *p; p++) {
            if (strcmp(*p, "ProjectionExpression") == 0)
                continue;
            buf_adds(&list, n_val++ ? " and " : "");
            buf_adds(&list, *p);
            if (store_jget(in, *p))
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

/* The keys of a names or values map (member names it), with DynamoDB's
 * messages: the map not empty, each key a placeholder of sigil ('#' for
 * names, ':' for values). */
static status map_keys_check(const cJSON *map, const char *member, char sigil, diag *d)
{
    if (!map->child)
        return diag_set(d, ST_VALIDATION, "%s must not be empty", member);
    const cJSON *e;
    cJSON_ArrayForEach(e, map) {
        if (!seng_placeholder_ok(e->string, strlen(e->string), sigil))
            return diag_set(d, ST_VALIDATION, "%s contains invalid key: Syntax error; key: \"%s\"", member,
                            e->string);
    }
    return ST_OK;
}

status sop_maps_json(const cJSON *in, av *names, av *values, diag *d)
{
    const cJSON *ean = store_jget(in, "ExpressionAttributeNames");
    const cJSON *eav = store_jget(in, "ExpressionAttributeValues");
    const cJSON *e;
    if (ean) {
        if (map_keys_check(ean, "ExpressionAttributeNames", '#', d) != ST_OK)
            return d->code;
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
        if (map_keys_check(eav, "ExpressionAttributeValues", ':', d) != ST_OK)
            return d->code;
        av_init_list(values, AV_M);
        cJSON_ArrayForEach(e, eav) {
            av v;
            if (ddbjson_value_from_cjson(e, NULL, &v, d) != ST_OK) {
                /* {"NULL": false} is refused as it is read, without the
                 * wrapper (AWS, eu-west-2: dynoxide 0.12.0's changelog and
                 * tests, 2026-07). */
                if (strstr(d->msg, "Null attribute value types must have the value of true"))
                    return d->code;
                char msg[sizeof d->msg];
                snprintf(msg, sizeof msg, "%s", d->msg);
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid value: %s"
                                " for key %s", msg, e->string);
            }
            /* DynamoDB refuses a value nested deeper than an item may be
             * before it looks at the expressions. */
            if (size_too_deep(&v)) {
                av_done(&v);
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid value: Nesting"
                                " Levels have exceeded supported limits for key %s", e->string);
            }
            av_map_put(values, e->string, strlen(e->string), &v);
        }
    }
    return ST_OK;
}

/* AttributesToGet, the legacy projection: top-level names. */
status sop_attributes_to_get(const cJSON *in, av *names, diag *d)
{
    const cJSON *atg = store_jget(in, "AttributesToGet");
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

status sop_error(store *s, const ddb_err *e, diag *d)
{
    if (ddb_err_has_members(e)) {
        buf_reset(&s->err_extra);
        ddb_err_json(e, &s->err_extra);
    }
    *d = e->d;
    return d->code;
}

status sop_run(store *s, const ddb_req *req, buf *out, diag *d)
{
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    status st = store_exec(s, req, &res, &err);
    if (st == ST_OK) {
        sop_units_of(&res);
        ddb_res_json(req, &res, out);
    } else {
        st = sop_error(s, &err, d);
    }
    ddb_err_done(&err);
    ddb_res_done(&res);
    return st;
}

status sop_door(store *s, const cJSON *in, const vspec *spec, ddb_kind kind, sop_reader read, buf *out,
                diag *d)
{
    status st = store_valid_check(in, spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    ddb_req req;
    ddb_req_init(&req, kind);
    if ((st = read(in, &req, d)) == ST_OK)
        st = sop_run(s, &req, out, d);
    ddb_req_done(&req);
    return st;
}
