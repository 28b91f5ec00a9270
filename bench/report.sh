#!/bin/sh
# bench/report.sh: the last step of `make bench`, after bench/run.sh and the
# episode and explore benchmarks: merges the raw results of every process
# of bench/run.sh (build/bench/raw.N.txt) with build/bench/episodes.json and
# build/bench/explore.json (JSON lines, when present) into
# bench/results.json, writes the tables to build/bench/report.md (the
# source of docs/PERFORMANCE.md's tables) and, when gnuplot is installed,
# draws docs/bench-window.svg (bench/window.gp). Exit status 1 when a
# count was wrong.
set -eu

OUT=build/bench
if [ ! -x "$OUT/bench" ] || ! ls "$OUT"/raw.*.txt > /dev/null 2>&1; then
    echo "bench/report.sh: no results; run bench/run.sh (make bench) first" >&2
    exit 1
fi
status=0
"$OUT/bench" --report --md "$OUT/report.md" --dat "$OUT/window.dat" --meta "$OUT/meta.txt" \
    --json bench/results.json --episodes "$OUT/episodes.json" --explore "$OUT/explore.json" \
    "$OUT"/raw.*.txt > /dev/null || status=1
echo "bench: wrote bench/results.json and $OUT/report.md" \
     "(episodes: $([ -f "$OUT/episodes.json" ] && echo merged || echo none)," \
     "explore: $([ -f "$OUT/explore.json" ] && echo merged || echo none))"
if command -v gnuplot > /dev/null 2>&1; then
    gnuplot -e "datafile='$OUT/window.dat'; outfile='docs/bench-window.svg'" bench/window.gp
    echo "bench: drew docs/bench-window.svg"
else
    echo "bench: gnuplot not installed (apt-get install gnuplot-nox, or make deps): no plot"
fi
[ "$status" = 0 ] || echo "bench: FAILED (a count was wrong; see build/bench/report.md)"
exit $status
