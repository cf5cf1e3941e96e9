/*
 * keytmpl — the key templates of `ddbx evolve`: how a new index's key
 * value is built from each item's attributes.
 *
 * Forms (keytmpl_parse):
 *   STATUS#${status}         text and ${PATH}s glued into a string (S);
 *   ${tenant}#${date}        a PATH is dotted for a map's member:
 *   ${address.city}          `address.city` is address's member city;
 *   ${count}                 one ${PATH} alone keeps its value's type (S, N
 *                            or B), so a number stays a number;
 *   GSI1PK=STATUS#${status}  the attribute written is named before `=`
 *                            (else the caller's default: INDEX + "PK");
 *   a+b, status              no ${}: the attributes of a multi-attribute
 *                            key (or one attribute) named directly;
 *                            nothing is written, the index keys on them.
 * `$$` is a literal `$`. A ${PATH} inside text must be S or N (a number
 * as its text); anything else cannot be a key.
 *
 * keytmpl_apply builds the value for one item, or says why it cannot: an
 * attribute missing, a type that cannot be a key, an empty string, a key
 * longer than DynamoDB allows (2,048 bytes for a partition key, 1,024 for
 * a sort key: developer guide, "Service, account, and table quotas").
 *
 * Pure. Ownership: a keytmpl owns its strings (keytmpl_done); out values
 * of keytmpl_apply are the caller's.
 */
#ifndef DDBX_KEYTMPL_H
#define DDBX_KEYTMPL_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

typedef struct keytmpl_part {
    char *lit;             /* literal text, or NULL for a reference */
    char **path;           /* a reference's path segments */
    size_t n_path;
} keytmpl_part;

typedef struct keytmpl {
    char *text;            /* as given */
    char *attr;            /* the attribute written; NULL: the named form */
    keytmpl_part *parts;   /* the template form */
    size_t n;
    char **names;          /* the named form: the attributes, in order */
    size_t n_names;
} keytmpl;

typedef enum {
    KEYTMPL_OK,
    KEYTMPL_MISSING,       /* an attribute the template needs is missing */
    KEYTMPL_TYPE,          /* a value of a type that cannot be (part of) a key */
    KEYTMPL_EMPTY,         /* the value would be an empty string */
    KEYTMPL_TOO_LONG,      /* longer than a key may be */
} keytmpl_why;

/* Parses text; default_attr names the attribute written when text does
 * not (`NAME=...`). Errors are ST_PARSE with d->pos at the offending
 * byte (0-based) and a message saying what is wrong there. */
status keytmpl_parse(const char *text, const char *default_attr, keytmpl *t, diag *d);
void keytmpl_done(keytmpl *t);

/* Is it the named form (nothing written)? */
bool keytmpl_named(const keytmpl *t);

/* The value for item into *out (uninitialised; set only on KEYTMPL_OK).
 * partition: the partition key's limit applies, else the sort key's. On
 * another answer, *where gets the dotted path it is about (the caller's
 * buf, reset first) and *type the offending type (KEYTMPL_TYPE). The named
 * form checks each named attribute and sets *out to the first's value. */
keytmpl_why keytmpl_apply(const keytmpl *t, const av *item, bool partition, av *out, buf *where,
                          av_type *type);

/* Every source path of the template (dotted), for conditions: calls fn
 * for each reference (the named form: each name, a one-segment path). */
typedef void (*keytmpl_path_fn)(void *ctx, char *const *path, size_t n);
void keytmpl_paths(const keytmpl *t, keytmpl_path_fn fn, void *ctx);

/* "an attribute missing", "a type that cannot be a key", ... */
const char *keytmpl_why_text(keytmpl_why w);

#endif
