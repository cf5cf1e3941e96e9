/*
 * loadc — a small HTTP load client for DynamoDB endpoints (`ddbx serve`,
 * dynalite), cheap enough per request that the server, not the client,
 * is what it measures (tests/bench/bench_dynalite.js spends ~240 µs of
 * node CPU a request).
 *
 *   loadc load PORT ITEMS OP CONNS SECONDS NAME [PID [FROM]]
 *       OP get: GetItem of random existing keys of table Graph (the
 *       follow graph of graph.h, ITEMS items, loaded beforehand);
 *       OP query: whole-partition Query (100 items) of random actors;
 *       OP put: PutItem of new items of the graph (actors from FROM on,
 *       default ITEMS/100: items the table does not hold, each written
 *       once; their targets among the ITEMS/100 users);
 *       OP batch: BatchWriteItem of 25 such items a request.
 *       CONNS keep-alive connections, each with one request in flight
 *       (libcurl's multi interface, one thread), for SECONDS after a
 *       warm-up of 0.3 s. Prints NAME.ops (requests a second),
 *       NAME.items (items a second), NAME.p50, NAME.p99 (µs) and
 *       NAME.cpu_us (the client's own CPU per request); with the server's
 *       PID, NAME.srv_cpu_us and NAME.srv_cpu_us_item too (its CPU per
 *       request and per item, from /proc: what the shared machine's other
 *       load inflates least). W1 over HTTP is the batch figure: the
 *       server's work, not a client's.
 *   loadc exec RUNS NAME -- CMD ARG...
 *       fork+exec of CMD to its exit, RUNS times (`ddbx --version`):
 *       NAME.exec_ms (the median) and NAME.exec_min_ms.
 *   loadc suite PORT TESTS PARALLEL NAME [PID] [--no-transactions]
 *       A test suite's workload: TESTS tests, PARALLEL at once (one
 *       connection each, taking the next test when done), each creating
 *       its own table (with a GSI; DescribeTable until ACTIVE when the
 *       answer says otherwise), writing 20 items (PutItem), reading them
 *       back (20 GetItem, a Query, a GSI Query), one conditional
 *       UpdateItem, one TransactWriteItems (a conditional Put and an
 *       Update; with --no-transactions, for dynalite 4, which has none:
 *       a conditional PutItem and an UpdateItem), then deleting its
 *       table. Every answer is checked.
 *       Prints NAME.suite_ms (the whole suite's wall clock), NAME.requests
 *       and, with PID, NAME.srv_cpu_ms (the server's CPU for it).
 *   loadc startup RUNS NAME [--fresh FILE] -- CMD ARG...
 *       Start-up time: from fork+exec of CMD to the first answered
 *       request (a ListTables POST answered 200, within 120 s), RUNS
 *       times; "{PORT}"
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
#define BATCH 25                  /* BatchWriteItem's most */
#define BODY_CAP (BATCH * 1024 + 256)

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
    char *body;               /* the request (BODY_CAP bytes) */
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
    s->body = malloc(BODY_CAP);
    if (!s->body)
        die("out of memory");
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

enum { OP_GET, OP_QUERY, OP_PUT, OP_BATCH };

/* The keys a run picks from (random existing items, graph.h), and for
 * the writes the next new item: actor next_a's item next_j. */
typedef struct keys {
    uint32_t act[N_KEYS], tgt[N_KEYS];
    size_t next;
    uint32_t parts, next_a, next_j, cur_a;
    uint32_t t[GRAPH_PER_PART];   /* cur_a's targets */
} keys;

/* Appends the next new item's JSON at p (room: 1 KB); its length. */
static int next_item(keys *k, char *p)
{
    if (k->next_j == 0 || k->cur_a != k->next_a) {
        graph_targets(GRAPH_SEED, k->parts, k->next_a, k->t);
        k->cur_a = k->next_a;
    }
    int n = graph_item_json(p, 1024, GRAPH_SEED, k->next_a, k->next_j, k->t[k->next_j]);
    if (++k->next_j == GRAPH_PER_PART) {
        k->next_j = 0;
        k->next_a++;
    }
    return n;
}

