/*
 * store_remote — the store interface over a DynamoDB endpoint.
 *
 * A remote store has no SQLite file: each public store function starts by
 * handing a remote store to the function here of the same name, which
 * maps it to DynamoDB requests sent through the caller's transport
 * (store_send_fn: remote_call over HTTP, or a local store's store_call in
 * tests). data/store.h describes the mapping; this file keeps what a
 * remote store caches:
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
#include <time.h>

#include <cjson/cJSON.h>

#include "data/store_int.h"
#include "model/ddbreq.h"
#include "model/ddbjson.h"
#include "model/partiql.h"
#include "model/keyenc.h"
#include "model/mem.h"

typedef struct rtable {
    char *name;
    table_def def;
    cJSON *desc;             /* the TableDescription */
    struct rtable *next;
} rtable;

typedef struct rpart {
    av pk;
    uint64_t items;
    bool exact;              /* counted by a Query: the Scan adds nothing */
} rpart;

typedef struct rscan {
    char *table, *index;     /* index NULL: the base table */
    rpart *parts;
    size_t n, cap;
    size_t *slots;           /* hash of pk -> position + 1; 0: empty */
    size_t n_slots;
    char *start;             /* ExclusiveStartKey of the next page (JSON) */
    bool started, complete;
    long cur;                /* the partition of the last item scanned (-1: none):
                                its count may still grow with the next page */
    struct rscan *next;
} rscan;

struct store_remote {
    store_send_fn send;
    void *ctx;
    char *where;
    bool writable;
    store_gate_fn gate;
    void *gate_ctx;
    double rcu, wcu;
    bool reading;            /* the request under way is a read (PartiQL SELECTs) */
    uint64_t requests;
    size_t scan_limit;
    rtable *tables;
    rscan *scans;
    /* bulk load */
    bool bulk;
    char *batch_table;       /* table of the queued PutRequests */
    buf batch;               /* ",{"PutRequest":...}" each */
    size_t batch_n;
    char *approved;          /* table the gate allowed for this bulk load */
};

typedef struct store_remote store_remote;

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

static const cJSON *member(const cJSON *o, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(o, name);
}

static const char *jstring(const cJSON *o, const char *name)
{
    const cJSON *v = member(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double jnumber(const cJSON *o, const char *name, bool *has)
{
    const cJSON *v = member(o, name);
    if (has)
        *has = cJSON_IsNumber(v);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static void json_str(buf *b, const char *s)
{
    ddbjson_write_string(b, s, strlen(s));
}

static void add_one_capacity(store_remote *r, bool read, const cJSON *e)
{
    bool has_r, has_w, has_c;
    double rc = jnumber(e, "ReadCapacityUnits", &has_r);
    double wc = jnumber(e, "WriteCapacityUnits", &has_w);
    double cu = jnumber(e, "CapacityUnits", &has_c);
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
    const cJSON *cc = member(root, "ConsumedCapacity");
    bool read = is_read_op(op) || r->reading;
    if (cJSON_IsObject(cc)) {
        add_one_capacity(r, read, cc);
    } else if (cJSON_IsArray(cc)) {
        const cJSON *e;
        cJSON_ArrayForEach(e, cc) add_one_capacity(r, read, e);
    }
}

/*
 * Sends one request. On ST_OK the response is parsed (*resp, when asked
 * for; the caller deletes it) and kept as text (*raw, when asked for);
 * its consumed capacity is added up. On an error d holds what the
 * transport said and *raw the error's extra members, if any.
 */
static status rsend(store *s, const char *op, const char *body, size_t len, cJSON **resp,
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

static status rsend_buf(store *s, const char *op, const buf *b, cJSON **resp, diag *d)
{
    return rsend(s, op, b->data ? b->data : "{}", b->data ? b->len : 2, resp, NULL, d);
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
        av_free(&sc->parts[i].pk);
    free(sc->parts);
    free(sc->slots);
    free(sc->table);
    free(sc->index);
    free(sc->start);
    free(sc);
}

static void forget(store_remote *r, const char *table, bool descriptions)
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
    forget(r, NULL, true);
    free(r->where);
    free(r->batch_table);
    free(r->approved);
    buf_done(&r->batch);
    free(r);
}

/* The table's description, from the cache or DescribeTable. The rtable
 * stays the cache's, valid until the next refresh. */
static status table_get(store *s, const char *name, rtable **out, diag *d)
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
    json_str(&req, name);
    buf_addc(&req, '}');
    status st = rsend_buf(s, "DescribeTable", &req, &root, d);
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
static const index_def *find_index(const rtable *t, const char *index, diag *d, status *st)
{
    *st = ST_OK;
    if (!index)
        return NULL;
    const index_def *ix = table_def_index(&t->def, index);
    if (!ix)
        *st = diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
    return ix;
}

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
    if (item && !key && table_get(s, table, &t, &d) != ST_OK)
        return;
    buf_adds(out, ", key ");
    key_text(out, obj, t ? &t->def : NULL);
}

/* What a write request would do, for the gate: the operation, table and
 * key; for batches and transactions their first few actions. */
static void write_summary(store *s, const char *op, const cJSON *in, buf *out)
{
    const char *table = jstring(in, "TableName");
    if (strcmp(op, "TransactWriteItems") == 0) {
        const cJSON *items = member(in, "TransactItems");
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
            one_write(s, a->string, jstring(a, "TableName"), member(a, "Key"), member(a, "Item"), out);
        }
    } else if (strcmp(op, "BatchWriteItem") == 0) {
        const cJSON *ri = member(in, "RequestItems"), *t;
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
                one_write(s, put ? "Put" : "Delete", t->string, member(a, "Key"), member(a, "Item"), out);
            }
        }
    done:;
    } else if (table) {
        one_write(s, op, table, member(in, "Key"), member(in, "Item"), out);
    } else {
        buf_adds(out, op);
    }
    buf_printf(out, " (%s)", s->remote->where);
}

