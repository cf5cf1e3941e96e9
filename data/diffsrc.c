/*
 * diffsrc — the sides of `ddbx diff` (see diffsrc.h).
 */
#include "data/diffsrc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "data/spool.h"
#include "data/store_backup.h"
#include "data/store.h"
#include "model/buf.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/tdiff.h"

#define PROGRESS_EVERY 4096

/* ---- naming a side ------------------------------------------------------ */

void diffsrc_spec_done(diffsrc_spec *s)
{
    free(s->db);
    free(s->table);
    free(s->path);
    free(s->backup);
    memset(s, 0, sizeof *s);
}

static char *dup_n(const char *p, size_t n)
{
    char *s = xmalloc(n + 1);
    memcpy(s, p, n);
    s[n] = '\0';
    return s;
}

/* 1: a file (not a folder) exists at path, 0: nothing there, -1: a folder. */
static int file_at(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return 0;
    return S_ISDIR(st.st_mode) ? -1 : 1;
}

static bool is_database(const char *path)
{
    char head[16];
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return n == sizeof head && memcmp(head, "SQLite format 3", 16) == 0;
}

/* ISO 8601 (2026-12-01T10:00:00Z, fractions of a second, an offset
 * +09:00), or seconds since the epoch, as DynamoDB's RestoreDateTime. */
static bool parse_time(const char *s, int64_t *ms)
{
    char *end = NULL;
    if (*s >= '0' && *s <= '9' && !strpbrk(s, "-:")) {
        errno = 0;
        double v = strtod(s, &end);
        if (errno || *end || v > 32503680000.0)
            return false;
        *ms = (int64_t)(v * 1000.0);
        return true;
    }
    int f[6], used = 0;
    char t = 0;
    if (strlen(s) < 19 || sscanf(s, "%4d-%2d-%2d%c%2d:%2d:%2d%n", &f[0], &f[1], &f[2], &t, &f[3],
                                 &f[4], &f[5], &used) != 7 || used != 19 || !strchr("Tt ", t) ||
        strspn(s, "0123456789") != 4)
        return false;
    const char *p = s + used;
    double frac = 0;
    if (*p == '.') {
        frac = strtod(p, &end);
        if (end == p + 1)
            return false;
        p = end;
    }
    int off = 0, oh = 0, om = 0;
    if (*p == 'Z' || *p == 'z')
        p++;
    else if ((*p == '+' || *p == '-') && sscanf(p + 1, "%2d:%2d%n", &oh, &om, &used) == 2 &&
             used == 5 && oh < 24 && om < 60)
        off = (*p == '-' ? -1 : 1) * (oh * 60 + om) * 60, p += 6;
    else
        return false;
    if (*p || f[1] < 1 || f[1] > 12 || f[2] < 1 || f[2] > 31 || f[3] > 23 || f[4] > 59 ||
        f[5] > 60)
        return false;
    struct tm tm = { .tm_year = f[0] - 1900, .tm_mon = f[1] - 1, .tm_mday = f[2],
                     .tm_hour = f[3], .tm_min = f[4], .tm_sec = f[5] };
    time_t secs = timegm(&tm);
    struct tm back;
    if (secs == (time_t)-1 || !gmtime_r(&secs, &back) || back.tm_mday != f[2])
        return false;   /* 2026-02-30 */
    *ms = ((int64_t)secs - off) * 1000 + (int64_t)(frac * 1000.0);
    return true;
}

/* arn:PARTITION:dynamodb:REGION:ACCOUNT:table/TABLE/backup/ID */
static bool backup_arn(const char *s)
{
    const char *p = strchr(s + 4, ':');
    if (strncmp(s, "arn:", 4) != 0 || !p || strncmp(p, ":dynamodb:", 10) != 0)
        return false;
    p = strstr(p, ":table/");
    const char *b = p ? strstr(p + 7, "/backup/") : NULL;
    return b && b > p + 7 && b[8] != '\0';
}

