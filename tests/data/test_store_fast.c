/*
 * test_store_fast — the store's fast paths give the answers of the slow
 * ones: filters evaluated on encoded bytes (store_api.c, bf_*) against
 * the same filters through expr_eval, the table cache trusted on
 * PRAGMA data_version (store.c) when another connection replaces or
 * deletes the table, and GetItem's hot path (store_item_get_fast: a
 * simple request read from its text, the table definition trusted on the
 * file version of the snapshot read) against the general path, in
 * answers, errors, and when this or another connection, in this process
 * or another, writes the item or replaces the table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "data/store.h"
#include "data/store_int.h"

#include "tests/data/tmpstore.h"

static char *call(store *s, const char *op, const char *json, status want, const char *want_msg)
{
    diag d;
    diag_init(&d);
    char *out = NULL;
    status st = store_call(s, op, json, strlen(json), &out, &d);
    if (st != want || (want_msg && strcmp(d.msg, want_msg) != 0))
        fail_msg("%s: want %s \"%s\", got %s \"%s\"\n  request: %s", op, status_name(want),
                 want_msg ? want_msg : "", status_name(st), d.msg, json);
    return out;
}

static char *ok(store *s, const char *op, const char *json)
{
    return call(s, op, json, ST_OK, NULL);
}

static const char table[] =
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]}";

/* One item per kind of value of a (and one without a); b on some. */
static const char *const items[] = {
    "{\"pk\":{\"S\":\"s-clean\"},\"a\":{\"S\":\"x\"},\"b\":{\"S\":\"x\"}}",
    "{\"pk\":{\"S\":\"s-quote\"},\"a\":{\"S\":\"x\\\"y\"}}",
    "{\"pk\":{\"S\":\"s-utf8\"},\"a\":{\"S\":\"\\u00e9t\\u00e9\"}}",
    "{\"pk\":{\"S\":\"s-ctl\"},\"a\":{\"S\":\"x\\ny\"},\"b\":{\"N\":\"1\"}}",
    "{\"pk\":{\"S\":\"s-empty\"},\"a\":{\"S\":\"\"}}",
    "{\"pk\":{\"S\":\"b\"},\"a\":{\"B\":\"AQID\"}}",
    "{\"pk\":{\"S\":\"b-as-s\"},\"a\":{\"S\":\"AQID\"}}",
    "{\"pk\":{\"S\":\"true\"},\"a\":{\"BOOL\":true}}",
    "{\"pk\":{\"S\":\"false\"},\"a\":{\"BOOL\":false}}",
    "{\"pk\":{\"S\":\"null\"},\"a\":{\"NULL\":true}}",
    "{\"pk\":{\"S\":\"n\"},\"a\":{\"N\":\"1\"}}",
    "{\"pk\":{\"S\":\"m\"},\"a\":{\"M\":{\"x\":{\"S\":\"x\"}}},\"b\":{\"BOOL\":true}}",
    "{\"pk\":{\"S\":\"l\"},\"a\":{\"L\":[{\"S\":\"x\"}]}}",
    "{\"pk\":{\"S\":\"ss\"},\"a\":{\"SS\":[\"x\"]}}",
    "{\"pk\":{\"S\":\"missing\"},\"b\":{\"S\":\"x\"}}",
};

static const char *const values[][2] = {
    { ":x", "{\"S\":\"x\"}" }, { ":q", "{\"S\":\"x\\\"y\"}" },
    { ":u", "{\"S\":\"\\u00e9t\\u00e9\"}" }, { ":c", "{\"S\":\"x\\ny\"}" },
    { ":e", "{\"S\":\"\"}" }, { ":b", "{\"B\":\"AQID\"}" }, { ":bs", "{\"S\":\"AQID\"}" },
    { ":t", "{\"BOOL\":true}" }, { ":f", "{\"BOOL\":false}" }, { ":nul", "{\"NULL\":true}" },
    { ":n", "{\"N\":\"1.0\"}" }, { ":zero", "{\"N\":\"0\"}" },
};

/* The ExpressionAttributeValues members the text uses (DynamoDB refuses
 * unused ones). */