/* May this write be sent? ST_READ_ONLY when the store was not opened for
 * writing or the gate declines. */
static status may_write(store *s, const char *op, const cJSON *in, const char *what, diag *d)
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
        forget(s->remote, table, true);
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
    if (write && (st = may_write(s, op, in, NULL, d)) != ST_OK)
        goto out;
    s->remote->reading = !write;
    /* Every response should say what it consumed. */
    if (takes_capacity(op) && !member(in, "ReturnConsumedCapacity")) {
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
        st = rsend(s, op, body.data, body.len, NULL, out, d);
    } else {
        st = rsend(s, op, input, len, NULL, out, d);
    }
    if (st == ST_OK && write) {
        /* The partitions discovered may have changed. */
        forget(s->remote, NULL, strcmp(op, "CreateTable") == 0 || strcmp(op, "DeleteTable") == 0 ||
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
            json_str(&req, start);
        }
        buf_addc(&req, '}');
        st = rsend_buf(s, "ListTables", &req, &root, d);
        buf_done(&req);
        free(start);
        start = NULL;
        if (st != ST_OK)
            break;
        const cJSON *e;
        cJSON_ArrayForEach(e, member(root, "TableNames")) {
            if (!cJSON_IsString(e))
                continue;
            if (*n == cap) {
                cap = cap ? cap * 2 : 16;
                *names = xrealloc(*names, cap * sizeof **names);
            }
            (*names)[(*n)++] = xstrdup(e->valuestring);
        }
        const char *last = jstring(root, "LastEvaluatedTableName");
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
    status st = table_get(s, table, &t, d);
    if (st == ST_OK)
        table_def_copy(def, &t->def);
    return st;
}

static rscan *scan_find(store_remote *r, const char *table, const char *index)
{
    for (rscan *sc = r->scans; sc; sc = sc->next)
        if (strcmp(sc->table, table) == 0 &&
            ((!sc->index && !index) || (sc->index && index && strcmp(sc->index, index) == 0)))
            return sc;
    return NULL;
}

