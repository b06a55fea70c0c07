#!/usr/bin/env bash
# Set-up plus the main job on a bundled example: builds omplens and prints the IR
# (functions, AST-CFG, accesses, OpenMP directives) of examples/jacobi.c.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
cargo build --release -q -p omplens
exec target/release/omplens ir "${1:-examples/jacobi.c}" "${@:2}"
