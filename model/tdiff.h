/*
 * tdiff — the differences between two states of a table: a merge of two
 * streams of items, each in key order, into added, removed and changed
 * items, with a summary.
 *
 * A side is an iterator (tdiff_next_fn) the caller provides: data/diffsrc
 * reads tables, export files, remote tables (and backups and
 * points in time) in key order. Key order is the store's: the partition
 * key's and then the sort key's order-preserving encoding (model/keyenc),
 * which is DynamoDB's order (S by bytes, N by value, B by bytes). Both
 * sides are read once, in step, one item each at a time, so a diff of any
 * size runs in constant memory. An item is "added" when only B has its
 * key, "removed" when only A has it, "changed" when both have it and
 * itemdiff finds a difference.
 *
 * The interface is a pull: tdiff_next hands out the next difference, so
 * a printer (`ddbx diff`) and a view that pages (the explorer's diff)
 * drive it alike. The summary counts every kind, and per entity prefix of
 * the sort key (schema_key_prefix; the partition key's when the table has
 * no sort key), the first TDIFF_PREFIXES prefixes by themselves and the
 * rest together.
 *
 * Ownership: tdiff owns the items it holds; an event and everything it
 * points to (items, changes, paths) stay valid until the next tdiff_next
 * or tdiff_free. The sides' contexts and the key names stay the
 * caller's and must outlive the tdiff.
 */
#ifndef DDBX_TDIFF_H
#define DDBX_TDIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/itemdiff.h"
#include "model/schema.h"
#include "model/status.h"

/* The next item of a side, in key order, into an uninitialised *item (an
 * AV_M the tdiff then owns); *end true (item untouched) when there is no
 * more. A failure stops the diff with its diag. */
typedef status (*tdiff_next_fn)(void *ctx, av *item, bool *end, diag *d);

typedef struct tdiff_side {
    tdiff_next_fn next;
    void *ctx;
    const char *name;      /* for messages: "A", or what the side reads */
} tdiff_side;

typedef enum { TDIFF_ADDED, TDIFF_REMOVED, TDIFF_CHANGED } tdiff_kind;

/* "added", "removed", "changed". */
const char *tdiff_kind_name(tdiff_kind k);

typedef struct tdiff_event {
    tdiff_kind kind;
    const av *a, *b;                  /* the item in A / in B; NULL where absent */
    const itemdiff_change *changes;   /* CHANGED: each path that differs, in order */
    size_t n_changes;
    const char *prefix;               /* the entity prefix it was counted under ("" none) */
} tdiff_event;

typedef struct tdiff_counts {
    uint64_t added, removed, changed, same;
} tdiff_counts;

#define TDIFF_PREFIXES 32

typedef struct tdiff_prefix {
    char *prefix;          /* "" for keys without one */
    tdiff_counts c;
} tdiff_prefix;

typedef struct tdiff_summary {
    uint64_t items_a, items_b;     /* read so far */
    tdiff_counts total;
    tdiff_prefix prefixes[TDIFF_PREFIXES];  /* in the order first met */
    size_t n_prefixes;
    tdiff_counts other;            /* items whose prefix came after the first TDIFF_PREFIXES */
    bool has_other;
} tdiff_summary;

typedef struct tdiff tdiff;

/* A diff of a and b compared by key pk (and sk: sk->name NULL when the
 * key has no sort key). */
tdiff *tdiff_new(const key_attr *pk, const key_attr *sk, tdiff_side a, tdiff_side b);
void tdiff_free(tdiff *t);

/*
 * The next difference into *ev; *done true when both sides are read to
 * their end (ev untouched). Items whose key attribute is missing or has
 * another type than the key's, and a side whose keys do not ascend, fail
 * with ST_VALIDATION naming the side and the key.
 */
status tdiff_next(tdiff *t, tdiff_event *ev, bool *done, diag *d);

/* The counts so far (final once tdiff_next said done). */
const tdiff_summary *tdiff_get_summary(const tdiff *t);

/* The key pk, sk of an item as text: PK="ACTOR#alice" SK="PROFILE"
 * (values as itemdiff_value_text writes them; sk->name NULL: none). */
void tdiff_key_text(const key_attr *pk, const key_attr *sk, const av *item, buf *out);

#endif
