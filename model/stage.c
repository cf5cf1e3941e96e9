/*
 * stage — diff, conditional commit action and rebase of a staged change
 * (see stage.h).
 */
#include "model/stage.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/expr.h"
#include "model/mem.h"

/* The members' order of an M (av.h): bytewise, shorter first on a tie. */
static int name_cmp(const av_member *a, const av_member *b)
{
    size_t n = a->name_len < b->name_len ? a->name_len : b->name_len;
    int c = memcmp(a->name, b->name, n);
    if (c)
        return c;
    return a->name_len < b->name_len ? -1 : a->name_len > b->name_len;
}

static size_t members(const av *m, const av_member **out)
{
    if (!m || m->type != AV_M) {
        *out = NULL;
        return 0;
    }
    *out = m->u.m.v;
    return m->u.m.len;
}

static void push(stage_attr **out, size_t *n, size_t *cap, stage_op op, const av_member *m,
                 const av *old_v, const av *new_v)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *out = xrealloc(*out, *cap * sizeof **out);
    }
    (*out)[(*n)++] = (stage_attr){ op, m->name, m->name_len, old_v, new_v };
}

size_t stage_diff(const av *before, const av *after, stage_attr **out)
{
    const av_member *a, *b;
    size_t na = members(before, &a), nb = members(after, &b);
    size_t i = 0, j = 0, n = 0, cap = 0;
    *out = NULL;
    while (i < na || j < nb) {
        int c = i >= na ? 1 : j >= nb ? -1 : name_cmp(&a[i], &b[j]);
        if (c < 0) {
            push(out, &n, &cap, STAGE_REMOVED, &a[i], &a[i].val, NULL);
            i++;
        } else if (c > 0) {
            push(out, &n, &cap, STAGE_ADDED, &b[j], NULL, &b[j].val);
            j++;
        } else {
            if (!av_equal(&a[i].val, &b[j].val))
                push(out, &n, &cap, STAGE_CHANGED, &b[j], &a[i].val, &b[j].val);
            i++;
            j++;
        }
    }
    return n;
}

const char *stage_kind(const av *before, const av *after)
{
    bool had = before && before->type == AV_M, will = after && after->type == AV_M;
    if (!had)
        return will ? "new" : "none";
    if (!will)
        return "delete";
    return av_equal(before, after) ? "none" : "update";
}

/* ---- the conditional action -------------------------------------------- */

/* Builds the names and values maps and the expression texts together:
 * attribute i is #aI, its read value :oI, its new value :nI. */
typedef struct writer {
    ddb_req *act;
    buf cond, set, remove;
    int next;
} writer;

static void name_ref(writer *w, const char *name, size_t len, buf *ref)
{
    buf_reset(ref);
    buf_printf(ref, "#a%d", w->next++);
    if (w->act->names.type != AV_M)
        av_init_list(&w->act->names, AV_M);
    av s;
    av_init_s(&s, name, len);
    av_map_put(&w->act->names, ref->data, ref->len, &s);
}

static void value_ref(writer *w, char prefix, const char *name_ref_text, const av *v, buf *ref)
{
    buf_reset(ref);
    /* :o3 for #a3's old value, :n3 for its new one. */
    buf_printf(ref, ":%c%s", prefix, name_ref_text + 2);
    if (w->act->values.type != AV_M)
        av_init_list(&w->act->values, AV_M);
    av c;
    av_copy(&c, v);
    av_map_put(&w->act->values, ref->data, ref->len, &c);
}

static void clause(buf *b, const char *sep, const char *text)
{
    if (b->len)
        buf_adds(b, sep);
    buf_adds(b, text);
}

static bool is_key(const char *pk, const char *sk, const char *name, size_t len)
{
    return (strlen(pk) == len && memcmp(pk, name, len) == 0) ||
           (sk && strlen(sk) == len && memcmp(sk, name, len) == 0);
}

/* The lock on one attribute that was read (old: its value) or that the
 * change adds (old NULL: it must still be absent). */
