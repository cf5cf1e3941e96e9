/*
 * ddbreq — DynamoDB requests, responses and errors as C values.
 *
 * The typed form of every data-plane operation, and of the control-plane,
 * PartiQL, Streams and backup requests ddbx itself sends. The explorer builds
 * these (from the builder, the query bar, item edits, its commands) and
 * hands them to the store's typed call (data/store.h: store_exec); the
 * JSON codec behind `ddbx api` and `ddbx serve` turns data-plane request
 * bodies into them; whatever ddbx sends as JSON (to an endpoint, or to
 * the local store's control plane) is printed from them by ddb_req_json,
 * the one printer of request bodies. The builder's panel shows the same
 * printers' output, so what the user sees is what is sent.
 *
 * Pure C: no I/O, no cJSON (JSON text is printed with model/ddbjson's
 * writers; parsing it is data/'s codec's job).
 *
 * Ownership: a ddb_req owns everything it points to (strings, avs, its
 * actions); ddb_req_init before use, ddb_req_done after. ddb_res and
 * ddb_err likewise. Strings set with ddb_req_set_str are copied.
 */
#ifndef DDBX_DDBREQ_H
#define DDBX_DDBREQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/legacy.h"
#include "model/schema.h"
#include "model/status.h"

/* The member holding a PartiQL statement (ExecuteStatement's, and each of
 * BatchExecuteStatement's and ExecuteTransaction's), spelled once for the
 * printer and the PartiQL view's label. */
#define DDB_MEMBER_STATEMENT "Statement"

/*
 * DynamoDB's operations, once: X(Name, cli-name, kind). kind:
 *   'r' reads items, 'w' writes items (both take ReturnConsumedCapacity),
 *   'p' PartiQL (a read when every statement is a SELECT; takes it too),
 *   'd' describes (a control-plane read), 'c' changes tables,
 *   's' DynamoDB Streams (the DynamoDBStreams_20120810 target; reads).
 * The store's dispatcher (which implements some of the 'd' ones only on
 * a remote endpoint), the remote backend's read/write gate and capacity
 * defaults, the Streams routing and the printers all take their names
 * from here.
 */
#define DDB_OPERATIONS(X) \
    X(CreateTable,               "create-table",                 'c') \
    X(DescribeTable,             "describe-table",               'd') \
    X(ListTables,                "list-tables",                  'd') \
    X(DeleteTable,               "delete-table",                 'c') \
    X(UpdateTable,               "update-table",                 'c') \
    X(PutItem,                   "put-item",                     'w') \
    X(GetItem,                   "get-item",                     'r') \
    X(UpdateItem,                "update-item",                  'w') \
    X(DeleteItem,                "delete-item",                  'w') \
    X(Query,                     "query",                        'r') \
    X(Scan,                      "scan",                         'r') \
    X(BatchWriteItem,            "batch-write-item",             'w') \
    X(BatchGetItem,              "batch-get-item",               'r') \
    X(TransactWriteItems,        "transact-write-items",         'w') \
    X(TransactGetItems,          "transact-get-items",           'r') \
    X(ExecuteStatement,          "execute-statement",            'p') \
    X(BatchExecuteStatement,     "batch-execute-statement",      'p') \
    X(ExecuteTransaction,        "execute-transaction",          'p') \
    X(ListStreams,               "list-streams",                 's') \
    X(DescribeStream,            "describe-stream",              's') \
    X(GetShardIterator,          "get-shard-iterator",           's') \
    X(GetRecords,                "get-records",                  's') \
    X(DescribeTimeToLive,        "describe-time-to-live",        'd') \
    X(UpdateTimeToLive,          "update-time-to-live",          'c') \
    X(DescribeLimits,            "describe-limits",              'd') \
    X(DescribeEndpoints,         "describe-endpoints",           'd') \
    X(ListTagsOfResource,        "list-tags-of-resource",        'd') \
    X(TagResource,               "tag-resource",                 'c') \
    X(UntagResource,             "untag-resource",               'c') \
    X(DescribeContinuousBackups, "describe-continuous-backups",  'd') \
    X(UpdateContinuousBackups,   "update-continuous-backups",    'c') \
    X(CreateBackup,              "create-backup",                'c') \
    X(ListBackups,               "list-backups",                 'd') \
    X(DescribeBackup,            "describe-backup",              'd') \
    X(DeleteBackup,              "delete-backup",                'c') \
    X(RestoreTableFromBackup,    "restore-table-from-backup",    'c') \
    X(RestoreTableToPointInTime, "restore-table-to-point-in-time", 'c') \
    X(ListGlobalTables,          "list-global-tables",           'd') \
    X(DescribeGlobalTable,       "describe-global-table",        'd') \
    X(ListExports,               "list-exports",                 'd') \
    X(ListImports,               "list-imports",                 'd') \
    X(PutResourcePolicy,         "put-resource-policy",          'c') \
    X(GetResourcePolicy,         "get-resource-policy",          'd') \
    X(DeleteResourcePolicy,      "delete-resource-policy",       'c') \
    X(SearchVectors,             "search-vectors",               'r')

