/*
 * test_idx_body — index entries carry the item as the index projects it
 * (schema version 5, data/store_idxbody.c): after every write path the
 * consistency check (store_index_check) finds each entry's body equal to
 * its item's projection and its size that projection's size, every item
 * an index should hold with its entry, and the stats adding up; queries
 * and scans of indexes answer as before; a file in the old layout (idx
 * without bodies) answers the same read-only and is migrated when opened
 * writable; an entry an older ddbx wrote without a body is read through
 * the table.
 *
 * Where the expectations come from: [DG] the DynamoDB developer guide:
 * "Projections" (ALL: every attribute; INCLUDE: the table and index keys
 * and the NonKeyAttributes; KEYS_ONLY: the keys), "Storage considerations"
 * for global secondary indexes (an index entry's size is the byte size of
 * the table's primary key, the index key attributes and the projected
 * attributes; 100 bytes of overhead per index item are billed on top,
 * which W8 counts: tests/bench), "Detecting and correcting index key
 * violations" (an item with a wrong-type, empty or too long index key
 * stays in the table without an entry), and "Local secondary indexes":
 * "If you query a local secondary index and request attributes that are
 * not projected, DynamoDB fetches them from the base table". [OWN] the
 * store's layout (data/store_int.h): an old file is read as it is.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <sqlite3.h>
#include <time.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"
#include "tests/data/backuptest.h"

#define TABLE \
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[" DEF("pk", "S") "," DEF("sk", "S") "," DEF("ls", "S") "," \
    DEF("g", "S") "," DEF("gs", "S") "," DEF("h", "N") "]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}]," \
    "\"LocalSecondaryIndexes\":[{\"IndexName\":\"Ls1\",\"KeySchema\":[" HASH("pk") "," RANGE("ls") "]," \
    "\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]," \
    "\"GlobalSecondaryIndexes\":[" \
    "{\"IndexName\":\"GAll\",\"KeySchema\":[" HASH("g") "," RANGE("gs") "],\"Projection\":{\"ProjectionType\":\"ALL\"}}," \
    "{\"IndexName\":\"GInc\",\"KeySchema\":[" HASH("g") "],\"Projection\":{\"ProjectionType\":\"INCLUDE\"," \
    "\"NonKeyAttributes\":[\"a\",\"b\"]}}," \
    "{\"IndexName\":\"GKey\",\"KeySchema\":[" HASH("h") "],\"Projection\":{\"ProjectionType\":\"KEYS_ONLY\"}}]}"
#define DEF(n, t) "{\"AttributeName\":\"" n "\",\"AttributeType\":\"" t "\"}"
#define HASH(n) "{\"AttributeName\":\"" n "\",\"KeyType\":\"HASH\"}"
#define RANGE(n) "{\"AttributeName\":\"" n "\",\"KeyType\":\"RANGE\"}"

#define ITEM(pk, sk, rest) \
    "{\"pk\":{\"S\":\"" pk "\"},\"sk\":{\"S\":\"" sk "\"}" rest "}"
#define PUT(pk, sk, rest) "{\"TableName\":\"Tab\",\"Item\":" ITEM(pk, sk, rest) "}"
#define KEY(pk, sk) "\"Key\":{\"pk\":{\"S\":\"" pk "\"},\"sk\":{\"S\":\"" sk "\"}}"

/* The consistency check passes. */
static void consistent(store *s, const char *after)
{
    char *problems = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_index_check(s, "Tab", &problems, &d), ST_OK);
    if (problems)
        fail_msg("after %s:\n%s", after, problems);
}

static void make_table(store *s)
{
    ok(s, "CreateTable", TABLE);
    ok(s, "PutItem", PUT("p1", "s1", ",\"ls\":{\"S\":\"l1\"},\"g\":{\"S\":\"x\"},\"gs\":{\"S\":\"1\"},"
                         "\"h\":{\"N\":\"7\"},\"a\":{\"S\":\"A\"},\"c\":{\"S\":\"C\"}"));
    ok(s, "PutItem", PUT("p1", "s2", ",\"g\":{\"S\":\"x\"},\"b\":{\"L\":[{\"N\":\"1\"}]},\"c\":{\"N\":\"2\"}"));
    ok(s, "PutItem", PUT("p2", "s1", ",\"ls\":{\"S\":\"l2\"},\"h\":{\"N\":\"7\"},\"a\":{\"S\":\"only\"}"));
    ok(s, "PutItem", PUT("p3", "s1", ",\"c\":{\"S\":\"in no index\"}"));
}

