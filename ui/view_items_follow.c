/*
 * view_items_follow — f in the table view (see ui/view_items_int.h): the
 * partitions an item's attribute values name (an edge), each opened as a
 * table view of its own, f on its header going on to the next.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/mem.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/live.h"
#include "ui/marks.h"
#include "ui/staging.h"
#include "ui/text.h"
#include "ui/view_items_int.h"

/* Candidate partition values an edge value may name: itself, then each
 * suffix after a '#' (ENROLL#CRS#math204 -> CRS#math204, math204). */
static size_t edge_candidates(const char *s, size_t n, const char **out, size_t *lens, size_t max)
{
    size_t k = 0;
    out[k] = s;
    lens[k++] = n;
    for (size_t i = 0; i < n && k < max; i++)
        if (s[i] == '#' && i + 1 < n) {
            out[k] = s + i + 1;
            lens[k++] = n - i - 1;
        }
    return k;
}

static bool partition_exists(items_view *p, const char *index, const av *pk)
{
    diag d;
    diag_init(&d);
    if (items_remote()) {
        /* A partition already met costs nothing; else a Query of Limit 1. */
        part_info pi;
        bool found = false;
        if (store_partition_meet(display_store(), p->table, index, pk, &pi, &found, &d) != ST_OK)
            return false;
        if (found)
            av_done(&pi.pk);
        return found;
    }
    av one;
    size_t n = 0;
    if (store_page(display_store(), p->table, index, pk, NULL, true, 1, &one, &n, &d) != ST_OK)
        return false;
    if (n)
        av_done(&one);
    return n > 0;
}

/* On an endpoint each probe is a request: the candidates are listed
 * unprobed and probed in order only as far as the one opened (issue 42):
 * the first that exists from `from` on (wrapping), the misses before it
 * dropped; *n when none does. */
static size_t first_existing(items_view *p, ftarget *t, size_t *n, size_t from)
{
    size_t i = from < *n ? from : 0;
    for (size_t tries = *n; tries > 0 && *n; tries--) {
        if (partition_exists(p, t[i].index, &t[i].pk))
            return i;
        free(t[i].index);
        av_done(&t[i].pk);
        memmove(&t[i], &t[i + 1], (*n - i - 1) * sizeof *t);
        (*n)--;
        if (i >= *n)
            i = 0;
    }
    return *n;
}

/* The shape of a partition key value: its text up to its first '#'
 * (ACTOR# of ACTOR#p001), the whole of it when it has none. */
static size_t shape_len(const av *v)
{
    const char *h = memchr(v->u.s.ptr, '#', v->u.s.len);
    return h ? (size_t)(h - v->u.s.ptr) + 1 : v->u.s.len;
}

/* Whether target t has the shape of a partition met in its table or
 * index (ACTOR#p001 where ACTOR#p000 was met; not TARGET#p001 there). A
 * value with no '#' has none. */
static bool has_met_shape(const items_view *p, const ftarget *t)
{
    if (t->pk.type != AV_S)
        return false;
    size_t n = shape_len(&t->pk);
    return n < t->pk.u.s.len &&
           store_partition_shape_met(display_store(), p->table, t->index, t->pk.u.s.ptr, n);
}

static void drop_target(ftarget *t, size_t *n, size_t i)
{
    free(t[i].index);
    av_done(&t[i].pk);
    memmove(&t[i], &t[i + 1], (*n - i - 1) * sizeof *t);
    (*n)--;
}

/* On an endpoint, f's probes (issue 42: they went one after another):
 * the first candidate, in f's order, with the shape of a partition met in
 * its table or index (ACTOR#p001 where ACTOR#p000 was) is moved first and
 * probed alone, a Query of Limit 1; when it exists it opens (then its
 * screen: 2 requests in all). Else the others are probed together
 * (store_partitions_meet: one round trip) and the misses dropped. The
 * index of the target to open; *n when none exists, or on an error
 * (said). */
static size_t first_existing_remote(items_view *p, ftarget *t, size_t *n)
{
    for (size_t i = 0; i < *n; i++)
        if (has_met_shape(p, &t[i])) {
            ftarget first = t[i];
            memmove(&t[1], &t[0], i * sizeof *t);
            t[0] = first;
            if (partition_exists(p, t[0].index, &t[0].pk))
                return 0;
            drop_target(t, n, 0);
            break;
        }
    if (!*n)
        return 0;
    const char **ix = xcalloc(*n, sizeof *ix);
    av *pks = xcalloc(*n, sizeof *pks);
    bool *found = xcalloc(*n, sizeof *found);
    for (size_t i = 0; i < *n; i++) {
        ix[i] = t[i].index;
        pks[i] = t[i].pk;   /* shallow: only read */
    }
    diag d;
    diag_init(&d);
    status st = store_partitions_meet(display_store(), p->table, *n, ix, pks, found, &d);
    for (size_t i = *n; st == ST_OK && i-- > 0;)
        if (!found[i])
            drop_target(t, n, i);
    free(ix);
    free(pks);
    free(found);
    if (st != ST_OK) {
        display_diag(NULL, st, &d);
        return *n;
    }
    return 0;
}

/* Opens target k of t (n of them, given to the new view), saying where
 * f goes next. */
