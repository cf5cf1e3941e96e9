/*
 * store_tables — the table catalogue: CreateTable's door and request
 * checks on the JSON (its typed run: store_tables_create.c) and its C
 * call, the work of DescribeTable and DeleteTable (store_tables_describe,
 * store_tables_delete: typed, their doors in store_tables_exec.c, as
 * ListTables'), and the stored TableDescription that a table_def is
 * parsed from.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/store_int.h"
#include "data/store_ops.h"
#include "data/store_valid.h"
#include "model/ddbjson.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

#define ARN_PREFIX STORE_ARN_PREFIX

/* ---- request specs (DynamoDB's member order) ---- */

static const char *const e_attr_type[] = { "B", "N", "S", NULL };
static const char *const e_key_type[] = { "HASH", "RANGE", NULL };
static const char *const e_billing[] = { "PROVISIONED", "PAY_PER_REQUEST", NULL };
static const char *const e_proj[] = { "ALL", "INCLUDE", "KEYS_ONLY", NULL };

static const vspec attrdef_fields[] = {
    { .name = "AttributeName", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, .max_len = 255 },
    { .name = "AttributeType", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_attr_type },
    { .type = VT_END },
};
static const vspec attrdef_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "AttributeDefinition",
                                    .fields = attrdef_fields };
const vspec store_pt_fields[] = {
    { .name = "WriteCapacityUnits", .type = VT_LONG, .flags = VF_NOTNULL, .ge = 1, .has_ge = true },
    { .name = "ReadCapacityUnits", .type = VT_LONG, .flags = VF_NOTNULL, .ge = 1, .has_ge = true },
    { .type = VT_END },
};
static const vspec ks_fields[] = {
    { .name = "AttributeName", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, .max_len = 255 },
    { .name = "KeyType", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_key_type },
    { .type = VT_END },
};
static const vspec ks_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "KeySchemaElement",
                               .fields = ks_fields };
static const vspec iks_fields[] = {
    { .name = "AttributeName", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, .max_len = 255 },
    { .name = "KeyType", .type = VT_STRING, .flags = VF_NOTNULL },
    { .type = VT_END },
};
static const vspec iks_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "KeySchemaElement",
                                .fields = iks_fields };
/* Key attribute names and projected names: 1 to 255 characters, at most
 * 20 projected names an index (DynamoDB's API model; dynalite does not
 * check them). */
static const vspec nka_elem = { .name = "member", .type = VT_STRING, .min_len = 1, .max_len = 255 };
static const vspec proj_fields[] = {
    { .name = "ProjectionType", .type = VT_STRING, .enums = e_proj },
    { .name = "NonKeyAttributes", .type = VT_LIST, .min_len = 1, .max_len = 20, .elem = &nka_elem },
    { .type = VT_END },
};
static const vspec lsi_fields[] = {
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .name = "KeySchema", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1, .max_len = 2, .elem = &iks_elem },
    { .name = "Projection", .type = VT_FSTRUCT, .sub = "Projection", .flags = VF_NOTNULL, .fields = proj_fields },
    { .type = VT_END },
};
static const vspec lsi_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "LocalSecondaryIndex",
                                .fields = lsi_fields };
/* A GSI's KeySchema has no length bound in the API model any more (the
 * API reference's CreateGlobalSecondaryIndexAction: "Minimum number of 1
 * item", up to 4 partition and 4 sort keys): the counts are checked with
 * the rest of the key schema (check_index). */
static const vspec gsi_fields[] = {
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .name = "KeySchema", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1, .elem = &iks_elem },
    { .name = "Projection", .type = VT_FSTRUCT, .sub = "Projection", .flags = VF_NOTNULL, .fields = proj_fields },
    { .name = "ProvisionedThroughput", .type = VT_FSTRUCT, .sub = "ProvisionedThroughput", .fields = store_pt_fields },
    F_CAPACITY,
    { .type = VT_END },
};
static const vspec gsi_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "GlobalSecondaryIndex",
                                .fields = gsi_fields };

/* RestoreTableFromBackup's and RestoreTableToPointInTime's overrides
 * share CreateTable's shapes (store_backup_api.c). */
const vspec store_gsi_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "GlobalSecondaryIndex",
                               .fields = gsi_fields };
const vspec store_lsi_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "LocalSecondaryIndex",
                               .fields = lsi_fields };

/* UpdateTable's members that share CreateTable's shapes (store_streams.c). */
const vspec store_attrdef_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "AttributeDefinition",
                                   .fields = attrdef_fields };
