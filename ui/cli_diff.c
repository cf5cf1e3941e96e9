/*
 * cli_diff — `ddbx diff A B`: the differences between two states of a
 * table, each side a table, an export file or a remote table
 * (data/diffsrc.h), merged in key order by model/tdiff.
 *
 * Output on stdout, one line (text, jsonl) or one array element (json)
 * per item added, removed or changed, then the summary. Exit 0 when the
 * sides are equal, 1 when they differ, 2 on an error (130 after Ctrl-C).
 * A progress line goes to stderr, rewritten in place, only when stderr is
 * a terminal.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "data/diffsrc.h"
#include "data/timing.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/itemdiff.h"
#include "model/mem.h"
#include "model/tdiff.h"
#include "ui/cli.h"

#define VALUE_MAX 120         /* bytes of a value in text output */
#define FLUSH_AT (64 * 1024)

static const char about[] =
    "A and B are each one of:\n"
    "  TABLE              a table of the database (--db, DDBX_DB, the default)\n"
    "  FILE:TABLE         a table of another database file (or of a batch or\n"
    "                     Workbench export file)\n"
    "  FILE, -            an export file in any format `ddbx load` reads (- stdin)\n"
    "  remote:TABLE       a table on the endpoint --endpoint-url / --region names\n"
    "                     (read-only: Scan)\n"
    "  backup:NAME, ARN   a backup of the database, by name or ARN\n"
    "  [FILE:]TABLE@TIME  the table as it was at TIME, e.g.\n"
    "                     Orders@2026-12-01T10:00:00Z (within the change log's\n"
    "                     window: point-in-time recovery keeps it)\n"
    "Lines: + KEY (added in B), - KEY (removed), ~ KEY  path: old -> new; ...\n"
    "then a summary with counts per kind and per sort-key prefix.\n"
    "--key compares by these attributes when the key schemas differ (or an\n"
    "export file says none). Exit 0: equal, 1: different, 2: error.\n";

typedef enum { OUT_TEXT, OUT_JSON, OUT_JSONL } out_format;

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
    stop_signal = sig;
}

typedef struct out {
    out_format fmt;
    buf b;
    bool tty;          /* stdout is a terminal: each line as it comes */
    bool failed;
    uint64_t events;
} out;

static void flush(out *o, bool force)
{
    if (o->b.len == 0 || (!force && o->b.len < FLUSH_AT))
        return;
    if (fwrite(o->b.data, 1, o->b.len, stdout) != o->b.len)
        o->failed = true;
    buf_reset(&o->b);
    if (force && fflush(stdout) != 0)
        o->failed = true;
}

/* The progress line (stderr on a terminal only). */
typedef struct progress {
    bool tty, drew;
    double t0, last;
    const tdiff_summary *sum;
    uint64_t calls;
} progress;

static bool due(progress *p)
{
    if (!p->tty)
        return false;
    double t = timing_now_s();
    if (t - p->last < 0.25)
        return false;
    p->last = t;
    p->drew = true;
    return true;
}

static void show_spool(void *ud, const diffsrc *s, uint64_t n)
{
    progress *p = ud;
    if (!due(p))
        return;
    fputs("\r\033[Kdiff: reading ", stderr);
    cli_fputs_safe(stderr, diffsrc_describe(s));
    fprintf(stderr, " to sort it: %llu items", (unsigned long long)n);
    fflush(stderr);
}

static void show_merge(progress *p)
{
    if (!p->sum || !due(p))
        return;
    const tdiff_summary *s = p->sum;
    uint64_t diffs = s->total.added + s->total.removed + s->total.changed;
    double t = timing_now_s() - p->t0;
    fprintf(stderr, "\r\033[Kdiff: A %llu items, B %llu items, %llu differences, %.0f items/s",
            (unsigned long long)s->items_a, (unsigned long long)s->items_b,
            (unsigned long long)diffs, t > 0 ? (double)(s->items_a + s->items_b) / t : 0.0);
    fflush(stderr);
}

