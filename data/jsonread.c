/*
 * jsonread — JSON settings files read with file:line:column errors (see
 * jsonread.h).
 */
#include "data/jsonread.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

void jsonread_init(jsonread *r, const char *file, const char *text, size_t len, diag *d)
{
    memset(r, 0, sizeof *r);
    r->file = file;
    r->text = text;
    r->len = len;
    r->d = d;
}

status jsonread_load(const char *path, buf *out, diag *d)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(d->file, sizeof d->file, "%s", path);
        return diag_set(d, ST_IO, "cannot read: %s", strerror(errno));
    }
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_add(out, chunk, n);
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        snprintf(d->file, sizeof d->file, "%s", path);
        return diag_set(d, ST_IO, "cannot read: %s", strerror(errno));
    }
    if (!out->data)
        buf_adds(out, "");
    return ST_OK;
}

status jsonread_parse(jsonread *r, cJSON **root)
{
    if (ddbjson_cjson_parse(r->text, r->len, root, r->d) == ST_OK)
        return ST_OK;
    /* Syntax: where cJSON stopped (ddbjson gave line and column, which
     * the FILE:LINE:COL prefix says already). */
    snprintf(r->d->file, sizeof r->d->file, "%s", r->file);
    if (strncmp(r->d->msg, "invalid JSON at line", 20) == 0) {
        /* what is wrong there, when ddbjson says it (a bad \u escape) */
        const char *why = strstr(r->d->msg, ": ");
        buf b = BUF_INIT;
        buf_adds(&b, why ? why + 2 : "the syntax error is here");
        diag_set(r->d, ST_PARSE, "not valid JSON: %s", b.data);
        buf_done(&b);
    }
    return ST_PARSE;
}

void jsonread_push_name(jsonread *r, const char *name)
{
    if (r->depth < JSONREAD_DEPTH)
        r->seg[r->depth++] = (jsonpos_seg){ name, strlen(name), 0 };
}

void jsonread_push_index(jsonread *r, size_t i)
{
    if (r->depth < JSONREAD_DEPTH)
        r->seg[r->depth++] = (jsonpos_seg){ NULL, 0, i };
}

void jsonread_pop(jsonread *r)
{
    if (r->depth)
        r->depth--;
}

void jsonread_where(const jsonread *r, int *line, int *col, size_t *off)
{
    size_t at = 0;
    *line = 1;
    *col = 1;
    if (r->at_name ? jsonpos_find_name(r->text, r->len, r->seg, r->depth, &at)
                   : jsonpos_find(r->text, r->len, r->seg, r->depth, &at))
        jsonpos_line_col(r->text, r->len, at, line, col);
    if (off)
        *off = at;
}

static void path_text(const jsonread *r, buf *out)
{
    for (size_t i = 0; i < r->depth; i++) {
        if (r->seg[i].name)
            buf_printf(out, "%s%.*s", i ? "." : "", (int)r->seg[i].len, r->seg[i].name);
        else
            buf_printf(out, "[%zu]", r->seg[i].index);
    }
}

status jsonread_fail(jsonread *r, const char *fmt, ...)
{
    size_t off = 0;
    int line, col;
    jsonread_where(r, &line, &col, &off);
    buf b = BUF_INIT;
    path_text(r, &b);
    if (b.len)
        buf_adds(&b, ": ");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    snprintf(r->d->file, sizeof r->d->file, "%s", r->file);
    r->d->line = line;
    r->d->col = col;
    r->d->pos = (long)off;
    r->d->path[0] = '\0';
    diag_set(r->d, ST_PARSE, "%s", b.data);
    buf_done(&b);
    return ST_PARSE;
}

status jsonread_string(jsonread *r, const cJSON *v, bool empty_ok, char **out)
{
    if (!cJSON_IsString(v))
        return jsonread_fail(r, "must be a string");
    if (!empty_ok && !v->valuestring[0])
        return jsonread_fail(r, "must not be empty");
    *out = xstrdup(v->valuestring);
    return ST_OK;
}

status jsonread_bool(jsonread *r, const cJSON *v, bool *out)
{
    if (!cJSON_IsBool(v))
        return jsonread_fail(r, "must be true or false");
    *out = cJSON_IsTrue(v);
    return ST_OK;
}

status jsonread_count(jsonread *r, const cJSON *v, bool whole, double *out)
{
    if (!cJSON_IsNumber(v) || v->valuedouble < 0 || !isfinite(v->valuedouble) ||
        (whole && v->valuedouble != floor(v->valuedouble)))
        return jsonread_fail(r, whole ? "must be a whole number, 0 or more" : "must be a number, 0 or more");
    *out = v->valuedouble;
    return ST_OK;
}

bool jsonread_has_control(const char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 0x20 || *s == 0x7f)
            return true;
    return false;
}

static bool known(const char *name, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

status jsonread_members(jsonread *r, const cJSON *obj, const char *const *list)
{
    const cJSON *m;
    cJSON_ArrayForEach(m, obj) {
        if (!known(m->string, list)) {
            jsonread_push_name(r, m->string);
            buf b = BUF_INIT;
            for (size_t i = 0; list[i]; i++)
                buf_printf(&b, "%s%s", i ? ", " : "", list[i]);
            r->at_name = true;
            status st = jsonread_fail(r, "unknown member (expected one of: %s)", b.data);
            r->at_name = false;
            jsonread_pop(r);
            buf_done(&b);
            return st;
        }
    }
    return ST_OK;
}

status jsonread_each(jsonread *r, const cJSON *obj, const char *not_object,
                     const char *const *list, jsonread_member_fn one, void *ctx)
{
    if (!cJSON_IsObject(obj))
        return jsonread_fail(r, "%s", not_object);
    status st = list ? jsonread_members(r, obj, list) : ST_OK;
    const cJSON *m;
    cJSON_ArrayForEach(m, obj) {
        if (st != ST_OK)
            break;
        jsonread_push_name(r, m->string);
        st = one(r, m, ctx);
        jsonread_pop(r);
    }
    return st;
}
