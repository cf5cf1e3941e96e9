/*
 * store_remote — the store interface over a DynamoDB endpoint.
 *
 * A remote store has no SQLite file: each public store function starts by
 * handing a remote store to the function here of the same name, which
 * maps it to DynamoDB requests sent through the caller's transport
 * (store_send_fn: remote_call over HTTP, or a local store's store_call in
 * tests). data/store.h describes the mapping. This file holds sending
 * (typed requests and requests passed through, capacity), the caches,
 * the write gate, opening and the table list; store_remote_browse.c the
 * partitions and pages, store_remote_write.c the bulk loads and table
 * writes; they share store_remote_int.h. What a remote store caches:
 * - table descriptions (DescribeTable), until store_refresh;
 * - per table or index, the partitions met so far, linked in Scan order
 *   as paging discovers them, each one's last item's position and its
 *   count once known (store_remote_browse.c);
 * - the capacity units consumed, summed from every response;
 * - the queue of a bulk load (BatchWriteItem of 25).
 * Every request of the store's own is a ddb_req printed by ddb_req_json;
 * each answer is parsed once, with cJSON, and read into the typed result
 * (store_codec_read) or, for a description, kept as its tree.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbreq.h"
#include "model/ddbjson.h"
#include "model/ddbres_tables.h"
#include "model/partiql.h"
#include "model/mem.h"

/* ---- reads and writes ---- */

/* Reads by model/ddbreq.h's table of operations. Everything not known to
 * be a read counts as a write: an operation the table does not know is
 * refused rather than sent by mistake. */
static bool is_read_op(const char *op)
{
    char k = ddb_op_kind_of(op);
    return k == 'r' || k == 'd' || k == 's';
}

static bool is_read_statement(const char *text)
{
    return text && pq_is_read_text(text, strlen(text));
}

/* A PartiQL request is a read when every statement is a SELECT. */
static bool is_read_json(const char *op, const cJSON *in)
{
    if (is_read_op(op))
        return true;
    const cJSON *one = cJSON_GetObjectItemCaseSensitive(in, "Statement");
    if (strcmp(op, "ExecuteStatement") == 0)
        return cJSON_IsString(one) && is_read_statement(one->valuestring);
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(
        in, strcmp(op, "BatchExecuteStatement") == 0 ? "Statements"
            : strcmp(op, "ExecuteTransaction") == 0 ? "TransactStatements" : "");
    if (!cJSON_IsArray(list) || !list->child)
        return false;
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        one = cJSON_GetObjectItemCaseSensitive(e, "Statement");
        if (!cJSON_IsString(one) || !is_read_statement(one->valuestring))
            return false;
    }
    return true;
}

static bool is_read_req(const ddb_req *req)
{
    const char *op = ddb_op_name(ddb_kind_op(req->kind));
    return is_read_op(op) || (req->kind == DDB_EXECUTE && is_read_statement(req->ctl.statement));
}

static bool takes_capacity(const char *op)
{
    char k = ddb_op_kind_of(op);
    return k == 'r' || k == 'w' || k == 'p';
}

/* ---- sending ---- */

static void add_one_capacity(store_remote *r, bool read, const cJSON *e)
{
    bool has_r, has_w, has_c;
    double rc = store_jnum(e, "ReadCapacityUnits", &has_r);
    double wc = store_jnum(e, "WriteCapacityUnits", &has_w);
    double cu = store_jnum(e, "CapacityUnits", &has_c);
    if (has_r || has_w) {
        r->rcu += rc;
        r->wcu += wc;
    } else if (has_c) {
        if (read)
            r->rcu += cu;
        else
            r->wcu += cu;
    }
}

static void add_capacity(store_remote *r, bool read, const cJSON *root)
{
    const cJSON *cc = cJSON_GetObjectItemCaseSensitive(root, "ConsumedCapacity");
    if (cJSON_IsObject(cc)) {
        add_one_capacity(r, read, cc);
    } else if (cJSON_IsArray(cc)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cc) add_one_capacity(r, read, e);
    }
}

/* The read units a read may take at most, when it is one 1 MB page (a
 * Query or Scan without Limit); 0 when it is not known to be. */
static double page_bound(const ddb_req *req)
{
    if ((req->kind != DDB_QUERY && req->kind != DDB_SCAN) || req->limit)
        return 0;
    return req->consistent ? 256 : 128;
}

