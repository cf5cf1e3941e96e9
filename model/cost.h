/*
 * cost — DynamoDB's bill in money: capacity units and stored bytes times
 * the prices of a region (read from a price file by data/price_file.h).
 *
 * How DynamoDB charges, as the pricing pages and the developer guide say:
 * - on-demand: per read request unit (one strongly consistent read of up
 *   to 4 KB; an eventually consistent one is half) and per write request
 *   unit (one write of up to 1 KB), priced per million; the units of a
 *   call are the capacity units DynamoDB reports for it;
 * - provisioned: per read or write capacity unit per hour, whether used
 *   or not; one unit serves one unit a second, so a call a second of u
 *   units needs u units provisioned, in whole units, at least one;
 * - storage: per GB-month of the table and of each secondary index, each
 *   item and each index entry counting 100 bytes more than its size (the
 *   developer guide, "Item sizes and formats": the per-item storage
 *   overhead for indexing; 1 GB is 2^30 bytes, as its "Constraints" page
 *   defines sizes);
 * - a write of an item also writes every index entry it adds or changes:
 *   each GSI and LSI copy costs its own write units, by its projected
 *   size (write amplification).
 * A month is the price file's hours_per_month (730 in the shipped file).
 * Per million calls in provisioned mode assumes the capacity is all used
 * (a million calls spread at one a second); the monthly figure at a rate
 * provisions what the rate needs.
 *
 * A price not known (the file says why) is NAN, and so is every figure
 * made with it: the printers show "?".
 *
 * Pure: no I/O. A price_table owns its strings and regions.
 */
#ifndef DDBX_COST_H
#define DDBX_COST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"
#include "model/entity.h"
#include "model/status.h"

typedef struct price_region {
    char *region;          /* "us-east-1" */
    char *currency;        /* "USD" */
    double od_read;        /* per million read request units (NAN: not known) */
    double od_write;       /* per million write request units */
    double pv_read;        /* per read capacity unit-hour */
    double pv_write;       /* per write capacity unit-hour */
    double storage;        /* per GB-month */
    char *taken;           /* when the figures were read ("2026-10-04") */
    char *source;          /* where (URLs) */
    char *note;            /* what is not known and why; may be NULL */
} price_region;

typedef struct price_table {
    char *file;            /* where it was read from */
    double hours_per_month;
    price_region *r;
    size_t n;
} price_table;

void price_table_init(price_table *t);
void price_table_done(price_table *t);
const price_region *price_table_region(const price_table *t, const char *region);

/* 100 bytes of each item and index entry count for storage. */
#define COST_ITEM_OVERHEAD 100

/* What calls of units capacity units each cost. */
typedef struct cost_calls {
    double od_million;     /* on-demand, per million calls */
    double pv_million;     /* provisioned, per million calls (capacity fully used) */
    double rate;           /* calls a second the month is reckoned at (0: none) */
    double od_month;       /* on-demand, a month at rate */
    double pv_month;       /* provisioned, a month at rate */
    uint64_t pv_units;     /* capacity units rate needs provisioned */
} cost_calls;

/* Reads (write false) or writes of units capacity units a call, at rate
 * calls a second (0: no monthly figures). */
void cost_calls_of(const price_region *p, double hours_per_month, bool write, double units,
                   double rate, cost_calls *out);

/* A month of storing items items of bytes bytes (a table's, or an index's
 * entries). */
double cost_storage_month(const price_region *p, uint64_t bytes, uint64_t items);
/* Their billed size in bytes (with the per-item overhead). */
uint64_t cost_storage_bytes(uint64_t bytes, uint64_t items);

/* What writing one item of the entity costs, in write capacity units, on
 * the average over its items: the table's own write and, per index of the
 * table (e->idx order), the entry it writes there (items absent from a
 * sparse index write none: the average counts them as 0). *total is the
 * sum; indexes (may be NULL) gets e->n_idx figures. 0 for no items. */
void cost_entity_write(const ent_entity *e, double *table, double *indexes, double *total);

/* "200/s", "30/min", "5000/h", "100000/day", or a plain number (a
 * second): calls a second. False when it is none of those or not above 0. */
bool cost_parse_rate(const char *text, double *per_s);
/* The rate as written back ("200/s", "0.5/s"). */
void cost_rate_text(double per_s, buf *out);

/* Money for people: "$0.125", "$1,234.50", "¥0.0058", "?" for NAN: two
 * decimals, three significant digits below one. The
 * currency's sign for USD, CNY; else the code after the number. */
void cost_money(const price_region *p, double amount, buf *out);

#endif