static const vspec gsi_update_fields[] = {
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .name = "ProvisionedThroughput", .type = VT_FSTRUCT, .sub = "ProvisionedThroughput",
      .flags = VF_NOTNULL, .fields = store_pt_fields },
    { .type = VT_END },
};
static const vspec gsi_delete_fields[] = {
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .type = VT_END },
};
/* dynalite's member order: Update, Create, Delete. */
static const vspec gsi_action_fields[] = {
    { .name = "Update", .type = VT_FSTRUCT, .sub = "UpdateGlobalSecondaryIndexAction", .fields = gsi_update_fields },
    { .name = "Create", .type = VT_FSTRUCT, .sub = "CreateGlobalSecondaryIndexAction", .fields = gsi_fields },
    { .name = "Delete", .type = VT_FSTRUCT, .sub = "DeleteGlobalSecondaryIndexAction", .fields = gsi_delete_fields },
    { .type = VT_END },
};
const vspec store_gsi_update_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "GlobalSecondaryIndexUpdate",
                                      .fields = gsi_action_fields };

static const char *const e_view[] = { "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES", "KEYS_ONLY", NULL };
static const vspec stream_fields[] = {
    { .name = "StreamEnabled", .type = VT_BOOL, .flags = VF_NOTNULL },
    { .name = "StreamViewType", .type = VT_STRING, .enums = e_view },
    { .type = VT_END },
};

static const vspec create_spec[] = {
    { .name = "AttributeDefinitions", .type = VT_LIST, .flags = VF_NOTNULL, .elem = &attrdef_elem },
    F_CREATE_TABLE,
    { .name = "BillingMode", .type = VT_STRING, .enums = e_billing },
    { .name = "ProvisionedThroughput", .type = VT_FSTRUCT, .sub = "ProvisionedThroughput", .fields = store_pt_fields },
    { .name = "KeySchema", .type = VT_LIST, .flags = VF_NOTNULL | VF_JAVA_VALUE, .min_len = 1, .max_len = 2,
      .elem = &ks_elem },
    /* A GSI's errors before an LSI's (AWS, eu-west-2 and us-east-1,
     * 2026-10-09: nubo-db/dynamodb-conformance, CreateTable ordering). */
    { .name = "GlobalSecondaryIndexes", .type = VT_LIST, .elem = &gsi_elem },
    { .name = "LocalSecondaryIndexes", .type = VT_LIST, .elem = &lsi_elem },
    { .name = "StreamSpecification", .type = VT_FSTRUCT, .sub = "StreamSpecification", .fields = stream_fields },
    { .name = "Tags", .type = VT_LIST, .elem = &store_tag_elem },
    F_CAPACITY, F_CREATE_MORE,
    { .name = "VectorIndexes", .type = VT_LIST, .elem = &store_vix_elem },
    { .type = VT_END },
};

/* ---- helpers over cJSON ---- */

static const char *jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool has(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return v && !cJSON_IsNull(v);
}

static void names_list(buf *b, const cJSON *arr)
{
    const cJSON *e;
    bool first = true;
    cJSON_ArrayForEach(e, arr) {
        if (!first)
            buf_adds(b, ", ");
        first = false;
        const char *n = jstr(e, "AttributeName");
        buf_adds(b, n ? n : "null");
    }
}

