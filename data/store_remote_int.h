/*
 * store_remote_int — what the files of the remote store share, private to
 * them: store_remote.c (transport, caches, write gate, opening, the API
 * passed through, the table list), store_remote_browse.c (statistics,
 * partitions, pages) and store_remote_write.c (bulk loads, table writes).
 * The public interface is store.h; store_int.h has the store itself.
 *
 * The cached rtables and rscans belong to the store_remote and live until
 * srem_forget (store_refresh) or store_remote_free.
 */
#ifndef DDBX_DATA_STORE_REMOTE_INT_H
#define DDBX_DATA_STORE_REMOTE_INT_H

#include "data/store_int.h"

struct cJSON;

typedef struct rtable {
    char *name;
    table_def def;
    struct cJSON *desc;      /* the TableDescription */
    struct rtable *next;
} rtable;

typedef struct rpart {
    av pk;
    uint64_t items;
    bool exact;              /* counted by a Query: the Scan adds nothing */
} rpart;

typedef struct rscan {
    char *table, *index;     /* index NULL: the base table */
    rpart *parts;
    size_t n, cap;
    size_t *slots;           /* hash of pk -> position + 1; 0: empty */
    size_t n_slots;
    char *start;             /* ExclusiveStartKey of the next page (JSON) */
    bool started, complete;
    long cur;                /* the partition of the last item scanned (-1: none):
                                its count may still grow with the next page */
    struct rscan *next;
} rscan;

struct store_remote {
    store_send_fn send;
    void *ctx;
    char *where;
    bool writable;
    store_gate_fn gate;
    void *gate_ctx;
    double rcu, wcu;
    bool reading;            /* the request under way is a read (PartiQL SELECTs) */
    uint64_t requests;
    size_t scan_limit;
    rtable *tables;
    rscan *scans;
    /* bulk load */
    bool bulk;
    char *batch_table;       /* table of the queued PutRequests */
    buf batch;               /* ",{"PutRequest":...}" each */
    size_t batch_n;
    char *approved;          /* table the gate allowed for this bulk load */
};

typedef struct store_remote store_remote;

/* cJSON accessors: a member, a string member (NULL when not a string), a
 * number member (0 when absent; *has, when given, says whether it was). */
const struct cJSON *srem_member(const struct cJSON *o, const char *name);
const char *srem_jstring(const struct cJSON *o, const char *name);
double srem_jnumber(const struct cJSON *o, const char *name, bool *has);
/* Appends s as a JSON string. */
void srem_json_str(buf *b, const char *s);

/*
 * Sends one request. On ST_OK the response is parsed (*resp, when asked
 * for; the caller deletes it) and kept as text (*raw, when asked for);
 * its consumed capacity is added up. On an error d holds what the
 * transport said and *raw the error's extra members, if any.
 */
status srem_send(store *s, const char *op, const char *body, size_t len, struct cJSON **resp,
                 char **raw, diag *d);
/* The same with the body in a buf (empty: "{}"). */
status srem_send_buf(store *s, const char *op, const buf *b, struct cJSON **resp, diag *d);

/* Drops what is cached of the table (NULL: of every table): its Scan
 * state, and its description too when descriptions. */
void srem_forget(store_remote *r, const char *table, bool descriptions);
/* The table's description, from the cache or DescribeTable. The rtable
 * stays the cache's, valid until the next refresh. */
status srem_table_get(store *s, const char *name, rtable **out, diag *d);
/* May this write be sent? ST_READ_ONLY when the store was not opened for
 * writing or the gate declines; what (may be NULL: a summary of in) is
 * what the gate is shown. */
status srem_may_write(store *s, const char *op, const struct cJSON *in, const char *what, diag *d);

#endif
