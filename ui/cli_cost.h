/*
 * cli_cost — the money figures of `ddbx check --cost` and `ddbx model`'s
 * design document, as text (model/cost.h does the sums; the explorer's
 * views use ui/prices.h).
 *
 * Ownership: everything appends to a caller-owned buf; the store, model
 * and prices are only read.
 */
#ifndef DDBX_CLI_COST_H
#define DDBX_CLI_COST_H

#include <stdbool.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/cost.h"
#include "model/entity.h"

/* "$0.0625 a million on-demand, $0.0181 provisioned" and, with a rate,
 * "; at 200/s: $4.11 a month on-demand, $1.90 provisioned (100 RCU)". */
void cli_cost_calls_text(const price_table *pt, const price_region *p, bool write, double units,
                         double rate, buf *out);
/* The same as JSON members (null for a price not known):
 * "on_demand_per_million":..,"provisioned_per_million":.. and with a rate
 * "rate_per_s":..,"on_demand_month":..,"provisioned_month":..,
 * "provisioned_units":.. */
void cli_cost_calls_json(const price_table *pt, const price_region *p, bool write, double units,
                         double rate, buf *out);
/* "us-east-1 USD, taken 2026-10-04 from URL (FILE); a month is 730 hours". */
void cli_cost_prices_text(const price_table *pt, const price_region *p, buf *out);

/* "1 + 1 GSI1 = 2": what a write of one item of e costs, table and index
 * copies (model/cost.h's cost_entity_write); *total and *table (may be
 * NULL) get the sums. */
void cli_cost_write_units(const ent_entity *e, buf *out, double *total, double *table);

/* Per entity of t: "  follow  1 + 1 GSI1 = 2 WCU a write (2x): $1.25 a million
 * on-demand, $0.361 provisioned", one a line. */
void cli_cost_writes_text(const ent_table *t, const price_table *pt, const price_region *p,
                          buf *out);
/* The table's and each index's storage a month, one a line:
 * "  SocialGraph  4820 items, 439.2 KB (910 KB billed): $0.000217 a month". */
void cli_cost_storage_text(store *st, const ent_table *t, const price_region *p, buf *out);

#endif
