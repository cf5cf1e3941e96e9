/*
 * builder_verdict — each clause of the tree judged against an item: the
 * whole expression evaluated once, and its trace laid over the clauses.
 * builder_int.h is what the builder_*.c files share.
 */
#include "model/builder.h"
#include "model/builder_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/mem.h"

/* ---- verdict ----------------------------------------------------------------- */

typedef struct vstate {
    bverdict *out;
    size_t cap;
    expr_ctx *cx;
    const char *text;
    const av *item;
    diag *d;
} vstate;

static size_t push_entry(vstate *s, const bnode *n, int depth)
{
    if (s->out->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 16;
        s->out->v = xrealloc(s->out->v, s->cap * sizeof *s->out->v);
    }
    bverdict_entry *e = &s->out->v[s->out->n];
    memset(e, 0, sizeof *e);
    e->node = n;
    e->depth = depth;
    if (n->pos >= 0)
        e->text = xstrndup(s->text + n->pos, (size_t)(n->end - n->pos));
    else
        e->text = xstrdup("");
    return s->out->n++;
}

static status judge(vstate *s, const bnode *n, int depth, bool *verdict)
{
    size_t me = push_entry(s, n, depth);
    buf why = BUF_INIT;
    status st = ST_OK;
    bool v = false;
    if (n->group) {
        size_t yes = 0;
        for (size_t i = 0; i < n->n_kids && !st; i++) {
            bool k = false;
            st = judge(s, n->kids[i], depth + 1, &k);
            yes += k;
        }
        if (n->n_kids == 1)
            v = yes == 1;
        else
            v = n->is_or ? yes > 0 : yes == n->n_kids;
        if (n->n_kids == 1)
            buf_printf(&why, "its clause is %s", v ? "true" : "false");
        else
            buf_printf(&why, "%s: %zu of %zu true", n->is_or ? "OR" : "AND", yes, n->n_kids);
    } else {
        expr *e = NULL;
        assert(n->cpos >= 0 && n->cend >= n->cpos);
        st = expr_parse(s->cx, EXPR_CONDITION, s->text + n->cpos, (size_t)(n->cend - n->cpos), &e, s->d);
        if (st) {
            s->d->pos = n->cpos + (s->d->pos >= 0 ? s->d->pos : 0);
        } else {
            expr_trace t = { 0 };
            v = expr_explain(e, s->item, &t);
            assert(t.n >= 1);
            buf_adds(&why, t.v[0].why);
            expr_trace_done(&t);
            expr_free(e);
        }
    }
    if (n->neg) {
        buf_printf(&why, "; NOT makes it %s", v ? "false" : "true");
        v = !v;
    }
    s->out->v[me].verdict = v;
    s->out->v[me].why = why.data ? buf_steal(&why) : xstrdup("");
    buf_done(&why);
    *verdict = v;
    return st;
}

status builder_verdict(builder *b, bmaps *into, expr_kind kind, const av *item, bverdict *out, diag *d)
{
    memset(out, 0, sizeof *out);
    bmaps own;
    bmaps *m = into ? into : &own;
    buf text = BUF_INIT;
    av names, values;
    expr_ctx cx;
    expr *e = NULL;
    bool cx_ok = false;
    builder_maps_init(&own);
    names.type = values.type = AV_NONE;
    status st = builder_print(b, m, &text, d);
    if (st)
        goto out;
    if (builder_empty(b)) {
        out->ok = true;
        goto out;
    }
    builder_maps_names_av(m, &names);
    builder_maps_values_av(m, &values);
    st = expr_ctx_init(&cx, names.type ? &names : NULL, values.type ? &values : NULL, d);
    if (st)
        goto out;
    cx_ok = true;
    /* The whole first: DynamoDB's refusal (and its position) wins. */
    st = expr_parse(&cx, kind, text.data, text.len, &e, d);
    if (st)
        goto out;
    vstate s = { out, 0, &cx, text.data, item, d };
    bool whole = false;
    st = judge(&s, b->root, 0, &whole);
    if (st)
        goto out;
    out->ok = expr_eval(e, item);
    assert(out->ok == whole);
out:
    if (st)
        builder_verdict_done(out);
    expr_free(e);
    if (cx_ok)
        expr_ctx_done(&cx);
    av_done(&names);
    av_done(&values);
    buf_done(&text);
    builder_maps_done(&own);
    return st;
}

void builder_verdict_done(bverdict *v)
{
    for (size_t i = 0; i < v->n; i++) {
        free(v->v[i].text);
        free(v->v[i].why);
    }
    free(v->v);
    memset(v, 0, sizeof *v);
}
