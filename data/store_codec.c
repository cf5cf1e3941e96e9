/*
 * store_codec — DynamoDB JSON response bodies into the typed results of
 * model/ddbreq.h: the remote wire's one reader (the printer is
 * model/ddbres.h's ddb_res_json).
 *
 * What a request's answer holds (Item, Attributes, Items, Responses,
 * Count, ScannedCount, LastEvaluatedKey, the unprocessed part of a batch,
 * ConsumedCapacity, NextToken) is read from its parsed tree into a
 * ddb_res, and so are the control-plane answers: the table kinds'
 * TableNames and TableDescription (model/ddbres_tables.h's reader), Time
 * to Live's and Streams' (model/ddbres_streams.c's), the backup kinds'
 * (model/ddbres_backups.h's), each on the answer as plain values
 * (store_codec_plain); the members DynamoDB puts beside an error's
 * message (the Item of ReturnValuesOnConditionCheckFailure,
 * CancellationReasons) into the ddb_err. A remote store parses each
 * answer once and reads it here (store_remote.c). The local store runs
 * every kind typed (store_exec): nothing inside it goes through JSON.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "model/ddbjson.h"
#include "model/ddbres_backups.h"
#include "model/ddbres_streams.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

static const cJSON *member(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return v && !cJSON_IsNull(v) ? v : NULL;
}

static status item_of(const cJSON *o, av *out, diag *d)
{
    out->type = AV_NONE;
    if (!cJSON_IsObject(o))
        return diag_set(d, ST_INTERNAL, "the response holds an item that is not an object");
    return ddbjson_item_from_cjson(o, NULL, out, d);
}

static void cap_one(ddb_res *res, const cJSON *c)
{
    const cJSON *tn = member(c, "TableName");
    ddb_cap *cap = ddb_res_cap(res, cJSON_IsString(tn) ? tn->valuestring : "");
    const cJSON *u = member(c, "CapacityUnits");
    if (cJSON_IsNumber(u))
        cap->units += u->valuedouble;
    const cJSON *t = member(member(c, "Table"), "CapacityUnits");
    if (cJSON_IsNumber(t))
        cap->table_units += t->valuedouble;
    static const char *const groups[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
    for (int g = 0; g < 2; g++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, member(c, groups[g])) {
            const cJSON *iu = member(e, "CapacityUnits");
            cap->idx = xrealloc(cap->idx, (cap->n_idx + 1) * sizeof *cap->idx);
            ddb_cap_index *ix = &cap->idx[cap->n_idx++];
            ix->name = xstrdup(e->string ? e->string : "");
            ix->global = g == 0;
            ix->units = cJSON_IsNumber(iu) ? iu->valuedouble : 0;
        }
    }
}

static void caps_of(ddb_res *res, const cJSON *cc)
{
    if (cJSON_IsObject(cc)) {
        cap_one(res, cc);
    } else if (cJSON_IsArray(cc)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cc) cap_one(res, e);
    }
}

/* UnprocessedItems {"T":[{"PutRequest":{"Item":..}}|{"DeleteRequest":{"Key":..}}]}
 * or UnprocessedKeys {"T":{"Keys":[..], ...}} back into a batch request. */
static status unprocessed_of(ddb_kind kind, const cJSON *u, ddb_req *out, diag *d)
{
    ddb_req_done(out);
    ddb_req_init(out, kind);
    const cJSON *t;
    status st = ST_OK;
    cJSON_ArrayForEach(t, u) {
        if (kind == DDB_BATCH_GET) {
            ddb_req *g = ddb_req_add(out, DDB_GET);
            ddb_req_set_str(&g->table, t->string);
            av_init_list(&g->keys, AV_L);
            const cJSON *k;
            cJSON_ArrayForEach(k, member(t, "Keys")) {
                av key;
                if ((st = item_of(k, &key, d)) != ST_OK)
                    return st;
                av_list_push(&g->keys, &key);
            }
            const cJSON *pe = member(t, "ProjectionExpression");
            if (cJSON_IsString(pe))
                ddb_req_set_str(&g->proj, pe->valuestring);
            g->consistent = cJSON_IsTrue(member(t, "ConsistentRead"));
            continue;
        }
        const cJSON *w;
        cJSON_ArrayForEach(w, t) {
            const cJSON *put = member(w, "PutRequest"), *del = member(w, "DeleteRequest");
            ddb_req *a = ddb_req_add(out, put ? DDB_PUT : DDB_DELETE);
            ddb_req_set_str(&a->table, t->string);
            if ((st = item_of(put ? member(put, "Item") : member(del, "Key"), put ? &a->item : &a->key, d)) != ST_OK)
                return st;
        }
    }
    return st;
}