static void used_values(char *out, size_t cap, const char *text)
{
    out[0] = '\0';
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        const char *nm = values[i][0], *p = text;
        size_t len = strlen(nm);
        bool used = false;
        while ((p = strstr(p, nm)) != NULL) {
            char c = p[len];
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
                used = true;
            p += len;
        }
        if (used)
            snprintf(out + strlen(out), cap - strlen(out), "%s\"%s\":%s", out[0] ? "," : "", nm,
                     values[i][1]);
    }
}

/* Scans with filter; the count of matches. With slow, the filter is
 * ANDed with a clause the byte filter does not take (size of the key,
 * always > 0), so expr_eval decides: both responses must be equal. */
static long scan_count(store *s, const char *filter)
{
    char req[2048], slow_req[2048], slow[512], vals[1024];
    snprintf(slow, sizeof slow, "size(pk) > :zero AND (%s)", filter);
    used_values(vals, sizeof vals, filter);
    snprintf(req, sizeof req, "{\"TableName\":\"Tab\",\"FilterExpression\":\"%s\"%s%s%s}", filter,
             vals[0] ? ",\"ExpressionAttributeValues\":{" : "", vals, vals[0] ? "}" : "");
    used_values(vals, sizeof vals, slow);
    snprintf(slow_req, sizeof slow_req, "{\"TableName\":\"Tab\",\"FilterExpression\":\"%s\","
             "\"ExpressionAttributeValues\":{%s}}", slow, vals);
    char *fast_out = ok(s, "Scan", req), *slow_out = ok(s, "Scan", slow_req);
    if (strcmp(fast_out, slow_out) != 0)
        fail_msg("filter %s:\n  bytes: %s\n  eval:  %s", filter, fast_out, slow_out);
    const char *p = strstr(fast_out, "\"Count\":");
    assert_non_null(p);
    long n = strtol(p + 8, NULL, 10);
    free(fast_out);
    free(slow_out);
    return n;
}

static void byte_filters_agree_with_the_evaluator(void **state)
{
    store *s = *state;
    free(ok(s, "CreateTable", table));
    char req[512];
    size_t n = sizeof items / sizeof items[0];
    for (size_t i = 0; i < n; i++) {
        snprintf(req, sizeof req, "{\"TableName\":\"Tab\",\"Item\":%s}", items[i]);
        free(ok(s, "PutItem", req));
    }
    /* Equality: exactly the item of that value and type. */
    assert_int_equal(scan_count(s, "a = :x"), 1);
    assert_int_equal(scan_count(s, ":x = a"), 1);
    assert_int_equal(scan_count(s, "a = :q"), 1);
    assert_int_equal(scan_count(s, "a = :u"), 1);
    assert_int_equal(scan_count(s, "a = :c"), 1);
    assert_int_equal(scan_count(s, "a = :e"), 1);
    assert_int_equal(scan_count(s, "a = :b"), 1);       /* not the S "AQID" */
    assert_int_equal(scan_count(s, "a = :bs"), 1);      /* not the B */
    assert_int_equal(scan_count(s, "a = :t"), 1);
    assert_int_equal(scan_count(s, "a = :f"), 1);
    assert_int_equal(scan_count(s, "a = :nul"), 1);
    assert_int_equal(scan_count(s, "a = :n"), 1);       /* N: the evaluator, 1.0 = 1 */
    /* <> is true when the attribute is missing. */
    assert_int_equal(scan_count(s, "a <> :x"), (long)n - 1);
    assert_int_equal(scan_count(s, "a <> :t"), (long)n - 1);
    assert_int_equal(scan_count(s, "attribute_not_exists(a)"), 1);
    assert_int_equal(scan_count(s, "attribute_exists(a)"), (long)n - 1);
    assert_int_equal(scan_count(s, "NOT attribute_exists(a) OR a = :x"), 2);
    assert_int_equal(scan_count(s, "a = :x AND b = :x"), 1);
    assert_int_equal(scan_count(s, "b = :x AND NOT (a = :x)"), 1);
    assert_int_equal(scan_count(s, "(a = :x OR a = :q) AND NOT attribute_not_exists(b)"), 1);
    assert_int_equal(scan_count(s, "NOT (a <> :t)"), 1);
    /* Nested paths and other shapes go to the evaluator; same answers. */
    assert_int_equal(scan_count(s, "a.x = :x"), 1);
    assert_int_equal(scan_count(s, "a[0] = :x"), 1);
    assert_int_equal(scan_count(s, "a = :x OR size(a) > :zero"), (long)n - 6);
}

