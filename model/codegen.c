/*
 * codegen — a request as SDK code (see codegen.h).
 *
 * The request is first turned into a small tree of members (objects,
 * strings, numbers, enums, attribute-value maps, lists, maps of lists),
 * in ddb_req_json's order; each language then prints the tree. Go needs
 * the type of every composite literal, so each node carries it.
 */
#include "model/codegen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/base64.h"
#include "model/ddbjson.h"
#include "model/mem.h"

typedef enum {
    N_OBJ,    /* members; go: the struct type (ptr: &T{...}) */
    N_STR,    /* s */
    N_INT,    /* n */
    N_BOOL,   /* n != 0 */
    N_ENUM,   /* s: the API's value; go: the Go constant */
    N_ITEM,   /* v: an M of attribute values */
    N_NAMES,  /* v: an M of S (ExpressionAttributeNames) */
    N_LIST,   /* kids; go: the element type */
    N_TMAP,   /* kids named by table; go: the map's type */
} nkind;

typedef struct node node;
struct node {
    nkind kind;
    const char *name;     /* member name or map key; NULL in a list */
    const char *go;
    bool ptr;
    const char *s;
    long long n;
    const av *v;
    node *kids;
    size_t n_kids;
};

/* ---- the tree ----------------------------------------------------------- */

