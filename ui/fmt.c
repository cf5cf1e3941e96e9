#include "ui/fmt.h"

#include <string.h>

#include "model/ddbjson.h"
#include "model/num.h"

/* Would this string be read as something else than a string? */
static bool looks_ambiguous(const char *s, size_t len)
{
    if (len == 0)
        return true;
    if (s[0] == ' ' || s[len - 1] == ' ')
        return true;
    if ((len == 4 && memcmp(s, "true", 4) == 0) || (len == 5 && memcmp(s, "false", 5) == 0) ||
        (len == 4 && memcmp(s, "null", 4) == 0))
        return true;
    if (s[0] == '"' || s[0] == '[' || s[0] == '{')
        return true;
    /* Text DynamoDB would accept as a number reads as one. */
    diag d;
    num n;
    diag_init(&d);
    return num_parse(s, len, &n, &d) == ST_OK;
}

static void cell(buf *out, const av *v, size_t max, size_t start)
{
    switch (v->type) {
    case AV_S:
        if (looks_ambiguous(v->u.s.ptr, v->u.s.len)) {
            buf_addc(out, '"');
            buf_add(out, v->u.s.ptr, v->u.s.len);
            buf_addc(out, '"');
        } else {
            buf_add(out, v->u.s.ptr, v->u.s.len);
        }
        break;
    case AV_B:
        buf_adds(out, "B:");
        av_scalar_text(v, out);
        break;
    case AV_N:
    case AV_BOOL:
    case AV_NULL:
        av_scalar_text(v, out);
        break;
    case AV_L: case AV_SS: case AV_NS: case AV_BS:
        buf_adds(out, v->type == AV_L ? "[" : v->type == AV_SS ? "SS{" : v->type == AV_NS ? "NS{" : "BS{");
        for (size_t i = 0; i < v->u.l.len; i++) {
            if (max && out->len - start > max) {
                buf_adds(out, "…");
                break;
            }
            if (i)
                buf_adds(out, ", ");
            cell(out, &v->u.l.v[i], max, start);
        }
        buf_addc(out, v->type == AV_L ? ']' : '}');
        break;
    case AV_M:
        buf_addc(out, '{');
        for (size_t i = 0; i < v->u.m.len; i++) {
            if (max && out->len - start > max) {
                buf_adds(out, "…");
                break;
            }
            if (i)
                buf_adds(out, ", ");
            buf_add(out, v->u.m.v[i].name, v->u.m.v[i].name_len);
            buf_adds(out, ": ");
            cell(out, &v->u.m.v[i].val, max, start);
        }
        buf_addc(out, '}');
        break;
    case AV_NONE:
        break;
    }
}

void fmt_cell(buf *out, const av *v, size_t max)
{
    cell(out, v, max, out->len);
}

void fmt_plain(buf *out, const av *v)
{
    if (!av_scalar_text(v, out))
        cell(out, v, 0, out->len);
}

void fmt_literal(buf *out, const av *v)
{
    if (v->type == AV_S)
        ddbjson_write_string(out, v->u.s.ptr, v->u.s.len);
    else if (v->type == AV_N)
        av_scalar_text(v, out);
    else
        ddbjson_write_value(out, v);
}

void fmt_bytes(buf *out, uint64_t n)
{
    if (n < 1024)
        buf_printf(out, "%llu B", (unsigned long long)n);
    else if (n < 1024 * 1024)
        buf_printf(out, "%.1f KB", (double)n / 1024);
    else if (n < 1024ull * 1024 * 1024)
        buf_printf(out, "%.1f MB", (double)n / (1024.0 * 1024));
    else
        buf_printf(out, "%.1f GB", (double)n / (1024.0 * 1024 * 1024));
}

void fmt_key(buf *out, const av *item, const char *pk, const char *sk)
{
    const char *names[2] = { pk, sk };
    for (int i = 0; i < 2; i++) {
        if (!names[i])
            continue;
        const av *v = av_map_get(item, names[i], strlen(names[i]));
        if (i)
            buf_addc(out, ' ');
        buf_printf(out, "%s=", names[i]);
        if (v)
            fmt_cell(out, v, 0);
        else
            buf_adds(out, "(none)");
    }
}
