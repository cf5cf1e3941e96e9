/*
 * ddbres_meta — the typed answers of ListTagsOfResource, the
 * resource-policy operations and ListStreams, and their printer (see
 * ddbres_meta.h).
 */
#include "model/ddbres_meta.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* ,"name":"s" (no comma when first). */
static void member(buf *out, const char *name, const char *s, bool first)
{
    if (!first)
        buf_addc(out, ',');
    buf_addc(out, '"');
    buf_adds(out, name);
    buf_adds(out, "\":");
    ddbjson_write_string(out, s, strlen(s));
}

/* Room for one more element of size in *v (n used, *cap allocated). */
static void *room(void *v, size_t n, size_t *cap, size_t size)
{
    if (n < *cap)
        return v;
    *cap = *cap ? *cap * 2 : 8;
    return xrealloc(v, *cap * size);
}

void ddbres_tags_add(ddb_tags_res *r, const char *key, const char *value)
{
    r->tags = room(r->tags, r->n, &r->cap, sizeof *r->tags);
    r->tags[r->n++] = (ddb_tag){xstrdup(key), xstrdup(value)};
}

void ddbres_tags_done(ddb_tags_res *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->tags[i].key);
        free(r->tags[i].value);
    }
    free(r->tags);
    *r = (ddb_tags_res)DDB_TAGS_RES_INIT;
}

void ddbres_tags_json(const ddb_tags_res *r, buf *out)
{
    buf_adds(out, "{\"Tags\":[");
    for (size_t i = 0; i < r->n; i++) {
        buf_adds(out, i ? ",{" : "{");
        member(out, "Key", r->tags[i].key, true);
        member(out, "Value", r->tags[i].value, false);
        buf_addc(out, '}');
    }
    buf_adds(out, "]}");
}

void ddbres_policy_json(const ddb_policy_res *r, buf *out)
{
    buf_addc(out, '{');
    if (r->policy)
        member(out, "Policy", r->policy, true);
    member(out, "RevisionId", r->revision, !r->policy);
    buf_addc(out, '}');
}

void ddbres_streams_list_add(ddb_streams_list *r, const char *arn, const char *label, const char *table)
{
    r->streams = room(r->streams, r->n, &r->cap, sizeof *r->streams);
    r->streams[r->n++] = (ddb_stream_summary){xstrdup(arn), xstrdup(label), xstrdup(table)};
}

void ddbres_streams_list_done(ddb_streams_list *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->streams[i].arn);
        free(r->streams[i].label);
        free(r->streams[i].table);
    }
    free(r->streams);
    free(r->last);
    *r = (ddb_streams_list)DDB_STREAMS_LIST_INIT;
}

void ddbres_streams_list_json(const ddb_streams_list *r, buf *out)
{
    buf_adds(out, "{\"Streams\":[");
    for (size_t i = 0; i < r->n; i++) {
        buf_adds(out, i ? ",{" : "{");
        member(out, "StreamArn", r->streams[i].arn, true);
        member(out, "StreamLabel", r->streams[i].label, false);
        member(out, "TableName", r->streams[i].table, false);
        buf_addc(out, '}');
    }
    buf_addc(out, ']');
    if (r->last)
        member(out, "LastEvaluatedStreamArn", r->last, false);
    buf_addc(out, '}');
}

void ddbres_stmt_done(ddb_stmt_res *r)
{
    free(r->message);
    free(r->extra);
    free(r->table);
    for (size_t i = 0; i < r->n_items; i++)
        av_done(&r->items[i]);
    free(r->items);
}

static void stmt_json(const ddb_stmt_res *r, buf *out)
{
    buf_addc(out, '{');
    if (r->code) {
        buf_adds(out, "\"Error\":{");
        member(out, "Code", r->code, true);
        member(out, "Message", r->message ? r->message : "", false);
        if (r->extra) {
            buf_addc(out, ',');
            buf_adds(out, r->extra);
        }
        buf_addc(out, '}');
    }
    if (r->table) {
        member(out, "TableName", r->table, !r->code);
        if (r->n_items) {
            buf_adds(out, ",\"Item\":");
            for (size_t j = 0; j < r->n_items; j++) {
                if (j)
                    buf_addc(out, ',');
                ddbjson_write_item(out, &r->items[j]);
            }
        }
    }
    buf_addc(out, '}');
}

void ddbres_batch_stmt_open(const ddb_stmt_res *r, size_t n, buf *out)
{
    buf_adds(out, "{\"Responses\":[");
    for (size_t i = 0; i < n; i++) {
        if (i)
            buf_addc(out, ',');
        stmt_json(&r[i], out);
    }
    buf_addc(out, ']');
}
