/*
 * staging — staged edits, commit and conflicts (see staging.h).
 */
#include "ui/staging.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/staged.h"
#include "data/store.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/stage.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/marks.h"
#include "ui/undo.h"
#include "ui/view_staged.h"

/* DynamoDB's limit of actions in one TransactWriteItems. */
#define GROUP_MAX 100

/* Staged rows the explorer keeps a copy of; above it, it asks the
 * database (indexed) for what it needs, so a million staged changes
 * never sit in memory (issue 38). */
#define CACHE_MAX 1000

static struct {
    bool on, started;
    size_t n;             /* how many are staged */
    bool all;             /* items holds them all (n <= CACHE_MAX) */
    staged_item *items;   /* then a copy of the database's rows, in order */
    staged_item one;      /* else the row find looked up last */
    bool after_commit;    /* staging_reload_after_commit under way */
    int asked;            /* staging_after_commit's calls meanwhile */
} S;

void staging_reload_after_commit(view *v)
{
    if (!v || !v->ops->request)
        return;
    S.after_commit = true;
    v->ops->request(v, REQ_RELOAD);
    S.after_commit = false;
}

void staging_pop_after_commit(view *v)
{
    view *under = display_below(v);
    S.after_commit = true;
    S.asked = 0;
    display_pop();   /* the view under may read again as it comes back */
    if (under && !S.asked && under->ops->request)
        under->ops->request(under, REQ_RELOAD);
    S.after_commit = false;
}

bool staging_after_commit(void)
{
    if (S.after_commit)
        S.asked++;
    return S.after_commit;
}

static void forget(void)
{
    for (size_t i = 0; S.all && i < S.n; i++)
        staged_item_free(&S.items[i]);
    free(S.items);
    S.items = NULL;
    S.n = 0;
    S.all = false;
    staged_item_free(&S.one);
}

/* Reads the staged rows again (after a change to them): their count, and
 * a copy of them when there are few. */
static bool reload(void)
{
    diag d;
    diag_init(&d);
    forget();
    size_t n = 0;
    status st = staged_count(display_store(), &n, &d);
    if (st == ST_OK && n <= CACHE_MAX) {
        st = staged_list(display_store(), NULL, &S.items, &n, &d);
        S.all = st == ST_OK;
    }
    if (st != ST_OK) {
        display_diag("Staged changes", st, &d);
        return false;
    }
    S.n = n;
    return true;
}

void staging_start(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    /* On by default where writes go to a shared table: a remote one that
     * may be written (--write). A read-only session refuses edits before
     * any editing, as it did; :stage on still stages there. */
    S.on = info.remote && info.writable;
    S.started = true;
    if (reload() && S.n)
        display_message("%zu staged change%s kept from before: u shows %s, :commit writes %s,"
                        " :discard drops %s", S.n, S.n == 1 ? "" : "s", S.n == 1 ? "it" : "them",
                        S.n == 1 ? "it" : "them", S.n == 1 ? "it" : "them");
}

void staging_done(void)
{
    forget();
    S.started = false;
}

bool staging_on(void)
{
    return S.on;
}

void staging_set(bool on)
{
    S.on = on;
}

size_t staging_count(void)
{
    return S.n;
}

/* The staged change of the item (NULL: none); valid until the next call. */
static staged_item *find(const char *table, const av *key)
{
    if (!S.n)
        return NULL;
    if (S.all) {
        for (size_t i = 0; i < S.n; i++)
            if (strcmp(S.items[i].table, table) == 0 && av_equal(&S.items[i].key, key))
                return &S.items[i];
        return NULL;
    }
    diag d;
    diag_init(&d);
    bool found = false;
    staged_item_free(&S.one);
    if (staged_get(display_store(), table, key, &S.one, &found, &d) != ST_OK)
        display_diag("Staged changes", d.code, &d);
    return found ? &S.one : NULL;
}

static int marker_of(const staged_item *it)
{
    const char *k = stage_kind(&it->before, &it->after);
    return strcmp(k, "new") == 0 ? '+' : strcmp(k, "delete") == 0 ? '-' : '~';
}

