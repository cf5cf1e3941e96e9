/*
 * builder_path — attribute paths (a.b[2].c): parse, print, copy, and
 * the list of paths an item offers to pick from. The tree that uses them
 * is in builder.c; builder_int.h is what the builder_*.c files share.
 */
#include "model/builder.h"
#include "model/builder_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/schema.h"

/* ---- paths --------------------------------------------------------------- */

void builder_path_free(bpath *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->v[i].name);
    free(p->v);
    p->v = NULL;
    p->n = 0;
}

void builder_path_copy(bpath *dst, const bpath *src)
{
    dst->n = src->n;
    dst->v = src->n ? xcalloc(src->n, sizeof *dst->v) : NULL;
    for (size_t i = 0; i < src->n; i++) {
        dst->v[i] = src->v[i];
        if (src->v[i].name)
            dst->v[i].name = xstrdup(src->v[i].name);
    }
}

void builder_path_push(bpath *p, const char *name, size_t len)
{
    p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
    p->v[p->n++] = (bstep){ .is_index = false, .name = xstrndup(name, len) };
}

void builder_path_push_index(bpath *p, uint32_t index)
{
    p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
    p->v[p->n++] = (bstep){ .is_index = true, .index = index };
}

void builder_path_pop(bpath *p)
{
    assert(p->n > 0);
    free(p->v[--p->n].name);
}

status builder_path_parse(const char *text, size_t len, bpath *out, diag *d)
{
    memset(out, 0, sizeof *out);
    buf name = BUF_INIT;
    size_t i = 0;
    bool want_name = true;     /* at the start or after '.' */
    status st = ST_OK;
    if (len == 0) {
        st = diag_at(d, ST_VALIDATION, 0, "The path is empty");
        goto out;
    }
    while (i < len) {
        if (want_name) {
            buf_reset(&name);
            size_t start = i;
            while (i < len && text[i] != '.' && text[i] != '[') {
                if (text[i] == ']') {
                    st = diag_at(d, ST_VALIDATION, (long)i, "Unexpected ']' in the path");
                    goto out;
                }
                if (text[i] == '\\' && i + 1 < len)
                    i++;
                buf_addc(&name, text[i++]);
            }
            if (i == start) {
                st = diag_at(d, ST_VALIDATION, (long)i, "An attribute name is missing in the path");
                goto out;
            }
            builder_path_push(out, name.data, name.len);
            want_name = false;
            continue;
        }
        if (text[i] == '.') {
            i++;
            want_name = true;
            if (i == len) {
                st = diag_at(d, ST_VALIDATION, (long)i, "An attribute name is missing in the path");
                goto out;
            }
            continue;
        }
        assert(text[i] == '[');
        size_t j = i + 1;
        uint64_t idx = 0;
        while (j < len && text[j] >= '0' && text[j] <= '9' && idx <= UINT32_MAX)
            idx = idx * 10 + (uint64_t)(text[j++] - '0');
        if (j == i + 1 || j >= len || text[j] != ']' || idx > UINT32_MAX) {
            st = diag_at(d, ST_VALIDATION, (long)i, "A list index must be [digits]");
            goto out;
        }
        builder_path_push_index(out, (uint32_t)idx);
        i = j + 1;
        if (i < len && text[i] != '.' && text[i] != '[') {
            st = diag_at(d, ST_VALIDATION, (long)i, "Expected '.' or '[' after a list index");
            goto out;
        }
    }
out:
    buf_done(&name);
    if (st)
        builder_path_free(out);
    return st;
}

void builder_path_text(const bpath *p, buf *out)
{
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].is_index) {
            buf_printf(out, "[%u]", p->v[i].index);
            continue;
        }
        if (i)
            buf_addc(out, '.');
        for (const char *c = p->v[i].name; *c; c++) {
            if (*c == '.' || *c == '[' || *c == ']' || *c == '\\')
                buf_addc(out, '\\');
            buf_addc(out, *c);
        }
    }
}

/* ---- paths to pick from --------------------------------------------------- */

typedef struct picks {
    char **v;
    size_t n, cap, max;
} picks;

static void pick_add(picks *k, const bpath *p)
{
    if (k->n >= k->max)
        return;
    buf t = BUF_INIT;
    builder_path_text(p, &t);
    for (size_t i = 0; i < k->n; i++)
        if (strcmp(k->v[i], t.data) == 0) {
            buf_done(&t);
            return;
        }
    if (k->n == k->cap) {
        k->cap = k->cap ? 2 * k->cap : 16;
        k->v = xrealloc(k->v, k->cap * sizeof *k->v);
    }
    k->v[k->n++] = buf_steal(&t);
    buf_done(&t);
}

static void pick_name(picks *k, const char *name)
{
    if (!name || !*name)
        return;
    bpath p = { 0 };
    builder_path_push(&p, name, strlen(name));
    pick_add(k, &p);
    builder_path_free(&p);
}

/* p is the path of v; adds it and, for maps and lists, what they hold.
 * DynamoDB nests at most 32 levels, the bound of the recursion. */
static void pick_value(picks *k, bpath *p, const av *v, int depth)
{
    pick_add(k, p);
    if (depth >= 32 || k->n >= k->max)
        return;
    if (v->type == AV_M) {
        for (size_t i = 0; i < v->u.m.len && k->n < k->max; i++) {
            builder_path_push(p, v->u.m.v[i].name, v->u.m.v[i].name_len);
            pick_value(k, p, &v->u.m.v[i].val, depth + 1);
            free(p->v[--p->n].name);
        }
    } else if (v->type == AV_L) {
        for (size_t i = 0; i < v->u.l.len && k->n < k->max; i++) {
            builder_path_push_index(p, (uint32_t)i);
            pick_value(k, p, &v->u.l.v[i], depth + 1);
            p->n--;
        }
    }
}

void builder_pick_paths(const table_def *def, const av *item, size_t max, char ***out, size_t *n)
{
    picks k = { NULL, 0, 0, max };
    if (def) {
        pick_name(&k, def->pk.name);
        pick_name(&k, def->sk.name);
        for (size_t i = 0; i < def->n_idx; i++) {
            pick_name(&k, def->idx[i].pk.name);
            pick_name(&k, def->idx[i].sk.name);
        }
    }
    if (item && item->type == AV_M) {
        for (size_t i = 0; i < item->u.m.len && k.n < max; i++) {
            bpath p = { 0 };
            builder_path_push(&p, item->u.m.v[i].name, item->u.m.v[i].name_len);
            pick_value(&k, &p, &item->u.m.v[i].val, 1);
            builder_path_free(&p);
        }
    }
    *out = k.v;
    *n = k.n;
}

void builder_paths_free(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}
