/*
 * view_backups — :backup, :backups and the backups view (see
 * view_backups.h).
 */
#include "ui/view_backups.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store_backup.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/term.h"
#include "ui/text.h"
#include "ui/view_diff.h"

typedef struct backups_view {
    char *table;           /* the table whose backups are listed; NULL: all */
    store_backup *b;       /* oldest first, as store_backup_list gives them */
    size_t n;
    bool remote;
} backups_view;

enum { L_BACKUP = 1, L_NONE };

static void backups_free_line(view *v, line *l)
{
    l->data = NULL;   /* the backups are the view's */
}

/* "2026-12-02 03:10:05" (UTC). */
static void when_text(int64_t ms, buf *out)
{
    time_t secs = (time_t)(ms / 1000);
    struct tm tm;
    char when[32];
    gmtime_r(&secs, &tm);
    strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S", &tm);
    buf_adds(out, when);
}

static const char *kind_word(const store_backup *b)
{
    return b->type == STORE_BACKUP_SYSTEM ? "system" : b->automatic ? "auto" : "user";
}

static bool is_local(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    return !info.remote;
}

/* Lists the backups again, newest at the top; false (said) on failure. */
static bool load(view *v)
{
    backups_view *p = v->priv;
    store_backups_free(p->b, p->n);
    p->b = NULL;
    p->n = 0;
    vm_clear(&v->vm);
    store_backup_filter f = { .table = p->table, .user = true, .system = true };
    bool more = false;
    diag d;
    diag_init(&d);
    status st = store_backup_list(display_store(), &f, &p->b, &p->n, &more, &d);
    if (st != ST_OK) {
        display_diag("ListBackups", st, &d);
        return false;
    }
    for (size_t i = p->n; i-- > 0;)
        vm_append(&v->vm, L_BACKUP, &p->b[i]);
    if (!p->n)
        vm_append(&v->vm, L_NONE, NULL);
    return true;
}

static bool backups_open(view *v, const void *arg)
{
    backups_view *p = v->priv;
    p->table = arg ? xstrdup(arg) : NULL;
    p->remote = !is_local();
    return load(v);
}

static void backups_done(view *v)
{
    backups_view *p = v->priv;
    store_backups_free(p->b, p->n);
    free(p->table);
}

static void backups_title(view *v, buf *out)
{
    backups_view *p = v->priv;
    buf_printf(out, "Backups of %s", p->table ? p->table : "every table");
    text_title_part(out, 1);
    buf_printf(out, "  %zu backup%s", p->n, p->n == 1 ? "" : "s");
    text_title_part(out, 3);
    buf_adds(out, "  (Enter: diff with the table now, r restore, d delete)");
}

static int backups_head_rows(view *v)
{
    return 1;
}

/* The columns: taken, name, table, kind, items, size. */
typedef struct cols_at {
    int when, name, table, kind, items, size, width;
} cols_at;

static cols_at columns(int width)
{
    cols_at c = { .width = width, .when = 0 };
    int rest = width - 20 - 7 - 10 - 10;   /* taken, kind, items, size */
    int nw = rest * 3 / 5, tw = rest - nw;
    c.name = 20;
    c.table = c.name + (nw > 8 ? nw : 8);
    c.kind = c.table + (tw > 6 ? tw : 6);
    c.items = c.kind + 7;
    c.size = c.items + 10;
    return c;
}

static void cell(int row, int x, int to, const char *s, size_t len, role r, bool right)
{
    int w = to - x - 1;
    if (w <= 0 || x >= term_cols())
        return;
    if (right && (int)len < w)
        x += w - (int)len;
    term_put(row, x, w, s, len, r, true);
}

static void draw_row(int row, int width, const char *cells[6], const size_t lens[6], role r)
{
    cols_at c = columns(width);
    int at[7] = { c.when, c.name, c.table, c.kind, c.items, c.size, width + 1 };
    term_fill(row, 0, width, r);
    for (int k = 0; k < 6; k++)
        cell(row, at[k], at[k + 1], cells[k], lens[k], r, k >= 4);
}

