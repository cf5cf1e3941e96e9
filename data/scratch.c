/*
 * scratch — a table's scratch copy (see scratch.h).
 */
#include "data/scratch.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "model/buf.h"

/* Items go into the copy in transactions of this many. */
#define SCRATCH_BATCH 10000

typedef struct copy {
    store *dst;
    const char *table;
    uint64_t in_txn;
    status st;
    diag *d;
} copy;

static bool put(void *ctx, const av *item)
{
    copy *c = ctx;
    if (!c->in_txn && (c->st = store_begin(c->dst, c->d)) != ST_OK)
        return false;
    if ((c->st = store_put_item(c->dst, c->table, item, c->d)) != ST_OK)
        return false;
    if (++c->in_txn == SCRATCH_BATCH) {
        c->in_txn = 0;
        if ((c->st = store_commit(c->dst, c->d)) != ST_OK)
            return false;
    }
    return true;
}

status scratch_copy(store *src, const char *table, uint64_t sample, const char *path, store **out,
                    table_read *info, diag *d)
{
    *out = NULL;
    table_def def;
    status st = store_describe(src, table, &def, d);
    if (st != ST_OK)
        return st;
    store *dst = NULL;
    st = store_open(path, 0, &dst, d);
    if (st == ST_OK)
        st = store_create_table(dst, &def, d);
    char *ttl = NULL;
    diag td;
    diag_init(&td);
    if (st == ST_OK && store_ttl_get(src, table, &ttl, &td) == ST_OK && ttl)
        st = store_ttl_set(dst, table, ttl, d);
    copy c = { dst, table, 0, ST_OK, d };
    if (st == ST_OK)
        st = table_read_items(src, table, sample, put, &c, info, d);
    if (st == ST_OK)
        st = c.st;
    if (st == ST_OK && c.in_txn)
        st = store_commit(dst, d);
    else if (st != ST_OK && c.in_txn)
        store_rollback(dst);
    free(ttl);
    table_def_free(&def);
    if (st != ST_OK) {
        if (dst)
            store_close(dst);
        scratch_remove(path);
        return st;
    }
    *out = dst;
    return ST_OK;
}

void scratch_remove(const char *path)
{
    static const char *const ends[] = { "", "-wal", "-shm", "-journal" };
    for (int i = 0; i < 4; i++) {
        buf b = BUF_INIT;
        buf_printf(&b, "%s%s", path, ends[i]);
        unlink(b.data);
        buf_done(&b);
    }
}
