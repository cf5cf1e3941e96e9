/*
 * store_api — the JSON door: store_call and store_call_line (`ddbx api`),
 * and the table of the operations they dispatch to by name.
 *
 * Each operation takes a parsed request body and appends its response
 * body (data/store_int.h's store_op_fn): the data-plane ones read it into
 * a typed request and run it on the engine (store_item.c, store_query.c,
 * store_batch.c; Time to Live's, Streams', backups', PartiQL's and the
 * table kinds ListTables, DescribeTable, DeleteTable on their typed
 * executors), the rest of the control plane's (CreateTable and
 * UpdateTable in store_tables.c and store_gsi.c, store_tags.c,
 * ListStreams) work on the JSON itself. A GetItem of the common simple kind takes a hot path
 * from its text (store_item_get_fast).
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- dispatch ---- */

/* The operations the local store implements, by model/ddbreq.h's names;
 * the others DynamoDB has are UnknownOperationException here. */
static const store_op_fn ops[DDB_OP__COUNT] = {
    [DDB_OP_CreateTable] = store_op_create_table,
    [DDB_OP_DeleteTable] = store_op_delete_table,
    [DDB_OP_DescribeTable] = store_op_describe_table,
    [DDB_OP_ListTables] = store_op_list_tables,
    [DDB_OP_UpdateTable] = store_op_update_table,
    [DDB_OP_PutItem] = store_op_put_item,
    [DDB_OP_GetItem] = store_op_get_item,
    [DDB_OP_DeleteItem] = store_op_delete_item,
    [DDB_OP_UpdateItem] = store_op_update_item,
    [DDB_OP_Query] = store_op_query,
    [DDB_OP_Scan] = store_op_scan,
    [DDB_OP_SearchVectors] = store_op_search_vectors,
    [DDB_OP_BatchWriteItem] = store_op_batch_write,
    [DDB_OP_BatchGetItem] = store_op_batch_get,
    [DDB_OP_TransactWriteItems] = store_op_transact_write,
    [DDB_OP_TransactGetItems] = store_op_transact_get,
    [DDB_OP_ListStreams] = store_op_list_streams,
    [DDB_OP_DescribeStream] = store_op_describe_stream,
    [DDB_OP_GetShardIterator] = store_op_get_shard_iterator,
    [DDB_OP_GetRecords] = store_op_get_records,
    [DDB_OP_ExecuteStatement] = store_op_execute_statement,
    [DDB_OP_BatchExecuteStatement] = store_op_batch_execute_statement,
    [DDB_OP_ExecuteTransaction] = store_op_execute_transaction,
    [DDB_OP_UpdateTimeToLive] = store_op_update_ttl,
    [DDB_OP_DescribeTimeToLive] = store_op_describe_ttl,
    [DDB_OP_TagResource] = store_op_tag_resource,
    [DDB_OP_UntagResource] = store_op_untag_resource,
    [DDB_OP_ListTagsOfResource] = store_op_list_tags,
    [DDB_OP_CreateBackup] = store_op_create_backup,
    [DDB_OP_DescribeBackup] = store_op_describe_backup,
    [DDB_OP_ListBackups] = store_op_list_backups,
    [DDB_OP_DeleteBackup] = store_op_delete_backup,
    [DDB_OP_RestoreTableFromBackup] = store_op_restore_from_backup,
    [DDB_OP_UpdateContinuousBackups] = store_op_update_continuous_backups,
    [DDB_OP_DescribeContinuousBackups] = store_op_describe_continuous_backups,
    [DDB_OP_RestoreTableToPointInTime] = store_op_restore_to_point_in_time,
    [DDB_OP_PutResourcePolicy] = store_op_put_resource_policy,
    [DDB_OP_GetResourcePolicy] = store_op_get_resource_policy,
    [DDB_OP_DeleteResourcePolicy] = store_op_delete_resource_policy,
};

static store_op_fn find_op(const char *op)
{
    int i = ddb_op_find(op);
    return i < 0 ? NULL : ops[i];
}

