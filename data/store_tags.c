/*
 * store_tags — a table's tags: TagResource, UntagResource,
 * ListTagsOfResource, and CreateTable's Tags (stored in the tags table,
 * store_int.h).
 *
 * Where the rules come from: the API reference (Tag: Key 1 to 128
 * characters, Value 0 to 256; a key given again replaces its value) and
 * the developer guide's "Tagging restrictions" (at most 50 tags a table;
 * the aws: prefix is AWS's); dynalite's validations/tagResource.js,
 * untagResource.js and listTagsOfResource.js for the messages about the
 * ResourceArn, the empty lists and a table that is not there. The
 * messages for the 50-tag limit and the aws: prefix are ddbx's own
 * wording (dynalite checks neither).
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/store_ops.h"
#include "data/store_valid.h"
#include "model/ddbres_meta.h"
#include "model/mem.h"

#define MAX_TAGS 50

static const vspec tag_fields[] = {
    { .name = "Key", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, .max_len = 128 },
    { .name = "Value", .type = VT_STRING, .flags = VF_NOTNULL, .max_len = 256 },
    { .type = VT_END },
};
const vspec store_tag_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "Tag", .fields = tag_fields };
static const vspec key_elem = { .name = "member", .type = VT_STRING, .min_len = 1, .max_len = 128 };
static const vspec tag_spec[] = {
    { .name = "ResourceArn", .type = VT_STRING, .min_len = 1, .max_len = 1283 },
    { .name = "Tags", .type = VT_LIST, .elem = &store_tag_elem },
    { .type = VT_END },
};
static const vspec untag_spec[] = {
    { .name = "ResourceArn", .type = VT_STRING, .min_len = 1, .max_len = 1283 },
    { .name = "TagKeys", .type = VT_LIST, .elem = &key_elem },
    { .type = VT_END },
};
static const vspec list_spec[] = {
    { .name = "ResourceArn", .type = VT_STRING, .min_len = 1, .max_len = 1283 },
    { .name = "NextToken", .type = VT_STRING },
    { .type = VT_END },
};

/* A table ARN's table name ("arn:aws:dynamodb:REGION:ACCOUNT:table/NAME",
 * any region and account, as dynalite); NULL when it is not one. */
static const char *arn_table(const char *arn)
{
    static const char head[] = "arn:aws:dynamodb:";
    if (!arn || strncmp(arn, head, sizeof head - 1) != 0)
        return NULL;
    const char *p = arn + sizeof head - 1, *region_end = strchr(p, ':');
    if (!region_end || region_end == p)
        return NULL;
    const char *acct = region_end + 1, *acct_end = strchr(acct, ':');
    if (!acct_end || acct_end == acct)
        return NULL;
    for (const char *c = acct; c < acct_end; c++)
        if (*c < '0' || *c > '9')
            return NULL;
    if (strncmp(acct_end + 1, "table/", 6) != 0)
        return NULL;
    const char *name = acct_end + 7;
    return strlen(name) >= 3 && !strchr(name, '/') ? name : NULL;
}

/* dynalite's checks of the ARN, in its order; *table the table named. */
static status check_arn(const cJSON *in, const char *list, const char *empty_msg, const char **table,
                        diag *d)
{
    const char *arn = store_jstr(in, "ResourceArn");
    if (!arn)
        return diag_set(d, ST_VALIDATION, "Invalid TableArn");
    if (list && !store_jget(in, list))
        return diag_set(d, ST_VALIDATION, "1 validation error detected: Value null at '%s' failed to"
                        " satisfy constraint: Member must not be null",
                        strcmp(list, "Tags") == 0 ? "tags" : "tagKeys");
    if (!(*table = arn_table(arn)))
        return diag_set(d, ST_VALIDATION, "Invalid TableArn: Invalid ResourceArn provided as input %s", arn);
    if (list && cJSON_GetArraySize(store_jget(in, list)) == 0)
        return diag_set(d, ST_VALIDATION, "%s", empty_msg);
    return ST_OK;
}

static status check_tags(const cJSON *tags, diag *d)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, tags) {
        const char *k = store_jstr(e, "Key");
        if (k && strncasecmp(k, "aws:", 4) == 0)
            return diag_set(d, ST_VALIDATION, "Invalid tag key %s: the aws: prefix is reserved for AWS", k);
    }
    return ST_OK;
}

/* The table by ARN, with dynalite's not-found wording (bare: UntagResource's). */
static status arn_lookup(store *s, const char *table, const char *arn, bool bare, tinfo **t, diag *d)
{
    status st = store_table(s, table, t, d);
    if (st != ST_NOT_FOUND)
        return st;
    if (bare)
        return diag_set(d, ST_NOT_FOUND, "Requested resource not found");
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: ResourcArn: %s not found", arn);
}

static status count_tags(store *s, int64_t tid, const cJSON *tags, int *n, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT key FROM tags WHERE tid = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, tid);
    cJSON *keys = cJSON_CreateObject();
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        const char *k = (const char *)sqlite3_column_text(q, 0);
        if (!cJSON_GetObjectItemCaseSensitive(keys, k))
            cJSON_AddTrueToObject(keys, k);
    }
    sqlite3_finalize(q);
    const cJSON *e;
    cJSON_ArrayForEach(e, tags) {
        const char *k = store_jstr(e, "Key");
        if (k && !cJSON_GetObjectItemCaseSensitive(keys, k))
            cJSON_AddTrueToObject(keys, k);
    }
    *n = cJSON_GetArraySize(keys);
    cJSON_Delete(keys);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

