/*
 * model_file — writing and reading model files (see model_file.h).
 */
#include "data/model_file.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/jsonread.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- writing ------------------------------------------------------------- */

static void str(buf *out, const char *s)
{
    ddbjson_write_string(out, s, strlen(s));
}

static void key_obj(buf *out, const key_attr *k)
{
    buf_addc(out, '{');
    str(out, k->name);
    buf_adds(out, ": ");
    str(out, av_type_name(k->type));
    buf_addc(out, '}');
}

static void write_def(const table_def *def, buf *out)
{
    buf_adds(out, "      \"key\": {\"partition\": ");
    key_obj(out, &def->pk);
    if (def->sk.name) {
        buf_adds(out, ", \"sort\": ");
        key_obj(out, &def->sk);
    }
    buf_adds(out, "}");
    if (!def->n_idx)
        return;
    buf_adds(out, ",\n      \"indexes\": {");
    for (size_t i = 0; i < def->n_idx; i++) {
        const index_def *ix = &def->idx[i];
        buf_adds(out, i ? ",\n        " : "\n        ");
        str(out, ix->name);
        buf_printf(out, ": {\"kind\": \"%s\", \"partition\": ", ix->global ? "GSI" : "LSI");
        key_obj(out, &ix->pk);
        if (ix->sk.name) {
            buf_adds(out, ", \"sort\": ");
            key_obj(out, &ix->sk);
        }
        buf_printf(out, ", \"projection\": \"%s\"", proj_type_name(ix->proj));
        if (ix->proj == PROJ_INCLUDE) {
            buf_adds(out, ", \"include\": [");
            for (size_t k = 0; k < ix->n_include; k++) {
                buf_adds(out, k ? ", " : "");
                str(out, ix->include[k]);
            }
            buf_addc(out, ']');
        }
        buf_addc(out, '}');
    }
    buf_adds(out, "\n      }");
}

static void tmpl_pair(buf *out, bool *first, const char *attr, const char *tmpl)
{
    if (!attr || !tmpl)
        return;
    buf_adds(out, *first ? "" : ", ");
    *first = false;
    str(out, attr);
    buf_adds(out, ": ");
    str(out, tmpl);
}

static void write_attrs(const ent_entity *e, buf *out)
{
    buf_adds(out, ",\n          \"attributes\": {");
    for (size_t i = 0; i < e->n_attrs; i++) {
        const ent_attr *a = &e->attrs[i];
        buf_adds(out, i ? ",\n            " : "\n            ");
        str(out, a->name);
        buf_adds(out, ": {\"types\": {");
        bool first = true;
        for (int t = AV_S; t < ENT_TYPES; t++)
            if (a->types[t]) {
                buf_printf(out, "%s\"%s\": %llu", first ? "" : ", ", av_type_name((av_type)t),
                           (unsigned long long)a->types[t]);
                first = false;
            }
        buf_printf(out, "}, \"items\": %llu, \"share\": %.4g, \"required\": %s}",
                   (unsigned long long)a->count, ent_attr_share(e, a), a->required ? "true" : "false");
    }
    buf_adds(out, e->n_attrs ? "\n          }" : "}");
    if (e->more_attrs)
        buf_printf(out, ",\n          \"more_attributes\": %llu", (unsigned long long)e->more_attrs);
}

