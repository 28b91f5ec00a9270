/* f64_test.c: sremrt_sink_f64 of a firmware build (SREMRT_FREESTANDING: no
 * snprintf) prints what %.9g prints, on values of every magnitude. */
#include <stdio.h>
#include <string.h>

#include "sremrt/sink.h"

int main(void)
{
    static const double fixed[] = {0.4, 1.0 / 3, 0.1 + 0.2, 1, 100, 123456789, 1234567890, 1e-5, 1e-4, 0.00012345,
                                   2.5e300, -3.75, 1e9, 999999999.6, 5e-324, 1.7976931348623157e308, -0.0,
                                   0.5, 0.25, 12.5, 99999.99999};
    int fails = 0, n = 0;
    unsigned long x = 88172645463325252ul;
    for (int i = 0; i < 100000; i++) {
        double v;
        char want[64], got[64];
        sremrt_sink s;
        if (i < (int)(sizeof fixed / sizeof fixed[0])) {
            v = fixed[i];
        } else {   /* xorshift: mantissas and exponents from 1e-12 to 1e12 */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            v = (double)(x >> 11) / 9007199254740992.0;
            for (int k = (int)(x % 25); k > 0; k--)
                v = x & 1 ? v * 10 : v / 10;
            if (x & 2)
                v = -v;
        }
        snprintf(want, sizeof want, "%.9g", v);
        if (strcmp(want, "-0") == 0)
            strcpy(want, "0");   /* the sink writes no negative zero */
        sremrt_sink_init_buf(&s, got, sizeof got);
        sremrt_sink_f64(&s, v);
        sremrt_sink_end(&s);
        n++;
        if (strcmp(want, got) != 0 && fails++ < 10)
            fprintf(stderr, "f64: %.17g: %%.9g gives %s, the sink %s\n", v, want, got);
    }
    printf("firmware: float formatting without snprintf: %d values, %d differ from %%.9g\n", n, fails);
    return fails != 0;
}
