/*
 * builder_value — a clause's operands: a path, a typed value or
 * list_append/if_not_exists, and the text form a value is typed in and
 * shown as (builder_value_parse, builder_value_text). builder_int.h is
 * what the builder_*.c files share.
 */
#include "model/builder.h"
#include "model/builder_int.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/base64.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "model/num.h"

/* ---- operands and values ----------------------------------------------- */

void builder_opnd_free(bopnd *o)
{
    builder_path_free(&o->path);
    av_done(&o->value);
    for (size_t i = 0; i < o->n_sub; i++)
        builder_opnd_free(&o->sub[i]);
    free(o->sub);
    o->sub = NULL;
    o->n_sub = 0;
}

void builder_opnd_copy(bopnd *dst, const bopnd *src)
{
    dst->kind = src->kind;
    builder_path_copy(&dst->path, &src->path);
    if (src->value.type != AV_NONE)
        av_copy(&dst->value, &src->value);
    else
        dst->value.type = AV_NONE;
    dst->n_sub = src->n_sub;
    dst->sub = src->n_sub ? xcalloc(src->n_sub, sizeof *dst->sub) : NULL;
    for (size_t i = 0; i < src->n_sub; i++)
        builder_opnd_copy(&dst->sub[i], &src->sub[i]);
}

void builder_opnd_set_kind(bopnd *o, bopnd_kind k)
{
    bpath keep = o->path;
    bool has_path = k == BO_PATH || k == BO_SIZE || k == BO_IF_NOT_EXISTS;
    o->path = (bpath){ 0 };
    builder_opnd_free(o);
    if (has_path)
        o->path = keep;
    else
        builder_path_free(&keep);
    o->kind = k;
    o->value.type = AV_NONE;
    if (k == BO_LIST_APPEND) {
        o->n_sub = 2;
        o->sub = xcalloc(2, sizeof *o->sub);
        o->sub[0].kind = o->sub[1].kind = BO_VALUE;
    }
}

