#!/usr/bin/env bash
# Installs what the editor integration tests need, when it is missing: Neovim (the real LSP
# client of server/tests/neovim_e2e.rs; Debian bookworm ships 0.7.2, the oldest version the
# plugin supports), tmux (the screen capture test runs Neovim in a detached tmux session) and
# Node.js with npm (the VS Code extension's build, tests and packaging; @vscode/vsce needs
# Node 20 or newer). Idempotent: does nothing when all are on PATH.
set -euo pipefail

need_apt=()
command -v nvim >/dev/null 2>&1 || need_apt+=(neovim)
command -v tmux >/dev/null 2>&1 || need_apt+=(tmux)
command -v node >/dev/null 2>&1 || need_apt+=(nodejs)
command -v npm >/dev/null 2>&1 || need_apt+=(npm)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install-editor-deps: installing ${need_apt[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends \
    "${need_apt[@]}" >/dev/null
fi

nvim --version | head -n 1
tmux -V
node_major=$(node -p 'process.versions.node.split(".")[0]')
if [ "$node_major" -lt 20 ]; then
  echo "install-editor-deps: Node.js $(node --version) is too old for the VS Code extension's" \
    "packaging (@vscode/vsce needs 20 or newer); install a newer Node.js and re-run" >&2
  exit 1
fi
echo "node $(node --version), npm $(npm --version)"
