/*
 * remote — DynamoDB over HTTP(S) with libcurl and SigV4 (see remote.h).
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>
/* The calls go through a table (below): no type-checking macros. */
#define CURL_DISABLE_TYPECHECK
#include <curl/curl.h>

#include "data/creds.h"
#include "data/dynlib.h"
#include "data/remote.h"
#include "data/serve.h"
#include "data/sigv4.h"
#include "data/store.h"
#include "model/buf.h"
#include "model/ddbjson.h"
#include "model/mem.h"

#define DEFAULT_ATTEMPTS 3
#define LEGACY_ATTEMPTS 10      /* botocore's legacy policy for DynamoDB */
#define BACKOFF_BASE_MS 1000L   /* standard mode: 1 s * 2^(attempt-1) ... */
#define BACKOFF_CAP_MS 20000L   /* ... capped at 20 s */
#define MAX_RESPONSE (64u * 1024 * 1024)

struct remote {
    CURL *curl;
    char *url;            /* the endpoint as given (or built from the region) */
    char *host;           /* Host header: host[:port] when not the default port */
    char *path;           /* request path, "/" normally */
    char *region;
    char *profile;        /* NULL: not named explicitly */
    char desc[512];
    char errcode[128];
    buf errmsg;           /* the last error's whole message (d->msg may cut it) */
    creds cr;
    char *ca_bundle;      /* AWS_CA_BUNDLE or the profile's ca_bundle; NULL: the system's */
    int max_attempts;
    int legacy;           /* retry_mode = legacy: botocore's DynamoDB delays */
    const volatile sig_atomic_t *cancel;   /* set: stop the transfer now */
    _Atomic int attempt_now;   /* the attempt under way (1, 2, ...; 0: none), for a
                                  thread that waits (data/remote_wait.c) */
    uint64_t rng;
    remote_stats stats;
    /* per attempt */
    buf body;
    char crc[32];
    int have_crc;
};

/* libcurl, loaded at the first remote request (data/dynlib.h): a local
 * `ddbx serve` or `ddbx api` never loads it and the 20-odd libraries it
 * brings. The soname is libcurl's ABI since 2006. */
#ifdef __APPLE__
#define CURL_SONAME "libcurl.4.dylib"
#else
#define CURL_SONAME "libcurl.so.4"
#endif
#define CURL_SYMS(X)                                                                          \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_setopt)           \
    X(curl_easy_perform) X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_free)              \
    X(curl_slist_append) X(curl_slist_free_all) X(curl_url) X(curl_url_cleanup)               \
    X(curl_url_get) X(curl_url_set)
static struct {
    CURL_SYMS(DYNLIB_FIELD)
} cu;
static const char *const cu_names[] = { CURL_SYMS(DYNLIB_NAME) };
#undef curl_easy_setopt   /* curl.h's checks of the argument count */
#undef curl_easy_getinfo
#define curl_global_init (*cu.curl_global_init)
#define curl_easy_init (*cu.curl_easy_init)
#define curl_easy_cleanup (*cu.curl_easy_cleanup)
#define curl_easy_setopt (*cu.curl_easy_setopt)
#define curl_easy_perform (*cu.curl_easy_perform)
#define curl_easy_getinfo (*cu.curl_easy_getinfo)
#define curl_easy_strerror (*cu.curl_easy_strerror)
#define curl_free (*cu.curl_free)
#define curl_slist_append (*cu.curl_slist_append)
#define curl_slist_free_all (*cu.curl_slist_free_all)
#define curl_url (*cu.curl_url)
#define curl_url_cleanup (*cu.curl_url_cleanup)
#define curl_url_get (*cu.curl_url_get)
#define curl_url_set (*cu.curl_url_set)

static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static int curl_ok;
static diag curl_why;   /* why libcurl could not be had */

static void curl_init_once(void)
{
    diag_init(&curl_why);
    if (dynlib_load(CURL_SONAME, cu_names, DYNLIB_COUNT(cu), &cu, &curl_why) != ST_OK)
        return;
    curl_ok = curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK;
    if (!curl_ok)
        diag_set(&curl_why, ST_INTERNAL, "libcurl failed to initialise");
}