static void write_entity(const table_def *def, const ent_entity *e, buf *out)
{
    str(out, e->name);
    buf_adds(out, ": {");
    const char *sep = "\n          ";
    if (e->type_value) {
        buf_printf(out, "%s\"type\": ", sep);
        str(out, e->type_value);
        sep = ",\n          ";
    }
    buf_printf(out, "%s\"keys\": {", sep);
    bool first = true;
    tmpl_pair(out, &first, def->pk.name, e->pk_tmpl);
    tmpl_pair(out, &first, def->sk.name, e->sk_tmpl);
    buf_printf(out, "},\n          \"items\": %llu, \"bytes\": %llu, \"max_bytes\": %llu,"
               " \"write_units\": %llu",
               (unsigned long long)e->count, (unsigned long long)e->bytes,
               (unsigned long long)e->max_bytes, (unsigned long long)(e->write_halves / 2));
    bool any = false;
    for (size_t i = 0; i < e->n_idx; i++) {
        const ent_index *x = &e->idx[i];
        const index_def *ix = table_def_index(def, x->name);
        if (!x->count || !ix)
            continue;
        buf_adds(out, any ? ",\n            " : ",\n          \"indexes\": {\n            ");
        any = true;
        str(out, x->name);
        buf_adds(out, ": {\"keys\": {");
        first = true;
        tmpl_pair(out, &first, ix->pk.name, x->pk_tmpl);
        tmpl_pair(out, &first, ix->sk.name, x->sk_tmpl);
        buf_printf(out, "}, \"items\": %llu, \"write_units\": %llu}", (unsigned long long)x->count,
                   (unsigned long long)(x->write_halves / 2));
    }
    if (any)
        buf_adds(out, "\n          }");
    write_attrs(e, out);
    if (e->sample.type == AV_M) {
        buf_adds(out, ",\n          \"sample\": ");
        ddbjson_write_item(out, &e->sample);
    }
    buf_adds(out, "\n        }");
}

static void write_table(const ent_table *t, buf *out)
{
    str(out, t->name);
    buf_adds(out, ": {\n");
    write_def(&t->def, out);
    if (t->type_attr) {
        buf_adds(out, ",\n      \"type_attribute\": ");
        str(out, t->type_attr);
    }
    if (t->ttl_attr) {
        buf_adds(out, ",\n      \"ttl_attribute\": ");
        str(out, t->ttl_attr);
    }
    buf_printf(out, ",\n      \"read\": {\"items\": %llu, \"of\": %llu, \"sampled\": %s}",
               (unsigned long long)t->items_read, (unsigned long long)t->items_total,
               t->sampled ? "true" : "false");
    if (t->strays) {
        buf_printf(out, ",\n      \"no_entity\": {\"items\": %llu, \"keys\": [",
                   (unsigned long long)t->strays);
        for (size_t i = 0; i < t->n_strays_keys; i++) {
            buf_adds(out, i ? ", " : "");
            ddbjson_write_item(out, &t->strays_keys[i]);
        }
        buf_adds(out, "]}");
    }
    buf_adds(out, ",\n      \"entities\": {");
    for (size_t i = 0; i < t->n; i++) {
        buf_adds(out, i ? ",\n        " : "\n        ");
        write_entity(&t->def, &t->e[i], out);
    }
    buf_adds(out, t->n ? "\n      }\n    }" : "}\n    }");
}

void model_file_write(const ent_model *m, buf *out)
{
    buf_adds(out, "{\n  \"ddbx_model\": 1,\n  \"tables\": {");
    for (size_t i = 0; i < m->n; i++) {
        buf_adds(out, i ? ",\n    " : "\n    ");
        write_table(&m->t[i], out);
    }
    buf_adds(out, m->n ? "\n  }\n}\n" : "}\n}\n");
}

/* ---- reading ------------------------------------------------------------- */

