#!/usr/bin/env bash
# Set-up plus the main job on the bundled examples: builds omplens, checks the hand-written
# mappings of examples/smooth.c (`omplens check`), prints what `omplens fix` would move where
# for examples/jacobi.c (`omplens plan`), then the fix itself as a diff.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cargo build --release -q -p omplens
if [ $# -eq 0 ]; then
  echo "== omplens check examples/smooth.c"
  # Exit status 1: the example has a real error among its findings.
  target/release/omplens check examples/smooth.c || true
  echo
fi
file="${1:-examples/jacobi.c}"
echo "== omplens plan $file"
target/release/omplens plan "$file" "${@:2}"
echo
echo "== omplens fix --diff $file"
exec target/release/omplens fix --diff "$file" "${@:2}"
