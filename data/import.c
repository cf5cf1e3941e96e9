/*
 * import — sources (file formats) and sinks (the store) for loading items.
 *
 * The streaming formats go through a small pull scanner over a refilled
 * buffer: it walks the outer structure (a top-level array, the members of
 * a page object) token by token and captures each item element's raw text
 * whole (balanced brackets, strings honoured), which cJSON then parses on
 * its own. Memory is one buffer plus the largest element.
 */
#include "data/import.h"

#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

#define CHUNK (256 * 1024)
#define LOOKAHEAD (64 * 1024)
#define MAX_DEPTH 128            /* DynamoDB allows 32 levels of nesting */

enum {
    S_START,      /* nothing read yet */
    S_SEQ,        /* items one after another (or arrays of them) */
    S_ARRAY,      /* inside a top-level array of items */
    S_PAGES,      /* page/request objects one after another */
    S_MEMBERS,    /* inside a page object, between members */
    S_MEMBER_ARR, /* inside the array value of a page member */
    S_WB,         /* Workbench: emitting from the parsed model */
    S_END,
};

struct import_source {
    char name[256];
    FILE *fp;
    bool own_fp;
    unsigned char *owned;        /* file buffer (NULL for memory sources) */
    const unsigned char *data;
    size_t pos, end, cap;
    uint64_t base;               /* input offset of data[0] */
    bool eof;
    int read_err;                /* errno of a failed read, 0 if none */
    int line;
    uint64_t line_start;         /* input offset where the current line starts */
    uint64_t total;

    import_format fmt;
    int state;
    bool first_elem, first_member;
    bool pages_in_array, first_page;   /* paged formats: [page, page] */
    bool broken;
    diag broken_diag;
    uint64_t index;              /* items produced (or failed) so far */
    buf elem, scratch;
    /* The captured element holds a backslash, NUL or non-ASCII byte: it
     * needs bad_text's check (plain ASCII without escapes cannot fail it). */
    bool elem_text_check;
    char *member;                /* current page member name (batch: table) */

    /* Workbench */
    cJSON *wb;
    int wb_table, wb_item;
    bool wb_items;               /* tables emitted; now items */
    char *wb_name;
};

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

/* ---- input buffer ------------------------------------------------------ */

/* Moves the unread bytes to the front and reads more. False at the end. */
static bool refill(import_source *src)
{
    if (src->eof || !src->fp)
        return false;
    if (src->pos > 0) {
        memmove(src->owned, src->owned + src->pos, src->end - src->pos);
        src->base += src->pos;
        src->end -= src->pos;
        src->pos = 0;
    }
    if (src->end == src->cap) {
        src->cap *= 2;
        src->owned = xrealloc(src->owned, src->cap);
        src->data = src->owned;
    }
    size_t n = fread(src->owned + src->end, 1, src->cap - src->end, src->fp);
    if (n == 0) {
        /* A read error must not pass for the end of the input. */
        if (ferror(src->fp))
            src->read_err = errno ? errno : EIO;
        src->eof = true;
        return false;
    }
    src->end += n;
    return true;
}

static int col_at(const import_source *src, size_t i)
{
    return (int)(src->base + i - src->line_start) + 1;
}

static status fail_broken(import_source *src, diag *d, int line, int col,
                          const char *fmt, const char *arg)
{
    diag_init(&src->broken_diag);
    snprintf(src->broken_diag.file, sizeof src->broken_diag.file, "%s", src->name);
    src->broken_diag.line = line;
    src->broken_diag.col = col;
    diag_set(&src->broken_diag, ST_PARSE, fmt, arg ? arg : "");
    src->broken = true;
    *d = src->broken_diag;
    return ST_PARSE;
}

static status broken_here(import_source *src, diag *d, const char *fmt, const char *arg)
{
    return fail_broken(src, d, src->line, col_at(src, src->pos), fmt, arg);
}

