/*
 * view_items — the table view: item collections.
 *
 * One group line per partition key (value, items, bytes, HOT when far
 * above the rest: doctor_hot), its items below in sort-key order. Only a
 * window of lines is loaded: `more` extends it from the first or last loaded line
 * (keyset paging: the partition after this one, the items after this
 * item), so a table of millions of items opens as fast as a small one.
 * The same view shows an index (GSI/LSI): groups are then the index's
 * partition keys and items carry the projected attributes only.
 * The paging is in view_items_page.c, f (follow) in view_items_follow.c
 * (ui/view_items_int.h says who owns what).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/store.h"
#include "model/doctor.h"
#include "model/mem.h"
#include "model/ttl.h"
#include "model/vecidx.h"
#include "ui/cols.h"
#include "ui/colset.h"
#include "ui/display.h"
#include "ui/live.h"
#include "ui/marks.h"
#include "ui/staging.h"
#include "ui/edit.h"
#include "ui/entity_filter.h"
#include "ui/fmt.h"
#include "ui/items_pos.h"
#include "ui/text.h"
#include "ui/view.h"
#include "ui/view_items_int.h"

irow *items_row_new(void)
{
    return xcalloc(1, sizeof(irow));
}

void items_free_line(view *v, line *l)
{
    irow *r = l->data;
    if (!r)
        return;
    av_done(&r->pk);
    av_done(&r->item);
    free(r->entity);
    free(r);
    l->data = NULL;
}

/* The entity type of an item line (ui/colset.h), kept in the row. */
static const char *row_entity(const items_view *p, irow *r)
{
    if (!r->entity) {
        buf b = BUF_INIT;
        colset_entity(&r->item, p->sk, &b);
        r->entity = b.data ? buf_steal(&b) : xstrdup("");
    }
    return r->entity;
}

/*
 * Each entity's rows under their own names (issue 27, 7): a names line
 * before each run of like items that follows items of another type (the
 * first run of the window has the head row), none anywhere else. Run
 * after the lines change (a page loaded, the window trimmed or reset);
 * the same lines stay selected and on top. Lines are only ever added
 * where the loading already moves them, so rows never move because the
 * selection moved.
 */
void items_names_fix(view *v)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    const char *prev = NULL;   /* the entity of the last item passed */
    bool changed = false;
    for (size_t i = 0; i < m->n; i++) {
        int kind = m->lines[i].kind;
        if (kind == L_NAMES) {
            irow *next = i + 1 < m->n && m->lines[i + 1].kind == L_ITEM ? m->lines[i + 1].data : NULL;
            if (!prev || !next || strcmp(row_entity(p, next), prev) == 0) {
                vm_cut(m, i, i + 1);
                changed = true;
                i--;
            } else if (strcmp(((irow *)m->lines[i].data)->entity, next->entity) != 0) {
                free(((irow *)m->lines[i].data)->entity);
                ((irow *)m->lines[i].data)->entity = xstrdup(next->entity);
            }
            continue;
        }
        if (kind != L_ITEM)
            continue;
        irow *r = m->lines[i].data;
        const char *e = row_entity(p, r);
        if (prev && strcmp(prev, e) != 0 && m->lines[i - 1].kind != L_NAMES) {
            irow *n = xcalloc(1, sizeof *n);
            n->entity = xstrdup(e);
            if (item_pk(p, &r->item))
                av_copy(&n->pk, item_pk(p, &r->item));
            vm_insert(m, i, &(line){ L_NAMES, n }, 1);
            changed = true;
            i++;
        }
        prev = e;
    }
    if (changed && m->n)
        vm_select(m, m->cursor);
}

bool items_is_folded(const items_view *p, const av *pk)
{
    for (size_t i = 0; i < p->n_flip; i++)
        if (av_equal(&p->flip[i], pk))
            return !p->fold_all;
    return p->fold_all;
}

static void toggle_fold(items_view *p, const av *pk)
{
    for (size_t i = 0; i < p->n_flip; i++)
        if (av_equal(&p->flip[i], pk)) {
            av_done(&p->flip[i]);
            p->flip[i] = p->flip[--p->n_flip];
            return;
        }
    p->flip = xrealloc(p->flip, (p->n_flip + 1) * sizeof *p->flip);
    av_copy(&p->flip[p->n_flip++], pk);
}

static void clear_flips(items_view *p)
{
    for (size_t i = 0; i < p->n_flip; i++)
        av_done(&p->flip[i]);
    p->n_flip = 0;
}

static void load_stats(items_view *p)
{
    diag d;
    diag_init(&d);
    memset(&p->tst, 0, sizeof p->tst);
    memset(&p->vst, 0, sizeof p->vst);
    status st = store_stats(display_store(), p->table, NULL, &p->tst, &d);
    if (st == ST_OK && p->ix >= 0)
        st = store_stats(display_store(), p->table, index_name(p), &p->vst, &d);
    else
        p->vst = p->tst;
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        p->failed = true;
    }
}

static void set_index(items_view *p, int ix)
{
    p->ix = ix;
    if (ix < 0) {
        p->pk = p->def.pk.name;
        p->sk = p->def.sk.name;
    } else {
        p->pk = p->def.idx[ix].pk.name;
        p->sk = p->def.idx[ix].sk.name;
    }
    clear_flips(p);
    items_pos_reset(&p->pos);
    load_stats(p);
}

