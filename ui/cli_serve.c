/*
 * cli_serve — `ddbx serve`: the local store as a DynamoDB endpoint (JSON
 * 1.0 protocol over HTTP), for applications and SDKs pointed at it with
 * --endpoint-url. Its options are a table (serve_opts, ui/opts.h) that
 * also takes DynamoDB Local's spellings (-port, -inMemory, -sharedDb,
 * -dbPath, -cors, ...), and its container's form `-jar DynamoDBLocal.jar
 * FLAGS` (take_jar_form). The databases: ddbx's one (--db, --in-memory),
 * or DynamoDB Local's rule, one a credential scope or one shared
 * (ui/serve_dbs.h). --cors (ui/serve_cors.h), --delay-transient-statuses
 * (data/serve_delay.h) and --require-credentials (data/sigv4_check.h)
 * act on each request in on_request; --record (data/record.h) writes a
 * line for each after its answer is made.
 *
 * Start-up (issue 43 item 9): the port listens before the databases
 * open (a client's connect succeeds at once, its request waits in the
 * socket), and one worker starts; it starts the rest at its second
 * connection (ui/httpd.h).
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
 * accepted, as DynamoDB Local does, unless --require-credentials; loopback
 * unless --host says otherwise (then a warning names the risk).
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
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/serve.h"
#include "data/serve_delay.h"
#include "data/record.h"
#include "data/sigv4_check.h"
#include "data/store.h"
#include "model/buf.h"
#include "model/mem.h"
#include "ui/cli.h"
#include "ui/httpd.h"
#include "ui/opts.h"
#include "ui/serve_cors.h"
#include "ui/serve_dbs.h"
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
    serve_dbs *dbs;           /* the databases and the workers' connections */
    serve_dbs_rule rule;
    const char *cors;         /* --cors: the allowed origins; NULL: no CORS */
    const char *need_key;     /* --require-credentials KEY (NULL: any request) */
    const char *need_secret;
    serve_delay *delay;       /* --delay-transient-statuses; NULL: off */
    recorder *rec;            /* --record; NULL: off */
    unsigned long requests;   /* atomic: numbers the request ids */
    unsigned long seed;
} server;

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

/* An endpoint's refusal (credentials, a database that cannot be named)
 * as the HTTP answer. */
static void refusal(server *sv, const char *type, const char *msg, httpd_response *rs)
{
    serve_reply r;
    serve_refusal_reply(type, msg, &r);
    json_reply(sv, &r, rs);
}

/* --require-credentials: the request's SigV4 signature checked with the
 * one key and secret accepted (data/sigv4_check.h); false after writing
 * AWS's refusal into *rs. */
static bool signed_well(server *sv, const httpd_request *rq, httpd_response *rs)
{
    sigv4_header hs[HTTPD_MAX_HEADERS];
    for (size_t i = 0; i < rq->n_headers; i++)
        hs[i] = (sigv4_header){ rq->headers[i].name, rq->headers[i].value };
    sigv4_request in = {
        .method = rq->method, .path = rq->path, .query = rq->query, .headers = hs,
        .nheaders = rq->n_headers, .body = rq->body, .body_len = rq->body_len,
        .authorization = httpd_header_value(rq, "Authorization"),
        .amz_date = httpd_header_value(rq, "X-Amz-Date"),
    };
    const char *type = NULL;
    char msg[300], full[360];
    if (sigv4_check(&in, sv->need_key, sv->need_secret, (long long)time(NULL), &type, msg, sizeof msg) ==
        SIGV4_GOOD)
        return true;
    snprintf(full, sizeof full, "com.amazon.coral.service#%s", type);
    refusal(sv, full, msg, rs);
    return false;
}

/* The database a request is served from: its worker's connection, or
 * NULL after writing the refusal into *rs. *db gets the database's name
 * for serve_delay ("" under ddbx's rule and -sharedDb). */
