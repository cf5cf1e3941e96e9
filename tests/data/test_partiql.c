/*
 * PartiQL in the store, against the bundled samples: ExecuteStatement for
 * every statement kind, BatchExecuteStatement, ExecuteTransaction, and the
 * explorer's typed store_partiql_page.
 *
 * dynalite has no PartiQL, so the expectations are pinned from the AWS
 * developer guide ("PartiQL select/insert/update/delete statements for
 * DynamoDB", "Running batch operations with PartiQL", "Performing
 * transactions with PartiQL", the ExecuteStatement, BatchExecuteStatement
 * and ExecuteTransaction API reference), quoted at each test: a SELECT
 * whose WHERE has an equality or IN on the partition key is a Query, else
 * a full Scan (and the capacity is the Query's or the Scan's); INSERT of
 * an existing key is DuplicateItemException; an UPDATE whose WHERE matches
 * no item is ConditionalCheckFailedException; a DELETE of a missing item
 * succeeds, of an item failing the condition is
 * ConditionalCheckFailedException; batches hold up to 25 statements, all
 * reads or all writes, reads with the full key; transactions up to 100,
 * all or nothing. Capacity and paging are compared with the store's own
 * Query and Scan on the same data, which the store tests pin elsewhere.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/samples.h"
#include "data/store.h"
#include "model/av.h"

static char db_path[64];

static int setup(void **state)
{
    snprintf(db_path, sizeof db_path, "/tmp/ddbx-partiql-%d.db", (int)getpid());
    store *s = NULL;
    diag d;
    diag_init(&d);
    if (store_open(db_path, 0, &s, &d) != ST_OK)
        return -1;
    size_t tables = 0, items = 0;
    if (samples_load(s, &tables, &items, &d) != ST_OK) {
        store_close(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    char p[80];
    unlink(db_path);
    snprintf(p, sizeof p, "%s-wal", db_path);
    unlink(p);
    snprintf(p, sizeof p, "%s-shm", db_path);
    unlink(p);
    return 0;
}

/* One call that must succeed; the parsed response. */
static cJSON *call(store *s, const char *op, const char *input)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status rc = store_call(s, op, input, strlen(input), &out, &d);
    if (rc != ST_OK)
        fprintf(stderr, "%s failed: %s: %s\n", op, status_name(rc), d.msg);
    assert_int_equal(rc, ST_OK);
    cJSON *j = cJSON_Parse(out);
    free(out);
    assert_non_null(j);
    return j;
}

/* One call that must fail with want and a message containing msg; the
 * error's extra members (or NULL). */
static cJSON *fails(store *s, const char *op, const char *input, status want, const char *msg)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status rc = store_call(s, op, input, strlen(input), &out, &d);
    const char *whole = store_error_message(s, rc, &d);
    if (rc != want || !strstr(whole, msg))
        fprintf(stderr, "%s: got %s: %s\n", input, status_name(rc), whole);
    assert_int_equal(rc, want);
    assert_non_null(strstr(whole, msg));
    cJSON *j = out ? cJSON_Parse(out) : NULL;
    free(out);
    return j;
}

static cJSON *exec(store *s, const char *input)
{
    return call(s, "ExecuteStatement", input);
}

static int count(const cJSON *resp, const char *member)
{
    return cJSON_GetArraySize(cJSON_GetObjectItem(resp, member));
}

static double units(const cJSON *resp)
{
    const cJSON *cc = cJSON_GetObjectItem(resp, "ConsumedCapacity");
    if (cJSON_IsArray(cc))
        cc = cJSON_GetArrayItem(cc, 0);
    const cJSON *u = cJSON_GetObjectItem(cc, "CapacityUnits");
    assert_true(cJSON_IsNumber(u));
    return u->valuedouble;
}

