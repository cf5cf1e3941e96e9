/*
 * ddbjson_plain — plain JSON in (see ddbjson.h): a small reader of our own
 * rather than cJSON, which keeps numbers as doubles: plain JSON numbers
 * become N exactly. Also the names and values maps typed as text
 * (ddbjson_parse_maps), names being plain JSON and values DynamoDB JSON.
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

/* A small recursive-descent reader for plain JSON, straight into avs. */
typedef struct pj {
    const char *s, *p, *end;
    diag *d;
    path path;
    int depth;
} pj;

#define PJ_MAX_DEPTH 512

__attribute__((format(printf, 2, 3)))
static status pj_fail(pj *j, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    ddbjson_locate(j->d, j->s, (size_t)(j->p - j->s));
    return ddbjson_fail(j->d, ST_PARSE, &j->path, "%s at line %d, column %d", msg,
                j->d ? j->d->line : 0, j->d ? j->d->col : 0);
}

static void pj_ws(pj *j)
{
    while (j->p < j->end && is_ws(*j->p))
        j->p++;
}

static int hex4(const char *p)
{
    int v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p[i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= c - '0';
        else if (c >= 'a' && c <= 'f') v |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F') v |= c - 'A' + 10;
        else return -1;
    }
    return v;
}

static void put_utf8(buf *out, unsigned cp)
{
    char u[4];
    if (cp < 0x80) {
        buf_addc(out, (char)cp);
    } else if (cp < 0x800) {
        u[0] = (char)(0xC0 | cp >> 6);
        u[1] = (char)(0x80 | (cp & 63));
        buf_add(out, u, 2);
    } else if (cp < 0x10000) {
        u[0] = (char)(0xE0 | cp >> 12);
        u[1] = (char)(0x80 | ((cp >> 6) & 63));
        u[2] = (char)(0x80 | (cp & 63));
        buf_add(out, u, 3);
    } else {
        u[0] = (char)(0xF0 | cp >> 18);
        u[1] = (char)(0x80 | ((cp >> 12) & 63));
        u[2] = (char)(0x80 | ((cp >> 6) & 63));
        u[3] = (char)(0x80 | (cp & 63));
        buf_add(out, u, 4);
    }
}

/* At an opening quote: appends the decoded string to out (NULs allowed). */
static status pj_string(pj *j, buf *out)
{
    assert(*j->p == '"');
    j->p++;
    while (j->p < j->end) {
        const char *run = j->p;
        while (j->p < j->end && *j->p != '"' && *j->p != '\\' && (unsigned char)*j->p >= 0x20)
            j->p++;
        buf_add(out, run, (size_t)(j->p - run));
        if (j->p >= j->end)
            break;
        char c = *j->p;
        if (c == '"') {
            j->p++;
            return ST_OK;
        }
        if (c != '\\')
            return pj_fail(j, "control character in string");
        if (j->p + 1 >= j->end)
            break;
        char e = j->p[1];
        j->p += 2;
        switch (e) {
        case '"': case '\\': case '/': buf_addc(out, e); break;
        case 'b': buf_addc(out, '\b'); break;
        case 'f': buf_addc(out, '\f'); break;
        case 'n': buf_addc(out, '\n'); break;
        case 'r': buf_addc(out, '\r'); break;
        case 't': buf_addc(out, '\t'); break;
        case 'u': {
            int cp = j->end - j->p >= 4 ? hex4(j->p) : -1;
            if (cp < 0)
                return pj_fail(j, "invalid \\u escape");
            j->p += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                int lo = j->end - j->p >= 6 && j->p[0] == '\\' && j->p[1] == 'u' ? hex4(j->p + 2) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return pj_fail(j, "unpaired surrogate in \\u escape");
                j->p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                return pj_fail(j, "unpaired surrogate in \\u escape");
            }
            put_utf8(out, (unsigned)cp);
            break;
        }
        default:
            j->p--;
            return pj_fail(j, "invalid escape in string");
        }
    }
    return pj_fail(j, "unterminated string");
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static status pj_number(pj *j, av *out)
{
    const char *start = j->p, *q = j->p;
    if (q < j->end && *q == '-')
        q++;
    if (q < j->end && *q == '0')
        q++;
    else if (q < j->end && is_digit(*q))
        while (q < j->end && is_digit(*q))
            q++;
    else
        return pj_fail(j, "invalid number");
    if (q < j->end && *q == '.') {
        q++;
        if (q >= j->end || !is_digit(*q))
            return (j->p = q, pj_fail(j, "invalid number"));
        while (q < j->end && is_digit(*q))
            q++;
    }
    if (q < j->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < j->end && (*q == '+' || *q == '-'))
            q++;
        if (q >= j->end || !is_digit(*q))
            return (j->p = q, pj_fail(j, "invalid number"));
        while (q < j->end && is_digit(*q))
            q++;
    }
    num n;
    status st = num_parse(start, (size_t)(q - start), &n, j->d);
    if (st != ST_OK) {
        ddbjson_locate(j->d, j->s, (size_t)(start - j->s));
        return ddbjson_fail(j->d, st, &j->path, "%s", j->d ? j->d->msg : "");
    }
    j->p = q;
    av_init_n(out, &n);
    return ST_OK;
}

