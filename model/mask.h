/*
 * mask — what `ddbx pull --mask RULES` does to each item it copies: the
 * attributes the rules name hashed, faked, redacted or dropped, the key
 * attributes keeping their shape so the table's access patterns still
 * work on the copy.
 *
 * A rule names attributes by document path (address.street, cards[0].pan;
 * [*] any element, a * step any member) or by a pattern of names
 * (fnmatch glob, any case, any depth: *phone*), in every table or only in
 * those its table patterns match. The first rule that matches an
 * attribute decides it; a rule that matches a map or a list decides
 * everything inside it; "keep" leaves it as it is (and stops later
 * rules).
 *
 * - hash: keyed and consistent: the same value gives the same result in
 *   every item and every table, so a hashed key still joins. A string is
 *   hashed segment by segment between its '#'s: the first segment of a
 *   value that has several (the entity prefix: ACTOR# of ACTOR#alice)
 *   and every segment written in capitals (PROFILE, CRS) are kept, the
 *   other segments each replaced by 16 letters and digits of their MAC
 *   (base32 of 80 bits): ACTOR#alice -> ACTOR#mz3k..., ENROLL#CRS#math204
 *   -> ENROLL#CRS#q2v..., while TARGET#alice gets the same replacement
 *   for alice. A number becomes an 18-digit integer, binary 16 bytes of
 *   its MAC; sets element by element, maps and lists value by value.
 * - fake: a plausible value of the same type derived from the value's
 *   MAC (so consistent too): "as" name, email (user-...@example.com),
 *   phone (each digit replaced), text (letters by letters, digits by
 *   digits, Hangul by Hangul, the rest kept), number (the same digits'
 *   shape), uuid; by default text for S, number for N, bytes of the same
 *   length for B.
 * - redact: a fixed marker of the same type ("REDACTED", 0, the bytes of
 *   REDACTED, a one-element set; BOOL false; maps and lists keep their
 *   shape, their values redacted).
 * - drop: the attribute (or list element) is removed.
 *
 * Key attributes (the table's and each index's) may only be hashed or
 * kept: faking, redacting or dropping would merge items or lose them, so
 * mask_bind refuses it, naming the rule's line and column. When the
 * table's key attributes are hashed, index key attributes of their type
 * that no rule names are hashed with them, so GSI1PK = TARGET#bob stays
 * equal to the SK = TARGET#bob it mirrors (a number index key such as a
 * score is left alone when only string keys are hashed).
 *
 * The MAC is the caller's (HMAC-SHA256 under a secret key: data/mask_file.c),
 * so no value is a plain unkeyed hash someone could recompute from a
 * guess. Pure: no I/O; a bound plan is only read by mask_apply, so many
 * threads may apply one plan at once if the MAC is thread-safe.
 *
 * Ownership: a mask owns its rules; a plan borrows its mask (which must
 * outlive it) and owns the rest.
 */
#ifndef DDBX_MASK_H
#define DDBX_MASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/schema.h"
#include "model/status.h"

typedef enum { MASK_KEEP, MASK_HASH, MASK_FAKE, MASK_REDACT, MASK_DROP } mask_action;
typedef enum { MASK_AS_AUTO, MASK_AS_NAME, MASK_AS_EMAIL, MASK_AS_PHONE, MASK_AS_TEXT,
               MASK_AS_NUMBER, MASK_AS_UUID } mask_as;

/* "keep", "hash", ... to its action; false when unknown. The list of
 * names, for messages: "keep, hash, fake, redact, drop". */
bool mask_action_parse(const char *s, mask_action *out);
extern const char mask_action_list[];
bool mask_as_parse(const char *s, mask_as *out);
extern const char mask_as_list[];

typedef enum { MASK_STEP_NAME, MASK_STEP_ANY_NAME, MASK_STEP_INDEX, MASK_STEP_ANY_INDEX } mask_step_kind;

