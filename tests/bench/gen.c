/*
 * gen — writes the benchmark follow graph (graph.h) as DynamoDB JSON lines,
 * one {"Item":{...}} a line (the DynamoDB-export-to-S3 form `ddbx load`
 * reads), partition after partition.
 *
 *   gen N [SEED] > FILE      N items (a multiple of 100, at least 10,100:
 *                            graph.h's GRAPH_MIN_ITEMS)
 *   gen N --parts A:B        only the partitions A..B-1 of that graph (a
 *                            10,000,000-item database loads in slices, one
 *                            transaction each, so its WAL stays small)
 *   gen N --star K           only the hot partition of the explorer's
 *                            databases: ACTOR#zoe, who follows K users
 *                            (SK=TARGET#u0..u(K-1), GSI1PK=TARGET#uM), the
 *                            table's last partition in key order
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/bench/graph.h"

static void item(const char *actor, uint32_t target, const graph_attrs *g)
{
    printf("{\"Item\":{\"PK\":{\"S\":\"ACTOR#%s\"},\"SK\":{\"S\":\"TARGET#u%u\"},"
           "\"GSI1PK\":{\"S\":\"TARGET#u%u\"},\"GSI1SK\":{\"S\":\"ACTOR#%s\"},"
           "\"followedAt\":{\"S\":\"%s\"},\"score\":{\"N\":\"%u\"},\"tier\":{\"S\":\"%s\"},"
           "\"note\":{\"S\":\"%s\"},\"meta\":{\"S\":\"%s\"}}}\n",
           actor, target, target, actor, g->followed_at, g->score, g->tier, g->note, g->meta);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen N [SEED] [--parts A:B | --star K]\n");
        return 2;
    }
    unsigned long n = strtoul(argv[1], NULL, 10);
    uint64_t seed = GRAPH_SEED;
    unsigned long from = 0, to = 0, star = 0;
    for (int i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--parts") == 0 && i + 1 < argc) {
            if (sscanf(argv[++i], "%lu:%lu", &from, &to) != 2 || from >= to) {
                fprintf(stderr, "gen: --parts A:B with A < B\n");
                return 2;
            }
        } else if (strcmp(argv[i], "--star") == 0 && i + 1 < argc) {
            star = strtoul(argv[++i], NULL, 10);
        } else {
            seed = strtoull(argv[i], NULL, 10);
        }
    }
    if (n == 0 || n % GRAPH_PER_PART) {
        fprintf(stderr, "gen: N must be a positive multiple of %d\n", GRAPH_PER_PART);
        return 2;
    }
    if (n < GRAPH_MIN_ITEMS) {
        fprintf(stderr, "gen: N must be at least %d: each of the N/%d users follows %d others (%lu users cannot)\n",
                GRAPH_MIN_ITEMS, GRAPH_PER_PART, GRAPH_PER_PART, n / GRAPH_PER_PART);
        return 2;
    }
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    uint32_t parts = (uint32_t)(n / GRAPH_PER_PART);
    if (!to)
        to = parts;
    if (to > parts) {
        fprintf(stderr, "gen: --parts past the graph's %u partitions\n", parts);
        return 2;
    }
    graph_attrs g;
    if (star) {
        /* Its attributes from streams past the graph's own. */
        for (uint32_t k = 0; k < star; k++) {
            graph_item_attrs(seed, parts, k, &g);
            item("zoe", k, &g);
        }
    } else {
        uint32_t t[GRAPH_PER_PART];
        char actor[16];
        for (uint32_t a = (uint32_t)from; a < to; a++) {
            graph_targets(seed, parts, a, t);
            snprintf(actor, sizeof actor, "u%u", a);
            for (uint32_t j = 0; j < GRAPH_PER_PART; j++) {
                graph_item_attrs(seed, a, j, &g);
                item(actor, t[j], &g);
            }
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gen: write");
        return 1;
    }
    return 0;
}
