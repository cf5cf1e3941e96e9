/*
 * jsonread — reading a JSON file of settings member by member, with the
 * file, line and column in every error: the access-pattern files
 * (data/pattern_file.c), the masking rules of `ddbx pull --mask`
 * (data/mask_file.c), the model files of `ddbx model` (data/model_file.c)
 * and the price files of `ddbx check --cost` (data/price_file.c).
 *
 * cJSON tells where a syntax error is but not where a member came from;
 * the reader keeps the member path it is at (push and pop as it goes
 * down and up) and model/jsonpos finds that member in the text when an
 * error is reported: "FILE:LINE:COL: rules[2].action: unknown action".
 *
 * Ownership: the reader borrows the file name, the text and the diag;
 * strings it hands out are malloc'd and the caller's.
 */
#ifndef DDBX_JSONREAD_H
#define DDBX_JSONREAD_H

#include <stdbool.h>
#include <stddef.h>

#include "model/buf.h"
#include "model/jsonpos.h"
#include "model/status.h"

#define JSONREAD_DEPTH 10

struct cJSON;

typedef struct jsonread {
    const char *file, *text;
    size_t len;
    jsonpos_seg seg[JSONREAD_DEPTH];
    size_t depth;
    bool at_name;          /* an error is about the member's name, not its value */
    diag *d;
} jsonread;

void jsonread_init(jsonread *r, const char *file, const char *text, size_t len, diag *d);

/* The whole file into *out (NUL-terminated, an empty file too); ST_IO
 * naming it. */
status jsonread_load(const char *path, buf *out, diag *d);
/* Parses r's text (ddbjson_cjson_parse: UTF-8 checked); a syntax error is
 * ST_PARSE at its line and column in r's file. */
status jsonread_parse(jsonread *r, struct cJSON **root);

void jsonread_push_name(jsonread *r, const char *name);
void jsonread_push_index(jsonread *r, size_t i);
void jsonread_pop(jsonread *r);

/* The line and column of the member the reader is at. */
void jsonread_where(const jsonread *r, int *line, int *col, size_t *off);

/* ST_PARSE in r->d: the file, the member's line and column, "path:
 * message". Returns ST_PARSE. */
status jsonread_fail(jsonread *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* A member that must be a string (non-empty unless empty_ok), copied. */
status jsonread_string(jsonread *r, const struct cJSON *v, bool empty_ok, char **out);
status jsonread_bool(jsonread *r, const struct cJSON *v, bool *out);
/* A number >= 0 (integral when whole is set). */
status jsonread_count(jsonread *r, const struct cJSON *v, bool whole, double *out);
/* Does s hold a control character (a name the terminal must not get)? */
bool jsonread_has_control(const char *s);
/* Each member of obj is one of the NULL-ended list (else "unknown
 * member", at its name). */
status jsonread_members(jsonread *r, const struct cJSON *obj, const char *const *list);

/* What reads one member m of an object, the reader at m's name. */
typedef status (*jsonread_member_fn)(jsonread *r, const struct cJSON *m, void *ctx);
/* Each member of obj read by one, in the file's order, stopping at the
 * first error; obj not an object: not_object is the error. With list
 * (NULL-ended), obj's members are checked against it first
 * (jsonread_members): an object of known members rather than of names. */
status jsonread_each(jsonread *r, const struct cJSON *obj, const char *not_object,
                     const char *const *list, jsonread_member_fn one, void *ctx);

#endif