static const cJSON *member(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

/* {"NAME": "S|N|B"} into k. */
static status read_key(jsonread *r, const cJSON *v, key_attr *k)
{
    if (!cJSON_IsObject(v) || cJSON_GetArraySize(v) != 1)
        return jsonread_fail(r, "must be {\"ATTRIBUTE\": \"S\"} (one attribute and its type: S, N or B)");
    const cJSON *m = v->child;
    jsonread_push_name(r, m->string);
    status st = ST_OK;
    av_type t = cJSON_IsString(m) ? av_type_from_name(m->valuestring, strlen(m->valuestring)) : AV_NONE;
    if (!m->string[0])
        st = jsonread_fail(r, "an attribute name is not empty");
    else if (t != AV_S && t != AV_N && t != AV_B)
        st = jsonread_fail(r, "a key attribute's type is S, N or B");
    jsonread_pop(r);
    if (st == ST_OK) {
        k->name = xstrdup(m->string);
        k->type = t;
    }
    return st;
}

static status read_keypair(jsonread *r, const cJSON *v, key_attr *pk, key_attr *sk, bool need_p)
{
    const cJSON *p = member(v, "partition"), *s = member(v, "sort");
    if (!p && need_p)
        return jsonread_fail(r, "needs \"partition\": {\"ATTRIBUTE\": \"S\"}");
    status st = ST_OK;
    if (p) {
        jsonread_push_name(r, "partition");
        st = read_key(r, p, pk);
        jsonread_pop(r);
    }
    if (st == ST_OK && s) {
        jsonread_push_name(r, "sort");
        st = read_key(r, s, sk);
        jsonread_pop(r);
    }
    return st;
}

static status read_index(jsonread *r, const cJSON *v, const table_def *def, index_def *ix)
{
    static const char *const members[] = { "kind", "partition", "sort", "projection", "include", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "an index is an object: {\"kind\": \"GSI\", \"partition\": {...}, ...}");
    status st = jsonread_members(r, v, members);
    char *kind = NULL, *proj = NULL;
    const cJSON *k = member(v, "kind"), *p = member(v, "projection");
    if (st == ST_OK && k) {
        jsonread_push_name(r, "kind");
        st = jsonread_string(r, k, false, &kind);
        if (st == ST_OK && strcmp(kind, "GSI") != 0 && strcmp(kind, "LSI") != 0)
            st = jsonread_fail(r, "is GSI or LSI");
        jsonread_pop(r);
    }
    ix->global = !kind || strcmp(kind, "GSI") == 0;
    if (st == ST_OK)
        st = read_keypair(r, v, &ix->pk, &ix->sk, ix->global);
    if (st == ST_OK && !ix->global) {
        if (ix->pk.name && strcmp(ix->pk.name, def->pk.name) != 0)
            st = jsonread_fail(r, "an LSI's partition key is the table's (%s)", def->pk.name);
        free(ix->pk.name);
        ix->pk.name = xstrdup(def->pk.name);
        ix->pk.type = def->pk.type;
    }
    if (st == ST_OK && p) {
        jsonread_push_name(r, "projection");
        st = jsonread_string(r, p, false, &proj);
        if (st == ST_OK) {
            if (strcmp(proj, "ALL") == 0)
                ix->proj = PROJ_ALL;
            else if (strcmp(proj, "KEYS_ONLY") == 0)
                ix->proj = PROJ_KEYS_ONLY;
            else if (strcmp(proj, "INCLUDE") == 0)
                ix->proj = PROJ_INCLUDE;
            else
                st = jsonread_fail(r, "is ALL, KEYS_ONLY or INCLUDE");
        }
        jsonread_pop(r);
    }
    const cJSON *inc = member(v, "include");
    if (st == ST_OK && inc) {
        jsonread_push_name(r, "include");
        if (!cJSON_IsArray(inc) || ix->proj != PROJ_INCLUDE) {
            st = jsonread_fail(r, "a list of attribute names, with \"projection\": \"INCLUDE\"");
        } else {
            ix->include = xcalloc((size_t)cJSON_GetArraySize(inc) + 1, sizeof *ix->include);
            const cJSON *a;
            size_t i = 0;
            cJSON_ArrayForEach(a, inc) {
                jsonread_push_index(r, i++);
                st = jsonread_string(r, a, false, &ix->include[ix->n_include]);
                jsonread_pop(r);
                if (st != ST_OK)
                    break;
                ix->n_include++;
            }
        }
        jsonread_pop(r);
    }
    free(kind);
    free(proj);
    return st;
}

static status index_member(jsonread *r, const cJSON *m, void *def_)
{
    table_def *def = def_;
    index_def *ix = &def->idx[def->n_idx++];
    ix->name = xstrdup(m->string);
    return m->string[0] ? read_index(r, m, def, ix) : jsonread_fail(r, "an index name is not empty");
}

static status read_indexes(jsonread *r, const cJSON *v, table_def *def)
{
    if (cJSON_IsObject(v))
        def->idx = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof *def->idx);
    return jsonread_each(r, v, "must be an object of INDEX: {...}", NULL, index_member, def);
}

