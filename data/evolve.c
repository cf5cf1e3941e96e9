/*
 * evolve — the backfill and the index of `ddbx evolve` (see evolve.h).
 */
#include "data/evolve.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/jsonread.h"
#include "data/timing.h"
#include "data/store_int.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

void evolve_counts_init(evolve_counts *c)
{
    memset(c, 0, sizeof *c);
}

void evolve_counts_done(evolve_counts *c)
{
    for (size_t i = 0; i < c->n_why; i++)
        free(c->why[i].text);
    for (size_t i = 0; i < c->n_named; i++)
        free(c->named[i]);
    free(c->why);
    free(c->named);
    av_done(&c->before);
    av_done(&c->after);
    memset(c, 0, sizeof *c);
}

static void count_why(evolve_counts *c, const char *text, uint64_t n)
{
    c->left_out += n;
    for (size_t i = 0; i < c->n_why; i++)
        if (strcmp(c->why[i].text, text) == 0) {
            c->why[i].n += n;
            return;
        }
    c->why = xrealloc(c->why, (c->n_why + 1) * sizeof *c->why);
    c->why[c->n_why++] = (evolve_reason){ xstrdup(text), n };
}

/* ---- deciding one item ---------------------------------------------------- */

typedef enum { D_GETS, D_ALREADY, D_LEFT } decision;

/* What item gets: vals[0] hash, vals[1] range (AV_NONE for a named form
 * or no range); or why not, in why. */
static decision decide(const evolve_spec *sp, evolve_counts *c, const av *item, av vals[2], buf *why)
{
    const keytmpl *t[2] = { sp->hash, sp->range };
    av_type *kt[2] = { &c->hash_type, &c->range_type };
    buf where = BUF_INIT;
    decision r = D_ALREADY;
    vals[0].type = vals[1].type = AV_NONE;
    for (int i = 0; i < 2 && r != D_LEFT; i++) {
        if (!t[i])
            continue;
        av v;
        av_type ty = AV_NONE;
        keytmpl_why w = keytmpl_apply(t[i], item, i == 0, &v, &where, &ty);
        buf_reset(why);
        if (w == KEYTMPL_TYPE)
            buf_printf(why, "%s: %s (%s)", keytmpl_why_text(w), where.data, av_type_name(ty));
        else if (w != KEYTMPL_OK)
            buf_printf(why, "%s: %s", keytmpl_why_text(w), where.data);
        if (w != KEYTMPL_OK) {
            r = D_LEFT;
            break;
        }
        /* An index key has one type: the first value's. */
        if (*kt[i] == AV_NONE)
            *kt[i] = v.type;
        if (v.type != *kt[i]) {
            buf_printf(why, "%s is %s, the index key is %s", keytmpl_named(t[i]) ? t[i]->names[0] : t[i]->attr,
                       av_type_name(v.type), av_type_name(*kt[i]));
            av_done(&v);
            r = D_LEFT;
            break;
        }
        if (keytmpl_named(t[i])) {
            for (size_t k = 0; k < t[i]->n_names && k < SCHEMA_MAX_KEY_PARTS; k++) {
                const av *p = av_map_get(item, t[i]->names[k], strlen(t[i]->names[k]));
                if (p && c->part_types[i][k] == AV_NONE)
                    c->part_types[i][k] = p->type;
            }
            av_done(&v);
            if (r == D_ALREADY && !t[i ^ 1])
                r = D_GETS;   /* nothing to write: indexed as it is */
            continue;
        }
        const av *old = av_map_get(item, t[i]->attr, strlen(t[i]->attr));
        if (old && !av_equal(old, &v)) {
            buf_printf(why, "%s holds another value (not overwritten)", t[i]->attr);
            av_done(&v);
            r = D_LEFT;
            break;
        }
        if (!old)
            r = D_GETS;
        vals[i] = v;
    }
    buf_done(&where);
    if (r == D_LEFT) {
        av_done(&vals[0]);
        av_done(&vals[1]);
    }
    return r;
}

/* ---- the conditional write -------------------------------------------------- */

typedef struct cond_ctx {
    buf *cond;
    av *names, *values;
    const av *item;
    int n;
} cond_ctx;

