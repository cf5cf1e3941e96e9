/*
 * partiql — DynamoDB's PartiQL dialect (see partiql.h), in five files
 * sharing model/partiql_int.h: this one frees statements and names
 * kinds and operations; partiql_lex.c cuts the text into tokens,
 * partiql_parse.c builds the statement, partiql_print.c prints it (and
 * expressions as PartiQL), partiql_plan.c turns it into DynamoDB
 * operations. The planner turns WHERE terms into expression text over
 * generated placeholders and parses the filter with model/expr, so
 * conditions are evaluated by the one evaluator the store uses.
 */
#include "model/partiql_int.h"

#include <stdlib.h>

const char *const pq_fn_names[] = { "begins_with", "contains", "attribute_type" };
const char *const pq_call_names[] = { "list_append", "set_add", "set_delete" };

void pq_pn_free(pn *n)
{
    if (!n)
        return;
    for (size_t i = 0; i < n->n; i++)
        pq_pn_free(n->kids[i]);
    free(n->kids);
    for (size_t i = 0; i < n->n_steps; i++)
        free(n->steps[i].name);
    free(n->steps);
    av_done(&n->val);
    free(n);
}

void pq_free(pq_stmt *s)
{
    if (!s)
        return;
    free(s->text);
    free(s->table);
    free(s->index);
    for (size_t i = 0; i < s->n_proj; i++)
        pq_pn_free(s->proj[i]);
    free(s->proj);
    pq_pn_free(s->where);
    for (size_t i = 0; i < s->n_order; i++)
        pq_pn_free(s->order[i]);
    pq_pn_free(s->item);
    for (size_t i = 0; i < s->n_acts; i++) {
        pq_pn_free(s->acts[i].path);
        pq_pn_free(s->acts[i].val);
    }
    free(s->acts);
    free(s);
}

pq_kind pq_get_kind(const pq_stmt *s) { return s->kind; }
const char *pq_table(const pq_stmt *s) { return s->table; }
const char *pq_index(const pq_stmt *s) { return s->index; }

const char *pq_kind_name(pq_kind k)
{
    static const char *const names[] = { "SELECT", "INSERT", "UPDATE", "DELETE", "EXISTS" };
    return (unsigned)k <= PQ_EXISTS ? names[k] : "?";
}

const char *pq_op_name(pq_op op)
{
    static const char *const names[] = {
        "Query", "Scan", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheck"
    };
    return (unsigned)op <= PQ_OP_CHECK ? names[op] : "?";
}
