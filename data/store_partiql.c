/*
 * store_partiql — ExecuteStatement, BatchExecuteStatement and
 * ExecuteTransaction, and the explorer's typed entry (store_execute).
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

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/base64.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/partiql.h"

#define TOKEN_TTL 600          /* seconds a ClientRequestToken is remembered */
#define MAX_TOKENS 256

/* ---- request shapes ---- */

static const char *const e_rcc[] = { "INDEXES", "TOTAL", "NONE", NULL };
static const char *const e_rvccf[] = { "ALL_OLD", "NONE", NULL };
static const vspec attr_elem = { .name = "member", .type = VT_ATTR };

#define F_STATEMENT { .name = "Statement", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, \
                      .max_len = PQ_MAX_BYTES }
#define F_PARAMS { .name = "Parameters", .type = VT_LIST, .min_len = 1, .elem = &attr_elem }
#define F_RCC { .name = "ReturnConsumedCapacity", .type = VT_STRING, .enums = e_rcc }
#define F_RVCCF { .name = "ReturnValuesOnConditionCheckFailure", .type = VT_STRING, .enums = e_rvccf }
#define F_END { .type = VT_END }

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

static const cJSON *jget(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

static const char *jstr(const cJSON *o, const char *name)
{
    const cJSON *v = jget(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static void json_str(buf *b, const char *s)
{
    ddbjson_write_string(b, s, strlen(s));
}

static void member(buf *b, const char *name)
{
    if (b->len && b->data[b->len - 1] != '{')
        buf_addc(b, ',');
    json_str(b, name);
    buf_addc(b, ':');
}

static void member_str(buf *b, const char *name, const char *v)
{
    member(b, name);
    json_str(b, v);
}

/* A map member when the map is not empty (DynamoDB refuses empty ones). */
static void member_map(buf *b, const char *name, const av *m, bool plain)
{
    if (m->type != AV_M || !m->u.m.len)
        return;
    member(b, name);
    if (plain) {
        buf_addc(b, '{');
        for (size_t i = 0; i < m->u.m.len; i++) {
            if (i)
                buf_addc(b, ',');
            ddbjson_write_string(b, m->u.m.v[i].name, m->u.m.v[i].name_len);
            buf_addc(b, ':');
            ddbjson_write_string(b, m->u.m.v[i].val.u.s.ptr, m->u.m.v[i].val.u.s.len);
        }
        buf_addc(b, '}');
    } else {
        ddbjson_write_item(b, m);
    }
}

/* Runs one of the store's operations on request text; *resp is its
 * parsed answer on ST_OK. */
static status run_op(store *s, store_op_fn fn, const buf *req, cJSON **resp, diag *d)
{
    *resp = NULL;
    cJSON *in = NULL;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(req->data, req->len, &in, &pd) != ST_OK)
        return diag_set(d, ST_INTERNAL, "PartiQL: a request could not be built: %s", pd.msg);
    buf out = BUF_INIT;
    status st = fn(s, in, &out, d);
    cJSON_Delete(in);
    if (st == ST_OK && ddbjson_cjson_parse(out.data, out.len, resp, &pd) != ST_OK)
        st = diag_set(d, ST_INTERNAL, "PartiQL: an answer could not be read: %s", pd.msg);
    buf_done(&out);
    return st;
}

/* Adds cc's numbers into acc (objects member by member), so a
 * ConsumedCapacity of several reads or writes adds up in TOTAL and
 * INDEXES form alike. */
static void cap_merge(cJSON *acc, const cJSON *cc)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, cc) {
        cJSON *have = cJSON_GetObjectItemCaseSensitive(acc, e->string);
        if (!have) {
            cJSON_AddItemToObject(acc, e->string, cJSON_Duplicate(e, true));
        } else if (cJSON_IsNumber(have) && cJSON_IsNumber(e)) {
            cJSON_SetNumberValue(have, have->valuedouble + e->valuedouble);
        } else if (cJSON_IsObject(have) && cJSON_IsObject(e)) {
            cap_merge(have, e);
        }
    }
}

