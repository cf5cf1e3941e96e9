/*
 * undo_back — taking an action's writes back (see undo_int.h).
 *
 * A million changes are never held at once: the first pass reads the
 * records in steps and keeps, per record, a 64-bit hash of its item and
 * what it did; sorted, the hashes group each item's records (an item
 * changed twice is one way back). The writes then read each item's
 * first and last record again, a group at a time.
 */
#include "ui/undo_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/staged.h"
#include "data/store.h"
#include "model/ddbreq.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/stage.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/staging.h"
#include "ui/undo.h"

/* Items in one TransactWriteItems (DynamoDB's limit). */
#define GROUP 100
/* Records or items between two progress lines (and looks for Esc). */
#define STEP 1000
/* Records read from the change log in one call. */
#define PAGE 512

static const char *s_(size_t n)
{
    return n == 1 ? "" : "s";
}

static void rev_clear(rev *r)
{
    free(r->table);
    buf_done(&r->key);
    av_done(&r->keys);
    av_done(&r->old_item);
    av_done(&r->new_item);
    memset(r, 0, sizeof *r);
}

void undo_rev_free(rev *r, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rev_clear(&r[i]);
    free(r);
}

/* ---- reading the records ---------------------------------------------------- */

typedef struct reader {
    const action *a;
    store_seq *tabs;      /* the tables now, by id */
    size_t ntabs;
    store_change *page;
} reader;

static const char *table_of(const reader *r, int64_t tid)
{
    for (size_t i = 0; i < r->ntabs; i++)
        if (r->tabs[i].tid == tid)
            return r->tabs[i].table;
    return NULL;
}

static bool reader_init(reader *r, const action *a)
{
    memset(r, 0, sizeof *r);
    r->a = a;
    if (a->nimg)
        return true;
    diag d;
    diag_init(&d);
    if (store_change_seqs(display_store(), &r->tabs, &r->ntabs, &d) != ST_OK) {
        display_diag("The change log", d.code, &d);
        return false;
    }
    r->page = xcalloc(PAGE, sizeof *r->page);
    return true;
}

static void reader_done(reader *r)
{
    store_seqs_free(r->tabs, r->ntabs);
    free(r->page);
}

static void rev_from(rev *out, const char *table, int64_t seq, const av *keys, const av *old_item,
                     const av *new_item)
{
    memset(out, 0, sizeof *out);
    out->table = xstrdup(table);
    out->seq = seq;
    av_copy(&out->keys, keys);
    av_copy(&out->old_item, old_item);
    av_copy(&out->new_item, new_item);
    for (size_t f = 0; keys->type == AV_M && f < keys->u.m.len; f++)
        keyenc_append(&out->key, &keys->u.m.v[f].val);
}

/*
 * Reads the records idx[0..k) (ascending indices into the action's segs
 * or imgs) into out[0..k), zeroed by the caller: a run of one table's
 * seqs in pages of the change log, newest first. A record the log no
 * longer holds keeps table NULL. False (said) when the log failed;
 * *gone (said) when a table was deleted or created again since.
 */
static bool read_recs(reader *r, const uint32_t *idx, size_t k, rev *out, bool *gone)
{
    const action *a = r->a;
    if (a->nimg) {
        for (size_t j = 0; j < k; j++) {
            const rev *g = &a->imgs[idx[j]];
            rev_from(&out[j], g->table, g->seq, &g->keys, &g->old_item, &g->new_item);
        }
        return true;
    }
    diag d;
    diag_init(&d);
    for (size_t j1 = k; j1 > 0;) {
        /* The run out[j0..j1) of one table. */
        int64_t tid = a->segs[idx[j1 - 1]].tid;
        size_t j0 = j1 - 1;
        while (j0 > 0 && a->segs[idx[j0 - 1]].tid == tid)
            j0--;
        const char *table = table_of(r, tid);
        if (!table) {
            *gone = true;
            return false;
        }
        while (j1 > j0) {
            int64_t top = a->segs[idx[j1 - 1]].seq, low = a->segs[idx[j0]].seq;
            size_t want = top - low + 1 < PAGE ? (size_t)(top - low + 1) : PAGE, got = 0;
            if (store_changes(display_store(), table, top + 1, want, r->page, &got, &d) != ST_OK) {
                display_diag("The change log", d.code, &d);
                return false;
            }
            for (size_t c = 0; c < got; c++) {
                while (j1 > j0 && a->segs[idx[j1 - 1]].seq > r->page[c].seq)
                    j1--;   /* trimmed from the log */
                if (j1 > j0 && a->segs[idx[j1 - 1]].seq == r->page[c].seq) {
                    store_change *ch = &r->page[c];
                    rev_from(&out[j1 - 1], table, ch->seq, &ch->keys, &ch->old_item, &ch->new_item);
                    j1--;
                }
                store_change_free(&r->page[c]);
            }
            if (got < want)
                j1 = j0;    /* nothing older: the rest was trimmed */
        }
    }
    return true;
}