/* The session's read budget: asked once before a read (or a round of
 * reads sent together) that has reached it, or that could pass it (bound:
 * what the read may take, 0 unknown); a yes lets that read through whole
 * and raises the budget by its first amount above what was read (issue
 * 42: it was raised by that amount until it covered the bound, a
 * question each time). */
static status within_budget(store_remote *r, const char *op, double bound, diag *d)
{
    if (r->budget <= 0 || (r->rcu < r->budget && r->rcu + bound <= r->budget))
        return ST_OK;
    double raised = ceil(r->rcu > r->budget ? r->rcu : r->budget) + r->budget_step;
    if (!r->budget_ask || !r->budget_ask(r->budget_ctx, r->rcu, r->budget, raised))
        return diag_set(d, ST_IO, "Budget: the session has read %.1f RCU of its %.0f; %s was not sent"
                        " (:budget RCU raises it)", r->rcu, r->budget, op);
    r->budget = raised;
    return ST_OK;
}

void store_set_read_budget(store *s, double rcu, store_budget_fn ask, void *ctx)
{
    if (!s->remote)
        return;
    s->remote->budget = s->remote->budget_step = rcu > 0 ? rcu : 0;
    s->remote->budget_ask = ask;
    s->remote->budget_ctx = ctx;
}

double store_read_budget(const store *s)
{
    return s->remote ? s->remote->budget : 0;
}

/*
 * One request body through the transport. On ST_OK the answer is parsed
 * once (*root, when asked for; the caller deletes it) and kept as text
 * (*raw, when asked for); its consumed capacity is added up (read: to the
 * read units when the answer does not say). On an error d holds what the
 * transport said and *raw the error's extra members, if any.
 */
static status send_body(store *s, const char *op, bool read, const char *body, size_t len,
                        cJSON **root, char **raw, diag *d)
{
    store_remote *r = s->remote;
    char *out = NULL;
    cJSON *tree = NULL;
    if (root)
        *root = NULL;
    if (raw)
        *raw = NULL;
    r->requests++;
    status st = r->send(r->ctx, op, body, len, &out, d);
    if (st != ST_OK) {
        if (raw)
            *raw = out;
        else
            free(out);
        return st;
    }
    diag pd;
    diag_init(&pd);
    if (!out || ddbjson_cjson_parse(out, strlen(out), &tree, &pd) != ST_OK || !cJSON_IsObject(tree)) {
        free(out);
        cJSON_Delete(tree);
        return diag_set(d, ST_INTERNAL, "%s: the endpoint's answer is not a JSON object", op);
    }
    add_capacity(r, read, tree);
    if (raw)
        *raw = out;
    else
        free(out);
    if (root)
        *root = tree;
    else
        cJSON_Delete(tree);
    return ST_OK;
}

status srem_send(store *s, const ddb_req *req, cJSON **root, ddb_err *err)
{
    ddb_req one, sent;
    if (req->kind == DDB_CHECK) {
        ddb_req_wrap(req, &one);
        req = &one;
    }
    const char *op = ddb_op_name(ddb_kind_op(req->kind));
    /* Every response should say what it consumed: a shallow copy, only
     * printed. */
    sent = *req;
    if (sent.rcc == DDB_RCC_NONE && takes_capacity(op))
        sent.rcc = DDB_RCC_TOTAL;
    buf body = BUF_INIT;
    ddb_req_json(&sent, &body);
    char *extra = NULL;
    status st = is_read_req(req) && takes_capacity(op) ? within_budget(s->remote, op, page_bound(req), &err->d)
                                                        : ST_OK;
    if (st != ST_OK) {
        if (root)
            *root = NULL;
        buf_done(&body);
        return st;
    }
    st = send_body(s, op, is_read_req(req), body.data, body.len, root, &extra, &err->d);
    if (st != ST_OK)
        store_codec_error(extra, err);
    free(extra);
    buf_done(&body);
    return st;
}

/* Requests sent together: their bodies in, each answer's text, status
 * and error out (the arrays of n, freed by many_free). */
typedef struct many_io {
    size_t n;
    buf *bodies;
    char **outs;
    status *sts;
    diag *ds;
} many_io;

static void many_init(many_io *m, size_t n)
{
    m->n = n;
    m->bodies = xcalloc(n, sizeof *m->bodies);
    m->outs = xcalloc(n, sizeof *m->outs);
    m->sts = xcalloc(n, sizeof *m->sts);
    m->ds = xcalloc(n, sizeof *m->ds);
}