/* [FILE:]TABLE, FILE an existing database or export file. */
static status parse_table(const char *text, size_t n, diffsrc_spec *out, diag *d)
{
    const char *colon = NULL;   /* the last ':' (memrchr is GNU's alone) */
    for (size_t i = n; i > 0 && !colon; i--)
        if (text[i - 1] == ':')
            colon = text + i - 1;
    if (!colon) {
        if (memchr(text, '/', n))
            return diag_set(d, ST_USAGE, "no file %.*s", (int)n, text);
        out->kind = DIFFSRC_TABLE;
        out->table = dup_n(text, n);
        return ST_OK;
    }
    char *file = dup_n(text, (size_t)(colon - text));
    const char *table = colon + 1;
    size_t tn = n - (size_t)(colon + 1 - text);
    int at = file_at(file);
    if (at <= 0 || tn == 0) {
        diag_set(d, ST_USAGE, at < 0 ? "%s is a folder (FILE:TABLE names a table of a database "
                 "file or of an export file)" : tn == 0 ? "%s: say which table after the colon"
                 : "no file %s (FILE:TABLE names a table of a database file or of an export file)",
                 file);
        free(file);
        return ST_USAGE;
    }
    out->table = dup_n(table, tn);
    if (is_database(file)) {
        out->kind = DIFFSRC_TABLE;
        out->db = file;
    } else {
        out->kind = DIFFSRC_FILE;
        out->path = file;
    }
    return ST_OK;
}

status diffsrc_parse(const char *text, diffsrc_spec *out, diag *d)
{
    memset(out, 0, sizeof *out);
    status st = ST_OK;
    if (!*text)
        return diag_set(d, ST_USAGE, "an empty name: give a table, a file, remote:TABLE or backup:NAME");
    if (strcmp(text, "-") == 0) {
        out->kind = DIFFSRC_FILE;
        out->path = xstrdup("-");
        return ST_OK;
    }
    if (strncmp(text, "backup:", 7) == 0 || strncmp(text, "arn:", 4) == 0) {
        const char *name = text[0] == 'b' ? text + 7 : text;
        if (!*name)
            return diag_set(d, ST_USAGE, "backup: needs the backup's name or ARN");
        if (text[0] == 'a' && !backup_arn(text))
            return diag_set(d, ST_USAGE, "%s is not a backup's ARN "
                            "(arn:aws:dynamodb:REGION:ACCOUNT:table/TABLE/backup/ID)", text);
        out->kind = DIFFSRC_BACKUP;
        out->backup = xstrdup(name);
        return ST_OK;
    }
    if (strncmp(text, "remote:", 7) == 0) {
        const char *t = text + 7;
        if (!*t)
            return diag_set(d, ST_USAGE, "remote: needs a table name");
        if (strchr(t, '@'))
            return diag_set(d, ST_USAGE, "%s: a remote table's past is not read here (DynamoDB "
                            "restores a point in time into a new table: diff that one)", text);
        out->kind = DIFFSRC_REMOTE;
        out->table = xstrdup(t);
        return ST_OK;
    }
    int at = file_at(text);
    if (at < 0)
        return diag_set(d, ST_USAGE, "%s is a folder", text);
    if (at > 0) {
        if (is_database(text))
            return diag_set(d, ST_USAGE, "%s is a database file: say which table, %s:TABLE",
                            text, text);
        out->kind = DIFFSRC_FILE;
        out->path = xstrdup(text);
        return ST_OK;
    }
    const char *when = strrchr(text, '@');
    if (when) {
        int64_t ms = 0;
        if (when == text)
            return diag_set(d, ST_USAGE, "%s: say which table before the @", text);
        if (!parse_time(when + 1, &ms))
            return diag_set(d, ST_USAGE, "%s: %s is not a time: ISO 8601 such as "
                            "2026-12-01T10:00:00Z (or +09:00), or seconds since 1970",
                            text, when + 1);
        st = parse_table(text, (size_t)(when - text), out, d);
        if (st == ST_OK && out->kind == DIFFSRC_FILE) {
            diffsrc_spec_done(out);
            return diag_set(d, ST_USAGE, "%s: a point in time is a table's, not an export file's",
                            text);
        }
        out->kind = DIFFSRC_TIME;
        out->at_ms = ms;
        return st;
    }
    return parse_table(text, strlen(text), out, d);
}

