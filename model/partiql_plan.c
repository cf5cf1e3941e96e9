/*
 * partiql_plan — a parsed statement against the table's key schema
 * becomes the DynamoDB operation that runs it: Query (which partitions,
 * which key range) or Scan with a filter for a SELECT, PutItem,
 * UpdateItem, DeleteItem or ConditionCheck with their expressions for a
 * write. WHERE terms become expression text over generated placeholders
 * and the filter is parsed with model/expr. Also: applying a plan's
 * filter and projection to an item, and explaining the plan.
 */
#include "model/partiql_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* Expression text under construction with its names and values maps. */
typedef struct sink {
    buf *text;
    av *names, *values;
    const char *npfx, *vpfx;
    unsigned *counter;
} sink;

static void sink_name(sink *k, const char *name, size_t len)
{
    /* One alias a distinct name. */
    for (size_t i = 0; i < k->names->u.m.len; i++) {
        const av *v = &k->names->u.m.v[i].val;
        if (v->u.s.len == len && memcmp(v->u.s.ptr, name, len) == 0) {
            buf_adds(k->text, k->names->u.m.v[i].name);
            return;
        }
    }
    char alias[32];
    int n = snprintf(alias, sizeof alias, "#%s%u", k->npfx, (*k->counter)++);
    av s;
    av_init_s(&s, name, len);
    av_map_put(k->names, alias, (size_t)n, &s);
    buf_adds(k->text, alias);
}

static void sink_value(sink *k, const av *v)
{
    char ph[32];
    int n = snprintf(ph, sizeof ph, ":%s%u", k->vpfx, (*k->counter)++);
    av c;
    av_copy(&c, v);
    av_map_put(k->values, ph, (size_t)n, &c);
    buf_adds(k->text, ph);
}

static void emit_steps(sink *k, const pq_step *st, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (st[i].is_index) {
            buf_printf(k->text, "[%u]", st[i].index);
        } else {
            if (i)
                buf_addc(k->text, '.');
            sink_name(k, st[i].name, st[i].len);
        }
    }
}

static void emit(sink *k, const pn *n);

/* IS NULL becomes an OR and IS NOT NULL an AND (see emit): they need
 * parentheses where those would. */
static int emit_prec(const pn *n)
{
    if (n->k == PN_IS && n->op == IS_NULL)
        return n->neg ? 2 : 1;
    return pq_prec(n);
}

static void emit_kid(sink *k, const pn *kid, int parent)
{
    bool wrap = emit_prec(kid) < parent;
    if (wrap)
        buf_addc(k->text, '(');
    emit(k, kid);
    if (wrap)
        buf_addc(k->text, ')');
}