long remote_backoff_ms(int retry, double u)
{
    assert(retry >= 1);
    long cap = BACKOFF_BASE_MS;
    for (int i = 1; i < retry && cap < BACKOFF_CAP_MS; i++)
        cap *= 2;
    if (cap > BACKOFF_CAP_MS)
        cap = BACKOFF_CAP_MS;
    if (u < 0)
        u = 0;
    long ms = (long)(u * (double)cap);
    return ms >= cap ? cap - 1 : ms;
}

static double next_random(remote *r)
{
    /* xorshift64*: jitter only, no secrecy needed */
    uint64_t x = r->rng;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    r->rng = x;
    return (double)((x * 0x2545F4914F6CDD1Dull) >> 11) / 9007199254740992.0;
}

/* Sleeps ms milliseconds in slices, returning early when cancelled. */
static void sleep_ms(const remote *r, long ms)
{
    while (ms > 0 && !(r->cancel && *r->cancel)) {
        long slice = ms < 50 ? ms : 50;
        struct timespec ts = { 0, slice * 1000000L };
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        ms -= slice;
    }
}

static int on_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)dt, (void)dn, (void)ut, (void)un;
    const remote *r = ud;
    return r->cancel && *r->cancel;   /* non-zero aborts the transfer */
}

void remote_set_cancel(remote *r, const volatile sig_atomic_t *flag)
{
    r->cancel = flag;
}

static size_t on_body(char *p, size_t size, size_t n, void *ud)
{
    remote *r = ud;
    size_t len = size * n;
    if (r->body.len + len > MAX_RESPONSE)
        return 0;   /* curl reports a write error: too large to be DynamoDB's */
    buf_add(&r->body, p, len);
    return len;
}

static size_t on_header(char *p, size_t size, size_t n, void *ud)
{
    remote *r = ud;
    size_t len = size * n;
    static const char name[] = "x-amz-crc32:";
    if (len > sizeof name - 1 && strncasecmp(p, name, sizeof name - 1) == 0) {
        size_t i = sizeof name - 1, j = 0;
        while (i < len && (p[i] == ' ' || p[i] == '\t'))
            i++;
        while (i < len && p[i] >= '0' && p[i] <= '9' && j + 1 < sizeof r->crc)
            r->crc[j++] = p[i++];
        r->crc[j] = '\0';
        r->have_crc = j > 0;
    }
    return len;
}

void remote_close(remote *r)
{
    if (!r)
        return;
    if (r->curl)
        curl_easy_cleanup(r->curl);
    free(r->url);
    free(r->host);
    free(r->path);
    free(r->region);
    free(r->profile);
    free(r->ca_bundle);
    creds_done(&r->cr);
    buf_done(&r->body);
    buf_done(&r->errmsg);
    free(r);
}

/* From a URL curl parsed, whose host is host: *hostport "host[:port]" (the
 * port only when the URL names one) and *path its path ("/" when it has
 * none), both malloc'd. */
static void host_and_path(CURLU *u, const char *host, char **hostport, char **path)
{
    char *port = NULL, *p = NULL;
    if (curl_url_get(u, CURLUPART_PORT, &port, CURLU_NO_DEFAULT_PORT) != CURLUE_OK)
        port = NULL;
    if (curl_url_get(u, CURLUPART_PATH, &p, 0) != CURLUE_OK)
        p = NULL;
    buf hb = BUF_INIT;
    buf_adds(&hb, host);
    if (port)
        buf_printf(&hb, ":%s", port);
    *hostport = buf_steal(&hb);
    *path = xstrdup(p && *p ? p : "/");
    curl_free(port);
    curl_free(p);
}

/* Splits the endpoint URL with curl's own parser so that what we sign is
 * what curl sends. */
