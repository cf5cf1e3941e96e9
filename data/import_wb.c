/*
 * import_wb — NoSQL Workbench data models: the model is read whole, its
 * tables are given first (so a sink creates them before any item), then
 * every table's items (import_int.h says who shares what).
 */
#include "data/import_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- NoSQL Workbench models ------------------------------------------- */

static status wb_fail(import_source *src, diag *d, const char *fmt, const char *a, const char *b)
{
    diag_init(&src->broken_diag);
    snprintf(src->broken_diag.file, sizeof src->broken_diag.file, "%s", src->name);
    diag_set(&src->broken_diag, ST_VALIDATION, fmt, a ? a : "", b ? b : "");
    src->broken = true;
    *d = src->broken_diag;
    return ST_VALIDATION;
}

status import_wb_open(import_source *src, diag *d)
{
    /* A model is read whole: pull the rest of the input in. */
    while (import_refill(src))
        ;
    if (src->read_err)
        return import_fail_broken(src, d, 0, 0, "read error: %s", strerror(src->read_err));
    const char *text = (const char *)src->data + src->pos;
    size_t len = src->end - src->pos;
    const char *end = NULL, *why = NULL;
    size_t bad = 0;
    src->state = S_WB;
    if (import_bad_text(text, len, &bad, &why)) {
        int line = src->line, col = import_col_at(src, src->pos);
        import_locate(text, bad, &line, &col);
        return import_fail_broken(src, d, line, col, "%s in the Workbench model", why);
    }
    src->wb = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!src->wb) {
        int line = src->line, col = import_col_at(src, src->pos);
        import_locate(text, end && end >= text ? (size_t)(end - text) : 0, &line, &col);
        return import_fail_broken(src, d, line, col, "invalid JSON in the Workbench model%s", NULL);
    }
    src->pos = src->end;
    const cJSON *dm = cJSON_GetObjectItemCaseSensitive(src->wb, "DataModel");
    if (!cJSON_IsArray(dm))
        return wb_fail(src, d, "not a NoSQL Workbench model: no \"DataModel\" array%s%s",
                       NULL, NULL);
    return ST_OK;
}

