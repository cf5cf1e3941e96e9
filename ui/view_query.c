/*
 * view_query — the query bar: index, partition value, sort-key condition,
 * filter (with its names and values). It says before running whether the
 * request is a Query (a partition value is given) or a Scan (none: every
 * item is read), runs it through the store's DynamoDB operations, and
 * shows Count, ScannedCount and the consumed capacity. Further pages load
 * on demand (LastEvaluatedKey), when the selection moves past the last
 * result.
 *
 * Sort-key conditions: `V` or `= V`, `< V`, `<= V`, `> V`, `>= V`,
 * `between A and B`, `begins_with V`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/store.h"
#include "model/ddbjson.h"
#include "model/mem.h"
#include "ui/cols.h"
#include "ui/display.h"
#include "ui/edit.h"
#include "ui/fmt.h"
#include "ui/jscan.h"
#include "ui/view.h"

#define PAGE_LIMIT 100

enum { L_FIELD = 1, L_PLAN, L_SUMMARY, L_COLHEAD, L_RESULT, L_MORE };
enum { F_INDEX, F_PK, F_SK, F_FILTER, F_NAMES, F_VALUES, F__COUNT };

static const char *field_names[F__COUNT] = {
    "Index", "Partition value", "Sort key condition", "Filter", "Names", "Values"
};

typedef struct qline {
    int field;     /* L_FIELD */
    av item;       /* L_RESULT */
} qline;

typedef struct query_view {
    char *table;
    table_def def;
    bool have_def;
    char *f[F__COUNT];
    bool ran;
    bool scan;           /* what ran */
    long long count, scanned;
    double capacity;
    char *lek;           /* LastEvaluatedKey of the last page, or NULL */
    char *error;
    cols cols;           /* fitted to the results on screen (layout) */
} query_view;

static void free_line(view *v, line *l)
{
    qline *q = l->data;
    if (!q)
        return;
    av_free(&q->item);
    free(q);
}

static void set_field(query_view *p, int f, const char *s)
{
    free(p->f[f]);
    p->f[f] = xstrdup(s ? s : "");
}

static const index_def *cur_index(query_view *p)
{
    return p->f[F_INDEX][0] ? table_def_index(&p->def, p->f[F_INDEX]) : NULL;
}

static bool is_query(query_view *p)
{
    return p->f[F_PK][0] != '\0';
}

static void fields(view *v)
{
    query_view *p = v->priv;
    vm_clear(&v->vm);
    for (int f = 0; f < F__COUNT; f++) {
        qline *q = xcalloc(1, sizeof *q);
        q->field = f;
        vm_append(&v->vm, L_FIELD, q);
    }
    vm_append(&v->vm, L_PLAN, xcalloc(1, sizeof(qline)));
    if (p->ran || p->error)
        vm_append(&v->vm, L_SUMMARY, xcalloc(1, sizeof(qline)));
}

/* Appends `"name":` JSON for a request member. */
static void member(buf *b, const char *name)
{
    buf_printf(b, ",\"%s\":", name);
}

/* Splices the inside of a user's JSON object (names or values) after
 * what we put in ourselves. */
static bool splice(buf *b, const char *obj)
{
    const char *s = obj, *e = obj + strlen(obj);
    while (*s == ' ' || *s == '\n') s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\n')) e--;
    if (s == e)
        return true;
    if (*s != '{' || e[-1] != '}')
        return false;
    s++; e--;
    while (s < e && (*s == ' ' || *s == '\n')) s++;
    if (s == e)
        return true;
    if (b->data[b->len - 1] != '{')
        buf_addc(b, ',');
    buf_add(b, s, (size_t)(e - s));
    return true;
}

/* A placeholder of our own for the key condition: base, else base_1,
 * base_2, ... the first that appears nowhere in the user's filter, names
 * or values (a filter built on attributes named pk or sk1 brings its own
 * :pk and :sk1), so the two never collide in one map. */
static void own_placeholder(const query_view *p, const char *base, char *out, size_t n)
{
    for (unsigned k = 0;; k++) {
        if (k)
            snprintf(out, n, "%s_%u", base, k);
        else
            snprintf(out, n, "%s", base);
        bool used = false;
        for (int f = F_FILTER; f <= F_VALUES && !used; f++) {
            /* Only a whole token counts: :pk in ":pk_x" is not :pk. */
            size_t len = strlen(out);
            for (const char *at = strstr(p->f[f], out); at && !used; at = strstr(at + 1, out)) {
                char c = at[len];
                used = !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_');
            }
        }
        if (!used)
            return;
    }
}