static const char table_id[] =
    "{\"TableName\":\"Tab\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"id\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"id\",\"KeyType\":\"HASH\"}]}";

static void the_table_cache_follows_other_connections(void **state)
{
    store *a = *state, *b;
    diag d;
    diag_init(&d);
    free(ok(a, "CreateTable", table));
    free(ok(a, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"pk\":{\"S\":\"k\"}}}"));
    char *out = ok(a, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"k\"}}}");
    assert_non_null(strstr(out, "\"Item\":{\"pk\":{\"S\":\"k\"}}"));
    free(out);
    /* Another connection replaces the table with one keyed differently:
     * the first must use the new definition, not its cached one. */
    assert_int_equal(store_open(path, 0, &b, &d), ST_OK);
    free(ok(b, "DeleteTable", "{\"TableName\":\"Tab\"}"));
    free(ok(b, "CreateTable", table_id));
    free(call(a, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"pk\":{\"S\":\"k\"}}}", ST_VALIDATION,
              "The provided key element does not match the schema"));
    free(ok(a, "PutItem", "{\"TableName\":\"Tab\",\"Item\":{\"id\":{\"N\":\"7\"}}}"));
    out = ok(a, "Scan", "{\"TableName\":\"Tab\"}");
    assert_non_null(strstr(out, "\"Items\":[{\"id\":{\"N\":\"7\"}}],\"Count\":1"));
    free(out);
    /* Deleted elsewhere: not found here. */
    free(ok(b, "DeleteTable", "{\"TableName\":\"Tab\"}"));
    free(call(a, "GetItem", "{\"TableName\":\"Tab\",\"Key\":{\"id\":{\"N\":\"7\"}}}", ST_NOT_FOUND, NULL));
    store_close(b);
}

static const char table_sk[] =
    "{\"TableName\":\"Pag\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"p\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"s\",\"AttributeType\":\"N\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"p\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"s\",\"KeyType\":\"RANGE\"}]}";

/* Pages of a Scan (Limit, ExclusiveStartKey) in one segment of segs (0:
 * no segments): the items' keys appended to out as "p/s " and the page
 * count returned. */
static int scan_pages(store *s, int limit, int seg, int segs, char *out, size_t cap)
{
    char req[1024], start[256] = "";
    int pages = 0;
    for (;;) {
        char seg_text[64] = "";
        if (segs)
            snprintf(seg_text, sizeof seg_text, ",\"Segment\":%d,\"TotalSegments\":%d", seg, segs);
        snprintf(req, sizeof req, "{\"TableName\":\"Pag\",\"Limit\":%d%s%s%s%s}", limit, seg_text,
                 start[0] ? ",\"ExclusiveStartKey\":" : "", start, "");
        char *resp = ok(s, "Scan", req);
        pages++;
        assert_true(pages < 1000);
        const char *p = strstr(resp, "\"Items\":[");
        const char *items_end = strstr(resp, "],\"Count\":");
        assert_non_null(p);
        assert_non_null(items_end);
        /* items look like {"p":{"S":"P1"},"s":{"N":"3"}} */
        while ((p = strstr(p, "{\"p\":{\"S\":\"")) != NULL && p < items_end) {
            p += strlen("{\"p\":{\"S\":\"");
            const char *q = strchr(p, '"');
            const char *n = strstr(q, "\"N\":\"") + strlen("\"N\":\"");
            const char *ne = strchr(n, '"');
            snprintf(out + strlen(out), cap - strlen(out), "%.*s/%.*s ", (int)(q - p), p, (int)(ne - n), n);
            p = ne;
        }
        const char *lek = strstr(resp, "\"LastEvaluatedKey\":");
        if (!lek) {
            free(resp);
            return pages;
        }
        lek += strlen("\"LastEvaluatedKey\":");
        const char *end = strstr(lek, "}}");   /* the key map ends with its last value's */
        assert_non_null(end);
        snprintf(start, sizeof start, "%.*s", (int)(end + 2 - lek), lek);
        free(resp);
    }
}

