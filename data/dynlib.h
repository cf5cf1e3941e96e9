/*
 * dynlib — a shared library loaded at its first use (dlopen), for the
 * libraries only some commands need: libcurl and libcrypto (data/remote.c
 * and data/sigv4.c, a remote endpoint) and ncurses (ui/term.c, the
 * explorer's terminal). Linked at start, they and what they pull in (39
 * libraries with GnuTLS, Kerberos, LDAP...) were most of `ddbx serve`'s
 * and `ddbx --version`'s start-up; `ddbx serve` and `ddbx api` on a local
 * database never load them (tests/layers checks what the binary links).
 *
 * A user declares a struct of pointers, one per symbol, with the X-macro
 * of its names, and #defines each name to go through it, so the calls
 * read as ordinary calls:
 *
 *   #define CURL_SYMS(X) X(curl_easy_init) X(curl_easy_cleanup)
 *   static struct { CURL_SYMS(DYNLIB_FIELD) } cu;
 *   static const char *const cu_names[] = { CURL_SYMS(DYNLIB_NAME) };
 *   #define curl_easy_init (*cu.curl_easy_init)
 *   ... dynlib_load("libcurl.so.4", cu_names, DYNLIB_COUNT(cu), &cu, d)
 *
 * A library once loaded stays loaded for the process (its handle is never
 * closed). The caller runs dynlib_load once (pthread_once or the like).
 */
#ifndef DDBX_DYNLIB_H
#define DDBX_DYNLIB_H

#include <stddef.h>

#include "model/status.h"

#define DYNLIB_FIELD(sym) __typeof__(sym) *sym;
#define DYNLIB_NAME(sym) #sym,
#define DYNLIB_COUNT(table) (sizeof(table) / sizeof(void *))

/* Opens the library `soname` (as the dynamic loader would find it) and
 * fills table, a struct of n pointers, with the address of each of
 * names[0..n). On failure, the library or the symbol that is missing in
 * d, and table untouched. */
status dynlib_load(const char *soname, const char *const *names, size_t n, void *table, diag *d);

#endif