typedef enum {
#define DDB_OP_ENUM(name, cli, kind) DDB_OP_##name,
    DDB_OPERATIONS(DDB_OP_ENUM)
#undef DDB_OP_ENUM
    DDB_OP__COUNT
} ddb_opname;

/* "PutItem" ('?' for none). */
const char *ddb_op_name(ddb_opname op);
/* By name; -1 when DynamoDB has no such operation (that ddbx knows of). */
int ddb_op_find(const char *name);
/* The kind of the operation named (0 when unknown). */
char ddb_op_kind_of(const char *name);

/* The request kinds a ddb_req can be. DDB_CHECK (ConditionCheck) exists
 * only as an action of a transaction, as in DynamoDB. From
 * DDB_LIST_TABLES on, the kinds ddbx sends for its own control-plane,
 * PartiQL, Streams and backup calls (their members: ddb_ctl). */
typedef enum {
    DDB_GET, DDB_PUT, DDB_UPDATE, DDB_DELETE, DDB_CHECK, DDB_QUERY, DDB_SCAN,
    DDB_BATCH_GET, DDB_BATCH_WRITE, DDB_TRANSACT_GET, DDB_TRANSACT_WRITE,
    DDB_SEARCH_VECTORS,
    DDB_LIST_TABLES, DDB_DESCRIBE_TABLE, DDB_CREATE_TABLE, DDB_DELETE_TABLE, DDB_UPDATE_TABLE,
    DDB_DESCRIBE_TTL, DDB_UPDATE_TTL, DDB_EXECUTE,
    DDB_DESCRIBE_STREAM, DDB_GET_SHARD_ITERATOR, DDB_GET_RECORDS,
    DDB_CREATE_BACKUP, DDB_LIST_BACKUPS, DDB_DESCRIBE_BACKUP, DDB_DELETE_BACKUP,
    DDB_RESTORE_FROM_BACKUP,
} ddb_kind;

/* The operation a kind is sent as (DDB_CHECK: TransactWriteItems). */
ddb_opname ddb_kind_op(ddb_kind k);
/* "Put", "Update", "Delete", "ConditionCheck", "Get" (TransactItems
 * members); NULL for kinds that cannot be an action. */
const char *ddb_kind_action_name(ddb_kind k);

typedef enum { DDB_RV_NONE, DDB_RV_ALL_OLD, DDB_RV_UPDATED_OLD, DDB_RV_ALL_NEW,
               DDB_RV_UPDATED_NEW } ddb_rv;
typedef enum { DDB_RCC_NONE, DDB_RCC_TOTAL, DDB_RCC_INDEXES } ddb_rcc;
typedef enum { DDB_SELECT_DEFAULT, DDB_SELECT_ALL, DDB_SELECT_PROJECTED, DDB_SELECT_SPECIFIC,
               DDB_SELECT_COUNT } ddb_select;

const char *ddb_rv_name(ddb_rv rv);              /* "ALL_OLD", ... */
const char *ddb_select_name(ddb_select s);        /* "COUNT", ...; NULL for DEFAULT */
/* The inverses, for a request body's members: DDB_RV_NONE and
 * DDB_SELECT_DEFAULT for NULL or a name not known (the shape check has
 * refused those before). */
ddb_rv ddb_rv_find(const char *name);
ddb_select ddb_select_find(const char *name);
/* ReturnConsumedCapacity's value: TOTAL, INDEXES, else DDB_RCC_NONE. */
ddb_rcc ddb_rcc_find(const char *name);

/* A ProvisionedThroughput: ReadCapacityUnits, WriteCapacityUnits. */
typedef struct ddb_pt {
    uint64_t rcu, wcu;
} ddb_pt;

/*
 * What the control-plane, PartiQL, Streams and backup kinds hold besides
 * table (TableName), index, limit (Limit), consistent (ConsistentRead)
 * and rcc, each used by the kinds named:
 */
