/*
 * view_query_key — the query bar's key fields (see view_query_int.h): the
 * partition value and the sort-key condition read from their text into
 * values, for a key of one attribute each or a multi-attribute GSI key
 * (each HASH attribute's value, equal values on the RANGE attributes in
 * turn, the last part any condition, '|' between parts; a range before
 * the last part refused with DynamoDB's message), the key condition
 * built from them for the request and the plan lines, and `:query`'s
 * words split into the two fields (query_words).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/mem.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/view_query_int.h"

/* The key schema's HASH and RANGE attributes in KeySchema order: one
 * each for a table or an index of one-attribute keys, up to four each
 * for a multi-attribute GSI key. */
size_t query_n_hash(query_view *p)
{
    const index_def *ix = query_cur_index(p);
    return ix ? index_def_n_hash(ix) : 1;
}

static const key_attr *query_hash_at(query_view *p, size_t i)
{
    const index_def *ix = query_cur_index(p);
    return ix ? index_def_hash(ix, i) : &p->def.pk;
}

size_t query_n_range(query_view *p)
{
    const index_def *ix = query_cur_index(p);
    return ix ? index_def_n_range(ix) : p->def.sk.name ? 1 : 0;
}

static const key_attr *query_range_at(query_view *p, size_t i)
{
    const index_def *ix = query_cur_index(p);
    return ix ? index_def_range(ix, i) : &p->def.sk;
}

/* "tournamentId | region": the attributes a multi-part field takes. */
void query_parts_names(query_view *p, bool hash, buf *out)
{
    size_t n = hash ? query_n_hash(p) : query_n_range(p);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%s", i ? " | " : "", (hash ? query_hash_at(p, i) : query_range_at(p, i))->name);
}

/* Why field f's text does not read ("sort key: ..."). */
void query_set_bad(query_view *p, int f, const char *fmt, ...)
{
    free(p->bad[f]);
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    p->bad[f] = buf_steal(&b);
}

void query_clear_sk(query_view *p)
{
    p->sk_op = KEY_SK_NONE;
    av_done(&p->sk1);
    av_done(&p->sk2);
    for (size_t i = 0; i < p->n_sk_eq; i++)
        av_done(&p->sk_eq[i]);
    p->n_sk_eq = 0;
}

void query_clear_pk(query_view *p)
{
    av_done(&p->pk);
    for (size_t i = 0; i < p->n_pk_more; i++)
        av_done(&p->pk_more[i]);
    p->n_pk_more = 0;
}

/* A value of key attribute k from text, or the field's error (what:
 * "partition value", "sort key"; a part of a multi-attribute key is
 * named by its attribute). */
static bool read_attr(query_view *p, int f, const key_attr *k, bool named, const char *text, av *out)
{
    diag d;
    diag_init(&d);
    if (edit_parse_key_attr(k, text, out, &d) == ST_OK)
        return true;
    if (named)
        query_set_bad(p, f, "%s: %s: %s", f == F_PK ? "partition value" : "sort key", k->name ? k->name : "?", d.msg);
    else
        query_set_bad(p, f, "%s: %s", f == F_PK ? "partition value" : "sort key", d.msg);
    return false;
}

/* A key value of this bar's table or index (the partition key when
 * partition, else the sort key) from text, or the field's error. */
static bool read_key(query_view *p, int f, bool partition, const char *text, av *out)
{
    diag d;
    diag_init(&d);
    if (edit_parse_key(&p->def, query_cur_index(p), partition, text, out, &d) == ST_OK)
        return true;
    query_set_bad(p, f, "%s: %s", partition ? "partition value" : "sort key", d.msg);
    return false;
}

/* Splits a multi-attribute field's text at each '|', each part trimmed
 * (copies into parts, the caller's to free). Returns the parts (at most
 * max; one more means there were more). */
