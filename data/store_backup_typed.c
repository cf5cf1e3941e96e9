/*
 * store_backup_typed — the typed backup calls of data/store_backup.h:
 * on the local store over the catalogue (store_backup.c), on a remote
 * store as typed CreateBackup, ListBackups, DescribeBackup, DeleteBackup
 * and RestoreTableFromBackup requests (model/ddbreq.h) run with
 * store_exec (on a remote store: the write gate asked before a write,
 * the request printed once, the answer parsed once and read into the
 * typed answer of model/ddbres_backups.h); the typed answer, the local
 * catalogue row's too (store_bk_backup), becomes a store_backup.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store_backup.h"
#include "data/store_int.h"
#include "model/ddbres_backups.h"
#include "model/mem.h"

void store_backup_done(store_backup *b)
{
    free(b->arn);
    free(b->name);
    free(b->table);
    free(b->table_arn);
    free(b->table_id);
    free(b->stream_view);
    free(b->ttl_attr);
    table_def_free(&b->def);
    memset(b, 0, sizeof *b);
}

void store_backups_free(store_backup *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        store_backup_done(&b[i]);
    free(b);
}

/* A typed answer's backup into b (its strings and definition moved). */
static void from_typed(ddb_backup *x, store_backup *b)
{
    *b = (store_backup){
        .arn = x->arn, .name = x->name, .type = x->system ? STORE_BACKUP_SYSTEM : STORE_BACKUP_USER,
        .created_ms = x->created_ms, .expires_ms = x->expires_ms, .items = x->items, .bytes = x->bytes,
        .table = x->table, .table_arn = x->table_arn, .table_id = x->table_id,
        .table_created_ms = (int64_t)llround(x->table_created * 1000.0), .def = x->def,
        .provisioned = !x->billing || strcmp(x->billing, "PROVISIONED") == 0,
        .rcu = (int64_t)x->pt.rcu, .wcu = (int64_t)x->pt.wcu,
        .stream_view = x->stream_view, .ttl_attr = x->ttl_attr,
    };
    x->arn = x->name = x->table = x->table_arn = x->table_id = x->stream_view = x->ttl_attr = NULL;
    memset(&x->def, 0, sizeof x->def);
    ddb_backup_done(x);
}

static void from_row(const store_bk_row *r, store_backup *b)
{
    ddb_backup x;
    store_bk_backup(r, "AVAILABLE", &x);
    from_typed(&x, b);
    b->automatic = r->automatic;
}

/* The answer's first backup into out (zeroed when it has none). */
static void first_of(ddb_res *res, store_backup *out)
{
    if (res->backups && res->backups->n_backups)
        from_typed(&res->backups->backups[0], out);
    else
        memset(out, 0, sizeof *out);
}

/* The request of kind naming the backup (DescribeBackup, DeleteBackup,
 * RestoreTableFromBackup). */
static void by_arn(ddb_req *req, ddb_kind kind, const char *arn)
{
    ddb_req_init(req, kind);
    ddb_req_set_str(&req->ctl.backup_arn, arn);
}

status store_backup_create(store *s, const char *table, const char *name, unsigned flags,
                           store_backup *out, diag *d)
{
    if (out)
        memset(out, 0, sizeof *out);
    if (s->remote) {
        ddb_req req;
        ddb_req_init(&req, DDB_CREATE_BACKUP);
        ddb_req_set_str(&req.table, table);
        ddb_req_set_str(&req.ctl.backup_name, name);
        ddb_res res;
        status st = store_exec_once(s, &req, &res, d);
        if (st == ST_OK && out) {
            first_of(&res, out);
            if (!out->table)
                out->table = xstrdup(table);
        }
        ddb_res_done(&res);
        return st;
    }
    store_bk_row r;
    status st = store_bk_create(s, table, name, flags & STORE_BACKUP_AUTO, &r, d);
    if (st == ST_OK && out)
        from_row(&r, out);
    store_bk_row_done(&r);
    return st;
}

