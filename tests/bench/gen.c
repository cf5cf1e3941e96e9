/*
 * gen — writes the benchmark follow graph (graph.h) as DynamoDB JSON lines,
 * one {"Item":{...}} a line (the DynamoDB-export-to-S3 form `ddbx load`
 * reads), partition after partition.
 *
 *   gen N [SEED] > FILE      N items (a multiple of 100)
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/bench/graph.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: gen N [SEED]\n");
        return 2;
    }
    unsigned long n = strtoul(argv[1], NULL, 10);
    uint64_t seed = argc > 2 ? strtoull(argv[2], NULL, 10) : GRAPH_SEED;
    if (n == 0 || n % GRAPH_PER_PART) {
        fprintf(stderr, "gen: N must be a positive multiple of %d\n", GRAPH_PER_PART);
        return 2;
    }
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    uint32_t parts = (uint32_t)(n / GRAPH_PER_PART);
    uint32_t t[GRAPH_PER_PART];
    graph_attrs g;
    for (uint32_t a = 0; a < parts; a++) {
        graph_targets(seed, parts, a, t);
        for (uint32_t j = 0; j < GRAPH_PER_PART; j++) {
            graph_item_attrs(seed, a, j, &g);
            printf("{\"Item\":{\"PK\":{\"S\":\"ACTOR#u%u\"},\"SK\":{\"S\":\"TARGET#u%u\"},"
                   "\"GSI1PK\":{\"S\":\"TARGET#u%u\"},\"GSI1SK\":{\"S\":\"ACTOR#u%u\"},"
                   "\"followedAt\":{\"S\":\"%s\"},\"score\":{\"N\":\"%u\"},\"tier\":{\"S\":\"%s\"},"
                   "\"note\":{\"S\":\"%s\"},\"meta\":{\"S\":\"%s\"}}}\n",
                   a, t[j], t[j], a, g.followed_at, g.score, g.tier, g.note, g.meta);
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gen: write");
        return 1;
    }
    return 0;
}
