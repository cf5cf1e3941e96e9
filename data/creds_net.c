/*
 * creds_net — HTTP for the credential providers (see creds_net.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "data/creds_net.h"
#include "data/remote.h"
#include "data/sigv4.h"
#include "model/mem.h"

status net_do(const net_req *q, long *http, buf *resp, diag *d)
{
    return remote_http_do(q, http, resp, d);
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
    return remote_code_in(code, names);
}

status net_sts(const sts_target *t, const creds *signer, const char *form, char **xml,
               diag *d)
{
    *xml = NULL;
    char *host = NULL, *path = NULL;
    status st = remote_url_split(t->endpoint, &host, &path, d);
    if (st != ST_OK)
        return diag_set(d, ST_USAGE, "the STS endpoint is not a URL");

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
    else
        buf_wipe(&resp);
out:
    for (int i = 0; i < 4; i++)
        buf_wipe(&lines[i]);
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
