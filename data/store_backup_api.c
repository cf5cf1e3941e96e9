/*
 * store_backup_api — the backup and point-in-time recovery operations of
 * the JSON dispatcher: CreateBackup, DescribeBackup, ListBackups,
 * DeleteBackup, RestoreTableFromBackup, UpdateContinuousBackups,
 * DescribeContinuousBackups, RestoreTableToPointInTime; and the
 * description of a restored table (the overrides applied).
 *
 * The five backup kinds (CreateBackup to RestoreTableFromBackup) check
 * their body's shape here, read it into a ddb_req and run the typed
 * executor (store_backup_exec.c), whose answer ddbres_backups_json
 * prints; the continuous-backup operations still work on the JSON.
 *
 * Shapes, members and constraints are the API reference's (member order
 * as in DynamoDB's model, which fixes the order of validation messages).
 * The messages DynamoDB gives for the semantic refusals come from its
 * answers as observed and published with the ack-api-quirks notes; each
 * is quoted where it is made. dynalite and DynamoDB Local 3.3 implement
 * none of these operations (UnknownOperationException).
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_backup.h"
#include "data/store_ops.h"
#include "model/ddbjson.h"
#include "model/ddbres_backups.h"
#include "model/mem.h"

/* ---- specs ---- */

static const char *const e_billing[] = { "PROVISIONED", "PAY_PER_REQUEST", NULL };
static const char *const e_backup_type[] = { "USER", "SYSTEM", "AWS_BACKUP", "ALL", NULL };
static const char *const e_sse_type[] = { "AES256", "KMS", NULL };

#define F_TABLE_ARN(fl) { .name = "TableName", .type = VT_STRING, .flags = (fl), .min_len = 1, .max_len = 1024 }
#define F_BACKUP_ARN(member, fl) { .name = member, .type = VT_STRING, .flags = (fl), .min_len = 37, .max_len = 1024 }
#define F_NEW_TABLE(member) { .name = member, .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, \
                              .min_len = 3, .max_len = 255 }

static const vspec odt_fields[] = {
    { .name = "MaxReadRequestUnits", .type = VT_LONG },
    { .name = "MaxWriteRequestUnits", .type = VT_LONG },
    F_END,
};
static const vspec sse_fields[] = {
    { .name = "Enabled", .type = VT_BOOL },
    { .name = "SSEType", .type = VT_STRING, .enums = e_sse_type },
    { .name = "KMSMasterKeyId", .type = VT_STRING },
    F_END,
};

#define F_OVERRIDES \
    { .name = "BillingModeOverride", .type = VT_STRING, .enums = e_billing }, \
    { .name = "GlobalSecondaryIndexOverride", .type = VT_LIST, .elem = &store_gsi_elem }, \
    { .name = "LocalSecondaryIndexOverride", .type = VT_LIST, .elem = &store_lsi_elem }, \
    { .name = "ProvisionedThroughputOverride", .type = VT_FSTRUCT, .sub = "ProvisionedThroughput", \
      .fields = store_pt_fields }, \
    { .name = "OnDemandThroughputOverride", .type = VT_FSTRUCT, .sub = "OnDemandThroughput", .fields = odt_fields }, \
    { .name = "SSESpecificationOverride", .type = VT_FSTRUCT, .sub = "SSESpecification", .fields = sse_fields }

