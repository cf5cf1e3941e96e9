/*
 * record — the request recorder of `ddbx serve --record` (see record.h).
 */
#include "data/record.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "data/mask_file.h"
#include "data/sigv4.h"
#include "model/ddbjson.h"
#include "model/mem.h"

/* The writing thread is woken when this much is queued (else each
 * second); past QUEUE_MAX a request drains the queue itself. */
#define FLUSH_AT (64u * 1024)
#define QUEUE_MAX (16u * 1024 * 1024)

struct recorder {
    char *path, *key_path;
    unsigned char *key;
    size_t key_len;
    sigv4_mac *mac;             /* under key; used by one drain at a time */
    bool created;
    uint64_t max_bytes, size;
    unsigned keep;
    int fd;
    pthread_mutex_t lock;       /* queue, stop */
    pthread_mutex_t writer;     /* fd, size: one drain at a time */
    buf queue;                  /* raw_hdr, op, NUL, body; ... */
    bool has_thread, stop;
    pthread_t thread;
    pthread_cond_t wake;
};

/* ---- values: type and keyed hash ---- */

/* "S:" and 16 hex digits of the MAC of the type and text. */
static void put_hash(const recorder *r, buf *out, const char *type, const char *text, size_t n)
{
    unsigned char mac[32];
    char msg_small[256];
    size_t tl = strlen(type), ml = tl + 1 + n;
    char *msg = ml <= sizeof msg_small ? msg_small : xmalloc(ml);
    memcpy(msg, type, tl);
    msg[tl] = ':';
    memcpy(msg + tl + 1, text, n);
    sigv4_mac_run(r->mac, msg, ml, mac);
    if (msg != msg_small)
        free(msg);
    static const char hex[] = "0123456789abcdef";
    buf_addc(out, '"');
    buf_adds(out, type);
    buf_addc(out, ':');
    for (int i = 0; i < 8; i++) {
        buf_addc(out, hex[mac[i] >> 4]);
        buf_addc(out, hex[mac[i] & 15]);
    }
    buf_addc(out, '"');
}

/* An attribute value {"S":"x"} as "S:hash" (anything else: "?"). */
static void put_value(const recorder *r, buf *out, const cJSON *v)
{
    const cJSON *t = cJSON_IsObject(v) ? v->child : NULL;
    if (!t || !t->string || t->next) {
        buf_adds(out, "\"?\"");
        return;
    }
    if (cJSON_IsString(t)) {
        put_hash(r, out, t->string, t->valuestring, strlen(t->valuestring));
        return;
    }
    char *text = cJSON_PrintUnformatted(t);
    put_hash(r, out, t->string, text ? text : "", text ? strlen(text) : 0);
    cJSON_free(text);
}

/* A map of name -> attribute value, each hashed (types_only: its type). */
static void put_value_map(const recorder *r, buf *out, const char *member, const cJSON *m, bool types_only)
{
    if (!cJSON_IsObject(m))
        return;
    buf_printf(out, ",\"%s\":{", member);
    for (const cJSON *e = m->child; e; e = e->next) {
        if (e != m->child)
            buf_addc(out, ',');
        ddbjson_write_string(out, e->string, strlen(e->string));
        buf_addc(out, ':');
        if (!types_only) {
            put_value(r, out, e);
        } else {
            const char *ty = cJSON_IsObject(e) && e->child && e->child->string ? e->child->string : "?";
            ddbjson_write_string(out, ty, strlen(ty));
        }
    }
    buf_addc(out, '}');
}

/* A PartiQL statement with its literals ('text', numbers) as `?`. */
static void put_statement(buf *out, const char *s)
{
    buf b = BUF_INIT;
    for (const char *p = s; *p;) {
        if (*p == '\'') {
            /* '' inside a literal is an escaped quote */
            for (p++; *p && !(*p == '\'' && p[1] != '\''); p += *p == '\'' ? 2 : 1)
                ;
            if (*p)
                p++;
            buf_addc(&b, '?');
        } else if (*p == '"') {
            const char *e = strchr(p + 1, '"');
            size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
            buf_add(&b, p, n);
            p += n;
        } else if ((*p >= '0' && *p <= '9') || ((*p == '-' || *p == '.') && p[1] >= '0' && p[1] <= '9')) {
            char prev = b.len ? (char)(b.data[b.len - 1] | 32) : ' ';
            bool ident = prev == ('_' | 32) || (prev >= 'a' && prev <= 'z');
            if (ident) {
                buf_addc(&b, *p++);
                continue;
            }
            p++;
            while ((*p >= '0' && *p <= '9') || *p == '.' || *p == 'e' || *p == 'E' || *p == '+' || *p == '-')
                p++;
            buf_addc(&b, '?');
        } else {
            buf_addc(&b, *p++);
        }
    }
    ddbjson_write_string(out, b.data ? b.data : "", b.len);
    buf_done(&b);
}

