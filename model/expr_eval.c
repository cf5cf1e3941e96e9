/*
 * expr_eval — evaluating conditions and filters (plain and explained),
 * key conditions into key ranges, and projections.
 *
 * Evaluation follows DynamoDB: a comparison of values of different types
 * is false, never an error; a missing attribute makes every comparison
 * false except <>, which is true; only S, N and B are ordered.
 */
#include "model/expr_int.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- operands ------------------------------------------------------------ */

static bool ordered(av_type t)
{
    return t == AV_S || t == AV_N || t == AV_B;
}

/* size() of a value, or false when DynamoDB gives it none. */
static bool size_of(const av *v, int64_t *out)
{
    if (!v)
        return false;
    switch (v->type) {
    case AV_S: *out = (int64_t)expr_utf16_len(v->u.s.ptr, v->u.s.len); return true;
    case AV_B: *out = (int64_t)v->u.s.len; return true;
    case AV_L: case AV_SS: case AV_NS: case AV_BS: *out = (int64_t)v->u.l.len; return true;
    case AV_M: *out = (int64_t)v->u.m.len; return true;
    default: return false;
    }
}

/* The operand's value; tmp holds a computed one (size), without heap. */
static const av *operand(const expr_node *n, const av *item, av *tmp)
{
    switch (n->kind) {
    case EN_PATH:
        return expr_path_get(&n->path, item);
    case EN_VALUE:
        return n->value;
    case EN_FUNC:
        if (n->op == FN_SIZE) {
            av inner;
            int64_t sz;
            if (!size_of(operand(n->kids[0], item, &inner), &sz))
                return NULL;
            tmp->type = AV_N;
            num_from_int(&tmp->u.n, sz);
            return tmp;
        }
        return NULL;
    default:
        return NULL;
    }
}

static bool same(const av *a, const av *b)
{
    return a && b && a->type == b->type && av_equal(a, b);
}

static bool cmp_eval(int op, const av *a, const av *b)
{
    if (op == CMP_NE)
        return !same(a, b);
    if (op == CMP_EQ)
        return same(a, b);
    if (!a || !b || a->type != b->type || !ordered(a->type))
        return false;
    int c = av_cmp(a, b);
    switch (op) {
    case CMP_LT: return c < 0;
    case CMP_LE: return c <= 0;
    case CMP_GT: return c > 0;
    case CMP_GE: return c >= 0;
    default: return false;
    }
}

static bool contains_eval(const av *a, const av *b)
{
    if (!a || !b)
        return false;
    switch (a->type) {
    case AV_S:
    case AV_B:
        if (b->type != a->type)
            return false;
        if (b->u.s.len == 0)
            return true;
        return memmem(a->u.s.ptr, a->u.s.len, b->u.s.ptr, b->u.s.len) != NULL;
    case AV_SS: case AV_NS: case AV_BS:
        return b->type == av_set_elem(a->type) && av_set_has(a, b);
    case AV_L:
        for (size_t i = 0; i < a->u.l.len; i++)
            if (same(&a->u.l.v[i], b))
                return true;
        return false;
    default:
        return false;
    }
}

static bool begins_eval(const av *a, const av *b)
{
    if (!a || !b || a->type != b->type || (a->type != AV_S && a->type != AV_B))
        return false;
    return b->u.s.len <= a->u.s.len && memcmp(a->u.s.ptr, b->u.s.ptr, b->u.s.len) == 0;
}

