#include "model/ddbreq.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/ddbres_tables.h"
#include "model/mem.h"
#include "model/vecidx.h"

/* ---- operation names ---------------------------------------------------- */

static const struct {
    const char *name, *cli;
    char kind;
} ops[] = {
#define DDB_OP_ROW(name, cli, kind) { #name, cli, kind },
    DDB_OPERATIONS(DDB_OP_ROW)
#undef DDB_OP_ROW
};

const char *ddb_op_name(ddb_opname op)
{
    return (unsigned)op < DDB_OP__COUNT ? ops[op].name : "?";
}

/* "put-item": the `aws dynamodb` subcommand. */
static const char *ddb_op_cli_name(ddb_opname op)
{
    return (unsigned)op < DDB_OP__COUNT ? ops[op].cli : "?";
}

int ddb_op_find(const char *name)
{
    for (int i = 0; name && i < DDB_OP__COUNT; i++)
        if (strcmp(ops[i].name, name) == 0)
            return i;
    return -1;
}

char ddb_op_kind_of(const char *name)
{
    int i = ddb_op_find(name);
    return i < 0 ? 0 : ops[i].kind;
}

ddb_opname ddb_kind_op(ddb_kind k)
{
    static const ddb_opname by_kind[] = {
        [DDB_GET] = DDB_OP_GetItem, [DDB_PUT] = DDB_OP_PutItem, [DDB_UPDATE] = DDB_OP_UpdateItem,
        [DDB_DELETE] = DDB_OP_DeleteItem, [DDB_CHECK] = DDB_OP_TransactWriteItems,
        [DDB_QUERY] = DDB_OP_Query, [DDB_SCAN] = DDB_OP_Scan, [DDB_BATCH_GET] = DDB_OP_BatchGetItem,
        [DDB_BATCH_WRITE] = DDB_OP_BatchWriteItem, [DDB_TRANSACT_GET] = DDB_OP_TransactGetItems,
        [DDB_TRANSACT_WRITE] = DDB_OP_TransactWriteItems, [DDB_SEARCH_VECTORS] = DDB_OP_SearchVectors,
        [DDB_LIST_TABLES] = DDB_OP_ListTables, [DDB_DESCRIBE_TABLE] = DDB_OP_DescribeTable,
        [DDB_CREATE_TABLE] = DDB_OP_CreateTable, [DDB_DELETE_TABLE] = DDB_OP_DeleteTable,
        [DDB_UPDATE_TABLE] = DDB_OP_UpdateTable, [DDB_DESCRIBE_TTL] = DDB_OP_DescribeTimeToLive,
        [DDB_UPDATE_TTL] = DDB_OP_UpdateTimeToLive, [DDB_EXECUTE] = DDB_OP_ExecuteStatement,
        [DDB_DESCRIBE_STREAM] = DDB_OP_DescribeStream, [DDB_GET_SHARD_ITERATOR] = DDB_OP_GetShardIterator,
        [DDB_GET_RECORDS] = DDB_OP_GetRecords, [DDB_CREATE_BACKUP] = DDB_OP_CreateBackup,
        [DDB_LIST_BACKUPS] = DDB_OP_ListBackups, [DDB_DESCRIBE_BACKUP] = DDB_OP_DescribeBackup,
        [DDB_DELETE_BACKUP] = DDB_OP_DeleteBackup, [DDB_RESTORE_FROM_BACKUP] = DDB_OP_RestoreTableFromBackup,
    };
    return by_kind[k];
}

bool ddb_kind_is_ctl(ddb_kind k)
{
    return k >= DDB_LIST_TABLES;
}

const char *ddb_kind_action_name(ddb_kind k)
{
    switch (k) {
    case DDB_PUT: return "Put";
    case DDB_UPDATE: return "Update";
    case DDB_DELETE: return "Delete";
    case DDB_CHECK: return "ConditionCheck";
    case DDB_GET: return "Get";
    default: return NULL;
    }
}

static const char *const rv_names[] = { "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW" };
static const char *const select_names[] = { NULL, "ALL_ATTRIBUTES", "ALL_PROJECTED_ATTRIBUTES",
                                            "SPECIFIC_ATTRIBUTES", "COUNT" };

const char *ddb_rv_name(ddb_rv rv)
{
    return (unsigned)rv <= DDB_RV_UPDATED_NEW ? rv_names[rv] : "NONE";
}

const char *ddb_select_name(ddb_select s)
{
    return (unsigned)s <= DDB_SELECT_COUNT ? select_names[s] : NULL;
}

/* The position of name in names[0..n) (a NULL entry matches nothing);
 * 0 when absent. */
static int name_index(const char *const *names, int n, const char *name)
{
    for (int i = 0; name && i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0)
            return i;
    return 0;
}

ddb_rv ddb_rv_find(const char *name)
{
    return (ddb_rv)name_index(rv_names, DDB_RV_UPDATED_NEW + 1, name);
}

ddb_select ddb_select_find(const char *name)
{
    return (ddb_select)name_index(select_names, DDB_SELECT_COUNT + 1, name);
}

