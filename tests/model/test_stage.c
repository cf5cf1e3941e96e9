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

static av parse(const char *json)
{
    av v;
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), &v, &d) != ST_OK)
        fail_msg("%s: %s", json, d.msg);
    return v;
}

static char *text(const av *v)
{
    buf b = BUF_INIT;
    ddbjson_write_item(&b, v);
    return buf_steal(&b);
}

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
    av_free(&a);
    av_free(&b);
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
    av_free(&a);
    av_free(&b);
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
    av_free(&a);
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
    av_free(&a);
    av_free(&b);
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
    av_free(&out);
    av none = { .type = AV_NONE };
    stage_rebase(&a, &none, &now, &out);
    assert_int_equal(out.type, AV_NONE);
    stage_rebase(&a, &b, &none, &out);
    assert_true(av_equal(&out, &b));
    av_free(&out);
    av_free(&a);
    av_free(&b);
    av_free(&now);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(diff_says_added_changed_removed_in_name_order),
        cmocka_unit_test(an_update_sets_what_differs_and_locks_what_was_read),
        cmocka_unit_test(a_new_item_must_not_exist_and_a_delete_locks_the_item),
        cmocka_unit_test(too_many_attributes_read_lock_only_those_written),
        cmocka_unit_test(rebase_applies_the_change_to_the_item_as_it_is_now),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
