/*
 * store_backup_typed — the typed backup calls of data/store_backup.h:
 * on the local store over the catalogue (store_backup.c), on a remote
 * store as typed CreateBackup, ListBackups, DescribeBackup, DeleteBackup
 * and RestoreTableFromBackup requests (model/ddbreq.h) to its endpoint
 * (store_remote_request: the write gate asked before a write, the
 * request printed once, the answer parsed once), their answers read
 * back from the tree into store_backup.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/mem.h"

void store_backup_done(store_backup *b)
{
    free(b->arn);
    free(b->name);
    free(b->table);
    free(b->table_arn);
    free(b->table_id);
    free(b->stream_view);
    free(b->ttl_attr);
    table_def_free(&b->def);
    memset(b, 0, sizeof *b);
}

void store_backups_free(store_backup *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        store_backup_done(&b[i]);
    free(b);
}

static char *jdup(const cJSON *o, const char *name)
{
    const char *v = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, name));
    return v ? xstrdup(v) : NULL;
}

static double jnum(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static int64_t jms(const cJSON *o, const char *name)
{
    return (int64_t)llround(jnum(o, name) * 1000.0);
}

/* What a TableDescription (or a backup's SourceTableDetails and
 * SourceTableFeatureDetails) says of billing, throughput and the stream. */
static void table_facts(const cJSON *desc, const cJSON *pt_owner, const cJSON *stream, store_backup *b)
{
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(stream, "StreamEnabled")))
        b->stream_view = jdup(stream, "StreamViewType");
    const char *bm = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(desc, "BillingModeSummary"), "BillingMode"));
    if (!bm)
        bm = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(desc, "BillingMode"));
    b->provisioned = !bm || strcmp(bm, "PROVISIONED") == 0;
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(pt_owner, "ProvisionedThroughput");
    b->rcu = (int64_t)jnum(pt, "ReadCapacityUnits");
    b->wcu = (int64_t)jnum(pt, "WriteCapacityUnits");
}

static void from_row(const store_bk_row *r, store_backup *b)
{
    memset(b, 0, sizeof *b);
    buf arn = BUF_INIT;
    store_bk_arn(&arn, r);
    b->arn = buf_steal(&arn);
    b->name = xstrdup(r->name);
    b->type = r->type;
    b->automatic = r->automatic;
    b->created_ms = r->created;
    b->expires_ms = r->expires;
    b->items = r->items;
    b->bytes = r->bytes;
    b->table = xstrdup(r->tname);
    b->ttl_attr = r->ttl ? xstrdup(r->ttl) : NULL;
    cJSON *desc = cJSON_Parse(r->desc);
    b->table_arn = jdup(desc, "TableArn");
    b->table_id = jdup(desc, "TableId");
    b->table_created_ms = jms(desc, "CreationDateTime");
    table_facts(desc, desc, cJSON_GetObjectItemCaseSensitive(desc, "StreamSpecification"), b);
    cJSON_Delete(desc);
    diag d;
    diag_init(&d);
    if (store_def_from_desc(r->desc, &b->def, &d) != ST_OK)
        memset(&b->def, 0, sizeof b->def);
}

/* A remote endpoint's BackupDetails / BackupSummary / BackupDescription.
 * SourceTableDetails has no AttributeDefinitions: the keys' names are
 * known, their types not (AV_NONE). */
