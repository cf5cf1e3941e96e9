/*
 * view — what every view is: a struct of operations plus private state
 * the display allocates (priv_size bytes, zeroed) and frees after done.
 * A view file ends with its ops table; adding a view means adding a file
 * and declaring its ops (in the list at the end of this header, or in
 * the feature's own header, as ui/view_staged.h does).
 *
 * The display owns the terminal layout: row 0 is the title bar, then the
 * view's head rows (column titles), then the body (the vm's lines), and
 * the last row is the status/prompt line. `draw` paints one line of the
 * vm; it never touches other rows.
 */
#ifndef DDBX_VIEW_H
#define DDBX_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model/buf.h"
#include "model/ddbreq.h"
#include "model/expr.h"
#include "ui/request.h"
#include "ui/vm.h"

typedef struct view view;
struct cond_arg;
struct ddb_req;

typedef struct view_ops {
    const char *name;
    size_t priv_size;
    /* Fills the view; arg is what display_push was given. False (with a
     * status message set) when the view cannot open. */
    bool (*open)(view *v, const void *arg);
    /* Title bar text. */
    void (*title)(view *v, buf *out);
    /* Called before each frame is drawn, once the top row is known (to
     * fit columns to what is on screen). Optional. */
    void (*layout)(view *v);
    /* Rows above the body (column titles): how many it needs, and
     * drawing them. Optional. */
    int (*head_rows)(view *v);
    void (*draw_head)(view *v, int row, int width);
    /* Draws vm line i at a screen row. */
    void (*draw)(view *v, size_t i, int row, int width);
    /* A request for this view; returns REQ_NONE when handled, else the
     * request for the display's default handling. */
    enum req (*request)(view *v, enum req r);
    /* The selection moved (optional). */
    void (*select)(view *v);
    /* Line i is no place for the selection (a row of column names): moving
     * passes over it, a click selects the line after it. Optional. */
    bool (*skip)(view *v, size_t i);
    /* Frees private state (the vm's lines are freed by the display). */
    void (*done)(view *v);
    /* Loads lines past the window's end (dir > 0) or before its start
     * (dir < 0); returns how many were added. Optional. */
    size_t (*more)(view *v, int dir);
    /* Frees a line's data. */
    void (*free_line)(view *v, line *l);
    /* Name of a line kind, for :save-view. */
    const char *(*kind_name)(int kind);
    /* Plain text of line i (search and :save-view). */
    void (*text)(view *v, size_t i, buf *out);
    /* A `:` command this view understands (argv[0] is its name); returns
     * false when it does not know it. Optional. */
    bool (*command)(view *v, int argc, char **argv);
    /* The table, index and selected item, for the condition builder
     * (optional; fields the view does not have stay NULL). */
    void (*context)(view *v, struct cond_arg *out);
    /* The typed request the view sends (the query bar's, the builder's),
     * into an uninitialised out (initialised either way: ddb_req_done),
     * for copying it out (ui/copy.c); false, with why, when it has none
     * now. Optional. */
    bool (*typed_request)(view *v, struct ddb_req *out, buf *why);
    /* The item line i shows (NULL: none), for marking what is on screen
     * (ui/marks.c): the table view's top row shows none while its
     * partition's header is drawn over it. Optional: marks then ask the
     * context op line by line. */
    const struct av *(*line_item)(view *v, size_t i);
    /* V (:mark-results) means every result of the view, its lines loaded
     * or not (the query bar's pages not read yet), asking first when they
     * are more than the screen shows; unset, V marks what is on screen. */
    bool results;
    /* Its REQ_RELOAD reads again what it shows, cheaply and writing
     * nothing: the display sends it when the store changed (live mode, and
     * when the view comes back to the top of the stack). */
    bool follows;
} view_ops;

struct view {
    const view_ops *ops;
    vm vm;
    void *priv;
};

/* Where the table view (item collections) opens: a table, optionally
 * through an index, optionally at one partition and one item in it. */
typedef struct items_arg {
    const char *table;
    const char *index;   /* NULL: the base table */
    const struct av *pk; /* NULL: the first partition */
    const struct av *item;  /* NULL: the partition's header */
} items_arg;

/* What the item view and the partition overview open on. */
typedef struct item_arg {
    const char *table;
    const char *index;
    const struct av *item;
} item_arg;

/* A sort-key condition as values: op (KEY_SK_NONE: none), its value a,
 * and b, BETWEEN's upper bound (borrowed). */
typedef struct query_sk {
    expr_key_op op;
    const struct av *a, *b;
} query_sk;

/* A sort-key condition as the query bar's field shows it and reads it
 * back ("begins_with ACTOR#", "between 1 and 9"), appended to out;
 * nothing for KEY_SK_NONE. */
void query_sk_text(const query_sk *sk, struct buf *out);
/* Whether a sort-key part typed as text reads as a condition (starts with
 * =, <, <=, >, >=, between, begins_with) rather than a value: an equal
 * value that does is written `= V`. */
bool query_sk_is_op(const char *text);
/* `:query`'s words after the command (and `:apply filter`'s), options
 * taken out, as the partition value and the sort-key condition (appended
 * to pk and sk; sk empty: no condition words). On a key of n_hash HASH
 * attributes (a multi-attribute GSI key) `|` binds tighter than the
 * spaces between words: the partition value takes the words a `|` joins
 * to it until it has n_hash parts (`enrollment | CRS#math204`), and the
 * rest, joined by spaces, is the condition. */