/* Sends the bodies with store_set_send_many's function. */
static status many_send(store_remote *r, const char *op, many_io *m)
{
    const char **inputs = xcalloc(m->n, sizeof *inputs);
    size_t *lens = xcalloc(m->n, sizeof *lens);
    for (size_t i = 0; i < m->n; i++) {
        inputs[i] = m->bodies[i].data;
        lens[i] = m->bodies[i].len;
    }
    r->requests += m->n;
    status st = r->send_many(r->many_ctx, op, m->n, inputs, lens, m->outs, m->sts, m->ds);
    free(inputs);
    free(lens);
    return st;
}

static void many_free(many_io *m)
{
    for (size_t i = 0; i < m->n; i++) {
        buf_done(&m->bodies[i]);
        free(m->outs[i]);
    }
    free(m->bodies);
    free(m->outs);
    free(m->sts);
    free(m->ds);
}

status srem_read_many(store *s, const ddb_req *reqs, size_t n, ddb_res *res, diag *d)
{
    store_remote *r = s->remote;
    assert(r->send_many && n);
    const char *op = ddb_op_name(ddb_kind_op(reqs[0].kind));
    double bound = 0;
    for (size_t i = 0; i < n; i++)
        bound += page_bound(&reqs[i]);
    status st = within_budget(r, op, bound, d);
    if (st != ST_OK)
        return st;
    many_io m;
    many_init(&m, n);
    for (size_t i = 0; i < n; i++) {
        ddb_req sent = reqs[i];   /* shallow: only printed */
        if (sent.rcc == DDB_RCC_NONE)
            sent.rcc = DDB_RCC_TOTAL;
        ddb_req_json(&sent, &m.bodies[i]);
    }
    st = many_send(r, op, &m);
    if (st != ST_OK)
        *d = m.ds[0];
    for (size_t i = 0; i < n && st == ST_OK; i++) {
        cJSON *root = NULL;
        diag pd;
        diag_init(&pd);
        if (m.sts[i] != ST_OK) {
            st = m.sts[i];
            *d = m.ds[i];
        } else if (!m.outs[i] || ddbjson_cjson_parse(m.outs[i], strlen(m.outs[i]), &root, &pd) != ST_OK ||
                   !cJSON_IsObject(root)) {
            st = diag_set(d, ST_INTERNAL, "%s: the endpoint's answer is not a JSON object", op);
        } else {
            add_capacity(r, true, root);
            st = store_codec_read(root, &res[i], d);
        }
        cJSON_Delete(root);
    }
    many_free(&m);
    return st;
}

status srem_send_mixed(store *s, size_t n, const ddb_req *reqs, cJSON **roots, diag *d)
{
    store_remote *r = s->remote;
    status st = ST_OK;
    for (size_t i = 0; i < n; i++) {
        roots[i] = NULL;
        const char *op = ddb_op_name(ddb_kind_op(reqs[i].kind));
        if (st == ST_OK && is_read_req(&reqs[i]) && takes_capacity(op))
            st = within_budget(r, op, page_bound(&reqs[i]), d);
    }
    if (st != ST_OK || !n)
        return st;
    if (!r->send_mixed) {
        /* One after the other, as each would go alone. */
        for (size_t i = 0; i < n; i++) {
            ddb_err err;
            ddb_err_init(&err);
            status one = srem_send(s, &reqs[i], &roots[i], &err);
            if (one != ST_OK && st == ST_OK) {
                st = one;
                *d = err.d;
            }
            ddb_err_done(&err);
        }
        return st;
    }
    many_io m;
    many_init(&m, n);
    const char **ops = xcalloc(n, sizeof *ops);
    const char **inputs = xcalloc(n, sizeof *inputs);
    size_t *lens = xcalloc(n, sizeof *lens);
    for (size_t i = 0; i < n; i++) {
        ddb_req sent = reqs[i];   /* shallow: only printed */
        ops[i] = ddb_op_name(ddb_kind_op(sent.kind));
        if (sent.rcc == DDB_RCC_NONE && takes_capacity(ops[i]))
            sent.rcc = DDB_RCC_TOTAL;
        ddb_req_json(&sent, &m.bodies[i]);
        inputs[i] = m.bodies[i].data;
        lens[i] = m.bodies[i].len;
    }
    r->requests += n;
    st = r->send_mixed(r->mixed_ctx, n, ops, inputs, lens, m.outs, m.sts, m.ds);
    if (st != ST_OK)
        *d = m.ds[0];
    for (size_t i = 0; i < n; i++) {
        diag pd;
        diag_init(&pd);
        if (m.sts[i] != ST_OK) {
            if (st == ST_OK) {
                st = m.sts[i];
                *d = m.ds[i];
            }
        } else if (!m.outs[i] || ddbjson_cjson_parse(m.outs[i], strlen(m.outs[i]), &roots[i], &pd) != ST_OK ||
                   !cJSON_IsObject(roots[i])) {
            cJSON_Delete(roots[i]);
            roots[i] = NULL;
            if (st == ST_OK)
                st = diag_set(d, ST_INTERNAL, "%s: the endpoint's answer is not a JSON object", ops[i]);
        } else {
            add_capacity(r, is_read_req(&reqs[i]), roots[i]);
        }
    }
    free(ops);
    free(inputs);
    free(lens);
    many_free(&m);
    return st;
}