static void emit(sink *k, const pn *n)
{
    switch (n->k) {
    case PN_OR:
    case PN_AND:
        emit_kid(k, n->kids[0], pq_prec(n));
        buf_adds(k->text, n->k == PN_OR ? " OR " : " AND ");
        emit_kid(k, n->kids[1], pq_prec(n) + 1);
        break;
    case PN_NOT:
        buf_adds(k->text, "NOT ");
        emit_kid(k, n->kids[0], 4);
        break;
    case PN_CMP:
        emit(k, n->kids[0]);
        buf_printf(k->text, " %s ", expr_cmp_text((expr_cmp)n->op));
        emit(k, n->kids[1]);
        break;
    case PN_BETWEEN:
        emit(k, n->kids[0]);
        buf_adds(k->text, " BETWEEN ");
        emit(k, n->kids[1]);
        buf_adds(k->text, " AND ");
        emit(k, n->kids[2]);
        break;
    case PN_IN:
        if (n->neg)
            buf_adds(k->text, "NOT ");
        emit(k, n->kids[0]);
        buf_adds(k->text, " IN (");
        for (size_t i = 1; i < n->n; i++) {
            if (i > 1)
                buf_adds(k->text, ", ");
            emit(k, n->kids[i]);
        }
        buf_addc(k->text, ')');
        break;
    case PN_FUNC:
    case PN_CALL:
        buf_adds(k->text, n->k == PN_FUNC ? pq_fn_names[n->op] : pq_call_names[n->op]);
        buf_addc(k->text, '(');
        emit(k, n->kids[0]);
        buf_adds(k->text, ", ");
        emit(k, n->kids[1]);
        buf_addc(k->text, ')');
        break;
    case PN_IS: {
        /* PartiQL: MISSING IS NULL is true, so IS NULL covers both. */
        av t;
        av_init_s(&t, "NULL", 4);
        if (n->op == IS_MISSING) {
            buf_adds(k->text, n->neg ? "attribute_exists(" : "attribute_not_exists(");
            emit(k, n->kids[0]);
            buf_addc(k->text, ')');
        } else if (!n->neg) {
            buf_adds(k->text, "attribute_not_exists(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ") OR attribute_type(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ", ");
            sink_value(k, &t);
            buf_addc(k->text, ')');
        } else {
            buf_adds(k->text, "attribute_exists(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ") AND NOT attribute_type(");
            emit(k, n->kids[0]);
            buf_adds(k->text, ", ");
            sink_value(k, &t);
            buf_addc(k->text, ')');
        }
        av_done(&t);
        break;
    }
    case PN_PATH:
        emit_steps(k, n->steps, n->n_steps);
        break;
    case PN_VALUE:
        sink_value(k, &n->val);
        break;
    case PN_SIZE:
        buf_adds(k->text, "size(");
        emit(k, n->kids[0]);
        buf_addc(k->text, ')');
        break;
    case PN_PLUS:
    case PN_MINUS:
        emit(k, n->kids[0]);
        buf_adds(k->text, n->k == PN_PLUS ? " + " : " - ");
        emit(k, n->kids[1]);
        break;
    }
}

/* Top-level AND terms of a WHERE, in text order. */
typedef struct terms {
    const pn **v;
    bool *used;
    size_t n, cap;
} terms;

static void flatten(const pn *n, terms *t)
{
    if (n->k == PN_AND) {
        flatten(n->kids[0], t);
        flatten(n->kids[1], t);
        return;
    }
    if (t->n == t->cap) {
        t->cap = t->cap ? t->cap * 2 : 8;
        t->v = xrealloc(t->v, t->cap * sizeof *t->v);
        t->used = xrealloc(t->used, t->cap * sizeof *t->used);
    }
    t->used[t->n] = false;
    t->v[t->n++] = n;
}

static void terms_done(terms *t)
{
    free(t->v);
    free(t->used);
}

static bool is_attr(const pn *n, const char *name)
{
    return n->k == PN_PATH && n->n_steps == 1 && !n->steps[0].is_index &&
           strlen(name) == n->steps[0].len && memcmp(n->steps[0].name, name, n->steps[0].len) == 0;
}

/* name = value (either side): the value node, else NULL. */
static const pn *eq_value(const pn *n, const char *name)
{
    if (n->k != PN_CMP || n->op != CMP_EQ)
        return NULL;
    if (is_attr(n->kids[0], name) && n->kids[1]->k == PN_VALUE)
        return n->kids[1];
    if (is_attr(n->kids[1], name) && n->kids[0]->k == PN_VALUE)
        return n->kids[0];
    return NULL;
}

/* pk = v OR pk = w ...: collects the values; false if another shape. */
static bool or_of_eq(const pn *n, const char *name, av *list)
{
    if (n->k == PN_OR)
        return or_of_eq(n->kids[0], name, list) && or_of_eq(n->kids[1], name, list);
    const pn *v = eq_value(n, name);
    if (!v)
        return false;
    av c;
    av_copy(&c, &v->val);
    av_list_push(list, &c);
    return true;
}

static bool partition_values(const pn *n, const char *name, av *list)
{
    if (n->k == PN_IN && !n->neg && is_attr(n->kids[0], name)) {
        for (size_t i = 1; i < n->n; i++)
            if (n->kids[i]->k != PN_VALUE)
                return false;
        for (size_t i = 1; i < n->n; i++) {
            av c;
            av_copy(&c, &n->kids[i]->val);
            av_list_push(list, &c);
        }
        return true;
    }
    if (!or_of_eq(n, name, list)) {
        for (size_t i = 0; i < list->u.l.len; i++)
            av_done(&list->u.l.v[i]);
        list->u.l.len = 0;
        return false;
    }
    return true;
}

static int cmp_av(const void *a, const void *b)
{
    return av_cmp(a, b);
}

/* A sort-key term usable as a key condition? */
static bool sort_key_term(const pn *n, const char *sk)
{
    if (n->k == PN_CMP && n->op != CMP_NE)
        return (is_attr(n->kids[0], sk) && n->kids[1]->k == PN_VALUE) ||
               (is_attr(n->kids[1], sk) && n->kids[0]->k == PN_VALUE);
    if (n->k == PN_BETWEEN)
        return is_attr(n->kids[0], sk) && n->kids[1]->k == PN_VALUE && n->kids[2]->k == PN_VALUE;
    if (n->k == PN_FUNC && n->op == F_BEGINS_WITH)
        return is_attr(n->kids[0], sk) && n->kids[1]->k == PN_VALUE;
    return false;
}

/* Emits a sort-key term with the key on the left. */
static void emit_sort_key(sink *k, const pn *n)
{
    if (n->k == PN_CMP && n->kids[0]->k == PN_VALUE) {
        static const int flip[] = { CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_LT, CMP_LE };
        emit(k, n->kids[1]);
        buf_printf(k->text, " %s ", expr_cmp_text((expr_cmp)flip[n->op]));
        emit(k, n->kids[0]);
        return;
    }
    emit(k, n);
}

/* The terms not used, ANDed, as expression text (and PartiQL text). */
static size_t rest_count(const terms *t);

/* after_and: the text goes after an AND, so an OR term needs parentheses
 * even when it is the only one. */
static void emit_rest(sink *k, const terms *t, buf *ptext, bool after_and)
{
    bool first = true, several = rest_count(t) > 1;
    for (size_t i = 0; i < t->n; i++) {
        if (t->used[i])
            continue;
        if (!first) {
            buf_adds(k->text, " AND ");
            buf_adds(ptext, " AND ");
        }
        bool wrap = emit_prec(t->v[i]) < 2 && (several || after_and);
        if (wrap)
            buf_addc(k->text, '(');
        emit(k, t->v[i]);
        if (wrap)
            buf_addc(k->text, ')');
        pq_print_kid(t->v[i], several ? 2 : 0, ptext);
        first = false;
    }
}

static size_t rest_count(const terms *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->n; i++)
        n += !t->used[i];
    return n;
}

