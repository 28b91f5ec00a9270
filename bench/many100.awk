# bench/many100.awk -v seed=S -v mode=reg|mixed: 100 random 12-atom patterns
# on the schema of tests/cost/cases.sh, beside its many100 (fixed seed, count
# window W for all): reg, every pattern with a register x and guards
# reading it; mixed, half of them; count windows drawn from 4 to 64, one
# pattern in three without `_*` and one of those in three under stam or
# stnm. For build times (docs/PERFORMANCE.md, "Many patterns").
BEGIN {
    split("A B C D H T", ty, " "); split("stam stnm", pol, " ")
    print "schema E { type : enum { A, B, C, D, H, T }; id : int; v : int; value : float; }"
    for (p = 0; p < 100; p++) {
        reg = mode == "reg" || p % 2 == 0
        body = ""
        for (i = 0; i < 12; i++) {
            body = body " " atom(p, i, reg)
            if (rnd(p % 3 == 0 ? 1000 : 4) == 0) body = body " _*"
        }
        if (reg) body = body " [v > x.v]"
        w = 4 + rnd(61)
        pl = rnd(3) == 0 && index(body, "*") == 0 ? " policy " pol[rnd(2) + 1] : ""
        printf "pattern g%d on E within %d events%s {%s }\n", p, w, pl, body
    }
}
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % n }
function atom(p, i, reg,   r) {
    r = rnd(6)
    if (i == 0 && reg) return "x:" ty[rnd(6) + 1]
    if (r == 0) return ty[rnd(6) + 1]
    if (r == 1) return "[v > " rnd(50) "]"
    if (r == 2) return "[id == " rnd(8) " || type == " ty[rnd(6) + 1] "]"
    if (r == 3 && reg) return "[v > x.v && id != x.id]"
    if (r == 4) return "[value < " rnd(100) ".5 && type != " ty[rnd(6) + 1] "]"
    return "_"
}