static void next_body(slot *s, keys *k, int op)
{
    size_t i = k->next++ % N_KEYS;
    if (op == OP_QUERY) {
        snprintf(s->body, BODY_CAP,
                 "{\"TableName\":\"Graph\",\"KeyConditionExpression\":\"PK = :p\","
                 "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"ACTOR#u%u\"}}}", k->act[i]);
    } else if (op == OP_GET) {
        snprintf(s->body, BODY_CAP,
                 "{\"TableName\":\"Graph\",\"Key\":{\"PK\":{\"S\":\"ACTOR#u%u\"},"
                 "\"SK\":{\"S\":\"TARGET#u%u\"}}}", k->act[i], k->tgt[i]);
    } else if (op == OP_PUT) {
        int n = snprintf(s->body, BODY_CAP, "{\"TableName\":\"Graph\",\"Item\":");
        n += next_item(k, s->body + n);
        snprintf(s->body + n, BODY_CAP - (size_t)n, "}");
    } else {
        int n = snprintf(s->body, BODY_CAP, "{\"RequestItems\":{\"Graph\":[");
        for (int b = 0; b < BATCH; b++) {
            n += snprintf(s->body + n, BODY_CAP - (size_t)n, "%s{\"PutRequest\":{\"Item\":", b ? "," : "");
            n += next_item(k, s->body + n);
            n += snprintf(s->body + n, BODY_CAP - (size_t)n, "}}");
        }
        snprintf(s->body + n, BODY_CAP - (size_t)n, "]}}");
    }
    curl_easy_setopt(s->h, CURLOPT_POSTFIELDS, s->body);
    curl_easy_setopt(s->h, CURLOPT_POSTFIELDSIZE, (long)strlen(s->body));
    s->len = 0;
    s->started = bench_now();
}

/* The answer must be a 200 with what the request asked for. */
static long new_conns;

static void check_answer(slot *s, CURLcode rc, const char *need)
{
    long code = 0;
    curl_easy_getinfo(s->h, CURLINFO_RESPONSE_CODE, &code);
    if (rc != CURLE_OK) {
        fprintf(stderr, "loadc: %s\n", curl_easy_strerror(rc));
        exit(1);
    }
    if (code != 200 || !s->resp || (need && !strstr(s->resp, need))) {
        fprintf(stderr, "loadc: HTTP %ld (wanted %s): %.300s\n", code, need ? need : "200",
                s->resp ? s->resp : "");
        exit(1);
    }
}

static void check(slot *s, CURLcode rc, int op)
{
    long nc = 0;
    curl_easy_getinfo(s->h, CURLINFO_NUM_CONNECTS, &nc);
    new_conns += nc;
    static const char *const need[] = { "\"Item\"", "\"Count\":100", "{", "\"UnprocessedItems\":{}" };
    check_answer(s, rc, need[op]);
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
    if (argc < 8 || argc > 10)
        return fprintf(stderr, "usage: loadc load PORT ITEMS get|query|put|batch CONNS SECONDS NAME [PID [FROM]]\n"), 2;
    long srv = argc >= 9 ? atol(argv[8]) : 0;
    double srv0 = 0;
    int port = atoi(argv[2]), conns = atoi(argv[5]);
    unsigned long items = strtoul(argv[3], NULL, 10);
    static const char *const ops[] = { "get", "query", "put", "batch" };
    static const char *const targets[] = { "GetItem", "Query", "PutItem", "BatchWriteItem" };
    int op = -1;
    for (int i = 0; i < 4; i++)
        if (strcmp(argv[4], ops[i]) == 0)
            op = i;
    double secs = atof(argv[6]);
    const char *name = argv[7];
    if (op < 0 || conns < 1 || conns > MAX_CONNS || items < GRAPH_MIN_ITEMS || secs <= 0)
        die("bad arguments (ITEMS: at least 10,100, graph.h)");
    static keys k;
    k.parts = (uint32_t)(items / GRAPH_PER_PART);
    k.next_a = argc == 10 ? (uint32_t)strtoul(argv[9], NULL, 10) : k.parts;
    graph_rng r = graph_rng_for(GRAPH_SEED, 77);
    graph_pick_keys(&r, k.parts, N_KEYS, k.act, k.tgt);
    int per = op == OP_BATCH ? BATCH : 1;   /* items a request */

    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    struct curl_slist *hl = headers_for(targets[op]);
    CURLM *m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, (long)conns);
    curl_multi_setopt(m, CURLMOPT_MAX_HOST_CONNECTIONS, (long)conns);
    static slot slots[MAX_CONNS];
    for (int i = 0; i < conns; i++) {
        setup(&slots[i], url, hl);
        next_body(&slots[i], &k, op);
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
            check(s, msg->data.result, op);
            if (measuring && !done) {
                if (n == cap)
                    lat = realloc(lat, (cap *= 2) * sizeof *lat);
                lat[n++] = now - s->started;
            }
            curl_multi_remove_handle(m, s->h);
            if (!done) {
                next_body(s, &k, op);
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
    snprintf(fig, sizeof fig, "%s.items", name);
    bench_fig(fig, (double)n * per / wall);
    snprintf(fig, sizeof fig, "%s.cpu_us", name);
    bench_fig(fig, n ? cpu / (double)n * 1e6 : 0);
    if (srv0 >= 0 && srv1 >= 0 && n) {
        snprintf(fig, sizeof fig, "%s.srv_cpu_us", name);
        bench_fig(fig, (srv1 - srv0) / (double)n * 1e6);
        snprintf(fig, sizeof fig, "%s.srv_cpu_us_item", name);
        bench_fig(fig, (srv1 - srv0) / (double)(n * per) * 1e6);
    }
    bench_lat(name, lat, n);
    /* Keep-alive: one connection each, opened once (more: the server
     * closed some, and the figures would include handshakes). */
    if (new_conns > conns)
        fprintf(stderr, "loadc: %ld connections opened for %d\n", new_conns, conns);
    for (int i = 0; i < conns; i++) {
        curl_easy_cleanup(slots[i].h);
        free(slots[i].resp);
        free(slots[i].body);
    }
    curl_multi_cleanup(m);
    curl_slist_free_all(hl);
    free(lat);
    return 0;
}

/* ---- loadc suite: a test suite's workload ---- */

#define SUITE_ITEMS 20
enum { S_CREATE, S_PUT, S_GET = S_PUT + SUITE_ITEMS, S_QUERY = S_GET + SUITE_ITEMS, S_GSI_QUERY,
       S_UPDATE, S_TRANSACT, S_TX_UPDATE, S_DELETE, S_DONE, S_DESCRIBE = 100 };
/* --no-transactions (dynalite 4 has no TransactWriteItems): the
 * transaction's Put and Update go as a conditional PutItem and an
 * UpdateItem, one request more. */
static bool no_transactions;
enum { T_CREATE, T_DESCRIBE, T_PUT, T_GET, T_QUERY, T_UPDATE, T_TRANSACT, T_DELETE, T__COUNT };
static const char *const suite_targets[T__COUNT] = { "CreateTable", "DescribeTable", "PutItem", "GetItem",
                                                     "Query", "UpdateItem", "TransactWriteItems",
                                                     "DeleteTable" };

typedef struct tstate {
    slot s;
    int test, step;
    const char *need;     /* what the answer to the request in flight must hold */
    char table[64];
} tstate;

/* The request of t's current step into its body; its target's index and
 * what the answer must hold. */
static int suite_request(tstate *t, const char **need)
{
    char *b = t->s.body;
    const char *T = t->table;
    int st = t->step;
    if (st == S_CREATE) {
        snprintf(b, BODY_CAP,
                 "{\"TableName\":\"%s\",\"BillingMode\":\"PAY_PER_REQUEST\",\"AttributeDefinitions\":["
                 "{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"},"
                 "{\"AttributeName\":\"GSI1PK\",\"AttributeType\":\"S\"},{\"AttributeName\":\"GSI1SK\",\"AttributeType\":\"S\"}],"
                 "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}],"
                 "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\",\"KeySchema\":["
                 "{\"AttributeName\":\"GSI1PK\",\"KeyType\":\"HASH\"},{\"AttributeName\":\"GSI1SK\",\"KeyType\":\"RANGE\"}],"
                 "\"Projection\":{\"ProjectionType\":\"ALL\"}}]}", T);
        *need = "\"TableDescription\"";
        return T_CREATE;
    }
    if (st == S_DESCRIBE) {
        snprintf(b, BODY_CAP, "{\"TableName\":\"%s\"}", T);
        *need = "\"Table\"";
        return T_DESCRIBE;
    }
    if (st >= S_PUT && st < S_GET) {
        int i = st - S_PUT;
        snprintf(b, BODY_CAP,
                 "{\"TableName\":\"%s\",\"Item\":{\"PK\":{\"S\":\"USER#%d\"},\"SK\":{\"S\":\"ITEM#%02d\"},"
                 "\"GSI1PK\":{\"S\":\"G#%d\"},\"GSI1SK\":{\"S\":\"ITEM#%02d\"},\"v\":{\"N\":\"%d\"},"
                 "\"name\":{\"S\":\"item %d of test %d\"}}}", T, i % 4, i, i % 5, i, i, i, t->test);
        *need = "{";
        return T_PUT;
    }
    if (st >= S_GET && st < S_QUERY) {
        int i = st - S_GET;
        snprintf(b, BODY_CAP, "{\"TableName\":\"%s\",\"ConsistentRead\":true,\"Key\":{\"PK\":{\"S\":\"USER#%d\"},"
                 "\"SK\":{\"S\":\"ITEM#%02d\"}}}", T, i % 4, i);
        *need = "\"Item\"";
        return T_GET;
    }
    if (st == S_QUERY || st == S_GSI_QUERY) {
        if (st == S_QUERY)
            snprintf(b, BODY_CAP, "{\"TableName\":\"%s\",\"KeyConditionExpression\":\"PK = :p\","
                     "\"ExpressionAttributeValues\":{\":p\":{\"S\":\"USER#0\"}}}", T);
        else
            snprintf(b, BODY_CAP, "{\"TableName\":\"%s\",\"IndexName\":\"GSI1\",\"KeyConditionExpression\":\"GSI1PK = :g\","
                     "\"ExpressionAttributeValues\":{\":g\":{\"S\":\"G#0\"}}}", T);
        *need = st == S_QUERY ? "\"Count\":5" : "\"Count\":4";   /* items 0 4 8 12 16; 0 5 10 15 */
        return T_QUERY;
    }
    if (st == S_UPDATE) {
        snprintf(b, BODY_CAP, "{\"TableName\":\"%s\",\"Key\":{\"PK\":{\"S\":\"USER#1\"},\"SK\":{\"S\":\"ITEM#01\"}},"
                 "\"UpdateExpression\":\"SET v = v + :one\",\"ConditionExpression\":\"attribute_exists(PK) AND v = :old\","
                 "\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"},\":old\":{\"N\":\"1\"}},"
                 "\"ReturnValues\":\"UPDATED_NEW\"}", T);
        *need = "\"N\":\"2\"";
        return T_UPDATE;
    }
    /* The transaction's two members, alone or together. */
#define TX_PUT "\"TableName\":\"%s\",\"Item\":{\"PK\":{\"S\":\"USER#9\"},\"SK\":{\"S\":\"ORDER#1\"}," \
               "\"total\":{\"N\":\"42\"}},\"ConditionExpression\":\"attribute_not_exists(PK)\""
#define TX_UPDATE "\"TableName\":\"%s\",\"Key\":{\"PK\":{\"S\":\"USER#2\"},\"SK\":{\"S\":\"ITEM#02\"}}," \
                  "\"UpdateExpression\":\"SET orders = :one\",\"ExpressionAttributeValues\":{\":one\":{\"N\":\"1\"}}"
    if (st == S_TRANSACT && no_transactions) {
        snprintf(b, BODY_CAP, "{" TX_PUT "}", T);
        *need = "{";
        return T_PUT;
    }
    if (st == S_TX_UPDATE) {
        snprintf(b, BODY_CAP, "{" TX_UPDATE "}", T);
        *need = "{";
        return T_UPDATE;
    }
    if (st == S_TRANSACT) {
        snprintf(b, BODY_CAP, "{\"TransactItems\":[{\"Put\":{" TX_PUT "}},{\"Update\":{" TX_UPDATE "}}]}", T, T);
        *need = "{";
        return T_TRANSACT;
    }
    snprintf(b, BODY_CAP, "{\"TableName\":\"%s\"}", T);
    *need = "\"TableDescription\"";
    return T_DELETE;
}

