/*
 * legacy — the legacy request parameters: their values, checks,
 * translation into a condition expression, and AttributeUpdates.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/legacy.h"
#include "model/mem.h"

#define INVALID "One or more parameter values were invalid: "

static const char *const cmp_names[] = {
    NULL, "EQ", "NE", "LE", "LT", "GE", "GT", "NOT_NULL", "NULL", "CONTAINS", "NOT_CONTAINS",
    "BEGINS_WITH", "IN", "BETWEEN",
};

const char *ddb_cmp_name(ddb_cmp op)
{
    return (unsigned)op < sizeof cmp_names / sizeof *cmp_names ? cmp_names[op] : NULL;
}

ddb_cmp ddb_cmp_find(const char *name)
{
    for (size_t i = 1; name && i < sizeof cmp_names / sizeof *cmp_names; i++)
        if (strcmp(name, cmp_names[i]) == 0)
            return (ddb_cmp)i;
    return DDB_CMP_NONE;
}

/* ---- values ---- */

void legacy_init(ddb_legacy *l)
{
    memset(l, 0, sizeof *l);
    l->atg.type = AV_NONE;
}

static void conds_done(ddb_conds *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].name);
        av_done(&c->v[i].list);
        av_done(&c->v[i].value);
    }
    free(c->v);
    memset(c, 0, sizeof *c);
}

void legacy_done(ddb_legacy *l)
{
    conds_done(&l->expected);
    conds_done(&l->filter);
    conds_done(&l->keyconds);
    for (size_t i = 0; i < l->n_updates; i++) {
        free(l->updates[i].name);
        av_done(&l->updates[i].value);
    }
    free(l->updates);
    av_done(&l->atg);
    legacy_init(l);
}

static void conds_copy(ddb_conds *dst, const ddb_conds *src)
{
    dst->given = src->given;
    dst->n = src->n;
    dst->v = src->n ? xmalloc(src->n * sizeof *dst->v) : NULL;
    for (size_t i = 0; i < src->n; i++) {
        dst->v[i] = src->v[i];
        dst->v[i].name = xmemdup(src->v[i].name, src->v[i].name_len + 1);
        av_copy(&dst->v[i].list, &src->v[i].list);
        av_copy(&dst->v[i].value, &src->v[i].value);
    }
}

void legacy_copy(ddb_legacy *dst, const ddb_legacy *src)
{
    *dst = *src;
    conds_copy(&dst->expected, &src->expected);
    conds_copy(&dst->filter, &src->filter);
    conds_copy(&dst->keyconds, &src->keyconds);
    dst->updates = src->n_updates ? xmalloc(src->n_updates * sizeof *dst->updates) : NULL;
    for (size_t i = 0; i < src->n_updates; i++) {
        dst->updates[i] = src->updates[i];
        dst->updates[i].name = xmemdup(src->updates[i].name, src->updates[i].name_len + 1);
        av_copy(&dst->updates[i].value, &src->updates[i].value);
    }
    av_copy(&dst->atg, &src->atg);
}

ddb_cond *legacy_cond_add(ddb_conds *c, const char *name, size_t n)
{
    c->v = xrealloc(c->v, (c->n + 1) * sizeof *c->v);
    ddb_cond *e = &c->v[c->n++];
    memset(e, 0, sizeof *e);
    e->name = xstrndup(name, n);
    e->name_len = n;
    e->list.type = e->value.type = AV_NONE;
    e->exists = -1;
    c->given = true;
    return e;
}

ddb_attr_update *legacy_update_add(ddb_legacy *l, const char *name, size_t n)
{
    l->updates = xrealloc(l->updates, (l->n_updates + 1) * sizeof *l->updates);
    ddb_attr_update *u = &l->updates[l->n_updates++];
    memset(u, 0, sizeof *u);
    u->name = xstrndup(name, n);
    u->name_len = n;
    u->value.type = AV_NONE;
    l->has_updates = true;
    return u;
}

/* ---- the JSON printer ---- */

static void member(buf *out, bool *first, const char *name)
{
    if (!*first)
        buf_addc(out, ',');
    *first = false;
    ddbjson_write_string(out, name, strlen(name));
    buf_addc(out, ':');
}

static void write_list(buf *out, const av *list)
{
    buf_addc(out, '[');
    for (size_t i = 0; i < list->u.l.len; i++) {
        if (i)
            buf_addc(out, ',');
        ddbjson_write_value(out, &list->u.l.v[i]);
    }
    buf_addc(out, ']');
}

