#include "model/itemenc.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* An attribute name's nlen bytes, NUL-terminated: names may hold U+0000,
 * so not xstrndup, which stops at the first NUL. */
static char *name_dup(const unsigned char *name, size_t nlen)
{
    char *q = xmalloc(nlen + 1);
    memcpy(q, name, nlen);
    q[nlen] = '\0';
    return q;
}
#include "model/num.h"

enum {
    T_S = 1, T_N, T_B, T_FALSE, T_TRUE, T_NULL, T_L, T_M, T_SS, T_NS, T_BS,
    T_SC,   /* an S whose bytes need no JSON escaping (printable ASCII but
               '"' and '\\'): written out with one memcpy */
};

/* Printable ASCII other than '"' and '\\'; checked once, at encode time. */
static bool json_clean(const char *p, size_t n)
{
    const unsigned char *s = (const unsigned char *)p;
    for (size_t i = 0; i < n; i++)
        if (s[i] < 0x20 || s[i] >= 0x7f || s[i] == '"' || s[i] == '\\')
            return false;
    return true;
}

/* ---- writing ---- */

static void put_varint(buf *out, size_t v)
{
    unsigned char tmp[10];
    size_t n = 0;
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        tmp[n++] = c | (v ? 0x80 : 0);
    } while (v);
    buf_add(out, tmp, n);
}

static void put_bytes(buf *out, const void *p, size_t n)
{
    put_varint(out, n);
    buf_add(out, p, n);
}

static void put_value(buf *out, const av *v);

/* Containers carry their body length in front; we write the body into
 * out, then move it right by the width of the length varint. */
static size_t container_begin(buf *out)
{
    return out->len;
}

static void container_end(buf *out, size_t start)
{
    size_t body = out->len - start;
    unsigned char tmp[10];
    size_t n = 0, v = body;
    do {
        unsigned char c = v & 0x7f;
        v >>= 7;
        tmp[n++] = c | (v ? 0x80 : 0);
    } while (v);
    buf_reserve(out, n);
    memmove(out->data + start + n, out->data + start, body);
    memcpy(out->data + start, tmp, n);
    out->len += n;
    out->data[out->len] = '\0';
}

static void put_members(buf *out, const av *m)
{
    put_varint(out, m->u.m.len);
    for (size_t i = 0; i < m->u.m.len; i++) {
        const av_member *mb = &m->u.m.v[i];
        put_bytes(out, mb->name, mb->name_len);
        put_value(out, &mb->val);
    }
}

static void put_num(buf *out, const num *n)
{
    char text[NUM_TEXT_MAX];
    size_t len = num_format(n, text);
    put_bytes(out, text, len);
}

static void put_value(buf *out, const av *v)
{
    size_t start;
    switch (v->type) {
    case AV_S:
        buf_addc(out, json_clean(v->u.s.ptr, v->u.s.len) ? T_SC : T_S);
        put_bytes(out, v->u.s.ptr, v->u.s.len);
        break;
    case AV_B:
        buf_addc(out, T_B);
        put_bytes(out, v->u.s.ptr, v->u.s.len);
        break;
    case AV_N:
        buf_addc(out, T_N);
        put_num(out, &v->u.n);
        break;
    case AV_BOOL:
        buf_addc(out, v->u.b ? T_TRUE : T_FALSE);
        break;
    case AV_NULL:
        buf_addc(out, T_NULL);
        break;
    case AV_L:
        buf_addc(out, T_L);
        start = container_begin(out);
        put_varint(out, v->u.l.len);
        for (size_t i = 0; i < v->u.l.len; i++)
            put_value(out, &v->u.l.v[i]);
        container_end(out, start);
        break;
    case AV_M:
        buf_addc(out, T_M);
        start = container_begin(out);
        put_members(out, v);
        container_end(out, start);
        break;
    case AV_SS:
    case AV_BS:
    case AV_NS:
        buf_addc(out, v->type == AV_SS ? T_SS : v->type == AV_BS ? T_BS : T_NS);
        start = container_begin(out);
        put_varint(out, v->u.l.len);
        for (size_t i = 0; i < v->u.l.len; i++) {
            const av *e = &v->u.l.v[i];
            if (v->type == AV_NS)
                put_num(out, &e->u.n);
            else
                put_bytes(out, e->u.s.ptr, e->u.s.len);
        }
        container_end(out, start);
        break;
    case AV_NONE:
        assert(!"AV_NONE in an item");
        buf_addc(out, T_NULL);
        break;
    }
}

void itemenc_encode(buf *out, const av *item)
{
    assert(item->type == AV_M);
    put_members(out, item);
}

/* ---- reading ---- */