/* ---- readers ------------------------------------------------------------ */

/* A table read with Scan pages: the local store's are in key order
 * (keyset paging on its B-tree), a remote's in DynamoDB's hash order. */
typedef struct scan_reader {
    store *st;
    bool borrowed;     /* st is the options' store: not closed here */
    remote *rem;
    char *table;
    ddb_res page;
    size_t at;
    bool more;
    av start;
    double *capacity;
} scan_reader;

static status scan_next(void *self, av *item, bool *end, diag *d)
{
    scan_reader *r = self;
    while (r->at == r->page.n_items) {
        if (!r->more) {
            *end = true;
            return ST_OK;
        }
        ddb_res_done(&r->page);
        ddb_res_init(&r->page);
        r->at = 0;
        ddb_req q;
        ddb_req_init(&q, DDB_SCAN);
        ddb_req_set_str(&q.table, r->table);
        q.rcc = r->rem ? DDB_RCC_TOTAL : DDB_RCC_NONE;
        if (r->start.type != AV_NONE)
            av_move(&q.start, &r->start);
        ddb_err e;
        ddb_err_init(&e);
        status st = store_exec(r->st, &q, &r->page, &e);
        ddb_req_done(&q);
        if (st != ST_OK) {
            *d = e.d;
            if (e.message)
                snprintf(d->msg, sizeof d->msg, "%s", e.message);
            ddb_err_done(&e);
            return st;
        }
        ddb_err_done(&e);
        *r->capacity += ddb_res_units(&r->page);
        r->more = r->page.last_key.type != AV_NONE;
        if (r->more)
            av_move(&r->start, &r->page.last_key);
    }
    *end = false;
    av_move(item, &r->page.items[r->at++]);
    return ST_OK;
}

static void scan_close(void *self)
{
    scan_reader *r = self;
    ddb_res_done(&r->page);
    av_done(&r->start);
    if (!r->borrowed)
        store_close(r->st);
    remote_close(r->rem);
    free(r->table);
    free(r);
}

/* An export file: the items of the file (of its one table, or the table
 * named), in the file's order. */
typedef struct file_reader {
    import_source *src;
    char *path;        /* as named, for messages */
    char *table;       /* the table chosen; NULL: the file's only one */
    char *seen;        /* the first table an item named (table NULL) */
    import_event pending;
    bool has_pending;
    int line, col;     /* where the item handed out last began */
    uint64_t index;
    char label[48];
} file_reader;

static status file_event(file_reader *r, import_event *ev, diag *d)
{
    status st = import_source_next(r->src, ev, d);
    if (st != ST_OK && !d->file[0])
        snprintf(d->file, sizeof d->file, "%s", r->path);
    return st;
}

static status file_next(void *self, av *item, bool *end, diag *d)
{
    file_reader *r = self;
    for (;;) {
        import_event ev;
        if (r->has_pending) {
            ev = r->pending;
            r->has_pending = false;
        } else {
            status st = file_event(r, &ev, d);
            if (st != ST_OK)
                return st;
        }
        if (ev.kind == IMPORT_EV_END) {
            *end = true;
            return ST_OK;
        }
        if (ev.kind != IMPORT_EV_ITEM) {
            import_event_done(&ev);
            continue;
        }
        if (r->table && !ev.table) {
            import_event_done(&ev);
            return diag_set(d, ST_USAGE, "%s names no table (it is %s): diff it as %s, without :%s",
                            r->path, import_format_name(import_source_format(r->src)), r->path,
                            r->table);
        }
        if (r->table && strcmp(ev.table, r->table) != 0) {
            import_event_done(&ev);
            continue;
        }
        if (!r->table && ev.table) {
            if (!r->seen) {
                r->seen = xstrdup(ev.table);
            } else if (strcmp(r->seen, ev.table) != 0) {
                diag_set(d, ST_USAGE, "%s holds items of %s and of %s: say which, %s:%s",
                         r->path, r->seen, ev.table, r->path, r->seen);
                import_event_done(&ev);
                return ST_USAGE;
            }
        }
        r->line = ev.line;
        r->col = ev.col;
        r->index = ev.index;
        av_move(item, &ev.item);
        ev.kind = IMPORT_EV_END;
        *end = false;
        return ST_OK;
    }
}

