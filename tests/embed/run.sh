#!/bin/sh
# run.sh SREMC: embedding a generated matcher (make check-embed).
#  1. every runtime header, and the generated header of every sample
#     (plain and --freestanding), compiles as C++ (g++ -std=c++11 -Wall
#     -Wextra -pedantic -Werror);
#  2. host.cpp, a C++ host of tests/embed/embed.srem (an explore clause on a
#     partitioned pattern, an episode, a register pattern, enum values
#     spelled as strings), built with g++ and linked with the generated .c
#     (built as C) and lib/libsremrt.a, prints the same records as the
#     program `sremc build` makes, run on the CSV the host wrote;
#  3. the bin round trip: PROG --convert-bin OUT events.csv, then PROG
#     --input bin OUT, gives the records of PROG events.csv.
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
# 3. the bin round trip: the host's events with two bad lines put in (a
#    timestamp going backwards, an unknown enum value); --convert-bin
#    reports them as the CSV run does and leaves them out, and --input bin
#    on its output gives the CSV run's records, indices included.
P=$W/prog
if [ -x "$P" ] && [ -s "$W/events.csv" ]; then
    sed -e '100a\
1600000000000,1,ap_reboot,1.0' -e '200a\
1700000000000,2,"no such kind",1.0' "$W/events.csv" >"$W/rt.csv"
    "$P" --format jsonl --convert-bin "$W/rt.bin" "$W/rt.csv" 2>"$W/conv.err"; c=$?
    "$P" --format jsonl "$W/rt.csv" >"$W/csv.out" 2>"$W/csv.err"; r=$?
    "$P" --format jsonl --input bin "$W/rt.bin" >"$W/bin.out" 2>"$W/bin.err"; b=$?
    if [ $c = 3 ] && [ $r = 3 ] && [ $b = 0 ] && [ ! -s "$W/bin.err" ] && [ "$(wc -l <"$W/csv.err")" = 2 ] &&
        cmp -s "$W/conv.err" "$W/csv.err" && [ -s "$W/csv.out" ] && cmp -s "$W/csv.out" "$W/bin.out" &&
        [ "$(wc -c <"$W/rt.bin")" -gt 0 ]; then ok
    else
        bad "bin round trip: --convert-bin exit $c, csv run $r, bin run $b"
        diff "$W/csv.err" "$W/conv.err" | head -5; diff "$W/csv.out" "$W/bin.out" | head -5
    fi
    # through a pipe, and a file it cannot write: status 2 before reading
    if "$P" --convert-bin - "$W/events.csv" | "$P" --input bin >"$W/pipe.out" && cmp -s "$W/pipe.out" "$W/prog.out"
    then ok; else bad "--convert-bin - piped into --input bin"; fi
    "$P" --convert-bin "$W/no/such/dir" "$W/events.csv" 2>/dev/null
    [ $? = 2 ] && ok || bad "--convert-bin to an unwritable path: want exit status 2"
    if [ -w /dev/full ]; then
        "$P" --convert-bin /dev/full "$W/events.csv" 2>/dev/null
        [ $? = 3 ] && ok || bad "--convert-bin to /dev/full: want exit status 3"
    fi
else
    bad "bin round trip: no program or events from step 2"
fi
echo "embed: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
