/*
 * creds_config — the AWS CLI's two files (config and credentials), read as
 * botocore reads them, and the settings taken from them and from the
 * environment (region, endpoints, ca_bundle...). Part of creds (see
 * creds.h, creds_int.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "data/creds_int.h"
#include "model/mem.h"

/* A file path: the variable's value, else ~/.aws/NAME. */
static char *aws_file(const char *var, const char *name)
{
    if (creds_env(var))
        return xstrdup(creds_env(var));
    char rel[64];
    snprintf(rel, sizeof rel, ".aws/%s", name);
    return creds_home_path(rel);
}

/* ---- the two files, as botocore reads them ------------------------------
 *
 * Every file is read once per resolution into entries (file, section,
 * key, sub-key, value). Sections are normalised: the config file's
 * "[profile   x]" and "[default]" become "profile x" / "profile default",
 * "[sso-session  s]" "sso-session s", "[services  s]" "services s"; the
 * credentials file's "[x]" is "profile x". `#`/`;` lines are comments;
 * indented "k = v" lines under a key with an empty value are its
 * sub-values (services' "dynamodb =\n  endpoint_url = ..."); the last of
 * duplicate keys wins, as in configparser. A section alone is an entry
 * with no key (so an empty profile still exists). */

static void cfg_add(cfg *c, int file, const char *sec, const char *key, const char *sub,
                    const char *val)
{
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 32;
        c->v = xrealloc(c->v, c->cap * sizeof *c->v);
    }
    cent *e = &c->v[c->n++];
    e->file = file;
    e->sec = xstrdup(sec);
    e->key = key ? xstrdup(key) : NULL;
    e->sub = sub ? xstrdup(sub) : NULL;
    e->val = val ? xstrdup(val) : NULL;
}

void creds_cfg_free(cfg *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].sec);
        free(c->v[i].key);
        free(c->v[i].sub);
        creds_wipe_free(c->v[i].val);
    }
    free(c->v);
    free(c->conf);
    free(c->cred);
    memset(c, 0, sizeof *c);
}

static void norm_section(int file, char *name, char *out, size_t n)
{
    name = creds_trim(name);
    if (file == F_CRED) {
        snprintf(out, n, "profile %s", name);
        return;
    }
    static const char *const kinds[] = { "profile", "sso-session", "services" };
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(kinds[i]);
        if (strncmp(name, kinds[i], k) == 0 && (name[k] == ' ' || name[k] == '\t')) {
            snprintf(out, n, "%s %s", kinds[i], creds_trim(name + k + 1));
            return;
        }
    }
    if (strcmp(name, "default") == 0)
        snprintf(out, n, "profile default");
    else
        snprintf(out, n, "%s", name);
}

/* 0 read (or no file), -1 unreadable. */
static int cfg_read(cfg *c, int file, const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
    char *line = NULL;
    size_t cap = 0;
    char sec[512] = "";
    char last[256] = "";   /* the last key, when its value was empty */
    int in = 0;
    while (getline(&line, &cap, fp) >= 0) {
        int indented = line[0] == ' ' || line[0] == '\t';
        char *t = creds_trim(line);
        if (*t == '\0' || *t == '#' || *t == ';')
            continue;
        if (indented) {
            char *eq = strchr(t, '=');
            if (in && last[0] && eq) {
                *eq = '\0';
                cfg_add(c, file, sec, last, creds_trim(t), creds_trim(eq + 1));
            }
            continue;
        }
        if (*t == '[') {
            char *end = strrchr(t, ']');
            last[0] = '\0';
            if (!end) {
                in = 0;
                continue;
            }
            *end = '\0';
            norm_section(file, t + 1, sec, sizeof sec);
            in = 1;
            cfg_add(c, file, sec, NULL, NULL, NULL);
            continue;
        }
        char *eq = strchr(t, '=');
        if (!in || !eq) {
            last[0] = '\0';
            continue;
        }
        *eq = '\0';
        char *k = creds_trim(t), *v = creds_trim(eq + 1);
        cfg_add(c, file, sec, k, NULL, v);
        snprintf(last, sizeof last, "%s", *v ? "" : k);
    }
    int bad = ferror(fp) ? -1 : 0;
    if (line)
        memset(line, 0, cap);
    free(line);
    fclose(fp);
    return bad;
}

status creds_cfg_load(cfg *c, diag *d)
{
    memset(c, 0, sizeof *c);
    c->conf = aws_file("AWS_CONFIG_FILE", "config");
    c->cred = aws_file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
    if (cfg_read(c, F_CONF, c->conf) < 0)
        return diag_set(d, ST_IO, "cannot read %s", c->conf);
    if (cfg_read(c, F_CRED, c->cred) < 0)
        return diag_set(d, ST_IO, "cannot read %s", c->cred);
    return ST_OK;
}