/* A side as tdiff reads it: the source, and the progress line. */
typedef struct side_ctx {
    diffsrc *src;
    progress *p;
} side_ctx;

static status side_next(void *ctx, av *item, bool *end, diag *d)
{
    side_ctx *c = ctx;
    if (++c->p->calls % 4096 == 0)
        show_merge(c->p);
    return diffsrc_next(c->src, item, end, d);
}

/* ---- output ------------------------------------------------------------ */

static void key_json(buf *b, const key_attr *pk, const key_attr *sk, const av *item)
{
    const key_attr *k[2] = { pk, sk };
    buf_addc(b, '{');
    for (int i = 0; i < 2 && k[i]->name; i++) {
        const av *v = av_map_get(item, k[i]->name, strlen(k[i]->name));
        if (i)
            buf_addc(b, ',');
        ddbjson_write_string(b, k[i]->name, strlen(k[i]->name));
        buf_addc(b, ':');
        ddbjson_write_value(b, v);
    }
    buf_addc(b, '}');
}

static void event_json(buf *b, const key_attr *pk, const key_attr *sk, const tdiff_event *ev)
{
    const av *item = ev->a ? ev->a : ev->b;
    size_t start = b->len;
    buf_printf(b, "{\"change\":\"%s\",\"key\":", tdiff_kind_name(ev->kind));
    key_json(b, pk, sk, item);
    if (ev->kind != TDIFF_CHANGED) {
        buf_adds(b, ",\"item\":");
        ddbjson_write_item(b, item);
    } else {
        buf_adds(b, ",\"attributes\":[");
        for (size_t i = 0; i < ev->n_changes; i++) {
            const itemdiff_change *c = &ev->changes[i];
            buf path = BUF_INIT;
            itemdiff_path_text(c->path, c->depth, &path);
            buf_adds(b, i ? ",{\"path\":" : "{\"path\":");
            ddbjson_write_string(b, path.data, path.len);
            buf_done(&path);
            buf_adds(b, ",\"segments\":[");
            for (size_t k = 0; k < c->depth; k++) {
                if (k)
                    buf_addc(b, ',');
                if (c->path[k].name)
                    ddbjson_write_string(b, c->path[k].name, c->path[k].name_len);
                else
                    buf_printf(b, "%zu", c->path[k].index);
            }
            buf_addc(b, ']');
            if (c->old_v) {
                buf_adds(b, ",\"old\":");
                ddbjson_write_value(b, c->old_v);
            }
            if (c->new_v) {
                buf_adds(b, ",\"new\":");
                ddbjson_write_value(b, c->new_v);
            }
            buf_addc(b, '}');
        }
        buf_addc(b, ']');
    }
    buf_addc(b, '}');
    itemdiff_json_safe(b, start);
}

static void event_text(buf *b, const key_attr *pk, const key_attr *sk, const tdiff_event *ev)
{
    buf_adds(b, ev->kind == TDIFF_ADDED ? "+ " : ev->kind == TDIFF_REMOVED ? "- " : "~ ");
    tdiff_key_text(pk, sk, ev->a ? ev->a : ev->b, b);
    for (size_t i = 0; i < ev->n_changes; i++) {
        const itemdiff_change *c = &ev->changes[i];
        buf_adds(b, i ? "; " : "  ");
        itemdiff_path_text(c->path, c->depth, b);
        buf_adds(b, ": ");
        if (c->old_v)
            itemdiff_value_text(c->old_v, VALUE_MAX, b);
        else
            buf_adds(b, "(absent)");
        buf_adds(b, " -> ");
        if (c->new_v)
            itemdiff_value_text(c->new_v, VALUE_MAX, b);
        else
            buf_adds(b, "(absent)");
    }
    buf_addc(b, '\n');
}