static char *steal_or_null(buf *b)
{
    if (!b->len) {
        buf_done(b);
        return NULL;
    }
    return buf_steal(b);
}

static status key_error(diag *d)
{
    return diag_set(d, ST_VALIDATION,
                    "Where clause does not contain a mandatory equality on all key attributes");
}

static void plan_init(pq_plan *p)
{
    memset(p, 0, sizeof *p);
    av_init_list(&p->key_names, AV_M);
    av_init_list(&p->key_values, AV_M);
    av_init_list(&p->filter_names, AV_M);
    av_init_list(&p->filter_values, AV_M);
    av_init_list(&p->names, AV_M);
    av_init_list(&p->values, AV_M);
    p->forward = true;
}

void pq_plan_done(pq_plan *p)
{
    free(p->table);
    free(p->index);
    for (size_t i = 0; i < p->n_pks; i++)
        av_done(&p->pks[i]);
    free(p->pks);
    free(p->key_cond);
    free(p->filter);
    expr_free(p->filter_e);
    if (p->filter_cx.names || p->filter_cx.values || p->filter_cx.names_used)
        expr_ctx_done(&p->filter_cx);
    av_done(&p->key_names);
    av_done(&p->key_values);
    av_done(&p->filter_names);
    av_done(&p->filter_values);
    av_done(&p->item);
    av_done(&p->key);
    free(p->update);
    free(p->condition);
    av_done(&p->names);
    av_done(&p->values);
    free(p->key_text);
    free(p->filter_text);
    for (size_t i = 0; i < p->n_proj; i++) {
        for (size_t j = 0; j < p->proj[i].n; j++)
            free(p->proj[i].steps[j].name);
        free(p->proj[i].steps);
        free(p->proj[i].label);
    }
    free(p->proj);
    memset(p, 0, sizeof *p);
}

/* The key attribute values of a write's WHERE, into p->key; marks the
 * terms used. */
static status write_key(const terms *t, const key_attr *pk, const key_attr *sk, pq_plan *p,
                        diag *d)
{
    const key_attr *keys[2] = { pk, sk->name ? sk : NULL };
    for (int k = 0; k < 2; k++) {
        if (!keys[k])
            continue;
        const pn *v = NULL;
        for (size_t i = 0; i < t->n && !v; i++) {
            if (t->used[i])
                continue;
            if ((v = eq_value(t->v[i], keys[k]->name)))
                t->used[i] = true;
        }
        if (!v)
            return key_error(d);
        av c;
        av_copy(&c, &v->val);
        av_map_put(&p->key, keys[k]->name, strlen(keys[k]->name), &c);
    }
    return ST_OK;
}

static void proj_add(pq_plan *p, const pn *n, buf *scratch)
{
    p->proj = xrealloc(p->proj, (p->n_proj + 1) * sizeof *p->proj);
    struct pq_proj *pr = &p->proj[p->n_proj++];
    pr->n = n->n_steps;
    pr->steps = xcalloc(n->n_steps, sizeof *pr->steps);
    for (size_t i = 0; i < n->n_steps; i++) {
        pr->steps[i] = n->steps[i];
        if (n->steps[i].name)
            pr->steps[i].name = xstrndup(n->steps[i].name, n->steps[i].len);
    }
    /* PartiQL names a projected path after its last member; a path ending
     * in an index keeps its whole text, so a[0] and a[1] stay apart. */
    const pq_step *last = &n->steps[n->n_steps - 1];
    if (!last->is_index) {
        pr->label = xstrndup(last->name, last->len);
    } else {
        buf_reset(scratch);
        for (size_t i = 0; i < n->n_steps; i++) {
            if (n->steps[i].is_index) {
                buf_printf(scratch, "[%u]", n->steps[i].index);
            } else {
                if (i)
                    buf_addc(scratch, '.');
                buf_add(scratch, n->steps[i].name, n->steps[i].len);
            }
        }
        pr->label = xstrndup(scratch->data, scratch->len);
    }
}