static void name(av *names, const char *key, const char *val)
{
    av s;
    av_init_s(&s, val, strlen(val));
    av_map_put(names, key, strlen(key), &s);
}

/* "AND #sN_0.#sN_1 = :sN" for a source path, with what was read. */
static void cond_path(void *ctx, char *const *path, size_t n)
{
    cond_ctx *x = ctx;
    const av *v = x->item;
    for (size_t i = 0; i < n && v; i++)
        v = v->type == AV_M ? av_map_get(v, path[i], strlen(path[i])) : NULL;
    if (!v)
        return;   /* decide() needs it: never here for an item that gets them */
    char key[32];
    buf_adds(x->cond, " AND ");
    for (size_t i = 0; i < n; i++) {
        snprintf(key, sizeof key, "#s%d_%zu", x->n, i);
        buf_printf(x->cond, "%s%s", i ? "." : "", key);
        name(x->names, key, path[i]);
    }
    snprintf(key, sizeof key, ":s%d", x->n++);
    buf_printf(x->cond, " = %s", key);
    av c;
    av_copy(&c, v);
    av_map_put(x->values, key, strlen(key), &c);
}

static void key_of(store *s, const table_def *def, const av *item, av *key)
{
    av_init_list(key, AV_M);
    const key_attr *k[2] = { &def->pk, &def->sk };
    for (int i = 0; i < 2; i++) {
        if (!k[i]->name)
            continue;
        const av *v = av_map_get(item, k[i]->name, strlen(k[i]->name));
        if (v) {
            av c;
            av_copy(&c, v);
            av_map_put(key, k[i]->name, strlen(k[i]->name), &c);
        }
    }
}

/* One UpdateItem: vals set, on the condition that they are absent and
 * their sources unchanged. */
static status write_one(store *s, const evolve_spec *sp, const table_def *def, const av *item,
                        av vals[2], double *wcu, ddb_err *err)
{
    ddb_req q;
    ddb_req_init(&q, DDB_UPDATE);
    ddb_req_set_str(&q.table, sp->table);
    key_of(s, def, item, &q.key);
    av_init_list(&q.names, AV_M);
    av_init_list(&q.values, AV_M);
    buf set = BUF_INIT, cond = BUF_INIT;
    const keytmpl *t[2] = { sp->hash, sp->range };
    cond_ctx x = { &cond, &q.names, &q.values, item, 0 };
    for (int i = 0; i < 2; i++) {
        if (vals[i].type == AV_NONE)
            continue;
        char nk[8], vk[8];
        snprintf(nk, sizeof nk, "#t%d", i);
        snprintf(vk, sizeof vk, ":t%d", i);
        name(&q.names, nk, t[i]->attr);
        av c;
        av_copy(&c, &vals[i]);
        av_map_put(&q.values, vk, strlen(vk), &c);
        buf_printf(&set, "%s%s = %s", set.len ? ", " : "SET ", nk, vk);
        buf_printf(&cond, "%sattribute_not_exists(%s)", cond.len ? " AND " : "", nk);
    }
    for (int i = 0; i < 2; i++)
        if (t[i])
            keytmpl_paths(t[i], cond_path, &x);
    q.update = buf_steal(&set);
    q.cond = buf_steal(&cond);
    q.rcc = DDB_RCC_TOTAL;
    ddb_res res;
    ddb_res_init(&res);
    status st = store_exec(s, &q, &res, err);
    if (st == ST_OK)
        *wcu += res.n_caps ? res.caps[0].units : 1;
    ddb_res_done(&res);
    ddb_req_done(&q);
    return st;
}

/* The item as it is now (consistent read); *found false when gone. */
static status reread(store *s, const evolve_spec *sp, const table_def *def, const av *item, av *now,
                     bool *found, evolve_counts *c, diag *d)
{
    ddb_req q;
    ddb_req_init(&q, DDB_GET);
    ddb_req_set_str(&q.table, sp->table);
    key_of(s, def, item, &q.key);
    q.consistent = true;
    q.rcc = DDB_RCC_TOTAL;
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    status st = store_exec(s, &q, &res, &err);
    if (st == ST_OK) {
        *found = res.found;
        if (res.found)
            av_move(now, &res.item);
        c->rcu += res.n_caps ? res.caps[0].units : 0;
    } else {
        diag_set(d, st, "%s", err.message ? err.message : err.d.msg);
    }
    ddb_err_done(&err);
    ddb_res_done(&res);
    ddb_req_done(&q);
    return st;
}