static bool eval_node(const expr_node *n, const av *item)
{
    av t0, t1, t2;
    switch (n->kind) {
    case EN_OR:
        return eval_node(n->kids[0], item) || eval_node(n->kids[1], item);
    case EN_AND:
        return eval_node(n->kids[0], item) && eval_node(n->kids[1], item);
    case EN_NOT:
        return !eval_node(n->kids[0], item);
    case EN_CMP:
        return cmp_eval(n->op, operand(n->kids[0], item, &t0), operand(n->kids[1], item, &t1));
    case EN_BETWEEN: {
        const av *v = operand(n->kids[0], item, &t0);
        const av *lo = operand(n->kids[1], item, &t1);
        const av *hi = operand(n->kids[2], item, &t2);
        if (!v || !lo || !hi || v->type != lo->type || v->type != hi->type || !ordered(v->type))
            return false;
        return av_cmp(lo, v) <= 0 && av_cmp(v, hi) <= 0;
    }
    case EN_IN: {
        const av *v = operand(n->kids[0], item, &t0);
        if (!v)
            return false;
        for (size_t i = 1; i < n->n_kids; i++)
            if (same(v, operand(n->kids[i], item, &t1)))
                return true;
        return false;
    }
    case EN_FUNC:
        switch (n->op) {
        case FN_ATTRIBUTE_EXISTS:
            return operand(n->kids[0], item, &t0) != NULL;
        case FN_ATTRIBUTE_NOT_EXISTS:
            return operand(n->kids[0], item, &t0) == NULL;
        case FN_ATTRIBUTE_TYPE: {
            const av *v = operand(n->kids[0], item, &t0);
            const av *t = operand(n->kids[1], item, &t1);
            return v && t && t->type == AV_S &&
                   strcmp(av_type_name(v->type), t->u.s.ptr) == 0;
        }
        case FN_BEGINS_WITH:
            return begins_eval(operand(n->kids[0], item, &t0), operand(n->kids[1], item, &t1));
        case FN_CONTAINS:
            return contains_eval(operand(n->kids[0], item, &t0), operand(n->kids[1], item, &t1));
        default:
            return false;
        }
    default:
        return false;
    }
}

bool expr_eval(const expr *e, const av *item)
{
    assert(e->kind == EXPR_CONDITION || e->kind == EXPR_FILTER || e->kind == EXPR_KEY);
    return eval_node(e->root, item);
}

/* ---- explained evaluation ------------------------------------------------ */

static void describe(buf *b, const expr_node *n, const av *v)
{
    if (!v) {
        if (n->kind == EN_PATH) {
            expr_path_real_text(&n->path, b);
            buf_adds(b, " is missing");
        } else if (n->kind == EN_FUNC && n->n_kids == 1 && n->kids[0]->kind == EN_PATH) {
            buf_printf(b, "%s(", n->name);
            expr_path_real_text(&n->kids[0]->path, b);
            buf_adds(b, ") has no value");
        } else {
            expr_print_node(n, b);
            buf_adds(b, " has no value");
        }
        return;
    }
    if (v->type == AV_S)
        ddbjson_write_string(b, v->u.s.ptr, v->u.s.len);
    else if (v->type == AV_N)
        expr_value_brief(b, v);
    else
        ddbjson_write_value(b, v);
}

/* "a is missing" when an operand is, "type mismatch: S vs N", else the
 * values: `"x" < "y"`. */
static void explain_operands(buf *b, const char *op, const expr_node **ns,
                             const av **vs, size_t k)
{
    for (size_t i = 0; i < k; i++)
        if (!vs[i]) {
            describe(b, ns[i], NULL);
            return;
        }
    for (size_t i = 1; i < k; i++)
        if (vs[i]->type != vs[0]->type) {
            buf_printf(b, "type mismatch: %s vs %s", av_type_name(vs[0]->type),
                       av_type_name(vs[i]->type));
            return;
        }
    describe(b, ns[0], vs[0]);
    buf_printf(b, " %s ", op);
    describe(b, ns[1], vs[1]);
    if (k == 3) {
        buf_adds(b, " AND ");
        describe(b, ns[2], vs[2]);
    }
}