static void from_json(const cJSON *o, store_backup *b)
{
    memset(b, 0, sizeof *b);
    const cJSON *det = cJSON_GetObjectItemCaseSensitive(o, "BackupDetails");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(o, "SourceTableDetails");
    const cJSON *feat = cJSON_GetObjectItemCaseSensitive(o, "SourceTableFeatureDetails");
    if (!det)
        det = o;   /* a summary: everything at the top */
    if (!src)
        src = o;
    b->arn = jdup(det, "BackupArn");
    b->name = jdup(det, "BackupName");
    const char *type = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(det, "BackupType"));
    b->type = type && strcmp(type, "SYSTEM") == 0 ? STORE_BACKUP_SYSTEM : STORE_BACKUP_USER;
    b->created_ms = jms(det, "BackupCreationDateTime");
    b->expires_ms = jms(det, "BackupExpiryDateTime");
    b->bytes = (uint64_t)jnum(det, "BackupSizeBytes");
    b->items = (uint64_t)jnum(src, "ItemCount");
    b->table = jdup(src, "TableName");
    b->table_arn = jdup(src, "TableArn");
    b->table_id = jdup(src, "TableId");
    b->table_created_ms = jms(src, "TableCreationDateTime");
    table_facts(src, src, cJSON_GetObjectItemCaseSensitive(feat, "StreamDescription"), b);
    const cJSON *ttl = cJSON_GetObjectItemCaseSensitive(feat, "TimeToLiveDescription");
    b->ttl_attr = jdup(ttl, "AttributeName");
    /* The keys and indexes, as a description store_def_from_tree reads
     * (the members referenced, not copied). */
    cJSON *desc = cJSON_CreateObject();
    cJSON_AddStringToObject(desc, "TableName", b->table ? b->table : "");
    const char *members[] = { "KeySchema", "LocalSecondaryIndexes", "GlobalSecondaryIndexes" };
    for (int i = 0; i < 3; i++) {
        cJSON *v = cJSON_GetObjectItemCaseSensitive(i ? feat : src, members[i]);
        if (v)
            cJSON_AddItemReferenceToObject(desc, members[i], v);
    }
    diag d;
    diag_init(&d);
    if (store_def_from_tree(desc, &b->def, &d) != ST_OK)
        memset(&b->def, 0, sizeof b->def);
    cJSON_Delete(desc);
}

/* One backup request to a remote store's endpoint, req done after; *resp
 * its answer (the caller's to delete). */
static status remote(store *s, ddb_req *req, cJSON **resp, diag *d)
{
    status st = store_remote_request(s, req, resp, d);
    ddb_req_done(req);
    return st;
}

/* The request of kind naming the backup (DescribeBackup, DeleteBackup,
 * RestoreTableFromBackup). */
static void by_arn(ddb_req *req, ddb_kind kind, const char *arn)
{
    ddb_req_init(req, kind);
    ddb_req_set_str(&req->ctl.backup_arn, arn);
}

status store_backup_create(store *s, const char *table, const char *name, unsigned flags,
                           store_backup *out, diag *d)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (s->remote) {
        ddb_req req;
        ddb_req_init(&req, DDB_CREATE_BACKUP);
        ddb_req_set_str(&req.table, table);
        ddb_req_set_str(&req.ctl.backup_name, name);
        cJSON *resp;
        status st = remote(s, &req, &resp, d);
        if (st == ST_OK && out) {
            from_json(resp, out);
            if (!out->table)
                out->table = xstrdup(table);
        }
        cJSON_Delete(resp);
        return st;
    }
    store_bk_row r;
    status st = store_bk_create(s, table, name, flags & STORE_BACKUP_AUTO, &r, d);
    if (st == ST_OK && out)
        from_row(&r, out);
    store_bk_row_done(&r);
    return st;
}

static status remote_list(store *s, const store_backup_filter *f, store_backup **out, size_t *n, bool *more,
                          diag *d)
{
    if (f->automatic_only)
        return ST_OK;   /* the explorer takes none on an endpoint */
    ddb_req req;
    ddb_req_init(&req, DDB_LIST_BACKUPS);
    ddb_req_set_str(&req.table, f->table);
    ddb_req_set_str(&req.ctl.backup_type, f->user && f->system ? "ALL" : f->system ? "SYSTEM" : "USER");
    req.ctl.from_ms = f->from_ms;
    req.ctl.to_ms = f->to_ms;
    ddb_req_set_str(&req.ctl.start_name, f->after_arn);
    if (f->max)
        req.limit = (uint32_t)(f->max < 100 ? f->max : 100);
    cJSON *resp;
    status st = remote(s, &req, &resp, d);
    if (st != ST_OK)
        return st;
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(resp, "BackupSummaries"), *e;
    *out = xcalloc((size_t)cJSON_GetArraySize(list) + 1, sizeof **out);
    cJSON_ArrayForEach(e, list) from_json(e, &(*out)[(*n)++]);
    *more = cJSON_GetObjectItemCaseSensitive(resp, "LastEvaluatedBackupArn") != NULL;
    cJSON_Delete(resp);
    return ST_OK;
}

