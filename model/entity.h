/*
 * entity — the entity types of a single-table design: inferred from the
 * items, or declared in a model file (data/model_file.h), and matched
 * against items.
 *
 * A single table holds several kinds of item (a user's profile beside her
 * follow edges). Each kind is an entity: a name, key templates
 * (`PK = ACTOR#{id}`, `SK = TARGET#{id}`), the templates of the index
 * keys of the items in each index (`GSI1PK = TARGET#{id}`), and what the
 * items hold: count, total and average size, the attributes with their
 * types and the share of items that have each.
 *
 * Inference reads items one at a time (ent_infer_add), in constant memory
 * per entity, and groups them:
 * - by a type attribute when the items have one (type, entityType,
 *   entity_type, _type, __typename or entity, in any case, a String): the
 *   attribute most items carry names the entity; an item without it in
 *   such a table belongs to no entity (counted, its key kept);
 * - else by the shape of the keys: a value's first segment before '#'
 *   (`TARGET#bob` -> `TARGET#`), or the whole value when it is one word
 *   of capitals, digits and '_' (`PROFILE`, `META`, `A`), else any value.
 * Key templates are then the segments (split at '#') that are the same in
 * every item of the entity, with `{id}` for the ones that vary (a common
 * prefix ending in a non-alphanumeric character is kept: `download-{id}`;
 * a value that always equals another attribute is named after it:
 * `{artist}`; ISO-8601 dates are `{iso8601}`, numbers `{n}`). The last
 * placeholder of a template takes the rest of the value, '#' included, so
 * `TARGET#{id}` covers the sharded `TARGET#star#7`.
 *
 * Ownership: an ent_model owns its tables, a table its entities and
 * definition, an entity its strings, attributes, indexes and sample item.
 * *_init before use, *_done after. The inferrer owns its state until
 * ent_infer_finish moves the result out.
 */
#ifndef DDBX_ENTITY_H
#define DDBX_ENTITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/schema.h"

/* One counter per av_type (AV_NONE unused). */
#define ENT_TYPES (AV_BS + 1)
/* Attributes kept per entity (a wider item's rest is counted, not listed). */
#define ENT_MAX_ATTRS 1000
/* Entities per table; items of further shapes belong to none. */
#define ENT_MAX_ENTITIES 64
/* Keys of items of no entity kept to name them. */
#define ENT_MAX_STRAYS 5

typedef struct ent_attr {
    char *name;
    uint64_t count;              /* items that have it */
    uint64_t types[ENT_TYPES];   /* of those, per type */
    bool required;               /* every item must have it (the model file's say) */
} ent_attr;

typedef struct ent_index {
    char *name;                  /* the index */
    char *pk_tmpl, *sk_tmpl;     /* templates of its key attributes (sk NULL: none) */
    uint64_t count;              /* items of the entity in the index */
    uint64_t write_halves;       /* their write units, in halves: each entry's
                                    projected size, 1 KB a unit (model/size.h) */
} ent_index;

typedef struct ent_entity {
    char *name;
    char *type_value;            /* the type attribute's value; NULL: told by keys */
    char *pk_tmpl, *sk_tmpl;     /* sk NULL: the table has no sort key */
    uint64_t count, bytes;       /* items, their DynamoDB size */
    uint64_t max_bytes;
    uint64_t write_halves;       /* sum of each item's write units (halves) */
    ent_attr *attrs;             /* by name */
    size_t n_attrs;
    uint64_t more_attrs;         /* attributes not listed (ENT_MAX_ATTRS) */
    ent_index *idx;              /* one per index of the table, in its order */
    size_t n_idx;
    av sample;                   /* the first item met; AV_NONE: none */
} ent_entity;

typedef struct ent_table {
    char *name;
    table_def def;               /* keys and indexes (def.name NULL: unknown) */
    char *type_attr;             /* NULL: entities told by keys */
    char *ttl_attr;              /* the Time to Live attribute; NULL: TTL disabled */
    uint64_t items_read;         /* items the model was made from */
    uint64_t items_total;        /* items of the table (0: unknown) */
    bool sampled;                /* items_read is a sample of items_total */
    ent_entity *e;                   /* by name */
    size_t n;
    uint64_t strays;             /* items of no ent_entity */
    av strays_keys[ENT_MAX_STRAYS];  /* the first ones' keys */
    size_t n_strays_keys;
} ent_table;

typedef struct ent_model {
    ent_table *t;
    size_t n;
} ent_model;

void ent_model_init(ent_model *m);
void ent_model_done(ent_model *m);
void ent_table_init(ent_table *t);
void ent_table_done(ent_table *t);
void entity_init(ent_entity *e);
void entity_done(ent_entity *e);
void ent_table_copy(ent_table *dst, const ent_table *src);
/* Appends t (moved in: t is left empty) to m, replacing a table of its name. */
void ent_model_put(ent_model *m, ent_table *t);
const ent_table *ent_model_table(const ent_model *m, const char *name);
const ent_entity *ent_table_entity(const ent_table *t, const char *name);
const ent_attr *entity_attr(const ent_entity *e, const char *name);
/* Puts t's entities in name order, and e's attributes. */
void ent_table_sort(ent_table *t);
void entity_sort_attrs(ent_entity *e);

/* ---- inference --------------------------------------------------------- */

typedef struct ent_infer ent_infer;

/* def: the table's definition (copied). */
ent_infer *ent_infer_new(const table_def *def);
/* One item of the table (AV_M). */
void ent_infer_add(ent_infer *x, const av *item);
/* The model of the items added, into an initialised out (ent_table_init);
 * entities by name. total and sampled say what the items were of. Frees x. */
void ent_infer_finish(ent_infer *x, uint64_t total, bool sampled, ent_table *out);

/* ---- templates and matching ---------------------------------------------- */

/* Does the key value v match the template ("ACTOR#{id}", "{n}")? A
 * placeholder matches one or more characters up to the literal after it;
 * the last takes the rest. Numbers and binaries match only a template that
 * is one placeholder. */
bool ent_tmpl_match(const char *tmpl, const av *v);
/* The literal characters of a template (how specific it is). */
size_t ent_tmpl_literal_len(const char *tmpl);
/* Is the template well formed: braces paired, names non-empty, no two
 * placeholders side by side? The offset of the fault into *at. */
bool ent_tmpl_valid(const char *tmpl, size_t *at);

/* The entity of an item of the table: by the type attribute, else by the
 * key templates (the most specific match wins); NULL: none. */
const ent_entity *ent_table_match(const ent_table *t, const av *item);

/* Is an attribute of mixed types (two types besides NULL)? */
bool ent_attr_mixed(const ent_attr *a);
/* "S" or "N 3/NULL 1": the attribute's types, most used first. */
void ent_attr_types_text(const ent_attr *a, buf *out);
/* The share of the entity's items that have the attribute, 0..1. */
double ent_attr_share(const ent_entity *e, const ent_attr *a);
/* That share as a percentage that never rounds to what it is not: "<1%"
 * for an attribute on a few items (never "0%"), ">99%" for one missing
 * from a few (never "100%"), else the nearest whole percent. */
void ent_attr_share_text(const ent_entity *e, const ent_attr *a, buf *out);

#endif