void store_set_send_mixed(store *s, store_send_mixed_fn fn, void *ctx)
{
    if (!s->remote)
        return;
    s->remote->send_mixed = fn;
    s->remote->mixed_ctx = ctx;
}

/* srem_send with the answer read into res (store_codec_read). */
static status send_read(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    cJSON *root;
    status st = srem_send(s, req, &root, err);
    if (st == ST_OK)
        st = store_codec_read(root, res, &err->d);
    cJSON_Delete(root);
    return st;
}

static status own_call(store *s, const ddb_req *req, cJSON **root, ddb_res *res, bool gated, diag *d);

/* ---- caches ---- */

static void rtable_free(rtable *t)
{
    free(t->ttl);
    free(t->name);
    table_def_free(&t->def);
    cJSON_Delete(t->desc);
    free(t);
}

static void rscan_free(rscan *sc)
{
    for (size_t i = 0; i < sc->n; i++) {
        av_done(&sc->parts[i].pk);
        av_done(&sc->parts[i].last);
    }
    for (size_t i = 0; i < sc->n_first; i++)
        av_done(&sc->first[i]);
    free(sc->first);
    free(sc->parts);
    free(sc->slots);
    free(sc->table);
    free(sc->index);
    free(sc);
}

void srem_forget(store_remote *r, const char *table, bool descriptions)
{
    for (rscan **pp = &r->scans; *pp;) {
        rscan *sc = *pp;
        if (!table || strcmp(sc->table, table) == 0) {
            *pp = sc->next;
            rscan_free(sc);
        } else {
            pp = &sc->next;
        }
    }
    if (!descriptions)
        return;
    for (rtable **pp = &r->tables; *pp;) {
        rtable *t = *pp;
        if (!table || strcmp(t->name, table) == 0) {
            *pp = t->next;
            rtable_free(t);
        } else {
            pp = &t->next;
        }
    }
}

void store_remote_free(store_remote *r)
{
    if (!r)
        return;
    srem_forget(r, NULL, true);
    free(r->where);
    ddb_req_done(&r->batch);
    free(r->approved);
    free(r);
}

status srem_table_put(store_remote *r, const char *name, cJSON *root, rtable **out, diag *d)
{
    cJSON *desc = cJSON_DetachItemFromObjectCaseSensitive(root, "Table");
    cJSON_Delete(root);
    if (!cJSON_IsObject(desc)) {
        cJSON_Delete(desc);
        return diag_set(d, ST_INTERNAL, "DescribeTable %s: the answer has no Table", name);
    }
    rtable *t = xcalloc(1, sizeof *t);
    status st = store_def_from_tree(desc, &t->def, d);
    if (st == ST_OK && !t->def.pk.name)
        st = diag_set(d, ST_INTERNAL, "DescribeTable %s: no key schema in the answer", name);
    if (st != ST_OK) {
        table_def_free(&t->def);
        cJSON_Delete(desc);
        free(t);
        return st;
    }
    t->name = xstrdup(name);
    t->desc = desc;
    t->next = r->tables;
    r->tables = t;
    *out = t;
    return ST_OK;
}

