/*
 * store_capacity — a table's OnDemandThroughput and WarmThroughput (and
 * each GSI's): CreateTable's and UpdateTable's checks, what the stored
 * description keeps, and DescribeTable's WarmThroughput (data/, for
 * store_tables.c and store_streams.c's UpdateTable; the cJSON nodes are
 * theirs).
 *
 * Nothing here is enforced: the local store never throttles, so the
 * ceilings of OnDemandThroughput and the pre-warmed rates of
 * WarmThroughput are kept and described, as DynamoDB describes them.
 *
 * Where the rules and words come from: AWS's answers captured on
 * 2026-10-08 by a public lab of DynamoDB's behaviour (ack-api-quirks,
 * "Table billing mode and throughput": findings DDB-TABLE-038, 039, 059,
 * 179, and its rules: WarmThroughput always present, 12000/4000 for
 * PAY_PER_REQUEST and the highest capacity ever provisioned for
 * PROVISIONED, never decreased; OnDemandThroughput absent unless set,
 * merged member by member, -1 clears a member); dynoxide 0.12.0's
 * changelog (2026-07-24, captured in eu-west-2: the billing gate names
 * the first member given, MaxRead before MaxWrite, and fires before the
 * range check); the API reference for the shapes.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/ddbres_tables.h"

#define ODT_READ "MaxReadRequestUnits"
#define ODT_WRITE "MaxWriteRequestUnits"
#define WARM_READ "ReadUnitsPerSecond"
#define WARM_WRITE "WriteUnitsPerSecond"
/* An on-demand table's initial throughput, its WarmThroughput until
 * raised (the developer guide, "Initial throughput for on-demand"). */
#define PPR_WARM_READ 12000
#define PPR_WARM_WRITE 4000
/* The account's per-table maximum (DescribeLimits' defaults, 40000). */
#define TABLE_MAX 40000
#define INVALID "One or more parameter values were invalid: "
#define ON_DEMAND_DOC "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/" \
                      "on-demand-capacity-mode.html#on-demand-capacity-mode-initial"

/* BillingMode against ProvisionedThroughput. */
status store_capacity_check_billing(const cJSON *in, bool ppr, diag *d)
{
    const cJSON *pt = cJSON_GetObjectItemCaseSensitive(in, "ProvisionedThroughput");
    if (ppr) {
        if (pt && !cJSON_IsNull(pt))
            return diag_set(d, ST_VALIDATION,
                            "One or more parameter values were invalid: Neither ReadCapacityUnits nor"
                            " WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
        return ST_OK;
    }
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(pt, "ReadCapacityUnits");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(pt, "WriteCapacityUnits");
    if (!cJSON_IsNumber(r) || !cJSON_IsNumber(w) || r->valuedouble == 0 || w->valuedouble == 0)
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: ReadCapacityUnits and"
                        " WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
    if (r->valuedouble > 1e12)
        return diag_set(d, ST_VALIDATION, "Given value %.0f for ReadCapacityUnits is out of bounds",
                        r->valuedouble);
    if (w->valuedouble > 1e12)
        return diag_set(d, ST_VALIDATION, "Given value %.0f for WriteCapacityUnits is out of bounds",
                        w->valuedouble);
    return ST_OK;
}

const vspec store_odt_fields[] = {
    { .name = ODT_READ, .type = VT_LONG },
    { .name = ODT_WRITE, .type = VT_LONG },
    { .type = VT_END },
};
const vspec store_warm_fields[] = {
    { .name = WARM_READ, .type = VT_LONG },
    { .name = WARM_WRITE, .type = VT_LONG },
    { .type = VT_END },
};
const char *const store_e_gtsrm[] = { "ENABLED", "DISABLED", "ENABLED_WITH_OVERRIDES", NULL };

static bool given(const cJSON *o, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
    return m && !cJSON_IsNull(m);
}

static bool jnum(const cJSON *o, const char *name, double *v)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!cJSON_IsNumber(m))
        return false;
    *v = m->valuedouble;
    return true;
}

static void set(cJSON *o, const char *name, cJSON *v)
{
    if (cJSON_GetObjectItemCaseSensitive(o, name))
        cJSON_ReplaceItemInObjectCaseSensitive(o, name, v);
    else
        cJSON_AddItemToObject(o, name, v);
}

