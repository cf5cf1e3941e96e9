/*
 * store_ops — what the files of the JSON dispatcher share (private to
 * store_api.c, store_item.c, store_query.c and store_batch.c; the JSON
 * accessors also serve store_gsi.c, store_ttl.c and store_tags.c).
 *
 * store_api.c holds the dispatcher (store_call, store_call_line) and the
 * pieces every operation uses: the request-shape specs they share, the
 * JSON accessors, ConsumedCapacity output, and the expression parameters
 * (reqx: the names and values maps and the parsed expressions of one
 * request, owned by it). The operations live by kind: store_item.c
 * (PutItem, GetItem, UpdateItem, DeleteItem), store_query.c (Query,
 * Scan), store_batch.c (BatchWriteItem, BatchGetItem, TransactWriteItems,
 * TransactGetItems).
 */
#ifndef DDBX_STORE_OPS_H
#define DDBX_STORE_OPS_H

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/expr.h"

#define MAX_ITEM_BYTES (400 * 1024)
#define PAGE_BYTES (1024 * 1024)

/* Request-shape pieces several operations use (store_valid specs). */
extern const char *const sop_e_rcc[];
extern const char *const sop_e_condop[];
extern const char *const sop_e_rv_put[];
extern const char *const sop_e_rvccf[];
extern const char *const sop_e_ricm[];
extern const char *const sop_e_select[];
extern const vspec sop_str_elem;
extern const vspec sop_expected_elem;
extern const vspec sop_cond_elem;
extern const vspec sop_keycond_elem;

#define F_TABLE { .name = "TableName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, \
                  .min_len = 3, .max_len = 255 }
#define F_RCC { .name = "ReturnConsumedCapacity", .type = VT_STRING, .enums = sop_e_rcc }
#define F_EAV { .name = "ExpressionAttributeValues", .type = VT_ATTRMAP }
#define F_EAN { .name = "ExpressionAttributeNames", .type = VT_MAP, .sub = "java.lang.String", \
                .elem = &sop_str_elem }
#define F_END { .type = VT_END }

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

const char *sop_jstr(const cJSON *o, const char *name);
const cJSON *sop_jget(const cJSON *o, const char *name);
bool sop_jbool(const cJSON *o, const char *name, bool dflt);
bool sop_is(const char *a, const char *b);
ddb_rcc sop_rcc_mode(const cJSON *in);
void sop_capacity_obj(buf *out, ddb_rcc mode, const tinfo *t, double table, const double *idx);
void sop_write_capacity(buf *out, ddb_rcc mode, const tinfo *t, double table, const double *idx,
                           bool lead_comma);
/* ",ConsumedCapacity":... of a typed result (lead_comma: one before it):
 * the first table's object, or with list an array of every table's. */
void sop_write_caps(buf *out, ddb_rcc mode, const ddb_res *res, bool lead_comma, bool list);
status sop_parse_item(const cJSON *in, const char *member, av *item, diag *d);
status sop_lookup_table(store *s, const cJSON *in, tinfo **t, diag *d);
/* The legacy parameters of a request body into l (values parsed with
 * their messages; kind picks QueryFilter or ScanFilter). */
status sop_legacy_json(const cJSON *in, ddb_kind kind, ddb_legacy *l, diag *d);
/* Their checks on a typed request: mixing with expressions,
 * AttributeUpdates, Expected, the filter, ConditionalOperator. */
status sop_legacy_checks(const ddb_req *r, diag *d);
status sop_expr_params(const cJSON *in, const char *const *exprs, const char *const *legacy,
                          diag *d);
void sop_reqx_init(reqx *x);
void sop_reqx_done(reqx *x);
status sop_exprs_parse(reqx *x, const cJSON *in, diag *d);

/*
 * What the codec could not put into a ddb_req, for the typed operation to
 * report at the point where DynamoDB reports it: an error in the JSON of
 * the names or values maps or of ExclusiveStartKey.
 */
typedef struct sop_defer {
    bool maps_bad;
    diag maps;
    bool start_bad;          /* ExclusiveStartKey's JSON was bad: start */
    diag start;
} sop_defer;

/* Nothing deferred (a sop_defer is two diags: not zeroed whole on the
 * hot path). */
static inline void sop_defer_init(sop_defer *df)
{
    df->maps_bad = df->start_bad = false;
    diag_init(&df->maps);
    diag_init(&df->start);
}

/* The names and values maps of a request body into avs (AV_NONE when not
 * given), with DynamoDB's checks and messages. */
status sop_maps_json(const cJSON *in, av *names, av *values, diag *d);
/* sop_exprs_parse for a typed request: its maps checked and copied into
 * x, its expressions parsed. df (may be NULL) as above. */
status sop_exprs_typed(reqx *x, const ddb_req *r, const sop_defer *df, diag *d);
status sop_attributes_to_get(const cJSON *in, av *names, diag *d);
void sop_project(const reqx *x, const av *atg, av *item);
bool sop_projecting(const reqx *x, const av *atg);
status sop_key_paths(const table_def *def, const expr *e, diag *d);
double sop_read_units(uint64_t bytes, bool consistent);
status sop_update_keys(const table_def *def, const expr *upd, diag *d);

#endif