static void lock(writer *w, const char *name, size_t len, const av *old)
{
    buf n = BUF_INIT, v = BUF_INIT, t = BUF_INIT;
    name_ref(w, name, len, &n);
    if (old) {
        value_ref(w, 'o', n.data, old, &v);
        buf_printf(&t, "%s = %s", n.data, v.data);
    } else {
        buf_printf(&t, "attribute_not_exists(%s)", n.data);
    }
    clause(&w->cond, " AND ", t.data);
    buf_done(&n);
    buf_done(&v);
    buf_done(&t);
}

/* The condition that the item exists (its partition key is there). */
static void exists(writer *w, const char *pk, bool exist)
{
    buf n = BUF_INIT, t = BUF_INIT;
    name_ref(w, pk, strlen(pk), &n);
    buf_printf(&t, exist ? "attribute_exists(%s)" : "attribute_not_exists(%s)", n.data);
    clause(&w->cond, " AND ", t.data);
    buf_done(&n);
    buf_done(&t);
}

/* SET or REMOVE of one attribute that differs. */
static void write_attr(writer *w, const stage_attr *a)
{
    buf n = BUF_INIT, v = BUF_INIT, t = BUF_INIT;
    name_ref(w, a->name, a->name_len, &n);
    if (a->new_v) {
        value_ref(w, 'n', n.data, a->new_v, &v);
        buf_printf(&t, "%s = %s", n.data, v.data);
        clause(&w->set, ", ", t.data);
    } else {
        clause(&w->remove, ", ", n.data);
    }
    buf_done(&n);
    buf_done(&v);
    buf_done(&t);
}

static void writer_reset(writer *w)
{
    av_done(&w->act->names);
    av_done(&w->act->values);
    buf_reset(&w->cond);
    buf_reset(&w->set);
    buf_reset(&w->remove);
    w->next = 0;
}

/* Locks on the attributes read (all: every non-key attribute of before;
 * else only those the change writes), and the absence of those it adds. */
static void locks(writer *w, const char *pk, const char *sk, const av *before,
                  const stage_attr *diff, size_t n_diff, bool all)
{
    exists(w, pk, true);
    if (all) {
        for (size_t i = 0; i < before->u.m.len; i++) {
            const av_member *m = &before->u.m.v[i];
            if (!is_key(pk, sk, m->name, m->name_len))
                lock(w, m->name, m->name_len, &m->val);
        }
        for (size_t i = 0; i < n_diff; i++)
            if (diff[i].op == STAGE_ADDED)
                lock(w, diff[i].name, diff[i].name_len, NULL);
        return;
    }
    for (size_t i = 0; i < n_diff; i++)
        lock(w, diff[i].name, diff[i].name_len, diff[i].old_v);
}

void stage_action(const char *table, const char *pk, const char *sk, const av *before,
                  const av *after, ddb_req *act)
{
    const char *kind = stage_kind(before, after);
    bool is_new = strcmp(kind, "new") == 0, is_del = strcmp(kind, "delete") == 0;
    ddb_kind k = is_new ? DDB_PUT : is_del ? DDB_DELETE : strcmp(kind, "update") == 0 ? DDB_UPDATE : DDB_CHECK;
    ddb_req_init(act, k);
    ddb_req_set_str(&act->table, table);
    act->rv_fail_all_old = true;
    const av *keyed = is_new ? after : before;
    if (k == DDB_PUT) {
        av_copy(&act->item, after);
    } else {
        av_init_list(&act->key, AV_M);
        const char *names[2] = { pk, sk };
        for (int i = 0; i < 2; i++) {
            const av *v = names[i] ? av_map_get(keyed, names[i], strlen(names[i])) : NULL;
            if (!v)
                continue;
            av c;
            av_copy(&c, v);
            av_map_put(&act->key, names[i], strlen(names[i]), &c);
        }
    }
    writer w = { act, BUF_INIT, BUF_INIT, BUF_INIT, 0 };
    stage_attr *diff = NULL;
    size_t n_diff = stage_diff(before, after, &diff);
    if (is_new) {
        exists(&w, pk, false);
    } else {
        locks(&w, pk, sk, before, diff, n_diff, true);
        if (w.cond.len > STAGE_MAX_COND) {
            /* Too many attributes read to lock them all: lock those the
             * change writes (and the item's existence). */
            writer_reset(&w);
            locks(&w, pk, sk, before, diff, n_diff, false);
        }
        if (k == DDB_UPDATE)
            for (size_t i = 0; i < n_diff; i++)
                write_attr(&w, &diff[i]);
    }
    ddb_req_set_str(&act->cond, w.cond.data);
    if (w.set.len || w.remove.len) {
        buf u = BUF_INIT;
        if (w.set.len)
            buf_printf(&u, "SET %s", w.set.data);
        if (w.remove.len)
            buf_printf(&u, "%sREMOVE %s", u.len ? " " : "", w.remove.data);
        ddb_req_set_str(&act->update, u.data);
        buf_done(&u);
    }
    free(diff);
    buf_done(&w.cond);
    buf_done(&w.set);
    buf_done(&w.remove);
}

