#include "ui/vm.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

void vm_init(vm *m, vm_free_fn free_fn, void *ctx)
{
    memset(m, 0, sizeof *m);
    m->rows = 1;
    m->free_fn = free_fn;
    m->ctx = ctx;
}

static void free_range(vm *m, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (m->free_fn)
            m->free_fn(m->ctx, &m->lines[i]);
}

void vm_clear(vm *m)
{
    free_range(m, 0, m->n);
    m->n = 0;
    m->cursor = m->top = 0;
    m->hscroll = 0;
}

void vm_done(vm *m)
{
    vm_clear(m);
    free(m->lines);
    m->lines = NULL;
    m->cap = 0;
}

static void reserve(vm *m, size_t extra)
{
    if (m->n + extra <= m->cap)
        return;
    size_t cap = m->cap ? m->cap : 64;
    while (cap < m->n + extra)
        cap *= 2;
    m->lines = xrealloc(m->lines, cap * sizeof *m->lines);
    m->cap = cap;
}

void vm_append(vm *m, int kind, void *data)
{
    reserve(m, 1);
    m->lines[m->n].kind = kind;
    m->lines[m->n].data = data;
    m->n++;
}

void vm_append_index(vm *m, int kind, size_t idx)
{
    size_t *data = xmalloc(sizeof *data);
    *data = idx;
    vm_append(m, kind, data);
}

size_t vm_index(const line *l)
{
    return *(const size_t *)l->data;
}

void vm_free_index(line *l)
{
    free(l->data);
    l->data = NULL;
}

void vm_insert(vm *m, size_t at, const line *lines, size_t n)
{
    if (n == 0)
        return;
    if (at > m->n)
        at = m->n;
    bool empty = m->n == 0;
    reserve(m, n);
    memmove(m->lines + at + n, m->lines + at, (m->n - at) * sizeof *m->lines);
    memcpy(m->lines + at, lines, n * sizeof *lines);
    m->n += n;
    if (empty)
        return;
    if (m->cursor >= at)
        m->cursor += n;
    if (m->top >= at)
        m->top += n;
}

void vm_prepend(vm *m, const line *lines, size_t n)
{
    vm_insert(m, 0, lines, n);
}

size_t vm_fit_run(vm *m, int kind, size_t want, void *(*make)(void *ctx), void *ctx)
{
    size_t at = 0, have = 0;
    while (at < m->n && m->lines[at].kind != kind)
        at++;
    while (at + have < m->n && m->lines[at + have].kind == kind)
        have++;
    if (!have)
        return m->n;
    if (want < have) {
        vm_cut(m, at + want, at + have);
    } else if (want > have) {
        line *more = xcalloc(want - have, sizeof *more);
        for (size_t i = 0; i < want - have; i++)
            more[i] = (line){ kind, make(ctx) };
        vm_insert(m, at + have, more, want - have);
        free(more);
    }
    return at;
}

/* After lines went: cursor and top back inside the window. */
static void clamp(vm *m)
{
    if (m->n == 0)
        m->cursor = m->top = 0;
    else if (m->cursor >= m->n)
        m->cursor = m->n - 1;
    if (m->top > m->cursor)
        m->top = m->cursor;
}

void vm_trim(vm *m, size_t keep_from, size_t keep_to)
{
    if (keep_to > m->n)
        keep_to = m->n;
    if (keep_from > keep_to)
        keep_from = keep_to;
    free_range(m, keep_to, m->n);
    m->n = keep_to;
    if (keep_from) {
        free_range(m, 0, keep_from);
        memmove(m->lines, m->lines + keep_from, (m->n - keep_from) * sizeof *m->lines);
        m->n -= keep_from;
    }
    m->cursor = m->cursor >= keep_from ? m->cursor - keep_from : 0;
    m->top = m->top >= keep_from ? m->top - keep_from : 0;
    clamp(m);
}

void vm_cut(vm *m, size_t from, size_t to)
{
    if (to > m->n)
        to = m->n;
    if (from >= to)
        return;
    free_range(m, from, to);
    memmove(m->lines + from, m->lines + to, (m->n - to) * sizeof *m->lines);
    m->n -= to - from;
    size_t k = to - from;
    m->cursor = m->cursor >= to ? m->cursor - k : m->cursor >= from ? from : m->cursor;
    m->top = m->top >= to ? m->top - k : m->top >= from ? from : m->top;
    clamp(m);
}

line *vm_line(vm *m, size_t i)
{
    return i < m->n ? &m->lines[i] : NULL;
}

line *vm_selected(vm *m)
{
    return vm_line(m, m->cursor);
}

void vm_select(vm *m, size_t i)
{
    if (m->n == 0) {
        m->cursor = m->top = 0;
        return;
    }
    if (i >= m->n)
        i = m->n - 1;
    m->cursor = i;
    if (m->cursor < m->top)
        m->top = m->cursor;
    else if (m->cursor >= m->top + m->rows)
        m->top = m->cursor - m->rows + 1;
    assert(m->cursor >= m->top && m->cursor < m->top + m->rows);
}

void vm_set_rows(vm *m, size_t rows)
{
    m->rows = rows ? rows : 1;
    vm_select(m, m->cursor);
}

void vm_center(vm *m, size_t above)
{
    if (above >= m->rows)
        above = m->rows - 1;
    m->top = m->cursor > above ? m->cursor - above : 0;
}

void vm_set_top(vm *m, size_t top)
{
    if (top > m->cursor)
        top = m->cursor;
    if (m->cursor >= top + m->rows)
        top = m->cursor - m->rows + 1;
    m->top = top;
}

void vm_fill_from_above(vm *m)
{
    if (m->n - m->top > m->rows)
        m->top = m->n > m->rows ? m->n - m->rows : 0;
    else
        m->top = 0;
    if (m->top > m->cursor)
        m->top = m->cursor;
    if (m->cursor >= m->top + m->rows)
        m->top = m->cursor - m->rows + 1;
}

void vm_hscroll(vm *m, int delta)
{
    long h = (long)m->hscroll + delta;
    m->hscroll = h > 0 ? (int)h : 0;
}
