#include "ui/cols.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "ui/fmt.h"
#include "ui/term.h"
#include "ui/text.h"

static bool has(const cols *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->c[i].name, name) == 0)
            return true;
    return false;
}

static void add(cols *c, const char *name)
{
    if (c->n < COLS_MAX && !has(c, name)) {
        c->c[c->n].name = name;
        c->c[c->n].width = text_width(name, strlen(name));
        c->n++;
    }
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

void cols_compute(cols *c, const av *const *items, size_t n, const char *const *first,
                  size_t nfirst, const char *skip)
{
    c->n = 0;
    c->fixed = 1;
    if (n == 0)
        return;
    for (size_t k = 0; k < nfirst; k++)
        if (first[k] && (!skip || strcmp(first[k], skip) != 0))
            add(c, first[k]);
    size_t fixed = c->n;
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < items[i]->u.m.len; j++)
            if (!skip || strcmp(items[i]->u.m.v[j].name, skip) != 0)
                add(c, items[i]->u.m.v[j].name);
    /* Names sort as strings; the struct's first member is the name. */
    qsort(c->c + fixed, c->n - fixed, sizeof c->c[0], by_name);
    buf b = BUF_INIT;
    for (size_t k = 0; k < c->n; k++) {
        for (size_t i = 0; i < n; i++) {
            const av *val = av_map_get(items[i], c->c[k].name, strlen(c->c[k].name));
            if (!val)
                continue;
            buf_reset(&b);
            fmt_cell(&b, val, 64);
            int w = text_width(b.data, b.len);
            if (w > c->c[k].width)
                c->c[k].width = w;
        }
        if (c->c[k].width > COLS_WIDTH_MAX)
            c->c[k].width = COLS_WIDTH_MAX;
    }
    buf_done(&b);
}

/* Index of the k-th visible column. */
static size_t col_at(const cols *c, size_t k, int hscroll)
{
    size_t fixed = c->fixed ? c->fixed : 1;
    if (k < fixed || c->n < fixed)
        return k;
    size_t skip = hscroll > 0 ? (size_t)hscroll : 0;
    if (skip > c->n - fixed)
        skip = c->n - fixed;
    return k + skip;
}

int cols_draw_head(const cols *c, int row, int x, int width, int hscroll)
{
    int end = x;
    for (size_t k = 0; col_at(c, k, hscroll) < c->n && x < width; k++) {
        size_t i = col_at(c, k, hscroll);
        term_put(row, x, width - x < c->c[i].width ? width - x : c->c[i].width, c->c[i].name,
                 strlen(c->c[i].name), ROLE_COLHEAD, true);
        end = x + c->c[i].width;
        x += c->c[i].width + 2;
    }
    return end;
}

void cols_draw_item(const cols *c, const av *item, int row, int x, int width, int hscroll,
                    const table_def *def, const index_def *ix)
{
    buf b = BUF_INIT;
    for (size_t k = 0; col_at(c, k, hscroll) < c->n && x < width; k++) {
        size_t i = col_at(c, k, hscroll);
        const av *val = av_map_get(item, c->c[i].name, strlen(c->c[i].name));
        if (val) {
            buf_reset(&b);
            fmt_cell(&b, val, 64);
            bool key = def && table_def_is_key(def, ix, c->c[i].name);
            term_put(row, x, width - x < c->c[i].width ? width - x : c->c[i].width, b.data, b.len,
                     key ? ROLE_KEY : ROLE_NORMAL, true);
        }
        x += c->c[i].width + 2;
    }
    buf_done(&b);
}

/* Does an item of items[0..n) hold the attribute? */
static bool held(const av *const *items, size_t n, const char *name)
{
    for (size_t i = 0; i < n; i++)
        if (av_map_get(items[i], name, strlen(name)))
            return true;
    return false;
}

void cols_fit_lines(cols *c, const vm *m, int kind, size_t item_off, const char *const *first,
                    size_t nfirst, bool held_only)
{
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n, n = 0;
    const av *items[512];
    for (size_t i = m->top; i < end && n < 512; i++)
        if (m->lines[i].kind == kind)
            items[n++] = (const av *)((const char *)m->lines[i].data + item_off);
    const char *names[8] = { 0 };
    assert(nfirst <= 8);
    for (size_t k = 0; k < nfirst; k++)
        names[k] = first[k] && (!held_only || held(items, n, first[k])) ? first[k] : NULL;
    cols_compute(c, items, n, names, nfirst, NULL);
}

void cols_heads_text(const cols *c, buf *out)
{
    for (size_t k = 0; k < c->n; k++)
        buf_printf(out, "%s%s", k ? " " : "", c->c[k].name);
}

void cols_item_text(const av *item, buf *out)
{
    for (size_t j = 0; j < item->u.m.len; j++) {
        if (j)
            buf_addc(out, ' ');
        buf_add(out, item->u.m.v[j].name, item->u.m.v[j].name_len);
        buf_addc(out, '=');
        fmt_cell(out, &item->u.m.v[j].val, 0);
    }
}