/* "for table" or "for index NAME" (the latter as AWS's LimitExceeded
 * words name an index; its range messages for an index are not
 * published). */
static void whose(char *out, size_t cap, const char *index)
{
    if (index)
        snprintf(out, cap, "index %s", index);
    else
        snprintf(out, cap, "table");
}

/* OnDemandThroughput given where the billing is PROVISIONED: the first
 * member given is named (CreateTable's words end with a period and say
 * "table BillingMode", UpdateTable's "the table BillingMode"). */
static status odt_on_provisioned(const cJSON *odt, bool create, diag *d)
{
    const char *m = given(odt, ODT_READ) ? ODT_READ : given(odt, ODT_WRITE) ? ODT_WRITE : NULL;
    if (!m)
        return ST_OK;
    return diag_set(d, ST_VALIDATION, INVALID "%s for OnDemandThroughput cannot be specified when %s BillingMode"
                    " is PROVISIONED%s", m, create ? "table" : "the table", create ? "." : "");
}

/* Each member at least 1 (or -1 where it clears one: UpdateTable), at
 * most the account's table maximum. */
static status odt_range(const cJSON *odt, bool clear_ok, const char *index, diag *d)
{
    static const char *const ms[] = { ODT_READ, ODT_WRITE };
    char who[300];
    whose(who, sizeof who, index);
    for (int i = 0; i < 2; i++) {
        double v;
        if (!jnum(odt, ms[i], &v) || (clear_ok && v == -1))
            continue;
        if (v < 1)
            return diag_set(d, ST_VALIDATION, INVALID "Requested %s for OnDemandThroughput for %s is outside of"
                            " valid range", ms[i], who);
        if (v > TABLE_MAX)
            return diag_set(d, ST_LIMIT_EXCEEDED, "Subscriber limit exceeded: Requested %s for OnDemandThroughput"
                            " for %s exceeds Table%sCapacityUnits of the account in region " STORE_REGION, ms[i],
                            index ? who : "table", i ? "MaxWrite" : "MaxRead");
    }
    return ST_OK;
}

/* A WarmThroughput against its floor (the on-demand initial throughput,
 * or the provisioned capacity) and the account's maximum. */
static status warm_range(const cJSON *warm, double fr, double fw, bool ppr, const char *index, diag *d)
{
    static const char *const ms[] = { WARM_READ, WARM_WRITE };
    static const char *const cu[] = { "ReadCapacityUnits", "WriteCapacityUnits" };
    char who[300];
    whose(who, sizeof who, index);
    for (int i = 0; i < 2; i++) {
        double v;
        if (!jnum(warm, ms[i], &v))
            continue;
        if (v < (i ? fw : fr)) {
            if (ppr)
                return diag_set(d, ST_VALIDATION, INVALID "Requested %s for WarmThroughput for %s is lower than"
                                " initial throughput for OnDemand. See: " ON_DEMAND_DOC, ms[i], who);
            return diag_set(d, ST_VALIDATION, INVALID "Requested %s for WarmThroughput for %s is lower than %s of"
                            " ProvisionedThroughput", ms[i], who, cu[i]);
        }
        if (v > TABLE_MAX)
            return diag_set(d, ST_LIMIT_EXCEEDED, "Subscriber limit exceeded: Requested %s for WarmThroughput for"
                            " %s exceeds Table%sCapacityUnits of the account in region " STORE_REGION, ms[i], who,
                            i ? "MaxWrite" : "MaxRead");
    }
    return ST_OK;
}

/* The floor of a WarmThroughput: 12000/4000 on demand, else the
 * ProvisionedThroughput pt's units. */
void store_capacity_warm_floor(const ddb_tput *pt, bool ppr, double *r, double *w)
{
    *r = ppr ? PPR_WARM_READ : 1;
    *w = ppr ? PPR_WARM_WRITE : 1;
    if (!ppr && pt && pt->rcu.has)
        *r = pt->rcu.v;
    if (!ppr && pt && pt->wcu.has)
        *w = pt->wcu.v;
}