typedef struct rd {
    const unsigned char *p, *end;
} rd;

static inline bool get_varint(rd *r, size_t *out)
{
    /* Most lengths and counts fit in one byte. */
    if (r->p < r->end && !(*r->p & 0x80)) {
        *out = *r->p++;
        return true;
    }
    size_t v = 0;
    unsigned shift = 0;
    while (r->p < r->end && shift < 64) {
        unsigned char c = *r->p++;
        v |= (size_t)(c & 0x7f) << shift;
        if (!(c & 0x80)) {
            *out = v;
            return true;
        }
        shift += 7;
    }
    return false;
}

static inline bool get_bytes(rd *r, const unsigned char **p, size_t *n)
{
    if (!get_varint(r, n) || (size_t)(r->end - r->p) < *n)
        return false;
    *p = r->p;
    r->p += *n;
    return true;
}

/* Skips one value (tag included). */
static bool skip_value(rd *r)
{
    if (r->p >= r->end)
        return false;
    unsigned char tag = *r->p++;
    const unsigned char *q;
    size_t n;
    switch (tag) {
    case T_S: case T_SC: case T_N: case T_B:
    case T_L: case T_M: case T_SS: case T_NS: case T_BS:
        return get_bytes(r, &q, &n);
    case T_TRUE: case T_FALSE: case T_NULL:
        return true;
    default:
        return false;
    }
}

static status bad(diag *d)
{
    return diag_set(d, ST_INTERNAL, "corrupt item encoding");
}

static bool get_num(rd *r, num *out)
{
    const unsigned char *q;
    size_t n;
    diag d;
    if (!get_bytes(r, &q, &n))
        return false;
    return num_parse((const char *)q, n, out, &d) == ST_OK;
}

static bool get_value(rd *r, av *v, int depth);

static bool get_members(rd *r, av *m, int depth)
{
    size_t count;
    if (!get_varint(r, &count))
        return false;
    av_init_list(m, AV_M);
    if (count > (size_t)(r->end - r->p))
        return false;
    m->u.m.v = xmalloc((count ? count : 1) * sizeof *m->u.m.v);
    m->u.m.cap = count ? count : 1;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *name;
        size_t nlen;
        av_member *mb = &m->u.m.v[i];
        if (!get_bytes(r, &name, &nlen))
            return false;
        mb->name = name_dup(name, nlen);
        mb->name_len = nlen;
        mb->val.type = AV_NONE;
        m->u.m.len = i + 1;
        if (!get_value(r, &mb->val, depth + 1))
            return false;
    }
    return true;
}

static bool get_value(rd *r, av *v, int depth)
{
    v->type = AV_NONE;
    if (r->p >= r->end || depth > 64)
        return false;
    unsigned char tag = *r->p++;
    const unsigned char *q;
    size_t n, count;
    switch (tag) {
    case T_S:
    case T_SC:
        if (!get_bytes(r, &q, &n))
            return false;
        av_init_s(v, (const char *)q, n);
        return true;
    case T_B:
        if (!get_bytes(r, &q, &n))
            return false;
        av_init_b(v, q, n);
        return true;
    case T_N: {
        num x;
        if (!get_num(r, &x))
            return false;
        av_init_n(v, &x);
        return true;
    }
    case T_TRUE:
    case T_FALSE:
        av_init_bool(v, tag == T_TRUE);
        return true;
    case T_NULL:
        av_init_null(v);
        return true;
    default:
        break;
    }
    if (!get_bytes(r, &q, &n))
        return false;
    rd sub = { q, q + n };
    switch (tag) {
    case T_M:
        return get_members(&sub, v, depth);
    case T_L:
    case T_SS:
    case T_NS:
    case T_BS:
        if (!get_varint(&sub, &count) || count > n)
            return false;
        av_init_list(v, tag == T_L ? AV_L : tag == T_SS ? AV_SS
                                          : tag == T_NS ? AV_NS : AV_BS);
        v->u.l.v = xmalloc((count ? count : 1) * sizeof *v->u.l.v);
        v->u.l.cap = count ? count : 1;
        for (size_t i = 0; i < count; i++) {
            av *e = &v->u.l.v[i];
            e->type = AV_NONE;
            v->u.l.len = i + 1;
            if (tag == T_L) {
                if (!get_value(&sub, e, depth + 1))
                    return false;
            } else if (tag == T_NS) {
                num x;
                if (!get_num(&sub, &x))
                    return false;
                av_init_n(e, &x);
            } else {
                const unsigned char *eq;
                size_t en;
                if (!get_bytes(&sub, &eq, &en))
                    return false;
                if (tag == T_SS)
                    av_init_s(e, (const char *)eq, en);
                else
                    av_init_b(e, eq, en);
            }
        }
        return true;
    default:
        return false;
    }
}

