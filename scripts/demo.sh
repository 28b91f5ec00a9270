#!/bin/sh
# demo.sh: the README's first command. Builds a matcher program from a
# bundled sample, runs it on a bundled stream (two lines of which are bad
# on purpose), then shows the diagnostics of a file with mistakes.
set -e
sample=samples/fire.srem
prog=build/demo/fire
mkdir -p build/demo
echo "== sremc build $sample -o $prog"
CFLAGS=${DEMO_CFLAGS:--O1} bin/sremc build "$sample" -o "$prog"
echo
echo "== $prog samples/fire.csv   (records on stdout, rejected lines on stderr)"
status=0
"$prog" samples/fire.csv > build/demo/fire.out || status=$?
cat build/demo/fire.out
echo "   (exit status $status: 3 because two input lines were rejected)"
if diff -u samples/fire.expected build/demo/fire.out >/dev/null; then
    echo "   (the detections are the ones in samples/fire.expected)"
else
    echo "   DIFFERENT from samples/fire.expected"; exit 1
fi
echo
echo "== sremc check samples/broken/typos.srem (a file with mistakes, on purpose)"
bin/sremc check samples/broken/typos.srem || echo "   (exit status $?: errors in the input)"