status store_backup_list(store *s, const store_backup_filter *f, store_backup **out, size_t *n, bool *more,
                         diag *d)
{
    *out = NULL;
    *n = 0;
    *more = false;
    if (s->remote)
        return remote_list(s, f, out, n, more, d);
    store_bk_row *rows;
    size_t nr;
    status st = store_bk_list(s, f, &rows, &nr, more, d);
    if (st != ST_OK)
        return st;
    *out = xcalloc(nr + 1, sizeof **out);
    for (size_t i = 0; i < nr; i++)
        from_row(&rows[i], &(*out)[i]);
    *n = nr;
    store_bk_rows_free(rows, nr);
    return ST_OK;
}

status store_backup_describe(store *s, const char *arn, store_backup *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (s->remote) {
        ddb_req req;
        by_arn(&req, DDB_DESCRIBE_BACKUP, arn);
        cJSON *resp;
        status st = remote(s, &req, &resp, d);
        if (st == ST_OK)
            from_json(cJSON_GetObjectItemCaseSensitive(resp, "BackupDescription"), out);
        cJSON_Delete(resp);
        return st;
    }
    store_bk_row r;
    status st = store_bk_find(s, arn, &r, d);
    if (st == ST_OK)
        from_row(&r, out);
    store_bk_row_done(&r);
    return st;
}

status store_backup_delete(store *s, const char *arn, diag *d)
{
    if (s->remote) {
        ddb_req req;
        by_arn(&req, DDB_DELETE_BACKUP, arn);
        cJSON *resp;
        status st = remote(s, &req, &resp, d);
        cJSON_Delete(resp);
        return st;
    }
    store_bk_row r;
    status st = store_bk_remove(s, arn, &r, d);
    store_bk_row_done(&r);
    return st;
}

/* The backup's indexes that opts keeps (by name), into the overrides'
 * definition: their names, keys and projections. */
static table_def *kept_indexes(const table_def *src, const store_restore_opts *opts)
{
    table_def *def = xcalloc(1, sizeof *def);
    def->idx = xcalloc(src->n_idx ? src->n_idx : 1, sizeof *def->idx);
    for (size_t i = 0; i < src->n_idx; i++) {
        bool keep = false;
        for (size_t k = 0; src->idx[i].name && k < opts->n_indexes; k++)
            keep |= strcmp(opts->indexes[k], src->idx[i].name) == 0;
        if (keep)
            index_def_copy(&def->idx[def->n_idx++], &src->idx[i]);
    }
    return def;
}

static status remote_restore(store *s, const char *arn, const char *target, const store_restore_opts *opts,
                             diag *d)
{
    ddb_req req;
    by_arn(&req, DDB_RESTORE_FROM_BACKUP, arn);
    ddb_req_set_str(&req.ctl.target, target);
    status st = ST_OK;
    if (opts && opts->indexes) {
        /* The overrides name the backup's own indexes: its description first. */
        store_backup b;
        if ((st = store_backup_describe(s, arn, &b, d)) == ST_OK)
            req.ctl.def = kept_indexes(&b.def, opts);
        store_backup_done(&b);
    }
    cJSON *resp = NULL;
    if (st == ST_OK)
        st = remote(s, &req, &resp, d);
    else
        ddb_req_done(&req);
    cJSON_Delete(resp);
    return st;
}

status store_backup_restore(store *s, const char *arn, const char *target, const store_restore_opts *opts,
                            diag *d)
{
    if (s->remote)
        return remote_restore(s, arn, target, opts, d);
    store_bk_row r;
    status st = store_bk_find(s, arn, &r, d);
    if (st != ST_OK)
        return st;
    cJSON *in = store_restore_overrides(r.desc, opts);
    cJSON *desc = store_restore_desc(r.desc, target, in, d);
    if (!desc) {
        st = d->code;
    } else {
        store_restore_src src = { .file = r.file, .tid = r.file ? 0 : r.tid };
        st = store_restore_table(s, &src, desc, d);
    }
    cJSON_Delete(desc);
    cJSON_Delete(in);
    store_bk_row_done(&r);
    return st;
}