static int find_index(const items_view *p, const char *name)
{
    if (!name || strcmp(name, "base") == 0)
        return -1;
    for (size_t i = 0; i < p->def.n_idx; i++)
        if (strcmp(p->def.idx[i].name, name) == 0)
            return (int)i;
    return -2;
}

/* ---- what UpdateTable and UpdateTimeToLive change ---------------------- */

static bool same_indexes(const table_def *a, const table_def *b)
{
    if (a->n_idx != b->n_idx)
        return false;
    for (size_t i = 0; i < a->n_idx; i++)
        if (strcmp(a->idx[i].name, b->idx[i].name) != 0)
            return false;
    return true;
}

static void load_ttl(items_view *p)
{
    free(p->ttl);
    p->ttl = NULL;
    diag d;
    diag_init(&d);
    store_ttl_get(display_store(), p->table, &p->ttl, &d);
}

/* The definition again: an index created or deleted (by :create-index, or
 * UpdateTable in another process) joins or leaves the `i` cycle; the
 * view falls back to the base table when its index is gone (true). */
static bool refresh_def(items_view *p)
{
    load_ttl(p);
    table_def def;
    diag d;
    diag_init(&d);
    if (store_describe(display_store(), p->table, &def, &d) != ST_OK)
        return false;
    if (same_indexes(&def, &p->def)) {
        table_def_free(&def);
        return false;
    }
    const char *shown = index_name(p);
    int ix = -1;
    for (size_t i = 0; shown && i < def.n_idx; i++)
        if (strcmp(def.idx[i].name, shown) == 0)
            ix = (int)i;
    if (shown && ix < 0)
        display_message("Index %s is gone: showing the base table", shown);
    table_def_free(&p->def);
    p->def = def;
    set_index(p, ix);
    return shown && ix < 0;
}

/* The item's expiry under the table's TTL, at the right end of its line
 * when the columns leave room ("expires in 3 h", "expired"). */
static void draw_expiry(const items_view *p, const av *item, int row, int width)
{
    double when;
    if (!p->ttl || !ttl_expiry(item, p->ttl, &when))
        return;
    char tag[48];
    ttl_describe(when, (double)time(NULL), tag, sizeof tag);
    /* The columns of the item's own entity type. */
    const cols *c = colsets_for(&p->cols, item, p->sk, NULL);
    int used = 2;
    for (size_t i = 0; c && i < c->n; i++)
        used += c->c[i].width + 2;
    int len = (int)strlen(tag);
    if (used + len <= width)
        term_puts(row, width - len, len, tag, ROLE_DIM);
}

static bool items_open(view *v, const void *arg)
{
    const items_arg *a = arg;
    items_view *p = v->priv;
    diag d;
    diag_init(&d);
    p->table = xstrdup(a->table);
    /* On an endpoint the first screen is one Scan of whole items, sent
     * with the description and TTL setting when they are not known yet
     * (one round trip); opened at a partition or item, a Query after. */
    store_set_page_hint(display_store(), (size_t)(term_rows() > 0 ? term_rows() : 24) + 8);
    status st = store_view_prefetch(display_store(), a->table, a->index, !a->pk && !a->item, &d);
    if (st == ST_OK)
        st = store_describe(display_store(), a->table, &p->def, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return false;
    }
    p->have_def = true;
    load_ttl(p);
    int ix = find_index(p, a->index);
    if (ix == -2) {
        display_error("Table %s has no index %s", a->table, a->index);
        return false;
    }
    set_index(p, ix);
    items_reset_at(v, a->pk, a->item);
    return true;
}

void view_items_filter(view *v, const ent_table *t, const char *entity)
{
    items_view *p = v->priv;
    entity_filter_free(p->filter);
    p->filter = entity_filter_new(t, entity);
    items_reset_at(v, NULL, NULL);
}

void items_ftargets_free(ftarget *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(t[i].index);
        av_done(&t[i].pk);
    }
    free(t);
}

static void items_done(view *v)
{
    items_view *p = v->priv;
    items_ftargets_free(p->fol, p->n_fol);
    free(p->fol_via);
    av_done(&p->away);
    for (int i = 0; i < 4; i++)
        av_done(&p->pk_lists[i]);
    clear_flips(p);
    free(p->flip);
    items_pos_done(&p->pos);
    colsets_done(&p->cols);
    if (p->sticky)
        items_free_line(v, &(line){ L_GROUP, p->sticky });
    free(p->ttl);
    entity_filter_free(p->filter);
    if (p->have_def)
        table_def_free(&p->def);
    free(p->table);
}

/* An index's key for the title: "PK, SK"; a multi-attribute key's parts
 * joined by '+' ("tournamentId+region, round+bracket"). */
static void index_key_label(const index_def *ix, buf *out)
{
    for (size_t i = 0; i < index_def_n_hash(ix); i++)
        buf_printf(out, "%s%s", i ? "+" : "", index_def_hash(ix, i)->name);
    for (size_t i = 0; i < index_def_n_range(ix); i++)
        buf_printf(out, "%s%s", i ? "+" : ", ", index_def_range(ix, i)->name);
}

