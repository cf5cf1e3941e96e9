/* ddbres_meta: the bodies of ListTagsOfResource, the resource-policy
 * operations and ListStreams. The expected bytes are what the JSON door
 * printed before these answers were typed: `ddbx api` of main at bcf000a
 * (2026-12-06), members in the API references' "Response Syntax" order. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbres_meta.h"
#include "model/mem.h"
#include "tests/model/items.h"

static void tags_none_and_some(void **state)
{
    (void)state;
    ddb_tags_res r = DDB_TAGS_RES_INIT;
    buf b = BUF_INIT;
    ddbres_tags_json(&r, &b);
    assert_string_equal(b.data, "{\"Tags\":[]}");
    ddbres_tags_add(&r, "a", "");
    ddbres_tags_add(&r, "b", "x\"y");
    buf_reset(&b);
    ddbres_tags_json(&r, &b);
    assert_string_equal(b.data, "{\"Tags\":[{\"Key\":\"a\",\"Value\":\"\"},{\"Key\":\"b\",\"Value\":\"x\\\"y\"}]}");
    for (int i = 0; i < 20; i++)
        ddbres_tags_add(&r, "k", "v");
    assert_int_equal(r.n, 22);
    ddbres_tags_done(&r);
    assert_int_equal(r.n, 0);
    buf_done(&b);
}

static void policy_with_and_without_document(void **state)
{
    (void)state;
    buf b = BUF_INIT;
    ddbres_policy_json(&(ddb_policy_res){NULL, "1796542557579"}, &b);
    assert_string_equal(b.data, "{\"RevisionId\":\"1796542557579\"}");
    buf_reset(&b);
    ddbres_policy_json(&(ddb_policy_res){"{\"Version\":\"2012-10-17\",\"Statement\":[]}", "1796542557579"}, &b);
    assert_string_equal(b.data, "{\"Policy\":\"{\\\"Version\\\":\\\"2012-10-17\\\",\\\"Statement\\\":[]}\","
                                "\"RevisionId\":\"1796542557579\"}");
    buf_done(&b);
}

#define ARN "arn:aws:dynamodb:us-east-1:000000000000:table/Tab/stream/2026-12-06T07:35:57.578"
#define ARN2 "arn:aws:dynamodb:us-east-1:000000000000:table/Ub.x/stream/2026-12-06T07:35:57.578"
#define LABEL "2026-12-06T07:35:57.578"

static void list_streams_whole_and_paged(void **state)
{
    (void)state;
    ddb_streams_list r = DDB_STREAMS_LIST_INIT;
    buf b = BUF_INIT;
    ddbres_streams_list_json(&r, &b);
    assert_string_equal(b.data, "{\"Streams\":[]}");
    ddbres_streams_list_add(&r, ARN, LABEL, "Tab");
    ddbres_streams_list_add(&r, ARN2, LABEL, "Ub.x");
    buf_reset(&b);
    ddbres_streams_list_json(&r, &b);
    assert_string_equal(b.data, "{\"Streams\":[{\"StreamArn\":\"" ARN "\",\"StreamLabel\":\"" LABEL
                                "\",\"TableName\":\"Tab\"},{\"StreamArn\":\"" ARN2 "\",\"StreamLabel\":\"" LABEL
                                "\",\"TableName\":\"Ub.x\"}]}");
    ddbres_streams_list_done(&r);
    ddbres_streams_list_add(&r, ARN, LABEL, "Tab");
    r.last = strdup(ARN);
    buf_reset(&b);
    ddbres_streams_list_json(&r, &b);
    assert_string_equal(b.data, "{\"Streams\":[{\"StreamArn\":\"" ARN "\",\"StreamLabel\":\"" LABEL
                                "\",\"TableName\":\"Tab\"}],\"LastEvaluatedStreamArn\":\"" ARN "\"}");
    ddbres_streams_list_done(&r);
    assert_null(r.last);
    buf_done(&b);
}

/* BatchExecuteStatement's Responses: a write that passed, its errors (one
 * with ReturnValuesOnConditionCheckFailure's item, one that named no
 * table), and reads that found an item and none. */
static void batch_statements(void **state)
{
    (void)state;
    ddb_stmt_res r[5] = {{0}};
    r[0].table = xstrdup("Tab");
    r[1] = (ddb_stmt_res){.code = "DuplicateItem", .message = xstrdup("Duplicate primary key exists in table"),
                          .table = xstrdup("Tab")};
    r[2] = (ddb_stmt_res){.code = "ConditionalCheckFailed", .message = xstrdup("The conditional request failed"),
                          .extra = xstrdup("\"Item\":{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}}"),
                          .table = xstrdup("Tab")};
    r[3] = (ddb_stmt_res){.code = "ValidationError", .message = xstrdup("Statement wasn't well formed")};
    buf b = BUF_INIT;
    ddbres_batch_stmt_open(r, 4, &b);
    assert_string_equal(b.data, "{\"Responses\":[{\"TableName\":\"Tab\"},"
                                "{\"Error\":{\"Code\":\"DuplicateItem\",\"Message\":\"Duplicate primary key exists "
                                "in table\"},\"TableName\":\"Tab\"},"
                                "{\"Error\":{\"Code\":\"ConditionalCheckFailed\",\"Message\":\"The conditional "
                                "request failed\",\"Item\":{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}}},"
                                "\"TableName\":\"Tab\"},"
                                "{\"Error\":{\"Code\":\"ValidationError\",\"Message\":\"Statement wasn't well "
                                "formed\"}}]");
    for (int i = 0; i < 4; i++)
        ddbres_stmt_done(&r[i]);
    r[0] = (ddb_stmt_res){.table = xstrdup("Tab"), .items = xcalloc(1, sizeof(av)), .n_items = 1};
    r[0].items[0] = parse("{\"n\":{\"N\":\"1\"},\"pk\":{\"S\":\"a\"}}");
    r[1] = (ddb_stmt_res){.table = xstrdup("Tab")};
    buf_reset(&b);
    ddbres_batch_stmt_open(r, 2, &b);
    assert_string_equal(b.data, "{\"Responses\":[{\"TableName\":\"Tab\",\"Item\":{\"n\":{\"N\":\"1\"},"
                                "\"pk\":{\"S\":\"a\"}}},{\"TableName\":\"Tab\"}]");
    buf_reset(&b);
    ddbres_batch_stmt_open(r, 0, &b);
    assert_string_equal(b.data, "{\"Responses\":[]");
    ddbres_stmt_done(&r[0]);
    ddbres_stmt_done(&r[1]);
    buf_done(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tags_none_and_some),
        cmocka_unit_test(policy_with_and_without_document),
        cmocka_unit_test(list_streams_whole_and_paged),
        cmocka_unit_test(batch_statements),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
