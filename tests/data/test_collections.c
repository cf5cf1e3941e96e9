/*
 * Item collections of tables with a local secondary index (issue 29,
 * item 3): ReturnItemCollectionMetrics SIZE on PutItem, UpdateItem,
 * DeleteItem, BatchWriteItem and TransactWriteItems, and the 10 GB limit
 * of an item collection (ItemCollectionSizeLimitExceededException).
 *
 * Sources: the API reference (PutItem's, BatchWriteItem's and
 * TransactWriteItems' ItemCollectionMetrics: "only returned if the
 * request asked for it. If the table does not have any local secondary
 * indexes, this information is not returned"; BatchWriteItem's and
 * TransactWriteItems' a map of table to a list of {ItemCollectionKey,
 * SizeEstimateRangeGB}, "information about any item collections that were
 * affected"), the developer guide (LSI.html, "Item collection size
 * limit": 10 GB; "Read and write operations that shrink the size of the
 * item collection are still allowed"; Programming.Errors.html:
 * ItemCollectionSizeLimitExceededException, "Message: Collection size
 * exceeded.") and TransactionCanceledException's reference (code
 * ItemCollectionSizeLimitExceeded, message "Collection size exceeded.").
 * DynamoDB's own messages carry no final period on the wire elsewhere
 * ("The conditional request failed"), so none here; DynamoDB Local 3.3
 * defines the same text without one (ErrorFactory COLLECTION_SIZE_EXCEEDED,
 * "Collection size exceeded"), though it never answers it: it returns no
 * ItemCollectionMetrics at all and enforces no limit, and dynalite has
 * neither, so no oracle runs these.
 *
 * The limit is 10 GB (SIZE_COLLECTION_MAX); a test cannot write 10 GB,
 * so store_set_collection_max (data/store_int.h, for tests only) lowers it
 * to a collection's exact size, which the typed answers give in bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tmpstore.h"
#include "callstore.h"
#include "data/store_int.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/size.h"

#define LSI_TABLE "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[" \
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"},{\"AttributeName\":\"sk\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"l\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":" \
    "\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"LocalSecondaryIndexes\":[{\"IndexName\":" \
    "\"byL\",\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"l\"," \
    "\"KeyType\":\"RANGE\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}"

#define PLAIN_TABLE "{\"TableName\":\"tbl\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":[" \
    "{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],\"KeySchema\":[{\"AttributeName\":\"pk\"," \
    "\"KeyType\":\"HASH\"}]}"

/* The tables: "lsi" and "lsi2" with a local index, "tbl" without. */
static void tables(store *s)
{
    char body[1024];
    snprintf(body, sizeof body, LSI_TABLE, "lsi");
    ok(s, "CreateTable", body);
    snprintf(body, sizeof body, LSI_TABLE, "lsi2");
    ok(s, "CreateTable", body);
    ok(s, "CreateTable", PLAIN_TABLE);
}

/* "ItemCollectionMetrics":{...} of one collection, as DynamoDB writes a
 * small one ([0.0, 1.0]: under 1 GB). */
#define ICM(pk) "{\"ItemCollectionKey\":{\"pk\":{\"S\":\"" pk "\"}},\"SizeEstimateRangeGB\":[0.0,1.0]}"

/* A typed request from its JSON body (the kinds this file sends). */
static void parse_req(ddb_kind kind, const char *table, const char *json, ddb_req *r)
{
    ddb_req_init(r, kind);
    ddb_req_set_str(&r->table, table);
    diag d;
    diag_init(&d);
    av *into = kind == DDB_PUT ? &r->item : &r->key;
    assert_int_equal(ddbjson_parse_item(json, strlen(json), into, &d), ST_OK);
}

/* Runs r typed; the status, the answer in res (the caller's to free). */
static status run(store *s, const ddb_req *r, ddb_res *res, ddb_err *e)
{
    ddb_res_init(res);
    ddb_err_init(e);
    return store_exec(s, r, res, e);
}

/* The bytes of collection pk of table as a typed write with
 * ReturnItemCollectionMetrics SIZE answers them (its one entry). */