static status read_u64(jsonread *r, const cJSON *v, uint64_t *out)
{
    double x = 0;
    status st = jsonread_count(r, v, true, &x);
    *out = (uint64_t)x;
    return st;
}

/* A template, checked; must name one of the allowed attributes. */
static status read_tmpl(jsonread *r, const cJSON *v, char **out)
{
    status st = jsonread_string(r, v, false, out);
    size_t at = 0;
    if (st == ST_OK && !ent_tmpl_valid(*out, &at))
        st = jsonread_fail(r, "a template is literal text and {name} placeholders, braces paired,"
                        " names not empty, two placeholders never side by side (at character %zu)",
                     at + 1);
    return st;
}

/* "keys": {"PK": "...", "SK": "..."} for the key attributes pk and sk. */
static status read_tmpls(jsonread *r, const cJSON *v, const key_attr *pk, const key_attr *sk,
                         char **pt, char **st_)
{
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object of KEY ATTRIBUTE: \"TEMPLATE\"");
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        jsonread_push_name(r, m->string);
        status st;
        if (pk->name && strcmp(m->string, pk->name) == 0)
            st = read_tmpl(r, m, pt);
        else if (sk->name && strcmp(m->string, sk->name) == 0)
            st = read_tmpl(r, m, st_);
        else {
            r->at_name = true;
            st = jsonread_fail(r, "not a key attribute here (%s%s%s)", pk->name ? pk->name : "",
                         sk->name ? ", " : "", sk->name ? sk->name : "");
            r->at_name = false;
        }
        jsonread_pop(r);
        if (st != ST_OK)
            return st;
    }
    if (!*pt)
        return jsonread_fail(r, "needs the template of %s", pk->name);
    return ST_OK;
}

static status type_member(jsonread *r, const cJSON *t, void *a_)
{
    ent_attr *a = a_;
    av_type ty = av_type_from_name(t->string, strlen(t->string));
    return ty == AV_NONE ? jsonread_fail(r, "not a DynamoDB type (S, N, B, BOOL, NULL, L, M, SS, NS, BS)")
                         : read_u64(r, t, &a->types[ty]);
}

static status attr_member(jsonread *r, const cJSON *m, void *a_)
{
    ent_attr *a = a_;
    double x = 0;
    if (strcmp(m->string, "types") == 0)
        return jsonread_each(r, m, "must be an object of TYPE: items", NULL, type_member, a);
    if (strcmp(m->string, "items") == 0)
        return read_u64(r, m, &a->count);
    if (strcmp(m->string, "share") == 0)
        return jsonread_count(r, m, false, &x);   /* computed again from the counts */
    return jsonread_bool(r, m, &a->required);
}

static status read_attr(jsonread *r, const cJSON *v, ent_attr *a)
{
    static const char *const members[] = { "types", "items", "share", "required", NULL };
    return jsonread_each(r, v, "an attribute is an object: {\"types\": {\"S\": 10}, \"required\": true}",
                         members, attr_member, a);
}

static status attrs_member(jsonread *r, const cJSON *m, void *e_)
{
    ent_entity *e = e_;
    ent_attr *a = &e->attrs[e->n_attrs++];
    a->name = xstrdup(m->string);
    return read_attr(r, m, a);
}

static status read_attrs(jsonread *r, const cJSON *v, ent_entity *e)
{
    if (cJSON_IsObject(v))
        e->attrs = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof *e->attrs);
    status st = jsonread_each(r, v, "must be an object of ATTRIBUTE: {...}", NULL, attrs_member, e);
    if (st == ST_OK)
        entity_sort_attrs(e);
    return st;
}

