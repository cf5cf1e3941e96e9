/*
 * entity_filter — the table view shown for one entity type: which items
 * are of the entity (model/entity.h's matching: the type attribute, else
 * the key templates), and pages of a partition that hold only those.
 *
 * The entities view (ui/view_entities.c) hands the table view a filter;
 * the table view reads its pages through entity_filter_page, which reads
 * on until it has a page of matches or the partition ends, so keyset
 * paging, item positions and the per-entity columns work as without it.
 *
 * Ownership: a filter owns a copy of the entity's table model.
 */
#ifndef DDBX_ENTITY_FILTER_H
#define DDBX_ENTITY_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/entity.h"

typedef struct entity_filter {
    ent_table t;
    char *entity;
} entity_filter;

/* A filter on the entity named (of t, copied); the caller frees it with
 * entity_filter_free. */
entity_filter *entity_filter_new(const ent_table *t, const char *name);
void entity_filter_free(entity_filter *f);

/* store_page, keeping only the filter's items: up to max of them after
 * `after`; fewer only when the partition has no more. */
status entity_filter_page(const entity_filter *f, store *s, const char *table, const char *index,
                          const av *pk, const av *after, bool forward, size_t max, av *items,
                          size_t *n, diag *d);

/* The filter's items in partition pk and their bytes (size_item), read
 * from the store; false when the partition holds more than max_read
 * items (not counted: *items and *bytes untouched) or the store failed
 * (d set). */
bool entity_filter_count(const entity_filter *f, store *s, const char *table, const char *index,
                         const av *pk, size_t max_read, uint64_t *items, uint64_t *bytes, diag *d);

#endif
