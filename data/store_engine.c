/*
 * store_engine — what the typed operations share, and store_exec.
 *
 * The local store answers every data-plane request as a ddb_req
 * (model/ddbreq.h): store_item.c (GetItem, PutItem, UpdateItem,
 * DeleteItem), store_query.c (Query, Scan) and store_batch.c (the batches
 * and transactions) run it, with the pieces here: the expression
 * parameters of one request (reqx: its names and values maps and parsed
 * expressions, checked in DynamoDB's order), the legacy parameters'
 * checks, projection, the nested-key refusals, read units and the
 * ConsumedCapacity of a result. The JSON door (store_api.c, store_ops.c)
 * turns request bodies into these requests; a remote store sends them to
 * its endpoint. data/store_engine.h says who owns what.
 */
#include <stdlib.h>
#include <string.h>

#include "data/store_engine.h"
#include "model/mem.h"
#include "model/size.h"

/* ---- the expression parameters ---- */

void seng_reqx_init(reqx *x)
{
    memset(x, 0, sizeof *x);
    x->names.type = x->values.type = AV_NONE;
}

void seng_reqx_done(reqx *x)
{
    expr_free(x->update);
    expr_free(x->cond);
    expr_free(x->key);
    expr_free(x->filter);
    expr_free(x->proj);
    if (x->cx_on)
        expr_ctx_done(&x->cx);
    av_done(&x->names);
    av_done(&x->values);
    free(x->fnames);
    free(x->flens);
}

static void collect_heads(reqx *x, const expr_node *n)
{
    if (!n)
        return;
    if (n->kind == EN_PATH && n->path.n > 0 && !n->path.steps[0].is_index) {
        const char *nm = n->path.steps[0].name;
        size_t len = n->path.steps[0].len;
        for (size_t i = 0; i < x->n_fnames; i++)
            if (x->flens[i] == len && memcmp(x->fnames[i], nm, len) == 0)
                return;
        x->fnames = xrealloc(x->fnames, (x->n_fnames + 1) * sizeof *x->fnames);
        x->flens = xrealloc(x->flens, (x->n_fnames + 1) * sizeof *x->flens);
        x->fnames[x->n_fnames] = nm;
        x->flens[x->n_fnames++] = len;
    }
    for (size_t i = 0; i < n->n_kids; i++)
        collect_heads(x, n->kids[i]);
}

/* The expressions of a request from their texts (NULL: absent), in
 * DynamoDB's order (update, condition, key, filter, projection), then
 * unused placeholders; the maps are x->names and x->values (AV_NONE: not
 * given). */
static status exprs_texts(reqx *x, const char *const texts[5], diag *d)
{
    static const expr_kind kinds[5] = { EXPR_UPDATE, EXPR_CONDITION, EXPR_KEY, EXPR_FILTER,
                                        EXPR_PROJECTION };
    expr **outs[5] = { &x->update, &x->cond, &x->key, &x->filter, &x->proj };
    status st = expr_ctx_init(&x->cx, x->names.type == AV_M ? &x->names : NULL,
                              x->values.type == AV_M ? &x->values : NULL, d);
    if (st != ST_OK)
        return st;
    x->cx_on = true;
    for (int i = 0; i < 5; i++)
        if (texts[i] && (st = expr_parse(&x->cx, kinds[i], texts[i], strlen(texts[i]), outs[i], d)) != ST_OK)
            return st;
    if ((st = expr_ctx_finish(&x->cx, d)) != ST_OK)
        return st;
    if (x->filter)
        collect_heads(x, expr_root(x->filter));
    return ST_OK;
}