rtable *srem_table_cached(store_remote *r, const char *name)
{
    for (rtable *t = r->tables; t; t = t->next)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

status srem_table_get(store *s, const char *name, rtable **out, diag *d)
{
    store_remote *r = s->remote;
    if ((*out = srem_table_cached(r, name)))
        return ST_OK;
    ddb_req req;
    ddb_req_init(&req, DDB_DESCRIBE_TABLE);
    req.table = xstrdup(name);
    cJSON *root = NULL;
    status st = own_call(s, &req, &root, NULL, false, d);
    ddb_req_done(&req);
    if (st != ST_OK)
        return st;
    return srem_table_put(r, name, root, out, d);
}

void store_set_send_many(store *s, store_send_many_fn fn, void *ctx)
{
    if (!s->remote)
        return;
    s->remote->send_many = fn;
    s->remote->many_ctx = ctx;
}

void store_describe_many(store *s, const char *const *names, size_t n)
{
    store_remote *r = s->remote;
    if (!r)
        return;
    const char **todo = xcalloc(n ? n : 1, sizeof *todo);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!srem_table_cached(r, names[i]))
            todo[k++] = names[i];
    if (k < 2 || !r->send_many) {
        /* One (or no way to send together): as store_describe would. */
        for (size_t i = 0; i < k; i++) {
            rtable *t;
            diag d;
            diag_init(&d);
            srem_table_get(s, todo[i], &t, &d);
        }
        free(todo);
        return;
    }
    many_io m;
    many_init(&m, k);
    for (size_t i = 0; i < k; i++) {
        ddb_req req;
        ddb_req_init(&req, DDB_DESCRIBE_TABLE);
        req.table = xstrdup(todo[i]);
        ddb_req_json(&req, &m.bodies[i]);
        ddb_req_done(&req);
    }
    many_send(r, "DescribeTable", &m);
    for (size_t i = 0; i < k; i++) {
        cJSON *root = NULL;
        diag pd;
        diag_init(&pd);
        rtable *t;
        if (m.sts[i] == ST_OK && m.outs[i] &&
            ddbjson_cjson_parse(m.outs[i], strlen(m.outs[i]), &root, &pd) == ST_OK)
            srem_table_put(r, todo[i], root, &t, &pd);
        else
            cJSON_Delete(root);
    }
    many_free(&m);
    free(todo);
}

/* ---- the write gate ---- */

/* One write the gate is told of: what (the operation or the action), the
 * table, and its key (from the Key, or from the Item when the table's
 * key schema says which attributes those are). */
typedef struct wact {
    const char *what, *table;
    const av *key, *item;     /* NULL when absent */
} wact;

/* "PK=ACTOR#alice, SK=PROFILE" from a Key or Item, keys only when def is
 * known (an Item carries more than its key). */
static void key_text(buf *out, const av *obj, const table_def *def)
{
    const char *names[2] = { def ? def->pk.name : NULL, def ? def->sk.name : NULL };
    bool first = true;
    for (size_t i = 0; i < obj->u.m.len; i++) {
        const av_member *m = &obj->u.m.v[i];
        if (def && !((names[0] && strcmp(m->name, names[0]) == 0) ||
                     (names[1] && strcmp(m->name, names[1]) == 0)))
            continue;
        buf_printf(out, "%s%s=", first ? "" : ", ", m->name);
        first = false;
        if (m->val.type == AV_S || m->val.type == AV_N)
            av_scalar_text(&m->val, out);
        else
            buf_adds(out, "(binary)");
    }
}

static void one_write(store *s, const wact *a, buf *out)
{
    buf_printf(out, "%s on %s", a->what, a->table ? a->table : "?");
    const av *obj = a->key ? a->key : a->item;
    if (!obj || !a->table)
        return;
    rtable *t = NULL;
    diag d;
    diag_init(&d);
    if (!a->key && srem_table_get(s, a->table, &t, &d) != ST_OK)
        return;
    buf_adds(out, ", key ");
    key_text(out, obj, t ? &t->def : NULL);
}

/* What a write request would do, for the gate: the operation, table and
 * key; for a transaction (of total actions) or a batch its first few
 * actions. */
static void summary(store *s, const char *op, const wact *acts, size_t n, size_t total, buf *out)
{
    bool txn = strcmp(op, "TransactWriteItems") == 0, batch = strcmp(op, "BatchWriteItem") == 0;
    if (txn)
        buf_printf(out, "TransactWriteItems of %zu action%s: ", total, total == 1 ? "" : "s");
    else if (batch)
        buf_adds(out, "BatchWriteItem: ");
    if (txn || batch) {
        for (size_t k = 0; k < n; k++) {
            if (k == 3) {
                buf_adds(out, "; ...");
                break;
            }
            if (k)
                buf_adds(out, "; ");
            one_write(s, &acts[k], out);
        }
    } else if (n && acts[0].table) {
        one_write(s, &acts[0], out);
    } else {
        buf_adds(out, op);
    }
    buf_printf(out, " (%s)", s->remote->where);
}

