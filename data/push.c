/*
 * push — local tables to an endpoint (see push.h).
 */
#include "data/push.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/jsonread.h"
#include "data/pattern_file.h"
#include "data/store_int.h"
#include "data/table_read.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"
#include "model/size.h"

void push_plan_done(push_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        push_table *t = &p->t[i];
        free(t->table);
        free(t->target);
        table_def_free(&t->def);
        free(t->ttl);
        ddb_req_done(&t->create);
        free(t->billing);
        free(t->streams);
        av_done(&t->last);
    }
    free(p->t);
    free(p->where);
    memset(p, 0, sizeof *p);
}

/* ---- requests ------------------------------------------------------------ */

/* One request to the endpoint, printed once from its typed form
 * (ddb_req_json); its answer parsed once into *out (NULL: not wanted). */
static status send_req(remote *r, const ddb_req *q, cJSON **out, diag *d)
{
    buf in = BUF_INIT;
    ddb_req_json(q, &in);
    char *resp = NULL;
    status st = remote_call(r, ddb_op_name(ddb_kind_op(q->kind)), in.data, in.len, &resp, d);
    buf_done(&in);
    if (st == ST_OK && out)
        st = ddbjson_cjson_parse(resp, strlen(resp), out, d);
    free(resp);
    return st;
}

/* DescribeTable or DeleteTable of the target. */
static status table_call(remote *r, ddb_kind kind, const char *table, cJSON **out, diag *d)
{
    ddb_req q;
    ddb_req_init(&q, kind);
    ddb_req_set_str(&q.table, table);
    status st = send_req(r, &q, out, d);
    ddb_req_done(&q);
    return st;
}

/* DescribeTable of the target, its answer read typed into *out (NULL:
 * none, with the error). */
static status table_desc(remote *r, const char *table, ddb_table_desc **out, diag *d)
{
    *out = NULL;
    cJSON *j = NULL;
    status st = table_call(r, DDB_DESCRIBE_TABLE, table, &j, d);
    if (st != ST_OK)
        return st;
    ddb_res res;
    ddb_res_init(&res);
    st = store_codec_read(j, &res, d);
    cJSON_Delete(j);
    if (st == ST_OK && res.tables) {
        *out = res.tables->table;
        res.tables->table = NULL;
    }
    ddb_res_done(&res);
    if (st == ST_OK && !*out)
        st = diag_set(d, ST_INTERNAL, "DescribeTable %s: the answer has no Table", table);
    return st;
}

/* DescribeTable of the target: *found, and its ARN and creation time. */
static status describe(remote *r, const char *table, bool *found, char **arn, double *created,
                       bool *active, diag *d)
{
    ddb_table_desc *t;
    diag e;
    diag_init(&e);
    status st = table_desc(r, table, &t, &e);
    *found = false;
    if (st == ST_NOT_FOUND)
        return ST_OK;
    if (st != ST_OK) {
        *d = e;
        return st;
    }
    *found = true;
    if (arn)
        *arn = t->arn ? xstrdup(t->arn) : NULL;
    if (created)
        *created = t->created.has ? t->created.v : 0;
    if (active) {
        *active = t->status && strcmp(t->status, "ACTIVE") == 0;
        for (size_t i = 0; i < t->gsis.n; i++)
            if (t->gsis.v[i].status && strcmp(t->gsis.v[i].status, "ACTIVE") != 0)
                *active = false;
    }
    ddbres_table_desc_free(t);
    return ST_OK;
}

static uint64_t count_of(const cJSON *n)
{
    return cJSON_IsNumber(n) && n->valuedouble > 0 ? (uint64_t)n->valuedouble : 0;
}

/* A description's count or size (absent or negative: 0). */
static uint64_t desc_count(const ddb_onum *n)
{
    return n->has && n->v > 0 ? (uint64_t)n->v : 0;
}

/* What the target holds, for the --replace question: DescribeTable's
 * ItemCount and TableSizeBytes, and when those say it is small, its
 * items counted with Select COUNT Scans (ItemCount is "about": the API
 * reference's DescribeTable says DynamoDB updates it about every six
 * hours). */