static bool explain_node(const expr_node *n, const av *item, int depth, expr_trace *t)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = xrealloc(t->v, t->cap * sizeof *t->v);
    }
    size_t me = t->n++;
    buf text = BUF_INIT, why = BUF_INIT;
    expr_print_node(n, &text);
    bool verdict = false;
    av t0, t1, t2;
    switch (n->kind) {
    case EN_OR:
    case EN_AND: {
        bool l = explain_node(n->kids[0], item, depth + 1, t);
        bool r = explain_node(n->kids[1], item, depth + 1, t);
        verdict = n->kind == EN_OR ? (l || r) : (l && r);
        buf_printf(&why, "left %s, right %s", l ? "true" : "false", r ? "true" : "false");
        break;
    }
    case EN_NOT: {
        bool k = explain_node(n->kids[0], item, depth + 1, t);
        verdict = !k;
        buf_printf(&why, "operand %s", k ? "true" : "false");
        break;
    }
    case EN_CMP: {
        const av *vs[2] = { operand(n->kids[0], item, &t0), operand(n->kids[1], item, &t1) };
        const expr_node *ns[2] = { n->kids[0], n->kids[1] };
        verdict = cmp_eval(n->op, vs[0], vs[1]);
        explain_operands(&why, expr_cmp_text(n->op), ns, vs, 2);
        if (n->op == CMP_NE && (!vs[0] || !vs[1]))
            buf_adds(&why, " (<> is true when an operand is missing)");
        else if (vs[0] && vs[1] && vs[0]->type == vs[1]->type && !ordered(vs[0]->type) &&
                 n->op != CMP_EQ && n->op != CMP_NE)
            buf_printf(&why, " (%s values are not ordered)", av_type_name(vs[0]->type));
        break;
    }
    case EN_BETWEEN: {
        const av *vs[3] = { operand(n->kids[0], item, &t0), operand(n->kids[1], item, &t1),
                            operand(n->kids[2], item, &t2) };
        const expr_node *ns[3] = { n->kids[0], n->kids[1], n->kids[2] };
        verdict = eval_node(n, item);
        explain_operands(&why, "BETWEEN", ns, vs, 3);
        break;
    }
    case EN_IN: {
        const av *v = operand(n->kids[0], item, &t0);
        verdict = eval_node(n, item);
        if (!v) {
            describe(&why, n->kids[0], NULL);
        } else {
            describe(&why, n->kids[0], v);
            buf_adds(&why, verdict ? " is in the list" : " is not in the list");
        }
        break;
    }
    case EN_FUNC: {
        const av *a = operand(n->kids[0], item, &t0);
        const av *b = n->n_kids > 1 ? operand(n->kids[1], item, &t1) : NULL;
        verdict = eval_node(n, item);
        if (n->op == FN_ATTRIBUTE_EXISTS || n->op == FN_ATTRIBUTE_NOT_EXISTS) {
            expr_path_real_text(&n->kids[0]->path, &why);
            buf_printf(&why, a ? " exists (%s)" : " is missing", a ? av_type_name(a->type) : "");
        } else if (!a) {
            describe(&why, n->kids[0], NULL);
        } else if (n->op == FN_ATTRIBUTE_TYPE) {
            buf_printf(&why, "type is %s", av_type_name(a->type));
        } else if (!b) {
            describe(&why, n->kids[1], NULL);
        } else {
            describe(&why, n->kids[0], a);
            buf_printf(&why, " %s ", n->name);
            describe(&why, n->kids[1], b);
            if (n->op == FN_BEGINS_WITH && a->type != b->type)
                buf_printf(&why, " (type mismatch: %s vs %s)", av_type_name(a->type),
                           av_type_name(b->type));
        }
        break;
    }
    default:
        break;
    }
    expr_trace_entry *e = &t->v[me];
    e->node = n;
    e->depth = depth;
    e->verdict = verdict;
    e->text = buf_steal(&text);
    e->why = why.data ? buf_steal(&why) : xstrdup("");
    buf_done(&text);
    buf_done(&why);
    return verdict;
}

bool expr_explain(const expr *e, const av *item, expr_trace *out)
{
    assert(e->kind == EXPR_CONDITION || e->kind == EXPR_FILTER || e->kind == EXPR_KEY);
    return explain_node(e->root, item, 0, out);
}

void expr_trace_done(expr_trace *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].text);
        free(t->v[i].why);
    }
    free(t->v);
    memset(t, 0, sizeof *t);
}

/* ---- key conditions ------------------------------------------------------ */

typedef expr_key_cond key_cond;

static expr_key_op flip(int cmp)
{
    switch (cmp) {
    case CMP_EQ: return KEY_SK_EQ;
    case CMP_LT: return KEY_SK_GT;
    case CMP_LE: return KEY_SK_GE;
    case CMP_GT: return KEY_SK_LT;
    default: return KEY_SK_LE;
    }
}

static expr_key_op key_op(int cmp)
{
    switch (cmp) {
    case CMP_EQ: return KEY_SK_EQ;
    case CMP_LT: return KEY_SK_LT;
    case CMP_LE: return KEY_SK_LE;
    case CMP_GT: return KEY_SK_GT;
    default: return KEY_SK_GE;
    }
}

