#include "model/ddbres_tables.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/vecidx.h"

ddb_tables_res *ddbres_tables(ddb_res *res)
{
    if (!res->tables)
        res->tables = xcalloc(1, sizeof *res->tables);
    return res->tables;
}

void ddbres_tables_add_name(ddb_tables_res *t, const char *name)
{
    t->names = xrealloc(t->names, (t->n_names + 1) * sizeof *t->names);
    t->names[t->n_names++] = xstrdup(name);
}

void ddbres_tables_free(ddb_tables_res *t)
{
    if (!t)
        return;
    ddbres_table_desc_free(t->table);
    for (size_t i = 0; i < t->n_names; i++)
        free(t->names[i]);
    free(t->names);
    free(t->last_name);
    free(t);
}


/* ---- the TableDescription's shape ----
 *
 * Each struct of the description as a list of its members: the printer,
 * the reader and the free walk these. The printer's order is the order
 * DynamoDB sends them in (its CreateTable and DescribeTable answers,
 * TableName after AttributeDefinitions, IndexArn after the counts) and
 * the order the store answered in before its answers were typed, which
 * the JSON suites pin (tests/data/test_store.c, test_capacity.c,
 * test_idx_body.c); the API reference lists them alphabetically, as the
 * structs in model/ddbres_tables.h do. */

typedef enum { M_STR, M_NUM, M_BOOL, M_OBJ, M_LIST, M_STRS } mkind;
typedef struct shape shape;
typedef struct mdesc {
    const char *name;
    mkind kind;
    size_t off;
    const shape *sub;     /* M_OBJ: the object's; M_LIST: an element's */
} mdesc;
struct shape {
    size_t size;
    const mdesc *m;
    size_t n;
};

/* Every list member is { T *v; size_t n; }: its count at LIST_N. */
#define LIST_N offsetof(ddb_pairs, n)
_Static_assert(offsetof(ddb_strs, n) == LIST_N && offsetof(ddb_index_descs, n) == LIST_N &&
               offsetof(ddb_vindex_descs, n) == LIST_N, "list members share one layout");

#define SHAPE(T, members) { sizeof(T), members, sizeof members / sizeof members[0] }
#define MS(T, name, f) { name, M_STR, offsetof(T, f), NULL }
#define MN(T, name, f) { name, M_NUM, offsetof(T, f), NULL }
#define MB(T, name, f) { name, M_BOOL, offsetof(T, f), NULL }
#define MO(T, name, f, sub) { name, M_OBJ, offsetof(T, f), &sub }
#define ML(T, name, f, sub) { name, M_LIST, offsetof(T, f), &sub }
#define MSS(T, name, f) { name, M_STRS, offsetof(T, f), NULL }

static const mdesc attr_m[] = { MS(ddb_pair, "AttributeName", name), MS(ddb_pair, "AttributeType", what) };
static const mdesc key_m[] = { MS(ddb_pair, "AttributeName", name), MS(ddb_pair, "KeyType", what) };
static const mdesc search_m[] = { MS(ddb_pair, "AttributeName", name),
                                  MS(ddb_pair, "SearchSchemaElementType", what) };
static const shape attr_s = SHAPE(ddb_pair, attr_m), key_s = SHAPE(ddb_pair, key_m),
                   search_s = SHAPE(ddb_pair, search_m);
static const mdesc proj_m[] = { MS(ddb_projection, "ProjectionType", type),
                                MSS(ddb_projection, "NonKeyAttributes", nka) };
static const shape proj_s = SHAPE(ddb_projection, proj_m);
static const mdesc tput_m[] = {
    MN(ddb_tput, "ReadCapacityUnits", rcu), MN(ddb_tput, "WriteCapacityUnits", wcu),
    MN(ddb_tput, "NumberOfDecreasesToday", decreases), MN(ddb_tput, "LastIncreaseDateTime", last_increase),
    MN(ddb_tput, "LastDecreaseDateTime", last_decrease),
};
static const shape tput_s = SHAPE(ddb_tput, tput_m);
static const mdesc odt_m[] = { MN(ddb_odt, "MaxReadRequestUnits", max_read),
                               MN(ddb_odt, "MaxWriteRequestUnits", max_write) };
