/*
 * cli_serve — `ddbx serve [--db FILE] [--port 8000] [--host 127.0.0.1]`:
 * the local store as a DynamoDB endpoint (JSON 1.0 protocol over HTTP),
 * for applications and SDKs pointed at it with --endpoint-url.
 *
 * Concurrency: libmicrohttpd runs a pool of worker threads (--threads N,
 * default the number of cores, at least 2), each serving its share of
 * the HTTP connections with epoll. Each worker serves its requests on
 * a store connection of its own to the same file (the first, or a peer
 * from store_open_peer, opened at the worker's first request): reads
 * run side by side (WAL), writes queue on the store's write lock.
 * A pool sized to the cores keeps every core busy without the scheduling
 * a thread per HTTP connection costs under many keep-alive clients; a
 * worker waiting for the write lock holds back only its own connections.
 * The TTL sweep runs on the main thread with a connection of its own
 * (its position in the tables is that connection's).
 * data/serve.c maps the store's answer to HTTP. Any signature is
 * accepted, as DynamoDB Local does; loopback unless --host says otherwise.
 * SIGINT/SIGTERM stop the server cleanly: in-flight requests finish, the
 * store is closed. With --read-only (main takes it) every write is refused
 * with AccessDeniedException and reads work.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "data/serve.h"
#include "data/store.h"
#include "model/buf.h"
#include "model/mem.h"
#include "ui/cli.h"

/* DynamoDB's request limit, 16 MB (BatchWriteItem's "total request size");
 * the refusal names it, so a body of 16 MiB is read and one byte more is
 * refused (tests/harden/serve.sh). */
#define MAX_BODY (16u * 1024 * 1024)

/* The largest request line (the path and its query) and header section
 * served; past them the request is refused with 400, as DynamoDB refuses
 * oversized lines and headers. MHD's per-connection memory must hold them
 * (MEMORY_LIMIT), or MHD itself answers 431 before we see the request:
 * so it does for a header section past about 100 KB. The memory is not
 * larger because libmicrohttpd (0.9.75) zeroes all of it after every
 * request of a keep-alive connection: at 1 MiB that memset was about 30%
 * of the server's CPU per GetItem (tests/bench/NOTES.md). */
#define MAX_LINE (16u * 1024)
#define MAX_HEADERS (64u * 1024)
#define MEMORY_LIMIT (128u * 1024)

typedef struct server {
    store *st;                /* the first connection, opened at start */
    pthread_mutex_t lock;
    store **conns;            /* under lock: every connection open; conns[0] is st */
    size_t opened, max;       /* under lock: connections open, the most allowed */
    size_t reserved;          /* under lock: open or being opened (0: no worker has st yet) */
    pthread_key_t mine;       /* a worker thread's own connection */
    unsigned long requests;   /* atomic: numbers the request ids */
    unsigned long seed;
} server;

/* The store connection a worker thread serves its requests with: its
 * own, taken at its first request (the first connection, else a new
 * peer of it) and kept, so that a request takes no lock to find one (a
 * pool shared under a mutex made the two workers of a 2-core machine
 * contend on it: futex calls, ~2 µs a GetItem, tests/bench/NOTES.md).
 * A worker runs its requests one at a time, so its connection is never
 * used by two at once; there are as many connections as workers. NULL
 * when a peer cannot be opened (out of file descriptors or memory): the
 * request is answered 500 and the next one tries again. */
static store *worker_store(server *sv, diag *d)
{
    store *s = pthread_getspecific(sv->mine);
    if (s)
        return s;
    /* A slot is reserved under the lock before the open, so that
     * workers opening at once never hold more than max. */
    pthread_mutex_lock(&sv->lock);
    bool first = sv->reserved == 0, room = sv->reserved < sv->max;
    if (first)
        sv->conns[sv->opened++] = sv->st;
    if (first || room)
        sv->reserved++;
    pthread_mutex_unlock(&sv->lock);
    if (first) {
        s = sv->st;
    } else if (!room) {
        /* Only if libmicrohttpd ran more workers than --threads. */
        diag_set(d, ST_INTERNAL, "more worker threads than store connections");
        return NULL;
    } else {
        status st = store_open_peer(sv->st, &s, d);
        pthread_mutex_lock(&sv->lock);
        if (st == ST_OK)
            sv->conns[sv->opened++] = s;
        else
            sv->reserved--;
        pthread_mutex_unlock(&sv->lock);
        if (st != ST_OK)
            return NULL;
    }
    pthread_setspecific(sv->mine, s);
    return s;
}