status store_remote_stats(store *s, const char *table, const char *index, table_stats *out,
                          diag *d)
{
    memset(out, 0, sizeof *out);
    rtable *t;
    status st = table_get(s, table, &t, d);
    if (st != ST_OK)
        return st;
    const cJSON *from = t->desc;
    const char *size_name = "TableSizeBytes";
    if (index) {
        find_index(t, index, d, &st);
        if (st != ST_OK)
            return st;
        from = NULL;
        const char *lists[2] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
        for (int i = 0; i < 2 && !from; i++) {
            const cJSON *e;
            cJSON_ArrayForEach(e, member(t->desc, lists[i])) {
                const char *nm = jstring(e, "IndexName");
                if (nm && strcmp(nm, index) == 0) {
                    from = e;
                    break;
                }
            }
        }
        size_name = "IndexSizeBytes";
    }
    if (from) {
        double items = jnumber(from, "ItemCount", NULL), bytes = jnumber(from, size_name, NULL);
        out->items = items > 0 ? (uint64_t)items : 0;
        out->bytes = bytes > 0 ? (uint64_t)bytes : 0;
    }
    rscan *sc = scan_find(s->remote, table, index);
    out->partitions = sc ? sc->n : 0;
    out->approximate = true;
    return ST_OK;
}

/* ---- partitions, discovered by Scan ---- */

static uint64_t pk_hash(const av *pk)
{
    buf b = BUF_INIT;
    keyenc_append(&b, pk);
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < b.len; i++) {
        h ^= (unsigned char)b.data[i];
        h *= 1099511628211ULL;
    }
    buf_done(&b);
    return h;
}

static long part_find(const rscan *sc, const av *pk)
{
    if (!sc->n_slots)
        return -1;
    size_t mask = sc->n_slots - 1;
    for (size_t j = pk_hash(pk) & mask; sc->slots[j]; j = (j + 1) & mask)
        if (av_equal(&sc->parts[sc->slots[j] - 1].pk, pk))
            return (long)(sc->slots[j] - 1);
    return -1;
}

static void slot_put(rscan *sc, size_t pos)
{
    size_t mask = sc->n_slots - 1;
    size_t j = pk_hash(&sc->parts[pos].pk) & mask;
    while (sc->slots[j])
        j = (j + 1) & mask;
    sc->slots[j] = pos + 1;
}

static size_t part_append(rscan *sc, const av *pk, uint64_t items, bool exact)
{
    if (sc->n == sc->cap) {
        sc->cap = sc->cap ? sc->cap * 2 : 64;
        sc->parts = xrealloc(sc->parts, sc->cap * sizeof *sc->parts);
    }
    rpart *p = &sc->parts[sc->n];
    av_copy(&p->pk, pk);
    p->items = items;
    p->exact = exact;
    sc->n++;
    if (sc->n * 2 > sc->n_slots) {
        free(sc->slots);
        sc->n_slots = sc->n_slots ? sc->n_slots * 2 : 128;
        sc->slots = xcalloc(sc->n_slots, sizeof *sc->slots);
        for (size_t i = 0; i < sc->n; i++)
            slot_put(sc, i);
    } else {
        slot_put(sc, sc->n - 1);
    }
    return sc->n - 1;
}

/* The scan state of a table or index, with its definition checked. */
static status scan_get(store *s, const char *table, const char *index, rscan **out,
                       const char **pk_name, diag *d)
{
    rtable *t;
    status st = table_get(s, table, &t, d);
    if (st != ST_OK)
        return st;
    const index_def *ix = find_index(t, index, d, &st);
    if (st != ST_OK)
        return st;
    *pk_name = ix ? ix->pk.name : t->def.pk.name;
    rscan *sc = scan_find(s->remote, table, index);
    if (!sc) {
        sc = xcalloc(1, sizeof *sc);
        sc->table = xstrdup(table);
        sc->index = index ? xstrdup(index) : NULL;
        sc->cur = -1;
        sc->next = s->remote->scans;
        s->remote->scans = sc;
    }
    *out = sc;
    return ST_OK;
}

