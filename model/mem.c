#include "model/mem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void (*oom_hook)(void);

void mem_set_oom_hook(void (*hook)(void))
{
    oom_hook = hook;
}

static void run_hook(void)
{
    if (oom_hook) {
        void (*h)(void) = oom_hook;
        oom_hook = NULL;
        h();
    }
}

void mem_fatal(const char *what)
{
    run_hook();
    fprintf(stderr, "ddbx: %s\n", what);
    abort();
}

_Noreturn void mem_oom(size_t n)
{
    run_hook();
    fprintf(stderr, "ddbx: out of memory (allocating %zu bytes)\n", n);
    abort();
}

static void *oom(size_t n)
{
    mem_oom(n);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    return p ? p : oom(n);
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    return p ? p : oom(n * size);
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    return q ? q : oom(n);
}

char *xstrdup(const char *s)
{
    return xmemdup(s, strlen(s) + 1);
}

char *xstrndup(const char *s, size_t n)
{
    size_t len = strnlen(s, n);
    char *p = xmalloc(len + 1);
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

void *xmemdup(const void *p, size_t n)
{
    void *q = xmalloc(n);
    if (n)
        memcpy(q, p, n);
    return q;
}
