/*
 * partiql — DynamoDB's PartiQL dialect: SELECT, INSERT, UPDATE, DELETE and
 * (in transactions) EXISTS(SELECT ...), as the developer guide documents
 * them.
 *
 * Pipeline: text is lexed (tokens with byte positions), parsed by
 * recursive descent into a statement (pq_parse; `?` parameters are bound
 * from the request's Parameters as they are met), then planned against a
 * key schema (pq_plan_of): the DynamoDB operation it becomes, with its
 * key condition, filter, condition and update expressions as expression
 * text over generated #n / :v placeholders and their names and values
 * maps. The store executes a plan with its own operations (Query, Scan,
 * PutItem, UpdateItem, DeleteItem, TransactWriteItems, TransactGetItems),
 * so one evaluator (model/expr) decides every condition.
 *
 * A SELECT runs as a Query when its WHERE fixes the partition key (an
 * equality, an IN list or an OR of equalities, as one of the top-level
 * AND terms); one sort-key term (= < <= > >= BETWEEN begins_with) then
 * becomes the key condition, and everything else the filter. Otherwise it
 * is a Scan and the whole WHERE is the filter. Writes need an equality on
 * every key attribute; the other terms become the condition.
 *
 * Ownership: a pq_stmt owns its text copy, nodes and values (parameters
 * are copied in). A pq_plan owns its strings, maps and parsed filter and
 * borrows nothing from the statement, so the statement may be freed first.
 *
 * Errors are ST_VALIDATION with DynamoDB's message and d->pos at the
 * offending token (syntax errors also name its line and column).
 */
#ifndef DDBX_PARTIQL_H
#define DDBX_PARTIQL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/expr.h"
#include "model/schema.h"
#include "model/status.h"

#define PQ_MAX_BYTES 8192     /* statement text (ExecuteStatement's limit) */
#define PQ_MAX_BATCH 25       /* BatchExecuteStatement statements */
#define PQ_MAX_TRANSACT 100   /* ExecuteTransaction statements */
#define PQ_MAX_IN_KEYS 50     /* partition key values of one IN (ql-operators) */

typedef enum { PQ_SELECT, PQ_INSERT, PQ_UPDATE, PQ_DELETE, PQ_EXISTS } pq_kind;

typedef struct pq_stmt pq_stmt;

/* Parses text[0..len) with the request's parameters (params[0..n), may be
 * NULL when n is 0), which must match the `?` markers in number. */
status pq_parse(const char *text, size_t len, const av *params, size_t n_params, pq_stmt **out,
                diag *d);
void pq_free(pq_stmt *s);

pq_kind pq_get_kind(const pq_stmt *s);
const char *pq_kind_name(pq_kind k);        /* "SELECT", ... */
const char *pq_table(const pq_stmt *s);
const char *pq_index(const pq_stmt *s);     /* NULL: the table */
/* Does the text start with SELECT (a read), without parsing it? For the
 * remote store's read/write decision. */
bool pq_is_read_text(const char *text, size_t len);

/* How many `?` markers the text has (0 when it does not lex), so a
 * caller can ask for that many parameters before parsing. */
size_t pq_count_params(const char *text, size_t len);
/* One PartiQL literal ('a', 5, <<'x'>>, {'k': [1]}, TRUE, NULL) into an
 * uninitialised out. */
status pq_parse_value(const char *text, size_t len, av *out, diag *d);

/* Canonical text: keywords upper case, identifiers double-quoted,
 * literals in PartiQL form, parameters replaced by their values. And an
 * indented tree, one node a line, for the golden tests. */
void pq_print(const pq_stmt *s, buf *out);
void pq_print_tree(const pq_stmt *s, buf *out);
/* One value as a PartiQL literal ('a', 1, <<'x'>>, {'k': 1}, [..]);
 * binary values, which have no literal, as their DynamoDB JSON. */
void pq_print_value(const av *v, buf *out);

/* A parsed DynamoDB expression (condition, key condition, filter, update,
 * projection) in PartiQL's words: paths double-quoted, values as
 * literals, attribute_exists(p) as p IS NOT MISSING, ADD and DELETE as
 * set_add / set_delete (ADD of a number as +), update sections as SET and
 * REMOVE. For the builder's PartiQL form of its request. */
void pq_print_expr_node(const expr_node *n, buf *out);

/* ---- plans ---------------------------------------------------------------- */

typedef enum {
    PQ_OP_QUERY, PQ_OP_SCAN, PQ_OP_PUT, PQ_OP_UPDATE, PQ_OP_DELETE, PQ_OP_CHECK
} pq_op;

const char *pq_op_name(pq_op op);           /* "Query", "Scan", "PutItem", ... */

typedef struct pq_plan {
    pq_op op;
    pq_kind kind;
    char *table, *index;    /* index NULL: the table */
    /* Query: the partition key values, one Query each, in key order
     * (reversed for ORDER BY ... DESC); key_cond is the
     * KeyConditionExpression, with ":pk" standing for the value of the
     * partition being read. Names and values maps of the key condition. */
    av *pks;
    size_t n_pks;
    char *key_cond;
    av key_names, key_values;
    bool forward;           /* ScanIndexForward */
    bool full_key;          /* the WHERE fixes every key attribute by equality */
    /* SELECT: the filter the store applies to what it reads (NULL: none),
     * with its own maps, parsed; projection paths (none: all). */
    char *filter;
    av filter_names, filter_values;
    expr_ctx filter_cx;
    expr *filter_e;
    /* Writes: the item (INSERT), the key (UPDATE, DELETE, EXISTS), the
     * UpdateExpression and ConditionExpression (NULL: none) over one
     * names and values map; ReturnValues ("ALL_OLD", ... or NULL). */
    av item, key;           /* key: also for a SELECT with full_key (GetItem) */
    char *update, *condition;
    av names, values;
    const char *return_values;
    /* For explaining: the WHERE terms as PartiQL text. */
    char *key_text, *filter_text;
    /* private: the projection */
    struct pq_proj *proj;
    size_t n_proj;
} pq_plan;

/* Plans a statement against the table's definition (def->name should be
 * the statement's table). Checks what DynamoDB checks against the schema:
 * the index exists, writes fix the whole key, ORDER BY names a key of a
 * Query. On failure *out is left empty (pq_plan_done is still safe). */
status pq_plan_of(const pq_stmt *s, const table_def *def, pq_plan *out, diag *d);
void pq_plan_done(pq_plan *p);

/* Does an item read pass the plan's filter? */
bool pq_plan_match(const pq_plan *p, const av *item);
/* The SELECT list applied to an item (into an uninitialised out): each
 * path's value under its last member name, as PartiQL names a projection;
 * `*` copies the item. */
void pq_plan_project(const pq_plan *p, const av *item, av *out);

/* A few lines saying what the plan does: operation, key range, filter,
 * condition, update (for `ddbx eval --kind partiql` and the explorer). */
void pq_plan_explain(const pq_plan *p, buf *out);

#endif
