/*
 * view_tables — the table list: name, key schema, indexes, item count and
 * size. On a database without tables it offers `:samples`.
 */
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "model/vecidx.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/text.h"
#include "ui/view.h"

enum { L_TABLE = 1, L_EMPTY };

/* Column widths fitted to the tables listed and the screen (layout);
 * without tables, the width the hint's lines were wrapped at. */
typedef struct tables_view {
    int w_name, w_keys;
    int hint_width;
    bool listed;           /* ListTables read (an endpoint's list is read when first shown) */
} tables_view;

typedef struct trow {
    char *name;
    bool described;        /* def and st read */
    table_def def;
    table_stats st;
} trow;

static void tables_free_line(view *v, line *l)
{
    trow *r = l->data;
    if (!r)
        return;
    table_def_free(&r->def);
    free(r->name);
    free(r);
}

static bool remote(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    return info.remote;
}

static void describe(trow *r)
{
    diag d;
    diag_init(&d);
    r->described = true;
    status st = store_describe(display_store(), r->name, &r->def, &d);
    if (st == ST_OK)
        st = store_stats(display_store(), r->name, NULL, &r->st, &d);
    if (st != ST_OK)
        display_diag(r->name, st, &d);
}

/* The table list. An endpoint's tables are described as their rows come
 * on screen (issue 42): a DescribeTable a row, not one for every table
 * before the first screen. */
static void load(view *v)
{
    char **names = NULL;
    size_t n = 0;
    diag d;
    diag_init(&d);
    vm_clear(&v->vm);
    ((tables_view *)v->priv)->listed = true;
    store_refresh(display_store(), NULL);
    status st = store_list_tables(display_store(), &names, &n, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return;
    }
    bool lazy = remote();
    for (size_t i = 0; i < n; i++) {
        trow *r = xcalloc(1, sizeof *r);
        r->name = xstrdup(names[i]);
        if (!lazy)
            describe(r);
        vm_append(&v->vm, L_TABLE, r);
    }
    store_names_free(names, n);
    if (n == 0)
        vm_append(&v->vm, L_EMPTY, NULL);
    ((tables_view *)v->priv)->hint_width = 0;
}

/* The rows on screen described (an endpoint's). */
static void describe_shown(view *v)
{
    vm *m = &v->vm;
    /* Together first (the store sends them at once), then each from the
     * cache (a failure is said then). */
    const char *names[64];
    size_t k = 0;
    for (size_t i = m->top; i < m->n && i < m->top + m->rows && k < 64; i++) {
        trow *r = m->lines[i].data;
        if (m->lines[i].kind == L_TABLE && !r->described)
            names[k++] = r->name;
    }
    if (k > 1)
        store_describe_many(display_store(), names, k);
    for (size_t i = m->top; i < m->n && i < m->top + m->rows; i++) {
        trow *r = m->lines[i].data;
        if (m->lines[i].kind == L_TABLE && !r->described)
            describe(r);
    }
}

/* What a database without tables says, wrapped at the screen's width
 * (one L_EMPTY line a row, laid out again when the width changes). */
static const char *empty_hint(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    return info.remote ? "No tables at this endpoint."
                       : "No tables yet. Type :samples to load the sample tables, or create one "
                         "with `ddbx api`.";
}

/* Row k of the hint wrapped at width; false past its last row. */
static bool hint_row(int width, size_t k, size_t *from, size_t *n)
{
    const char *h = empty_hint();
    return text_wrap_row(h, strlen(h), width, k, from, n);
}

static void wrap_hint(view *v)
{
    tables_view *p = v->priv;
    int width = term_cols();
    if (p->hint_width == width)
        return;
    p->hint_width = width;
    vm_clear(&v->vm);
    const char *h = empty_hint();
    for (size_t k = text_wrap_rows(h, strlen(h), width); k > 0; k--)
        vm_append(&v->vm, L_EMPTY, NULL);
}

static bool tables_open(view *v, const void *arg)
{
    /* An endpoint's list waits until it is shown: `ddbx --endpoint-url
     * URL TABLE` opens the table without listing the others. */
    if (!remote())
        load(v);
    return true;
}

/* The first screen a newcomer sees says where help is: a title part
 * (ui/text.h) that stays when a long database path has to go. */
#define FIRST_HINT "   ? help  : command  q quit"

