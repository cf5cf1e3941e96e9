/*
 * cli_serve — `ddbx serve [--db FILE | --in-memory] [--port 8000]
 * [--host 127.0.0.1]`: the local store as a DynamoDB endpoint (JSON 1.0
 * protocol over HTTP), for applications and SDKs pointed at it with
 * --endpoint-url.
 *
 * Concurrency: ui/httpd.c runs a pool of worker threads (--threads N,
 * default the number of cores, at least 2), each serving its share of
 * the HTTP connections with epoll (poll() elsewhere). Each worker serves its requests on
 * a store connection of its own to the same database (the first, or a
 * peer from store_open_peer, opened at the worker's first request): reads
 * run side by side (WAL), writes queue on the store's write lock.
 * A pool sized to the cores keeps every core busy without the scheduling
 * a thread per HTTP connection costs under many keep-alive clients; a
 * worker waiting for the write lock holds back only its own connections.
 * Connections: as many as the file limit allows (raised to the hard
 * limit); the one idle longest is closed when slots run short, and any
 * after --idle-timeout seconds without a byte (ui/httpd.h).
 * The TTL sweep runs on the main thread with a connection of its own
 * (its position in the tables is that connection's).
 * data/serve.c maps the store's answer to HTTP. Any signature is
 * accepted, as DynamoDB Local does; loopback unless --host says otherwise.
 * SIGINT/SIGTERM stop the server cleanly: in-flight requests finish, the
 * store is closed. With --read-only (main takes it) every write is refused
 * with AccessDeniedException and reads work. --in-memory (or --db
 * :memory:) serves a database that lives in the process and ends with it
 * (data/store.c: SQLite's memdb, shared by the workers' connections).
 */
#include <arpa/inet.h>
#include <errno.h>
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
#include "ui/httpd.h"
#include "ui/sigwait.h"

/* DynamoDB's request limit, 16 MB (BatchWriteItem's "total request size");
 * the refusal names it, so a body of 16 MiB is read and one byte more is
 * refused (tests/harden/serve.sh). */
#define MAX_BODY (16u * 1024 * 1024)

/* The largest request line (the path and its query) and header section
 * served; past them the request is refused with 400, as DynamoDB refuses
 * oversized lines and headers: "DynamoDB's server limits the total header
 * size to just 16 KB. Above that, the request is failed with a '400 Bad
 * Request' error" (scylladb issue 23438, from its tests against DynamoDB;
 * a 17,000-byte URL gets 400 there too). The exact boundary is not
 * published; ui/httpd.c counts each header's name, value, ": " and CRLF. */
#define MAX_LINE (16u * 1024)
#define MAX_HEADERS (16u * 1024)

/* Seconds an idle keep-alive connection is kept (--idle-timeout). 5 s is
 * Node's own http.Server default, what dynalite closes idle connections
 * at, and below every AWS SDK's own idle limit (Java's Apache client 60 s,
 * Go's transport 90 s; JavaScript v3 and boto3 keep a connection until
 * the server closes it), so the server closes first and each SDK drops
 * the closed connection from its pool (and retries the rare request sent
 * as it closes). A reconnect on loopback costs ~0.1 ms; an idle
 * connection left by a finished test file costs a descriptor until then. */
#define IDLE_TIMEOUT 5.0

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
        /* Only if the server ran more workers than --threads. */
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

/* The store's reply as the HTTP answer: its body (handed over), the
 * JSON 1.0 content type, the CRC-32 and a request id. */
static void json_reply(server *sv, serve_reply *r, httpd_response *rs)
{
    rs->status = r->http_status;
    rs->content_type = "application/x-amz-json-1.0";
    rs->body = r->body;
    rs->len = r->len;
    r->body = NULL;
    rs->extra_name[0] = "x-amz-crc32";
    snprintf(rs->extra_value[0], sizeof rs->extra_value[0], "%lu", (unsigned long)r->crc32);
    rs->extra_name[1] = "x-amzn-RequestId";
    request_id(sv->seed, next_request(sv), rs->extra_value[1]);
    rs->n_extra = 2;
}

static void plain(httpd_response *rs, unsigned code, const char *text)
{
    rs->status = code;
    rs->content_type = "text/plain";
    rs->body = xstrdup(text);
    rs->len = strlen(text);
}

static void refuse(server *sv, unsigned code, const char *msg, httpd_response *rs)
{
    serve_reply r;
    serve_error_reply(code == 404 ? ST_UNKNOWN_OPERATION : ST_VALIDATION, msg, &r);
    r.http_status = code;
    json_reply(sv, &r, rs);
}

/* One request (ui/httpd.c calls it on a worker thread). Refused before
 * being read whole: a request line or header section past the limits
 * (400, as DynamoDB refuses oversized lines and headers), a body past
 * 16 MB (413). Then a path other than "/" (DynamoDB serves its API on /
 * only: 404); GET and HEAD answer as DynamoDB answers a health check. */
