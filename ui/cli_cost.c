/*
 * cli_cost — money figures as text (see cli_cost.h).
 */
#include "ui/cli_cost.h"

#include <math.h>
#include <string.h>

#include "ui/fmt.h"

void cli_cost_calls_text(const price_table *pt, const price_region *p, bool write, double units,
                         double rate, buf *out)
{
    cost_calls c;
    cost_calls_of(p, pt->hours_per_month, write, units, rate, &c);
    cost_money(p, c.od_million, out);
    buf_adds(out, " a million on-demand, ");
    cost_money(p, c.pv_million, out);
    buf_adds(out, " provisioned");
    if (rate <= 0)
        return;
    buf_adds(out, "; at ");
    cost_rate_text(rate, out);
    buf_adds(out, ": ");
    cost_money(p, c.od_month, out);
    buf_adds(out, " a month on-demand, ");
    cost_money(p, c.pv_month, out);
    buf_printf(out, " provisioned (%llu %s)", (unsigned long long)c.pv_units, write ? "WCU" : "RCU");
}

static void json_num(buf *out, const char *name, double v)
{
    if (isnan(v))
        buf_printf(out, "\"%s\":null", name);
    else
        buf_printf(out, "\"%s\":%.10g", name, v);
}

void cli_cost_calls_json(const price_table *pt, const price_region *p, bool write, double units,
                         double rate, buf *out)
{
    cost_calls c;
    cost_calls_of(p, pt->hours_per_month, write, units, rate, &c);
    json_num(out, "on_demand_per_million", c.od_million);
    buf_addc(out, ',');
    json_num(out, "provisioned_per_million", c.pv_million);
    if (rate <= 0)
        return;
    buf_addc(out, ',');
    json_num(out, "rate_per_s", rate);
    buf_addc(out, ',');
    json_num(out, "on_demand_month", c.od_month);
    buf_addc(out, ',');
    json_num(out, "provisioned_month", c.pv_month);
    buf_printf(out, ",\"provisioned_units\":%llu", (unsigned long long)c.pv_units);
}

void cli_cost_prices_text(const price_table *pt, const price_region *p, buf *out)
{
    buf_printf(out, "%s %s, taken %s from %s (%s); a month is %g hours", p->region, p->currency,
               p->taken, p->source, pt->file, pt->hours_per_month);
}

void cli_cost_write_units(const ent_entity *e, buf *out, double *total, double *table)
{
    double t, sum, idx[64] = { 0 };
    cost_entity_write(e, &t, e->n_idx <= 64 ? idx : NULL, &sum);
    buf_printf(out, "%.3g", t);
    for (size_t x = 0; x < e->n_idx && x < 64; x++)
        if (e->idx[x].count)
            buf_printf(out, " + %.3g %s", idx[x], e->idx[x].name);
    buf_printf(out, " = %.3g", sum);
    if (total)
        *total = sum;
    if (table)
        *table = t;
}

void cli_cost_writes_text(const ent_table *t, const price_table *pt, const price_region *p,
                          buf *out)
{
    for (size_t k = 0; k < t->n; k++) {
        const ent_entity *e = &t->e[k];
        double table, total;
        buf_printf(out, "  %s %s  ", t->name, e->name);
        cli_cost_write_units(e, out, &total, &table);
        buf_printf(out, " WCU a write (%.3gx): ", table > 0 ? total / table : 1.0);
        cli_cost_calls_text(pt, p, true, total, 0, out);
        buf_addc(out, '\n');
    }
}

static bool stats(store *st, const char *table, const char *index, table_stats *ts)
{
    diag d;
    diag_init(&d);
    memset(ts, 0, sizeof *ts);
    return store_stats(st, table, index, ts, &d) == ST_OK;
}

void cli_cost_storage_text(store *st, const ent_table *t, const price_region *p, buf *out)
{
    for (size_t i = 0; i <= t->def.n_idx; i++) {
        const char *index = i ? t->def.idx[i - 1].name : NULL;
        table_stats ts;
        if (!stats(st, t->name, index, &ts))
            continue;
        buf_printf(out, "  %s%s%s  %llu items, ", t->name, index ? " / " : "", index ? index : "",
                   (unsigned long long)ts.items);
        fmt_bytes(out, ts.bytes);
        buf_adds(out, " (");
        fmt_bytes(out, cost_storage_bytes(ts.bytes, ts.items));
        buf_adds(out, " billed): ");
        cost_money(p, cost_storage_month(p, ts.bytes, ts.items), out);
        buf_printf(out, " a month%s\n", ts.approximate ? " (DescribeTable's sizes)" : "");
    }
}
