/*
 * test_streams_typed — Time to Live and DynamoDB Streams run typed inside
 * the store (issue 41 item 1): store_exec of DescribeTimeToLive,
 * UpdateTimeToLive, DescribeStream, GetShardIterator and GetRecords on a
 * local store answers in ddb_res's streams member (model/ddbres_streams.h),
 * with the semantic errors' messages the JSON suites pin; the JSON door
 * prints the same answer (ddbres_streams_json); the printer and the
 * reader (ddbres_streams_read) round-trip every member; a remote store
 * (a second, local store behind a send function) reads a TTL setting
 * typed.
 *
 * Expectations: the API reference (DescribeTimeToLive's
 * TimeToLiveDescription, UpdateTimeToLive's TimeToLiveSpecification,
 * the Streams API's DescribeStream, GetShardIterator, GetRecords, Record,
 * StreamRecord, Shard); the messages are the ones store_ttl.c and
 * store_streams.c cite (DynamoDB's and DynamoDB Local 3.3's, as observed).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <cjson/cJSON.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/ddbres_streams.h"
#include "tests/data/tmpstore.h"
#include "tests/data/callstore.h"

/* The answer of a call that must succeed (callstore.h's out_text, taken). */
static char *call_out(store *s, const char *op, const char *body)
{
    ok(s, op, body);
    char *out = out_text;
    out_text = NULL;
    return out;
}

#define TABLE(name, extra) \
    "{\"TableName\":\"" name "\",\"BillingMode\":\"PAY_PER_REQUEST\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"pk\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"}]" extra "}"
#define STREAM ",\"StreamSpecification\":{\"StreamEnabled\":true,\"StreamViewType\":\"NEW_AND_OLD_IMAGES\"}"

static status exec(store *s, const ddb_req *r, ddb_res *res, ddb_err *err)
{
    ddb_res_init(res);
    ddb_err_init(err);
    return store_exec(s, r, res, err);
}

/* store_exec of r refused with want and DynamoDB's message msg. */
static void refused_typed(store *s, const ddb_req *r, status want, const char *msg)
{
    ddb_res res;
    ddb_err err;
    assert_int_equal(exec(s, r, &res, &err), want);
    assert_string_equal(ddb_err_message(&err), msg);
    assert_null(res.streams);
    ddb_res_done(&res);
    ddb_err_done(&err);
}

static const char *s_of(const av *item, const char *name)
{
    const av *v = av_map_get(item, name, strlen(name));
    return v && v->type == AV_S ? v->u.s.ptr : NULL;
}

/* ---- Time to Live ---- */

static void ttl_typed(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Tab", ""));
    ddb_req r;
    ddb_res res;
    ddb_err err;

    ddb_req_init(&r, DDB_DESCRIBE_TTL);
    ddb_req_set_str(&r.table, "Tab");
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_non_null(res.streams);
    assert_string_equal(res.streams->ttl_status, "DISABLED");
    assert_null(res.streams->ttl_attr);
    ddb_res_done(&res);
    ddb_err_done(&err);

    ddb_req up;
    ddb_req_init(&up, DDB_UPDATE_TTL);
    ddb_req_set_str(&up.table, "Tab");
    ddb_req_set_str(&up.ctl.ttl_attr, "exp");
    up.ctl.ttl_enabled = true;
    assert_int_equal(exec(s, &up, &res, &err), ST_OK);
    assert_true(res.streams->has_ttl_spec);
    assert_string_equal(res.streams->ttl_attr, "exp");
    assert_true(res.streams->ttl_enabled);
    buf b = BUF_INIT;
    ddbres_streams_json(&res, &b);
    assert_string_equal(b.data, "{\"TimeToLiveSpecification\":{\"AttributeName\":\"exp\",\"Enabled\":true}}");
    buf_reset(&b);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* Enabling again: DynamoDB's refusal, typed and at the door. */
    refused_typed(s, &up, ST_VALIDATION, "TimeToLive is already enabled");
    refused(s, "UpdateTimeToLive", "{\"TableName\":\"Tab\",\"TimeToLiveSpecification\":"
            "{\"AttributeName\":\"exp\",\"Enabled\":true}}", ST_VALIDATION, "TimeToLive is already enabled");

    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_string_equal(res.streams->ttl_status, "ENABLED");
    assert_string_equal(res.streams->ttl_attr, "exp");
    /* The JSON door answers what the typed answer prints. */
    ddbres_streams_json(&res, &b);
    char *door = call_out(s, "DescribeTimeToLive", "{\"TableName\":\"Tab\"}");
    assert_string_equal(door, b.data);
    assert_string_equal(door, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"ENABLED\",\"AttributeName\":\"exp\"}}");
    free(door);
    buf_done(&b);
    ddb_res_done(&res);
    ddb_err_done(&err);

    ddb_req_set_str(&r.table, "Nope");
    refused_typed(s, &r, ST_NOT_FOUND, "Requested resource not found: Table: Nope not found");
    ddb_req_done(&r);
    ddb_req_done(&up);
}

