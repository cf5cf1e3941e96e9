/*
 * import — sources (file formats) and sinks (the store) for loading items:
 * format names, opening a source, the streaming walk that turns captured
 * elements into items, the driver and the store sink.
 *
 * The streaming formats go through the pull scanner in import_scan.c: the
 * walk here moves over the outer structure (a top-level array, the members
 * of a page object) and has the scanner capture each item element's raw
 * text whole, which cJSON then parses on its own. Workbench models are
 * read whole by import_wb.c. import_int.h is what the three share.
 */
#include "data/import.h"
#include "data/import_int.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

static const char *const format_names[] = {
    [IMPORT_AUTO] = "auto",
    [IMPORT_DDB_JSON] = "ddb-json",
    [IMPORT_JSONL] = "jsonl",
    [IMPORT_S3] = "s3",
    [IMPORT_AWS_CLI] = "aws-cli",
    [IMPORT_BATCH] = "batch",
    [IMPORT_WORKBENCH] = "workbench",
    [IMPORT_PLAIN] = "plain",
};

const char *import_format_name(import_format f)
{
    if ((unsigned)f >= sizeof format_names / sizeof format_names[0])
        return "?";
    return format_names[f];
}

bool import_format_parse(const char *name, import_format *out)
{
    for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
        if (strcmp(name, format_names[i]) == 0) {
            *out = (import_format)i;
            return true;
        }
    return false;
}

/* ---- opening ----------------------------------------------------------- */

static import_source *source_new(const char *name, import_format fmt)
{
    import_source *src = xcalloc(1, sizeof *src);
    snprintf(src->name, sizeof src->name, "%s", name);
    src->fmt = fmt;
    src->line = 1;
    src->state = S_START;
    buf_init(&src->elem);
    buf_init(&src->scratch);
    return src;
}

static status source_start(import_source *src, diag *d)
{
    if (src->fmt == IMPORT_AUTO) {
        while (src->end - src->pos < LOOKAHEAD && import_refill(src))
            ;
        src->fmt = import_detect(src->data + src->pos, src->end - src->pos);
    }
    if (src->end - src->pos >= 3 && memcmp(src->data + src->pos, "\xEF\xBB\xBF", 3) == 0) {
        src->pos += 3;
        src->line_start = src->base + src->pos;
    }
    if (src->fmt == IMPORT_WORKBENCH)
        return import_wb_open(src, d);
    return ST_OK;
}

status import_source_open(const char *path, import_format fmt,
                          import_source **out, diag *d)
{
    *out = NULL;
    bool is_stdin = strcmp(path, "-") == 0;
    FILE *fp = is_stdin ? stdin : fopen(path, "rb");
    if (!fp) {
        snprintf(d->file, sizeof d->file, "%s", path);
        return diag_set(d, ST_IO, "cannot open: %s", strerror(errno));
    }
    struct stat st = { 0 };
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        if (!is_stdin)
            fclose(fp);
        snprintf(d->file, sizeof d->file, "%s", path);
        return diag_set(d, ST_IO, "cannot read: %s", strerror(EISDIR));
    }
    import_source *src = source_new(is_stdin ? "<stdin>" : path, fmt);
    src->fp = fp;
    src->own_fp = !is_stdin;
    src->cap = CHUNK;
    src->owned = xmalloc(src->cap);
    src->data = src->owned;
    if (S_ISREG(st.st_mode))
        src->total = (uint64_t)st.st_size;
    status rc = source_start(src, d);
    if (rc != ST_OK) {
        import_source_free(src);
        return rc;
    }
    *out = src;
    return ST_OK;
}

status import_source_open_mem(const char *name, const void *data, size_t len,
                              import_format fmt, import_source **out, diag *d)
{
    *out = NULL;
    import_source *src = source_new(name, fmt);
    src->data = data;
    src->end = len;
    src->eof = true;
    src->total = len;
    status rc = source_start(src, d);
    if (rc != ST_OK) {
        import_source_free(src);
        return rc;
    }
    *out = src;
    return ST_OK;
}

void import_source_free(import_source *src)
{
    if (!src)
        return;
    if (src->own_fp && src->fp)
        fclose(src->fp);
    free(src->owned);
    buf_done(&src->elem);
    buf_done(&src->scratch);
    free(src->member);
    free(src->wb_name);
    cJSON_Delete(src->wb);
    free(src);
}

