/*
 * ddbres_streams — the typed answers of Time to Live and DynamoDB Streams:
 * DescribeTimeToLive, UpdateTimeToLive, DescribeStream, GetShardIterator
 * and GetRecords (ddb_res's streams member, model/ddbreq.h).
 *
 * The local store's executors (data/store_ttl.c, data/store_streams.c)
 * fill one; ddbres_streams_json prints it as the response body at the
 * JSON door (`ddbx api`, `ddbx serve`); ddbres_streams_read reads a remote
 * endpoint's parsed answer into one (data/store_codec.c), so callers in
 * data/ read these answers typed, never by member name.
 *
 * Ownership: a ddb_streams_res owns every string, av and array it points
 * to; ddbres_streams_new allocates one zeroed (avs AV_NONE),
 * ddbres_streams_free frees it whole (NULL is fine). Pure: no I/O; the
 * reader takes the cJSON tree only through model/ddbjson's accessors.
 */
#ifndef DDBX_DDBRES_STREAMS_H
#define DDBX_DDBRES_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

struct cJSON;
struct ddb_res;

/* A KeySchema element: AttributeName and KeyType ("HASH", "RANGE"). */
typedef struct ddb_keyelem {
    char *name, *type;
} ddb_keyelem;

/* A Shard (Streams API reference): ShardId, ParentShardId and its
 * SequenceNumberRange. */
typedef struct ddb_shard {
    char *id;
    char *parent;          /* NULL: none */
    char *start_seq;       /* StartingSequenceNumber */
    char *end_seq;         /* EndingSequenceNumber; NULL: the shard is open */
} ddb_shard;

/* A Record and its StreamRecord (the dynamodb member). */
typedef struct ddb_record {
    char *region;          /* awsRegion */
    double created;        /* ApproximateCreationDateTime, seconds */
    av keys;               /* Keys (M) */
    av new_image, old_image; /* NewImage, OldImage; AV_NONE: not in the record */
    char *seq;             /* SequenceNumber */
    uint64_t size;         /* SizeBytes */
    char *view;            /* StreamViewType */
    char *event_id, *event_name, *event_source, *event_version;
    char *principal, *identity_type; /* userIdentity's PrincipalId and Type;
                                        NULL: no userIdentity */
    buf printed;           /* the record as ddbres_streams_record_json
                              prints it, kept by the store, which prints
                              each record once to size its 1 MB pages;
                              empty: printed from the members */
} ddb_record;

typedef struct ddb_streams_res {
    /* DescribeTimeToLive (TimeToLiveDescription): ttl_status set;
     * UpdateTimeToLive (TimeToLiveSpecification): ttl_status NULL. */
    char *ttl_status;      /* TimeToLiveStatus: ENABLED, DISABLED, ... */
    char *ttl_attr;        /* AttributeName; NULL: none */
    bool ttl_enabled;      /* Enabled (UpdateTimeToLive) */
    bool has_ttl_spec;     /* the answer is UpdateTimeToLive's */
    /* DescribeStream (StreamDescription; has_stream). */
    bool has_stream;
    double created;        /* CreationRequestDateTime, seconds */
    ddb_keyelem *keys;     /* KeySchema */
    size_t n_keys;
    ddb_shard *shards;
    size_t n_shards;
    char *last_shard;      /* LastEvaluatedShardId; NULL: none */
    char *stream_arn, *label, *stream_status, *view, *table;
    /* GetShardIterator: ShardIterator. */
    char *iterator;
    /* GetRecords: Records (has_records) and NextShardIterator (NULL: the
     * shard is closed and read to its end). */
    bool has_records;
    ddb_record *records;
    size_t n_records;
    char *next_iterator;
} ddb_streams_res;

ddb_streams_res *ddbres_streams_new(void);
void ddbres_streams_free(ddb_streams_res *r);
/* The answer of res (creating it when NULL). */
ddb_streams_res *ddbres_streams_of(struct ddb_res *res);
/* Appends a shard, a key element or a record, zeroed (avs AV_NONE); the
 * pointer is valid until the next add of the same. */
ddb_shard *ddbres_streams_add_shard(ddb_streams_res *r);
ddb_keyelem *ddbres_streams_add_key(ddb_streams_res *r, const char *name, const char *type);
ddb_record *ddbres_streams_add_record(ddb_streams_res *r);

/* The response body of res->streams (members in the order the local
 * store has always printed them; "{}" when there is none). */
void ddbres_streams_json(const struct ddb_res *res, buf *out);
/* One Record as GetRecords prints it (rec->printed when it is kept). */
void ddbres_streams_record_json(const ddb_record *rec, buf *out);
/* Prints rec into rec->printed (the store's, to size its pages without
 * printing each record twice), through scratch (the caller's, reused
 * from record to record so that each kept text is allocated once). */
void ddbres_streams_record_keep(ddb_record *rec, buf *scratch);

/* A parsed answer's TimeToLiveDescription, TimeToLiveSpecification,
 * StreamDescription, ShardIterator, Records and NextShardIterator into
 * res->streams (left NULL when the answer has none of them). */
status ddbres_streams_read(const struct cJSON *root, struct ddb_res *res, diag *d);

#endif
