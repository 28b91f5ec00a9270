/* ingest_time.c: `ingest_time REPS CMD [ARG...]` -> one line "CPU WALL":
 * the medians, in seconds, of REPS runs of CMD (standard output to
 * /dev/null): CPU the user and system time of the child (all its
 * threads), WALL its elapsed time. For bench/ingest.sh. */
#define _DEFAULT_SOURCE   /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing.h"

int main(int argc, char **argv)
{
    enum { MAX_REPS = 64 };
    double cpu[MAX_REPS], elapsed[MAX_REPS];
    int reps = argc > 2 ? atoi(argv[1]) : 0, i;
    if (reps < 1 || reps > MAX_REPS) {
        fprintf(stderr, "usage: ingest_time REPS CMD [ARG...] (REPS 1 to %d)\n", MAX_REPS);
        return 2;
    }
    for (i = 0; i < reps; i++) {
        struct rusage ru;
        int status;
        double t0 = wall();
        pid_t pid = fork();
        if (pid < 0)
            return perror("fork"), 2;
        if (pid == 0) {
            int null = open("/dev/null", O_WRONLY);
            if (null < 0 || dup2(null, 1) < 0)
                _exit(127);
            execvp(argv[2], argv + 2);
            perror(argv[2]);
            _exit(127);
        }
        if (wait4(pid, &status, 0, &ru) != pid)
            return perror("wait4"), 2;
        elapsed[i] = wall() - t0;
        cpu[i] = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                 (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6;
        if (!WIFEXITED(status) || WEXITSTATUS(status) == 127 || WEXITSTATUS(status) == 2) {
            fprintf(stderr, "ingest_time: %s failed (status %d)\n", argv[2], status);
            return 1;
        }
    }
    printf("%.4f %.4f\n", median(cpu, reps), median(elapsed, reps));
    return 0;
}