/* [DG] every write path keeps the bodies right. */
static void test_write_paths(void **state)
{
    store *s = *state;
    make_table(s);
    consistent(s, "PutItem");
    ok(s, "PutItem", PUT("p1", "s1", ",\"g\":{\"S\":\"y\"},\"gs\":{\"S\":\"2\"},\"a\":{\"S\":\"A2\"}"));
    consistent(s, "PutItem replacing an item");
    /* An included attribute changes (the GInc entry is rewritten), a
     * non-projected one (only GAll's is), an index key (moved). */
    ok(s, "UpdateItem", "{\"TableName\":\"Tab\"," KEY("p1", "s2") ",\"UpdateExpression\":\"SET b = :b\","
       "\"ExpressionAttributeValues\":{\":b\":{\"S\":\"B\"}}}");
    consistent(s, "UpdateItem of an included attribute");
    ok(s, "UpdateItem", "{\"TableName\":\"Tab\"," KEY("p1", "s2") ",\"UpdateExpression\":\"SET c = :c\","
       "\"ExpressionAttributeValues\":{\":c\":{\"S\":\"C2\"}}}");
    consistent(s, "UpdateItem of an attribute no INCLUDE index projects");
    ok(s, "UpdateItem", "{\"TableName\":\"Tab\"," KEY("p2", "s1") ",\"UpdateExpression\":\"SET g = :g, ls = :l"
       " REMOVE h\",\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"},\":l\":{\"S\":\"l3\"}}}");
    consistent(s, "UpdateItem moving index keys");
    ok(s, "DeleteItem", "{\"TableName\":\"Tab\"," KEY("p1", "s1") "}");
    consistent(s, "DeleteItem");
    ok(s, "BatchWriteItem", "{\"RequestItems\":{\"Tab\":[{\"PutRequest\":{\"Item\":"
       ITEM("b1", "s", ",\"g\":{\"S\":\"x\"},\"gs\":{\"S\":\"9\"},\"a\":{\"N\":\"1\"}") "}},"
       "{\"PutRequest\":{\"Item\":" ITEM("b2", "s", ",\"h\":{\"N\":\"1\"},\"ls\":{\"S\":\"q\"}") "}},"
       "{\"DeleteRequest\":{" KEY("p1", "s2") "}}]}}");
    consistent(s, "BatchWriteItem");
    ok(s, "TransactWriteItems", "{\"TransactItems\":["
       "{\"Put\":{\"TableName\":\"Tab\",\"Item\":" ITEM("t1", "s", ",\"g\":{\"S\":\"z\"},\"b\":{\"S\":\"b\"}") "}},"
       "{\"Update\":{\"TableName\":\"Tab\"," KEY("b1", "s") ",\"UpdateExpression\":\"SET a = :a\","
       "\"ExpressionAttributeValues\":{\":a\":{\"S\":\"new\"}}}},"
       "{\"Delete\":{\"TableName\":\"Tab\"," KEY("b2", "s") "}}]}");
    consistent(s, "TransactWriteItems");
    ok(s, "ExecuteStatement", "{\"Statement\":\"INSERT INTO \\\"Tab\\\" VALUE {'pk':'q1','sk':'s','g':'x','a':'pq'}\"}");
    ok(s, "ExecuteStatement", "{\"Statement\":\"UPDATE \\\"Tab\\\" SET a = 'pq2' SET h = 3 WHERE pk = 'q1' AND sk = 's'\"}");
    consistent(s, "PartiQL INSERT and UPDATE");
    ok(s, "ExecuteStatement", "{\"Statement\":\"DELETE FROM \\\"Tab\\\" WHERE pk = 'q1' AND sk = 's'\"}");
    consistent(s, "PartiQL DELETE");
}

/* [OWN] the bulk interface (ddbx load, import, pull): store_put_item
 * in one transaction, new keys and replaced ones. */