/* Runs an operation on a parsed request; *out as store_call says. */
static status dispatch(store *s, store_op_fn fn, const cJSON *in, char **out, diag *d)
{
    buf b = BUF_INIT;
    buf_reset(&s->err_extra);
    buf_reset(&s->err_msg);
    status st = fn(s, in, &b, d);
    if (st == ST_OK)
        *out = buf_steal(&b);
    else if (s->err_extra.len)
        *out = xstrdup(s->err_extra.data);
    buf_done(&b);
    return st;
}

status store_call(store *s, const char *op, const char *input, size_t len, char **out, diag *d)
{
    if (s->remote)
        return store_remote_call(s, op, input, len, out, d);
    *out = NULL;
    sop_units_reset();
    store_op_fn fn = find_op(op);
    if (!fn)
        return diag_set(d, ST_UNKNOWN_OPERATION, "Unknown operation: %s", op);
    if (fn == store_op_get_item && store_item_get_fast(s, input, len, out))
        return ST_OK;
    /* ddbjson_cjson_parse refuses what cJSON would pass on altered:
     * invalid UTF-8, raw NUL bytes, \u0000 (which cuts a string short). */
    cJSON *in = NULL;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(input, len, &in, &pd) != ST_OK)
        return diag_set(d, ST_SERIALIZATION, "%s", pd.msg);
    if (!cJSON_IsObject(in)) {
        cJSON_Delete(in);
        return diag_set(d, ST_SERIALIZATION, "Start of list found where not expected");
    }
    status st = dispatch(s, fn, in, out, d);
    cJSON_Delete(in);
    return st;
}

const char *store_error_message(store *s, status st, const diag *d)
{
    if (st == ST_VALIDATION && s->err_msg.len)
        return s->err_msg.data;
    return d->msg;
}

/* Matches lit at *p after white space. */
static bool line_lit(const char **p, const char *end, const char *lit)
{
    while (*p < end && (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n'))
        (*p)++;
    size_t n = strlen(lit);
    if ((size_t)(end - *p) < n || memcmp(*p, lit, n) != 0)
        return false;
    *p += n;
    return true;
}

/* The Input text of a GetItem line as `ddbx api` is sent it,
 * {"Operation":"GetItem","Input":{...}} (members in that order, white
 * space anywhere), for store_item_get_fast, which reads the Input whole;
 * false for any other line, which is parsed the general way. */
static bool get_line_input(const char *line, size_t len, const char **in, size_t *in_len)
{
    const char *p = line, *end = line + len;
    if (!line_lit(&p, end, "{") || !line_lit(&p, end, "\"Operation\"") || !line_lit(&p, end, ":") ||
        !line_lit(&p, end, "\"GetItem\"") || !line_lit(&p, end, ",") || !line_lit(&p, end, "\"Input\"") ||
        !line_lit(&p, end, ":"))
        return false;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r' || end[-1] == '\n'))
        end--;
    if (end == p || end[-1] != '}')
        return false;
    *in = p;
    *in_len = (size_t)(end - 1 - p);
    return true;
}

/* A line's operation on its Input. */
static status line_op(store *s, const char *op, cJSON *in, char **body, diag *d)
{
    store_op_fn fn = find_op(op);
    if (!fn)
        return diag_set(d, ST_UNKNOWN_OPERATION, "Unknown operation: %s", op);
    return dispatch(s, fn, in, body, d);
}

status store_call_line(store *s, const char *line, size_t len, char **out)
{
    if (s->remote)
        return store_remote_call_line(s, line, len, out);
    const char *in;
    size_t in_len;
    char *fast;
    if (get_line_input(line, len, &in, &in_len) && store_item_get_fast(s, in, in_len, &fast)) {
        buf b = BUF_INIT;
        store_line_answer(&b, ST_OK, fast, NULL, NULL, 0);
        free(fast);
        *out = buf_steal(&b);
        return ST_OK;
    }
    return store_line_run(s, line, len, line_op, out);
}

