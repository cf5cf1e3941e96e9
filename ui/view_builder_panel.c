/*
 * view_builder_panel — the builder's right-hand panel: what DynamoDB
 * receives for the tree as it stands, section by section (the result of
 * the last action, the expressions and their maps, the verdict, the whole
 * request as JSON and as an aws CLI line, the transaction, the saved
 * conditions), and the same wrapped to the width it is drawn in. See
 * ui/builder_int.h for who owns what.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/builder.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/builder_int.h"
#include "ui/fmt.h"
#include "ui/text.h"

static void pl(bview *p, role r, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void pl(bview *p, role r, const char *fmt, ...)
{
    if (p->n_panel == p->cap_panel) {
        p->cap_panel = p->cap_panel ? 2 * p->cap_panel : 32;
        p->panel = xrealloc(p->panel, p->cap_panel * sizeof *p->panel);
    }
    buf b = BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    p->panel[p->n_panel].r = r;
    p->panel[p->n_panel].text = b.data ? buf_steal(&b) : xstrdup("");
    p->n_panel++;
    buf_done(&b);
}

/* Adds each line of text (split at '\n') indented by two spaces. */
static void pl_text(bview *p, role r, const char *text)
{
    const char *s = text;
    while (s) {
        const char *nl = strchr(s, '\n');
        int n = nl ? (int)(nl - s) : (int)strlen(s);
        pl(p, r, "  %.*s", n, s);
        s = nl ? nl + 1 : NULL;
    }
}

void bview_panel_free(bview *p)
{
    for (size_t i = 0; i < p->n_panel; i++)
        free(p->panel[i].text);
    p->n_panel = 0;
    for (size_t i = 0; i < p->n_wrapped; i++)
        free(p->wrapped[i].text);
    free(p->wrapped);
    p->wrapped = NULL;
    p->n_wrapped = 0;
    p->wrapped_width = -1;
}

/* The expression with a caret under byte pos. */
static void pl_caret(bview *p, const char *text, long pos)
{
    pl(p, ROLE_NORMAL, "  %s", text);
    buf c = BUF_INIT;
    buf_adds(&c, "  ");
    size_t n = strlen(text);
    size_t at = pos < 0 ? 0 : (size_t)pos > n ? n : (size_t)pos;
    for (int w = text_width(text, at); w > 0; w--)
        buf_addc(&c, ' ');
    buf_addc(&c, '^');
    pl(p, ROLE_ERROR, "%s", c.data);
    buf_done(&c);
}
/* Mode, action, table, item, the paths a prompt offers, and the last
 * action's outcome first, where it is always seen. */
static void panel_head(bview *p, breq_op op)
{
    buf b = BUF_INIT;
    if (bview_have_item(p) && p->have_def)
        fmt_key(&b, &p->item, p->def.pk.name, p->def.sk.name);
    pl(p, ROLE_NORMAL, "Mode: %s   Action: %s   Table: %s%s%s", bview_mode_names[p->mode],
       builder_req_op_name(op), p->table ? p->table : "(none)",
       p->index ? " index " : "", p->index ? p->index : "");
    pl(p, ROLE_NORMAL, "Item: %s", bview_have_item(p) ? (b.len ? b.data : "(no key)") : "(none)");
    buf_done(&b);
    /* Paths to pick from: the keys of the table and its indexes, then
     * the item's paths, nested ones included (Tab in a path prompt). */
    if (p->n_picks) {
        buf paths = BUF_INIT;
        for (size_t i = 0; i < p->n_picks; i++)
            buf_printf(&paths, "%s%s", i ? " " : "", p->picks[i]);
        pl(p, ROLE_DIM, "Paths (Tab picks): %s", paths.data);
        buf_done(&paths);
    }
    if (p->result.len) {
        pl(p, ROLE_COLHEAD, "Result");
        pl_text(p, p->result_error ? ROLE_ERROR : ROLE_KEY, p->result.data);
    }
}

status bview_maps_before_cond(bview *p, breq_op op, bmaps *m, buf *upd, diag *d)
{
    builder_maps_init(m);
    if (!p->upd.n || op != BREQ_UPDATE)
        return ST_OK;
    buf own = BUF_INIT;
    status st = builder_update_print(&p->upd, m, upd ? upd : &own, d);
    buf_done(&own);
    return st;
}

