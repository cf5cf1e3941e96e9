/*
 * Hardening of the store's edges: hostile request bytes, file
 * permissions, read-only mode. (Limits and crash/concurrency behaviour
 * are in tests/harden/run.sh, which drives the real binary.)
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "data/store.h"
#include "model/ddbjson.h"

static char dir[64];
static char path[128];

static const char create[] =
    "{\"Operation\":\"CreateTable\",\"Input\":{\"TableName\":\"Tab\","
    "\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}]}}";

static int setup(void **state)
{
    strcpy(dir, "/tmp/ddbx-harden-XXXXXX");
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/t.db", dir);
    mode_t old = umask(0);      /* the store must not rely on the umask */
    store *s;
    diag d;
    diag_init(&d);
    status st = store_open(path, 0, &s, &d);
    umask(old);
    assert_int_equal(st, ST_OK);
    char *out = NULL;
    assert_int_equal(store_call_line(s, create, strlen(create), &out), ST_OK);
    free(out);
    *state = s;
    return 0;
}

static int teardown(void **state)
{
    store_close(*state);
    char cmd[160];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
    return 0;
}

static char *line(store *s, const char *text, size_t len)
{
    char *out = NULL;
    store_call_line(s, text, len, &out);
    assert_non_null(out);
    return out;
}

/* The request line gets exactly the answer want. */
static void answers(store *s, const char *request, const char *want)
{
    char *out = line(s, request, strlen(request));
    assert_string_equal(out, want);
    free(out);
}

static int count_items(store *s)
{
    const char *scan = "{\"Operation\":\"Scan\",\"Input\":{\"TableName\":\"Tab\",\"Select\":\"COUNT\"}}";
    char *out = NULL;
    store_call_line(s, scan, strlen(scan), &out);
    assert_non_null(out);
    int n = -1;
    size_t at = strstr(out, "\"Count\":") ? (size_t)(strstr(out, "\"Count\":") - out) : 0;
    if (at)
        n = atoi(out + at + 8);
    free(out);
    return n;
}

/* Found by fuzzing: cJSON turns \u0000 into a NUL that ends the string, so
 * PutItem stored "x" for "x\u0000y"; invalid UTF-8 went in unchecked. Raw
 * NUL bytes and invalid UTF-8 are a SerializationException now, and nothing
 * is written; the escape \u0000 is a character DynamoDB stores (issue 16),
 * kept byte for byte, not cut. */
static void hostile_request_bytes_are_refused_not_altered(void **state)
{
    store *s = *state;
    static const struct { const char *text; size_t len; } bad[] = {
#define PUT(v) "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"" v "\"}}}}"
        { PUT("x\0y"), sizeof PUT("x\0y") - 1 },
        { PUT("x\377y"), sizeof PUT("x\377y") - 1 },
        { PUT("\xed\xa0\x80"), sizeof PUT("\xed\xa0\x80") - 1 },
#undef PUT
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out = line(s, bad[i].text, bad[i].len);
        if (!strstr(out, "\"Code\":\"SerializationException\""))
            fail_msg("request %zu: want SerializationException, got %s", i, out);
        free(out);
    }
    assert_int_equal(count_items(s), 0);
    /* \u0000 through store_call (the request body alone): stored whole,
     * read back whole, and "a" alone is another key */
    const char *body = "{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"a\\u0000\"}}}";
    char *out = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_call(s, "PutItem", body, strlen(body), &out, &d), ST_OK);
    free(out);
#define GET(k) "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"" k "\"}}}}"
#define ITEM(k) "{\"Output\":{\"Item\":{\"PK\":{\"S\":\"" k "\"}}}}"
    answers(s, GET("a\\u0000"), ITEM("a\\u0000"));
    answers(s, GET("a"), "{\"Output\":{}}");
    assert_int_equal(count_items(s), 1);
    /* and valid non-ASCII text goes through untouched */
    answers(s, "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"\xea\xb9\x80\\u001b[31m\"}}}}",
            "{\"Output\":{}}");
    answers(s, GET("\xea\xb9\x80\\u001b[31m"), ITEM("\xea\xb9\x80\\u001b[31m"));
#undef GET
#undef ITEM
}

/* The database and its WAL and shared-memory files are owner-only even
 * when the umask would allow more. */
