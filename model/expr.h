/*
 * expr — DynamoDB's expression language: ConditionExpression,
 * FilterExpression, KeyConditionExpression, ProjectionExpression and
 * UpdateExpression.
 *
 * Pipeline: text is lexed (tokens with byte positions), parsed by
 * recursive descent into an AST allocated from one arena per expression,
 * resolved against the request's ExpressionAttributeNames/Values
 * (placeholders, reserved words, arity, operand types, overlapping paths),
 * then evaluated (conditions, filters), turned into a key range (key
 * conditions), applied (projections, updates) or printed.
 *
 * Ownership:
 * - An expr_ctx borrows the names map (AV_M of AV_S) and the values map
 *   (AV_M) of one request; both must outlive the ctx and every expr parsed
 *   with it. All expressions of one request share one ctx, so "unused
 *   placeholder" is checked across all of them by expr_ctx_finish.
 * - An expr owns its arena (nodes, paths, names). Value nodes point into
 *   the ctx's values map (no copies); path names point into the arena.
 *   expr_free releases everything.
 * - Results built by expr_project / expr_update_apply are owned by the
 *   caller (av_done). Traces are owned by the caller (expr_trace_done).
 *
 * Errors are ST_VALIDATION with DynamoDB's message, already prefixed
 * ("Invalid ConditionExpression: ..."), and diag.pos set to the byte
 * offset of the offending token when there is one. Nothing here prints.
 *
 * Typical store use for an UpdateItem:
 *     expr_ctx cx; expr *upd = NULL, *cond = NULL;
 *     st = expr_ctx_init(&cx, names, values, d);            (may be NULL maps)
 *     if (!st) st = expr_parse(&cx, EXPR_UPDATE, ue, strlen(ue), &upd, d);
 *     if (!st) st = expr_parse(&cx, EXPR_CONDITION, ce, strlen(ce), &cond, d);
 *     if (!st) st = expr_ctx_finish(&cx, d);                (unused placeholders)
 *     ... if (cond && !expr_eval(cond, old)) -> ConditionalCheckFailed
 *     ... st = expr_update_apply(upd, old, &new_item, &changed, d);
 *     expr_free(upd); expr_free(cond); expr_ctx_done(&cx);
 * DynamoDB parses UpdateExpression, ConditionExpression,
 * KeyConditionExpression, FilterExpression, ProjectionExpression in that
 * order; parse them in that order to report the same first error.
 */
#ifndef DDBX_EXPR_H
#define DDBX_EXPR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/buf.h"
#include "model/status.h"

/* Limits DynamoDB enforces. */
#define EXPR_MAX_BYTES     4096   /* expression text */
#define EXPR_MAX_IN        100    /* operands of IN, after the first */
#define EXPR_MAX_DEPTH     32     /* document path nesting levels */
#define EXPR_MAX_OPERATORS 300    /* operators and functions in one expression */

typedef enum {
    EXPR_CONDITION,   /* ConditionExpression */
    EXPR_KEY,         /* KeyConditionExpression */
    EXPR_FILTER,      /* FilterExpression */
    EXPR_UPDATE,      /* UpdateExpression */
    EXPR_PROJECTION,  /* ProjectionExpression */
} expr_kind;

/* "ConditionExpression", ... (the parameter name, used in messages). */
const char *expr_kind_param(expr_kind k);
/* The kind named "condition", "key", "filter", "update", "projection";
 * -1 for another name. */
int expr_kind_from_name(const char *s);

/* ---- AST, walkable by the builder -----------------------------------
 *
 * expr_root() gives the root node; every node has a kind, a byte span
 * [pos, end) in the text (for highlighting), and kids[0..n_kids). Shapes:
 *   conditions/filters/key conditions: OR, AND (2 kids), NOT (1 kid),
 *     CMP (op: expr_cmp; 2 operands), BETWEEN (3 operands), IN (operand
 *     then the list), FUNC as a condition (op: expr_fn; its operands);
 *   operands: PATH (path.steps: names already resolved from #aliases,
 *     alias kept for printing; indexes), VALUE (name ":x", value: the av),
 *     FUNC size(...), and in updates PLUS/MINUS and FUNC if_not_exists /
 *     list_append;
 *   UPDATE: kids are actions SET (path, value), REMOVE (path), ADD and
 *     DELETE (path, VALUE), in text order; op groups them by section;
 *   PROJECTION: kids are PATHs.
 * Nodes are read-only and live as long as the expr. Parentheses are not
 * nodes: expr_print_node re-inserts those precedence needs.
 */