static int count_words(const char *s)
{
    int n = 0;
    for (const char *p = s; *p; p++)
        n += *p == ' ';
    return n;
}

static void scans_page_through_every_item_once(void **state)
{
    store *s = *state;
    free(ok(s, "CreateTable", table_sk));
    char req[256];
    /* five partitions of one to four items; one partition of a single item */
    static const int sizes[] = { 3, 1, 4, 2, 3 };
    int total = 0;
    for (int p = 0; p < 5; p++)
        for (int k = 0; k < sizes[p]; k++, total++) {
            snprintf(req, sizeof req, "{\"TableName\":\"Pag\",\"Item\":{\"p\":{\"S\":\"P%d\"},"
                     "\"s\":{\"N\":\"%d\"}}}", p, k);
            free(ok(s, "PutItem", req));
        }
    static char whole[4096], paged[4096];
    whole[0] = '\0';
    assert_int_equal(scan_pages(s, 100, 0, 0, whole, sizeof whole), 1);
    assert_int_equal(count_words(whole), total);
    for (int limit = 1; limit <= 5; limit++) {
        paged[0] = '\0';
        scan_pages(s, limit, 0, 0, paged, sizeof paged);
        if (strcmp(whole, paged) != 0)
            fail_msg("Limit %d: %s\n  whole: %s", limit, paged, whole);
        /* two segments: together every item once */
        paged[0] = '\0';
        scan_pages(s, limit, 0, 2, paged, sizeof paged);
        scan_pages(s, limit, 1, 2, paged, sizeof paged);
        assert_int_equal(count_words(paged), total);
        for (const char *w = whole; *w;) {
            const char *sp = strchr(w, ' ');
            char one[32];
            snprintf(one, sizeof one, " %.*s ", (int)(sp - w), w);
            char hay[4200];
            snprintf(hay, sizeof hay, " %s", paged);
            if (!strstr(hay, one))
                fail_msg("Limit %d, 2 segments: %s missing from %s", limit, one, paged);
            w = sp + 1;
        }
    }
}

/* ---- GetItem's hot path ---- */

static const char table_g[] =
    "{\"TableName\":\"G.t-1\",\"BillingMode\":\"PAY_PER_REQUEST\","
    "\"AttributeDefinitions\":[{\"AttributeName\":\"p\",\"AttributeType\":\"S\"},"
    "{\"AttributeName\":\"s\",\"AttributeType\":\"N\"},{\"AttributeName\":\"g\",\"AttributeType\":\"S\"}],"
    "\"KeySchema\":[{\"AttributeName\":\"p\",\"KeyType\":\"HASH\"},"
    "{\"AttributeName\":\"s\",\"KeyType\":\"RANGE\"}],"
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"gix\",\"KeySchema\":[{\"AttributeName\":\"g\","
    "\"KeyType\":\"HASH\"}],\"Projection\":{\"ProjectionType\":\"ALL\"}}]}";

/* The same request for the general path: a member given as null, which
 * DynamoDB reads as absent and the hot path does not take. */
static void general_form(const char *req, char *out, size_t cap)
{
    size_t n = strlen(req);
    while (n && req[n - 1] != '}')
        n--;
    assert_true(n > 1);
    snprintf(out, cap, "%.*s,\"ProjectionExpression\":null}", (int)(n - 1), req);
}

/* What a call gave: its status, message and response (freed here). */
typedef struct answer {
    status st;
    const char *msg;
    char *out;
} answer;

/* The hot path's answer a is the general path's b; the hot path
 * answered (fast) or not since its count was before. */
static void same_answers(store *s, const char *req, uint64_t before, bool fast, answer a, answer b)
{
    if (a.st != b.st || strcmp(a.msg, b.msg) != 0 || (a.out == NULL) != (b.out == NULL) ||
        (a.out && strcmp(a.out, b.out) != 0))
        fail_msg("%s\n  hot path: %s %s %s\n  general:  %s %s %s", req, status_name(a.st), a.msg,
                 a.out ? a.out : "", status_name(b.st), b.msg, b.out ? b.out : "");
    if ((s->fast_gets == before + 1) != fast)
        fail_msg("%s: %s by the hot path", req, fast ? "not answered" : "answered");
    free(a.out);
    free(b.out);
}