/* One more Scan page: its items' partition keys join the partitions. */
static status scan_more(store *s, rscan *sc, const char *pk_name, diag *d)
{
    assert(!sc->complete);
    buf req = BUF_INIT;
    cJSON *root = NULL;
    buf_adds(&req, "{\"TableName\":");
    json_str(&req, sc->table);
    if (sc->index) {
        buf_adds(&req, ",\"IndexName\":");
        json_str(&req, sc->index);
    }
    buf_adds(&req, ",\"ProjectionExpression\":\"#k\",\"ExpressionAttributeNames\":{\"#k\":");
    json_str(&req, pk_name);
    buf_adds(&req, "},\"ReturnConsumedCapacity\":\"TOTAL\"");
    if (s->remote->scan_limit)
        buf_printf(&req, ",\"Limit\":%zu", s->remote->scan_limit);
    if (sc->start) {
        buf_adds(&req, ",\"ExclusiveStartKey\":");
        buf_adds(&req, sc->start);
    }
    buf_addc(&req, '}');
    status st = rsend_buf(s, "Scan", &req, &root, d);
    buf_done(&req);
    if (st != ST_OK)
        return st;
    const cJSON *e;
    cJSON_ArrayForEach(e, member(root, "Items")) {
        const cJSON *v = member(e, pk_name);
        av pk;
        if (!v || ddbjson_value_from_cjson(v, pk_name, &pk, d) != ST_OK)
            continue;   /* not in this view (cannot happen in a key Scan) */
        long at = part_find(sc, &pk);
        if (at < 0)
            at = (long)part_append(sc, &pk, 1, false);
        else if (!sc->parts[at].exact)
            sc->parts[at].items++;
        sc->cur = at;
        av_free(&pk);
    }
    const cJSON *lek = member(root, "LastEvaluatedKey");
    free(sc->start);
    sc->start = NULL;
    if (cJSON_IsObject(lek) && lek->child)
        sc->start = cJSON_PrintUnformatted(lek);
    else
        sc->complete = true;
    sc->started = true;
    cJSON_Delete(root);
    return ST_OK;
}

/* Scans until partitions [from, end) are known with their final counts
 * (the Scan has moved past them: a partition's items come together) or
 * the Scan is done. from == end: until the first page is in. */
static status scan_until(store *s, rscan *sc, const char *pk_name, size_t from, size_t end,
                         diag *d)
{
    status st = ST_OK;
    while (st == ST_OK && !sc->complete) {
        bool growing = sc->cur >= 0 && (size_t)sc->cur >= from && (size_t)sc->cur < end &&
                       !sc->parts[sc->cur].exact;
        if (sc->started && sc->n >= end && !growing)
            break;
        st = scan_more(s, sc, pk_name, d);
    }
    return st;
}

static void key_condition(buf *req, const rscan *sc, const char *pk_name, const av *pk)
{
    buf_adds(req, "{\"TableName\":");
    json_str(req, sc->table);
    if (sc->index) {
        buf_adds(req, ",\"IndexName\":");
        json_str(req, sc->index);
    }
    buf_adds(req, ",\"KeyConditionExpression\":\"#k = :v\",\"ExpressionAttributeNames\":{\"#k\":");
    json_str(req, pk_name);
    buf_adds(req, "},\"ExpressionAttributeValues\":{\":v\":");
    ddbjson_write_value(req, pk);
    buf_adds(req, "},\"ReturnConsumedCapacity\":\"TOTAL\"");
}

/* Where partition pk is in the discovery order; -1 when the table has no
 * such partition. One the Scan has not reached is counted by a Query and
 * appended, rather than scanning on to it. */
static status part_locate(store *s, rscan *sc, const char *pk_name, const av *pk, long *pos,
                          diag *d)
{
    status st = scan_until(s, sc, pk_name, 0, 0, d);
    if (st != ST_OK)
        return st;
    *pos = part_find(sc, pk);
    if (*pos >= 0 || sc->complete)
        return ST_OK;
    uint64_t count = 0;
    char *start = NULL;
    do {
        buf req = BUF_INIT;
        cJSON *root = NULL;
        key_condition(&req, sc, pk_name, pk);
        buf_adds(&req, ",\"Select\":\"COUNT\"");
        if (start) {
            buf_adds(&req, ",\"ExclusiveStartKey\":");
            buf_adds(&req, start);
        }
        buf_addc(&req, '}');
        st = rsend_buf(s, "Query", &req, &root, d);
        buf_done(&req);
        free(start);
        start = NULL;
        if (st != ST_OK)
            return st;
        double c = jnumber(root, "Count", NULL);
        count += c > 0 ? (uint64_t)c : 0;
        const cJSON *lek = member(root, "LastEvaluatedKey");
        if (cJSON_IsObject(lek) && lek->child)
            start = cJSON_PrintUnformatted(lek);
        cJSON_Delete(root);
    } while (start);
    if (count)
        *pos = (long)part_append(sc, pk, count, true);
    return ST_OK;
}