/* Per-table ConsumedCapacity accumulators (batches and transactions). */
typedef struct caps {
    cJSON *list;        /* array of ConsumedCapacity objects, one a table */
} caps;

static void caps_add(caps *c, const cJSON *resp)
{
    const cJSON *cc = jget(resp, "ConsumedCapacity");
    if (!cc)
        return;
    if (!c->list)
        c->list = cJSON_CreateArray();
    const cJSON *one;
    const cJSON *arr = cJSON_IsArray(cc) ? cc : NULL;
    for (const cJSON *e = arr ? arr->child : cc; e; e = arr ? e->next : NULL) {
        one = e;
        const char *t = jstr(one, "TableName");
        cJSON *acc = NULL, *x;
        cJSON_ArrayForEach(x, c->list) {
            const char *xt = jstr(x, "TableName");
            if (t && xt && strcmp(t, xt) == 0)
                acc = x;
        }
        if (acc)
            cap_merge(acc, one);
        else
            cJSON_AddItemToArray(c->list, cJSON_Duplicate(one, true));
    }
}

/* Appends the accumulated capacity: one object (as_list false) or a list. */
static void caps_write(caps *c, buf *out, bool as_list)
{
    if (!c->list || !cJSON_GetArraySize(c->list))
        return;
    member(out, "ConsumedCapacity");
    char *txt = cJSON_PrintUnformatted(as_list ? c->list : cJSON_GetArrayItem(c->list, 0));
    buf_adds(out, txt);
    free(txt);
}

static void caps_done(caps *c)
{
    cJSON_Delete(c->list);
    c->list = NULL;
}

/* ---- one statement ---- */

typedef struct pstmt {
    pq_stmt *st;
    pq_plan plan;
    bool planned;
    const char *rvccf;   /* ReturnValuesOnConditionCheckFailure */
    bool consistent;
} pstmt;

static void pstmt_done(pstmt *p)
{
    if (p->planned)
        pq_plan_done(&p->plan);
    pq_free(p->st);
    memset(p, 0, sizeof *p);
}

/* Parses and plans {Statement, Parameters, ...}. */
static status prepare(store *s, const cJSON *req, pstmt *p, diag *d)
{
    memset(p, 0, sizeof *p);
    const char *text = jstr(req, "Statement");
    const cJSON *params = jget(req, "Parameters");
    av pl = { 0 };
    av_init_list(&pl, AV_L);
    status st = ST_OK;
    const cJSON *e;
    size_t i = 0;
    cJSON_ArrayForEach(e, params) {
        char path[48];
        snprintf(path, sizeof path, "parameters.%zu", ++i);
        av v;
        if ((st = ddbjson_value_from_cjson(e, path, &v, d)) != ST_OK)
            goto out;
        av_list_push(&pl, &v);
    }
    p->rvccf = jstr(req, "ReturnValuesOnConditionCheckFailure");
    p->consistent = cJSON_IsTrue(jget(req, "ConsistentRead"));
    if ((st = pq_parse(text, strlen(text), pl.u.l.v, pl.u.l.len, &p->st, d)) != ST_OK)
        goto out;
    tinfo *t;
    if ((st = store_table(s, pq_table(p->st), &t, d)) != ST_OK)
        goto out;
    if ((st = pq_plan_of(p->st, &t->def, &p->plan, d)) != ST_OK)
        goto out;
    p->planned = true;
out:
    av_done(&pl);
    return st;
}

static bool is_read(const pstmt *p)
{
    return pq_get_kind(p->st) == PQ_SELECT;
}

/* The NextToken of a read stopped at partition pi (lek: where in it, or
 * NULL to start it). */
static void write_token(buf *out, size_t pi, const cJSON *lek)
{
    buf raw = BUF_INIT;
    buf_printf(&raw, "{\"p\":%zu", pi);
    if (lek) {
        char *t = cJSON_PrintUnformatted(lek);
        buf_adds(&raw, ",\"k\":");
        buf_adds(&raw, t);
        free(t);
    }
    buf_addc(&raw, '}');
    member(out, "NextToken");
    buf b = BUF_INIT;
    base64_encode(&b, raw.data, raw.len);
    json_str(out, b.data);
    buf_done(&b);
    buf_done(&raw);
}