static void database_files_are_owner_only(void **state)
{
    store *s = *state;
    const char *put = "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"k\"}}}}";
    mode_t old = umask(0);
    char *out = line(s, put, strlen(put));
    umask(old);
    free(out);
    static const char *const sfx[] = { "", "-wal", "-shm" };
    for (int i = 0; i < 3; i++) {
        char p[160];
        struct stat sb;
        snprintf(p, sizeof p, "%s%s", path, sfx[i]);
        if (stat(p, &sb) != 0)
            fail_msg("%s missing", p);
        if ((sb.st_mode & 0777) != 0600)
            fail_msg("%s has mode %o, want 600", p, (unsigned)(sb.st_mode & 0777));
    }
}

/* Read-only: every way of writing is refused, the file is unchanged. */
static void read_only_store_refuses_every_write(void **state)
{
    store *s = *state;
    const char *put = "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"k\"}}}}";
    char *out = line(s, put, strlen(put));
    free(out);
    store *r;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open(path, STORE_READ_ONLY, &r, &d), ST_OK);
    static const char *const writes[] = {
        "{\"Operation\":\"PutItem\",\"Input\":{\"TableName\":\"Tab\",\"Item\":{\"PK\":{\"S\":\"new\"}}}}",
        "{\"Operation\":\"DeleteItem\",\"Input\":{\"TableName\":\"Tab\",\"Key\":{\"PK\":{\"S\":\"k\"}}}}",
        "{\"Operation\":\"DeleteTable\",\"Input\":{\"TableName\":\"Tab\"}}",
        "{\"Operation\":\"CreateTable\",\"Input\":{\"TableName\":\"Other\",\"BillingMode\":\"PAY_PER_REQUEST\","
        "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"}],"
        "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}]}}",
    };
    for (size_t i = 0; i < sizeof writes / sizeof writes[0]; i++) {
        out = line(r, writes[i], strlen(writes[i]));
        if (!strstr(out, "\"Error\""))
            fail_msg("read-only store accepted %s: %s", writes[i], out);
        free(out);
    }
    /* the bulk path (import, samples) too */
    av item;
    diag_init(&d);
    const char *it = "{\"PK\":{\"S\":\"bulk\"}}";
    assert_int_equal(ddbjson_parse_item(it, strlen(it), &item, &d), ST_OK);
    diag_init(&d);
    status st = store_put_item(r, "Tab", &item, &d);
    assert_int_not_equal(st, ST_OK);
    av_done(&item);
    /* and the typed calls (store_exec: the explorer's, the C callers'),
     * each refused as the door refuses its body: the same message. */
    static const ddb_kind kinds[] = { DDB_PUT, DDB_UPDATE, DDB_DELETE, DDB_TRANSACT_WRITE };
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        ddb_req q;
        ddb_req_init(&q, kinds[i]);
        ddb_req *w = kinds[i] == DDB_TRANSACT_WRITE ? ddb_req_add(&q, DDB_PUT) : &q;
        ddb_req_set_str(&w->table, "Tab");
        av_init_list(&w->key, AV_M);
        av pk;
        av_init_s(&pk, "k", 1);
        av_map_put(&w->key, "PK", 2, &pk);
        if (w->kind == DDB_PUT)
            av_copy(&w->item, &w->key);
        if (w->kind == DDB_UPDATE)
            ddb_req_set_str(&w->update, "REMOVE n");
        buf body = BUF_INIT;
        ddb_req_json(&q, &body);
        char *door = NULL;
        diag dd;
        diag_init(&dd);
        status want = store_call(r, ddb_op_name(ddb_kind_op(q.kind)), body.data, body.len, &door, &dd);
        ddb_res res;
        ddb_res_init(&res);
        ddb_err e;
        ddb_err_init(&e);
        status got = store_exec(r, &q, &res, &e);
        assert_int_not_equal(want, ST_OK);
        assert_int_equal(got, want);
        assert_string_equal(e.d.msg, dd.msg);
        free(door);
        buf_done(&body);
        ddb_err_done(&e);
        ddb_res_done(&res);
        ddb_req_done(&q);
    }
    assert_int_equal(count_items(r), 1);
    store_close(r);
    assert_int_equal(count_items(s), 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(hostile_request_bytes_are_refused_not_altered, setup, teardown),
        cmocka_unit_test_setup_teardown(database_files_are_owner_only, setup, teardown),
        cmocka_unit_test_setup_teardown(read_only_store_refuses_every_write, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