static status key_collect(const expr_node *n, key_cond *kc, size_t *nk, size_t max, diag *d)
{
    switch (n->kind) {
    case EN_OR: return diag_at(d, ST_VALIDATION, n->pos, "Invalid operator used in KeyConditionExpression: OR");
    case EN_NOT: return diag_at(d, ST_VALIDATION, n->pos, "Invalid operator used in KeyConditionExpression: NOT");
    case EN_IN: return diag_at(d, ST_VALIDATION, n->pos, "Invalid operator used in KeyConditionExpression: IN");
    case EN_AND: {
        status st = key_collect(n->kids[0], kc, nk, max, d);
        return st ? st : key_collect(n->kids[1], kc, nk, max, d);
    }
    default:
        break;
    }
    if (n->kind == EN_CMP && n->op == CMP_NE)
        return diag_at(d, ST_VALIDATION, n->pos, "Invalid operator used in KeyConditionExpression: <>");
    if (n->kind == EN_FUNC) {
        if (n->op == FN_SIZE)
            return diag_at(d, ST_VALIDATION, n->pos, "KeyConditionExpressions cannot contain nested operations");
        if (n->op != FN_BEGINS_WITH)
            return diag_at(d, ST_VALIDATION, n->pos, "Invalid operator used in KeyConditionExpression: %s", n->name);
        if (n->kids[0]->kind != EN_PATH)
            return diag_at(d, ST_VALIDATION, n->pos,
                "Invalid condition in KeyConditionExpression: begins_with operator must have the key attribute as its first operand");
    }
    if (n->kind == EN_BETWEEN && n->kids[0]->kind != EN_PATH)
        return diag_at(d, ST_VALIDATION, n->pos,
            "Invalid condition in KeyConditionExpression: BETWEEN operator must have the key attribute as its first operand");
    const expr_node *path = NULL;
    size_t at = 0;
    for (size_t i = 0; i < n->n_kids; i++) {
        const expr_node *k = n->kids[i];
        if (k->kind == EN_PATH) {
            if (path)
                return diag_at(d, ST_VALIDATION, k->pos,
                    "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition");
            if (k->path.n > 1)
                return diag_at(d, ST_VALIDATION, k->pos,
                    "Invalid KeyConditionExpression: KeyConditionExpressions cannot have conditions on nested attributes");
            path = k;
            at = i;
        } else if (k->kind == EN_FUNC) {
            return diag_at(d, ST_VALIDATION, k->pos, "KeyConditionExpressions cannot contain nested operations");
        }
    }
    if (!path)
        return diag_at(d, ST_VALIDATION, n->pos,
            "Invalid condition in KeyConditionExpression: No key attribute specified");
    const expr_step *b = &path->path.steps[0];
    for (size_t i = 0; i < *nk; i++) {
        if (kc[i].len == b->len && memcmp(kc[i].name, b->name, b->len) == 0)
            return diag_at(d, ST_VALIDATION, n->pos,
                "KeyConditionExpressions must only contain one condition per key");
    }
    if (*nk == max)
        return diag_at(d, ST_VALIDATION, n->pos, max == 2 ? "Conditions can be of length 1 or 2 only"
                       : "Query key condition not supported");
    key_cond *c = &kc[(*nk)++];
    memset(c, 0, sizeof *c);
    c->name = b->name;
    c->len = b->len;
    if (n->kind == EN_CMP) {
        c->op = at == 0 ? key_op(n->op) : flip(n->op);
        c->v1 = n->kids[1 - at]->value;
    } else if (n->kind == EN_BETWEEN) {
        c->op = KEY_SK_BETWEEN;
        c->v1 = n->kids[1]->value;
        c->v2 = n->kids[2]->value;
    } else {
        c->op = KEY_SK_BEGINS;
        c->v1 = n->kids[1]->value;
    }
    return ST_OK;
}

static const key_cond *find_cond(const key_cond *kc, size_t nk, const char *name)
{
    for (size_t i = 0; i < nk; i++)
        if (kc[i].len == strlen(name) && memcmp(kc[i].name, name, kc[i].len) == 0)
            return &kc[i];
    return NULL;
}

static void range_fill(const key_cond *sc, expr_key_range *out);
static status sk_cond_ok(const key_cond *sc, av_type type, diag *d);

static bool type_ok(const key_cond *c, av_type t)
{
    return c->v1 && c->v1->type == t && (!c->v2 || c->v2->type == t);
}

