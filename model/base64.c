/*
 * base64 — see base64.h.
 */
#include "model/base64.h"

#include <stdint.h>

static const char alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* 0..63 for alphabet characters, 64 for '=', 255 for anything else. */
static inline unsigned dec(unsigned char c)
{
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return c == '=' ? 64 : 255;
}

size_t base64_encoded_len(size_t n)
{
    return (n + 2) / 3 * 4;
}

void base64_encode(buf *out, const void *p, size_t n)
{
    const unsigned char *s = p;
    buf_reserve(out, base64_encoded_len(n));
    char *o = out->data + out->len;
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
        *o++ = alphabet[v >> 18];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = alphabet[(v >> 6) & 63];
        *o++ = alphabet[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)s[i] << 16;
        *o++ = alphabet[v >> 18];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = '=';
        *o++ = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8;
        *o++ = alphabet[v >> 18];
        *o++ = alphabet[(v >> 12) & 63];
        *o++ = alphabet[(v >> 6) & 63];
        *o++ = '=';
    }
    out->len = (size_t)(o - out->data);
    out->data[out->len] = '\0';
}

base64_result base64_decode(buf *out, const char *text, size_t len)
{
    const unsigned char *s = (const unsigned char *)text;
    if (len % 4)
        return BASE64_BAD_LENGTH;
    buf_reserve(out, len / 4 * 3);
    for (size_t i = 0; i < len; i += 4) {
        unsigned a = dec(s[i]), b = dec(s[i + 1]), c = dec(s[i + 2]), e = dec(s[i + 3]);
        bool last = i + 4 == len;
        if (a > 63 || b > 63)
            return BASE64_BAD_CHAR;
        if (c == 64 || e == 64) {
            /* Padding: only in the last quantum, "x=" or "==" shaped, and
             * the bits the padding stands for must be zero. */
            if (!last || (c == 64 && e != 64) || c == 255)
                return BASE64_BAD_CHAR;
            if (c == 64) {
                if (b & 15)
                    return BASE64_BAD_CHAR;
                buf_addc(out, (char)(a << 2 | b >> 4));
            } else {
                if (c & 3)
                    return BASE64_BAD_CHAR;
                buf_addc(out, (char)(a << 2 | b >> 4));
                buf_addc(out, (char)((b & 15) << 4 | c >> 2));
            }
            break;
        }
        if (c > 63 || e > 63)
            return BASE64_BAD_CHAR;
        char q[3] = { (char)(a << 2 | b >> 4), (char)((b & 15) << 4 | c >> 2),
                      (char)((c & 3) << 6 | e) };
        buf_add(out, q, 3);
    }
    return BASE64_OK;
}
