#!/usr/bin/env bash
# Installs what omplens needs to build and test, when it is missing: libclang 19 (front end),
# clang-19 and libomp-19 (the host-offload oracle), a Rust toolchain check. Idempotent.
set -euo pipefail

# An earlier omplens (`fix -o /dev/null` renamed its temporary file over the device) could leave
# /dev/null a regular file, which then feeds old output to every program reading stdin from it.
if [ ! -c /dev/null ]; then
  echo "bootstrap: /dev/null is not a character device; recreating it" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO rm -f /dev/null && $SUDO mknod -m 666 /dev/null c 1 3
fi

need_apt=()
[ -e /usr/lib/llvm-19/lib/libclang.so ] || need_apt+=(libclang-19-dev)
command -v clang-19 >/dev/null 2>&1 || need_apt+=(clang-19)
[ -e /usr/lib/llvm-19/lib/libomptarget.so ] || need_apt+=(libomp-19-dev)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)

if [ ${#need_apt[@]} -gt 0 ]; then
  echo "bootstrap: installing ${need_apt[*]}" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "bootstrap: cargo not found; install Rust (https://rustup.rs) and re-run" >&2
  exit 1
fi

# The editor integrations' tests: Neovim, tmux, Node.js and npm.
"$(dirname "$0")/install-editor-deps.sh"
