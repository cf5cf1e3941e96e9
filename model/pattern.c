/*
 * pattern — access patterns, their requests and verdicts (see pattern.h).
 */
#include "model/pattern.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"

static const char *const op_names[] = { "GetItem", "Query", "Scan", "PartiQL" };

const char *pattern_op_name(pattern_op op)
{
    return (unsigned)op < 4 ? op_names[op] : "?";
}

int pattern_op_find(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcmp(name, op_names[i]) == 0)
            return i;
    return -1;
}

/* ---- the pattern and the set ------------------------------------------- */

void pattern_init(pattern *p)
{
    memset(p, 0, sizeof *p);
    p->op = PAT_QUERY;
    p->names.type = AV_NONE;
    p->max_items = -1;
    p->min_items = 1;
    p->max_units = -1;
}

static void free_strs(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

void pattern_done(pattern *p)
{
    free(p->name);
    free(p->description);
    free(p->table);
    free(p->index);
    free(p->keycond);
    free(p->filter);
    free(p->statement);
    free(p->file);
    av_done(&p->names);
    for (size_t i = 0; i < p->n_params; i++) {
        free(p->params[i].name);
        av_done(&p->params[i].example);
    }
    free(p->params);
    free_strs(p->types, p->n_types);
    memset(p, 0, sizeof *p);
}

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void pattern_copy(pattern *dst, const pattern *src)
{
    *dst = *src;
    dst->name = dup_or_null(src->name);
    dst->description = dup_or_null(src->description);
    dst->table = dup_or_null(src->table);
    dst->index = dup_or_null(src->index);
    dst->keycond = dup_or_null(src->keycond);
    dst->filter = dup_or_null(src->filter);
    dst->statement = dup_or_null(src->statement);
    dst->file = dup_or_null(src->file);
    av_copy(&dst->names, &src->names);
    dst->params = src->n_params ? xcalloc(src->n_params, sizeof *dst->params) : NULL;
    for (size_t i = 0; i < src->n_params; i++) {
        dst->params[i].name = xstrdup(src->params[i].name);
        av_copy(&dst->params[i].example, &src->params[i].example);
    }
    dst->types = src->n_types ? xcalloc(src->n_types, sizeof *dst->types) : NULL;
    for (size_t i = 0; i < src->n_types; i++)
        dst->types[i] = xstrdup(src->types[i]);
}

void pattern_set_init(pattern_set *s)
{
    memset(s, 0, sizeof *s);
}

static void rule_done(pattern_rule *r)
{
    free(r->table);
    free(r->attr);
    free_strs(r->prefix, r->n);
    free_strs(r->type, r->n);
}

void pattern_set_done(pattern_set *s)
{
    for (size_t i = 0; i < s->n; i++)
        pattern_done(&s->p[i]);
    free(s->p);
    for (size_t i = 0; i < s->n_rules; i++)
        rule_done(&s->rules[i]);
    free(s->rules);
    ent_model_done(&s->model);
    memset(s, 0, sizeof *s);
}

void pattern_set_take_model(pattern_set *s, ent_model *m)
{
    for (size_t i = 0; i < m->n; i++)
        ent_model_put(&s->model, &m->t[i]);
    ent_model_done(m);
}

bool pattern_set_types_table(const pattern_set *s, const char *table)
{
    return pattern_set_rule(s, table) || ent_model_table(&s->model, table);
}

void pattern_set_put(pattern_set *s, const pattern *p)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->p[i].name, p->name) == 0) {
            pattern_done(&s->p[i]);
            pattern_copy(&s->p[i], p);
            return;
        }
    s->p = xrealloc(s->p, (s->n + 1) * sizeof *s->p);
    pattern_copy(&s->p[s->n++], p);
}

const pattern *pattern_set_find(const pattern_set *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->p[i].name, name) == 0)
            return &s->p[i];
    return NULL;
}