/* A map of conditions' value: {"a":{"ComparisonOperator":...},...}. */
static void conds_value(buf *out, const ddb_conds *c)
{
    buf_addc(out, '{');
    for (size_t i = 0; i < c->n; i++) {
        const ddb_cond *e = &c->v[i];
        bool f = true;
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, e->name, e->name_len);
        buf_addc(out, ':');
        buf_addc(out, '{');
        if (e->list.type == AV_L) {
            member(out, &f, "AttributeValueList");
            write_list(out, &e->list);
        }
        if (e->op != DDB_CMP_NONE) {
            member(out, &f, "ComparisonOperator");
            buf_printf(out, "\"%s\"", ddb_cmp_name(e->op));
        }
        if (e->exists >= 0) {
            member(out, &f, "Exists");
            buf_adds(out, e->exists ? "true" : "false");
        }
        if (e->value.type != AV_NONE) {
            member(out, &f, "Value");
            ddbjson_write_value(out, &e->value);
        }
        buf_addc(out, '}');
    }
    buf_addc(out, '}');
}

static void updates_value(buf *out, const ddb_legacy *l)
{
    static const char *const actions[] = { "PUT", "ADD", "DELETE" };
    buf_addc(out, '{');
    for (size_t i = 0; i < l->n_updates; i++) {
        const ddb_attr_update *u = &l->updates[i];
        bool f = true;
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, u->name, u->name_len);
        buf_adds(out, ":{");
        if (u->has_action) {
            member(out, &f, "Action");
            buf_printf(out, "\"%s\"", actions[u->action]);
        }
        if (u->value.type != AV_NONE) {
            member(out, &f, "Value");
            ddbjson_write_value(out, &u->value);
        }
        buf_addc(out, '}');
    }
    buf_addc(out, '}');
}

static void atg_value(buf *out, const av *atg)
{
    buf_addc(out, '[');
    for (size_t i = 0; i < atg->u.l.len; i++) {
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, atg->u.l.v[i].u.s.ptr, atg->u.l.v[i].u.s.len);
    }
    buf_addc(out, ']');
}

void legacy_members(const ddb_legacy *l, bool query, legacy_member_fn fn, void *arg)
{
    buf v = BUF_INIT;
    if (l->atg.type == AV_L) {
        atg_value(&v, &l->atg);
        fn(arg, "AttributesToGet", "--attributes-to-get", v.data, v.len);
        buf_reset(&v);
    }
    const ddb_conds *cs[3] = { &l->keyconds, &l->filter, &l->expected };
    const char *names[3] = { "KeyConditions", query ? "QueryFilter" : "ScanFilter", "Expected" };
    const char *opts[3] = { "--key-conditions", query ? "--query-filter" : "--scan-filter", "--expected" };
    for (int i = 0; i < 3; i++) {
        if (!cs[i]->given)
            continue;
        conds_value(&v, cs[i]);
        fn(arg, names[i], opts[i], v.data, v.len);
        buf_reset(&v);
    }
    if (l->has_updates) {
        updates_value(&v, l);
        fn(arg, "AttributeUpdates", "--attribute-updates", v.data, v.len);
        buf_reset(&v);
    }
    if (l->condop != DDB_CONDOP_NONE) {
        buf_adds(&v, l->condop == DDB_CONDOP_OR ? "\"OR\"" : "\"AND\"");
        fn(arg, "ConditionalOperator", "--conditional-operator", v.data, v.len);
    }
    buf_done(&v);
}

typedef struct json_out {
    buf *out;
    bool *first;
} json_out;

static void json_member(void *arg, const char *name, const char *cli, const char *json, size_t len)
{
    json_out *j = arg;
    member(j->out, j->first, name);
    buf_add(j->out, json, len);
}

void legacy_json(const ddb_legacy *l, bool query, buf *out, bool *first)
{
    json_out j = { out, first };
    legacy_members(l, query, json_member, &j);
}

/* ---- checks ---- */

/* How many values each operator takes (IN: one or more). */
static bool count_ok(ddb_cmp op, size_t n)
{
    switch (op) {
    case DDB_CMP_NULL:
    case DDB_CMP_NOT_NULL: return n == 0;
    case DDB_CMP_IN: return n >= 1;
    case DDB_CMP_BETWEEN: return n == 2;
    default: return n == 1;
    }
}

/*
 * The types each operator's values may have. EQ and NE take every type
 * ("EQ is supported for all data types, including lists and maps", API
 * reference, Condition; AWS answers QueryFilter EQ on L, M and BOOL);
 * ordering, IN, CONTAINS take S, N, B; BEGINS_WITH S and B.
 */