/* The title's name of what the view shows: the base table and its key,
 * or the index (GSI or LSI), its key and its projection. */
static void shown_title(items_view *p, buf *out)
{
    if (p->ix < 0) {
        text_title_part(out, 1);
        buf_adds(out, "  base table");
        text_title_part(out, 3);
        buf_printf(out, " (%s%s%s)", p->pk, p->sk ? ", " : "", p->sk ? p->sk : "");
        return;
    }
    const index_def *ix = index_of(p);
    text_title_part(out, 1);
    buf_printf(out, "  %s %s", ix->global ? "GSI" : "LSI", ix->name);
    text_title_part(out, 3);
    buf_adds(out, " (");
    index_key_label(ix, out);
    buf_printf(out, ", %s)", proj_type_name(ix->proj));
}

/* A remote table: DescribeTable's counts are approximate (DynamoDB
 * refreshes them about every six hours), and the partitions are those the
 * Scan found so far. */
static void remote_title(items_view *p, buf *out)
{
    uint64_t known = 0;
    bool complete = false;
    diag d;
    diag_init(&d);
    store_scan_state(display_store(), p->table, index_name(p), &known, &complete, &d);
    shown_title(p, out);
    if (p->ix < 0) {
        text_title_part(out, 1);
        buf_printf(out, "  ~%llu item%s", (unsigned long long)p->tst.items, p->tst.items == 1 ? "" : "s");
        text_title_part(out, 5);
        buf_adds(out, ", ~");
        fmt_bytes(out, p->tst.bytes);
    } else {
        text_title_part(out, 1);
        buf_printf(out, "  ~%llu of ~%llu item%s", (unsigned long long)p->vst.items,
                   (unsigned long long)p->tst.items, p->tst.items == 1 ? "" : "s");
    }
    text_title_part(out, 1);
    buf_adds(out, " (approx.)");
    text_title_part(out, 4);
    buf_printf(out, ", %llu partition%s %s", (unsigned long long)known, known == 1 ? "" : "s",
               complete ? "(scan complete)" : "found so far (scan)");
}

/* items_pos's lines near the selection: items of its partition only. */
static const av *near_item(void *ctx, long k)
{
    view *v = ctx;
    items_view *p = v->priv;
    long i = (long)v->vm.cursor + k;
    if (i < 0 || (size_t)i >= v->vm.n || v->vm.lines[i].kind != L_ITEM)
        return NULL;
    const av *it = &((irow *)v->vm.lines[i].data)->item;
    const av *a = item_pk(p, it), *b = line_pk(p, &v->vm.lines[v->vm.cursor]);
    return a && b && av_equal(a, b) ? it : NULL;
}

/* The selection moved by a line into the partition next to the one the
 * title's numbers are of (Down onto a header, Up off one): they follow
 * from the partition's item count, not a count of all before it. */
static void pos_step(view *v, const av *pk)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    if (!p->pos.valid || av_equal(&p->pos.pk, pk))
        return;
    int dir = 0;
    const av *was = m->cursor > 0 ? line_pk(p, &m->lines[m->cursor - 1]) : NULL;
    if (was && av_equal(was, &p->pos.pk)) {
        dir = 1;
    } else {
        was = m->cursor + 1 < m->n ? line_pk(p, &m->lines[m->cursor + 1]) : NULL;
        if (was && av_equal(was, &p->pos.pk))
            dir = -1;
    }
    part_info pi;
    av from;
    av_copy(&from, &p->pos.pk);
    if (dir && items_part_lookup(p, dir > 0 ? &from : pk, &pi)) {
        items_pos_step_part(&p->pos, &from, pk, dir, pi.items);
        av_done(&pi.pk);
    }
    av_done(&from);
}

/* The title's parts, ranked (ui/text.h): on a narrow screen the size
 * goes first, then the sparse count, where in its partition the item is,
 * the key schema, and the [i: index] hint; the table, base table or
 * index, and where the selection stands stay. */
static void items_title(view *v, buf *out)
{
    items_view *p = v->priv;
    buf_adds(out, p->table);
    if (p->filter) {
        text_title_part(out, 1);
        buf_printf(out, "  entity %s only", p->filter->entity);
    }
    if (items_remote()) {
        remote_title(p, out);
    } else {
        /* Where the selection stands in the whole table or index. */
        line *l = vm_selected(&v->vm);
        const av *pk = l ? line_pk(p, l) : NULL;
        const av *item = l && l->kind == L_ITEM ? &((irow *)l->data)->item : NULL;
        if (pk)
            pos_step(v, pk);
        shown_title(p, out);
        items_pos_text(&p->pos, display_store(), p->table, index_name(p), pk, item, near_item, v, &p->vst, out);
        if (p->ix < 0) {
            text_title_part(out, 5);
            buf_adds(out, ", ");
            fmt_bytes(out, p->tst.bytes);
        } else if (p->tst.items > p->vst.items) {
            text_title_part(out, 4);
            buf_printf(out, ", %llu table item%s absent (sparse)",
                       (unsigned long long)(p->tst.items - p->vst.items),
                       p->tst.items - p->vst.items == 1 ? "" : "s");
        }
    }
    if (p->def.n_idx) {
        text_title_part(out, 2);
        buf_adds(out, "  [i: index]");
    }
    if (p->def.n_vidx) {
        text_title_part(out, 2);
        buf_adds(out, "  [~: more like this]");
    }
}