static void on_request(void *cls, const httpd_request *rq, httpd_response *rs)
{
    server *sv = cls;
    if (rq->refused == HTTPD_LINE_TOO_LONG || rq->refused == HTTPD_HEADERS_TOO_LARGE) {
        bool line = rq->refused == HTTPD_LINE_TOO_LONG;
        char why[64];
        snprintf(why, sizeof why, "Request %s (limit %u bytes)", line ? "line too long" : "headers too large",
                 line ? MAX_LINE : MAX_HEADERS);
        refuse(sv, 400, why, rs);
        return;
    }
    if (rq->refused == HTTPD_BODY_TOO_LARGE) {
        refuse(sv, 413, "Request size exceeded 16777216 bytes", rs);
        return;
    }
    if (strcmp(rq->path, "/") != 0) {
        refuse(sv, 404, "Not found: the DynamoDB API is served on / only", rs);
        return;
    }
    if (strcmp(rq->method, "POST") != 0) {
        if (strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0)
            plain(rs, 200, "healthy: ddbx serve\n");
        else
            plain(rs, 405, "method not allowed\n");
        return;
    }
    serve_reply r;
    diag d;
    diag_init(&d);
    store *st = worker_store(sv, &d);
    if (st) {
        serve_handle(st, rq->target, rq->body, rq->body_len, &r);
    } else {
        char msg[sizeof d.msg + 64];
        snprintf(msg, sizeof msg, "another connection to the database: %s", d.msg);
        fprintf(stderr, "ddbx serve: %s\n", msg);
        serve_error_reply(ST_INTERNAL, msg, &r);
    }
    json_reply(sv, &r, rs);
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
        int sig = sigwait_timed(stop, &ts);
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
    fprintf(stderr, "usage: ddbx serve [--db FILE | --in-memory] [--port N] [--host ADDR] [--threads N]"
                    " [--idle-timeout S] [--stream-retention S] [--iterator-lifetime S] [--ttl-interval S]\n");
    return 2;
}

int cli_serve(int argc, char **argv)
{
    const char *flag_db = cli_take_db(&argc, argv);
    const char *host = "127.0.0.1";
    const char *port_s = "8000";
    const char *threads_s = NULL, *idle_s = NULL;
    bool in_memory = false;
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
        } else if (strcmp(a, "--idle-timeout") == 0 && i + 1 < argc) {
            idle_s = argv[++i];
        } else if (strncmp(a, "--idle-timeout=", 15) == 0) {
            idle_s = a + 15;
        } else if (strcmp(a, "--in-memory") == 0) {
            in_memory = true;
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
    double idle = IDLE_TIMEOUT;
    if (idle_s) {
        idle = strtod(idle_s, &end);
        if (!*idle_s || *end || !(idle > 0) || idle > 86400) {
            fprintf(stderr, "ddbx serve: bad --idle-timeout: %s (seconds, above 0, at most 86400)\n", idle_s);
            return 2;
        }
    }
    if (in_memory) {
        if (flag_db && strcmp(flag_db, ":memory:") != 0) {
            fprintf(stderr, "ddbx serve: --in-memory and --db %s: one database or the other\n", flag_db);
            return 2;
        }
        flag_db = ":memory:";
    }

    int rc = 1;
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
    struct addrinfo *ai = NULL;
    httpd *daemon = NULL;
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

    char why[256] = "";
    httpd_opts ho = {
        .addr = ai->ai_addr, .addr_len = ai->ai_addrlen, .threads = threads,
        .idle_timeout = idle, .max_line = MAX_LINE, .max_headers = MAX_HEADERS,
        .max_body = MAX_BODY, .handler = on_request, .ctx = &sv,
    };
    daemon = httpd_start(&ho, why, sizeof why);
    if (!daemon) {
        fprintf(stderr, "ddbx serve: cannot listen on %s port %s: %s\n", host, port_s, why);
        goto out;
    }
    unsigned bound = httpd_port(daemon);
    int v6 = ai->ai_family == AF_INET6;
    /* Scripts read the port from this line (--port 0 picks a free one). */
    printf("ddbx serve: listening on http://%s%s%s:%u\n", v6 ? "[" : "", host, v6 ? "]" : "",
           bound);
    fflush(stdout);

    int sig = wait_and_sweep(&sv, &stop, ttl_every);
    fprintf(stderr, "ddbx serve: %s, stopping\n", sig == SIGINT ? "interrupted" : "terminated");
    rc = 0;
out:
    if (daemon) {
        httpd_stats hs;
        httpd_get_stats(daemon, &hs);
        fprintf(stderr, "ddbx serve: %lu connections; %lu closed idle after %g s, %lu closed for room"
                        " (at most %zu open)\n", hs.accepted, hs.timed_out, idle, hs.evicted, hs.limit);
        httpd_stop(daemon);   /* joins the worker threads */
    }
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