/* An entity's index, ix the table's and x the entity's. */
typedef struct ent_index_at {
    const index_def *ix;
    ent_index *x;
} ent_index_at;

static status ent_index_member(jsonread *r, const cJSON *m, void *at_)
{
    ent_index_at *at = at_;
    uint64_t u = 0;
    if (strcmp(m->string, "keys") == 0)
        return read_tmpls(r, m, &at->ix->pk, &at->ix->sk, &at->x->pk_tmpl, &at->x->sk_tmpl);
    if (strcmp(m->string, "items") == 0)
        return read_u64(r, m, &at->x->count);
    status st = read_u64(r, m, &u);
    at->x->write_halves = u * 2;
    return st;
}

/* An entity's indexes, each named by the table's "indexes". */
typedef struct ent_indexes_at {
    const table_def *def;
    ent_entity *e;
} ent_indexes_at;

static status ent_indexes_member(jsonread *r, const cJSON *m, void *at_)
{
    static const char *const members[] = { "keys", "items", "write_units", NULL };
    ent_indexes_at *at = at_;
    const table_def *def = at->def;
    size_t i = 0;
    while (i < def->n_idx && strcmp(def->idx[i].name, m->string) != 0)
        i++;
    if (i == def->n_idx) {
        r->at_name = true;
        status st = jsonread_fail(r, "the table has no index %s (its \"indexes\" name them)", m->string);
        r->at_name = false;
        return st;
    }
    ent_index_at one = { &def->idx[i], &at->e->idx[i] };
    return jsonread_each(r, m, "must be an object: {\"keys\": {...}, \"items\": N}", members,
                         ent_index_member, &one);
}

static status read_ent_indexes(jsonread *r, const cJSON *v, const table_def *def, ent_entity *e)
{
    ent_indexes_at at = { def, e };
    return jsonread_each(r, v, "must be an object of INDEX: {\"keys\": {...}}", NULL, ent_indexes_member, &at);
}

static status read_entity(jsonread *r, const cJSON *v, const ent_table *t, ent_entity *e)
{
    static const char *const members[] = { "type", "keys", "items", "bytes", "max_bytes",
                                           "write_units", "indexes", "attributes",
                                           "more_attributes", "sample", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "an entity is an object: {\"keys\": {\"%s\": \"TEMPLATE\"}}", t->def.pk.name);
    status st = jsonread_members(r, v, members);
    if (st == ST_OK && !member(v, "keys"))
        st = jsonread_fail(r, "an entity needs \"keys\": {\"%s\": \"TEMPLATE\"%s%s%s}", t->def.pk.name,
                     t->def.sk.name ? ", \"" : "", t->def.sk.name ? t->def.sk.name : "",
                     t->def.sk.name ? "\": \"TEMPLATE\"" : "");
    e->n_idx = t->def.n_idx;
    e->idx = e->n_idx ? xcalloc(e->n_idx, sizeof *e->idx) : NULL;
    for (size_t i = 0; i < e->n_idx; i++)
        e->idx[i].name = xstrdup(t->def.idx[i].name);
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        if (st != ST_OK)
            break;
        jsonread_push_name(r, m->string);
        const char *k = m->string;
        uint64_t u = 0;
        diag vd;
        diag_init(&vd);
        if (strcmp(k, "type") == 0) {
            st = t->type_attr ? jsonread_string(r, m, false, &e->type_value)
                              : jsonread_fail(r, "a \"type\" needs the table's \"type_attribute\"");
        } else if (strcmp(k, "keys") == 0) {
            st = read_tmpls(r, m, &t->def.pk, &t->def.sk, &e->pk_tmpl, &e->sk_tmpl);
            if (st == ST_OK && t->def.sk.name && !e->sk_tmpl)
                st = jsonread_fail(r, "needs the template of %s", t->def.sk.name);
        } else if (strcmp(k, "items") == 0) {
            st = read_u64(r, m, &e->count);
        } else if (strcmp(k, "bytes") == 0) {
            st = read_u64(r, m, &e->bytes);
        } else if (strcmp(k, "max_bytes") == 0) {
            st = read_u64(r, m, &e->max_bytes);
        } else if (strcmp(k, "write_units") == 0) {
            st = read_u64(r, m, &u);
            e->write_halves = u * 2;
        } else if (strcmp(k, "more_attributes") == 0) {
            st = read_u64(r, m, &e->more_attrs);
        } else if (strcmp(k, "indexes") == 0) {
            st = read_ent_indexes(r, m, &t->def, e);
        } else if (strcmp(k, "attributes") == 0) {
            st = read_attrs(r, m, e);
        } else if (ddbjson_item_from_cjson(m, NULL, &e->sample, &vd) != ST_OK) {
            st = jsonread_fail(r, "an item in DynamoDB JSON: %s", vd.msg);
        }
        jsonread_pop(r);
    }
    return st;
}

