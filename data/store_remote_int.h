/*
 * store_remote_int — what the files of the remote store share, private to
 * them: store_remote.c (sending, caches, write gate, opening, the API
 * passed through, typed requests, the table list), store_remote_browse.c
 * (statistics, partitions, pages) and store_remote_write.c (bulk loads,
 * table writes). The public interface is store.h; store_int.h has the
 * store itself.
 *
 * Every request the remote store makes of its own is a ddb_req, printed
 * once (ddb_req_json) and its answer parsed once (srem_send_req); only a
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
    av start;                /* ExclusiveStartKey of the next page (AV_NONE: none) */
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
    ddb_req batch;           /* the queued PutRequests (a BatchWriteItem, one table) */
    char *approved;          /* table the gate allowed for this bulk load */
};

typedef struct store_remote store_remote;

/*
 * Sends one request of the store's own, as it is: ReturnConsumedCapacity
 * TOTAL where the operation takes it and req does not say, one print and
 * one parse of the answer (*root, the caller's to delete, when root is
 * not NULL), its consumed capacity added up. No write gate: the caller
 * asks it (srem_may_write). On an error err holds what the transport
 * said and the members the error carries.
 */
status srem_send_req(store *s, const ddb_req *req, struct cJSON **root, ddb_err *err);
/* srem_send_req with the answer read into res (store_codec_read) and
 * the error in a diag. */
status srem_read(store *s, const ddb_req *req, ddb_res *res, diag *d);

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