static const av *m_or_null(const av *v)
{
    return v->type == AV_M ? v : NULL;
}

/* The summary of a typed request: its actions (a batch's grouped by
 * table, as ddb_req_json sends them). */
static void summary_req(store *s, const char *op, const ddb_req *r, buf *out)
{
    size_t n = r->n_acts ? r->n_acts : 1, k = 0;
    wact *acts = xcalloc(n, sizeof *acts);
    if (r->kind == DDB_TRANSACT_WRITE) {
        for (size_t i = 0; i < r->n_acts; i++) {
            const ddb_req *a = &r->acts[i];
            acts[k++] = (wact){ ddb_kind_action_name(a->kind), a->table, m_or_null(&a->key), m_or_null(&a->item) };
        }
    } else if (r->kind == DDB_BATCH_WRITE) {
        for (size_t i = 0; i < r->n_acts; i++) {
            const char *t = r->acts[i].table ? r->acts[i].table : "";
            bool seen = false;
            for (size_t j = 0; j < i && !seen; j++)
                seen = strcmp(r->acts[j].table ? r->acts[j].table : "", t) == 0;
            for (size_t j = i; !seen && j < r->n_acts; j++) {
                const ddb_req *a = &r->acts[j];
                if (strcmp(a->table ? a->table : "", t) != 0)
                    continue;
                bool put = a->kind == DDB_PUT;
                acts[k++] = (wact){ put ? "Put" : "Delete", t, put ? NULL : m_or_null(&a->key),
                                    put ? m_or_null(&a->item) : NULL };
            }
        }
    } else {
        acts[k++] = (wact){ op, r->table, m_or_null(&r->key), m_or_null(&r->item) };
    }
    summary(s, op, acts, k, r->n_acts, out);
    free(acts);
}

/* One write of a request passed through as JSON: its Key and Item read
 * into own[0] and own[1] (left out when they are not DynamoDB JSON). */
static wact json_act(const char *what, const char *table, const cJSON *o, av own[2])
{
    wact a = { what, table, NULL, NULL };
    static const char *const members[2] = { "Key", "Item" };
    const av **dst[2] = { &a.key, &a.item };
    for (int i = 0; i < 2; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, members[i]);
        diag d;
        diag_init(&d);
        if (cJSON_IsObject(v) && ddbjson_item_from_cjson(v, NULL, &own[i], &d) == ST_OK)
            *dst[i] = &own[i];
    }
    return a;
}

/* The summary of a request passed through as JSON. */
static void summary_json(store *s, const char *op, const cJSON *in, buf *out)
{
    bool txn = strcmp(op, "TransactWriteItems") == 0, batch = strcmp(op, "BatchWriteItem") == 0;
    size_t cap = 4, n = 0, total = 0;
    wact *acts = xcalloc(cap, sizeof *acts);
    av *own = xcalloc(2 * cap, sizeof *own);
    const cJSON *e, *t;
    if (txn) {
        const cJSON *items = cJSON_GetObjectItemCaseSensitive(in, "TransactItems");
        total = (size_t)cJSON_GetArraySize(items);
        cJSON_ArrayForEach(e, items) {
            const cJSON *a = e->child;
            if (a && a->string && n < cap)
                acts[n] = json_act(a->string, store_jstr(a, "TableName"), a, &own[2 * n]), n++;
        }
    } else if (batch) {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(in, "RequestItems")) {
            cJSON_ArrayForEach(e, t) {
                const cJSON *a = e->child;
                if (!a || !a->string || n == cap)
                    continue;
                bool put = strcmp(a->string, "PutRequest") == 0;
                acts[n] = json_act(put ? "Put" : "Delete", t->string, a, &own[2 * n]);
                n++;
            }
        }
    } else {
        acts[n] = json_act(op, store_jstr(in, "TableName"), in, &own[0]);
        n++;
    }
    summary(s, op, acts, n, total, out);
    for (size_t i = 0; i < 2 * cap; i++)
        av_done(&own[i]);
    free(own);
    free(acts);
}