static bool defined(const cJSON *defs, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, defs) {
        const char *n = jstr(e, "AttributeName");
        if (n && name && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

static status undefined_keys(const cJSON *keys, const cJSON *defs, diag *d)
{
    buf b = BUF_INIT;
    buf_adds(&b, "One or more parameter values were invalid: Some index key attributes are not"
                 " defined in AttributeDefinitions. Keys: [");
    names_list(&b, keys);
    buf_adds(&b, "], AttributeDefinitions: [");
    names_list(&b, defs);
    buf_addc(&b, ']');
    status st = diag_set(d, ST_VALIDATION, "%s", b.data);
    buf_done(&b);
    return st;
}

/* Is a string member of arr (before index end) named name? */
static bool earlier_name(const cJSON *arr, int end, const char *field, const char *name)
{
    for (int i = 0; i < end && name; i++) {
        const cJSON *e = cJSON_GetArrayItem(arr, i);
        const char *n = field ? jstr(e, field) : cJSON_GetStringValue(e);
        if (n && strcmp(n, name) == 0)
            return true;
    }
    return false;
}

/* A GSI's multi-attribute key schema (the developer guide's "Multi-attribute
 * key schema"): up to SCHEMA_MAX_KEY_PARTS HASH elements, then up to as
 * many RANGE elements, each attribute once. DynamoDB's wording for these
 * refusals is not published; these are DynamoDB Local 3.3's (AWS's
 * emulator, whose multi-attribute Query messages are DynamoDB's), its
 * typo included; a KeyType neither HASH nor RANGE is ddbx's. */
static status check_multi_keys(const cJSON *ks, diag *d)
{
    int n = cJSON_GetArraySize(ks), hashes = 0, ranges = 0;
    for (int i = 0; i < n; i++) {
        const cJSON *e = cJSON_GetArrayItem(ks, i);
        const char *type = jstr(e, "KeyType"), *name = jstr(e, "AttributeName");
        bool hash = type && strcmp(type, "HASH") == 0, range = type && strcmp(type, "RANGE") == 0;
        if (!hash && !range)
            return diag_set(d, ST_VALIDATION, "Invalid KeySchema: KeySchemaElement %d has KeyType %s;"
                            " it must be HASH or RANGE", i + 1, type ? type : "null");
        if (hash && ranges)
            return diag_set(d, ST_VALIDATION, "Invalid key order. Hash Key must be specified first in key"
                            " schema, Range Key must be specifed second");
        if (earlier_name(ks, i, "AttributeName", name))
            return diag_set(d, ST_VALIDATION, "Two keys can not have the same name");
        hashes += hash;
        ranges += range;
    }
    if (hashes > SCHEMA_MAX_KEY_PARTS)
        return diag_set(d, ST_VALIDATION, "Too many partition keys. GSI can have at most %d partition keys",
                        SCHEMA_MAX_KEY_PARTS);
    if (ranges > SCHEMA_MAX_KEY_PARTS)
        return diag_set(d, ST_VALIDATION, "Too many sort keys. GSI can have at most %d sort keys",
                        SCHEMA_MAX_KEY_PARTS);
    return ST_OK;
}

/* The index checks shared by LSIs and GSIs; NULL when fine. A GSI with
 * two elements of one KeyType, or more than two, has a multi-attribute
 * key (check_multi_keys); otherwise the one-HASH-one-RANGE checks and
 * messages stand. */
static status check_index(const cJSON *ix, const cJSON *defs, const char *billing, bool global,
                          cJSON *seen, diag *d)
{
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(ix, "KeySchema");
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) {
        if (!defined(defs, jstr(e, "AttributeName")))
            return undefined_keys(ks, defs, d);
    }
    const cJSON *k0 = cJSON_GetArrayItem(ks, 0), *k1 = cJSON_GetArrayItem(ks, 1);
    bool hash0 = jstr(k0, "KeyType") && strcmp(jstr(k0, "KeyType"), "HASH") == 0;
    bool multi = global && (cJSON_GetArraySize(ks) > 2 ||
                            (hash0 && k1 && jstr(k1, "KeyType") && strcmp(jstr(k1, "KeyType"), "HASH") == 0));
    if (!multi && k1 && jstr(k0, "AttributeName") && jstr(k1, "AttributeName") &&
        strcmp(jstr(k0, "AttributeName"), jstr(k1, "AttributeName")) == 0)
        return diag_set(d, ST_VALIDATION,
                        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    if (!hash0)
        return diag_set(d, ST_VALIDATION, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    if (multi)
        return check_multi_keys(ks, d);
    if (k1 && (!jstr(k1, "KeyType") || strcmp(jstr(k1, "KeyType"), "RANGE") != 0))
        return diag_set(d, ST_VALIDATION, "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    (void)billing;
    (void)seen;
    return ST_OK;
}

static status check_projection(const cJSON *ix, diag *d)
{
    const cJSON *proj = cJSON_GetObjectItemCaseSensitive(ix, "Projection");
    const char *pt = jstr(proj, "ProjectionType");
    if (!pt)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Unknown ProjectionType: null");
    if (has(proj, "NonKeyAttributes") && strcmp(pt, "INCLUDE") != 0)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: ProjectionType is %s, but"
                        " NonKeyAttributes is specified", pt);
    return ST_OK;
}

static status dup_index(cJSON *seen, const char *name, diag *d)
{
    if (cJSON_GetObjectItemCaseSensitive(seen, name))
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: Duplicate index name: %s", name);
    cJSON_AddTrueToObject(seen, name);
    return ST_OK;
}

/* The table's KeySchema: every key defined, HASH then an optional RANGE
 * of another name. */
static status check_key_schema(const cJSON *defs, const cJSON *ks, diag *d)
{
    if (cJSON_GetArraySize(ks) > cJSON_GetArraySize(defs))
        return diag_set(d, ST_VALIDATION, "Invalid KeySchema: Some index key attribute have no definition");
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) {
        if (!defined(defs, jstr(e, "AttributeName"))) {
            buf b = BUF_INIT;
            buf_adds(&b, "One or more parameter values were invalid: Some index key attributes are not"
                         " defined in AttributeDefinitions. Keys: [");
            names_list(&b, ks);
            buf_adds(&b, "], AttributeDefinitions: [");
            names_list(&b, defs);
            buf_addc(&b, ']');
            status st = diag_set(d, ST_VALIDATION, "%s", b.data);
            buf_done(&b);
            return st;
        }
    }
    const cJSON *k0 = cJSON_GetArrayItem(ks, 0), *k1 = cJSON_GetArrayItem(ks, 1);
    if (k1 && strcmp(jstr(k0, "AttributeName"), jstr(k1, "AttributeName")) == 0)
        return diag_set(d, ST_VALIDATION,
                        "Both the Hash Key and the Range Key element in the KeySchema have the same name");
    if (strcmp(jstr(k0, "KeyType"), "HASH") != 0)
        return diag_set(d, ST_VALIDATION, "Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
    if (k1 && strcmp(jstr(k1, "KeyType"), "RANGE") != 0)
        return diag_set(d, ST_VALIDATION, "Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
    return ST_OK;
}

/* LocalSecondaryIndexes: the table has a range key, each index shares the
 * table's hash key and has its own range key; at most 5. */
static status check_lsis(const cJSON *lsis, const cJSON *defs, const cJSON *ks,
                         const char *billing, cJSON *seen, diag *d)
{
    status st;
    const char *table_hash = jstr(cJSON_GetArrayItem(ks, 0), "AttributeName");
    if (cJSON_GetArraySize(lsis) == 0)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: List of LocalSecondaryIndexes is empty");
    if (cJSON_GetArraySize(ks) != 2)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: Table KeySchema does not have a range"
                        " key, which is required when specifying a LocalSecondaryIndex");
    const cJSON *e;
    cJSON_ArrayForEach(e, lsis) {
        const char *name = jstr(e, "IndexName");
        if ((st = check_index(e, defs, billing, false, seen, d)) != ST_OK)
            return st;
        const cJSON *iks = cJSON_GetObjectItemCaseSensitive(e, "KeySchema");
        if (cJSON_GetArraySize(iks) != 2)
            return diag_set(d, ST_VALIDATION,
                            "One or more parameter values were invalid: Index KeySchema does not have a"
                            " range key for index: %s", name);
        const char *ih = jstr(cJSON_GetArrayItem(iks, 0), "AttributeName");
        if (strcmp(ih, table_hash) != 0)
            return diag_set(d, ST_VALIDATION,
                            "One or more parameter values were invalid: Index KeySchema does not have the"
                            " same leading hash key as table KeySchema for index: %s. index hash key: %s,"
                            " table hash key: %s", name, ih, table_hash);
        if ((st = check_projection(e, d)) != ST_OK || (st = dup_index(seen, name, d)) != ST_OK)
            return st;
    }
    if (cJSON_GetArraySize(lsis) > SCHEMA_MAX_LSI)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: Number of LocalSecondaryIndexes"
                        " exceeds per-table limit of %d", SCHEMA_MAX_LSI);
    return ST_OK;
}

/* GlobalSecondaryIndexes: no throughput of their own when the table pays
 * per request; at most SCHEMA_MAX_GSI. */
static status check_gsis(const cJSON *gsis, const cJSON *defs, const char *billing, bool ppr,
                         cJSON *seen, diag *d)
{
    status st;
    if (cJSON_GetArraySize(gsis) == 0)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: List of GlobalSecondaryIndexes is empty");
    const cJSON *e;
    cJSON_ArrayForEach(e, gsis) {
        const char *name = jstr(e, "IndexName");
        if ((st = check_index(e, defs, billing, true, seen, d)) != ST_OK ||
            (st = check_projection(e, d)) != ST_OK)
            return st;
        if (ppr && has(e, "ProvisionedThroughput"))
            return diag_set(d, ST_VALIDATION,
                            "One or more parameter values were invalid: ProvisionedThroughput should not"
                            " be specified for index: %s when BillingMode is PAY_PER_REQUEST", name);
        if ((st = dup_index(seen, name, d)) != ST_OK)
            return st;
    }
    if (cJSON_GetArraySize(gsis) > SCHEMA_MAX_GSI)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: GlobalSecondaryIndex count exceeds"
                        " the per-table limit of %d", SCHEMA_MAX_GSI);
    return ST_OK;
}

/* One attribute defined twice (whatever the types, and whether or not an
 * index uses it): "Attribute Name is duplicated: NAME" (AWS's answer
 * captured on 2026-10-08 by the ack-api-quirks lab, DDB-TABLE-042; it
 * said "Cannot have two attributes with the same name" before, as
 * pynamodb's tests quote it). */
static status check_attr_defs(const cJSON *defs, diag *d)
{
    int n = cJSON_GetArraySize(defs);
    for (int i = 1; i < n; i++)
        if (earlier_name(defs, i, "AttributeName", jstr(cJSON_GetArrayItem(defs, i), "AttributeName")))
            return diag_set(d, ST_VALIDATION, "Attribute Name is duplicated: %s",
                            jstr(cJSON_GetArrayItem(defs, i), "AttributeName"));
    return ST_OK;
}

/* INCLUDE needs its NonKeyAttributes, each named once: "ProjectionType is
 * INCLUDE, but NonKeyAttributes is not specified" (DynamoDB's message, as
 * the public conformance suites run against it quote it); a name twice is
 * refused with a "Duplicate" message (scylladb's test_gsi.py, run against
 * DynamoDB, matches "ValidationException.*Duplicate"; the exact wording is
 * not published). */
static status check_include(const cJSON *indexes, diag *d)
{
    const cJSON *ix;
    cJSON_ArrayForEach(ix, indexes) {
        const cJSON *proj = cJSON_GetObjectItemCaseSensitive(ix, "Projection");
        const char *pt = jstr(proj, "ProjectionType");
        if (!pt || strcmp(pt, "INCLUDE") != 0)
            continue;
        const cJSON *nka = cJSON_GetObjectItemCaseSensitive(proj, "NonKeyAttributes");
        if (cJSON_GetArraySize(nka) == 0)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: ProjectionType"
                            " is INCLUDE, but NonKeyAttributes is not specified");
        for (int i = 1; i < cJSON_GetArraySize(nka); i++) {
            const char *n = cJSON_GetStringValue(cJSON_GetArrayItem(nka, i));
            if (earlier_name(nka, i, NULL, n))
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Duplicate"
                                " attribute in NonKeyAttributes: %s, IndexName: %s", n, jstr(ix, "IndexName"));
        }
    }
    return ST_OK;
}