static const vspec create_spec[] = {
    F_TABLE_ARN(VF_NOTNULL),
    { .name = "BackupName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_END,
};
static const vspec arn_spec[] = {
    F_BACKUP_ARN("BackupArn", VF_NOTNULL),
    F_END,
};
static const vspec list_spec[] = {
    F_TABLE_ARN(0),
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true, .le = 100, .has_le = true },
    { .name = "TimeRangeLowerBound", .type = VT_TIMESTAMP },
    { .name = "TimeRangeUpperBound", .type = VT_TIMESTAMP },
    F_BACKUP_ARN("ExclusiveStartBackupArn", 0),
    { .name = "BackupType", .type = VT_STRING, .enums = e_backup_type },
    F_END,
};
static const vspec restore_spec[] = {
    F_NEW_TABLE("TargetTableName"),
    F_BACKUP_ARN("BackupArn", VF_NOTNULL),
    F_OVERRIDES,
    F_END,
};
static const vspec pit_spec[] = {
    { .name = "SourceTableArn", .type = VT_STRING, .min_len = 1, .max_len = 1024 },
    { .name = "SourceTableName", .type = VT_STRING, .flags = VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    F_NEW_TABLE("TargetTableName"),
    { .name = "UseLatestRestorableTime", .type = VT_BOOL },
    { .name = "RestoreDateTime", .type = VT_TIMESTAMP },
    F_OVERRIDES,
    F_END,
};
static const vspec pitr_fields[] = {
    { .name = "PointInTimeRecoveryEnabled", .type = VT_BOOL, .flags = VF_NOTNULL },
    { .name = "RecoveryPeriodInDays", .type = VT_INT, .ge = 1, .has_ge = true, .le = STORE_PITR_DAYS_MAX,
      .has_le = true },
    F_END,
};
static const vspec update_cb_spec[] = {
    F_TABLE_ARN(VF_NOTNULL),
    { .name = "PointInTimeRecoverySpecification", .type = VT_FSTRUCT, .sub = "PointInTimeRecoverySpecification",
      .flags = VF_NOTNULL, .fields = pitr_fields },
    F_END,
};
static const vspec describe_cb_spec[] = {
    F_TABLE_ARN(VF_NOTNULL),
    F_END,
};

/* ---- small helpers ---- */

static status table_not_found(const char *table, diag *d)
{
    return diag_set(d, ST_TABLE_NOT_FOUND, "Table not found: %s", table);
}

static double secs(int64_t ms)
{
    return (double)ms / 1000.0;
}

static int64_t ms_of(const cJSON *v)
{
    return (int64_t)llround(v->valuedouble * 1000.0);
}

static cJSON *dup_member(cJSON *dst, const cJSON *src, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, name);
    if (!v || cJSON_IsNull(v))
        return NULL;
    cJSON *c = cJSON_Duplicate(v, true);
    cJSON_AddItemToObject(dst, name, c);
    return c;
}

static void add_body(buf *out, const char *member, cJSON *o)
{
    char *text = cJSON_PrintUnformatted(o);
    buf_printf(out, "{\"%s\":%s}", member, text);
    cJSON_free(text);
    cJSON_Delete(o);
}

static const char *billing_of(const cJSON *desc)
{
    const char *b = store_jstr(cJSON_GetObjectItemCaseSensitive(desc, "BillingModeSummary"), "BillingMode");
    return b ? b : "PROVISIONED";
}

/* {ReadCapacityUnits, WriteCapacityUnits} of a ProvisionedThroughput
 * description (NumberOfDecreasesToday and the dates left out). */
static cJSON *throughput(const cJSON *pt)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(pt, "ReadCapacityUnits");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(pt, "WriteCapacityUnits");
    cJSON_AddNumberToObject(o, "ReadCapacityUnits", cJSON_IsNumber(r) ? r->valuedouble : 0);
    cJSON_AddNumberToObject(o, "WriteCapacityUnits", cJSON_IsNumber(w) ? w->valuedouble : 0);
    return o;
}

/* ---- the operations ---- */

/* Each reads its request (sop_door runs it typed, store_backup_exec, and
 * prints its answer). */

static status read_create(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->table, store_jstr(in, "TableName"));
    ddb_req_set_str(&req->ctl.backup_name, store_jstr(in, "BackupName"));
    return ST_OK;
}

status store_op_create_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, create_spec, DDB_CREATE_BACKUP, read_create, out, d);
}

/* DescribeBackup and DeleteBackup: the BackupArn. */
static status read_arn(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->ctl.backup_arn, store_jstr(in, "BackupArn"));
    return ST_OK;
}

status store_op_describe_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, arn_spec, DDB_DESCRIBE_BACKUP, read_arn, out, d);
}

status store_op_delete_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, arn_spec, DDB_DELETE_BACKUP, read_arn, out, d);
}

static status read_list(const cJSON *in, ddb_req *req, diag *d)
{
    const cJSON *lo = store_jget(in, "TimeRangeLowerBound"), *hi = store_jget(in, "TimeRangeUpperBound");
    const cJSON *lim = store_jget(in, "Limit");
    ddb_req_set_str(&req->table, store_jstr(in, "TableName"));
    ddb_req_set_str(&req->ctl.backup_type, store_jstr(in, "BackupType"));
    ddb_req_set_str(&req->ctl.start_name, store_jstr(in, "ExclusiveStartBackupArn"));
    req->ctl.from_ms = lo ? ms_of(lo) : 0;
    req->ctl.to_ms = hi ? ms_of(hi) : 0;
    req->limit = lim ? (uint32_t)lim->valueint : 0;
    return ST_OK;
}

