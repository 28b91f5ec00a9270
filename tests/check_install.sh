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
[ $fail -eq 0 ] && echo "install: sremc, runtime and man page install; the installed sremc builds and runs samples/ships.srem"
[ $fail -eq 0 ]
