/*
 * ttl — the expiry of an item under a table's Time to Live (model/ttl.h).
 */
#include "model/ttl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/num.h"

bool ttl_expiry(const av *item, const char *attr, double *epoch)
{
    if (!attr || !item || item->type != AV_M)
        return false;
    const av *v = av_map_get(item, attr, strlen(attr));
    if (!v || v->type != AV_N)
        return false;
    char text[NUM_TEXT_MAX];
    num_format(&v->u.n, text);
    *epoch = strtod(text, NULL);
    return true;
}

bool ttl_expired(double epoch, double now)
{
    return epoch < now && now - epoch <= (double)TTL_MAX_AGE_S;
}

void ttl_describe(double epoch, double now, char *out, size_t cap)
{
    if (epoch < now) {
        snprintf(out, cap, "expired");
        return;
    }
    double left = epoch - now;
    if (left > 30 * 86400.0) {   /* far off: the date says more than "in 74 y" */
        time_t t = (time_t)epoch;
        struct tm tm;
        gmtime_r(&t, &tm);
        snprintf(out, cap, "expires %04d-%02d-%02d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday);
        return;
    }
    static const struct { double s; const char *unit; } units[] = {
        { 86400.0, "d" }, { 3600.0, "h" }, { 60.0, "min" }, { 1.0, "s" },
    };
    size_t i = 0;
    while (i + 1 < sizeof units / sizeof units[0] && left < units[i].s)
        i++;
    long long n = (long long)(left / units[i].s);
    snprintf(out, cap, "expires in %lld %s", n < 1 ? 1 : n, units[i].unit);
}
