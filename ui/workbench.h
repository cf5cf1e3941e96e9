/*
 * workbench — the explorer's design workbench commands: `:entities`,
 * `:doctor` and `:what-if`, each on the table the view shows (its context
 * op) or the one named, and the what-if view's own `:create-index` and
 * `:delete-index`, which change its scratch copy and never the table.
 * display_command hands every command here first.
 */
#ifndef DDBX_WORKBENCH_H
#define DDBX_WORKBENCH_H

#include <stdbool.h>

#include "ui/view.h"

/* True when the command was one of them (run, or refused with a message). */
bool workbench_command(view *v, int argc, char **argv);

#endif