/* The key attributes a SELECT reads by: the table's, or the index's. */
static status read_keys(const pq_stmt *s, const table_def *def, const key_attr **pk,
                        const key_attr **sk, diag *d)
{
    *pk = &def->pk;
    *sk = &def->sk;
    if (s->index) {
        const index_def *ix = table_def_index(def, s->index);
        if (!ix)
            return diag_set(d, ST_VALIDATION,
                            "The table does not have the specified index: %s", s->index);
        *pk = &ix->pk;
        *sk = &ix->sk;
    }
    return ST_OK;
}

/* The partition: the first term fixing it, its values sorted and
 * distinct into p->pks, the term marked used; a Query. No such term: a
 * Scan. */
static status partition_keys(terms *t, const key_attr *pk, pq_plan *p, diag *d)
{
    av list;
    av_init_list(&list, AV_L);
    for (size_t i = 0; i < t->n && !list.u.l.len; i++)
        if (partition_values(t->v[i], pk->name, &list))
            t->used[i] = true;
    if (list.u.l.len > PQ_MAX_IN_KEYS) {
        /* ql-operators: IN takes "at max 50 hash attribute values" */
        status st = diag_set(d, ST_VALIDATION,
                             "The IN operator is provided with too many partition key values; "
                             "number of values: %zu, at most %d", list.u.l.len, PQ_MAX_IN_KEYS);
        av_done(&list);
        return st;
    }
    if (!list.u.l.len) {
        p->op = PQ_OP_SCAN;
        av_done(&list);
        return ST_OK;
    }
    p->op = PQ_OP_QUERY;
    qsort(list.u.l.v, list.u.l.len, sizeof *list.u.l.v, cmp_av);
    size_t o = 0;
    for (size_t i = 0; i < list.u.l.len; i++) {
        if (o && av_equal(&list.u.l.v[o - 1], &list.u.l.v[i]))
            av_done(&list.u.l.v[i]);
        else if (o++ != i)
            av_move(&list.u.l.v[o - 1], &list.u.l.v[i]);
    }
    p->pks = list.u.l.v;
    p->n_pks = o;
    list.u.l.v = NULL;
    list.u.l.len = list.u.l.cap = 0;
    av_done(&list);
    return ST_OK;
}

/* A Query's KeyConditionExpression: the partition key equal to ":pk"
 * (each of p->pks in turn) and the first sort-key term, marked used;
 * key_text the same terms as written. Returns that sort-key term (NULL:
 * none). */
static const pn *key_condition(terms *t, const key_attr *pk, const key_attr *sk, pq_plan *p)
{
    buf text = BUF_INIT, ptext = BUF_INIT;
    unsigned kc = 0;
    sink k = { &text, &p->key_names, &p->key_values, "k", "k", &kc };
    sink_name(&k, pk->name, strlen(pk->name));
    buf_adds(&text, " = :pk");
    av c;
    av_copy(&c, &p->pks[0]);
    av_map_put(&p->key_values, ":pk", 3, &c);
    /* ptext: the partition term as written */
    for (size_t i = 0; i < t->n; i++)
        if (t->used[i])
            pq_print_node(t->v[i], &ptext);
    const pn *skterm = NULL;
    if (sk->name) {
        for (size_t i = 0; i < t->n && !skterm; i++) {
            if (!t->used[i] && sort_key_term(t->v[i], sk->name)) {
                skterm = t->v[i];
                t->used[i] = true;
            }
        }
    }
    if (skterm) {
        buf_adds(&text, " AND ");
        emit_sort_key(&k, skterm);
        buf_adds(&ptext, " AND ");
        pq_print_node(skterm, &ptext);
    }
    p->key_cond = buf_steal(&text);
    p->key_text = buf_steal(&ptext);
    return skterm;
}

/* The first unused term that is an equality on name (value: its value
 * node), or, when ranged, a sort-key term on it; -1 when none. */
static int term_on(const terms *t, const char *name, bool ranged)
{
    for (size_t i = 0; i < t->n; i++)
        if (!t->used[i] && (ranged ? sort_key_term(t->v[i], name) : eq_value(t->v[i], name) != NULL))
            return (int)i;
    return -1;
}

