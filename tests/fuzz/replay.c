/*
 * replay — runs fuzz-target inputs without libFuzzer.
 *
 * Linked with one tests/fuzz/fuzz_*.c in the normal (and sanitizer) build,
 * so `make test` replays every committed corpus through the same code the
 * fuzzer exercises, on machines without clang. Each argument is a file;
 * each file is one call to LLVMFuzzerTestOneInput and one TAP line. The
 * name of the file being run goes to stderr first, so a crash (which ends
 * the process) names its input. With no arguments, reads one input from
 * stdin.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned char *slurp(FILE *f, size_t *len)
{
    size_t cap = 4096, n = 0;
    unsigned char *p = malloc(cap);
    if (!p)
        return NULL;
    for (;;) {
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
        if (n == cap) {
            unsigned char *q = realloc(p, cap *= 2);
            if (!q) {
                free(p);
                return NULL;
            }
            p = q;
        }
    }
    if (ferror(f)) {
        free(p);
        return NULL;
    }
    *len = n;
    return p;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        size_t len;
        unsigned char *p = slurp(stdin, &len);
        if (!p)
            return 2;
        LLVMFuzzerTestOneInput(p, len);
        free(p);
        return 0;
    }
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        size_t len = 0;
        unsigned char *p = f ? slurp(f, &len) : NULL;
        if (f)
            fclose(f);
        if (!p) {
            printf("not ok %d - %s: cannot read\n", i, argv[i]);
            bad = 1;
            continue;
        }
        fprintf(stderr, "replay: %s\n", argv[i]);
        LLVMFuzzerTestOneInput(p, len);
        free(p);
        printf("ok %d - %s\n", i, argv[i]);
        fflush(stdout);
    }
    return bad;
}