typedef struct upload {
    buf body;
    int too_large;
} upload;

static unsigned long next_request(server *sv)
{
    return __atomic_add_fetch(&sv->requests, 1, __ATOMIC_RELAXED);
}

/* A request id like DynamoDB's: 52 characters of [0-9A-Z]. */
static void request_id(unsigned long seed, unsigned long n, char out[53])
{
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
    uint64_t x = (uint64_t)seed * 0x9E3779B97F4A7C15ull ^ (uint64_t)n;
    for (int i = 0; i < 52; i++) {
        /* splitmix64 steps: distinct ids per request, no shared state */
        x += 0x9E3779B97F4A7C15ull;
        uint64_t z = x;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        out[i] = digits[z % 36];
    }
    out[52] = '\0';
}

static enum MHD_Result send_reply(struct MHD_Connection *c, server *sv, unsigned long n,
                                  serve_reply *r)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(r->len, r->body,
                                                                MHD_RESPMEM_MUST_FREE);
    if (!resp) {
        serve_reply_free(r);
        return MHD_NO;
    }
    r->body = NULL;   /* the response owns it now */
    char crc[16], rid[53];
    snprintf(crc, sizeof crc, "%lu", (unsigned long)r->crc32);
    request_id(sv->seed, n, rid);
    MHD_add_response_header(resp, "Content-Type", "application/x-amz-json-1.0");
    MHD_add_response_header(resp, "x-amz-crc32", crc);
    MHD_add_response_header(resp, "x-amzn-RequestId", rid);
    enum MHD_Result ret = MHD_queue_response(c, r->http_status, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result plain(struct MHD_Connection *c, unsigned code, const char *text)
{
    struct MHD_Response *resp = MHD_create_response_from_buffer(strlen(text), (void *)text,
                                                                MHD_RESPMEM_PERSISTENT);
    if (!resp)
        return MHD_NO;
    MHD_add_response_header(resp, "Content-Type", "text/plain");
    enum MHD_Result ret = MHD_queue_response(c, code, resp);
    MHD_destroy_response(resp);
    return ret;
}

static enum MHD_Result sum_sizes(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    size_t *n = cls;
    *n += strlen(key) + (value ? strlen(value) : 0) + 4;   /* ": " and CRLF */
    return MHD_YES;
}

/* A request ddbx refuses before reading its body: a path other than "/"
 * (DynamoDB serves its API on / only: 404), a request line or header
 * section past the limits above (400). The answer is an error body in
 * DynamoDB's shape; NULL when the request is to be served. */
static const char *refusal(struct MHD_Connection *c, const char *url, unsigned *code)
{
    size_t line = strlen(url), headers = 0;
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, sum_sizes, &line);
    MHD_get_connection_values(c, MHD_HEADER_KIND, sum_sizes, &headers);
    *code = 400;
    if (line > MAX_LINE)
        return "Request line too long (limit 16384 bytes)";
    if (headers > MAX_HEADERS)
        return "Request headers too large (limit 65536 bytes)";
    if (strcmp(url, "/") != 0) {
        *code = 404;
        return "Not found: the DynamoDB API is served on / only";
    }
    return NULL;
}

