/*
 * creds_net — HTTP for the credential providers (see creds_net.h).
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <curl/curl.h>

#include "data/creds_net.h"
#include "data/sigv4.h"
#include "model/mem.h"

#define MAX_BODY (1u << 20)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int curl_ok;

static void init_once(void)
{
    curl_ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    buf *b = ud;
    size_t len = size * n;
    if (b->len + len > MAX_BODY)
        return 0;
    buf_add(b, p, len);
    return len;
}

/* host[:port] of a URL for messages (never user, path or query). */
static void url_host(const char *url, char *out, size_t n)
{
    const char *p = strstr(url, "://");
    p = p ? p + 3 : url;
    const char *at = strpbrk(p, "@/?#");
    if (at && *at == '@')
        p = at + 1;
    size_t k = strcspn(p, "/?#");
    snprintf(out, n, "%.*s", (int)(k < 200 ? k : 200), p);
}

status net_do(const net_req *q, long *http, buf *resp, diag *d)
{
    *http = 0;
    buf_reset(resp);
    pthread_once(&once, init_once);
    if (!curl_ok)
        return diag_set(d, ST_INTERNAL, "libcurl failed to initialise");
    CURL *c = curl_easy_init();
    if (!c)
        return diag_set(d, ST_INTERNAL, "libcurl: cannot create a handle");
    struct curl_slist *h = NULL;
    for (const char *const *p = q->headers; p && *p; p++)
        h = curl_slist_append(h, *p);
    h = curl_slist_append(h, "Expect:");
    long ms = q->timeout_ms > 0 ? q->timeout_ms : 10000;
    curl_easy_setopt(c, CURLOPT_URL, q->url);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, ms);
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, ms);
    curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(c, CURLOPT_USERAGENT, "ddbx/0.1");
    /* IMDS and the container endpoint are on the machine's own link: a
     * proxy from http_proxy could not reach them (and must not see the
     * token). */
    if (q->direct)
        curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    if (q->ca_bundle && *q->ca_bundle)
        curl_easy_setopt(c, CURLOPT_CAINFO, q->ca_bundle);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, resp);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    if (strcmp(q->method, "POST") == 0) {
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, q->body ? q->body : "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(q->body ? q->body_len : 0));
    } else if (strcmp(q->method, "PUT") == 0) {
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, "PUT");
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, q->body ? q->body : "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(q->body ? q->body_len : 0));
    }
    /* As in remote.c: a write to a dropped connection is an error, not
     * SIGPIPE's end of the process. */
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    CURLcode rc = curl_easy_perform(c);
    if (!sigismember(&old_set, SIGPIPE)) {
        struct timespec zero = { 0, 0 };
        sigset_t pending;
        sigpending(&pending);
        if (sigismember(&pending, SIGPIPE))
            sigtimedwait(&pipe_set, NULL, &zero);
        pthread_sigmask(SIG_SETMASK, &old_set, NULL);
    }
    status st = ST_OK;
    char host[256];
    url_host(q->url, host, sizeof host);
    if (rc != CURLE_OK) {
        const char *how = rc == CURLE_OPERATION_TIMEDOUT ? "timed out talking to" :
                          rc == CURLE_COULDNT_CONNECT ? "cannot connect to" :
                          rc == CURLE_COULDNT_RESOLVE_HOST ? "cannot resolve" :
                          rc == CURLE_PEER_FAILED_VERIFICATION ?
                          "the TLS certificate is not trusted (ca_bundle or AWS_CA_BUNDLE names a CA file) for" :
                          "no answer from";
        st = diag_set(d, ST_IO, "%s %s (%s): %s", how, q->what, host, curl_easy_strerror(rc));
    } else {
        curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, http);
    }
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, NULL);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    buf_addc(resp, '\0');
    resp->len--;
    return st;
}

