#include "ui/httpd.h"

#include <errno.h>
#include <fcntl.h>
#include <http_parser.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "model/buf.h"
#include "model/mem.h"
#include "ui/poller.h"

/* Linux's own calls where they are, the POSIX ones elsewhere and in the
 * forced portable build (make POLLER=poll defines POLLER_PORTABLE):
 * accept4 and SOCK_NONBLOCK | SOCK_CLOEXEC against accept or socket and
 * fcntl. macOS has no MSG_NOSIGNAL: there SO_NOSIGPIPE is set on each
 * connection (and `ddbx serve` ignores SIGPIPE anyway). */
#if defined(__linux__) && !defined(POLLER_PORTABLE)
#define HAVE_ACCEPT4 1
#endif
#ifndef MSG_NOSIGNAL
#define MSG_NOSIGNAL 0
#endif

/* Descriptors kept out of the connections' share of the file limit: the
 * standard streams, the listening socket and the wake-up pipe, each
 * worker's poller (an epoll descriptor), and the store's files (a
 * database, its WAL and shared memory for each worker's connection and
 * the TTL sweep's). The caller's other databases are its own count
 * (httpd_opts.store_fds). */
#define RESERVED_FDS(threads) (32u + 4u * (threads))
#define READ_CHUNK 65536
/* A connection's buffers are kept between requests up to this size. */
#define KEEP_BUF 16384

typedef struct worker worker;
static void *worker_main(void *arg);

typedef struct conn {
    int fd;                   /* -1 once closed (freed at the end of the event batch) */
    worker *w;
    struct conn *prev, *next; /* the worker's list, least recently active first (under w->lock) */
    double last;              /* when a byte last moved (under w->lock) */
    bool in_handler;          /* its request is being answered (under w->lock) */
    bool evicted;             /* shut down by another worker for room (under w->lock) */
    http_parser p;
    buf url, field, target, expect, body;
    buf hdrs;                 /* every header: name NUL value NUL ... (httpd_request.headers) */
    size_t hoff[HTTPD_MAX_HEADERS][2];   /* where each kept header's name and value start in hdrs */
    size_t nh;                /* headers kept */
    bool hkeep;               /* the header being read is kept */
    buf in;                   /* received, not yet parsed (a pipelined request behind a pending answer) */
    buf out;                  /* answered, not yet written */
    size_t out_off;
    size_t header_bytes;
    int refused;              /* HTTPD_* */
    int cur;                  /* which header the value being read belongs to */
    bool in_field, got_target;
    bool want_out;            /* POLLER_OUT asked for (output pending) */
    bool closing;             /* close once the output is written */
    bool lingering;           /* output done, write side shut: discard input until EOF */
    bool eof;                 /* the client closed its side with an answer still to write */
    struct conn *dead_next;
} conn;

struct worker {
    httpd *h;
    pthread_t th;
    poller *pl;
    pthread_mutex_t lock;
    conn *head, *tail;
    conn *dead;               /* closed during this event batch */
    char *rbuf;
    time_t date_t;
    char date[48];
};

struct httpd {
    httpd_opts o;
    int lfd;
    int wake[2];              /* a pipe written once at stop: every worker's set holds wake[0] */
    unsigned port;
    worker *w;
    unsigned nw;
    unsigned started;         /* atomic: worker 0 starts the others (workers_more) */
    bool more_failed;         /* atomic: worker 0 could not start them all */
    size_t limit;
    size_t open;              /* atomic */
    size_t pending_evictions; /* atomic: shut down, not yet closed by their owner */
    unsigned long accepted, evicted, timed_out;   /* atomic */
    int stop;                 /* atomic */
};

enum { H_OTHER, H_TARGET, H_EXPECT };

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* ---- the worker's list of connections ---- */

static void list_unlink(worker *w, conn *c)
{
    if (c->prev)
        c->prev->next = c->next;
    else
        w->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    else
        w->tail = c->prev;
    c->prev = c->next = NULL;
}

static void list_append(worker *w, conn *c)
{
    c->prev = w->tail;
    c->next = NULL;
    if (w->tail)
        w->tail->next = c;
    else
        w->head = c;
    w->tail = c;
}