typedef struct ddb_ctl {
    table_def *def;       /* CreateTable: the table (owned).
                             RestoreTableFromBackup: the backup's indexes
                             the new table keeps, def->idx (their overrides;
                             the rest of def unused); NULL: no override */
    index_def *gsi;       /* UpdateTable: the GSI to Create (owned); NULL: Delete
                             the one named by index */
    uint64_t rcu, wcu;    /* the ProvisionedThroughput of UpdateTable's Create,
                             or of CreateTable's table (then BillingMode
                             PROVISIONED); both 0: none (CreateTable:
                             PAY_PER_REQUEST) */
    ddb_pt *idx_pt;       /* CreateTable, provisioned: each GSI's throughput,
                             by its position in def->idx (def->n_idx of them,
                             owned); NULL: the table's */
    char *stream_view;    /* CreateTable: StreamSpecification enabled with this
                             StreamViewType; NULL: none */
    char *ttl_attr;       /* UpdateTimeToLive: TimeToLiveSpecification's */
    bool ttl_enabled;     /*   AttributeName and Enabled */
    char *statement;      /* ExecuteStatement: Statement, */
    av params;            /*   Parameters (AV_L; AV_NONE: none), */
    char *next_token;     /*   NextToken */
    char *start_name;     /* ListTables: ExclusiveStartTableName; ListBackups:
                             ExclusiveStartBackupArn */
    char *stream;         /* DescribeStream, GetShardIterator: StreamArn */
    char *shard;          /* GetShardIterator: ShardId, */
    char *iterator_type;  /*   ShardIteratorType */
    char *iterator;       /* GetRecords: ShardIterator */
    char *seq;            /* GetShardIterator: SequenceNumber */
    char *start_shard;    /* DescribeStream: ExclusiveStartShardId, */
    char *child_of;       /*   ShardFilter's ShardId (Type CHILD_SHARDS);
                             NULL: no ShardFilter */
    char *backup_name;    /* CreateBackup: BackupName */
    char *backup_arn;     /* DescribeBackup, DeleteBackup, RestoreTableFromBackup:
                             BackupArn */
    char *target;         /* RestoreTableFromBackup: TargetTableName */
    char *backup_type;    /* ListBackups: BackupType ("USER", "SYSTEM", "ALL");
                             NULL: none */
    int64_t from_ms, to_ms; /* ListBackups: TimeRangeLowerBound and
                             TimeRangeUpperBound (sent in seconds); 0: none */
    /* RestoreTableFromBackup's other overrides, read by the JSON door (not
     * printed: ddbx's own restores send only the index lists, always
     * both): which index overrides were given (def->idx, a GSI's
     * ProvisionedThroughput idx_pt[i], 0s: none), BillingModeOverride,
     * ProvisionedThroughputOverride (rcu, wcu), SSESpecificationOverride's
     * Enabled true, OnDemandThroughputOverride given. */
    bool lsi_override, gsi_override;
    bool *idx_odd;        /*   def->idx[i] given in a form no source index has
                             (a RANGE before a HASH, no ProjectionType,
                             NonKeyAttributes without INCLUDE): it matches
                             none (def->n_idx of them, owned; NULL: none) */
    char *billing_override;
    bool pt_override, sse_override_on, odt_override;
    /* CreateTable read from a request body (the JSON door): the table
     * asked for as the description's shapes hold it (model/
     * ddbres_tables.h; its request members only: AttributeDefinitions in
     * order, TableName, KeySchema, the index lists with their throughput,
     * OnDemandThroughput and WarmThroughput, the table's, BillingMode as
     * billing->mode, GlobalTableSettingsReplicationMode, VectorIndexes;
     * owned); NULL: the table is def. stream_view holds
     * StreamSpecification's. */
    struct ddb_table_desc *create;
    av tags;              /* CreateTable: Tags as given (L of M {Key, Value});
                             AV_NONE: none */
    char *policy;         /* CreateTable: ResourcePolicy; NULL: none */
} ddb_ctl;

