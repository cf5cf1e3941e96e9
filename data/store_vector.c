/*
 * store_vector — a table's vector indexes (DynamoDB's VectorIndexes):
 * CreateTable's and UpdateTable's members, the description DescribeTable
 * gives, the definitions a table_def carries (model/vecidx.h), and their
 * entries: one row of packed float32 a searchable item, written in the
 * same transaction as the item (as a GSI entry is) and read by
 * store_vsearch.c.
 *
 * The rows live in vecs(tid, vname, pk, sk, size, filt, v): the item's
 * key, the entry's DynamoDB-style size, the search-schema values (each a
 * 4-byte length and model/keyenc's bytes; 0xFFFFFFFF: absent) and the
 * vector (dims floats, host order); vecver(tid, ver) counts the changes
 * of a table's entries, in the same transactions, so a search knows
 * whether the floats it holds in memory are still the table's. An item
 * without the vector attribute
 * has no row ("simply not in the index"); one whose vector has the wrong
 * type or length is refused whole (the developer guide's troubleshooting
 * table: "Write is rejected"); one without the index's HASH attribute
 * has no row either (the same table: "silently de-indexed").
 */
#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_int.h"
#include "data/store_valid.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/size.h"
#include "model/vecidx.h"

#define VECS_SQL \
    "CREATE TABLE IF NOT EXISTS vecs(tid INTEGER NOT NULL, vname TEXT NOT NULL, pk BLOB NOT NULL," \
    " sk BLOB NOT NULL, size INTEGER NOT NULL, filt BLOB NOT NULL, v BLOB NOT NULL);" \
    "CREATE UNIQUE INDEX IF NOT EXISTS vecs_key ON vecs(tid, vname, pk, sk);" \
    "CREATE TABLE IF NOT EXISTS vecver(tid INTEGER PRIMARY KEY, ver INTEGER NOT NULL);"

/* A read-only connection cannot make what a newer schema has, and one
 * opened before a writer made it found none: a bit copied at open said
 * "none" for as long as the connection lived, though SQLite itself sees
 * the writer's new table or column (a prepare that names an unknown one
 * reads the schema again when the file's schema cookie changed). So
 * while the bit is false it is looked for again, at each use: a prepare,
 * no read of the file unless the schema changed. */
bool store_has_now(store *s, bool *bit, const char *probe)
{
    if (!*bit && s->db) {
        sqlite3_stmt *q = NULL;
        *bit = sqlite3_prepare_v2(s->db, probe, -1, &q, NULL) == SQLITE_OK;
        sqlite3_finalize(q);
    }
    return *bit;
}

bool store_vec_has(store *s)
{
    return store_has_now(s, &s->has.vecs, "SELECT 1 FROM vecs LIMIT 1");
}

status store_vec_open(store *s, diag *d)
{
    if (s->read_only) {
        store_vec_has(s);
        return ST_OK;
    }
    if (sqlite3_exec(s->db, VECS_SQL, NULL, NULL, NULL) != SQLITE_OK)
        return store_sqlerr(s, d);
    s->has.vecs = true;
    return ST_OK;
}

/* ---- CreateTable's VectorIndexes: shape ---- */

static const char *const e_dist[] = { "COSINE", "EUCLIDEAN", "DOT_PRODUCT", NULL };
static const char *const e_sse[] = { "HASH", "INLINE_FILTER", NULL };
static const char *const e_proj[] = { "ALL", "INCLUDE", "KEYS_ONLY", NULL };

static const vspec va_fields[] = {
    { .name = "AttributeName", .type = VT_STRING, .flags = VF_NOTNULL, .min_len = 1, .max_len = 255 },
    { .type = VT_END },
};
static const vspec sse_fields[] = {
    { .name = "AttributeName", .type = VT_STRING, .flags = VF_NOTNULL, .max_len = 65535 },
    { .name = "SearchSchemaElementType", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_sse },
    { .type = VT_END },
};
static const vspec sse_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "SearchSchemaElement",
                                .fields = sse_fields };
static const vspec vnka_elem = { .name = "member", .type = VT_STRING, .min_len = 1, .max_len = 255 };
static const vspec vproj_fields[] = {
    { .name = "ProjectionType", .type = VT_STRING, .enums = e_proj },
    { .name = "NonKeyAttributes", .type = VT_LIST, .min_len = 1, .max_len = 20, .elem = &vnka_elem },
    { .type = VT_END },
};
/* The API reference's CreateVectorIndexAction (and VectorIndexes'
 * elements, the same shape). */
