/*
 * store_remote_int — what the files of the remote store share, private to
 * them: store_remote.c (sending, caches, write gate, opening, the API
 * passed through, typed requests, the table list), store_remote_browse.c
 * (statistics, partitions, pages) and store_remote_write.c (bulk loads,
 * table writes). The public interface is store.h; store_int.h has the
 * store itself.
 *
 * Every request the remote store makes of its own is a ddb_req, printed
 * once (ddb_req_json) and its answer parsed once (srem_send); only a
 * request passed through (store_call, store_call_line) arrives as text.
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
    bool ttl_known;          /* DescribeTimeToLive read once (issue 42) */
    char *ttl;               /* its attribute when enabled (NULL: off) */
    struct rtable *next;
} rtable;

/* A partition of a table or index as the explorer has met it. Partitions
 * are discovered one at a time as the user pages (data/store.h): the
 * first by a Scan of Limit 1, the one after a known partition by a Scan of
 * Limit 1 that starts after that partition's last item; next and prev
 * link them in the Scan's order as that becomes known. */
typedef struct rpart {
    av pk;
    uint64_t items;          /* when counted: the partition's items */
    bool counted;
    av last;                 /* the key attributes (LastEvaluatedKey's) of its
                                last item (AV_NONE: not read yet) */
    long next, prev;         /* neighbours in Scan order (-1: not known) */
    uint64_t tally;          /* a counting Scan's count so far */
} rpart;

typedef struct rscan {
    char *table, *index;     /* index NULL: the base table */
    rpart *parts;
    size_t n, cap;
    size_t *slots;           /* hash of pk -> position + 1; 0: empty */
    size_t n_slots;
    long head;               /* the first partition in Scan order (-1: not read) */
    long tail;               /* the last one (-1: not known) */
    bool empty;              /* the table (index) has no item */
    bool complete;           /* a counting Scan read it all: every partition
                                known, linked and counted */
    av *first;               /* the first Scan page's items, whole (with a
                                page hint): the first screen's */
    size_t n_first;
    bool first_more;         /* the Scan goes on after them */
    struct rscan *next;
} rscan;

struct store_remote {
    store_send_fn send;
    void *ctx;
    store_send_many_fn send_many;
    void *many_ctx;
    store_send_mixed_fn send_mixed;   /* requests of several operations together */
    void *mixed_ctx;
    char *where;
    bool writable;
    store_gate_fn gate;
    void *gate_ctx;
    double rcu, wcu;
    double budget;           /* read units the session may use before asking (0: none) */
    double budget_step;      /* what a yes adds to it: the amount first set */
    store_budget_fn budget_ask;
    void *budget_ctx;
    bool reading;            /* the request under way is a read (PartiQL SELECTs) */
    uint64_t requests;
    size_t scan_limit;
    size_t page_hint;        /* items a screen shows (store_set_page_hint) */
    rtable *tables;
    rscan *scans;
    /* bulk load */
    bool bulk;
    ddb_req batch;           /* the queued PutRequests (a BatchWriteItem, one table) */
    char *approved;          /* table the gate allowed for this bulk load */
};

typedef struct store_remote store_remote;

/*
 * Send a request there: the one wire function of a remote store. Sends
 * one request of the store's own, as it is: ReturnConsumedCapacity
 * TOTAL where the operation takes it and req does not say, one print and
 * one parse of the answer (*root, the caller's to delete, when root is
 * not NULL), its consumed capacity added up. No write gate: the caller
 * asks it (srem_may_write). On an error err holds what the transport
 * said and the members the error carries.
 */
status srem_send(store *s, const ddb_req *req, struct cJSON **root, ddb_err *err);
/* srem_send with the answer read into res (store_codec_read) and
 * the error in a diag. */
status srem_read(store *s, const ddb_req *req, ddb_res *res, diag *d);

/* n reads of one operation sent together (store_set_send_many's
 * function, which must be set), each answer read into res[i] (the
 * caller's, initialised), their capacity added up, the read budget asked
 * first for them all. The first error, if any, in d. */
status srem_read_many(store *s, const ddb_req *reqs, size_t n, ddb_res *res, diag *d);

/* n requests of the store's own sent together, whatever their
 * operations (store_set_send_mixed's function; without one, one after
 * the other), the read budget asked first: roots[i] each parsed answer
 * (NULL on its error; the caller deletes them), capacity added up. The
 * first error, if any, in d. */
status srem_send_mixed(store *s, size_t n, const ddb_req *reqs, struct cJSON **roots, diag *d);
/* The table's description when cached, else NULL. */
rtable *srem_table_cached(store_remote *r, const char *name);
/* A DescribeTable answer into the description cache (root taken). */
status srem_table_put(store_remote *r, const char *name, struct cJSON *root, rtable **out, diag *d);
/* The first screen's Scan of a table (index) as the paging sends it
 * (store_set_page_hint's items), into *q; false when the paging has it
 * already or has no page hint. The answer, read, given to the paging
 * with srem_first_put. (store_remote_browse.c) */
bool srem_first_req(store *s, const char *table, const char *index, ddb_req *q);
status srem_first_put(store *s, const char *table, const char *index, ddb_res *res, diag *d);

/* Drops what is cached of the table (NULL: of every table): its Scan
 * state, and its description too when descriptions. */
void srem_forget(store_remote *r, const char *table, bool descriptions);
/* The table's description, from the cache or DescribeTable. The rtable
 * stays the cache's, valid until the next refresh. */
status srem_table_get(store *s, const char *name, rtable **out, diag *d);
/* May this write be sent? ST_READ_ONLY when the store was not opened for
 * writing or the gate declines; what (may be NULL: a summary of req) is
 * what the gate is shown. */
status srem_may_write(store *s, const ddb_req *req, const char *what, diag *d);

/* CreateTable and DeleteTable (store_remote_write.c): the queued bulk
 * load sent first, the gate asked, and the table waited for until it is
 * ACTIVE or gone. */
status srem_table_write(store *s, const ddb_req *req, ddb_err *err);

#endif
