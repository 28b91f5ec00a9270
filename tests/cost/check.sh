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
