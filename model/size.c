/*
 * size — item sizes and capacity units (see size.h).
 */
#include "model/size.h"

#include <assert.h>
#include <stdio.h>

/*
 * DynamoDB stores a number as an exponent byte plus base-100 digits
 * aligned on the decimal point, trailing zero pairs dropped. nd digits
 * take ceil(nd/2) pairs, one more when nd is even and the leading digit
 * sits at an even power of ten (1.5 is "01.50": two pairs). dynalite's
 * valSize has the same formula.
 */
size_t size_num(const num *n)
{
    if (num_is_zero(n))
        return 1;
    int nd = num_digits(n);
    int adj = n->exp + nd - 1;
    size_t pairs = (size_t)(nd + 1) / 2 + (nd % 2 == 0 && adj % 2 == 0);
    return 1 + pairs + (n->neg ? 1 : 0);
}

size_t size_value(const av *v)
{
    size_t sum = 0;
    switch (v->type) {
    case AV_S:
    case AV_B:
        return v->u.s.len;
    case AV_N:
        return size_num(&v->u.n);
    case AV_BOOL:
    case AV_NULL:
        return 1;
    case AV_SS:
    case AV_NS:
    case AV_BS:
        for (size_t i = 0; i < v->u.l.len; i++)
            sum += size_value(&v->u.l.v[i]);
        return sum;
    case AV_L:
        sum = 3;
        for (size_t i = 0; i < v->u.l.len; i++)
            sum += 1 + size_value(&v->u.l.v[i]);
        return sum;
    case AV_M:
        return 3 + v->u.m.len + size_item(v);
    default:
        return 0;
    }
}

size_t size_item(const av *item)
{
    assert(item->type == AV_M);
    size_t sum = 0;
    for (size_t i = 0; i < item->u.m.len; i++)
        sum += item->u.m.v[i].name_len + size_value(&item->u.m.v[i].val);
    return sum;
}

/* Levels of v counting itself: a scalar or set is 1, an L or M one more
 * than its deepest element. Stops counting past the limit, so a hostile
 * depth costs no more than the limit allows. */
static int depth_of(const av *v, int level)
{
    if (level > SIZE_DEPTH_MAX || (v->type != AV_L && v->type != AV_M))
        return level;
    int deepest = level;
    size_t n = v->type == AV_L ? v->u.l.len : v->u.m.len;
    for (size_t i = 0; i < n && deepest <= SIZE_DEPTH_MAX; i++) {
        const av *e = v->type == AV_L ? &v->u.l.v[i] : &v->u.m.v[i].val;
        int k = depth_of(e, level + 1);
        if (k > deepest)
            deepest = k;
    }
    return deepest;
}

bool size_too_deep(const av *v)
{
    return depth_of(v, 1) > SIZE_DEPTH_MAX;
}

status size_check_depth(const av *item, diag *d)
{
    assert(item->type == AV_M);
    for (size_t i = 0; i < item->u.m.len; i++)
        if (depth_of(&item->u.m.v[i].val, 1) > SIZE_DEPTH_MAX)
            return diag_set(d, ST_VALIDATION, "Nesting Levels have exceeded supported limits: "
                            "Attributes in the item have nested levels beyond supported limit");
    return ST_OK;
}

status size_check_item(const av *item, diag *d)
{
    if (size_item(item) > SIZE_ITEM_MAX)
        return diag_set(d, ST_VALIDATION, "Item size has exceeded the maximum allowed size");
    return size_check_depth(item, d);
}

status size_check_update(const av *item, diag *d)
{
    if (size_item(item) > SIZE_ITEM_MAX)
        return diag_set(d, ST_VALIDATION, "Item size to update has exceeded the maximum allowed size");
    return size_check_depth(item, d);
}

status size_check_key(const av *v, bool partition, diag *d)
{
    if (v->type != AV_S && v->type != AV_B)
        return ST_OK;
    /* DynamoDB's texts, "of2048" included. */
    if (partition && v->u.s.len > SIZE_PK_MAX)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: "
                        "Size of hashkey has exceeded the maximum size limit of2048 bytes");
    if (!partition && v->u.s.len > SIZE_SK_MAX)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: "
                        "Aggregated size of all range keys has exceeded the size limit of 1024 bytes");
    return ST_OK;
}

static uint64_t units(uint64_t bytes, uint64_t per_unit)
{
    uint64_t u = bytes / per_unit + (bytes % per_unit != 0);
    return u ? u : 1;
}

uint64_t size_read_halves(uint64_t bytes, bool consistent)
{
    uint64_t u = units(bytes, 4096);
    return consistent ? 2 * u : u;
}

uint64_t size_scan_min_halves(bool consistent)
{
    return SIZE_SCAN_PARTITIONS * size_read_halves(0, consistent);
}

uint64_t size_predict_read_halves(uint64_t items, uint64_t bytes, uint32_t limit, bool consistent,
                                  uint64_t last_min, uint64_t *pages)
{
    const uint64_t page_max = 1024 * 1024;
    uint64_t n = limit && items ? units(items, limit) : 1;
    uint64_t by_bytes = units(bytes, page_max);
    if (by_bytes > n)
        n = by_bytes;
    if (!n)
        n = 1;
    /* n pages of equal share; the remainder spread one byte a page. */
    uint64_t share = bytes / n, extra = bytes % n;
    uint64_t halves = (n - extra) * size_read_halves(share, consistent);
    if (extra)
        halves += extra * size_read_halves(share + 1, consistent);
    /* The last page (one of the smaller shares) raised to last_min. */
    uint64_t last = size_read_halves(n > extra ? share : share + 1, consistent);
    if (last < last_min)
        halves += last_min - last;
    *pages = n;
    return halves;
}

uint64_t size_write_halves(uint64_t bytes)
{
    return 2 * units(bytes, 1024);
}

size_t size_format_units(uint64_t halves, char *out)
{
    int n = snprintf(out, 24, halves % 2 ? "%llu.5" : "%llu", (unsigned long long)(halves / 2));
    return (size_t)n;
}
