/*
 * ddbres_meta — the small typed answers of the control-plane operations
 * that are not a family of their own: ListTagsOfResource, the
 * resource-policy operations (PutResourcePolicy, GetResourcePolicy,
 * DeleteResourcePolicy), ListStreams and BatchExecuteStatement's
 * Responses. The store's JSON doors
 * (data/store_tags.c, data/store_policy.c, data/store_streams.c) fill one
 * and print it here, beside ddb_res_json (model/ddbres.h), so no response
 * member is spelled in data/.
 *
 * Members are printed in the order the local store has always printed
 * them (the API references' "Response Syntax" order), the same bytes as
 * before they were typed (tests/model/test_ddbres_meta.c pins them).
 *
 * Ownership: ddb_tags_res and ddb_streams_list own every string they
 * point to (copied by the add functions), freed by their _done; the
 * policy answer borrows its strings for the call. Pure: no I/O.
 */
#ifndef DDBX_DDBRES_META_H
#define DDBX_DDBRES_META_H

#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"

/* ListTagsOfResource: Tags, each Key and Value, in the order added. */
typedef struct ddb_tag {
    char *key, *value;
} ddb_tag;

typedef struct ddb_tags_res {
    ddb_tag *tags;
    size_t n, cap;
} ddb_tags_res;

#define DDB_TAGS_RES_INIT {NULL, 0, 0}

void ddbres_tags_add(ddb_tags_res *r, const char *key, const char *value);
void ddbres_tags_done(ddb_tags_res *r);
/* {"Tags":[{"Key":..,"Value":..},...]} */
void ddbres_tags_json(const ddb_tags_res *r, buf *out);

/* The resource-policy answers: Policy (NULL: not in the answer, as for
 * PutResourcePolicy and DeleteResourcePolicy) and RevisionId. */
typedef struct ddb_policy_res {
    const char *policy;
    const char *revision;
} ddb_policy_res;

void ddbres_policy_json(const ddb_policy_res *r, buf *out);

/* ListStreams: Streams (StreamArn, StreamLabel, TableName each) and
 * LastEvaluatedStreamArn (NULL: the list is whole). */
typedef struct ddb_stream_summary {
    char *arn, *label, *table;
} ddb_stream_summary;

typedef struct ddb_streams_list {
    ddb_stream_summary *streams;
    size_t n, cap;
    char *last;
} ddb_streams_list;

#define DDB_STREAMS_LIST_INIT {NULL, 0, 0, NULL}

void ddbres_streams_list_add(ddb_streams_list *r, const char *arn, const char *label, const char *table);
void ddbres_streams_list_done(ddb_streams_list *r);
/* {"Streams":[...],"LastEvaluatedStreamArn":..} */
void ddbres_streams_list_json(const ddb_streams_list *r, buf *out);

/* BatchExecuteStatement: one response per statement, each an Error
 * (code NULL: none; extra: the error's further members as printed inside
 * its object, e.g. "Item":{...}; NULL: none), a TableName (NULL: the
 * statement named none) and the Item a read found (items, n_items: each
 * printed after "Item":, comma-joined; none for a write). */
typedef struct ddb_stmt_res {
    const char *code;      /* static (ddb_reason_code) */
    char *message, *extra, *table;
    av *items;
    size_t n_items;
} ddb_stmt_res;

/* Frees r's members (not r). */
void ddbres_stmt_done(ddb_stmt_res *r);
/* {"Responses":[...] of the n responses, without the closing brace: the
 * caller appends the ConsumedCapacity it measured and the '}'. */
void ddbres_batch_stmt_open(const ddb_stmt_res *r, size_t n, buf *out);

#endif
