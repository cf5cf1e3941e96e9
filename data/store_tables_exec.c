/*
 * store_tables_exec — the table kinds run typed: store_exec's case for
 * ListTables, DescribeTable, CreateTable (store_tables_create.c) and
 * DeleteTable (store_tables_exec, ddb_req
 * in, ddb_res out, its answer in res->tables, model/ddbres_tables.h), and
 * the JSON doors that read a request body into that ddb_req, run it and
 * print the answer (store_op_list_tables, store_op_describe_table,
 * store_op_delete_table). The shape
 * checks and their messages stay on the JSON (store_valid specs); the
 * executor does the semantic work.
 *
 * The store keeps each table's description as JSON text in SQLite (its
 * storage format, which CreateTable, UpdateTable and restores build and
 * edit); DescribeTable reads it, with its live counts, into the typed
 * description here (store_tables_desc_read), as items are decoded from
 * their stored text: what goes between store_exec and its caller is
 * typed.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_ops.h"
#include "data/store_valid.h"
#include "model/ddbjson.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

/* ListTables' page when the request says no Limit (the API reference:
 * "up to 100"). */
#define LIST_PAGE 100

static const vspec list_spec[] = {
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 100, .has_le = true },
    { .name = "ExclusiveStartTableName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .type = VT_END },
};

/* ---- ListTables ---- */

/* The names after ExclusiveStartTableName, in order, at most Limit of
 * them; LastEvaluatedTableName when more follow. */
static status list_tables(store *s, const ddb_req *req, ddb_tables_res *out, diag *d)
{
    int64_t limit = req->limit ? req->limit : LIST_PAGE;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    sqlite3_stmt *q = store_stmt(s, Q_TABLE_NAMES_AFTER, d);
    if (!q)
        return store_txn_end(s, d->code, d);
    const char *start = req->ctl.start_name;
    sqlite3_bind_text(q, 1, start ? start : "", -1, SQLITE_STATIC);
    sqlite3_bind_int64(q, 2, limit + 1);
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW && (int64_t)out->n_names < limit)
        ddbres_tables_add_name(out, (const char *)sqlite3_column_text(q, 0));
    if (rc == SQLITE_ROW && out->n_names)
        out->last_name = xstrdup(out->names[out->n_names - 1]);
    else if (rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_reset(q);
    return store_txn_end(s, st, d);
}

static status read_list(const cJSON *in, ddb_req *req, diag *d)
{
    req->limit = sop_limit(in);
    ddb_req_set_str(&req->ctl.start_name, store_jstr(in, "ExclusiveStartTableName"));
    return ST_OK;
}

status store_op_list_tables(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, list_spec, DDB_LIST_TABLES, read_list, out, d);
}

/* ---- DescribeTable, DeleteTable ---- */

static const vspec name_spec[] = {
    F_TABLE_REQ,
    { .type = VT_END },
};

status store_tables_desc_read(const char *json, ddb_table_desc **out, diag *d)
{
    av plain;
    diag pd;
    diag_init(&pd);
    *out = NULL;
    if (ddbjson_parse_plain_item(json, strlen(json), &plain, &pd) != ST_OK)
        return diag_set(d, ST_INTERNAL, "corrupt table description: %s", pd.msg);
    status st = ddbres_table_desc_read(&plain, out, d);
    av_done(&plain);
    return st;
}

/* DescribeTable's and DeleteTable's request: the TableName alone. */
static status read_name(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->table, store_jstr(in, "TableName"));
    return ST_OK;
}

status store_tables_desc_of(const cJSON *tree, ddb_table_desc **out, diag *d)
{
    av plain;
    store_codec_plain(tree, &plain);
    status st = ddbres_table_desc_read(&plain, out, d);
    av_done(&plain);
    return st;
}

status store_op_describe_table(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, name_spec, DDB_DESCRIBE_TABLE, read_name, out, d);
}

status store_op_delete_table(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, name_spec, DDB_DELETE_TABLE, read_name, out, d);
}

/* ---- store_exec's case ---- */

status store_tables_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    switch (req->kind) {
    case DDB_LIST_TABLES:
        return list_tables(s, req, ddbres_tables(res), &err->d);
    case DDB_CREATE_TABLE: case DDB_UPDATE_TABLE: {
        /* A CreateTable named by def, and UpdateTable, go through the
         * door's checks: a long validation message is whole in
         * s->err_msg, as store_call's. */
        buf_reset(&s->err_msg);
        status st = (req->kind == DDB_CREATE_TABLE ? store_tables_create : store_tables_update)(
            s, req, &ddbres_tables(res)->table, &err->d);
        const char *whole = st != ST_OK ? store_error_message(s, st, &err->d) : NULL;
        if (whole && whole != err->d.msg && strcmp(whole, err->d.msg) != 0)
            err->message = xstrdup(whole);
        return st;
    }
    case DDB_DESCRIBE_TABLE: case DDB_DELETE_TABLE:
        if (!req->table)   /* as the door refuses it (F_TABLE_REQ) */
            return diag_set(&err->d, ST_VALIDATION,
                            "The parameter 'TableName' is required but was not present in the request");
        return (req->kind == DDB_DESCRIBE_TABLE ? store_tables_describe : store_tables_delete)(
            s, req->table, &ddbres_tables(res)->table, &err->d);
    default:
        return diag_set(&err->d, ST_INTERNAL, "request kind %d is not a table kind", (int)req->kind);
    }
}
