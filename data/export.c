/*
 * export — tables out, in key order, a page at a time (see export.h).
 *
 * CSV cells: a column whose attribute has one type in every item is headed
 * "name:TYPE" and its cells are plain: S the text, N the canonical number,
 * B base64, BOOL true/false, NULL null, and L, M and sets their DynamoDB
 * JSON value ({"SS":[...]}). A column with mixed types is headed "name"
 * and every cell is the DynamoDB JSON value. An absent attribute is an
 * empty cell; an empty string is "" (quoted).
 */
#include "data/export.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/schema.h"

#define PART_PAGE 256
#define ITEM_PAGE 512
#define FLUSH_AT (64 * 1024)

static const char *const format_names[] = {
    [EXPORT_JSONL] = "jsonl",
    [EXPORT_S3] = "s3",
    [EXPORT_AWS_CLI] = "aws-cli",
    [EXPORT_WORKBENCH] = "workbench",
    [EXPORT_CSV] = "csv",
    [EXPORT_PLAIN] = "plain",
};

const char *export_format_name(export_format f)
{
    if ((unsigned)f >= sizeof format_names / sizeof format_names[0])
        return "?";
    return format_names[f];
}

bool export_format_parse(const char *name, export_format *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (strcmp(name, format_names[i]) == 0) {
            *out = (export_format)i;
            return true;
        }
    if (strcmp(name, "ddb-json") == 0) {
        *out = EXPORT_JSONL;
        return true;
    }
    return false;
}

/* ---- walking the table ------------------------------------------------- */

typedef status (*item_fn)(void *ctx, const av *item, diag *d);

/* Calls fn on every item of the table or index, in key order. */
static status each_item(store *s, const char *table, const char *index,
                        item_fn fn, void *ctx, uint64_t *partitions, diag *d)
{
    part_info *parts = xcalloc(PART_PAGE, sizeof *parts);
    av *items = xcalloc(ITEM_PAGE, sizeof *items);
    size_t np = 0, ni = 0;
    av after_pk = { .type = AV_NONE }, after = { .type = AV_NONE };
    status rc = ST_OK;

    for (;;) {
        rc = store_partitions(s, table, index, after_pk.type ? &after_pk : NULL, false,
                              PART_PAGE, parts, &np, d);
        if (rc != ST_OK) {
            np = 0;
            goto out;
        }
        for (size_t i = 0; i < np; i++) {
            av_done(&after);
            for (;;) {
                rc = store_page(s, table, index, &parts[i].pk, after.type ? &after : NULL,
                                true, ITEM_PAGE, items, &ni, d);
                if (rc != ST_OK) {
                    ni = 0;
                    goto out;
                }
                for (size_t j = 0; j < ni; j++)
                    if ((rc = fn(ctx, &items[j], d)) != ST_OK)
                        goto out;
                if (ni > 0) {
                    av_done(&after);
                    av_move(&after, &items[ni - 1]);
                }
                for (size_t j = 0; j < ni; j++)
                    av_done(&items[j]);
                bool more = ni == ITEM_PAGE;
                ni = 0;
                if (!more)
                    break;
            }
            if (partitions)
                (*partitions)++;
        }
        bool more = np == PART_PAGE;
        if (np > 0) {
            av_done(&after_pk);
            av_move(&after_pk, &parts[np - 1].pk);
        }
        for (size_t i = 0; i < np; i++)
            av_done(&parts[i].pk);
        np = 0;
        if (!more)
            break;
    }
out:
    for (size_t i = 0; i < np; i++)
        av_done(&parts[i].pk);
    for (size_t j = 0; j < ni; j++)
        av_done(&items[j]);
    av_done(&after_pk);
    av_done(&after);
    free(parts);
    free(items);
    return rc;
}

/* What is exported: a whole table or index (item NULL), or the items
 * a producer gives, in its order. */
typedef struct source {
    store *s;
    const char *table, *index;
    export_item_fn item;
    void *ictx;
    size_t n;
} source;