/* Skips white space; the next byte, or -1 at the end of the input. */
static int peek_nonws(import_source *src)
{
    for (;;) {
        while (src->pos < src->end) {
            unsigned char c = src->data[src->pos];
            if (c == '\n') {
                src->pos++;
                src->line++;
                src->line_start = src->base + src->pos;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                src->pos++;
            } else {
                return c;
            }
        }
        if (!refill(src))
            return -1;
    }
}

/* The bytes capture must look at inside a string, and outside one. */
/* The bytes capture must look at inside a string, and outside one; NUL
 * and non-ASCII bytes stop it too (2), so that only elements holding
 * them pay for the UTF-8 check. */
#define HI8 [0x80 ... 0xFF] = 2
static const unsigned char str_stop[256] = { [0] = 2, ['"'] = 1, ['\\'] = 1, ['\n'] = 1, HI8 };
static const unsigned char out_stop[256] = {
    [0] = 2, ['"'] = 1, ['{'] = 1, ['['] = 1, ['}'] = 1, [']'] = 1, ['\n'] = 1, HI8,
};
#undef HI8

static bool is_delim(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ',' ||
           c == ']' || c == '}' || c == '[' || c == '{' || c == '"' || c == ':';
}

/*
 * Captures the JSON value at the current (non-space) position into out,
 * raw. Brackets must balance and nest properly and strings must close;
 * everything else is cJSON's to judge.
 */
static status capture(import_source *src, buf *out, diag *d)
{
    char stack[MAX_DEPTH];
    int depth = 0;
    bool in_str = false, esc = false;
    int line0 = src->line, col0 = col_at(src, src->pos);
    unsigned char c0 = src->data[src->pos];
    bool scalar = c0 != '{' && c0 != '[' && c0 != '"';

    buf_reset(out);
    src->elem_text_check = scalar;
    if (scalar && is_delim(c0)) {
        /* '}', ']', ',' or ':' where a value must start: nothing to
         * capture, and no way to resynchronise. */
        char what[2] = { (char)c0, '\0' };
        return broken_here(src, d, "unexpected '%s' where a value should start", what);
    }
    for (;;) {
        const unsigned char *p = src->data;
        size_t i = src->pos, e = src->end;
        bool done = false;
        while (i < e && !done) {
            if (scalar) {
                if (is_delim(p[i]))
                    break;
                i++;
                continue;
            }
            if (esc) {                 /* the byte after a backslash */
                esc = false;
                if (p[i] == '\n') {
                    src->line++;
                    src->line_start = src->base + i + 1;
                }
                i++;
                continue;
            }
            /* Skip the bytes that cannot change the state, fast. */
            const unsigned char *stop = in_str ? str_stop : out_stop;
            while (i < e && !stop[p[i]])
                i++;
            if (i == e)
                break;
            unsigned char c = p[i];
            if (stop[c] == 2) {
                src->elem_text_check = true;
            } else if (c == '\n') {
                src->line++;
                src->line_start = src->base + i + 1;
            } else if (in_str) {
                if (c == '\\') {
                    esc = true;
                    src->elem_text_check = true;
                } else {               /* the closing quote */
                    in_str = false;
                    done = depth == 0;
                }
            } else if (c == '"') {
                in_str = true;
            } else if (c == '{' || c == '[') {
                if (depth == MAX_DEPTH) {
                    buf_add(out, p + src->pos, i - src->pos);
                    src->pos = i;
                    return broken_here(src, d, "nesting deeper than %s levels", "128");
                }
                stack[depth++] = (char)c;
            } else {                   /* '}' or ']' */
                if (depth == 0 || stack[depth - 1] != (c == '}' ? '{' : '[')) {
                    buf_add(out, p + src->pos, i - src->pos);
                    src->pos = i;
                    return broken_here(src, d, "unexpected '%s'", c == '}' ? "}" : "]");
                }
                depth--;
                done = depth == 0;
            }
            i++;
        }
        buf_add(out, p + src->pos, i - src->pos);
        src->pos = i;
        if (done || (scalar && i < e))
            return ST_OK;
        if (!refill(src)) {
            if (scalar)
                return ST_OK;
            char where[64];
            snprintf(where, sizeof where, "%d:%d", line0, col0);
            return broken_here(src, d,
                "unexpected end of input: the value that starts at %s is not closed",
                where);
        }
    }
}