/* A byte moved: c becomes the most recently active. */
static void touch(conn *c)
{
    worker *w = c->w;
    double now = mono();
    pthread_mutex_lock(&w->lock);
    c->last = now;
    if (w->tail != c) {
        list_unlink(w, c);
        list_append(w, c);
    }
    pthread_mutex_unlock(&w->lock);
}

static void conn_close(conn *c)
{
    worker *w = c->w;
    if (c->fd < 0)
        return;
    pthread_mutex_lock(&w->lock);
    list_unlink(w, c);
    bool evicted = c->evicted;
    pthread_mutex_unlock(&w->lock);
    poller_del(w->pl, c->fd);
    close(c->fd);
    c->fd = -1;
    if (evicted)
        __atomic_sub_fetch(&w->h->pending_evictions, 1, __ATOMIC_RELAXED);
    __atomic_sub_fetch(&w->h->open, 1, __ATOMIC_RELAXED);
    c->dead_next = w->dead;
    w->dead = c;
}

static void conn_free(conn *c)
{
    buf_done(&c->url);
    buf_done(&c->field);
    buf_done(&c->target);
    buf_done(&c->expect);
    buf_done(&c->body);
    buf_done(&c->hdrs);
    buf_done(&c->in);
    buf_done(&c->out);
    free(c);
}

static void bury_dead(worker *w)
{
    while (w->dead) {
        conn *c = w->dead;
        w->dead = c->dead_next;
        conn_free(c);
    }
}

/* The first connection of w's list that may be closed for room: not
 * answering a request, not already shut down. Under w->lock. */
static conn *oldest_idle(worker *w)
{
    for (conn *c = w->head; c; c = c->next)
        if (!c->in_handler && !c->evicted)
            return c;
    return NULL;
}

/* Slots ran short: closes the connection idle longest, whichever worker
 * holds it. One of self's is closed at once; another worker's socket is
 * shut down under that worker's lock (it stays open until the owner sees
 * the end and closes it, so its descriptor cannot have been reused). */
static void make_room(worker *self)
{
    httpd *h = self->h;
    worker *best = NULL;
    double best_t = 0;
    for (unsigned i = 0; i < h->nw; i++) {
        worker *w = &h->w[i];
        pthread_mutex_lock(&w->lock);
        conn *c = oldest_idle(w);
        if (c && (!best || c->last < best_t)) {
            best = w;
            best_t = c->last;
        }
        pthread_mutex_unlock(&w->lock);
    }
    if (!best)
        return;
    pthread_mutex_lock(&best->lock);
    conn *c = oldest_idle(best);
    if (c && best != self) {
        c->evicted = true;
        shutdown(c->fd, SHUT_RDWR);
        __atomic_add_fetch(&h->pending_evictions, 1, __ATOMIC_RELAXED);
    }
    pthread_mutex_unlock(&best->lock);
    if (c) {
        __atomic_add_fetch(&h->evicted, 1, __ATOMIC_RELAXED);
        if (best == self)
            conn_close(c);
    }
}

/* ---- writing ---- */

static void want_out(conn *c, bool on)
{
    if (c->want_out == on)
        return;
    c->want_out = on;
    /* While an answer waits for room, input is not read (nor the
     * client's half close, level-triggered, watched: it would wake the
     * worker again and again); a hang-up or an error comes regardless. */
    poller_mod(c->w->pl, c->fd, on ? POLLER_OUT : POLLER_IN, c);
}

/* Writes what is pending; 0, or -1 when the connection was closed. */
static int flush(conn *c)
{
    while (c->out_off < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + c->out_off, c->out.len - c->out_off, MSG_NOSIGNAL);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                want_out(c, true);
                return 0;
            }
            conn_close(c);
            return -1;
        }
        c->out_off += (size_t)n;
    }
    c->out_off = 0;
    if (c->out.cap > KEEP_BUF)
        buf_done(&c->out);
    else
        buf_reset(&c->out);
    if (c->eof) {
        conn_close(c);
        return -1;
    }
    want_out(c, false);
    if (c->closing && !c->lingering) {
        /* The answer is out: end the write side and read what the client
         * still sends until it closes (closing at once with unread input
         * would reset the connection and could lose the answer). */
        shutdown(c->fd, SHUT_WR);
        c->lingering = true;
    }
    return 0;
}

