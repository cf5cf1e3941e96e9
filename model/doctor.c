/*
 * doctor — findings on a design (see doctor.h).
 */
#include "model/doctor.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"
#include "model/num.h"
#include "model/partiql.h"
#include "model/size.h"
#include "model/ttl.h"

static const char *const kind_names[] = {
#define DOCTOR_NAME(id, name) name,
    DOCTOR_KINDS(DOCTOR_NAME)
#undef DOCTOR_NAME
};

const char *doctor_kind_name(doctor_kind k)
{
    return (unsigned)k < DOC__COUNT ? kind_names[k] : "?";
}

void doctor_report_init(doctor_report *r)
{
    memset(r, 0, sizeof *r);
}

void doctor_report_done(doctor_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->f[i].table);
        free(r->f[i].what);
        free(r->f[i].todo);
        free(r->f[i].index);
        av_done(&r->f[i].key);
    }
    free(r->f);
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i]);
    free(r->notes);
    doctor_report_init(r);
}

/* A TTL problem seen on some items: how many, the first one's key and value. */
typedef struct ttl_seen {
    uint64_t n;
    av key;
    double value;
    char text[64];         /* the first value as written */
} ttl_seen;

struct doctor {
    char *table;
    table_def def;
    char *ttl;
    double now;
    uint64_t items;
    doctor_report r;       /* per-item findings, then the rest */
    ttl_seen ttl_string, ttl_millis, ttl_past, ttl_future;
    uint64_t strays;
    av stray_key;
};

/* The key as "PK=ACTOR#alice SK=PROFILE" (control characters as \xNN). */
static void key_text(const av *key, buf *out)
{
    for (size_t i = 0; key->type == AV_M && i < key->u.m.len; i++) {
        const av_member *m = &key->u.m.v[i];
        buf_printf(out, "%s%s=", i ? " " : "", m->name);
        buf t = BUF_INIT;
        if (!av_scalar_text(&m->val, &t))
            buf_adds(&t, "?");
        for (size_t k = 0; k < t.len; k++) {
            unsigned char c = (unsigned char)t.data[k];
            if (c < 0x20 || c == 0x7f)
                buf_printf(out, "\\x%02x", c);
            else
                buf_addc(out, (char)c);
        }
        buf_done(&t);
    }
}