static enum MHD_Result refuse(struct MHD_Connection *c, server *sv, unsigned code, const char *msg)
{
    serve_reply r;
    serve_error_reply(code == 404 ? ST_UNKNOWN_OPERATION : ST_VALIDATION, msg, &r);
    r.http_status = code;
    return send_reply(c, sv, next_request(sv), &r);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *data, size_t *data_size, void **con_cls)
{
    server *sv = cls;
    (void)version;
    if (!*con_cls) {
        unsigned code;
        const char *why = refusal(c, url, &code);
        if (why)
            return refuse(c, sv, code, why);
    }
    if (strcmp(method, "POST") != 0) {
        if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0)
            return plain(c, 200, "healthy: ddbx serve\n");   /* as DynamoDB answers GET / */
        return plain(c, 405, "method not allowed\n");
    }
    upload *u = *con_cls;
    if (!u) {
        /* First call: headers only. */
        u = xcalloc(1, sizeof *u);
        buf_init(&u->body);
        *con_cls = u;
        return MHD_YES;
    }
    if (*data_size) {
        if (u->body.len + *data_size > MAX_BODY)
            u->too_large = 1;
        else
            buf_add(&u->body, data, *data_size);
        *data_size = 0;
        return MHD_YES;
    }
    /* The whole body is in: answer. */
    serve_reply r;
    unsigned long n;
    if (u->too_large) {
        serve_error_reply(ST_VALIDATION, "Request size exceeded 16777216 bytes", &r);
        r.http_status = 413;
        n = next_request(sv);
    } else {
        const char *target = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Amz-Target");
        n = next_request(sv);
        diag d;
        diag_init(&d);
        store *st = worker_store(sv, &d);
        if (st) {
            serve_handle(st, target, u->body.data ? u->body.data : "", u->body.len, &r);
        } else {
            char msg[sizeof d.msg + 64];
            snprintf(msg, sizeof msg, "another connection to the database: %s", d.msg);
            fprintf(stderr, "ddbx serve: %s\n", msg);
            serve_error_reply(ST_INTERNAL, msg, &r);
        }
    }
    return send_reply(c, sv, n, &r);
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode why)
{
    (void)cls;
    (void)c;
    (void)why;
    upload *u = *con_cls;
    if (u) {
        buf_done(&u->body);
        free(u);
        *con_cls = NULL;
    }
}

/* Waits for SIGINT or SIGTERM (the one taken is returned), running a
 * TTL sweep step every `every` seconds meanwhile (0: never) on a
 * connection of its own, opened at the first step: expired items go as
 * DynamoDB's background deletes do (store_ttl_sweep), their writes
 * queued with the requests' on the store's write lock. */
static int wait_and_sweep(server *sv, const sigset_t *stop, double every)
{
    store *sweeper = NULL;
    for (;;) {
        if (every <= 0) {
            int sig = 0;
            if (sigwait(stop, &sig) == 0)
                return sig;
            continue;
        }
        struct timespec ts = { .tv_sec = (time_t)every,
                               .tv_nsec = (long)((every - (double)(time_t)every) * 1e9) };
        int sig = sigtimedwait(stop, NULL, &ts);
        if (sig > 0) {
            store_close(sweeper);
            return sig;
        }
        if (errno != EAGAIN)
            continue;
        diag d;
        diag_init(&d);
        size_t deleted = 0;
        status st = sweeper ? ST_OK : store_open_peer(sv->st, &sweeper, &d);
        if (st == ST_OK)
            st = store_ttl_sweep(sweeper, (double)time(NULL), 1000, &deleted, &d);
        if (st != ST_OK)
            fprintf(stderr, "ddbx serve: TTL sweep: %s\n", d.msg);
    }
}

/* The worker threads (and so store connections) by default: one a core,
 * at least 2 so that one request waiting on the write lock or a long
 * Scan page does not stop the rest. */
#define MAX_THREADS 256
static unsigned default_threads(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 2)
        n = 2;
    return n > MAX_THREADS ? MAX_THREADS : (unsigned)n;
}

static int usage(void)
{
    fprintf(stderr, "usage: ddbx serve [--db FILE] [--port N] [--host ADDR] [--threads N]"
                    " [--stream-retention S] [--iterator-lifetime S] [--ttl-interval S]\n");
    return 2;
}

