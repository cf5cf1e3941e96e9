/*
 * ddbjson — DynamoDB JSON <-> attribute values (cJSON underneath).
 *
 * Decoding validates everything DynamoDB validates in an AttributeValue:
 * exactly one type key, the right JSON shape for it, numbers as strings
 * that parse, base64 that decodes, sets non-empty and without duplicates.
 * Each error names the attribute path (`tags.SS[2]`, `a.b[0].c`) in
 * diag.path and says what is wrong in DynamoDB's wording where it has one.
 *
 * Encoding writes straight into a buf (no cJSON tree): canonical DynamoDB
 * JSON, map members and items in sorted name order, sets in key order.
 *
 * Plain JSON -> item (numbers as N, arrays as L, objects as M, true/false
 * as BOOL, null as NULL) is lossy by nature: B and sets cannot be told
 * apart from S and L.
 *
 * cJSON objects never escape data/ and this module: functions taking a
 * cJSON node are for data/'s dispatcher.
 */
#ifndef DDBX_DDBJSON_H
#define DDBX_DDBJSON_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

struct cJSON;

/* {"name": {"S": "..."}, ...} -> item (AV_M). */
status ddbjson_parse_item(const char *text, size_t len, av *item, diag *d);
/* {"S": "..."} -> value. */
status ddbjson_parse_value(const char *text, size_t len, av *v, diag *d);

/* ST_PARSE (with line and column) when text holds a NUL byte or is not
 * valid UTF-8 (overlong forms, surrogates, past U+10FFFF). The parsers
 * above and below check this first; a caller that parses JSON with cJSON
 * itself (data/'s dispatcher) should too: cJSON passes invalid UTF-8
 * through, and cuts a string short at a raw NUL. Strings of valid
 * UTF-8 text round-trip exactly through ddbjson_write_*. */
status ddbjson_check_text(const char *text, size_t len, diag *d);

/* cJSON_ParseWithLength with those checks, and \u0000 escapes kept as
 * the byte 0xFF (cJSON would end the string there; see ddbjson_unmark):
 * the way for data/ to parse request JSON. ST_PARSE with line and column; on ST_OK the caller owns *root
 * (cJSON_Delete). */
status ddbjson_cjson_parse(const char *text, size_t len, struct cJSON **root, diag *d);
/* The strings of a tree ddbjson_cjson_parse made hold U+0000 as the byte
 * 0xFF (cJSON's strings end at a NUL); this turns p[0..n)'s back. The
 * item and value builders below do it themselves. */
void ddbjson_unmark(char *p, size_t n);

/* A request of simple members read straight from its text, for the hot
 * path of an operation (GetItem in store_call): each member a string
 * without escapes, true or false, or a map of attribute values each of
 * one type, S or N, given as such a string ({"pk":{"S":"a"}}). Anything
 * else makes ddbjson_flat_parse return false: escapes, control
 * characters, invalid UTF-8, a NUL, null, numbers, arrays, deeper
 * nesting, a repeated name, more than DDBJSON_FLAT_MAX members or
 * attributes, text after the object. The caller then parses the request
 * the general way (cJSON and every check, with DynamoDB's messages), so a
 * false costs time, never an answer. Spans point into text; a string's
 * bytes are its value (no escapes). */
#define DDBJSON_FLAT_MAX 8
typedef struct ddbjson_span {
    const char *p;
    size_t n;
} ddbjson_span;
typedef struct ddbjson_flat_attr {
    ddbjson_span name, val;
    av_type type;               /* AV_S or AV_N */
} ddbjson_flat_attr;
typedef struct ddbjson_flat_member {
    ddbjson_span name;
    char kind;                  /* 's' string, 'b' true/false, 'm' map of attribute values */
    ddbjson_span str;           /* 's' */
    bool b;                     /* 'b' */
    size_t first, n;            /* 'm': attrs[first .. first + n) */
} ddbjson_flat_member;
typedef struct ddbjson_flat {
    size_t n, n_attrs;
    ddbjson_flat_member m[DDBJSON_FLAT_MAX];
    ddbjson_flat_attr attrs[DDBJSON_FLAT_MAX];
} ddbjson_flat;
bool ddbjson_flat_parse(const char *text, size_t len, ddbjson_flat *out);
/* Whether span s is the C string name (inline: with a literal name the
 * compiler compares in place). */