/* The key attributes of a KeySchema into used (a set), in order of first
 * use into list. */
static void keys_used(const cJSON *ks, cJSON *used, buf *list)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, ks) {
        const char *n = jstr(e, "AttributeName");
        if (!n || cJSON_GetObjectItemCaseSensitive(used, n))
            continue;
        cJSON_AddTrueToObject(used, n);
        if (list->len)
            buf_adds(list, ", ");
        buf_adds(list, n);
    }
}

/* Every definition names a key of the table or of an index: "Some
 * AttributeDefinitions are not used. AttributeDefinitions: [Album, Artist,
 * Sales], keys used: [Album, Artist]" (AWS, quoted by cfn-lint issue 1037;
 * the lists in request order and in order of first use, which that one
 * example does not settle). Without indexes the count check before
 * answers first. */
static status check_unused_defs(const cJSON *defs, const cJSON *ks, const cJSON *lsis, const cJSON *gsis,
                                const cJSON *vixs, diag *d)
{
    cJSON *used = cJSON_CreateObject();
    buf list = BUF_INIT;
    keys_used(ks, used, &list);
    const cJSON *ixs[2] = { lsis, gsis }, *ix;
    for (int i = 0; i < 2; i++)
        cJSON_ArrayForEach(ix, ixs[i])
            keys_used(cJSON_GetObjectItemCaseSensitive(ix, "KeySchema"), used, &list);
    cJSON_ArrayForEach(ix, vixs)   /* a vector index's SearchSchema uses its attributes */
        keys_used(cJSON_GetObjectItemCaseSensitive(ix, "SearchSchema"), used, &list);
    status st = ST_OK;
    const cJSON *e;
    cJSON_ArrayForEach(e, defs) {
        const char *n = jstr(e, "AttributeName");
        if (n && !cJSON_GetObjectItemCaseSensitive(used, n)) {
            buf all = BUF_INIT;
            names_list(&all, defs);
            st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Some AttributeDefinitions"
                          " are not used. AttributeDefinitions: [%s], keys used: [%s]", all.data ? all.data : "",
                          list.data ? list.data : "");
            buf_done(&all);
            break;
        }
    }
    buf_done(&list);
    cJSON_Delete(used);
    return st;
}