ddb_rcc ddb_rcc_find(const char *name)
{
    static const char *const n[] = { NULL, "TOTAL", "INDEXES" };
    return (ddb_rcc)name_index(n, DDB_RCC_INDEXES + 1, name);
}

/* ---- requests ----------------------------------------------------------- */

void ddb_req_init(ddb_req *r, ddb_kind kind)
{
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->key.type = r->item.type = r->keys.type = AV_NONE;
    r->names.type = r->values.type = r->start.type = r->svec.type = AV_NONE;
    r->ctl.params.type = AV_NONE;
    r->ctl.tags.type = AV_NONE;
    legacy_init(&r->legacy);
}

static void ctl_done(ddb_ctl *c)
{
    if (c->def) {
        table_def_free(c->def);
        free(c->def);
    }
    if (c->gsi) {
        index_def_free(c->gsi);
        free(c->gsi);
    }
    free(c->idx_pt);
    ddbres_table_desc_free(c->create);
    av_done(&c->tags);
    free(c->policy);
    free(c->stream_view);
    free(c->ttl_attr);
    free(c->statement);
    av_done(&c->params);
    free(c->next_token);
    free(c->start_name);
    free(c->stream);
    free(c->shard);
    free(c->iterator_type);
    free(c->iterator);
    free(c->seq);
    free(c->start_shard);
    free(c->child_of);
    free(c->backup_name);
    free(c->backup_arn);
    free(c->target);
    free(c->backup_type);
    free(c->billing_override);
    free(c->idx_odd);
}

void ddb_req_done(ddb_req *r)
{
    free(r->table);
    free(r->index);
    free(r->cond);
    free(r->update);
    free(r->keycond);
    free(r->filter);
    free(r->proj);
    free(r->token);
    free(r->scond);
    av_done(&r->svec);
    av_done(&r->key);
    av_done(&r->item);
    av_done(&r->keys);
    av_done(&r->names);
    av_done(&r->values);
    av_done(&r->start);
    for (size_t i = 0; i < r->n_acts; i++)
        ddb_req_done(&r->acts[i]);
    free(r->acts);
    legacy_done(&r->legacy);
    if (ddb_kind_is_ctl(r->kind))
        ctl_done(&r->ctl);
    ddb_req_init(r, r->kind);
}

void ddb_req_set_str(char **field, const char *s)
{
    free(*field);
    *field = s ? xstrdup(s) : NULL;
}

ddb_req *ddb_req_add(ddb_req *r, ddb_kind kind)
{
    r->acts = xrealloc(r->acts, (r->n_acts + 1) * sizeof *r->acts);
    ddb_req *a = &r->acts[r->n_acts++];
    ddb_req_init(a, kind);
    return a;
}

static char *dup_or_null(const char *s)
{
    return s ? xstrdup(s) : NULL;
}

void ddb_req_copy(ddb_req *dst, const ddb_req *src)
{
    *dst = *src;
    dst->table = dup_or_null(src->table);
    dst->index = dup_or_null(src->index);
    dst->cond = dup_or_null(src->cond);
    dst->update = dup_or_null(src->update);
    dst->keycond = dup_or_null(src->keycond);
    dst->filter = dup_or_null(src->filter);
    dst->proj = dup_or_null(src->proj);
    dst->token = dup_or_null(src->token);
    dst->scond = dup_or_null(src->scond);
    av_copy(&dst->svec, &src->svec);
    av_copy(&dst->key, &src->key);
    av_copy(&dst->item, &src->item);
    av_copy(&dst->keys, &src->keys);
    av_copy(&dst->names, &src->names);
    av_copy(&dst->values, &src->values);
    av_copy(&dst->start, &src->start);
    dst->acts = src->n_acts ? xmalloc(src->n_acts * sizeof *dst->acts) : NULL;
    for (size_t i = 0; i < src->n_acts; i++)
        ddb_req_copy(&dst->acts[i], &src->acts[i]);
    legacy_copy(&dst->legacy, &src->legacy);
    const ddb_ctl *c = &src->ctl;
    ddb_ctl *o = &dst->ctl;
    if (c->def) {
        o->def = xcalloc(1, sizeof *o->def);
        table_def_copy(o->def, c->def);
    }
    if (c->gsi) {
        o->gsi = xcalloc(1, sizeof *o->gsi);
        index_def_copy(o->gsi, c->gsi);
    }
    if (c->idx_pt && c->def) {
        o->idx_pt = xmalloc((c->def->n_idx ? c->def->n_idx : 1) * sizeof *o->idx_pt);
        memcpy(o->idx_pt, c->idx_pt, c->def->n_idx * sizeof *o->idx_pt);
    } else {
        o->idx_pt = NULL;
    }
    size_t n_odd = c->def && c->def->n_idx ? c->def->n_idx : 1;   /* allocated with at least 1 */
    o->idx_odd = c->idx_odd && c->def ? xmemdup(c->idx_odd, n_odd * sizeof *o->idx_odd) : NULL;
    o->stream_view = dup_or_null(c->stream_view);
    o->ttl_attr = dup_or_null(c->ttl_attr);
    o->statement = dup_or_null(c->statement);
    av_copy(&o->params, &c->params);
    o->next_token = dup_or_null(c->next_token);
    o->start_name = dup_or_null(c->start_name);
    o->stream = dup_or_null(c->stream);
    o->shard = dup_or_null(c->shard);
    o->iterator_type = dup_or_null(c->iterator_type);
    o->iterator = dup_or_null(c->iterator);
    o->seq = dup_or_null(c->seq);
    o->start_shard = dup_or_null(c->start_shard);
    o->child_of = dup_or_null(c->child_of);
    o->backup_name = dup_or_null(c->backup_name);
    o->backup_arn = dup_or_null(c->backup_arn);
    o->target = dup_or_null(c->target);
    o->backup_type = dup_or_null(c->backup_type);
    o->billing_override = dup_or_null(c->billing_override);
}

