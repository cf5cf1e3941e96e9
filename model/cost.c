/*
 * cost — capacity and storage in money (see cost.h).
 */
#include "model/cost.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void price_table_init(price_table *t)
{
    memset(t, 0, sizeof *t);
}

void price_table_done(price_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->r[i].region);
        free(t->r[i].currency);
        free(t->r[i].taken);
        free(t->r[i].source);
        free(t->r[i].note);
    }
    free(t->r);
    free(t->file);
    price_table_init(t);
}

const price_region *price_table_region(const price_table *t, const char *region)
{
    for (size_t i = 0; region && i < t->n; i++)
        if (strcmp(t->r[i].region, region) == 0)
            return &t->r[i];
    return NULL;
}

void cost_calls_of(const price_region *p, double hours_per_month, bool write, double units,
                   double rate, cost_calls *out)
{
    memset(out, 0, sizeof *out);
    double od = write ? p->od_write : p->od_read, pv = write ? p->pv_write : p->pv_read;
    out->od_million = units * od;
    /* A million calls at one a second: a million seconds of u units. */
    out->pv_million = units * pv * 1e6 / 3600.0;
    out->rate = rate;
    if (rate <= 0)
        return;
    double month_s = hours_per_month * 3600.0;
    out->od_month = units * rate * month_s / 1e6 * od;
    double need = ceil(units * rate - 1e-9);
    out->pv_units = need < 1 ? 1 : (uint64_t)need;
    out->pv_month = (double)out->pv_units * pv * hours_per_month;
}

void cost_entity_write(const ent_entity *e, double *table, double *indexes, double *total)
{
    double n = e->count ? (double)e->count : 1;
    *table = e->count ? (double)e->write_halves / 2.0 / n : 0;
    *total = *table;
    for (size_t i = 0; i < e->n_idx; i++) {
        double u = e->count ? (double)e->idx[i].write_halves / 2.0 / n : 0;
        if (indexes)
            indexes[i] = u;
        *total += u;
    }
}

uint64_t cost_storage_bytes(uint64_t bytes, uint64_t items)
{
    return bytes + COST_ITEM_OVERHEAD * items;
}

double cost_storage_month(const price_region *p, uint64_t bytes, uint64_t items)
{
    return (double)cost_storage_bytes(bytes, items) / (1024.0 * 1024.0 * 1024.0) * p->storage;
}

bool cost_parse_rate(const char *text, double *per_s)
{
    char *end = NULL;
    double n = strtod(text, &end);
    if (end == text || !isfinite(n) || n <= 0)
        return false;
    static const struct { const char *unit; double secs; } units[] = {
        { "", 1 }, { "/s", 1 }, { "/sec", 1 }, { "/min", 60 }, { "/h", 3600 }, { "/hour", 3600 },
        { "/day", 86400 }, { "/d", 86400 },
    };
    for (size_t i = 0; i < sizeof units / sizeof *units; i++)
        if (strcmp(end, units[i].unit) == 0) {
            *per_s = n / units[i].secs;
            return true;
        }
    return false;
}

void cost_rate_text(double per_s, buf *out)
{
    buf_printf(out, "%g/s", per_s);
}

/* 1234567.891 -> "1,234,567.89" with decimals digits after the point. */
static void grouped(double v, int decimals, buf *out)
{
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%.*f", decimals, v);
    char *dot = strchr(tmp, '.');
    size_t int_len = dot ? (size_t)(dot - tmp) : strlen(tmp);
    for (size_t i = 0; i < int_len; i++) {
        if (i && (int_len - i) % 3 == 0)
            buf_addc(out, ',');
        buf_addc(out, tmp[i]);
    }
    if (dot)
        buf_adds(out, dot);
}

void cost_money(const price_region *p, double amount, buf *out)
{
    if (isnan(amount)) {
        buf_addc(out, '?');
        return;
    }
    const char *cur = p && p->currency ? p->currency : "USD";
    const char *sign = strcmp(cur, "USD") == 0 ? "$" : strcmp(cur, "CNY") == 0 ? "¥" : NULL;
    /* Two decimals, more below 1: three significant digits. */
    int dec = 2;
    double a = fabs(amount);
    if (a > 0 && a < 1)
        dec = (int)ceil(-log10(a)) + 2;
    if (dec < 2)
        dec = 2;
    if (dec > 12)
        dec = 12;
    if (amount < 0)
        buf_addc(out, '-');
    if (sign)
        buf_adds(out, sign);
    grouped(a, dec, out);
    /* Small amounts: no trailing zeros past the second decimal. */
    while (dec > 2 && out->len && out->data[out->len - 1] == '0') {
        out->data[--out->len] = '\0';
        dec--;
    }
    if (!sign)
        buf_printf(out, " %s", cur);
}