int staging_marker(const char *table, const table_def *def, const av *item)
{
    if (!S.n || !item || item->type != AV_M)
        return 0;
    av key;
    edit_key(def, item, &key);
    staged_item *it = find(table, &key);
    av_done(&key);
    return it ? marker_of(it) : 0;
}

/* The item as staged, else as stored; a staged delete: refused (with a
 * message) when refuse_deleted, else the stored item. */
static bool staged_or_stored(const char *table, const table_def *def, const av *item, av *out,
                             bool refuse_deleted, bool strong)
{
    av key;
    edit_key(def, item, &key);
    staged_item *it = find(table, &key);
    bool ok;
    if (it && it->after.type != AV_M && refuse_deleted) {
        display_error("The item is staged to be deleted (u shows the staged changes)");
        ok = false;
    } else if (it && it->after.type == AV_M) {
        av_copy(out, &it->after);
        ok = true;
    } else {
        ok = edit_view_item(table, def, &key, strong, out);
    }
    av_done(&key);
    return ok;
}

bool staging_base(const char *table, const table_def *def, const av *item, av *out)
{
    return staged_or_stored(table, def, item, out, true, true);
}

bool staging_shown(const char *table, const table_def *def, const av *item, bool strong, av *out)
{
    return staged_or_stored(table, def, item, out, false, strong);
}

/* staging_stage; says what it staged when say is set (the marks' bulk
 * edits say the count once, at the end, not a message per item). */
static bool stage_one(const char *table, const table_def *def, const av *before, const av *after, bool say)
{
    const av *keyed = after->type == AV_M ? after : before;
    av key;
    edit_key(def, keyed, &key);
    buf k = BUF_INIT;   /* the key as the message names it: only when said */
    if (say)
        fmt_key(&k, keyed, def->pk.name, def->sk.name);
    staged_item *it = find(table, &key);
    const av *first = it ? &it->before : before;
    diag d;
    diag_init(&d);
    status st;
    const char *kind = stage_kind(first, after);
    if (strcmp(kind, "none") == 0) {
        /* Staged back to what was read: nothing left to commit. */
        st = staged_drop(display_store(), table, &key, NULL, &d);
        if (st == ST_OK && say)
            display_message("%s is as it was read: no change staged", k.data);
    } else {
        st = staged_put(display_store(), table, &key, first, after, &d);
    }
    bool ok = st == ST_OK;
    if (!ok)
        display_diag("Not staged", st, &d);
    if (S.all || !ok)
        reload();
    else if (strcmp(kind, "none") == 0)
        S.n -= it != NULL;   /* many staged: counted, not read again */
    else
        S.n += it == NULL;
    if (ok && say && strcmp(kind, "none") != 0)
        display_message("Staged %s %s (%zu staged: u shows them, :commit writes them)",
                        strcmp(kind, "new") == 0 ? "new item" : strcmp(kind, "delete") == 0 ? "delete of" : "change to",
                        k.data, S.n);
    buf_done(&k);
    av_done(&key);
    return ok;
}

bool staging_stage(const char *table, const table_def *def, const av *before, const av *after)
{
    return stage_one(table, def, before, after, true);
}

bool staging_stage_quiet(const char *table, const table_def *def, const av *before, const av *after)
{
    return stage_one(table, def, before, after, false);
}

/* The item of key as staging has it (its staged version; AV_NONE when it
 * is staged to be deleted), else as the store has it now (AV_NONE: no
 * such item), into an uninitialised out; false when the store refused. */
static bool current_of(const char *table, const table_def *def, const av *key, av *out)
{
    out->type = AV_NONE;
    staged_item *it = find(table, key);
    if (it) {
        if (it->after.type == AV_M)
            av_copy(out, &it->after);
        return true;
    }
    return edit_read_item(table, def, key, out);
}