/* ---- the items ------------------------------------------------------------------ */

typedef struct entry {
    uint64_t h;           /* the item: its table and key, hashed */
    uint32_t i;           /* its record: an index into segs or imgs */
    uint8_t old_m, new_m; /* the record found an item, left one */
    uint8_t same;         /* and left it as it found it */
} entry;

typedef struct item {
    uint32_t first, n;    /* its entries (sorted), oldest first */
    uint8_t kind;         /* K_*: what the action did to it */
} item;

enum { K_NONE, K_NEW, K_DELETE, K_UPDATE };

static uint64_t hash_of(const rev *r)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = r->table; *p; p++)
        h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    h = (h ^ 0xff) * 1099511628211ULL;
    for (size_t i = 0; i < r->key.len; i++)
        h = (h ^ (unsigned char)r->key.data[i]) * 1099511628211ULL;
    return h;
}

static int entry_order(const void *pa, const void *pb)
{
    const entry *a = pa, *b = pb;
    if (a->h != b->h)
        return a->h < b->h ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

static const entry *g_entries;   /* while sorting items */

static int item_order(const void *pa, const void *pb)
{
    uint32_t a = g_entries[((const item *)pa)->first].i, b = g_entries[((const item *)pb)->first].i;
    return (a > b) - (a < b);
}

static int kind_of(const av *before, const av *after)
{
    const char *k = stage_kind(before, after);
    return strcmp(k, "new") == 0 ? K_NEW : strcmp(k, "delete") == 0 ? K_DELETE
         : strcmp(k, "update") == 0 ? K_UPDATE : K_NONE;
}

/* What the first pass learns. */
typedef struct plan {
    entry *e;
    size_t ne;
    item *it;
    size_t nit;
    size_t items, made, gone, back;   /* items with a way back, by what the action did */
    buf tables, sample;
    char *first_key;                  /* the first item's key, as the screen shows it */
} plan;

static void plan_done(plan *p)
{
    free(p->e);
    free(p->it);
    buf_done(&p->tables);
    buf_done(&p->sample);
    free(p->first_key);
}

static void add_table(buf *tables, const char *t)
{
    size_t n = strlen(t);
    for (const char *p = tables->data; p && *p;) {
        const char *end = strstr(p, ", ");
        size_t l = end ? (size_t)(end - p) : strlen(p);
        if (l == n && memcmp(p, t, n) == 0)
            return;
        p = end ? end + 2 : p + l;
    }
    buf_printf(tables, "%s%s", tables->len ? ", " : "", t);
}

/* The first and last record of an item, read into two revs (the same
 * one twice when it has one: ends_clear frees it once). */
static bool read_ends(reader *r, const plan *p, const item *it, rev ends[2], bool *gone)
{
    uint32_t idx[2] = { p->e[it->first].i, p->e[it->first + it->n - 1].i };
    memset(ends, 0, 2 * sizeof *ends);
    if (!read_recs(r, idx, it->n > 1 ? 2 : 1, ends, gone)) {
        rev_clear(&ends[0]);
        rev_clear(&ends[1]);
        return false;
    }
    if (it->n == 1)
        ends[1] = ends[0];   /* shared: freed once */
    return true;
}

static void ends_clear(rev ends[2], bool one)
{
    rev_clear(&ends[0]);
    if (!one)
        rev_clear(&ends[1]);
}

/* An item of several records: what its first found and its last left,
 * and that they are one item (not two whose hashes met). */
static bool settle(reader *r, plan *p, item *it, bool *gone)
{
    rev ends[2];
    if (!read_ends(r, p, it, ends, gone))
        return false;
    bool ok = ends[0].table && ends[1].table && strcmp(ends[0].table, ends[1].table) == 0 &&
              ends[0].key.len == ends[1].key.len && memcmp(ends[0].key.data, ends[1].key.data, ends[0].key.len) == 0;
    if (!ends[0].table || !ends[1].table)
        it->kind = K_NONE;   /* trimmed: nothing to go back to */
    else if (!ok)
        display_error("Two items of %s share a hash: nothing written back (:undo again after any change"
                      " reads them afresh)", ends[0].table);
    else
        it->kind = (uint8_t)kind_of(&ends[0].old_item, &ends[1].new_item);
    bool trimmed = !ends[0].table;
    ends_clear(ends, it->n == 1);
    return ok || trimmed;
}

/* Pass 1: every record once, in steps; false when stopped or failed
 * (said). */
static bool scan(reader *r, const action *a, const char *what, plan *p, bool *gone)
{
    size_t n = a->nimg ? a->nimg : a->n;
    p->e = xcalloc(n ? n : 1, sizeof *p->e);
    uint32_t idx[STEP];
    rev recs[STEP];
    for (size_t from = 0; from < n; from += STEP) {
        size_t k = n - from < STEP ? n - from : STEP;
        if (from) {
            display_progress("%s: reading its changes, %zu of %zu (Esc or Ctrl-C stops; nothing is"
                             " written before the question)", what, from, n);
            if (display_interrupted()) {
                display_message("Stopped reading the changes of %s: nothing written back", what);
                return false;
            }
        }
        for (size_t j = 0; j < k; j++)
            idx[j] = (uint32_t)(from + j);
        memset(recs, 0, k * sizeof *recs);
        bool ok = read_recs(r, idx, k, recs, gone);
        for (size_t j = 0; ok && j < k; j++) {
            if (!recs[j].table)
                continue;   /* trimmed */
            entry *e = &p->e[p->ne++];
            e->h = hash_of(&recs[j]);
            e->i = idx[j];
            e->old_m = recs[j].old_item.type == AV_M;
            e->new_m = recs[j].new_item.type == AV_M;
            e->same = av_equal(&recs[j].old_item, &recs[j].new_item);
            add_table(&p->tables, recs[j].table);
        }
        for (size_t j = 0; j < k; j++)
            rev_clear(&recs[j]);
        if (!ok)
            return false;
    }
    if (p->ne < n)
        display_message("The change log no longer holds %zu of the %zu changes of %s", n - p->ne, n, what);
    qsort(p->e, p->ne, sizeof *p->e, entry_order);
    p->it = xcalloc(p->ne ? p->ne : 1, sizeof *p->it);
    for (size_t i = 0; i < p->ne;) {
        size_t j = i + 1;
        while (j < p->ne && p->e[j].h == p->e[i].h)
            j++;
        item *it = &p->it[p->nit++];
        it->first = (uint32_t)i;
        it->n = (uint32_t)(j - i);
        const entry *e = &p->e[i];
        if (it->n == 1)
            it->kind = e->same ? K_NONE : !e->old_m ? K_NEW : !e->new_m ? K_DELETE : K_UPDATE;
        else if (!settle(r, p, it, gone))
            return false;
        i = j;
    }
    /* In the action's order, so the way back reads the log in order. */
    g_entries = p->e;
    qsort(p->it, p->nit, sizeof *p->it, item_order);
    /* Taken up after a restart: those written back before it ended. */
    for (size_t i = 0; i < a->skip && i < p->nit; i++)
        p->it[i].kind = K_NONE;
    for (size_t i = 0; i < p->nit; i++) {
        const item *it = &p->it[i];
        if (it->kind == K_NONE)
            continue;
        p->items++;
        p->made += it->kind == K_NEW;
        p->gone += it->kind == K_DELETE;
        p->back += it->kind == K_UPDATE;
        if (p->items <= 3) {
            rev ends[2];
            if (!read_ends(r, p, it, ends, gone))
                return false;
            const av *k = &ends[0].keys;
            buf one = BUF_INIT;
            if (k->type == AV_M && k->u.m.len)
                fmt_key(&one, k, k->u.m.v[0].name, k->u.m.len > 1 ? k->u.m.v[1].name : NULL);
            buf_printf(&p->sample, "%s%s", p->items > 1 ? ", " : "", one.data ? one.data : "");
            if (p->items == 1)
                p->first_key = buf_steal(&one);
            buf_done(&one);
            ends_clear(ends, it->n == 1);
        }
    }
    return true;
}

/* ---- the words -------------------------------------------------------------------- */

/* What the action was, as the question names it: a command by its line,
 * a key by the change it made ("the delete of PK=alice SK=bob"). */
static void name_action(const action *a, const plan *p, mode m, buf *out)
{
    if (a->resumed)
        buf_adds(out, "the rest of ");
    if (a->label[0] == ':') {
        buf_adds(out, a->label);
        return;
    }
    const char *key = strncmp(a->label, "the key ", 8) == 0 ? a->label + 8 : a->label;
    /* A redo takes back the undo's writes: the change itself did the
     * opposite (the undo of a delete made the item again). */
    size_t gone = m == M_UNDO ? p->gone : p->made, made = m == M_UNDO ? p->made : p->gone;
    if (p->items == 1)
        buf_printf(out, "%s %s", gone ? "the delete of" : made ? "the new item" : "the change to",
                   p->first_key ? p->first_key : "");
    else if (gone == p->items)
        buf_printf(out, "the delete of %zu items (%s)", p->items, key);
    else if (made == p->items)
        buf_printf(out, "the %zu new items (%s)", p->items, key);
    else
        buf_printf(out, "the change to %zu items (%s)", p->items, key);
}

/* What the way back does to the items (the same for an undo and a redo:
 * the action a redo takes back is the undo's writes). */
static const char *verb(const plan *p, mode m)
{
    bool undo = m == M_UNDO;
    if (p->gone == p->items)
        return undo ? "put back" : "made again";
    if (p->made == p->items)
        return undo ? "deleted" : "deleted again";
    if (p->back == p->items)
        return undo ? "changed back" : "changed again";
    return "written back";
}

static bool ask(const action *a, const plan *p, mode m, const char *what)
{
    const char *go = m == M_UNDO ? "Undo" : "Redo";
    buf parts = BUF_INIT;
    if (p->back)
        buf_printf(&parts, "%zu changed back", p->back);
    if (p->gone)
        buf_printf(&parts, "%s%zu put back", parts.len ? ", " : "", p->gone);
    if (p->made)
        buf_printf(&parts, "%s%zu deleted", parts.len ? ", " : "", p->made);
    store_info info;
    store_get_info(display_store(), &info);
    buf where = BUF_INIT;
    if (info.remote)
        buf_printf(&where, " on %s", info.where);
    /* A key's one item is named already ("the delete of PK=..."). */
    bool named = a->label[0] != ':' && p->items == 1;
    bool yes = display_confirm("%s %s: %zu item%s of %s%s (%s%s%s%s)? Each is written only if still as"
                               " it was left; one changed since is a conflict.", go, what, p->items,
                               s_(p->items), p->tables.data ? p->tables.data : "", where.data ? where.data : "",
                               parts.data, named ? "" : ": ", named || !p->sample.data ? "" : p->sample.data,
                               p->items > 3 ? ", ..." : "");
    buf_done(&parts);
    buf_done(&where);
    return yes;
}

/* ---- writing the way back ------------------------------------------------------------ */

/* The tables' definitions, described once each. */
typedef struct defs {
    char **names;
    table_def *d;
    size_t n;
} defs;

static const table_def *def_of(defs *ds, const char *table)
{
    for (size_t i = 0; i < ds->n; i++)
        if (strcmp(ds->names[i], table) == 0)
            return &ds->d[i];
    table_def def;
    if (!staging_describe(table, &def))
        return NULL;
    ds->names = xrealloc(ds->names, (ds->n + 1) * sizeof *ds->names);
    ds->d = xrealloc(ds->d, (ds->n + 1) * sizeof *ds->d);
    ds->names[ds->n] = xstrdup(table);
    ds->d[ds->n] = def;
    return &ds->d[ds->n++];
}

static void defs_done(defs *ds)
{
    for (size_t i = 0; i < ds->n; i++) {
        free(ds->names[i]);
        table_def_free(&ds->d[i]);
    }
    free(ds->names);
    free(ds->d);
}

/* ---- what a cut-off undo leaves for the next start ----------------------------- */

/*
 * The explorer may end in the middle of an undo (SIGKILL, a second ^C,
 * the machine): each group of 100 is a transaction, so the table holds
 * whole groups, but the list of actions goes with the process. A note
 * beside the database (DB-undo) says what was under way; it is written
 * before the first group, kept up to date after each and removed
 * when the undo ends any way the explorer lives through; undo_start
 * shows it at the next start and removes it.
 */
static char *note_path(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    const char *db = display_db_path();
    /* An in-memory database goes with the process: nothing to say. */
    if (info.remote || !db || !*db || strcmp(db, ":memory:") == 0)
        return NULL;
    buf p = BUF_INIT;
    buf_printf(&p, "%s-undo", db);
    return buf_steal(&p);
}

static void note_write(const char *path, const char *go, const char *what, size_t done, size_t items,
                       const char *vb, const char *tables)
{
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f)
        return;
    fprintf(f, "The explorer ended during :%s of %s: at least %zu of its %zu items of %s were %s (whole"
            " groups of 100), the rest not, and the list of changes went with it; the automatic backups"
            " (:backups, ddbx diff backup:NAME TABLE) hold the table as before it", go, what, done, items,
            tables, vb);
    fclose(f);
}