static store *request_store(server *sv, const httpd_request *rq, char *db, size_t dbn, httpd_response *rs)
{
    sigv4_auth a;
    bool scoped = sigv4_parse_authorization(httpd_header_value(rq, "Authorization"), &a);
    *db = '\0';
    if (sv->rule == SERVE_DBS_PER_KEY) {
        /* DynamoDB Local's answers without a credential scope and for a
         * key ID that is not letters and digits (3.3.1, seen 2026-12-06). */
        if (!scoped) {
            refusal(sv, "com.amazonaws.dynamodb.v20120810#MissingAuthenticationToken",
                    "Request must contain either a valid (registered) AWS access key ID or X.509 certificate.", rs);
            return NULL;
        }
        if (!serve_dbs_file_name(a.key, a.region, db, dbn)) {
            refusal(sv, "com.amazonaws.dynamodb.v20120810#UnrecognizedClientException",
                    "The Access Key ID or security token is invalid.", rs);
            return NULL;
        }
    }
    diag d;
    diag_init(&d);
    store *st = serve_dbs_conn(sv->dbs, a.key, a.region, &d);
    if (!st && d.code == ST_LIMIT_EXCEEDED) {
        /* A bound of this server's, not a failure: said once a key, as
         * the client is told (400: retrying does not help) */
        serve_reply r;
        serve_error_reply(ST_LIMIT_EXCEEDED, d.msg, &r);
        json_reply(sv, &r, rs);
        return NULL;
    }
    if (!st) {
        char msg[sizeof d.msg + 64];
        snprintf(msg, sizeof msg, "the database%s%s: %s", *db ? " " : "", db, d.msg);
        fprintf(stderr, "ddbx serve: %s\n", msg);
        serve_reply r;
        serve_error_reply(ST_INTERNAL, msg, &r);
        json_reply(sv, &r, rs);
    }
    return st;
}

/* Seconds since the epoch, to the microsecond (a record line's "t"). */
static double wall_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One request (ui/httpd.c calls it on a worker thread). Refused before
 * being read whole: a request line or header section past the limits
 * (400, as DynamoDB refuses oversized lines and headers), a body past
 * 16 MB (413). A CORS preflight is answered (--cors). Then a path other
 * than "/" (DynamoDB serves its API on / only: 404); GET and HEAD answer
 * as DynamoDB answers a health check. A POST is checked against
 * --require-credentials, then served from its database. */
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
    if (serve_cors(sv->cors, rq, rs, false))
        return;
    if (strcmp(rq->path, "/") != 0) {
        refuse(sv, 404, "Not found: the DynamoDB API is served on / only", rs);
    } else if (strcmp(rq->method, "POST") != 0) {
        if (strcmp(rq->method, "GET") == 0 || strcmp(rq->method, "HEAD") == 0)
            plain(rs, 200, "healthy: ddbx serve\n");
        else
            plain(rs, 405, "method not allowed\n");
    } else if (!sv->need_key || signed_well(sv, rq, rs)) {
        char db[300];
        store *st = request_store(sv, rq, db, sizeof db, rs);
        if (st) {
            serve_reply r;
            struct timespec t0, t1;
            if (sv->rec)
                clock_gettime(CLOCK_MONOTONIC, &t0);
            serve_handle(st, rq->target, rq->body, rq->body_len, &r);
            if (sv->rec && rq->target && strchr(rq->target, '.')) {
                clock_gettime(CLOCK_MONOTONIC, &t1);
                record_call c = { .op = strchr(rq->target, '.') + 1, .body = rq->body, .len = rq->body_len,
                                  .reply = r.body, .reply_len = r.len, .http = r.http_status,
                                  .units = store_call_units(), .t = wall_now(),
                                  .ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6 };
                record_request(sv->rec, &c);
            }
            if (sv->delay && rq->target && strchr(rq->target, '.')) {
                struct timespec ts;
                clock_gettime(CLOCK_MONOTONIC, &ts);
                serve_delay_apply(sv->delay, db, strchr(rq->target, '.') + 1, &r,
                                  (double)ts.tv_sec + ts.tv_nsec / 1e9);
            }
            json_reply(sv, &r, rs);
        }
    }
    serve_cors(sv->cors, rq, rs, true);
}

/* Waits for SIGINT or SIGTERM (the one taken is returned), running a
 * TTL sweep step every `every` seconds meanwhile (0: never) on every
 * database, each on a connection of its own: expired items go as
 * DynamoDB's background deletes do (store_ttl_sweep), their writes
 * queued with the requests' on the store's write lock. */