void stage_rebase(const av *before, const av *after, const av *current, av *out)
{
    if (!after || after->type != AV_M) {
        out->type = AV_NONE;
        return;
    }
    if (!current || current->type != AV_M) {
        av_copy(out, after);
        return;
    }
    av_copy(out, current);
    stage_attr *diff = NULL;
    size_t n = stage_diff(before, after, &diff);
    for (size_t i = 0; i < n; i++) {
        if (diff[i].new_v) {
            av c;
            av_copy(&c, diff[i].new_v);
            av_map_put(out, diff[i].name, diff[i].name_len, &c);
        } else {
            av_map_remove(out, diff[i].name, diff[i].name_len);
        }
    }
    free(diff);
}

/* The parsed expressions of a write, in DynamoDB's order (UpdateExpression
 * before ConditionExpression). */
static status write_exprs(const ddb_req *req, expr_ctx *cx, expr **upd, expr **cond, diag *d)
{
    status st = expr_ctx_init(cx, req->names.type == AV_M ? &req->names : NULL,
                              req->values.type == AV_M ? &req->values : NULL, d);
    if (st != ST_OK)
        return st;
    if (req->update)
        st = expr_parse(cx, EXPR_UPDATE, req->update, strlen(req->update), upd, d);
    if (st == ST_OK && req->cond)
        st = expr_parse(cx, EXPR_CONDITION, req->cond, strlen(req->cond), cond, d);
    if (st == ST_OK)
        st = expr_ctx_finish(cx, d);
    return st;
}

status stage_write(const ddb_req *req, const av *before, av *out, diag *d)
{
    assert(req->kind == DDB_PUT || req->kind == DDB_UPDATE || req->kind == DDB_DELETE);
    out->type = AV_NONE;
    const av *old = before->type == AV_M ? before : NULL;
    expr_ctx cx;
    expr *upd = NULL, *cond = NULL;
    status st = write_exprs(req, &cx, &upd, &cond, d);
    if (st == ST_OK && cond && !expr_eval(cond, old))
        st = diag_set(d, ST_CONDITION_FAILED, "The conditional request failed");
    if (st != ST_OK)
        goto out;
    if (req->kind == DDB_PUT) {
        av_copy(out, &req->item);
    } else if (req->kind == DDB_UPDATE && upd) {
        st = old ? expr_update_apply(upd, old, out, NULL, d)
                 : expr_update_apply_missing(upd, &req->key, out, d);
        /* Only REMOVE (or DELETE) on a missing item writes nothing. */
        if (st == ST_OK && !old && !expr_update_creates(upd)) {
            av_done(out);
            out->type = AV_NONE;
        }
    } else if (req->kind == DDB_UPDATE) {
        av_copy(out, old ? old : &req->key);   /* an update of nothing: the item as it is */
    }
out:
    expr_free(upd);
    expr_free(cond);
    expr_ctx_done(&cx);
    return st;
}
