#!/bin/sh
# deps.sh: checks for the tools sremc needs to build and test, and installs
# the missing ones with apt-get when run as root (else prints the command).
missing=""
need() { # need COMMAND-OR-FILE DEBIAN-PACKAGE
    case "$1" in
    /*) [ -e "$1" ] || missing="$missing $2" ;;
    *) command -v "$1" >/dev/null 2>&1 || missing="$missing $2" ;;
    esac
}
need cc gcc
need make make
need re2c re2c
need bison bison
need /usr/include/CUnit/CUnit.h libcunit1-dev
need dot graphviz
need valgrind valgrind                                # make check-fault: generated programs
need arm-none-eabi-gcc gcc-arm-none-eabi              # firmware mode: Cortex-M4 builds
need /usr/lib/arm-none-eabi/newlib libnewlib-arm-none-eabi
need /usr/include/hs/hs.h libhyperscan-dev            # make bench: the Hyperscan baseline
need gnuplot gnuplot-nox                              # make bench: docs/bench-window.svg
[ -z "$missing" ] && exit 0

echo "deps: missing packages:$missing"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq && apt-get install -y -qq --no-install-recommends $missing || {
        echo "deps: apt-get failed; install by hand: apt-get install$missing" >&2
        exit 1
    }
else
    echo "deps: run as root:  apt-get update && apt-get install -y$missing" >&2
    exit 1
fi