static status tags_put(store *s, int64_t tid, const cJSON *tags, diag *d)
{
    int n = 0;
    status st = count_tags(s, tid, tags, &n, d);
    if (st != ST_OK)
        return st;
    if (n > MAX_TAGS)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: a table can have at"
                        " most %d tags (this request would make it %d)", MAX_TAGS, n);
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO tags(tid, key, value) VALUES(?1, ?2, ?3)",
                           -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    const cJSON *e;
    cJSON_ArrayForEach(e, tags) {
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, tid);
        sqlite3_bind_text(q, 2, store_jstr(e, "Key"), -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 3, store_jstr(e, "Value") ? store_jstr(e, "Value") : "", -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE) {
            st = store_sqlerr(s, d);
            break;
        }
    }
    sqlite3_finalize(q);
    return st;
}

status store_tags_put_new(store *s, int64_t tid, const av *tags, diag *d)
{
    if (tags->type != AV_L || !tags->u.l.len)
        return ST_OK;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO tags(tid, key, value) VALUES(?1, ?2, ?3)",
                           -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    status st = ST_OK;
    for (size_t i = 0; i < tags->u.l.len; i++) {
        const av *k = av_map_get(&tags->u.l.v[i], "Key", 3);
        const av *v = av_map_get(&tags->u.l.v[i], "Value", 5);
        sqlite3_reset(q);
        sqlite3_bind_int64(q, 1, tid);
        sqlite3_bind_text(q, 2, k && k->type == AV_S ? k->u.s.ptr : "", k && k->type == AV_S ? (int)k->u.s.len : 0,
                          SQLITE_STATIC);
        sqlite3_bind_text(q, 3, v && v->type == AV_S ? v->u.s.ptr : "", v && v->type == AV_S ? (int)v->u.s.len : 0,
                          SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE) {
            st = store_sqlerr(s, d);
            break;
        }
    }
    sqlite3_finalize(q);
    return st;
}

status store_tags_check_create(const cJSON *tags, diag *d)
{
    if (!tags || cJSON_IsNull(tags))
        return ST_OK;
    if (cJSON_GetArraySize(tags) > MAX_TAGS)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: a table can have at"
                        " most %d tags (this request would make it %d)", MAX_TAGS, cJSON_GetArraySize(tags));
    return check_tags(tags, d);
}

status store_op_tag_resource(store *s, const cJSON *in, buf *out, diag *d)
{
    const char *table;
    status st = store_valid_check(in, tag_spec, d, &s->err_msg);
    const cJSON *tags = store_jget(in, "Tags");
    if (st != ST_OK ||
        (st = check_arn(in, "Tags", "Atleast one Tag needs to be provided as Input.", &table, d)) != ST_OK ||
        (st = check_tags(tags, d)) != ST_OK)
        return st;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        return st;
    tinfo *t;
    if ((st = arn_lookup(s, table, store_jstr(in, "ResourceArn"), false, &t, d)) == ST_OK)
        st = tags_put(s, t->id, tags, d);
    if (st == ST_OK)
        buf_adds(out, "{}");   /* TagResource answers nothing */
    return store_txn_end(s, st, d);
}

status store_op_untag_resource(store *s, const cJSON *in, buf *out, diag *d)
{
    const char *table;
    status st = store_valid_check(in, untag_spec, d, &s->err_msg);
    if (st != ST_OK ||
        (st = check_arn(in, "TagKeys", "Atleast one Tag Key needs to be provided as Input.", &table, d)) != ST_OK)
        return st;
    if ((st = store_txn_begin(s, true, d)) != ST_OK)
        return st;
    tinfo *t;
    if ((st = arn_lookup(s, table, store_jstr(in, "ResourceArn"), true, &t, d)) == ST_OK) {
        sqlite3_stmt *q;
        if (sqlite3_prepare_v2(s->db, "DELETE FROM tags WHERE tid = ?1 AND key = ?2", -1, &q, NULL) != SQLITE_OK)
            st = store_sqlerr(s, d);
        const cJSON *e;
        cJSON_ArrayForEach(e, store_jget(in, "TagKeys")) {
            if (st != ST_OK)
                break;
            sqlite3_reset(q);
            sqlite3_bind_int64(q, 1, t->id);
            sqlite3_bind_text(q, 2, cJSON_IsString(e) ? e->valuestring : "", -1, SQLITE_STATIC);
            if (sqlite3_step(q) != SQLITE_DONE)
                st = store_sqlerr(s, d);
        }
        sqlite3_finalize(q);
    }
    if (st == ST_OK)
        buf_adds(out, "{}");
    return store_txn_end(s, st, d);
}

status store_op_list_tags(store *s, const cJSON *in, buf *out, diag *d)
{
    const char *table;
    status st = store_valid_check(in, list_spec, d, &s->err_msg);
    if (st != ST_OK || (st = check_arn(in, NULL, NULL, &table, d)) != ST_OK)
        return st;
    if ((st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    tinfo *t;
    if ((st = arn_lookup(s, table, store_jstr(in, "ResourceArn"), false, &t, d)) == ST_OK) {
        sqlite3_stmt *q;
        ddb_tags_res res = DDB_TAGS_RES_INIT;
        /* A database from before version 3, opened read-only: no tags. */
        if (sqlite3_prepare_v2(s->db, "SELECT key, value FROM tags WHERE tid = ?1 ORDER BY key", -1, &q,
                               NULL) == SQLITE_OK) {
            sqlite3_bind_int64(q, 1, t->id);
            while (sqlite3_step(q) == SQLITE_ROW)
                ddbres_tags_add(&res, (const char *)sqlite3_column_text(q, 0),
                                (const char *)sqlite3_column_text(q, 1));
            sqlite3_finalize(q);
        }
        ddbres_tags_json(&res, out);
        ddbres_tags_done(&res);
    }
    return store_txn_end(s, st, d);
}
