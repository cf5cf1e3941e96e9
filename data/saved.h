/*
 * saved — named conditions kept in the store's database file, for the
 * builder's :save-cond / :load-cond and its list; and the table view's
 * column layouts (saved_cols_*, at the end).
 *
 * A saved condition is what a request carries: the expression text, its
 * ExpressionAttributeNames and ExpressionAttributeValues as JSON (each
 * may be empty), and which kind of expression it is ("condition",
 * "filter", "key"). They live in the table saved_conditions of the same
 * SQLite file as the tables (created on first write); the store's own
 * tables are not touched. SQL text is fixed; every value is bound.
 *
 * A remote store has no SQLite file: its saved conditions go to the
 * local database named by store_set_local_path (the explorer gives it the
 * default database, or DDBX_DB), so the names saved while exploring an
 * endpoint are the ones listed on the local tables, and nothing is ever
 * written to the endpoint. Without a local path every call fails with a
 * ValidationException saying so.
 *
 * Ownership: strings in a saved_cond filled by saved_get / saved_list are
 * malloc'd and released by saved_cond_free; the caller's inputs are only
 * read.
 */
#ifndef DDBX_SAVED_H
#define DDBX_SAVED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/status.h"

typedef struct saved_cond {
    char *name;
    char *kind;          /* "condition", "filter" or "key" */
    char *expr;
    char *names;         /* JSON object text, or "" */
    char *values;        /* DynamoDB JSON object text, or "" */
    int64_t updated;     /* seconds since the epoch */
} saved_cond;

/* Inserts or replaces by name (names are 1..255 bytes, no control
 * characters). */
status saved_put(store *s, const saved_cond *c, diag *d);
/* *found false (and *out untouched) when there is none by that name. */
status saved_get(store *s, const char *name, saved_cond *out, bool *found, diag *d);
/* Every saved condition, by name. Free each, then the array. */
status saved_list(store *s, saved_cond **out, size_t *n, diag *d);
status saved_delete(store *s, const char *name, bool *found, diag *d);
void saved_cond_free(saved_cond *c);

/*
 * The table view's column layouts, one per table and entity type (the
 * sort-key prefix or type attribute that groups its items; "" for items
 * of no type), in the table saved_columns beside saved_conditions (a
 * remote store's in the local file, as above). spec is the view's text
 * form (ui/colset.h), opaque here; an empty spec deletes the layout.
 * saved_cols_get sets *spec to a malloc'd copy, or NULL when none is
 * saved.
 */
status saved_cols_put(store *s, const char *table, const char *entity, const char *spec, diag *d);
status saved_cols_get(store *s, const char *table, const char *entity, char **spec, diag *d);

#endif