import_format import_source_format(const import_source *src)
{
    return src->fmt;
}

/* Bytes consumed so far, and the input's size (0 when unknown: a pipe). */
static void import_source_progress(const import_source *src, uint64_t *done, uint64_t *total)
{
    *done = src->base + src->pos;
    *total = src->total;
}

bool import_source_broken(const import_source *src)
{
    return src->broken;
}

void import_event_done(import_event *ev)
{
    if (ev->kind == IMPORT_EV_ITEM)
        av_done(&ev->item);
    else if (ev->kind == IMPORT_EV_TABLE)
        table_def_free(&ev->def);
    ev->kind = IMPORT_EV_END;
}

/* ---- the streaming walk ------------------------------------------------ */

static bool paged(const import_source *src)
{
    return src->fmt == IMPORT_AWS_CLI || src->fmt == IMPORT_BATCH;
}

/* Decodes the JSON string in raw text into a malloc'd C string. */
static char *decode_string(const buf *raw)
{
    cJSON *j = cJSON_ParseWithLength(raw->data, raw->len);
    char *s = NULL;
    if (j && cJSON_IsString(j))
        s = xstrdup(j->valuestring);
    cJSON_Delete(j);
    return s;
}

/* The walk's steps, one a state. Each moves the state on, stops at an item
 * element (*at true, for next_element to capture) or breaks the source. */

/* Items one after another, or arrays of them. */
static void step_seq(import_source *src, bool *at)
{
    int c = import_peek_nonws(src);
    if (c < 0) {
        src->state = S_END;
    } else if (c == '[') {
        src->pos++;
        src->state = S_ARRAY;
        src->first_elem = true;
    } else {
        *at = true;
    }
}

/* Past the ',' before every element of an array (member of an object) but
 * the first, *first saying which this is; *c the next character, then the
 * one after the ','. No ',': the source is broken, with the message end at
 * the end of the input, else sep. */
static status past_separator(import_source *src, bool *first, int *c, const char *end,
                             const char *sep, diag *d)
{
    if (!*first) {
        if (*c != ',')
            return import_broken_here(src, d, *c < 0 ? end : sep, NULL);
        src->pos++;
        *c = import_peek_nonws(src);
    }
    *first = false;
    return ST_OK;
}

/* Inside a top-level array of items, or the array value of a page member. */
static status step_array(import_source *src, bool *at, diag *d)
{
    int c = import_peek_nonws(src);
    if (c == ']') {
        src->pos++;
        if (src->state == S_ARRAY) {
            src->state = S_SEQ;
        } else {
            src->state = S_MEMBERS;
            src->first_member = false;
        }
        return ST_OK;
    }
    status rc = past_separator(src, &src->first_elem, &c, "unexpected end of input inside an array%s",
                               "expected ',' or ']' after an array element%s", d);
    if (rc != ST_OK)
        return rc;
    if (c < 0)
        return import_broken_here(src, d, "unexpected end of input inside an array%s", NULL);
    *at = true;
    return ST_OK;
}

/* Between page objects, which may also come as one array of pages
 * (`jq -s`). */
static status step_pages(import_source *src, diag *d)
{
    int c = import_peek_nonws(src);
    if (c < 0) {
        if (src->pages_in_array)
            return import_broken_here(src, d, "unexpected end of input inside an array%s",
                                      NULL);
        src->state = S_END;
        return ST_OK;
    }
    if (!src->pages_in_array && c == '[') {
        src->pos++;
        src->pages_in_array = true;
        src->first_page = true;
        return ST_OK;
    }
    if (src->pages_in_array) {
        if (c == ']') {
            src->pos++;
            src->pages_in_array = false;
            return ST_OK;
        }
        const char *msg = "expected ',' or ']' after a page%s";   /* the end was seen above */
        status rc = past_separator(src, &src->first_page, &c, msg, msg, d);
        if (rc != ST_OK)
            return rc;
    }
    if (c != '{')
        return import_broken_here(src, d, "expected '{' starting %s",
            src->fmt == IMPORT_BATCH ? "a BatchWriteItem request ({\"Table\": [...]})"
                                     : "a scan/query output page ({\"Items\": [...]})");
    src->pos++;
    src->state = S_MEMBERS;
    src->first_member = true;
    return ST_OK;
}

