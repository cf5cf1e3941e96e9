/*
 * creds — the AWS credential chain (see creds.h): the helpers its
 * providers share, the CLI's caches of temporary keys, the keys held in
 * memory, and the chain itself. The providers are in creds_process.c
 * (environment, static keys, credential_process), creds_role.c (STS:
 * assume-role, web identity, who am I), creds_sso.c (IAM Identity
 * Center) and creds_metadata.c (containers, EC2); the two files and the
 * settings in creds_config.c. They share creds_int.h. The HTTP calls are
 * in creds_net.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "data/creds_int.h"
#include "data/sigv4.h"
#include "model/buf.h"
#include "model/mem.h"

const char *creds_env(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

int creds_is_true(const char *v)
{
    return v && strcasecmp(v, "true") == 0;
}

const char *creds_profile_name(const char *profile)
{
    if (profile && *profile)
        return profile;
    return creds_env("AWS_PROFILE") ? creds_env("AWS_PROFILE") : "default";
}

/* A path under the home directory: ~/REL. */
char *creds_home_path(const char *rel)
{
    const char *home = creds_env("HOME");
    size_t n = strlen(home ? home : ".") + strlen(rel) + 2;
    char *p = xmalloc(n);
    snprintf(p, n, "%s/%s", home ? home : ".", rel);
    return p;
}

void creds_wipe(char *s)
{
    if (s)
        for (volatile char *p = s; *p; p++)
            *p = 0;
}

void creds_wipe_free(char *s)
{
    creds_wipe(s);
    free(s);
}

void creds_done(creds *c)
{
    if (!c)
        return;
    free(c->access_key);
    creds_wipe_free(c->secret_key);
    creds_wipe_free(c->session_token);
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

char *creds_trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r' || s[n - 1] == '\n'))
        s[--n] = '\0';
    return s;
}

const char *creds_jstr(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) && *v->valuestring ? v->valuestring : NULL;
}

void creds_wipe_json_strings(cJSON *j)
{
    for (cJSON *c = j ? j->child : NULL; c; c = c->next)
        if (cJSON_IsString(c))
            creds_wipe(c->valuestring);
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
char *creds_read_small(const char *path)
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
        buf_wipe(&b);
        return NULL;
    }
    return buf_steal(&b);
}

/* Writes text to path atomically, mode 0600, making its directory 0700. */
int creds_write_private(const char *path, const char *text)
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

void creds_iso_time(long long t, char out[32])
{
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The CLI's AssumeRole cache entry, when it has more than 15 minutes. */
int creds_cache_load(const char *key, creds *out, const char *source)
{
    char rel[128];
    snprintf(rel, sizeof rel, ".aws/cli/cache/%s.json", key);
    char *path = creds_home_path(rel);
    char *text = creds_read_small(path);
    free(path);
    if (!text)
        return 0;
    cJSON *j = cJSON_Parse(text);
    creds_wipe_free(text);
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
        creds_wipe(sk->valuestring);
    if (tok && cJSON_IsString(tok))
        creds_wipe(tok->valuestring);
    cJSON_Delete(j);
    return found;
}

void creds_cache_store(const char *key, const creds *c)
{
    char rel[128], when[32];
    snprintf(rel, sizeof rel, ".aws/cli/cache/%s.json", key);
    char *path = creds_home_path(rel);
    creds_iso_time(c->expires, when);
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
    creds_write_private(path, text);   /* a cache: failing to write it is not an error */
    creds_wipe_free(text);
    cJSON *s = cJSON_GetObjectItemCaseSensitive(cr, "SecretAccessKey");
    creds_wipe(s->valuestring);
    s = cJSON_GetObjectItemCaseSensitive(cr, "SessionToken");
    creds_wipe(s->valuestring);
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

/* ---- the chain ----------------------------------------------------------- */

/* The profile's own providers (botocore: assume-role when top, then web
 * identity, SSO, the credentials file, credential_process, the config
 * file). top: the profile asked for (the environment's web identity
 * variables apply); else a source_profile. */
int creds_profile_chain(rctx *x, const char *prof, int top, creds *out, diag *d)
{
    int has_role = creds_pget(&x->c, prof, "role_arn") && !creds_pget(&x->c, prof, "web_identity_token_file");
    /* A source profile with static keys uses them, even with a role_arn. */
    if (has_role && (top || !creds_has_static(&x->c, prof)))
        return creds_assume_role(x, prof, out, d);
    int r = creds_web_identity(x, prof, top, out, d);
    if (r)
        return r;
    r = creds_sso(x, prof, out, d);
    if (r)
        return r;
    r = creds_static_keys(&x->c, F_CRED, prof, out, d);
    if (r)
        return r;
    int from = F_CONF;
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", prof);
    const char *cmd = creds_cfg_find(&x->c, F_CONF | F_CRED, sec, "credential_process", NULL, &from);
    if (cmd && *cmd) {
        char where[1100];
        creds_where_of(&x->c, from, prof, where, sizeof where);
        return creds_run_process(cmd, where, out, d) == ST_OK ? 1 : -1;
    }
    return creds_static_keys(&x->c, F_CONF, prof, out, d);
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
    status st = creds_cfg_load(&x.c, d);
    int r = 0;
    if (st != ST_OK)
        goto out;
    x.region = region && *region ? region : creds_region_of(&x.c, prof);
    x.ca_bundle = creds_conf_setting("AWS_CA_BUNDLE", &x.c, prof, "ca_bundle");

    if (!explicit_profile) {
        r = creds_env_keys(out, d);
        if (r)
            goto done;
    }
    char sec[512];
    snprintf(sec, sizeof sec, "profile %s", prof);
    if (strcmp(prof, "default") != 0 && !creds_cfg_has_section(&x.c, sec)) {
        r = -1;
        diag_set(d, ST_USAGE, "the profile '%s'%s is in neither %s nor %s", prof,
                 explicit_profile ? "" : " (AWS_PROFILE)", x.c.conf, x.c.cred);
        goto done;
    }
    r = creds_profile_chain(&x, prof, 1, out, d);
    if (r == 0)
        r = creds_container(&x, out, d);
    if (r == 0)
        r = creds_imds(&x, out, d);
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
    creds_cfg_free(&x.c);
    pthread_mutex_unlock(&chain_lock);
    return st;
}

