/*
 * ddbjson_flat — the flat scan of a request body's top-level members
 * (ddbjson_flat_parse, see ddbjson.h): the fast path that lets the store
 * answer a simple request without building a cJSON tree.
 */
#include "model/ddbjson.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "model/ddbjson_int.h"
#include "model/mem.h"

/* ---- flat requests (ddbjson_flat_parse) ---- */

typedef struct flat_in {
    const unsigned char *p, *end;
} flat_in;

static inline void fl_ws(flat_in *in)
{
    while (in->p < in->end && *in->p <= ' ' && is_ws((char)*in->p))
        in->p++;
}

static bool fl_char(flat_in *in, char c)
{
    fl_ws(in);
    if (in->p >= in->end || *in->p != (unsigned char)c)
        return false;
    in->p++;
    fl_ws(in);
    return true;
}

/* A string of valid UTF-8 without escapes or control characters. */
static bool fl_string(flat_in *in, ddbjson_span *out)
{
    const unsigned char *p = in->p, *e = in->end;
    if (p >= e || *p != '"')
        return false;
    const unsigned char *s = ++p;
    while (p < e) {
        unsigned c = *p;
        if (c == '"') {
            out->p = (const char *)s;
            out->n = (size_t)(p - s);
            in->p = p + 1;
            return true;
        }
        if (c < 0x20 || c == '\\')
            return false;
        if (c < 0x80) {
            p++;
            continue;
        }
        size_t k = utf8_seq(p, (size_t)(e - p));
        if (!k)
            return false;
        p += k;
    }
    return false;
}

static bool span_eq(ddbjson_span a, ddbjson_span b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

/* {"name":{"S":"..."},...} into f->attrs. */
static bool fl_attrs(flat_in *in, ddbjson_flat *f, ddbjson_flat_member *m)
{
    m->first = f->n_attrs;
    m->n = 0;
    if (!fl_char(in, '{'))
        return false;
    if (in->p < in->end && *in->p == '}') {
        in->p++;
        return true;
    }
    for (;;) {
        if (f->n_attrs == DDBJSON_FLAT_MAX)
            return false;
        ddbjson_flat_attr *a = &f->attrs[f->n_attrs];
        ddbjson_span type;
        if (!fl_string(in, &a->name) || !fl_char(in, ':') || !fl_char(in, '{') || !fl_string(in, &type) ||
            !fl_char(in, ':') || !fl_string(in, &a->val) || !fl_char(in, '}'))
            return false;
        if (ddbjson_span_is(type, "S"))
            a->type = AV_S;
        else if (ddbjson_span_is(type, "N"))
            a->type = AV_N;
        else
            return false;
        for (size_t i = m->first; i < f->n_attrs; i++)
            if (span_eq(f->attrs[i].name, a->name))
                return false;
        f->n_attrs++;
        m->n++;
        if (in->p < in->end && *in->p == '}') {
            in->p++;
            return true;
        }
        if (!fl_char(in, ','))
            return false;
    }
}

static bool fl_lit(flat_in *in, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(in->end - in->p) < n || memcmp(in->p, lit, n) != 0)
        return false;
    in->p += n;
    return true;
}

static bool fl_member(flat_in *in, ddbjson_flat *f, ddbjson_flat_member *m)
{
    if (!fl_string(in, &m->name) || !fl_char(in, ':') || in->p >= in->end)
        return false;
    for (size_t i = 0; i < f->n; i++)
        if (span_eq(f->m[i].name, m->name))
            return false;
    switch (*in->p) {
    case '"':
        m->kind = 's';
        return fl_string(in, &m->str);
    case 't':
    case 'f':
        m->kind = 'b';
        m->b = *in->p == 't';
        return fl_lit(in, m->b ? "true" : "false");
    case '{':
        m->kind = 'm';
        return fl_attrs(in, f, m);
    default:
        return false;
    }
}

bool ddbjson_flat_parse(const char *text, size_t len, ddbjson_flat *f)
{
    flat_in in = { (const unsigned char *)text, (const unsigned char *)text + len };
    f->n = f->n_attrs = 0;
    if (!fl_char(&in, '{'))
        return false;
    if (in.p < in.end && *in.p == '}') {
        in.p++;
    } else {
        for (;;) {
            if (f->n == DDBJSON_FLAT_MAX || !fl_member(&in, f, &f->m[f->n]))
                return false;
            f->n++;
            fl_ws(&in);
            if (in.p < in.end && *in.p == '}') {
                in.p++;
                break;
            }
            if (!fl_char(&in, ','))
                return false;
        }
    }
    fl_ws(&in);
    return in.p == in.end;
}