static const char *item_s(const cJSON *item, const char *name)
{
    const cJSON *v = cJSON_GetObjectItem(cJSON_GetObjectItem(item, name), "S");
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* Guide: "SELECT * FROM Orders WHERE OrderID = 100" does not scan. Same
 * items and capacity as the Query with the same key condition. */
static void select_on_partition_is_a_query(void **state)
{
    store *s = *state;
    cJSON *pq = exec(s, "{\"Statement\":\"SELECT * FROM SocialGraph WHERE PK = 'ACTOR#alice' "
                        "AND begins_with(SK, 'TARGET#')\",\"ReturnConsumedCapacity\":\"TOTAL\"}");
    cJSON *q = call(s, "Query", "{\"TableName\":\"SocialGraph\",\"KeyConditionExpression\":"
                                "\"PK = :p AND begins_with(SK, :t)\",\"ExpressionAttributeValues\":"
                                "{\":p\":{\"S\":\"ACTOR#alice\"},\":t\":{\"S\":\"TARGET#\"}},"
                                "\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_int_equal(count(pq, "Items"), count(q, "Items"));
    assert_int_equal(count(pq, "Items"), 3);
    assert_true(units(pq) == units(q));
    assert_string_equal(item_s(cJSON_GetArrayItem(cJSON_GetObjectItem(pq, "Items"), 0), "SK"),
                        "TARGET#bob");
    cJSON_Delete(pq);
    cJSON_Delete(q);
}

/* Guide: "SELECT * FROM Orders WHERE Address='some address'" is a full
 * table scan: its capacity is the Scan's, far above one partition's. */
static void select_without_partition_is_a_scan(void **state)
{
    store *s = *state;
    cJSON *pq = exec(s, "{\"Statement\":\"SELECT PK FROM SocialGraph WHERE SK = 'TARGET#bob'\","
                        "\"ReturnConsumedCapacity\":\"TOTAL\"}");
    cJSON *scan = call(s, "Scan", "{\"TableName\":\"SocialGraph\",\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_null(cJSON_GetObjectItem(scan, "LastEvaluatedKey"));   /* one page */
    assert_true(units(pq) == units(scan));
    assert_true(units(pq) > 1);
    /* alice and dave follow bob (DESIGN.md's sample) */
    assert_int_equal(count(pq, "Items"), 2);
    cJSON_Delete(pq);
    cJSON_Delete(scan);
}

/* Guide: FROM "TableName"."IndexName" queries the index. */
static void select_from_an_index(void **state)
{
    store *s = *state;
    cJSON *pq = exec(s, "{\"Statement\":\"SELECT PK FROM \\\"SocialGraph\\\".\\\"GSI1\\\" "
                        "WHERE GSI1PK = ?\",\"Parameters\":[{\"S\":\"TARGET#bob\"}]}");
    const cJSON *items = cJSON_GetObjectItem(pq, "Items");
    assert_int_equal(cJSON_GetArraySize(items), 2);
    assert_string_equal(item_s(cJSON_GetArrayItem(items, 0), "PK"), "ACTOR#alice");
    assert_string_equal(item_s(cJSON_GetArrayItem(items, 1), "PK"), "ACTOR#dave");
    /* projection: only the attribute named */
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(items, 0), "SK"));
    cJSON_Delete(pq);
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM SocialGraph.Nope WHERE PK = 'x'\"}",
          ST_VALIDATION, "does not have the specified index");
}

/* Guide: "WHERE OrderID IN [100, 300, 234]" and "OrderID = 100 or OrderID
 * = 200" do not scan: one Query a partition; ORDER BY the sort key DESC. */
