/*
 * ddbres — a typed answer's life (ddb_res and ddb_err of model/ddbreq.h:
 * init, done, the pushes) and the one printer of response bodies
 * (model/ddbres.h).
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
#include "model/ddbres_tables.h"
#include "model/mem.h"

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
    case DDB_LIST_TABLES: case DDB_DESCRIBE_TABLE: case DDB_CREATE_TABLE: case DDB_DELETE_TABLE:
    case DDB_UPDATE_TABLE:
        ddbres_tables_json(req->kind, res, out);
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

/* ---- responses ---------------------------------------------------------- */

void ddb_res_init(ddb_res *r)
{
    memset(r, 0, sizeof *r);
    r->item.type = r->last_key.type = r->responses.type = AV_NONE;
    ddb_req_init(&r->unprocessed, DDB_BATCH_WRITE);
}

void ddb_res_done(ddb_res *r)
{
    av_done(&r->item);
    for (size_t i = 0; i < r->n_items; i++)
        av_done(&r->items[i]);
    free(r->items);
    free(r->scores);
    av_done(&r->last_key);
    av_done(&r->responses);
    for (size_t i = 0; i < r->n_icm; i++) {
        free(r->icm[i].table);
        av_done(&r->icm[i].key);
    }
    free(r->icm);
    ddbres_tables_free(r->tables);
    /* A batch's leftovers are only ever actions. */
    if (r->unprocessed.n_acts)
        ddb_req_done(&r->unprocessed);
    for (size_t i = 0; i < r->n_caps; i++) {
        free(r->caps[i].table);
        for (size_t j = 0; j < r->caps[i].n_idx; j++)
            free(r->caps[i].idx[j].name);
        free(r->caps[i].idx);
    }
    free(r->caps);
    free(r->next_token);
    ddbres_backups_free(r->backups);
    ddbres_streams_free(r->streams);
    ddb_res_init(r);
}

void ddb_res_push_item(ddb_res *r, av *item)
{
    if (r->n_items == r->cap_items) {
        r->cap_items = r->cap_items ? r->cap_items * 2 : 16;
        r->items = xrealloc(r->items, r->cap_items * sizeof *r->items);
    }
    av_move(&r->items[r->n_items++], item);
}

void ddb_res_push_scored(ddb_res *r, av *item, double score)
{
    size_t cap = r->cap_items;
    ddb_res_push_item(r, item);
    if (!r->scores || cap != r->cap_items)
        r->scores = xrealloc(r->scores, r->cap_items * sizeof *r->scores);
    r->scores[r->n_items - 1] = score;
}

ddb_cap *ddb_res_cap(ddb_res *r, const char *table)
{
    for (size_t i = 0; i < r->n_caps; i++)
        if (strcmp(r->caps[i].table, table) == 0)
            return &r->caps[i];
    r->caps = xrealloc(r->caps, (r->n_caps + 1) * sizeof *r->caps);
    ddb_cap *c = &r->caps[r->n_caps++];
    memset(c, 0, sizeof *c);
    c->table = xstrdup(table);
    return c;
}

ddb_icm *ddb_res_icm(ddb_res *r, const char *table, const av *key)
{
    for (size_t i = 0; i < r->n_icm; i++)
        if (strcmp(r->icm[i].table, table) == 0 && av_equal(&r->icm[i].key, key))
            return &r->icm[i];
    r->icm = xrealloc(r->icm, (r->n_icm + 1) * sizeof *r->icm);
    ddb_icm *m = &r->icm[r->n_icm++];
    m->table = xstrdup(table);
    av_copy(&m->key, key);
    m->bytes = 0;
    return m;
}

void ddb_res_add_caps(ddb_res *into, const ddb_res *from)
{
    for (size_t i = 0; i < from->n_caps; i++) {
        const ddb_cap *c = &from->caps[i];
        ddb_cap *t = ddb_res_cap(into, c->table);
        t->units += c->units;
        t->table_units += c->table_units;
        for (size_t j = 0; j < c->n_idx; j++) {
            const ddb_cap_index *x = &c->idx[j];
            ddb_cap_index *y = NULL;
            for (size_t k = 0; k < t->n_idx && !y; k++)
                if (t->idx[k].global == x->global && strcmp(t->idx[k].name, x->name) == 0)
                    y = &t->idx[k];
            if (!y) {
                t->idx = xrealloc(t->idx, (t->n_idx + 1) * sizeof *t->idx);
                y = &t->idx[t->n_idx++];
                y->name = xstrdup(x->name);
                y->global = x->global;
                y->units = 0;
            }
            y->units += x->units;
        }
    }
}

double ddb_res_units(const ddb_res *r)
{
    double u = 0;
    for (size_t i = 0; i < r->n_caps; i++)
        u += r->caps[i].units;
    return u;
}

/* ---- errors ------------------------------------------------------------- */

void ddb_err_init(ddb_err *e)
{
    /* Field by field: most of a ddb_err is its diag's text buffers, and
     * one is set up for every call. */
    diag_init(&e->d);
    e->type = e->message = NULL;
    e->item.type = AV_NONE;
    e->reasons = NULL;
    e->n_reasons = 0;
}

void ddb_err_done(ddb_err *e)
{
    free(e->type);
    free(e->message);
    av_done(&e->item);
    for (size_t i = 0; i < e->n_reasons; i++) {
        free(e->reasons[i].code);
        free(e->reasons[i].message);
        av_done(&e->reasons[i].item);
    }
    free(e->reasons);
    ddb_err_init(e);
}

const char *ddb_err_message(const ddb_err *e)
{
    return e->message ? e->message : e->d.msg;
}

const char *ddb_err_type(const ddb_err *e)
{
    return e->type ? e->type : status_name(e->d.code);
}

ddb_reason *ddb_err_add_reason(ddb_err *e, const char *code, const char *message)
{
    e->reasons = xrealloc(e->reasons, (e->n_reasons + 1) * sizeof *e->reasons);
    ddb_reason *r = &e->reasons[e->n_reasons++];
    r->code = xstrdup(code ? code : "None");
    r->message = message ? xstrdup(message) : NULL;
    r->item.type = AV_NONE;
    return r;
}

const char *ddb_reason_code(status st)
{
    switch (st) {
    case ST_OK: return "None";
    case ST_CONDITION_FAILED: return "ConditionalCheckFailed";
    case ST_VALIDATION: return "ValidationError";
    case ST_DUPLICATE_ITEM: return "DuplicateItem";
    case ST_NOT_FOUND: return "ResourceNotFound";
    case ST_TXN_CONFLICT: return "TransactionConflict";
    case ST_COLLECTION_LIMIT: return "ItemCollectionSizeLimitExceeded";
    default: return "InternalServerError";
    }
}