static void sticky_scroll(view *v);

/* ---- columns --------------------------------------------------------- */

/* Columns follow the attributes of the items on screen (and of the item
 * a names line on the last row names): the sort key, the table's keys
 * (in an index), then the others by name. */
static void items_layout(view *v)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    items_names_fix(v);
    sticky_scroll(v);
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n, n = 0;
    if (end > 0 && end < m->n && m->lines[end - 1].kind == L_NAMES)
        end++;
    const av *items[512];
    for (size_t i = m->top; i < end && n < 512; i++)
        if (m->lines[i].kind == L_ITEM)
            items[n++] = &((irow *)m->lines[i].data)->item;
    /* A multi-attribute key's RANGE attributes come first, in order. */
    const char *first[SCHEMA_MAX_KEY_PARTS + 2];
    size_t nf = 0;
    const index_def *ix = index_of(p);
    for (size_t i = 0; ix && i < index_def_n_range(ix); i++)
        first[nf++] = index_def_range(ix, i)->name;
    if (!nf)
        first[nf++] = p->sk;
    first[nf++] = p->ix >= 0 ? p->def.pk.name : NULL;
    first[nf++] = p->ix >= 0 ? p->def.sk.name : NULL;
    colsets_layout(&p->cols, p->table, items, n, first, nf, p->pk, p->sk);
}

/* The columns of the selected item's entity type (a header: the first
 * type on screen), for the column picker. */
static const cols *selected_cols(view *v, const char **entity)
{
    items_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    const av *item = l && l->kind == L_ITEM ? &((irow *)l->data)->item : NULL;
    const cols *c = colsets_for(&p->cols, item, p->sk, entity);
    return c ? c : colsets_for(&p->cols, NULL, p->sk, entity);
}

/* Whether the top row shows the partition's header over line top (an
 * item or names line not selected: see draw). */
static bool sticky_covers_top(const vm *m)
{
    return m->n && m->top != m->cursor &&
           (m->lines[m->top].kind == L_ITEM || m->lines[m->top].kind == L_NAMES);
}

/* The item whose names the head row shows: the first item on screen,
 * unless its run's names line is on screen too (then none: NULL). The
 * head row depends on what is on screen, never on the selection. */
static const av *head_item(view *v)
{
    vm *m = &v->vm;
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n;
    size_t from = m->top + (sticky_covers_top(m) ? 1 : 0);
    for (size_t i = from; i < end; i++) {
        if (m->lines[i].kind == L_NAMES)
            return NULL;
        if (m->lines[i].kind == L_ITEM) {
            /* The top row's item, covered by the header, is of this run
             * too when it is an item: its names are the head row's. */
            if (from > m->top && m->lines[m->top].kind == L_ITEM)
                return &((irow *)m->lines[m->top].data)->item;
            return &((irow *)m->lines[i].data)->item;
        }
    }
    return NULL;
}

static int items_head_rows(view *v)
{
    return 1;
}

/* Several entity types on screen. */
static bool mixed(const items_view *p)
{
    size_t types = 0;
    for (size_t i = 0; i < p->cols.n; i++)
        types += p->cols.e[i].cols.n > 0;
    return types > 1;
}

/* Column names (of item's type) on a row, and when several types are on
 * screen and it fits, whose they are at the right end ("[TARGET#
 * items]", the head row's with "; C: columns"). */
static void draw_names(view *v, const av *item, int row, int width, bool head)
{
    items_view *p = v->priv;
    const char *entity = NULL;
    term_fill(row, 0, width, ROLE_COLHEAD);
    const cols *c = colsets_for(&p->cols, item, p->sk, &entity);
    int end = c ? cols_draw_head(c, row, 2, width, v->vm.hscroll) : 2;
    if (entity && (mixed(p) || !c)) {
        buf b = BUF_INIT;
        buf_adds(&b, "[");
        colset_entity_label(entity, &b);
        buf_adds(&b, head ? "; C: columns]" : "]");
        int w = text_width(b.data, b.len);
        if (end + 2 + w <= width)
            term_put(row, width - w, w, b.data, b.len, ROLE_DIM, true);
        buf_done(&b);
    }
}

static void items_draw_head(view *v, int row, int width)
{
    items_view *p = v->priv;
    const av *item = head_item(v);
    if (item && colsets_for(&p->cols, item, p->sk, NULL)) {
        draw_names(v, item, row, width, true);
        return;
    }
    term_fill(row, 0, width, ROLE_COLHEAD);
    buf b = BUF_INIT;
    buf_printf(&b, "partitions by %s", p->pk);
    if (v->vm.n && mixed(p))
        buf_adds(&b, "; each type of item under its own names");
    term_put(row, 0, width, b.data, b.len, ROLE_COLHEAD, true);
    buf_done(&b);
}

/* A names line: the names of the item below it. */
static void draw_names_line(view *v, size_t i, int row, int width)
{
    const av *item = i + 1 < v->vm.n && v->vm.lines[i + 1].kind == L_ITEM
                         ? &((irow *)v->vm.lines[i + 1].data)->item : NULL;
    if (item)
        draw_names(v, item, row, width, false);
}

