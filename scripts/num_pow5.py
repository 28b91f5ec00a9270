#!/usr/bin/env python3
"""num_pow5.py: -> runtime/num_pow5.h, the table of runtime/num.c.

For each q in [-342, 308], 5**q written as V * 2**e with 2**127 <= V < 2**128:
floor(V) as two 64-bit halves, and e. floor(V) <= V < floor(V) + 1 is the
one property num.c relies on (exact when 5**q < 2**128 and q >= 0).
Run: python3 scripts/num_pow5.py > runtime/num_pow5.h
"""

LO, HI = -342, 308


def entry(q):
    """(floor(V), e) for 5**q = V * 2**e, V in [2**127, 2**128)."""
    if q >= 0:
        num, den = 5 ** q, 1
    else:
        num, den = 1, 5 ** -q
    e = num.bit_length() - den.bit_length() - 127
    # adjust e until num / den / 2**e is in [2**127, 2**128)
    while True:
        if e >= 0:
            v = num // (den << e)
        else:
            v = (num << -e) // den
        if v >= 1 << 128:
            e += 1
        elif v < 1 << 127:
            e -= 1
        else:
            return v, e


def main():
    print("/* num_pow5.h: powers of five for runtime/num.c, written by")
    print(" * scripts/num_pow5.py (do not edit): 5^q = V * 2^e, 2^127 <= V < 2^128,")
    print(" * as floor(V) in two halves and e, for q = SREMRT_POW5_MIN..SREMRT_POW5_MAX. */")
    print("#define SREMRT_POW5_MIN (%d)" % LO)
    print("#define SREMRT_POW5_MAX %d" % HI)
    print("static const uint64_t sremrt_pow5_v[][2] = {")
    es = []
    for q in range(LO, HI + 1):
        v, e = entry(q)
        es.append(e)
        print("    {0x%016xu, 0x%016xu}, /* %d */" % (v >> 64, v & ((1 << 64) - 1), q))
    print("};")
    print("static const int16_t sremrt_pow5_e[] = {")
    for i in range(0, len(es), 12):
        print("    " + ", ".join("%d" % e for e in es[i:i + 12]) + ",")
    print("};")


main()
