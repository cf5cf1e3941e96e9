#include "model/ddbres_tables.h"

#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

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
    for (size_t i = 0; i < t->n_names; i++)
        free(t->names[i]);
    free(t->names);
    free(t->last_name);
    free(t);
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
    default:
        return ST_OK;
    }
}