static size_t split_parts(const char *text, char **parts, size_t max)
{
    size_t n = 0;
    const char *at = text;
    for (;;) {
        const char *bar = strchr(at, '|');
        size_t len = bar ? (size_t)(bar - at) : strlen(at);
        while (len && at[0] == ' ')
            at++, len--;
        while (len && at[len - 1] == ' ')
            len--;
        if (n == max)
            return n + 1;
        parts[n] = xmalloc(len + 1);
        memcpy(parts[n], at, len);
        parts[n++][len] = '\0';
        if (!bar)
            return n;
        at = bar + 1;
    }
}

static void free_parts(char **parts, size_t n, size_t max)
{
    for (size_t i = 0; i < n && i < max; i++)
        free(parts[i]);
}

/* The operator a sort-key condition's text starts with (its word, the
 * op, and where its operand starts), or NULL: none, the text is a value. */
static const char *sk_op_of(const char *c, expr_key_op *op, const char **arg)
{
    static const struct { const char *word; expr_key_op op; } ops[] = {
        { "between", KEY_SK_BETWEEN }, { "begins_with", KEY_SK_BEGINS }, { "<=", KEY_SK_LE },
        { ">=", KEY_SK_GE }, { "=", KEY_SK_EQ }, { "<", KEY_SK_LT }, { ">", KEY_SK_GT },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t n = strlen(ops[i].word);
        bool is_word = ops[i].word[0] >= 'a';   /* a word ends at a space */
        if (strncasecmp(c, ops[i].word, n) == 0 && (!is_word || c[n] == ' ' || c[n] == '\0')) {
            *op = ops[i].op;
            *arg = c + n;
            return ops[i].word;
        }
    }
    *op = KEY_SK_EQ;
    *arg = c;
    return NULL;
}

bool query_sk_is_op(const char *text)
{
    expr_key_op op;
    const char *arg;
    return sk_op_of(text, &op, &arg) != NULL;
}

/* An equal value before the last part of a multi-attribute sort key
 * (`V` or `= V`); a range there is refused as DynamoDB refuses it, saying
 * which part may carry one. */
static bool read_sk_eq(query_view *p, size_t i, size_t n, const char *v)
{
    expr_key_op op;
    const char *arg;
    const char *word = sk_op_of(v, &op, &arg);
    const char *name = query_range_at(p, i)->name, *next = query_range_at(p, i + 1)->name;
    if (word && op != KEY_SK_EQ) {
        query_set_bad(p, F_SK, "sort key: %s: \"%s\" is a range, and only the last part given may carry"
                " one (%s here): give %s an equal value, or end the condition at it (DynamoDB: RANGE key"
                " attributes %s must have equality conditions specified in the query because a"
                " condition is present on key attribute %s)", name, v, query_range_at(p, n - 1)->name,
                name, name, next);
        return false;
    }
    while (*arg == ' ')
        arg++;
    if (!*arg) {
        query_set_bad(p, F_SK, "sort key: %s: an equal value before the next part (V | ...)", name);
        return false;
    }
    return read_attr(p, F_SK, query_range_at(p, i), true, arg, &p->sk_eq[p->n_sk_eq]);
}

/* The sort-key condition as typed: `V`, `= V`, `< V`, `<= V`, `> V`,
 * `>= V`, `between A and B`, `begins_with V`. An operator without its
 * value is refused (`begins_with` alone is not SK = "begins_with"). */
static void read_sk_on(query_view *p, const char *c, const key_attr *k, bool named);