static status walk(const source *src, item_fn fn, void *ctx, uint64_t *partitions, diag *d)
{
    if (!src->item)
        return each_item(src->s, src->table, src->index, fn, ctx, partitions, d);
    for (size_t i = 0; i < src->n; i++) {
        av it = { .type = AV_NONE };
        status rc = src->item(src->ictx, i, &it, d);
        if (rc == ST_OK && it.type == AV_M)
            rc = fn(ctx, &it, d);
        av_done(&it);
        if (rc != ST_OK)
            return rc;
    }
    return ST_OK;
}

/* ---- output ------------------------------------------------------------ */

typedef struct out {
    export_write_fn write;
    void *ctx;
    buf b;
    export_stats *st;
    export_format fmt;
    /* csv / workbench: the attributes seen (first pass) */
    struct col { char *name; av_type type; bool mixed; } *cols;
    size_t n_cols;
    const table_def *def;
    const index_def *ix;
    uint64_t n;
} out;

static status flush(out *o, bool force, diag *d)
{
    if (o->b.len == 0 || (!force && o->b.len < FLUSH_AT))
        return ST_OK;
    status rc = o->write(o->ctx, o->b.data, o->b.len, d);
    o->st->bytes += o->b.len;
    buf_reset(&o->b);
    return rc;
}

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void add_base64(buf *b, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16;
        if (i + 1 < n)
            v |= (unsigned)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        buf_addc(b, b64[(v >> 18) & 63]);
        buf_addc(b, b64[(v >> 12) & 63]);
        buf_addc(b, i + 1 < n ? b64[(v >> 6) & 63] : '=');
        buf_addc(b, i + 2 < n ? b64[v & 63] : '=');
    }
}

/* The unquoted text of a CSV cell. */
static void cell_text(buf *b, const av *v, bool typed)
{
    char numtext[NUM_TEXT_MAX];
    if (!typed) {
        ddbjson_write_value(b, v);
        return;
    }
    switch (v->type) {
    case AV_S:
        buf_add(b, v->u.s.ptr, v->u.s.len);
        break;
    case AV_N:
        buf_add(b, numtext, num_format(&v->u.n, numtext));
        break;
    case AV_B:
        add_base64(b, (const unsigned char *)v->u.s.ptr, v->u.s.len);
        break;
    case AV_BOOL:
        buf_adds(b, v->u.b ? "true" : "false");
        break;
    case AV_NULL:
        buf_adds(b, "null");
        break;
    default:
        ddbjson_write_value(b, v);
        break;
    }
}

static void csv_cell(buf *b, const char *p, size_t n, bool force_quote)
{
    bool quote = force_quote || n == 0;
    for (size_t i = 0; i < n && !quote; i++)
        if (p[i] == ',' || p[i] == '"' || p[i] == '\n' || p[i] == '\r')
            quote = true;
    if (n > 0 && (p[0] == ' ' || p[n - 1] == ' '))
        quote = true;
    if (!quote) {
        buf_add(b, p, n);
        return;
    }
    buf_addc(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"')
            buf_addc(b, '"');
        buf_addc(b, p[i]);
    }
    buf_addc(b, '"');
}

static int col_cmp(const void *a, const void *b)
{
    return strcmp(((const struct col *)a)->name, ((const struct col *)b)->name);
}

static struct col *col_find(out *o, const char *name)
{
    struct col key = { .name = (char *)name };
    if (o->n_cols == 0)
        return NULL;
    return bsearch(&key, o->cols, o->n_cols, sizeof *o->cols, col_cmp);
}

/* First pass: remember every attribute name and whether its type varies. */
static status collect(void *ctx, const av *item, diag *d)
{
    out *o = ctx;
    assert(item->type == AV_M);
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        struct col *c = col_find(o, m->name);
        if (c) {
            if (c->type != m->val.type)
                c->mixed = true;
            continue;
        }
        o->cols = xrealloc(o->cols, (o->n_cols + 1) * sizeof *o->cols);
        o->cols[o->n_cols++] = (struct col){ xstrdup(m->name), m->val.type, false };
        qsort(o->cols, o->n_cols, sizeof *o->cols, col_cmp);
    }
    return ST_OK;
}

