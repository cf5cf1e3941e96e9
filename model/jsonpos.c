/*
 * jsonpos — a second, position-keeping walk over JSON text (see jsonpos.h).
 */
#include "model/jsonpos.h"

#include <string.h>

typedef struct walk {
    const char *t;
    size_t len, i;
} walk;

static void ws(walk *w)
{
    while (w->i < w->len && strchr(" \t\r\n", w->t[w->i]) && w->t[w->i])
        w->i++;
}

static bool at(walk *w, char c)
{
    ws(w);
    if (w->i < w->len && w->t[w->i] == c) {
        w->i++;
        return true;
    }
    return false;
}

/* Past a string literal (w->i on its opening quote); its raw bytes between
 * the quotes in [*s, *e). */
static bool skip_string(walk *w, size_t *s, size_t *e)
{
    if (w->i >= w->len || w->t[w->i] != '"')
        return false;
    *s = ++w->i;
    while (w->i < w->len && w->t[w->i] != '"')
        w->i += w->t[w->i] == '\\' ? 2 : 1;
    if (w->i >= w->len)
        return false;
    *e = w->i++;
    return true;
}

static bool skip_value(walk *w, int depth)
{
    size_t s, e;
    ws(w);
    if (w->i >= w->len || depth > 512)
        return false;
    char c = w->t[w->i];
    if (c == '"')
        return skip_string(w, &s, &e);
    if (c == '{' || c == '[') {
        char close = c == '{' ? '}' : ']';
        w->i++;
        if (at(w, close))
            return true;
        do {
            if (c == '{') {
                ws(w);
                if (!skip_string(w, &s, &e) || !at(w, ':'))
                    return false;
            }
            if (!skip_value(w, depth + 1))
                return false;
        } while (at(w, ','));
        return at(w, close);
    }
    while (w->i < w->len && !strchr(",]} \t\r\n", w->t[w->i]))
        w->i++;
    return true;
}

/* A member name as written equals name[0..len)? Escapes are compared as
 * written: pattern files name members in plain ASCII. */
static bool same_name(const walk *w, size_t s, size_t e, const jsonpos_seg *seg)
{
    return e - s == seg->len && memcmp(w->t + s, seg->name, seg->len) == 0;
}

static bool step(walk *w, const jsonpos_seg *seg, bool last, bool *stop, size_t *name_at)
{
    size_t s, e, start;
    *stop = false;
    ws(w);
    start = w->i;
    if (seg->name) {
        if (!at(w, '{'))
            return false;
        if (at(w, '}'))
            goto absent;
        do {
            ws(w);
            *name_at = w->i;
            if (!skip_string(w, &s, &e) || !at(w, ':'))
                return false;
            if (same_name(w, s, e, seg)) {
                ws(w);
                return true;
            }
            if (!skip_value(w, 0))
                return false;
        } while (at(w, ','));
        goto absent;
    }
    if (!at(w, '['))
        return false;
    for (size_t k = 0;; k++) {
        ws(w);
        if (k == seg->index)
            return w->i < w->len && w->t[w->i] != ']';
        if (!skip_value(w, 0) || !at(w, ','))
            return false;
    }
absent:
    if (!last)
        return false;
    w->i = start;
    *stop = true;
    return true;
}

static bool find(const char *text, size_t len, const jsonpos_seg *path, size_t n, bool name,
                 size_t *off)
{
    walk w = { text, len, 0 };
    size_t name_at = 0;
    for (size_t k = 0; k < n; k++) {
        bool stop;
        if (!step(&w, &path[k], k + 1 == n, &stop, &name_at))
            return false;
        if (stop) {
            name = false;
            break;
        }
    }
    ws(&w);
    *off = name && n && path[n - 1].name ? name_at : w.i;
    return true;
}

bool jsonpos_find(const char *text, size_t len, const jsonpos_seg *path, size_t n, size_t *off)
{
    return find(text, len, path, n, false, off);
}

bool jsonpos_find_name(const char *text, size_t len, const jsonpos_seg *path, size_t n,
                       size_t *off)
{
    return find(text, len, path, n, true, off);
}

void jsonpos_line_col(const char *text, size_t len, size_t off, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < off && i < len; i++) {
        if (text[i] == '\n')
            l++, c = 1;
        else if (((unsigned char)text[i] & 0xC0) != 0x80)
            c++;
    }
    *line = l;
    *col = c;
}