bool staging_stage_write(const char *table, const table_def *def, const ddb_req *req, av *staged,
                         buf *why)
{
    const av *keyed = req->kind == DDB_PUT ? &req->item : &req->key;
    staged->type = AV_NONE;
    if (!table_def_same_item(def, keyed, keyed)) {
        buf_adds(why, "One or more parameter values were invalid: Missing the key attributes in the item");
        return false;
    }
    av key, before;
    edit_key(def, keyed, &key);
    bool ok = current_of(table, def, &key, &before);
    diag d;
    diag_init(&d);
    status st = ok ? stage_write(req, &before, staged, &d) : ST_OK;
    if (ok && st != ST_OK) {
        buf_adds(why, d.msg);
        if (st == ST_CONDITION_FAILED && find(table, &key))
            buf_adds(why, " (on the item as staged: u shows it)");
        ok = false;
    } else if (ok && staged->type == AV_M && !table_def_same_item(def, staged, &key)) {
        buf_adds(why, "One or more parameter values were invalid: the update changes a key attribute");
        ok = false;
    } else if (ok && before.type != AV_M && staged->type != AV_M) {
        buf_adds(why, "There is no item under this key to change or delete: nothing staged");
        ok = false;
    } else if (ok) {
        ok = staging_stage(table, def, &before, staged);
        if (!ok)
            buf_adds(why, "the staging area refused it (see the status line)");
    }
    if (!ok) {
        av_done(staged);
        staged->type = AV_NONE;
    }
    av_done(&before);
    av_done(&key);
    return ok;
}

size_t staging_page(int64_t seq, int dir, size_t max, staging_entry **out)
{
    staged_item *rows = NULL;
    size_t n = 0;
    diag d;
    diag_init(&d);
    /* Always the database's page (indexed): the view costs what it shows,
     * however many are staged (issue 38). */
    if (S.n && staged_page(display_store(), seq, dir, max, &rows, &n, &d) != ST_OK)
        display_diag("Staged changes", d.code, &d);
    *out = n ? xcalloc(n, sizeof **out) : NULL;
    for (size_t i = 0; i < n; i++) {
        (*out)[i].table = rows[i].table;
        (*out)[i].key = rows[i].key;
        (*out)[i].before = rows[i].before;
        (*out)[i].after = rows[i].after;
        (*out)[i].seq = rows[i].seq;
    }
    free(rows);   /* its members moved into *out */
    return n;
}

void staging_entries_free(staging_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(e[i].table);
        av_done(&e[i].key);
        av_done(&e[i].before);
        av_done(&e[i].after);
    }
    free(e);
}

/* ---- commit ------------------------------------------------------------- */

bool staging_describe(const char *table, table_def *def)
{
    diag d;
    diag_init(&d);
    status st = store_describe(display_store(), table, def, &d);
    if (st != ST_OK)
        display_diag(table, st, &d);
    return st == ST_OK;
}

/* The reads of staging_bases so far, on the progress line. */
static bool bases_progress(void *ctx, uint64_t items)
{
    display_progress("Reading the %zu items to stage: %llu read (Esc or Ctrl-C stops)", *(size_t *)ctx,
                     (unsigned long long)items);
    return !display_interrupted();
}

bool staging_bases(const char *table, const table_def *def, const av *keys, size_t n, av *out, diag *d)
{
    av *unstaged = xcalloc(n ? n : 1, sizeof *unstaged), *got = xcalloc(n ? n : 1, sizeof *got);
    size_t *at = xcalloc(n ? n : 1, sizeof *at), m = 0;
    for (size_t i = 0; i < n; i++) {
        out[i].type = AV_NONE;
        const staged_item *it = find(table, &keys[i]);
        if (it && it->after.type == AV_M)
            av_copy(&out[i], &it->after);
        else if (!it) {
            unstaged[m] = keys[i];   /* shallow: only read */
            at[m++] = i;
        }
    }
    bool ok = store_get_many(display_store(), table, def, unstaged, m, true, bases_progress, &n, got, d) == ST_OK;
    for (size_t j = 0; j < m; j++)
        av_move(&out[at[j]], &got[j]);
    for (size_t i = 0; !ok && i < n; i++)
        av_done(&out[i]);
    free(unstaged);
    free(got);
    free(at);
    return ok;
}

