#!/bin/sh
# check.sh SREMC: issue 13's inputs (cases.sh) at count windows 4 to 64 ->
# `sremc emit` under the default code budget (no timing here: bench/build_times.sh
# times the builds). Each file must emit; what it takes of the budget (trees
# count 4x) must fit the default 320 KB, but for the part no layout can
# shrink (up to 12 KB a pattern: conditions, drivers, runs); its C must
# stay within that plus the fixed text (16 KB); and the estimate must not
# be under half the C emitted.
SREMC=${1:-bin/sremc}
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
fail=0 files=0
check_file() {   # FILE W
    n=$(basename "$1" .srem)
    if ! "$SREMC" emit "$1" -o "$dir/$n.c" --explain 2>"$dir/$n.log"; then
        echo "cost: FAIL emit $n within $2 events"; cat "$dir/$n.log"; fail=$((fail + 1)); return
    fi
    files=$((files + 1))
    size=$(wc -c <"$dir/$n.c")
    set -- "$n" "$2" "$size" $(awk '/^sremc: pattern/ {
            n++; match($0, /~[0-9]+ KB of C/); est += substr($0, RSTART + 1, RLENGTH - 9)
            match($0, /[0-9]+ KB of the budget/); budget += substr($0, RSTART, RLENGTH - 17)
        } END { print n + 0, est + 0, budget + 0 }' "$dir/$n.log")
    # $1 name, $2 window, $3 bytes, $4 patterns, $5 estimated KB of C, $6 KB of the budget
    allow=$((320 + 12 * $4))
    if [ "$6" -gt "$allow" ] || [ "$3" -gt $(( (allow + 16) * 1024 )) ] || [ "$3" -gt $(( (2 * $5 + 16) * 1024 )) ]; then
        echo "cost: FAIL $1 within $2 events: $3 bytes of C for $4 patterns, estimated $5 KB, $6 KB of the budget"
        cat "$dir/$1.log"; fail=$((fail + 1))
    fi
}
w=3
while [ $w -lt 64 ]; do
    w=$((w + 1))
    sh tests/cost/cases.sh "$w" "$dir/w$w" || exit 2
    for f in "$dir/w$w"/*.srem; do
        case $f in *many100.srem) [ $w = 4 ] || [ $w = 16 ] || [ $w = 64 ] || continue ;; esac
        check_file "$f" "$w"
    done
done
# The random 100-pattern files of docs/PERFORMANCE.md's build times
# (bench/many100.awk, seeds 1-3, every pattern with a register or half of
# them, count windows 4 to 64) emit under the budget too; one of them,
# built as the two translation units `sremc build` makes of a matcher
# this large (cg_split) and as one, gives the same records.
for seed in 1 2 3; do
    for mode in reg mixed; do
        awk -v seed=$seed -v mode=$mode -f bench/many100.awk > "$dir/rand_${mode}_$seed.srem"
        check_file "$dir/rand_${mode}_$seed.srem" "4-64"
    done
done
# A file over the budget drops its runs patterns' direct-coded dense
# steps first (cost.c, add_runs: in rand_mixed_1 33 of them were 180 KB
# of C, 29% more of cc's time); a runs pattern within the budget keeps its.
if ! grep -q "the direct step (~[0-9]* KB of C) is over the code budget" "$dir/rand_mixed_1.log" ||
    grep -q "(direct step)" "$dir/rand_mixed_1.log" || grep -q "_dstep(" "$dir/rand_mixed_1.c"; then
    echo "cost: FAIL rand_mixed_1, over the budget, drops no direct-coded runs step or keeps one"; fail=$((fail + 1))
fi
printf 'schema E { type : enum { A, B, C }; }\npattern p on E within 100 events policy stam { A B C }\n' \
    > "$dir/direct.srem"
if ! "$SREMC" emit --strategy runs --explain "$dir/direct.srem" -o "$dir/direct.c" 2>"$dir/direct.log" ||
    ! grep -q "(direct step)" "$dir/direct.log" || ! grep -q "_dstep(" "$dir/direct.c"; then
    echo "cost: FAIL one small runs pattern did not get its direct-coded step"; cat "$dir/direct.log"; fail=$((fail + 1))
fi
awk 'BEGIN { srand(13); split("A B C D H T", t, " "); print "type,id,v,value"
             for (i = 0; i < 400; i++)
                 printf "%s,%d,%d,%.1f\n", t[int(rand() * 6) + 1], int(rand() * 8), int(rand() * 60), rand() * 100 }' \
    > "$dir/rand.csv"
for parts in 1 2; do
    if ! CFLAGS=-O0 "$SREMC" build --cc-parts $parts "$dir/rand_reg_2.srem" -o "$dir/rand$parts" 2>"$dir/rand$parts.log"; then
        echo "cost: FAIL building rand_reg_2 as $parts parts"; cat "$dir/rand$parts.log"; fail=$((fail + 1))
    fi
    "$dir/rand$parts" "$dir/rand.csv" > "$dir/rand$parts.out" 2>&1
done
if ! cmp -s "$dir/rand1.out" "$dir/rand2.out" || [ ! -s "$dir/rand1.out" ]; then
    echo "cost: FAIL rand_reg_2 as two parts and as one differ"; diff "$dir/rand1.out" "$dir/rand2.out" | head
    fail=$((fail + 1))
fi
# Firmware: the fire file (fire, fire_fast, rising) within 10 and 16 events,
# --freestanding (64 KB budget), -Os for a Cortex-M4: the matcher's text
# and rodata stay within issue 13's 24 KB (sizes, not times); so does a
# firmware image of it: the matcher linked with the runtime parts it
# calls, memcpy and libgcc (--gc-sections, entry points init, push,
# push_many, finish).
if command -v arm-none-eabi-gcc >/dev/null; then
    ARM="arm-none-eabi-gcc -std=c99 -mcpu=cortex-m4 -mthumb -ffreestanding -Os -DSREMRT_FREESTANDING"
    for p in runtime/*.c; do
        $ARM -ffunction-sections -fdata-sections -Iruntime/include -c "$p" -o "$dir/rt_$(basename "$p" .c).o" \
            2>/dev/null || rm -f "$dir/rt_$(basename "$p" .c).o"   # the hosted-only parts do not compile
    done
    for w in 10 16; do
        f=$dir/w$w/fire3.srem
        if "$SREMC" emit --freestanding "$f" -o "$dir/fw$w.c" 2>"$dir/fw$w.log" &&
                arm-none-eabi-gcc -std=c99 -mcpu=cortex-m4 -mthumb -ffreestanding -Os \
                    -DSREMRT_FREESTANDING -Iruntime/include -I"$dir" -c "$dir/fw$w.c" -o "$dir/fw$w.o" \
                    2>>"$dir/fw$w.log"; then
            bytes=$(arm-none-eabi-size -A "$dir/fw$w.o" | awk '$1 ~ /^\.(text|rodata)/ { s += $2 } END { print s + 0 }')
            echo "cost: fire file within $w events, Cortex-M4 -Os: $bytes bytes of text and rodata"
            [ "$bytes" -le 24576 ] || { echo "cost: FAIL over 24 KB"; fail=$((fail + 1)); }
            $ARM -ffunction-sections -fdata-sections -Iruntime/include -I"$dir" -c "$dir/fw$w.c" -o "$dir/fwg$w.o"
            if $ARM -nostartfiles -specs=nano.specs -specs=nosys.specs -Wl,--gc-sections -Wl,-e,fire3_push \
                    -Wl,-u,fire3_init -Wl,-u,fire3_push_many -Wl,-u,fire3_finish -o "$dir/fw$w.elf" \
                    "$dir/fwg$w.o" "$dir"/rt_*.o 2>>"$dir/fw$w.log"; then
                bytes=$(arm-none-eabi-size -A "$dir/fw$w.elf" | awk '$1 ~ /^\.(text|rodata)/ { s += $2 } END { print s + 0 }')
                echo "cost: fire file within $w events, Cortex-M4 -Os, linked with the runtime: $bytes bytes of text and rodata"
                [ "$bytes" -le 24576 ] || { echo "cost: FAIL over 24 KB"; fail=$((fail + 1)); }
            else
                echo "cost: FAIL linking the firmware fire file within $w events"; cat "$dir/fw$w.log"; fail=$((fail + 1))
            fi
        else
            echo "cost: FAIL firmware fire file within $w events"; cat "$dir/fw$w.log"; fail=$((fail + 1))
        fi
    done
fi
echo "cost: $files files emitted under the code budget, $fail failed"
[ $fail -eq 0 ]