status expr_key_range_of(const expr *e, const char *pk_name, av_type pk_type,
                         const char *sk_name, av_type sk_type,
                         expr_key_range *out, diag *d)
{
    assert(e->kind == EXPR_KEY);
    memset(out, 0, sizeof *out);
    key_cond kc[2];
    size_t nk = 0;
    status st = key_collect(e->root, kc, &nk, 2, d);
    if (st)
        return st;
    if (!sk_name && nk > 1)
        return diag_set(d, ST_VALIDATION, "Query key condition not supported");
    const key_cond *pc = find_cond(kc, nk, pk_name);
    if (!pc)
        return diag_set(d, ST_VALIDATION, "Query condition missed key schema element: %s", pk_name);
    if (!type_ok(pc, pk_type))
        return diag_set(d, ST_VALIDATION,
            "One or more parameter values were invalid: Condition parameter type does not match schema type");
    if (pc->op != KEY_SK_EQ)
        return diag_set(d, ST_VALIDATION, "Query key condition not supported");
    out->pk_name = pk_name;
    out->pk = pc->v1;
    const key_cond *sc = sk_name ? find_cond(kc, nk, sk_name) : NULL;
    if (!sc) {
        if (nk > 1)
            return diag_set(d, ST_VALIDATION, "Query condition missed key schema element: %s",
                            sk_name ? sk_name : pk_name);
        return ST_OK;
    }
    if ((st = sk_cond_ok(sc, sk_type, d)) != ST_OK)
        return st;
    out->sk_name = sk_name;
    range_fill(sc, out);
    return ST_OK;
}

static void range_fill(const key_cond *sc, expr_key_range *out)
{
    out->op = sc->op;
    out->sk1 = sc->v1;
    out->sk2 = sc->v2;
    switch (sc->op) {
    case KEY_SK_EQ: out->lo = out->hi = sc->v1; out->lo_incl = out->hi_incl = true; break;
    case KEY_SK_LT: out->hi = sc->v1; break;
    case KEY_SK_LE: out->hi = sc->v1; out->hi_incl = true; break;
    case KEY_SK_GT: out->lo = sc->v1; break;
    case KEY_SK_GE: out->lo = sc->v1; out->lo_incl = true; break;
    case KEY_SK_BETWEEN:
        out->lo = sc->v1;
        out->hi = sc->v2;
        out->lo_incl = out->hi_incl = true;
        break;
    case KEY_SK_BEGINS: out->prefix = sc->v1; break;
    default: break;
    }
}

/* The condition on a sort-key attribute: its values' type, and
 * begins_with only on S and B (dynalite's messages, as for one key). */
static status sk_cond_ok(const key_cond *sc, av_type type, diag *d)
{
    if (!type_ok(sc, type))
        return diag_set(d, ST_VALIDATION,
            "One or more parameter values were invalid: Condition parameter type does not match schema type");
    if (sc->op == KEY_SK_BEGINS && type == AV_N)
        return diag_set(d, ST_VALIDATION,
            "Invalid KeyConditionExpression: Incorrect operand type for operator or function; operator or function: begins_with, operand type: N");
    return ST_OK;
}

/*
 * Multi-attribute keys. What DynamoDB answers, and where it comes from:
 * the developer guide's "Multi-attribute key schema" (every partition key
 * attribute with an equality, sort key attributes from the first with no
 * gap, only the last one named with a range condition); the refusals'
 * wording, "HASH key attributes X must have equality conditions specified
 * in the query" and "RANGE key attributes X must have equality conditions
 * specified in the query because a condition is present on key attribute
 * Y", as issue 29 and a public conformance suite validated against AWS
 * quote them; which attributes X lists (all that qualify, joined by ", ")
 * and which Y, as DynamoDB Local 3.3 (AWS's emulator) answers: first the
 * earliest RANGE attribute with a condition after attributes without
 * any, those listed; then an attribute with a condition other than an
 * equality followed by one with a condition. A condition on no key
 * attribute is "Query key condition not supported", as for one key.
 */
static void names_joined(buf *b, const char *const *names, const bool *pick, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (pick[i]) {
            if (b->len)
                buf_adds(b, ", ");
            buf_adds(b, names[i]);
        }
}

