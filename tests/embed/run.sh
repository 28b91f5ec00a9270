#!/bin/sh
# run.sh SREMC: embedding a generated matcher (make check-embed).
#  1. every runtime header, and the generated header of every sample
#     (plain and --freestanding), compiles as C++ (g++ -std=c++11 -Wall
#     -Wextra -pedantic -Werror);
#  2. host.cpp, a C++ host of tests/embed/embed.srem (an explore clause on a
#     partitioned pattern, an episode, a register pattern, enum values
#     spelled as strings), built with g++ and linked with the generated .c
#     (built as C) and lib/libsremrt.a, prints the same records as the
#     program `sremc build` makes, run on the CSV the host wrote.
set -u
SREMC=${1:-bin/sremc}
W=build/embed-test
rm -rf "$W" && mkdir -p "$W"
CXXFLAGS="-std=c++11 -Wall -Wextra -pedantic -Werror"
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "embed: FAIL $*"; fail=$((fail + 1)); }
if ! command -v g++ >/dev/null; then
    echo "embed: g++ not installed (make deps installs it)"; exit 1
fi

# 1. headers as C++
for h in runtime/include/sremrt/*.h; do
    for d in "" -DSREMRT_FREESTANDING; do
        if echo "#include \"sremrt/${h##*/}\"" | g++ $CXXFLAGS $d -Iruntime/include -x c++ -fsyntax-only -; then ok
        else bad "$h as C++ $d"; fi
    done
done
for f in samples/*.srem tests/embed/embed.srem; do
    n=$(basename "$f" .srem)
    for fs in "" --freestanding; do
        d=$W/hdr_$n${fs:+_fs}
        mkdir -p "$d"
        "$SREMC" emit $fs "$f" -o "$d/$n.c" 2>/dev/null || { bad "sremc emit $fs $f"; continue; }
        if echo "#include \"$n.h\"" | g++ $CXXFLAGS -Iruntime/include -I"$d" -x c++ -fsyntax-only -; then ok
        else bad "$n.h ($fs) as C++"; fi
    done
done

# 2. the C++ host against the generated program
if "$SREMC" emit tests/embed/embed.srem -o "$W/embed.c" &&
    cc -std=c99 -O1 -Wall -Wextra -pedantic -Werror -Iruntime/include -c "$W/embed.c" -o "$W/embed.o" &&
    g++ $CXXFLAGS -O1 -Iruntime/include -I"$W" -c tests/embed/host.cpp -o "$W/host.o" &&
    g++ -o "$W/host" "$W/host.o" "$W/embed.o" lib/libsremrt.a -lm; then
    if "$W/host" "$W/events.csv" >"$W/host.out" &&
        "$SREMC" build tests/embed/embed.srem -o "$W/prog" &&
        "$W/prog" "$W/events.csv" >"$W/prog.out"; then
        if [ -s "$W/prog.out" ] && cmp -s "$W/host.out" "$W/prog.out"; then ok
        else bad "the C++ host's records differ from the program's"; diff "$W/prog.out" "$W/host.out" | head -20; fi
    else
        bad "running the C++ host or the program"
    fi
else
    bad "building the C++ host"
fi
echo "embed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
