/*
 * Staged edits, the pure part (model/stage.c): the per-attribute diff,
 * the conditional action a change commits as, and rebasing a change onto
 * the item as another writer left it.
 *
 * Where the expectations come from: DynamoDB's developer guide,
 * "Condition expressions" (a comparison `a = :v` holds only when the
 * attribute exists with that value, attribute_not_exists for absence) and
 * "Optimistic locking with version number" (a write conditioned on what
 * was read); TransactWriteItems' ReturnValuesOnConditionCheckFailure for
 * the item as it is when a condition fails; expression strings are at
 * most 4 KB ("Service, account, and table quotas").
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/stage.h"

#include "items.h"

static void diff_says_added_changed_removed_in_name_order(void **state)
{
    av a = parse("{\"PK\":{\"S\":\"p\"},\"city\":{\"S\":\"Seoul\"},\"n\":{\"N\":\"1\"},\"old\":{\"BOOL\":true}}");
    av b = parse("{\"PK\":{\"S\":\"p\"},\"city\":{\"S\":\"Jeju\"},\"n\":{\"N\":\"1.0\"},\"new\":{\"SS\":[\"x\"]}}");
    stage_attr *d;
    size_t n = stage_diff(&a, &b, &d);
    assert_int_equal(n, 3);   /* n: 1 and 1.0 are the same number */
    assert_int_equal(d[0].op, STAGE_CHANGED);
    assert_memory_equal(d[0].name, "city", 4);
    assert_string_equal(d[0].old_v->u.s.ptr, "Seoul");
    assert_string_equal(d[0].new_v->u.s.ptr, "Jeju");
    assert_int_equal(d[1].op, STAGE_ADDED);
    assert_memory_equal(d[1].name, "new", 3);
    assert_null(d[1].old_v);
    assert_int_equal(d[2].op, STAGE_REMOVED);
    assert_memory_equal(d[2].name, "old", 3);
    assert_null(d[2].new_v);
    free(d);
    av none = { .type = AV_NONE };
    assert_int_equal(stage_diff(&none, &b, &d), 4);
    assert_int_equal(d[0].op, STAGE_ADDED);
    free(d);
    assert_string_equal(stage_kind(&none, &b), "new");
    assert_string_equal(stage_kind(&a, &none), "delete");
    assert_string_equal(stage_kind(&a, &b), "update");
    assert_string_equal(stage_kind(&a, &a), "none");
    av_done(&a);
    av_done(&b);
}

static void an_update_sets_what_differs_and_locks_what_was_read(void **state)
{
    av a = parse("{\"PK\":{\"S\":\"p\"},\"SK\":{\"S\":\"s\"},\"city\":{\"S\":\"Seoul\"},\"gone\":{\"N\":\"1\"},\"same\":{\"L\":[]}}");
    av b = parse("{\"PK\":{\"S\":\"p\"},\"SK\":{\"S\":\"s\"},\"city\":{\"S\":\"Jeju\"},\"add\":{\"N\":\"2\"},\"same\":{\"L\":[]}}");
    ddb_req r;
    stage_action("T", "PK", "SK", &a, &b, &r);
    assert_int_equal(r.kind, DDB_UPDATE);
    assert_string_equal(r.table, "T");
    char *k = text(&r.key);
    assert_string_equal(k, "{\"PK\":{\"S\":\"p\"},\"SK\":{\"S\":\"s\"}}");
    free(k);
    /* Read: city, gone, same (keys are the key); added: add. */
    assert_string_equal(r.cond, "attribute_exists(#a0) AND #a1 = :o1 AND #a2 = :o2 AND #a3 = :o3"
                                " AND attribute_not_exists(#a4)");
    assert_string_equal(r.update, "SET #a5 = :n5, #a6 = :n6 REMOVE #a7");
    char *names = text(&r.names), *values = text(&r.values);
    assert_string_equal(names, "{\"#a0\":{\"S\":\"PK\"},\"#a1\":{\"S\":\"city\"},\"#a2\":{\"S\":\"gone\"},"
                               "\"#a3\":{\"S\":\"same\"},\"#a4\":{\"S\":\"add\"},\"#a5\":{\"S\":\"add\"},"
                               "\"#a6\":{\"S\":\"city\"},\"#a7\":{\"S\":\"gone\"}}");
    assert_string_equal(values, "{\":n5\":{\"N\":\"2\"},\":n6\":{\"S\":\"Jeju\"},\":o1\":{\"S\":\"Seoul\"},"
                                "\":o2\":{\"N\":\"1\"},\":o3\":{\"L\":[]}}");
    assert_true(r.rv_fail_all_old);
    free(names);
    free(values);
    ddb_req_done(&r);
    av_done(&a);
    av_done(&b);
}

