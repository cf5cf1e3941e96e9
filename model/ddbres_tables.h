/*
 * ddbres_tables — the answers of the table kinds as C values, their
 * printer and their reader.
 *
 * ListTables' TableNames and LastEvaluatedTableName are what the local
 * store's typed executor (data/store_tables.c) hands back in a ddb_res
 * (its member tables), and what a remote store reads a remote answer
 * into; the JSON door (`ddbx api`, `ddbx serve`) prints them with
 * ddbres_tables_json, members in the API reference's order.
 *
 * Pure C, no cJSON: a remote answer comes here parsed as plain JSON
 * (model/ddbjson's ddbjson_parse_plain_item: objects as M, arrays as L,
 * strings as S).
 *
 * Ownership: a ddb_tables_res owns its strings; ddb_res_done (model/
 * ddbreq.c) frees it with ddbres_tables_free.
 */
#ifndef DDBX_DDBRES_TABLES_H
#define DDBX_DDBRES_TABLES_H

#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbreq.h"
#include "model/status.h"

typedef struct ddb_tables_res {
    /* ListTables: TableNames, in order, and LastEvaluatedTableName (NULL:
     * the last page). */
    char **names;
    size_t n_names;
    char *last_name;
} ddb_tables_res;

/* res->tables, made when missing. */
ddb_tables_res *ddbres_tables(ddb_res *res);
/* Appends a copy of name to TableNames. */
void ddbres_tables_add_name(ddb_tables_res *t, const char *name);
void ddbres_tables_free(ddb_tables_res *t);

/* The response body of kind (one of the table kinds) from res. */
void ddbres_tables_json(ddb_kind kind, const ddb_res *res, buf *out);
/* The answer of kind, parsed as plain JSON (root: AV_M), into res;
 * members of the wrong type are refused with ST_INTERNAL, naming them. */
status ddbres_tables_read(ddb_kind kind, const av *root, ddb_res *res, diag *d);

#endif
