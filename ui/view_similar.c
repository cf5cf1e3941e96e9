/*
 * view_similar — "more like this": the nearest neighbours of one item's
 * vector in a vector index of its table (SearchVectors), best first, each
 * with its score. The first line says what was searched (the index, its
 * distance function, the filter taken from the item: its vector index
 * partition key's value, and its inline filter attributes' values while
 * the filters are on); the title says how many came back and the capacity
 * the search cost (VectorSearchRequestBytes). The same key again turns
 * the inline filters off or on (the partition key stays: a search must
 * name it); Enter opens an item.
 *
 * The store answers an exact search (data/store_vsearch.c), a correct
 * answer to DynamoDB's approximate one. The request is model/vecidx.h's
 * vec_similar_req; the results are copied into the view's lines, which
 * own them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbreq.h"
#include "model/mem.h"
#include "model/vecidx.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/fmt.h"
#include "ui/text.h"
#include "ui/view.h"

enum { L_SENT = 1, L_ITEM };

typedef struct srow {
    av item;               /* L_ITEM */
    double score;
    char *text;            /* L_SENT */
} srow;

typedef struct sim_view {
    char *table;
    table_def def;
    size_t vix;            /* the vector index searched */
    av origin;             /* the item searched from */
    bool filters;          /* the inline filters on */
    size_t n;
    double vbytes;
    cols cols;
} sim_view;

#define SIM_TOPK 20

static void sim_free_line(view *v, line *l)
{
    srow *r = l->data;
    if (!r)
        return;
    av_done(&r->item);
    free(r->text);
    free(r);
}

/* The first vector index the item's vector fits, from want on. */
static bool pick_index(sim_view *p, size_t from, size_t *out)
{
    for (size_t k = 0; k < p->def.n_vidx; k++) {
        size_t i = (from + k) % p->def.n_vidx;
        ddb_req r;
        buf said = BUF_INIT;
        bool ok = vec_similar_req(&p->def.vidx[i], p->table, &p->origin, false, 1, &r, &said);
        buf_done(&said);
        if (ok) {
            ddb_req_done(&r);
            *out = i;
            return true;
        }
    }
    return false;
}

/* Runs the search and lays the lines out again. */
static bool run(view *v)
{
    sim_view *p = v->priv;
    const vec_index *vx = &p->def.vidx[p->vix];
    ddb_req r;
    buf said = BUF_INIT;
    if (!vec_similar_req(vx, p->table, &p->origin, p->filters, SIM_TOPK, &r, &said)) {
        buf_done(&said);
        display_error("More like this: the item has no %s vector of %u numbers for %s", vx->attr, vx->dims,
                      vx->name);
        return false;
    }
    ddb_res res;
    ddb_res_init(&res);
    ddb_err err;
    ddb_err_init(&err);
    status st = store_exec(display_store(), &r, &res, &err);
    if (st != ST_OK) {
        display_ddb_err("SearchVectors", &err);
    } else {
        vm_clear(&v->vm);
        srow *s = xcalloc(1, sizeof *s);
        buf t = BUF_INIT;
        buf_printf(&t, "%s %s", vx->name, vec_dist_name(vx->dist));
        buf_printf(&t, said.len ? ", where %s" : ", no filter", said.data);
        s->text = buf_steal(&t);
        vm_append(&v->vm, L_SENT, s);
        for (size_t i = 0; i < res.n_items; i++) {
            srow *row = xcalloc(1, sizeof *row);
            av_copy(&row->item, &res.items[i]);
            row->score = res.scores[i];
            vm_append(&v->vm, L_ITEM, row);
        }
        p->n = res.n_items;
        p->vbytes = res.has_vbytes ? res.vbytes : 0;
        vm_select(&v->vm, res.n_items ? 1 : 0);
    }
    ddb_err_done(&err);
    ddb_res_done(&res);
    ddb_req_done(&r);
    buf_done(&said);
    return st == ST_OK;
}

static bool sim_open(view *v, const void *arg)
{
    const cond_arg *a = arg;
    sim_view *p = v->priv;
    if (!a->table || !a->item || a->item->type != AV_M) {
        display_error("More like this: select an item first");
        return false;
    }
    diag d;
    diag_init(&d);
    if (store_describe(display_store(), a->table, &p->def, &d) != ST_OK) {
        display_diag("More like this", d.code, &d);
        return false;
    }
    p->table = xstrdup(a->table);
    av_copy(&p->origin, a->item);
    p->filters = true;
    if (!p->def.n_vidx) {
        display_error("More like this: %s has no vector index", p->table);
        return false;
    }
    if (!pick_index(p, 0, &p->vix)) {
        const vec_index *vx = &p->def.vidx[0];
        if (p->def.n_vidx == 1)
            display_error("More like this: no %s list of %u numbers in this item (index %s)", vx->attr, vx->dims,
                          vx->name);
        else
            display_error("More like this: this item has no vector that one of %s's %zu vector indexes takes",
                          p->table, p->def.n_vidx);
        return false;
    }
    return run(v);
}

