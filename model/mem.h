/*
 * mem — allocation that cannot fail. On exhaustion the registered hook runs
 * (ui/ sets one that restores the terminal), a message goes to stderr, and
 * the process aborts. Everything returned is owned by the caller (free()).
 */
#ifndef DDBX_MEM_H
#define DDBX_MEM_H

#include <stddef.h>

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
void *xmemdup(const void *p, size_t n);

/* An allocation a library made failed (tsearch's): the hook, the message
 * and abort, as for the x functions. */
_Noreturn void mem_oom(size_t n);

/* Called once before aborting on allocation failure (or mem_fatal). */
void mem_set_oom_hook(void (*hook)(void));

/* What cannot go on, as an allocation that failed: a library the binary
 * was built with and cannot load (data/dynlib.h). Runs the hook, prints
 * "ddbx: " and what on stderr, aborts. */
void mem_fatal(const char *what) __attribute__((noreturn));

#endif
