/*
 * mine — access patterns mined from recorded requests (`ddbx patterns`,
 * over the lines `ddbx serve --record` writes: data/record.h).
 *
 * A pattern is what the requests have in common when their values are
 * set aside: the operation, the table and index, the key condition's
 * shape, the filter's, the projection's and Select. A shape is the
 * expression with its `:value` placeholders renamed :p1, :p2, ... and its
 * `#name` placeholders #n1, #n2, ... in the order they first appear (so
 * `PK = :pk` and `PK = :user` are one pattern), white space squeezed, and
 * the names the #n stand for. A GetItem (and an UpdateItem, DeleteItem)
 * names its key instead: `PK = :p1 AND SK = :p2`, its key attributes in
 * name order.
 *
 * Per pattern: calls, the share of all calls, errors, items returned and
 * read (scanned) per call, capacity units per call (read units for reads,
 * write units for writes), latency, and its rate: calls over the span of
 * the whole recording (first to last request, at least one second). A
 * month is 730 hours, as the shipped price file has it.
 *
 * Hot keys: a pattern's keys (a Query's partition key value: the one its
 * key condition compares with `=` first; a GetItem's, UpdateItem's or
 * DeleteItem's whole key) are counted by their hash with the space-saving
 * algorithm (MINE_HOT_SLOTS counters a pattern, so memory stays bounded
 * whatever the number of distinct keys); the most frequent is named hot
 * when it takes at least MINE_HOT_SHARE of the pattern's calls, of at
 * least MINE_HOT_MIN calls.
 *
 * Findings (mine_findings): patterns that Scan; filters that keep less
 * than half of what they read (as pattern_judge warns); hot keys; indexes
 * declared (mine_declare_index: the --db tables, or CreateTable requests
 * recorded) that no request read.
 *
 * Pure: no I/O. Memory is one record a pattern (its strings and counters),
 * whatever the number of calls.
 *
 * Ownership: a mine owns its patterns; a mine_call's strings are the
 * caller's and only read during mine_add.
 */
#ifndef DDBX_MINE_H
#define DDBX_MINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"
#include "model/pattern.h"

#define MINE_HOT_SLOTS 16
#define MINE_HOT_SHARE 0.2
#define MINE_HOT_MIN 20
#define MINE_MONTH_SECONDS (730.0 * 3600.0)

/* A name and a value of a recorded request's map ("#n" -> "attr",
 * ":v" -> "S:hash", "PK" -> "S:hash"). */
typedef struct mine_pair {
    const char *name, *value;
} mine_pair;

/* One recorded request (strings borrowed; NULL: absent). */
typedef struct mine_call {
    const char *op, *table, *index;
    const char *keycond, *filter, *projection, *select;
    const mine_pair *names, *values, *key;
    size_t n_names, n_values, n_key;
    const char *const *declared;   /* CreateTable: the index names it declares */
    size_t n_declared;
    long limit;                    /* 0: none */
    bool consistent, backward;     /* ConsistentRead; ScanIndexForward false */
    double t, units, ms;
    bool has_count;
    uint64_t count, scanned;
    bool error;
} mine_call;

typedef struct mine_hot {
    char *key;             /* "S:hash" (a whole key: "PK=S:..,SK=S:..") */
    uint64_t count;
} mine_hot;

typedef struct mine_pattern {
    char *op, *table, *index;          /* index NULL: the base table */
    char *keycond, *filter, *projection, *select;  /* shapes; NULL: none */
    char **names;                      /* names[i]: what #n(i+1) stands for */
    size_t n_names;
    char **param_types;                /* param_types[i]: the type of :p(i+1) ("S") */
    char **param_hash;                 /* and the first value's hash seen */
    size_t n_params;
    long limit;
    bool consistent, backward;
    uint64_t calls, errors, counted;   /* counted: calls whose items are known */
    uint64_t returned, scanned;
    double units, units_max, ms;
    mine_hot hot[MINE_HOT_SLOTS];
    size_t n_hot;
} mine_pattern;

typedef struct mine mine;

mine *mine_new(void);
void mine_free(mine *m);
/* Counts one request. */
void mine_add(mine *m, const mine_call *c);
/* Declares an index of a table (from --db or a recorded CreateTable). */
void mine_declare_index(mine *m, const char *table, const char *index);

/* Calls fn(ctx, table, index) for each index declared. */
void mine_each_declared(const mine *m, void (*fn)(void *, const char *, const char *), void *ctx);

/* The patterns, most calls first (ties: op, table, shapes); valid until
 * the next mine_add. */
size_t mine_count(const mine *m);
const mine_pattern *mine_get(const mine *m, size_t i);
uint64_t mine_calls(const mine *m);
/* The recording's span in seconds (at least 1). */
double mine_seconds(const mine *m);

/* Per pattern: calls a second over the recording, units a call, units a
 * month at that rate; the share of every call; is it a write (WCU). */
double mine_rate(const mine *m, const mine_pattern *p);
double mine_units_per_call(const mine_pattern *p);
double mine_units_month(const mine *m, const mine_pattern *p);
bool mine_is_write(const mine_pattern *p);
/* The shape with #n placeholders shown as their names ("status = :p1"). */
void mine_shape_text(const mine_pattern *p, const char *shape, buf *out);
/* The most frequent key and its share of the pattern's calls; NULL when
 * no key was seen. */
const mine_hot *mine_top_key(const mine_pattern *p, double *share);
bool mine_is_hot(const mine_pattern *p);

typedef enum { MINE_F_SCAN, MINE_F_FILTER, MINE_F_HOT, MINE_F_UNUSED_INDEX } mine_finding_kind;

typedef struct mine_finding {
    mine_finding_kind kind;
    size_t pattern;        /* its index in mine_get's order (not for UNUSED_INDEX) */
    char *table, *index;   /* UNUSED_INDEX */
    char *text;            /* one line, for people */
} mine_finding;

/* The findings, in the order above; free with mine_findings_free. */
void mine_findings(const mine *m, mine_finding **out, size_t *n);
void mine_findings_free(mine_finding *f, size_t n);

/* The readable name of pattern i: "query-SocialGraph-GSI1-3" (lower-case
 * operation, table, index, its rank from 1). */
void mine_pattern_name(const mine *m, size_t i, buf *out);

/* The GetItem, Query and Scan patterns of table as access patterns for
 * `ddbx check` (model/pattern.h), appended to set: the shapes as key
 * condition and filter, #n names, each :p parameter's example a value of
 * its type (its hash as the string: the record holds no value), min_items
 * 0 (an example finds nothing), the recorded rate as "rate", and a
 * description with the measured figures. Returns how many. */
size_t mine_to_patterns(const mine *m, const char *table, pattern_set *set);

/* The figures a mined pattern's description carries (mine_to_patterns
 * writes them; `ddbx model --format markdown` reads them back, as the
 * pattern file has no member for them). */
typedef struct mine_measured {
    uint64_t calls;
    double share;          /* percent of all calls */
    double rate;           /* calls a second */
    double returned, read; /* items a call */
    double units;          /* capacity units a call */
} mine_measured;

/* Reads a description mine_to_patterns wrote; false for any other. */
bool mine_measured_parse(const char *description, mine_measured *out);

#endif