status store_op_list_backups(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, list_spec, DDB_LIST_BACKUPS, read_list, out, d);
}

/* ---- a restored table's description ---- */

static bool same_json(const cJSON *a, const cJSON *b)
{
    return cJSON_Compare(a, b, true);
}

/* Does index override o match source index e: the same KeySchema and
 * Projection (observed: the name may change, nothing else)? */
static bool index_matches(const cJSON *o, const cJSON *e)
{
    const cJSON *po = cJSON_GetObjectItemCaseSensitive(o, "Projection");
    const cJSON *pe = cJSON_GetObjectItemCaseSensitive(e, "Projection");
    if (!same_json(cJSON_GetObjectItemCaseSensitive(o, "KeySchema"), cJSON_GetObjectItemCaseSensitive(e, "KeySchema")) ||
        !sop_is(store_jstr(po, "ProjectionType"), store_jstr(pe, "ProjectionType")))
        return false;
    const cJSON *no = cJSON_GetObjectItemCaseSensitive(po, "NonKeyAttributes");
    const cJSON *ne = cJSON_GetObjectItemCaseSensitive(pe, "NonKeyAttributes");
    if (cJSON_GetArraySize(no) != cJSON_GetArraySize(ne))
        return false;
    const cJSON *x, *y;
    cJSON_ArrayForEach(x, no) {
        bool found = false;
        cJSON_ArrayForEach(y, ne)
            found |= cJSON_IsString(x) && cJSON_IsString(y) && strcmp(x->valuestring, y->valuestring) == 0;
        if (!found)
            return false;
    }
    return true;
}

static void mark_used(cJSON *used, const cJSON *ks)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) {
        const char *n = store_jstr(e, "AttributeName");
        if (n && !cJSON_GetObjectItemCaseSensitive(used, n))
            cJSON_AddTrueToObject(used, n);
    }
}

/* The indexes of one kind the restored table has: the source's, or the
 * override's (each matching one of the source's). */
static status restored_indexes(const cJSON *src, const cJSON *in, bool global, bool provisioned,
                               const cJSON *table_pt, cJSON *req, cJSON *used, diag *d)
{
    const char *member = global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
    const cJSON *have = cJSON_GetObjectItemCaseSensitive(src, member);
    const cJSON *want = store_jget(in, global ? "GlobalSecondaryIndexOverride" : "LocalSecondaryIndexOverride");
    const cJSON *list = want ? want : have, *e;
    if (!cJSON_GetArraySize(list))
        return ST_OK;
    cJSON *arr = cJSON_AddArrayToObject(req, member);
    cJSON_ArrayForEach(e, list) {
        const cJSON *from = NULL, *h;
        cJSON_ArrayForEach(h, have)
            if (!from && index_matches(e, h))
                from = h;
        /* Observed: "Index N does not match a secondary index that existed
         * in the source table and cannot be created during the restore
         * operation". */
        if (!from)
            return diag_set(d, ST_VALIDATION, "Index %s does not match a secondary index that existed in the"
                            " source table and cannot be created during the restore operation",
                            store_jstr(e, "IndexName") ? store_jstr(e, "IndexName") : "null");
        cJSON *ix = cJSON_CreateObject();
        dup_member(ix, e, "IndexName");
        dup_member(ix, e, "KeySchema");
        dup_member(ix, e, "Projection");
        mark_used(used, cJSON_GetObjectItemCaseSensitive(e, "KeySchema"));
        if (global && provisioned) {
            /* The override's throughput, else the recorded one; an index of
             * an on-demand backup restored PROVISIONED takes the table's
             * (ddbx's choice: DynamoDB does not say). */
            const cJSON *pt = want ? store_jget(e, "ProvisionedThroughput") : NULL;
            const cJSON *rec = cJSON_GetObjectItemCaseSensitive(from, "ProvisionedThroughput");
            const cJSON *r = cJSON_GetObjectItemCaseSensitive(rec, "ReadCapacityUnits");
            if (!pt)
                pt = cJSON_IsNumber(r) && r->valuedouble > 0 ? rec : table_pt;
            cJSON_AddItemToObject(ix, "ProvisionedThroughput", throughput(pt));
        }
        cJSON_AddItemToArray(arr, ix);
    }
    return ST_OK;
}