int cli_serve(int argc, char **argv)
{
    const char *flag_db = cli_take_db(&argc, argv);
    const char *host = "127.0.0.1";
    const char *port_s = "8000";
    const char *threads_s = NULL;
    double retention, lifetime, ttl_every;
    if (cli_take_stream_times(&argc, argv, &retention, &lifetime) < 0 ||
        cli_take_ttl_interval(&argc, argv, &ttl_every) < 0)
        return 2;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "--port") == 0 || strcmp(a, "--host") == 0) && i + 1 < argc) {
            if (a[2] == 'p')
                port_s = argv[++i];
            else
                host = argv[++i];
        } else if (strcmp(a, "--threads") == 0 && i + 1 < argc) {
            threads_s = argv[++i];
        } else if (strncmp(a, "--port=", 7) == 0) {
            port_s = a + 7;
        } else if (strncmp(a, "--host=", 7) == 0) {
            host = a + 7;
        } else if (strncmp(a, "--threads=", 10) == 0) {
            threads_s = a + 10;
        } else {
            return usage();
        }
    }
    char *end = NULL;
    long port = strtol(port_s, &end, 10);
    if (!*port_s || *end || port < 0 || port > 65535) {
        fprintf(stderr, "ddbx serve: bad port: %s\n", port_s);
        return 2;
    }
    unsigned threads = default_threads();
    if (threads_s) {
        long t = strtol(threads_s, &end, 10);
        if (!*threads_s || *end || t < 1 || t > MAX_THREADS) {
            fprintf(stderr, "ddbx serve: bad --threads: %s (1 to %d)\n", threads_s, MAX_THREADS);
            return 2;
        }
        threads = (unsigned)t;
    }

    int rc = 1;
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
    struct addrinfo *ai = NULL;
    struct MHD_Daemon *daemon = NULL;
    server sv = { 0 };
    pthread_mutex_init(&sv.lock, NULL);
    pthread_key_create(&sv.mine, NULL);
    sv.max = threads;
    sv.conns = xcalloc(threads, sizeof *sv.conns);
    sv.seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
    char *path = cli_db_path(flag_db, 1);
    diag d;
    diag_init(&d);
    if (store_open(path, STORE_LARGE_CACHE | cli_store_flags(), &sv.st, &d) != ST_OK) {
        fprintf(stderr, "ddbx serve: %s\n", d.msg);
        goto out;
    }
    store_set_stream_times(sv.st, retention, lifetime);
    int gai = getaddrinfo(host, port_s, &hints, &ai);
    if (gai != 0 || !ai) {
        fprintf(stderr, "ddbx serve: %s: %s\n", host, gai_strerror(gai));
        rc = 2;
        goto out;
    }

    /* SIGINT/SIGTERM are taken by sigwait below; blocked before the
     * daemon starts, so its threads inherit the mask and never see them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);

    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
    if (ai->ai_family == AF_INET6)
        flags |= MHD_USE_IPv6;
    daemon = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, &sv,
                              MHD_OPTION_SOCK_ADDR, ai->ai_addr,
                              MHD_OPTION_NOTIFY_COMPLETED, on_completed, &sv,
                              MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)300,
                              MHD_OPTION_CONNECTION_LIMIT, (unsigned)512,
                              MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)MEMORY_LIMIT,
                              MHD_OPTION_THREAD_POOL_SIZE, threads,
                              MHD_OPTION_END);
    if (!daemon) {
        fprintf(stderr, "ddbx serve: cannot listen on %s port %s: %s\n", host, port_s,
                errno ? strerror(errno) : "libmicrohttpd refused");
        goto out;
    }
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    unsigned bound = info ? info->port : (unsigned)port;
    int v6 = ai->ai_family == AF_INET6;
    /* Scripts read the port from this line (--port 0 picks a free one). */
    printf("ddbx serve: listening on http://%s%s%s:%u\n", v6 ? "[" : "", host, v6 ? "]" : "",
           bound);
    fflush(stdout);

    int sig = wait_and_sweep(&sv, &stop, ttl_every);
    fprintf(stderr, "ddbx serve: %s, stopping\n", sig == SIGINT ? "interrupted" : "terminated");
    rc = 0;
out:
    if (daemon)
        MHD_stop_daemon(daemon);   /* joins the worker threads */
    if (ai)
        freeaddrinfo(ai);
    /* The workers are gone: no connection is in use. conns[0], when
     * taken, is sv.st. */
    for (size_t i = 1; i < sv.opened; i++)
        store_close(sv.conns[i]);
    store_close(sv.st);
    free(sv.conns);
    pthread_key_delete(sv.mine);
    pthread_mutex_destroy(&sv.lock);
    free(path);
    return rc;
}