static const vspec vix_fields[] = {
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .name = "SearchSchema", .type = VT_LIST, .min_len = 1, .elem = &sse_elem },
    { .name = "Projection", .type = VT_FSTRUCT, .sub = "Projection", .flags = VF_NOTNULL, .fields = vproj_fields },
    { .name = "VectorAttribute", .type = VT_FSTRUCT, .sub = "VectorAttributeDefinition", .flags = VF_NOTNULL,
      .fields = va_fields },
    { .name = "Dimensions", .type = VT_LONG, .flags = VF_NOTNULL, .ge = 1, .has_ge = true },
    { .name = "DistanceFunction", .type = VT_STRING, .flags = VF_NOTNULL, .enums = e_dist },
    { .type = VT_END },
};
const vspec store_vix_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "VectorIndex", .fields = vix_fields };

static const vspec vdel_fields[] = {
    { .name = "IndexName", .type = VT_STRING, .flags = VF_NOTNULL | VF_NAMEPAT, .min_len = 3, .max_len = 255 },
    { .type = VT_END },
};
static const vspec vupd_fields[] = {
    { .name = "Create", .type = VT_FSTRUCT, .sub = "CreateVectorIndexAction", .fields = vix_fields },
    { .name = "Delete", .type = VT_FSTRUCT, .sub = "DeleteVectorIndexAction", .fields = vdel_fields },
    { .type = VT_END },
};
const vspec store_vix_update_elem = { .name = "member", .type = VT_VSTRUCT, .sub = "VectorIndexUpdate",
                                      .fields = vupd_fields };

/* ---- semantic checks ---- */

static const char *jstr(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const cJSON *def_of(const cJSON *defs, const char *name)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, defs) {
        const char *n = jstr(e, "AttributeName");
        if (n && name && strcmp(n, name) == 0)
            return e;
    }
    return NULL;
}

static bool on_demand(const char *billing)
{
    return billing && strcmp(billing, "PAY_PER_REQUEST") == 0;
}

/* One vector index's definition against the table's attribute
 * definitions and the other indexes (others: the descriptions of the
 * vector indexes already there, or earlier in the request). */
static status check_one(const cJSON *vx, const cJSON *defs, const cJSON *others, diag *d)
{
    const char *name = jstr(vx, "IndexName");
    const char *attr = jstr(cJSON_GetObjectItemCaseSensitive(vx, "VectorAttribute"), "AttributeName");
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(vx, "Dimensions");
    if (cJSON_IsNumber(dims) && dims->valuedouble > VEC_MAX_DIMS)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Dimensions must be"
                        " between 1 and %u. IndexName: %s", VEC_MAX_DIMS, name);
    /* A vector is a list, never a key: an attribute declared in
     * AttributeDefinitions (S, N or B) cannot hold one. */
    if (def_of(defs, attr))
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: VectorAttribute %s"
                        " must not be defined in AttributeDefinitions (it holds a list of numbers)."
                        " IndexName: %s", attr, name);
    int hashes = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(vx, "SearchSchema")) {
        /* The developer guide's troubleshooting table, word for word. */
        if (!def_of(defs, jstr(e, "AttributeName")))
            return diag_set(d, ST_VALIDATION, "One element in SearchSchema is not defined in attribute"
                            " definitions");
        hashes += strcmp(jstr(e, "SearchSchemaElementType"), "HASH") == 0;
        if (attr && strcmp(jstr(e, "AttributeName"), attr) == 0)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: the"
                            " VectorAttribute %s cannot be in the SearchSchema. IndexName: %s", attr, name);
    }
    if (hashes > 1)
        return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: a SearchSchema has at"
                        " most one HASH element. IndexName: %s", name);
    cJSON_ArrayForEach(e, others) {
        const char *on = jstr(e, "IndexName");
        if (on && strcmp(on, name) == 0)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Duplicate index"
                            " name: %s", name);
        /* CreateVectorIndexAction: "If multiple vector indexes reference
         * the same attribute, they must all use the same number of
         * dimensions." */
        const cJSON *od = cJSON_GetObjectItemCaseSensitive(e, "Dimensions");
        const char *oa = jstr(cJSON_GetObjectItemCaseSensitive(e, "VectorAttribute"), "AttributeName");
        if (oa && attr && strcmp(oa, attr) == 0 && cJSON_IsNumber(od) && cJSON_IsNumber(dims) &&
            od->valuedouble != dims->valuedouble)
            return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: vector indexes %s"
                            " and %s use the attribute %s with different Dimensions", on, name, attr);
    }
    return ST_OK;
}

