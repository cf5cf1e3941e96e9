/*
 * entity_filter — pages of one entity's items (see entity_filter.h).
 */
#include "ui/entity_filter.h"

#include <stdlib.h>
#include <string.h>

#include "model/mem.h"
#include "model/size.h"

entity_filter *entity_filter_new(const ent_table *t, const char *name)
{
    entity_filter *f = xcalloc(1, sizeof *f);
    ent_table_copy(&f->t, t);
    f->entity = xstrdup(name);
    return f;
}

void entity_filter_free(entity_filter *f)
{
    if (!f)
        return;
    ent_table_done(&f->t);
    free(f->entity);
    free(f);
}

static bool entity_filter_match(const entity_filter *f, const av *item)
{
    const ent_entity *e = ent_table_match(&f->t, item);
    return e && strcmp(e->name, f->entity) == 0;
}

status entity_filter_page(const entity_filter *f, store *s, const char *table, const char *index,
                          const av *pk, const av *after, bool forward, size_t max, av *items,
                          size_t *n, diag *d)
{
    *n = 0;
    av *page = xcalloc(max ? max : 1, sizeof *page);
    av from = { .type = AV_NONE };
    if (after)
        av_copy(&from, after);
    status st = ST_OK;
    while (*n < max) {
        size_t got = 0;
        st = store_page(s, table, index, pk, from.type == AV_NONE ? NULL : &from, forward, max, page,
                        &got, d);
        if (st != ST_OK)
            break;
        for (size_t i = 0; i < got; i++) {
            if (i + 1 == got) {
                av_done(&from);
                av_copy(&from, &page[i]);
            }
            if (*n < max && entity_filter_match(f, &page[i]))
                av_move(&items[(*n)++], &page[i]);
            else
                av_done(&page[i]);
        }
        if (got < max)
            break;
    }
    av_done(&from);
    free(page);
    return st;
}

bool entity_filter_count(const entity_filter *f, store *s, const char *table, const char *index,
                         const av *pk, size_t max_read, uint64_t *items, uint64_t *bytes, diag *d)
{
    enum { PAGE = 256 };
    av page[PAGE];
    av from = { .type = AV_NONE };
    uint64_t n = 0, b = 0;
    size_t read = 0, got = PAGE;
    bool ok = true;
    while (ok && got == PAGE) {
        if (read >= max_read) {
            ok = false;
            break;
        }
        got = 0;
        if (store_page(s, table, index, pk, from.type == AV_NONE ? NULL : &from, true, PAGE, page, &got,
                       d) != ST_OK) {
            ok = false;
            break;
        }
        read += got;
        for (size_t i = 0; i < got; i++) {
            if (entity_filter_match(f, &page[i])) {
                n++;
                b += size_item(&page[i]);
            }
            if (i + 1 == got) {
                av_done(&from);
                av_move(&from, &page[i]);
            } else {
                av_done(&page[i]);
            }
        }
    }
    av_done(&from);
    if (ok) {
        *items = n;
        *bytes = b;
    }
    return ok;
}