static struct curl_slist *suite_hl[T__COUNT];

static void suite_send(CURLM *m, tstate *t)
{
    int target = suite_request(t, &t->need);
    curl_easy_setopt(t->s.h, CURLOPT_HTTPHEADER, suite_hl[target]);
    curl_easy_setopt(t->s.h, CURLOPT_POSTFIELDS, t->s.body);
    curl_easy_setopt(t->s.h, CURLOPT_POSTFIELDSIZE, (long)strlen(t->s.body));
    t->s.len = 0;
    t->s.started = bench_now();
    curl_multi_add_handle(m, t->s.h);
}

/* The step after t's answer (in s.resp): DescribeTable until the table
 * and its index are ACTIVE when CreateTable answered otherwise (dynalite
 * answers CREATING), then on through the script. */
static void suite_next(tstate *t)
{
    if (t->step == S_CREATE || t->step == S_DESCRIBE) {
        bool active = strstr(t->s.resp, "\"TableStatus\":\"ACTIVE\"") &&
                      !strstr(t->s.resp, "\"IndexStatus\":\"CREATING\"");
        t->step = active ? S_PUT : S_DESCRIBE;
        return;
    }
    if (t->step == S_TRANSACT && !no_transactions)
        t->step = S_DELETE;
    else
        t->step = t->step == S_DELETE ? S_DONE : t->step + 1;
}

