/*
 * creds_sso — IAM Identity Center: the token the AWS CLI's `aws sso login`
 * cached (refreshed when its session allows), exchanged for the role's
 * keys at the portal. Part of creds (see creds.h, creds_int.h).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "data/creds_int.h"
#include "data/creds_net.h"
#include "model/buf.h"
#include "model/mem.h"

/* ---- IAM Identity Center ------------------------------------------------- */

static int sso_login_error(diag *d, const char *prof, const char *why)
{
    diag_set(d, ST_USAGE, "the IAM Identity Center (SSO) token for profile '%s' %s: run "
             "`aws sso login --profile %s`", prof, why, prof);
    return -1;
}

/* A service URL: the configured endpoint + path, else https://HOST.REGION.amazonaws.com + path. */
static char *service_url(const char *var, rctx *x, const char *service, const char *host, const char *region,
                         const char *path)
{
    const char *ep = creds_endpoint_of(var, &x->c, x->top, service);
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
    const char *cid = creds_jstr(j, "clientId"), *csec = creds_jstr(j, "clientSecret");
    const char *rt = creds_jstr(j, "refreshToken"), *rexp = creds_jstr(j, "registrationExpiresAt");
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
    creds_wipe_free(body);
    free(url);
    cJSON *a = ok ? cJSON_Parse(resp.data) : NULL;
    buf_wipe(&resp);
    const char *at = creds_jstr(a, "accessToken");
    const cJSON *ein = cJSON_GetObjectItemCaseSensitive(a, "expiresIn");
    if (!at || !cJSON_IsNumber(ein)) {
        cJSON_Delete(a);
        return 0;
    }
    char when[32];
    creds_iso_time((long long)time(NULL) + (long long)ein->valuedouble, when);
    cJSON_ReplaceItemInObjectCaseSensitive(j, "accessToken", cJSON_CreateString(at));
    if (cJSON_GetObjectItemCaseSensitive(j, "expiresAt"))
        cJSON_ReplaceItemInObjectCaseSensitive(j, "expiresAt", cJSON_CreateString(when));
    else
        cJSON_AddStringToObject(j, "expiresAt", when);
    const char *nrt = creds_jstr(a, "refreshToken");
    if (nrt)
        cJSON_ReplaceItemInObjectCaseSensitive(j, "refreshToken", cJSON_CreateString(nrt));
    cJSON *s = cJSON_GetObjectItemCaseSensitive(a, "accessToken");
    creds_wipe(s->valuestring);
    s = cJSON_GetObjectItemCaseSensitive(a, "refreshToken");
    if (cJSON_IsString(s))
        creds_wipe(s->valuestring);
    cJSON_Delete(a);
    char *text = cJSON_PrintUnformatted(j);
    creds_write_private(path, text);
    creds_wipe_free(text);
    return 1;
}

/* The profile's IAM Identity Center settings, taken from its sso-session
 * when it names one: 0 when it has none, -1 when they are incomplete or
 * disagree with the session. */
typedef struct sso_conf {
    const char *sess, *url, *region, *acct, *role;
} sso_conf;

static int sso_settings(rctx *x, const char *prof, sso_conf *s, diag *d)
{
    s->sess = creds_pget(&x->c, prof, "sso_session");
    s->url = creds_pget(&x->c, prof, "sso_start_url");
    s->region = creds_pget(&x->c, prof, "sso_region");
    s->acct = creds_pget(&x->c, prof, "sso_account_id");
    s->role = creds_pget(&x->c, prof, "sso_role_name");
    if (!s->sess && !s->url && !s->region && !s->acct && !s->role)
        return 0;
    if (s->sess) {
        char sec[512];
        snprintf(sec, sizeof sec, "sso-session %s", s->sess);
        if (!creds_cfg_has_section(&x->c, sec)) {
            diag_set(d, ST_USAGE, "profile '%s' names sso_session '%s', which has no "
                     "[sso-session %s] section in %s", prof, s->sess, s->sess, x->c.conf);
            return -1;
        }
        const char *surl = creds_cfg_find(&x->c, F_CONF, sec, "sso_start_url", NULL, NULL);
        const char *sreg = creds_cfg_find(&x->c, F_CONF, sec, "sso_region", NULL, NULL);
        if ((s->url && surl && strcmp(s->url, surl) != 0) ||
            (s->region && sreg && strcmp(s->region, sreg) != 0)) {
            diag_set(d, ST_USAGE, "profile '%s' has sso_start_url or sso_region that differ "
                     "from its sso_session '%s'", prof, s->sess);
            return -1;
        }
        s->url = surl && *surl ? surl : s->url;
        s->region = sreg && *sreg ? sreg : s->region;
    }
    const char *missing = !s->url ? "sso_start_url" : !s->region ? "sso_region" :
                          !s->acct ? "sso_account_id" : !s->role ? "sso_role_name" : NULL;
    if (missing) {
        diag_set(d, ST_USAGE, "profile '%s' is set up for IAM Identity Center but lacks %s%s",
                 prof, missing, s->sess ? " (in the profile or its sso-session)" : "");
        return -1;
    }
    return 1;
}

/* The AWS CLI caches the role's keys too (botocore's
 * SSOCredentialFetcher: SHA-1 of {"accountId","roleName",
 * "sessionName"|"startUrl"}); ddbx shares that cache. */