/* Sends head then body, keeping whatever the socket does not take. */
static int send_two(conn *c, const char *head, size_t hlen, const char *body, size_t blen)
{
    size_t done = 0;
    if (c->out.len == 0) {
        struct iovec iov[2] = { { (void *)head, hlen }, { (void *)body, blen } };
        struct msghdr m = { .msg_iov = iov, .msg_iovlen = blen ? 2 : 1 };
        for (;;) {
            ssize_t n = sendmsg(c->fd, &m, MSG_NOSIGNAL);
            if (n >= 0) {
                done = (size_t)n;
                break;
            }
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                break;
            conn_close(c);
            return -1;
        }
    }
    if (done < hlen) {
        buf_add(&c->out, head + done, hlen - done);
        done = hlen;
    }
    if (done - hlen < blen)
        buf_add(&c->out, body + (done - hlen), blen - (done - hlen));
    return flush(c);
}

static const char *reason(unsigned code)
{
    switch (code) {
    case 100: return "Continue";
    case 200: return "OK";
    case 204: return "No Content";
    case 403: return "Forbidden";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 413: return "Payload Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Status";
    }
}

/* The Date header, HTTP's IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT",
 * RFC 9110 5.6.7), computed here: gmtime_r and strftime would first read
 * the time zone (/etc/localtime, seven system calls at the first answer,
 * for a date in GMT). The civil date from the days since 1970 is Howard
 * Hinnant's civil_from_days. */
static const char *date_now(worker *w)
{
    static const char wdays[7][4] = { "Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed" };
    static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
    time_t t = time(NULL);
    if (t != w->date_t) {
        long long days = (long long)t / 86400, secs = (long long)t % 86400;
        if (secs < 0) {
            secs += 86400;
            days--;
        }
        long long z = days + 719468, era = (z >= 0 ? z : z - 146096) / 146097;
        long long doe = z - era * 146097;
        long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
        long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
        long long day = doy - (153 * mp + 2) / 5 + 1, month = mp < 10 ? mp + 3 : mp - 9;
        long long year = yoe + era * 400 + (month <= 2);
        snprintf(w->date, sizeof w->date, "%s, %02lld %s %04lld %02lld:%02lld:%02lld GMT",
                 wdays[((days % 7) + 7) % 7], day, months[month - 1], year, secs / 3600, secs / 60 % 60, secs % 60);
        w->date_t = t;
    }
    return w->date;
}

static int respond(conn *c, const httpd_response *rs, bool keep, bool head_only)
{
    char head[1024 + HTTPD_MAX_EXTRA * 300];
    int n = snprintf(head, sizeof head, "HTTP/1.1 %u %s\r\nDate: %s\r\nContent-Type: %s\r\nContent-Length: %zu\r\n",
                     rs->status, reason(rs->status), date_now(c->w),
                     rs->content_type ? rs->content_type : "text/plain", rs->len);
    for (int i = 0; i < rs->n_extra && n < (int)sizeof head; i++)
        n += snprintf(head + n, sizeof head - (size_t)n, "%s: %s\r\n", rs->extra_name[i], rs->extra_value[i]);
    if (n < (int)sizeof head) {
        const char *conn_hdr = !keep ? "Connection: close\r\n"
                               : c->p.http_minor == 0 ? "Connection: keep-alive\r\n" : "";
        n += snprintf(head + n, sizeof head - (size_t)n, "%s\r\n", conn_hdr);
    }
    if (n >= (int)sizeof head)
        n = (int)sizeof head - 1;
    if (!keep)
        c->closing = true;
    return send_two(c, head, (size_t)n, rs->body ? rs->body : "", head_only ? 0 : rs->len);
}

/* ---- reading and parsing ---- */

static int refuse_cb(conn *c, int why)
{
    c->refused = why;
    return -1;
}

static int on_message_begin(http_parser *p)
{
    conn *c = p->data;
    buf_reset(&c->url);
    buf_reset(&c->field);
    buf_reset(&c->target);
    buf_reset(&c->expect);
    buf_reset(&c->body);
    buf_reset(&c->hdrs);
    c->nh = 0;
    c->hkeep = false;
    c->header_bytes = 0;
    c->refused = HTTPD_OK;
    c->cur = H_OTHER;
    c->in_field = false;
    c->got_target = false;
    return 0;
}

