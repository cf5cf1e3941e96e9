/*
 * view_items_page — the table view's window of loaded lines (see
 * ui/view_items_int.h): `more` extends it from the first or last loaded
 * line by keyset paging (the partition after this one, the items after
 * this item), and items_reset_at makes the lines again around one
 * partition or item.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/doctor.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/entity_filter.h"
#include "ui/fmt.h"
#include "ui/live.h"
#include "ui/marks.h"
#include "ui/staging.h"
#include "ui/text.h"
#include "ui/view_items_int.h"

/* The partition after (dir > 0) or before `from` (NULL: the first or
 * last). */
bool items_part_next(items_view *p, const av *from, int dir, part_info *out)
{
    diag d;
    size_t n = 0;
    diag_init(&d);
    status st = store_partitions(display_store(), p->table, index_name(p), from,
                                 dir < 0, 1, out, &n, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        p->failed = true;
        return false;
    }
    return n == 1;
}

/* The counts of partition pk (false when there is no such partition). */
bool items_part_lookup(items_view *p, const av *pk, part_info *out)
{
    store_info info;
    store_get_info(display_store(), &info);
    if (info.remote) {
        /* Remotely the partition before may not be known (a Scan reads
         * forward only): the partition itself. */
        diag d;
        bool found = false;
        diag_init(&d);
        status st = store_partition_meet(display_store(), p->table, index_name(p), pk, out, &found, &d);
        if (st != ST_OK) {
            display_diag(NULL, st, &d);
            p->failed = true;
        }
        return found;
    }
    part_info prev;
    bool has_prev = items_part_next(p, pk, -1, &prev);
    bool ok = items_part_next(p, has_prev ? &prev.pk : NULL, 1, out);
    if (has_prev)
        av_done(&prev.pk);
    if (ok && !av_equal(&out->pk, pk)) {
        av_done(&out->pk);
        ok = false;
    }
    return ok;
}

size_t items_page(items_view *p, const av *pk, const av *after, bool fwd,
                   size_t max, av *items)
{
    diag d;
    size_t n = 0;
    diag_init(&d);
    status st = p->filter ? entity_filter_page(p->filter, display_store(), p->table, index_name(p),
                                               pk, after, fwd, max, items, &n, &d)
                          : store_page(display_store(), p->table, index_name(p), pk, after,
                                       fwd, max, items, &n, &d);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        p->failed = true;
        return 0;
    }
    /* Staged new items show in their partition (an index shows the store). */
    return p->ix < 0 ? staging_merge_page(p->table, &p->def, pk, after, fwd, max, items, n) : n;
}

/* items_part_next, passing over partitions with no item of the filter's
 * entity. */
static bool part_next_shown(items_view *p, const av *from, int dir, part_info *out)
{
    if (!items_part_next(p, from, dir, out))
        return false;
    while (p->filter) {
        av one = { .type = AV_NONE };
        size_t n = items_page(p, &out->pk, NULL, true, 1, &one);
        av_done(&one);
        if (n || p->failed)
            return !p->failed;
        part_info next;
        bool more = items_part_next(p, &out->pk, dir, &next);
        av_done(&out->pk);
        if (!more)
            return false;
        *out = next;
    }
    return true;
}

static size_t chunk_of(view *v)
{
    size_t c = v->vm.rows + 8;
    return c < 16 ? 16 : c;
}

irow *items_group_row(part_info *pi)
{
    irow *r = items_row_new();
    av_move(&r->pk, &pi->pk);
    r->items = pi->items;
    r->bytes = pi->bytes;
    return r;
}

bool items_remote(void)
{
    store_info info;
    store_get_info(display_store(), &info);
    return info.remote;
}

/* A partition's count; a remote one not counted when its header was made
 * is looked up again (a page may have held all of it since). */
uint64_t items_group_count(items_view *p, const irow *r)
{
    if (r->items == STORE_ITEMS_UNKNOWN)
        store_partition_counted(display_store(), p->table, index_name(p), &r->pk,
                                &((irow *)r)->items);
    return r->items;
}

/* HOT: far above the other partitions of the table or index shown
 * (doctor_hot, the doctor's rule; a remote Scan of the keys tells no
 * sizes, so items alone there). */
bool items_is_hot(const items_view *p, const irow *r)
{
    /* A remote partition not counted, or a remote table's partitions
     * found so far against DescribeTable's six-hourly ItemCount, give no
     * rest to be far above: an endpoint's table shows no HOT. */
    if (r->items == STORE_ITEMS_UNKNOWN || p->vst.approximate)
        return false;
    bool sizes = !items_remote();
    return doctor_hot(r->items, sizes ? r->bytes : 0, p->vst.items, sizes ? p->vst.bytes : 0,
                      p->vst.partitions);
}

/* The most items of a partition read to count an entity's in it. */
#define ENTITY_COUNT_MAX 4096