static const shape odt_s = SHAPE(ddb_odt, odt_m);
static const mdesc warm_m[] = { MN(ddb_warm, "ReadUnitsPerSecond", read), MN(ddb_warm, "WriteUnitsPerSecond", write),
                                MS(ddb_warm, "Status", status) };
static const shape warm_s = SHAPE(ddb_warm, warm_m);
static const mdesc index_m[] = {
    MS(ddb_index_desc, "IndexName", name), ML(ddb_index_desc, "KeySchema", keys, key_s),
    MO(ddb_index_desc, "Projection", proj, proj_s), MS(ddb_index_desc, "IndexStatus", status),
    MB(ddb_index_desc, "Backfilling", backfilling), MO(ddb_index_desc, "ProvisionedThroughput", tput, tput_s),
    MN(ddb_index_desc, "IndexSizeBytes", bytes), MN(ddb_index_desc, "ItemCount", count),
    MS(ddb_index_desc, "IndexArn", arn), MO(ddb_index_desc, "OnDemandThroughput", odt, odt_s),
    MO(ddb_index_desc, "WarmThroughput", warm, warm_s),
};
static const shape index_s = SHAPE(ddb_index_desc, index_m);
static const mdesc vattr_m[] = { MS(ddb_vattr, "AttributeName", name) };
static const shape vattr_s = SHAPE(ddb_vattr, vattr_m);
static const mdesc vindex_m[] = {
    MS(ddb_vindex_desc, "IndexName", name), ML(ddb_vindex_desc, "SearchSchema", search, search_s),
    MO(ddb_vindex_desc, "Projection", proj, proj_s), MO(ddb_vindex_desc, "VectorAttribute", vattr, vattr_s),
    MN(ddb_vindex_desc, "Dimensions", dims), MS(ddb_vindex_desc, "DistanceFunction", distance),
    MS(ddb_vindex_desc, "IndexStatus", status), MB(ddb_vindex_desc, "Backfilling", backfilling),
    MN(ddb_vindex_desc, "IndexSizeBytes", bytes), MN(ddb_vindex_desc, "ItemCount", count),
    MS(ddb_vindex_desc, "IndexArn", arn),
};
static const shape vindex_s = SHAPE(ddb_vindex_desc, vindex_m);
static const mdesc billing_m[] = { MS(ddb_billing, "BillingMode", mode),
                                   MN(ddb_billing, "LastUpdateToPayPerRequestDateTime", last_ppr) };
static const shape billing_s = SHAPE(ddb_billing, billing_m);
static const mdesc restore_m[] = {
    MS(ddb_restore, "SourceBackupArn", backup_arn), MS(ddb_restore, "SourceTableArn", table_arn),
    MN(ddb_restore, "RestoreDateTime", at), MB(ddb_restore, "RestoreInProgress", in_progress),
};
static const shape restore_s = SHAPE(ddb_restore, restore_m);
static const mdesc stream_m[] = { MB(ddb_stream_spec, "StreamEnabled", enabled),
                                  MS(ddb_stream_spec, "StreamViewType", view) };