/* Index names already taken by the table's secondary indexes. */
static status name_taken(const cJSON *vx, const cJSON *gsis, const cJSON *lsis, diag *d)
{
    const char *name = jstr(vx, "IndexName");
    const cJSON *lists[2] = { gsis, lsis }, *e;
    for (int i = 0; i < 2; i++)
        cJSON_ArrayForEach(e, lists[i]) {
            const char *n = jstr(e, "IndexName");
            if (n && name && strcmp(n, name) == 0)
                return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Duplicate"
                                " index name: %s", name);
        }
    return ST_OK;
}

/* "Vector indexes use on-demand capacity mode only, and they require a
 * table that also uses on-demand capacity mode" (the developer guide's
 * Requirements and limitations). AWS's wording for the refusal is not in
 * its pages: this one is ddbx's. */
static status refuse_provisioned(diag *d)
{
    return diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: vector indexes are"
                    " supported only on tables with BillingMode PAY_PER_REQUEST (on-demand)");
}

status store_vec_create_checks(const cJSON *in, diag *d)
{
    const cJSON *vixs = cJSON_GetObjectItemCaseSensitive(in, "VectorIndexes");
    if (!cJSON_IsArray(vixs) || cJSON_GetArraySize(vixs) == 0)
        return ST_OK;
    if (!on_demand(jstr(in, "BillingMode")))
        return refuse_provisioned(d);
    const cJSON *defs = cJSON_GetObjectItemCaseSensitive(in, "AttributeDefinitions");
    cJSON *seen = cJSON_CreateArray();
    status st = ST_OK;
    const cJSON *vx;
    cJSON_ArrayForEach(vx, vixs) {
        if ((st = check_one(vx, defs, seen, d)) != ST_OK ||
            (st = name_taken(vx, cJSON_GetObjectItemCaseSensitive(in, "GlobalSecondaryIndexes"),
                             cJSON_GetObjectItemCaseSensitive(in, "LocalSecondaryIndexes"), d)) != ST_OK)
            break;
        cJSON_AddItemReferenceToArray(seen, (cJSON *)vx);
    }
    cJSON_Delete(seen);
    return st;
}

/* ---- descriptions ---- */

static void add_copy(cJSON *dst, const cJSON *src, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(src, name);
    if (v && !cJSON_IsNull(v))
        cJSON_AddItemToObject(dst, name, cJSON_Duplicate(v, true));
}

/* A VectorIndexDescription as CreateTable (backfilling false: absent) or
 * UpdateTable's Create (present) makes it. */
static cJSON *vix_desc(const char *table, const cJSON *vx, bool backfilled)
{
    cJSON *o = cJSON_CreateObject();
    add_copy(o, vx, "IndexName");
    add_copy(o, vx, "SearchSchema");
    add_copy(o, vx, "Projection");
    add_copy(o, vx, "VectorAttribute");
    add_copy(o, vx, "Dimensions");
    add_copy(o, vx, "DistanceFunction");
    /* The store builds an index in the transaction that creates it: it
     * is ACTIVE at once, and an UpdateTable one reports its backfill
     * done ("reported for an index added with UpdateTable, and is absent
     * for an index created as part of CreateTable", the API reference). */
    cJSON_AddStringToObject(o, "IndexStatus", "ACTIVE");
    if (backfilled)
        cJSON_AddFalseToObject(o, "Backfilling");
    cJSON_AddNumberToObject(o, "IndexSizeBytes", 0);
    cJSON_AddNumberToObject(o, "ItemCount", 0);
    buf arn = BUF_INIT;
    buf_printf(&arn, STORE_ARN_PREFIX "%s/index/%s", table, jstr(vx, "IndexName"));
    cJSON_AddStringToObject(o, "IndexArn", arn.data);
    buf_done(&arn);
    return o;
}

