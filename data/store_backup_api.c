/*
 * store_backup_api — the backup and point-in-time recovery operations of
 * the JSON dispatcher: CreateBackup, DescribeBackup, ListBackups,
 * DeleteBackup, RestoreTableFromBackup, UpdateContinuousBackups,
 * DescribeContinuousBackups, RestoreTableToPointInTime; and the
 * description of a restored table (the overrides applied).
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
#include "model/mem.h"

#define LIST_PAGE_BYTES (1024 * 1024)   /* "at most 1 MB worth of items in a page" */

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

/* A TableName member that may be the table's ARN ("You can also provide
 * the Amazon Resource Name (ARN) of the table in this parameter"). */
static const char *table_of(const char *name_or_arn)
{
    if (!name_or_arn || strncmp(name_or_arn, "arn:", 4) != 0)
        return name_or_arn;
    const char *t = strstr(name_or_arn, ":table/");
    return t ? t + 7 : name_or_arn;
}

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

/* ---- a backup as DynamoDB describes it ---- */

static cJSON *details(const store_bk_row *r, const char *status_text)
{
    cJSON *o = cJSON_CreateObject();
    buf arn = BUF_INIT;
    store_bk_arn(&arn, r);
    cJSON_AddStringToObject(o, "BackupArn", arn.data);
    buf_done(&arn);
    cJSON_AddStringToObject(o, "BackupName", r->name);
    cJSON_AddNumberToObject(o, "BackupSizeBytes", (double)r->bytes);
    cJSON_AddStringToObject(o, "BackupStatus", status_text);
    cJSON_AddStringToObject(o, "BackupType", r->type == STORE_BACKUP_SYSTEM ? "SYSTEM" : "USER");
    cJSON_AddNumberToObject(o, "BackupCreationDateTime", secs(r->created));
    if (r->expires)
        cJSON_AddNumberToObject(o, "BackupExpiryDateTime", secs(r->expires));
    return o;
}

static cJSON *source_details(const store_bk_row *r, const cJSON *desc)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "TableName", r->tname);
    dup_member(o, desc, "TableId");
    dup_member(o, desc, "TableArn");
    cJSON_AddNumberToObject(o, "TableSizeBytes", (double)r->bytes);
    dup_member(o, desc, "KeySchema");
    const cJSON *cdt = cJSON_GetObjectItemCaseSensitive(desc, "CreationDateTime");
    cJSON_AddNumberToObject(o, "TableCreationDateTime", cJSON_IsNumber(cdt) ? cdt->valuedouble : 0);
    cJSON_AddItemToObject(o, "ProvisionedThroughput",
                          throughput(cJSON_GetObjectItemCaseSensitive(desc, "ProvisionedThroughput")));
    cJSON_AddNumberToObject(o, "ItemCount", (double)r->items);
    cJSON_AddStringToObject(o, "BillingMode", billing_of(desc));
    return o;
}

/* The indexes as *Info shapes (name, keys, projection, a GSI's
 * throughput), the stream and the TTL setting; observed empty ({}) for a
 * SYSTEM backup. */
static cJSON *feature_details(const store_bk_row *r, const cJSON *desc)
{
    cJSON *o = cJSON_CreateObject();
    if (r->type == STORE_BACKUP_SYSTEM)
        return o;
    for (int g = 0; g < 2; g++) {
        const char *member = g ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes";
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(desc, member), *e;
        if (!cJSON_GetArraySize(list))
            continue;
        cJSON *arr = cJSON_AddArrayToObject(o, member);
        cJSON_ArrayForEach(e, list) {
            cJSON *ix = cJSON_CreateObject();
            dup_member(ix, e, "IndexName");
            dup_member(ix, e, "KeySchema");
            dup_member(ix, e, "Projection");
            if (g)
                cJSON_AddItemToObject(ix, "ProvisionedThroughput",
                                      throughput(cJSON_GetObjectItemCaseSensitive(e, "ProvisionedThroughput")));
            cJSON_AddItemToArray(arr, ix);
        }
    }
    store_vec_feature_details(desc, o);
    const cJSON *spec = cJSON_GetObjectItemCaseSensitive(desc, "StreamSpecification");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled")))
        cJSON_AddItemToObject(o, "StreamDescription", cJSON_Duplicate(spec, true));
    if (r->ttl) {
        cJSON *t = cJSON_AddObjectToObject(o, "TimeToLiveDescription");
        cJSON_AddStringToObject(t, "TimeToLiveStatus", "ENABLED");
        cJSON_AddStringToObject(t, "AttributeName", r->ttl);
    }
    return o;
}