/* ---- Streams ---- */

/* The table's LatestStreamArn (malloc'd), through the JSON door. */
static char *stream_arn(store *s, const char *table)
{
    char body[128];
    snprintf(body, sizeof body, "{\"TableName\":\"%s\"}", table);
    char *out = call_out(s, "DescribeTable", body);
    cJSON *o = cJSON_Parse(out);
    const char *arn = cJSON_GetStringValue(cJSON_GetObjectItem(cJSON_GetObjectItem(o, "Table"), "LatestStreamArn"));
    assert_non_null(arn);
    char *copy = strdup(arn);
    cJSON_Delete(o);
    free(out);
    return copy;
}

/* DescribeStream of arn, typed, answered (r, res and err the caller's to
 * end). */
static void describe(store *s, const char *arn, ddb_req *r, ddb_res *res, ddb_err *err)
{
    ddb_req_init(r, DDB_DESCRIBE_STREAM);
    ddb_req_set_str(&r->ctl.stream, arn);
    assert_int_equal(exec(s, r, res, err), ST_OK);
    assert_non_null(res->streams);
}

/* The stream's one shard read from its trim horizon: the iterator
 * (malloc'd), and in *r the GetShardIterator that gave it (the caller's
 * to end). */
static char *trim_horizon(store *s, const char *arn, ddb_req *r)
{
    ddb_res res;
    ddb_err err;
    describe(s, arn, r, &res, &err);
    assert_int_equal(res.streams->n_shards, 1);
    ddb_req_done(r);
    ddb_req_init(r, DDB_GET_SHARD_ITERATOR);
    ddb_req_set_str(&r->ctl.stream, arn);
    ddb_req_set_str(&r->ctl.shard, res.streams->shards[0].id);
    ddb_req_set_str(&r->ctl.iterator_type, "TRIM_HORIZON");
    ddb_res_done(&res);
    ddb_err_done(&err);
    assert_int_equal(exec(s, r, &res, &err), ST_OK);
    char *iter = strdup(res.streams->iterator);
    ddb_res_done(&res);
    ddb_err_done(&err);
    return iter;
}

static void describe_stream_typed(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Str", STREAM));
    char *arn = stream_arn(s, "Str");
    ddb_req r;
    ddb_res res;
    ddb_err err;
    describe(s, arn, &r, &res, &err);
    const ddb_streams_res *sr = res.streams;
    assert_true(sr->has_stream);
    assert_string_equal(sr->stream_arn, arn);
    assert_string_equal(sr->stream_status, "ENABLED");
    assert_string_equal(sr->view, "NEW_AND_OLD_IMAGES");
    assert_string_equal(sr->table, "Str");
    assert_int_equal(sr->n_keys, 1);
    assert_string_equal(sr->keys[0].name, "pk");
    assert_string_equal(sr->keys[0].type, "HASH");
    /* One shard, open (no EndingSequenceNumber), its start 21 digits. */
    assert_int_equal(sr->n_shards, 1);
    assert_non_null(sr->shards[0].id);
    assert_null(sr->shards[0].end_seq);
    assert_int_equal(strlen(sr->shards[0].start_seq), 21);
    assert_true(sr->created > 1.6e9);
    /* The door prints the typed answer. */
    buf b = BUF_INIT;
    ddbres_streams_json(&res, &b);
    char body[512];
    snprintf(body, sizeof body, "{\"StreamArn\":\"%s\"}", arn);
    char *door = call_out(s, "DescribeStream", body);
    assert_string_equal(door, b.data);
    free(door);
    buf_done(&b);

    /* Past its one shard (ExclusiveStartShardId) there is none, nor has it
     * a child (ShardFilter CHILD_SHARDS). */
    char *sid = strdup(sr->shards[0].id);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_set_str(&r.ctl.start_shard, sid);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_shards, 0);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_set_str(&r.ctl.start_shard, NULL);
    ddb_req_set_str(&r.ctl.child_of, sid);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_shards, 0);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* A stream that is not there. */
    ddb_req_set_str(&r.ctl.child_of, NULL);
    ddb_req_set_str(&r.ctl.stream, "arn:aws:dynamodb:us-east-1:000000000000:table/Str/stream/2000-01-01T00:00:00.000");
    assert_int_equal(exec(s, &r, &res, &err), ST_NOT_FOUND);
    assert_non_null(strstr(ddb_err_message(&err), "Requested resource not found: Stream: "));
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);
    free(sid);
    free(arn);
}

