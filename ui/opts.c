/*
 * opts — one parser for a command's table of options (ui/opts.h).
 */
#include "ui/opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

/* The entry argv word `a` names, and where its value is when it is
 * joined ("--port=8000": "8000"; NULL when not joined). */
static const opt *lookup(const opt *t, const char *a, const char **joined)
{
    *joined = NULL;
    for (const opt *o = t; o->kind != OPT_KIND_END; o++) {
        if (o->also && strcmp(a, o->also) == 0)
            return o;
        if (!o->name || strncmp(a, "--", 2) != 0)
            continue;
        size_t n = strlen(o->name);
        if (strncmp(a + 2, o->name, n) != 0)
            continue;
        if (a[2 + n] == '\0')
            return o;
        if (a[2 + n] == '=') {
            *joined = a + 3 + n;
            return o;
        }
    }
    return NULL;
}

/* How the user spelled o: "--port" or its other spelling. */
static const char *spelled(const opt *o, const char *word, char *tmp, size_t n)
{
    if (o->also && strcmp(word, o->also) == 0)
        return o->also;
    snprintf(tmp, n, "--%s", o->name);
    return tmp;
}

/* "ddbx serve", or "ddbx" for the explorer (a table without a name). */
static const char *who(const opts_cmd *c)
{
    static char w[64];
    snprintf(w, sizeof w, "ddbx%s%s", c->name ? " " : "", c->name ? c->name : "");
    return w;
}

static void what_number(const opt *o, char *out, size_t n)
{
    if (o->kind == OPT_KIND_INTEGER)
        snprintf(out, n, "a whole number from %.0f to %.0f", o->lo, o->hi);
    else
        snprintf(out, n, "needs a number%s %s %g, at most %g", o->kind == OPT_KIND_SECONDS ? " of seconds" : "",
                 o->flags & OPT_ABOVE_LO ? "above" : "from", o->lo, o->hi);
}

/* Stores value v (the word after the option, or its joined part) in o's
 * variable; 0, or -1 after a message. */
static int take_value(const opts_cmd *c, const opt *o, const char *name, const char *v)
{
    if (!v || !*v) {
        fprintf(stderr, "%s: %s needs a value (%s)\n", who(c), name, o->arg);
        return -1;
    }
    if (o->kind == OPT_KIND_STRING) {
        *(const char **)o->value = v;
        return 0;
    }
    if (o->kind == OPT_KIND_LIST) {
        opts_list *l = o->value;
        l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
        l->v[l->n++] = v;
        return 0;
    }
    char *end = NULL;
    double x = strtod(v, &end);
    bool ok = end && !*end && isfinite(x) && x <= o->hi && (o->flags & OPT_ABOVE_LO ? x > o->lo : x >= o->lo);
    if (o->kind == OPT_KIND_INTEGER)
        ok = ok && x == floor(x) && strspn(v, "+-0123456789") == strlen(v);
    if (!ok) {
        char what[96];
        what_number(o, what, sizeof what);
        fprintf(stderr, "%s: bad %s: %s (%s)\n", who(c), name, v, what);
        return -1;
    }
    if (o->kind == OPT_KIND_INTEGER)
        *(long *)o->value = (long)x;
    else
        *(double *)o->value = x;
    return 0;
}

int opts_refuse(const opts_cmd *c, const char *fmt, const char *word)
{
    fprintf(stderr, "%s: ", who(c));
    fprintf(stderr, fmt, word);
    /* The hint on the usage's line, or under a usage of several lines. */
    fprintf(stderr, "\nusage: %s%s(%s --help lists the options)\n", c->usage, strchr(c->usage, '\n') ? "\n" : " ",
            who(c));
    return OPTS_ERROR;
}

int opts_parse(const opts_cmd *c, int *argc, char **argv)
{
    int out = 1;
    bool options = true;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (options && strcmp(a, "--") == 0) {
            options = false;
            continue;
        }
        if (options && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            opts_usage(c, stdout);
            return OPTS_HELP;
        }
        bool dashed = options && a[0] == '-' && a[1] != '\0';
        if (!dashed) {
            if (!c->positional)
                return opts_refuse(c, "unexpected argument: %s", a);
            argv[out++] = argv[i];
            continue;
        }
        const char *joined;
        const opt *o = lookup(c->opts, a, &joined);
        if (!o)
            return opts_refuse(c, "unknown option: %s", a);
        char tmp[64];
        const char *name = spelled(o, a, tmp, sizeof tmp);
        if (o->kind == OPT_KIND_HELP) {
            opts_usage(c, stdout);
            return OPTS_HELP;
        }
        if (o->kind == OPT_KIND_REFUSE)
            return opts_refuse(c, "%s", o->help);
        if (o->kind == OPT_KIND_BOOL) {
            if (joined)
                return opts_refuse(c, "%s takes no value", name);
            *(bool *)o->value = true;
            continue;
        }
        const char *v = joined;
        if (!joined && i + 1 < *argc)
            v = argv[++i];
        if (take_value(c, o, name, v) < 0)
            return OPTS_ERROR;
    }
    *argc = out;
    argv[out] = NULL;
    return OPTS_OK;
}

int opts_main(const opts_cmd *c, int *argc, char **argv)
{
    int r = opts_parse(c, argc, argv);
    return r == OPTS_OK ? -1 : r == OPTS_HELP ? 0 : 2;
}

void opts_list_free(opts_list *l)
{
    free(l->v);
    l->v = NULL;
    l->n = 0;
}

/* "--port N" for the table's left column ("--patterns FILE..." when it
 * may be given again). */
static void left(const opt *o, char *out, size_t n)
{
    if (o->kind == OPT_KIND_HELP)
        snprintf(out, n, "--help, -h");
    else if (o->name)
        snprintf(out, n, "--%s%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "",
                 o->kind == OPT_KIND_LIST ? "..." : "");
    else
        snprintf(out, n, "%s%s%s", o->also, o->arg ? " " : "", o->arg ? o->arg : "");
}

void opts_usage(const opts_cmd *c, FILE *f)
{
    fprintf(f, "usage: %s\n\n", c->usage);
    bool help_row = false;
    for (const opt *o = c->opts; o->kind != OPT_KIND_END; o++)
        help_row |= o->kind == OPT_KIND_HELP;
    for (const opt *o = c->opts; o->kind != OPT_KIND_END; o++) {
        if (o->kind == OPT_KIND_REFUSE)
            continue;
        char l[96];
        left(o, l, sizeof l);
        if (strlen(l) > 26)   /* a long left column: the help on its own line, as git prints it */
            fprintf(f, "    %s\n    %-26s %s\n", l, "", o->help);
        else
            fprintf(f, "    %-26s %s\n", l, o->help);
        if (o->also && (o->name || o->kind == OPT_KIND_HELP))
            fprintf(f, "    %-26s   (%s: %s%s%s)\n", "", c->also_from ? c->also_from : "also", o->also,
                    o->arg ? " " : "", o->arg ? o->arg : "");
    }
    if (!help_row)
        fprintf(f, "    %-26s %s\n", "--help, -h", "this help");
    if (c->about)
        fprintf(f, "\n%s", c->about);
}

int opts_one_positional(const opts_cmd *c, int argc, char **argv, const char *what)
{
    if (argc == 2)
        return 0;
    if (argc > 2)
        fprintf(stderr, "%s: one %s at a time ('%s')\n", who(c), what, argv[2]);
    opts_usage(c, stderr);
    return OPTS_ERROR;
}