void items_group_shown(items_view *p, irow *r)
{
    if (!p->filter || r->counted)
        return;
    r->counted = true;
    /* An endpoint's partition is not read again for a header. */
    store_info info;
    store_get_info(display_store(), &info);
    if (info.remote)
        return;
    diag d;
    diag_init(&d);
    r->shown_known = entity_filter_count(p->filter, display_store(), p->table, index_name(p), &r->pk,
                                         ENTITY_COUNT_MAX, &r->shown, &r->shown_bytes, &d);
}

static size_t more_fwd(view *v)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    size_t chunk = chunk_of(v);
    const av *after_pk = NULL;

    if (m->n) {
        line *l = &m->lines[m->n - 1];
        int lkind = l->kind;   /* l dangles once lines are appended */
        irow *r = l->data;     /* rows are heap objects: r and pk stay valid */
        const av *pk = line_pk(p, l);
        if (!pk)
            return 0;
        bool load = lkind == L_GROUP ? !items_is_folded(p, pk) : !r->last;
        if (load) {
            av *items = xcalloc(chunk, sizeof *items);
            size_t n = items_page(p, pk, lkind == L_ITEM ? &r->item : NULL, true, chunk, items);
            for (size_t i = 0; i < n; i++) {
                irow *ir = items_row_new();
                av_move(&ir->item, &items[i]);
                ir->first = lkind == L_GROUP && i == 0;
                ir->last = i + 1 == n && n < chunk;
                vm_append(m, L_ITEM, ir);
            }
            free(items);
            if (n)
                return n;
            if (lkind == L_ITEM)
                r->last = true;
            /* pk may point into the last line, which stays alive. */
        }
        after_pk = pk;
    }
    part_info pi;
    if (!part_next_shown(p, after_pk, 1, &pi))
        return 0;
    vm_append(m, L_GROUP, items_group_row(&pi));
    return 1;
}

/* Prepends the header of partition pk; 0 when it cannot be found. */
static size_t prepend_header(view *v, const av *pk)
{
    items_view *p = v->priv;
    part_info pi;
    if (!items_part_lookup(p, pk, &pi))
        return 0;
    line l = { L_GROUP, items_group_row(&pi) };
    vm_prepend(&v->vm, &l, 1);
    return 1;
}

static size_t more_bwd(view *v)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    size_t chunk = chunk_of(v);
    if (!m->n)
        return 0;

    line *f = &m->lines[0];
    int fkind = f->kind;   /* f dangles once lines are prepended */
    irow *r = f->data;
    av pk_copy = { 0 };
    const av *from = NULL;
    size_t added = 0;

    if (f->kind == L_ITEM) {
        const av *pk = item_pk(p, &r->item);
        if (!pk)
            return 0;
        av_copy(&pk_copy, pk);
        if (!r->first)
            from = &r->item;
    } else {
        part_info q;
        if (!part_next_shown(p, &r->pk, -1, &q))
            return 0;
        if (items_is_folded(p, &q.pk)) {
            line l = { L_GROUP, items_group_row(&q) };
            vm_prepend(m, &l, 1);
            return 1;
        }
        av_move(&pk_copy, &q.pk);
        r = NULL;   /* items of q come from its end */
    }

    bool reached_start = fkind == L_ITEM && r && r->first;
    if (!reached_start) {
        av *items = xcalloc(chunk, sizeof *items);
        size_t n = items_page(p, &pk_copy, from, false, chunk, items);
        line *ls = xcalloc(n ? n : 1, sizeof *ls);
        for (size_t i = 0; i < n; i++) {
            irow *ir = items_row_new();
            av_move(&ir->item, &items[i]);
            ir->first = i + 1 == n && n < chunk;
            ir->last = from == NULL && i == 0;
            ls[n - 1 - i].kind = L_ITEM;
            ls[n - 1 - i].data = ir;
        }
        vm_prepend(m, ls, n);
        added += n;
        free(ls);
        free(items);
        reached_start = n < chunk;
        if (n == 0 && fkind == L_ITEM)
            ((irow *)m->lines[0].data)->first = true;
    }
    if (reached_start)
        added += prepend_header(v, &pk_copy);
    av_done(&pk_copy);
    return added;
}

/* Where the line holding data is now (data: a row that was there). */
static size_t line_of(const vm *m, const void *data, bool from_end)
{
    for (size_t k = 0; k < m->n; k++) {
        size_t i = from_end ? m->n - 1 - k : k;
        if (m->lines[i].data == data)
            return i;
    }
    return from_end ? m->n - 1 : 0;
}

/* Loads past the window's edge; returns the lines added there, the
 * names lines the new rows need included. */