/* GetShardIterator then GetRecords, typed: an insert, a modify and a
 * remove, each with the images NEW_AND_OLD_IMAGES keeps. */
static void records_typed(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Rec", STREAM));
    ok(s, "PutItem", "{\"TableName\":\"Rec\",\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"1\"}}}");
    ok(s, "PutItem", "{\"TableName\":\"Rec\",\"Item\":{\"pk\":{\"S\":\"a\"},\"v\":{\"S\":\"2\"}}}");
    ok(s, "DeleteItem", "{\"TableName\":\"Rec\",\"Key\":{\"pk\":{\"S\":\"a\"}}}");
    char *arn = stream_arn(s, "Rec");
    ddb_req r;
    ddb_res res;
    ddb_err err;
    describe(s, arn, &r, &res, &err);
    char *sid = strdup(res.streams->shards[0].id);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_GET_SHARD_ITERATOR);
    ddb_req_set_str(&r.ctl.stream, arn);
    ddb_req_set_str(&r.ctl.shard, sid);
    ddb_req_set_str(&r.ctl.iterator_type, "AT_SEQUENCE_NUMBER");
    /* AT_SEQUENCE_NUMBER without a SequenceNumber: refused before reading. */
    refused_typed(s, &r, ST_VALIDATION, "One or more parameter values were invalid: Invalid SequenceNumber");
    ddb_req_set_str(&r.ctl.iterator_type, "TRIM_HORIZON");
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    char *iter = strdup(res.streams->iterator);
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_set_str(&r.ctl.shard, "shardId-00000000000000000000-00000000");
    refused_typed(s, &r, ST_NOT_FOUND, "Requested resource not found: Shard does not exist");
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_GET_RECORDS);
    ddb_req_set_str(&r.ctl.iterator, iter);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    const ddb_streams_res *sr = res.streams;
    assert_true(sr->has_records);
    assert_int_equal(sr->n_records, 3);
    static const char *const events[] = { "INSERT", "MODIFY", "REMOVE" };
    for (int i = 0; i < 3; i++) {
        const ddb_record *rec = &sr->records[i];
        assert_string_equal(rec->event_name, events[i]);
        assert_string_equal(rec->event_source, "aws:dynamodb");
        assert_string_equal(rec->view, "NEW_AND_OLD_IMAGES");
        assert_string_equal(s_of(&rec->keys, "pk"), "a");
        assert_int_equal(strlen(rec->seq), 21);
        assert_true(rec->size > 0);
        assert_null(rec->principal);
        if (i > 0)
            assert_true(strcmp(sr->records[i - 1].seq, rec->seq) < 0);
    }
    assert_string_equal(s_of(&sr->records[0].new_image, "v"), "1");
    assert_int_equal(sr->records[0].old_image.type, AV_NONE);
    assert_string_equal(s_of(&sr->records[1].old_image, "v"), "1");
    assert_string_equal(s_of(&sr->records[1].new_image, "v"), "2");
    assert_int_equal(sr->records[2].new_image.type, AV_NONE);
    /* The shard is open: there is a next iterator. */
    assert_non_null(sr->next_iterator);
    ddb_res_done(&res);
    ddb_err_done(&err);

    /* Limit 1: the first record, and an iterator after it. */
    r.limit = 1;
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_records, 1);
    assert_string_equal(res.streams->records[0].event_name, "INSERT");
    ddb_req_set_str(&r.ctl.iterator, res.streams->next_iterator);
    ddb_res_done(&res);
    ddb_err_done(&err);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_records, 1);
    assert_string_equal(res.streams->records[0].event_name, "MODIFY");
    ddb_res_done(&res);
    ddb_err_done(&err);

    ddb_req_set_str(&r.ctl.iterator, "not-an-iterator");
    refused_typed(s, &r, ST_VALIDATION, "Invalid ShardIterator");
    ddb_req_done(&r);
    free(iter);
    free(sid);
    free(arn);
}