/* Inside a page object, between members: the items member (every member
 * of a batch request) opens its array, any other is skipped. */
static status step_members(import_source *src, diag *d)
{
    status rc;
    int c = import_peek_nonws(src);
    if (c == '}') {
        src->pos++;
        src->state = S_PAGES;
        return ST_OK;
    }
    if ((rc = past_separator(src, &src->first_member, &c, "unexpected end of input inside an object%s",
                             "expected ',' or '}' after an object member%s", d)) != ST_OK)
        return rc;
    if (c != '"')
        return import_broken_here(src, d, "expected a member name%s", NULL);
    if ((rc = import_capture(src, &src->scratch, d)) != ST_OK)
        return rc;
    free(src->member);
    src->member = decode_string(&src->scratch);
    if (!src->member)
        return import_broken_here(src, d, "bad member name%s", NULL);
    if ((rc = import_expect(src, ':', "':'", d)) != ST_OK)
        return rc;
    c = import_peek_nonws(src);
    if (c < 0)
        return import_broken_here(src, d, "unexpected end of input: expected a value%s", NULL);
    bool items = src->fmt == IMPORT_BATCH || strcmp(src->member, "Items") == 0;
    if (!items)
        return import_capture(src, &src->scratch, d);
    if (c != '[')
        return import_broken_here(src, d, "the value of \"%s\" must be an array",
                                  src->member);
    src->pos++;
    src->state = S_MEMBER_ARR;
    src->first_elem = true;
    return ST_OK;
}

/*
 * Moves to the next item element and captures it into src->elem, with
 * where it starts. *got false at the end of the input.
 */
static status next_element(import_source *src, bool *got, int *line, int *col, diag *d)
{
    *got = false;
    for (;;) {
        bool at = false;
        status rc = ST_OK;
        switch (src->state) {
        case S_START:
            src->state = paged(src) ? S_PAGES : S_SEQ;
            break;
        case S_SEQ:
            step_seq(src, &at);
            break;
        case S_ARRAY:
        case S_MEMBER_ARR:
            rc = step_array(src, &at, d);
            break;
        case S_PAGES:
            rc = step_pages(src, d);
            break;
        case S_MEMBERS:
            rc = step_members(src, d);
            break;
        case S_END:
            return ST_OK;
        default:
            assert(!"bad state");
            return ST_INTERNAL;
        }
        if (rc != ST_OK)
            return rc;
        if (!at)
            continue;
        *line = src->line;
        *col = import_col_at(src, src->pos);
        if ((rc = import_capture(src, &src->elem, d)) != ST_OK)
            return rc;
        *got = true;
        return ST_OK;
    }
}

/* An error in the element at (line, col): item-level, the source goes on. */
static status elem_error(import_source *src, diag *d, status code, int line, int col,
                         const char *fmt, const char *arg)
{
    snprintf(d->file, sizeof d->file, "%s", src->name);
    d->line = line;
    d->col = col;
    char msg[sizeof d->msg];
    snprintf(msg, sizeof msg, fmt, arg ? arg : "");
    return diag_set(d, code, "item %llu: %s", (unsigned long long)src->index + 1, msg);
}

/* Prefixes an av/ddbjson diagnostic with the item's place. */
static status item_diag(import_source *src, diag *d, status code, int line, int col)
{
    char msg[sizeof d->msg];
    snprintf(msg, sizeof msg, "%s", d->msg);
    snprintf(d->file, sizeof d->file, "%s", src->name);
    d->line = line;
    d->col = col;
    return diag_set(d, code, "item %llu: %s", (unsigned long long)src->index + 1, msg);
}

