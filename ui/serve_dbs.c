/*
 * serve_dbs — `ddbx serve`'s databases and the workers' connections to
 * them (ui/serve_dbs.h).
 */
#include "ui/serve_dbs.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

typedef struct db {
    char *name;               /* "KEY_REGION" (PER_KEY), "" otherwise */
    store *first;             /* opened by whoever asked first */
    store **conns;            /* under lock: every connection open; conns[0] is first */
    size_t opened, reserved;  /* under lock: open; open or being opened */
    store *sweeper;           /* the TTL sweep's (its thread only) */
} db;

/* A worker thread's connections, by database index. */
typedef struct mine {
    size_t cap;
    store *c[];
} mine;

struct serve_dbs {
    serve_dbs_opts o;
    char *path;               /* o.path copied */
    pthread_mutex_t lock;
    db **all;                 /* under lock */
    size_t n, cap;
    size_t open;              /* under lock: databases opened (max_open bounds it) */
    bool said;                /* under lock: the bound's refusal is on stderr */
    pthread_key_t key;
};

bool serve_dbs_file_name(const char *key, const char *region, char *out, size_t n)
{
    if (!key || !*key || !region || !*region)
        return false;
    for (const char *p = key; *p; p++)
        if (!((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9')))
            return false;
    for (const char *p = region; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return false;
    return (size_t)snprintf(out, n, "%s_%s.db", key, region) < n;
}

/* Opens d's first connection: its file (or memory) named by rule. */
static status open_first(serve_dbs *s, db *d, diag *dg)
{
    char file[512];
    const char *path = ":memory:";
    if (s->o.rule == SERVE_DBS_ONE) {
        path = s->path;
    } else if (!s->o.memory) {
        snprintf(file, sizeof file, "%s/%s%s", s->path,
                 s->o.rule == SERVE_DBS_SHARED ? "shared-local-instance" : d->name, ".db");
        path = file;
    }
    status st = store_open(path, STORE_LARGE_CACHE | s->o.store_flags, &d->first, dg);
    if (st == ST_OK)
        store_set_stream_times(d->first, s->o.retention, s->o.lifetime);
    return st;
}

size_t serve_dbs_fds_each(const serve_dbs_opts *o)
{
    if (o->memory || (o->rule == SERVE_DBS_ONE && o->path && strcmp(o->path, ":memory:") == 0))
        return 0;
    /* each worker's connection and the sweep's: the file and its WAL;
     * the shared memory, one a database in the process; and one spare
     * for a statement's journal or temporary file */
    return 2 * ((o->max_conns ? o->max_conns : 1) + 1) + 1 + 1;
}

/* Under lock: the refusal of a new database past max_open (true), or
 * false when there is room. */
static bool full(serve_dbs *s, diag *dg)
{
    if (!s->o.max_open || s->open < s->o.max_open)
        return false;
    diag_set(dg, ST_LIMIT_EXCEEDED, "ddbx serve has %zu databases open at once (one an access key ID and region),"
             " the most its file limit allows (ulimit -n %zu): this key and region's is not opened; restart it"
             " with a higher limit, or give the clients fewer keys (-sharedDb: one database for all)",
             s->open, s->o.file_limit);
    if (!s->said)
        fprintf(stderr, "ddbx serve: %s (said once)\n", dg->msg);
    s->said = true;
    return true;
}

/* The index of the database called name, or s->n. Under lock. */
static size_t find(const serve_dbs *s, const char *name)
{
    size_t i = 0;
    while (i < s->n && strcmp(s->all[i]->name, name) != 0)
        i++;
    return i;
}

/* The database called name, made (not opened) when new. Under lock. */
static size_t find_or_add(serve_dbs *s, const char *name)
{
    size_t i = find(s, name);
    if (i < s->n)
        return i;
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 4;
        s->all = xrealloc(s->all, s->cap * sizeof *s->all);
    }
    db *d = xcalloc(1, sizeof *d);
    d->name = xstrdup(name);
    d->conns = xcalloc(s->o.max_conns + 1, sizeof *d->conns);
    s->all[s->n] = d;
    return s->n++;
}

/* A folder's *.db files, each ddbx's or empty (store_check_file): a
 * DynamoDB Local dbPath folder is refused at start, whole. */
static status folder_ours(const char *dir, diag *d)
{
    DIR *dp = opendir(dir);
    if (!dp)
        return diag_set(d, ST_IO, "%s: %s", dir, strerror(errno));
    status st = ST_OK;
    struct dirent *e;
    while (st == ST_OK && (e = readdir(dp)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 4 || strcmp(e->d_name + n - 3, ".db") != 0)
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        st = store_check_file(path, d);
    }
    closedir(dp);
    return st;
}

serve_dbs *serve_dbs_new(const serve_dbs_opts *o, diag *d)
{
    if (o->rule != SERVE_DBS_ONE && !o->memory && folder_ours(o->path, d) != ST_OK)
        return NULL;
    serve_dbs *s = xcalloc(1, sizeof *s);
    s->o = *o;
    s->path = o->path ? xstrdup(o->path) : NULL;
    s->o.path = s->path;
    if (s->o.max_conns == 0)
        s->o.max_conns = 1;
    pthread_mutex_init(&s->lock, NULL);
    pthread_key_create(&s->key, free);
    if (o->rule != SERVE_DBS_PER_KEY) {
        size_t i = find_or_add(s, "");   /* before s->all is read: it may move */
        db *first = s->all[i];
        if (open_first(s, first, d) != ST_OK) {
            serve_dbs_free(s);
            return NULL;
        }
        s->open = 1;
    }
    return s;
}

/* Takes a connection to d for the calling thread: the first one (opened
 * here when nobody has yet) or a new peer. NULL with dg filled. */
static store *take(serve_dbs *s, db *d, diag *dg)
{
    pthread_mutex_lock(&s->lock);
    if (!d->first && d->reserved == 0) {
        /* Opened under the lock: two workers asking at once for a new
         * key's database must not both create it. */
        status st = full(s, dg) ? ST_LIMIT_EXCEEDED : open_first(s, d, dg);
        if (st == ST_OK)
            s->open++;
        pthread_mutex_unlock(&s->lock);
        if (st != ST_OK)
            return NULL;
        pthread_mutex_lock(&s->lock);
    }
    if (!d->first) {
        pthread_mutex_unlock(&s->lock);
        diag_set(dg, ST_INTERNAL, "the database is not open");
        return NULL;
    }
    bool first = d->reserved == 0, room = d->reserved < s->o.max_conns;
    if (first)
        d->conns[d->opened++] = d->first;
    if (first || room)
        d->reserved++;
    pthread_mutex_unlock(&s->lock);
    if (first)
        return d->first;
    if (!room) {
        diag_set(dg, ST_INTERNAL, "more worker threads than store connections");
        return NULL;
    }
    store *p = NULL;
    status st = store_open_peer(d->first, &p, dg);
    pthread_mutex_lock(&s->lock);
    if (st == ST_OK)
        d->conns[d->opened++] = p;
    else
        d->reserved--;
    pthread_mutex_unlock(&s->lock);
    return p;
}

store *serve_dbs_conn(serve_dbs *s, const char *key, const char *region, diag *dg)
{
    char name[300] = "";
    if (s->o.rule == SERVE_DBS_PER_KEY) {
        if (!serve_dbs_file_name(key, region, name, sizeof name)) {
            diag_set(dg, ST_USAGE, "The Access Key ID or security token is invalid.");
            return NULL;
        }
        name[strlen(name) - 3] = '\0';   /* the ".db" */
    }
    pthread_mutex_lock(&s->lock);
    /* A key refused for room leaves nothing behind (no entry, no file). */
    if (find(s, name) == s->n && full(s, dg)) {
        pthread_mutex_unlock(&s->lock);
        return NULL;
    }
    size_t i = find_or_add(s, name);
    db *d = s->all[i];
    pthread_mutex_unlock(&s->lock);
    mine *m = pthread_getspecific(s->key);
    if (m && i < m->cap && m->c[i])
        return m->c[i];
    store *c = take(s, d, dg);
    if (!c)
        return NULL;
    if (!m || i >= m->cap) {
        size_t cap = m ? m->cap : 0, want = i + 4;
        m = xrealloc(m, sizeof *m + want * sizeof m->c[0]);
        memset(m->c + cap, 0, (want - cap) * sizeof m->c[0]);
        m->cap = want;
        pthread_setspecific(s->key, m);
    }
    m->c[i] = c;
    return c;
}

void serve_dbs_sweep(serve_dbs *s, double now, size_t budget)
{
    pthread_mutex_lock(&s->lock);
    size_t n = s->n;
    pthread_mutex_unlock(&s->lock);
    for (size_t i = 0; i < n; i++) {
        pthread_mutex_lock(&s->lock);
        db *d = s->all[i];
        store *first = d->first;
        pthread_mutex_unlock(&s->lock);
        if (!first)
            continue;
        diag dg;
        diag_init(&dg);
        size_t deleted = 0;
        status st = d->sweeper ? ST_OK : store_open_peer(first, &d->sweeper, &dg);
        if (st == ST_OK)
            st = store_ttl_sweep(d->sweeper, now, budget, &deleted, &dg);
        if (st != ST_OK)
            fprintf(stderr, "ddbx serve: TTL sweep%s%s: %s\n", *d->name ? " of " : "", d->name, dg.msg);
    }
}

void serve_dbs_free(serve_dbs *s)
{
    if (!s)
        return;
    /* The workers are gone: no connection is in use. */
    for (size_t i = 0; i < s->n; i++) {
        db *d = s->all[i];
        store_close(d->sweeper);
        for (size_t k = 1; k < d->opened; k++)
            store_close(d->conns[k]);
        store_close(d->first);
        free(d->conns);
        free(d->name);
        free(d);
    }
    free(s->all);
    void *m = pthread_getspecific(s->key);
    free(m);
    pthread_key_delete(s->key);
    pthread_mutex_destroy(&s->lock);
    free(s->path);
    free(s);
}