cJSON *store_restore_desc(const char *src_desc, const char *target, const cJSON *in, diag *d)
{
    cJSON *src = cJSON_Parse(src_desc);
    if (!src) {
        diag_set(d, ST_INTERNAL, "corrupt table description");
        return NULL;
    }
    const char *was = billing_of(src), *over = store_jstr(in, "BillingModeOverride");
    const cJSON *pt = store_jget(in, "ProvisionedThroughputOverride");
    bool provisioned = sop_is(over ? over : was, "PROVISIONED");
    status st = ST_OK;
    /* Observed: "Must override ProvisionedThroughput if BillingMode is
     * overridden to PROVISIONED"; "Cannot override ProvisionedThroughput
     * unless BillingMode is PROVISIONED". */
    if (sop_is(over, "PROVISIONED") && !pt)
        st = diag_set(d, ST_VALIDATION, "Must override ProvisionedThroughput if BillingMode is overridden to"
                      " PROVISIONED");
    else if (pt && !provisioned)
        st = diag_set(d, ST_VALIDATION, "Cannot override ProvisionedThroughput unless BillingMode is PROVISIONED");
    /* No encryption to manage and no on-demand maxima here (UpdateTable
     * refuses them by name too): only the default, no encryption. */
    const cJSON *sse = store_jget(in, "SSESpecificationOverride");
    if (st == ST_OK && sse && sop_jbool(sse, "Enabled", false))
        st = diag_set(d, ST_VALIDATION, "ddbx does not apply SSESpecificationOverride with Enabled true (no KMS"
                      " keys locally)");
    if (st == ST_OK && store_jget(in, "OnDemandThroughputOverride"))
        st = diag_set(d, ST_VALIDATION, "ddbx does not apply OnDemandThroughputOverride");
    cJSON *req = cJSON_CreateObject(), *used = cJSON_CreateObject();
    if (st == ST_OK) {
        mark_used(used, cJSON_GetObjectItemCaseSensitive(src, "KeySchema"));
        const cJSON *table_pt = pt ? pt : cJSON_GetObjectItemCaseSensitive(src, "ProvisionedThroughput");
        cJSON *defs = cJSON_AddArrayToObject(req, "AttributeDefinitions");
        cJSON_AddStringToObject(req, "TableName", target);
        cJSON_AddStringToObject(req, "BillingMode", provisioned ? "PROVISIONED" : "PAY_PER_REQUEST");
        if (provisioned)
            cJSON_AddItemToObject(req, "ProvisionedThroughput", throughput(table_pt));
        dup_member(req, src, "KeySchema");
        st = restored_indexes(src, in, false, provisioned, table_pt, req, used, d);
        if (st == ST_OK)
            st = restored_indexes(src, in, true, provisioned, table_pt, req, used, d);
        store_vec_restore_req(src, req, used);   /* a backup keeps its vector indexes (VectorIndexInfo) */
        /* The definitions the keys kept use, as CreateTable wants them. */
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(src, "AttributeDefinitions")) {
            const char *n = store_jstr(e, "AttributeName");
            if (n && cJSON_GetObjectItemCaseSensitive(used, n))
                cJSON_AddItemToArray(defs, cJSON_Duplicate(e, true));
        }
    }
    if (st == ST_OK)
        st = store_create_checks(req, d);
    cJSON *desc = st == ST_OK ? store_create_tree(req) : NULL;
    cJSON_Delete(req);
    cJSON_Delete(used);
    cJSON_Delete(src);
    return desc;
}

/* Does index override e say what its typed form ix says, in the one form
 * a source index has (HASH attributes before RANGE ones, a ProjectionType,
 * NonKeyAttributes only with INCLUDE)? The override is matched against
 * the source's indexes as given (index_matches): one that is not never
 * matches. */
static bool as_typed(const cJSON *e, const index_def *ix)
{
    const cJSON *k, *proj = store_jget(e, "Projection");
    bool range = false;
    size_t n = 0;
    cJSON_ArrayForEach(k, store_jget(e, "KeySchema")) {
        bool r = sop_is(store_jstr(k, "KeyType"), "RANGE");
        if (range && !r)
            return false;
        range |= r;
        n++;
    }
    if (n != index_def_n_hash(ix) + index_def_n_range(ix) || !store_jstr(proj, "ProjectionType"))
        return false;
    return ix->proj == PROJ_INCLUDE || !store_jget(proj, "NonKeyAttributes");
}