/* ---- the request's members ---- */

static void put_str(buf *out, const char *member, const cJSON *in, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(in, name);
    if (!cJSON_IsString(v))
        return;
    buf_printf(out, ",\"%s\":", member);
    ddbjson_write_string(out, v->valuestring, strlen(v->valuestring));
}

static void put_num(buf *out, const char *member, const cJSON *in, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(in, name);
    if (cJSON_IsNumber(v))
        buf_printf(out, ",\"%s\":%.0f", member, v->valuedouble);
}

static void put_bool(buf *out, const char *member, const cJSON *in, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(in, name);
    if (cJSON_IsBool(v))
        buf_printf(out, ",\"%s\":%s", member, cJSON_IsTrue(v) ? "true" : "false");
}

/* {"T":n}: the requests a batch or transaction makes of each table. */
static void put_tables(buf *out, const cJSON *in)
{
    const cJSON *ri = cJSON_GetObjectItemCaseSensitive(in, "RequestItems");
    const cJSON *ti = cJSON_GetObjectItemCaseSensitive(in, "TransactItems");
    if (cJSON_IsObject(ri)) {
        buf_adds(out, ",\"tables\":{");
        for (const cJSON *e = ri->child; e; e = e->next) {
            const cJSON *keys = cJSON_GetObjectItemCaseSensitive(e, "Keys");
            int n = cJSON_IsArray(e) ? cJSON_GetArraySize(e) : cJSON_IsArray(keys) ? cJSON_GetArraySize(keys) : 0;
            if (e != ri->child)
                buf_addc(out, ',');
            ddbjson_write_string(out, e->string, strlen(e->string));
            buf_printf(out, ":%d", n);
        }
        buf_addc(out, '}');
    } else if (cJSON_IsArray(ti)) {
        /* one entry a table, in the order met (a handful of tables) */
        buf_adds(out, ",\"tables\":{");
        const char *names[100];
        int counts[100], n = 0;
        for (const cJSON *e = ti->child; e; e = e->next) {
            const cJSON *op = cJSON_IsObject(e) ? e->child : NULL;
            const cJSON *tn = op ? cJSON_GetObjectItemCaseSensitive(op, "TableName") : NULL;
            if (!cJSON_IsString(tn))
                continue;
            int i = 0;
            while (i < n && strcmp(names[i], tn->valuestring) != 0)
                i++;
            if (i == n && n < 100)
                names[n] = tn->valuestring, counts[n++] = 0;
            if (i < n)
                counts[i]++;
        }
        for (int i = 0; i < n; i++) {
            if (i)
                buf_addc(out, ',');
            ddbjson_write_string(out, names[i], strlen(names[i]));
            buf_printf(out, ":%d", counts[i]);
        }
        buf_addc(out, '}');
    }
}

/* A CreateTable's index names: "indexes":["GSI1","LSI1"]. */
static void put_indexes(buf *out, const cJSON *in)
{
    static const char *const kinds[] = { "GlobalSecondaryIndexes", "LocalSecondaryIndexes" };
    bool any = false;
    for (int k = 0; k < 2; k++) {
        const cJSON *list = cJSON_GetObjectItemCaseSensitive(in, kinds[k]);
        for (const cJSON *e = cJSON_IsArray(list) ? list->child : NULL; e; e = e->next) {
            const cJSON *n = cJSON_GetObjectItemCaseSensitive(e, "IndexName");
            if (!cJSON_IsString(n))
                continue;
            buf_adds(out, any ? "," : ",\"indexes\":[");
            any = true;
            ddbjson_write_string(out, n->valuestring, strlen(n->valuestring));
        }
    }
    if (any)
        buf_addc(out, ']');
}