static void test_bulk(void **state)
{
    store *s = *state;
    make_table(s);
    diag d;
    diag_init(&d);
    assert_int_equal(store_begin(s, &d), ST_OK);
    for (int i = 0; i < 50; i++) {
        char json[256];
        snprintf(json, sizeof json, ITEM("k%d", "s", ",\"g\":{\"S\":\"g%d\"},\"gs\":{\"S\":\"x\"},"
                 "\"h\":{\"N\":\"%d\"},\"a\":{\"N\":\"%d\"},\"z\":{\"S\":\"z\"}"), i % 20, i % 3, i, i);
        av item;
        assert_int_equal(ddbjson_parse_item(json, strlen(json), &item, &d), ST_OK);
        assert_int_equal(store_put_item(s, "Tab", &item, &d), ST_OK);
        av_done(&item);
    }
    assert_int_equal(store_commit(s, &d), ST_OK);
    consistent(s, "store_put_item");
}

/* [DG] TTL deletions are ordinary deletes: the entries go. */
static void test_ttl_sweep(void **state)
{
    store *s = *state;
    make_table(s);
    double now = (double)time(NULL);
    char body[256];
    snprintf(body, sizeof body, PUT("e1", "s", ",\"g\":{\"S\":\"x\"},\"a\":{\"S\":\"a\"},\"exp\":{\"N\":\"%.0f\"}"),
             now - 60);
    ok(s, "PutItem", body);
    ok(s, "UpdateTimeToLive", "{\"TableName\":\"Tab\",\"TimeToLiveSpecification\":{\"Enabled\":true,"
       "\"AttributeName\":\"exp\"}}");
    size_t deleted = 0;
    diag d;
    diag_init(&d);
    assert_int_equal(store_ttl_sweep(s, now, 100, &deleted, &d), ST_OK);
    assert_int_equal(deleted, 1);
    consistent(s, "the TTL sweep");
}

/* [DG] UpdateTable's backfill: entries with bodies, none for items whose
 * index key is of the wrong type, empty or too long. */
static void test_backfill(void **state)
{
    store *s = *state;
    make_table(s);
    char big[1100], body[1400];
    memset(big, 'k', 1025);
    big[1025] = 0;
    ok(s, "PutItem", PUT("v1", "s", ",\"n\":{\"N\":\"1\"},\"m\":{\"S\":\"m\"}"));
    ok(s, "PutItem", PUT("v2", "s", ",\"n\":{\"S\":\"wrong type\"},\"m\":{\"S\":\"m\"}"));
    ok(s, "PutItem", PUT("v3", "s", ",\"n\":{\"N\":\"2\"},\"m\":{\"S\":\"\"}"));
    snprintf(body, sizeof body, PUT("v4", "s", ",\"n\":{\"N\":\"3\"},\"m\":{\"S\":\"%s\"}"), big);
    ok(s, "PutItem", body);
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"AttributeDefinitions\":[" DEF("n", "N") "," DEF("m", "S") "],"
       "\"GlobalSecondaryIndexUpdates\":[{\"Create\":{\"IndexName\":\"GNew\",\"KeySchema\":[" HASH("n") ","
       RANGE("m") "],\"Projection\":{\"ProjectionType\":\"INCLUDE\",\"NonKeyAttributes\":[\"c\"]}}}]}");
    consistent(s, "UpdateTable's backfill");
    ok(s, "Scan", "{\"TableName\":\"Tab\",\"IndexName\":\"GNew\"}");
    assert_non_null(strstr(out_text, "\"Count\":1,"));
    /* and the index after it moves down one position */
    ok(s, "UpdateTable", "{\"TableName\":\"Tab\",\"GlobalSecondaryIndexUpdates\":[{\"Delete\":{\"IndexName\":\"GAll\"}}]}");
    consistent(s, "deleting an index");
}

/* [DG] "Storage considerations" for global secondary indexes: an entry
 * holds the table's primary key, the index key attributes and the
 * projected attributes; its size (ItemCount and IndexSizeBytes add them
 * up; the 100 bytes of overhead per index item are billed, not part of
 * the entry's size, which reads are charged by). GKey (KEYS_ONLY on h)
 * holds p1/s1 and p2/s1: "pk"+"p1" 4, "sk"+"s1" 4, "h" + the number 7
 * (1 + 1 byte per two significant digits + 1) 3: 11 bytes each. */
static void test_index_size(void **state)
{
    store *s = *state;
    make_table(s);
    ok(s, "DescribeTable", "{\"TableName\":\"Tab\"}");
    assert_non_null(strstr(out_text, "\"IndexSizeBytes\":22,\"ItemCount\":2,\"IndexArn\":"
                               "\"arn:aws:dynamodb:us-east-1:000000000000:table/Tab/index/GKey\""));
    consistent(s, "PutItem");
}

