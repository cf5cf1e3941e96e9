/*
 * test_streams — the change log under the C interface (data/store_changes.c):
 * what a write leaves (one record per changed item, none for a no-op put,
 * as the DynamoDB Streams developer guide says of stream records), the
 * feed newest first with old and new images, no records from the bulk
 * interface, a version 1 database brought up to version 2 (and opened
 * read-only without the log), trimming by age, and the feed of a remote
 * store read from the table's stream (a second, local store behind the
 * transport) or refused when the table has none.
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

static void call(store *s, const char *op, const char *body)
{
    char *out = NULL;
    diag d;
    diag_init(&d);
    status st = store_call(s, op, body, strlen(body), &out, &d);
    if (st != ST_OK)
        fail_msg("%s: %s: %s", op, status_name(st), d.msg);
    free(out);
}

#define TABLE(name, extra) \
    "{\"TableName\":\"" name "\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]" extra "}"

static const char *s_of(const av *item, const char *name)
{
    const av *v = av_map_get(item, name, strlen(name));
    return v && v->type == AV_S ? v->u.s.ptr : NULL;
}

static void test_feed(void **state)
{
    store *s = *state;
    call(s, "CreateTable", TABLE("Feed", ""));
    call(s, "PutItem", "{\"TableName\":\"Feed\",\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"1\"}}}");
    call(s, "PutItem", "{\"TableName\":\"Feed\",\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"1\"}}}");
    call(s, "UpdateItem", "{\"TableName\":\"Feed\",\"Key\":{\"pk\":{\"S\":\"a\"}},"
         "\"UpdateExpression\":\"SET v = :v\",\"ExpressionAttributeValues\":{\":v\":{\"S\":\"2\"}}}");
    call(s, "DeleteItem", "{\"TableName\":\"Feed\",\"Key\":{\"pk\":{\"S\":\"a\"}}}");
    store_change c[8];
    size_t n = 0;
    diag d;
    diag_init(&d);
    assert_int_equal(store_changes(s, "Feed", 0, 8, c, &n, &d), ST_OK);
    /* INSERT, (no record for the identical put), MODIFY, REMOVE; newest first */
    assert_int_equal(n, 3);
    assert_int_equal(c[0].event, STORE_REMOVE);
    assert_int_equal(c[1].event, STORE_MODIFY);
    assert_int_equal(c[2].event, STORE_INSERT);
    assert_true(c[0].seq > c[1].seq && c[1].seq > c[2].seq);
    assert_string_equal(s_of(&c[1].old_item, "v"), "1");
    assert_string_equal(s_of(&c[1].new_item, "v"), "2");
    assert_int_equal(c[0].new_item.type, AV_NONE);
    assert_int_equal(c[2].old_item.type, AV_NONE);
    assert_string_equal(s_of(&c[0].keys, "pk"), "a");
    assert_int_equal(c[0].keys.u.m.len, 1);
    assert_true(c[2].t_ms > 1700000000000LL);
    /* before_seq pages to older changes */
    size_t m = 0;
    store_change older[8];
    assert_int_equal(store_changes(s, "Feed", c[1].seq, 8, older, &m, &d), ST_OK);
    assert_int_equal(m, 1);
    assert_int_equal(older[0].seq, c[2].seq);
    store_change_free(&older[0]);
    for (size_t i = 0; i < n; i++)
        store_change_free(&c[i]);
    assert_int_equal(store_changes(s, "NoSuchTable", 0, 8, c, &n, &d), ST_NOT_FOUND);
}

static void test_bulk_writes_none(void **state)
{
    store *s = *state;
    call(s, "CreateTable", TABLE("Bulk", ""));
    diag d;
    diag_init(&d);
    av item;
    assert_int_equal(ddbjson_parse_item("{\"pk\":{\"S\":\"x\"}}", 16, &item, &d), ST_OK);
    assert_int_equal(store_begin(s, &d), ST_OK);
    assert_int_equal(store_put_item(s, "Bulk", &item, &d), ST_OK);
    assert_int_equal(store_put_item(s, "Bulk", &item, &d), ST_OK);
    assert_int_equal(store_commit(s, &d), ST_OK);
    av_done(&item);
    store_change c[2];
    size_t n = 9;
    assert_int_equal(store_changes(s, "Bulk", 0, 2, c, &n, &d), ST_OK);
    assert_int_equal(n, 0);
}

static int64_t count(const char *sql)
{
    sqlite3 *db;
    sqlite3_stmt *q;
    int64_t v = -1;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    if (sqlite3_prepare_v2(db, sql, -1, &q, NULL) == SQLITE_OK && sqlite3_step(q) == SQLITE_ROW)
        v = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    sqlite3_close(db);
    return v;
}

