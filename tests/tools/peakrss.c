/*
 * peakrss — runs a command and reports its wall time and peak resident
 * set (getrusage of the child), for the whole-program figures of make
 * bench and the constant-memory checks of tests/diffcmd:
 *
 *   peakrss CMD [ARG...]    stderr gets a last line
 *                           "peakrss wall_ms=N cpu_ms=N maxrss_kb=N status=N"
 *
 * The command's stdin, stdout and stderr are passed through; the exit
 * status is the command's.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: peakrss CMD [ARG...]\n");
        return 2;
    }
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    pid_t pid = fork();
    if (pid < 0) {
        perror("peakrss: fork");
        return 1;
    }
    if (pid == 0) {
        execvp(argv[1], argv + 1);
        perror(argv[1]);
        _exit(127);
    }
    int st = 0;
    struct rusage ru;
    if (wait4(pid, &st, 0, &ru) < 0) {
        perror("peakrss: wait4");
        return 1;
    }
    clock_gettime(CLOCK_MONOTONIC, &b);
    int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    double cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
    fprintf(stderr, "peakrss wall_ms=%.3f cpu_ms=%.3f maxrss_kb=%ld status=%d\n",
            (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6,
            cpu, ru.ru_maxrss, code);
    return code;
}
