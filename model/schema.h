/*
 * schema — a table's definition: key schema, attribute types, indexes.
 *
 * Pure data, no I/O. A table_def owns every string and array in it;
 * table_def_free releases them. The store persists and loads these; the
 * explorer reads them to know keys, indexes and projections.
 */
#ifndef DDBX_SCHEMA_H
#define DDBX_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"

typedef struct key_attr {
    char *name;        /* NULL when the key has no sort key */
    av_type type;      /* AV_S, AV_N or AV_B */
} key_attr;

/* DynamoDB's per-table quotas: 20 global and 5 local secondary indexes
 * (CreateTable and UpdateTable refuse more, with these numbers in their
 * messages), so a table has at most SCHEMA_MAX_INDEXES; arrays kept by
 * index position (capacity shares, entry counts) have that room. */
#define SCHEMA_MAX_GSI 20
#define SCHEMA_MAX_LSI 5
#define SCHEMA_MAX_INDEXES (SCHEMA_MAX_GSI + SCHEMA_MAX_LSI)

typedef enum { PROJ_ALL, PROJ_KEYS_ONLY, PROJ_INCLUDE } proj_type;

/* A GSI's key may have up to four HASH and four RANGE attributes
 * (multi-attribute keys, DynamoDB since November 2025: the developer
 * guide's "Multi-attribute key schema"; the API reference's
 * CreateGlobalSecondaryIndexAction). */
#define SCHEMA_MAX_KEY_PARTS 4

typedef struct index_def {
    char *name;
    bool global;       /* GSI (true) or LSI (false) */
    key_attr pk, sk;   /* LSI: pk is the table's partition key. A
                          multi-attribute key: the first HASH and the
                          first RANGE attribute */
    /* The HASH and RANGE attributes after pk and sk, in KeySchema order
     * (n_pk_rest and n_sk_rest of them; GSIs only). */
    key_attr pk_rest[SCHEMA_MAX_KEY_PARTS - 1], sk_rest[SCHEMA_MAX_KEY_PARTS - 1];
    size_t n_pk_rest, n_sk_rest;
    proj_type proj;
    char **include;    /* NonKeyAttributes for PROJ_INCLUDE */
    size_t n_include;
} index_def;

typedef struct table_def {
    char *name;
    key_attr pk, sk;
    index_def *idx;
    size_t n_idx;
    int64_t created;   /* seconds since the epoch */
    struct vec_index *vidx;   /* VectorIndexes (model/vecidx.h) */
    size_t n_vidx;
} table_def;

void table_def_free(table_def *t);       /* frees contents */
void table_def_copy(table_def *dst, const table_def *src);
void index_def_free(index_def *ix);      /* frees contents */
void index_def_copy(index_def *dst, const index_def *src);
/* An index's HASH attributes (at least 1) and RANGE attributes (0 when
 * it has no sort key), and the i-th of each in KeySchema order. */
size_t index_def_n_hash(const index_def *ix);
size_t index_def_n_range(const index_def *ix);
const key_attr *index_def_hash(const index_def *ix, size_t i);
const key_attr *index_def_range(const index_def *ix, size_t i);
/* Has the index more than one HASH or more than one RANGE attribute? */
bool index_def_multi(const index_def *ix);
/* An index's key attributes as name and type arrays, HASH and RANGE
 * (what expr_key_tuple_of and expr_key_tuple_check take); the names are
 * the index's, not copies. */
typedef struct index_key_parts {
    const char *hn[SCHEMA_MAX_KEY_PARTS], *rn[SCHEMA_MAX_KEY_PARTS];
    av_type ht[SCHEMA_MAX_KEY_PARTS], rt[SCHEMA_MAX_KEY_PARTS];
    size_t nh, nr;
} index_key_parts;
void index_def_key_parts(const index_def *ix, index_key_parts *k);
/* Index by name, or NULL. */
const index_def *table_def_index(const table_def *t, const char *name);
/* Is this attribute name one of the table's or the index's key attributes? */
bool table_def_is_key(const table_def *t, const index_def *ix, const char *name);
/* Are a and b (items, AV_M) the same item: equal values of the table's
 * key attributes (an item missing one is no item of the table)? */
bool table_def_same_item(const table_def *t, const av *a, const av *b);
/* Do a and b have the same key schema: names and types of the partition
 * key and the sort key (or neither has one)? */
bool table_def_same_keys(const table_def *a, const table_def *b);
const char *proj_type_name(proj_type p);
/* The item's table key attributes, as an M, into an uninitialised out
 * (those it lacks are left out). */
void table_def_key_of(const table_def *t, const av *item, av *out);
/* Is the item in the index: its key attributes there, of their types
 * (an item without them is absent from a sparse index)? */
bool index_has_item(const index_def *ix, const av *item);
/* The DynamoDB size of item (of size full) as the index projects it: all
 * of it, or its table and index key attributes and the included ones. */
size_t index_entry_size(const table_def *t, const index_def *ix, const av *item, size_t full);   /* "ALL", "KEYS_ONLY", "INCLUDE" */

/* The entity prefix of a key value, appended to out: an S value's text
 * up to and including its first '#' ("TARGET#bob" -> "TARGET#"), or the
 * whole value when it is one short word ("PROFILE", "A"); nothing for
 * other values (numbers, binary, "2024-01-05"). How single-table designs
 * tell item types apart: the explorer's columns per type and the
 * summary of `ddbx diff` count by it. */
struct buf;
void schema_key_prefix(const av *v, struct buf *out);

#endif
