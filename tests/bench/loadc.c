/*
 * loadc — a small HTTP load client for DynamoDB endpoints (`ddbx serve`,
 * dynalite), cheap enough per request that the server, not the client,
 * is what it measures (tests/bench/bench_dynalite.js spends ~240 µs of
 * node CPU a request).
 *
 *   loadc load PORT ITEMS OP CONNS SECONDS NAME [PID]
 *       OP get: GetItem of random existing keys of table Graph (the
 *       follow graph of graph.h, ITEMS items, loaded beforehand);
 *       OP query: whole-partition Query (100 items) of random actors.
 *       CONNS keep-alive connections, each with one request in flight
 *       (libcurl's multi interface, one thread), for SECONDS after a
 *       warm-up of 0.3 s. Prints NAME.ops, NAME.p50, NAME.p99 (µs) and
 *       NAME.cpu_us (the client's own CPU per request); with the server's
 *       PID, NAME.srv_cpu_us too (its CPU per request, from /proc: what
 *       the shared machine's other load inflates least).
 *   loadc startup RUNS NAME [--fresh FILE] -- CMD ARG...
 *       Start-up time: from fork+exec of CMD to the first answered
 *       request (a ListTables POST answered 200), RUNS times; "{PORT}"
 *       in the arguments becomes a free loopback port. --fresh FILE
 *       removes FILE, FILE-wal and FILE-shm before each run (a fresh
 *       database, as a test suite's own endpoint has). The child gets a
 *       pipe as stdin (dynalite-server.js exits when it closes) and is
 *       stopped with SIGTERM. Prints NAME.startup_ms (the median) and
 *       NAME.startup_min_ms.
 *
 * Requests are DynamoDB JSON 1.0 POSTs with X-Amz-Target and a
 * SigV4-shaped Authorization header as the SDKs send (neither server
 * checks the signature). Output lines are {"fig":...,"value":...}
 * (bench_util.h), read by bench.js. Exits 1 on any answer other than 200
 * or one that lacks what the request must find.
 */
#include <arpa/inet.h>
#include <curl/curl.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/bench/bench_util.h"
#include "tests/bench/graph.h"

#define MAX_CONNS 256
#define N_KEYS 8192
#define WARMUP_S 0.3

static const char AUTH[] =
    "Authorization: AWS4-HMAC-SHA256 Credential=AKIDLOADC/20260101/us-east-1/dynamodb/aws4_request, "
    "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
    "Signature=0000000000000000000000000000000000000000000000000000000000000000";

static void die(const char *what)
{
    fprintf(stderr, "loadc: %s\n", what);
    exit(1);
}

/* One connection's transfer: its request body, the answer read so far. */
typedef struct slot {
    CURL *h;
    char body[256];
    char *resp;
    size_t len, cap;
    double started;
} slot;

static size_t on_data(char *p, size_t size, size_t n, void *ud)
{
    slot *s = ud;
    size_t k = size * n;
    if (s->len + k + 1 > s->cap) {
        s->cap = (s->len + k + 1) * 2;
        s->resp = realloc(s->resp, s->cap);
        if (!s->resp)
            die("out of memory");
    }
    memcpy(s->resp + s->len, p, k);
    s->len += k;
    s->resp[s->len] = 0;
    return k;
}

static struct curl_slist *headers_for(const char *op)
{
    char target[96];
    snprintf(target, sizeof target, "X-Amz-Target: DynamoDB_20120810.%s", op);
    struct curl_slist *hl = NULL;
    hl = curl_slist_append(hl, "Content-Type: application/x-amz-json-1.0");
    hl = curl_slist_append(hl, target);
    hl = curl_slist_append(hl, "X-Amz-Date: 20260101T000000Z");
    hl = curl_slist_append(hl, AUTH);
    hl = curl_slist_append(hl, "Expect:");   /* no 100-continue round trip */
    return hl;
}