/* The expressions and their maps, as one request carries them: the
 * update rows first (DynamoDB's order), then the condition. True when
 * the tree printed as a non-empty expression. */
static bool panel_expressions(bview *p, breq_op op)
{
    bmaps m;
    diag d, ud;
    diag_init(&d);
    diag_init(&ud);
    buf b = BUF_INIT, u = BUF_INIT;
    status ust = bview_maps_before_cond(p, op, &m, &u, &ud);
    status st = builder_print(p->b, &m, &b, &d);
    if (p->upd.n) {
        pl(p, ROLE_COLHEAD, "UpdateExpression%s", op == BREQ_UPDATE ? "" : " (UpdateItem only)");
        if (ust)
            pl(p, ROLE_ERROR, "  %s", ud.msg);
        else if (u.len)
            pl_text(p, ROLE_NORMAL, u.data);
        else
            pl(p, ROLE_DIM, "  (not part of a %s)", builder_req_op_name(op));
    }
    pl(p, ROLE_COLHEAD, "%s", expr_kind_param(bview_mode_kind(p->mode)));
    if (st)
        pl(p, ROLE_ERROR, "  %s", d.msg);
    else if (!b.len)
        pl(p, ROLE_DIM, "  (empty: + adds a clause, :cond EXPR parses one)");
    else
        pl_text(p, ROLE_NORMAL, b.data);
    buf names = BUF_INIT, values = BUF_INIT;
    builder_maps_names_json(&m, &names);
    builder_maps_values_json(&m, &values);
    pl(p, ROLE_COLHEAD, "%s", DDBJSON_NAMES_MEMBER);
    pl_text(p, names.len ? ROLE_NORMAL : ROLE_DIM, names.len ? names.data : "(none needed)");
    pl(p, ROLE_COLHEAD, "%s", DDBJSON_VALUES_MEMBER);
    pl_text(p, values.len ? ROLE_NORMAL : ROLE_DIM, values.len ? values.data : "(none needed)");
    bool shown = !st && b.len;
    builder_maps_done(&m);
    buf_done(&names);
    buf_done(&values);
    buf_done(&u);
    buf_done(&b);
    return shown;
}

/* The verdict of each clause, or DynamoDB's refusal with a caret. */
static void panel_verdict(bview *p)
{
    if (p->have_verdict) {
        pl(p, p->verdict.ok ? ROLE_KEY : ROLE_ERROR, "Verdict on %s: %s",
           p->have_stored ? (p->stored.type == AV_M ? "the item stored under this key"
                                                    : "no item (none stored under this key)")
                          : bview_have_item(p) ? "the item" : "no item",
           p->verdict.ok ? "TRUE" : "FALSE");
        for (size_t i = 0; i < p->verdict.n; i++) {
            const bverdict_entry *e = &p->verdict.v[i];
            if (i == 0 && e->node->group && e->node->n_kids == 1)
                continue;   /* the root of a single clause says nothing */
            pl(p, e->verdict ? ROLE_NORMAL : ROLE_DIM, "  %*s[%s] %s -- %s", 2 * e->depth, "",
               e->verdict ? "true " : "false", e->text, e->why);
        }
        return;
    }
    diag vd;
    diag_init(&vd);
    bverdict tmp;
    buf alone = BUF_INIT;
    bmaps am, vmaps;
    breq_op op = bview_action(p);
    diag ud;
    diag_init(&ud);
    bview_maps_before_cond(p, op, &am, NULL, &ud);
    bview_maps_before_cond(p, op, &vmaps, NULL, &ud);
    builder_print(p->b, &am, &alone, &vd);
    status st = builder_verdict(p->b, &vmaps, bview_mode_kind(p->mode), bview_verdict_item(p), &tmp, &vd);
    builder_maps_done(&vmaps);
    if (st) {
        pl(p, ROLE_ERROR, "ValidationException: %s", vd.msg);
        pl_caret(p, alone.data ? alone.data : "", vd.pos);
    } else {
        builder_verdict_done(&tmp);
    }
    builder_maps_done(&am);
    buf_done(&alone);
}

