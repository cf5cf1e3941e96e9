/*
 * pattern_file — reading and writing access-pattern files (see
 * pattern_file.h).
 */
#include "data/pattern_file.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "data/jsonread.h"
#include "data/model_file.h"
#include "model/cost.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* ---- entities ---------------------------------------------------------- */

static status read_rule(jsonread *r, const cJSON *v, pattern_rule *rule)
{
    static const char *const members[] = { "attribute", "prefixes", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object: {\"attribute\": NAME[, \"prefixes\": {PREFIX: TYPE}]}");
    status st = jsonread_members(r, v, members);
    if (st != ST_OK)
        return st;
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(v, "attribute");
    jsonread_push_name(r, "attribute");
    st = a ? jsonread_string(r, a, false, &rule->attr) : jsonread_fail(r, "is missing");
    jsonread_pop(r);
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(v, "prefixes");
    if (st != ST_OK || !p)
        return st;
    jsonread_push_name(r, "prefixes");
    if (!cJSON_IsObject(p) || !cJSON_GetArraySize(p)) {
        st = jsonread_fail(r, "must be an object of PREFIX: TYPE, not empty");
        jsonread_pop(r);
        return st;
    }
    size_t n = (size_t)cJSON_GetArraySize(p);
    rule->prefix = xcalloc(n, sizeof *rule->prefix);
    rule->type = xcalloc(n, sizeof *rule->type);
    const cJSON *m;
    cJSON_ArrayForEach(m, p) {
        jsonread_push_name(r, m->string);
        st = jsonread_string(r, m, false, &rule->type[rule->n]);
        jsonread_pop(r);
        if (st != ST_OK)
            break;
        rule->prefix[rule->n++] = xstrdup(m->string);
    }
    jsonread_pop(r);
    return st;
}

static status read_entities(jsonread *r, const cJSON *v, pattern_set *set)
{
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object of TABLE: {\"attribute\": ...}");
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        jsonread_push_name(r, m->string);
        set->rules = xrealloc(set->rules, (set->n_rules + 1) * sizeof *set->rules);
        pattern_rule *rule = &set->rules[set->n_rules++];
        memset(rule, 0, sizeof *rule);
        rule->table = xstrdup(m->string);
        status st = read_rule(r, m, rule);
        jsonread_pop(r);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* ---- one pattern ------------------------------------------------------- */

static status read_params(jsonread *r, const cJSON *v, pattern *p)
{
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object of NAME: example value in DynamoDB JSON ({\"S\": \"...\"})");
    size_t n = (size_t)cJSON_GetArraySize(v);
    p->params = n ? xcalloc(n, sizeof *p->params) : NULL;
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        jsonread_push_name(r, m->string);
        const char *nm = m->string[0] == ':' ? m->string + 1 : m->string;
        diag vd;
        diag_init(&vd);
        status st = ST_OK;
        if (!nm[0] || jsonread_has_control(nm) || strchr(nm, ' '))
            st = jsonread_fail(r, "a parameter name is a placeholder name without spaces");
        else if (ddbjson_value_from_cjson(m, NULL, &p->params[p->n_params].example, &vd) != ST_OK)
            st = jsonread_fail(r, "the example value: %s", vd.msg);
        jsonread_pop(r);
        if (st != ST_OK)
            return st;
        p->params[p->n_params++].name = xstrdup(nm);
    }
    return ST_OK;
}

static status read_names(jsonread *r, const cJSON *v, pattern *p)
{
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object of \"#name\": \"attribute\"");
    av_init_list(&p->names, AV_M);
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        jsonread_push_name(r, m->string);
        status st = ST_OK;
        if (m->string[0] != '#')
            st = jsonread_fail(r, "a name placeholder begins with #");
        else if (!cJSON_IsString(m))
            st = jsonread_fail(r, "must be a string (the attribute name)");
        jsonread_pop(r);
        if (st != ST_OK)
            return st;
        av s;
        av_init_s(&s, m->valuestring, strlen(m->valuestring));
        av_map_put(&p->names, m->string, strlen(m->string), &s);
    }
    return ST_OK;
}