static cJSON *description(const store_bk_row *r, const char *status_text)
{
    cJSON *desc = cJSON_Parse(r->desc), *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "BackupDetails", details(r, status_text));
    cJSON_AddItemToObject(o, "SourceTableDetails", source_details(r, desc));
    cJSON_AddItemToObject(o, "SourceTableFeatureDetails", feature_details(r, desc));
    cJSON_Delete(desc);
    return o;
}

static cJSON *summary(const store_bk_row *r)
{
    cJSON *desc = cJSON_Parse(r->desc), *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "TableName", r->tname);
    dup_member(o, desc, "TableId");
    dup_member(o, desc, "TableArn");
    cJSON *det = details(r, "AVAILABLE"), *m;
    while ((m = det->child)) {
        cJSON_DetachItemViaPointer(det, m);
        cJSON_AddItemToObject(o, m->string, m);
    }
    cJSON_Delete(det);
    cJSON_Delete(desc);
    return o;
}

/* ---- the operations ---- */

status store_op_create_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, create_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    store_bk_row r;
    /* Observed: BackupStatus CREATING in the answer, AVAILABLE from the
     * next DescribeBackup on (here the backup is whole already). */
    if ((st = store_bk_create(s, table_of(store_jstr(in, "TableName")), store_jstr(in, "BackupName"), false, &r,
                              d)) != ST_OK)
        return st;
    cJSON *o = details(&r, "CREATING");
    add_body(out, "BackupDetails", o);
    store_bk_row_done(&r);
    return ST_OK;
}

status store_op_describe_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, arn_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    store_bk_row r;
    if ((st = store_bk_find(s, store_jstr(in, "BackupArn"), &r, d)) != ST_OK)
        return st;
    add_body(out, "BackupDescription", description(&r, "AVAILABLE"));
    store_bk_row_done(&r);
    return ST_OK;
}

status store_op_delete_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, arn_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    store_bk_row r;
    if ((st = store_bk_remove(s, store_jstr(in, "BackupArn"), &r, d)) == ST_OK)
        add_body(out, "BackupDescription", description(&r, "DELETED"));
    store_bk_row_done(&r);
    return st;
}

status store_op_list_backups(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, list_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *lo = store_jget(in, "TimeRangeLowerBound"), *hi = store_jget(in, "TimeRangeUpperBound");
    const cJSON *lim = store_jget(in, "Limit");
    /* Observed: "Time range lower bound must be less than or equal to
     * upper bound"; the lower bound inclusive, the upper one exclusive. */
    if (lo && hi && lo->valuedouble > hi->valuedouble)
        return diag_set(d, ST_VALIDATION, "Time range lower bound must be less than or equal to upper bound");
    const char *type = store_jstr(in, "BackupType");
    store_backup_filter f = {
        .table = table_of(store_jstr(in, "TableName")),
        .user = !type || sop_is(type, "USER") || sop_is(type, "ALL"),
        .system = sop_is(type, "SYSTEM") || sop_is(type, "ALL"),
        .from_ms = lo ? ms_of(lo) : 0,
        .to_ms = hi ? ms_of(hi) : 0,
        .after_arn = store_jstr(in, "ExclusiveStartBackupArn"),
        .max = lim ? (size_t)lim->valueint : 0,
    };
    buf_adds(out, "{\"BackupSummaries\":[");
    /* No backup made by AWS Backup here. */
    if (sop_is(type, "AWS_BACKUP")) {
        buf_adds(out, "]}");
        return ST_OK;
    }
    store_bk_row *rows;
    size_t n;
    bool more;
    if ((st = store_bk_list(s, &f, &rows, &n, &more, d)) != ST_OK)
        return st;
    size_t i;
    for (i = 0; i < n && out->len < LIST_PAGE_BYTES; i++) {
        cJSON *o = summary(&rows[i]);
        char *text = cJSON_PrintUnformatted(o);
        buf_adds(out, i ? "," : "");
        buf_adds(out, text);
        cJSON_free(text);
        cJSON_Delete(o);
    }
    buf_addc(out, ']');
    if (i < n || more) {
        buf arn = BUF_INIT;
        store_bk_arn(&arn, &rows[i - 1]);
        buf_adds(out, ",\"LastEvaluatedBackupArn\":");
        ddbjson_write_string(out, arn.data, arn.len);
        buf_done(&arn);
    }
    buf_addc(out, '}');
    store_bk_rows_free(rows, n);
    return ST_OK;
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
    cJSON *desc = st == ST_OK ? store_create_desc(req) : NULL;
    cJSON_Delete(req);
    cJSON_Delete(used);
    cJSON_Delete(src);
    return desc;
}