static bool is_key_name(const out *o, const char *name, int *rank)
{
    const char *keys[4] = { o->def->pk.name, o->def->sk.name,
                            o->ix ? o->ix->pk.name : NULL, o->ix ? o->ix->sk.name : NULL };
    for (int i = 0; i < 4; i++)
        if (keys[i] && strcmp(keys[i], name) == 0) {
            *rank = i;
            return true;
        }
    return false;
}

/* The export whose columns qsort is ordering: qsort takes no context, and
 * qsort_r's arguments are in another order on macOS and the BSDs than in
 * glibc. One a thread. */
static _Thread_local const out *sorting;

/* CSV column order: key attributes first (table, then index), then the
 * rest by name. */
static int csv_order_cmp(const void *a, const void *b)
{
    const out *o = sorting;
    const struct col *x = a, *y = b;
    int rx = 9, ry = 9;
    is_key_name(o, x->name, &rx);
    is_key_name(o, y->name, &ry);
    if (rx != ry)
        return rx < ry ? -1 : 1;
    return strcmp(x->name, y->name);
}

static status write_item(void *ctx, const av *item, diag *d)
{
    out *o = ctx;
    buf *b = &o->b;
    switch (o->fmt) {
    case EXPORT_JSONL:
        ddbjson_write_item(b, item);
        buf_addc(b, '\n');
        break;
    case EXPORT_S3:
        buf_adds(b, "{\"Item\":");
        ddbjson_write_item(b, item);
        buf_adds(b, "}\n");
        break;
    case EXPORT_AWS_CLI:
    case EXPORT_WORKBENCH:
        buf_adds(b, o->n ? ",\n" : "\n");
        buf_adds(b, o->fmt == EXPORT_WORKBENCH ? "        " : "    ");
        ddbjson_write_item(b, item);
        break;
    case EXPORT_PLAIN:
        ddbjson_write_plain_item(b, item);
        buf_addc(b, '\n');
        break;
    case EXPORT_CSV: {
        buf cell = BUF_INIT;
        for (size_t i = 0; i < o->n_cols; i++) {
            const struct col *c = &o->cols[i];
            if (i)
                buf_addc(b, ',');
            const av *v = av_map_get(item, c->name, strlen(c->name));
            if (!v)
                continue;
            buf_reset(&cell);
            cell_text(&cell, v, !c->mixed);
            csv_cell(b, cell.data ? cell.data : "", cell.len,
                     v->type == AV_S && !c->mixed && v->u.s.len == 0);
        }
        buf_adds(b, "\r\n");
        buf_done(&cell);
        break;
    }
    }
    o->n++;
    o->st->items++;
    return flush(o, false, d);
}

static void add_str(buf *b, const char *s)
{
    ddbjson_write_string(b, s, strlen(s));
}

static void add_key(buf *b, const char *which, const key_attr *k)
{
    buf_printf(b, "\"%s\": {\"AttributeName\": ", which);
    add_str(b, k->name);
    buf_printf(b, ", \"AttributeType\": \"%s\"}", av_type_name(k->type));
}

static void add_keys(buf *b, const key_attr *pk, const key_attr *sk)
{
    buf_adds(b, "{");
    add_key(b, "PartitionKey", pk);
    if (sk->name) {
        buf_adds(b, ", ");
        add_key(b, "SortKey", sk);
    }
    buf_adds(b, "}");
}

/* A multi-attribute key's part (which: PartitionKey or SortKey) as an
 * array of {AttributeName, AttributeType}, in order. NoSQL Workbench's own
 * form for these keys is not published; this is ddbx's, which `ddbx load`
 * reads back (import_wb.c). */
