/*
 * record_read — a `ddbx serve --record` file into model/mine (see
 * record.h): each line read with cJSON, its members handed over as a
 * mine_call of borrowed strings.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data/record.h"
#include "model/ddbjson.h"

#define MAX_PAIRS 64

static const char *str_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double num_of(const cJSON *o, const char *name, bool *has)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    if (has)
        *has = cJSON_IsNumber(v);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

/* The string members of an object as pairs (at most MAX_PAIRS). */
static size_t pairs_of(const cJSON *o, const char *name, mine_pair *out)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
    size_t n = 0;
    for (const cJSON *e = cJSON_IsObject(m) ? m->child : NULL; e && n < MAX_PAIRS; e = e->next)
        if (cJSON_IsString(e))
            out[n++] = (mine_pair){ e->string, e->valuestring };
    return n;
}

/* One parsed line into m; false when it is no record line. */
static bool add_line(mine *m, const cJSON *o)
{
    mine_call c = { 0 };
    c.op = str_of(o, "op");
    if (!c.op)
        return false;
    mine_pair names[MAX_PAIRS], values[MAX_PAIRS], key[MAX_PAIRS];
    const char *declared[MAX_PAIRS];
    c.table = str_of(o, "table");
    c.index = str_of(o, "index");
    c.keycond = str_of(o, "key_condition");
    c.filter = str_of(o, "filter");
    c.projection = str_of(o, "projection");
    c.select = str_of(o, "select");
    c.names = names;
    c.n_names = pairs_of(o, "names", names);
    c.values = values;
    c.n_values = pairs_of(o, "values", values);
    c.key = key;
    c.n_key = pairs_of(o, "key", key);
    const cJSON *ix = cJSON_GetObjectItemCaseSensitive(o, "indexes");
    for (const cJSON *e = cJSON_IsArray(ix) ? ix->child : NULL; e && c.n_declared < MAX_PAIRS; e = e->next)
        if (cJSON_IsString(e))
            declared[c.n_declared++] = e->valuestring;
    c.declared = declared;
    c.limit = (long)num_of(o, "limit", NULL);
    c.consistent = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "consistent"));
    c.backward = cJSON_IsFalse(cJSON_GetObjectItemCaseSensitive(o, "forward"));
    c.t = num_of(o, "t", NULL);
    c.units = num_of(o, "units", NULL);
    c.ms = num_of(o, "ms", NULL);
    c.count = (uint64_t)num_of(o, "count", &c.has_count);
    c.scanned = (uint64_t)num_of(o, "scanned", NULL);
    c.error = cJSON_GetObjectItemCaseSensitive(o, "error") != NULL;
    mine_add(m, &c);
    return true;
}

status record_read(const char *path, mine *m, uint64_t *lines, uint64_t *bad, buf *bad_at, diag *d)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return diag_set(d, ST_IO, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        (*lines)++;
        while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            n--;
        if (n == 0)
            continue;
        cJSON *o = NULL;
        diag pd;
        diag_init(&pd);
        bool ok = ddbjson_cjson_parse(line, (size_t)n, &o, &pd) == ST_OK && cJSON_IsObject(o) && add_line(m, o);
        cJSON_Delete(o);
        if (!ok && (*bad)++ == 0 && bad_at)
            buf_printf(bad_at, "%s:%" PRIu64 ": %s", path, *lines, pd.msg[0] ? pd.msg : "not a record line");
    }
    bool err = ferror(f);
    free(line);
    fclose(f);
    if (err)
        return diag_set(d, ST_IO, "%s: a read failed", path);
    return ST_OK;
}
