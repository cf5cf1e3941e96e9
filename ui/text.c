#include "ui/text.h"

#include <ctype.h>
#include <langinfo.h>
#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

bool text_init(void)
{
    const char *cs;
    if (setlocale(LC_CTYPE, "") && (cs = nl_langinfo(CODESET)) && strcmp(cs, "UTF-8") == 0)
        return true;
    /* Data is UTF-8 whatever the user's locale says; widths need a UTF-8
     * ctype to be right. */
    if (setlocale(LC_CTYPE, "C.UTF-8") || setlocale(LC_CTYPE, "C.utf8") ||
        setlocale(LC_CTYPE, "en_US.UTF-8"))
        return true;
    return false;
}

size_t text_decode(const char *s, size_t len, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    unsigned char c = p[0];
    uint32_t v, min;
    size_t n;

    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2; v = c & 0x1F; min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3; v = c & 0x0F; min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4; v = c & 0x07; min = 0x10000;
    } else {
        *cp = TEXT_BAD;
        return 1;
    }
    if (len < n) {
        *cp = TEXT_BAD;
        return 1;
    }
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) {
            *cp = TEXT_BAD;
            return 1;
        }
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        *cp = TEXT_BAD;
        return 1;
    }
    *cp = v;
    return n;
}

void text_encode(buf *out, uint32_t cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80) {
        b[0] = (char)cp; n = 1;
    } else if (cp < 0x800) {
        b[0] = (char)(0xC0 | (cp >> 6)); b[1] = (char)(0x80 | (cp & 0x3F)); n = 2;
    } else if (cp < 0x10000) {
        b[0] = (char)(0xE0 | (cp >> 12)); b[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (char)(0x80 | (cp & 0x3F)); n = 3;
    } else {
        b[0] = (char)(0xF0 | (cp >> 18)); b[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (char)(0x80 | ((cp >> 6) & 0x3F)); b[3] = (char)(0x80 | (cp & 0x3F)); n = 4;
    }
    buf_add(out, b, n);
}

/* The escape for a code point that must not be written raw, or NULL
 * (length in *n). Control characters get C-style or \xNN escapes, other
 * unprintable code points (bidi overrides, unassigned) \u{...}. */
static const char *escape_of(uint32_t cp, char tmp[16], int *w)
{
    if (cp == TEXT_BAD)
        return NULL;   /* handled by the caller, which knows the byte */
    if (cp == '\n') { *w = 2; return "\\n"; }
    if (cp == '\t') { *w = 2; return "\\t"; }
    if (cp == '\r') { *w = 2; return "\\r"; }
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) {
        *w = snprintf(tmp, 16, "\\x%02x", (unsigned)cp);
        return tmp;
    }
    if (cp < 0x7F)
        return NULL;
    int cw = wcwidth((wchar_t)cp);
    if (cw < 0 || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069)) {
        *w = snprintf(tmp, 16, "\\u{%x}", (unsigned)cp);
        return tmp;
    }
    return NULL;
}

int text_cp_width(uint32_t cp)
{
    char tmp[16];
    int w = 0;
    if (cp == TEXT_BAD)
        return 4;
    if (escape_of(cp, tmp, &w))
        return w;
    if (cp < 0x7F)
        return 1;
    return wcwidth((wchar_t)cp);
}

int text_width(const char *s, size_t len)
{
    int w = 0;
    size_t i = 0;
    while (i < len) {
        uint32_t cp;
        i += text_decode(s + i, len - i, &cp);
        w += text_cp_width(cp);
    }
    return w;
}

size_t text_fit_row(const char *s, size_t len, int room, int keep)
{
    size_t end = 0, space = 0;
    int w = 0;
    while (end < len) {
        uint32_t cp;
        size_t k = text_decode(s + end, len - end, &cp);
        int cw = text_cp_width(cp);
        if (w + cw > room && end > 0) {
            if (cp != ' ' && space)
                end = space;
            break;
        }
        w += cw;
        end += k;
        if (cp == ' ' && w >= keep)
            space = end;
    }
    return end;
}

bool text_wrap_row(const char *s, size_t len, int width, size_t k, size_t *from, size_t *n)
{
    size_t at = 0;
    for (size_t r = 0;; r++) {
        while (at < len && s[at] == ' ')
            at++;
        if (at >= len)
            return false;
        size_t step = text_fit_row(s + at, len - at, width > 0 ? width : 1, 1);
        if (r == k) {
            *from = at;
            *n = step;
            return true;
        }
        at += step;
    }
}

size_t text_wrap_rows(const char *s, size_t len, int width)
{
    size_t at = 0, rows = 0;
    for (;;) {
        while (at < len && s[at] == ' ')
            at++;
        if (at >= len)
            return rows;
        at += text_fit_row(s + at, len - at, width > 0 ? width : 1, 1);
        rows++;
    }
}

/* Whether the tail goes on a row of its own after s's rows. */
static bool tail_apart(const char *s, size_t len, const char *tail, int width, size_t rows)
{
    size_t from = 0, n = 0;
    if (!rows || !text_wrap_row(s, len, width, rows - 1, &from, &n))
        return false;
    return text_width(s + from, n) + 3 + text_width(tail, strlen(tail)) > width;
}