bool staging_set_attr_on(const char *table, const table_def *def, const av *base, const char *name,
                         const av *val)
{
    av after;
    av_copy(&after, base);
    if (val) {
        av c;
        av_copy(&c, val);
        av_map_put(&after, name, strlen(name), &c);
    } else {
        av_map_remove(&after, name, strlen(name));
    }
    bool ok = staging_stage_quiet(table, def, base, &after);
    av_done(&after);
    return ok;
}

/* A change that left staging written (now, or by a commit stopped
 * before it could say so): a delete's item is no longer marked. */
static void unmark_written(const staged_item *it)
{
    if (it->after.type != AV_M)
        marks_forget(it->table, &it->key);
}

static void drop(const staged_item *it)
{
    diag d;
    diag_init(&d);
    status st = staged_drop(display_store(), it->table, &it->key, NULL, &d);
    if (st != ST_OK)
        display_diag("Staged changes", st, &d);
}

/* Is the item as it is now what the change wants? Then the change was
 * written already (by a commit that stopped before it could say so). */
static bool already_written(const staged_item *it, const av *now)
{
    bool gone = !now || now->type != AV_M;
    if (it->after.type != AV_M)
        return gone;
    return !gone && av_equal(now, &it->after);
}

bool staging_resolve(const char *table, const av *key, const av *before, const av *after,
                     const av *now, int choice)
{
    diag d;
    diag_init(&d);
    status st = ST_OK;
    av none = { .type = AV_NONE }, rebased;
    const av *cur = now && now->type == AV_M ? now : &none;
    const char *did = "";
    switch (choice) {
    case 'k':
        /* Yours over theirs: conditioned now on the item as it is. */
        st = staged_put(display_store(), table, key, cur, after, &d);
        did = "Kept your change (over theirs)";
        break;
    case 'r':
        stage_rebase(before, after, cur, &rebased);
        if (strcmp(stage_kind(cur, &rebased), "none") == 0)
            st = staged_drop(display_store(), table, key, NULL, &d);   /* nothing left */
        else
            st = staged_put(display_store(), table, key, cur, &rebased, &d);
        av_done(&rebased);
        did = "Rebased your change onto theirs";
        break;
    default:
        st = staged_drop(display_store(), table, key, NULL, &d);
        did = "Dropped your change";
        break;
    }
    reload();
    if (st != ST_OK) {
        display_diag("Staged changes", st, &d);
        return false;
    }
    display_message("%s", did);
    return true;
}

/* Builds the transaction of items[from..to) (each table described once
 * for a run of its items). */
static bool group_txn(const staged_item *items, size_t from, size_t to, ddb_req *txn)
{
    ddb_req_init(txn, DDB_TRANSACT_WRITE);
    table_def def;
    const char *described = NULL;
    for (size_t i = from; i < to; i++) {
        if (!described || strcmp(described, items[i].table) != 0) {
            if (described)
                table_def_free(&def);
            described = NULL;
            if (!staging_describe(items[i].table, &def)) {
                ddb_req_done(txn);
                return false;
            }
            described = items[i].table;
        }
        ddb_req *a = ddb_req_add(txn, DDB_PUT);
        ddb_req_done(a);
        stage_action(items[i].table, def.pk.name, def.sk.name, &items[i].before, &items[i].after, a);
    }
    if (described)
        table_def_free(&def);
    return true;
}

/* Tests (tests/crash): DDBX_CRASH_AT=POINT:N kills the process with
 * SIGKILL, as a crash would, at POINT ("sent": before the Nth group is
 * sent; "written": after it was written, before its changes leave
 * staging) of a commit's Nth group. */
static void crash_point(const char *point, size_t group)
{
    const char *at = getenv("DDBX_CRASH_AT");
    char want[64];
    snprintf(want, sizeof want, "%s:%zu", point, group);
    if (at && strcmp(at, want) == 0)
        raise(SIGKILL);
}

typedef enum { GROUP_WRITTEN, GROUP_CONFLICT, GROUP_FAILED } group_result;

/*
 * Sends one group. Written: its changes leave staging. A cancelled
 * transaction: each failed condition's item as it is now is looked at;
 * changes already written leave staging, the others are conflicts the
 * user resolves (false when they stop).
 */
