/*
 * view_builder_prompt — the builder's prompts: each edits one clause or
 * update row of the tree in place, a question at a time on the prompt
 * line (path, with Tab offering the paths the builder knows; operator;
 * the operands' types and values, nested functions in turn; an update
 * row's action and SET's form). It sees only the node or row and the
 * paths to offer (ui/builder_int.h).
 *
 * Every prompt fits 80 columns: a short label, the choices of a closed
 * set (operator, type, action, form) in a pick list above the prompt line
 * with what each one does. An answer that is refused is asked again with
 * what was typed and the reason above it; Esc leaves (false), changing
 * nothing that was not already answered.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/builder.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"

/* An answer clears the message shown above its prompt (why the last one
 * was refused): the check that follows sets a new one when needed. */
static bool answered(bool ok)
{
    if (ok)
        display_message("%s", "");
    return ok;
}

static bool ask(const char *label, const char *init, buf *out)
{
    return answered(display_prompt(label, init, out));
}

/* A pick list of a closed set of words (each "WORD\tdescription"). The
 * start of one of them (`attribute_e`) is that one, the start of several
 * is asked again naming them (the list narrowed to them); a word the
 * caller knows (known: a type not allowed here, an action in lower case)
 * is answered as typed, for the caller to take or refuse, and so is
 * anything else. */
static bool choose(const char *label, const char *init, const char *const *choices, size_t n,
                   bool (*known)(const char *), buf *out)
{
    buf cur = BUF_INIT;
    buf_adds(&cur, init);
    bool ok;
    while ((ok = display_prompt_choose(label, cur.data, (char *const *)choices, n, out))) {
        const char *t = out->data ? out->data : "";
        buf names = BUF_INIT;
        size_t k = 0, one = 0;
        bool exact = false;
        for (size_t i = 0; i < n; i++) {
            size_t wl = strcspn(choices[i], "\t");
            exact |= wl == out->len && strncmp(choices[i], t, wl) == 0;
            if (out->len && wl > out->len && strncmp(choices[i], t, out->len) == 0) {
                buf_printf(&names, "%s%.*s", k++ ? ", " : "", (int)wl, choices[i]);
                one = i;
            }
        }
        if (!exact && k == 1 && !(known && known(t))) {
            buf_reset(out);
            buf_add(out, choices[one], strcspn(choices[one], "\t"));
        }
        if (exact || k < 2 || (known && known(t))) {
            buf_done(&names);
            break;
        }
        display_error("%s is the start of %s: type more, or Tab through them", t, names.data);
        buf_done(&names);
        buf_reset(&cur);
        buf_add(&cur, out->data, out->len);
    }
    buf_done(&cur);
    return answered(ok);
}

/* After a refused answer: the next prompt starts from what was typed. */
static void retry_with(buf *cur, const buf *in)
{
    buf_reset(cur);
    buf_add(cur, in->data ? in->data : "", in->len);
}

bool bprompt_path(bpath *path, const char *label, const bpicks *picks)
{
    buf cur = BUF_INIT, in = BUF_INIT;
    builder_path_text(path, &cur);
    bool ok = false;
    while (answered(display_prompt_pick(label, cur.data ? cur.data : "", picks ? picks->v : NULL,
                                        picks ? picks->n : 0, &in))) {
        bpath np;
        diag d;
        diag_init(&d);
        if (builder_path_parse(in.data ? in.data : "", in.len, &np, &d) == ST_OK) {
            builder_path_free(path);
            *path = np;
            ok = true;
            break;
        }
        display_diag("Path", d.code, &d);
        retry_with(&cur, &in);
    }
    buf_done(&cur);
    buf_done(&in);
    return ok;
}

/* The value at path p in the builder's item (NULL: none, or no item). */
static const av *item_at(const bpicks *picks, const bpath *p)
{
    const av *v = picks ? picks->item : NULL;
    if (!v || v->type != AV_M || !p->n)
        return NULL;
    for (size_t i = 0; v && i < p->n; i++) {
        const bstep *s = &p->v[i];
        if (s->is_index)
            v = v->type == AV_L && s->index < v->u.l.len ? &v->u.l.v[s->index] : NULL;
        else
            v = v->type == AV_M ? av_map_get(v, s->name, strlen(s->name)) : NULL;
    }
    return v;
}

/* What an operand may be where it is edited: a condition's operand
 * (a value, a path, size(path)), attribute_type's type name (a value), an
 * UpdateExpression SET operand (a value, a path, if_not_exists,
 * list_append), one inside list_append or the default of if_not_exists
 * (the same less list_append, which DynamoDB refuses there), ADD's value
 * (a number or a set), DELETE's (a set). */
