/* saved conditions in the store's file (for a remote store, in the local
 * database beside it: nothing goes to the endpoint), and the builder's requests fed to
 * the store on the samples: the seeds' cases end to end (following twice
 * refused by attribute_not_exists(PK), enrolling twice refused, a follow
 * and its counters in one transaction, a filter of Music downloads). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/saved.h"
#include "data/samples.h"
#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"

#include "tests/data/tmpstore.h"

static void save_list_load_delete(void **state)
{
    store *s = *state;
    diag d;
    diag_init(&d);
    saved_cond *v = NULL;
    size_t n = 99;
    bool found = true;
    /* Nothing saved yet: no table, an empty list. */
    assert_int_equal(saved_list(s, &v, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    saved_cond c;
    assert_int_equal(saved_get(s, "x", &c, &found, &d), ST_OK);
    assert_false(found);

    saved_cond a = { .name = "not-following", .kind = "condition", .expr = "attribute_not_exists(PK)",
                     .names = "", .values = "" };
    saved_cond b = { .name = "it's active", .kind = "filter", .expr = "#status = :status",
                     .names = "{\"#status\":\"status\"}", .values = "{\":status\":{\"S\":\"on\"}}",
                     .updated = 1700000000 };
    assert_int_equal(saved_put(s, &a, &d), ST_OK);
    assert_int_equal(saved_put(s, &b, &d), ST_OK);
    assert_int_equal(saved_list(s, &v, &n, &d), ST_OK);
    assert_int_equal(n, 2);
    assert_string_equal(v[0].name, "it's active");           /* by name */
    assert_string_equal(v[0].values, "{\":status\":{\"S\":\"on\"}}");
    assert_int_equal(v[0].updated, 1700000000);
    assert_string_equal(v[1].expr, "attribute_not_exists(PK)");
    assert_true(v[1].updated > 1700000000);
    for (size_t i = 0; i < n; i++)
        saved_cond_free(&v[i]);
    free(v);

    /* Replace by name; what is saved parses back into a tree. */
    b.expr = "#status <> :status";
    assert_int_equal(saved_put(s, &b, &d), ST_OK);
    assert_int_equal(saved_get(s, "it's active", &c, &found, &d), ST_OK);
    assert_true(found);
    assert_string_equal(c.expr, "#status <> :status");
    assert_string_equal(c.kind, "filter");
    builder *t = NULL;
    assert_int_equal(builder_parse(EXPR_FILTER, c.expr, c.names, c.values, &t, &d), ST_OK);
    assert_int_equal(t->root->n_kids, 1);
    assert_int_equal(t->root->kids[0]->op, BOP_NE);
    builder_free(t);
    saved_cond_free(&c);

    assert_int_equal(saved_delete(s, "it's active", &found, &d), ST_OK);
    assert_true(found);
    assert_int_equal(saved_delete(s, "it's active", &found, &d), ST_OK);
    assert_false(found);

    saved_cond bad = { .name = "a\x1b[2Jb", .expr = "x" };
    assert_int_equal(saved_put(s, &bad, &d), ST_VALIDATION);
    bad.name = "";
    assert_int_equal(saved_put(s, &bad, &d), ST_VALIDATION);

    /* Kept in the file: a new handle sees it. */
    store *s2;
    assert_int_equal(store_open(path, STORE_READ_ONLY, &s2, &d), ST_OK);
    assert_int_equal(saved_list(s2, &v, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    assert_int_equal(saved_put(s2, &a, &d), ST_READ_ONLY);
    saved_cond_free(&v[0]);
    free(v);
    store_close(s2);
}

/* A remote store has no SQLite handle: saved conditions go to the local
 * database given by store_set_local_path, created by the first save, and
 * nothing is sent to the endpoint. (Before, saved_put reached SQLite with
 * the remote store's NULL handle and :save-cond failed.) */
static int sends;

static status send_none(void *ctx, const char *op, const char *input, size_t len, char **out,
                        diag *d)
{
    sends++;
    *out = NULL;
    return diag_set(d, ST_IO, "the test endpoint is not there");
}

static void remote_saves_locally(void **state)
{
    store *r = NULL;
    diag d;
    diag_init(&d);
    sends = 0;
    assert_int_equal(store_open_remote(send_none, NULL, "http://127.0.0.1:1 (test)", 0, &r, &d), ST_OK);
    saved_cond a = { .name = "not-following", .kind = "condition", .expr = "attribute_not_exists(PK)",
                     .names = "", .values = "" };
    saved_cond *v = NULL;
    size_t n = 99;
    bool found = true;
    saved_cond c;

    /* No local database given: a clear refusal, not a crash. */
    assert_int_equal(saved_put(r, &a, &d), ST_VALIDATION);
    assert_non_null(strstr(d.msg, "local database"));
    assert_int_equal(saved_list(r, &v, &n, &d), ST_VALIDATION);

    char local[160];
    snprintf(local, sizeof local, "%s/local.db", dir);
    store_set_local_path(r, local, 0);
    /* Reads before anything is saved find nothing and create no file. */
    diag_init(&d);
    assert_int_equal(saved_list(r, &v, &n, &d), ST_OK);
    assert_int_equal(n, 0);
    assert_int_equal(saved_get(r, "not-following", &c, &found, &d), ST_OK);
    assert_false(found);
    assert_int_equal(saved_delete(r, "not-following", &found, &d), ST_OK);
    assert_false(found);
    assert_int_equal(access(local, F_OK), -1);

    assert_int_equal(saved_put(r, &a, &d), ST_OK);
    assert_int_equal(access(local, F_OK), 0);
    assert_int_equal(saved_get(r, "not-following", &c, &found, &d), ST_OK);
    assert_true(found);
    assert_string_equal(c.expr, "attribute_not_exists(PK)");
    saved_cond_free(&c);
    assert_int_equal(saved_list(r, &v, &n, &d), ST_OK);
    assert_int_equal(n, 1);
    saved_cond_free(&v[0]);
    free(v);
    assert_int_equal(sends, 0);

    /* It is the local file: a local store on it lists the same name. */
    store *l;
    assert_int_equal(store_open(local, STORE_READ_ONLY, &l, &d), ST_OK);
    assert_int_equal(saved_get(l, "not-following", &c, &found, &d), ST_OK);
    assert_true(found);
    saved_cond_free(&c);
    store_close(l);

    assert_int_equal(saved_delete(r, "not-following", &found, &d), ST_OK);
    assert_true(found);
    /* Opened read-only (ddbx --read-only): saving is refused. */
    store_set_local_path(r, local, STORE_READ_ONLY);
    assert_int_equal(saved_put(r, &a, &d), ST_READ_ONLY);
    assert_int_equal(sends, 0);
    store_close(r);
}

/* ---- the seeds, end to end ------------------------------------------------ */

static av item_of(const char *json)
{
    av it;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_parse_item(json, strlen(json), &it, &d), ST_OK);
    return it;
}

static builder *cond_of(const char *text, const char *names, const char *values)
{
    builder *b = NULL;
    diag d;
    diag_init(&d);
    if (builder_parse(EXPR_CONDITION, text, names, values, &b, &d))
        fail_msg("%s: %s", text, d.msg);
    return b;
}

/* Sends a builder request; returns the status, *out the response. */
static status send(store *s, const breq *r, char **out, diag *d)
{
    buf body = BUF_INIT;
    diag_init(d);
    assert_int_equal(builder_req_json(r, &body, d), ST_OK);
    *out = NULL;
    status st = store_call(s, builder_req_op_name(r->op), body.data, body.len, out, d);
    buf_done(&body);
    return st;
}

static void seeds_end_to_end(void **state)
{
    store *s = *state;
    diag d;
    diag_init(&d);
    assert_int_equal(samples_load(s, NULL, NULL, &d), ST_OK);

    /* Following twice is refused by attribute_not_exists(PK), and the
     * edge as it is now comes back (ALL_OLD). */
    av edge = item_of("{\"PK\":{\"S\":\"ACTOR#alice\"},\"SK\":{\"S\":\"TARGET#bob\"},"
                      "\"GSI1PK\":{\"S\":\"TARGET#bob\"},\"GSI1SK\":{\"S\":\"ACTOR#alice\"},"
                      "\"followedAt\":{\"S\":\"2026-01-01T00:00:00Z\"}}");
    builder *once = cond_of("attribute_not_exists(PK)", NULL, NULL);
    breq put = { .op = BREQ_PUT, .table = "SocialGraph", .item = &edge, .cond = once, .all_old_on_fail = true };
    char *out = NULL;
    assert_int_equal(send(s, &put, &out, &d), ST_CONDITION_FAILED);
    assert_string_equal(d.msg, "The conditional request failed");
    assert_non_null(out);
    assert_non_null(strstr(out, "\"followedAt\":{\"S\":\"2021-03-04T10:00:00Z\"}"));
    free(out);

    /* Enrolling a student twice is refused the same way. */
    av enr = item_of("{\"PK\":{\"S\":\"STU#a91\"},\"SK\":{\"S\":\"ENROLL#CRS#math204\"},"
                     "\"GSI1PK\":{\"S\":\"CRS#math204\"},\"GSI1SK\":{\"S\":\"STU#a91\"}}");
    breq put2 = { .op = BREQ_PUT, .table = "StudentCourses", .item = &enr, .cond = once };
    assert_int_equal(send(s, &put2, &out, &d), ST_CONDITION_FAILED);
    free(out);

    /* A new follow with both counters, in one transaction; a second run
     * of the same transaction is cancelled with each action's reason. */
    av edge2 = item_of("{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"TARGET#carol\"},"
                       "\"GSI1PK\":{\"S\":\"TARGET#carol\"},\"GSI1SK\":{\"S\":\"ACTOR#dave\"}}");
    av carol = item_of("{\"PK\":{\"S\":\"ACTOR#carol\"},\"SK\":{\"S\":\"PROFILE\"}}");
    av dave = item_of("{\"PK\":{\"S\":\"ACTOR#dave\"},\"SK\":{\"S\":\"PROFILE\"}}");
    bupdate inc_follower, inc_following;
    assert_int_equal(builder_update_parse("ADD followerCount :one", NULL, "{\":one\":{\"N\":\"1\"}}",
                                          &inc_follower, &d), ST_OK);
    assert_int_equal(builder_update_parse("ADD followingCount :one", NULL, "{\":one\":{\"N\":\"1\"}}",
                                          &inc_following, &d), ST_OK);
    builder *exists = cond_of("attribute_exists(PK)", NULL, NULL);
    breq acts[3] = {
        { .op = BREQ_PUT, .table = "SocialGraph", .item = &edge2, .cond = once },
        { .op = BREQ_UPDATE, .table = "SocialGraph", .item = &carol, .update = &inc_follower, .cond = exists },
        { .op = BREQ_UPDATE, .table = "SocialGraph", .item = &dave, .update = &inc_following, .cond = exists },
    };
    buf txn = BUF_INIT;
    buf_adds(&txn, "{\"TransactItems\":[");
    for (int i = 0; i < 3; i++) {
        if (i)
            buf_addc(&txn, ',');
        assert_int_equal(builder_req_txn_json(&acts[i], &txn, &d), ST_OK);
    }
    buf_adds(&txn, "]}");
    assert_int_equal(store_call(s, "TransactWriteItems", txn.data, txn.len, &out, &d), ST_OK);
    free(out);
    const char *get = "{\"TableName\":\"SocialGraph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#carol\"},\"SK\":{\"S\":\"PROFILE\"}}}";
    assert_int_equal(store_call(s, "GetItem", get, strlen(get), &out, &d), ST_OK);
    assert_non_null(strstr(out, "\"followerCount\":{\"N\":\"4\"}"));
    free(out);
    assert_int_equal(store_call(s, "TransactWriteItems", txn.data, txn.len, &out, &d), ST_TXN_CANCELED);
    assert_non_null(strstr(d.msg, "[ConditionalCheckFailed, None, None]"));
    assert_non_null(out);
    assert_non_null(strstr(out, "CancellationReasons"));
    free(out);
    buf_done(&txn);

    /* A filter of Music downloads by user, through a Scan. */
    builder *by_user = cond_of("#t = :t AND #u = :u", "{\"#t\":\"type\",\"#u\":\"user\"}",
                               "{\":t\":{\"S\":\"download\"},\":u\":{\"S\":\"amdhing\"}}");
    breq scan = { .op = BREQ_SCAN, .table = "Music", .cond = by_user };
    assert_int_equal(send(s, &scan, &out, &d), ST_OK);
    assert_non_null(strstr(out, "\"Count\":2"));
    assert_non_null(strstr(out, "d#download-1"));
    assert_non_null(strstr(out, "d#download-3"));
    free(out);

    /* And a key condition on the inverted index. */
    builder *kc = NULL;
    assert_int_equal(builder_parse(EXPR_KEY, "GSI1PK = :pk", NULL, "{\":pk\":{\"S\":\"TARGET#bob\"}}", &kc, &d), ST_OK);
    breq q = { .op = BREQ_QUERY, .table = "SocialGraph", .index = "GSI1", .keycond = kc };
    assert_int_equal(send(s, &q, &out, &d), ST_OK);
    assert_non_null(strstr(out, "\"Count\":2"));
    free(out);

    builder_free(kc);
    builder_free(by_user);
    builder_free(exists);
    builder_free(once);
    builder_update_done(&inc_follower);
    builder_update_done(&inc_following);
    av_done(&edge);
    av_done(&edge2);
    av_done(&enr);
    av_done(&carol);
    av_done(&dave);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(save_list_load_delete, setup, teardown),
        cmocka_unit_test_setup_teardown(seeds_end_to_end, setup, teardown),
        cmocka_unit_test_setup_teardown(remote_saves_locally, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