static void draw_group(items_view *p, irow *r, int row, int width)
{
    buf b = BUF_INIT;
    bool folded = items_is_folded(p, &r->pk);
    int x = term_puts(row, 0, width, folded ? "▸ " : "▾ ", ROLE_GROUP);
    fmt_cell(&b, &r->pk, 0);
    x += term_put(row, x, width - x, b.data, b.len, ROLE_GROUP, true);
    buf_reset(&b);
    uint64_t items = items_group_count(p, r);
    /* An entity's view counts its items, of the partition's. */
    items_group_shown(p, r);
    bool part = items != STORE_ITEMS_UNKNOWN && r->shown_known && r->shown < items;
    if (items == STORE_ITEMS_UNKNOWN)
        buf_adds(&b, "  not counted");
    else if (part)
        buf_printf(&b, "  %llu of %llu items", (unsigned long long)r->shown, (unsigned long long)items);
    else
        buf_printf(&b, "  %llu item%s%s", (unsigned long long)items, items == 1 ? "" : "s",
                   p->filter && !r->shown_known ? " in all" : "");
    /* DynamoDB tells no partition's size. */
    if (!items_remote()) {
        buf_adds(&b, ", ");
        fmt_bytes(&b, part ? r->shown_bytes : r->bytes);
    }
    x += term_put(row, x, width - x, b.data, b.len, ROLE_DIM, true);
    if (items_is_hot(p, r))
        term_puts(row, x, width - x, "  HOT", ROLE_HOT);
    buf_done(&b);
}

/* The header of the partition whose item is line i: the loaded header
 * line above it, else the one kept from the store (NULL: none). */
static irow *sticky_header(view *v, size_t i)
{
    items_view *p = v->priv;
    const av *pk = line_pk(p, &v->vm.lines[i]);
    if (!pk)
        return NULL;
    while (i-- > 0)
        if (v->vm.lines[i].kind == L_GROUP) {
            irow *g = v->vm.lines[i].data;
            if (av_equal(&g->pk, pk))
                return g;
            break;
        }
    if (!p->sticky || !av_equal(&p->sticky->pk, pk)) {
        part_info pi;
        if (!items_part_lookup(p, pk, &pi))
            return NULL;
        if (p->sticky)
            items_free_line(v, &(line){ L_GROUP, p->sticky });
        p->sticky = items_group_row(&pi);
    }
    return p->sticky;
}

/* Keeps the selection off the top row while the sticky header covers it:
 * the list scrolls one line instead. */
static void sticky_scroll(view *v)
{
    vm *m = &v->vm;
    if (m->rows < 2 || !m->n || m->cursor != m->top || m->lines[m->top].kind != L_ITEM)
        return;
    if (m->top == 0)
        items_more(v, -1);   /* prepending moves cursor and top with the lines */
    if (m->top > 0)
        vm_set_top(m, m->top - 1);
}

static void items_draw(view *v, size_t i, int row, int width)
{
    items_view *p = v->priv;
    line *l = &v->vm.lines[i];
    irow *r = l->data;
    if (l->kind == L_GROUP) {
        draw_group(p, r, row, width);
        return;
    }
    /* The top row: the partition's header stays while its items scroll. */
    irow *g = i == v->vm.top && sticky_covers_top(&v->vm) ? sticky_header(v, i) : NULL;
    if (g) {
        draw_group(p, g, row, width);
        return;
    }
    if (l->kind == L_NAMES) {
        draw_names_line(v, i, row, width);
        return;
    }
    /* Written by another process in the last seconds: a mark that
     * needs no colour ("+" new, "~" changed). */
    int mk = live_mark(p->table, &r->item);
    if (mk)
        term_puts(row, 0, 2, mk == STORE_INSERT ? "+" : "~", ROLE_HOT);
    marks_draw_gutter(p->table, &p->def, &r->item, row);
    const cols *c = colsets_for(&p->cols, &r->item, p->sk, NULL);
    if (c)
        cols_draw_item(c, &r->item, row, 2, width, v->vm.hscroll, &p->def, index_of(p));
    draw_expiry(p, &r->item, row, width);
}

static const char *items_kind_name(int kind)
{
    return kind == L_GROUP ? "group" : kind == L_ITEM ? "item" : "names";
}

static void items_text(view *v, size_t i, buf *out)
{
    items_view *p = v->priv;
    line *l = &v->vm.lines[i];
    irow *r = l->data;
    if (l->kind == L_NAMES) {
        colset_entity_label(r->entity, out);
        return;
    }
    if (l->kind == L_GROUP) {
        fmt_cell(out, &r->pk, 0);
        uint64_t items = items_group_count(p, r);
        if (items == STORE_ITEMS_UNKNOWN)
            buf_adds(out, " items=?");
        else
            buf_printf(out, " items=%llu", (unsigned long long)items);
        if (!items_remote())
            buf_printf(out, " bytes=%llu", (unsigned long long)r->bytes);
        buf_printf(out, "%s%s", items_is_folded(p, &r->pk) ? " folded" : "",
                   items_is_hot(p, r) ? " hot" : "");
        return;
    }
    for (size_t j = 0; j < r->item.u.m.len; j++) {
        if (j)
            buf_addc(out, ' ');
        buf_add(out, r->item.u.m.v[j].name, r->item.u.m.v[j].name_len);
        buf_addc(out, '=');
        fmt_cell(out, &r->item.u.m.v[j].val, 0);
    }
}

