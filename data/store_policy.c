/*
 * store_policy — resource-based policies: PutResourcePolicy,
 * GetResourcePolicy, DeleteResourcePolicy and CreateTable's
 * ResourcePolicy, on a table or its stream; and CreateTable's
 * multi-account global table members (data/, for store_api.c's table of
 * operations and store_tables.c's CreateTable).
 *
 * A policy is stored, never enforced: ddbx has one account and no IAM, so
 * a policy is kept, answered and revised as DynamoDB does it, and allows
 * or denies nothing. It lives in the meta table under "policy:TID:" (the
 * table's) or "policy:TID:LABEL" (its stream's), as {"Policy":...,
 * "RevisionId":...}, and goes with its table (store_ttl_tags_deleted).
 *
 * Where the rules and words come from: the API reference
 * (PutResourcePolicy: idempotent, the same document keeps its revision;
 * ExpectedRevisionId, NO_POLICY; at most 20 KB, white space counted;
 * tables and streams); moto's tests verified against AWS
 * (tests/test_dynamodb/test_dynamodb_resource_policy.py: the revision
 * ids are increasing timestamps, PolicyNotFoundException's words); AWS's
 * answers captured on 2026-10-09 by the ack-api-quirks lab (finding
 * DDB-TABLE-212: each form of a ResourceArn that names no table or
 * stream here, and its words).
 */
#include <cjson/cJSON.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/ddbres_meta.h"
#include "model/mem.h"

#define POLICY_MAX (20 * 1024)
#define NOT_FOUND "Resource-based policy not found for the provided ResourceArn: "
#define INVALID "One or more parameter values were invalid: "

static const vspec put_spec[] = {
    { .name = "ResourceArn", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 1, .max_len = 1283 },
    { .name = "Policy", .type = VT_STRING, .flags = VF_REQUIRED },
    { .name = "ExpectedRevisionId", .type = VT_STRING, .min_len = 1, .max_len = 255 },
    { .name = "ConfirmRemoveSelfResourceAccess", .type = VT_BOOL },
    { .type = VT_END },
};
static const vspec get_spec[] = {
    { .name = "ResourceArn", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 1, .max_len = 1283 },
    { .type = VT_END },
};
static const vspec delete_spec[] = {
    { .name = "ResourceArn", .type = VT_STRING, .flags = VF_REQUIRED, .min_len = 1, .max_len = 1283 },
    { .name = "ExpectedRevisionId", .type = VT_STRING, .min_len = 1, .max_len = 255 },
    { .type = VT_END },
};

/* What a ResourceArn names: a table (label NULL) or its stream. */
typedef struct target {
    char table[256];
    char label[64];
    bool stream;
} target;

/* AWS's answers to an ARN of no table or stream here, in its order. */
static status parse_arn(const char *arn, target *t, diag *d)
{
    static const char part[] = "arn:aws:dynamodb:", mine[] = "arn:aws:dynamodb:" STORE_REGION ":";
    memset(t, 0, sizeof *t);
    if (strncmp(arn, "arn:", 4) != 0)
        return diag_set(d, ST_VALIDATION, INVALID "ARNs must start with 'arn:': %s", arn);
    if (strncmp(arn, part, sizeof part - 1) != 0 || strncmp(arn, mine, sizeof mine - 1) != 0)
        return diag_set(d, ST_VALIDATION, INVALID "Invalid resource Arn: %s", arn);
    const char *acct = arn + sizeof mine - 1, *rest = strchr(acct, ':');
    if (!rest || (size_t)(rest - acct) != 12 || strncmp(acct, "000000000000", 12) != 0)
        return diag_set(d, ST_VALIDATION, "This action is only supported by accounts that match the resource"
                        " owner\u2019s account.");
    if (strncmp(rest + 1, "table/", 6) != 0)
        return diag_set(d, ST_VALIDATION, INVALID "Provided Arn is not a DynamoDB resource arn: %s", arn);
    const char *name = rest + 7, *slash = strchr(name, '/');
    size_t n = slash ? (size_t)(slash - name) : strlen(name);
    if (n == 0 || n >= sizeof t->table)
        return diag_set(d, ST_VALIDATION, INVALID "Provided Arn is not a DynamoDB resource arn: %s", arn);
    memcpy(t->table, name, n);
    if (!slash)
        return ST_OK;
    if (strncmp(slash, "/index/", 7) == 0)
        return diag_set(d, ST_VALIDATION, INVALID "Invalid resource arn provided, only table or stream is"
                        " accepted. Provided resource arn: %s", arn);
    if (strncmp(slash, "/stream/", 8) != 0 || !slash[8] || strlen(slash + 8) >= sizeof t->label)
        return diag_set(d, ST_VALIDATION, INVALID "Provided Arn is not a DynamoDB resource arn: %s", arn);
    snprintf(t->label, sizeof t->label, "%s", slash + 8);
    t->stream = true;
    return ST_OK;
}

