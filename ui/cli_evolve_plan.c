/*
 * cli_evolve_plan — the access patterns around `ddbx evolve`: re-costed
 * with the new index, the Scans it turns into Queries, and the log of
 * evolution steps (see cli_evolve.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "data/pattern_run.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/cli_evolve.h"
#include "ui/prices.h"

/* Puts v at the dotted path in item (maps made on the way). */
static void put_path(av *item, char **seg, size_t n, const av *v)
{
    av *m = item;
    for (size_t i = 0; i + 1 < n; i++) {
        av *next = av_map_get_mut(m, seg[i], strlen(seg[i]));
        if (!next || next->type != AV_M) {
            av e;
            av_init_list(&e, AV_M);
            av_map_put(m, seg[i], strlen(seg[i]), &e);
            next = av_map_get_mut(m, seg[i], strlen(seg[i]));
        }
        m = next;
    }
    av c;
    av_copy(&c, v);
    av_map_put(m, seg[n - 1], strlen(seg[n - 1]), &c);
}

static const av *param(const pattern *p, const char *name)
{
    for (size_t i = 0; i < p->n_params; i++)
        if (strcmp(p->params[i].name, name) == 0)
            return &p->params[i].example;
    return NULL;
}

/* The item a filter of `PATH = :p AND ...` describes, from the
 * examples; false when the filter has another shape. */
static bool filter_item(const pattern *p, av *item)
{
    av_init_list(item, AV_M);
    if (!p->filter || strchr(p->filter, '(') || strstr(p->filter, " OR ") || strstr(p->filter, " or "))
        return false;
    char *f = xstrdup(p->filter);
    bool ok = true;
    for (char *c = f, *next; c && ok; c = next) {
        next = strstr(c, " AND ");
        if (!next)
            next = strstr(c, " and ");
        if (next) {
            *next = '\0';
            next += 5;
        }
        char *eq = strchr(c, '=');
        if (!eq || eq[-1] == '<' || eq[-1] == '>' || eq[-1] == '!') {
            ok = false;
            break;
        }
        *eq = '\0';
        char *lhs = c, *rhs = eq + 1;
        while (isspace((unsigned char)*lhs))
            lhs++;
        while (isspace((unsigned char)*rhs))
            rhs++;
        for (char *e = lhs + strlen(lhs); e > lhs && isspace((unsigned char)e[-1]);)
            *--e = '\0';
        for (char *e = rhs + strlen(rhs); e > rhs && isspace((unsigned char)e[-1]);)
            *--e = '\0';
        const av *v = rhs[0] == ':' ? param(p, rhs + 1) : NULL;
        if (!v) {
            continue;   /* compared with no parameter: not a key's part */
        }
        char *seg[16];
        size_t n = 0;
        for (char *s = strtok(lhs, "."); s && n < 16; s = strtok(NULL, ".")) {
            if (s[0] == '#') {
                const av *nm = p->names.type == AV_M ? av_map_get(&p->names, s, strlen(s)) : NULL;
                if (!nm || nm->type != AV_S) {
                    ok = false;
                    break;
                }
                s = nm->u.s.ptr;
            }
            seg[n++] = s;
        }
        if (ok && n)
            put_path(item, seg, n, v);
    }
    free(f);
    return ok;
}

static void add_param(pattern *q, const char *name, av *v)
{
    q->params = xrealloc(q->params, (q->n_params + 1) * sizeof *q->params);
    q->params[q->n_params].name = xstrdup(name);
    q->params[q->n_params++].example = *v;
}

/* "#evN = :evN" for each part of t's key on the item, into q; false
 * when the item does not give it. */
