/*
 * mine_out — what mined patterns say: findings, names, and the access
 * patterns `ddbx check` runs (see mine.h).
 */
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/mine.h"
#include "model/num.h"

/* A mined pattern's description; mine_measured_parse reads it back. */
#define MEASURED_FORMAT "Mined from %" PRIu64 " recorded calls (%.1f%% of the traffic, %.2f a second): %.2f items" \
                        " returned and %.2f read a call, %.2f RCU a call"
#define MEASURED_SCAN "Mined from %" SCNu64 " recorded calls (%lf%% of the traffic, %lf a second): %lf items" \
                      " returned and %lf read a call, %lf RCU a call"

static void finding(mine_finding **f, size_t *n, mine_finding_kind kind, size_t which, char *text)
{
    *f = xrealloc(*f, (*n + 1) * sizeof **f);
    (*f)[(*n)++] = (mine_finding){ .kind = kind, .pattern = which, .text = text };
}

/* "Query SocialGraph.GSI1 `GSI1PK = :p1`": a pattern in a line. */
static void describe(const mine_pattern *p, buf *out)
{
    buf_printf(out, "%s %s%s%s", p->op, p->table ? p->table : "?", p->index ? "." : "", p->index ? p->index : "");
    if (p->keycond) {
        buf_adds(out, " `");
        mine_shape_text(p, p->keycond, out);
        buf_addc(out, '`');
    }
    if (p->filter) {
        buf_adds(out, " filter `");
        mine_shape_text(p, p->filter, out);
        buf_addc(out, '`');
    }
}

/* Indexes declared that no pattern read. */
static bool index_read(const mine *m, const char *table, const char *index)
{
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *p = mine_get(m, i);
        if (p->table && p->index && strcmp(p->table, table) == 0 && strcmp(p->index, index) == 0)
            return true;
    }
    return false;
}

typedef struct unused_ctx {
    const mine *m;
    mine_finding **f;
    size_t *n;
} unused_ctx;

static void unused_one(void *arg, const char *table, const char *index)
{
    unused_ctx *u = arg;
    if (index_read(u->m, table, index))
        return;
    buf b = BUF_INIT;
    buf_printf(&b, "index %s of %s: no recorded request read it (it still costs a write per item it holds,"
                   " and storage)", index, table);
    finding(u->f, u->n, MINE_F_UNUSED_INDEX, 0, buf_steal(&b));
    (*u->f)[*u->n - 1].table = xstrdup(table);
    (*u->f)[*u->n - 1].index = xstrdup(index);
}

void mine_findings(const mine *m, mine_finding **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *p = mine_get(m, i);
        if (strcmp(p->op, "Scan") == 0) {
            buf b = BUF_INIT;
            buf_printf(&b, "pattern %zu Scans: ", i + 1);
            describe(p, &b);
            buf_printf(&b, ", %" PRIu64 " calls reading %.1f items each; a Query on a key or an index serves it",
                       p->calls, p->counted ? (double)p->scanned / (double)p->counted : 0.0);
            finding(out, n, MINE_F_SCAN, i, buf_steal(&b));
        }
    }
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *p = mine_get(m, i);
        if (!p->filter || !p->scanned || 2 * p->returned >= p->scanned)
            continue;
        buf b = BUF_INIT;
        buf_printf(&b, "pattern %zu's filter keeps %.0f%% of what it reads (%" PRIu64 " of %" PRIu64 " items): ",
                   i + 1, 100.0 * (double)p->returned / (double)p->scanned, p->returned, p->scanned);
        describe(p, &b);
        buf_adds(&b, "; every item read is paid for: a key or an index that holds only those items");
        finding(out, n, MINE_F_FILTER, i, buf_steal(&b));
    }
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *p = mine_get(m, i);
        double share;
        const mine_hot *top = mine_top_key(p, &share);
        if (!mine_is_hot(p))
            continue;
        buf b = BUF_INIT;
        buf_printf(&b, "pattern %zu's hot key: %s takes %.0f%% of its %" PRIu64 " calls (%.1f a second): ", i + 1,
                   top->key, 100.0 * share, p->calls, mine_rate(m, p) * share);
        describe(p, &b);
        finding(out, n, MINE_F_HOT, i, buf_steal(&b));
    }
    unused_ctx u = { m, out, n };
    mine_each_declared(m, unused_one, &u);
}

void mine_findings_free(mine_finding *f, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(f[i].table), free(f[i].index), free(f[i].text);
    free(f);
}

void mine_pattern_name(const mine *m, size_t i, buf *out)
{
    const mine_pattern *p = mine_get(m, i);
    for (const char *s = p->op; *s; s++)
        buf_addc(out, (char)tolower((unsigned char)*s));
    if (p->table)
        buf_printf(out, "-%s", p->table);
    if (p->index)
        buf_printf(out, "-%s", p->index);
    buf_printf(out, "-%zu", i + 1);
}

/* An example value of type ty for a parameter whose value was hashed:
 * the hash itself as a string, 0, its bytes, false; an empty list or
 * map; NULL for what else. */