/* [DG] "a single Query ... reads ... a maximum of 1 MB of data": what a
 * Query of a KEYS_ONLY index reads is its entries, not the items behind
 * them; five items of 300 KB have five small GKey entries, one page. */
static void test_page_counts_entries(void **state)
{
    store *s = *state;
    make_table(s);
    enum { BIG = 300 * 1024 };
    char *body = malloc(BIG + 256);
    char *big = malloc(BIG + 1);
    memset(big, 'x', BIG);
    big[BIG] = 0;
    for (int i = 0; i < 5; i++) {
        snprintf(body, BIG + 256, "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"big%d\"},"
                 "\"sk\":{\"S\":\"s\"},\"h\":{\"N\":\"1\"},\"v\":{\"S\":\"%s\"}}}", i, big);
        ok(s, "PutItem", body);
    }
    free(big);
    free(body);
    ok(s, "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"GKey\",\"KeyConditionExpression\":\"h = :h\","
       "\"ExpressionAttributeValues\":{\":h\":{\"N\":\"1\"}},\"Select\":\"COUNT\"}");
    assert_string_equal(out_text, "{\"Count\":5,\"ScannedCount\":5}");
    /* the table's own Scan reads the items: it stops at 1 MB */
    ok(s, "Scan", "{\"TableName\":\"Tab\",\"Select\":\"COUNT\"}");
    assert_non_null(strstr(out_text, "\"LastEvaluatedKey\""));
}

/* The check can fail: a body that is not the projection is found. */
static void test_check_finds_damage(void **state)
{
    store *s = *state;
    make_table(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE idx SET body = (SELECT body FROM items LIMIT 1)"
                                  " WHERE xid = 3", NULL, NULL, NULL), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "DELETE FROM idx WHERE xid = 4", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    store_refresh(s, "Tab");
    char *problems = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_index_check(s, "Tab", &problems, &d), ST_OK);
    assert_non_null(problems);
    assert_non_null(strstr(problems, "index GInc: an entry's body is not the item's projection"));
    assert_non_null(strstr(problems, "index GKey: an item it holds has no entry"));
    free(problems);
}

/* The answers every index read gives on the sample table, one string. */
static char *index_answers(store *s)
{
    static const char *const reqs[][2] = {
        { "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"GAll\",\"KeyConditionExpression\":\"g = :g\","
                   "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}},\"ReturnConsumedCapacity\":\"INDEXES\"}" },
        { "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"GInc\",\"KeyConditionExpression\":\"g = :g\","
                   "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}},\"ScanIndexForward\":false,"
                   "\"ReturnConsumedCapacity\":\"INDEXES\"}" },
        { "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"GKey\",\"KeyConditionExpression\":\"h = :h\","
                   "\"ExpressionAttributeValues\":{\":h\":{\"N\":\"7\"}},\"Limit\":1}" },
        { "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"Ls1\",\"KeyConditionExpression\":\"pk = :p\","
                   "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p1\"}},\"ReturnConsumedCapacity\":\"INDEXES\"}" },
        /* [DG] an LSI fetches what it does not project from the table */
        { "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"Ls1\",\"KeyConditionExpression\":\"pk = :p\","
                   "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"p1\"}},\"ProjectionExpression\":\"c, ls\","
                   "\"ReturnConsumedCapacity\":\"INDEXES\"}" },
        { "Scan", "{\"TableName\":\"Tab\",\"IndexName\":\"GInc\",\"FilterExpression\":\"attribute_exists(a)\"}" },
        /* [DG] c is not projected into GInc: the filter does not see it */
        { "Scan", "{\"TableName\":\"Tab\",\"IndexName\":\"GInc\",\"FilterExpression\":\"attribute_not_exists(c)\"}" },
        /* a Scan of GKey filters what it holds (a Query may not filter on
         * what the index lacks: test_messages.c) */
        { "Scan", "{\"TableName\":\"Tab\",\"IndexName\":\"GKey\",\"FilterExpression\":\"attribute_exists(a)\"}" },
        { "Scan", "{\"TableName\":\"Tab\",\"IndexName\":\"GAll\",\"Select\":\"COUNT\"}" },
        /* PartiQL's SELECT on an index is a Query of it */
        { "ExecuteStatement", "{\"Statement\":\"SELECT * FROM \\\"Tab\\\".\\\"GInc\\\" WHERE g = 'x'\"}" },
    };
    buf b = BUF_INIT;
    for (size_t i = 0; i < sizeof reqs / sizeof reqs[0]; i++) {
        ok(s, reqs[i][0], reqs[i][1]);
        buf_printf(&b, "%s\n", out_text);
    }
    return buf_steal(&b);
}