static void backups_draw_head(view *v, int row, int width)
{
    const char *cells[6] = { "taken (UTC)", "name", "table", "kind", "items", "size" };
    size_t lens[6];
    for (int k = 0; k < 6; k++)
        lens[k] = strlen(cells[k]);
    draw_row(row, width, cells, lens, ROLE_COLHEAD);
}

static void row_texts(const store_backup *b, buf t[6])
{
    when_text(b->created_ms, &t[0]);
    buf_adds(&t[1], b->name);
    buf_adds(&t[2], b->table ? b->table : "");
    buf_adds(&t[3], kind_word(b));
    buf_printf(&t[4], "%llu", (unsigned long long)b->items);
    fmt_bytes(&t[5], b->bytes);
}

static void backups_draw(view *v, size_t i, int row, int width)
{
    const line *l = &v->vm.lines[i];
    if (l->kind == L_NONE) {
        backups_view *p = v->priv;
        buf b = BUF_INIT;
        buf_printf(&b, "No backups%s%s yet: :backup takes one", p->table ? " of " : "",
                   p->table ? p->table : "");
        term_put(row, 0, width, b.data, b.len, ROLE_DIM, true);
        buf_done(&b);
        return;
    }
    const store_backup *b = l->data;
    buf t[6] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
    row_texts(b, t);
    const char *cells[6];
    size_t lens[6];
    for (int k = 0; k < 6; k++) {
        cells[k] = t[k].data ? t[k].data : "";
        lens[k] = t[k].len;
    }
    draw_row(row, width, cells, lens, b->automatic ? ROLE_NORMAL : ROLE_KEY);
    for (int k = 0; k < 6; k++)
        buf_done(&t[k]);
}

static void backups_text(view *v, size_t i, buf *out)
{
    const line *l = &v->vm.lines[i];
    if (l->kind == L_NONE) {
        buf_adds(out, "No backups yet");
        return;
    }
    buf t[6] = { BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT, BUF_INIT };
    row_texts(l->data, t);
    for (int k = 0; k < 6; k++) {
        buf_printf(out, "%s%s", k ? "  " : "", t[k].data ? t[k].data : "");
        buf_done(&t[k]);
    }
}

static const char *backups_kind_name(int kind)
{
    return kind == L_BACKUP ? "backup" : "none";
}

static const store_backup *selected(view *v)
{
    line *l = vm_selected(&v->vm);
    return l && l->kind == L_BACKUP ? l->data : NULL;
}

static bool table_exists(const char *table)
{
    table_def def;
    diag d;
    diag_init(&d);
    if (store_describe(display_store(), table, &def, &d) != ST_OK)
        return false;
    table_def_free(&def);
    return true;
}

/* A name no table has: T-restored, T-restored-2, ... (DynamoDB's 255). */
static void free_name(const char *table, buf *out)
{
    for (int i = 1; i < 1000; i++) {
        buf_reset(out);
        buf_printf(out, "%.230s-restored", table);
        if (i > 1)
            buf_printf(out, "-%d", i);
        if (!table_exists(out->data))
            return;
    }
}

/* A restore's progress line, and whether Esc stopped it (store_set_stop). */
typedef struct restore_tick {
    const char *line;
    bool *stopped;
} restore_tick;

static bool tick(void *ctx)
{
    restore_tick *t = ctx;
    display_progress("%s", t->line);
    return (*t->stopped = *t->stopped || display_interrupted());
}