/* req answered by the hot path (fast: true) or not, with the general
 * path's answer: the same status, message and response. */
static void get_agrees(store *s, const char *req, bool fast)
{
    char slow_req[4096];
    general_form(req, slow_req, sizeof slow_req);
    diag d1, d2;
    diag_init(&d1);
    diag_init(&d2);
    char *a = NULL, *b = NULL;
    status st2 = store_call(s, "GetItem", slow_req, strlen(slow_req), &b, &d2);
    uint64_t before = s->fast_gets;
    status st1 = store_call(s, "GetItem", req, strlen(req), &a, &d1);
    same_answers(s, req, before, fast, (answer){ st1, d1.msg, a }, (answer){ st2, d2.msg, b });
}

static void get_item_hot_path_answers_as_the_general_one(void **state)
{
    store *s = *state;
    free(ok(s, "CreateTable", table_g));
    free(ok(s, "PutItem", "{\"TableName\":\"G.t-1\",\"Item\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"},"
            "\"g\":{\"S\":\"x\"},\"v\":{\"L\":[{\"S\":\"q\\\"\\u0000\"},{\"N\":\"-0.50\"}]}}}"));
    free(ok(s, "PutItem", "{\"TableName\":\"G.t-1\",\"Item\":{\"p\":{\"S\":\"\xed\x95\x9c\xea\xb8\x80\"},"
            "\"s\":{\"N\":\"100\"},\"m\":{\"M\":{\"k\":{\"BOOL\":true}}}}}"));
    /* The first read checks the definition in a read transaction; from
     * then on the hot path may trust it. */
    free(ok(s, "GetItem", "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}"));
    static const char *const hot[] = {
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}",
        "{\"Key\":{\"s\":{\"N\":\"1.0\"},\"p\":{\"S\":\"a\"}},\"TableName\":\"G.t-1\"}",
        " {\n\t\"TableName\" : \"G.t-1\" , \"Key\" : { \"p\" : { \"S\" : \"a\" } , \"s\" : { \"N\" : \"1E0\" } } }\r\n",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"\xed\x95\x9c\xea\xb8\x80\"},\"s\":{\"N\":\"100\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"b\"},\"s\":{\"N\":\"1\"}}}",   /* no item */
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"ConsistentRead\":true,"
        "\"ReturnConsumedCapacity\":\"TOTAL\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"ConsistentRead\":false,"
        "\"ReturnConsumedCapacity\":\"INDEXES\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"b\"},\"s\":{\"N\":\"1\"}},"
        "\"ReturnConsumedCapacity\":\"INDEXES\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},"
        "\"ReturnConsumedCapacity\":\"NONE\"}",
    };
    for (size_t i = 0; i < sizeof hot / sizeof hot[0]; i++)
        get_agrees(s, hot[i], true);
    /* What the hot path leaves to the general one: errors in DynamoDB's
     * order and words, and members or values it does not take. */
    static const char *const general[] = {
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"S\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"},\"x\":{\"S\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1x\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"ReturnConsumedCapacity\":\"ALL\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"ConsistentRead\":\"yes\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"ProjectionExpression\":\"g\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"AttributesToGet\":[\"g\"]}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}},\"Unknown\":1}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\\u0000\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"p\":{\"S\":\"b\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"B\":\"YQ==\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\",\"N\":\"1\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\",\"TableName\":\"Other\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"Missing\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G t\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}",
        "{\"TableName\":\"G.t-1\"}",
        "{\"TableName\":\"G.t-1\",\"Key\":{}}",
    };
    for (size_t i = 0; i < sizeof general / sizeof general[0]; i++)
        get_agrees(s, general[i], false);
    /* Inside a transaction of the caller's: the general path. */
    diag d;
    diag_init(&d);
    assert_int_equal(store_begin(s, &d), ST_OK);
    get_agrees(s, hot[0], false);
    assert_int_equal(store_commit(s, &d), ST_OK);
    /* A key too large, an invalid UTF-8 byte, a raw NUL. */
    char big[3200];
    snprintf(big, sizeof big, "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"%02100d\"},\"s\":{\"N\":\"1\"}}}", 0);
    get_agrees(s, big, false);
    static const char bad_utf8[] = "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"\xc3\x28\"},\"s\":{\"N\":\"1\"}}}";
    get_agrees(s, bad_utf8, false);
    uint64_t before = s->fast_gets;
    free(call(s, "GetItem", "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}} x",
              ST_SERIALIZATION, "invalid JSON at line 1, column 59"));
    assert_int_equal(s->fast_gets, before);
    char nul[] = "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"aXb\"},\"s\":{\"N\":\"1\"}}}";
    *strchr(nul, 'X') = '\0';
    diag_init(&d);
    char *out = NULL;
    assert_int_not_equal(store_call(s, "GetItem", nul, sizeof nul - 1, &out, &d), ST_OK);
    assert_int_equal(s->fast_gets, before);
    free(out);
}

