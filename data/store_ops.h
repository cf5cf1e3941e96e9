/*
 * store_ops — what the JSON door's operations share (private to data/:
 * store_ops.c, with store_item.c, store_query.c and store_batch.c; the
 * cJSON accessors also serve store_gsi.c, store_ttl.c and store_tags.c;
 * sop_door, the typed control-plane doors of store_backup_api.c,
 * store_ttl.c and store_partiql.c).
 *
 * The door (store_api.c: store_call, store_call_line, the table of
 * operations) hands each operation a parsed request body; the data-plane
 * operations read it with the pieces here (the request-shape specs they
 * share, the accessors, the members every one of them reads, with
 * DynamoDB's checks and messages) into a ddb_req, run it on the typed
 * engine (data/store_engine.h) and print the response with model/ddbres.h,
 * adding its units to the call's tally (sop_units_of). Nothing here owns
 * anything beyond the call.
 */
#ifndef DDBX_STORE_OPS_H
#define DDBX_STORE_OPS_H

#include "data/store_engine.h"
#include "data/store_valid.h"

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

/* A table's name or ARN where the table exists: 1 to 1024 characters, no
 * pattern (API reference: PutItem's, GetItem's, DescribeTable's ...
 * TableName), then a name (not an ARN) one a table can have
 * (VF_TABLE_REF). F_TABLE_REQ: the
 * same, refused as absent first (the control plane's "The parameter
 * 'TableName' is required ..."). CreateTable's: F_CREATE_TABLE. */
#define F_TABLE { .name = "TableName", .type = VT_STRING, .flags = VF_NOTNULL | VF_TABLE_REF, .min_len = 1, \
                  .max_len = 1024 }
#define F_TABLE_REQ { .name = "TableName", .type = VT_STRING, .flags = VF_REQUIRED | VF_TABLE_REF, \
                      .min_len = 1, .max_len = 1024 }
/* CreateTable's: 3 to 255 of [a-zA-Z0-9_.-] (AWS: "Value 'ab' at
 * 'tableName' failed to satisfy constraint: Member must have length
 * greater than or equal to 3", issue 29). */
#define F_CREATE_TABLE { .name = "TableName", .type = VT_STRING, .flags = VF_REQUIRED | VF_NAMEPAT, \
                      .min_len = 3, .max_len = 255 }
#define F_RCC { .name = "ReturnConsumedCapacity", .type = VT_STRING, .enums = sop_e_rcc }
/* PutItem's and UpdateItem's TableName, reported alone before the other
 * members (AWS: dynoxide's changelog 0.12, "an empty or invalid TableName
 * is reported on its own, before the Return* enum checks", confirmed in
 * eu-west-2). */
#define F_TABLE_ALONE { .name = "TableName", .type = VT_STRING, .flags = VF_NOTNULL | VF_TABLE_REF, .min_len = 1, \
                        .max_len = 1024, .alone = 1 }
#define F_EAV { .name = "ExpressionAttributeValues", .type = VT_ATTRMAP }
#define F_EAN { .name = "ExpressionAttributeNames", .type = VT_MAP, .sub = "java.lang.String", \
                .elem = &sop_str_elem }
#define F_END { .type = VT_END }

/* A boolean member, read as DynamoDB reads it (true, "true", "1", "yes";
 * dflt when absent; store_int.h has the other accessors). sop_is: a is b
 * (a may be NULL). */
bool sop_jbool(const cJSON *o, const char *name, bool dflt);
bool sop_is(const char *a, const char *b);
/* ReturnConsumedCapacity. */
ddb_rcc sop_rcc_mode(const cJSON *in);
/* Limit (0: absent, or below 1; UINT32_MAX for any larger: converting a
 * double out of range is undefined, found by fuzzing "Limit": 5.5e111). */
uint32_t sop_limit(const cJSON *in);
/* The calling thread's tally of units (store_call_units): each door adds
 * its answer's (sop_units_of: every table's of a typed result), asked for
 * or not, when it prints the answer (model/ddbres.h); a read that computes
 * its units only when asked adds them itself when not. */
void sop_units_reset(void);
void sop_units_add(double u);
void sop_units_of(const ddb_res *res);
/* An item member (Item, Key) into item; an empty M when absent. */
status sop_parse_item(const cJSON *in, const char *member, av *item, diag *d);
/* The legacy parameters of a request body into l (values parsed with
 * their messages; kind picks QueryFilter or ScanFilter). */
status sop_legacy_json(const cJSON *in, ddb_kind kind, ddb_legacy *l, diag *d);
/* DynamoDB's validateExpressionParams: the expressions named in exprs
 * and their legacy counterparts exclude each other; the names and
 * values maps need an expression. */
status sop_expr_params(const cJSON *in, const char *const *exprs, const char *const *legacy,
                          diag *d);

/* The names and values maps of a request body into avs (AV_NONE when not
 * given), with DynamoDB's checks and messages. */
status sop_maps_json(const cJSON *in, av *names, av *values, diag *d);
/* A typed operation's error as the door answers it: the members it
 * carries beside its message (the Item of a failed condition,
 * CancellationReasons) into s->err_extra, its diag into d; returns its
 * status. */
status sop_error(store *s, const ddb_err *e, diag *d);
/* The door's run of a typed request: store_exec, then the answer printed
 * by the one printer (ddb_res_json) and its units tallied, or the error
 * as sop_error gives it. */
status sop_run(store *s, const ddb_req *req, buf *out, diag *d);
/* A typed kind's door whole: in checked against spec (store_valid_check:
 * DynamoDB's shape messages), read by read into a request of kind (the
 * kind's members, and its checks beyond the spec's), then run and its
 * answer printed (sop_run). */
typedef status (*sop_reader)(const cJSON *in, ddb_req *req, diag *d);
status sop_door(store *s, const cJSON *in, const vspec *spec, ddb_kind kind, sop_reader read, buf *out,
                diag *d);
/* AttributesToGet into names (AV_L of S; AV_NONE when absent). */
status sop_attributes_to_get(const cJSON *in, av *names, diag *d);

#endif
