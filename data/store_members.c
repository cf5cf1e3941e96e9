/*
 * store_members — no member of a table-definition request is dropped
 * silently: CreateTable and UpdateTable refuse a member that is in none
 * of DynamoDB's shapes for them, naming it.
 *
 * Why: until vector indexes came, a CreateTable naming VectorIndexes
 * succeeded and lost them. The SDKs refuse an unknown member before
 * sending (botocore: "Unknown parameter in input"; aws-sdk-js v2:
 * "UnexpectedParameter: Unexpected key ... found in params"), so the
 * only callers that send one are raw clients, SDKs newer than ddbx, and
 * misspellings: each is better told than ignored. AWS's own server's
 * answer to an unknown member is not in its pages (looked for
 * 2026-12-06); this refusal and its words are ddbx's.
 *
 * The lists are every member of the API reference's CreateTable and
 * UpdateTable requests (December 2026), whether or not ddbx acts on it:
 * what ddbx does with a known member is the member's own code's
 * business (store_tables.c, store_streams.c, and the 2024-2026 members'
 * code).
 */
#include <cjson/cJSON.h>
#include <string.h>

#include "data/store_int.h"

static const char *const create_members[] = {
    "AttributeDefinitions", "TableName", "KeySchema", "LocalSecondaryIndexes", "GlobalSecondaryIndexes",
    "BillingMode", "ProvisionedThroughput", "StreamSpecification", "SSESpecification", "Tags", "TableClass",
    "DeletionProtectionEnabled", "WarmThroughput", "ResourcePolicy", "OnDemandThroughput",
    "GlobalTableSourceArn", "GlobalTableSettingsReplicationMode", "VectorIndexes", NULL,
};

static const char *const update_members[] = {
    "AttributeDefinitions", "TableName", "BillingMode", "ProvisionedThroughput", "GlobalSecondaryIndexUpdates",
    "StreamSpecification", "SSESpecification", "ReplicaUpdates", "TableClass", "DeletionProtectionEnabled",
    "MultiRegionConsistency", "GlobalTableWitnessUpdates", "OnDemandThroughput", "WarmThroughput",
    "GlobalTableSettingsReplicationMode", "DisassociationProtectionEnabled", "VectorIndexUpdates", NULL,
};

status store_members_check(const cJSON *in, bool create, diag *d)
{
    const char *const *known = create ? create_members : update_members;
    const cJSON *m;
    cJSON_ArrayForEach(m, in) {
        size_t i = 0;
        while (known[i] && strcmp(known[i], m->string) != 0)
            i++;
        if (!known[i])
            return diag_set(d, ST_VALIDATION, "ddbx does not know the member %s of %s: it is in none of"
                            " DynamoDB's %s shapes, and ddbx never drops a member silently", m->string,
                            create ? "CreateTable" : "UpdateTable", create ? "CreateTable" : "UpdateTable");
    }
    return ST_OK;
}