/* The checks before a write: the store opened for writing, then the gate
 * (if set) shown what, or a summary of req or of the JSON in. */
static status may_write(store *s, const char *op, const ddb_req *req, const cJSON *in, const char *what,
                        diag *d)
{
    store_remote *r = s->remote;
    if (!r->writable)
        return diag_set(d, ST_READ_ONLY, "%s is read-only (start ddbx with --write to allow writes):"
                        " %s was not sent", r->where, op);
    if (!r->gate)
        return ST_OK;
    buf sum = BUF_INIT;
    status st = ST_OK;
    if (what)
        buf_adds(&sum, what);
    else if (req)
        summary_req(s, op, req, &sum);
    else
        summary_json(s, op, in, &sum);
    if (!r->gate(r->gate_ctx, sum.data))
        st = diag_set(d, ST_READ_ONLY, "declined, not sent: %s", sum.data);
    buf_done(&sum);
    return st;
}

status srem_may_write(store *s, const ddb_req *req, const char *what, diag *d)
{
    return may_write(s, ddb_op_name(ddb_kind_op(req->kind)), req, NULL, what, d);
}

/* ---- opening ---- */

status store_open_remote(store_send_fn send, void *ctx, const char *describe, unsigned flags,
                         store **out, diag *d)
{
    assert(send);
    *out = NULL;
    store *s = xcalloc(1, sizeof *s);
    store_remote *r = xcalloc(1, sizeof *r);
    r->send = send;
    r->ctx = ctx;
    r->where = xstrdup(describe ? describe : "remote endpoint");
    r->writable = (flags & STORE_REMOTE_WRITE) && !(flags & STORE_READ_ONLY);
    ddb_req_init(&r->batch, DDB_BATCH_WRITE);
    s->remote = r;
    s->read_only = !r->writable;
    *out = s;
    (void)d;
    return ST_OK;
}

void store_set_write_gate(store *s, store_gate_fn gate, void *ctx)
{
    if (!s->remote)
        return;
    s->remote->gate = gate;
    s->remote->gate_ctx = ctx;
}

void store_get_info(const store *s, store_info *out)
{
    memset(out, 0, sizeof *out);
    if (!s->remote) {
        out->writable = !s->read_only;
        return;
    }
    const store_remote *r = s->remote;
    out->remote = true;
    out->writable = r->writable;
    out->where = r->where;
    out->rcu = r->rcu;
    out->wcu = r->wcu;
    out->requests = r->requests;
}

void store_refresh(store *s, const char *table)
{
    if (s->remote)
        srem_forget(s->remote, table, true);
}

void store_set_page_hint(store *s, size_t items)
{
    if (s->remote)
        s->remote->page_hint = items;
}

void store_set_scan_limit(store *s, size_t items)
{
    if (s->remote)
        s->remote->scan_limit = items;
}

/* ---- requests ---- */

/* After a write that was sent: the partitions discovered may have
 * changed, and a table's description with CreateTable, DeleteTable or
 * UpdateTable. */
static void wrote(store *s, const char *op)
{
    srem_forget(s->remote, NULL, strcmp(op, "CreateTable") == 0 || strcmp(op, "DeleteTable") == 0 ||
                                 strcmp(op, "UpdateTable") == 0 || strcmp(op, "UpdateTimeToLive") == 0);
}

/*
 * A request passed through (store_call, store_call_line), parsed into in:
 * the write checks, then ReturnConsumedCapacity TOTAL, when the operation
 * takes it and the request does not say, put first in the tree; sent as
 * text when it is unchanged, else as the tree printed. *out is the
 * answer's text (or an error's extra members).
 */
static status pass(store *s, const char *op, cJSON *in, const char *text, size_t len, char **out,
                   diag *d)
{
    buf_reset(&s->err_msg);
    bool write = !is_read_json(op, in);
    status st = ST_OK;
    if (write && (st = may_write(s, op, NULL, in, NULL, d)) != ST_OK)
        return st;
    char *printed = NULL;
    if (takes_capacity(op) && !cJSON_GetObjectItemCaseSensitive(in, "ReturnConsumedCapacity")) {
        cJSON *rcc = cJSON_AddStringToObject(in, "ReturnConsumedCapacity", "TOTAL");
        cJSON_DetachItemViaPointer(in, rcc);
        cJSON_InsertItemInArray(in, 0, rcc);
        text = NULL;
    }
    if (!text) {
        text = printed = cJSON_PrintUnformatted(in);
        len = strlen(printed);
    }
    if (!write && takes_capacity(op) && (st = within_budget(s->remote, op, 0, d)) != ST_OK) {
        free(printed);
        return st;
    }
    st = send_body(s, op, !write, text, len, NULL, out, d);
    free(printed);
    if (st == ST_OK && write)
        wrote(s, op);
    return st;
}

