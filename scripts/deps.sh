#!/bin/sh
# deps.sh [bench]: checks for the tools sremc needs to build and test (with
# `bench`: and to run the benchmarks' baselines), and installs the missing
# ones with apt-get when run as root (else prints the command).
missing=""
need() { # need COMMAND-OR-FILE DEBIAN-PACKAGE
    case "$1" in
    /*) [ -e "$1" ] || missing="$missing $2" ;;
    *) command -v "$1" >/dev/null 2>&1 || missing="$missing $2" ;;
    esac
}
need cc gcc
need g++ g++                                          # make check-embed: a C++ host
need make make
need pkg-config pkgconf                               # make check-install: sremrt.pc
need python3 python3                                  # make check-canon: Python's re as an oracle
need re2c re2c
need bison bison
need /usr/include/CUnit/CUnit.h libcunit1-dev
need dot graphviz
need valgrind valgrind                                # make check-fault: generated programs
need arm-none-eabi-gcc gcc-arm-none-eabi              # firmware mode: Cortex-M4 builds
need /usr/lib/arm-none-eabi/newlib libnewlib-arm-none-eabi
need nats-server nats-server                          # make check-nats: a JetStream cluster
need /usr/include/nats/nats.h libnats-dev             # PROG --nats (found with pkg-config libnats)
if [ "${1:-}" = bench ]; then   # make bench only: the tests never need these
    need /usr/include/hs/hs.h libhyperscan-dev        # the Hyperscan baseline (x86-64 only)
    need gnuplot gnuplot-nox                          # docs/bench-window.svg
    need /usr/bin/time time                           # make bench-nats: CPU time of file mode
fi
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