typedef enum { OM_VALUE, OM_COND, OM_UPDATE, OM_INNER, OM_ADD, OM_DELETE } omode;

/* The types an operand may be, for the pick list. */
static const char *const type_choices[] = {
    "S\tstring",
    "N\tnumber",
    "B\tbinary, typed as base64",
    "BOOL\ttrue or false",
    "NULL\tthe null value",
    "L\tlist, as JSON: [\"a\", 1]",
    "M\tmap, as JSON: {\"k\": \"v\"}",
    "SS\tstring set: a, b",
    "NS\tnumber set: 1, 2",
    "BS\tbinary set, base64",
    "path\tanother attribute of the item",
    "size\tsize(path), a number",
    "if_not_exists\tif_not_exists(path, default)",
    "list_append\tlist_append(list 1, list 2)",
};
#define N_TYPE_CHOICES (sizeof type_choices / sizeof *type_choices)

static bool omode_word(omode m, const char *w)
{
    if (strcmp(w, "path") == 0)
        return m == OM_COND || m == OM_UPDATE || m == OM_INNER;
    if (strcmp(w, "size") == 0)
        return m == OM_COND;
    if (strcmp(w, "if_not_exists") == 0)
        return m == OM_UPDATE || m == OM_INNER;
    if (strcmp(w, "list_append") == 0)
        return m == OM_UPDATE;
    return false;
}

static bool omode_allows(omode m, av_type t);

/* A type name or operand word of any mode (S where only sets go is
 * refused as S, not taken for SS). */
static bool type_word(const char *w)
{
    return av_type_from_name(w, strlen(w)) != AV_NONE || strcmp(w, "path") == 0 ||
           strcmp(w, "size") == 0 || strcmp(w, "if_not_exists") == 0 || strcmp(w, "list_append") == 0;
}

/* The pick list of what the mode allows, into out; returns how many. */
static size_t omode_choices(omode m, const char **out)
{
    size_t n = 0;
    for (size_t i = 0; i < N_TYPE_CHOICES; i++) {
        const char *c = type_choices[i];
        size_t wl = strcspn(c, "\t");
        av_type t = av_type_from_name(c, wl);
        char w[16];
        snprintf(w, sizeof w, "%.*s", (int)wl, c);
        if (t != AV_NONE ? omode_allows(m, t) : omode_word(m, w))
            out[n++] = c;
    }
    return n;
}

/* "S N B ..." of what the mode allows, for an error message. */
static void omode_types(omode m, buf *out)
{
    const char *c[N_TYPE_CHOICES];
    size_t n = omode_choices(m, c);
    for (size_t i = 0; i < n; i++)
        buf_printf(out, "%s%.*s", i ? " " : "", (int)strcspn(c[i], "\t"), c[i]);
}

static bool omode_allows(omode m, av_type t)
{
    if (m == OM_ADD)
        return t == AV_N || av_is_set(t);
    if (m == OM_DELETE)
        return av_is_set(t);
    return true;
}

/* Functions nest in the form this deep at most (text can go deeper). */
#define FORM_DEPTH 6

static bool edit_opnd(bopnd *o, const char *what, omode mode, int depth, const bpicks *picks,
                      av_type hint);

/* An if_not_exists's default, edited as an operand of its own: a value
 * stays in o->value, a path or function goes to o->sub[0]. */
static bool edit_default(bopnd *o, const char *what, int depth, const bpicks *picks)
{
    bopnd def = { 0 };
    if (o->n_sub) {
        def = o->sub[0];
        free(o->sub);
        o->sub = NULL;
        o->n_sub = 0;
    } else {
        def.kind = BO_VALUE;
        def.value = o->value;
        o->value.type = AV_NONE;
    }
    buf label = BUF_INIT;
    buf_printf(&label, "%s: default", what);
    const av *at = item_at(picks, &o->path);
    bool ok = edit_opnd(&def, label.data, OM_INNER, depth + 1, picks, at ? at->type : AV_NONE);
    buf_done(&label);
    if (def.kind == BO_VALUE) {
        o->value = def.value;
        def.value.type = AV_NONE;
        builder_opnd_free(&def);
    } else {
        o->sub = xcalloc(1, sizeof *o->sub);
        o->sub[0] = def;
        o->n_sub = 1;
    }
    return ok;
}

