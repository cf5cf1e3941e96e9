/*
 * copy — copying out of the explorer: `Y` offers, for the selected item
 * and for the request the view makes (the query bar's, the builder's; an
 * item's GetItem otherwise), the item as plain JSON or DynamoDB JSON, its
 * key, the `aws dynamodb ...` command line (one line, never wrapped) and
 * SDK code in JavaScript (v3), Python (boto3) and Go (v2) from the same
 * typed request (model/codegen.h).
 *
 * What is copied goes to the terminal's clipboard with OSC 52 (term.c;
 * works over SSH and inside tmux with set-clipboard) and is kept, so
 * `:write FILE` can save it where the terminal has no clipboard. The
 * status line says what was copied.
 */
#ifndef DDBX_COPY_H
#define DDBX_COPY_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/request.h"
#include "ui/view.h"

/* Copies text (what: "2 marked items as DynamoDB JSON", for the status
 * line). */
void copy_text(const char *text, size_t len, const char *what);
bool copy_request(view *v, enum req r);
bool copy_command(view *v, int argc, char **argv);

#endif