/* Keeps to sp->rate: sleeps while more units were written than the
 * rate allows since start. */
static void pace(const evolve_spec *sp, double start, double units)
{
    if (sp->rate <= 0)
        return;
    double ahead = units / sp->rate - (timing_now_s() - start);
    if (ahead > 0.001)
        usleep((useconds_t)(ahead * 1e6));
}

static void name_item(evolve_counts *c, const table_def *def, const av *item)
{
    av key;
    key_of(NULL, def, item, &key);
    buf b = BUF_INIT;
    ddbjson_write_item(&b, &key);
    av_done(&key);
    c->named = xrealloc(c->named, (c->n_named + 1) * sizeof *c->named);
    c->named[c->n_named++] = buf_steal(&b);
}

/* The first item that gets the attributes, before and after. */
static void keep_sample(const evolve_spec *sp, evolve_counts *c, const av *item, const av vals[2])
{
    if (c->before.type != AV_NONE)
        return;
    av_copy(&c->before, item);
    av_copy(&c->after, item);
    const keytmpl *t[2] = { sp->hash, sp->range };
    for (int i = 0; i < 2; i++)
        if (vals[i].type != AV_NONE) {
            av v;
            av_copy(&v, &vals[i]);
            av_map_put(&c->after, t[i]->attr, strlen(t[i]->attr), &v);
        }
}

/* Decides and (not dry) writes one item; the item changed meanwhile is
 * read again and decided again. */
static status one_item(store *s, const evolve_spec *sp, const table_def *def, const av *item0,
                       evolve_counts *c, double start, bool in_txn, diag *d)
{
    av cur;
    av_copy(&cur, item0);
    status st = ST_OK;
    buf why = BUF_INIT;
    for (int attempt = 0;; attempt++) {
        av vals[2];
        decision r = decide(sp, c, &cur, vals, &why);
        if (r == D_LEFT) {
            count_why(c, why.data, 1);
            break;
        }
        if (r == D_ALREADY) {
            av_done(&vals[0]);
            av_done(&vals[1]);
            c->already++;
            break;
        }
        if (sp->dry || (vals[0].type == AV_NONE && vals[1].type == AV_NONE)) {
            c->gets++;
            keep_sample(sp, c, &cur, vals);
            if (sp->copy) {
                const keytmpl *t[2] = { sp->hash, sp->range };
                for (int i = 0; i < 2; i++)
                    if (vals[i].type != AV_NONE)
                        av_map_put(&cur, t[i]->attr, strlen(t[i]->attr), &vals[i]);
            }
            av_done(&vals[0]);
            av_done(&vals[1]);
            break;
        }
        if (!c->wrote_any && sp->first_write) {
            /* The backup cannot be taken inside the page's transaction,
             * which has written nothing yet: out of it and back. */
            if (in_txn)
                st = store_commit(s, d);
            if (st == ST_OK)
                st = sp->first_write(sp->ctx, d);
            if (in_txn && st == ST_OK)
                st = store_begin(s, d);
            else if (in_txn)
                store_begin(s, d);   /* evolve_run commits it (empty) */
            if (st != ST_OK) {
                av_done(&vals[0]);
                av_done(&vals[1]);
                break;
            }
        }
        c->wrote_any = true;
        ddb_err err;
        ddb_err_init(&err);
        st = write_one(s, sp, def, &cur, vals, &c->wcu, &err);
        if (st == ST_OK) {
            c->gets++;
            c->written++;
            keep_sample(sp, c, &cur, vals);
        } else if (st != ST_CONDITION_FAILED) {
            diag_set(d, st, "%s", err.message ? err.message : err.d.msg);
        }
        av_done(&vals[0]);
        av_done(&vals[1]);
        ddb_err_done(&err);
        if (!in_txn)   /* a local page is paced after its commit: no lock held asleep */
            pace(sp, start, c->wcu);
        if (st != ST_CONDITION_FAILED)
            break;
        /* Changed since it was read: as it is now, decided again. */
        st = ST_OK;
        c->retried++;
        bool found = false;
        av now = { .type = AV_NONE };
        if (attempt + 1 >= EVOLVE_RETRIES ||
            (st = reread(s, sp, def, &cur, &now, &found, c, d)) != ST_OK || !found) {
            if (st == ST_OK)
                name_item(c, def, &cur);
            av_done(&now);
            break;
        }
        av_done(&cur);
        av_move(&cur, &now);
    }
    c->read++;
    if (st == ST_OK && sp->dry && sp->copy)
        st = store_put_item(sp->copy, sp->table, &cur, d);
    av_done(&cur);
    buf_done(&why);
    return st;
}