/* [DG] the answers the index reads give, pinned on their contents. */
static void test_reads(void **state)
{
    store *s = *state;
    make_table(s);
    char *a = index_answers(s);
    /* INCLUDE: keys and a, b; not c */
    assert_non_null(strstr(a, "{\"Items\":[{\"b\":{\"L\":[{\"N\":\"1\"}]},\"g\":{\"S\":\"x\"},"
                              "\"pk\":{\"S\":\"p1\"},\"sk\":{\"S\":\"s2\"}},"));
    /* LSI projecting the keys only, asked for c: fetched from the table */
    assert_non_null(strstr(a, "{\"Items\":[{\"c\":{\"S\":\"C\"},\"ls\":{\"S\":\"l1\"}}],\"Count\":1,"));
    /* both GInc entries pass attribute_not_exists(c); neither GKey entry has a */
    assert_non_null(strstr(a, "\"Count\":2,\"ScannedCount\":2}\n"));
    assert_non_null(strstr(a, "{\"Items\":[],\"Count\":0,\"ScannedCount\":2}\n"));
    /* PartiQL on GInc: the projection too */
    assert_non_null(strstr(a, "{\"Items\":[{\"a\":{\"S\":\"A\"},\"g\":{\"S\":\"x\"},\"pk\":{\"S\":\"p1\"},"
                              "\"sk\":{\"S\":\"s1\"}},{\"b\":{\"L\":[{\"N\":\"1\"}]},\"g\":{\"S\":\"x\"},"
                              "\"pk\":{\"S\":\"p1\"},\"sk\":{\"S\":\"s2\"}}]}\n"));
    /* LSI KEYS_ONLY without a projection: the keys */
    assert_non_null(strstr(a, "{\"Items\":[{\"ls\":{\"S\":\"l1\"},\"pk\":{\"S\":\"p1\"},\"sk\":{\"S\":\"s1\"}}],"));
    free(a);
    /* [DG] a GSI that is not ALL cannot answer ALL_ATTRIBUTES */
    refused(s, "Query", "{\"TableName\":\"Tab\",\"IndexName\":\"GInc\",\"KeyConditionExpression\":\"g = :g\","
            "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"x\"}},\"Select\":\"ALL_ATTRIBUTES\"}", ST_VALIDATION,
            "One or more parameter values were invalid: Select type ALL_ATTRIBUTES is not supported for global"
            " secondary index GInc because its projection type is not ALL");
}

/* Makes the open file an old-layout one (schema 4: idx without body). */
static void to_old_layout(void)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "ALTER TABLE idx DROP COLUMN body;"
                                  "UPDATE meta SET value = 4 WHERE key = 'schema'", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static long long schema_version(void)
{
    return sql_number("SELECT value FROM meta WHERE key = 'schema'");
}

/* The rows of idx, counted by SQLite (the notice counts them from the
 * stats the store keeps). */
static long long index_entries(void)
{
    return sql_number("SELECT count(*) FROM idx");
}

static char notice_seen[512];
static int notices;

static void record_notice(const char *msg)
{
    snprintf(notice_seen, sizeof notice_seen, "%s", msg);
    notices++;
}

/* [OWN] an old file: read-only it answers the same through the table;
 * writable it gains the bodies, all of them right, in one go, and says
 * so first (store_set_notice) with the number of entries to fill. */
