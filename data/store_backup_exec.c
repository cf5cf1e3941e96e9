/*
 * store_backup_exec — the backup kinds run typed inside the local store:
 * CreateBackup, ListBackups, DescribeBackup, DeleteBackup and
 * RestoreTableFromBackup from a ddb_req into the answer of
 * model/ddbres_backups.h (store_exec's cases; the JSON door,
 * store_backup_api.c, checks a body's shape, reads it into a ddb_req and
 * runs these too). A backup's catalogue row (store_backup.c) becomes a
 * ddb_backup here, once, for the door, the typed calls of
 * store_backup_typed.c and the printer alike.
 *
 * The semantic refusals keep DynamoDB's messages (each quoted where it is
 * made, as in store_backup_api.c); the shape ones stay at the door.

 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/ddbres_backups.h"
#include "model/mem.h"

#define LIST_PAGE_BYTES (1024 * 1024)   /* "at most 1 MB worth of items in a page" */

const char *store_bk_table_of(const char *name_or_arn)
{
    if (!name_or_arn || strncmp(name_or_arn, "arn:", 4) != 0)
        return name_or_arn;
    const char *t = strstr(name_or_arn, ":table/");
    return t ? t + 7 : name_or_arn;
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

static ddb_pt pt_of(const cJSON *o)
{
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(o, "ProvisionedThroughput");
    return (ddb_pt){ (uint64_t)jnum(pt, "ReadCapacityUnits"), (uint64_t)jnum(pt, "WriteCapacityUnits") };
}

/* b->idx_pt: each of b->def's GSIs' ProvisionedThroughput in gsis (an
 * index description list, by IndexName). */
static void idx_pt_of(const cJSON *gsis, ddb_backup *b)
{
    if (!b->def.n_idx)
        return;
    b->idx_pt = xcalloc(b->def.n_idx, sizeof *b->idx_pt);
    for (size_t i = 0; i < b->def.n_idx; i++) {
        const cJSON *e;
        cJSON_ArrayForEach(e, gsis) {
            const char *n = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(e, "IndexName"));
            if (b->def.idx[i].global && b->def.idx[i].name && n && strcmp(n, b->def.idx[i].name) == 0)
                b->idx_pt[i] = pt_of(e);
        }
    }
}

/* BillingModeSummary's BillingMode, else BillingMode; NULL: neither. */
static const char *billing_of(const cJSON *o)
{
    const char *bm = cJSON_GetStringValue(
        cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "BillingModeSummary"), "BillingMode"));
    return bm ? bm : cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(o, "BillingMode"));
}