static group_result send_group(const staged_item *items, size_t from, size_t to, size_t group,
                               bool *stop, size_t *written, view_staged_arg *conflict)
{
    ddb_req txn;
    if (!group_txn(items, from, to, &txn))
        return GROUP_FAILED;
    ddb_res res;
    ddb_err err;
    ddb_res_init(&res);
    ddb_err_init(&err);
    crash_point("sent", group);
    status st = store_exec(display_store(), &txn, &res, &err);
    group_result r = GROUP_WRITTEN;
    if (st == ST_OK) {
        crash_point("written", group);
        for (size_t i = from; i < to; i++) {
            /* An endpoint keeps no change log: :undo takes the images. */
            undo_note_write(items[i].table, &items[i].key, &items[i].before, &items[i].after);
            drop(&items[i]);
            unmark_written(&items[i]);
        }
        *written += to - from;
    } else if (st == ST_TXN_CANCELED && err.n_reasons == to - from) {
        r = GROUP_CONFLICT;
        bool changed = false;
        for (size_t i = 0; i < err.n_reasons && !*stop; i++) {
            if (strcmp(err.reasons[i].code, "ConditionalCheckFailed") != 0)
                continue;
            const staged_item *it = &items[from + i];
            const av *now = err.reasons[i].item.type == AV_M ? &err.reasons[i].item : NULL;
            changed = true;
            if (already_written(it, now)) {
                drop(it);
                unmark_written(it);
            } else {
                /* The first conflict stops the commit for the user. */
                conflict->table = xstrdup(it->table);
                av_copy((av *)conflict->key, &it->key);
                av_copy((av *)conflict->before, &it->before);
                av_copy((av *)conflict->after, &it->after);
                if (now)
                    av_copy((av *)conflict->now, now);
                else
                    ((av *)conflict->now)->type = AV_NONE;
                *stop = true;
            }
        }
        if (!changed) {
            /* Cancelled for another reason than a condition. */
            display_ddb_err("Commit", &err);
            r = GROUP_FAILED;
        }
    } else {
        display_ddb_err("Commit", &err);
        r = GROUP_FAILED;
    }
    ddb_res_done(&res);
    ddb_err_done(&err);
    ddb_req_done(&txn);
    return r;
}

/* What :commit adds to its message: the automatic backups it took. */
static const char *commit_note;

/* Committed so far and what was staged when the commit began, for the
 * progress line. */
static bool commit_step(size_t written, size_t total)
{
    display_progress("Committing: %zu of %zu staged changes written (Esc or Ctrl-C stops)", written, total);
    return display_interrupted();
}

void staging_commit(void)
{
    /* The conflict view's copy is made from these when it opens. */
    if (!reload())
        return;
    if (!S.n) {
        display_message("Nothing staged");
        return;
    }
    size_t total = S.n, written = 0, groups = 0, idle = 0;
    bool stop = false, stopped = false;
    av key = { .type = AV_NONE }, before = key, after = key, now = key;
    view_staged_arg conflict = { NULL, &key, &before, &after, &now };
    /* Conflicts resolved, the rest is sent again; each pass either
     * writes a group or changes what is staged, until nothing is left,
     * the user stops, or the store fails. Each group is read from the
     * database (its first GROUP_MAX rows by seq, through an index), so a
     * pass costs a group, however many are staged. */
    for (size_t pass = 0; !stop && idle < 1000; pass++) {
        staged_item *head = NULL;
        size_t n = 0;
        diag d;
        diag_init(&d);
        if (staged_head(display_store(), GROUP_MAX, &head, &n, &d) != ST_OK) {
            display_diag("Staged changes", d.code, &d);
            break;
        }
        group_result g = n ? send_group(head, 0, n, pass + 1, &stop, &written, &conflict) : GROUP_FAILED;
        for (size_t i = 0; i < n; i++)
            staged_item_free(&head[i]);
        free(head);
        if (!n || g == GROUP_FAILED)
            break;
        idle = g == GROUP_WRITTEN ? 0 : idle + 1;
        groups += g == GROUP_WRITTEN;
        if (!stop && g == GROUP_WRITTEN && groups % 10 == 0 && (stopped = commit_step(written, total)))
            break;
    }
    reload();
    if (conflict.table) {
        if (now.type != AV_M)
            conflict.now = NULL;
        display_push(&view_conflict_ops, &conflict);
        display_message("Conflict (%zu written before it): k keeps yours, r rebases it onto theirs,"
                        " d drops yours; the commit goes on after", written);
    } else if (stopped && S.n) {
        display_message("Stopped: %zu of %zu staged changes committed; the other %zu stay staged (:commit"
                        " goes on, :discard drops them)", written, total, S.n);
    } else if (!S.n) {
        display_message("Committed %zu change%s in %zu TransactWriteItems%s%s", written,
                        written == 1 ? "" : "s", groups, commit_note ? ". " : "", commit_note ? commit_note : "");
    }
    free((char *)conflict.table);
    av_done(&key);
    av_done(&before);
    av_done(&after);
    av_done(&now);
}

