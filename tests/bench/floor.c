/*
 * floor — the start-up floor of an HTTP endpoint (make bench, issue 43
 * item 9): `floor --port N` binds 127.0.0.1:N and answers every request
 * with a fixed 200, nothing else. Linked with libc alone (the Makefile's
 * own rule, not the data layer's), so exec to its first answer is what
 * the kernel, the loader and a socket cost; `ddbx serve --in-memory` is
 * timed beside it by `loadc startup`.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    int port = argc == 3 && strcmp(argv[1], "--port") == 0 ? atoi(argv[2]) : 8000;
    int fd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons((unsigned short)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 || listen(fd, 128) != 0)
        return 1;
    static const char ok[] = "HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
                             "Content-Length: 2\r\nConnection: close\r\n\r\n{}";
    char req[65536];
    for (;;) {
        int c = accept(fd, NULL, NULL);
        if (c < 0)
            continue;
        /* The client's small request comes in one segment on loopback. */
        if (read(c, req, sizeof req) > 0 && write(c, ok, sizeof ok - 1) < 0) {
            /* the client went away: nothing to answer */
        }
        close(c);
    }
}
