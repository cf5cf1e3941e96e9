/*
 * undo — automatic backups, the undo journal, :samples (see undo.h).
 */
#include "ui/undo.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/samples.h"
#include "data/staged.h"
#include "data/store.h"
#include "data/store_backup.h"
#include "model/keyenc.h"
#include "model/mem.h"
#include "model/stage.h"
#include "ui/cli.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/staging.h"
#include "ui/undo_int.h"

static const char *s_(uint64_t n)
{
    return n == 1 ? "" : "s";
}

static bool is_local(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    return !info.remote;
}

/* ---- settings ------------------------------------------------------------- */

/* DDBX_AUTO_BACKUP_KEEP and _DAYS: a whole number, else the default
 * (*bad set). */
static long setting(const char *name, long dflt, bool *bad)
{
    const char *v = getenv(name);
    if (!v || !*v)
        return dflt;
    char *end = NULL;
    long n = strtol(v, &end, 10);
    if (*end || n < 0 || n > 100000) {
        *bad = true;
        return dflt;
    }
    return n;
}

undo_backup_settings undo_backup_settings_read(void)
{
    undo_backup_settings u = { 0 };
    u.keep = (size_t)setting("DDBX_AUTO_BACKUP_KEEP", STORE_AUTO_BACKUP_KEEP, &u.bad_keep);
    u.max_age_s = 86400.0 * (double)setting("DDBX_AUTO_BACKUP_DAYS", STORE_AUTO_BACKUP_DAYS, &u.bad_days);
    return u;
}

/* The settings, a bad value said once on the status line. */
static undo_backup_settings settings(void)
{
    static bool said;
    undo_backup_settings u = undo_backup_settings_read();
    if ((u.bad_keep || u.bad_days) && !said) {
        const char *name = u.bad_keep ? "DDBX_AUTO_BACKUP_KEEP" : "DDBX_AUTO_BACKUP_DAYS";
        display_error("%s=%s is not a whole number from 0 to 100000: %ld is used", name, getenv(name),
                      u.bad_keep ? (long)STORE_AUTO_BACKUP_KEEP : (long)STORE_AUTO_BACKUP_DAYS);
        said = true;
    }
    return u;
}

static size_t keep_setting(void)
{
    return settings().keep;
}

/* ---- automatic backups ------------------------------------------------------ */

void undo_guard_init(undo_guard *g)
{
    memset(g, 0, sizeof *g);
    buf_init(&g->says);
    g->remote = !is_local();
    g->off = !g->remote && keep_setting() == 0;
}

void undo_guard_done(undo_guard *g)
{
    for (size_t i = 0; i < g->n; i++) {
        free(g->tables[i]);
        free(g->names[i]);
    }
    free(g->tables);
    free(g->names);
    buf_done(&g->says);
}

void undo_guard_add(undo_guard *g, const char *table)
{
    if (g->remote || g->off)
        return;
    for (size_t i = 0; i < g->n; i++)
        if (strcmp(g->tables[i], table) == 0)
            return;
    g->tables = xrealloc(g->tables, (g->n + 1) * sizeof *g->tables);
    g->names = xrealloc(g->names, (g->n + 1) * sizeof *g->names);
    g->tables[g->n] = xstrdup(table);
    g->names[g->n] = store_backup_auto_name(display_store(), table);
    g->n++;
}

const char *undo_guard_says(undo_guard *g)
{
    buf_reset(&g->says);
    if (g->no_undo) {
        if (g->n == 1)
            buf_printf(&g->says, "A backup named %s is kept (a restore of it has it all).", g->names[0]);
        else if (g->remote)
            buf_adds(&g->says, "No backup is taken on an endpoint.");
        return g->says.data ? g->says.data : "";
    }
    if (g->remote)
        buf_adds(&g->says, "No backup on an endpoint (:backup takes one); :undo takes this back.");
    else if (g->off)
        buf_adds(&g->says, "No automatic backup (DDBX_AUTO_BACKUP_KEEP=0); :undo takes this back.");
    else if (g->n == 1)
        buf_printf(&g->says, "A backup named %s is kept; :undo takes this back.", g->names[0]);
    else if (g->n > 1) {
        buf_adds(&g->says, "Backups named ");
        for (size_t i = 0; i < g->n; i++)
            buf_printf(&g->says, "%s%s", i ? ", " : "", g->names[i]);
        buf_adds(&g->says, " are kept; :undo takes this back.");
    }
    return g->says.data ? g->says.data : "";
}

