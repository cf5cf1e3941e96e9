/*
 * builder_int — what the builder_*.c files share and nobody else sees:
 * node allocation (builder.c), the operator class (builder.c) and the
 * maps-argument parser (builder_parse.c, also used by builder_req.c).
 * Not part of the public API.
 */
#ifndef DDBX_BUILDER_INT_H
#define DDBX_BUILDER_INT_H

#include "model/builder.h"

/* A new, empty clause (group false) or group; positions unset (-1). */
bnode *builder_node_new(bool group);

/* Frees n and everything under it; n must be detached or the root. */
void builder_node_free(bnode *n);

/* True for the function-style operators (attribute_exists() ... contains()). */
bool builder_is_function(bop op);

/* Parses one ExpressionAttributeNames (names) or ExpressionAttributeValues
 * map given as JSON text. NULL or blank text means not given (out->type is
 * AV_NONE). On error the diag names the map in d->file and keeps the
 * position within the text. */
status builder_parse_map(const char *json, bool names, av *out, diag *d);

#endif