void store_bk_backup(const store_bk_row *r, const char *status_text, ddb_backup *b)
{
    memset(b, 0, sizeof *b);
    buf arn = BUF_INIT;
    store_bk_arn(&arn, r);
    b->arn = buf_steal(&arn);
    b->name = xstrdup(r->name);
    b->bytes = b->table_bytes = r->bytes;
    b->status = xstrdup(status_text);
    b->system = r->type == STORE_BACKUP_SYSTEM;
    b->created_ms = r->created;
    b->expires_ms = r->expires;
    b->table = xstrdup(r->tname);
    b->items = r->items;
    cJSON *desc = cJSON_Parse(r->desc);
    b->table_id = jdup(desc, "TableId");
    b->table_arn = jdup(desc, "TableArn");
    b->table_created = jnum(desc, "CreationDateTime");
    b->pt = pt_of(desc);
    const char *bm = billing_of(desc);
    b->billing = xstrdup(bm ? bm : "PROVISIONED");
    diag d;
    diag_init(&d);
    if (store_def_from_desc(r->desc, &b->def, &d) != ST_OK)
        memset(&b->def, 0, sizeof b->def);
    idx_pt_of(cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes"), b);
    /* Observed: SourceTableFeatureDetails {} for a SYSTEM backup. */
    b->no_features = b->system;
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(desc, "StreamSpecification");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled")))
        b->stream_view = jdup(spec, "StreamViewType");
    b->ttl_attr = r->ttl ? xstrdup(r->ttl) : NULL;
    cJSON_Delete(desc);
}

/* One backup's row, as the answer's one backup. */
static void answer_row(ddb_res *res, const store_bk_row *r, const char *status_text)
{
    store_bk_backup(r, status_text, ddbres_backups_add(ddbres_backups_of(res)));
}

static status create(store *s, const ddb_req *req, ddb_res *res, diag *d)
{
    store_bk_row r;
    status st = store_bk_create(s, store_bk_table_of(req->table), req->ctl.backup_name, false, &r, d);
    /* Observed: BackupStatus CREATING in the answer, AVAILABLE from the
     * next DescribeBackup on (here the backup is whole already). */
    if (st == ST_OK)
        answer_row(res, &r, "CREATING");
    store_bk_row_done(&r);
    return st;
}

static status describe(store *s, const ddb_req *req, ddb_res *res, diag *d)
{
    store_bk_row r;
    status st = req->kind == DDB_DELETE_BACKUP ? store_bk_remove(s, req->ctl.backup_arn, &r, d)
              : store_bk_find(s, req->ctl.backup_arn, &r, d);
    if (st == ST_OK)
        answer_row(res, &r, req->kind == DDB_DELETE_BACKUP ? "DELETED" : "AVAILABLE");
    store_bk_row_done(&r);
    return st;
}

static bool type_is(const char *type, const char *name)
{
    return type && strcmp(type, name) == 0;
}

static status list(store *s, const ddb_req *req, ddb_res *res, diag *d)
{
    const ddb_ctl *c = &req->ctl;
    /* Observed: "Time range lower bound must be less than or equal to
     * upper bound"; the lower bound inclusive, the upper one exclusive. */
    if (c->from_ms && c->to_ms && c->from_ms > c->to_ms)
        return diag_set(d, ST_VALIDATION, "Time range lower bound must be less than or equal to upper bound");
    const char *type = c->backup_type;
    store_backup_filter f = {
        .table = store_bk_table_of(req->table),
        .user = !type || type_is(type, "USER") || type_is(type, "ALL"),
        .system = type_is(type, "SYSTEM") || type_is(type, "ALL"),
        .from_ms = c->from_ms,
        .to_ms = c->to_ms,
        .after_arn = c->start_name,
        .max = req->limit,
    };
    ddb_backups_res *b = ddbres_backups_of(res);
    /* No backup made by AWS Backup here. */
    if (type_is(type, "AWS_BACKUP"))
        return ST_OK;
    store_bk_row *rows;
    size_t n;
    bool more;
    status st = store_bk_list(s, &f, &rows, &n, &more, d);
    if (st != ST_OK)
        return st;
    /* A page ends once its body has reached LIST_PAGE_BYTES: the body's
     * length so far, each summary as the printer writes it (the empty
     * list's body less its "]}" is the head each one is printed after). */
    buf text = BUF_INIT;
    ddbres_backups_json(DDB_LIST_BACKUPS, &(ddb_res){ .backups = &(ddb_backups_res){ 0 } }, &text);
    size_t head = text.len - 2, len = head, i;
    for (i = 0; i < n && len < LIST_PAGE_BYTES; i++) {
        answer_row(res, &rows[i], "AVAILABLE");
        ddb_res one = { .backups = &(ddb_backups_res){ .backups = &b->backups[i], .n_backups = 1 } };
        buf_reset(&text);
        ddbres_backups_json(DDB_LIST_BACKUPS, &one, &text);
        len += text.len - head - 2 + (i ? 1 : 0);
    }
    buf_done(&text);
    if (i < n || more) {
        buf arn = BUF_INIT;
        store_bk_arn(&arn, &rows[i - 1]);
        b->last_arn = buf_steal(&arn);
    }
    store_bk_rows_free(rows, n);
    return ST_OK;
}

/* The answer of a restore: the new table's description as DynamoDB gives
 * it at once, CREATING with its RestoreSummary (observed: gone from
 * DescribeTable once ACTIVE, which a table here is as soon as this
 * returns). */
status store_restore_answer(store *s, const char *target, const char *backup_arn, const char *table_arn,
                            int64_t at_ms, char **td_text, diag *d)
{
    *td_text = NULL;
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "TableName", target);
    buf body = BUF_INIT;
    status st = store_op_describe_table(s, req, &body, d);
    cJSON_Delete(req);
    cJSON *o = st == ST_OK ? cJSON_Parse(body.data) : NULL;
    buf_done(&body);
    if (!o)
        return st == ST_OK ? diag_set(d, ST_INTERNAL, "lost the restored table") : st;
    cJSON *td = cJSON_GetObjectItemCaseSensitive(o, "Table");
    cJSON_ReplaceItemInObjectCaseSensitive(td, "TableStatus", cJSON_CreateString("CREATING"));
    cJSON *g;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(td, "GlobalSecondaryIndexes"))
        cJSON_ReplaceItemInObjectCaseSensitive(g, "IndexStatus", cJSON_CreateString("CREATING"));
    cJSON *rs = cJSON_AddObjectToObject(td, "RestoreSummary");
    if (backup_arn)
        cJSON_AddStringToObject(rs, "SourceBackupArn", backup_arn);
    if (table_arn)
        cJSON_AddStringToObject(rs, "SourceTableArn", table_arn);
    cJSON_AddNumberToObject(rs, "RestoreDateTime", (double)at_ms / 1000.0);
    cJSON_AddTrueToObject(rs, "RestoreInProgress");
    char *text = cJSON_PrintUnformatted(td);
    *td_text = xstrdup(text);
    cJSON_free(text);
    cJSON_Delete(o);
    return ST_OK;
}

