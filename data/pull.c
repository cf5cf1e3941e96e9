/*
 * pull — remote table -> local store (see pull.h).
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "data/pull.h"
#include "data/store_int.h"
#include "data/timing.h"
#include "model/av.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/ddbreq.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

#define MAX_QUEUED 16   /* pages decoded ahead of the writer, all segments */

typedef struct page {
    struct page *next;
    av *items;
    size_t n;
    double capacity;
    uint64_t masked;
    mask_tally tally;          /* with a mask: what each rule took */
} page;

typedef struct shared {
    pthread_mutex_t mu;
    pthread_cond_t has_page;   /* the writer waits on it */
    pthread_cond_t has_room;   /* the workers wait on it */
    page *head, *tail;
    size_t queued;
    int running;               /* workers still scanning */
    int abort;                 /* stop scanning: an error, or *stop */
    volatile sig_atomic_t cancel; /* the same, seen by the remotes mid-transfer */
    int failed;                /* the first error is in err */
    diag err;
    uint64_t pages;
    int segments_done;
    unsigned long retries;
    const pull_opts *o;
    const char *table;
    const mask_plan *plan;     /* the mask bound to the table, or NULL */
} shared;

typedef struct worker {
    shared *sh;
    remote *r;         /* the segment's own connection (remote_dup), closed by it */
    pthread_t th;
    int seg;
    int started;
} worker;

static void fail_locked(shared *sh, const diag *d)
{
    if (!sh->failed) {
        sh->failed = 1;
        sh->err = *d;
    }
    sh->abort = 1;
    sh->cancel = 1;
    pthread_cond_broadcast(&sh->has_room);
    pthread_cond_broadcast(&sh->has_page);
}

static void page_free(page *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->n; i++)
        av_done(&p->items[i]);
    free(p->items);
    mask_tally_done(&p->tally);
    free(p);
}

/* One Scan page's body -> a page of items; *lek the LastEvaluatedKey
 * (AV_NONE at the end of the segment). */
static status decode_page(const char *body, page **out, av *lek, diag *d)
{
    *out = NULL;
    av_done(lek);
    cJSON *j = NULL;
    status st = ddbjson_cjson_parse(body, strlen(body), &j, d);
    if (st != ST_OK)
        return st;
    page *p = xcalloc(1, sizeof *p);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(j, "Items");
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(j, "ConsumedCapacity");
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(j, "LastEvaluatedKey");
    if (!cJSON_IsArray(items)) {
        st = diag_set(d, ST_INTERNAL, "a Scan answer without Items");
        goto out;
    }
    size_t n = (size_t)cJSON_GetArraySize(items);
    p->items = xcalloc(n ? n : 1, sizeof *p->items);
    const cJSON *it;
    cJSON_ArrayForEach(it, items) {
        st = ddbjson_item_from_cjson(it, NULL, &p->items[p->n], d);
        if (st != ST_OK)
            goto out;
        p->n++;
    }
    const cJSON *cu = cJSON_GetObjectItemCaseSensitive(cc, "CapacityUnits");
    if (cJSON_IsNumber(cu))
        p->capacity = cu->valuedouble;
    if (cJSON_IsObject(k) && k->child)
        st = ddbjson_item_from_cjson(k, "LastEvaluatedKey", lek, d);
out:
    cJSON_Delete(j);
    if (st != ST_OK)
        page_free(p);
    else
        *out = p;
    return st;
}

