/*
 * size — item size and capacity units, as DynamoDB counts them.
 *
 * Pure functions over attribute values. The rules (developer guide, "Item
 * sizes and formats", and dynalite's itemSize, which mirrors DynamoDB):
 * an item is the sum over attributes of name bytes (UTF-8) plus value
 * size; S is its UTF-8 bytes, B its raw bytes, BOOL and NULL 1 byte; N is
 * 1 byte plus its significant digits in base-100 pairs aligned on the
 * decimal point (size_num), plus 1 when negative; sets sum their
 * elements; L and M cost 3 bytes plus, per element, 1 byte (and for M the
 * member name's bytes). The limits: 400 KB per item, 2048 bytes of
 * partition key, 1024 bytes of sort key (numbers are never too big).
 *
 * Capacity is returned in half units, DynamoDB's smallest step (an
 * eventually consistent read of up to 4 KB is 0.5 RCU), so no floating
 * point is needed; size_format_units prints them ("0.5", "1", "2.5").
 */
#ifndef DDBX_SIZE_H
#define DDBX_SIZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/status.h"

#define SIZE_ITEM_MAX 409600   /* 400 KB */
#define SIZE_PK_MAX 2048
#define SIZE_SK_MAX 1024
#define SIZE_NAME_MAX 65535    /* bytes of an attribute name */
#define SIZE_DEPTH_MAX 32      /* levels of nested L and M, the attribute's own included */
/* "The maximum size of any item collection for a table which has one or
 * more local secondary indexes is 10 GB" (developer guide, LSI.html): its
 * items and their local index entries (data/store_engine.c refuses a
 * write past it; model/doctor.c warns before). */
#define SIZE_COLLECTION_MAX (10ull * 1024 * 1024 * 1024)

size_t size_num(const num *n);
size_t size_value(const av *v);
/* An item (AV_M): attribute names plus values, no map overhead. */
size_t size_item(const av *item);

/* ST_VALIDATION "Nesting Levels have exceeded supported limits: ..." when
 * an attribute nests L and M deeper than 32 levels (an attribute holding
 * 31 nested lists around a scalar is the deepest DynamoDB takes). */
status size_check_depth(const av *item, diag *d);
/* One value (an ExpressionAttributeValues entry) nested deeper than the
 * same 32 levels, itself counted as the first. */
bool size_too_deep(const av *v);
/* ST_VALIDATION "Item size has exceeded the maximum allowed size" (PutItem,
 * BatchWriteItem) when size_item exceeds 400 KB; then size_check_depth. */
status size_check_item(const av *item, diag *d);
/* The same for UpdateItem's result, with UpdateItem's size wording. */
status size_check_update(const av *item, diag *d);
/* A key attribute's value against its limit (partition: 2048 bytes, sort:
 * 1024), with DynamoDB's messages; N always passes. */
status size_check_key(const av *v, bool partition, diag *d);

/* Read capacity, in half units, for bytes read together (one item, or the
 * sum over a Query/Scan page): 4 KB per unit, rounded up, at least one
 * unit; eventually consistent reads cost half. */
uint64_t size_read_halves(uint64_t bytes, bool consistent);
/*
 * The read capacity a whole Query or Scan will consume, predicted from
 * what it reads: items items of bytes bytes in all (a partition's, for a
 * Query; the table's or index's, for a Scan), read in pages of at most
 * limit items (0: no limit) and at most 1 MB. Each page is charged as
 * size_read_halves charges it, the items taken as equally large. Fills
 * *pages (at least 1: an empty read is still one request) and returns
 * half units. A filter does not lower it (DynamoDB charges what it read,
 * before filtering). The last page costs at least last_min half units (a
 * Scan read to its end: the minimum read of each of an on-demand table's
 * partitions; 0 for none).
 */
uint64_t size_predict_read_halves(uint64_t items, uint64_t bytes, uint32_t limit, bool consistent,
                                  uint64_t last_min, uint64_t *pages);
/* A Scan read to the end of a table or index has read every partition
 * of it, and each partition read costs at least the minimum read: an
 * on-demand table starts with SIZE_SCAN_PARTITIONS, so a Scan of a tiny
 * table costs 4 units (2 eventually consistent), as DynamoDB answers
 * (issue 16; the Keyspaces developer guide, "Estimate the read capacity
 * consumption of table scans", documents the same four-partition rule).
 * The store charges it; the query view predicts it. */
#define SIZE_SCAN_PARTITIONS 4
/* That minimum, in half units. */
uint64_t size_scan_min_halves(bool consistent);
/* Write capacity, in half units: 1 KB per unit, rounded up, at least one.
 * Transactions cost double: the caller multiplies by 2. */
uint64_t size_write_halves(uint64_t bytes);
/* Prints half units as DynamoDB's CapacityUnits number ("0.5", "3").
 * out must hold 24 bytes; returns the length. */
size_t size_format_units(uint64_t halves, char *out);

#endif