status store_remote_call(store *s, const char *op, const char *input, size_t len, char **out,
                         diag *d)
{
    *out = NULL;
    cJSON *in = NULL;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(input, len, &in, &pd) != ST_OK)
        return diag_set(d, ST_SERIALIZATION, "%s", pd.msg);
    status st;
    if (!cJSON_IsObject(in))
        st = diag_set(d, ST_SERIALIZATION, "Start of list found where not expected");
    else
        st = pass(s, op, in, input, len, out, d);
    cJSON_Delete(in);
    return st;
}

/* A line's request, sent from the line's own tree. */
static status line_pass(store *s, const char *op, cJSON *in, char **body, diag *d)
{
    return pass(s, op, in, NULL, 0, body, d);
}

status store_remote_call_line(store *s, const char *line, size_t len, char **out)
{
    return store_line_run(s, line, len, line_pass, out);
}

/* store_exec's steps on a remote store: the write gate for a write, one
 * print and one parse, the answer read into res or, when res is NULL,
 * handed over as its tree (*root). */
static status exec_req(store *s, const ddb_req *req, ddb_res *res, cJSON **root, ddb_err *err)
{
    ddb_req one;
    if (req->kind == DDB_CHECK) {
        ddb_req_wrap(req, &one);
        req = &one;
    }
    if (req->kind == DDB_CREATE_TABLE || req->kind == DDB_DELETE_TABLE)
        return srem_table_write(s, req, err);
    const char *op = ddb_op_name(ddb_kind_op(req->kind));
    bool write = !is_read_req(req);
    status st = write ? may_write(s, op, req, NULL, NULL, &err->d) : ST_OK;
    if (st == ST_OK)
        st = res ? send_read(s, req, res, err) : srem_send(s, req, root, err);
    if (st == ST_OK && write)
        wrote(s, op);
    return st;
}

status store_remote_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    return exec_req(s, req, res, NULL, err);
}

/* A request of the store's own, its error into d: the answer as a tree
 * (root) or read into res; through the write gate when gated. */
static status own_call(store *s, const ddb_req *req, cJSON **root, ddb_res *res, bool gated, diag *d)
{
    ddb_err err;
    ddb_err_init(&err);
    status st = gated ? exec_req(s, req, res, root, &err)
              : res ? send_read(s, req, res, &err) : srem_send(s, req, root, &err);
    if (st != ST_OK)
        *d = err.d;
    ddb_err_done(&err);
    return st;
}

status srem_read(store *s, const ddb_req *req, ddb_res *res, diag *d)
{
    return own_call(s, req, NULL, res, false, d);
}

/* ---- tables ---- */

status store_remote_list_tables(store *s, char ***names, size_t *n, diag *d)
{
    *names = NULL;
    *n = 0;
    ddb_req req;
    ddb_req_init(&req, DDB_LIST_TABLES);
    status st = ST_OK;
    do {
        ddb_res res;
        ddb_res_init(&res);
        st = srem_read(s, &req, &res, d);
        ddb_req_set_str(&req.ctl.start_name, NULL);
        ddb_tables_res *t = res.tables;
        if (st == ST_OK && t) {
            /* The page's names are taken, not copied. */
            *names = xrealloc(*names, (*n + t->n_names + 1) * sizeof **names);
            memcpy(*names + *n, t->names, t->n_names * sizeof *t->names);
            *n += t->n_names;
            t->n_names = 0;
            ddb_req_set_str(&req.ctl.start_name, t->last_name);
        }
        ddb_res_done(&res);
    } while (st == ST_OK && req.ctl.start_name);
    ddb_req_done(&req);
    if (st != ST_OK) {
        store_names_free(*names, *n);
        *names = NULL;
        *n = 0;
    }
    return st;
}

status store_remote_describe(store *s, const char *table, table_def *def, diag *d)
{
    memset(def, 0, sizeof *def);
    rtable *t;
    status st = srem_table_get(s, table, &t, d);
    if (st == ST_OK)
        table_def_copy(def, &t->def);
    return st;
}
