/*
 * ddbres_tables — the answers of the table kinds as C values, their
 * printer and their reader.
 *
 * ListTables' TableNames and LastEvaluatedTableName, and the
 * TableDescription of DescribeTable, CreateTable, DeleteTable and
 * UpdateTable, are what the local store's typed executor
 * (data/store_tables_exec.c) hands back in a ddb_res (its member tables),
 * and what a remote store reads a remote answer into; the JSON door (`ddbx api`, `ddbx serve`) prints them with
 * ddbres_tables_json, members in the API reference's order.
 *
 * Pure C, no cJSON: a remote answer comes here parsed as plain JSON
 * (model/ddbjson's ddbjson_parse_plain_item: objects as M, arrays as L,
 * strings as S).
 *
 * Ownership: a ddb_tables_res owns its strings; ddb_res_done (model/
 * ddbreq.c) frees it with ddbres_tables_free.
 */
#ifndef DDBX_DDBRES_TABLES_H
#define DDBX_DDBRES_TABLES_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbreq.h"
#include "model/schema.h"
#include "model/status.h"

/*
 * A TableDescription, the members ddbx keeps and reads (the API
 * reference's TableDescription, GlobalSecondaryIndexDescription,
 * LocalSecondaryIndexDescription and VectorIndexDescription). Absent
 * members: NULL strings and objects, has false for numbers and booleans,
 * n 0 for lists. Numbers are doubles (a count or a size is exact to 2^53).
 */
typedef struct ddb_onum { bool has; double v; } ddb_onum;
typedef struct ddb_obool { bool has, v; } ddb_obool;
typedef struct ddb_strs { char **v; size_t n; } ddb_strs;

/* AttributeDefinition (AttributeName, AttributeType), KeySchemaElement
 * (AttributeName, KeyType), SearchSchemaElement (AttributeName,
 * SearchSchemaElementType): a name and what it is. */
typedef struct ddb_pair { char *name, *what; } ddb_pair;
typedef struct ddb_pairs { ddb_pair *v; size_t n; } ddb_pairs;

typedef struct ddb_projection {
    ddb_strs nka;               /* NonKeyAttributes */
    char *type;                 /* ProjectionType */
} ddb_projection;

/* ProvisionedThroughputDescription. */
typedef struct ddb_tput {
    ddb_onum last_decrease, last_increase;   /* Last{De,In}creaseDateTime */
    ddb_onum decreases;         /* NumberOfDecreasesToday */
    ddb_onum rcu, wcu;          /* Read/WriteCapacityUnits */
} ddb_tput;

typedef struct ddb_odt { ddb_onum max_read, max_write; } ddb_odt;   /* OnDemandThroughput */
/* WarmThroughput (a table's or an index's description). */
typedef struct ddb_warm {
    ddb_onum read;              /* ReadUnitsPerSecond */
    char *status;               /* Status (TableStatus or IndexStatus) */
    ddb_onum write;             /* WriteUnitsPerSecond */
} ddb_warm;

/* A global or local secondary index's description. */
typedef struct ddb_index_desc {
    ddb_obool backfilling;      /* Backfilling (GSI) */
    char *arn;                  /* IndexArn */
    char *name;                 /* IndexName */
    ddb_onum bytes;             /* IndexSizeBytes */
    char *status;               /* IndexStatus (GSI) */
    ddb_onum count;             /* ItemCount */
    ddb_pairs keys;             /* KeySchema */
    ddb_odt *odt;               /* OnDemandThroughput (GSI) */
    ddb_projection *proj;       /* Projection */
    ddb_tput *tput;             /* ProvisionedThroughput (GSI) */
    ddb_warm *warm;             /* WarmThroughput (GSI) */
} ddb_index_desc;
typedef struct ddb_index_descs { ddb_index_desc *v; size_t n; } ddb_index_descs;

typedef struct ddb_vattr { char *name; } ddb_vattr;   /* VectorAttribute: AttributeName */
/* A vector index's description (VectorIndexes). */
typedef struct ddb_vindex_desc {
    ddb_obool backfilling;      /* Backfilling */
    ddb_onum dims;              /* Dimensions */
    char *distance;             /* DistanceFunction */
    char *arn;                  /* IndexArn */
    char *name;                 /* IndexName */
    ddb_onum bytes;             /* IndexSizeBytes */
    char *status;               /* IndexStatus */
    ddb_onum count;             /* ItemCount */
    ddb_projection *proj;       /* Projection */
    ddb_pairs search;           /* SearchSchema */
    ddb_vattr *vattr;           /* VectorAttribute */
} ddb_vindex_desc;
typedef struct ddb_vindex_descs { ddb_vindex_desc *v; size_t n; } ddb_vindex_descs;