/* GetRecords answers at most 1 MB (API reference, GetRecords: "up to 1
 * MB of data"); the store stops after the record that reaches it, and
 * the typed answer's pages are the door's: five records of 250 KB, then
 * the rest. */
static void records_page_of_1mb(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Big", ",\"StreamSpecification\":{\"StreamEnabled\":true,"
                                      "\"StreamViewType\":\"NEW_IMAGE\"}"));
    size_t big = 250000;
    char *body = malloc(big + 128);
    for (int i = 0; i < 8; i++) {
        int n = snprintf(body, big + 128, "{\"TableName\":\"Big\",\"Item\":{\"pk\":{\"S\":\"k%d\"},"
                         "\"v\":{\"S\":\"", i);
        memset(body + n, 'x', big);
        strcpy(body + n + big, "\"}}}");
        ok(s, "PutItem", body);
    }
    free(body);
    char *arn = stream_arn(s, "Big");
    ddb_req r;
    ddb_res res;
    ddb_err err;
    char *iter = trim_horizon(s, arn, &r);
    ddb_req_done(&r);

    ddb_req_init(&r, DDB_GET_RECORDS);
    ddb_req_set_str(&r.ctl.iterator, iter);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_records, 5);
    assert_non_null(res.streams->next_iterator);
    /* Printed, it passes 1 MB with its last record and not before. */
    buf b = BUF_INIT;
    ddbres_streams_json(&res, &b);
    assert_true(b.len >= 1024 * 1024);
    buf last = BUF_INIT;
    ddbres_streams_record_json(&res.streams->records[4], &last);
    assert_true(b.len - last.len < 1024 * 1024);
    buf_done(&last);
    buf_done(&b);
    /* The door's page is the same five. */
    char req[512];
    snprintf(req, sizeof req, "{\"ShardIterator\":\"%s\"}", iter);
    char *door = call_out(s, "GetRecords", req);
    cJSON *o = cJSON_Parse(door);
    assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(o, "Records")), 5);
    cJSON_Delete(o);
    free(door);
    /* The next page: the other three, and the shard stays open. */
    ddb_req_set_str(&r.ctl.iterator, res.streams->next_iterator);
    ddb_res_done(&res);
    ddb_err_done(&err);
    assert_int_equal(exec(s, &r, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_records, 3);
    assert_string_equal(s_of(&res.streams->records[2].keys, "pk"), "k7");
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&r);
    free(iter);
    free(arn);
}

/* ---- the printer and the reader ---- */

static void item(av *out, const char *json)
{
    diag d;
    diag_init(&d);
    if (ddbjson_parse_item(json, strlen(json), out, &d) != ST_OK)
        fail_msg("%s: %s", json, d.msg);
}

/* Printed, parsed, read and printed again: the same text. */
static void round_trip(const ddb_res *res, const char *expect)
{
    buf a = BUF_INIT, b = BUF_INIT;
    ddbres_streams_json(res, &a);
    if (expect)
        assert_string_equal(a.data, expect);
    cJSON *root = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(ddbjson_cjson_parse(a.data, a.len, &root, &d), ST_OK);
    ddb_res back;
    ddb_res_init(&back);
    assert_int_equal(ddbres_streams_read(root, &back, &d), ST_OK);
    assert_non_null(back.streams);
    ddbres_streams_json(&back, &b);
    assert_string_equal(b.data, a.data);
    ddb_res_done(&back);
    cJSON_Delete(root);
    buf_done(&a);
    buf_done(&b);
}

/* A record of sequence number 1000...0 n, event e1 or e2 by n. */
static ddb_record *add_record(ddb_streams_res *r, double created, const char *keys, const char *n,
                              const char *view, const char *event)
{
    ddb_record *rec = ddbres_streams_add_record(r);
    char text[32];
    rec->region = strdup("us-east-1");
    rec->created = created;
    item(&rec->keys, keys);
    snprintf(text, sizeof text, "1%020d", atoi(n));
    rec->seq = strdup(text);
    rec->view = strdup(view);
    snprintf(text, sizeof text, "e%s", n);
    rec->event_id = strdup(text);
    rec->event_name = strdup(event);
    rec->event_source = strdup("aws:dynamodb");
    rec->event_version = strdup("1.1");
    return rec;
}

