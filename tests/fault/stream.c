/* stream.c: N (argv[1]) CSV events of samples/fire.srem on stdout for
 * make check-fault-long, written as fast as possible: pairs T, H of one
 * sensor (ids cycle over 1000), timestamps rising; every 1000th H reads
 * above 60, so the program reports N / 2000 fires (N even). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    long long n = argc > 1 ? atoll(argv[1]) : 0;
    static char buf[1 << 16];
    setvbuf(stdout, buf, _IOFBF, sizeof buf);
    fputs("type,id,value,ok,time\n", stdout);
    for (long long i = 0; i < n; i++) {
        long long pair = i / 2;
        if (i % 2 == 0)
            printf("T,%lld,20.5,true,%lld\n", pair % 1000, 1700000000000LL + i);
        else
            printf("H,%lld,%s,false,%lld\n", pair % 1000, pair % 1000 == 999 ? "65" : "40",
                   1700000000000LL + i);
    }
    return fflush(stdout) != 0;
}