static void exec(const char *sql)
{
    sqlite3 *db;
    assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
    assert_int_equal(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
    sqlite3_close(db);
}

static void test_schema_v1(void **state)
{
    store *s = *state;
    call(s, "CreateTable", TABLE("Old", ""));
    call(s, "PutItem", "{\"TableName\":\"Old\",\"Item\":{\"pk\":{\"S\":\"kept\"}}}");
    store_close(s);
    *state = NULL;
    /* What a version 1 ddbx left: no change tables, schema 1. */
    exec("DROP TABLE changes; DROP TABLE streams; UPDATE meta SET value = 1 WHERE key = 'schema'");
    diag d;
    diag_init(&d);
    store_change c[2];
    size_t n = 9;
    /* Read-only (the explorer --read-only on an old file): it opens, the
     * feed is empty. */
    assert_int_equal(store_open(path, STORE_READ_ONLY, &s, &d), ST_OK);
    assert_int_equal(store_changes(s, "Old", 0, 2, c, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    store_close(s);
    /* Writable: brought up to the current version (3: TTL, tags, tokens;
     * 4: the staged changes, data/staged.h; 5: index entry bodies; 6: backups and history), the item
     * still there, writes logged. */
    assert_int_equal(store_open(path, 0, &s, &d), ST_OK);
    *state = s;
    assert_int_equal(count("SELECT value FROM meta WHERE key = 'schema'"), 6);
    assert_int_equal(count("SELECT count(*) FROM sqlite_master WHERE name IN ('ttl', 'tags', 'tokens', 'staged',"
                           " 'backups', 'history')"), 6);
    assert_int_equal(count("SELECT count(*) FROM items"), 1);
    call(s, "PutItem", "{\"TableName\":\"Old\",\"Item\":{\"pk\":{\"S\":\"new\"}}}");
    assert_int_equal(store_changes(s, "Old", 0, 2, c, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    store_change_free(&c[0]);
}

static void test_trim(void **state)
{
    store *s = *state;
    call(s, "CreateTable", TABLE("Trim", ""));
    call(s, "PutItem", "{\"TableName\":\"Trim\",\"Item\":{\"pk\":{\"S\":\"old\"}}}");
    /* Age the record by a day and a second. */
    exec("UPDATE changes SET t = t - 86401000");
    call(s, "PutItem", "{\"TableName\":\"Trim\",\"Item\":{\"pk\":{\"S\":\"new\"}}}");
    /* ListStreams runs a trim step first (as every stream read does). */
    call(s, "ListStreams", "{}");
    assert_int_equal(count("SELECT count(*) FROM changes"), 1);
    store_change c[2];
    size_t n = 0;
    diag d;
    diag_init(&d);
    assert_int_equal(store_changes(s, "Trim", 0, 2, c, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_string_equal(s_of(&c[0].keys, "pk"), "new");
    store_change_free(&c[0]);
    /* A shorter retention: the next trim takes the rest. */
    store_set_stream_times(s, 0.001, 0);
    struct timespec ts = { 0, 5000000 };
    nanosleep(&ts, NULL);
    call(s, "ListStreams", "{}");
    /* The newest record stays, emptied, so its sequence number is never
     * given again; the feed has nothing. */
    assert_int_equal(count("SELECT count(*) FROM changes WHERE old IS NOT NULL OR new IS NOT NULL"), 0);
    assert_int_equal(count("SELECT count(*) FROM changes"), 1);
    assert_int_equal(store_changes(s, "Trim", 0, 2, c, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    int64_t before = count("SELECT max(seq) FROM changes");
    store_set_stream_times(s, 86400, 0);
    call(s, "PutItem", "{\"TableName\":\"Trim\",\"Item\":{\"pk\":{\"S\":\"after\"}}}");
    assert_int_equal(count("SELECT max(seq) FROM changes"), before + 1);
}

static status via_local(void *ctx, const char *op, const char *input, size_t len, char **out,
                        diag *d)
{
    return store_call(ctx, op, input, len, out, d);
}

static void test_remote_feed(void **state)
{
    store *s = *state, *r;
    diag d;
    diag_init(&d);
    call(s, "CreateTable", TABLE("Plain", ""));
    call(s, "CreateTable", TABLE("Streamed", ",\"StreamSpecification\":{\"StreamEnabled\":true,"
                                 "\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}"));
    call(s, "PutItem", "{\"TableName\":\"Streamed\",\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"1\"}}}");
    call(s, "PutItem", "{\"TableName\":\"Streamed\",\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"2\"}}}");
    assert_int_equal(store_open_remote(via_local, s, "local behind a transport", 0, &r, &d), ST_OK);
    store_change c[4];
    size_t n = 0;
    assert_int_equal(store_changes(r, "Streamed", 0, 4, c, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    assert_int_equal(c[0].event, STORE_MODIFY);
    assert_string_equal(s_of(&c[0].old_item, "v"), "1");
    assert_string_equal(s_of(&c[0].new_item, "v"), "2");
    assert_int_equal(c[1].event, STORE_INSERT);
    assert_string_equal(s_of(&c[1].keys, "pk"), "a");
    assert_true(c[0].seq > c[1].seq);
    for (size_t i = 0; i < n; i++)
        store_change_free(&c[i]);
    /* No stream: said so, nothing made up. */
    assert_int_equal(store_changes(r, "Plain", 0, 4, c, &n, &d), ST_NOT_FOUND);
    assert_non_null(strstr(d.msg, "has no stream"));
    assert_int_equal(n, 0);
    store_close(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_feed, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bulk_writes_none, setup, teardown),
        cmocka_unit_test_setup_teardown(test_schema_v1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_trim, setup, teardown),
        cmocka_unit_test_setup_teardown(test_remote_feed, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
