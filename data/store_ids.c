/*
 * store_ids — random bytes and the ids made of them: a table's TableId
 * (a version 4 UUID), a backup's suffix.
 */
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "data/store_int.h"

void store_random(void *p, size_t n)
{
    unsigned char *b = p;
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(b, 1, n, f) != n) {
        static unsigned x;
        x ^= (unsigned)time(NULL) ^ (unsigned)getpid();
        for (size_t i = 0; i < n; i++) {
            x = x * 1103515245u + 12345u;
            b[i] = (unsigned char)(x >> 16);
        }
    }
    if (f)
        fclose(f);
}

void store_uuid4(char out[37])
{
    unsigned char b[16];
    store_random(b, sizeof b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
             b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
             b[13], b[14], b[15]);
}