void query_read_sk(query_view *p, const char *c)
{
    query_clear_sk(p);
    size_t nr = query_n_range(p);
    if (nr <= 1) {
        read_sk_on(p, c, NULL, false);
        return;
    }
    /* A multi-attribute sort key: "V1 | V2 | COND", equality on each
     * RANGE attribute in turn, the last part any condition. */
    char *parts[SCHEMA_MAX_KEY_PARTS];
    size_t n = split_parts(c, parts, SCHEMA_MAX_KEY_PARTS);
    buf names = BUF_INIT;
    query_parts_names(p, false, &names);
    if (n == 1 && !parts[0][0]) {
        /* empty: no condition */
    } else if (n > nr) {
        query_set_bad(p, F_SK, "sort key: the sort key is %s: at most %zu parts separated by |", names.data, nr);
    } else {
        bool ok = true;
        for (size_t i = 0; i + 1 < n && ok; i++) {
            ok = read_sk_eq(p, i, n, parts[i]);
            if (ok)
                p->n_sk_eq++;
        }
        if (ok)
            read_sk_on(p, parts[n - 1], query_range_at(p, n - 1), true);
        if (p->bad[F_SK])
            query_clear_sk(p);
    }
    buf_done(&names);
    free_parts(parts, n, SCHEMA_MAX_KEY_PARTS);
}

/* The condition on sort key attribute k (NULL: the bar's one sort key). */
static void read_sk_on(query_view *p, const char *c, const key_attr *k, bool named)
{
    while (*c == ' ')
        c++;
    if (!*c)
        return;
    expr_key_op op;
    const char *arg;
    const char *word = sk_op_of(c, &op, &arg);
    while (*arg == ' ')
        arg++;
    char *first = xstrdup(arg), *second = NULL;
    if (op == KEY_SK_BETWEEN) {
        char *and = strstr(first, " and ");
        if (!and)
            and = strstr(first, " AND ");
        if (and) {
            *and = '\0';
            second = and + 5;
            while (*second == ' ')
                second++;
        }
        if (!and || !*first || !*second)
            query_set_bad(p, F_SK, "sort key: between needs: between A and B");
    } else if (word && !*first) {
        query_set_bad(p, F_SK, "sort key: %s needs a value: %s V", word, word);
    }
    bool ok = !p->bad[F_SK];
    if (ok && k)
        ok = read_attr(p, F_SK, k, named, first, &p->sk1) &&
             (!second || read_attr(p, F_SK, k, named, second, &p->sk2));
    else if (ok)
        ok = read_key(p, F_SK, false, first, &p->sk1) && (!second || read_key(p, F_SK, false, second, &p->sk2));
    if (ok)
        p->sk_op = op;
    else
        query_clear_sk(p);
    free(first);
}

/* The partition value as typed: one value, or for a multi-attribute key
 * "V1 | V2 ...", one for each HASH attribute in turn. */
void query_read_pk(query_view *p)
{
    query_clear_pk(p);
    const char *text = p->f[F_PK];
    if (!text[0])
        return;
    size_t nh = query_n_hash(p);
    if (nh == 1) {
        read_key(p, F_PK, true, text, &p->pk);
        return;
    }
    char *parts[SCHEMA_MAX_KEY_PARTS];
    size_t n = split_parts(text, parts, SCHEMA_MAX_KEY_PARTS);
    if (n != nh) {
        buf names = BUF_INIT;
        query_parts_names(p, true, &names);
        query_set_bad(p, F_PK, "partition value: the partition key is %s: give %zu values separated by |",
                names.data, nh);
        buf_done(&names);
    } else {
        bool ok = read_attr(p, F_PK, query_hash_at(p, 0), true, parts[0], &p->pk);
        for (size_t i = 1; i < n && ok; i++) {
            ok = read_attr(p, F_PK, query_hash_at(p, i), true, parts[i], &p->pk_more[i - 1]);
            if (ok)
                p->n_pk_more = i;
        }
        if (!ok)
            query_clear_pk(p);
    }
    free_parts(parts, n, SCHEMA_MAX_KEY_PARTS);
}

static size_t bars_in(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '|';
    return n;
}

/* Whether s's last (first) character other than a space is a '|'. */
static bool bar_at_end(const char *s, bool end)
{
    size_t len = strlen(s);
    while (len && s[end ? len - 1 : 0] == ' ') {
        len--;
        s += !end;
    }
    return len && s[end ? len - 1 : 0] == '|';
}