bool seng_placeholder_ok(const char *k, size_t len, char lead)
{
    if (len < 2 || k[0] != lead)
        return false;
    for (size_t i = 1; i < len; i++)
        if (!((k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') ||
              k[i] == '_'))
            return false;
    return true;
}

/* The checks sop_maps_json makes on a request body's maps, on the typed
 * request's. */
static status maps_typed(const av *names, const av *values, diag *d)
{
    if (names->type == AV_M) {
        if (!names->u.m.len)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must not be empty");
        for (size_t i = 0; i < names->u.m.len; i++) {
            const av_member *m = &names->u.m.v[i];
            if (!seng_placeholder_ok(m->name, m->name_len, '#'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames contains invalid key: Syntax"
                                " error; key: \"%s\"", m->name);
            if (m->val.type != AV_S)
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames contains invalid value for"
                                " key %s", m->name);
        }
    } else if (names->type != AV_NONE) {
        return diag_set(d, ST_VALIDATION, "ExpressionAttributeNames must be a map");
    }
    if (values->type == AV_M) {
        if (!values->u.m.len)
            return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues must not be empty");
        for (size_t i = 0; i < values->u.m.len; i++)
            if (!seng_placeholder_ok(values->u.m.v[i].name, values->u.m.v[i].name_len, ':'))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid key: Syntax"
                                " error; key: \"%s\"", values->u.m.v[i].name);
        for (size_t i = 0; i < values->u.m.len; i++)
            if (size_too_deep(&values->u.m.v[i].val))
                return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues contains invalid value: Nesting"
                                " Levels have exceeded supported limits for key %s", values->u.m.v[i].name);
    } else if (values->type != AV_NONE) {
        return diag_set(d, ST_VALIDATION, "ExpressionAttributeValues must be a map");
    }
    return ST_OK;
}

/* DynamoDB's validateExpressionParams on a typed request: which legacy
 * and expression parameters each kind names, in DynamoDB's order. */
static status mix_typed(const ddb_req *r, diag *d)
{
    const ddb_legacy *l = &r->legacy;
    const char *xn[3], *ln[4];
    size_t nx = 0, nl = 0;
    bool query = r->kind == DDB_QUERY;
    if (r->kind == DDB_UPDATE && r->update)
        xn[nx++] = "UpdateExpression";
    if (r->kind == DDB_PUT || r->kind == DDB_UPDATE || r->kind == DDB_DELETE) {
        if (r->cond)
            xn[nx++] = "ConditionExpression";
        if (r->kind == DDB_UPDATE && l->has_updates)
            ln[nl++] = "AttributeUpdates";
        if (l->expected.given)
            ln[nl++] = "Expected";
    } else if (r->kind == DDB_GET || query || r->kind == DDB_SCAN) {
        if (r->proj)
            xn[nx++] = "ProjectionExpression";
        if (r->filter)
            xn[nx++] = "FilterExpression";
        if (query && r->keycond)
            xn[nx++] = "KeyConditionExpression";
        if (l->atg.type == AV_L)
            ln[nl++] = "AttributesToGet";
        if (r->kind != DDB_GET && l->filter.given)
            ln[nl++] = query ? "QueryFilter" : "ScanFilter";
        if (r->kind != DDB_GET && l->condop)
            ln[nl++] = "ConditionalOperator";
        if (query && l->keyconds.given && r->keycond)
            ln[nl++] = "KeyConditions";
    }
    if (!nx || !nl)
        return ST_OK;
    buf a = BUF_INIT, b = BUF_INIT;
    for (size_t i = 0; i < nl; i++)
        buf_printf(&a, "%s%s", i ? ", " : "", ln[i]);
    for (size_t i = 0; i < nx; i++)
        buf_printf(&b, "%s%s", i ? ", " : "", xn[i]);
    status st = diag_set(d, ST_VALIDATION, "Can not use both expression and non-expression parameters in the"
                         " same request: Non-expression parameters: {%s} Expression parameters: {%s}",
                         a.data, b.data);
    buf_done(&a);
    buf_done(&b);
    return st;
}

static status check_legacy(const ddb_req *r, diag *d)
{
    const ddb_legacy *l = &r->legacy;
    status st = mix_typed(r, d);
    if (st == ST_OK)
        st = legacy_check_updates(l, d);
    if (st == ST_OK)
        st = legacy_check_expected(&l->expected, d);
    if (st == ST_OK)
        st = legacy_check_conditions(&l->filter, d);
    if (st == ST_OK) {
        bool filters = r->kind == DDB_QUERY || r->kind == DDB_SCAN;
        const ddb_conds *c = filters ? &l->filter : &l->expected;
        st = legacy_check_condop(l->condop, c->given ? c : NULL, d);
    }
    return st;
}