static status read_types(jsonread *r, const cJSON *v, const pattern_set *set, pattern *p)
{
    if (!cJSON_IsArray(v) || !cJSON_GetArraySize(v))
        return jsonread_fail(r, "must be a list of entity type names, not empty");
    if (!pattern_set_types_table(set, p->table))
        return jsonread_fail(r, "table %s has no entity rule: add \"entities\": {\"%s\": {\"attribute\": ...}}"
                    " to say how an item's type is told, or \"model\": \"MODEL.json\"", p->table,
                    p->table);
    const ent_table *mt = pattern_set_rule(set, p->table) ? NULL : ent_model_table(&set->model, p->table);
    p->types = xcalloc((size_t)cJSON_GetArraySize(v), sizeof *p->types);
    size_t i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        jsonread_push_index(r, i++);
        status st = jsonread_string(r, m, false, &p->types[p->n_types]);
        if (st == ST_OK && mt && !ent_table_entity(mt, p->types[p->n_types])) {
            buf has = BUF_INIT;
            for (size_t k = 0; k < mt->n; k++)
                buf_printf(&has, "%s%s", k ? ", " : "", mt->e[k].name);
            st = jsonread_fail(r, "the model has no entity %s in table %s (it has: %s)",
                         p->types[p->n_types], p->table, has.len ? has.data : "none");
            buf_done(&has);
        }
        jsonread_pop(r);
        if (st != ST_OK) {
            free(p->types[p->n_types]);
            return st;
        }
        p->n_types++;
    }
    return ST_OK;
}

static status read_expect(jsonread *r, const cJSON *v, const pattern_set *set, pattern *p)
{
    static const char *const members[] = { "entity_types", "max_items", "min_items",
                                           "max_read_units", NULL };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "must be an object");
    status st = jsonread_members(r, v, members);
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        if (st != ST_OK)
            break;
        double x = 0;
        jsonread_push_name(r, m->string);
        if (strcmp(m->string, "entity_types") == 0) {
            st = read_types(r, m, set, p);
        } else if (strcmp(m->string, "max_read_units") == 0) {
            st = jsonread_count(r, m, false, &x);
            p->max_units = x;
        } else {
            st = jsonread_count(r, m, true, &x);
            if (strcmp(m->string, "max_items") == 0)
                p->max_items = (long)x;
            else
                p->min_items = (long)x;
        }
        jsonread_pop(r);
    }
    return st;
}

/* The members every operation needs, and those it cannot have. */
static status check_shape(jsonread *r, const cJSON *v, pattern *p)
{
    const char *need = p->op == PAT_PARTIQL ? "statement" : p->op == PAT_SCAN ? NULL : "key_condition";
    if (need && !cJSON_GetObjectItemCaseSensitive(v, need))
        return jsonread_fail(r, "a %s pattern needs \"%s\"", pattern_op_name(p->op), need);
    static const char *const never[4][3] = {
        { "filter", "index", "statement" },          /* GetItem */
        { "statement", NULL, NULL },                 /* Query */
        { "key_condition", "statement", NULL },      /* Scan */
        { "key_condition", "filter", "index" },      /* PartiQL: all in the statement */
    };
    for (int i = 0; i < 3; i++) {
        const char *m = never[p->op][i];
        if (m && cJSON_GetObjectItemCaseSensitive(v, m)) {
            jsonread_push_name(r, m);
            status st = jsonread_fail(r, "a %s pattern has no %s", pattern_op_name(p->op), m);
            jsonread_pop(r);
            return st;
        }
    }
    return ST_OK;
}

static status read_member(jsonread *r, const cJSON *m, const pattern_set *set, pattern *p)
{
    const char *k = m->string;
    double x = 0;
    status st;
    if (strcmp(k, "description") == 0)
        return jsonread_string(r, m, true, &p->description);
    if (strcmp(k, "index") == 0)
        return jsonread_string(r, m, false, &p->index);
    if (strcmp(k, "key_condition") == 0)
        return jsonread_string(r, m, false, &p->keycond);
    if (strcmp(k, "filter") == 0)
        return jsonread_string(r, m, false, &p->filter);
    if (strcmp(k, "statement") == 0)
        return jsonread_string(r, m, false, &p->statement);
    if (strcmp(k, "names") == 0)
        return read_names(r, m, p);
    if (strcmp(k, "parameters") == 0)
        return read_params(r, m, p);
    if (strcmp(k, "expect") == 0)
        return read_expect(r, m, set, p);
    if (strcmp(k, "scan_forward") == 0) {
        bool fwd = true;
        st = jsonread_bool(r, m, &fwd);
        p->backward = !fwd;
        return st;
    }
    if (strcmp(k, "consistent_read") == 0)
        return jsonread_bool(r, m, &p->consistent);
    if (strcmp(k, "rate") == 0) {
        if (cJSON_IsNumber(m) && m->valuedouble > 0) {
            p->rate = m->valuedouble;
            return ST_OK;
        }
        if (cJSON_IsString(m) && cost_parse_rate(m->valuestring, &p->rate))
            return ST_OK;
        return jsonread_fail(r, "a rate is calls a second above 0: \"200/s\", \"30/min\", \"5000/h\","
                          " \"100000/day\" or a number");
    }
    if (strcmp(k, "limit") == 0) {
        st = jsonread_count(r, m, true, &x);
        if (st == ST_OK && (x < 1 || x > 1e9))
            st = jsonread_fail(r, "must be from 1 to 1000000000");
        p->limit = (uint32_t)x;
        return st;
    }
    return ST_OK;    /* name, operation, table: read first */
}