/* Appends at[0..n) to b, or refuses the request for `why` past max. */
static int add_capped(conn *c, buf *b, const char *at, size_t n, size_t max, int why)
{
    if (b->len + n > max)
        return refuse_cb(c, why);
    buf_add(b, at, n);
    return 0;
}

static int on_url(http_parser *p, const char *at, size_t n)
{
    conn *c = p->data;
    return add_capped(c, &c->url, at, n, c->w->h->o.max_line, HTTPD_LINE_TOO_LONG);
}

static int count_header(conn *c, size_t n)
{
    c->header_bytes += n;
    return c->header_bytes > c->w->h->o.max_headers ? refuse_cb(c, HTTPD_HEADERS_TOO_LARGE) : 0;
}

static int on_header_field(http_parser *p, const char *at, size_t n)
{
    conn *c = p->data;
    if (count_header(c, n))
        return -1;
    if (!c->in_field) {
        buf_reset(&c->field);
        c->in_field = true;
        if (c->hkeep)
            buf_add(&c->hdrs, "", 1);   /* ends the last value kept */
        c->hkeep = c->nh < HTTPD_MAX_HEADERS;
        if (c->hkeep)
            c->hoff[c->nh][0] = c->hdrs.len;
    }
    if (c->hkeep)
        buf_add(&c->hdrs, at, n);
    /* Only the names of the two headers read here matter: longer ones
     * are kept short. */
    if (c->field.len < 32)
        buf_add(&c->field, at, n < 32 ? n : 32);
    return 0;
}

static int on_header_value(http_parser *p, const char *at, size_t n)
{
    conn *c = p->data;
    if (count_header(c, n))
        return -1;
    if (c->in_field) {
        c->in_field = false;
        if (count_header(c, 4))   /* ": " and CRLF, as the limit counts them */
            return -1;
        if (c->hkeep) {
            buf_add(&c->hdrs, "", 1);
            c->hoff[c->nh++][1] = c->hdrs.len;
        }
        c->cur = H_OTHER;
        if (strcasecmp(c->field.data ? c->field.data : "", "x-amz-target") == 0 && !c->got_target) {
            c->cur = H_TARGET;
            c->got_target = true;
        } else if (strcasecmp(c->field.data ? c->field.data : "", "expect") == 0) {
            c->cur = H_EXPECT;
            buf_reset(&c->expect);
        }
    }
    if (c->hkeep)
        buf_add(&c->hdrs, at, n);
    if (c->cur == H_TARGET)
        buf_add(&c->target, at, n);
    else if (c->cur == H_EXPECT && c->expect.len < 64)
        buf_add(&c->expect, at, n);
    return 0;
}

static int on_headers_complete(http_parser *p)
{
    conn *c = p->data;
    const httpd_opts *o = &c->w->h->o;
    bool has_body = (p->flags & F_CHUNKED) || (p->content_length > 0 && p->content_length != ULLONG_MAX);
    if (p->content_length != ULLONG_MAX && p->content_length > o->max_body)
        return refuse_cb(c, HTTPD_BODY_TOO_LARGE);
    if (has_body && c->expect.len && strcasecmp(c->expect.data, "100-continue") == 0) {
        static const char cont[] = "HTTP/1.1 100 Continue\r\n\r\n";
        buf_add(&c->out, cont, sizeof cont - 1);
    }
    return 0;
}

static int on_body(http_parser *p, const char *at, size_t n)
{
    conn *c = p->data;
    return add_capped(c, &c->body, at, n, c->w->h->o.max_body, HTTPD_BODY_TOO_LARGE);
}

static int on_message_complete(http_parser *p)
{
    http_parser_pause(p, 1);   /* answered before the next pipelined request is parsed */
    return 0;
}

static const http_parser_settings settings = {
    .on_message_begin = on_message_begin,
    .on_url = on_url,
    .on_header_field = on_header_field,
    .on_header_value = on_header_value,
    .on_headers_complete = on_headers_complete,
    .on_body = on_body,
    .on_message_complete = on_message_complete,
};