static int prefix_order(const void *x, const void *y)
{
    return strcmp(((const tdiff_prefix *)x)->prefix, ((const tdiff_prefix *)y)->prefix);
}

/* The four counts, as JSON members or as text. */
static void counts(buf *b, const tdiff_counts *c, bool json)
{
    buf_printf(b, json ? "\"added\":%llu,\"removed\":%llu,\"changed\":%llu,\"unchanged\":%llu"
                       : "%llu added, %llu removed, %llu changed, %llu unchanged",
               (unsigned long long)c->added, (unsigned long long)c->removed,
               (unsigned long long)c->changed, (unsigned long long)c->same);
}

static void side_json(buf *b, const char *name, const diffsrc *s, uint64_t items)
{
    diffsrc_stats st;
    diffsrc_get_stats(s, &st);
    buf_printf(b, "\"%s\":{\"source\":", name);
    ddbjson_write_string(b, diffsrc_describe(s), strlen(diffsrc_describe(s)));
    buf_printf(b, ",\"items\":%llu,\"sorted\":%s,\"duplicates\":%llu}", (unsigned long long)items,
               st.sorted ? "true" : "false", (unsigned long long)st.duplicates);
}

static void summary_json(buf *b, const tdiff_summary *s, tdiff_prefix *px, const diffsrc *a,
                         const diffsrc *bs)
{
    size_t start = b->len;
    buf_addc(b, '{');
    side_json(b, "a", a, s->items_a);
    buf_addc(b, ',');
    side_json(b, "b", bs, s->items_b);
    buf_addc(b, ',');
    counts(b, &s->total, true);
    buf_adds(b, ",\"by_prefix\":[");
    for (size_t i = 0; i < s->n_prefixes; i++) {
        buf_adds(b, i ? ",{\"prefix\":" : "{\"prefix\":");
        ddbjson_write_string(b, px[i].prefix, strlen(px[i].prefix));
        buf_addc(b, ',');
        counts(b, &px[i].c, true);
        buf_addc(b, '}');
    }
    if (s->has_other) {
        buf_adds(b, s->n_prefixes ? ",{\"prefix\":null," : "{\"prefix\":null,");
        counts(b, &s->other, true);
        buf_addc(b, '}');
    }
    buf_adds(b, "]}");
    itemdiff_json_safe(b, start);
}

static void side_text(buf *b, const char *name, const diffsrc *s, uint64_t items)
{
    diffsrc_stats st;
    diffsrc_get_stats(s, &st);
    size_t start = b->len;
    buf_printf(b, "%s: %s: %llu items", name, diffsrc_describe(s), (unsigned long long)items);
    if (st.sorted)
        buf_adds(b, " (not in key order: sorted first)");
    if (st.duplicates)
        buf_printf(b, " (%llu repeated keys: the later item kept, as ddbx load does)",
                   (unsigned long long)st.duplicates);
    if (st.capacity > 0)
        buf_printf(b, " (%.1f read capacity units)", st.capacity);
    buf_addc(b, '\n');
    /* The description holds names and paths as given: no raw control
     * character goes out. */
    for (size_t i = start; i < b->len; i++)
        if ((unsigned char)b->data[i] < 0x20 && b->data[i] != '\n')
            b->data[i] = '?';
    itemdiff_json_safe(b, start);
}

static void summary_text(buf *b, const tdiff_summary *s, tdiff_prefix *px, const diffsrc *a,
                         const diffsrc *bs)
{
    side_text(b, "A", a, s->items_a);
    side_text(b, "B", bs, s->items_b);
    uint64_t n = s->total.added + s->total.removed + s->total.changed;
    buf_adds(b, n ? "" : "no differences: ");
    counts(b, &s->total, false);
    buf_addc(b, '\n');
    if (!n)
        return;
    for (size_t i = 0; i < s->n_prefixes + s->has_other; i++) {
        const tdiff_counts *c = i < s->n_prefixes ? &px[i].c : &s->other;
        if (c->added + c->removed + c->changed == 0)
            continue;
        buf_adds(b, "  ");
        if (i == s->n_prefixes) {
            buf_adds(b, "(other prefixes)");
        } else if (!px[i].prefix[0]) {
            buf_adds(b, "(no prefix)");
        } else {
            itemdiff_seg seg = { px[i].prefix, strlen(px[i].prefix), 0 };
            itemdiff_path_text(&seg, 1, b);
        }
        buf_adds(b, ": ");
        counts(b, c, false);
        buf_addc(b, '\n');
    }
}