/* Builds the Query or Scan request; false with *why set when the input
 * cannot make one. */
static bool build_request(query_view *p, buf *req, char *why, size_t wlen)
{
    const index_def *ix = cur_index(p);
    bool q = is_query(p);
    buf keycond = BUF_INIT, names = BUF_INIT, values = BUF_INIT;
    av pkv = { 0 }, a = { 0 }, b = { 0 };
    diag d;
    bool ok = false;
    diag_init(&d);

    if (p->f[F_INDEX][0] && !ix) {
        snprintf(why, wlen, "no index %s", p->f[F_INDEX]);
        goto out;
    }
    const char *pkname = ix ? ix->pk.name : p->def.pk.name;
    const char *skname = ix ? ix->sk.name : p->def.sk.name;
    char hpk[32], hsk[32], vpk[32], vsk1[32], vsk2[32];
    own_placeholder(p, "#pk", hpk, sizeof hpk);
    own_placeholder(p, "#sk", hsk, sizeof hsk);
    own_placeholder(p, ":pk", vpk, sizeof vpk);
    own_placeholder(p, ":sk1", vsk1, sizeof vsk1);
    own_placeholder(p, ":sk2", vsk2, sizeof vsk2);
    buf_addc(&names, '{');
    buf_addc(&values, '{');
    if (q) {
        if (edit_parse_key(&p->def, ix, true, p->f[F_PK], &pkv, &d) != ST_OK) {
            snprintf(why, wlen, "partition value: %s", d.msg);
            goto out;
        }
        buf_printf(&keycond, "%s = %s", hpk, vpk);
        buf_printf(&names, "\"%s\":", hpk);
        ddbjson_write_string(&names, pkname, strlen(pkname));
        buf_printf(&values, "\"%s\":", vpk);
        ddbjson_write_value(&values, &pkv);
        const char *c = p->f[F_SK];
        while (*c == ' ')
            c++;
        if (*c) {
            if (!skname) {
                snprintf(why, wlen, "this key schema has no sort key");
                goto out;
            }
            const char *op = "=";
            const char *arg = c;
            static const char *ops[] = { "<=", ">=", "=", "<", ">" };
            bool between = false, begins = false;
            if (strncasecmp(c, "between ", 8) == 0) {
                between = true;
                arg = c + 8;
            } else if (strncasecmp(c, "begins_with ", 12) == 0) {
                begins = true;
                arg = c + 12;
            } else {
                for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
                    if (strncmp(c, ops[i], strlen(ops[i])) == 0) {
                        op = ops[i];
                        arg = c + strlen(ops[i]);
                        break;
                    }
            }
            while (*arg == ' ')
                arg++;
            char *first = xstrdup(arg), *second = NULL;
            if (between) {
                char *and = strstr(first, " and ");
                if (!and)
                    and = strstr(first, " AND ");
                if (!and) {
                    free(first);
                    snprintf(why, wlen, "between needs: between A and B");
                    goto out;
                }
                *and = '\0';
                second = and + 5;
                while (*second == ' ')
                    second++;
            }
            status st = edit_parse_key(&p->def, ix, false, first, &a, &d);
            if (st == ST_OK && second)
                st = edit_parse_key(&p->def, ix, false, second, &b, &d);
            free(first);
            if (st != ST_OK) {
                snprintf(why, wlen, "sort key: %s", d.msg);
                goto out;
            }
            buf_printf(&names, ",\"%s\":", hsk);
            ddbjson_write_string(&names, skname, strlen(skname));
            buf_printf(&values, ",\"%s\":", vsk1);
            ddbjson_write_value(&values, &a);
            if (between) {
                buf_printf(&keycond, " AND %s BETWEEN %s AND %s", hsk, vsk1, vsk2);
                buf_printf(&values, ",\"%s\":", vsk2);
                ddbjson_write_value(&values, &b);
            } else if (begins) {
                buf_printf(&keycond, " AND begins_with(%s, %s)", hsk, vsk1);
            } else {
                buf_printf(&keycond, " AND %s %s %s", hsk, op, vsk1);
            }
        }
    }
    if (!splice(&names, p->f[F_NAMES]) || !splice(&values, p->f[F_VALUES])) {
        snprintf(why, wlen, "names and values must be JSON objects");
        goto out;
    }
    buf_addc(&names, '}');
    buf_addc(&values, '}');

    buf_adds(req, "{\"TableName\":");
    ddbjson_write_string(req, p->table, strlen(p->table));
    if (ix) {
        member(req, "IndexName");
        ddbjson_write_string(req, ix->name, strlen(ix->name));
    }
    if (q) {
        member(req, "KeyConditionExpression");
        ddbjson_write_string(req, keycond.data, keycond.len);
    }
    if (p->f[F_FILTER][0]) {
        member(req, "FilterExpression");
        ddbjson_write_string(req, p->f[F_FILTER], strlen(p->f[F_FILTER]));
    }
    if (names.len > 2) {
        member(req, "ExpressionAttributeNames");
        buf_add(req, names.data, names.len);
    }
    if (values.len > 2) {
        member(req, "ExpressionAttributeValues");
        buf_add(req, values.data, values.len);
    }
    buf_printf(req, ",\"Limit\":%d,\"ReturnConsumedCapacity\":\"TOTAL\"", PAGE_LIMIT);
    if (p->lek) {
        member(req, "ExclusiveStartKey");
        buf_adds(req, p->lek);
    }
    buf_addc(req, '}');
    ok = true;
out:
    av_free(&pkv);
    av_free(&a);
    av_free(&b);
    buf_done(&keycond);
    buf_done(&names);
    buf_done(&values);
    return ok;
}