static void *scan_segment(void *arg)
{
    worker *w = arg;
    shared *sh = w->sh;
    const pull_opts *o = sh->o;
    remote *r = w->r;
    diag d;
    diag_init(&d);
    av lek = { .type = AV_NONE };
    int finished = 0;
    status st = ST_OK;
    remote_set_cancel(r, &sh->cancel);
    while (st == ST_OK) {
        pthread_mutex_lock(&sh->mu);
        int stop = sh->abort || (o->stop && *o->stop);
        pthread_mutex_unlock(&sh->mu);
        if (stop)
            break;
        ddb_req q;
        ddb_req_init(&q, DDB_SCAN);
        ddb_req_set_str(&q.table, sh->table);
        q.rcc = DDB_RCC_TOTAL;
        if (o->segments > 1) {
            q.segment = w->seg;
            q.segments = o->segments;
        }
        av_move(&q.start, &lek);
        buf req = BUF_INIT;
        ddb_req_json(&q, &req);
        ddb_req_done(&q);
        char *body = NULL;
        st = remote_call(r, "Scan", req.data, req.len, &body, &d);
        buf_done(&req);
        if (st != ST_OK) {
            free(body);
            break;
        }
        page *p = NULL;
        st = decode_page(body, &p, &lek, &d);
        free(body);
        if (st != ST_OK)
            break;
        if (sh->plan)
            mask_tally_init(&p->tally, o->mask);
        for (size_t i = 0; sh->plan && i < p->n; i++)
            p->masked += mask_apply_tally(sh->plan, &p->items[i], &p->tally);
        pthread_mutex_lock(&sh->mu);
        while (sh->queued >= MAX_QUEUED && !sh->abort)
            pthread_cond_wait(&sh->has_room, &sh->mu);
        if (sh->abort) {
            pthread_mutex_unlock(&sh->mu);
            page_free(p);
            break;
        }
        if (sh->tail)
            sh->tail->next = p;
        else
            sh->head = p;
        sh->tail = p;
        sh->queued++;
        sh->pages++;
        pthread_cond_signal(&sh->has_page);
        pthread_mutex_unlock(&sh->mu);
        if (lek.type == AV_NONE) {
            finished = 1;
            break;
        }
    }
    av_done(&lek);
    pthread_mutex_lock(&sh->mu);
    if (st != ST_OK) {
        if (o->segments > 1) {
            size_t l = strlen(d.msg);
            snprintf(d.msg + l, sizeof d.msg - l, " (segment %d of %d)", w->seg, o->segments);
        }
        fail_locked(sh, &d);
    }
    if (finished)
        sh->segments_done++;
    if (r) {
        remote_stats rs;
        remote_get_stats(r, &rs);
        sh->retries += rs.retries;
    }
    sh->running--;
    pthread_cond_broadcast(&sh->has_page);
    pthread_mutex_unlock(&sh->mu);
    remote_close(r);
    w->r = NULL;
    return NULL;
}

/* DescribeTable's answer -> the definition of the local copy, named as:
 * the same keys, attribute types and indexes with their projections
 * (store_create_table makes it on demand, since local capacity means
 * nothing). */
static status copy_def(const char *describe, const char *as, table_def *def, diag *d)
{
    memset(def, 0, sizeof *def);
    av j;
    status st = ddbjson_parse_plain_item(describe, strlen(describe), &j, d);
    if (st != ST_OK)
        return st;
    ddb_res res;
    ddb_res_init(&res);
    st = ddbres_tables_read(DDB_DESCRIBE_TABLE, &j, &res, d);
    av_done(&j);
    if (st == ST_OK && res.tables && res.tables->table)
        ddbres_table_desc_def(res.tables->table, def);
    ddb_res_done(&res);
    if (st == ST_OK && !def->pk.name)
        st = diag_set(d, ST_INTERNAL, "DescribeTable's answer has no key schema");
    if (st == ST_OK) {
        free(def->name);
        def->name = xstrdup(as);
    }
    return st;
}

static void report(const pull_opts *o, shared *sh, uint64_t items, double cap, double t0)
{
    if (!o->progress)
        return;
    pull_progress p;
    memset(&p, 0, sizeof p);
    pthread_mutex_lock(&sh->mu);
    p.pages = sh->pages;
    p.segments_done = sh->segments_done;
    p.retries = sh->retries;
    pthread_mutex_unlock(&sh->mu);
    p.items = items;
    p.capacity = cap;
    p.segments = o->segments;
    p.seconds = timing_now_s() - t0;
    o->progress(&p, o->ud);
}

/* fail_locked, taking the lock. */
static void fail_shared(shared *sh, const diag *e)
{
    pthread_mutex_lock(&sh->mu);
    fail_locked(sh, e);
    pthread_mutex_unlock(&sh->mu);
}

/* Creates the local table as, from the remote table's description. */
static status create_local_table(store *st, remote *r, const char *table, const char *as,
                                 diag *d)
{
    char *desc = NULL;
    ddb_req q;
    ddb_req_init(&q, DDB_DESCRIBE_TABLE);
    ddb_req_set_str(&q.table, table);
    buf req = BUF_INIT;
    ddb_req_json(&q, &req);
    ddb_req_done(&q);
    table_def def;
    memset(&def, 0, sizeof def);
    status s = remote_call(r, "DescribeTable", req.data, req.len, &desc, d);
    if (s == ST_OK)
        s = copy_def(desc, as, &def, d);
    if (s == ST_OK)
        s = store_create_table(st, &def, d);
    table_def_free(&def);
    free(desc);
    buf_done(&req);
    return s;
}

/* The mask bound to the local copy's keys and indexes (the same as the
 * remote table's), by the remote table's name. */
static status bind_mask(store *st, const pull_opts *o, const char *as, mask_plan **plan,
                        pull_progress *done, diag *d)
{
    table_def def;
    status s = store_describe(st, as, &def, d);
    if (s != ST_OK)
        return s;
    s = mask_bind(o->mask, o->table, &def, plan, d);
    table_def_free(&def);
    if (s != ST_OK) {
        if (o->mask_name)
            snprintf(d->file, sizeof d->file, "%s", o->mask_name);
        return s;
    }
    buf b = BUF_INIT;
    mask_plan_describe(*plan, &b);
    snprintf(done->mask_keys, sizeof done->mask_keys, "%s", b.data);
    buf_done(&b);
    return ST_OK;
}