static void tables_title(view *v, buf *out)
{
    store_info info;
    store_get_info(display_store(), &info);
    buf_adds(out, "ddbx");
    if (info.remote) {
        /* DescribeTable's counts: DynamoDB refreshes them about every six hours. */
        text_title_part(out, 2);
        buf_printf(out, "  %s", info.where);
        text_title_part(out, 1);
        buf_adds(out, "  remote tables (item counts approximate)");
    } else {
        const char *path = display_db_path() ? display_db_path() : "";
        const char *home = getenv("HOME");
        size_t hl = home ? strlen(home) : 0;
        text_title_part(out, 2);
        /* ~/ for the home directory: shorter, and the same on every machine. */
        if (hl > 1 && strncmp(path, home, hl) == 0 && path[hl] == '/')
            buf_printf(out, "  ~%s", path + hl);
        else
            buf_printf(out, "  %s", path);
    }
    /* On an endpoint, that the counts are approximate comes first. */
    text_title_part(out, info.remote ? 2 : 1);
    buf_adds(out, FIRST_HINT);
}

static int tables_head_rows(view *v)
{
    return 1;
}

#define W_NAME 18
#define W_KEYS 22
#define W_ITEMS 10
#define W_SIZE 9

static void row_text(const trow *r, buf *keys, buf *idx);

/* The name and keys columns as wide as their widest entry, so nothing is
 * cut that the screen has room for; when it has not, the indexes column
 * (the last, cut at the screen's edge anyway) gives way first, then the
 * keys (to W_KEYS), then the name (to W_NAME). A restored table's long
 * name (ProfileHistory-restored) no longer cuts the keys at 80 columns. */
static void tables_layout(view *v)
{
    tables_view *p = v->priv;
    if (!p->listed)
        load(v);
    describe_shown(v);
    if (v->vm.n && v->vm.lines[0].kind == L_EMPTY)
        wrap_hint(v);
    int wn = 12, wk = 12;
    for (size_t i = 0; i < v->vm.n; i++) {
        if (v->vm.lines[i].kind != L_TABLE)
            continue;
        trow *r = v->vm.lines[i].data;
        buf keys = BUF_INIT, idx = BUF_INIT;
        row_text(r, &keys, &idx);
        int n = text_width(r->name, strlen(r->name)), k = text_width(keys.data, keys.len);
        wn = n > wn ? n : wn;
        wk = k > wk ? k : wk;
        buf_done(&keys);
        buf_done(&idx);
    }
    /* The indexes column keeps 12 columns when there is room for it, and
     * none when the names and keys need them. */
    int room = term_cols() - W_ITEMS - W_SIZE - 3 - 12;
    if (wn + 1 + wk > room)
        room += 12;
    if (wn + 1 + wk > room)
        wk = room - wn - 1 > W_KEYS ? room - wn - 1 : W_KEYS;
    if (wn + 1 + wk > room)
        wn = room - wk - 1 > W_NAME ? room - wk - 1 : W_NAME;
    p->w_name = wn;
    p->w_keys = wk;
}

static void tables_draw_head(view *v, int row, int width)
{
    tables_view *p = v->priv;
    term_fill(row, 0, width, ROLE_COLHEAD);
    int x = 0;
    term_put(row, x, p->w_name + 1, "table", 5, ROLE_COLHEAD, true);
    x = p->w_name + 1;
    term_put(row, x, p->w_keys, "keys", 4, ROLE_COLHEAD, true);
    x += p->w_keys + 1;
    term_put(row, x, W_ITEMS, "items", 5, ROLE_COLHEAD, true);
    x += W_ITEMS + 1;
    term_put(row, x, W_SIZE, "size", 4, ROLE_COLHEAD, true);
    x += W_SIZE + 1;
    if (x < width)
        term_put(row, x, width - x, "indexes", 7, ROLE_COLHEAD, true);
}