static int wait_and_sweep(server *sv, const sigset_t *stop, double every)
{
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
        if (sig > 0)
            return sig;
        if (errno == EAGAIN)
            serve_dbs_sweep(sv->dbs, (double)time(NULL), 1000);
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

/* What the command line says (cli_serve's table). */
typedef struct serve_args {
    const char *db, *db_path, *host, *cors, *credentials, *credentials_file, *record, *record_key;
    long port, threads, record_max, record_keep;
    double idle, retention, lifetime, ttl_every;
    bool in_memory, shared_db, delay, optimize, no_telemetry, jar_form;
} serve_args;

static serve_args args;

static const opt serve_opts[] = {
    OPT_STRING("db", "FILE", &args.db, "the database file (ddbx's rule: one database for every client)"),
    OPT_BOOL_ALSO("in-memory", "-inMemory", &args.in_memory,
                  "a database in memory, gone when the server stops"),
    OPT_STRING_ALSO("db-path", "-dbPath", "DIR", &args.db_path,
                    "DynamoDB Local's rule: one KEY_REGION.db a key and region, in DIR"),
    OPT_BOOL_ALSO("shared-db", "-sharedDb", &args.shared_db,
                  "with DynamoDB Local's rule: one shared-local-instance.db"),
    OPT_INTEGER_ALSO("port", "-port", "N", &args.port, 0, 65535, "the TCP port (default 8000; 0: any free one)"),
    OPT_STRING("host", "ADDR", &args.host, "the address to bind (default 127.0.0.1)"),
    OPT_STRING_ALSO("cors", "-cors", "LIST", &args.cors, "answer browsers from these origins (* for any)"),
    OPT_BOOL_ALSO("delay-transient-statuses", "-delayTransientStatuses", &args.delay,
                  "hold a new or deleted index's statuses as DynamoDB Local does"),
    OPT_BOOL_ALSO("optimize-db", "-optimizeDbBeforeStartup", &args.optimize,
                  "accepted: a ddbx database needs no step before start"),
    OPT_BOOL_ALSO("disable-telemetry", "-disableTelemetry", &args.no_telemetry,
                  "accepted: ddbx sends no telemetry"),
    OPT_STRING("require-credentials", "KEY:SECRET", &args.credentials,
               "answer only requests signed (SigV4) with this key (secret x'd out in ps)"),
    OPT_STRING("require-credentials-file", "FILE", &args.credentials_file,
               "the same, read from FILE's line KEY:SECRET (or env DDBX_REQUIRE_CREDENTIALS)"),
    OPT_INTEGER("threads", "N", &args.threads, 1, MAX_THREADS, "worker threads (default one a core, at least 2)"),
    OPT_SECONDS("idle-timeout", &args.idle, 0, 86400, OPT_ABOVE_LO, "close a keep-alive connection idle S seconds"),
    CLI_OPTS_STREAM_TIMES(&args.retention, &args.lifetime),
    CLI_OPT_TTL_INTERVAL(&args.ttl_every),
    OPT_SECONDS("stream-retention", &args.retention, 0, 1e9, OPT_ABOVE_LO, "keep change records S seconds"),
    OPT_STRING("record", "FILE", &args.record, "write a line a request to FILE, values hashed (ddbx patterns reads it)"),
    OPT_INTEGER("record-max", "BYTES", &args.record_max, 4096, 1e15, "rotate the record at BYTES (default 64 MiB)"),
    OPT_INTEGER("record-keep", "N", &args.record_keep, 0, 1000, "rotated records kept: FILE.1 .. FILE.N (default 4)"),
    OPT_STRING("record-key", "FILE", &args.record_key, "the hashing key's file (default: the record's FILE.key)"),
    OPT_HELP_ALSO("-help"),
    OPT_END(),
};

static const opts_cmd serve_cmd = {
    .name = "serve",
    .usage = "ddbx serve [--db FILE | --in-memory | --db-path DIR [--shared-db]] [--port N] [--host ADDR] [...]",
    .also_from = "DynamoDB Local",
    .opts = serve_opts,
    .about = "DynamoDB Local's command line is taken as written, also after `-jar DynamoDBLocal.jar`\n"
             "(its container's form): then its defaults hold, the current directory as -dbPath.\n"
             "See ddbx(1).\n",
};

/* DynamoDB Local's container form: `[-Dprop=... -Xmx...] -jar
 * DynamoDBLocal.jar FLAGS`, as its image's command line and compose
 * files give it, after whatever came first (the image's entry point puts
 * --host and --port before it). The jar and the JVM's options before it
 * are taken out of argv; true when they were there. */
static bool take_jar_form(int *argc, char **argv)
{
    int jar = 1;
    while (jar + 1 < *argc && strcmp(argv[jar], "-jar") != 0)
        jar++;
    if (jar + 1 >= *argc)
        return false;
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        bool jvm = i < jar && (strncmp(argv[i], "-D", 2) == 0 || strncmp(argv[i], "-X", 2) == 0);
        if (!jvm && i != jar && i != jar + 1)
            argv[out++] = argv[i];
    }
    *argc = out;
    argv[out] = NULL;
    return true;
}