/* The request's members, hashed where they are values. */
static void put_request(const recorder *r, buf *out, const cJSON *in)
{
    put_str(out, "table", in, "TableName");
    put_str(out, "index", in, "IndexName");
    put_str(out, "key_condition", in, "KeyConditionExpression");
    put_str(out, "filter", in, "FilterExpression");
    put_str(out, "projection", in, "ProjectionExpression");
    put_str(out, "condition", in, "ConditionExpression");
    put_str(out, "update", in, "UpdateExpression");
    const cJSON *names = cJSON_GetObjectItemCaseSensitive(in, "ExpressionAttributeNames");
    if (cJSON_IsObject(names)) {
        /* attribute names are the design's, kept as they are */
        buf_adds(out, ",\"names\":{");
        for (const cJSON *e = names->child; e; e = e->next) {
            if (!cJSON_IsString(e))
                continue;
            if (e != names->child)
                buf_addc(out, ',');
            ddbjson_write_string(out, e->string, strlen(e->string));
            buf_addc(out, ':');
            ddbjson_write_string(out, e->valuestring, strlen(e->valuestring));
        }
        buf_addc(out, '}');
    }
    put_value_map(r, out, "values", cJSON_GetObjectItemCaseSensitive(in, "ExpressionAttributeValues"), false);
    put_value_map(r, out, "key", cJSON_GetObjectItemCaseSensitive(in, "Key"), false);
    put_value_map(r, out, "item", cJSON_GetObjectItemCaseSensitive(in, "Item"), true);
    put_num(out, "limit", in, "Limit");
    put_str(out, "select", in, "Select");
    put_num(out, "segment", in, "Segment");
    put_num(out, "total_segments", in, "TotalSegments");
    put_bool(out, "consistent", in, "ConsistentRead");
    put_bool(out, "forward", in, "ScanIndexForward");
    if (cJSON_GetObjectItemCaseSensitive(in, "ExclusiveStartKey"))
        buf_adds(out, ",\"paged\":true");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(in, "Statement");
    if (cJSON_IsString(st)) {
        buf_adds(out, ",\"statement\":");
        put_statement(out, st->valuestring);
    }
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(in, "Parameters");
    if (cJSON_IsArray(params)) {
        buf_adds(out, ",\"parameters\":[");
        for (const cJSON *e = params->child; e; e = e->next) {
            if (e != params->child)
                buf_addc(out, ',');
            put_value(r, out, e);
        }
        buf_addc(out, ']');
    }
    put_tables(out, in);
    put_indexes(out, in);
}

/* Finds lit in p[0..n) from the end; NULL when absent. */
static const char *find_last(const char *p, size_t n, const char *lit)
{
    size_t l = strlen(lit);
    for (size_t i = n >= l ? n - l + 1 : 0; i-- > 0;)
        if (memcmp(p + i, lit, l) == 0)
            return p + i;
    return NULL;
}

/* What a line says of the answer, taken from it on the request's thread
 * (cheap: no parse), so the answer need not be kept. */
typedef struct summary {
    double t, ms, units;
    unsigned http;
    bool has_count;
    unsigned long long count, scanned;
    char error[64];         /* the error's type; "" for none */
} summary;

/* count and scanned from the answer's text, without parsing its items:
 * the store writes `],"Count":N,"ScannedCount":M` after the Items (or
 * `{"Count":N,...` for Select COUNT), and a GetItem's `{"Item":`. */
static void take_counts(summary *sm, const char *op, const char *reply, size_t n)
{
    if (strcmp(op, "GetItem") == 0) {
        sm->has_count = true;
        sm->count = n > 8 && memcmp(reply, "{\"Item\":", 8) == 0;
        return;
    }
    if (strcmp(op, "Query") != 0 && strcmp(op, "Scan") != 0)
        return;
    const char *c = find_last(reply, n, "],\"Count\":");
    if (c)
        c += 2;
    else if (n > 9 && memcmp(reply, "{\"Count\":", 9) == 0)
        c = reply + 1;
    if (c && sscanf(c, "\"Count\":%llu,\"ScannedCount\":%llu", &sm->count, &sm->scanned) == 2)
        sm->has_count = true;
}

/* The error's type from {"__type":"prefix#Type",...}. */
static void take_error(summary *sm, const char *reply, size_t n)
{
    if (n < 12 || memcmp(reply, "{\"__type\":\"", 11) != 0)
        return;
    const char *s = reply + 11, *e = memchr(s, '"', n - 11);
    if (!e)
        return;
    const char *h = memchr(s, '#', (size_t)(e - s));
    if (h)
        s = h + 1;
    size_t k = (size_t)(e - s) < sizeof sm->error - 1 ? (size_t)(e - s) : sizeof sm->error - 1;
    memcpy(sm->error, s, k);
    sm->error[k] = '\0';
}

static void summarize(const record_call *c, summary *sm)
{
    memset(sm, 0, sizeof *sm);
    sm->t = c->t;
    sm->ms = c->ms;
    sm->units = c->units;
    sm->http = c->http;
    if (c->http == 200 && c->reply)
        take_counts(sm, c->op, c->reply, c->reply_len);
    if (c->http != 200 && c->reply)
        take_error(sm, c->reply, c->reply_len);
}