typedef struct ddb_req ddb_req;
struct ddb_req {
    ddb_kind kind;
    char *table;          /* TableName; NULL for batches and transactions */
    char *index;          /* IndexName (Query, Scan, SearchVectors) */
    av key;               /* Key (Get, Update, Delete, Check); AV_NONE otherwise */
    av item;              /* Item (Put) */
    av keys;              /* BatchGet, per table: L of key maps */
    /* Expression texts (NULL: absent), and the maps they share. */
    char *cond, *update, *keycond, *filter, *proj;
    av names;             /* ExpressionAttributeNames: M of S; AV_NONE: absent */
    av values;            /* ExpressionAttributeValues: M; AV_NONE: absent */
    ddb_rv rv;            /* ReturnValues */
    bool rv_fail_all_old; /* ReturnValuesOnConditionCheckFailure ALL_OLD */
    bool icm;             /* ReturnItemCollectionMetrics SIZE (Put, Update, Delete,
                             BatchWrite, TransactWrite: the request's, not an action's) */
    ddb_rcc rcc;          /* ReturnConsumedCapacity */
    bool consistent;      /* ConsistentRead */
    bool backward;        /* ScanIndexForward false */
    uint32_t limit;       /* Limit; 0: none */
    ddb_select select;
    av start;             /* ExclusiveStartKey; AV_NONE: from the start */
    int segment, segments;/* Scan: Segment, TotalSegments (segments 0: not parallel) */
    char *token;          /* TransactWriteItems ClientRequestToken */
    /* SearchVectors: SearchVector (an L of N; AV_NONE: absent), TopK (0:
     * absent) and SearchConditionExpression (NULL: none); its
     * ProjectionExpression, names and values are proj, names, values. */
    av svec;
    uint32_t topk;
    char *scond;
    /* BatchGet (one Get per table), BatchWrite (Put or Delete, each with
     * its table), TransactGet (Get), TransactWrite (Put, Update, Delete,
     * Check): the actions in order. */
    ddb_req *acts;
    size_t n_acts;
    /* The legacy parameters (Expected, AttributeUpdates, the filters,
     * KeyConditions, ConditionalOperator, AttributesToGet). */
    ddb_legacy legacy;
    ddb_ctl ctl;          /* the kinds from DDB_LIST_TABLES on */
};

void ddb_req_init(ddb_req *r, ddb_kind kind);
void ddb_req_done(ddb_req *r);
/* Replaces *field (one of r's strings) with a copy of s (NULL clears). */
void ddb_req_set_str(char **field, const char *s);
/* Appends an action of the given kind (initialised) and returns it; the
 * pointer is valid until the next add. */
ddb_req *ddb_req_add(ddb_req *r, ddb_kind kind);
/* Deep copy into an uninitialised dst. */
void ddb_req_copy(ddb_req *dst, const ddb_req *src);

/* Is the kind one of the control-plane, PartiQL, Streams or backup ones? */
bool ddb_kind_is_ctl(ddb_kind k);

/* The request body as DynamoDB JSON, members in the API reference's order
 * (a ConditionCheck: the action's own body, as in TransactItems). */
void ddb_req_json(const ddb_req *r, buf *out);
/* A batch's RequestItems map alone, {"T":...}: BatchGetItem's
 * UnprocessedKeys and BatchWriteItem's UnprocessedItems have its form. */
void ddb_req_json_request_items(const ddb_req *r, buf *out);
/* A lone action as a transaction of one, borrowing r: txn must not be
 * passed to ddb_req_done. */
void ddb_req_wrap(const ddb_req *r, ddb_req *txn);
/* Pieces of the printer for the answers' printers (model/ddbres_*.c):
 * a table's (ix NULL) or an index's KeySchema array; the member
 * LocalSecondaryIndexes or GlobalSecondaryIndexes of def's indexes (each
 * GSI with its throughput pts[i] when pts) and VectorIndexes, each left
 * out when there are none. first: no member written yet in the object;
 * they return the same after. */
void ddb_req_json_key_schema(buf *out, const table_def *def, const index_def *ix);
bool ddb_req_json_indexes(buf *out, bool first, const table_def *def, bool global, const ddb_pt *pts);
bool ddb_req_json_vector_indexes(buf *out, bool first, const table_def *def);
/* A ready-to-paste `aws dynamodb ...` command line, shell-quoted: one line,
 * never wrapped. A lone ConditionCheck becomes a transaction of one; the
 * control-plane kinds pass their body as --cli-input-json. */
void ddb_req_cli(const ddb_req *r, buf *out);
/* Appends s (n bytes) as one POSIX shell word (single-quoted when needed). */
void ddb_shell_quote(buf *out, const char *s, size_t n);

/* ---- responses ---------------------------------------------------------- */

/* ConsumedCapacity of one table: the total, and with INDEXES the table's
 * own share and each index's. */
typedef struct ddb_cap_index {
    char *name;
    bool global;
    double units;
} ddb_cap_index;

typedef struct ddb_cap {
    char *table;
    double units;         /* CapacityUnits */
    double table_units;   /* Table.CapacityUnits (INDEXES) */
    ddb_cap_index *idx;
    size_t n_idx;
} ddb_cap;

/* One entry of ItemCollectionMetrics: an item collection a write touched
 * on a table with a local secondary index (the request asked with icm). */
