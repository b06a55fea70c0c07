#!/usr/bin/env bash
# The fix table: for every program in tests/fix/ (or those named), the host-offload oracle's
# copies and bytes each way and correctness for the implicit version (the input), the expert
# version (NAME.expert.*) and what `omplens fix` writes; totals and the counts
#   omplens moves no more bytes than the expert in K of N programs
#   omplens correct in K of N
#
# Usage: scripts/fix_table.sh [--markdown] [NAMES...]
#   --markdown   a markdown table (default: aligned text); other arguments go to the table
#                (tests/src/bin/fix_table.rs), e.g. program names
# Environment:
#   OMPLENS_BIN=PATH   use this omplens binary and skip `cargo build --release -p omplens`
#   OMPLENS_FIX_DIR=D  read the programs from D instead of tests/fix
# The table goes to stdout, progress and failure details to stderr. Exit status: 0 when omplens
# is correct on every program, 1 when not, 2 when the table could not be made.
set -euo pipefail
case "${OMPLENS_BIN:-}" in
  "" | /*) ;;
  *) OMPLENS_BIN="$PWD/$OMPLENS_BIN" ;;
esac
case "${OMPLENS_FIX_DIR:-}" in
  "" | /*) ;;
  *) export OMPLENS_FIX_DIR="$PWD/$OMPLENS_FIX_DIR" ;;
esac
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
target_dir="${CARGO_TARGET_DIR:-target}"
if [ -z "${OMPLENS_BIN:-}" ]; then
  echo "== cargo build --release -p omplens" >&2
  cargo build --release -q -p omplens
  OMPLENS_BIN="$target_dir/release/omplens"
fi
echo "== fix table" >&2
cargo build --release -q -p omplens-tests --bin fix_table
exec "$target_dir/release/fix_table" --omplens "$OMPLENS_BIN" "$@"
