/*
 * jsonpos — where a member of a JSON text is, for error messages.
 *
 * cJSON tells where a syntax error is but not where a member of a parsed
 * document came from, so a schema error ("patterns[2].expect.max_items
 * must be a number") could not name its line and column. jsonpos walks
 * the text again (it must already be valid JSON) along a path of member
 * names and array indexes and gives the byte offset of the value there;
 * jsonpos_line_col turns an offset into a 1-based line and column
 * (columns count characters, as ddbjson's syntax errors do).
 *
 * Pure: reads the caller's text, allocates nothing.
 */
#ifndef DDBX_JSONPOS_H
#define DDBX_JSONPOS_H

#include <stdbool.h>
#include <stddef.h>

/* One step of a path: a member name (name != NULL; bytes name[0..len)),
 * else the element at index of an array. */
typedef struct jsonpos_seg {
    const char *name;
    size_t len;
    size_t index;
} jsonpos_seg;

/* The offset of the value at path[0..n) (n 0: the whole document). When
 * the last step names a member that is absent, the offset of the object
 * that lacks it. False when the text is not JSON of that shape. */
bool jsonpos_find(const char *text, size_t len, const jsonpos_seg *path, size_t n, size_t *off);
/* The same, but for a path ending in a member: the offset of the member's
 * name (its opening quote), for "unknown member" errors. */
bool jsonpos_find_name(const char *text, size_t len, const jsonpos_seg *path, size_t n,
                       size_t *off);

void jsonpos_line_col(const char *text, size_t len, size_t off, int *line, int *col);

#endif