const pattern_rule *pattern_set_rule(const pattern_set *s, const char *table)
{
    for (size_t i = 0; i < s->n_rules; i++)
        if (strcmp(s->rules[i].table, table) == 0)
            return &s->rules[i];
    return NULL;
}

void pattern_set_merge_rules(pattern_set *dst, const pattern_set *src)
{
    for (size_t i = 0; i < src->model.n; i++) {
        if (ent_model_table(&dst->model, src->model.t[i].name))
            continue;
        ent_table c;
        ent_table_copy(&c, &src->model.t[i]);
        ent_model_put(&dst->model, &c);
    }
    for (size_t i = 0; i < src->n_rules; i++) {
        const pattern_rule *r = &src->rules[i];
        if (pattern_set_rule(dst, r->table))
            continue;
        dst->rules = xrealloc(dst->rules, (dst->n_rules + 1) * sizeof *dst->rules);
        pattern_rule *c = &dst->rules[dst->n_rules++];
        c->table = xstrdup(r->table);
        c->attr = xstrdup(r->attr);
        c->n = r->n;
        c->prefix = r->n ? xcalloc(r->n, sizeof *c->prefix) : NULL;
        c->type = r->n ? xcalloc(r->n, sizeof *c->type) : NULL;
        for (size_t k = 0; k < r->n; k++) {
            c->prefix[k] = xstrdup(r->prefix[k]);
            c->type[k] = xstrdup(r->type[k]);
        }
    }
}

const char *pattern_entity_type(const pattern_set *s, const char *table, const av *item,
                                size_t *len)
{
    const pattern_rule *r = pattern_set_rule(s, table);
    const ent_table *t = r ? NULL : ent_model_table(&s->model, table);
    if (t) {
        const ent_entity *e = ent_table_match(t, item);
        if (e)
            *len = strlen(e->name);
        return e ? e->name : NULL;
    }
    const av *v = r ? av_map_get(item, r->attr, strlen(r->attr)) : NULL;
    if (!v || v->type != AV_S)
        return NULL;
    if (!r->n) {
        *len = v->u.s.len;
        return v->u.s.ptr;
    }
    size_t best = 0, best_len = 0;
    bool found = false;
    for (size_t k = 0; k < r->n; k++) {
        size_t pl = strlen(r->prefix[k]);
        if (pl <= v->u.s.len && memcmp(v->u.s.ptr, r->prefix[k], pl) == 0 &&
            (!found || pl > best_len)) {
            best = k;
            best_len = pl;
            found = true;
        }
    }
    if (!found)
        return NULL;
    *len = strlen(r->type[best]);
    return r->type[best];
}

/* ---- requests ---------------------------------------------------------- */

static const av *param_value(const pattern *p, const av *values, const char *name, size_t len)
{
    if (values && values->type == AV_M) {
        const av *v = av_map_get(values, name, len);
        if (v)
            return v;
    }
    for (size_t i = 0; i < p->n_params; i++)
        if (strlen(p->params[i].name) == len && memcmp(p->params[i].name, name, len) == 0)
            return &p->params[i].example;
    return NULL;
}

static size_t trim(const char **s, size_t n)
{
    while (n && (**s == ' ' || **s == '\t' || **s == '\n')) {
        (*s)++;
        n--;
    }
    while (n && ((*s)[n - 1] == ' ' || (*s)[n - 1] == '\t' || (*s)[n - 1] == '\n'))
        n--;
    return n;
}

