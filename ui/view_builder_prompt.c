/*
 * view_builder_prompt — the builder's prompts: each edits one clause or
 * update row of the tree in place, a question at a time on the prompt
 * line (path, with Tab offering the paths the builder knows; operator;
 * the operands' types and values, nested functions in turn; an update
 * row's action and SET's form). It sees only the node or row and the
 * paths to offer (ui/builder_int.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/builder.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/display.h"

static bool ask(const char *label, const char *init, buf *out)
{
    return display_prompt(label, init, out);
}

bool bprompt_path(bpath *path, const char *label, const bpicks *picks)
{
    buf cur = BUF_INIT, in = BUF_INIT;
    builder_path_text(path, &cur);
    bool ok = false;
    if (display_prompt_pick(label, cur.data ? cur.data : "", picks ? picks->v : NULL,
                            picks ? picks->n : 0, &in)) {
        bpath np;
        diag d;
        diag_init(&d);
        if (builder_path_parse(in.data ? in.data : "", in.len, &np, &d) != ST_OK) {
            display_error("Path: %s (at %ld)", d.msg, d.pos);
        } else {
            builder_path_free(path);
            *path = np;
            ok = true;
        }
    }
    buf_done(&cur);
    buf_done(&in);
    return ok;
}

/* What an operand may be where it is edited: a condition's operand
 * (a value, a path, size(path)), attribute_type's type name (a value), an
 * UpdateExpression SET operand (a value, a path, if_not_exists,
 * list_append), ADD's value (a number or a set), DELETE's (a set). */
typedef enum { OM_VALUE, OM_COND, OM_UPDATE, OM_ADD, OM_DELETE } omode;

