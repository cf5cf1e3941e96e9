#include "ui/colset.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "data/saved.h"
#include "model/mem.h"
#include "model/schema.h"
#include "ui/display.h"

static unsigned generation;

/* Bumped by every colset_save: views holding colsets load them again. */
static unsigned colset_generation(void)
{
    return generation;
}

/* ---- entity types ---------------------------------------------------- */

static bool is_type_name(const char *name)
{
    static const char *const names[] = { "type", "entitytype", "entity_type", "_type",
                                         "__typename", "entity" };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcasecmp(name, names[i]) == 0)
            return true;
    return false;
}

void colset_entity(const av *item, const char *sk, buf *out)
{
    for (size_t i = 0; i < item->u.m.len; i++) {
        const av_member *m = &item->u.m.v[i];
        if (m->val.type == AV_S && m->val.u.s.len && m->val.u.s.len <= 64 && is_type_name(m->name)) {
            buf_add(out, m->val.u.s.ptr, m->val.u.s.len);
            return;
        }
    }
    schema_key_prefix(sk ? av_map_get(item, sk, strlen(sk)) : NULL, out);
}

void colset_entity_label(const char *entity, buf *out)
{
    if (*entity)
        buf_printf(out, "%s items", entity);
    else
        buf_adds(out, "items of no type");
}

/* ---- a colset: saved text ---------------------------------------------- */

/*
 * The saved form: one column a line, a flag then the name: '+' shown, '-'
 * hidden, '*' pinned; '%' and a newline in a name as %25 and %0A.
 */
static void format(const colset *c, buf *out)
{
    for (size_t i = 0; i < c->n; i++) {
        buf_addc(out, c->flags[i] & COLSET_HIDDEN ? '-' : c->flags[i] & COLSET_PINNED ? '*' : '+');
        for (const char *p = c->names[i]; *p; p++)
            if (*p == '%')
                buf_adds(out, "%25");
            else if (*p == '\n')
                buf_adds(out, "%0A");
            else
                buf_addc(out, *p);
        buf_addc(out, '\n');
    }
}

static void push(colset *c, const char *name, size_t len, unsigned char flags)
{
    c->names = xrealloc(c->names, (c->n + 1) * sizeof *c->names);
    c->flags = xrealloc(c->flags, (c->n + 1) * sizeof *c->flags);
    char *s = xmalloc(len + 1);
    memcpy(s, name, len);
    s[len] = '\0';
    c->names[c->n] = s;
    c->flags[c->n++] = flags;
}

static void parse(colset *c, const char *text)
{
    buf name = BUF_INIT;
    for (const char *l = text; *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len > 1 && strchr("+-*", l[0])) {
            buf_reset(&name);
            for (size_t i = 1; i < len; i++)
                if (l[i] == '%' && i + 2 < len + 1 && strncmp(l + i, "%25", 3) == 0)
                    buf_addc(&name, '%'), i += 2;
                else if (l[i] == '%' && strncmp(l + i, "%0A", 3) == 0)
                    buf_addc(&name, '\n'), i += 2;
                else
                    buf_addc(&name, l[i]);
            push(c, name.data, name.len,
                 l[0] == '-' ? COLSET_HIDDEN : l[0] == '*' ? COLSET_PINNED : 0);
        }
        l += len + (e ? 1 : 0);
    }
    buf_done(&name);
}

void colset_done(colset *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->names[i]);
    free(c->names);
    free(c->flags);
    memset(c, 0, sizeof *c);
}

/* What this session chose, whether or not the database took it (a
 * read-only one does not): what colset_load finds first. */
typedef struct kept {
    char *table, *entity, *spec;
    struct kept *next;
} kept;
static kept *session;

static kept *kept_find(const char *table, const char *entity)
{
    for (kept *k = session; k; k = k->next)
        if (strcmp(k->table, table) == 0 && strcmp(k->entity, entity) == 0)
            return k;
    return NULL;
}

/* Frees what the session kept (run at exit). */
static void colset_forget_session(void)
{
    while (session) {
        kept *k = session;
        session = k->next;
        free(k->table);
        free(k->entity);
        free(k->spec);
        free(k);
    }
}

void colset_load(colset *c, const char *table, const char *entity)
{
    colset_done(c);
    kept *k = kept_find(table, entity);
    if (k) {
        parse(c, k->spec);
        return;
    }
    char *spec = NULL;
    diag d;
    diag_init(&d);
    /* Nothing saved, or no database to keep it: the natural order. */
    if (saved_cols_get(display_store(), table, entity, &spec, &d) == ST_OK && spec)
        parse(c, spec);
    free(spec);
}

status colset_save(const colset *c, const char *table, const char *entity, diag *d)
{
    buf b = BUF_INIT;
    format(c, &b);
    const char *spec = b.data ? b.data : "";
    kept *k = kept_find(table, entity);
    if (!k) {
        if (!session)
            atexit(colset_forget_session);   /* at most once: session stays set */
        k = xcalloc(1, sizeof *k);
        k->table = xstrdup(table);
        k->entity = xstrdup(entity);
        k->next = session;
        session = k;
    }
    free(k->spec);
    k->spec = xstrdup(spec);
    status st = saved_cols_put(display_store(), table, entity, spec, d);
    buf_done(&b);
    generation++;
    return st;
}

