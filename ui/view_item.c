/*
 * view_item — one item: an indented tree of its attributes, then its
 * DynamoDB JSON, with its size and what reading or writing it costs in
 * capacity units. The item is read again from the base table (GetItem),
 * so an index's projection shows the whole item, with the projected
 * attributes marked.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store.h"
#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/size.h"
#include "model/ttl.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/staging.h"
#include "ui/text.h"
#include "ui/view.h"

enum { L_ATTR = 1, L_NESTED, L_HEAD, L_JSON, L_BLANK };

typedef struct iline {
    int depth;
    char *name;        /* L_ATTR: the top-level attribute */
    char *label;       /* name, [i] or set element marker */
    buf value;         /* the value item_text (scalars) or type summary */
    const char *type;  /* DynamoDB type descriptor */
    bool key, projected;
    /* L_ATTR, L_NESTED: where the line is in the item (d and E act
     * there). val points into the item the lines were built from. */
    bpath path;        /* a set element's: the set's */
    const av *val;     /* the value at path */
    const av *elem;    /* a set element: it (val is the set); else NULL */
} iline;

typedef struct item_view {
    char *table, *index;
    table_def def;
    bool have_def;
    av item;           /* as stored now */
    av shown;          /* as the index projects it (index views) */
    size_t size;
    char *ttl;         /* the table's TTL attribute; NULL: TTL disabled */
    bool remote;       /* on an endpoint: the title says how it was read */
    bool strong;       /* read strongly consistent (R, and after a write) */
} item_view;

static void item_free_line(view *v, line *l)
{
    iline *r = l->data;
    if (!r)
        return;
    free(r->name);
    free(r->label);
    buf_done(&r->value);
    builder_path_free(&r->path);
    free(r);
}

static iline *add(view *v, int kind, int depth, const char *label, size_t llen)
{
    iline *r = xcalloc(1, sizeof *r);
    r->depth = depth;
    r->label = label ? xstrndup(label, llen) : NULL;
    buf_init(&r->value);
    vm_append(&v->vm, kind, r);
    return r;
}

/* The lines of val (at path, under label), and of what it holds. */
static void tree(view *v, const av *val, bpath *path, const char *label, size_t llen, bool key,
                 bool projected, const av *set)
{
    int depth = (int)path->n - 1 + (set != NULL);
    iline *r = add(v, depth ? L_NESTED : L_ATTR, depth, label, llen);
    r->type = av_type_name(val->type);
    r->key = key;
    r->projected = projected;
    builder_path_copy(&r->path, path);
    r->val = set ? set : val;
    r->elem = set ? val : NULL;
    if (!depth)
        r->name = xstrdup(path->v[0].name);
    switch (val->type) {
    case AV_M:
        buf_printf(&r->value, "(%zu)", val->u.m.len);
        for (size_t i = 0; i < val->u.m.len; i++) {
            const av_member *mb = &val->u.m.v[i];
            builder_path_push(path, mb->name, mb->name_len);
            tree(v, &mb->val, path, mb->name, mb->name_len, false, projected, NULL);
            builder_path_pop(path);
        }
        break;
    case AV_L: case AV_SS: case AV_NS: case AV_BS:
        buf_printf(&r->value, "(%zu)", val->u.l.len);
        for (size_t i = 0; i < val->u.l.len; i++) {
            char idx[32];
            int n = snprintf(idx, sizeof idx, val->type == AV_L ? "[%zu]" : "-", i);
            if (val->type == AV_L)
                builder_path_push_index(path, (uint32_t)i);
            tree(v, &val->u.l.v[i], path, idx, (size_t)n, false, projected, val->type == AV_L ? NULL : val);
            if (val->type == AV_L)
                builder_path_pop(path);
        }
        break;
    default:
        fmt_plain(&r->value, val);
    }
}

/* The TTL attribute's line says when the item expires ("expires in 3 h",
 * "expired": DynamoDB deletes it within days, reads return it until). */
static void ttl_note(view *v)
{
    item_view *p = v->priv;
    double when;
    if (!p->ttl || !ttl_expiry(&p->item, p->ttl, &when))
        return;
    for (size_t i = 0; i < v->vm.n; i++) {
        iline *r = v->vm.lines[i].data;
        if (v->vm.lines[i].kind == L_ATTR && r->name && strcmp(r->name, p->ttl) == 0) {
            char tag[48];
            ttl_describe(when, (double)time(NULL), tag, sizeof tag);
            buf_printf(&r->value, "  (TTL: %s)", tag);
        }
    }
}