static void printer_reader_round_trip(void **state)
{
    (void)state;
    ddb_res res;
    ddb_res_init(&res);
    ddb_streams_res *r = ddbres_streams_of(&res);
    r->ttl_status = strdup("DISABLED");
    round_trip(&res, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"DISABLED\"}}");
    r->ttl_status = (free(r->ttl_status), strdup("ENABLING"));
    r->ttl_attr = strdup("exp");
    round_trip(&res, "{\"TimeToLiveDescription\":{\"TimeToLiveStatus\":\"ENABLING\",\"AttributeName\":\"exp\"}}");
    ddb_res_done(&res);

    r = ddbres_streams_of(&res);
    r->has_ttl_spec = true;
    r->ttl_attr = strdup("e\"x");
    round_trip(&res, "{\"TimeToLiveSpecification\":{\"AttributeName\":\"e\\\"x\",\"Enabled\":false}}");
    ddb_res_done(&res);

    r = ddbres_streams_of(&res);
    r->has_stream = true;
    r->created = 1700000000.5;
    ddbres_streams_add_key(r, "pk", "HASH");
    ddbres_streams_add_key(r, "sk", "RANGE");
    ddb_shard *sh = ddbres_streams_add_shard(r);
    sh->id = strdup("shardId-1");
    sh->start_seq = strdup("100");
    sh->end_seq = strdup("200");
    sh = ddbres_streams_add_shard(r);
    sh->id = strdup("shardId-2");
    sh->parent = strdup("shardId-1");
    sh->start_seq = strdup("201");
    r->last_shard = strdup("shardId-2");
    r->stream_arn = strdup("arn:aws:dynamodb:us-east-1:1:table/T/stream/L");
    r->label = strdup("L");
    r->stream_status = strdup("ENABLED");
    r->view = strdup("KEYS_ONLY");
    r->table = strdup("T");
    round_trip(&res, "{\"StreamDescription\":{\"CreationRequestDateTime\":1700000000.500,"
               "\"KeySchema\":[{\"AttributeName\":\"pk\",\"KeyType\":\"HASH\"},"
               "{\"AttributeName\":\"sk\",\"KeyType\":\"RANGE\"}],\"LastEvaluatedShardId\":\"shardId-2\","
               "\"Shards\":[{\"SequenceNumberRange\":{\"EndingSequenceNumber\":\"200\","
               "\"StartingSequenceNumber\":\"100\"},\"ShardId\":\"shardId-1\"},"
               "{\"ParentShardId\":\"shardId-1\",\"SequenceNumberRange\":{\"StartingSequenceNumber\":\"201\"},"
               "\"ShardId\":\"shardId-2\"}],\"StreamArn\":\"arn:aws:dynamodb:us-east-1:1:table/T/stream/L\","
               "\"StreamLabel\":\"L\",\"StreamStatus\":\"ENABLED\",\"StreamViewType\":\"KEYS_ONLY\","
               "\"TableName\":\"T\"}}");
    ddb_res_done(&res);

    r = ddbres_streams_of(&res);
    r->iterator = strdup("it|1|2|3");
    round_trip(&res, "{\"ShardIterator\":\"it|1|2|3\"}");
    ddb_res_done(&res);

    r = ddbres_streams_of(&res);
    r->has_records = true;
    round_trip(&res, "{\"Records\":[]}");
    ddb_record *rec = add_record(r, 1700000000, "{\"pk\":{\"S\":\"a\"}}", "1", "OLD_IMAGE", "REMOVE");
    item(&rec->old_image, "{\"pk\":{\"S\":\"a\"},\"b\":{\"B\":\"AAE=\"},\"n\":{\"N\":\"1\"}}");
    rec->size = 12;
    rec->principal = strdup("dynamodb.amazonaws.com");
    rec->identity_type = strdup("Service");
    rec = add_record(r, 1700000001, "{\"pk\":{\"S\":\"b\"}}", "2", "NEW_IMAGE", "INSERT");
    item(&rec->new_image, "{\"pk\":{\"S\":\"b\"},\"ss\":{\"SS\":[\"x\",\"y\"]}}");
    rec->size = 9;
    r->next_iterator = strdup("next|1|2|3");
    round_trip(&res, "{\"Records\":[{\"awsRegion\":\"us-east-1\",\"dynamodb\":{\"ApproximateCreationDateTime\":"
               "1700000000,\"Keys\":{\"pk\":{\"S\":\"a\"}},\"OldImage\":{\"b\":{\"B\":\"AAE=\"},\"n\":{\"N\":\"1\"},"
               "\"pk\":{\"S\":\"a\"}},\"SequenceNumber\":\"100000000000000000001\",\"SizeBytes\":12,"
               "\"StreamViewType\":\"OLD_IMAGE\"},\"eventID\":\"e1\",\"eventName\":\"REMOVE\","
               "\"eventSource\":\"aws:dynamodb\",\"eventVersion\":\"1.1\",\"userIdentity\":{\"PrincipalId\":"
               "\"dynamodb.amazonaws.com\",\"Type\":\"Service\"}},{\"awsRegion\":\"us-east-1\",\"dynamodb\":"
               "{\"ApproximateCreationDateTime\":1700000001,\"Keys\":{\"pk\":{\"S\":\"b\"}},\"NewImage\":"
               "{\"pk\":{\"S\":\"b\"},\"ss\":{\"SS\":[\"x\",\"y\"]}},\"SequenceNumber\":\"100000000000000000002\","
               "\"SizeBytes\":9,\"StreamViewType\":\"NEW_IMAGE\"},\"eventID\":\"e2\",\"eventName\":\"INSERT\","
               "\"eventSource\":\"aws:dynamodb\",\"eventVersion\":\"1.1\"}],\"NextShardIterator\":\"next|1|2|3\"}");
    ddb_res_done(&res);

    /* An answer of none of these kinds leaves streams NULL. */
    cJSON *root = cJSON_Parse("{\"TableNames\":[]}");
    diag d;
    diag_init(&d);
    assert_int_equal(ddbres_streams_read(root, &res, &d), ST_OK);
    assert_null(res.streams);
    cJSON_Delete(root);
    /* A record whose image is not DynamoDB JSON: the reader says so. */
    root = cJSON_Parse("{\"Records\":[{\"dynamodb\":{\"Keys\":{\"pk\":{\"Q\":\"a\"}}}}]}");
    assert_int_not_equal(ddbres_streams_read(root, &res, &d), ST_OK);
    cJSON_Delete(root);
    ddb_res_done(&res);
}