size_t items_more(view *v, int dir)
{
    vm *m = &v->vm;
    items_names_fix(v);   /* after a trim: the window's edges as the rule wants */
    if (!m->n) {
        size_t n = dir > 0 ? more_fwd(v) : more_bwd(v);
        items_names_fix(v);
        return n ? m->n : 0;
    }
    const void *edge = dir > 0 ? m->lines[m->n - 1].data : m->lines[0].data;
    size_t n = dir > 0 ? more_fwd(v) : more_bwd(v);
    if (!n)
        return 0;
    items_names_fix(v);
    return dir > 0 ? m->n - 1 - line_of(m, edge, true) : line_of(m, edge, false);
}


static void reset_lines(view *v, const av *pk, const av *item);

/* The window at the end of partition pi (its pk taken): one page read
 * backward, its header above it when the page holds the whole partition;
 * the last item selected. A remote table's G, where reading the
 * partition forward to its end would read all of it. */
void items_load_end(view *v, part_info *pi)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    vm_clear(m);
    items_pos_reset(&p->pos);
    if (p->sticky) {
        items_free_line(v, &(line){ L_GROUP, p->sticky });
        p->sticky = NULL;
    }
    size_t chunk = chunk_of(v);
    av *items = xcalloc(chunk, sizeof *items);
    size_t n = items_is_folded(p, &pi->pk) ? 0 : items_page(p, &pi->pk, NULL, false, chunk, items);
    if (n < chunk)
        vm_append(m, L_GROUP, items_group_row(pi));
    else
        av_done(&pi->pk);
    for (size_t i = n; i-- > 0;) {
        irow *r = items_row_new();
        av_move(&r->item, &items[i]);
        r->first = i + 1 == n && n < chunk;
        r->last = i == 0;
        vm_append(m, L_ITEM, r);
    }
    free(items);
    if (m->n) {
        vm_select(m, m->n - 1);
        vm_set_top(m, m->n > m->rows ? m->n - m->rows : 0);
    }
    items_names_fix(v);
    display_fill(v);
}

/* Reloads the window at partition pk (NULL: the first), selecting item
 * when given and found. */
void items_reset_at(view *v, const av *pk, const av *item)
{
    reset_lines(v, pk, item);
    items_names_fix(v);
}

static void reset_lines(view *v, const av *pk, const av *item)
{
    items_view *p = v->priv;
    vm *m = &v->vm;
    vm_clear(m);
    items_pos_reset(&p->pos);   /* counts may have changed */
    if (p->sticky) {
        items_free_line(v, &(line){ L_GROUP, p->sticky });
        p->sticky = NULL;
    }
    if (!pk) {
        display_fill(v);
        return;
    }
    part_info pi;
    p->failed = false;
    if (!items_part_lookup(p, pk, &pi)) {
        if (p->failed)
            return;   /* the store's error is on the status line; R tries again */
        /* Gone (its last item deleted): where it was, at the partition
         * after it, else the one before. */
        if (part_next_shown(p, pk, 1, &pi) || part_next_shown(p, pk, -1, &pi)) {
            vm_append(m, L_GROUP, items_group_row(&pi));
            vm_center(m, m->rows / 3);
        }
        display_fill(v);
        return;
    }
    if (!item || items_is_folded(p, pk)) {
        vm_append(m, L_GROUP, items_group_row(&pi));
        display_fill(v);
        return;
    }
    /* Items before the selected one, then the page that starts with it. */
    size_t half = m->rows / 3 + 1, chunk = chunk_of(v);
    av *before = xcalloc(half, sizeof *before);
    size_t nb = items_page(p, pk, item, false, half, before);
    if (nb < half)
        vm_append(m, L_GROUP, items_group_row(&pi));
    else
        av_done(&pi.pk);
    for (size_t i = nb; i-- > 0;) {
        irow *r = items_row_new();
        av_move(&r->item, &before[i]);
        r->first = i + 1 == nb && nb < half;
        vm_append(m, L_ITEM, r);
    }
    free(before);
    /* Where the item is, or would be when it is gone (deleted). */
    size_t sel = m->n;
    av *items = xcalloc(chunk, sizeof *items);
    const av *after = m->n && m->lines[m->n - 1].kind == L_ITEM
                          ? &((irow *)m->lines[m->n - 1].data)->item : NULL;
    size_t n = items_page(p, pk, after, true, chunk, items);
    for (size_t i = 0; i < n; i++) {
        irow *r = items_row_new();
        av_move(&r->item, &items[i]);
        r->first = !after && i == 0;
        r->last = i + 1 == n && n < chunk;
        vm_append(m, L_ITEM, r);
    }
    free(items);
    for (size_t i = 0; i < m->n; i++)
        if (m->lines[i].kind == L_ITEM && table_def_same_item(&p->def, &((irow *)m->lines[i].data)->item, item)) {
            sel = i;
            break;
        }
    vm_select(m, sel);
    vm_center(m, m->rows / 3);
    display_fill(v);
}
