/*
 * keyenc — order-preserving binary encoding of key values (S, N, B).
 *
 * memcmp over two encodings of the same type gives DynamoDB's order: S by
 * UTF-8 bytes, B by bytes, N numerically (exactly). The encoding is
 * self-delimiting, so a partition key encoding followed by a sort key
 * encoding still sorts by (pk, sk): the store uses these bytes as SQLite
 * BLOB keys. Decoding gives back the same value.
 */
#ifndef DDBX_KEYENC_H
#define DDBX_KEYENC_H

#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

/* Appends the encoding of v (type AV_S, AV_N or AV_B) to out. */
void keyenc_append(buf *out, const av *v);

/* Appends the encoding of an S or B value without its terminator: every
 * value that begins with v (begins_with) has an encoding that begins with
 * these bytes, so a prefix query is one range scan. */
void keyenc_append_prefix(buf *out, const av *v);

/*
 * Decodes one value of type t from p[0..len); sets *used to the bytes
 * consumed. ST_VALIDATION on malformed input.
 */
status keyenc_decode(const unsigned char *p, size_t len, av_type t, av *out,
                     size_t *used, diag *d);

#endif
