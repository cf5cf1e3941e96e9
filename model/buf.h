/*
 * buf — a growable byte buffer. Owns its bytes; buf_done frees them.
 * data is always NUL-terminated (not counted in len) once anything was
 * appended, so text built here can be used as a C string.
 */
#ifndef DDBX_BUF_H
#define DDBX_BUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

typedef struct buf {
    char *data;
    size_t len, cap;
} buf;

#define BUF_INIT { NULL, 0, 0 }

void buf_init(buf *b);
void buf_done(buf *b);
/* buf_done for a secret (a credential, a signed header): the bytes are
 * zeroed before they are freed. */
void buf_wipe(buf *b);
void buf_reset(buf *b);                          /* len = 0, keeps memory */
void buf_reserve(buf *b, size_t extra);          /* room for extra more bytes */
void buf_adds(buf *b, const char *s);
void buf_printf(buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(buf *b, const char *fmt, va_list ap);
/* Hands the bytes to the caller (malloc'd, NUL-terminated); b is empty. */
char *buf_steal(buf *b);

/* Inline: writing a Query response appends a few bytes at a time, tens of
 * thousands of times, and a call for each was a tenth of the time. */
static inline void buf_add(buf *b, const void *p, size_t n)
{
    if (b->len + n + 1 > b->cap)
        buf_reserve(b, n);
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static inline void buf_addc(buf *b, char c)
{
    if (b->len + 2 > b->cap)
        buf_reserve(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}

#endif
