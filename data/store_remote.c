/*
 * store_remote — the store interface over a DynamoDB endpoint.
 *
 * A remote store has no SQLite file: each public store function starts by
 * handing a remote store to the function here of the same name, which
 * maps it to DynamoDB requests sent through the caller's transport
 * (store_send_fn: remote_call over HTTP, or a local store's store_call in
 * tests). data/store.h describes the mapping. This file holds the
 * transport (sending, capacity), the caches, the write gate, opening, the
 * API passed through and the table list; store_remote_browse.c the
 * partitions and pages, store_remote_write.c the bulk loads and table
 * writes; they share store_remote_int.h. What a remote store caches:
 * - table descriptions (DescribeTable), until store_refresh;
 * - per table or index, the partitions a Scan has discovered so far, in
 *   arrival order (append-only), their item counts, and where the Scan
 *   goes on (LastEvaluatedKey);
 * - the capacity units consumed, summed from every response;
 * - the queue of a bulk load (BatchWriteItem of 25).
 * Request bodies are built as text with the model's JSON writers;
 * responses are parsed with cJSON and copied into avs at once.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "data/store_remote_int.h"
#include "model/ddbreq.h"
#include "model/ddbjson.h"
#include "model/partiql.h"
#include "model/mem.h"

/* ---- small helpers ---- */

/* Reads by model/ddbreq.h's table of operations. Everything not known to
 * be a read counts as a write: an operation the table does not know is
 * refused rather than sent by mistake. */
static bool is_read_op(const char *op)
{
    char k = ddb_op_kind_of(op);
    return k == 'r' || k == 'd' || k == 's';
}

/* A PartiQL request is a read when every statement is a SELECT. */
static bool is_read_request(const char *op, const cJSON *in)
{
    if (is_read_op(op))
        return true;
    const cJSON *one = cJSON_GetObjectItemCaseSensitive(in, "Statement");
    if (strcmp(op, "ExecuteStatement") == 0)
        return cJSON_IsString(one) && pq_is_read_text(one->valuestring, strlen(one->valuestring));
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(
        in, strcmp(op, "BatchExecuteStatement") == 0 ? "Statements"
            : strcmp(op, "ExecuteTransaction") == 0 ? "TransactStatements" : "");
    if (!cJSON_IsArray(list) || !list->child)
        return false;
    const cJSON *e;
    cJSON_ArrayForEach(e, list) {
        one = cJSON_GetObjectItemCaseSensitive(e, "Statement");
        if (!cJSON_IsString(one) || !pq_is_read_text(one->valuestring, strlen(one->valuestring)))
            return false;
    }
    return true;
}

static bool takes_capacity(const char *op)
{
    char k = ddb_op_kind_of(op);
    return k == 'r' || k == 'w' || k == 'p';
}