static bool type_ok(ddb_cmp op, av_type t)
{
    switch (op) {
    case DDB_CMP_EQ:
    case DDB_CMP_NE: return true;
    case DDB_CMP_BEGINS_WITH: return t == AV_S || t == AV_B;
    default: return t == AV_S || t == AV_N || t == AV_B;
    }
}

/* The checks of one operator's values (list: an AV_L). */
static status values_check(ddb_cmp op, const av *list, diag *d)
{
    const char *opn = ddb_cmp_name(op);
    size_t n = list->type == AV_L ? list->u.l.len : 0;
    if (!count_ok(op, n))
        return diag_set(d, ST_VALIDATION, INVALID "Invalid number of argument(s) for the %s ComparisonOperator",
                        opn);
    for (size_t i = 1; i < n; i++)
        if (list->u.l.v[i].type != list->u.l.v[0].type)
            return diag_set(d, ST_VALIDATION, INVALID "AttributeValues inside AttributeValueList must be of"
                            " same type");
    for (size_t i = 0; i < n; i++)
        if (!type_ok(op, list->u.l.v[i].type))
            return diag_set(d, ST_VALIDATION, INVALID "ComparisonOperator %s is not valid for %s AttributeValue"
                            " type", opn, av_type_name(list->u.l.v[i].type));
    if (op == DDB_CMP_BETWEEN && av_cmp(&list->u.l.v[0], &list->u.l.v[1]) > 0)
        return diag_set(d, ST_VALIDATION, "The BETWEEN condition was provided a range where the lower bound"
                        " is greater than the upper bound");
    return ST_OK;
}