static const char *file_locate(void *self, diag *d)
{
    file_reader *r = self;
    snprintf(d->file, sizeof d->file, "%s", r->path);
    d->line = r->line;
    d->col = r->col;
    snprintf(r->label, sizeof r->label, "item %llu", (unsigned long long)r->index);
    return r->label;
}

static void file_close(void *self)
{
    file_reader *r = self;
    if (r->has_pending)
        import_event_done(&r->pending);
    import_source_free(r->src);
    free(r->path);
    free(r->table);
    free(r->seen);
    free(r);
}

/* ---- sources ------------------------------------------------------------ */

struct diffsrc {
    char *side, *describe;
    table_def def;
    bool has_def;
    diffsrc_reader r;
    bool from_file;
    const diffsrc_opts *o;
    /* After diffsrc_start: the key, and the spool when one was needed. */
    key_attr pk, sk;
    spool *sp;
    diffsrc_stats st;
};

/* A table of a database file, or of the remote endpoint. */
static status open_table(diffsrc *s, const diffsrc_spec *spec, bool rem, diag *d)
{
    const diffsrc_opts *o = s->o;
    scan_reader *r = xcalloc(1, sizeof *r);
    ddb_res_init(&r->page);
    r->more = true;
    r->capacity = &s->st.capacity;
    r->table = xstrdup(spec->table);
    s->r = (diffsrc_reader){ scan_next, NULL, scan_close, r, !rem };
    status st;
    buf b = BUF_INIT;
    if (rem) {
        if (!o->remote)
            return diag_set(d, ST_USAGE, "%s: remote:%s needs the endpoint: --endpoint-url URL "
                            "or --region R", s->side, spec->table);
        st = remote_open(o->remote, &r->rem, d);
        if (st == ST_OK)
            st = store_open_remote(remote_send, r->rem, remote_describe(r->rem), 0, &r->st, d);
        if (st == ST_OK) {
            remote_set_cancel(r->rem, o->stop);
            buf_printf(&b, "remote %s at %s", spec->table, remote_describe(r->rem));
        }
    } else if (!spec->db && o->store) {
        store_info info;
        store_get_info(o->store, &info);
        r->st = o->store;
        r->borrowed = true;
        s->r.ordered = !info.remote;   /* a remote's Scan comes in hash order */
        st = ST_OK;
        if (info.remote)
            buf_printf(&b, "remote %s at %s", spec->table, info.where);
        else
            buf_printf(&b, "%s in %s", spec->table, o->db ? o->db : "memory");
    } else {
        const char *db = spec->db ? spec->db : o->db;
        if (file_at(db) <= 0)
            return diag_set(d, ST_NOT_FOUND, "%s: no database at %s", s->side, db);
        st = store_open(db, STORE_READ_ONLY | STORE_STREAM, &r->st, d);
        buf_printf(&b, "%s in %s", spec->table, db);
    }
    s->describe = buf_steal(&b);
    if (st != ST_OK)
        return st;
    st = store_describe(r->st, spec->table, &s->def, d);
    if (st == ST_NOT_FOUND)
        return diag_set(d, ST_NOT_FOUND, "%s: no table %s (%s)%s", s->side, spec->table,
                        s->describe, !spec->db && !rem ? ", and no file of that name" : "");
    s->has_def = st == ST_OK;
    return st;
}