status seng_exprs_typed(reqx *x, const ddb_req *r, const seng_defer *df, diag *d)
{
    if (df && df->maps_bad) {
        *d = df->maps;
        return d->code;
    }
    status st = maps_typed(&r->names, &r->values, d);
    if (st != ST_OK)
        return st;
    if ((st = check_legacy(r, d)) != ST_OK)
        return st;
    av_copy(&x->names, &r->names);
    av_copy(&x->values, &r->values);
    /* Expected and the filters run as the condition or filter expression
     * they mean (the two kinds never meet in one request). */
    buf cond = BUF_INIT, filter = BUF_INIT;
    const ddb_legacy *l = &r->legacy;
    legacy_cond_text(&l->expected, l->condop, "_e", &x->names, &x->values, &cond);
    legacy_cond_text(&l->filter, l->condop, "_f", &x->names, &x->values, &filter);
    const char *texts[5] = { r->update, cond.len ? cond.data : r->cond, r->keycond,
                             filter.len ? filter.data : r->filter, r->proj };
    st = exprs_texts(x, texts, d);
    buf_done(&cond);
    buf_done(&filter);
    return st;
}

/* ---- projection, key paths, capacity ---- */

/* The names of an index's key attributes, HASH (when hash) then RANGE. */
static size_t index_key_names(const index_def *ix, bool hash, const char *out[2 * SCHEMA_MAX_KEY_PARTS])
{
    size_t n = 0;
    for (size_t i = 0; hash && i < index_def_n_hash(ix); i++)
        out[n++] = index_def_hash(ix, i)->name;
    for (size_t i = 0; i < index_def_n_range(ix); i++)
        out[n++] = index_def_range(ix, i)->name;
    return n;
}

/* The keys an update may not touch, with DynamoDB's messages. */
status seng_update_keys(const table_def *def, const expr *upd, diag *d)
{
    if (!upd)
        return ST_OK;
    const expr_node *root = expr_root(upd);
    const char *keys[2] = { def->pk.name, def->sk.name };
    for (int k = 0; k < 2; k++) {
        if (!keys[k])
            continue;
        for (size_t i = 0; i < root->n_kids; i++) {
            const expr_node *path = root->kids[i]->n_kids ? root->kids[i]->kids[0] : NULL;
            if (!path || path->kind != EN_PATH || !path->path.n)
                continue;
            const expr_step *st = &path->path.steps[0];
            if (st->is_index || strlen(keys[k]) != st->len || memcmp(keys[k], st->name, st->len) != 0)
                continue;
            if (path->path.n == 1)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Cannot"
                                " update attribute %s. This attribute is part of the key", keys[k]);
            return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access '[]'"
                            " and map lookup '.' are not allowed: Key: %s", keys[k]);
        }
    }
    /* Index keys may be set, but only as whole attributes. */
    for (size_t x = 0; x < def->n_idx; x++) {
        const index_def *ix = &def->idx[x];
        const char *ik[2 * SCHEMA_MAX_KEY_PARTS];
        size_t nik = index_key_names(ix, true, ik);
        for (size_t k = 0; k < nik; k++) {
            for (size_t i = 0; i < root->n_kids; i++) {
                const expr_node *path = root->kids[i]->n_kids ? root->kids[i]->kids[0] : NULL;
                if (!path || path->kind != EN_PATH || path->path.n < 2)
                    continue;
                const expr_step *st = &path->path.steps[0];
                if (!st->is_index && strlen(ik[k]) == st->len && memcmp(ik[k], st->name, st->len) == 0)
                    return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access"
                                    " '[]' and map lookup '.' are not allowed: IndexKey: %s", ik[k]);
            }
        }
    }
    return ST_OK;
}

/* Applies ProjectionExpression or AttributesToGet to item (in place). */
void seng_project(const reqx *x, const av *atg, av *item)
{
    av out;
    if (x->proj) {
        expr_project(x->proj, item, &out);
    } else if (atg && atg->type == AV_L) {
        av_init_list(&out, AV_M);
        for (size_t i = 0; i < atg->u.l.len; i++) {
            const av *nm = &atg->u.l.v[i];
            const av *v = av_map_get(item, nm->u.s.ptr, nm->u.s.len);
            if (v) {
                av c;
                av_copy(&c, v);
                av_map_put(&out, nm->u.s.ptr, nm->u.s.len, &c);
            }
        }
    } else {
        return;
    }
    av_done(item);
    av_move(item, &out);
}