static uint64_t entry_bytes(const ddb_res *res, const char *table, const char *pk)
{
    for (size_t i = 0; i < res->n_icm; i++) {
        const ddb_icm *m = &res->icm[i];
        const av *v = av_map_get(&m->key, "pk", 2);
        if (strcmp(m->table, table) == 0 && v && v->type == AV_S && v->u.s.len == strlen(pk) &&
            memcmp(v->u.s.ptr, pk, v->u.s.len) == 0)
            return m->bytes;
    }
    fail_msg("no ItemCollectionMetrics entry for %s %s", table, pk);
    return 0;
}

/* A typed PutItem (or DeleteItem, item then being a key) of table with
 * SIZE: the collection's bytes after it. */
static uint64_t write_bytes(store *s, ddb_kind kind, const char *table, const char *item)
{
    ddb_req r;
    parse_req(kind, table, item, &r);
    r.icm = true;
    ddb_res res;
    ddb_err e;
    if (run(s, &r, &res, &e) != ST_OK)
        fail_msg("%s", ddb_err_message(&e));
    assert_int_equal(res.n_icm, 1);
    const av *pk = av_map_get(&res.icm[0].key, "pk", 2);
    assert_non_null(pk);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)pk->u.s.len, pk->u.s.ptr);
    uint64_t n = entry_bytes(&res, table, name);
    ddb_res_done(&res);
    ddb_err_done(&e);
    ddb_req_done(&r);
    return n;
}

/* op with body (fmt: its one %s the request's last members) answers
 * want_size asked with SIZE, want_none asked with NONE or not asked. */
static void asked(store *s, const char *op, const char *fmt, const char *want_size, const char *want_none)
{
    static const char *const members[] = { ",\"ReturnItemCollectionMetrics\":\"SIZE\"",
                                           ",\"ReturnItemCollectionMetrics\":\"NONE\"", "" };
    char body[2048];
    for (int i = 0; i < 3; i++) {
        snprintf(body, sizeof body, fmt, members[i]);
        ok(s, op, body);
        assert_string_equal(out_text, i ? want_none : want_size);
    }
}

/* PutItem, UpdateItem, DeleteItem: the item's partition key and the
 * collection's estimate; NONE or a table without a local index: none. */
static void single_writes(void **state)
{
    store *s = *state;
    tables(s);
    ok(s, "PutItem", "{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"l\":"
       "{\"S\":\"x\"}},\"ReturnItemCollectionMetrics\":\"SIZE\"}");
    assert_string_equal(out_text, "{\"ItemCollectionMetrics\":" ICM("a") "}");
    ok(s, "UpdateItem", "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}},"
       "\"UpdateExpression\":\"SET l = :l\",\"ExpressionAttributeValues\":{\":l\":{\"S\":\"y\"}},"
       "\"ReturnItemCollectionMetrics\":\"SIZE\",\"ReturnValues\":\"UPDATED_NEW\"}");
    assert_string_equal(out_text, "{\"Attributes\":{\"l\":{\"S\":\"y\"}},\"ItemCollectionMetrics\":" ICM("a") "}");
    ok(s, "PutItem", "{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"3\"}},"
       "\"ReturnItemCollectionMetrics\":\"NONE\"}");
    assert_string_equal(out_text, "{}");
    ok(s, "PutItem", "{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"a\"}},\"ReturnItemCollectionMetrics\":"
       "\"SIZE\"}");
    assert_string_equal(out_text, "{}");
    /* The size is the collection's items and local index entries: it
     * falls with each delete, to nothing. */
    uint64_t two = write_bytes(s, DDB_DELETE, "lsi", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"3\"}}");
    uint64_t one = write_bytes(s, DDB_DELETE, "lsi", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}");
    uint64_t none = write_bytes(s, DDB_DELETE, "lsi", "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}");
    assert_true(two > one);
    assert_true(one > 0);
    assert_int_equal(none, 0);
}

/* BatchWriteItem: per table with a local index, one entry an item
 * collection the batch wrote (several writes to one collection: one
 * entry), in the order the batch first wrote each; tables without a
 * local index have none, and without SIZE there is no member. */