/* Runs one page; appends its items. Returns how many lines were added. */
static size_t run_page(view *v)
{
    query_view *p = v->priv;
    buf req = BUF_INIT;
    char why[1400];
    char *resp = NULL;
    size_t added = 0;
    diag d;
    diag_init(&d);
    free(p->error);
    p->error = NULL;
    if (!build_request(p, &req, why, sizeof why)) {
        p->error = xstrdup(why);
        goto out;
    }
    const char *op = is_query(p) ? "Query" : "Scan";
    status st = store_call(display_store(), op, req.data, req.len, &resp, &d);
    if (st != ST_OK) {
        char msg[1400];
        snprintf(msg, sizeof msg, "%s: %s", status_name(st), d.msg);
        p->error = xstrdup(msg);
        display_error("%s", msg);
        goto out;
    }
    p->ran = true;
    p->scan = !is_query(p);
    size_t rl = strlen(resp);
    const char *val;
    size_t vl;
    if (jscan_member(resp, rl, "Count", &val, &vl))
        p->count += jscan_int(val, vl, 0);
    if (jscan_member(resp, rl, "ScannedCount", &val, &vl))
        p->scanned += jscan_int(val, vl, 0);
    if (jscan_member(resp, rl, "ConsumedCapacity", &val, &vl)) {
        const char *cu;
        size_t cl;
        if (jscan_member(val, vl, "CapacityUnits", &cu, &cl)) {
            char tmp[64];
            snprintf(tmp, sizeof tmp, "%.*s", (int)(cl < 63 ? cl : 63), cu);
            p->capacity += strtod(tmp, NULL);
        }
    }
    free(p->lek);
    p->lek = NULL;
    if (jscan_member(resp, rl, "LastEvaluatedKey", &val, &vl))
        p->lek = xstrndup(val, vl);
    /* Drop a previous "more" line before appending. */
    if (v->vm.n && v->vm.lines[v->vm.n - 1].kind == L_MORE)
        vm_trim(&v->vm, 0, v->vm.n - 1);
    if (jscan_member(resp, rl, "Items", &val, &vl)) {
        size_t pos = 0;
        const char *it;
        size_t il;
        while (jscan_next(val, vl, &pos, &it, &il)) {
            qline *q = xcalloc(1, sizeof *q);
            if (ddbjson_parse_item(it, il, &q->item, &d) != ST_OK) {
                free(q);
                continue;
            }
            vm_append(&v->vm, L_RESULT, q);
            added++;
        }
    }
    if (p->lek) {
        vm_append(&v->vm, L_MORE, xcalloc(1, sizeof(qline)));
        added++;
    }
out:
    free(resp);
    buf_done(&req);
    return added;
}

static void run(view *v)
{
    query_view *p = v->priv;
    p->count = p->scanned = 0;
    p->capacity = 0;
    free(p->lek);
    p->lek = NULL;
    p->ran = false;
    free(p->error);
    p->error = NULL;
    fields(v);
    vm_append(&v->vm, L_SUMMARY, xcalloc(1, sizeof(qline)));
    vm_append(&v->vm, L_COLHEAD, xcalloc(1, sizeof(qline)));
    run_page(v);
    vm_select(&v->vm, F__COUNT + 1);
}