/* The value of key (sub NULL: the top-level one) in sec of the files in
 * mask, the credentials file over the config file; NULL when absent. */
const char *creds_cfg_find(const cfg *c, int mask, const char *sec, const char *key,
                            const char *sub, int *from)
{
    for (int f = F_CRED; f >= F_CONF; f--) {
        if (!(mask & f))
            continue;
        const char *v = NULL;
        for (size_t i = 0; i < c->n; i++) {
            const cent *e = &c->v[i];
            if (e->file != f || !e->key || strcmp(e->sec, sec) != 0 || strcmp(e->key, key) != 0)
                continue;
            if ((sub == NULL) != (e->sub == NULL) || (sub && strcmp(sub, e->sub) != 0))
                continue;
            v = e->val;
        }
        if (v) {
            if (from)
                *from = f;
            return v;
        }
    }
    return NULL;
}

int creds_cfg_has_section(const cfg *c, const char *sec)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->v[i].sec, sec) == 0)
            return 1;
    return 0;
}

/* A profile's key, non-empty, from either file. */
const char *creds_pget(const cfg *c, const char *prof, const char *key)
{
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", prof);
    const char *v = creds_cfg_find(c, F_CONF | F_CRED, sec, key, NULL, NULL);
    return v && *v ? v : NULL;
}

/* "PATH [SECTION]" for messages. */
void creds_where_of(const cfg *c, int file, const char *prof, char *out, size_t n)
{
    if (file == F_CRED)
        snprintf(out, n, "%s [%s]", c->cred, prof);
    else
        snprintf(out, n, "%s [profile %s]", c->conf, prof);
}

/* ---- settings ------------------------------------------------------------ */

const char *creds_conf_setting(const char *var, const cfg *c, const char *prof, const char *key)
{
    if (var && creds_env(var))
        return creds_env(var);
    return creds_pget(c, prof, key);
}

status creds_setting(const char *var, const char *profile, const char *key, char **out,
                     diag *d)
{
    *out = NULL;
    if (var && creds_env(var)) {
        *out = xstrdup(creds_env(var));
        return ST_OK;
    }
    cfg c;
    status st = creds_cfg_load(&c, d);
    if (st == ST_OK) {
        const char *v = creds_pget(&c, creds_profile_name(profile), key);
        *out = v ? xstrdup(v) : NULL;
    }
    creds_cfg_free(&c);
    return st;
}

const char *creds_region_of(const cfg *c, const char *prof)
{
    if (creds_env("AWS_REGION"))
        return creds_env("AWS_REGION");
    return creds_conf_setting("AWS_DEFAULT_REGION", c, prof, "region");
}

status creds_region(const char *profile, char **out, diag *d)
{
    *out = NULL;
    if (creds_env("AWS_REGION") || creds_env("AWS_DEFAULT_REGION")) {
        *out = xstrdup(creds_env("AWS_REGION") ? creds_env("AWS_REGION") : creds_env("AWS_DEFAULT_REGION"));
        return ST_OK;
    }
    cfg c;
    status st = creds_cfg_load(&c, d);
    if (st == ST_OK) {
        const char *v = creds_region_of(&c, creds_profile_name(profile));
        *out = v ? xstrdup(v) : NULL;
    }
    creds_cfg_free(&c);
    return st;
}

const char *creds_endpoint_of(const char *var, const cfg *c, const char *prof,
                               const char *service)
{
    if (creds_is_true(creds_conf_setting("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", c, prof,
                        "ignore_configured_endpoint_urls")))
        return NULL;
    if (creds_env(var))
        return creds_env(var);
    if (creds_env("AWS_ENDPOINT_URL"))
        return creds_env("AWS_ENDPOINT_URL");
    const char *svc = creds_pget(c, prof, "services");
    if (svc) {
        char sec[512];
        snprintf(sec, sizeof sec, "services %s", svc);
        const char *v = creds_cfg_find(c, F_CONF, sec, service, "endpoint_url", NULL);
        if (v && *v)
            return v;
    }
    return creds_pget(c, prof, "endpoint_url");
}

status creds_endpoint(const char *var, const char *profile, const char *service, char **out,
                      diag *d)
{
    *out = NULL;
    cfg c;
    status st = creds_cfg_load(&c, d);
    if (st == ST_OK) {
        const char *v = creds_endpoint_of(var, &c, creds_profile_name(profile), service);
        *out = v ? xstrdup(v) : NULL;
    }
    creds_cfg_free(&c);
    return st;
}

