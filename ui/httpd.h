/*
 * httpd — the HTTP/1.1 server under `ddbx serve` (ui/cli_serve.c): a
 * listening socket, a pool of worker threads each with a poller of its
 * own (ui/poller.h: epoll on Linux, poll() elsewhere), keep-alive
 * connections, pipelined requests; the parsing is Debian's http-parser
 * (chunked bodies, Expect: 100-continue, HTTP/1.0).
 *
 * Why its own server and not a library's: a test suite leaves hundreds of
 * idle keep-alive connections behind, and the server must go on answering
 * with any number of them (issue 32). So connections are only bounded by
 * the process's file limit (raised to the hard limit at start), and when
 * slots run short the connection idle longest is closed first, whichever
 * worker holds it; an idle connection is also closed after idle_timeout.
 * libmicrohttpd has no such policy (at its connection limit it stops
 * accepting: new clients wait in the backlog, unanswered) and links
 * GnuTLS (9 shared libraries, most of `ddbx serve`'s start-up); libevent's
 * evhttp has no hook on a connection's start and end and answers its own
 * limits with HTML. Every refusal here reaches the handler, which writes
 * DynamoDB's error shape.
 *
 * The handler gets the method, path, query, body and every header (the
 * first HTTPD_MAX_HEADERS, for CORS and signature checks), valid during
 * the call; it may add up to HTTPD_MAX_EXTRA headers to its answer.
 *
 * Ownership: the handler's response body is malloc'd by the handler and
 * freed here once written. A connection belongs to its worker; another
 * worker closing it for room only shuts its socket down (under the
 * owner's lock), the owner then frees it. The handler runs on a worker
 * thread, one request at a time per worker, on as many workers at once as
 * there are.
 */
#ifndef DDBX_HTTPD_H
#define DDBX_HTTPD_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

typedef struct httpd httpd;

/* Why a request is refused before it is read whole (the handler still
 * writes the answer; the connection closes after it). */
enum {
    HTTPD_OK = 0,
    HTTPD_LINE_TOO_LONG,     /* the request line past max_line */
    HTTPD_HEADERS_TOO_LARGE, /* the header section past max_headers */
    HTTPD_BODY_TOO_LARGE,    /* the body past max_body */
};

/* A request header as received (the first HTTPD_MAX_HEADERS are kept). */
typedef struct httpd_header {
    const char *name, *value;
} httpd_header;
#define HTTPD_MAX_HEADERS 64

typedef struct httpd_request {
    const char *method;      /* "POST", "GET", ... */
    const char *path;        /* the target up to '?' */
    const char *query;       /* after '?' ("" when none) */
    const char *target;      /* the X-Amz-Target header, NULL when absent */
    const char *body;        /* body[0..body_len), NUL-terminated */
    size_t body_len;
    int refused;             /* HTTPD_OK or why it was refused */
    const httpd_header *headers;   /* every header, in order (valid during the call) */
    size_t n_headers;
} httpd_request;

/* The value of the first header called name (any case), or NULL. */
const char *httpd_header_value(const httpd_request *rq, const char *name);

#define HTTPD_MAX_EXTRA 8
typedef struct httpd_response {
    unsigned status;
    const char *content_type;
    char *body;              /* malloc'd by the handler (NULL: empty); freed here */
    size_t len;
    const char *extra_name[HTTPD_MAX_EXTRA];   /* more headers: name, value (copied) */
    char extra_value[HTTPD_MAX_EXTRA][256];
    int n_extra;
} httpd_response;

/* Called for every request on a worker thread; fills *rs (zeroed before). */
typedef void (*httpd_handler)(void *ctx, const httpd_request *rq, httpd_response *rs);

typedef struct httpd_opts {
    const struct sockaddr *addr;  /* where to listen (port 0: any free one) */
    socklen_t addr_len;
    unsigned threads;             /* worker threads, >= 1 */
    double idle_timeout;          /* seconds without a byte before a connection is closed */
    size_t max_line, max_headers, max_body;
    size_t max_conns;             /* 0: as many as the file limit allows */
    size_t store_fds;             /* descriptors the handler's databases may hold beyond one
                                   * database's (ui/serve_dbs.h: the ones a key opens), kept out
                                   * of the connections' share like the fixed reserve */
    httpd_handler handler;
    void *ctx;
} httpd_opts;

typedef struct httpd_stats {
    size_t open;             /* connections open now */
    size_t limit;            /* the most open at once */
    unsigned long accepted, evicted, timed_out;
} httpd_stats;

/* Raises the soft file limit to the hard one (as far as the system
 * allows); the limit now. httpd_listen does it too: a caller sizing
 * store_fds from the limit calls it first. */
size_t httpd_file_limit(void);
/* Raises the soft file limit to the hard one and listens: from here a
 * client's connect succeeds and its request waits in the socket until
 * httpd_run. On failure returns NULL with a message in err. */
httpd *httpd_listen(const httpd_opts *o, char *err, size_t err_len);
/* Starts serving: one worker at once; it starts the others once a
 * second connection came (so a first client's answer does not wait for
 * threads it does not need). false with a message in err (then
 * httpd_stop it). */
bool httpd_run(httpd *h, char *err, size_t err_len);
/* The port listened on (the one picked for port 0). */
unsigned httpd_port(const httpd *h);
void httpd_get_stats(httpd *h, httpd_stats *out);
/* Stops accepting (a server listening and not run: closes the socket),
 * lets each worker finish the request it is in, closes
 * every connection, joins the workers and frees h. */
void httpd_stop(httpd *h);

#endif
