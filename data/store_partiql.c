/*
 * store_partiql — ExecuteStatement, BatchExecuteStatement and
 * ExecuteTransaction, and the explorer's typed entry (store_partiql_page).
 *
 * A statement is parsed and planned by model/partiql against the table's
 * definition, then run with the store's own operations, so validation,
 * capacity and paging are theirs: a SELECT is one Query a partition (or a
 * Scan) with only its key condition, and the filter and the SELECT list
 * are applied here to what it read (which is why a filter may name key
 * attributes, as PartiQL allows); INSERT is a PutItem with
 * attribute_not_exists on the partition key (a failure is
 * DuplicateItemException), UPDATE an UpdateItem with attribute_exists
 * (an UPDATE of no item fails, as the developer guide says), DELETE a
 * DeleteItem whose condition lets a missing item pass. Transactions are
 * TransactWriteItems / TransactGetItems.
 *
 * NextToken is ours, opaque to the caller: base64 of {"p":partition
 * index,"k":LastEvaluatedKey}.
 *
 * ClientRequestToken: a transaction's token and request are remembered
 * for 10 minutes (in this store handle); the same token with the same
 * request answers what the first did without running it again, with a
 * different request IdempotentParameterMismatchException.
 */
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_ops.h"
#include "model/base64.h"
#include "model/ddbjson.h"
#include "model/ddbres.h"
#include "model/ddbres_meta.h"
#include "model/mem.h"
#include "model/partiql.h"

#define TOKEN_TTL 600          /* seconds a ClientRequestToken is remembered */
#define MAX_TOKENS 256

/* ---- request shapes ---- */

static const vspec attr_elem = { .name = "member", .type = VT_ATTR };

#define F_STATEMENT { .name = "Statement", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, \
                      .max_len = PQ_MAX_BYTES }
#define F_PARAMS { .name = "Parameters", .type = VT_LIST, .min_len = 1, .elem = &attr_elem }
#define F_RVCCF { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = sop_e_rvccf }

static const vspec exec_spec[] = {
    F_STATEMENT, F_PARAMS,
    { .name = "ConsistentRead", .type = VT_BOOL },
    { .name = "NextToken", .type = VT_STRING, .min_len = 1, .max_len = 32768 },
    F_RCC,
    { .name = "Limit", .type = VT_INT, .ge = 1, .has_ge = true },
    F_RVCCF,
    F_END,
};
static const vspec batch_fields[] = {
    F_STATEMENT, F_PARAMS,
    { .name = "ConsistentRead", .type = VT_BOOL },
    F_RVCCF,
    F_END,
};
static const vspec batch_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "BatchStatementRequest",
                                  .fields = batch_fields };
static const vspec batch_spec[] = {
    { .name = "Statements", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1,
      .max_len = PQ_MAX_BATCH, .elem = &batch_elem },
    F_RCC,
    F_END,
};
static const vspec tx_fields[] = {
    F_STATEMENT, F_PARAMS, F_RVCCF, F_END,
};
static const vspec tx_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "ParameterizedStatement",
                               .fields = tx_fields };
static const vspec tx_spec[] = {
    { .name = "TransactStatements", .type = VT_LIST, .flags = VF_NOTNULL, .min_len = 1,
      .max_len = PQ_MAX_TRANSACT, .elem = &tx_elem },
    { .name = "ClientRequestToken", .type = VT_STRING, .min_len = 1, .max_len = 36 },
    F_RCC,
    F_END,
};

/* ---- small helpers ---- */

/* A map the plan made, for a request: the maps DynamoDB refuses empty
 * are left out. */
static void set_map(av *dst, const av *m)
{
    if (m->type == AV_M && m->u.m.len)
        av_copy(dst, m);
}

/* The ConsumedCapacity of several reads or writes, added up per table
 * (caps.caps) in TOTAL and INDEXES form alike; mode: what the request
 * asked for. */
typedef struct caps {
    ddb_res acc;
    ddb_rcc mode;
} caps;

static void caps_init(caps *c, const char *rcc)
{
    ddb_res_init(&c->acc);
    c->mode = ddb_rcc_find(rcc);
}

/* Appends the accumulated capacity, every table's. */
static void caps_write(caps *c, buf *out)
{
    sop_units_of(&c->acc);
    if (c->acc.n_caps)
        ddbres_caps_json(out, c->mode, &c->acc, true);
}

