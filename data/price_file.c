/*
 * price_file — reading price files (see price_file.h).
 */
#include "data/price_file.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/jsonread.h"
#include "data/samples.h"
#include "model/mem.h"

/* A price: a number >= 0, or null for one not known. */
static status price(jsonread *r, const cJSON *v, double *out)
{
    if (cJSON_IsNull(v)) {
        *out = NAN;
        return ST_OK;
    }
    return jsonread_count(r, v, false, out);
}

/* An object of the members names[0..n), each a price (absent: not known). */
static status prices(jsonread *r, const cJSON *v, const char *const *names, double **outs, size_t n)
{
    const char *list[4] = { NULL, NULL, NULL, NULL };
    for (size_t i = 0; i < n; i++)
        list[i] = names[i];
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object of %s%s%s: price (null: not known)", names[0],
                       n > 1 ? ", " : "", n > 1 ? names[1] : "");
    status st = jsonread_members(r, v, list);
    for (size_t i = 0; i < n && st == ST_OK; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, names[i]);
        *outs[i] = NAN;
        if (!m)
            continue;
        jsonread_push_name(r, names[i]);
        st = price(r, m, outs[i]);
        jsonread_pop(r);
    }
    return st;
}

/* v's member name, when it is there: an object of the two prices named n
 * (on demand's read and write, provisioned's RCU and WCU). */
static status price_pair(jsonread *r, const cJSON *v, const char *name, const char *const n[2], double *a,
                         double *b)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, name);
    if (!m)
        return ST_OK;
    double *o[] = { a, b };
    jsonread_push_name(r, name);
    status st = prices(r, m, n, o, 2);
    jsonread_pop(r);
    return st;
}

static status read_region(jsonread *r, const cJSON *v, price_region *p)
{
    static const char *const members[] = { "currency", "taken", "source", "note", "on_demand",
                                           "provisioned", "storage_gb_month", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "a region is an object: {\"currency\": \"USD\", \"taken\": ..., ...}");
    status st = jsonread_members(r, v, members);
    p->od_read = p->od_write = p->pv_read = p->pv_write = p->storage = NAN;
    static const char *const need[] = { "currency", "taken", "source" };
    char **need_out[] = { &p->currency, &p->taken, &p->source };
    for (int i = 0; i < 3 && st == ST_OK; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, need[i]);
        if (!m) {
            st = jsonread_fail(r, "a region needs \"%s\" (the %s)", need[i],
                         i == 0 ? "currency code, USD" : i == 1 ? "date the prices were taken"
                                                               : "URL they were taken from");
            break;
        }
        jsonread_push_name(r, need[i]);
        st = jsonread_string(r, m, false, need_out[i]);
        jsonread_pop(r);
    }
    const cJSON *m;
    if (st == ST_OK && (m = cJSON_GetObjectItemCaseSensitive(v, "note"))) {
        jsonread_push_name(r, "note");
        st = jsonread_string(r, m, true, &p->note);
        jsonread_pop(r);
    }
    static const char *const on_demand[] = { "read_per_million", "write_per_million" };
    static const char *const provisioned[] = { "rcu_hour", "wcu_hour" };
    if (st == ST_OK)
        st = price_pair(r, v, "on_demand", on_demand, &p->od_read, &p->od_write);
    if (st == ST_OK)
        st = price_pair(r, v, "provisioned", provisioned, &p->pv_read, &p->pv_write);
    if (st == ST_OK && (m = cJSON_GetObjectItemCaseSensitive(v, "storage_gb_month"))) {
        jsonread_push_name(r, "storage_gb_month");
        st = price(r, m, &p->storage);
        jsonread_pop(r);
    }
    return st;
}

status price_file_parse(const char *file, const char *text, size_t len, price_table *t, diag *d)
{
    static const char *const members[] = { "ddbx_prices", "hours_per_month", "regions", NULL };
    jsonread r;
    jsonread_init(&r, file, text, len, d);
    cJSON *root = NULL;
    status st = jsonread_parse(&r, &root);
    if (st != ST_OK)
        return st;
    price_table add;
    price_table_init(&add);
    add.hours_per_month = 730;
    if (!cJSON_IsObject(root)) {
        st = jsonread_fail(&r, "a price file is an object: {\"ddbx_prices\": 1, \"regions\": {...}}");
        goto out;
    }
    st = jsonread_members(&r, root, members);
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(root, "ddbx_prices");
    const cJSON *hours = cJSON_GetObjectItemCaseSensitive(root, "hours_per_month");
    const cJSON *regions = cJSON_GetObjectItemCaseSensitive(root, "regions");
    if (st == ST_OK && ver && !(cJSON_IsNumber(ver) && ver->valuedouble == 1)) {
        jsonread_push_name(&r, "ddbx_prices");
        st = jsonread_fail(&r, "this ddbx reads version 1 of the price file");
        jsonread_pop(&r);
    }
    if (st == ST_OK && hours) {
        jsonread_push_name(&r, "hours_per_month");
        st = jsonread_count(&r, hours, false, &add.hours_per_month);
        if (st == ST_OK && (add.hours_per_month < 672 || add.hours_per_month > 744))
            st = jsonread_fail(&r, "a month has from 672 to 744 hours");
        jsonread_pop(&r);
    }
    if (st == ST_OK && (!cJSON_IsObject(regions) || !cJSON_GetArraySize(regions)))
        st = jsonread_fail(&r, "a price file needs \"regions\": {\"REGION\": {...}}, not empty");
    if (st == ST_OK) {
        jsonread_push_name(&r, "regions");
        add.r = xcalloc((size_t)cJSON_GetArraySize(regions), sizeof *add.r);
        const cJSON *one;
        cJSON_ArrayForEach(one, regions) {
            jsonread_push_name(&r, one->string);
            price_region *p = &add.r[add.n++];
            p->region = xstrdup(one->string);
            st = read_region(&r, one, p);
            jsonread_pop(&r);
            if (st != ST_OK)
                break;
        }
        jsonread_pop(&r);
    }
    if (st == ST_OK) {
        price_table_done(t);
        *t = add;
        t->file = xstrdup(file);
        price_table_init(&add);
    }
out:
    price_table_done(&add);
    cJSON_Delete(root);
    return st;
}

status price_file_load(const char *path, price_table *t, diag *d)
{
    buf b = BUF_INIT;
    status st = jsonread_load(path, &b, d);
    if (st == ST_OK)
        st = price_file_parse(path, b.data, b.len, t, d);
    buf_done(&b);
    return st;
}

status price_file_default(price_table *t, diag *d)
{
    if (!samples_n_price_assets)
        return diag_set(d, ST_INTERNAL, "no price file was built in");
    const samples_asset *a = &samples_price_assets[0];
    return price_file_parse(PRICE_FILE_DEFAULT_NAME, (const char *)a->data, a->len, t, d);
}
