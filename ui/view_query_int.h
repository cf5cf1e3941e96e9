/*
 * view_query_int — what ui/view_query.c (the bar, its fields, runs and
 * results) and ui/view_query_key.c (the key fields: reading the partition
 * value and the sort-key condition, the key condition they make) share:
 * the bar's state. The bar owns every field; the values read from the
 * key fields are the bar's (freed by query_clear_pk / query_clear_sk).
 */
#ifndef DDBX_VIEW_QUERY_INT_H
#define DDBX_VIEW_QUERY_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/ddbreq.h"
#include "model/expr.h"
#include "model/schema.h"
#include "ui/cols.h"

enum { F_INDEX, F_PK, F_SK, F_FILTER, F_NAMES, F_VALUES, F__COUNT };

typedef struct query_view {
    char *table;
    table_def def;
    bool have_def;
    char *f[F__COUNT];   /* what each field shows (and its prompt edits) */
    char *bad[F__COUNT]; /* why a field's text does not read; NULL: it does */
    av pk;               /* the partition value; AV_NONE: none (a Scan) */
    /* A multi-attribute key: the values of the HASH attributes after the
     * first, and equality values on the first n_sk_eq RANGE attributes,
     * the condition (sk_op) then on the next one. */
    av pk_more[SCHEMA_MAX_KEY_PARTS - 1];
    size_t n_pk_more;
    av sk_eq[SCHEMA_MAX_KEY_PARTS - 1];
    size_t n_sk_eq;
    expr_key_op sk_op;   /* the sort-key condition; KEY_SK_NONE: none */
    av sk1, sk2;         /* its value, and BETWEEN's upper bound */
    av names, values;    /* the filter's maps; AV_NONE: none */
    bool ran;
    bool scan;           /* what ran */
    long long count, scanned;
    double capacity;
    av lek;              /* LastEvaluatedKey of the last page; AV_NONE: none */
    long long pages;     /* pages read by this run */
    buf predict;         /* the prediction line, for the fields as they are */
    bool predicted;      /* predict is for the fields as they are */
    double predict_units;/* the prediction; < 0: not known */
    char *error;
    cols cols;           /* fitted to the results on screen (layout) */
    long long gone;      /* results dropped: deleted since the request ran */
    bool stale;          /* results not checked after a write (drop_gone) */
} query_view;

/* The index the bar reads through (NULL: the base table). */
static inline const index_def *query_cur_index(query_view *p)
{
    return p->f[F_INDEX][0] ? table_def_index(&p->def, p->f[F_INDEX]) : NULL;
}

/* The key schema's HASH and RANGE attributes in KeySchema order: one
 * each for a table or an index of one-attribute keys, up to four each for
 * a multi-attribute GSI key. */
size_t query_n_hash(query_view *p);
size_t query_n_range(query_view *p);
/* "tournamentId | region": the attributes a multi-part field takes. */
void query_parts_names(query_view *p, bool hash, buf *out);

/* Why field f's text does not read ("sort key: ..."). */
void query_set_bad(query_view *p, int f, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void query_clear_pk(query_view *p);
void query_clear_sk(query_view *p);
/* The partition value and the sort-key condition from their fields'
 * text (or why not, in the field's bad text). */
void query_read_pk(query_view *p);
void query_read_sk(query_view *p, const char *text);
/* The key condition of a Query into req (its names and values added to
 * the request's maps, placeholders the filter does not use); false with
 * *why when the key schema cannot take it. */
bool query_key_cond(query_view *p, ddb_req *req, buf *why);
/* The key condition as the plan lines say it, with its values. */
void query_key_text(query_view *p, buf *out);

#endif
