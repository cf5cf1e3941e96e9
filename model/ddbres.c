/*
 * ddbres — the one printer of response bodies (model/ddbres.h).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbres.h"
#include "model/ddbres_backups.h"
#include "model/ddbres_streams.h"

/* A member's name ("\"Name\":", n bytes), after a comma unless it is the
 * body's first. */
static void member_n(buf *out, const char *quoted, size_t n)
{
    if (out->len && out->data[out->len - 1] != '{')
        buf_addc(out, ',');
    buf_add(out, quoted, n);
}
#define member(out, name) member_n(out, "\"" name "\":", sizeof "\"" name "\":" - 1)

#define item_member(out, name, item) (member(out, name), ddbjson_write_item(out, item))

/* [item, ...] */
static void item_list(buf *out, const av *items, size_t n)
{
    buf_addc(out, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_addc(out, ',');
        ddbjson_write_item(out, &items[i]);
    }
    buf_addc(out, ']');
}

/* ---- ConsumedCapacity ---- */

static void put_units(buf *out, double u)
{
    if (u == floor(u))
        buf_printf(out, "%.0f", u);
    else
        buf_printf(out, "%g", u);
}

/* One table's ConsumedCapacity object. */
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

void ddbres_caps_json(buf *out, ddb_rcc mode, const ddb_res *res, bool list)
{
    if (mode == DDB_RCC_NONE || (!list && !res->n_caps))
        return;
    member(out, "ConsumedCapacity");
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

/* ---- ItemCollectionMetrics ---- */

/* One collection's {"ItemCollectionKey":...,"SizeEstimateRangeGB":[...]}. */
static void icm_json(buf *out, const ddb_icm *m)
{
    /* SizeEstimateRangeGB: the whole gigabytes below and above the size
     * ([0.0, 1.0] for any collection under 1 GB, as DynamoDB answers a
     * small one; its rounding beyond is not published). */
    uint64_t gb = m->bytes >> 30;
    buf_adds(out, "{\"ItemCollectionKey\":");
    ddbjson_write_item(out, &m->key);
    buf_printf(out, ",\"SizeEstimateRangeGB\":[%" PRIu64 ".0,%" PRIu64 ".0]}", gb, gb + 1);
}

/* A single write's one object, or per_table a batch's or a transaction's
 * map of table to the list of its collections; nothing without an entry. */
static void icm_member(buf *out, const ddb_res *res, bool per_table)
{
    if (!res->n_icm)
        return;
    member(out, "ItemCollectionMetrics");
    if (!per_table) {
        icm_json(out, &res->icm[0]);
        return;
    }
    /* Each table once, in the order its first collection was written. */
    buf_addc(out, '{');
    bool first = true;
    for (size_t i = 0; i < res->n_icm; i++) {
        const char *t = res->icm[i].table;
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(res->icm[j].table, t) == 0;
        if (seen)
            continue;
        if (!first)
            buf_addc(out, ',');
        first = false;
        ddbjson_write_string(out, t, strlen(t));
        buf_adds(out, ":[");
        for (size_t j = i; j < res->n_icm; j++) {
            if (strcmp(res->icm[j].table, t) != 0)
                continue;
            if (j > i)
                buf_addc(out, ',');
            icm_json(out, &res->icm[j]);
        }
        buf_addc(out, ']');
    }
    buf_addc(out, '}');
}

/* ---- the kinds printed in steps ---- */

#define ITEM_MEMBER "\"Item\":"

size_t ddbres_get_open(buf *out)
{
    buf_addc(out, '{');
    size_t mark = out->len;
    buf_adds(out, ITEM_MEMBER);
    return mark;
}

void ddbres_get_close(buf *out, size_t mark, ddb_rcc mode, const ddb_res *res)
{
    if (out->len == mark + sizeof ITEM_MEMBER - 1) {
        if (res->found)
            ddbjson_write_item(out, &res->item);
        else
            out->len = mark;
    }
    ddbres_caps_json(out, mode, res, false);
    buf_addc(out, '}');
}

void ddbres_items_open(buf *out, bool count_only)
{
    buf_addc(out, '{');
    if (!count_only)
        buf_adds(out, "\"Items\":[");
}

void ddbres_items_close(buf *out, bool count_only, uint64_t count, uint64_t scanned, const av *lek,
                        ddb_rcc mode, const ddb_res *res)
{
    if (!count_only)
        buf_addc(out, ']');
    buf_printf(out, "%s\"Count\":%" PRIu64 ",\"ScannedCount\":%" PRIu64, count_only ? "" : ",", count,
               scanned);
    if (lek->type == AV_M)
        item_member(out, "LastEvaluatedKey", lek);
    ddbres_caps_json(out, mode, res, false);
    buf_addc(out, '}');
}

/* ---- the others ---- */

/* BatchGetItem's Responses, its tables in the order the request named
 * them, then UnprocessedKeys. */
static void batch_get(const ddb_req *req, const ddb_res *res, buf *out)
{
    member(out, "Responses");
    buf_addc(out, '{');
    for (size_t i = 0; i < req->n_acts; i++) {
        const char *t = req->acts[i].table ? req->acts[i].table : "";
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, t, strlen(t));
        buf_addc(out, ':');
        const av *items = av_map_get(&res->responses, t, strlen(t));
        item_list(out, items ? items->u.l.v : NULL, items ? items->u.l.len : 0);
    }
    buf_addc(out, '}');
    member(out, "UnprocessedKeys");
    ddb_req_json_request_items(&res->unprocessed, out);
}