/* ---- the checkpoint --------------------------------------------------------- */

static void ck_str(buf *b, const char *name, const char *v)
{
    buf_printf(b, "\"%s\":", name);
    if (v)
        ddbjson_write_string(b, v, strlen(v));
    else
        buf_adds(b, "null");
    buf_addc(b, ',');
}

/* Written to a temporary file and renamed over the old one: a kill
 * leaves the old checkpoint or the new, never half of one. */
static status ck_write(const evolve_spec *sp, const evolve_counts *c, const av *last, diag *d)
{
    buf b = BUF_INIT;
    buf_addc(&b, '{');
    ck_str(&b, "table", sp->table);
    ck_str(&b, "index", sp->index);
    ck_str(&b, "hash", sp->hash->text);
    ck_str(&b, "range", sp->range ? sp->range->text : NULL);
    ck_str(&b, "where", sp->where);
    buf_printf(&b, "\"read\":%llu,\"gets\":%llu,\"written\":%llu,\"already\":%llu,\"retried\":%llu,"
                   "\"wcu\":%.17g,\"hash_type\":\"%s\",\"range_type\":\"%s\",\"left_out\":{",
               (unsigned long long)c->read, (unsigned long long)c->gets,
               (unsigned long long)(c->written + c->written_before), (unsigned long long)c->already,
               (unsigned long long)c->retried, c->wcu,
               av_type_name(c->hash_type), av_type_name(c->range_type));
    for (size_t i = 0; i < c->n_why; i++) {
        buf_adds(&b, i ? "," : "");
        ddbjson_write_string(&b, c->why[i].text, strlen(c->why[i].text));
        buf_printf(&b, ":%llu", (unsigned long long)c->why[i].n);
    }
    buf_adds(&b, "},\"last_key\":");
    ddbjson_write_item(&b, last);
    buf_adds(&b, "}\n");
    buf tmp = BUF_INIT;
    buf_printf(&tmp, "%s.tmp", sp->checkpoint);
    FILE *f = fopen(tmp.data, "w");
    status st = ST_OK;
    if (!f || fwrite(b.data, 1, b.len, f) != b.len || fclose(f) != 0 || rename(tmp.data, sp->checkpoint) != 0)
        st = diag_set(d, ST_IO, "cannot write the checkpoint %s", sp->checkpoint);
    buf_done(&tmp);
    buf_done(&b);
    return st;
}