static doctor_finding *add(doctor_report *r, doctor_kind k, const char *table, const av *key,
                           const char *index, const char *todo, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static doctor_finding *add(doctor_report *r, doctor_kind k, const char *table, const av *key,
                           const char *index, const char *todo, const char *fmt, ...)
{
    r->f = xrealloc(r->f, (r->n + 1) * sizeof *r->f);
    doctor_finding *f = &r->f[r->n++];
    memset(f, 0, sizeof *f);
    f->kind = k;
    f->table = xstrdup(table);
    f->index = index ? xstrdup(index) : NULL;
    f->todo = xstrdup(todo);
    f->key.type = AV_NONE;
    if (key)
        av_copy(&f->key, key);
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    f->what = buf_steal(&b);
    return f;
}

static void note(doctor_report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void note(doctor_report *r, const char *fmt, ...)
{
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    r->notes = xrealloc(r->notes, (r->n_notes + 1) * sizeof *r->notes);
    r->notes[r->n_notes++] = buf_steal(&b);
}

doctor *doctor_new(const char *table, const table_def *def, const char *ttl_attr, double now)
{
    doctor *x = xcalloc(1, sizeof *x);
    x->table = xstrdup(table);
    table_def_copy(&x->def, def);
    x->ttl = ttl_attr ? xstrdup(ttl_attr) : NULL;
    x->now = now;
    ttl_seen *all[] = { &x->ttl_string, &x->ttl_millis, &x->ttl_past, &x->ttl_future };
    for (int i = 0; i < 4; i++)
        all[i]->key.type = AV_NONE;
    x->stray_key.type = AV_NONE;
    return x;
}

static void seen(doctor *x, ttl_seen *s, const av *item, double value, const av *v)
{
    if (s->n++)
        return;
    table_def_key_of(&x->def, item, &s->key);
    s->value = value;
    buf t = BUF_INIT;
    if (av_scalar_text(v, &t))
        snprintf(s->text, sizeof s->text, "%s", t.data);
    buf_done(&t);
}

#define YEAR_S (365.25 * 24 * 3600)

static void check_ttl(doctor *x, const av *item)
{
    const av *v = av_map_get(item, x->ttl, strlen(x->ttl));
    if (!v)
        return;
    if (v->type == AV_S) {
        seen(x, &x->ttl_string, item, 0, v);
        return;
    }
    double e;
    if (v->type != AV_N || !ttl_expiry(item, x->ttl, &e))
        return;
    if (e >= 1e11)
        seen(x, &x->ttl_millis, item, e, v);
    else if (e < x->now - TTL_MAX_AGE_S)
        seen(x, &x->ttl_past, item, e, v);
    else if (e > x->now + 100 * YEAR_S)
        seen(x, &x->ttl_future, item, e, v);
}

void doctor_item(doctor *x, const ent_table *declared, const av *item)
{
    x->items++;
    size_t size = size_item(item);
    if (size > DOCTOR_BIG_ITEM) {
        av key;
        table_def_key_of(&x->def, item, &key);
        buf k = BUF_INIT;
        key_text(&key, &k);
        add(&x->r, DOC_BIG_ITEM, x->table, &key, NULL,
            "split it into items of one item collection (vertical partitioning: the large"
            " attributes under their own sort keys), or keep the large part in S3 and its key here",
            "the item %s is %.1f KB, %.0f%% of the 400 KB item limit", k.data, size / 1024.0,
            100.0 * (double)size / SIZE_ITEM_MAX);
        buf_done(&k);
        av_done(&key);
    }
    if (x->ttl)
        check_ttl(x, item);
    if (declared && !ent_table_match(declared, item)) {
        if (!x->strays++)
            table_def_key_of(&x->def, item, &x->stray_key);
    }
}

/* A partition key as text ("?" for a non-scalar, which a key never is). */
static void pk_text(const av *pk, buf *out)
{
    if (!av_scalar_text(pk, out))
        buf_adds(out, "?");
}

/* How many times the mean of the other partitions n is: HUGE_VAL above
 * none (the only partition, or the others empty), 0 when the totals do
 * not hold n (stale). */
static double times_rest(uint64_t n, uint64_t total, uint64_t parts)
{
    if (n > total || parts == 0)
        return 0;
    if (parts == 1)
        return n ? HUGE_VAL : 0;
    double rest = (double)(total - n) / (double)(parts - 1);
    return rest > 0 ? (double)n / rest : n > 0 ? HUGE_VAL : 0;
}

bool doctor_hot(uint64_t items, uint64_t bytes, uint64_t total_items, uint64_t total_bytes, uint64_t parts)
{
    if (items < DOCTOR_HOT_MIN)
        return false;
    return times_rest(items, total_items, parts) >= DOCTOR_HOT_TIMES ||
           (bytes && total_bytes && times_rest(bytes, total_bytes, parts) >= DOCTOR_HOT_TIMES);
}

/* "150 times", "more than 1,000 times" (the rest all but empty). */
static void times_text(buf *out, double t)
{
    if (t >= 1000)
        buf_adds(out, "over 1000 times");
    else
        buf_printf(out, "%.*f times", t < 10 ? 1 : 0, t);
}

void doctor_partition(doctor *x, const char *index, const av *pk, uint64_t items, uint64_t bytes,
                      uint64_t total_items, uint64_t total_bytes, uint64_t parts)
{
    if (!doctor_hot(items, bytes, total_items, total_bytes, parts))
        return;
    double si = total_items ? (double)items / (double)total_items : 0;
    double sb = total_bytes ? (double)bytes / (double)total_bytes : 0;
    buf k = BUF_INIT, ti = BUF_INIT, tb = BUF_INIT;
    pk_text(pk, &k);
    if (parts < 2) {
        buf_adds(&ti, "the only partition (its key has one value): every read and write goes to it");
    } else {
        times_text(&tb, times_rest(items, total_items, parts));
        buf_printf(&ti, "%s the mean of the other %llu partitions in items and ", tb.data,
                   (unsigned long long)(parts - 1));
        buf_reset(&tb);
        times_text(&tb, times_rest(bytes, total_bytes, parts));
        buf_printf(&ti, "%s in bytes", tb.data);
    }
    add(&x->r, DOC_HOT_PARTITION, x->table, NULL, index,
        "spread it: write-shard the key (a suffix #0..#N, as the samples' celebrity), or key it by"
        " something with more values; a partition serves at most 3000 read and 1000 write units"
        " a second",
        "the partition %s of %s%s holds %.0f%% of its items (%llu of %llu) and %.0f%% of its bytes, %s",
        k.data, index ? "index " : "", index ? index : "the table", si * 100,
        (unsigned long long)items, (unsigned long long)total_items, sb * 100, ti.data);
    buf_done(&k);
    buf_done(&ti);
    buf_done(&tb);
}

void doctor_collection(doctor *x, const av *pk, uint64_t bytes)
{
    if (bytes <= SIZE_COLLECTION_MAX / 5 * 4)
        return;
    buf k = BUF_INIT;
    pk_text(pk, &k);
    add(&x->r, DOC_COLLECTION_SIZE, x->table, NULL, NULL,
        "a table with an LSI refuses writes to an item collection past 10 GB: move items out of"
        " the partition, or use a GSI instead of the LSI (GSIs have no such limit)",
        "the item collection %s holds %.2f GB with its LSI entries, %.0f%% of the 10 GB limit",
        k.data, (double)bytes / (1024.0 * 1024 * 1024), 100.0 * (double)bytes / SIZE_COLLECTION_MAX);
    buf_done(&k);
}

static void ttl_findings(doctor *x)
{
    static const struct {
        size_t off;
        doctor_kind kind;
        const char *what, *todo;
    } kinds[] = {
        { offsetof(doctor, ttl_string), DOC_TTL_STRING, "a String",
          "store the expiry as a Number of epoch seconds: DynamoDB's TTL reads nothing else, so"
          " these items never expire" },
        { offsetof(doctor, ttl_millis), DOC_TTL_MILLIS, "epoch milliseconds (or finer), not seconds",
          "divide by 1000: DynamoDB reads epoch seconds, so these expire in thousands of years" },
        { offsetof(doctor, ttl_past), DOC_TTL_PAST, "more than five years in the past",
          "DynamoDB ignores an expiry older than five years: delete these items yourself, or fix"
          " the value" },
        { offsetof(doctor, ttl_future), DOC_TTL_FUTURE, "more than a hundred years ahead",
          "check the unit and the clock that wrote it; as it is, these items stay" },
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        ttl_seen *s = (ttl_seen *)((char *)x + kinds[i].off);
        if (!s->n)
            continue;
        buf k = BUF_INIT;
        key_text(&s->key, &k);
        add(&x->r, kinds[i].kind, x->table, &s->key, NULL, kinds[i].todo,
            "%llu item%s whose TTL attribute %s is %s (the first: %s, %s = %s)",
            (unsigned long long)s->n, s->n == 1 ? "" : "s", x->ttl, kinds[i].what, k.data, x->ttl,
            s->text);
        buf_done(&k);
        av_done(&s->key);
    }
}

/* Is the name one a TTL attribute is given (ttl, expiresAt, expiry...)? */
static bool ttl_like(const char *name)
{
    static const char *const starts[] = { "ttl", "expire", "expiry", "expiration", "expires" };
    for (size_t i = 0; i < sizeof starts / sizeof *starts; i++)
        if (strncasecmp(name, starts[i], strlen(starts[i])) == 0)
            return true;
    return strcasecmp(name + (strlen(name) > 3 ? strlen(name) - 3 : 0), "ttl") == 0;
}

/* The indexes a pattern reads: its own, or a PartiQL SELECT's FROM "T"."I". */
static const char *pattern_index(const pattern *p, pq_stmt **keep)
{
    *keep = NULL;
    if (p->op != PAT_PARTIQL)
        return p->index;
    diag d;
    diag_init(&d);
    if (!p->statement)
        return NULL;
    /* Parsed with its example values for its ? (a statement and its
     * parameters go together). */
    av *params = p->n_params ? xcalloc(p->n_params, sizeof *params) : NULL;
    pattern_partiql_params(p, NULL, params);
    status st = pq_parse(p->statement, strlen(p->statement), params, p->n_params, keep, &d);
    for (size_t i = 0; i < p->n_params; i++)
        av_done(&params[i]);
    free(params);
    if (st != ST_OK) {
        *keep = NULL;
        return NULL;
    }
    return pq_index(*keep);
}

static void index_findings(doctor *x, const ent_table *inferred, const pattern_set *const *sets,
                           size_t n_sets)
{
    size_t n_pats = 0;
    for (size_t s = 0; s < n_sets; s++)
        for (size_t i = 0; i < sets[s]->n; i++)
            n_pats += strcmp(sets[s]->p[i].table, x->table) == 0;
    if (!n_pats) {
        if (x->def.n_idx)
            note(&x->r, "%s: no access pattern names the table, so whether its indexes are used"
                        " cannot be judged (write its patterns in a pattern file)", x->table);
        return;
    }
    for (size_t k = 0; k < x->def.n_idx; k++) {
        const index_def *ix = &x->def.idx[k];
        bool used = false;
        /* Per entity of the table: the patterns reading the index that
         * expect it there. */
        size_t ne = inferred ? inferred->n : 0;
        buf *expecting = ne ? xcalloc(ne, sizeof *expecting) : NULL;
        for (size_t s = 0; s < n_sets; s++)
            for (size_t i = 0; i < sets[s]->n; i++) {
                const pattern *p = &sets[s]->p[i];
                pq_stmt *st;
                const char *pi = pattern_index(p, &st);
                bool reads = strcmp(p->table, x->table) == 0 && pi && strcmp(pi, ix->name) == 0;
                pq_free(st);
                if (!reads)
                    continue;
                used = true;
                for (size_t t = 0; t < p->n_types; t++)
                    for (size_t e = 0; e < ne; e++)
                        if (strcmp(inferred->e[e].name, p->types[t]) == 0)
                            buf_printf(&expecting[e], "%s%s", expecting[e].len ? ", " : "", p->name);
            }
        for (size_t e = 0; e < ne; e++) {
            const ent_entity *en = &inferred->e[e];
            if (expecting[e].len && k < en->n_idx && en->idx[k].count < en->count)
                add(&x->r, DOC_SPARSE_INDEX, x->table, NULL, ix->name,
                    "give every such item the index's key attributes (with their types), or take the"
                    " entity out of the patterns' entity_types if the index is sparse on purpose",
                    "%llu of %llu %s items lack %s%s%s (or hold another type), so the index %s misses"
                    " them, yet the pattern%s %s read%s %s and expect%s %s there",
                    (unsigned long long)(en->count - en->idx[k].count), (unsigned long long)en->count,
                    en->name, ix->pk.name, ix->sk.name ? " or " : "", ix->sk.name ? ix->sk.name : "",
                    ix->name, strchr(expecting[e].data, ',') ? "s" : "", expecting[e].data,
                    strchr(expecting[e].data, ',') ? "" : "s", ix->name,
                    strchr(expecting[e].data, ',') ? "" : "s", en->name);
            buf_done(&expecting[e]);
        }
        free(expecting);
        if (!used)
            add(&x->r, DOC_UNUSED_INDEX, x->table, NULL, ix->name,
                "delete it (:delete-index, or UpdateTable) if no application reads it: every write"
                " of an item in it pays for the copy, and it is stored; :what-if shows the change",
                "no access pattern reads the %s %s (%llu pattern%s of %s name other indexes or the"
                " table)", ix->global ? "GSI" : "LSI", ix->name, (unsigned long long)n_pats,
                n_pats == 1 ? "" : "s", x->table);
    }
    if (x->def.n_idx)
        note(&x->r, "%s: whether anybody reads an index is not in the data; DynamoDB's CloudWatch"
                    " metrics (ConsumedReadCapacityUnits per GlobalSecondaryIndexName) say it",
             x->table);
}

static void entity_findings(doctor *x, const ent_table *inferred)
{
    for (size_t i = 0; i < inferred->n; i++) {
        const ent_entity *e = &inferred->e[i];
        for (size_t a = 0; a < e->n_attrs; a++) {
            const ent_attr *at = &e->attrs[a];
            if (!ent_attr_mixed(at))
                continue;
            buf t = BUF_INIT;
            ent_attr_types_text(at, &t);
            add(&x->r, DOC_MIXED_TYPES, x->table, NULL, NULL,
                "make the writers agree on one type: a condition or filter compares within one"
                " type only, and a key attribute of the wrong type keeps the item out of an index",
                "the attribute %s of %s items holds more than one type: %s", at->name, e->name,
                t.data);
            buf_done(&t);
        }
    }
    if (x->ttl)
        return;
    for (size_t i = 0; i < inferred->n; i++)
        for (size_t a = 0; a < inferred->e[i].n_attrs; a++) {
            const ent_attr *at = &inferred->e[i].attrs[a];
            if (!ttl_like(at->name) || !at->types[AV_N])
                continue;
            add(&x->r, DOC_TTL_DISABLED, x->table, NULL, NULL,
                "enable TTL on it (:ttl ATTRIBUTE, or UpdateTimeToLive) if it is meant to expire"
                " items; else rename it, so nobody relies on it",
                "TTL is disabled, yet %llu %s items have the Number %s, named like an expiry time",
                (unsigned long long)at->types[AV_N], inferred->e[i].name, at->name);
            return;
        }
}

void doctor_finish(doctor *x, const ent_table *inferred, const ent_table *declared,
                   const pattern_set *const *sets, size_t n_sets, doctor_report *out)
{
    ttl_findings(x);
    uint64_t strays = declared ? x->strays : inferred ? inferred->strays : 0;
    if (strays) {
        const av *key = declared ? &x->stray_key : inferred && inferred->n_strays_keys
                                                       ? &inferred->strays_keys[0] : NULL;
        buf k = BUF_INIT;
        if (key && key->type == AV_M)
            key_text(key, &k);
        add(&x->r, DOC_NO_ENTITY, x->table, key && key->type == AV_M ? key : NULL, NULL,
            declared ? "give it the keys of one of the model's entities, or add its kind to the"
                       " model file"
                     : "give it the type attribute the other items have, or delete it if it is a"
                       " stray",
            "%llu item%s match%s no entity of the %s (the first: %s)", (unsigned long long)strays,
            strays == 1 ? "" : "s", strays == 1 ? "es" : "", declared ? "model file" : "table's type attribute",
            k.len ? k.data : "?");
        buf_done(&k);
    }
    if (inferred)
        entity_findings(x, inferred);
    index_findings(x, inferred, sets, n_sets);
    /* Hand over: findings, then notes. */
    for (size_t i = 0; i < x->r.n; i++) {
        out->f = xrealloc(out->f, (out->n + 1) * sizeof *out->f);
        out->f[out->n++] = x->r.f[i];
    }
    for (size_t i = 0; i < x->r.n_notes; i++) {
        out->notes = xrealloc(out->notes, (out->n_notes + 1) * sizeof *out->notes);
        out->notes[out->n_notes++] = x->r.notes[i];
    }
    free(x->r.f);
    free(x->r.notes);
    av_done(&x->stray_key);
    table_def_free(&x->def);
    free(x->table);
    free(x->ttl);
    free(x);
}