static void batch_write(void **state)
{
    store *s = *state;
    tables(s);
    ok(s, "PutItem", "{\"TableName\":\"lsi2\",\"Item\":{\"pk\":{\"S\":\"c\"},\"sk\":{\"S\":\"1\"}}}");
    const char *batch = "{\"RequestItems\":{\"lsi\":["
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},\"l\":{\"S\":\"x\"}}}},"
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}}}},"
        "{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"2\"}}}}],"
        "\"tbl\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"t\"}}}}],"
        "\"lsi2\":[{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"c\"},\"sk\":{\"S\":\"1\"}}}}]}%s}";
    asked(s, "BatchWriteItem", batch, "{\"UnprocessedItems\":{},\"ItemCollectionMetrics\":{\"lsi\":["
          ICM("b") "," ICM("a") "],\"lsi2\":[" ICM("c") "]}}", "{\"UnprocessedItems\":{}}");
    ok(s, "BatchWriteItem", "{\"RequestItems\":{\"tbl\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"u\"}}}}]},"
       "\"ReturnItemCollectionMetrics\":\"SIZE\"}");
    assert_string_equal(out_text, "{\"UnprocessedItems\":{}}");
    /* With ConsumedCapacity: both members (the API reference's order of
     * the response: ConsumedCapacity, ItemCollectionMetrics). */
    ok(s, "BatchWriteItem", "{\"RequestItems\":{\"lsi\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"},"
       "\"sk\":{\"S\":\"9\"}}}}]},\"ReturnItemCollectionMetrics\":\"SIZE\",\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_string_equal(out_text, "{\"UnprocessedItems\":{},\"ConsumedCapacity\":[{\"CapacityUnits\":1,"
                        "\"TableName\":\"lsi\"}],\"ItemCollectionMetrics\":{\"lsi\":[" ICM("a") "]}}");

    /* Typed: the entries carry each collection's bytes after the batch,
     * the same a single write of the collection then reports. */
    ddb_req b;
    ddb_req_init(&b, DDB_BATCH_WRITE);
    b.icm = true;
    ddb_req *p = ddb_req_add(&b, DDB_PUT);
    ddb_req_set_str(&p->table, "lsi");
    diag d;
    diag_init(&d);
    const char *item = "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"3\"},\"v\":{\"S\":\"0123456789\"}}";
    assert_int_equal(ddbjson_parse_item(item, strlen(item), &p->item, &d), ST_OK);
    p = ddb_req_add(&b, DDB_DELETE);
    ddb_req_set_str(&p->table, "lsi");
    const char *key = "{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"}}";
    assert_int_equal(ddbjson_parse_item(key, strlen(key), &p->key, &d), ST_OK);
    ddb_res res;
    ddb_err e;
    assert_int_equal(run(s, &b, &res, &e), ST_OK);
    assert_int_equal(res.n_icm, 1);
    uint64_t after = entry_bytes(&res, "lsi", "b");
    assert_int_equal(write_bytes(s, DDB_PUT, "lsi", item), after);
    ddb_res_done(&res);
    ddb_err_done(&e);
    ddb_req_done(&b);
}

/* TransactWriteItems: the same shape; a ConditionCheck writes nothing
 * and an Update that creates nothing neither, so neither has an entry. */