/* The same through the `ddbx api` line protocol (store_call_line). */
static void line_agrees(store *s, const char *line, const char *slow_line, bool fast)
{
    char *a = NULL, *b = NULL;
    status st2 = store_call_line(s, slow_line, strlen(slow_line), &b);
    uint64_t before = s->fast_gets;
    status st1 = store_call_line(s, line, strlen(line), &a);
    same_answers(s, line, before, fast, (answer){ st1, "", a }, (answer){ st2, "", b });
}

static void get_item_lines_take_the_hot_path(void **state)
{
    store *s = *state;
    free(ok(s, "CreateTable", table_g));
    free(ok(s, "PutItem", "{\"TableName\":\"G.t-1\",\"Item\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}"));
    free(ok(s, "GetItem", "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}"));
#define GET_IN "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}"
#define GENERAL ",\"ProjectionExpression\":null}"
    line_agrees(s, "{\"Operation\":\"GetItem\",\"Input\":" GET_IN "}}",
                "{\"Operation\":\"GetItem\",\"Input\":" GET_IN GENERAL "}", true);
    line_agrees(s, " { \"Operation\" : \"GetItem\" , \"Input\" : " GET_IN "} } \n",
                "{\"Operation\":\"GetItem\",\"Input\":" GET_IN GENERAL "}", true);
    /* Other orders, members and errors: the general way. */
    line_agrees(s, "{\"Input\":" GET_IN "},\"Operation\":\"GetItem\"}",
                "{\"Operation\":\"GetItem\",\"Input\":" GET_IN GENERAL "}", false);
    line_agrees(s, "{\"Operation\":\"GetItem\",\"Input\":" GET_IN "},\"X\":1}",
                "{\"Operation\":\"GetItem\",\"Input\":" GET_IN GENERAL "}", false);
    line_agrees(s, "{\"Operation\":\"GetItem\",\"Input\":" GET_IN "}",
                "{\"Operation\":\"GetItem\",\"Input\":" GET_IN "}", false);
    line_agrees(s, "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"G.t-1\"}}",
                "{\"Operation\":\"GetItem\",\"Input\":{\"TableName\":\"G.t-1\"" GENERAL "}", false);
#undef GET_IN
#undef GENERAL
}

static const char item_g[] = "{\"TableName\":\"G.t-1\",\"Key\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"}}}";

/* GetItem of item_g by a, which must give want and, when hot, be
 * answered by the hot path. */
static void get_sees(store *a, const char *want, bool hot)
{
    uint64_t before = a->fast_gets;
    char *out = ok(a, "GetItem", item_g);
    if (strcmp(out, want) != 0)
        fail_msg("GetItem: %s\n  want: %s", out, want);
    if (hot && a->fast_gets != before + 1)
        fail_msg("GetItem %s: not answered by the hot path", want);
    free(out);
}

static void put_v(store *s, const char *v)
{
    char req[256];
    snprintf(req, sizeof req, "{\"TableName\":\"G.t-1\",\"Item\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"},"
             "\"v\":{\"S\":\"%s\"}}}", v);
    free(ok(s, "PutItem", req));
}