/* The item inside a parsed element, by format. */
static const cJSON *element_item(import_source *src, const cJSON *j, const char **why)
{
    if (!cJSON_IsObject(j)) {
        *why = "not a JSON object";
        return NULL;
    }
    switch (src->fmt) {
    case IMPORT_S3: {
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(j, "Item");
        if (!cJSON_IsObject(it)) {
            *why = "no \"Item\" object (an S3 export line is {\"Item\": {...}})";
            return NULL;
        }
        return it;
    }
    case IMPORT_BATCH: {
        const cJSON *put = cJSON_GetObjectItemCaseSensitive(j, "PutRequest");
        if (!put) {
            *why = cJSON_GetObjectItemCaseSensitive(j, "DeleteRequest")
                ? "DeleteRequest is not supported by load (only PutRequest)"
                : "not a write request (expected {\"PutRequest\": {\"Item\": {...}}})";
            return NULL;
        }
        const cJSON *it = cJSON_GetObjectItemCaseSensitive(put, "Item");
        if (!cJSON_IsObject(it)) {
            *why = "PutRequest without an \"Item\" object";
            return NULL;
        }
        return it;
    }
    default:
        return j;
    }
}


status import_source_next(import_source *src, import_event *ev, diag *d)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = IMPORT_EV_END;
    if (src->broken) {
        *d = src->broken_diag;
        return d->code;
    }
    if (src->fmt == IMPORT_WORKBENCH)
        return import_wb_next(src, ev, d);

    bool got;
    int line = 0, col = 0;
    status rc = next_element(src, &got, &line, &col, d);
    if (src->read_err) {
        rc = import_broken_here(src, d, "read error: %s", strerror(src->read_err));
        d->code = src->broken_diag.code = ST_IO;
        return ST_IO;
    }
    if (rc != ST_OK || !got)
        return rc;

    uint64_t index = src->index;
    const char *text = src->elem.data;
    size_t len = src->elem.len;
    const char *end = NULL, *bad_why = NULL;
    size_t bad = 0;
    if (src->elem_text_check && import_bad_text(text, len, &bad, &bad_why)) {
        int el = line, ec = col;
        import_locate(text, bad, &el, &ec);
        rc = elem_error(src, d, ST_PARSE, el, ec, "%s", bad_why);
        src->index++;
        return rc;
    }
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!j) {
        int el = line, ec = col;
        size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        import_locate(text, off, &el, &ec);
        rc = elem_error(src, d, ST_PARSE, el, ec, "invalid JSON%s", NULL);
        src->index++;
        return rc;
    }
    const char *why = NULL;
    const cJSON *it = element_item(src, j, &why);
    if (!it) {
        rc = elem_error(src, d, ST_VALIDATION, line, col, "%s", why);
    } else if (src->fmt == IMPORT_PLAIN) {
        /* Types are inferred from the text (numbers stay exact). */
        rc = ddbjson_parse_plain_item(text, len, &ev->item, d);
        if (rc != ST_OK)
            rc = item_diag(src, d, rc, line, col);
    } else {
        rc = ddbjson_item_from_cjson(it, NULL, &ev->item, d);
        if (rc != ST_OK)
            rc = item_diag(src, d, rc, line, col);
    }
    cJSON_Delete(j);
    src->index++;
    if (rc != ST_OK) {
        av_done(&ev->item);
        return rc;
    }
    ev->kind = IMPORT_EV_ITEM;
    ev->table = src->fmt == IMPORT_BATCH ? src->member : NULL;
    ev->index = index;
    ev->line = line;
    ev->col = col;
    return ST_OK;
}

/* ---- the driver -------------------------------------------------------- */

static void stats_update(import_source *src, import_stats *st)
{
    import_source_progress(src, &st->bytes, &st->total);
    st->format = src->fmt;
    st->lossy = src->fmt == IMPORT_PLAIN;
}

/* A bad item that may be skipped (the source can go on past it): with
 * skip_bad it is counted and told (on_skip), and true says go on; false:
 * the run stops on it. */
static bool skip_bad(const import_opts *o, bool skippable, import_stats *st, const diag *ed)
{
    if (!o->skip_bad || !skippable)
        return false;
    st->skipped++;
    if (o->on_skip)
        o->on_skip(o->cb_ctx, ed);
    return true;
}