static void add_key_list(buf *b, const char *which, const index_def *ix, bool hash)
{
    size_t n = hash ? index_def_n_hash(ix) : index_def_n_range(ix);
    buf_printf(b, "\"%s\": [", which);
    for (size_t i = 0; i < n; i++) {
        const key_attr *k = hash ? index_def_hash(ix, i) : index_def_range(ix, i);
        buf_adds(b, i ? ", {\"AttributeName\": " : "{\"AttributeName\": ");
        add_str(b, k->name);
        buf_printf(b, ", \"AttributeType\": \"%s\"}", av_type_name(k->type));
    }
    buf_adds(b, "]");
}

static void add_index_keys(buf *b, const index_def *ix)
{
    if (!index_def_multi(ix)) {
        add_keys(b, &ix->pk, &ix->sk);
        return;
    }
    buf_adds(b, "{");
    add_key_list(b, "PartitionKey", ix, true);
    if (ix->sk.name) {
        buf_adds(b, ", ");
        add_key_list(b, "SortKey", ix, false);
    }
    buf_adds(b, "}");
}

static void add_indexes(buf *b, const table_def *def, bool global)
{
    size_t n = 0;
    for (size_t i = 0; i < def->n_idx; i++) {
        const index_def *ix = &def->idx[i];
        if (ix->global != global)
            continue;
        buf_adds(b, n++ ? ",\n" : global ? "      \"GlobalSecondaryIndexes\": [\n"
                                           : "      \"LocalSecondaryIndexes\": [\n");
        buf_adds(b, "        {\"IndexName\": ");
        add_str(b, ix->name);
        buf_adds(b, ", \"KeyAttributes\": ");
        add_index_keys(b, ix);
        buf_printf(b, ", \"Projection\": {\"ProjectionType\": \"%s\"", proj_type_name(ix->proj));
        if (ix->proj == PROJ_INCLUDE) {
            buf_adds(b, ", \"NonKeyAttributes\": [");
            for (size_t j = 0; j < ix->n_include; j++) {
                if (j)
                    buf_adds(b, ", ");
                add_str(b, ix->include[j]);
            }
            buf_adds(b, "]");
        }
        buf_adds(b, "}}");
    }
    if (n)
        buf_adds(b, "\n      ],\n");
}

static void workbench_head(out *o)
{
    buf *b = &o->b;
    const table_def *def = o->def;
    char date[64] = "";
    time_t t = (time_t)def->created;
    struct tm tm;
    if (gmtime_r(&t, &tm))
        strftime(date, sizeof date, "%b %d, %Y, %I:%M %p", &tm);
    buf_adds(b, "{\n  \"ModelName\": ");
    add_str(b, def->name);
    buf_adds(b, ",\n  \"ModelMetadata\": {\n    \"Author\": \"ddbx\",\n    \"DateCreated\": ");
    add_str(b, date);
    buf_adds(b, ",\n    \"DateLastModified\": ");
    add_str(b, date);
    buf_adds(b, ",\n    \"Description\": \"Exported by ddbx export\",\n"
                "    \"AWSService\": \"Amazon DynamoDB\",\n    \"Version\": \"3.0\"\n  },\n"
                "  \"DataModel\": [\n    {\n      \"TableName\": ");
    add_str(b, def->name);
    buf_adds(b, ",\n      \"KeyAttributes\": ");
    add_keys(b, &def->pk, &def->sk);
    buf_adds(b, ",\n      \"NonKeyAttributes\": [");
    size_t n = 0;
    for (size_t i = 0; i < o->n_cols; i++) {
        const struct col *c = &o->cols[i];
        if (table_def_is_key(def, NULL, c->name))
            continue;
        buf_adds(b, n++ ? ",\n        " : "\n        ");
        buf_adds(b, "{\"AttributeName\": ");
        add_str(b, c->name);
        buf_printf(b, ", \"AttributeType\": \"%s\"}", av_type_name(c->type));
    }
    buf_adds(b, n ? "\n      ],\n" : "],\n");
    add_indexes(b, def, true);
    add_indexes(b, def, false);
    buf_adds(b, "      \"TableData\": [");
}