/* A SELECT on an index with a multi-attribute key (the developer guide's
 * "Multi-attribute key schema"): a Query when WHERE terms fix every HASH
 * attribute by an equality (the first as ":pk", the one value of p->pks),
 * its key condition those and the RANGE attributes' terms in turn,
 * equalities while there are, then one sort-key term; a Scan otherwise. */
static void multi_key_condition(terms *t, const index_def *ix, pq_plan *p)
{
    int hat[SCHEMA_MAX_KEY_PARTS];
    for (size_t h = 0; h < index_def_n_hash(ix); h++)
        if ((hat[h] = term_on(t, index_def_hash(ix, h)->name, false)) < 0) {
            p->op = PQ_OP_SCAN;
            return;
        }
    p->op = PQ_OP_QUERY;
    buf text = BUF_INIT, ptext = BUF_INIT;
    unsigned kc = 0;
    sink k = { &text, &p->key_names, &p->key_values, "k", "k", &kc };
    for (size_t h = 0; h < index_def_n_hash(ix); h++) {
        const char *name = index_def_hash(ix, h)->name;
        const pn *v = eq_value(t->v[hat[h]], name);
        t->used[hat[h]] = true;
        if (h)
            buf_adds(&text, " AND ");
        sink_name(&k, name, strlen(name));
        if (h == 0) {
            buf_adds(&text, " = :pk");
            p->pks = xcalloc(1, sizeof *p->pks);
            av_copy(&p->pks[0], &v->val);
            p->n_pks = 1;
            av c;
            av_copy(&c, &v->val);
            av_map_put(&p->key_values, ":pk", 3, &c);
        } else {
            buf_adds(&text, " = ");
            sink_value(&k, &v->val);
        }
        if (h)
            buf_adds(&ptext, " AND ");
        pq_print_node(t->v[hat[h]], &ptext);
    }
    for (size_t r = 0; r < index_def_n_range(ix); r++) {
        const char *name = index_def_range(ix, r)->name;
        int i = term_on(t, name, false);
        bool last = i < 0;
        if (last && (i = term_on(t, name, true)) < 0)
            break;
        t->used[i] = true;
        buf_adds(&text, " AND ");
        emit_sort_key(&k, t->v[i]);
        buf_adds(&ptext, " AND ");
        pq_print_node(t->v[i], &ptext);
        if (last)
            break;
    }
    p->key_cond = buf_steal(&text);
    p->key_text = buf_steal(&ptext);
}

/* Does the WHERE fix every key attribute by equality (a single equality
 * on the partition key, skterm an equality on the sort key)? Then
 * p->full_key, and p->key is that key (GetItem). */
static void full_key(const terms *t, const key_attr *pk, const key_attr *sk, const pn *skterm,
                     pq_plan *p)
{
    p->full_key = p->n_pks == 1 && (!sk->name || (skterm && eq_value(skterm, sk->name)));
    if (p->n_pks == 1) {
        /* A single equality on the partition key is what full_key means. */
        bool single = false;
        for (size_t i = 0; i < t->n; i++)
            if (t->used[i] && eq_value(t->v[i], pk->name))
                single = true;
        p->full_key = p->full_key && single;
    }
    if (p->full_key) {
        av c2;
        av_init_list(&p->key, AV_M);
        av_copy(&c2, &p->pks[0]);
        av_map_put(&p->key, pk->name, strlen(pk->name), &c2);
        if (sk->name) {
            av_copy(&c2, &eq_value(skterm, sk->name)->val);
            av_map_put(&p->key, sk->name, strlen(sk->name), &c2);
        }
    }
}

/* The terms no key took: the filter the store applies to what it reads,
 * with its own maps, parsed; filter_text the same as written. */
static status select_filter(const terms *t, pq_plan *p, diag *d)
{
    if (!rest_count(t))
        return ST_OK;
    buf text = BUF_INIT, ptext = BUF_INIT;
    unsigned fc = 0;
    sink k = { &text, &p->filter_names, &p->filter_values, "n", "v", &fc };
    emit_rest(&k, t, &ptext, false);
    p->filter = buf_steal(&text);
    p->filter_text = buf_steal(&ptext);
    status st;
    if ((st = expr_ctx_init(&p->filter_cx, p->filter_names.u.m.len ? &p->filter_names : NULL,
                            p->filter_values.u.m.len ? &p->filter_values : NULL, d)) ||
        (st = expr_parse(&p->filter_cx, EXPR_FILTER, p->filter, strlen(p->filter),
                         &p->filter_e, d)))
        d->pos = -1;   /* the position is in the generated text */
    return st;
}

/* ORDER BY DESC on the partition key: the partitions in reverse, the
 * first of them the one ":pk" stands for. */