/* Asks the type (a value type, or path / size / if_not_exists /
 * list_append where the mode allows) and then the value, the path or the
 * function's operands, each in turn. */
static bool edit_opnd(bopnd *o, const char *what, omode mode, int depth, const bpicks *picks,
                      av_type hint)
{
    buf in = BUF_INIT, label = BUF_INIT, cur = BUF_INIT;
    bool ok = false;
    /* An operand not set yet defaults to the type the item holds there. */
    if (hint == AV_NONE || !omode_allows(mode, hint))
        hint = mode == OM_ADD ? AV_N : mode == OM_DELETE ? AV_SS : AV_S;
    const char *tn = o->kind == BO_PATH ? "path" : o->kind == BO_SIZE ? "size"
                   : o->kind == BO_IF_NOT_EXISTS ? "if_not_exists"
                   : o->kind == BO_LIST_APPEND ? "list_append"
                   : o->value.type && omode_allows(mode, o->value.type) ? av_type_name(o->value.type)
                   : av_type_name(hint);
    const char *tc[N_TYPE_CHOICES];
    size_t ntc = omode_choices(mode, tc);
    buf_printf(&label, "%s type: ", what);
    buf_adds(&cur, tn);
    av_type t = AV_NONE;
    const char *w = "";
    for (;;) {
        if (!choose(label.data, cur.data, tc, ntc, type_word, &in))
            goto out;
        w = in.data ? in.data : "";
        t = av_type_from_name(w, in.len);
        if ((t != AV_NONE && omode_allows(mode, t)) || omode_word(mode, w))
            break;
        buf types = BUF_INIT;
        omode_types(mode, &types);
        if (mode == OM_INNER && strcmp(w, "list_append") == 0)
            display_error("%s type list_append: not inside a list_append or as an if_not_exists default"
                          " (DynamoDB refuses it; Tab lists: %s)", what, types.data);
        else
            display_error("%s type %s: %s here (Tab lists: %s)", what, w,
                          t == AV_NONE ? "unknown" : "not allowed", types.data);
        buf_done(&types);
        retry_with(&cur, &in);
    }
    buf_reset(&cur);
    bool path = (mode == OM_COND || mode == OM_UPDATE || mode == OM_INNER) && strcmp(w, "path") == 0;
    bool size = mode == OM_COND && strcmp(w, "size") == 0;
    bool ine = (mode == OM_UPDATE || mode == OM_INNER) && strcmp(w, "if_not_exists") == 0;
    bool lap = mode == OM_UPDATE && strcmp(w, "list_append") == 0;
    if ((ine || lap) && depth >= FORM_DEPTH) {
        display_error("Nested too deep for the form: type the expression with :upd");
        goto out;
    }
    if (path || size || ine) {
        bopnd_kind k = path ? BO_PATH : size ? BO_SIZE : BO_IF_NOT_EXISTS;
        if (o->kind != k)
            builder_opnd_set_kind(o, k);
        buf_reset(&label);
        buf_printf(&label, ine ? "%s: if_not_exists path: " : "%s path: ", what);
        if (!bprompt_path(&o->path, label.data, picks))
            goto out;
        if (!ine) {
            ok = true;
            goto out;
        }
        ok = edit_default(o, what, depth, picks);
        goto out;
    }
    if (lap) {
        if (o->kind != BO_LIST_APPEND)
            builder_opnd_set_kind(o, BO_LIST_APPEND);
        ok = true;
        for (int i = 0; i < 2 && ok; i++) {
            buf_reset(&label);
            buf_printf(&label, "%s: list %d", what, i + 1);
            ok = edit_opnd(&o->sub[i], label.data, OM_INNER, depth + 1, picks, AV_L);
        }
        goto out;
    }
    if (o->kind == BO_VALUE && o->value.type == t)
        builder_value_text(&o->value, &cur);
    buf_reset(&label);
    buf_printf(&label, "%s (%s): ", what, av_type_name(t));
    av nv;
    for (;;) {
        buf_reset(&in);
        if (!ask(label.data, cur.data ? cur.data : "", &in))
            goto out;
        diag d;
        diag_init(&d);
        if (builder_value_parse(t, in.data ? in.data : "", in.len, &nv, &d) == ST_OK)
            break;
        display_diag(what, d.code, &d);
        retry_with(&cur, &in);
    }
    builder_opnd_set_kind(o, BO_VALUE);
    builder_path_free(&o->path);
    o->value = nv;
    ok = true;
out:
    buf_done(&in);
    buf_done(&label);
    buf_done(&cur);
    return ok;
}

