/*
 * tdiff — a key-ordered merge of two table states (see tdiff.h).
 */
#include "model/tdiff.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/keyenc.h"
#include "model/mem.h"

typedef struct side {
    tdiff_side s;
    av item;            /* the next item, when have */
    bool have, end;
    bool started;       /* prev holds the key of an item read before */
    buf key, prev;      /* the item's key encoding; the one before it */
} side;

struct tdiff {
    key_attr pk, sk;
    side side[2];
    av held[2];         /* the items of the event handed out */
    itemdiff_change *ch;
    size_t *ch_off;     /* where each change's path starts in segs */
    size_t n_ch, cap_ch;
    itemdiff_seg *segs;
    size_t n_segs, cap_segs;
    buf prefix;
    tdiff_summary sum;
};

const char *tdiff_kind_name(tdiff_kind k)
{
    return k == TDIFF_ADDED ? "added" : k == TDIFF_REMOVED ? "removed" : "changed";
}

tdiff *tdiff_new(const key_attr *pk, const key_attr *sk, tdiff_side a, tdiff_side b)
{
    assert(pk && pk->name && a.next && b.next);
    tdiff *t = xcalloc(1, sizeof *t);
    t->pk = *pk;
    if (sk && sk->name)
        t->sk = *sk;
    t->side[0].s = a;
    t->side[1].s = b;
    return t;
}

void tdiff_free(tdiff *t)
{
    if (!t)
        return;
    for (int i = 0; i < 2; i++) {
        av_done(&t->side[i].item);
        buf_done(&t->side[i].key);
        buf_done(&t->side[i].prev);
        av_done(&t->held[i]);
    }
    for (size_t i = 0; i < t->sum.n_prefixes; i++)
        free(t->sum.prefixes[i].prefix);
    free(t->ch);
    free(t->ch_off);
    free(t->segs);
    buf_done(&t->prefix);
    free(t);
}

const tdiff_summary *tdiff_get_summary(const tdiff *t)
{
    return &t->sum;
}

static int bytes_cmp(const buf *x, const buf *y)
{
    size_t n = x->len < y->len ? x->len : y->len;
    int c = n ? memcmp(x->data, y->data, n) : 0;
    if (c)
        return c;
    return x->len < y->len ? -1 : x->len > y->len;
}

void tdiff_key_text(const key_attr *pk, const key_attr *sk, const av *item, buf *out)
{
    const key_attr *k[2] = { pk, sk };
    for (int i = 0; i < 2 && k[i] && k[i]->name; i++) {
        const av *v = av_map_get(item, k[i]->name, strlen(k[i]->name));
        if (i)
            buf_addc(out, ' ');
        itemdiff_seg seg = { k[i]->name, strlen(k[i]->name), 0 };
        itemdiff_path_text(&seg, 1, out);
        buf_addc(out, '=');
        if (v)
            itemdiff_value_text(v, 0, out);
        else
            buf_adds(out, "(none)");
    }
}

/* The key attribute ka of item, encoded onto out; a validation error
 * naming the side and the item when it is missing or of another type. */
static status key_part(const tdiff *t, const side *s, const key_attr *ka, const av *item,
                       buf *out, diag *d)
{
    const av *v = av_map_get(item, ka->name, strlen(ka->name));
    if (v && v->type == ka->type) {
        keyenc_append(out, v);
        return ST_OK;
    }
    buf b = BUF_INIT;
    tdiff_key_text(&t->pk, &t->sk, item, &b);
    if (v)
        diag_set(d, ST_VALIDATION, "%s: the item %s has its key attribute %s of type %s, "
                 "not %s", s->s.name, b.data, ka->name, av_type_name(v->type),
                 av_type_name(ka->type));
    else
        diag_set(d, ST_VALIDATION, "%s: an item without the key attribute %s: %s",
                 s->s.name, ka->name, b.data);
    buf_done(&b);
    return ST_VALIDATION;
}

/* Reads the side's next item unless one is waiting. */
static status fill(tdiff *t, int i, diag *d)
{
    side *s = &t->side[i];
    if (s->have || s->end)
        return ST_OK;
    status st = s->s.next(s->s.ctx, &s->item, &s->end, d);
    if (st != ST_OK || s->end)
        return st;
    assert(s->item.type == AV_M);
    buf tmp = s->prev;
    s->prev = s->key;
    s->key = tmp;
    buf_reset(&s->key);
    st = key_part(t, s, &t->pk, &s->item, &s->key, d);
    if (st == ST_OK && t->sk.name)
        st = key_part(t, s, &t->sk, &s->item, &s->key, d);
    if (st == ST_OK && s->started && bytes_cmp(&s->prev, &s->key) >= 0) {
        buf b = BUF_INIT;
        tdiff_key_text(&t->pk, &t->sk, &s->item, &b);
        st = diag_set(d, ST_VALIDATION, "%s is not in key order: %s %s the item before it",
                      s->s.name, b.data, bytes_cmp(&s->prev, &s->key) ? "comes before" : "repeats");
        buf_done(&b);
    }
    if (st != ST_OK) {
        av_done(&s->item);
        return st;
    }
    s->started = true;
    s->have = true;
    if (i == 0)
        t->sum.items_a++;
    else
        t->sum.items_b++;
    return ST_OK;
}

