/*
 * cli_diag — how the command line shows a diagnostic.
 *
 * One line on stderr: "PREFIX: FILE:LINE:COL: Code: message (attribute
 * PATH)", each part only when known. Control characters from the data
 * are written escaped, never raw.
 */
#include <stdio.h>

#include "ui/cli.h"

void cli_fputs_safe(FILE *fp, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(fp, "\\x%02x", *p);
        else
            fputc(*p, fp);
    }
}

void cli_fputs_lines(FILE *fp, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p < 0x20 && *p != '\n') || *p == 0x7f)
            fprintf(fp, "\\x%02x", *p);
        else
            fputc(*p, fp);
    }
}

void cli_print_file_diag(const char *prefix, const diag *d)
{
    fprintf(stderr, "%s: ", prefix);
    cli_fputs_safe(stderr, d->file);
    if (d->line > 0)
        fprintf(stderr, ":%d:%d", d->line, d->col);
    fputs(": ", stderr);
    cli_fputs_safe(stderr, d->msg);
    fputc('\n', stderr);
}

void cli_print_diag(const char *prefix, const diag *d)
{
    fprintf(stderr, "%s: ", prefix);
    if (d->file[0]) {
        cli_fputs_safe(stderr, d->file);
        if (d->line > 0)
            fprintf(stderr, ":%d:%d", d->line, d->col);
        fputs(": ", stderr);
    }
    if (d->code != ST_OK && d->code != ST_USAGE && d->code != ST_IO)
        fprintf(stderr, "%s: ", status_name(d->code));
    cli_fputs_safe(stderr, d->msg[0] ? d->msg : status_name(d->code));
    if (d->path[0]) {
        fputs(" (attribute ", stderr);
        cli_fputs_safe(stderr, d->path);
        fputc(')', stderr);
    }
    fputc('\n', stderr);
}
