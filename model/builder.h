/*
 * builder — the condition-expression builder's model: a tree of clauses
 * a person edits, and everything a request needs from it.
 *
 * A builder is a tree whose root is always a group. A group joins its
 * children with AND or OR; a clause is `left OP args`: a comparator
 * (= <> < <= > >=), BETWEEN, IN, or one of the functions
 * attribute_exists, attribute_not_exists, attribute_type, begins_with,
 * contains. Operands are document paths (nested names and list indexes),
 * typed values (S N B BOOL NULL L M SS NS BS, the type chosen explicitly),
 * or size(path). Any node can be negated (NOT).
 *
 * Tree -> text: builder_print writes the ConditionExpression (or filter,
 * or key condition) with placeholders, collecting names and values into a
 * bmaps shared by every expression of one request: a name that is a
 * reserved word or not a plain identifier gets a readable alias
 * (#status, #status_1), each value a placeholder named after its path
 * (:status, :status_1). Names are written bare when they can be.
 * breq_* render a whole request (PutItem, UpdateItem, DeleteItem,
 * ConditionCheck, Query, Scan) as DynamoDB JSON or as an `aws dynamodb`
 * command line.
 *
 * Text -> tree: builder_parse parses with model/expr (so errors are
 * DynamoDB's, with the byte position in diag.pos for a caret) and walks
 * the AST: AND/OR chains become n-ary groups, NOT marks the node.
 *
 * Verdict: builder_verdict evaluates the condition against an item, the
 * whole and each node, with the reason from expr_explain.
 *
 * Ownership: a builder owns its nodes; a node owns its operands (paths,
 * values). Nodes are addressed by pointer; a pointer stays valid until
 * that node is deleted or the builder freed. Everything filled into a
 * caller's buf, bmaps or verdict is the caller's to release.
 */
#ifndef DDBX_BUILDER_H
#define DDBX_BUILDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/av.h"
#include "model/ddbreq.h"
#include "model/buf.h"
#include "model/expr.h"
#include "model/status.h"

/* ---- paths and operands ---------------------------------------------- */

typedef struct bstep {
    bool is_index;
    uint32_t index;
    char *name;          /* NUL-terminated copy (may hold any bytes but NUL) */
} bstep;

typedef struct bpath {
    bstep *v;
    size_t n;
} bpath;

/* Path text as the builder's form shows and reads it: names joined by
 * '.', list indexes as [n]; a backslash escapes '.', '[', ']' and '\'
 * inside a name (`a\.b` is the one attribute "a.b"). */
status builder_path_parse(const char *text, size_t len, bpath *out, diag *d);
void builder_path_text(const bpath *p, buf *out);
void builder_path_free(bpath *p);
void builder_path_copy(bpath *dst, const bpath *src);
/* Appends a name step / an index step. */
void builder_path_push(bpath *p, const char *name, size_t len);
void builder_path_push_index(bpath *p, uint32_t index);
/* Drops the last step (p->n > 0). */
void builder_path_pop(bpath *p);

/*
 * The paths a person picks from: the key attributes of the table and of
 * each of its indexes (def may be NULL), then every document path of
 * item (may be NULL): each attribute, each nested map key (a.b) and list
 * element (a[0]), depth first in the item's order, containers before what
 * they hold, sets not descended. Written as builder_path_text writes them
 * (so builder_path_parse reads each back), no duplicates, at most max.
 * *out is a malloc'd array of *n malloc'd strings; free with
 * builder_paths_free.
 */
struct table_def;
void builder_pick_paths(const struct table_def *def, const av *item, size_t max,
                        char ***out, size_t *n);
void builder_paths_free(char **v, size_t n);

typedef enum {
    BO_PATH,             /* a document path */
    BO_VALUE,            /* a typed value */
    BO_SIZE,             /* size(path) */
    /* Update operands only (UpdateExpression's operand ::= path | function):
     * if_not_exists(path, operand) and list_append(operand, operand). */
    BO_IF_NOT_EXISTS,
    BO_LIST_APPEND,
} bopnd_kind;