cJSON *store_restore_overrides(const char *src_desc, const store_restore_opts *opts)
{
    if (!opts || !opts->indexes)
        return NULL;
    cJSON *src = cJSON_Parse(src_desc), *in = cJSON_CreateObject();
    for (int g = 0; g < 2; g++) {
        cJSON *arr = cJSON_AddArrayToObject(in, g ? "GlobalSecondaryIndexOverride" : "LocalSecondaryIndexOverride");
        const cJSON *e;
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(src, g ? "GlobalSecondaryIndexes"
                                                                      : "LocalSecondaryIndexes")) {
            const char *n = store_jstr(e, "IndexName");
            bool keep = false;
            for (size_t i = 0; n && i < opts->n_indexes; i++)
                keep |= strcmp(opts->indexes[i], n) == 0;
            if (!keep)
                continue;
            cJSON *ix = cJSON_CreateObject();
            dup_member(ix, e, "IndexName");
            dup_member(ix, e, "KeySchema");
            dup_member(ix, e, "Projection");
            cJSON_AddItemToArray(arr, ix);
        }
    }
    cJSON_Delete(src);
    return in;
}

/* The answer of a restore: the new table's description as DynamoDB gives
 * it at once, CREATING with its RestoreSummary (observed: gone from
 * DescribeTable once ACTIVE, which a table here is as soon as this
 * returns). */
static status restore_answer(store *s, const char *target, const char *backup_arn, const char *table_arn,
                             int64_t at_ms, buf *out, diag *d)
{
    cJSON *req = cJSON_CreateObject();
    cJSON_AddStringToObject(req, "TableName", target);
    buf body = BUF_INIT;
    status st = store_op_describe_table(s, req, &body, d);
    cJSON_Delete(req);
    cJSON *o = st == ST_OK ? cJSON_Parse(body.data) : NULL;
    buf_done(&body);
    if (!o)
        return st == ST_OK ? diag_set(d, ST_INTERNAL, "lost the restored table") : st;
    cJSON *td = cJSON_DetachItemFromObjectCaseSensitive(o, "Table");
    cJSON_Delete(o);
    cJSON_ReplaceItemInObjectCaseSensitive(td, "TableStatus", cJSON_CreateString("CREATING"));
    cJSON *gsis = cJSON_GetObjectItemCaseSensitive(td, "GlobalSecondaryIndexes"), *g;
    cJSON_ArrayForEach(g, gsis)
        cJSON_ReplaceItemInObjectCaseSensitive(g, "IndexStatus", cJSON_CreateString("CREATING"));
    cJSON *rs = cJSON_AddObjectToObject(td, "RestoreSummary");
    if (backup_arn)
        cJSON_AddStringToObject(rs, "SourceBackupArn", backup_arn);
    if (table_arn)
        cJSON_AddStringToObject(rs, "SourceTableArn", table_arn);
    cJSON_AddNumberToObject(rs, "RestoreDateTime", secs(at_ms));
    cJSON_AddTrueToObject(rs, "RestoreInProgress");
    add_body(out, "TableDescription", td);
    return ST_OK;
}

status store_op_restore_from_backup(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, restore_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const char *arn = store_jstr(in, "BackupArn"), *target = store_jstr(in, "TargetTableName");
    store_bk_row r;
    if ((st = store_bk_find(s, arn, &r, d)) != ST_OK)
        return st;
    cJSON *desc = store_restore_desc(r.desc, target, in, d);
    if (!desc) {
        store_bk_row_done(&r);
        return d->code;
    }
    store_restore_src src = { .file = r.file, .tid = r.file ? 0 : r.tid };
    st = store_restore_table(s, &src, desc, d);
    cJSON *sd = cJSON_Parse(r.desc);
    if (st == ST_OK)
        st = restore_answer(s, target, arn, store_jstr(sd, "TableArn"), r.created, out, d);
    cJSON_Delete(sd);
    cJSON_Delete(desc);
    store_bk_row_done(&r);
    return st;
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
    *table = name ? name : table_of(arn);
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
    if (st == ST_OK)
        st = restore_answer(s, target, NULL, store_jstr(sd, "TableArn"), at, out, d);
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
    const char *table = table_of(store_jstr(in, "TableName"));
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
    return continuous_answer(s, table_of(store_jstr(in, "TableName")), out, d);
}