static status target_holds(remote *r, push_table *t, diag *d)
{
    ddb_table_desc *tab;
    status st = table_desc(r, t->target, &tab, d);
    if (st != ST_OK)
        return st;
    t->there_items = desc_count(&tab->count);
    t->there_bytes = desc_count(&tab->bytes);
    ddbres_table_desc_free(tab);
    cJSON *j = NULL;
    if (t->there_items > PUSH_COUNT_ITEMS || t->there_bytes > PUSH_COUNT_BYTES)
        return ST_OK;
    ddb_req q;
    ddb_req_init(&q, DDB_SCAN);
    ddb_req_set_str(&q.table, t->target);
    q.select = DDB_SELECT_COUNT;
    uint64_t n = 0;
    int pages = 0;
    bool more = true;
    for (; st == ST_OK && more && pages < PUSH_COUNT_PAGES; pages++) {
        j = NULL;
        st = send_req(r, &q, &j, d);
        if (st != ST_OK)
            break;
        n += count_of(cJSON_GetObjectItemCaseSensitive(j, "Count"));
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "LastEvaluatedKey");
        av_done(&q.start);
        more = cJSON_IsObject(k) && k->child;
        if (more)
            st = ddbjson_item_from_cjson(k, "LastEvaluatedKey", &q.start, d);
        cJSON_Delete(j);
    }
    ddb_req_done(&q);
    if (st == ST_OK) {
        t->there_items = n;
        t->there_counted = true;
        t->there_partial = more;
    }
    return st;
}