static status open_file(diffsrc *s, const diffsrc_spec *spec, diag *d)
{
    file_reader *r = xcalloc(1, sizeof *r);
    r->path = xstrdup(spec->path);
    r->table = spec->table ? xstrdup(spec->table) : NULL;
    s->r = (diffsrc_reader){ file_next, file_locate, file_close, r, false };
    s->from_file = true;
    status st = import_source_open(spec->path, s->o->format, &r->src, d);
    if (st != ST_OK) {
        if (!d->file[0])
            snprintf(d->file, sizeof d->file, "%s", spec->path);
        return st;
    }
    buf b = BUF_INIT;
    buf_printf(&b, "%s (%s)", strcmp(spec->path, "-") == 0 ? "stdin" : spec->path,
               import_format_name(import_source_format(r->src)));
    if (spec->table)
        buf_printf(&b, " table %s", spec->table);
    s->describe = buf_steal(&b);
    /* Definitions come first (a Workbench model): read up to the first
     * item, which waits for the first diffsrc_next. */
    size_t defs = 0;
    for (;;) {
        import_event ev;
        st = file_event(r, &ev, d);
        if (st != ST_OK)
            return st;
        if (ev.kind == IMPORT_EV_TABLE) {
            bool mine = !spec->table || strcmp(ev.def.name, spec->table) == 0;
            if (mine && !s->has_def) {
                table_def_copy(&s->def, &ev.def);
                s->has_def = true;
            }
            defs += !spec->table;
            import_event_done(&ev);
            continue;
        }
        r->pending = ev;
        r->has_pending = true;
        break;
    }
    if (defs > 1)
        return diag_set(d, ST_USAGE, "%s defines %zu tables: say which, %s:%s", spec->path, defs,
                        spec->path, s->def.name);
    if (spec->table && !s->has_def && import_source_format(r->src) == IMPORT_WORKBENCH)
        return diag_set(d, ST_NOT_FOUND, "%s: the model has no table %s", spec->path, spec->table);
    return ST_OK;
}

/* A backup or a table at a moment: the store's key-ordered readers
 * (store_items_backup, store_items_at), a page at a time. */
typedef struct past_reader {
    store *st;
    bool borrowed;     /* st is the options' store: not closed here */
    store_items_cursor c;
} past_reader;

static status past_next(void *self, av *item, bool *end, diag *d)
{
    past_reader *r = self;
    return store_items_cursor_next(&r->c, item, end, d);
}

static void past_close(void *self)
{
    past_reader *r = self;
    store_items_cursor_done(&r->c);
    if (!r->borrowed)
        store_close(r->st);
    free(r);
}

/* backup:NAME -> its ARN: the one backup of that name (names need not be
 * unique: two of one name are refused, listed by ARN). */
static status backup_by_name(diffsrc *s, store *st, const char *name, char **arn, diag *d)
{
    if (strncmp(name, "arn:", 4) == 0) {
        *arn = xstrdup(name);
        return ST_OK;
    }
    store_backup_filter f = { .user = true, .system = true };
    store_backup *b = NULL;
    size_t n = 0;
    bool more = false;
    status rc = store_backup_list(st, &f, &b, &n, &more, d);
    if (rc != ST_OK)
        return rc;
    size_t found = 0;
    buf arns = BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(b[i].name, name) != 0)
            continue;
        if (!found++)
            *arn = xstrdup(b[i].arn);
        buf_printf(&arns, "%s%s", found > 1 ? ", " : "", b[i].arn);
    }
    if (found == 0)
        rc = diag_set(d, ST_BACKUP_NOT_FOUND, "%s: backup:%s: no backup of that name in %s",
                      s->side, name, s->describe);
    else if (found > 1)
        rc = diag_set(d, ST_USAGE, "%s: backup:%s: %zu backups have that name; give one's ARN: %s",
                      s->side, name, found, arns.data);
    if (rc != ST_OK && found) {
        free(*arn);
        *arn = NULL;
    }
    buf_done(&arns);
    store_backups_free(b, n);
    return rc;
}

