/*
 * pattern — access patterns: the reads a design promises to answer with
 * one GetItem or Query, their example parameters and their expectations,
 * and the verdict on a run of one.
 *
 * A pattern names its operation (GetItem, Query, Scan, or a PartiQL
 * SELECT), its table and index, its key condition and filter (DynamoDB
 * expression text whose `:name` placeholders are the pattern's
 * parameters, each with an example value) and what it should do: which
 * entity types it may return, at most how many items, at most how many
 * read units, and at least how many items for the example values. A
 * GetItem's key condition is `KEY = :p AND KEY2 = :q` (each key attribute
 * once), which is how its key is written in the file too.
 *
 * The entity type of an item is decided per table by the set's rules: the
 * value of one attribute, either itself (a `type` attribute) or mapped by
 * the longest prefix it begins with (a sort key `TARGET#bob` with the
 * prefix `TARGET#` -> `follow`). No rule, or no match: no type. A table
 * without a rule may be described by the set's model (model/entity.h, a
 * model file named by the pattern file): an item's type is then the
 * entity of the model it matches (its type attribute, else its key
 * templates).
 *
 * The file format is data/pattern_file.h's (cJSON stays in data/); the
 * run against a store is data/pattern_run.h's. This module is pure.
 *
 * Ownership: a pattern_set owns its patterns and rules, a pattern owns its
 * strings and avs, a pattern_result owns its error text, type names and
 * kept items. *_init before use, *_done after.
 */
#ifndef DDBX_PATTERN_H
#define DDBX_PATTERN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbreq.h"
#include "model/entity.h"
#include "model/status.h"

typedef enum { PAT_GET, PAT_QUERY, PAT_SCAN, PAT_PARTIQL } pattern_op;

/* "GetItem", "Query", "Scan", "PartiQL"; and back (-1: none of them). */
const char *pattern_op_name(pattern_op op);
int pattern_op_find(const char *name);

typedef struct pattern_param {
    char *name;            /* without the ':' of its placeholder */
    av example;            /* the example value (any type) */
} pattern_param;

typedef struct pattern {
    char *name, *description;
    pattern_op op;
    char *table, *index;   /* index NULL: the base table */
    char *keycond, *filter;/* expression text; NULL: none */
    char *statement;       /* PAT_PARTIQL: the SELECT; its `?` take the
                              parameters in order */
    av names;              /* ExpressionAttributeNames (M of S) or AV_NONE */
    pattern_param *params;
    size_t n_params;
    uint32_t limit;        /* items per page the application asks for (one
                              page is read); 0: every page */
    bool backward, consistent;
    double rate;           /* calls a second the design expects ("rate":
                              "200/s"), for the monthly cost; 0: not given */
    /* Expectations: types[0..n_types) allowed (none: any); max_items and
     * max_units < 0: no limit; min_items (default 1: the examples find
     * something, so a key-format change shows as a failure). */
    char **types;
    size_t n_types;
    long max_items, min_items;
    double max_units;
    char *file;            /* the file it was read from (NULL: none) */
    int line, col;         /* where it is in it (0: not from a file) */
} pattern;

typedef struct pattern_rule {
    char *table;
    char *attr;            /* the attribute that tells the type */
    char **prefix, **type; /* prefix[i] -> type[i]; n 0: the value is the type */
    size_t n;
} pattern_rule;

typedef struct pattern_set {
    pattern *p;
    size_t n;
    pattern_rule *rules;
    size_t n_rules;
    ent_model model;       /* the tables of the model files named ("model") */
} pattern_set;

void pattern_init(pattern *p);
void pattern_done(pattern *p);
void pattern_copy(pattern *dst, const pattern *src);
void pattern_set_init(pattern_set *s);
void pattern_set_done(pattern_set *s);
/* Appends a copy of p (replacing a pattern of the same name). */
void pattern_set_put(pattern_set *s, const pattern *p);
/* The pattern named, or NULL. */
const pattern *pattern_set_find(const pattern_set *s, const char *name);
/* Adds the rules and model tables of src that dst lacks (by table). */
void pattern_set_merge_rules(pattern_set *dst, const pattern_set *src);
const pattern_rule *pattern_set_rule(const pattern_set *s, const char *table);