void query_words(char *const *w, int n, size_t n_hash, struct buf *pk, struct buf *sk);

/* What the query bar opens with (any may be NULL or none): the partition
 * value and the sort-key condition as values (the table view's selected
 * partition, the builder's key condition), or as words typed
 * (`:apply filter PK SKCOND`: read as the bar's fields read them, pk_text
 * over pk); the filter and its maps (AV_M); run at once when run is set.
 * The bar copies what it keeps. No partition value: a Scan. */
typedef struct query_arg {
    const char *table;
    const char *index;
    const struct av *pk;
    query_sk sk;
    const char *pk_text, *sk_text;
    const char *filter;
    const struct av *names, *values;
    bool run;
} query_arg;

/* What the condition builder opens on (any may be NULL); argc/argv are
 * the `:cond` command's words (0 for the key). */
typedef struct cond_arg {
    const char *table;
    const char *index;
    const struct av *item;
    int argc;
    char **argv;
} cond_arg;

/* Opens the condition builder from view `from` (its context op says on
 * what), with the words of a `:cond`-family command, if any. */
void view_builder_open(view *from, int argc, char **argv);

/* What the column picker opens on: the table, the entity type (ui/colset.h)
 * and the columns it shows now (their first the key, not offered). */
typedef struct cols_arg {
    const char *table;
    const char *entity;
    const struct cols *all;
} cols_arg;

/* The views, one file each. */
extern const view_ops view_tables_ops;   /* ui/view_tables.c: table list */
extern const view_ops view_items_ops;    /* ui/view_items.c: item collections */
extern const view_ops view_parts_ops;    /* ui/view_parts.c: partition overview */
extern const view_ops view_item_ops;     /* ui/view_item.c: one item */
extern const view_ops view_query_ops;    /* ui/view_query.c: query bar and results */
extern const view_ops view_help_ops;     /* ui/view_help.c: keys and commands (arg: the
                                            ops name of the view it opens from, or NULL) */
extern const view_ops view_builder_ops;  /* ui/view_builder.c: condition builder */
extern const view_ops view_watch_ops;    /* ui/view_watch.c: change feed (arg: the table name) */
extern const view_ops view_partiql_ops;  /* ui/view_partiql.c: PartiQL bar */
extern const view_ops view_txn_ops;      /* ui/view_builder_pending.c: the pending transaction */
/* `t`: adds an action on the item selected in `from` (its context op) to
 * the pending transaction, asking which (ui/view_builder_pick.c). */
void view_txn_add(view *from);
/* How many actions the pending transaction holds (quitting asks before
 * it loses them; ui/view_builder_txn.c). */
size_t view_txn_pending(void);
extern const view_ops view_patterns_ops; /* ui/view_patterns.c: access patterns */
extern const view_ops view_pattern_items_ops; /* ui/view_pattern_items.c: a pattern's items */
extern const view_ops view_cols_ops;     /* ui/view_cols.c: column picker (arg: cols_arg) */
extern const view_ops view_entities_ops; /* ui/view_entities.c: entity types (arg: cond_arg) */
extern const view_ops view_doctor_ops;   /* ui/view_doctor.c: :doctor's findings (arg: cond_arg) */
extern const view_ops view_whatif_ops;   /* ui/view_whatif.c: :what-if (arg: cond_arg) */
extern const view_ops view_similar_ops;  /* ui/view_similar.c: more like this (arg: cond_arg) */

/* The table view's part in the store search (ui/search.c): the selected
 * partition header's key value (NULL when an item or nothing is
 * selected), and showing an item of the view (its partition loaded
 * around it, the item selected). */
const struct av *view_items_group_pk(view *v);
void view_items_show(view *v, const struct av *item);
/* The table view v shows only the items of one entity of the table's
 * model t (copied; ui/entity_filter.h), from its first partition. */
struct ent_table;
void view_items_filter(view *v, const struct ent_table *t, const char *entity);

/* Opens the PartiQL bar from view `from` on statement (NULL: a SELECT of
 * the table from's context names), asking for its ? parameters. */
void view_partiql_open(view *from, const char *statement);

/* What a pattern's items view opens on: the pattern, its set (for the
 * entity rules) and the run (its kept items are copied). */
typedef struct pattern_items_arg {
    const struct pattern *p;
    const struct pattern_set *set;
    const struct pattern_result *r;
    /* The parameter values sent, as typed: names[i] = values[i]. */
    char **names, **values;
    size_t n_values;
} pattern_items_arg;

/* The access-patterns view from view `from`: the patterns of the table it
 * shows (every pattern from the table list), read from the database's
 * pattern folder, and from file too when given (ui/view_patterns.c). */
void view_patterns_open(view *from, const char *file);
/* `:save-pattern NAME` of the builder and the query bar: the request on
 * screen added to the folder's saved.json (a status message says so). */
void view_patterns_save(const char *name, const ddb_req *req);
/* The same from the PartiQL bar: a SELECT of table, its ? values the
 * examples (parameters p1, p2, ...). */
void view_patterns_save_partiql(const char *name, const char *table, const char *statement,
                                const struct av *params, size_t n);

#endif