typedef struct bopnd bopnd;
struct bopnd {
    bopnd_kind kind;
    bpath path;          /* BO_PATH, BO_SIZE, BO_IF_NOT_EXISTS */
    av value;            /* BO_VALUE; BO_IF_NOT_EXISTS's default when it has
                          * no sub; AV_NONE: not set yet */
    /* Nested operands: BO_IF_NOT_EXISTS's default when it is not a value
     * (n_sub 1: a path or a function), BO_LIST_APPEND's two operands. */
    bopnd *sub;
    size_t n_sub;
};

/* Makes o an operand of kind k with its nested operands (unset values)
 * in place, keeping o's path where the kind has one. */
void builder_opnd_set_kind(bopnd *o, bopnd_kind k);

void builder_opnd_free(bopnd *o);
void builder_opnd_copy(bopnd *dst, const bopnd *src);

/*
 * A value typed as text, validated for its type:
 *   S     the text as is          N     a DynamoDB number ("12.50", "-3e2")
 *   B     base64                  BOOL  true | false
 *   NULL  empty, null or true     L     JSON array, DynamoDB JSON ([{"S":"a"}])
 *                                       or plain JSON ([1, "a"])
 *   M     JSON object, DynamoDB JSON or plain
 *   SS NS BS  a JSON array of strings, or elements separated by commas
 * Fails with ST_VALIDATION and what is wrong; *out is then AV_NONE.
 */
status builder_value_parse(av_type t, const char *text, size_t len, av *out, diag *d);
/* The inverse: the text builder_value_parse reads back to the same value. */
void builder_value_text(const av *v, buf *out);

/* ---- the tree ---------------------------------------------------------- */

typedef enum {
    BOP_EQ, BOP_NE, BOP_LT, BOP_LE, BOP_GT, BOP_GE,  /* expr_cmp order */
    BOP_BETWEEN, BOP_IN,
    BOP_EXISTS, BOP_NOT_EXISTS, BOP_TYPE, BOP_BEGINS, BOP_CONTAINS,
    BOP__COUNT
} bop;

/* "=", "BETWEEN", "attribute_exists", ...; and back (BOP__COUNT: unknown). */
const char *builder_op_name(bop op);
bop builder_op_parse(const char *s, size_t len);
/* How many operands after the left one an operator takes (IN: at least 1). */
size_t builder_op_arity(bop op);

typedef struct bnode bnode;
struct bnode {
    bnode *parent;       /* NULL for the root */
    bool group;
    bool neg;            /* NOT */
    /* group */
    bool is_or;
    bnode **kids;
    size_t n_kids, cap_kids;
    /* clause */
    bop op;
    bopnd left;
    bopnd *args;
    size_t n_args;
    /* Filled by builder_print: the node's span in the text (NOT and
     * parentheses included) and the clause's own span (without them);
     * -1 when not printed. */
    long pos, end, cpos, cend;
};

typedef struct builder {
    bnode *root;         /* a group, never NULL */
} builder;

builder *builder_new(void);
void builder_free(builder *b);
/* Empties the tree (an AND group with no children). */
void builder_clear(builder *b);
bool builder_empty(const builder *b);

/* A new clause `path = ""` (op EQ, one S value unset), or a new group,
 * inserted in group g at position at (clamped). Returns the node. */
bnode *builder_add_clause(builder *b, bnode *g, size_t at);
bnode *builder_add_group(builder *b, bnode *g, size_t at, bool is_or);
/* Inserts a ready node (taking ownership) into g at position at. */
void builder_insert(bnode *g, size_t at, bnode *n);
/* Removes n from its parent and frees it (the root is cleared instead). */
void builder_delete(builder *b, bnode *n);
/* Inserts a deep copy of n right after it; returns the copy (the root:
 * NULL, nothing done). */
bnode *builder_duplicate(builder *b, bnode *n);
/* Moves n one place among its siblings (dir -1 up, +1 down). At the
 * edge of its group it leaves the group to sit before/after it in the
 * parent. Returns whether it moved. */