static node *add(node *parent, nkind kind, const char *name)
{
    parent->kids = xrealloc(parent->kids, (parent->n_kids + 1) * sizeof *parent->kids);
    node *k = &parent->kids[parent->n_kids++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->name = name;
    return k;
}

static void node_free(node *n)
{
    for (size_t i = 0; i < n->n_kids; i++)
        node_free(&n->kids[i]);
    free(n->kids);
}

static void add_str(node *o, const char *name, const char *s)
{
    if (s)
        add(o, N_STR, name)->s = s;
}

static void add_int(node *o, const char *name, long long v)
{
    add(o, N_INT, name)->n = v;
}

static void add_bool(node *o, const char *name, bool v)
{
    add(o, N_BOOL, name)->n = v;
}

static void add_enum(node *o, const char *name, const char *value, const char *go)
{
    node *e = add(o, N_ENUM, name);
    e->s = value;
    e->go = go;
}

static void add_item(node *o, const char *name, const av *v)
{
    if (v->type == AV_M)
        add(o, N_ITEM, name)->v = v;
}

static const char *const rv_go[] = {
    [DDB_RV_NONE] = "types.ReturnValueNone", [DDB_RV_ALL_OLD] = "types.ReturnValueAllOld",
    [DDB_RV_UPDATED_OLD] = "types.ReturnValueUpdatedOld",
    [DDB_RV_ALL_NEW] = "types.ReturnValueAllNew", [DDB_RV_UPDATED_NEW] = "types.ReturnValueUpdatedNew",
};

static const char *const select_go[] = {
    [DDB_SELECT_ALL] = "types.SelectAllAttributes",
    [DDB_SELECT_PROJECTED] = "types.SelectAllProjectedAttributes",
    [DDB_SELECT_SPECIFIC] = "types.SelectSpecificAttributes", [DDB_SELECT_COUNT] = "types.SelectCount",
};

/* The members of one table's request (or of a transaction's action), as
 * ddb_req_json orders them. */
static void add_body(node *o, const ddb_req *r)
{
    add_str(o, "TableName", r->table);
    add_str(o, "IndexName", r->index);
    add_item(o, "Item", &r->item);
    add_item(o, "Key", &r->key);
    add_str(o, "KeyConditionExpression", r->keycond);
    add_str(o, "UpdateExpression", r->update);
    add_str(o, "FilterExpression", r->filter);
    add_str(o, "ConditionExpression", r->cond);
    add_str(o, "ProjectionExpression", r->proj);
    if (r->names.type == AV_M)
        add(o, N_NAMES, "ExpressionAttributeNames")->v = &r->names;
    add_item(o, "ExpressionAttributeValues", &r->values);
    if (ddb_select_name(r->select))
        add_enum(o, "Select", ddb_select_name(r->select), select_go[r->select]);
    if (r->limit)
        add_int(o, "Limit", r->limit);
    add_item(o, "ExclusiveStartKey", &r->start);
    if (r->backward)
        add_bool(o, "ScanIndexForward", false);
    if (r->consistent)
        add_bool(o, "ConsistentRead", true);
    if (r->segments) {
        add_int(o, "Segment", r->segment);
        add_int(o, "TotalSegments", r->segments);
    }
    if (r->rv != DDB_RV_NONE)
        add_enum(o, "ReturnValues", ddb_rv_name(r->rv), rv_go[r->rv]);
    if (r->rv_fail_all_old)
        add_enum(o, "ReturnValuesOnConditionCheckFailure", "ALL_OLD",
                 "types.ReturnValuesOnConditionCheckFailureAllOld");
}

/* TransactItems: [{Put: {...}}, ...]. */
static void add_actions(node *o, const ddb_req *r)
{
    bool get = r->kind == DDB_TRANSACT_GET;
    node *l = add(o, N_LIST, "TransactItems");
    l->go = get ? "types.TransactGetItem" : "types.TransactWriteItem";
    for (size_t i = 0; i < r->n_acts; i++) {
        const ddb_req *a = &r->acts[i];
        node *e = add(l, N_OBJ, NULL);
        e->go = l->go;
        const char *nm = ddb_kind_action_name(a->kind);
        node *b = add(e, N_OBJ, nm);
        b->ptr = true;
        b->go = a->kind == DDB_PUT ? "types.Put" : a->kind == DDB_UPDATE ? "types.Update"
              : a->kind == DDB_DELETE ? "types.Delete" : a->kind == DDB_CHECK ? "types.ConditionCheck"
              : "types.Get";
        add_body(b, a);
    }
    add_str(o, "ClientRequestToken", r->token);
}

/* RequestItems of a BatchGetItem: {T: {Keys: [...], ...}} per table. */
static void add_batch_get(node *o, const ddb_req *r)
{
    node *m = add(o, N_TMAP, "RequestItems");
    m->go = "map[string]types.KeysAndAttributes";
    for (size_t i = 0; i < r->n_acts; i++) {
        const ddb_req *g = &r->acts[i];
        node *t = add(m, N_OBJ, g->table ? g->table : "");
        t->go = "types.KeysAndAttributes";
        node *keys = add(t, N_LIST, "Keys");
        keys->go = "map[string]types.AttributeValue";
        for (size_t k = 0; g->keys.type == AV_L && k < g->keys.u.l.len; k++)
            add(keys, N_ITEM, NULL)->v = &g->keys.u.l.v[k];
        add_str(t, "ProjectionExpression", g->proj);
        if (g->names.type == AV_M)
            add(t, N_NAMES, "ExpressionAttributeNames")->v = &g->names;
        if (g->consistent)
            add_bool(t, "ConsistentRead", true);
    }
}

/* RequestItems of a BatchWriteItem: {T: [{PutRequest: {Item}}, ...]},
 * actions of one table together, tables in the order they first appear. */
static void add_batch_write(node *o, const ddb_req *r)
{
    node *m = add(o, N_TMAP, "RequestItems");
    m->go = "map[string][]types.WriteRequest";
    for (size_t i = 0; i < r->n_acts; i++) {
        const char *t = r->acts[i].table ? r->acts[i].table : "";
        node *l = NULL;
        for (size_t j = 0; j < m->n_kids && !l; j++)
            if (strcmp(m->kids[j].name, t) == 0)
                l = &m->kids[j];
        if (!l) {
            l = add(m, N_LIST, t);
            l->go = "types.WriteRequest";
        }
        const ddb_req *a = &r->acts[i];
        node *e = add(l, N_OBJ, NULL);
        e->go = "types.WriteRequest";
        bool put = a->kind == DDB_PUT;
        node *w = add(e, N_OBJ, put ? "PutRequest" : "DeleteRequest");
        w->ptr = true;
        w->go = put ? "types.PutRequest" : "types.DeleteRequest";
        add_item(w, put ? "Item" : "Key", put ? &a->item : &a->key);
    }
}

static void build(const ddb_req *r, node *root)
{
    memset(root, 0, sizeof *root);
    root->kind = N_OBJ;
    root->ptr = true;
    if (r->kind == DDB_TRANSACT_WRITE || r->kind == DDB_TRANSACT_GET)
        add_actions(root, r);
    else if (r->kind == DDB_BATCH_GET)
        add_batch_get(root, r);
    else if (r->kind == DDB_BATCH_WRITE)
        add_batch_write(root, r);
    else
        add_body(root, r);
    if (r->rcc != DDB_RCC_NONE)
        add_enum(root, "ReturnConsumedCapacity", r->rcc == DDB_RCC_TOTAL ? "TOTAL" : "INDEXES",
                 r->rcc == DDB_RCC_TOTAL ? "types.ReturnConsumedCapacityTotal"
                                         : "types.ReturnConsumedCapacityIndexes");
}

/* ---- printing, shared --------------------------------------------------- */

typedef struct printer printer;
struct printer {
    codegen_lang lang;
    buf *out;
};

static void indent(buf *out, int depth)
{
    for (int i = 0; i < depth; i++)
        buf_adds(out, "    ");
}

static void quote(buf *out, const char *s, size_t n)
{
    /* JSON's escapes are valid in all three languages' string literals
     * (and ddbjson writes bytes that are not UTF-8 as \u00XX). */
    ddbjson_write_string(out, s, n);
}

static void quotes(buf *out, const char *s)
{
    quote(out, s, strlen(s));
}

static void print_av(printer *p, const av *v, int depth);

/* A number's text, as DynamoDB JSON carries it. */
static void num_text(buf *out, const av *v)
{
    buf t = BUF_INIT;
    av_scalar_text(v, &t);
    quote(out, t.data ? t.data : "", t.len);
    buf_done(&t);
}

/* Bytes as the language's byte-string value. */
static void bytes(printer *p, const av *v)
{
    buf b64 = BUF_INIT;
    base64_encode(&b64, v->u.s.ptr, v->u.s.len);
    const char *b = b64.data ? b64.data : "";
    switch (p->lang) {
    case CODEGEN_JS:
        buf_printf(p->out, "Buffer.from(\"%s\", \"base64\")", b);
        break;
    case CODEGEN_PYTHON:
        buf_printf(p->out, "base64.b64decode(\"%s\")", b);
        break;
    case CODEGEN_GO:
        buf_printf(p->out, "b64(\"%s\")", b);
        break;
    }
    buf_done(&b64);
}

static bool av_uses_bytes(const av *v)
{
    if (v->type == AV_B || v->type == AV_BS)
        return true;
    if (v->type == AV_L)
        for (size_t i = 0; i < v->u.l.len; i++)
            if (av_uses_bytes(&v->u.l.v[i]))
                return true;
    if (v->type == AV_M)
        for (size_t i = 0; i < v->u.m.len; i++)
            if (av_uses_bytes(&v->u.m.v[i].val))
                return true;
    return false;
}

static bool node_uses_bytes(const node *n)
{
    if ((n->kind == N_ITEM) && av_uses_bytes(n->v))
        return true;
    for (size_t i = 0; i < n->n_kids; i++)
        if (node_uses_bytes(&n->kids[i]))
            return true;
    return false;
}

/* ---- JavaScript and Python: the request's JSON shape -------------------- */

static const char *true_word(const printer *p, bool b)
{
    if (p->lang == CODEGEN_PYTHON)
        return b ? "True" : "False";
    return b ? "true" : "false";
}

/* A map's key: JS objects take quoted keys for attribute names (any text)
 * and bare ones for the API's members; Python dicts take quoted keys. */
static void member_name(printer *p, const char *name, bool api)
{
    if (api && p->lang == CODEGEN_JS)
        buf_adds(p->out, name);
    else
        quotes(p->out, name);
    buf_adds(p->out, ": ");
}

static void print_item(printer *p, const av *m, int depth);

/* An attribute value's member, S: "x" (its braces are the caller's). */
static void print_av(printer *p, const av *v, int depth)
{
    member_name(p, av_type_name(v->type), true);
    switch (v->type) {
    case AV_S:
        quote(p->out, v->u.s.ptr, v->u.s.len);
        break;
    case AV_N:
        num_text(p->out, v);
        break;
    case AV_B:
        bytes(p, v);
        break;
    case AV_BOOL:
    case AV_NULL:
        buf_adds(p->out, true_word(p, v->type == AV_NULL || v->u.b));
        break;
    case AV_M:
        print_item(p, v, depth);
        break;
    default:   /* L and the sets */
        buf_addc(p->out, '[');
        for (size_t i = 0; i < v->u.l.len; i++) {
            const av *e = &v->u.l.v[i];
            if (i)
                buf_adds(p->out, ", ");
            if (v->type == AV_L) {
                buf_adds(p->out, "{ ");
                print_av(p, e, depth);
                buf_adds(p->out, " }");
            } else if (v->type == AV_NS) {
                num_text(p->out, e);
            } else if (v->type == AV_BS) {
                bytes(p, e);
            } else {
                quote(p->out, e->u.s.ptr, e->u.s.len);
            }
        }
        buf_addc(p->out, ']');
    }
}

/* An attribute value as a whole object: { S: "x" }. */
static void print_av_obj(printer *p, const av *v, int depth)
{
    buf_adds(p->out, "{ ");
    print_av(p, v, depth);
    buf_adds(p->out, " }");
}

static void print_names(printer *p, const av *m, int depth)
{
    buf_adds(p->out, "{\n");
    for (size_t i = 0; i < m->u.m.len; i++) {
        indent(p->out, depth + 1);
        quote(p->out, m->u.m.v[i].name, m->u.m.v[i].name_len);
        buf_adds(p->out, ": ");
        const av *v = &m->u.m.v[i].val;
        if (v->type == AV_S)
            quote(p->out, v->u.s.ptr, v->u.s.len);
        else
            buf_adds(p->out, p->lang == CODEGEN_PYTHON ? "None" : "null");
        buf_adds(p->out, ",\n");
    }
    indent(p->out, depth);
    buf_addc(p->out, '}');
}

static void print_value(printer *p, const node *n, int depth);

/* Items of an M av as attribute-value objects. */
static void print_item(printer *p, const av *m, int depth)
{
    if (m->u.m.len == 0) {
        buf_adds(p->out, "{}");
        return;
    }
    buf_adds(p->out, "{\n");
    for (size_t i = 0; i < m->u.m.len; i++) {
        indent(p->out, depth + 1);
        quote(p->out, m->u.m.v[i].name, m->u.m.v[i].name_len);
        buf_adds(p->out, ": ");
        print_av_obj(p, &m->u.m.v[i].val, depth + 1);
        buf_adds(p->out, ",\n");
    }
    indent(p->out, depth);
    buf_addc(p->out, '}');
}

static void print_kids(printer *p, const node *n, int depth, char open, char close)
{
    buf_addc(p->out, open);
    buf_addc(p->out, '\n');
    for (size_t i = 0; i < n->n_kids; i++) {
        const node *k = &n->kids[i];
        indent(p->out, depth + 1);
        if (k->name)
            member_name(p, k->name, n->kind == N_OBJ);
        print_value(p, k, depth + 1);
        buf_adds(p->out, ",\n");
    }
    indent(p->out, depth);
    buf_addc(p->out, close);
}

static void print_value(printer *p, const node *n, int depth)
{
    switch (n->kind) {
    case N_STR:
    case N_ENUM:
        quotes(p->out, n->s);
        break;
    case N_INT:
        buf_printf(p->out, "%lld", n->n);
        break;
    case N_BOOL:
        buf_adds(p->out, true_word(p, n->n != 0));
        break;
    case N_ITEM:
        print_item(p, n->v, depth);
        break;
    case N_NAMES:
        print_names(p, n->v, depth);
        break;
    case N_LIST:
        print_kids(p, n, depth, '[', ']');
        break;
    case N_OBJ:
    case N_TMAP:
        print_kids(p, n, depth, '{', '}');
        break;
    }
}

/* "PutItem" -> "put_item" (boto3's method names). */
static void snake(buf *out, const char *camel)
{
    for (const char *c = camel; *c; c++) {
        if (*c >= 'A' && *c <= 'Z') {
            if (c != camel)
                buf_addc(out, '_');
            buf_addc(out, (char)(*c - 'A' + 'a'));
        } else {
            buf_addc(out, *c);
        }
    }
}

static void write_js(const ddb_req *r, const node *root, buf *out)
{
    const char *op = ddb_op_name(ddb_kind_op(r->kind));
    printer p = { CODEGEN_JS, out };
    buf_printf(out, "// %s with the AWS SDK for JavaScript v3 (npm install @aws-sdk/client-dynamodb).\n"
                    "// Run as an ES module (node FILE.mjs); region and credentials come from\n"
                    "// the environment, as for the aws command line.\n", op);
    buf_printf(out, "import { DynamoDBClient, %sCommand } from \"@aws-sdk/client-dynamodb\";\n\n", op);
    buf_adds(out, "const client = new DynamoDBClient({});\n");
    buf_printf(out, "const output = await client.send(new %sCommand(", op);
    print_value(&p, root, 0);
    buf_adds(out, "));\nconsole.log(JSON.stringify(output, null, 2));\n");
}

/* Does the request ask for ReturnValuesOnConditionCheckFailure? */
static bool uses_rvccf(const ddb_req *r)
{
    if (r->rv_fail_all_old)
        return true;
    for (size_t i = 0; i < r->n_acts; i++)
        if (r->acts[i].rv_fail_all_old)
            return true;
    return false;
}

static void write_python(const ddb_req *r, const node *root, buf *out)
{
    const char *op = ddb_op_name(ddb_kind_op(r->kind));
    printer p = { CODEGEN_PYTHON, out };
    buf_printf(out, "# %s with boto3 (Debian: python3-boto3); region and credentials come\n"
                    "# from the environment, as for the aws command line.\n", op);
    if (uses_rvccf(r))
        buf_adds(out, "# ReturnValuesOnConditionCheckFailure needs boto3 1.28 or later (Debian 12's\n"
                      "# 1.26 refuses it before sending).\n");
    if (node_uses_bytes(root))
        buf_adds(out, "import base64\n");
    buf_adds(out, "import json\n\nimport boto3\n\nclient = boto3.client(\"dynamodb\")\n");
    buf_adds(out, "response = client.");
    snake(out, op);
    buf_adds(out, "(\n");
    for (size_t i = 0; i < root->n_kids; i++) {
        const node *k = &root->kids[i];
        indent(out, 1);
        buf_printf(out, "%s=", k->name);
        print_value(&p, k, 1);
        buf_adds(out, ",\n");
    }
    buf_adds(out, ")\nprint(json.dumps(response, indent=2, default=str))\n");
}

/* ---- Go: typed composite literals --------------------------------------- */

static void go_av(buf *out, const av *v, int depth);

static void go_item(buf *out, const av *m, int depth, bool elide)
{
    if (!elide)
        buf_adds(out, "map[string]types.AttributeValue");
    if (m->u.m.len == 0) {
        buf_adds(out, "{}");
        return;
    }
    buf_adds(out, "{\n");
    for (size_t i = 0; i < m->u.m.len; i++) {
        indent(out, depth + 1);
        quote(out, m->u.m.v[i].name, m->u.m.v[i].name_len);
        buf_adds(out, ": ");
        go_av(out, &m->u.m.v[i].val, depth + 1);
        buf_adds(out, ",\n");
    }
    indent(out, depth);
    buf_addc(out, '}');
}

static void go_b(buf *out, const av *v)
{
    printer p = { CODEGEN_GO, out };
    bytes(&p, v);
}

static void go_av(buf *out, const av *v, int depth)
{
    buf_printf(out, "&types.AttributeValueMember%s{Value: ", av_type_name(v->type));
    switch (v->type) {
    case AV_S:
        quote(out, v->u.s.ptr, v->u.s.len);
        break;
    case AV_N:
        num_text(out, v);
        break;
    case AV_B:
        go_b(out, v);
        break;
    case AV_BOOL:
    case AV_NULL:
        buf_adds(out, v->type == AV_NULL || v->u.b ? "true" : "false");
        break;
    case AV_M:
        go_item(out, v, depth, false);
        break;
    default:
        buf_adds(out, v->type == AV_L ? "[]types.AttributeValue{" : v->type == AV_BS ? "[][]byte{" : "[]string{");
        for (size_t i = 0; i < v->u.l.len; i++) {
            const av *e = &v->u.l.v[i];
            if (i)
                buf_adds(out, ", ");
            if (v->type == AV_L)
                go_av(out, e, depth);
            else if (v->type == AV_NS)
                num_text(out, e);
            else if (v->type == AV_BS)
                go_b(out, e);
            else
                quote(out, e->u.s.ptr, e->u.s.len);
        }
        buf_addc(out, '}');
    }
    buf_addc(out, '}');
}

static void go_value(buf *out, const node *n, int depth, bool elide);

static void go_kids(buf *out, const node *n, int depth)
{
    buf_adds(out, "{\n");
    for (size_t i = 0; i < n->n_kids; i++) {
        const node *k = &n->kids[i];
        indent(out, depth + 1);
        if (n->kind == N_TMAP) {
            quotes(out, k->name);
            buf_adds(out, ": ");
        } else if (k->name) {
            buf_printf(out, "%s: ", k->name);
        }
        /* Elements of slices and maps may leave out their type. */
        go_value(out, k, depth + 1, n->kind != N_OBJ);
        buf_adds(out, ",\n");
    }
    indent(out, depth);
    buf_addc(out, '}');
}

static void go_value(buf *out, const node *n, int depth, bool elide)
{
    switch (n->kind) {
    case N_STR:
        buf_adds(out, "aws.String(");
        quotes(out, n->s);
        buf_addc(out, ')');
        break;
    case N_ENUM:
        buf_adds(out, n->go);
        break;
    case N_INT:
        buf_printf(out, "aws.Int32(%lld)", n->n);
        break;
    case N_BOOL:
        buf_printf(out, "aws.Bool(%s)", n->n ? "true" : "false");
        break;
    case N_ITEM:
        go_item(out, n->v, depth, elide);
        break;
    case N_NAMES:
        buf_adds(out, "map[string]string{\n");
        for (size_t i = 0; i < n->v->u.m.len; i++) {
            const av_member *m = &n->v->u.m.v[i];
            indent(out, depth + 1);
            quote(out, m->name, m->name_len);
            buf_adds(out, ": ");
            if (m->val.type == AV_S)
                quote(out, m->val.u.s.ptr, m->val.u.s.len);
            else
                buf_adds(out, "\"\"");
            buf_adds(out, ",\n");
        }
        indent(out, depth);
        buf_addc(out, '}');
        break;
    case N_LIST:
        if (!elide)
            buf_printf(out, "[]%s", n->go);
        go_kids(out, n, depth);
        break;
    case N_OBJ:
        if (!elide)
            buf_printf(out, "%s%s", n->ptr ? "&" : "", n->go);
        go_kids(out, n, depth);
        break;
    case N_TMAP:
        buf_adds(out, n->go);
        go_kids(out, n, depth);
        break;
    }
}

static void write_go(const ddb_req *r, node *root, buf *out)
{
    const char *op = ddb_op_name(ddb_kind_op(r->kind));
    bool b = node_uses_bytes(root);
    buf_printf(out, "// %s with the AWS SDK for Go v2 (github.com/aws/aws-sdk-go-v2);\n"
                    "// region and credentials come from the environment, as for the aws\n"
                    "// command line.\n", op);
    buf_adds(out, "package main\n\nimport (\n\t\"context\"\n");
    if (b)
        buf_adds(out, "\t\"encoding/base64\"\n");
    buf_adds(out, "\t\"encoding/json\"\n\t\"fmt\"\n\t\"log\"\n\n"
                  "\t\"github.com/aws/aws-sdk-go-v2/aws\"\n"
                  "\t\"github.com/aws/aws-sdk-go-v2/config\"\n"
                  "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb\"\n"
                  "\t\"github.com/aws/aws-sdk-go-v2/service/dynamodb/types\"\n)\n\n");
    if (b)
        buf_adds(out, "func b64(s string) []byte {\n\tb, err := base64.StdEncoding.DecodeString(s)\n"
                      "\tif err != nil {\n\t\tpanic(err)\n\t}\n\treturn b\n}\n\n");
    buf_adds(out, "func main() {\n"
                  "\tctx := context.Background()\n"
                  "\tcfg, err := config.LoadDefaultConfig(ctx)\n"
                  "\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n"
                  "\tclient := dynamodb.NewFromConfig(cfg)\n");
    char type[64];
    snprintf(type, sizeof type, "dynamodb.%sInput", op);
    root->go = type;
    buf_printf(out, "\tout, err := client.%s(ctx, ", op);
    /* Go's code is indented with tabs (gofmt); the tree printer indents
     * with four spaces, turned into tabs after. */
    buf body = BUF_INIT;
    go_value(&body, root, 1, false);
    for (size_t i = 0; i < body.len; i++) {
        if (body.data[i] == '\n') {
            buf_addc(out, '\n');
            while (i + 4 < body.len && memcmp(body.data + i + 1, "    ", 4) == 0) {
                buf_addc(out, '\t');
                i += 4;
            }
        } else {
            buf_addc(out, body.data[i]);
        }
    }
    buf_done(&body);
    buf_adds(out, ")\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n"
                  "\ttext, _ := json.MarshalIndent(out, \"\", \"  \")\n"
                  "\tfmt.Println(string(text))\n}\n");
}

/* ---- entry -------------------------------------------------------------- */

const char *codegen_lang_name(codegen_lang lang)
{
    switch (lang) {
    case CODEGEN_JS: return "JavaScript (AWS SDK v3)";
    case CODEGEN_PYTHON: return "Python (boto3)";
    case CODEGEN_GO: return "Go (AWS SDK v2)";
    }
    return "?";
}

void codegen_write(codegen_lang lang, const ddb_req *r, buf *out)
{
    ddb_req wrapped;
    if (r->kind == DDB_CHECK) {
        /* A lone ConditionCheck exists only inside a transaction. */
        ddb_req_wrap(r, &wrapped);
        r = &wrapped;
    }
    node root;
    build(r, &root);
    switch (lang) {
    case CODEGEN_JS:
        write_js(r, &root, out);
        break;
    case CODEGEN_PYTHON:
        write_python(r, &root, out);
        break;
    case CODEGEN_GO:
        write_go(r, &root, out);
        break;
    }
    node_free(&root);
}
