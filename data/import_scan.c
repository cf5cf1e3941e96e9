/*
 * import_scan — the pull scanner under the streaming import formats and
 * the format detector (import_int.h says who shares what).
 *
 * The scanner reads a refilled buffer (CHUNK at a time, growing for a
 * long element) and import.c's walk drives it over the outer structure
 * (a top-level array, the members of a page object) token by token; it
 * captures each item element's raw text whole (balanced brackets, strings
 * honoured), which cJSON then parses on its own. Memory is one buffer
 * plus the largest element. Detection looks at the first LOOKAHEAD bytes.
 */
#include "data/import_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- input buffer ------------------------------------------------------ */

#define MAX_DEPTH 128            /* DynamoDB allows 32 levels of nesting */

/* Moves the unread bytes to the front and reads more. False at the end. */
bool import_refill(import_source *src)
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

int import_col_at(const import_source *src, size_t i)
{
    return (int)(src->base + i - src->line_start) + 1;
}

status import_fail_broken(import_source *src, diag *d, int line, int col,
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

status import_broken_here(import_source *src, diag *d, const char *fmt, const char *arg)
{
    return import_fail_broken(src, d, src->line, import_col_at(src, src->pos), fmt, arg);
}

/* Skips white space; the next byte, or -1 at the end of the input. */
int import_peek_nonws(import_source *src)
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
        if (!import_refill(src))
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
status import_capture(import_source *src, buf *out, diag *d)
{
    char stack[MAX_DEPTH];
    int depth = 0;
    bool in_str = false, esc = false;
    int line0 = src->line, col0 = import_col_at(src, src->pos);
    unsigned char c0 = src->data[src->pos];
    bool scalar = c0 != '{' && c0 != '[' && c0 != '"';

    buf_reset(out);
    src->elem_text_check = scalar;
    if (scalar && is_delim(c0)) {
        /* '}', ']', ',' or ':' where a value must start: nothing to
         * capture, and no way to resynchronise. */
        char what[2] = { (char)c0, '\0' };
        return import_broken_here(src, d, "unexpected '%s' where a value should start", what);
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
                    return import_broken_here(src, d, "nesting deeper than %s levels", "128");
                }
                stack[depth++] = (char)c;
            } else {                   /* '}' or ']' */
                if (depth == 0 || stack[depth - 1] != (c == '}' ? '{' : '[')) {
                    buf_add(out, p + src->pos, i - src->pos);
                    src->pos = i;
                    return import_broken_here(src, d, "unexpected '%s'", c == '}' ? "}" : "]");
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
        if (!import_refill(src)) {
            if (scalar)
                return ST_OK;
            char where[64];
            snprintf(where, sizeof where, "%d:%d", line0, col0);
            return import_broken_here(src, d,
                "unexpected end of input: the value that starts at %s is not closed",
                where);
        }
    }
}

/* Expects byte c (after white space) and consumes it. */
status import_expect(import_source *src, int c, const char *what, diag *d)
{
    int got = import_peek_nonws(src);
    if (got != c)
        return import_broken_here(src, d, got < 0 ? "unexpected end of input: expected %s"
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

/* A first member name (k) that says a Scan or Query output page, as
 * `aws dynamodb scan` prints it. */
static bool lk_page_member(const unsigned char *k, size_t kl)
{
    return lk_is(k, kl, "Items") || lk_is(k, kl, "Count") || lk_is(k, kl, "ScannedCount") ||
           lk_is(k, kl, "ConsumedCapacity");
}

/* A first member "Item" whose value (v, its first byte, at l) is an item:
 * a line of an S3 export. */
static bool lk_s3_line(int v, const unsigned char *k, size_t kl, look *l)
{
    return v == '{' && lk_is(k, kl, "Item") && lk_s3_item(l);
}

import_format import_detect(const unsigned char *p, size_t n)
{
    look l = { p, 0, n };
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF)
        l.i = 3;
    int c = lk_ws(&l);
    bool array = c == '[';
    if (array) {
        l.i++;
        c = lk_ws(&l);
    }
    if (c != '{')
        return IMPORT_DDB_JSON;
    /* The first object (of the array) by its first member. */
    look save = l;
    const unsigned char *k;
    size_t kl;
    int v = lk_first_member(&l, &k, &kl);
    if (array) {
        /* An array of S3 export lines or of scan pages (`jq -s`), or of
         * items. */
        if (lk_s3_line(v, k, kl, &l))
            return IMPORT_S3;
        if (v >= 0 && lk_page_member(k, kl))
            return IMPORT_AWS_CLI;
        return lk_ddb_item(&save) ? IMPORT_DDB_JSON : IMPORT_PLAIN;
    }
    if (v == -2 || v == -1)
        return IMPORT_JSONL;
    if (lk_is(k, kl, "ModelName") || lk_is(k, kl, "ModelMetadata") ||
        lk_is(k, kl, "DataModel"))
        return IMPORT_WORKBENCH;
    if (lk_page_member(k, kl) || lk_is(k, kl, "LastEvaluatedKey"))
        return IMPORT_AWS_CLI;
    if (lk_s3_line(v, k, kl, &l))
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

/* ---- text checks ----------------------------------------------------- */

/* Line and column of text[off] when text starts at (line, col). */
void import_locate(const char *text, size_t off, int *line, int *col)
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

/*
 * Text cJSON would take in but change: invalid UTF-8 and raw NUL bytes
 * (ddbjson_check_text), and "\u0000" escapes, which cJSON turns into a
 * NUL that silently ends the string. Returns the byte offset of the first
 * such place and its description, or false.
 */
bool import_bad_text(const char *text, size_t len, size_t *off, const char **why)
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