static bool open_view(view *v, const void *arg)
{
    const query_arg *a = arg;
    query_view *p = v->priv;
    diag d;
    diag_init(&d);
    p->table = xstrdup(a->table);
    status st = store_describe(display_store(), a->table, &p->def, &d);
    if (st != ST_OK) {
        display_error("%s: %s", status_name(st), d.msg);
        return false;
    }
    p->have_def = true;
    set_field(p, F_INDEX, a->index);
    set_field(p, F_PK, a->scan ? "" : a->pk);
    set_field(p, F_SK, a->sk);
    set_field(p, F_FILTER, "");
    set_field(p, F_NAMES, "");
    set_field(p, F_VALUES, "");
    fields(v);
    if (a->run)
        run(v);
    else
        vm_select(&v->vm, F_PK);
    return true;
}

static void done(view *v)
{
    query_view *p = v->priv;
    for (int f = 0; f < F__COUNT; f++)
        free(p->f[f]);
    free(p->lek);
    free(p->error);
    if (p->have_def)
        table_def_free(&p->def);
    free(p->table);
}

static void summary(query_view *p, buf *out);

static void title(view *v, buf *out)
{
    query_view *p = v->priv;
    buf_printf(out, "%s  query bar  ", p->table);
    if (p->ran || p->error)
        summary(p, out);
    else
        buf_adds(out, "(Enter: edit a field or run; q: back)");
}

static void plan(query_view *p, buf *out)
{
    const index_def *ix = cur_index(p);
    const char *on = ix ? ix->name : "the base table";
    if (is_query(p))
        buf_printf(out, "Will run: Query on %s (one partition: %s = %s)", on,
                   ix ? ix->pk.name : p->def.pk.name, p->f[F_PK]);
    else
        buf_printf(out, "Will run: Scan of %s (no partition value: reads every item)", on);
    if (p->f[F_FILTER][0])
        buf_adds(out, ", then filter");
    buf_adds(out, "   [Enter: run]");
}

static void summary(query_view *p, buf *out)
{
    if (p->error) {
        buf_printf(out, "Error: %s", p->error);
        return;
    }
    buf_printf(out, "%s: Count %lld, ScannedCount %lld, ConsumedCapacity %g RCU%s",
               p->scan ? "Scan" : "Query", p->count, p->scanned, p->capacity,
               p->lek ? "  (more pages)" : "");
}

static void draw(view *v, size_t i, int row, int width)
{
    query_view *p = v->priv;
    line *l = &v->vm.lines[i];
    qline *q = l->data;
    buf b = BUF_INIT;
    switch (l->kind) {
    case L_FIELD: {
        const char *hint = "";
        if (q->field == F_INDEX)
            hint = p->f[F_INDEX][0] ? "" : "(base table)";
        int x = term_puts(row, 0, 20, field_names[q->field], ROLE_COLHEAD);
        x = x < 20 ? 20 : x;
        const char *val = p->f[q->field];
        if (*val)
            term_put(row, x, width - x, val, strlen(val), ROLE_KEY, true);
        else
            term_puts(row, x, width - x, *hint ? hint : "-", ROLE_DIM);
        break;
    }
    case L_PLAN:
        plan(p, &b);
        term_put(row, 0, width, b.data, b.len, ROLE_PROMPT, true);
        break;
    case L_SUMMARY:
        summary(p, &b);
        term_put(row, 0, width, b.data, b.len, p->error ? ROLE_ERROR : ROLE_GROUP, true);
        break;
    case L_COLHEAD:
        cols_draw_head(&p->cols, row, 2, width, v->vm.hscroll);
        break;
    case L_RESULT:
        cols_draw_item(&p->cols, &q->item, row, 2, width, v->vm.hscroll, &p->def, cur_index(p));
        break;
    case L_MORE:
        term_puts(row, 2, width - 2, "... more (next page loads when you move here)", ROLE_DIM);
        break;
    }
    buf_done(&b);
}

/* Result columns follow the items on screen, keys first. */
static void layout(view *v)
{
    query_view *p = v->priv;
    vm *m = &v->vm;
    const index_def *ix = cur_index(p);
    size_t end = m->top + m->rows < m->n ? m->top + m->rows : m->n, n = 0;
    const av *items[512];
    for (size_t i = m->top; i < end && n < 512; i++)
        if (m->lines[i].kind == L_RESULT)
            items[n++] = &((qline *)m->lines[i].data)->item;
    const char *first[4] = { ix ? ix->pk.name : NULL, ix ? ix->sk.name : NULL,
                             p->def.pk.name, p->def.sk.name };
    cols_compute(&p->cols, items, n, first, 4, NULL);
}