static void in_list_or_and_order_by(void **state)
{
    store *s = *state;
    cJSON *a = exec(s, "{\"Statement\":\"SELECT PK, SK FROM Music WHERE PK IN ['s#song2', 's#song1'] "
                       "AND SK = 'A'\",\"ReturnConsumedCapacity\":\"TOTAL\"}");
    const cJSON *items = cJSON_GetObjectItem(a, "Items");
    assert_int_equal(cJSON_GetArraySize(items), 2);
    assert_string_equal(item_s(cJSON_GetArrayItem(items, 0), "PK"), "s#song1");
    assert_true(units(a) == 1.0);    /* two Queries of 0.5 */
    cJSON *b = exec(s, "{\"Statement\":\"SELECT PK FROM Music WHERE PK = 's#song1' OR PK = 's#song2'\"}");
    assert_true(count(b, "Items") > 2);
    cJSON *c = exec(s, "{\"Statement\":\"SELECT SK FROM Music WHERE PK = 's#song1' ORDER BY SK DESC\"}");
    const cJSON *ci = cJSON_GetObjectItem(c, "Items");
    assert_string_equal(item_s(cJSON_GetArrayItem(ci, 0), "SK"), "d#download-4");
    assert_string_equal(item_s(cJSON_GetArrayItem(ci, cJSON_GetArraySize(ci) - 1), "SK"), "A");
    cJSON_Delete(a);
    cJSON_Delete(b);
    cJSON_Delete(c);
    /* ORDER BY needs a WHERE; on a Scan it has no key order to follow */
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Music ORDER BY SK\"}", ST_VALIDATION,
          "Must have WHERE clause in the statement when using ORDER BY clause.");
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Music WHERE title = 'x' ORDER BY SK\"}",
          ST_VALIDATION, "Order by");
}

/* API reference: Limit is the number of items to evaluate; NextToken
 * continues. Pages of 2 over the celebrity-free partition of alice see
 * every item once, and filters apply after Limit, like Query's. */
static void limit_and_next_token(void **state)
{
    store *s = *state;
    char req[512], *token = NULL;
    int seen = 0, pages = 0;
    do {
        snprintf(req, sizeof req,
                 "{\"Statement\":\"SELECT SK FROM SocialGraph WHERE PK = 'ACTOR#alice'\",\"Limit\":2%s%s%s}",
                 token ? ",\"NextToken\":\"" : "", token ? token : "", token ? "\"" : "");
        free(token);
        token = NULL;
        cJSON *r = exec(s, req);
        seen += count(r, "Items");
        pages++;
        const cJSON *nt = cJSON_GetObjectItem(r, "NextToken");
        if (cJSON_IsString(nt))
            token = strdup(nt->valuestring);
        cJSON_Delete(r);
    } while (token && pages < 10);
    assert_int_equal(seen, 4);
    assert_true(pages >= 2);
    cJSON *f = exec(s, "{\"Statement\":\"SELECT SK FROM SocialGraph WHERE PK = 'ACTOR#alice' AND "
                       "SK = 'TARGET#star'\",\"Limit\":1}");
    assert_int_equal(count(f, "Items"), 1);
    cJSON_Delete(f);
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Music\",\"NextToken\":\"bm9wZQ==\"}",
          ST_VALIDATION, "NextToken");
}

/* ConsistentRead: strongly consistent reads cost twice (read units). */
static void consistent_read(void **state)
{
    store *s = *state;
    cJSON *e = exec(s, "{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#song1'\","
                       "\"ReturnConsumedCapacity\":\"TOTAL\"}");
    cJSON *c = exec(s, "{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#song1'\","
                       "\"ConsistentRead\":true,\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_true(units(c) == 2 * units(e));
    cJSON_Delete(e);
    cJSON_Delete(c);
}

/* Guide (insert): "If the DynamoDB table already has an item with the
 * same primary key ... DuplicateItemException is returned." */
static void insert_and_duplicate(void **state)
{
    store *s = *state;
    cJSON *r = exec(s, "{\"Statement\":\"INSERT INTO Music VALUE {'PK': ?, 'SK': 'A', 'title': '노래', "
                       "'tags': <<'a', 'b'>>, 'n': 1.50, 'ok': TRUE, 'm': {'l': [1, NULL]}}\","
                       "\"Parameters\":[{\"S\":\"s#pq-insert\"}],\"ReturnConsumedCapacity\":\"TOTAL\"}");
    assert_int_equal(count(r, "Items"), 0);
    assert_true(units(r) == 1.0);
    cJSON_Delete(r);
    cJSON *g = call(s, "GetItem", "{\"TableName\":\"Music\",\"Key\":{\"PK\":{\"S\":\"s#pq-insert\"},"
                                  "\"SK\":{\"S\":\"A\"}}}");
    const cJSON *it = cJSON_GetObjectItem(g, "Item");
    assert_string_equal(item_s(it, "title"), "노래");
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "n"), "N")->valuestring, "1.5");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "tags"), "SS")), 2);
    cJSON_Delete(g);
    fails(s, "ExecuteStatement", "{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-insert', 'SK': 'A'}\"}",
          ST_DUPLICATE_ITEM, "Duplicate primary key exists in table");
    fails(s, "ExecuteStatement", "{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#x'}\"}",
          ST_VALIDATION, "Missing the key SK");
    fails(s, "ExecuteStatement", "{\"Statement\":\"INSERT INTO Nope VALUE {'PK': 's#x', 'SK': 'A'}\"}",
          ST_NOT_FOUND, "");
}