static void example(const char *ty, const char *hash, av *out)
{
    if (strcmp(ty, "S") == 0) {
        av_init_s(out, hash, strlen(hash));
    } else if (strcmp(ty, "N") == 0) {
        num n;
        diag d;
        diag_init(&d);
        num_parse("0", 1, &n, &d);
        av_init_n(out, &n);
    } else if (strcmp(ty, "B") == 0) {
        av_init_b(out, hash, strlen(hash));
    } else if (strcmp(ty, "BOOL") == 0) {
        av_init_bool(out, false);
    } else if (strcmp(ty, "L") == 0 || strcmp(ty, "M") == 0) {
        av_init_list(out, ty[0] == 'L' ? AV_L : AV_M);
    } else {
        av_init_null(out);
    }
}

static pattern_op op_of(const char *op)
{
    return strcmp(op, "GetItem") == 0 ? PAT_GET : strcmp(op, "Query") == 0 ? PAT_QUERY : PAT_SCAN;
}

/* Does placeholder ph ("#n2") stand whole in s? */
static bool uses(const char *s, const char *ph)
{
    size_t n = strlen(ph);
    for (const char *f = s ? strstr(s, ph) : NULL; f; f = strstr(f + 1, ph))
        if (!(f[n] >= '0' && f[n] <= '9'))
            return true;
    return false;
}

/* The rest of one pattern: its names, parameters and expectations. The
 * names only a projection used are left out (the file has no projection,
 * and DynamoDB refuses a name no expression uses). */
static void fill(const mine *m, size_t i, const mine_pattern *mp, pattern *p)
{
    if (mp->n_names && ((mp->keycond && strstr(mp->keycond, "#n")) || (mp->filter && strstr(mp->filter, "#n")))) {
        av_init_list(&p->names, AV_M);
        for (size_t k = 0; k < mp->n_names; k++) {
            char ph[32];
            int n = snprintf(ph, sizeof ph, "#n%zu", k + 1);
            if (!uses(mp->keycond, ph) && !uses(mp->filter, ph))
                continue;
            av v;
            av_init_s(&v, mp->names[k], strlen(mp->names[k]));
            av_map_put(&p->names, ph, (size_t)n, &v);
        }
    }
    p->n_params = mp->n_params;
    p->params = xcalloc(mp->n_params ? mp->n_params : 1, sizeof *p->params);
    for (size_t k = 0; k < mp->n_params; k++) {
        buf b = BUF_INIT;
        buf_printf(&b, "p%zu", k + 1);
        p->params[k].name = buf_steal(&b);
        example(mp->param_types[k], mp->param_hash[k], &p->params[k].example);
    }
    p->rate = mine_rate(m, mp);
    p->min_items = 0;
    /* Budget: what the recorded calls read at most, at least half a unit
     * (an example finds no item, and the smallest read is half a unit). */
    if (mp->units_max > 0)
        p->max_units = ceil(mp->units_max * 2) / 2;
    buf d = BUF_INIT;
    buf_printf(&d, MEASURED_FORMAT ", %.0f RCU a month at that rate",
               mp->calls, mine_calls(m) ? 100.0 * (double)mp->calls / (double)mine_calls(m) : 0.0,
               mine_rate(m, mp), mp->counted ? (double)mp->returned / (double)mp->counted : 0.0,
               mp->counted ? (double)mp->scanned / (double)mp->counted : 0.0, mine_units_per_call(mp),
               mine_units_month(m, mp));
    p->description = buf_steal(&d);
    (void)i;
}

size_t mine_to_patterns(const mine *m, const char *table, pattern_set *set)
{
    size_t made = 0;
    for (size_t i = 0; i < mine_count(m); i++) {
        const mine_pattern *mp = mine_get(m, i);
        bool read = strcmp(mp->op, "GetItem") == 0 || strcmp(mp->op, "Query") == 0 || strcmp(mp->op, "Scan") == 0;
        if (!read || !mp->table || strcmp(mp->table, table) != 0)
            continue;
        pattern p;
        pattern_init(&p);
        buf name = BUF_INIT;
        mine_pattern_name(m, i, &name);
        p.name = buf_steal(&name);
        p.op = op_of(mp->op);
        p.table = xstrdup(mp->table);
        p.index = mp->index ? xstrdup(mp->index) : NULL;
        p.keycond = mp->keycond ? xstrdup(mp->keycond) : NULL;
        p.filter = mp->filter ? xstrdup(mp->filter) : NULL;
        p.limit = mp->limit > 0 ? (uint32_t)mp->limit : 0;
        p.consistent = mp->consistent;
        p.backward = mp->backward;
        fill(m, i, mp, &p);
        pattern_set_put(set, &p);
        pattern_done(&p);
        made++;
    }
    return made;
}

bool mine_measured_parse(const char *description, mine_measured *out)
{
    memset(out, 0, sizeof *out);
    return description && sscanf(description, MEASURED_SCAN, &out->calls, &out->share, &out->rate, &out->returned,
                                 &out->read, &out->units) == 6;
}
