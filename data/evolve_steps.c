/*
 * evolve_steps — reading `ddbx evolve`'s log (see evolve_steps.h).
 */
#include "data/evolve_steps.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

static char *str_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(v) ? xstrdup(v->valuestring) : NULL;
}

static long long num_of(const cJSON *o, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsNumber(v) ? (long long)v->valuedouble : -1;
}

status evolve_steps_read(const char *path, evolve_step **out, size_t *n, size_t *bad, diag *d)
{
    *out = NULL;
    *n = 0;
    *bad = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return errno == ENOENT ? ST_OK : diag_set(d, ST_IO, "%s: %s", path, strerror(errno));
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, f)) > 0) {
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            len--;
        if (len == 0)
            continue;
        cJSON *o = NULL;
        diag pd;
        diag_init(&pd);
        if (ddbjson_cjson_parse(line, (size_t)len, &o, &pd) != ST_OK || !cJSON_IsObject(o)) {
            (*bad)++;
            cJSON_Delete(o);
            continue;
        }
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[(*n)++] = (evolve_step){
            .time = str_of(o, "time"), .table = str_of(o, "table"), .index = str_of(o, "index"),
            .hash = str_of(o, "hash"), .range = str_of(o, "range"), .status = str_of(o, "step"),
            .updated = num_of(o, "written"), .skipped = num_of(o, "left_out"),
        };
        cJSON_Delete(o);
    }
    free(line);
    fclose(f);
    return ST_OK;
}

void evolve_steps_free(evolve_step *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(s[i].time), free(s[i].table), free(s[i].index), free(s[i].hash), free(s[i].range);
        free(s[i].status);
    }
    free(s);
}
