/*
 * sigv4 — AWS Signature Version 4 (see sigv4.h).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <pthread.h>

#include "data/dynlib.h"
#include "data/sigv4.h"
#include "model/buf.h"
#include "model/mem.h"

/* libcrypto, loaded at the first hash (data/dynlib.h): a signed request,
 * an AWS CLI cache file name, a TransactWriteItems ClientRequestToken.
 * The soname is OpenSSL 3's. */
#ifdef __APPLE__
#define CRYPTO_SONAME "libcrypto.3.dylib"
#else
#define CRYPTO_SONAME "libcrypto.so.3"
#endif
#define CRYPTO_SYMS(X) X(SHA256) X(SHA1) X(HMAC) X(EVP_sha256) X(OPENSSL_cleanse) X(EVP_MD_CTX_new) \
    X(EVP_MD_CTX_free) X(EVP_MD_CTX_copy_ex) X(EVP_DigestInit_ex) X(EVP_DigestUpdate) X(EVP_DigestFinal_ex)
static struct {
    CRYPTO_SYMS(DYNLIB_FIELD)
} ossl;
static const char *const ossl_names[] = { CRYPTO_SYMS(DYNLIB_NAME) };
#define SHA256 (*ossl.SHA256)
#define SHA1 (*ossl.SHA1)
#define HMAC (*ossl.HMAC)
#define EVP_sha256 (*ossl.EVP_sha256)
#define OPENSSL_cleanse (*ossl.OPENSSL_cleanse)
#define EVP_MD_CTX_new (*ossl.EVP_MD_CTX_new)
#define EVP_MD_CTX_free (*ossl.EVP_MD_CTX_free)
#define EVP_MD_CTX_copy_ex (*ossl.EVP_MD_CTX_copy_ex)
#define EVP_DigestInit_ex (*ossl.EVP_DigestInit_ex)
#define EVP_DigestUpdate (*ossl.EVP_DigestUpdate)
#define EVP_DigestFinal_ex (*ossl.EVP_DigestFinal_ex)

static pthread_once_t ossl_once = PTHREAD_ONCE_INIT;
static diag ossl_why;

static void ossl_load(void)
{
    diag_init(&ossl_why);
    dynlib_load(CRYPTO_SONAME, ossl_names, DYNLIB_COUNT(ossl), &ossl, &ossl_why);
}

/* libcrypto, or why not (d may be NULL). */
static status crypto_ready(diag *d)
{
    pthread_once(&ossl_once, ossl_load);
    if (ossl_why.code == ST_OK)
        return ST_OK;
    return d ? diag_set(d, ossl_why.code, "%s", ossl_why.msg) : ossl_why.code;
}

/* For the hashes, which cannot fail: without the library the binary was
 * built with, nothing of the sort can go on (as at a missing library at
 * start, before ddbx loaded it lazily). */
static void crypto_needed(void)
{
    if (crypto_ready(NULL) != ST_OK)
        mem_fatal(ossl_why.msg);
}

static const char hexdigits[] = "0123456789abcdef";

static void to_hex(const unsigned char *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hexdigits[p[i] >> 4];
        out[2 * i + 1] = hexdigits[p[i] & 15];
    }
    out[2 * n] = '\0';
}

void sigv4_sha256_hex(const void *p, size_t n, char out[65])
{
    unsigned char md[SHA256_DIGEST_LENGTH];
    crypto_needed();
    SHA256(p ? p : (const void *)"", n, md);
    to_hex(md, sizeof md, out);
}

void sigv4_hmac_sha256(const void *key, size_t keylen, const void *msg, size_t n,
                       unsigned char out[32])
{
    unsigned int len = 32;
    crypto_needed();
    unsigned char *r = HMAC(EVP_sha256(), key, (int)keylen, n ? msg : (const void *)"", n,
                            out, &len);
    assert(r && len == 32);
    (void)r;
}

/* The key's two padded blocks absorbed once (RFC 2104: H(K^opad,
 * H(K^ipad, m))); each MAC then copies the two states, not the key. */
struct sigv4_mac {
    EVP_MD_CTX *inner, *outer, *work;
};

sigv4_mac *sigv4_mac_new(const void *key, size_t keylen)
{
    crypto_needed();
    unsigned char k[64] = { 0 }, pad[64];
    if (keylen > sizeof k)
        SHA256(key, keylen, k);
    else
        memcpy(k, key, keylen);
    sigv4_mac *m = xcalloc(1, sizeof *m);
    m->inner = EVP_MD_CTX_new();
    m->outer = EVP_MD_CTX_new();
    m->work = EVP_MD_CTX_new();
    if (!m->inner || !m->outer || !m->work)
        mem_fatal("out of memory (a MAC's state)");
    for (int i = 0; i < 64; i++)
        pad[i] = k[i] ^ 0x36;
    EVP_DigestInit_ex(m->inner, EVP_sha256(), NULL);
    EVP_DigestUpdate(m->inner, pad, sizeof pad);
    for (int i = 0; i < 64; i++)
        pad[i] = k[i] ^ 0x5c;
    EVP_DigestInit_ex(m->outer, EVP_sha256(), NULL);
    EVP_DigestUpdate(m->outer, pad, sizeof pad);
    OPENSSL_cleanse(k, sizeof k);
    OPENSSL_cleanse(pad, sizeof pad);
    return m;
}

