#!/bin/sh
# check_firmware.sh SREMC: firmware mode (sremc --freestanding, docs/FIRMWARE.md).
#  1. every sample's --freestanding code compiles warning-free for the host
#     and, when arm-none-eabi-gcc is installed, for a Cortex-M4 (-ffreestanding
#     -Os -Wall -Wextra -Werror), and neither it nor the runtime parts it
#     needs refer to malloc, free or stdio;
#  2. with exactly NAME_ARENA_BYTES of arena, each sample with events runs
#     on them without a refused allocation (tests/firmware/arena_fill.c),
#     and checkpoints taken at six points load into a second matcher in a
#     second arena that then gives the same records (tests/firmware/state_fw.c);
#  3. the runtime's float formatting without snprintf matches %.9g;
#  4. samples/firmware builds for the host and prints expected.txt, and for
#     the Cortex-M4, with its size;
#  5. a forecast sample (NAME.model beside it) compiles with its tables,
#     which sremc reports in bytes, and they are in the Cortex-M4 object.
set -u
SREMC=$1
W=build/firmware-test
rm -rf "$W" && mkdir -p "$W"
fail=0
pass=0
RT_PARTS="abi absq arena canon episode episode_conf explore explore_ref isotime keymap occmap out ptrie reorder schema sink state stats strtab tsorder"
ARM_FLAGS="-std=c99 -mcpu=cortex-m4 -mthumb -ffreestanding -Os -Wall -Wextra -Werror -DSREMRT_FREESTANDING"
HOST_FLAGS="-std=c99 -Wall -Wextra -pedantic -Werror -DSREMRT_FREESTANDING -ffreestanding"
have_arm=0
command -v arm-none-eabi-gcc >/dev/null && have_arm=1
ok() { pass=$((pass + 1)); }
bad() { echo "firmware: FAIL $*"; fail=$((fail + 1)); }

# 1. compile, and no malloc/stdio
for p in $RT_PARTS; do
    cc $HOST_FLAGS -Iruntime/include -c "runtime/$p.c" -o "$W/rt_$p.o" || bad "runtime/$p.c (host, freestanding)"
    if [ $have_arm = 1 ]; then
        arm-none-eabi-gcc $ARM_FLAGS -Iruntime/include -c "runtime/$p.c" -o "$W/arm_rt_$p.o" \
            || bad "runtime/$p.c (Cortex-M4)"
    fi
done
for f in samples/*.srem; do
    n=$(basename "$f" .srem)
    model=""; [ -f "samples/$n.model" ] && model="--model samples/$n.model"
    # shellcheck disable=SC2086
    if ! "$SREMC" --freestanding $model -v "$f" -o "$W/$n.c" 2>"$W/$n.log"; then
        bad "sremc --freestanding $f"; cat "$W/$n.log"; continue
    fi
    if cc $HOST_FLAGS -Iruntime/include -c "$W/$n.c" -o "$W/$n.o"; then ok; else bad "$n.c (host)"; fi
    if [ $have_arm = 1 ]; then
        if arm-none-eabi-gcc $ARM_FLAGS -Iruntime/include -c "$W/$n.c" -o "$W/arm_$n.o"; then ok
        else bad "$n.c (Cortex-M4)"; fi
    fi
    if [ -n "$model" ]; then   # 5.
        if grep -q 'forecast: .* table bytes' "$W/$n.log" && grep -q '_fc = {' "$W/$n.c"; then
            ok; sed -n 's/^sremc: \(pattern .*forecast: .*\)/firmware: \1/p' "$W/$n.log"
            [ $have_arm = 1 ] && echo "firmware: $n for the Cortex-M4: $(arm-none-eabi-size -A "$W/arm_$n.o" |
                awk '$1 == ".text" || $1 ~ /^.rodata/ { s += $2 } END { print s }') bytes of text and rodata"
        else
            bad "$n: no forecast tables with $model"; cat "$W/$n.log"
        fi
    fi
done
hosted=$(nm -u "$W"/*.o 2>/dev/null | grep -E ' (malloc|calloc|realloc|free|printf|fprintf|snprintf|sprintf|puts|fputs|fwrite|fopen|fclose|fflush|stdout|stderr|strtod)$' | sort -u)
if [ -z "$hosted" ]; then ok; else bad "freestanding objects use the hosted library:"; echo "$hosted"; fi

# 2. the arena suffices
for e in samples/*.csv; do
    n=$(basename "$e" .csv)
    [ -f "$W/$n.c" ] || continue
    ext=$(ls samples/"${n}"_*.c 2>/dev/null | grep -v "_gen\.c$")
    # shellcheck disable=SC2086
    if cc -std=c99 -O1 -Iruntime/include -I"$W" -DPFX="$n" -DHDR="\"$n.h\"" -o "$W/fill_$n" \
            tests/firmware/arena_fill.c "$W/$n.c" $ext lib/libsremrt.a -lm 2>"$W/fill_$n.log"; then
        if out=$("$W/fill_$n" "$e"); then ok; echo "firmware: $n: $out"; else bad "$n: $out"; fi
    else
        bad "building the arena test of $n"; cat "$W/fill_$n.log"
    fi
    # checkpoints in the arena: saved, loaded into a second matcher, the same records after
    # shellcheck disable=SC2086
    if cc -std=c99 -O1 -Iruntime/include -I"$W" -DPFX="$n" -DHDR="\"$n.h\"" -o "$W/state_$n" \
            tests/firmware/state_fw.c "$W/$n.c" $ext lib/libsremrt.a -lm 2>"$W/state_$n.log"; then
        if out=$("$W/state_$n" "$e"); then ok; echo "firmware: $n: $out"; else bad "$n: $out"; fi
    else
        bad "building the checkpoint test of $n"; cat "$W/state_$n.log"
    fi
done

# 3. floats without snprintf
if cc -std=c99 -O1 -DSREMRT_FREESTANDING -Iruntime/include -o "$W/f64" tests/firmware/f64_test.c runtime/sink.c \
        && "$W/f64"; then ok; else bad "float formatting without snprintf"; fi

# 4. the firmware sample
if make -s -C samples/firmware check SREMC="$(pwd)/$SREMC" B="$(pwd)/$W/sample"; then ok; else bad "samples/firmware (host)"; fi
if [ $have_arm = 1 ]; then
    if make -s -C samples/firmware arm SREMC="$(pwd)/$SREMC" B="$(pwd)/$W/sample"; then ok
    else bad "samples/firmware (Cortex-M4)"; fi
else
    echo "firmware: arm-none-eabi-gcc not installed: Cortex-M4 builds skipped (make deps installs it)"
fi
echo "firmware: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
