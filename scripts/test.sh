#!/usr/bin/env bash
# Set-up plus the whole test suite, both tiers: formatting, lints, unit/property/snapshot tests,
# the slow tier (OMPLENS_SLOW=1: the host-offload oracle, Neovim, the large-file LSP tests, LSP
# against `check`), the VS Code extension, and the corpus check against clang-19 (every corpus
# program compiles, runs under host offloading and prints what its sequential build prints).
# Prints the time of each stage, and all of them at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

# Every slow test runs; a missing tool fails its test instead of skipping it.
export OMPLENS_SLOW=1

timings=()
stage_name=""
stage_start=0
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
end_stage() {
  if [ -n "$stage_name" ]; then
    local took
    took=$(elapsed "$stage_start")
    echo "== $stage_name: ${took} s"
    timings+=("$(printf '%-10s %8s s' "$stage_name" "$took")")
  fi
  stage_name=""
}
stage() {
  end_stage
  stage_name="$1"
  stage_start=$(now)
  echo "== $1: $2"
}
summary() {
  local rc=$?
  if [ -n "$stage_name" ]; then
    timings+=("$(printf '%-10s %8s s (failed)' "$stage_name" "$(elapsed "$stage_start")")")
  fi
  echo "== stage timings"
  printf '%s\n' "${timings[@]}"
  printf '%-10s %8s s\n' "total" "$(elapsed "$script_start")"
  exit "$rc"
}
script_start=$(now)
trap summary EXIT

stage bootstrap "apt packages, rustfmt, clippy"
scripts/bootstrap.sh
rustup component list --installed 2>/dev/null | grep -q rustfmt || rustup component add rustfmt clippy

stage fmt "cargo fmt --check"
cargo fmt --all -- --check

stage clippy "cargo clippy --all-targets"
cargo clippy --workspace --all-targets -q -- -D warnings

stage "cargo test" "cargo test --workspace (OMPLENS_SLOW=1: fast and slow tiers)"
cargo test --workspace

stage vscode "VS Code extension (npm ci, build, lint, unit tests, .vsix, smoke test against the server)"
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "node or npm is missing (scripts/install-editor-deps.sh installs them)" >&2
  exit 1
fi
OMPLENS=target/debug/omplens editors/vscode/ci.sh

if [ -x tests/corpus/check_corpus.sh ]; then
  stage corpus "tests/corpus against clang-19"
  tests/corpus/check_corpus.sh
fi
end_stage