/*
 * Beside the note, what taking the rest up needs (DB-undo.rest, binary,
 * this machine's own): a header, the label, then the action's records
 * (its segs, written once before the first group). After each group the
 * header's `at` (the plan's items before it are written back) is
 * rewritten in place: a record a group, not the file. A group written
 * but not yet counted there (the end came between) is found by the
 * writes' own condition when taken up: each is written only if the item
 * is still as the action left it, and one already back as it was is
 * recognised as written (ui/staging's commit), never written twice.
 */
typedef struct rest_head {
    char magic[8];
    uint32_t mode, label_len;
    uint64_t at, n, done, items;
} rest_head;

static const char rest_magic[8] = "ddbxrst1";

static char *rest_path(const char *note)
{
    buf p = BUF_INIT;
    buf_printf(&p, "%s.rest", note);
    return buf_steal(&p);
}

/* The rest file opened (how: fopen's mode); NULL without a note. */
static FILE *rest_open(const char *note, const char *how)
{
    if (!note)
        return NULL;
    char *path = rest_path(note);
    FILE *f = fopen(path, how);
    free(path);
    return f;
}

static void rest_write(const char *note, const action *a, mode m, size_t at, size_t items)
{
    FILE *f = a->nimg || !a->n ? NULL : rest_open(note, "wb");
    if (!f)
        return;
    rest_head h = { .mode = m, .label_len = (uint32_t)strlen(a->label), .at = at, .n = a->n, .items = items };
    memcpy(h.magic, rest_magic, sizeof h.magic);
    fwrite(&h, sizeof h, 1, f);
    fwrite(a->label, 1, h.label_len, f);
    fwrite(a->segs, sizeof *a->segs, a->n, f);
    fclose(f);
}

