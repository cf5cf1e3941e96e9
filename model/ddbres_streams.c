/*
 * ddbres_streams — the typed answers of Time to Live and Streams, their
 * printer and their reader (see ddbres_streams.h).
 *
 * Members are printed in the order the local store has always printed
 * them (the Streams API reference's, alphabetical; TimeToLiveDescription
 * with its TimeToLiveStatus first), so `ddbx serve`'s answers are the
 * same bytes as before they were typed.
 */
#include "model/ddbres_streams.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/mem.h"

ddb_streams_res *ddbres_streams_new(void)
{
    return xcalloc(1, sizeof(ddb_streams_res));
}

static void record_done(ddb_record *r)
{
    free(r->region);
    av_done(&r->keys);
    av_done(&r->new_image);
    av_done(&r->old_image);
    free(r->seq);
    free(r->view);
    free(r->event_id);
    free(r->event_name);
    free(r->event_source);
    free(r->event_version);
    free(r->principal);
    free(r->identity_type);
    buf_done(&r->printed);
}

void ddbres_streams_free(ddb_streams_res *r)
{
    if (!r)
        return;
    free(r->ttl_status);
    free(r->ttl_attr);
    for (size_t i = 0; i < r->n_keys; i++) {
        free(r->keys[i].name);
        free(r->keys[i].type);
    }
    free(r->keys);
    for (size_t i = 0; i < r->n_shards; i++) {
        free(r->shards[i].id);
        free(r->shards[i].parent);
        free(r->shards[i].start_seq);
        free(r->shards[i].end_seq);
    }
    free(r->shards);
    free(r->last_shard);
    free(r->stream_arn);
    free(r->label);
    free(r->stream_status);
    free(r->view);
    free(r->table);
    free(r->iterator);
    for (size_t i = 0; i < r->n_records; i++)
        record_done(&r->records[i]);
    free(r->records);
    free(r->next_iterator);
    free(r);
}

ddb_streams_res *ddbres_streams_of(ddb_res *res)
{
    if (!res->streams)
        res->streams = ddbres_streams_new();
    return res->streams;
}

/* Room for element n of an array of n, grown by doubling (n a power of
 * two, or 0: full). */
static void *grow(void *v, size_t n, size_t size)
{
    return n & (n - 1) ? v : xrealloc(v, (n ? 2 * n : 1) * size);
}

ddb_shard *ddbres_streams_add_shard(ddb_streams_res *r)
{
    r->shards = grow(r->shards, r->n_shards, sizeof *r->shards);
    ddb_shard *s = &r->shards[r->n_shards++];
    memset(s, 0, sizeof *s);
    return s;
}

ddb_keyelem *ddbres_streams_add_key(ddb_streams_res *r, const char *name, const char *type)
{
    r->keys = grow(r->keys, r->n_keys, sizeof *r->keys);
    ddb_keyelem *k = &r->keys[r->n_keys++];
    k->name = xstrdup(name ? name : "");
    k->type = xstrdup(type ? type : "");
    return k;
}

ddb_record *ddbres_streams_add_record(ddb_streams_res *r)
{
    r->records = grow(r->records, r->n_records, sizeof *r->records);
    ddb_record *rec = &r->records[r->n_records++];
    memset(rec, 0, sizeof *rec);
    rec->keys.type = rec->new_image.type = rec->old_image.type = AV_NONE;
    return rec;
}

/* ---- the printer ---- */

/* ,"name":"s" (the comma unless first); nothing when s is NULL. */
static void member_str(buf *out, const char *name, const char *s, bool first)
{
    if (!s)
        return;
    if (!first)
        buf_addc(out, ',');
    ddbjson_write_string(out, name, strlen(name));
    buf_addc(out, ':');
    ddbjson_write_string(out, s, strlen(s));
}

/* Seconds as DynamoDB's timestamps: whole ones without a fraction. */
static void seconds(buf *out, double t, bool millis)
{
    if (millis)
        buf_printf(out, "%.3f", t);
    else if (t == floor(t) && fabs(t) < 9e15)
        buf_printf(out, "%" PRId64, (int64_t)t);
    else
        buf_printf(out, "%.17g", t);
}

static void ttl_json(const ddb_streams_res *r, buf *out)
{
    if (r->has_ttl_spec) {
        buf_adds(out, "\"TimeToLiveSpecification\":{");
        member_str(out, "AttributeName", r->ttl_attr ? r->ttl_attr : "", true);
        buf_printf(out, ",\"Enabled\":%s}", r->ttl_enabled ? "true" : "false");
        return;
    }
    buf_adds(out, "\"TimeToLiveDescription\":{");
    member_str(out, "TimeToLiveStatus", r->ttl_status, true);
    member_str(out, "AttributeName", r->ttl_attr, !r->ttl_status);
    buf_addc(out, '}');
}

/* [e0,e1,...] of n elements of size bytes at v, each printed by each. */
static void array_json(buf *out, const void *v, size_t n, size_t size, void (*each)(const void *, buf *))
{
    buf_addc(out, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_addc(out, ',');
        each((const char *)v + i * size, out);
    }
    buf_addc(out, ']');
}