void query_words(char *const *w, int n, size_t n_hash, buf *pk, buf *sk)
{
    int i = 0;
    if (n > 0)
        buf_adds(pk, w[i++]);
    /* '|' binds tighter than the spaces: a word after a trailing bar, or
     * one that starts with a bar, goes on with the partition value while
     * it has fewer parts than the key has HASH attributes. */
    while (i < n && n_hash > 1 && pk->len &&
           ((bar_at_end(pk->data, true) && bars_in(pk->data) < n_hash) ||
            (bar_at_end(w[i], false) && bars_in(pk->data) + 1 < n_hash))) {
        buf_addc(pk, ' ');
        buf_adds(pk, w[i++]);
    }
    for (int k = i; k < n; k++) {
        if (k > i)
            buf_addc(sk, ' ');
        buf_adds(sk, w[k]);
    }
}

/* Whether the placeholder appears as a whole token in query_text (:pk in
 * ":pk_x" is not :pk). */
static bool uses_token(const char *text, const char *tok)
{
    size_t len = strlen(tok);
    for (const char *at = strstr(text, tok); at; at = strstr(at + 1, tok)) {
        char c = at[len];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            return true;
    }
    return false;
}

/* A placeholder of our own for the key condition: base, else base_1,
 * base_2, ... the first that the user's filter, names and values do not
 * use (a filter built on attributes named pk or sk1 brings its own :pk
 * and :sk1), so the two never collide in one map. */
static void own_placeholder(const query_view *p, const av *names, const av *values,
                            const char *base, char *out, size_t n)
{
    for (unsigned k = 0;; k++) {
        if (k)
            snprintf(out, n, "%s_%u", base, k);
        else
            snprintf(out, n, "%s", base);
        size_t len = strlen(out);
        if (!uses_token(p->f[F_FILTER], out) && !(names->type && av_map_get(names, out, len)) &&
            !(values->type && av_map_get(values, out, len)))
            return;
    }
}

/* Adds name -> value (copied) to a map that may be absent (AV_NONE). */
static void map_add(av *m, const char *name, const av *val)
{
    if (m->type != AV_M)
        av_init_list(m, AV_M);
    av c;
    av_copy(&c, val);
    av_map_put(m, name, strlen(name), &c);
}

static void map_add_name(av *m, const char *name, const char *attr)
{
    av s;
    av_init_s(&s, attr, strlen(attr));
    map_add(m, name, &s);
    av_done(&s);
}

/* The key condition of a Query: the partition value (a value for each
 * HASH attribute of a multi-attribute key), and the sort-key condition
 * when there is one (after the equalities on the RANGE attributes before
 * it), with their names and values added to the request's maps. */
