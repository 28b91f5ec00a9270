#!/bin/sh
# bench/build_commit.sh COMMIT DIR: COMMIT's tree (git archive) -> DIR
# with its bin/sremc and lib/libsremrt.a built (log: DIR.log), for the
# benchmarks that compare with another commit (bench/run.sh's
# BENCH_BASELINE, bench/ab.sh). Exit 1 when the build fails.
set -eu
rm -rf "$2"
mkdir -p "$2"
git archive "$1" | tar -x -C "$2"
make -C "$2" -j2 bin/sremc lib/libsremrt.a > "$2.log" 2>&1 ||
    { echo "bench: building $1 failed (see $2.log)" >&2; exit 1; }
