#!/bin/sh
# What a smaller schema would save `ddbx serve --in-memory` from exec to
# its first answered ListTables (issue 43 item 9, tests/bench/NOTES.md
# "start-up, third pass"). For the build's dynamic binary and its image
# binary (make BUILD/ddbx-image), it links variants whose in-memory
# schema image lacks some side tables (measurement only: those binaries
# cannot serve a whole test flow), then prints for each: callgrind
# instructions to the first answer (one start, a dump at the answer) and
# the medians of RUNS alternated starts beside tests/bench/floor.c (CPU,
# its threads' schedstat summed, and minor faults, read at the answer).
# Every binary is measured as a copy (cp): the file the linker wrote
# takes ~10 faults more a start than a copy of it, its pages being cached
# differently. Not run by `make bench` (valgrind; about a minute).
#   sh tests/bench/schema_startup.sh build [RUNS]
set -eu
B=${1:-build}
RUNS=${2:-40}
[ -x "$B/ddbx" ] && [ -x "$B/ddbx-image" ] && [ -f "$B/gen/memimage_data.c" ] ||
    { echo "schema_startup.sh: make BUILD=$B all $B/ddbx-image first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The variants: the tables each leaves out of the image (their indexes go
# with them). full: the image as built. rare: the tables no plain test flow
# touches (CreateTable, Put/Update/Delete, Query, Scan, BatchWrite,
# TransactWrite without a token, DeleteTable). core: only what a table's
# items need (meta, tables, items, idx, parts, stats).
python3 - "$B/gen/memimage_data.c" "$tmp" <<'PY'
import re, sqlite3, sys
src, tmp = sys.argv[1], sys.argv[2]
text = open(src).read()
image = bytes(int(x) for x in re.findall(r'\d+', text[text.index('{') + 1:text.index('}')]))
variants = {
    'full': [],
    'rare': ['tokens', 'staged', 'backups'],
    'core': ['changes', 'streams', 'ttl', 'tags', 'tokens', 'staged', 'backups', 'history', 'vecs', 'vecver'],
}
for name, drop in variants.items():
    path = '%s/%s.db' % (tmp, name)
    open(path, 'wb').write(image)
    if drop:
        db = sqlite3.connect(path)
        for t in drop:
            db.execute('DROP TABLE %s' % t)
        db.commit()
        db.execute('VACUUM')
        db.close()
    data = open(path, 'rb').read()
    with open('%s/mem_%s.c' % (tmp, name), 'w') as f:
        f.write('#include <stddef.h>\nconst unsigned char store_mem_image[] = {\n%s\n};\n'
                'const size_t store_mem_image_len = %d;\n' % (','.join(map(str, data)), len(data)))
    if drop:
        full = sqlite3.connect('%s/full.db' % tmp)
        sql = [r[0] for r in full.execute('SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND tbl_name IN (%s)'
                                          % ','.join('?' * len(drop)), drop)]
        open('%s/%s.sql' % (tmp, name), 'w').write('BEGIN; ' + '; '.join(sql) + '; COMMIT')
    print('%-5s %2d schema objects, %6d bytes' % (
        name, sqlite3.connect(path).execute('SELECT count(*) FROM sqlite_master').fetchone()[0], len(data)))
PY

# One start: exec to the first answered ListTables; prints wall ms, CPU
# ms and minor faults at the answer.
cat >"$tmp/start.c" <<'C'
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
extern char **environ;
static double ms(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}
static double cpu_ms(pid_t p)
{
    char path[64], f[300];
    snprintf(path, sizeof path, "/proc/%d/task", (int)p);
    DIR *d = opendir(path);
    struct dirent *e;
    double sum = 0;
    while (d && (e = readdir(d))) {
        unsigned long long ns = 0;
        snprintf(f, sizeof f, "%s/%s/schedstat", path, e->d_name);
        FILE *fp = e->d_name[0] == '.' ? NULL : fopen(f, "r");
        if (fp && fscanf(fp, "%llu", &ns) == 1)
            sum += ns / 1e6;
        if (fp)
            fclose(fp);
    }
    if (d)
        closedir(d);
    return sum;
}
static long minflt(pid_t p)
{
    char f[64], b[4096];
    long v[7] = { 0 };
    snprintf(f, sizeof f, "/proc/%d/stat", (int)p);
    FILE *fp = fopen(f, "r");
    size_t n = fp ? fread(b, 1, sizeof b - 1, fp) : 0;
    if (fp)
        fclose(fp);
    b[n] = 0;
    char *q = strrchr(b, ')');
    if (q && sscanf(q + 2, "%*c %ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6]) == 7)
        return v[6];
    return -1;
}
int main(int argc, char **argv)
{
    static const char req[] = "POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
        "Content-Type: application/x-amz-json-1.0\r\nAuthorization: AWS4-HMAC-SHA256 "
        "Credential=k/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=x\r\n"
        "Content-Length: 2\r\n\r\n{}";
    int port = atoi(argv[1]);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    pid_t p;
    double t0 = ms(CLOCK_MONOTONIC);
    if (posix_spawn(&p, argv[2], &fa, NULL, argv + 2, environ) != 0)
        return perror("posix_spawn"), 1;
    int s;
    for (;;) {
        s = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(s, (struct sockaddr *)&a, sizeof a) == 0)
            break;
        close(s);
        nanosleep(&(struct timespec){ 0, 100000 }, NULL);
    }
    char buf[4096];
    ssize_t r = write(s, req, sizeof req - 1) > 0 ? read(s, buf, sizeof buf) : -1;
    double wall = ms(CLOCK_MONOTONIC) - t0, cpu = cpu_ms(p);
    long faults = minflt(p);
    kill(p, SIGKILL);
    waitpid(p, NULL, 0);
    if (r < 12 || memcmp(buf + 9, "200", 3) != 0)
        return fprintf(stderr, "%s: no 200 answer\n", argv[2]), 1;
    printf("%.3f %.3f %ld\n", wall, cpu, faults);
    return 0;
}
C
cc -O2 -o "$tmp/start" "$tmp/start.c"
cc -O2 -o "$tmp/floor.linked" tests/bench/floor.c
cp "$tmp/floor.linked" "$tmp/floor"

bins=""
for v in full rare core; do
    cc -O2 -c -o "$tmp/mem_$v.o" "$tmp/mem_$v.c"
    make -s --no-print-directory BUILD="$B" MEMIMAGE_OBJ="$tmp/mem_$v.o" DDBX="$tmp/dyn-$v.linked" \
        IMAGE_BIN="$tmp/img-$v.linked" "$tmp/dyn-$v.linked" "$tmp/img-$v.linked"
    for k in dyn img; do
        cp "$tmp/$k-$v.linked" "$tmp/$k-$v"
        bins="$bins $k-$v"
    done
done

port=$((20000 + $$ % 20000))
echo "callgrind instructions, exec to the first answer:"
for b in $bins; do
    port=$((port + 1))
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$b" "$tmp/$b" serve --in-memory --port $port \
        >/dev/null 2>&1 &
    vg=$!
    python3 - $port <<'PY'
import socket, sys, time
port = int(sys.argv[1])
req = (b"POST / HTTP/1.1\r\nHost: x\r\nX-Amz-Target: DynamoDB_20120810.ListTables\r\n"
       b"Content-Type: application/x-amz-json-1.0\r\nContent-Length: 2\r\n\r\n{}")
while True:
    try:
        s = socket.create_connection(("127.0.0.1", port))
        break
    except OSError:
        time.sleep(0.05)
s.sendall(req)
s.recv(4096)
PY
    callgrind_control -d $vg >/dev/null 2>&1
    sleep 0.5
    kill $vg
    wait $vg 2>/dev/null || true
    printf '  %-9s %s\n' "$b" "$(callgrind_annotate "$tmp/cg.$b.1" 2>/dev/null | sed -n 's/ *\([0-9,]*\) .*PROGRAM TOTALS.*/\1/p')"
done

echo "medians of $RUNS alternated starts (wall ms, CPU ms, minor faults at the first answer):"
: >"$tmp/runs"
i=0
while [ $i -lt "$RUNS" ]; do
    for b in floor $bins; do
        # A port another program holds gives no 200 from ours: the next.
        for try in 1 2 3; do
            port=$((port + 1))
            if [ "$b" = floor ]; then
                r=$("$tmp/start" $port "$tmp/floor" --port $port) && break
            else
                r=$("$tmp/start" $port "$tmp/$b" serve --in-memory --port $port) && break
            fi
            [ $try -lt 3 ] || exit 1
        done
        echo "$b $r" >>"$tmp/runs"
    done
    i=$((i + 1))
done
python3 - "$tmp/runs" floor $bins <<'PY'
import statistics as st, sys
rows = [l.split() for l in open(sys.argv[1])]
floor = st.median(float(r[2]) for r in rows if r[0] == 'floor')
for b in sys.argv[2:]:
    r = [x for x in rows if x[0] == b]
    cpu = st.median(float(x[2]) for x in r)
    print('  %-9s wall %5.2f  CPU %5.3f (%.2fx the floor)  faults %d' % (
        b, st.median(float(x[1]) for x in r), cpu, cpu / floor, st.median(int(x[3]) for x in r)))
PY

# What the left-out tables cost when a request needs them after all (a
# plain test flow's CreateTable, PutItem and DeleteTable reach history,
# changes, streams, ttl, vecs and vecver): two connections on one memdb
# database holding the image, each runs a statement (each parses the
# schema), then the first creates the variant's left-out tables in one
# transaction and the second runs a statement again (SQLite re-reads its
# whole schema after another connection's change). Instructions of the
# whole program, against the full image with nothing created.
cat >"$tmp/later.c" <<'C'
#include <sqlite3.h>
#include <stdio.h>
int main(int argc, char **argv)
{
    static unsigned char img[1 << 20];
    FILE *f = fopen(argv[1], "rb");
    size_t n = f ? fread(img, 1, sizeof img, f) : 0;
    if (f)
        fclose(f);
    sqlite3 *a, *b;
    sqlite3_file *fp = NULL;
    const char *uri = "file:/later?vfs=memdb";
    sqlite3_open_v2(uri, &a, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI, NULL);
    sqlite3_file_control(a, "main", SQLITE_FCNTL_FILE_POINTER, &fp);
    if (!n || !fp || fp->pMethods->xWrite(fp, img, (int)n, 0) != SQLITE_OK)
        return fprintf(stderr, "later: cannot write the image\n"), 1;
    sqlite3_open_v2(uri, &b, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL);
    sqlite3_exec(a, "SELECT count(*) FROM tables", NULL, NULL, NULL);
    sqlite3_exec(b, "SELECT count(*) FROM tables", NULL, NULL, NULL);
    if (argc > 2 && sqlite3_exec(a, argv[2], NULL, NULL, NULL) != SQLITE_OK)
        return fprintf(stderr, "later: %s\n", sqlite3_errmsg(a)), 1;
    sqlite3_exec(b, "SELECT count(*) FROM tables", NULL, NULL, NULL);
    return 0;
}
C
cc -O2 -o "$tmp/later" "$tmp/later.c" $(pkg-config --cflags --libs sqlite3)
ir() { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 | sed -n 's/.*Collected : //p'; }
echo "two connections, instructions: the full image $(ir "$tmp/later" "$tmp/full.db");"
for v in rare core; do
    echo "  the $v image: $(ir "$tmp/later" "$tmp/$v.db"), then its left-out tables made: $(ir "$tmp/later" "$tmp/$v.db" "$(cat "$tmp/$v.sql")")"
done