const cJSON *srem_member(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

const char *srem_jstring(const cJSON *o, const char *name)
{
    const cJSON *v = srem_member(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

double srem_jnumber(const cJSON *o, const char *name, bool *has)
{
    const cJSON *v = srem_member(o, name);
    if (has)
        *has = cJSON_IsNumber(v);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

void srem_json_str(buf *b, const char *s)
{
    ddbjson_write_string(b, s, strlen(s));
}

static void add_one_capacity(store_remote *r, bool read, const cJSON *e)
{
    bool has_r, has_w, has_c;
    double rc = srem_jnumber(e, "ReadCapacityUnits", &has_r);
    double wc = srem_jnumber(e, "WriteCapacityUnits", &has_w);
    double cu = srem_jnumber(e, "CapacityUnits", &has_c);
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

static void add_capacity(store_remote *r, const char *op, const cJSON *root)
{
    const cJSON *cc = srem_member(root, "ConsumedCapacity");
    bool read = is_read_op(op) || r->reading;
    if (cJSON_IsObject(cc)) {
        add_one_capacity(r, read, cc);
    } else if (cJSON_IsArray(cc)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cc) add_one_capacity(r, read, e);
    }
}

status srem_send(store *s, const char *op, const char *body, size_t len, cJSON **resp,
                 char **raw, diag *d)
{
    store_remote *r = s->remote;
    char *out = NULL;
    cJSON *root = NULL;
    if (resp)
        *resp = NULL;
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
    if (!out || ddbjson_cjson_parse(out, strlen(out), &root, &pd) != ST_OK || !cJSON_IsObject(root)) {
        free(out);
        cJSON_Delete(root);
        return diag_set(d, ST_INTERNAL, "%s: the endpoint's answer is not a JSON object", op);
    }
    add_capacity(r, op, root);
    if (raw)
        *raw = out;
    else
        free(out);
    if (resp)
        *resp = root;
    else
        cJSON_Delete(root);
    return ST_OK;
}

status srem_send_buf(store *s, const char *op, const buf *b, cJSON **resp, diag *d)
{
    return srem_send(s, op, b->data ? b->data : "{}", b->data ? b->len : 2, resp, NULL, d);
}

/* ---- caches ---- */

static void rtable_free(rtable *t)
{
    free(t->name);
    table_def_free(&t->def);
    cJSON_Delete(t->desc);
    free(t);
}

static void rscan_free(rscan *sc)
{
    for (size_t i = 0; i < sc->n; i++)
        av_done(&sc->parts[i].pk);
    free(sc->parts);
    free(sc->slots);
    free(sc->table);
    free(sc->index);
    free(sc->start);
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
    free(r->batch_table);
    free(r->approved);
    buf_done(&r->batch);
    free(r);
}

/* The table's description, from the cache or DescribeTable. The rtable
 * stays the cache's, valid until the next refresh. */
status srem_table_get(store *s, const char *name, rtable **out, diag *d)
{
    store_remote *r = s->remote;
    for (rtable *t = r->tables; t; t = t->next)
        if (strcmp(t->name, name) == 0) {
            *out = t;
            return ST_OK;
        }
    buf req = BUF_INIT;
    cJSON *root = NULL;
    buf_adds(&req, "{\"TableName\":");
    srem_json_str(&req, name);
    buf_addc(&req, '}');
    status st = srem_send_buf(s, "DescribeTable", &req, &root, d);
    buf_done(&req);
    if (st != ST_OK)
        return st;
    cJSON *desc = cJSON_DetachItemFromObjectCaseSensitive(root, "Table");
    cJSON_Delete(root);
    if (!cJSON_IsObject(desc)) {
        cJSON_Delete(desc);
        return diag_set(d, ST_INTERNAL, "DescribeTable %s: the answer has no Table", name);
    }
    char *text = cJSON_PrintUnformatted(desc);
    rtable *t = xcalloc(1, sizeof *t);
    st = store_def_from_desc(text, &t->def, d);
    free(text);
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

/* The key attributes of the table (ix NULL) or of an index. */
/* ---- the write gate ---- */

/* "PK=ACTOR#alice, SK=PROFILE" from a Key or Item object, keys only when
 * def is known (an Item carries more than its key). */
static void key_text(buf *out, const cJSON *obj, const table_def *def)
{
    const char *names[2] = { def ? def->pk.name : NULL, def ? def->sk.name : NULL };
    const cJSON *m;
    bool first = true;
    cJSON_ArrayForEach(m, obj) {
        if (def && !((names[0] && strcmp(m->string, names[0]) == 0) ||
                     (names[1] && strcmp(m->string, names[1]) == 0)))
            continue;
        const cJSON *v = m->child;
        buf_printf(out, "%s%s=", first ? "" : ", ", m->string);
        first = false;
        if (v && cJSON_IsString(v) && strcmp(v->string, "B") != 0)
            buf_adds(out, v->valuestring);
        else
            buf_adds(out, "(binary)");
    }
}

static void one_write(store *s, const char *what, const char *table, const cJSON *key,
                      const cJSON *item, buf *out)
{
    buf_printf(out, "%s on %s", what, table ? table : "?");
    const cJSON *obj = key ? key : item;
    if (!cJSON_IsObject(obj) || !table)
        return;
    rtable *t = NULL;
    diag d;
    diag_init(&d);
    if (item && !key && srem_table_get(s, table, &t, &d) != ST_OK)
        return;
    buf_adds(out, ", key ");
    key_text(out, obj, t ? &t->def : NULL);
}

/* What a write request would do, for the gate: the operation, table and
 * key; for batches and transactions their first few actions. */
static void write_summary(store *s, const char *op, const cJSON *in, buf *out)
{
    const char *table = srem_jstring(in, "TableName");
    if (strcmp(op, "TransactWriteItems") == 0) {
        const cJSON *items = srem_member(in, "TransactItems");
        int n = cJSON_GetArraySize(items), k = 0;
        buf_printf(out, "TransactWriteItems of %d action%s: ", n, n == 1 ? "" : "s");
        const cJSON *e;
        cJSON_ArrayForEach(e, items) {
            const cJSON *a = e->child;
            if (!a || !a->string)
                continue;
            if (k++ == 3) {
                buf_adds(out, "; ...");
                break;
            }
            if (k > 1)
                buf_adds(out, "; ");
            one_write(s, a->string, srem_jstring(a, "TableName"), srem_member(a, "Key"), srem_member(a, "Item"), out);
        }
    } else if (strcmp(op, "BatchWriteItem") == 0) {
        const cJSON *ri = srem_member(in, "RequestItems"), *t;
        int k = 0;
        buf_adds(out, "BatchWriteItem: ");
        cJSON_ArrayForEach(t, ri) {
            const cJSON *e;
            cJSON_ArrayForEach(e, t) {
                const cJSON *a = e->child;
                if (!a || !a->string)
                    continue;
                if (k++ == 3) {
                    buf_adds(out, "; ...");
                    goto done;
                }
                if (k > 1)
                    buf_adds(out, "; ");
                bool put = strcmp(a->string, "PutRequest") == 0;
                one_write(s, put ? "Put" : "Delete", t->string, srem_member(a, "Key"), srem_member(a, "Item"), out);
            }
        }
    done:;
    } else if (table) {
        one_write(s, op, table, srem_member(in, "Key"), srem_member(in, "Item"), out);
    } else {
        buf_adds(out, op);
    }
    buf_printf(out, " (%s)", s->remote->where);
}

/* May this write be sent? ST_READ_ONLY when the store was not opened for
 * writing or the gate declines. */
status srem_may_write(store *s, const char *op, const cJSON *in, const char *what, diag *d)
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
    else
        write_summary(s, op, in, &sum);
    if (!r->gate(r->gate_ctx, sum.data))
        st = diag_set(d, ST_READ_ONLY, "declined, not sent: %s", sum.data);
    buf_done(&sum);
    return st;
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
    buf_init(&r->batch);
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

void store_set_scan_limit(store *s, size_t items)
{
    if (s->remote)
        s->remote->scan_limit = items;
}

/* ---- the DynamoDB API, passed through ---- */

status store_remote_call(store *s, const char *op, const char *input, size_t len, char **out,
                         diag *d)
{
    *out = NULL;
    buf_reset(&s->err_msg);
    cJSON *in = NULL;
    buf body = BUF_INIT;
    diag pd;
    diag_init(&pd);
    if (ddbjson_cjson_parse(input, len, &in, &pd) != ST_OK)
        return diag_set(d, ST_SERIALIZATION, "%s", pd.msg);
    status st = ST_OK;
    if (!cJSON_IsObject(in)) {
        st = diag_set(d, ST_SERIALIZATION, "Start of list found where not expected");
        goto out;
    }
    bool write = !is_read_request(op, in);
    if (write && (st = srem_may_write(s, op, in, NULL, d)) != ST_OK)
        goto out;
    s->remote->reading = !write;
    /* Every response should say what it consumed. */
    if (takes_capacity(op) && !srem_member(in, "ReturnConsumedCapacity")) {
        const char *p = memchr(input, '{', len);
        assert(p);   /* it parsed as an object */
        size_t at = (size_t)(p - input) + 1, k = at;
        while (k < len && (input[k] == ' ' || input[k] == '\t' || input[k] == '\n' || input[k] == '\r'))
            k++;
        buf_add(&body, input, at);
        buf_adds(&body, "\"ReturnConsumedCapacity\":\"TOTAL\"");
        if (k < len && input[k] != '}')
            buf_addc(&body, ',');
        buf_add(&body, input + at, len - at);
        st = srem_send(s, op, body.data, body.len, NULL, out, d);
    } else {
        st = srem_send(s, op, input, len, NULL, out, d);
    }
    if (st == ST_OK && write) {
        /* The partitions discovered may have changed. */
        srem_forget(s->remote, NULL, strcmp(op, "CreateTable") == 0 || strcmp(op, "DeleteTable") == 0 ||
                                    strcmp(op, "UpdateTable") == 0);
    }
out:
    s->remote->reading = false;
    buf_done(&body);
    cJSON_Delete(in);
    return st;
}

static status line_call(void *ctx, const char *op, const char *input, size_t len, char **out,
                        diag *d)
{
    return store_remote_call(ctx, op, input, len, out, d);
}

status store_remote_call_line(store *s, const char *line, size_t len, char **out)
{
    return store_send_line(line_call, s, NULL, line, len, out);
}

/* ---- tables ---- */

status store_remote_list_tables(store *s, char ***names, size_t *n, diag *d)
{
    *names = NULL;
    *n = 0;
    size_t cap = 0;
    char *start = NULL;
    status st = ST_OK;
    do {
        buf req = BUF_INIT;
        cJSON *root = NULL;
        buf_addc(&req, '{');
        if (start) {
            buf_adds(&req, "\"ExclusiveStartTableName\":");
            srem_json_str(&req, start);
        }
        buf_addc(&req, '}');
        st = srem_send_buf(s, "ListTables", &req, &root, d);
        buf_done(&req);
        free(start);
        start = NULL;
        if (st != ST_OK)
            break;
        const cJSON *e;
        cJSON_ArrayForEach(e, srem_member(root, "TableNames")) {
            if (!cJSON_IsString(e))
                continue;
            if (*n == cap) {
                cap = cap ? cap * 2 : 16;
                *names = xrealloc(*names, cap * sizeof **names);
            }
            (*names)[(*n)++] = xstrdup(e->valuestring);
        }
        const char *last = srem_jstring(root, "LastEvaluatedTableName");
        if (last)
            start = xstrdup(last);
        cJSON_Delete(root);
    } while (start);
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
