/*
 * pattern_file — access-pattern files (JSON, read with cJSON) into
 * model/pattern's pattern_set, and back.
 *
 * The format (documented in ddbx(1), ACCESS PATTERNS):
 *
 *   { "entities": { "TABLE": { "attribute": "SK",
 *                              "prefixes": { "TARGET#": "follow" } } },
 *     "model": "design.model.json",
 *     "patterns": [ { "name": "...", "description": "...",
 *                     "operation": "GetItem|Query|Scan|PartiQL",
 *                     "table": "...", "index": "...",
 *                     "key_condition": "PK = :user AND begins_with(SK, :p)",
 *                     "filter": "...", "statement": "SELECT ...",
 *                     "names": { "#n": "attr" },
 *                     "parameters": { "user": {"S": "ACTOR#alice"} },
 *                     "limit": 100, "scan_forward": false,
 *                     "consistent_read": false, "rate": "200/s",
 *                     "expect": { "entity_types": ["follow"],
 *                                 "max_items": 100, "min_items": 1,
 *                                 "max_read_units": 1 } } ] }
 *
 * "model" names a model file (data/model_file.h; relative to the pattern
 * file's folder): the entity types of a table without an "entities" rule
 * are then its entities, an item's the one it matches, and
 * "entity_types" must name entities of it.
 *
 * Every error names the file, the line and column and the member
 * ("patterns[2].expect.max_items: ..."): syntax errors where cJSON
 * stopped, schema errors at the member (model/jsonpos finds it in the
 * text). Unknown members are errors, so a misspelt expectation is not
 * silently ignored.
 *
 * Ownership: the caller's set is filled (pattern_set_init first); file
 * names and texts are only read. No cJSON object leaves this module.
 */
#ifndef DDBX_PATTERN_FILE_H
#define DDBX_PATTERN_FILE_H

#include <stddef.h>

#include "model/buf.h"
#include "model/pattern.h"
#include "model/status.h"

/* Parses text[0..len) (named file in errors) and adds its patterns and
 * rules to set. ST_PARSE with d->file, d->line, d->col and the message
 * "MEMBER: what is wrong" (the member path first, when there is one).
 * On failure set is left as it was. */
status pattern_file_parse(const char *file, const char *text, size_t len, pattern_set *set,
                          diag *d);
/* Reads and parses a file (ST_IO when it cannot be read). */
status pattern_file_load(const char *path, pattern_set *set, diag *d);

/* Every *.json file of dir, in name order, into set (a pattern of a name
 * already read is replaced by the later one). A file that does not
 * parse is skipped; the first such error is in d and the status says it
 * (the others still load). A missing dir is no error: nothing to load. */
status pattern_file_load_dir(const char *dir, pattern_set *set, diag *d);
/* The paths of those files ("DIR/NAME.json"), in name order, malloc'd
 * (free each, then the array); none when dir cannot be read. */
void pattern_file_list_dir(const char *dir, char ***paths, size_t *n);

/* The set as a pattern file, two-space indented, members in the order
 * above (only those set). */
void pattern_file_write(const pattern_set *set, buf *out);
/* Writes the set to path through a temporary file and a rename, so a
 * failure leaves the old file whole. */
status pattern_file_save(const char *path, const pattern_set *set, diag *d);
/* The same for text already made (ST_IO with d->file on failure). */
status pattern_file_write_text(const char *path, const char *data, size_t len, diag *d);

#endif