bool undo_guard_take(undo_guard *g)
{
    for (size_t i = 0; i < g->n; i++) {
        diag d;
        diag_init(&d);
        status st = store_backup_create(display_store(), g->tables[i], g->names[i], STORE_BACKUP_AUTO,
                                        NULL, &d);
        if (st != ST_OK) {
            buf w = BUF_INIT;
            buf_printf(&w, "Nothing written: the backup %s of %s failed", g->names[i], g->tables[i]);
            display_diag(w.data, st, &d);
            buf_done(&w);
            return false;
        }
        size_t gone = 0;
        store_backup_prune(display_store(), g->tables[i], keep_setting(), settings().max_age_s,
                           &gone, &d);
    }
    return true;
}

/* ---- the journal -------------------------------------------------------------- */


static struct {
    action *undo, *redo;
    size_t nu, nr;
    int depth;
    bool hooked;
    seg *cur;             /* the records the bracketed key or command committed */
    size_t ncur, capcur;
    rev *img;             /* on an endpoint: the items it committed (undo_note_write) */
    size_t nimg, capimg;
    int64_t img_seq;      /* orders the images of one item */
    char *label;
    mode mode;            /* what the bracketed command is */
    char *undone_label;   /* the label of what :undo / :redo took back */
    action samples;       /* a :samples run in this bracket (kind A_SAMPLES when set) */
    /* An :undo or :redo whose commit stopped at a conflict goes on in the
     * conflict view's keys: what they write belongs to it. */
    mode cont;
    char *cont_label;     /* its label; push_id stays its id meanwhile */
    bool has_samples;
    uint64_t next_id;     /* the last action id given */
    uint64_t push_id;     /* the id the bracketed :undo / :redo's action takes */
} U;

static void action_done(action *a)
{
    free(a->label);
    free(a->segs);
    undo_rev_free(a->imgs, a->nimg);
    for (size_t i = 0; i < a->nt; i++) {
        free(a->tables[i]);
        free(a->arns[i]);
    }
    free(a->tables);
    free(a->arns);
    memset(a, 0, sizeof *a);
}

static void push(action **stack, size_t *n, action *a)
{
    if (!a->id)
        a->id = ++U.next_id;
    *stack = xrealloc(*stack, (*n + 1) * sizeof **stack);
    (*stack)[(*n)++] = *a;
    memset(a, 0, sizeof *a);
}

/* a as the action of id on the stack: added to its top when that is it
 * (the rest of a stopped :undo joins the part taken back before), else
 * pushed under that id. */
static void put(action **stack, size_t *n, action *a, uint64_t id)
{
    action *top = *n ? &(*stack)[*n - 1] : NULL;
    if (!top || top->id != id || top->kind != A_WRITES || a->kind != A_WRITES) {
        a->id = id;
        push(stack, n, a);
        return;
    }
    top->segs = xrealloc(top->segs, (top->n + a->n + 1) * sizeof *top->segs);
    if (a->n)
        memcpy(top->segs + top->n, a->segs, a->n * sizeof *a->segs);
    top->n += a->n;
    top->imgs = xrealloc(top->imgs, (top->nimg + a->nimg + 1) * sizeof *top->imgs);
    if (a->nimg)
        memcpy(top->imgs + top->nimg, a->imgs, a->nimg * sizeof *a->imgs);
    top->nimg += a->nimg;
    free(a->segs);
    free(a->imgs);
    a->segs = NULL;
    a->imgs = NULL;
    a->n = a->nimg = 0;
}

void undo_resume_push(action *a, mode m)
{
    if (m == M_UNDO)
        push(&U.undo, &U.nu, a);
    else
        push(&U.redo, &U.nr, a);
}

static void clear(action **stack, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        action_done(&(*stack)[i]);
    free(*stack);
    *stack = NULL;
    *n = 0;
}

/* The store tells of each change record this explorer commits. */
static void own_change(void *ctx, int64_t tid, int64_t seq)
{
    (void)ctx;
    if (U.depth == 0)
        return;
    if (U.ncur == U.capcur) {
        U.capcur = U.capcur ? U.capcur * 2 : 64;
        U.cur = xrealloc(U.cur, U.capcur * sizeof *U.cur);
    }
    U.cur[U.ncur++] = (seg){ tid, seq };
}