static void follow_to(const char *table, const char *via, ftarget *t, size_t n, size_t k)
{
    items_arg a = { table, t[k].index, &t[k].pk, NULL };
    buf b = BUF_INIT, next = BUF_INIT;
    fmt_cell(&b, &t[k].pk, 80);
    if (n > 1 && items_remote()) {
        buf_adds(&next, "; f again: the next partition it may name");
    } else if (n > 1) {
        const ftarget *o = &t[(k + 1) % n];
        buf_adds(&next, "; f again: ");
        fmt_cell(&next, &o->pk, 80);
        buf_printf(&next, "%s%s", o->index ? " in " : "", o->index ? o->index : "");
    }
    char *via_copy = xstrdup(via);
    view *nv = display_push(&view_items_ops, &a);
    if (nv) {
        items_view *np = nv->priv;
        np->fol = t;
        np->n_fol = n;
        np->fol_at = k;
        np->fol_via = via_copy;
        display_message("Followed %s to %s%s%s (q: back%s)", via, b.data, t[k].index ? " in " : "",
                        t[k].index ? t[k].index : "", next.len ? next.data : "");
    } else {
        items_ftargets_free(t, n);
        free(via_copy);
    }
    buf_done(&b);
    buf_done(&next);
}

/* f on the header of a partition f opened: the next partition the same
 * edge led to (bob's own collection, then who follows bob in GSI1).
 * False when this is not such a header. */
static bool follow_next(view *v)
{
    items_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (p->n_fol < 2 || !l || l->kind != L_GROUP ||
        !av_equal(&((irow *)l->data)->pk, &p->fol[p->fol_at].pk))
        return false;
    ftarget *t = p->fol;
    size_t n = p->n_fol, k = (p->fol_at + 1) % n;
    if (items_remote()) {
        k = first_existing(p, t, &n, k);
        if (k >= n) {
            p->n_fol = n;
            display_error("No other partition named by %s exists", p->fol_via);
            return true;
        }
    }
    char *table = xstrdup(p->table), *via = p->fol_via;
    p->fol = NULL;
    p->n_fol = 0;
    p->fol_via = NULL;
    display_pop();   /* this view; the next target takes its place */
    follow_to(table, via, t, n, k);
    free(table);
    free(via);
    return true;
}

/* Adds the target (ixn, value) when that partition exists and is not
 * already listed (nor the one the edge is in). */
static void add_target(items_view *p, const char *ixn, const char *s, size_t len, const av *own,
                       ftarget *t, size_t *n, size_t max, bool probe)
{
    if (*n >= max)
        return;
    av target;
    av_init_s(&target, s, len);
    bool dup = own && av_equal(&target, own) && ixn == index_name(p);
    for (size_t i = 0; i < *n && !dup; i++)
        dup = av_equal(&t[i].pk, &target) &&
              ((!t[i].index && !ixn) || (t[i].index && ixn && strcmp(t[i].index, ixn) == 0));
    if (!dup && (!probe || partition_exists(p, ixn, &target))) {
        t[*n].index = ixn ? xstrdup(ixn) : NULL;
        av_move(&t[*n].pk, &target);
        (*n)++;
        return;
    }
    av_done(&target);
}

/* Follows the edge named by the selected item's sort key, to each
 * partition it names, in this order: one of this view or the base table
 * named by the value or a suffix of it (ENROLL#CRS#math204 ->
 * CRS#math204); the same entity under this partition's prefix, its own
 * collection (TARGET#bob from ACTOR#alice -> ACTOR#bob); then the value's
 * partition in each index (the inverted view: who follows bob). The
 * first opens; f on its header goes to the next. */
void items_follow(view *v)
{
    items_view *p = v->priv;
    if (follow_next(v))
        return;
    const av *item = items_selected_item(v);
    if (!item || !p->sk) {
        display_error("Select an item whose sort key names another partition");
        return;
    }
    const av *skv = av_map_get(item, p->sk, strlen(p->sk));
    const av *own = item_pk(p, item);
    if (!skv || skv->type != AV_S) {
        display_error("The sort key is not a string naming a partition");
        return;
    }
    const char *cand[16];
    size_t lens[16];
    size_t nc = edge_candidates(skv->u.s.ptr, skv->u.s.len, cand, lens, 12);
    /* The same entity under this partition's prefix. */
    buf alt = BUF_INIT;
    if (own && own->type == AV_S && nc > 1) {
        const char *h = memchr(own->u.s.ptr, '#', own->u.s.len);
        if (h) {
            buf_add(&alt, own->u.s.ptr, (size_t)(h - own->u.s.ptr) + 1);
            buf_add(&alt, cand[nc - 1], lens[nc - 1]);
        }
    }
    /* This view and the base table first, then the other indexes. */
    const char *here[2] = { index_name(p), NULL };
    size_t nh = p->ix >= 0 ? 2 : 1;
    enum { MAX_TARGETS = 8 };
    ftarget *t = xcalloc(MAX_TARGETS, sizeof *t);
    bool probe = !items_remote();
    size_t n = 0;
    for (size_t w = 0; w < nh; w++)
        for (size_t c = 0; c < nc; c++)
            add_target(p, here[w], cand[c], lens[c], own, t, &n, MAX_TARGETS, probe);
    for (size_t w = 0; w < nh && alt.len; w++)
        add_target(p, here[w], alt.data, alt.len, own, t, &n, MAX_TARGETS, probe);
    for (size_t i = 0; i < p->def.n_idx; i++)
        if ((int)i != p->ix && p->def.idx[i].pk.type == AV_S)
            for (size_t c = 0; c < nc; c++)
                add_target(p, p->def.idx[i].name, cand[c], lens[c], own, t, &n, MAX_TARGETS, probe);
    buf_done(&alt);
    size_t k = probe ? 0 : first_existing_remote(p, t, &n);
    if (k >= n && n) {
        items_ftargets_free(t, n);   /* the probes failed: said */
        return;
    }
    if (!n) {
        free(t);
        buf b = BUF_INIT;
        fmt_cell(&b, skv, 80);
        display_error("No partition named by %s in the table or its indexes", b.data);
        buf_done(&b);
        return;
    }
    follow_to(p->table, p->sk, t, n, k);
}