/* The table (its id) and, for a stream, that the table has had it. */
static status find_target(store *s, const target *t, int64_t *tid, diag *d)
{
    tinfo *ti;
    status st = store_table(s, t->table, &ti, d);
    if (st == ST_NOT_FOUND)
        return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Table: %s not found", t->table);
    if (st != ST_OK)
        return st;
    *tid = ti->id;
    if (!t->stream)
        return ST_OK;
    int64_t found = 0;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM streams WHERE tid = ?1 AND label = ?2", -1, &q, NULL) !=
        SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_int64(q, 1, ti->id);
    sqlite3_bind_text(q, 2, t->label, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW)
        found = sqlite3_column_int64(q, 0);
    sqlite3_finalize(q);
    if (!found)
        return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Stream: %s not found for Table: %s",
                        t->label, t->table);
    return ST_OK;
}

static void meta_key(char *out, size_t cap, int64_t tid, const target *t)
{
    snprintf(out, cap, "policy:%" PRId64 ":%s", tid, t->stream ? t->label : "");
}

/* The policy kept for key (*policy and *rev NULL when none; caller frees). */
static status load(store *s, const char *key, char **policy, char **rev, diag *d)
{
    *policy = *rev = NULL;
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, "SELECT value FROM meta WHERE key = ?1", -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
    if (sqlite3_step(q) == SQLITE_ROW) {
        cJSON *o = cJSON_Parse((const char *)sqlite3_column_text(q, 0));
        const char *p = store_jstr(o, "Policy"), *r = store_jstr(o, "RevisionId");
        if (p && r) {
            *policy = xstrdup(p);
            *rev = xstrdup(r);
        }
        cJSON_Delete(o);
    }
    sqlite3_finalize(q);
    return ST_OK;
}

/* Runs sql, a DELETE of meta rows, with ?1 bound to arg. */
static status delete_keys(store *s, const char *sql, const char *arg, diag *d)
{
    sqlite3_stmt *q;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    sqlite3_bind_text(q, 1, arg, -1, SQLITE_STATIC);
    status st = sqlite3_step(q) == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
    sqlite3_finalize(q);
    return st;
}

static status save(store *s, const char *key, const char *policy, const char *rev, diag *d)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "Policy", policy);
    cJSON_AddStringToObject(o, "RevisionId", rev);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    sqlite3_stmt *q;
    status st = ST_OK;
    if (sqlite3_prepare_v2(s->db, "INSERT OR REPLACE INTO meta(key, value) VALUES(?1, ?2)", -1, &q, NULL) !=
        SQLITE_OK)
        st = store_sqlerr(s, d);
    else {
        sqlite3_bind_text(q, 1, key, -1, SQLITE_STATIC);
        sqlite3_bind_text(q, 2, text, -1, SQLITE_STATIC);
        if (sqlite3_step(q) != SQLITE_DONE)
            st = store_sqlerr(s, d);
        sqlite3_finalize(q);
    }
    cJSON_free(text);
    return st;
}

/* A policy document: at most 20 KB, a JSON object (its statements are
 * not judged: nothing enforces them). */
static status check_policy(const char *policy, diag *d)
{
    if (strlen(policy) > POLICY_MAX)
        return diag_set(d, ST_LIMIT_EXCEEDED, "Resource-based policy document size %zu exceeds the maximum of"
                        " %d bytes", strlen(policy), POLICY_MAX);
    cJSON *o = cJSON_Parse(policy);
    bool ok = cJSON_IsObject(o);
    cJSON_Delete(o);
    if (!ok)
        return diag_set(d, ST_VALIDATION, INVALID "Invalid policy document: the policy is not a JSON object");
    return ST_OK;
}

/* A new revision id: the time in milliseconds, after the last one. */
static void next_revision(store *s, const char *last, char out[32])
{
    int64_t now = store_now_ms(s), prev = last ? strtoll(last, NULL, 10) : 0;
    snprintf(out, 32, "%" PRId64, now > prev ? now : prev + 1);
}

/* ExpectedRevisionId against the revision kept (NULL: none). */
static status check_expected(const char *expected, const char *rev, const target *t, const char *arn,
                             diag *d)
{
    if (!expected)
        return ST_OK;
    if (strcmp(expected, "NO_POLICY") == 0) {
        if (rev)
            return diag_set(d, ST_POLICY_NOT_FOUND, NOT_FOUND "Requested policy update expecting none to be"
                            " present for table %s, but a policy exists with revision id %s.", t->table, rev);
        return ST_OK;
    }
    if (!rev)
        return diag_set(d, ST_POLICY_NOT_FOUND, NOT_FOUND "%s", arn);
    if (strcmp(expected, rev) != 0)
        return diag_set(d, ST_POLICY_NOT_FOUND, NOT_FOUND "Requested update for policy with revision id %s, but"
                        " the policy associated to target table %s has revision id %s.", expected, t->table, rev);
    return ST_OK;
}

