/*
 * jsonread — reading a JSON file the user wrote (access patterns, a model,
 * prices) with errors that say where: FILE:LINE:COLUMN and the member
 * path ("patterns[2].expect.max_items: must be a number").
 *
 * cJSON parses; a jsonread follows the member path as the reader walks
 * the document (jr_push_name, jr_push_index, jr_pop), and jr_fail finds
 * that member's place in the text (model/jsonpos) for the diagnostic.
 * Unknown members are errors (jr_check_members), so a misspelt member is
 * not silently ignored.
 *
 * Ownership: the reader borrows the file name, the text and the diag;
 * strings it returns (jr_string) are malloc'd for the caller. No cJSON
 * object leaves data/.
 */
#ifndef DDBX_JSONREAD_H
#define DDBX_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/buf.h"
#include "model/jsonpos.h"
#include "model/status.h"

struct cJSON;

#define JR_MAX_DEPTH 10

typedef struct jsonread {
    const char *file, *text;
    size_t len;
    jsonpos_seg seg[JR_MAX_DEPTH];
    size_t depth;
    bool at_name;          /* the error is about the member's name */
    diag *d;
} jsonread;

void jr_push_name(jsonread *r, const char *name);
void jr_push_index(jsonread *r, size_t i);
void jr_pop(jsonread *r);
/* ST_PARSE at the current member: d gets the file, its line and column,
 * and "PATH: message". */
status jr_fail(jsonread *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Where the current member is (1-based line and column). */
void jr_where(const jsonread *r, int *line, int *col);

bool jr_has_control(const char *s);
/* A string member (non-empty unless empty_ok), malloc'd into *out. */
status jr_string(jsonread *r, const struct cJSON *v, bool empty_ok, char **out);
/* A number >= 0 (integral when whole is set). */
status jr_count(jsonread *r, const struct cJSON *v, bool whole, double *out);
status jr_bool(jsonread *r, const struct cJSON *v, bool *out);
/* Fails at the first member of obj not in the NULL-ended list. */
status jr_check_members(jsonread *r, const struct cJSON *obj, const char *const *list);

/* Parses the text; a syntax error is ST_PARSE with the file, the line and
 * column where cJSON stopped. */
status jr_parse(jsonread *r, struct cJSON **root);
/* A file's bytes (ST_IO with the file named when it cannot be read). */
status jr_read_file(const char *path, buf *out, diag *d);

#endif
