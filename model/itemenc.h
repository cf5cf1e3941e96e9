/*
 * itemenc — the compact binary encoding of an item, as the store keeps it.
 *
 * Pure, no I/O. An encoded item is a byte string the store writes into its
 * rows; it decodes back to the same av, and it turns into DynamoDB JSON
 * without an av in between (the read path of Query and Scan), so a page of
 * items is answered with one pass over bytes.
 *
 * Layout (varint = unsigned LEB128):
 *   item   := varint count, count x (varint name_len, name, value)
 *   value  := tag, payload
 *     S, B, N   varint len, bytes (N as its canonical text)
 *     BOOL      no payload (tag TRUE or FALSE); NULL: no payload
 *     L         varint body_len, varint count, count x value
 *     M         varint body_len, varint count, count x (name, value)
 *     SS/NS/BS  varint body_len, varint count, count x (varint len, bytes)
 * Members are written in the av's order (sorted by name), so the JSON
 * written from the bytes is canonical. body_len lets a reader skip a
 * container without walking it, which is what makes partial decoding
 * (only the attributes a filter names) cheap.
 *
 * Ownership: encoders append to a caller's buf; decoders fill a
 * caller-provided, uninitialised av that the caller then owns.
 */
#ifndef DDBX_ITEMENC_H
#define DDBX_ITEMENC_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

/* Appends the encoding of item (AV_M) to out. */
void itemenc_encode(buf *out, const av *item);

/* Decodes a whole item. ST_INTERNAL on malformed bytes. */
status itemenc_decode(const void *p, size_t len, av *item, diag *d);

/*
 * Decodes only the top-level attributes whose names are listed (names[i]
 * of length lens[i], in any order; duplicates harmless) into an item
 * holding just those that exist. Everything else is skipped unparsed.
 */
status itemenc_decode_some(const void *p, size_t len, const char *const *names,
                           const size_t *lens, size_t n, av *item, diag *d);

/*
 * The same, refilling an item an earlier call filled (or AV_NONE the first
 * time) and reusing its storage: for a filter applied row after row. The
 * caller frees the item once at the end.
 */
status itemenc_decode_some_into(const void *p, size_t len, const char *const *names,
                                const size_t *lens, size_t n, av *item, diag *d);

/* Appends the item as DynamoDB JSON ({"a":{"S":"x"},...}) straight from
 * the bytes. */
status itemenc_write_json(buf *out, const void *p, size_t len, diag *d);

/*
 * Finds a top-level attribute without decoding: on success *vp and *vlen
 * delimit its encoded value (tag included) inside p. Returns false when
 * absent or malformed.
 */
bool itemenc_find(const void *p, size_t len, const char *name, size_t name_len,
                  const unsigned char **vp, size_t *vlen);

/* Decodes one encoded value (as delimited by itemenc_find). */
status itemenc_decode_value(const void *p, size_t len, av *v, diag *d);

#endif