/* Moves the tables of m (left empty) into the set's model. */
void pattern_set_take_model(pattern_set *s, ent_model *m);
/* Does the set know how to tell the entity type of the table's items (a
 * rule, or a table of its model)? */
bool pattern_set_types_table(const pattern_set *s, const char *table);

/* The entity type of an item of the table (NULL: none known). Borrowed
 * from the rules, the model, or (a type attribute) from the item. len
 * gets its length. */
const char *pattern_entity_type(const pattern_set *s, const char *table, const av *item,
                                size_t *len);

/*
 * The request a GetItem, Query or Scan pattern sends, into an
 * uninitialised req (the caller calls ddb_req_done either way): values is
 * an M of parameter name -> value (NULL: the examples), the names and
 * placeholders as written, ReturnConsumedCapacity TOTAL. ST_VALIDATION
 * when a GetItem's key condition is not `A = :p [AND B = :q]` or names an
 * unknown parameter.
 */
status pattern_request(const pattern *p, const av *values, ddb_req *req, diag *d);
/*
 * The other way: a pattern named name from a Query, Scan or GetItem
 * request (the builder's or the query bar's), into an uninitialised out:
 * its placeholders become the parameters, their values the examples (a
 * GetItem's key becomes `A = :A AND B = :B`). No expectations but the
 * default (at least one item). ST_VALIDATION for a write or a batch.
 */
status pattern_from_req(const ddb_req *req, const char *name, pattern *out, diag *d);

/* The parameter values of a PartiQL pattern, in order (values as above),
 * into out[0..p->n_params) (free each). */
void pattern_partiql_params(const pattern *p, const av *values, av *out);

/* ---- results and verdicts ---------------------------------------------- */

typedef struct pattern_result {
    bool ran;              /* something was sent */
    char *error;           /* the failure ("ValidationException: ..."); NULL: none */
    pattern_op ran_as;     /* PAT_GET, PAT_QUERY or PAT_SCAN: what the store did */
    size_t items, pages;
    uint64_t scanned;      /* items read before the filter */
    double units;          /* read capacity units consumed */
    bool truncated;        /* stopped with pages left (limit or the page cap) */
    char **types;          /* the entity types returned, in the order met */
    size_t *type_counts, n_types;
    size_t untyped;        /* items no rule gives a type */
    av *kept;              /* the items, when the run keeps them */
    size_t n_kept;
} pattern_result;

void pattern_result_init(pattern_result *r);
void pattern_result_done(pattern_result *r);
/* Counts one returned item (its type by the set's rules); keeps a copy
 * when keep is set. */
void pattern_result_add(pattern_result *r, const pattern_set *s, const pattern *p,
                        const av *item, bool keep);
void pattern_result_fail(pattern_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

typedef enum { PAT_PASS, PAT_WARN, PAT_FAIL } pattern_verdict;

/* "pass", "warn", "FAIL". */
const char *pattern_verdict_name(pattern_verdict v);

/*
 * The verdict on a result: FAIL when the run failed, needed a Scan, read
 * more units or returned more items than allowed, returned an ent_entity
 * type the pattern does not allow (or an item of no type when types are
 * given), or fewer items than min_items; WARN when the filter discarded
 * most of what was read (more than half); else PASS. Each reason is
 * appended to why ("; " between them).
 */
pattern_verdict pattern_judge(const pattern *p, const pattern_result *r, buf *why);
/* A pattern that would Scan before it runs (its operation says so):
 * the reason into why, else false. */
bool pattern_would_scan(const pattern *p, buf *why);

#endif