static void restore(view *v, const store_backup *b, const char *name)
{
    buf target = BUF_INIT;
    if (name) {
        buf_adds(&target, name);
    } else {
        buf init = BUF_INIT;
        free_name(b->table, &init);
        bool ok = display_prompt("Restore into a new table named: ", init.data, &target);
        buf_done(&init);
        if (!ok || !target.len) {
            if (ok)
                display_message("Cancelled: no table name");
            buf_done(&target);
            return;
        }
    }
    diag d;
    diag_init(&d);
    buf what = BUF_INIT;
    buf_printf(&what, "Restoring %s (%llu items) into %s (Esc or Ctrl-C stops: nothing is restored)", b->name,
               (unsigned long long)b->items, target.data);
    display_progress("%s", what.data);
    /* One transaction: Esc rolls it back whole (issue 38: a restore is
     * stoppable as the other bulk actions are). */
    bool stopped = false;
    restore_tick t = { what.data, &stopped };
    store_set_stop(display_store(), tick, &t);
    status st = store_backup_restore(display_store(), b->arn, target.data, NULL, &d);
    store_set_stop(display_store(), NULL, NULL);
    buf_done(&what);
    if (st == ST_OK)
        display_message("Restored %s into the new table %s (%llu items): :table %s opens it", b->name,
                        target.data, (unsigned long long)b->items, target.data);
    else if (stopped)
        display_message("Stopped: nothing restored (a restore is one transaction); %s is not there", target.data);
    else
        display_diag("RestoreTableFromBackup", st, &d);
    buf_done(&target);
}

static void delete_backup(view *v, const store_backup *b)
{
    if (b->type == STORE_BACKUP_SYSTEM) {
        display_error("%s is a system backup (kept when %s was deleted): it cannot be deleted, it "
                      "expires 35 days after", b->name, b->table);
        return;
    }
    buf when = BUF_INIT;
    when_text(b->created_ms, &when);
    bool yes = display_confirm("Delete the backup %s of %s (%llu items, taken %s UTC)? A deleted "
                               "backup cannot be restored", b->name, b->table,
                               (unsigned long long)b->items, when.data);
    buf_done(&when);
    if (!yes) {
        display_message("Cancelled: the backup stays");
        return;
    }
    char *name = xstrdup(b->name);
    diag d;
    diag_init(&d);
    status st = store_backup_delete(display_store(), b->arn, &d);
    if (st == ST_OK) {
        size_t c = v->vm.cursor;
        load(v);
        vm_select(&v->vm, c < v->vm.n ? c : v->vm.n ? v->vm.n - 1 : 0);
        display_fill(v);
        display_message("Deleted the backup %s", name);
    } else {
        display_diag("DeleteBackup", st, &d);
    }
    free(name);
}

static enum req backups_request(view *v, enum req r)
{
    const store_backup *b = selected(v);
    if (r == REQ_RELOAD) {
        size_t c = v->vm.cursor;
        load(v);
        vm_select(&v->vm, c < v->vm.n ? c : v->vm.n ? v->vm.n - 1 : 0);
        display_fill(v);
        return REQ_NONE;
    }
    if (!b && (r == REQ_ENTER || r == REQ_DELETE || r == REQ_RESTORE)) {
        display_error("No backup selected: :backup takes one");
        return REQ_NONE;
    }
    if (r == REQ_ENTER) {
        if (!table_exists(b->table)) {
            display_error("%s is gone: r restores the backup into a new table", b->table);
            return REQ_NONE;
        }
        /* backup:NAME when no other backup listed has its name, so the
         * diff's title says it in words; else its ARN. */
        backups_view *p = v->priv;
        size_t same = 0;
        for (size_t i = 0; i < p->n; i++)
            same += strcmp(p->b[i].name, b->name) == 0;
        buf side = BUF_INIT;
        if (same == 1 && p->table)
            buf_printf(&side, "backup:%s", b->name);
        else
            buf_adds(&side, b->arn);
        diff_arg a = { side.data, b->table };
        display_push(&view_diff_ops, &a);
        buf_done(&side);
        return REQ_NONE;
    }
    if (r == REQ_DELETE) {
        delete_backup(v, b);
        return REQ_NONE;
    }
    if (r == REQ_RESTORE) {
        restore(v, b, NULL);
        return REQ_NONE;
    }
    return r;
}

