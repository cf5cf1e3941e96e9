/*
 * ddbres_backups — the backup kinds' answers: their values and their
 * printer (see ddbres_backups.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbres_backups.h"
#include "model/mem.h"

ddb_backups_res *ddbres_backups_of(ddb_res *res)
{
    if (!res->backups)
        res->backups = xcalloc(1, sizeof *res->backups);
    return res->backups;
}

ddb_backup *ddbres_backups_add(ddb_backups_res *b)
{
    b->backups = xrealloc(b->backups, (b->n_backups + 1) * sizeof *b->backups);
    ddb_backup *one = &b->backups[b->n_backups++];
    memset(one, 0, sizeof *one);
    return one;
}

void ddb_backup_done(ddb_backup *b)
{
    free(b->arn);
    free(b->name);
    free(b->status);
    free(b->table);
    free(b->table_id);
    free(b->table_arn);
    free(b->billing);
    table_def_free(&b->def);
    free(b->idx_pt);
    free(b->stream_view);
    free(b->ttl_attr);
    memset(b, 0, sizeof *b);
}

void ddbres_backups_free(ddb_backups_res *b)
{
    if (!b)
        return;
    for (size_t i = 0; i < b->n_backups; i++)
        ddb_backup_done(&b->backups[i]);
    free(b->backups);
    free(b->last_arn);
    free(b->table_desc);
    free(b->restored_from);
    free(b);
}

/* ---- the printer ---- */

/* Members written in order, a comma before each but the first. */
typedef struct bw {
    buf *out;
    bool first;
} bw;

static void member(bw *w, const char *name)
{
    if (!w->first)
        buf_addc(w->out, ',');
    w->first = false;
    ddbjson_write_string(w->out, name, strlen(name));
    buf_addc(w->out, ':');
}

static void str(bw *w, const char *name, const char *s)
{
    if (!s)
        return;
    member(w, name);
    ddbjson_write_string(w->out, s, strlen(s));
}

/* A number as the JSON door has always printed it (cJSON's form: an
 * integer whole, else the shortest of 15 or 17 significant digits that
 * reads back the same). */
static void jnum(bw *w, const char *name, double v)
{
    member(w, name);
    if (v == floor(v) && fabs(v) < 1e15) {
        buf_printf(w->out, "%.0f", v);
        return;
    }
    char text[32];
    snprintf(text, sizeof text, "%1.15g", v);
    if (strtod(text, NULL) != v)
        snprintf(text, sizeof text, "%1.17g", v);
    buf_adds(w->out, text);
}

static void pt(bw *w, const ddb_pt *p)
{
    member(w, "ProvisionedThroughput");
    buf_printf(w->out, "{\"ReadCapacityUnits\":%llu,\"WriteCapacityUnits\":%llu}", (unsigned long long)p->rcu,
               (unsigned long long)p->wcu);
}

/* BackupDetails' members (a BackupSummary's too), status as given. */
static void details(bw *w, const ddb_backup *b)
{
    str(w, "BackupArn", b->arn);
    str(w, "BackupName", b->name);
    jnum(w, "BackupSizeBytes", (double)b->bytes);
    str(w, "BackupStatus", b->status);
    str(w, "BackupType", b->system ? "SYSTEM" : "USER");
    jnum(w, "BackupCreationDateTime", (double)b->created_ms / 1000.0);
    if (b->expires_ms)
        jnum(w, "BackupExpiryDateTime", (double)b->expires_ms / 1000.0);
}

static void source(bw *w, const ddb_backup *b)
{
    str(w, "TableName", b->table);
    str(w, "TableId", b->table_id);
    str(w, "TableArn", b->table_arn);
    jnum(w, "TableSizeBytes", (double)b->table_bytes);
    if (b->def.pk.name) {
        member(w, "KeySchema");
        ddb_req_json_key_schema(w->out, &b->def, NULL);
    }
    jnum(w, "TableCreationDateTime", b->table_created);
    pt(w, &b->pt);
    jnum(w, "ItemCount", (double)b->items);
    str(w, "BillingMode", b->billing);
}

static void features(bw *w, const ddb_backup *b)
{
    if (b->no_features)
        return;
    w->first = ddb_req_json_indexes(w->out, w->first, &b->def, false, NULL);
    w->first = ddb_req_json_indexes(w->out, w->first, &b->def, true, b->idx_pt);
    w->first = ddb_req_json_vector_indexes(w->out, w->first, &b->def);
    if (b->stream_view) {
        member(w, "StreamDescription");
        buf_adds(w->out, "{\"StreamEnabled\":true,\"StreamViewType\":");
        ddbjson_write_string(w->out, b->stream_view, strlen(b->stream_view));
        buf_addc(w->out, '}');
    }
    if (b->ttl_attr) {
        member(w, "TimeToLiveDescription");
        buf_adds(w->out, "{\"TimeToLiveStatus\":\"ENABLED\",\"AttributeName\":");
        ddbjson_write_string(w->out, b->ttl_attr, strlen(b->ttl_attr));
        buf_addc(w->out, '}');
    }
}

/* "name":{...} with part's members inside. */
static void object(bw *w, const char *name, void (*part)(bw *, const ddb_backup *), const ddb_backup *b)
{
    member(w, name);
    buf_addc(w->out, '{');
    bw in = { w->out, true };
    part(&in, b);
    buf_addc(w->out, '}');
}

static void description(bw *w, const ddb_backup *b)
{
    object(w, "BackupDetails", details, b);
    object(w, "SourceTableDetails", source, b);
    object(w, "SourceTableFeatureDetails", features, b);
}

static void summary(bw *w, const ddb_backup *b)
{
    str(w, "TableName", b->table);
    str(w, "TableId", b->table_id);
    str(w, "TableArn", b->table_arn);
    details(w, b);
}

void ddbres_backups_json(ddb_kind kind, const ddb_res *res, buf *out)
{
    const ddb_backups_res *r = res->backups;
    bw w = { out, true };
    buf_addc(out, '{');
    if (kind == DDB_LIST_BACKUPS && r) {
        member(&w, "BackupSummaries");
        buf_addc(out, '[');
        for (size_t i = 0; i < r->n_backups; i++) {
            bw e = { out, true };
            buf_adds(out, i ? ",{" : "{");
            summary(&e, &r->backups[i]);
            buf_addc(out, '}');
        }
        buf_addc(out, ']');
        str(&w, "LastEvaluatedBackupArn", r->last_arn);
    } else if (kind == DDB_RESTORE_FROM_BACKUP && r && r->table_desc) {
        member(&w, "TableDescription");
        buf_adds(out, r->table_desc);
    } else if (r && r->n_backups) {
        object(&w, kind == DDB_CREATE_BACKUP ? "BackupDetails" : "BackupDescription",
               kind == DDB_CREATE_BACKUP ? details : description, &r->backups[0]);
    }
    buf_addc(out, '}');
}