/* One `NAME = :param` term of a GetItem's key condition into the key. */
static status key_term(const pattern *p, const av *values, const char *t, size_t n, av *key,
                       diag *d)
{
    const char *eq = memchr(t, '=', n);
    if (!eq)
        return diag_set(d, ST_VALIDATION, "pattern %s: a GetItem key condition is"
                        " KEY = :param AND KEY2 = :param2 (got '%.*s')", p->name, (int)n, t);
    const char *lhs = t, *rhs = eq + 1;
    size_t ln = trim(&lhs, (size_t)(eq - t)), rn = trim(&rhs, n - (size_t)(eq - t) - 1);
    if (ln && lhs[0] == '#') {
        const av *nm = p->names.type == AV_M ? av_map_get(&p->names, lhs, ln) : NULL;
        if (!nm || nm->type != AV_S)
            return diag_set(d, ST_VALIDATION, "pattern %s: %.*s is not in names", p->name,
                            (int)ln, lhs);
        lhs = nm->u.s.ptr;
        ln = nm->u.s.len;
    }
    if (!ln || rn < 2 || rhs[0] != ':')
        return diag_set(d, ST_VALIDATION, "pattern %s: a GetItem key condition compares each"
                        " key attribute with a :parameter (got '%.*s')", p->name, (int)n, t);
    const av *v = param_value(p, values, rhs + 1, rn - 1);
    if (!v)
        return diag_set(d, ST_VALIDATION, "pattern %s: no parameter %.*s", p->name, (int)rn, rhs);
    av c;
    av_copy(&c, v);
    av_map_put(key, lhs, ln, &c);
    return ST_OK;
}

/* "A = :p AND B = :q" into the key map. */
static status get_key(const pattern *p, const av *values, av *key, diag *d)
{
    const char *s = p->keycond ? p->keycond : "";
    av_init_list(key, AV_M);
    for (;;) {
        const char *and = NULL;
        for (const char *c = s; *c; c++)
            if ((c == s || c[-1] == ' ') && strncasecmp(c, "AND ", 4) == 0) {
                and = c;
                break;
            }
        size_t n = and ? (size_t)(and - s) : strlen(s);
        status st = key_term(p, values, s, n, key, d);
        if (st != ST_OK)
            return st;
        if (!and)
            return ST_OK;
        s = and + 4;
    }
}

status pattern_request(const pattern *p, const av *values, ddb_req *req, diag *d)
{
    ddb_req_init(req, p->op == PAT_GET ? DDB_GET : p->op == PAT_SCAN ? DDB_SCAN : DDB_QUERY);
    if (p->op == PAT_PARTIQL)
        return diag_set(d, ST_VALIDATION, "pattern %s is a PartiQL statement", p->name);
    ddb_req_set_str(&req->table, p->table);
    req->rcc = DDB_RCC_TOTAL;
    req->consistent = p->consistent;
    if (p->op == PAT_GET)
        return get_key(p, values, &req->key, d);
    ddb_req_set_str(&req->index, p->index);
    if (p->op == PAT_QUERY)
        ddb_req_set_str(&req->keycond, p->keycond);
    ddb_req_set_str(&req->filter, p->filter);
    if (p->names.type == AV_M && p->names.u.m.len)
        av_copy(&req->names, &p->names);
    if (p->n_params) {
        av_init_list(&req->values, AV_M);
        for (size_t i = 0; i < p->n_params; i++) {
            const char *nm = p->params[i].name;
            const av *v = param_value(p, values, nm, strlen(nm));
            char ph[300];
            snprintf(ph, sizeof ph, ":%s", nm);
            av c;
            av_copy(&c, v);
            av_map_put(&req->values, ph, strlen(ph), &c);
        }
    }
    req->limit = p->limit;
    req->backward = p->backward;
    return ST_OK;
}

static void add_param(pattern *p, const char *name, size_t len, const av *v)
{
    p->params = xrealloc(p->params, (p->n_params + 1) * sizeof *p->params);
    pattern_param *pp = &p->params[p->n_params++];
    pp->name = xstrndup(name, len);
    av_copy(&pp->example, v);
}

/* A GetItem's key as `A = :A AND B = :B` (placeholder names made of the
 * attribute's letters, digits and _). */
