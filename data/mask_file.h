/*
 * mask_file — the rules file of `ddbx pull --mask RULES` and the secret
 * key the masking is keyed with.
 *
 * The file is JSON (errors say FILE:LINE:COL and the member):
 *   {"key_file": "mask.key",                       (optional)
 *    "rules": [
 *      {"path": "address.street", "action": "redact"},
 *      {"name": "*phone*", "action": "fake", "as": "phone"},
 *      {"path": "PK", "action": "hash"},
 *      {"name": "ssn", "action": "drop", "tables": ["Users*"]}]}
 * A rule has a "path" (a document path: a.b[2].c, [*], *) or a "name"
 * (an fnmatch pattern of attribute names, any case, any depth), an
 * "action" (keep, hash, fake, redact, drop), for fake an "as" (name,
 * email, phone, text, number, uuid), and optionally "tables" (patterns of
 * the tables it is for). What each does is model/mask.h's.
 *
 * The key: hashes and fakes are HMAC-SHA256 (data/sigv4.c) of the value
 * under a secret key, so the same value gives the same result in every
 * item, table and pull that uses the key, and nobody without the key can
 * hash a guessed value to match one. The key is the bytes of a file:
 * "key_file" (relative to the rules file's folder), else mask.key in the
 * database's folder; a missing file is created with 32 random bytes
 * (getentropy), owner-only (0600). The key is never printed.
 *
 * Ownership: a mask_file owns its mask and the key; the mask's MAC reads
 * the key, so the mask is valid while the mask_file is.
 */
#ifndef DDBX_MASK_FILE_H
#define DDBX_MASK_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "model/mask.h"
#include "model/status.h"

typedef struct mask_file mask_file;

/* Reads the rules at path; db_path is the database the masked items go
 * to (its folder holds the default key). */
status mask_file_load(const char *path, const char *db_path, mask_file **out, diag *d);
/* The rules of text (for tests and fuzzing), keyed with key[0..n). */
status mask_file_parse(const char *name, const char *text, size_t len, const void *key,
                       size_t key_len, mask_file **out, diag *d);
void mask_file_free(mask_file *f);

/* A key file's bytes (16 to 4096 of them) into *key (malloc'd; the
 * caller clears and frees it), made first with 32 random bytes,
 * owner-only (0600), when the file is missing (*created says so; created
 * may be NULL). Also the key of `ddbx serve --record` (data/record.h). */
status mask_file_key_load(const char *path, unsigned char **key, size_t *len, bool *created, diag *d);

const mask *mask_file_mask(const mask_file *f);
/* The key's file, and whether mask_file_load created it. */
const char *mask_file_key_path(const mask_file *f);
bool mask_file_key_created(const mask_file *f);

#endif