static void warm_floor(const cJSON *pt, bool ppr, double *r, double *w)
{
    *r = ppr ? PPR_WARM_READ : 1;
    *w = ppr ? PPR_WARM_WRITE : 1;
    if (!ppr) {
        jnum(pt, "ReadCapacityUnits", r);
        jnum(pt, "WriteCapacityUnits", w);
    }
}

/* One table's or index's OnDemandThroughput and WarmThroughput at
 * creation; pt its ProvisionedThroughput. */
static status check_one(const cJSON *o, const cJSON *pt, bool ppr, const char *index, diag *d)
{
    const cJSON *odt = cJSON_GetObjectItemCaseSensitive(o, "OnDemandThroughput");
    status st = ST_OK;
    if (odt && !cJSON_IsNull(odt)) {
        if (!ppr)
            st = odt_on_provisioned(odt, true, d);
        if (st == ST_OK)
            st = odt_range(odt, false, index, d);
    }
    const cJSON *warm = cJSON_GetObjectItemCaseSensitive(o, "WarmThroughput");
    if (st == ST_OK && warm && !cJSON_IsNull(warm)) {
        double fr, fw;
        warm_floor(pt, ppr, &fr, &fw);
        st = warm_range(warm, fr, fw, ppr, index, d);
    }
    return st;
}

status store_capacity_check_create(const cJSON *in, diag *d)
{
    const char *billing = store_jstr(in, "BillingMode");
    bool ppr = billing && strcmp(billing, "PAY_PER_REQUEST") == 0;
    status st = check_one(in, store_jget(in, "ProvisionedThroughput"), ppr, NULL, d);
    const cJSON *e;
    cJSON_ArrayForEach(e, store_jget(in, "GlobalSecondaryIndexes")) {
        if (st != ST_OK)
            break;
        const cJSON *pt = store_jget(e, "ProvisionedThroughput");
        st = check_one(e, pt ? pt : store_jget(in, "ProvisionedThroughput"), ppr, store_jstr(e, "IndexName"), d);
    }
    return st;
}

static bool desc_ppr(const cJSON *desc)
{
    const char *bm = store_jstr(store_jget(desc, "BillingModeSummary"), "BillingMode");
    return bm && strcmp(bm, "PAY_PER_REQUEST") == 0;
}

/* o's WarmThroughput, at least its floor (AWS: a provisioned table's
 * follows the highest capacity it has had; an on-demand table's is at
 * least 12000/4000, also once switched back). */
static void warm_at_least(cJSON *o, const cJSON *pt, bool ppr, const char *status_text)
{
    double fr, fw, r = 0, w = 0;
    warm_floor(pt, ppr, &fr, &fw);
    const cJSON *warm = cJSON_GetObjectItemCaseSensitive(o, "WarmThroughput");
    jnum(warm, WARM_READ, &r);
    jnum(warm, WARM_WRITE, &w);
    cJSON *nw = cJSON_CreateObject();
    cJSON_AddNumberToObject(nw, WARM_READ, r > fr ? r : fr);
    cJSON_AddNumberToObject(nw, WARM_WRITE, w > fw ? w : fw);
    cJSON_AddStringToObject(nw, "Status", status_text);
    set(o, "WarmThroughput", nw);
}

void store_capacity_describe(cJSON *desc)
{
    bool ppr = desc_ppr(desc);
    warm_at_least(desc, store_jget(desc, "ProvisionedThroughput"), ppr, "ACTIVE");
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes")) {
        const char *ist = store_jstr(e, "IndexStatus");
        warm_at_least(e, store_jget(e, "ProvisionedThroughput"), ppr, ist ? ist : "ACTIVE");
    }
}

/* UpdateTable's OnDemandThroughput: members of at least 1 or -1. */
static status update_odt_check(const cJSON *odt, bool ppr, diag *d)
{
    if (!ppr)
        return odt_on_provisioned(odt, false, d);
    return odt_range(odt, true, NULL, d);
}