static status remote_list(store *s, const store_backup_filter *f, store_backup **out, size_t *n, bool *more,
                          diag *d)
{
    if (f->automatic_only)
        return ST_OK;   /* the explorer takes none on an endpoint */
    ddb_req req;
    ddb_req_init(&req, DDB_LIST_BACKUPS);
    ddb_req_set_str(&req.table, f->table);
    ddb_req_set_str(&req.ctl.backup_type, f->user && f->system ? "ALL" : f->system ? "SYSTEM" : "USER");
    req.ctl.from_ms = f->from_ms;
    req.ctl.to_ms = f->to_ms;
    ddb_req_set_str(&req.ctl.start_name, f->after_arn);
    if (f->max)
        req.limit = (uint32_t)(f->max < 100 ? f->max : 100);
    ddb_res res;
    status st = store_exec_once(s, &req, &res, d);
    if (st != ST_OK)
        return st;
    ddb_backups_res *b = ddbres_backups_of(&res);
    *out = xcalloc(b->n_backups + 1, sizeof **out);
    for (size_t i = 0; i < b->n_backups; i++)
        from_typed(&b->backups[i], &(*out)[(*n)++]);
    *more = b->last_arn != NULL;
    ddb_res_done(&res);
    return ST_OK;
}

status store_backup_list(store *s, const store_backup_filter *f, store_backup **out, size_t *n, bool *more,
                         diag *d)
{
    *out = NULL;
    *n = 0;
    *more = false;
    if (s->remote)
        return remote_list(s, f, out, n, more, d);
    store_bk_row *rows;
    size_t nr;
    status st = store_bk_list(s, f, &rows, &nr, more, d);
    if (st != ST_OK)
        return st;
    *out = xcalloc(nr + 1, sizeof **out);
    for (size_t i = 0; i < nr; i++)
        from_row(&rows[i], &(*out)[i]);
    *n = nr;
    store_bk_rows_free(rows, nr);
    return ST_OK;
}

status store_backup_describe(store *s, const char *arn, store_backup *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (s->remote) {
        ddb_req req;
        by_arn(&req, DDB_DESCRIBE_BACKUP, arn);
        ddb_res res;
        status st = store_exec_once(s, &req, &res, d);
        if (st == ST_OK)
            first_of(&res, out);
        ddb_res_done(&res);
        return st;
    }
    store_bk_row r;
    status st = store_bk_find(s, arn, &r, d);
    if (st == ST_OK)
        from_row(&r, out);
    store_bk_row_done(&r);
    return st;
}

status store_backup_delete(store *s, const char *arn, diag *d)
{
    if (s->remote) {
        ddb_req req;
        by_arn(&req, DDB_DELETE_BACKUP, arn);
        ddb_res res;
        status st = store_exec_once(s, &req, &res, d);
        ddb_res_done(&res);
        return st;
    }
    store_bk_row r;
    status st = store_bk_remove(s, arn, &r, d);
    store_bk_row_done(&r);
    return st;
}

/* The backup's indexes that opts keeps (by name), into the overrides'
 * definition: their names, keys and projections. */
static table_def *kept_indexes(const table_def *src, const store_restore_opts *opts)
{
    table_def *def = xcalloc(1, sizeof *def);
    def->idx = xcalloc(src->n_idx ? src->n_idx : 1, sizeof *def->idx);
    for (size_t i = 0; i < src->n_idx; i++) {
        bool keep = false;
        for (size_t k = 0; src->idx[i].name && k < opts->n_indexes; k++)
            keep |= strcmp(opts->indexes[k], src->idx[i].name) == 0;
        if (keep)
            index_def_copy(&def->idx[def->n_idx++], &src->idx[i]);
    }
    return def;
}

status store_backup_restore(store *s, const char *arn, const char *target, const store_restore_opts *opts,
                            diag *d)
{
    ddb_req req;
    by_arn(&req, DDB_RESTORE_FROM_BACKUP, arn);
    ddb_req_set_str(&req.ctl.target, target);
    status st = ST_OK;
    if (opts && opts->indexes) {
        /* The overrides name the backup's own indexes: its description first. */
        store_backup b;
        if ((st = store_backup_describe(s, arn, &b, d)) == ST_OK)
            req.ctl.def = kept_indexes(&b.def, opts);
        store_backup_done(&b);
    }
    if (st != ST_OK) {
        ddb_req_done(&req);
        return st;
    }
    ddb_res res;
    st = store_exec_once(s, &req, &res, d);
    ddb_res_done(&res);
    return st;
}