static void transact_write(void **state)
{
    store *s = *state;
    tables(s);
    ok(s, "PutItem", "{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"S\":\"1\"}}}");
    const char *tx = "{\"TransactItems\":["
        "{\"Put\":{\"TableName\":\"lsi2\",\"Item\":{\"pk\":{\"S\":\"c\"},\"sk\":{\"S\":\"1\"}}}},"
        "{\"Update\":{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"}},"
        "\"UpdateExpression\":\"SET l = :l\",\"ExpressionAttributeValues\":{\":l\":{\"S\":\"x\"}}}},"
        "{\"Update\":{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"n\"},\"sk\":{\"S\":\"1\"}},"
        "\"UpdateExpression\":\"REMOVE l\"}},"
        "{\"ConditionCheck\":{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"k\"},\"sk\":{\"S\":\"1\"}},"
        "\"ConditionExpression\":\"attribute_exists(pk)\"}},"
        "{\"Delete\":{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}}},"
        "{\"Put\":{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"t\"}}}}]%s}";
    asked(s, "TransactWriteItems", tx, "{\"ItemCollectionMetrics\":{\"lsi2\":[" ICM("c") "],\"lsi\":["
          ICM("a") "]}}", "{}");
    ok(s, "TransactWriteItems", "{\"TransactItems\":[{\"Put\":{\"TableName\":\"tbl\",\"Item\":{\"pk\":"
       "{\"S\":\"u\"}}}}],\"ReturnItemCollectionMetrics\":\"SIZE\",\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_string_equal(out_text, "{\"ConsumedCapacity\":[{\"CapacityUnits\":2,\"TableName\":\"tbl\"}]}");
    /* A cancelled transaction answers its error, no metrics. */
    refused(s, "TransactWriteItems", "{\"TransactItems\":[{\"Put\":{\"TableName\":\"lsi\",\"Item\":{\"pk\":"
            "{\"S\":\"a\"},\"sk\":{\"S\":\"5\"}},\"ConditionExpression\":\"attribute_exists(pk)\"}}],"
            "\"ReturnItemCollectionMetrics\":\"SIZE\"}", ST_TXN_CANCELED, "Transaction cancelled, please"
            " refer cancellation reasons for specific reasons [ConditionalCheckFailed]");
}

/* The typed request and the printed one carry the member (a remote
 * endpoint and `aws dynamodb` get what was asked). */
static void printed(void **state)
{
    (void)state;
    ddb_req b;
    ddb_req_init(&b, DDB_BATCH_WRITE);
    b.icm = true;
    ddb_req *p = ddb_req_add(&b, DDB_PUT);
    ddb_req_set_str(&p->table, "lsi");
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item("{\"pk\":{\"S\":\"a\"}}", 16, &p->item, &d), ST_OK);
    buf out = BUF_INIT;
    ddb_req_json(&b, &out);
    assert_string_equal(out.data, "{\"RequestItems\":{\"lsi\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"}}}}]},"
                                  "\"ReturnItemCollectionMetrics\":\"SIZE\"}");
    buf_reset(&out);
    ddb_req_cli(&b, &out);
    assert_string_equal(out.data, "aws dynamodb batch-write-item --request-items "
                                  "'{\"lsi\":[{\"PutRequest\":{\"Item\":{\"pk\":{\"S\":\"a\"}}}}]}'"
                                  " --return-item-collection-metrics SIZE");
    ddb_req t;
    ddb_req_init(&t, DDB_TRANSACT_WRITE);
    t.icm = true;
    p = ddb_req_add(&t, DDB_PUT);
    ddb_req_set_str(&p->table, "lsi");
    assert_int_equal(ddbjson_parse_item("{\"pk\":{\"S\":\"a\"}}", 16, &p->item, &d), ST_OK);
    buf_reset(&out);
    ddb_req_json(&t, &out);
    assert_string_equal(out.data, "{\"TransactItems\":[{\"Put\":{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":"
                                  "\"a\"}}}}],\"ReturnItemCollectionMetrics\":\"SIZE\"}");
    buf_done(&out);
    ddb_req_done(&t);
    ddb_req_done(&b);
}

/* ---- the 10 GB limit ---- */

static const char *const item_a1 = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"1\"},\"l\":{\"S\":\"x\"}}";
#define PUT_A2_ITEM "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"},\"v\":{\"S\":\"0123456789\"}}"
static const char *const item_a2 = PUT_A2_ITEM;
static const char *const key_a2 = "{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}";

/* Collection a of "lsi" holding a1 only, and its bytes with a2 too
 * (*with) and without (*without); the limit is then the default. */
static void sizes(store *s, uint64_t *without, uint64_t *with)
{
    tables(s);
    *without = write_bytes(s, DDB_PUT, "lsi", item_a1);
    *with = write_bytes(s, DDB_PUT, "lsi", item_a2);
    assert_int_equal(write_bytes(s, DDB_DELETE, "lsi", key_a2), *without);
    assert_true(*with > *without);
}