/* ---- the requests sent ---- */

/* The members ddb_ctl gained print as the Streams API reference names
 * them (DescribeStream: Limit, ExclusiveStartShardId, ShardFilter's
 * ShardId and Type CHILD_SHARDS; GetShardIterator: SequenceNumber). */
static void request_members_printed(void **state)
{
    (void)state;
    ddb_req r;
    buf b = BUF_INIT;
    ddb_req_init(&r, DDB_DESCRIBE_STREAM);
    ddb_req_set_str(&r.ctl.stream, "arn:s");
    r.limit = 10;
    ddb_req_set_str(&r.ctl.start_shard, "shardId-1");
    ddb_req_set_str(&r.ctl.child_of, "shardId-0");
    ddb_req_json(&r, &b);
    assert_string_equal(b.data, "{\"StreamArn\":\"arn:s\",\"Limit\":10,\"ExclusiveStartShardId\":\"shardId-1\","
                        "\"ShardFilter\":{\"ShardId\":\"shardId-0\",\"Type\":\"CHILD_SHARDS\"}}");
    /* A copy has them too. */
    ddb_req c;
    ddb_req_copy(&c, &r);
    buf_reset(&b);
    ddb_req_json(&c, &b);
    assert_non_null(strstr(b.data, "\"ShardFilter\":{\"ShardId\":\"shardId-0\""));
    ddb_req_done(&c);
    ddb_req_done(&r);
    ddb_req_init(&r, DDB_GET_SHARD_ITERATOR);
    ddb_req_set_str(&r.ctl.stream, "arn:s");
    ddb_req_set_str(&r.ctl.shard, "shardId-1");
    ddb_req_set_str(&r.ctl.iterator_type, "AFTER_SEQUENCE_NUMBER");
    ddb_req_set_str(&r.ctl.seq, "100000000000000000001");
    buf_reset(&b);
    ddb_req_json(&r, &b);
    assert_string_equal(b.data, "{\"StreamArn\":\"arn:s\",\"ShardId\":\"shardId-1\",\"ShardIteratorType\":"
                        "\"AFTER_SEQUENCE_NUMBER\",\"SequenceNumber\":\"100000000000000000001\"}");
    ddb_req_done(&r);
    buf_done(&b);
}

