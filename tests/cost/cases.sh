#!/bin/sh
# cases.sh: window W, directory DIR -> DIR/*.srem: the inputs of issue 13's
# table (fire, the stnm and the 6-atom register patterns, a 7-atom
# register-free pattern, A{400} B, 80 register-free patterns in a file),
# the firmware fire file (fire, fire_fast, rising) and 100 generated
# 12-atom patterns (fixed seed), each with its count window set to W.
set -eu
W=$1
DIR=$2
mkdir -p "$DIR"
SCHEMA='schema E { type : enum { A, B, C, D, H, T }; id : int; v : int; value : float; }'

cat >"$DIR/fire.srem" <<X
$SCHEMA
pattern fire on E within $W events { x:T _* [type == H && id == x.id && value > 60] }
X
cat >"$DIR/stnm.srem" <<X
$SCHEMA
pattern stn on E within $W events policy stnm { x:[A == type] D [v > x.v] }
X
cat >"$DIR/six.srem" <<X
$SCHEMA
pattern six on E within $W events {
  x:[v / 2 < id] (_*) y:[v % 2 == 1] D* ([(type != D || type != B) && v > x.v + 1] [id != x.id])
}
X
cat >"$DIR/seven.srem" <<X
$SCHEMA
pattern seven on E within $W events {
  A [v > 3] _* (B | [id < 5]) C? [v % 3 == 0] _* D [id > v]
}
X
cat >"$DIR/a400.srem" <<X
$SCHEMA
pattern a400 on E within $((W * 16 > 1000 ? 1000 : W * 16)) events { A{$((W * 6 > 400 ? 400 : W * 6))} B }
X
cat >"$DIR/fire3.srem" <<X
schema Sensor { type : enum { T, H }; id : int; value : float; ok : bool; time : timestamp(ms); }
pattern fire on Sensor within $W events { x:T _* [type == H && id == x.id && value > 60] }
pattern fire_fast on Sensor within $W events { T _* [type == H && value > 60] }
pattern rising on Sensor within $W events { x:H [value > x.value] y:_ [value > y.value] }
X
# 80 register-free patterns and 100 12-atom patterns from a fixed-seed LCG
awk -v W="$W" -v schema="$SCHEMA" 'BEGIN {
    seed = 12345
    split("A B C D H T", ty, " ")
    print schema > "'"$DIR"'/many80.srem"
    print schema > "'"$DIR"'/many100.srem"
    for (p = 0; p < 80; p++) {
        a = ty[rnd(6) + 1]; b = ty[rnd(6) + 1]; k = rnd(20)
        printf "pattern f%d on E within %d events { %s [v > %d] _* %s }\n", p, W, a, k, b > "'"$DIR"'/many80.srem"
    }
    for (p = 0; p < 100; p++) {
        body = ""
        for (i = 0; i < 12; i++) {
            body = body " " atom(p, i)
            if (rnd(4) == 0) body = body " _*"
        }
        if (p % 2 == 0) body = body " [v > x.v]"
        printf "pattern g%d on E within %d events {%s }\n", p, W, body > "'"$DIR"'/many100.srem"
    }
}
function rnd(n) { seed = (seed * 1103515245 + 12345) % 2147483648; return int(seed / 65536) % n }
function atom(p, i,   r) {
    r = rnd(5)
    if (i == 0 && p % 2 == 0) return "x:" ty[rnd(6) + 1]
    if (r == 0) return ty[rnd(6) + 1]
    if (r == 1) return "[v > " rnd(50) "]"
    if (r == 2) return "[id == " rnd(8) " || type == " ty[rnd(6) + 1] "]"
    if (r == 3 && p % 2 == 0) return "[v > x.v]"
    return "_"
}'