bool seng_projecting(const reqx *x, const av *atg)
{
    return x->proj || (atg && atg->type == AV_L);
}

/* Nested paths (a.b, a[1]) into key attributes, refused as DynamoDB does:
 * table keys first, then index keys (GSIs, then LSIs' sort keys). */
static bool nested_head(const expr *e, const char *name)
{
    return expr_nested_path(e, name, strlen(name)) != NULL;
}

status seng_key_paths(const table_def *def, const expr *e, diag *d)
{
    if (!e)
        return ST_OK;
    const char *keys[2] = { def->pk.name, def->sk.name };
    for (int k = 0; k < 2; k++)
        if (keys[k] && nested_head(e, keys[k]))
            return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access '[]'"
                            " and map lookup '.' are not allowed: Key: %s", keys[k]);
    for (int pass = 0; pass < 2; pass++) {
        for (size_t x = 0; x < def->n_idx; x++) {
            const index_def *ix = &def->idx[x];
            if (ix->global != (pass == 0))
                continue;
            const char *ik[2 * SCHEMA_MAX_KEY_PARTS];
            size_t nik = index_key_names(ix, ix->global, ik);
            for (size_t k = 0; k < nik; k++)
                if (nested_head(e, ik[k]))
                    return diag_set(d, ST_VALIDATION, "Key attributes must be scalars; list random access"
                                    " '[]' and map lookup '.' are not allowed: IndexKey: %s", ik[k]);
        }
    }
    return ST_OK;
}

double seng_read_units(uint64_t bytes, bool consistent)
{
    return (double)size_read_halves(bytes, consistent) / 2.0;
}

void seng_cap_add(ddb_res *res, const tinfo *t, double table, const double *idx)
{
    ddb_cap *c = ddb_res_cap(res, t->name);
    c->table_units += table;
    c->units += table;
    for (size_t i = 0; idx && i < t->def.n_idx && i < SCHEMA_MAX_INDEXES; i++) {
        if (idx[i] == 0)
            continue;
        c->units += idx[i];
        c->idx = xrealloc(c->idx, (c->n_idx + 1) * sizeof *c->idx);
        ddb_cap_index *ix = &c->idx[c->n_idx++];
        ix->name = xstrdup(t->def.idx[i].name);
        ix->global = t->def.idx[i].global;
        ix->units = idx[i];
    }
}

/* ---- item collections ---- */

/* Does the table have a local secondary index (and so item collections
 * with a size limit and metrics)? */
static bool seng_has_lsi(const table_def *def)
{
    for (size_t i = 0; i < def->n_idx; i++)
        if (!def->idx[i].global)
            return true;
    return false;
}

void store_set_collection_max(store *s, uint64_t bytes)
{
    s->coll_max = bytes;
}

/* The bytes of the item collection whose encoded partition key is pk:
 * its items (parts, xid 0) and its local index entries (the local
 * indexes' parts under the same key), the open transaction's own writes
 * counted (parts lags them until its deltas are flushed). */
static status coll_bytes(store *s, const tinfo *t, const buf *pk, uint64_t *out, diag *d)
{
    status st = store_flush_deltas(s, d);
    if (st != ST_OK)
        return st;
    *out = 0;
    for (size_t x = 0; x <= t->def.n_idx; x++) {
        if (x && t->def.idx[x - 1].global)
            continue;
        sqlite3_stmt *q = store_stmt(s, Q_PART_GET, d);
        if (!q)
            return d->code;
        sqlite3_bind_int64(q, 1, t->id);
        sqlite3_bind_int(q, 2, (int)x);
        sqlite3_bind_int(q, 3, 1);
        sqlite3_bind_blob(q, 4, pk->data ? pk->data : "", (int)pk->len, SQLITE_STATIC);
        int rc = sqlite3_step(q);
        if (rc == SQLITE_ROW)
            *out += (uint64_t)sqlite3_column_int64(q, 2);
        sqlite3_reset(q);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE)
            return store_sqlerr(s, d);
    }
    return ST_OK;
}