static void setup(slot *s, const char *url, struct curl_slist *hl)
{
    s->h = curl_easy_init();
    if (!s->h)
        die("curl_easy_init");
    curl_easy_setopt(s->h, CURLOPT_URL, url);
    curl_easy_setopt(s->h, CURLOPT_HTTPHEADER, hl);
    curl_easy_setopt(s->h, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(s->h, CURLOPT_WRITEDATA, s);
    curl_easy_setopt(s->h, CURLOPT_TCP_NODELAY, 1L);
    curl_easy_setopt(s->h, CURLOPT_PRIVATE, s);
    curl_easy_setopt(s->h, CURLOPT_NOSIGNAL, 1L);
}

/* The keys a run picks from: random existing items (graph.h). */
typedef struct keys {
    uint32_t act[N_KEYS], tgt[N_KEYS];
    size_t next;
} keys;

static void next_body(slot *s, keys *k, int query)
{
    size_t i = k->next++ % N_KEYS;
    if (query)
        snprintf(s->body, sizeof s->body,
                 "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p\","
                 "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#u%u\"}}}", k->act[i]);
    else
        snprintf(s->body, sizeof s->body,
                 "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#u%u\"},"
                 "\"SK\":{\"S\":\"TARGET#u%u\"}}}", k->act[i], k->tgt[i]);
    curl_easy_setopt(s->h, CURLOPT_POSTFIELDS, s->body);
    curl_easy_setopt(s->h, CURLOPT_POSTFIELDSIZE, (long)strlen(s->body));
    s->len = 0;
    s->started = bench_now();
}

/* The answer must be a 200 with what the request asked for. */
static long new_conns;

static void check(slot *s, CURLcode rc, int query)
{
    long code = 0, nc = 0;
    curl_easy_getinfo(s->h, CURLINFO_NUM_CONNECTS, &nc);
    new_conns += nc;
    curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &code);
    if (rc != CURLE_OK) {
        fprintf(stderr, "loadc: %s\n", curl_easy_strerror(rc));
        exit(1);
    }
    const char *need = query ? "\"Count\":100" : "\"Item\"";
    if (code != 200 || !s->resp || !strstr(s->resp, need)) {
        fprintf(stderr, "loadc: HTTP %ld: %.300s\n", code, s->resp ? s->resp : "");
        exit(1);
    }
}

/* A process's CPU time (user + system), seconds; -1 when unreadable. */
static double proc_cpu(long pid)
{
    char p[64], line[1024];
    snprintf(p, sizeof p, "/proc/%ld/stat", pid);
    FILE *f = fopen(p, "r");
    if (!f)
        return -1;
    size_t n = fread(line, 1, sizeof line - 1, f);
    fclose(f);
    line[n] = 0;
    const char *q = strrchr(line, ')');   /* past the command name */
    unsigned long ut, st;
    if (!q || sscanf(q + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int run_load(int argc, char **argv)
{
    if (argc != 8 && argc != 9)
        return fprintf(stderr, "usage: loadc load PORT ITEMS get|query CONNS SECONDS NAME [PID]\n"), 2;
    long srv = argc == 9 ? atol(argv[8]) : 0;
    double srv0 = 0;
    int port = atoi(argv[2]), conns = atoi(argv[5]);
    unsigned long items = strtoul(argv[3], NULL, 10);
    int query = strcmp(argv[4], "query") == 0;
    double secs = atof(argv[6]);
    const char *name = argv[7];
    if (conns < 1 || conns > MAX_CONNS || items < GRAPH_PER_PART || secs <= 0)
        die("bad arguments");
    static keys k;
    graph_rng r = graph_rng_for(GRAPH_SEED, 77);
    graph_pick_keys(&r, (uint32_t)(items / GRAPH_PER_PART), N_KEYS, k.act, k.tgt);

    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    struct curl_slist *hl = headers_for(query ? "Query" : "GetItem");
    CURLM *m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, (long)conns);
    curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)conns);
    static slot slots[MAX_CONNS];
    for (int i = 0; i < conns; i++) {
        setup(&slots[i], url, hl);
        next_body(&slots[i], &k, query);
        curl_multi_add_handle(m, slots[i].h);
    }
    size_t cap = 1 << 16, n = 0;
    double *lat = malloc(cap * sizeof *lat);
    double t0 = bench_now(), measure_from = t0 + WARMUP_S, end = measure_from + secs;
    double cpu0 = 0;
    int measuring = 0;
    for (;;) {
        int running = 0;
        curl_multi_perform(m, &running);
        CURLMsg *msg;
        int left;
        double now = bench_now();
        if (!measuring && now >= measure_from) {
            measuring = 1;
            cpu0 = bench_cpu();
            srv0 = srv ? proc_cpu(srv) : -1;
            measure_from = now;
        }
        int done = now >= end;
        while ((msg = curl_multi_info_read(m, &left))) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            slot *s;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&s);
            check(s, msg->data.result, query);
            if (measuring && !done) {
                if (n == cap)
                    lat = realloc(lat, (cap *= 2) * sizeof *lat);
                lat[n++] = now - s->started;
            }
            curl_multi_remove_handle(m, s->h);
            if (!done) {
                next_body(s, &k, query);
                curl_multi_add_handle(m, s->h);
            }
        }
        if (done) {
            if (running == 0)
                break;
        }
        curl_multi_poll(m, NULL, 0, 100, NULL);
    }
    double wall = end - measure_from, cpu = bench_cpu() - cpu0;
    double srv1 = srv ? proc_cpu(srv) : -1;
    char fig[96];
    snprintf(fig, sizeof fig, "%s.ops", name);
    bench_fig(fig, (double)n / wall);
    snprintf(fig, sizeof fig, "%s.cpu_us", name);
    bench_fig(fig, n ? cpu / (double)n * 1e6 : 0);
    if (srv0 >= 0 && srv1 >= 0 && n) {
        snprintf(fig, sizeof fig, "%s.srv_cpu_us", name);
        bench_fig(fig, (srv1 - srv0) / (double)n * 1e6);
    }
    bench_lat(name, lat, n);
    /* Keep-alive: one connection each, opened once (more: the server
     * closed some, and the figures would include handshakes). */
    if (new_conns > conns)
        fprintf(stderr, "loadc: %ld connections opened for %d\n", new_conns, conns);
    for (int i = 0; i < conns; i++) {
        curl_easy_cleanup(slots[i].h);
        free(slots[i].resp);
    }
    curl_multi_cleanup(m);
    curl_slist_free_all(hl);
    free(lat);
    return 0;
}

