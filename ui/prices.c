/*
 * prices — the session's prices (see prices.h).
 */
#include "ui/prices.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "data/price_file.h"
#include "data/store.h"
#include "data/store_wscan.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"

static struct {
    bool loaded, ok;
    char *region;
    price_table pt;
    const price_region *p;
} P;

void prices_set_region(const char *region)
{
    free(P.region);
    P.region = region ? xstrdup(region) : NULL;
    P.loaded = false;
}

bool prices_get(const price_table **pt, const price_region **p)
{
    if (!P.loaded) {
        P.loaded = true;
        diag d;
        diag_init(&d);
        price_table_done(&P.pt);
        P.ok = price_file_default(&P.pt, &d) == ST_OK;
        P.p = P.ok ? price_table_region(&P.pt, P.region) : NULL;
        if (P.ok && !P.p)
            P.p = price_table_region(&P.pt, "us-east-1");
        P.ok = P.p != NULL;
    }
    *pt = &P.pt;
    *p = P.p;
    return P.ok;
}

/* What calls of units cost, into c; false without prices. */
static bool calls_of(double units, bool write, const price_region **p, cost_calls *c)
{
    const price_table *pt;
    if (!prices_get(&pt, p))
        return false;
    cost_calls_of(*p, pt->hours_per_month, write, units, 0, c);
    return true;
}

void prices_per_million(double units, bool write, buf *out)
{
    const price_region *p;
    cost_calls c;
    if (!calls_of(units, write, &p, &c))
        return;
    cost_money(p, c.od_million, out);
    buf_adds(out, "/M calls");
}

/* "$0.00095 on demand": what one read (write false) or write of units
 * capacity units costs on demand, appended; nothing without prices. */
static void prices_once(double units, bool write, buf *out)
{
    const price_region *p;
    cost_calls c;
    if (!calls_of(units, write, &p, &c))
        return;
    cost_money(p, c.od_million / 1e6, out);
    buf_adds(out, " on demand");
}

void prices_read_all(const char *table, const char *index, buf *out)
{
    uint64_t bytes = 0;
    double rcu = 0;
    diag d;
    diag_init(&d);
    store_read_cost(display_store(), table, index, &bytes, &rcu, &d);
    buf_adds(out, "≈");
    fmt_bytes(out, bytes);
    buf_printf(out, ", ≈%.0f RCU", rcu);
    buf money = BUF_INIT;
    prices_once(rcu, false, &money);
    if (money.len)
        buf_printf(out, ", ≈%s", money.data);
    buf_done(&money);
}

void prices_read_all_plan(const char *table, const char *index, buf *out)
{
    prices_read_all(table, index, out);
    diag d;
    diag_init(&d);
    int segs = store_wscan_plan(display_store(), table, index, &d);
    if (segs > 1)
        buf_printf(out, ", in %d parallel Scan segments", segs);
}

double prices_storage_month(store *st, const ent_table *t, const price_region *p)
{
    double sum = 0;
    for (size_t i = 0; i <= t->def.n_idx; i++) {
        table_stats ts;
        memset(&ts, 0, sizeof ts);
        diag d;
        diag_init(&d);
        if (store_stats(st, t->name, i ? t->def.idx[i - 1].name : NULL, &ts, &d) != ST_OK)
            return NAN;
        sum += cost_storage_month(p, ts.bytes, ts.items);
    }
    return sum;
}