/* The header's counts, after a group. */
static void rest_update(const char *note, size_t at, size_t done)
{
    FILE *f = rest_open(note, "r+b");
    if (!f)
        return;
    rest_head h;
    if (fread(&h, sizeof h, 1, f) == 1) {
        h.at = at;
        h.done = done;
        if (fseek(f, 0, SEEK_SET) == 0)
            fwrite(&h, sizeof h, 1, f);
    }
    fclose(f);
}

/* The action to take up from the rest file (false: none, or unreadable);
 * *left: the most items it has left. */
static bool rest_read(const char *note, action *a, mode *m, size_t *left)
{
    char *path = rest_path(note);
    FILE *f = fopen(path, "rb");
    remove(path);
    free(path);
    if (!f)
        return false;
    rest_head h;
    bool ok = fread(&h, sizeof h, 1, f) == 1 && memcmp(h.magic, rest_magic, sizeof h.magic) == 0 &&
              (h.mode == M_UNDO || h.mode == M_REDO) && h.label_len < 65536 && h.n && h.n < ((uint64_t)1 << 32);
    memset(a, 0, sizeof *a);
    if (ok) {
        a->kind = A_WRITES;
        a->label = xcalloc(h.label_len + 1, 1);
        a->segs = xmalloc(h.n * sizeof *a->segs);
        a->n = (size_t)h.n;
        a->skip = (size_t)h.at;
        a->resumed = true;
        ok = fread(a->label, 1, h.label_len, f) == h.label_len && fread(a->segs, sizeof *a->segs, a->n, f) == a->n;
        *m = (mode)h.mode;
        *left = h.items > h.done ? (size_t)(h.items - h.done) : 0;
    }
    fclose(f);
    if (!ok) {
        free(a->label);
        free(a->segs);
        memset(a, 0, sizeof *a);
    }
    return ok;
}