bool builder_move(builder *b, bnode *n, int dir);
/* Changes a clause's operator, keeping the operands that still fit and
 * adding unset ones to reach the arity. */
void builder_set_op(bnode *n, bop op);
/* Index of n in its parent (0 for the root). */
size_t builder_index_of(const bnode *n);

/* Nodes in display order (pre-order, the root first), with depths.
 * *nodes and *depths are malloc'd arrays of *n entries. */
void builder_walk(const builder *b, const bnode ***nodes, int **depths, size_t *n);

/* ---- names and values of one request --------------------------------- */

typedef struct bmaps {
    char **alias, **name;    /* "#status" -> "status", first use first */
    size_t n_names, cap_names;
    char **ph;               /* ":status" -> value */
    av *val;
    size_t n_vals, cap_vals;
    bool compact;            /* while set: shortest aliases (#a, :b), equal
                                values share one placeholder */
} bmaps;

void builder_maps_init(bmaps *m);
void builder_maps_done(bmaps *m);
/* The alias of a name (allocating one when new), or NULL when the name
 * can be written bare. */
const char *builder_maps_name(bmaps *m, const char *name);
/* A new placeholder for a value (copied), named after hint. */
const char *builder_maps_value(bmaps *m, const char *hint, const av *v);
/* A path as an expression writes it (a.#status[2]), its names aliased
 * in m where they must be. */
void builder_path_expr(bmaps *m, const bpath *p, buf *out);

/*
 * Runs print(what, m, out, d), which appends one expression. Readable
 * aliases can make the text longer than the expression it came from; when
 * the text passes DynamoDB's 4 KB limit it is printed again in compact
 * form (what print registered is dropped first). Text still over the
 * limit fails with ST_VALIDATION, DynamoDB's size message and d->pos at
 * the limit, rather than producing a request DynamoDB refuses.
 */
typedef status (*builder_print_fn)(const void *what, bmaps *m, buf *out, diag *d);
status builder_maps_fit(builder_print_fn print, const void *what, bmaps *m, buf *out, diag *d);
/* {"#status":"status"} / {":status":{"S":"x"}}, in first-use order;
 * nothing appended when empty (a request then omits the member). */
void builder_maps_names_json(const bmaps *m, buf *out);
void builder_maps_values_json(const bmaps *m, buf *out);
/* The same as M avs for expr_ctx_init (AV_NONE when empty). */
void builder_maps_names_av(const bmaps *m, av *out);
void builder_maps_values_av(const bmaps *m, av *out);

/*
 * Appends the expression text of the tree to out (nothing for an empty
 * tree), registering names and values in m. Fails with ST_VALIDATION on
 * an incomplete clause (no path, a value not set), with d->pos the byte
 * offset where the clause would go and d->path naming it ("clause 3").
 */
status builder_print(builder *b, bmaps *m, buf *out, diag *d);

/* The node whose clause text covers byte pos of the last print (the
 * deepest), or NULL. */
const bnode *builder_node_at(const builder *b, long pos);

/* ---- text -> tree ------------------------------------------------------ */

/*
 * Parses text (a condition, filter or key condition; kind says which, for
 * DynamoDB's messages) with the names and values maps as JSON text (each
 * may be NULL or empty: not given) into a new tree. Errors: DynamoDB's
 * message, d->pos at the offending token; d->file says which input
 * ("ExpressionAttributeNames", ...) when the error is in a map.
 */
status builder_parse(expr_kind kind, const char *text, const char *names_json,
                     const char *values_json, builder **out, diag *d);

/* ---- verdict ------------------------------------------------------------- */

typedef struct bverdict_entry {
    const bnode *node;
    int depth;
    bool verdict;        /* after the node's NOT */
    char *text;          /* the node's text in the expression */
    char *why;           /* the reason */
} bverdict_entry;

typedef struct bverdict {
    bool ok;             /* the whole condition */
    bverdict_entry *v;   /* pre-order, the root first */
    size_t n;
} bverdict;