/* RestoreTableFromBackup's overrides (their shapes checked) into req. */
static void restore_overrides(const cJSON *in, ddb_req *req)
{
    ddb_ctl *c = &req->ctl;
    ddb_req_set_str(&c->billing_override, store_jstr(in, "BillingModeOverride"));
    const cJSON *pt = store_jget(in, "ProvisionedThroughputOverride");
    if ((c->pt_override = pt != NULL)) {
        c->rcu = (uint64_t)store_jnum(pt, "ReadCapacityUnits", NULL);
        c->wcu = (uint64_t)store_jnum(pt, "WriteCapacityUnits", NULL);
    }
    c->odt_override = store_jget(in, "OnDemandThroughputOverride") != NULL;
    c->sse_override_on = sop_jbool(store_jget(in, "SSESpecificationOverride"), "Enabled", false);
    const cJSON *lsis = store_jget(in, "LocalSecondaryIndexOverride");
    const cJSON *gsis = store_jget(in, "GlobalSecondaryIndexOverride");
    c->lsi_override = lsis != NULL;
    c->gsi_override = gsis != NULL;
    if (!lsis && !gsis)
        return;
    /* The indexes as a description store_def_from_tree reads: LSIs, then
     * GSIs, each GSI's throughput by its place (none: 0s). */
    cJSON *desc = cJSON_CreateObject();
    if (lsis)
        cJSON_AddItemReferenceToObject(desc, "LocalSecondaryIndexes", (cJSON *)lsis);
    if (gsis)
        cJSON_AddItemReferenceToObject(desc, "GlobalSecondaryIndexes", (cJSON *)gsis);
    c->def = xcalloc(1, sizeof *c->def);
    diag d;
    diag_init(&d);
    store_def_from_tree(desc, c->def, &d);
    cJSON_Delete(desc);
    c->idx_pt = xcalloc(c->def->n_idx ? c->def->n_idx : 1, sizeof *c->idx_pt);
    c->idx_odd = xcalloc(c->def->n_idx ? c->def->n_idx : 1, sizeof *c->idx_odd);
    size_t i = 0;
    const cJSON *e;
    for (int g = 0; g < 2; g++)
        cJSON_ArrayForEach(e, (g ? gsis : lsis)) {
            const cJSON *ept = store_jget(e, "ProvisionedThroughput");
            if (i >= c->def->n_idx)
                break;
            if (g && ept)
                c->idx_pt[i] = (ddb_pt){ (uint64_t)store_jnum(ept, "ReadCapacityUnits", NULL),
                                         (uint64_t)store_jnum(ept, "WriteCapacityUnits", NULL) };
            c->idx_odd[i] = !as_typed(e, &c->def->idx[i]);
            i++;
        }
}

static status read_restore(const cJSON *in, ddb_req *req, diag *d)
{
    ddb_req_set_str(&req->ctl.backup_arn, store_jstr(in, "BackupArn"));
    ddb_req_set_str(&req->ctl.target, store_jstr(in, "TargetTableName"));
    restore_overrides(in, req);
    return ST_OK;
}

status store_op_restore_from_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, restore_spec, DDB_RESTORE_FROM_BACKUP, read_restore, out, d);
}

/* The source of RestoreTableToPointInTime: exactly one of its name and
 * its ARN (observed: "Must provide exactly one of: sourceTableArn,
 * sourceTableName"; neither, "The parameter 'TableName' is required"). */
static status pit_source(const cJSON *in, const char **table, diag *d)
{
    const char *name = store_jstr(in, "SourceTableName"), *arn = store_jstr(in, "SourceTableArn");
    if (name && arn)
        return diag_set(d, ST_VALIDATION, "Must provide exactly one of: sourceTableArn, sourceTableName");
    if (!name && !arn)
        return diag_set(d, ST_VALIDATION, "The parameter 'TableName' is required but was not present in the"
                        " request");
    if (arn && (strncmp(arn, "arn:", 4) != 0 || !strstr(arn, ":dynamodb:") || !strstr(arn, ":table/")))
        return diag_set(d, ST_VALIDATION, "sourceTableArn is not a valid ARN");
    *table = name ? name : store_bk_table_of(arn);
    return ST_OK;
}