static bool key_cond(pattern *q, const keytmpl *t, const av *item, bool partition, int *n, buf *kc)
{
    size_t parts = keytmpl_named(t) ? t->n_names : 1;
    for (size_t i = 0; i < parts; i++) {
        av v;
        buf where = BUF_INIT;
        av_type ty;
        keytmpl one = *t;
        const char *attr = t->attr;
        if (keytmpl_named(t)) {
            one.names = &t->names[i];
            one.n_names = 1;
            attr = t->names[i];
        }
        keytmpl_why w = keytmpl_apply(&one, item, partition, &v, &where, &ty);
        buf_done(&where);
        if (w != KEYTMPL_OK)
            return false;
        char nk[16], vk[16];
        snprintf(nk, sizeof nk, "#ev%d", *n);
        snprintf(vk, sizeof vk, "ev%d", (*n)++);
        av s;
        av_init_s(&s, attr, strlen(attr));
        av_map_put(&q->names, nk, strlen(nk), &s);
        add_param(q, vk, &v);
        buf_printf(kc, "%s%s = :%s", kc->len ? " AND " : "", nk, vk);
    }
    return true;
}

/* The Query on the new index that answers Scan pattern p, into q (op
 * PAT_SCAN, no name: none). */
static void derive(const pattern *p, const evolve_spec *sp, pattern *q)
{
    pattern_init(q);
    q->op = PAT_SCAN;
    av item;
    if (p->op != PAT_SCAN || p->index || !filter_item(p, &item)) {
        if (p->op == PAT_SCAN && !p->index)
            av_done(&item);
        return;
    }
    pattern d;
    pattern_copy(&d, p);
    if (d.names.type != AV_M) {
        av_done(&d.names);
        av_init_list(&d.names, AV_M);
    }
    buf kc = BUF_INIT;
    int n = 0;
    bool ok = key_cond(&d, sp->hash, &item, true, &n, &kc);
    if (ok && sp->range) {
        /* The sort key when the filter gives it too; else the partition alone. */
        pattern e;
        pattern_copy(&e, &d);
        buf kr = BUF_INIT;
        buf_adds(&kr, kc.data);
        int m = n;
        if (key_cond(&e, sp->range, &item, false, &m, &kr)) {
            pattern_done(&d);
            d = e;
            buf_done(&kc);
            kc = kr;
        } else {
            pattern_done(&e);
            buf_done(&kr);
        }
    }
    av_done(&item);
    if (!ok) {
        pattern_done(&d);
        buf_done(&kc);
        return;
    }
    pattern_done(q);
    *q = d;
    q->op = PAT_QUERY;
    free(q->index);
    q->index = xstrdup(sp->index);
    free(q->keycond);
    q->keycond = buf_steal(&kc);
}

void evolve_costs_init(evolve_costs *e, const pattern_set *all, const evolve_spec *sp)
{
    memset(e, 0, sizeof *e);
    pattern_set_init(&e->set);
    for (size_t i = 0; all && i < all->n; i++)
        if (strcmp(all->p[i].table, sp->table) == 0)
            pattern_set_put(&e->set, &all->p[i]);
    if (all)
        pattern_set_merge_rules(&e->set, all);
    size_t n = e->set.n ? e->set.n : 1;
    e->q = xcalloc(n, sizeof *e->q);
    e->before = xcalloc(n, sizeof *e->before);
    e->after = xcalloc(n, sizeof *e->after);
    e->qafter = xcalloc(n, sizeof *e->qafter);
    for (size_t i = 0; i < e->set.n; i++) {
        derive(&e->set.p[i], sp, &e->q[i]);
        pattern_result_init(&e->before[i]);
        pattern_result_init(&e->after[i]);
        pattern_result_init(&e->qafter[i]);
    }
}

void evolve_costs_done(evolve_costs *e)
{
    for (size_t i = 0; i < e->set.n; i++) {
        pattern_done(&e->q[i]);
        pattern_result_done(&e->before[i]);
        pattern_result_done(&e->after[i]);
        pattern_result_done(&e->qafter[i]);
    }
    free(e->q);
    free(e->before);
    free(e->after);
    free(e->qafter);
    pattern_set_done(&e->set);
}