/* ---- requests -------------------------------------------------------- */

const av *items_selected_item(view *v)
{
    line *l = vm_selected(&v->vm);
    return l && l->kind == L_ITEM ? &((irow *)l->data)->item : NULL;
}

/* Switches to index ix (-1: base), keeping the selected item when it is
 * in the new view. */
static void switch_index(view *v, int ix)
{
    items_view *p = v->priv;
    av item = { 0 }, pk = { 0 };
    const av *sel = items_selected_item(v);
    /* Back from a view that did not have the item, not moved since. */
    if (p->away.type && v->vm.cursor == p->away_cursor)
        sel = &p->away;
    if (sel)
        av_copy(&item, sel);
    av_done(&p->away);
    set_index(p, ix);
    const av *npk = item.type ? item_pk(p, &item) : NULL;
    if (npk)
        av_copy(&pk, npk);
    items_reset_at(v, npk ? &pk : NULL, npk ? &item : NULL);
    if (item.type && !npk) {
        display_message("The item is not in %s (no %s: sparse index); i again comes back to it",
                        ix < 0 ? "the base table" : index_name(p), p->pk);
        av_move(&p->away, &item);
        p->away_cursor = v->vm.cursor;
    }
    av_done(&item);
    av_done(&pk);
}

static void open_item(view *v)
{
    items_view *p = v->priv;
    const av *item = items_selected_item(v);
    if (!item)
        return;
    item_arg a = { p->table, index_name(p), item };
    display_push(&view_item_ops, &a);
}

static void reload(view *v)
{
    items_view *p = v->priv;
    av pk = { 0 }, item = { 0 };
    line *l = vm_selected(&v->vm);
    if (l) {
        const av *k = line_pk(p, l);
        if (k)
            av_copy(&pk, k);
        if (l->kind == L_ITEM)
            av_copy(&item, &((irow *)l->data)->item);
    }
    /* A remote table is asked again: counts, partitions (a retry after
     * an error, or what others wrote); after a commit of ours only its
     * items (the store forgot the partitions it wrote to), the
     * description and TTL setting being what they were. */
    bool own = items_remote() && staging_after_commit();
    if (!own)
        store_refresh(display_store(), p->table);
    p->failed = false;
    bool gone = !own && refresh_def(p);
    load_stats(p);
    /* Unreachable: keep the lines shown, with the error, until R works. */
    if (!p->failed)
        items_reset_at(v, pk.type && !gone ? &pk : NULL, item.type && !gone ? &item : NULL);
    av_done(&pk);
    av_done(&item);
}

/* After an edit: a staged one on a remote table changed nothing there,
 * so the lines are made again around the selection from what is known
 * (staged changes show through them), without asking the endpoint for
 * its description and partitions again; anything else reloads. */
static void after_edit(view *v)
{
    items_view *p = v->priv;
    if (!items_remote() || !staging_on()) {
        reload(v);
        return;
    }
    av pk = { 0 }, item = { 0 };
    line *l = vm_selected(&v->vm);
    if (l && line_pk(p, l))
        av_copy(&pk, line_pk(p, l));
    if (l && l->kind == L_ITEM)
        av_copy(&item, &((irow *)l->data)->item);
    p->failed = false;
    items_reset_at(v, pk.type ? &pk : NULL, item.type ? &item : NULL);
    av_done(&pk);
    av_done(&item);
}

static void fold(view *v)
{
    items_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (!l)
        return;
    av pk;
    av_copy(&pk, line_pk(p, l));
    toggle_fold(p, &pk);
    items_reset_at(v, &pk, NULL);
    av_done(&pk);
}

static void fold_all(view *v, int how)
{
    items_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    av pk = { 0 };
    if (l && line_pk(p, l))
        av_copy(&pk, line_pk(p, l));
    p->fold_all = how < 0 ? !p->fold_all : how > 0;
    clear_flips(p);
    items_reset_at(v, pk.type ? &pk : NULL, NULL);
    av_done(&pk);
}

/* The next or previous partition header. Found through the store
 * (the partition after this one), not by paging through the items in
 * between, which may be a celebrity's hundreds of thousands. */
