#!/usr/bin/env bash
# CI of the VS Code extension, from a clean state: npm ci, build, lint, unit tests, .vsix.
# With OMPLENS=path/to/omplens also the smoke test: the packaged bundle against the real server
# (counted as one more test). Ends with `vscode: N passed, N failed`; exits non-zero when any
# step fails.
set -euo pipefail
# Relative to where we were called from, before the cd.
omplens_bin=""
if [[ -n "${OMPLENS:-}" ]]; then
  omplens_bin=$(realpath "$OMPLENS")
fi
cd "$(dirname "${BASH_SOURCE[0]}")"

step() { printf '\n== %s\n' "$*"; }

step "clean"
rm -rf node_modules out ./*.vsix

step "npm ci"
# No stdin: nothing may prompt.
npm ci --no-audit --no-fund </dev/null

step "npm run build"
npm run build </dev/null

step "npm run lint"
npm run lint </dev/null

step "npm test"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
npm test </dev/null 2>&1 | tee "$log"
test_rc=${PIPESTATUS[0]}
set -e
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$log" | tail -n 1)
fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$log" | tail -n 1)
if [[ -z "$pass" || -z "$fail" ]]; then
  echo "ci.sh: no test summary in the output of npm test" >&2
  echo "vscode: 0 passed, 1 failed"
  exit 1
fi
if [[ $test_rc -ne 0 || $fail -ne 0 ]]; then
  echo "vscode: $pass passed, $fail failed"
  exit 1
fi

step "npm run package"
npm run package </dev/null
version=$(node -p 'require("./package.json").version')
vsix="$PWD/omplens-$version.vsix"
[[ -f "$vsix" ]] || { echo "ci.sh: $vsix was not made" >&2; exit 1; }
# The .vsix must hold the bundle and the manifest (and nothing from node_modules).
listing=$(npx --no-install vsce ls --no-dependencies </dev/null)
for want in out/extension.js package.json README.md LICENSE; do
  grep -qx "$want" <<<"$listing" || { echo "ci.sh: $want is not in the package" >&2; exit 1; }
done
if grep -q '^node_modules/' <<<"$listing"; then
  echo "ci.sh: node_modules would be packaged" >&2
  exit 1
fi
echo "vsix: $vsix ($(stat -c %s "$vsix") bytes)"

if [[ -n "$omplens_bin" ]]; then
  step "npm run smoke (OMPLENS=$omplens_bin)"
  if OMPLENS="$omplens_bin" npm run smoke </dev/null; then
    pass=$((pass + 1))
  else
    echo "vscode: $pass passed, $((fail + 1)) failed"
    exit 1
  fi
else
  echo "smoke test not run: set OMPLENS=path/to/omplens to run the extension against the server"
fi
echo "vscode: $pass passed, $fail failed"