static void reverse_partitions(pq_plan *p)
{
    for (size_t a = 0, b = p->n_pks ? p->n_pks - 1 : 0; a < b; a++, b--) {
        av tmp = p->pks[a];
        p->pks[a] = p->pks[b];
        p->pks[b] = tmp;
    }
    av *cur = av_map_get_mut(&p->key_values, ":pk", 3);
    av_done(cur);
    av_copy(cur, &p->pks[0]);
}

/* ORDER BY: keys of a Query only; on the sort key it sets the direction,
 * DESC on the partition key reverses the partitions. */
static status select_order(const pq_stmt *s, const key_attr *pk, const key_attr *sk, pq_plan *p,
                           diag *d)
{
    if (!s->n_order)
        return ST_OK;
    if (!s->where)
        return diag_set(d, ST_VALIDATION,
                        "Must have WHERE clause in the statement when using ORDER BY clause.");
    for (size_t i = 0; i < s->n_order; i++) {
        const pn *o = s->order[i];
        bool is_pk = is_attr(o, pk->name), is_sk = sk->name && is_attr(o, sk->name);
        if (!is_pk && !is_sk)
            return diag_at(d, ST_VALIDATION, o->pos,
                           "Order by is supported only on the key attributes of the table or index");
        if (p->op != PQ_OP_QUERY)
            return diag_at(d, ST_VALIDATION, s->order_pos,
                           "Order by is supported only when the where clause fixes the partition key");
        if (is_sk)
            p->forward = !s->order_desc[i];
        if (is_pk && s->order_desc[i])
            reverse_partitions(p);
    }
    return ST_OK;
}

static void select_projection(const pq_stmt *s, pq_plan *p)
{
    buf scratch = BUF_INIT;
    for (size_t i = 0; i < s->n_proj; i++)
        proj_add(p, s->proj[i], &scratch);
    buf_done(&scratch);
}

/* A SELECT: Query when a WHERE term fixes the partition key (the first
 * sort-key term its key condition), Scan otherwise; the other terms the
 * filter; then ORDER BY. */
static status plan_select(const pq_stmt *s, const table_def *def, pq_plan *p, diag *d)
{
    const key_attr *pk, *sk;
    status st = read_keys(s, def, &pk, &sk, d);
    if (st)
        return st;
    terms t = { 0 };
    if (s->where)
        flatten(s->where, &t);
    select_projection(s, p);
    const index_def *ix = s->index ? table_def_index(def, s->index) : NULL;
    if (ix && index_def_multi(ix))
        multi_key_condition(&t, ix, p);
    else
        st = partition_keys(&t, pk, p, d);
    if (!st && p->op == PQ_OP_QUERY && !(ix && index_def_multi(ix)))
        full_key(&t, pk, sk, key_condition(&t, pk, sk, p), p);
    if (!st)
        st = select_filter(&t, p, d);
    if (!st)
        st = select_order(s, pk, sk, p, d);
    terms_done(&t);
    return st;
}

/* fn(name) into a condition: attribute_exists(#n0), ... */
static void attr_fn(sink *k, const char *fn, const char *name)
{
    buf_adds(k->text, fn);
    buf_addc(k->text, '(');
    sink_name(k, name, strlen(name));
    buf_addc(k->text, ')');
}

/* INSERT: PutItem of the VALUE, which must hold the key, on condition
 * that no item has that key. */
static status plan_insert(const pq_stmt *s, const table_def *def, pq_plan *p, diag *d)
{
    p->op = PQ_OP_PUT;
    av_copy(&p->item, &s->item->val);
    if (!av_map_get(&p->item, def->pk.name, strlen(def->pk.name)) ||
        (def->sk.name && !av_map_get(&p->item, def->sk.name, strlen(def->sk.name))))
        return diag_set(d, ST_VALIDATION,
                        "One or more parameter values were invalid: Missing the key %s in the item",
                        !av_map_get(&p->item, def->pk.name, strlen(def->pk.name)) ? def->pk.name
                                                                                  : def->sk.name);
    buf cnd = BUF_INIT;
    unsigned c = 0;
    sink k = { &cnd, &p->names, &p->values, "n", "v", &c };
    attr_fn(&k, "attribute_not_exists", def->pk.name);
    p->condition = buf_steal(&cnd);
    return ST_OK;
}

/* Which UpdateExpression section an UPDATE action goes in: 0 SET,
 * 1 REMOVE, 2 ADD (set_add), 3 DELETE (set_delete). */
static int act_section(const pq_act *a)
{
    return a->kind == ACT_REMOVE ? 1
         : a->val->k == PN_CALL && a->val->op == C_SET_ADD ? 2
         : a->val->k == PN_CALL && a->val->op == C_SET_DELETE ? 3 : 0;
}