static void caps_done(caps *c)
{
    ddb_res_done(&c->acc);
}

/* The error of a store operation: its members for the answer
 * (s->err_extra) and its diag, as the JSON door reports them. */
static status op_error(store *s, const ddb_err *e, diag *d)
{
    buf_reset(&s->err_extra);
    return sop_error(s, e, d);
}

/* ---- one statement ---- */

typedef struct pstmt {
    pq_stmt *st;
    pq_plan plan;
    bool planned;
    bool all_old;        /* ReturnValuesOnConditionCheckFailure ALL_OLD */
    bool consistent;
} pstmt;

static void pstmt_done(pstmt *p)
{
    if (p->planned)
        pq_plan_done(&p->plan);
    pq_free(p->st);
    memset(p, 0, sizeof *p);
}

/* Parses and plans a statement (params: its `?` values, an L; AV_NONE:
 * none). */
static status prepare(store *s, const char *text, const av *params, bool all_old, bool consistent,
                      pstmt *p, diag *d)
{
    memset(p, 0, sizeof *p);
    p->all_old = all_old;
    p->consistent = consistent;
    bool has = params->type == AV_L;
    status st = pq_parse(text, strlen(text), has ? params->u.l.v : NULL, has ? params->u.l.len : 0,
                         &p->st, d);
    if (st != ST_OK)
        return st;
    tinfo *t;
    if ((st = store_table(s, pq_table(p->st), &t, d)) != ST_OK)
        return st;
    if ((st = pq_plan_of(p->st, &t->def, &p->plan, d)) != ST_OK)
        return st;
    p->planned = true;
    return ST_OK;
}

/* The members a statement of the JSON door has, {Statement, Parameters,
 * ConsistentRead, ReturnValuesOnConditionCheckFailure}, into their typed
 * form (*params an L, each value read with its place for a message). */
static status read_stmt(const cJSON *req, const char **text, av *params, bool *all_old,
                        bool *consistent, diag *d)
{
    *text = store_jstr(req, "Statement");
    av_init_list(params, AV_L);
    const cJSON *e;
    size_t i = 0;
    cJSON_ArrayForEach(e, store_jget(req, "Parameters")) {
        char path[48];
        snprintf(path, sizeof path, "parameters.%zu", ++i);
        av v;
        status st = ddbjson_value_from_cjson(e, path, &v, d);
        if (st != ST_OK)
            return st;
        av_list_push(params, &v);
    }
    const char *rvccf = store_jstr(req, "ReturnValuesOnConditionCheckFailure");
    *all_old = rvccf && strcmp(rvccf, "ALL_OLD") == 0;
    *consistent = cJSON_IsTrue(store_jget(req, "ConsistentRead"));
    return ST_OK;
}

/* A statement of BatchExecuteStatement or ExecuteTransaction, read and
 * planned. */
static status prepare_json(store *s, const cJSON *req, pstmt *p, diag *d)
{
    memset(p, 0, sizeof *p);
    const char *text;
    av params;
    bool all_old, consistent;
    status st = read_stmt(req, &text, &params, &all_old, &consistent, d);
    if (st == ST_OK)
        st = prepare(s, text, &params, all_old, consistent, p, d);
    av_done(&params);
    return st;
}

static bool is_read(const pstmt *p)
{
    return pq_get_kind(p->st) == PQ_SELECT;
}

/* The NextToken of a read stopped at partition pi (lek: where in it, or
 * NULL to start it). */
static char *token_of(size_t pi, const av *lek)
{
    buf raw = BUF_INIT;
    buf_printf(&raw, "{\"p\":%zu", pi);
    if (lek) {
        buf_adds(&raw, ",\"k\":");
        ddbjson_write_item(&raw, lek);
    }
    buf_addc(&raw, '}');
    buf b = BUF_INIT;
    base64_encode(&b, raw.data, raw.len);
    buf_done(&raw);
    return buf_steal(&b);
}

/* A NextToken read back: the partition, and where in it (*lek, AV_NONE:
 * from its start). */