/* A discard's progress line, and whether Esc stopped it (store_set_stop). */
static bool discard_tick(void *ctx)
{
    bool *stopped = ctx;
    display_progress("Discarding %zu staged changes (Esc or Ctrl-C stops: nothing is discarded)", S.n);
    return (*stopped = *stopped || display_interrupted());
}

void staging_discard(const char *table, const av *key)
{
    diag d;
    diag_init(&d);
    size_t n = 0;
    /* One statement, rolled back whole when Esc stops it. */
    bool stopped = false;
    store_set_stop(display_store(), discard_tick, &stopped);
    status st = staged_drop(display_store(), table, key, &n, &d);
    store_set_stop(display_store(), NULL, NULL);
    if (stopped)
        display_message("Stopped: nothing discarded; the %zu staged change%s stay (:discard asks again)", S.n,
                        S.n == 1 ? "" : "s");
    else if (st != ST_OK)
        display_diag("Staged changes", st, &d);
    else
        display_message("Discarded %zu staged change%s", n, n == 1 ? "" : "s");
    reload();
}

/* ---- keys and commands -------------------------------------------------- */

bool staging_request(view *v, enum req r)
{
    if (r != REQ_STAGED)
        return false;
    /* Few: read again (a copy of them all). Many: the count staging keeps
     * (one COUNT when it last read them, each stage and discard since),
     * not a COUNT of them all each time the view opens. */
    if ((S.all || !S.n) && !reload())
        return true;
    if (!S.n) {
        display_message("Nothing staged (:stage on stages the edits)");
        return true;
    }
    display_push(&view_staged_ops, NULL);
    return true;
}

bool staging_command(view *v, int argc, char **argv)
{
    const char *c = argv[0];
    if (display_is_cmd(c, "stage") && argc <= 2) {
        if (argc == 2 && strcmp(argv[1], "on") != 0 && strcmp(argv[1], "off") != 0) {
            display_error("usage: :stage [on|off]");
            return true;
        }
        S.on = argc == 2 ? strcmp(argv[1], "on") == 0 : !S.on;
        display_message("Staging %s: %s", S.on ? "on" : "off",
                        S.on ? "edits are staged; u shows them, :commit writes them"
                             : "edits are written at once");
        return true;
    }
    if (display_is_cmd(c, "commit") && argc == 1) {
        /* More than one change: an automatic backup of each table first
         * (ui/undo.h), said after what the commit says. */
        undo_guard g;
        undo_guard_init(&g);
        bool go = true;
        if (reload() && S.n > 1) {
            char **tables = NULL;
            size_t nt = 0;
            diag d;
            diag_init(&d);
            if (staged_tables(display_store(), &tables, &nt, &d) != ST_OK)
                display_diag("Staged changes", d.code, &d);
            for (size_t i = 0; i < nt; i++) {
                undo_guard_add(&g, tables[i]);
                free(tables[i]);
            }
            free(tables);
            go = nt && undo_guard_take(&g);
        }
        if (go) {
            commit_note = g.n ? undo_guard_says(&g) : NULL;
            staging_commit();
            commit_note = NULL;
        }
        undo_guard_done(&g);
        staging_reload_after_commit(v);
        return true;
    }
    if (display_is_cmd(c, "discard") && argc <= 2) {
        if (argc == 2 && strcmp(argv[1], "all") != 0) {
            display_error("usage: :discard [all] (d in the staged view drops one item's change)");
            return true;
        }
        if (!reload())
            return true;
        if (S.n && display_confirm("Discard all %zu staged change%s?", S.n, S.n == 1 ? "" : "s")) {
            staging_discard(NULL, NULL);
            /* A staged new item's row goes with it. */
            if (v->ops->request)
                v->ops->request(v, REQ_RELOAD);
        } else if (!S.n)
            display_message("Nothing staged");
        return true;
    }
    return false;
}

