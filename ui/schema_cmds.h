/*
 * schema_cmds — `:create-index`, `:delete-index` and `:ttl`, on the table
 * the view v shows (its context op). display_command hands them here.
 */
#ifndef DDBX_SCHEMA_CMDS_H
#define DDBX_SCHEMA_CMDS_H

#include <stdbool.h>

#include "ui/view.h"

/* True when argv[0] is one of the three (it was run, or refused with a
 * message). */
bool schema_command(view *v, int argc, char **argv);

#endif
