/*
 * ddbres_backups — the backup kinds' answers: their values, their
 * printer and their reader (see ddbres_backups.h).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbres_backups.h"
#include "model/mem.h"
#include "model/num.h"

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

/* ---- the reader ---- */

static const av *get(const av *o, const char *name)
{
    return o && o->type == AV_M ? av_map_get(o, name, strlen(name)) : NULL;
}

static char *sdup(const av *o, const char *name)
{
    const av *v = get(o, name);
    return v && v->type == AV_S ? xstrndup(v->u.s.ptr, v->u.s.len) : NULL;
}

/* A number member as a double (as the door's own parse read it); 0: none. */
static double dnum(const av *o, const char *name)
{
    const av *v = get(o, name);
    if (!v || v->type != AV_N)
        return 0;
    char text[NUM_TEXT_MAX];
    num_format(&v->u.n, text);
    return strtod(text, NULL);
}

static int64_t ms(const av *o, const char *name)
{
    return (int64_t)llround(dnum(o, name) * 1000.0);
}

static ddb_pt pt_of(const av *o)
{
    const av *pt = get(o, "ProvisionedThroughput");
    return (ddb_pt){ (uint64_t)dnum(pt, "ReadCapacityUnits"), (uint64_t)dnum(pt, "WriteCapacityUnits") };
}

/* A KeySchema: the first HASH and RANGE attributes into pk and sk, the
 * ones after them into pk_rest and sk_rest (a multi-attribute key), in
 * order. No AttributeDefinitions in a backup's answer: the types are
 * AV_NONE. */
static void keys_of(const av *ks, index_def *out)
{
    out->pk.type = out->sk.type = AV_NONE;
    for (size_t i = 0; ks && ks->type == AV_L && i < ks->u.l.len; i++) {
        const av *e = &ks->u.l.v[i], *t = get(e, "KeyType");
        bool range = t && t->type == AV_S && t->u.s.len == 5 && memcmp(t->u.s.ptr, "RANGE", 5) == 0;
        key_attr *k = range ? (!out->sk.name ? &out->sk
                               : out->n_sk_rest < SCHEMA_MAX_KEY_PARTS - 1 ? &out->sk_rest[out->n_sk_rest++] : NULL)
                    : (!out->pk.name ? &out->pk
                       : out->n_pk_rest < SCHEMA_MAX_KEY_PARTS - 1 ? &out->pk_rest[out->n_pk_rest++] : NULL);
        char *name = sdup(e, "AttributeName");
        if (!k || !name) {
            free(name);
            continue;
        }
        k->name = name;
        k->type = AV_NONE;
    }
}

/* A LocalSecondaryIndexInfo or GlobalSecondaryIndexInfo. */
static void index_of(const av *e, bool global, index_def *out, ddb_pt *pt)
{
    out->name = sdup(e, "IndexName");
    out->global = global;
    keys_of(get(e, "KeySchema"), out);
    const av *proj = get(e, "Projection"), *t = get(proj, "ProjectionType");
    bool all = !t || t->type != AV_S || (t->u.s.len == 3 && memcmp(t->u.s.ptr, "ALL", 3) == 0);
    bool keys = !all && t->u.s.len == 9 && memcmp(t->u.s.ptr, "KEYS_ONLY", 9) == 0;
    out->proj = all ? PROJ_ALL : keys ? PROJ_KEYS_ONLY : PROJ_INCLUDE;
    const av *nka = get(proj, "NonKeyAttributes");
    if (nka && nka->type == AV_L && nka->u.l.len) {
        out->include = xcalloc(nka->u.l.len, sizeof *out->include);
        for (size_t i = 0; i < nka->u.l.len; i++)
            if (nka->u.l.v[i].type == AV_S)
                out->include[out->n_include++] = xstrndup(nka->u.l.v[i].u.s.ptr, nka->u.l.v[i].u.s.len);
    }
    if (global)
        *pt = pt_of(e);
}