static void collect(void *ctx, const itemdiff_change *c)
{
    tdiff *t = ctx;
    if (t->n_ch == t->cap_ch) {
        t->cap_ch = t->cap_ch ? t->cap_ch * 2 : 16;
        t->ch = xrealloc(t->ch, t->cap_ch * sizeof *t->ch);
        t->ch_off = xrealloc(t->ch_off, t->cap_ch * sizeof *t->ch_off);
    }
    if (t->n_segs + c->depth > t->cap_segs) {
        while (t->n_segs + c->depth > t->cap_segs)
            t->cap_segs = t->cap_segs ? t->cap_segs * 2 : 32;
        t->segs = xrealloc(t->segs, t->cap_segs * sizeof *t->segs);
    }
    memcpy(t->segs + t->n_segs, c->path, c->depth * sizeof *c->path);
    t->ch[t->n_ch] = *c;
    t->ch_off[t->n_ch++] = t->n_segs;
    t->n_segs += c->depth;
}

/* The counts of the item's entity prefix (t->prefix holds it after). */
static tdiff_counts *counts_for(tdiff *t, const av *item)
{
    const key_attr *k = t->sk.name ? &t->sk : &t->pk;
    buf_reset(&t->prefix);
    schema_key_prefix(av_map_get(item, k->name, strlen(k->name)), &t->prefix);
    const char *p = t->prefix.data ? t->prefix.data : "";
    tdiff_summary *s = &t->sum;
    for (size_t i = 0; i < s->n_prefixes; i++)
        if (strcmp(s->prefixes[i].prefix, p) == 0)
            return &s->prefixes[i].c;
    if (s->n_prefixes < TDIFF_PREFIXES) {
        tdiff_prefix *x = &s->prefixes[s->n_prefixes++];
        x->prefix = xstrdup(p);
        return &x->c;
    }
    s->has_other = true;
    return &s->other;
}

status tdiff_next(tdiff *t, tdiff_event *ev, bool *done, diag *d)
{
    *done = false;
    av_done(&t->held[0]);
    av_done(&t->held[1]);
    t->n_ch = t->n_segs = 0;
    for (;;) {
        status st = fill(t, 0, d);
        if (st == ST_OK)
            st = fill(t, 1, d);
        if (st != ST_OK)
            return st;
        side *a = &t->side[0], *b = &t->side[1];
        if (a->end && b->end) {
            *done = true;
            return ST_OK;
        }
        int c = a->end ? 1 : b->end ? -1 : bytes_cmp(&a->key, &b->key);
        if (c <= 0) {
            av_move(&t->held[0], &a->item);
            a->have = false;
        }
        if (c >= 0) {
            av_move(&t->held[1], &b->item);
            b->have = false;
        }
        tdiff_counts *k = counts_for(t, c <= 0 ? &t->held[0] : &t->held[1]);
        memset(ev, 0, sizeof *ev);
        ev->a = c <= 0 ? &t->held[0] : NULL;
        ev->b = c >= 0 ? &t->held[1] : NULL;
        ev->prefix = t->prefix.data ? t->prefix.data : "";
        if (c < 0) {
            ev->kind = TDIFF_REMOVED;
            k->removed++;
            t->sum.total.removed++;
            return ST_OK;
        }
        if (c > 0) {
            ev->kind = TDIFF_ADDED;
            k->added++;
            t->sum.total.added++;
            return ST_OK;
        }
        if (itemdiff_items(&t->held[0], &t->held[1], collect, t) == 0) {
            k->same++;
            t->sum.total.same++;
            av_done(&t->held[0]);
            av_done(&t->held[1]);
            continue;
        }
        for (size_t i = 0; i < t->n_ch; i++)
            t->ch[i].path = t->segs + t->ch_off[i];
        ev->kind = TDIFF_CHANGED;
        ev->changes = t->ch;
        ev->n_changes = t->n_ch;
        k->changed++;
        t->sum.total.changed++;
        return ST_OK;
    }
}
