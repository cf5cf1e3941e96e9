/*
 * creds — the AWS credential chain (see creds.h).
 */
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "data/creds.h"
#include "model/buf.h"
#include "model/mem.h"

extern char **environ;

static const char *env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

const char *creds_profile_name(const char *profile)
{
    if (profile && *profile)
        return profile;
    return env("AWS_PROFILE") ? env("AWS_PROFILE") : "default";
}

/* A file path: the variable's value, else ~/.aws/NAME. */
static char *aws_file(const char *var, const char *name)
{
    if (env(var))
        return xstrdup(env(var));
    const char *home = env("HOME");
    size_t n = strlen(home ? home : ".") + strlen(name) + 8;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/.aws/%s", home ? home : ".", name);
    return p;
}

static void wipe_free(char *s)
{
    if (!s)
        return;
    /* volatile: the compiler may not drop the wipe of a freed buffer */
    for (volatile char *p = s; *p; p++)
        *p = 0;
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

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

/*
 * The value of key in [section] (or in [alt] when alt is non-NULL) of an
 * INI file as botocore reads it: `#`/`;` comments, indented lines are
 * sub-values (skipped). 1 found (*out malloc'd), 0 not there (or no
 * file), -1 unreadable.
 */
static int ini_get(const char *path, const char *section, const char *alt, const char *key,
                   char **out)
{
    *out = NULL;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return errno == ENOENT || errno == ENOTDIR ? 0 : -1;
    char *line = NULL;
    size_t cap = 0;
    int in = 0, found = 0;
    while (getline(&line, &cap, fp) >= 0) {
        if (line[0] == ' ' || line[0] == '\t') {
            char *t = trim(line);
            if (*t == '\0' || *t == '#' || *t == ';')
                continue;
            continue;   /* a nested sub-value (e.g. s3 = ...); not ours */
        }
        char *t = trim(line);
        if (*t == '\0' || *t == '#' || *t == ';')
            continue;
        if (*t == '[') {
            char *end = strrchr(t, ']');
            if (!end)
                continue;
            *end = '\0';
            char *name = trim(t + 1);
            /* "[profile   x]": botocore allows any whitespace after "profile" */
            char norm[512];
            if (strncmp(name, "profile", 7) == 0 && (name[7] == ' ' || name[7] == '\t'))
                snprintf(norm, sizeof norm, "profile %s", trim(name + 8));
            else
                snprintf(norm, sizeof norm, "%s", name);
            in = strcmp(norm, section) == 0 || (alt && strcmp(norm, alt) == 0);
            continue;
        }
        if (!in)
            continue;
        char *eq = strchr(t, '=');
        if (!eq)
            continue;
        *eq = '\0';
        if (strcmp(trim(t), key) != 0)
            continue;
        free(*out);
        *out = xstrdup(trim(eq + 1));
        found = 1;
        /* the last one wins, as in configparser; keep reading */
    }
    if (ferror(fp))
        found = -1;
    free(line);
    fclose(fp);
    if (found < 0) {
        wipe_free(*out);
        *out = NULL;
    }
    return found;
}

/* The config file's section names for a profile. */
static void config_sections(const char *prof, char *sec, size_t n, const char **alt)
{
    snprintf(sec, n, "profile %s", prof);
    *alt = strcmp(prof, "default") == 0 ? "default" : NULL;
}

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

/* "2030-01-01T00:00:00Z" (optionally with fractional seconds or +00:00). */
static long long parse_iso8601(const char *s)
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
        expires = parse_iso8601(exp->valuestring);
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

/* Static keys from one INI section: 1 found, 0 none, -1 error (in d). */
static int static_keys(const char *path, const char *sec, const char *alt, const char *where,
                       creds *out, diag *d)
{
    char *ak = NULL, *sk = NULL, *tok = NULL;
    int a = ini_get(path, sec, alt, "aws_access_key_id", &ak);
    int s = a >= 0 ? ini_get(path, sec, alt, "aws_secret_access_key", &sk) : 0;
    int t = a >= 0 && s >= 0 ? ini_get(path, sec, alt, "aws_session_token", &tok) : 0;
    if (a < 0 || s < 0 || t < 0) {
        diag_set(d, ST_IO, "cannot read %s", path);
        goto bad;
    }
    if (a == 0 && s == 0)
        return 0;
    if (!ak || !*ak || !sk || !*sk) {
        diag_set(d, ST_USAGE, "%s has %s but not %s", where,
                 ak && *ak ? "aws_access_key_id" : "aws_secret_access_key",
                 ak && *ak ? "aws_secret_access_key" : "aws_access_key_id");
        goto bad;
    }
    out->access_key = ak;
    out->secret_key = sk;
    out->session_token = tok && *tok ? tok : NULL;
    if (tok && !*tok)
        free(tok);
    snprintf(out->source, sizeof out->source, "%s", where);
    return 1;
bad:
    free(ak);
    wipe_free(sk);
    wipe_free(tok);
    return -1;
}

status creds_resolve(const char *profile, creds *out, diag *d)
{
    memset(out, 0, sizeof *out);
    int explicit_profile = profile && *profile;
    const char *prof = creds_profile_name(profile);
    char *cred_path = aws_file("AWS_SHARED_CREDENTIALS_FILE", "credentials");
    char *conf_path = aws_file("AWS_CONFIG_FILE", "config");
    status st = ST_OK;
    char where[1024];

    if (!explicit_profile && env("AWS_ACCESS_KEY_ID") && env("AWS_SECRET_ACCESS_KEY")) {
        out->access_key = xstrdup(env("AWS_ACCESS_KEY_ID"));
        out->secret_key = xstrdup(env("AWS_SECRET_ACCESS_KEY"));
        out->session_token = env("AWS_SESSION_TOKEN") ? xstrdup(env("AWS_SESSION_TOKEN")) : NULL;
        snprintf(out->source, sizeof out->source, "environment (AWS_ACCESS_KEY_ID)");
        goto out;
    }
    if (!explicit_profile && (env("AWS_ACCESS_KEY_ID") || env("AWS_SECRET_ACCESS_KEY"))) {
        st = diag_set(d, ST_USAGE, "%s is set but %s is not",
                      env("AWS_ACCESS_KEY_ID") ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                      env("AWS_ACCESS_KEY_ID") ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
        goto out;
    }

    snprintf(where, sizeof where, "%s [%s]", cred_path, prof);
    int r = static_keys(cred_path, prof, NULL, where, out, d);
    if (r != 0) {
        st = r > 0 ? ST_OK : d->code;
        goto out;
    }

    char sec[512];
    const char *alt;
    config_sections(prof, sec, sizeof sec, &alt);
    char *cmd = NULL;
    snprintf(where, sizeof where, "%s [%s]", conf_path, sec);
    r = ini_get(conf_path, sec, alt, "credential_process", &cmd);
    if (r < 0) {
        st = diag_set(d, ST_IO, "cannot read %s", conf_path);
        goto out;
    }
    if (r > 0 && cmd && *cmd) {
        st = run_process(cmd, where, out, d);
        free(cmd);
        goto out;
    }
    free(cmd);

    r = static_keys(conf_path, sec, alt, where, out, d);
    if (r != 0) {
        st = r > 0 ? ST_OK : d->code;
        goto out;
    }

    st = diag_set(d, ST_USAGE,
                  "no AWS credentials for profile '%s': looked in %s"
                  "%s [%s], and %s [%s] (credential_process, aws_access_key_id). "
                  "Local endpoints (DynamoDB Local, dynalite) need some credentials too, as "
                  "with the AWS CLI; any values do there",
                  prof,
                  explicit_profile ? "" : "the environment (AWS_ACCESS_KEY_ID and "
                                          "AWS_SECRET_ACCESS_KEY), ",
                  cred_path, prof, conf_path, sec);
out:
    if (st != ST_OK)
        creds_done(out);
    free(cred_path);
    free(conf_path);
    return st;
}

status creds_region(const char *profile, char **out, diag *d)
{
    *out = NULL;
    if (env("AWS_REGION")) {
        *out = xstrdup(env("AWS_REGION"));
        return ST_OK;
    }
    if (env("AWS_DEFAULT_REGION")) {
        *out = xstrdup(env("AWS_DEFAULT_REGION"));
        return ST_OK;
    }
    const char *prof = creds_profile_name(profile);
    char *conf_path = aws_file("AWS_CONFIG_FILE", "config");
    char sec[512];
    const char *alt;
    config_sections(prof, sec, sizeof sec, &alt);
    char *v = NULL;
    int r = ini_get(conf_path, sec, alt, "region", &v);
    status st = ST_OK;
    if (r < 0)
        st = diag_set(d, ST_IO, "cannot read %s", conf_path);
    else if (r > 0 && v && *v)
        *out = v, v = NULL;
    free(v);
    free(conf_path);
    return st;
}