/* One connection per segment, with the credentials already found
 * (a credential_process runs once, not once per segment). */
static status dup_connections(remote *r, worker *ws, int n, diag *d)
{
    for (int i = 0; i < n; i++) {
        status s = remote_dup(r, &ws[i].r, d);
        if (s != ST_OK)
            return s;
    }
    return ST_OK;
}

/* Starts a thread per segment; one that cannot start fails the pull (the
 * ones started see it and stop). */
static void start_workers(shared *sh, worker *ws, int n)
{
    sh->running = n;
    for (int i = 0; i < n; i++) {
        ws[i].sh = sh;
        ws[i].seg = i;
        if (pthread_create(&ws[i].th, NULL, scan_segment, &ws[i]) != 0) {
            diag e;
            diag_init(&e);
            diag_set(&e, ST_INTERNAL, "cannot start a thread for segment %d", i);
            pthread_mutex_lock(&sh->mu);
            sh->running -= n - i;
            fail_locked(sh, &e);
            pthread_mutex_unlock(&sh->mu);
            break;
        }
        ws[i].started = 1;
    }
}

/* Waits for the next page (waking every 200 ms to see *stop and report
 * progress) and takes it off the queue. NULL with *aborted when the pull
 * stops (an error or *stop); *finished when every worker is done and the
 * queue is empty. */
static page *take_page(shared *sh, const pull_opts *o, bool *aborted, bool *finished)
{
    pthread_mutex_lock(&sh->mu);
    while (!sh->head && sh->running > 0 && !sh->abort && !(o->stop && *o->stop)) {
        struct timespec ts;
        timing_deadline_ms(&ts, 200);
        pthread_cond_timedwait(&sh->has_page, &sh->mu, &ts);
        if (!sh->head)
            break;
    }
    if (o->stop && *o->stop && !sh->abort) {
        sh->abort = 1;
        sh->cancel = 1;
        pthread_cond_broadcast(&sh->has_room);
    }
    if (sh->abort) {
        *aborted = true;
        pthread_mutex_unlock(&sh->mu);
        return NULL;
    }
    page *p = sh->head;
    if (p) {
        sh->head = p->next;
        if (!sh->head)
            sh->tail = NULL;
        sh->queued--;
        pthread_cond_signal(&sh->has_room);
    }
    *finished = !p && sh->running == 0;
    pthread_mutex_unlock(&sh->mu);
    return p;
}

/* The writer's side: the pages' items go into the local table, batch
 * items to a store transaction. */
typedef struct writer {
    store *st;
    const char *as;
    shared *sh;
    int batch;
    int in_batch;
    int in_txn;        /* a store transaction is open */
    uint64_t items;
    uint64_t masked;
    mask_tally tally;  /* with a mask: the pages' tallies summed */
    double cap;
} writer;

/* Stores a page's items and frees it; an error fails the pull. */
static void write_page(writer *w, page *p)
{
    for (size_t i = 0; i < p->n; i++) {
        diag e;
        diag_init(&e);
        if (store_put_item(w->st, w->as, &p->items[i], &e) != ST_OK) {
            fail_shared(w->sh, &e);
            break;
        }
        w->items++;
        w->in_batch++;
    }
    w->cap += p->capacity;
    w->masked += p->masked;
    if (w->tally.by_rule)
        mask_tally_add(&w->tally, &p->tally);
    page_free(p);
    if (w->in_batch >= w->batch) {
        diag e;
        diag_init(&e);
        if (store_commit(w->st, &e) != ST_OK || store_begin(w->st, &e) != ST_OK) {
            w->in_txn = 0;
            fail_shared(w->sh, &e);
        }
        w->in_batch = 0;
    }
}

/* Joins the threads started and frees the pages still queued. */
static void stop_workers(shared *sh, worker *ws, int n)
{
    for (int i = 0; i < n; i++)
        if (ws[i].started)
            pthread_join(ws[i].th, NULL);
    while (sh->head) {
        page *p = sh->head;
        sh->head = p->next;
        page_free(p);
    }
    sh->tail = NULL;
}

/* The writer's loop: each page the workers read written, the progress
 * reported every interval ms, until the workers finish or one fails. */
static void write_pages(writer *w, const pull_opts *o, int interval, double t0)
{
    double last = t0;
    for (;;) {
        bool aborted = false, finished = false;
        page *p = take_page(w->sh, o, &aborted, &finished);
        if (aborted)
            break;
        if (p)
            write_page(w, p);
        double t = timing_now_s();
        if (t - last >= interval / 1000.0) {
            report(o, w->sh, w->items, w->cap, t0);
            last = t;
        }
        if (finished)
            break;
    }
}

