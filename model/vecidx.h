/*
 * vecidx — a table's vector indexes (DynamoDB's VectorIndexes, August 2026)
 * and the arithmetic of a vector search: what a vector attribute must be,
 * the three distance functions, and the k best of a run of scores.
 *
 * Pure C, no I/O. A vec_index owns its strings; vec_index_free releases
 * them. The store keeps the definitions in the table's description and
 * the vectors as packed float32 (data/store_vector.c); the explorer reads
 * the definitions to list the indexes and to run "more like this".
 *
 * Where the rules come from (read 2026-12-06): the API reference's
 * SearchVectors, VectorIndexDescription, SearchSchemaElement and
 * VectorAttributeDefinition pages; the developer guide's "Troubleshooting
 * vector indexes" and "Requirements and limitations". The exact wording
 * of the write refusals is not in AWS's pages; it is the wording of an
 * emulator that captures AWS's answers (its vector module, read
 * 2026-12-06), marked so in the tests.
 */
#ifndef DDBX_VECIDX_H
#define DDBX_VECIDX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/schema.h"
#include "model/status.h"

typedef enum { VEC_COSINE, VEC_EUCLIDEAN, VEC_DOT_PRODUCT } vec_dist;

/* "COSINE", ...; and back (-1 when not one of them). */
const char *vec_dist_name(vec_dist f);
int vec_dist_find(const char *name);

/* SearchSchema: at most one HASH (the vector index's partition key) and
 * any number of INLINE_FILTER attributes, each declared in the table's
 * AttributeDefinitions (so S, N or B). */
typedef struct vec_attr {
    char *name;
    av_type type;
    bool hash;
} vec_attr;

typedef struct vec_index {
    char *name;
    char *attr;          /* VectorAttribute.AttributeName */
    uint32_t dims;       /* Dimensions */
    vec_dist dist;       /* DistanceFunction */
    vec_attr *schema;    /* SearchSchema, in the order given */
    size_t n_schema;
    proj_type proj;      /* Projection */
    char **include;      /* NonKeyAttributes for PROJ_INCLUDE */
    size_t n_include;
} vec_index;

void vec_index_free(vec_index *v);
void vec_index_copy(vec_index *dst, const vec_index *src);
/* The table's vector index of that name, or NULL. */
const vec_index *vec_index_find(const table_def *t, const char *name);
/* The HASH attribute of the search schema, or NULL. */
const vec_attr *vec_index_hash(const vec_index *v);
/* Is name in the search schema? */
const vec_attr *vec_index_schema_attr(const vec_index *v, const char *name, size_t len);

/* Dimensions a vector index may have: 1 (the API reference's "Minimum
 * value of 1") to 4096 (the longest SearchVector the request model takes,
 * as the emulator's model check has it). TopK: 1 to 100 (the developer
 * guide's troubleshooting table). */
#define VEC_MAX_DIMS 4096u
#define VEC_MAX_TOPK 100u

/*
 * The item's vector for the index, into out (v->dims floats):
 * - ST_OK and *present true: a list of v->dims numbers, each a finite
 *   32-bit float (narrowed to float: the index's storage precision);
 * - ST_OK and *present false: the item has no such attribute (it is
 *   simply not in the index);
 * - ST_VALIDATION: a vector of the wrong type or length, with the message
 *   DynamoDB gives a write that carries it (a write is refused whole).
 */
status vec_of_item(const vec_index *v, const av *item, float *out, bool *present, diag *d);
/* A SearchVector (an L of N) as floats, into out (n of them): false when
 * an element is not a number a 32-bit float holds. */
bool vec_of_list(const av *list, float *out);

/* The score of candidate c against query q (n floats) under f: COSINE
 * 1 - cos (0 identical, 2 opposite; 1 when either is all zeros),
 * EUCLIDEAN the distance, DOT_PRODUCT the dot product. qnorm and cnorm
 * are the vectors' Euclidean lengths (COSINE only). */
double vec_score(vec_dist f, const float *q, const float *c, size_t n, double qnorm, double cnorm);
/* The dot product and squared distance of two runs of n floats: the
 * inner loops of a search. */
float vec_dot(const float *a, const float *b, size_t n);
float vec_dist2(const float *a, const float *b, size_t n);
double vec_norm(const float *a, size_t n);
/* Is score a better than b under f (smaller, or larger for DOT_PRODUCT)? */
bool vec_better(vec_dist f, double a, double b);

/* The k best (score, id) seen so far, best first. */
typedef struct vec_topk {
    vec_dist f;
    size_t k, n;
    double *score;
    size_t *id;
} vec_topk;

void vec_topk_init(vec_topk *t, vec_dist f, size_t k);
void vec_topk_done(vec_topk *t);
/* Would score enter (fewer than k kept, or better than the worst)? */
static inline bool vec_topk_wants(const vec_topk *t, double score)
{
    return t->n < t->k || vec_better(t->f, score, t->score[t->n - 1]);
}
void vec_topk_push(vec_topk *t, double score, size_t id);

/*
 * SearchConditionExpression (tests/data/test_vector.c says from where):
 * comparisons (=, <>, <, <=, >, >=), BETWEEN and IN between a top-level
 * search-schema attribute and values, combined by AND, OR, NOT and
 * parentheses; the HASH attribute only in one equality of the top-level
 * AND, and required there. e is the expression parsed as a condition
 * (model/expr.h: names resolved, values bound). terms get the top-level
 * AND's equalities (each met by every match; they borrow e's values);
 * *rest is true when e says more than those, so each candidate must be
 * evaluated with expr_eval. Errors: ST_VALIDATION with DynamoDB's
 * messages ("Invalid comparator used in SearchConditionExpression", an
 * attribute not in the SearchSchema, the HASH not named).
 */
struct expr;
typedef struct vec_term {
    const vec_attr *attr;
    const av *value;
} vec_term;

status vec_cond_terms(const vec_index *v, const struct expr *e, vec_term **terms, size_t *n_terms,
                      bool *rest, diag *d);

/*
 * "More like this" (the explorer's key): the SearchVectors request for
 * the nearest neighbours of item in index v of table, into an
 * uninitialised out: the item's vector as the SearchVector, topk, the
 * HASH attribute's value (a search must name it) and, when filters, the
 * value the item has of each inline filter attribute, as the
 * SearchConditionExpression with #n/:v placeholders; ReturnConsumedCapacity
 * TOTAL. said gets the condition as a person reads it ("tenant = t1 AND
 * cat = x"; empty: none). False (out untouched) when the item has no
 * vector the index takes, or lacks the HASH attribute.
 */
struct ddb_req;
struct buf;
bool vec_similar_req(const vec_index *v, const char *table, const av *item, bool filters, uint32_t topk,
                     struct ddb_req *out, struct buf *said);

#endif