#define PUT_A2 "{\"TableName\":\"lsi\",\"Item\":" PUT_A2_ITEM "}"
#define GET_A2 "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}}"
#define DELETE_A2 GET_A2

static void limit_constant(void **state)
{
    (void)state;
    /* "The maximum size of any item collection ... is 10 GB" (developer
     * guide, LSI.html), in DynamoDB's units (1 KB = 1024 bytes). */
    assert_true(SIZE_COLLECTION_MAX == 10ull * 1024 * 1024 * 1024);
}

/* GetItem's and DeleteItem's request of item t of "tbl". */
#define REQ_T "{\"TableName\":\"tbl\",\"Key\":{\"pk\":{\"S\":\"t\"}}}"

/* A write (op, body) that puts a2, and maybe t into "tbl": exactly at the
 * limit it is accepted (and then undone), one byte over refused with
 * want and msg, and nothing of it written. Returns the size with a2. */
static uint64_t boundary(store *s, const char *op, const char *body, status want, const char *msg)
{
    uint64_t without, with;
    sizes(s, &without, &with);
    store_set_collection_max(s, with);
    ok(s, op, body);
    ok(s, "DeleteItem", DELETE_A2);
    ok(s, "DeleteItem", REQ_T);
    store_set_collection_max(s, with - 1);
    refused(s, op, body, want, msg);
    ok(s, "GetItem", GET_A2);
    assert_string_equal(out_text, "{}");
    ok(s, "GetItem", REQ_T);
    assert_string_equal(out_text, "{}");
    return with;
}

/* PutItem: the boundary; a table without a local index has no limit,
 * and another collection of the same table is its own. */
static void limit_put(void **state)
{
    store *s = *state;
    boundary(s, "PutItem", PUT_A2, ST_COLLECTION_LIMIT, "Collection size exceeded");
    /* PartiQL's INSERT is a PutItem (the limit is one byte under a2 now). */
    refused(s, "ExecuteStatement", "{\"Statement\":\"INSERT INTO \\\"lsi\\\" VALUE {'pk': 'a', 'sk': '2',"
            " 'v': '0123456789'}\"}", ST_COLLECTION_LIMIT, "Collection size exceeded");
    /* The error's type on the JSON door and on the wire. */
    assert_string_equal(status_name(ST_COLLECTION_LIMIT), "ItemCollectionSizeLimitExceededException");
    store_set_collection_max(s, 1);
    ok(s, "PutItem", "{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"big\"},\"v\":{\"S\":\"0123456789\"}}}");
    uint64_t without = write_bytes(s, DDB_PUT, "lsi", item_a1);
    store_set_collection_max(s, without);
    ok(s, "PutItem", "{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":\"b\"},\"sk\":{\"S\":\"1\"},\"l\":"
       "{\"S\":\"x\"}}}");
}

/* UpdateItem growing an item: the same boundary. */
static void limit_update(void **state)
{
    store *s = *state;
    uint64_t without, with;
    sizes(s, &without, &with);
    ok(s, "PutItem", "{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}}");
    const char *grow = "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}},"
                       "\"UpdateExpression\":\"SET v = :v\",\"ExpressionAttributeValues\":{\":v\":"
                       "{\"S\":\"0123456789\"}}}";
    const char *undo = "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}},"
                       "\"UpdateExpression\":\"REMOVE v\"}";
    store_set_collection_max(s, with);
    ok(s, "UpdateItem", grow);
    ok(s, "UpdateItem", undo);
    store_set_collection_max(s, with - 1);
    refused(s, "UpdateItem", grow, ST_COLLECTION_LIMIT, "Collection size exceeded");
    ok(s, "GetItem", GET_A2);
    assert_string_equal(out_text, "{\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}}}");
}

/* Over the limit (lowered below the collection's size), writes that
 * shrink the collection or keep its size still go; one that grows it
 * does not. */