static const shape stream_s = SHAPE(ddb_stream_spec, stream_m);
static const mdesc tmode_m[] = { MS(ddb_tmode, "TableThroughputMode", mode) };
static const shape tmode_s = SHAPE(ddb_tmode, tmode_m);
static const mdesc table_m[] = {
    ML(ddb_table_desc, "AttributeDefinitions", attrs, attr_s),
    MS(ddb_table_desc, "TableName", name),
    ML(ddb_table_desc, "KeySchema", keys, key_s),
    MS(ddb_table_desc, "TableStatus", status),
    MN(ddb_table_desc, "CreationDateTime", created),
    MO(ddb_table_desc, "ProvisionedThroughput", tput, tput_s),
    MN(ddb_table_desc, "TableSizeBytes", bytes),
    MN(ddb_table_desc, "ItemCount", count),
    MS(ddb_table_desc, "TableArn", arn),
    MS(ddb_table_desc, "TableId", id),
    MO(ddb_table_desc, "BillingModeSummary", billing, billing_s),
    MO(ddb_table_desc, "TableThroughputModeSummary", tmode, tmode_s),
    ML(ddb_table_desc, "LocalSecondaryIndexes", lsis, index_s),
    ML(ddb_table_desc, "GlobalSecondaryIndexes", gsis, index_s),
    MO(ddb_table_desc, "StreamSpecification", stream, stream_s),
    MS(ddb_table_desc, "LatestStreamLabel", stream_label),
    MS(ddb_table_desc, "LatestStreamArn", stream_arn),
    MO(ddb_table_desc, "RestoreSummary", restore, restore_s),
    MB(ddb_table_desc, "DeletionProtectionEnabled", deletion_protection),
    MO(ddb_table_desc, "OnDemandThroughput", odt, odt_s),
    MO(ddb_table_desc, "WarmThroughput", warm, warm_s),
    MS(ddb_table_desc, "GlobalTableSettingsReplicationMode", replication_mode),
    ML(ddb_table_desc, "VectorIndexes", vixs, vindex_s),
};
static const shape table_s = SHAPE(ddb_table_desc, table_m);

/* The list member at p: its elements and count. */
static char *list_v(const char *p)
{
    char *v;
    memcpy(&v, p, sizeof v);
    return v;
}

static size_t list_n(const char *p)
{
    size_t n;
    memcpy(&n, p + LIST_N, sizeof n);
    return n;
}

static void obj_free(const shape *sh, char *o)
{
    for (size_t i = 0; i < sh->n; i++) {
        const mdesc *m = &sh->m[i];
        char *p = o + m->off;
        switch (m->kind) {
        case M_STR: {
            char *str;
            memcpy(&str, p, sizeof str);
            free(str);
            break;
        }
        case M_OBJ: {
            char *sub = list_v(p);
            if (sub)
                obj_free(m->sub, sub);
            free(sub);
            break;
        }
        case M_LIST: {
            char *v = list_v(p);
            for (size_t j = 0; j < list_n(p); j++)
                obj_free(m->sub, v + j * m->sub->size);
            free(v);
            break;
        }
        case M_STRS: {
            ddb_strs *ss = (ddb_strs *)(void *)p;
            for (size_t j = 0; j < ss->n; j++)
                free(ss->v[j]);
            free(ss->v);
            break;
        }
        default:
            break;
        }
    }
}

void ddbres_table_desc_free(ddb_table_desc *t)
{
    if (!t)
        return;
    obj_free(&table_s, (char *)t);
    free(t);
}

/* dst (zeroed, sh->size) a deep copy of src. */
static void obj_copy(const shape *sh, char *dst, const char *src)
{
    memcpy(dst, src, sh->size);
    for (size_t i = 0; i < sh->n; i++) {
        const mdesc *m = &sh->m[i];
        char *p = dst + m->off;
        char *v = list_v(p), *nv = NULL;
        switch (m->kind) {
        case M_STR:
            nv = v ? xstrdup(v) : NULL;
            break;
        case M_OBJ:
            if (v) {
                nv = xcalloc(1, m->sub->size);
                obj_copy(m->sub, nv, v);
            }
            break;
        case M_LIST:
            if (v) {
                nv = xcalloc(list_n(p) + 1, m->sub->size);
                for (size_t j = 0; j < list_n(p); j++)
                    obj_copy(m->sub, nv + j * m->sub->size, v + j * m->sub->size);
            }
            break;
        case M_STRS: {
            ddb_strs *ss = (ddb_strs *)(void *)p;
            if (v) {
                char **sv = xcalloc(ss->n + 1, sizeof *sv);
                for (size_t j = 0; j < ss->n; j++)
                    sv[j] = xstrdup(ss->v[j]);
                nv = (char *)sv;
            }
            break;
        }
        default:
            continue;
        }
        memcpy(p, &nv, sizeof nv);
    }
}

