/*
 * store_engine — what the typed operations share (private to data/:
 * store_engine.c, with store_item.c, store_query.c, store_batch.c and
 * the JSON door's store_ops.c).
 *
 * store_exec (data/store.h) hands a local store's data-plane request to
 * its operation: store_item_exec, store_query_exec, store_batch_exec
 * (data/store_int.h). What they share is here:
 * - reqx: the expression parameters of one request (the names and values
 *   maps, copied in, and the parsed expressions, which borrow from them);
 *   owned by the operation, seng_reqx_init before, seng_reqx_done after.
 * - seng_defer: what the JSON door could not put into the ddb_req, which
 *   the operation reports where DynamoDB reports it.
 * - projection, the nested-key refusals, read units, the
 *   ConsumedCapacity of one table added to a result, and the item
 *   collections of tables with a local index (their limit and metrics).
 */
#ifndef DDBX_STORE_ENGINE_H
#define DDBX_STORE_ENGINE_H

#include "data/store_int.h"
#include "model/expr.h"

/* The expression parameters of one request. */
typedef struct reqx {
    av names, values;
    expr_ctx cx;
    bool cx_on;
    expr *update, *cond, *key, *filter, *proj;
    const char **fnames;   /* top-level names the filter reads */
    size_t *flens;
    size_t n_fnames;
} reqx;

void seng_reqx_init(reqx *x);
void seng_reqx_done(reqx *x);

/*
 * What the JSON door could not put into a ddb_req, for the typed
 * operation to report at the point where DynamoDB reports it: an error in
 * the JSON of the names or values maps or of ExclusiveStartKey.
 */
typedef struct seng_defer {
    bool maps_bad;
    diag maps;
    bool start_bad;          /* ExclusiveStartKey's JSON was bad: start */
    diag start;
} seng_defer;

/* Nothing deferred (a seng_defer is two diags: not zeroed whole on the
 * hot path). */
static inline void seng_defer_init(seng_defer *df)
{
    df->maps_bad = df->start_bad = false;
    diag_init(&df->maps);
    diag_init(&df->start);
}

/* DynamoDB's validateExpressions on a typed request: the maps' checks
 * (the JSON door's own, on their typed form), the legacy parameters'
 * (mixing with expressions, AttributeUpdates, Expected, the filter,
 * ConditionalOperator), then the maps copied into x and each expression
 * parsed in DynamoDB's order, then unused placeholders. df (may be NULL)
 * as above. */
status seng_exprs_typed(reqx *x, const ddb_req *r, const seng_defer *df, diag *d);
/* A placeholder name: lead ('#' or ':') then [A-Za-z0-9_]+. */
bool seng_placeholder_ok(const char *k, size_t len, char lead);

/* Applies ProjectionExpression or AttributesToGet (atg: AV_L of S, or
 * AV_NONE / NULL) to item, in place; seng_projecting: would it change
 * anything? */
void seng_project(const reqx *x, const av *atg, av *item);
bool seng_projecting(const reqx *x, const av *atg);
/* Nested paths (a.b, a[1]) into key attributes, refused as DynamoDB
 * does: table keys first, then index keys. */
status seng_key_paths(const table_def *def, const expr *e, diag *d);
/* The keys an UpdateExpression may not touch, with DynamoDB's messages. */
status seng_update_keys(const table_def *def, const expr *upd, diag *d);

/* Read units for bytes read together (model/size.h's halves, as a
 * CapacityUnits number). */
double seng_read_units(uint64_t bytes, bool consistent);
/* Adds table t's units to res's ConsumedCapacity: the table's own and
 * each index's (idx by position in t->def.idx, NULL: none), the total
 * with them. */
void seng_cap_add(ddb_res *res, const tinfo *t, double table, const double *idx);

/* After a write of the item at k of table t (item: the item or key
 * written, for its partition key) that grew its item collection by grew
 * bytes (store_wcap.coll; negative: shrank): on a table with a local
 * secondary index, ItemCollectionSizeLimitExceededException when the
 * collection grew past the limit (model/size.h: SIZE_COLLECTION_MAX), and
 * with icm its ItemCollectionMetrics entry in res (res NULL: none, only
 * the limit). Nothing for a table without a local index. */
status seng_collection(store *s, bool icm, const tinfo *t, const store_key *k, const av *item, int64_t grew,
                       ddb_res *res, diag *d);

#endif