static void jump_group(view *v, int dir)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    line *l = vm_selected(m);
    if (!l)
        return;
    av pk;
    av_copy(&pk, line_pk(p, l));
    if (dir < 0 && l->kind == L_ITEM) {
        /* First to this partition's own header, when it is loaded. */
        for (size_t i = m->cursor; i-- > 0;)
            if (m->lines[i].kind == L_GROUP && av_equal(&((irow *)m->lines[i].data)->pk, &pk)) {
                vm_select(m, i);
                display_fill(v);
                av_done(&pk);
                return;
            }
        /* The same partition: its numbers hold across the reset. */
        items_pos kept = p->pos;
        memset(&p->pos, 0, sizeof p->pos);
        items_reset_at(v, &pk, NULL);
        items_pos_done(&p->pos);
        p->pos = kept;
        av_done(&pk);
        return;
    }
    part_info pi, from;
    if (items_part_next(p, &pk, dir, &pi)) {
        /* The title's numbers follow from the partition left (dir > 0)
         * or the one reached, not from a count of all before it; the
         * reset below would forget them. */
        uint64_t items = pi.items;
        if (dir > 0 && items_part_lookup(p, &pk, &from)) {
            items = from.items;
            av_done(&from.pk);
        }
        items_pos kept = p->pos;
        memset(&p->pos, 0, sizeof p->pos);
        /* When it is already loaded, just move there. */
        bool loaded = false;
        for (size_t i = 0; i < m->n && !loaded; i++)
            if (m->lines[i].kind == L_GROUP && av_equal(&((irow *)m->lines[i].data)->pk, &pi.pk)) {
                vm_select(m, i);
                display_fill(v);
                loaded = true;
            }
        if (!loaded)
            items_reset_at(v, &pi.pk, NULL);
        items_pos_done(&p->pos);
        p->pos = kept;
        items_pos_step_part(&p->pos, &pk, &pi.pk, dir, items);
        av_done(&pi.pk);
    }
    av_done(&pk);
}

/* G: the last item of the last partition and the screen above it, read
 * backward from the end: not the whole partition from its start (G on a
 * partition of 100,000 items read and held them all). False where that
 * does not hold (a remote table, whose Scan order has no end to start
 * from; a folded or empty last partition): the caller reads forward. */
static bool move_last(view *v)
{
    items_view *p = v->priv;
    part_info pi;
    if (items_remote() || !items_part_next(p, NULL, -1, &pi))
        return false;
    av last;
    size_t n = items_is_folded(p, &pi.pk) ? 0 : items_page(p, &pi.pk, NULL, false, 1, &last);
    if (n) {
        items_reset_at(v, &pi.pk, &last);
        vm *m = &v->vm;
        vm_select(m, m->n - 1);
        vm_set_top(m, m->n > m->rows ? m->n - m->rows : 0);
        display_fill(v);
        av_done(&last);
    }
    av_done(&pi.pk);
    return n > 0;
}

/* Opens the query bar on this table or index, the selected partition's
 * value filled in. */
static view *query(view *v)
{
    items_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    query_arg a = { .table = p->table, .index = index_name(p), .pk = l ? line_pk(p, l) : NULL };
    return display_push(&view_query_ops, &a);
}

static enum req items_request(view *v, enum req r)
{
    items_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    switch (r) {
    case REQ_ENTER:
        if (l && l->kind == L_GROUP)
            fold(v);
        else
            open_item(v);
        return REQ_NONE;
    case REQ_FOLD: fold(v); return REQ_NONE;
    case REQ_FOLD_ALL: fold_all(v, -1); return REQ_NONE;
    case REQ_TOGGLE_INDEX:
        if (!p->def.n_idx) {
            display_error(p->def.n_vidx ? "Table %s has only vector indexes: ~ on an item searches one"
                                        : "Table %s has no indexes", p->table);
            return REQ_NONE;
        }
        switch_index(v, p->ix + 1 >= (int)p->def.n_idx ? -1 : p->ix + 1);
        return REQ_NONE;
    case REQ_NEXT_GROUP: jump_group(v, 1); return REQ_NONE;
    case REQ_PREV_GROUP: jump_group(v, -1); return REQ_NONE;
    case REQ_MOVE_FIRST: items_reset_at(v, NULL, NULL); return REQ_NONE;
    case REQ_MOVE_LAST:
        if (!move_last(v))
            items_move_last_remote(v);
        return REQ_NONE;
    case REQ_FOLLOW: items_follow(v); return REQ_NONE;
    case REQ_ENTITIES: {
        cond_arg a = { .table = p->table };
        display_push(&view_entities_ops, &a);
        return REQ_NONE;
    }
    case REQ_PARTITIONS: {
        item_arg a = { p->table, index_name(p), NULL };
        display_push(&view_parts_ops, &a);
        return REQ_NONE;
    }
    case REQ_QUERY: query(v); return REQ_NONE;
    case REQ_COLUMNS: {
        const char *entity = "";
        const cols *c = selected_cols(v, &entity);
        if (!c) {
            display_error("No items on screen to pick columns of");
            return REQ_NONE;
        }
        cols_arg a = { p->table, entity, c };
        display_push(&view_cols_ops, &a);
        return REQ_NONE;
    }
    case REQ_RELOAD: reload(v); return REQ_NONE;
    case REQ_NEW_ITEM: {
        const av *pk = l ? line_pk(p, l) : NULL;
        if (p->ix >= 0)
            pk = l && l->kind == L_ITEM ? av_map_get(&((irow *)l->data)->item, p->def.pk.name,
                                                     strlen(p->def.pk.name)) : NULL;
        av created;
        if (edit_new_item(p->table, &p->def, pk, &created)) {
            after_edit(v);
            /* The new item selected, its partition loaded around it (an
             * index view: when the item is in the index). */
            if (item_pk(p, &created))
                view_items_show(v, &created);
        }
        av_done(&created);
        return REQ_NONE;
    }
    case REQ_EDIT_ITEM:
    case REQ_EDIT_ATTR:
        if (!items_selected_item(v)) {
            display_error("Select an item to edit");
            return REQ_NONE;
        }
        if (edit_item(p->table, &p->def, items_selected_item(v), p->ix >= 0))
            after_edit(v);
        return REQ_NONE;
    case REQ_DELETE:
        if (!items_selected_item(v)) {
            display_error("Select an item to delete");
            return REQ_NONE;
        }
        if (edit_delete_item(p->table, &p->def, items_selected_item(v)))
            after_edit(v);
        return REQ_NONE;
    default:
        return r;
    }
}