/* The same table made again elsewhere: the same schema, so the cached
 * definition would still match the key; only the table's row id tells. */
static void recreate(store *s, const char *v)
{
    free(ok(s, "DeleteTable", "{\"TableName\":\"G.t-1\"}"));
    free(ok(s, "CreateTable", table_g));
    put_v(s, v);
}

#define ITEM(v) "{\"Item\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"},\"v\":{\"S\":\"" v "\"}}}"

static void get_item_hot_path_follows_every_writer(void **state)
{
    store *a = *state, *b;
    diag d;
    diag_init(&d);
    free(ok(a, "CreateTable", table_g));
    put_v(a, "1");
    get_sees(a, ITEM("1"), false);
    get_sees(a, ITEM("1"), true);
    /* This connection writes: seen, and the hot path resumes. */
    put_v(a, "2");
    get_sees(a, ITEM("2"), false);
    get_sees(a, ITEM("2"), true);
    /* This connection recreates the table. */
    recreate(a, "2b");
    get_sees(a, ITEM("2b"), false);
    get_sees(a, ITEM("2b"), true);
    /* Another connection of this process writes the item, then deletes it. */
    assert_int_equal(store_open(path, 0, &b, &d), ST_OK);
    put_v(b, "3");
    get_sees(a, ITEM("3"), false);
    get_sees(a, ITEM("3"), true);
    free(ok(b, "DeleteItem", item_g));
    get_sees(a, "{}", false);
    get_sees(a, "{}", true);
    /* It recreates the table: the new one's item, not the old id's nothing. */
    recreate(b, "4");
    get_sees(a, ITEM("4"), false);
    get_sees(a, ITEM("4"), true);
    /* It replaces the table with one keyed differently. */
    free(ok(b, "DeleteTable", "{\"TableName\":\"G.t-1\"}"));
    free(ok(b, "CreateTable", "{\"TableName\":\"G.t-1\",\"BillingMode\":\"PAY_PER_REQUEST\","
            "\"AttributeDefinitions\":[{\"AttributeName\":\"p\",\"AttributeType\":\"S\"}],"
            "\"KeySchema\":[{\"AttributeName\":\"p\",\"KeyType\":\"HASH\"}]}"));
    uint64_t before = a->fast_gets;
    free(call(a, "GetItem", item_g, ST_VALIDATION, "The provided key element does not match the schema"));
    assert_int_equal(a->fast_gets, before);
    /* And deletes it. */
    free(ok(b, "DeleteTable", "{\"TableName\":\"G.t-1\"}"));
    free(call(a, "GetItem", item_g, ST_NOT_FOUND, NULL));
    store_close(b);
    /* Another process recreates it. */
    free(ok(a, "CreateTable", table_g));
    put_v(a, "5");
    get_sees(a, ITEM("5"), false);
    get_sees(a, ITEM("5"), true);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        store *c;
        if (store_open(path, 0, &c, &d) != ST_OK)
            _exit(2);
        char *o = NULL;
        const char *reqs[3][2] = {
            { "DeleteTable", "{\"TableName\":\"G.t-1\"}" },
            { "CreateTable", table_g },
            { "PutItem", "{\"TableName\":\"G.t-1\",\"Item\":{\"p\":{\"S\":\"a\"},\"s\":{\"N\":\"1\"},"
                         "\"v\":{\"S\":\"6\"}}}" },
        };
        for (int i = 0; i < 3; i++) {
            if (store_call(c, reqs[i][0], reqs[i][1], strlen(reqs[i][1]), &o, &d) != ST_OK)
                _exit(3);
            free(o);
        }
        store_close(c);
        _exit(0);
    }
    int wst;
    assert_int_equal(waitpid(pid, &wst, 0), pid);
    assert_true(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
    get_sees(a, ITEM("6"), false);
    get_sees(a, ITEM("6"), true);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(byte_filters_agree_with_the_evaluator),
        T(the_table_cache_follows_other_connections),
        T(scans_page_through_every_item_once),
        T(get_item_hot_path_answers_as_the_general_one),
        T(get_item_hot_path_follows_every_writer),
        T(get_item_lines_take_the_hot_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
