/*
 * av — DynamoDB attribute values, and items.
 *
 * An av is a tagged value of one of DynamoDB's ten types. It owns all its
 * heap data deeply; av_done releases that data (not the struct, which is
 * embedded in an array, a map member or the caller's stack: STYLE's
 * _init/_done pair, never allocated on its own).
 * An item is an av of type AV_M.
 *
 * Invariants, which every constructor keeps and every consumer may rely on:
 * - S and B hold bytes (ptr, len); ptr is always NUL-terminated as well, so
 *   S can be used as a C string when it has no NUL inside.
 * - M members are sorted by name (bytewise, shorter first on a tie) and
 *   names are unique: lookup is a binary search, output is canonical.
 * - SS, NS, BS elements are avs of type S, N, B, sorted in DynamoDB key
 *   order (av_cmp) with no duplicates; a set is never empty when valid
 *   (the codec refuses empty sets; the updater removes emptied ones).
 */
#ifndef DDBX_AV_H
#define DDBX_AV_H

#include <stdbool.h>
#include <stddef.h>

#include "model/num.h"
#include "model/status.h"

typedef enum {
    AV_NONE = 0,   /* absent / moved-from; never stored in an item */
    AV_S, AV_N, AV_B, AV_BOOL, AV_NULL, AV_L, AV_M, AV_SS, AV_NS, AV_BS
} av_type;

typedef struct av av;
typedef struct av_member av_member;

struct av {
    av_type type;
    union {
        struct { char *ptr; size_t len; } s;          /* S, B */
        num n;                                        /* N */
        bool b;                                       /* BOOL */
        struct { av *v; size_t len, cap; } l;         /* L, SS, NS, BS */
        struct { av_member *v; size_t len, cap; } m;  /* M */
    } u;
};

struct av_member {
    char *name;        /* NUL-terminated; name_len excludes the NUL */
    size_t name_len;
    av val;
};

/* DynamoDB's type descriptor: "S", "N", ..., "BS"; "" for AV_NONE. */
const char *av_type_name(av_type t);
/* Inverse of av_type_name; AV_NONE when unknown. */
av_type av_type_from_name(const char *name, size_t len);
bool av_is_set(av_type t);
/* Element type of a set type (AV_SS -> AV_S), AV_NONE otherwise. */
av_type av_set_elem(av_type t);

/* Constructors: copy their input. */
void av_init_s(av *v, const char *p, size_t len);
void av_init_b(av *v, const void *p, size_t len);
void av_init_n(av *v, const num *n);
void av_init_bool(av *v, bool b);
void av_init_null(av *v);
void av_init_list(av *v, av_type t);   /* empty L, M, SS, NS or BS */

void av_done(av *v);                   /* frees contents; leaves AV_NONE */
void av_copy(av *dst, const av *src);  /* deep copy into uninitialised dst */
void av_move(av *dst, av *src);        /* dst takes src's data; src AV_NONE */

/* Deep equality (sets compare as sets, maps as maps). */
bool av_equal(const av *a, const av *b);

/*
 * DynamoDB's order within one scalar type: S by UTF-8 bytes, B by bytes,
 * N numerically. Between types, or for non-scalars, orders by type first
 * so it is a total order usable for sorting; DynamoDB comparisons of
 * different types are false, which callers check with a.type == b.type.
 */
int av_cmp(const av *a, const av *b);

/* L, SS, NS, BS: append (takes ownership of elem). Sets: does not sort;
 * call av_set_normalize after building. */
void av_list_push(av *list, av *elem);
/* Sorts set elements and drops duplicates; returns false if there were
 * duplicates (DynamoDB refuses those in input). */
bool av_set_normalize(av *set);
/* Membership test for a set (binary search). */
bool av_set_has(const av *set, const av *elem);

/* M: lookup by name (binary search). */
const av *av_map_get(const av *m, const char *name, size_t len);
av *av_map_get_mut(av *m, const char *name, size_t len);
/* M: insert or replace, keeping order; takes ownership of val. */
void av_map_put(av *m, const char *name, size_t len, av *val);
/* M: remove; returns whether it was there. */
bool av_map_remove(av *m, const char *name, size_t len);

/*
 * A scalar as plain text, appended to out: S as is (raw bytes), N in
 * canonical form, B as base64, BOOL true/false, NULL null. False, with
 * nothing written, for L, M, sets and AV_NONE. The one formatter the
 * builder's value text, the explorer's plain cells and the expression
 * messages build on (each adds only what its readers need: quoting,
 * prefixes, how containers are written).
 */
struct buf;
bool av_scalar_text(const av *v, struct buf *out);

/*
 * The inverse for the three key types, into an uninitialised out: S is the
 * text as is, N a DynamoDB number (up to 38 digits, num_parse's messages),
 * B base64 decoded as strictly as DynamoDB decodes a B value, with its
 * messages (SerializationException). What the explorer reads a typed key
 * value, a pattern parameter or a plain attribute value with. t must be
 * AV_S, AV_N or AV_B; on error *out is AV_NONE.
 */
status av_scalar_parse(av_type t, const char *text, size_t len, av *out, diag *d);

#endif