/* ---- the JSON printer --------------------------------------------------- */

typedef struct jw {
    buf *out;
    bool first;
} jw;

static void jmember(jw *w, const char *name)
{
    if (!w->first)
        buf_addc(w->out, ',');
    w->first = false;
    ddbjson_write_string(w->out, name, strlen(name));
    buf_addc(w->out, ':');
}

static void jstring(jw *w, const char *name, const char *s)
{
    if (!s)
        return;
    jmember(w, name);
    ddbjson_write_string(w->out, s, strlen(s));
}

static void jitem(jw *w, const char *name, const av *v)
{
    if (v->type != AV_M)
        return;
    jmember(w, name);
    ddbjson_write_item(w->out, v);
}

/* A list's elements as a JSON array, each written by each
 * (ddbjson_write_item for items, ddbjson_write_value for values); []
 * when l is no list. */
static void write_list(buf *out, const av *l, void (*each)(buf *, const av *))
{
    buf_addc(out, '[');
    for (size_t i = 0; l->type == AV_L && i < l->u.l.len; i++) {
        if (i)
            buf_addc(out, ',');
        each(out, &l->u.l.v[i]);
    }
    buf_addc(out, ']');
}

/* ExpressionAttributeNames: {"#n":"name"} (plain strings, not typed). */
static void write_names(buf *out, const av *names)
{
    buf_addc(out, '{');
    for (size_t i = 0; i < names->u.m.len; i++) {
        const av_member *m = &names->u.m.v[i];
        if (i)
            buf_addc(out, ',');
        ddbjson_write_string(out, m->name, m->name_len);
        buf_addc(out, ':');
        const av *v = &m->val;
        if (v->type == AV_S)
            ddbjson_write_string(out, v->u.s.ptr, v->u.s.len);
        else
            buf_adds(out, "null");
    }
    buf_addc(out, '}');
}

static void write_body(const ddb_req *r, buf *out);

/* The TransactItems array: [{"Put":{...}}, ...]. */
static void write_actions(const ddb_req *r, buf *out)
{
    buf_addc(out, '[');
    for (size_t i = 0; i < r->n_acts; i++) {
        const ddb_req *a = &r->acts[i];
        if (i)
            buf_addc(out, ',');
        buf_addc(out, '{');
        const char *n = ddb_kind_action_name(a->kind);
        ddbjson_write_string(out, n, strlen(n));
        buf_addc(out, ':');
        write_body(a, out);
        buf_addc(out, '}');
    }
    buf_addc(out, ']');
}

/* RequestItems of a batch: {"T":[{"PutRequest":{"Item":...}}, ...]} or
 * {"T":{"Keys":[...], ...}}; actions of one table are grouped in the
 * order their tables first appear. */
static void request_items(buf *out, const ddb_req *r)
{
    buf_addc(out, '{');
    bool *done = xcalloc(r->n_acts ? r->n_acts : 1, sizeof *done);
    bool first_table = true;
    for (size_t i = 0; i < r->n_acts; i++) {
        if (done[i])
            continue;
        const char *t = r->acts[i].table ? r->acts[i].table : "";
        if (!first_table)
            buf_addc(out, ',');
        first_table = false;
        ddbjson_write_string(out, t, strlen(t));
        buf_addc(out, ':');
        if (r->kind == DDB_BATCH_GET) {
            const ddb_req *g = &r->acts[i];
            done[i] = true;
            jw in = { out, true };
            buf_addc(out, '{');
            jmember(&in, "Keys");
            write_list(out, &g->keys, ddbjson_write_item);
            jstring(&in, "ProjectionExpression", g->proj);
            if (g->names.type == AV_M) {
                jmember(&in, DDBJSON_NAMES_MEMBER);
                write_names(out, &g->names);
            }
            if (g->consistent) {
                jmember(&in, "ConsistentRead");
                buf_adds(out, "true");
            }
            buf_addc(out, '}');
            continue;
        }
        buf_addc(out, '[');
        bool first = true;
        for (size_t j = i; j < r->n_acts; j++) {
            const ddb_req *a = &r->acts[j];
            if (done[j] || strcmp(a->table ? a->table : "", t) != 0)
                continue;
            done[j] = true;
            if (!first)
                buf_addc(out, ',');
            first = false;
            if (a->kind == DDB_PUT) {
                buf_adds(out, "{\"PutRequest\":{\"Item\":");
                ddbjson_write_item(out, &a->item);
            } else {
                buf_adds(out, "{\"DeleteRequest\":{\"Key\":");
                ddbjson_write_item(out, &a->key);
            }
            buf_adds(out, "}}");
        }
        buf_addc(out, ']');
    }
    buf_addc(out, '}');
    free(done);
}