/* Guide (update): SET/REMOVE, RETURNING; "If the WHERE clause of the
 * UPDATE statement does not evaluate to true for any item ...
 * ConditionalCheckFailedException"; the condition must resolve to a
 * single primary key. */
static void update(void **state)
{
    store *s = *state;
    cJSON_Delete(exec(s, "{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-up', 'SK': 'A', "
                         "'plays': 1, 'l': [1], 'tags': <<'x'>>, 'old': 'y'}\"}"));
    cJSON *r = exec(s, "{\"Statement\":\"UPDATE Music SET plays = plays + 2, l = list_append(l, [2]) "
                       "SET tags = set_add(tags, <<'z'>>) REMOVE old WHERE PK = 's#pq-up' AND SK = 'A' "
                       "AND plays = 1 RETURNING ALL NEW *\"}");
    const cJSON *it = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "Items"), 0);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "plays"), "N")->valuestring, "3");
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "l"), "L")), 2);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "tags"), "SS")), 2);
    assert_null(cJSON_GetObjectItem(it, "old"));
    cJSON_Delete(r);
    r = exec(s, "{\"Statement\":\"UPDATE Music SET plays = 7 WHERE PK = 's#pq-up' AND SK = 'A' "
                "RETURNING MODIFIED OLD *\"}");
    it = cJSON_GetArrayItem(cJSON_GetObjectItem(r, "Items"), 0);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(it, "plays"), "N")->valuestring, "3");
    assert_null(cJSON_GetObjectItem(it, "l"));
    cJSON_Delete(r);
    fails(s, "ExecuteStatement", "{\"Statement\":\"UPDATE Music SET plays = 1 WHERE PK = 's#pq-none' "
                                 "AND SK = 'A'\"}", ST_CONDITION_FAILED, "The conditional request failed");
    fails(s, "ExecuteStatement", "{\"Statement\":\"UPDATE Music SET plays = 1 WHERE PK = 's#pq-up' "
                                 "AND SK = 'A' AND plays = 100\"}", ST_CONDITION_FAILED, "conditional");
    fails(s, "ExecuteStatement", "{\"Statement\":\"UPDATE Music SET plays = 1 WHERE PK = 's#pq-up'\"}",
          ST_VALIDATION, "Where clause does not contain a mandatory equality on all key attributes");
    fails(s, "ExecuteStatement", "{\"Statement\":\"UPDATE Music SET plays = 1 WHERE PK = 's#pq-up' "
                                 "OR SK = 'A'\"}", ST_VALIDATION, "mandatory equality");
    /* ReturnValuesOnConditionCheckFailure carries the item */
    cJSON *x = fails(s, "ExecuteStatement", "{\"Statement\":\"UPDATE Music SET plays = 1 WHERE "
                                            "PK = 's#pq-up' AND SK = 'A' AND plays = 0\","
                                            "\"ReturnValuesOnConditionCheckFailure\":\"ALL_OLD\"}",
                     ST_CONDITION_FAILED, "conditional");
    assert_non_null(x);
    assert_non_null(cJSON_GetObjectItem(x, "Item"));
    cJSON_Delete(x);
}