/* The handler's answer to the request just parsed (or refused). */
static int answer(conn *c)
{
    worker *w = c->w;
    httpd *h = w->h;
    const char *query = "";
    if (c->url.data) {
        char *q = memchr(c->url.data, '?', c->url.len);
        if (q) {
            *q = '\0';
            query = q + 1;
        }
    }
    httpd_header hs[HTTPD_MAX_HEADERS];
    for (size_t i = 0; i < c->nh; i++) {
        hs[i].name = c->hdrs.data + c->hoff[i][0];
        hs[i].value = c->hdrs.data + c->hoff[i][1];
    }
    httpd_request rq = {
        .method = http_method_str((enum http_method)c->p.method),
        .path = c->url.data ? c->url.data : "",
        .query = query,
        .headers = hs,
        .n_headers = c->nh,
        .target = c->got_target ? (c->target.data ? c->target.data : "") : NULL,
        .body = c->body.data ? c->body.data : "",
        .body_len = c->body.len,
        .refused = c->refused,
    };
    httpd_response rs = { 0 };
    pthread_mutex_lock(&w->lock);
    c->in_handler = true;
    pthread_mutex_unlock(&w->lock);
    h->o.handler(h->o.ctx, &rq, &rs);
    pthread_mutex_lock(&w->lock);
    c->in_handler = false;
    pthread_mutex_unlock(&w->lock);
    /* Idle from now, not from the request's last byte: a long request
     * (a Scan page) must not find its answer's connection timed out. */
    touch(c);
    bool keep = !c->refused && http_should_keep_alive(&c->p) && !c->p.upgrade &&
                !__atomic_load_n(&h->stop, __ATOMIC_RELAXED);
    int rc = respond(c, &rs, keep, c->p.method == HTTP_HEAD);
    free(rs.body);
    if (c->body.cap > KEEP_BUF)
        buf_done(&c->body);
    return rc;
}

const char *httpd_header_value(const httpd_request *rq, const char *name)
{
    for (size_t i = 0; i < rq->n_headers; i++)
        if (strcasecmp(rq->headers[i].name, name) == 0)
            return rq->headers[i].value;
    return NULL;
}

static void bad_request(conn *c)
{
    httpd_response rs = { .status = 400, .content_type = "text/plain" };
    static const char msg[] = "malformed HTTP request\n";
    rs.body = xstrdup(msg);
    rs.len = sizeof msg - 1;
    respond(c, &rs, false, false);
    free(rs.body);
}

/* Parses c->in then data[0..n) (data may be NULL), answering each whole
 * request; stops at a pending answer, keeping the rest in c->in. 0, or
 * -1 when the connection was closed. */
static int feed(conn *c, const char *data, size_t n)
{
    const char *p = data;
    size_t len = n;
    if (c->in.len) {
        if (n)
            buf_add(&c->in, data, n);
        p = c->in.data;
        len = c->in.len;
    }
    size_t off = 0;
    while (off < len && !c->lingering && !c->closing) {
        size_t k = http_parser_execute(&c->p, &settings, p + off, len - off);
        off += k;
        enum http_errno e = HTTP_PARSER_ERRNO(&c->p);
        if (e == HPE_PAUSED) {
            http_parser_pause(&c->p, 0);
            if (answer(c) < 0)
                return -1;
            if (c->out.len)
                break;   /* the client reads slowly: parse on once it is written */
            continue;
        }
        if (e == HPE_OK && k == 0) {
            /* No progress without an error: only after an upgrade,
             * which is not served (the answer said Connection: close). */
            off = len;
            break;
        }
        if (e != HPE_OK) {
            if (e == HPE_HEADER_OVERFLOW)
                c->refused = HTTPD_HEADERS_TOO_LARGE;
            if (c->refused) {
                if (answer(c) < 0)
                    return -1;
            } else {
                bad_request(c);
                if (c->fd < 0)
                    return -1;
            }
            off = len;
            break;
        }
    }
    if (c->lingering || c->closing)
        off = len;
    if (off < len) {
        if (p == c->in.data) {
            memmove(c->in.data, c->in.data + off, len - off);
            c->in.len = len - off;
            c->in.data[c->in.len] = '\0';
        } else {
            buf_add(&c->in, p + off, len - off);
        }
    } else if (c->in.cap > KEEP_BUF) {
        buf_done(&c->in);
    } else {
        buf_reset(&c->in);
    }
    /* A 100 Continue queued by the headers goes out now. */
    if (c->out.len && !c->want_out)
        return flush(c);
    return 0;
}