static void a_new_item_must_not_exist_and_a_delete_locks_the_item(void **state)
{
    av none = { .type = AV_NONE };
    av a = parse("{\"PK\":{\"S\":\"p\"},\"v\":{\"N\":\"3\"}}");
    ddb_req r;
    stage_action("T", "PK", NULL, &none, &a, &r);
    assert_int_equal(r.kind, DDB_PUT);
    assert_string_equal(r.cond, "attribute_not_exists(#a0)");
    assert_true(av_equal(&r.item, &a));
    ddb_req_done(&r);
    stage_action("T", "PK", NULL, &a, &none, &r);
    assert_int_equal(r.kind, DDB_DELETE);
    assert_string_equal(r.cond, "attribute_exists(#a0) AND #a1 = :o1");
    assert_null(r.update);
    ddb_req_done(&r);
    stage_action("T", "PK", NULL, &a, &a, &r);
    assert_int_equal(r.kind, DDB_CHECK);
    ddb_req_done(&r);
    av_done(&a);
}

static void too_many_attributes_read_lock_only_those_written(void **state)
{
    buf j = BUF_INIT;
    buf_adds(&j, "{\"PK\":{\"S\":\"p\"}");
    for (int i = 0; i < 400; i++)
        buf_printf(&j, ",\"attribute%03d\":{\"N\":\"%d\"}", i, i);
    buf_adds(&j, "}");
    av a = parse(j.data), b;
    av_copy(&b, &a);
    av one;
    av_init_s(&one, "x", 1);
    av_map_put(&b, "attribute007", 12, &one);
    ddb_req r;
    stage_action("T", "PK", NULL, &a, &b, &r);
    assert_true(strlen(r.cond) <= STAGE_MAX_COND);
    assert_string_equal(r.cond, "attribute_exists(#a0) AND #a1 = :o1");
    assert_string_equal(r.update, "SET #a2 = :n2");
    ddb_req_done(&r);
    buf_done(&j);
    av_done(&a);
    av_done(&b);
}

static void rebase_applies_the_change_to_the_item_as_it_is_now(void **state)
{
    av a = parse("{\"PK\":{\"S\":\"p\"},\"city\":{\"S\":\"Seoul\"},\"x\":{\"N\":\"1\"}}");
    av b = parse("{\"PK\":{\"S\":\"p\"},\"city\":{\"S\":\"Jeju\"}}");
    av now = parse("{\"PK\":{\"S\":\"p\"},\"city\":{\"S\":\"Busan\"},\"x\":{\"N\":\"1\"},\"theirs\":{\"S\":\"t\"}}");
    av out;
    stage_rebase(&a, &b, &now, &out);
    char *t = text(&out);
    assert_string_equal(t, "{\"PK\":{\"S\":\"p\"},\"city\":{\"S\":\"Jeju\"},\"theirs\":{\"S\":\"t\"}}");
    free(t);
    av_done(&out);
    av none = { .type = AV_NONE };
    stage_rebase(&a, &none, &now, &out);
    assert_int_equal(out.type, AV_NONE);
    stage_rebase(&a, &b, &none, &out);
    assert_true(av_equal(&out, &b));
    av_done(&out);
    av_done(&a);
    av_done(&b);
    av_done(&now);
}

/* UpdateItem's semantics (developer guide, "Update expressions": ADD to
 * a number, SET, REMOVE; a missing item starts as its key; only REMOVE on
 * a missing item writes nothing) and ConditionExpression evaluated on the
 * item as read, as the builder's staged write computes them. */
