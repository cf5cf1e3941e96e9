/*
 * keyset — a set of items named by their table and table key, in order:
 * what the explorer's marks are (ui/marks.c).
 *
 * An entry is the table (a small number, in the order tables were first
 * used) and the item's key attributes encoded by model/keyenc (partition
 * key then sort key), so the set's order is the table's own key order.
 * The entries live in a balanced search tree (POSIX tsearch: glibc's is a
 * red-black tree), so adding, removing and testing one item is O(log n)
 * comparisons, and listing them all in order is O(n): a million entries
 * take seconds, not hours. keyset_comparisons counts the comparisons, for
 * the test that keeps it so (tests/model/test_keyset.c).
 *
 * A table's key schema (names and types) is recorded when it is first
 * used, and an entry's key is rebuilt from that record (keyset_entry_key);
 * a table of the same name with another key schema (dropped and made
 * again) is another table here.
 *
 * Ownership: the set owns its entries and table records; the items and
 * definitions passed in are only read. keyset_list's array is the
 * caller's (free it), its entries the set's, valid until they are removed.
 * Not thread-safe (tsearch's walk has no context: a list is built under a
 * static pointer).
 */
#ifndef DDBX_KEYSET_H
#define DDBX_KEYSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/schema.h"

typedef struct keyset keyset;
typedef struct keyset_entry keyset_entry;

keyset *keyset_new(void);
void keyset_free(keyset *s);
/* Removes every entry (the table records stay). */
void keyset_clear(keyset *s);

/* item: an item of table (or a key map, or an index item, which carries
 * its table's key): its key attributes per def. Add returns 1 when added,
 * 0 when it was there, -1 when item is no item of the table (a key
 * attribute missing or of another type than def declares). */
int keyset_add(keyset *s, const char *table, const table_def *def, const av *item);
bool keyset_remove(keyset *s, const char *table, const table_def *def, const av *item);
/* Removes the item of key (a key map) from every record of table whose
 * key attributes key carries (names and types as recorded): no
 * definition needed, for a caller that knows only the key. */
bool keyset_remove_key(keyset *s, const char *table, const av *key);
bool keyset_has(const keyset *s, const char *table, const table_def *def, const av *item);

size_t keyset_count(const keyset *s);

/* The tables used, numbered 0.. in the order of first use: how many, and
 * each one's name and entries. */
size_t keyset_tables(const keyset *s);
const char *keyset_table_name(const keyset *s, size_t t);
size_t keyset_table_count(const keyset *s, size_t t);
/* Its key attributes' names as recorded (sk NULL: no sort key). */
void keyset_table_keys(const keyset *s, size_t t, const char **pk, const char **sk);

/* Every entry in the set's order (table number, then key order), in a
 * new array (*n entries). */
const keyset_entry **keyset_list(const keyset *s, size_t *n);
/* An entry's table number and its key as a key map (into an
 * uninitialised out; the table's key attributes as recorded). */
size_t keyset_entry_table(const keyset_entry *e);
void keyset_entry_key(const keyset *s, const keyset_entry *e, av *out);
/* Removes a listed entry (which is freed). */
void keyset_remove_entry(keyset *s, const keyset_entry *e);

/* Key comparisons made by every keyset since the program started. */
uint64_t keyset_comparisons(void);

#endif