/* Expects byte c (after white space) and consumes it. */
static status expect(import_source *src, int c, const char *what, diag *d)
{
    int got = peek_nonws(src);
    if (got != c)
        return broken_here(src, d, got < 0 ? "unexpected end of input: expected %s"
                                           : "expected %s", what);
    src->pos++;
    return ST_OK;
}

/* ---- format detection -------------------------------------------------- */

typedef struct look {
    const unsigned char *p;
    size_t i, n;
} look;

static int lk_ws(look *l)
{
    while (l->i < l->n && (l->p[l->i] == ' ' || l->p[l->i] == '\t' ||
                           l->p[l->i] == '\r' || l->p[l->i] == '\n'))
        l->i++;
    return l->i < l->n ? l->p[l->i] : -1;
}

/* At '"': the raw string body in [*s, *s + *len); false if it does not end
 * in the window. Leaves l after the closing quote. */
static bool lk_str(look *l, const unsigned char **s, size_t *len)
{
    size_t j = l->i + 1;
    while (j < l->n && l->p[j] != '"') {
        if (l->p[j] == '\\')
            j++;
        j++;
    }
    if (j >= l->n)
        return false;
    *s = l->p + l->i + 1;
    *len = j - l->i - 1;
    l->i = j + 1;
    return true;
}

static bool lk_is(const unsigned char *s, size_t len, const char *word)
{
    return strlen(word) == len && memcmp(s, word, len) == 0;
}

/* At '{': reads the first member name and moves to its value's first byte.
 * Returns that byte, -2 for an empty object, -1 when undecidable. */
static int lk_first_member(look *l, const unsigned char **key, size_t *klen)
{
    l->i++;
    int c = lk_ws(l);
    if (c == '}')
        return -2;
    if (c != '"' || !lk_str(l, key, klen))
        return -1;
    if (lk_ws(l) != ':')
        return -1;
    l->i++;
    return lk_ws(l);
}

static bool lk_type_word(const unsigned char *s, size_t len)
{
    static const char *const types[] = { "S", "N", "B", "BOOL", "NULL", "L", "M",
                                         "SS", "NS", "BS" };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (lk_is(s, len, types[i]))
            return true;
    return false;
}

/* At '{' of an item: does it look like DynamoDB JSON ({"a": {"S": ...}})? */
static bool lk_ddb_item(look *l)
{
    const unsigned char *k;
    size_t kl;
    int v = lk_first_member(l, &k, &kl);
    if (v == -2 || v == -1)
        return true;           /* empty or undecidable: the strict reading */
    if (v != '{')
        return false;
    v = lk_first_member(l, &k, &kl);
    return v == -1 || (v != -2 && lk_type_word(k, kl));
}

/* At the '{' after "Item": is it an item ({"PK": {"S": ...}}) rather
 * than the value of an attribute named Item ({"S": "..."})? */
static bool lk_s3_item(look *l)
{
    const unsigned char *k;
    size_t kl;
    int v = lk_first_member(l, &k, &kl);
    return v == -1 || v == -2 || (v == '{' && !lk_type_word(k, kl));
}