/* SET x = set_add(x, <<...>>): the call must name the attribute it sets
 * and give a set value, as ADD and DELETE take them. */
static status check_set_call(const pq_act *a, diag *d)
{
    buf x = BUF_INIT, y = BUF_INIT;
    pq_print_node(a->val->kids[0], &x);
    pq_print_node(a->path, &y);
    bool same = x.len == y.len && memcmp(x.data, y.data, x.len) == 0;
    buf_done(&x);
    buf_done(&y);
    if (!same || a->val->kids[1]->k != PN_VALUE)
        return diag_at(d, ST_VALIDATION, a->val->pos,
                       "%s must name the attribute it sets and a set value",
                       pq_call_names[a->val->op]);
    return ST_OK;
}

/* UPDATE's SET and REMOVE clauses as p->update, section by section;
 * placeholders numbered by *c, shared with the condition. */
static status update_expression(const pq_stmt *s, pq_plan *p, unsigned *c, diag *d)
{
    static const char *const sections[] = { "SET", "REMOVE", "ADD", "DELETE" };
    buf upd = BUF_INIT;
    sink u = { &upd, &p->names, &p->values, "n", "v", c };
    for (int sec = 0; sec < 4; sec++) {
        bool any = false;
        for (size_t i = 0; i < s->n_acts; i++) {
            const pq_act *a = &s->acts[i];
            int as = act_section(a);
            if (as != sec)
                continue;
            status st;
            if (as >= 2 && (st = check_set_call(a, d))) {
                buf_done(&upd);
                return st;
            }
            buf_adds(&upd, any ? ", " : (upd.len ? " " : ""));
            if (!any)
                buf_printf(&upd, "%s ", sections[sec]);
            any = true;
            emit(&u, a->path);
            if (as == 0) {
                buf_adds(&upd, " = ");
                emit(&u, a->val);
            } else if (as >= 2) {
                buf_addc(&upd, ' ');
                emit(&u, a->val->kids[1]);
            }
        }
    }
    p->update = buf_steal(&upd);
    return ST_OK;
}

/* UPDATE, DELETE, EXISTS once the key is found: the operation, its
 * UpdateExpression and ConditionExpression (the item must exist for
 * UPDATE and EXISTS; the other WHERE terms hold), ReturnValues. */
static status write_expressions(const pq_stmt *s, const table_def *def, const terms *t,
                                pq_plan *p, diag *d)
{
    buf cnd = BUF_INIT, ptext = BUF_INIT;
    unsigned c = 0;
    sink k = { &cnd, &p->names, &p->values, "n", "v", &c };
    if (s->kind == PQ_UPDATE || s->kind == PQ_EXISTS) {
        p->op = s->kind == PQ_UPDATE ? PQ_OP_UPDATE : PQ_OP_CHECK;
        status st;
        if (s->kind == PQ_UPDATE && (st = update_expression(s, p, &c, d)))
            return st;
        attr_fn(&k, "attribute_exists", def->pk.name);
        if (rest_count(t)) {
            buf_adds(&cnd, " AND ");
            emit_rest(&k, t, &ptext, s->kind == PQ_UPDATE);
        }
    } else {
        p->op = PQ_OP_DELETE;
        if (rest_count(t)) {
            /* A missing item deletes nothing and succeeds; a present one
             * must pass the condition. */
            attr_fn(&k, "attribute_not_exists", def->pk.name);
            buf_adds(&cnd, " OR ");
            /* emit_rest ANDs: inside OR that needs no parentheses */
            emit_rest(&k, t, &ptext, false);
        }
    }
    p->filter_text = steal_or_null(&ptext);
    p->condition = steal_or_null(&cnd);
    static const char *const rv[] = { NULL, "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW" };
    p->return_values = rv[s->ret];
    return ST_OK;
}

/* A write: INSERT by its item; UPDATE, DELETE and EXISTS by the key their
 * WHERE fixes, the other terms their condition. */
static status plan_write(const pq_stmt *s, const table_def *def, pq_plan *p, diag *d)
{
    if (s->kind == PQ_INSERT)
        return plan_insert(s, def, p, d);
    if (s->index)
        return diag_set(d, ST_VALIDATION, "Unsupported operation: writes name a table, not an index");
    av_init_list(&p->key, AV_M);
    if (!s->where)
        return key_error(d);
    terms t = { 0 };
    flatten(s->where, &t);
    status st = write_key(&t, &def->pk, &def->sk, p, d);
    if (!st) {
        /* key_text: the key as PartiQL */
        buf ptext = BUF_INIT;
        pq_print_value(&p->key, &ptext);
        p->key_text = buf_steal(&ptext);
        st = write_expressions(s, def, &t, p, d);
    }
    terms_done(&t);
    return st;
}