void undo_note_write(const char *table, const av *key, const av *before, const av *after)
{
    if (U.depth == 0 || is_local())
        return;
    if (U.nimg == U.capimg) {
        U.capimg = U.capimg ? U.capimg * 2 : 16;
        U.img = xrealloc(U.img, U.capimg * sizeof *U.img);
    }
    rev *r = &U.img[U.nimg++];
    memset(r, 0, sizeof *r);
    r->table = xstrdup(table);
    r->seq = ++U.img_seq;
    av_copy(&r->keys, key);
    av_copy(&r->old_item, before);
    av_copy(&r->new_item, after);
    for (size_t f = 0; key->type == AV_M && f < key->u.m.len; f++)
        keyenc_append(&r->key, &key->u.m.v[f].val);
}

/* "the key e", ":marked delete" (a long command line cut). */
static char *label_of(const char *label, bool command)
{
    buf b = BUF_INIT;
    if (command)
        buf_printf(&b, ":%.60s%s", label, strlen(label) > 60 ? "..." : "");
    else
        buf_printf(&b, "the key %s", label);
    return buf_steal(&b);
}

void undo_begin(const char *label, bool command)
{
    if (U.depth++ > 0) {
        /* The innermost names it: the `:` key's command line. */
        if (label && *label) {
            free(U.label);
            U.label = label_of(label, command);
        }
        return;
    }
    free(U.label);
    U.label = label_of(label ? label : "", command);
    U.mode = M_NORMAL;
    U.ncur = 0;
    if (!U.hooked && is_local()) {
        store_set_own_changes(display_store(), own_change, NULL);
        U.hooked = true;
    }
}

void undo_end(void)
{
    if (U.depth == 0 || --U.depth > 0)
        return;
    action a = { .kind = A_WRITES };
    if (U.ncur) {
        a.segs = xmalloc(U.ncur * sizeof *a.segs);
        memcpy(a.segs, U.cur, U.ncur * sizeof *a.segs);
        a.n = U.ncur;
        U.ncur = 0;
    }
    if (U.nimg) {
        a.imgs = U.img;
        a.nimg = U.nimg;
        U.img = NULL;
        U.nimg = U.capimg = 0;
    }
    if (U.mode == M_NORMAL && U.cont != M_NORMAL && (a.n || a.nimg)) {
        /* The conflict view's keys go on with the :undo or :redo that
         * stopped there: what they write is its. */
        U.mode = U.cont;
        U.undone_label = xstrdup(U.cont_label);
    }
    if (U.has_samples) {
        free(a.segs);
        undo_rev_free(a.imgs, a.nimg);
        a = U.samples;
        memset(&U.samples, 0, sizeof U.samples);
        U.has_samples = false;
    }
    if (a.n || a.nimg || a.kind == A_SAMPLES) {
        a.label = xstrdup(U.mode == M_NORMAL ? U.label : U.undone_label ? U.undone_label : "");
        if (U.mode == M_UNDO) {
            put(&U.redo, &U.nr, &a, U.push_id);
        } else if (U.mode == M_REDO) {
            put(&U.undo, &U.nu, &a, U.push_id);
        } else {
            clear(&U.redo, &U.nr);
            push(&U.undo, &U.nu, &a);
        }
    }
    if (U.cont != M_NORMAL && staging_count() == 0) {
        U.cont = M_NORMAL;
        free(U.cont_label);
        U.cont_label = NULL;
    }
    if (U.cont == M_NORMAL)
        U.push_id = 0;
    action_done(&a);
    free(U.undone_label);
    U.undone_label = NULL;
    U.mode = M_NORMAL;
}

void undo_done(void)
{
    clear(&U.undo, &U.nu);
    clear(&U.redo, &U.nr);
    if (U.hooked && display_store())
        store_set_own_changes(display_store(), NULL, NULL);
    free(U.cur);
    undo_rev_free(U.img, U.nimg);
    free(U.cont_label);
    free(U.label);
    free(U.undone_label);
    action_done(&U.samples);
    memset(&U, 0, sizeof U);
}

/* ---- :samples --------------------------------------------------------------- */

static void delta_text(const samples_delta *e, buf *out)
{
    if (e->keys_differ) {
        buf_adds(out, "another key schema");
        return;
    }
    size_t at = out->len;
    if (e->added)
        buf_printf(out, "%llu added", (unsigned long long)e->added);
    if (e->removed)
        buf_printf(out, "%s%llu removed", out->len > at ? ", " : "", (unsigned long long)e->removed);
    if (e->changed)
        buf_printf(out, "%s%llu changed", out->len > at ? ", " : "", (unsigned long long)e->changed);
}

static bool edited(const samples_delta *e)
{
    return e->exists && (e->keys_differ || e->added || e->removed || e->changed);
}