static status read_token(const char *tok, size_t n_parts, size_t *pi, av *lek, diag *d)
{
    buf raw = BUF_INIT;
    cJSON *root = NULL;
    status st = ST_OK;
    diag pd;
    diag_init(&pd);
    lek->type = AV_NONE;
    const cJSON *p = NULL, *k = NULL;
    if (base64_decode(&raw, tok, strlen(tok)) == BASE64_OK &&
        ddbjson_cjson_parse(raw.data ? raw.data : "", raw.len, &root, &pd) == ST_OK) {
        p = cJSON_GetObjectItemCaseSensitive(root, "p");
        k = cJSON_GetObjectItemCaseSensitive(root, "k");
    }
    if (!cJSON_IsNumber(p) || p->valuedouble < 0 || (size_t)p->valuedouble >= n_parts ||
        (k && !cJSON_IsObject(k))) {
        st = diag_set(d, ST_VALIDATION, "Invalid NextToken");
        goto out;
    }
    *pi = (size_t)p->valuedouble;
    if (k && ddbjson_item_from_cjson(k, NULL, lek, &pd) != ST_OK)
        st = diag_set(d, ST_VALIDATION, "The provided starting key is invalid: %s", pd.msg);
out:
    cJSON_Delete(root);
    buf_done(&raw);
    return st;
}

/*
 * A SELECT: Query a partition at a time (or Scan), filter and project
 * what comes back into out's items; the capacity read is added into
 * into's. limit 0: none. Stops at a page's end (1 MB or Limit); paged: with
 * out's NextToken (and LastEvaluatedKey when it stopped inside a
 * partition).
 */
static status exec_select(store *s, const pstmt *p, ddb_rcc rcc, long limit, const char *token,
                          bool paged, ddb_res *out, ddb_res *into, ddb_err *err)
{
    const pq_plan *pl = &p->plan;
    bool query = pl->op == PQ_OP_QUERY;
    size_t parts = query ? pl->n_pks : 1, pi = 0;
    status st = ST_OK;
    long evaluated = 0;
    av lek = { .type = AV_NONE };
    if (token && (st = read_token(token, parts, &pi, &lek, &err->d)) != ST_OK)
        return st;
    for (; pi < parts; pi++) {
        ddb_req q;
        ddb_req_init(&q, query ? DDB_QUERY : DDB_SCAN);
        ddb_req_set_str(&q.table, pl->table);
        ddb_req_set_str(&q.index, pl->index);
        q.consistent = p->consistent;
        q.rcc = rcc;
        if (query) {
            ddb_req_set_str(&q.keycond, pl->key_cond);
            set_map(&q.names, &pl->key_names);
            av_copy(&q.values, &pl->key_values);
            av c;
            av_copy(&c, &pl->pks[pi]);
            av_map_put(&q.values, ":pk", 3, &c);
            q.backward = !pl->forward;
        }
        if (limit)
            q.limit = (uint32_t)(limit - evaluated);
        av_move(&q.start, &lek);
        ddb_res res;
        ddb_res_init(&res);
        st = store_exec(s, &q, &res, err);
        ddb_req_done(&q);
        if (st != ST_OK) {
            ddb_res_done(&res);
            break;
        }
        ddb_res_add_caps(into, &res);
        for (size_t i = 0; i < res.n_items; i++) {
            av proj;
            if (!pq_plan_match(pl, &res.items[i]))
                continue;
            pq_plan_project(pl, &res.items[i], &proj);
            ddb_res_push_item(out, &proj);
        }
        evaluated += (long)res.scanned;
        bool more = res.last_key.type == AV_M;
        if (more && paged) {
            out->next_token = token_of(pi, &res.last_key);
            av_move(&out->last_key, &res.last_key);
        }
        ddb_res_done(&res);
        if (more)
            break;
        if (limit && evaluated >= limit) {
            if (paged && pi + 1 < parts)
                out->next_token = token_of(pi + 1, NULL);
            break;
        }
    }
    av_done(&lek);
    return st;
}

/* The typed request of a write statement for its store operation (or, in
 * a transaction, one of its actions: no ReturnValues, no
 * ReturnConsumedCapacity of its own). */