static bool items_command(view *v, int argc, char **argv)
{
    items_view *p = v->priv;
    const char *c = argv[0];
    if (strcmp(c, "index") == 0) {
        if (argc != 2) {
            display_error("usage: :index NAME|base");
            return true;
        }
        int ix = find_index(p, argv[1]);
        if (ix == -2 && vec_index_find(&p->def, argv[1]))
            display_error("%s is a vector index: ~ on an item searches it (no Query or Scan)", argv[1]);
        else if (ix == -2)
            display_error("Table %s has no index %s", p->table, argv[1]);
        else
            switch_index(v, ix);
        return true;
    }
    if (strcmp(c, "goto") == 0 && argc == 2) {
        av pk;
        diag d;
        diag_init(&d);
        status st = edit_parse_key(&p->def, index_of(p), true, argv[1], &pk, &d);
        if (st != ST_OK) {
            display_diag(NULL, st, &d);
            return true;
        }
        /* A partition that is not there leaves the view where it was. */
        part_info pi;
        p->failed = false;
        if (items_part_lookup(p, &pk, &pi)) {
            av_done(&pi.pk);
            items_reset_at(v, &pk, NULL);
        } else if (!p->failed) {
            buf b = BUF_INIT;
            fmt_cell(&b, &pk, 80);
            display_error("No partition %s = %s%s%s (the view stays where it was)", p->pk, b.data,
                          p->ix >= 0 ? " in " : "", p->ix >= 0 ? index_name(p) : "");
            buf_done(&b);
        }
        av_done(&pk);
        return true;
    }
    if (strcmp(c, "fold") == 0) {
        if (argc == 2 && strcmp(argv[1], "all") == 0)
            fold_all(v, 1);
        else if (argc == 2 && strcmp(argv[1], "none") == 0)
            fold_all(v, 0);
        else
            fold(v);
        return true;
    }
    if (strcmp(c, "partitions") == 0) {
        items_request(v, REQ_PARTITIONS);
        return true;
    }
    if (strcmp(c, "count-parts") == 0) {
        items_count_parts(v);
        return true;
    }
    if (strcmp(c, "query") == 0 || strcmp(c, "scan") == 0) {
        /* The query bar takes the arguments (:query PK [SKCOND] --filter=..). */
        view *q = query(v);
        if (q && (argc > 1 || strcmp(c, "scan") == 0))
            q->ops->command(q, argc, argv);
        return true;
    }
    return false;
}

const av *view_items_group_pk(view *v)
{
    line *l = vm_selected(&v->vm);
    return l && l->kind == L_GROUP ? &((irow *)l->data)->pk : NULL;
}

void view_items_show(view *v, const av *item)
{
    items_view *p = v->priv;
    av pk = { 0 }, it;
    av_copy(&it, item);   /* item may be a line reset_at frees */
    if (item_pk(p, &it))
        av_copy(&pk, item_pk(p, &it));
    if (pk.type && items_is_folded(p, &pk))
        toggle_fold(p, &pk);   /* a match is shown, not folded away */
    items_reset_at(v, pk.type ? &pk : NULL, &it);
    av_done(&pk);
    av_done(&it);
}

/* The item line i shows on screen: the top row's is hidden under its
 * partition's header unless it is the selection (as draw does). */
static const av *items_line_item(view *v, size_t i)
{
    if (i >= v->vm.n || v->vm.lines[i].kind != L_ITEM)
        return NULL;
    if (i == v->vm.top && i != v->vm.cursor && sticky_header(v, i))
        return NULL;
    return &((irow *)v->vm.lines[i].data)->item;
}

/* For the condition builder: the table, the index shown, the item. */
static void items_context(view *v, cond_arg *out)
{
    items_view *p = v->priv;
    out->table = p->table;
    out->index = index_name(p);
    out->item = items_selected_item(v);
}

/* Names lines are passed over by the selection. */
static bool items_skip(view *v, size_t i)
{
    return v->vm.lines[i].kind == L_NAMES;
}

const view_ops view_items_ops = {
    .skip = items_skip,
    .follows = true,
    .context = items_context,
    .line_item = items_line_item,
    .name = "items",
    .priv_size = sizeof(items_view),
    .open = items_open,
    .title = items_title,
    .layout = items_layout,
    .head_rows = items_head_rows,
    .draw_head = items_draw_head,
    .draw = items_draw,
    .request = items_request,
    .done = items_done,
    .more = items_more,
    .free_line = items_free_line,
    .kind_name = items_kind_name,
    .text = items_text,
    .command = items_command,
};