static void key_json(const void *e, buf *out)
{
    const ddb_keyelem *k = e;
    buf_addc(out, '{');
    member_str(out, "AttributeName", k->name, true);
    member_str(out, "KeyType", k->type, false);
    buf_addc(out, '}');
}

static void shard_json(const void *e, buf *out)
{
    const ddb_shard *s = e;
    buf_addc(out, '{');
    member_str(out, "ParentShardId", s->parent, true);
    if (s->parent)
        buf_addc(out, ',');
    buf_adds(out, "\"SequenceNumberRange\":{");
    member_str(out, "EndingSequenceNumber", s->end_seq, true);
    member_str(out, "StartingSequenceNumber", s->start_seq, !s->end_seq);
    buf_addc(out, '}');
    member_str(out, "ShardId", s->id ? s->id : "", false);
    buf_addc(out, '}');
}

static void stream_json(const ddb_streams_res *r, buf *out)
{
    buf_adds(out, "\"StreamDescription\":{\"CreationRequestDateTime\":");
    seconds(out, r->created, true);
    buf_adds(out, ",\"KeySchema\":");
    array_json(out, r->keys, r->n_keys, sizeof *r->keys, key_json);
    member_str(out, "LastEvaluatedShardId", r->last_shard, false);
    buf_adds(out, ",\"Shards\":");
    array_json(out, r->shards, r->n_shards, sizeof *r->shards, shard_json);
    member_str(out, "StreamArn", r->stream_arn, false);
    member_str(out, "StreamLabel", r->label, false);
    member_str(out, "StreamStatus", r->stream_status, false);
    member_str(out, "StreamViewType", r->view, false);
    member_str(out, "TableName", r->table, false);
    buf_addc(out, '}');
}

void ddbres_streams_record_keep(ddb_record *rec, buf *scratch)
{
    buf_done(&rec->printed);
    buf_reset(scratch);
    ddbres_streams_record_json(rec, scratch);
    buf_add(&rec->printed, scratch->data, scratch->len);
}

void ddbres_streams_record_json(const ddb_record *rec, buf *out)
{
    if (rec->printed.len) {
        buf_add(out, rec->printed.data, rec->printed.len);
        return;
    }
    buf_addc(out, '{');
    member_str(out, "awsRegion", rec->region ? rec->region : "", true);
    buf_adds(out, ",\"dynamodb\":{\"ApproximateCreationDateTime\":");
    seconds(out, rec->created, false);
    buf_adds(out, ",\"Keys\":");
    if (rec->keys.type == AV_M)
        ddbjson_write_item(out, &rec->keys);
    else
        buf_adds(out, "{}");
    if (rec->new_image.type == AV_M) {
        buf_adds(out, ",\"NewImage\":");
        ddbjson_write_item(out, &rec->new_image);
    }
    if (rec->old_image.type == AV_M) {
        buf_adds(out, ",\"OldImage\":");
        ddbjson_write_item(out, &rec->old_image);
    }
    member_str(out, "SequenceNumber", rec->seq, false);
    buf_printf(out, ",\"SizeBytes\":%" PRIu64, rec->size);
    member_str(out, "StreamViewType", rec->view, false);
    buf_addc(out, '}');
    member_str(out, "eventID", rec->event_id, false);
    member_str(out, "eventName", rec->event_name, false);
    member_str(out, "eventSource", rec->event_source, false);
    member_str(out, "eventVersion", rec->event_version, false);
    if (rec->principal || rec->identity_type) {
        buf_adds(out, ",\"userIdentity\":{");
        member_str(out, "PrincipalId", rec->principal, true);
        member_str(out, "Type", rec->identity_type, !rec->principal);
        buf_addc(out, '}');
    }
    buf_addc(out, '}');
}

static void record_json(const void *e, buf *out)
{
    ddbres_streams_record_json(e, out);
}

static void records_json(const ddb_streams_res *r, buf *out)
{
    buf_adds(out, "\"Records\":");
    array_json(out, r->records, r->n_records, sizeof *r->records, record_json);
    member_str(out, "NextShardIterator", r->next_iterator, false);
}

void ddbres_streams_json(const ddb_res *res, buf *out)
{
    const ddb_streams_res *r = res->streams;
    buf_addc(out, '{');
    if (!r) {
        buf_addc(out, '}');
        return;
    }
    if (r->has_ttl_spec || r->ttl_status)
        ttl_json(r, out);
    else if (r->has_stream)
        stream_json(r, out);
    else if (r->has_records)
        records_json(r, out);
    else
        member_str(out, "ShardIterator", r->iterator, true);
    buf_addc(out, '}');
}

/* ---- the reader ---- */

static char *dup_str(const struct cJSON *o, const char *name)
{
    const char *s = ddbjson_member_str(o, name);
    return s ? xstrdup(s) : NULL;
}