static status parse_json_value(av_type t, const char *text, size_t len, av *out, diag *d)
{
    /* DynamoDB JSON first ({"L": [...]}), then plain JSON. */
    buf w = BUF_INIT;
    diag dd;
    diag_init(&dd);
    buf_printf(&w, "{\"%s\":", av_type_name(t));
    buf_add(&w, text, len);
    buf_addc(&w, '}');
    status st = ddbjson_parse_value(w.data, w.len, out, &dd);
    if (st) {
        buf_reset(&w);
        buf_adds(&w, "{\"v\":");
        buf_add(&w, text, len);
        buf_addc(&w, '}');
        av item;
        diag_init(&dd);
        st = ddbjson_parse_plain_item(w.data, w.len, &item, &dd);
        if (!st) {
            const av *v = av_map_get(&item, "v", 1);
            if (v && v->type == t) {
                av_copy(out, v);
            } else {
                st = ST_VALIDATION;
                diag_set(&dd, ST_VALIDATION, "not a JSON %s", t == AV_L ? "array" : "object");
            }
            av_done(&item);
        }
    }
    if (st) {
        out->type = AV_NONE;
        diag_set(d, ST_VALIDATION, "%s expects a JSON %s (DynamoDB JSON or plain): %s",
                 av_type_name(t), t == AV_L ? "array" : "object", dd.msg);
    }
    buf_done(&w);
    return st;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static status scalar(av_type t, const char *p, size_t n, av *out, diag *d)
{
    switch (t) {
    case AV_S:
        av_init_s(out, p, n);
        return ST_OK;
    case AV_N: {
        num x;
        diag dd;
        diag_init(&dd);
        if (num_parse(p, n, &x, &dd))
            return diag_set(d, ST_VALIDATION, "N: %s", dd.msg);
        av_init_n(out, &x);
        return ST_OK;
    }
    case AV_B: {
        buf b = BUF_INIT;
        base64_result r = base64_decode(&b, p, n);
        if (r != BASE64_OK) {
            buf_done(&b);
            return diag_set(d, ST_VALIDATION, "B: not valid base64 (%s)",
                            r == BASE64_BAD_LENGTH ? "length is not a multiple of 4"
                                                   : "a character outside the alphabet or misplaced padding");
        }
        av_init_b(out, b.data ? b.data : "", b.len);
        buf_done(&b);
        return ST_OK;
    }
    default:
        break;
    }
    assert(0);
    return ST_INTERNAL;
}

static status parse_set(av_type t, const char *text, size_t len, av *out, diag *d)
{
    av_type et = av_set_elem(t);
    size_t i = 0;
    while (i < len && is_space(text[i]))
        i++;
    status st = ST_OK;
    av_init_list(out, t);
    if (i < len && text[i] == '[') {
        /* A JSON array of strings: reuse the codec with {"SS": [...]}
         * (it checks numbers and base64 for NS and BS). */
        av tmp;
        diag dd;
        diag_init(&dd);
        buf w = BUF_INIT;
        buf_printf(&w, "{\"%s\":", av_type_name(t));
        buf_add(&w, text, len);
        buf_addc(&w, '}');
        st = ddbjson_parse_value(w.data, w.len, &tmp, &dd);
        buf_done(&w);
        if (st) {
            av_done(out);
            return diag_set(d, ST_VALIDATION, "%s: %s", av_type_name(t), dd.msg);
        }
        av_done(out);
        av_move(out, &tmp);
        return ST_OK;
    }
    /* Comma-separated elements, spaces around them trimmed. */
    size_t start = 0;
    for (size_t k = 0; k <= len; k++) {
        if (k < len && text[k] != ',')
            continue;
        size_t a = start, b = k;
        while (a < b && is_space(text[a]))
            a++;
        while (b > a && is_space(text[b - 1]))
            b--;
        start = k + 1;
        if (a == b && et != AV_S) {
            if (k == len && out->u.l.len == 0)
                break;
            av_done(out);
            return diag_set(d, ST_VALIDATION, "%s: an empty element", av_type_name(t));
        }
        av e;
        st = scalar(et, text + a, b - a, &e, d);
        if (st) {
            av_done(out);
            return st;
        }
        av_list_push(out, &e);
    }
    if (out->u.l.len == 0) {
        av_done(out);
        return diag_set(d, ST_VALIDATION, "%s: a set can not be empty", av_type_name(t));
    }
    if (!av_set_normalize(out)) {
        av_done(out);
        return diag_set(d, ST_VALIDATION, "%s: Input collection contains duplicates", av_type_name(t));
    }
    return ST_OK;
}

status builder_value_parse(av_type t, const char *text, size_t len, av *out, diag *d)
{
    out->type = AV_NONE;
    status st = ST_OK;
    switch (t) {
    case AV_S:
    case AV_N:
    case AV_B:
        st = scalar(t, text, len, out, d);
        break;
    case AV_BOOL:
        if (len == 4 && strncasecmp(text, "true", 4) == 0)
            av_init_bool(out, true);
        else if (len == 5 && strncasecmp(text, "false", 5) == 0)
            av_init_bool(out, false);
        else
            st = diag_set(d, ST_VALIDATION, "BOOL: type true or false");
        break;
    case AV_NULL:
        if (len == 0 || (len == 4 && (strncasecmp(text, "null", 4) == 0 ||
                                      strncasecmp(text, "true", 4) == 0)))
            av_init_null(out);
        else
            st = diag_set(d, ST_VALIDATION, "NULL: leave empty or type null");
        break;
    case AV_L:
    case AV_M:
        st = parse_json_value(t, text, len, out, d);
        break;
    case AV_SS:
    case AV_NS:
    case AV_BS:
        st = parse_set(t, text, len, out, d);
        break;
    default:
        st = diag_set(d, ST_VALIDATION, "Unknown type");
        break;
    }
    if (st)
        out->type = AV_NONE;
    return st;
}

void builder_value_text(const av *v, buf *out)
{
    if (av_scalar_text(v, out))
        return;
    switch (v->type) {
    case AV_SS: case AV_NS: case AV_BS:
        buf_addc(out, '[');
        for (size_t i = 0; i < v->u.l.len; i++) {
            if (i)
                buf_addc(out, ',');
            buf b = BUF_INIT;
            builder_value_text(&v->u.l.v[i], &b);
            ddbjson_write_string(out, b.data ? b.data : "", b.len);
            buf_done(&b);
        }
        buf_addc(out, ']');
        break;
    case AV_L:
    case AV_M: {
        /* The inside of {"L": ...}: write the value and strip the tag. */
        buf b = BUF_INIT;
        ddbjson_write_value(&b, v);
        size_t skip = strlen(v->type == AV_L ? "{\"L\":" : "{\"M\":");
        assert(b.len > skip);
        buf_add(out, b.data + skip, b.len - skip - 1);
        buf_done(&b);
        break;
    }
    default:
        break;
    }
}