void undo_start(void)
{
    char *path = note_path();
    FILE *f = path ? fopen(path, "r") : NULL;
    if (f) {
        char text[1024];
        size_t n = fread(text, 1, sizeof text - 1, f);
        fclose(f);
        text[n] = 0;
        action a;
        mode m = M_UNDO;
        size_t left = 0;
        buf more = BUF_INIT;
        /* Taken up: the next :undo (:redo) goes on with the rest. */
        if (rest_read(path, &a, &m, &left)) {
            buf_printf(&more, "; :%s goes on with the rest (at most %zu item%s, asking first)",
                       m == M_UNDO ? "undo" : "redo", left, s_(left));
            undo_resume_push(&a, m);
        }
        if (n)
            display_error("%s%s%s", text, more.data ? more.data : "",
                          staging_count() ? " (and changes are staged: u shows them)" : "");
        buf_done(&more);
        remove(path);
    }
    free(path);
}

/* Tests: after an undo's Nth group is written, DDBX_CRASH_AT=undo:N
 * kills the process with SIGKILL, as a crash would (tests/crash), and
 * sigint:N sends it SIGINT, as ^C in a terminal does (tests/screen);
 * unnoted:N kills it after the group was written but before the note
 * counts it (the note then says less than was done). */
static void crash_point(const char *when, size_t group)
{
    const char *at = getenv("DDBX_CRASH_AT");
    char kill[64], intr[64];
    snprintf(kill, sizeof kill, "%s:%zu", when, group);
    snprintf(intr, sizeof intr, "sigint:%zu", group);
    if (at && strcmp(at, kill) == 0)
        raise(SIGKILL);
    if (at && strcmp(when, "undo") == 0 && strcmp(at, intr) == 0)
        raise(SIGINT);
}