/* Each string member names[i] of o into *fields[i]. */
static void dup_strs(const struct cJSON *o, const char *const *names, char **const *fields, size_t n)
{
    for (size_t i = 0; i < n; i++)
        *fields[i] = dup_str(o, names[i]);
}

static status read_ttl(const struct cJSON *root, ddb_streams_res *r)
{
    const struct cJSON *desc = ddbjson_member(root, "TimeToLiveDescription");
    const struct cJSON *spec = ddbjson_member(root, "TimeToLiveSpecification");
    if (desc) {
        r->ttl_status = dup_str(desc, "TimeToLiveStatus");
        r->ttl_attr = dup_str(desc, "AttributeName");
        if (!r->ttl_status)   /* a description always has one */
            r->ttl_status = xstrdup("DISABLED");
    } else if (spec) {
        r->has_ttl_spec = true;
        r->ttl_attr = dup_str(spec, "AttributeName");
        r->ttl_enabled = ddbjson_member_true(spec, "Enabled");
    }
    return ST_OK;
}

static void read_stream(const struct cJSON *sd, ddb_streams_res *r)
{
    r->has_stream = true;
    ddbjson_member_num(sd, "CreationRequestDateTime", &r->created);
    for (const struct cJSON *k = ddbjson_first(ddbjson_member(sd, "KeySchema")); k; k = ddbjson_next(k))
        ddbres_streams_add_key(r, ddbjson_member_str(k, "AttributeName"), ddbjson_member_str(k, "KeyType"));
    r->last_shard = dup_str(sd, "LastEvaluatedShardId");
    for (const struct cJSON *e = ddbjson_first(ddbjson_member(sd, "Shards")); e; e = ddbjson_next(e)) {
        ddb_shard *s = ddbres_streams_add_shard(r);
        const struct cJSON *range = ddbjson_member(e, "SequenceNumberRange");
        s->id = dup_str(e, "ShardId");
        s->parent = dup_str(e, "ParentShardId");
        s->start_seq = dup_str(range, "StartingSequenceNumber");
        s->end_seq = dup_str(range, "EndingSequenceNumber");
    }
    static const char *const names[] = { "StreamArn", "StreamLabel", "StreamStatus", "StreamViewType",
                                         "TableName" };
    char **fields[] = { &r->stream_arn, &r->label, &r->stream_status, &r->view, &r->table };
    dup_strs(sd, names, fields, 5);
}

static status read_record(const struct cJSON *e, ddb_record *rec, diag *d)
{
    const struct cJSON *db = ddbjson_member(e, "dynamodb"), *who = ddbjson_member(e, "userIdentity");
    static const char *const names[] = { "awsRegion", "eventID", "eventName", "eventSource", "eventVersion" };
    char **fields[] = { &rec->region, &rec->event_id, &rec->event_name, &rec->event_source,
                        &rec->event_version };
    dup_strs(e, names, fields, 5);
    rec->principal = dup_str(who, "PrincipalId");
    rec->identity_type = dup_str(who, "Type");
    ddbjson_member_num(db, "ApproximateCreationDateTime", &rec->created);
    double size = 0;
    if (ddbjson_member_num(db, "SizeBytes", &size) && size > 0)
        rec->size = (uint64_t)size;
    rec->seq = dup_str(db, "SequenceNumber");
    rec->view = dup_str(db, "StreamViewType");
    static const char *const images[] = { "Keys", "NewImage", "OldImage" };
    av *dst[] = { &rec->keys, &rec->new_image, &rec->old_image };
    for (int i = 0; i < 3; i++) {
        const struct cJSON *m = ddbjson_member(db, images[i]);
        status st = m ? ddbjson_item_from_cjson(m, images[i], dst[i], d) : ST_OK;
        if (st != ST_OK)
            return st;
    }
    if (rec->keys.type != AV_M) {
        av_done(&rec->keys);
        av_init_list(&rec->keys, AV_M);
    }
    return ST_OK;
}

status ddbres_streams_read(const struct cJSON *root, ddb_res *res, diag *d)
{
    const struct cJSON *sd = ddbjson_member(root, "StreamDescription");
    const struct cJSON *recs = ddbjson_member(root, "Records");
    const char *it = ddbjson_member_str(root, "ShardIterator");
    bool ttl = ddbjson_member(root, "TimeToLiveDescription") || ddbjson_member(root, "TimeToLiveSpecification");
    if (!sd && !recs && !it && !ttl)
        return ST_OK;
    ddb_streams_res *r = ddbres_streams_of(res);
    if (ttl)
        read_ttl(root, r);
    if (sd)
        read_stream(sd, r);
    if (it)
        r->iterator = xstrdup(it);
    if (!recs)
        return ST_OK;
    r->has_records = true;
    r->next_iterator = dup_str(root, "NextShardIterator");
    for (const struct cJSON *e = ddbjson_first(recs); e; e = ddbjson_next(e)) {
        status st = read_record(e, ddbres_streams_add_record(r), d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}
