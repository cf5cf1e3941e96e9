/*
 * legacy — DynamoDB's legacy (pre-expression) request parameters as C
 * values, their checks, and their meaning.
 *
 * Expected, ConditionalOperator, QueryFilter/ScanFilter, KeyConditions,
 * AttributeUpdates and AttributesToGet: a ddb_req carries them as a
 * ddb_legacy (model/ddbreq.h), so the explorer, `ddbx api`, `ddbx serve`
 * and a remote store all see the same typed request.
 *
 * Meaning: Expected and the filters become a condition expression over
 * generated placeholders (legacy_cond_text), which the expression engine
 * evaluates; the translation keeps the legacy rules where they differ from
 * the expression operators (NOT_CONTAINS is false on a missing attribute,
 * NULL/NOT_NULL test existence). AttributeUpdates are applied directly
 * (legacy_updates_apply): ADD on a list appends and its type errors have
 * their own message, which no UpdateExpression reproduces.
 *
 * The checks and messages are DynamoDB's (API reference: Condition,
 * ExpectedAttributeValue, AttributeValueUpdate; dynalite's
 * validations/index.js and actions/updateItem.js where the reference is
 * silent; the per-case source is in tests/data/test_store_legacy.c).
 *
 * Pure C: no I/O. Ownership: a ddb_legacy owns its conditions, updates
 * and values; legacy_init before use, legacy_done after.
 */
#ifndef DDBX_LEGACY_H
#define DDBX_LEGACY_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

/* ComparisonOperator (DDB_CMP_NONE: not given). */
typedef enum {
    DDB_CMP_NONE, DDB_CMP_EQ, DDB_CMP_NE, DDB_CMP_LE, DDB_CMP_LT, DDB_CMP_GE, DDB_CMP_GT,
    DDB_CMP_NOT_NULL, DDB_CMP_NULL, DDB_CMP_CONTAINS, DDB_CMP_NOT_CONTAINS, DDB_CMP_BEGINS_WITH,
    DDB_CMP_IN, DDB_CMP_BETWEEN,
} ddb_cmp;

const char *ddb_cmp_name(ddb_cmp op);            /* "EQ", ...; NULL for NONE */
ddb_cmp ddb_cmp_find(const char *name);          /* DDB_CMP_NONE when unknown */

/* One Expected entry (ExpectedAttributeValue) or one Condition of a
 * filter or KeyConditions. */
typedef struct ddb_cond {
    char *name;           /* the attribute (top level) */
    size_t name_len;
    ddb_cmp op;
    av list;              /* AttributeValueList: AV_L; AV_NONE: not given */
    av value;             /* Value (Expected only); AV_NONE: not given */
    signed char exists;   /* Exists (Expected only): -1 not given, 0, 1 */
} ddb_cond;

/* A map of conditions; given: the member was in the request (maybe {}). */
typedef struct ddb_conds {
    ddb_cond *v;
    size_t n;
    bool given;
} ddb_conds;

typedef enum { DDB_CONDOP_NONE, DDB_CONDOP_AND, DDB_CONDOP_OR } ddb_condop;

/* AttributeValueUpdate. Action not given is PUT (API reference). */
typedef enum { DDB_AU_PUT, DDB_AU_ADD, DDB_AU_DELETE } ddb_au_action;

typedef struct ddb_attr_update {
    char *name;
    size_t name_len;
    ddb_au_action action;
    bool has_action;      /* Action was given (printing keeps it as sent) */
    av value;             /* AV_NONE: no Value */
} ddb_attr_update;

typedef struct ddb_legacy {
    ddb_conds expected;   /* Expected (Put, Update, Delete) */
    ddb_conds filter;     /* QueryFilter (Query) or ScanFilter (Scan) */
    ddb_conds keyconds;   /* KeyConditions (Query) */
    ddb_condop condop;    /* ConditionalOperator */
    ddb_attr_update *updates;   /* AttributeUpdates (Update) */
    size_t n_updates;
    bool has_updates;
    av atg;               /* AttributesToGet: AV_L of S; AV_NONE */
} ddb_legacy;

void legacy_init(ddb_legacy *l);
void legacy_done(ddb_legacy *l);
/* Deep copy into an uninitialised dst. */
void legacy_copy(ddb_legacy *dst, const ddb_legacy *src);
/* Appends a condition named name (n bytes), initialised; valid until the
 * next add. */
ddb_cond *legacy_cond_add(ddb_conds *c, const char *name, size_t n);
ddb_attr_update *legacy_update_add(ddb_legacy *l, const char *name, size_t n);

/* Each legacy member given, in the order of the printers: its name in a
 * request body, its `aws dynamodb` option, and its value as JSON text
 * (len bytes). query: the filter is QueryFilter (else ScanFilter). */
typedef void (*legacy_member_fn)(void *arg, const char *name, const char *cli_option, const char *json,
                                 size_t len);
void legacy_members(const ddb_legacy *l, bool query, legacy_member_fn fn, void *arg);
/* The legacy members of a request body, as DynamoDB JSON members each
 * preceded by a comma unless *first (then cleared). */
void legacy_json(const ddb_legacy *l, bool query, buf *out, bool *first);

/* ---- checks (DynamoDB's messages) ---- */

/* Expected: Exists/Value/ComparisonOperator/AttributeValueList rules,
 * argument counts and types, BETWEEN's order. */
status legacy_check_expected(const ddb_conds *c, diag *d);
/* QueryFilter, ScanFilter, KeyConditions: counts, types, order. */
status legacy_check_conditions(const ddb_conds *c, diag *d);
/* ConditionalOperator needs two or more conditions in conds (the
 * request's Expected or filter; NULL: neither given). */
status legacy_check_condop(ddb_condop op, const ddb_conds *conds, diag *d);
/* AttributeUpdates: Value required but for DELETE; the types DELETE and
 * ADD take. */
status legacy_check_updates(const ddb_legacy *l, diag *d);

/* ---- meaning ---- */

/*
 * The conditions as one condition expression text appended to out, joined
 * by AND or OR (op), with placeholders "#<tag>N" and ":<tag>N" put into
 * *names and *values (created as AV_M when AV_NONE). The conditions must
 * have passed their check. Nothing is appended for no conditions.
 */
void legacy_cond_text(const ddb_conds *c, ddb_condop op, const char *tag, av *names, av *values,
                      buf *out);

/* item (an AV_M, in place) after the AttributeUpdates of l, DynamoDB's
 * legacy rules: PUT sets; DELETE without Value removes; DELETE with a set
 * removes its elements (the attribute goes when emptied); ADD adds a
 * number, unites a set, appends a list, and on a missing attribute sets
 * it. A type clash is "Type mismatch for attribute to update". */
status legacy_updates_apply(const ddb_legacy *l, av *item, diag *d);

/* Every AttributeUpdates action is a DELETE (and there is one): on a
 * missing item DynamoDB then writes nothing. */
bool legacy_deletes_only(const ddb_legacy *l);

/* item cut down (in place) to the attributes the AttributeUpdates name
 * (UPDATED_OLD / UPDATED_NEW). */
void legacy_updated_part(const ddb_legacy *l, av *item);

#endif