/* The whole request, as JSON, as an aws CLI line and in PartiQL. */
static void panel_request(bview *p, breq_op op)
{
    breq r;
    av key;
    buf why = BUF_INIT, json = BUF_INIT, cli = BUF_INIT;
    pl(p, ROLE_COLHEAD, "Request (%s)", builder_req_op_name(op));
    if (!bview_make_req(p, op, &r, &key, &why)) {
        pl(p, ROLE_DIM, "  %s", why.data);
    } else {
        diag rd;
        diag_init(&rd);
        if (builder_req_json(&r, &json, &rd) || builder_req_cli(&r, &cli, &rd)) {
            pl(p, ROLE_ERROR, "  %s", rd.msg);
        } else {
            pl_text(p, ROLE_NORMAL, json.data);
            pl(p, ROLE_COLHEAD, "aws CLI");
            pl_text(p, ROLE_NORMAL, cli.data);
            buf pq = BUF_INIT;
            if (builder_req_partiql(&r, &pq, &rd) == ST_OK) {
                pl(p, ROLE_COLHEAD, "PartiQL");
                pl_text(p, ROLE_NORMAL, pq.data);
            }
            buf_done(&pq);
        }
    }
    av_done(&key);
    buf_done(&why);
    buf_done(&json);
    buf_done(&cli);
}

/* The transaction being collected and the saved conditions, when any. */
static void panel_tail(bview *p)
{
    size_t n = btxn_count();
    if (n) {
        pl(p, ROLE_COLHEAD, "Transaction (%zu action%s; :txn run sends it)", n, n == 1 ? "" : "s");
        for (size_t i = 0; i < n; i++)
            pl(p, ROLE_NORMAL, "  %zu. %s", i + 1, btxn_label(i));
    }
    if (p->saved.len) {
        pl(p, ROLE_COLHEAD, "Saved conditions");
        pl_text(p, ROLE_NORMAL, p->saved.data);
    }
}

void bview_panel_build(bview *p)
{
    bview_panel_free(p);
    breq_op op = bview_action(p);
    panel_head(p, op);
    if (panel_expressions(p, op))
        panel_verdict(p);
    panel_request(p, op);
    panel_tail(p);
}

/* Splits the panel into rows of at most width columns. */
void bview_panel_wrap(bview *p, int width)
{
    if (p->wrapped_width == width)
        return;
    for (size_t i = 0; i < p->n_wrapped; i++)
        free(p->wrapped[i].text);
    p->n_wrapped = 0;
    size_t cap = p->n_panel + 8;
    p->wrapped = xrealloc(p->wrapped, cap * sizeof *p->wrapped);
    if (width < 8)
        width = 8;
    for (size_t i = 0; i < p->n_panel; i++) {
        const char *s = p->panel[i].text;
        size_t len = strlen(s), at = 0;
        bool cont = false;
        size_t lead = strspn(s, " ");
        bool json = s[lead] == '{' || s[lead] == '[';
        do {
            /* Continuation rows are indented by four columns. */
            int room = cont ? width - 4 : width;
            /* Prose breaks after a space in the row's second half, not
             * inside a word; JSON breaks where the row ends (its spaces
             * are inside strings). */
            size_t end = at + text_fit_row(s + at, len - at, room, json ? INT_MAX : (room + 1) / 2);
            if (p->n_wrapped == cap) {
                cap *= 2;
                p->wrapped = xrealloc(p->wrapped, cap * sizeof *p->wrapped);
            }
            buf row = BUF_INIT;
            if (cont)
                buf_adds(&row, "    ");
            buf_add(&row, s + at, end - at);
            p->wrapped[p->n_wrapped].r = p->panel[i].r;
            p->wrapped[p->n_wrapped].text = row.data ? buf_steal(&row) : xstrdup("");
            p->n_wrapped++;
            buf_done(&row);
            /* A row that ends at a space: the next starts after it. */
            at = end < len && s[end] == ' ' && !json ? end + 1 : end;
            cont = true;
        } while (at < len);
    }
    p->wrapped_width = width;
}