static status open_past(diffsrc *s, const diffsrc_spec *spec, diag *d)
{
    const char *db = spec->db ? spec->db : s->o->db;
    bool own = !spec->db && s->o->store;   /* the options' store */
    if (own && !db)
        db = "memory";
    past_reader *r = xcalloc(1, sizeof *r);
    s->r = (diffsrc_reader){ past_next, NULL, past_close, r, true };
    buf b = BUF_INIT;
    if (spec->kind == DIFFSRC_BACKUP)
        buf_printf(&b, "backup %s in %s", spec->backup, db ? db : "?");
    else {
        char when[32];
        time_t secs = (time_t)(spec->at_ms / 1000);
        struct tm tm;
        gmtime_r(&secs, &tm);
        strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
        buf_printf(&b, "%s at %s in %s", spec->table, when, db ? db : "?");
    }
    s->describe = buf_steal(&b);
    status st = ST_OK;
    if (own) {
        r->st = s->o->store;
        r->borrowed = true;
    } else if (!db || file_at(db) <= 0) {
        return diag_set(d, ST_NOT_FOUND, "%s: no database at %s", s->side, db ? db : "(none)");
    } else {
        st = store_open(db, STORE_READ_ONLY | STORE_STREAM, &r->st, d);
        if (st != ST_OK)
            return st;
    }
    if (spec->kind == DIFFSRC_BACKUP) {
        char *arn = NULL;
        st = backup_by_name(s, r->st, spec->backup, &arn, d);
        if (st == ST_OK)
            st = store_items_backup(r->st, arn, NULL, &r->c.r, d);
        if (st == ST_BACKUP_NOT_FOUND && strncmp(spec->backup, "arn:", 4) == 0)
            st = diag_set(d, ST_BACKUP_NOT_FOUND, "%s: no backup %s in %s", s->side, arn,
                          db);
        free(arn);
    } else {
        st = store_items_at(r->st, spec->table, spec->at_ms, NULL, &r->c.r, d);
        if (st == ST_TABLE_NOT_FOUND || st == ST_NOT_FOUND)
            st = diag_set(d, st, "%s: no table %s in %s", s->side, spec->table, db);
        else if (st != ST_OK) {
            char why[sizeof d->msg];
            snprintf(why, sizeof why, "%s", d->msg);
            st = diag_set(d, st, "%s: %s: %s", s->side, s->describe, why);
        }
    }
    if (st != ST_OK)
        return st;
    table_def_copy(&s->def, store_items_def(r->c.r));
    s->has_def = true;
    return ST_OK;
}

status diffsrc_open(const diffsrc_spec *spec, const diffsrc_opts *o, const char *side,
                    diffsrc **out, diag *d)
{
    *out = NULL;
    diffsrc *s = xcalloc(1, sizeof *s);
    s->side = xstrdup(side);
    s->o = o;
    status st;
    switch (spec->kind) {
    case DIFFSRC_TABLE:
    case DIFFSRC_REMOTE:
        st = open_table(s, spec, spec->kind == DIFFSRC_REMOTE, d);
        break;
    case DIFFSRC_FILE:
        st = open_file(s, spec, d);
        break;
    case DIFFSRC_BACKUP:
    case DIFFSRC_TIME:
        st = open_past(s, spec, d);
        break;
    default:
        st = diag_set(d, ST_USAGE, "%s: no such kind of side", side);
        break;
    }
    if (st != ST_OK) {
        diffsrc_free(s);
        return st;
    }
    *out = s;
    return ST_OK;
}

void diffsrc_free(diffsrc *s)
{
    if (!s)
        return;
    if (s->r.close)
        s->r.close(s->r.self);
    spool_free(s->sp);
    if (s->has_def)
        table_def_free(&s->def);
    free((char *)s->pk.name);
    free((char *)s->sk.name);
    free(s->side);
    free(s->describe);
    free(s);
}

const table_def *diffsrc_def(const diffsrc *s)
{
    return s->has_def ? &s->def : NULL;
}

const char *diffsrc_describe(const diffsrc *s)
{
    return s->describe ? s->describe : "";
}

void diffsrc_get_stats(const diffsrc *s, diffsrc_stats *st)
{
    *st = s->st;
}