/* CreateTable's semantic checks, in DynamoDB's order. */
status store_create_checks(const cJSON *in, diag *d)
{
    const char *billing = jstr(in, "BillingMode");
    bool ppr = billing && strcmp(billing, "PAY_PER_REQUEST") == 0;
    status st = check_attr_defs(cJSON_GetObjectItemCaseSensitive(in, "AttributeDefinitions"), d);
    if (st == ST_OK)
        st = store_capacity_check_billing(in, ppr, d);
    if (st != ST_OK)
        return st;
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(in, "AttributeDefinitions");
    const cJSON *ks = cJSON_GetObjectItemCaseSensitive(in, "KeySchema");
    if ((st = check_key_schema(defs, ks, d)) != ST_OK)
        return st;

    const cJSON *lsis = cJSON_GetObjectItemCaseSensitive(in, "LocalSecondaryIndexes");
    const cJSON *gsis = cJSON_GetObjectItemCaseSensitive(in, "GlobalSecondaryIndexes");
    if (cJSON_IsNull(lsis))
        lsis = NULL;
    if (cJSON_IsNull(gsis))
        gsis = NULL;
    const cJSON *vixs = cJSON_GetObjectItemCaseSensitive(in, "VectorIndexes");
    if (!lsis && !gsis && cJSON_GetArraySize(vixs) == 0 && cJSON_GetArraySize(ks) != cJSON_GetArraySize(defs))
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: Number of attributes in KeySchema"
                        " does not exactly match number of attributes defined in AttributeDefinitions");

    cJSON *seen = cJSON_CreateObject();     /* index names, for duplicates */
    if (lsis)
        st = check_lsis(lsis, defs, ks, billing, seen, d);
    if (st == ST_OK && gsis)
        st = check_gsis(gsis, defs, billing, ppr, seen, d);
    cJSON_Delete(seen);
    if (st == ST_OK)
        st = check_include(lsis, d);
    if (st == ST_OK)
        st = check_include(gsis, d);
    if (st == ST_OK)
        st = check_unused_defs(defs, ks, lsis, gsis, vixs, d);
    if (st == ST_OK)
        st = store_vec_create_checks(in, d);
    return st;
}