/* Guide (delete): "If the DynamoDB table does not have any item with the
 * same primary key ... SUCCESS is returned with 0 items deleted. If the
 * table has an item with same primary key, but the condition in the WHERE
 * clause ... evaluates to false, ConditionalCheckFailedException";
 * RETURNING ALL OLD * returns the deleted item, and only ALL OLD is
 * allowed. */
static void delete(void **state)
{
    store *s = *state;
    cJSON_Delete(exec(s, "{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-del', 'SK': 'A', 'v': 1}\"}"));
    cJSON_Delete(exec(s, "{\"Statement\":\"DELETE FROM Music WHERE PK = 's#pq-gone' AND SK = 'A'\"}"));
    cJSON_Delete(exec(s, "{\"Statement\":\"DELETE FROM Music WHERE PK = 's#pq-gone' AND SK = 'A' AND v = 2\"}"));
    fails(s, "ExecuteStatement", "{\"Statement\":\"DELETE FROM Music WHERE PK = 's#pq-del' AND SK = 'A' "
                                 "AND v = 2\"}", ST_CONDITION_FAILED, "conditional");
    fails(s, "ExecuteStatement", "{\"Statement\":\"DELETE FROM Music WHERE PK = 's#pq-del' AND SK = 'A' "
                                 "RETURNING ALL NEW *\"}", ST_VALIDATION,
          "Only RETURNING ALL OLD * is allowed in DELETE statements.");
    cJSON *r = exec(s, "{\"Statement\":\"DELETE FROM Music WHERE PK = 's#pq-del' AND SK = 'A' AND v = 1 "
                       "RETURNING ALL OLD *\"}");
    assert_string_equal(item_s(cJSON_GetArrayItem(cJSON_GetObjectItem(r, "Items"), 0), "PK"), "s#pq-del");
    cJSON_Delete(r);
    cJSON *g = call(s, "GetItem", "{\"TableName\":\"Music\",\"Key\":{\"PK\":{\"S\":\"s#pq-del\"},"
                                  "\"SK\":{\"S\":\"A\"}}}");
    assert_null(cJSON_GetObjectItem(g, "Item"));
    cJSON_Delete(g);
}

/* Syntax errors say where; parameters must match the markers. */
static void errors(void **state)
{
    store *s = *state;
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Music WHERE PK = = 'x'\"}",
          ST_VALIDATION, "Statement wasn't well formed, can't be processed: Unexpected token: = at line 1, column 32");
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELEC * FROM Music\"}", ST_VALIDATION,
          "Expected data manipulation");
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Music WHERE PK = ?\"}", ST_VALIDATION,
          "Number of parameters in request and statement don't match.");
    fails(s, "ExecuteStatement", "{\"Statement\":\"SELECT * FROM Music\",\"Parameters\":[]}", ST_VALIDATION,
          "Member must have length greater than or equal to 1");
    fails(s, "ExecuteStatement", "{}", ST_VALIDATION, "'statement'");
    fails(s, "ExecuteStatement", "{\"Statement\":\"EXISTS(SELECT * FROM Music WHERE PK = 'a' AND SK = 'b')\"}",
          ST_VALIDATION, "transaction");
}

/* Guide (batching): up to 25, all reads or all writes, reads name the
 * whole key; each statement answers for itself. */