static inline bool ddbjson_span_is(ddbjson_span s, const char *name)
{
    size_t n = strlen(name);
    return s.n == n && memcmp(s.p, name, n) == 0;
}

/* The same from an already parsed cJSON node; path prefixes error paths
 * (may be NULL). */
status ddbjson_item_from_cjson(const struct cJSON *obj, const char *path,
                               av *item, diag *d);
status ddbjson_value_from_cjson(const struct cJSON *obj, const char *path,
                                av *v, diag *d);

/* A parsed answer's members, for the typed answers' readers in model/
 * (model/ddbres_*.c), which see the tree only through these: the member
 * named (NULL when absent or null), its text when a string (else NULL),
 * its value when a number (else false), whether it is true; an array's
 * (or object's) first element and the one after e (NULL at the end). */
const struct cJSON *ddbjson_member(const struct cJSON *o, const char *name);
const char *ddbjson_member_str(const struct cJSON *o, const char *name);
bool ddbjson_member_num(const struct cJSON *o, const char *name, double *out);
bool ddbjson_member_true(const struct cJSON *o, const char *name);
const struct cJSON *ddbjson_first(const struct cJSON *o);
const struct cJSON *ddbjson_next(const struct cJSON *e);

/* Appends {"S":"..."} / the item map to out. */
void ddbjson_write_value(buf *out, const av *v);
void ddbjson_write_item(buf *out, const av *item);
/* Appends a JSON string literal of bytes p[0..n) (escaping as JSON
 * requires; invalid UTF-8 bytes as \u00XX of each byte). */
void ddbjson_write_string(buf *out, const char *p, size_t n);

/* Plain JSON object text -> item, types inferred (lossy). */
status ddbjson_parse_plain_item(const char *text, size_t len, av *item, diag *d);
/*
 * A request's ExpressionAttributeNames and ExpressionAttributeValues typed
 * as text (the query bar's fields, `ddbx eval --names/--values`, the
 * builder's --names=/--values=): names a plain JSON object of strings
 * ({"#s":"status"}), values DynamoDB JSON ({":v":{"S":"x"}}). NULL or
 * blank text is not given: AV_NONE. Into uninitialised outs (each AV_NONE
 * or AV_M; the caller's av_done); on error both are AV_NONE and d->file
 * names the map (DDBJSON_NAMES_MEMBER or DDBJSON_VALUES_MEMBER), d->path and d->pos where in it. The
 * placeholders themselves are checked by expr_ctx_init.
 */
status ddbjson_parse_maps(const char *names, const char *values, av *names_out, av *values_out,
                          diag *d);
/* The two maps' request member names, spelled once: ddbjson_parse_maps's
 * d->file, model/ddbreq.c's printer and the labels ui/ shows take them
 * from here (tools/check-layers.sh: no request member names in ui/). */
#define DDBJSON_NAMES_MEMBER  "ExpressionAttributeNames"
#define DDBJSON_VALUES_MEMBER "ExpressionAttributeValues"

/* Item -> plain JSON (N as JSON numbers text, B as base64 strings, sets as
 * arrays): lossy, for export to tools that want plain JSON. */
void ddbjson_write_plain_item(buf *out, const av *item);

/* For people (ddbjson_pretty.c): compact JSON text (as ddbjson_write_*
 * write it) re-indented two spaces a level, one member a line, short leaf
 * objects such as {"S":"x"} kept on one line; and an item written so. */
void ddbjson_pretty(buf *out, const char *json, size_t len);
void ddbjson_write_item_pretty(buf *out, const av *item);

#endif