ddb_table_desc *ddbres_table_desc_copy(const ddb_table_desc *t)
{
    if (!t)
        return NULL;
    ddb_table_desc *c = xcalloc(1, sizeof *c);
    obj_copy(&table_s, (char *)c, (const char *)t);
    return c;
}

/* ---- the printer ---- */

static void member_name(buf *out, bool *first, const char *name)
{
    buf_adds(out, *first ? "\"" : ",\"");
    *first = false;
    buf_adds(out, name);
    buf_adds(out, "\":");
}

static void string(buf *out, const char *s)
{
    ddbjson_write_string(out, s, strlen(s));
}

/* A number as cJSON prints one (the text the store answered with before
 * its answers were typed): an int exactly, else the shortest of 15 or 17
 * significant digits that reads back the same. */
static void number(buf *out, double v)
{
    if (isnan(v) || isinf(v)) {
        buf_adds(out, "null");
        return;
    }
    if (v >= -2147483648.0 && v <= 2147483647.0 && v == (double)(int)v) {
        char digits[12], *p = digits + sizeof digits;
        long long i = (long long)v, a = i < 0 ? -i : i;
        do
            *--p = (char)('0' + a % 10);
        while ((a /= 10) > 0);
        if (i < 0)
            *--p = '-';
        buf_add(out, p, (size_t)(digits + sizeof digits - p));
        return;
    }
    char tmp[32];
    snprintf(tmp, sizeof tmp, "%1.15g", v);
    if (strtod(tmp, NULL) != v)
        snprintf(tmp, sizeof tmp, "%1.17g", v);
    buf_adds(out, tmp);
}

static void obj_json(const shape *sh, const char *o, buf *out)
{
    bool first = true;
    buf_addc(out, '{');
    for (size_t i = 0; i < sh->n; i++) {
        const mdesc *m = &sh->m[i];
        const char *p = o + m->off;
        switch (m->kind) {
        case M_STR: {
            const char *str = list_v(p);
            if (!str)
                break;
            member_name(out, &first, m->name);
            string(out, str);
            break;
        }
        case M_NUM: {
            const ddb_onum *n = (const ddb_onum *)(const void *)p;
            if (!n->has)
                break;
            member_name(out, &first, m->name);
            number(out, n->v);
            break;
        }
        case M_BOOL: {
            const ddb_obool *b = (const ddb_obool *)(const void *)p;
            if (!b->has)
                break;
            member_name(out, &first, m->name);
            buf_adds(out, b->v ? "true" : "false");
            break;
        }
        case M_OBJ:
            if (!list_v(p))
                break;
            member_name(out, &first, m->name);
            obj_json(m->sub, list_v(p), out);
            break;
        case M_LIST:
            if (!list_v(p))   /* an empty list read is kept: v is set, n 0 */
                break;
            member_name(out, &first, m->name);
            buf_addc(out, '[');
            for (size_t j = 0; j < list_n(p); j++) {
                if (j)
                    buf_addc(out, ',');
                obj_json(m->sub, list_v(p) + j * m->sub->size, out);
            }
            buf_addc(out, ']');
            break;
        case M_STRS: {
            const ddb_strs *ss = (const ddb_strs *)(const void *)p;
            if (!ss->v)
                break;
            member_name(out, &first, m->name);
            buf_addc(out, '[');
            for (size_t j = 0; j < ss->n; j++) {
                if (j)
                    buf_addc(out, ',');
                string(out, ss->v[j]);
            }
            buf_addc(out, ']');
            break;
        }
        }
    }
    buf_addc(out, '}');
}

static void table_desc_json(const ddb_table_desc *t, buf *out)
{
    obj_json(&table_s, (const char *)t, out);
}

void ddbres_table_desc_json(const ddb_table_desc *t, buf *out)
{
    table_desc_json(t, out);
}

/* ListTables: TableNames, LastEvaluatedTableName (the API reference's
 * order; TableNames even when empty, as DynamoDB answers). */