typedef struct mask_step {
    mask_step_kind kind;
    char *name;        /* MASK_STEP_NAME */
    size_t index;      /* MASK_STEP_INDEX */
} mask_step;

typedef struct mask_rule {
    mask_action action;
    mask_as as;          /* fake only */
    char *pattern;       /* a name rule's glob; NULL for a path rule */
    mask_step *path;     /* a path rule's steps */
    size_t depth;
    char **tables;       /* table name globs; none: every table */
    size_t n_tables;
    char *text;          /* the path or pattern as written, for messages */
    int line, col;       /* where the rule is in its file (0: unknown) */
} mask_rule;

/*
 * A rule's document path: names between '.', [N] an element, [*] any
 * element, a step * any member (names cannot hold . [ ]). On ST_PARSE *at
 * is the byte offset of the fault in text. Fills *out (malloc'd steps)
 * and *n.
 */
status mask_parse_path(const char *text, mask_step **out, size_t *n, size_t *at, diag *d);
void mask_rule_done(mask_rule *r);

/* The keyed MAC: 32 bytes of p[0..n) into out. */
typedef void (*mask_mac_fn)(void *ctx, const void *p, size_t n, unsigned char out[32]);

typedef struct mask mask;

mask *mask_new(mask_mac_fn mac, void *ctx);
void mask_free(mask *m);
/* Adds a rule after the others; takes its contents (*r is zeroed). */
void mask_add(mask *m, mask_rule *r);

typedef struct mask_plan mask_plan;

/*
 * The rules for one table: table is its name as the rules' table
 * patterns see it, def its keys and indexes. ST_VALIDATION, with the
 * rule's line and column in d, when a rule would fake, redact or drop a
 * key attribute.
 */
status mask_bind(const mask *m, const char *table, const table_def *def, mask_plan **out,
                 diag *d);
void mask_plan_free(mask_plan *p);

/* Masks item (AV_M) in place; returns how many values it changed or
 * dropped. */
size_t mask_apply(const mask_plan *p, av *item);

/* What mask_apply_tally saw, for the summary of `ddbx pull --mask`: the
 * values each rule of the mask took (changed, dropped or kept), those
 * index keys hashed with the table's (mirrored), and the paths of the
 * strings no rule took, copied as they are ("bio", "location.city",
 * "links[*]"; the first MASK_CLEAR_MAX, more_clear past them). One for
 * each thread applying a plan; mask_tally_add sums them. */
#define MASK_CLEAR_MAX 24
typedef struct mask_tally {
    uint64_t *by_rule;        /* per rule of the mask, in its order */
    size_t n_rules;
    uint64_t mirrored;
    char *clear[MASK_CLEAR_MAX];
    size_t n_clear;
    bool more_clear;
} mask_tally;

void mask_tally_init(mask_tally *t, const mask *m);
void mask_tally_done(mask_tally *t);
void mask_tally_add(mask_tally *into, const mask_tally *from);
/* mask_apply, counting into t (may be NULL). */
size_t mask_apply_tally(const mask_plan *p, av *item, mask_tally *t);
/* One line a rule, as written, for the table: "  bio redact: 4 values",
 * "  *email* fake: no value matched", "  type redact: not for this
 * table"; then "  index keys hashed with the table's: N values" when
 * some were. */
void mask_tally_rules(const mask *m, const char *table, const mask_tally *t, buf *out);
/* The strings no rule took, in name order: "followedAt, location.country,
 * type" (", and more" past MASK_CLEAR_MAX); nothing when there were none. */
void mask_tally_clear(const mask_tally *t, buf *out);

/* What the plan does to the key attributes, for people: "PK, SK hashed
 * (GSI1PK, GSI1SK with them)", or "key attributes kept". */
void mask_plan_describe(const mask_plan *p, buf *out);

/* One value hashed as mask_apply hashes it, into an uninitialised out. */
void mask_hash_value(const mask *m, const av *in, av *out);

#endif