static const char *wb_str(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static status wb_key(import_source *src, const cJSON *o, const char *which, bool required,
                     const char *where, key_attr *k, diag *d)
{
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(o, which);
    k->name = NULL;
    k->type = AV_NONE;
    if (!ka) {
        if (required)
            return wb_fail(src, d, "%s: KeyAttributes.%s is missing", where, which);
        return ST_OK;
    }
    const char *n = wb_str(ka, "AttributeName");
    const char *t = wb_str(ka, "AttributeType");
    av_type ty = t ? av_type_from_name(t, strlen(t)) : AV_NONE;
    if (!n || !*n)
        return wb_fail(src, d, "%s: %s.AttributeName is missing", where, which);
    if (ty != AV_S && ty != AV_N && ty != AV_B)
        return wb_fail(src, d, "%s: %s.AttributeType must be S, N or B", where, which);
    k->name = xstrdup(n);
    k->type = ty;
    return ST_OK;
}

/* An index's PartitionKey or SortKey: one {AttributeName, AttributeType},
 * or (a GSI's multi-attribute key, as `ddbx export` writes it) an array of
 * up to four, into first and rest. */
static status wb_index_key(import_source *src, const cJSON *o, const char *which, bool required,
                           bool global, const char *where, key_attr *first, key_attr *rest,
                           size_t *n_rest, diag *d)
{
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(o, which);
    if (!cJSON_IsArray(ka))
        return wb_key(src, o, which, required, where, first, d);
    int n = cJSON_GetArraySize(ka);
    if (!global || n < 1 || n > SCHEMA_MAX_KEY_PARTS)
        return wb_fail(src, d, "%s: %s must be one key attribute, or a list of 1 to 4 for a global"
                       " secondary index", where, which);
    for (int i = 0; i < n; i++) {
        cJSON *wrap = cJSON_CreateObject();
        cJSON_AddItemReferenceToObject(wrap, which, cJSON_GetArrayItem(ka, i));
        status rc = wb_key(src, wrap, which, true, where, i ? &rest[(*n_rest)++] : first, d);
        cJSON_Delete(wrap);
        if (rc != ST_OK)
            return rc;
    }
    return ST_OK;
}

static status wb_index(import_source *src, const cJSON *j, bool global, const char *table,
                       index_def *ix, diag *d)
{
    char where[512];
    const char *name = wb_str(j, "IndexName");
    memset(ix, 0, sizeof *ix);
    ix->global = global;
    snprintf(where, sizeof where, "table %s, index %s", table, name ? name : "?");
    if (!name || !*name)
        return wb_fail(src, d, "table %s: an index without IndexName%s", table, NULL);
    ix->name = xstrdup(name);
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(j, "KeyAttributes");
    status rc = wb_index_key(src, ka, "PartitionKey", true, global, where, &ix->pk, ix->pk_rest,
                             &ix->n_pk_rest, d);
    if (rc == ST_OK)
        rc = wb_index_key(src, ka, "SortKey", false, global, where, &ix->sk, ix->sk_rest, &ix->n_sk_rest, d);
    if (rc != ST_OK)
        return rc;
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(j, "Projection");
    const char *pt = pr ? wb_str(pr, "ProjectionType") : "ALL";
    if (!pt || strcmp(pt, "ALL") == 0) {
        ix->proj = PROJ_ALL;
    } else if (strcmp(pt, "KEYS_ONLY") == 0) {
        ix->proj = PROJ_KEYS_ONLY;
    } else if (strcmp(pt, "INCLUDE") == 0) {
        ix->proj = PROJ_INCLUDE;
        const cJSON *nk = cJSON_GetObjectItemCaseSensitive(pr, "NonKeyAttributes");
        int n = cJSON_GetArraySize(nk);
        ix->include = xcalloc((size_t)n + 1, sizeof *ix->include);
        for (int i = 0; i < n; i++) {
            const cJSON *e = cJSON_GetArrayItem(nk, i);
            if (cJSON_IsString(e))
                ix->include[ix->n_include++] = xstrdup(e->valuestring);
        }
    } else {
        return wb_fail(src, d, "%s: unknown ProjectionType %s", where, pt);
    }
    return ST_OK;
}

static status wb_table(import_source *src, const cJSON *t, table_def *def, diag *d)
{
    memset(def, 0, sizeof *def);
    const char *name = wb_str(t, "TableName");
    if (!name || !*name)
        return wb_fail(src, d, "DataModel[%s]: TableName is missing%s", "?", NULL);
    def->name = xstrdup(name);
    def->created = (int64_t)time(NULL);
    char where[300];
    snprintf(where, sizeof where, "table %s", name);
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(t, "KeyAttributes");
    status rc = wb_key(src, ka, "PartitionKey", true, where, &def->pk, d);
    if (rc == ST_OK)
        rc = wb_key(src, ka, "SortKey", false, where, &def->sk, d);
    if (rc != ST_OK)
        return rc;
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(t, "GlobalSecondaryIndexes");
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(t, "LocalSecondaryIndexes");
    int ng = cJSON_GetArraySize(g), nl = cJSON_GetArraySize(l);
    if (ng + nl > 0)
        def->idx = xcalloc((size_t)(ng + nl), sizeof *def->idx);
    for (int i = 0; i < ng + nl && rc == ST_OK; i++) {
        rc = wb_index(src, cJSON_GetArrayItem(i < ng ? g : l, i < ng ? i : i - ng), i < ng,
                      name, &def->idx[i], d);
        def->n_idx++;
        if (rc == ST_OK && i >= ng) {
            /* An LSI shares the table's partition key. */
            free(def->idx[i].pk.name);
            def->idx[i].pk.name = xstrdup(def->pk.name);
            def->idx[i].pk.type = def->pk.type;
        }
    }
    return rc;
}

status import_wb_next(import_source *src, import_event *ev, diag *d)
{
    const cJSON *dm = cJSON_GetObjectItemCaseSensitive(src->wb, "DataModel");
    int nt = cJSON_GetArraySize(dm);
    if (!src->wb_items) {
        /* Every table first, so a sink creates them before any item. */
        if (src->wb_table < nt) {
            const cJSON *t = cJSON_GetArrayItem(dm, src->wb_table++);
            status rc = wb_table(src, t, &ev->def, d);
            if (rc != ST_OK) {
                table_def_free(&ev->def);
                return rc;
            }
            ev->kind = IMPORT_EV_TABLE;
            return ST_OK;
        }
        src->wb_items = true;
        src->wb_table = 0;
        src->wb_item = 0;
    }
    for (; src->wb_table < nt; src->wb_table++, src->wb_item = 0) {
        const cJSON *t = cJSON_GetArrayItem(dm, src->wb_table);
        const cJSON *data = cJSON_GetObjectItemCaseSensitive(t, "TableData");
        if (src->wb_item >= cJSON_GetArraySize(data))
            continue;
        int i = src->wb_item++;
        free(src->wb_name);
        src->wb_name = xstrdup(wb_str(t, "TableName"));
        uint64_t index = src->index++;
        char path[64];
        snprintf(path, sizeof path, "DataModel[%d].TableData[%d]", src->wb_table, i);
        const cJSON *it = cJSON_GetArrayItem(data, i);
        status rc;
        if (!cJSON_IsObject(it)) {
            snprintf(d->file, sizeof d->file, "%s", src->name);
            rc = diag_set(d, ST_VALIDATION, "item %llu (%s): not a JSON object",
                          (unsigned long long)index + 1, path);
        } else {
            rc = ddbjson_item_from_cjson(it, NULL, &ev->item, d);
            if (rc != ST_OK) {
                char msg[sizeof d->msg];
                snprintf(msg, sizeof msg, "%s", d->msg);
                snprintf(d->file, sizeof d->file, "%s", src->name);
                diag_set(d, rc, "item %llu (%s): %s", (unsigned long long)index + 1, path, msg);
            }
        }
        if (rc != ST_OK) {
            av_done(&ev->item);
            return rc;
        }
        ev->kind = IMPORT_EV_ITEM;
        ev->table = src->wb_name;
        ev->index = index;
        return ST_OK;
    }
    return ST_OK;
}