static bool loopback(const struct addrinfo *ai)
{
    if (ai->ai_family == AF_INET)
        return (ntohl(((const struct sockaddr_in *)ai->ai_addr)->sin_addr.s_addr) >> 24) == 127;
    if (ai->ai_family == AF_INET6)
        return IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)ai->ai_addr)->sin6_addr);
    return false;
}

/* The databases' rule from the flags; 0, or 2 after a message. */
static int choose_dbs(serve_dbs_opts *o, char **path)
{
    if (args.db_path && args.in_memory) {
        fprintf(stderr, "ddbx serve: --db-path (-dbPath) and --in-memory (-inMemory): one or the other,"
                        " as DynamoDB Local has it\n");
        return 2;
    }
    if (args.db && (args.db_path || args.shared_db || args.jar_form)) {
        fprintf(stderr, "ddbx serve: --db names ddbx's one database; --db-path, --shared-db and the -jar form"
                        " follow DynamoDB Local's rule: one or the other\n");
        return 2;
    }
    if (args.db && args.in_memory && strcmp(args.db, ":memory:") != 0) {
        fprintf(stderr, "ddbx serve: --in-memory and --db %s: one database or the other\n", args.db);
        return 2;
    }
    bool local = args.db_path || args.shared_db || args.jar_form;
    if (!local) {
        o->rule = SERVE_DBS_ONE;
        *path = paths_db(args.in_memory ? ":memory:" : args.db, 1);
        o->path = *path;
        return 0;
    }
    o->rule = args.shared_db ? SERVE_DBS_SHARED : SERVE_DBS_PER_KEY;
    o->memory = args.in_memory;
    *path = args.in_memory ? NULL : xstrdup(args.db_path ? args.db_path : ".");
    o->path = *path;
    struct stat sb;
    if (*path && (stat(*path, &sb) != 0 || !S_ISDIR(sb.st_mode))) {
        fprintf(stderr, "ddbx serve: -dbPath %s: not a folder (DynamoDB Local's -dbPath names the folder of its"
                        " databases)\n", *path);
        return 2;
    }
    return 0;
}

/* --require-credentials-file: its one line (a final newline, CR or
 * spaces dropped, as `echo KEY:SECRET > FILE` and editors leave it);
 * "" for a file of another shape (refused by the caller), NULL after a
 * message when it cannot be read. */
static char *read_secret_file(const char *file)
{
    FILE *f = fopen(file, "r");
    if (!f) {
        fprintf(stderr, "ddbx serve: --require-credentials-file %s: %s\n", file, strerror(errno));
        return NULL;
    }
    char line[1024];
    size_t n = fread(line, 1, sizeof line - 1, f);
    bool more = fgetc(f) != EOF;
    fclose(f);
    line[n] = '\0';
    while (n > 0 && strchr("\r\n ", line[n - 1]))
        line[--n] = '\0';
    char *v = xstrdup(more || strchr(line, '\n') ? "" : line);
    for (volatile char *w = line; w < line + sizeof line; w++)
        *w = '\0';   /* not left on the stack (explicit_bzero is not on every system) */
    return v;
}

/* The one KEY:SECRET of --require-credentials, its file or the
 * environment: *out a copy (NULL: none given), 0; or 2 after a message.
 * Given on the command line, the secret is overwritten in argv (with
 * x's, as mysql does with -pPASSWORD) so ps and /proc/PID/cmdline no
 * longer show it; it was visible from exec to here, which the file and
 * the environment never are. */