static void jbatch(jw *w, const ddb_req *r)
{
    jmember(w, "RequestItems");
    request_items(w->out, r);
}

void ddb_req_json_request_items(const ddb_req *r, buf *out)
{
    request_items(out, r);
}

/* ---- the control plane's bodies ---- */

/* The key attributes of a table (ix NULL) or an index, HASH then RANGE,
 * into keys; how many are HASH in *n_hash. */
static size_t key_attrs(const table_def *def, const index_def *ix, const key_attr **keys, size_t *n_hash)
{
    size_t n = 0;
    if (!ix) {
        keys[n++] = &def->pk;
        *n_hash = 1;
        if (def->sk.name)
            keys[n++] = &def->sk;
        return n;
    }
    for (size_t i = 0; i < index_def_n_hash(ix); i++)
        keys[n++] = index_def_hash(ix, i);
    *n_hash = n;
    for (size_t i = 0; i < index_def_n_range(ix); i++)
        keys[n++] = index_def_range(ix, i);
    return n;
}

/* [{"AttributeName":..,"KeyType":"HASH"}, ...] of a table's or an index's
 * key (a multi-attribute key's every attribute, in order). */
static void key_schema(buf *out, const table_def *def, const index_def *ix)
{
    const key_attr *keys[2 * SCHEMA_MAX_KEY_PARTS];
    size_t n_hash, n = key_attrs(def, ix, keys, &n_hash);
    buf_addc(out, '[');
    for (size_t k = 0; k < n; k++) {
        jw e = { out, true };
        if (k)
            buf_addc(out, ',');
        buf_addc(out, '{');
        jstring(&e, "AttributeName", keys[k]->name);
        jstring(&e, "KeyType", k >= n_hash ? "RANGE" : "HASH");
        buf_addc(out, '}');
    }
    buf_addc(out, ']');
}

/* One AttributeDefinitions entry. */
static void attr_def(buf *out, const key_attr *k)
{
    jw e = { out, true };
    buf_addc(out, '{');
    jstring(&e, "AttributeName", k->name);
    jstring(&e, "AttributeType", av_type_name(k->type));
    buf_addc(out, '}');
}

/* "Projection":{...} of an index (its proj and include). */
static void projection(jw *w, const index_def *ix)
{
    jmember(w, "Projection");
    jw p = { w->out, true };
    buf_addc(w->out, '{');
    jstring(&p, "ProjectionType", proj_type_name(ix->proj));
    if (ix->proj == PROJ_INCLUDE) {
        jmember(&p, "NonKeyAttributes");
        buf_addc(w->out, '[');
        for (size_t i = 0; i < ix->n_include; i++) {
            if (i)
                buf_addc(w->out, ',');
            ddbjson_write_string(w->out, ix->include[i], strlen(ix->include[i]));
        }
        buf_addc(w->out, ']');
    }
    buf_addc(w->out, '}');
}

/* IndexName, KeySchema and Projection of an index (inside its object). */
static void index_members(jw *w, const table_def *def, const index_def *ix)
{
    jstring(w, "IndexName", ix->name);
    jmember(w, "KeySchema");
    key_schema(w->out, def, ix);
    projection(w, ix);
}

/* "ProvisionedThroughput":{"ReadCapacityUnits":R,"WriteCapacityUnits":W} */
static void throughput(jw *w, uint64_t rcu, uint64_t wcu)
{
    jmember(w, "ProvisionedThroughput");
    buf_printf(w->out, "{\"ReadCapacityUnits\":%llu,\"WriteCapacityUnits\":%llu}", (unsigned long long)rcu,
               (unsigned long long)wcu);
}

/* The member (GlobalSecondaryIndexes, LocalSecondaryIndexOverride, ...)
 * listing def's global or local indexes in their order in def->idx, each
 * with its throughput when pt (CreateTable's provisioned GSIs); left out
 * when there are none, unless always. */
static void index_list(jw *w, const char *member, const table_def *def, bool global, const ddb_ctl *pt,
                       bool always)
{
    bool any = false;
    for (size_t i = 0; i < def->n_idx; i++) {
        const index_def *ix = &def->idx[i];
        if (ix->global != global)
            continue;
        if (!any)
            jmember(w, member);
        buf_addc(w->out, any ? ',' : '[');
        any = true;
        jw e = { w->out, true };
        buf_addc(w->out, '{');
        index_members(&e, def, ix);
        if (pt && global)
            throughput(&e, pt->idx_pt ? pt->idx_pt[i].rcu : pt->rcu, pt->idx_pt ? pt->idx_pt[i].wcu : pt->wcu);
        buf_addc(w->out, '}');
    }
    if (any)
        buf_addc(w->out, ']');
    else if (always) {
        jmember(w, member);
        buf_adds(w->out, "[]");
    }
}