/* A loopback port free now (the kernel's pick, released for the child). */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &len) != 0)
        die("no free port");
    close(fd);
    return ntohs(a.sin_port);
}

static void remove_db(const char *f)
{
    static const char *const ext[] = { "", "-wal", "-shm" };
    char p[4096];
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s%s", f, ext[i]);
        unlink(p);
    }
}

/* One start: ms from fork to the first 200 answer to ListTables. */
static double start_once(char **cmd, int ncmd, const char *fresh)
{
    if (fresh)
        remove_db(fresh);
    int port = free_port();
    char ports[16], url[64];
    snprintf(ports, sizeof ports, "%d", port);
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    char **av = calloc((size_t)ncmd + 1, sizeof *av);
    for (int i = 0; i < ncmd; i++)
        av[i] = strcmp(cmd[i], "{PORT}") == 0 ? ports : cmd[i];
    int in[2];
    if (pipe(in) != 0)
        die("pipe");
    struct curl_slist *hl = headers_for("ListTables");
    slot s = { 0 };
    setup(&s, url, hl);
    curl_easy_setopt(s.h, CURLOPT_POSTFIELDS, "{}");
    double t0 = bench_now();
    pid_t pid = fork();
    if (pid == 0) {
        dup2(in[0], 0);
        close(in[1]);
        int nul = open("/dev/null", O_WRONLY);
        dup2(nul, 1);
        dup2(nul, 2);
        execvp(av[0], av);
        _exit(127);
    }
    close(in[0]);
    double ms = -1;
    while (bench_now() - t0 < 20) {
        s.len = 0;
        long code = 0;
        if (curl_easy_perform(s.h) == CURLE_OK &&
            curl_easy_getinfo(s.h, CURLINFO_RESPONSE_CODE, &code) == CURLE_OK && code == 200) {
            ms = (bench_now() - t0) * 1e3;
            break;
        }
        int st;
        if (waitpid(pid, &st, WNOHANG) == pid)
            die("the server exited before answering");
        usleep(200);
    }
    kill(pid, SIGTERM);
    close(in[1]);
    waitpid(pid, NULL, 0);
    curl_easy_cleanup(s.h);
    curl_slist_free_all(hl);
    free(s.resp);
    free(av);
    if (ms < 0)
        die("no answer within 20 s");
    return ms;
}

static int run_startup(int argc, char **argv)
{
    if (argc < 6)
        return fprintf(stderr, "usage: loadc startup RUNS NAME [--fresh FILE] -- CMD ARG...\n"), 2;
    int runs = atoi(argv[2]);
    const char *name = argv[3], *fresh = NULL;
    int i = 4;
    if (strcmp(argv[i], "--fresh") == 0 && i + 1 < argc) {
        fresh = argv[i + 1];
        i += 2;
    }
    if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc || runs < 1)
        die("usage: loadc startup RUNS NAME [--fresh FILE] -- CMD ARG...");
    double *ms = calloc((size_t)runs, sizeof *ms);
    for (int r = 0; r < runs; r++)
        ms[r] = start_once(argv + i + 1, argc - i - 1, fresh);
    char fig[96];
    snprintf(fig, sizeof fig, "%s.startup_ms", name);
    bench_fig(fig, bench_pct(ms, (size_t)runs, 0.5));
    snprintf(fig, sizeof fig, "%s.startup_min_ms", name);
    bench_fig(fig, ms[0]);   /* sorted by bench_pct */
    if (fresh)
        remove_db(fresh);
    free(ms);
    return 0;
}

int main(int argc, char **argv)
{
    signal(SIGPIPE, SIG_IGN);
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != 0)
        die("curl_global_init");
    int rc = 2;
    if (argc > 1 && strcmp(argv[1], "load") == 0)
        rc = run_load(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "startup") == 0)
        rc = run_startup(argc, argv);
    else
        fprintf(stderr, "usage: loadc load ... | loadc startup ... (see tests/bench/loadc.c)\n");
    curl_global_cleanup();
    return rc;
}
