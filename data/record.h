/*
 * record — `ddbx serve --record FILE`: one JSON line a request served,
 * with no value in clear text, for `ddbx patterns` (ui/cli_patterns.c,
 * model/mine.h) to group into access patterns.
 *
 * A line (members present only when the request had them):
 *   {"t":1765000000.123,"op":"Query","table":"SocialGraph","index":"GSI1",
 *    "key_condition":"GSI1PK = :t","filter":"#s = :v","projection":"PK",
 *    "condition":"...","update":"...","names":{"#s":"status"},
 *    "values":{":t":"S:3f9c0e1a2b4d5e6f",":v":"N:..."},
 *    "key":{"PK":"S:...","SK":"S:..."},"item":{"PK":"S","n":"N"},
 *    "limit":100,"select":"COUNT","segment":0,"total_segments":4,
 *    "consistent":true,"forward":false,"paged":true,"statement":"SELECT ...",
 *    "tables":{"T":3},"indexes":["GSI1"],"count":3,"scanned":10,"units":0.5,"ms":0.21,
 *    "status":200,"error":"ConditionalCheckFailedException"}
 * Every value (ExpressionAttributeValues, a Key's values, PartiQL
 * parameters) is written as its type and a keyed hash: "S:" and 16 hex
 * digits of HMAC-SHA256 (data/sigv4.c) under the recording's key, of the
 * type and the value's text, so equal values hash equal (hot keys show)
 * and nobody without the key can test a guess. A PutItem's item is its
 * attribute names and types only; a PartiQL statement's literals become
 * `?`; a CreateTable's "indexes" are the names of the indexes it
 * declares (so `ddbx patterns` knows an index nobody read); an error is its type only (DynamoDB's messages may quote values).
 * Expressions, attribute names and table names are kept: they are the
 * design, not the data. count is the items returned (a GetItem: 0 or 1),
 * scanned the items read before the filter, units the capacity consumed
 * (read or write by the operation; store_call_units, asked for or not),
 * ms the time serving it took.
 *
 * The key: the bytes of a key file (data/mask_file.h's rule: made with 32
 * random bytes, 0600, when missing), by default FILE.key beside the
 * record: one key a recording, kept across its rotations.
 *
 * Bounded: when the next line would take FILE past max_bytes, FILE is
 * renamed FILE.1 (FILE.1 to FILE.2, ...; the oldest past `keep` removed)
 * and a new FILE begun with it: no file passes max_bytes, and the lines
 * kept are at most (keep + 1) * max_bytes.
 *
 * Threads: record_request may be called from many threads at once. On
 * the request's thread it only takes what the line says of the answer
 * (counts, the error's type: no parse) and copies the request body into
 * a queue under a mutex; a thread of the recorder's own parses, hashes,
 * formats and writes the lines, woken at 64 KB queued and every second,
 * so a request never waits for the hashing or a write() and the file is
 * about a second behind at most. Past 16 MB queued (the thread fell
 * behind), the request that finds it so drains the queue itself: memory
 * stays bounded. record_close writes the rest.
 *
 * Ownership: the recorder owns its file, key and buffer; the caller's
 * strings are only read.
 */
#ifndef DDBX_RECORD_H
#define DDBX_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/buf.h"
#include "model/mine.h"
#include "model/status.h"

/* The defaults: rotate at 64 MiB, keep 4 rotated files. */
#define RECORD_MAX_BYTES (64ull * 1024 * 1024)
#define RECORD_KEEP 4

typedef struct record_opts {
    const char *path;       /* the record file (appended to) */
    const char *key_path;   /* NULL: path + ".key" */
    uint64_t max_bytes;     /* 0: RECORD_MAX_BYTES */
    unsigned keep;          /* rotated files kept */
    bool no_thread;         /* tests: no flushing thread (record_flush) */
} record_opts;

typedef struct recorder recorder;

/* Opens (appends to) the file and loads or makes the key. */
status record_open(const record_opts *o, recorder **out, diag *d);
/* The key file used, and whether record_open made it. */
const char *record_key_path(const recorder *r);
bool record_key_created(const recorder *r);

/* What one request was: op the operation's name ("GetItem"), body its
 * request body, reply the answer's body and http its status, units and
 * ms as above, t the time it arrived (seconds since the epoch). */
typedef struct record_call {
    const char *op;
    const char *body;
    size_t len;
    const char *reply;
    size_t reply_len;
    unsigned http;
    double units, ms, t;
} record_call;

/* The line for c (with its newline) appended to out. One thread at a
 * time (the recorder's MAC state is reused): record_request's writing
 * is serialized so. */
void record_format(const recorder *r, const record_call *c, buf *out);
/* Formats and queues the line. */
void record_request(recorder *r, const record_call *c);
/* Writes the rest, stops the thread, closes; NULL is fine. */
void record_close(recorder *r);

/*
 * Reads a record file (`ddbx patterns`) into m, a line at a time (memory:
 * one line, whatever the file's size): *lines counts the lines, *bad
 * those that are not a record line (a line cut short by a crash, another
 * file), the first of them named in bad_at ("FILE:LINE: what"). ST_IO
 * when the file cannot be read.
 */
status record_read(const char *path, mine *m, uint64_t *lines, uint64_t *bad, buf *bad_at, diag *d);

#endif
