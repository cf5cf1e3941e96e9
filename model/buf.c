#include "model/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

void buf_init(buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
}

void buf_done(buf *b)
{
    free(b->data);
    buf_init(b);
}

/* Through a volatile pointer, so that the zeroing of memory about to be
 * freed is not optimized away. */
static void *(*const volatile wipe_memset)(void *, int, size_t) = memset;

void buf_wipe(buf *b)
{
    if (b->data)
        wipe_memset(b->data, 0, b->cap);
    buf_done(b);
}

void buf_reset(buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void buf_reserve(buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
}

void buf_adds(buf *b, const char *s)
{
    buf_add(b, s, strlen(s));
}

void buf_vprintf(buf *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n <= 0)
        return;
    buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void buf_printf(buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(b, fmt, ap);
    va_end(ap);
}

char *buf_steal(buf *b)
{
    if (!b->data)
        buf_reserve(b, 0), b->data[0] = '\0';
    char *p = b->data;
    buf_init(b);
    return p;
}