typedef enum {
    EN_OR,        /* kids[0] OR kids[1] */
    EN_AND,       /* kids[0] AND kids[1] */
    EN_NOT,       /* NOT kids[0] */
    EN_CMP,       /* kids[0] op kids[1]; op is an expr_cmp */
    EN_BETWEEN,   /* kids[0] BETWEEN kids[1] AND kids[2] */
    EN_IN,        /* kids[0] IN (kids[1], ..., kids[n-1]) */
    EN_FUNC,      /* fn(kids...); op is an expr_fn */
    EN_PATH,      /* a document path; path is set */
    EN_VALUE,     /* a :placeholder; name is ":x", value its av */
    EN_PLUS,      /* update value kids[0] + kids[1] */
    EN_MINUS,     /* update value kids[0] - kids[1] */
    EN_SET,       /* update action: kids[0] path = kids[1] value */
    EN_REMOVE,    /* update action: REMOVE kids[0] path */
    EN_ADD,       /* update action: ADD kids[0] path kids[1] value */
    EN_DELETE,    /* update action: DELETE kids[0] path kids[1] value */
    EN_UPDATE,    /* update root: kids are actions, in text order */
    EN_PROJECT,   /* projection root: kids are paths */
} expr_node_kind;

typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } expr_cmp;

typedef enum {
    FN_ATTRIBUTE_EXISTS, FN_ATTRIBUTE_NOT_EXISTS, FN_ATTRIBUTE_TYPE,
    FN_BEGINS_WITH, FN_CONTAINS, FN_SIZE,          /* conditions */
    FN_IF_NOT_EXISTS, FN_LIST_APPEND,              /* updates */
} expr_fn;

/* One step of a document path: a member name or a list index. */
typedef struct expr_step {
    bool is_index;
    uint32_t index;       /* when is_index */
    const char *name;     /* resolved attribute name (NUL-terminated) */
    size_t len;
    const char *alias;    /* "#n" when written with a placeholder, else NULL */
    long pos;             /* byte offset of the step in the text */
} expr_step;

typedef struct expr_path {
    expr_step *steps;
    size_t n;
} expr_path;

typedef struct expr_node expr_node;
struct expr_node {
    expr_node_kind kind;
    int op;               /* expr_cmp for EN_CMP; expr_fn for EN_FUNC (-1:
                             unknown name); for update actions the byte
                             offset of their section keyword */
    long pos, end;        /* byte span [pos, end) in the text */
    expr_node **kids;
    size_t n_kids;
    expr_path path;       /* EN_PATH */
    const char *name;     /* EN_VALUE: ":x"; EN_FUNC: the name as written */
    const av *value;      /* EN_VALUE: the value from the ctx */
};

typedef struct expr expr;

const expr_node *expr_root(const expr *e);
expr_kind expr_get_kind(const expr *e);
const char *expr_text(const expr *e);       /* the text as given */
const char *expr_cmp_text(expr_cmp c);      /* "=", "<>", ... */
const char *expr_fn_name(expr_fn f);        /* "attribute_exists", ... */

/* ---- Context and parsing -------------------------------------------- */

typedef struct expr_ctx {
    const av *names;      /* M of S, or NULL */
    const av *values;     /* M, or NULL */
    bool *names_used;     /* one flag a member of names */
    bool *values_used;
} expr_ctx;

/* Borrows the maps (either may be NULL: not given). Checks what DynamoDB
 * checks before parsing: maps not empty, keys well formed, names are S. */
status expr_ctx_init(expr_ctx *cx, const av *names, const av *values, diag *d);
void expr_ctx_done(expr_ctx *cx);
/* After every expression of the request is parsed: fails when a name or
 * value was given and never used (names reported before values). */