static int run_suite(int argc, char **argv)
{
    if (argc > 6 && strcmp(argv[argc - 1], "--no-transactions") == 0) {
        no_transactions = true;
        argc--;
    }
    if (argc != 6 && argc != 7)
        return fprintf(stderr, "usage: loadc suite PORT TESTS PARALLEL NAME [PID] [--no-transactions]\n"), 2;
    int port = atoi(argv[2]), tests = atoi(argv[3]), par = atoi(argv[4]);
    const char *name = argv[5];
    long srv = argc == 7 ? atol(argv[6]) : 0;
    if (tests < 1 || par < 1 || par > MAX_CONNS)
        die("bad arguments");
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%d/", port);
    for (int i = 0; i < T__COUNT; i++)
        suite_hl[i] = headers_for(suite_targets[i]);
    CURLM *m = curl_multi_init();
    curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, (long)par);
    static tstate ts[MAX_CONNS];
    int next_test = 0, done_tests = 0;
    long requests = 0;
    double srv0 = srv ? proc_cpu(srv) : -1, t0 = bench_now();
    for (int i = 0; i < par && next_test < tests; i++) {
        setup(&ts[i].s, url, suite_hl[0]);
        ts[i].test = next_test++;
        ts[i].step = S_CREATE;
        snprintf(ts[i].table, sizeof ts[i].table, "Suite%d_%ld", ts[i].test, (long)getpid());
        suite_send(m, &ts[i]);
    }
    while (done_tests < tests) {
        int running = 0;
        curl_multi_perform(m, &running);
        CURLMsg *msg;
        int left;
        while ((msg = curl_multi_info_read(m, &left))) {
            if (msg->msg != CURLMSG_DONE)
                continue;
            slot *sp;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, (char **)&sp);
            tstate *t = (tstate *)sp;   /* s is its first member */
            check_answer(sp, msg->data.result, t->need);
            requests++;
            curl_multi_remove_handle(m, sp->h);
            suite_next(t);
            if (t->step == S_DONE) {
                done_tests++;
                if (next_test >= tests)
                    continue;
                t->test = next_test++;
                t->step = S_CREATE;
                snprintf(t->table, sizeof t->table, "Suite%d_%ld", t->test, (long)getpid());
            }
            suite_send(m, t);
        }
        if (done_tests < tests)
            curl_multi_poll(m, NULL, 0, 100, NULL);
    }
    double wall = bench_now() - t0, srv1 = srv ? proc_cpu(srv) : -1;
    char fig[96];
    snprintf(fig, sizeof fig, "%s.suite_ms", name);
    bench_fig(fig, wall * 1e3);
    snprintf(fig, sizeof fig, "%s.requests", name);
    bench_fig(fig, (double)requests);
    if (srv0 >= 0 && srv1 >= 0) {
        snprintf(fig, sizeof fig, "%s.srv_cpu_ms", name);
        bench_fig(fig, (srv1 - srv0) * 1e3);
    }
    for (int i = 0; i < par && i < tests; i++) {
        curl_easy_cleanup(ts[i].s.h);
        free(ts[i].s.resp);
        free(ts[i].s.body);
    }
    curl_multi_cleanup(m);
    for (int i = 0; i < T__COUNT; i++)
        curl_slist_free_all(suite_hl[i]);
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
    /* A JVM on a loaded machine takes tens of seconds; polling hard all
     * that time would take a core from it: every 0.2 ms for the first
     * 50 ms (ddbx's start is a few), then every 1 ms, then 5 ms (an
     * error of a fraction of a percent on seconds). */
    while (bench_now() - t0 < 120) {
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
        double since = bench_now() - t0;
        usleep(since < 0.05 ? 200 : since < 1 ? 1000 : 5000);
    }
    kill(pid, SIGTERM);
    close(in[1]);
    waitpid(pid, NULL, 0);
    curl_easy_cleanup(s.h);
    curl_slist_free_all(hl);
    free(s.resp);
    free(s.body);
    free(av);
    if (ms < 0)
        die("no answer within 120 s");
    return ms;
}

