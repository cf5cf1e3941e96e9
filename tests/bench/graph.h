/*
 * graph — the benchmark's follow graph, generated deterministically.
 *
 * Shared (header-only, static) by the generator and the C drivers, so each
 * can recompute any item's keys from (seed, n) without reading the data
 * file. Partitions: actors u0..u(P-1), P = n / 100; users u0..u(P-1) too.
 * Actor a follows 100 distinct other users drawn from the seeded stream
 * of partition a: edge items PK=ACTOR#ua SK=TARGET#um, GSI1PK=TARGET#um,
 * GSI1SK=ACTOR#ua, so GSI1 partitions hold ~100 items each (Poisson).
 * Attributes besides the keys: followedAt (S, ISO-8601), score (N,
 * 0..999), tier (S: "gold" for ~4% of items, the W4 filter), note and
 * meta (S, 200 bytes each of seeded text).
 */
#ifndef DDBX_BENCH_GRAPH_H
#define DDBX_BENCH_GRAPH_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The table the items go into: CreateTable's body (GSI1 inverted, ALL). */
#define GRAPH_CREATE_TABLE \
    "{\"TableName\":\"Graph\"," \
    "\"AttributeDefinitions\":[{\"AttributeName\":\"PK\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"SK\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"GSI1PK\",\"AttributeType\":\"S\"}," \
    "{\"AttributeName\":\"GSI1SK\",\"AttributeType\":\"S\"}]," \
    "\"KeySchema\":[{\"AttributeName\":\"PK\",\"KeyType\":\"HASH\"}," \
    "{\"AttributeName\":\"SK\",\"KeyType\":\"RANGE\"}]," \
    "\"GlobalSecondaryIndexes\":[{\"IndexName\":\"GSI1\"," \
    "\"KeySchema\":[{\"AttributeName\":\"GSI1PK\",\"KeyType\":\"HASH\"}," \
    "{\"AttributeName\":\"GSI1SK\",\"KeyType\":\"RANGE\"}]," \
    "\"Projection\":{\"ProjectionType\":\"ALL\"}}]," \
    "\"BillingMode\":\"PAY_PER_REQUEST\"}"

#define GRAPH_PER_PART 100
#define GRAPH_SEED 20261129u
#define GRAPH_TEXT 200
/* Each of the n / 100 users follows 100 others, distinct and not itself:
 * fewer than 101 users cannot hold that (graph_targets would draw
 * forever), so n is at least 101 partitions of 100. */
#define GRAPH_MIN_ITEMS ((GRAPH_PER_PART + 1) * GRAPH_PER_PART)

typedef struct graph_rng {
    uint64_t s;
} graph_rng;

static inline uint64_t graph_next(graph_rng *r)
{
    /* splitmix64: fast, good enough, and the same everywhere. */
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static inline graph_rng graph_rng_for(uint64_t seed, uint64_t stream)
{
    graph_rng r = { seed * 0x2545f4914f6cdd1dull + stream * 0x9e3779b97f4a7c15ull + 1 };
    graph_next(&r);
    return r;
}

/* The 100 targets of actor a among P users (P > 100), in generation
 * order. */
static inline void graph_targets(uint64_t seed, uint32_t parts, uint32_t a,
                                 uint32_t out[GRAPH_PER_PART])
{
    graph_rng r = graph_rng_for(seed, a);
    for (int j = 0; j < GRAPH_PER_PART;) {
        uint32_t m = (uint32_t)(graph_next(&r) % parts);
        int dup = m == a;
        for (int k = 0; k < j && !dup; k++)
            dup = out[k] == m;
        if (!dup)
            out[j++] = m;
    }
}

/* n random existing keys (actor, target), drawn from r: for GetItem. */
static inline void graph_pick_keys(graph_rng *r, uint32_t parts, size_t n,
                                   uint32_t *act, uint32_t *tgt)
{
    uint32_t t[GRAPH_PER_PART];
    for (size_t i = 0; i < n; i++) {
        act[i] = (uint32_t)(graph_next(r) % parts);
        unsigned j = (unsigned)(graph_next(r) % GRAPH_PER_PART);
        graph_targets(GRAPH_SEED, parts, act[i], t);
        tgt[i] = t[j];
    }
}

/* One item's non-key attributes, from its own stream. */
typedef struct graph_attrs {
    char followed_at[32];
    unsigned score;
    const char *tier;
    char note[GRAPH_TEXT + 1], meta[GRAPH_TEXT + 1];
} graph_attrs;

static inline void graph_text(graph_rng *r, char *out)
{
    static const char abc[] = "abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
    for (int i = 0; i < GRAPH_TEXT; i += 8) {
        uint64_t x = graph_next(r);
        for (int k = 0; k < 8 && i + k < GRAPH_TEXT; k++, x >>= 8)
            out[i + k] = abc[(x & 0xff) % (sizeof abc - 1)];
    }
    out[GRAPH_TEXT] = 0;
}

static inline void graph_item_attrs(uint64_t seed, uint32_t a, uint32_t j, graph_attrs *g)
{
    graph_rng r = graph_rng_for(seed ^ 0x5bd1e995u, (uint64_t)a * GRAPH_PER_PART + j);
    uint64_t x = graph_next(&r);
    unsigned day = (unsigned)(x % 365), secs = (unsigned)((x >> 16) % 86400);
    static const unsigned mlen[12] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31 };
    unsigned mon = 0;
    while (day >= mlen[mon])
        day -= mlen[mon++];
    snprintf(g->followed_at, sizeof g->followed_at, "2025-%02u-%02uT%02u:%02u:%02uZ",
             mon + 1, day + 1, secs / 3600, secs / 60 % 60, secs % 60);
    g->score = (unsigned)((x >> 40) % 1000);
    /* exactly 1 in 25 of the hash values: 4% */
    unsigned t = (unsigned)((x >> 50) % 100);
    g->tier = t < 4 ? "gold" : t < 30 ? "silver" : "bronze";
    graph_text(&r, g->note);
    graph_text(&r, g->meta);
}

/* Item j of actor a (its target t) as DynamoDB JSON, the Item map only:
 * what gen writes a line of and loadc's writes send. Returns the length
 * (snprintf's). */
static inline int graph_item_json(char *out, size_t cap, uint64_t seed, uint32_t a, uint32_t j,
                                  uint32_t t)
{
    graph_attrs g;
    graph_item_attrs(seed, a, j, &g);
    return snprintf(out, cap,
                    "{\"PK\":{\"S\":\"ACTOR#u%u\"},\"SK\":{\"S\":\"TARGET#u%u\"},"
                    "\"GSI1PK\":{\"S\":\"TARGET#u%u\"},\"GSI1SK\":{\"S\":\"ACTOR#u%u\"},"
                    "\"followedAt\":{\"S\":\"%s\"},\"score\":{\"N\":\"%u\"},\"tier\":{\"S\":\"%s\"},"
                    "\"note\":{\"S\":\"%s\"},\"meta\":{\"S\":\"%s\"}}",
                    a, t, t, a, g.followed_at, g.score, g.tier, g.note, g.meta);
}

#endif
