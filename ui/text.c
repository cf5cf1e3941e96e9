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