static void build(view *v)
{
    item_view *p = v->priv;
    vm_clear(&v->vm);
    const av *it = &p->item;
    for (size_t i = 0; i < it->u.m.len; i++) {
        const av_member *mb = &it->u.m.v[i];
        bool projected = !p->index || av_map_get(&p->shown, mb->name, mb->name_len);
        bpath path = { 0 };
        builder_path_push(&path, mb->name, mb->name_len);
        tree(v, &mb->val, &path, mb->name, mb->name_len,
             table_def_is_key(&p->def, p->index ? table_def_index(&p->def, p->index) : NULL, mb->name),
             projected, NULL);
        builder_path_free(&path);
    }
    ttl_note(v);
    add(v, L_BLANK, 0, NULL, 0);
    add(v, L_HEAD, 0, "DynamoDB JSON", 13);
    buf pretty = BUF_INIT;
    ddbjson_write_item_pretty(&pretty, it);
    const char *s = pretty.data;
    while (s && *s) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        iline *r = add(v, L_JSON, 0, NULL, 0);
        buf_add(&r->value, s, n);
        s += n + (nl ? 1 : 0);
    }
    buf_done(&pretty);
}

static bool item_open(view *v, const void *arg)
{
    const item_arg *a = arg;
    item_view *p = v->priv;
    diag d;
    diag_init(&d);
    p->table = xstrdup(a->table);
    p->index = a->index ? xstrdup(a->index) : NULL;
    status st = store_describe(display_store(), a->table, &p->def, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return false;
    }
    p->have_def = true;
    store_ttl_get(display_store(), p->table, &p->ttl, &d);
    av_copy(&p->shown, a->item);
    /* An endpoint's item is read eventually consistent (half the cost;
     * issue 42); R reads it strongly. */
    store_info info;
    store_get_info(display_store(), &info);
    p->remote = info.remote;
    p->strong = !info.remote;
    if (!staging_shown(p->table, &p->def, a->item, p->strong, &p->item))
        return false;
    p->size = size_item(&p->item);
    build(v);
    return true;
}

static void item_done(view *v)
{
    item_view *p = v->priv;
    av_done(&p->item);
    av_done(&p->shown);
    free(p->ttl);
    if (p->have_def)
        table_def_free(&p->def);
    free(p->table);
    free(p->index);
}

static void item_title(view *v, buf *out)
{
    item_view *p = v->priv;
    char strong[24], eventual[24], write[24];
    size_format_units(size_read_halves(p->size, true), strong);
    size_format_units(size_read_halves(p->size, false), eventual);
    size_format_units(size_write_halves(p->size), write);
    buf_printf(out, "%s  item ", p->table);
    fmt_key(out, &p->item, p->def.pk.name, p->def.sk.name);
    int sm = staging_marker(p->table, &p->def, &p->item);
    if (sm)
        buf_adds(out, sm == '-' ? "  [staged: delete]" : "  [staged]");
    /* Title parts (ui/text.h): on a narrow screen the eventually
     * consistent read goes first, then the write, then the read. */
    text_title_part(out, 1);
    buf_printf(out, "  %zu byte%s", p->size, p->size == 1 ? "" : "s");
    text_title_part(out, 2);
    buf_printf(out, ", read %s RCU", strong);
    text_title_part(out, 4);
    buf_printf(out, " (%s eventually consistent)", eventual);
    text_title_part(out, 3);
    buf_printf(out, ", write %s WCU", write);
    if (p->remote) {
        text_title_part(out, 1);
        buf_adds(out, p->strong ? "  [strongly consistent]" : "  [eventually consistent; R: strong]");
    }
}

static void item_draw(view *v, size_t i, int row, int width)
{
    item_view *p = v->priv;
    line *l = &v->vm.lines[i];
    iline *r = l->data;
    if (l->kind == L_BLANK)
        return;
    if (l->kind == L_HEAD) {
        term_puts(row, 0, width, r->label, ROLE_COLHEAD);
        return;
    }
    if (l->kind == L_JSON) {
        term_put(row, 2, width - 2, r->value.data, r->value.len, ROLE_NORMAL, true);
        return;
    }
    int x = 2 + 2 * r->depth;
    int w = term_put(row, x, width - x, r->label, strlen(r->label),
                     r->key ? ROLE_KEY : l->kind == L_ATTR ? ROLE_GROUP : ROLE_NORMAL, true);
    x += w + 2;
    if (x < 24)
        x = 24;
    x += term_put(row, x, width - x, r->type, strlen(r->type), ROLE_TYPE, true) + 2;
    if (x < 28)
        x = 28;
    x += term_put(row, x, width - x, r->value.data ? r->value.data : "", r->value.len,
                  r->key ? ROLE_KEY : ROLE_NORMAL, true);
    if (p->index && l->kind == L_ATTR && !r->projected)
        term_puts(row, x + 2, width - x - 2, "(not projected)", ROLE_DIM);
}