static void key_as_condition(const av *key, pattern *p)
{
    buf kc = BUF_INIT;
    for (size_t i = 0; i < key->u.m.len; i++) {
        const av_member *m = &key->u.m.v[i];
        buf ph = BUF_INIT;
        for (size_t k = 0; k < m->name_len; k++) {
            char c = m->name[k];
            bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            buf_addc(&ph, word ? c : '_');
        }
        if (!ph.len)
            buf_adds(&ph, "key");
        bool plain = strspn(m->name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
                     == m->name_len;
        if (!plain) {
            char alias[300];
            snprintf(alias, sizeof alias, "#%s", ph.data);
            if (p->names.type != AV_M)
                av_init_list(&p->names, AV_M);
            av s;
            av_init_s(&s, m->name, m->name_len);
            av_map_put(&p->names, alias, strlen(alias), &s);
        }
        buf_printf(&kc, "%s%s%s = :%s", i ? " AND " : "", plain ? "" : "#",
                   plain ? m->name : ph.data, ph.data);
        add_param(p, ph.data, ph.len, &m->val);
        buf_done(&ph);
    }
    p->keycond = buf_steal(&kc);
}

status pattern_from_req(const ddb_req *req, const char *name, pattern *out, diag *d)
{
    pattern_init(out);
    if (req->kind != DDB_GET && req->kind != DDB_QUERY && req->kind != DDB_SCAN)
        return diag_set(d, ST_VALIDATION, "an access pattern is a GetItem, Query or Scan"
                        " (this request is a %s)", ddb_op_name(ddb_kind_op(req->kind)));
    out->name = xstrdup(name);
    out->op = req->kind == DDB_GET ? PAT_GET : req->kind == DDB_SCAN ? PAT_SCAN : PAT_QUERY;
    out->table = dup_or_null(req->table);
    out->index = dup_or_null(req->index);
    out->consistent = req->consistent;
    out->backward = req->backward;
    if (req->kind == DDB_GET) {
        key_as_condition(&req->key, out);
        return ST_OK;
    }
    out->keycond = dup_or_null(req->keycond);
    out->filter = dup_or_null(req->filter);
    if (req->names.type == AV_M && req->names.u.m.len)
        av_copy(&out->names, &req->names);
    for (size_t i = 0; req->values.type == AV_M && i < req->values.u.m.len; i++) {
        const av_member *m = &req->values.u.m.v[i];
        size_t skip = m->name[0] == ':' ? 1 : 0;
        add_param(out, m->name + skip, m->name_len - skip, &m->val);
    }
    return ST_OK;
}

void pattern_partiql_params(const pattern *p, const av *values, av *out)
{
    for (size_t i = 0; i < p->n_params; i++) {
        const char *nm = p->params[i].name;
        av_copy(&out[i], param_value(p, values, nm, strlen(nm)));
    }
}

/* ---- results ----------------------------------------------------------- */

void pattern_result_init(pattern_result *r)
{
    memset(r, 0, sizeof *r);
}

void pattern_result_done(pattern_result *r)
{
    free(r->error);
    free_strs(r->types, r->n_types);
    free(r->type_counts);
    for (size_t i = 0; i < r->n_kept; i++)
        av_done(&r->kept[i]);
    free(r->kept);
    memset(r, 0, sizeof *r);
}

void pattern_result_add(pattern_result *r, const pattern_set *s, const pattern *p,
                        const av *item, bool keep)
{
    size_t len = 0;
    const char *t = pattern_entity_type(s, p->table, item, &len);
    r->items++;
    if (keep) {
        r->kept = xrealloc(r->kept, (r->n_kept + 1) * sizeof *r->kept);
        av_copy(&r->kept[r->n_kept++], item);
    }
    if (!t) {
        r->untyped++;
        return;
    }
    for (size_t i = 0; i < r->n_types; i++)
        if (strlen(r->types[i]) == len && memcmp(r->types[i], t, len) == 0) {
            r->type_counts[i]++;
            return;
        }
    r->types = xrealloc(r->types, (r->n_types + 1) * sizeof *r->types);
    r->type_counts = xrealloc(r->type_counts, (r->n_types + 1) * sizeof *r->type_counts);
    r->types[r->n_types] = xstrndup(t, len);
    r->type_counts[r->n_types++] = 1;
}

void pattern_result_fail(pattern_result *r, const char *fmt, ...)
{
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(r->error);
    r->error = buf_steal(&b);
}

/* ---- verdicts ---------------------------------------------------------- */

const char *pattern_verdict_name(pattern_verdict v)
{
    return v == PAT_PASS ? "pass" : v == PAT_WARN ? "warn" : "FAIL";
}

static bool allowed(const pattern *p, const char *t)
{
    for (size_t i = 0; i < p->n_types; i++)
        if (strcmp(p->types[i], t) == 0)
            return true;
    return false;
}

static void reason(buf *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void reason(buf *why, const char *fmt, ...)
{
    if (why->len)
        buf_adds(why, "; ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(why, fmt, ap);
    va_end(ap);
}

static void allowed_list(const pattern *p, buf *out)
{
    for (size_t i = 0; i < p->n_types; i++)
        buf_printf(out, "%s%s", i ? ", " : "", p->types[i]);
}

static void scan_reason(const pattern *p, buf *why)
{
    reason(why, "needs a Scan: reads every item of %s%s%s", p->index ? p->index : p->table,
           p->index ? " of " : "", p->index ? p->table : "");
}

bool pattern_would_scan(const pattern *p, buf *why)
{
    if (p->op != PAT_SCAN)
        return false;
    scan_reason(p, why);
    return true;
}

/* The types returned that the pattern does not allow. */
static bool wrong_types(const pattern *p, const pattern_result *r, buf *why)
{
    if (!p->n_types)
        return false;
    bool bad = false;
    buf list = BUF_INIT;
    allowed_list(p, &list);
    for (size_t i = 0; i < r->n_types; i++)
        if (!allowed(p, r->types[i])) {
            reason(why, "returned %zu %s item%s (allowed: %s)", r->type_counts[i], r->types[i],
                   r->type_counts[i] == 1 ? "" : "s", list.data);
            bad = true;
        }
    if (r->untyped) {
        reason(why, "returned %zu item%s of no known entity type (allowed: %s)", r->untyped,
               r->untyped == 1 ? "" : "s", list.data);
        bad = true;
    }
    buf_done(&list);
    return bad;
}

pattern_verdict pattern_judge(const pattern *p, const pattern_result *r, buf *why)
{
    if (r->error) {
        reason(why, "failed: %s", r->error);
        return PAT_FAIL;
    }
    bool fail = false;
    if (r->ran_as == PAT_SCAN) {
        scan_reason(p, why);
        fail = true;
    }
    if (p->max_units >= 0 && r->units > p->max_units + 1e-9) {
        reason(why, "read %g RCU, more than the %g allowed", r->units, p->max_units);
        fail = true;
    }
    if (p->max_items >= 0 && r->items > (size_t)p->max_items) {
        reason(why, "returned %zu item%s, more than the %ld allowed", r->items, r->items == 1 ? "" : "s",
               p->max_items);
        fail = true;
    }
    if (wrong_types(p, r, why))
        fail = true;
    if (p->min_items > 0 && r->items < (size_t)p->min_items) {
        reason(why, "returned %zu item%s for the example values, expected at least %ld"
               " (a changed key format or a missing index?)", r->items, r->items == 1 ? "" : "s",
               p->min_items);
        fail = true;
    }
    if (fail)
        return PAT_FAIL;
    if (r->scanned > r->items && r->scanned - r->items > r->items) {
        reason(why, "the filter discarded %llu of the %llu item%s read",
               (unsigned long long)(r->scanned - r->items), (unsigned long long)r->scanned,
               r->scanned == 1 ? "" : "s");
        return PAT_WARN;
    }
    return PAT_PASS;
}
