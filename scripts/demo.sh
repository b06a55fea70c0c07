#!/usr/bin/env bash
# Set-up plus the main job on a bundled example: builds omplens, prints what `omplens fix`
# would move where for examples/jacobi.c (`omplens plan`), then the fix itself as a diff.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cargo build --release -q -p omplens
file="${1:-examples/jacobi.c}"
echo "== omplens plan $file"
target/release/omplens plan "$file" "${@:2}"
echo
echo "== omplens fix --diff $file"
exec target/release/omplens fix --diff "$file" "${@:2}"