typedef struct ddb_icm {
    char *table;
    av key;               /* ItemCollectionKey: M of the partition key */
    uint64_t bytes;       /* the collection's size after the write: its items
                             and their local index entries */
} ddb_icm;

typedef struct ddb_res {
    /* GetItem: Item (found tells); Put/Update/Delete: Attributes
     * (AV_NONE: none returned). */
    av item;
    bool found;
    /* Query/Scan: Items; TransactGetItems: Responses (AV_NONE for a
     * missing item). */
    av *items;
    size_t n_items, cap_items;
    uint64_t count, scanned;   /* Count, ScannedCount */
    av last_key;               /* LastEvaluatedKey; AV_NONE at the end */
    /* BatchGetItem: Responses, M of table -> L of items. */
    av responses;
    /* BatchWriteItem / BatchGetItem: what was not processed, in the
     * request's own shape (a ddb_req of the same kind; n_acts 0: none). */
    ddb_req unprocessed;
    ddb_cap *caps;             /* ConsumedCapacity, one per table */
    size_t n_caps;
    char *next_token;          /* ExecuteStatement: NextToken; NULL at the end */
    /* SearchVectors: each item's Score (n_items of them; NULL otherwise),
     * and its ConsumedCapacity, a VectorCapacity (has_vbytes: asked for). */
    double *scores;
    double vbytes;
    bool has_vbytes;
    /* ItemCollectionMetrics (icm asked, tables with a local secondary
     * index): one entry an item collection written, in the order first
     * written (Put/Update/Delete: at most one). */
    ddb_icm *icm;
    size_t n_icm;
    struct ddb_backups_res *backups;   /* the backup kinds' answers (model/ddbres_backups.h); NULL */
    /* The Time to Live and Streams answers (model/ddbres_streams.h);
     * NULL for the other kinds. */
    struct ddb_streams_res *streams;
    /* The table kinds' answers (model/ddbres_tables.h); NULL: none. */
    struct ddb_tables_res *tables;
} ddb_res;

void ddb_res_init(ddb_res *r);
void ddb_res_done(ddb_res *r);
/* Takes the item (the av is moved). */
void ddb_res_push_item(ddb_res *r, av *item);
/* SearchVectors: takes the item, with its score. */
void ddb_res_push_scored(ddb_res *r, av *item, double score);
/* The capacity entry for table (added when missing). */
ddb_cap *ddb_res_cap(ddb_res *r, const char *table);
/* Sum of CapacityUnits over every table. */
double ddb_res_units(const ddb_res *r);
/* The ItemCollectionMetrics entry of table's collection key (added, with
 * a copy of key, when missing). */
ddb_icm *ddb_res_icm(ddb_res *r, const char *table, const av *key);
/* Adds from's ConsumedCapacity into into's: per table (in the order the
 * tables first come), its total, its own share and each index's. */
void ddb_res_add_caps(ddb_res *into, const ddb_res *from);

/* ---- errors ------------------------------------------------------------- */

/* One entry of a TransactionCanceledException's CancellationReasons. */
typedef struct ddb_reason {
    char *code;           /* "None", "ConditionalCheckFailed", ... */
    char *message;        /* NULL for "None" */
    av item;              /* the item as it is (ALL_OLD on failure); AV_NONE */
} ddb_reason;

typedef struct ddb_err {
    diag d;               /* the status and DynamoDB's message (maybe cut) */
    char *type;           /* the error type when it is not one of status.h's
                             (a remote's "ThrottlingException"); else NULL */
    char *message;        /* the whole message; NULL: d.msg is whole */
    av item;              /* ConditionalCheckFailedException with
                             ReturnValuesOnConditionCheckFailure ALL_OLD:
                             the item as it is; AV_NONE */
    ddb_reason *reasons;  /* TransactionCanceledException */
    size_t n_reasons;
} ddb_err;

void ddb_err_init(ddb_err *e);
void ddb_err_done(ddb_err *e);
/* The whole message. */
const char *ddb_err_message(const ddb_err *e);
/* The error type as DynamoDB names it ("ValidationException", ...). */
const char *ddb_err_type(const ddb_err *e);
ddb_reason *ddb_err_add_reason(ddb_err *e, const char *code, const char *message);
/* The code a CancellationReason (TransactWriteItems) or a
 * BatchStatementError (BatchExecuteStatement) gives an action that
 * failed with st: "ConditionalCheckFailed", "ValidationError",
 * "DuplicateItem", "ResourceNotFound", "TransactionConflict",
 * "ItemCollectionSizeLimitExceeded"; "None" for ST_OK; "InternalServerError" for anything else. */
const char *ddb_reason_code(status st);

#endif
