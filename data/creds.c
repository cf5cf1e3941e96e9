/*
 * creds — the AWS credential chain and the CLI's settings (see creds.h).
 * The HTTP calls are in creds_net.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "data/creds.h"
#include "data/sigv4.h"
#include "data/creds_net.h"
#include "data/sigv4.h"
#include "model/buf.h"
#include "model/mem.h"

extern char **environ;

#define REFRESH_EARLY 300        /* in memory: fetched again 5 minutes before expiry */
#define CACHE_WINDOW 900         /* the CLI's caches: used while 15 minutes are left */
#define MAX_CHAIN 16

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static int is_true(const char *v)
{
    return v && strcasecmp(v, "true") == 0;
}

const char *creds_profile_name(const char *profile)
{
    if (profile && *profile)
        return profile;
    return env("AWS_PROFILE") ? env("AWS_PROFILE") : "default";
}

/* A path under the home directory: ~/REL. */
static char *home_path(const char *rel)
{
    const char *home = env("HOME");
    size_t n = strlen(home ? home : ".") + strlen(rel) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", home ? home : ".", rel);
    return p;
}

/* A file path: the variable's value, else ~/.aws/NAME. */
static char *aws_file(const char *var, const char *name)
{
    if (env(var))
        return xstrdup(env(var));
    char rel[64];
    snprintf(rel, sizeof rel, ".aws/%s", name);
    return home_path(rel);
}

static void wipe(char *s)
{
    if (s)
        for (volatile char *p = s; *p; p++)
            *p = 0;
}

static void wipe_free(char *s)
{
    wipe(s);
    free(s);
}

void creds_done(creds *c)
{
    if (!c)
        return;
    free(c->access_key);
    wipe_free(c->secret_key);
    wipe_free(c->session_token);
    memset(c, 0, sizeof *c);
}

void creds_copy(creds *dst, const creds *src)
{
    memset(dst, 0, sizeof *dst);
    dst->access_key = src->access_key ? xstrdup(src->access_key) : NULL;
    dst->secret_key = src->secret_key ? xstrdup(src->secret_key) : NULL;
    dst->session_token = src->session_token ? xstrdup(src->session_token) : NULL;
    dst->expires = src->expires;
    memcpy(dst->source, src->source, sizeof dst->source);
    memcpy(dst->identity, src->identity, sizeof dst->identity);
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
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

enum { F_CONF = 1, F_CRED = 2 };

typedef struct cent {
    int file;
    char *sec, *key, *sub, *val;
} cent;

typedef struct cfg {
    cent *v;
    size_t n, cap;
    char *conf, *cred;   /* the paths */
} cfg;

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

static void cfg_free(cfg *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->v[i].sec);
        free(c->v[i].key);
        free(c->v[i].sub);
        wipe_free(c->v[i].val);
    }
    free(c->v);
    free(c->conf);
    free(c->cred);
    memset(c, 0, sizeof *c);
}