status expr_ctx_finish(expr_ctx *cx, diag *d);

/* Lexes, parses and resolves text (len bytes; need not be NUL-terminated).
 * On success *out owns the expression; on failure *out is NULL and d says
 * why, with d->pos at the offending token. */
status expr_parse(expr_ctx *cx, expr_kind kind, const char *text, size_t len,
                  expr **out, diag *d);
void expr_free(expr *e);

/* Is this bare name one of DynamoDB's reserved words (any case)? */
bool expr_is_reserved(const char *name, size_t len);
size_t expr_reserved_count(void);

/* ---- Conditions and filters ----------------------------------------- */

/* Evaluates a condition or filter against item (AV_M), NULL meaning no
 * item (every path missing). Never allocates; never fails (DynamoDB
 * evaluates type mismatches to false). */
bool expr_eval(const expr *e, const av *item);

/* The same, explained: one entry per node of the condition tree in
 * pre-order (operators, comparisons, functions), with its verdict and
 * why, for the builder and `ddbx eval`. */
typedef struct expr_trace_entry {
    const expr_node *node;
    int depth;            /* 0 for the root */
    bool verdict;
    char *text;           /* the clause as canonical text */
    char *why;            /* "status is missing", "\"a\" < \"b\"", ... */
} expr_trace_entry;

typedef struct expr_trace {
    expr_trace_entry *v;
    size_t n, cap;
} expr_trace;

bool expr_explain(const expr *e, const av *item, expr_trace *out);
void expr_trace_done(expr_trace *t);

/* ---- Key conditions -------------------------------------------------- */

typedef enum {
    KEY_SK_NONE,      /* whole partition */
    KEY_SK_EQ, KEY_SK_LT, KEY_SK_LE, KEY_SK_GT, KEY_SK_GE,
    KEY_SK_BETWEEN,   /* sk1 <= sk <= sk2 */
    KEY_SK_BEGINS,    /* sk begins with sk1 (S or B) */
} expr_key_op;

/* What one index seek needs. Values point into the ctx's values map.
 * Bounds: lo/hi NULL means open; lo_incl/hi_incl say whether equal keys
 * are in; prefix is set for begins_with (lo = hi = NULL then). */
typedef struct expr_key_range {
    const char *pk_name;
    const av *pk;
    const char *sk_name;  /* NULL when there is no sort-key condition */
    expr_key_op op;
    const av *sk1, *sk2;
    const av *lo, *hi, *prefix;
    bool lo_incl, hi_incl;
} expr_key_range;

/* Checks a parsed KeyConditionExpression against a key schema (sk_name
 * NULL when the table/index has no sort key; types AV_S, AV_N or AV_B)
 * with DynamoDB's messages, and fills the range. */
status expr_key_range_of(const expr *e, const char *pk_name, av_type pk_type,
                         const char *sk_name, av_type sk_type,
                         expr_key_range *out, diag *d);
/* A KeyConditionExpression on a multi-attribute key (a GSI's, up to
 * EXPR_KEY_PARTS HASH and as many RANGE attributes): an equality on every
 * HASH attribute, equalities on the first n_eq RANGE attributes, and on
 * the one after them (last.sk_name non-NULL) any sort-key condition.
 * Values point into the ctx's values map. */
#define EXPR_KEY_PARTS 4
typedef struct expr_key_tuple {
    const av *hash[EXPR_KEY_PARTS];
    const av *eq[EXPR_KEY_PARTS];
    size_t n_eq;
    expr_key_range last;   /* its pk fields unset; op KEY_SK_NONE: none */
} expr_key_tuple;

/* One key condition: the attribute (name[0..len), not NUL-terminated),
 * the comparison, its values (v2 for BETWEEN). */
typedef struct expr_key_cond {
    const char *name;
    size_t len;
    expr_key_op op;
    const av *v1, *v2;
} expr_key_cond;

/* Checks conditions (an expression's, or the legacy KeyConditions') on a
 * multi-attribute key schema with DynamoDB's messages, and fills out. */