/* The operands of an update row, by its action and form. */
bool bprompt_row_values(baction *a, const bpicks *picks)
{
    if (a->kind == BU_REMOVE)
        return true;
    const av *at = item_at(picks, &a->path);
    av_type hint = at ? at->type : AV_NONE;
    if (a->kind != BU_SET)
        return edit_opnd(&a->a, "Value", a->kind == BU_ADD ? OM_ADD : OM_DELETE, 0, picks, hint);
    if (a->form == BF_PLAIN)
        return edit_opnd(&a->a, "Value", OM_UPDATE, 0, picks, hint);
    bool plusminus = a->form == BF_PLUS || a->form == BF_MINUS;
    omode m = plusminus ? OM_UPDATE : OM_INNER;   /* BF_LIST_APPEND: its two lists */
    return edit_opnd(&a->a, "Operand a", m, 0, picks, hint) &&
           edit_opnd(&a->b, "Operand b", m, 0, picks, plusminus ? AV_N : hint);
}

/* The type an operand of n is expected to have, from the item's value at
 * n's path (an element's type for contains on a set). */
static av_type operand_hint(const bnode *n, const bpicks *picks)
{
    if (n->left.kind == BO_SIZE)
        return AV_N;
    const av *at = item_at(picks, &n->left.path);
    if (!at)
        return AV_NONE;
    if (n->op == BOP_CONTAINS)
        return at->type == AV_SS ? AV_S : at->type == AV_NS ? AV_N : at->type == AV_BS ? AV_B
             : at->type == AV_L ? AV_NONE : at->type;
    return at->type;
}

bool bprompt_values(bnode *n, const bpicks *picks)
{
    if (n->op == BOP_IN) {
        /* IN: how many values, then each. */
        buf in = BUF_INIT, cur = BUF_INIT;
        buf_printf(&cur, "%zu", n->n_args);
        long k = 0;
        for (;;) {
            if (!ask("IN: how many values (1-100): ", cur.data, &in)) {
                buf_done(&in);
                buf_done(&cur);
                return false;
            }
            char *end;
            k = strtol(in.data ? in.data : "", &end, 10);
            if (in.len && !*end && k >= 1 && k <= 100)
                break;
            display_error("IN takes 1 to 100 values, not \"%s\"", in.data ? in.data : "");
            retry_with(&cur, &in);
        }
        for (size_t i = (size_t)k; i < n->n_args; i++)
            builder_opnd_free(&n->args[i]);
        if ((size_t)k > n->n_args) {
            n->args = xrealloc(n->args, (size_t)k * sizeof *n->args);
            memset(n->args + n->n_args, 0, ((size_t)k - n->n_args) * sizeof *n->args);
            for (size_t i = n->n_args; i < (size_t)k; i++)
                n->args[i].kind = BO_VALUE;
        }
        n->n_args = (size_t)k;
        buf_done(&in);
        buf_done(&cur);
    }
    for (size_t i = 0; i < n->n_args; i++) {
        char what[32];
        snprintf(what, sizeof what, "Value %zu", i + 1);
        if (!edit_opnd(&n->args[i], what, n->op != BOP_TYPE ? OM_COND : OM_VALUE, 0, picks,
                       n->op != BOP_TYPE ? operand_hint(n, picks) : AV_S))
            return false;
    }
    return true;
}

/* The operators and functions, and size(path)'s comparisons. */
static const char *const op_choices[] = {
    "=\tequal",
    "<>\tnot equal",
    "<\tless than",
    "<=\tless than or equal",
    ">\tgreater than",
    ">=\tgreater than or equal",
    "BETWEEN\tfrom a to b, both included",
    "IN\tequal to one of a list",
    "attribute_exists\tthe path is there",
    "attribute_not_exists\tthe path is missing",
    "attribute_type\tthe value there has type T",
    "begins_with\ta string or binary starts with",
    "contains\tin a string, set or list",
    "size =\tsize(path) compares: string/binary",
    "size <>\tlength, set/list/map count",
    "size <", "size <=", "size >", "size >=", "size BETWEEN", "size IN",
};

/* An operator typed or picked: "OP" or "size OP"; false when unknown. */
static bool op_of(const char *s, bop *op, bool *size)
{
    *size = strncmp(s, "size ", 5) == 0;
    if (*size)
        s += 5 + strspn(s + 5, " ");
    *op = builder_op_parse(s, strlen(s));
    return *op != BOP__COUNT && !(*size && *op >= BOP_EXISTS);
}