static void on_readable(conn *c)
{
    worker *w = c->w;
    while (c->fd >= 0 && !c->want_out) {
        ssize_t n = read(c->fd, w->rbuf, READ_CHUNK);
        if (n == 0) {
            /* The client is done sending: what it asked is answered
             * first (a request then a half close, as HTTP/1.0 clients
             * do, still gets its answer). */
            if (c->out.len && !c->lingering)
                c->eof = true;
            else
                conn_close(c);
            return;
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                conn_close(c);
            return;
        }
        touch(c);
        if (c->lingering)
            continue;
        if (feed(c, w->rbuf, (size_t)n) < 0)
            return;
        if (n < READ_CHUNK)
            return;
    }
}

static void on_writable(conn *c)
{
    touch(c);
    if (flush(c) < 0 || c->want_out)
        return;
    /* A pipelined request waited behind the answer. */
    if (c->in.len && feed(c, NULL, 0) < 0)
        return;
}

/* ---- accepting ---- */

static void conn_new(worker *w, int fd)
{
    conn *c = xcalloc(1, sizeof *c);
    c->fd = fd;
    c->w = w;
    http_parser_init(&c->p, HTTP_REQUEST);
    c->p.data = c;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
#ifdef SO_NOSIGPIPE
    setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, sizeof one);
#endif
    pthread_mutex_lock(&w->lock);
    c->last = mono();
    list_append(w, c);
    pthread_mutex_unlock(&w->lock);
    if (poller_add(w->pl, fd, POLLER_IN, c) != 0)
        conn_close(c);
}

/* Non-blocking and closed on exec, as a descriptor of the listening
 * socket's (whose flags accept does not pass on everywhere). */
static int nonblock_cloexec(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0 || fcntl(fd, F_SETFD, FD_CLOEXEC) < 0)
        return -1;
    return 0;
}

static int accept_nb(int lfd)
{
#ifdef HAVE_ACCEPT4
    return accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
#else
    int fd = accept(lfd, NULL, NULL);
    if (fd >= 0 && nonblock_cloexec(fd) != 0) {
        close(fd);
        errno = ECONNABORTED;   /* taken as a connection gone: accept the next */
        return -1;
    }
    return fd;
#endif
}

static void accept_some(worker *w)
{
    httpd *h = w->h;
    /* A bounded batch, so that a flood of connections does not keep this
     * worker from its own (and from closing the ones shut for room). */
    int batch = __atomic_load_n(&h->started, __ATOMIC_ACQUIRE) < h->nw &&
                !__atomic_load_n(&h->more_failed, __ATOMIC_RELAXED) ? 1 : 64;
    for (int k = 0; k < batch; k++) {
        int fd = accept_nb(h->lfd);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno == EMFILE || errno == ENFILE) {
                /* Out of descriptors (something else holds more than the
                 * reserve): room is made, and the backlog waits for it. */
                if (__atomic_load_n(&h->pending_evictions, __ATOMIC_RELAXED) == 0)
                    make_room(w);
                else
                    nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
            }
            return;
        }
        __atomic_add_fetch(&h->accepted, 1, __ATOMIC_RELAXED);
        if (__atomic_add_fetch(&h->open, 1, __ATOMIC_RELAXED) > h->limit)
            make_room(w);
        conn_new(w, fd);
    }
}

/* Closes the connections idle past the timeout; returns the milliseconds
 * until the next one would be (at most a second). */
static int expire(worker *w)
{
    httpd *h = w->h;
    double now = mono(), t = h->o.idle_timeout;
    for (;;) {
        pthread_mutex_lock(&w->lock);
        conn *c = w->head;
        double last = c ? c->last : now;
        pthread_mutex_unlock(&w->lock);
        if (!c || now - last < t) {
            double wait = c ? t - (now - last) : 1.0;
            if (wait > 1.0)
                wait = 1.0;
            return (int)(wait * 1000) + 1;
        }
        conn_close(c);
        __atomic_add_fetch(&h->timed_out, 1, __ATOMIC_RELAXED);
    }
}

/* Starts worker i: its read buffer, its poller (the listening socket and
 * the wake-up pipe in its set) and its thread; false with a message. */