void net_form_add(buf *b, const char *name, const char *value)
{
    buf_printf(b, "&%s=", name);
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '_' || *p == '.' || *p == '~')
            buf_addc(b, (char)*p);
        else
            buf_printf(b, "%%%02X", *p);
    }
}

char *creds_xml_text(const char *xml, const char *tag)
{
    if (!xml)
        return NULL;
    char open[128], close[128];
    snprintf(open, sizeof open, "<%s>", tag);
    snprintf(close, sizeof close, "</%s>", tag);
    const char *a = strstr(xml, open);
    if (!a)
        return NULL;
    a += strlen(open);
    const char *z = strstr(a, close);
    if (!z)
        return NULL;
    buf o = BUF_INIT;
    buf_adds(&o, "");
    for (const char *p = a; p < z; p++) {
        if (*p != '&') {
            buf_addc(&o, *p);
            continue;
        }
        static const struct { const char *ent; char c; } ents[] = {
            { "&amp;", '&' }, { "&lt;", '<' }, { "&gt;", '>' }, { "&quot;", '"' }, { "&apos;", '\'' },
        };
        size_t i;
        for (i = 0; i < sizeof ents / sizeof ents[0]; i++)
            if (strncmp(p, ents[i].ent, strlen(ents[i].ent)) == 0)
                break;
        if (i < sizeof ents / sizeof ents[0]) {
            buf_addc(&o, ents[i].c);
            p += strlen(ents[i].ent) - 1;
        } else if (p[1] == '#') {
            char *end;
            unsigned long cp = p[2] == 'x' ? strtoul(p + 3, &end, 16) : strtoul(p + 2, &end, 10);
            if (*end == ';' && cp > 0 && cp < 128) {
                buf_addc(&o, (char)cp);
                p = end;
            } else {
                buf_addc(&o, '&');
            }
        } else {
            buf_addc(&o, '&');
        }
    }
    return buf_steal(&o);
}

static void wipe(char *s)
{
    if (s)
        for (volatile char *p = s; *p; p++)
            *p = 0;
}

/* Codes a retry does not fix: the configuration (or the user) must. */
static int is_config_error(const char *code)
{
    static const char *const names[] = {
        "AccessDenied", "AccessDeniedException", "InvalidClientTokenId", "ExpiredToken",
        "ExpiredTokenException", "InvalidIdentityToken", "IDPRejectedClaim",
        "MalformedPolicyDocument", "ValidationError", "RegionDisabledException",
        "SignatureDoesNotMatch", "InvalidParameterValue", NULL,
    };
    for (size_t i = 0; names[i]; i++)
        if (strcmp(code, names[i]) == 0)
            return 1;
    return 0;
}