static status read_token(const char *tok, size_t n_parts, size_t *pi, cJSON **lek, diag *d)
{
    buf raw = BUF_INIT;
    cJSON *root = NULL;
    status st = ST_OK;
    diag pd;
    diag_init(&pd);
    *lek = NULL;
    if (base64_decode(&raw, tok, strlen(tok)) != BASE64_OK ||
        ddbjson_cjson_parse(raw.data ? raw.data : "", raw.len, &root, &pd) != ST_OK ||
        !cJSON_IsNumber(jget(root, "p")) || jget(root, "p")->valuedouble < 0 ||
        (size_t)jget(root, "p")->valuedouble >= n_parts ||
        (jget(root, "k") && !cJSON_IsObject(jget(root, "k")))) {
        st = diag_set(d, ST_VALIDATION, "Invalid NextToken");
        goto out;
    }
    *pi = (size_t)jget(root, "p")->valuedouble;
    if (jget(root, "k"))
        *lek = cJSON_Duplicate(jget(root, "k"), true);
out:
    cJSON_Delete(root);
    buf_done(&raw);
    return st;
}

/*
 * A SELECT: Query a partition at a time (or Scan), filter and project
 * what comes back into items (a JSON array's inside, comma-separated).
 * limit 0: none. Stops at a page's end (1 MB or Limit) with a NextToken.
 */
static status exec_select(store *s, pstmt *p, const char *rcc, long limit, const char *token,
                          buf *items, size_t *n_items, caps *cap, buf *tail, diag *d)
{
    const pq_plan *pl = &p->plan;
    bool query = pl->op == PQ_OP_QUERY;
    size_t parts = query ? pl->n_pks : 1, pi = 0;
    cJSON *lek = NULL, *resp = NULL;
    status st = ST_OK;
    long evaluated = 0;
    buf req = BUF_INIT;
    av kv = { 0 };
    if (token && (st = read_token(token, parts, &pi, &lek, d)) != ST_OK)
        return st;
    av_copy(&kv, &pl->key_values);
    for (; pi < parts; pi++) {
        buf_reset(&req);
        buf_addc(&req, '{');
        member_str(&req, "TableName", pl->table);
        if (pl->index)
            member_str(&req, "IndexName", pl->index);
        if (p->consistent) {
            member(&req, "ConsistentRead");
            buf_adds(&req, "true");
        }
        if (rcc)
            member_str(&req, "ReturnConsumedCapacity", rcc);
        if (query) {
            av c;
            av_copy(&c, &pl->pks[pi]);
            av_map_put(&kv, ":pk", 3, &c);
            member_str(&req, "KeyConditionExpression", pl->key_cond);
            member_map(&req, "ExpressionAttributeNames", &pl->key_names, true);
            member_map(&req, "ExpressionAttributeValues", &kv, false);
            if (!pl->forward) {
                member(&req, "ScanIndexForward");
                buf_adds(&req, "false");
            }
        }
        if (limit) {
            member(&req, "Limit");
            buf_printf(&req, "%ld", limit - evaluated);
        }
        if (lek) {
            member(&req, "ExclusiveStartKey");
            char *t = cJSON_PrintUnformatted(lek);
            buf_adds(&req, t);
            free(t);
            cJSON_Delete(lek);
            lek = NULL;
        }
        buf_addc(&req, '}');
        if ((st = run_op(s, query ? store_op_query : store_op_scan, &req, &resp, d)) != ST_OK)
            goto out;
        caps_add(cap, resp);
        const cJSON *it;
        cJSON_ArrayForEach(it, jget(resp, "Items")) {
            av item, proj;
            if ((st = ddbjson_item_from_cjson(it, NULL, &item, d)) != ST_OK)
                goto out;
            if (pq_plan_match(pl, &item)) {
                pq_plan_project(pl, &item, &proj);
                if (items->len)
                    buf_addc(items, ',');
                ddbjson_write_item(items, &proj);
                (*n_items)++;
                av_done(&proj);
            }
            av_done(&item);
        }
        const cJSON *sc = jget(resp, "ScannedCount");
        evaluated += cJSON_IsNumber(sc) ? (long)sc->valuedouble : 0;
        const cJSON *l = jget(resp, "LastEvaluatedKey");
        if (l) {
            if (tail) {
                write_token(tail, pi, l);
                member(tail, "LastEvaluatedKey");
                char *t = cJSON_PrintUnformatted(l);
                buf_adds(tail, t);
                free(t);
            }
            break;
        }
        if (limit && evaluated >= limit) {
            if (tail && pi + 1 < parts)
                write_token(tail, pi + 1, NULL);
            break;
        }
        cJSON_Delete(resp);
        resp = NULL;
    }
out:
    cJSON_Delete(resp);
    cJSON_Delete(lek);
    av_done(&kv);
    buf_done(&req);
    return st;
}