static status read_head(jsonread *r, const cJSON *v, pattern *p)
{
    static const char *const head[] = { "name", "operation", "table" };
    for (int i = 0; i < 3; i++) {
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(v, head[i]);
        if (!m)
            return jsonread_fail(r, "a pattern needs \"%s\"", head[i]);
        jsonread_push_name(r, head[i]);
        char *s = NULL;
        status st = jsonread_string(r, m, false, &s);
        if (st == ST_OK && i == 0 && jsonread_has_control(s))
            st = jsonread_fail(r, "a name has no control characters");
        if (st == ST_OK && i == 1) {
            int op = pattern_op_find(s);
            if (op < 0)
                st = jsonread_fail(r, "unknown operation '%s' (GetItem, Query, Scan or PartiQL)", s);
            p->op = op < 0 ? PAT_QUERY : (pattern_op)op;
            free(s);
            s = NULL;
        }
        jsonread_pop(r);
        if (i == 0)
            p->name = s;
        else if (i == 2)
            p->table = s;
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

static status read_pattern(jsonread *r, const cJSON *v, const pattern_set *set, pattern *p)
{
    static const char *const members[] = {
        "name", "description", "operation", "table", "index", "key_condition", "filter",
        "statement", "names", "parameters", "limit", "scan_forward", "consistent_read",
        "rate", "expect", NULL,
    };
    if (!cJSON_IsObject(v))
        return jsonread_fail(r, "a pattern is an object");
    status st = jsonread_members(r, v, members);
    if (st == ST_OK)
        st = read_head(r, v, p);
    if (st == ST_OK)
        st = check_shape(r, v, p);
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        if (st != ST_OK)
            break;
        jsonread_push_name(r, m->string);
        st = read_member(r, m, set, p);
        jsonread_pop(r);
    }
    return st;
}

static status read_patterns(jsonread *r, const cJSON *v, pattern_set *set)
{
    if (!cJSON_IsArray(v))
        return jsonread_fail(r, "must be a list of patterns");
    size_t i = 0;
    const cJSON *m;
    cJSON_ArrayForEach(m, v) {
        jsonread_push_index(r, i++);
        pattern p;
        pattern_init(&p);
        status st = read_pattern(r, m, set, &p);
        for (size_t k = 0; st == ST_OK && k < set->n; k++)
            if (strcmp(set->p[k].name, p.name) == 0) {
                jsonread_push_name(r, "name");
                st = jsonread_fail(r, "a second pattern named %s (names are unique in a file)", p.name);
                jsonread_pop(r);
            }
        if (st == ST_OK) {
            p.file = xstrdup(r->file);
            jsonread_where(r, &p.line, &p.col, NULL);
            set->p = xrealloc(set->p, (set->n + 1) * sizeof *set->p);
            set->p[set->n++] = p;
        } else {
            pattern_done(&p);
        }
        jsonread_pop(r);
        if (st != ST_OK)
            return st;
    }
    return ST_OK;
}

/* The model file named by a pattern file: a relative path is taken from
 * the pattern file's folder. Its errors are its own (file, line, column). */
static status load_model(const char *file, const char *path, pattern_set *set, diag *d)
{
    buf full = BUF_INIT;
    const char *slash = strrchr(file, '/');
    if (path[0] != '/' && slash)
        buf_printf(&full, "%.*s/", (int)(slash - file), file);
    buf_adds(&full, path);
    ent_model m;
    ent_model_init(&m);
    status st = model_file_load(full.data, &m, d);
    if (st == ST_OK)
        pattern_set_take_model(set, &m);
    ent_model_done(&m);
    buf_done(&full);
    return st;
}

status pattern_file_parse(const char *file, const char *text, size_t len, pattern_set *set,
                          diag *d)
{
    static const char *const members[] = { "entities", "model", "patterns", NULL };
    jsonread r;
    jsonread_init(&r, file, text, len, d);
    cJSON *root = NULL;
    pattern_set add;
    pattern_set_init(&add);
    status st = jsonread_parse(&r, &root);
    if (st != ST_OK)
        return st;
    if (!cJSON_IsObject(root)) {
        st = jsonread_fail(&r, "a pattern file is an object: {\"entities\": {...}, \"patterns\": [...]}");
        goto out;
    }
    st = jsonread_members(&r, root, members);
    const cJSON *ents = cJSON_GetObjectItemCaseSensitive(root, "entities");
    if (st == ST_OK && ents) {
        jsonread_push_name(&r, "entities");
        st = read_entities(&r, ents, &add);
        jsonread_pop(&r);
    }
    const cJSON *model = cJSON_GetObjectItemCaseSensitive(root, "model");
    if (st == ST_OK && model) {
        jsonread_push_name(&r, "model");
        char *path = NULL;
        st = jsonread_string(&r, model, false, &path);
        if (st == ST_OK && (st = load_model(file, path, &add, d)) == ST_IO) {
            /* Cannot be read: said at the member that names it. */
            char why[sizeof d->msg];
            snprintf(why, sizeof why, "%s", d->msg);
            st = jsonread_fail(&r, "the model file %s: %s", path, why);
        }
        free(path);
        jsonread_pop(&r);
    }
    /* A file may lean on the rules of files read before it. */
    pattern_set_merge_rules(&add, set);
    const cJSON *pats = cJSON_GetObjectItemCaseSensitive(root, "patterns");
    if (st == ST_OK && !pats)
        st = jsonread_fail(&r, "a pattern file needs \"patterns\": [...]");
    if (st == ST_OK) {
        jsonread_push_name(&r, "patterns");
        st = read_patterns(&r, pats, &add);
        jsonread_pop(&r);
    }
    if (st == ST_OK) {
        for (size_t i = 0; i < add.n; i++)
            pattern_set_put(set, &add.p[i]);
        pattern_set_merge_rules(set, &add);
    }
out:
    pattern_set_done(&add);
    cJSON_Delete(root);
    return st;
}

status pattern_file_load(const char *path, pattern_set *set, diag *d)
{
    buf b = BUF_INIT;
    status st = jsonread_load(path, &b, d);
    if (st == ST_OK)
        st = pattern_file_parse(path, b.data, b.len, set, d);
    buf_done(&b);
    return st;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void pattern_file_list_dir(const char *dir, char ***paths, size_t *n)
{
    *paths = NULL;
    *n = 0;
    DIR *dh = opendir(dir);
    if (!dh)
        return;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        size_t len = strlen(e->d_name);
        if (len > 5 && e->d_name[0] != '.' && strcmp(e->d_name + len - 5, ".json") == 0) {
            buf path = BUF_INIT;
            buf_printf(&path, "%s/%s", dir, e->d_name);
            *paths = xrealloc(*paths, (*n + 1) * sizeof **paths);
            (*paths)[(*n)++] = buf_steal(&path);
        }
    }
    closedir(dh);
    if (*n)
        qsort(*paths, *n, sizeof **paths, by_name);
}

status pattern_file_load_dir(const char *dir, pattern_set *set, diag *d)
{
    char **paths;
    size_t n;
    pattern_file_list_dir(dir, &paths, &n);
    status first = ST_OK;
    for (size_t i = 0; i < n; i++) {
        diag fd;
        diag_init(&fd);
        status st = pattern_file_load(paths[i], set, &fd);
        if (st != ST_OK && first == ST_OK) {
            first = st;
            *d = fd;
        }
        free(paths[i]);
    }
    free(paths);
    return first;
}

/* ---- writing ----------------------------------------------------------- */

static void str_member(buf *out, const char *indent, const char *name, const char *val)
{
    if (!val)
        return;
    buf_printf(out, ",\n%s\"%s\": ", indent, name);
    ddbjson_write_string(out, val, strlen(val));
}

static void write_rules(const pattern_set *set, buf *out)
{
    buf_adds(out, "  \"entities\": {");
    for (size_t i = 0; i < set->n_rules; i++) {
        const pattern_rule *r = &set->rules[i];
        buf_adds(out, i ? ",\n    " : "\n    ");
        ddbjson_write_string(out, r->table, strlen(r->table));
        buf_adds(out, ": {\"attribute\": ");
        ddbjson_write_string(out, r->attr, strlen(r->attr));
        if (r->n) {
            buf_adds(out, ", \"prefixes\": {");
            for (size_t k = 0; k < r->n; k++) {
                buf_adds(out, k ? ", " : "");
                ddbjson_write_string(out, r->prefix[k], strlen(r->prefix[k]));
                buf_adds(out, ": ");
                ddbjson_write_string(out, r->type[k], strlen(r->type[k]));
            }
            buf_adds(out, "}");
        }
        buf_adds(out, "}");
    }
    buf_adds(out, set->n_rules ? "\n  },\n" : "},\n");
}

static void write_expect(const pattern *p, buf *out)
{
    if (!p->n_types && p->max_items < 0 && p->max_units < 0 && p->min_items == 1)
        return;
    buf_adds(out, ",\n      \"expect\": {");
    const char *sep = "";
    if (p->n_types) {
        buf_adds(out, "\"entity_types\": [");
        for (size_t i = 0; i < p->n_types; i++) {
            buf_adds(out, i ? ", " : "");
            ddbjson_write_string(out, p->types[i], strlen(p->types[i]));
        }
        buf_adds(out, "]");
        sep = ", ";
    }
    if (p->max_items >= 0) {
        buf_printf(out, "%s\"max_items\": %ld", sep, p->max_items);
        sep = ", ";
    }
    if (p->min_items != 1) {
        buf_printf(out, "%s\"min_items\": %ld", sep, p->min_items);
        sep = ", ";
    }
    if (p->max_units >= 0)
        buf_printf(out, "%s\"max_read_units\": %g", sep, p->max_units);
    buf_adds(out, "}");
}

static void write_pattern(const pattern *p, buf *out)
{
    const char *in = "      ";
    buf_adds(out, "    {\n      \"name\": ");
    ddbjson_write_string(out, p->name, strlen(p->name));
    str_member(out, in, "description", p->description);
    str_member(out, in, "operation", pattern_op_name(p->op));
    str_member(out, in, "table", p->table);
    str_member(out, in, "index", p->index);
    str_member(out, in, "key_condition", p->keycond);
    str_member(out, in, "filter", p->filter);
    str_member(out, in, "statement", p->statement);
    if (p->names.type == AV_M && p->names.u.m.len) {
        buf_adds(out, ",\n      \"names\": ");
        ddbjson_write_plain_item(out, &p->names);
    }
    if (p->n_params) {
        buf_adds(out, ",\n      \"parameters\": {");
        for (size_t i = 0; i < p->n_params; i++) {
            buf_adds(out, i ? ", " : "");
            ddbjson_write_string(out, p->params[i].name, strlen(p->params[i].name));
            buf_adds(out, ": ");
            ddbjson_write_value(out, &p->params[i].example);
        }
        buf_adds(out, "}");
    }
    if (p->limit)
        buf_printf(out, ",\n      \"limit\": %u", (unsigned)p->limit);
    if (p->backward)
        buf_adds(out, ",\n      \"scan_forward\": false");
    if (p->consistent)
        buf_adds(out, ",\n      \"consistent_read\": true");
    if (p->rate > 0) {
        buf_adds(out, ",\n      \"rate\": \"");
        cost_rate_text(p->rate, out);
        buf_addc(out, '"');
    }
    write_expect(p, out);
    buf_adds(out, "\n    }");
}

void pattern_file_write(const pattern_set *set, buf *out)
{
    buf_adds(out, "{\n");
    write_rules(set, out);
    buf_adds(out, "  \"patterns\": [");
    for (size_t i = 0; i < set->n; i++) {
        buf_adds(out, i ? ",\n" : "\n");
        write_pattern(&set->p[i], out);
    }
    buf_adds(out, set->n ? "\n  ]\n}\n" : "]\n}\n");
}

status pattern_file_write_text(const char *path, const char *data, size_t len, diag *d)
{
    buf tmp = BUF_INIT;
    buf_printf(&tmp, "%s.tmp.%ld", path, (long)getpid());
    FILE *f = fopen(tmp.data, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    ok = f && fclose(f) == 0 && ok;
    ok = ok && rename(tmp.data, path) == 0;
    status st = ST_OK;
    if (!ok) {
        snprintf(d->file, sizeof d->file, "%s", path);
        st = diag_set(d, ST_IO, "cannot write: %s", strerror(errno));
        unlink(tmp.data);
    }
    buf_done(&tmp);
    return st;
}

status pattern_file_save(const char *path, const pattern_set *set, diag *d)
{
    buf b = BUF_INIT;
    pattern_file_write(set, &b);
    status st = pattern_file_write_text(path, b.data, b.len, d);
    buf_done(&b);
    return st;
}