static const char *js(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static uint64_t jn(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? (uint64_t)v->valuedouble : 0;
}

static bool same(const char *a, const char *b)
{
    return a && b ? strcmp(a, b) == 0 : a == b;
}

/* A checkpoint of this evolution: *start its last key, c its counts.
 * None: ST_OK with start AV_NONE. Another's: ST_USAGE. */
static status ck_read(const evolve_spec *sp, evolve_counts *c, av *start, diag *d)
{
    start->type = AV_NONE;
    if (!sp->checkpoint || access(sp->checkpoint, F_OK) != 0)
        return ST_OK;
    buf b = BUF_INIT;
    if (jsonread_load(sp->checkpoint, &b, d) != ST_OK) {
        buf_done(&b);
        char why[sizeof d->msg];
        snprintf(why, sizeof why, "%s", d->msg);
        return diag_set(d, ST_USAGE, "the checkpoint %s cannot be read: %s", sp->checkpoint, why);
    }
    cJSON *j = b.data ? cJSON_Parse(b.data) : NULL;
    buf_done(&b);
    status st = ST_OK;
    if (!j) {
        st = diag_set(d, ST_USAGE, "the checkpoint %s is not JSON: remove it to start again",
                      sp->checkpoint);
    } else if (!same(js(j, "table"), sp->table) || !same(js(j, "index"), sp->index) ||
               !same(js(j, "hash"), sp->hash->text) ||
               !same(js(j, "range"), sp->range ? sp->range->text : NULL) || !same(js(j, "where"), sp->where)) {
        st = diag_set(d, ST_USAGE, "the checkpoint %s is of another evolution (%s --index %s --hash %s"
                      " on %s): finish that one, or remove the file", sp->checkpoint,
                      js(j, "table") ? js(j, "table") : "?", js(j, "index") ? js(j, "index") : "?",
                      js(j, "hash") ? js(j, "hash") : "?", js(j, "where") ? js(j, "where") : "?");
    } else {
        c->read = jn(j, "read");
        c->gets = jn(j, "gets");
        c->written_before = jn(j, "written");
        c->already = jn(j, "already");
        c->retried = jn(j, "retried");
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(j, "wcu");
        c->wcu = cJSON_IsNumber(w) ? w->valuedouble : 0;
        const char *ht = js(j, "hash_type"), *rt = js(j, "range_type");
        c->hash_type = ht ? av_type_from_name(ht, strlen(ht)) : AV_NONE;
        c->range_type = rt ? av_type_from_name(rt, strlen(rt)) : AV_NONE;
        const cJSON *lo = cJSON_GetObjectItemCaseSensitive(j, "left_out"), *e;
        cJSON_ArrayForEach(e, lo)
            if (cJSON_IsNumber(e))
                count_why(c, e->string, (uint64_t)e->valuedouble);
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "last_key");
        if (k && ddbjson_item_from_cjson(k, "last_key", start, d) != ST_OK)
            st = diag_set(d, ST_USAGE, "the checkpoint %s has no key to go on from: remove it to start again",
                          sp->checkpoint);
        c->resumed = st == ST_OK;
    }
    cJSON_Delete(j);
    return st;
}

/* ---- the pass ------------------------------------------------------------------ */

status evolve_run(store *s, const evolve_spec *sp, evolve_counts *c, diag *d)
{
    table_def def;
    status st = store_describe(s, sp->table, &def, d);
    if (st != ST_OK)
        return st;
    av start;
    if ((st = ck_read(sp, c, &start, d)) != ST_OK) {
        table_def_free(&def);
        return st;
    }
    store_info info;
    store_get_info(s, &info);
    bool local = !info.remote;
    av last = { .type = AV_NONE };
    double t0 = timing_now_s(), w0 = c->wcu;
    bool more = true;
    while (st == ST_OK && more && !c->stopped) {
        ddb_req q;
        ddb_req_init(&q, DDB_SCAN);
        ddb_req_set_str(&q.table, sp->table);
        q.limit = EVOLVE_PAGE;
        q.rcc = DDB_RCC_TOTAL;
        q.consistent = true;
        if (start.type == AV_M)
            av_move(&q.start, &start);
        ddb_res res;
        ddb_res_init(&res);
        ddb_err err;
        ddb_err_init(&err);
        st = store_exec(s, &q, &res, &err);
        if (st != ST_OK)
            diag_set(d, st, "%s", err.message ? err.message : err.d.msg);
        c->rcu += res.n_caps ? res.caps[0].units : 0;
        /* A local page's writes are one transaction (one sync, not 500),
         * committed before the checkpoint that names its last key. */
        bool txn = false;
        if (st == ST_OK && local && !sp->dry && res.n_items)
            txn = (st = store_begin(s, d)) == ST_OK;
        for (size_t i = 0; st == ST_OK && i < res.n_items; i++) {
            /* pace() counts the units of this run, not a resumed one's. */
            st = one_item(s, sp, &def, &res.items[i], c, sp->rate > 0 ? t0 - w0 / sp->rate : t0, txn, d);
            if (st == ST_OK) {
                av_done(&last);
                key_of(s, &def, &res.items[i], &last);
            }
            if (st == ST_OK && sp->stop && sp->stop(sp->ctx) && i + 1 < res.n_items) {
                c->stopped = true;
                break;
            }
        }
        if (txn) {
            /* What was written before a failure stays (each write is whole). */
            diag cd;
            diag_init(&cd);
            status cs = store_commit(s, st == ST_OK ? d : &cd);
            if (st == ST_OK)
                st = cs;
            pace(sp, sp->rate > 0 ? t0 - w0 / sp->rate : t0, c->wcu);
        }
        more = res.last_key.type == AV_M;
        if (more && !c->stopped)
            av_move(&start, &res.last_key);
        if (st == ST_OK && !c->stopped && sp->stop && more && sp->stop(sp->ctx))
            c->stopped = true;
        if (st == ST_OK && sp->checkpoint && !sp->dry && last.type == AV_M && (more || c->stopped))
            st = ck_write(sp, c, &last, d);
        if (sp->progress)
            sp->progress(sp->ctx, c);
        ddb_err_done(&err);
        ddb_res_done(&res);
        ddb_req_done(&q);
    }
    if (st == ST_OK && !c->stopped && sp->checkpoint && !sp->dry)
        unlink(sp->checkpoint);
    av_done(&start);
    av_done(&last);
    table_def_free(&def);
    return st;
}