static void part_out(const rpart *p, part_info *out)
{
    av_copy(&out->pk, &p->pk);
    out->items = p->items;
    out->bytes = 0;
}

status store_remote_partitions(store *s, const char *table, const char *index, const av *after,
                               bool backward, size_t max, part_info *out, size_t *n, diag *d)
{
    *n = 0;
    rscan *sc;
    const char *pk_name;
    status st = scan_get(s, table, index, &sc, &pk_name, d);
    if (st != ST_OK)
        return st;
    long pos = -1;
    if (after) {
        if ((st = part_locate(s, sc, pk_name, after, &pos, d)) != ST_OK)
            return st;
        if (pos < 0)
            return ST_OK;
    } else if ((st = scan_until(s, sc, pk_name, 0, 0, d)) != ST_OK) {
        return st;
    }
    if (backward) {
        size_t end = after ? (size_t)pos : sc->n;
        if ((st = scan_until(s, sc, pk_name, end > max ? end - max : 0, end, d)) != ST_OK)
            return st;
        while (*n < max && end > 0)
            part_out(&sc->parts[--end], &out[(*n)++]);
        return ST_OK;
    }
    size_t from = after ? (size_t)pos + 1 : 0;
    if ((st = scan_until(s, sc, pk_name, from, from + max, d)) != ST_OK)
        return st;
    for (size_t i = from; i < sc->n && *n < max; i++)
        part_out(&sc->parts[i], &out[(*n)++]);
    return ST_OK;
}

static const rscan *sort_scan;

static int by_items(const void *a, const void *b)
{
    const rpart *x = &sort_scan->parts[*(const size_t *)a], *y = &sort_scan->parts[*(const size_t *)b];
    if (x->items != y->items)
        return x->items > y->items ? -1 : 1;
    /* Ties in discovery order, so the ranking is stable. */
    return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

status store_remote_partitions_by_size(store *s, const char *table, const char *index,
                                       size_t max, part_info *out, size_t *n, diag *d)
{
    *n = 0;
    rscan *sc;
    const char *pk_name;
    status st = scan_get(s, table, index, &sc, &pk_name, d);
    if (st == ST_OK)
        st = scan_until(s, sc, pk_name, 0, 0, d);
    if (st != ST_OK || !sc->n)
        return st;
    size_t *order = xmalloc(sc->n * sizeof *order);
    for (size_t i = 0; i < sc->n; i++)
        order[i] = i;
    sort_scan = sc;
    qsort(order, sc->n, sizeof *order, by_items);
    sort_scan = NULL;
    for (size_t i = 0; i < sc->n && *n < max; i++)
        part_out(&sc->parts[order[i]], &out[(*n)++]);
    free(order);
    return ST_OK;
}

status store_scan_state(store *s, const char *table, const char *index, uint64_t *known,
                        bool *complete, diag *d)
{
    *known = 0;
    *complete = false;
    if (!s->remote) {
        table_stats ts;
        status st = store_stats(s, table, index, &ts, d);
        if (st == ST_OK) {
            *known = ts.partitions;
            *complete = true;
        }
        return st;
    }
    /* What is known, without asking the endpoint (titles call this). */
    rscan *sc = scan_find(s->remote, table, index);
    if (sc) {
        *known = sc->n;
        *complete = sc->complete;
    }
    return ST_OK;
}

/* ---- pages of one partition: Query ---- */

status store_remote_page(store *s, const char *table, const char *index, const av *pk,
                         const av *after, bool forward, size_t max, av *items, size_t *n,
                         diag *d)
{
    *n = 0;
    rscan *sc;
    const char *pk_name;
    status st = scan_get(s, table, index, &sc, &pk_name, d);
    if (st != ST_OK || max == 0)
        return st;
    rtable *t;
    if ((st = table_get(s, table, &t, d)) != ST_OK)
        return st;
    const index_def *ix = find_index(t, index, d, &st);
    char *start = NULL;
    if (after) {
        /* The position of an item: its table key, plus its index key. */
        const char *names[4] = { t->def.pk.name, t->def.sk.name, ix ? ix->pk.name : NULL,
                                 ix ? ix->sk.name : NULL };
        buf k = BUF_INIT;
        buf_addc(&k, '{');
        for (int i = 0; i < 4; i++) {
            bool dup = false;
            for (int j = 0; j < i; j++)
                dup |= names[i] && names[j] && strcmp(names[i], names[j]) == 0;
            const av *v = names[i] && !dup ? av_map_get(after, names[i], strlen(names[i])) : NULL;
            if (!v)
                continue;
            if (k.len > 1)
                buf_addc(&k, ',');
            json_str(&k, names[i]);
            buf_addc(&k, ':');
            ddbjson_write_value(&k, v);
        }
        buf_addc(&k, '}');
        start = buf_steal(&k);
    }
    do {
        buf req = BUF_INIT;
        cJSON *root = NULL;
        key_condition(&req, sc, pk_name, pk);
        buf_printf(&req, ",\"ScanIndexForward\":%s,\"Limit\":%zu", forward ? "true" : "false",
                   max - *n);
        if (start) {
            buf_adds(&req, ",\"ExclusiveStartKey\":");
            buf_adds(&req, start);
        }
        buf_addc(&req, '}');
        st = rsend_buf(s, "Query", &req, &root, d);
        buf_done(&req);
        free(start);
        start = NULL;
        if (st != ST_OK)
            break;
        const cJSON *e;
        cJSON_ArrayForEach(e, member(root, "Items")) {
            if (*n == max)
                break;
            if ((st = ddbjson_item_from_cjson(e, NULL, &items[*n], d)) != ST_OK)
                break;
            (*n)++;
        }
        const cJSON *lek = member(root, "LastEvaluatedKey");
        if (st == ST_OK && *n < max && cJSON_IsObject(lek) && lek->child)
            start = cJSON_PrintUnformatted(lek);
        cJSON_Delete(root);
    } while (st == ST_OK && start);
    free(start);
    if (st != ST_OK) {
        for (size_t i = 0; i < *n; i++)
            av_free(&items[i]);
        *n = 0;
    }
    return st;
}

/* ---- writes: tables and bulk loads ---- */

static void pause_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    nanosleep(&ts, NULL);
}