static bool load_samples(view *v)
{
    diag d;
    diag_init(&d);
    int n = cli_explore_samples(display_store(), &d);
    if (n < 0) {
        display_diag(NULL, d.code, &d);
        return false;
    }
    display_message("Loaded %d sample table%s", n, n == 1 ? "" : "s");
    if (v->ops->request)
        v->ops->request(v, REQ_RELOAD);
    return true;
}

static void samples_command(view *v)
{
    if (!is_local()) {
        /* It would drop and recreate tables of that name on the endpoint. */
        display_error(":samples loads into a local database only (ddbx samples --db FILE)");
        return;
    }
    samples_delta *e = NULL;
    size_t n = 0, n_edited = 0, n_missing = 0;
    diag d;
    diag_init(&d);
    if (samples_compare(display_store(), &e, &n, &d) != ST_OK) {
        display_diag("Comparing with the samples", d.code, &d);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        n_edited += edited(&e[i]);
        n_missing += !e[i].exists;
    }
    if (!n_edited && !n_missing) {
        display_message("The %zu sample tables are as shipped: nothing to load, nothing replaced", n);
    } else if (!n_edited) {
        if (load_samples(v) && n_missing < n)
            display_message("Loaded %zu missing sample table%s; the other %zu are as shipped (nothing"
                            " replaced)", n_missing, s_(n_missing), n - n_missing);
    } else {
        undo_guard g;
        undo_guard_init(&g);
        buf q = BUF_INIT;
        buf_adds(&q, "Replace ");
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (!edited(&e[i]))
                continue;
            undo_guard_add(&g, e[i].table);
            buf_printf(&q, "%s%s (", k++ ? ", " : "", e[i].table);
            delta_text(&e[i], &q);
            buf_adds(&q, ")");
        }
        buf_printf(&q, " with the shipped sample%s? %s", s_(n_edited), undo_guard_says(&g));
        if (!display_confirm("%s", q.data)) {
            display_message(n_edited == 1 ? "Cancelled: the edited sample table stays as it is"
                                          : "Cancelled: the edited sample tables stay as they are");
        } else if (undo_guard_take(&g)) {
            action a = { .kind = A_SAMPLES };
            for (size_t i = 0; i < g.n; i++) {
                store_backup_filter f = { .table = g.tables[i], .user = true, .automatic_only = true };
                store_backup *b = NULL;
                size_t nb = 0;
                bool more = false;
                char *arn = NULL;
                if (store_backup_list(display_store(), &f, &b, &nb, &more, &d) == ST_OK)
                    for (size_t j = 0; j < nb; j++)
                        if (strcmp(b[j].name, g.names[i]) == 0)
                            arn = xstrdup(b[j].arn);
                store_backups_free(b, nb);
                a.tables = xrealloc(a.tables, (a.nt + 1) * sizeof *a.tables);
                a.arns = xrealloc(a.arns, (a.nt + 1) * sizeof *a.arns);
                a.tables[a.nt] = xstrdup(g.tables[i]);
                a.arns[a.nt++] = arn;
            }
            if (load_samples(v)) {
                buf m = BUF_INIT;
                buf_printf(&m, "Loaded the sample tables; the edits are kept in ");
                for (size_t i = 0; i < g.n; i++)
                    buf_printf(&m, "%s%s", i ? ", " : "", g.names[i]);
                buf_adds(&m, " (:undo takes this back; ddbx diff backup:NAME TABLE shows them)");
                display_message("%s", m.data);
                buf_done(&m);
                action_done(&U.samples);
                U.samples = a;
                U.has_samples = true;
            } else {
                action_done(&a);
            }
        }
        buf_done(&q);
        undo_guard_done(&g);
    }
    samples_deltas_free(e, n);
}

/* :undo of :samples: each table back from its backup, once it is checked
 * to be still as the samples left it. */