static int take_credentials(char **out)
{
    *out = NULL;
    /* The environment: what a CI job's secrets become (GitHub Actions'
     * `env: ... ${{ secrets.X }}`), readable in /proc/PID/environ by the
     * process's owner only, where the command line is every user's. */
    const char *env = getenv("DDBX_REQUIRE_CREDENTIALS"), *from = NULL;
    if (args.credentials && args.credentials_file) {
        fprintf(stderr, "ddbx serve: --require-credentials and --require-credentials-file: one or the other\n");
        return 2;
    }
    if (args.credentials) {
        *out = xstrdup(args.credentials);
        char *secret = strchr(args.credentials, ':');   /* argv's own bytes */
        if (secret)
            memset(secret + 1, 'x', strlen(secret + 1));
        from = "--require-credentials";
    } else if (args.credentials_file) {
        if (!(*out = read_secret_file(args.credentials_file)))
            return 2;
        from = "--require-credentials-file";
    } else if (env && *env) {
        *out = xstrdup(env);
        from = "DDBX_REQUIRE_CREDENTIALS";
    }
    char *colon = *out ? strchr(*out, ':') : NULL;
    if (*out && (!colon || colon == *out || !colon[1])) {
        if (args.credentials_file && !args.credentials)
            fprintf(stderr, "ddbx serve: --require-credentials-file %s: needs one line KEY:SECRET (an access key ID"
                            " and its secret)\n", args.credentials_file);
        else
            fprintf(stderr, "ddbx serve: %s needs KEY:SECRET (an access key ID and its secret)\n", from);
        free(*out);
        *out = NULL;
        return 2;
    }
    return 0;
}

/* DynamoDB Local's rule on files opens a database a new key and region,
 * each holding descriptors (serve_dbs_fds_each): a quarter of the file
 * limit goes to them (at least one database), so they can neither fail
 * to open for want of descriptors nor starve the connections' accept
 * (ui/httpd.c keeps them out of the connections' share); past it a new
 * key is refused with LimitExceededException naming the bound. At the
 * usual hard limit of 1,048,576 and 2 threads that is 32,768 databases;
 * under `ulimit -n 1024`, 32. The descriptors reserved (0: no bound). */
static size_t bound_databases(serve_dbs_opts *o)
{
    size_t each = serve_dbs_fds_each(o);
    if (o->rule != SERVE_DBS_PER_KEY || each == 0)
        return 0;
    o->file_limit = httpd_file_limit();
    o->max_open = o->file_limit / 4 / each;
    if (o->max_open == 0)
        o->max_open = 1;
    return o->max_open * each;
}

/* The warning for an address other machines reach. */
static void warn_open(const char *host, bool checked)
{
    if (checked)
        fprintf(stderr, "ddbx serve: warning: %s accepts connections from other machines; only requests signed"
                        " with the --require-credentials key are answered, over plain HTTP (not encrypted)\n", host);
    else
        fprintf(stderr, "ddbx serve: warning: %s accepts connections from other machines, and no credentials"
                        " are checked: anyone who reaches this port can read, change and delete every table"
                        " (--require-credentials-file FILE, holding KEY:SECRET, answers only requests signed"
                        " with it)\n", host);
}

/* Listens where --host and --port say, before the databases open: a
 * client's connect succeeds at once and its request waits in the socket
 * (issue 43 item 9). NULL after a message, *rc the exit status (1, or 2
 * for a bad address); *v6 says how to print the address. */
static httpd *serve_listen(server *sv, size_t store_fds, int *rc, bool *v6)
{
    char port_s[16];
    snprintf(port_s, sizeof port_s, "%ld", args.port);
    struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_PASSIVE | AI_NUMERICSERV };
    struct addrinfo *ai = NULL;
    int gai = getaddrinfo(args.host, port_s, &hints, &ai);
    if (gai != 0 || !ai) {
        fprintf(stderr, "ddbx serve: %s: %s\n", args.host, gai_strerror(gai));
        *rc = 2;
        return NULL;
    }
    if (!loopback(ai))
        warn_open(args.host, sv->need_key != NULL);
    char why[256] = "";
    httpd_opts ho = {
        .addr = ai->ai_addr, .addr_len = ai->ai_addrlen, .threads = (unsigned)args.threads,
        .idle_timeout = args.idle, .max_line = MAX_LINE, .max_headers = MAX_HEADERS,
        .max_body = MAX_BODY, .handler = on_request, .ctx = sv, .store_fds = store_fds,
    };
    httpd *daemon = httpd_listen(&ho, why, sizeof why);
    if (!daemon) {
        fprintf(stderr, "ddbx serve: cannot listen on %s port %s: %s\n", args.host, port_s, why);
        *rc = 1;
    }
    *v6 = ai->ai_family == AF_INET6;
    freeaddrinfo(ai);
    return daemon;
}