/* x >= 0 with three decimals, without printf's floating point (a third
 * of the line's cost when it was %.3f). */
static void put_fixed3(buf *out, double x)
{
    unsigned long long m = (unsigned long long)(x * 1000.0 + 0.5);
    buf_printf(out, "%llu.%03llu", m / 1000, m % 1000);
}

static void format_line(const recorder *r, const char *op, const char *body, size_t len, const summary *sm,
                        buf *out)
{
    buf_adds(out, "{\"t\":");
    put_fixed3(out, sm->t);
    buf_adds(out, ",\"op\":");
    ddbjson_write_string(out, op, strlen(op));
    cJSON *in = NULL;
    diag d;
    diag_init(&d);
    if (len && ddbjson_cjson_parse(body, len, &in, &d) == ST_OK && cJSON_IsObject(in))
        put_request(r, out, in);
    cJSON_Delete(in);
    if (sm->has_count && strcmp(op, "GetItem") == 0)
        buf_printf(out, ",\"count\":%llu", sm->count);
    else if (sm->has_count)
        buf_printf(out, ",\"count\":%llu,\"scanned\":%llu", sm->count, sm->scanned);
    if (sm->units > 0) {
        /* units are whole or half units, or tenths for some writes */
        buf_adds(out, ",\"units\":");
        double h = sm->units * 2;
        if (h == (double)(unsigned long long)h)
            buf_printf(out, "%llu%s", (unsigned long long)h / 2, ((unsigned long long)h & 1) ? ".5" : "");
        else
            buf_printf(out, "%g", sm->units);
    }
    buf_adds(out, ",\"ms\":");
    put_fixed3(out, sm->ms);
    buf_printf(out, ",\"status\":%u", sm->http);
    if (sm->error[0]) {
        buf_adds(out, ",\"error\":");
        ddbjson_write_string(out, sm->error, strlen(sm->error));
    }
    buf_adds(out, "}\n");
}

void record_format(const recorder *r, const record_call *c, buf *out)
{
    summary sm;
    summarize(c, &sm);
    format_line(r, c->op, c->body, c->len, &sm, out);
}

/* ---- the queue and the file ---- */

/* A request waiting to be written: its summary, then its operation's name
 * and its body, in the queue's bytes. */
typedef struct raw_hdr {
    summary sm;
    uint32_t op_len, body_len;
} raw_hdr;

static char *numbered(const char *path, unsigned i)
{
    buf b = BUF_INIT;
    buf_printf(&b, "%s.%u", path, i);
    return buf_steal(&b);
}