static status flush_batch(store *s, diag *d)
{
    store_remote *r = s->remote;
    if (!r->batch_n)
        return ST_OK;
    buf req = BUF_INIT;
    buf_adds(&req, "{\"RequestItems\":{");
    json_str(&req, r->batch_table);
    buf_adds(&req, ":[");
    buf_add(&req, r->batch.data + 1, r->batch.len - 1);   /* without the first comma */
    buf_adds(&req, "]},\"ReturnConsumedCapacity\":\"TOTAL\"}");
    buf_reset(&r->batch);
    r->batch_n = 0;
    status st = ST_OK;
    /* Unprocessed items go again, after a growing pause. */
    for (int attempt = 0;; attempt++) {
        cJSON *root = NULL;
        st = rsend_buf(s, "BatchWriteItem", &req, &root, d);
        if (st != ST_OK)
            break;
        const cJSON *un = member(root, "UnprocessedItems");
        if (!cJSON_IsObject(un) || !un->child) {
            cJSON_Delete(root);
            break;
        }
        if (attempt == 8) {
            cJSON_Delete(root);
            st = diag_set(d, ST_INTERNAL, "BatchWriteItem: items still unprocessed after %d attempts",
                          attempt + 1);
            break;
        }
        char *text = cJSON_PrintUnformatted(un);
        buf_reset(&req);
        buf_adds(&req, "{\"RequestItems\":");
        buf_adds(&req, text);
        buf_adds(&req, ",\"ReturnConsumedCapacity\":\"TOTAL\"}");
        free(text);
        cJSON_Delete(root);
        pause_ms(50L << attempt);
    }
    buf_done(&req);
    forget(r, r->batch_table, false);
    return st;
}

status store_remote_begin(store *s, diag *d)
{
    if (s->remote->bulk)
        return diag_set(d, ST_USAGE, "a transaction is already open");
    s->remote->bulk = true;
    return ST_OK;
}