status expr_key_tuple_check(const expr_key_cond *kc, size_t nk, const char *const *hash_names,
                            const av_type *hash_types, size_t n_hash, const char *const *range_names,
                            const av_type *range_types, size_t n_range, expr_key_tuple *out, diag *d);
/* Checks e against a multi-attribute key schema (names and types, HASH
 * and RANGE in KeySchema order) with DynamoDB's messages, and fills out. */
status expr_key_tuple_of(const expr *e, const char *const *hash_names, const av_type *hash_types,
                         size_t n_hash, const char *const *range_names, const av_type *range_types,
                         size_t n_range, expr_key_tuple *out, diag *d);
/* Does a sort-key value fall in the range? (pk is the caller's job.) */
bool expr_key_match_sk(const expr_key_range *r, const av *sk);

/* ---- Projections ------------------------------------------------------ */

/* Builds into *out (uninitialised on entry, an AV_M on return) the parts
 * of item the projection names: top-level attributes, nested map members
 * and list elements (elements of one list keep their order, compacted).
 * Given an UpdateExpression instead, projects the paths its actions write:
 * ReturnValues UPDATED_OLD (on the old item) and UPDATED_NEW (on the new
 * one). */
void expr_project(const expr *e, const av *item, av *out);

/* ---- Updates ------------------------------------------------------------ */

/* Top-level attribute names an update writes, for ReturnValues
 * UPDATED_OLD/UPDATED_NEW and for the store's key checks. */
typedef struct expr_names {
    const char **v;       /* point into the expr's arena */
    size_t n, cap;
    bool *nested;         /* parallel: the action's path goes below the top */
} expr_names;

/* Applies an update to old (AV_M or NULL: no item yet) giving *out (a new
 * item, uninitialised on entry, owned by the caller on success). All SET
 * operands are read from old, as DynamoDB does. changed, when not NULL,
 * receives the top-level names of every action's path. Fails with
 * DynamoDB's runtime messages; then *out is AV_NONE. */
status expr_update_apply(const expr *e, const av *old, av *out,
                         expr_names *changed, diag *d);
/* The update applied to an item that does not exist yet, whose key is key
 * (AV_M): as expr_update_apply, but a REMOVE whose parent is missing does
 * nothing (DynamoDB ignores REMOVE x.y on a missing item, and refuses it on
 * an item without x). */
status expr_update_apply_missing(const expr *e, const av *key, av *out, diag *d);
/* Does the update write an attribute (a SET or ADD action)? One that only
 * removes or deletes does not create a missing item, as in DynamoDB. */
bool expr_update_creates(const expr *e);
void expr_names_done(expr_names *n);

/* ---- Paths ---------------------------------------------------------------- */

/* The first document path of the expression that goes below the
 * top-level attribute name (name.x, name[0]), or NULL (e NULL: none); its
 * pos says where. For the check that key attributes are used as scalars:
 * DynamoDB answers "Key attributes must be scalars; list random access
 * '[]' and map lookup '.' are not allowed: Key: NAME" (IndexKey: for index
 * keys) for projections, filters, updates and conditions. */
const expr_node *expr_nested_path(const expr *e, const char *name, size_t len);

/* ---- Printing ----------------------------------------------------------- */

/* Canonical text: single spaces, keywords upper case, placeholders as
 * written, redundant-free parentheses where precedence needs them. */
void expr_print(const expr *e, buf *out);
void expr_print_node(const expr_node *n, buf *out);
/* An indented tree, one node a line, two spaces a level. */
void expr_print_tree(const expr *e, buf *out);
/* A path as DynamoDB prints it in messages: [a, b, [2]]; and as text:
 * a.b[2] with aliases. */
void expr_path_dynamo(const expr_path *p, buf *out);
void expr_path_text(const expr_path *p, buf *out);
/* A path as a person reads it: the attribute names the placeholders
 * stand for (`type`, not `#type`), '.' and '[' ']' inside a name escaped
 * with a backslash, as the condition builder's path form reads them. */
void expr_path_real_text(const expr_path *p, buf *out);

#endif