static bool same_attr(const key_attr *a, const key_attr *b)
{
    if (!a->name || !b->name)
        return !a->name && !b->name;
    return strcmp(a->name, b->name) == 0 && a->type == b->type;
}

static status stopped(const diffsrc *s, diag *d)
{
    if (s->o->stop && *s->o->stop)
        return diag_set(d, ST_IO, "interrupted");
    return ST_OK;
}

/* The item's key attribute k encoded onto out, or an error saying where
 * the item came from. */
static status key_of(diffsrc *s, const av *item, const key_attr *k, buf *out, diag *d)
{
    const av *v = av_map_get(item, k->name, strlen(k->name));
    if (v && v->type == k->type) {
        keyenc_append(out, v);
        return ST_OK;
    }
    buf where = BUF_INIT;
    const char *label = s->r.locate ? s->r.locate(s->r.self, d) : NULL;
    if (label) {
        buf_adds(&where, label);
    } else {
        buf_adds(&where, "the item ");
        tdiff_key_text(&s->def.pk, &s->def.sk, item, &where);
    }
    if (v)
        diag_set(d, ST_VALIDATION, "%s: %s has %s of type %s, not %s (the key the diff "
                 "compares by)", s->side, where.data, k->name, av_type_name(v->type),
                 av_type_name(k->type));
    else
        diag_set(d, ST_VALIDATION, "%s: %s has no attribute %s (the key the diff compares by)",
                 s->side, where.data, k->name);
    buf_done(&where);
    return ST_VALIDATION;
}

status diffsrc_start(diffsrc *s, const key_attr *pk, const key_attr *sk,
                     diffsrc_progress_fn progress, void *ud, diag *d)
{
    s->pk = (key_attr){ xstrdup(pk->name), pk->type };
    if (sk && sk->name)
        s->sk = (key_attr){ xstrdup(sk->name), sk->type };
    if (s->r.ordered && s->has_def && same_attr(&s->def.pk, &s->pk) && same_attr(&s->def.sk, &s->sk))
        return ST_OK;
    status st = spool_new(&s->sp, d);
    buf key = BUF_INIT;
    while (st == ST_OK) {
        av item = { .type = AV_NONE };
        bool end = false;
        st = stopped(s, d);
        if (st == ST_OK)
            st = s->r.next(s->r.self, &item, &end, d);
        if (st != ST_OK || end)
            break;
        s->st.read++;
        buf_reset(&key);
        st = key_of(s, &item, &s->pk, &key, d);
        if (st == ST_OK && s->sk.name)
            st = key_of(s, &item, &s->sk, &key, d);
        if (st == ST_OK)
            st = spool_add(s->sp, key.data, key.len, &item, d);
        av_done(&item);
        if (st == ST_OK && progress && s->st.read % PROGRESS_EVERY == 0)
            progress(ud, s, s->st.read);
    }
    buf_done(&key);
    if (st == ST_OK)
        st = spool_finish(s->sp, d);
    s->st.spooled = s->st.read;
    s->st.sorted = s->sp && !spool_in_order(s->sp);
    if (st == ST_OK && progress)
        progress(ud, s, s->st.read);
    return st;
}

status diffsrc_next(void *ctx, av *item, bool *end, diag *d)
{
    diffsrc *s = ctx;
    status st = stopped(s, d);
    if (st != ST_OK)
        return st;
    if (!s->sp) {
        st = s->r.next(s->r.self, item, end, d);
        if (st == ST_OK && !*end)
            s->st.read++;
        return st;
    }
    uint64_t replaced = 0;
    st = spool_next(s->sp, item, &replaced, end, d);
    if (st != ST_OK || !replaced)
        return st;
    if (s->from_file) {
        s->st.duplicates += replaced;
        return ST_OK;
    }
    av_done(item);
    return diag_set(d, ST_VALIDATION, "%s: two items of %s share the key %s%s%s: the key the "
                    "diff compares by does not tell its items apart", s->side, s->describe,
                    s->pk.name, s->sk.name ? ", " : "", s->sk.name ? s->sk.name : "");
}
