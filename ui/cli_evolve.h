/*
 * cli_evolve — `ddbx evolve` (ui/cli_evolve.c: the command, the question,
 * the backfill) and what it shows around the engine (ui/cli_evolve_plan.c:
 * the access patterns re-costed on a scratch copy, the Scan patterns the
 * new index turns into Queries, the evolution log). The engine is
 * data/evolve.h; the explorer's `:what-if` apply uses these too.
 *
 * Ownership: an evolve_costs owns its pattern results; everything else is
 * borrowed for the call.
 */
#ifndef DDBX_CLI_EVOLVE_H
#define DDBX_CLI_EVOLVE_H

#include <stdio.h>

#include "data/evolve.h"
#include "model/pattern.h"

/* The patterns of sp->table, and for each Scan among them whose filter
 * binds every attribute the new key is built from (`PATH = :p` joined by
 * AND), the Query on the new index that answers it: q[i] (op PAT_QUERY)
 * for p[i], else op PAT_SCAN with no name (not derived). */
typedef struct evolve_costs {
    pattern_set set;           /* the table's patterns (copies) */
    pattern *q;                /* set.n: the derived Query of each, or an unnamed one */
    pattern_result *before, *after, *qafter;
} evolve_costs;

void evolve_costs_init(evolve_costs *e, const pattern_set *all, const evolve_spec *sp);
void evolve_costs_done(evolve_costs *e);
/* Runs the patterns on s: before (after false) or after the index. */
void evolve_costs_run(evolve_costs *e, store *s, bool after);
/* The table: each pattern, before -> after (a derived Query's cost after). */
void evolve_costs_print(const evolve_costs *e, FILE *f);
/* "pattern P was a Scan (X RCU a call), now a Query on I (Y RCU a call)" lines;
 * how many. */
size_t evolve_costs_print_gains(const evolve_costs *e, const char *index, FILE *f);

/* What a pass counted: items, who gets what, why left out, the sample. */
void evolve_print_counts(const evolve_spec *sp, const evolve_counts *c, bool dry, FILE *f);

/* One JSON line appended to the log (path): the step ("dry-run",
 * "backfill", "stopped", "index"), the evolution and its counts. */
void evolve_log(const char *path, const char *step, const evolve_spec *sp, const evolve_counts *c,
                const char *backup);

/* The explorer's `:apply-index NAME` in the what-if view
 * (ui/view_whatif_apply.c): the GSI NAME that :create-index made on the
 * scratch copy, created on the table itself with the same code as ddbx
 * evolve: the items it will hold counted (evolve_run, nothing written),
 * the question naming the count, then evolve_create_index (waits for
 * ACTIVE) and a line of evolve.log. */
struct store;
void evolve_apply_simulated(struct store *copy, const char *table, const char *name);

#endif