static void sim_done(view *v)
{
    sim_view *p = v->priv;
    free(p->table);
    av_done(&p->origin);
    table_def_free(&p->def);
}

static void sim_title(view *v, buf *out)
{
    sim_view *p = v->priv;
    buf_printf(out, "More like this in %s", p->table);
    text_title_part(out, 1);
    buf_printf(out, ": %zu item%s", p->n, p->n == 1 ? "" : "s");
    text_title_part(out, 2);
    buf_printf(out, ", %.0f vector search bytes", p->vbytes);
    const vec_index *vx = &p->def.vidx[p->vix];
    if (vx->n_schema > (vec_index_hash(vx) ? 1u : 0u)) {
        text_title_part(out, 3);
        buf_adds(out, p->filters ? "  [~: filters off]" : "  [~: filters on]");
    }
}

static void sim_layout(view *v)
{
    sim_view *p = v->priv;
    vm *m = &v->vm;
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n, n = 0;
    const av *items[512];
    for (size_t i = m->top; i < end && n < 512; i++)
        if (m->lines[i].kind == L_ITEM)
            items[n++] = &((srow *)m->lines[i].data)->item;
    const char *first[2] = { p->def.pk.name, p->def.sk.name };
    cols_compute(&p->cols, items, n, first, 2, NULL);
}

static int sim_head_rows(view *v)
{
    return 1;
}

#define SCORE_W 11

static void sim_draw_head(view *v, int row_, int width)
{
    sim_view *p = v->priv;
    term_fill(row_, 0, width, ROLE_COLHEAD);
    term_puts(row_, 0, width, "score", ROLE_COLHEAD);
    cols_draw_head(&p->cols, row_, SCORE_W, width, v->vm.hscroll);
}

/* Four decimals: COSINE's 0 to 2 and a distance read the same way. */
static void score_text(buf *out, double s)
{
    buf_printf(out, "%.4f", s);
}

static void sim_draw(view *v, size_t i, int row_, int width)
{
    sim_view *p = v->priv;
    line *l = &v->vm.lines[i];
    srow *r = l->data;
    if (l->kind == L_SENT) {
        term_put(row_, 0, width, r->text, strlen(r->text), ROLE_DIM, true);
        return;
    }
    buf b = BUF_INIT;
    score_text(&b, r->score);
    term_put(row_, 0, SCORE_W - 1 < width ? SCORE_W - 1 : width, b.data, b.len, ROLE_KEY, true);
    buf_done(&b);
    cols_draw_item(&p->cols, &r->item, row_, SCORE_W, width, v->vm.hscroll, &p->def, NULL);
}

static const char *sim_kind_name(int kind)
{
    return kind == L_SENT ? "sent" : "item";
}

static void sim_text(view *v, size_t i, buf *out)
{
    line *l = &v->vm.lines[i];
    srow *r = l->data;
    if (l->kind == L_SENT) {
        buf_adds(out, r->text);
        return;
    }
    buf_adds(out, "score=");
    score_text(out, r->score);
    for (size_t j = 0; j < r->item.u.m.len; j++) {
        buf_printf(out, " %s=", r->item.u.m.v[j].name);
        fmt_cell(out, &r->item.u.m.v[j].val, 0);
    }
}

static enum req sim_request(view *v, enum req r)
{
    sim_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_ENTER) {
        if (l && l->kind == L_ITEM) {
            item_arg a = { p->table, NULL, &((srow *)l->data)->item };
            display_push(&view_item_ops, &a);
        }
        return REQ_NONE;
    }
    if (r == REQ_SIMILAR) {
        p->filters = !p->filters;
        run(v);
        return REQ_NONE;
    }
    return r;
}

static void sim_context(view *v, cond_arg *out)
{
    sim_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    out->table = p->table;
    out->index = NULL;
    out->item = l && l->kind == L_ITEM ? &((srow *)l->data)->item : NULL;
}

const view_ops view_similar_ops = {
    .name = "similar",
    .results = true,
    .priv_size = sizeof(sim_view),
    .open = sim_open,
    .title = sim_title,
    .layout = sim_layout,
    .head_rows = sim_head_rows,
    .draw_head = sim_draw_head,
    .draw = sim_draw,
    .request = sim_request,
    .done = sim_done,
    .free_line = sim_free_line,
    .kind_name = sim_kind_name,
    .text = sim_text,
    .context = sim_context,
};