/* CreateTable from a table_def: every key attribute defined once (the
 * table's, then each index's), on demand or provisioned (c->rcu, c->wcu),
 * the index lists in the order their first index comes in def->idx, and
 * the stream. */
/* A table's VectorIndexes (model/vecidx.h), as CreateTable takes them. */
static void vector_indexes(jw *w, const table_def *def)
{
    jmember(w, "VectorIndexes");
    buf_addc(w->out, '[');
    for (size_t i = 0; i < def->n_vidx; i++) {
        const vec_index *v = &def->vidx[i];
        jw e = { w->out, true };
        buf_adds(w->out, i ? ",{" : "{");
        jstring(&e, "IndexName", v->name);
        if (v->n_schema) {
            jmember(&e, "SearchSchema");
            for (size_t j = 0; j < v->n_schema; j++) {
                buf_adds(w->out, j ? ",{\"AttributeName\":" : "[{\"AttributeName\":");
                ddbjson_write_string(w->out, v->schema[j].name, strlen(v->schema[j].name));
                buf_adds(w->out, v->schema[j].hash ? ",\"SearchSchemaElementType\":\"HASH\"}"
                                                   : ",\"SearchSchemaElementType\":\"INLINE_FILTER\"}");
            }
            buf_addc(w->out, ']');
        }
        index_def proj = { .proj = v->proj, .include = v->include, .n_include = v->n_include };
        projection(&e, &proj);
        jmember(&e, "VectorAttribute");
        buf_adds(w->out, "{\"AttributeName\":");
        ddbjson_write_string(w->out, v->attr, strlen(v->attr));
        buf_printf(w->out, "},\"Dimensions\":%u", v->dims);
        jstring(&e, "DistanceFunction", vec_dist_name(v->dist));
        buf_addc(w->out, '}');
    }
    buf_addc(w->out, ']');
}

void ddb_req_json_key_schema(buf *out, const table_def *def, const index_def *ix)
{
    key_schema(out, def, ix);
}