/* Serves on the listening daemon until SIGINT or SIGTERM and stops it;
 * the exit status. */
static int serve_and_wait(server *sv, httpd *daemon, bool v6)
{
    /* SIGINT/SIGTERM are taken by sigwait below; blocked before the
     * workers start, so their threads inherit the mask and never see them. */
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    signal(SIGPIPE, SIG_IGN);
    char why[256] = "";
    if (!httpd_run(daemon, why, sizeof why)) {
        fprintf(stderr, "ddbx serve: cannot serve on %s port %ld: %s\n", args.host, args.port, why);
        return 1;
    }
    /* Scripts read the port from this line (--port 0 picks a free one). */
    printf("ddbx serve: listening on http://%s%s%s:%u\n", v6 ? "[" : "", args.host, v6 ? "]" : "",
           httpd_port(daemon));
    fflush(stdout);

    int sig = wait_and_sweep(sv, &stop, args.ttl_every);
    fprintf(stderr, "ddbx serve: %s, stopping\n", sig == SIGINT ? "interrupted" : "terminated");
    httpd_stats hs;
    httpd_get_stats(daemon, &hs);
    fprintf(stderr, "ddbx serve: %lu connections; %lu closed idle after %g s, %lu closed for room"
                    " (at most %zu open)\n", hs.accepted, hs.timed_out, args.idle, hs.evicted, hs.limit);
    return 0;
}

int cli_serve(int argc, char **argv)
{
    memset(&args, 0, sizeof args);
    args.host = "127.0.0.1";
    args.port = 8000;
    args.threads = default_threads();
    args.idle = IDLE_TIMEOUT;
    args.ttl_every = CLI_TTL_INTERVAL;
    args.record_max = (long)RECORD_MAX_BYTES;
    args.record_keep = RECORD_KEEP;
    args.jar_form = take_jar_form(&argc, argv);
    int pr = opts_parse(&serve_cmd, &argc, argv);
    if (pr != OPTS_OK)
        return pr == OPTS_HELP ? 0 : 2;
    char *key = NULL;
    if (take_credentials(&key) != 0)
        return 2;
    serve_dbs_opts dbo = { .store_flags = cli_store_flags(), .max_conns = (size_t)args.threads,
                           .retention = args.retention, .lifetime = args.lifetime };
    char *path = NULL;
    int rc = choose_dbs(&dbo, &path);
    if (rc != 0) {
        free(key);
        free(path);
        return rc;
    }
    server sv = { .rule = dbo.rule, .cors = args.cors };
    sv.seed = (unsigned long)time(NULL) ^ ((unsigned long)getpid() << 16);
    if (key) {
        char *colon = strchr(key, ':');
        *colon = '\0';
        sv.need_key = key;
        sv.need_secret = colon + 1;
    }
    if (args.delay)
        sv.delay = serve_delay_new();
    diag d;
    diag_init(&d);
    if (args.record) {
        record_opts ro = { .path = args.record, .key_path = args.record_key,
                           .max_bytes = (uint64_t)args.record_max, .keep = (unsigned)args.record_keep };
        if (record_open(&ro, &sv.rec, &d) != ST_OK) {
            fprintf(stderr, "ddbx serve: --record: %s\n", d.msg);
            serve_delay_free(sv.delay);
            free(key);
            free(path);
            return 1;
        }
        fprintf(stderr, "ddbx serve: recording to %s (values hashed with the key in %s%s)\n", args.record,
                record_key_path(sv.rec), record_key_created(sv.rec) ? ", made now" : "");
    }
    bool v6 = false;
    httpd *daemon = serve_listen(&sv, bound_databases(&dbo), &rc, &v6);
    if (daemon) {
        sv.dbs = serve_dbs_new(&dbo, &d);
        if (sv.dbs)
            rc = serve_and_wait(&sv, daemon, v6);
        else
            fprintf(stderr, "ddbx serve: %s\n", d.msg), rc = 1;
    }
    httpd_stop(daemon);   /* joins the worker threads */
    serve_dbs_free(sv.dbs);   /* the workers are gone: no connection is in use */
    serve_delay_free(sv.delay);
    record_close(sv.rec);
    free(key);
    free(path);
    return rc;
}