typedef enum { W_DONE, W_CONFLICT, W_FAILED } wrote;

/* How the writing went. */
typedef struct outcome {
    size_t done;          /* items written back */
    size_t at;            /* the item it stopped at (nit: none) */
    bool conflict, gone;  /* the conflict view is open; a table went */
    buf why;              /* a failure's message */
} outcome;

/*
 * One group's way back (the items [from, to) of the plan) in one
 * TransactWriteItems. A cancelled one is staged and committed through
 * staging, which sets aside what was written meanwhile and opens the
 * conflict view at the first real conflict (W_CONFLICT: it is open).
 */
/* A record to read for a group: its index and where it goes. */
typedef struct want {
    uint32_t i;
    uint32_t slot;        /* 2 * item of the group + end (0 first, 1 last) */
} want;

static int want_order(const void *pa, const void *pb)
{
    uint32_t a = ((const want *)pa)->i, b = ((const want *)pb)->i;
    return (a > b) - (a < b);
}

/* The ends of the group's k items with a way back, read in one pass
 * over the log (a read a record would prepare a statement a record). */
static bool read_group(reader *r, const plan *p, size_t from, size_t to, rev (*ends)[2], bool *one,
                       size_t *k, bool *gone)
{
    want *w = xcalloc(2 * (to - from), sizeof *w);
    size_t nw = 0;
    *k = 0;
    for (size_t i = from; i < to; i++) {
        const item *it = &p->it[i];
        if (it->kind == K_NONE)
            continue;
        one[*k] = it->n == 1;
        w[nw++] = (want){ p->e[it->first].i, (uint32_t)(2 * *k) };
        if (it->n > 1)
            w[nw++] = (want){ p->e[it->first + it->n - 1].i, (uint32_t)(2 * *k + 1) };
        (*k)++;
    }
    qsort(w, nw, sizeof *w, want_order);
    uint32_t *idx = xmalloc((nw ? nw : 1) * sizeof *idx);
    rev *recs = xcalloc(nw ? nw : 1, sizeof *recs);
    for (size_t j = 0; j < nw; j++)
        idx[j] = w[j].i;
    bool ok = read_recs(r, idx, nw, recs, gone);
    for (size_t j = 0; j < nw; j++)
        ends[w[j].slot / 2][w[j].slot % 2] = recs[j];   /* moved */
    for (size_t j = 0; j < *k; j++)
        if (one[j])
            ends[j][1] = ends[j][0];   /* shared: ends_clear frees it once */
    free(w);
    free(idx);
    free(recs);
    return ok;
}