static void row_text(const trow *r, buf *keys, buf *idx)
{
    buf_printf(keys, "%s %s", r->def.pk.name ? r->def.pk.name : "?", av_type_name(r->def.pk.type));
    if (r->def.sk.name)
        buf_printf(keys, ", %s %s", r->def.sk.name, av_type_name(r->def.sk.type));
    for (size_t i = 0; i < r->def.n_idx; i++) {
        const index_def *ix = &r->def.idx[i];
        buf_printf(idx, "%s%s %s(%s%s%s) %s", i ? ", " : "", ix->global ? "GSI" : "LSI", ix->name,
                   ix->pk.name, ix->sk.name ? "," : "", ix->sk.name ? ix->sk.name : "",
                   proj_type_name(ix->proj));
    }
    /* Vector indexes after the others: name(attribute dims function). */
    for (size_t i = 0; i < r->def.n_vidx; i++) {
        const vec_index *vx = &r->def.vidx[i];
        buf_printf(idx, "%sVEC %s(%s %u %s) %s", r->def.n_idx || i ? ", " : "", vx->name, vx->attr, vx->dims,
                   vec_dist_name(vx->dist), proj_type_name(vx->proj));
    }
}

static void tables_draw(view *v, size_t i, int row, int width)
{
    line *l = &v->vm.lines[i];
    if (l->kind == L_EMPTY) {
        size_t from, n;
        if (hint_row(width, i, &from, &n))
            term_put(row, 0, width, empty_hint() + from, n, ROLE_DIM, true);
        return;
    }
    tables_view *p = v->priv;
    trow *r = l->data;
    buf keys = BUF_INIT, idx = BUF_INIT, b = BUF_INIT;
    row_text(r, &keys, &idx);
    term_put(row, 0, p->w_name, r->name, strlen(r->name), ROLE_GROUP, true);
    int x = p->w_name + 1;
    term_put(row, x, p->w_keys, keys.data, keys.len, ROLE_KEY, true);
    x += p->w_keys + 1;
    buf_printf(&b, "%*llu", W_ITEMS, (unsigned long long)r->st.items);
    term_put(row, x, W_ITEMS, b.data, b.len, ROLE_NORMAL, true);
    x += W_ITEMS + 1;
    buf_reset(&b);
    fmt_bytes(&b, r->st.bytes);
    term_put(row, x + (W_SIZE - (int)b.len > 0 ? W_SIZE - (int)b.len : 0), W_SIZE, b.data, b.len,
             ROLE_NORMAL, true);
    x += W_SIZE + 1;
    if (idx.len && x < width)
        term_put(row, x, width - x, idx.data, idx.len, ROLE_DIM, true);
    buf_done(&keys);
    buf_done(&idx);
    buf_done(&b);
}

static const char *tables_kind_name(int kind)
{
    return kind == L_TABLE ? "table" : "empty";
}

static void tables_text(view *v, size_t i, buf *out)
{
    line *l = &v->vm.lines[i];
    if (l->kind == L_EMPTY) {
        size_t from, n;
        if (hint_row(term_cols(), i, &from, &n))
            buf_add(out, empty_hint() + from, n);
        return;
    }
    trow *r = l->data;
    buf keys = BUF_INIT, idx = BUF_INIT;
    row_text(r, &keys, &idx);
    buf_printf(out, "%s keys=[%s] items=%llu bytes=%llu indexes=[%s]", r->name, keys.data,
               (unsigned long long)r->st.items, (unsigned long long)r->st.bytes,
               idx.data ? idx.data : "");
    buf_done(&keys);
    buf_done(&idx);
}

static enum req tables_request(view *v, enum req r)
{
    line *l = vm_selected(&v->vm);
    switch (r) {
    case REQ_WATCH:
        /* The change feed of the selected table. */
        if (l && l->kind == L_TABLE)
            display_push(&view_watch_ops, ((trow *)l->data)->name);
        return REQ_NONE;
    case REQ_ENTER:
        if (l && l->kind == L_TABLE) {
            items_arg a = { ((trow *)l->data)->name, NULL, NULL, NULL };
            display_push(&view_items_ops, &a);
        } else if (l) {
            display_command("samples");
        }
        return REQ_NONE;
    case REQ_RELOAD:
        display_reload_lines(v, load);
        return REQ_NONE;
    default:
        return r;
    }
}

const view_ops view_tables_ops = {
    .follows = true,
    .name = "tables",
    .priv_size = sizeof(tables_view),
    .open = tables_open,
    .layout = tables_layout,
    .title = tables_title,
    .head_rows = tables_head_rows,
    .draw_head = tables_draw_head,
    .draw = tables_draw,
    .request = tables_request,
    .free_line = tables_free_line,
    .kind_name = tables_kind_name,
    .text = tables_text,
};
