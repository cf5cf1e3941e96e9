/*
 * fmt — attribute values as the explorer shows them.
 *
 * A table cell is short and says its type only where the text alone would
 * be ambiguous: a string that looks like a number (or is empty) is
 * quoted, binary is `B:` + base64, sets are `SS{..}`/`NS{..}`/`BS{..}`,
 * lists `[..]`, maps `{..}`. Output is raw UTF-8 bytes of the data;
 * escaping for the terminal happens when it is drawn (ui/text). Every
 * function appends to a caller-owned buf.
 */
#ifndef DDBX_FMT_H
#define DDBX_FMT_H

#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"

/* A cell: abbreviated after about `max` bytes (0: no limit). */
void fmt_cell(buf *out, const av *v, size_t max);
/* A scalar's plain text (S as is, N canonical, B base64, BOOL, NULL);
 * for L/M/sets the same as fmt_cell without a limit. */
void fmt_plain(buf *out, const av *v);
/* A value as an expression's operand shows it (the builder's tree, the
 * query bar's request line): S as a JSON string, N plain, the others as
 * DynamoDB JSON. */
void fmt_literal(buf *out, const av *v);
/* "12 B", "3.4 KB", "1.2 MB" (1024-based, as DynamoDB sizes are). */
void fmt_bytes(buf *out, uint64_t n);
/* "PK=ACTOR#alice SK=TARGET#bob" from an item and key attribute names
 * (sk may be NULL). */
void fmt_key(buf *out, const av *item, const char *pk, const char *sk);

#endif