/* ---- staged new items in the table view ---------------------------------- */

static const av *attr_of(const av *item, const char *name)
{
    return av_map_get(item, name, strlen(name));
}

/* Is sort key a beyond b in the page's direction? */
static bool beyond(const av *a, const av *b, bool fwd)
{
    int c = av_cmp(a, b);
    return fwd ? c > 0 : c < 0;
}

/* Is a staged row a new item of partition pk whose sort key falls in the
 * page: after `after` and, when the page is full, not beyond its last? */
static bool new_in_page(const staged_item *it, const char *table, const table_def *def,
                        const av *pk, const av *after, bool fwd, const av *last)
{
    if (strcmp(it->table, table) != 0 || it->before.type == AV_M || it->after.type != AV_M)
        return false;
    const av *ipk = attr_of(&it->after, def->pk.name), *isk = attr_of(&it->after, def->sk.name);
    if (!ipk || !isk || !av_equal(ipk, pk))
        return false;
    const av *ask = after ? attr_of(after, def->sk.name) : NULL;
    const av *lsk = last ? attr_of(last, def->sk.name) : NULL;
    return (!ask || beyond(isk, ask, fwd)) && (!lsk || !beyond(isk, lsk, fwd));
}

static const char *g_sk;   /* the sort key name while sorting a page */
static bool g_fwd;

static int page_order(const void *a, const void *b)
{
    int c = av_cmp(attr_of(a, g_sk), attr_of(b, g_sk));
    return g_fwd ? c : -c;
}

size_t staging_merge_page(const char *table, const table_def *def, const av *pk,
                          const av *after, bool fwd, size_t max, av *items, size_t n)
{
    if (!S.n || !def->pk.name || !def->sk.name || !pk)
        return n;   /* without a sort key a partition holds one item */
    const av *last = n == max && n ? &items[n - 1] : NULL;
    staged_item *rows = S.items;
    size_t nrows = S.all ? S.n : 0;
    if (!S.all) {
        /* Many staged: the table's new items alone, by their index. */
        diag d;
        diag_init(&d);
        if (staged_list_new(display_store(), table, &rows, &nrows, &d) != ST_OK)
            display_diag("Staged changes", d.code, &d);
    }
    av *all = xcalloc(n + nrows + 1, sizeof *all);
    memcpy(all, items, n * sizeof *all);
    size_t k = n;
    for (size_t i = 0; i < nrows; i++) {
        const staged_item *it = &rows[i];
        if (!new_in_page(it, table, def, pk, after, fwd, last))
            continue;
        bool dup = false;   /* written meanwhile: the store's is shown */
        for (size_t j = 0; j < n && !dup; j++)
            dup = table_def_same_item(def, &items[j], &it->after);
        if (!dup)
            av_copy(&all[k++], &it->after);
    }
    if (rows != S.items) {
        for (size_t i = 0; i < nrows; i++)
            staged_item_free(&rows[i]);
        free(rows);
    }
    if (k > n) {
        g_sk = def->sk.name;
        g_fwd = fwd;
        qsort(all, k, sizeof *all, page_order);
    }
    /* What does not fit comes with the next page, which starts after
     * the last kept item. */
    for (size_t i = max; i < k; i++)
        av_done(&all[i]);
    k = k < max ? k : max;
    memcpy(items, all, k * sizeof *all);
    free(all);
    return k;
}