bool bprompt_op(bnode *n)
{
    buf in = BUF_INIT, cur = BUF_INIT;
    bool ok = false;
    if (n->left.kind == BO_SIZE)
        buf_adds(&cur, "size ");
    buf_adds(&cur, builder_op_name(n->op));
    while (choose("Operator: ", cur.data, op_choices, sizeof op_choices / sizeof *op_choices, NULL, &in)) {
        bop op;
        bool size;
        if (op_of(in.data ? in.data : "", &op, &size)) {
            builder_set_op(n, op);
            if (n->left.kind != BO_VALUE)
                n->left.kind = size ? BO_SIZE : BO_PATH;
            ok = true;
            break;
        }
        display_error("Unknown operator %s (Tab lists them)", in.data ? in.data : "");
        retry_with(&cur, &in);
    }
    buf_done(&in);
    buf_done(&cur);
    return ok;
}

/* Path, operator, then the operands. */
bool bprompt_clause(bnode *n, const bpicks *picks)
{
    if (!bprompt_path(&n->left.path, "Path: ", picks))
        return false;
    if (n->left.kind == BO_VALUE)
        n->left.kind = BO_PATH;
    return bprompt_op(n) && bprompt_values(n, picks);
}

/* An update row's action by name, any case; -1 when it is none. */
static int row_kind_of(const char *word)
{
    static const char *const k[] = { "SET", "REMOVE", "ADD", "DELETE" };
    for (int i = 0; i < 4; i++)
        if (word && strcasecmp(word, k[i]) == 0)
            return i;
    return -1;
}

/* An action in any case (set is SET). */
static bool kind_word(const char *w)
{
    return row_kind_of(w) >= 0;
}

static const char *const kind_choices[] = {
    "SET\tset a value: path = value (or a + b, ...)",
    "REMOVE\tremove the attribute",
    "ADD\tadd to a number, or elements to a set",
    "DELETE\tdelete elements from a set",
};

/* Asks an update row's action; false when the prompt was left. */
static bool ask_kind(const char *init, bu_kind *kind)
{
    buf in = BUF_INIT, cur = BUF_INIT;
    buf_adds(&cur, init);
    bool ok = false;
    while (choose("Action: ", cur.data, kind_choices, 4, kind_word, &in)) {
        int k = row_kind_of(in.data);
        if (k >= 0) {
            *kind = (bu_kind)k;
            ok = true;
            break;
        }
        display_error("Unknown action %s (SET REMOVE ADD DELETE)", in.data ? in.data : "");
        retry_with(&cur, &in);
    }
    buf_done(&in);
    buf_done(&cur);
    return ok;
}

bool bprompt_row_kind(bu_kind *kind)
{
    *kind = BU_SET;
    return ask_kind("SET", kind);
}

static const char *const form_choices[] = {
    "value\tpath = a",
    "plus\tpath = a + b",
    "minus\tpath = a - b",
    "list_append\tpath = list_append(a, b)",
};

/* SET's form; false when the prompt was left. */
static bool ask_form(baction *a)
{
    buf in = BUF_INIT, cur = BUF_INIT;
    buf_adds(&cur, (const char *)form_choices[a->form]);
    cur.len = strcspn(cur.data, "\t");
    cur.data[cur.len] = '\0';
    bool ok = false;
    while (choose("SET form: ", cur.data, form_choices, 4, NULL, &in)) {
        for (int i = 0; i < 4 && !ok; i++)
            if (in.data && strlen(in.data) == strcspn(form_choices[i], "\t") &&
                strncmp(in.data, form_choices[i], in.len) == 0) {
                a->form = (bu_form)i;
                ok = true;
            }
        if (ok)
            break;
        display_error("Unknown form %s (value plus minus list_append)", in.data ? in.data : "");
        retry_with(&cur, &in);
    }
    buf_done(&in);
    buf_done(&cur);
    return ok;
}

/* Action (unless the row was just added with one), path, SET's form,
 * then the operands. */
bool bprompt_row(baction *a, bool ask_action, const bpicks *picks)
{
    if (ask_action && !ask_kind(builder_update_kind_name(a->kind), &a->kind))
        return false;
    if (!bprompt_path(&a->path, "Path: ", picks))
        return false;
    if (a->kind == BU_REMOVE)
        return true;
    if (a->kind == BU_SET && !ask_form(a))
        return false;
    return bprompt_row_values(a, picks);
}
