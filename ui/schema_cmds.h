/*
 * schema_cmds — `:create-index`, `:delete-index` and `:ttl`, on the table
 * the view v shows (its context op). display_command hands them here.
 */
#ifndef DDBX_SCHEMA_CMDS_H
#define DDBX_SCHEMA_CMDS_H

#include <stdbool.h>

#include "model/schema.h"
#include "ui/view.h"

/* True when argv[0] is one of the three (it was run, or refused with a
 * message). */
bool schema_command(view *v, int argc, char **argv);

/* `:create-index NAME PK[:T] [SK[:T]] [--projection P]`'s words into an
 * index definition (a GSI); false, with the usage or the fault on the
 * status line, when they do not make one. Free it with schema_index_done
 * either way. (Also :what-if's, on its scratch copy.) */
bool schema_parse_index(int argc, char **argv, index_def *ix);
void schema_index_done(index_def *ix);

#endif