static void write_req(const pstmt *p, ddb_rcc rcc, bool in_tx, ddb_req *q)
{
    static const ddb_kind kinds[] = { [PQ_OP_PUT] = DDB_PUT, [PQ_OP_UPDATE] = DDB_UPDATE,
                                      [PQ_OP_DELETE] = DDB_DELETE, [PQ_OP_CHECK] = DDB_CHECK };
    const pq_plan *pl = &p->plan;
    ddb_req_init(q, kinds[pl->op]);
    ddb_req_set_str(&q->table, pl->table);
    if (pl->op == PQ_OP_PUT)
        av_copy(&q->item, &pl->item);
    else
        av_copy(&q->key, &pl->key);
    ddb_req_set_str(&q->update, pl->update);
    ddb_req_set_str(&q->cond, pl->condition);
    set_map(&q->names, &pl->names);
    set_map(&q->values, &pl->values);
    if (!in_tx) {
        q->rv = ddb_rv_find(pl->return_values);
        q->rcc = rcc;
    }
    if (pl->op != PQ_OP_PUT)
        q->rv_fail_all_old = p->all_old;
}

static const char DUP_MSG[] = "Duplicate primary key exists in table";

/* An INSERT, UPDATE or DELETE on its own; a returned item goes to out's
 * items, the capacity written is added into into's. */
static status exec_write(store *s, const pstmt *p, ddb_rcc rcc, ddb_res *out, ddb_res *into,
                         ddb_err *err)
{
    const pq_plan *pl = &p->plan;
    if (pl->op == PQ_OP_CHECK)
        return diag_set(&err->d, ST_VALIDATION,
                        "Unsupported operation: EXISTS can only be used in a transaction");
    ddb_req q;
    write_req(p, rcc, false, &q);
    ddb_res res;
    ddb_res_init(&res);
    status st = store_exec(s, &q, &res, err);
    ddb_req_done(&q);
    if (st == ST_CONDITION_FAILED && pl->op == PQ_OP_PUT) {
        ddb_err_done(err);
        ddb_err_init(err);
        st = diag_set(&err->d, ST_DUPLICATE_ITEM, "%s", DUP_MSG);
    }
    if (st == ST_OK) {
        ddb_res_add_caps(into, &res);
        if (res.item.type == AV_M && res.item.u.m.len) {
            av it;
            av_move(&it, &res.item);
            ddb_res_push_item(out, &it);
        }
    }
    ddb_res_done(&res);
    return st;
}

/* ---- ExecuteStatement ---- */

status store_pq_execute(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    const ddb_ctl *c = &req->ctl;
    pstmt p;
    status st = prepare(s, c->statement ? c->statement : "", &c->params, req->rv_fail_all_old,
                        req->consistent, &p, &err->d);
    if (st != ST_OK)
        ;
    else if (is_read(&p))
        st = exec_select(s, &p, req->rcc, req->limit, c->next_token, true, res, res, err);
    else if (c->next_token)
        st = diag_set(&err->d, ST_VALIDATION, "NextToken is only valid for SELECT statements");
    else
        st = exec_write(s, &p, req->rcc, res, res, err);
    pstmt_done(&p);
    return st;
}

static status read_execute(const cJSON *in, ddb_req *req, diag *d)
{
    const char *text;
    status st = read_stmt(in, &text, &req->ctl.params, &req->rv_fail_all_old, &req->consistent, d);
    if (st != ST_OK)
        return st;
    ddb_req_set_str(&req->ctl.statement, text);
    req->limit = sop_limit(in);
    ddb_req_set_str(&req->ctl.next_token, store_jstr(in, "NextToken"));
    req->rcc = ddb_rcc_find(store_jstr(in, "ReturnConsumedCapacity"));
    return ST_OK;
}

status store_op_execute_statement(store *s, const cJSON *in, buf *out, diag *d)
{
    return sop_door(s, in, exec_spec, DDB_EXECUTE, read_execute, out, d);
}

/* ---- BatchExecuteStatement ---- */