void evolve_costs_run(evolve_costs *e, store *s, bool after)
{
    for (size_t i = 0; i < e->set.n; i++) {
        pattern_result *r = after ? &e->after[i] : &e->before[i];
        pattern_result_done(r);
        pattern_result_init(r);
        pattern_run(s, &e->set, &e->set.p[i], NULL, false, r);
        if (after && e->q[i].op == PAT_QUERY) {
            pattern_result_done(&e->qafter[i]);
            pattern_result_init(&e->qafter[i]);
            pattern_run(s, &e->set, &e->q[i], NULL, false, &e->qafter[i]);
        }
    }
}

/* "Scan 12.5 RCU, 3 items ($1.5625/M calls)" or why it failed; op: with
 * what it ran as. */
static void cell_of(const pattern_result *r, bool op, buf *out)
{
    if (r->error) {
        buf_printf(out, "fails (%.*s)", (int)strcspn(r->error, ":"), r->error);
        return;
    }
    if (op)
        buf_printf(out, "%s ", pattern_op_name(r->ran_as));
    buf_printf(out, "%g RCU, %zu item%s", r->units, r->items,
               r->items == 1 ? "" : "s");
    buf m = BUF_INIT;
    prices_per_million(r->units, false, &m);
    if (m.len)
        buf_printf(out, " (%s)", m.data);
    buf_done(&m);
}

static void cell(const pattern_result *r, buf *out)
{
    cell_of(r, true, out);
}

void evolve_costs_print(const evolve_costs *e, FILE *f)
{
    if (!e->set.n) {
        fputs("access patterns: none of this table in the pattern folder\n", f);
        return;
    }
    fputs("access patterns (a call), before -> with the index:\n", f);
    buf b = BUF_INIT;
    for (size_t i = 0; i < e->set.n; i++) {
        bool q = e->q[i].op == PAT_QUERY;
        buf_reset(&b);
        buf_printf(&b, "  %s: ", e->set.p[i].name);
        cell(&e->before[i], &b);
        buf_adds(&b, " -> ");
        cell(q ? &e->qafter[i] : &e->after[i], &b);
        if (q)
            buf_printf(&b, " as a Query on %s", e->q[i].index);
        cli_fputs_safe(f, b.data);
        fputc('\n', f);
    }
    buf_done(&b);
}

size_t evolve_costs_print_gains(const evolve_costs *e, const char *index, FILE *f)
{
    size_t n = 0;
    buf b = BUF_INIT;
    for (size_t i = 0; i < e->set.n; i++) {
        const pattern_result *x = &e->before[i], *y = &e->qafter[i];
        if (e->q[i].op != PAT_QUERY || x->error || y->error || x->ran_as != PAT_SCAN || y->ran_as != PAT_QUERY)
            continue;
        buf_reset(&b);
        buf_printf(&b, "pattern %s was a Scan: ", e->set.p[i].name);
        cell_of(x, false, &b);
        buf_printf(&b, "; now a Query on %s: ", index);
        cell_of(y, false, &b);
        buf_printf(&b, "\n  (its Query: %s", e->q[i].keycond);
        for (size_t k = 0; e->q[i].names.type == AV_M && k < e->q[i].names.u.m.len; k++) {
            const av_member *m = &e->q[i].names.u.m.v[k];
            if (strncmp(m->name, "#ev", 3) == 0)
                buf_printf(&b, ", %s is %s", m->name, m->val.u.s.ptr);
        }
        buf_adds(&b, ")");
        cli_fputs_lines(f, b.data);
        fputc('\n', f);
        n++;
    }
    buf_done(&b);
    return n;
}

static void put_item(FILE *f, const char *label, const av *item)
{
    buf b = BUF_INIT;
    ddbjson_write_item(&b, item);
    fprintf(f, "  %s ", label);
    cli_fputs_safe(f, b.data);
    fputc('\n', f);
    buf_done(&b);
}