typedef struct ddb_billing { char *mode; ddb_onum last_ppr; } ddb_billing;  /* BillingModeSummary */
typedef struct ddb_restore {   /* RestoreSummary */
    ddb_onum at;                /* RestoreDateTime */
    ddb_obool in_progress;      /* RestoreInProgress */
    char *backup_arn, *table_arn;   /* SourceBackupArn, SourceTableArn */
} ddb_restore;
typedef struct ddb_stream_spec { ddb_obool enabled; char *view; } ddb_stream_spec;   /* StreamSpecification */
typedef struct ddb_tmode { char *mode; } ddb_tmode;   /* TableThroughputModeSummary */

/* The members in the API reference's order (alphabetical). */
typedef struct ddb_table_desc {
    ddb_pairs attrs;            /* AttributeDefinitions */
    ddb_billing *billing;       /* BillingModeSummary */
    ddb_onum created;           /* CreationDateTime (seconds, with ms) */
    ddb_obool deletion_protection;   /* DeletionProtectionEnabled */
    ddb_index_descs gsis;       /* GlobalSecondaryIndexes */
    char *replication_mode;     /* GlobalTableSettingsReplicationMode */
    ddb_onum count;             /* ItemCount */
    ddb_pairs keys;             /* KeySchema */
    char *stream_arn;           /* LatestStreamArn */
    char *stream_label;         /* LatestStreamLabel */
    ddb_index_descs lsis;       /* LocalSecondaryIndexes */
    ddb_odt *odt;               /* OnDemandThroughput */
    ddb_tput *tput;             /* ProvisionedThroughput */
    ddb_restore *restore;       /* RestoreSummary */
    ddb_stream_spec *stream;    /* StreamSpecification */
    char *arn;                  /* TableArn */
    char *id;                   /* TableId */
    char *name;                 /* TableName */
    ddb_onum bytes;             /* TableSizeBytes */
    char *status;               /* TableStatus */
    ddb_tmode *tmode;           /* TableThroughputModeSummary */
    ddb_vindex_descs vixs;      /* VectorIndexes (ddbx's vector search) */
    ddb_warm *warm;             /* WarmThroughput */
} ddb_table_desc;

typedef struct ddb_tables_res {
    /* ListTables: TableNames, in order, and LastEvaluatedTableName (NULL:
     * the last page). */
    char **names;
    size_t n_names;
    char *last_name;
    /* DescribeTable's Table; CreateTable's, DeleteTable's and
     * UpdateTable's TableDescription. NULL: none. */
    ddb_table_desc *table;
} ddb_tables_res;

/* res->tables, made when missing. */
ddb_tables_res *ddbres_tables(ddb_res *res);
/* Appends a copy of name to TableNames. */
void ddbres_tables_add_name(ddb_tables_res *t, const char *name);
void ddbres_tables_free(ddb_tables_res *t);
void ddbres_table_desc_free(ddb_table_desc *t);

/* One TableDescription object (parsed as plain JSON, AV_M) into a new
 * *out; members ddbx does not keep are passed over. */
status ddbres_table_desc_read(const av *o, ddb_table_desc **out, diag *d);
/* The table's key schema, indexes and vector indexes as a table_def
 * (model/schema.h; def uninitialised), as the store reads its own stored
 * description: keys typed by AttributeDefinitions. */
void ddbres_table_desc_def(const ddb_table_desc *t, table_def *def);
/* A deep copy of t (NULL: NULL). */
ddb_table_desc *ddbres_table_desc_copy(const ddb_table_desc *t);
/* The TableDescription object alone, as the answers print it (the store
 * keeps this text as a table's stored description). */
void ddbres_table_desc_json(const ddb_table_desc *t, buf *out);
/* The GSI of that name, or NULL. */
const ddb_index_desc *ddbres_table_desc_gsi(const ddb_table_desc *t, const char *name);

/* The response body of kind (one of the table kinds) from res. */
void ddbres_tables_json(ddb_kind kind, const ddb_res *res, buf *out);
/* The answer of kind, parsed as plain JSON (root: AV_M), into res;
 * members of the wrong type are refused with ST_INTERNAL, naming them. */
status ddbres_tables_read(ddb_kind kind, const av *root, ddb_res *res, diag *d);

#endif
