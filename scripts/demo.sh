#!/bin/sh
# demo.sh: the README's first command. Until code generation lands, it
# checks a bundled sample and prints its checked syntax tree.
set -e
sample=samples/fire.srem
echo "== sremc check $sample"
bin/sremc check "$sample"
echo "   (no diagnostics: the file is well-formed and well-typed)"
echo
echo "== sremc dump --stage ast $sample"
bin/sremc dump --stage ast "$sample"
echo
echo "== sremc check samples/broken/typos.srem (a file with mistakes, on purpose)"
bin/sremc check samples/broken/typos.srem || echo "   (exit status $?: errors in the input)"