static void undo_samples(view *v, action *a)
{
    samples_delta *e = NULL;
    size_t n = 0;
    diag d;
    diag_init(&d);
    if (samples_compare(display_store(), &e, &n, &d) != ST_OK) {
        display_diag("Comparing with the samples", d.code, &d);
        return;
    }
    buf names = BUF_INIT;
    bool ok = true;
    for (size_t t = 0; t < a->nt && ok; t++) {
        for (size_t i = 0; i < n; i++) {
            if (strcmp(e[i].table, a->tables[t]) != 0 || !edited(&e[i]))
                continue;
            buf w = BUF_INIT;
            delta_text(&e[i], &w);
            display_error("Conflict: %s changed since :samples loaded it (%s): :undo would lose that;"
                          " its backup stays (RestoreTableFromBackup restores it into a new table)", a->tables[t], w.data);
            buf_done(&w);
            ok = false;
        }
        if (!a->arns[t]) {
            display_error("%s has no backup to go back to", a->tables[t]);
            ok = false;
        }
        buf_printf(&names, "%s%s", t ? ", " : "", a->tables[t]);
        if (a->arns[t]) {
            /* The count the question and the message name (issue 38). */
            store_backup b;
            if (store_backup_describe(display_store(), a->arns[t], &b, &d) == ST_OK) {
                buf_printf(&names, " (%llu item%s)", (unsigned long long)b.items, s_(b.items));
                store_backup_done(&b);
            }
        }
    }
    samples_deltas_free(e, n);
    if (ok && display_confirm("Undo :samples: %s back as the backup%s taken before it? The shipped"
                              " items now there go.", names.data, s_(a->nt))) {
        U.mode = M_UNDO;
        U.undone_label = xstrdup(a->label);
        for (size_t t = 0; t < a->nt && ok; t++) {
            status st = store_delete_table(display_store(), a->tables[t], &d);
            if (st == ST_OK)
                st = store_backup_restore(display_store(), a->arns[t], a->tables[t], NULL, &d);
            if (st != ST_OK) {
                display_diag("Undo :samples", st, &d);
                ok = false;
            }
        }
        if (ok) {
            display_message("Undid :samples: %s as before it (:redo loads the samples again)", names.data);
            /* The redo: the samples again (asking again, since edits are back). */
            action r = { .kind = A_SAMPLES };
            action_done(&U.samples);
            U.samples = r;
            U.has_samples = true;
        }
        if (v->ops->request)
            v->ops->request(v, REQ_RELOAD);
    } else if (ok) {
        display_message("Cancelled: nothing changed");
    }
    buf_done(&names);
}

static void undo_redo(view *v, mode m)
{
    action **stack = m == M_UNDO ? &U.undo : &U.redo;
    size_t *n = m == M_UNDO ? &U.nu : &U.nr;
    if (!is_local() && !*n) {
        display_message(m == M_UNDO ? "Nothing to undo: on an endpoint :undo takes back what :commit wrote "
                                      "(staging is on with --write; writes made with :stage off are not kept)"
                                    : "Nothing to redo");
        return;
    }
    if (!*n && m == M_UNDO && U.nr) {
        display_message("Nothing more to undo: this session's %zu change%s %s undone (:redo takes the"
                        " last one back)", U.nr, s_(U.nr), U.nr == 1 ? "is" : "are");
        return;
    }
    if (!*n) {
        display_message(m == M_UNDO ? "Nothing to undo (this session made no change)" : "Nothing to redo");
        return;
    }
    action a = (*stack)[--*n];
    bool stale = false;
    if (a.kind == A_SAMPLES && m == M_UNDO) {
        undo_samples(v, &a);
    } else if (a.kind == A_SAMPLES) {
        samples_command(v);
        if (U.has_samples) {
            U.mode = M_REDO;
            U.undone_label = xstrdup(a.label);
        }
    } else {
        back_out o;
        undo_take_back(v, &a, m, &o);
        stale = o.stale;
        if (o.wrote) {
            U.mode = m;
            U.undone_label = xstrdup(a.label);
            /* What it wrote goes on the other list as one action: the one
             * the part taken back before is, when this is the rest. */
            U.push_id = a.joins ? a.joins : ++U.next_id;
            if (o.conflict) {
                U.cont = m;
                free(U.cont_label);
                U.cont_label = xstrdup(a.label);
            }
            if (o.rest.n || o.rest.nimg) {
                o.rest.joins = U.push_id;
                push(stack, n, &o.rest);
            }
        }
        action_done(&o.rest);
    }
    /* Declined or refused: it stays where it was. */
    if (U.mode == M_NORMAL && !stale) {
        push(stack, n, &a);
        return;
    }
    action_done(&a);
}

bool undo_command(view *v, int argc, char **argv)
{
    const char *c = argv[0];
    if (display_is_cmd(c, "samples") && argc == 1) {
        samples_command(v);
        return true;
    }
    if (display_is_cmd(c, "undo") && argc == 1) {
        undo_redo(v, M_UNDO);
        return true;
    }
    if (display_is_cmd(c, "redo") && argc == 1) {
        undo_redo(v, M_REDO);
        return true;
    }
    return false;
}