void store_codec_plain(const cJSON *tree, av *out)
{
    const cJSON *e;
    if (cJSON_IsObject(tree)) {
        av_init_list(out, AV_M);
        cJSON_ArrayForEach(e, tree) {
            av v;
            store_codec_plain(e, &v);
            av_map_put(out, e->string, strlen(e->string), &v);
        }
    } else if (cJSON_IsArray(tree)) {
        av_init_list(out, AV_L);
        cJSON_ArrayForEach(e, tree) {
            av v;
            store_codec_plain(e, &v);
            av_list_push(out, &v);
        }
    } else if (cJSON_IsString(tree)) {
        av_init_s(out, tree->valuestring, strlen(tree->valuestring));
    } else if (cJSON_IsNumber(tree) && tree->valuedouble == (double)(int64_t)tree->valuedouble &&
               tree->valuedouble > -9e15 && tree->valuedouble < 9e15) {
        num n;   /* a count, a size, a capacity: exact as an integer */
        num_from_int(&n, (int64_t)tree->valuedouble);
        av_init_n(out, &n);
    } else if (cJSON_IsNumber(tree)) {
        /* The shortest of 15 or 17 digits that reads back the same (as
         * cJSON prints it). */
        char text[32];
        snprintf(text, sizeof text, "%1.15g", tree->valuedouble);
        if (strtod(text, NULL) != tree->valuedouble)
            snprintf(text, sizeof text, "%1.17g", tree->valuedouble);
        num n;
        diag d;
        diag_init(&d);
        if (num_parse(text, strlen(text), &n, &d) == ST_OK)
            av_init_n(out, &n);
        else
            av_init_null(out);   /* NaN or infinite: cJSON prints null */
    } else if (cJSON_IsBool(tree)) {
        av_init_bool(out, cJSON_IsTrue(tree));
    } else {
        av_init_null(out);
    }
}

/* A table kind's answer (model/ddbres_tables.h reads it as plain JSON). */
static status tables_of(ddb_kind kind, const cJSON *root, ddb_res *res, diag *d)
{
    av plain;
    store_codec_plain(root, &plain);
    status st = ddbres_tables_read(kind, &plain, res, d);
    av_done(&plain);
    return st;
}

/* A backup kind's answer (model/ddbres_backups.h reads it as plain JSON). */
static void backups_of(const cJSON *root, ddb_res *res)
{
    av plain;
    store_codec_plain(root, &plain);
    ddbres_backups_read(&plain, res);
    av_done(&plain);
    /* A restore's TableDescription, as received (its members in order). */
    if (res->backups && res->backups->restored_from && !res->backups->table_desc) {
        char *td = cJSON_PrintUnformatted(member(root, "TableDescription"));
        res->backups->table_desc = xstrdup(td);
        cJSON_free(td);
    }
}