status store_op_batch_execute_statement(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, batch_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *list = store_jget(in, "Statements");
    size_t n = (size_t)cJSON_GetArraySize(list);
    pstmt *ps = xcalloc(n, sizeof *ps);
    status *pst = xcalloc(n, sizeof *pst);
    char (*msgs)[1024] = xcalloc(n, sizeof *msgs);
    caps cap;
    caps_init(&cap, store_jstr(in, "ReturnConsumedCapacity"));
    int reads = 0, writes = 0;
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        diag sd;
        diag_init(&sd);
        pst[i] = prepare_json(s, e, &ps[i], &sd);
        snprintf(msgs[i], sizeof msgs[i], "%s", sd.msg);
        if (ps[i].st)
            *(is_read(&ps[i]) ? &reads : &writes) += 1;
        if (!pst[i] && is_read(&ps[i]) && !ps[i].plan.full_key) {
            pst[i] = ST_VALIDATION;
            snprintf(msgs[i], sizeof msgs[i],
                     "Select statements within BatchExecuteStatement must specify an equality "
                     "condition on all key attributes");
        }
        i++;
    }
    if (reads && writes) {
        st = diag_set(d, ST_VALIDATION,
                      "Unsupported operation: A batch must consist of either read statements or "
                      "write statements, not both");
        goto out;
    }
    ddb_stmt_res *res = xcalloc(n, sizeof *res);
    for (i = 0; i < n; i++) {
        ddb_res got;
        ddb_res_init(&got);
        buf_reset(&s->err_extra);
        if (!pst[i]) {
            ddb_err se;
            ddb_err_init(&se);
            if (is_read(&ps[i]))
                pst[i] = exec_select(s, &ps[i], cap.mode, 0, NULL, false, &got, &cap.acc, &se);
            else
                pst[i] = exec_write(s, &ps[i], cap.mode, &got, &cap.acc, &se);
            if (pst[i]) {
                diag sd;
                op_error(s, &se, &sd);
                snprintf(msgs[i], sizeof msgs[i], "%s", sd.msg);
            }
            ddb_err_done(&se);
        }
        if (pst[i]) {
            res[i].code = ddb_reason_code(pst[i]);
            res[i].message = xstrdup(msgs[i]);
            /* ReturnValuesOnConditionCheckFailure's item */
            if (pst[i] == ST_CONDITION_FAILED && s->err_extra.len > 2)
                res[i].extra = xstrndup(s->err_extra.data + 1, s->err_extra.len - 2);
        }
        if (ps[i].st) {
            res[i].table = xstrdup(pq_table(ps[i].st));
            if (!pst[i] && is_read(&ps[i])) {
                res[i].items = got.items;
                res[i].n_items = got.n_items;
                got.items = NULL;
                got.n_items = got.cap_items = 0;
            }
        }
        ddb_res_done(&got);
    }
    buf_reset(&s->err_extra);
    ddbres_batch_stmt_open(res, n, out);
    caps_write(&cap, out);
    buf_addc(out, '}');
    for (i = 0; i < n; i++)
        ddbres_stmt_done(&res[i]);
    free(res);
out:
    for (i = 0; i < n; i++)
        pstmt_done(&ps[i]);
    free(ps);
    free(pst);
    free(msgs);
    caps_done(&cap);
    return st;
}

/* ---- ExecuteTransaction ---- */

typedef struct token {
    char *id;
    char *request;      /* the request as text, to compare */
    char *response;     /* what it answered (NULL: it failed) */
    time_t at;
} token;

struct store_pq {
    token v[MAX_TOKENS];
    size_t n;
};

void store_partiql_free(store_shared *sh)
{
    if (!sh->pq)
        return;
    for (size_t i = 0; i < sh->pq->n; i++) {
        free(sh->pq->v[i].id);
        free(sh->pq->v[i].request);
        free(sh->pq->v[i].response);
    }
    free(sh->pq);
    sh->pq = NULL;
}

/* The tokens live in the connections' shared state (store_int.h), under
 * its pq_lock, which the caller holds. */
static token *token_find(store *s, const char *id)
{
    struct store_pq *pq = s->sh->pq;
    if (!pq)
        return NULL;
    time_t now = time(NULL);
    for (size_t i = 0; i < pq->n;) {
        token *t = &pq->v[i];
        if (now - t->at > TOKEN_TTL) {
            free(t->id);
            free(t->request);
            free(t->response);
            *t = pq->v[--pq->n];
            continue;
        }
        if (strcmp(t->id, id) == 0)
            return t;
        i++;
    }
    return NULL;
}

static void token_keep(store *s, const char *id, const char *request, const buf *response)
{
    if (!s->sh->pq)
        s->sh->pq = xcalloc(1, sizeof *s->sh->pq);
    struct store_pq *pq = s->sh->pq;
    if (pq->n == MAX_TOKENS) {   /* forget the oldest */
        size_t old = 0;
        for (size_t i = 1; i < pq->n; i++)
            if (pq->v[i].at < pq->v[old].at)
                old = i;
        free(pq->v[old].id);
        free(pq->v[old].request);
        free(pq->v[old].response);
        pq->v[old] = pq->v[--pq->n];
    }
    pq->v[pq->n++] = (token){ xstrdup(id), xstrdup(request), xstrndup(response->data, response->len),
                              time(NULL) };
}

