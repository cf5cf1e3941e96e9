/*
 * gen — writes the benchmark follow graph (graph.h) as DynamoDB JSON lines,
 * one {"Item":{...}} a line (the DynamoDB-export-to-S3 form `ddbx load`
 * reads), partition after partition.
 *
 *   gen N [SEED] > FILE      N items (a multiple of 100, at least 10,100:
 *                            graph.h's GRAPH_MIN_ITEMS)
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
    if (n < GRAPH_MIN_ITEMS) {
        fprintf(stderr, "gen: N must be at least %d: each of the N/%d users follows %d others (%lu users cannot)\n",
                GRAPH_MIN_ITEMS, GRAPH_PER_PART, GRAPH_PER_PART, n / GRAPH_PER_PART);
        return 2;
    }
    static char obuf[1 << 20];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    uint32_t parts = (uint32_t)(n / GRAPH_PER_PART);
    uint32_t t[GRAPH_PER_PART];
    char item[2048];
    for (uint32_t a = 0; a < parts; a++) {
        graph_targets(seed, parts, a, t);
        for (uint32_t j = 0; j < GRAPH_PER_PART; j++) {
            graph_item_json(item, sizeof item, seed, a, j, t[j]);
            printf("{\"Item\":%s}\n", item);
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        perror("gen: write");
        return 1;
    }
    return 0;
}
