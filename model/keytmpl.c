/*
 * keytmpl — key templates for `ddbx evolve` (see keytmpl.h).
 */
#include "model/keytmpl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

/* DynamoDB's key size limits (developer guide, "Service, account, and
 * table quotas": partition key 2048 bytes, sort key 1024). */
#define KEY_PK_MAX 2048
#define KEY_SK_MAX 1024

static bool name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.';
}

static void add_part(keytmpl *t, char *lit, char **path, size_t n_path)
{
    t->parts = xrealloc(t->parts, (t->n + 1) * sizeof *t->parts);
    t->parts[t->n++] = (keytmpl_part){ lit, path, n_path };
}

/* A ${PATH} whose text is s[from, to): its dotted segments. */
static status add_ref(keytmpl *t, const char *s, size_t from, size_t to, diag *d)
{
    if (from == to)
        return diag_at(d, ST_PARSE, (long)from - 2, "an empty ${}: name an attribute inside it");
    char **path = NULL;
    size_t n = 0, seg = from;
    for (size_t i = from; i <= to; i++) {
        if (i < to && s[i] != '.')
            continue;
        if (i == seg) {
            for (size_t k = 0; k < n; k++)
                free(path[k]);
            free(path);
            return diag_at(d, ST_PARSE, (long)i, "an empty name in the path %.*s", (int)(to - from), s + from);
        }
        path = xrealloc(path, (n + 1) * sizeof *path);
        path[n++] = xstrndup(s + seg, i - seg);
        seg = i + 1;
    }
    add_part(t, NULL, path, n);
    return ST_OK;
}

static status parse_template(keytmpl *t, const char *s, size_t off, diag *d)
{
    buf lit = BUF_INIT;
    status st = ST_OK;
    size_t len = strlen(s);
    for (size_t i = off; i < len && st == ST_OK;) {
        if (s[i] == '$' && i + 1 < len && s[i + 1] == '$') {
            buf_addc(&lit, '$');
            i += 2;
        } else if (s[i] == '$' && i + 1 < len && s[i + 1] == '{') {
            const char *close = strchr(s + i + 2, '}');
            if (!close) {
                st = diag_at(d, ST_PARSE, (long)i, "${ is not closed by }");
                break;
            }
            if (lit.len)
                add_part(t, buf_steal(&lit), NULL, 0);
            size_t end = (size_t)(close - s);
            for (size_t k = i + 2; k < end && st == ST_OK; k++)
                if (!name_char(s[k]))
                    st = diag_at(d, ST_PARSE, (long)k, "'%c' cannot be in an attribute path (letters, digits,"
                                 " _ - and . between names)", s[k]);
            if (st == ST_OK)
                st = add_ref(t, s, i + 2, end, d);
            i = end + 1;
        } else if (s[i] == '$') {
            st = diag_at(d, ST_PARSE, (long)i, "a lone $: write ${NAME} for an attribute, $$ for a $");
        } else {
            buf_addc(&lit, s[i++]);
        }
    }
    if (st == ST_OK && lit.len)
        add_part(t, buf_steal(&lit), NULL, 0);
    buf_done(&lit);
    if (st == ST_OK && !t->n)
        st = diag_at(d, ST_PARSE, (long)off, "an empty template");
    return st;
}

static status parse_named(keytmpl *t, const char *s, diag *d)
{
    size_t len = strlen(s), from = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && s[i] != '+') {
            if (!name_char(s[i]) || s[i] == '.')
                return diag_at(d, ST_PARSE, (long)i, "'%c' cannot be in an attribute name here (a template"
                               " names attributes as ${NAME})", s[i]);
            continue;
        }
        if (i == from)
            return diag_at(d, ST_PARSE, (long)i, "an empty attribute name (a+b names two)");
        t->names = xrealloc(t->names, (t->n_names + 1) * sizeof *t->names);
        t->names[t->n_names++] = xstrndup(s + from, i - from);
        from = i + 1;
    }
    return ST_OK;
}

status keytmpl_parse(const char *text, const char *default_attr, keytmpl *t, diag *d)
{
    memset(t, 0, sizeof *t);
    t->text = xstrdup(text);
    status st;
    if (!*text) {
        st = diag_at(d, ST_PARSE, 0, "an empty template");
    } else if (!strchr(text, '$')) {
        st = parse_named(t, text, d);
    } else {
        /* NAME=... names the attribute written, when NAME is a plain name. */
        size_t off = 0;
        const char *eq = strchr(text, '=');
        if (eq && eq > text && eq < strchr(text, '$')) {
            off = (size_t)(eq - text);
            for (size_t i = 0; i < off; i++)
                if (!name_char(text[i]) || text[i] == '.')
                    off = 0;
        }
        t->attr = off ? xstrndup(text, off) : xstrdup(default_attr);
        st = parse_template(t, text, off ? off + 1 : 0, d);
    }
    if (st != ST_OK) {
        keytmpl_done(t);
        t->text = NULL;
    }
    return st;
}

