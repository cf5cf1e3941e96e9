/*
 * view_entities — the entity types of a table (`:entities [TABLE]`, `x`
 * in the table view): inferred from its items as `ddbx model` infers them
 * (data/table_read.h: a sample of a big or remote table, which the title
 * says), one entity a line with its count, size and key templates, and a
 * second line with the index key templates and its attributes. Enter
 * opens the table view of that entity alone (ui/entity_filter.h), with
 * the entity's own columns.
 */
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "data/table_read.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/view.h"

enum { L_ENTITY = 1, L_DETAIL, L_STRAYS };

typedef struct entities_view {
    char *table;
    ent_table t;
    table_read info;
} entities_view;

/* Each line's data: the index of its ent_entity (vm_append_index). */
static void entities_free_line(view *v, line *l)
{
    vm_free_index(l);
}

static bool load(view *v)
{
    entities_view *p = v->priv;
    ent_table_done(&p->t);
    ent_table_init(&p->t);
    vm_clear(&v->vm);
    diag d;
    diag_init(&d);
    display_progress("Reading %s to infer its entities...", p->table);
    status st = table_read_model(display_store(), p->table, TABLE_READ_SAMPLE, &p->t, &p->info, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return false;
    }
    display_message("%llu items read%s", (unsigned long long)p->info.items,
                    p->info.sampled ? " (a sample)" : "");
    for (size_t i = 0; i < p->t.n; i++) {
        vm_append_index(&v->vm, L_ENTITY, i);
        vm_append_index(&v->vm, L_DETAIL, i);
    }
    if (p->t.strays)
        vm_append_index(&v->vm, L_STRAYS, 0);
    return true;
}

static bool entities_open(view *v, const void *arg)
{
    const cond_arg *a = arg;
    entities_view *p = v->priv;
    if (!a || !a->table) {
        display_error(":entities works on a table: open one first, or :entities TABLE");
        return false;
    }
    p->table = xstrdup(a->table);
    ent_table_init(&p->t);
    return load(v);
}

static void entities_done(view *v)
{
    entities_view *p = v->priv;
    ent_table_done(&p->t);
    free(p->table);
}

static void entities_title(view *v, buf *out)
{
    entities_view *p = v->priv;
    buf_printf(out, "Entities of %s  %zu entit%s, %llu of %llu items read%s, told by %s  [Enter: its items]",
               p->table, p->t.n, p->t.n == 1 ? "y" : "ies", (unsigned long long)p->info.items,
               (unsigned long long)p->info.total, p->t.sampled ? " (a sample)" : "",
               p->t.type_attr ? p->t.type_attr : "keys");
}

/* "follow  2413 items  249.7 KB  PK = ACTOR#{id}  SK = TARGET#{id}" */
static void entity_text(const entities_view *p, const ent_entity *e, buf *out)
{
    buf_printf(out, "%llu item%s  ", (unsigned long long)e->count, e->count == 1 ? "" : "s");
    fmt_bytes(out, e->bytes);
    buf_printf(out, "  %s = %s", p->t.def.pk.name, e->pk_tmpl ? e->pk_tmpl : "?");
    if (p->t.def.sk.name)
        buf_printf(out, "  %s = %s", p->t.def.sk.name, e->sk_tmpl ? e->sk_tmpl : "?");
}

/* "GSI1: GSI1PK = TARGET#{id}, GSI1SK = ACTOR#{id}; attributes: ..." */
static void detail_text(const entities_view *p, const ent_entity *e, buf *out)
{
    bool any = false;
    for (size_t i = 0; i < e->n_idx; i++) {
        const ent_index *x = &e->idx[i];
        const index_def *ix = table_def_index(&p->t.def, x->name);
        if (!x->count || !ix)
            continue;
        buf_printf(out, "%s%s: %s = %s", any ? "; " : "", x->name, ix->pk.name,
                   x->pk_tmpl ? x->pk_tmpl : "?");
        if (ix->sk.name)
            buf_printf(out, ", %s = %s", ix->sk.name, x->sk_tmpl ? x->sk_tmpl : "?");
        any = true;
    }
    buf_adds(out, any ? "; " : "no index; ");
    buf_adds(out, "attributes:");
    for (size_t i = 0; i < e->n_attrs; i++) {
        const ent_attr *a = &e->attrs[i];
        buf_printf(out, "%s %s ", i ? "," : "", a->name);
        ent_attr_types_text(a, out);
        if (ent_attr_mixed(a))
            buf_adds(out, " MIXED");
    }
}

static void entities_draw(view *v, size_t i, int row, int width)
{
    entities_view *p = v->priv;
    line *l = &v->vm.lines[i];
    buf b = BUF_INIT;
    if (l->kind == L_STRAYS) {
        buf_printf(&b, "%llu item%s of no entity (no %s)", (unsigned long long)p->t.strays,
                   p->t.strays == 1 ? "" : "s", p->t.type_attr ? p->t.type_attr : "shape of its own");
        term_put(row, 0, width, b.data, b.len, ROLE_HOT, true);
        buf_done(&b);
        return;
    }
    const ent_entity *e = &p->t.e[vm_index(l)];
    if (l->kind == L_DETAIL) {
        detail_text(p, e, &b);
        term_put(row, 4, width - 4, b.data, b.len, ROLE_DIM, true);
        buf_done(&b);
        return;
    }
    int nw = width >= 100 ? 24 : 18;
    term_put(row, 0, nw, e->name, strlen(e->name), ROLE_KEY, true);
    entity_text(p, e, &b);
    if (width > nw + 1)
        term_put(row, nw + 1, width - nw - 1, b.data, b.len, ROLE_NORMAL, true);
    buf_done(&b);
}

static const char *entities_kind_name(int kind)
{
    return kind == L_ENTITY ? "entity" : kind == L_DETAIL ? "detail" : "strays";
}

static void entities_text(view *v, size_t i, buf *out)
{
    entities_view *p = v->priv;
    line *l = &v->vm.lines[i];
    if (l->kind == L_STRAYS) {
        buf_printf(out, "%llu items of no entity", (unsigned long long)p->t.strays);
        return;
    }
    const ent_entity *e = &p->t.e[vm_index(l)];
    if (l->kind == L_DETAIL) {
        detail_text(p, e, out);
        return;
    }
    buf_printf(out, "%s  ", e->name);
    entity_text(p, e, out);
}

static enum req entities_request(view *v, enum req r)
{
    entities_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_ENTER && l && l->kind != L_STRAYS) {
        const ent_entity *e = &p->t.e[vm_index(l)];
        items_arg a = { p->table, NULL, NULL, NULL };
        view *t = display_push(&view_items_ops, &a);
        if (t)
            view_items_filter(t, &p->t, e->name);
        return REQ_NONE;
    }
    if (r == REQ_RELOAD) {
        size_t c = v->vm.cursor;
        load(v);
        vm_select(&v->vm, c);
        return REQ_NONE;
    }
    if (r == REQ_ENTITIES)
        return REQ_NONE;
    return r;
}

static void entities_context(view *v, cond_arg *out)
{
    entities_view *p = v->priv;
    out->table = p->table;
}

const view_ops view_entities_ops = {
    .name = "entities",
    .priv_size = sizeof(entities_view),
    .open = entities_open,
    .title = entities_title,
    .draw = entities_draw,
    .request = entities_request,
    .done = entities_done,
    .free_line = entities_free_line,
    .kind_name = entities_kind_name,
    .text = entities_text,
    .context = entities_context,
};