static bool worker_launch(httpd *h, unsigned i, char *err, size_t err_len)
{
    worker *w = &h->w[i];
    w->rbuf = xmalloc(READ_CHUNK);
    w->pl = poller_new();
    /* POLLER_SHARED: a new connection wakes one worker, not all. */
    if (!w->pl || poller_add(w->pl, h->lfd, POLLER_IN | POLLER_SHARED, &h->lfd) != 0 ||
        poller_add(w->pl, h->wake[0], POLLER_IN, h->wake) != 0) {
        snprintf(err, err_len, "%s: %s", poller_kind, strerror(errno));
        return false;
    }
    /* Counted before it runs: worker 0, once running, reads the count to
     * know which to start next. */
    __atomic_store_n(&h->started, i + 1, __ATOMIC_RELEASE);
    if (pthread_create(&w->th, NULL, worker_main, w) != 0) {
        __atomic_store_n(&h->started, i, __ATOMIC_RELEASE);
        snprintf(err, err_len, "cannot start worker threads");
        return false;
    }
    return true;
}

/* Worker 0, after the event batch in which its second connection came:
 * the other workers (not at start: their stacks, pollers and malloc
 * arenas are no part of the time to a first client's answer). Until then worker 0 accepts one
 * connection at a time, so that a burst at start is not all its own.
 * The workers stop joins worker 0 first, so none is started after it. */
static void workers_more(httpd *h)
{
    char why[128];
    for (unsigned i = __atomic_load_n(&h->started, __ATOMIC_ACQUIRE);
         i < h->nw && !__atomic_load_n(&h->stop, __ATOMIC_RELAXED); i++) {
        if (!worker_launch(h, i, why, sizeof why)) {
            fprintf(stderr, "ddbx serve: %s: serving with %u worker thread%s of %u\n", why, i,
                    i == 1 ? "" : "s", h->nw);
            __atomic_store_n(&h->more_failed, true, __ATOMIC_RELAXED);
            return;
        }
    }
}

static void *worker_main(void *arg)
{
    worker *w = arg;
    httpd *h = w->h;
    poller_event ev[64];
    int timeout = 1000;
    while (!__atomic_load_n(&h->stop, __ATOMIC_RELAXED)) {
        int n = poller_wait(w->pl, ev, 64, timeout);
        for (int i = 0; i < n; i++) {
            void *ptr = ev[i].ptr;
            if (ptr == &h->lfd) {
                accept_some(w);
                continue;
            }
            if (ptr == h->wake)
                continue;
            conn *c = ptr;
            if (c->fd < 0)
                continue;
            if (ev[i].events & POLLER_HUP) {
                conn_close(c);
                continue;
            }
            if (ev[i].events & POLLER_OUT)
                on_writable(c);
            if (c->fd >= 0 && (ev[i].events & POLLER_IN))
                on_readable(c);
        }
        bury_dead(w);
        if (w == h->w && !h->more_failed && __atomic_load_n(&h->started, __ATOMIC_ACQUIRE) < h->nw &&
            __atomic_load_n(&h->accepted, __ATOMIC_RELAXED) > 1)
            workers_more(h);
        timeout = expire(w);
        bury_dead(w);
    }
    while (w->head)
        conn_close(w->head);
    bury_dead(w);
    return NULL;
}

/* ---- start and stop ---- */

size_t httpd_file_limit(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 1024;
    rlim_t want = rl.rlim_max == RLIM_INFINITY ? (rlim_t)1 << 20 : rl.rlim_max;
    if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur >= want)
        return rl.rlim_cur == RLIM_INFINITY ? (size_t)want : (size_t)rl.rlim_cur;
    rl.rlim_cur = want;
    while (setrlimit(RLIMIT_NOFILE, &rl) != 0 && rl.rlim_cur > 1024)
        rl.rlim_cur /= 2;   /* above fs.nr_open: the largest that is allowed */
    getrlimit(RLIMIT_NOFILE, &rl);
    return (size_t)rl.rlim_cur;
}