/* ---- description <-> table_def ---- */

/* The store's one reading of a description into a table_def is the typed
 * description's (model/ddbres_tables.h): the stored text read as items
 * are, then ddbres_table_desc_def. */
status store_def_from_desc(const char *json, table_def *def, diag *d)
{
    memset(def, 0, sizeof *def);
    ddb_table_desc *t;
    status st = store_tables_desc_read(json, &t, d);
    if (st != ST_OK)
        return st;
    ddbres_table_desc_def(t, def);
    ddbres_table_desc_free(t);
    return ST_OK;
}

status store_def_from_tree(const cJSON *root, table_def *def, diag *d)
{
    memset(def, 0, sizeof *def);
    ddb_table_desc *t;
    status st = store_tables_desc_of(root, &t, d);
    if (st != ST_OK)
        return st;
    ddbres_table_desc_def(t, def);
    ddbres_table_desc_free(t);
    return ST_OK;
}

/* ---- building a description ---- */

static void add_copy(cJSON *dst, const cJSON *src, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, name);
    if (v && !cJSON_IsNull(v))
        cJSON_AddItemToObject(dst, name, cJSON_Duplicate(v, true));
}

static cJSON *throughput(const cJSON *pt)
{
    cJSON *o = cJSON_CreateObject();
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(pt, "ReadCapacityUnits");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(pt, "WriteCapacityUnits");
    cJSON_AddNumberToObject(o, "ReadCapacityUnits", cJSON_IsNumber(r) ? (double)(long long)r->valuedouble : 0);
    cJSON_AddNumberToObject(o, "WriteCapacityUnits", cJSON_IsNumber(w) ? (double)(long long)w->valuedouble : 0);
    cJSON_AddNumberToObject(o, "NumberOfDecreasesToday", 0);
    return o;
}

/* An index's description as CreateTable (or UpdateTable's Create) makes it. */
static cJSON *index_desc(const char *table, const cJSON *e, bool global)
{
    cJSON *ix = cJSON_CreateObject();
    add_copy(ix, e, "IndexName");
    add_copy(ix, e, "KeySchema");
    add_copy(ix, e, "Projection");
    if (global) {
        cJSON_AddStringToObject(ix, "IndexStatus", "CREATING");
        cJSON_AddItemToObject(ix, "ProvisionedThroughput",
                              throughput(cJSON_GetObjectItemCaseSensitive(e, "ProvisionedThroughput")));
    }
    cJSON_AddNumberToObject(ix, "IndexSizeBytes", 0);
    cJSON_AddNumberToObject(ix, "ItemCount", 0);
    buf arn = BUF_INIT;
    buf_printf(&arn, ARN_PREFIX "%s/index/%s", table, jstr(e, "IndexName"));
    cJSON_AddStringToObject(ix, "IndexArn", arn.data);
    buf_done(&arn);
    return ix;
}

/* ---- live counts ---- */