/* ---- entries ---- */

/* The entry's size: its attributes at their item size, the vector at 4
 * bytes a dimension (the index keeps float32), as the emulator's model
 * of IndexSizeBytes has it (read 2026-12-06). */
static size_t entry_size(const table_def *t, const vec_index *v, const av *item)
{
    size_t n = 0;
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        bool in = strcmp(m->name, v->attr) != 0 && (v->proj == PROJ_ALL || table_def_is_key(t, NULL, m->name) ||
                                                    vec_index_schema_attr(v, m->name, m->name_len));
        for (size_t j = 0; !in && v->proj == PROJ_INCLUDE && j < v->n_include; j++)
            in = strcmp(v->include[j], m->name) == 0;
        if (in)
            n += m->name_len + size_value(&m->val);
    }
    return n + strlen(v->attr) + 4u * v->dims;
}

static void filt_enc(const vec_index *v, const av *item, buf *out)
{
    for (size_t j = 0; j < v->n_schema; j++) {
        const av *a = av_map_get(item, v->schema[j].name, strlen(v->schema[j].name));
        if (!a || a->type != v->schema[j].type) {
            uint32_t none = UINT32_MAX;
            buf_add(out, &none, 4);
            continue;
        }
        size_t at = out->len;
        uint32_t len = 0;
        buf_add(out, &len, 4);
        keyenc_append(out, a);
        len = (uint32_t)(out->len - at - 4);
        memcpy(out->data + at, &len, 4);
    }
}

status store_vec_check_item(const table_def *t, const av *item, diag *d)
{
    float *tmp = NULL;
    status st = ST_OK;
    for (size_t x = 0; st == ST_OK && x < t->n_vidx; x++) {
        const vec_index *v = &t->vidx[x];
        tmp = xrealloc(tmp, v->dims * sizeof *tmp);
        bool present;
        st = vec_of_item(v, item, tmp, &present, d);
        /* The search schema's attributes are index keys: their declared
         * type, never empty (the troubleshooting table's last rows; the
         * words are the GSI ones, which the emulator's captures match). */
        for (size_t j = 0; st == ST_OK && j < v->n_schema; j++) {
            const vec_attr *a = &v->schema[j];
            const av *val = av_map_get(item, a->name, strlen(a->name));
            if (!val)
                continue;
            if (val->type != a->type)
                st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Type mismatch for"
                              " Index Key %s Expected: %s Actual: %s IndexName: %s", a->name,
                              av_type_name(a->type), av_type_name(val->type), v->name);
            else if ((val->type == AV_S || val->type == AV_B) && val->u.s.len == 0)
                st = diag_set(d, ST_VALIDATION, "One or more parameter values are not valid. A value specified"
                              " for a secondary index key is not supported. The AttributeValue for a key"
                              " attribute cannot contain an empty %s value. IndexName: %s, IndexKey: %s",
                              val->type == AV_S ? "string" : "binary", v->name, a->name);
        }
    }
    free(tmp);
    return st;
}

static sqlite3_stmt *prep(store *s, const char *sql, diag *d)
{
    sqlite3_stmt *q = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &q, NULL) != SQLITE_OK) {
        store_sqlerr(s, d);
        return NULL;
    }
    return q;
}

static status step_done(store *s, sqlite3_stmt *q, diag *d)
{
    int rc = sqlite3_step(q);
    sqlite3_finalize(q);
    return rc == SQLITE_DONE ? ST_OK : store_sqlerr(s, d);
}

/* The table's entries changed: its version moves on (rolled back with
 * the change, if it is). */
