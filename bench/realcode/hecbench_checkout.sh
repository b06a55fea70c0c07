#!/usr/bin/env bash
# Usage: hecbench_checkout.sh HECBENCH_GIT_DIR DEST
#
# Extracts HeCBench's OpenMP benchmarks (src/*-omp) from a bare clone (or any git directory)
# into DEST/src, with the sibling directories they reach by relative path (`#include
# "../X-cuda/reference.h"`, `-I../X-cuda` in a Makefile, data files under `../X-sycl/`):
# without those, most `*-omp` benchmarks do not compile (their reference checks live in the
# CUDA version's directory). Nothing is copied into this project.
set -euo pipefail
GIT=$1
DEST=$2
mkdir -p "$DEST"
# One directory at a time: a snapshot may lack a large data file's blob, which stops an
# archive of everything at that file.
extract() {
  git --git-dir="$GIT" archive HEAD "$1" 2>/dev/null | tar -x -C "$DEST" 2>/dev/null
}
for d in $(git --git-dir="$GIT" ls-tree -d --name-only HEAD src/ | grep -- '-omp$'); do
  extract "$d" || echo "incomplete in this checkout: $d" >&2
done
# The sibling directories the OpenMP versions name.
siblings=$(grep -rhoE '\.\./[A-Za-z0-9_.-]+-(cuda|sycl|hip)' \
  --include=Makefile --include='*.c' --include='*.cpp' --include='*.cc' --include='*.h' \
  --include='*.hpp' "$DEST"/src/*-omp 2>/dev/null | sed 's#^\.\./##' | sort -u)
n=0
missing=0
for d in $siblings; do
  if extract "src/$d"; then
    n=$((n + 1))
  else
    missing=$((missing + 1))
    echo "not in this checkout: src/$d" >&2
  fi
done
echo "$(ls -d "$DEST"/src/*-omp | wc -l) OpenMP benchmarks and $n sibling directories in $DEST/src ($missing named but absent)"
