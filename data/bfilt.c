/*
 * bfilt — a filter on the encoded item (see bfilt.h).
 */
#include "data/bfilt.h"

#include <stdlib.h>
#include <string.h>

#include "model/itemenc.h"
#include "model/mem.h"

enum { BF_AND, BF_OR, BF_NOT, BF_EQ, BF_NE, BF_EXISTS, BF_NOT_EXISTS };

void bfilt_done(bfilt *f)
{
    free(f->n);
    buf_done(&f->consts);
    memset(f, 0, sizeof *f);
}

static const expr_step *bf_top(const expr_node *n)
{
    if (n->kind != EN_PATH || n->path.n != 1 || n->path.steps[0].is_index)
        return NULL;
    return &n->path.steps[0];
}

/* Compiles n; returns its index, or -1 when a part is not supported. */
static int bf_compile(bfilt *f, const expr_node *n)
{
    bf_node b = { .kind = -1, .kid = { -1, -1 } };
    switch (n->kind) {
    case EN_AND:
    case EN_OR:
        b.kind = n->kind == EN_AND ? BF_AND : BF_OR;
        if ((b.kid[0] = bf_compile(f, n->kids[0])) < 0 || (b.kid[1] = bf_compile(f, n->kids[1])) < 0)
            return -1;
        break;
    case EN_NOT:
        b.kind = BF_NOT;
        if ((b.kid[0] = bf_compile(f, n->kids[0])) < 0)
            return -1;
        break;
    case EN_CMP: {
        if (n->op != CMP_EQ && n->op != CMP_NE)
            return -1;
        const expr_node *p = n->kids[0], *v = n->kids[1];
        if (p->kind == EN_VALUE)
            p = n->kids[1], v = n->kids[0];
        const expr_step *s = bf_top(p);
        if (!s || v->kind != EN_VALUE || !v->value)
            return -1;
        av_type ty = v->value->type;
        if (ty != AV_S && ty != AV_B && ty != AV_BOOL && ty != AV_NULL)
            return -1;
        /* the constant's encoding, as an attribute of a one-member item */
        av one, cv;
        av_init_list(&one, AV_M);
        av_copy(&cv, v->value);
        av_map_put(&one, "v", 1, &cv);
        buf tmp = BUF_INIT;
        itemenc_encode(&tmp, &one);
        av_done(&one);
        const unsigned char *vp;
        size_t vl;
        bool ok = itemenc_find(tmp.data, tmp.len, "v", 1, &vp, &vl);
        if (ok) {
            b.off = f->consts.len;
            b.len = vl;
            buf_add(&f->consts, vp, vl);
        }
        buf_done(&tmp);
        if (!ok)
            return -1;
        b.kind = n->op == CMP_EQ ? BF_EQ : BF_NE;
        b.name = s->name, b.name_len = s->len;
        break;
    }
    case EN_FUNC: {
        if ((n->op != FN_ATTRIBUTE_EXISTS && n->op != FN_ATTRIBUTE_NOT_EXISTS) || n->n_kids != 1)
            return -1;
        const expr_step *s = bf_top(n->kids[0]);
        if (!s)
            return -1;
        b.kind = n->op == FN_ATTRIBUTE_EXISTS ? BF_EXISTS : BF_NOT_EXISTS;
        b.name = s->name, b.name_len = s->len;
        break;
    }
    default:
        return -1;
    }
    if (f->count == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 8;
        f->n = xrealloc(f->n, f->cap * sizeof *f->n);
    }
    f->n[f->count] = b;
    return (int)f->count++;
}

bool bfilt_build(bfilt *f, const expr *e)
{
    memset(f, 0, sizeof *f);
    if (e && (f->root = bf_compile(f, expr_root(e))) >= 0)
        return true;
    bfilt_done(f);
    return false;
}

static bool eval_node(const bfilt *f, int i, const void *body, size_t len)
{
    const bf_node *b = &f->n[i];
    const unsigned char *vp;
    size_t vl;
    switch (b->kind) {
    case BF_AND: return eval_node(f, b->kid[0], body, len) && eval_node(f, b->kid[1], body, len);
    case BF_OR: return eval_node(f, b->kid[0], body, len) || eval_node(f, b->kid[1], body, len);
    case BF_NOT: return !eval_node(f, b->kid[0], body, len);
    case BF_EXISTS: return itemenc_find(body, len, b->name, b->name_len, &vp, &vl);
    case BF_NOT_EXISTS: return !itemenc_find(body, len, b->name, b->name_len, &vp, &vl);
    default: {
        bool eq = itemenc_find(body, len, b->name, b->name_len, &vp, &vl) && vl == b->len &&
                  memcmp(vp, f->consts.data + b->off, vl) == 0;
        return b->kind == BF_EQ ? eq : !eq;
    }
    }
}

bool bfilt_eval(const bfilt *f, const void *body, size_t len)
{
    return eval_node(f, f->root, body, len);
}