bool ddb_req_json_indexes(buf *out, bool first, const table_def *def, bool global, const ddb_pt *pts)
{
    jw w = { out, first };
    ddb_ctl c = { .idx_pt = (ddb_pt *)pts };
    index_list(&w, global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes", def, global, pts ? &c : NULL, false);
    return w.first;
}

bool ddb_req_json_vector_indexes(buf *out, bool first, const table_def *def)
{
    jw w = { out, first };
    if (def->n_vidx)
        vector_indexes(&w, def);
    return w.first;
}

static void create_table(jw *w, const ddb_ctl *c)
{
    const table_def *def = c->def;
    size_t n_schema = 0;
    for (size_t i = 0; i < def->n_vidx; i++)
        n_schema += def->vidx[i].n_schema;
    /* The keys' attributes, then the vector indexes' search schemas'. */
    const key_attr **all = xcalloc((1 + SCHEMA_MAX_INDEXES) * 2 * SCHEMA_MAX_KEY_PARTS + n_schema, sizeof *all);
    key_attr *schema = n_schema ? xcalloc(n_schema, sizeof *schema) : NULL;
    size_t n_all = 0, n_hash;
    n_all += key_attrs(def, NULL, all, &n_hash);
    for (size_t i = 0; i < def->n_idx && i < SCHEMA_MAX_INDEXES; i++)
        n_all += key_attrs(def, &def->idx[i], all + n_all, &n_hash);
    for (size_t i = 0, k = 0; i < def->n_vidx; i++)
        for (size_t j = 0; j < def->vidx[i].n_schema; j++, k++) {
            schema[k] = (key_attr){ def->vidx[i].schema[j].name, def->vidx[i].schema[j].type };
            all[n_all++] = &schema[k];
        }
    jmember(w, "AttributeDefinitions");
    buf_addc(w->out, '[');
    bool first = true;
    for (size_t i = 0; i < n_all; i++) {
        bool dup = false;
        for (size_t j = 0; j < i; j++)
            dup |= strcmp(all[j]->name, all[i]->name) == 0;
        if (dup)
            continue;
        if (!first)
            buf_addc(w->out, ',');
        first = false;
        attr_def(w->out, all[i]);
    }
    buf_addc(w->out, ']');
    jstring(w, "TableName", def->name);
    bool provisioned = c->rcu || c->wcu;
    jstring(w, "BillingMode", provisioned ? "PROVISIONED" : "PAY_PER_REQUEST");
    if (provisioned)
        throughput(w, c->rcu, c->wcu);
    jmember(w, "KeySchema");
    key_schema(w->out, def, NULL);
    bool lead_global = def->n_idx && def->idx[0].global;
    for (int pass = 0; pass < 2; pass++) {
        bool global = pass == 0 ? lead_global : !lead_global;
        index_list(w, global ? "GlobalSecondaryIndexes" : "LocalSecondaryIndexes", def, global,
                   provisioned ? c : NULL, false);
    }
    if (c->stream_view) {
        jmember(w, "StreamSpecification");
        jw e = { w->out, true };
        buf_adds(w->out, "{\"StreamEnabled\":true");
        e.first = false;
        jstring(&e, "StreamViewType", c->stream_view);
        buf_addc(w->out, '}');
    }
    if (def->n_vidx)
        vector_indexes(w, def);
    free(schema);
    free(all);
}

/* UpdateTable: one GlobalSecondaryIndexUpdates entry, a Create (its key
 * attributes defined) or a Delete. */
static void update_table(jw *w, const ddb_req *r)
{
    const ddb_ctl *c = &r->ctl;
    jstring(w, "TableName", r->table);
    if (c->gsi) {
        jmember(w, "AttributeDefinitions");
        buf_addc(w->out, '[');
        const key_attr *keys[2 * SCHEMA_MAX_KEY_PARTS];
        size_t n_hash, n = key_attrs(NULL, c->gsi, keys, &n_hash);
        for (size_t i = 0; i < n; i++) {
            if (i)
                buf_addc(w->out, ',');
            attr_def(w->out, keys[i]);
        }
        buf_addc(w->out, ']');
    }
    jmember(w, "GlobalSecondaryIndexUpdates");
    jw e = { w->out, true };
    buf_addc(w->out, '[');
    buf_addc(w->out, '{');
    jmember(&e, c->gsi ? "Create" : "Delete");
    jw a = { w->out, true };
    buf_addc(w->out, '{');
    if (c->gsi) {
        index_members(&a, NULL, c->gsi);
        if (c->rcu || c->wcu)
            throughput(&a, c->rcu, c->wcu);
    } else {
        jstring(&a, "IndexName", r->index);
    }
    buf_adds(w->out, "}}]");
}

static void jlimit(jw *w, const ddb_req *r)
{
    if (r->limit) {
        jmember(w, "Limit");
        buf_printf(w->out, "%u", (unsigned)r->limit);
    }
}

/* A moment (ms since the epoch) as the seconds DynamoDB's timestamps
 * are, to the millisecond; 0: left out. */
static void jseconds(jw *w, const char *name, int64_t ms)
{
    if (!ms)
        return;
    jmember(w, name);
    uint64_t a = ms < 0 ? -(uint64_t)ms : (uint64_t)ms;
    buf_printf(w->out, "%s%llu", ms < 0 ? "-" : "", (unsigned long long)(a / 1000));
    unsigned frac = (unsigned)(a % 1000);
    int digits = 3;
    for (; frac && frac % 10 == 0; frac /= 10)
        digits--;
    if (frac)
        buf_printf(w->out, ".%0*u", digits, frac);
}

static void ctl_body(const ddb_req *r, jw *w)
{
    const ddb_ctl *c = &r->ctl;
    switch (r->kind) {
    case DDB_LIST_TABLES:
        jstring(w, "ExclusiveStartTableName", c->start_name);
        jlimit(w, r);
        break;
    case DDB_CREATE_TABLE:
        if (c->def)
            create_table(w, c);
        break;
    case DDB_UPDATE_TABLE:
        update_table(w, r);
        break;
    case DDB_UPDATE_TTL:
        jstring(w, "TableName", r->table);
        jmember(w, "TimeToLiveSpecification");
        buf_addc(w->out, '{');
        jw t = { w->out, true };
        jstring(&t, "AttributeName", c->ttl_attr);
        jmember(&t, "Enabled");
        buf_adds(w->out, c->ttl_enabled ? "true}" : "false}");
        break;
    case DDB_EXECUTE:
        jstring(w, DDB_MEMBER_STATEMENT, c->statement);
        if (c->params.type == AV_L && c->params.u.l.len) {
            jmember(w, "Parameters");
            buf_addc(w->out, '[');
            for (size_t i = 0; i < c->params.u.l.len; i++) {
                if (i)
                    buf_addc(w->out, ',');
                ddbjson_write_value(w->out, &c->params.u.l.v[i]);
            }
            buf_addc(w->out, ']');
        }
        jlimit(w, r);
        jstring(w, "NextToken", c->next_token);
        if (r->consistent) {
            jmember(w, "ConsistentRead");
            buf_adds(w->out, "true");
        }
        if (r->rv_fail_all_old)
            jstring(w, "ReturnValuesOnConditionCheckFailure", "ALL_OLD");
        break;
    case DDB_DESCRIBE_STREAM:
        jstring(w, "StreamArn", c->stream);
        jlimit(w, r);
        jstring(w, "ExclusiveStartShardId", c->start_shard);
        if (c->child_of) {
            jmember(w, "ShardFilter");
            buf_addc(w->out, '{');
            jw f = { w->out, true };
            jstring(&f, "ShardId", c->child_of);
            jstring(&f, "Type", "CHILD_SHARDS");
            buf_addc(w->out, '}');
        }
        break;
    case DDB_GET_SHARD_ITERATOR:
        jstring(w, "StreamArn", c->stream);
        jstring(w, "ShardId", c->shard);
        jstring(w, "ShardIteratorType", c->iterator_type);
        jstring(w, "SequenceNumber", c->seq);
        break;
    case DDB_GET_RECORDS:
        jstring(w, "ShardIterator", c->iterator);
        jlimit(w, r);
        break;
    case DDB_CREATE_BACKUP:
        jstring(w, "TableName", r->table);
        jstring(w, "BackupName", c->backup_name);
        break;
    case DDB_LIST_BACKUPS:
        jstring(w, "TableName", r->table);
        jstring(w, "BackupType", c->backup_type);
        jseconds(w, "TimeRangeLowerBound", c->from_ms);
        jseconds(w, "TimeRangeUpperBound", c->to_ms);
        jstring(w, "ExclusiveStartBackupArn", c->start_name);
        jlimit(w, r);
        break;
    case DDB_DESCRIBE_BACKUP:
    case DDB_DELETE_BACKUP:
        jstring(w, "BackupArn", c->backup_arn);
        break;
    case DDB_RESTORE_FROM_BACKUP:
        jstring(w, "TargetTableName", c->target);
        jstring(w, "BackupArn", c->backup_arn);
        if (c->def) {
            index_list(w, "GlobalSecondaryIndexOverride", c->def, true, NULL, true);
            index_list(w, "LocalSecondaryIndexOverride", c->def, false, NULL, true);
        }
        break;
    default:   /* DescribeTable, DeleteTable, DescribeTimeToLive */
        jstring(w, "TableName", r->table);
        break;
    }
}

static void write_body(const ddb_req *r, buf *out)
{
    jw w = { out, true };
    buf_addc(out, '{');
    if (ddb_kind_is_ctl(r->kind)) {
        ctl_body(r, &w);
    } else if (r->kind == DDB_TRANSACT_WRITE || r->kind == DDB_TRANSACT_GET) {
        jmember(&w, "TransactItems");
        write_actions(r, out);
        jstring(&w, "ClientRequestToken", r->token);
    } else if (r->kind == DDB_BATCH_GET || r->kind == DDB_BATCH_WRITE) {
        jbatch(&w, r);
    } else {
        jstring(&w, "TableName", r->table);
        jstring(&w, "IndexName", r->index);
        jitem(&w, "Item", &r->item);
        jitem(&w, "Key", &r->key);
        jstring(&w, "KeyConditionExpression", r->keycond);
        jstring(&w, "UpdateExpression", r->update);
        jstring(&w, "FilterExpression", r->filter);
        jstring(&w, "ConditionExpression", r->cond);
        jstring(&w, "ProjectionExpression", r->proj);
        if (r->names.type == AV_M) {
            jmember(&w, DDBJSON_NAMES_MEMBER);
            write_names(out, &r->names);
        }
        jitem(&w, DDBJSON_VALUES_MEMBER, &r->values);
        jstring(&w, "SearchConditionExpression", r->scond);
        if (r->svec.type == AV_L) {
            jmember(&w, "SearchVector");
            write_list(out, &r->svec, ddbjson_write_value);
        }
        if (r->topk) {
            jmember(&w, "TopK");
            buf_printf(out, "%u", (unsigned)r->topk);
        }
        jstring(&w, "Select", ddb_select_name(r->select));
        if (r->limit) {
            jmember(&w, "Limit");
            buf_printf(out, "%u", (unsigned)r->limit);
        }
        jitem(&w, "ExclusiveStartKey", &r->start);
        if (r->backward) {
            jmember(&w, "ScanIndexForward");
            buf_adds(out, "false");
        }
        if (r->consistent) {
            jmember(&w, "ConsistentRead");
            buf_adds(out, "true");
        }
        if (r->segments) {
            jmember(&w, "Segment");
            buf_printf(out, "%d", r->segment);
            jmember(&w, "TotalSegments");
            buf_printf(out, "%d", r->segments);
        }
        if (r->rv != DDB_RV_NONE)
            jstring(&w, "ReturnValues", ddb_rv_name(r->rv));
        if (r->rv_fail_all_old)
            jstring(&w, "ReturnValuesOnConditionCheckFailure", "ALL_OLD");
        legacy_json(&r->legacy, r->kind == DDB_QUERY, out, &w.first);
    }
    if (r->rcc != DDB_RCC_NONE)
        jstring(&w, "ReturnConsumedCapacity", r->rcc == DDB_RCC_TOTAL ? "TOTAL" : "INDEXES");
    if (r->icm)
        jstring(&w, "ReturnItemCollectionMetrics", "SIZE");
    buf_addc(out, '}');
}

void ddb_req_json(const ddb_req *r, buf *out)
{
    write_body(r, out);
}

void ddb_req_wrap(const ddb_req *r, ddb_req *txn)
{
    ddb_req_init(txn, DDB_TRANSACT_WRITE);
    txn->acts = (ddb_req *)r;
    txn->n_acts = 1;
    txn->rcc = r->rcc;
}

/* ---- the aws command line ----------------------------------------------- */

static bool shell_safe(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           strchr("_-./:=@%+,", c) != NULL;
}

void ddb_shell_quote(buf *out, const char *s, size_t n)
{
    bool safe = n > 0;
    for (size_t i = 0; i < n && safe; i++)
        safe = s[i] != '\0' && shell_safe(s[i]);
    if (safe) {
        buf_add(out, s, n);
        return;
    }
    buf_addc(out, '\'');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'')
            buf_adds(out, "'\\''");
        else
            buf_addc(out, s[i]);
    }
    buf_addc(out, '\'');
}

