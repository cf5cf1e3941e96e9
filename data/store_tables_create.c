/*
 * store_tables_create — CreateTable run typed: store_exec's case
 * (store_tables_create: a ddb_req in, the new table's description out,
 * model/ddbres_tables.h), the reading of a request body into that ddb_req
 * (store_create_read, for the JSON door store_op_create_table in
 * store_tables.c, which keeps DynamoDB's shape and request checks and
 * their messages on the JSON), and the description a new table starts
 * with (store_create_tree gives it a restore).
 *
 * The table asked for travels as the description's own shapes (ddb_ctl's
 * create: AttributeDefinitions in order, the index lists with their
 * throughput, OnDemandThroughput and WarmThroughput, the vector indexes),
 * its Tags and ResourcePolicy beside it. The store keeps each table's
 * description as JSON text in SQLite (its storage format): the text kept
 * is the typed description printed (ddbres_table_desc_json), and the
 * answer is that text read back as DescribeTable reads it.
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_int.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"

/* ---- the request ---- */

static void strs_clear(char **p)
{
    free(*p);
    *p = NULL;
}

/* What a request cannot set: the members the store makes. */
static void index_scrub(ddb_index_desc *x, bool global)
{
    strs_clear(&x->arn);
    strs_clear(&x->status);
    x->bytes.has = x->count.has = x->backfilling.has = false;
    if (!global) {
        free(x->tput);
        free(x->odt);
        if (x->warm)
            free(x->warm->status);
        free(x->warm);
        x->tput = NULL;
        x->odt = NULL;
        x->warm = NULL;
    }
}

static void create_scrub(ddb_table_desc *c)
{
    strs_clear(&c->status);
    strs_clear(&c->arn);
    strs_clear(&c->id);
    strs_clear(&c->stream_arn);
    strs_clear(&c->stream_label);
    c->created.has = c->count.has = c->bytes.has = c->deletion_protection.has = false;
    if (c->billing)
        c->billing->last_ppr.has = false;
    if (c->tmode)
        free(c->tmode->mode);
    free(c->tmode);
    c->tmode = NULL;
    if (c->restore) {
        free(c->restore->backup_arn);
        free(c->restore->table_arn);
        free(c->restore);
        c->restore = NULL;
    }
    if (c->stream)
        free(c->stream->view);
    free(c->stream);
    c->stream = NULL;
    if (c->warm)
        strs_clear(&c->warm->status);
    for (size_t i = 0; i < c->lsis.n; i++)
        index_scrub(&c->lsis.v[i], false);
    for (size_t i = 0; i < c->gsis.n; i++)
        index_scrub(&c->gsis.v[i], true);
    for (size_t i = 0; i < c->vixs.n; i++) {
        ddb_vindex_desc *v = &c->vixs.v[i];
        strs_clear(&v->arn);
        strs_clear(&v->status);
        v->bytes.has = v->count.has = v->backfilling.has = false;
    }
}

status store_create_read(const cJSON *in, ddb_req *req, diag *d)
{
    av plain;
    store_codec_plain(in, &plain);
    ddb_ctl *c = &req->ctl;
    status st = ddbres_table_desc_read(&plain, &c->create, d);
    av_done(&plain);
    if (st != ST_OK)
        return st;
    create_scrub(c->create);
    const char *bm = store_jstr(in, "BillingMode");
    if (bm) {
        if (!c->create->billing)
            c->create->billing = xcalloc(1, sizeof *c->create->billing);
        ddb_req_set_str(&c->create->billing->mode, bm);
    } else if (c->create->billing) {
        free(c->create->billing->mode);
        free(c->create->billing);
        c->create->billing = NULL;
    }
    ddb_req_set_str(&req->table, store_jstr(in, "TableName"));
    const cJSON *spec = store_jget(in, "StreamSpecification");
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(spec, "StreamEnabled")))
        ddb_req_set_str(&c->stream_view, store_jstr(spec, "StreamViewType"));
    const cJSON *tags = store_jget(in, "Tags");
    if (cJSON_IsArray(tags))
        store_codec_plain(tags, &c->tags);
    ddb_req_set_str(&c->policy, store_jstr(in, "ResourcePolicy"));
    return ST_OK;
}