static const char *item_kind_name(int kind)
{
    switch (kind) {
    case L_ATTR: return "attr";
    case L_NESTED: return "nested";
    case L_HEAD: return "head";
    case L_JSON: return "json";
    default: return "blank";
    }
}

static void item_text(view *v, size_t i, buf *out)
{
    line *l = &v->vm.lines[i];
    iline *r = l->data;
    if (l->kind == L_JSON || l->kind == L_BLANK) {
        buf_add(out, r->value.data ? r->value.data : "", r->value.len);
        return;
    }
    if (l->kind == L_HEAD) {
        buf_adds(out, r->label);
        return;
    }
    for (int d = 0; d < r->depth; d++)
        buf_adds(out, "  ");
    buf_printf(out, "%s %s %s", r->label, r->type, r->value.data ? r->value.data : "");
}

/* Where the selected line is in the item (false on the JSON and the
 * other lines that are no place of it). */
static bool selected_place(view *v, edit_place *out)
{
    line *l = vm_selected(&v->vm);
    if (!l || (l->kind != L_ATTR && l->kind != L_NESTED))
        return false;
    const iline *r = l->data;
    *out = (edit_place){ &r->path, r->val, r->elem };
    return true;
}

/* The item read again, strongly consistent: R asks for it, and after a
 * write it shows that write. */
static void reload(view *v)
{
    item_view *p = v->priv;
    av fresh = { 0 };
    p->strong = true;
    if (staging_shown(p->table, &p->def, &p->item, true, &fresh)) {
        av_done(&p->item);
        av_move(&p->item, &fresh);
        p->size = size_item(&p->item);
        size_t c = v->vm.cursor;
        build(v);
        vm_select(&v->vm, c);
    }
}

static void refresh_below(view *v)
{
    view *below = display_below(v);
    if (below)
        display_reload(below);
}

static enum req item_request(view *v, enum req r)
{
    item_view *p = v->priv;
    edit_place at;
    switch (r) {
    case REQ_RELOAD: reload(v); return REQ_NONE;
    case REQ_EDIT_ITEM:
        if (edit_item(p->table, &p->def, &p->item, false)) {
            reload(v);
            refresh_below(v);
        }
        return REQ_NONE;
    case REQ_ENTER:
    case REQ_EDIT_ATTR:
        if (!selected_place(v, &at)) {
            display_error("Select an attribute to edit");
            return REQ_NONE;
        }
        if (edit_set_place(p->table, &p->def, &p->item, &at)) {
            reload(v);
            refresh_below(v);
        }
        return REQ_NONE;
    case REQ_DELETE:
        /* On an attribute, a value inside one or a set's element: that;
         * on a key attribute or the lines below the tree: the item. */
        if (selected_place(v, &at) && !(at.path->n == 1 && table_def_is_key(&p->def, NULL, at.path->v[0].name))) {
            if (edit_remove_place(p->table, &p->def, &p->item, &at)) {
                reload(v);
                refresh_below(v);
            }
            return REQ_NONE;
        }
        if (edit_delete_item(p->table, &p->def, &p->item)) {
            refresh_below(v);
            display_pop();
        }
        return REQ_NONE;
    case REQ_FOLLOW: case REQ_TOGGLE_INDEX: case REQ_QUERY: case REQ_PARTITIONS:
    case REQ_NEW_ITEM: {
        /* Table requests act on the table view below. */
        view *below = display_below(v);
        display_pop();
        if (below && below->ops->request)
            below->ops->request(below, r);
        return REQ_NONE;
    }
    default:
        return r;
    }
}

/* For the condition builder: this item, as stored now. */
static void item_context(view *v, cond_arg *out)
{
    item_view *p = v->priv;
    out->table = p->table;
    out->index = p->index;
    out->item = &p->item;
}

const view_ops view_item_ops = {
    .follows = true,
    .context = item_context,
    .name = "item",
    .priv_size = sizeof(item_view),
    .open = item_open,
    .title = item_title,
    .draw = item_draw,
    .request = item_request,
    .done = item_done,
    .free_line = item_free_line,
    .kind_name = item_kind_name,
    .text = item_text,
};