status itemenc_decode(const void *p, size_t len, av *item, diag *d)
{
    rd r = { p, (const unsigned char *)p + len };
    if (!get_members(&r, item, 0) || r.p != r.end) {
        av_done(item);
        return bad(d);
    }
    return ST_OK;
}

status itemenc_decode_value(const void *p, size_t len, av *v, diag *d)
{
    rd r = { p, (const unsigned char *)p + len };
    if (!get_value(&r, v, 0)) {
        av_done(v);
        return bad(d);
    }
    return ST_OK;
}

static bool wanted(const unsigned char *name, size_t nlen,
                   const char *const *names, const size_t *lens, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (lens[i] == nlen && memcmp(names[i], name, nlen) == 0)
            return true;
    return false;
}

status itemenc_decode_some(const void *p, size_t len, const char *const *names,
                           const size_t *lens, size_t n, av *item, diag *d)
{
    /* A fresh item is the refill case with nothing to reuse. */
    item->type = AV_NONE;
    return itemenc_decode_some_into(p, len, names, lens, n, item, d);
}

status itemenc_decode_some_into(const void *p, size_t len, const char *const *names,
                                const size_t *lens, size_t n, av *item, diag *d)
{
    rd r = { p, (const unsigned char *)p + len };
    size_t count, k = 0;
    if (item->type != AV_M)
        av_init_list(item, AV_M);
    if (!get_varint(&r, &count))
        goto fail;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *name;
        size_t nlen;
        if (!get_bytes(&r, &name, &nlen))
            goto fail;
        if (!wanted(name, nlen, names, lens, n)) {
            if (!skip_value(&r))
                goto fail;
            continue;
        }
        if (k == item->u.m.cap) {
            item->u.m.cap = item->u.m.cap ? item->u.m.cap * 2 : 4;
            item->u.m.v = xrealloc(item->u.m.v, item->u.m.cap * sizeof *item->u.m.v);
        }
        av_member *mb = &item->u.m.v[k];
        if (k < item->u.m.len) {
            /* Rows of one table mostly hold the same names: keep them. */
            if (mb->name_len != nlen || memcmp(mb->name, name, nlen) != 0) {
                free(mb->name);
                mb->name = name_dup(name, nlen);
                mb->name_len = nlen;
            }
            av_done(&mb->val);
        } else {
            mb->name = name_dup(name, nlen);
            mb->name_len = nlen;
            mb->val.type = AV_NONE;
            item->u.m.len = k + 1;
        }
        k++;
        if (!get_value(&r, &mb->val, 1))
            goto fail;
    }
    while (item->u.m.len > k) {
        av_member *mb = &item->u.m.v[--item->u.m.len];
        free(mb->name);
        av_done(&mb->val);
    }
    return ST_OK;
fail:
    av_done(item);
    return bad(d);
}

bool itemenc_find(const void *p, size_t len, const char *name, size_t name_len,
                  const unsigned char **vp, size_t *vlen)
{
    rd r = { p, (const unsigned char *)p + len };
    size_t count;
    if (!get_varint(&r, &count))
        return false;
    for (size_t i = 0; i < count; i++) {
        const unsigned char *nm;
        size_t nlen;
        if (!get_bytes(&r, &nm, &nlen))
            return false;
        const unsigned char *start = r.p;
        if (!skip_value(&r))
            return false;
        if (nlen == name_len && memcmp(nm, name, nlen) == 0) {
            *vp = start;
            *vlen = (size_t)(r.p - start);
            return true;
        }
    }
    return false;
}

/* ---- JSON straight from bytes ---- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void put_b64(buf *out, const unsigned char *p, size_t n)
{
    buf_reserve(out, (n + 2) / 3 * 4 + 2);
    char *o = out->data + out->len;
    *o++ = '"';
    size_t i = 0;
    for (; i + 3 <= n; i += 3) {
        unsigned v = (unsigned)p[i] << 16 | (unsigned)p[i + 1] << 8 | p[i + 2];
        *o++ = b64[v >> 18];
        *o++ = b64[(v >> 12) & 63];
        *o++ = b64[(v >> 6) & 63];
        *o++ = b64[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)p[i] << 16 | (i + 1 < n ? (unsigned)p[i + 1] << 8 : 0);
        *o++ = b64[v >> 18];
        *o++ = b64[(v >> 12) & 63];
        *o++ = i + 1 < n ? b64[(v >> 6) & 63] : '=';
        *o++ = '=';
    }
    *o++ = '"';
    out->len = (size_t)(o - out->data);
    out->data[out->len] = '\0';
}

static void put_quoted_num(buf *out, const unsigned char *p, size_t n)
{
    /* Canonical number text is digits, '-' and '.': nothing to escape. */
    buf_reserve(out, n + 2);
    out->data[out->len++] = '"';
    memcpy(out->data + out->len, p, n);
    out->len += n;
    out->data[out->len++] = '"';
    out->data[out->len] = '\0';
}

