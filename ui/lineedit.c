/*
 * lineedit — a prompt's text in a gap buffer, and its line (see
 * lineedit.h).
 */
#include "ui/lineedit.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "ui/keymap.h"
#include "ui/text.h"

/* A run of zero-width code points (combining marks) shows nothing: the
 * line stops measuring after this many code points a column. */
#define CPS_A_COLUMN 4

void lineedit_init(lineedit *e, const char *text, size_t len)
{
    memset(e, 0, sizeof *e);
    lineedit_set(e, text, len);
}

void lineedit_done(lineedit *e)
{
    free(e->b);
    memset(e, 0, sizeof *e);
}

/* Room for n more bytes in the gap. */
static void reserve(lineedit *e, size_t n)
{
    if (e->end - e->gap >= n)
        return;
    size_t after = e->cap - e->end;
    size_t cap = e->cap ? e->cap : 64;
    while (cap - e->gap - after < n)
        cap *= 2;
    e->b = xrealloc(e->b, cap);
    memmove(e->b + cap - after, e->b + e->end, after);
    e->moved += e->gap + after;   /* realloc may copy what is before the gap */
    e->end = cap - after;
    e->cap = cap;
}

void lineedit_set(lineedit *e, const char *text, size_t len)
{
    e->gap = 0;
    e->end = e->cap;   /* nothing after the cursor */
    reserve(e, len);
    if (len)
        memcpy(e->b, text, len);
    e->gap = len;
}

size_t lineedit_len(const lineedit *e)
{
    return e->gap + (e->cap - e->end);
}

void lineedit_text(const lineedit *e, buf *out)
{
    buf_reset(out);
    buf_add(out, e->b ? e->b : "", e->gap);
    buf_add(out, e->b ? e->b + e->end : "", e->cap - e->end);
}

void lineedit_insert(lineedit *e, uint32_t cp)
{
    buf t = BUF_INIT;
    text_encode(&t, cp);
    reserve(e, t.len);
    memcpy(e->b + e->gap, t.data, t.len);
    e->gap += t.len;
    buf_done(&t);
}

/* The start of the code point that ends at `at` (at > 0) in the text
 * before the cursor, as decoding from the start would find it: the
 * nearest lead byte if its sequence ends exactly there, else the byte
 * before (an invalid byte is a code point of its own). */
static size_t prev_cp(const lineedit *e, size_t at)
{
    assert(at > 0 && at <= e->gap);
    size_t c = at - 1;
    for (int k = 0; k < 3 && c > 0 && ((unsigned char)e->b[c] & 0xC0) == 0x80; k++)
        c--;
    uint32_t cp;
    return c + text_decode(e->b + c, at - c, &cp) == at ? c : at - 1;
}

/* Bytes of the code point right after the cursor (0 at the end). */
static size_t next_len(const lineedit *e)
{
    uint32_t cp;
    return e->end < e->cap ? text_decode(e->b + e->end, e->cap - e->end, &cp) : 0;
}

/* Moves the cursor to byte `to` of the text before it (to <= gap) or
 * past n bytes of the text after it. */
static void back_to(lineedit *e, size_t to)
{
    size_t n = e->gap - to;
    if (!n)
        return;
    memmove(e->b + e->end - n, e->b + to, n);
    e->moved += n;
    e->end -= n;
    e->gap = to;
}

static void forward(lineedit *e, size_t n)
{
    if (!n)
        return;
    memmove(e->b + e->gap, e->b + e->end, n);
    e->moved += n;
    e->gap += n;
    e->end += n;
}

/* Letters, digits, '_' and any byte of a UTF-8 sequence: what ^W deletes. */
static bool word_byte(char c)
{
    unsigned char u = (unsigned char)c;
    return u >= 0x80 || u == '_' || (u >= '0' && u <= '9') || ((u | 32) >= 'a' && (u | 32) <= 'z');
}

bool lineedit_key(lineedit *e, int k)
{
    if (k == K_BACKSPACE || k == 8) {
        if (e->gap)
            e->gap = prev_cp(e, e->gap);
    } else if (k == K_DELETE || k == 4 /* ^D */) {
        e->end += next_len(e);
    } else if (k == K_LEFT || k == 2 /* ^B */) {
        if (e->gap)
            back_to(e, prev_cp(e, e->gap));
    } else if (k == K_RIGHT || k == 6 /* ^F */) {
        forward(e, next_len(e));
    } else if (k == K_HOME || k == 1 /* ^A */) {
        back_to(e, 0);
    } else if (k == K_END || k == 5 /* ^E */) {
        forward(e, e->cap - e->end);
    } else if (k == 21 /* ^U */) {
        e->gap = 0;
    } else if (k == 23 /* ^W */) {
        /* The word before the cursor: TARGET#bob -> TARGET# */
        size_t p = e->gap;
        while (p > 0 && !word_byte(e->b[p - 1]))
            p--;
        while (p > 0 && word_byte(e->b[p - 1]))
            p--;
        e->gap = p;
    } else if (k == 11 /* ^K */) {
        e->end = e->cap;
    } else {
        return false;
    }
    return true;
}

void lineedit_line(lineedit *e, int avail, buf *out, int *col)
{
    if (avail < 0)
        avail = 0;
    size_t max = (size_t)CPS_A_COLUMN * ((size_t)avail + 1);
    /* Back from the cursor while the code points fit in avail columns. */
    size_t from = e->gap, cps = 0;
    int w = 0;
    while (from > 0 && cps < max) {
        size_t p = prev_cp(e, from);
        uint32_t cp;
        text_decode(e->b + p, from - p, &cp);
        int cw = text_cp_width(cp);
        e->measured++;
        cps++;
        if (w + cw > avail)
            break;
        w += cw;
        from = p;
    }
    *col = w;
    buf_reset(out);
    buf_add(out, e->b ? e->b + from : "", e->gap - from);
    /* Then what follows the cursor, up to the line's last column. */
    size_t at = e->end;
    int room = avail + 1 - w;
    cps = 0;
    while (at < e->cap && cps < max) {
        uint32_t cp;
        size_t n = text_decode(e->b + at, e->cap - at, &cp);
        int cw = text_cp_width(cp);
        e->measured++;
        cps++;
        if (cw > room)
            break;
        room -= cw;
        at += n;
    }
    buf_add(out, e->b ? e->b + e->end : "", at - e->end);
}