static bool backups_view_command(view *v, int argc, char **argv)
{
    if (!display_is_cmd(argv[0], "restore"))
        return false;
    const store_backup *b = selected(v);
    if (argc > 2)
        display_error("usage: :restore [NEW-TABLE]");
    else if (!b)
        display_error("No backup selected: :backup takes one");
    else
        restore(v, b, argc == 2 ? argv[1] : NULL);
    return true;
}

static void backups_context(view *v, cond_arg *out)
{
    backups_view *p = v->priv;
    const store_backup *b = selected(v);
    out->table = p->table ? p->table : b ? b->table : NULL;
}

const view_ops view_backups_ops = {
    .name = "backups",
    .priv_size = sizeof(backups_view),
    .open = backups_open,
    .title = backups_title,
    .head_rows = backups_head_rows,
    .draw_head = backups_draw_head,
    .draw = backups_draw,
    .request = backups_request,
    .done = backups_done,
    .free_line = backups_free_line,
    .kind_name = backups_kind_name,
    .text = backups_text,
    .command = backups_view_command,
    .context = backups_context,
};

/* ---- :backup, :backups -------------------------------------------------- */

/* TABLE-YYYYMMDD-HHMMSS: a backup name of DynamoDB's characters. */
static void default_name(const char *table, buf *out)
{
    time_t now = time(NULL);
    struct tm tm;
    char when[32];
    gmtime_r(&now, &tm);
    strftime(when, sizeof when, "%Y%m%d-%H%M%S", &tm);
    buf_printf(out, "%.230s-%s", table, when);
}

static void take_backup(view *v, const char *table, const char *name)
{
    buf n = BUF_INIT;
    if (name)
        buf_adds(&n, name);
    else
        default_name(table, &n);
    store_info info;
    store_get_info(display_store(), &info);
    if (info.remote && !display_confirm("Send CreateBackup of %s to %s? On-demand backups are billed "
                                        "to the table's owner (per GB-month) until deleted",
                                        table, info.where)) {
        display_message("Cancelled: no backup taken");
        buf_done(&n);
        return;
    }
    store_backup out;
    memset(&out, 0, sizeof out);
    diag d;
    diag_init(&d);
    display_progress("Backing up %s...", table);
    display_approve_writes(true);
    status st = store_backup_create(display_store(), table, n.data, 0, &out, &d);
    display_approve_writes(false);
    if (st == ST_OK) {
        display_message("Backup %s of %s taken (%llu items): :backups lists it, :diff backup:%s "
                        "compares", out.name, table, (unsigned long long)out.items, out.name);
        if (v->ops == &view_backups_ops)
            backups_request(v, REQ_RELOAD);
    } else {
        display_diag("CreateBackup", st, &d);
    }
    store_backup_done(&out);
    buf_done(&n);
}

bool backups_command(view *v, int argc, char **argv)
{
    const char *c = argv[0];
    bool one = display_is_cmd(c, "backup");
    if (!one && !display_is_cmd(c, "backups"))
        return false;
    if (argc > 2) {
        display_error("usage: :%s [%s]", c, one ? "NAME" : "TABLE");
        return true;
    }
    cond_arg a = { 0 };
    if (v->ops->context)
        v->ops->context(v, &a);
    if (one) {
        if (!a.table)
            display_error(":backup takes a backup of the table shown: open one first");
        else
            take_backup(v, a.table, argc == 2 ? argv[1] : NULL);
        return true;
    }
    const char *table = argc == 2 ? argv[1] : a.table;
    if (v->ops == &view_backups_ops && argc == 1)
        backups_request(v, REQ_RELOAD);
    else
        display_push(&view_backups_ops, table);
    return true;
}