/* ---- the command -------------------------------------------------------- */

/* The key to compare by: --key, else the sides' own when they agree. */
static int choose_key(const char *flag, diffsrc *a, diffsrc *b, key_attr *pk, key_attr *sk,
                      char **names)
{
    const table_def *da = diffsrc_def(a), *db = diffsrc_def(b);
    if (flag) {
        av_type pt = AV_S, st = AV_S;
        if (cli_parse_key_schema(flag, &names[0], &pt, &names[1], &st) != 0) {
            fprintf(stderr, "ddbx diff: --key wants NAME[:S|N|B][,NAME[:S|N|B]], not ");
            cli_fputs_safe(stderr, flag);
            fputc('\n', stderr);
            return 2;
        }
        /* A name given without its type takes the one a side declares. */
        const char *comma = strchr(flag, ',');
        bool typed[2] = { memchr(flag, ':', comma ? (size_t)(comma - flag) : strlen(flag)) != NULL,
                          comma && strchr(comma, ':') };
        av_type *types[2] = { &pt, &st };
        for (int i = 0; i < 2 && names[i]; i++) {
            const table_def *defs[2] = { da, db };
            for (int k = 0; k < 2 && !typed[i]; k++) {
                const table_def *t = defs[k];
                if (!t)
                    continue;
                if (strcmp(t->pk.name, names[i]) == 0)
                    *types[i] = t->pk.type, typed[i] = true;
                else if (t->sk.name && strcmp(t->sk.name, names[i]) == 0)
                    *types[i] = t->sk.type, typed[i] = true;
            }
        }
        *pk = (key_attr){ names[0], pt };
        *sk = (key_attr){ names[1], names[1] ? st : AV_NONE };
        return 0;
    }
    if (!da && !db) {
        fputs("ddbx diff: neither side says its key schema (an export file does not): give "
              "it with --key PK[:S|N|B][,SK[:S|N|B]]\n", stderr);
        return 2;
    }
    if (da && db) {
        if (!table_def_same_keys(da, db)) {
            const table_def *t[2] = { da, db };
            fputs("ddbx diff: the key schemas differ:", stderr);
            for (int i = 0; i < 2; i++) {
                fputs(i ? "; B (" : " A (", stderr);
                cli_fputs_safe(stderr, diffsrc_describe(i ? b : a));
                fputs(") is keyed by ", stderr);
                cli_fputs_safe(stderr, t[i]->pk.name);
                fprintf(stderr, ":%s", av_type_name(t[i]->pk.type));
                if (t[i]->sk.name) {
                    fputs(", ", stderr);
                    cli_fputs_safe(stderr, t[i]->sk.name);
                    fprintf(stderr, ":%s", av_type_name(t[i]->sk.type));
                }
            }
            fputs("; compare them by one key with --key NAME[:S|N|B][,NAME[:S|N|B]]\n", stderr);
            return 2;
        }
    }
    const table_def *t = da ? da : db;
    *pk = t->pk;
    *sk = t->sk;
    return 0;
}

/* Each difference of t as it comes, in o's format (a JSON report's
 * opening too); stops early when stdout fails (o->failed). */