static void test_migration(void **state)
{
    store_set_notice(record_notice);
    notices = 0;
    store *s = *state;
    make_table(s);
    assert_int_equal(schema_version(), 6);
    char *want = index_answers(s);
    store_close(s);
    *state = NULL;
    to_old_layout();
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, STORE_READ_ONLY, &s, &d), ST_OK);
    char *ro = index_answers(s);
    assert_string_equal(ro, want);
    store_close(s);
    assert_int_equal(notices, 0);   /* read as it is: nothing to announce */
    assert_int_equal(schema_version(), 4);
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    assert_int_equal(notices, 1);
    assert_non_null(strstr(notice_seen, "upgrading to schema version 5"));
    assert_non_null(strstr(notice_seen, path));
    char count[64];
    snprintf(count, sizeof count, "its %lld index entries", index_entries());
    assert_non_null(strstr(notice_seen, count));
    store_close(s);
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);   /* upgraded: no second notice */
    assert_int_equal(notices, 1);
    store_set_notice(NULL);
    *state = s;
    assert_int_equal(schema_version(), 6);
    consistent(s, "the migration");
    char *rw = index_answers(s);
    assert_string_equal(rw, want);
    free(want);
    free(ro);
    free(rw);
}

/* [OWN] a read-only connection (the explorer's --read-only, `serve
 * --read-only`) opened on an old file (schema 4) before a writer opens it,
 * gives the entries their bodies and writes: the reader answers as the
 * writer does, and reads the bodies as a connection opened after the
 * upgrade does, not through the table for as long as it lives because
 * the column was not there when it opened. Counted in SQLite's
 * instructions (store_work), not timed: the same requests cost the old
 * reader no more than a new one. */
static void test_reader_before_upgrade(void **state)
{
    store *s = *state;
    make_table(s);
    store_close(s);
    *state = NULL;
    to_old_layout();
    store *r, *w, *f;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, STORE_READ_ONLY, &r, &d), ST_OK);
    free(index_answers(r));   /* it has read the old file */
    assert_int_equal(store_open(path, 0, &w, &d), ST_OK);
    *state = w;
    assert_int_equal(schema_version(), 6);
    ok(w, "PutItem", PUT("p4", "s1", ",\"g\":{\"S\":\"x\"},\"gs\":{\"S\":\"4\"},\"a\":{\"S\":\"new\"}"));
    char *want = index_answers(w);
    char *got = index_answers(r);
    assert_string_equal(got, want);
    free(want);
    /* Enough entries for the work to count (units of 1,000 instructions). */
    for (int i = 0; i < 400; i++) {
        char body[256];
        snprintf(body, sizeof body, "{\"TableName\":\"Tab\",\"Item\":" ITEM("q%d", "s1", ",\"g\":{\"S\":\"y\"},"
                 "\"gs\":{\"S\":\"%04d\"},\"a\":{\"S\":\"some text to carry\"}") "}", i, i);
        ok(w, "PutItem", body);
    }
    static const char q[] = "{\"TableName\":\"Tab\",\"IndexName\":\"GAll\",\"KeyConditionExpression\":"
                            "\"g = :g\",\"ExpressionAttributeValues\":{\":g\":{\"S\":\"y\"}}}";
    assert_int_equal(store_open(path, STORE_READ_ONLY, &f, &d), ST_OK);
    ok(f, "Query", q);
    want = strdup(out_text);
    ok(r, "Query", q);
    assert_string_equal(out_text, want);
    uint64_t w0 = store_work(r);
    for (int i = 0; i < 5; i++)
        ok(r, "Query", q);
    uint64_t old_reader = store_work(r) - w0;
    w0 = store_work(f);
    for (int i = 0; i < 5; i++)
        ok(f, "Query", q);
    uint64_t new_reader = store_work(f) - w0;
    print_message("# index answers: %llu units on the reader opened before, %llu on one opened after\n",
                  (unsigned long long)old_reader, (unsigned long long)new_reader);
    assert_true(old_reader <= new_reader);
    free(want);
    free(got);
    store_close(f);
    store_close(r);
}

/* [OWN] an entry without a body (a ddbx before version 5 wrote it into a
 * version 5 file) is read through the table. */
static void test_null_body(void **state)
{
    store *s = *state;
    make_table(s);
    char *want = index_answers(s);
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, "UPDATE idx SET body = NULL", NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
    store_refresh(s, "Tab");
    char *got = index_answers(s);
    assert_string_equal(got, want);
    free(want);
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_write_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bulk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ttl_sweep, setup, teardown),
        cmocka_unit_test_setup_teardown(test_backfill, setup, teardown),
        cmocka_unit_test_setup_teardown(test_index_size, setup, teardown),
        cmocka_unit_test_setup_teardown(test_page_counts_entries, setup, teardown),
        cmocka_unit_test_setup_teardown(test_check_finds_damage, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_migration, setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_body, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reader_before_upgrade, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