static const char *kind_name(int kind)
{
    switch (kind) {
    case L_FIELD: return "field";
    case L_PLAN: return "plan";
    case L_SUMMARY: return "summary";
    case L_COLHEAD: return "columns";
    case L_RESULT: return "result";
    default: return "more";
    }
}

static void text(view *v, size_t i, buf *out)
{
    query_view *p = v->priv;
    line *l = &v->vm.lines[i];
    qline *q = l->data;
    switch (l->kind) {
    case L_FIELD: buf_printf(out, "%s: %s", field_names[q->field], p->f[q->field]); break;
    case L_PLAN: plan(p, out); break;
    case L_SUMMARY: summary(p, out); break;
    case L_COLHEAD:
        for (size_t k = 0; k < p->cols.n; k++)
            buf_printf(out, "%s%s", k ? " " : "", p->cols.c[k].name);
        break;
    case L_RESULT:
        for (size_t j = 0; j < q->item.u.m.len; j++) {
            if (j)
                buf_addc(out, ' ');
            buf_add(out, q->item.u.m.v[j].name, q->item.u.m.v[j].name_len);
            buf_addc(out, '=');
            fmt_cell(out, &q->item.u.m.v[j].val, 0);
        }
        break;
    default: buf_adds(out, "more"); break;
    }
}

static size_t more(view *v, int dir)
{
    query_view *p = v->priv;
    if (dir < 0 || !p->lek)
        return 0;
    size_t before = v->vm.n;
    run_page(v);
    return v->vm.n > before ? v->vm.n - before : 0;
}

static enum req request(view *v, enum req r)
{
    query_view *p = v->priv;
    line *l = vm_selected(&v->vm);
    if (r == REQ_QUERY) {
        run(v);
        return REQ_NONE;
    }
    if (r != REQ_ENTER || !l)
        return r;
    if (l->kind == L_FIELD) {
        qline *q = l->data;
        buf in = BUF_INIT, label = BUF_INIT;
        buf_printf(&label, "%s: ", field_names[q->field]);
        if (display_prompt(label.data, p->f[q->field], &in))
            set_field(p, q->field, in.data ? in.data : "");
        buf_done(&in);
        buf_done(&label);
    } else if (l->kind == L_PLAN || l->kind == L_SUMMARY) {
        run(v);
    } else if (l->kind == L_RESULT) {
        item_arg a = { p->table, p->f[F_INDEX][0] ? p->f[F_INDEX] : NULL, &((qline *)l->data)->item };
        display_push(&view_item_ops, &a);
    } else if (l->kind == L_MORE) {
        run_page(v);
    }
    return REQ_NONE;
}

static bool command(view *v, int argc, char **argv)
{
    query_view *p = v->priv;
    static const char *opts[F__COUNT] = { "index", "pk", "sk", "filter", "names", "values" };
    /* :query [PK [SKCOND]] and :set-field style arguments --index=... */
    if (strcmp(argv[0], "query") == 0 || strcmp(argv[0], "scan") == 0) {
        if (strcmp(argv[0], "scan") == 0)
            set_field(p, F_PK, "");
        for (int i = 1; i < argc; i++) {
            bool opt = false;
            for (int f = 0; f < F__COUNT; f++) {
                size_t n = strlen(opts[f]);
                if (strncmp(argv[i], "--", 2) == 0 && strncmp(argv[i] + 2, opts[f], n) == 0 &&
                    argv[i][2 + n] == '=') {
                    set_field(p, f, argv[i] + 3 + n);
                    opt = true;
                }
            }
            if (!opt)
                set_field(p, i == 1 ? F_PK : F_SK, argv[i]);
        }
        run(v);
        return true;
    }
    if (strcmp(argv[0], "index") == 0 && argc == 2) {
        set_field(p, F_INDEX, strcmp(argv[1], "base") == 0 ? "" : argv[1]);
        fields(v);
        return true;
    }
    return false;
}

const view_ops view_query_ops = {
    .name = "query",
    .priv_size = sizeof(query_view),
    .open = open_view,
    .title = title,
    .layout = layout,
    .draw = draw,
    .request = request,
    .done = done,
    .more = more,
    .free_line = free_line,
    .kind_name = kind_name,
    .text = text,
    .command = command,
};
