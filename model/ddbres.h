/*
 * ddbres — the one printer of response bodies: a typed result (ddb_res,
 * model/ddbreq.h) as the DynamoDB JSON body its request answers, members
 * in the API reference's order, beside ddb_req_json (the one printer of
 * request bodies).
 *
 * The JSON door of the local store (data/store_item.c, store_query.c,
 * store_batch.c, store_vsearch.c, store_partiql.c) prints every answer of
 * the data-plane kinds and ExecuteStatement here. Two doors print the
 * items themselves straight from the store's rows, for speed (GetItem,
 * Query and Scan): they write the body in the steps below
 * (ddbres_get_open/close, ddbres_items_open/close), which ddb_res_json
 * runs too, so the bytes are the same either way.
 *
 * Pure C: no I/O, no cJSON. Nothing here owns anything beyond the call.
 */
#ifndef DDBX_DDBRES_H
#define DDBX_DDBRES_H

#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"
#include "model/ddbreq.h"

/* The body answering req (its kind; the rcc and, for Query and Scan, the
 * Select it asked; BatchGetItem: the order of its tables) with res:
 * GetItem, PutItem, UpdateItem, DeleteItem, Query, Scan, BatchGetItem,
 * BatchWriteItem, TransactGetItems, TransactWriteItems (and a lone
 * ConditionCheck, which runs as one), SearchVectors, ExecuteStatement. */
void ddb_res_json(const ddb_req *req, const ddb_res *res, buf *out);

/* ,"ConsumedCapacity":... (no comma when out ends in '{'): the first
 * table's object (nothing when res has none), or with list an array of
 * every table's. Nothing for DDB_RCC_NONE. */
void ddbres_caps_json(buf *out, ddb_rcc mode, const ddb_res *res, bool list);

/* GetItem's body in steps: ddbres_get_open writes up to the item and
 * gives back where the body's members begin; the caller appends the item's
 * JSON or nothing; ddbres_get_close ends the body: with nothing appended,
 * res's item when res->found, else no Item at all; then res's capacity. */
size_t ddbres_get_open(buf *out);
void ddbres_get_close(buf *out, size_t mark, ddb_rcc mode, const ddb_res *res);

/* Query's and Scan's body in steps: ddbres_items_open writes up to the
 * first item (count_only: Select COUNT, no Items); the caller appends the
 * items' JSON, comma-separated; ddbres_items_close writes Count,
 * ScannedCount, LastEvaluatedKey (lek, AV_NONE: none) and res's capacity. */
void ddbres_items_open(buf *out, bool count_only);
void ddbres_items_close(buf *out, bool count_only, uint64_t count, uint64_t scanned, const av *lek,
                        ddb_rcc mode, const ddb_res *res);

/* The members DynamoDB puts beside an error's message, as an object:
 * {"Item":...} (a failed condition's item, ReturnValuesOnConditionCheckFailure
 * ALL_OLD) or {"CancellationReasons":[{"Code":..,"Message":..,"Item":..},
 * ...]}; nothing when e has neither (ddb_err_has_members false). */
bool ddb_err_has_members(const ddb_err *e);
void ddb_err_json(const ddb_err *e, buf *out);

#endif
