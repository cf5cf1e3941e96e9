/*
 * price_file — DynamoDB prices per region (model/cost.h's price_table)
 * from a price file, JSON read with cJSON:
 *
 *   { "ddbx_prices": 1, "hours_per_month": 730,
 *     "regions": { "us-east-1": {
 *       "currency": "USD", "taken": "2026-10-04", "source": "https://...",
 *       "note": "what is not known, and why",
 *       "on_demand": {"read_per_million": 0.125, "write_per_million": 0.625},
 *       "provisioned": {"rcu_hour": 0.00013, "wcu_hour": 0.00065},
 *       "storage_gb_month": 0.25 } } }
 *
 * A price given as null is not known (NAN). Every region needs its
 * currency, the date its figures were taken and their source. Errors name
 * the file, line, column and member, as pattern files' do. The file ddbx
 * ships (assets/prices/dynamodb.json) is compiled in: price_file_default.
 *
 * Ownership: the caller's table is filled (price_table_init first).
 */
#ifndef DDBX_PRICE_FILE_H
#define DDBX_PRICE_FILE_H

#include <stddef.h>

#include "model/cost.h"
#include "model/status.h"

/* The name the shipped file is given in messages. */
#define PRICE_FILE_DEFAULT_NAME "assets/prices/dynamodb.json (built in)"

status price_file_parse(const char *file, const char *text, size_t len, price_table *t, diag *d);
status price_file_load(const char *path, price_table *t, diag *d);
/* The shipped prices. */
status price_file_default(price_table *t, diag *d);

#endif