bool query_key_cond(query_view *p, ddb_req *req, buf *why)
{
    static const char *const cmp[] = {
        [KEY_SK_EQ] = "=", [KEY_SK_LT] = "<", [KEY_SK_LE] = "<=", [KEY_SK_GT] = ">", [KEY_SK_GE] = ">=",
    };
    if ((p->sk_op != KEY_SK_NONE || p->n_sk_eq) && !query_n_range(p)) {
        buf_printf(why, "this key schema has no sort key");
        return false;
    }
    buf keycond = BUF_INIT;
    char h[48], val[48], base[24];
    for (size_t i = 0; i < 1 + p->n_pk_more; i++) {
        snprintf(base, sizeof base, i ? "#pk%zu" : "#pk", i + 1);
        own_placeholder(p, &req->names, &req->values, base, h, sizeof h);
        snprintf(base, sizeof base, i ? ":pk%zu" : ":pk", i + 1);
        own_placeholder(p, &req->names, &req->values, base, val, sizeof val);
        buf_printf(&keycond, "%s%s = %s", i ? " AND " : "", h, val);
        map_add_name(&req->names, h, query_hash_at(p, i)->name);
        map_add(&req->values, val, i ? &p->pk_more[i - 1] : &p->pk);
    }
    for (size_t i = 0; i < p->n_sk_eq; i++) {
        snprintf(base, sizeof base, i ? "#sk%zu" : "#sk", i + 1);
        own_placeholder(p, &req->names, &req->values, base, h, sizeof h);
        snprintf(base, sizeof base, ":sk%u_eq", (unsigned)(i + 1));
        own_placeholder(p, &req->names, &req->values, base, val, sizeof val);
        buf_printf(&keycond, " AND %s = %s", h, val);
        map_add_name(&req->names, h, query_range_at(p, i)->name);
        map_add(&req->values, val, &p->sk_eq[i]);
    }
    if (p->sk_op != KEY_SK_NONE) {
        char v1[32], v2[32];
        size_t at = p->n_sk_eq;
        snprintf(base, sizeof base, at ? "#sk%zu" : "#sk", at + 1);
        own_placeholder(p, &req->names, &req->values, base, h, sizeof h);
        own_placeholder(p, &req->names, &req->values, ":sk1", v1, sizeof v1);
        own_placeholder(p, &req->names, &req->values, ":sk2", v2, sizeof v2);
        if (p->sk_op == KEY_SK_BETWEEN)
            buf_printf(&keycond, " AND %s BETWEEN %s AND %s", h, v1, v2);
        else if (p->sk_op == KEY_SK_BEGINS)
            buf_printf(&keycond, " AND begins_with(%s, %s)", h, v1);
        else
            buf_printf(&keycond, " AND %s %s %s", h, cmp[p->sk_op], v1);
        map_add_name(&req->names, h, query_range_at(p, at)->name);
        map_add(&req->values, v1, &p->sk1);
        if (p->sk_op == KEY_SK_BETWEEN)
            map_add(&req->values, v2, &p->sk2);
    }
    ddb_req_set_str(&req->keycond, keycond.data);
    buf_done(&keycond);
    return true;
}

/* The key condition as the plan lines say it: every part with its value. */
void query_key_text(query_view *p, buf *out)
{
    static const char *const cmp[] = {
        [KEY_SK_EQ] = "=", [KEY_SK_LT] = "<", [KEY_SK_LE] = "<=", [KEY_SK_GT] = ">", [KEY_SK_GE] = ">=",
    };
    const index_def *ix = query_cur_index(p);
    const char *pk = ix ? ix->pk.name : p->def.pk.name, *sk = ix ? ix->sk.name : p->def.sk.name;
    for (size_t i = 0; i < 1 + p->n_pk_more; i++) {
        buf_printf(out, "%s%s = ", i ? " AND " : "", i ? query_hash_at(p, i)->name : pk);
        fmt_literal(out, i ? &p->pk_more[i - 1] : &p->pk);
    }
    for (size_t i = 0; i < p->n_sk_eq; i++) {
        buf_printf(out, " AND %s = ", query_range_at(p, i)->name);
        fmt_literal(out, &p->sk_eq[i]);
    }
    if (p->n_sk_eq && p->sk_op != KEY_SK_NONE)
        sk = query_range_at(p, p->n_sk_eq)->name;
    if (p->sk_op != KEY_SK_NONE)
        buf_adds(out, " AND ");
    if (p->sk_op == KEY_SK_BEGINS) {
        buf_printf(out, "begins_with(%s, ", sk ? sk : "?");
        fmt_literal(out, &p->sk1);
        buf_addc(out, ')');
    } else if (p->sk_op != KEY_SK_NONE) {
        buf_printf(out, "%s %s ", sk ? sk : "?", p->sk_op == KEY_SK_BETWEEN ? "BETWEEN" : cmp[p->sk_op]);
        fmt_literal(out, &p->sk1);
    }
    if (p->sk_op == KEY_SK_BETWEEN) {
        buf_adds(out, " AND ");
        fmt_literal(out, &p->sk2);
    }
}