status import_run(import_source *src, const import_sink *sink,
                  const import_opts *o, import_stats *st, diag *d)
{
    static const import_opts none = { 0 };
    import_stats local;
    status rc = ST_OK;
    bool ok = true;
    if (!o)
        o = &none;
    if (!st)
        st = &local;
    memset(st, 0, sizeof *st);
    stats_update(src, st);

    if (sink->begin && (rc = sink->begin(sink->ctx, d)) != ST_OK)
        return rc;
    for (;;) {
        import_event ev;
        diag ed;
        diag_init(&ed);
        rc = import_source_next(src, &ev, &ed);
        if (rc != ST_OK) {
            if (skip_bad(o, !import_source_broken(src), st, &ed))
                continue;
            *d = ed;
            ok = false;
            break;
        }
        if (ev.kind == IMPORT_EV_END)
            break;
        if (ev.kind == IMPORT_EV_TABLE) {
            rc = sink->table ? sink->table(sink->ctx, &ev.def, d) : ST_OK;
            import_event_done(&ev);
            if (rc != ST_OK) {
                ok = false;
                break;
            }
            st->tables++;
            continue;
        }
        const char *table = ev.table ? ev.table : o->table;
        if (!table) {
            import_event_done(&ev);
            snprintf(d->file, sizeof d->file, "%s", src->name);
            rc = diag_set(d, ST_USAGE, "%s input does not name a table: give one (--table)",
                          import_format_name(src->fmt));
            ok = false;
            break;
        }
        rc = sink->item ? sink->item(sink->ctx, table, &ev.item, &ed) : ST_OK;
        if (rc != ST_OK) {
            char msg[sizeof ed.msg];
            snprintf(msg, sizeof msg, "%s", ed.msg);
            snprintf(ed.file, sizeof ed.file, "%s", src->name);
            ed.line = ev.line;
            ed.col = ev.col;
            diag_set(&ed, rc, "item %llu: %s", (unsigned long long)ev.index + 1, msg);
        }
        import_event_done(&ev);
        if (rc != ST_OK) {
            /* A store failure other than a bad item (a missing table, a
             * full disk) stops the run even with skip_bad. */
            if (skip_bad(o, rc == ST_VALIDATION, st, &ed))
                continue;
            *d = ed;
            ok = false;
            break;
        }
        st->items++;
        if ((st->items & 4095) == 0 && o->on_progress) {
            stats_update(src, st);
            o->on_progress(o->cb_ctx, st);
        }
    }
    stats_update(src, st);
    if (sink->end) {
        diag ed;
        diag_init(&ed);
        status erc = sink->end(sink->ctx, ok, &ed);
        if (ok && erc != ST_OK) {
            *d = ed;
            rc = erc;
            ok = false;
        }
    }
    if (o->on_progress)
        o->on_progress(o->cb_ctx, st);
    return ok ? ST_OK : rc;
}

/* ---- the store sink ---------------------------------------------------- */

static status store_sink_begin(void *ctx, diag *d)
{
    import_store_ctx *c = ctx;
    status rc = store_begin(c->s, d);
    c->in_txn = rc == ST_OK;
    return rc;
}

static status store_sink_table(void *ctx, const table_def *def, diag *d)
{
    import_store_ctx *c = ctx;
    table_def old;
    diag dd;
    diag_init(&dd);
    status rc = store_describe(c->s, def->name, &old, &dd);
    if (rc == ST_OK) {
        table_def_free(&old);
        if (!c->replace)
            return diag_set(d, ST_IN_USE,
                            "Table already exists: %s (load with --replace to recreate it)",
                            def->name);
        if ((rc = store_delete_table(c->s, def->name, d)) != ST_OK)
            return rc;
    }
    return store_create_table(c->s, def, d);
}

static status store_sink_item(void *ctx, const char *table, const av *item, diag *d)
{
    import_store_ctx *c = ctx;
    return store_put_item(c->s, table, item, d);
}

static status store_sink_end(void *ctx, bool ok, diag *d)
{
    import_store_ctx *c = ctx;
    if (!c->in_txn)
        return ST_OK;
    c->in_txn = false;
    if (!ok) {
        store_rollback(c->s);
        return ST_OK;
    }
    status rc = store_commit(c->s, d);
    if (rc != ST_OK)
        store_rollback(c->s);
    return rc;
}

void import_store_sink(import_store_ctx *ctx, store *s, bool replace, import_sink *sink)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->s = s;
    ctx->replace = replace;
    memset(sink, 0, sizeof *sink);
    sink->ctx = ctx;
    sink->begin = store_sink_begin;
    sink->table = store_sink_table;
    sink->item = store_sink_item;
    sink->end = store_sink_end;
}