static int run_exec(int argc, char **argv)
{
    if (argc < 6 || strcmp(argv[4], "--") != 0 || atoi(argv[2]) < 1)
        return fprintf(stderr, "usage: loadc exec RUNS NAME -- CMD ARG...\n"), 2;
    int runs = atoi(argv[2]);
    double *ms = calloc((size_t)runs, sizeof *ms);
    for (int r = 0; r < runs; r++) {
        double t0 = bench_now();
        pid_t pid = fork();
        if (pid == 0) {
            int nul = open("/dev/null", O_WRONLY);
            dup2(nul, 1);
            execvp(argv[5], argv + 5);
            _exit(127);
        }
        int st = 0;
        waitpid(pid, &st, 0);
        ms[r] = (bench_now() - t0) * 1e3;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
            die("the command failed");
    }
    char fig[96];
    snprintf(fig, sizeof fig, "%s.exec_ms", argv[3]);
    bench_fig(fig, bench_pct(ms, (size_t)runs, 0.5));
    snprintf(fig, sizeof fig, "%s.exec_min_ms", argv[3]);
    bench_fig(fig, ms[0]);   /* sorted by bench_pct */
    free(ms);
    return 0;
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
    else if (argc > 1 && strcmp(argv[1], "suite") == 0)
        rc = run_suite(argc, argv);
    else if (argc > 1 && strcmp(argv[1], "exec") == 0)
        rc = run_exec(argc, argv);
    else
        fprintf(stderr, "usage: loadc load ... | loadc startup ... | loadc suite ... (see tests/bench/loadc.c)\n");
    curl_global_cleanup();
    return rc;
}
