/*
 * cli_model — what `ddbx model` (ui/cli_model.c) shares with its Markdown
 * design document (ui/cli_model_md.c).
 */
#ifndef DDBX_CLI_MODEL_H
#define DDBX_CLI_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "data/store.h"
#include "model/buf.h"
#include "model/entity.h"

enum cli_model_fmt { CLI_MODEL_TEXT, CLI_MODEL_JSON, CLI_MODEL_MARKDOWN };

typedef struct cli_model_opts {
    enum cli_model_fmt format;
    uint64_t sample;          /* 0: every item */
    const char **patterns;    /* --patterns files; none: the database's folder */
    size_t n_patterns;
    const char *price_file;   /* NULL: the built-in prices */
    const char *price_region;
    const char *db_path;      /* --db (NULL: the default database) */
} cli_model_opts;

/* What the reading of the tables took. */
typedef struct cli_model_read {
    uint64_t items, pages;
    double units;
} cli_model_read;

/* "read 4820 of 4820 items (the whole table); entities told by the
 * attribute type", appended to out. */
void cli_model_read_line(const ent_table *t, buf *out);

/* The design document of the model on stdout; 0, or 2 after a message
 * for a pattern or price file that does not load. */
int cli_model_markdown(store *st, const ent_model *m, const cli_model_opts *o);

#endif