/* The shortest decimal that reads back as the same float. */
static void put_score(buf *out, double score)
{
    char text[32];
    for (int prec = 6; prec <= 9; prec++) {
        snprintf(text, sizeof text, "%.*g", prec, score);
        if ((float)strtod(text, NULL) == (float)score)
            break;
    }
    buf_adds(out, text);
}

static void search_vectors(const ddb_res *res, buf *out)
{
    member(out, "SearchResults");
    buf_addc(out, '[');
    for (size_t i = 0; i < res->n_items; i++) {
        buf_adds(out, i ? ",{" : "{");
        item_member(out, "Item", &res->items[i]);
        member(out, "Score");
        put_score(out, res->scores[i]);
        buf_addc(out, '}');
    }
    buf_addc(out, ']');
    /* A VectorCapacity, not a table's. */
    if (res->has_vbytes) {
        member(out, "ConsumedCapacity");
        buf_printf(out, "{\"VectorSearchRequestBytes\":%.0f}", res->vbytes);
    }
}

void ddb_res_json(const ddb_req *req, const ddb_res *res, buf *out)
{
    switch (req->kind) {
    case DDB_GET: {
        size_t mark = ddbres_get_open(out);
        ddbres_get_close(out, mark, req->rcc, res);
        return;
    }
    case DDB_QUERY: case DDB_SCAN: {
        bool count_only = req->select == DDB_SELECT_COUNT;
        ddbres_items_open(out, count_only);
        for (size_t i = 0; !count_only && i < res->n_items; i++) {
            if (i)
                buf_addc(out, ',');
            ddbjson_write_item(out, &res->items[i]);
        }
        ddbres_items_close(out, count_only, res->count, res->scanned, &res->last_key, req->rcc, res);
        return;
    }
    /* The control-plane, Streams and backup kinds: each family's printer
     * of the whole body. */
    case DDB_DESCRIBE_TTL: case DDB_UPDATE_TTL:
    case DDB_DESCRIBE_STREAM: case DDB_GET_SHARD_ITERATOR: case DDB_GET_RECORDS:
        ddbres_streams_json(res, out);
        return;
    case DDB_CREATE_BACKUP: case DDB_LIST_BACKUPS: case DDB_DESCRIBE_BACKUP: case DDB_DELETE_BACKUP:
    case DDB_RESTORE_FROM_BACKUP:
        ddbres_backups_json(req->kind, res, out);
        return;
    default:
        break;
    }
    buf_addc(out, '{');
    switch (req->kind) {
    case DDB_PUT: case DDB_UPDATE: case DDB_DELETE:
        if (res->item.type == AV_M)
            item_member(out, "Attributes", &res->item);
        ddbres_caps_json(out, req->rcc, res, false);
        icm_member(out, res, false);
        break;
    case DDB_BATCH_GET:
        batch_get(req, res, out);
        ddbres_caps_json(out, req->rcc, res, true);
        break;
    case DDB_BATCH_WRITE:
        member(out, "UnprocessedItems");
        ddb_req_json_request_items(&res->unprocessed, out);
        ddbres_caps_json(out, req->rcc, res, true);
        icm_member(out, res, true);
        break;
    case DDB_TRANSACT_GET:
        member(out, "Responses");
        buf_addc(out, '[');
        for (size_t i = 0; i < res->n_items; i++) {
            buf_adds(out, i ? ",{" : "{");
            if (res->items[i].type == AV_M)
                item_member(out, "Item", &res->items[i]);
            buf_addc(out, '}');
        }
        buf_addc(out, ']');
        ddbres_caps_json(out, req->rcc, res, true);
        break;
    case DDB_TRANSACT_WRITE: case DDB_CHECK:
        ddbres_caps_json(out, req->rcc, res, true);
        icm_member(out, res, true);
        break;
    case DDB_SEARCH_VECTORS:
        search_vectors(res, out);
        break;
    case DDB_EXECUTE:
        member(out, "Items");
        item_list(out, res->items, res->n_items);
        if (res->next_token) {
            member(out, "NextToken");
            ddbjson_write_string(out, res->next_token, strlen(res->next_token));
        }
        if (res->last_key.type == AV_M)
            item_member(out, "LastEvaluatedKey", &res->last_key);
        ddbres_caps_json(out, req->rcc, res, false);
        break;
    default:
        break;   /* a kind with no printer yet: {} */
    }
    buf_addc(out, '}');
}

/* ---- the members beside an error's message ---- */

bool ddb_err_has_members(const ddb_err *e)
{
    return e->item.type == AV_M || e->n_reasons;
}

void ddb_err_json(const ddb_err *e, buf *out)
{
    if (!ddb_err_has_members(e))
        return;
    buf_addc(out, '{');
    if (e->item.type == AV_M) {
        item_member(out, "Item", &e->item);
        buf_addc(out, '}');
        return;
    }
    member(out, "CancellationReasons");
    buf_addc(out, '[');
    for (size_t i = 0; i < e->n_reasons; i++) {
        const ddb_reason *r = &e->reasons[i];
        buf_adds(out, i ? ",{" : "{");
        member(out, "Code");
        ddbjson_write_string(out, r->code, strlen(r->code));
        if (r->message) {
            member(out, "Message");
            ddbjson_write_string(out, r->message, strlen(r->message));
        }
        if (r->item.type == AV_M)
            item_member(out, "Item", &r->item);
        buf_addc(out, '}');
    }
    buf_adds(out, "]}");
}