static void workers_stop(httpd *h)
{
    __atomic_store_n(&h->stop, 1, __ATOMIC_RELAXED);
    if (h->wake[1] >= 0 && write(h->wake[1], "", 1) < 0) {
        /* the workers also wake within a second by their timeout */
    }
    /* Worker 0 first: it starts the others (workers_more) until it stops. */
    unsigned started = __atomic_load_n(&h->started, __ATOMIC_ACQUIRE);
    if (started > 0)
        pthread_join(h->w[0].th, NULL);
    started = __atomic_load_n(&h->started, __ATOMIC_ACQUIRE);
    for (unsigned i = 1; i < started; i++)
        pthread_join(h->w[i].th, NULL);
}

static void free_all(httpd *h)
{
    for (unsigned i = 0; i < h->nw; i++) {
        worker *w = &h->w[i];
        poller_free(w->pl);
        free(w->rbuf);
        pthread_mutex_destroy(&w->lock);
    }
    free(h->w);
    if (h->lfd >= 0)
        close(h->lfd);
    for (int i = 0; i < 2; i++)
        if (h->wake[i] >= 0)
            close(h->wake[i]);
    free(h);
}

httpd *httpd_listen(const httpd_opts *o, char *err, size_t err_len)
{
    httpd *h = xcalloc(1, sizeof *h);
    h->o = *o;
    h->lfd = h->wake[0] = h->wake[1] = -1;
    h->nw = o->threads ? o->threads : 1;
    h->w = xcalloc(h->nw, sizeof *h->w);
    for (unsigned i = 0; i < h->nw; i++) {
        h->w[i].h = h;
        pthread_mutex_init(&h->w[i].lock, NULL);
    }
    /* The parser's own bound on a header section (80 KB unless set, a
     * process-wide setting) above ours, so that ours answer first. */
    http_parser_set_max_header_size((uint32_t)(o->max_line + o->max_headers + 65536));
    size_t files = httpd_file_limit(), reserve = RESERVED_FDS(h->nw) + o->store_fds;
    h->limit = files > reserve + 16 ? files - reserve : 16;
    if (o->max_conns && o->max_conns < h->limit)
        h->limit = o->max_conns;

#ifdef HAVE_ACCEPT4
    h->lfd = socket(o->addr->sa_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
#else
    h->lfd = socket(o->addr->sa_family, SOCK_STREAM, 0);
    if (h->lfd >= 0 && nonblock_cloexec(h->lfd) != 0) {
        close(h->lfd);
        h->lfd = -1;
    }
#endif
    if (h->lfd < 0) {
        snprintf(err, err_len, "socket: %s", strerror(errno));
        goto fail;
    }
    int one = 1;
    setsockopt(h->lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (o->addr->sa_family == AF_INET6)
        setsockopt(h->lfd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one);
    if (bind(h->lfd, o->addr, o->addr_len) != 0 || listen(h->lfd, 4096) != 0) {
        snprintf(err, err_len, "%s", strerror(errno));
        goto fail;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(h->lfd, (struct sockaddr *)&ss, &sl) == 0)
        h->port = ss.ss_family == AF_INET6 ? ntohs(((struct sockaddr_in6 *)&ss)->sin6_port)
                                           : ntohs(((struct sockaddr_in *)&ss)->sin_port);
    /* A pipe rather than Linux's eventfd: the same on every system. */
    if (pipe(h->wake) != 0 || nonblock_cloexec(h->wake[0]) != 0 || nonblock_cloexec(h->wake[1]) != 0) {
        snprintf(err, err_len, "pipe: %s", strerror(errno));
        goto fail;
    }
    return h;
fail:
    free_all(h);
    return NULL;
}

bool httpd_run(httpd *h, char *err, size_t err_len)
{
    return worker_launch(h, 0, err, err_len);
}

unsigned httpd_port(const httpd *h)
{
    return h->port;
}

void httpd_get_stats(httpd *h, httpd_stats *out)
{
    out->open = __atomic_load_n(&h->open, __ATOMIC_RELAXED);
    out->limit = h->limit;
    out->accepted = __atomic_load_n(&h->accepted, __ATOMIC_RELAXED);
    out->evicted = __atomic_load_n(&h->evicted, __ATOMIC_RELAXED);
    out->timed_out = __atomic_load_n(&h->timed_out, __ATOMIC_RELAXED);
}

void httpd_stop(httpd *h)
{
    if (!h)
        return;
    /* The workers finish the request each is in, then close everything. */
    workers_stop(h);
    free_all(h);
}