/* FILE -> FILE.1 -> ... -> FILE.keep (the oldest gone), a new FILE. */
static void rotate(recorder *r)
{
    close(r->fd);
    if (r->keep == 0) {
        unlink(r->path);
    } else {
        char *last = numbered(r->path, r->keep);
        unlink(last);
        free(last);
        for (unsigned i = r->keep; i > 1; i--) {
            char *from = numbered(r->path, i - 1), *to = numbered(r->path, i);
            rename(from, to);
            free(from);
            free(to);
        }
        char *first = numbered(r->path, 1);
        rename(r->path, first);
        free(first);
    }
    r->fd = open(r->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
    r->size = 0;
}

/* Writes lines[0..n) (whole lines); the writer lock is held. */
static void write_out(recorder *r, const char *p, size_t n)
{
    size_t off = 0;
    while (off < n && r->fd >= 0) {
        ssize_t w = write(r->fd, p + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            break;   /* a full disk loses lines, never the server */
        off += (size_t)w;
    }
    r->size += off;
}

/* Formats the requests queued in raw[0..n) and writes them, a new file
 * begun before a line that would take this one past max_bytes (no file
 * passes it unless one line alone does). The writer lock is held. */
static void drain(recorder *r, const char *raw, size_t n)
{
    buf lines = BUF_INIT, line = BUF_INIT;
    for (size_t off = 0; off + sizeof(raw_hdr) <= n;) {
        raw_hdr h;
        memcpy(&h, raw + off, sizeof h);
        const char *op = raw + off + sizeof h, *body = op + h.op_len + 1;
        off += sizeof h + h.op_len + 1 + h.body_len;
        buf_reset(&line);
        format_line(r, op, body, h.body_len, &h.sm, &line);
        if (r->size + lines.len + line.len > r->max_bytes && r->size + lines.len > 0) {
            write_out(r, lines.data, lines.len);
            buf_reset(&lines);
            rotate(r);
        }
        buf_add(&lines, line.data, line.len);
    }
    if (lines.len)
        write_out(r, lines.data, lines.len);
    buf_done(&lines);
    buf_done(&line);
}

/* Takes the queue (under the queue lock) and drains it (under the writer
 * lock, taken first, so lines keep their order), rotating when due. */
static void record_flush(recorder *r)
{
    pthread_mutex_lock(&r->writer);
    pthread_mutex_lock(&r->lock);
    buf raw = r->queue;
    r->queue = (buf)BUF_INIT;
    pthread_mutex_unlock(&r->lock);
    drain(r, raw.data, raw.len);
    buf_done(&raw);
    pthread_mutex_unlock(&r->writer);
}

static void *flusher(void *arg)
{
    recorder *r = arg;
    pthread_mutex_lock(&r->lock);
    while (!r->stop) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        ts.tv_sec += 1;
        if (r->queue.len < FLUSH_AT)
            pthread_cond_timedwait(&r->wake, &r->lock, &ts);
        if (!r->queue.len)
            continue;
        pthread_mutex_unlock(&r->lock);
        record_flush(r);
        pthread_mutex_lock(&r->lock);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

void record_request(recorder *r, const record_call *c)
{
    raw_hdr h;
    summarize(c, &h.sm);
    h.op_len = (uint32_t)strlen(c->op);
    h.body_len = (uint32_t)c->len;
    pthread_mutex_lock(&r->lock);
    buf_add(&r->queue, &h, sizeof h);
    buf_add(&r->queue, c->op, h.op_len + 1);
    buf_add(&r->queue, c->body, c->len);
    size_t queued = r->queue.len;
    if (queued >= FLUSH_AT)
        pthread_cond_signal(&r->wake);
    pthread_mutex_unlock(&r->lock);
    /* No thread, or it falls behind: this request writes (bounded memory). */
    if (!r->has_thread ? queued >= FLUSH_AT : queued >= QUEUE_MAX)
        record_flush(r);
}
status record_open(const record_opts *o, recorder **out, diag *d)
{
    *out = NULL;
    recorder *r = xcalloc(1, sizeof *r);
    r->path = xstrdup(o->path);
    if (o->key_path) {
        r->key_path = xstrdup(o->key_path);
    } else {
        buf b = BUF_INIT;
        buf_printf(&b, "%s.key", o->path);
        r->key_path = buf_steal(&b);
    }
    r->max_bytes = o->max_bytes ? o->max_bytes : RECORD_MAX_BYTES;
    r->keep = o->keep;
    r->fd = -1;
    status st = mask_file_key_load(r->key_path, &r->key, &r->key_len, &r->created, d);
    if (st == ST_OK) {
        r->fd = open(r->path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
        if (r->fd < 0)
            st = diag_set(d, ST_IO, "%s: cannot open the record: %s", r->path, strerror(errno));
    }
    if (st != ST_OK) {
        if (r->key)
            memset(r->key, 0, r->key_len);
        free(r->key);
        free(r->key_path);
        free(r->path);
        free(r);
        return st;
    }
    r->mac = sigv4_mac_new(r->key, r->key_len);
    struct stat sb;
    if (fstat(r->fd, &sb) == 0)
        r->size = (uint64_t)sb.st_size;
    pthread_mutex_init(&r->lock, NULL);
    pthread_mutex_init(&r->writer, NULL);
    pthread_cond_init(&r->wake, NULL);
    if (!o->no_thread)
        r->has_thread = pthread_create(&r->thread, NULL, flusher, r) == 0;
    *out = r;
    return ST_OK;
}

const char *record_key_path(const recorder *r)
{
    return r->key_path;
}

bool record_key_created(const recorder *r)
{
    return r->created;
}

void record_close(recorder *r)
{
    if (!r)
        return;
    if (r->has_thread) {
        pthread_mutex_lock(&r->lock);
        r->stop = true;
        pthread_cond_signal(&r->wake);
        pthread_mutex_unlock(&r->lock);
        pthread_join(r->thread, NULL);
    }
    record_flush(r);
    if (r->fd >= 0)
        close(r->fd);
    pthread_mutex_destroy(&r->lock);
    pthread_mutex_destroy(&r->writer);
    pthread_cond_destroy(&r->wake);
    buf_done(&r->queue);
    sigv4_mac_free(r->mac);
    memset(r->key, 0, r->key_len);
    free(r->key);
    free(r->key_path);
    free(r->path);
    free(r);
}