status pq_plan_of(const pq_stmt *s, const table_def *def, pq_plan *out, diag *d)
{
    plan_init(out);
    out->kind = s->kind;
    out->table = xstrdup(s->table);
    out->index = s->index ? xstrdup(s->index) : NULL;
    status st;
    if (s->kind == PQ_SELECT)
        st = plan_select(s, def, out, d);
    else
        st = plan_write(s, def, out, d);
    if (st) {
        pq_plan_done(out);
        plan_init(out);
    }
    return st;
}

bool pq_plan_match(const pq_plan *p, const av *item)
{
    return !p->filter_e || expr_eval(p->filter_e, item);
}

static const av *walk(const struct pq_proj *pr, const av *item)
{
    const av *v = item;
    for (size_t i = 0; i < pr->n && v; i++) {
        if (pr->steps[i].is_index)
            v = v->type == AV_L && pr->steps[i].index < v->u.l.len ? &v->u.l.v[pr->steps[i].index]
                                                                   : NULL;
        else
            v = v->type == AV_M ? av_map_get(v, pr->steps[i].name, pr->steps[i].len) : NULL;
    }
    return v;
}

void pq_plan_project(const pq_plan *p, const av *item, av *out)
{
    if (!p->n_proj) {
        av_copy(out, item);
        return;
    }
    av_init_list(out, AV_M);
    for (size_t i = 0; i < p->n_proj; i++) {
        const av *v = walk(&p->proj[i], item);
        if (!v)
            continue;
        av c;
        av_copy(&c, v);
        av_map_put(out, p->proj[i].label, strlen(p->proj[i].label), &c);
    }
}

static void explain_map(buf *out, const char *label, const av *m)
{
    if (!m->u.m.len)
        return;
    buf_printf(out, "  %s: ", label);
    if (m->u.m.v[0].val.type == AV_S && m->u.m.v[0].name[0] == '#')
        ddbjson_write_plain_item(out, m);
    else
        ddbjson_write_item(out, m);
    buf_addc(out, '\n');
}

void pq_plan_explain(const pq_plan *p, buf *out)
{
    buf_printf(out, "operation: %s on \"%s\"", pq_op_name(p->op), p->table);
    if (p->index)
        buf_printf(out, " index \"%s\"", p->index);
    buf_addc(out, '\n');
    switch (p->op) {
    case PQ_OP_QUERY:
        buf_printf(out, "partitions: %zu", p->n_pks);
        if (p->n_pks > 1)
            buf_adds(out, " (one Query each, in key order)");
        buf_addc(out, '\n');
        buf_printf(out, "key range: %s\n", p->key_text);
        buf_printf(out, "order: %s\n", p->forward ? "ascending" : "descending");
        break;
    case PQ_OP_SCAN:
        buf_adds(out, "key range: none (every item is read)\n");
        break;
    case PQ_OP_PUT:
        buf_adds(out, "item: ");
        pq_print_value(&p->item, out);
        buf_addc(out, '\n');
        break;
    default:
        buf_printf(out, "key: %s\n", p->key_text);
        break;
    }
    if (p->op == PQ_OP_QUERY || p->op == PQ_OP_SCAN) {
        buf_printf(out, "filter: %s\n", p->filter_text ? p->filter_text : "none");
        if (p->n_proj) {
            buf_adds(out, "projection:");
            for (size_t i = 0; i < p->n_proj; i++)
                buf_printf(out, " %s", p->proj[i].label);
            buf_addc(out, '\n');
        }
        if (p->key_cond) {
            buf_printf(out, "  KeyConditionExpression: %s\n", p->key_cond);
            explain_map(out, "ExpressionAttributeNames", &p->key_names);
            explain_map(out, "ExpressionAttributeValues", &p->key_values);
        }
        if (p->filter) {
            buf_printf(out, "  FilterExpression: %s\n", p->filter);
            explain_map(out, "ExpressionAttributeNames", &p->filter_names);
            explain_map(out, "ExpressionAttributeValues", &p->filter_values);
        }
        return;
    }
    if (p->filter_text)
        buf_printf(out, "condition: %s\n", p->filter_text);
    if (p->return_values)
        buf_printf(out, "ReturnValues: %s\n", p->return_values);
    if (p->update)
        buf_printf(out, "  UpdateExpression: %s\n", p->update);
    if (p->condition)
        buf_printf(out, "  ConditionExpression: %s\n", p->condition);
    explain_map(out, "ExpressionAttributeNames", &p->names);
    explain_map(out, "ExpressionAttributeValues", &p->values);
}