static void limit_shrink(void **state)
{
    store *s = *state;
    uint64_t without, with;
    sizes(s, &without, &with);
    ok(s, "PutItem", PUT_A2);
    store_set_collection_max(s, without - 1);
    ok(s, "UpdateItem", "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}},"
       "\"UpdateExpression\":\"SET v = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"9876543210\"}}}");
    ok(s, "UpdateItem", "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}},"
       "\"UpdateExpression\":\"SET v = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"0\"}}}");
    refused(s, "UpdateItem", "{\"TableName\":\"lsi\",\"Key\":{\"pk\":{\"S\":\"a\"},\"sk\":{\"S\":\"2\"}},"
            "\"UpdateExpression\":\"SET w = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"0\"}}}",
            ST_COLLECTION_LIMIT, "Collection size exceeded");
    ok(s, "DeleteItem", DELETE_A2);
    ok(s, "BatchWriteItem", "{\"RequestItems\":{\"lsi\":[{\"DeleteRequest\":{\"Key\":{\"pk\":{\"S\":\"a\"},"
       "\"sk\":{\"S\":\"1\"}}}}]}}");
}

/* BatchWriteItem: the boundary; over it the whole batch is refused and
 * nothing of it written (ddbx applies a batch in one transaction:
 * DynamoDB's BatchWriteItem is not atomic, and the API reference lists
 * ItemCollectionSizeLimitExceededException among its errors without
 * saying what of the batch was written first). */
static void limit_batch(void **state)
{
    boundary(*state, "BatchWriteItem", "{\"RequestItems\":{\"tbl\":[{\"PutRequest\":{\"Item\":{\"pk\":"
             "{\"S\":\"t\"}}}}],\"lsi\":[{\"PutRequest\":{\"Item\":" PUT_A2_ITEM "}}]}}", ST_COLLECTION_LIMIT,
             "Collection size exceeded");
}

/* TransactWriteItems: the boundary; over it the transaction is cancelled
 * with ItemCollectionSizeLimitExceeded for the action that grew the
 * collection past the limit and None for the others. */
static void limit_transaction(void **state)
{
    store *s = *state;
    const char *tx = "{\"TransactItems\":[{\"Put\":{\"TableName\":\"tbl\",\"Item\":{\"pk\":{\"S\":\"t\"}}}},"
                     "{\"Put\":{\"TableName\":\"lsi\",\"Item\":" PUT_A2_ITEM "}}]}";
    uint64_t with = boundary(s, "TransactWriteItems", tx, ST_TXN_CANCELED, "Transaction cancelled, please"
                             " refer cancellation reasons for specific reasons [None,"
                             " ItemCollectionSizeLimitExceeded]");
    char *out = NULL;
    char line[1024];
    snprintf(line, sizeof line, "{\"Operation\":\"TransactWriteItems\",\"Input\":%s}", tx);
    assert_int_equal(store_call_line(s, line, strlen(line), &out), ST_TXN_CANCELED);
    assert_non_null(strstr(out, "\"CancellationReasons\":[{\"Code\":\"None\"},{\"Code\":"
                                "\"ItemCollectionSizeLimitExceeded\",\"Message\":\"Collection size exceeded\"}]"));
    free(out);
    /* Two actions on one collection: the second puts it over, and the
     * first, which alone fits, is cancelled with it (None). */
    store_set_collection_max(s, with);
    refused(s, "TransactWriteItems", "{\"TransactItems\":[{\"Put\":{\"TableName\":\"lsi\",\"Item\":"
            PUT_A2_ITEM "}},{\"Put\":{\"TableName\":\"lsi\",\"Item\":{\"pk\":{\"S\":\"a\"},\"sk\":"
            "{\"S\":\"3\"}}}}]}", ST_TXN_CANCELED,
            "Transaction cancelled, please refer cancellation reasons for specific reasons [None,"
            " ItemCollectionSizeLimitExceeded]");
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(single_writes),
        T(batch_write),
        T(transact_write),
        T(printed),
        T(limit_constant),
        T(limit_put),
        T(limit_update),
        T(limit_shrink),
        T(limit_batch),
        T(limit_transaction),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