size_t text_wrap_rows_tail(const char *s, size_t len, const char *tail, int width)
{
    size_t rows = text_wrap_rows(s, len, width);
    return !rows ? 1 : rows + tail_apart(s, len, tail, width, rows);
}

bool text_wrap_row_tail(const char *s, size_t len, const char *tail, int width, size_t k, buf *out)
{
    size_t rows = text_wrap_rows(s, len, width), from, n;
    bool apart = tail_apart(s, len, tail, width, rows);
    if (k < rows && text_wrap_row(s, len, width, k, &from, &n)) {
        buf_add(out, s + from, n);
        if (k + 1 == rows && !apart) {
            while (out->len && out->data[out->len - 1] == ' ')
                out->data[--out->len] = '\0';
            buf_adds(out, "   ");
            buf_adds(out, tail);
        }
        return true;
    }
    if (k == (rows ? rows : 0) && (apart || !rows)) {
        buf_adds(out, tail);
        return true;
    }
    return false;
}

#define TITLE_PARTS 32

void text_title_part(buf *out, int rank)
{
    buf_addc(out, TEXT_PART);
    buf_addc(out, (char)('0' + (rank < 0 ? 0 : rank > 9 ? 9 : rank)));
}

int text_title_fit(buf *out, const char *title, size_t len, int width)
{
    struct { size_t from, to; int rank, w; bool kept; } part[TITLE_PARTS];
    size_t n = 0, i = 0;
    part[0].from = 0;
    part[0].rank = 0;
    while (i <= len) {
        if (i == len || (title[i] == TEXT_PART && i + 1 < len && n + 1 < TITLE_PARTS)) {
            part[n].to = i;
            part[n].w = text_width(title + part[n].from, i - part[n].from);
            part[n].kept = true;
            n++;
            if (i == len)
                break;
            int r = title[i + 1] - '0';
            part[n].rank = r >= 0 && r <= 9 ? r : 9;
            part[n].from = i + 2;
            i += 2;
            continue;
        }
        i++;
    }
    int total = 0;
    for (size_t k = 0; k < n; k++)
        total += part[k].w;
    while (width >= 0 && total > width) {
        size_t drop = n;
        for (size_t k = 0; k < n; k++)
            if (part[k].kept && part[k].rank > 0 && (drop == n || part[k].rank >= part[drop].rank))
                drop = k;
        if (drop == n)
            break;
        part[drop].kept = false;
        total -= part[drop].w;
    }
    buf plain = BUF_INIT;
    for (size_t k = 0; k < n; k++)
        if (part[k].kept)
            buf_add(&plain, title + part[k].from, part[k].to - part[k].from);
    const char *p = plain.data ? plain.data : "";
    size_t pl = plain.len;
    if (width >= 0 && total > width && width > 1) {
        /* Still too wide: up to the last space before the edge (where
         * text_fit_row ends a row), then ~. */
        size_t cut = text_fit_row(p, pl, width - 1, 1);
        bool at_gap = cut < pl && (p[cut] == ' ' || (cut > 0 && p[cut - 1] == ' '));
        while (at_gap && cut > 0 && p[cut - 1] == ' ')
            cut--;
        if (at_gap && cut > 0) {
            buf_add(out, p, cut);
            buf_addc(out, '~');
            total = text_width(p, cut) + 1;
            buf_done(&plain);
            return total;
        }
    }
    buf_add(out, p, pl);
    buf_done(&plain);
    return total;
}

int text_fit(buf *out, const char *s, size_t len, int width, bool pad, bool mark)
{
    int used = 0;
    size_t i = 0;
    bool cut = false;

    while (i < len) {
        uint32_t cp;
        size_t n = text_decode(s + i, len - i, &cp);
        char tmp[16];
        const char *esc = NULL;
        int w;
        if (cp == TEXT_BAD) {
            snprintf(tmp, sizeof tmp, "\\x%02x", (unsigned char)s[i]);
            esc = tmp;
            w = 4;
        } else {
            esc = escape_of(cp, tmp, &w);
            if (!esc)
                w = cp < 0x7F ? 1 : wcwidth((wchar_t)cp);
        }
        /* Leave room for the mark unless this is the last character. */
        int room = width < 0 ? w : width - used - ((mark && i + n < len) ? 1 : 0);
        if (w > room) {
            cut = true;
            break;
        }
        if (esc)
            buf_adds(out, esc);
        else
            buf_add(out, s + i, n);
        used += w;
        i += n;
    }
    if (cut && mark && width - used >= 1) {
        buf_addc(out, '~');
        used++;
    }
    if (pad && width >= 0)
        for (; used < width; used++)
            buf_addc(out, ' ');
    return used;
}

long text_find(const char *hay, size_t hlen, const char *needle, size_t nlen)
{
    if (nlen == 0)
        return 0;
    for (size_t i = 0; i + nlen <= hlen; i++) {
        size_t j = 0;
        while (j < nlen && tolower((unsigned char)hay[i + j]) == tolower((unsigned char)needle[j]))
            j++;
        if (j == nlen)
            return (long)i;
    }
    return -1;
}