void sigv4_mac_run(sigv4_mac *m, const void *msg, size_t n, unsigned char out[32])
{
    unsigned char in[32];
    unsigned int len = 32;
    EVP_MD_CTX_copy_ex(m->work, m->inner);
    EVP_DigestUpdate(m->work, n ? msg : (const void *)"", n);
    EVP_DigestFinal_ex(m->work, in, &len);
    EVP_MD_CTX_copy_ex(m->work, m->outer);
    EVP_DigestUpdate(m->work, in, sizeof in);
    EVP_DigestFinal_ex(m->work, out, &len);
}

void sigv4_mac_free(sigv4_mac *m)
{
    if (!m)
        return;
    EVP_MD_CTX_free(m->inner);
    EVP_MD_CTX_free(m->outer);
    EVP_MD_CTX_free(m->work);
    free(m);
}

void sigv4_amz_date(long long epoch, char out[17])
{
    time_t t = (time_t)epoch;
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}

static int unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_' || c == '.' || c == '~';
}

/* URI-encodes p[0..n): unreserved bytes as they are, '/' kept when
 * keep_slash, everything else %XX with upper-case hex, as SigV4 wants. */
static void uri_encode(buf *b, const char *p, size_t n, int keep_slash)
{
    static const char up[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (unreserved(c) || (keep_slash && c == '/')) {
            buf_addc(b, (char)c);
        } else {
            buf_addc(b, '%');
            buf_addc(b, up[c >> 4]);
            buf_addc(b, up[c & 15]);
        }
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* A query component, percent-decoded then encoded the canonical way (so
 * "a%20b", "a+b"... and "a b" all sign alike where they mean the same). */
static char *query_part(const char *p, size_t n)
{
    buf raw = BUF_INIT, enc = BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '%' && i + 2 < n && hexval(p[i + 1]) >= 0 && hexval(p[i + 2]) >= 0) {
            buf_addc(&raw, (char)(hexval(p[i + 1]) * 16 + hexval(p[i + 2])));
            i += 2;
        } else {
            buf_addc(&raw, p[i]);
        }
    }
    uri_encode(&enc, raw.data ? raw.data : "", raw.len, 0);
    buf_done(&raw);
    if (!enc.data)
        buf_adds(&enc, "");
    return buf_steal(&enc);
}

typedef struct qparam {
    char *name, *value;
} qparam;

static int qparam_cmp(const void *a, const void *b)
{
    const qparam *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->value, y->value);
}

static void canonical_query(buf *b, const char *q)
{
    if (!q || !*q)
        return;
    size_t cap = 1;
    for (const char *p = q; *p; p++)
        cap += *p == '&';
    qparam *ps = xcalloc(cap, sizeof *ps);
    size_t np = 0;
    const char *p = q;
    while (*p) {
        const char *end = strchr(p, '&');
        if (!end)
            end = p + strlen(p);
        if (end > p) {
            const char *eq = memchr(p, '=', (size_t)(end - p));
            const char *nend = eq ? eq : end;
            ps[np].name = query_part(p, (size_t)(nend - p));
            ps[np].value = eq ? query_part(eq + 1, (size_t)(end - eq - 1)) : xstrdup("");
            np++;
        }
        p = *end ? end + 1 : end;
    }
    qsort(ps, np, sizeof *ps, qparam_cmp);
    for (size_t i = 0; i < np; i++) {
        if (i)
            buf_addc(b, '&');
        buf_printf(b, "%s=%s", ps[i].name, ps[i].value);
        free(ps[i].name);
        free(ps[i].value);
    }
    free(ps);
}

typedef struct hdr {
    char *name;     /* lower-cased */
    char *value;    /* trimmed, runs of spaces collapsed */
    size_t order;   /* input position: duplicates keep their order */
} hdr;

static int hdr_cmp(const void *a, const void *b)
{
    const hdr *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static char *trim_value(const char *v)
{
    buf b = BUF_INIT;
    const char *p = v;
    while (*p == ' ' || *p == '\t')
        p++;
    int space = 0;
    for (; *p; p++) {
        if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
            space = 1;
            continue;
        }
        if (space && b.len)
            buf_addc(&b, ' ');
        space = 0;
        buf_addc(&b, *p);
    }
    if (!b.data)
        buf_adds(&b, "");
    return buf_steal(&b);
}