static bool json_value(buf *out, rd *r, int depth);

/* "name": ; names are nearly always plain ASCII: one copy then. */
static void put_name(buf *out, const unsigned char *name, size_t n)
{
    if (json_clean((const char *)name, n)) {
        buf_reserve(out, n + 3);
        char *o = out->data + out->len;
        o[0] = '"';
        memcpy(o + 1, name, n);
        o[n + 1] = '"';
        o[n + 2] = ':';
        out->len += n + 3;
        out->data[out->len] = '\0';
    } else {
        ddbjson_write_string(out, (const char *)name, n);
        buf_addc(out, ':');
    }
}

static bool json_members(buf *out, rd *r, int depth)
{
    size_t count;
    if (!get_varint(r, &count))
        return false;
    buf_addc(out, '{');
    for (size_t i = 0; i < count; i++) {
        const unsigned char *name;
        size_t nlen;
        if (!get_bytes(r, &name, &nlen))
            return false;
        if (i)
            buf_addc(out, ',');
        put_name(out, name, nlen);
        if (!json_value(out, r, depth + 1))
            return false;
    }
    buf_addc(out, '}');
    return true;
}

static bool json_value(buf *out, rd *r, int depth)
{
    if (r->p >= r->end || depth > 64)
        return false;
    unsigned char tag = *r->p++;
    const unsigned char *q;
    size_t n, count;
    switch (tag) {
    case T_S:
        if (!get_bytes(r, &q, &n))
            return false;
        buf_add(out, "{\"S\":", 5);
        ddbjson_write_string(out, (const char *)q, n);
        buf_addc(out, '}');
        return true;
    case T_SC: {
        if (!get_bytes(r, &q, &n))
            return false;
        buf_reserve(out, n + 8);
        char *o = out->data + out->len;
        memcpy(o, "{\"S\":\"", 6);
        memcpy(o + 6, q, n);
        memcpy(o + 6 + n, "\"}", 2);
        out->len += n + 8;
        out->data[out->len] = '\0';
        return true;
    }
    case T_B:
        if (!get_bytes(r, &q, &n))
            return false;
        buf_add(out, "{\"B\":", 5);
        put_b64(out, q, n);
        buf_addc(out, '}');
        return true;
    case T_N:
        if (!get_bytes(r, &q, &n))
            return false;
        buf_add(out, "{\"N\":", 5);
        put_quoted_num(out, q, n);
        buf_addc(out, '}');
        return true;
    case T_TRUE:
        buf_adds(out, "{\"BOOL\":true}");
        return true;
    case T_FALSE:
        buf_adds(out, "{\"BOOL\":false}");
        return true;
    case T_NULL:
        buf_adds(out, "{\"NULL\":true}");
        return true;
    default:
        break;
    }
    if (!get_bytes(r, &q, &n))
        return false;
    rd sub = { q, q + n };
    switch (tag) {
    case T_M:
        buf_add(out, "{\"M\":", 5);
        if (!json_members(out, &sub, depth))
            return false;
        buf_addc(out, '}');
        return true;
    case T_L:
    case T_SS:
    case T_NS:
    case T_BS:
        if (!get_varint(&sub, &count))
            return false;
        buf_adds(out, tag == T_L ? "{\"L\":[" : tag == T_SS ? "{\"SS\":["
                                             : tag == T_NS ? "{\"NS\":[" : "{\"BS\":[");
        for (size_t i = 0; i < count; i++) {
            if (i)
                buf_addc(out, ',');
            if (tag == T_L) {
                if (!json_value(out, &sub, depth + 1))
                    return false;
                continue;
            }
            const unsigned char *eq;
            size_t en;
            if (!get_bytes(&sub, &eq, &en))
                return false;
            if (tag == T_SS)
                ddbjson_write_string(out, (const char *)eq, en);
            else if (tag == T_NS)
                put_quoted_num(out, eq, en);
            else
                put_b64(out, eq, en);
        }
        buf_adds(out, "]}");
        return true;
    default:
        return false;
    }
}

status itemenc_write_json(buf *out, const void *p, size_t len, diag *d)
{
    rd r = { p, (const unsigned char *)p + len };
    if (!json_members(out, &r, 0) || r.p != r.end)
        return bad(d);
    return ST_OK;
}
