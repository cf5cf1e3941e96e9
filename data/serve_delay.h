/*
 * serve_delay — `ddbx serve -delayTransientStatuses`: an index's
 * transient statuses held for the times DynamoDB Local holds them, so
 * that code that waits for ACTIVE is tested.
 *
 * DynamoDB Local 3.3.1 with -delayTransientStatuses (its -help: "Currently
 * works only for CREATING and DELETING online index statuses"; the times
 * measured here 2026-12-06 by polling DescribeTable, and its
 * LocalDBUtils.LONG_DELAY_TO_HOLD_TRANSIENT_STATUSES of 15 s):
 *   a GSI created by UpdateTable: CREATING with Backfilling false for
 *     15 s, CREATING with Backfilling true for 15 s more, then ACTIVE;
 *   a GSI deleted by UpdateTable: DELETING for 15 s, then gone;
 *   CreateTable and DeleteTable: ACTIVE at once, and gone at once, as
 *     without the flag (DynamoDB Local delays no table status).
 * The store builds or drops the index in the call itself, as without
 * the flag: only the statuses DescribeTable and UpdateTable answer are
 * held, by rewriting those answers. Reads of a CREATING index are
 * answered (DynamoDB Local 3.3.1 answers them InternalFailure).
 *
 * One tracker for a server: entries keyed by database name (serve_dbs)
 * and table. Thread-safe (a mutex).
 */
#ifndef DDBX_SERVE_DELAY_H
#define DDBX_SERVE_DELAY_H

#include <stddef.h>

#include "data/serve.h"

typedef struct serve_delay serve_delay;

/* The seconds DynamoDB Local holds each step. */
#define SERVE_DELAY_STEP 15.0

serve_delay *serve_delay_new(void);
void serve_delay_free(serve_delay *t);

/* After serve_handle answered op (the X-Amz-Target's operation) on the
 * database db with *r: an UpdateTable that created or deleted a GSI
 * starts its clock; a DescribeTable or UpdateTable answer of a table
 * with an index in its window is rewritten (body and CRC); a DeleteTable
 * or CreateTable ends the table's windows. now: seconds, any epoch. */
void serve_delay_apply(serve_delay *t, const char *db, const char *op, serve_reply *r, double now);

#endif