status expr_key_tuple_check(const expr_key_cond *kc, size_t nk, const char *const *hash_names,
                            const av_type *hash_types, size_t n_hash, const char *const *range_names,
                            const av_type *range_types, size_t n_range, expr_key_tuple *out, diag *d)
{
    assert(n_hash >= 1 && n_hash <= EXPR_KEY_PARTS && n_range <= EXPR_KEY_PARTS);
    memset(out, 0, sizeof *out);
    status st = ST_OK;
    for (size_t i = 0; i < nk; i++) {
        bool known = false;
        for (size_t h = 0; h < n_hash; h++)
            known |= kc[i].len == strlen(hash_names[h]) && memcmp(kc[i].name, hash_names[h], kc[i].len) == 0;
        for (size_t r = 0; r < n_range; r++)
            known |= kc[i].len == strlen(range_names[r]) && memcmp(kc[i].name, range_names[r], kc[i].len) == 0;
        if (!known)
            return diag_set(d, ST_VALIDATION, "Query key condition not supported");
    }
    buf b = BUF_INIT;
    bool pick[EXPR_KEY_PARTS] = { false }, missing = false;
    for (size_t h = 0; h < n_hash; h++)
        missing |= pick[h] = !find_cond(kc, nk, hash_names[h]);
    if (missing) {
        names_joined(&b, hash_names, pick, n_hash);
        st = diag_set(d, ST_VALIDATION, "HASH key attributes %s must have equality conditions specified in"
                      " the query", b.data);
        goto out;
    }
    for (size_t h = 0; h < n_hash; h++) {
        const key_cond *pc = find_cond(kc, nk, hash_names[h]);
        if (!type_ok(pc, hash_types[h])) {
            st = diag_set(d, ST_VALIDATION, "One or more parameter values were invalid: Condition parameter"
                          " type does not match schema type");
            goto out;
        }
        if (pc->op != KEY_SK_EQ) {
            st = diag_set(d, ST_VALIDATION, "Query key condition not supported");
            goto out;
        }
        out->hash[h] = pc->v1;
    }
    const key_cond *rc[EXPR_KEY_PARTS] = { NULL };
    for (size_t r = 0; r < n_range; r++)
        rc[r] = find_cond(kc, nk, range_names[r]);
    for (size_t later = 1; later < n_range; later++) {
        if (!rc[later])
            continue;
        missing = false;
        for (size_t prior = 0; prior < later; prior++)
            missing |= pick[prior] = !rc[prior];
        if (!missing)
            continue;
        names_joined(&b, range_names, pick, later);
        st = diag_set(d, ST_VALIDATION, "RANGE key attributes %s must have equality conditions specified in"
                      " the query because a condition is present on key attribute %s", b.data,
                      range_names[later]);
        goto out;
    }
    for (size_t r = 0; r + 1 < n_range && rc[r]; r++)
        if (rc[r]->op != KEY_SK_EQ && rc[r + 1]) {
            st = diag_set(d, ST_VALIDATION, "RANGE key attributes %s must have equality conditions specified"
                          " in the query because a condition is present on key attribute %s",
                          range_names[r], range_names[r + 1]);
            goto out;
        }
    for (size_t r = 0; r < n_range && rc[r]; r++) {
        if ((st = sk_cond_ok(rc[r], range_types[r], d)) != ST_OK)
            goto out;
        if (rc[r]->op == KEY_SK_EQ && r + 1 < n_range && rc[r + 1]) {
            out->eq[out->n_eq++] = rc[r]->v1;
            continue;
        }
        out->last.sk_name = range_names[r];
        range_fill(rc[r], &out->last);
        break;
    }
out:
    buf_done(&b);
    return st;
}

status expr_key_tuple_of(const expr *e, const char *const *hash_names, const av_type *hash_types,
                         size_t n_hash, const char *const *range_names, const av_type *range_types,
                         size_t n_range, expr_key_tuple *out, diag *d)
{
    assert(e->kind == EXPR_KEY);
    key_cond kc[2 * EXPR_KEY_PARTS];
    size_t nk = 0;
    status st = key_collect(e->root, kc, &nk, n_hash + n_range, d);
    if (st)
        return st;
    return expr_key_tuple_check(kc, nk, hash_names, hash_types, n_hash, range_names, range_types, n_range,
                                out, d);
}