static status write_events(tdiff *t, const key_attr *pk, const key_attr *sk, out *o, progress *p, diag *d)
{
    if (o->fmt == OUT_JSON)
        buf_adds(&o->b, "{\"changes\":[");
    for (;;) {
        tdiff_event ev;
        bool done = false;
        status st = tdiff_next(t, &ev, &done, d);
        if (st != ST_OK) {
            flush(o, true);
            return st;
        }
        if (done)
            return ST_OK;
        if (o->fmt == OUT_TEXT) {
            event_text(&o->b, pk, sk, &ev);
        } else {
            if (o->fmt == OUT_JSON && o->events)
                buf_addc(&o->b, ',');
            event_json(&o->b, pk, sk, &ev);
            if (o->fmt == OUT_JSONL)
                buf_addc(&o->b, '\n');
        }
        o->events++;
        if (o->tty && p->drew)
            fputs("\r\033[K", stderr);   /* the line goes where the progress was */
        flush(o, o->tty);
        if (o->failed)
            return ST_OK;
    }
}

/* What the command line asks of diff. */
typedef struct diff_args {
    const char *side[2], *flag_db, *key_flag;
    remote_opts ro;
    int rem;
    out_format fmt;
    import_format in_fmt;
} diff_args;

/* Parses argv into *da: -1 to go on, else the exit status (after the
 * help, or a message on stderr). */
static int diff_parse(int argc, char **argv, diff_args *da)
{
    const char *format = NULL, *input_format = NULL;
    memset(da, 0, sizeof *da);
    const opt table[] = {
        CLI_OPT_DB(&da->flag_db),
        OPT_STRING("key", "PK[:T][,SK[:T]]", &da->key_flag, "compare by these attributes (types S, N, B)"),
        OPT_STRING("format", "F", &format, "text (default), json or jsonl"),
        OPT_STRING("input-format", "FMT", &input_format, "the export files' format (default: auto)"),
        CLI_OPTS_REMOTE(&da->ro),
        OPT_END(),
    };
    const opts_cmd cmd = {
        .name = "diff",
        .usage = "ddbx diff A B [--db FILE] [--key PK[:S|N|B][,SK[:S|N|B]]]\n"
                 "                 [--format text|json|jsonl] [--input-format FMT]\n"
                 "                 [--endpoint-url URL | --region R] [--profile P]",
        .about = about,
        .opts = table,
        .positional = true,
    };
    int pr = opts_main(&cmd, &argc, argv);
    if (pr >= 0)
        return pr;
    da->rem = da->ro.endpoint_url || da->ro.region || da->ro.profile;
    da->in_fmt = IMPORT_AUTO;
    if (input_format && !import_format_parse(input_format, &da->in_fmt)) {
        fputs("ddbx diff: --input-format: unknown format ", stderr);
        cli_fputs_safe(stderr, input_format);
        fputs(" (auto, ddb-json, jsonl, s3, aws-cli, batch, workbench, plain)\n", stderr);
        return 2;
    }
    da->fmt = OUT_TEXT;
    if (format && strcmp(format, "json") == 0)
        da->fmt = OUT_JSON;
    else if (format && strcmp(format, "jsonl") == 0)
        da->fmt = OUT_JSONL;
    else if (format && strcmp(format, "text") != 0) {
        fputs("ddbx diff: --format wants text, json or jsonl, not ", stderr);
        cli_fputs_safe(stderr, format);
        fputc('\n', stderr);
        return 2;
    }
    if (argc != 3) {
        opts_usage(&cmd, stderr);
        return 2;
    }
    da->side[0] = argv[1];
    da->side[1] = argv[2];
    if (strcmp(da->side[0], "-") == 0 && strcmp(da->side[1], "-") == 0) {
        fputs("ddbx diff: only one side can be stdin (-)\n", stderr);
        return 2;
    }
    return -1;
}