/* ---- the description a new table starts with ---- */

static ddb_onum onum(double v)
{
    return (ddb_onum){ .has = true, .v = v };
}

/* A ProvisionedThroughputDescription of the units given (whole; none:
 * 0), no decreases yet. */
static ddb_tput *tput_new(const ddb_tput *given)
{
    ddb_tput *t = xcalloc(1, sizeof *t);
    t->rcu = onum(given && given->rcu.has ? (double)(long long)given->rcu.v : 0);
    t->wcu = onum(given && given->wcu.has ? (double)(long long)given->wcu.v : 0);
    t->decreases = onum(0);
    return t;
}

/* A WarmThroughput asked for: the members given, else the floor; ACTIVE. */
static void warm_set(ddb_warm *w, const ddb_tput *pt, bool ppr)
{
    if (!w)
        return;
    double fr, fw;
    store_capacity_warm_floor(pt, ppr, &fr, &fw);
    if (!w->read.has)
        w->read = onum(fr);
    if (!w->write.has)
        w->write = onum(fw);
    ddb_req_set_str(&w->status, "ACTIVE");
}

static char *arn_of(const char *table, const char *index)
{
    buf b = BUF_INIT;
    buf_printf(&b, STORE_ARN_PREFIX "%s", table);
    if (index)
        buf_printf(&b, "/index/%s", index);
    return (char *)b.data;
}

static void index_fill(const char *table, ddb_index_desc *x, const ddb_tput *table_pt, bool ppr, bool global)
{
    if (global) {
        ddb_req_set_str(&x->status, "CREATING");
        warm_set(x->warm, x->tput ? x->tput : table_pt, ppr);
        ddb_tput *given = x->tput;
        x->tput = tput_new(given);
        free(given);
    }
    x->bytes = onum(0);
    x->count = onum(0);
    x->arn = arn_of(table, x->name);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + (double)(ts.tv_nsec / 1000000) / 1000.0;
}

/* The description a new table starts with, of the table asked for. */
static ddb_table_desc *new_desc(const ddb_table_desc *asked)
{
    ddb_table_desc *t = ddbres_table_desc_copy(asked);
    bool ppr = t->billing && t->billing->mode && strcmp(t->billing->mode, "PAY_PER_REQUEST") == 0;
    double now = now_s();
    ddb_req_set_str(&t->status, "CREATING");
    t->created = onum(now);
    t->bytes = onum(0);
    t->count = onum(0);
    t->arn = arn_of(t->name, NULL);
    char id[37];
    store_uuid4(id);
    t->id = xstrdup(id);
    for (size_t i = 0; i < t->lsis.n; i++)
        index_fill(t->name, &t->lsis.v[i], t->tput, ppr, false);
    for (size_t i = 0; i < t->gsis.n; i++)
        index_fill(t->name, &t->gsis.v[i], t->tput, ppr, true);
    warm_set(t->warm, t->tput, ppr);
    ddb_tput *given = t->tput;
    t->tput = tput_new(given);
    free(given);
    if (ppr) {
        t->billing->last_ppr = onum(now);
        t->tmode = xcalloc(1, sizeof *t->tmode);
        t->tmode->mode = xstrdup("PAY_PER_REQUEST");
    } else if (t->billing) {   /* a provisioned table has no BillingModeSummary */
        free(t->billing->mode);
        free(t->billing);
        t->billing = NULL;
    }
    if (!t->vixs.n) {   /* an empty VectorIndexes is none */
        free(t->vixs.v);
        t->vixs.v = NULL;
    }
    /* The store builds a vector index in the transaction that creates it:
     * ACTIVE at once, and no Backfilling ("absent for an index created as
     * part of CreateTable", the API reference). */
    for (size_t i = 0; i < t->vixs.n; i++) {
        ddb_vindex_desc *v = &t->vixs.v[i];
        ddb_req_set_str(&v->status, "ACTIVE");
        v->bytes = onum(0);
        v->count = onum(0);
        v->arn = arn_of(t->name, v->name);
    }
    return t;
}