static ddb_req write_req(ddb_kind kind, const char *update, const char *cond, const char *values)
{
    ddb_req r;
    ddb_req_init(&r, kind);
    ddb_req_set_str(&r.table, "T");
    r.key = parse("{\"PK\":{\"S\":\"p\"}}");
    if (kind == DDB_PUT)
        r.item = parse("{\"PK\":{\"S\":\"p\"},\"x\":{\"N\":\"5\"}}");
    ddb_req_set_str(&r.update, update);
    ddb_req_set_str(&r.cond, cond);
    if (values)
        r.values = parse(values);
    return r;
}

static void a_staged_write_applies_the_request_to_the_item_as_read(void **state)
{
    (void)state;
    av read = parse("{\"PK\":{\"S\":\"p\"},\"n\":{\"N\":\"1\"},\"gone\":{\"S\":\"o\"}}");
    av none = { .type = AV_NONE }, out;
    diag d;
    diag_init(&d);
    ddb_req r = write_req(DDB_UPDATE, "ADD n :one SET c = :c REMOVE gone", "n = :one",
                          "{\":one\":{\"N\":\"1\"},\":c\":{\"S\":\"Jeju\"}}");
    status st0 = stage_write(&r, &read, &out, &d);
    if (st0 != ST_OK)
        fail_msg("%s", d.msg);
    char *t = text(&out);
    assert_string_equal(t, "{\"PK\":{\"S\":\"p\"},\"c\":{\"S\":\"Jeju\"},\"n\":{\"N\":\"2\"}}");
    free(t);
    av_done(&out);
    /* The condition fails on no item: nothing. */
    assert_int_equal(stage_write(&r, &none, &out, &d), ST_CONDITION_FAILED);
    assert_int_equal(out.type, AV_NONE);
    ddb_req_done(&r);
    /* An update of a missing item starts from its key; REMOVE alone makes none. */
    r = write_req(DDB_UPDATE, "SET c = :c", NULL, "{\":c\":{\"S\":\"Jeju\"}}");
    assert_int_equal(stage_write(&r, &none, &out, &d), ST_OK);
    t = text(&out);
    assert_string_equal(t, "{\"PK\":{\"S\":\"p\"},\"c\":{\"S\":\"Jeju\"}}");
    free(t);
    av_done(&out);
    ddb_req_done(&r);
    r = write_req(DDB_UPDATE, "REMOVE c", NULL, NULL);
    assert_int_equal(stage_write(&r, &none, &out, &d), ST_OK);
    assert_int_equal(out.type, AV_NONE);
    ddb_req_done(&r);
    /* A Put is its item; a Delete leaves none; an unused value is refused. */
    r = write_req(DDB_PUT, NULL, "attribute_not_exists(PK)", NULL);
    assert_int_equal(stage_write(&r, &none, &out, &d), ST_OK);
    assert_non_null(av_map_get(&out, "x", 1));
    av_done(&out);
    assert_int_equal(stage_write(&r, &read, &out, &d), ST_CONDITION_FAILED);
    ddb_req_done(&r);
    r = write_req(DDB_DELETE, NULL, NULL, "{\":u\":{\"N\":\"1\"}}");
    assert_int_equal(stage_write(&r, &read, &out, &d), ST_VALIDATION);
    av_done(&r.values);
    r.values.type = AV_NONE;
    assert_int_equal(stage_write(&r, &read, &out, &d), ST_OK);
    assert_int_equal(out.type, AV_NONE);
    ddb_req_done(&r);
    av_done(&read);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diff_says_added_changed_removed_in_name_order),
        cmocka_unit_test(an_update_sets_what_differs_and_locks_what_was_read),
        cmocka_unit_test(a_new_item_must_not_exist_and_a_delete_locks_the_item),
        cmocka_unit_test(too_many_attributes_read_lock_only_those_written),
        cmocka_unit_test(rebase_applies_the_change_to_the_item_as_it_is_now),
        cmocka_unit_test(a_staged_write_applies_the_request_to_the_item_as_read),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