status seng_collection(store *s, bool icm, const tinfo *t, const store_key *k, const av *item, int64_t grew,
                       ddb_res *res, diag *d)
{
    if (!seng_has_lsi(&t->def) || (!(icm && res) && grew <= 0))
        return ST_OK;
    uint64_t bytes;
    status st = coll_bytes(s, t, &k->pk, &bytes, d);
    if (st != ST_OK)
        return st;
    /* "you won't be able to add more items to the item collection or
     * increase the sizes of items that are in the item collection. (Read
     * and write operations that shrink the size of the item collection
     * are still allowed.)" (developer guide, LSI.html); the message is
     * the developer guide's (Programming.Errors.html), without the final
     * period, as DynamoDB's other messages on the wire. */
    if (grew > 0 && bytes > (s->coll_max ? s->coll_max : SIZE_COLLECTION_MAX))
        return diag_set(d, ST_COLLECTION_LIMIT, "Collection size exceeded");
    if (icm && res) {
        const char *name = t->def.pk.name;
        const av *v = av_map_get(item, name, strlen(name));
        av key, kv;
        av_init_list(&key, AV_M);
        if (v) {
            av_copy(&kv, v);
            av_map_put(&key, name, strlen(name), &kv);
        }
        ddb_res_icm(res, t->name, &key)->bytes = bytes;
        av_done(&key);
    }
    return ST_OK;
}

/* ---- store_exec ---- */

status store_exec_diag(store *s, const ddb_req *req, ddb_res *res, diag *d)
{
    ddb_res own;
    if (!res) {
        ddb_res_init(&own);
        res = &own;
    }
    ddb_err err;
    ddb_err_init(&err);
    status st = store_exec(s, req, res, &err);
    if (st != ST_OK)
        *d = err.d;
    ddb_err_done(&err);
    if (res == &own)
        ddb_res_done(&own);
    return st;
}

status store_exec_once(store *s, ddb_req *req, ddb_res *res, diag *d)
{
    ddb_res_init(res);
    status st = store_exec_diag(s, req, res, d);
    ddb_req_done(req);
    return st;
}

status store_exec_table(store *s, ddb_kind kind, const char *table, ddb_res *res, diag *d)
{
    ddb_req req;
    ddb_req_init(&req, kind);
    ddb_req_set_str(&req.table, table);
    status st = store_exec_diag(s, &req, res, d);
    ddb_req_done(&req);
    return st;
}

status store_exec(store *s, const ddb_req *req, ddb_res *res, ddb_err *err)
{
    if (s->remote)
        return store_remote_exec(s, req, res, err);
    switch (req->kind) {
    case DDB_GET: case DDB_PUT: case DDB_UPDATE: case DDB_DELETE:
        return store_item_exec(s, req, res, err);
    case DDB_QUERY: case DDB_SCAN:
        return store_query_exec(s, req, res, err);
    case DDB_SEARCH_VECTORS:
        return store_vec_exec(s, req, res, err);
    case DDB_BATCH_GET: case DDB_TRANSACT_GET:
        return store_batch_exec(s, req, res, err);
    case DDB_BATCH_WRITE: case DDB_TRANSACT_WRITE: case DDB_CHECK:
        if (req->kind == DDB_CHECK) {
            ddb_req one;
            ddb_req_wrap(req, &one);
            return store_batch_exec(s, &one, res, err);
        }
        return store_batch_exec(s, req, res, err);
    case DDB_CREATE_BACKUP: case DDB_LIST_BACKUPS: case DDB_DESCRIBE_BACKUP: case DDB_DELETE_BACKUP:
    case DDB_RESTORE_FROM_BACKUP:
        return store_backup_exec(s, req, res, err);
    case DDB_DESCRIBE_TTL: case DDB_UPDATE_TTL:
        return store_ttl_exec(s, req, res, err);
    case DDB_DESCRIBE_STREAM: case DDB_GET_SHARD_ITERATOR: case DDB_GET_RECORDS:
        return store_streams_exec(s, req, res, err);
    case DDB_EXECUTE:
        return store_pq_execute(s, req, res, err);
    case DDB_LIST_TABLES: case DDB_DESCRIBE_TABLE: case DDB_CREATE_TABLE: case DDB_DELETE_TABLE:
    case DDB_UPDATE_TABLE:
        return store_tables_exec(s, req, res, err);
    }
    return diag_set(&err->d, ST_INTERNAL, "request kind %d is not one the store runs", (int)req->kind);
}
