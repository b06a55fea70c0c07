#!/usr/bin/env bash
# Set-up plus the whole test suite: formatting, lints, unit/property/snapshot tests, and the
# corpus check against clang-19 (every corpus program compiles, runs under host offloading and
# prints what its sequential build prints).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
rustup component list --installed 2>/dev/null | grep -q rustfmt || rustup component add rustfmt clippy
echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -q -- -D warnings
echo "== cargo test"
cargo test --workspace
echo "== VS Code extension (npm ci, build, lint, unit tests, .vsix, smoke test against the server)"
OMPLENS=target/debug/omplens editors/vscode/ci.sh
if [ -x tests/corpus/check_corpus.sh ]; then
  echo "== corpus against clang-19"
  tests/corpus/check_corpus.sh
fi
