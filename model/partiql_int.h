/*
 * partiql_int — what the files of the PartiQL module share and nothing
 * else includes: the token and the lexer's state (partiql_lex.c makes
 * tokens, partiql_parse.c reads them), the parsed statement (made by
 * partiql_parse.c, freed in partiql.c, read by partiql_print.c and
 * partiql_plan.c), and the node printer the planner uses for its
 * explaining text (partiql_print.c). The public face is partiql.h.
 */
#ifndef DDBX_PARTIQL_INT_H
#define DDBX_PARTIQL_INT_H

#include <stdint.h>

#include "model/partiql.h"

#define PQ_MAX_DEPTH 64      /* nesting of conditions and literals */

/* DynamoDB's lead-in of every syntax error. */
#define PQ_WF "Statement wasn't well formed, can't be processed: "

/* ---- tokens ---------------------------------------------------------------- */

typedef enum { T_EOF, T_IDENT, T_QIDENT, T_STRING, T_NUMBER, T_PARAM, T_PUNCT } tkind;

typedef struct tok {
    tkind k;
    long pos;
    size_t len;          /* bytes of source */
} tok;

/* ---- the statement --------------------------------------------------------- */

typedef enum {
    PN_OR, PN_AND, PN_NOT, PN_CMP, PN_BETWEEN, PN_IN, PN_FUNC, PN_IS, PN_PATH, PN_VALUE,
    PN_SIZE, PN_PLUS, PN_MINUS, PN_CALL,
} pn_kind;

enum { IS_MISSING, IS_NULL };
enum { F_BEGINS_WITH, F_CONTAINS, F_ATTRIBUTE_TYPE };            /* PN_FUNC */
enum { C_LIST_APPEND, C_SET_ADD, C_SET_DELETE };                 /* PN_CALL */

typedef struct pq_step {
    bool is_index;
    uint32_t index;
    char *name;
    size_t len;
} pq_step;

typedef struct pn pn;
struct pn {
    pn_kind k;
    int op;              /* expr_cmp, F_*, C_*, IS_* */
    bool neg;            /* IS NOT, NOT IN */
    long pos;
    pn **kids;
    size_t n;
    pq_step *steps;      /* PN_PATH */
    size_t n_steps;
    av val;              /* PN_VALUE */
};

enum { ACT_SET, ACT_REMOVE };
typedef struct pq_act {
    int kind;
    pn *path, *val;
} pq_act;

enum { RET_NONE, RET_ALL_OLD, RET_MODIFIED_OLD, RET_ALL_NEW, RET_MODIFIED_NEW };

struct pq_stmt {
    pq_kind kind;
    char *text;
    size_t len;
    char *table, *index;
    long table_pos;
    bool star;
    pn **proj;
    size_t n_proj;
    pn *where;
    pn *order[4];
    bool order_desc[4];
    size_t n_order;
    long order_pos;
    pn *item;            /* INSERT: the VALUE */
    pq_act *acts;
    size_t n_acts;
    int ret;
    long ret_pos;
};

struct pq_proj {
    pq_step *steps;
    size_t n;
    char *label;
};

/* PN_FUNC and PN_CALL names by op (partiql.c). */
extern const char *const pq_fn_names[];
extern const char *const pq_call_names[];

void pq_pn_free(pn *n);                                     /* partiql.c */

/* ---- the lexer (partiql_lex.c) --------------------------------------------- */

typedef struct P {
    const char *t;
    size_t len;
    tok *toks;
    size_t n, cap, i;
    const av *params;
    size_t n_params, used;
    int depth;
    diag *d;
} P;

static inline bool pq_is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* The text into p->toks, ending with T_EOF. */
status pq_lex(P *p);
/* A syntax error at pos: DynamoDB's lead-in, what was wrong, where. */
status pq_syntax_at(P *p, long pos, const char *what);

/* ---- the printer (partiql_print.c) ----------------------------------------- */

/* Binding strength of a condition node: OR 1, AND 2, NOT 3, others 4. */
int pq_prec(const pn *n);
/* One node as canonical PartiQL; a kid wrapped in parentheses when it
 * binds looser than its parent's precedence. */
void pq_print_node(const pn *n, buf *out);
void pq_print_kid(const pn *k, int parent, buf *out);

#endif