static status parse_endpoint(remote *r, diag *d)
{
    status st = ST_OK;
    CURLU *u = curl_url();
    char *scheme = NULL, *host = NULL;
    if (!u)
        return diag_set(d, ST_INTERNAL, "out of memory");
    if (curl_url_set(u, CURLUPART_URL, r->url, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
        st = diag_set(d, ST_USAGE, "the endpoint URL is not a URL (want e.g. "
                      "http://127.0.0.1:8000 or https://dynamodb.us-east-1.amazonaws.com)");
        goto out;
    }
    if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0) {
        st = diag_set(d, ST_USAGE, "the endpoint URL must be http:// or https://");
        goto out;
    }
    host_and_path(u, host, &r->host, &r->path);
    /* The description: scheme://host[:port][path], never user:password. */
    snprintf(r->desc, sizeof r->desc, "%s://%s%s (%s)", scheme, r->host,
             strcmp(r->path, "/") == 0 ? "" : r->path, r->region);
    /* Send the request to exactly this URL, credentials in it dropped. */
    curl_url_set(u, CURLUPART_USER, NULL, 0);
    curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
    curl_url_set(u, CURLUPART_QUERY, NULL, 0);
    curl_url_set(u, CURLUPART_FRAGMENT, NULL, 0);
    char *clean = NULL;
    if (curl_url_get(u, CURLUPART_URL, &clean, 0) == CURLUE_OK) {
        free(r->url);
        r->url = xstrdup(clean);
        curl_free(clean);
    }
out:
    curl_free(scheme);
    curl_free(host);
    curl_url_cleanup(u);
    return st;
}