/* UpdateTable's WarmThroughput: never below the current one. */
static status update_warm_check(const cJSON *warm, const cJSON *desc, bool ppr, diag *d)
{
    static const char *const ms[] = { WARM_READ, WARM_WRITE };
    cJSON *cur = cJSON_Duplicate(desc, false);
    cJSON_AddItemToObject(cur, "WarmThroughput", cJSON_Duplicate(store_jget(desc, "WarmThroughput"), true));
    warm_at_least(cur, store_jget(desc, "ProvisionedThroughput"), ppr, "ACTIVE");
    const cJSON *now = store_jget(cur, "WarmThroughput");
    status st = ST_OK;
    for (int i = 0; i < 2 && st == ST_OK; i++) {
        double v, c = 0;
        jnum(now, ms[i], &c);
        if (jnum(warm, ms[i], &v) && v < c)
            st = diag_set(d, ST_VALIDATION, INVALID "Requested %s for WarmThroughput for table is lower than"
                          " current WarmThroughput, decreasing WarmThroughput is not supported", ms[i]);
        else if (jnum(warm, ms[i], &v) && v > TABLE_MAX)
            st = diag_set(d, ST_LIMIT_EXCEEDED, "Subscriber limit exceeded: Requested %s for WarmThroughput for"
                          " table exceeds Table%sCapacityUnits of the account in region " STORE_REGION, ms[i],
                          i ? "MaxWrite" : "MaxRead");
    }
    cJSON_Delete(cur);
    return st;
}

bool store_capacity_asked(const cJSON *in)
{
    const cJSON *odt = store_jget(in, "OnDemandThroughput");
    return (cJSON_IsObject(odt) && odt->child) || given(in, "WarmThroughput");
}

status store_capacity_update_check(const cJSON *in, const cJSON *desc, diag *d)
{
    const char *bm = store_jstr(in, "BillingMode");
    bool ppr = bm ? strcmp(bm, "PAY_PER_REQUEST") == 0 : desc_ppr(desc);
    const cJSON *odt = store_jget(in, "OnDemandThroughput");
    status st = ST_OK;
    if (cJSON_IsObject(odt))
        st = update_odt_check(odt, ppr, d);
    const cJSON *warm = store_jget(in, "WarmThroughput");
    if (st == ST_OK && cJSON_IsObject(warm))
        st = update_warm_check(warm, desc, desc_ppr(desc), d);
    return st;
}

/* The OnDemandThroughput merged member by member; -1 clears a member,
 * and none left clears it. */
static void update_odt(const cJSON *odt, cJSON *desc)
{
    cJSON *cur = cJSON_GetObjectItemCaseSensitive(desc, "OnDemandThroughput");
    cJSON *nw = cur ? cJSON_Duplicate(cur, true) : cJSON_CreateObject();
    static const char *const ms[] = { ODT_READ, ODT_WRITE };
    for (int i = 0; i < 2; i++) {
        double v;
        if (!jnum(odt, ms[i], &v))
            continue;
        cJSON_DeleteItemFromObjectCaseSensitive(nw, ms[i]);
        if (v != -1)
            cJSON_AddNumberToObject(nw, ms[i], v);
    }
    if (nw->child)
        set(desc, "OnDemandThroughput", nw);
    else {
        cJSON_Delete(nw);
        cJSON_DeleteItemFromObjectCaseSensitive(desc, "OnDemandThroughput");
    }
}

void store_capacity_update(const cJSON *in, cJSON *desc)
{
    bool ppr = desc_ppr(desc);
    /* What the billing and capacity changes left, then what was asked. */
    if (!ppr)
        cJSON_DeleteItemFromObjectCaseSensitive(desc, "OnDemandThroughput");
    const cJSON *odt = store_jget(in, "OnDemandThroughput");
    if (ppr && cJSON_IsObject(odt))
        update_odt(odt, desc);
    warm_at_least(desc, store_jget(desc, "ProvisionedThroughput"), ppr, "ACTIVE");
    const cJSON *warm = store_jget(in, "WarmThroughput");
    cJSON *now = cJSON_GetObjectItemCaseSensitive(desc, "WarmThroughput");
    double v;
    if (cJSON_IsObject(warm) && jnum(warm, WARM_READ, &v))
        set(now, WARM_READ, cJSON_CreateNumber(v));
    if (cJSON_IsObject(warm) && jnum(warm, WARM_WRITE, &v))
        set(now, WARM_WRITE, cJSON_CreateNumber(v));
    cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes"))
        warm_at_least(e, store_jget(e, "ProvisionedThroughput"), ppr, "ACTIVE");
}