int cli_diff(int argc, char **argv)
{
    diff_args da;
    int parsed = diff_parse(argc, argv, &da);
    if (parsed >= 0)
        return parsed;
    const char **args = da.side, *key_flag = da.key_flag, *flag_db = da.flag_db;
    remote_opts ro = da.ro;
    int rem = da.rem;
    import_format in_fmt = da.in_fmt;
    out o = { .fmt = da.fmt };

    int rc = 2;
    char *db = paths_db(flag_db, 0);
    diffsrc *src[2] = { NULL, NULL };
    diffsrc_spec spec[2];
    memset(spec, 0, sizeof spec);
    tdiff *t = NULL;
    char *key_names[2] = { NULL, NULL };
    tdiff_prefix *px = NULL;
    diag d;
    diag_init(&d);
    diffsrc_opts so = { .db = db, .remote = rem ? &ro : NULL, .format = in_fmt, .stop = &stop_signal };
    progress p = { .tty = isatty(2) == 1 };
    o.tty = isatty(1) == 1;

    struct sigaction sa, old_int, old_term;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);

    static const char *const side_names[2] = { "A", "B" };
    for (int i = 0; i < 2; i++) {
        status st = diffsrc_parse(args[i], &spec[i], &d);
        if (st == ST_OK)
            st = diffsrc_open(&spec[i], &so, side_names[i], &src[i], &d);
        if (st != ST_OK) {
            if (st == ST_USAGE && !d.file[0] && strncmp(d.msg, side_names[i], 1) != 0) {
                /* Name the side the text was. */
                char msg[sizeof d.msg];
                memcpy(msg, d.msg, sizeof msg);
                snprintf(d.msg, sizeof d.msg, "%s: %.1000s", side_names[i], msg);
            }
            cli_print_diag("ddbx diff", &d);
            goto out;
        }
    }
    key_attr pk, sk;
    if (choose_key(key_flag, src[0], src[1], &pk, &sk, key_names) != 0)
        goto out;
    p.t0 = p.last = timing_now_s();
    for (int i = 0; i < 2; i++)
        if (diffsrc_start(src[i], &pk, &sk, show_spool, &p, &d) != ST_OK) {
            if (p.drew)
                fputs("\r\033[K", stderr);
            cli_print_diag("ddbx diff", &d);
            goto out;
        }

    side_ctx ca = { src[0], &p }, cb = { src[1], &p };
    t = tdiff_new(&pk, &sk, (tdiff_side){ side_next, &ca, "A" }, (tdiff_side){ side_next, &cb, "B" });
    p.sum = tdiff_get_summary(t);
    if (write_events(t, &pk, &sk, &o, &p, &d) != ST_OK) {
        if (p.drew)
            fputs("\r\033[K", stderr);
        cli_print_diag("ddbx diff", &d);
        goto out;
    }
    if (p.drew)
        fputs("\r\033[K", stderr);
    const tdiff_summary *s = tdiff_get_summary(t);
    px = xcalloc(s->n_prefixes + 1, sizeof *px);
    memcpy(px, s->prefixes, s->n_prefixes * sizeof *px);
    qsort(px, s->n_prefixes, sizeof *px, prefix_order);
    if (o.fmt == OUT_TEXT) {
        summary_text(&o.b, s, px, src[0], src[1]);
    } else {
        buf_adds(&o.b, o.fmt == OUT_JSON ? "],\"summary\":" : "{\"summary\":");
        summary_json(&o.b, s, px, src[0], src[1]);
        buf_adds(&o.b, "}\n");
    }
    flush(&o, true);
    if (o.failed) {
        perror("ddbx diff: write");
        goto out;
    }
    rc = s->total.added + s->total.removed + s->total.changed ? 1 : 0;
out:
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    if (stop_signal)
        rc = stop_signal == SIGINT ? 130 : 143;
    free(px);
    tdiff_free(t);
    for (int i = 0; i < 2; i++) {
        diffsrc_free(src[i]);
        diffsrc_spec_done(&spec[i]);
        free(key_names[i]);
    }
    buf_done(&o.b);
    free(db);
    return rc;
}
