/*
 * live — see live.h.
 */
#include "ui/live.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/mem.h"

#define MAX_MARKS 256
#define FETCH 128

typedef struct mark {
    av keys;          /* the item's key attributes */
    int event;
    int64_t until;    /* monotonic ms */
} mark;

static struct {
    store *st;
    bool paused, remote;
    int64_t dv;
    char *table;      /* the table the marks are about */
    int64_t seq;      /* its newest change seen */
    mark marks[MAX_MARKS];
    size_t n;
    int64_t next_sweep;   /* monotonic ms of the next TTL sweep step */
} L;

/* Kept apart from L, which live_init clears: set before it runs. */
static double ttl_every_s = 5;

void live_set_ttl_interval(double seconds)
{
    ttl_every_s = seconds;
}

/* A TTL sweep step when one is due (store_ttl_sweep): true when it
 * deleted something, which the view on screen must show. */
static bool sweep(int64_t now)
{
    if (L.remote || ttl_every_s <= 0 || now < L.next_sweep)
        return false;
    L.next_sweep = now + (int64_t)(ttl_every_s * 1000);
    size_t deleted = 0;
    diag d;
    diag_init(&d);
    return store_ttl_sweep(L.st, (double)time(NULL), 1000, &deleted, &d) == ST_OK && deleted > 0;
}

static int64_t mono_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static void clear_marks(void)
{
    for (size_t i = 0; i < L.n; i++)
        av_done(&L.marks[i].keys);
    L.n = 0;
}

void live_init(store *s)
{
    memset(&L, 0, sizeof L);
    L.st = s;
    store_info info;
    store_get_info(s, &info);
    L.remote = info.remote;
    diag d;
    diag_init(&d);
    store_data_version(s, &L.dv, &d);
}

void live_done(void)
{
    clear_marks();
    free(L.table);
    L.table = NULL;
}

bool live_paused(void) { return L.paused; }

void live_pause(bool paused)
{
    L.paused = paused;
    if (!paused) {
        /* Catch up at the next tick with whatever happened meanwhile. */
        L.dv = -1;
    }
}

/* The newest change of a table, as a starting point: what happened
 * before the explorer looked is not marked. */
static void follow_table(const char *table)
{
    if (L.table && strcmp(L.table, table) == 0)
        return;
    clear_marks();
    free(L.table);
    L.table = xstrdup(table);
    L.seq = 0;
    store_change c;
    size_t n = 0;
    diag d;
    diag_init(&d);
    if (store_changes(L.st, table, 0, 1, &c, &n, &d) == ST_OK && n == 1) {
        L.seq = c.seq;
        store_change_free(&c);
    }
}

static void add_mark(const store_change *c, int64_t until)
{
    /* The latest change of a key wins; a removed item is not on screen. */
    for (size_t i = 0; i < L.n; i++) {
        if (av_equal(&L.marks[i].keys, &c->keys)) {
            av_done(&L.marks[i].keys);
            L.marks[i] = L.marks[--L.n];
            break;
        }
    }
    if (c->event == STORE_REMOVE)
        return;
    if (L.n == MAX_MARKS) {
        av_done(&L.marks[0].keys);
        memmove(L.marks, L.marks + 1, (MAX_MARKS - 1) * sizeof *L.marks);
        L.n--;
    }
    mark *m = &L.marks[L.n++];
    av_copy(&m->keys, &c->keys);
    m->event = c->event;
    m->until = until;
}

static void read_changes(const char *table)
{
    follow_table(table);
    store_change cs[FETCH];
    size_t n = 0;
    diag d;
    diag_init(&d);
    if (store_changes(L.st, table, 0, FETCH, cs, &n, &d) != ST_OK)
        return;
    int64_t until = mono_ms() + LIVE_MARK_MS, newest = L.seq;
    /* Newest first: apply oldest first so the latest state wins. */
    for (size_t i = n; i-- > 0;) {
        if (cs[i].seq > L.seq) {
            add_mark(&cs[i], until);
            if (cs[i].seq > newest)
                newest = cs[i].seq;
        }
        store_change_free(&cs[i]);
    }
    L.seq = newest;
}

int live_tick(const char *table)
{
    int what = LIVE_NOTHING;
    int64_t now = mono_ms();
    for (size_t i = 0; i < L.n;) {
        if (L.marks[i].until <= now) {
            av_done(&L.marks[i].keys);
            L.marks[i] = L.marks[--L.n];
            what = LIVE_REDRAW;
        } else {
            i++;
        }
    }
    /* The explorer's own deletes leave data_version alone: reload for them. */
    if (sweep(now))
        what = LIVE_RELOAD;
    if (L.paused || L.remote)
        return what;
    if (table)
        follow_table(table);
    int64_t dv = 0;
    diag d;
    diag_init(&d);
    if (store_data_version(L.st, &dv, &d) != ST_OK || dv == L.dv)
        return what;
    L.dv = dv;
    if (table)
        read_changes(table);
    return LIVE_RELOAD;
}

int live_mark(const char *table, const av *item)
{
    if (L.n == 0 || !table || !L.table || strcmp(table, L.table) != 0 || !item || item->type != AV_M)
        return 0;
    for (size_t i = 0; i < L.n; i++) {
        const av *k = &L.marks[i].keys;
        bool same = k->u.m.len > 0;
        for (size_t j = 0; same && j < k->u.m.len; j++) {
            const av *v = av_map_get(item, k->u.m.v[j].name, k->u.m.v[j].name_len);
            same = v && av_equal(v, &k->u.m.v[j].val);
        }
        if (same)
            return L.marks[i].event;
    }
    return 0;
}