/* The source's keys and the features' indexes into b->def (LSIs, then
 * GSIs), each GSI's throughput into b->idx_pt. */
static void def_of(const av *src, const av *feat, ddb_backup *b)
{
    index_def keys = { 0 };
    keys_of(get(src, "KeySchema"), &keys);
    b->def.name = xstrdup(b->table ? b->table : "");
    b->def.pk = keys.pk;
    b->def.sk = keys.sk;
    const av *lists[2] = { get(feat, "LocalSecondaryIndexes"), get(feat, "GlobalSecondaryIndexes") };
    size_t n = 0;
    for (int g = 0; g < 2; g++)
        n += lists[g] && lists[g]->type == AV_L ? lists[g]->u.l.len : 0;
    if (!n)
        return;
    b->def.idx = xcalloc(n, sizeof *b->def.idx);
    b->idx_pt = xcalloc(n, sizeof *b->idx_pt);
    for (int g = 0; g < 2; g++)
        for (size_t i = 0; lists[g] && lists[g]->type == AV_L && i < lists[g]->u.l.len; i++, b->def.n_idx++)
            index_of(&lists[g]->u.l.v[i], g == 1, &b->def.idx[b->def.n_idx], &b->idx_pt[b->def.n_idx]);
}

/* A BackupDescription, BackupSummary or BackupDetails (o) into b. */
static void backup_of(const av *o, ddb_backup *b)
{
    const av *det = get(o, "BackupDetails"), *src = get(o, "SourceTableDetails");
    const av *feat = get(o, "SourceTableFeatureDetails");
    det = det ? det : o;   /* a summary: everything at the top */
    src = src ? src : o;
    b->arn = sdup(det, "BackupArn");
    b->name = sdup(det, "BackupName");
    b->bytes = (uint64_t)dnum(det, "BackupSizeBytes");
    b->status = sdup(det, "BackupStatus");
    char *type = sdup(det, "BackupType");
    b->system = type && strcmp(type, "SYSTEM") == 0;
    free(type);
    b->created_ms = ms(det, "BackupCreationDateTime");
    b->expires_ms = ms(det, "BackupExpiryDateTime");
    b->table = sdup(src, "TableName");
    b->table_id = sdup(src, "TableId");
    b->table_arn = sdup(src, "TableArn");
    b->table_bytes = (uint64_t)dnum(src, "TableSizeBytes");
    b->table_created = dnum(src, "TableCreationDateTime");
    b->pt = pt_of(src);
    b->items = (uint64_t)dnum(src, "ItemCount");
    b->billing = sdup(get(src, "BillingModeSummary"), "BillingMode");
    if (!b->billing)
        b->billing = sdup(src, "BillingMode");
    def_of(src, feat, b);
    b->no_features = !feat || feat->type != AV_M || !feat->u.m.len;
    const av *stream = get(feat, "StreamDescription"), *on = get(stream, "StreamEnabled");
    if (on && on->type == AV_BOOL && on->u.b)
        b->stream_view = sdup(stream, "StreamViewType");
    b->ttl_attr = sdup(get(feat, "TimeToLiveDescription"), "AttributeName");
}

void ddbres_backups_read(const av *root, ddb_res *res)
{
    const av *one = get(root, "BackupDescription"), *details = get(root, "BackupDetails");
    const av *list = get(root, "BackupSummaries"), *td = get(root, "TableDescription");
    char *from = sdup(get(td, "RestoreSummary"), "SourceBackupArn");
    if (one || details)
        backup_of(one ? one : root, ddbres_backups_add(ddbres_backups_of(res)));
    if (list && list->type == AV_L) {
        ddb_backups_res *b = ddbres_backups_of(res);
        for (size_t i = 0; i < list->u.l.len; i++)
            backup_of(&list->u.l.v[i], ddbres_backups_add(b));
        b->last_arn = sdup(root, "LastEvaluatedBackupArn");
    }
    if (from)
        ddbres_backups_of(res)->restored_from = from;
}
