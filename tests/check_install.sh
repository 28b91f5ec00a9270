#!/bin/sh
# check_install.sh MAKE: `make install PREFIX=tmp` puts sremc, the runtime
# library and headers and the man page in place; the installed sremc builds
# samples/ships.srem (with its extern code) against the installed runtime,
# from another directory, and the program prints samples/ships.expected.
# The man page documents every option of `sremc --help` and renders
# without warnings (groff, when installed).
set -u
make=${1:-make}
top=$PWD
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "install: FAIL $*"; fail=$((fail + 1)); }

p=$tmp/prefix
$make --no-print-directory -s install PREFIX="$p" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; bad "make install"; }
for f in bin/sremc lib/libsremrt.a include/sremrt/sremrt.h include/sremrt/abi.h share/man/man1/sremc.1; do
    [ -f "$p/$f" ] || bad "missing $p/$f"
done
[ -x "$p/bin/sremc" ] || bad "$p/bin/sremc is not executable"

# The installed sremc, run from elsewhere, must use the installed runtime:
# hide the build tree's by running it from a copy of the samples.
mkdir -p "$tmp/work" && cp samples/ships.srem samples/ships_near.c samples/ships.csv samples/ships.expected "$tmp/work/"
if (cd "$tmp/work" && CFLAGS=-O0 "$p/bin/sremc" build ships.srem ships_near.c -o ships) >"$tmp/build.log" 2>&1; then
    if ! (cd "$tmp/work" && ./ships ships.csv >ships.out) || ! diff -u "$tmp/work/ships.expected" "$tmp/work/ships.out"; then
        bad "the program built by the installed sremc"
    fi
else
    cat "$tmp/build.log"; bad "build with the installed sremc"
fi
"$p/bin/sremc" --version | grep -q '^sremc ' || bad "installed sremc --version"
# The NATS mode comes with the installed runtime where libnats was found.
if [ -f lib/libsremrt_nats.a ]; then
    [ -f "$p/lib/libsremrt_nats.a" ] || bad "make install left out lib/libsremrt_nats.a"
    "$tmp/work/ships" --help | grep -q "NATS JetStream.*: built in" || bad "the installed sremc builds no --nats mode"
fi

# Building from the prefix alone, as docs/FIRMWARE.md and docs/guide.md
# show: a host program with the flags pkg-config gives (tests/embed/
# csv_host.c on samples/trend, its records as samples/trend.expected),
# and the firmware sources under share/sremc/runtime with a sample's
# --freestanding matcher, as Cortex-M4 objects (the host's cc
# -ffreestanding without arm-none-eabi-gcc).
pcdir=$p/lib/pkgconfig
for f in lib/pkgconfig/sremrt.pc share/sremc/runtime/episode_impl.h share/sremc/runtime/out.c; do
    [ -f "$p/$f" ] || bad "missing $p/$f"
done
if command -v pkg-config >/dev/null; then
    flags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags --libs sremrt | sed "s/ *$//")
    [ "$flags" = "-I$p/include -L$p/lib -lsremrt -lm" ] || bad "pkg-config --cflags --libs sremrt gives '$flags'"
    cp tests/embed/csv_host.c samples/trend.srem samples/trend.csv samples/trend.expected "$tmp/work/"
    # shellcheck disable=SC2086
    if (cd "$tmp/work" && "$p/bin/sremc" emit trend.srem -o trend.c &&
        cc -std=c99 -Wall -Wextra -pedantic -Werror -DPFX=trend -DHDR='"trend.h"' -o csv_host csv_host.c trend.c $flags) \
            >"$tmp/pc.log" 2>&1; then
        (cd "$tmp/work" && ./csv_host trend.csv >host.out && diff -u trend.expected host.out) || bad "the host program built with pkg-config"
    else
        cat "$tmp/pc.log"; bad "a host program built with pkg-config's flags"
    fi
else
    bad "pkg-config is not installed (make deps installs it)"
fi
rtdir=$(PKG_CONFIG_PATH=$pcdir pkg-config --variable=runtimedir sremrt 2>/dev/null)
[ "$rtdir" = "$p/share/sremc/runtime" ] || bad "pkg-config --variable=runtimedir sremrt gives '$rtdir'"
if command -v arm-none-eabi-gcc >/dev/null; then
    fcc="arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb -Os"
else
    fcc="cc"; echo "install: arm-none-eabi-gcc not installed: the firmware build is for the host"
fi
mkdir -p "$tmp/fw" && cp samples/firmware/sensors.srem "$tmp/fw/"
# shellcheck disable=SC2086
if (cd "$tmp/fw" && "$p/bin/sremc" --freestanding --max-keys 8 sensors.srem -o sensors.c 2>/dev/null &&
    for c in sensors.c "$p"/share/sremc/runtime/*.c; do
        $fcc -std=c99 -ffreestanding -Wall -Wextra -Werror -DSREMRT_FREESTANDING -I"$p/include" -I. \
            -c "$c" -o "$(basename "$c" .c).o" || exit 1
    done) >"$tmp/fw.log" 2>&1; then
    n=$(ls "$tmp"/fw/*.o | wc -l)
    [ "$n" -gt 10 ] || bad "the firmware build made $n objects"
else
    cat "$tmp/fw.log"; bad "a freestanding build from the installed prefix ($fcc)"
fi

# The man page is true to --help: every option there is documented.
for o in $("$p/bin/sremc" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
    esc=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
    grep -q -- "$esc" docs/sremc.1 || bad "docs/sremc.1 does not document $o"
done
for c in $("$p/bin/sremc" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p'); do
    sed -n '/^\.SH COMMANDS/,/^\.SH OPTIONS/p' docs/sremc.1 | grep -q "^\.BI \"\{0,1\}$c[ \"]" ||
        bad "docs/sremc.1 does not document the command $c"
done
if command -v groff >/dev/null; then
    w=$(groff -man -Tutf8 -ww -z docs/sremc.1 2>&1)
    [ -z "$w" ] || { echo "$w"; bad "groff warns about docs/sremc.1"; }
else
    echo "install: groff not installed, man page rendering skipped"
fi
cd "$top" || exit 2
[ $fail -eq 0 ] && echo "install: sremc, runtime and man page install; the installed sremc builds and runs samples/ships.srem;" \
    "a host program (pkg-config) and a freestanding matcher build from the prefix alone"
[ $fail -eq 0 ]