static void batch(void **state)
{
    store *s = *state;
    cJSON *r = call(s, "BatchExecuteStatement",
                    "{\"Statements\":[{\"Statement\":\"SELECT title FROM Music WHERE PK = ? AND SK = ?\","
                    "\"Parameters\":[{\"S\":\"s#song1\"},{\"S\":\"A\"}]},"
                    "{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#nope' AND SK = 'A'\"},"
                    "{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#song1'\"}],"
                    "\"ReturnConsumedCapacity\":\"TOTAL\"}");
    const cJSON *rs = cJSON_GetObjectItem(r, "Responses");
    assert_int_equal(cJSON_GetArraySize(rs), 3);
    assert_non_null(item_s(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "Item"), "title"));
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 1), "Item"));
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 1), "Error"));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 2), "Error"),
                                            "Code")->valuestring, "ValidationError");
    assert_true(units(r) == 1.0);
    cJSON_Delete(r);
    r = call(s, "BatchExecuteStatement",
             "{\"Statements\":[{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-b', 'SK': 'A'}\"},"
             "{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#song1', 'SK': 'A'}\"},"
             "{\"Statement\":\"UPDATE Music SET x = 1 WHERE PK = 's#pq-b' AND SK = 'A'\"}]}");
    rs = cJSON_GetObjectItem(r, "Responses");
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "Error"));
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 1), "Error"),
                                            "Code")->valuestring, "DuplicateItem");
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 2), "Error"));
    cJSON_Delete(r);
    fails(s, "BatchExecuteStatement",
          "{\"Statements\":[{\"Statement\":\"SELECT * FROM Music WHERE PK = 'a' AND SK = 'b'\"},"
          "{\"Statement\":\"DELETE FROM Music WHERE PK = 'a' AND SK = 'b'\"}]}",
          ST_VALIDATION, "either read statements or write statements");
    char big[4096] = "{\"Statements\":[";
    for (int i = 0; i < 26; i++)
        strcat(big, i ? ",{\"Statement\":\"SELECT * FROM Music WHERE PK = 'a' AND SK = 'b'\"}"
                      : "{\"Statement\":\"SELECT * FROM Music WHERE PK = 'a' AND SK = 'b'\"}");
    strcat(big, "]}");
    fails(s, "BatchExecuteStatement", big, ST_VALIDATION,
          "Member must have length less than or equal to 25");
}

/* Guide (transactions): all or nothing; EXISTS is ConditionCheck; the
 * CancellationReasons list one reason a statement, in order. */