/* The request of a write statement for its store operation (or, in a
 * transaction, the inside of its TransactItems entry). */
static void write_request(const pstmt *p, const char *rcc, bool in_tx, buf *req)
{
    const pq_plan *pl = &p->plan;
    buf_addc(req, '{');
    member_str(req, "TableName", pl->table);
    if (pl->op == PQ_OP_PUT) {
        member(req, "Item");
        ddbjson_write_item(req, &pl->item);
    } else {
        member(req, "Key");
        ddbjson_write_item(req, &pl->key);
    }
    if (pl->update)
        member_str(req, "UpdateExpression", pl->update);
    if (pl->condition)
        member_str(req, "ConditionExpression", pl->condition);
    member_map(req, "ExpressionAttributeNames", &pl->names, true);
    member_map(req, "ExpressionAttributeValues", &pl->values, false);
    if (!in_tx && pl->return_values)
        member_str(req, "ReturnValues", pl->return_values);
    if (p->rvccf && pl->op != PQ_OP_PUT)
        member_str(req, "ReturnValuesOnConditionCheckFailure", p->rvccf);
    if (!in_tx && rcc)
        member_str(req, "ReturnConsumedCapacity", rcc);
    buf_addc(req, '}');
}

static const char DUP_MSG[] = "Duplicate primary key exists in table";

/* An INSERT, UPDATE or DELETE on its own; a returned item goes to items. */
static status exec_write(store *s, pstmt *p, const char *rcc, buf *items, size_t *n_items,
                         caps *cap, diag *d)
{
    const pq_plan *pl = &p->plan;
    if (pl->op == PQ_OP_CHECK)
        return diag_set(d, ST_VALIDATION,
                        "Unsupported operation: EXISTS can only be used in a transaction");
    buf req = BUF_INIT;
    write_request(p, rcc, false, &req);
    store_op_fn fn = pl->op == PQ_OP_PUT ? store_op_put_item
                   : pl->op == PQ_OP_UPDATE ? store_op_update_item : store_op_delete_item;
    cJSON *resp = NULL;
    status st = run_op(s, fn, &req, &resp, d);
    buf_done(&req);
    if (st == ST_CONDITION_FAILED && pl->op == PQ_OP_PUT) {
        buf_reset(&s->err_extra);
        return diag_set(d, ST_DUPLICATE_ITEM, "%s", DUP_MSG);
    }
    if (st != ST_OK)
        return st;
    caps_add(cap, resp);
    const cJSON *attrs = jget(resp, "Attributes");
    if (cJSON_IsObject(attrs) && attrs->child) {
        char *t = cJSON_PrintUnformatted(attrs);
        if (items->len)
            buf_addc(items, ',');
        buf_adds(items, t);
        (*n_items)++;
        free(t);
    }
    cJSON_Delete(resp);
    return ST_OK;
}

/* ---- ExecuteStatement ---- */