void evolve_print_counts(const evolve_spec *sp, const evolve_counts *c, bool dry, FILE *f)
{
    buf what = BUF_INIT;
    const keytmpl *t[2] = { sp->hash, sp->range };
    for (int i = 0; i < 2; i++)
        if (t[i] && !keytmpl_named(t[i]))
            buf_printf(&what, "%s%s", what.len ? " and " : "", t[i]->attr);
    fprintf(f, "%s: %llu item%s read\n", sp->table, (unsigned long long)c->read, c->read == 1 ? "" : "s");
    if (what.len)
        fprintf(f, "  %llu %s %s%s\n", (unsigned long long)c->gets, dry ? "would get" : "got", what.data,
                "");
    else
        fprintf(f, "  %llu will be in %s (keyed on the attributes they have; nothing is written)\n",
                (unsigned long long)c->gets, sp->index);
    if (!dry && what.len)
        fprintf(f, "  %llu written by this run\n", (unsigned long long)c->written);
    if (!dry && c->written_before)
        fprintf(f, "  %llu written by the run the checkpoint is of\n", (unsigned long long)c->written_before);
    if (c->already)
        fprintf(f, "  %llu already %s (an earlier run)\n", (unsigned long long)c->already,
                what.len ? "had them" : "indexed");
    fprintf(f, "  %llu left out%s\n", (unsigned long long)c->left_out, c->left_out ? ":" : "");
    for (size_t i = 0; i < c->n_why; i++) {
        fprintf(f, "    %llu: ", (unsigned long long)c->why[i].n);
        cli_fputs_safe(f, c->why[i].text);
        fputc('\n', f);
    }
    if (c->n_named) {
        fprintf(f, "  %zu changed by someone else while being written, not written (run again):\n", c->n_named);
        for (size_t i = 0; i < c->n_named && i < 20; i++) {
            fputs("    ", f);
            cli_fputs_safe(f, c->named[i]);
            fputc('\n', f);
        }
    }
    if (c->before.type == AV_M && what.len) {
        fputs("sample, before -> after:\n", f);
        put_item(f, "before", &c->before);
        put_item(f, "after ", &c->after);
    }
    buf_done(&what);
}

void evolve_log(const char *path, const char *step, const evolve_spec *sp, const evolve_counts *c,
                const char *backup)
{
    FILE *f = fopen(path, "a");
    if (!f)
        return;
    buf b = BUF_INIT;
    char when[32];
    time_t now = time(NULL);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    buf_printf(&b, "{\"time\":\"%s\",\"step\":\"%s\",\"table\":", when, step);
    ddbjson_write_string(&b, sp->table, strlen(sp->table));
    buf_adds(&b, ",\"index\":");
    ddbjson_write_string(&b, sp->index, strlen(sp->index));
    buf_adds(&b, ",\"hash\":");
    ddbjson_write_string(&b, sp->hash->text, strlen(sp->hash->text));
    buf_adds(&b, ",\"range\":");
    if (sp->range)
        ddbjson_write_string(&b, sp->range->text, strlen(sp->range->text));
    else
        buf_adds(&b, "null");
    buf_adds(&b, ",\"where\":");
    ddbjson_write_string(&b, sp->where, strlen(sp->where));
    buf_printf(&b, ",\"read\":%llu,\"gets\":%llu,\"written\":%llu,\"already\":%llu,\"left_out\":%llu",
               (unsigned long long)c->read, (unsigned long long)c->gets, (unsigned long long)c->written,
               (unsigned long long)c->already, (unsigned long long)c->left_out);
    buf_adds(&b, ",\"backup\":");
    if (backup)
        ddbjson_write_string(&b, backup, strlen(backup));
    else
        buf_adds(&b, "null");
    buf_adds(&b, "}\n");
    fwrite(b.data, 1, b.len, f);
    fclose(f);
    buf_done(&b);
}
