/*
 * The SDK code generators (model/codegen.c), piece by piece; tests/sdk
 * runs the whole programs against `ddbx serve` (JavaScript, Python) and
 * keeps golden files of the Go. Where the shapes come from: the AWS SDK
 * for JavaScript v3 (low-level client, AttributeValue objects, Uint8Array
 * for B), boto3's low-level client (bytes for B, snake_case methods,
 * members as keyword arguments) and the AWS SDK for Go v2
 * (types.AttributeValueMember*, aws.String and aws.Int32 pointers, enum
 * constants such as types.ReturnValueAllNew).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "model/codegen.h"
#include "model/ddbjson.h"

static void parse(av *v, const char *json)
{
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), v, &d) != ST_OK)
        fail_msg("%s: %s", json, d.msg);
}

static char *gen(codegen_lang lang, const ddb_req *r)
{
    buf b = BUF_INIT;
    codegen_write(lang, r, &b);
    return buf_steal(&b);
}

static void contains(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("expected\n%s\nin\n%s", part, text);
}

static void update(ddb_req *r)
{
    ddb_req_init(r, DDB_UPDATE);
    ddb_req_set_str(&r->table, "Music");
    parse(&r->key, "{\"PK\":{\"S\":\"a\\\"b\"},\"bin\":{\"B\":\"AAE=\"}}");
    ddb_req_set_str(&r->update, "SET n = :n");
    parse(&r->values, "{\":n\":{\"N\":\"5\"}}");
    r->rv = DDB_RV_ALL_NEW;
    r->limit = 0;
}

static void javascript_uses_command_objects_and_buffers_for_bytes(void **state)
{
    ddb_req r;
    update(&r);
    char *t = gen(CODEGEN_JS, &r);
    contains(t, "import { DynamoDBClient, UpdateItemCommand } from \"@aws-sdk/client-dynamodb\";");
    contains(t, "new UpdateItemCommand({\n    TableName: \"Music\",\n    Key: {\n        \"PK\": { S: \"a\\\"b\" },\n"
                "        \"bin\": { B: Buffer.from(\"AAE=\", \"base64\") },\n    },\n"
                "    UpdateExpression: \"SET n = :n\",\n");
    contains(t, "    ReturnValues: \"ALL_NEW\",\n}));");
    free(t);
    ddb_req_done(&r);
}

static void python_uses_keyword_arguments_and_bytes(void **state)
{
    ddb_req r;
    update(&r);
    r.consistent = false;
    char *t = gen(CODEGEN_PYTHON, &r);
    contains(t, "import base64\n");
    contains(t, "response = client.update_item(\n    TableName=\"Music\",\n    Key={\n");
    contains(t, "\"bin\": { \"B\": base64.b64decode(\"AAE=\") },");
    contains(t, "    ReturnValues=\"ALL_NEW\",\n)\n");
    free(t);
    ddb_req_done(&r);
    ddb_req_init(&r, DDB_SCAN);
    ddb_req_set_str(&r.table, "T");
    r.consistent = true;
    t = gen(CODEGEN_PYTHON, &r);
    contains(t, "ConsistentRead=True,");
    assert_null(strstr(t, "import base64"));
    free(t);
    ddb_req_done(&r);
}

static void go_uses_typed_members_pointers_and_constants(void **state)
{
    ddb_req r;
    update(&r);
    r.limit = 0;
    char *t = gen(CODEGEN_GO, &r);
    contains(t, "out, err := client.UpdateItem(ctx, &dynamodb.UpdateItemInput{\n\t\tTableName: aws.String(\"Music\"),\n");
    contains(t, "\"bin\": &types.AttributeValueMemberB{Value: b64(\"AAE=\")},");
    contains(t, "ReturnValues: types.ReturnValueAllNew,");
    contains(t, "\":n\": &types.AttributeValueMemberN{Value: \"5\"},");
    free(t);
    ddb_req_done(&r);
    ddb_req_init(&r, DDB_QUERY);
    ddb_req_set_str(&r.table, "T");
    r.limit = 7;
    r.select = DDB_SELECT_COUNT;
    t = gen(CODEGEN_GO, &r);
    contains(t, "Select: types.SelectCount,");
    contains(t, "Limit: aws.Int32(7),");
    assert_null(strstr(t, "encoding/base64"));
    free(t);
    ddb_req_done(&r);
}

static void a_lone_condition_check_is_a_transaction_of_one(void **state)
{
    ddb_req r;
    ddb_req_init(&r, DDB_CHECK);
    ddb_req_set_str(&r.table, "T");
    parse(&r.key, "{\"PK\":{\"S\":\"k\"}}");
    ddb_req_set_str(&r.cond, "attribute_exists(PK)");
    char *t = gen(CODEGEN_JS, &r);
    contains(t, "new TransactWriteItemsCommand({\n    TransactItems: [\n        {\n            ConditionCheck: {\n");
    free(t);
    t = gen(CODEGEN_GO, &r);
    contains(t, "TransactItems: []types.TransactWriteItem{\n\t\t\t{\n\t\t\t\tConditionCheck: &types.ConditionCheck{\n");
    free(t);
    ddb_req_done(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(javascript_uses_command_objects_and_buffers_for_bytes),
        cmocka_unit_test(python_uses_keyword_arguments_and_bytes),
        cmocka_unit_test(go_uses_typed_members_pointers_and_constants),
        cmocka_unit_test(a_lone_condition_check_is_a_transaction_of_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