static import_format detect(const unsigned char *p, size_t n)
{
    look l = { p, 0, n };
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        l.i = 3;
    int c = lk_ws(&l);
    if (c == '[') {
        l.i++;
        c = lk_ws(&l);
        if (c != '{')
            return IMPORT_DDB_JSON;
        /* An array of S3 export lines or of scan pages (`jq -s`), or of
         * items. */
        look first = l;
        const unsigned char *k;
        size_t kl;
        int v = lk_first_member(&first, &k, &kl);
        if (v == '{' && lk_is(k, kl, "Item") && lk_s3_item(&first))
            return IMPORT_S3;
        if (v >= 0 && (lk_is(k, kl, "Items") || lk_is(k, kl, "Count") ||
                       lk_is(k, kl, "ScannedCount") || lk_is(k, kl, "ConsumedCapacity")))
            return IMPORT_AWS_CLI;
        return lk_ddb_item(&l) ? IMPORT_DDB_JSON : IMPORT_PLAIN;
    }
    if (c != '{')
        return IMPORT_DDB_JSON;
    look save = l;
    const unsigned char *k;
    size_t kl;
    int v = lk_first_member(&l, &k, &kl);
    if (v == -2 || v == -1)
        return IMPORT_JSONL;
    if (lk_is(k, kl, "ModelName") || lk_is(k, kl, "ModelMetadata") ||
        lk_is(k, kl, "DataModel"))
        return IMPORT_WORKBENCH;
    if (lk_is(k, kl, "Items") || lk_is(k, kl, "Count") || lk_is(k, kl, "ScannedCount") ||
        lk_is(k, kl, "LastEvaluatedKey") || lk_is(k, kl, "ConsumedCapacity"))
        return IMPORT_AWS_CLI;
    if (lk_is(k, kl, "Item") && v == '{' && lk_s3_item(&l))
        return IMPORT_S3;
    if (v == '[') {
        l.i++;
        if (lk_ws(&l) == '{') {
            int w = lk_first_member(&l, &k, &kl);
            if (w != -1 && w != -2 &&
                (lk_is(k, kl, "PutRequest") || lk_is(k, kl, "DeleteRequest")))
                return IMPORT_BATCH;
        }
        return IMPORT_PLAIN;
    }
    return lk_ddb_item(&save) ? IMPORT_JSONL : IMPORT_PLAIN;
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

static status wb_open(import_source *src, diag *d);

static status source_start(import_source *src, diag *d)
{
    if (src->fmt == IMPORT_AUTO) {
        while (src->end - src->pos < LOOKAHEAD && refill(src))
            ;
        src->fmt = detect(src->data + src->pos, src->end - src->pos);
    }
    if (src->end - src->pos >= 3 && memcmp(src->data + src->pos, "\xEF\xBB\xBF", 3) == 0) {
        src->pos += 3;
        src->line_start = src->base + src->pos;
    }
    if (src->fmt == IMPORT_WORKBENCH)
        return wb_open(src, d);
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

void import_source_progress(const import_source *src, uint64_t *done, uint64_t *total)
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
        av_free(&ev->item);
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

/*
 * Moves to the next item element and captures it into src->elem, with
 * where it starts. *got false at the end of the input.
 */
static status next_element(import_source *src, bool *got, int *line, int *col, diag *d)
{
    int c;
    status rc;
    *got = false;
    for (;;) {
        switch (src->state) {
        case S_START:
            src->state = paged(src) ? S_PAGES : S_SEQ;
            continue;
        case S_SEQ:
            c = peek_nonws(src);
            if (c < 0) {
                src->state = S_END;
                continue;
            }
            if (c == '[') {
                src->pos++;
                src->state = S_ARRAY;
                src->first_elem = true;
                continue;
            }
            break;                                  /* capture */
        case S_ARRAY:
        case S_MEMBER_ARR:
            c = peek_nonws(src);
            if (c == ']') {
                src->pos++;
                if (src->state == S_ARRAY) {
                    src->state = S_SEQ;
                } else {
                    src->state = S_MEMBERS;
                    src->first_member = false;
                }
                continue;
            }
            if (!src->first_elem) {
                if (c != ',')
                    return broken_here(src, d, c < 0
                        ? "unexpected end of input inside an array%s"
                        : "expected ',' or ']' after an array element%s", NULL);
                src->pos++;
                c = peek_nonws(src);
            }
            src->first_elem = false;
            if (c < 0)
                return broken_here(src, d, "unexpected end of input inside an array%s", NULL);
            break;                                  /* capture */
        case S_PAGES:
            c = peek_nonws(src);
            if (c < 0) {
                if (src->pages_in_array)
                    return broken_here(src, d, "unexpected end of input inside an array%s",
                                       NULL);
                src->state = S_END;
                continue;
            }
            /* Pages may also come as one array of pages (`jq -s`). */
            if (!src->pages_in_array && c == '[') {
                src->pos++;
                src->pages_in_array = true;
                src->first_page = true;
                continue;
            }
            if (src->pages_in_array) {
                if (c == ']') {
                    src->pos++;
                    src->pages_in_array = false;
                    continue;
                }
                if (!src->first_page) {
                    if (c != ',')
                        return broken_here(src, d, "expected ',' or ']' after a page%s", NULL);
                    src->pos++;
                    c = peek_nonws(src);
                }
                src->first_page = false;
            }
            if (c != '{')
                return broken_here(src, d, "expected '{' starting %s",
                    src->fmt == IMPORT_BATCH ? "a BatchWriteItem request ({\"Table\": [...]})"
                                             : "a scan/query output page ({\"Items\": [...]})");
            src->pos++;
            src->state = S_MEMBERS;
            src->first_member = true;
            continue;
        case S_MEMBERS: {
            c = peek_nonws(src);
            if (c == '}') {
                src->pos++;
                src->state = S_PAGES;
                continue;
            }
            if (!src->first_member) {
                if (c != ',')
                    return broken_here(src, d, c < 0
                        ? "unexpected end of input inside an object%s"
                        : "expected ',' or '}' after an object member%s", NULL);
                src->pos++;
                c = peek_nonws(src);
            }
            src->first_member = false;
            if (c != '"')
                return broken_here(src, d, "expected a member name%s", NULL);
            if ((rc = capture(src, &src->scratch, d)) != ST_OK)
                return rc;
            free(src->member);
            src->member = decode_string(&src->scratch);
            if (!src->member)
                return broken_here(src, d, "bad member name%s", NULL);
            if ((rc = expect(src, ':', "':'", d)) != ST_OK)
                return rc;
            c = peek_nonws(src);
            if (c < 0)
                return broken_here(src, d, "unexpected end of input: expected a value%s", NULL);
            bool items = src->fmt == IMPORT_BATCH || strcmp(src->member, "Items") == 0;
            if (items) {
                if (c != '[')
                    return broken_here(src, d, "the value of \"%s\" must be an array",
                                       src->member);
                src->pos++;
                src->state = S_MEMBER_ARR;
                src->first_elem = true;
                continue;
            }
            if ((rc = capture(src, &src->scratch, d)) != ST_OK)
                return rc;
            continue;
        }
        case S_END:
            return ST_OK;
        default:
            assert(!"bad state");
            return ST_INTERNAL;
        }
        /* At an element. */
        *line = src->line;
        *col = col_at(src, src->pos);
        if ((rc = capture(src, &src->elem, d)) != ST_OK)
            return rc;
        *got = true;
        return ST_OK;
    }
}

/* Line and column of text[off] when text starts at (line, col). */
static void locate(const char *text, size_t off, int *line, int *col)
{
    for (size_t i = 0; i < off; i++) {
        if (text[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
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
    return diag_set(d, code, "item %llu: %s", (unsigned long long)src->index, msg);
}

/* Prefixes an av/ddbjson diagnostic with the item's place. */
static status item_diag(import_source *src, diag *d, status code, int line, int col)
{
    char msg[sizeof d->msg];
    snprintf(msg, sizeof msg, "%s", d->msg);
    snprintf(d->file, sizeof d->file, "%s", src->name);
    d->line = line;
    d->col = col;
    return diag_set(d, code, "item %llu: %s", (unsigned long long)src->index, msg);
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

/*
 * Text cJSON would take in but change: invalid UTF-8 and raw NUL bytes
 * (ddbjson_check_text), and "\u0000" escapes, which cJSON turns into a
 * NUL that silently ends the string. Returns the byte offset of the first
 * such place and its description, or false.
 */
static bool bad_text(const char *text, size_t len, size_t *off, const char **why)
{
    diag cd;
    diag_init(&cd);
    if (ddbjson_check_text(text, len, &cd) != ST_OK) {
        *off = cd.pos >= 0 && (size_t)cd.pos <= len ? (size_t)cd.pos : 0;
        *why = *off < len && text[*off] == '\0' ? "NUL byte in JSON text" : "invalid UTF-8";
        return true;
    }
    for (size_t i = 0; i + 1 < len; i++) {
        if (text[i] != '\\')
            continue;
        if (text[i + 1] == 'u' && i + 5 < len && memcmp(text + i + 2, "0000", 4) == 0) {
            *off = i;
            *why = "strings holding \\u0000 are not supported";
            return true;
        }
        i++;    /* the escaped character */
    }
    return false;
}

static status wb_next(import_source *src, import_event *ev, diag *d);

status import_source_next(import_source *src, import_event *ev, diag *d)
{
    memset(ev, 0, sizeof *ev);
    ev->kind = IMPORT_EV_END;
    if (src->broken) {
        *d = src->broken_diag;
        return d->code;
    }
    if (src->fmt == IMPORT_WORKBENCH)
        return wb_next(src, ev, d);

    bool got;
    int line = 0, col = 0;
    status rc = next_element(src, &got, &line, &col, d);
    if (src->read_err) {
        rc = broken_here(src, d, "read error: %s", strerror(src->read_err));
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
    if (src->elem_text_check && bad_text(text, len, &bad, &bad_why)) {
        int el = line, ec = col;
        locate(text, bad, &el, &ec);
        rc = elem_error(src, d, ST_PARSE, el, ec, "%s", bad_why);
        src->index++;
        return rc;
    }
    cJSON *j = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!j) {
        int el = line, ec = col;
        size_t off = end && end >= text && end <= text + len ? (size_t)(end - text) : 0;
        locate(text, off, &el, &ec);
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
        av_free(&ev->item);
        return rc;
    }
    ev->kind = IMPORT_EV_ITEM;
    ev->table = src->fmt == IMPORT_BATCH ? src->member : NULL;
    ev->index = index;
    ev->line = line;
    ev->col = col;
    return ST_OK;
}

/* ---- NoSQL Workbench models ------------------------------------------- */

static status wb_fail(import_source *src, diag *d, const char *fmt, const char *a, const char *b)
{
    diag_init(&src->broken_diag);
    snprintf(src->broken_diag.file, sizeof src->broken_diag.file, "%s", src->name);
    diag_set(&src->broken_diag, ST_VALIDATION, fmt, a ? a : "", b ? b : "");
    src->broken = true;
    *d = src->broken_diag;
    return ST_VALIDATION;
}

static status wb_open(import_source *src, diag *d)
{
    /* A model is read whole: pull the rest of the input in. */
    while (refill(src))
        ;
    if (src->read_err)
        return fail_broken(src, d, 0, 0, "read error: %s", strerror(src->read_err));
    const char *text = (const char *)src->data + src->pos;
    size_t len = src->end - src->pos;
    const char *end = NULL, *why = NULL;
    size_t bad = 0;
    src->state = S_WB;
    if (bad_text(text, len, &bad, &why)) {
        int line = src->line, col = col_at(src, src->pos);
        locate(text, bad, &line, &col);
        return fail_broken(src, d, line, col, "%s in the Workbench model", why);
    }
    src->wb = cJSON_ParseWithLengthOpts(text, len, &end, false);
    if (!src->wb) {
        int line = src->line, col = col_at(src, src->pos);
        locate(text, end && end >= text ? (size_t)(end - text) : 0, &line, &col);
        return fail_broken(src, d, line, col, "invalid JSON in the Workbench model%s", NULL);
    }
    src->pos = src->end;
    const cJSON *dm = cJSON_GetObjectItemCaseSensitive(src->wb, "DataModel");
    if (!cJSON_IsArray(dm))
        return wb_fail(src, d, "not a NoSQL Workbench model: no \"DataModel\" array%s%s",
                       NULL, NULL);
    return ST_OK;
}

static const char *wb_str(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static status wb_key(import_source *src, const cJSON *o, const char *which, bool required,
                     const char *where, key_attr *k, diag *d)
{
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(o, which);
    k->name = NULL;
    k->type = AV_NONE;
    if (!ka) {
        if (required)
            return wb_fail(src, d, "%s: KeyAttributes.%s is missing", where, which);
        return ST_OK;
    }
    const char *n = wb_str(ka, "AttributeName");
    const char *t = wb_str(ka, "AttributeType");
    av_type ty = t ? av_type_from_name(t, strlen(t)) : AV_NONE;
    if (!n || !*n)
        return wb_fail(src, d, "%s: %s.AttributeName is missing", where, which);
    if (ty != AV_S && ty != AV_N && ty != AV_B)
        return wb_fail(src, d, "%s: %s.AttributeType must be S, N or B", where, which);
    k->name = xstrdup(n);
    k->type = ty;
    return ST_OK;
}

static status wb_index(import_source *src, const cJSON *j, bool global, const char *table,
                       index_def *ix, diag *d)
{
    char where[512];
    const char *name = wb_str(j, "IndexName");
    memset(ix, 0, sizeof *ix);
    ix->global = global;
    snprintf(where, sizeof where, "table %s, index %s", table, name ? name : "?");
    if (!name || !*name)
        return wb_fail(src, d, "table %s: an index without IndexName%s", table, NULL);
    ix->name = xstrdup(name);
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(j, "KeyAttributes");
    status rc = wb_key(src, ka, "PartitionKey", true, where, &ix->pk, d);
    if (rc == ST_OK)
        rc = wb_key(src, ka, "SortKey", false, where, &ix->sk, d);
    if (rc != ST_OK)
        return rc;
    const cJSON *pr = cJSON_GetObjectItemCaseSensitive(j, "Projection");
    const char *pt = pr ? wb_str(pr, "ProjectionType") : "ALL";
    if (!pt || strcmp(pt, "ALL") == 0) {
        ix->proj = PROJ_ALL;
    } else if (strcmp(pt, "KEYS_ONLY") == 0) {
        ix->proj = PROJ_KEYS_ONLY;
    } else if (strcmp(pt, "INCLUDE") == 0) {
        ix->proj = PROJ_INCLUDE;
        const cJSON *nk = cJSON_GetObjectItemCaseSensitive(pr, "NonKeyAttributes");
        int n = cJSON_GetArraySize(nk);
        ix->include = xcalloc((size_t)n + 1, sizeof *ix->include);
        for (int i = 0; i < n; i++) {
            const cJSON *e = cJSON_GetArrayItem(nk, i);
            if (cJSON_IsString(e))
                ix->include[ix->n_include++] = xstrdup(e->valuestring);
        }
    } else {
        return wb_fail(src, d, "%s: unknown ProjectionType %s", where, pt);
    }
    return ST_OK;
}

static status wb_table(import_source *src, const cJSON *t, table_def *def, diag *d)
{
    memset(def, 0, sizeof *def);
    const char *name = wb_str(t, "TableName");
    if (!name || !*name)
        return wb_fail(src, d, "DataModel[%s]: TableName is missing%s", "?", NULL);
    def->name = xstrdup(name);
    def->created = (int64_t)time(NULL);
    char where[300];
    snprintf(where, sizeof where, "table %s", name);
    const cJSON *ka = cJSON_GetObjectItemCaseSensitive(t, "KeyAttributes");
    status rc = wb_key(src, ka, "PartitionKey", true, where, &def->pk, d);
    if (rc == ST_OK)
        rc = wb_key(src, ka, "SortKey", false, where, &def->sk, d);
    if (rc != ST_OK)
        return rc;
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(t, "GlobalSecondaryIndexes");
    const cJSON *l = cJSON_GetObjectItemCaseSensitive(t, "LocalSecondaryIndexes");
    int ng = cJSON_GetArraySize(g), nl = cJSON_GetArraySize(l);
    if (ng + nl > 0)
        def->idx = xcalloc((size_t)(ng + nl), sizeof *def->idx);
    for (int i = 0; i < ng + nl && rc == ST_OK; i++) {
        rc = wb_index(src, cJSON_GetArrayItem(i < ng ? g : l, i < ng ? i : i - ng), i < ng,
                      name, &def->idx[i], d);
        def->n_idx++;
        if (rc == ST_OK && i >= ng) {
            /* An LSI shares the table's partition key. */
            free(def->idx[i].pk.name);
            def->idx[i].pk.name = xstrdup(def->pk.name);
            def->idx[i].pk.type = def->pk.type;
        }
    }
    return rc;
}

static status wb_next(import_source *src, import_event *ev, diag *d)
{
    const cJSON *dm = cJSON_GetObjectItemCaseSensitive(src->wb, "DataModel");
    int nt = cJSON_GetArraySize(dm);
    if (!src->wb_items) {
        /* Every table first, so a sink creates them before any item. */
        if (src->wb_table < nt) {
            const cJSON *t = cJSON_GetArrayItem(dm, src->wb_table++);
            status rc = wb_table(src, t, &ev->def, d);
            if (rc != ST_OK) {
                table_def_free(&ev->def);
                return rc;
            }
            ev->kind = IMPORT_EV_TABLE;
            return ST_OK;
        }
        src->wb_items = true;
        src->wb_table = 0;
        src->wb_item = 0;
    }
    for (; src->wb_table < nt; src->wb_table++, src->wb_item = 0) {
        const cJSON *t = cJSON_GetArrayItem(dm, src->wb_table);
        const cJSON *data = cJSON_GetObjectItemCaseSensitive(t, "TableData");
        if (src->wb_item >= cJSON_GetArraySize(data))
            continue;
        int i = src->wb_item++;
        free(src->wb_name);
        src->wb_name = xstrdup(wb_str(t, "TableName"));
        uint64_t index = src->index++;
        char path[64];
        snprintf(path, sizeof path, "DataModel[%d].TableData[%d]", src->wb_table, i);
        const cJSON *it = cJSON_GetArrayItem(data, i);
        status rc;
        if (!cJSON_IsObject(it)) {
            snprintf(d->file, sizeof d->file, "%s", src->name);
            rc = diag_set(d, ST_VALIDATION, "item %llu (%s): not a JSON object",
                          (unsigned long long)index, path);
        } else {
            rc = ddbjson_item_from_cjson(it, NULL, &ev->item, d);
            if (rc != ST_OK) {
                char msg[sizeof d->msg];
                snprintf(msg, sizeof msg, "%s", d->msg);
                snprintf(d->file, sizeof d->file, "%s", src->name);
                diag_set(d, rc, "item %llu (%s): %s", (unsigned long long)index, path, msg);
            }
        }
        if (rc != ST_OK) {
            av_free(&ev->item);
            return rc;
        }
        ev->kind = IMPORT_EV_ITEM;
        ev->table = src->wb_name;
        ev->index = index;
        return ST_OK;
    }
    return ST_OK;
}

/* ---- the driver -------------------------------------------------------- */

static void stats_update(import_source *src, import_stats *st)
{
    import_source_progress(src, &st->bytes, &st->total);
    st->format = src->fmt;
    st->lossy = src->fmt == IMPORT_PLAIN;
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
            if (o->skip_bad && !import_source_broken(src)) {
                st->skipped++;
                if (o->on_skip)
                    o->on_skip(o->cb_ctx, &ed);
                continue;
            }
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
            diag_set(&ed, rc, "item %llu: %s", (unsigned long long)ev.index, msg);
        }
        import_event_done(&ev);
        if (rc != ST_OK) {
            /* A store failure other than a bad item (a missing table, a
             * full disk) stops the run even with skip_bad. */
            bool item_level = rc == ST_VALIDATION;
            if (o->skip_bad && item_level) {
                st->skipped++;
                if (o->on_skip)
                    o->on_skip(o->cb_ctx, &ed);
                continue;
            }
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

status import_file(store *s, const char *path, import_format fmt,
                   const import_opts *o, bool replace, import_stats *st, diag *d)
{
    import_source *src = NULL;
    status rc = import_source_open(path, fmt, &src, d);
    if (rc != ST_OK)
        return rc;
    import_store_ctx ctx;
    import_sink sink;
    import_store_sink(&ctx, s, replace, &sink);
    rc = import_run(src, &sink, o, st, d);
    import_source_free(src);
    return rc;
}