static void list_json(const ddb_tables_res *t, buf *out)
{
    bool first = true;
    member_name(out, &first, "TableNames");
    buf_addc(out, '[');
    for (size_t i = 0; t && i < t->n_names; i++) {
        if (i)
            buf_addc(out, ',');
        string(out, t->names[i]);
    }
    buf_addc(out, ']');
    if (t && t->last_name) {
        member_name(out, &first, "LastEvaluatedTableName");
        string(out, t->last_name);
    }
}

void ddbres_tables_json(ddb_kind kind, const ddb_res *res, buf *out)
{
    buf_addc(out, '{');
    switch (kind) {
    case DDB_LIST_TABLES:
        list_json(res->tables, out);
        break;
    case DDB_DESCRIBE_TABLE: case DDB_CREATE_TABLE: case DDB_DELETE_TABLE: case DDB_UPDATE_TABLE:
        if (!res->tables || !res->tables->table)
            break;
        buf_adds(out, kind == DDB_DESCRIBE_TABLE ? "\"Table\":" : "\"TableDescription\":");
        table_desc_json(res->tables->table, out);
        break;
    default:
        break;
    }
    buf_addc(out, '}');
}

/* ---- the reader ---- */

static const av *get(const av *o, const char *name)
{
    if (!o || o->type != AV_M)
        return NULL;
    const av *v = av_map_get(o, name, strlen(name));
    return v && v->type != AV_NULL ? v : NULL;
}

static status wrong(const char *name, const char *what, diag *d)
{
    return diag_set(d, ST_INTERNAL, "the answer's %s is not %s", name, what);
}

/* A string member into *out (a copy; NULL when absent). */
static status str_of(const av *o, const char *name, char **out, diag *d)
{
    const av *v = get(o, name);
    if (!v)
        return ST_OK;
    if (v->type != AV_S)
        return wrong(name, "a string", d);
    free(*out);
    *out = xstrdup(v->u.s.ptr);
    return ST_OK;
}

static status obj_read(const shape *sh, const av *o, char *out, diag *d);

static status member_read(const mdesc *m, const av *v, char *p, diag *d)
{
    static const av_type want[] = { [M_STR] = AV_S, [M_NUM] = AV_N, [M_BOOL] = AV_BOOL, [M_OBJ] = AV_M,
                                    [M_LIST] = AV_L, [M_STRS] = AV_L };
    static const char *const what[] = { [M_STR] = "a string", [M_NUM] = "a number", [M_BOOL] = "a boolean",
                                        [M_OBJ] = "an object", [M_LIST] = "a list", [M_STRS] = "a list" };
    if (v->type != want[m->kind])
        return wrong(m->name, what[m->kind], d);
    switch (m->kind) {
    case M_STR: {
        char *str = xstrdup(v->u.s.ptr);
        memcpy(p, &str, sizeof str);
        return ST_OK;
    }
    case M_NUM: {
        ddb_onum *n = (ddb_onum *)(void *)p;
        int64_t i;
        n->has = true;
        if (num_to_int(&v->u.n, &i)) {
            n->v = (double)i;
        } else {
            char text[NUM_TEXT_MAX];
            num_format(&v->u.n, text);
            n->v = strtod(text, NULL);
        }
        return ST_OK;
    }
    case M_BOOL: {
        ddb_obool *b = (ddb_obool *)(void *)p;
        b->has = true;
        b->v = v->u.b;
        return ST_OK;
    }
    case M_OBJ: {
        char *sub = xcalloc(1, m->sub->size);
        memcpy(p, &sub, sizeof sub);
        return obj_read(m->sub, v, sub, d);
    }
    case M_LIST: {
        size_t n = v->u.l.len;
        char *elems = xcalloc(n ? n : 1, m->sub->size);
        memcpy(p, &elems, sizeof elems);
        status st = ST_OK;
        for (size_t j = 0; j < n && st == ST_OK; j++) {
            if (v->u.l.v[j].type != AV_M)
                return wrong(m->name, "a list of objects", d);
            memcpy(p + LIST_N, &(size_t){ j + 1 }, sizeof(size_t));
            st = obj_read(m->sub, &v->u.l.v[j], elems + j * m->sub->size, d);
        }
        return st;
    }
    case M_STRS: {
        ddb_strs *ss = (ddb_strs *)(void *)p;
        ss->v = xcalloc(v->u.l.len ? v->u.l.len : 1, sizeof *ss->v);
        for (size_t j = 0; j < v->u.l.len; j++) {
            if (v->u.l.v[j].type != AV_S)
                return wrong(m->name, "a list of strings", d);
            ss->v[ss->n++] = xstrdup(v->u.l.v[j].u.s.ptr);
        }
        return ST_OK;
    }
    }
    return ST_OK;
}