/* The index override lists of req, as store_restore_desc reads them: def's
 * indexes of the kind (a GSI's ProvisionedThroughput when idx_pt gives
 * one). ddbx's own restores (def, no flags) give both lists. */
static void index_overrides(const ddb_ctl *c, bool global, cJSON *in)
{
    bool both = c->def && !c->lsi_override && !c->gsi_override;
    if (!(both || (global ? c->gsi_override : c->lsi_override)))
        return;
    const char *member = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
    buf text = BUF_INIT;
    buf_addc(&text, '{');
    if (c->def)
        ddb_req_json_indexes(&text, true, c->def, global, global ? c->idx_pt : NULL);
    buf_addc(&text, '}');
    cJSON *o = cJSON_Parse(text.data);
    buf_done(&text);
    cJSON *list = cJSON_DetachItemFromObjectCaseSensitive(o, member);
    cJSON_Delete(o);
    if (!list)
        list = cJSON_CreateArray();
    /* A GSI without a throughput of its own had none in the request; an
     * index given in a form no source index has matches none (an empty
     * ProjectionType). */
    cJSON *e = list->child;
    for (size_t i = 0; c->def && i < c->def->n_idx && e; i++) {
        if (c->def->idx[i].global != global)
            continue;
        if (global && (!c->idx_pt || (!c->idx_pt[i].rcu && !c->idx_pt[i].wcu)))
            cJSON_DeleteItemFromObjectCaseSensitive(e, "ProvisionedThroughput");
        if (c->idx_odd && c->idx_odd[i])
            cJSON_ReplaceItemInObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(e, "Projection"),
                                                   "ProjectionType", cJSON_CreateString(""));
        e = e->next;
    }
    cJSON_AddItemToObject(in, global ? "GlobalSecondaryIndexOverride" : "LocalSecondaryIndexOverride", list);
}

/* The overrides of a RestoreTableFromBackup, as store_restore_desc reads
 * them. */
static cJSON *overrides_of(const ddb_ctl *c)
{
    cJSON *in = cJSON_CreateObject();
    if (c->billing_override)
        cJSON_AddStringToObject(in, "BillingModeOverride", c->billing_override);
    index_overrides(c, true, in);
    index_overrides(c, false, in);
    if (c->pt_override) {
        cJSON *pt = cJSON_AddObjectToObject(in, "ProvisionedThroughputOverride");
        cJSON_AddNumberToObject(pt, "ReadCapacityUnits", (double)c->rcu);
        cJSON_AddNumberToObject(pt, "WriteCapacityUnits", (double)c->wcu);
    }
    if (c->odt_override)
        cJSON_AddObjectToObject(in, "OnDemandThroughputOverride");
    if (c->sse_override_on)
        cJSON_AddTrueToObject(cJSON_AddObjectToObject(in, "SSESpecificationOverride"), "Enabled");
    return in;
}

static status restore(store *s, const ddb_req *req, ddb_res *res, diag *d)
{
    const char *arn = req->ctl.backup_arn, *target = req->ctl.target;
    store_bk_row r;
    status st = store_bk_find(s, arn, &r, d);
    if (st != ST_OK)
        return st;
    cJSON *in = overrides_of(&req->ctl);
    cJSON *desc = store_restore_desc(r.desc, target, in, d);
    if (!desc) {
        st = d->code;
    } else {
        store_restore_src src = { .file = r.file, .tid = r.file ? 0 : r.tid };
        st = store_restore_table(s, &src, desc, d);
    }
    cJSON *sd = st == ST_OK ? cJSON_Parse(r.desc) : NULL;
    if (st == ST_OK) {
        ddb_backups_res *b = ddbres_backups_of(res);
        st = store_restore_answer(s, target, arn, store_jstr(sd, "TableArn"), r.created, &b->table_desc, d);
        b->restored_from = xstrdup(arn);
    }
    cJSON_Delete(sd);
    cJSON_Delete(desc);
    cJSON_Delete(in);
    store_bk_row_done(&r);
    return st;
}

status store_backup_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    switch (req->kind) {
    case DDB_CREATE_BACKUP:
        return create(s, req, res, &err->d);
    case DDB_LIST_BACKUPS:
        return list(s, req, res, &err->d);
    case DDB_DESCRIBE_BACKUP: case DDB_DELETE_BACKUP:
        return describe(s, req, res, &err->d);
    case DDB_RESTORE_FROM_BACKUP:
        return restore(s, req, res, &err->d);
    default:
        return diag_set(&err->d, ST_INTERNAL, "not a backup request");
    }
}