static wrote write_group(reader *r, plan *p, size_t from, size_t to, defs *ds, outcome *o)
{
    rev (*ends)[2] = xcalloc(to - from, sizeof *ends);
    bool *one = xcalloc(to - from, sizeof *one);
    ddb_req txn;
    ddb_req_init(&txn, DDB_TRANSACT_WRITE);
    size_t k = 0;
    wrote w = read_group(r, p, from, to, ends, one, &k, &o->gone) ? W_DONE : W_FAILED;
    for (size_t j = 0; j < k && w == W_DONE; j++) {
        rev *e = ends[j];
        const table_def *def = e[0].table && e[1].table ? def_of(ds, e[0].table) : NULL;
        if (!def) {
            w = W_FAILED;
            break;
        }
        ddb_req *act = ddb_req_add(&txn, DDB_PUT);
        ddb_req_done(act);
        stage_action(e[0].table, def->pk.name, def->sk.name, &e[1].new_item, &e[0].old_item, act);
    }
    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    status st = w == W_DONE && k ? store_exec(display_store(), &txn, &res, &err) : ST_OK;
    if (w == W_DONE && st == ST_OK) {
        for (size_t j = 0; j < k; j++)   /* an endpoint keeps no change log */
            undo_note_write(ends[j][0].table, &ends[j][0].keys, &ends[j][1].new_item, &ends[j][0].old_item);
    } else if (w == W_DONE && st == ST_TXN_CANCELED) {
        diag d;
        diag_init(&d);
        for (size_t j = 0; j < k && w == W_DONE; j++) {
            if (staged_put(display_store(), ends[j][0].table, &ends[j][0].keys, &ends[j][1].new_item,
                           &ends[j][0].old_item, &d) != ST_OK) {
                display_diag_text(&o->why, "Not staged", d.code, &d, NULL);
                w = W_FAILED;
            }
        }
        if (w == W_DONE) {
            staging_commit();
            w = staging_count() ? W_CONFLICT : W_DONE;
        }
    } else if (w == W_DONE) {
        display_ddb_err_text(&o->why, "TransactWriteItems", &err);
        w = W_FAILED;
    }
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&txn);
    for (size_t j = 0; j < k; j++)
        ends_clear(ends[j], one[j]);
    free(ends);
    free(one);
    return w;
}

static int index_order(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    return (a > b) - (a < b);
}

/* The part of a not taken back: the records of the items from `from`. */
static void rest_of(const action *a, const plan *p, size_t from, action *rest)
{
    size_t k = 0;
    for (size_t i = from; i < p->nit; i++)
        k += p->it[i].n;
    if (!k)
        return;
    uint32_t *idx = xmalloc(k * sizeof *idx);
    k = 0;
    for (size_t i = from; i < p->nit; i++)
        for (uint32_t j = 0; j < p->it[i].n; j++)
            idx[k++] = p->e[p->it[i].first + j].i;
    qsort(idx, k, sizeof *idx, index_order);   /* back in the action's order */
    rest->kind = A_WRITES;
    rest->label = xstrdup(a->label);
    if (a->nimg) {
        rest->imgs = xcalloc(k, sizeof *rest->imgs);
        for (size_t j = 0; j < k; j++) {
            const rev *g = &a->imgs[idx[j]];
            rev_from(&rest->imgs[j], g->table, g->seq, &g->keys, &g->old_item, &g->new_item);
        }
        rest->nimg = k;
    } else {
        rest->segs = xmalloc(k * sizeof *rest->segs);
        for (size_t j = 0; j < k; j++)
            rest->segs[j] = a->segs[idx[j]];
        rest->n = k;
    }
    free(idx);
}

/* Pass 2: the items in groups, until the end, Esc, a conflict or a
 * failure (o says which and how far). */
