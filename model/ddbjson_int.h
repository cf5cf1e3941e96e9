/*
 * ddbjson_int — what model/ddbjson's three readers share; private to
 * model/ddbjson*.c: the attribute path a reader is at (for messages), an
 * error at a path or a text position, JSON whitespace and UTF-8.
 *
 * The readers: ddbjson.c (DynamoDB JSON through cJSON, and the writers),
 * ddbjson_plain.c (plain JSON by a parser of our own, and the names and
 * values maps), ddbjson_flat.c (the flat scan of a request's top-level
 * members). The small helpers are inline here: the decoders call them for
 * every value they read.
 */
#ifndef DDBX_DDBJSON_INT_H
#define DDBX_DDBJSON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "model/ddbjson.h"

/* ---- attribute paths ---- */

typedef struct path {
    char s[512];
    size_t len;
} path;

static inline void path_init(path *p, const char *prefix)
{
    p->len = 0;
    p->s[0] = '\0';
    if (prefix) {
        size_t n = strlen(prefix);
        if (n >= sizeof p->s)
            n = sizeof p->s - 1;
        memcpy(p->s, prefix, n);
        p->len = n;
        p->s[n] = '\0';
    }
}

/* Appends bytes; returns the length to pop back to. Truncates silently: a
 * path is for people, and 511 bytes of it is plenty. No printf: a path is
 * pushed for every value read, and only an error ever shows it. */
static inline size_t path_add(path *p, const char *t, size_t n)
{
    size_t old = p->len;
    size_t room = sizeof p->s - 1 - p->len;
    if (n > room)
        n = room;
    memcpy(p->s + p->len, t, n);
    p->len += n;
    p->s[p->len] = '\0';
    return old;
}

/* ".name" (or "name" at the start) */
static inline size_t path_push_name(path *p, const char *name)
{
    size_t old = p->len;
    if (p->len)
        path_add(p, ".", 1);
    path_add(p, name, strlen(name));
    return old;
}

/* ".name" always */
static inline size_t path_push_dot(path *p, const char *name)
{
    size_t old = path_add(p, ".", 1);
    path_add(p, name, strlen(name));
    return old;
}

/* "[i]" */
static inline size_t path_push_index(path *p, int i)
{
    char t[16];
    size_t n = sizeof t;
    unsigned u = i < 0 ? 0u : (unsigned)i;
    t[--n] = ']';
    do {
        t[--n] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    t[--n] = '[';
    return path_add(p, t + n, sizeof t - n);
}

static inline void path_pop(path *p, size_t old)
{
    p->len = old;
    p->s[old] = '\0';
}

/* d's message and code, with p's text as d->path. */
__attribute__((format(printf, 4, 5)))
status ddbjson_fail(diag *d, status code, const path *p, const char *fmt, ...);

/* Records line and column of byte offset pos in text. */
void ddbjson_locate(diag *d, const char *text, size_t pos);

static inline bool is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Length of the valid UTF-8 sequence at p (at most n bytes), 0 if invalid
 * (overlong forms, surrogates and code points past U+10FFFF are invalid). */
static inline size_t utf8_seq(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF)
        len = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF)
        len = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    unsigned cp = c & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return len;
}

#endif