status store_codec_read(const cJSON *root, ddb_res *res, diag *d)
{
    status st = ST_OK;
    const cJSON *v;
    if ((v = member(root, "Item")) && (st = item_of(v, &res->item, d)) == ST_OK)
        res->found = true;
    if (!st && (v = member(root, "Attributes")))
        st = item_of(v, &res->item, d);
    if (!st && (v = member(root, "Items"))) {
        const cJSON *e;
        cJSON_ArrayForEach(e, v) {
            av it;
            if ((st = item_of(e, &it, d)) != ST_OK)
                break;
            ddb_res_push_item(res, &it);
        }
    }
    if (!st && (v = member(root, "Responses"))) {
        if (cJSON_IsArray(v)) {
            /* TransactGetItems: [{"Item":...} or {}] */
            const cJSON *e;
            cJSON_ArrayForEach(e, v) {
                av it;
                const cJSON *i = member(e, "Item");
                if (i) {
                    if ((st = item_of(i, &it, d)) != ST_OK)
                        break;
                } else {
                    it.type = AV_NONE;
                }
                ddb_res_push_item(res, &it);
            }
        } else {
            /* BatchGetItem: {"T":[items]} */
            av_init_list(&res->responses, AV_M);
            const cJSON *t;
            cJSON_ArrayForEach(t, v) {
                av list;
                av_init_list(&list, AV_L);
                const cJSON *e;
                cJSON_ArrayForEach(e, t) {
                    av it;
                    if ((st = item_of(e, &it, d)) != ST_OK)
                        break;
                    av_list_push(&list, &it);
                }
                av_map_put(&res->responses, t->string, strlen(t->string), &list);
                if (st)
                    break;
            }
        }
    }
    /* SearchVectors: [{"Item":..., "Score":n}], and a VectorCapacity. */
    if (!st && (v = member(root, "SearchResults"))) {
        const cJSON *e;
        cJSON_ArrayForEach(e, v) {
            av it;
            const cJSON *sc = member(e, "Score");
            if ((st = item_of(member(e, "Item"), &it, d)) != ST_OK)
                break;
            ddb_res_push_scored(res, &it, cJSON_IsNumber(sc) ? sc->valuedouble : 0);
        }
        const cJSON *vb = member(member(root, "ConsumedCapacity"), "VectorSearchRequestBytes");
        res->has_vbytes = cJSON_IsNumber(vb);
        res->vbytes = res->has_vbytes ? vb->valuedouble : 0;
    }
    if (!st && (v = member(root, "Count")) && cJSON_IsNumber(v))
        res->count = (uint64_t)v->valuedouble;
    if (!st && (v = member(root, "ScannedCount")) && cJSON_IsNumber(v))
        res->scanned = (uint64_t)v->valuedouble;
    if (!st && (v = member(root, "LastEvaluatedKey")))
        st = item_of(v, &res->last_key, d);
    if (!st && (v = member(root, "UnprocessedItems")) && v->child)
        st = unprocessed_of(DDB_BATCH_WRITE, v, &res->unprocessed, d);
    if (!st && (v = member(root, "UnprocessedKeys")) && v->child)
        st = unprocessed_of(DDB_BATCH_GET, v, &res->unprocessed, d);
    if (!st && (v = member(root, "NextToken")) && cJSON_IsString(v))
        res->next_token = xstrdup(v->valuestring);
    if (!st && member(root, "TableNames"))
        st = tables_of(DDB_LIST_TABLES, root, res, d);
    /* DescribeTable's Table; the TableDescription of the others. */
    if (!st && (member(root, "Table") || member(root, "TableDescription")))
        st = tables_of(member(root, "Table") ? DDB_DESCRIBE_TABLE : DDB_CREATE_TABLE, root, res, d);
    if (!st && !res->has_vbytes)   /* a VectorCapacity is no table's */
        caps_of(res, member(root, "ConsumedCapacity"));
    if (!st && (member(root, "BackupDetails") || member(root, "BackupDescription") ||
                member(root, "BackupSummaries") || member(root, "TableDescription")))
        backups_of(root, res);
    if (!st)
        st = ddbres_streams_read(root, res, d);
    return st;
}

void store_codec_error(const char *extra, ddb_err *err)
{
    cJSON *root = NULL;
    diag d;
    diag_init(&d);
    if (!extra || ddbjson_cjson_parse(extra, strlen(extra), &root, &d) != ST_OK)
        return;
    const cJSON *it = member(root, "Item");
    if (it)
        item_of(it, &err->item, &d);
    const cJSON *r;
    cJSON_ArrayForEach(r, member(root, "CancellationReasons")) {
        const cJSON *c = member(r, "Code"), *m = member(r, "Message"), *i = member(r, "Item");
        ddb_reason *rs = ddb_err_add_reason(err, cJSON_IsString(c) ? c->valuestring : "None",
                                            cJSON_IsString(m) ? m->valuestring : NULL);
        if (i)
            item_of(i, &rs->item, &d);
    }
    cJSON_Delete(root);
}