/* Evaluates the tree against item (AV_M, or NULL: no item). The tree is
 * printed into m, the maps of the request it is part of (an UpdateItem's
 * update rows printed into them first: its clauses then read as the
 * request sends them, `version = :version_1` where the update took
 * :version); NULL: maps of its own. Fails when the tree does not print or
 * DynamoDB would refuse the expression (then d says why and
 * builder_node_at(d->pos) is the culprit). */
status builder_verdict(builder *b, bmaps *m, expr_kind kind, const av *item, bverdict *out, diag *d);
void builder_verdict_done(bverdict *v);

/* ---- update expressions -------------------------------------------------- */

typedef enum { BU_SET, BU_REMOVE, BU_ADD, BU_DELETE } bu_kind;
typedef enum { BF_PLAIN, BF_PLUS, BF_MINUS, BF_LIST_APPEND } bu_form;

/* One row: SET path = a | a + b | a - b | list_append(a, b), where a and
 * b are each a path, a value, if_not_exists(path, operand) or
 * list_append(operand, operand) (DynamoDB's grammar, nested as deep as
 * wanted); REMOVE path (list indexes included); ADD path a (a number or
 * a set value); DELETE path a (a set value). */
typedef struct baction {
    bu_kind kind;
    bpath path;
    bu_form form;        /* SET only */
    bopnd a, b;
} baction;

typedef struct bupdate {
    baction *v;
    size_t n, cap;
} bupdate;

void builder_update_init(bupdate *u);
void builder_update_done(bupdate *u);
/* A new row of kind k (value S, unset) at the end; returns it. */
baction *builder_update_add(bupdate *u, bu_kind k);
void builder_update_remove(bupdate *u, size_t i);
const char *builder_update_kind_name(bu_kind k);   /* "SET", ... */
/* UpdateExpression text, sections in the order SET REMOVE ADD DELETE. */
status builder_update_print(const bupdate *u, bmaps *m, buf *out, diag *d);
/* Update text (+ maps as JSON) -> rows. */
status builder_update_parse(const char *text, const char *names_json,
                            const char *values_json, bupdate *out, diag *d);

/* ---- whole requests ------------------------------------------------------ */

typedef enum { BREQ_PUT, BREQ_UPDATE, BREQ_DELETE, BREQ_CHECK, BREQ_QUERY, BREQ_SCAN } breq_op;

/* "PutItem", ...; the TransactItems member ("Put", ...; NULL for Query
 * and Scan). */
const char *builder_req_op_name(breq_op op);
const char *builder_req_txn_name(breq_op op);

typedef struct breq {
    breq_op op;
    const char *table;
    const char *index;       /* Query/Scan: NULL for the table */
    const av *item;          /* PUT: the item; UPDATE/DELETE/CHECK: the key */
    builder *cond;           /* condition, or the filter of Query/Scan; may be NULL */
    builder *keycond;        /* QUERY */
    const bupdate *update;   /* UPDATE */
    bool all_old_on_fail;    /* ReturnValuesOnConditionCheckFailure ALL_OLD */
} breq;

/* The typed request (into an uninitialised out; ddb_req_done) that the
 * store's typed calls take: the trees printed into expressions sharing
 * one names map and one values map. */
status builder_req_typed(const breq *r, ddb_req *out, diag *d);
/* The request body as JSON (members in DynamoDB's documented order). */
status builder_req_json(const breq *r, buf *out, diag *d);
/* One TransactItems element: {"Put":{...}}. */
status builder_req_txn_json(const breq *r, buf *out, diag *d);
/* A ready-to-paste `aws dynamodb ...` command line, shell-quoted. */
status builder_req_cli(const breq *r, buf *out, diag *d);
/* The same request as a PartiQL statement (builder_partiql.c): INSERT,
 * UPDATE, DELETE, EXISTS(SELECT ...) or SELECT; a second line "-- ..."
 * says where PartiQL does not do what the request does. */
status builder_req_partiql(const breq *r, buf *out, diag *d);
/* Appends s as one POSIX shell word (single-quoted when needed). */
void builder_shell_quote(buf *out, const char *s);

#endif
