/*
 * creds_metadata — the keys a host hands out: the container credentials
 * endpoint (ECS, EKS Pod Identity) and the EC2 instance metadata service
 * (IMDSv2, v1 as botocore allows). Part of creds (see creds.h,
 * creds_int.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <cjson/cJSON.h>

#include "data/creds_int.h"
#include "data/creds_net.h"
#include "model/buf.h"
#include "model/mem.h"

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
    const char *rel = creds_env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    const char *full = creds_env("AWS_CONTAINER_CREDENTIALS_FULL_URI");
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
    const char *ak = creds_jstr(j, "AccessKeyId"), *sk = creds_jstr(j, "SecretAccessKey");
    const char *tok = creds_jstr(j, "Token"), *exp = creds_jstr(j, "Expiration");
    const char *code = creds_jstr(j, "Code");
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
        const char *arn = creds_jstr(j, "RoleArn");
        if (arn)
            snprintf(out->identity, sizeof out->identity, "%s", arn);
        r = 1;
    }
    creds_wipe_json_strings(j);
    cJSON_Delete(j);
    return r;
}

int creds_container(rctx *x, creds *out, diag *d)
{
    char *url = NULL;
    int r = creds_container_url(&url, d);
    if (r <= 0)
        return r;
    char *tok = NULL;
    const char *tf = creds_env("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    if (tf) {
        tok = creds_read_small(tf);
        if (!tok) {
            diag_set(d, ST_IO, "cannot read AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE %s: %s", tf,
                     strerror(errno));
            free(url);
            return -1;
        }
    } else if (creds_env("AWS_CONTAINER_AUTHORIZATION_TOKEN")) {
        tok = xstrdup(creds_env("AWS_CONTAINER_AUTHORIZATION_TOKEN"));
    }
    buf h = BUF_INIT;
    if (tok) {
        char *t = creds_trim(tok);
        if (strpbrk(t, "\r\n")) {
            diag_set(d, ST_USAGE, "the container authorization token has a line break in it");
            creds_wipe_free(tok);
            free(url);
            return -1;
        }
        buf_printf(&h, "Authorization: %s", t);
        creds_wipe_free(tok);
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
        const char *m = creds_jstr(j, "message") ? creds_jstr(j, "message") : creds_jstr(j, "Message");
        diag_set(d, ST_IO, "the container credentials endpoint answered HTTP %ld%s%s", http,
                 m ? ": " : "", m ? m : "");
        cJSON_Delete(j);
        if (http < 500)
            break;
    }
    buf_wipe(&resp);
    buf_wipe(&h);
    if (r > 0)
        snprintf(out->source, sizeof out->source, "container credentials endpoint (%s)",
                 creds_env("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI") ?
                 "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI" : "AWS_CONTAINER_CREDENTIALS_FULL_URI");
    free(url);
    return r;
}

int creds_imds(rctx *x, creds *out, diag *d)
{
    const char *prof = x->top;
    if (creds_is_true(creds_env("AWS_EC2_METADATA_DISABLED"))) {
        snprintf(x->imds_note, sizeof x->imds_note, "disabled by AWS_EC2_METADATA_DISABLED");
        return 0;
    }
    const char *ep = creds_conf_setting("AWS_EC2_METADATA_SERVICE_ENDPOINT", &x->c, prof,
                             "ec2_metadata_service_endpoint");
    const char *mode = creds_conf_setting("AWS_EC2_METADATA_SERVICE_ENDPOINT_MODE", &x->c, prof,
                               "ec2_metadata_service_endpoint_mode");
    if (!ep)
        ep = mode && strcasecmp(mode, "IPv6") == 0 ? "http://[fd00:ec2::254]" : "http://169.254.169.254";
    const char *ts = creds_conf_setting("AWS_METADATA_SERVICE_TIMEOUT", &x->c, prof, "metadata_service_timeout");
    const char *as = creds_conf_setting("AWS_METADATA_SERVICE_NUM_ATTEMPTS", &x->c, prof,
                             "metadata_service_num_attempts");
    double secs = ts ? strtod(ts, NULL) : 1;
    long attempts = as ? strtol(as, NULL, 10) : 1;
    if (!(secs > 0))
        secs = 1;
    if (attempts < 1)
        attempts = 1;
    int v1_off = creds_is_true(creds_conf_setting("AWS_EC2_METADATA_V1_DISABLED", &x->c, prof,
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
        buf_printf(&th, "X-aws-ec2-metadata-token: %s", creds_trim(resp.data));
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
    buf_wipe(&resp);
    buf_wipe(&th);
    return r;
}