/* Puts policy on arn's table or stream; *rev_out its revision id. */
static status put(store *s, const char *arn, const char *policy, const char *expected, char rev_out[32],
                  diag *d)
{
    target t;
    int64_t tid;
    status st = parse_arn(arn, &t, d);
    if (st == ST_OK)
        st = check_policy(policy, d);
    if (st != ST_OK || (st = find_target(s, &t, &tid, d)) != ST_OK)
        return st;
    char key[128], *cur = NULL, *rev = NULL;
    meta_key(key, sizeof key, tid, &t);
    if ((st = load(s, key, &cur, &rev, d)) == ST_OK)
        st = check_expected(expected, rev, &t, arn, d);
    if (st == ST_OK && cur && strcmp(cur, policy) == 0) {
        snprintf(rev_out, 32, "%s", rev);   /* the same document: the same revision */
    } else if (st == ST_OK) {
        next_revision(s, rev, rev_out);
        st = save(s, key, policy, rev_out, d);
    }
    free(cur);
    free(rev);
    return st;
}

status store_op_put_resource_policy(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, put_spec, d, &s->err_msg);
    if (st != ST_OK || (st = store_txn_begin(s, true, d)) != ST_OK)
        return st;
    char rev[32];
    st = put(s, store_jstr(in, "ResourceArn"), store_jstr(in, "Policy"), store_jstr(in, "ExpectedRevisionId"),
             rev, d);
    if (st == ST_OK)
        ddbres_policy_json(&(ddb_policy_res){NULL, rev}, out);
    return store_txn_end(s, st, d);
}

/* The policy of in's ResourceArn: *key its meta key, *policy and *rev
 * (PolicyNotFoundException when there is none). */
static status lookup(store *s, const cJSON *in, target *t, char *key, size_t cap, char **policy, char **rev,
                     diag *d)
{
    const char *arn = store_jstr(in, "ResourceArn");
    int64_t tid;
    status st = parse_arn(arn, t, d);
    if (st != ST_OK || (st = find_target(s, t, &tid, d)) != ST_OK)
        return st;
    meta_key(key, cap, tid, t);
    if ((st = load(s, key, policy, rev, d)) == ST_OK && !*policy)
        st = diag_set(d, ST_POLICY_NOT_FOUND, NOT_FOUND "%s", arn);
    return st;
}

status store_op_get_resource_policy(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, get_spec, d, &s->err_msg);
    if (st != ST_OK || (st = store_txn_begin(s, false, d)) != ST_OK)
        return st;
    target t;
    char key[128], *policy = NULL, *rev = NULL;
    if ((st = lookup(s, in, &t, key, sizeof key, &policy, &rev, d)) == ST_OK)
        ddbres_policy_json(&(ddb_policy_res){policy, rev}, out);
    free(policy);
    free(rev);
    return store_txn_end(s, st, d);
}

status store_op_delete_resource_policy(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, delete_spec, d, &s->err_msg);
    if (st != ST_OK || (st = store_txn_begin(s, true, d)) != ST_OK)
        return st;
    target t;
    char key[128], *policy = NULL, *rev = NULL;
    if ((st = lookup(s, in, &t, key, sizeof key, &policy, &rev, d)) == ST_OK)
        st = check_expected(store_jstr(in, "ExpectedRevisionId"), rev, &t, store_jstr(in, "ResourceArn"), d);
    if (st == ST_OK)
        st = delete_keys(s, "DELETE FROM meta WHERE key = ?1", key, d);
    if (st == ST_OK)
        ddbres_policy_json(&(ddb_policy_res){NULL, rev}, out);
    free(policy);
    free(rev);
    return store_txn_end(s, st, d);
}

status store_policy_check_create(const cJSON *in, diag *d)
{
    /* A replica of another account's or region's table: ddbx is one
     * account in one region, so there is nothing to replicate from. */
    const char *src = store_jstr(in, "GlobalTableSourceArn");
    if (src)
        return diag_set(d, ST_VALIDATION, INVALID "GlobalTableSourceArn %s: ddbx is one account in one region"
                        " and keeps no global table replicas", src);
    const char *policy = store_jstr(in, "ResourcePolicy");
    return policy ? check_policy(policy, d) : ST_OK;
}

status store_policy_created(store *s, const char *table, const char *policy, diag *d)
{
    if (!policy)
        return ST_OK;
    buf arn = BUF_INIT;
    buf_printf(&arn, STORE_ARN_PREFIX "%s", table);
    char rev[32];
    status st = put(s, arn.data, policy, NULL, rev, d);
    buf_done(&arn);
    return st;
}

status store_policy_forget(store *s, int64_t tid, diag *d)
{
    char like[48];
    snprintf(like, sizeof like, "policy:%" PRId64 ":%%", tid);
    return delete_keys(s, "DELETE FROM meta WHERE key LIKE ?1", like, d);
}
