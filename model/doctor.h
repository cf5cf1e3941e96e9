/*
 * doctor — what hurts a single-table design, found in its data, its
 * entities and its access patterns, each finding with what to do.
 *
 * Per item (doctor_item, one pass over the table):
 * - an item over 80% of DynamoDB's 400 KB item limit (its key, its size);
 * - a TTL value that cannot work (the table's TTL attribute, model/ttl.h):
 *   a String (TTL reads only Numbers), milliseconds or microseconds
 *   instead of epoch seconds, a time more than five years past (DynamoDB
 *   ignores it) or more than a hundred years ahead;
 * - an item that matches no entity of the model (a model file's entities,
 *   else the items without the type attribute of a table that has one).
 * Per table, after the pass (doctor_finish):
 * - an attribute of one entity that holds two types or more (NULL aside);
 * - a GSI key attribute missing from items of an entity that a pattern
 *   reading that index expects there (a sparse index by accident);
 * - an index no access pattern uses (when the table has patterns at all);
 * - a hot partition of the table or an index (doctor_partition, by
 *   doctor_hot: the rule the table view's HOT uses); and on a table with
 *   an LSI, an item collection past 80% of the 10 GB it may hold;
 * - TTL disabled while an attribute named like one (ttl, expires...,
 *   expiry..., expiration...) holds epoch seconds.
 * Whether anybody reads an index is not in the data (DynamoDB's
 * CloudWatch metrics say it); doctor_finish notes that once.
 *
 * Ownership: the doctor copies what it keeps (keys of examples); the
 * model, patterns and items are only read during the calls. A report
 * owns its findings.
 */
#ifndef DDBX_DOCTOR_H
#define DDBX_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/entity.h"
#include "model/pattern.h"
#include "model/size.h"

#define DOCTOR_BIG_ITEM (SIZE_ITEM_MAX / 5 * 4)   /* 80% of 400 KB */

#define DOCTOR_KINDS(X) \
    X(BIG_ITEM,        "big-item") \
    X(TTL_STRING,      "ttl-string") \
    X(TTL_MILLIS,      "ttl-milliseconds") \
    X(TTL_PAST,        "ttl-past") \
    X(TTL_FUTURE,      "ttl-future") \
    X(TTL_DISABLED,    "ttl-disabled") \
    X(NO_ENTITY,       "no-entity") \
    X(MIXED_TYPES,     "mixed-types") \
    X(SPARSE_INDEX,    "sparse-by-accident") \
    X(UNUSED_INDEX,    "unused-index") \
    X(HOT_PARTITION,   "hot-partition") \
    X(COLLECTION_SIZE, "item-collection-size")

typedef enum {
#define DOCTOR_ENUM(id, name) DOC_##id,
    DOCTOR_KINDS(DOCTOR_ENUM)
#undef DOCTOR_ENUM
    DOC__COUNT
} doctor_kind;

/* "big-item", ... */
const char *doctor_kind_name(doctor_kind k);

typedef struct doctor_finding {
    doctor_kind kind;
    char *table;
    char *what;            /* what is wrong, with numbers and names */
    char *todo;            /* what to do about it */
    av key;                /* an item it is about (its key); AV_NONE: none */
    char *index;           /* the index it is about (a partition's); NULL */
} doctor_finding;

typedef struct doctor_report {
    doctor_finding *f;
    size_t n;
    char **notes;          /* what could not be judged, and why */
    size_t n_notes;
} doctor_report;

void doctor_report_init(doctor_report *r);
void doctor_report_done(doctor_report *r);

typedef struct doctor doctor;

/*
 * A doctor for one table: its inferred entities (for mixed types and the
 * index checks), the declared ones (a model file's table; NULL: judge
 * entity-less items by the inferred table's type attribute), the TTL
 * attribute (NULL: disabled), now in epoch seconds, and the access
 * patterns (NULL or none of the table: the index checks are notes).
 */
doctor *doctor_new(const char *table, const table_def *def, const char *ttl_attr, double now);
void doctor_item(doctor *x, const ent_table *declared, const av *item);
/* A hot partition, far above the rest: at least DOCTOR_HOT_MIN items,
 * and at least DOCTOR_HOT_TIMES times the mean of the other partitions
 * of its table or index in items, or in bytes (bytes and total_bytes 0:
 * not known, items alone). total_*: the sums over all parts partitions
 * (this one included). An even table has none (20 partitions of 100
 * items: each is 1 time the others' mean); the only partition of a table
 * or index, with DOCTOR_HOT_MIN items or more, is HOT: its key has one
 * value, so every read and write goes to it (an index keyed on `type`).
 * The mean of the others, not of all: a few big partitions raise the
 * mean of all themselves (one of 1,000 items beside one of 1 is 2 times
 * the mean of both, 1,000 times the other's). */
#define DOCTOR_HOT_MIN 32
#define DOCTOR_HOT_TIMES 4
bool doctor_hot(uint64_t items, uint64_t bytes, uint64_t total_items, uint64_t total_bytes, uint64_t parts);
/* One of the largest partitions of the table (index NULL) or an index,
 * with the totals of what it is part of (parts: its partitions). */
void doctor_partition(doctor *x, const char *index, const av *pk, uint64_t items, uint64_t bytes,
                      uint64_t total_items, uint64_t total_bytes, uint64_t parts);
/* On a table with an LSI: the size of one of its largest item
 * collections (the partition's items and their LSI entries). */
void doctor_collection(doctor *x, const av *pk, uint64_t bytes);
/* The checks over the whole table; appends the findings to out, frees x. */
void doctor_finish(doctor *x, const ent_table *inferred, const ent_table *declared,
                   const pattern_set *const *sets, size_t n_sets, doctor_report *out);

#endif