static void transaction(void **state)
{
    store *s = *state;
    cJSON *x = fails(s, "ExecuteTransaction",
                     "{\"TransactStatements\":[{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-t1', 'SK': 'A'}\"},"
                     "{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#song1', 'SK': 'A'}\"}]}",
                     ST_TXN_CANCELED, "[None, DuplicateItem]");
    const cJSON *reasons = cJSON_GetObjectItem(x, "CancellationReasons");
    assert_int_equal(cJSON_GetArraySize(reasons), 2);
    assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(reasons, 1), "Code")->valuestring,
                        "DuplicateItem");
    cJSON_Delete(x);
    cJSON *g = call(s, "GetItem", "{\"TableName\":\"Music\",\"Key\":{\"PK\":{\"S\":\"s#pq-t1\"},"
                                  "\"SK\":{\"S\":\"A\"}}}");
    assert_null(cJSON_GetObjectItem(g, "Item"));      /* nothing written */
    cJSON_Delete(g);
    x = fails(s, "ExecuteTransaction",
              "{\"TransactStatements\":[{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-t1', 'SK': 'A'}\"},"
              "{\"Statement\":\"EXISTS(SELECT * FROM Music WHERE PK = 's#song1' AND SK = 'A' AND title = 'no')\"}]}",
              ST_TXN_CANCELED, "[None, ConditionalCheckFailed]");
    cJSON_Delete(x);
    const char *ok = "{\"ClientRequestToken\":\"pq-token-1\",\"ReturnConsumedCapacity\":\"TOTAL\","
                     "\"TransactStatements\":[{\"Statement\":\"INSERT INTO Music VALUE {'PK': 's#pq-t1', 'SK': 'A'}\"},"
                     "{\"Statement\":\"UPDATE Music SET plays = 1 WHERE PK = 's#song1' AND SK = 'A'\"},"
                     "{\"Statement\":\"EXISTS(SELECT * FROM Music WHERE PK = 's#song2' AND SK = 'A')\"}]}";
    cJSON *r = call(s, "ExecuteTransaction", ok);
    assert_true(units(r) > 0);
    cJSON_Delete(r);
    /* the same token and request: answered again, not run again (the
     * INSERT would now be a duplicate) */
    r = call(s, "ExecuteTransaction", ok);
    cJSON_Delete(r);
    fails(s, "ExecuteTransaction",
          "{\"ClientRequestToken\":\"pq-token-1\",\"TransactStatements\":[{\"Statement\":"
          "\"DELETE FROM Music WHERE PK = 's#pq-t1' AND SK = 'A'\"}]}",
          ST_IDEMPOTENT_MISMATCH, "ClientRequestToken");
    r = call(s, "ExecuteTransaction",
             "{\"TransactStatements\":[{\"Statement\":\"SELECT title FROM Music WHERE PK = 's#song1' AND SK = 'A'\"},"
             "{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#pq-t1' AND SK = 'A'\"},"
             "{\"Statement\":\"SELECT * FROM Music WHERE PK = 's#pq-none' AND SK = 'A'\"}]}");
    const cJSON *rs = cJSON_GetObjectItem(r, "Responses");
    assert_int_equal(cJSON_GetArraySize(rs), 3);
    assert_non_null(item_s(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "Item"), "title"));
    assert_null(cJSON_GetObjectItem(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 0), "Item"), "PK"));
    assert_string_equal(item_s(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 1), "Item"), "PK"), "s#pq-t1");
    assert_null(cJSON_GetObjectItem(cJSON_GetArrayItem(rs, 2), "Item"));
    cJSON_Delete(r);
    fails(s, "ExecuteTransaction",
          "{\"TransactStatements\":[{\"Statement\":\"SELECT * FROM Music WHERE PK = 'a' AND SK = 'b'\"},"
          "{\"Statement\":\"DELETE FROM Music WHERE PK = 'a' AND SK = 'b'\"}]}",
          ST_VALIDATION, "either read statements or write statements");
}

/* The explorer's typed entry: items as avs, capacity, next page. */
static void typed_entry(void **state)
{
    store *s = *state;
    av p;
    av_init_s(&p, "ACTOR#alice", 11);
    store_partiql_result r;
    diag d;
    diag_init(&d);
    assert_int_equal(store_partiql_page(s, "SELECT SK FROM SocialGraph WHERE PK = ?", &p, 1, 3, NULL, &r, &d),
                     ST_OK);
    assert_int_equal(r.n, 3);
    assert_true(r.capacity == 0.5);
    assert_non_null(r.next_token);
    assert_int_equal(r.items[0].type, AV_M);
    char *tok = strdup(r.next_token);
    store_partiql_result_done(&r);
    assert_int_equal(store_partiql_page(s, "SELECT SK FROM SocialGraph WHERE PK = ?", &p, 1, 3, tok, &r, &d),
                     ST_OK);
    assert_int_equal(r.n, 1);
    store_partiql_result_done(&r);
    free(tok);
    assert_int_equal(store_partiql_page(s, "SELECT * FROM SocialGraph WHERE PK = ", NULL, 0, 0, NULL, &r, &d),
                     ST_VALIDATION);
    assert_non_null(strstr(d.msg, "column"));
    av_done(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(select_on_partition_is_a_query),
        cmocka_unit_test(select_without_partition_is_a_scan),
        cmocka_unit_test(select_from_an_index),
        cmocka_unit_test(in_list_or_and_order_by),
        cmocka_unit_test(limit_and_next_token),
        cmocka_unit_test(consistent_read),
        cmocka_unit_test(insert_and_duplicate),
        cmocka_unit_test(update),
        cmocka_unit_test(delete),
        cmocka_unit_test(errors),
        cmocka_unit_test(batch),
        cmocka_unit_test(transaction),
        cmocka_unit_test(typed_entry),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