status legacy_check_conditions(const ddb_conds *c, diag *d)
{
    for (size_t i = 0; i < c->n; i++) {
        /* Required in a Condition (the codec's shape check says so for
         * JSON; a typed caller may forget it). */
        if (c->v[i].op == DDB_CMP_NONE)
            return diag_set(d, ST_VALIDATION, "1 validation error detected: Value null at '%s.member.comparisonOperator'"
                            " failed to satisfy constraint: Member must not be null", c->v[i].name);
        status st = values_check(c->v[i].op, &c->v[i].list, d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* One Expected entry's operands: AttributeValueList, or Value as a list
 * of one (dynalite's matchesFilter reads them so). */
static void operands(const ddb_cond *e, av *out)
{
    if (e->list.type == AV_L) {
        *out = e->list;
        return;
    }
    out->type = AV_L;
    out->u.l.v = (av *)&e->value;
    out->u.l.len = out->u.l.cap = e->value.type == AV_NONE ? 0 : 1;
}

static status expected_one(const ddb_cond *e, diag *d)
{
    const char *k = e->name;
    bool has_list = e->list.type == AV_L, has_value = e->value.type != AV_NONE;
    if (has_list && has_value)
        return diag_set(d, ST_VALIDATION, INVALID "Value and AttributeValueList cannot be used together for"
                        " Attribute: %s", k);
    if (e->op != DDB_CMP_NONE) {
        if (e->exists >= 0)
            return diag_set(d, ST_VALIDATION, INVALID "Exists and ComparisonOperator cannot be used together"
                            " for Attribute: %s", k);
        if (e->op != DDB_CMP_NULL && e->op != DDB_CMP_NOT_NULL && !has_list && !has_value)
            return diag_set(d, ST_VALIDATION, INVALID "Value or AttributeValueList must be used with"
                            " ComparisonOperator: %s for Attribute: %s", ddb_cmp_name(e->op), k);
        av ops;
        operands(e, &ops);
        return values_check(e->op, &ops, d);
    }
    if (has_list)
        return diag_set(d, ST_VALIDATION, INVALID "AttributeValueList can only be used with a"
                        " ComparisonOperator for Attribute: %s", k);
    bool exists = e->exists != 0;
    if (exists && !has_value)
        return diag_set(d, ST_VALIDATION, INVALID "Value must be provided when Exists is %s for Attribute: %s",
                        e->exists < 0 ? "null" : "true", k);
    if (!exists && has_value)
        return diag_set(d, ST_VALIDATION, INVALID "Value cannot be used when Exists is false for Attribute: %s",
                        k);
    return ST_OK;
}

status legacy_check_expected(const ddb_conds *c, diag *d)
{
    for (size_t i = 0; i < c->n; i++) {
        status st = expected_one(&c->v[i], d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* The messages are DynamoDB's (AWS answers them for a ConditionalOperator
 * with a one-condition ScanFilter; DynamoDB Local and the DAX client hold
 * both). */
status legacy_check_condop(ddb_condop op, const ddb_conds *conds, diag *d)
{
    if (op == DDB_CONDOP_NONE)
        return ST_OK;
    if (!conds || !conds->given)
        return diag_set(d, ST_VALIDATION, "ConditionalOperator cannot be used without Filter or Expected");
    if (conds->n < 2)
        return diag_set(d, ST_VALIDATION, "ConditionalOperator can only be used when Filter or Expected has"
                        " two or more elements");
    return ST_OK;
}

status legacy_check_updates(const ddb_legacy *l, diag *d)
{
    for (size_t i = 0; i < l->n_updates; i++) {
        const ddb_attr_update *u = &l->updates[i];
        av_type t = u->value.type;
        if (t == AV_NONE && u->action != DDB_AU_DELETE)
            return diag_set(d, ST_VALIDATION, INVALID "Only DELETE action is allowed when no attribute value is"
                            " specified");
        if (t != AV_NONE && u->action == DDB_AU_DELETE && !av_is_set(t))
            return diag_set(d, ST_VALIDATION, INVALID "DELETE action with value is not supported for the type %s",
                            av_type_name(t));
        if (t != AV_NONE && u->action == DDB_AU_ADD && !av_is_set(t) && t != AV_N && t != AV_L)
            return diag_set(d, ST_VALIDATION, INVALID "ADD action is not supported for the type %s",
                            av_type_name(t));
    }
    return ST_OK;
}

/* ---- meaning ---- */

typedef struct placer {
    const char *tag;
    av *names, *values;
    unsigned n_names, n_values;
} placer;

/* "#<tag>N" naming name, appended to out. */
static void place_name(placer *p, const ddb_cond *e, buf *out)
{
    char key[40];
    int n = snprintf(key, sizeof key, "#%s%u", p->tag, p->n_names++);
    if (p->names->type == AV_NONE)
        av_init_list(p->names, AV_M);
    av v;
    av_init_s(&v, e->name, e->name_len);
    av_map_put(p->names, key, (size_t)n, &v);
    buf_add(out, key, (size_t)n);
}

static void place_value(placer *p, const av *val, buf *out)
{
    char key[40];
    int n = snprintf(key, sizeof key, ":%s%u", p->tag, p->n_values++);
    if (p->values->type == AV_NONE)
        av_init_list(p->values, AV_M);
    av v;
    av_copy(&v, val);
    av_map_put(p->values, key, (size_t)n, &v);
    buf_add(out, key, (size_t)n);
}

/* A function of the attribute and its first value: fn(#n, :v). */
static void func(placer *p, const char *fn, const ddb_cond *e, const av *vals, buf *out)
{
    buf_adds(out, fn);
    buf_addc(out, '(');
    place_name(p, e, out);
    for (size_t i = 0; vals && i < 1; i++) {
        buf_adds(out, ", ");
        place_value(p, &vals->u.l.v[0], out);
    }
    buf_addc(out, ')');
}

/* One condition. Exists/Value without an operator mean EQ (Value) or
 * NULL (Exists false). NOT_CONTAINS is false on a missing attribute
 * (AWS: an UpdateItem with Expected NOT_CONTAINS on a missing attribute
 * fails its condition), unlike NOT contains(), which is true there. */
static void one_text(placer *p, const ddb_cond *e, buf *out)
{
    static const char *const cmp_ops[] = {
        [DDB_CMP_EQ] = " = ", [DDB_CMP_NE] = " <> ", [DDB_CMP_LE] = " <= ",
        [DDB_CMP_LT] = " < ", [DDB_CMP_GE] = " >= ", [DDB_CMP_GT] = " > ",
    };
    ddb_cmp op = e->op;
    if (op == DDB_CMP_NONE)
        op = e->exists == 0 ? DDB_CMP_NULL : DDB_CMP_EQ;
    av vals;
    operands(e, &vals);
    switch (op) {
    case DDB_CMP_NOT_NULL: func(p, "attribute_exists", e, NULL, out); break;
    case DDB_CMP_NULL: func(p, "attribute_not_exists", e, NULL, out); break;
    case DDB_CMP_CONTAINS: func(p, "contains", e, &vals, out); break;
    case DDB_CMP_BEGINS_WITH: func(p, "begins_with", e, &vals, out); break;
    case DDB_CMP_NOT_CONTAINS:
        buf_addc(out, '(');
        func(p, "attribute_exists", e, NULL, out);
        buf_adds(out, " AND NOT ");
        func(p, "contains", e, &vals, out);
        buf_addc(out, ')');
        break;
    case DDB_CMP_IN:
        place_name(p, e, out);
        buf_adds(out, " IN (");
        for (size_t i = 0; i < vals.u.l.len; i++) {
            if (i)
                buf_adds(out, ", ");
            place_value(p, &vals.u.l.v[i], out);
        }
        buf_addc(out, ')');
        break;
    case DDB_CMP_BETWEEN:
        place_name(p, e, out);
        buf_adds(out, " BETWEEN ");
        place_value(p, &vals.u.l.v[0], out);
        buf_adds(out, " AND ");
        place_value(p, &vals.u.l.v[1], out);
        break;
    default:
        place_name(p, e, out);
        buf_adds(out, cmp_ops[op]);
        place_value(p, &vals.u.l.v[0], out);
        break;
    }
}

/* Each condition is an operand of AND/OR as it stands (NOT_CONTAINS
 * brings its own parentheses): DynamoDB refuses redundant ones. */
void legacy_cond_text(const ddb_conds *c, ddb_condop op, const char *tag, av *names, av *values,
                      buf *out)
{
    placer p = { tag, names, values, 0, 0 };
    for (size_t i = 0; i < c->n; i++) {
        if (i)
            buf_adds(out, op == DDB_CONDOP_OR ? " OR " : " AND ");
        one_text(&p, &c->v[i], out);
    }
}

static status mismatch(diag *d)
{
    return diag_set(d, ST_VALIDATION, "Type mismatch for attribute to update");
}

/* ADD: a number added, a set united, a list appended (dynalite's
 * applyAttributeUpdates; ADD of a list is legacy-only). */
static status add_one(av *item, const ddb_attr_update *u, diag *d)
{
    av *cur = av_map_get_mut(item, u->name, u->name_len);
    if (!cur) {
        av v;
        av_copy(&v, &u->value);
        av_map_put(item, u->name, u->name_len, &v);
        return ST_OK;
    }
    if (cur->type != u->value.type)
        return mismatch(d);
    if (cur->type == AV_N) {
        num sum;
        status st = num_add(&cur->u.n, &u->value.u.n, &sum, d);
        if (st != ST_OK)
            return st;
        cur->u.n = sum;
        return ST_OK;
    }
    for (size_t i = 0; i < u->value.u.l.len; i++) {
        const av *e = &u->value.u.l.v[i];
        if (cur->type != AV_L && av_set_has(cur, e))
            continue;
        av c;
        av_copy(&c, e);
        av_list_push(cur, &c);
    }
    if (cur->type != AV_L)
        av_set_normalize(cur);
    return ST_OK;
}

/* DELETE with a set: its elements removed; an emptied set goes. */
static status delete_elems(av *item, const ddb_attr_update *u, diag *d)
{
    av *cur = av_map_get_mut(item, u->name, u->name_len);
    if (!cur)
        return ST_OK;
    if (cur->type != u->value.type)
        return mismatch(d);
    av keep;
    av_init_list(&keep, cur->type);
    for (size_t i = 0; i < cur->u.l.len; i++) {
        if (av_set_has(&u->value, &cur->u.l.v[i]))
            continue;
        av c;
        av_copy(&c, &cur->u.l.v[i]);
        av_list_push(&keep, &c);
    }
    if (!keep.u.l.len) {
        av_done(&keep);
        av_map_remove(item, u->name, u->name_len);
        return ST_OK;
    }
    av_done(cur);
    av_move(cur, &keep);
    return ST_OK;
}

status legacy_updates_apply(const ddb_legacy *l, av *item, diag *d)
{
    for (size_t i = 0; i < l->n_updates; i++) {
        const ddb_attr_update *u = &l->updates[i];
        status st = ST_OK;
        if (u->action == DDB_AU_PUT) {
            av v;
            av_copy(&v, &u->value);
            av_map_put(item, u->name, u->name_len, &v);
        } else if (u->action == DDB_AU_ADD) {
            st = add_one(item, u, d);
        } else if (u->value.type == AV_NONE) {
            av_map_remove(item, u->name, u->name_len);
        } else {
            st = delete_elems(item, u, d);
        }
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

bool legacy_deletes_only(const ddb_legacy *l)
{
    for (size_t i = 0; i < l->n_updates; i++)
        if (l->updates[i].action != DDB_AU_DELETE)
            return false;
    return l->n_updates > 0;
}

void legacy_updated_part(const ddb_legacy *l, av *item)
{
    av out;
    av_init_list(&out, AV_M);
    for (size_t i = 0; i < l->n_updates; i++) {
        const av *v = av_map_get(item, l->updates[i].name, l->updates[i].name_len);
        if (v) {
            av c;
            av_copy(&c, v);
            av_map_put(&out, l->updates[i].name, l->updates[i].name_len, &c);
        }
    }
    av_done(item);
    av_move(item, &out);
}