/* ---- a remote store ---- */

static status via_local(void *ctx, const char *op, const char *input, size_t len, char **out, diag *d)
{
    return store_call(ctx, op, input, len, out, d);
}

static void remote_ttl_typed(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Rtt", ""));
    ok(s, "UpdateTimeToLive", "{\"TableName\":\"Rtt\",\"TimeToLiveSpecification\":"
       "{\"AttributeName\":\"until\",\"Enabled\":true}}");
    store *r = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open_remote(via_local, s, "local behind a transport", 0, &r, &d), ST_OK);
    char *attr = NULL;
    assert_int_equal(store_ttl_get(r, "Rtt", &attr, &d), ST_OK);
    assert_non_null(attr);
    assert_string_equal(attr, "until");
    free(attr);
    /* store_exec on the remote store reads the answer typed. */
    ddb_req q;
    ddb_req_init(&q, DDB_DESCRIBE_TTL);
    ddb_req_set_str(&q.table, "Rtt");
    ddb_res res;
    ddb_err err;
    assert_int_equal(exec(r, &q, &res, &err), ST_OK);
    assert_string_equal(res.streams->ttl_status, "ENABLED");
    assert_string_equal(res.streams->ttl_attr, "until");
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&q);
    store_close(r);
}

/* The Streams kinds through store_exec on a remote store: each request
 * printed for the wire (SequenceNumber too), each answer read typed. */
static void remote_streams_typed(void **state)
{
    store *s = *state;
    ok(s, "CreateTable", TABLE("Rst", STREAM));
    ok(s, "PutItem", "{\"TableName\":\"Rst\",\"Item\":{\"pk\":{\"S\":\"a\"}}}");
    ok(s, "PutItem", "{\"TableName\":\"Rst\",\"Item\":{\"pk\":{\"S\":\"b\"}}}");
    char *arn = stream_arn(s, "Rst");
    store *rs = NULL;
    diag d;
    diag_init(&d);
    assert_int_equal(store_open_remote(via_local, s, "local behind a transport", 0, &rs, &d), ST_OK);
    ddb_req r;
    ddb_res res;
    ddb_err err;
    char *iter = trim_horizon(rs, arn, &r);
    ddb_req g;
    ddb_req_init(&g, DDB_GET_RECORDS);
    ddb_req_set_str(&g.ctl.iterator, iter);
    free(iter);
    assert_int_equal(exec(rs, &g, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_records, 2);
    assert_string_equal(s_of(&res.streams->records[1].keys, "pk"), "b");
    /* AFTER_SEQUENCE_NUMBER of the first: the second alone. */
    ddb_req_set_str(&r.ctl.iterator_type, "AFTER_SEQUENCE_NUMBER");
    ddb_req_set_str(&r.ctl.seq, res.streams->records[0].seq);
    ddb_res_done(&res);
    ddb_err_done(&err);
    assert_int_equal(exec(rs, &r, &res, &err), ST_OK);
    ddb_req_set_str(&g.ctl.iterator, res.streams->iterator);
    ddb_res_done(&res);
    ddb_err_done(&err);
    assert_int_equal(exec(rs, &g, &res, &err), ST_OK);
    assert_int_equal(res.streams->n_records, 1);
    assert_string_equal(s_of(&res.streams->records[0].keys, "pk"), "b");
    assert_string_equal(res.streams->records[0].event_name, "INSERT");
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&g);
    ddb_req_done(&r);
    store_close(rs);
    free(arn);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(ttl_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(describe_stream_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(records_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(records_page_of_1mb, setup, teardown),
        cmocka_unit_test(printer_reader_round_trip),
        cmocka_unit_test(request_members_printed),
        cmocka_unit_test_setup_teardown(remote_ttl_typed, setup, teardown),
        cmocka_unit_test_setup_teardown(remote_streams_typed, setup, teardown),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    free(out_text);
    return rc;
}