static void write_all(reader *r, plan *p, mode m, const char *what, outcome *o)
{
    defs ds = { 0 };
    size_t i = 0, groups = 0;
    const char *vb = verb(p, m), *go = m == M_UNDO ? "undo" : "redo";
    store_info info;
    store_get_info(display_store(), &info);
    char *note = note_path();
    note_write(note, go, what, 0, p->items, vb, p->tables.data ? p->tables.data : "");
    rest_write(note, r->a, m, r->a->skip, p->items);
    display_approve_writes(info.remote);
    for (; i < p->nit;) {
        if (o->done && o->done % STEP < GROUP) {
            display_progress("%s %s: %zu of %zu %s (Esc or Ctrl-C stops)", m == M_UNDO ? "Undoing" : "Redoing",
                             what, o->done, p->items, vb);
            if (display_interrupted())
                break;
        }
        size_t to = i, k = 0;
        while (to < p->nit && k < GROUP)
            k += p->it[to++].kind != K_NONE;
        wrote w = write_group(r, p, i, to, &ds, o);
        if (w == W_FAILED) {
            if (!o->why.len && !o->gone)
                buf_adds(&o->why, "The change log could not be read");
            break;
        }
        i = to;
        o->done += k;
        crash_point("unnoted", groups + 1);
        note_write(note, go, what, o->done, p->items, vb, p->tables.data ? p->tables.data : "");
        rest_update(note, i, o->done);
        crash_point("undo", ++groups);
        if (w == W_CONFLICT) {
            o->conflict = true;
            break;
        }
    }
    display_approve_writes(false);
    defs_done(&ds);
    if (note) {
        char *rest = rest_path(note);
        remove(rest);
        free(rest);
        remove(note);
    }
    free(note);
    o->at = i;
}

void undo_take_back(view *v, const action *a, mode m, back_out *out)
{
    memset(out, 0, sizeof *out);
    const char *cmd = m == M_UNDO ? "undo" : "redo";
    if (staging_count()) {
        display_error("%zu staged change%s: :commit or :discard them before :%s", staging_count(),
                      s_(staging_count()), cmd);
        return;
    }
    reader r;
    if (!reader_init(&r, a))
        return;
    plan p = { 0 };
    bool gone = false;
    buf what = BUF_INIT;
    bool ok = scan(&r, a, a->label, &p, &gone);
    if (ok)
        name_action(a, &p, m, &what);
    if (gone) {
        display_error("A table %s changed was deleted (or created again) since: its changes cannot be"
                      " taken back from the change log, so it leaves :%s (the table's automatic"
                      " backups keep what it was: ddbx diff backup:NAME TABLE)", a->label, cmd);
        out->stale = true;
    } else if (ok && !p.items) {
        /* Writes that changed nothing: the entry leaves the list, so the
         * next :undo reaches the one before it. */
        out->stale = true;
        display_message("%s %s: nothing to write back (its writes changed nothing); :%s again goes "
                        "on with the one before", m == M_UNDO ? "Undo" : "Redo", what.data, cmd);
    } else if (ok && !ask(a, &p, m, what.data)) {
        display_message("Cancelled: nothing written back");
    } else if (ok) {
        out->wrote = true;
        outcome o = { .gone = false };
        buf_init(&o.why);
        write_all(&r, &p, m, what.data, &o);
        rest_of(a, &p, o.at, &out->rest);
        out->conflict = o.conflict;
        bool conflict = o.conflict;
        size_t done = o.done;
        gone = o.gone;
        const char *vb = verb(&p, m), *other = m == M_UNDO ? "redo" : "undo";
        size_t left = p.items - done;
        buf more = BUF_INIT;
        if (left)
            buf_printf(&more, " (%zu more then wait for :%s again)", left, cmd);
        if (conflict)
            display_message("Conflict while %s %s (%zu %s before it): k keeps yours, r rebases it onto"
                            " theirs, d drops yours; the %s goes on after%s", m == M_UNDO ? "undoing" : "redoing",
                            what.data, done - staging_count(), vb, cmd, more.data ? more.data : "");
        else if (gone)
            display_error("Stopped: a table of %s was deleted (or created again) meanwhile; %zu of %zu %s",
                          what.data, done, p.items, vb);
        else if (o.why.len)
            display_error("%s. Stopped there: %zu of %zu %s; :%s again goes on with the rest", o.why.data, done,
                          p.items, vb, cmd);
        else if (done < p.items)
            display_message("Stopped: %zu of %zu %s; :%s again finishes, :%s takes %s", done, p.items, vb, cmd,
                            other, m == M_UNDO && p.gone == p.items ? "them away" : "them back");
        else
            display_message("%s %s: %zu item%s %s (:%s takes %s)", m == M_UNDO ? "Undid" : "Redid", what.data,
                            done, s_(done), vb, other, m == M_UNDO ? "it back again" : "it back");
        buf_done(&more);
        buf_done(&o.why);
    }
    plan_done(&p);
    buf_done(&what);
    reader_done(&r);
    if (out->wrote && v->ops->request)
        v->ops->request(v, REQ_RELOAD);
}
