/*
 * pattern_run — one access pattern run against a store, read-only.
 *
 * Sends what the pattern says (GetItem, Query or Scan through store_exec;
 * a PartiQL SELECT through store_partiql_page, planned first to learn whether
 * the store will Query or Scan) with the parameter values given (or the
 * examples), follows the pages (one page when the pattern has a limit, at
 * most PATTERN_RUN_MAX_PAGES otherwise), and fills a pattern_result:
 * items, items read, read units, the entity types returned, what it ran
 * as. A failure of the store (no such table or index, a bad expression)
 * is the result's error, with DynamoDB's type and message (and so is a
 * statement that is not a SELECT).
 *
 * Works on local and remote stores alike; nothing is written.
 *
 * Ownership: r is the caller's (pattern_result_init first); set, p and
 * values are only read.
 */
#ifndef DDBX_PATTERN_RUN_H
#define DDBX_PATTERN_RUN_H

#include <stdbool.h>

#include "data/store.h"
#include "model/pattern.h"

#define PATTERN_RUN_MAX_PAGES 100

/* values: M of parameter name -> value, or NULL for the examples; keep:
 * copy the items into r->kept (for showing them). */
void pattern_run(store *s, const pattern_set *set, const pattern *p, const av *values,
                 bool keep, pattern_result *r);

/* Before running: would the pattern Scan? A Scan pattern does (model's
 * pattern_would_scan); a PartiQL SELECT is planned against the table's
 * key schema with its examples, and does when the plan is a Scan. The
 * reason goes to why. False for the others, and when the table or the
 * statement cannot be read (running it will say why). */
bool pattern_plans_scan(store *s, const pattern *p, buf *why);

#endif