static bool pj_lit(pj *j, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(j->end - j->p) >= n && memcmp(j->p, lit, n) == 0) {
        j->p += n;
        return true;
    }
    return false;
}

static status pj_value(pj *j, av *out);

static status pj_object(pj *j, av *out)
{
    status st = ST_OK;
    buf name = BUF_INIT;
    av_init_list(out, AV_M);
    j->p++;
    pj_ws(j);
    if (j->p < j->end && *j->p == '}') {
        j->p++;
        goto out;
    }
    for (;;) {
        pj_ws(j);
        if (j->p >= j->end || *j->p != '"') {
            st = pj_fail(j, "expected a member name");
            goto out;
        }
        buf_reset(&name);
        if ((st = pj_string(j, &name)) != ST_OK)
            goto out;
        pj_ws(j);
        if (j->p >= j->end || *j->p != ':') {
            st = pj_fail(j, "expected ':'");
            goto out;
        }
        j->p++;
        size_t old = path_push_name(&j->path, name.data ? name.data : "");
        av v;
        st = pj_value(j, &v);
        path_pop(&j->path, old);
        if (st != ST_OK)
            goto out;
        av_map_put(out, name.data ? name.data : "", name.len, &v);
        pj_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == '}') {
            j->p++;
            goto out;
        }
        st = pj_fail(j, "expected ',' or '}'");
        goto out;
    }
out:
    buf_done(&name);
    if (st != ST_OK)
        av_done(out);
    return st;
}

static status pj_array(pj *j, av *out)
{
    status st = ST_OK;
    av_init_list(out, AV_L);
    j->p++;
    pj_ws(j);
    if (j->p < j->end && *j->p == ']') {
        j->p++;
        return ST_OK;
    }
    for (int i = 0;; i++) {
        size_t old = path_push_index(&j->path, i);
        av v;
        st = pj_value(j, &v);
        path_pop(&j->path, old);
        if (st != ST_OK)
            break;
        av_list_push(out, &v);
        pj_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == ']') {
            j->p++;
            return ST_OK;
        }
        st = pj_fail(j, "expected ',' or ']'");
        break;
    }
    av_done(out);
    return st;
}

static status pj_value(pj *j, av *out)
{
    status st;
    pj_ws(j);
    out->type = AV_NONE;
    if (j->p >= j->end)
        return pj_fail(j, "unexpected end of input");
    if (++j->depth > PJ_MAX_DEPTH) {
        st = pj_fail(j, "nested too deeply");
        goto out;
    }
    switch (*j->p) {
    case '{':
        st = pj_object(j, out);
        break;
    case '[':
        st = pj_array(j, out);
        break;
    case '"': {
        buf s = BUF_INIT;
        st = pj_string(j, &s);
        if (st == ST_OK)
            av_init_s(out, s.data ? s.data : "", s.len);
        buf_done(&s);
        break;
    }
    default:
        st = ST_OK;
        if (pj_lit(j, "true"))
            av_init_bool(out, true);
        else if (pj_lit(j, "false"))
            av_init_bool(out, false);
        else if (pj_lit(j, "null"))
            av_init_null(out);
        else if (*j->p == '-' || is_digit(*j->p))
            st = pj_number(j, out);
        else
            st = pj_fail(j, "unexpected character");
    }
out:
    j->depth--;
    return st;
}

status ddbjson_parse_plain_item(const char *text, size_t len, av *item, diag *d)
{
    pj j = { .s = text, .p = text, .end = text + len, .d = d };
    path_init(&j.path, NULL);
    status cst = ddbjson_check_text(text, len, d);
    if (cst != ST_OK)
        return cst;
    pj_ws(&j);
    if (j.p >= j.end || *j.p != '{')
        return pj_fail(&j, "expected a JSON object");
    status st = pj_value(&j, item);
    if (st != ST_OK)
        return st;
    pj_ws(&j);
    if (j.p != j.end) {
        av_done(item);
        return pj_fail(&j, "unexpected text after the object");
    }
    return ST_OK;
}

/* One map of ddbjson_parse_maps. */
static status parse_map(const char *text, bool names, av *out, diag *d)
{
    out->type = AV_NONE;
    size_t n = text ? strlen(text) : 0;
    if (strspn(text ? text : "", " \t\n\r") == n)
        return ST_OK;
    status st = names ? ddbjson_parse_plain_item(text, n, out, d) : ddbjson_parse_item(text, n, out, d);
    for (size_t k = 0; st == ST_OK && names && k < out->u.m.len; k++)
        if (out->u.m.v[k].val.type != AV_S)
            st = diag_set(d, ST_VALIDATION, "the name of %s must be a JSON string", out->u.m.v[k].name);
    if (st != ST_OK) {
        av_done(out);
        out->type = AV_NONE;
        snprintf(d->file, sizeof d->file, "%s", names ? DDBJSON_NAMES_MEMBER : DDBJSON_VALUES_MEMBER);
    }
    return st;
}

status ddbjson_parse_maps(const char *names, const char *values, av *names_out, av *values_out,
                          diag *d)
{
    values_out->type = AV_NONE;
    status st = parse_map(names, true, names_out, d);
    if (st == ST_OK && (st = parse_map(values, false, values_out, d)) != ST_OK) {
        av_done(names_out);
        names_out->type = AV_NONE;
    }
    return st;
}