static void sso_role_cache_key(const sso_conf *s, char ckey[41])
{
    cJSON *k = cJSON_CreateObject();
    cJSON_AddStringToObject(k, "accountId", s->acct);
    cJSON_AddStringToObject(k, "roleName", s->role);
    if (s->sess)
        cJSON_AddStringToObject(k, "sessionName", s->sess);
    else
        cJSON_AddStringToObject(k, "startUrl", s->url);
    char *ks = cJSON_PrintUnformatted(k);
    creds_sha1_hex(ks, ckey);
    free(ks);
    cJSON_Delete(k);
}

/* The access token `aws sso login` cached, refreshed when it is about to
 * expire and the session allows: NULL with d set when there is none
 * usable. *j (the parsed cache file, wiped and freed by the caller) and
 * *path (malloc'd) are set either way. */
static const char *sso_token(rctx *x, const char *prof, const sso_conf *s, cJSON **j,
                             char **path, diag *d)
{
    char hash[41], rel[128];
    creds_sha1_hex(s->sess ? s->sess : s->url, hash);
    snprintf(rel, sizeof rel, ".aws/sso/cache/%s.json", hash);
    *path = creds_home_path(rel);
    char *text = creds_read_small(*path);
    *j = text ? cJSON_Parse(text) : NULL;
    creds_wipe_free(text);
    const char *tok = creds_jstr(*j, "accessToken");
    const char *exps = creds_jstr(*j, "expiresAt");
    long long exp = exps ? creds_parse_time(exps) : -1;
    long long now = (long long)time(NULL);
    if (!tok || exp < 0) {
        sso_login_error(d, prof, "is not in ~/.aws/sso/cache");
        return NULL;
    }
    if (s->sess && exp - CACHE_WINDOW <= now && sso_refresh(x, s->region, *path, *j)) {
        tok = creds_jstr(*j, "accessToken");
        exp = creds_parse_time(creds_jstr(*j, "expiresAt"));
    }
    if (exp <= now) {
        sso_login_error(d, prof, "has expired");
        return NULL;
    }
    return tok;
}

/* GetRoleCredentials at the portal with the token: 1 with *out filled,
 * -1 with d set. */
static int sso_role_credentials(rctx *x, const char *prof, const sso_conf *s, const char *tok,
                                creds *out, diag *d)
{
    int r = -1;
    const cJSON *rc = NULL;
    buf u = BUF_INIT;
    char *base = service_url("AWS_ENDPOINT_URL_SSO", x, "sso", "portal.sso", s->region,
                             "/federation/credentials");
    buf_printf(&u, "%s?", base);
    free(base);
    net_form_add(&u, "account_id", s->acct);
    net_form_add(&u, "role_name", s->role);
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
    buf_wipe(&h);
    buf_done(&u);
    cJSON *a = st == ST_OK ? cJSON_Parse(resp.data) : NULL;
    buf_wipe(&resp);
    if (st != ST_OK)
        goto out;
    if (http == 401 || http == 403) {
        sso_login_error(d, prof, "was refused by the portal (expired or signed out)");
        goto out;
    }
    rc = cJSON_GetObjectItemCaseSensitive(a, "roleCredentials");
    const cJSON *ex = cJSON_GetObjectItemCaseSensitive(rc, "expiration");
    const char *ak = creds_jstr(rc, "accessKeyId"), *sk = creds_jstr(rc, "secretAccessKey");
    const char *st_ = creds_jstr(rc, "sessionToken");
    if (http != 200 || !ak || !sk || !st_ || !cJSON_IsNumber(ex)) {
        const char *m = creds_jstr(a, "message") ? creds_jstr(a, "message") : creds_jstr(a, "Message");
        diag_set(d, ST_IO, "GetRoleCredentials for account %s, role %s (profile '%s'): HTTP "
                 "%ld%s%s", s->acct, s->role, prof, http, m ? ": " : "", m ? m : "");
        goto out;
    }
    out->access_key = xstrdup(ak);
    out->secret_key = xstrdup(sk);
    out->session_token = xstrdup(st_);
    out->expires = (long long)(ex->valuedouble / 1000);
    r = 1;
out:
    if (rc)
        creds_wipe_json_strings((cJSON *)rc);
    cJSON_Delete(a);
    return r;
}

int creds_sso(rctx *x, const char *prof, creds *out, diag *d)
{
    sso_conf s;
    int r = sso_settings(x, prof, &s, d);
    if (r <= 0)
        return r;
    char what[1100], ckey[41];
    snprintf(what, sizeof what, "IAM Identity Center (profile %s%s%s, %s)", prof,
             s.sess ? ", sso_session " : "", s.sess ? s.sess : "", s.url);
    sso_role_cache_key(&s, ckey);
    if (creds_cache_load(ckey, out, what)) {
        snprintf(out->identity, sizeof out->identity, "account %s, role %s", s.acct, s.role);
        return 1;
    }
    cJSON *j = NULL;
    char *path = NULL;
    const char *tok = sso_token(x, prof, &s, &j, &path, d);
    r = tok ? sso_role_credentials(x, prof, &s, tok, out, d) : -1;
    if (r > 0) {
        snprintf(out->source, sizeof out->source, "%s", what);
        creds_cache_store(ckey, out);
        snprintf(out->identity, sizeof out->identity, "account %s, role %s", s.acct, s.role);
    }
    creds_wipe_json_strings(j);
    cJSON_Delete(j);
    free(path);
    return r;
}