static long find(const colset *c, const char *name)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->names[i], name) == 0)
            return (long)i;
    return -1;
}

void colset_merge(colset *c, const cols *all)
{
    for (size_t k = 1; k < all->n; k++)
        if (find(c, all->c[k].name) < 0)
            push(c, all->c[k].name, strlen(all->c[k].name), 0);
}

/* Reorders, hides and pins the columns of io (cols_compute's, its first
 * the key) as c says. */
static void colset_apply(const colset *c, cols *io)
{
    if (!c->n || io->n < 2)
        return;
    cols in = *io;
    io->n = 1;
    io->fixed = 1;
    /* Pinned first, then the others the colset orders, then new ones. */
    for (int pass = 0; pass < 3; pass++)
        for (size_t k = 1; k < in.n; k++) {
            long at = find(c, in.c[k].name);
            unsigned char fl = at >= 0 ? c->flags[at] : 0;
            if (fl & COLSET_HIDDEN)
                continue;
            bool want = pass == 0 ? at >= 0 && (fl & COLSET_PINNED)
                      : pass == 1 ? at >= 0 && !(fl & COLSET_PINNED) : at < 0;
            if (!want)
                continue;
            io->c[io->n++] = in.c[k];
            if (pass == 0)
                io->fixed++;
        }
    /* The colset's order within each pass (in's order is by name). */
    for (size_t a = 1; a < io->n; a++)
        for (size_t b = a + 1; b < io->n; b++) {
            long ia = find(c, io->c[a].name), ib = find(c, io->c[b].name);
            bool same_block = (a < io->fixed) == (b < io->fixed);
            if (same_block && ia >= 0 && ib >= 0 && ib < ia) {
                __typeof__(io->c[0]) t = io->c[a];
                io->c[a] = io->c[b];
                io->c[b] = t;
            }
        }
}

/* ---- colsets: the types on screen ------------------------------------ */

void colsets_done(colsets *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].entity);
        colset_done(&s->e[i].set);
    }
    s->n = 0;
}

static long entity_slot(const colsets *s, const char *entity)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].entity, entity) == 0)
            return (long)i;
    return -1;
}

void colsets_layout(colsets *s, const char *table, const av *const *items, size_t n,
                    const char *const *first, size_t nfirst, const char *skip, const char *sk)
{
    /* The types kept from the last frame keep their loaded colsets,
     * unless a picker saved since. */
    if (s->gen != colset_generation()) {
        colsets_done(s);
        s->gen = colset_generation();
    }
    const av **mine = xcalloc(n ? n : 1, sizeof *mine);
    char **ents = xcalloc(n ? n : 1, sizeof *ents);
    buf b = BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        buf_reset(&b);
        colset_entity(items[i], sk, &b);
        ents[i] = xstrdup(b.data ? b.data : "");
    }
    bool used[COLSETS_MAX] = { false };
    int keyw = 0;
    s->first = -1;
    for (size_t i = 0; i < n; i++) {
        long at = entity_slot(s, ents[i]);
        if (at < 0 && s->n < COLSETS_MAX) {
            at = (long)s->n++;
            s->e[at].entity = xstrdup(ents[i]);
            memset(&s->e[at].set, 0, sizeof s->e[at].set);
            colset_load(&s->e[at].set, table, ents[i]);
        }
        if (at < 0 && s->n == COLSETS_MAX)
            at = COLSETS_MAX - 1;   /* beyond the slots: the last one's */
        if (s->first < 0)
            s->first = at;
        if (at < 0 || used[at])
            continue;
        /* Every item of this type on screen (beyond the slots: the last). */
        size_t m = 0;
        for (size_t j = i; j < n; j++) {
            long aj = entity_slot(s, ents[j]);
            if (aj == at || (aj < 0 && at == (long)s->n - 1))
                mine[m++] = items[j];
        }
        used[at] = true;
        cols_compute(&s->e[at].cols, (const av *const *)mine, m, first, nfirst, skip);
        colset_apply(&s->e[at].set, &s->e[at].cols);
        if (s->e[at].cols.n && s->e[at].cols.c[0].width > keyw)
            keyw = s->e[at].cols.c[0].width;
    }
    /* Types not on screen draw nothing this frame. */
    for (size_t i = 0; i < s->n; i++) {
        if (!used[i])
            s->e[i].cols.n = 0;
        else if (s->e[i].cols.n)
            s->e[i].cols.c[0].width = keyw;   /* the keys line up */
    }
    for (size_t i = 0; i < n; i++)
        free(ents[i]);
    free(ents);
    free(mine);
    buf_done(&b);
}

const cols *colsets_for(const colsets *s, const av *item, const char *sk, const char **entity)
{
    long at = -1;
    if (item) {
        buf b = BUF_INIT;
        colset_entity(item, sk, &b);
        at = entity_slot(s, b.data ? b.data : "");
        buf_done(&b);
        if (at < 0 && s->n == COLSETS_MAX)
            at = COLSETS_MAX - 1;
    } else {
        at = s->first;
    }
    if (at < 0 || !s->e[at].cols.n)
        return NULL;
    if (entity)
        *entity = s->e[at].entity;
    return &s->e[at].cols;
}
