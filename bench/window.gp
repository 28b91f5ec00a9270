# bench/window.gp: ns/event against the window at K = 10, per strategy and
# baseline (docs/bench-window.svg). bench/report.sh runs it with
#   gnuplot -e "datafile='build/bench/window.dat'; outfile='docs/bench-window.svg'"
# on the table the driver writes (bench --report --dat): one row per w,
# one column per method (see its first line), "?" where a method did not
# run (over the state budget, or not in the grid).
if (!exists("datafile")) datafile = 'build/bench/window.dat'
if (!exists("outfile")) outfile = 'docs/bench-window.svg'
set terminal svg size 960,580 dynamic font "sans,12" background rgb "white"
set output outfile
set datafile missing "?"
set title "ns/event against the window, K = 10, one-byte types (lower is faster)"
set xlabel "window w (B1, B3: within w events; B2: gaps of w - 2)"
set ylabel "ns/event (median, thread CPU time)"
set logscale xy
set grid xtics ytics mxtics mytics lc rgb "#dddddd"
set key outside right top vertical Left reverse noenhanced
set xrange [7:15000]
plot datafile using 1:2 with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "B1 tdfa", \
     '' using 1:3 with linespoints lw 2 pt 5 lc rgb "#17becf" title "B1 dsra", \
     '' using 1:4 with linespoints lw 2 pt 9 lc rgb "#2ca02c" title "B1 runs", \
     '' using 1:5 with linespoints lw 1 dt 2 pt 6 lc rgb "#2ca02c" title "B1 naive run-per-start", \
     '' using 1:6 with linespoints lw 1 dt 3 pt 1 lc rgb "#1f77b4" title "B1 hand-written O(1) counter", \
     '' using 1:7 with linespoints lw 2 pt 11 lc rgb "#d62728" title "B2 tdfa", \
     '' using 1:8 with linespoints lw 2 pt 13 lc rgb "#ff7f0e" title "B2 runs", \
     '' using 1:9 with linespoints lw 1 dt 2 pt 4 lc rgb "#ff7f0e" title "B2 naive run-per-start", \
     '' using 1:10 with linespoints lw 1 dt 3 pt 2 lc rgb "#d62728" title "B2 hand-written O(1) counter", \
     '' using 1:11 with linespoints lw 2 pt 8 lc rgb "#7f7f7f" title "B2 Hyperscan, 64 KiB chunks", \
     '' using 1:12 with linespoints lw 2 pt 15 lc rgb "#9467bd" title "B3 explore count (auto: tdfa)", \
     '' using 1:13 with lines lw 1 dt 4 lc rgb "black" title "64-state table DFA floor"
