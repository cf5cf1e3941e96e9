/*
 * itemdiff — item differences by document path (see itemdiff.h).
 */
#include "model/itemdiff.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

typedef struct walk {
    itemdiff_fn fn;
    void *ctx;
    itemdiff_seg path[ITEMDIFF_MAX_DEPTH];
    size_t depth;
    size_t n;
} walk;

static void report(walk *w, const av *old_v, const av *new_v)
{
    w->n++;
    if (!w->fn)
        return;
    itemdiff_change c = { w->path, w->depth, old_v, new_v };
    w->fn(w->ctx, &c);
}

/* Member names in the maps' own order (av.h: bytewise, shorter first). */
static int name_cmp(const av_member *x, const av_member *y)
{
    size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
    int c = memcmp(x->name, y->name, n);
    if (c)
        return c;
    return x->name_len < y->name_len ? -1 : x->name_len > y->name_len;
}

static void value(walk *w, const av *a, const av *b);

static void member(walk *w, const av_member *m, const av *a, const av *b)
{
    w->path[w->depth++] = (itemdiff_seg){ m->name, m->name_len, 0 };
    value(w, a, b);
    w->depth--;
}

/* Two maps: a merge of their sorted members. */
static void maps(walk *w, const av *a, const av *b)
{
    size_t i = 0, j = 0;
    size_t na = a ? a->u.m.len : 0, nb = b ? b->u.m.len : 0;
    while (i < na || j < nb) {
        const av_member *x = i < na ? &a->u.m.v[i] : NULL;
        const av_member *y = j < nb ? &b->u.m.v[j] : NULL;
        int c = !x ? 1 : !y ? -1 : name_cmp(x, y);
        if (c < 0) {
            member(w, x, &x->val, NULL);
            i++;
        } else if (c > 0) {
            member(w, y, NULL, &y->val);
            j++;
        } else {
            member(w, x, &x->val, &y->val);
            i++;
            j++;
        }
    }
}

/* Two lists: element by element, then the longer one's tail. */
static void lists(walk *w, const av *a, const av *b)
{
    size_t n = a->u.l.len > b->u.l.len ? a->u.l.len : b->u.l.len;
    for (size_t i = 0; i < n; i++) {
        w->path[w->depth++] = (itemdiff_seg){ NULL, 0, i };
        value(w, i < a->u.l.len ? &a->u.l.v[i] : NULL, i < b->u.l.len ? &b->u.l.v[i] : NULL);
        w->depth--;
    }
}

static void value(walk *w, const av *a, const av *b)
{
    if (!a || !b) {
        report(w, a, b);
        return;
    }
    if (a->type == b->type && w->depth < ITEMDIFF_MAX_DEPTH) {
        if (a->type == AV_M) {
            maps(w, a, b);
            return;
        }
        if (a->type == AV_L) {
            lists(w, a, b);
            return;
        }
    }
    /* Scalars, sets (kept sorted, so equal sets are equal element-wise),
     * numbers by value: av_equal. */
    if (!av_equal(a, b))
        report(w, a, b);
}

size_t itemdiff_items(const av *a, const av *b, itemdiff_fn fn, void *ctx)
{
    assert(a->type == AV_M || a->type == AV_NONE);
    assert(b->type == AV_M || b->type == AV_NONE);
    walk w = { .fn = fn, .ctx = ctx };
    maps(&w, a->type == AV_M ? a : NULL, b->type == AV_M ? b : NULL);
    return w.n;
}

/* ---- printing ---------------------------------------------------------- */

static void itemdiff_quote(buf *out, const char *p, size_t n);

/* Bytes of the UTF-8 sequence at p (at most n), 0 when it is not one or
 * is a C1 control. */
static size_t utf8_char(const unsigned char *p, size_t n)
{
    size_t k = p[0] >= 0xF0 && p[0] < 0xF5 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC2 ? 2 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if (p[0] == 0xC2 && p[1] < 0xA0)
        return 0;   /* U+0080..U+009F */
    return k;
}

static bool plain_name(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        if (c >= 0x80) {
            size_t k = utf8_char(p + i, n - i);
            if (!k)
                return false;
            i += k;
            continue;
        }
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '#' || c == ':'))
            return false;
        i++;
    }
    return true;
}

void itemdiff_path_text(const itemdiff_seg *path, size_t n, buf *out)
{
    for (size_t i = 0; i < n; i++) {
        const itemdiff_seg *s = &path[i];
        if (!s->name) {
            buf_printf(out, "[%zu]", s->index);
            continue;
        }
        if (i)
            buf_addc(out, '.');
        if (plain_name(s->name, s->name_len))
            buf_add(out, s->name, s->name_len);
        else
            itemdiff_quote(out, s->name, s->name_len);
    }
}

void itemdiff_json_safe(buf *b, size_t from)
{
    size_t i = from;
    while (i < b->len && (unsigned char)b->data[i] != 0x7f &&
           !((unsigned char)b->data[i] == 0xC2 && i + 1 < b->len &&
             (unsigned char)b->data[i + 1] >= 0x80 && (unsigned char)b->data[i + 1] < 0xA0))
        i++;
    if (i >= b->len)
        return;
    size_t tail_len = b->len - i;
    char *tail = xmemdup(b->data + i, tail_len);
    b->len = i;
    for (size_t k = 0; k < tail_len; k++) {
        unsigned char c = (unsigned char)tail[k];
        if (c == 0x7f) {
            buf_adds(b, "\\u007f");
        } else if (c == 0xC2 && k + 1 < tail_len && (unsigned char)tail[k + 1] >= 0x80 &&
                   (unsigned char)tail[k + 1] < 0xA0) {
            buf_printf(b, "\\u00%02x", (unsigned char)tail[k + 1]);
            k++;
        } else {
            buf_addc(b, (char)c);
        }
    }
    free(tail);
}

/* Appends a JSON string literal of p[0..n) with DEL and the C1 controls
 * (U+0080..U+009F) escaped as well as what JSON requires: the same
 * string to a JSON reader, nothing a terminal acts on. */
static void itemdiff_quote(buf *out, const char *p, size_t n)
{
    size_t start = out->len;
    ddbjson_write_string(out, p, n);
    itemdiff_json_safe(out, start);
}

void itemdiff_value_text(const av *v, size_t max, buf *out)
{
    size_t start = out->len;
    switch (v->type) {
    case AV_S:
        itemdiff_quote(out, v->u.s.ptr, v->u.s.len);
        break;
    case AV_N:
    case AV_BOOL:
    case AV_NULL:
        av_scalar_text(v, out);
        break;
    default:
        ddbjson_write_value(out, v);
        itemdiff_json_safe(out, start);
        break;
    }
    if (max == 0 || out->len - start <= max)
        return;
    /* Cut on a character boundary. */
    size_t cut = start + max;
    while (cut > start && ((unsigned char)out->data[cut] & 0xC0) == 0x80)
        cut--;
    out->len = cut;
    out->data[cut] = '\0';
    buf_adds(out, "\xe2\x80\xa6");
}