static void norm_section(int file, char *name, char *out, size_t n)
{
    name = trim(name);
    if (file == F_CRED) {
        snprintf(out, n, "profile %s", name);
        return;
    }
    static const char *const kinds[] = { "profile", "sso-session", "services" };
    for (size_t i = 0; i < 3; i++) {
        size_t k = strlen(kinds[i]);
        if (strncmp(name, kinds[i], k) == 0 && (name[k] == ' ' || name[k] == '\t')) {
            snprintf(out, n, "%s %s", kinds[i], trim(name + k + 1));
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
        char *t = trim(line);
        if (*t == '\0' || *t == '#' || *t == ';')
            continue;
        if (indented) {
            char *eq = strchr(t, '=');
            if (in && last[0] && eq) {
                *eq = '\0';
                cfg_add(c, file, sec, last, trim(t), trim(eq + 1));
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
        char *k = trim(t), *v = trim(eq + 1);
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

static status cfg_load(cfg *c, diag *d)
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
static const char *cfg_find(const cfg *c, int mask, const char *sec, const char *key,
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

static int cfg_has_section(const cfg *c, const char *sec)
{
    for (size_t i = 0; i < c->n; i++)
        if (strcmp(c->v[i].sec, sec) == 0)
            return 1;
    return 0;
}

/* A profile's key, non-empty, from either file. */
static const char *pget(const cfg *c, const char *prof, const char *key)
{
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", prof);
    const char *v = cfg_find(c, F_CONF | F_CRED, sec, key, NULL, NULL);
    return v && *v ? v : NULL;
}

/* "PATH [SECTION]" for messages. */
static void where_of(const cfg *c, int file, const char *prof, char *out, size_t n)
{
    if (file == F_CRED)
        snprintf(out, n, "%s [%s]", c->cred, prof);
    else
        snprintf(out, n, "%s [profile %s]", c->conf, prof);
}

/* ---- credential_process ------------------------------------------------- */

char **creds_split_command(const char *cmd)
{
    size_t cap = 8, n = 0;
    char **argv = xcalloc(cap, sizeof *argv);
    const char *p = cmd;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        buf w = BUF_INIT;
        buf_adds(&w, "");
        while (*p && *p != ' ' && *p != '\t' && *p != '\n') {
            if (*p == '\'') {
                const char *e = strchr(p + 1, '\'');
                if (!e) {
                    buf_done(&w);
                    goto bad;
                }
                buf_add(&w, p + 1, (size_t)(e - p - 1));
                p = e + 1;
            } else if (*p == '"') {
                p++;
                while (*p && *p != '"') {
                    if (*p == '\\' && p[1] && strchr("\"\\$`\n", p[1]))
                        p++;
                    buf_addc(&w, *p++);
                }
                if (*p != '"') {
                    buf_done(&w);
                    goto bad;
                }
                p++;
            } else if (*p == '\\') {
                if (!p[1]) {
                    buf_done(&w);
                    goto bad;
                }
                buf_addc(&w, p[1]);
                p += 2;
            } else {
                buf_addc(&w, *p++);
            }
        }
        if (n + 2 > cap) {
            cap *= 2;
            argv = xrealloc(argv, cap * sizeof *argv);
        }
        argv[n++] = buf_steal(&w);
        argv[n] = NULL;
    }
    if (n == 0)
        goto bad;
    return argv;
bad:
    creds_argv_free(argv);
    return NULL;
}

void creds_argv_free(char **argv)
{
    if (!argv)
        return;
    for (char **a = argv; *a; a++)
        free(*a);
    free(argv);
}

long long creds_parse_time(const char *s)
{
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    int y, mo, da, h, mi, se;
    if (sscanf(s, "%d-%d-%dT%d:%d:%d", &y, &mo, &da, &h, &mi, &se) != 6)
        return -1;
    tm.tm_year = y - 1900;
    tm.tm_mon = mo - 1;
    tm.tm_mday = da;
    tm.tm_hour = h;
    tm.tm_min = mi;
    tm.tm_sec = se;
    return (long long)timegm(&tm);
}

static status run_process(const char *cmd, const char *where, creds *out, diag *d)
{
    status st = ST_IO;
    char **argv = creds_split_command(cmd);
    int fds[2] = { -1, -1 };
    pid_t pid = -1;
    buf o = BUF_INIT;
    cJSON *j = NULL;
    posix_spawn_file_actions_t fa;
    int fa_ok = 0;
    if (!argv) {
        st = diag_set(d, ST_IO, "credential_process in %s: cannot split the command "
                      "(an unterminated quote?)", where);
        goto out;
    }
    if (pipe(fds) != 0) {
        st = diag_set(d, ST_IO, "credential_process: pipe: %s", strerror(errno));
        goto out;
    }
    posix_spawn_file_actions_init(&fa);
    fa_ok = 1;
    posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
    posix_spawn_file_actions_addclose(&fa, fds[0]);
    posix_spawn_file_actions_addclose(&fa, fds[1]);
    int e = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    close(fds[1]);
    fds[1] = -1;
    if (e != 0) {
        pid = -1;
        st = diag_set(d, ST_IO, "credential_process in %s: cannot run %s: %s", where,
                      argv[0], strerror(e));
        goto out;
    }
    char tmp[4096];
    ssize_t r;
    while ((r = read(fds[0], tmp, sizeof tmp)) != 0) {
        if (r < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (o.len < (1u << 20))
            buf_add(&o, tmp, (size_t)r);
    }
    int ws = 0;
    while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
        ;
    pid = -1;
    if (!WIFEXITED(ws) || WEXITSTATUS(ws) != 0) {
        /* Its output is not shown: it may hold a secret. */
        st = diag_set(d, ST_IO, "credential_process in %s (%s) failed: %s %d", where, argv[0],
                      WIFEXITED(ws) ? "exit status" : "signal",
                      WIFEXITED(ws) ? WEXITSTATUS(ws) : WTERMSIG(ws));
        goto out;
    }
    buf_addc(&o, '\0');
    j = cJSON_Parse(o.data);
    const cJSON *ver = cJSON_GetObjectItemCaseSensitive(j, "Version");
    const cJSON *ak = cJSON_GetObjectItemCaseSensitive(j, "AccessKeyId");
    const cJSON *sk = cJSON_GetObjectItemCaseSensitive(j, "SecretAccessKey");
    const cJSON *tok = cJSON_GetObjectItemCaseSensitive(j, "SessionToken");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(j, "Expiration");
    if (!cJSON_IsObject(j)) {
        st = diag_set(d, ST_IO, "credential_process in %s: its output is not a JSON object",
                      where);
        goto out;
    }
    if (!cJSON_IsNumber(ver) || ver->valuedouble != 1) {
        st = diag_set(d, ST_IO, "credential_process in %s: unsupported Version (must be 1)",
                      where);
        goto out;
    }
    if (!cJSON_IsString(ak) || !*ak->valuestring || !cJSON_IsString(sk) ||
        !*sk->valuestring) {
        st = diag_set(d, ST_IO, "credential_process in %s: AccessKeyId or SecretAccessKey "
                      "missing from its output", where);
        goto out;
    }
    long long expires = 0;
    if (cJSON_IsString(exp)) {
        expires = creds_parse_time(exp->valuestring);
        if (expires < 0) {
            st = diag_set(d, ST_IO, "credential_process in %s: Expiration is not an ISO 8601 "
                          "time", where);
            goto out;
        }
        if (expires <= (long long)time(NULL)) {
            st = diag_set(d, ST_IO, "credential_process in %s: the credentials it gave have "
                          "already expired (%s)", where, exp->valuestring);
            goto out;
        }
    }
    out->access_key = xstrdup(ak->valuestring);
    out->secret_key = xstrdup(sk->valuestring);
    out->session_token = cJSON_IsString(tok) && *tok->valuestring ?
                         xstrdup(tok->valuestring) : NULL;
    out->expires = expires;
    snprintf(out->source, sizeof out->source, "credential_process in %s", where);
    st = ST_OK;
out:
    if (j) {
        /* wipe the secret before freeing the parsed tree */
        cJSON *s = cJSON_GetObjectItemCaseSensitive(j, "SecretAccessKey");
        if (cJSON_IsString(s))
            for (volatile char *p = s->valuestring; *p; p++)
                *p = 0;
        cJSON_Delete(j);
    }
    if (o.data)
        memset(o.data, 0, o.len);
    buf_done(&o);
    if (fa_ok)
        posix_spawn_file_actions_destroy(&fa);
    if (fds[0] >= 0)
        close(fds[0]);
    if (fds[1] >= 0)
        close(fds[1]);
    creds_argv_free(argv);
    return st;
}


/* Static keys from one file's profile section: 1 found, 0 none, -1 error. */
static int static_keys(const cfg *c, int file, const char *prof, creds *out, diag *d)
{
    char sec[512], where[1100];
    snprintf(sec, sizeof sec, "profile %s", prof);
    where_of(c, file, prof, where, sizeof where);
    const char *ak = cfg_find(c, file, sec, "aws_access_key_id", NULL, NULL);
    const char *sk = cfg_find(c, file, sec, "aws_secret_access_key", NULL, NULL);
    const char *tok = cfg_find(c, file, sec, "aws_session_token", NULL, NULL);
    if (!ak && !sk)
        return 0;
    if (!ak || !*ak || !sk || !*sk) {
        diag_set(d, ST_USAGE, "%s has %s but not %s", where,
                 ak && *ak ? "aws_access_key_id" : "aws_secret_access_key",
                 ak && *ak ? "aws_secret_access_key" : "aws_access_key_id");
        return -1;
    }
    out->access_key = xstrdup(ak);
    out->secret_key = xstrdup(sk);
    out->session_token = tok && *tok ? xstrdup(tok) : NULL;
    snprintf(out->source, sizeof out->source, "%s", where);
    return 1;
}

static int has_static(const cfg *c, const char *prof)
{
    return pget(c, prof, "aws_access_key_id") != NULL;
}

/* ---- hashes and the CLI's caches --------------------------------------- */

void creds_sha1_hex(const char *s, char out[41])
{
    sigv4_sha1_hex(s, strlen(s), out);
}

/* json.dumps(args, sort_keys=True, separators=(',', ':')) of botocore's
 * AssumeRole arguments without RoleSessionName, hashed. */
void creds_assume_cache_key(const char *role_arn, const char *external_id,
                            const char *mfa_serial, long duration, char out[41])
{
    cJSON *o = cJSON_CreateObject();
    if (duration > 0)
        cJSON_AddNumberToObject(o, "DurationSeconds", (double)duration);
    if (external_id)
        cJSON_AddStringToObject(o, "ExternalId", external_id);
    cJSON_AddStringToObject(o, "RoleArn", role_arn);
    if (mfa_serial)
        cJSON_AddStringToObject(o, "SerialNumber", mfa_serial);
    char *s = cJSON_PrintUnformatted(o);   /* members already in sorted order */
    creds_sha1_hex(s, out);
    free(s);
    cJSON_Delete(o);
}

/* Reads a whole small file (at most 1 MB): malloc'd, or NULL. */
static char *read_small(const char *path)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    buf b = BUF_INIT;
    char tmp[4096];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, fp)) > 0 && b.len < (1u << 20))
        buf_add(&b, tmp, n);
    int bad = ferror(fp);
    fclose(fp);
    buf_addc(&b, '\0');
    if (bad) {
        memset(b.data, 0, b.len);
        buf_done(&b);
        return NULL;
    }
    return buf_steal(&b);
}

/* Writes text to path atomically, mode 0600, making its directory 0700. */
static int write_private(const char *path, const char *text)
{
    char *dir = xstrdup(path);
    for (char *p = dir + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        mkdir(dir, 0700);
        *p = '/';
    }
    free(dir);
    size_t n = strlen(path) + 16;
    char *tmp = xmalloc(n);
    snprintf(tmp, n, "%s.%d.tmp", path, (int)getpid());
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int ok = fd >= 0;
    if (ok) {
        size_t len = strlen(text), off = 0;
        while (ok && off < len) {
            ssize_t w = write(fd, text + off, len - off);
            if (w < 0 && errno == EINTR)
                continue;
            ok = w > 0;
            off += w > 0 ? (size_t)w : 0;
        }
        ok = close(fd) == 0 && ok;
        ok = ok && rename(tmp, path) == 0;
        if (!ok)
            unlink(tmp);
    }
    free(tmp);
    return ok ? 0 : -1;
}

static void iso_time(long long t, char out[32])
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The CLI's AssumeRole cache entry, when it has more than 15 minutes. */
static int cache_load(const char *key, creds *out, const char *source)
{
    char rel[128];
    snprintf(rel, sizeof rel, ".aws/cli/cache/%s.json", key);
    char *path = home_path(rel);
    char *text = read_small(path);
    free(path);
    if (!text)
        return 0;
    cJSON *j = cJSON_Parse(text);
    wipe_free(text);
    const cJSON *c = cJSON_GetObjectItemCaseSensitive(j, "Credentials");
    const cJSON *ak = cJSON_GetObjectItemCaseSensitive(c, "AccessKeyId");
    const cJSON *sk = cJSON_GetObjectItemCaseSensitive(c, "SecretAccessKey");
    const cJSON *tok = cJSON_GetObjectItemCaseSensitive(c, "SessionToken");
    const cJSON *exp = cJSON_GetObjectItemCaseSensitive(c, "Expiration");
    const cJSON *user = cJSON_GetObjectItemCaseSensitive(j, "AssumedRoleUser");
    const cJSON *arn = cJSON_GetObjectItemCaseSensitive(user, "Arn");
    int found = 0;
    if (cJSON_IsString(ak) && cJSON_IsString(sk) && cJSON_IsString(tok) && cJSON_IsString(exp)) {
        long long e = creds_parse_time(exp->valuestring);
        if (e > 0 && e - CACHE_WINDOW > (long long)time(NULL)) {
            out->access_key = xstrdup(ak->valuestring);
            out->secret_key = xstrdup(sk->valuestring);
            out->session_token = xstrdup(tok->valuestring);
            out->expires = e;
            if (cJSON_IsString(arn))
                snprintf(out->identity, sizeof out->identity, "%s", arn->valuestring);
            snprintf(out->source, sizeof out->source, "%s, cached in ~/.aws/cli/cache", source);
            found = 1;
        }
    }
    if (sk && cJSON_IsString(sk))
        wipe(sk->valuestring);
    if (tok && cJSON_IsString(tok))
        wipe(tok->valuestring);
    cJSON_Delete(j);
    return found;
}

static void cache_store(const char *key, const creds *c)
{
    char rel[128], when[32];
    snprintf(rel, sizeof rel, ".aws/cli/cache/%s.json", key);
    char *path = home_path(rel);
    iso_time(c->expires, when);
    cJSON *j = cJSON_CreateObject();
    cJSON *cr = cJSON_AddObjectToObject(j, "Credentials");
    cJSON_AddStringToObject(cr, "AccessKeyId", c->access_key);
    cJSON_AddStringToObject(cr, "SecretAccessKey", c->secret_key);
    cJSON_AddStringToObject(cr, "SessionToken", c->session_token ? c->session_token : "");
    cJSON_AddStringToObject(cr, "Expiration", when);
    if (c->identity[0]) {
        cJSON *u = cJSON_AddObjectToObject(j, "AssumedRoleUser");
        cJSON_AddStringToObject(u, "Arn", c->identity);
    }
    char *text = cJSON_PrintUnformatted(j);
    write_private(path, text);   /* a cache: failing to write it is not an error */
    wipe_free(text);
    cJSON *s = cJSON_GetObjectItemCaseSensitive(cr, "SecretAccessKey");
    wipe(s->valuestring);
    s = cJSON_GetObjectItemCaseSensitive(cr, "SessionToken");
    wipe(s->valuestring);
    cJSON_Delete(j);
    free(path);
}

/* ---- in-memory temporary credentials ------------------------------------ */

static pthread_mutex_t chain_lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct memo {
    char profile[256];
    int explicit_profile;
    creds c;
} memo;
static memo memos[8];

static memo *memo_find(const char *prof, int explicit_profile)
{
    for (size_t i = 0; i < sizeof memos / sizeof memos[0]; i++)
        if (memos[i].c.access_key && memos[i].explicit_profile == explicit_profile &&
            strcmp(memos[i].profile, prof) == 0)
            return &memos[i];
    return NULL;
}

static void memo_put(const char *prof, int explicit_profile, const creds *c)
{
    memo *m = memo_find(prof, explicit_profile);
    for (size_t i = 0; !m && i < sizeof memos / sizeof memos[0]; i++)
        if (!memos[i].c.access_key)
            m = &memos[i];
    if (!m)
        m = &memos[0];
    creds_done(&m->c);
    snprintf(m->profile, sizeof m->profile, "%s", prof);
    m->explicit_profile = explicit_profile;
    creds_copy(&m->c, c);
}

void creds_forget(void)
{
    pthread_mutex_lock(&chain_lock);
    for (size_t i = 0; i < sizeof memos / sizeof memos[0]; i++)
        creds_done(&memos[i].c);
    pthread_mutex_unlock(&chain_lock);
}

/* ---- asking for an MFA code --------------------------------------------- */

static creds_prompt_fn prompt_fn;
static void *prompt_ctx;

void creds_set_prompt(creds_prompt_fn fn, void *ctx)
{
    prompt_fn = fn;
    prompt_ctx = ctx;
}

/* On /dev/tty with echo off, as getpass does. */
static int tty_prompt(const char *question, char *answer, size_t cap)
{
    int fd = open("/dev/tty", O_RDWR | O_NOCTTY);
    if (fd < 0)
        return -1;
    struct termios old, quiet;
    int have = tcgetattr(fd, &old) == 0;
    if (have) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(fd, TCSANOW, &quiet);   /* keep what was typed ahead */
    }
    if (write(fd, question, strlen(question)) < 0) {
        /* nothing to do: the read below still works */
    }
    size_t n = 0;
    int ok = 0;
    for (;;) {
        char ch;
        ssize_t r = read(fd, &ch, 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (ch == '\n' || ch == '\r') {
            ok = 1;
            break;
        }
        if (n + 1 < cap)
            answer[n++] = ch;
    }
    answer[n] = '\0';
    if (have)
        tcsetattr(fd, TCSANOW, &old);
    if (write(fd, "\n", 1) < 0) {
        /* ignored */
    }
    close(fd);
    return ok ? 0 : -1;
}

static int ask(const char *question, char *answer, size_t cap)
{
    return prompt_fn ? prompt_fn(prompt_ctx, question, answer, cap)
                     : tty_prompt(question, answer, cap);
}

/* ---- settings ------------------------------------------------------------ */

static const char *setting(const char *var, const cfg *c, const char *prof, const char *key)
{
    if (var && env(var))
        return env(var);
    return pget(c, prof, key);
}

status creds_setting(const char *var, const char *profile, const char *key, char **out,
                     diag *d)
{
    *out = NULL;
    if (var && env(var)) {
        *out = xstrdup(env(var));
        return ST_OK;
    }
    cfg c;
    status st = cfg_load(&c, d);
    if (st == ST_OK) {
        const char *v = pget(&c, creds_profile_name(profile), key);
        *out = v ? xstrdup(v) : NULL;
    }
    cfg_free(&c);
    return st;
}

static const char *region_of(const cfg *c, const char *prof)
{
    if (env("AWS_REGION"))
        return env("AWS_REGION");
    return setting("AWS_DEFAULT_REGION", c, prof, "region");
}

status creds_region(const char *profile, char **out, diag *d)
{
    *out = NULL;
    if (env("AWS_REGION") || env("AWS_DEFAULT_REGION")) {
        *out = xstrdup(env("AWS_REGION") ? env("AWS_REGION") : env("AWS_DEFAULT_REGION"));
        return ST_OK;
    }
    cfg c;
    status st = cfg_load(&c, d);
    if (st == ST_OK) {
        const char *v = region_of(&c, creds_profile_name(profile));
        *out = v ? xstrdup(v) : NULL;
    }
    cfg_free(&c);
    return st;
}

static const char *endpoint_of(const char *var, const cfg *c, const char *prof,
                               const char *service)
{
    if (is_true(setting("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", c, prof,
                        "ignore_configured_endpoint_urls")))
        return NULL;
    if (env(var))
        return env(var);
    if (env("AWS_ENDPOINT_URL"))
        return env("AWS_ENDPOINT_URL");
    const char *svc = pget(c, prof, "services");
    if (svc) {
        char sec[512];
        snprintf(sec, sizeof sec, "services %s", svc);
        const char *v = cfg_find(c, F_CONF, sec, service, "endpoint_url", NULL);
        if (v && *v)
            return v;
    }
    return pget(c, prof, "endpoint_url");
}

status creds_endpoint(const char *var, const char *profile, const char *service, char **out,
                      diag *d)
{
    *out = NULL;
    cfg c;
    status st = cfg_load(&c, d);
    if (st == ST_OK) {
        const char *v = endpoint_of(var, &c, creds_profile_name(profile), service);
        *out = v ? xstrdup(v) : NULL;
    }
    cfg_free(&c);
    return st;
}

/* ---- one resolution ------------------------------------------------------ */

typedef struct rctx {
    cfg c;
    const char *top;            /* the profile asked for */
    const char *region;         /* for STS; NULL: none configured */
    const char *ca_bundle;
    const char *path[MAX_CHAIN]; /* the role chain so far */
    int depth;
    char imds_note[200];
} rctx;

static const char *const sts_global_regions[] = {
    "ap-northeast-1", "ap-south-1", "ap-southeast-1", "ap-southeast-2", "aws-global",
    "ca-central-1", "eu-central-1", "eu-north-1", "eu-west-1", "eu-west-2", "eu-west-3",
    "sa-east-1", "us-east-1", "us-east-2", "us-west-1", "us-west-2", NULL,
};

/* Where STS is for the top profile; *ep malloc'd. */
static void sts_where(const cfg *c, const char *prof, const char *region, char **ep,
                      const char **sign_region)
{
    const char *conf = endpoint_of("AWS_ENDPOINT_URL_STS", c, prof, "sts");
    *sign_region = region ? region : "us-east-1";
    if (conf) {
        *ep = xstrdup(conf);
        return;
    }
    int legacy = 0;
    const char *mode = setting("AWS_STS_REGIONAL_ENDPOINTS", c, prof, "sts_regional_endpoints");
    if (region && mode && strcasecmp(mode, "legacy") == 0)
        for (size_t i = 0; sts_global_regions[i]; i++)
            legacy |= strcmp(region, sts_global_regions[i]) == 0;
    buf b = BUF_INIT;
    if (!region || legacy || strcmp(region, "aws-global") == 0) {
        buf_adds(&b, "https://sts.amazonaws.com");
        *sign_region = "us-east-1";
    } else {
        buf_printf(&b, "https://sts.%s.amazonaws.com%s", region,
                   strncmp(region, "cn-", 3) == 0 ? ".cn" : "");
    }
    *ep = buf_steal(&b);
}

static status sts_call(rctx *x, const creds *signer, const char *form, char **xml, diag *d)
{
    char *ep = NULL;
    const char *sr;
    sts_where(&x->c, x->top, x->region, &ep, &sr);
    sts_target t = { .endpoint = ep, .region = sr, .ca_bundle = x->ca_bundle, .timeout_ms = 10000 };
    status st = net_sts(&t, signer, form, xml, d);
    free(ep);
    return st;
}

static int profile_chain(rctx *x, const char *prof, int top, creds *out, diag *d);
static int container_creds(rctx *x, creds *out, diag *d);
static int imds_creds(rctx *x, creds *out, diag *d);

static int env_keys(creds *out, diag *d)
{
    const char *ak = env("AWS_ACCESS_KEY_ID"), *sk = env("AWS_SECRET_ACCESS_KEY");
    if (ak && sk) {
        out->access_key = xstrdup(ak);
        out->secret_key = xstrdup(sk);
        out->session_token = env("AWS_SESSION_TOKEN") ? xstrdup(env("AWS_SESSION_TOKEN")) : NULL;
        snprintf(out->source, sizeof out->source, "environment (AWS_ACCESS_KEY_ID)");
        return 1;
    }
    if (ak || sk) {
        diag_set(d, ST_USAGE, "%s is set but %s is not",
                 ak ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                 ak ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
        return -1;
    }
    return 0;
}

static void session_name(const char *given, char *out, size_t n)
{
    if (given)
        snprintf(out, n, "%s", given);
    else
        snprintf(out, n, "ddbx-session-%lld", (long long)time(NULL));
}

/* The keys a role is assumed with (source_profile or credential_source). */
static int role_source(rctx *x, const char *prof, creds *src, diag *d)
{
    const char *sp = pget(&x->c, prof, "source_profile");
    const char *cs = pget(&x->c, prof, "credential_source");
    if (sp && cs) {
        diag_set(d, ST_USAGE, "profile '%s' has both source_profile and credential_source; "
                 "give one", prof);
        return -1;
    }
    if (!sp && !cs) {
        diag_set(d, ST_USAGE, "profile '%s' has role_arn but neither source_profile nor "
                 "credential_source", prof);
        return -1;
    }
    if (cs) {
        int r;
        if (strcmp(cs, "Environment") == 0)
            r = env_keys(src, d);
        else if (strcmp(cs, "Ec2InstanceMetadata") == 0)
            r = imds_creds(x, src, d);
        else if (strcmp(cs, "EcsContainer") == 0)
            r = container_creds(x, src, d);
        else {
            diag_set(d, ST_USAGE, "profile '%s': credential_source '%s' is not one of "
                     "Environment, Ec2InstanceMetadata, EcsContainer", prof, cs);
            return -1;
        }
        if (r == 0)
            diag_set(d, ST_USAGE, "profile '%s': credential_source %s gave no credentials%s%s",
                     prof, cs, x->imds_note[0] && strcmp(cs, "Ec2InstanceMetadata") == 0 ? ": " : "",
                     strcmp(cs, "Ec2InstanceMetadata") == 0 ? x->imds_note : "");
        return r == 0 ? -1 : r;
    }
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", sp);
    if (!cfg_has_section(&x->c, sec)) {
        diag_set(d, ST_USAGE, "the source_profile '%s' of profile '%s' does not exist (in %s "
                 "or %s)", sp, prof, x->c.conf, x->c.cred);
        return -1;
    }
    for (int i = 0; i < x->depth; i++) {
        if (strcmp(x->path[i], sp) != 0)
            continue;
        /* A profile may name itself to use its own static keys; any other
         * return to a profile on the path is a loop (botocore's rule). */
        if (strcmp(sp, prof) != 0 || !has_static(&x->c, sp)) {
            buf b = BUF_INIT;
            for (int k = 0; k < x->depth; k++)
                buf_printf(&b, "%s -> ", x->path[k]);
            buf_adds(&b, sp);
            diag_set(d, ST_USAGE, "the source_profile chain loops: %s", b.data);
            buf_done(&b);
            return -1;
        }
    }
    int r = profile_chain(x, sp, 0, src, d);
    if (r == 0)
        diag_set(d, ST_USAGE, "the source_profile '%s' of profile '%s' has no credentials", sp,
                 prof);
    return r == 0 ? -1 : r;
}

static int assume_role(rctx *x, const char *prof, creds *out, diag *d)
{
    if (x->depth >= MAX_CHAIN) {
        diag_set(d, ST_USAGE, "the source_profile chain from '%s' is longer than %d profiles",
                 x->top, MAX_CHAIN);
        return -1;
    }
    x->path[x->depth++] = prof;
    const char *arn = pget(&x->c, prof, "role_arn");
    const char *ext = pget(&x->c, prof, "external_id");
    const char *mfa = pget(&x->c, prof, "mfa_serial");
    const char *dur_s = pget(&x->c, prof, "duration_seconds");
    long dur = 0;
    if (dur_s) {
        char *e;
        dur = strtol(dur_s, &e, 10);
        if (*e || dur < 900 || dur > 43200) {
            diag_set(d, ST_USAGE, "profile '%s': duration_seconds must be a number of seconds "
                     "from 900 to 43200", prof);
            return -1;
        }
    }
    char sname[128];
    session_name(pget(&x->c, prof, "role_session_name"), sname, sizeof sname);
    char what[1100];
    const char *sp = pget(&x->c, prof, "source_profile");
    const char *cs = pget(&x->c, prof, "credential_source");
    snprintf(what, sizeof what, "role %s (profile %s, %s %s)", arn, prof,
             sp ? "source_profile" : "credential_source", sp ? sp : cs ? cs : "?");
    char key[41];
    creds_assume_cache_key(arn, ext, mfa, dur, key);
    if (cache_load(key, out, what))
        return 1;

    creds src;
    memset(&src, 0, sizeof src);
    int r = role_source(x, prof, &src, d);
    if (r < 0)
        return -1;
    buf form = BUF_INIT;
    buf_adds(&form, "Action=AssumeRole&Version=2011-06-15");
    net_form_add(&form, "RoleArn", arn);
    net_form_add(&form, "RoleSessionName", sname);
    if (ext)
        net_form_add(&form, "ExternalId", ext);
    if (dur) {
        char n[32];
        snprintf(n, sizeof n, "%ld", dur);
        net_form_add(&form, "DurationSeconds", n);
    }
    if (mfa) {
        char q[600], code[64];
        snprintf(q, sizeof q, "Enter MFA code for %s: ", mfa);
        if (ask(q, code, sizeof code) != 0 || !code[0]) {
            diag_set(d, ST_USAGE, "profile '%s' needs an MFA code for %s and none was given%s",
                     prof, mfa, prompt_fn ? "" : " (no terminal to ask on?)");
            buf_done(&form);
            creds_done(&src);
            return -1;
        }
        net_form_add(&form, "SerialNumber", mfa);
        net_form_add(&form, "TokenCode", trim(code));
    }
    char *xml = NULL;
    status st = sts_call(x, &src, form.data, &xml, d);
    buf_done(&form);
    creds_done(&src);
    if (st != ST_OK) {
        char m[sizeof d->msg];
        snprintf(m, sizeof m, "%s", d->msg);
        diag_set(d, st, "AssumeRole %s for profile '%s': %s", arn, prof, m);
        return -1;
    }
    st = net_sts_creds(xml, "AssumeRole", out, d);
    wipe_free(xml);
    if (st != ST_OK)
        return -1;
    snprintf(out->source, sizeof out->source, "%s", what);
    cache_store(key, out);
    return 1;
}

static int web_identity(rctx *x, const char *prof, int top, creds *out, diag *d)
{
    const char *file = top && env("AWS_WEB_IDENTITY_TOKEN_FILE") ? env("AWS_WEB_IDENTITY_TOKEN_FILE")
                       : pget(&x->c, prof, "web_identity_token_file");
    if (!file)
        return 0;
    int from_env = top && env("AWS_WEB_IDENTITY_TOKEN_FILE");
    const char *arn = top && env("AWS_ROLE_ARN") ? env("AWS_ROLE_ARN") : pget(&x->c, prof, "role_arn");
    if (!arn) {
        diag_set(d, ST_USAGE, "%s names a web identity token file but no role: set AWS_ROLE_ARN "
                 "or role_arn in profile '%s'",
                 from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file", prof);
        return -1;
    }
    char sname[128];
    session_name(top && env("AWS_ROLE_SESSION_NAME") ? env("AWS_ROLE_SESSION_NAME")
                 : pget(&x->c, prof, "role_session_name"), sname, sizeof sname);
    char *tok = read_small(file);
    if (!tok) {
        diag_set(d, ST_IO, "cannot read the web identity token file %s (%s): %s", file,
                 from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file",
                 strerror(errno));
        return -1;
    }
    buf form = BUF_INIT;
    buf_adds(&form, "Action=AssumeRoleWithWebIdentity&Version=2011-06-15");
    net_form_add(&form, "RoleArn", arn);
    net_form_add(&form, "RoleSessionName", sname);
    net_form_add(&form, "WebIdentityToken", trim(tok));
    wipe_free(tok);
    char *xml = NULL;
    status st = sts_call(x, NULL, form.data, &xml, d);
    memset(form.data, 0, form.len);
    buf_done(&form);
    if (st != ST_OK) {
        char m[sizeof d->msg];
        snprintf(m, sizeof m, "%s", d->msg);
        diag_set(d, st, "AssumeRoleWithWebIdentity %s: %s", arn, m);
        return -1;
    }
    st = net_sts_creds(xml, "AssumeRoleWithWebIdentity", out, d);
    wipe_free(xml);
    if (st != ST_OK)
        return -1;
    snprintf(out->source, sizeof out->source, "web identity (%s %s, role %s)",
             from_env ? "AWS_WEB_IDENTITY_TOKEN_FILE" : "web_identity_token_file", file, arn);
    return 1;
}

/* ---- IAM Identity Center ------------------------------------------------- */

static int sso_login_error(diag *d, const char *prof, const char *why)
{
    diag_set(d, ST_USAGE, "the IAM Identity Center (SSO) token for profile '%s' %s: run "
             "`aws sso login --profile %s`", prof, why, prof);
    return -1;
}

static const char *jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

/* A service URL: the configured endpoint + path, else https://HOST.REGION.amazonaws.com + path. */
static char *service_url(const char *var, rctx *x, const char *service, const char *host, const char *region,
                         const char *path)
{
    const char *ep = endpoint_of(var, &x->c, x->top, service);
    buf b = BUF_INIT;
    if (ep) {
        size_t n = strlen(ep);
        while (n && ep[n - 1] == '/')
            n--;
        buf_add(&b, ep, n);
        buf_adds(&b, path);
    } else {
        buf_printf(&b, "https://%s.%s.amazonaws.com%s%s", host, region,
                   strncmp(region, "cn-", 3) == 0 ? ".cn" : "", path);
    }
    return buf_steal(&b);
}

/* SSO OIDC CreateToken with the refresh token; rewrites the cache file.
 * 1 refreshed (*tok updated), 0 not. */
static int sso_refresh(rctx *x, const char *region, const char *path, cJSON *j)
{
    const char *cid = jstr(j, "clientId"), *csec = jstr(j, "clientSecret");
    const char *rt = jstr(j, "refreshToken"), *rexp = jstr(j, "registrationExpiresAt");
    if (!cid || !csec || !rt)
        return 0;
    if (rexp && creds_parse_time(rexp) <= (long long)time(NULL))
        return 0;
    cJSON *q = cJSON_CreateObject();
    cJSON_AddStringToObject(q, "clientId", cid);
    cJSON_AddStringToObject(q, "clientSecret", csec);
    cJSON_AddStringToObject(q, "grantType", "refresh_token");
    cJSON_AddStringToObject(q, "refreshToken", rt);
    char *body = cJSON_PrintUnformatted(q);
    cJSON_Delete(q);
    char *url = service_url("AWS_ENDPOINT_URL_SSO_OIDC", x, "sso_oidc", "oidc", region, "/token");
    const char *hdrs[] = { "Content-Type: application/json", NULL };
    net_req r = { .method = "POST", .url = url, .headers = hdrs, .body = body,
                  .body_len = strlen(body), .timeout_ms = 10000, .ca_bundle = x->ca_bundle,
                  .what = "SSO OIDC" };
    long http = 0;
    buf resp = BUF_INIT;
    diag d2;
    diag_init(&d2);
    int ok = net_do(&r, &http, &resp, &d2) == ST_OK && http == 200;
    wipe_free(body);
    free(url);
    cJSON *a = ok ? cJSON_Parse(resp.data) : NULL;
    if (resp.data)
        memset(resp.data, 0, resp.len);
    buf_done(&resp);
    const char *at = jstr(a, "accessToken");
    const cJSON *ein = cJSON_GetObjectItemCaseSensitive(a, "expiresIn");
    if (!at || !cJSON_IsNumber(ein)) {
        cJSON_Delete(a);
        return 0;
    }
    char when[32];
    iso_time((long long)time(NULL) + (long long)ein->valuedouble, when);
    cJSON_ReplaceItemInObjectCaseSensitive(j, "accessToken", cJSON_CreateString(at));
    if (cJSON_GetObjectItemCaseSensitive(j, "expiresAt"))
        cJSON_ReplaceItemInObjectCaseSensitive(j, "expiresAt", cJSON_CreateString(when));
    else
        cJSON_AddStringToObject(j, "expiresAt", when);
    const char *nrt = jstr(a, "refreshToken");
    if (nrt)
        cJSON_ReplaceItemInObjectCaseSensitive(j, "refreshToken", cJSON_CreateString(nrt));
    cJSON *s = cJSON_GetObjectItemCaseSensitive(a, "accessToken");
    wipe(s->valuestring);
    s = cJSON_GetObjectItemCaseSensitive(a, "refreshToken");
    if (cJSON_IsString(s))
        wipe(s->valuestring);
    cJSON_Delete(a);
    char *text = cJSON_PrintUnformatted(j);
    write_private(path, text);
    wipe_free(text);
    return 1;
}

static void wipe_json_strings(cJSON *j)
{
    for (cJSON *c = j ? j->child : NULL; c; c = c->next)
        if (cJSON_IsString(c))
            wipe(c->valuestring);
}

static int sso_creds(rctx *x, const char *prof, creds *out, diag *d)
{
    const char *sess = pget(&x->c, prof, "sso_session");
    const char *url = pget(&x->c, prof, "sso_start_url");
    const char *region = pget(&x->c, prof, "sso_region");
    const char *acct = pget(&x->c, prof, "sso_account_id");
    const char *role = pget(&x->c, prof, "sso_role_name");
    if (!sess && !url && !region && !acct && !role)
        return 0;
    if (sess) {
        char sec[512];
        snprintf(sec, sizeof sec, "sso-session %s", sess);
        if (!cfg_has_section(&x->c, sec)) {
            diag_set(d, ST_USAGE, "profile '%s' names sso_session '%s', which has no "
                     "[sso-session %s] section in %s", prof, sess, sess, x->c.conf);
            return -1;
        }
        const char *surl = cfg_find(&x->c, F_CONF, sec, "sso_start_url", NULL, NULL);
        const char *sreg = cfg_find(&x->c, F_CONF, sec, "sso_region", NULL, NULL);
        if ((url && surl && strcmp(url, surl) != 0) || (region && sreg && strcmp(region, sreg) != 0)) {
            diag_set(d, ST_USAGE, "profile '%s' has sso_start_url or sso_region that differ "
                     "from its sso_session '%s'", prof, sess);
            return -1;
        }
        url = surl && *surl ? surl : url;
        region = sreg && *sreg ? sreg : region;
    }
    const char *missing = !url ? "sso_start_url" : !region ? "sso_region" :
                          !acct ? "sso_account_id" : !role ? "sso_role_name" : NULL;
    if (missing) {
        diag_set(d, ST_USAGE, "profile '%s' is set up for IAM Identity Center but lacks %s%s",
                 prof, missing, sess ? " (in the profile or its sso-session)" : "");
        return -1;
    }
    /* The AWS CLI caches the role's keys too (botocore's
     * SSOCredentialFetcher: SHA-1 of {"accountId","roleName",
     * "sessionName"|"startUrl"}); ddbx shares that cache. */
    char what[1100], ckey[41];
    snprintf(what, sizeof what, "IAM Identity Center (profile %s%s%s, %s)", prof,
             sess ? ", sso_session " : "", sess ? sess : "", url);
    {
        cJSON *k = cJSON_CreateObject();
        cJSON_AddStringToObject(k, "accountId", acct);
        cJSON_AddStringToObject(k, "roleName", role);
        if (sess)
            cJSON_AddStringToObject(k, "sessionName", sess);
        else
            cJSON_AddStringToObject(k, "startUrl", url);
        char *ks = cJSON_PrintUnformatted(k);
        creds_sha1_hex(ks, ckey);
        free(ks);
        cJSON_Delete(k);
    }
    if (cache_load(ckey, out, what)) {
        snprintf(out->identity, sizeof out->identity, "account %s, role %s", acct, role);
        return 1;
    }
    char hash[41], rel[128];
    creds_sha1_hex(sess ? sess : url, hash);
    snprintf(rel, sizeof rel, ".aws/sso/cache/%s.json", hash);
    char *path = home_path(rel);
    char *text = read_small(path);
    cJSON *j = text ? cJSON_Parse(text) : NULL;
    wipe_free(text);
    int r = -1;
    const char *tok = jstr(j, "accessToken");
    const char *exps = jstr(j, "expiresAt");
    long long exp = exps ? creds_parse_time(exps) : -1;
    long long now = (long long)time(NULL);
    if (!tok || exp < 0) {
        sso_login_error(d, prof, "is not in ~/.aws/sso/cache");
        goto out;
    }
    if (sess && exp - CACHE_WINDOW <= now && sso_refresh(x, region, path, j)) {
        tok = jstr(j, "accessToken");
        exp = creds_parse_time(jstr(j, "expiresAt"));
    }
    if (exp <= now) {
        sso_login_error(d, prof, "has expired");
        goto out;
    }
    const cJSON *rc = NULL;
    buf u = BUF_INIT;
    char *base = service_url("AWS_ENDPOINT_URL_SSO", x, "sso", "portal.sso", region, "/federation/credentials");
    buf_printf(&u, "%s?", base);
    free(base);
    net_form_add(&u, "account_id", acct);
    net_form_add(&u, "role_name", role);
    /* "?&account_id=": drop the '&' the form helper leads with */
    char *q = strstr(u.data, "?&");
    memmove(q + 1, q + 2, strlen(q + 2) + 1);
    buf h = BUF_INIT;
    buf_printf(&h, "x-amz-sso_bearer_token: %s", tok);
    const char *hdrs[] = { h.data, "Accept: application/json", NULL };
    net_req rq = { .method = "GET", .url = u.data, .headers = hdrs, .timeout_ms = 10000,
                   .ca_bundle = x->ca_bundle, .what = "the IAM Identity Center portal" };
    long http = 0;
    buf resp = BUF_INIT;
    status st = net_do(&rq, &http, &resp, d);
    memset(h.data, 0, h.len);
    buf_done(&h);
    buf_done(&u);
    cJSON *a = st == ST_OK ? cJSON_Parse(resp.data) : NULL;
    if (resp.data)
        memset(resp.data, 0, resp.len);
    buf_done(&resp);
    if (st != ST_OK)
        goto out2;
    if (http == 401 || http == 403) {
        sso_login_error(d, prof, "was refused by the portal (expired or signed out)");
        goto out2;
    }
    rc = cJSON_GetObjectItemCaseSensitive(a, "roleCredentials");
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(rc, "expiration");
    const char *ak = jstr(rc, "accessKeyId"), *sk = jstr(rc, "secretAccessKey");
    const char *st_ = jstr(rc, "sessionToken");
    if (http != 200 || !ak || !sk || !st_ || !cJSON_IsNumber(ex)) {
        const char *m = jstr(a, "message") ? jstr(a, "message") : jstr(a, "Message");
        diag_set(d, ST_IO, "GetRoleCredentials for account %s, role %s (profile '%s'): HTTP "
                 "%ld%s%s", acct, role, prof, http, m ? ": " : "", m ? m : "");
        goto out2;
    }
    out->access_key = xstrdup(ak);
    out->secret_key = xstrdup(sk);
    out->session_token = xstrdup(st_);
    out->expires = (long long)(ex->valuedouble / 1000);
    snprintf(out->source, sizeof out->source, "%s", what);
    cache_store(ckey, out);
    snprintf(out->identity, sizeof out->identity, "account %s, role %s", acct, role);
    r = 1;
out2:
    if (rc)
        wipe_json_strings((cJSON *)rc);
    cJSON_Delete(a);
out:
    wipe_json_strings(j);
    cJSON_Delete(j);
    free(path);
    return r;
}

/* ---- containers and instances ------------------------------------------- */

static int allowed_container_host(const char *url)
{
    const char *p = url + strlen("http://");
    char host[128];
    size_t n;
    if (*p == '[') {
        n = strcspn(p + 1, "]");
        snprintf(host, sizeof host, "%.*s", (int)(n < 100 ? n : 100), p + 1);
    } else {
        n = strcspn(p, ":/?#");
        snprintf(host, sizeof host, "%.*s", (int)(n < 100 ? n : 100), p);
    }
    if (strchr(host, '@'))
        return 0;
    return strncmp(host, "127.", 4) == 0 || strcmp(host, "localhost") == 0 ||
           strcmp(host, "::1") == 0 || strcmp(host, "169.254.170.2") == 0 ||
           strcmp(host, "169.254.170.23") == 0 || strcasecmp(host, "fd00:ec2::23") == 0;
}

int creds_container_url(char **url, diag *d)
{
    *url = NULL;
    const char *rel = env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    const char *full = env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
    if (rel) {
        buf b = BUF_INIT;
        buf_printf(&b, "http://169.254.170.2%s%s", rel[0] == '/' ? "" : "/", rel);
        *url = buf_steal(&b);
        return 1;
    }
    if (!full)
        return 0;
    if (strncasecmp(full, "https://", 8) == 0 ||
        (strncasecmp(full, "http://", 7) == 0 && allowed_container_host(full))) {
        *url = xstrdup(full);
        return 1;
    }
    diag_set(d, ST_USAGE, "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https://, or http:// to a "
             "loopback address, 169.254.170.2, 169.254.170.23 or fd00:ec2::23");
    return -1;
}

static void sleep_ms(long ms)
{
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* The JSON both endpoints answer: AccessKeyId, SecretAccessKey, Token, Expiration. */
static int metadata_json(const char *body, const char *what, creds *out, diag *d)
{
    cJSON *j = cJSON_Parse(body);
    const char *ak = jstr(j, "AccessKeyId"), *sk = jstr(j, "SecretAccessKey");
    const char *tok = jstr(j, "Token"), *exp = jstr(j, "Expiration");
    const char *code = jstr(j, "Code");
    int r = -1;
    if (code && strcmp(code, "Success") != 0) {
        diag_set(d, ST_IO, "%s answered Code %s", what, code);
    } else if (!ak || !sk || !tok) {
        diag_set(d, ST_IO, "%s: the answer lacks AccessKeyId, SecretAccessKey or Token", what);
    } else {
        out->access_key = xstrdup(ak);
        out->secret_key = xstrdup(sk);
        out->session_token = xstrdup(tok);
        out->expires = exp ? creds_parse_time(exp) : 0;
        if (out->expires < 0)
            out->expires = 0;
        const char *arn = jstr(j, "RoleArn");
        if (arn)
            snprintf(out->identity, sizeof out->identity, "%s", arn);
        r = 1;
    }
    wipe_json_strings(j);
    cJSON_Delete(j);
    return r;
}

static int container_creds(rctx *x, creds *out, diag *d)
{
    char *url = NULL;
    int r = creds_container_url(&url, d);
    if (r <= 0)
        return r;
    char *tok = NULL;
    const char *tf = env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    if (tf) {
        tok = read_small(tf);
        if (!tok) {
            diag_set(d, ST_IO, "cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE %s: %s", tf,
                     strerror(errno));
            free(url);
            return -1;
        }
    } else if (env("AWS_CONTAINER_AUTHORIZATION_TOKEN")) {
        tok = xstrdup(env("AWS_CONTAINER_AUTHORIZATION_TOKEN"));
    }
    buf h = BUF_INIT;
    if (tok) {
        char *t = trim(tok);
        if (strpbrk(t, "\r\n")) {
            diag_set(d, ST_USAGE, "the container authorization token has a line break in it");
            wipe_free(tok);
            free(url);
            return -1;
        }
        buf_printf(&h, "Authorization: %s", t);
        wipe_free(tok);
    }
    const char *hdrs[] = { "Accept: application/json", h.data, NULL };
    net_req q = { .method = "GET", .url = url, .headers = hdrs, .timeout_ms = 2000,
                  .ca_bundle = x->ca_bundle, .what = "the container credentials endpoint",
                  .direct = 1 };
    buf resp = BUF_INIT;
    r = -1;
    /* botocore: 2 s a try, 3 tries a second apart; a 4xx is not retried. */
    for (int i = 0; i < 3; i++) {
        long http = 0;
        if (i)
            sleep_ms(1000);
        status st = net_do(&q, &http, &resp, d);
        if (st != ST_OK)
            continue;
        if (http == 200) {
            r = metadata_json(resp.data, "the container credentials endpoint", out, d);
            break;
        }
        cJSON *j = cJSON_Parse(resp.data);
        const char *m = jstr(j, "message") ? jstr(j, "message") : jstr(j, "Message");
        diag_set(d, ST_IO, "the container credentials endpoint answered HTTP %ld%s%s", http,
                 m ? ": " : "", m ? m : "");
        cJSON_Delete(j);
        if (http < 500)
            break;
    }
    if (resp.data)
        memset(resp.data, 0, resp.len);
    buf_done(&resp);
    if (h.data)
        memset(h.data, 0, h.len);
    buf_done(&h);
    if (r > 0)
        snprintf(out->source, sizeof out->source, "container credentials endpoint (%s)",
                 env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") ?
                 "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI" : "AWS_CONTAINER_CREDENTIALS_FULL_URI");
    free(url);
    return r;
}

static int imds_creds(rctx *x, creds *out, diag *d)
{
    const char *prof = x->top;
    if (is_true(env("AWS_EC2_METADATA_DISABLED"))) {
        snprintf(x->imds_note, sizeof x->imds_note, "disabled by AWS_EC2_METADATA_DISABLED");
        return 0;
    }
    const char *ep = setting("AWS_EC2_METADATA_SERVICE_ENDPOINT", &x->c, prof,
                             "ec2_metadata_service_endpoint");
    const char *mode = setting("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", &x->c, prof,
                               "ec2_metadata_service_endpoint_mode");
    if (!ep)
        ep = mode && strcasecmp(mode, "IPv6") == 0 ? "http://[fd00:ec2::254]" : "http://169.254.169.254";
    const char *ts = setting("AWS_METADATA_SERVICE_TIMEOUT", &x->c, prof, "metadata_service_timeout");
    const char *as = setting("AWS_METADATA_SERVICE_NUM_ATTEMPTS", &x->c, prof,
                             "metadata_service_num_attempts");
    double secs = ts ? strtod(ts, NULL) : 1;
    long attempts = as ? strtol(as, NULL, 10) : 1;
    if (!(secs > 0))
        secs = 1;
    if (attempts < 1)
        attempts = 1;
    int v1_off = is_true(setting("AWS_EC2_METADATA_V1_DISABLED", &x->c, prof,
                                 "ec2_metadata_v1_disabled"));
    long ms = (long)(secs * 1000);
    size_t n = strlen(ep);
    while (n && ep[n - 1] == '/')
        n--;
    char base[512];
    snprintf(base, sizeof base, "%.*s", (int)(n < 400 ? n : 400), ep);
    char url[1024];
    buf resp = BUF_INIT;
    buf th = BUF_INIT;
    long http = 0;
    int r = 0, got = 0;
    diag d2;
    diag_init(&d2);

    /* 1. the session token */
    snprintf(url, sizeof url, "%s/latest/api/token", base);
    const char *put_h[] = { "X-aws-ec2-metadata-token-ttl-seconds: 21600", NULL };
    net_req q = { .method = "PUT", .url = url, .headers = put_h, .timeout_ms = ms,
                  .what = "the EC2 instance metadata service", .direct = 1 };
    for (long i = 0; i < attempts && !got; i++) {
        if (net_do(&q, &http, &resp, &d2) != ST_OK)
            continue;
        got = 1;
    }
    if (!got) {
        snprintf(x->imds_note, sizeof x->imds_note, "no answer from %.150s in %g s", base, secs);
        goto out;
    }
    if (http == 200) {
        buf_printf(&th, "X-aws-ec2-metadata-token: %s", trim(resp.data));
    } else if (http == 403 || http == 404 || http == 405) {
        if (v1_off) {
            r = -1;
            diag_set(d, ST_IO, "the EC2 instance metadata service refused a session token "
                     "(HTTP %ld) and ec2_metadata_v1_disabled forbids IMDSv1", http);
            goto out;
        }
    } else {
        r = -1;
        diag_set(d, ST_IO, "the EC2 instance metadata service answered HTTP %ld to the token "
                 "request", http);
        goto out;
    }
    const char *get_h[] = { th.data, NULL };

    /* 2. the role's name, 3. its credentials */
    char role[256] = "";
    for (int step = 0; step < 2; step++) {
        snprintf(url, sizeof url, "%s/latest/meta-data/iam/security-credentials/%s", base, role);
        net_req g = { .method = "GET", .url = url, .headers = th.data ? get_h : NULL,
                      .timeout_ms = ms, .what = "the EC2 instance metadata service",
                      .direct = 1 };
        status st = ST_IO;
        for (long i = 0; i < attempts && st != ST_OK; i++)
            st = net_do(&g, &http, &resp, &d2);
        if (st != ST_OK) {
            snprintf(x->imds_note, sizeof x->imds_note, "no answer from %.150s in %g s", base, secs);
            goto out;
        }
        if (step == 0 && http == 404) {
            snprintf(x->imds_note, sizeof x->imds_note, "no IAM role attached to this instance");
            goto out;
        }
        if (http != 200) {
            r = -1;
            diag_set(d, ST_IO, "the EC2 instance metadata service answered HTTP %ld for the "
                     "role's %s", http, step ? "credentials" : "name");
            goto out;
        }
        if (step == 0) {
            size_t k = strcspn(resp.data, "\r\n");
            snprintf(role, sizeof role, "%.*s", (int)(k < 200 ? k : 200), resp.data);
            if (!role[0] || strchr(role, '/') || strchr(role, '?')) {
                snprintf(x->imds_note, sizeof x->imds_note, "no IAM role attached to this instance");
                goto out;
            }
        } else {
            r = metadata_json(resp.data, "the EC2 instance metadata service", out, d);
        }
    }
    if (r > 0) {
        snprintf(out->source, sizeof out->source, "EC2 instance metadata (%s, role %s)",
                 th.data ? "IMDSv2" : "IMDSv1", role);
        if (!out->identity[0])
            snprintf(out->identity, sizeof out->identity, "instance role %s", role);
    }
out:
    if (resp.data)
        memset(resp.data, 0, resp.len);
    buf_done(&resp);
    if (th.data)
        memset(th.data, 0, th.len);
    buf_done(&th);
    return r;
}

/* ---- the chain ----------------------------------------------------------- */

/* The profile's own providers (botocore: assume-role when top, then web
 * identity, SSO, the credentials file, credential_process, the config
 * file). top: the profile asked for (the environment's web identity
 * variables apply); else a source_profile. */
static int profile_chain(rctx *x, const char *prof, int top, creds *out, diag *d)
{
    int has_role = pget(&x->c, prof, "role_arn") && !pget(&x->c, prof, "web_identity_token_file");
    /* A source profile with static keys uses them, even with a role_arn. */
    if (has_role && (top || !has_static(&x->c, prof)))
        return assume_role(x, prof, out, d);
    int r = web_identity(x, prof, top, out, d);
    if (r)
        return r;
    r = sso_creds(x, prof, out, d);
    if (r)
        return r;
    r = static_keys(&x->c, F_CRED, prof, out, d);
    if (r)
        return r;
    int from = F_CONF;
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", prof);
    const char *cmd = cfg_find(&x->c, F_CONF | F_CRED, sec, "credential_process", NULL, &from);
    if (cmd && *cmd) {
        char where[1100];
        where_of(&x->c, from, prof, where, sizeof where);
        return run_process(cmd, where, out, d) == ST_OK ? 1 : -1;
    }
    return static_keys(&x->c, F_CONF, prof, out, d);
}

status creds_resolve(const char *profile, creds *out, diag *d)
{
    return creds_resolve_in(profile, NULL, out, d);
}

status creds_resolve_in(const char *profile, const char *region, creds *out, diag *d)
{
    memset(out, 0, sizeof *out);
    int explicit_profile = profile && *profile;
    const char *prof = creds_profile_name(profile);
    pthread_mutex_lock(&chain_lock);
    memo *m = memo_find(prof, explicit_profile);
    if (m && m->c.expires - REFRESH_EARLY > (long long)time(NULL)) {
        creds_copy(out, &m->c);
        pthread_mutex_unlock(&chain_lock);
        return ST_OK;
    }
    rctx x;
    memset(&x, 0, sizeof x);
    x.top = prof;
    status st = cfg_load(&x.c, d);
    int r = 0;
    if (st != ST_OK)
        goto out;
    x.region = region && *region ? region : region_of(&x.c, prof);
    x.ca_bundle = setting("AWS_CA_BUNDLE", &x.c, prof, "ca_bundle");

    if (!explicit_profile) {
        r = env_keys(out, d);
        if (r)
            goto done;
    }
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", prof);
    if (strcmp(prof, "default") != 0 && !cfg_has_section(&x.c, sec)) {
        r = -1;
        diag_set(d, ST_USAGE, "the profile '%s'%s is in neither %s nor %s", prof,
                 explicit_profile ? "" : " (AWS_PROFILE)", x.c.conf, x.c.cred);
        goto done;
    }
    r = profile_chain(&x, prof, 1, out, d);
    if (r == 0)
        r = container_creds(&x, out, d);
    if (r == 0)
        r = imds_creds(&x, out, d);
    if (r == 0)
        diag_set(d, ST_USAGE,
                 "no AWS credentials for profile '%s': looked in %s"
                 "%s [%s], and %s [profile %s] (role_arn, web_identity_token_file, sso_session, "
                 "sso_start_url, credential_process, aws_access_key_id), the container "
                 "endpoint (AWS_CONTAINER_CREDENTIALS_RELATIVE_URI and _FULL_URI are not set) "
                 "and the EC2 instance metadata service (%s). "
                 "Local endpoints (DynamoDB Local, dynalite) need some credentials too, as "
                 "with the AWS CLI; any values do there",
                 prof,
                 explicit_profile ? "" : "the environment (AWS_ACCESS_KEY_ID and "
                                         "AWS_SECRET_ACCESS_KEY), ",
                 x.c.cred, prof, x.c.conf, prof, x.imds_note[0] ? x.imds_note : "not asked");
done:
    st = r > 0 ? ST_OK : d->code;
    if (st == ST_OK && r <= 0)
        st = ST_USAGE;
out:
    if (st != ST_OK)
        creds_done(out);
    else if (out->expires)
        memo_put(prof, explicit_profile, out);
    cfg_free(&x.c);
    pthread_mutex_unlock(&chain_lock);
    return st;
}

/* ---- who am I ------------------------------------------------------------ */

status creds_caller_identity(const creds *c, const char *profile, const char *region,
                             long timeout_ms, creds_identity *out, diag *d)
{
    memset(out, 0, sizeof *out);
    cfg cf;
    status st = cfg_load(&cf, d);
    if (st != ST_OK) {
        cfg_free(&cf);
        return st;
    }
    const char *prof = creds_profile_name(profile);
    char *ep = NULL;
    const char *sr;
    sts_where(&cf, prof, region, &ep, &sr);
    sts_target t = { .endpoint = ep, .region = sr,
                     .ca_bundle = setting("AWS_CA_BUNDLE", &cf, prof, "ca_bundle"),
                     .timeout_ms = timeout_ms > 0 ? timeout_ms : 10000 };
    char *xml = NULL;
    st = net_sts(&t, c, "Action=GetCallerIdentity&Version=2011-06-15", &xml, d);
    if (st == ST_OK) {
        char *arn = creds_xml_text(xml, "Arn"), *acct = creds_xml_text(xml, "Account");
        char *uid = creds_xml_text(xml, "UserId");
        if (!arn || !acct) {
            st = diag_set(d, ST_IO, "GetCallerIdentity: the answer lacks Arn or Account");
        } else {
            snprintf(out->arn, sizeof out->arn, "%s", arn);
            snprintf(out->account, sizeof out->account, "%s", acct);
            snprintf(out->user_id, sizeof out->user_id, "%s", uid ? uid : "");
        }
        free(arn);
        free(acct);
        free(uid);
    }
    free(xml);
    free(ep);
    cfg_free(&cf);
    return st;
}