cJSON *store_create_tree(const cJSON *in)
{
    ddb_req req;
    ddb_req_init(&req, DDB_CREATE_TABLE);
    diag d;
    diag_init(&d);
    cJSON *tree = NULL;
    if (store_create_read(in, &req, &d) == ST_OK) {
        ddb_table_desc *t = new_desc(req.ctl.create);
        buf text = BUF_INIT;
        ddbres_table_desc_json(t, &text);
        tree = cJSON_ParseWithLength(text.data, text.len);
        buf_done(&text);
        ddbres_table_desc_free(t);
    }
    ddb_req_done(&req);
    return tree;
}

/* ---- the executor ---- */

/* The table asked for by a request that names it by def (the control
 * plane's C calls: store_create_table): the body CreateTable would send
 * (ddb_req_json), through the door's checks and reader. */
static status from_def(store *s, const ddb_req *req, ddb_req *own, diag *d)
{
    ddb_req_init(own, DDB_CREATE_TABLE);
    buf body = BUF_INIT;
    ddb_req_json(req, &body);
    cJSON *in = cJSON_ParseWithLength(body.data ? body.data : "{}", body.len);
    buf_done(&body);
    if (!in)
        return diag_set(d, ST_INTERNAL, "CreateTable's request did not print as JSON");
    status st = store_create_check(s, in, d);
    if (st == ST_OK)
        st = store_create_read(in, own, d);
    cJSON_Delete(in);
    return st;
}

static status insert(store *s, const char *name, const char *text, int64_t *tid, diag *d)
{
    sqlite3_stmt *q = store_stmt(s, Q_TABLE_BY_NAME, d);
    if (!q)
        return d->code;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    int rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc == SQLITE_ROW)
        return diag_set(d, ST_IN_USE, "Table already exists: %s", name);
    if (!(q = store_stmt(s, Q_TABLE_INSERT, d)))
        return d->code;
    sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(q, 2, text, -1, SQLITE_STATIC);
    rc = sqlite3_step(q);
    sqlite3_reset(q);
    if (rc != SQLITE_DONE)
        return store_sqlerr(s, d);
    *tid = sqlite3_last_insert_rowid(s->db);
    return ST_OK;
}

static status create(store *s, const ddb_req *req, ddb_table_desc **out, diag *d)
{
    const ddb_ctl *c = &req->ctl;
    const char *name = c->create->name;
    ddb_table_desc *desc = new_desc(c->create);
    buf text = BUF_INIT;
    ddbres_table_desc_json(desc, &text);
    ddbres_table_desc_free(desc);
    char *kept = xstrdup(text.data);
    buf_done(&text);
    int64_t tid = 0;
    status st = store_txn_begin(s, true, d);
    if (st != ST_OK) {
        free(kept);
        return st;
    }
    if ((st = insert(s, name, kept, &tid, d)) == ST_OK && (st = store_history_created(s, tid, d)) == ST_OK &&
        (st = store_tags_put_new(s, tid, &c->tags, d)) == ST_OK &&
        (st = store_policy_created(s, name, c->policy, d)) == ST_OK)
        st = store_streams_created(s, tid, name, c->stream_view, &kept, d);
    if (st == ST_OK)
        st = store_tables_desc_read(kept, out, d);
    free(kept);
    return store_txn_end(s, st, d);
}

status store_tables_create(store *s, const ddb_req *req, ddb_table_desc **out, diag *d)
{
    *out = NULL;
    if (req->ctl.create)
        return create(s, req, out, d);
    ddb_req own;
    status st = from_def(s, req, &own, d);
    if (st == ST_OK)
        st = create(s, &own, out, d);
    ddb_req_done(&own);
    return st;
}
