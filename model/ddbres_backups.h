/*
 * ddbres_backups — the backup kinds' answers as C values: CreateBackup's
 * BackupDetails, DescribeBackup's and DeleteBackup's BackupDescription
 * (BackupDetails, SourceTableDetails, SourceTableFeatureDetails),
 * ListBackups' BackupSummaries and LastEvaluatedBackupArn, and
 * RestoreTableFromBackup's TableDescription.
 *
 * The store's typed executors (data/store_backup_exec.c) fill them; the
 * JSON door prints them with ddbres_backups_json (members in the API
 * reference's order); a remote answer is read into them by
 * ddbres_backups_read (called by data/'s store_codec_read). ddb_res
 * holds one (ddb_res.backups, NULL for the other kinds), owned and freed
 * by ddb_res_done.
 *
 * Pure C: no I/O, no cJSON: a remote answer comes here parsed as plain
 * JSON (model/ddbjson's ddbjson_parse_plain_item: objects as M, arrays
 * as L, strings as S, numbers as N).
 */
#ifndef DDBX_DDBRES_BACKUPS_H
#define DDBX_DDBRES_BACKUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"
#include "model/ddbreq.h"
#include "model/schema.h"

/* One backup: a BackupDescription's three parts, or a BackupSummary (its
 * members are the details' and the source's names), or CreateBackup's
 * BackupDetails alone. */
typedef struct ddb_backup {
    /* BackupDetails */
    char *arn;              /* BackupArn */
    char *name;             /* BackupName */
    uint64_t bytes;         /* BackupSizeBytes */
    char *status;           /* BackupStatus: CREATING, AVAILABLE, DELETED */
    bool system;            /* BackupType SYSTEM (else USER) */
    int64_t created_ms;     /* BackupCreationDateTime */
    int64_t expires_ms;     /* BackupExpiryDateTime; 0: none */
    /* SourceTableDetails (a summary: TableName, TableId, TableArn) */
    char *table;            /* TableName */
    char *table_id;         /* TableId; NULL: none */
    char *table_arn;        /* TableArn; NULL: none */
    uint64_t table_bytes;   /* TableSizeBytes */
    double table_created;   /* TableCreationDateTime, seconds */
    ddb_pt pt;              /* ProvisionedThroughput */
    uint64_t items;         /* ItemCount */
    char *billing;          /* BillingMode */
    /* SourceTableDetails' KeySchema (def.pk, def.sk), and
     * SourceTableFeatureDetails: LocalSecondaryIndexes and
     * GlobalSecondaryIndexes (def.idx, a GSI's throughput idx_pt[i]),
     * VectorIndexes (def.vidx). def.name is the table's. Key types are
     * AV_NONE when read from a remote answer (it has no
     * AttributeDefinitions). */
    table_def def;
    ddb_pt *idx_pt;         /* def.n_idx of them; NULL: none */
    bool no_features;       /* SourceTableFeatureDetails {} (a SYSTEM backup) */
    char *stream_view;      /* StreamDescription (enabled) StreamViewType; NULL: none */
    char *ttl_attr;         /* TimeToLiveDescription (ENABLED) AttributeName; NULL: none */
} ddb_backup;

typedef struct ddb_backups_res {
    ddb_backup *backups;    /* CreateBackup, DescribeBackup, DeleteBackup: one;
                               ListBackups: the summaries */
    size_t n_backups;
    char *last_arn;         /* ListBackups: LastEvaluatedBackupArn; NULL: the end */
    /* RestoreTableFromBackup: the new table's TableDescription, as its
     * JSON text (a typed TableDescription is the table kinds' to add),
     * and its RestoreSummary's SourceBackupArn, the one member ddbx's
     * callers read. */
    char *table_desc;
    char *restored_from;
} ddb_backups_res;

/* The answer of res (allocated when NULL). */
ddb_backups_res *ddbres_backups_of(ddb_res *res);
/* A new backup at the end of the answer's list (zeroed). */
ddb_backup *ddbres_backups_add(ddb_backups_res *b);
void ddb_backup_done(ddb_backup *b);
void ddbres_backups_free(ddb_backups_res *b);

/* The response body of kind (one of the five backup kinds) from res,
 * members in the API reference's order: {"BackupDetails":{..}},
 * {"BackupDescription":{..}}, {"BackupSummaries":[..],
 * "LastEvaluatedBackupArn":..}, {"TableDescription":{..}}. A res with
 * no answer prints {}. */
void ddbres_backups_json(ddb_kind kind, const ddb_res *res, buf *out);

/* A remote answer's backup members (BackupDetails, BackupDescription,
 * BackupSummaries and LastEvaluatedBackupArn, a TableDescription's
 * RestoreSummary.SourceBackupArn), parsed as plain JSON, into
 * res->backups; nothing when it has none. SourceTableDetails has no
 * AttributeDefinitions: the keys' types are AV_NONE. The restored
 * table's description text (table_desc) is the caller's to set: a plain
 * parse keeps no member order. */
void ddbres_backups_read(const av *root, ddb_res *res);

#endif