static status read_no_entity(jsonread *r, const cJSON *v, ent_table *t)
{
    static const char *const members[] = { "items", "keys", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object: {\"items\": N, \"keys\": [...]}");
    status st = jsonread_members(r, v, members);
    const cJSON *n = member(v, "items"), *k = member(v, "keys");
    if (st == ST_OK && n) {
        jsonread_push_name(r, "items");
        st = read_u64(r, n, &t->strays);
        jsonread_pop(r);
    }
    if (st == ST_OK && k) {
        jsonread_push_name(r, "keys");
        if (!cJSON_IsArray(k))
            st = jsonread_fail(r, "must be a list of keys in DynamoDB JSON");
        const cJSON *one;
        size_t i = 0;
        cJSON_ArrayForEach(one, k) {
            if (st != ST_OK || t->n_strays_keys >= ENT_MAX_STRAYS)
                break;
            jsonread_push_index(r, i++);
            diag vd;
            diag_init(&vd);
            if (ddbjson_item_from_cjson(one, NULL, &t->strays_keys[t->n_strays_keys], &vd) != ST_OK)
                st = jsonread_fail(r, "a key in DynamoDB JSON: %s", vd.msg);
            else
                t->n_strays_keys++;
            jsonread_pop(r);
        }
        jsonread_pop(r);
    }
    return st;
}

static status read_member(jsonread *r, const cJSON *m, void *t_)
{
    ent_table *t = t_;
    if (strcmp(m->string, "items") == 0)
        return read_u64(r, m, &t->items_read);
    if (strcmp(m->string, "of") == 0)
        return read_u64(r, m, &t->items_total);
    return jsonread_bool(r, m, &t->sampled);
}

static status read_read(jsonread *r, const cJSON *v, ent_table *t)
{
    static const char *const members[] = { "items", "of", "sampled", NULL };
    return jsonread_each(r, v, "must be an object: {\"items\": N, \"of\": N, \"sampled\": false}", members,
                         read_member, t);
}

static status read_table(jsonread *r, const cJSON *v, ent_table *t)
{
    static const char *const members[] = { "key", "indexes", "type_attribute", "ttl_attribute",
                                           "read", "no_entity", "entities", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "a table is an object: {\"key\": {...}, \"entities\": {...}}");
    status st = jsonread_members(r, v, members);
    const cJSON *key = member(v, "key");
    if (st == ST_OK && !key)
        st = jsonread_fail(r, "a table needs \"key\": {\"partition\": {\"PK\": \"S\"}}");
    if (st == ST_OK) {
        jsonread_push_name(r, "key");
        st = cJSON_IsObject(key) ? read_keypair(r, key, &t->def.pk, &t->def.sk, true)
                                 : jsonread_fail(r, "must be an object: {\"partition\": {...}, \"sort\": {...}}");
        jsonread_pop(r);
    }
    static const char *const order[] = { "indexes", "type_attribute", "ttl_attribute", "read",
                                         "no_entity", "entities" };
    for (int i = 0; i < 6 && st == ST_OK; i++) {
        const cJSON *m = member(v, order[i]);
        if (!m)
            continue;
        jsonread_push_name(r, order[i]);
        if (i == 0)
            st = read_indexes(r, m, &t->def);
        else if (i == 1)
            st = jsonread_string(r, m, false, &t->type_attr);
        else if (i == 2)
            st = jsonread_string(r, m, false, &t->ttl_attr);
        else if (i == 3)
            st = read_read(r, m, t);
        else if (i == 4)
            st = read_no_entity(r, m, t);
        else if (!cJSON_IsObject(m))
            st = jsonread_fail(r, "must be an object of ENTITY: {...}");
        else {
            t->e = xcalloc((size_t)cJSON_GetArraySize(m) + 1, sizeof *t->e);
            const cJSON *one;
            cJSON_ArrayForEach(one, m) {
                jsonread_push_name(r, one->string);
                ent_entity *e = &t->e[t->n++];
                entity_init(e);
                e->name = xstrdup(one->string);
                st = one->string[0] && !jsonread_has_control(one->string)
                         ? read_entity(r, one, t, e)
                         : jsonread_fail(r, "an entity name is not empty and has no control characters");
                jsonread_pop(r);
                if (st != ST_OK)
                    break;
            }
            ent_table_sort(t);
        }
        jsonread_pop(r);
    }
    return st;
}

status model_file_parse(const char *file, const char *text, size_t len, ent_model *m, diag *d)
{
    static const char *const members[] = { "ddbx_model", "tables", NULL };
    jsonread r;
    jsonread_init(&r, file, text, len, d);
    cJSON *root = NULL;
    status st = jsonread_parse(&r, &root);
    if (st != ST_OK)
        return st;
    ent_model add;
    ent_model_init(&add);
    if (!cJSON_IsObject(root)) {
        st = jsonread_fail(&r, "a model file is an object: {\"ddbx_model\": 1, \"tables\": {...}}");
        goto out;
    }
    st = jsonread_members(&r, root, members);
    const cJSON *ver = member(root, "ddbx_model"), *tables = member(root, "tables");
    if (st == ST_OK && ver && !(cJSON_IsNumber(ver) && ver->valuedouble == 1)) {
        jsonread_push_name(&r, "ddbx_model");
        st = jsonread_fail(&r, "this ddbx reads version 1 of the model file");
        jsonread_pop(&r);
    }
    if (st == ST_OK && !cJSON_IsObject(tables))
        st = jsonread_fail(&r, "a model file needs \"tables\": {\"TABLE\": {...}}");
    jsonread_push_name(&r, "tables");
    const cJSON *one, *list = st == ST_OK ? tables : NULL;
    cJSON_ArrayForEach(one, list) {
        jsonread_push_name(&r, one->string);
        ent_table t;
        ent_table_init(&t);
        t.name = xstrdup(one->string);
        st = one->string[0] ? read_table(&r, one, &t) : jsonread_fail(&r, "a table name is not empty");
        if (st == ST_OK) {
            t.def.name = xstrdup(t.name);
            ent_model_put(&add, &t);
        }
        ent_table_done(&t);
        jsonread_pop(&r);
        if (st != ST_OK)
            break;
    }
    if (st == ST_OK)
        for (size_t i = 0; i < add.n; i++)
            ent_model_put(m, &add.t[i]);
out:
    ent_model_done(&add);
    cJSON_Delete(root);
    return st;
}

status model_file_load(const char *path, ent_model *m, diag *d)
{
    buf b = BUF_INIT;
    status st = jsonread_load(path, &b, d);
    if (st == ST_OK)
        st = model_file_parse(path, b.data, b.len, m, d);
    buf_done(&b);
    return st;
}
