/*
 * jscan — finds members and array elements in JSON text without building
 * a tree, so the explorer can pick "Item", "Items", "Count" or
 * "LastEvaluatedKey" out of a store response and hand each piece to
 * model/ddbjson. It does not validate: the text comes from the store.
 * Results point into the caller's text.
 */
#ifndef DDBX_JSCAN_H
#define DDBX_JSCAN_H

#include <stdbool.h>
#include <stddef.h>

/* The value of member `name` of the top-level object in s[0..n). */
bool jscan_member(const char *s, size_t n, const char *name, const char **val, size_t *vlen);

/* Iterates the elements of an array value: *pos starts at 0; each call
 * gives the next element or returns false at the end. */
bool jscan_next(const char *arr, size_t n, size_t *pos, const char **val, size_t *vlen);

/* The value as an integer (numbers), or def. */
long long jscan_int(const char *val, size_t vlen, long long def);

#endif