/* The curl handle with every option the transfers share. */
static status make_handle(remote *r, diag *d)
{
    r->curl = curl_easy_init();
    if (!r->curl) {
        return diag_set(d, ST_INTERNAL, "libcurl: cannot create a handle");
    }
    curl_easy_setopt(r->curl, CURLOPT_URL, r->url);
    curl_easy_setopt(r->curl, CURLOPT_NOSIGNAL, 1L);           /* threads */
    /* A whole request may take 60 s (a 1 MB page on a slow link), or
     * DDBX_REMOTE_TIMEOUT_MS (for tests of a server that never answers). */
    long total_ms = 60000;
    const char *te = getenv("DDBX_REMOTE_TIMEOUT_MS");
    if (te && *te && strtol(te, NULL, 10) > 0)
        total_ms = strtol(te, NULL, 10);
    /* A dead endpoint fails fast: 3 s to connect (a region answers in
     * well under one), then the retries say so. */
    curl_easy_setopt(r->curl, CURLOPT_CONNECTTIMEOUT_MS, total_ms < REMOTE_CONNECT_MS ? total_ms
                                                                                : (long)REMOTE_CONNECT_MS);
    curl_easy_setopt(r->curl, CURLOPT_TIMEOUT_MS, total_ms);
    /* A connection that stalls (under 1 byte/s for 30 s) is dropped. */
    curl_easy_setopt(r->curl, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(r->curl, CURLOPT_LOW_SPEED_TIME, 30L);
    curl_easy_setopt(r->curl, CURLOPT_TCP_KEEPALIVE, 1L);
    curl_easy_setopt(r->curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(r->curl, CURLOPT_PROTOCOLS_STR, "http,https");
    /* Another CA bundle for HTTPS, as the AWS CLI reads AWS_CA_BUNDLE or
     * the profile's ca_bundle. */
    if (r->ca_bundle)
        curl_easy_setopt(r->curl, CURLOPT_CAINFO, r->ca_bundle);
    curl_easy_setopt(r->curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(r->curl, CURLOPT_WRITEDATA, r);
    curl_easy_setopt(r->curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(r->curl, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(r->curl, CURLOPT_USERAGENT, "ddbx/0.1");
    curl_easy_setopt(r->curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(r->curl, CURLOPT_XFERINFODATA, r);
    curl_easy_setopt(r->curl, CURLOPT_NOPROGRESS, 0L);
    return ST_OK;
}

/* retry_mode (AWS_RETRY_MODE, else the profile's): standard (the
 * default) and adaptive retry as described in remote.h; legacy is
 * botocore's legacy DynamoDB policy, 10 attempts 50 ms * 2^(n-1) apart.
 * max_attempts: opts, else AWS_MAX_ATTEMPTS, else the profile's. Also
 * ca_bundle: AWS_CA_BUNDLE, else the profile's. */
static status retry_settings(remote *r, const remote_opts *o, diag *d)
{
    char *mode = NULL, *attempts = NULL;
    status st = creds_setting("AWS_RETRY_MODE", r->profile, "retry_mode", &mode, d);
    if (st == ST_OK)
        st = creds_setting("AWS_MAX_ATTEMPTS", r->profile, "max_attempts", &attempts, d);
    if (st == ST_OK)
        st = creds_setting("AWS_CA_BUNDLE", r->profile, "ca_bundle", &r->ca_bundle, d);
    if (st != ST_OK)
        goto out;
    if (mode && strcmp(mode, "legacy") == 0)
        r->legacy = 1;
    else if (mode && strcmp(mode, "standard") != 0 && strcmp(mode, "adaptive") != 0) {
        st = diag_set(d, ST_USAGE, "retry_mode (AWS_RETRY_MODE or the profile's) must be "
                      "standard, legacy or adaptive");
        goto out;
    }
    r->max_attempts = r->legacy ? LEGACY_ATTEMPTS : DEFAULT_ATTEMPTS;
    if (o && o->max_attempts > 0) {
        r->max_attempts = o->max_attempts;
    } else if (attempts) {
        char *e;
        long v = strtol(attempts, &e, 10);
        if (*e || v < 1 || v > 100) {
            st = diag_set(d, ST_USAGE, "max_attempts (AWS_MAX_ATTEMPTS or the profile's) must "
                          "be a number from 1 to 100");
            goto out;
        }
        r->max_attempts = (int)v;
    }
out:
    free(mode);
    free(attempts);
    return st;
}

status remote_open(const remote_opts *o, remote **out, diag *d)
{
    *out = NULL;
    pthread_once(&curl_once, curl_init_once);
    if (!curl_ok)
        return diag_set(d, curl_why.code, "%s", curl_why.msg);
    remote *r = xcalloc(1, sizeof *r);
    status st = ST_OK;
    const char *profile = o && o->profile && *o->profile ? o->profile : NULL;
    r->profile = profile ? xstrdup(profile) : NULL;

    if (o && o->region && *o->region) {
        r->region = xstrdup(o->region);
    } else {
        st = creds_region(profile, &r->region, d);
        if (st != ST_OK)
            goto fail;
    }
    /* The endpoint: --endpoint-url, else the service endpoint settings
     * (AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL, the services section,
     * endpoint_url), else AWS's for the region. */
    char *conf_ep = NULL;
    if (!(o && o->endpoint_url && *o->endpoint_url)) {
        st = creds_endpoint("AWS_ENDPOINT_URL_DYNAMODB", profile, "dynamodb", &conf_ep, d);
        if (st != ST_OK)
            goto fail;
    }
    const char *ep = o && o->endpoint_url && *o->endpoint_url ? o->endpoint_url : conf_ep;
    if (!r->region) {
        if (ep) {
            r->region = xstrdup("us-east-1");   /* local endpoints ignore it */
        } else {
            st = diag_set(d, ST_USAGE, "no region: give --region R or --endpoint-url URL, "
                          "set AWS_REGION, or put region in the profile '%s' of the config "
                          "file", creds_profile_name(profile));
            free(conf_ep);
            goto fail;
        }
    }
    for (const char *c = r->region; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) {
            st = diag_set(d, ST_USAGE, "the region must be letters, digits and '-' "
                          "(e.g. us-east-1)");
            free(conf_ep);
            goto fail;
        }
    if (ep) {
        r->url = xstrdup(ep);
        free(conf_ep);
    } else {
        buf u = BUF_INIT;
        buf_printf(&u, "https://dynamodb.%s.amazonaws.com%s", r->region,
                   strncmp(r->region, "cn-", 3) == 0 ? ".cn" : "");
        r->url = buf_steal(&u);
    }
    st = parse_endpoint(r, d);
    if (st != ST_OK)
        goto fail;

    st = creds_resolve_in(profile, r->region, &r->cr, d);
    if (st != ST_OK)
        goto fail;

    st = retry_settings(r, o, d);
    if (st != ST_OK)
        goto fail;
    r->rng = ((uint64_t)time(NULL) << 20) ^ (uint64_t)getpid() ^ (uint64_t)(uintptr_t)r;
    if (!r->rng)
        r->rng = 88172645463325252ull;

    st = make_handle(r, d);
    if (st != ST_OK)
        goto fail;
    *out = r;
    return ST_OK;
fail:
    remote_close(r);
    return st;
}

const char *remote_describe(const remote *r)
{
    return r->desc;
}

const char *remote_error_code(const remote *r)
{
    return r->errcode;
}

const char *remote_error_message(const remote *r)
{
    return r->errmsg.data ? r->errmsg.data : "";
}

const char *remote_creds_source(const remote *r)
{
    return r->cr.source;
}

const char *remote_identity(const remote *r)
{
    return r->cr.identity;
}

const char *remote_profile(const remote *r)
{
    return creds_profile_name(r->profile);
}

const struct creds *remote_creds(const remote *r)
{
    return &r->cr;
}

const char *remote_region(const remote *r)
{
    return r->region;
}

void remote_get_stats(const remote *r, remote_stats *st)
{
    *st = r->stats;
}

int remote_attempt(const remote *r)
{
    return r->attempt_now;
}

int remote_max_attempts(const remote *r)
{
    return r->max_attempts;
}

/* Re-runs the chain when credential_process keys are about to expire (as
 * the SDKs refresh: a few minutes early). */
static status refresh_creds(remote *r, diag *d)
{
    if (!r->cr.expires || r->cr.expires - 300 > (long long)time(NULL))
        return ST_OK;
    creds fresh;
    status st = creds_resolve_in(r->profile, r->region, &fresh, d);
    if (st != ST_OK)
        return st;
    creds_done(&r->cr);
    r->cr = fresh;
    return ST_OK;
}

static int is_throttle_or_transient(const char *type)
{
    static const char *const names[] = {
        "ThrottlingException", "Throttling", "ThrottledException",
        "RequestThrottledException", "TooManyRequestsException",
        "ProvisionedThroughputExceededException", "TransactionInProgressException",
        "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException",
        "RequestThrottled", "SlowDown", "PriorRequestNotComplete",
        "RequestTimeout", "RequestTimeoutException", "InternalServerError",
        "ServiceUnavailable", "ServiceUnavailableException", NULL,
    };
    return remote_code_in(type, names);
}

static status status_of_type(const char *type)
{
    for (int c = 0; c < ST__COUNT; c++)
        if (c != ST_OK && strcmp(status_name((status)c), type) == 0)
            return (status)c;
    return ST_IO;
}

/* Sets the error from an HTTP error answer; *extra the error's extra
 * members as a JSON object (or NULL). */
static status http_error(remote *r, long http, char **extra, diag *d)
{
    *extra = NULL;
    cJSON *j = r->body.len ? cJSON_ParseWithLength(r->body.data, r->body.len) : NULL;
    const char *type = NULL, *msg = NULL;
    if (cJSON_IsObject(j)) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "__type");
        const cJSON *m = cJSON_GetObjectItemCaseSensitive(j, "message");
        if (!cJSON_IsString(m))
            m = cJSON_GetObjectItemCaseSensitive(j, "Message");
        if (cJSON_IsString(t)) {
            const char *h = strrchr(t->valuestring, '#');
            type = h ? h + 1 : t->valuestring;
        }
        if (cJSON_IsString(m))
            msg = m->valuestring;
    }
    if (!type || !*type)
        type = http >= 500 ? "InternalServerError" : "HttpError";
    snprintf(r->errcode, sizeof r->errcode, "%s", type);
    buf_reset(&r->errmsg);
    if (msg)
        buf_adds(&r->errmsg, msg);
    status code = status_of_type(r->errcode);
    status st;
    if (code != ST_IO) {
        st = diag_set(d, code, "%s", msg ? msg : "");
    } else if (msg) {
        st = diag_set(d, ST_IO, "%s: %s", r->errcode, msg);
    } else {
        st = diag_set(d, ST_IO, "%s (HTTP %ld from %s)", r->errcode, http, r->host);
    }
    if (cJSON_IsObject(j)) {
        cJSON *x = cJSON_CreateObject();
        int n = 0;
        for (cJSON *c = j->child; c; c = c->next) {
            if (!c->string || strcmp(c->string, "__type") == 0 ||
                strcmp(c->string, "message") == 0 || strcmp(c->string, "Message") == 0)
                continue;
            cJSON_AddItemToObject(x, c->string, cJSON_Duplicate(c, 1));
            n++;
        }
        if (n)
            *extra = cJSON_PrintUnformatted(x);
        cJSON_Delete(x);
    }
    cJSON_Delete(j);
    return st;
}

static status transport_error(remote *r, CURLcode rc, const char *errbuf, diag *d)
{
    snprintf(r->errcode, sizeof r->errcode, "NetworkError");
    const char *why = errbuf && *errbuf ? errbuf : curl_easy_strerror(rc);
    const char *what;
    switch (rc) {
    case CURLE_COULDNT_CONNECT: what = "cannot connect to"; break;
    case CURLE_COULDNT_RESOLVE_HOST: what = "cannot resolve"; break;
    case CURLE_OPERATION_TIMEDOUT: what = "timed out talking to"; break;
    case CURLE_PEER_FAILED_VERIFICATION:
        what = "the TLS certificate is not trusted (AWS_CA_BUNDLE names a CA file) for";
        break;
    default: what = "connection to"; break;
    }
    const char *tail = rc == CURLE_COULDNT_CONNECT || rc == CURLE_COULDNT_RESOLVE_HOST ||
                       rc == CURLE_OPERATION_TIMEDOUT || rc == CURLE_PEER_FAILED_VERIFICATION ?
                       "" : " dropped";
    buf_reset(&r->errmsg);
    buf_printf(&r->errmsg, "%s %s%s: %s", what, r->host, tail, why);
    return diag_set(d, ST_IO, "NetworkError: %s", r->errmsg.data);
}

static int transport_retryable(CURLcode rc)
{
    switch (rc) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM:
    case CURLE_SSL_CONNECT_ERROR:
        return 1;
    default:
        return 0;
    }
}

/* curl_easy_perform with SIGPIPE blocked. CURLOPT_NOSIGNAL leaves
 * SIGPIPE to us: a write to a connection the server dropped (TLS writes
 * may not use MSG_NOSIGNAL) must be an error, not the end of the
 * process. Block it in this thread and consume any that became pending,
 * without touching other threads. */
static CURLcode perform_no_sigpipe(remote *r)
{
    sigset_t pipe_set, old_set;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
    CURLcode rc = curl_easy_perform(r->curl);
    if (!sigismember(&old_set, SIGPIPE)) {
        /* sigwait of a signal known pending returns at once (POSIX; macOS
         * has no sigtimedwait). */
        sigset_t pending;
        sigpending(&pending);
        int taken;
        if (sigismember(&pending, SIGPIPE))
            sigwait(&pipe_set, &taken);
        pthread_sigmask(SIG_SETMASK, &old_set, NULL);
    }
    return rc;
}

/* One HTTP attempt. Returns ST_OK with the body in r->body, or an error;
 * *retry says whether another attempt may succeed. */
static status attempt(remote *r, const char *op, const char *input, size_t len,
                      char **extra, int *retry, diag *d)
{
    *retry = 0;
    *extra = NULL;
    status st = refresh_creds(r, d);
    if (st != ST_OK) {
        snprintf(r->errcode, sizeof r->errcode, "CredentialsError");
        buf_reset(&r->errmsg);
        buf_adds(&r->errmsg, d->msg);
        return st;
    }
    char amz_date[17];
    sigv4_amz_date((long long)time(NULL), amz_date);
    char target[128];
    /* Streams operations go under their own protocol name (on AWS the
     * Streams endpoint is another host: only --endpoint-url ones, which
     * serve both, are reached for them here). */
    snprintf(target, sizeof target, "%s%s",
             store_is_streams_op(op) ? SERVE_STREAMS_PREFIX : SERVE_TARGET_PREFIX, op);
    sigv4_header hs[5] = {
        { "content-type", "application/x-amz-json-1.0" },
        { "host", r->host },
        { "x-amz-date", amz_date },
        { "x-amz-target", target },
        { "x-amz-security-token", r->cr.session_token },
    };
    sigv4_input in = {
        .method = "POST", .path = r->path, .query = NULL,
        .headers = hs, .nheaders = r->cr.session_token ? 5 : 4,
        .payload = input, .payload_len = len, .amz_date = amz_date,
        .region = r->region, .service = "dynamodb",
        .access_key = r->cr.access_key, .secret_key = r->cr.secret_key,
    };
    sigv4_result sig;
    st = sigv4_sign(&in, &sig, d);
    if (st != ST_OK) {
        snprintf(r->errcode, sizeof r->errcode, "SigningError");
        buf_reset(&r->errmsg);
        buf_adds(&r->errmsg, d->msg);
        return st;
    }
    struct curl_slist *h = NULL;
    buf line = BUF_INIT;
    const char *names[] = { "Content-Type", "Host", "X-Amz-Date", "X-Amz-Target",
                            "X-Amz-Security-Token" };
    for (size_t i = 0; i < in.nheaders; i++) {
        buf_reset(&line);
        buf_printf(&line, "%s: %s", names[i], hs[i].value);
        h = curl_slist_append(h, line.data);
    }
    buf_reset(&line);
    buf_printf(&line, "Authorization: %s", sig.authorization);
    h = curl_slist_append(h, line.data);
    h = curl_slist_append(h, "Expect:");   /* no 100-continue round trip */
    buf_wipe(&line);
    sigv4_result_free(&sig);

    buf_reset(&r->body);
    r->have_crc = 0;
    r->crc[0] = '\0';
    char errbuf[CURL_ERROR_SIZE];
    errbuf[0] = '\0';
    curl_easy_setopt(r->curl, CURLOPT_ERRORBUFFER, errbuf);
    curl_easy_setopt(r->curl, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(r->curl, CURLOPT_POST, 1L);
    curl_easy_setopt(r->curl, CURLOPT_POSTFIELDS, input);
    curl_easy_setopt(r->curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    r->stats.attempts++;
    CURLcode rc = perform_no_sigpipe(r);
    curl_easy_setopt(r->curl, CURLOPT_HTTPHEADER, NULL);
    curl_easy_setopt(r->curl, CURLOPT_ERRORBUFFER, NULL);
    curl_slist_free_all(h);   /* held the signature: gone with the list */

    if (rc == CURLE_ABORTED_BY_CALLBACK) {
        snprintf(r->errcode, sizeof r->errcode, "Cancelled");
        buf_reset(&r->errmsg);
        buf_adds(&r->errmsg, "interrupted");
        return diag_set(d, ST_IO, "interrupted");
    }
    if (rc != CURLE_OK) {
        *retry = transport_retryable(rc);
        return transport_error(r, rc, errbuf, d);
    }
    long http = 0;
    curl_easy_getinfo(r->curl, CURLINFO_RESPONSE_CODE, &http);
    if (r->have_crc) {
        unsigned long want = strtoul(r->crc, NULL, 10);
        uint32_t got = serve_crc32(r->body.data ? r->body.data : "", r->body.len);
        if ((uint32_t)want != got) {
            /* A damaged answer: the SDKs retry it. */
            *retry = 1;
            snprintf(r->errcode, sizeof r->errcode, "CRC32CheckFailed");
            buf_reset(&r->errmsg);
            buf_printf(&r->errmsg, "the response from %s does not match its x-amz-crc32 "
                       "header (%lu, body %lu)", r->host, want, (unsigned long)got);
            return diag_set(d, ST_IO, "CRC32CheckFailed: %s", r->errmsg.data);
        }
    }
    if (http == 200) {
        r->errcode[0] = '\0';
        return ST_OK;
    }
    st = http_error(r, http, extra, d);
    *retry = http >= 500 || http == 429 || is_throttle_or_transient(r->errcode);
    return st;
}

status remote_send(void *r, const char *op, const char *input, size_t len, char **out, diag *d)
{
    return remote_call(r, op, input, len, out, d);
}

status remote_call(remote *r, const char *op, const char *input, size_t len, char **out,
                   diag *d)
{
    assert(r && op && out);
    *out = NULL;
    r->stats.calls++;
    /* The name goes into a header: letters only (no CR/LF smuggling). */
    size_t oplen = strlen(op);
    int op_ok = oplen > 0 && oplen < 64;
    for (size_t i = 0; op_ok && i < oplen; i++)
        op_ok = (op[i] >= 'A' && op[i] <= 'Z') || (op[i] >= 'a' && op[i] <= 'z');
    if (!op_ok) {
        snprintf(r->errcode, sizeof r->errcode, "%s", status_name(ST_UNKNOWN_OPERATION));
        buf_reset(&r->errmsg);
        buf_adds(&r->errmsg, "Unknown operation");
        return diag_set(d, ST_UNKNOWN_OPERATION, "Unknown operation");
    }
    if (!input) {
        input = "{}";
        len = 2;
    }
    status st = ST_INTERNAL;
    for (int n = 1;; n++) {
        char *extra = NULL;
        int retry = 0;
        r->attempt_now = n;
        st = attempt(r, op, input, len, &extra, &retry, d);
        if (st == ST_OK) {
            buf_addc(&r->body, '\0');
            r->body.len--;
            *out = xmemdup(r->body.data, r->body.len + 1);
            return ST_OK;
        }
        if (!retry || n >= r->max_attempts) {
            *out = extra;
            if (retry && n > 1) {
                /* Say the retries happened: the caller may try again later. */
                size_t l = strlen(d->msg);
                snprintf(d->msg + l, sizeof d->msg - l, " (after %d attempts)", n);
                buf_printf(&r->errmsg, " (after %d attempts)", n);
            }
            return st;
        }
        free(extra);
        r->stats.retries++;
        sleep_ms(r, r->legacy ? 50L << (n - 1 < 16 ? n - 1 : 16)
                              : remote_backoff_ms(n, next_random(r)));
        if (r->cancel && *r->cancel) {
            snprintf(r->errcode, sizeof r->errcode, "Cancelled");
            buf_reset(&r->errmsg);
            buf_adds(&r->errmsg, "interrupted");
            return diag_set(d, ST_IO, "interrupted");
        }
    }
}

static status line_call(void *ctx, const char *op, const char *input, size_t len, char **out,
                        diag *d)
{
    return remote_call(ctx, op, input, len, out, d);
}

static void line_error(void *ctx, const char **type, const char **message)
{
    const char *code = remote_error_code(ctx);
    if (*code) {   /* empty when the call failed before reaching the endpoint */
        *type = code;
        *message = remote_error_message(ctx);
    }
}

status remote_call_line(remote *r, const char *line, size_t len, char **out)
{
    return store_send_line(line_call, r, line_error, line, len, out);
}

status remote_dup(const remote *src, remote **out, diag *d)
{
    *out = NULL;
    remote *r = xcalloc(1, sizeof *r);
    r->url = xstrdup(src->url);
    r->host = xstrdup(src->host);
    r->path = xstrdup(src->path);
    r->region = xstrdup(src->region);
    r->profile = src->profile ? xstrdup(src->profile) : NULL;
    memcpy(r->desc, src->desc, sizeof r->desc);
    creds_copy(&r->cr, &src->cr);
    r->ca_bundle = src->ca_bundle ? xstrdup(src->ca_bundle) : NULL;
    r->max_attempts = src->max_attempts;
    r->legacy = src->legacy;
    r->rng = src->rng * 6364136223846793005ull + (uint64_t)(uintptr_t)r;
    if (!r->rng)
        r->rng = 88172645463325252ull;
    status st = make_handle(r, d);
    if (st != ST_OK) {
        remote_close(r);
        return st;
    }
    *out = r;
    return ST_OK;
}

/* ---- one request for the credential providers (remote.h) ---------------- */

#define MAX_SMALL_BODY (1u << 20)

static size_t on_small_body(char *p, size_t size, size_t n, void *ud)
{
    buf *b = ud;
    size_t len = size * n;
    if (b->len + len > MAX_SMALL_BODY)
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

status remote_http_do(const remote_http *q, long *http, buf *resp, diag *d)
{
    *http = 0;
    buf_reset(resp);
    pthread_once(&curl_once, curl_init_once);
    if (!curl_ok)
        return diag_set(d, curl_why.code, "%s", curl_why.msg);
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
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_small_body);
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
        sigset_t pending;
        sigpending(&pending);
        int sig;
        if (sigismember(&pending, SIGPIPE))
            sigwait(&pipe_set, &sig);   /* pending: returns at once */
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

int remote_code_in(const char *code, const char *const *codes)
{
    for (size_t i = 0; codes[i]; i++)
        if (strcmp(code, codes[i]) == 0)
            return 1;
    return 0;
}

status remote_url_split(const char *url, char **hostport, char **path, diag *d)
{
    *hostport = *path = NULL;
    pthread_once(&curl_once, curl_init_once);
    CURLU *u = curl_url();
    char *h = NULL;
    if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
        curl_url_get(u, CURLUPART_HOST, &h, 0) != CURLUE_OK) {
        if (u)
            curl_url_cleanup(u);
        return diag_set(d, ST_USAGE, "not a URL");
    }
    host_and_path(u, h, hostport, path);
    curl_free(h);
    curl_url_cleanup(u);
    return ST_OK;
}