void keytmpl_done(keytmpl *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->parts[i].lit);
        for (size_t k = 0; k < t->parts[i].n_path; k++)
            free(t->parts[i].path[k]);
        free(t->parts[i].path);
    }
    for (size_t i = 0; i < t->n_names; i++)
        free(t->names[i]);
    free(t->parts);
    free(t->names);
    free(t->attr);
    free(t->text);
    memset(t, 0, sizeof *t);
}

bool keytmpl_named(const keytmpl *t)
{
    return t->attr == NULL;
}

static const av *lookup(const av *item, char *const *path, size_t n, buf *where)
{
    const av *v = item;
    for (size_t i = 0; i < n; i++) {
        if (v->type != AV_M)
            v = NULL;
        else
            v = av_map_get(v, path[i], strlen(path[i]));
        if (!v)
            break;
    }
    if (where) {
        buf_reset(where);
        for (size_t i = 0; i < n; i++)
            buf_printf(where, "%s%s", i ? "." : "", path[i]);
    }
    return v;
}

static bool key_type(av_type t)
{
    return t == AV_S || t == AV_N || t == AV_B;
}

static keytmpl_why check_len(const av *v, bool partition)
{
    size_t len = v->type == AV_N ? 0 : v->u.s.len;
    if ((v->type == AV_S || v->type == AV_B) && len == 0)
        return KEYTMPL_EMPTY;
    return len > (partition ? KEY_PK_MAX : KEY_SK_MAX) ? KEYTMPL_TOO_LONG : KEYTMPL_OK;
}

static keytmpl_why apply_named(const keytmpl *t, const av *item, bool partition, av *out, buf *where,
                               av_type *type)
{
    for (size_t i = 0; i < t->n_names; i++) {
        const av *v = lookup(item, &t->names[i], 1, where);
        if (!v)
            return KEYTMPL_MISSING;
        if (!key_type(v->type)) {
            *type = v->type;
            return KEYTMPL_TYPE;
        }
        keytmpl_why w = check_len(v, partition);
        if (w != KEYTMPL_OK)
            return w;
    }
    av_copy(out, lookup(item, &t->names[0], 1, NULL));
    return KEYTMPL_OK;
}

keytmpl_why keytmpl_apply(const keytmpl *t, const av *item, bool partition, av *out, buf *where,
                          av_type *type)
{
    assert(item->type == AV_M);
    if (keytmpl_named(t))
        return apply_named(t, item, partition, out, where, type);
    buf s = BUF_INIT;
    av one = { .type = AV_NONE };
    keytmpl_why w = KEYTMPL_OK;
    for (size_t i = 0; i < t->n && w == KEYTMPL_OK; i++) {
        const keytmpl_part *p = &t->parts[i];
        if (p->lit) {
            buf_adds(&s, p->lit);
            continue;
        }
        const av *v = lookup(item, p->path, p->n_path, where);
        if (!v) {
            w = KEYTMPL_MISSING;
        } else if (t->n == 1 ? !key_type(v->type) : v->type != AV_S && v->type != AV_N) {
            *type = v->type;
            w = KEYTMPL_TYPE;
        } else if (t->n == 1) {
            av_copy(&one, v);
        } else if (v->type == AV_S) {
            buf_add(&s, v->u.s.ptr, v->u.s.len);
        } else {
            char text[NUM_TEXT_MAX];
            size_t n = num_format(&v->u.n, text);
            buf_add(&s, text, n);
        }
    }
    if (w == KEYTMPL_OK && one.type == AV_NONE)
        av_init_s(&one, s.data ? s.data : "", s.len);
    buf_done(&s);
    if (w == KEYTMPL_OK && (w = check_len(&one, partition)) != KEYTMPL_OK && where) {
        buf_reset(where);
        buf_adds(where, t->attr);
    }
    if (w == KEYTMPL_OK)
        *out = one;
    else
        av_done(&one);
    return w;
}

void keytmpl_paths(const keytmpl *t, keytmpl_path_fn fn, void *ctx)
{
    for (size_t i = 0; i < t->n_names; i++)
        fn(ctx, &t->names[i], 1);
    for (size_t i = 0; i < t->n; i++)
        if (!t->parts[i].lit)
            fn(ctx, t->parts[i].path, t->parts[i].n_path);
}

const char *keytmpl_why_text(keytmpl_why w)
{
    switch (w) {
    case KEYTMPL_OK: return "ok";
    case KEYTMPL_MISSING: return "an attribute missing";
    case KEYTMPL_TYPE: return "a type that cannot be a key";
    case KEYTMPL_EMPTY: return "an empty string (a key cannot be empty)";
    case KEYTMPL_TOO_LONG: return "longer than a key may be";
    }
    return "?";
}