status net_sts(const sts_target *t, const creds *signer, const char *form, char **xml,
               diag *d)
{
    *xml = NULL;
    status st;
    char *host = NULL, *path = NULL;
    CURLU *u = curl_url();
    char *h = NULL, *port = NULL, *p = NULL;
    pthread_once(&once, init_once);
    if (!u || curl_url_set(u, CURLUPART_URL, t->endpoint, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK) {
        if (u)
            curl_url_cleanup(u);
        return diag_set(d, ST_USAGE, "the STS endpoint is not a URL");
    }
    if (curl_url_get(u, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
        port = NULL;
    if (curl_url_get(u, CURLUPART_PATH, &p, 0) != CURLUE_OK)
        p = NULL;
    buf hb = BUF_INIT;
    buf_adds(&hb, h);
    if (port)
        buf_printf(&hb, ":%s", port);
    host = buf_steal(&hb);
    path = xstrdup(p && *p ? p : "/");
    curl_free(h);
    curl_free(port);
    curl_free(p);
    curl_url_cleanup(u);

    const char *ctype = "application/x-www-form-urlencoded; charset=utf-8";
    char amz_date[17];
    sigv4_amz_date((long long)time(NULL), amz_date);
    buf lines[4];
    for (int i = 0; i < 4; i++)
        buf_init(&lines[i]);
    const char *hdrs[6] = { NULL };
    size_t nh = 0;
    buf_printf(&lines[0], "Content-Type: %s", ctype);
    hdrs[nh++] = lines[0].data;
    if (signer) {
        sigv4_header sh[4] = {
            { "content-type", ctype },
            { "host", host },
            { "x-amz-date", amz_date },
            { "x-amz-security-token", signer->session_token },
        };
        sigv4_input in = {
            .method = "POST", .path = path, .query = NULL,
            .headers = sh, .nheaders = signer->session_token ? 4 : 3,
            .payload = form, .payload_len = strlen(form), .amz_date = amz_date,
            .region = t->region, .service = "sts",
            .access_key = signer->access_key, .secret_key = signer->secret_key,
        };
        sigv4_result sig;
        st = sigv4_sign(&in, &sig, d);
        if (st != ST_OK)
            goto out;
        buf_printf(&lines[1], "X-Amz-Date: %s", amz_date);
        hdrs[nh++] = lines[1].data;
        buf_printf(&lines[2], "Authorization: %s", sig.authorization);
        hdrs[nh++] = lines[2].data;
        sigv4_result_free(&sig);
        if (signer->session_token) {
            buf_printf(&lines[3], "X-Amz-Security-Token: %s", signer->session_token);
            hdrs[nh++] = lines[3].data;
        }
    }
    hdrs[nh] = NULL;
    net_req q = {
        .method = "POST", .url = t->endpoint, .headers = hdrs, .body = form,
        .body_len = strlen(form), .timeout_ms = t->timeout_ms, .ca_bundle = t->ca_bundle,
        .what = "STS",
    };
    long http = 0;
    buf resp = BUF_INIT;
    st = net_do(&q, &http, &resp, d);
    if (st == ST_OK && http != 200) {
        char *code = creds_xml_text(resp.data, "Code");
        char *msg = creds_xml_text(resp.data, "Message");
        if (code)
            st = diag_set(d, is_config_error(code) ? ST_USAGE : ST_IO, "STS %s: %s", code,
                          msg ? msg : "(no message)");
        else
            st = diag_set(d, ST_IO, "STS (%s) answered HTTP %ld", host, http);
        free(code);
        free(msg);
    }
    if (st == ST_OK)
        *xml = resp.data ? buf_steal(&resp) : xstrdup("");
    else if (resp.data)
        memset(resp.data, 0, resp.len);
    buf_done(&resp);
out:
    for (int i = 0; i < 4; i++) {
        if (lines[i].data)
            memset(lines[i].data, 0, lines[i].len);
        buf_done(&lines[i]);
    }
    free(host);
    free(path);
    return st;
}

status net_sts_creds(const char *xml, const char *what, creds *out, diag *d)
{
    char *ak = creds_xml_text(xml, "AccessKeyId");
    char *sk = creds_xml_text(xml, "SecretAccessKey");
    char *tok = creds_xml_text(xml, "SessionToken");
    char *exp = creds_xml_text(xml, "Expiration");
    char *user = creds_xml_text(xml, "AssumedRoleUser");
    char *arn = user ? creds_xml_text(user, "Arn") : NULL;
    status st = ST_OK;
    long long e = exp ? creds_parse_time(exp) : -1;
    if (!ak || !*ak || !sk || !*sk || !tok || e < 0) {
        st = diag_set(d, ST_IO, "%s: the answer lacks AccessKeyId, SecretAccessKey, "
                      "SessionToken or Expiration", what);
        free(ak);
        wipe(sk);
        free(sk);
        wipe(tok);
        free(tok);
    } else {
        out->access_key = ak;
        out->secret_key = sk;
        out->session_token = tok;
        out->expires = e;
        if (arn)
            snprintf(out->identity, sizeof out->identity, "%s", arn);
    }
    free(exp);
    free(user);
    free(arn);
    return st;
}