/* What a finished pull did, into *done. */
static void summarize(const pull_opts *o, const writer *w, const remote *r, double t0, pull_progress *done)
{
    const shared *sh = w->sh;
    done->items = w->items;
    done->pages = sh->pages;
    done->capacity = w->cap;
    done->segments = o->segments;
    done->segments_done = sh->segments_done;
    done->retries = sh->retries;
    done->masked = w->masked;
    if (w->tally.by_rule) {
        buf b = BUF_INIT;
        mask_tally_rules(o->mask, o->table, &w->tally, &b);
        snprintf(done->mask_rules, sizeof done->mask_rules, "%s", b.data ? b.data : "");
        buf_reset(&b);
        mask_tally_clear(&w->tally, &b);
        snprintf(done->mask_clear, sizeof done->mask_clear, "%s", b.data ? b.data : "");
        buf_done(&b);
    }
    snprintf(done->from, sizeof done->from, "%s", remote_describe(r));
    done->seconds = timing_now_s() - t0;
}

status pull_run(store *st, const pull_opts *o, pull_progress *done, diag *d)
{
    assert(st && o && o->table && o->remote);
    memset(done, 0, sizeof *done);
    const char *as = o->as && *o->as ? o->as : o->table;
    if (o->segments < 1 || o->segments > 1000000)
        return diag_set(d, ST_USAGE, "--segments must be 1 to 1000000");
    int interval = o->interval_ms > 0 ? o->interval_ms : 500;

    /* Refuse before any remote work when the local name is taken. */
    table_def def;
    diag dd;
    diag_init(&dd);
    if (store_describe(st, as, &def, &dd) == ST_OK) {
        table_def_free(&def);
        return diag_set(d, ST_IN_USE, "a local table named %s already exists; pull into "
                        "another name with --as NAME, or delete it first", as);
    }

    status s;
    remote *r = NULL;
    mask_plan *plan = NULL;
    int table_made = 0;
    worker *ws = NULL;
    shared sh;
    memset(&sh, 0, sizeof sh);
    pthread_mutex_init(&sh.mu, NULL);
    pthread_cond_init(&sh.has_page, NULL);
    pthread_cond_init(&sh.has_room, NULL);
    sh.o = o;
    sh.table = o->table;
    writer w = { .st = st, .as = as, .sh = &sh, .batch = o->batch > 0 ? o->batch : 10000 };

    s = remote_open(o->remote, &r, d);
    if (s != ST_OK)
        goto out;
    if (o->stop)
        remote_set_cancel(r, o->stop);
    s = create_local_table(st, r, o->table, as, d);
    if (s != ST_OK)
        goto out;
    table_made = 1;
    if (o->mask) {
        s = bind_mask(st, o, as, &plan, done, d);
        if (s != ST_OK)
            goto out;
        sh.plan = plan;
        mask_tally_init(&w.tally, o->mask);
    }

    s = store_begin(st, d);
    if (s != ST_OK)
        goto out;
    w.in_txn = 1;

    ws = xcalloc((size_t)o->segments, sizeof *ws);
    s = dup_connections(r, ws, o->segments, d);
    if (s != ST_OK)
        goto out;
    double t0 = timing_now_s();
    start_workers(&sh, ws, o->segments);
    write_pages(&w, o, interval, t0);
    stop_workers(&sh, ws, o->segments);

    if (o->stop && *o->stop) {
        s = diag_set(d, ST_IO, "interrupted after %llu item%s; the partial copy was removed",
                     (unsigned long long)w.items, w.items == 1 ? "" : "s");
        goto out;
    }
    if (sh.failed) {
        *d = sh.err;
        s = d->code != ST_OK ? d->code : ST_INTERNAL;
        goto out;
    }
    s = store_commit(st, d);
    w.in_txn = 0;
    if (s != ST_OK)
        goto out;
    report(o, &sh, w.items, w.cap, t0);
    summarize(o, &w, r, t0, done);
out:
    if (s != ST_OK) {
        if (w.in_txn)
            store_rollback(st);
        if (table_made) {
            /* Nothing half-copied stays behind. */
            diag e;
            diag_init(&e);
            store_delete_table(st, as, &e);
        }
    }
    remote_close(r);
    mask_plan_free(plan);
    mask_tally_done(&w.tally);
    for (int i = 0; ws && i < o->segments; i++)
        remote_close(ws[i].r);   /* the ones no thread took */
    free(ws);
    pthread_cond_destroy(&sh.has_page);
    pthread_cond_destroy(&sh.has_room);
    pthread_mutex_destroy(&sh.mu);
    return s;
}