bool expr_key_match_sk(const expr_key_range *r, const av *sk)
{
    if (r->op == KEY_SK_NONE)
        return true;
    if (!sk)
        return false;
    if (r->prefix)
        return begins_eval(sk, r->prefix);
    if (r->lo) {
        if (sk->type != r->lo->type)
            return false;
        int c = av_cmp(sk, r->lo);
        if (c < 0 || (c == 0 && !r->lo_incl))
            return false;
    }
    if (r->hi) {
        if (sk->type != r->hi->type)
            return false;
        int c = av_cmp(sk, r->hi);
        if (c > 0 || (c == 0 && !r->hi_incl))
            return false;
    }
    return true;
}

/* ---- projections ---------------------------------------------------------- */

/* List elements are first gathered in maps keyed "\0" + ten-digit index
 * (so they sort by index), then turned into compact lists. */
#define IDX_KEY_LEN 11

static void idx_key(char *k, uint32_t i)
{
    k[0] = '\0';
    for (int d = IDX_KEY_LEN - 1; d >= 1; d--) {
        k[d] = (char)('0' + i % 10);
        i /= 10;
    }
}

static bool is_idx_map(const av *m)
{
    if (m->type != AV_M || m->u.m.len == 0)
        return false;
    for (size_t i = 0; i < m->u.m.len; i++)
        if (m->u.m.v[i].name_len != IDX_KEY_LEN || m->u.m.v[i].name[0] != '\0')
            return false;
    return true;
}

static void squash(av *v)
{
    if (v->type == AV_L) {
        for (size_t i = 0; i < v->u.l.len; i++)
            squash(&v->u.l.v[i]);
        return;
    }
    if (v->type != AV_M)
        return;
    for (size_t i = 0; i < v->u.m.len; i++)
        squash(&v->u.m.v[i].val);
    if (!is_idx_map(v))
        return;
    av list;
    av_init_list(&list, AV_L);
    for (size_t i = 0; i < v->u.m.len; i++) {
        av el;
        av_move(&el, &v->u.m.v[i].val);
        av_list_push(&list, &el);
    }
    av_done(v);
    av_move(v, &list);
}

void expr_project(const expr *e, const av *item, av *out)
{
    assert(e->kind == EXPR_PROJECTION || e->kind == EXPR_UPDATE);
    av_init_list(out, AV_M);
    if (!item)
        return;
    const expr_node *root = e->root;
    for (size_t k = 0; k < root->n_kids; k++) {
        /* An update's action paths never overlap either (the resolver
         * rejects that), so they project the same way. */
        const expr_node *pn = e->kind == EXPR_UPDATE ? root->kids[k]->kids[0] : root->kids[k];
        const expr_path *p = &pn->path;
        if (!expr_path_get(p, item))
            continue;
        const av *src = item;
        av *dst = out;
        for (size_t i = 0; i < p->n; i++) {
            const expr_step *st = &p->steps[i];
            char key[IDX_KEY_LEN];
            const char *name = st->name;
            size_t len = st->len;
            if (st->is_index) {
                src = &src->u.l.v[st->index];
                idx_key(key, st->index);
                name = key;
                len = IDX_KEY_LEN;
            } else {
                src = av_map_get(src, st->name, st->len);
            }
            assert(src && dst->type == AV_M);
            if (i + 1 == p->n) {
                av copy;
                av_copy(&copy, src);
                av_map_put(dst, name, len, &copy);
                break;
            }
            av *next = av_map_get_mut(dst, name, len);
            if (!next) {
                av fresh;
                av_init_list(&fresh, AV_M);
                av_map_put(dst, name, len, &fresh);
                next = av_map_get_mut(dst, name, len);
            }
            dst = next;
        }
    }
    squash(out);
}

/* ---- paths ------------------------------------------------------------------ */

static const expr_node *nested_under(const expr_node *n, const char *name, size_t len)
{
    if (n->kind == EN_PATH) {
        const expr_step *st = &n->path.steps[0];
        return n->path.n > 1 && !st->is_index && st->name && st->len == len &&
               memcmp(st->name, name, len) == 0 ? n : NULL;
    }
    for (size_t i = 0; i < n->n_kids; i++) {
        const expr_node *k = nested_under(n->kids[i], name, len);
        if (k)
            return k;
    }
    return NULL;
}

const expr_node *expr_nested_path(const expr *e, const char *name, size_t len)
{
    return e ? nested_under(e->root, name, len) : NULL;
}
