/*
 * creds_process — the providers that need no network: the environment's
 * keys, a profile's static keys and credential_process. Part of creds
 * (see creds.h, creds_int.h).
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

#include "data/creds_int.h"
#include "model/buf.h"
#include "model/mem.h"

extern char **environ;
int creds_env_keys(creds *out, diag *d)
{
    const char *ak = creds_env("AWS_ACCESS_KEY_ID"), *sk = creds_env("AWS_SECRET_ACCESS_KEY");
    if (ak && sk) {
        out->access_key = xstrdup(ak);
        out->secret_key = xstrdup(sk);
        out->session_token = creds_env("AWS_SESSION_TOKEN") ? xstrdup(creds_env("AWS_SESSION_TOKEN")) : NULL;
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

status creds_run_process(const char *cmd, const char *where, creds *out, diag *d)
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
    buf_wipe(&o);
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
int creds_static_keys(const cfg *c, int file, const char *prof, creds *out, diag *d)
{
    char sec[512], where[1100];
    snprintf(sec, sizeof sec, "profile %s", prof);
    creds_where_of(c, file, prof, where, sizeof where);
    const char *ak = creds_cfg_find(c, file, sec, "aws_access_key_id", NULL, NULL);
    const char *sk = creds_cfg_find(c, file, sec, "aws_secret_access_key", NULL, NULL);
    const char *tok = creds_cfg_find(c, file, sec, "aws_session_token", NULL, NULL);
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

int creds_has_static(const cfg *c, const char *prof)
{
    return creds_pget(c, prof, "aws_access_key_id") != NULL;
}