static status get_stats(store *s, int64_t tid, int xid, table_stats *st, diag *d)
{
    memset(st, 0, sizeof *st);
    sqlite3_stmt *q = store_stmt(s, Q_STATS_GET, d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    sqlite3_bind_int(q, 2, xid);
    int rc = sqlite3_step(q);
    if (rc == SQLITE_ROW) {
        st->items = (uint64_t)sqlite3_column_int64(q, 0);
        st->bytes = (uint64_t)sqlite3_column_int64(q, 1);
        st->partitions = (uint64_t)sqlite3_column_int64(q, 2);
    }
    sqlite3_reset(q);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    return ST_OK;
}

static void set_num(cJSON *o, const char *name, double v)
{
    cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    if (x)
        cJSON_SetNumberValue(x, v);
    else
        cJSON_AddNumberToObject(o, name, v);
}

static void set_str(cJSON *o, const char *name, const char *v)
{
    cJSON *x = cJSON_GetObjectItemCaseSensitive(o, name);
    if (x)
        cJSON_ReplaceItemInObjectCaseSensitive(o, name, cJSON_CreateString(v));
    else
        cJSON_AddStringToObject(o, name, v);
}

/* The stored description with live counts and the given status, the
 * members in dropped (n of them) left out, read into a new typed *out. */
static status live_desc(store *s, tinfo *t, const char *status_text, const char *const *dropped, size_t n,
                        struct ddb_table_desc **out, diag *d)
{
    *out = NULL;
    status st = ST_OK;
    cJSON *o = cJSON_Parse(t->desc);
    if (!o)
        return diag_set(d, ST_INTERNAL, "corrupt table description");
    table_stats ts;
    if ((st = get_stats(s, t->id, 0, &ts, d)) != ST_OK)
        goto out;
    set_num(o, "ItemCount", (double)ts.items);
    set_num(o, "TableSizeBytes", (double)ts.bytes);
    set_str(o, "TableStatus", status_text);
    int xid = 1;
    for (int g = 0; g < 2; g++) {
        cJSON *list = cJSON_GetObjectItemCaseSensitive(o, g ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes");
        cJSON *e;
        cJSON_ArrayForEach(e, list) {
            if ((st = get_stats(s, t->id, xid++, &ts, d)) != ST_OK)
                goto out;
            set_num(e, "IndexSizeBytes", (double)ts.bytes);
            set_num(e, "ItemCount", (double)ts.items);
            if (g)
                set_str(e, "IndexStatus", strcmp(status_text, "CREATING") == 0 ? "CREATING" : "ACTIVE");
        }
    }
    store_capacity_describe(o);
    if ((st = store_vec_live(s, t->id, o, d)) != ST_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        cJSON_DeleteItemFromObjectCaseSensitive(o, dropped[i]);
    st = store_tables_desc_of(o, out, d);
out:
    cJSON_Delete(o);
    return st;
}

/* DeleteTable's TableDescription: the live one without what DynamoDB
 * leaves out of it (KeySchema, AttributeDefinitions, CreationDateTime and
 * the index lists; the API reference's DeleteTable example answers with
 * the name, status, throughput, size and count). */
static status deleted_desc(store *s, tinfo *t, struct ddb_table_desc **out, diag *d)
{
    static const char *const dropped[] = { "KeySchema", "AttributeDefinitions", "CreationDateTime",
                                           "LocalSecondaryIndexes", "GlobalSecondaryIndexes", "VectorIndexes" };
    return live_desc(s, t, "DELETING", dropped, sizeof dropped / sizeof dropped[0], out, d);
}

/* ---- operations ---- */

status store_create_check(store *s, const cJSON *in, diag *d)
{
    status st = store_valid_check(in, create_spec, d, &s->err_msg);
    if (st != ST_OK || (st = store_members_check(in, true, d)) != ST_OK ||
        (st = store_create_checks(in, d)) != ST_OK ||
        (st = store_streams_check_spec(store_jget(in, "StreamSpecification"), true, d)) != ST_OK ||
        (st = store_tags_check_create(store_jget(in, "Tags"), d)) != ST_OK ||
        (st = store_capacity_check_create(in, d)) != ST_OK)
        return st;
    return store_policy_check_create(in, d);
}

/* CreateTable's door: the request checked on the JSON, read into a typed
 * request, run (store_tables_create), its description printed. */
status store_op_create_table(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_create_check(s, in, d);
    if (st != ST_OK)
        return st;
    ddb_req req;
    ddb_req_init(&req, DDB_CREATE_TABLE);
    if ((st = store_create_read(in, &req, d)) == ST_OK)
        st = sop_run(s, &req, out, d);
    ddb_req_done(&req);
    return st;
}

static status table_not_found(const char *name, diag *d)
{
    return diag_set(d, ST_NOT_FOUND, "Requested resource not found: Table: %s not found", name);
}

/* DescribeTable's semantic part: the live description of name, read into
 * the typed one (store_tables_exec.c). */
status store_tables_describe(store *s, const char *name, struct ddb_table_desc **out, diag *d)
{
    *out = NULL;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    st = store_table(s, name, &t, d);
    if (st == ST_NOT_FOUND) {
        st = table_not_found(name, d);
    } else if (st == ST_OK) {
        st = live_desc(s, t, "ACTIVE", NULL, 0, out, d);
    }
    return store_txn_end(s, st, d);
}

/* A deleted table's rows; keep_items: its items stay, under its id, as
 * its SYSTEM backup (store_backup.c). */
static status delete_rows(store *s, int64_t tid, bool keep_items, diag *d)
{
    static const int qs[] = { Q_DEL_ITEMS, Q_DEL_IDX, Q_DEL_PARTS, Q_DEL_STATS, Q_TABLE_DELETE };
    for (size_t i = keep_items ? 1 : 0; i < sizeof qs / sizeof qs[0]; i++) {
        sqlite3_stmt *q = store_stmt(s, qs[i], d);
        if (!q)
            return d->code;
        sqlite3_bind_int64(q, 1, tid);
        int rc = sqlite3_step(q);
        sqlite3_reset(q);
        if (rc != SQLITE_DONE)
            return store_sqlerr(s, d);
    }
    return ST_OK;
}

/* DeleteTable's work: the table and its rows go (its items kept as its
 * SYSTEM backup when the settings say so); *out its description as
 * DeleteTable answers it (store_tables_exec.c). */
status store_tables_delete(store *s, const char *name, struct ddb_table_desc **out, diag *d)
{
    *out = NULL;
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    st = store_table(s, name, &t, d);
    if (st == ST_NOT_FOUND) {
        st = table_not_found(name, d);
    } else if (st == ST_OK) {
        st = deleted_desc(s, t, out, d);
        int64_t tid = t->id;
        bool keep_items = false;
        if (st == ST_OK)
            st = store_backup_table_deleted(s, t, &keep_items, d);
        if (st == ST_OK)
            st = delete_rows(s, tid, keep_items, d);
        if (st == ST_OK)
            st = store_vec_drop(s, tid, NULL, d);
        if (st == ST_OK)
            st = store_streams_table_deleted(s, tid, d);
        store_forget_tables(s);
    }
    if (st != ST_OK) {
        ddbres_table_desc_free(*out);
        *out = NULL;
    }
    return store_txn_end(s, st, d);
}

/* ---- C interface ---- */

status store_list_tables(store *s, char ***names, size_t *n, diag *d)
{
    if (s->remote)
        return store_remote_list_tables(s, names, n, d);
    *names = NULL;
    *n = 0;
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    sqlite3_stmt *q = store_stmt(s, Q_TABLE_NAMES, d);
    if (!q)
        return store_txn_end(s, d->code, d);
    size_t cap = 0;
    int rc;
    while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
        if (*n == cap) {
            cap = cap ? cap * 2 : 8;
            *names = xrealloc(*names, cap * sizeof **names);
        }
        (*names)[(*n)++] = xstrdup((const char *)sqlite3_column_text(q, 0));
    }
    if (rc != SQLITE_DONE)
        st = store_sqlerr(s, d);
    sqlite3_reset(q);
    return store_txn_end(s, st, d);
}

void store_names_free(char **names, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(names[i]);
    free(names);
}

status store_describe(store *s, const char *table, table_def *def, diag *d)
{
    if (s->remote)
        return store_remote_describe(s, table, def, d);
    memset(def, 0, sizeof *def);
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    st = store_table(s, table, &t, d);
    if (st == ST_OK)
        table_def_copy(def, &t->def);
    else if (st == ST_NOT_FOUND)
        st = table_not_found(table, d);   /* DescribeTable's words: it names the table */
    return store_txn_end(s, st, d);
}

int store_index_xid(const table_def *def, const char *index)
{
    if (!index)
        return 0;
    for (size_t i = 0; i < def->n_idx; i++)
        if (strcmp(def->idx[i].name, index) == 0)
            return (int)i + 1;
    return -1;
}

status store_stats(store *s, const char *table, const char *index, table_stats *out, diag *d)
{
    if (s->remote)
        return store_remote_stats(s, table, index, out, d);
    memset(out, 0, sizeof *out);
    status st = store_txn_begin(s, false, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    st = store_table(s, table, &t, d);
    if (st == ST_OK) {
        int xid = store_index_xid(&t->def, index);
        if (xid < 0)
            st = diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
        else
            st = get_stats(s, t->id, xid, out, d);
    }
    return store_txn_end(s, st, d);
}

/* CreateTable and DeleteTable as typed requests (the control plane's
 * C calls: import, samples, `ddbx load`, pull). */
status store_create_table(store *s, const table_def *def, diag *d)
{
    ddb_req req;
    ddb_req_init(&req, DDB_CREATE_TABLE);
    req.ctl.def = xcalloc(1, sizeof *req.ctl.def);
    table_def_copy(req.ctl.def, def);
    status st = store_exec_diag(s, &req, NULL, d);
    ddb_req_done(&req);
    return st;
}

status store_delete_table(store *s, const char *table, diag *d)
{
    return store_exec_table(s, DDB_DELETE_TABLE, table, NULL, d);
}

/* ---- UpdateTable's GSI Create (store_gsi.c) ---- */

status store_check_new_gsi(const cJSON *create, const cJSON *defs, bool ppr, diag *d)
{
    status st = check_index(create, defs, NULL, true, NULL, d);
    if (st == ST_OK)
        st = check_projection(create, d);
    if (st == ST_OK && ppr && has(create, "ProvisionedThroughput"))
        st = diag_set(d, ST_VALIDATION,
                      "One or more parameter values were invalid: ProvisionedThroughput should not"
                      " be specified for index: %s when BillingMode is PAY_PER_REQUEST",
                      jstr(create, "IndexName"));
    return st;
}

cJSON *store_gsi_desc(const char *table, const cJSON *create)
{
    return index_desc(table, create, true);
}