static void nap(int ms)
{
    struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

/* Until the target is ACTIVE (gone, when gone is set): 10 minutes at most. */
static status wait_for(remote *r, const char *table, bool gone, const push_opts *o, diag *d)
{
    for (int i = 0; i < 3000; i++) {
        bool found = false, active = false;
        status st = describe(r, table, &found, NULL, NULL, &active, d);
        if (st != ST_OK)
            return st;
        if (gone ? !found : found && active)
            return ST_OK;
        if (o->stop && *o->stop)
            return diag_set(d, ST_IO, "interrupted");
        nap(i < 10 ? 50 : 200);
    }
    return diag_set(d, ST_IO, "%s did not become %s in 10 minutes", table, gone ? "deleted" : "ACTIVE");
}

/* ---- the state of an interrupted push ------------------------------------------ */

static char *state_path(const push_opts *o, const char *where, const char *target)
{
    buf b = BUF_INIT;
    buf_printf(&b, "%s/", o->state_dir);
    /* A readable name, then a hash of the exact endpoint and name. */
    uint32_t h = 2166136261u;
    const char *parts[2] = { where, target };
    for (int k = 0; k < 2; k++) {
        for (const char *p = parts[k]; *p; p++) {
            h = (h ^ (unsigned char)*p) * 16777619u;
            if (b.len < 200)
                buf_addc(&b, isalnum((unsigned char)*p) ? *p : '_');
        }
        h = (h ^ 0xff) * 16777619u;
        buf_addc(&b, '-');
    }
    buf_printf(&b, "%08x.json", h);
    return buf_steal(&b);
}

typedef struct state {
    char *arn;
    double created;
    uint64_t items;
    av last;
} state;

static void state_done(state *s)
{
    free(s->arn);
    av_done(&s->last);
    memset(s, 0, sizeof *s);
}

/* The state file, when there is one (false: none, or not ours to read). */
static bool state_read(const char *path, state *s)
{
    memset(s, 0, sizeof *s);
    s->last.type = AV_NONE;
    buf b = BUF_INIT;
    diag d;
    diag_init(&d);
    if (jsonread_load(path, &b, &d) != ST_OK) {
        buf_done(&b);
        return false;
    }
    cJSON *j = NULL;
    bool ok = ddbjson_cjson_parse(b.data, b.len, &j, &d) == ST_OK;
    buf_done(&b);
    const cJSON *arn = ok ? cJSON_GetObjectItemCaseSensitive(j, "arn") : NULL;
    const cJSON *cr = ok ? cJSON_GetObjectItemCaseSensitive(j, "created") : NULL;
    const cJSON *n = ok ? cJSON_GetObjectItemCaseSensitive(j, "items") : NULL;
    const cJSON *last = ok ? cJSON_GetObjectItemCaseSensitive(j, "last") : NULL;
    ok = cJSON_IsString(arn) && cJSON_IsNumber(cr) && cJSON_IsNumber(n);
    if (ok) {
        s->arn = xstrdup(arn->valuestring);
        s->created = cr->valuedouble;
        s->items = (uint64_t)n->valuedouble;
        if (cJSON_IsObject(last) && ddbjson_item_from_cjson(last, NULL, &s->last, &d) != ST_OK)
            s->last.type = AV_NONE;
    }
    cJSON_Delete(j);
    return ok;
}

static status state_write(const char *path, const char *where, const char *source,
                          const char *target, const state *s, diag *d)
{
    buf b = BUF_INIT;
    buf_adds(&b, "{\"endpoint\":");
    ddbjson_write_string(&b, where, strlen(where));
    buf_adds(&b, ",\"source\":");
    ddbjson_write_string(&b, source, strlen(source));
    buf_adds(&b, ",\"target\":");
    ddbjson_write_string(&b, target, strlen(target));
    buf_adds(&b, ",\"arn\":");
    ddbjson_write_string(&b, s->arn ? s->arn : "", s->arn ? strlen(s->arn) : 0);
    buf_printf(&b, ",\"created\":%.6f,\"items\":%llu,\"last\":", s->created,
               (unsigned long long)s->items);
    if (s->last.type == AV_M)
        ddbjson_write_item(&b, &s->last);
    else
        buf_adds(&b, "null");
    buf_adds(&b, "}\n");
    status st = pattern_file_write_text(path, b.data, b.len, d);
    buf_done(&b);
    return st;
}

/* ---- the plan -------------------------------------------------------------------- */

typedef struct sums {
    const table_def *def;
    uint64_t items, bytes, halves;
} sums;

static bool add_item(void *ctx, const av *item)
{
    sums *s = ctx;
    size_t size = size_item(item);
    s->items++;
    s->bytes += size;
    s->halves += size_write_halves(size);
    for (size_t i = 0; i < s->def->n_idx; i++)
        if (index_has_item(&s->def->idx[i], item))
            s->halves += size_write_halves(index_entry_size(s->def, &s->def->idx[i], item, size));
    return true;
}

/* The billing mode and stream setting of the CreateTable request, as the
 * plan says them. */
static void settings(const ddb_req *create, push_table *t)
{
    buf b = BUF_INIT;
    if (create->ctl.rcu || create->ctl.wcu)
        buf_printf(&b, "PROVISIONED (%llu RCU, %llu WCU)", (unsigned long long)create->ctl.rcu,
                   (unsigned long long)create->ctl.wcu);
    else
        buf_adds(&b, "PAY_PER_REQUEST");
    t->billing = buf_steal(&b);
    if (create->ctl.stream_view)
        t->streams = xstrdup(create->ctl.stream_view);
}

/* A provisioned table's or index's ProvisionedThroughput, for CreateTable
 * (at least 1 of each: DescribeTable's may say 0). */
static ddb_pt throughput(const ddb_tput *pt)
{
    double r = pt && pt->rcu.has ? pt->rcu.v : 0, w = pt && pt->wcu.has ? pt->wcu.v : 0;
    return (ddb_pt){ r >= 1 ? (uint64_t)r : 1, w >= 1 ? (uint64_t)w : 1 };
}

/* The local table's definition def and its description -> the
 * CreateTable request for a table named as: the same keys, attribute
 * definitions and indexes with their projections, the billing mode and
 * throughput (a provisioned table's, and each of its GSIs') and the
 * stream setting (which a table_def does not hold), into out (an empty
 * CreateTable request). */
static void create_request(const table_def *def, const ddb_table_desc *desc, const char *as, ddb_req *out)
{
    assert(out->kind == DDB_CREATE_TABLE && !out->ctl.def);
    ddb_ctl *c = &out->ctl;
    c->def = xcalloc(1, sizeof *c->def);
    table_def_copy(c->def, def);
    ddb_req_set_str(&c->def->name, as);
    const char *bm = desc->billing ? desc->billing->mode : NULL;
    if (!(bm && strcmp(bm, "PAY_PER_REQUEST") == 0)) {
        ddb_pt pt = throughput(desc->tput);
        c->rcu = pt.rcu;
        c->wcu = pt.wcu;
        c->idx_pt = xcalloc(def->n_idx ? def->n_idx : 1, sizeof *c->idx_pt);
        for (size_t i = 0; i < def->n_idx; i++) {
            const ddb_index_desc *own = ddbres_table_desc_gsi(desc, def->idx[i].name);
            c->idx_pt[i] = throughput(own ? own->tput : NULL);
        }
    }
    if (desc->stream && desc->stream->enabled.v)
        ddb_req_set_str(&c->stream_view, desc->stream->view);
}

/* The local table's description, typed (DescribeTable on the store). */
static status local_desc(store *local, const char *table, ddb_res *res, diag *d)
{
    status st = store_exec_table(local, DDB_DESCRIBE_TABLE, table, res, d);
    if (st == ST_OK && !(res->tables && res->tables->table))
        st = diag_set(d, ST_INTERNAL, "DescribeTable %s: no description", table);
    return st;
}

static status plan_one(store *local, remote *r, const push_opts *o, const char *table,
                       const char *where, push_table *t, diag *d)
{
    t->table = xstrdup(table);
    t->target = xstrdup(o->as ? o->as : table);
    t->last.type = AV_NONE;
    ddb_req_init(&t->create, DDB_CREATE_TABLE);
    status st = store_describe(local, table, &t->def, d);
    ddb_res desc;
    ddb_res_init(&desc);
    if (st == ST_OK)
        st = local_desc(local, table, &desc, d);
    if (st == ST_OK)
        create_request(&t->def, desc.tables->table, t->target, &t->create);
    ddb_res_done(&desc);
    if (st != ST_OK)
        return st;
    settings(&t->create, t);
    diag td;
    diag_init(&td);
    if (store_ttl_get(local, table, &t->ttl, &td) != ST_OK)
        t->ttl = NULL;
    sums s = { &t->def, 0, 0, 0 };
    table_read info;
    if (o->with_items && (st = table_read_items(local, table, 0, add_item, &s, &info, d)) != ST_OK)
        return st;
    if (!o->with_items) {
        table_stats ts;
        if (store_stats(local, table, NULL, &ts, d) == ST_OK)
            s.items = ts.items, s.bytes = ts.bytes;
    }
    t->items = s.items;
    t->bytes = s.bytes;
    t->write_units = s.halves / 2;
    char *arn = NULL;
    double created = 0;
    st = describe(r, t->target, &t->exists, &arn, &created, NULL, d);
    if (st == ST_OK && t->exists && o->replace)
        st = target_holds(r, t, d);
    if (st == ST_OK && t->exists) {
        char *path = state_path(o, where, t->target);
        state sv;
        if (state_read(path, &sv)) {
            t->resume = arn && strcmp(sv.arn, arn) == 0 && sv.created == created;
            if (t->resume) {
                t->done = sv.items;
                av_move(&t->last, &sv.last);
            }
            state_done(&sv);
        }
        free(path);
    }
    free(arn);
    return st;
}

status push_plan_make(store *local, remote *r, const push_opts *o, push_plan *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (o->as && o->n_tables != 1)
        return diag_set(d, ST_USAGE, "--as names one table's copy: push one table with it");
    out->where = xstrdup(remote_describe(r));
    out->t = xcalloc(o->n_tables ? o->n_tables : 1, sizeof *out->t);
    for (size_t i = 0; i < o->n_tables; i++) {
        status st = plan_one(local, r, o, o->tables[i], out->where, &out->t[out->n++], d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* ---- the run ---------------------------------------------------------------------- */

/* Where the copy of the items is: the partition and the item after which to go on. */
typedef struct cursor {
    av pk, after;
    bool started, ended;
} cursor;

/* Up to max items after the cursor, in key order. */
static status next_items(store *local, const char *table, cursor *c, av *out, size_t max,
                         size_t *n, diag *d)
{
    *n = 0;
    status st = ST_OK;
    while (*n < max && !c->ended && st == ST_OK) {
        if (c->pk.type == AV_NONE) {
            part_info pi;
            size_t got = 0;
            st = store_partitions(local, table, NULL, NULL, false, 1, &pi, &got, d);
            c->started = true;
            if (st != ST_OK || !got) {
                c->ended = true;
                break;
            }
            av_move(&c->pk, &pi.pk);
        }
        size_t want = max - *n, got = 0;
        st = store_page(local, table, NULL, &c->pk, c->after.type == AV_NONE ? NULL : &c->after, true,
                        want, out + *n, &got, d);
        if (st != ST_OK)
            break;
        *n += got;
        if (got) {
            av_done(&c->after);
            av_copy(&c->after, &out[*n - 1]);
        }
        if (got < want) {
            /* The partition is done: the next one. */
            part_info pi;
            size_t np = 0;
            st = store_partitions(local, table, NULL, &c->pk, false, 1, &pi, &np, d);
            av_done(&c->pk);
            av_done(&c->after);
            if (st != ST_OK || !np) {
                c->ended = true;
                break;
            }
            av_move(&c->pk, &pi.pk);
        }
    }
    return st;
}

/* One BatchWriteItem of items, its UnprocessedItems sent again (50 ms,
 * doubling, at most 5 s apart, 12 times) until none is left. */
static status batch(remote *r, const char *target, const av *items, size_t n, push_progress *pg,
                    diag *d)
{
    ddb_req b;
    ddb_req_init(&b, DDB_BATCH_WRITE);
    for (size_t i = 0; i < n; i++) {
        ddb_req *put = ddb_req_add(&b, DDB_PUT);
        ddb_req_set_str(&put->table, target);
        av_copy(&put->item, &items[i]);
    }
    status st = ST_OK;
    for (int attempt = 0;; attempt++) {
        b.rcc = DDB_RCC_TOTAL;
        cJSON *j = NULL;
        st = send_req(r, &b, &j, d);
        pg->requests++;
        ddb_res res;
        ddb_res_init(&res);
        if (st == ST_OK)
            st = store_codec_read(j, &res, d);
        cJSON_Delete(j);
        pg->units += ddb_res_units(&res);
        size_t left = res.unprocessed.n_acts;
        if (st != ST_OK || !left) {
            ddb_res_done(&res);
            break;
        }
        if (attempt == 12) {
            ddb_res_done(&res);
            st = diag_set(d, ST_IO, "ProvisionedThroughputExceededException: %zu items still"
                          " unprocessed after 12 tries", left);
            break;
        }
        pg->unprocessed += left;
        /* What is left, as the next request. */
        ddb_req_done(&b);
        b = res.unprocessed;
        ddb_req_init(&res.unprocessed, DDB_BATCH_WRITE);
        ddb_res_done(&res);
        int ms = 50 << (attempt < 7 ? attempt : 7);
        nap(ms > 5000 ? 5000 : ms);
    }
    ddb_req_done(&b);
    return st;
}

static status copy_items(store *local, remote *r, const push_opts *o, const push_table *t,
                         const char *path, const char *where, state *sv, push_progress_fn progress,
                         void *ud, diag *d)
{
    cursor c = { .pk = { .type = AV_NONE }, .after = { .type = AV_NONE } };
    if (sv->last.type == AV_M) {
        /* Resumed: after the last item written. */
        const av *pk = av_map_get(&sv->last, t->def.pk.name, strlen(t->def.pk.name));
        if (pk) {
            av_copy(&c.pk, pk);
            av_copy(&c.after, &sv->last);
            c.started = true;
        }
    }
    push_progress pg = { t->table, sv->items, t->items, 0, 0, 0 };
    av items[PUSH_BATCH];
    status st = ST_OK;
    for (;;) {
        if (o->stop && *o->stop) {
            st = diag_set(d, ST_IO, "interrupted");
            break;
        }
        size_t n = 0;
        st = next_items(local, t->table, &c, items, PUSH_BATCH, &n, d);
        if (st != ST_OK || !n) {
            for (size_t i = 0; i < n; i++)
                av_done(&items[i]);
            break;
        }
        st = batch(r, t->target, items, n, &pg, d);
        if (st == ST_OK) {
            sv->items += n;
            av_done(&sv->last);
            table_def_key_of(&t->def, &items[n - 1], &sv->last);
            st = state_write(path, where, t->table, t->target, sv, d);
            pg.items = sv->items;
            if (progress)
                progress(&pg, ud);
        }
        for (size_t i = 0; i < n; i++)
            av_done(&items[i]);
        if (st != ST_OK)
            break;
    }
    av_done(&c.pk);
    av_done(&c.after);
    return st;
}

static status set_ttl(remote *r, const push_table *t, diag *d)
{
    ddb_req q;
    ddb_req_init(&q, DDB_UPDATE_TTL);
    ddb_req_set_str(&q.table, t->target);
    ddb_req_set_str(&q.ctl.ttl_attr, t->ttl);
    q.ctl.ttl_enabled = true;
    status st = send_req(r, &q, NULL, d);
    ddb_req_done(&q);
    return st;
}

static status run_one(store *local, remote *r, const push_opts *o, const char *where,
                      const push_table *t, push_progress_fn progress, void *ud, diag *d)
{
    char *path = state_path(o, where, t->target);
    state sv;
    memset(&sv, 0, sizeof sv);
    sv.last.type = AV_NONE;
    status st = ST_OK;
    if (t->resume) {
        if (!state_read(path, &sv))
            st = diag_set(d, ST_IO, "the state of the interrupted push of %s is gone (%s)", t->target,
                          path);
    } else {
        if (t->exists) {
            if (!o->replace) {
                free(path);
                return diag_set(d, ST_IN_USE, "Table already exists: %s (--replace deletes it first)",
                                t->target);
            }
            st = table_call(r, DDB_DELETE_TABLE, t->target, NULL, d);
            if (st == ST_OK)
                st = wait_for(r, t->target, true, o, d);
        }
        if (st == ST_OK)
            st = send_req(r, &t->create, NULL, d);
        if (st == ST_OK)
            st = wait_for(r, t->target, false, o, d);
        bool found = false;
        if (st == ST_OK)
            st = describe(r, t->target, &found, &sv.arn, &sv.created, NULL, d);
        /* From here on the table is ours: the state says so. */
        if (st == ST_OK)
            st = state_write(path, where, t->table, t->target, &sv, d);
        if (st == ST_OK && t->ttl)
            st = set_ttl(r, t, d);
    }
    if (st == ST_OK && o->with_items)
        st = copy_items(local, r, o, t, path, where, &sv, progress, ud, d);
    if (st == ST_OK)
        unlink(path);   /* done: nothing to resume */
    state_done(&sv);
    free(path);
    return st;
}

status push_run(store *local, remote *r, const push_opts *o, const push_plan *plan,
                push_progress_fn progress, void *ud, diag *d)
{
    if (mkdir(o->state_dir, 0700) != 0 && errno != EEXIST)
        return diag_set(d, ST_IO, "cannot make %s: %s", o->state_dir, strerror(errno));
    for (size_t i = 0; i < plan->n; i++) {
        status st = run_one(local, r, o, plan->where, &plan->t[i], progress, ud, d);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}