status store_op_execute_statement(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, exec_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    pstmt p;
    if ((st = prepare(s, in, &p, d)) != ST_OK) {
        pstmt_done(&p);
        return st;
    }
    const char *rcc = jstr(in, "ReturnConsumedCapacity");
    const cJSON *lim = jget(in, "Limit");
    const char *token = jstr(in, "NextToken");
    buf items = BUF_INIT, tail = BUF_INIT;
    size_t n = 0;
    caps cap = { 0 };
    if (is_read(&p))
        st = exec_select(s, &p, rcc, cJSON_IsNumber(lim) ? (long)lim->valuedouble : 0, token,
                         &items, &n, &cap, &tail, d);
    else if (token)
        st = diag_set(d, ST_VALIDATION, "NextToken is only valid for SELECT statements");
    else
        st = exec_write(s, &p, rcc, &items, &n, &cap, d);
    if (st == ST_OK) {
        buf_adds(out, "{\"Items\":[");
        if (items.len)
            buf_add(out, items.data, items.len);
        buf_addc(out, ']');
        if (tail.len)
            buf_printf(out, ",%s", tail.data);
        if (rcc && strcmp(rcc, "NONE") != 0)
            caps_write(&cap, out, false);
        buf_addc(out, '}');
    }
    caps_done(&cap);
    buf_done(&items);
    buf_done(&tail);
    pstmt_done(&p);
    return st;
}

/* ---- BatchExecuteStatement ---- */