status sigv4_sign(const sigv4_input *in, sigv4_result *out, diag *d)
{
    memset(out, 0, sizeof *out);
    if (!in->method || !in->path || !in->amz_date || !in->region || !in->service ||
        !in->access_key || !in->secret_key || (in->nheaders && !in->headers))
        return diag_set(d, ST_USAGE, "sigv4: a required signing input is missing");
    if (strlen(in->amz_date) != 16 || in->amz_date[8] != 'T' || in->amz_date[15] != 'Z')
        return diag_set(d, ST_USAGE, "sigv4: the date must look like 20150830T123600Z");
    for (size_t i = 0; i < in->nheaders; i++)
        if (!in->headers[i].name || !in->headers[i].value)
            return diag_set(d, ST_USAGE, "sigv4: a header without a name or value");
    status st = crypto_ready(d);
    if (st != ST_OK)
        return st;

    buf cr = BUF_INIT, sh = BUF_INIT, sts = BUF_INIT, auth = BUF_INIT;
    hdr *hs = xcalloc(in->nheaders ? in->nheaders : 1, sizeof *hs);

    /* Canonical request. */
    buf_adds(&cr, in->method);
    buf_addc(&cr, '\n');
    uri_encode(&cr, in->path[0] ? in->path : "/", in->path[0] ? strlen(in->path) : 1, 1);
    buf_addc(&cr, '\n');
    canonical_query(&cr, in->query);
    buf_addc(&cr, '\n');

    for (size_t i = 0; i < in->nheaders; i++) {
        hs[i].name = xstrdup(in->headers[i].name);
        for (char *c = hs[i].name; *c; c++)
            if (*c >= 'A' && *c <= 'Z')
                *c = (char)(*c - 'A' + 'a');
        hs[i].value = trim_value(in->headers[i].value);
        hs[i].order = i;
    }
    qsort(hs, in->nheaders, sizeof *hs, hdr_cmp);
    for (size_t i = 0; i < in->nheaders; i++) {
        if (i > 0 && strcmp(hs[i].name, hs[i - 1].name) == 0) {
            /* A repeated header: its values joined by commas, in order. */
            cr.len--;   /* the previous line's '\n' */
            buf_printf(&cr, ",%s\n", hs[i].value);
            continue;
        }
        buf_printf(&cr, "%s:%s\n", hs[i].name, hs[i].value);
        if (sh.len)
            buf_addc(&sh, ';');
        buf_adds(&sh, hs[i].name);
    }
    if (!sh.data)
        buf_adds(&sh, "");
    buf_addc(&cr, '\n');
    buf_adds(&cr, sh.data);
    buf_addc(&cr, '\n');
    sigv4_sha256_hex(in->payload, in->payload_len, out->payload_hash);
    buf_adds(&cr, out->payload_hash);

    /* String to sign. */
    char date[9];
    memcpy(date, in->amz_date, 8);
    date[8] = '\0';
    char crhash[65];
    sigv4_sha256_hex(cr.data, cr.len, crhash);
    buf_printf(&sts, "AWS4-HMAC-SHA256\n%s\n%s/%s/%s/aws4_request\n%s", in->amz_date, date,
               in->region, in->service, crhash);

    /* Signing key: the secret only ever enters the first HMAC. */
    unsigned char k[32];
    size_t slen = strlen(in->secret_key);
    unsigned char *k0 = xmalloc(4 + slen);
    memcpy(k0, "AWS4", 4);
    memcpy(k0 + 4, in->secret_key, slen);
    sigv4_hmac_sha256(k0, 4 + slen, date, 8, k);
    OPENSSL_cleanse(k0, 4 + slen);
    free(k0);
    sigv4_hmac_sha256(k, 32, in->region, strlen(in->region), k);
    sigv4_hmac_sha256(k, 32, in->service, strlen(in->service), k);
    sigv4_hmac_sha256(k, 32, "aws4_request", 12, k);
    to_hex(k, 32, out->signing_key);

    unsigned char sig[32];
    sigv4_hmac_sha256(k, 32, sts.data, sts.len, sig);
    OPENSSL_cleanse(k, sizeof k);
    to_hex(sig, 32, out->signature);

    buf_printf(&auth, "AWS4-HMAC-SHA256 Credential=%s/%s/%s/%s/aws4_request, "
               "SignedHeaders=%s, Signature=%s",
               in->access_key, date, in->region, in->service, sh.data, out->signature);

    for (size_t i = 0; i < in->nheaders; i++) {
        free(hs[i].name);
        free(hs[i].value);
    }
    free(hs);
    out->canonical_request = buf_steal(&cr);
    out->string_to_sign = buf_steal(&sts);
    out->signed_headers = buf_steal(&sh);
    out->authorization = buf_steal(&auth);
    return ST_OK;
}

void sigv4_result_free(sigv4_result *r)
{
    if (!r)
        return;
    free(r->canonical_request);
    free(r->string_to_sign);
    free(r->signed_headers);
    free(r->authorization);
    if (crypto_ready(NULL) == ST_OK)   /* else no key was ever derived */
        OPENSSL_cleanse(r->signing_key, sizeof r->signing_key);
    memset(r, 0, sizeof *r);
}

void sigv4_sha1_hex(const void *p, size_t n, char out[41])
{
    unsigned char md[SHA_DIGEST_LENGTH];
    crypto_needed();
    SHA1(p, n, md);
    for (int i = 0; i < SHA_DIGEST_LENGTH; i++)
        snprintf(out + 2 * i, 3, "%02x", md[i]);
}
