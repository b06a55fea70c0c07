#!/usr/bin/env bash
# Set-up plus the whole test suite: formatting, lints, unit/property/snapshot tests, and the
# corpus check against clang-19 (every corpus program compiles, runs under host offloading and
# prints what its sequential build prints).
set -euo pipefail
cd "$(dirname "$0")/.."
# Nothing here reads the terminal, and cargo's cached rustc probe results are not trusted (see
# the clippy step below).
exec </dev/null
export CARGO_CACHE_RUSTC_INFO=0
echo "== toolchain: $(rustc --version); target dir: ${CARGO_TARGET_DIR:-target}; RUSTFLAGS: ${RUSTFLAGS:-(none)}"
scripts/bootstrap.sh
rustup component list --installed 2>/dev/null | grep -q rustfmt || rustup component add rustfmt clippy
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo test"
cargo test --workspace
if [ -x tests/corpus/check_corpus.sh ]; then
  echo "== corpus against clang-19"
  tests/corpus/check_corpus.sh
fi
# Clippy gets its own target directory: on this toolchain a clippy run could leave a failed
# rustc probe (run through clippy-driver) in the shared target directory's cache, which then
# failed every later cargo command there.
echo "== cargo clippy"
CARGO_TARGET_DIR=target/clippy cargo clippy --workspace --all-targets -q -- -D warnings