status store_op_batch_execute_statement(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, batch_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const cJSON *list = jget(in, "Statements");
    size_t n = (size_t)cJSON_GetArraySize(list);
    pstmt *ps = xcalloc(n, sizeof *ps);
    status *pst = xcalloc(n, sizeof *pst);
    char (*msgs)[1024] = xcalloc(n, sizeof *msgs);
    const char *rcc = jstr(in, "ReturnConsumedCapacity");
    caps cap = { 0 };
    int reads = 0, writes = 0;
    size_t i = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        diag sd;
        diag_init(&sd);
        pst[i] = prepare(s, e, &ps[i], &sd);
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
    buf_adds(out, "{\"Responses\":[");
    for (i = 0; i < n; i++) {
        buf items = BUF_INIT;
        size_t got = 0;
        diag sd;
        diag_init(&sd);
        if (!pst[i]) {
            buf_reset(&s->err_extra);
            if (is_read(&ps[i]))
                pst[i] = exec_select(s, &ps[i], rcc, 0, NULL, &items, &got, &cap, NULL, &sd);
            else
                pst[i] = exec_write(s, &ps[i], rcc, &items, &got, &cap, &sd);
            if (pst[i])
                snprintf(msgs[i], sizeof msgs[i], "%s", sd.msg);
        }
        buf_adds(out, i ? ",{" : "{");
        if (pst[i]) {
            buf_adds(out, "\"Error\":{\"Code\":");
            json_str(out, ddb_reason_code(pst[i]));
            buf_adds(out, ",\"Message\":");
            json_str(out, msgs[i]);
            /* ReturnValuesOnConditionCheckFailure's item */
            if (pst[i] == ST_CONDITION_FAILED && s->err_extra.len > 2)
                buf_printf(out, ",%.*s", (int)(s->err_extra.len - 2), s->err_extra.data + 1);
            buf_addc(out, '}');
        }
        if (ps[i].st) {
            member_str(out, "TableName", pq_table(ps[i].st));
            if (!pst[i] && is_read(&ps[i]) && got) {
                member(out, "Item");
                buf_add(out, items.data, items.len);
            }
        }
        buf_addc(out, '}');
        buf_done(&items);
    }
    buf_reset(&s->err_extra);
    buf_addc(out, ']');
    if (rcc && strcmp(rcc, "NONE") != 0)
        caps_write(&cap, out, true);
    buf_addc(out, '}');
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
static status fix_cancel(store *s, const pstmt *ps, size_t n, diag *d)
{
    cJSON *root = NULL;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(s->err_extra.data, s->err_extra.len, &root, &pd) != ST_OK)
        return ST_TXN_CANCELED;
    cJSON *reasons = cJSON_GetObjectItemCaseSensitive(root, "CancellationReasons");
    buf m = BUF_INIT;
    buf_adds(&m, "Transaction cancelled, please refer cancellation reasons for specific reasons [");
    size_t i = 0;
    cJSON *r;
    cJSON_ArrayForEach(r, reasons) {
        const char *code = jstr(r, "Code");
        if (i < n && ps[i].plan.op == PQ_OP_PUT && code && strcmp(code, "ConditionalCheckFailed") == 0) {
            cJSON_ReplaceItemInObjectCaseSensitive(r, "Code", cJSON_CreateString("DuplicateItem"));
            if (jget(r, "Message"))
                cJSON_ReplaceItemInObjectCaseSensitive(r, "Message", cJSON_CreateString(DUP_MSG));
            else
                cJSON_AddStringToObject(r, "Message", DUP_MSG);
            code = "DuplicateItem";
        }
        buf_printf(&m, "%s%s", i ? ", " : "", code ? code : "None");
        i++;
    }
    buf_addc(&m, ']');
    char *t = cJSON_PrintUnformatted(root);
    buf_reset(&s->err_extra);
    buf_adds(&s->err_extra, t);
    free(t);
    cJSON_Delete(root);
    status st = diag_set(d, ST_TXN_CANCELED, "%s", m.data);
    buf_done(&m);
    return st;
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
        if ((st = prepare(s, e, &ps[i], d)) != ST_OK)
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
static void tx_request(const pstmt *ps, size_t n, bool reads, const char *rcc, buf *req)
{
    buf_addc(req, '{');
    member(req, "TransactItems");
    buf_addc(req, '[');
    for (size_t i = 0; i < n; i++) {
        const pq_plan *pl = &ps[i].plan;
        buf_adds(req, i ? ",{" : "{");
        if (reads) {
            member(req, "Get");
            buf_addc(req, '{');
            member_str(req, "TableName", pl->table);
            member(req, "Key");
            ddbjson_write_item(req, &pl->key);
            buf_addc(req, '}');
        } else {
            static const char *const names[] = { [PQ_OP_PUT] = "Put", [PQ_OP_UPDATE] = "Update",
                                                 [PQ_OP_DELETE] = "Delete",
                                                 [PQ_OP_CHECK] = "ConditionCheck" };
            member(req, names[pl->op]);
            write_request(&ps[i], NULL, true, req);
        }
        buf_addc(req, '}');
    }
    buf_addc(req, ']');
    if (rcc)
        member_str(req, "ReturnConsumedCapacity", rcc);
    buf_addc(req, '}');
}

/* A read transaction's "Responses": each item read, through its
 * statement's filter and SELECT list ({} when none or filtered out). */
static void tx_responses(const pstmt *ps, size_t n, const cJSON *resp, buf *out, diag *d)
{
    member(out, "Responses");
    buf_addc(out, '[');
    size_t i = 0;
    const cJSON *r;
    cJSON_ArrayForEach(r, jget(resp, "Responses")) {
        buf_adds(out, i ? ",{" : "{");
        const cJSON *it = jget(r, "Item");
        av item, proj;
        if (it && i < n && ddbjson_item_from_cjson(it, NULL, &item, d) == ST_OK) {
            if (pq_plan_match(&ps[i].plan, &item)) {
                pq_plan_project(&ps[i].plan, &item, &proj);
                member(out, "Item");
                ddbjson_write_item(out, &proj);
                av_done(&proj);
            }
            av_done(&item);
        }
        buf_addc(out, '}');
        i++;
    }
    buf_addc(out, ']');
}

status store_op_execute_transaction(store *s, const cJSON *in, buf *out, diag *d)
{
    status st = store_valid_check(in, tx_spec, d, &s->err_msg);
    if (st != ST_OK)
        return st;
    const char *id = jstr(in, "ClientRequestToken");
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
    const cJSON *list = jget(in, "TransactStatements");
    size_t n = (size_t)cJSON_GetArraySize(list);
    pstmt *ps = xcalloc(n, sizeof *ps);
    const char *rcc = jstr(in, "ReturnConsumedCapacity");
    caps cap = { 0 };
    buf req = BUF_INIT;
    cJSON *resp = NULL;
    int reads = 0, writes = 0;
    if ((st = tx_prepare(s, list, ps, &reads, &writes, d)) != ST_OK)
        goto out;
    tx_request(ps, n, reads, rcc, &req);
    st = run_op(s, reads ? store_op_transact_get : store_op_transact_write, &req, &resp, d);
    if (st == ST_TXN_CANCELED && writes)
        st = fix_cancel(s, ps, n, d);
    if (st != ST_OK)
        goto out;
    caps_add(&cap, resp);
    buf_addc(out, '{');
    if (reads)
        tx_responses(ps, n, resp, out, d);
    if (rcc && strcmp(rcc, "NONE") != 0)
        caps_write(&cap, out, true);
    buf_addc(out, '}');
    if (id)
        token_keep(s, id, reqtext, out);
out:
    if (id)
        pthread_mutex_unlock(&s->sh->pq_lock);
    for (size_t i = 0; i < n; i++)
        pstmt_done(&ps[i]);
    free(ps);
    free(reqtext);
    cJSON_Delete(resp);
    buf_done(&req);
    caps_done(&cap);
    return st;
}

/* ---- the explorer's entry ---- */

void store_exec_result_done(store_exec_result *r)
{
    for (size_t i = 0; i < r->n; i++)
        av_done(&r->items[i]);
    free(r->items);
    free(r->next_token);
    memset(r, 0, sizeof *r);
}

static void add_units(const cJSON *cc, double *sum)
{
    const cJSON *cu = jget(cc, "CapacityUnits");
    if (cJSON_IsNumber(cu))
        *sum += cu->valuedouble;
}

status store_execute(store *s, const char *statement, const av *params, size_t n_params,
                     size_t limit, const char *next_token, store_exec_result *out, diag *d)
{
    memset(out, 0, sizeof *out);
    buf req = BUF_INIT;
    buf_addc(&req, '{');
    member_str(&req, "Statement", statement);
    if (n_params) {
        member(&req, "Parameters");
        buf_addc(&req, '[');
        for (size_t i = 0; i < n_params; i++) {
            if (i)
                buf_addc(&req, ',');
            ddbjson_write_value(&req, &params[i]);
        }
        buf_addc(&req, ']');
    }
    if (limit) {
        member(&req, "Limit");
        buf_printf(&req, "%zu", limit);
    }
    if (next_token)
        member_str(&req, "NextToken", next_token);
    member_str(&req, "ReturnConsumedCapacity", "TOTAL");
    buf_addc(&req, '}');
    char *resp = NULL;
    status st = store_call(s, "ExecuteStatement", req.data, req.len, &resp, d);
    buf_done(&req);
    if (st != ST_OK) {
        const char *whole = store_error_message(s, st, d);
        if (whole != d->msg)
            snprintf(d->msg, sizeof d->msg, "%s", whole);
        free(resp);
        return st;
    }
    cJSON *root = NULL;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(resp, strlen(resp), &root, &pd) != ST_OK) {
        free(resp);
        return diag_set(d, ST_INTERNAL, "ExecuteStatement: the answer could not be read: %s", pd.msg);
    }
    free(resp);
    const cJSON *items = jget(root, "Items"), *it;
    size_t cap = (size_t)cJSON_GetArraySize(items);
    out->items = xcalloc(cap ? cap : 1, sizeof *out->items);
    cJSON_ArrayForEach(it, items) {
        if ((st = ddbjson_item_from_cjson(it, NULL, &out->items[out->n], d)) != ST_OK)
            break;
        out->n++;
    }
    const char *nt = jstr(root, "NextToken");
    if (nt)
        out->next_token = xstrdup(nt);
    const cJSON *cc = jget(root, "ConsumedCapacity");
    if (cJSON_IsArray(cc)) {
        const cJSON *x;
        cJSON_ArrayForEach(x, cc) add_units(x, &out->capacity);
    } else if (cc) {
        add_units(cc, &out->capacity);
    }
    cJSON_Delete(root);
    if (st != ST_OK)
        store_exec_result_done(out);
    return st;
}
