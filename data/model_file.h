/*
 * model_file — the design's model file (JSON): the tables, their keys and
 * indexes, and their entities (model/entity.h), as `ddbx model --format
 * json` writes it and a person edits it (entity names, key templates,
 * required attributes), and as pattern files refer to it ("model":
 * "FILE") so a pattern can name the entity it returns.
 *
 *   { "ddbx_model": 1,
 *     "tables": { "TABLE": {
 *       "key": { "partition": {"PK": "S"}, "sort": {"SK": "S"} },
 *       "indexes": { "GSI1": { "kind": "GSI", "partition": {"GSI1PK": "S"},
 *                              "sort": {"GSI1SK": "S"}, "projection": "ALL" } },
 *       "type_attribute": "type", "ttl_attribute": "expiresAt",
 *       "read": { "items": 4820, "of": 4820, "sampled": false },
 *       "no_entity": { "items": 0, "keys": [ {"PK": {"S": "..."}} ] },
 *       "entities": { "follow": {
 *         "type": "follow",
 *         "keys": { "PK": "ACTOR#{id}", "SK": "TARGET#{id}" },
 *         "items": 4810, "bytes": 618000, "max_bytes": 140, "write_units": 4810,
 *         "indexes": { "GSI1": { "keys": {"GSI1PK": "TARGET#{id}", "GSI1SK": "ACTOR#{id}"},
 *                                "items": 4810, "write_units": 4810 } },
 *         "attributes": { "followedAt": { "types": {"S": 4810}, "items": 4810,
 *                                         "share": 1, "required": true } },
 *         "sample": { DynamoDB JSON } } } } } }
 *
 * Members are written in that order, entities and attributes by name, so
 * the same data gives the same file. In a file only "key" and each
 * entity's "keys" are required; the counts are what inference found and
 * may be left out. Every error names the file, line, column and member
 * path ("tables.Music.entities.song.keys.SK: ..."); unknown members are
 * errors; a template is checked (braces, empty names).
 *
 * Ownership: the caller's model is filled (ent_model_init first); nothing
 * of cJSON leaves this module.
 */
#ifndef DDBX_MODEL_FILE_H
#define DDBX_MODEL_FILE_H

#include <stddef.h>

#include "model/buf.h"
#include "model/entity.h"
#include "model/status.h"

/* Appends the model as a model file. */
void model_file_write(const ent_model *m, buf *out);

/* Parses text[0..len) (named file in errors) into m (its tables added).
 * ST_PARSE with d->file, line, col and "MEMBER: what is wrong". On failure
 * m is left as it was. */
status model_file_parse(const char *file, const char *text, size_t len, ent_model *m, diag *d);
status model_file_load(const char *path, ent_model *m, diag *d);

#endif