status store_op_restore_to_point_in_time(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, pit_spec, d, &s->err_msg);
    const char *table = NULL, *target = store_jstr(in, "TargetTableName");
    if (st != ST_OK || (st = pit_source(in, &table, d)) != ST_OK)
        return st;
    const cJSON *when = store_jget(in, "RestoreDateTime");
    bool latest = sop_jbool(in, "UseLatestRestorableTime", false);
    /* Observed: "Invalid Request: Either one of RestoreDateTime or
     * UseLatestRestorableTime must be specified, but not both"; both:
     * "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime
     * cannot be set for point-in-time restore request. Pleas..." (the rest
     * as another emulator quotes it). */
    if (!when && !latest)
        return diag_set(d, ST_VALIDATION, "Invalid Request: Either one of RestoreDateTime or"
                        " UseLatestRestorableTime must be specified, but not both");
    if (when && latest)
        return diag_set(d, ST_VALIDATION, "Invalid Request: Both RestoreDateTime and UseLatestRestorableTime"
                        " cannot be set for point-in-time restore request. Please specify either RestoreDateTime"
                        " time or UseLatestRestorableTime");
    int64_t tid = 0;
    char *sdesc = NULL;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    tinfo *t;
    st = store_table(s, table, &t, d);
    if (st == ST_NOT_FOUND)
        st = table_not_found(table, d);
    if (st == ST_OK) {
        tid = t->id;
        sdesc = xstrdup(t->desc);
    }
    if ((st = store_txn_end(s, st, d)) != ST_OK) {
        free(sdesc);
        return st;
    }
    int64_t at = when ? ms_of(when) : store_now_ms(s);
    /* Recovery enabled and the time are checked before the overrides and
     * the target, as DynamoDB orders them; again in the restore's own
     * transaction. */
    cJSON *desc = NULL, *sd = cJSON_Parse(sdesc);
    if ((st = store_pitr_window_check(s, tid, table, at, d)) == ST_OK) {
        desc = store_restore_desc(sdesc, target, in, d);
        st = desc ? ST_OK : d->code;
    }
    if (st == ST_OK) {
        store_restore_src src = { .tid = tid, .undo_tid = tid, .undo_name = table, .at_ms = at };
        st = store_restore_table(s, &src, desc, d);
    }
    char *td = NULL;
    if (st == ST_OK && (st = store_restore_answer(s, target, NULL, store_jstr(sd, "TableArn"), at, &td, d)) == ST_OK) {
        /* The same answer as RestoreTableFromBackup: TableDescription. */
        ddb_res one = { .backups = &(ddb_backups_res){ .table_desc = td } };
        ddbres_backups_json(DDB_RESTORE_FROM_BACKUP, &one, out);
    }
    free(td);
    cJSON_Delete(sd);
    cJSON_Delete(desc);
    free(sdesc);
    return st;
}

/* ---- continuous backups ---- */

static status continuous_answer(store *s, const char *table, buf *out, diag *d)
{
    store_pitr p;
    status st = store_pitr_get(s, table, &p, d);
    if (st != ST_OK)
        return st;
    /* ContinuousBackupsStatus is ENABLED on every table (observed a few
     * seconds after creation; a table here is ACTIVE at once);
     * PointInTimeRecoveryDescription has only its status while disabled. */
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "ContinuousBackupsStatus", "ENABLED");
    cJSON *pd = cJSON_AddObjectToObject(o, "PointInTimeRecoveryDescription");
    cJSON_AddStringToObject(pd, "PointInTimeRecoveryStatus", p.enabled ? "ENABLED" : "DISABLED");
    if (p.enabled) {
        cJSON_AddNumberToObject(pd, "RecoveryPeriodInDays", p.days);
        cJSON_AddNumberToObject(pd, "EarliestRestorableDateTime", secs(p.earliest_ms));
        cJSON_AddNumberToObject(pd, "LatestRestorableDateTime", secs(p.latest_ms));
    }
    add_body(out, "ContinuousBackupsDescription", o);
    return ST_OK;
}

status store_op_update_continuous_backups(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, update_cb_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const char *table = store_bk_table_of(store_jstr(in, "TableName"));
    const cJSON *spec = store_jget(in, "PointInTimeRecoverySpecification");
    const cJSON *days = store_jget(spec, "RecoveryPeriodInDays");
    bool enable = sop_jbool(spec, "PointInTimeRecoveryEnabled", false);
    if ((st = store_pitr_set(s, table, enable, days ? days->valueint : 0, d)) != ST_OK)
        return st;
    return continuous_answer(s, table, out, d);
}

status store_op_describe_continuous_backups(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, describe_cb_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    return continuous_answer(s, store_bk_table_of(store_jstr(in, "TableName")), out, d);
}