status store_remote_put_item(store *s, const char *table, const av *item, diag *d)
{
    store_remote *r = s->remote;
    status st = ST_OK;
    if (!r->approved || strcmp(r->approved, table) != 0) {
        buf what = BUF_INIT;
        buf_printf(&what, "%s into %s (%s)", r->bulk ? "BatchWriteItem: load items" : "PutItem",
                   table, r->where);
        st = may_write(s, r->bulk ? "BatchWriteItem" : "PutItem", NULL, what.data, d);
        buf_done(&what);
        if (st != ST_OK)
            return st;
        if (r->bulk) {
            free(r->approved);
            r->approved = xstrdup(table);
        }
    }
    if (!r->bulk) {
        buf req = BUF_INIT;
        buf_adds(&req, "{\"TableName\":");
        json_str(&req, table);
        buf_adds(&req, ",\"Item\":");
        ddbjson_write_item(&req, item);
        buf_adds(&req, ",\"ReturnConsumedCapacity\":\"TOTAL\"}");
        st = rsend_buf(s, "PutItem", &req, NULL, d);
        buf_done(&req);
        forget(r, table, false);
        return st;
    }
    if (r->batch_table && strcmp(r->batch_table, table) != 0 && (st = flush_batch(s, d)) != ST_OK)
        return st;
    if (!r->batch_table || strcmp(r->batch_table, table) != 0) {
        free(r->batch_table);
        r->batch_table = xstrdup(table);
    }
    buf_adds(&r->batch, ",{\"PutRequest\":{\"Item\":");
    ddbjson_write_item(&r->batch, item);
    buf_adds(&r->batch, "}}");
    if (++r->batch_n == 25)
        st = flush_batch(s, d);
    return st;
}

static void bulk_end(store_remote *r)
{
    r->bulk = false;
    buf_reset(&r->batch);
    r->batch_n = 0;
    free(r->approved);
    r->approved = NULL;
}

status store_remote_commit(store *s, diag *d)
{
    if (!s->remote->bulk)
        return diag_set(d, ST_USAGE, "no transaction is open");
    status st = flush_batch(s, d);
    bulk_end(s->remote);
    return st;
}

void store_remote_rollback(store *s)
{
    bulk_end(s->remote);
}

/* Waits until the table is ACTIVE (created) or gone (deleted), as a new
 * DynamoDB table takes a while; dynalite and DynamoDB Local are quick. */
static status wait_table(store *s, const char *table, bool gone, diag *d)
{
    for (int i = 0; i < 600; i++) {
        buf req = BUF_INIT;
        cJSON *root = NULL;
        diag dd;
        diag_init(&dd);
        buf_adds(&req, "{\"TableName\":");
        json_str(&req, table);
        buf_addc(&req, '}');
        status st = rsend_buf(s, "DescribeTable", &req, &root, &dd);
        buf_done(&req);
        if (gone && st == ST_NOT_FOUND)
            return ST_OK;
        if (st != ST_OK) {
            *d = dd;
            return st;
        }
        const char *ts = jstring(member(root, "Table"), "TableStatus");
        bool active = ts && strcmp(ts, "ACTIVE") == 0;
        cJSON_Delete(root);
        if (!gone && active)
            return ST_OK;
        pause_ms(200);
    }
    return diag_set(d, ST_INTERNAL, "table %s did not become %s in two minutes", table,
                    gone ? "deleted" : "ACTIVE");
}

status store_remote_send_json(store *s, const char *op, const cJSON *in, diag *d)
{
    const char *table = jstring(in, "TableName");
    status st = flush_batch(s, d);
    if (st != ST_OK)
        return st;
    buf what = BUF_INIT;
    buf_printf(&what, "%s %s (%s)", op, table ? table : "?", s->remote->where);
    st = may_write(s, op, in, what.data, d);
    buf_done(&what);
    if (st != ST_OK)
        return st;
    char *text = cJSON_PrintUnformatted(in);
    st = rsend(s, op, text, strlen(text), NULL, NULL, d);
    free(text);
    if (table)
        forget(s->remote, table, true);
    if (st == ST_OK && table)
        st = wait_table(s, table, strcmp(op, "DeleteTable") == 0, d);
    return st;
}