static void opt(buf *out, const char *name, const char *val)
{
    if (!val)
        return;
    buf_printf(out, " %s ", name);
    ddb_shell_quote(out, val, strlen(val));
}

static void opt_json(buf *out, const char *name, const av *v, bool names)
{
    if (v->type != AV_M)
        return;
    buf j = BUF_INIT;
    if (names)
        write_names(&j, v);
    else
        ddbjson_write_item(&j, v);
    buf_printf(out, " %s ", name);
    ddb_shell_quote(out, j.data, j.len);
    buf_done(&j);
}

/* A legacy member as an option: JSON, but a string (ConditionalOperator)
 * as the word itself. */
static void cli_member(void *arg, const char *name, const char *cli, const char *json, size_t len)
{
    buf *out = arg;
    buf_printf(out, " %s ", cli);
    if (len >= 2 && json[0] == '"')
        ddb_shell_quote(out, json + 1, len - 2);
    else
        ddb_shell_quote(out, json, len);
}

void ddb_req_cli(const ddb_req *r, buf *out)
{
    if (r->kind == DDB_CHECK) {
        ddb_req t;
        ddb_req_wrap(r, &t);
        ddb_req_cli(&t, out);
        return;
    }
    buf_printf(out, "aws dynamodb %s", ddb_op_cli_name(ddb_kind_op(r->kind)));
    if (ddb_kind_is_ctl(r->kind)) {
        buf j = BUF_INIT;
        write_body(r, &j);
        buf_adds(out, " --cli-input-json ");
        ddb_shell_quote(out, j.data, j.len);
        buf_done(&j);
        return;
    }
    if (r->kind == DDB_TRANSACT_WRITE || r->kind == DDB_TRANSACT_GET) {
        buf j = BUF_INIT;
        write_actions(r, &j);
        buf_adds(out, " --transact-items ");
        ddb_shell_quote(out, j.data, j.len);
        buf_done(&j);
        opt(out, "--client-request-token", r->token);
    } else if (r->kind == DDB_BATCH_GET || r->kind == DDB_BATCH_WRITE) {
        buf j = BUF_INIT;
        ddb_req b = *r;
        b.rcc = DDB_RCC_NONE;
        b.icm = false;
        write_body(&b, &j);
        /* {"RequestItems":{...}} -> {...} */
        size_t skip = strlen("{\"RequestItems\":");
        buf_adds(out, " --request-items ");
        ddb_shell_quote(out, j.data + skip, j.len - skip - 1);
        buf_done(&j);
    } else {
        opt(out, "--table-name", r->table);
        opt(out, "--index-name", r->index);
        opt_json(out, "--item", &r->item, false);
        opt_json(out, "--key", &r->key, false);
        opt(out, "--key-condition-expression", r->keycond);
        opt(out, "--update-expression", r->update);
        opt(out, "--filter-expression", r->filter);
        opt(out, "--condition-expression", r->cond);
        opt(out, "--projection-expression", r->proj);
        opt_json(out, "--expression-attribute-names", &r->names, true);
        opt_json(out, "--expression-attribute-values", &r->values, false);
        opt(out, "--select", ddb_select_name(r->select));
        if (r->limit)
            buf_printf(out, " --limit %u", (unsigned)r->limit);
        opt_json(out, "--exclusive-start-key", &r->start, false);
        if (r->backward)
            buf_adds(out, " --no-scan-index-forward");
        if (r->consistent)
            buf_adds(out, " --consistent-read");
        if (r->segments)
            buf_printf(out, " --segment %d --total-segments %d", r->segment, r->segments);
        if (r->rv != DDB_RV_NONE)
            opt(out, "--return-values", ddb_rv_name(r->rv));
        if (r->rv_fail_all_old)
            opt(out, "--return-values-on-condition-check-failure", "ALL_OLD");
        legacy_members(&r->legacy, r->kind == DDB_QUERY, cli_member, out);
    }
    if (r->rcc != DDB_RCC_NONE)
        opt(out, "--return-consumed-capacity", r->rcc == DDB_RCC_TOTAL ? "TOTAL" : "INDEXES");
    if (r->icm)
        opt(out, "--return-item-collection-metrics", "SIZE");
}