static status bump(store *s, int64_t tid, diag *d)
{
    sqlite3_stmt *q = prep(s, "INSERT INTO vecver(tid, ver) VALUES(?1, 1)"
                              " ON CONFLICT(tid) DO UPDATE SET ver = ver + 1", d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    return step_done(s, q, d);
}

int64_t store_vec_version(store *s, int64_t tid)
{
    sqlite3_stmt *q = NULL;
    int64_t v = 0;
    if (store_vec_has(s) &&
        sqlite3_prepare_v2(s->db, "SELECT ver FROM vecver WHERE tid = ?1", -1, &q, NULL) == SQLITE_OK) {
        sqlite3_bind_int64(q, 1, tid);
        if (sqlite3_step(q) == SQLITE_ROW)
            v = sqlite3_column_int64(q, 0);
    }
    sqlite3_finalize(q);
    return v;
}

/* The entry of item (NULL: none) for index v under key k, replacing the
 * one there. */
static status put_entry(store *s, const tinfo *t, const vec_index *v, const store_key *k, const av *item,
                        diag *d)
{
    float *vec = xcalloc(v->dims, sizeof *vec);
    bool present = false;
    status st = item ? vec_of_item(v, item, vec, &present, d) : ST_OK;
    const vec_attr *h = vec_index_hash(v);
    if (st == ST_OK && present && h) {
        const av *hv = av_map_get(item, h->name, strlen(h->name));
        present = hv && hv->type == h->type;
    }
    sqlite3_stmt *q = st == ST_OK ? prep(s, "DELETE FROM vecs WHERE tid = ?1 AND vname = ?2 AND pk = ?3"
                                         " AND sk = ?4", d) : NULL;
    if (st == ST_OK && !q)
        st = d->code;
    if (q) {
        sqlite3_bind_int64(q, 1, t->id);
        sqlite3_bind_text(q, 2, v->name, -1, SQLITE_STATIC);
        sqlite3_bind_blob(q, 3, k->pk.data ? k->pk.data : "", (int)k->pk.len, SQLITE_STATIC);
        sqlite3_bind_blob(q, 4, k->sk.data ? k->sk.data : "", (int)k->sk.len, SQLITE_STATIC);
        st = step_done(s, q, d);
    }
    if (st == ST_OK && present) {
        buf filt = BUF_INIT;
        filt_enc(v, item, &filt);
        if (!(q = prep(s, "INSERT INTO vecs(tid, vname, pk, sk, size, filt, v) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                       d))) {
            st = d->code;
        } else {
            sqlite3_bind_int64(q, 1, t->id);
            sqlite3_bind_text(q, 2, v->name, -1, SQLITE_STATIC);
            sqlite3_bind_blob(q, 3, k->pk.data ? k->pk.data : "", (int)k->pk.len, SQLITE_STATIC);
            sqlite3_bind_blob(q, 4, k->sk.data ? k->sk.data : "", (int)k->sk.len, SQLITE_STATIC);
            sqlite3_bind_int64(q, 5, (int64_t)entry_size(&t->def, v, item));
            sqlite3_bind_blob(q, 6, filt.data ? filt.data : "", (int)filt.len, SQLITE_STATIC);
            sqlite3_bind_blob(q, 7, vec, (int)(v->dims * sizeof *vec), SQLITE_STATIC);
            st = step_done(s, q, d);
        }
        buf_done(&filt);
    }
    free(vec);
    return st == ST_OK ? bump(s, t->id, d) : st;
}

status store_vec_apply(store *s, const tinfo *t, const store_key *k, const av *old, const av *new_item, diag *d)
{
    status st = ST_OK;
    for (size_t x = 0; st == ST_OK && x < t->def.n_vidx; x++) {
        const vec_index *v = &t->def.vidx[x];
        size_t an = strlen(v->attr);
        bool had = old && av_map_get(old, v->attr, an), has = new_item && av_map_get(new_item, v->attr, an);
        if (had || has)
            st = put_entry(s, t, v, k, has ? new_item : NULL, d);
    }
    return st;
}

/* Index vx's entry (every index's: vx < 0) of one item, from
 * store_write.c's rebuild. */
status store_vec_backfill_item(store *s, const tinfo *t, int vx, const store_key *k, const av *item, diag *d)
{
    status st = ST_OK;
    for (size_t i = 0; st == ST_OK && i < t->def.n_vidx; i++) {
        if (vx >= 0 && (size_t)vx != i)
            continue;
        const vec_index *v = &t->def.vidx[i];
        if (!av_map_get(item, v->attr, strlen(v->attr)))
            continue;
        /* A vector the index cannot take leaves the item out (as an
         * index key violation leaves a GSI entry out). */
        float *tmp = xcalloc(v->dims, sizeof *tmp);
        bool present;
        diag ignore;
        diag_init(&ignore);
        bool ok = vec_of_item(v, item, tmp, &present, &ignore) == ST_OK;
        free(tmp);
        if (ok && present)
            st = put_entry(s, t, v, k, item, d);
    }
    return st;
}

status store_vec_drop(store *s, int64_t tid, const char *vname, diag *d)
{
    if (!store_vec_has(s))
        return ST_OK;
    sqlite3_stmt *q = prep(s, vname ? "DELETE FROM vecs WHERE tid = ?1 AND vname = ?2"
                                    : "DELETE FROM vecs WHERE tid = ?1", d);
    if (!q)
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    if (vname)
        sqlite3_bind_text(q, 2, vname, -1, SQLITE_STATIC);
    status st = step_done(s, q, d);
    if (st != ST_OK || vname)
        return st == ST_OK ? bump(s, tid, d) : st;
    if (!(q = prep(s, "DELETE FROM vecver WHERE tid = ?1", d)))   /* the table is gone */
        return d->code;
    sqlite3_bind_int64(q, 1, tid);
    return step_done(s, q, d);
}

/* DescribeTable's live ItemCount and IndexSizeBytes of each vector index. */
status store_vec_live(store *s, int64_t tid, cJSON *desc, diag *d)
{
    cJSON *list = cJSON_GetObjectItemCaseSensitive(desc, "VectorIndexes"), *e;
    if (!list || !store_vec_has(s))
        return ST_OK;
    cJSON_ArrayForEach(e, list) {
        sqlite3_stmt *q = prep(s, "SELECT count(*), coalesce(sum(size), 0) FROM vecs WHERE tid = ?1"
                                  " AND vname = ?2", d);
        if (!q)
            return d->code;
        sqlite3_bind_int64(q, 1, tid);
        sqlite3_bind_text(q, 2, jstr(e, "IndexName") ? jstr(e, "IndexName") : "", -1, SQLITE_STATIC);
        if (sqlite3_step(q) == SQLITE_ROW) {
            cJSON_ReplaceItemInObjectCaseSensitive(e, "ItemCount",
                                                   cJSON_CreateNumber((double)sqlite3_column_int64(q, 0)));
            cJSON_ReplaceItemInObjectCaseSensitive(e, "IndexSizeBytes",
                                                   cJSON_CreateNumber((double)sqlite3_column_int64(q, 1)));
        }
        sqlite3_finalize(q);
    }
    return ST_OK;
}

/* ---- UpdateTable's VectorIndexUpdates ---- */

/* Checks and applies each Create and Delete to desc (the stored
 * description) and the entries; the caller writes desc back. Everything
 * is checked before anything changes. */
status store_vec_update(store *s, tinfo *t, const cJSON *in, cJSON *desc, diag *d)
{
    const cJSON *ups = cJSON_GetObjectItemCaseSensitive(in, "VectorIndexUpdates"), *u;
    /* A table with vector indexes stays on-demand ("You cannot mix the
     * two capacity modes", the guide's Requirements and limitations). */
    if (cJSON_GetArraySize(cJSON_GetObjectItemCaseSensitive(desc, "VectorIndexes")) > 0 &&
        jstr(in, "BillingMode") && !on_demand(jstr(in, "BillingMode")))
        return refuse_provisioned(d);
    if (!cJSON_IsArray(ups) || cJSON_GetArraySize(ups) == 0)
        return ST_OK;
    const cJSON *bms = cJSON_GetObjectItemCaseSensitive(desc, "BillingModeSummary");
    const char *billing = jstr(in, "BillingMode") ? jstr(in, "BillingMode") : jstr(bms, "BillingMode");
    cJSON *defs = cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(desc, "AttributeDefinitions"), true);
    const cJSON *e;
    cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(in, "AttributeDefinitions"))
        if (!def_of(defs, jstr(e, "AttributeName")))
            cJSON_AddItemToArray(defs, cJSON_Duplicate(e, true));
    cJSON *list = cJSON_GetObjectItemCaseSensitive(desc, "VectorIndexes");
    if (!list)
        list = cJSON_AddArrayToObject(desc, "VectorIndexes");
    status st = ST_OK;
    cJSON_ArrayForEach(u, ups) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(u, "Create");
        const cJSON *del = cJSON_GetObjectItemCaseSensitive(u, "Delete");
        if (cJSON_IsObject(c)) {
            if (!on_demand(billing))
                st = refuse_provisioned(d);
            if (st == ST_OK)
                st = check_one(c, defs, list, d);
            if (st == ST_OK)
                st = name_taken(c, cJSON_GetObjectItemCaseSensitive(desc, "GlobalSecondaryIndexes"),
                                cJSON_GetObjectItemCaseSensitive(desc, "LocalSecondaryIndexes"), d);
            if (st != ST_OK)
                break;
            cJSON_AddItemToArray(list, vix_desc(t->name, c, true));
            /* Attribute definitions the new index's schema brings. */
            const cJSON *se;
            cJSON_ArrayForEach(se, cJSON_GetObjectItemCaseSensitive(c, "SearchSchema")) {
                cJSON *tdefs = cJSON_GetObjectItemCaseSensitive(desc, "AttributeDefinitions");
                const cJSON *nd = def_of(defs, jstr(se, "AttributeName"));
                if (nd && !def_of(tdefs, jstr(se, "AttributeName")))
                    cJSON_AddItemToArray(tdefs, cJSON_Duplicate(nd, true));
            }
        } else if (cJSON_IsObject(del)) {
            const char *name = jstr(del, "IndexName");
            int i = 0, at = -1;
            cJSON_ArrayForEach(e, list) {
                if (jstr(e, "IndexName") && name && strcmp(jstr(e, "IndexName"), name) == 0)
                    at = i;
                i++;
            }
            if (at < 0) {
                st = diag_set(d, ST_NOT_FOUND, "Requested resource not found: Vector index: %s not found",
                              name ? name : "");
                break;
            }
            cJSON_DeleteItemFromArray(list, at);
            if ((st = store_vec_drop(s, t->id, name, d)) != ST_OK)
                break;
        } else {
            st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: a VectorIndexUpdate"
                          " needs one of Create or Delete");
            break;
        }
    }
    if (cJSON_GetArraySize(list) == 0)
        cJSON_DeleteItemFromObjectCaseSensitive(desc, "VectorIndexes");
    cJSON_Delete(defs);
    return st;
}

