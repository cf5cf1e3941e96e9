/*
 * view_doctor — `:doctor [TABLE]`: what `ddbx doctor` finds in the table
 * (data/doctor_run.h, with the database's access patterns), a finding a
 * line and what to do below it, then what could not be judged. Enter on a
 * finding about an item opens the table view at that item.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/doctor_run.h"
#include "data/pattern_file.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/view.h"

enum { L_FINDING = 1, L_TODO, L_NOTE, L_NONE };

typedef struct doctor_view {
    char *table;
    doctor_report rep;
    table_read info;
} doctor_view;

/* Each line's data: the index of its finding or note (vm_append_index). */
static void doctor_free_line(view *v, line *l)
{
    vm_free_index(l);
}

static bool load(view *v)
{
    doctor_view *p = v->priv;
    doctor_report_done(&p->rep);
    doctor_report_init(&p->rep);
    vm_clear(&v->vm);
    pattern_set set;
    pattern_set_init(&set);
    diag d;
    diag_init(&d);
    char *dir = display_patterns_dir();
    if (pattern_file_load_dir(dir, &set, &d) != ST_OK)
        display_diag(NULL, d.code, &d);   /* the others still count */
    free(dir);
    const pattern_set *sets[1] = { &set };
    store_info info;
    store_get_info(display_store(), &info);
    display_progress("Reading %s for the doctor...", p->table);
    diag_init(&d);
    status st = doctor_run(display_store(), p->table, NULL, sets, 1,
                           info.remote ? TABLE_READ_SAMPLE : 0, (double)time(NULL),
                           &p->rep, &p->info, &d);
    pattern_set_done(&set);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return false;
    }
    for (size_t i = 0; i < p->rep.n; i++) {
        vm_append_index(&v->vm, L_FINDING, i);
        vm_append_index(&v->vm, L_TODO, i);
    }
    if (!p->rep.n)
        vm_append_index(&v->vm, L_NONE, 0);
    for (size_t i = 0; i < p->rep.n_notes; i++)
        vm_append_index(&v->vm, L_NOTE, i);
    display_message("%zu finding%s in %s", p->rep.n, p->rep.n == 1 ? "" : "s", p->table);
    return true;
}

static bool doctor_open(view *v, const void *arg)
{
    const cond_arg *a = arg;
    doctor_view *p = v->priv;
    p->table = xstrdup(a->table);
    doctor_report_init(&p->rep);
    return load(v);
}

static void doctor_done(view *v)
{
    doctor_view *p = v->priv;
    doctor_report_done(&p->rep);
    free(p->table);
}

static void doctor_title(view *v, buf *out)
{
    doctor_view *p = v->priv;
    buf_printf(out, "Doctor: %s  %zu finding%s, %llu items read%s  [Enter: the item]", p->table,
               p->rep.n, p->rep.n == 1 ? "" : "s", (unsigned long long)p->info.items,
               p->info.sampled ? " (a sample)" : "");
}

static void line_text(view *v, size_t i, buf *out, role *rl)
{
    doctor_view *p = v->priv;
    const line *l = &v->vm.lines[i];
    size_t idx = vm_index(l);
    *rl = ROLE_NORMAL;
    switch (l->kind) {
    case L_FINDING:
        buf_printf(out, "%s: %s", doctor_kind_name(p->rep.f[idx].kind), p->rep.f[idx].what);
        *rl = ROLE_HOT;
        break;
    case L_TODO:
        buf_printf(out, "    do: %s", p->rep.f[idx].todo);
        *rl = ROLE_DIM;
        break;
    case L_NOTE:
        buf_printf(out, "note: %s", p->rep.notes[idx]);
        *rl = ROLE_DIM;
        break;
    default:
        buf_adds(out, "Nothing found.");
    }
}

static void doctor_draw(view *v, size_t i, int row, int width)
{
    display_line_draw(v, i, row, width, line_text);
}

static void doctor_text(view *v, size_t i, buf *out)
{
    display_line_text(v, i, out, line_text);
}

static const char *doctor_view_kind_name(int kind)
{
    switch (kind) {
    case L_FINDING: return "finding";
    case L_TODO: return "todo";
    case L_NOTE: return "note";
    default: return "none";
    }
}

static enum req doctor_request(view *v, enum req r)
{
    doctor_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_ENTER && l && (l->kind == L_FINDING || l->kind == L_TODO)) {
        const doctor_finding *f = &p->rep.f[vm_index(l)];
        if (f->key.type != AV_M) {
            display_message("This finding is about no one item");
            return REQ_NONE;
        }
        table_def def;
        diag d;
        diag_init(&d);
        if (store_describe(display_store(), p->table, &def, &d) != ST_OK) {
            display_diag(NULL, d.code, &d);
            return REQ_NONE;
        }
        const av *pk = av_map_get(&f->key, def.pk.name, strlen(def.pk.name));
        items_arg a = { p->table, NULL, pk, &f->key };
        display_push(&view_items_ops, &a);
        table_def_free(&def);
        return REQ_NONE;
    }
    if (r == REQ_RELOAD) {
        load(v);
        return REQ_NONE;
    }
    return r;
}

static void doctor_context(view *v, cond_arg *out)
{
    doctor_view *p = v->priv;
    out->table = p->table;
}

const view_ops view_doctor_ops = {
    .name = "doctor",
    .priv_size = sizeof(doctor_view),
    .open = doctor_open,
    .title = doctor_title,
    .draw = doctor_draw,
    .request = doctor_request,
    .done = doctor_done,
    .free_line = doctor_free_line,
    .kind_name = doctor_view_kind_name,
    .text = doctor_text,
    .context = doctor_context,
};