/* The request without its ClientRequestToken, printed, for comparing. */
static char *request_text(const cJSON *in)
{
    cJSON *c = cJSON_Duplicate(in, true);
    cJSON_DeleteItemFromObjectCaseSensitive(c, "ClientRequestToken");
    char *t = cJSON_PrintUnformatted(c);
    cJSON_Delete(c);
    return t;
}

/* After TransactWriteItems was cancelled: an INSERT's failed condition is
 * DuplicateItem, and the message lists the codes again. */
static void fix_cancel(const pstmt *ps, size_t n, ddb_err *e)
{
    buf m = BUF_INIT;
    buf_adds(&m, "Transaction cancelled, please refer cancellation reasons for specific reasons [");
    for (size_t i = 0; i < e->n_reasons; i++) {
        ddb_reason *r = &e->reasons[i];
        if (i < n && ps[i].plan.op == PQ_OP_PUT && strcmp(r->code, "ConditionalCheckFailed") == 0) {
            ddb_req_set_str(&r->code, "DuplicateItem");
            ddb_req_set_str(&r->message, DUP_MSG);
        }
        buf_printf(&m, "%s%s", i ? ", " : "", r->code);
    }
    buf_addc(&m, ']');
    diag_set(&e->d, ST_TXN_CANCELED, "%s", m.data);
    buf_done(&m);
}

/* A ClientRequestToken seen within TOKEN_TTL: the same request answers
 * what the first did, a different one is a mismatch. False: the token is
 * new, run the transaction. */
static bool token_replay(store *s, const char *id, const char *reqtext, buf *out, diag *d,
                         status *st)
{
    token *t = token_find(s, id);
    if (!t)
        return false;
    if (strcmp(t->request, reqtext) != 0)
        *st = diag_set(d, ST_IDEMPOTENT_MISMATCH,
                       "Request with ClientRequestToken %s has different parameters than "
                       "a previous request with the same token", id);
    else
        buf_adds(out, t->response);
    return true;
}

/* Parses and plans every statement into ps, counting reads and writes: a
 * read must fix its whole key, a write may not have RETURNING, and a
 * transaction is all reads or all writes. */
static status tx_prepare(store *s, const cJSON *list, pstmt *ps, int *reads, int *writes,
                         diag *d)
{
    status st;
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        if ((st = prepare_json(s, e, &ps[i], d)) != ST_OK)
            return st;
        bool r = is_read(&ps[i]);
        *(r ? reads : writes) += 1;
        if (r && !ps[i].plan.full_key)
            return diag_set(d, ST_VALIDATION,
                            "Select statements within ExecuteTransaction must specify an equality "
                            "condition on all key attributes");
        if (!r && ps[i].plan.return_values)
            return diag_set(d, ST_VALIDATION,
                            "Unsupported operation: RETURNING is not supported in transactions");
        i++;
    }
    if (*reads && *writes)
        return diag_set(d, ST_VALIDATION,
                        "Unsupported operation: A transaction must consist of either read "
                        "statements or write statements, not both");
    return ST_OK;
}

/* The TransactGetItems (reads) or TransactWriteItems request of the
 * planned statements. */
static void tx_req(const pstmt *ps, size_t n, bool reads, ddb_rcc rcc, ddb_req *q)
{
    ddb_req_init(q, reads ? DDB_TRANSACT_GET : DDB_TRANSACT_WRITE);
    q->acts = xcalloc(n ? n : 1, sizeof *q->acts);
    for (size_t i = 0; i < n; i++) {
        const pq_plan *pl = &ps[i].plan;
        ddb_req *a = &q->acts[q->n_acts++];
        if (reads) {
            ddb_req_init(a, DDB_GET);
            ddb_req_set_str(&a->table, pl->table);
            av_copy(&a->key, &pl->key);
        } else {
            write_req(&ps[i], rcc, true, a);
        }
    }
    q->rcc = rcc;
}

/* The answer of the transaction that ran req into res: a read
 * transaction's Responses are each item read through its statement's
 * filter and SELECT list ({} when none or filtered out). */
