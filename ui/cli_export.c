/*
 * cli_export — `ddbx export TABLE [--index I] [--format F] [-o FILE]
 * [--db FILE]`: write a table out (data/export streams it page by page).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/export.h"
#include "data/store.h"
#include "ui/cli.h"


typedef struct sink {
    FILE *fp;
    bool tty;      /* stdout on a terminal: control characters escaped */
} sink;

static status write_out(void *ctx, const char *p, size_t n, diag *d)
{
    sink *k = ctx;
    if (k->tty) {
        for (size_t i = 0; i < n; i++) {
            unsigned char c = (unsigned char)p[i];
            if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
                fprintf(k->fp, "\\x%02x", c);
            else
                fputc(c, k->fp);
        }
    } else if (fwrite(p, 1, n, k->fp) != n) {
        return diag_set(d, ST_IO, "write failed: %s", strerror(errno));
    }
    return ST_OK;
}

int cli_export(int argc, char **argv)
{
    const char *flag_db = NULL, *index = NULL, *outfile = NULL, *format = NULL;
    const opt table_opts[] = {
        OPT_STRING("index", "I", &index, "the items of an index, in its key order"),
        OPT_STRING("format", "F", &format, "jsonl (default), s3, aws-cli, workbench, csv or plain"),
        OPT_STRING_ALSO("output", "-o", "FILE", &outfile, "write to FILE (- or none: stdout)"),
        CLI_OPT_DB(&flag_db),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "export",
        .usage = "ddbx export TABLE [--index I] [--format F] [-o FILE] [--db FILE]",
        .about = "Formats:\n"
                 "  jsonl      DynamoDB JSON, one item a line, attributes sorted (default)\n"
                 "  s3         DynamoDB export-to-S3 lines {\"Item\": {...}}\n"
                 "  aws-cli    the `aws dynamodb scan` output shape {\"Items\": [...], \"Count\": N}\n"
                 "  workbench  a NoSQL Workbench model (tables only)\n"
                 "  csv        one column per attribute, typed cells\n"
                 "  plain      plain JSON objects, one a line (lossy)\n"
                 "Everything but csv and plain loads back with `ddbx load` unchanged.\n",
        .opts = table_opts,
        .positional = true,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    export_format fmt = EXPORT_JSONL;
    if (format && !export_format_parse(format, &fmt)) {
        fprintf(stderr, "ddbx export: unknown format '%s'\n", format);
        opts_usage(&cmd, stderr);
        return 2;
    }
    if (opts_one_positional(&cmd, argc, argv, "TABLE"))
        return 2;
    const char *table = argv[1];

    int ret = 1;
    char *path = paths_db(flag_db, 0);
    store *s = NULL;
    sink k = { stdout, false };
    diag d;
    diag_init(&d);
    if (store_open(path, STORE_READ_ONLY, &s, &d) != ST_OK) {
        fprintf(stderr, "ddbx export: %s: %s\n", path, d.msg);
        goto out;
    }
    if (outfile && strcmp(outfile, "-") != 0) {
        k.fp = fopen(outfile, "wb");
        if (!k.fp) {
            fprintf(stderr, "ddbx export: %s: %s\n", outfile, strerror(errno));
            goto out;
        }
    } else {
        k.tty = isatty(1) == 1;
    }
    export_stats st;
    if (export_table(s, table, index, fmt, write_out, &k, &st, &d) != ST_OK) {
        cli_print_diag("ddbx export", &d);
        goto out;
    }
    if (fflush(k.fp) != 0 || ferror(k.fp)) {
        fprintf(stderr, "ddbx export: write failed: %s\n", strerror(errno));
        goto out;
    }
    if (outfile)
        fprintf(stderr, "ddbx export: %llu item%s (%llu partition%s) to %s\n",
                (unsigned long long)st.items, st.items == 1 ? "" : "s",
                (unsigned long long)st.partitions, st.partitions == 1 ? "" : "s", outfile);
    ret = 0;
out:
    if (k.fp && k.fp != stdout && fclose(k.fp) != 0 && ret == 0) {
        fprintf(stderr, "ddbx export: %s: %s\n", outfile, strerror(errno));
        ret = 1;
    }
    if (s)
        store_close(s);
    free(path);
    return ret;
}