/* After UpdateTable wrote the new description: build the entries of the
 * indexes it created (those whose rows are not there yet). */
status store_vec_backfill(store *s, tinfo *t, const cJSON *in, diag *d)
{
    const cJSON *u;
    status st = ST_OK;
    cJSON_ArrayForEach(u, cJSON_GetObjectItemCaseSensitive(in, "VectorIndexUpdates")) {
        const char *name = jstr(cJSON_GetObjectItemCaseSensitive(u, "Create"), "IndexName");
        for (size_t i = 0; name && st == ST_OK && i < t->def.n_vidx; i++)
            if (strcmp(t->def.vidx[i].name, name) == 0)
                st = store_rebuild_vec(s, t, (int)i, d);
    }
    return st;
}

/* ---- backups ---- */

/* A vector index's definition members (CreateTable's shape, and a
 * backup's VectorIndexInfo, the API reference's). */
static cJSON *vix_info(const cJSON *e)
{
    static const char *const members[] = { "IndexName", "SearchSchema", "Projection", "VectorAttribute",
                                            "Dimensions", "DistanceFunction" };
    cJSON *o = cJSON_CreateObject();
    for (size_t i = 0; i < sizeof members / sizeof members[0]; i++)
        add_copy(o, e, members[i]);
    return o;
}

void store_vec_restore_req(const cJSON *src, cJSON *req, cJSON *used)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(src, "VectorIndexes"), *e, *se;
    if (!cJSON_GetArraySize(list))
        return;
    cJSON *arr = cJSON_AddArrayToObject(req, "VectorIndexes");
    cJSON_ArrayForEach(e, list) {
        cJSON_AddItemToArray(arr, vix_info(e));
        cJSON_ArrayForEach(se, cJSON_GetObjectItemCaseSensitive(e, "SearchSchema")) {
            const char *n = jstr(se, "AttributeName");
            if (n && !cJSON_GetObjectItemCaseSensitive(used, n))
                cJSON_AddTrueToObject(used, n);
        }
    }
}

/* The words are the emulator's capture (read 2026-12-06). */
status store_vec_not_readable(const table_def *def, const char *index, const char *op, diag *d)
{
    if (vec_index_find(def, index))
        return diag_set(d, ST_VALIDATION, "%s operation not supported on this index type", op);
    return diag_set(d, ST_VALIDATION, "The table does not have the specified index: %s", index);
}