static void tx_answer(const pstmt *ps, size_t n, bool reads, ddb_req *req, ddb_res *res, buf *out)
{
    for (size_t i = 0; reads && i < res->n_items; i++) {
        av *item = &res->items[i];
        av proj = { .type = AV_NONE };
        if (item->type == AV_M && i < n && pq_plan_match(&ps[i].plan, item))
            pq_plan_project(&ps[i].plan, item, &proj);
        av_done(item);
        av_move(item, &proj);
    }
    sop_units_of(res);
    if (!res->n_caps)
        req->rcc = DDB_RCC_NONE;   /* no ConsumedCapacity at all, not [] */
    ddb_res_json(req, res, out);
}

status store_op_execute_transaction(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, tx_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const char *id = store_jstr(in, "ClientRequestToken");
    char *reqtext = id ? request_text(in) : NULL;
    /* With a token, the check, the transaction and the keeping are one
     * step for every connection of the process: a second request with the
     * same token waits, then replays (the write lock nests inside). */
    if (id)
        pthread_mutex_lock(&s->sh->pq_lock);
    if (id && token_replay(s, id, reqtext, out, d, &st)) {
        pthread_mutex_unlock(&s->sh->pq_lock);
        free(reqtext);
        return st;
    }
    const cJSON *list = store_jget(in, "TransactStatements");
    size_t n = (size_t)cJSON_GetArraySize(list);
    pstmt *ps = xcalloc(n, sizeof *ps);
    ddb_rcc rcc = ddb_rcc_find(store_jstr(in, "ReturnConsumedCapacity"));
    ddb_req req;
    ddb_req_init(&req, DDB_TRANSACT_WRITE);
    ddb_res res;
    ddb_res_init(&res);
    int reads = 0, writes = 0;
    if ((st = tx_prepare(s, list, ps, &reads, &writes, d)) != ST_OK)
        goto out;
    tx_req(ps, n, reads, rcc, &req);
    ddb_err e;
    ddb_err_init(&e);
    if ((st = store_exec(s, &req, &res, &e)) == ST_TXN_CANCELED && writes)
        fix_cancel(ps, n, &e);
    if (st != ST_OK)
        op_error(s, &e, d);
    ddb_err_done(&e);
    if (st != ST_OK)
        goto out;
    tx_answer(ps, n, reads, &req, &res, out);
    if (id)
        token_keep(s, id, reqtext, out);
out:
    if (id)
        pthread_mutex_unlock(&s->sh->pq_lock);
    for (size_t i = 0; i < n; i++)
        pstmt_done(&ps[i]);
    free(ps);
    free(reqtext);
    ddb_res_done(&res);
    ddb_req_done(&req);
    return st;
}

/* ---- the explorer's entry ---- */

void store_partiql_result_done(store_partiql_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        av_done(&r->items[i]);
    free(r->items);
    free(r->next_token);
    memset(r, 0, sizeof *r);
}

status store_partiql_page(store *s, const char *statement, const av *params, size_t n_params,
                          size_t limit, const char *next_token, store_partiql_result *out, diag *d)
{
    memset(out, 0, sizeof *out);
    ddb_req req;
    ddb_req_init(&req, DDB_EXECUTE);
    ddb_req_set_str(&req.ctl.statement, statement);
    if (n_params) {
        av_init_list(&req.ctl.params, AV_L);
        for (size_t i = 0; i < n_params; i++) {
            av c;
            av_copy(&c, &params[i]);
            av_list_push(&req.ctl.params, &c);
        }
    }
    req.limit = limit > UINT32_MAX ? UINT32_MAX : (uint32_t)limit;
    ddb_req_set_str(&req.ctl.next_token, next_token);
    req.rcc = DDB_RCC_TOTAL;
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    status st = store_exec(s, &req, &res, &err);
    if (st == ST_OK) {
        out->items = res.n_items ? res.items : xcalloc(1, sizeof *out->items);
        out->n = res.n_items;
        out->next_token = res.next_token;
        out->capacity = ddb_res_units(&res);
        if (res.n_items)
            res.items = NULL;
        res.n_items = 0;
        res.next_token = NULL;
    } else {
        *d = err.d;
        snprintf(d->msg, sizeof d->msg, "%s", ddb_err_message(&err));
    }
    ddb_err_done(&err);
    ddb_res_done(&res);
    ddb_req_done(&req);
    return st;
}
