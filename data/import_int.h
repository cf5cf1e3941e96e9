/*
 * import_int — what the import_*.c files share (not a public header):
 * the source's state, the pull scanner and format detection
 * (import_scan.c) and the Workbench reader (import_wb.c) that import.c's
 * opening and streaming walk call.
 */
#ifndef DDBX_IMPORT_INT_H
#define DDBX_IMPORT_INT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "data/import.h"
#include "model/buf.h"

#define CHUNK (256 * 1024)
#define LOOKAHEAD (64 * 1024)

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

/* ---- import_scan.c: the pull scanner --------------------------------- */

/* Moves the unread bytes to the front and reads more. False at the end;
 * a failed read sets src->read_err. */
bool import_refill(import_source *src);

/* The 1-based column of data[i] on the current line. */
int import_col_at(const import_source *src, size_t i);

/* Marks the source broken at (line, col) with a ST_PARSE message (fmt
 * holds one %s, arg) and copies it to d; every later call returns it. */
status import_fail_broken(import_source *src, diag *d, int line, int col,
                          const char *fmt, const char *arg);
/* The same at the current position. */
status import_broken_here(import_source *src, diag *d, const char *fmt, const char *arg);

/* Skips white space; the next byte, or -1 at the end of the input. */
int import_peek_nonws(import_source *src);

/* Captures the JSON value at the current (non-space) position into out,
 * raw: brackets balanced and strings closed, the rest left to cJSON. */
status import_capture(import_source *src, buf *out, diag *d);

/* Consumes the byte c (after white space) or breaks the source saying
 * what was expected. */
status import_expect(import_source *src, int c, const char *what, diag *d);

/* The format of the first n bytes of the input. */
import_format import_detect(const unsigned char *p, size_t n);

/* Line and column of text[off] when text starts at (*line, *col). */
void import_locate(const char *text, size_t off, int *line, int *col);

/* Text cJSON would take in but change (invalid UTF-8, NUL bytes, \u0000):
 * the offset of the first such place and what it is, or false. */
bool import_bad_text(const char *text, size_t len, size_t *off, const char **why);

/* ---- import_wb.c: NoSQL Workbench models ------------------------------ */

/* Reads the whole model and checks its outline. */
status import_wb_open(import_source *src, diag *d);

/* The next event: every table first, then the items. */
status import_wb_next(import_source *src, import_event *ev, diag *d);

#endif
