/*
 * sigv4_check — a request's signature checked (data/sigv4_check.h).
 */
#include "data/sigv4_check.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "model/mem.h"

/* AWS's window either side of its clock. */
#define WINDOW_S (15 * 60)

/* Copies [p, end) into out[n]; false when it does not fit or is empty. */
static bool part(const char *p, const char *end, char *out, size_t n)
{
    size_t k = (size_t)(end - p);
    if (k == 0 || k >= n)
        return false;
    memcpy(out, p, k);
    out[k] = '\0';
    return true;
}

/* The value of "NAME=" in the comma-separated list after the algorithm,
 * up to the next comma or the end. */
static const char *field(const char *s, const char *name, const char **end)
{
    size_t n = strlen(name);
    for (const char *p = s; (p = strstr(p, name)) != NULL; p += n) {
        if (p != s && p[-1] != ' ' && p[-1] != ',')
            continue;
        const char *v = p + n;
        *end = v + strcspn(v, ", ");
        return v;
    }
    return NULL;
}

bool sigv4_parse_authorization(const char *value, sigv4_auth *out)
{
    static const char alg[] = "AWS4-HMAC-SHA256 ";
    memset(out, 0, sizeof *out);
    if (!value || strncmp(value, alg, sizeof alg - 1) != 0)
        return false;
    const char *s = value + sizeof alg - 1, *end;
    const char *cred = field(s, "Credential=", &end);
    if (!cred)
        return false;
    /* KEY/DATE/REGION/SERVICE/aws4_request */
    const char *p = cred, *slash[4];
    for (int i = 0; i < 4; i++) {
        slash[i] = memchr(p, '/', (size_t)(end - p));
        if (!slash[i])
            return false;
        p = slash[i] + 1;
    }
    if ((size_t)(end - p) != strlen("aws4_request") || strncmp(p, "aws4_request", 12) != 0 ||
        !part(cred, slash[0], out->key, sizeof out->key) ||
        !part(slash[0] + 1, slash[1], out->date, sizeof out->date) ||
        !part(slash[1] + 1, slash[2], out->region, sizeof out->region) ||
        !part(slash[2] + 1, slash[3], out->service, sizeof out->service))
        return false;
    const char *sh = field(s, "SignedHeaders=", &end);
    if (!sh || !part(sh, end, out->signed_headers, sizeof out->signed_headers))
        return false;
    const char *sig = field(s, "Signature=", &end);
    return sig && part(sig, end, out->signature, sizeof out->signature);
}

/* "20150830T123600Z" as seconds since the epoch; -1 when malformed. */
static long long amz_time(const char *s)
{
    struct tm tm = { 0 };
    if (!s || strlen(s) != 16 || s[8] != 'T' || s[15] != 'Z' ||
        sscanf(s, "%4d%2d%2dT%2d%2d%2dZ", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &tm.tm_hour, &tm.tm_min,
               &tm.tm_sec) != 6)
        return -1;
    tm.tm_year -= 1900;
    tm.tm_mon -= 1;
    return (long long)timegm(&tm);
}

/* Equal in time independent of where they differ. */
static bool same(const char *a, const char *b)
{
    size_t n = strlen(a);
    if (n != strlen(b))
        return false;
    unsigned char diff = 0;
    for (size_t i = 0; i < n; i++)
        diff |= (unsigned char)(a[i] ^ b[i]);
    return diff == 0;
}

/* The signature the headers a names would have under secret; false when
 * a signed header is missing from the request. */
static bool recompute(const sigv4_request *rq, const sigv4_auth *a, const char *secret, char sig[65])
{
    sigv4_header hs[64];
    size_t nh = 0;
    char names[sizeof a->signed_headers];
    memcpy(names, a->signed_headers, sizeof names);
    for (char *save = NULL, *tok = strtok_r(names, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
        size_t i = 0;
        while (i < rq->nheaders && strcasecmp(rq->headers[i].name, tok) != 0)
            i++;
        if (i == rq->nheaders || nh == 64)
            return false;
        hs[nh++] = rq->headers[i];
    }
    sigv4_input in = {
        .method = rq->method, .path = rq->path, .query = rq->query, .headers = hs, .nheaders = nh,
        .payload = rq->body, .payload_len = rq->body_len, .amz_date = rq->amz_date, .region = a->region,
        .service = a->service, .access_key = a->key, .secret_key = secret,
    };
    sigv4_result r;
    diag d;
    diag_init(&d);
    if (sigv4_sign(&in, &r, &d) != ST_OK)
        return false;
    bool ok = strcmp(r.signed_headers, a->signed_headers) == 0;
    memcpy(sig, r.signature, 65);
    sigv4_result_free(&r);
    return ok;
}

sigv4_verdict sigv4_check(const sigv4_request *rq, const char *key, const char *secret, long long now,
                          const char **type, char *msg, size_t n)
{
    sigv4_auth a;
    if (!rq->authorization) {
        *type = "MissingAuthenticationTokenException";
        snprintf(msg, n, "Request is missing Authentication Token");
        return SIGV4_MISSING;
    }
    if (sigv4_parse_authorization(rq->authorization, &a) && strcmp(a.key, key) != 0) {
        *type = "UnrecognizedClientException";
        snprintf(msg, n, "The security token included in the request is invalid.");
        return SIGV4_UNKNOWN_KEY;
    }
    char sig[65] = "";
    long long t = amz_time(rq->amz_date);
    if (!sigv4_parse_authorization(rq->authorization, &a) || t < 0 || !recompute(rq, &a, secret, sig) ||
        !same(sig, a.signature)) {
        *type = "InvalidSignatureException";
        snprintf(msg, n, "The request signature we calculated does not match the signature you provided. "
                         "Check your AWS Secret Access Key and signing method. Consult the service "
                         "documentation for details.");
        return SIGV4_BAD_SIGNATURE;
    }
    if (t < now - WINDOW_S || t > now + WINDOW_S) {
        char edge[17], at[17];
        bool old = t < now - WINDOW_S;
        sigv4_amz_date(old ? now - WINDOW_S : now + WINDOW_S, edge);
        sigv4_amz_date(now, at);
        *type = "InvalidSignatureException";
        if (old)
            snprintf(msg, n, "Signature expired: %s is now earlier than %s (%s - 15 min.)", rq->amz_date, edge, at);
        else
            snprintf(msg, n, "Signature not yet current: %s is still later than %s (%s + 15 min.)", rq->amz_date,
                     edge, at);
        return SIGV4_EXPIRED;
    }
    return SIGV4_GOOD;
}