static void cols_free(out *o)
{
    for (size_t i = 0; i < o->n_cols; i++)
        free(o->cols[i].name);
    free(o->cols);
    o->cols = NULL;
    o->n_cols = 0;
}

static status run(const source *src, export_format fmt, export_write_fn write, void *ctx,
                  export_stats *st, diag *d)
{
    store *s = src->s;
    const char *table = src->table, *index = src->index;
    export_stats local;
    table_def def;
    status rc;
    out o;

    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    if ((rc = store_describe(s, table, &def, d)) != ST_OK)
        return rc;
    memset(&o, 0, sizeof o);
    o.write = write;
    o.ctx = ctx;
    o.st = st;
    o.fmt = fmt;
    o.def = &def;
    buf_init(&o.b);
    if (index) {
        o.ix = table_def_index(&def, index);
        if (!o.ix) {
            rc = diag_set(d, ST_VALIDATION,
                          "The table does not have the specified index: %s", index);
            goto out;
        }
        if (fmt == EXPORT_WORKBENCH) {
            rc = diag_set(d, ST_USAGE, "the Workbench format exports tables, not indexes");
            goto out;
        }
    }

    if (fmt == EXPORT_CSV || fmt == EXPORT_WORKBENCH) {
        if ((rc = walk(src, collect, &o, NULL, d)) != ST_OK)
            goto out;
    }
    if (fmt == EXPORT_CSV) {
        if (o.n_cols > 1) {
            sorting = &o;
            qsort(o.cols, o.n_cols, sizeof *o.cols, csv_order_cmp);
            sorting = NULL;
        }
        for (size_t i = 0; i < o.n_cols; i++) {
            buf h = BUF_INIT;
            buf_adds(&h, o.cols[i].name);
            if (!o.cols[i].mixed)
                buf_printf(&h, ":%s", av_type_name(o.cols[i].type));
            if (i)
                buf_addc(&o.b, ',');
            csv_cell(&o.b, h.data, h.len, false);
            buf_done(&h);
        }
        buf_adds(&o.b, "\r\n");
    } else if (fmt == EXPORT_AWS_CLI) {
        buf_adds(&o.b, "{\n  \"Items\": [");
    } else if (fmt == EXPORT_WORKBENCH) {
        workbench_head(&o);
    }

    if ((rc = walk(src, write_item, &o, &st->partitions, d)) != ST_OK)
        goto out;

    if (fmt == EXPORT_AWS_CLI) {
        buf_printf(&o.b, "%s],\n  \"Count\": %llu,\n  \"ScannedCount\": %llu,\n"
                         "  \"ConsumedCapacity\": null\n}\n", o.n ? "\n  " : "",
                   (unsigned long long)o.n, (unsigned long long)o.n);
    } else if (fmt == EXPORT_WORKBENCH) {
        buf_adds(&o.b, o.n ? "\n      ],\n" : "],\n");
        buf_adds(&o.b, "      \"DataAccess\": {\"MySql\": {}},\n"
                       "      \"BillingMode\": \"PAY_PER_REQUEST\"\n    }\n  ]\n}\n");
    }
    rc = flush(&o, true, d);
out:
    buf_done(&o.b);
    cols_free(&o);
    table_def_free(&def);
    return rc;
}

status export_table(store *s, const char *table, const char *index,
                    export_format fmt, export_write_fn write, void *ctx,
                    export_stats *st, diag *d)
{
    source src = { s, table, index, NULL, NULL, 0 };
    return run(&src, fmt, write, ctx, st, d);
}

status export_items(store *s, const char *table, export_item_fn item, void *ictx, size_t n,
                    export_format fmt, export_write_fn write, void *ctx,
                    export_stats *st, diag *d)
{
    source src = { s, table, NULL, item, ictx, n };
    return run(&src, fmt, write, ctx, st, d);
}