static const char *omode_types(omode m)
{
    switch (m) {
    case OM_COND: return "S N B BOOL NULL L M SS NS BS, path, size";
    case OM_UPDATE: return "S N B BOOL NULL L M SS NS BS, path, if_not_exists, list_append";
    case OM_ADD: return "N SS NS BS";
    case OM_DELETE: return "SS NS BS";
    case OM_VALUE: break;
    }
    return "S N B BOOL NULL L M SS NS BS";
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

/* Asks the type (a value type, or path / size / if_not_exists /
 * list_append where the mode allows) and then the value, the path or the
 * function's operands, each in turn. */
static bool edit_opnd(bopnd *o, const char *what, omode mode, int depth, const bpicks *picks)
{
    buf in = BUF_INIT, label = BUF_INIT, cur = BUF_INIT;
    bool ok = false;
    const char *tn = o->kind == BO_PATH ? "path" : o->kind == BO_SIZE ? "size"
                   : o->kind == BO_IF_NOT_EXISTS ? "if_not_exists"
                   : o->kind == BO_LIST_APPEND ? "list_append"
                   : o->value.type && omode_allows(mode, o->value.type) ? av_type_name(o->value.type)
                   : mode == OM_ADD ? "N" : mode == OM_DELETE ? "SS" : "S";
    buf_printf(&label, "%s type (%s): ", what, omode_types(mode));
    if (!ask(label.data, tn, &in))
        goto out;
    const char *w = in.data ? in.data : "";
    bool path = (mode == OM_COND || mode == OM_UPDATE) && strcmp(w, "path") == 0;
    bool size = mode == OM_COND && strcmp(w, "size") == 0;
    bool ine = mode == OM_UPDATE && strcmp(w, "if_not_exists") == 0;
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
        /* The default, edited as an operand of its own: a value stays in
         * o->value, a path or function goes to o->sub[0]. */
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
        buf_reset(&label);
        buf_printf(&label, "%s: if_not_exists default", what);
        ok = edit_opnd(&def, label.data, OM_UPDATE, depth + 1, picks);
        if (def.kind == BO_VALUE) {
            o->value = def.value;
            def.value.type = AV_NONE;
            builder_opnd_free(&def);
        } else {
            o->sub = xcalloc(1, sizeof *o->sub);
            o->sub[0] = def;
            o->n_sub = 1;
        }
        goto out;
    }
    if (lap) {
        if (o->kind != BO_LIST_APPEND)
            builder_opnd_set_kind(o, BO_LIST_APPEND);
        ok = true;
        for (int i = 0; i < 2 && ok; i++) {
            buf_reset(&label);
            buf_printf(&label, "%s: list_append list %d", what, i + 1);
            ok = edit_opnd(&o->sub[i], label.data, OM_UPDATE, depth + 1, picks);
        }
        goto out;
    }
    av_type t = av_type_from_name(w, in.len);
    if (t == AV_NONE || !omode_allows(mode, t)) {
        display_error("%s type %s (%s)", t == AV_NONE ? "Unknown" : "Not a", w, omode_types(mode));
        goto out;
    }
    if (o->kind == BO_VALUE && o->value.type == t)
        builder_value_text(&o->value, &cur);
    buf_reset(&label);
    buf_printf(&label, "%s (%s): ", what, av_type_name(t));
    buf_reset(&in);
    if (!ask(label.data, cur.data ? cur.data : "", &in))
        goto out;
    av nv;
    diag d;
    diag_init(&d);
    if (builder_value_parse(t, in.data ? in.data : "", in.len, &nv, &d) != ST_OK) {
        display_error("%s", d.msg);
        goto out;
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
void bprompt_row_values(baction *a, const bpicks *picks)
{
    if (a->kind == BU_REMOVE)
        return;
    if (a->kind != BU_SET) {
        edit_opnd(&a->a, "Value", a->kind == BU_ADD ? OM_ADD : OM_DELETE, 0, picks);
        return;
    }
    if (!edit_opnd(&a->a, a->form == BF_PLAIN ? "Value" : "Operand a", OM_UPDATE, 0, picks))
        return;
    if (a->form != BF_PLAIN)
        edit_opnd(&a->b, "Operand b", OM_UPDATE, 0, picks);
}

void bprompt_values(bnode *n, const bpicks *picks)
{
    if (n->op == BOP_IN) {
        /* IN: how many values, then each. */
        buf in = BUF_INIT;
        char cur[16];
        snprintf(cur, sizeof cur, "%zu", n->n_args);
        if (ask("How many values in the IN list (1-100): ", cur, &in)) {
            long k = strtol(in.data ? in.data : "", NULL, 10);
            if (k < 1 || k > 100) {
                display_error("IN takes 1 to 100 values");
            } else {
                for (size_t i = (size_t)k; i < n->n_args; i++)
                    builder_opnd_free(&n->args[i]);
                if ((size_t)k > n->n_args) {
                    n->args = xrealloc(n->args, (size_t)k * sizeof *n->args);
                    memset(n->args + n->n_args, 0, ((size_t)k - n->n_args) * sizeof *n->args);
                    for (size_t i = n->n_args; i < (size_t)k; i++)
                        n->args[i].kind = BO_VALUE;
                }
                n->n_args = (size_t)k;
            }
        }
        buf_done(&in);
    }
    for (size_t i = 0; i < n->n_args; i++) {
        char what[32];
        snprintf(what, sizeof what, "Value %zu", i + 1);
        if (!edit_opnd(&n->args[i], what, n->op != BOP_TYPE ? OM_COND : OM_VALUE, 0, picks))
            return;
    }
}

bool bprompt_op(bnode *n)
{
    buf in = BUF_INIT, cur = BUF_INIT;
    bool ok = false;
    if (n->left.kind == BO_SIZE)
        buf_adds(&cur, "size ");
    buf_adds(&cur, builder_op_name(n->op));
    if (ask("Operator (= <> < <= > >= BETWEEN IN attribute_exists attribute_not_exists "
            "attribute_type begins_with contains; 'size OP' compares size(path)): ", cur.data, &in)) {
        const char *s = in.data ? in.data : "";
        bool size = strncmp(s, "size ", 5) == 0;
        if (size)
            s += 5;
        bop op = builder_op_parse(s, strlen(s));
        if (op == BOP__COUNT || (size && op >= BOP_EXISTS)) {
            display_error("Unknown operator %s", in.data ? in.data : "");
        } else {
            builder_set_op(n, op);
            if (n->left.kind != BO_VALUE)
                n->left.kind = size ? BO_SIZE : BO_PATH;
            ok = true;
        }
    }
    buf_done(&in);
    buf_done(&cur);
    return ok;
}

/* Path, operator, then the operands. */
void bprompt_clause(bnode *n, const bpicks *picks)
{
    if (!bprompt_path(&n->left.path, "Path: ", picks))
        return;
    if (n->left.kind == BO_VALUE)
        n->left.kind = BO_PATH;
    if (!bprompt_op(n))
        return;
    bprompt_values(n, picks);
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

bool bprompt_row_kind(bu_kind *kind)
{
    buf in = BUF_INIT;
    bool ok = ask("Action (SET REMOVE ADD DELETE): ", "SET", &in);
    int k = ok ? row_kind_of(in.data) : -1;
    *kind = k < 0 ? BU_SET : (bu_kind)k;
    buf_done(&in);
    return ok;
}

/* Action (unless the row was just added with one), path, SET's form,
 * then the operands. */
void bprompt_row(baction *a, bool ask_action, const bpicks *picks)
{
    buf in = BUF_INIT;
    if (ask_action) {
        if (!ask("Action (SET REMOVE ADD DELETE): ", builder_update_kind_name(a->kind), &in))
            goto out;
        int kind = row_kind_of(in.data);
        if (kind < 0) {
            display_error("Unknown action %s", in.data ? in.data : "");
            goto out;
        }
        a->kind = (bu_kind)kind;
    }
    if (!bprompt_path(&a->path, "Path: ", picks) || a->kind == BU_REMOVE)
        goto out;
    if (a->kind == BU_SET) {
        static const char *const f[] = { "value", "plus", "minus", "list_append" };
        buf_reset(&in);
        if (!ask("Form (value: a, plus: a + b, minus: a - b, list_append: list_append(a, b)): ",
                 f[a->form], &in))
            goto out;
        int form = -1;
        for (int i = 0; i < 4; i++)
            if (in.data && strcmp(in.data, f[i]) == 0)
                form = i;
        if (form < 0) {
            display_error("Unknown form %s", in.data ? in.data : "");
            goto out;
        }
        a->form = (bu_form)form;
    }
    bprompt_row_values(a, picks);
out:
    buf_done(&in);
}