/* o's members into the struct at out (zeroed); on an error what was
 * read so far stays, for obj_free. */
static status obj_read(const shape *sh, const av *o, char *out, diag *d)
{
    for (size_t i = 0; i < sh->n; i++) {
        const av *v = get(o, sh->m[i].name);
        status st = v ? member_read(&sh->m[i], v, out + sh->m[i].off, d) : ST_OK;
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

status ddbres_table_desc_read(const av *o, ddb_table_desc **out, diag *d)
{
    *out = NULL;
    if (!o || o->type != AV_M)
        return wrong("TableDescription", "an object", d);
    ddb_table_desc *t = xcalloc(1, sizeof *t);
    status st = obj_read(&table_s, o, (char *)t, d);
    if (st != ST_OK) {
        ddbres_table_desc_free(t);
        return st;
    }
    *out = t;
    return ST_OK;
}

static status list_read(const av *root, ddb_tables_res *t, diag *d)
{
    const av *names = get(root, "TableNames");
    if (names && names->type != AV_L)
        return wrong("TableNames", "a list", d);
    for (size_t i = 0; names && i < names->u.l.len; i++) {
        if (names->u.l.v[i].type != AV_S)
            return wrong("TableNames", "a list of strings", d);
        ddbres_tables_add_name(t, names->u.l.v[i].u.s.ptr);
    }
    return str_of(root, "LastEvaluatedTableName", &t->last_name, d);
}

status ddbres_tables_read(ddb_kind kind, const av *root, ddb_res *res, diag *d)
{
    switch (kind) {
    case DDB_LIST_TABLES:
        return list_read(root, ddbres_tables(res), d);
    case DDB_DESCRIBE_TABLE: case DDB_CREATE_TABLE: case DDB_DELETE_TABLE: case DDB_UPDATE_TABLE: {
        const av *o = get(root, kind == DDB_DESCRIBE_TABLE ? "Table" : "TableDescription");
        ddb_tables_res *t = ddbres_tables(res);
        ddbres_table_desc_free(t->table);
        t->table = NULL;
        return o ? ddbres_table_desc_read(o, &t->table, d) : ST_OK;
    }
    default:
        return ST_OK;
    }
}

/* ---- the table_def a description holds ---- */

static av_type attr_type(const ddb_table_desc *t, const char *name)
{
    for (size_t i = 0; name && i < t->attrs.n; i++)
        if (t->attrs.v[i].name && strcmp(t->attrs.v[i].name, name) == 0)
            return t->attrs.v[i].what ? av_type_from_name(t->attrs.v[i].what, strlen(t->attrs.v[i].what))
                                      : AV_NONE;
    return AV_NONE;
}

static void key_set(const ddb_table_desc *t, key_attr *k, const char *name)
{
    k->name = xstrdup(name);
    k->type = attr_type(t, name);
}

static bool is_range(const ddb_pair *p)
{
    return p->what && strcmp(p->what, "RANGE") == 0;
}

static proj_type proj_of(const ddb_projection *p, char ***include, size_t *n_include)
{
    const char *pt = p ? p->type : NULL;
    if (p && p->nka.n) {
        *include = xcalloc(p->nka.n, sizeof **include);
        for (size_t i = 0; i < p->nka.n; i++)
            (*include)[(*n_include)++] = xstrdup(p->nka.v[i]);
    }
    return !pt || strcmp(pt, "ALL") == 0 ? PROJ_ALL : strcmp(pt, "KEYS_ONLY") == 0 ? PROJ_KEYS_ONLY
         : PROJ_INCLUDE;
}

/* An index's KeySchema: the first HASH and RANGE attributes into pk and
 * sk, the ones after them into pk_rest and sk_rest, in order. */
static void index_of(const ddb_table_desc *t, const ddb_index_desc *x, bool global, index_def *out)
{
    memset(out, 0, sizeof *out);
    out->name = xstrdup(x->name ? x->name : "");
    out->global = global;
    out->pk.type = out->sk.type = AV_NONE;
    for (size_t i = 0; i < x->keys.n; i++) {
        const ddb_pair *e = &x->keys.v[i];
        bool range = is_range(e);
        key_attr *k;
        if (range)
            k = !out->sk.name ? &out->sk
              : out->n_sk_rest < SCHEMA_MAX_KEY_PARTS - 1 ? &out->sk_rest[out->n_sk_rest++] : NULL;
        else
            k = !out->pk.name ? &out->pk
              : out->n_pk_rest < SCHEMA_MAX_KEY_PARTS - 1 ? &out->pk_rest[out->n_pk_rest++] : NULL;
        if (k && e->name)
            key_set(t, k, e->name);
    }
    out->proj = proj_of(x->proj, &out->include, &out->n_include);
}

static void vindex_of(const ddb_table_desc *t, const ddb_vindex_desc *x, vec_index *v)
{
    memset(v, 0, sizeof *v);
    v->name = xstrdup(x->name ? x->name : "");
    v->attr = xstrdup(x->vattr && x->vattr->name ? x->vattr->name : "");
    v->dims = x->dims.has && x->dims.v >= 1 && x->dims.v <= VEC_MAX_DIMS ? (uint32_t)x->dims.v : 1;
    int f = vec_dist_find(x->distance);
    v->dist = f < 0 ? VEC_COSINE : (vec_dist)f;
    if (x->search.n)
        v->schema = xcalloc(x->search.n, sizeof *v->schema);
    for (size_t i = 0; i < x->search.n; i++) {
        const ddb_pair *e = &x->search.v[i];
        if (!e->name)
            continue;
        vec_attr *a = &v->schema[v->n_schema++];
        a->name = xstrdup(e->name);
        a->type = attr_type(t, e->name);
        a->hash = e->what && strcmp(e->what, "HASH") == 0;
    }
    v->proj = proj_of(x->proj, &v->include, &v->n_include);
}

void ddbres_table_desc_def(const ddb_table_desc *t, table_def *def)
{
    memset(def, 0, sizeof *def);
    def->name = xstrdup(t->name ? t->name : "");
    def->pk.type = def->sk.type = AV_NONE;
    for (size_t i = 0; i < t->keys.n; i++)
        if (t->keys.v[i].name)
            key_set(t, is_range(&t->keys.v[i]) ? &def->sk : &def->pk, t->keys.v[i].name);
    size_t n = t->lsis.n + t->gsis.n;
    if (n)
        def->idx = xcalloc(n, sizeof *def->idx);
    /* LSIs first, then GSIs: the store numbers its indexes in this order. */
    for (size_t i = 0; i < t->lsis.n; i++)
        index_of(t, &t->lsis.v[i], false, &def->idx[def->n_idx++]);
    for (size_t i = 0; i < t->gsis.n; i++)
        index_of(t, &t->gsis.v[i], true, &def->idx[def->n_idx++]);
    def->created = t->created.has ? (int64_t)t->created.v : 0;
    if (t->vixs.n)
        def->vidx = xcalloc(t->vixs.n, sizeof *def->vidx);
    for (size_t i = 0; i < t->vixs.n; i++)
        vindex_of(t, &t->vixs.v[i], &def->vidx[def->n_vidx++]);
}

const ddb_index_desc *ddbres_table_desc_gsi(const ddb_table_desc *t, const char *name)
{
    for (size_t i = 0; t && name && i < t->gsis.n; i++)
        if (t->gsis.v[i].name && strcmp(t->gsis.v[i].name, name) == 0)
            return &t->gsis.v[i];
    return NULL;
}