/* ---- the index -------------------------------------------------------------- */

/* The index's status in DescribeTable ("ACTIVE", "CREATING"), malloc'd;
 * NULL when the table has no such index. */
static status index_status(store *s, const char *table, const char *index, char **out, diag *d)
{
    *out = NULL;
    ddb_res res;
    ddb_res_init(&res);
    status st = store_exec_table(s, DDB_DESCRIBE_TABLE, table, &res, d);
    const ddb_index_desc *g = ddbres_table_desc_gsi(res.tables ? res.tables->table : NULL, index);
    if (g)
        *out = xstrdup(g->status ? g->status : "ACTIVE");
    ddb_res_done(&res);
    return st;
}

static void key_part(key_attr *k, const char *name, av_type t)
{
    k->name = xstrdup(name);
    k->type = t == AV_NONE ? AV_S : t;
}

/* The index's key: the attribute written, or the named ones (each's
 * type: the first value seen; S when none was). */
static void index_keys(const keytmpl *t, av_type first, const av_type *parts, key_attr *k, key_attr *rest,
                       size_t *n_rest)
{
    if (!keytmpl_named(t)) {
        key_part(k, t->attr, first);
        return;
    }
    key_part(k, t->names[0], first);
    for (size_t i = 1; i < t->n_names && i < SCHEMA_MAX_KEY_PARTS; i++)
        key_part(&rest[(*n_rest)++], t->names[i], parts[i]);
}

status evolve_create_index(store *s, const evolve_spec *sp, const evolve_counts *c, double timeout_s,
                           bool *existed, diag *d)
{
    *existed = false;
    char *now = NULL;
    status st = index_status(s, sp->table, sp->index, &now, d);
    if (st == ST_OK && now) {
        *existed = true;
    } else if (st == ST_OK && sp->ix) {
        st = store_create_index(s, sp->table, sp->ix, d);
    } else if (st == ST_OK) {
        index_def ix;
        memset(&ix, 0, sizeof ix);
        ix.name = xstrdup(sp->index);
        ix.global = true;
        ix.proj = PROJ_ALL;
        index_keys(sp->hash, c->hash_type, c->part_types[0], &ix.pk, ix.pk_rest, &ix.n_pk_rest);
        if (sp->range)
            index_keys(sp->range, c->range_type, c->part_types[1], &ix.sk, ix.sk_rest, &ix.n_sk_rest);
        st = store_create_index(s, sp->table, &ix, d);
        index_def_free(&ix);
    }
    double until = timing_now_s() + timeout_s;
    while (st == ST_OK && (!now || strcmp(now, "ACTIVE") != 0)) {
        free(now);
        now = NULL;
        st = index_status(s, sp->table, sp->index, &now, d);
        if (st == ST_OK && !now)
            st = diag_set(d, ST_NOT_FOUND, "the index %s is gone from %s", sp->index, sp->table);
        else if (st == ST_OK && strcmp(now, "ACTIVE") != 0) {
            if (timing_now_s() > until)
                st = diag_set(d, ST_IN_USE, "the index %s is still %s after %.0f s: it goes on on the"
                              " endpoint; run the same command again to wait", sp->index, now, timeout_s);
            else
                usleep(200000);
        }
    }
    free(now);
    return st;
}
